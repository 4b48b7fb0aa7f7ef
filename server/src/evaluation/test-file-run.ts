/**
 * Running a test file of `rulesets test` (`NAME.ruleset.test.yaml`, `.yml`, `.json`): its cases
 * with their places, the ruleset it tests, and each case's outcome with what was expected and
 * what happened. The CLI prints these outcomes and the VS Code extension shows them in its Test
 * Explorer, so both say the same thing about the same file.
 *
 * Pure: the caller reads the files (from disk, or an editor's unsaved text) and says how a
 * `ruleset:` path is resolved; the steps are
 *
 *   readTestFile(text, format, …)   the cases, the file's own problem, where its ruleset may be
 *   loadTestRuleset(file, read)     the ruleset ready to run, or the problem (at its place)
 *   runTestCase(case, ruleset, …)   pass, fail (expected vs actual) or error (bad input)
 *
 * A test file is a list of cases, or `{ruleset: PATH, lists: {…}, cases: […]}`:
 *
 *   - name: SSH gets through          # optional
 *     packet: {ip.proto: tcp, tcp.dstport: 22}
 *     expect: pass                     # block | pass
 *     rule: 1                          # optional: 1-based number, or a description, id or ref
 */
import { formatOfPath, rulesetPathsBesideTest } from '../documents/classify';
import { parseHost, property, type HostFormat, type HostNode } from '../documents/host';
import { parseRuleset } from '../documents/parsed-ruleset';
import { MissingValuesError } from './evaluate';
import { PacketError, parseLists, parsePacket, type Lists } from './packet';
import { describeRule, evaluateRuleset, findRule, plain, prepareRuleset, RuleEvaluationError, RulesetError, type PreparedRuleset, type RuleInfo, type RulesetVerdict } from './ruleset-eval';

export const TEST_FILE_KEYS = ['ruleset', 'lists', 'cases'] as const;
export const TEST_CASE_KEYS = ['name', 'packet', 'expect', 'rule'] as const;

export interface TestCase {
  /** Position in the file's list of cases, from 0. */
  readonly index: number;
  /** The case's `name`, when it has one. */
  readonly name?: string;
  /** Offsets of the whole case in the test file. */
  readonly start: number;
  readonly end: number;
  readonly node: HostNode;
}

/** Something wrong before any case can run; `offset` is in the test file, or in `ruleset` when given. */
export interface TestProblem {
  readonly message: string;
  readonly offset: number;
  /** The ruleset the problem is in (an expression with errors, a syntax error of the ruleset). */
  readonly ruleset?: RulesetSource;
}

export interface TestFile {
  readonly path: string;
  readonly text: string;
  /** The cases, in order: empty when the file is not a list of cases. */
  readonly cases: readonly TestCase[];
  /** What stops every case: a syntax error, not a list of cases, an unknown key, a bad `ruleset:` or `lists`. */
  readonly problem?: TestProblem;
  /** Where its ruleset may be, in the order to try: the `ruleset:` path, or NAME.ruleset.yaml, .yml, .json beside it. */
  readonly rulesetPaths: readonly string[];
  /** The path came from `ruleset:`: a missing file is then that file's problem, not "no ruleset beside". */
  readonly rulesetNamed: boolean;
  /** The file's own `lists`. */
  readonly lists: Lists;
}

export interface TestFileOptions {
  /** The test file's path, as the caller names files. */
  readonly path: string;
  /** The path of a `ruleset:` value, which is relative to the test file's folder. */
  readonly resolve: (relative: string) => string;
}

