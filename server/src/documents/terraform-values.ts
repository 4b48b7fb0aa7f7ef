/**
 * The values of Terraform's expression language as terraform-eval.ts computes them: cty's
 * kinds (hashicorp's go-cty: null, bool, number, string, list/tuple/set, map/object), plus
 * `unknown` for what cannot be known in the module (a resource's attribute, a variable without
 * a value) and `error` for what Terraform itself refuses (an attribute a known object lacks),
 * which `try` and `can` tell apart from unknown. Every string knows where its characters are
 * written: a list of pieces, each with a file and, per character, the range of that file it
 * comes from; characters a function writes (`format`'s verbs, a number turned to text) come from
 * the call.
 */

export type Value = UnknownValue | ErrorValue | NullValue | BoolValue | NumberValue | StringValue | ListValue | ObjectValue;

export interface UnknownValue {
  readonly kind: 'unknown';
}
export interface ErrorValue {
  readonly kind: 'error';
}
export interface NullValue {
  readonly kind: 'null';
}
export interface BoolValue {
  readonly kind: 'bool';
  readonly value: boolean;
}
export interface NumberValue {
  readonly kind: 'number';
  readonly value: number;
}

/** A file of a module, as the evaluator reads it. */
export interface EvalFile {
  /** As the module names it (its path); the pieces of strings name their file so. */
  readonly path: string;
  readonly text: string;
  /** Numbers whose literal the parser misreads (`1e3`), by where they start: their values. */
  readonly numbers?: ReadonlyMap<number, number>;
}

/** A place in a file: a range of its text. */
export interface Place {
  readonly file: string;
  readonly start: number;
  readonly end: number;
}

/** Characters of a string that come from one file. */
export interface Piece {
  readonly file: string;
  /** Per character of the piece: where its source starts and ends in `file`. */
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  /** The `${…}` interpolations that brought the piece into other files' strings, innermost first. */
  readonly via?: readonly Place[];
  /** Written in a heredoc (`<<EOT`), where text is inserted without escapes. */
  readonly heredoc?: boolean;
  /** Written by a function (a number `format` writes, a file `file` reads): each character maps to the call, and no edit reaches it. */
  readonly produced?: boolean;
}

export interface StringValue {
  readonly kind: 'string';
  readonly value: string;
  /** Cover `value` in order: their lengths add up to its length. */
  readonly pieces: readonly Piece[];
}

export interface ListValue {
  readonly kind: 'list';
  readonly items: readonly Value[];
  /** A set: no repeats, in cty's order. */
  readonly set?: boolean;
}

export interface ObjectValue {
  readonly kind: 'object';
  /** By key, in lexical order (cty keeps an object's and a map's attributes sorted). */
  readonly entries: ReadonlyMap<string, Value>;
  /**
   * From a variable whose type has `optional(…)` attributes: a key it lacks may be one Terraform
   * fills with null, so reading it is unknown rather than an error.
   */
  readonly open?: boolean;
}

export const UNKNOWN: UnknownValue = { kind: 'unknown' };
export const ERROR: ErrorValue = { kind: 'error' };
export const NULL: NullValue = { kind: 'null' };
export const TRUE: BoolValue = { kind: 'bool', value: true };
export const FALSE: BoolValue = { kind: 'bool', value: false };

export function bool(value: boolean): BoolValue {
  return value ? TRUE : FALSE;
}

export function num(value: number): Value {
  return Number.isFinite(value) ? { kind: 'number', value } : UNKNOWN;
}

/** Unknown or an error: what no operation can look into. */
export function isUnsure(value: Value): value is UnknownValue | ErrorValue {
  return value.kind === 'unknown' || value.kind === 'error';
}

/** A string all of whose characters come from `place` (a function's call). */
export function produced(value: string, place: Place): StringValue {
  if (value.length === 0) return { kind: 'string', value, pieces: [] };
  return { kind: 'string', value, pieces: [{ file: place.file, starts: new Array<number>(value.length).fill(place.start), ends: new Array<number>(value.length).fill(place.end), produced: true }] };
}

