/**
 * `rulesets test`: what a ruleset does with a packet, and test files of expected verdicts.
 *
 *   rulesets test FILE --packet JSON|@FILE [--lists FILE] [--trace]
 *   rulesets test <test files, rulesets or folders...> [--lists FILE]
 *
 * A test file `NAME.ruleset.test.yaml` (or `.yml`, `.json`) sits beside `NAME.ruleset.yaml`
 * (or `.yml`, `.json`) and is a list of cases:
 *
 *   - name: SSH gets through          # optional
 *     packet: {ip.proto: tcp, tcp.dstport: 22}
 *     expect: pass                     # block | pass
 *     rule: 1                          # optional: 1-based number, or a description, id or ref
 *
 * or an object `{ruleset: PATH, lists: {NAME: [...]}, cases: [...]}` (`ruleset` relative
 * to the test file; `lists` as in a `--lists` file). Exit status: 0 every case passed, 1 a
 * case failed, 2 bad input (a file, a case, a packet, or a packet that lacks a value the
 * verdict depends on), with `file:line:col` of the cause.
 */
import { parseCommandArgs } from './args';
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import {
  describeRule,
  evaluateRuleset,
  findRule,
  formatOfPath,
  isTestFileName,
  MissingValuesError,
  PacketError,
  parseHost,
  parseLists,
  parsePacket,
  parseRuleset,
  plain,
  prepareRuleset,
  property,
  RuleEvaluationError,
  RulesetError,
  rulesetPathsBesideTest,
  type HostNode,
  type Lists,
  type PreparedRuleset,
  type RuleInfo,
  type RulesetVerdict,
} from '../core';
import { UsageError } from './check';
import { readTextFile, type Io } from './io';

export const TEST_USAGE = `Usage: rulesets test FILE --packet JSON [--lists FILE] [--trace]
       rulesets test <test files, rulesets or folders...> [--lists FILE]

With --packet: prints what the ruleset FILE does with the packet, e.g.
  block by rule 2 (Block every other TCP destination port) at FILE:16:5
The packet is a JSON object of field values:
  {"ip.src": "192.0.2.7", "ip.proto": "tcp", "tcp.dstport": 22, "tcp.flags.syn": true,
   "udp": "00 35 ...", "$lists": {"$svc.anonymizer": true, "$my_list": ["10.0.0.0/8"]}}

Without: runs test files. NAME.ruleset.test.yaml beside NAME.ruleset.yaml is a list of
  - packet: {...}
    expect: block|pass
    rule: 2          (optional: 1-based number, or a rule's description or id)
A ruleset named here runs the test file beside it; folders are searched for test files.

Options:
  --packet JSON    the packet, as a JSON object; or @FILE, a JSON or YAML file of one
  --lists FILE     JSON or YAML: {"my_list": ["10.0.0.0/8", "192.0.2.7"], ...}
  --trace          with --packet: also print each rule looked at and its outcome
                   (a failing case of a test file always shows it)
  -h, --help       show this help

Exit status: 0 done (with --packet) or every case passed, 1 a case failed,
2 bad input: a file, a case, or a packet without a value the verdict depends on.`;

