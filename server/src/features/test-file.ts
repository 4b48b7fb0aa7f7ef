/**
 * Test files (`NAME.ruleset.test.yaml`, `.yml`, `.json`, as `rulesets test` runs them) in the
 * editor: each case checked as `rulesets test` reads it (unknown keys, packet or request fields
 * and values, `expect` by the ruleset's phase, `rule`), and its result against the ruleset beside
 * it, on the case's `expect` (or `rule`) when the ruleset decides otherwise.
 *
 * Pure functions of the document model; the ruleset is read through a RulesetReader, so that
 * the server can give an open document's text and the tests need no disk.
 */
import { CompletionItemKind, DiagnosticSeverity, type CompletionItem, type CompletionList, type Diagnostic, type Position } from 'vscode-languageserver';
import { rulesetPathsBesideTest } from '../documents/classify';
import { property, type HostFormat, type HostNode, type HostProperty } from '../documents/host/index';
import { parseRuleset } from '../documents/parsed-ruleset';
import { LISTS_KEY, PacketError, parsePacket } from '../evaluation/packet';
import { MissingValuesError, type Subject } from '../evaluation/evaluate';
import { describeAssumed, evaluateAssuming, rulesThatDecide } from '../evaluation/assumed-fields';
import { rulesetEffects } from '../evaluation/effects';
import { EFFECT_KEY_NAMES, EFFECT_KEYS, EFFECT_MEMBERS, judgeEffects, readExpectedEffects, type EffectKey } from '../evaluation/expected-effects';
import { describeExpectation, phaseOutcomes, subjectOfPhase, type PhaseOutcomes } from '../evaluation/outcomes';
import { parseRequest, REQUEST_CONVENIENCES, requestCatalogue, RequestError } from '../evaluation/request';
import { caseSubject, judge, nodeAt, prepareTestRuleset, readTestFile, rulesetOfTestFile, TEST_CASE_KEYS, unknownCaseKey } from '../evaluation/test-file-run';
import { evaluateModule, type TerraformModuleReader } from '../documents/terraform-module';
import { describeRule, findRule, plain, RuleEvaluationError, RulesetError, type PreparedRuleset, type RuleInfo } from '../evaluation/ruleset-eval';
import { FIELDS } from '../language/catalogue/fields';
import { COUNTRIES } from '../language/catalogue/countries';
import { IP_PROTOCOLS } from '../language/catalogue/protocols';
import { describeValueType } from '../language/types';
import { DIAGNOSTIC_SOURCE } from '../protocol';
import type { DocumentModel } from './model';


/**
 * A ruleset's text, by URI; undefined when there is no such file. A Terraform file's `module`
 * (its path, how to read its folder) has its rules evaluated with the module, as `rulesets test` does.
 */
export type RulesetReader = (uri: string) => { readonly text: string; readonly format: HostFormat; readonly module?: { readonly path: string; readonly reader: TerraformModuleReader; readonly varFiles?: readonly string[] } } | undefined;

/**
 * The URIs where the ruleset of a test file may be, in the order they are tried: the
 * `ruleset:` path of the object form, or `NAME.ruleset.yaml`, `.yml`, `.json` beside it.
 */
export function rulesetCandidates(model: DocumentModel): string[] {
  const named = property(model.ruleset.root, 'ruleset')?.value;
  if (model.ruleset.root?.kind === 'object' && named?.kind === 'string') {
    try {
      return [new URL(String(named.value), model.uri).href];
    } catch {
      return [];
    }
  }
  return rulesetPathsBesideTest(model.uri);
}

/**
 * `test-failed`: the ruleset decides otherwise than the case expects; `test-no-ruleset`: the
 * ruleset is missing or cannot run; `test-bad-input`: the file, a case or a packet is wrong.
 */
export type TestFileCode = 'test-failed' | 'test-no-ruleset' | 'test-bad-input';

