/**
 * `rulesets test`: what a ruleset does with a packet or an HTTP request, and test files of
 * expected verdicts.
 *
 *   rulesets test FILE --packet JSON|@FILE [--lists FILE] [--trace]
 *   rulesets test FILE --request JSON|@FILE [--lists FILE] [--trace]
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
 * to the test file; `lists` as in a `--lists` file). A case of a ruleset in an HTTP phase gives
 * a `request:` and expects what that phase's rules do (evaluation/test-file-run.ts). Exit
 * status: 0 every case passed, 1 a case failed, 2 bad input (a file, a case, a packet or
 * request, or one that lacks a value the verdict depends on), with `file:line:col` of the cause.
 *
 * Running a test file is evaluation/test-file-run.ts's, which VS Code's Test Explorer runs too;
 * here the files are found and read from disk, and the outcomes printed and counted.
 */
import { parseCommandArgs } from './args';
import { usageBlock } from './synopsis';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import {
  caseOutput,
  describeEffects,
  describeMatches,
  describeVerdict,
  fileProblemOutput,
  evaluateAssuming,
  describeAssumed,
  rulesThatDecide,
  type AssumedField,
  formatOfPath,
  isTestFileName,
  isTestProblem,
  linePosition,
  listsOfTestFile,
  loadTestRuleset,
  PacketError,
  parseHost,
  parseLists,
  parsePacket,
  parseRequest,
  phaseOutcomes,
  plain,
  prepareTestRuleset,
  readTestFile,
  RequestError,
  RULESET_EXTENSIONS_TEXT,
  rulesetFormatOfPath,
  rulesetOfTestFile,
  RuleEvaluationError,
  RulesetError,
  rulesetEffects,
  runTestCase,
  subjectOfPhase,
  traceLines,
  type Lists,
  type Subject,
  type RulesetChoice,
  type RulesetRead,
  type RulesetVerdict,
  type TestRuleset,
  includeReader,
  diskModuleReader,
} from '../core';
import { prepareReaders, ProjectConfigs, UsageError } from './check';
import { isFile, searchFolder } from './files';
import { readTextFile, type Io } from './io';

export const TEST_USAGE = `${usageBlock(['test'])}

With --packet: prints what the ruleset FILE does with the packet, e.g.
  block by rule 2 (Block every other TCP destination port) at FILE:16:5
The packet is a JSON object of field values:
  {"ip.src": "192.0.2.7", "ip.proto": "tcp", "tcp.dstport": 22, "tcp.flags.syn": true,
   "udp": "00 35 ...", "$lists": {"$svc.anonymizer": true, "$my_list": ["10.0.0.0/8"]}}

With --request (a ruleset of an HTTP phase): the same for an HTTP request, and below it what
the matching rules do (redirect to URL, the rewritten path and query, headers, settings), e.g.
  {"url": "https://example.com/wp-login.php?x=1", "method": "POST",
   "headers": {"User-Agent": "curl/8.5.0", "Cookie": "session=abc"},
   "ip.src": "203.0.113.7", "cf.bot_management.score": 12, "is_jwt_valid(\\"id\\")": false}
url, method and headers give the fields they determine (http.host, http.request.uri.*,
http.request.headers, http.user_agent, http.request.cookies, ...); any field may be given.
A field the request leaves out is assumed neutral ("", 0, false, [], {}; the method GET),
and the result names those a deciding rule read; an address or a bot score is never assumed.

Without: runs test files. NAME.ruleset.test.yaml beside NAME.ruleset.yaml is a list of
  - packet: {...}    (or request: {...} for a ruleset of an HTTP phase)
    expect: block|pass   (what the phase's rules do: challenge, managed_challenge, ...;
                          match|no-match where the actions do not end the evaluation)
    rule: 2          (optional: 1-based number, or a rule's description or id)
    redirect: {url: https://example.com/new, status: 301}   (optional, and likewise
                     rewrite: {path, query}, headers: {Name: value|null}, origin, cache,
                     config, serve_error, compression: what the matching rules do)
A ruleset named here runs the test file beside it; folders are searched for test files.

Options:
  --packet JSON    the packet, as a JSON object; or @FILE, a JSON or YAML file of one
  --request JSON   the HTTP request, as a JSON object; or @FILE
  --lists FILE     JSON or YAML: {"my_list": ["10.0.0.0/8", "192.0.2.7"], ...}
  --trace          with --packet or --request: also print each rule looked at and its
                   outcome (a failing case of a test file always shows it)
  --resource NAME  with --packet or --request: the cloudflare_ruleset resource of a .tf
                   file with several (a test file says \`resource: NAME\`)
  --section NAME   likewise, the section of an octorules file (\`section: NAME\`)
  -h, --help       show this help

Exit status: 0 done (with --packet or --request) or every case passed, 1 a case failed,
2 bad input: a file, a case, or a packet or request without a value the verdict depends on.`;

