import type { ScalarType, IpFamily, Literal, Span } from './ast';
import { problem, replaceFix, type Fix, type Problem } from './problem';

/**
 * Reads the literals of the language (LANGUAGE.md §4). A bare literal (anything that is not
 * a quoted string, a list or a set) is read according to the type of the field it is
 * compared with, as the reference parser does; errors point at the exact offending
 * characters (the `8` of `080`, the `33` of `10.0.0.0/33`).
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

type Read<T> = { ok: true; value: T } | { ok: false; problem: Problem };

function fail<T>(code: string, span: Span, message: string, fixes?: readonly Fix[]): Read<T> {
  return { ok: false, problem: problem(code, 'error', span, message, fixes) };
}

function sub(base: number, from: number, to: number): Span {
  return { start: base + from, end: base + to };
}

// ---------------------------------------------------------------- integers

const DECIMAL = /^-?[0-9]+$/;
const HEX = /^-?0x[0-9a-fA-F]+$/;

/** Reads `text` (found at `offset`) as a 64-bit signed integer. */
export function readInteger(text: string, offset: number): Read<bigint> {
  const span = sub(offset, 0, text.length);
  const negative = text.startsWith('-');
  const digits = negative ? text.slice(1) : text;
  const prefixed = /^0[xXoObB]/.test(digits) ? wrongPrefix(text, offset) : undefined;
  if (prefixed) return prefixed;
  let value: bigint;
  if (HEX.test(text)) {
    value = BigInt(digits);
  } else if (DECIMAL.test(text)) {
    // Only an unsigned literal is octal: the reference reads `-010` as the decimal -10.
    if (!negative && digits.length > 1 && digits.startsWith('0')) {
      const bad = digits.search(/[89]/);
      if (bad >= 0) {
        return fail('invalid-integer', sub(offset, bad, bad + 1), `\`${text}\` starts with 0, so it is octal, and \`${digits[bad]}\` is not an octal digit; remove the leading 0 for decimal`);
      }
      value = BigInt(`0o${digits}`);
    } else {
      value = BigInt(digits);
    }
  } else {
    const bad = firstNonDigit(text);
    return fail('invalid-integer', sub(offset, bad, text.length), `expected an integer (decimal, 0x hex or 0-prefixed octal), found \`${text}\``);
  }
  if (negative) value = -value;
  if (value < INT64_MIN || value > INT64_MAX) {
    return fail('integer-overflow', span, `\`${text}\` does not fit in a 64-bit signed integer`);
  }
  return { ok: true, value };
}

/**
 * The prefixes the reference does not read: a minus before `0x`, `0X`, `0o`, `0b`, and `0x`
 * without digits. Each is marked where the reference stops reading (after the `0`), with the
 * literal the user meant as the fix. Undefined for a well-formed `0x…` (or other text).
 */
