/**
 * Completion, driven by where the cursor is.
 *
 * In an expression, language/completion-context.ts says what the grammar accepts at the
 * cursor (operand, comparison operator, value, connective, argument) and which token is
 * being typed; this module turns that into items from the catalogues. Every item carries a
 * TextEdit that replaces exactly the partial token, mapped through the string's offset map,
 * with the text escaped for the JSON or YAML string it lands in.
 *
 * Outside expressions, the ruleset structure: keys of the ruleset and of a rule, values of
 * `action`, `phase`, `kind` and `enabled`, `action_parameters` for `skip` and `execute`, and a
 * whole-rule snippet in `rules`.
 */
import * as jsonc from 'jsonc-parser';
import {
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
  TextEdit,
  type CompletionItem,
  type CompletionList,
  type Position,
} from 'vscode-languageserver';
import { COUNTRIES } from '../language/catalogue/countries';
import { OPERATOR_PLANS, phaseFamily, type Catalogue, type ExpressionKind, type FieldInfo, type FunctionInfo } from '../language/catalogue/catalogues';
import { hexByte, TCP_FLAG_BITS } from '../language/catalogue/fields';
import { describePlan } from '../language/catalogue/plans';
import { ICMP_TYPES, ICMP_UNREACHABLE_CODES } from '../language/catalogue/icmp';
import { MANAGED_LISTS } from '../language/catalogue/lists';
import { COMPARISON_OPERATORS, LOGICAL_OPERATORS, ORDERING_OPERATORS, WHOLE_VALUE_OPERATORS } from '../language/catalogue/operators';
import { ACTION_SUMMARIES, KNOWN_ACTIONS, KNOWN_PHASES, PACKET_PHASE_ACTIONS, RULE_KEYS, RULESET_KEYS, RULESET_KINDS } from '../language/catalogue/phases';
import { WELL_KNOWN_PORTS } from '../language/catalogue/ports';
import { IP_PROTOCOLS } from '../language/catalogue/protocols';
import type { ComparisonOperator, ValueType } from '../language/ast';
import { isArrayType, isMapType, isScalarType } from '../language/types';
import { completionContext, operatorsFor, type ExpressionCompletionContext, type LeftSide } from '../language/completion-context';
import { encodeForScalar, isBlockScalar, property, type HostArray, type HostFormat, type HostNode, type HostObject, type HostProperty, type ScalarStyle } from '../documents/host/index';
import { columnOf, eolOf, lineIndent } from '../documents/host/index';
import { mapRange, type DecodedString } from '../documents/host/index';
import { expressionRange } from '../documents/ruleset';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';
import { actionOf, actionParameterType, allowedValues, isSchemaKey, keySections, objectKeys, phaseActions, ruleParameterType, typeText, type Step } from './parameters';
import type { ParameterType } from '../language/catalogue/action-schema';
import { deprecationText, fieldAvailability, fieldDetail, fieldUsable, functionAvailability, functionUsable, phaseScope, planText, unverifiedNote, type PhaseScope } from './catalogue-text';
import { HTTP_METHODS, REQUEST_HEADER_MAPS, REQUEST_HEADER_NAMES } from './http-names';

// `[` for the keys and indexes of a step (`http.request.headers[`); not `,`, which in JSON would
// pop up keys after every value (an argument after `, ` is asked for by the space).
export const COMPLETION_TRIGGER_CHARACTERS = [' ', '.', '$', '{', '"', '(', '['];

export function completion(model: DocumentModel, position: Position, settings: Settings): CompletionList | null {
  // A failure here is a bug: the server's guard logs it and answers empty.
  return completeAt(model, model.offsetAt(position), settings);
}

/** Completion at a document offset; null when the document is not a ruleset. */
export function completeAt(model: DocumentModel, offset: number, settings: Settings): CompletionList | null {
  if (!model.isRuleset(settings)) return null;
  const target = expressionTarget(model, offset);
  if (target === 'nowhere') return { isIncomplete: false, items: [] };
  const items = target ? expressionItems(model, target, settings) : structureItems(model, offset);
  return { isIncomplete: false, items };
}

// ---------------------------------------------------------------- text to insert

/** Literal text, or a tab stop (with a placeholder or a choice). */
type Part = string | { readonly stop: number; readonly placeholder?: string; readonly choices?: readonly string[] };

function isSnippet(parts: readonly Part[]): boolean {
  return parts.some((p) => typeof p !== 'string');
}

function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (c) => `\\${c}`);
}

/**
 * The parts as snippet syntax (or plain text when there are no tab stops). Literal text is
 * encoded for its host string first, then escaped for the snippet syntax.
 */
function render(parts: readonly Part[], encode: (text: string) => string): { text: string; snippet: boolean } {
  if (!isSnippet(parts)) return { text: encode(parts.join('')), snippet: false };
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return escapeSnippet(encode(part));
      if (part.choices) return `\${${part.stop}|${part.choices.map((c) => encode(c).replace(/[\\,|]/g, (x) => `\\${x}`)).join(',')}|}`;
      if (part.placeholder) return `\${${part.stop}:${escapeSnippet(encode(part.placeholder))}}`;
      return `$${part.stop}`;
    })
    .join('');
  return { text, snippet: true };
}

interface ItemSpec {
  readonly label: string;
  readonly kind: CompletionItemKind;
  readonly parts: readonly Part[];
  readonly detail?: string;
  readonly description?: string;
  readonly documentation?: string;
  /** Words besides the label that find the item (a country's name), in decoded form. */
  readonly also?: string;
  readonly sortText?: string;
  /** Shown struck through (a deprecated field). */
  readonly deprecated?: boolean;
}

/** An item as its spec describes it, inserted by `textEdit`. */
function itemOf(spec: Omit<ItemSpec, 'parts'>, textEdit: TextEdit, snippet: boolean): CompletionItem {
  const item: CompletionItem = { label: spec.label, kind: spec.kind, textEdit, insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText };
  if (spec.detail) item.detail = spec.detail;
  if (spec.description) item.labelDetails = { description: spec.description };
  if (spec.documentation) item.documentation = { kind: MarkupKind.Markdown, value: spec.documentation };
  if (spec.sortText) item.sortText = spec.sortText;
  if (spec.deprecated) item.tags = [CompletionItemTag.Deprecated];
  return item;
}

// ---------------------------------------------------------------- expressions

interface ExpressionTarget {
  /** A rule's filter, or a value expression inside its parameters. */
  readonly kind: ExpressionKind;
  /** The decoded expression (with the spaces typed after a YAML plain scalar). */
  readonly text: string;
  readonly cursor: number;
  /** The cursor's document offset. */
  readonly offset: number;
  readonly style: ScalarStyle | undefined;
  /** A plain scalar in a YAML flow mapping (`{…}`, `,` would end it), and its document range. */
  readonly flowScalar?: { readonly start: number; readonly end: number };
  /** Decoded offsets to document offsets, never past the expression's own text. */
  map(start: number, end: number): { start: number; end: number };
}

/**
 * The expression the cursor is in; 'nowhere' when it is inside an expression's scalar but
 * not at a place of its text (the indentation of a block scalar, the middle of an escape).
 */
