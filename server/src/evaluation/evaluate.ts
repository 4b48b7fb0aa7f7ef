/**
 * Evaluates an expression over a packet (packet.ts) or an HTTP request (request.ts) given as
 * field values.
 *
 * Semantics, and where they come from or only approximate the service:
 * - A field or list the test case does not give is *unknown*, and logic is three-valued
 *   (Kleene): `false and unknown` is false, `true or unknown` is true, `not unknown` and
 *   anything `xor` unknown are unknown. `evaluate` throws MissingValuesError, naming every
 *   field, list and call the result depended on, when the result is unknown; so a test case
 *   need give only the fields that decide, and one that decides nothing is an error rather than
 *   a silent `false`. A call whose value `rulesets test` cannot know (functions.ts says which
 *   and why) is unknown the same way, with its reason.
 * - A *missing* value (value.ts: a header the request does not send, an index past the end, a
 *   transport header the packet does not have) is not unknown: every comparison of it is false,
 *   whatever the operator (`!=` too), and `not` negates that false. The Cloudflare docs say so
 *   (src/content/partials/ruleset-engine/rules-language-missing-value-behavior.mdx); wirefilter
 *   agrees except for `!=`, which takes the scheme's `set_nil_not_equal_behavior`
 *   (engine/src/ast/field_expr.rs), and the docs settle it as false.
 * - Integers compare as 64-bit values; `a & b` is `(a & b) != 0`.
 * - IP addresses: `==`/`!=` and ordering compare within one family; an IPv4 address never
 *   equals, orders against or lies in a range of IPv6 (orderings across families are false).
 * - Strings compare byte by byte (UTF-8 of the given value). A string literal is its
 *   characters' UTF-8 bytes, and an escape (`\xe3`, `\343`) is one byte, as in wirefilter.
 * - `matches`/`~`: the Rust `regex` crate's syntax and byte-oriented semantics (as wirefilter
 *   configures it: `.` is one byte, classes and case folding ASCII unless `(?u)`), checked and
 *   translated by language/regex.ts and matched in linear time by re2js. A few Unicode-mode
 *   constructs (`(?u)` classes and word boundaries) are not evaluated: an EvaluationError says so.
 * - `wildcard` / `strict wildcard`: the whole value against the pattern, `*` any run of bytes,
 *   `\*` and `\\` literal; `wildcard` folds ASCII case only (the `wildcard` crate over bytes).
 * - Index steps, `[*]`, `any`/`all` and logic over Boolean arrays follow wirefilter:
 *   - `x["k"]`, `x[0]`: the map's value under the key, the array's element; none is a missing
 *     value (engine/src/ast/index_expr.rs, `get_nested`);
 *   - `x[*]` walks an array's elements or a map's values (in key order, value.ts); with more than
 *     one `[*]`, or one followed by more steps, elements a later step finds nothing in are
 *     skipped (index_expr.rs, `MapEachIterator`). A comparison over `[*]` is an array of
 *     Booleans, one per element; over a missing value it is an empty array
 *     (index_expr.rs, `compile_vec_with` / `compile_iter_with`);
 *   - a call whose first argument has `[*]` runs once per element and gives the array of its
 *     results, a missing result dropped (ast/function_expr.rs, `map_each`); a missing first
 *     argument makes the call missing;
 *   - `not` of an array negates each element; `and`/`or`/`xor` of arrays combine them element by
 *     element, to the length of the shorter (ast/logical_expr.rs);
 *   - `any(…)` is true when an element is true, `all(…)` when none is false (so `all` of an
 *     empty array is true); `any`/`all` of a field, call or index value that is missing are false
 *     (logical_expr.rs, `Quantifier`).
 * - `bit_slice(h, a, b)` (packets): bits `a` to `b - 1` of header `h`, bit 0 the most significant
 *   bit of its first byte, read from the raw header bytes the packet gives as `h`. Reading past
 *   the bytes given is an error.
 * - The other functions: functions.ts, each with its source.
 * - A `$list` holds what the case's `"$lists"` says of it, else what the lists passed in hold; a
 *   list known to neither is unknown. A stated membership (`true`/`false`) answers `ip.src in
 *   $list` and `ip.dst in $list` of a packet, and `FIELD in $list` of a request, without the value.
 */