export function testFileDiagnostics(model: DocumentModel, read: RulesetReader): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (start: number, end: number, message: string, severity: DiagnosticSeverity = DiagnosticSeverity.Error, code: TestFileCode = 'test-bad-input'): void => {
    out.push({ range: model.range(start, Math.max(end, start)), severity, source: DIAGNOSTIC_SOURCE, code, message });
  };
  const on = (node: { start: number; end: number }, message: string, severity?: DiagnosticSeverity) => report(node.start, node.end, message, severity);
  const onKey = (p: HostProperty, message: string) => report(p.keyStart, p.keyEnd, message);

  // The file itself, as `rulesets test` reads it: every problem, at its place.
  // Its ruleset's URIs are rulesetCandidates' (resolved as the editor names files), not the reader's paths.
  const file = readTestFile(model.text, model.format, { path: model.uri, resolve: (named) => named, host: { root: model.ruleset.root, syntaxErrors: model.ruleset.syntaxProblems } });
  for (const problem of file.problems) report(problem.offset, problem.end ?? problem.offset, problem.message);
  const root = model.ruleset.root;
  const casesNode = root?.kind === 'object' ? property(root, 'cases')?.value : root;
  // A file that does not parse or holds no cases has nothing more to check.
  if (casesNode?.kind !== 'array' || model.ruleset.syntaxProblems.length > 0) return out;
  const { lists, choice, variables } = file;

  // The ruleset: missing or unusable is one warning at the top; the cases are still checked,
  // by its phase when it names one.
  const candidates = rulesetCandidates(model);
  let prepared: PreparedRuleset | undefined;
  let phase: string | undefined;
  let found: string | undefined;
  for (const uri of candidates) {
    const source = read(uri);
    if (!source) continue;
    found = uri;
    const rulesetModel = rulesetOfTestFile(source.text, source.format, choice);
    if ('problem' in rulesetModel) {
      report(0, 0, `the ruleset ${fileName(uri)} cannot be run: ${rulesetModel.problem}`, DiagnosticSeverity.Warning, 'test-no-ruleset');
      break;
    }
    phase = rulesetModel.phase;
    if (variables.length > 0 && source.format !== 'hcl') {
      const first = variables[0];
      report(first.keyStart, first.keyStart + first.name.length, `\`variables\` gives the variables of a Terraform module; ${fileName(uri)} is not a Terraform file`);
    }
    try {
      const module = source.format === 'hcl' && source.module ? { path: source.module.path, text: source.text, reader: source.module.reader, varFiles: source.module.varFiles } : undefined;
      const ready = prepareTestRuleset(rulesetModel, module, variables, model.uri);
      if ('message' in ready) {
        const bad = variables.find((v) => v.keyStart === ready.offset);
        report(ready.offset, ready.offset + (bad?.name.length ?? 1), ready.message);
      } else {
        prepared = ready;
        phase = ready.phase ?? phase;
      }
    } catch (error) {
      if (!(error instanceof RulesetError)) throw error;
      report(0, 0, `the ruleset ${fileName(uri)} cannot be run: ${error.message}`, DiagnosticSeverity.Warning, 'test-no-ruleset');
    }
    break;
  }
  if (!found) {
    const names = candidates.map(fileName);
    report(0, 0, `no ruleset for this test file: looked for ${names.join(', ')}; the cases cannot be run`, DiagnosticSeverity.Warning, 'test-no-ruleset');
  }

  for (const caseNode of casesNode.items) checkCase(caseNode);
  return out;

  function checkCase(node: HostNode): void {
    if (node.kind !== 'object') return on(node, 'expected a case: an object with `packet` or `request`, and `expect`');
    for (const p of node.properties) if (!(TEST_CASE_KEYS as readonly string[]).includes(p.key)) onKey(p, unknownCaseKey(p.key, phase));
    const caseStart = { start: node.start, end: node.start + 1 };
    const chosen = caseSubject(node, phase);
    let subject: Subject | undefined;
    let kind: 'packet' | 'request' | undefined;
    if ('message' in chosen) {
      const given = property(node, 'packet') ?? property(node, 'request');
      if (given && !given.value && chosen.message.startsWith('the case has no')) {
        onKey(given, `expected the ${given.key} as an object of field values, e.g. ${given.key === 'packet' ? '{ip.src: 192.0.2.7, tcp.dstport: 22}' : '{url: "https://example.com/login", ip.src: 192.0.2.7}'}`);
      } else if (chosen.offset !== undefined) {
        const p = node.properties.find((q) => q.keyStart === chosen.offset);
        if (p) onKey(p, chosen.message);
        else report(chosen.offset, chosen.offset + 1, chosen.message);
      } else on(caseStart, chosen.message);
    } else {
      kind = chosen.kind;
      subject = kind === 'packet' ? checkPacket(chosen.property) : checkRequest(chosen.property);
    }
    const outcomes = phaseOutcomes(phase, kind ?? subjectOfPhase(phase) ?? 'packet');
    const expectProperty = property(node, 'expect');
    const expectNode = expectProperty?.value;
    let expected: string | undefined;
    const choices = alternatives(outcomes);
    if (!expectProperty) on(caseStart, `the case has no ${outcomes.expectations.map((v) => `\`expect: ${v}\``).join(' or ')}`);
    else if (expectNode?.kind === 'string' && outcomes.expectations.includes(String(expectNode.value))) expected = String(expectNode.value);
    else if (expectNode) on(expectNode, `expected ${choices}, found \`${String(expectNode.kind === 'object' || expectNode.kind === 'array' ? expectNode.kind : expectNode.value)}\``);
    else onKey(expectProperty, `expected \`expect:\` ${choices}`);
    const ruleNode = property(node, 'rule')?.value;
    let expectedRule: RuleInfo | undefined;
    let ruleOk = true;
    if (ruleNode && expected === 'no-match') {
      on(ruleNode, '`rule` names the rule that matches; with `expect: no-match` no rule does: leave `rule` out');
      ruleOk = false;
    } else if (ruleNode && prepared) {
      const rule = findRule(prepared, ruleNode);
      if (typeof rule === 'string') {
        on(ruleNode, rule);
        ruleOk = false;
      } else expectedRule = rule;
    }
    const effectKeys = node.properties.filter((p) => (EFFECT_KEY_NAMES as readonly string[]).includes(p.key));
    if (kind === 'packet') for (const p of effectKeys) onKey(p, `\`${p.key}\` says what rules do to an HTTP request; a packet's ruleset blocks or passes it`);
    const effects = readExpectedEffects(node);
    for (const problem of effects.problems) report(problem.start, problem.end, problem.message);
    if (!prepared || !subject || !expected || !expectNode || !ruleOk || 'message' in chosen || effects.problems.length > 0 || (kind === 'packet' && effectKeys.length > 0)) return;
    let verdict;
    let assumedNote = '';
    try {
      // As the runner does (test-file-run.ts): a request field the case leaves out is assumed neutral.
      const reached = evaluateAssuming(prepared, subject, lists, rulesThatDecide(outcomes, effects.expectations.length > 0));
      ({ verdict, subject } = reached);
      if (reached.assumed.length > 0) assumedNote = `; ${describeAssumed(reached.assumed)}`;
    } catch (error) {
      if (error instanceof RuleEvaluationError || error instanceof MissingValuesError) return on(chosen.property.value!, error.message);
      throw error;
    }
    const judged = judge(verdict, outcomes, expected, expectedRule);
    if (judged.ok) {
      if (effects.expectations.length === 0) return;
      const effectsJudged = judgeEffects(effects.expectations, rulesetEffects(prepared, verdict, subject, lists));
      for (const f of effectsJudged.failures) report(f.start, f.end, `${f.message}${assumedNote}`, DiagnosticSeverity.Error, 'test-failed');
      for (const u of effectsJudged.unknown) report(u.start, u.end, u.message);
      return;
    }
    const matched = verdict.trace.some((t) => t.outcome === 'match');
    const got = outcomes.kind === 'match' ? judged.got : verdict.rule ? `${verdict.verdict} by rule ${describeRule(verdict.rule)}` : `pass (no rule ${matched ? 'decided' : 'matched'})`;
    // On `rule` when only the rule is wrong: the verdict (or a match at all) is right.
    const onlyRuleWrong = ruleNode && (outcomes.kind === 'match' ? expected === 'match' && matched : verdict.verdict === expected);
    report((onlyRuleWrong ? ruleNode : expectNode).start, (onlyRuleWrong ? ruleNode : expectNode).end, `expected ${judged.want}, got ${got}${assumedNote}`, DiagnosticSeverity.Error, 'test-failed');
  }

  /** Each field on its own, so that every mistake shows; then the packet as a whole. */
  function checkPacket(packetProperty: HostProperty): Subject | undefined {
    const node = packetProperty.value!;
    if (node.kind !== 'object') {
      on(node, 'expected the packet as an object of field values, e.g. {ip.src: 192.0.2.7, tcp.dstport: 22}');
      return undefined;
    }
    let bad = false;
    for (const p of node.properties) {
      try {
        parsePacket({ [p.key]: plain(p.value) });
      } catch (error) {
        if (!(error instanceof PacketError)) throw error;
        bad = true;
        // An unknown field is the key's mistake; a bad value is the value's.
        if ((FIELDS.has(p.key) || p.key === LISTS_KEY) && p.value) on(p.value, error.message);
        else onKey(p, error.message);
      }
    }
    if (bad) return undefined;
    try {
      return parsePacket(plain(node));
    } catch (error) {
      if (!(error instanceof PacketError)) throw error;
      const p = error.key !== undefined ? property(node, error.key) : undefined;
      if (p) onKey(p, error.message);
      else on(node, error.message);
      return undefined;
    }
  }

  /** Each key on its own, so that every mistake shows (on the key when it is unknown, else inside its value); then the request as a whole. */
  function checkRequest(requestProperty: HostProperty): Subject | undefined {
    const node = requestProperty.value!;
    if (node.kind !== 'object') {
      on(node, 'expected the request as an object of field values, e.g. {url: "https://example.com/login", ip.src: 192.0.2.7}');
      return undefined;
    }
    const placed = (error: RequestError, p: HostProperty | undefined) => {
      if (!p) return on(node, error.message);
      if (!p.value || error.atKey) return onKey(p, error.message);
      on(nodeAt(p.value, error.path), error.message);
    };
    let bad = false;
    for (const p of node.properties) {
      try {
        parseRequest({ [p.key]: plain(p.value) }, { phase });
      } catch (error) {
        if (!(error instanceof RequestError)) throw error;
        bad = true;
        placed(error, p);
      }
    }
    if (bad) return undefined;
    try {
      return parseRequest(plain(node), { phase });
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      placed(error, error.key !== undefined ? property(node, error.key) : undefined);
      return undefined;
    }
  }
}

