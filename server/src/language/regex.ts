/**
 * The regular expressions of `matches` / `~` as the reference engine reads them.
 *
 * wirefilter hands the pattern to the Rust `regex` crate (regex-automata's meta regex, with
 * `unicode(false)` and `utf8(false)`: byte-oriented, ASCII-only classes and case folding
 * unless the pattern turns `(?u)` on). This module follows that crate's parser
 * (regex-syntax's AST parser and the checks of its translator that can fail) to report the
 * same invalid patterns on the same characters, and at the same time rewrites a valid
 * pattern into RE2 syntax over Latin-1 text (one character per byte), so that the
 * evaluator can match it in linear time with re2js.
 *
 * Where RE2 and Rust differ, Rust is followed: `\d`, `\s`, `\w` and `\b` are ASCII, `\s` includes
 * `\v`; `\<`, `\>` and `\b{start}`… exist; `a**` and `a++` are nested repetitions (never
 * possessive); `(?P<n>…)` and `(?<n>…)` both name a group; `[a&&b]`, `[a--b]`, `[a~~b]`
 * are class set operations; `\z` ends the text and `\Z` is an error; superfluous escapes
 * of ASCII punctuation (`\/`, `\"`) are literals; octal and backreferences are errors.
 */

export interface RegexError {
  /** UTF-16 offsets into the pattern. */
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

export interface TranslatedRegex {
  /** The same pattern in RE2 syntax, over text whose characters are the input's bytes. */
  readonly re2: string;
  /** Whether `re2` uses lookbehinds (re2js's RE2JS.LOOKBEHINDS flag). */
  readonly lookbehinds: boolean;
  /** Set when the pattern uses something the translation cannot express over bytes. */
  readonly unsupported?: string;
}

export type RegexResult = { readonly ok: true; readonly translated: TranslatedRegex } | { readonly ok: false; readonly error: RegexError };

// Messages are regex-syntax's own, so that they can be looked up; `why` adds what to do.
const M = {
  groupUnclosed: 'unclosed group',
  groupUnopened: 'unopened group',
  repetitionMissing: 'repetition operator missing expression',
  repetitionCountUnclosed: 'unclosed counted repetition',
  repetitionCountDecimalEmpty: 'repetition quantifier expects a valid decimal',
  repetitionCountInvalid: 'invalid repetition count range, the start must be <= the end',
  decimalInvalid: 'decimal literal invalid',
  lookAround: 'look-around, including look-ahead and look-behind, is not supported',
  groupNameEof: 'unclosed capture group name',
  groupNameInvalid: 'invalid capture group character',
  groupNameEmpty: 'empty capture group name',
  groupNameDuplicate: 'duplicate capture group name',
  flagEof: 'expected flag but got end of regex',
  flagUnrecognized: 'unrecognized flag',
  flagDuplicate: 'duplicate flag',
  flagRepeatedNegation: 'flag negation operator repeated',
  flagDanglingNegation: 'dangling flag negation operator',
  escapeEof: 'incomplete escape sequence, reached end of pattern prematurely',
  escapeUnrecognized: 'unrecognized escape sequence',
  backreference: 'backreferences are not supported',
  hexInvalidDigit: 'invalid hexadecimal digit',
  hexEmpty: 'hexadecimal literal empty',
  hexInvalid: 'hexadecimal literal is not a Unicode scalar value',
  unicodeClassInvalid: 'invalid Unicode character class',
  specialWordBoundaryUnclosed: 'special word boundary assertion is either unclosed or contains an invalid character',
  specialWordBoundaryUnrecognized: 'unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half',
  specialWordOrRepetitionEof: 'found either the beginning of a special word boundary or a bounded repetition on a \\b with an opening brace, but no closing brace',
  classUnclosed: 'unclosed character class',
  classEscapeInvalid: 'invalid escape sequence found in character class',
  classRangeLiteral: 'invalid range boundary, must be a literal',
  classRangeInvalid: 'invalid character class range, the start must be <= the end',
  unicodeNotAllowed: 'Unicode not allowed here',
  nestLimit: 'exceed the maximum number of nested parentheses/brackets (250)',
} as const;

class Failure extends Error {
  constructor(readonly error: RegexError) {
    super(error.message);
  }
}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
  u: boolean;
  x: boolean;
  R: boolean;
}

/** A set of bytes (non-Unicode class) as 256 booleans. */
type ByteSet = boolean[];

const WORD = '[0-9A-Za-z_]';
const NEST_LIMIT = 250;

function isMeta(c: string): boolean {
  return '\\.+*?()|[]{}^$#&-~'.includes(c);
}