/** What `rulesets test` takes; each is in TEST_USAGE (test/cli/help.test.ts). */
export const TEST_OPTIONS = {
  packet: { type: 'string' },
  request: { type: 'string' },
  lists: { type: 'string' },
  trace: { type: 'boolean' },
  resource: { type: 'string' },
  section: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function test(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('test', {
    args,
    allowPositionals: true,
    options: TEST_OPTIONS,
  });
  if (values.help) {
    io.out(`${TEST_USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('nothing to test: rulesets test FILE --packet JSON, or rulesets test <test files, rulesets or folders...>');
  const lists = values.lists !== undefined ? readListsFile(values.lists) : new Map<string, never>();
  if (values.packet !== undefined && values.request !== undefined) throw new UsageError('give --packet or --request, not both');
  if (values.packet !== undefined || values.request !== undefined) {
    const option = values.packet !== undefined ? 'packet' : 'request';
    if (positionals.length !== 1) throw new UsageError(`--${option} tests one ruleset: rulesets test FILE --${option} JSON`);
    await prepareReaders(positionals);
    return testOne(positionals[0], { resource: values.resource, section: values.section }, option, (values.packet ?? values.request)!, lists, values.trace === true, io);
  }
  if (values.trace) throw new UsageError('--trace goes with --packet or --request');
  if (values.resource !== undefined || values.section !== undefined) throw new UsageError('--resource and --section go with --packet or --request; a test file names its ruleset with `resource:` or `section:`');
  return runTestFiles(collectTestFiles(positionals), lists, io);
}

// ---------------------------------------------------------------- one packet or request

function testOne(path: string, choice: RulesetChoice, option: 'packet' | 'request', input: string, lists: Lists, trace: boolean, io: Io): number {
  let json: unknown;
  if (input.startsWith('@')) {
    json = readDataFile(input.slice(1));
  } else {
    try {
      json = JSON.parse(input);
    } catch (error) {
      throw new UsageError(`--${option}: not JSON (${(error as Error).message}); give the ${option} as a JSON object, or @FILE`);
    }
  }
  const ruleset = loadRuleset(path, choice);
  const phase = ruleset.prepared.phase;
  const wanted = subjectOfPhase(phase);
  if (wanted !== undefined && wanted !== option) {
    throw new UsageError(`${ruleset.display}: its phase \`${phase}\` runs on ${wanted === 'packet' ? 'packets: give --packet' : 'HTTP requests: give --request'}`);
  }
  let subject: Subject;
  try {
    subject = option === 'packet' ? parsePacket(json) : parseRequest(json, { phase });
  } catch (error) {
    if (error instanceof PacketError || error instanceof RequestError) throw new UsageError(`--${option}: ${error.message}`);
    throw error;
  }
  let verdict: RulesetVerdict;
  let assumed: readonly AssumedField[];
  try {
    // A request field left out is assumed neutral, as in a test file's case; what the rules do is printed too, so every rule looked at counts.
    ({ verdict, subject, assumed } = evaluateAssuming(ruleset.prepared, subject, lists, rulesThatDecide(phaseOutcomes(phase, option), option === 'request')));
  } catch (error) {
    if (error instanceof RuleEvaluationError) throw new UsageError(`${ruleset.display}:${linePosition(ruleset.text, error.rule.start)}: ${error.message}`);
    throw error;
  }
  if (trace) io.out(traceLines(verdict));
  const matchOnly = phaseOutcomes(phase, option).kind === 'match';
  io.out(`${matchOnly ? describeMatches(verdict.trace.filter((t) => t.outcome === 'match').map((t) => t.rule), ruleset) : describeVerdict(verdict, ruleset)}\n`);
  if (assumed.length > 0) io.out(`  ${describeAssumed(assumed)}\n`);
  // The rules whose match Terraform decides, which the line above could not count.
  for (const t of verdict.trace) if (t.outcome === 'unknown') io.out(`  rule ${t.rule.number} at ${ruleset.display}:${linePosition(ruleset.text, t.rule.start)} may match too: ${t.rule.unknown}\n`);
  // What the matching rules do to the request: the redirect, the rewrite, the headers, the settings.
  if (option === 'request') for (const line of describeEffects(rulesetEffects(ruleset.prepared, verdict, subject, lists))) io.out(`  ${line}\n`);
  return 0;
}

// ---------------------------------------------------------------- files

function loadRuleset(path: string, choice: RulesetChoice): TestRuleset {
  const format = rulesetFormatOfPath(path);
  if (!format) throw new UsageError(`${path}: not a ruleset file (${RULESET_EXTENSIONS_TEXT})`);
  const { text } = readTextFile(path);
  const display = displayPath(path);
  const model = rulesetOfTestFile(text, format, choice, includeReader(path));
  if ('problem' in model) {
    const named = model.problem.replace(/`(resource|section): NAME` in the test file/g, '--$1 NAME');
    throw new UsageError(model.offset !== undefined ? `${display}:${linePosition(text, model.offset)}: ${named}` : `${display}: ${named}`);
  }
  // A Terraform file's rules are evaluated with its module.
  const module = format === 'hcl' ? { path, text, reader: diskModuleReader(), varFiles: terraformVarFiles(path) } : undefined;
  try {
    const prepared = prepareTestRuleset(model, module, [], path);
    if ('message' in prepared) throw new UsageError(`${display}: ${prepared.message}`);
    return { path, display, text, prepared };
  } catch (error) {
    if (error instanceof RulesetError) throw new UsageError(`${display}:${linePosition(text, error.start)}: ${error.message}`);
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
  if (syntax) throw new UsageError(`${displayPath(path)}:${linePosition(text, syntax.start)}: ${syntax.message}`);
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
      const found = searchTestFiles(path);
      if (found.length === 0) throw new UsageError(`${path}: no test files (*.ruleset.test.yaml) in this folder`);
      files.push(...found);
    } else if (isTestFileName(path)) {
      files.push(normalize(path));
    } else if (rulesetFormatOfPath(path)) {
      const stem = path.replace(/\.(json|ya?ml|tf)$/i, '');
      const beside = ['.test.yaml', '.test.yml', '.test.json'].map((ext) => stem + ext).find(isFile);
      if (!beside) throw new UsageError(`${path}: no test file beside it: expected ${basename(stem)}.test.yaml`);
      files.push(normalize(beside));
    } else {
      throw new UsageError(`${path}: not a ruleset file (${RULESET_EXTENSIONS_TEXT})`);
    }
  }
  return [...new Set(files)];
}