function wrongPrefix(text: string, offset: number): Read<bigint> | undefined {
  const negative = text.startsWith('-');
  const at = negative ? 1 : 0;
  const marker = text[at + 1];
  const body = text.slice(at + 2);
  const radix = /[xX]/.test(marker) ? 16 : /[oO]/.test(marker) ? 8 : 2;
  const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[01]+$/;
  const whole = sub(offset, 0, text.length);
  const rest = sub(offset, at + 1, text.length);
  if (!valid.test(body)) {
    if (radix === 16 && body === '') return fail('invalid-integer', sub(offset, at + 1, at + 2), `expected hex digits after \`0x\`, found nothing`);
    // `0xG`, `0b2`: not digits of any reading, so the generic message says more.
    if (radix !== 16 || marker === 'X') return fail('invalid-integer', rest, `expected an integer (decimal, 0x hex or 0-prefixed octal), found \`${text}\``);
    return undefined;
  }
  const magnitude = BigInt(`0${radix === 16 ? 'x' : radix === 8 ? 'o' : 'b'}${body}`);
  const value = negative ? -magnitude : magnitude;
  const fits = value >= INT64_MIN && value <= INT64_MAX;
  const fixTo = (newText: string) => (fits ? [replaceFix(`Change to \`${newText}\``, whole, newText)] : []);
  if (negative && radix === 16) {
    return fail('invalid-integer', rest, `hex integers take no minus sign: \`${text}\` is not read; write the decimal \`${value}\``, fixTo(String(value)));
  }
  if (marker === 'X') {
    const lower = `${negative ? '-' : ''}0x${body}`;
    return fail('invalid-integer', rest, `expected a lowercase \`0x\` before hex digits, found \`0X\`; write \`${lower}\``, fixTo(lower));
  }
  if (radix === 8) {
    // A leading 0 is the octal prefix, for unsigned literals only.
    const octal = negative ? String(value) : `0${body}`;
    return fail('invalid-integer', rest, `there is no \`0o\` prefix: octal integers are written with a leading 0, as in \`${octal}\``, fixTo(octal));
  }
  if (radix === 2) {
    return fail('invalid-integer', rest, `there is no \`0b\` prefix for binary integers: write \`${value}\`${negative ? '' : ` (or hex, \`0x${magnitude.toString(16)}\`)`}`, fixTo(String(value)));
  }
  return undefined;
}

function firstNonDigit(text: string): number {
  const body = text.startsWith('-') ? 1 : 0;
  const hex = text.startsWith('0x', body);
  const digit = hex ? /[0-9a-fA-F]/ : /[0-9]/;
  for (let i = body + (hex ? 2 : 0); i < text.length; i++) if (!digit.test(text[i])) return i;
  return 0;
}

// ---------------------------------------------------------------- IP addresses

interface Address {
  family: IpFamily;
  value: bigint;
}

/** Reads an IPv4 address (`a.b.c.d`, each part 0–255 without leading zeros). */
function readIpv4(text: string, offset: number): Read<bigint> {
  const parts = text.split('.');
  if (parts.length !== 4) return fail('invalid-ip', sub(offset, 0, text.length), `\`${text}\` is not an IPv4 address: expected four numbers separated by dots`);
  let value = 0n;
  let at = 0;
  for (const part of parts) {
    const partSpan = sub(offset, at, at + part.length);
    if (part === '') {
      // A part left out: the dot after it (or, at the end, the dot before it) is what to fix.
      const last = at >= text.length;
      const dot = last ? at - 1 : at;
      return fail('invalid-ip', sub(offset, dot, dot + 1), `\`${text}\` is not an IPv4 address: expected a number ${last ? 'after the last dot' : 'between the dots'}`);
    }
    if (!/^[0-9]{1,3}$/.test(part) || Number(part) > 255) {
      return fail('invalid-ip', partSpan, `\`${part}\` is not a number from 0 to 255 in IPv4 address \`${text}\``);
    }
    if (part.length > 1 && part.startsWith('0')) {
      return fail('invalid-ip', partSpan, `\`${part}\` has a leading zero, which addresses do not allow; write \`${Number(part)}\``);
    }
    value = (value << 8n) | BigInt(part);
    at += part.length + 1;
  }
  return { ok: true, value };
}

/** Reads an IPv6 address, with `::` and an embedded IPv4 tail (`::ffff:1.2.3.4`). */
function readIpv6(text: string, offset: number): Read<bigint> {
  const invalid = (from: number, to: number, why: string): Read<bigint> => {
    // A part missing at the end (`22:`) lies past the text: mark the last character instead.
    const start = Math.min(from, text.length - 1);
    return fail('invalid-ip', sub(offset, start, Math.min(Math.max(to, start + 1), text.length)), `\`${text}\` is not an IPv6 address: ${why}`);
  };
  const doubleColon = text.indexOf('::');
  if (doubleColon >= 0 && text.indexOf('::', doubleColon + 1) >= 0) {
    return invalid(text.indexOf('::', doubleColon + 1), text.indexOf('::', doubleColon + 1) + 2, '`::` may appear only once');
  }
  const groups: bigint[][] = [[], []];
  const halves = doubleColon >= 0 ? [text.slice(0, doubleColon), text.slice(doubleColon + 2)] : [text];
  let base = 0;
  for (let h = 0; h < halves.length; h++) {
    const half = halves[h];
    if (h === 1) base = doubleColon + 2;
    if (half === '') continue;
    const pieces = half.split(':');
    let at = base;
    for (let p = 0; p < pieces.length; p++) {
      const piece = pieces[p];
      const isLast = h === halves.length - 1 && p === pieces.length - 1;
      if (isLast && piece.includes('.')) {
        const v4 = readIpv4(piece, offset + at);
        if (!v4.ok) return v4;
        groups[h].push(v4.value >> 16n, v4.value & 0xffffn);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
        groups[h].push(BigInt(`0x${piece}`));
      } else {
        return invalid(at, at + piece.length, piece === '' ? 'empty group' : `\`${piece}\` is not a group of 1 to 4 hex digits`);
      }
      at += piece.length + 1;
    }
  }
  const count = groups[0].length + groups[1].length;
  if (doubleColon < 0 ? count !== 8 : count > 7) {
    return invalid(0, text.length, `expected 8 groups of hex digits, found ${count}${doubleColon >= 0 ? ' besides `::`' : ''}`);
  }
  const all = [...groups[0], ...new Array<bigint>(8 - count).fill(0n), ...groups[1]];
  return { ok: true, value: all.reduce((acc, g) => (acc << 16n) | g, 0n) };
}

function readAddress(text: string, offset: number): Read<Address> {
  if (text.includes(':')) {
    const v6 = readIpv6(text, offset);
    return v6.ok ? { ok: true, value: { family: 6, value: v6.value } } : v6;
  }
  const v4 = readIpv4(text, offset);
  return v4.ok ? { ok: true, value: { family: 4, value: v4.value } } : v4;
}

export function formatAddress(family: IpFamily, value: bigint): string {
  if (family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  }
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  // RFC 5952: the longest run (of two or more) of zero groups becomes `::`.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

// ---------------------------------------------------------------- bytes

const BYTES = /^[0-9a-fA-F]{2}([:.\-][0-9a-fA-F]{2})+$/;

export function looksLikeBytes(text: string): boolean {
  return BYTES.test(text);
}

function readBytes(text: string): number[] {
  return text.split(/[:.\-]/).map((pair) => parseInt(pair, 16));
}

// ---------------------------------------------------------------- bare values

export type ValuePosition = 'single' | 'set-item';

export interface BareValueResult {
  readonly literal: Literal;
  readonly problems: readonly Problem[];
}

/**
 * Reads a bare value for a field of type `type` (undefined when the field is unknown: then
 * the shape of the text decides). Ranges and CIDR blocks are read wherever they appear;
 * whether they are allowed there (only inside `{}`) is the checker's business.
 */
export function readBareValue(text: string, span: Span, type: ScalarType | undefined): BareValueResult {
  switch (type) {
    case 'Integer':
      return readIntegerValue(text, span);
    case 'Ip':
      return readIpValue(text, span);
    case 'Bytes':
      return readBytesValue(text, span);
    case 'Boolean':
      // A Boolean field takes no value at all; the checker says so on the operator.
      return { literal: { kind: 'invalid', span, text }, problems: [] };
    case undefined:
      return readByShape(text, span);
  }
}

function invalid(text: string, span: Span, problems: Problem[]): BareValueResult {
  return { literal: { kind: 'invalid', span, text }, problems };
}

/** A range written as other tools write it (`80-90`, `80:90`, `10.0.0.0-10.0.0.255`): what it meant, and the fix. */
function rangeWrittenOtherwise(code: 'invalid-integer' | 'invalid-ip', text: string, span: Span, from: string, to: string, what: string): BareValueResult {
  const range = `${from}..${to}`;
  return invalid(text, span, [problem(code, 'error', span, `\`${text}\` is not ${what}; a range ${what === 'an integer' ? '' : 'of addresses '}is written \`${range}\``, [replaceFix(`Change to \`${range}\``, span, range)])]);
}

function readIntegerValue(text: string, span: Span): BareValueResult {
  const otherRange = /^([0-9]+)[-:]([0-9]+)$/.exec(text);
  if (otherRange) return rangeWrittenOtherwise('invalid-integer', text, span, otherRange[1], otherRange[2], 'an integer');
  const dots = text.indexOf('..');
  if (dots >= 0) {
    const fromText = text.slice(0, dots);
    const toText = text.slice(dots + 2);
    if (fromText === '' || toText === '') {
      const missing = fromText === '' ? 'its first integer before' : 'its last integer after';
      return invalid(text, span, [problem('invalid-integer', 'error', sub(span.start, dots, dots + 2), `range \`${text}\` lacks ${missing} \`..\`; a range is written \`a..b\``)]);
    }
    const from = readInteger(fromText, span.start);
    const to = readInteger(toText, span.start + dots + 2);
    if (!from.ok || !to.ok) return invalid(text, span, [from, to].flatMap((r) => (r.ok ? [] : [r.problem])));
    if (from.value > to.value) {
      return invalid(text, span, [problem('range-order', 'error', span, `range \`${text}\` starts after it ends; write \`${to.value}..${from.value}\``)]);
    }
    return { literal: { kind: 'integer-range', span, from: from.value, to: to.value }, problems: [] };
  }
  const value = readInteger(text, span.start);
  if (value.ok) return { literal: { kind: 'integer', span, value: value.value }, problems: [] };
  if (looksLikeAddress(text)) {
    return invalid(text, span, [problem('type-mismatch', 'error', span, `expected an integer, found the IP address or CIDR \`${text}\``)]);
  }
  return invalid(text, span, [value.problem]);
}

function looksLikeAddress(text: string): boolean {
  return /^[0-9.]+\.[0-9.]+(\/\d+)?$/.test(text) || (text.includes(':') && !looksLikeBytes(text));
}

function readIpValue(text: string, span: Span): BareValueResult {
  const dash = text.indexOf('-');
  if (dash > 0 && !text.includes('..')) {
    const [from, to] = [text.slice(0, dash), text.slice(dash + 1)];
    const [a, b] = [readAddress(from, span.start), readAddress(to, span.start + dash + 1)];
    if (a.ok && b.ok && a.value.family === b.value.family) return rangeWrittenOtherwise('invalid-ip', text, span, from, to, 'an address');
  }
  const slash = text.indexOf('/');
  if (slash >= 0) {
    const address = readAddress(text.slice(0, slash), span.start);
    if (!address.ok) return invalid(text, span, [address.problem]);
    const { family, value } = address.value;
    const bits = family === 4 ? 32 : 128;
    const lengthText = text.slice(slash + 1);
    if (lengthText === '') {
      return invalid(text, span, [problem('invalid-cidr', 'error', sub(span.start, slash, slash + 1), `expected a prefix length from 0 to ${bits} after \`/\`, found nothing`)]);
    }
    const lengthSpan = sub(span.start, slash + 1, text.length);
    // Read as the reference does, as any run of digits: `/08` and `/0008` are 8.
    if (!/^[0-9]+$/.test(lengthText)) {
      return invalid(text, span, [problem('invalid-cidr', 'error', lengthSpan, `expected a prefix length from 0 to ${bits} after \`/\`, found \`${lengthText}\``)]);
    }
    const prefixLength = Number(lengthText);
    if (prefixLength > bits) {
      return invalid(text, span, [problem('invalid-cidr', 'error', lengthSpan, `prefix length ${BigInt(lengthText)} is longer than the ${bits} bits of an IPv${family} address`)]);
    }
    const hostBits = BigInt(bits - prefixLength);
    const first = (value >> hostBits) << hostBits;
    const last = first | ((1n << hostBits) - 1n);
    const problems: Problem[] = [];
    if (first !== value) {
      // The reference rejects it ("host part of address was not zero"), on the address. The
      // block is still read, so that `ip.src == 10.0.0.1/8` is also told to use `in {…}`.
      const network = `${formatAddress(family, first)}/${prefixLength}`;
      const addressSpan = sub(span.start, 0, slash);
      problems.push(
        problem(
          'invalid-cidr',
          'error',
          addressSpan,
          `expected the network address of a /${prefixLength} block, found \`${text.slice(0, slash)}\`, which has host bits set (the last ${hostBits} bits are not all zero); write the network \`${network}\``,
          [replaceFix(`Change to \`${network}\``, span, network)],
        ),
      );
    }
    return { literal: { kind: 'ip-range', span, family, first, last, prefixLength }, problems };
  }
  const dots = text.indexOf('..');
  if (dots > 0) {
    const from = readAddress(text.slice(0, dots), span.start);
    const to = readAddress(text.slice(dots + 2), span.start + dots + 2);
    if (!from.ok || !to.ok) return invalid(text, span, [from, to].flatMap((r) => (r.ok ? [] : [r.problem])));
    if (from.value.family !== to.value.family) {
      return invalid(text, span, [problem('range-family', 'error', span, `range \`${text}\` mixes IPv${from.value.family} and IPv${to.value.family}; both ends must be of one family`)]);
    }
    if (from.value.value > to.value.value) {
      return invalid(text, span, [problem('range-order', 'error', span, `range \`${text}\` starts after it ends; the first address must not be greater than the last`)]);
    }
    return { literal: { kind: 'ip-range', span, family: from.value.family, first: from.value.value, last: to.value.value }, problems: [] };
  }
  const address = readAddress(text, span.start);
  if (address.ok) return { literal: { kind: 'ip', span, family: address.value.family, value: address.value.value }, problems: [] };
  if (DECIMAL.test(text) || HEX.test(text)) {
    return invalid(text, span, [problem('type-mismatch', 'error', span, `expected an IP address, found the integer \`${text}\``)]);
  }
  return invalid(text, span, [address.problem]);
}

function readBytesValue(text: string, span: Span): BareValueResult {
  if (looksLikeBytes(text)) return { literal: { kind: 'bytes', span, bytes: readBytes(text) }, problems: [] };
  if (DECIMAL.test(text) || HEX.test(text)) {
    // Read as what it is: the checker knows the field, so it can say more than "quote it"
    // (`ip.proto == 6` means `"tcp"`).
    const value = readInteger(text, span.start);
    if (value.ok) return { literal: { kind: 'integer', span, value: value.value }, problems: [] };
  }
  return invalid(text, span, [
    problem('type-mismatch', 'error', span, `expected a quoted string (or hex bytes such as \`aa:bb\`), found \`${text}\``, [
      { title: `Quote it: \`"${text}"\``, edits: [{ span, newText: `"${text}"` }] },
    ]),
  ]);
}

function readByShape(text: string, span: Span): BareValueResult {
  if (DECIMAL.test(text) || HEX.test(text) || /^-?[0-9x]+\.\.-?[0-9x]+$/.test(text)) return readIntegerValue(text, span);
  if (looksLikeBytes(text) && !/^[0-9]+(\.[0-9]+){3}$/.test(text)) {
    // `10:20:…` with eight pairs is both; without a known field either reading is fine.
    return readBytesValue(text, span);
  }
  // Only text with an address's separators is read as one: a bare word such as `abc` (all
  // hex letters) is no value of any type, and "not an IPv4 address" would mislead.
  if (/[.:]/.test(text) && /^[0-9a-fA-F:.]+(\/[0-9]*)?(\.\.[0-9a-fA-F:.]+)?$/.test(text)) return readIpValue(text, span);
  return invalid(text, span, [problem('invalid-value', 'error', span, `\`${text}\` is not a value: expected a number, an IP address or CIDR, a quoted string, hex bytes, a \`{…}\` set or a \`$list\``)]);
}

// ---------------------------------------------------------------- the common literals, in place

// Most bare values in rules are well-formed decimal integers and ranges, IPv4 addresses and
// blocks, and IPv6 blocks. These are read here from the expression text itself, with no copy
// of the value, no split parts and no regular expression; anything else (every value with a
// problem among it) is left to readBareValue, whose literal is the one these give.

const CODE_0 = 48;
const CODE_9 = 57;
const CODE_DOT = 46;
const CODE_COLON = 58;
const CODE_MINUS = 45;

/**
 * Where `character` first stands in [start, end) of `text`, or -1. The native search may read on
 * past the value to the end of the expression, which is short: cheaper than a loop of our own
 * before that loop is compiled.
 */
function indexWithin(text: string, character: string, start: number, end: number): number {
  const at = text.indexOf(character, start);
  return at < end ? at : -1;
}

/** Digits a double holds exactly (below 2⁵³), so such an integer needs no BigInt arithmetic. */
const MAX_EXACT_DIGITS = 15;

/**
 * The decimal integer at [start, end) of `text`: an optional `-` and up to MAX_EXACT_DIGITS
 * digits, with no leading 0 (which would make it octal); NaN for anything else.
 */
export function plainDecimal(text: string, start: number, end: number): number {
  let i = start;
  const negative = text.charCodeAt(i) === CODE_MINUS;
  if (negative) i++;
  const digits = end - i;
  if (digits === 0 || digits > MAX_EXACT_DIGITS || (digits > 1 && text.charCodeAt(i) === CODE_0)) return NaN;
  let value = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < CODE_0 || c > CODE_9) return NaN;
    value = value * 10 + (c - CODE_0);
  }
  return negative ? -value : value;
}