function isEscapeable(c: string): boolean {
  if (isMeta(c)) return true;
  const code = c.codePointAt(0)!;
  if (code > 0x7f) return false;
  if (/[0-9A-Za-z<>]/.test(c)) return false;
  return true;
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

/** Rust's char::is_whitespace (the White_Space property). */
function isWhitespace(c: string | undefined): boolean {
  return c !== undefined && /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(c);
}

function isScalar(value: number): boolean {
  return value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff);
}

function utf8(codePoint: number): number[] {
  return [...new TextEncoder().encode(String.fromCodePoint(codePoint))];
}

function hexByte(b: number): string {
  return `\\x{${b.toString(16).toUpperCase()}}`;
}

function byteSet(): ByteSet {
  return new Array<boolean>(256).fill(false);
}

function addRange(set: ByteSet, from: number, to: number): void {
  for (let b = from; b <= to; b++) set[b] = true;
}

function emitByteSet(set: ByteSet): string {
  let out = '';
  for (let b = 0; b < 256; ) {
    if (!set[b]) {
      b++;
      continue;
    }
    let e = b;
    while (e + 1 < 256 && set[e + 1]) e++;
    out += e === b ? hexByte(b) : `${hexByte(b)}-${hexByte(e)}`;
    b = e + 1;
  }
  return out === '' ? '[^\\x{0}-\\x{10FFFF}]' : `[${out}]`;
}

function foldAscii(set: ByteSet): void {
  for (let b = 0x41; b <= 0x5a; b++) {
    if (set[b] || set[b + 0x20]) set[b] = set[b + 0x20] = true;
  }
}

const PERL: Record<string, (set: ByteSet) => void> = {
  d: (s) => addRange(s, 0x30, 0x39),
  s: (s) => [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20].forEach((b) => (s[b] = true)),
  w: (s) => {
    addRange(s, 0x30, 0x39);
    addRange(s, 0x41, 0x5a);
    addRange(s, 0x61, 0x7a);
    s[0x5f] = true;
  },
};

const ASCII_CLASSES: Record<string, [number, number][]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};

/** One UTF-8 encoded scalar value of two to four bytes. */
const MULTIBYTE_UTF8 =
  '[\\x{C2}-\\x{DF}][\\x{80}-\\x{BF}]|\\x{E0}[\\x{A0}-\\x{BF}][\\x{80}-\\x{BF}]|[\\x{E1}-\\x{EC}\\x{EE}\\x{EF}][\\x{80}-\\x{BF}]{2}|\\x{ED}[\\x{80}-\\x{9F}][\\x{80}-\\x{BF}]|\\x{F0}[\\x{90}-\\x{BF}][\\x{80}-\\x{BF}]{2}|[\\x{F1}-\\x{F3}][\\x{80}-\\x{BF}]{3}|\\x{F4}[\\x{80}-\\x{8F}][\\x{80}-\\x{BF}]{2}';

/** A literal as the parser read it: `byte` when it is a fixed `\xHH` escape, which stands for one byte. */
interface Lit {
  readonly kind: 'literal';
  readonly c: number;
  readonly byte: boolean;
  readonly start: number;
  readonly end: number;
}

type Primitive =
  | Lit
  | { readonly kind: 'perl'; readonly name: string; readonly negated: boolean; readonly start: number; readonly end: number }
  | { readonly kind: 'unicode'; readonly start: number; readonly end: number }
  | { readonly kind: 'assertion'; readonly re2: string; readonly unicodeSensitive: boolean; readonly lookbehind: boolean; readonly start: number; readonly end: number }
  | { readonly kind: 'dot'; readonly start: number; readonly end: number };

/** One element of a concatenation, already translated. */
interface Item {
  readonly re2: string;
  /** A `(?flags)` item, which a repetition cannot apply to. */
  readonly flagsOnly?: boolean;
  readonly start: number;
}

class Parser {
  private pos = 0;
  private readonly chars: string[];
  /** UTF-16 offset of each character, and of the end. */
  private readonly offsets: number[];
  private flags: Flags = { i: false, m: false, s: false, U: false, u: false, x: false, R: false };
  private readonly names = new Set<string>();
  private lookbehinds = false;
  private unsupported: string | undefined;
  private depth = 0;
  /** The first error of the translation, which regex-syntax reports only if the whole pattern parses. */
  private deferred: RegexError | undefined;

  /**
   * @param translate Whether the RE2 text is wanted; without it only the errors are found (the
   * same ones: every check stays, only the strings are not built).
   */
  constructor(
    pattern: string,
    private readonly translate: boolean,
  ) {
    this.chars = Array.from(pattern);
    this.offsets = [];
    let at = 0;
    for (const c of this.chars) {
      this.offsets.push(at);
      at += c.length;
    }
    this.offsets.push(at);
  }

