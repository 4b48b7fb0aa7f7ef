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
 *
 * A case of a ruleset in an HTTP phase gives a `request` (request.ts) instead of a `packet`, and
 * expects what that phase's rules can do (outcomes.ts): in `http_request_firewall_custom`
 * `block`, `challenge`, `js_challenge`, `managed_challenge` or `pass`; in a phase whose actions do
 * not end the evaluation (transforms, origin, cache and configuration rules) `match` (with
 * `rule:`, that rule matches) or `no-match`.
 *
 *   - name: a scanner on the login page
 *     request: {url: "https://example.com/wp-login.php", headers: {User-Agent: sqlmap/1.7}}
 *     expect: block
 *
 * Beside `expect`, a case of a request may say what the matching rules do (expected-effects.ts):
 *
 *   - request: {url: "https://example.com/blog/"}
 *     expect: redirect
 *     redirect: {url: "https://example.com/news/", status: 301}
 */
import { RULESET_EXTENSIONS_TEXT, rulesetFormatOfPath, rulesetPathsBesideTest } from '../documents/classify';
import { parseHost, property, type HostFormat, type HostNode, type HostProperty } from '../documents/host/index';
import type { IncludeReader } from '../documents/octorules';
import { parseDocument } from '../documents/parsed-document';
import { linePosition } from '../documents/positions';
import type { ParsedRuleset } from '../documents/parsed-ruleset';
import { selectRuleset, type RulesetChoice } from '../documents/select-ruleset';
import { rulesetEffects } from './effects';
import { describeAssumed, evaluateAssuming, rulesThatDecide } from './assumed-fields';
import { MissingValuesError, type Subject } from './evaluate';
import { EFFECT_KEY_NAMES, judgeEffects, readExpectedEffects } from './expected-effects';
import { phaseOutcomes, subjectOfPhase, type PhaseOutcomes } from './outcomes';
import { PacketError, parseLists, parsePacket, type Lists } from './packet';
import { parseRequest, RequestError } from './request';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import type { TerraformModuleReader } from '../documents/terraform-module';
import { evaluatedResource, readTestVariables, rulesUnknownMessage, withNeeds, type TestModuleSource, type TestVariable, type VariablesProblem } from './terraform-test-ruleset';
import { describeRule, FILLED_IN_BY_TERRAFORM, findRule, plain, prepareRuleset, RuleEvaluationError, RulesetError, UndecidedRuleError, type PreparedRuleset, type RuleInfo, type RulesetVerdict } from './ruleset-eval';

export const TEST_FILE_KEYS = ['ruleset', 'resource', 'section', 'variables', 'lists', 'cases'] as const;

/** What is said of a key a test file does not have. */
export function unknownTestFileKey(key: string): string {
  const near = closestMatches(key, TEST_FILE_KEYS);
  return `unknown key \`${key}\`; ${near.length > 0 ? `did you mean ${quoteAlternatives(near)}? ` : ''}a test file has \`ruleset\`, \`resource\` or \`section\` (which ruleset of a Terraform or octorules file), \`variables\` (a Terraform module's), \`lists\` and \`cases\``;
}
export const TEST_CASE_KEYS = ['name', 'packet', 'request', 'expect', 'rule', ...EFFECT_KEY_NAMES] as const;

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
  /** Where the place that is wrong ends (readTestFile gives it: an editor underlines `offset` to `end`). */
  readonly end?: number;
  /** No one's mistake: the ruleset's rules are Terraform's to make (RulesetError.undecided), so its cases are undecided. */
  readonly undecided?: true;
  /** The ruleset the problem is in (an expression with errors, a syntax error of the ruleset). */
  readonly ruleset?: RulesetSource;
}

export interface TestFile {
  readonly path: string;
  readonly text: string;
  /** The cases, in order: empty when the file is not a list of cases. */
  readonly cases: readonly TestCase[];
  /**
   * Every problem of the file itself, in the order of their places, each from `offset` to `end`:
   * its syntax errors, or that it is not a list of cases; else each unknown key, a bad `ruleset:`,
   * `resource:`, `section:`, `variables:` or `lists:`. Any of them stops every case.
   */
  readonly problems: readonly TestProblem[];
  /** The first of `problems`. */
  readonly problem?: TestProblem;
  /** Where its ruleset may be, in the order to try: the `ruleset:` path, or NAME.ruleset.yaml, .yml, .json beside it. */
  readonly rulesetPaths: readonly string[];
  /** The path came from `ruleset:`: a missing file is then that file's problem, not "no ruleset beside". */
  readonly rulesetNamed: boolean;
  /** The file's own `lists` (none when they are wrong). */
  readonly lists: Lists;
  /** Which ruleset of a Terraform file (`resource:`) or an octorules file (`section:`) the cases run against. */
  readonly choice: RulesetChoice;
  /** `variables:`: values of the Terraform module's variables, over every other (as `-var`); none when they are wrong. */
  readonly variables: readonly TestVariable[];
}

