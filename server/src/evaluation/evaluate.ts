/**
 * Evaluates an expression over a packet given as field values (see packet.ts).
 *
 * Semantics, and where they only approximate the service:
 * - A field or list the packet does not give is *unknown*, and logic is three-valued
 *   (Kleene): `false and unknown` is false, `true or unknown` is true, `not unknown` and
 *   anything `xor` unknown are unknown. `evaluate` throws MissingValuesError, naming every
 *   field and list the result depended on, when the result is unknown; so a test packet
 *   need give only the fields that decide, and a packet that decides nothing is an error
 *   rather than a silent `false`.
 * - Integers compare as 64-bit values; `a & b` is `(a & b) != 0`.
 * - IP addresses: `==`/`!=` and ordering compare within one family; an IPv4 address never
 *   equals, orders against or lies in a range of IPv6 (orderings across families are false).
 * - Strings compare byte by byte (UTF-8 of the packet's value). A string literal is its
 *   characters' UTF-8 bytes, and an escape (`\xe3`, `\343`) is one byte, as in wirefilter.
 * - `matches`/`~`: the Rust `regex` crate's syntax and byte-oriented semantics (as wirefilter
 *   configures it: `.` is one byte, classes and case folding ASCII unless `(?u)`), checked and
 *   translated by language/regex.ts and matched in linear time by re2js. A few Unicode-mode
 *   constructs (`(?u)` classes and word boundaries) are not evaluated: an EvaluationError says so.
 * - `wildcard` / `strict wildcard`: the whole value against the pattern, `*` any run of bytes,
 *   `\*` and `\\` literal; `wildcard` folds ASCII case only (the `wildcard` crate over bytes).
 * - `bit_slice(h, a, b)`: bits `a` to `b - 1` of header `h`, bit 0 the most significant bit of
 *   its first byte, read from the raw header bytes the packet gives as `h`. Reading past
 *   the bytes given is an error.
 * - A `$list` holds what the packet's `"$lists"` says of it, else what the lists passed in
 *   hold; a list known to neither is unknown. A stated membership (`true`/`false`) answers
 *   `ip.src in $list` and `ip.dst in $list` without the address.
 * - A field of a transport header the packet does not have is *absent*, not unknown: when
 *   the packet gives `ip.proto` and it is not `"tcp"`, the `tcp.*` fields and `tcp` are absent
 *   (likewise `udp.*`, `udp` and `sip`, and `icmp.*` and `icmp` for `"icmp"` or `"ipv6-icmp"`;
 *   language/catalogue/transport.ts has the table). Every comparison of an absent value is
 *   false, whatever the operator (`!=` too), and `not` negates that false. The reference
 *   engine agrees except for `!=`: wirefilter takes `!=` of a missing value as true unless
 *   the scheme sets it false (`SchemeBuilder::set_nil_not_equal_behavior`), and which the
 *   service does is not documented. The static analyses claim nothing that depends on it.
 */
import { RE2JS } from 're2js';
import type { Comparison, Expression, FunctionCall, Literal, Value } from '../language/ast';
import { checkExpression, type CheckOptions } from '../language/checker';
import { FIELDS } from '../language/catalogue/fields';
import { transportFieldOf } from '../language/catalogue/transport';
import type { FieldValue, IpRange, ListContents, Lists, Packet } from './packet';
import { checkRegex } from '../language/regex';

/** An expression that cannot be evaluated (one the checker rejects, or a bad value). */
export class EvaluationError extends Error {}

/** The result depended on fields or lists the packet does not give. */
export class MissingValuesError extends EvaluationError {
  constructor(readonly missing: readonly string[]) {
    super(`${describeMissing(missing)}, which the result depends on`);
  }
}

/**
 * `the packet has no value for \`tcp.dstport\``, and for lists `nothing says what \`$svc.vpn\`
 * holds (give it in the packet's "$lists" or a lists file)`.
 */
export function describeMissing(missing: readonly string[]): string {
  const quote = (names: readonly string[]) => names.map((m) => `\`${m}\``).join(', ');
  const fields = missing.filter((m) => !m.startsWith('$'));
  const lists = missing.filter((m) => m.startsWith('$'));
  const parts: string[] = [];
  if (fields.length > 0) parts.push(`the packet has no value for ${quote(fields)}`);
  if (lists.length > 0) parts.push(`nothing says what ${quote(lists)} ${lists.length === 1 ? 'holds' : 'hold'} (give it in the packet's "$lists" or a lists file)`);
  return parts.join(', and ');
}

export interface PartialResult {
  /** Undefined when unknown: it depends on a missing field or list. */
  readonly value: boolean | undefined;
  /** Fields (`ip.src`) and lists (`$svc.vpn`) that were consulted and are not given. */
  readonly missing: readonly string[];
}