export function test(args: string[], io: Io): number {
  const { values, positionals } = parseCommandArgs('test', {
    args,
    allowPositionals: true,
    options: {
      packet: { type: 'string' },
      lists: { type: 'string' },
      trace: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(`${TEST_USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('nothing to test: rulesets test FILE --packet JSON, or rulesets test <test files, rulesets or folders...>');
  const lists = values.lists !== undefined ? readListsFile(values.lists) : new Map<string, never>();
  if (values.packet !== undefined) {
    if (positionals.length !== 1) throw new UsageError('--packet tests one ruleset: rulesets test FILE --packet JSON');
    return testPacket(positionals[0], values.packet, lists, values.trace === true, io);
  }
  if (values.trace) throw new UsageError('--trace goes with --packet');
  return runTestFiles(collectTestFiles(positionals), lists, io);
}

// ---------------------------------------------------------------- one packet

function testPacket(path: string, packetText: string, lists: Lists, trace: boolean, io: Io): number {
  let json: unknown;
  if (packetText.startsWith('@')) {
    json = readDataFile(packetText.slice(1));
  } else {
    try {
      json = JSON.parse(packetText);
    } catch (error) {
      throw new UsageError(`--packet: not JSON (${(error as Error).message}); give the packet as a JSON object, or @FILE`);
    }
  }
  let packet;
  try {
    packet = parsePacket(json);
  } catch (error) {
    if (error instanceof PacketError) throw new UsageError(`--packet: ${error.message}`);
    throw error;
  }
  const ruleset = loadRuleset(path);
  let verdict: RulesetVerdict;
  try {
    verdict = evaluateRuleset(ruleset.prepared, packet, lists);
  } catch (error) {
    if (error instanceof RuleEvaluationError) throw new UsageError(`${ruleset.display}:${position(ruleset.text, error.rule.start)}: ${error.message}`);
    throw error;
  }
  if (trace) io.out(traceLines(verdict));
  io.out(`${describeVerdict(verdict, ruleset)}\n`);
  return 0;
}

/** Each rule looked at and what came of it, one indented line each. */
function traceLines(verdict: RulesetVerdict): string {
  return verdict.trace
    .map((entry) => {
      const what = entry.outcome === 'disabled' ? 'disabled, skipped' : entry.outcome === 'no-match' ? 'no match' : entry.effect === 'continue' ? `match; \`${entry.rule.action}\` does not decide here, next rule` : 'match';
      return `  rule ${describeRule(entry.rule)} [${entry.rule.action}]: ${what}\n`;
    })
    .join('');
}

/** `block by rule 2 (…) at FILE:16:5`, `pass by rule 1 (…) at FILE:8:5 (a skip rule: …)`, `pass: no rule matched`. */
function describeVerdict(verdict: RulesetVerdict, ruleset: LoadedRuleset): string {
  if (!verdict.rule) return `pass: no rule ${verdict.trace.some((t) => t.outcome === 'match') ? 'decided' : 'matched'}`;
  const where = `at ${ruleset.display}:${position(ruleset.text, verdict.rule.start)}`;
  const skip = verdict.verdict === 'pass' ? ' (a skip rule: the rest of the ruleset is skipped)' : '';
  return `${verdict.verdict} by rule ${describeRule(verdict.rule)} ${where}${skip}`;
}

// ---------------------------------------------------------------- files

interface LoadedRuleset {
  readonly display: string;
  readonly text: string;
  readonly prepared: PreparedRuleset;
}

function loadRuleset(path: string): LoadedRuleset {
  const format = formatOfPath(path);
  if (!format) throw new UsageError(`${path}: not a JSON or YAML file (expected .json, .yaml or .yml)`);
  const { text } = readTextFile(path);
  const display = displayPath(path);
  try {
    return { display, text, prepared: prepareRuleset(parseRuleset(text, format)) };
  } catch (error) {
    if (error instanceof RulesetError) throw new UsageError(`${display}:${position(text, error.start)}: ${error.message}`);
    throw error;
  }
}

/** A JSON or YAML file as plain data; a syntax error is a UsageError at its place. */
function readDataFile(path: string): unknown {
  const format = formatOfPath(path);
  if (!format) throw new UsageError(`${path}: not a JSON or YAML file (expected .json, .yaml or .yml)`);
  const { text } = readTextFile(path);
  const host = parseHost(text, format);
  const syntax = host.syntaxErrors[0];
  if (syntax) throw new UsageError(`${displayPath(path)}:${position(text, syntax.start)}: ${syntax.message}`);
  return plain(host.root);
}

function readListsFile(path: string): Lists {
  const data = readDataFile(path);
  try {
    return parseLists(data);
  } catch (error) {
    if (error instanceof PacketError) throw new UsageError(`${displayPath(path)}: ${error.message}`);
    throw error;
  }
}

/** Test files named, beside rulesets named, or found in folders. */
export function collectTestFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new UsageError(`${path}: no such file or folder`);
    }
    if (stats.isDirectory()) {
      const found = searchFolder(path);
      if (found.length === 0) throw new UsageError(`${path}: no test files (*.ruleset.test.yaml) in this folder`);
      files.push(...found);
    } else if (isTestFileName(path)) {
      files.push(normalize(path));
    } else if (formatOfPath(path)) {
      const stem = path.replace(/\.(json|ya?ml)$/i, '');
      const beside = ['.test.yaml', '.test.yml', '.test.json'].map((ext) => stem + ext).find(isFile);
      if (!beside) throw new UsageError(`${path}: no test file beside it: expected ${basename(stem)}.test.yaml`);
      files.push(normalize(beside));
    } else {
      throw new UsageError(`${path}: not a JSON or YAML file (expected .json, .yaml or .yml)`);
    }
  }
  return [...new Set(files)];
}

