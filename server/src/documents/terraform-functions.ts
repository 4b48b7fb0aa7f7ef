/**
 * Terraform's functions that rule files use, as go-cty's stdlib (cty/function/stdlib) and
 * Terraform's own (opentofu/opentofu internal/lang/funcs) define them, over known values. A
 * string a function keeps (a `join`'s items, `split`'s parts, `format`'s text between verbs) keeps
 * where its characters are written; what the function writes itself comes from the call. What
 * is not here, or not known, is unknown; what Terraform refuses is an error (for `try`, `can`).
 */
import { RE2JS } from 're2js';
import {
  bool,
  concatStrings,
  ERROR,
  isUnsure,
  list,
  MAX_STRING,
  NULL,
  num,
  numberText,
  object,
  produced,
  sliceString,
  TooLarge,
  UNKNOWN,
  valuesEqual,
  whollyKnown,
  type EvalFile,
  type ListValue,
  type Place,
  type StringValue,
  type Value,
  decimalDigits,
  exactDecimal,
  fixedText,
  roundDigits,
} from './terraform-values';

/** What functions that read files ask of the module. */
export interface FileContext {
  readFile(path: string): EvalFile | undefined;
}

/** A known string, number or bool as the text Terraform converts it to; undefined for any other. */
export function stringOf(value: Value): string | undefined {
  if (value.kind === 'string') return value.value;
  if (value.kind === 'number') return numberText(value.value);
  if (value.kind === 'bool') return String(value.value);
  return undefined;
}

/** As stringOf, keeping a string's origins; a number or bool's text comes from `place`. */
function asString(value: Value, place: Place): StringValue | undefined {
  if (value.kind === 'string') return value;
  const text = stringOf(value);
  return text === undefined ? undefined : produced(text, place);
}

function asNumber(value: Value): number | undefined {
  if (value.kind === 'number') return value.value;
  if (value.kind === 'string' && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value.value)) return Number(value.value);
  return undefined;
}

function asList(value: Value): readonly Value[] | undefined {
  return value.kind === 'list' ? value.items : undefined;
}