import type { RE2JS } from 're2js';
import type { Argument, Comparison, Expression, FunctionCall, IndexedOperand, Literal, Operand, ScalarType, Value as AstValue, ValueType } from '../language/ast';
import { isExpression, isOperand } from '../language/ast';
import { checkExpression, type CheckOptions } from '../language/checker';
import { FIELDS } from '../language/catalogue/fields';
import { transportFieldOf } from '../language/catalogue/transport';
import { arrayOf, isArrayType, typeAfterStep } from '../language/types';
import { callKey, operandKey } from './call-key';
import { CallError, FUNCTION_SEMANTICS, isRefusal, type CallResult } from './functions';
import type { IpRange, ListContents, Lists, Packet } from './packet';
import type { Request } from './request';
import { arrayValue, booleanValue, describeValue, elementsOf, MISSING, type FieldValue, type Item, type Read, type Value } from './value';
import { compileRegex, latin1 } from './regex-match';
import { wildcardMatches } from './wildcard';

/** What an expression is evaluated over. */
export type Subject = Packet | Request;

/** An expression that cannot be evaluated (one the checker rejects, or a bad value). */
export class EvaluationError extends Error {}

/** Why a value that decides is unknown: a field a convenience could not derive, a call that cannot be computed. */
export type Reasons = ReadonlyMap<string, string>;

/** The result depended on fields, lists or calls the test case does not give. */
export class MissingValuesError extends EvaluationError {
  constructor(
    readonly missing: readonly string[],
    readonly reasons: Reasons = new Map(),
    readonly subject: 'packet' | 'request' = 'packet',
  ) {
    super(explainMissing(missing, reasons, subject, 'the result depends on'));
  }
}

/**
 * `the packet has no value for \`tcp.dstport\``, and for lists `nothing says what \`$svc.vpn\`
 * holds (give it in the packet's "$lists" or a lists file)`.
 */
export function describeMissing(missing: readonly string[], subject: 'packet' | 'request' = 'packet'): string {
  const quote = (names: readonly string[]) => names.map((m) => `\`${m}\``).join(', ');
  const fields = missing.filter((m) => !m.startsWith('$'));
  const lists = missing.filter((m) => m.startsWith('$'));
  const parts: string[] = [];
  if (fields.length > 0) parts.push(`the ${subject} has no value for ${quote(fields)}`);
  if (lists.length > 0) parts.push(`nothing says what ${quote(lists)} ${lists.length === 1 ? 'holds' : 'hold'} (give it in the ${subject}'s "$lists" or a lists file)`);
  return parts.join(', and ');
}

/**
 * What a result needs and the test case does not give: `the packet has no value for \`x\`,
 * which this rule needs`; and for a field or call with a reason, `\`f(…)\` is unknown, and this
 * rule needs it: REASON`. `needs` is `this rule needs` or `the result depends on`.
 */
export function explainMissing(missing: readonly string[], reasons: Reasons = new Map(), subject: 'packet' | 'request' = 'packet', needs = 'this rule needs'): string {
  const plain = describeMissing(missing.filter((m) => !reasons.has(m)), subject);
  const parts = plain ? [`${plain}, which ${needs}`] : [];
  for (const m of missing) if (reasons.has(m)) parts.push(`\`${m}\` is unknown, and ${needs} it: ${reasons.get(m)}`);
  return parts.join('; ');
}

export interface PartialResult {
  /** Undefined when unknown: it depends on a missing field, list or call. */
  readonly value: boolean | undefined;
  /** Fields (`ip.src`), lists (`$svc.vpn`) and calls that were consulted and are not known. */
  readonly missing: readonly string[];
  /** Why some of `missing` are unknown; absent when none has a reason. */
  readonly reasons?: Reasons;
}

/** Three-valued evaluation: never throws for missing values (it may for invalid expressions). */
export function evaluatePartial(ast: Expression, subject: Subject, lists: Lists = new Map()): PartialResult {
  const missing = new Set<string>();
  const reasons = new Map<string, string>();
  const evaluator = new Evaluator(subject, lists, missing, reasons);
  const result = evaluator.expression(ast);
  if (typeof result === 'object') {
    throw new EvaluationError('the expression is an array of Booleans (a comparison over `[*]`), not a Boolean: wrap it in `any(…)` or `all(…)`');
  }
  const sorted = [...missing].sort();
  return reasons.size > 0 ? { value: result, missing: sorted, reasons } : { value: result, missing: sorted };
}

/** A value expression's result: its value, MISSING (value.ts), or undefined when it depends on what the subject does not give. */
export interface ValueResult {
  readonly value: Value | typeof MISSING | undefined;
  readonly missing: readonly string[];
  readonly reasons?: Reasons;
}

/**
 * Evaluates a value expression (a rewrite, a redirect target, a header value: one field, call or
 * index, language/checker.ts `checkValueExpression`) over the request, as a filter's operands are.
 */