/** `\`block\` or \`pass\``, `\`block\`, \`challenge\`, … or \`pass\``. */
function alternatives(outcomes: PhaseOutcomes): string {
  const values = outcomes.expectations.map((v) => `\`${v}\``);
  return values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}


function fileName(uri: string): string {
  return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
}


// ---------------------------------------------------------------- completion

/**
 * Completion in a test file: field names (with their types) as keys inside `packet:` or
 * `request:` (and a request's conveniences: `url`, `method`, `headers`, `$lists`), the outcomes
 * the ruleset's phase has after `expect:` (`block`/`pass` for packets), country codes, protocol
 * names, Booleans and documented values as values. `read` finds the ruleset, for its phase.
 */
export function testFileCompletion(model: DocumentModel, position: Position, read?: RulesetReader): CompletionList | null {
  const offset = model.offsetAt(position);
  return replacingWord(model, offset, completeAt(model, offset, read));
}

/** The phase of the test file's ruleset, when it can be read and names one. */
function rulesetPhase(model: DocumentModel, read: RulesetReader | undefined): string | undefined {
  if (!read) return undefined;
  for (const uri of rulesetCandidates(model)) {
    const source = read(uri);
    if (source) return parseRuleset(source.text, source.format).phase;
  }
  return undefined;
}

