/**
 * Static analyses of expressions and rulesets: what the service accepts but is almost surely a
 * mistake. Every finding is certain (no false positives): when the reasoning below cannot be
 * sure, it says nothing.
 *
 * The model: every packet gives each field one value within the field's catalogue range (ports
 * 0–65535, TTL 0–255, IPv4 or IPv6 addresses, any byte string), and a comparison whose truth
 * this module cannot compute exactly (a list, a pattern, `&`, a Boolean field, a function) is
 * an opaque proposition: the same text is true for the same packet, and that is all.
 * The fields of a transport header (catalogue/transport.ts) are the exception: a packet
 * without the header has no value for them (see ABSENT_NE_FALSE), and a packet with one has
 * an `ip.proto` of the header's protocols.
 *
 * In the HTTP phases (the `http` model) only what is certain of a request is modelled: each
 * scalar field has one value of its type, or none (a request need not have every field: the
 * bot management fields without Bot Management, say), so every field there has the two absent
 * values; no documented range is taken as a bound. Calls, index expressions and `[*]` (inside
 * `any`/`all`, which are opaque) are opaque tests.
 *
 * - `always-false` / `always-true`: a comparison, or a run of `and` / `or` operands on one
 *   field, that no value (every value) satisfies; a run of `and` operands that need two
 *   transport headers, or one its `ip.proto` rules out; the whole expression too when it
 *   collapses.
 * - `redundant-set-member`: a `{…}` member already covered by the other members.
 * - `shadowed-rule` (ruleset level, see findShadowedRules): a rule every packet of which an
 *   earlier enabled `block` or `skip` rule decides first.
 */
import type { Comparison, Expression, Literal, LogicalExpression, Operand, Span, Value } from './ast';
import { isExpression } from './ast';
import { atomsOf } from './atoms';
import { catalogueFor, type Catalogue, type PhaseFamily } from './catalogue/catalogues';
import { FIELDS } from './catalogue/fields';
import { TRANSPORT_HEADERS, transportFieldOf, transportHeaderNamed, type TransportHeader } from './catalogue/transport';
import { printExpression } from './format';
import { problem, type Problem } from './problem';
import {
  after,
  before,
  bound,
  complement,
  contains,
  coversInterval,
  intersect,
  intervals,
  isEmpty,
  isSubset,
  isUniverse,
  strings,
  union,
  universeSet,
  type Bound,
  type Interval,
  type StringSet,
  type Universe,
  type ValueSet,
} from './value-sets';

// ---------------------------------------------------------------- atoms

/** IPv6 addresses follow the IPv4 ones, from 2^32. */
const IPV6_OFFSET = 1n << 32n;
const IP_UNIVERSE: Universe = { kind: 'intervals', items: [[0, bound(IPV6_OFFSET - 1n)], [bound(IPV6_OFFSET), bound(IPV6_OFFSET + (1n << 128n) - 1n)]] };
const BOOLEAN_UNIVERSE: Universe = { kind: 'intervals', items: [[0, 1]] };
const STRING_UNIVERSE: Universe = { kind: 'strings' };
const TRUE_SET = intervals([[1, 1]]);

/**
 * A field of a transport header the packet does not have is absent. The evaluator takes every
 * comparison of an absent value as false, and `not` turns that into true; the reference engine
 * does the same except for `!=`, which it takes as true unless the scheme says otherwise
 * (wirefilter's `SchemeBuilder::set_nil_not_equal_behavior`), and which way the service goes
 * is not documented. So a transport field ranges over two values beyond its catalogue range,
 * just below it: ABSENT_NE_FALSE, absent where `!=` is false, and ABSENT_NE_TRUE, absent where
 * `!=` is true. A finding true over both holds whichever the service does.
 *
 * An opaque test of a transport header (`tcp.flags.syn`, `tcp.flags & 0x02`,
 * `bit_slice(tcp, 0, 8) == 0`) has the same two values beside false (0) and true (1), under a
 * key that names the header: `h:tcp:<canonical text>`.
 */
const ABSENT_NE_FALSE = -2;
const ABSENT_NE_TRUE = -1;
const OPAQUE_TRANSPORT_UNIVERSE: Universe = { kind: 'intervals', items: [[ABSENT_NE_FALSE, 1]] };
const TRUE_OR_ABSENT_NE_TRUE = intervals([[ABSENT_NE_TRUE, ABSENT_NE_TRUE], [1, 1]]);

/** The key of `ip.proto`, which every transport header's fields constrain. */
const PROTO_KEY = 'f:ip.proto';

/** The `ip.proto` values of the packets that have each header. */
const PROTOCOL_SETS: ReadonlyMap<TransportHeader, StringSet> = new Map(TRANSPORT_HEADERS.map((header) => [header, strings(header.protocols)]));

/** How the literals compared with a field modelled by value are read. */
type Reading = 'integer' | 'ip' | 'bytes';

interface FieldUniverse {
  /** `f:<field>` (`r:<field>` in the HTTP model), one string for every comparison of the field. */
  readonly key: string;
  /** Every value the key takes: the field's values, and for a transport field its two absent ones. */
  readonly universe: Universe;
  /** The values a packet can give the field, as a universe and as a set. */
  readonly values: Universe;
  readonly valueSet: ValueSet;
  /** Where `!=` is true: the universe less ABSENT_NE_FALSE. */
  readonly notEqual: Universe;
  /** How its literals are read; undefined for a field not modelled by value (its tests are opaque). */
  readonly reading?: Reading;
  /** An Integer field's values, the bounds of an ordering (`<`, `>=`…). */
  readonly range?: Interval;
}

interface Transport {
  readonly header: TransportHeader;
  /** ABSENT_NE_FALSE and ABSENT_NE_TRUE of the key. */
  readonly absent: readonly [Bound, Bound];
}

/** The key prefix of each header's opaque tests (`h:tcp:`), and what transportOf says of them. */
const OPAQUE_TRANSPORT_PREFIXES: readonly (readonly [string, Transport])[] = TRANSPORT_HEADERS.map((header) => [`h:${header.name}:`, { header, absent: [ABSENT_NE_FALSE, ABSENT_NE_TRUE] }]);

/** The universes of the fields, by name, built once each: every comparison asks for its own. */
const fieldUniverses = new Map<string, FieldUniverse>();
/** The transport fields' keys (`f:tcp.dstport`), filled as fieldUniverse builds them (and it builds every `f:` key). */
const transportKeys = new Map<string, Transport>();
/** The universe of every `f:` and `r:` key, filled as fieldUniverse and requestUniverse build them. */
const universesByKey = new Map<string, Universe>();

/** The universe of a field of the packet phases' catalogue; undefined for a name not in it. */
function fieldUniverse(name: string): FieldUniverse | undefined {
  let known = fieldUniverses.get(name);
  if (known) return known;
  const field = FIELDS.get(name);
  if (!field) return undefined;
  const range: Interval | undefined = field.type === 'Integer' && field.range ? [bound(field.range[0]), bound(field.range[1])] : undefined;
  const values: Universe = range ? { kind: 'intervals', items: [range] } : field.type === 'Ip' ? IP_UNIVERSE : STRING_UNIVERSE;
  const reading: Reading | undefined = range ? 'integer' : field.type === 'Ip' ? 'ip' : field.type === 'Bytes' ? 'bytes' : undefined;
  const header = transportFieldOf(name)?.header;
  const key = `f:${name}`;
  // Only Integer transport fields are modelled by value; the others are opaque tests (Forms.comparison).
  if (header && range) {
    const absent: readonly [Bound, Bound] = [before(before(range[0])), before(range[0])];
    transportKeys.set(key, { header, absent });
    known = { key, universe: { kind: 'intervals', items: [[absent[0], range[1]]] }, values, valueSet: universeSet(values), notEqual: { kind: 'intervals', items: [[absent[1], range[1]]] }, reading, range };
  } else {
    // A raw header (`tcp == …`) is an opaque test: its absent values have no place among strings.
    known = { key, universe: values, values, valueSet: universeSet(values), notEqual: values, reading: header ? undefined : reading, range };
  }
  fieldUniverses.set(name, known);
  universesByKey.set(key, known.universe);
  return known;
}

