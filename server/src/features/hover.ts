import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import type { ParsedRuleset } from '../documents/parsed-ruleset';
import type { Argument, ComparisonOperator, IndexStep, Operand, ScalarType, Literal, LogicalOperator, Span, ValueType } from '../language/ast';
import { catalogueFor, OPERATOR_PLANS, phaseFamily, type Catalogue, type FieldInfo, type FunctionInfo } from '../language/catalogue/catalogues';
import { CLOUDFLARE_COUNTRY_VALUES, COUNTRIES, RESERVED_COUNTRY_HINTS } from '../language/catalogue/countries';
import { hexByte, TCP_FLAG_BITS } from '../language/catalogue/fields';
import { describePlan } from '../language/catalogue/plans';
import { describeValueType, isArrayType, isScalarType, typeAfterStep } from '../language/types';
import { DEPRECATED_ICMP_TYPES, ICMP_TYPES, ICMP_UNREACHABLE_CODES } from '../language/catalogue/icmp';
import { MANAGED_LIST_NAMESPACE, MANAGED_LISTS } from '../language/catalogue/lists';
import { COMPARISON_OPERATORS, LOGICAL_OPERATORS, ORDERING_OPERATORS, supportedOperators, WHOLE_VALUE_OPERATORS } from '../language/catalogue/operators';
import { ACTION_SUMMARIES, KNOWN_ACTIONS, KNOWN_PHASES, RULESET_KINDS } from '../language/catalogue/phases';
import { WELL_KNOWN_PORTS } from '../language/catalogue/ports';
import { IP_PROTOCOLS } from '../language/catalogue/protocols';
import { formatAddress } from '../language/literals';
import { locate, locateInText, type CallContext, type ComparisonContext, type Target } from '../language/locate';
import type { Problem } from '../language/problem';
import { describeExpression } from '../language/describe';
import { property, type HostNode } from '../documents/host/index';
import { RULE_ORDER_KEYS } from '../documents/entry-point';
import { mapRange } from '../documents/host/index';
import type { ExpressionSite } from '../documents/parsed-ruleset';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';
import { fieldAvailability, functionAvailability, phaseScope, planText, unverifiedNote, type PhaseScope } from './catalogue-text';
import { actionOf, actionParameterType, isRuleObjectKey, isSchemaKey, keySections, objectKeys, parameterKey, phaseActions, phasesOfAction, ruleAsRead, ruleParameterType } from './parameters';
import { parameterNote, ruleObjectScope } from '../language/catalogue/actions';
import type { RuleObjectKey } from '../language/catalogue/action-schema';
import { REQUEST_HEADER_MAPS, REQUEST_HEADER_NAMES } from './http-names';

/**
 * Hover: what the token under the cursor means where it stands. Inside an expression that is
 * a field (type, meaning, operators), an operator, a list, a function, or a value read by the
 * field it is compared with (`"BR"` is Brazil on a country field, `443` is https on a port
 * field, `10.0.0.0/8` is 16,777,216 addresses); in the ruleset structure, an `action`,
 * `phase` or `kind` value. The range is exactly the token as written in the document.
 */
export function hover(model: DocumentModel, position: Position, settings: Settings): Hover | null {
  if (!model.isRuleset(settings)) return null;
  const offset = model.offsetAt(position);
  const at = model.siteAt(offset);
  if (at) return expressionHover(model, at.site, at.offset, settings);
  return structureHover(model, offset, settings);
}

function markdown(model: DocumentModel, sections: readonly string[], start: number, end: number): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: sections.join('\n\n') }, range: model.range(start, end) };
}

// ---------------------------------------------------------------- expressions

interface HoverContext {
  /** The decoded expression. */
  readonly text: string;
  readonly phase?: string;
  /** The fields and functions of the document's phase. */
  readonly scope: PhaseScope;
  readonly settings: Settings;
  /**
   * The checker's problems on the hovered token. Their messages are not repeated here: every
   * LSP editor shows a diagnostic's message itself when the pointer is over it (VS Code in its
   * marker hover, Neovim with vim.diagnostic), so a note that says the same as the problem is
   * left out when there is one.
   */
  readonly problems: readonly Problem[];
}

function expressionHover(model: DocumentModel, site: ExpressionSite, offset: number, settings: Settings): Hover | null {
  const result = model.check(site, settings);
  const scope = phaseScope(model, settings, site.node.start, site.kind);
  // Without an AST (a syntax error), the tokens still tell fields, operators and values apart.
  const target = result.ast ? locate(result.ast, offset) : locateInText(site.text, offset, { fieldType: (name) => scalarField(scope.catalogue, name)?.type });
  if (!target) return null;
  const container = target.kind === 'set' || target.kind === 'call';
  const problems = result.problems.filter((p) => p.span.end > p.span.start && (container ? sameSpan(p.span, target.span) : within(p.span, target.span)));
  const context: HoverContext = { text: site.text, phase: scope.phase, scope, settings, problems };
  const sections = describeTarget(target, context);
  if (sections.length === 0) return null;
  const { start, end } = mapRange(site.decoded(), target.span.start, target.span.end);
  return markdown(model, sections, start, end);
}