function completeAt(model: DocumentModel, offset: number, read: RulesetReader | undefined): CompletionList | null {
  const text = model.text;
  const root = model.ruleset.root;
  const variableNames = variableCompletion(model, offset, read);
  if (variableNames) return variableNames;
  const casesNode = root?.kind === 'object' ? property(root, 'cases')?.value : root;
  if (casesNode?.kind !== 'array') return null;
  // The last case that starts before the cursor: a block mapping ends at its last value, and a
  // new line under it still belongs to it.
  const caseNode = casesNode.items.filter((c) => c.start <= offset).pop();
  if (caseNode?.kind !== 'object') return null;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const linePrefix = text.slice(lineStart, offset);
  const subjectProperty = property(caseNode, 'request') ?? property(caseNode, 'packet');
  const phase = rulesetPhase(model, read);

  // `expect: |`
  const expectProperty = property(caseNode, 'expect');
  if (expectProperty && inValueOf(expectProperty, offset, text)) {
    const kind = subjectProperty?.key === 'request' ? 'request' : subjectProperty?.key === 'packet' ? 'packet' : (subjectOfPhase(phase) ?? 'packet');
    return list(phaseOutcomes(phase, kind).expectations.map((v) => ({ label: v, kind: CompletionItemKind.EnumMember, detail: describeExpectation(v, kind) })));
  }
  const ownKeys = caseKeyCompletion(caseNode, offset, text, linePrefix, subjectProperty?.key ?? subjectOfPhase(phase));
  if (ownKeys) return ownKeys;
  if (!subjectProperty || offset <= subjectProperty.keyEnd) return null;
  const isRequest = subjectProperty.key === 'request';
  const subjectNode = subjectProperty.value?.kind === 'object' ? subjectProperty.value : undefined;
  // No other key of the case between `packet:` / `request:` and the cursor.
  const laterKey = caseNode.properties.some((p) => p !== subjectProperty && p.keyStart > subjectProperty.keyStart && p.keyStart < offset);
  if (laterKey) return null;
  const insideFlow = subjectNode && !subjectNode.block && offset > subjectNode.start && offset < subjectNode.end;
  // A block mapping under the key (or none yet): an indented line of its own.
  const onOwnLine = (!subjectNode || subjectNode.block) && /^\s+[\w.$]*$/.test(linePrefix) && lineStart > subjectProperty.keyEnd;
  const catalogue = requestCatalogue(phase);
  // A value of a field: `ip.proto: |`
  if (subjectNode) {
    for (const p of subjectNode.properties) {
      if (!inValueOf(p, offset, text)) continue;
      const field = isRequest ? catalogue.fields.get(p.key) : FIELDS.get(p.key);
      if (!isRequest && field?.values === 'protocol') return list([...IP_PROTOCOLS].map(([name, info]) => ({ label: name, kind: CompletionItemKind.EnumMember, detail: `protocol ${info.number}` })));
      if (field?.values === 'country') return list([...COUNTRIES].map(([code, name]) => ({ label: code, kind: CompletionItemKind.EnumMember, detail: name, filterText: `${code} ${name}` })));
      if (field?.oneOf) return list(field.oneOf.map((v) => ({ label: v, kind: CompletionItemKind.EnumMember })));
      if (field?.type === 'Boolean') return list(['true', 'false'].map((v) => ({ label: v, kind: CompletionItemKind.Value })));
      return null;
    }
  }
  if (!insideFlow && !onOwnLine) return null;
  // A key: every field not given yet, with its type.
  const given = new Set(subjectNode ? subjectNode.properties.filter((p) => !(offset >= p.keyStart && offset <= p.keyEnd)).map((p) => p.key) : []);
  if (!isRequest) {
    return list(
      [...FIELDS]
        .filter(([name]) => !given.has(name))
        .map(([name, field]) => ({ label: name, kind: CompletionItemKind.Field, detail: field.type })),
    );
  }
  const conveniences = REQUEST_CONVENIENCES.filter((c) => !given.has(c.key)).map((c, i) => ({ label: c.key, kind: CompletionItemKind.Property, detail: c.doc, sortText: `0${i}` }));
  const fields = [...catalogue.fields.values()]
    .filter((field) => !given.has(field.name) && (!phase || !field.only?.phases || field.only.phases.includes(phase)))
    .map((field) => ({ label: field.name, kind: CompletionItemKind.Field, detail: describeValueType(field.type), documentation: field.doc, sortText: `1${field.name}` }));
  return list([...conveniences, ...fields]);
}