export interface TestFileOptions {
  /** The test file's path, as the caller names files. */
  readonly path: string;
  /** The path of a `ruleset:` value, which is relative to the test file's folder. */
  readonly resolve: (relative: string) => string;
  /** The file already parsed (an editor's document model has it): read instead of parsing `text` again. */
  readonly host?: { readonly root?: HostNode; readonly syntaxErrors: readonly { readonly start: number; readonly end: number; readonly message: string }[] };
}

/**
 * The one reader of test files (`rulesets test`, the Test Explorer and the editor's diagnostics
 * read them through it): the cases, where the ruleset is, and every problem of the file itself
 * at its place.
 */
export function readTestFile(text: string, format: HostFormat, options: TestFileOptions): TestFile {
  const { path } = options;
  const host = options.host ?? parseHost(text, format);
  const root = host.root;
  const casesNode = root?.kind === 'object' ? property(root, 'cases')?.value : root;
  const cases: TestCase[] =
    casesNode?.kind === 'array' ? casesNode.items.map((node, index) => ({ index, name: caseName(node), start: node.start, end: endOfContent(text, node), node })) : [];
  const problems: TestProblem[] = [];
  const found = { rulesetPaths: rulesetPathsBesideTest(path), rulesetNamed: false, lists: new Map() as Lists, choice: {} as RulesetChoice, variables: [] as readonly TestVariable[] };
  const done = (): TestFile => {
    problems.sort((a, b) => a.offset - b.offset);
    return { path, text, cases, problems, ...(problems.length > 0 ? { problem: problems[0] } : {}), ...found };
  };
  const at = (start: number, end: number, message: string) => problems.push({ message, offset: start, end: Math.max(start, Math.min(end, text.length)) });
  const on = (node: { start: number; end: number }, message: string) => at(node.start, node.end, message);
  // A file that does not parse, or is not a list of cases, has no keys worth a word.
  for (const e of host.syntaxErrors) at(e.start, e.end, e.message);
  if (problems.length > 0) return done();
  if (casesNode?.kind !== 'array') {
    at(root?.start ?? 0, root ? Math.min(root.end, root.start + 1) : 0, NOT_A_LIST_OF_CASES);
    return done();
  }
  if (root?.kind !== 'object') return done();
  for (const p of root.properties) if (!(TEST_FILE_KEYS as readonly string[]).includes(p.key)) at(p.keyStart, p.keyEnd, unknownTestFileKey(p.key));
  const named = property(root, 'ruleset')?.value;
  if (named?.kind === 'string') Object.assign(found, { rulesetPaths: [options.resolve(String(named.value))], rulesetNamed: true });
  else if (named) on(named, 'expected `ruleset` as the path of the ruleset file, relative to this file');
  for (const key of ['resource', 'section'] as const) {
    const node = property(root, key)?.value;
    if (node?.kind === 'string') found.choice = { ...found.choice, [key]: String(node.value) };
    else if (node) on(node, CHOICE_EXPECTED[key]);
  }
  const variablesNode = property(root, 'variables')?.value;
  if (variablesNode) {
    const variables = readTestVariables(variablesNode);
    // A bad variable is its name's mistake; a `variables:` that is no map, the whole value's.
    if ('message' in variables) at(variables.offset, variables.offset === variablesNode.start ? variablesNode.end : variables.offset + 1, variables.message);
    else found.variables = variables;
  }
  const listsNode = property(root, 'lists')?.value;
  if (listsNode) {
    try {
      found.lists = parseLists(plain(listsNode));
    } catch (error) {
      if (!(error instanceof PacketError)) throw error;
      on(listsNode, error.message);
    }
  }
  return done();
}

export const CHOICE_EXPECTED = {
  resource: 'expected `resource` as the name of a `cloudflare_ruleset` resource of the Terraform file, e.g. `cloudflare_ruleset.waf`',
  section: 'expected `section` as the name of a section of the octorules file, e.g. `waf_custom_rules`',
} as const;