function within(inner: Span, outer: Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

function sameSpan(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end;
}

function describeTarget(target: Target, context: HoverContext): string[] {
  switch (target.kind) {
    case 'field':
      return [...fieldHover(target.field.name, context), ...argumentNote(target.call, context)];
    case 'operator':
      return operatorHover(target.token.text, target.token.operator, target.context, context);
    case 'logical':
      return logicalHover(target.token.text, target.operator);
    case 'not':
      return notHover(target.token.text);
    case 'boolean':
      return booleanHover(target.value);
    case 'literal':
      return [...literalHover(target.literal, target.context, context, target.call), ...argumentNote(target.call, context)];
    case 'set':
      return setHover(target.set.items.length, target.context);
    case 'list':
      return listHover(target.list.name, target.context, context);
    case 'function':
    case 'call':
    case 'quantifier': {
      const fn = context.scope.catalogue.functions.get(target.name.text);
      return fn ? functionHover(fn, context) : [header('function', target.name.text)];
    }
    case 'index':
      return indexHover(target.step, target.target, target.operand, context);
  }
}

/** A field of the catalogue whose values are scalars (what a value is read by). */
function scalarField(catalogue: Catalogue, name: string): (FieldInfo & { readonly type: ScalarType }) | undefined {
  const field = catalogue.fields.get(name);
  return field && isScalarType(field.type) ? (field as FieldInfo & { readonly type: ScalarType }) : undefined;
}

/**
 * The type of a left side: a field's, a call's result, through its index steps; undefined when
 * not known. concat and coalesce give their first argument's type: followed in a loop, as deep as
 * the user nests them, the steps of each level applied on the way back.
 */
function operandType(operand: Operand | undefined, catalogue: Catalogue): ValueType | undefined {
  const steps: (readonly IndexStep[])[] = [];
  let node: Argument | undefined = operand;
  let type: ValueType | undefined;
  for (;;) {
    if (!node) break;
    if (node.kind === 'index') {
      steps.push(node.steps);
      node = node.target;
      continue;
    }
    if (node.kind === 'field') type = catalogue.fields.get(node.name)?.type;
    else if (node.kind === 'string') type = 'Bytes';
    else if (node.kind === 'call') {
      const fn = catalogue.functions.get(node.name.text);
      if (fn && !fn.quantifier && fn.result === 'first-argument') {
        node = node.args[0];
        continue;
      }
      type = fn && !fn.quantifier && fn.result !== 'first-argument' ? fn.result : undefined;
    }
    break;
  }
  for (let i = steps.length - 1; i >= 0; i--) for (const step of steps[i]) type = type === undefined ? undefined : typeAfterStep(type, step.kind);
  return type;
}

/** The field a value is compared with, when the left side is that field itself. */
function comparedField(comparison: ComparisonContext, context: HoverContext): (FieldInfo & { readonly type: ScalarType }) | undefined {
  return comparison.lhs?.kind === 'field' ? scalarField(context.scope.catalogue, comparison.lhs.name) : undefined;
}

// ---------------------------------------------------------------- Markdown helpers

/** Inline code, with a fence longer than any run of backticks inside. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** The first line of a hover: what kind of thing, which one, and (optionally) its type. */
function header(kind: string, name: string, detail?: string): string {
  return `(${kind}) ${code(name)}${detail ? `: ${detail}` : ''}`;
}

/** 16777216 → "16,777,216". */
function formatCount(value: bigint | number): string {
  const text = String(value);
  const sign = text.startsWith('-') ? '-' : '';
  return sign + text.slice(sign.length).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// ---------------------------------------------------------------- fields

function operatorList(type: ValueType): string {
  if (!isScalarType(type)) {
    const each = isArrayType(type) ? '`[*]` (every element) or an index such as `[0]`' : '`[*]` (every value) or a key such as `["name"]`';
    return `Operators: none on the whole ${isArrayType(type) ? 'array' : 'map'}; compare its elements through ${each}.`;
  }
  if (type === 'Boolean') return 'Operators: none — the field alone is the test; negate it with `not`.';
  const list = supportedOperators(type).map((o) => COMPARISON_OPERATORS.get(o)!.spellings.map(code).join('/')).join(', ');
  const ordering = type === 'Ip' ? ' (ordering with `<` `<=` `>` `>=` parses, but the service does not support it for addresses)' : '';
  return `Operators: ${list}${ordering}.`;
}

function valuesNote(field: FieldInfo): string | undefined {
  switch (field.values) {
    case 'country':
      return 'Values: ISO 3166-1 alpha-2 country codes in uppercase, such as `"BR"` (Brazil); values are compared byte for byte, so `"br"` never matches.';
    case 'protocol':
      return 'Values: lowercase IANA protocol keywords, such as `"tcp"`, `"udp"`, `"icmp"`, `"gre"`, `"esp"`.';
    case 'port':
      return 'Values: ports 0–65535.';
    case 'raw-header':
      return 'Use it as the first argument of `bit_slice`.';
    case 'method':
      return 'Values: request methods in capitals, such as `"GET"` or `"POST"`; `"get"` never matches.';
    case 'lowercase':
      return 'Values: lowercase only: a value with a capital letter never matches.';
    case 'continent':
    case 'one-of':
      return field.oneOf ? `Values: one of ${field.oneOf.map((v) => code(`"${v}"`)).join(', ')}.` : undefined;
    default:
      return field.range ? `Values: ${field.range[0]}–${field.range[1]}.` : undefined;
  }
}

function fieldHover(name: string, context: HoverContext): string[] {
  const { catalogue } = context.scope;
  const field = catalogue.fields.get(name);
  if (!field) {
    const fn = catalogue.functions.get(name);
    if (fn) return functionHover(fn, context);
    const sections = [header('field', name)];
    if (!catalogue.complete) {
      const phase = context.phase ? `phase ${code(context.phase)}` : 'a ruleset without a phase';
      sections.push(`Not in the field tables of this tool; it has no table for ${phase}, so the name is not checked there.`);
    }
    return sections;
  }
  const sections = [header('field', field.name, describeValueType(field.type)), field.doc];
  // The packet phases have one group; the HTTP phases many, as completion lists them.
  if (catalogue.family !== 'magic') sections.push(`Group: ${field.group}.`);
  const values = valuesNote(field);
  if (values) sections.push(values);
  sections.push(operatorList(field.type));
  if (field.type === 'Ip') sections.push(`Lists: ${code(`${field.name} in $${MANAGED_LIST_NAMESPACE}.anonymizer`)} and the account's own lists.`);
  const plan = planText(field);
  if (plan) sections.push(`Plan: ${plan}.`);
  const deprecated = field.deprecated?.replacements;
  if (deprecated) sections.push(`Deprecated: use ${deprecated.map(code).join(' or ')} instead.`);
  const availability = fieldAvailability(field);
  if (availability) sections.push(availability);
  const unverified = unverifiedNote(context.scope);
  if (unverified) sections.push(unverified);
  sections.push(`Example: ${code(field.example)}`);
  return sections;
}

function argumentNote(call: CallContext | undefined, context: HoverContext): string[] {
  if (!call) return [];
  const fn = context.scope.catalogue.functions.get(call.name.text);
  if (!fn) return [];
  const last = fn.parameters[fn.parameters.length - 1];
  const parameter = fn.parameters[call.argumentIndex] ?? (last?.repeats ? last : undefined);
  if (!parameter) return [`Argument ${call.argumentIndex + 1} of ${code(fn.name)}, which takes ${fn.parameters.length}.`];
  return [`Argument ${code(parameter.name)} of ${code(fn.name)}: ${parameter.doc}`];
}

// ---------------------------------------------------------------- operators

/** What goes on the right of `in`, by the type on the left (LANGUAGE.md §3). */
const IN_VALUES: Record<ScalarType, string> = {
  Integer: 'a set of integers and `a..b` ranges',
  Ip: 'a set of addresses, CIDR blocks and `a..b` ranges, or a `$list`',
  Bytes: 'a set of quoted strings',
  Boolean: 'nothing: a Boolean field takes no operator',
};

function operatorHover(written: string, operator: ComparisonOperator, comparison: ComparisonContext, context: HoverContext): string[] {
  const info = COMPARISON_OPERATORS.get(operator)!;
  const others = info.spellings.filter((s) => s !== written.replace(/\s+/g, ' '));
  const also = others.length > 0 ? ` (also ${others.map(code).join(', ')})` : '';
  const sections = [`${header('operator', written)}${also}: ${info.title}`];
  if (written === '=') sections.push('A single `=` is not an operator: equality is written `==` or `eq`.');
  sections.push(info.doc);
  const plan = OPERATOR_PLANS[operator];
  if (plan) sections.push(`Plan: ${describePlan(plan)}.`);
  const lhs = comparedField(comparison, context);
  const type = operandType(comparison.lhs, context.scope.catalogue);
  if (lhs?.type === 'Boolean') sections.push(booleanFieldNote(lhs.name));
  else if (lhs && operator === 'in') sections.push(`For ${code(lhs.name)} (${describeValueType(lhs.type)}): ${IN_VALUES[lhs.type]}.`);
  else if (!lhs && type !== undefined && isScalarType(type) && operator === 'in') sections.push(`For ${withArticle(describeValueType(type))}: ${IN_VALUES[type]}.`);
  // The checker's warning says the same where the expression could be checked.
  if (lhs?.type === 'Ip' && ORDERING_OPERATORS.includes(operator) && context.problems.length === 0) {
    sections.push('Ordering IP addresses parses, but the service does not support it: use `in {start..end}` or a CIDR block.');
  }
  return sections;
}

const PRECEDENCE_NOTE = 'Precedence, highest first: `not`, `and`, `xor`, `or`: `a or b and c` means `a or (b and c)`. Use parentheses to make it plain.';

function logicalHover(written: string, operator: LogicalOperator): string[] {
  const info = LOGICAL_OPERATORS.get(operator)!;
  const others = info.spellings.filter((s) => s !== written);
  return [`${header('operator', written)} (also ${others.map(code).join(', ')}): ${info.title}`, info.doc, PRECEDENCE_NOTE];
}

function notHover(written: string): string[] {
  return [
    `${header('operator', written)} (also ${code(written === 'not' ? '!' : 'not')}): negation`,
    'True when the expression that follows is false. It binds to one simple expression: `not a and b` means `(not a) and b`, and `not ip.proto in {"tcp"}` means `not (ip.proto in {"tcp"})`.',
  ];
}

function booleanFieldNote(name: string): string {
  return `${code(name)} is a Boolean field: it takes no operator or value; write ${code(name)} or ${code(`not ${name}`)}.`;
}

function booleanHover(value: boolean): string[] {
  return [
    header('Boolean', String(value)),
    value
      ? 'Matches every packet. As the whole expression (`"expression": "true"`) it is how `execute` rules apply a ruleset to all traffic.'
      : 'Matches no packet.',
    'The service accepts `true` and `false`; the reference parser (wirefilter) does not.',
  ];
}

// ---------------------------------------------------------------- lists and functions

function listHover(name: string, comparison: ComparisonContext, context: HoverContext): string[] {
  const managed = MANAGED_LISTS.get(name);
  if (managed) {
    return [header('list', `$${name}`, 'managed IP list'), managed.doc, `Kept up to date by the service; use it with \`ip.src\` or \`ip.dst\`: ${code(`${lhsName(comparison) ?? 'ip.src'} in $${name}`)}`];
  }
  if (name.startsWith(`${MANAGED_LIST_NAMESPACE}.`)) {
    return [header('list', `$${name}`), `Not one of the managed lists: ${[...MANAGED_LISTS.keys()].map((l) => code(`$${l}`)).join(', ')}.`];
  }
  const sections = [header('list', `$${name}`, 'account list'), "A Rules List of IP addresses kept in the account (custom IP lists hold IPv4 addresses); use it with `ip.src` or `ip.dst`."];
  const known = context.settings.knownLists;
  if (known.length === 0) sections.push('The account\'s list names are not configured (`rulesets.knownLists`), so the name is not checked.');
  else if (known.includes(name)) sections.push('One of the account lists configured in `rulesets.knownLists`.');
  return sections;
}

function lhsName(context: ComparisonContext): string | undefined {
  return context.lhs?.kind === 'field' ? context.lhs.name : undefined;
}

function functionHover(fn: FunctionInfo, context: HoverContext): string[] {
  const sections = [`\`\`\`\n${fn.signature}\n\`\`\``, fn.doc];
  if (fn.parameters.length > 0) sections.push(fn.parameters.map((p) => `- ${code(p.name)}${p.optional ? ' (optional)' : ''}${p.repeats ? ' (one or more)' : ''}: ${p.doc}`).join('\n'));
  sections.push(fn.quantifier ? 'A logical term, not a call: it stands where a test may stand, around a comparison written with `[*]`.' : functionAvailability(fn));
  const plan = planText(fn);
  if (plan) sections.push(`Plan: ${plan}.`);
  const unverified = unverifiedNote(context.scope);
  if (unverified) sections.push(unverified);
  sections.push(`Example: ${code(fn.example)}`);
  return sections;
}

// ---------------------------------------------------------------- index steps

/** `a String`, `an Integer`, `an Array<String>`. */
function withArticle(noun: string): string {
  return `${/^[AEIOU]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** What an index step picks (`["x-api-key"]`, `[0]`, `[*]`), and the type it leaves. */
function indexHover(step: IndexStep, target: Operand | undefined, operand: Operand | undefined, context: HoverContext): string[] {
  const { catalogue } = context.scope;
  const field = target?.kind === 'field' ? catalogue.fields.get(target.name) : undefined;
  const name = target?.kind === 'field' ? target.name : target?.kind === 'call' ? `${target.name.text}(…)` : undefined;
  const of = name ? ` of ${code(name)}` : '';
  // The type the step indexes: the target's, through the steps before this one.
  let indexed = target && operandType(target, catalogue);
  if (operand?.kind === 'index') {
    for (const before of operand.steps) {
      if (before === step) break;
      indexed = indexed === undefined ? undefined : typeAfterStep(indexed, before.kind);
    }
  }
  const after = indexed === undefined ? undefined : typeAfterStep(indexed, step.kind);
  const leaves = after ? ` Each is ${withArticle(describeValueType(after))}.` : '';
  switch (step.kind) {
    case 'each':
      return [
        header('index', '[*]', 'every element'),
        `Every ${indexed && !isArrayType(indexed) && !isScalarType(indexed) ? 'value' : 'element'}${of}, one by one: a comparison over it is true or false for each, and \`any(…)\` or \`all(…)\` around it makes one test.${leaves}`,
      ];
    case 'element':
      return [header('index', `[${step.index}]`, step.index === 0 ? 'the first element' : `element ${step.index}`), `Element ${step.index}${of} (counted from 0); missing when the array is shorter, and a comparison with it is then false.${leaves}`];
    case 'key': {
      const sections = [header('key', JSON.stringify(step.key)), `The values${of} under the key ${code(JSON.stringify(step.key))}.${leaves}`];
      const known = target?.kind === 'field' && REQUEST_HEADER_MAPS.has(target.name) ? REQUEST_HEADER_NAMES.find((h) => h.name === step.key) : undefined;
      if (known) sections.push(`A request header (${known.source}).`);
      // A capital letter in a lowercase key never matches; the checker says so where it checks it.
      if (field?.keys === 'lowercase' && step.key !== step.key.toLowerCase() && context.problems.length === 0) sections.push(`Keys are lowercase here: write ${code(JSON.stringify(step.key.toLowerCase()))}.`);
      return sections;
    }
  }
}