/**
 * The key prefix of an HTTP field modelled by value (`r:http.host`): a request field, which
 * may be absent. A string field's absent value where `!=` is false is ABSENT_STRING_NE_FALSE
 * (a marker no comparison with a literal names); where `!=` is true it is a string no literal
 * names either, so every string set already treats it right.
 */
const REQUEST_KEY = 'r:';
const ABSENT_STRING_NE_FALSE = '\u0000absent, where != is false';
const INTEGER_RANGE: Interval = [bound(-(1n << 63n)), bound((1n << 63n) - 1n)];

/** The universes of the HTTP fields, by name, built once each (null: a type not modelled by value). */
const requestUniverses = new Map<string, FieldUniverse | null>();
/** The HTTP phases' fields (every HTTP phase has the one catalogue of its family). */
const HTTP_CATALOGUE = catalogueFor('http_request_firewall_custom');

/**
 * The universe of an HTTP field modelled by value (Integer, IP address, String), with its two
 * absent values; null for another type.
 */
function requestUniverse(name: string): FieldUniverse | null {
  let known = requestUniverses.get(name);
  if (known !== undefined) return known;
  const type = HTTP_CATALOGUE.fields.get(name)?.type;
  const key = `${REQUEST_KEY}${name}`;
  if (type === 'Bytes') {
    // `!=` of an absent value is true (a string no literal names) or false (the marker).
    known = { key, reading: 'bytes', universe: STRING_UNIVERSE, values: STRING_UNIVERSE, valueSet: universeSet(STRING_UNIVERSE), notEqual: STRING_UNIVERSE };
  } else if (type === 'Integer' || type === 'Ip') {
    const items: readonly Interval[] = type === 'Integer' ? [INTEGER_RANGE] : (IP_UNIVERSE as { items: readonly Interval[] }).items;
    const min = items[0][0];
    const absent: readonly [Bound, Bound] = [before(before(min)), before(min)];
    known = {
      key,
      reading: type === 'Integer' ? 'integer' : 'ip',
      range: type === 'Integer' ? INTEGER_RANGE : undefined,
      universe: { kind: 'intervals', items: intervals([[absent[0], absent[1]], ...items]).items },
      values: { kind: 'intervals', items },
      valueSet: intervals(items),
      notEqual: { kind: 'intervals', items: intervals([[absent[1], absent[1]], ...items]).items },
    };
  } else {
    known = null;
  }
  requestUniverses.set(name, known);
  if (known) universesByKey.set(key, known.universe);
  return known;
}

/** The transport header and absent values of a key, when it is a transport field's or test's. */
function transportOf(key: string): Transport | undefined {
  const first = key.charCodeAt(0);
  if (first === 102 /* f */) return transportKeys.get(key);
  if (first !== 104 /* h */) return undefined;
  for (let i = 0; i < OPAQUE_TRANSPORT_PREFIXES.length; i++) if (key.startsWith(OPAQUE_TRANSPORT_PREFIXES[i][0])) return OPAQUE_TRANSPORT_PREFIXES[i][1];
  return undefined;
}

/**
 * The transport header a part needs: the one of its key, when no packet without that header
 * (in either reading of `!=`) satisfies it. `tcp.dstport == 22` needs TCP; `not tcp.dstport ==
 * 22` and `tcp.dstport != 22` do not.
 */
function neededHeader(key: string, set: ValueSet): TransportHeader | undefined {
  const transport = transportOf(key);
  if (!transport || contains(set, transport.absent[0]) || contains(set, transport.absent[1])) return undefined;
  return transport.header;
}

/** The values a key ranges over; the same for every expression. */
export function universeOf(key: string): Universe {
  const first = key.charCodeAt(0);
  if (first === 97 /* a */) return BOOLEAN_UNIVERSE;
  if (first === 104 /* h */) return OPAQUE_TRANSPORT_UNIVERSE;
  // Every `f:` and `r:` key comes from an atom, which built its field's universe.
  return universesByKey.get(key) ?? (first === 114 /* r */ ? requestUniverse(key.slice(2))! : fieldUniverse(key.slice(2))!).universe;
}

function ipInterval(literal: Literal): Interval | undefined {
  if (literal.kind === 'ip') {
    const value = bound(literal.family === 4 ? literal.value : literal.value + IPV6_OFFSET);
    return [value, value];
  }
  if (literal.kind === 'ip-range') return literal.family === 4 ? [bound(literal.first), bound(literal.last)] : [bound(literal.first + IPV6_OFFSET), bound(literal.last + IPV6_OFFSET)];
  return undefined;
}

function integerInterval(literal: Literal): Interval | undefined {
  if (literal.kind === 'integer') {
    const value = bound(literal.value);
    return [value, value];
  }
  if (literal.kind === 'integer-range') return [bound(literal.from), bound(literal.to)];
  return undefined;
}

function byteString(literal: Literal): string | undefined {
  if (literal.kind === 'string') return literal.value;
  if (literal.kind === 'bytes') return String.fromCharCode(...literal.bytes);
  return undefined;
}

/** The interval a number literal stands for, read as `reading`; undefined for another kind of literal. */
function readInterval(literal: Literal, reading: 'integer' | 'ip'): Interval | undefined {
  return reading === 'ip' ? ipInterval(literal) : integerInterval(literal);
}

/** The values a literal stands for, read as `reading`; undefined for a literal of another kind. */
function readLiteral(literal: Literal, reading: Reading): ValueSet | undefined {
  if (reading === 'bytes') {
    const text = byteString(literal);
    return text === undefined ? undefined : strings([text]);
  }
  const interval = readInterval(literal, reading);
  return interval && intervals([interval]);
}

/** The values the members of a set literal stand for, read as `reading`; undefined if one is of another kind. */
function readMembers(items: readonly Literal[], reading: Reading): ValueSet | undefined {
  if (reading === 'bytes') {
    const values = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      const text = byteString(items[i]);
      if (text === undefined) return undefined;
      values.add(text);
    }
    return { kind: 'strings', cofinite: false, values };
  }
  // One sort of every interval (when they are out of order) rather than a union per member:
  // sets run to hundreds of members.
  // Of the size it holds: the set keeps the array when the members are sorted and apart (most).
  const all: Interval[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const interval = readInterval(items[i], reading);
    if (!interval) return undefined;
    all[i] = interval;
  }
  return intervals(all);
}

/**
 * The values of a field read as `reading` (Integer ones within `range`) for which `operator`
 * with `rhs` holds, before the field's own values and absence are taken into account; undefined
 * for a comparison not modelled by value.
 */