export const NOT_A_LIST_OF_CASES = 'expected a list of cases (`- packet: {...}` or `- request: {...}`, with `expect:`), or an object with `cases`';

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
export type RulesetRead =
  | {
      readonly text: string;
      readonly display: string;
      readonly include?: IncludeReader;
      /** A Terraform file's module: how to read the other files of its folder (its rules are then evaluated with them). */
      readonly module?: TerraformModuleReader;
      /** `.rulesets.yaml`'s `terraform.var_files`, relative to the module's folder. */
      readonly varFiles?: readonly string[];
    }
  | { readonly problem: string }
  | undefined;

/**
 * The ruleset of a ruleset file that a test file's cases run against: the file's own, or the
 * Terraform resource or octorules section it names (`resource:`, `section:`), or the file's
 * only one; else what is wrong, with an offset in the ruleset file when the problem is there.
 */
export function rulesetOfTestFile(text: string, format: HostFormat, choice: RulesetChoice, include?: IncludeReader): ParsedRuleset | { readonly problem: string; readonly offset?: number } {
  const document = parseDocument(text, format, { include });
  const broken = document.problems.find((p) => p.severity === 'error');
  if (broken) return { problem: broken.message, offset: broken.start };
  return selectRuleset(document, choice, (key) => `\`${key}: NAME\` in the test file`);
}

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
    if (!rulesetFormatOfPath(path)) return atTop(`${path}: not a ruleset file (${RULESET_EXTENSIONS_TEXT})`);
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
  const format = rulesetFormatOfPath(path)!;
  const variablesAt = file.variables[0]?.keyStart;
  if (variablesAt !== undefined && format !== 'hcl') return { message: `\`variables\` gives the variables of a Terraform module; ${source.display} is not a Terraform file`, offset: variablesAt };
  const parsed = rulesetOfTestFile(source.text, format, file.choice, source.include);
  if ('problem' in parsed) return parsed.offset !== undefined ? { message: parsed.problem, offset: parsed.offset, ruleset } : atTop(parsed.problem);
  const module = format === 'hcl' && source.module ? { path, text: source.text, reader: source.module, varFiles: source.varFiles } : undefined;
  try {
    const prepared = prepareTestRuleset(parsed, module, file.variables, file.path);
    if ('message' in prepared) return prepared;
    return { ...ruleset, prepared };
  } catch (error) {
    if (error instanceof RulesetError) return { message: error.message, offset: error.start, ruleset, ...(error.undecided ? { undecided: true as const } : {}) };
    throw error;
  }
}

/**
 * The ruleset of a test file ready to run: a Terraform resource's rules as its module evaluates
 * them (`module`, with the test file's `variables`), each rule still unknown named with what it
 * needs; else the file's own reading. Throws RulesetError as prepareRuleset does (undecided where
 * the resource's rules are not known); a variable the module does not declare is returned, at its
 * place in the test file.
 */
export function prepareTestRuleset(parsed: ParsedRuleset, module: TestModuleSource | undefined, variables: readonly TestVariable[], testPath: string): PreparedRuleset | VariablesProblem {
  const evaluated = module ? evaluatedResource(parsed, module, variables, testPath) : undefined;
  if (evaluated && 'message' in evaluated) return evaluated;
  if (evaluated?.rulesUnknown !== undefined) {
    const at = parsed.root ?? { start: 0, end: 0 };
    throw new RulesetError(rulesUnknownMessage(parsed.label ?? 'the ruleset', evaluated.rulesUnknown), at.start, Math.min(at.start + 1, at.end), true);
  }
  let prepared: PreparedRuleset;
  try {
    prepared = prepareRuleset(evaluated?.model ?? parsed);
  } catch (error) {
    // An expression written in another file of the module (a local, a variable's value): say where.
    const rule = error instanceof RulesetError && !error.undecided ? /^rule (\d+)'s expression has errors/.exec(error.message) : null;
    const where = rule ? evaluated?.writtenElsewhere?.(Number(rule[1]) - 1) : undefined;
    if (where && error instanceof RulesetError) throw new RulesetError(`${error.message} (the expression is written at ${where})`, error.start, error.end);
    throw error;
  }
  return evaluated ? withNeeds(prepared, evaluated) : prepared;
}

export function isTestProblem(loaded: TestRuleset | TestProblem): loaded is TestProblem {
  return 'message' in loaded;
}