// ---------------------------------------------------------------- values

function literalHover(literal: Literal, comparison: ComparisonContext, context: HoverContext, call?: CallContext): string[] {
  const written = context.text.slice(literal.span.start, literal.span.end);
  const field = comparedField(comparison, context);
  switch (literal.kind) {
    case 'integer':
      return integerHover(written, literal.value, field, call);
    case 'integer-range':
      return integerRangeHover(written, literal.from, literal.to, field);
    case 'string':
      return stringHover(written, literal.value, literal.raw, field, comparison, context, call);
    case 'bytes':
      return bytesHover(written, literal.bytes);
    case 'ip':
      return [header(`IPv${literal.family} address`, written), ...canonical(written, formatAddress(literal.family, literal.value))];
    case 'ip-range':
      return ipRangeHover(written, literal);
    case 'invalid':
      return field?.type === 'Boolean' ? [header('value', written), booleanFieldNote(field.name)] : [header('value', written)];
  }
}

function canonical(written: string, normal: string): string[] {
  return written === normal ? [] : [`Also written ${code(normal)}.`];
}

function integerHover(written: string, value: bigint, field: FieldInfo | undefined, call?: CallContext): string[] {
  const decimal = value.toString();
  const sections = [written === decimal ? header('integer', written) : `${header('integer', written)} = ${decimal}`];
  const n = Number(value);
  switch (field?.values) {
    case 'port':
      sections.push(portNote(n, field.name));
      break;
    case 'icmp-type': {
      const name = ICMP_TYPES.get(n);
      sections.push(name ? `ICMP type ${n}: **${name}**${DEPRECATED_ICMP_TYPES.has(n) ? ' (deprecated)' : ''}` : `ICMP type ${n} is not an assigned ICMP message type.`);
      break;
    }
    case 'icmp-code': {
      const name = ICMP_UNREACHABLE_CODES.get(n);
      if (name) sections.push(`ICMP code ${n}; with type 3 (Destination Unreachable): **${name}**`);
      break;
    }
    case 'tcp-flags': {
      const set = TCP_FLAG_BITS.filter((bit) => (n & bit.value) !== 0).map((bit) => bit.name);
      if (value >= 0n && value <= 0xffn) sections.push(set.length > 0 ? `TCP flags ${hexByte(n)}: **${set.join(' | ')}**` : 'No TCP flag.');
      break;
    }
    default:
      if (field && /asnum$/.test(field.name)) sections.push(asNote(value));
  }
  if (call?.name.text === 'bit_slice' && call.argumentIndex > 0 && value >= 0n) {
    sections.push(`Bit ${decimal}${value % 8n === 0n ? ` (byte ${value / 8n})` : ''} of the header.`);
  }
  return sections;
}