/** A set's order as cty keeps it for strings and numbers; other element types have an order this does not know. */
function toSet(items: readonly Value[]): Value {
  const kept: Value[] = [];
  for (const item of items) {
    if (isUnsure(item)) return UNKNOWN;
    if (!kept.some((k) => valuesEqual(k, item) === true)) kept.push(item);
  }
  if (kept.every((k) => k.kind === 'string')) kept.sort((a, b) => compareStrings((a as StringValue).value, (b as StringValue).value));
  else if (kept.every((k) => k.kind === 'number')) kept.sort((a, b) => (a as { value: number }).value - (b as { value: number }).value);
  else if (kept.length > 1) return UNKNOWN;
  return { kind: 'list', items: kept, set: true };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether every character is ASCII: where JavaScript's and Go's string handling agree for sure. */
function ascii(text: string): boolean {
  return /^[\x00-\x7f]*$/.test(text);
}

/** A string with the same characters changed one for one (case); else all from the call. */
function sameShape(source: StringValue, value: string, place: Place): StringValue {
  return value.length === source.value.length ? { kind: 'string', value, pieces: source.pieces } : produced(value, place);
}

const MAX_ITEMS = 10_000;

type Implementation = (args: readonly Value[], place: Place, context: FileContext) => Value;

const FUNCTIONS: Readonly<Record<string, Implementation>> = {
  format: (args, place) => format(args, place),
  formatlist: (args, place) => {
    if (args.length === 0) return UNKNOWN;
    let length = -1;
    for (const a of args) {
      if (a.kind === 'list') {
        if (length >= 0 && a.items.length !== length) return ERROR;
        length = a.items.length;
      }
    }
    if (length < 0) return list([format(args, place)]);
    const items: Value[] = [];
    for (let i = 0; i < length; i++) items.push(format(args.map((a) => (a.kind === 'list' ? a.items[i] : a)), place));
    return list(items);
  },
  join: (args, place) => {
    const [separator, ...lists] = args;
    const sep = separator && asString(separator, place);
    if (!sep || lists.length === 0) return UNKNOWN;
    const parts: StringValue[] = [];
    for (const l of lists) {
      const items = asList(l);
      if (!items) return UNKNOWN;
      for (const item of items) {
        const text = asString(item, place);
        if (!text) return item.kind === 'null' || item.kind === 'list' || item.kind === 'object' ? ERROR : UNKNOWN;
        if (parts.length > 0) parts.push(sep);
        parts.push(text);
      }
    }
    return concatStrings(parts.length > 0 ? parts : [produced('', place)]);
  },
  split: (args, place) => {
    const sep = args[0] && asString(args[0], place);
    const s = args[1] && asString(args[1], place);
    if (!sep || !s || args.length !== 2) return UNKNOWN;
    // Go's strings.Split: an empty separator splits after each UTF-8 sequence; "" gives [""].
    if (sep.value === '') return ascii(s.value) ? list([...s.value].map((_, i) => sliceString(s, i, i + 1))) : UNKNOWN;
    const items: Value[] = [];
    let at = 0;
    for (;;) {
      const next = s.value.indexOf(sep.value, at);
      if (next < 0) break;
      items.push(sliceString(s, at, next));
      at = next + sep.value.length;
      if (items.length > MAX_ITEMS) return UNKNOWN;
    }
    items.push(sliceString(s, at, s.value.length));
    return list(items);
  },
  concat: (args) => {
    const items: Value[] = [];
    for (const a of args) {
      const l = asList(a);
      if (!l) return isUnsure(a) ? UNKNOWN : ERROR;
      items.push(...l);
    }
    return list(items);
  },
  merge: (args) => {
    const entries = new Map<string, Value>();
    for (const a of args) {
      if (a.kind === 'null') continue;
      if (a.kind !== 'object') return isUnsure(a) ? UNKNOWN : ERROR;
      for (const [k, v] of a.entries) entries.set(k, v);
    }
    return object(entries);
  },
  lookup: (args) => {
    const [map, key, fallback] = args;
    if (args.length < 2 || args.length > 3) return UNKNOWN;
    if (map.kind !== 'object') return isUnsure(map) ? UNKNOWN : ERROR;
    const name = stringOf(key);
    if (name === undefined) return UNKNOWN;
    return map.entries.get(name) ?? (fallback ?? (map.open ? UNKNOWN : ERROR));
  },
  coalesce: (args) => {
    for (const a of args) {
      if (isUnsure(a)) return UNKNOWN;
      if (a.kind === 'null' || (a.kind === 'string' && a.value === '')) continue;
      return a;
    }
    return ERROR;
  },
  coalescelist: (args) => {
    for (const a of args) {
      if (isUnsure(a)) return UNKNOWN;
      if (a.kind === 'list' && a.items.length > 0) return a;
      if (a.kind !== 'list') return ERROR;
    }
    return ERROR;
  },
  flatten: (args) => {
    if (args.length !== 1) return UNKNOWN;
    const out: Value[] = [];
    const walk = (v: Value, depth: number): boolean => {
      if (depth > 64 || out.length > MAX_ITEMS) return false;
      if (v.kind === 'list') return v.items.every((item) => walk(item, depth + 1));
      if (isUnsure(v)) return false;
      out.push(v);
      return true;
    };
    if (args[0].kind !== 'list') return isUnsure(args[0]) ? UNKNOWN : ERROR;
    return walk(args[0], 0) ? list(out) : UNKNOWN;
  },
  distinct: (args) => {
    const l = args[0] && asList(args[0]);
    if (!l) return UNKNOWN;
    const kept: Value[] = [];
    for (const item of l) {
      if (isUnsure(item)) return UNKNOWN;
      if (!kept.some((k) => valuesEqual(k, item) === true)) kept.push(item);
    }
    return list(kept);
  },
  compact: (args) => {
    const l = args[0] && asList(args[0]);
    if (!l) return UNKNOWN;
    if (l.some(isUnsure)) return UNKNOWN;
    return list(l.filter((item) => !(item.kind === 'null' || (item.kind === 'string' && item.value === ''))));
  },
  contains: (args) => {
    const l = args[0] && asList(args[0]);
    if (!l || !args[1]) return UNKNOWN;
    let unsure = isUnsure(args[1]);
    for (const item of l) {
      const equal = valuesEqual(item, args[1]);
      if (equal === true) return bool(true);
      if (equal === undefined) unsure = true;
    }
    return unsure ? UNKNOWN : bool(false);
  },
  length: (args) => {
    const [v] = args;
    if (!v) return UNKNOWN;
    if (v.kind === 'list') return num(v.items.length);
    if (v.kind === 'object') return num(v.entries.size);
    // Terraform counts a string's grapheme clusters (go-cty's Strlen, textseg).
    if (v.kind === 'string') return num(ascii(v.value) ? v.value.length : graphemes(v.value).length);
    return isUnsure(v) || v.kind === 'null' ? UNKNOWN : ERROR;
  },
  // Terraform's own `index` (internal/lang/funcs/collection.go): the first item equal to the value, in a list or tuple.
  index: (args) => {
    const [collection, value] = args;
    if (args.length !== 2) return UNKNOWN;
    if (collection.kind !== 'list' || collection.set) return isUnsure(collection) ? UNKNOWN : ERROR;
    if (collection.items.length === 0) return ERROR;
    for (let i = 0; i < collection.items.length; i++) {
      const equal = valuesEqual(collection.items[i], value);
      if (equal === undefined) return UNKNOWN;
      if (equal) return num(i);
    }
    return ERROR;
  },
  keys: (args) => (args[0]?.kind === 'object' ? list([...args[0].entries.keys()].map((k) => ({ kind: 'string', value: k, pieces: [] }) as StringValue)) : UNKNOWN),
  values: (args) => (args[0]?.kind === 'object' ? list([...args[0].entries.values()]) : UNKNOWN),
  element: (args) => {
    const l = args[0] && asList(args[0]);
    const i = args[1] && asNumber(args[1]);
    if (!l || i === undefined || !Number.isInteger(i) || i < 0 || l.length === 0 || args[0].kind === 'list' && (args[0] as ListValue).set) return UNKNOWN;
    return l[i % l.length];
  },
  slice: (args) => {
    const l = args[0] && asList(args[0]);
    const from = args[1] && asNumber(args[1]);
    const to = args[2] && asNumber(args[2]);
    if (!l || from === undefined || to === undefined) return UNKNOWN;
    if (from < 0 || to > l.length || from > to) return ERROR;
    return list(l.slice(from, to));
  },
  lower: (args, place) => caseChange(args, place, (s) => s.toLowerCase()),
  upper: (args, place) => caseChange(args, place, (s) => s.toUpperCase()),
  // Go's strings.Title: a letter after anything but a letter, a digit or `_` is upper-cased.
  title: (args, place) => caseChange(args, place, (s) => s.replace(/(^|[^A-Za-z0-9_])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase())),
  // Go's strings.TrimSpace: Unicode's white space (unicode.IsSpace), which is not JavaScript's `\s` (U+0085 is, U+FEFF is not).
  trimspace: (args) => {
    const s = args[0];
    if (s?.kind !== 'string') return UNKNOWN;
    const start = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/.exec(s.value)![0].length;
    const end = s.value.length - /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/.exec(s.value.slice(start))![0].length;
    return sliceString(s, start, end);
  },
  // Go's strings.Trim: each code point of the cut set, from both ends.
  trim: (args, place) => {
    const s = args[0] && asString(args[0], place);
    const cut = args[1] && asString(args[1], place);
    if (!s || !cut) return UNKNOWN;
    const cutSet = new Set(Array.from(cut.value));
    let a = 0;
    let b = s.value.length;
    while (a < b) {
      const c = String.fromCodePoint(s.value.codePointAt(a)!);
      if (!cutSet.has(c)) break;
      a += c.length;
    }
    while (b > a) {
      const low = s.value.charCodeAt(b - 1);
      const size = low >= 0xdc00 && low <= 0xdfff && b - 2 >= a ? 2 : 1;
      if (!cutSet.has(s.value.slice(b - size, b))) break;
      b -= size;
    }
    return sliceString(s, a, b);
  },
  // go-cty's chomp: every trailing `\r\n`, `\r` or `\n`.
  chomp: (args) => {
    const s = args[0];
    if (s?.kind !== 'string') return UNKNOWN;
    return sliceString(s, 0, s.value.length - /(?:\r\n?|\n)*$/.exec(s.value)![0].length);
  },
  trimprefix: (args, place) => {
    const s = args[0] && asString(args[0], place);
    const prefix = args[1] && asString(args[1], place);
    if (!s || !prefix) return UNKNOWN;
    return s.value.startsWith(prefix.value) ? sliceString(s, prefix.value.length, s.value.length) : s;
  },
  trimsuffix: (args, place) => {
    const s = args[0] && asString(args[0], place);
    const suffix = args[1] && asString(args[1], place);
    if (!s || !suffix) return UNKNOWN;
    return s.value.endsWith(suffix.value) ? sliceString(s, 0, s.value.length - suffix.value.length) : s;
  },
  replace: (args, place) => replace(args, place),
  substr: (args, place) => {
    const s = args[0] && asString(args[0], place);
    const offset = args[1] && asNumber(args[1]);
    const length = args[2] && asNumber(args[2]);
    if (!s || offset === undefined || length === undefined || !ascii(s.value)) return UNKNOWN;
    const from = offset < 0 ? s.value.length + offset : offset;
    if (from < 0 || from > s.value.length) return ERROR;
    return sliceString(s, from, length < 0 ? s.value.length : from + length);
  },
  startswith: (args, place) => stringTest(args, place, (s, t) => s.startsWith(t)),
  endswith: (args, place) => stringTest(args, place, (s, t) => s.endsWith(t)),
  strcontains: (args, place) => stringTest(args, place, (s, t) => s.includes(t)),
  jsonencode: (args, place) => {
    if (args.length !== 1 || !whollyKnown(args[0])) return UNKNOWN;
    const text = jsonText(args[0]);
    return text === undefined ? UNKNOWN : produced(text, place);
  },
  jsondecode: (args, place) => {
    if (args[0]?.kind !== 'string') return UNKNOWN;
    try {
      return fromData(JSON.parse(args[0].value), place, 0);
    } catch {
      return ERROR;
    }
  },
  yamldecode: (args, place) => {
    if (args[0]?.kind !== 'string') return UNKNOWN;
    // Tags, anchors, aliases and several documents are not followed.
    if (/(^|\s)[!&*]|^---[\s\S]*\n---/m.test(args[0].value)) return UNKNOWN;
    const YAML = require('yaml') as typeof import('yaml');
    try {
      // Every scalar read as written (the failsafe schema), then resolved as go-cty-yaml does.
      const document = YAML.parseDocument(args[0].value, { schema: 'failsafe', uniqueKeys: false });
      if (document.errors.length > 0) return ERROR;
      return fromYaml(document.contents, place, 0);
    } catch {
      return UNKNOWN;
    }
  },
  tostring: (args, place) => {
    const v = args[0];
    if (!v || isUnsure(v)) return UNKNOWN;
    if (v.kind === 'null') return NULL;
    return asString(v, place) ?? ERROR;
  },
  tonumber: (args) => {
    const v = args[0];
    if (!v || isUnsure(v)) return UNKNOWN;
    if (v.kind === 'null') return NULL;
    const n = asNumber(v);
    return n === undefined ? ERROR : num(n);
  },
  tobool: (args) => {
    const v = args[0];
    if (!v || isUnsure(v)) return UNKNOWN;
    if (v.kind === 'null' || v.kind === 'bool') return v;
    const b = v.kind === 'string' ? stringBool(v.value) : undefined;
    return b === undefined ? ERROR : bool(b);
  },
  tolist: (args) => (args[0]?.kind === 'list' ? list(args[0].items) : UNKNOWN),
  toset: (args) => (args[0]?.kind === 'list' ? toSet(args[0].items) : UNKNOWN),
  tomap: (args) => (args[0]?.kind === 'object' ? args[0] : UNKNOWN),
  file: (args, place, context) => {
    if (args[0]?.kind !== 'string') return UNKNOWN;
    const file = context.readFile(args[0].value);
    // A file read is no document of its own: its characters map to the call.
    return file ? produced(file.text, place) : UNKNOWN;
  },
  range: (args) => {
    const numbers = args.map(asNumber);
    if (numbers.some((n) => n === undefined) || numbers.length === 0 || numbers.length > 3) return UNKNOWN;
    const [start, limit, step] = numbers.length === 1 ? [0, numbers[0]!, 1] : [numbers[0]!, numbers[1]!, numbers[2] ?? (numbers[0]! <= numbers[1]! ? 1 : -1)];
    if (step === 0) return ERROR;
    const items: Value[] = [];
    for (let n = start; step > 0 ? n < limit : n > limit; n += step) {
      if (items.length >= 1024) return ERROR;
      items.push(num(n));
    }
    return list(items);
  },
  zipmap: (args) => {
    const keys = args[0] && asList(args[0]);
    const values = args[1] && asList(args[1]);
    if (!keys || !values) return UNKNOWN;
    if (keys.length !== values.length) return ERROR;
    const entries: [string, Value][] = [];
    for (let i = 0; i < keys.length; i++) {
      const k = stringOf(keys[i]);
      if (k === undefined) return UNKNOWN;
      entries.push([k, values[i]]);
    }
    return object(entries);
  },
  setunion: (args) => {
    const items: Value[] = [];
    for (const a of args) {
      const l = asList(a);
      if (!l) return UNKNOWN;
      items.push(...l);
    }
    return toSet(items);
  },
  sort: (args) => {
    const l = args[0] && asList(args[0]);
    if (!l) return UNKNOWN;
    const texts = l.map((item) => (item.kind === 'string' ? item : undefined));
    if (texts.some((t) => t === undefined)) return UNKNOWN;
    return list([...(texts as StringValue[])].sort((a, b) => compareStrings(a.value, b.value)));
  },
  reverse: (args) => {
    const l = args[0] && asList(args[0]);
    return l ? list([...l].reverse()) : UNKNOWN;
  },
  chunklist: (args) => {
    const l = args[0] && asList(args[0]);
    const size = args[1] && asNumber(args[1]);
    if (!l || size === undefined || !Number.isInteger(size) || size < 0) return UNKNOWN;
    if (size === 0) return list([list(l)]);
    const chunks: Value[] = [];
    for (let i = 0; i < l.length; i += size) chunks.push(list(l.slice(i, i + size)));
    return list(chunks);
  },
  one: (args) => {
    const l = args[0] && asList(args[0]);
    if (!l) return args[0]?.kind === 'null' ? NULL : UNKNOWN;
    return l.length === 0 ? NULL : l.length === 1 ? l[0] : ERROR;
  },
  sum: (args) => {
    const l = args[0] && asList(args[0]);
    if (!l || l.length === 0) return UNKNOWN;
    let total = 0;
    for (const item of l) {
      const n = asNumber(item);
      if (n === undefined) return UNKNOWN;
      total += n;
    }
    return num(total);
  },
  min: (args) => extreme(args, Math.min),
  max: (args) => extreme(args, Math.max),
  abs: (args) => numeric(args, Math.abs),
  ceil: (args) => numeric(args, Math.ceil),
  floor: (args) => numeric(args, Math.floor),
  regex: (args, place) => regexMatch(args, place, false),
  regexall: (args, place) => regexMatch(args, place, true),
};

/** Calls a function on evaluated arguments; unknown for one not here or not known. */
export function callFunction(name: string, args: readonly Value[], place: Place, context: FileContext): Value {
  const implementation = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (!implementation) return UNKNOWN;
  // An unknown argument makes the result unknown (cty's functions are not called with one),
  // but for the few that look into collections item by item.
  if (args.some((a) => a.kind === 'error')) return ERROR;
  if (args.some((a) => a.kind === 'unknown') && !LOOKS_INSIDE.has(name)) return UNKNOWN;
  if (args.some((a) => a.kind === 'list' && a.items.some((item) => item.kind === 'unknown')) && !LOOKS_INSIDE.has(name)) {
    // An unknown item: the functions that only move items about still give the others.
    if (!MOVES_ITEMS.has(name)) return UNKNOWN;
  }
  try {
    return implementation(args, place, context);
  } catch {
    return UNKNOWN;
  }
}

const LOOKS_INSIDE = new Set(['coalesce', 'coalescelist']);
const MOVES_ITEMS = new Set(['concat', 'flatten', 'slice', 'reverse', 'chunklist', 'element', 'one', 'merge', 'tolist', 'values', 'keys', 'lookup', 'length']);

function caseChange(args: readonly Value[], place: Place, change: (s: string) => string): Value {
  const s = args[0] && asString(args[0], place);
  // Beyond ASCII, Go's and JavaScript's case tables differ in places (`ß`): not followed.
  if (!s || args.length !== 1 || !ascii(s.value)) return UNKNOWN;
  return sameShape(s, change(s.value), place);
}

function stringTest(args: readonly Value[], place: Place, test: (s: string, t: string) => boolean): Value {
  const s = args[0] && asString(args[0], place);
  const t = args[1] && asString(args[1], place);
  return s && t ? bool(test(s.value, t.value)) : UNKNOWN;
}

function numeric(args: readonly Value[], f: (n: number) => number): Value {
  const n = args[0] && asNumber(args[0]);
  return n === undefined ? UNKNOWN : num(f(n));
}

function extreme(args: readonly Value[], f: (...n: number[]) => number): Value {
  const numbers = args.map(asNumber);
  if (numbers.length === 0 || numbers.some((n) => n === undefined)) return UNKNOWN;
  return num(f(...(numbers as number[])));
}

/** A verb of `format`: `%[argument]flags width .precision mode`, as go-cty's format_fsm.rl reads it. */
const VERB = /^%([-+# 0]*)(?:\[([1-9]\d*)\])?([1-9]\d*)?(?:\.(\d*))?(.)/su;

interface Verb {
  readonly flags: string;
  readonly width?: number;
  readonly precision?: number;
  readonly mode: string;
}

/**
 * `format` (go-cty stdlib/format.go): every verb it knows (`%v %t %s %q %d %b %o %x %X %e %E %f %g %G`)
 * with flags, width, precision and argument index, as it writes them (Go's fmt over big.Int and
 * big.Float); `%#`-forms but `%#v` are not followed (unknown).
 */
function format(args: readonly Value[], place: Place): Value {
  const spec = args[0] && asString(args[0], place);
  if (!spec) return UNKNOWN;
  const parts: StringValue[] = [];
  const text = spec.value;
  let next = 1;
  let highest = 0;
  let literalFrom = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '%') continue;
    parts.push(sliceString(spec, literalFrom, i));
    if (text[i + 1] === '%') {
      parts.push(sliceString(spec, i + 1, i + 2));
      i++;
      literalFrom = i + 1;
      continue;
    }
    const match = VERB.exec(text.slice(i, i + 64));
    if (!match || !/^[A-Za-z]$/.test(match[5])) return ERROR;
    i += match[0].length - 1;
    literalFrom = i + 1;
    const index = match[2] !== undefined ? Number(match[2]) : next;
    next = index + 1;
    highest = Math.max(highest, index);
    const arg = args[index];
    if (!arg) return ERROR;
    if (isUnsure(arg)) return UNKNOWN;
    // A width or a precision past what a value may hold would only grow text: not followed.
    if (Number(match[3] ?? 0) > MAX_STRING || Number(match[4] || 0) > 1000) return UNKNOWN;
    const verb: Verb = { flags: match[1], width: match[3] === undefined ? undefined : Number(match[3]), precision: match[4] === undefined ? undefined : Number(match[4] || '0'), mode: match[5] };
    if (verb.mode !== 'v' && arg.kind === 'null') return ERROR;
    const written = formatted(verb, arg, place);
    if (written.kind !== 'string') return written;
    parts.push(written);
  }
  parts.push(sliceString(spec, literalFrom, text.length));
  // go-cty refuses arguments no verb uses.
  if (highest < args.length - 1) return ERROR;
  return concatStrings(parts);
}

/** One verb's text for one argument (format.go formatAppend). */
function formatted(verb: Verb, arg: Value, place: Place): Value {
  const sharp = verb.flags.includes('#');
  switch (verb.mode) {
    case 'v': {
      if (!sharp && arg.kind === 'string') return padded(verb, arg, place);
      if (!sharp && arg.kind === 'number') {
        const text = floatText(arg.value, 'g', undefined);
        return text === undefined ? UNKNOWN : padded(verb, produced(text, place), place);
      }
      if (!whollyKnown(arg)) return UNKNOWN;
      const json = jsonText(arg);
      return json === undefined ? UNKNOWN : padded(verb, produced(json, place), place);
    }
    case 't': {
      const b = arg.kind === 'bool' ? arg.value : arg.kind === 'string' ? stringBool(arg.value) : undefined;
      return b === undefined ? ERROR : produced(String(b), place);
    }
    case 's':
    case 'q': {
      const s = asString(arg, place);
      if (!s) return ERROR;
      let kept: StringValue = s;
      if (verb.precision !== undefined && verb.precision > 0) {
        const clusters = graphemes(s.value);
        if (clusters.length > verb.precision) kept = sliceString(s, 0, clusters.slice(0, verb.precision).join('').length);
      }
      if (verb.mode === 's') return padded(verb, kept, place);
      return padded(verb, produced(jsonText({ kind: 'string', value: kept.value, pieces: [] })!, place), place);
    }
    case 'd':
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      const n = asNumber(arg);
      if (n === undefined || !Number.isInteger(n)) return ERROR;
      // Past 2^53 a double is no longer the integer cty holds; `#` writes prefixes not followed here.
      if (!Number.isSafeInteger(n) || sharp || verb.precision !== undefined) return UNKNOWN;
      const radix = { d: 10, b: 2, o: 8, x: 16, X: 16 }[verb.mode]!;
      const digits = Math.abs(n).toString(radix);
      return numberPadded(verb, n < 0, verb.mode === 'X' ? digits.toUpperCase() : digits, place);
    }
    case 'e':
    case 'E':
    case 'f':
    case 'g':
    case 'G': {
      const n = asNumber(arg);
      if (n === undefined) return ERROR;
      if (sharp) return UNKNOWN;
      // big.Float's Format: `%f` and `%e` without a precision write 6 digits; `%g` the shortest.
      const precision = verb.precision ?? (verb.mode === 'g' || verb.mode === 'G' ? undefined : 6);
      const text = floatText(Math.abs(n), verb.mode, precision);
      return text === undefined ? UNKNOWN : numberPadded(verb, n < 0 || Object.is(n, -0), text, place);
    }
    default:
      return ERROR;
  }
}