export interface CaseOutcome {
  readonly kind: 'pass' | 'fail' | 'error';
  /**
   * An error that is no one's mistake: the verdict depends on a rule Terraform fills in
   * (RuleInfo.unknown), which the message names. Counted apart from bad input.
   */
  readonly undecided?: true;
  /** `pass by rule 1 (…) at FILE:5:5`, `expected pass, got block by rule 2 (…) at FILE:10:5`, or what is wrong. */
  readonly message: string;
  /** Where in the test file the cause is, when not the case itself (bad input). */
  readonly offset?: number;
  /** For a failure: `pass`, `block by rule 3 (Bad sources)`; or the effects expected, one a line (`a redirect to https://…`). */
  readonly expected?: string;
  /** For a failure: what the ruleset did, `block by rule 2 (Block TCP)`, `pass: no rule matched`; or the effects it had instead. */
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
  if (node.kind !== 'object') return error('expected a case: an object with `packet` or `request`, and `expect`');
  const phase = ruleset.prepared.phase;
  const unknown = node.properties.find((p) => !(TEST_CASE_KEYS as readonly string[]).includes(p.key));
  if (unknown) return error(unknownCaseKey(unknown.key, phase), unknown.keyStart);
  const chosen = caseSubject(node, phase);
  if ('message' in chosen) return error(chosen.message, chosen.offset);
  const outcomes = phaseOutcomes(phase, chosen.kind);
  const expectNode = property(node, 'expect')?.value;
  if (expectNode?.kind !== 'string' || !outcomes.expectations.includes(String(expectNode.value))) {
    return error(expectationMessage(outcomes, phase), expectNode?.start);
  }
  const expected = String(expectNode.value);
  const ruleNode = property(node, 'rule')?.value;
  let expectedRule: RuleInfo | undefined;
  if (ruleNode) {
    if (expected === 'no-match') return error('`rule` names the rule that matches; with `expect: no-match` no rule does: leave `rule` out', ruleNode.start);
    const found = findRule(ruleset.prepared, ruleNode);
    if (typeof found === 'string') return error(found, ruleNode.start);
    expectedRule = found;
  }
  const effectKey = chosen.kind === 'packet' ? node.properties.find((p) => (EFFECT_KEY_NAMES as readonly string[]).includes(p.key)) : undefined;
  if (effectKey) return error(`\`${effectKey.key}\` says what rules do to an HTTP request; a packet's ruleset blocks or passes it`, effectKey.keyStart);
  const expectedEffects = readExpectedEffects(node);
  const badEffect = expectedEffects.problems[0];
  if (badEffect) return error(badEffect.message, badEffect.start);
  const subjectNode = chosen.property.value!;
  const read = readSubject(chosen.kind, subjectNode, phase);
  if ('message' in read) return error(read.message, read.offset);
  let verdict: RulesetVerdict;
  let subject: Subject;
  let assumedNote: string;
  try {
    // A request field the case leaves out takes a neutral value (assumed-fields.ts); those a rule that decides read are named.
    const reached = evaluateAssuming(ruleset.prepared, read.subject, lists, rulesThatDecide(outcomes, expectedEffects.expectations.length > 0));
    ({ verdict, subject } = reached);
    assumedNote = reached.assumed.length > 0 ? `; ${describeAssumed(reached.assumed)}` : '';
  } catch (e) {
    if (e instanceof UndecidedRuleError) return { kind: 'error', undecided: true, message: `rule ${describeRule(e.rule)} at ${ruleset.display}:${linePosition(ruleset.text, e.rule.start)}: ${e.rule.unknown}, and the verdict depends on it: not decided` };
    if (e instanceof RuleEvaluationError || e instanceof MissingValuesError) return error(e.message, subjectNode.start);
    throw e;
  }
  const judged = judge(verdict, outcomes, expected, expectedRule, ruleset);
  if (judged.undecided) return { kind: 'error', undecided: true, message: `rule ${describeRule(judged.undecided)}: ${judged.undecided.unknown}, and whether the case holds depends on it: not decided`, verdict };
  if (!judged.ok) return { kind: 'fail', message: `expected ${judged.want}, got ${judged.got}${assumedNote}`, expected: judged.want, actual: judged.actual, verdict };
  // What the rules do, with a rule whose match Terraform decides among them, is not known.
  const unknownRule = expectedEffects.expectations.length > 0 ? verdict.trace.find((t) => t.outcome === 'unknown')?.rule : undefined;
  if (unknownRule) return { kind: 'error', undecided: true, message: `rule ${describeRule(unknownRule)}: ${unknownRule.unknown}, and what the rules do depends on it: not decided`, verdict };
  if (expectedEffects.expectations.length === 0) return { kind: 'pass', message: `${judged.got}${assumedNote}`, verdict };
  const effects = judgeEffects(expectedEffects.expectations, rulesetEffects(ruleset.prepared, verdict, subject, lists));
  const unknownEffect = effects.unknown[0];
  if (unknownEffect) return unknownEffect.message.includes(FILLED_IN_BY_TERRAFORM) ? { kind: 'error', undecided: true, message: unknownEffect.message, offset: unknownEffect.start } : error(unknownEffect.message, unknownEffect.start);
  if (effects.failures.length > 0) {
    const { failures } = effects;
    return { kind: 'fail', message: `${failures.map((f) => f.message).join('; ')}${assumedNote}`, expected: failures.map((f) => f.want).join('\n'), actual: failures.map((f) => f.got).join('\n'), verdict };
  }
  return { kind: 'pass', message: `${judged.got}; ${effects.described.join(', ')}${assumedNote}`, verdict };
}