function expressionTarget(model: DocumentModel, offset: number): ExpressionTarget | 'nowhere' | undefined {
  const found = model.siteAt(offset);
  if (found) {
    const decoded = found.site.decoded();
    const i = found.offset;
    if (i < decoded.value.length && decoded.starts[i] !== offset) return 'nowhere';
    const flowScalar = found.site.inFlow && found.site.node.style === 'plain' ? { start: found.site.node.start, end: found.site.node.end } : undefined;
    // A block scalar's final line break maps to the start of the next line, on the next key:
    // a range is kept to the expression's own text, as the edits of quick fixes are.
    return { kind: found.site.kind, text: decoded.value, cursor: i, offset, style: found.site.node.style, flowScalar, map: (s, e) => expressionRange(found.site, { start: s, end: e }) };
  }
  const ruleset = model.rulesetAt(offset);
  if (model.format !== 'yaml' || !ruleset) return undefined;
  const text = model.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  for (const site of ruleset.sites) {
    const node = site.node;
    if (offset < node.start || offset - node.end > 256) continue;
    if (node.style === 'plain' && offset > node.end) {
      // A YAML plain scalar ends at its last non-space character: the cursor after
      // `ip.src in ` is past it, yet on the expression's line.
      const gap = text.slice(node.end, offset);
      if (!/^[ \t]+$/.test(gap)) continue;
      const decoded = site.decoded();
      if (decoded.contentEnd !== node.end) continue;
      const flowScalar = site.inFlow ? { start: node.start, end: node.end } : undefined;
      return { kind: site.kind, text: decoded.value + gap, cursor: decoded.value.length + gap.length, offset, style: 'plain', flowScalar, map: (s, e) => mapBeyond(decoded, s, e) };
    }
    if (isBlockScalar(node.style) && offset <= node.end && site.text.trim() === '') {
      // An empty block scalar: its first line, indented past its key, is where it starts.
      const key = siteProperty(ruleset.rules[site.ruleIndex], site.path);
      const keyColumn = key ? key.keyStart - (text.lastIndexOf('\n', key.keyStart - 1) + 1) : 0;
      if (lineStart <= node.start || !/^[ \t]*$/.test(text.slice(lineStart, offset)) || offset - lineStart <= keyColumn) continue;
      return { kind: site.kind, text: '', cursor: 0, offset, style: node.style, map: (s, e) => ({ start: offset + s, end: offset + e }) };
    }
  }
  // `expression: ` with nothing after it yet: an empty plain scalar at the cursor.
  for (const rule of ruleset.rules) {
    if (rule.kind !== 'object' || offset < rule.start) continue;
    const p = property(rule, 'expression');
    if (!p || (p.value && p.value.kind !== 'null') || offset < p.keyEnd || offset - p.keyEnd > 256) continue;
    if (!/^[ \t]*:[ \t]+$/.test(text.slice(p.keyEnd, offset))) continue;
    return { kind: 'filter', text: '', cursor: 0, offset, style: 'plain', map: (s, e) => ({ start: offset + s, end: offset + e }) };
  }
  // The same for an expression key of the parameters (`uri: {path: {expression: |}}`), by the
  // schema of the object its line stands in.
  const empty = /^([ \t]*(?:-[ \t]+)?)([A-Za-z_]+)[ \t]*:[ \t]+$/.exec(text.slice(lineStart, offset));
  const rule = empty ? ruleAt(model, offset) : undefined;
  if (empty && rule && rule.properties.length > 0) {
    const place = yamlPlace(text, rule, [], lineStart, offset, empty[1].length);
    const type = place && !place.array ? ruleParameterType(rule, [...place.path, empty[2]]) : undefined;
    if (type?.kind === 'string' && type.expression) return { kind: type.expression, text: '', cursor: 0, offset, style: 'plain', map: (s, e) => ({ start: offset + s, end: offset + e }) };
  }
  return undefined;
}

/** The property that holds a site's string: the last step of its path from the rule. */
function siteProperty(rule: HostNode | undefined, path: readonly string[]): HostProperty | undefined {
  const parent = nodeAtPath(rule, path.slice(0, -1).map((step) => (/^\d+$/.test(step) ? Number(step) : step)));
  return property(parent, path[path.length - 1]);
}

/** Like mapRange, for offsets that may lie in spaces typed after the scalar's content. */
function mapBeyond(decoded: DecodedString, start: number, end: number): { start: number; end: number } {
  const length = decoded.value.length;
  const at = (i: number) => (i <= length ? mapRange(decoded, i, i).start : decoded.contentEnd + (i - length));
  if (end <= length) return mapRange(decoded, start, end);
  return { start: start < length ? mapRange(decoded, start, length).start : at(start), end: decoded.contentEnd + (end - length) };
}

