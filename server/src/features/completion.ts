/**
 * Completion, driven by where the cursor is.
 *
 * In an expression, language/completion-context.ts says what the grammar accepts at the
 * cursor (operand, comparison operator, value, connective, argument) and which token is
 * being typed; this module turns that into items from the catalogues. Every item carries a
 * TextEdit that replaces exactly the partial token, mapped through the string's offset map,
 * with the text escaped for the JSON or YAML string it lands in.
 *
 * Outside expressions, the ruleset structure (completion-structure.ts): keys of the ruleset and
 * of a rule, values of `action`, `phase`, `kind` and `enabled`, `action_parameters` for `skip`
 * and `execute`, and a whole-rule snippet in `rules`.
 */
import { CompletionItemKind, TextEdit, type CompletionItem, type CompletionList, type Position } from 'vscode-languageserver';
import { COUNTRIES } from '../language/catalogue/countries';
import { OPERATOR_PLANS, type Catalogue, type ExpressionKind, type FieldInfo, type FunctionInfo } from '../language/catalogue/catalogues';
import { hexByte, TCP_FLAG_BITS } from '../language/catalogue/fields';
import { describePlan } from '../language/catalogue/plans';
import { ICMP_TYPES, ICMP_UNREACHABLE_CODES } from '../language/catalogue/icmp';
import { MANAGED_LISTS } from '../language/catalogue/lists';
import { COMPARISON_OPERATORS, LOGICAL_OPERATORS, ORDERING_OPERATORS, WHOLE_VALUE_OPERATORS } from '../language/catalogue/operators';
import { WELL_KNOWN_PORTS } from '../language/catalogue/ports';
import { IP_PROTOCOLS } from '../language/catalogue/protocols';
import type { ComparisonOperator, ValueType } from '../language/ast';
import { isArrayType, isMapType, isScalarType } from '../language/types';
import { completionContext, operatorsFor, type ExpressionCompletionContext, type LeftSide } from '../language/completion-context';
import { encodeForScalar, isBlockScalar, property, type HostNode, type HostProperty, type ScalarStyle } from '../documents/host/index';
import { mapRange, type DecodedString } from '../documents/host/index';
import { expressionRange } from '../documents/ruleset';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';
import { ruleParameterType } from './parameters';
import { deprecationText, fieldAvailability, fieldDetail, fieldUsable, functionAvailability, functionUsable, phaseScope, planText, unverifiedNote, type PhaseScope } from './catalogue-text';
import { HTTP_METHODS, REQUEST_HEADER_MAPS, REQUEST_HEADER_NAMES } from './http-names';
import { itemOf, plainText, render, sortKey, type ItemSpec, type Part } from './completion-insert';
import { nodeAtPath, ruleAt, structureItems, yamlPlace } from './completion-structure';

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