export function evaluateValuePartial(ast: Operand, subject: Subject, lists: Lists = new Map()): ValueResult {
  const missing = new Set<string>();
  const reasons = new Map<string, string>();
  const value = new Evaluator(subject, lists, missing, reasons).operand(ast);
  const sorted = [...missing].sort();
  if (value !== undefined) return { value, missing: [] };
  return reasons.size > 0 ? { value, missing: sorted, reasons } : { value, missing: sorted };
}

/** The expression's value over the packet or request. Throws MissingValuesError or EvaluationError. */
export function evaluate(ast: Expression, subject: Subject, lists: Lists = new Map()): boolean {
  const result = evaluatePartial(ast, subject, lists);
  if (result.value === undefined) throw new MissingValuesError(result.missing, result.reasons, subjectName(subject));
  return result.value;
}

/** Checks and evaluates an expression's text; an expression with errors throws EvaluationError. */
export function evaluateExpression(text: string, subject: Subject, lists: Lists = new Map(), options: CheckOptions = { phase: isRequest(subject) ? (subject.phase ?? 'http_request_firewall_custom') : 'magic_transit' }): boolean {
  const checked = checkExpression(text, options);
  const error = checked.problems.find((p) => p.severity === 'error');
  if (!checked.ast || error) throw new EvaluationError(`the expression has errors: ${error?.message ?? 'it does not parse'}`);
  return evaluate(checked.ast, subject, lists);
}

/** How messages name the subject: `the packet has no value for …`. */
export function subjectName(subject: Subject): 'packet' | 'request' {
  return isRequest(subject) ? 'request' : 'packet';
}

function isRequest(subject: Subject): subject is Request {
  return 'kind' in subject && subject.kind === 'request';
}

type Truth = boolean | undefined;
/** An array of Booleans (a comparison over `[*]`); `items` undefined: not even its length is known. */
interface Truths {
  readonly items: readonly Truth[] | undefined;
}
type Logic = Truth | Truths;

function isTruths(value: Logic): value is Truths {
  return typeof value === 'object';
}

/** Recursion over the tree is bounded by the parser's nesting limit (128 levels), not by the input. */
class Evaluator {
  private readonly request: Request | undefined;

  constructor(
    private readonly subject: Subject,
    private readonly lists: Lists,
    private readonly missing: Set<string>,
    private readonly reasons: Map<string, string>,
  ) {
    this.request = isRequest(subject) ? subject : undefined;
  }

  expression(node: Expression): Logic {
    switch (node.kind) {
      case 'boolean':
        return node.value;
      case 'group':
        return this.expression(node.inner);
      case 'not': {
        const value = this.expression(node.operand);
        if (isTruths(value)) return { items: value.items?.map((v) => (v === undefined ? undefined : !v)) };
        return value === undefined ? undefined : !value;
      }
      case 'logical':
        return this.logical(node.operator, node.operands);
      case 'quantifier':
        return this.quantifier(node.name.text, node.argument);
      case 'comparison':
        return this.comparison(node);
    }
  }

  private logical(operator: 'and' | 'or' | 'xor', operands: readonly Expression[]): Logic {
    // Every operand is evaluated (no short cut), so that `missing` names all that was unknown.
    const values = operands.map((operand) => this.expression(operand));
    const arrays = values.filter(isTruths);
    if (arrays.length === 0) return combine(operator, values as Truth[]);
    if (arrays.length !== values.length) {
      throw new EvaluationError(`\`${operator}\` combines Booleans, or arrays of Booleans, not one with the other: wrap the array in \`any(…)\` or \`all(…)\``);
    }
    if (arrays.some((a) => a.items === undefined)) return { items: undefined };
    // Element by element, to the length of the shortest (engine/src/ast/logical_expr.rs).
    const length = Math.min(...arrays.map((a) => a.items!.length));
    return { items: Array.from({ length }, (_, i) => combine(operator, arrays.map((a) => a.items![i]))) };
  }

  private quantifier(name: string, argument: Argument): Truth {
    let items: readonly Truth[] | undefined;
    if (isExpression(argument)) {
      const value = this.expression(argument);
      if (!isTruths(value)) throw new EvaluationError(`\`${name}(…)\` reduces an array of Booleans, such as \`http.request.headers.names[*] == "x"\`; its argument is a single Boolean`);
      items = value.items;
    } else if (isOperand(argument)) {
      const value = this.operand(argument);
      // A field, call or index value that is missing: false for both (logical_expr.rs).
      if (value === MISSING) return false;
      if (value === undefined) items = undefined;
      else if (value.type !== 'Array') throw new EvaluationError(`\`${name}(…)\` reduces an array of Booleans, not ${describeValue(value)}`);
      else items = value.items.map((item) => booleanOf(item, name));
    } else {
      throw new EvaluationError(`\`${name}(…)\` reduces an array of Booleans, not a literal`);
    }
    if (items === undefined) return undefined;
    if (name === 'any') return items.includes(true) ? true : items.includes(undefined) ? undefined : false;
    return items.includes(false) ? false : items.includes(undefined) ? undefined : true;
  }