function comparedSet(op: string, rhs: Value, reading: Reading, range: Interval | undefined): ValueSet | undefined {
  if (op === 'in') return rhs.kind === 'set' && rhs.items.length > 0 ? readMembers(rhs.items, reading) : undefined;
  if (op === 'eq' || op === 'ne') {
    if (rhs.kind === 'set' || rhs.kind === 'list' || rhs.kind === 'integer-range' || rhs.kind === 'ip-range') return undefined;
    return readLiteral(rhs as Literal, reading);
  }
  if (!range || rhs.kind !== 'integer' || (op !== 'lt' && op !== 'le' && op !== 'gt' && op !== 'ge')) return undefined;
  // An ordering holds of values of the type only: an absent value is less than nothing.
  const min = range[0];
  const max = range[1];
  const v = bound(rhs.value);
  return intervals([op === 'lt' ? [min, before(v)] : op === 'le' ? [min, v] : op === 'gt' ? [after(v), max] : [v, max]]);
}

/** Whether a literal (or a member of a set literal) lies outside an Integer field's `[min, max]`. */
function outsideRange(rhs: Value, range: Interval): boolean {
  if (rhs.kind === 'set') return rhs.items.some((item) => outsideRange(item, range));
  if (rhs.kind === 'integer') return rhs.value < range[0] || rhs.value > range[1];
  return rhs.kind === 'integer-range' && (rhs.from < range[0] || rhs.to > range[1]);
}

/** The value one set member stands for, read without a field: for duplicate members. */
function memberSet(literal: Literal): ValueSet | undefined {
  const integer = integerInterval(literal);
  if (integer) return intervals([integer]);
  const ip = ipInterval(literal);
  if (ip) return intervals([ip]);
  const bytes = byteString(literal);
  return bytes === undefined ? undefined : strings([bytes]);
}

function memberFamily(literal: Literal): Reading | undefined {
  if (literal.kind === 'integer' || literal.kind === 'integer-range') return 'integer';
  if (literal.kind === 'ip' || literal.kind === 'ip-range') return 'ip';
  if (literal.kind === 'string' || literal.kind === 'bytes') return 'bytes';
  return undefined;
}

/**
 * The set of values of a modelled field for which a comparison with `op` holds, from its
 * comparedSet. In the HTTP model only the type's values are assumed, and a value may be
 * absent: every comparison of an absent value is false but `!=`, which may be either (see
 * ABSENT_NE_FALSE, and ABSENT_STRING_NE_FALSE for strings).
 */
function fieldSet(compared: ValueSet, op: string, known: FieldUniverse, model: Model): ValueSet {
  let set = compared;
  // Only the field's values: a literal outside them (reported elsewhere) matches nothing. Every
  // string is a value of a string field.
  if (set.kind === 'intervals' && !insideUniverse(set, known.values)) set = intersect(set, known.valueSet);
  if (op !== 'ne') return set;
  // `!=` is true where `==` is false, except for an absent value where the service may take it
  // as false (ABSENT_NE_FALSE).
  if (set.kind === 'strings' && model === 'http') return strings([...set.values, ABSENT_STRING_NE_FALSE], true);
  return complement(set, known.notEqual);
}

/** Whether an operand is a call (or an index of one or of a field) whose arguments are fields and literals: no expression below it. */
function callOfPlainArguments(operand: Operand): boolean {
  const call = operand.kind === 'index' ? operand.target : operand;
  if (call.kind !== 'call') return true;
  for (let i = 0; i < call.args.length; i++) {
    const kind = call.args[i].kind;
    if (kind === 'call' || kind === 'index' || isExpression(call.args[i])) return false;
  }
  return true;
}

/** The number of strings or intervals of a set (not cofinite). */
function sizeOf(set: ValueSet): number {
  return set.kind === 'intervals' ? set.items.length : set.values.size;
}

/** Whether every interval of `set` lies within one interval of `universe` (then intersecting them changes nothing). */
function insideUniverse(set: ValueSet, universe: Universe): boolean {
  if (set.kind !== 'intervals' || universe.kind !== 'intervals') return false;
  for (let i = 0; i < set.items.length; i++) if (!coversInterval(universe.items, set.items[i])) return false;
  return true;
}

/** The transport header whose field (`tcp.flags.syn`) or raw bytes (`bit_slice(tcp, …)`) a comparison reads. */
function testedHeader(comparison: Comparison): TransportHeader | undefined {
  const lhs = comparison.lhs;
  if (lhs.kind === 'field') return transportFieldOf(lhs.name)?.header;
  if (lhs.kind !== 'call') return undefined;
  const header = lhs.args[0];
  if (lhs.name.text !== 'bit_slice' || !header) return undefined;
  return transportHeaderNamed(header.kind === 'field' ? header.name : header.kind === 'string' ? header.value : '');
}

// ---------------------------------------------------------------- forms

/** What is known of an expression: a constant, exactly the values of one key, or nothing. */
export type Form =
  /** `key`: the atom's key, for a comparison that is constant. */
  | { readonly kind: 'const'; readonly value: boolean; readonly key?: string }
  /**
   * What the truth depends on, `key`: one field's value, `f:<field>` (`r:<field>` in the HTTP
   * model) for a field whose values are modelled, or a comparison itself, `a:<canonical text>`
   * for an opaque test, `h:<header>:<canonical text>` for an opaque test of a transport header;
   * `set`, the values of the key for which the expression is true.
   */
  | { readonly kind: 'field'; readonly key: string; readonly set: ValueSet }
  /**
   * `needs`: a transport header every packet that satisfies it has (`tcp.dstport == 22 or
   * tcp.srcport == 22` needs TCP), when one does.
   */
  | { readonly kind: 'mixed'; readonly needs?: TransportHeader };

const MIXED: Form = { kind: 'mixed' };
const TRUE_FORM: Form = { kind: 'const', value: true };
const FALSE_FORM: Form = { kind: 'const', value: false };

function unwrap(node: Expression): Expression {
  while (node.kind === 'group') node = node.inner;
  return node;
}

interface Part {
  readonly key: string;
  readonly set: ValueSet;
  /** The operand of the logical node it comes from. */
  readonly index: number;
  readonly node: Expression;
}

/** Parts grouped by key, in the order their keys first appear; undefined when no two parts share a key. */
function groupedByKey(parts: readonly Part[]): Part[][] | undefined {
  let shared = false;
  for (let i = 1; !shared && i < parts.length; i++) for (let j = 0; !shared && j < i; j++) shared = parts[j].key === parts[i].key;
  if (!shared) return undefined;
  const keys: string[] = [];
  const groups: Part[][] = [];
  for (const part of parts) {
    const at = keys.indexOf(part.key);
    if (at >= 0) groups[at].push(part);
    else {
      keys.push(part.key);
      groups.push([part]);
    }
  }
  return groups;
}

/** The parts of a chain of one operator, and what its other operands (not on one key) are. */
interface Parts {
  readonly parts: Part[];
  /** Whether some operand is on several keys. */
  readonly mixed: boolean;
  /** Those operands that need a transport header, with it; `mixed` without all of them here means some need none. */
  readonly needing: readonly { readonly header: TransportHeader; readonly index: number; readonly node: Expression }[];
  /** Whether every operand on several keys needs a transport header. */
  readonly allMixedNeed: boolean;
}

interface Finding {
  readonly value: boolean;
  readonly span: Span;
  readonly message: string;
  /** The parts that contradict each other, when there is more to say than the span. */
  readonly related?: readonly { readonly span: Span; readonly message: string }[];
}