function expressionItems(model: DocumentModel, target: ExpressionTarget, settings: Settings): CompletionItem[] {
  const scope = phaseScope(model, settings, target.offset, target.kind);
  const context = completionContext(target.text, target.cursor, scope.catalogue, target.kind);
  const specs = expressionSpecs(context, settings, scope, target.text);
  if (specs.length === 0) return [];
  // With no token under the cursor the item goes exactly where the cursor is (the end of
  // a block scalar's content maps past its line break).
  const typing = context.replace.start !== context.replace.end;
  const { start, end } = typing ? target.map(context.replace.start, context.replace.end) : { start: target.offset, end: target.offset };
  const range = model.range(start, end);
  const encode = (text: string) => encodeForScalar(target.style, text);
  const previous = target.text[context.replace.start - 1];
  const next = target.text[context.replace.end];
  // `ip.src==` then `"BR"`: keep tokens apart, as the canonical spacing does. Inside an index
  // step's brackets nothing is kept apart: `["accept"]`.
  const lead = previous !== undefined && !/[ \r\n\t({![]/.test(previous) ? ' ' : '';
  // A YAML plain scalar that is only `true` reads as a Boolean, not as an expression.
  const wholePlainScalar = target.style === 'plain' && target.text.slice(0, context.replace.start).trim() === '' && target.text.slice(context.replace.end).trim() === '';
  return specs.map((spec) => {
    const parts = wholePlainScalar && /^(true|false)$/.test(spec.label) ? [`'${spec.label}'`] : spec.parts;
    const rendered = render(parts, encode);
    // `and ` ends with a space unless one follows already.
    const text = rendered.text.endsWith(' ') && /[ \r\n\t]/.test(next ?? '') ? rendered.text.slice(0, -1) : rendered.text;
    let edit = TextEdit.replace(range, lead + text);
    let snippet = rendered.snippet;
    // Clients filter on the document's text, which is escaped: filter on escaped text too.
    let filterText = spec.also ? `${encode(spec.label)} ${encode(spec.also)}` : encode(spec.label);
    if (target.flowScalar && /[{}[\],]/.test(plainText(parts))) {
      // A plain scalar in a flow mapping cannot hold `{…}`: the whole scalar is rewritten
      // double-quoted, as quick fixes do, rather than break the document.
      const prefix = target.text.slice(0, context.replace.start) + lead;
      const quoted = render([prefix, ...parts, target.text.slice(context.replace.end)], (t) => encodeForScalar('double-quoted', t));
      edit = TextEdit.replace(model.range(target.flowScalar.start, Math.max(target.flowScalar.end, target.offset)), `"${quoted.text}"`);
      snippet = quoted.snippet;
      filterText = model.text.slice(target.flowScalar.start, start) + filterText;
    }
    const item = itemOf(spec, edit, snippet);
    if (filterText !== spec.label) item.filterText = filterText;
    return item;
  });
}

function sortKey(group: number, index: number): string {
  return `${group}${String(index).padStart(4, '0')}`;
}

function expressionSpecs(context: ExpressionCompletionContext, settings: Settings, scope: PhaseScope, text: string): ItemSpec[] {
  const specs: ItemSpec[] = [];
  if (context.operand) specs.push(...operandSpecs(context.operand, scope));
  if (context.argument) specs.push(...argumentSpecs(context.argument, scope));
  if (context.index) specs.push(...indexSpecs(context.index.indexes, text.slice(context.replace.end)));
  let connectives = context.connective !== undefined;
  if (context.operator) {
    const lhs = context.operator.lhs;
    // A Boolean is a complete test; any other known type needs its comparison first.
    if (lhs?.type !== undefined && lhs.type !== 'Boolean') connectives = false;
    specs.push(...(context.operator.strictWildcard ? strictWildcardSpecs(lhs) : operatorSpecs(lhs)));
  }
  if (context.value) specs.push(...valueSpecs(context.value, settings));
  if (connectives) specs.push(...connectiveSpecs(context.connective!.closeGroup));
  return specs;
}

/** The raw headers `bit_slice` reads (`ip`, `tcp`, `udp`, `icmp`), from the packet table. */
function rawHeaders(scope: PhaseScope): string[] {
  return [...scope.catalogue.fields.values()].filter((f) => f.values === 'raw-header').map((f) => f.name);
}

/** The order of the catalogue's groups: as they first appear in it (the docs' order). */
const GROUP_ORDERS = new WeakMap<Catalogue, ReadonlyMap<string, number>>();

function groupOrder(catalogue: Catalogue): ReadonlyMap<string, number> {
  let order = GROUP_ORDERS.get(catalogue);
  if (!order) {
    const groups = new Map<string, number>();
    for (const field of catalogue.fields.values()) if (!groups.has(field.group)) groups.set(field.group, groups.size);
    order = groups;
    GROUP_ORDERS.set(catalogue, order);
  }
  return order;
}

/**
 * The catalogue's fields ordered by group then name, deprecated ones last in their group: the
 * order of the completion list before the user types.
 */
const SORTED_FIELDS = new WeakMap<Catalogue, readonly FieldInfo[]>();

function sortedFields(catalogue: Catalogue): readonly FieldInfo[] {
  let sorted = SORTED_FIELDS.get(catalogue);
  if (!sorted) {
    const order = groupOrder(catalogue);
    sorted = [...catalogue.fields.values()].sort(
      (a, b) => order.get(a.group)! - order.get(b.group)! || Number(a.deprecated !== undefined) - Number(b.deprecated !== undefined) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    SORTED_FIELDS.set(catalogue, sorted);
  }
  return sorted;
}

function fieldSpec(field: FieldInfo, scope: PhaseScope, sortText: string, name = field.name, note?: string): ItemSpec {
  const unverified = unverifiedNote(scope);
  const sections = [field.doc, `Example: \`${field.example}\``];
  const plan = planText(field);
  if (plan) sections.push(`Plan: ${plan}.`);
  const deprecation = deprecationText(field);
  if (deprecation) sections.push(`${deprecation[0].toUpperCase()}${deprecation.slice(1)}.`);
  const availability = fieldAvailability(field);
  if (availability) sections.push(availability);
  if (note) sections.unshift(note);
  if (unverified) sections.push(unverified);
  return {
    label: name,
    kind: CompletionItemKind.Field,
    parts: [name],
    detail: unverified ? `${fieldDetail(field)} · unverified` : fieldDetail(field),
    description: field.group,
    documentation: sections.join('\n\n'),
    sortText,
    deprecated: field.deprecated !== undefined,
  };
}

function fieldSpecs(scope: PhaseScope, accepts: (field: FieldInfo) => boolean = () => true): ItemSpec[] {
  const specs: ItemSpec[] = [];
  for (const field of sortedFields(scope.catalogue)) {
    if (!fieldUsable(field, scope) || !accepts(field)) continue;
    specs.push(fieldSpec(field, scope, sortKey(1, specs.length)));
  }
  return specs;
}

/** `lower(${1:source})`: a call with a tab stop per required parameter, named after it. */
function callParts(fn: FunctionInfo, scope: PhaseScope): Part[] {
  if (fn.name === 'bit_slice') return ['bit_slice(', { stop: 1, choices: rawHeaders(scope) }, ', ', { stop: 2, placeholder: '0' }, ', ', { stop: 3, placeholder: '8' }, ')'];
  const required = fn.parameters.filter((p) => !p.optional);
  const parts: Part[] = [`${fn.name}(`];
  required.forEach((p, i) => parts.push(...(i > 0 ? [', '] : []), { stop: i + 1, placeholder: p.name }));
  if (required.length === 0) parts.push({ stop: 1 });
  parts.push(')');
  return parts;
}

function functionSpec(fn: FunctionInfo, scope: PhaseScope, sortText: string): ItemSpec {
  const unverified = unverifiedNote(scope);
  const plan = planText(fn);
  const sections = [fn.doc, `Example: \`${fn.example}\``, functionAvailability(fn), ...(plan ? [`Plan: ${plan}.`] : []), ...(unverified ? [unverified] : [])];
  return { label: fn.name, kind: CompletionItemKind.Function, parts: callParts(fn, scope), detail: fn.signature, documentation: sections.join('\n\n'), sortText };
}

/** Functions usable in a filter of this phase (any/all are not calls: they come as quantifiers). */
function functionSpecs(scope: PhaseScope, accepts: (fn: FunctionInfo) => boolean = () => true): ItemSpec[] {
  const specs: ItemSpec[] = [];
  for (const fn of scope.catalogue.functions.values()) {
    if (fn.quantifier || !functionUsable(fn, scope) || !accepts(fn)) continue;
    specs.push(functionSpec(fn, scope, sortKey(3, specs.length)));
  }
  return specs;
}

function quantifierSpecs(scope: PhaseScope): ItemSpec[] {
  const specs: ItemSpec[] = [];
  for (const name of ['any', 'all']) {
    const fn = scope.catalogue.functions.get(name);
    if (!fn) continue;
    specs.push({
      label: name,
      kind: CompletionItemKind.Keyword,
      parts: [`${name}(`, { stop: 1 }, ')'],
      detail: fn.signature,
      documentation: `${fn.doc}\n\nExample: \`${fn.example}\``,
      sortText: sortKey(2, 2 + specs.length),
    });
  }
  return specs;
}

/**
 * The field and function items of a phase, where a test (or a value) may start: the same for
 * every cursor, so made once per phase and kind of expression (a few hundred items with their
 * documentation in an HTTP phase). A misspelt phase is a key too: the map is emptied when it
 * grows past a few dozen.
 */
const PHASE_SPECS = new Map<string, { readonly fields: readonly ItemSpec[]; readonly functions: readonly ItemSpec[] }>();

function phaseSpecs(scope: PhaseScope): { readonly fields: readonly ItemSpec[]; readonly functions: readonly ItemSpec[] } {
  const key = `${scope.kind ?? 'filter'} ${scope.phase ?? ''}`;
  let specs = PHASE_SPECS.get(key);
  if (!specs) {
    if (PHASE_SPECS.size >= 64) PHASE_SPECS.clear();
    specs = { fields: fieldSpecs(scope), functions: functionSpecs(scope) };
    PHASE_SPECS.set(key, specs);
  }
  return specs;
}

function operandSpecs(operand: NonNullable<ExpressionCompletionContext['operand']>, scope: PhaseScope): ItemSpec[] {
  const specs: ItemSpec[] = [];
  if (operand.fields) specs.push(...phaseSpecs(scope).fields);
  if (operand.not) {
    specs.push({ label: 'not', kind: CompletionItemKind.Keyword, parts: ['not '], detail: 'negates the test after it', documentation: 'Example: `not ip.src in $svc.vpn`', sortText: sortKey(2, 0) });
  }
  if (operand.group) {
    specs.push({ label: '(', kind: CompletionItemKind.Keyword, parts: ['(', { stop: 0 }, ')'], detail: 'group tests in parentheses', documentation: 'Example: `(tcp.dstport == 22 or tcp.dstport == 3389) and not ip.src in {192.0.2.0/24}`', sortText: sortKey(2, 1) });
  }
  if (operand.quantifiers) specs.push(...quantifierSpecs(scope));
  if (operand.functions) specs.push(...phaseSpecs(scope).functions);
  if (operand.booleans) {
    specs.push({ label: 'true', kind: CompletionItemKind.Keyword, parts: ['true'], detail: 'matches everything', documentation: 'Used as the whole expression of `execute` rules.', sortText: sortKey(4, 0) });
    specs.push({ label: 'false', kind: CompletionItemKind.Keyword, parts: ['false'], detail: 'matches nothing', sortText: sortKey(4, 1) });
  }
  return specs;
}

/** Whether a value of type `type` fits a parameter that takes `types`. */
function fits(type: ValueType | undefined, types: readonly ValueType[]): boolean {
  return type === undefined || types.includes(type);
}

/**
 * Inside a call's parentheses: what the argument under the cursor may be. A quantifier's
 * argument is a test over the elements of an array, so array and map fields come with `[*]`
 * first; a call's argument is a field or a call whose type the parameter takes (`lower(`
 * offers string fields), nothing for a parameter that takes only a literal.
 */
function argumentSpecs(argument: NonNullable<ExpressionCompletionContext['argument']>, scope: PhaseScope): ItemSpec[] {
  const fn = scope.catalogue.functions.get(argument.functionName);
  if (!fn) return [];
  if (fn.quantifier) {
    const specs: ItemSpec[] = [];
    for (const field of sortedFields(scope.catalogue)) {
      if (!fieldUsable(field, scope) || isScalarType(field.type)) continue;
      const name = `${field.name}[*]`;
      specs.push(fieldSpec(field, scope, sortKey(0, specs.length), name, `\`${name}\`: every ${isArrayType(field.type) ? 'element' : 'value'} of \`${field.name}\`, compared one by one.`));
    }
    return [...specs, ...phaseSpecs(scope).fields, ...phaseSpecs(scope).functions];
  }
  if (fn.name === 'bit_slice') {
    if (argument.index !== 0) return [];
    return rawHeaders(scope).map((name, i) => ({
      label: name,
      kind: CompletionItemKind.Field,
      parts: [name],
      detail: 'header',
      documentation: `${scope.catalogue.fields.get(name)?.doc ?? ''}\n\n${fn.parameters[0].doc}`,
      sortText: sortKey(1, i),
    }));
  }
  const last = fn.parameters[fn.parameters.length - 1];
  const parameter = fn.parameters[argument.index] ?? (last?.repeats ? last : undefined);
  if (!parameter || parameter.kind === 'literal') return [];
  return [
    ...fieldSpecs(scope, (field) => fits(field.type, parameter.types)),
    ...functionSpecs(scope, (other) => other.result === 'first-argument' || fits(other.result, parameter.types)),
  ];
}

/**
 * Inside `[…]` after an array or a map: `*` (every element), `0` (the first element), and for
 * the request headers their names, as lowercase strings. The closing `]` is added when it is
 * not there yet.
 */
function indexSpecs(indexes: LeftSide | undefined, after: string): ItemSpec[] {
  const type = indexes?.type;
  if (type === undefined || isScalarType(type)) return [];
  const close = /^\s*]/.test(after) ? '' : ']';
  const name = indexes!.name;
  const specs: ItemSpec[] = [];
  if (isMapType(type) && indexes!.kind === 'field' && !indexes!.indexed && REQUEST_HEADER_MAPS.has(name)) {
    REQUEST_HEADER_NAMES.forEach((header, i) =>
      specs.push({
        label: `"${header.name}"`,
        kind: CompletionItemKind.Value,
        parts: [`"${header.name}"${close}`],
        detail: 'request header',
        description: header.source,
        documentation: `The values of the \`${header.name}\` header (${header.source}), in the order they came; header names are lowercase here.`,
        sortText: sortKey(1, i),
      }),
    );
  }
  const element = isArrayType(type) ? 'element' : 'value';
  specs.push({
    label: '*',
    kind: CompletionItemKind.Operator,
    parts: [`*${close}`],
    detail: `every ${element}`,
    documentation: `\`${name}[*]\`: every ${element}, each compared on its own; wrap the comparison in \`any(…)\` or \`all(…)\`.`,
    sortText: sortKey(0, 0),
  });
  if (isArrayType(type)) {
    specs.push({ label: '0', kind: CompletionItemKind.Value, parts: [`0${close}`], detail: 'the first element', documentation: `\`${name}[0]\`: the first element (indexes start at 0).`, sortText: sortKey(0, 1) });
  }
  return specs;
}

function operatorSpecs(lhs: LeftSide | undefined): ItemSpec[] {
  const specs: ItemSpec[] = [];
  operatorsFor(lhs?.type).forEach((operator, i) => {
    const info = COMPARISON_OPERATORS.get(operator)!;
    const plan = OPERATOR_PLANS[operator];
    info.spellings.forEach((spelling, j) => {
      const example = lhs?.field?.example.includes(` ${spelling} `) ? `\n\nExample: \`${lhs.field.example}\`` : '';
      const planNote = plan ? `\n\nPlan: ${describePlan(plan)}.` : '';
      specs.push({
        label: spelling,
        kind: CompletionItemKind.Operator,
        parts: [spelling],
        detail: `${info.summary.replace(/`/g, '')}${plan ? ` · ${describePlan(plan)}` : ''}`,
        documentation: `${lhs ? `\`${lhsText(lhs)}\` ` : ''}${info.summary}${info.spellings.length > 1 ? ` (also written \`${info.spellings[1 - j]}\`)` : ''}${example}${planNote}`,
        sortText: sortKey(1, i * 2 + j),
      });
    });
  });
  return specs;
}

/** The left side as written, steps as `[…]`: `http.request.headers[…][0]`. */
function lhsText(lhs: LeftSide): string {
  const steps = (lhs.steps ?? []).map((s) => (s === 'each' ? '[*]' : s === 'key' ? '[…]' : '[0]')).join('');
  return `${lhs.name}${lhs.kind === 'call' ? '(…)' : ''}${steps}`;
}

/** After `strict `: the `wildcard` that completes the operator, where the left side takes it. */
function strictWildcardSpecs(lhs: LeftSide | undefined): ItemSpec[] {
  if (!operatorsFor(lhs?.type).includes('strict_wildcard')) return [];
  const info = COMPARISON_OPERATORS.get('strict_wildcard')!;
  const example = lhs?.field?.example.includes(' strict wildcard ') ? `\n\nExample: \`${lhs.field.example}\`` : '';
  return [
    {
      label: 'wildcard',
      kind: CompletionItemKind.Operator,
      parts: ['wildcard'],
      detail: info.summary.replace(/`/g, ''),
      documentation: `${lhs ? `\`${lhsText(lhs)}\` ` : ''}${info.summary} (\`strict wildcard\`)${example}`,
      sortText: sortKey(1, 0),
    },
  ];
}

function connectiveSpecs(closeGroup: boolean): ItemSpec[] {
  const specs: ItemSpec[] = [...LOGICAL_OPERATORS.values()].map((info, i) => {
    const word = info.spellings[0];
    return { label: word, kind: CompletionItemKind.Keyword, parts: [`${word} `], detail: info.summary, sortText: sortKey(5, i) };
  });
  if (closeGroup) specs.push({ label: ')', kind: CompletionItemKind.Keyword, parts: [')'], detail: 'close the group', sortText: sortKey(5, specs.length) });
  return specs;
}

const COMMON_PROTOCOLS = ['tcp', 'udp', 'icmp', 'gre', 'esp', 'ipv6-icmp', 'ah', 'sctp'];

function valueSpecs(value: NonNullable<ExpressionCompletionContext['value']>, settings: Settings): ItemSpec[] {
  const specs: ItemSpec[] = [];
  const { lhs, operator, inSet } = value;
  if (value.set && !inSet && operator === 'in') {
    specs.push({ label: '{ }', kind: CompletionItemKind.Snippet, parts: ['{', { stop: 0 }, '}'], detail: 'a set of values', documentation: 'Items are separated by spaces, not commas: `{80 443 8000..8099}`', sortText: sortKey(0, 0) });
  }
  if (value.list && operator === 'in' && lhs?.type === 'Ip') {
    [...MANAGED_LISTS.values()].forEach((list, i) =>
      specs.push({ label: `$${list.name}`, kind: CompletionItemKind.Variable, parts: [`$${list.name}`], detail: 'managed list', description: list.doc, documentation: list.doc, sortText: sortKey(1, i) }),
    );
    settings.knownLists.forEach((name, i) =>
      specs.push({ label: `$${name}`, kind: CompletionItemKind.Variable, parts: [`$${name}`], detail: 'account list', description: 'account list', sortText: sortKey(2, i) }),
    );
  }
  if (inSet || operator !== 'in') specs.push(...catalogueValues(lhs, operator ?? 'eq'));
  return specs;
}

/** Strings of a closed set, one item each (HTTP methods, continents, the values of a `one-of` field). */
function stringValues(values: readonly { readonly value: string; readonly detail?: string; readonly doc?: string }[]): ItemSpec[] {
  return values.map(({ value, detail, doc }, i) => ({
    label: JSON.stringify(value),
    kind: CompletionItemKind.EnumMember,
    parts: [JSON.stringify(value)],
    ...(detail ? { detail, description: detail } : {}),
    ...(doc ? { documentation: doc } : {}),
    sortText: sortKey(3, i),
  }));
}

function catalogueValues(lhs: LeftSide | undefined, operator: ComparisonOperator): ItemSpec[] {
  // The values a field holds: of the field itself, or of its elements through `[*]` or an index.
  const field = lhs?.kind === 'field' ? lhs.field : undefined;
  const kind = field?.values;
  const whole = WHOLE_VALUE_OPERATORS.includes(operator);
  const ordered = whole || ORDERING_OPERATORS.includes(operator);
  switch (kind) {
    case 'country':
      if (!whole) return [];
      return [...COUNTRIES].map(([code, name], i) => ({
        label: `"${code}"`,
        kind: CompletionItemKind.EnumMember,
        parts: [`"${code}"`],
        detail: name,
        description: name,
        also: `"${name}"`,
        sortText: sortKey(3, i),
      }));
    case 'method':
      return whole ? stringValues(HTTP_METHODS.map((m) => ({ value: m.name, detail: m.source }))) : [];
    case 'continent':
    case 'one-of':
      return whole ? stringValues((field!.oneOf ?? []).map((value) => ({ value }))) : [];
    case 'protocol': {
      if (!whole) return [];
      const names = [...IP_PROTOCOLS.keys()].sort((a, b) => rank(a) - rank(b) || IP_PROTOCOLS.get(a)!.number - IP_PROTOCOLS.get(b)!.number);
      return names.map((name, i) => {
        const protocol = IP_PROTOCOLS.get(name)!;
        return { label: `"${name}"`, kind: CompletionItemKind.EnumMember, parts: [`"${name}"`], detail: `${protocol.description} (${protocol.number})`, description: protocol.description, sortText: sortKey(3, i) };
      });
    }
    case 'port': {
      if (!ordered) return [];
      const transport = lhs!.name.startsWith('udp') ? 'udp' : 'tcp';
      return [...WELL_KNOWN_PORTS]
        .filter(([, port]) => port.protocols.includes(transport))
        .map(([number, port], i) => ({
          label: String(number),
          kind: CompletionItemKind.EnumMember,
          parts: [String(number)],
          detail: port.service,
          description: port.service,
          documentation: `${port.service}: ${port.description}`,
          also: port.service,
          sortText: sortKey(3, i),
        }));
    }
    case 'icmp-type':
      if (!ordered) return [];
      return [...ICMP_TYPES].map(([number, name], i) => ({ label: String(number), kind: CompletionItemKind.EnumMember, parts: [String(number)], detail: name, description: name, also: name, sortText: sortKey(3, i) }));
    case 'icmp-code':
      if (!ordered) return [];
      return [...ICMP_UNREACHABLE_CODES].map(([number, name], i) => ({
        label: String(number),
        kind: CompletionItemKind.EnumMember,
        parts: [String(number)],
        detail: name,
        description: name,
        documentation: `${name} (a code of type 3, Destination Unreachable)`,
        also: name,
        sortText: sortKey(3, i),
      }));
    case 'tcp-flags':
      if (!(whole || operator === 'bitwise_and')) return [];
      return TCP_FLAG_BITS.map((bit, i) => {
        const hex = hexByte(bit.value);
        return { label: hex, kind: CompletionItemKind.EnumMember, parts: [hex], detail: bit.name, description: bit.name, documentation: `${bit.name}: ${bit.description}`, also: bit.name, sortText: sortKey(3, i) };
      });
    default:
      return [];
  }
}

function rank(protocol: string): number {
  const i = COMMON_PROTOCOLS.indexOf(protocol);
  return i < 0 ? COMMON_PROTOCOLS.length : i;
}

// ---------------------------------------------------------------- ruleset structure

/** The packet phases' own words for their actions; other phases take the catalogue's summaries. */
const PACKET_ACTION_DOCS: Record<string, string> = {
  block: 'Drop the packets the expression matches.',
  skip: 'Exempt the matching packets from the rules after this one (`action_parameters: {"ruleset": "current"}`).',
  execute: 'Run another ruleset for the matching packets (`action_parameters: {"id": …}`).',
};

/**
 * The actions offered in a phase: the ones the catalogue lists for it (the packet phases'
 * three with their own words), else every action the API defines.
 */
function actionChoices(phase: string | undefined): { value: string; doc?: string }[] {
  if (phaseFamily(phase) === 'magic') return PACKET_PHASE_ACTIONS.map((a) => ({ value: a, doc: PACKET_ACTION_DOCS[a] }));
  const allowed = phaseActions(phase);
  return (allowed ?? KNOWN_ACTIONS).map((a) => ({ value: a, doc: ACTION_SUMMARIES.get(a) }));
}

/** A value in a host document, written as JSON or as YAML (block style where it takes several lines). */
type Value =
  | { readonly kind: 'string'; readonly parts: readonly Part[] }
  | { readonly kind: 'verbatim'; readonly parts: readonly Part[] }
  | { readonly kind: 'map'; readonly entries: readonly (readonly [string, Value])[] }
  | { readonly kind: 'list'; readonly items: readonly Value[] }
  /** An object whose keys are left to the user: `{|}` in JSON, the cursor on the next line, indented, in YAML. */
  | { readonly kind: 'open'; readonly stop: number };

const str = (...parts: Part[]): Value => ({ kind: 'string', parts });
const verbatim = (...parts: Part[]): Value => ({ kind: 'verbatim', parts });

/** Whether a value takes lines of its own: a YAML block collection, a JSON object of more than two keys. */
function isBlock(value: Value, format: HostFormat): boolean {
  if (value.kind === 'map') return format === 'yaml' ? value.entries.length > 0 : value.entries.length > 2;
  if (value.kind === 'list') return format === 'yaml' ? value.items.length > 0 : value.items.some((v) => isBlock(v, format));
  return value.kind === 'open' && format === 'yaml';
}

/**
 * Writes a value; `indent` is the indentation of the line its key (or `-`) is on. Block
 * values start with a line break; `flow` forces one line (`{ruleset: current}`).
 */
function writeValue(value: Value, format: HostFormat, indent: string, eol: string, flow = false): Part[] {
  switch (value.kind) {
    case 'string':
      // JSON always quotes; YAML only text that would not read back as a string.
      if (format === 'json') return ['"', ...value.parts, '"'];
      return value.parts.every((p) => typeof p !== 'string' || /^([A-Za-z_][A-Za-z0-9_. -]*)?$/.test(p)) ? [...value.parts] : ['"', ...value.parts, '"'];
    case 'verbatim':
      return [...value.parts];
    case 'map': {
      if (flow || !isBlock(value, format)) {
        const entries = value.entries.map(([k, v]) => [format === 'json' ? JSON.stringify(k) : k, ': ', ...writeValue(v, format, indent, eol, true)]);
        return ['{', ...entries.flatMap((e, i) => (i === 0 ? e : [', ', ...e])), '}'];
      }
      const inner = `${indent}  `;
      if (format === 'json') {
        return ['{', ...value.entries.flatMap(([k, v], i) => [i === 0 ? eol : `,${eol}`, inner, ...entry(format, k, v, inner, eol)]), eol, `${indent}}`];
      }
      return value.entries.flatMap(([k, v]) => [eol, inner, ...entry(format, k, v, inner, eol)]);
    }
    case 'open':
      return flow || format === 'json' ? ['{', { stop: value.stop }, '}'] : [eol, `${indent}  `, { stop: value.stop }];
    case 'list': {
      if (flow || !isBlock(value, format)) return ['[', ...value.items.flatMap((v, i) => [...(i === 0 ? [] : [', ']), ...writeValue(v, format, indent, eol, true)]), ']'];
      const inner = `${indent}  `;
      if (format === 'json') {
        return ['[', ...value.items.flatMap((v, i) => [i === 0 ? eol : `,${eol}`, inner, ...writeValue(v, format, inner, eol)]), eol, `${indent}]`];
      }
      return value.items.flatMap((v) => [eol, `${inner}- `, ...(v.kind === 'map' ? inlineMap(v, `${inner}  `, eol) : writeValue(v, format, `${inner}  `, eol))]);
    }
  }
}

/** `key: value`, or for a YAML block value `key:` and the value's lines. */
function entry(format: HostFormat, key: string, value: Value, indent: string, eol: string): Part[] {
  const name = format === 'json' ? JSON.stringify(key) : key;
  return [name, format === 'yaml' && isBlock(value, format) ? ':' : ': ', ...writeValue(value, format, indent, eol)];
}

/** A YAML block mapping whose first key goes on the current line (after `- `). */
function inlineMap(map: Extract<Value, { kind: 'map' }>, indent: string, eol: string): Part[] {
  return map.entries.flatMap(([k, v], i) => [...(i === 0 ? [] : [eol, indent]), ...entry('yaml', k, v, indent, eol)]);
}

/** The text the parts insert when every tab stop keeps its placeholder. */
function plainText(parts: readonly Part[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : (p.placeholder ?? p.choices?.[0] ?? ''))).join('');
}

function ruleValue(phase: string | undefined): Extract<Value, { kind: 'map' }> {
  const packets = phaseFamily(phase) === 'magic';
  return {
    kind: 'map',
    entries: [
      ['action', str({ stop: 1, choices: actionChoices(phase).map((c) => c.value) })],
      ['expression', str({ stop: 2, placeholder: packets || phase === undefined ? 'ip.src in $svc.anonymizer' : 'http.request.uri.path contains "/admin"' })],
      ['description', str({ stop: 3, placeholder: 'What the rule is for' })],
      ['enabled', verbatim('true')],
    ],
  };
}

function actionParametersValue(action: string | undefined): Value {
  if (action === 'skip') return { kind: 'map', entries: [['ruleset', str('current')]] };
  if (action === 'execute') return { kind: 'map', entries: [['id', str({ stop: 1, placeholder: 'ruleset id' })]] };
  return skeleton(actionParameterType(action));
}

/** How deep a skeleton goes: `from_value: {target_url: {value: …}}` and no deeper. */
const SKELETON_DEPTH = 3;

/**
 * A value to start from for a type: an object with its required keys (and the first key of
 * each group of which one is required), a choice of the allowed values, a tab stop otherwise.
 */
function skeleton(type: ParameterType | undefined, next = { stop: 1 }, depth = 0): Value {
  const stop = () => next.stop++;
  if (!type) return { kind: 'open', stop: stop() };
  const values = allowedValues(type);
  switch (type.kind) {
    case 'object': {
      if (depth >= SKELETON_DEPTH) return { kind: 'open', stop: stop() };
      const keys = type.keys.filter((k) => k.required).map((k) => k.key);
      for (const group of type.oneRequired ?? []) if (!group.some((k) => keys.includes(k))) keys.push(group[0]);
      if (keys.length === 0) return { kind: 'open', stop: stop() };
      return { kind: 'map', entries: keys.map((k) => [k, skeleton(type.keys.find((key) => key.key === k)?.type, next, depth + 1)] as const) };
    }
    case 'union': {
      const object = type.types.find((t) => t.kind === 'object');
      return skeleton(object ?? type.types[0], next, depth);
    }
    case 'array':
      return { kind: 'list', items: [skeleton(type.items, next, depth + 1)] };
    case 'string':
      return values.length > 0 ? str({ stop: stop(), choices: values.map(String) }) : str({ stop: stop() });
    case 'number':
    case 'boolean':
      return values.length > 0 ? verbatim({ stop: stop(), choices: values.map(String) }) : verbatim({ stop: stop(), placeholder: type.kind === 'number' ? String(type.min ?? 0) : undefined });
    default:
      return str({ stop: stop() });
  }
}

function keyValue(key: string, action: string | undefined, phase: string | undefined): Value {
  switch (key) {
    case 'kind':
      return str({ stop: 1, choices: RULESET_KINDS });
    case 'phase':
      return str({ stop: 1, choices: KNOWN_PHASES });
    case 'action':
      return str({ stop: 1, choices: actionChoices(phase).map((c) => c.value) });
    case 'enabled':
      return verbatim({ stop: 1, choices: ['true', 'false'] });
    case 'rules':
      return { kind: 'list', items: [ruleValue(phase)] };
    case 'action_parameters':
      return actionParametersValue(action);
    case 'logging':
    case 'ratelimit':
    case 'exposed_credential_check':
      return skeleton(ruleParameterType(undefined, [key]));
    case 'categories':
      return { kind: 'list', items: [str({ stop: 1 })] };
    case 'version':
      // Quoted in YAML too: `1` unquoted would be a number.
      return verbatim('"', { stop: 1 }, '"');
    default:
      return str({ stop: 1 });
  }
}

interface StructureEdit {
  readonly start: number;
  readonly end: number;
  readonly indent: string;
  /** Text to insert before (`, ` after a JSON value) and after (`,` before the next property). */
  readonly before?: { readonly offset: number; readonly text: string };
  readonly after?: string;
}

function structureItem(model: DocumentModel, edit: StructureEdit, spec: Omit<ItemSpec, 'parts'>, parts: readonly Part[]): CompletionItem {
  const { text, snippet } = render([...parts, ...(edit.after ? [edit.after] : [])], (t) => t);
  const item = itemOf(spec, TextEdit.replace(model.range(edit.start, edit.end), text), snippet);
  item.insertTextMode = InsertTextMode.asIs;
  // Editors filter an item by the text from the edit's start to the cursor: when the edit
  // replaces a quoted key or value, that text starts with the quote, and so must filterText.
  const quote = model.text[edit.start];
  if (quote === '"' || quote === "'") item.filterText = `${quote}${item.filterText ?? item.label}${quote}`;
  if (edit.before) item.additionalTextEdits = [TextEdit.insert(model.positionAt(edit.before.offset), edit.before.text)];
  return item;
}

/** An action the API's types give no `action_parameters` (`challenge`, `log`). */
function takesNoParameters(action: string | undefined): boolean {
  return action !== undefined && KNOWN_ACTIONS.includes(action) && actionParameterType(action) === undefined;
}

/** The actions whose `action_parameters` are offered: the rule's; without one yet, the forms of `skip` and `execute`. */
function parameterVariants(action: string | undefined): string[] {
  return action === undefined ? ['skip', 'execute'] : [action];
}

/** Key items for an object, without the keys it already has (except the one being typed). */
function keyItems(model: DocumentModel, object: HostNode | undefined, what: 'ruleset' | 'rule', edit: StructureEdit, keyOnly: boolean, typed: string): CompletionItem[] {
  const present = new Set(object?.kind === 'object' ? object.properties.map((p) => p.key) : []);
  present.delete(typed);
  const action = what === 'rule' ? actionOf(object) : undefined;
  const keys = (what === 'ruleset' ? RULESET_KEYS : RULE_KEYS).filter(
    (k) => !present.has(k.key) && !(k.key === 'logging' && action !== undefined && action !== 'skip') && !(k.key === 'action_parameters' && takesNoParameters(action)),
  );
  const format = model.format;
  const eol = eolOf(model.text);
  const items: CompletionItem[] = [];
  keys.forEach((info, i) => {
    const variants: (string | undefined)[] = info.key === 'action_parameters' ? parameterVariants(action) : [action];
    for (const variant of variants) {
      const value = keyValue(info.key, variant, model.ruleset.phase);
      const parts = keyOnly ? [format === 'json' ? JSON.stringify(info.key) : info.key] : entry(format, info.key, value, edit.indent, eol);
      const special = info.key === 'action_parameters' && variant !== undefined;
      items.push(
        structureItem(
          model,
          edit,
          {
            label: info.key,
            kind: CompletionItemKind.Property,
            detail: special ? `for \`${variant}\`` : `${what} key`,
            description: special ? plainText(writeValue(value, format, '', eol, true)) : undefined,
            documentation: info.doc,
            sortText: sortKey(1, i),
          },
          parts,
        ),
      );
    }
  });
  return items;
}

function valueItems(model: DocumentModel, key: string, rule: HostNode | undefined, edit: StructureEdit, quote: '"' | "'" | ''): CompletionItem[] {
  const format = model.format;
  const choices: { value: string; doc?: string }[] =
    key === 'action'
      ? actionChoices(model.ruleset.phase)
      : key === 'phase'
        ? KNOWN_PHASES.map((p) => ({ value: p }))
        : key === 'kind'
          ? RULESET_KINDS.map((k) => ({ value: k }))
          : [];
  const items: CompletionItem[] = choices.map((choice, i) => {
    const written = format === 'json' || quote === '"' ? JSON.stringify(choice.value) : quote === "'" ? `'${choice.value}'` : choice.value;
    return structureItem(model, edit, { label: choice.value, kind: CompletionItemKind.EnumMember, detail: key, documentation: choice.doc, sortText: sortKey(1, i) }, [written]);
  });
  if (key === 'enabled' && quote === '') {
    for (const [i, value] of ['true', 'false'].entries()) items.push(structureItem(model, edit, { label: value, kind: CompletionItemKind.Value, detail: key, sortText: sortKey(1, i) }, [value]));
  }
  if (key === 'action_parameters' && quote === '') {
    for (const [i, a] of parameterVariants(actionOf(rule)).entries()) {
      const parts = writeValue(actionParametersValue(a), format, edit.indent, eolOf(model.text), true);
      items.push(structureItem(model, edit, { label: plainText(parts), kind: CompletionItemKind.Snippet, detail: `action_parameters for \`${a}\``, sortText: sortKey(1, i) }, parts));
    }
  }
  return items;
}

/**
 * Key items for an object of a rule's parameters (`action_parameters` at any depth, `ratelimit`,
 * `exposed_credential_check`, `logging`), from the schema of the rule's action: each with its
 * type, whether it is required, and its allowed values. Required keys come first.
 */
function parameterKeyItems(model: DocumentModel, rule: HostNode | undefined, path: readonly Step[], object: HostNode | undefined, edit: StructureEdit, keyOnly: boolean, typed: string): CompletionItem[] {
  const present = new Set(object?.kind === 'object' ? object.properties.map((p) => p.key) : []);
  present.delete(typed);
  const keys = objectKeys(ruleParameterType(rule, path))
    .filter((k) => !present.has(k.key))
    .sort((a, b) => Number(b.required) - Number(a.required));
  const format = model.format;
  const eol = eolOf(model.text);
  return keys.map((key, i) => {
    const parts = keyOnly ? [format === 'json' ? JSON.stringify(key.key) : key.key] : entry(format, key.key, skeleton(key.type), edit.indent, eol);
    const spec = {
      label: key.key,
      kind: CompletionItemKind.Property,
      detail: `${typeText(key.type)}${key.required ? ' · required' : ''}`,
      documentation: keySections(rule, path, key).join('\n\n'),
      sortText: sortKey(1, i),
    };
    return structureItem(model, edit, spec, parts);
  });
}

/** The allowed values of a parameter (a status code, an algorithm, a phase to skip), without those already in its array. */
function parameterValueItems(model: DocumentModel, key: string, type: ParameterType | undefined, edit: StructureEdit, quote: '"' | "'" | '', present: readonly HostNode[] = []): CompletionItem[] {
  const taken = new Set(present.flatMap((node) => (node.kind === 'string' || node.kind === 'number' || node.kind === 'boolean' ? [node.value] : [])));
  const values = allowedValues(type).filter((v) => !taken.has(v));
  if (values.length === 0 && quote === '' && (type?.kind === 'object' || type?.kind === 'union' || type?.kind === 'array')) {
    // An object or array: its skeleton on one line (`{target_url: {value: …}}`), as `action_parameters` has.
    const value = skeleton(type);
    if (value.kind === 'open') return [];
    const parts = writeValue(value, model.format, edit.indent, eolOf(model.text), true);
    return [structureItem(model, edit, { label: plainText(parts), kind: CompletionItemKind.Snippet, detail: key, sortText: sortKey(1, 0) }, parts)];
  }
  return values.map((value, i) => {
    const written = typeof value !== 'string' ? String(value) : model.format === 'json' || quote === '"' || !isPlainYamlString(value) ? JSON.stringify(value) : quote === "'" ? `'${value}'` : value;
    return structureItem(model, edit, { label: String(value), kind: CompletionItemKind.EnumMember, detail: key, sortText: sortKey(1, i) }, [written]);
  });
}

/** Whether a string reads back as itself, a string, written as a plain YAML scalar. */
function isPlainYamlString(value: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value) && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(value);
}

/** A whole rule: as a JSON object, or as a YAML item (`- action: …`, or after a typed `- `). */
function ruleItem(model: DocumentModel, edit: StructureEdit, dash: boolean): CompletionItem {
  const eol = eolOf(model.text);
  const parts: Part[] =
    model.format === 'json'
      ? writeValue(ruleValue(model.ruleset.phase), 'json', edit.indent, eol)
      : [...(dash ? ['- '] : []), ...inlineMap(ruleValue(model.ruleset.phase), dash ? `${edit.indent}  ` : edit.indent, eol)];
  return structureItem(model, edit, { label: 'rule', kind: CompletionItemKind.Snippet, detail: 'a new rule', documentation: 'A rule with `action`, `expression`, `description` and `enabled`.', sortText: sortKey(0, 0) }, parts);
}

function structureItems(model: DocumentModel, offset: number): CompletionItem[] {
  // The keys and values of a ruleset file's own structure. A Terraform file's are the
  // Terraform extension's to complete, from the provider's schema; an octorules file's
  // structure (sections, refs) is not one this completion knows.
  if (model.parsedDocument.layout !== 'api') return [];
  return model.format === 'json' ? jsonStructureItems(model, offset) : yamlStructureItems(model, offset);
}

/** The rules of the ruleset the offset is in. */
function rulesOf(model: DocumentModel, offset: number): readonly HostNode[] {
  return model.rulesetAt(offset)?.rules ?? [];
}

// ------------------------------------------------------------ JSON

function jsonStructureItems(model: DocumentModel, offset: number): CompletionItem[] {
  const text = model.text;
  const root = model.ruleset.root;
  // jsonc-parser's getLocation recurses once per level of the text it reads, and runs out of
  // stack past about 5,000: it only gets a text the reader took, which nests MAX_NESTING
  // levels at most. A document not read (nested too deeply, or no JSON value at all) has no
  // keys or values to complete.
  if (!root) return [];
  const location = jsonc.getLocation(text, offset);
  const path = location.path;
  const node = location.previousNode;
  type Target = { object: HostNode | undefined; what: 'ruleset' | 'rule' } | { object: HostNode | undefined; what: 'parameters'; rule: HostNode | undefined; path: readonly Step[] };
  const objectAt = (objectPath: jsonc.JSONPath): Target | undefined => {
    if (objectPath.length === 0) return { object: root, what: 'ruleset' };
    if (objectPath[0] !== 'rules' || typeof objectPath[1] !== 'number') return undefined;
    const rule = rulesOf(model, offset)[objectPath[1]];
    if (objectPath.length === 2) return { object: rule, what: 'rule' };
    const path = objectPath.slice(2);
    return isSchemaKey(path[0]) ? { object: nodeAtPath(rule, path), what: 'parameters', rule, path } : undefined;
  };
  const touching = node && node.offset <= offset && offset <= node.offset + node.length;
  const word = /[A-Za-z_]*$/.exec(text.slice(Math.max(0, offset - 64), offset))![0];
  const wordEnd = offset + /^[A-Za-z_]*/.exec(text.slice(offset, offset + 64))![0].length;

  const keyPosition = (objectPath: jsonc.JSONPath, start: number, end: number, typed: string): CompletionItem[] => {
    const target = objectAt(objectPath);
    if (!target) return [];
    const following = /^\s*(.)/.exec(text.slice(end))?.[1];
    const keyOnly = following === ':';
    const previousEnd = lastNonSpace(text, start);
    const needsCommaBefore = previousEnd >= 0 && !'{,'.includes(text[previousEnd]);
    const edit: StructureEdit = {
      start,
      end,
      indent: lineIndent(text, start),
      before: needsCommaBefore ? { offset: previousEnd + 1, text: ',' } : undefined,
      after: !keyOnly && following === '"' ? ',' : undefined,
    };
    if (target.what === 'parameters') return parameterKeyItems(model, target.rule, target.path, target.object, edit, keyOnly, typed);
    return keyItems(model, target.object, target.what, edit, keyOnly, typed);
  };

  // A key being typed (`"ph|"`), even where a missing comma confuses the location.
  if (location.isAtPropertyKey || (touching && node!.type === 'property')) {
    if (touching && node!.type === 'property') return keyPosition(path.slice(0, -1), node!.offset, node!.offset + node!.length, String(node!.value));
    return keyPosition(path.slice(0, -1), offset - word.length, wordEnd, text.slice(offset - word.length, wordEnd));
  }
  const last = path[path.length - 1];
  if (typeof last === 'string') {
    // After a complete value (`"name": "x" |`): the next key, after a comma.
    if (node && !touching && node.offset + node.length <= offset && /^\s*$/.test(text.slice(node.offset + node.length, offset))) {
      return keyPosition(path.slice(0, -1), offset - word.length, wordEnd, text.slice(offset - word.length, wordEnd));
    }
    const target = objectAt(path.slice(0, -1));
    if (!target) return [];
    const start = touching ? node!.offset : offset - word.length;
    const end = touching ? node!.offset + node!.length : wordEnd;
    const following = /^\s*(.)/.exec(text.slice(end))?.[1];
    const edit: StructureEdit = { start, end, indent: lineIndent(text, start), after: following === '"' ? ',' : undefined };
    if (target.what === 'parameters') return parameterValueItems(model, last, ruleParameterType(target.rule, [...target.path, last]), edit, '');
    const rule = target.what === 'rule' ? target.object : undefined;
    return valueItems(model, last, rule, edit, '');
  }
  if (typeof last === 'number' && path.length > 3 && path[0] === 'rules' && typeof path[1] === 'number' && isSchemaKey(path[2])) {
    // An item of an array parameter (`"phases": ["http_ratelimit", |]`): the values not in it yet.
    const rule = rulesOf(model, offset)[path[1]];
    const arrayPath = path.slice(2, -1);
    const array = nodeAtPath(rule, arrayPath);
    const start = touching ? node!.offset : offset - word.length;
    const end = touching ? node!.offset + node!.length : wordEnd;
    const others = array?.kind === 'array' ? array.items.filter((item) => item.end < start || item.start > end) : [];
    const following = /^\s*(.)/.exec(text.slice(end))?.[1];
    const edit: StructureEdit = { start, end, indent: lineIndent(text, start), after: following === '"' ? ',' : undefined };
    return parameterValueItems(model, String(arrayPath[arrayPath.length - 1]), ruleParameterType(rule, [...arrayPath, 0]), edit, '', others);
  }
  if (typeof last === 'number' && path.length === 2 && path[0] === 'rules') {
    // Between the items of `rules`, not inside one.
    const inner = model.nodesAt(offset)[0];
    if (inner && inner.kind !== 'array') return [];
    const previousEnd = lastNonSpace(text, offset - word.length);
    const following = /^\s*(.)/.exec(text.slice(wordEnd))?.[1];
    const edit: StructureEdit = {
      start: offset - word.length,
      end: wordEnd,
      indent: lineIndent(text, offset - word.length),
      before: previousEnd >= 0 && text[previousEnd] === '}' ? { offset: previousEnd + 1, text: ',' } : undefined,
      after: following === '{' ? ',' : undefined,
    };
    return [ruleItem(model, edit, false)];
  }
  return [];
}

/** The node at a path of keys and indexes below `node`. */
function nodeAtPath(node: HostNode | undefined, path: readonly Step[]): HostNode | undefined {
  let here = node;
  for (const step of path) {
    if (typeof step === 'number') here = here?.kind === 'array' ? here.items[step] : undefined;
    else here = property(here, step)?.value;
  }
  return here;
}

function lastNonSpace(text: string, before: number): number {
  let i = before - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i;
}

// ------------------------------------------------------------ YAML

function yamlStructureItems(model: DocumentModel, offset: number): CompletionItem[] {
  const text = model.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  if (text[lineEnd - 1] === '\r') lineEnd--;
  const before = text.slice(lineStart, offset);
  const after = text.slice(offset, Math.max(offset, lineEnd));
  const root = model.ruleset.root;
  const rules = property(root, 'rules');
  const rulesArray = rules?.value?.kind === 'array' ? rules.value : undefined;
  const rootColumn = root?.kind === 'object' && root.properties.length > 0 ? columnOf(text, root.properties[0].keyStart) : 0;
  const dashColumn = rulesArray && rulesArray.items.length > 0 ? columnOf(text, rulesArray.start) : undefined;
  const rule = ruleAt(model, offset);
  const ruleColumn = rule?.kind === 'object' && rule.properties.length > 0 ? columnOf(text, rule.properties[0].keyStart) : undefined;
  const inRules = rules !== undefined && offset > rules.keyEnd && (!rulesArray || rulesArray.kind === 'array');

  const value = /^([ \t]*)(?:-[ \t]+)?([A-Za-z_]+)[ \t]*:[ \t]+(\S*)$/.exec(before);
  if (value) {
    const [, , key, typed] = value;
    const start = offset - typed.length;
    const end = offset + /^\S*/.exec(after)![0].length;
    const quote = typed.startsWith('"') ? '"' : typed.startsWith("'") ? "'" : '';
    const edit = { start, end, indent: lineIndent(text, offset) };
    const keyColumn = before.search(/[A-Za-z_]/);
    if (rule && ruleColumn !== undefined && keyColumn > ruleColumn) {
      const place = yamlPlace(text, rule, [], lineStart, offset, keyColumn);
      if (!place || place.array || !isSchemaKey(place.path[0])) return [];
      return parameterValueItems(model, key, ruleParameterType(rule, [...place.path, key]), edit, quote);
    }
    return valueItems(model, key, rule, edit, quote);
  }
  const key = /^([ \t]*)(-[ \t]+)?([A-Za-z_]*)$/.exec(before);
  if (!key) return [];
  const [, indent, dash] = key;
  const start = offset - key[3].length;
  const wordEnd = offset + /^[A-Za-z_]*/.exec(after)![0].length;
  const word = text.slice(start, wordEnd);
  const keyOnly = /^[ \t]*:/.test(text.slice(wordEnd, lineEnd));
  const column = start - lineStart;
  const edit: StructureEdit = { start, end: wordEnd, indent: ' '.repeat(column) };
  const items: CompletionItem[] = [];
  if (rule && ruleColumn !== undefined && indent.length > ruleColumn) {
    // Deeper than the rule's keys: in its parameters, or nowhere we complete.
    const place = yamlPlace(text, rule, [], lineStart, offset, dash ? indent.length : column);
    if (!place || !isSchemaKey(place.path[0])) return [];
    if (!dash) return place.array ? [] : parameterKeyItems(model, rule, place.path, place.object, edit, keyOnly, word);
    if (!place.array) return [];
    // `- |` in an array parameter: an item's keys, or the values not in the array yet.
    const index = place.array.items.findIndex((item) => item.start >= lineStart && item.start <= lineEnd);
    const itemPath = [...place.path, index < 0 ? place.array.items.length : index];
    const itemType = ruleParameterType(rule, itemPath);
    if (objectKeys(itemType).length > 0) return parameterKeyItems(model, rule, itemPath, index < 0 ? undefined : place.array.items[index], edit, keyOnly, word);
    const others = place.array.items.filter((item) => item.end < lineStart || item.start > lineEnd);
    return parameterValueItems(model, String(place.path[place.path.length - 1]), itemType, edit, '', others);
  }
  if (dash) {
    // `- |` under `rules`: a rule begins here.
    if (!inRules || (dashColumn !== undefined && indent.length !== dashColumn)) return [];
    const existing = rulesArray?.items.find((r) => r.start >= lineStart && r.start <= lineEnd);
    items.push(...keyItems(model, existing, 'rule', edit, keyOnly, word));
    if (existing?.kind !== 'object' && !keyOnly) items.push(ruleItem(model, edit, false));
    return items;
  }
  if (column === rootColumn) items.push(...keyItems(model, root, 'ruleset', edit, keyOnly, word));
  if (rule && ruleColumn !== undefined && column === ruleColumn) items.push(...keyItems(model, rule, 'rule', edit, keyOnly, word));
  if (inRules && !keyOnly && (dashColumn !== undefined ? column === dashColumn : column > rootColumn)) items.push(ruleItem(model, edit, true));
  return items;
}

/** Where a YAML line stands below a rule: the path to the object (or array) it adds a key (or item) to. */
interface YamlPlace {
  readonly path: readonly Step[];
  /** The object the key goes into; undefined when its key has no value yet (`from_value:` alone). */
  readonly object?: HostNode;
  /** The array whose item the line is (`- |` under `phases:`). */
  readonly array?: HostArray;
}

/**
 * The place of a key (or `- `) at `column` on the line that starts at `lineStart`, below the
 * block mapping `node` at `path`: the line goes into the value of the last key before it that
 * is indented less than the line, and so on down; it is a key of `node` itself at the column of
 * its keys. Undefined where the indentation fits no mapping, or a value is written in flow
 * style (`{…}`) or as a scalar.
 */
function yamlPlace(text: string, node: HostObject, path: readonly Step[], lineStart: number, offset: number, column: number): YamlPlace | undefined {
  if (node.properties.length === 0) return undefined;
  const earlier = node.properties.filter((p) => p.keyStart < lineStart);
  const last = earlier[earlier.length - 1];
  if (last && column > columnOf(text, last.keyStart)) {
    const value = last.value;
    const here = [...path, last.key];
    // A word typed under `from_value:` reads as its scalar value: the key's object is still to come.
    if (!value || value.kind === 'null' || (value.kind !== 'object' && value.kind !== 'array' && value.start >= lineStart)) return { path: here };
    if (value.kind === 'object' && value.block) return yamlPlace(text, value, here, lineStart, offset, column);
    if (value.kind !== 'array') return undefined;
    let index = -1;
    value.items.forEach((item, i) => {
      if (item.start <= offset) index = i;
    });
    const item = value.items[index];
    if (item?.kind === 'object' && item.block && item.properties.length > 0 && columnOf(text, item.properties[0].keyStart) <= column) {
      return yamlPlace(text, item, [...here, index], lineStart, offset, column);
    }
    return { path: here, array: value };
  }
  return column === columnOf(text, node.properties[0].keyStart) ? { path, object: node } : undefined;
}

/** The rule the offset is in or after: the last one that starts before it. */
function ruleAt(model: DocumentModel, offset: number): HostObject | undefined {
  let found: HostObject | undefined;
  for (const rule of rulesOf(model, offset)) {
    if (rule.start > offset) break;
    if (rule.kind === 'object') found = rule;
  }
  return found;
}