  private comparison(node: Comparison): Logic {
    const { lhs, operator, rhs } = node;
    // A stated membership (`"$lists": {"svc.vpn": true}`) is about the subject's values
    // whatever they are: the value itself is not needed.
    if (rhs?.kind === 'list' && operator?.operator === 'in' && lhs.kind === 'field' && this.statesMembership(lhs.name)) {
      const list = this.subject.lists.get(rhs.name) ?? this.lists.get(rhs.name);
      if (list && 'membership' in list) return list.membership;
    }
    if (!operator || !rhs) return this.alone(lhs);
    if (lhs.kind === 'index' && lhs.steps.some((s) => s.kind === 'each')) {
      // A comparison over `[*]`: one Boolean per element; none over a missing value.
      const value = this.operand(lhs);
      if (rhs.kind === 'list') this.list(rhs.name);
      if (value === MISSING) return { items: [] };
      if (value === undefined) return { items: undefined };
      if (value.type !== 'Array') throw new EvaluationError(`\`${describeOperand(lhs)}\` is not an array`);
      return { items: value.items.map((item) => (item === undefined ? undefined : this.compareValue(item, operator.operator, operator.text, rhs, lhs))) };
    }
    const value = this.operand(lhs);
    // Lists are still looked up, so that a missing one is reported whatever the value.
    if (value === MISSING) {
      if (rhs.kind === 'list') this.list(rhs.name);
      return false;
    }
    if (value === undefined) {
      if (rhs.kind === 'list') this.list(rhs.name);
      return undefined;
    }
    return this.compareValue(value, operator.operator, operator.text, rhs, lhs);
  }

  /** A field, call or index value standing alone: a Boolean, or an array of them. */
  private alone(lhs: Operand): Logic {
    const value = this.operand(lhs);
    if (value === MISSING || value === undefined) {
      const type = this.typeOf(lhs);
      const array = type !== undefined && isArrayType(type);
      if (value === MISSING) return array ? { items: [] } : false;
      return array ? { items: undefined } : undefined;
    }
    if (value.type === 'Boolean') return value.value;
    if (value.type === 'Array' && value.items.every((item) => item === undefined || item.type === 'Boolean')) return { items: value.items.map((item) => booleanOf(item, '')) };
    throw new EvaluationError(`\`${describeOperand(lhs)}\` is not a Boolean: compare it with a value`);
  }

  private compareValue(left: Value, operator: string, spelling: string, rhs: AstValue, lhs: Operand): Truth {
    if (left.type === 'Array' || left.type === 'Map') {
      throw new EvaluationError(`\`${spelling}\` cannot compare ${describeValue(left)} (\`${describeOperand(lhs)}\`): index it (\`[0]\`, \`["key"]\`), or compare each element with \`[*]\` inside \`any(…)\``);
    }
    if (operator === 'in') {
      if (rhs.kind === 'list') {
        const list = this.list(rhs.name);
        if (list === undefined) return undefined;
        if (left.type !== 'Ip') throw new EvaluationError(`lists hold IP addresses; \`${describeOperand(lhs)}\` is not one${this.request ? ' (for a list of other values, state whether the request is in it: `"$lists": {"' + rhs.name + '": true}`)' : ''}`);
        if ('membership' in list) return list.membership;
        return list.some((range) => inRange(left, range));
      }
      if (rhs.kind !== 'set') throw new EvaluationError(`\`in\` needs a \`{…}\` set or a \`$list\``);
      return rhs.items.some((item) => matchesItem(left, item));
    }
    if (rhs.kind === 'set' || rhs.kind === 'list') throw new EvaluationError(`\`${spelling}\` compares with one value; use \`in\` for a set or list`);
    return compare(left, operator, rhs, spelling);
  }

  private statesMembership(field: string): boolean {
    // In a packet, lists hold addresses and a stated membership is the addresses'.
    if (!this.request) return FIELDS.get(field)?.type === 'Ip';
    return true;
  }

  // ---------------------------------------------------------------- values