/** Below this, the BigInt of an integer literal is made once and shared: ports, protocol numbers, lengths. */
const SHARED_BIGINTS_BELOW = 0x10000;
const sharedBigInts: bigint[] = new Array<bigint>(SHARED_BIGINTS_BELOW);

/**
 * `value`, an exact integer, as a BigInt. Each BigInt is an object of its own, and the trees keep
 * their literals for the whole run: the small ones most rules compare with are made once.
 */
function bigIntOf(value: number): bigint {
  if (value >= 0 && value < SHARED_BIGINTS_BELOW) return (sharedBigInts[value] ??= BigInt(value));
  return BigInt(value);
}

/** A plain decimal integer (see plainDecimal) at `span` of `source` as its literal, else undefined. */
export function readPlainInteger(source: string, span: Span): Literal | undefined {
  const value = plainDecimal(source, span.start, span.end);
  return Number.isNaN(value) ? undefined : { kind: 'integer', span, value: bigIntOf(value) };
}

/** `a..b` of plain decimal integers, with a ≤ b, at `span` of `source`, else undefined. */
function readPlainIntegerRange(source: string, span: Span): Literal | undefined {
  const dots = indexWithin(source, '.', span.start, span.end);
  if (dots < 0 || dots + 1 >= span.end || source.charCodeAt(dots + 1) !== CODE_DOT) return undefined;
  const from = plainDecimal(source, span.start, dots);
  const to = plainDecimal(source, dots + 2, span.end);
  if (!(from <= to)) return undefined;
  return { kind: 'integer-range', span, from: bigIntOf(from), to: bigIntOf(to) };
}