interface MutableParts {
  parts: Part[];
  mixed: boolean;
  needing: { header: TransportHeader; index: number; node: Expression }[];
  allMixedNeed: boolean;
}

function noParts(): MutableParts {
  return { parts: [], mixed: false, needing: NO_NEEDING, allMixedNeed: true };
}

/** The `needing` of the parts of a chain none of whose operands needs a header (most), shared: never added to. */
const NO_NEEDING: { header: TransportHeader; index: number; node: Expression }[] = [];

/**
 * What the analyses know of the fields: `packet`, the packet phases' (and, as always, a phase
 * not known); `http`, the HTTP phases' (see fieldSet).
 */
export type Model = 'packet' | 'http';

/** The model of a phase's catalogue. */
export function modelOf(catalogue: Catalogue): Model {
  return catalogue.family === 'http' ? 'http' : 'packet';
}

/** The model of a phase's family. */
export function modelOfFamily(family: PhaseFamily | undefined): Model {
  return family === 'http' ? 'http' : 'packet';
}

/** The findings of a Forms that has recorded none (most), shared: never added to. */
const NO_FINDINGS: Finding[] = [];

/** Nodes whose forms a Forms keeps in a flat array before it switches to a Map. */
const FLAT_FORMS = 24;

/** The forms of one expression's nodes, computed once each; with findings when asked. */
export class Forms {
  // A check result keeps its Forms (for the ruleset's analyses), so the caches that are not
  // needed every time are made on first use, and those of the parts let go after the analysis:
  // tens of thousands of rules keep tens of thousands of them.
  /**
   * The forms computed, as node, form, node, form…: most expressions have a few nodes, and a
   * short array searched costs less to build and to keep than a Map. Past FLAT_FORMS nodes,
   * `formMap` takes over.
   */
  private flatForms: (Expression | Form)[] = [];
  // The fields below that most Forms never set are declared only (`declare`): a field defined
  // in every object costs a step at each construction and a slot in each of the results kept.
  declare private formMap?: Map<Expression, Form>;
  declare private canonical?: Map<Expression, string>;
  /** The root's anchors (see findShadowedRules), once asked for. */
  declare anchors?: readonly string[];
  /** The findings recorded while reporting, in order; NO_FINDINGS until the first. */
  findings: Finding[] = NO_FINDINGS;
  /** The `redundant-set-member` findings, in the order of the tree, while reporting (made when there is one). */
  declare memberProblems?: Problem[];

  constructor(
    readonly source: string,
    private reporting = false,
    readonly model: Model = 'packet',
  ) {}

  /** What the expression is about, in messages: a packet or a request (not a field: every check result keeps its Forms). */
  private get subject(): string {
    return this.model === 'http' ? 'request' : 'packet';
  }

  /**
   * Stops recording findings, and lets go of those recorded (they were read) and of the parts
   * of the logical nodes (made again when asked for): what is kept is what is costly to compute.
   */
  doneReporting(): void {
    this.reporting = false;
    this.findings = NO_FINDINGS;
    // Cleared where set: setting one a Forms never had would add it.
    if (this.memberProblems) this.memberProblems = undefined;
    if (this.andParts) this.andParts = undefined;
    if (this.orParts) this.orParts = undefined;
    // An array grown by pushes keeps room for more (17 slots for its first few): what is kept is a copy of the size it holds.
    if (this.flatForms.length > 0) this.flatForms = this.flatForms.slice();
  }

  form(node: Expression): Form {
    // Asked of every node, once or many times: the lookup is not a call of its own.
    if (this.formMap) {
      const known = this.formMap.get(node);
      if (known) return known;
    } else {
      const flat = this.flatForms;
      for (let i = 0; i < flat.length; i += 2) if (flat[i] === node) return flat[i + 1] as Form;
    }
    const form = this.compute(node);
    if (this.formMap) this.formMap.set(node, form);
    else if (this.flatForms.length < 2 * FLAT_FORMS) this.flatForms.push(node, form);
    else {
      const map = new Map<Expression, Form>();
      for (let i = 0; i < this.flatForms.length; i += 2) map.set(this.flatForms[i] as Expression, this.flatForms[i + 1] as Form);
      map.set(node, form);
      this.formMap = map;
      this.flatForms = [];
    }
    return form;
  }

  text(node: Expression): string {
    this.canonical ??= new Map();
    let text = this.canonical.get(node);
    if (text === undefined) {
      text = printExpression(unwrap(node), this.source);
      this.canonical.set(node, text);
    }
    return text;
  }

  /** Every key the expression's comparisons depend on. */
  keysOf(node: Expression): ReadonlySet<string> {
    const found = new Set<string>();
    const atoms = atomsOf(node);
    for (let i = 0; i < atoms.length; i++) {
      // A comparison's form carries its atom's key, constant or not.
      const form = this.form(atoms[i]) as { key: string };
      found.add(form.key);
      // A transport field can imply `ip.proto` (conjunctSet): a rule on it is compared with those on `ip.proto`.
      if (transportOf(form.key)) found.add(PROTO_KEY);
    }
    return found;
  }

  /** The parts of a chain of `operator`s below `node`, each tagged with its operand's index. */
  parts(node: Expression, operator: 'and' | 'or'): Parts {
    const cache = operator === 'and' ? (this.andParts ??= new Map()) : (this.orParts ??= new Map());
    let result = cache.get(node);
    if (!result) cache.set(node, (result = this.collectParts(node, operator)));
    return result;
  }

  declare private andParts?: Map<Expression, Parts>;
  declare private orParts?: Map<Expression, Parts>;

  private collectParts(node: Expression, operator: 'and' | 'or'): Parts {
    const into: MutableParts = noParts();
    const top = unwrap(node);
    if (top.kind === 'logical' && top.operator === operator) {
      for (let i = 0; i < top.operands.length; i++) this.collect(top.operands[i], i, operator, into);
    } else this.collect(top, 0, operator, into);
    return into;
  }

  /** Adds the parts of `e`, operand `index` of a chain of `operator`s, to `into`. */
  private collect(e: Expression, index: number, operator: 'and' | 'or', into: MutableParts): void {
    const inner = unwrap(e);
    if (inner.kind === 'logical' && inner.operator === operator) {
      for (let i = 0; i < inner.operands.length; i++) this.collect(inner.operands[i], index, operator, into);
      return;
    }
    this.addPart(inner, this.form(inner), index, into);
  }

  /** Adds `node`, operand `index` of a chain and not one of the chain's operator, of form `form`, to `into`. */
  private addPart(node: Expression, form: Form, index: number, into: MutableParts): void {
    if (form.kind === 'field') into.parts.push({ key: form.key, set: form.set, index, node });
    else if (form.kind === 'mixed') {
      into.mixed = true;
      if (!form.needs) into.allMixedNeed = false;
      else if (into.needing === NO_NEEDING) into.needing = [{ header: form.needs, index, node }];
      else into.needing.push({ header: form.needs, index, node });
    }
  }

  private report(value: boolean, span: Span, message: string, related?: Finding['related']): void {
    if (!this.reporting) return;
    const finding: Finding = related ? { value, span, message, related } : { value, span, message };
    if (this.findings === NO_FINDINGS) this.findings = [finding];
    else this.findings.push(finding);
  }