  private fail(start: number, end: number, message: string): never {
    throw new Failure({ start: this.offsets[start], end: this.offsets[end], message });
  }

  private cur(): string | undefined {
    return this.chars[this.pos];
  }

  private eof(): boolean {
    return this.pos >= this.chars.length;
  }

  private bump(): boolean {
    if (this.eof()) return false;
    this.pos++;
    return !this.eof();
  }

  private bumpIf(prefix: string): boolean {
    const parts = Array.from(prefix);
    for (let i = 0; i < parts.length; i++) if (this.chars[this.pos + i] !== parts[i]) return false;
    this.pos += parts.length;
    return true;
  }

  private bumpSpace(): void {
    if (!this.flags.x) return;
    while (!this.eof()) {
      if (isWhitespace(this.cur())) this.pos++;
      else if (this.cur() === '#') {
        while (!this.eof() && this.chars[this.pos++] !== '\n');
      } else break;
    }
  }

  private bumpAndBumpSpace(): boolean {
    if (!this.bump()) return false;
    this.bumpSpace();
    return !this.eof();
  }

  private peek(): string | undefined {
    return this.chars[this.pos + 1];
  }

  private peekSpace(): string | undefined {
    if (!this.flags.x) return this.peek();
    let inComment = false;
    for (let i = this.pos + 1; i < this.chars.length; i++) {
      const c = this.chars[i];
      if (isWhitespace(c)) continue;
      if (!inComment && c === '#') inComment = true;
      else if (inComment && c === '\n') inComment = false;
      else if (!inComment) return c;
    }
    return undefined;
  }

  private nest(start: number, end: number): void {
    if (++this.depth > NEST_LIMIT) this.fail(start, end, M.nestLimit);
  }

  private translationError(start: number, end: number, message: string): void {
    this.deferred ??= { start: this.offsets[start], end: this.offsets[end], message };
  }

  private markUnsupported(why: string): void {
    this.unsupported ??= why;
  }

  parse(): TranslatedRegex {
    const re2 = this.parseAlternation(undefined);
    if (this.deferred) throw new Failure(this.deferred);
    return { re2, lookbehinds: this.lookbehinds, ...(this.unsupported ? { unsupported: this.unsupported } : {}) };
  }

  /**
   * Parses up to the `)` closing the group opened at `open` (or the end of the pattern when
   * `open` is undefined), leaving the position after that `)`.
   */
  private parseAlternation(open: number | undefined): string {
    const branches: string[] = [];
    let items: Item[] = [];
    const saved = { ...this.flags };
    for (;;) {
      this.bumpSpace();
      if (this.eof()) {
        if (open !== undefined) this.fail(open, open + 1, M.groupUnclosed);
        break;
      }
      const c = this.cur()!;
      if (c === ')') {
        if (open === undefined) this.fail(this.pos, this.pos + 1, M.groupUnopened);
        this.pos++;
        break;
      }
      if (c === '|') {
        branches.push(items.map((i) => i.re2).join(''));
        items = [];
        this.pos++;
        continue;
      }
      if (c === '(') {
        const item = this.parseGroup();
        if (item) items.push(item);
        continue;
      }
      if (c === '[') {
        const start = this.pos;
        items.push({ re2: this.parseClass(), start });
        continue;
      }
      if (c === '?' || c === '*' || c === '+') {
        this.repeatUncounted(items, c);
        continue;
      }
      if (c === '{') {
        this.repeatCounted(items);
        continue;
      }
      const start = this.pos;
      items.push({ re2: this.primitiveOutsideClass(this.parsePrimitive()), start });
    }
    branches.push(items.map((i) => i.re2).join(''));
    // Flags set by `(?i)` inside a group end with the group.
    this.flags = saved;
    return branches.length === 1 ? branches[0] : `(?:${branches.join('|')})`;
  }

  private lastRepeatable(items: Item[], at: number): Item {
    const last = items[items.length - 1];
    if (!last || last.flagsOnly) this.fail(at, at, M.repetitionMissing);
    return items.pop()!;
  }

  private repeatUncounted(items: Item[], op: string): void {
    const at = this.pos;
    const operand = this.lastRepeatable(items, at);
    // Lazy or greedy, a repetition matches the same texts: only whether one matches counts.
    if (this.bump() && this.cur() === '?') this.pos++;
    items.push({ re2: `(?:${operand.re2})${op}`, start: operand.start });
  }