/**
 * The IPv4 address at [start, end) of `text` as a number: four parts of one to three digits,
 * none above 255 nor with a leading zero; NaN for anything else.
 */
function plainIpv4(text: string, start: number, end: number): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = start; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : CODE_DOT;
    if (c === CODE_DOT) {
      if (digits === 0 || part > 255 || ++parts > 4) return NaN;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else {
      if (c < CODE_0 || c > CODE_9 || (digits === 1 && part === 0) || ++digits > 3) return NaN;
      part = part * 10 + (c - CODE_0);
    }
  }
  return parts === 4 ? value : NaN;
}

/** The groups of the IPv6 address being read by plainIpv6. */
const IPV6_GROUPS = new Uint16Array(8);

/** The value of each hex digit by its code, -1 for any other ASCII character (a lookup, not a call per digit). */
const HEX_DIGIT_VALUES = new Int8Array(128).fill(-1);
for (let c = 0; c < 128; c++) {
  const lower = c | 0x20;
  if (c >= CODE_0 && c <= CODE_9) HEX_DIGIT_VALUES[c] = c - CODE_0;
  else if (lower >= 97 && lower <= 102) HEX_DIGIT_VALUES[c] = lower - 87;
}

/**
 * The IPv6 address at [start, end) of `text`: groups of one to four hex digits, eight of them
 * or at most seven around one `::` (an IPv4 tail is left to readBareValue); undefined for
 * anything else.
 */