/** go-cty's conversion of a string to bool: "true"/"1" and "false"/"0". */
function stringBool(text: string): boolean | undefined {
  return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : undefined;
}

/** The grapheme clusters of a string (textseg in go-cty): Intl's segmenter, Unicode's rules. */
function graphemes(text: string): string[] {
  return Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);
}

/** format.go formatPadWidth: padding to the width in grapheme clusters, `-` on the right, `0` with zeros. */
function padded(verb: Verb, s: StringValue, place: Place): StringValue {
  if (verb.width === undefined) return s;
  const length = graphemes(s.value).length;
  if (length >= verb.width) return s;
  const pad = produced((verb.flags.includes('0') ? '0' : ' ').repeat(verb.width - length), place);
  return verb.flags.includes('-') ? concatStrings([s, pad]) : concatStrings([pad, s]);
}

/** Go's fmt for a number (big.Int, big.Float Format): sign (`+`, ` `), then padding to the width: `-` on the right, `0` zeros after the sign. */
function numberPadded(verb: Verb, negative: boolean, digits: string, place: Place): StringValue {
  const sign = negative ? '-' : verb.flags.includes('+') ? '+' : verb.flags.includes(' ') ? ' ' : '';
  let text = sign + digits;
  const width = verb.width ?? 0;
  if (text.length < width) {
    if (verb.flags.includes('-')) text += ' '.repeat(width - text.length);
    else if (verb.flags.includes('0')) text = sign + '0'.repeat(width - text.length) + digits;
    else text = ' '.repeat(width - text.length) + text;
  }
  return produced(text, place);
}