  private repeatCounted(items: Item[]): void {
    const start = this.pos;
    const operand = this.lastRepeatable(items, start);
    if (!this.bumpAndBumpSpace()) this.fail(start, this.pos, M.repetitionCountUnclosed);
    const min = this.parseDecimal();
    if (this.eof()) this.fail(start, this.pos, M.repetitionCountUnclosed);
    let max: number | undefined | 'inf' = undefined;
    if (this.cur() === ',') {
      if (!this.bumpAndBumpSpace()) this.fail(start, this.pos, M.repetitionCountUnclosed);
      if (this.cur() !== '}') {
        if ('error' in min) this.fail(min.error.start, min.error.end, min.error.message);
        const end = this.parseDecimal();
        if ('error' in end) this.fail(end.error.start, end.error.end, end.error.message);
        max = end.value;
      } else {
        max = 'inf';
      }
    }
    if ('error' in min) this.fail(min.error.start, min.error.end, min.error.message);
    if (this.eof() || this.cur() !== '}') this.fail(start, this.pos, M.repetitionCountUnclosed);
    if (this.bumpAndBumpSpace() && this.cur() === '?') this.pos++;
    if (typeof max === 'number' && min.value > max) this.fail(start, this.pos, M.repetitionCountInvalid);
    const count = max === undefined ? `{${min.value}}` : max === 'inf' ? `{${min.value},}` : `{${min.value},${max}}`;
    items.push({ re2: `(?:${operand.re2})${count}`, start: operand.start });
  }

  /** A decimal in a counted repetition; errors are returned, as regex-syntax reports some later. */
  private parseDecimal(): { value: number } | { error: { start: number; end: number; message: string } } {
    while (!this.eof() && isWhitespace(this.cur())) this.pos++;
    const start = this.pos;
    let digits = '';
    while (!this.eof() && /[0-9]/.test(this.cur()!)) {
      digits += this.cur();
      this.bumpAndBumpSpace();
    }
    const end = this.pos;
    while (!this.eof() && isWhitespace(this.cur())) this.bumpAndBumpSpace();
    if (digits === '') return { error: { start, end, message: M.repetitionCountDecimalEmpty } };
    const value = Number(digits);
    if (value > 0xffffffff) return { error: { start, end, message: M.decimalInvalid } };
    return { value };
  }

  /** `(…)`, `(?:…)`, `(?P<n>…)`, `(?<n>…)`, `(?flags)`, `(?flags:…)`. */
  private parseGroup(): Item | undefined {
    const open = this.pos;
    this.pos++;
    this.bumpSpace();
    if (this.bumpIf('?=') || this.bumpIf('?!') || this.bumpIf('?<=') || this.bumpIf('?<!')) this.fail(open, this.pos, M.lookAround);
    const innerStart = this.pos;
    if (this.bumpIf('?P<') || this.bumpIf('?<')) {
      this.parseCaptureName();
      return this.groupBody(open, { ...this.flags }, true);
    }
    if (this.bumpIf('?')) {
      if (this.eof()) this.fail(open, open + 1, M.groupUnclosed);
      const { flags, count } = this.parseFlags();
      const end = this.cur();
      this.pos++;
      if (end === ')') {
        if (count === 0) this.fail(innerStart, innerStart, M.repetitionMissing);
        this.flags = flags;
        return { re2: '', flagsOnly: true, start: open };
      }
      return this.groupBody(open, flags, false);
    }
    return this.groupBody(open, { ...this.flags }, true);
  }

  /** A capture group stays one, numbered as the source numbers it (`regex_replace`'s `${N}`); the translation's own groups do not capture. */
  private groupBody(open: number, flags: Flags, capture: boolean): Item {
    const outer = this.flags;
    this.flags = flags;
    this.nest(open, open + 1);
    const inner = this.parseAlternation(open);
    this.depth--;
    this.flags = outer;
    return { re2: capture ? `(${inner})` : `(?:${inner})`, start: open };
  }

  private parseCaptureName(): void {
    if (this.eof()) this.fail(this.pos, this.pos, M.groupNameEof);
    const start = this.pos;
    for (;;) {
      if (this.cur() === '>') break;
      const c = this.cur()!;
      const first = this.pos === start;
      const valid = c === '_' || /\p{Alphabetic}/u.test(c) || (!first && (c === '.' || c === '[' || c === ']' || /[\p{Alphabetic}\p{Nd}\p{Nl}\p{No}]/u.test(c)));
      if (!valid) this.fail(this.pos, this.pos + 1, M.groupNameInvalid);
      if (!this.bump()) break;
    }
    const end = this.pos;
    if (this.eof()) this.fail(this.pos, this.pos, M.groupNameEof);
    this.pos++;
    const name = this.chars.slice(start, end).join('');
    if (name === '') this.fail(start, start, M.groupNameEmpty);
    if (this.names.has(name)) this.fail(start, end, M.groupNameDuplicate);
    this.names.add(name);
  }