  /** A field, call or index expression's value. */
  operand(node: Operand): Read {
    if (node.kind === 'field') return this.field(node.name);
    if (node.kind === 'call') return this.call(node);
    return this.indexed(node);
  }

  private field(name: string): Read {
    if (this.request) {
      const value = this.request.fields.get(name);
      if (value) return value;
      if (!this.request.catalogue.fields.has(name)) throw new EvaluationError(`unknown field \`${name}\``);
      const reason = this.request.underivable.get(name);
      if (reason) this.reasons.set(name, reason);
      this.missing.add(name);
      return undefined;
    }
    const packet = this.subject as Packet;
    const value = packet.fields.get(name);
    if (value) return value;
    if (!FIELDS.has(name)) throw new EvaluationError(`unknown field \`${name}\``);
    if (this.headerAbsent(name)) return MISSING;
    this.missing.add(name);
    return undefined;
  }

  /** Whether `name` is (a field of) a transport header that the packet's `ip.proto` rules out. */
  private headerAbsent(name: string): boolean {
    const protocols = transportFieldOf(name)?.header.protocols;
    const proto = (this.subject as Packet).fields.get('ip.proto');
    if (!protocols || proto?.type !== 'Bytes') return false;
    const protoName = new TextDecoder().decode(proto.bytes);
    return !protocols.includes(protoName);
  }

  private list(name: string): ListContents | undefined {
    const list = this.subject.lists.get(name) ?? this.lists.get(name);
    if (!list) this.missing.add(`$${name}`);
    return list;
  }

  /**
   * Index steps after a field or call (index_expr.rs): without `[*]`, the value they lead to (a
   * step that finds nothing: missing); with one `[*]` last, the elements of what the steps
   * before it lead to; otherwise every element the steps lead to, skipping those a step finds
   * nothing in. Missing when the value indexed is.
   */
  private indexed(node: IndexedOperand): Read {
    const target = this.operand(node.target);
    const steps = node.steps;
    const eachAt = steps.findIndex((s) => s.kind === 'each');
    if (target === MISSING || target === undefined) return target;
    if (eachAt < 0) return walk(target, steps);
    if (eachAt === steps.length - 1) {
      const container = walk(target, steps.slice(0, -1));
      if (container === MISSING || container === undefined) return container;
      if (container.type !== 'Array' && container.type !== 'Map') throw new EvaluationError(`\`[*]\` walks an array or a map; \`${describeOperand(node)}\` steps into ${describeValue(container)}`);
      return arrayValue(elementsOf(container));
    }
    // Several `[*]`, or steps after one: depth first, as wirefilter's iterator walks them.
    const out: Item[] = [];
    const stack: { value: Item; depth: number }[] = [{ value: target, depth: 0 }];
    while (stack.length > 0) {
      const { value, depth } = stack.pop()!;
      if (depth === steps.length) {
        out.push(value);
        continue;
      }
      if (value === undefined) return undefined; // an unknown element to step into: the whole is unknown
      const step = steps[depth];
      if (step.kind === 'each') {
        if (value.type !== 'Array' && value.type !== 'Map') throw new EvaluationError(`\`[*]\` walks an array or a map, not ${describeValue(value)}`);
        const elements = elementsOf(value);
        for (let i = elements.length - 1; i >= 0; i--) stack.push({ value: elements[i], depth: depth + 1 });
      } else {
        const next = walk(value, [step]);
        if (next !== MISSING) stack.push({ value: next, depth: depth + 1 });
      }
    }
    return arrayValue(out);
  }