function plainIpv6(text: string, start: number, end: number): bigint | undefined {
  let count = 0;
  let gap = -1;
  let i = start;
  if (text.charCodeAt(i) === CODE_COLON && text.charCodeAt(i + 1) === CODE_COLON) {
    gap = 0;
    i += 2;
  }
  while (i < end) {
    let group = 0;
    const groupStart = i;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      const digit = c < 128 ? HEX_DIGIT_VALUES[c] : -1;
      if (digit < 0) break;
      group = group * 16 + digit;
    }
    if (i === groupStart || i - groupStart > 4 || count === 8) return undefined;
    IPV6_GROUPS[count++] = group;
    if (i === end) break;
    if (text.charCodeAt(i) !== CODE_COLON || ++i === end) return undefined;
    if (text.charCodeAt(i) === CODE_COLON) {
      if (gap >= 0) return undefined;
      gap = count;
      i++;
    }
  }
  if (gap < 0 ? count !== 8 : count > 7) return undefined;
  if (gap >= 0) {
    // The groups after `::` move to the end; the ones they leave are zeros.
    const zeros = 8 - count;
    for (let g = count - 1; g >= gap; g--) IPV6_GROUPS[g + zeros] = IPV6_GROUPS[g];
    IPV6_GROUPS.fill(0, gap, gap + zeros);
  }
  // Three exact numbers of 48, 48 and 32 bits: fewer BigInt operations, each of which allocates.
  const g = IPV6_GROUPS;
  const high = (g[0] * 0x10000 + g[1]) * 0x10000 + g[2];
  const middle = (g[3] * 0x10000 + g[4]) * 0x10000 + g[5];
  const low = g[6] * 0x10000 + g[7];
  return (BigInt(high) << 80n) | (BigInt(middle) << 32n) | BigInt(low);
}