  private compute(node: Expression): Form {
    switch (node.kind) {
      case 'group':
        return this.form(node.inner);
      case 'boolean':
        // Written on purpose (`true` for an `execute` rule); not a finding, and not folded.
        return MIXED;
      case 'comparison':
        return this.comparison(node);
      case 'not': {
        const inner = this.form(node.operand);
        if (inner.kind === 'const') return inner.value ? FALSE_FORM : TRUE_FORM;
        if (inner.kind === 'field') return { kind: 'field', key: inner.key, set: complement(inner.set, universeOf(inner.key)) };
        return MIXED;
      }
      case 'logical':
        return node.operator === 'xor' ? this.xor(node) : this.andOr(node, node.operator);
      case 'quantifier':
        if (this.reporting) this.membersWithin(node);
        // The same test of the same request has one answer: an opaque proposition, as a call is.
        return { kind: 'field', key: `a:${printExpression(node, this.source)}`, set: TRUE_SET };
    }
  }

  private comparison(node: Comparison): Form {
    const { lhs, operator, rhs } = node;
    if (lhs.kind !== 'field') {
      // Calls' arguments may hold comparisons of their own, which the forms do not reach: walked
      // to when there may be one.
      if (this.reporting && !callOfPlainArguments(lhs)) this.membersWithin(node);
      else if (this.reporting && rhs?.kind === 'set') this.members(rhs.items);
    } else if (operator && rhs) {
      const op = operator.operator;
      const known = this.model === 'http' ? requestUniverse(lhs.name) : fieldUniverse(lhs.name);
      const compared = known?.reading ? comparedSet(op, rhs, known.reading, known.range) : undefined;
      // Members read as a set of as many values (intervals) as there are members: no two of
      // them meet, so none is redundant.
      if (this.reporting && rhs.kind === 'set' && !(op === 'in' && compared && sizeOf(compared) === rhs.items.length)) this.members(rhs.items);
      if (compared) {
        const set = fieldSet(compared, op, known!, this.model);
        const value = isEmpty(set) ? false : isUniverse(set, known!.universe) ? true : undefined;
        if (value === undefined) return { kind: 'field', key: known!.key, set };
        // A value outside the field's range already has its `value-out-of-range` warning: the
        // comparison's constant truth would only repeat it, and `udp.dstport == 70000` is not
        // made to contradict `ip.proto` either.
        if (this.model === 'http' || !known!.range || !outsideRange(rhs, known!.range)) return this.constantComparison(node, value, known!.key);
        return { kind: 'field', key: `a:${printExpression(node, this.source)}`, set: TRUE_SET };
      }
    }
    const text = printExpression(node, this.source);
    const header = this.model === 'http' ? undefined : testedHeader(node);
    if (!header) return { kind: 'field', key: `a:${text}`, set: TRUE_SET };
    // False without the header, as every comparison of an absent value; `!=` maybe true (ABSENT_NE_TRUE).
    return { kind: 'field', key: `h:${header.name}:${text}`, set: operator?.operator === 'ne' ? TRUE_OR_ABSENT_NE_TRUE : TRUE_SET };
  }

  /** The form of a comparison of a field modelled by value that every value (no value) satisfies, with its finding. */
  private constantComparison(node: Comparison, value: boolean, key: string): Form {
    if (this.reporting) {
      const text = this.source.slice(node.span.start, node.span.end);
      const name = key.slice(2);
      const range = key.charCodeAt(0) === 102 /* f */ ? FIELDS.get(name)?.range : undefined;
      const values = range ? `value of \`${name}\` (${range[0]}–${range[1]})` : `value of \`${name}\``;
      if (value) this.report(true, node.span, `\`${text}\` is always true: every ${values} satisfies it, so it tests nothing`);
      else this.report(false, node.span, `\`${text}\` is always false: no ${values} satisfies it, so it never matches`);
    }
    return { kind: 'const', value, key };
  }

  /** Notes the `redundant-set-member` findings of a set literal's members. */
  private members(items: readonly Literal[]): void {
    if (mayHaveRedundantMembers(items)) redundantMembers(items, this.source, (this.memberProblems ??= []));
  }

  /** Notes the `redundant-set-member` findings of every set literal of a subtree, in the order of the tree. */
  private membersWithin(node: Expression): void {
    const atoms = atomsOf(node);
    for (let i = 0; i < atoms.length; i++) {
      const atom = atoms[i];
      if (atom.kind === 'comparison' && atom.rhs?.kind === 'set') this.members(atom.rhs.items);
    }
  }

  private andOr(node: LogicalExpression, operator: 'and' | 'or'): Form {
    const absorbing = operator === 'or';
    // An operand that is constant has its own finding (or is a literal): this one would repeat it.
    // (Every operand's form is computed all the same, for its findings.) The parts are collected
    // with the forms, as collectParts does: each logical node is analysed once, and only the
    // shadowing search asks for its parts again.
    let absorbed = false;
    const into: MutableParts = noParts();
    for (let i = 0; i < node.operands.length; i++) {
      const operand = node.operands[i];
      const f = this.form(operand);
      if (f.kind === 'const' && f.value === absorbing) absorbed = true;
      if (absorbed) continue;
      const inner = unwrap(operand);
      if (inner.kind === 'logical' && inner.operator === operator) this.collect(inner, i, operator, into);
      else this.addPart(inner, f, i, into);
    }
    if (absorbed) return absorbing ? TRUE_FORM : FALSE_FORM;
    const { parts, mixed, needing, allMixedNeed } = into;
    // Parts grouped by key, in the order their keys first appear; undefined when no two parts
    // share a key (most chains), each part then a group of its own.
    const groups = groupedByKey(parts);
    const count = groups ? groups.length : parts.length;
    let collapsed = false;
    let onlySet: ValueSet | undefined;
    // For a run of `and`: the groups that need transport headers (see noteNeed), and the group
    // on `ip.proto` (made only when the run has them).
    const need: Needs = {};
    let proto: Part[] | undefined;
    let protoSet: ValueSet | undefined;
    // For a run of `or`: the header every group needs, while they all need the same one.
    let common: TransportHeader | undefined | null = allMixedNeed ? undefined : null;
    for (let g = 0; g < count; g++) {
      const group = groups?.[g];
      const part = group ? group[0] : parts[g];
      const key = part.key;
      let set = part.set;
      // A part alone is never constant (a form on one key that is constant is a `const` one).
      let constant = false;
      if (group && group.length > 1) {
        const universe = universeOf(key);
        for (let i = 1; i < group.length; i++) set = operator === 'and' ? intersect(set, group[i].set) : union(set, group[i].set, universe);
        constant = operator === 'and' ? isEmpty(set) : isUniverse(set, universe);
      }
      onlySet = set;
      if (operator === 'or' && common !== null) common = sameHeader(common, neededHeader(key, set));
      if (operator === 'and' && !constant) {
        if (key === PROTO_KEY) {
          proto = group ?? [part];
          protoSet = set;
        } else {
          const header = neededHeader(key, set);
          if (header) noteNeed(need, { header, key, parts: group ?? [part] });
        }
      }
      if (!constant) continue;
      collapsed = true;
      if (!this.reporting) continue;
      const list = group!;
      const first = Math.min(...list.map((p) => p.index));
      const last = Math.max(...list.map((p) => p.index));
      const span: Span = { start: node.operands[first].span.start, end: node.operands[last].span.end };
      const listed = quoteList(list.map((p) => this.source.slice(p.node.span.start, p.node.span.end)));
      const on = key.startsWith('f:') || key.startsWith(REQUEST_KEY) ? ` on \`${key.slice(2)}\`` : '';
      this.report(
        absorbing,
        span,
        operator === 'and'
          ? `\`${this.source.slice(span.start, span.end)}\` is always false: ${listed} contradict each other${on}, so no ${this.subject} satisfies them all`
          : `\`${this.source.slice(span.start, span.end)}\` is always true: every ${this.subject} satisfies one of ${listed}${on}, so it tests nothing`,
      );
    }
    if (operator === 'and') {
      // Operands on several keys that need a header (`(tcp.dstport == 22 or tcp.srcport == 22)`)
      // count as a group of their own.
      for (let i = 0; i < needing.length; i++) {
        const n = needing[i];
        noteNeed(need, { header: n.header, key: '', parts: [{ key: '', set: TRUE_SET, index: n.index, node: n.node }] });
      }
    } else if (common !== null) {
      for (let i = 0; i < needing.length; i++) common = sameHeader(common, needing[i].header);
    }
    if (!collapsed && need.first && (need.other || proto)) collapsed = this.transportClash(node, need.first, need.other, proto, protoSet);
    if (collapsed) return absorbing ? TRUE_FORM : FALSE_FORM;
    if (!mixed && count === 1) return { kind: 'field', key: parts[0].key, set: onlySet! };
    if (!mixed && count === 0) return absorbing ? FALSE_FORM : TRUE_FORM; // every operand the identity
    const header = operator === 'and' ? need.first?.header : (common ?? undefined);
    return header ? { kind: 'mixed', needs: header } : MIXED;
  }