  private call(node: FunctionCall): Read {
    const name = node.name.text;
    if (!this.request) return this.bitSlice(node);
    const first = node.args[0];
    const mapped = first !== undefined && first.kind === 'index' && first.steps.some((s) => s.kind === 'each');
    const key = mapped ? undefined : callKey(node);
    if (key !== undefined && this.request.calls.has(key)) return this.request.calls.get(key)!;
    const fn = this.request.catalogue.functions.get(name);
    const semantics = FUNCTION_SEMANTICS.get(name);
    if (name === 'bit_slice') throw new EvaluationError('`bit_slice` reads the raw headers of a packet, and an HTTP request has none: it belongs to the Magic Transit phases');
    if (!fn || fn.quantifier || !semantics) throw new EvaluationError(`unknown function \`${name}\``);
    const label = key ?? `${name}(…)`;
    if (semantics.kind !== 'implemented') {
      const why =
        semantics.kind === 'undocumented'
          ? `the Cloudflare docs' functions reference does not describe \`${name}\`, and \`rulesets test\` does not guess what it returns`
          : `\`${name}\` gives a new random value for every request`;
      return this.refused(label, key === undefined ? `${why}; a call over \`[*]\` cannot be given` : `${why}; give its value in the request: \`'${key}': …\``);
    }
    const rest = node.args.slice(mapped ? 1 : 0).map((arg) => this.argument(arg));
    if (!mapped) return this.settle(label, this.apply(name, semantics, rest, key));
    // The call once per element of its first argument, a missing result dropped (function_expr.rs).
    const elements = this.operand(first as IndexedOperand);
    if (elements === MISSING || elements === undefined) return elements;
    if (elements.type !== 'Array') throw new EvaluationError(`\`${describeOperand(first as Operand)}\` is not an array`);
    const items: Item[] = [];
    for (const element of elements.items) {
      // An element that is unknown, or whose result is, might be dropped (a missing result
      // is): then not even the array's length is known.
      if (element === undefined) return undefined;
      const result = this.apply(name, semantics, [element, ...rest]);
      if (result === MISSING) continue;
      if (isRefusal(result)) return this.refused(label, result.refused);
      if (result === undefined) return undefined;
      items.push(result);
    }
    return arrayValue(items);
  }

  /** A function over its arguments' values, missing and unknown ones as functions.ts says. */
  private apply(name: string, semantics: Extract<typeof FUNCTION_SEMANTICS extends ReadonlyMap<string, infer S> ? S : never, { kind: 'implemented' }>, args: readonly Read[], key?: string): CallResult {
    if (args.includes(undefined)) return undefined;
    let present = args as readonly (Value | typeof MISSING)[];
    if (present.includes(MISSING)) {
      if (semantics.onMissing === 'propagate') return MISSING;
      if (semantics.onMissing === 'refuse') {
        const give = key === undefined ? '' : `, or give its value in the request: \`'${key}': …\``;
        return { refused: `an argument of \`${name}\` is a missing value (a header or key the request does not have, an index past the end), and the docs say only that a call then gives a missing value "in most cases", not for \`${name}\`; write the rule with \`[*]\` inside \`any(…)\`${give}` };
      }
      present = present.filter((a) => a !== MISSING);
    }
    try {
      return semantics.apply(present as readonly Value[], name);
    } catch (error) {
      if (error instanceof CallError) throw new EvaluationError(error.message);
      throw error;
    }
  }

  /** A call's result as a value: a refusal becomes unknown, with its reason. */
  private settle(label: string, result: CallResult): Read {
    return isRefusal(result) ? this.refused(label, result.refused) : result;
  }

  private refused(label: string, reason: string): undefined {
    this.missing.add(label);
    this.reasons.set(label, reason);
    return undefined;
  }

  /** An argument's value: a field, call or index value, a literal, or a logical expression's Boolean(s). */
  private argument(arg: Argument): Read {
    if (isOperand(arg)) return this.operand(arg);
    if (isExpression(arg)) {
      const value = this.expression(arg);
      if (isTruths(value)) return value.items === undefined ? undefined : arrayValue(value.items.map((v) => (v === undefined ? undefined : booleanValue(v))));
      return value === undefined ? undefined : booleanValue(value);
    }
    return literalValue(arg);
  }

  /** The packet phases' one function: bit_slice over a raw header. */
  private bitSlice(call: FunctionCall): Read {
    if (call.name.text !== 'bit_slice') throw new EvaluationError(`unknown function \`${call.name.text}\``);
    const [header, start, end] = call.args;
    const headerName = header?.kind === 'field' ? header.name : header?.kind === 'string' ? header.value : undefined;
    if (call.args.length !== 3 || !headerName || !['ip', 'tcp', 'udp', 'icmp'].includes(headerName) || start.kind !== 'integer' || end.kind !== 'integer') {
      throw new EvaluationError('`bit_slice` takes a header (ip, tcp, udp or icmp) and two bit offsets');
    }
    const from = Number(start.value);
    const to = Number(end.value);
    if (from < 0 || to <= from || to - from > 32) throw new EvaluationError(`\`bit_slice\` cannot read bits ${from} to ${to}`);
    const bytes = this.field(headerName);
    if (bytes === undefined || bytes === MISSING) return bytes;
    if (bytes.type !== 'Bytes') throw new EvaluationError(`\`${headerName}\` is not a header`);
    const value = bitSlice(bytes.bytes, from, to);
    if (value === undefined) {
      throw new EvaluationError(`\`bit_slice(${headerName}, ${from}, ${to})\` reads past the ${bytes.bytes.length} bytes of \`${headerName}\` the packet gives`);
    }
    return { type: 'Integer', value };
  }

