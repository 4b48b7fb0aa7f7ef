/**
 * The host tree of a well-formed JSON text, read in one pass without jsonc-parser, or undefined
 * for any text that is not strict JSON (a comment, a trailing comma, a control character in a
 * string, any error), which jsonc-parser then reads and reports.
 *
 * Why: jsonc-parser's scanner and visitor call back for every token; for a 10,000-rule file
 * that was about 85 ms of a cold process's CPU, against about 10 for a direct read. The tree is
 * the one host.ts builds from jsonc-parser's visitor, node for node and offset for offset;
 * test/documents/host-json.test.ts holds parseHost, which takes this path first, to jsonc-parser's
 * own tree for any text.
 */
import { jsonString, type HostNode, type HostProperty } from './host-node';
import { MAX_NESTING } from './nesting';

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const UNICODE_ESCAPE = /[0-9a-fA-F]{4}/y;

/** The longest string StrictJsonReader shares among its occurrences, and how many it keeps. */
const SHORT_STRING = 24;
const SHORT_STRINGS_KEPT = 1024;

class NotStrict extends Error {}

function notStrict(): never {
  throw new NotStrict();
}

export function readStrictJson(text: string): HostNode | undefined {
  const reader = new StrictJsonReader(text);
  try {
    reader.skipWhitespace();
    if (reader.pos >= text.length) return undefined;
    const root = reader.value();
    reader.skipWhitespace();
    return reader.pos === text.length ? root : undefined;
  } catch (error) {
    if (error instanceof NotStrict) return undefined;
    throw error;
  }
}

class StrictJsonReader {
  pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    let c = text.charCodeAt(pos);
    while (c === SPACE || c === LF || c === CR || c === TAB) c = text.charCodeAt(++pos);
    this.pos = pos;
  }

  value(): HostNode {
    const text = this.text;
    const start = this.pos;
    const c = text.charCodeAt(start);
    switch (c) {
      case OPEN_BRACE:
        return this.object();
      case OPEN_BRACKET:
        return this.array();
      case QUOTE: {
        const value = this.string();
        return jsonString(text, start, this.pos, value);
      }
      case 0x74: // t
        return { kind: 'boolean', start, end: this.word('true'), value: true };
      case 0x66: // f
        return { kind: 'boolean', start, end: this.word('false'), value: false };
      case 0x6e: // n
        return { kind: 'null', start, end: this.word('null'), value: null };
      default: {
        NUMBER.lastIndex = start;
        if (!NUMBER.test(text)) notStrict();
        this.pos = NUMBER.lastIndex;
        this.delimited();
        return { kind: 'number', start, end: this.pos, value: Number(text.slice(start, this.pos)) };
      }
    }
  }

  /** After a literal or a number: what jsonc-parser reads as the end of its token. */
  private delimited(): void {
    const c = this.text.charCodeAt(this.pos);
    if (this.pos < this.text.length && !(c === SPACE || c === LF || c === CR || c === TAB || c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET)) notStrict();
  }

  private word(word: string): number {
    if (!this.text.startsWith(word, this.pos)) notStrict();
    this.pos += word.length;
    this.delimited();
    return this.pos;
  }

  /**
   * Short strings read so far (keys and the like), by a hash of their characters: a ruleset
   * repeats its few keys in every rule, and one string then serves them all, where cutting
   * each from the text would make a new one (the garbage collector copies every string the
   * tree keeps, as often as it runs while the tree is read).
   */
  private readonly shortStrings = new Map<number, string>();

  /** The string starting at `pos` (a `"`), decoded; `pos` ends after its closing quote. */
  private string(): string {
    const text = this.text;
    const start = this.pos;
    let i = start + 1;
    let escaped = false;
    let hash = 0;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (i >= text.length || c < 0x20) notStrict();
      if (c === BACKSLASH) {
        escaped = true;
        const next = text.charCodeAt(i + 1);
        if (next === 0x75) {
          UNICODE_ESCAPE.lastIndex = i + 2;
          if (!UNICODE_ESCAPE.test(text)) notStrict();
          i += 6;
          continue;
        }
        // " \ / b f n r t
        if (!(next === QUOTE || next === BACKSLASH || next === 0x2f || next === 0x62 || next === 0x66 || next === 0x6e || next === 0x72 || next === 0x74)) notStrict();
        i += 2;
        continue;
      }
      hash = (Math.imul(hash, 31) + c) | 0;
      i++;
    }
    this.pos = i + 1;
    if (escaped) return JSON.parse(text.slice(start, this.pos)) as string;
    const length = i - start - 1;
    if (length > SHORT_STRING) return text.slice(start + 1, i);
    const known = this.shortStrings.get(hash);
    if (known !== undefined && known.length === length && text.startsWith(known, start + 1)) return known;
    const value = text.slice(start + 1, i);
    if (known === undefined && this.shortStrings.size < SHORT_STRINGS_KEPT) this.shortStrings.set(hash, value);
    return value;
  }

  /**
   * Past MAX_NESTING the text is left to host.ts's other reader, which says where it goes too
   * deep; the recursion of this reader stays that shallow.
   */
  private deeper(): void {
    if (++this.depth > MAX_NESTING) notStrict();
  }

  /**
   * The properties and items of the objects and arrays being read, innermost last: each is
   * given an array of its own size when it closes. Pushed into an array of its own, a rule's
   * five properties would get room for seventeen.
   */
  private readonly openProperties: HostProperty[] = [];
  private readonly openItems: HostNode[] = [];

  private object(): HostNode {
    const text = this.text;
    const start = this.pos;
    const open = this.openProperties;
    const base = open.length;
    if (this.opened(CLOSE_BRACE)) {
      for (;;) {
        if (text.charCodeAt(this.pos) !== QUOTE) notStrict();
        const keyStart = this.pos;
        const key = this.string();
        const keyEnd = this.pos;
        this.skipWhitespace();
        if (text.charCodeAt(this.pos) !== COLON) notStrict();
        this.pos++;
        this.skipWhitespace();
        const value = this.value();
        open.push({ key, keyStart, keyEnd, value });
        if (!this.next(CLOSE_BRACE)) break;
      }
    }
    this.closed();
    const properties = open.slice(base);
    open.length = base;
    return { kind: 'object', start, end: this.pos, properties, block: false };
  }

  private array(): HostNode {
    const start = this.pos;
    const open = this.openItems;
    const base = open.length;
    if (this.opened(CLOSE_BRACKET)) {
      do open.push(this.value());
      while (this.next(CLOSE_BRACKET));
    }
    this.closed();
    const items = open.slice(base);
    open.length = base;
    return { kind: 'array', start, end: this.pos, items };
  }

  /** Past the opening bracket at `pos` and the whitespace after it: whether an item follows, rather than `close`. */
  private opened(close: number): boolean {
    this.pos++;
    this.deeper();
    this.skipWhitespace();
    return this.text.charCodeAt(this.pos) !== close;
  }

  /** After an item: past its `,` and whitespace, whether another follows; false at `close`, which `pos` is then on. */
  private next(close: number): boolean {
    this.skipWhitespace();
    const c = this.text.charCodeAt(this.pos);
    if (c === close) return false;
    if (c !== COMMA) notStrict();
    this.pos++;
    this.skipWhitespace();
    return true;
  }

  /** Past the closing bracket at `pos`. */
  private closed(): void {
    this.pos++;
    this.depth--;
  }
}