/** A string of characters from one file, each with its own range. */
export function written(value: string, file: string, starts: ArrayLike<number>, ends: ArrayLike<number>, from = 0): StringValue {
  if (value.length === 0) return { kind: 'string', value, pieces: [] };
  return { kind: 'string', value, pieces: [{ file, starts: Array.from({ length: value.length }, (_, i) => starts[from + i]), ends: Array.from({ length: value.length }, (_, i) => ends[from + i]) }] };
}

/** The longest string a value may be: past it, evaluation stops (a local that doubles another, thirty times over). */
export const MAX_STRING = 100_000;

/** Thrown where a value would grow past the bounds; the evaluation that meets it gives unknown. */
export class TooLarge extends Error {}

export function concatStrings(parts: readonly StringValue[]): StringValue {
  if (parts.length === 1) return parts[0];
  let length = 0;
  for (const p of parts) if ((length += p.value.length) > MAX_STRING) throw new TooLarge();
  return { kind: 'string', value: parts.map((p) => p.value).join(''), pieces: parts.flatMap((p) => p.pieces) };
}

/** Characters [from, to) of a string, with their origins. */
export function sliceString(s: StringValue, from: number, to: number): StringValue {
  from = Math.max(0, from);
  to = Math.min(s.value.length, to);
  if (from === 0 && to === s.value.length) return s;
  if (to <= from) return { kind: 'string', value: '', pieces: [] };
  const pieces: Piece[] = [];
  let at = 0;
  for (const piece of s.pieces) {
    const length = piece.starts.length;
    const a = Math.max(from, at);
    const b = Math.min(to, at + length);
    if (a < b) pieces.push({ ...piece, starts: piece.starts.slice(a - at, b - at), ends: piece.ends.slice(a - at, b - at) });
    at += length;
    if (at >= to) break;
  }
  return { kind: 'string', value: s.value.slice(from, to), pieces };
}

/** The pieces of `s` from other files than `file`, marked as brought into `file` at `place`. */
export function through(s: StringValue, place: Place): StringValue {
  if (s.pieces.every((p) => p.file === place.file)) return s;
  return { ...s, pieces: s.pieces.map((p) => (p.file === place.file || p.via?.some((v) => v.file === place.file) ? p : { ...p, via: [...(p.via ?? []), place] })) };
}

export function list(items: readonly Value[]): ListValue {
  return { kind: 'list', items };
}

export function object(entries: Iterable<readonly [string, Value]>, open = false): ObjectValue {
  const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return open ? { kind: 'object', entries: new Map(sorted), open } : { kind: 'object', entries: new Map(sorted) };
}

/** Whether a value is known all through (no unknown or error anywhere in it). */
export function whollyKnown(value: Value, depth = 0, budget = { nodes: 100_000 }): boolean {
  if (depth > 64 || --budget.nodes < 0) return false;
  switch (value.kind) {
    case 'unknown':
    case 'error':
      return false;
    case 'list':
      return value.items.every((item) => whollyKnown(item, depth + 1, budget));
    case 'object':
      return [...value.entries.values()].every((item) => whollyKnown(item, depth + 1, budget));
    default:
      return true;
  }
}

/**
 * A number's shortest decimal digits (no leading or trailing zeros) and exponent: the value is
 * 0.DIGITS × 10^exponent, as Go's math/big decimal keeps it (ftoa.go). JavaScript's shortest form
 * of a double is the shortest form of cty's number for any number written in decimal.
 */
/** A number as arithmetic leaves it: past 15 significant digits a double's result is not cty's 512-bit one (0.1 + 0.2 is 0.3 to cty), so not known. */
export function computed(n: number): Value {
  const d = decimalDigits(n);
  return d && d.digits.length <= 15 ? num(n) : UNKNOWN;
}

export function decimalDigits(n: number): { negative: boolean; digits: string; exponent: number } | undefined {
  if (!Number.isFinite(n)) return undefined;
  if (n === 0) return { negative: false, digits: '', exponent: 0 };
  const [mantissa, e] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '').replace(/0+$/, '');
  return { negative: n < 0, digits, exponent: Number(e) + 1 };
}