  // ---------------------------------------------------------------- static types

  /** An operand's type as the catalogue gives it (undefined where unknown): says whether a missing value stands for a Boolean or an array of them. */
  private typeOf(node: Operand): ValueType | undefined {
    if (node.kind === 'field') return this.request ? this.request.catalogue.fields.get(node.name)?.type : FIELDS.get(node.name)?.type;
    if (node.kind === 'call') {
      if (!this.request) return 'Integer';
      const fn = this.request.catalogue.functions.get(node.name.text);
      if (!fn) return undefined;
      const first = node.args[0];
      let result: ValueType | undefined = fn.result === 'first-argument' ? (first === undefined ? undefined : this.argumentType(first)) : fn.result;
      const mapped = first?.kind === 'index' && first.steps.some((s) => s.kind === 'each');
      if (mapped && result !== undefined) result = arrayOf(result);
      return result;
    }
    let type = this.typeOf(node.target);
    for (const step of node.steps) type = type && typeAfterStep(type, step.kind);
    return type !== undefined && node.steps.some((s) => s.kind === 'each') ? arrayOf(type) : type;
  }

  private argumentType(arg: Argument): ValueType | undefined {
    if (isOperand(arg)) return this.typeOf(arg);
    if (isExpression(arg)) return undefined;
    return LITERAL_TYPES[arg.kind];
  }
}

const LITERAL_TYPES: Partial<Record<Literal['kind'], ScalarType>> = { string: 'Bytes', bytes: 'Bytes', integer: 'Integer', ip: 'Ip' };

function combine(operator: 'and' | 'or' | 'xor', values: readonly Truth[]): Truth {
  if (operator === 'and') return values.includes(false) ? false : values.includes(undefined) ? undefined : true;
  if (operator === 'or') return values.includes(true) ? true : values.includes(undefined) ? undefined : false;
  if (values.includes(undefined)) return undefined;
  return values.reduce((a, b) => a !== b);
}

function booleanOf(item: Item, where: string): Truth {
  if (item === undefined) return undefined;
  if (item.type !== 'Boolean') throw new EvaluationError(`${where ? `\`${where}(…)\` reduces` : 'expected'} an array of Booleans, found an element that is ${describeValue(item)}`);
  return item.value;
}

/** Steps without `[*]` from a value: a map's value under a key, an array's element; missing where there is none. */
function walk(value: Value, steps: readonly IndexedOperand['steps'][number][]): Read {
  let at: Item = value;
  for (const step of steps) {
    if (at === undefined) return undefined;
    if (step.kind === 'key') {
      if (at.type !== 'Map') throw new EvaluationError(`\`["${step.key}"]\` looks up a key of a map, not of ${describeValue(at)}`);
      const found: Value | undefined = at.byKey.get(step.key);
      if (found === undefined) return MISSING;
      at = found;
    } else if (step.kind === 'element') {
      if (at.type !== 'Array') throw new EvaluationError(`\`[${step.index}]\` takes an element of an array, not of ${describeValue(at)}`);
      if (step.index >= at.items.length) return MISSING;
      at = at.items[step.index];
    } else {
      throw new EvaluationError('`[*]` here is walked by the caller');
    }
  }
  return at;
}

/** A literal argument's value. */
function literalValue(literal: Literal): Value {
  switch (literal.kind) {
    case 'string':
      return { type: 'Bytes', bytes: bytesOfLiteral(literal, 'the argument') };
    case 'bytes':
      return { type: 'Bytes', bytes: Uint8Array.from(literal.bytes) };
    case 'integer':
      return { type: 'Integer', value: literal.value };
    case 'ip':
      return { type: 'Ip', family: literal.family, value: literal.value };
    default:
      throw new EvaluationError(`\`${literal.kind === 'invalid' ? literal.text : literal.kind}\` is not a value an argument takes`);
  }
}

/** An operand as messages show it: `http.request.headers["x"][0]`, `lower(…)`. */
function describeOperand(node: Operand): string {
  return operandKey(node) ?? (node.kind === 'field' ? node.name : node.kind === 'call' ? `${node.name.text}(…)` : `${describeOperand(node.target)}[…]`);
}

/** Bits [from, to) of `bytes`, most significant bit first; undefined past the end. */
export function bitSlice(bytes: Uint8Array, from: number, to: number): bigint | undefined {
  if (to > bytes.length * 8) return undefined;
  let value = 0n;
  for (let bit = from; bit < to; bit++) {
    const set = (bytes[bit >> 3] >> (7 - (bit & 7))) & 1;
    value = (value << 1n) | BigInt(set);
  }
  return value;
}