  private parseFlags(): { flags: Flags; count: number } {
    const flags = { ...this.flags };
    const seen = new Set<string>();
    let negate = false;
    let negationAt: number | undefined;
    let lastWasNegation: number | undefined;
    let count = 0;
    while (this.cur() !== ':' && this.cur() !== ')') {
      const c = this.cur()!;
      if (c === '-') {
        if (negationAt !== undefined) this.fail(this.pos, this.pos + 1, M.flagRepeatedNegation);
        negationAt = this.pos;
        lastWasNegation = this.pos;
        negate = true;
      } else {
        lastWasNegation = undefined;
        if (!'imsUuRx'.includes(c) || c.length !== 1) this.fail(this.pos, this.pos + 1, M.flagUnrecognized);
        if (seen.has(c)) this.fail(this.pos, this.pos + 1, M.flagDuplicate);
        seen.add(c);
        flags[c as keyof Flags] = !negate;
      }
      count++;
      if (!this.bump()) this.fail(this.pos, this.pos, M.flagEof);
    }
    if (lastWasNegation !== undefined) this.fail(lastWasNegation, lastWasNegation + 1, M.flagDanglingNegation);
    return { flags, count };
  }

  private parsePrimitive(): Primitive {
    const start = this.pos;
    const c = this.cur()!;
    if (c === '\\') return this.parseEscape();
    this.pos++;
    if (c === '.') return { kind: 'dot', start, end: this.pos };
    if (c === '^') return { kind: 'assertion', re2: this.flags.m ? this.lineAnchor('^') : '\\A', unicodeSensitive: false, lookbehind: false, start, end: this.pos };
    if (c === '$') return { kind: 'assertion', re2: this.flags.m ? this.lineAnchor('$') : '\\z', unicodeSensitive: false, lookbehind: false, start, end: this.pos };
    return { kind: 'literal', c: c.codePointAt(0)!, byte: false, start, end: this.pos };
  }

  private lineAnchor(anchor: '^' | '$'): string {
    if (this.flags.R) this.markUnsupported('the `R` (CRLF) flag with multi-line anchors');
    return `(?m:${anchor})`;
  }

  private parseEscape(): Primitive {
    const start = this.pos;
    if (!this.bump()) this.fail(start, this.pos, M.escapeEof);
    const c = this.cur()!;
    if (/[0-9]/.test(c)) this.fail(start, this.pos + 1, M.backreference);
    if (c === 'x' || c === 'u' || c === 'U') return this.parseHex(start, c);
    if (c === 'p' || c === 'P') return this.parseUnicodeClass(start);
    if ('dswDSW'.includes(c)) {
      this.pos++;
      return { kind: 'perl', name: c.toLowerCase(), negated: c !== c.toLowerCase(), start, end: this.pos };
    }
    this.pos++;
    const end = this.pos;
    if (isEscapeable(c)) return { kind: 'literal', c: c.codePointAt(0)!, byte: false, start, end };
    const special: Record<string, number> = { a: 0x07, f: 0x0c, t: 0x09, n: 0x0a, r: 0x0d, v: 0x0b };
    if (c in special) return { kind: 'literal', c: special[c], byte: false, start, end };
    const assertion = (re2: string, unicodeSensitive: boolean, lookbehind: boolean, to = end): Primitive => ({ kind: 'assertion', re2, unicodeSensitive, lookbehind, start, end: to });
    switch (c) {
      case 'A':
        return assertion('\\A', false, false);
      case 'z':
        return assertion('\\z', false, false);
      case 'B':
        return assertion('\\B', true, false);
      case '<':
        return assertion(`(?<!${WORD})\\b`, true, true);
      case '>':
        return assertion(`(?<=${WORD})\\b`, true, true);
      case 'b': {
        if (!this.eof() && this.cur() === '{') {
          const special = this.maybeSpecialWordBoundary(start);
          if (special) return assertion(special, true, true, this.pos);
        }
        return assertion('\\b', true, false);
      }
    }
    this.fail(start, end, M.escapeUnrecognized);
  }

  private maybeSpecialWordBoundary(wbStart: number): string | undefined {
    const start = this.pos;
    if (!this.bumpAndBumpSpace()) this.fail(wbStart, this.pos, M.specialWordOrRepetitionEof);
    const contentStart = this.pos;
    const valid = (c: string | undefined) => c !== undefined && /^[A-Za-z-]$/.test(c);
    if (!valid(this.cur())) {
      this.pos = start;
      return undefined;
    }
    let name = '';
    while (!this.eof() && valid(this.cur())) {
      name += this.cur();
      this.bumpAndBumpSpace();
    }
    if (this.eof() || this.cur() !== '}') this.fail(start, this.pos, M.specialWordBoundaryUnclosed);
    const end = this.pos;
    this.pos++;
    switch (name) {
      case 'start':
        return `(?<!${WORD})\\b`;
      case 'end':
        return `(?<=${WORD})\\b`;
      case 'start-half':
        return `(?<!${WORD})`;
      case 'end-half':
        return `(?:(?<=${WORD})\\b|(?<!${WORD})\\B)`;
    }
    this.fail(contentStart, end, M.specialWordBoundaryUnrecognized);
  }