/** The cases of a test file and where its ruleset is; a problem of the whole file is kept in `problem`. */
export function readTestFile(text: string, format: HostFormat, options: TestFileOptions): TestFile {
  const { path } = options;
  const base = { path, text, rulesetPaths: rulesetPathsBesideTest(path), rulesetNamed: false, lists: new Map() as Lists };
  const host = parseHost(text, format);
  const syntax = host.syntaxErrors[0];
  const root = host.root;
  const casesNode = root?.kind === 'object' ? property(root, 'cases')?.value : root;
  const cases: TestCase[] =
    casesNode?.kind === 'array' ? casesNode.items.map((node, index) => ({ index, name: caseName(node), start: node.start, end: endOfContent(text, node), node })) : [];
  const problem = (offset: number, message: string): TestFile => ({ ...base, cases, problem: { message, offset } });
  if (syntax) return problem(syntax.start, syntax.message);
  if (casesNode?.kind !== 'array') return problem(root?.start ?? 0, 'expected a list of cases (`- packet: {...}` / `expect: block|pass`), or an object with `cases`');
  if (root?.kind !== 'object') return { ...base, cases };
  const unknown = root.properties.find((p) => !(TEST_FILE_KEYS as readonly string[]).includes(p.key));
  if (unknown) return problem(unknown.keyStart, `unknown key \`${unknown.key}\`; a test file has \`ruleset\`, \`lists\` and \`cases\``);
  let found = base;
  const named = property(root, 'ruleset')?.value;
  if (named) {
    if (named.kind !== 'string') return problem(named.start, 'expected `ruleset` as the path of the ruleset file, relative to this file');
    found = { ...found, rulesetPaths: [options.resolve(String(named.value))], rulesetNamed: true };
  }
  const listsNode = property(root, 'lists')?.value;
  if (listsNode) {
    try {
      found = { ...found, lists: parseLists(plain(listsNode)) };
    } catch (error) {
      if (error instanceof PacketError) return { ...found, cases, problem: { message: error.message, offset: listsNode.start } };
      throw error;
    }
  }
  return { ...found, cases };
}

/** A block mapping ends where the next line starts: the case ends at its last character. */
function endOfContent(text: string, node: HostNode): number {
  return node.start + text.slice(node.start, node.end).trimEnd().length;
}

function caseName(node: HostNode): string | undefined {
  const name = property(node, 'name')?.value;
  return name?.kind === 'string' ? String(name.value) : undefined;
}

/** A ruleset file's text, and its path as messages show it. */
export interface RulesetSource {
  readonly path: string;
  readonly display: string;
  readonly text: string;
}

export interface TestRuleset extends RulesetSource {
  readonly prepared: PreparedRuleset;
}

/**
 * A ruleset file as the caller read it: its text; `{ problem }` when it is there but cannot be
 * read (the message says why); undefined when there is no such file.
 */
export type RulesetRead = { readonly text: string; readonly display: string } | { readonly problem: string } | undefined;

/**
 * The test file's ruleset, ready to run its cases; or the problem that stops every case: the
 * file's own, a missing or unreadable ruleset, or one that cannot run (in that ruleset, at its place).
 */
export function loadTestRuleset(file: TestFile, read: (path: string) => RulesetRead): TestRuleset | TestProblem {
  if (file.problem) return file.problem;
  const atTop = (message: string): TestProblem => ({ message, offset: 0 });
  let path = file.rulesetPaths[0];
  let source: RulesetRead = undefined;
  if (file.rulesetNamed) {
    if (!formatOfPath(path)) return atTop(`${path}: not a JSON or YAML file (expected .json, .yaml or .yml)`);
    source = read(path);
    if (!source) return atTop(`${path}: no such file`);
  } else {
    for (const candidate of file.rulesetPaths) {
      source = read(candidate);
      path = candidate;
      if (source) break;
    }
    if (!source) return atTop(`no ruleset beside this test file: expected ${fileName(file.rulesetPaths[0])} (or name it with \`ruleset:\`)`);
  }
  if ('problem' in source) return atTop(source.problem);
  const ruleset: RulesetSource = { path, display: source.display, text: source.text };
  try {
    return { ...ruleset, prepared: prepareRuleset(parseRuleset(source.text, formatOfPath(path)!)) };
  } catch (error) {
    if (error instanceof RulesetError) return { message: error.message, offset: error.start, ruleset };
    throw error;
  }
}

export function isTestProblem(loaded: TestRuleset | TestProblem): loaded is TestProblem {
  return 'message' in loaded;
}

export interface CaseOutcome {
  readonly kind: 'pass' | 'fail' | 'error';
  /** `pass by rule 1 (…) at FILE:5:5`, `expected pass, got block by rule 2 (…) at FILE:10:5`, or what is wrong. */
  readonly message: string;
  /** Where in the test file the cause is, when not the case itself (bad input). */
  readonly offset?: number;
  /** For a failure: `pass`, `block by rule 3 (Bad sources)`. */
  readonly expected?: string;
  /** For a failure: what the ruleset did, `block by rule 2 (Block TCP)`, `pass: no rule matched`. */
  readonly actual?: string;
  readonly verdict?: RulesetVerdict;
}