/** Three-valued evaluation: never throws for missing values (it may for invalid expressions). */
export function evaluatePartial(ast: Expression, packet: Packet, lists: Lists = new Map()): PartialResult {
  const missing = new Set<string>();
  const value = new Evaluator(packet, lists, missing).expression(ast);
  return { value, missing: [...missing].sort() };
}

/** The expression's value over the packet. Throws MissingValuesError or EvaluationError. */
export function evaluate(ast: Expression, packet: Packet, lists: Lists = new Map()): boolean {
  const result = evaluatePartial(ast, packet, lists);
  if (result.value === undefined) throw new MissingValuesError(result.missing);
  return result.value;
}

/** Checks and evaluates an expression's text; an expression with errors throws EvaluationError. */
export function evaluateExpression(text: string, packet: Packet, lists: Lists = new Map(), options: CheckOptions = { phase: 'magic_transit' }): boolean {
  const checked = checkExpression(text, options);
  const error = checked.problems.find((p) => p.severity === 'error');
  if (!checked.ast || error) throw new EvaluationError(`the expression has errors: ${error?.message ?? 'it does not parse'}`);
  return evaluate(checked.ast, packet, lists);
}

type Truth = boolean | undefined;

/** The value of a field of a header the packet does not have. */
const ABSENT = Symbol('absent');
type Operand = FieldValue | typeof ABSENT | undefined;

class Evaluator {
  constructor(
    private readonly packet: Packet,
    private readonly lists: Lists,
    private readonly missing: Set<string>,
  ) {}

  expression(node: Expression): Truth {
    switch (node.kind) {
      case 'boolean':
        return node.value;
      case 'group':
        return this.expression(node.inner);
      case 'not': {
        const value = this.expression(node.operand);
        return value === undefined ? undefined : !value;
      }
      case 'logical':
        return this.logical(node.operator, node.operands);
      case 'comparison':
        return this.comparison(node);
    }
  }

  private logical(operator: 'and' | 'or' | 'xor', operands: readonly Expression[]): Truth {
    // Every operand is evaluated (no short cut), so that `missing` names all that was unknown.
    const values = operands.map((operand) => this.expression(operand));
    if (operator === 'and') return values.includes(false) ? false : values.includes(undefined) ? undefined : true;
    if (operator === 'or') return values.includes(true) ? true : values.includes(undefined) ? undefined : false;
    if (values.includes(undefined)) return undefined;
    return values.reduce((a, b) => a !== b);
  }

  private comparison(node: Comparison): Truth {
    // A stated membership (`"$lists": {"svc.vpn": true}`) is about the packet's addresses
    // whatever they are: the address itself is not needed.
    if (node.rhs?.kind === 'list' && node.operator?.operator === 'in' && node.lhs.kind === 'field' && FIELDS.get(node.lhs.name)?.type === 'Ip') {
      const list = this.packet.lists.get(node.rhs.name) ?? this.lists.get(node.rhs.name);
      if (list && 'membership' in list) return list.membership;
    }
    const operand = this.operand(node);
    // Lists are still looked up, so that a missing one is reported whatever the packet.
    if (operand === ABSENT) {
      if (node.rhs?.kind === 'list') this.list(node.rhs.name);
      return false;
    }
    const left = operand;
    if (!node.operator || !node.rhs) {
      if (left === undefined) return undefined;
      if (left.type !== 'Boolean') throw new EvaluationError(`\`${this.name(node)}\` is not a Boolean: compare it with a value`);
      return left.value;
    }
    const operator = node.operator.operator;
    const rhs = node.rhs;
    if (operator === 'in') {
      if (rhs.kind === 'list') {
        const list = this.list(rhs.name);
        if (left === undefined || list === undefined) return undefined;
        if (left.type !== 'Ip') throw new EvaluationError(`lists hold IP addresses; \`${this.name(node)}\` is not one`);
        if ('membership' in list) return list.membership;
        return list.some((range) => inRange(left, range));
      }
      if (rhs.kind !== 'set') throw new EvaluationError(`\`in\` needs a \`{…}\` set or a \`$list\``);
      if (left === undefined) return undefined;
      return rhs.items.some((item) => matchesItem(left, item));
    }
    if (rhs.kind === 'set' || rhs.kind === 'list') throw new EvaluationError(`\`${node.operator.text}\` compares with one value; use \`in\` for a set or list`);
    if (left === undefined) return undefined;
    return compare(left, operator, rhs, node.operator.text);
  }

  private name(node: Comparison): string {
    const lhs = node.lhs;
    if (lhs.kind === 'index') throw new EvaluationError('index expressions are not evaluated yet');
    return lhs.kind === 'field' ? lhs.name : `${lhs.name.text}(…)`;
  }