  private parseHex(start: number, kind: string): Lit {
    const digits = kind === 'x' ? 2 : kind === 'u' ? 4 : 8;
    if (!this.bumpAndBumpSpace()) this.fail(this.pos, this.pos, M.escapeEof);
    let hex = '';
    let litStart: number;
    let invalidEnd: number;
    const braced = this.cur() === '{';
    if (braced) {
      const brace = this.pos;
      litStart = this.pos + 1;
      while (this.bumpAndBumpSpace() && this.cur() !== '}') {
        if (!isHex(this.cur())) this.fail(this.pos, this.pos + 1, M.hexInvalidDigit);
        hex += this.cur();
      }
      if (this.eof()) this.fail(brace, this.pos, M.escapeEof);
      invalidEnd = this.pos;
      this.bumpAndBumpSpace();
      if (hex === '') this.fail(brace, this.pos, M.hexEmpty);
    } else {
      litStart = this.pos;
      for (let i = 0; i < digits; i++) {
        if (i > 0 && !this.bumpAndBumpSpace()) this.fail(this.pos, this.pos, M.escapeEof);
        if (!isHex(this.cur())) this.fail(this.pos, this.pos + 1, M.hexInvalidDigit);
        hex += this.cur();
      }
      this.bumpAndBumpSpace();
      invalidEnd = this.pos;
    }
    const value = hex.length > 8 ? Infinity : parseInt(hex, 16);
    if (!isScalar(value)) this.fail(litStart, invalidEnd, M.hexInvalid);
    // Only the fixed form `\xFF` is a byte (regex-syntax's Literal::byte); `\x{FF}` is U+00FF.
    return { kind: 'literal', c: value, byte: kind === 'x' && !braced && value <= 0xff, start, end: this.pos };
  }

  private parseUnicodeClass(start: number): Primitive {
    if (!this.bumpAndBumpSpace()) this.fail(this.pos, this.pos, M.escapeEof);
    if (this.cur() === '{') {
      while (this.bumpAndBumpSpace() && this.cur() !== '}');
      if (this.eof()) this.fail(this.pos, this.pos, M.escapeEof);
      this.pos++;
    } else {
      if (this.cur() === '\\') this.fail(this.pos, this.pos + 1, M.unicodeClassInvalid);
      this.bumpAndBumpSpace();
    }
    return { kind: 'unicode', start, end: this.pos };
  }

  // ---------------------------------------------------------------- translation of primitives

  private literalBytes(lit: Lit): number[] {
    if (lit.byte && !this.flags.u) return [lit.c];
    return utf8(lit.c);
  }

  private primitiveOutsideClass(p: Primitive): string {
    switch (p.kind) {
      case 'literal':
        return this.translate ? this.literalOutsideClass(p) : '';
      case 'dot':
        if (this.flags.u) {
          const ascii = this.flags.s ? '[\\x{0}-\\x{7F}]' : this.flags.R ? '[\\x{0}-\\x{9}\\x{B}\\x{C}\\x{E}-\\x{7F}]' : '[\\x{0}-\\x{9}\\x{B}-\\x{7F}]';
          return `(?:${ascii}|${MULTIBYTE_UTF8})`;
        }
        if (this.flags.s) return '[\\x{0}-\\x{FF}]';
        return this.flags.R ? '[^\\x{A}\\x{D}]' : '[^\\x{A}]';
      case 'assertion':
        if (p.unicodeSensitive && this.flags.u) this.markUnsupported('Unicode word boundaries');
        if (p.lookbehind) this.lookbehinds = true;
        return p.re2;
      case 'perl': {
        if (this.flags.u) this.markUnsupported('Unicode classes');
        if (!this.translate) return '';
        const set = byteSet();
        PERL[p.name](set);
        return emitByteSet(p.negated ? set.map((b) => !b) : set);
      }
      case 'unicode':
        if (!this.flags.u) this.translationError(p.start, p.end, M.unicodeNotAllowed);
        this.markUnsupported('Unicode classes');
        return '';
    }
  }