function portClass(port: number): string {
  if (port < 1024) return 'a system (well-known) port, 0–1023';
  if (port < 49152) return 'a registered port, 1024–49151';
  return 'a dynamic (private) port, 49152–65535';
}

function portNote(port: number, field: string): string {
  if (port < 0 || port > 65535) return `Port numbers are 0–65535.`;
  const known = WELL_KNOWN_PORTS.get(port);
  if (!known) return `Port ${port}: no well-known service; ${portClass(port)}.`;
  const transport = field.startsWith('tcp') ? 'tcp' : field.startsWith('udp') ? 'udp' : undefined;
  const over = known.protocols.map((p) => p.toUpperCase()).join(' and ');
  const unusual = transport && !known.protocols.includes(transport) ? ` — usually over ${over}, not ${transport.toUpperCase()}` : ` (${over})`;
  return `Port ${port}: **${known.service}** — ${known.description}${unusual}`;
}

function asNote(value: bigint): string {
  const inRange = (from: bigint, to: bigint) => value >= from && value <= to;
  if (inRange(64496n, 64511n) || inRange(65536n, 65551n)) return `AS${value}: reserved for documentation (RFC 5398).`;
  if (inRange(64512n, 65534n) || inRange(4200000000n, 4294967294n)) return `AS${value}: reserved for private use (RFC 6996).`;
  return `Autonomous system AS${value}.`;
}