/** The host bits of an IPv6 block by its prefix length (0 to 128). */
const IPV6_HOST_MASKS: readonly bigint[] = Array.from({ length: 129 }, (_, prefixLength) => (1n << BigInt(128 - prefixLength)) - 1n);

/**
 * An IPv4 address, or an IPv4 or IPv6 block whose host bits are zero, at `span` of `source`;
 * undefined for anything else. (A lone IPv6 address is rarer, and among bare values of an
 * unknown field some read as bytes, so IPv6 is read here only as a block of an `Ip` field.)
 */
function readPlainAddress(source: string, span: Span, ipv6: boolean): Literal | undefined {
  const slash = indexWithin(source, '/', span.start, span.end);
  const addressEnd = slash >= 0 ? slash : span.end;
  const v4 = plainIpv4(source, span.start, addressEnd);
  if (addressEnd === span.end) return Number.isNaN(v4) ? undefined : { kind: 'ip', span, family: 4, value: BigInt(v4) };
  // The prefix length is read as the reference reads it, as any run of digits (`/08` is 8).
  let prefixLength = 0;
  if (addressEnd + 1 === span.end) return undefined;
  for (let i = addressEnd + 1; i < span.end; i++) {
    const c = source.charCodeAt(i);
    if (c < CODE_0 || c > CODE_9) return undefined;
    prefixLength = prefixLength * 10 + (c - CODE_0);
    if (prefixLength > 128) return undefined;
  }
  if (!Number.isNaN(v4)) {
    if (prefixLength > 32) return undefined;
    const block = 2 ** (32 - prefixLength);
    if (v4 % block !== 0) return undefined;
    return { kind: 'ip-range', span, family: 4, first: BigInt(v4), last: BigInt(v4 + block - 1), prefixLength };
  }
  const v6 = ipv6 ? plainIpv6(source, span.start, addressEnd) : undefined;
  if (v6 === undefined) return undefined;
  const hostMask = IPV6_HOST_MASKS[prefixLength];
  if ((v6 & hostMask) !== 0n) return undefined;
  return { kind: 'ip-range', span, family: 6, first: v6, last: v6 | hostMask, prefixLength };
}