  private operand(node: Comparison): Operand {
    const lhs = node.lhs;
    if (lhs.kind === 'call') return this.call(lhs);
    if (lhs.kind === 'index') throw new EvaluationError('index expressions are not evaluated yet');
    return this.field(lhs.name);
  }

  private field(name: string): Operand {
    const value = this.packet.fields.get(name);
    if (value) return value;
    if (!FIELDS.has(name)) throw new EvaluationError(`unknown field \`${name}\``);
    if (this.headerAbsent(name)) return ABSENT;
    this.missing.add(name);
    return undefined;
  }

  /** Whether `name` is (a field of) a transport header that the packet's `ip.proto` rules out. */
  private headerAbsent(name: string): boolean {
    const protocols = transportFieldOf(name)?.header.protocols;
    const proto = this.packet.fields.get('ip.proto');
    if (!protocols || proto?.type !== 'Bytes') return false;
    const protoName = new TextDecoder().decode(proto.bytes);
    return !protocols.includes(protoName);
  }

  private list(name: string): ListContents | undefined {
    const list = this.packet.lists.get(name) ?? this.lists.get(name);
    if (!list) this.missing.add(`$${name}`);
    return list;
  }

  private call(call: FunctionCall): Operand {
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
    if (bytes === undefined || bytes === ABSENT) return bytes;
    if (bytes.type !== 'Bytes') throw new EvaluationError(`\`${headerName}\` is not a header`);
    const value = bitSlice(bytes.bytes, from, to);
    if (value === undefined) {
      throw new EvaluationError(`\`bit_slice(${headerName}, ${from}, ${to})\` reads past the ${bytes.bytes.length} bytes of \`${headerName}\` the packet gives`);
    }
    return { type: 'Integer', value };
  }
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

function mismatch(expected: string, rhs: Value, spelling: string): EvaluationError {
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

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return text;
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

/** Compiled patterns by source; cleared when full, as a rule set has few distinct ones. */
const regexCache = new Map<string, RE2JS>();
const REGEX_CACHE_SIZE = 1000;

/**
 * The regex of `matches`, compiled for re2js (linear-time matching) from its translation to
 * RE2 syntax over Latin-1 text: the value's bytes are matched one character per byte, as the
 * reference's byte-oriented regex does.
 */
function regex(rhs: Literal, spelling: string): RE2JS {
  if (rhs.kind !== 'string') throw mismatch('a string', rhs, spelling);
  const source = rhs.value;
  let compiled = regexCache.get(source);
  if (!compiled) {
    const checked = checkRegex(source);
    if (!checked.ok) throw new EvaluationError(`invalid regular expression \`${source}\`: ${checked.error.message}`);
    const { re2, lookbehinds, unsupported } = checked.translated;
    if (unsupported) throw new EvaluationError(`cannot evaluate the regular expression \`${source}\`: it uses ${unsupported}, which \`rulesets test\` does not match`);
    try {
      compiled = RE2JS.compile(re2, lookbehinds ? RE2JS.LOOKBEHINDS : 0);
    } catch (error) {
      throw new EvaluationError(`cannot evaluate the regular expression \`${source}\`: ${(error as Error).message}`);
    }
    if (regexCache.size >= REGEX_CACHE_SIZE) regexCache.clear();
    regexCache.set(source, compiled);
  }
  return compiled;
}

const STAR = -1;

function foldAscii(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}

/**
 * Whether the whole `value` matches a wildcard pattern (the `wildcard` crate as wirefilter
 * configures it): `*` any run of bytes, `\*` and `\\` literal; `ignoreCase` folds ASCII
 * letters only. Greedy with a return to the last `*`, which is O(pattern × value) at worst
 * and never exponential.
 */
export function wildcardMatches(pattern: Uint8Array, value: Uint8Array, ignoreCase: boolean): boolean {
  const tokens: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const b = pattern[i];
    if (b === 0x5c && i + 1 < pattern.length) tokens.push(pattern[++i]);
    else tokens.push(b === 0x2a ? STAR : b);
  }
  const same = ignoreCase ? (a: number, b: number) => foldAscii(a) === foldAscii(b) : (a: number, b: number) => a === b;
  let p = 0;
  let v = 0;
  // After a `*` fails further on, it takes one more byte and matching resumes after it:
  // a later `*` can absorb anything an earlier one could, so only the last one matters.
  let star = -1;
  let starValue = 0;
  while (v < value.length) {
    if (p < tokens.length && tokens[p] === STAR) {
      star = p++;
      starValue = v;
    } else if (p < tokens.length && same(tokens[p], value[v])) {
      p++;
      v++;
    } else if (star >= 0) {
      p = star + 1;
      v = ++starValue;
    } else {
      return false;
    }
  }
  while (p < tokens.length && tokens[p] === STAR) p++;
  return p === tokens.length;
}