function integerRangeHover(written: string, from: bigint, to: bigint, field: FieldInfo | undefined): string[] {
  const count = to - from + 1n;
  const sections = [header('range', written)];
  const unit = field?.values === 'port' ? (count === 1n ? 'port' : 'ports') : count === 1n ? 'value' : 'values';
  if (field?.range && from <= field.range[0] && to >= field.range[1]) {
    const all = field.values === 'port' ? '**all ports**' : `**all values** of ${code(field.name)}`;
    sections.push(`${all} (${field.range[0]}–${field.range[1]}): the same as not testing ${code(field.name)} at all.`);
  } else {
    sections.push(`**${formatCount(count)} ${unit}**, ${from} to ${to} inclusive.`);
  }
  return sections;
}

function stringHover(
  written: string,
  value: string,
  raw: boolean,
  field: FieldInfo | undefined,
  comparison: ComparisonContext,
  context: HoverContext,
  call?: CallContext,
): string[] {
  const sections = [header('string', written)];
  if (field?.values === 'country' && patternFree(comparison)) {
    const country = COUNTRIES.get(value);
    const cloudflare = CLOUDFLARE_COUNTRY_VALUES.get(value);
    if (country) sections.push(`**${country}** — ISO 3166-1 alpha-2 code ${code(value)}`);
    else if (cloudflare) sections.push(`**${cloudflare}** — Cloudflare's value ${code(value)}, not an ISO 3166-1 code`);
    // A wrong code: what the checker says comes with the problems; without a check (the
    // expression did not parse) say it here.
    else if (context.problems.length === 0) sections.push(RESERVED_COUNTRY_HINTS.get(value.toUpperCase()) ?? `${code(`"${value}"`)} is not an assigned ISO 3166-1 alpha-2 country code.`);
    return sections;
  }
  if (field?.values === 'protocol' && patternFree(comparison)) {
    const protocol = IP_PROTOCOLS.get(value);
    if (protocol) sections.push(`**${value}** — ${protocol.description} (IP protocol number ${protocol.number})`);
    else if (context.problems.length === 0) sections.push(`${code(`"${value}"`)} is not an IANA protocol keyword.`);
    return sections;
  }
  if (call?.name.text === 'bit_slice' && call.argumentIndex === 0) {
    const header = context.scope.catalogue.fields.get(value);
    if (header?.values === 'raw-header') sections.push(header.doc);
    return sections;
  }
  const operator = comparison.operator?.operator;
  if (operator === 'matches') sections.push('A regular expression (Rust `regex` syntax).');
  else if (operator === 'wildcard' || operator === 'strict_wildcard') sections.push(`A wildcard pattern: \`*\` matches any run of characters${operator === 'wildcard' ? '; case-insensitive' : '; case-sensitive'}.`);
  const body = raw ? written.replace(/^r#*"/, '').replace(/"#*$/, '') : written.slice(1, -1);
  const bytes = value.length; // one Latin-1 code point per byte
  const reads = body !== value ? `; it reads as ${code(value)}` : '';
  sections.push(`${raw ? 'A raw string (no escapes)' : 'A string'} of ${bytes} ${bytes === 1 ? 'byte' : 'bytes'}${reads}.`);
  return sections;
}

/** Equality and membership compare whole values; `contains "B"` or `matches "^B"` are patterns. */
function patternFree(comparison: ComparisonContext): boolean {
  const operator = comparison.operator?.operator;
  return operator === undefined || WHOLE_VALUE_OPERATORS.includes(operator);
}

function bytesHover(written: string, bytes: readonly number[]): string[] {
  const printable = bytes.every((b) => b >= 0x20 && b < 0x7f);
  const text = printable ? `, the text ${code(String.fromCharCode(...bytes))}` : '';
  return [header('bytes', written), `${bytes.length} bytes${text}.`];
}

function ipRangeHover(written: string, literal: Literal & { kind: 'ip-range' }): string[] {
  const { family, first, last, prefixLength } = literal;
  const bits = family === 4 ? 32 : 128;
  const count = last - first + 1n;
  const sections = [header(prefixLength !== undefined ? `IPv${family} CIDR block` : `IPv${family} address range`, written)];
  const rows = [`First address: ${code(formatAddress(family, first))}`, `Last address: ${code(formatAddress(family, last))}`];
  if (prefixLength !== undefined) {
    const hostBits = bits - prefixLength;
    rows.push(hostBits === 0 ? 'Addresses: 1 (a single address)' : `Addresses: 2^${hostBits} = ${formatCount(count)}`);
  } else {
    rows.push(`Addresses: ${formatCount(count)}`);
    const block = asCidr(first, count, bits);
    if (block !== undefined) rows.push(`The same as the CIDR block ${code(`${formatAddress(family, first)}/${block}`)}`);
  }
  sections.push(rows.join('  \n'));
  return sections;
}

/** The prefix length when [first, first + count) is exactly one CIDR block. */
function asCidr(first: bigint, count: bigint, bits: number): number | undefined {
  if ((count & (count - 1n)) !== 0n) return undefined;
  const hostBits = count.toString(2).length - 1;
  if (first % count !== 0n) return undefined;
  return bits - hostBits;
}

function setHover(items: number, comparison: ComparisonContext): string[] {
  const name = lhsName(comparison);
  const what = `${items} ${items === 1 ? 'item' : 'items'}`;
  const sections = [`(set) ${what}`];
  sections.push(name ? `${code(`${name} in {…}`)} is true when ${code(name)} is one of the values of the set.` : 'True when the left side is one of the values of the set.');
  sections.push('Items are separated by spaces, not commas.');
  return sections;
}

// ---------------------------------------------------------------- the ruleset structure

const ACTION_DOCS: Record<string, readonly string[]> = {
  block: ['Drops the packets the expression matches.', 'Takes no `action_parameters`.'],
  skip: [
    'Matching packets skip the rules that follow in this ruleset: a `skip` placed before a `block` rule exempts the packets it matches from it. Rules are evaluated in order.',
    'Needs `"action_parameters": {"ruleset": "current"}`. The only action that may have `logging`.',
  ],
  execute: [
    'Runs another ruleset (a managed one, for example) on the packets the expression matches; often with `"expression": "true"`.',
    'Needs `"action_parameters": {"id": "…"}`: the id of the ruleset to execute.',
  ],
};

const KIND_DOCS: Record<string, string> = {
  root: 'The account-level entry point of its phase: the service runs its rules for the phase, and it runs other rulesets with `execute` rules.',
  custom: 'A ruleset of your own rules, run from an `execute` rule of the root ruleset.',
  managed: 'A ruleset the service provides and updates; you deploy it with an `execute` rule.',
  zone: 'The entry point of its phase for one zone.',
};

const PHASE_DOCS: Record<string, string> = {
  magic_transit: 'Magic Firewall custom rules: the network firewall for Magic Transit and Magic WAN traffic. Packets are matched on IP, TCP, UDP and ICMP header fields.',
  magic_transit_managed: 'Magic Firewall managed rules, provided by the service.',
  magic_transit_ids_managed: 'Magic Firewall Intrusion Detection System (IDS) managed rules.',
  magic_transit_ratelimit: 'Magic Firewall rate limiting rules.',
  ddos_l4: 'Network-layer (L3/4) DDoS attack protection managed rules.',
  ddos_l7: 'HTTP DDoS attack protection managed rules.',
  http_config_settings: 'Configuration rules (HTTP).',
  http_custom_errors: 'Custom error rules (HTTP).',
  http_log_custom_fields: 'Custom fields added to HTTP request logs.',
  http_ratelimit: 'Rate limiting rules (HTTP).',
  http_request_cache_settings: 'Cache rules (HTTP).',
  http_request_dynamic_redirect: 'Single redirect rules (HTTP).',
  http_request_firewall_custom: 'WAF custom rules (HTTP requests).',
  http_request_firewall_managed: 'WAF managed rules (HTTP requests).',
  http_request_late_transform: 'Request header transform rules, run late (HTTP).',
  http_request_origin: 'Origin rules (HTTP).',
  http_request_redirect: 'Bulk redirect rules (HTTP).',
  http_request_sanitize: 'URL normalization (HTTP requests).',
  http_request_sbfm: 'Super Bot Fight Mode rules (HTTP).',
  http_request_transform: 'URL rewrite rules (HTTP requests).',
  http_response_cache_settings: 'Cache response rules: cache settings from the origin response (HTTP).',
  http_response_compression: 'Compression rules (HTTP responses).',
  http_response_firewall_managed: 'WAF managed rules on HTTP responses.',
  http_response_headers_transform: 'Response header transform rules (HTTP).',
};

function structureHover(model: DocumentModel, offset: number, settings: Settings): Hover | null {
  const path = model.nodesAt(offset);
  const [node, parent] = path;
  const ruleset = model.rulesetAt(offset);
  const root = ruleset?.root;
  const parameter = parameterKeyHover(model, path, offset);
  if (parameter) return parameter;
  // The `expression` key of a rule: what the rule does, in words.
  if (node?.kind === 'object' && isRule(node, parent, root)) {
    const key = node.properties.find((p) => p.key === 'expression' && offset >= p.keyStart && offset <= p.keyEnd);
    const summary = key && ruleset ? ruleSummary(model, ruleset, node, settings) : undefined;
    return key && summary ? markdown(model, [summary], key.keyStart, key.keyEnd) : null;
  }
  if (!node || node.kind !== 'string' || parent?.kind !== 'object') return null;
  const key = parent.properties.find((p) => p.value === node)?.key;
  const value = String(node.value);
  let sections: string[] | undefined;
  if (key === 'action' && isRule(parent, path[2], root)) {
    const summary = ruleset && ruleSummary(model, ruleset, parent, settings);
    sections = [...actionHover(value, ruleset?.phase), ...(summary ? ['---', summary] : [])];
  }
  else if (key === 'phase' && parent === root) sections = phaseHover(value);
  else if (key === 'kind' && parent === root) sections = kindHover(value);
  return sections ? markdown(model, sections, node.start, node.end) : null;
}

/** What the rule's action does to which packets: "**Blocks** TCP packets whose destination port is not 22." */
const ACTION_VERBS: Record<string, string> = {
  block: 'Blocks',
  skip: 'Skips the rest of the ruleset for',
  execute: 'Runs another ruleset on',
};

function ruleSummary(model: DocumentModel, ruleset: ParsedRuleset, rule: HostNode, settings: Settings): string | undefined {
  // The words are the packet phases' (describe.ts speaks of packets): an HTTP rule gets none.
  const phase = ruleset.phase ?? settings.defaultPhase;
  if (phase !== undefined && phaseFamily(phase) !== 'magic') return undefined;
  const expression = property(rule, 'expression')?.value;
  const site = ruleset.expressions.find((s) => s.node === expression);
  if (!site) return undefined;
  const ast = model.check(site, settings).ast;
  if (!ast) return undefined;
  const action = property(rule, 'action')?.value;
  const name = action?.kind === 'string' ? String(action.value) : undefined;
  const verb = name && ACTION_VERBS[name] ? `**${ACTION_VERBS[name]}**` : name ? `**Matches** (action ${code(name)})` : '**Matches**';
  const disabled = property(rule, 'enabled')?.value;
  const note = disabled?.kind === 'boolean' && disabled.value === false ? ' (The rule is disabled.)' : '';
  return `${verb} ${describeExpression(ast)}.${note}`;
}

function isRule(node: HostNode, rules: HostNode | undefined, root: HostNode | undefined): boolean {
  return rules?.kind === 'array' && property(root, 'rules')?.value === rules && rules.items.includes(node);
}

function actionHover(action: string, phase: string | undefined): string[] {
  const packetDoc = phaseFamily(phase) === 'magic' || phase === undefined ? ACTION_DOCS[action] : undefined;
  if (packetDoc) return [header('action', action), ...packetDoc];
  const summary = ACTION_SUMMARIES.get(action);
  if (!summary) return [header('action', action), `Not an action the API defines; the actions are ${KNOWN_ACTIONS.map(code).join(', ')}.`];
  return [header('action', action), summary, ...phasesSections(action, phase), parametersSection(action)];
}

/** Where an action is allowed: the catalogue's phases, and whether the document's phase is one. */
function phasesSections(action: string, phase: string | undefined): string[] {
  const phases = phasesOfAction(action);
  const allowed = phaseActions(phase);
  const where = phases.length > 0 ? `Allowed in the phases ${phases.map(code).join(', ')}.` : 'No phase this tool knows lists it.';
  if (phase !== undefined && allowed && !allowed.includes(action)) return [`Not an action of ${code(phase)}, which takes ${allowed.map(code).join(', ')}.`, where];
  return [where];
}

/** What is checked of an action's `action_parameters`. */
function parametersSection(action: string): string {
  const parameters = actionParameterType(action);
  if (!parameters) return 'Takes no `action_parameters`.';
  const keys = objectKeys(parameters).map((k) => code(k.key));
  const note = parameterNote(action, []);
  return `Its \`action_parameters\` (${keys.join(', ')}) are checked against the API's types: unknown keys (with the one meant), types, required keys, allowed values and ranges, and the expressions inside them.${note ? ` ${note}` : ''}`;
}

/**
 * On a key of a rule's parameters (`action_parameters` at any depth, `ratelimit`, …): its type,
 * whether it is required, its allowed values and the catalogue's note; on a rule-level object's
 * key, where it belongs. The range is the key as written.
 */
function parameterKeyHover(model: DocumentModel, nodes: readonly HostNode[], offset: number): Hover | null {
  const object = nodes[0];
  if (object?.kind !== 'object') return null;
  const key = object.properties.find((p) => offset >= p.keyStart && offset <= p.keyEnd);
  if (!key) return null;
  const ruleset = model.rulesetAt(offset);
  const steps = stepsTo(ruleset?.root, nodes);
  if (!ruleset || steps?.[0] !== 'rules' || typeof steps[1] !== 'number') return null;
  const rule = ruleAsRead(ruleset.rules[steps[1]], ruleset.defaultAction);
  const path = steps.slice(2);
  if (path.length === 0) {
    const order = ruleset.layout === 'terraform' ? undefined : RULE_ORDER_KEYS.find((k) => k.key === key.key);
    if (order) return markdown(model, [header('rule key', key.key), order.doc], key.keyStart, key.keyEnd);
    if (!isRuleObjectKey(key.key)) return null;
    const keys = objectKeys(ruleParameterType(rule, [key.key])).map((k) => `${code(k.key)}${k.required ? ' (required)' : ''}`);
    return markdown(model, [header('rule key', key.key), `Keys: ${keys.join(', ')}.`, ruleObjectScopeText(key.key)], key.keyStart, key.keyEnd);
  }
  if (!isSchemaKey(path[0])) return null;
  const found = parameterKey(rule, path, key.key);
  if (!found) return null;
  const sections = [header('parameter', key.key), ...keySections(rule, path, found)];
  const action = actionOf(rule);
  if (path[0] === 'action_parameters' && action !== undefined) {
    const phases = phasesOfAction(action);
    if (phases.length > 0) sections.push(`${code(action)} is allowed in the phases ${phases.map(code).join(', ')}.`);
  }
  return markdown(model, sections, key.keyStart, key.keyEnd);
}

/** Where a rule-level object belongs, from the catalogue. */
function ruleObjectScopeText(key: RuleObjectKey): string {
  const scope = ruleObjectScope(key);
  const on = scope.actions ? ` on ${scope.actions.map(code).join(', ')} rules` : '';
  const where = scope.phases ? ` in the phases ${scope.phases.map(code).join(', ')}` : '';
  return on || where ? `Allowed${on}${where}.` : 'Allowed on any rule.';
}

/** The keys and indexes from the root to the innermost of `nodes` (innermost first, as DocumentModel.nodesAt gives them). */
function stepsTo(root: HostNode | undefined, nodes: readonly HostNode[]): (string | number)[] | undefined {
  const outward = [...nodes].reverse();
  if (outward[0] !== root) return undefined;
  const steps: (string | number)[] = [];
  for (let i = 1; i < outward.length; i++) {
    const parent = outward[i - 1];
    const child = outward[i];
    if (parent.kind === 'object') steps.push(parent.properties.find((p) => p.value === child)!.key);
    else if (parent.kind === 'array') steps.push(parent.items.indexOf(child));
  }
  return steps;
}

function kindHover(kind: string): string[] {
  const doc = KIND_DOCS[kind];
  if (!doc) return [header('kind', kind), `Not a ruleset kind; the kinds are ${RULESET_KINDS.map(code).join(', ')}.`];
  return [header('kind', kind), doc];
}

function phaseHover(phase: string): string[] {
  const sections = [header('phase', phase)];
  const doc = PHASE_DOCS[phase];
  if (!doc && !KNOWN_PHASES.includes(phase)) {
    sections.push('Not a phase this tool knows; its fields are not checked.');
    return sections;
  }
  if (doc) sections.push(doc);
  const catalogue = catalogueFor(phase);
  if (catalogue.family === 'magic') {
    // A few fields: the whole table fits in the hover.
    const rows = [...catalogue.fields.values()].map((f) => `| ${code(f.name)} | ${describeValueType(f.type)} | ${f.doc.replace(/\|/g, '\\|')} |`);
    sections.push(['| Field | Type | Meaning |', '|---|---|---|', ...rows].join('\n'));
  } else if (catalogue.complete) {
    // Too many to list here: completion lists them by group.
    const fields = [...catalogue.fields.values()];
    const groups = [...new Set(fields.map((f) => f.group))];
    const functions = [...catalogue.functions.values()].filter((f) => !f.quantifier);
    sections.push(`Fields: ${fields.length}, in ${groups.length} groups (${groups.join(', ')}); functions: ${functions.length}. Completion lists them by group, and a name that is in none of them is reported.`);
  } else {
    sections.push('This tool has no complete field table for this phase, so an unknown field is not reported; the fields it knows are still checked.');
  }
  return sections;
}