/**
 * The names of the module's variables, as keys of `variables:` (`variables: {bl|` or an indented
 * line under `variables:`), those given already left out; null elsewhere.
 */
function variableCompletion(model: DocumentModel, offset: number, read: RulesetReader | undefined): CompletionList | null {
  const text = model.text;
  const root = model.ruleset.root;
  const variables = root?.kind === 'object' ? property(root, 'variables') : undefined;
  if (!variables || offset <= variables.keyEnd || !read) return null;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const linePrefix = text.slice(lineStart, offset);
  const value = variables.value;
  const inFlow = value?.kind === 'object' && !value.block && offset > value.start && offset < value.end && /[{,]\s*[\w-]*$/.test(text.slice(value.start, offset));
  // An indented line under `variables:`, no other top-level key between.
  const underKey = lineStart > variables.keyEnd && /^\s+[\w-]*$/.test(linePrefix) && !(root as { properties: readonly HostProperty[] }).properties.some((p) => p.keyStart > variables.keyStart && p.keyStart < offset);
  if (!inFlow && !underKey) return null;
  for (const uri of rulesetCandidates(model)) {
    const source = read(uri);
    if (!source) continue;
    if (source.format !== 'hcl' || !source.module) return null;
    let names: readonly string[] = [];
    try {
      names = evaluateModule({ path: source.module.path, reader: source.module.reader, varFiles: source.module.varFiles }, source.text)?.names?.variables ?? [];
    } catch {
      names = [];
    }
    const given = new Set(value?.kind === 'object' ? value.properties.filter((p) => !(offset >= p.keyStart && offset <= p.keyEnd)).map((p) => p.key) : []);
    return list(names.filter((n) => !given.has(n)).map((name) => ({ label: name, kind: CompletionItemKind.Variable, detail: `variable "${name}" of the module` })));
  }
  return null;
}

/** What each key of a case is for, as completion shows it. */
const CASE_KEY_DOCS: Readonly<Record<string, string>> = {
  name: 'what the case is about (optional)',
  packet: 'the packet: its field values',
  request: 'the request: `url`, `method`, `headers` and field values',
  expect: 'what the ruleset does: the action that decides, `pass`, or `match` / `no-match`',
  rule: 'the rule that decides or matches: its number (from 1), description, id or ref',
  ...EFFECT_KEYS,
};

/**
 * Keys of the case on a line of their own at the column of its keys (block YAML), or the keys
 * inside an effect key (`redirect:` → `url`, `status`) one level deeper.
 */
function caseKeyCompletion(caseNode: HostNode & { kind: 'object' }, offset: number, text: string, linePrefix: string, subject: string | undefined): CompletionList | null {
  const first = caseNode.properties[0];
  const word = /^(\s*(?:- )?)[\w]*$/.exec(linePrefix);
  if (!first || !word) return null;
  const column = (at: number) => at - (text.lastIndexOf('\n', at - 1) + 1);
  const keyColumn = column(first.keyStart);
  const atCursor = (start: number, end: number) => offset >= start && offset <= end;
  if (word[1].length === keyColumn) {
    const given = new Set(caseNode.properties.filter((p) => !atCursor(p.keyStart, p.keyEnd)).map((p) => p.key));
    const keys = TEST_CASE_KEYS.filter((k) => !given.has(k) && !(subject === 'packet' && (k === 'request' || k in EFFECT_KEYS)) && !(subject === 'request' && k === 'packet'));
    return list(keys.map((k, i) => ({ label: k, kind: CompletionItemKind.Property, detail: CASE_KEY_DOCS[k], sortText: String(i).padStart(2, '0') })));
  }
  const owner = caseNode.properties.filter((p) => p.keyStart < offset).pop();
  const members = owner && EFFECT_MEMBERS[owner.key as EffectKey];
  if (!owner || !members || word[1].length <= keyColumn || (owner.value && owner.value.kind !== 'object' && owner.value.kind !== 'null')) return null;
  const inside = owner.value?.kind === 'object' ? owner.value : undefined;
  if (inside && !inside.block) return null;
  const given = new Set(inside ? inside.properties.filter((p) => !atCursor(p.keyStart, p.keyEnd)).map((p) => p.key) : []);
  return list(members.filter((m) => !given.has(m)).map((m) => ({ label: m, kind: CompletionItemKind.Property, detail: `in \`${owner.key}\`` })));
}

/** The cursor is in the property's value on the key's line: after `:`, maybe a quote and a word. */
function inValueOf(p: HostProperty, offset: number, text: string): boolean {
  if (offset <= p.keyEnd) return false;
  return /^["']?[ \t]*:[ \t]*["']?[\w.:-]*$/.test(text.slice(p.keyEnd, offset));
}

function list(items: CompletionItem[]): CompletionList {
  return { isIncomplete: false, items };
}

/** Each item replaces the whole word at the cursor, dots included (`tcp.d` → `tcp.dstport`). */
function replacingWord(model: DocumentModel, offset: number, result: CompletionList | null): CompletionList | null {
  if (!result) return result;
  const text = model.text;
  let start = offset;
  while (start > 0 && /[\w.$-]/.test(text[start - 1])) start--;
  let end = offset;
  while (end < text.length && /[\w.$-]/.test(text[end])) end++;
  const range = model.range(start, end);
  return { ...result, items: result.items.map((item) => ({ ...item, textEdit: { range, newText: item.label } })) };
}