  private literalOutsideClass(lit: Lit): string {
    const bytes = this.literalBytes(lit);
    if (!this.flags.i) return bytes.map(hexByte).join('');
    if (bytes.length === 1 && bytes[0] < 0x80) {
      const set = byteSet();
      set[bytes[0]] = true;
      foldAscii(set);
      if (this.flags.u && (lit.c === 0x6b || lit.c === 0x4b)) return `(?:${emitByteSet(set)}|${utf8(0x212a).map(hexByte).join('')})`;
      if (this.flags.u && (lit.c === 0x73 || lit.c === 0x53)) return `(?:${emitByteSet(set)}|${utf8(0x17f).map(hexByte).join('')})`;
      return emitByteSet(set);
    }
    if (!this.flags.u) return bytes.map(hexByte).join('');
    // Unicode mode folds non-ASCII letters too; the simple case mappings approximate it.
    const char = String.fromCodePoint(lit.c);
    const variants = new Set([lit.c]);
    for (const v of [char.toLowerCase(), char.toUpperCase()]) if (Array.from(v).length === 1) variants.add(v.codePointAt(0)!);
    return `(?:${[...variants].map((v) => utf8(v).map(hexByte).join('')).join('|')})`;
  }

  // ---------------------------------------------------------------- classes

  /** A bracketed class `[…]`, translated. */
  private parseClass(): string {
    const set = this.parseBracketed();
    if (this.flags.u) {
      this.markUnsupported('Unicode character classes');
      return '';
    }
    return this.translate ? emitByteSet(set) : '';
  }

  /** Parses `[…]` from its `[`; returns its bytes (meaningful only outside Unicode mode). */
  private parseBracketed(): ByteSet {
    const start = this.pos;
    this.nest(start, start + 1);
    if (!this.bumpAndBumpSpace()) this.fail(start, this.pos, M.classUnclosed);
    let negated = false;
    if (this.cur() === '^') {
      negated = true;
      if (!this.bumpAndBumpSpace()) this.fail(start, this.pos, M.classUnclosed);
    }
    let union = byteSet();
    let leading = false;
    while (this.cur() === '-') {
      union[0x2d] = true;
      leading = true;
      if (!this.bumpAndBumpSpace()) this.fail(start, start, M.classUnclosed);
    }
    if (!leading && this.cur() === ']') {
      union[0x5d] = true;
      if (!this.bumpAndBumpSpace()) this.fail(start, this.pos, M.classUnclosed);
    }
    // Operators are left-associative: `[a&&b--c]` is `(a && b) -- c`.
    let lhs: ByteSet | undefined;
    let op: string | undefined;
    // regex-syntax reports an unclosed class on its opening: `[`, `[^`, `[]`, `[^-`…
    const openEnd = this.pos;
    const unclosed = () => this.fail(start, openEnd, M.classUnclosed);
    for (;;) {
      this.bumpSpace();
      if (this.eof()) unclosed();
      const c = this.cur()!;
      if (c === '[') {
        const ascii = this.maybeAsciiClass();
        if (ascii) {
          ascii.forEach((v, b) => v && (union[b] = true));
          continue;
        }
        this.parseBracketed().forEach((v, b) => v && (union[b] = true));
        continue;
      }
      if (c === ']') {
        this.pos++;
        break;
      }
      const next = this.peek();
      if ((c === '&' && next === '&') || (c === '-' && next === '-') || (c === '~' && next === '~')) {
        lhs = lhs && op ? combine(lhs, op, union) : union;
        op = c;
        union = byteSet();
        this.pos += 2;
        continue;
      }
      this.parseClassRange(union, unclosed);
    }
    let set = lhs && op ? combine(lhs, op, union) : union;
    if (this.flags.i) foldAscii(set);
    if (negated) set = set.map((b) => !b);
    this.depth--;
    return set;
  }

  private maybeAsciiClass(): ByteSet | undefined {
    const start = this.pos;
    const reset = () => {
      this.pos = start;
      return undefined;
    };
    if (!this.bump() || this.cur() !== ':') return reset();
    if (!this.bump()) return reset();
    let negated = false;
    if (this.cur() === '^') {
      negated = true;
      if (!this.bump()) return reset();
    }
    const nameStart = this.pos;
    while (this.cur() !== ':' && this.bump());
    if (this.eof()) return reset();
    const name = this.chars.slice(nameStart, this.pos).join('');
    if (!this.bumpIf(':]')) return reset();
    const ranges = ASCII_CLASSES[name];
    if (!ranges) return reset();
    const set = byteSet();
    for (const [a, b] of ranges) addRange(set, a, b);
    return negated ? set.map((v) => !v) : set;
  }

  private parseClassItem(): Primitive {
    if (this.cur() === '\\') return this.parseEscape();
    const start = this.pos;
    const c = this.cur()!;
    this.pos++;
    return { kind: 'literal', c: c.codePointAt(0)!, byte: false, start, end: this.pos };
  }