  /**
   * Whether a run of `and` needs two transport headers (`tcp.dstport == 22 and udp.srcport ==
   * 53`: a packet has one), or a header that its `ip.proto` parts rule out (`ip.proto == "udp"
   * and tcp.dstport == 22`); reported when so, with the parts that contradict each other.
   */
  private transportClash(node: LogicalExpression, needs: HeaderGroup, other: HeaderGroup | undefined, proto: readonly Part[] | undefined, protoSet: ValueSet | undefined): boolean {
    const protocols = PROTOCOL_SETS.get(needs.header)!;
    if (!other && (!protoSet || !isEmpty(intersect(protoSet, protocols)))) return false;
    if (!this.reporting) return true;
    const quoted = (part: Part) => `\`${this.source.slice(part.node.span.start, part.node.span.end)}\``;
    const listed = (parts: readonly Part[]) => quoteList(parts.map((p) => this.source.slice(p.node.span.start, p.node.span.end)));
    // Parts that need the header only together (`tcp.dstport != 1 and not tcp.dstport != 2`) are said to.
    const verb = (parts: readonly Part[], one: string, many: string) => (parts.length === 1 ? one : `together ${many}`);
    const explain = (parts: readonly Part[], one: string, many: string) =>
      parts.map((p) => ({ span: p.node.span, message: parts.length === 1 ? `${quoted(p)}, which ${one}` : `${quoted(p)}, one of ${parts.length} parts that together ${many}` }));
    const onlyFor = (parts: readonly Part[], header: TransportHeader) => explain(parts, `holds only for ${header.label} packets`, `hold only for ${header.label} packets`);
    const headerParts = (group: HeaderGroup) => smallestCause(group.parts, (set) => neededHeader(group.key, set) !== undefined);
    const first = headerParts(needs);
    let second: readonly Part[];
    let message: string;
    let related: { span: Span; message: string }[];
    if (other) {
      second = headerParts(other);
      message = `${listed(first)} ${verb(first, 'holds', 'hold')} only for ${needs.header.label} packets and ${listed(second)} only for ${other.header.label} ones, and no packet is both`;
      related = [...onlyFor(first, needs.header), ...onlyFor(second, other.header)];
    } else {
      second = smallestCause(proto!, (set) => isEmpty(intersect(set, protocols)));
      message = `${listed(first)} ${verb(first, 'holds', 'hold')} only for ${needs.header.label} packets, which ${listed(second)} ${verb(second, 'rules', 'rule')} out, so no packet satisfies them all`;
      related = [...onlyFor(first, needs.header), ...explain(second, `rules out ${needs.header.label} packets`, `rule out ${needs.header.label} packets`)];
    }
    const indexes = [...first, ...second].map((p) => p.index);
    const span: Span = { start: node.operands[Math.min(...indexes)].span.start, end: node.operands[Math.max(...indexes)].span.end };
    this.report(false, span, `\`${this.source.slice(span.start, span.end)}\` is always false: ${message}`, related);
    return true;
  }

  private xor(node: LogicalExpression): Form {
    const forms = node.operands.map((o) => this.form(o));
    const first = forms[0];
    if (first.kind !== 'field' || !forms.every((f) => f.kind === 'field' && f.key === first.key)) return MIXED;
    const universe = universeOf(first.key);
    let set = first.set;
    for (const f of forms.slice(1)) {
      const other = (f as { set: ValueSet }).set;
      set = union(intersect(set, complement(other, universe)), intersect(complement(set, universe), other), universe);
    }
    const text = this.source.slice(node.span.start, node.span.end);
    if (isEmpty(set)) {
      this.report(false, node.span, `\`${text}\` is always false: its operands are always equal, so no ${this.subject} satisfies it`);
      return FALSE_FORM;
    }
    if (isUniverse(set, universe)) {
      this.report(true, node.span, `\`${text}\` is always true: its operands always differ, so it tests nothing`);
      return TRUE_FORM;
    }
    return { kind: 'field', key: first.key, set };
  }
}

/** Parts of one key, in a run of `and`, that need a transport header. */
interface HeaderGroup {
  readonly header: TransportHeader;
  readonly key: string;
  readonly parts: readonly Part[];
}

/** In a run of `and`: the first group that needs a transport header, and the first that needs one of other protocols. */
interface Needs {
  first?: HeaderGroup;
  other?: HeaderGroup;
}

function noteNeed(need: Needs, group: HeaderGroup): void {
  if (!need.first) need.first = group;
  else if (!need.other && isEmpty(intersect(PROTOCOL_SETS.get(group.header)!, PROTOCOL_SETS.get(need.first.header)!))) need.other = group;
}

/**
 * In a run of `or`: the header every group seen so far needs (undefined before the first), with
 * one more group that needs `header`; null once two differ or one needs none.
 */
function sameHeader(common: TransportHeader | undefined | null, header: TransportHeader | undefined): TransportHeader | null {
  return header && (common === undefined || common === header) ? header : null;
}

/** One part that is enough for `holds` by itself, when there is one; else all of them. */
function smallestCause(parts: readonly Part[], holds: (set: ValueSet) => boolean): readonly Part[] {
  const one = parts.find((p) => holds(p.set));
  return one ? [one] : parts;
}