/**
 * A number as Terraform writes it in a string: cty's conversion to string, big.Float's
 * `Text('f', -1)` (go-cty convert/conversion_primitive.go): the shortest decimal, never an
 * exponent (`tostring(1.0)` is "1", 1e21 is "1000000000000000000000").
 */
export function numberText(n: number): string | undefined {
  const d = decimalDigits(n);
  // Past 15 significant digits a double no longer tells which decimal cty holds (123456789012345678 is 123456789012345680 here).
  if (!d || d.digits.length > 15) return undefined;
  return (d.negative ? '-' : '') + fixedText(d.digits, d.exponent, Math.max(d.digits.length - d.exponent, 0));
}

/** Whether a number's shortest decimal digits are its exact value (0.25 is, 0.1 is not): cty's number is then exactly they. */
export function exactDecimal(n: number): boolean {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21 || (n !== 0 && Math.abs(n) < 1e-6)) return false;
  const shortest = numberText(Math.abs(n));
  const full = Math.abs(n).toFixed(100).replace(/\.?0+$/, '');
  return shortest === full;
}

/** Go's math/big fmtF: the digits with `decimals` digits after the point (zeros added as needed). */
export function fixedText(digits: string, exponent: number, decimals: number): string {
  const whole = exponent > 0 ? (digits.slice(0, exponent) + '0'.repeat(Math.max(0, exponent - digits.length))) : '0';
  if (decimals <= 0) return whole;
  let fraction = '';
  for (let i = 0; i < decimals; i++) {
    const at = exponent + i;
    fraction += at >= 0 && at < digits.length ? digits[at] : '0';
  }
  return `${whole}.${fraction}`;
}

/**
 * The digits rounded to `count` digits, as Go's math/big decimal.round; undefined on a tie
 * (a last digit 5), where the rounding of cty's exact number is not known from its shortest form.
 */
export function roundDigits(digits: string, exponent: number, count: number, exact = false): { digits: string; exponent: number } | undefined {
  if (count < 0) return { digits: '', exponent };
  if (digits.length <= count) return { digits, exponent };
  const next = digits[count];
  // A tie: to even where the digits are the number exactly (0.25), else not known.
  if (next === '5' && count + 1 === digits.length) {
    if (!exact) return undefined;
    if (count === 0 || Number(digits[count - 1]) % 2 === 0) return { digits: digits.slice(0, count).replace(/0+$/, ''), exponent };
  } else if (next < '5') return { digits: digits.slice(0, count).replace(/0+$/, ''), exponent };
  // Round up: carry through the nines.
  const kept = digits.slice(0, count).split('');
  let i = kept.length - 1;
  while (i >= 0 && kept[i] === '9') kept.pop(), i--;
  if (i < 0) return { digits: '1', exponent: exponent + 1 };
  kept[i] = String(Number(kept[i]) + 1);
  return { digits: kept.join(''), exponent };
}

/** Whether two known values are equal as cty compares them (type and value). Undefined when that cannot be known. */
export function valuesEqual(a: Value, b: Value, depth = 0): boolean | undefined {
  if (isUnsure(a) || isUnsure(b) || depth > 64) return undefined;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'null':
      return true;
    case 'bool':
    case 'number':
      return a.value === (b as BoolValue | NumberValue).value;
    case 'string':
      return a.value === (b as StringValue).value;
    case 'list': {
      const other = b as ListValue;
      if (a.items.length !== other.items.length) return false;
      for (let i = 0; i < a.items.length; i++) {
        const equal = valuesEqual(a.items[i], other.items[i], depth + 1);
        if (equal !== true) return equal;
      }
      return true;
    }
    case 'object': {
      const other = b as ObjectValue;
      if (a.entries.size !== other.entries.size) return false;
      for (const [key, value] of a.entries) {
        const there = other.entries.get(key);
        if (!there) return false;
        const equal = valuesEqual(value, there, depth + 1);
        if (equal !== true) return equal;
      }
      return true;
    }
  }
}