function inRange(value: FieldValue & { type: 'Ip' }, range: IpRange): boolean {
  return value.family === range.family && value.value >= range.first && value.value <= range.last;
}

function matchesItem(left: FieldValue, item: Literal): boolean {
  switch (item.kind) {
    case 'integer-range':
      return integerOf(left, 'in') >= item.from && integerOf(left, 'in') <= item.to;
    case 'ip-range':
      return inRange(ipOf(left, 'in'), item);
    default:
      return compare(left, 'eq', item, 'in');
  }
}

function compare(left: FieldValue, operator: string, rhs: Literal, spelling: string): boolean {
  switch (left.type) {
    case 'Integer': {
      if (rhs.kind !== 'integer') throw mismatch('an integer', rhs, spelling);
      const a = left.value;
      const b = rhs.value;
      if (operator === 'bitwise_and') return (a & b) !== 0n;
      return order(a < b ? -1 : a > b ? 1 : 0, operator, spelling);
    }
    case 'Ip': {
      if (rhs.kind !== 'ip') throw mismatch('an IP address', rhs, spelling);
      if (left.family !== rhs.family) {
        if (operator === 'eq' || operator === 'ne') return operator === 'ne';
        if (['lt', 'le', 'gt', 'ge'].includes(operator)) return false;
      }
      return order(left.value < rhs.value ? -1 : left.value > rhs.value ? 1 : 0, operator, spelling);
    }
    case 'Bytes': {
      const pattern = bytesOfLiteral(rhs, spelling);
      switch (operator) {
        case 'contains':
          return indexOf(left.bytes, pattern) >= 0;
        case 'matches':
          return regex(rhs, spelling).test(latin1(left.bytes));
        case 'wildcard':
          return wildcardMatches(pattern, left.bytes, true);
        case 'strict_wildcard':
          return wildcardMatches(pattern, left.bytes, false);
        default:
          return order(compareBytes(left.bytes, pattern), operator, spelling);
      }
    }
    case 'Boolean':
      throw new EvaluationError('a Boolean field takes no operator or value');
  }
}

function order(sign: number, operator: string, spelling: string): boolean {
  switch (operator) {
    case 'eq':
      return sign === 0;
    case 'ne':
      return sign !== 0;
    case 'lt':
      return sign < 0;
    case 'le':
      return sign <= 0;
    case 'gt':
      return sign > 0;
    case 'ge':
      return sign >= 0;
    default:
      throw new EvaluationError(`\`${spelling}\` cannot be used here`);
  }
}

function integerOf(value: FieldValue, spelling: string): bigint {
  if (value.type !== 'Integer') throw new EvaluationError(`\`${spelling}\`: an integer range needs an Integer on the left`);
  return value.value;
}

function ipOf(value: FieldValue, spelling: string): FieldValue & { type: 'Ip' } {
  if (value.type !== 'Ip') throw new EvaluationError(`\`${spelling}\`: an address range needs an IP address on the left`);
  return value;
}

function mismatch(expected: string, rhs: AstValue, spelling: string): EvaluationError {
  return new EvaluationError(`\`${spelling}\` expects ${expected}, found ${rhs.kind === 'invalid' ? `\`${rhs.text}\`` : `a ${rhs.kind} value`}`);
}

/** A string or bytes literal as bytes: characters up to U+00FF are one byte, others UTF-8. */
function bytesOfLiteral(rhs: Literal, spelling: string): Uint8Array {
  if (rhs.kind === 'bytes') return Uint8Array.from(rhs.bytes);
  if (rhs.kind !== 'string') throw mismatch('a string', rhs, spelling);
  return rhs.bytes ? Uint8Array.from(rhs.bytes) : literalBytes(rhs.value);
}

/**
 * The UTF-8 bytes of a string literal's value. A quoted string with an escape of a byte
 * 0x80–0xFF carries its exact bytes instead (StringLiteral.bytes).
 */
export function literalBytes(value: string): Uint8Array {
  const out: number[] = [];
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) out.push(code);
    else for (const b of new TextEncoder().encode(char)) out.push(b);
  }
  return Uint8Array.from(out);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The regex of `matches` (regex-match.ts). */
function regex(rhs: Literal, spelling: string): RE2JS {
  if (rhs.kind !== 'string') throw mismatch('a string', rhs, spelling);
  const compiled = compileRegex(rhs.value);
  if ('problem' in compiled) throw new EvaluationError(compiled.problem);
  return compiled;
}