function quoteList(texts: readonly string[]): string {
  const shown = texts.slice(0, 3).map((t) => `\`${t.length > 40 ? `${t.slice(0, 39)}…` : t}\``);
  if (texts.length > 3) shown.push(`${texts.length - 3} more`);
  if (shown.length === 1) return shown[0];
  return shown.length === 2 ? `${shown[0]} and ${shown[1]}` : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

// ---------------------------------------------------------------- expression analyses

/** Sets with more members than this get only the cheap duplicate check. */
const MAX_SET_FOR_COVER = 64;

/**
 * The warnings of the static analyses for an expression that has no errors: `always-false`,
 * `always-true` and `redundant-set-member`.
 */
export function analyzeExpression(root: Expression, source: string, catalogue?: Catalogue): Problem[] {
  return analyze(root, source, catalogue).problems;
}

/**
 * analyzeExpression, with the forms of the tree's nodes it computed: the ruleset's analyses
 * (findShadowedRules) reuse them instead of computing them again.
 */
export function analyze(root: Expression, source: string, catalogue?: Catalogue): { problems: Problem[]; forms: Forms } {
  const problems: Problem[] = [];
  return { problems, forms: analyzeInto(root, source, catalogue, problems) };
}

/** analyze, adding the warnings to `problems` (checkExpression's own list); the forms. */
export function analyzeInto(root: Expression, source: string, catalogue: Catalogue | undefined, problems: Problem[]): Forms {
  const forms = new Forms(source, true, catalogue ? modelOf(catalogue) : 'packet');
  const rootForm = forms.form(root);
  for (let i = 0; i < forms.findings.length; i++) {
    const f = forms.findings[i];
    const found = problem(f.value ? 'always-true' : 'always-false', 'warning', f.span, f.message);
    problems.push(f.related ? { ...found, related: f.related } : found);
  }
  const whole = unwrap(root);
  if (rootForm.kind === 'const' && !forms.findings.some((f) => f.span.start === whole.span.start && f.span.end === whole.span.end)) {
    problems.push(
      problem(
        rootForm.value ? 'always-true' : 'always-false',
        'warning',
        whole.span,
        rootForm.value ? `the whole expression is always true, so this rule matches every ${forms.model === 'http' ? 'request' : 'packet'}` : 'the whole expression is always false, so this rule never matches',
      ),
    );
  }
  // The redundant set members, found as the forms were computed: after the other findings.
  const members = forms.memberProblems;
  if (members) for (let i = 0; i < members.length; i++) problems.push(members[i]);
  forms.doneReporting();
  return forms;
}

/** Whether two of a set's members, all of one family, meet (then one may be redundant): most sets have no two that do. */
function mayHaveRedundantMembers(items: readonly Literal[]): boolean {
  if (items.length < 2) return false;
  const family = memberFamily(items[0]);
  if (!family) return false;
  for (let i = 1; i < items.length; i++) if (memberFamily(items[i]) !== family) return false;
  return anyMeet(items, family);
}

/** The `redundant-set-member` findings of a set literal whose members may be redundant (mayHaveRedundantMembers). */
function redundantMembers(items: readonly Literal[], source: string, problems: Problem[]): void {
  const values = items.map(memberSet) as ValueSet[];
  const text = (i: number) => source.slice(items[i].span.start, items[i].span.end);
  const kept = new Set(items.map((_, i) => i));
  const redundant: { index: number; by: number[] }[] = [];
  if (items.length > MAX_SET_FOR_COVER) {
    // Exact repeats only: the same value written again later.
    const seen = new Map<string, number>();
    items.forEach((_, i) => {
      const key = canonicalValue(values[i]);
      const earlier = seen.get(key);
      if (earlier === undefined) seen.set(key, i);
      else redundant.push({ index: i, by: [earlier] });
    });
  } else {
    // From the last member back: each member covered by the union of the members still kept
    // is dropped, so the members kept at the end cover everything the set did.
    const universe: Universe = values[0].kind === 'strings' ? STRING_UNIVERSE : { kind: 'intervals', items: [[-(1n << 200n), 1n << 200n]] };
    for (let j = items.length - 1; j >= 0; j--) {
      const others = [...kept].filter((i) => i !== j);
      let cover: ValueSet | undefined;
      for (const i of others) cover = cover ? union(cover, values[i], universe) : values[i];
      if (!cover || !isSubset(values[j], cover, universe)) continue;
      kept.delete(j);
      // Name a single member that covers it when there is one, else those that overlap it.
      const single = others.filter((i) => isSubset(values[j], values[i], universe));
      const by = single.length > 0 ? [single.sort((a, b) => a - b)[0]] : others.filter((i) => !isEmpty(intersect(values[j], values[i]))).sort((a, b) => a - b);
      redundant.push({ index: j, by });
    }
  }
  // Members before the first one kept go with the space after them, the others with the space
  // before them: the removals never overlap, so all of them can be applied at once.
  const removed = new Set(redundant.map((r) => r.index));
  let firstKept = 0;
  while (removed.has(firstKept)) firstKept++;
  for (const { index, by } of redundant.sort((a, b) => a.index - b.index)) {
    const member = text(index);
    const equal = by.length === 1 && canonicalValue(values[by[0]]) === canonicalValue(values[index]);
    const coverers = quoteList(by.map(text));
    const message = equal
      ? `\`${member}\` is already in this set${text(by[0]) === member ? '' : ` (as \`${text(by[0])}\`)`}; the repeat adds nothing`
      : `\`${member}\` is already covered by ${coverers} in this set, so it adds nothing`;
    const removal: Span = index > firstKept ? { start: items[index - 1].span.end, end: items[index].span.end } : { start: items[index].span.start, end: items[index + 1].span.start };
    problems.push({
      ...problem('redundant-set-member', 'warning', items[index].span, message, [{ title: `Remove \`${member}\``, edits: [{ span: removal, newText: '' }] }]),
      related: by.map((i) => ({ span: items[i].span, message: equal ? `\`${text(i)}\`, which it repeats` : `\`${text(i)}\`, which covers ${by.length > 1 ? 'part of ' : ''}it` })),
    });
  }
}

/** Whether two of a set's members, all of one family, have a value in common. */
function anyMeet(items: readonly Literal[], family: Reading): boolean {
  if (family === 'bytes') {
    const seen = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      const value = byteString(items[i])!;
      if (seen.has(value)) return true;
      seen.add(value);
    }
    return false;
  }
  // Members written in order, apart, are seen to be in one pass; others are sorted first.
  const all: Interval[] = [];
  let ordered = true;
  let reach: Bound | undefined;
  for (let i = 0; i < items.length; i++) {
    const interval = readInterval(items[i], family)!;
    // A range written backwards (`5..3`) holds no value.
    if (interval[0] > interval[1]) continue;
    if (reach !== undefined && interval[0] <= reach) ordered = false;
    reach = interval[1];
    all.push(interval);
  }
  if (ordered) return false;
  all.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  reach = all[0][1];
  for (let i = 1; i < all.length; i++) {
    if (all[i][0] <= reach) return true;
    if (all[i][1] > reach) reach = all[i][1];
  }
  return false;
}

function canonicalValue(set: ValueSet): string {
  return set.kind === 'strings' ? `s:${[...set.values].join('\u0000')}` : `i:${set.items.map(([lo, hi]) => `${lo}-${hi}`).join(',')}`;
}

// ---------------------------------------------------------------- implication

interface Budget {
  left: number;
}

/**
 * The intersection of the sets of `key` over the conjuncts of `node`, when any is on `key`.
 * For `ip.proto`, a conjunct that needs a transport header counts as the header's protocols.
 */
function conjunctSet(forms: Forms, node: Expression, key: string): ValueSet | undefined {
  let set: ValueSet | undefined;
  const parts = forms.parts(node, 'and').parts;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    let partSet: ValueSet | undefined = part.key === key ? part.set : undefined;
    if (!partSet && key === PROTO_KEY) {
      const header = neededHeader(part.key, part.set);
      if (header) partSet = PROTOCOL_SETS.get(header);
    }
    if (partSet) set = set ? intersect(set, partSet) : partSet;
  }
  return set;
}

