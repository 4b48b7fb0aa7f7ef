/**
 * Test files (`NAME.ruleset.test.yaml`, `.yml`, `.json`, as `rulesets test` runs them) in the
 * editor: each case checked as `rulesets test` reads it (unknown keys, packet fields and values,
 * `expect`, `rule`), and its result against the ruleset beside it, on the case's `expect` (or
 * `rule`) when the ruleset decides otherwise.
 *
 * Pure functions of the document model; the ruleset is read through a RulesetReader, so that
 * the server can give an open document's text and the tests need no disk.
 */
import { CompletionItemKind, DiagnosticSeverity, type CompletionItem, type CompletionList, type Diagnostic, type Position } from 'vscode-languageserver';
import { rulesetPathsBesideTest } from '../documents/classify';
import { property, type HostFormat, type HostNode, type HostProperty } from '../documents/host';
import { parseRuleset } from '../documents/parsed-ruleset';
import { LISTS_KEY, PacketError, parseLists, parsePacket, type Lists, type Packet } from '../evaluation/packet';
import { MissingValuesError } from '../evaluation/evaluate';
import { TEST_CASE_KEYS, TEST_FILE_KEYS } from '../evaluation/test-file-run';
import { describeRule, evaluateRuleset, findRule, plain, prepareRuleset, RuleEvaluationError, RulesetError, type PreparedRuleset, type RuleInfo } from '../evaluation/ruleset-eval';
import { FIELDS } from '../language/catalogue/fields';
import { COUNTRIES } from '../language/catalogue/countries';
import { IP_PROTOCOLS } from '../language/catalogue/protocols';
import { DIAGNOSTIC_SOURCE } from '../protocol';
import type { DocumentModel } from './model';


/** A ruleset's text, by URI; undefined when there is no such file. */
export type RulesetReader = (uri: string) => { readonly text: string; readonly format: HostFormat } | undefined;

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

  const parsed = model.ruleset;
  for (const e of parsed.syntaxProblems) report(e.start, e.end, e.message);
  if (parsed.syntaxProblems.length > 0) return out;
  const root = parsed.root;
  const casesNode = root?.kind === 'object' ? property(root, 'cases')?.value : root;
  if (casesNode?.kind !== 'array') {
    report(root?.start ?? 0, root ? Math.min(root.end, root.start + 1) : 0, 'expected a list of cases (`- packet: {...}` / `expect: block|pass`), or an object with `cases`');
    return out;
  }
  let lists: Lists = new Map();
  if (root?.kind === 'object') {
    for (const p of root.properties) if (!(TEST_FILE_KEYS as readonly string[]).includes(p.key)) onKey(p, `unknown key \`${p.key}\`; a test file has \`ruleset\`, \`lists\` and \`cases\``);
    const named = property(root, 'ruleset')?.value;
    if (named && named.kind !== 'string') on(named, 'expected `ruleset` as the path of the ruleset file, relative to this file');
    const listsNode = property(root, 'lists')?.value;
    if (listsNode) {
      try {
        lists = parseLists(plain(listsNode));
      } catch (error) {
        if (!(error instanceof PacketError)) throw error;
        on(listsNode, error.message);
      }
    }
  }

  // The ruleset: missing or unusable is one warning at the top; the cases are still checked.
  const candidates = rulesetCandidates(model);
  let prepared: PreparedRuleset | undefined;
  let found: string | undefined;
  for (const uri of candidates) {
    const source = read(uri);
    if (!source) continue;
    found = uri;
    try {
      prepared = prepareRuleset(parseRuleset(source.text, source.format));
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
    if (node.kind !== 'object') return on(node, 'expected a case: an object with `packet` and `expect`');
    for (const p of node.properties) if (!(TEST_CASE_KEYS as readonly string[]).includes(p.key)) onKey(p, `unknown key \`${p.key}\`; a case has ${TEST_CASE_KEYS.map((k) => `\`${k}\``).join(', ')}`);
    const caseStart = { start: node.start, end: node.start + 1 };
    const packetProperty = property(node, 'packet');
    const packet = packetProperty ? checkPacket(packetProperty) : (on(caseStart, 'the case has no `packet`'), undefined);
    const expectProperty = property(node, 'expect');
    const expectNode = expectProperty?.value;
    let expected: 'block' | 'pass' | undefined;
    if (!expectProperty) on(caseStart, 'the case has no `expect: block` or `expect: pass`');
    else if (expectNode?.kind === 'string' && (expectNode.value === 'block' || expectNode.value === 'pass')) expected = expectNode.value;
    else if (expectNode) on(expectNode, `expected \`block\` or \`pass\`, found \`${String(expectNode.kind === 'object' || expectNode.kind === 'array' ? expectNode.kind : expectNode.value)}\``);
    else onKey(expectProperty, 'expected `expect: block` or `expect: pass`');
    const ruleNode = property(node, 'rule')?.value;
    let expectedRule: RuleInfo | undefined;
    let ruleOk = true;
    if (ruleNode && prepared) {
      const rule = findRule(prepared, ruleNode);
      if (typeof rule === 'string') {
        on(ruleNode, rule);
        ruleOk = false;
      } else expectedRule = rule;
    }
    if (!prepared || !packet || !expected || !expectNode || !ruleOk || !packetProperty?.value) return;
    let verdict;
    try {
      verdict = evaluateRuleset(prepared, packet, lists);
    } catch (error) {
      if (error instanceof RuleEvaluationError || error instanceof MissingValuesError) return on(packetProperty.value, error.message);
      throw error;
    }
    const got = verdict.rule
      ? `${verdict.verdict} by rule ${describeRule(verdict.rule)}`
      : `pass (no rule ${verdict.trace.some((t) => t.outcome === 'match') ? 'decided' : 'matched'})`;
    const want = `${expected}${expectedRule ? ` by rule ${describeRule(expectedRule)}` : ''}`;
    const failed = (at: HostNode) => report(at.start, at.end, `expected ${want}, got ${got}`, DiagnosticSeverity.Error, 'test-failed');
    if (verdict.verdict !== expected) failed(expectNode);
    else if (expectedRule && verdict.rule?.index !== expectedRule.index && ruleNode) failed(ruleNode);
  }

  /** Each field on its own, so that every mistake shows; then the packet as a whole. */
  function checkPacket(packetProperty: HostProperty): Packet | undefined {
    const node = packetProperty.value;
    if (!node) {
      onKey(packetProperty, 'expected the packet as an object of field values, e.g. {ip.src: 192.0.2.7, tcp.dstport: 22}');
      return undefined;
    }
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
}