/**
 * The literal readBareValue reads at `span` of `source` for a field of `type`, when it is one
 * of the common well-formed ones; undefined otherwise (then readBareValue must read it).
 */
export function readPlainBareValue(source: string, span: Span, type: ScalarType | undefined): Literal | undefined {
  if (type === 'Integer' || type === undefined) {
    const literal = readPlainInteger(source, span) ?? readPlainIntegerRange(source, span);
    if (literal !== undefined || type === 'Integer') return literal;
  }
  if (type === 'Ip' || type === undefined) return readPlainAddress(source, span, type === 'Ip');
  return undefined;
}

// ---------------------------------------------------------------- strings

/**
 * Decodes the body of a quoted string. Only `\"`, `\\`, `\xHH` and `\OOO` are escapes;
 * anything else after `\` is an error on exactly those characters.
 */
export function readQuotedString(body: string, bodyOffset: number): { value: string; problems: Problem[]; bytes?: number[] } {
  let backslash = body.indexOf('\\');
  if (backslash < 0) return { value: body, problems: [] };
  let value = '';
  const problems: Problem[] = [];
  // An escape is one byte, a character its UTF-8 bytes (wirefilter's lex_quoted_string_as_vec):
  // `bytes` keeps them apart, which `value` cannot from 0x80 on. The text between escapes is
  // taken in runs, not character by character.
  const bytes: number[] = [];
  let characters = '';
  let highByte = false;
  /** Where the characters not yet added to `value` (and `characters`) start. */
  let plain = 0;
  while (backslash >= 0) {
    const i = backslash;
    const run = body.slice(plain, i);
    value += run;
    characters += run;
    const next = body[i + 1];
    let byte = -1;
    if (next === undefined) {
      // Only in an unterminated string, which has its own error.
      plain = body.length;
      break;
    }
    if (next === '"' || next === '\\') {
      // The escaped character starts the next run.
      plain = i + 1;
      backslash = body.indexOf('\\', i + 2);
      continue;
    }
    if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(body.slice(i + 2, i + 4))) {
      byte = parseInt(body.slice(i + 2, i + 4), 16);
      plain = i + 4;
    } else if (/^[0-7]{3}$/.test(body.slice(i + 1, i + 4))) {
      const code = parseInt(body.slice(i + 1, i + 4), 8);
      if (code > 0xff) {
        problems.push(problem('invalid-escape', 'error', sub(bodyOffset, i, i + 4), `\`\\${body.slice(i + 1, i + 4)}\` is more than one byte (at most \\377)`));
      }
      byte = code & 0xff;
      plain = i + 4;
    } else {
      const end = next === 'x' ? Math.min(body.length, i + 4) : Math.min(body.length, i + 2);
      const found = body.slice(i, end);
      problems.push(
        problem('invalid-escape', 'error', sub(bodyOffset, i, Math.max(end, i + 1)), `expected \`\\"\`, \`\\\\\`, \`\\xHH\` or \`\\OOO\` (three octal digits) after \`\\\`, found \`${found}\``, escapeFixes(found, sub(bodyOffset, i, end))),
      );
      plain = end;
    }
    if (byte >= 0) {
      value += String.fromCharCode(byte);
      for (const encoded of UTF8_ENCODER.encode(characters)) bytes.push(encoded);
      bytes.push(byte);
      characters = '';
      highByte ||= byte >= 0x80;
    }
    backslash = body.indexOf('\\', plain);
  }
  const rest = body.slice(plain);
  value += rest;
  if (!highByte) return { value, problems };
  characters += rest;
  for (const encoded of UTF8_ENCODER.encode(characters)) bytes.push(encoded);
  return { value, problems, bytes };
}

const UTF8_ENCODER = new TextEncoder();

function escapeFixes(found: string, span: Span) {
  const named: Record<string, string> = { '\\n': '\\x0a', '\\r': '\\x0d', '\\t': '\\x09', '\\0': '\\x00' };
  const replacement = named[found];
  return replacement ? [{ title: `Write it as \`${replacement}\``, edits: [{ span, newText: replacement }] }] : [];
}