/**
 * Whether every packet `b` matches, `a` matches too (sound, not complete): identical
 * expressions, conjunctions of more, set, range and CIDR containment on one field, a transport
 * field's protocol (`tcp.dstport == 23` implies `ip.proto == "tcp"`), and `true`.
 */
export function implies(bf: Forms, b: Expression, af: Forms, a: Expression, budget: Budget = { left: 10_000 }): boolean {
  if (--budget.left < 0) return false;
  b = unwrap(b);
  a = unwrap(a);
  if (a.kind === 'boolean') return a.value;
  if (b.kind === 'boolean') return false;
  const fa = af.form(a);
  // An `a` that is always true (`tcp.dstport >= 0`) has its own warning; only a literal `true`
  // is taken to match every packet, whatever fields the packet has.
  if (fa.kind === 'const') return false;
  const fb = bf.form(b);
  // One model reads identical texts into identical forms: of those on one key, the containment
  // below says the same, so only `mixed` ones need their texts compared.
  if ((af.model !== bf.model || (fa.kind === 'mixed' && fb.kind === 'mixed')) && bf.text(b) === af.text(a)) return true;
  if (fb.kind === 'const') return false;
  if (fa.kind === 'field') {
    const sb = conjunctSet(bf, b, fa.key);
    if (sb && isSubset(sb, fa.set, universeOf(fa.key))) return true;
  }
  // Loops rather than every()/some() with a closure per call: the search makes thousands of calls.
  if (a.kind === 'logical' && a.operator === 'and') {
    let all = true;
    for (let i = 0; all && i < a.operands.length; i++) all = implies(bf, b, af, a.operands[i], budget);
    if (all) return true;
  }
  if (b.kind === 'logical' && b.operator === 'or') {
    let all = true;
    for (let i = 0; all && i < b.operands.length; i++) all = implies(bf, b.operands[i], af, a, budget);
    if (all) return true;
  }
  if (b.kind === 'logical' && b.operator === 'and') for (let i = 0; i < b.operands.length; i++) if (implies(bf, b.operands[i], af, a, budget)) return true;
  if (a.kind === 'logical' && a.operator === 'or') for (let i = 0; i < a.operands.length; i++) if (implies(bf, b, af, a.operands[i], budget)) return true;
  if (a.kind === 'not' && b.kind === 'not') return implies(af, a.operand, bf, b.operand, budget);
  return false;
}

/** Answers of implies for whole expressions, kept as long as both trees (cached per text). */
const implications = new WeakMap<Expression, WeakMap<Expression, boolean>>();

function impliesCached(bf: Forms, b: Expression, af: Forms, a: Expression, budget: Budget): boolean {
  let byA = implications.get(b);
  if (!byA) implications.set(b, (byA = new WeakMap()));
  const known = byA.get(a);
  if (known !== undefined) {
    budget.left--;
    return known;
  }
  const before = budget.left;
  const answer = implies(bf, b, af, a, budget);
  // An answer cut short by the budget is not a real "no": it is not remembered.
  if (answer || budget.left > 0) byA.set(a, answer);
  else budget.left = Math.min(budget.left, before - 1);
  return answer;
}

/**
 * Keys that any `b` found to imply `a` mentions (a subset of them): for indexing the earlier
 * rules so that each later rule is compared with few of them.
 */
function anchors(forms: Forms, node: Expression): readonly string[] {
  node = unwrap(node);
  const form = forms.form(node);
  if (form.kind === 'const') return [];
  if (form.kind === 'field') return [form.key];
  if (node.kind === 'logical' && node.operator === 'and') {
    const all: string[] = [];
    for (const operand of node.operands) for (const key of anchors(forms, operand)) if (!all.includes(key)) all.push(key);
    return all;
  }
  if (node.kind === 'logical' && node.operator === 'or') {
    // The keys every operand has (each list has no repeats); none once one has none in common.
    let common = anchors(forms, node.operands[0]);
    for (let i = 1; i < node.operands.length && common.length > 0; i++) {
      const other = anchors(forms, node.operands[i]);
      common = common.filter((k) => other.includes(k));
    }
    return common;
  }
  return [];
}

/** Whether `keys` has every one of `anchors`. */
function hasEvery(keys: ReadonlySet<string>, anchors: readonly string[]): boolean {
  for (let i = 0; i < anchors.length; i++) if (!keys.has(anchors[i])) return false;
  return true;
}

export interface RuleForAnalysis {
  /** The parsed expression; undefined (or `clean` false) leaves the rule out. */
  readonly ast?: Expression;
  readonly text: string;
  /** The expression has no errors. */
  readonly clean: boolean;
  readonly enabled: boolean;
  /** How the rule ends evaluation for the packets it matches, if it does. */
  readonly decides?: 'block' | 'skip';
  /** Already reported as a repeat of an earlier rule. */
  readonly duplicate?: boolean;
  /**
   * The forms of `ast` the expression's check computed (CheckResult's `forms`), read from
   * `text`; without them they are computed here, by `model`.
   */
  readonly forms?: Forms;
  /** What is known of the fields (the phase's family); `packet` when not given. */
  readonly model?: Model;
}

export interface Shadowing {
  /** Indexes into the rules given. */
  readonly later: number;
  readonly earlier: number;
}

/**
 * Rules that can never decide anything: an earlier enabled rule that blocks or skips the rest
 * of the ruleset matches every packet they match. The work is bounded by the number of rules,
 * so a large ruleset may have shadowed rules left unreported, never a wrong one reported.
 */
export function findShadowedRules(rules: readonly RuleForAnalysis[]): Shadowing[] {
  const found: Shadowing[] = [];
  // Bounded so that a large ruleset of look-alike rules (every pair a candidate) adds tens of
  // milliseconds to a check, not hundreds: `npm run bench` measures it.
  const budget: Budget = { left: 1_000 + 3 * rules.length };
  const byAnchor = new Map<string, { anchors: readonly string[]; rules: { index: number; forms: Forms; ast: Expression }[] }>();
  for (let index = 0; index < rules.length; index++) {
    // The budget only goes down: once spent, no later rule is searched for, nor is one needed as an earlier rule.
    if (budget.left <= 0) break;
    const rule = rules[index];
    if (!rule.enabled || !rule.clean || !rule.ast) continue;
    const forms = rule.forms ?? new Forms(rule.text, false, rule.model);
    const form = forms.form(rule.ast);
    // A rule that never matches is already reported as always false.
    const root = unwrap(rule.ast);
    if ((form.kind === 'const' && !form.value) || (root.kind === 'boolean' && !root.value)) continue;
    if (!rule.duplicate) {
      const keys = forms.keysOf(rule.ast);
      search: for (const bucket of byAnchor.values()) {
        if (!hasEvery(keys, bucket.anchors)) continue;
        for (const earlier of bucket.rules) {
          if (budget.left <= 0) break search;
          if (impliesCached(forms, rule.ast, earlier.forms, earlier.ast, budget)) {
            found.push({ later: index, earlier: earlier.index });
            break search;
          }
        }
      }
    }
    if (!rule.decides) continue;
    const ruleAnchors = (forms.anchors ??= anchors(forms, rule.ast).slice().sort());
    const key = ruleAnchors.join('\u0000');
    let bucket = byAnchor.get(key);
    if (!bucket) byAnchor.set(key, (bucket = { anchors: ruleAnchors, rules: [] }));
    bucket.rules.push({ index, forms, ast: rule.ast });
  }
  return found;
}