function searchFolder(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    throw new UsageError(`${folder}: cannot read the folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  return entries.flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : searchFolder(path);
    return isTestFileName(entry.name) && isFile(path) ? [path] : [];
  });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function displayPath(path: string): string {
  return relative(process.cwd(), path) || path;
}

/** `line:col`, 1-based, columns in UTF-16 code units. */
export function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - (before.lastIndexOf('\n') + 1) + 1;
  return `${line}:${col}`;
}


// ---------------------------------------------------------------- test files

interface Counts {
  passed: number;
  failed: number;
  errors: number;
}

function runTestFiles(files: readonly string[], lists: Lists, io: Io): number {
  const counts: Counts = { passed: 0, failed: 0, errors: 0 };
  for (const file of files) runTestFile(file, lists, io, counts);
  const total = counts.passed + counts.failed + counts.errors;
  const parts = [`${counts.passed} passed`, `${counts.failed} failed`, ...(counts.errors > 0 ? [`${counts.errors} with bad input`] : [])];
  io.out(`${total} case${total === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'}: ${parts.join(', ')}\n`);
  return counts.errors > 0 ? 2 : counts.failed > 0 ? 1 : 0;
}

const CASE_KEYS = ['name', 'packet', 'expect', 'rule'];

function runTestFile(file: string, cliLists: Lists, io: Io, counts: Counts): void {
  const display = displayPath(file);
  const { text } = readTextFile(file);
  const at = (offset: number) => `${display}:${position(text, offset)}`;
  /** A problem of the whole file: reported, counted as one case with bad input. */
  const fileError = (offset: number, message: string) => {
    io.out(`ERROR ${at(offset)}: ${message}\n`);
    counts.errors++;
  };
  const host = parseHost(text, formatOfPath(file)!);
  if (host.syntaxErrors[0]) return fileError(host.syntaxErrors[0].start, host.syntaxErrors[0].message);
  const root = host.root;
  const casesNode = root?.kind === 'object' ? property(root, 'cases')?.value : root;
  if (casesNode?.kind !== 'array') {
    return fileError(root?.start ?? 0, 'expected a list of cases (`- packet: {...}` / `expect: block|pass`), or an object with `cases`');
  }
  let rulesetPath = rulesetBeside(file);
  let lists = cliLists;
  if (root?.kind === 'object') {
    const unknown = root.properties.find((p) => !['ruleset', 'lists', 'cases'].includes(p.key));
    if (unknown) return fileError(unknown.keyStart, `unknown key \`${unknown.key}\`; a test file has \`ruleset\`, \`lists\` and \`cases\``);
    const named = property(root, 'ruleset')?.value;
    if (named) {
      if (named.kind !== 'string') return fileError(named.start, 'expected `ruleset` as the path of the ruleset file, relative to this file');
      rulesetPath = join(dirname(file), String(named.value));
    }
    const listsNode = property(root, 'lists')?.value;
    if (listsNode) {
      try {
        lists = new Map([...cliLists, ...parseLists(plain(listsNode))]);
      } catch (error) {
        if (error instanceof PacketError) return fileError(listsNode.start, error.message);
        throw error;
      }
    }
  }
  if (!rulesetPath) return fileError(0, `no ruleset beside this test file: expected ${basename(rulesetPathsBesideTest(file)[0])} (or name it with \`ruleset:\`)`);
  let ruleset: LoadedRuleset;
  try {
    ruleset = loadRuleset(rulesetPath);
  } catch (error) {
    if (error instanceof UsageError) return fileError(0, error.message);
    throw error;
  }
  for (const caseNode of casesNode.items) {
    const outcome = runCase(caseNode, ruleset, lists);
    const name = caseName(caseNode);
    const label = `${at(outcome.offset ?? caseNode.start)}${name ? ` ${name}` : ''}`;
    if (outcome.kind === 'pass') counts.passed++;
    else if (outcome.kind === 'fail') counts.failed++;
    else counts.errors++;
    io.out(`${outcome.kind === 'pass' ? 'ok   ' : outcome.kind === 'fail' ? 'FAIL ' : 'ERROR'} ${label}: ${outcome.message}\n`);
    // A failing case shows how the verdict came about.
    if (outcome.verdict && outcome.kind === 'fail') io.out(traceLines(outcome.verdict));
  }
}

/** `NAME.ruleset.test.yaml` → `NAME.ruleset.yaml`, `.yml` or `.json`, whichever exists. */
function rulesetBeside(testFile: string): string | undefined {
  return rulesetPathsBesideTest(testFile).find(isFile);
}

function caseName(node: HostNode): string | undefined {
  const name = property(node, 'name')?.value;
  return name?.kind === 'string' ? String(name.value) : undefined;
}

interface CaseOutcome {
  readonly kind: 'pass' | 'fail' | 'error';
  readonly message: string;
  /** Where the cause is, when not the case itself. */
  readonly offset?: number;
  readonly verdict?: RulesetVerdict;
}

function runCase(node: HostNode, ruleset: LoadedRuleset, lists: Lists): CaseOutcome {
  const error = (message: string, offset?: number): CaseOutcome => ({ kind: 'error', message, offset });
  if (node.kind !== 'object') return error('expected a case: an object with `packet` and `expect`');
  const unknown = node.properties.find((p) => !CASE_KEYS.includes(p.key));
  if (unknown) return error(`unknown key \`${unknown.key}\`; a case has ${CASE_KEYS.map((k) => `\`${k}\``).join(', ')}`, unknown.keyStart);
  const packetProperty = property(node, 'packet');
  const expectNode = property(node, 'expect')?.value;
  if (!packetProperty?.value) return error('the case has no `packet`');
  if (expectNode?.kind !== 'string' || (expectNode.value !== 'block' && expectNode.value !== 'pass')) {
    return error('expected `expect: block` or `expect: pass`', expectNode?.start);
  }
  const expected = expectNode.value;
  const ruleNode = property(node, 'rule')?.value;
  let expectedRule: RuleInfo | undefined;
  if (ruleNode) {
    const found = findRule(ruleset.prepared, ruleNode);
    if (typeof found === 'string') return error(found, ruleNode.start);
    expectedRule = found;
  }
  let packet;
  try {
    packet = parsePacket(plain(packetProperty.value));
  } catch (e) {
    if (!(e instanceof PacketError)) throw e;
    const key = e.key !== undefined ? property(packetProperty.value, e.key) : undefined;
    return error(`packet: ${e.message}`, key?.value?.start ?? key?.keyStart ?? packetProperty.value.start);
  }
  let verdict: RulesetVerdict;
  try {
    verdict = evaluateRuleset(ruleset.prepared, packet, lists);
  } catch (e) {
    if (e instanceof RuleEvaluationError || e instanceof MissingValuesError) return error(e.message, packetProperty.value.start);
    throw e;
  }
  const got = describeVerdict(verdict, ruleset);
  const want = `${expected}${expectedRule ? ` by rule ${describeRule(expectedRule)}` : ''}`;
  const ok = verdict.verdict === expected && (!expectedRule || verdict.rule?.index === expectedRule.index);
  return ok ? { kind: 'pass', message: got, verdict } : { kind: 'fail', message: `expected ${want}, got ${got}`, verdict };
}