/** `unknown key \`rules\`; a case has \`name\`, \`packet\`, \`expect\`, \`rule\``: the keys a case of this phase has. */
export function unknownCaseKey(key: string, phase: string | undefined): string {
  const subject = subjectOfPhase(phase);
  const keys = TEST_CASE_KEYS.filter((k) => !(subject === 'packet' && k === 'request') && !(subject === 'request' && k === 'packet') && !(EFFECT_KEY_NAMES as readonly string[]).includes(k));
  const effects = subject === 'packet' ? [] : EFFECT_KEY_NAMES;
  const near = closestMatches(key, [...keys, ...effects]);
  const hint = near.length > 0 ? `did you mean ${quoteAlternatives(near)}? ` : '';
  const what = effects.length > 0 ? `, and what the rules do: ${effects.map((k) => `\`${k}\``).join(', ')}` : '';
  return `unknown key \`${key}\`; ${hint}a case has ${keys.map((k) => `\`${k}\``).join(', ')}${what}`;
}

/** The case's `packet` or `request`, the one its ruleset's phase runs on; or what is wrong. */
export function caseSubject(node: HostNode, phase: string | undefined): { kind: 'packet' | 'request'; property: HostProperty } | { message: string; offset?: number } {
  const packet = property(node, 'packet');
  const request = property(node, 'request');
  const wanted = subjectOfPhase(phase);
  if (packet && request) return { message: 'a case has a `packet` or a `request`, not both', offset: request.keyStart };
  if (packet && wanted === 'request') {
    return { message: `the ruleset's phase \`${phase}\` runs on HTTP requests: give the case a \`request\` (e.g. \`request: {url: "https://example.com/", ip.src: 192.0.2.7}\`)`, offset: packet.keyStart };
  }
  if (request && wanted === 'packet') return { message: `the ruleset's phase \`${phase}\` runs on packets: give the case a \`packet\``, offset: request.keyStart };
  const given = packet ?? request;
  if (!given) return { message: wanted === 'request' ? 'the case has no `request`' : wanted === 'packet' ? 'the case has no `packet`' : 'the case has no `packet` or `request`' };
  if (!given.value) return { message: `the case has no \`${given.key}\``, offset: given.keyStart };
  return { kind: given === packet ? 'packet' : 'request', property: given };
}