/** The lists the cases of a file run with: the file's own `lists` over those given from outside (`--lists`). */
export function listsOfTestFile(file: TestFile, outside: Lists = new Map()): Lists {
  return file.lists.size === 0 ? outside : new Map([...outside, ...file.lists]);
}

/** Runs one case against the ruleset, with the lists of listsOfTestFile(). */
export function runTestCase(testCase: TestCase, ruleset: TestRuleset, lists: Lists): CaseOutcome {
  const node = testCase.node;
  const error = (message: string, offset?: number): CaseOutcome => ({ kind: 'error', message, offset });
  if (node.kind !== 'object') return error('expected a case: an object with `packet` and `expect`');
  const unknown = node.properties.find((p) => !(TEST_CASE_KEYS as readonly string[]).includes(p.key));
  if (unknown) return error(`unknown key \`${unknown.key}\`; a case has ${TEST_CASE_KEYS.map((k) => `\`${k}\``).join(', ')}`, unknown.keyStart);
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
  if (ok) return { kind: 'pass', message: got, verdict };
  return { kind: 'fail', message: `expected ${want}, got ${got}`, expected: want, actual: describeVerdict(verdict), verdict };
}

/**
 * `block by rule 2 (…) at FILE:16:5`, `pass by rule 1 (…) at FILE:8:5 (a skip rule: …)`,
 * `pass: no rule matched`; without `ruleset`, no place and no note.
 */
export function describeVerdict(verdict: RulesetVerdict, ruleset?: RulesetSource): string {
  if (!verdict.rule) return `pass: no rule ${verdict.trace.some((t) => t.outcome === 'match') ? 'decided' : 'matched'}`;
  if (!ruleset) return `${verdict.verdict} by rule ${describeRule(verdict.rule)}`;
  const where = `at ${ruleset.display}:${linePosition(ruleset.text, verdict.rule.start)}`;
  const skip = verdict.verdict === 'pass' ? ' (a skip rule: the rest of the ruleset is skipped)' : '';
  return `${verdict.verdict} by rule ${describeRule(verdict.rule)} ${where}${skip}`;
}

/**
 * What `rulesets test` prints for a case, and the Test Explorer shows as its output: the case's
 * line, and for a failure how the verdict came about. `at` names an offset of the test file.
 */
export function caseOutput(at: (offset: number) => string, testCase: TestCase, outcome: CaseOutcome): string {
  const label = `${at(outcome.offset ?? testCase.start)}${testCase.name ? ` ${testCase.name}` : ''}`;
  const tag = outcome.kind === 'pass' ? 'ok   ' : outcome.kind === 'fail' ? 'FAIL ' : 'ERROR';
  return `${tag} ${label}: ${outcome.message}\n${outcome.kind === 'fail' && outcome.verdict ? traceLines(outcome.verdict) : ''}`;
}

/** What `rulesets test` prints for a problem of the whole test file (its ruleset's, at the ruleset's place). */
export function fileProblemOutput(at: (offset: number) => string, problem: TestProblem): string {
  const where = problem.ruleset ? `${at(0)}: ${problem.ruleset.display}:${linePosition(problem.ruleset.text, problem.offset)}` : at(problem.offset);
  return `ERROR ${where}: ${problem.message}\n`;
}

/** Each rule looked at and what came of it, one indented line each. */
export function traceLines(verdict: RulesetVerdict): string {
  return verdict.trace
    .map((entry) => {
      const what = entry.outcome === 'disabled' ? 'disabled, skipped' : entry.outcome === 'no-match' ? 'no match' : entry.effect === 'continue' ? `match; \`${entry.rule.action}\` does not decide here, next rule` : 'match';
      return `  rule ${describeRule(entry.rule)} [${entry.rule.action}]: ${what}\n`;
    })
    .join('');
}

/** `line:col`, 1-based, columns in UTF-16 code units. */
export function linePosition(text: string, offset: number): string {
  const { line, character } = lineAndCharacter(text, offset);
  return `${line + 1}:${character + 1}`;
}

/** The 0-based line and UTF-16 column of an offset, as editors count them. */
export function lineAndCharacter(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length - 1, character: offset - lineStart };
}

function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