/**
 * A non-negative number in `%e`, `%f` or `%g` form as Go's math/big ftoa.go writes it (precision
 * undefined: the shortest); undefined where the rounding meets a tie.
 */
function floatText(n: number, mode: string, precision: number | undefined): string | undefined {
  const d = decimalDigits(Math.abs(n));
  if (!d) return undefined;
  let { digits, exponent } = d;
  const shortest = precision === undefined;
  let prec: number;
  if (shortest) prec = mode === 'f' ? Math.max(digits.length - exponent, 0) : mode === 'g' || mode === 'G' ? digits.length : digits.length - 1;
  else {
    prec = precision;
    const count = mode === 'f' ? exponent + prec : mode === 'e' || mode === 'E' ? 1 + prec : Math.max(prec, 1);
    if (mode === 'g' || mode === 'G') prec = Math.max(prec, 1);
    const rounded = roundDigits(digits, exponent, count, exactDecimal(n));
    if (!rounded) return undefined;
    ({ digits, exponent } = rounded);
  }
  const sign = n < 0 ? '-' : '';
  const eForm = (letter: string, p: number) => {
    let text = digits[0] ?? '0';
    if (p > 0) text += `.${(digits.slice(1, p + 1)).padEnd(p, '0')}`;
    const e = digits.length > 0 ? exponent - 1 : 0;
    return `${text}${letter}${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  };
  switch (mode) {
    case 'e':
    case 'E':
      return sign + eForm(mode, prec);
    case 'f':
      return sign + fixedText(digits, exponent, prec);
    default: {
      let eprec = prec;
      if (eprec > digits.length && digits.length >= exponent) eprec = digits.length;
      if (shortest) eprec = 6;
      const e = exponent - 1;
      if (e < -4 || e >= eprec) return sign + eForm(mode === 'G' ? 'E' : 'e', Math.min(prec, digits.length) - 1);
      if (prec > exponent) prec = digits.length;
      return sign + fixedText(digits, exponent, Math.max(prec - exponent, 0));
    }
  }
}

/** `replace(string, substring, replacement)`; a `/…/` substring is a regular expression (RE2 syntax, read by re2js: linear time). */
function replace(args: readonly Value[], place: Place): Value {
  const s = args[0] && asString(args[0], place);
  const search = args[1] && asString(args[1], place);
  const replacement = args[2] && asString(args[2], place);
  if (!s || !search || !replacement || args.length !== 3) return UNKNOWN;
  const matches: [number, number][] = [];
  const pattern = /^\/(.*)\/$/s.exec(search.value);
  if (pattern) {
    // `$1` and the like in the replacement are not followed.
    if (replacement.value.includes('$')) return UNKNOWN;
    let regex: RE2JS;
    try {
      regex = RE2JS.compile(pattern[1]);
    } catch {
      return ERROR;
    }
    const matcher = regex.matcher(s.value);
    let from = 0;
    while (from <= s.value.length && matcher.find(from)) {
      const [a, b] = [matcher.start(), matcher.end()];
      matches.push([a, b]);
      from = b > a ? b : b + 1;
      if (matches.length > MAX_ITEMS) return UNKNOWN;
    }
  } else {
    if (search.value === '') return UNKNOWN;
    for (let at = s.value.indexOf(search.value); at >= 0; at = s.value.indexOf(search.value, at + search.value.length)) {
      matches.push([at, at + search.value.length]);
      if (matches.length > MAX_ITEMS) return UNKNOWN;
    }
  }
  const parts: StringValue[] = [];
  let at = 0;
  for (const [a, b] of matches) {
    parts.push(sliceString(s, at, a), replacement);
    at = b;
  }
  parts.push(sliceString(s, at, s.value.length));
  return concatStrings(parts);
}

/** `regex` and `regexall`: the match, or its groups as a list (numbered) or an object (named). */
function regexMatch(args: readonly Value[], place: Place, all: boolean): Value {
  const pattern = args[0] && asString(args[0], place);
  const s = args[1] && asString(args[1], place);
  if (!pattern || !s) return UNKNOWN;
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern.value);
  } catch {
    return ERROR;
  }
  // Named groups make an object: not followed.
  if (/\(\?P?</.test(pattern.value)) return UNKNOWN;
  const groups = regex.groupCount();
  const matcher = regex.matcher(s.value);
  const results: Value[] = [];
  let from = 0;
  while (from <= s.value.length && matcher.find(from)) {
    const [a, b] = [matcher.start(), matcher.end()];
    if (groups === 0) results.push(sliceString(s, a, b));
    else {
      const items: Value[] = [];
      for (let g = 1; g <= groups; g++) {
        const start = matcher.start(g);
        items.push(start < 0 ? NULL : sliceString(s, start, matcher.end(g)));
      }
      results.push(list(items));
    }
    if (!all) break;
    from = b > a ? b : b + 1;
    if (results.length > MAX_ITEMS) return UNKNOWN;
  }
  if (all) return list(results);
  return results[0] ?? ERROR;
}

/**
 * `jsonencode`'s text (go-cty's json package: object keys sorted, no spaces, `<`, `>` and `&`
 * escaped as Go's encoding/json does). Numbers as cty writes them; one JavaScript writes with an
 * exponent is not followed.
 */
function jsonText(value: Value, budget = { length: MAX_STRING }): string | undefined {
  if (budget.length < 0) throw new TooLarge();
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return String(value.value);
    case 'number':
      return numberText(value.value);
    case 'string':
      budget.length -= value.value.length;
      return JSON.stringify(value.value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    case 'list': {
      const items = value.items.map((item) => jsonText(item, budget));
      return items.some((i) => i === undefined) ? undefined : `[${items.join(',')}]`;
    }
    case 'object': {
      const items: string[] = [];
      for (const [k, v] of value.entries) {
        const text = jsonText(v, budget);
        if (text === undefined) return undefined;
        items.push(`${jsonText({ kind: 'string', value: k, pieces: [] })}:${text}`);
      }
      return `{${items.join(',')}}`;
    }
    default:
      return undefined;
  }
}

/** A YAML node of the `yaml` package's document as go-cty-yaml decodes it (decode.go): sequences are tuples, mappings objects with string keys. */
function fromYaml(node: unknown, place: Place, depth: number): Value {
  const YAML = require('yaml') as typeof import('yaml');
  if (depth > 64) return UNKNOWN;
  if (node === null || node === undefined) return NULL;
  if (YAML.isSeq(node)) return node.items.length > MAX_ITEMS ? UNKNOWN : list(node.items.map((item) => fromYaml(item, place, depth + 1)));
  if (YAML.isMap(node)) {
    const entries = new Map<string, Value>();
    for (const pair of node.items) {
      const key = YAML.isScalar(pair.key) ? yamlScalar(pair.key, place) : undefined;
      // Only strings (and what converts to one) are keys; a null key is an error.
      if (!key || key.kind === 'null') return key ? ERROR : UNKNOWN;
      const name = stringOf(key);
      if (name === undefined) return isUnsure(key) ? key : ERROR;
      entries.set(name, fromYaml(pair.value, place, depth + 1));
    }
    return object(entries);
  }
  if (YAML.isScalar(node)) return yamlScalar(node, place);
  return UNKNOWN;
}

/**
 * A scalar as go-cty-yaml's resolveScalar reads it (resolve.go): quoted is a string; YAML 1.1's
 * booleans (`y`, `yes`, `on`, `true`, in three cases, and their `n`, `no`, `off`, `false`) and nulls
 * (``, `~`, `null`); decimal, `0o` and `0x` integers and floats; a timestamp (not followed); else a string.
 */
function yamlScalar(node: import('yaml').Scalar, place: Place): Value {
  const YAML = require('yaml') as typeof import('yaml');
  const source = node.value === null || node.value === undefined ? '' : String(node.value);
  if (node.type === YAML.Scalar.QUOTE_DOUBLE || node.type === YAML.Scalar.QUOTE_SINGLE) return produced(source, place);
  if (YAML_BOOLEANS.has(source)) return bool(YAML_BOOLEANS.get(source)!);
  if (source === '' || source === '~' || source === 'null' || source === 'Null' || source === 'NULL') return NULL;
  // Infinities and NaN: no number of JSON's, nor of cty's (NaN).
  if (/^[-+]?\.(inf|Inf|INF)$/.test(source) || /^\.(nan|NaN|NAN)$/.test(source)) return UNKNOWN;
  const first = source[0];
  if (first === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(source) ? num(Number(source)) : produced(source, place);
  if (/[-+0-9]/.test(first)) {
    if (/^\d{4}-/.test(source)) return UNKNOWN;
    if (/^[-+]?[0-9]+$/.test(source) || /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(source)) return num(Number(source));
    if (/^0o[0-7]+$/.test(source)) return num(parseInt(source.slice(2), 8));
    if (/^0x[0-9a-fA-F]+$/.test(source)) return num(parseInt(source.slice(2), 16));
  }
  return produced(source, place);
}

const YAML_BOOLEANS = new Map<string, boolean>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((s) => [s, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((s) => [s, false] as const),
]);

/** A decoded JSON value; its strings come from the call. */
function fromData(data: unknown, place: Place, depth: number): Value {
  if (depth > 64) return UNKNOWN;
  if (data === null || data === undefined) return NULL;
  if (typeof data === 'boolean') return bool(data);
  if (typeof data === 'number') return num(data);
  if (typeof data === 'string') return produced(data, place);
  if (Array.isArray(data)) return data.length > MAX_ITEMS ? UNKNOWN : list(data.map((d) => fromData(d, place, depth + 1)));
  if (typeof data === 'object') return object(Object.entries(data as Record<string, unknown>).map(([k, v]) => [k, fromData(v, place, depth + 1)] as const));
  return UNKNOWN;
}