/** `expected \`expect: block\` or \`expect: pass\``, or the phase's list. */
export function expectationMessage(outcomes: PhaseOutcomes, phase: string | undefined): string {
  const values = outcomes.expectations;
  if (values.length === 2) return `expected \`expect: ${values[0]}\` or \`expect: ${values[1]}\``;
  return `expected \`expect:\` ${values.slice(0, -1).map((v) => `\`${v}\``).join(', ')} or \`${values[values.length - 1]}\`${phase ? ` (what the rules of phase \`${phase}\` can do)` : ''}`;
}

/** A case's packet or request, read; or what is wrong with it, at its place in the test file. */
export function readSubject(kind: 'packet' | 'request', node: HostNode, phase: string | undefined): { subject: Subject } | { message: string; offset: number } {
  try {
    return { subject: kind === 'packet' ? parsePacket(plain(node)) : parseRequest(plain(node), { phase }) };
  } catch (e) {
    if (e instanceof PacketError) {
      const key = e.key !== undefined ? property(node, e.key) : undefined;
      return { message: `packet: ${e.message}`, offset: key?.value?.start ?? key?.keyStart ?? node.start };
    }
    if (e instanceof RequestError) {
      const key = e.key !== undefined ? property(node, e.key) : undefined;
      const inner = key?.value && !e.atKey ? nodeAt(key.value, e.path) : undefined;
      return { message: `request: ${e.message}`, offset: inner?.start ?? key?.keyStart ?? node.start };
    }
    throw e;
  }
}

/** The node at a path of keys and indexes below `node` (the deepest one there is). */
export function nodeAt(node: HostNode, path: readonly (string | number)[]): HostNode {
  let at = node;
  for (const step of path) {
    const next: HostNode | undefined = at.kind === 'object' ? property(at, String(step))?.value : at.kind === 'array' && typeof step === 'number' ? at.items[step] : undefined;
    if (!next) break;
    at = next;
  }
  return at;
}

/** Whether the verdict is what the case expects, and both said as messages say them. */
export function judge(
  verdict: RulesetVerdict,
  outcomes: PhaseOutcomes,
  expected: string,
  expectedRule: RuleInfo | undefined,
  ruleset?: RulesetSource,
): { ok: boolean; want: string; got: string; actual: string; undecided?: RuleInfo } {
  const want = `${expected}${expectedRule ? ` by rule ${describeRule(expectedRule)}` : ''}`;
  if (outcomes.kind === 'match') {
    const matched = verdict.trace.filter((t) => t.outcome === 'match').map((t) => t.rule);
    const ok = expected === 'no-match' ? matched.length === 0 : expectedRule ? matched.some((r) => r.index === expectedRule.index) : matched.length > 0;
    // A rule whose match Terraform decides (RuleInfo.unknown) decides the case where no known match does.
    const unknown = verdict.trace.filter((t) => t.outcome === 'unknown').map((t) => t.rule);
    const undecided = ok !== (expected === 'no-match') ? undefined : expectedRule ? unknown.find((r) => r.index === expectedRule.index) : unknown[0];
    return { ok, want, got: describeMatches(matched, ruleset), actual: describeMatches(matched), ...(undecided ? { undecided } : {}) };
  }
  const ok = verdict.verdict === expected && (!expectedRule || verdict.rule?.index === expectedRule.index);
  return { ok, want, got: describeVerdict(verdict, ruleset), actual: describeVerdict(verdict) };
}

/** `match: rule 2 (…) at FILE:7:5, rule 3 at FILE:9:5`, or `no-match: no rule matched`. */
export function describeMatches(matched: readonly RuleInfo[], ruleset?: RulesetSource): string {
  if (matched.length === 0) return 'no-match: no rule matched';
  const where = (rule: RuleInfo) => (ruleset ? ` at ${ruleset.display}:${linePosition(ruleset.text, rule.start)}` : '');
  return `match: ${matched.map((rule) => `rule ${describeRule(rule)}${where(rule)}`).join(', ')}`;
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
  const tag = outcome.kind === 'pass' ? 'ok   ' : outcome.kind === 'fail' ? 'FAIL ' : outcome.undecided ? 'UNDECIDED' : 'ERROR';
  return `${tag} ${label}: ${outcome.message}\n${outcome.kind === 'fail' && outcome.verdict ? traceLines(outcome.verdict) : ''}`;
}

/** What `rulesets test` prints for a problem of the whole test file (its ruleset's, at the ruleset's place). */
export function fileProblemOutput(at: (offset: number) => string, problem: TestProblem): string {
  const where = problem.ruleset ? `${at(0)}: ${problem.ruleset.display}:${linePosition(problem.ruleset.text, problem.offset)}` : at(problem.offset);
  return `${problem.undecided ? 'UNDECIDED' : 'ERROR'} ${where}: ${problem.message}\n`;
}

/** Each rule looked at and what came of it, one indented line each. */
export function traceLines(verdict: RulesetVerdict): string {
  return verdict.trace
    .map((entry) => {
      const what = entry.outcome === 'disabled' ? 'disabled, skipped' : entry.outcome === 'no-match' ? 'no match' : entry.outcome === 'unknown' ? `${entry.rule.unknown}: may match; \`${entry.rule.action}\` does not decide here, next rule` : entry.effect === 'continue' ? `match; \`${entry.rule.action}\` does not decide here, next rule` : 'match';
      return `  rule ${describeRule(entry.rule)} [${entry.rule.action}]: ${what}\n`;
    })
    .join('');
}

function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