  private parseClassRange(union: ByteSet, unclosed: () => never): void {
    const first = this.parseClassItem();
    this.bumpSpace();
    if (this.eof()) unclosed();
    if (this.cur() !== '-' || this.peekSpace() === ']' || this.peekSpace() === '-') {
      this.addClassItem(union, first);
      return;
    }
    if (!this.bumpAndBumpSpace()) unclosed();
    const second = this.parseClassItem();
    if (first.kind !== 'literal') this.fail(first.start, first.end, M.classRangeLiteral);
    if (second.kind !== 'literal') this.fail(second.start, second.end, M.classRangeLiteral);
    if (first.c > second.c) this.fail(first.start, second.end, M.classRangeInvalid);
    if (this.flags.u) return;
    addRange(union, this.classByte(first), this.classByte(second));
  }

  private classByte(lit: Lit): number {
    if (lit.byte) return lit.c;
    if (lit.c < 0x80) return lit.c;
    this.translationError(lit.start, lit.end, M.unicodeNotAllowed);
    return 0;
  }

  private addClassItem(union: ByteSet, item: Primitive): void {
    switch (item.kind) {
      case 'literal':
        if (!this.flags.u) union[this.classByte(item)] = true;
        return;
      case 'perl': {
        const set = byteSet();
        PERL[item.name](set);
        (item.negated ? set.map((b) => !b) : set).forEach((v, b) => v && (union[b] = true));
        return;
      }
      case 'unicode':
        if (!this.flags.u) this.translationError(item.start, item.end, M.unicodeNotAllowed);
        return;
      default:
        this.fail(item.start, item.end, M.classEscapeInvalid);
    }
  }
}

function combine(lhs: ByteSet, op: string, rhs: ByteSet): ByteSet {
  return lhs.map((a, b) => (op === '&' ? a && rhs[b] : op === '-' ? a && !rhs[b] : a !== rhs[b]));
}

/** Checks a pattern as the reference engine's regex crate would, and translates it for re2js. */
export function checkRegex(pattern: string): RegexResult {
  try {
    return { ok: true, translated: new Parser(pattern, true).parse() };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: error.error };
    throw error;
  }
}

/**
 * Outside these characters a pattern is literals, `.`, `^`, `$`, `|` and groups without a `?`
 * (no flags, names or look-around), which regex-syntax always takes where the groups are
 * balanced and nest far below its limit.
 */
const MAY_BE_INVALID = /[\\[?*+{]/;
/** Group nesting the quick test takes as valid: well below NEST_LIMIT, which counts more than groups. */
const PLAIN_GROUP_DEPTH = 100;

/** Whether every `)` closes a `(` and every `(` is closed, nesting at most PLAIN_GROUP_DEPTH deep. */
function groupsBalanced(pattern: string): boolean {
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i);
    if (code === 0x28) {
      if (++depth > PLAIN_GROUP_DEPTH) return false;
    } else if (code === 0x29 && --depth < 0) return false;
  }
  return depth === 0;
}

/** The error checkRegex would give the pattern, found without translating it; undefined for a valid one. */
export function regexError(pattern: string): RegexError | undefined {
  // Most patterns are literals and plain groups (`^/wp-(admin|login)/`): valid without a parse.
  if (!MAY_BE_INVALID.test(pattern) && groupsBalanced(pattern)) return undefined;
  try {
    new Parser(pattern, false).parse();
    return undefined;
  } catch (error) {
    if (error instanceof Failure) return error.error;
    throw error;
  }
}

/**
 * The regex source the reference engine builds from the text between the quotes of
 * `matches "…"` (wirefilter's lex_regex_from_literal): `\"` outside a `[…]` class is a
 * quote, and every other backslash stays for the regex engine. `offsets[i]` is where
 * source character `i` came from in `body`, and `offsets[source.length]` is `body.length`.
 * `openClass` is where a `[` still open at the end of the body stands: the reference does not
 * end the string at a `"` inside a class (`"[^"]"` is one string there), which the grammar does.
 */
export function regexFromQuoted(body: string): { source: string; offsets: number[]; openClass?: number } {
  let source = '';
  const offsets: number[] = [];
  let inClass = false;
  let openClass = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length) {
      const next = body[i + 1];
      if (inClass || next !== '"') {
        source += '\\';
        offsets.push(i);
      }
      source += next;
      offsets.push(i + 1);
      i++;
      continue;
    }
    if (c === '[' && !inClass) {
      inClass = true;
      openClass = i;
    } else if (c === ']' && inClass) inClass = false;
    source += c;
    offsets.push(i);
  }
  offsets.push(body.length);
  return inClass ? { source, offsets, openClass } : { source, offsets };
}