function searchTestFiles(folder: string): string[] {
  return searchFolder(folder, {
    enter: (name) => name !== 'node_modules' && !name.startsWith('.'),
    take: (entry, path) => isTestFileName(entry.name) && isFile(path),
    unreadable: (path, error) => new UsageError(`${path}: cannot read the folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`),
  });
}

function displayPath(path: string): string {
  return relative(process.cwd(), path) || path;
}


// ---------------------------------------------------------------- test files

interface Counts {
  passed: number;
  failed: number;
  errors: number;
  /** Cases whose verdict depends on what Terraform fills in (CaseOutcome.undecided): counted, apart from bad input. */
  undecided: number;
}

async function runTestFiles(files: readonly string[], lists: Lists, io: Io): Promise<number> {
  const counts: Counts = { passed: 0, failed: 0, errors: 0, undecided: 0 };
  for (const file of files) await runTestFile(file, lists, io, counts);
  const total = counts.passed + counts.failed + counts.errors + counts.undecided;
  const parts = [
    `${counts.passed} passed`,
    `${counts.failed} failed`,
    ...(counts.undecided > 0 ? [`${counts.undecided} undecided (they need what Terraform fills in)`] : []),
    ...(counts.errors > 0 ? [`${counts.errors} with bad input`] : []),
  ];
  io.out(`${total} case${total === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'}: ${parts.join(', ')}\n`);
  // An undecided case lacks a value its verdict depends on, as a packet without one does: exit 2.
  return counts.errors > 0 || counts.undecided > 0 ? 2 : counts.failed > 0 ? 1 : 0;
}

async function runTestFile(file: string, cliLists: Lists, io: Io, counts: Counts): Promise<void> {
  const display = displayPath(file);
  const { text } = readTextFile(file);
  const at = (offset: number) => `${display}:${linePosition(text, offset)}`;
  const testFile = readTestFile(text, formatOfPath(file)!, { path: file, resolve: (named) => join(dirname(file), named) });
  await prepareReaders(testFile.rulesetPaths.filter(isFile));
  const ruleset = loadTestRuleset(testFile, readRuleset);
  if (isTestProblem(ruleset)) {
    // A problem of the whole file: reported once (every one of the file's own), and each of its
    // cases counted as one with bad input (a file whose cases cannot be read is one).
    for (const problem of testFile.problems.length > 0 ? testFile.problems : [ruleset]) io.out(fileProblemOutput(at, problem));
    if (ruleset.undecided) counts.undecided += Math.max(1, testFile.cases.length);
    else counts.errors += Math.max(1, testFile.cases.length);
    return;
  }
  const lists = listsOfTestFile(testFile, cliLists);
  for (const testCase of testFile.cases) {
    const outcome = runTestCase(testCase, ruleset, lists);
    if (outcome.kind === 'pass') counts.passed++;
    else if (outcome.kind === 'fail') counts.failed++;
    else if (outcome.undecided) counts.undecided++;
    else counts.errors++;
    io.out(caseOutput(at, testCase, outcome));
  }
}

/** `.rulesets.yaml`'s `terraform.var_files` for a Terraform file, as `rulesets check` reads them; none where the configuration cannot be read (`rulesets check` reports that). */
function terraformVarFiles(path: string): readonly string[] | undefined {
  try {
    return new ProjectConfigs({}).of(path)?.config?.terraformVarFiles;
  } catch {
    return undefined;
  }
}

/** A ruleset file beside or named by a test file, read from disk. */
function readRuleset(path: string): RulesetRead {
  if (!existsSync(path)) return undefined;
  try {
    // A Terraform file's rules are evaluated with its module: the other files of its folder.
    const module = rulesetFormatOfPath(path) === 'hcl' ? { module: diskModuleReader(), varFiles: terraformVarFiles(path) } : {};
    return { text: readTextFile(path).text, display: displayPath(path), include: includeReader(path), ...module };
  } catch (error) {
    if (error instanceof UsageError) return { problem: error.message };
    throw error;
  }
}