function fileName(uri: string): string {
  return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
}


// ---------------------------------------------------------------- completion

/**
 * Completion in a test file: packet field names as keys inside `packet:`, `block`/`pass`
 * after `expect:`, country codes for country fields and protocol names for `ip.proto`.
 */
export function testFileCompletion(model: DocumentModel, position: Position): CompletionList | null {
  const offset = model.offsetAt(position);
  return replacingWord(model, offset, completeAt(model, offset));
}

function completeAt(model: DocumentModel, offset: number): CompletionList | null {
  const text = model.text;
  const root = model.ruleset.root;
  const casesNode = root?.kind === 'object' ? property(root, 'cases')?.value : root;
  if (casesNode?.kind !== 'array') return null;
  // The last case that starts before the cursor: a block mapping ends at its last value, and a
  // new line under it still belongs to it.
  const caseNode = casesNode.items.filter((c) => c.start <= offset).pop();
  if (caseNode?.kind !== 'object') return null;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const linePrefix = text.slice(lineStart, offset);

  // `expect: |`
  const expectProperty = property(caseNode, 'expect');
  if (expectProperty && inValueOf(expectProperty, offset, text)) {
    return list(['block', 'pass'].map((v) => ({ label: v, kind: CompletionItemKind.EnumMember, detail: v === 'block' ? 'the ruleset blocks the packet' : 'the ruleset lets the packet through' })));
  }
  const packetProperty = property(caseNode, 'packet');
  if (!packetProperty || offset <= packetProperty.keyEnd) return null;
  const packetNode = packetProperty.value?.kind === 'object' ? packetProperty.value : undefined;
  // No other key of the case between `packet:` and the cursor.
  const laterKey = caseNode.properties.some((p) => p !== packetProperty && p.keyStart > packetProperty.keyStart && p.keyStart < offset);
  if (laterKey) return null;
  const insideFlow = packetNode && !packetNode.block && offset > packetNode.start && offset < packetNode.end;
  // A block mapping under `packet:` (or none yet): an indented line of its own.
  const onOwnLine = (!packetNode || packetNode.block) && /^\s+[\w.$]*$/.test(linePrefix) && lineStart > packetProperty.keyEnd;
  // A value of a field: `ip.proto: |`
  if (packetNode) {
    for (const p of packetNode.properties) {
      if (!inValueOf(p, offset, text)) continue;
      const field = FIELDS.get(p.key);
      if (field?.values === 'protocol') return list([...IP_PROTOCOLS].map(([name, info]) => ({ label: name, kind: CompletionItemKind.EnumMember, detail: `protocol ${info.number}` })));
      if (field?.values === 'country') return list([...COUNTRIES].map(([code, name]) => ({ label: code, kind: CompletionItemKind.EnumMember, detail: name, filterText: `${code} ${name}` })));
      if (field?.type === 'Boolean') return list(['true', 'false'].map((v) => ({ label: v, kind: CompletionItemKind.Value })));
      return null;
    }
  }
  if (!insideFlow && !onOwnLine) return null;
  // A key: every field of the catalogue not given yet, with its type.
  const given = new Set(packetNode ? packetNode.properties.filter((p) => !(offset >= p.keyStart && offset <= p.keyEnd)).map((p) => p.key) : []);
  return list(
    [...FIELDS]
      .filter(([name]) => !given.has(name))
      .map(([name, field]) => ({ label: name, kind: CompletionItemKind.Field, detail: field.type })),
  );
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
