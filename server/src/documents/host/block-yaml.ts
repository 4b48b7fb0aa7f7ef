/**
 * The host tree of a YAML ruleset written the way rulesets are written (block mappings and
 * sequences of plain, quoted and block scalars, with comments), read without the `yaml`
 * library, or undefined for anything else, which the library then reads.
 *
 * Why: the library builds a token stream, a concrete syntax tree and a document before we
 * build our tree from it; on a 1,000-rule file that is about half the CPU time of opening it,
 * and on 50,000 rules it alone takes 2.9 s and 400 MB. This reader builds the host tree in one
 * pass over the text.
 *
 * What it must give: for every text it accepts, exactly the tree the library's parse gives
 * (keys, values, styles and every offset), and it accepts only texts the library reads without
 * an error. test/documents/host-yaml.test.ts holds the two to each other over generated and
 * damaged rulesets. So it is strict: a tab, a `\r` outside a `\r\n`, a document marker other
 * than one `---` before the content, an anchor, a tag, a
 * flow collection other than `[]` and `{}`, a block scalar that keeps its final line breaks
 * (`|+`) or states its indentation (`|2`), an empty item, or any line it does not expect sends
 * the whole document to the library.
 */
import { decodeBlockScalarExact, decodeFlowScalar, isYamlSimpleEscape, type BlockScalarLayout, type FlowScalarStyle } from './decode-yaml';
import { stringScalar, type HostNode, type HostProperty, type HostScalar } from './host-node';

/** Deeper than a ruleset nests; the library reports what is deeper still. */
const MAX_DEPTH = 64;

const SPACE = 0x20;
const LF = 0x0a;
const CR = 0x0d;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;
const SINGLE_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;
const BACKSLASH = 0x5c;
const PIPE = 0x7c;
const GREATER = 0x3e;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Characters outside the subset anywhere in the text: tabs, other controls, a carriage return not before a line feed, a byte order mark. */
const UNSUPPORTED_CHARACTER = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f\ufeff]|\r(?!\n)/;
/** Document markers and directives, at the start of a line (a `---` before the content is read apart). */
const DOCUMENT_MARKER = /^(?:---|\.\.\.|%)/gm;
/** A plain scalar may not start with an indicator (`-`, `?` and `:` only before a space, but no ruleset needs them). */
const INDICATOR_START = new Set([...'-?:,[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));
/** Keys the core schema reads as something other than their text. */
const NON_STRING_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;

class Unsupported extends Error {}

export function readBlockYaml(text: string): HostNode | undefined {
  if (UNSUPPORTED_CHARACTER.test(text)) return undefined;
  try {
    const reader = new BlockYamlReader(text);
    return reader.document();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

function unsupported(): never {
  throw new Unsupported();
}

function isKeyStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

function isKeyPart(c: number): boolean {
  return isKeyStart(c) || (c >= 0x30 && c <= 0x39) || c === DASH || c === 0x2e;
}

/** A parsed node, and where its node ends in the library's sense: after its line's trailing comment and line break. */
interface Read {
  readonly node: HostNode;
  readonly end: number;
}

class BlockYamlReader {
  /** The start of the line being read. */
  private line = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  document(): HostNode {
    const text = this.text;
    this.skipBlankLines();
    // A `---` before the content, as yamllint asks for by default; any other marker or
    // directive is outside the subset.
    if (text.startsWith('---', this.line) && this.isSpaceOrEnd(this.line + 3)) {
      this.line = this.endOfLine(this.line + 3);
      this.skipBlankLines();
    }
    DOCUMENT_MARKER.lastIndex = this.line;
    if (DOCUMENT_MARKER.test(text)) return unsupported();
    if (this.line >= text.length) return unsupported();
    const indent = this.indentOf(this.line);
    const read = this.blockNode(this.line + indent, indent);
    this.skipBlankLines();
    if (this.line < this.text.length) return unsupported();
    return read.node;
  }

  // ---------------------------------------------------------------- lines

  private indentOf(lineStart: number): number {
    let i = lineStart;
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i - lineStart;
  }

  /** The offset after the line break ending the line that holds `offset` (or the end of the text). */
  private nextLine(offset: number): number {
    const nl = this.text.indexOf('\n', offset);
    return nl < 0 ? this.text.length : nl + 1;
  }

  /** The start of the first line from `from` (a line's start) that holds more than spaces, or the end of the text. */
  private nextNonBlankLine(from: number): number {
    let line = from;
    while (line < this.text.length) {
      const first = line + this.indentOf(line);
      if (!this.isLineEnd(first)) return line;
      line = this.nextLine(first);
    }
    return line;
  }

  /** Moves `line` past empty lines, lines of spaces, and comment lines. */
  private skipBlankLines(): void {
    const text = this.text;
    while (this.line < text.length) {
      const first = this.line + this.indentOf(this.line);
      if (!this.isLineEnd(first) && text.charCodeAt(first) !== HASH) return;
      this.line = this.nextLine(first);
    }
  }

  /**
   * The end of a node's last line in the library's sense, from the end of its value: spaces,
   * then a comment (after at least one space) or nothing, then the line break. Anything else
   * there is outside the subset.
   */
  private endOfLine(from: number): number {
    const text = this.text;
    let i = from;
    while (text.charCodeAt(i) === SPACE) i++;
    if (text.charCodeAt(i) === HASH) {
      if (i === from) unsupported();
    } else if (!this.isLineEnd(i)) unsupported();
    return this.nextLine(i);
  }

  /**
   * Refuses the comment lines after a collection's last entry (which ended at `end`) that are
   * indented more than its column: the library counts some of those into the collection, so
   * where it ends is not known here.
   */
  private refuseTrailingIndentedComments(end: number, indent: number): void {
    const text = this.text;
    let line = end;
    while (line < text.length) {
      const lineIndent = this.indentOf(line);
      const first = line + lineIndent;
      if (!this.isLineEnd(first)) {
        if (text.charCodeAt(first) !== HASH) break;
        if (lineIndent > indent) unsupported();
      }
      line = this.nextLine(first);
    }
  }

  // ---------------------------------------------------------------- collections

  /** The block node starting at `at` (the first character of a line's content, whose indentation is `indent`). */
  private blockNode(at: number, indent: number): Read {
    return this.nested(() => (this.isDash(at) ? this.sequence(at, indent) : this.mapping(at, indent)));
  }

  private isSpaceOrEnd(offset: number): boolean {
    return this.text.charCodeAt(offset) === SPACE || this.isLineEnd(offset);
  }

  /** Whether a line ends at `offset`: a line break (`\n`, or `\r\n`: a lone `\r` is not read here) or the end of the text. */
  private isLineEnd(offset: number): boolean {
    const c = this.text.charCodeAt(offset);
    return offset >= this.text.length || c === LF || c === CR;
  }

  /** The end of the key starting at `at`, if a key (`name:` or a quoted name, then `:` and a space or a line break) starts there. */
  private keyEnd(at: number): number | undefined {
    const text = this.text;
    const first = text.charCodeAt(at);
    let i: number;
    if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE) {
      i = at + 1;
      for (;;) {
        const c = text.charCodeAt(i);
        if (this.isLineEnd(i)) return undefined;
        if (c === first) {
          if (first === SINGLE_QUOTE && text.charCodeAt(i + 1) === SINGLE_QUOTE) i += 2;
          else break;
        } else if (c === BACKSLASH && first === DOUBLE_QUOTE) {
          if (this.isLineEnd(i + 1)) return undefined;
          i = this.escapeEnd(i);
        } else i++;
      }
      i++;
    } else {
      if (!isKeyStart(first)) return undefined;
      i = at + 1;
      while (isKeyPart(text.charCodeAt(i))) i++;
    }
    return text.charCodeAt(i) === COLON && this.isSpaceOrEnd(i + 1) ? i : undefined;
  }

  /** The key at [start, end), as the library reads it. */
  private key(start: number, end: number): string {
    const quote = this.text.charCodeAt(start);
    if (quote === DOUBLE_QUOTE) return this.decodedValue(start, end, 'double-quoted');
    if (quote === SINGLE_QUOTE) return this.decodedValue(start, end, 'single-quoted');
    const key = this.text.slice(start, end);
    if (NON_STRING_KEY.test(key)) unsupported();
    return key;
  }

  /**
   * A block mapping whose first key starts at `at`, in column `indent` (for a mapping that is a
   * sequence item, `- key: …`, the key's column, not the line's indentation).
   */
  private mapping(at: number, indent: number): Read {
    const properties: HostProperty[] = [];
    let keyStart = at;
    let end: number;
    for (;;) {
      const keyEnd = this.keyEnd(keyStart) ?? unsupported();
      const key = this.key(keyStart, keyEnd);
      const value = this.mappingValue(keyEnd + 1, indent);
      properties.push({ key, keyStart, keyEnd, value: value.node });
      end = value.end;
      const next = this.nextEntry(end, indent);
      if (next === undefined) break;
      keyStart = next;
    }
    this.refuseTrailingIndentedComments(end, indent);
    return { node: { kind: 'object', start: at, end, properties, block: true }, end };
  }

  /** The value after a key's `:` at `afterColon`, in a mapping at column `indent`. */
  private mappingValue(afterColon: number, indent: number): Read {
    const text = this.text;
    let i = afterColon;
    while (text.charCodeAt(i) === SPACE) i++;
    if (!this.isLineEnd(i) && text.charCodeAt(i) !== HASH) return this.scalar(i, indent);
    // The value is on the lines below: more indented, or a sequence at the key's own column.
    this.line = this.nextLine(i);
    this.skipBlankLines();
    if (this.line < text.length) {
      const next = this.indentOf(this.line);
      const first = this.line + next;
      if (this.isDash(first) && next >= indent) return this.blockNode(first, next);
      if (next > indent) return this.keyEnd(first) !== undefined ? this.blockNode(first, next) : this.scalar(first, indent);
    }
    // An empty value: the library places its null right after the `:`, and takes comment
    // lines after it into the mapping (outside the subset).
    if (i !== afterColon || this.line !== this.nextLine(afterColon)) unsupported();
    return { node: { kind: 'null', start: afterColon, end: afterColon, value: null }, end: afterColon };
  }

  /** A block sequence whose first `-` is at `at`, in column `indent`. */
  private sequence(at: number, indent: number): Read {
    const text = this.text;
    const items: HostNode[] = [];
    let dash = at;
    let end: number;
    for (;;) {
      let i = dash + 1;
      while (text.charCodeAt(i) === SPACE) i++;
      // An empty item, an item on the lines below, a comment after the dash, a nested sequence: outside the subset.
      if (i === dash + 1 || this.isLineEnd(i) || text.charCodeAt(i) === HASH) unsupported();
      if (this.isDash(i)) unsupported();
      const column = i - (text.lastIndexOf('\n', i - 1) + 1);
      const item = this.keyEnd(i) !== undefined ? this.nested(() => this.mapping(i, column)) : this.scalar(i, indent);
      items.push(item.node);
      end = item.end;
      const next = this.nextEntry(end, indent);
      if (next === undefined || !this.isDash(next)) break;
      dash = next;
    }
    this.refuseTrailingIndentedComments(end, indent);
    return { node: { kind: 'array', start: at, end, items }, end };
  }

  /**
   * Where the next entry of a collection in column `indent` starts, after an entry that ended
   * at `end`: undefined when the collection ends there (the text ends, or a line less indented
   * comes); a line more indented is outside the subset.
   */
  private nextEntry(end: number, indent: number): number | undefined {
    this.line = end;
    this.skipBlankLines();
    if (this.line >= this.text.length) return undefined;
    const next = this.indentOf(this.line);
    if (next < indent) return undefined;
    if (next > indent) unsupported();
    return this.line + next;
  }

  /** Whether a sequence item's `-` stands at `offset`. */
  private isDash(offset: number): boolean {
    return this.text.charCodeAt(offset) === DASH && this.isSpaceOrEnd(offset + 1);
  }

  private nested(read: () => Read): Read {
    if (++this.depth > MAX_DEPTH) unsupported();
    const result = read();
    this.depth--;
    return result;
  }

  // ---------------------------------------------------------------- scalars

  /** A scalar starting at `at`, in a collection at column `indent`: its lines after the first must be indented more. */
  private scalar(at: number, indent: number): Read {
    const c = this.text.charCodeAt(at);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) return this.quoted(at, indent, c);
    if (c === PIPE || c === GREATER) return this.block(at, indent);
    // An empty list or mapping (`rules: []`); any other flow collection is outside the subset.
    if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (this.text.charCodeAt(at + 1) !== (c === OPEN_BRACKET ? CLOSE_BRACKET : CLOSE_BRACE)) unsupported();
      const node: HostNode = c === OPEN_BRACKET ? { kind: 'array', start: at, end: at + 2, items: [] } : { kind: 'object', start: at, end: at + 2, properties: [], block: false };
      return { node, end: this.endOfLine(at + 2) };
    }
    if (INDICATOR_START.has(c)) unsupported();
    return this.plain(at, indent);
  }

  private quoted(at: number, indent: number, quote: number): Read {
    const text = this.text;
    let i = at + 1;
    let multiline = false;
    let escaped = false;
    for (;;) {
      if (i >= text.length) unsupported();
      const c = text.charCodeAt(i);
      if (c === quote) {
        if (quote === SINGLE_QUOTE && text.charCodeAt(i + 1) === SINGLE_QUOTE) {
          escaped = true;
          i += 2;
          continue;
        }
        break;
      }
      if (c === BACKSLASH && quote === DOUBLE_QUOTE) {
        escaped = true;
        i = this.escapeEnd(i);
        continue;
      }
      if (c === LF) {
        multiline = true;
        // Every further line of the scalar is indented more than its collection.
        const next = i + 1;
        const lineIndent = this.indentOf(next);
        if (lineIndent <= indent && !this.isLineEnd(next + lineIndent)) unsupported();
      }
      i++;
    }
    const endOfValue = i + 1;
    const end = this.endOfLine(endOfValue);
    const style: FlowScalarStyle = quote === DOUBLE_QUOTE ? 'double-quoted' : 'single-quoted';
    const value = multiline || escaped ? this.decodedValue(at, endOfValue, style) : text.slice(at + 1, i);
    return { node: this.stringNode(value, style, at, endOfValue), end };
  }

  /**
   * A block scalar (`|`, `>`, `|-`, `>-`) whose header is at `at`, a value in a collection at
   * column `indent`: its lines are those at least as indented as its first, which must be
   * indented more than the collection. Keeping (`+`), an indentation indicator, blank lines
   * before the first line or blank lines of spaces after the last are outside the subset.
   */
  private block(at: number, indent: number): Read {
    const text = this.text;
    const folded = text.charCodeAt(at) === GREATER;
    let headerEnd = at + 1;
    const strip = text.charCodeAt(headerEnd) === DASH;
    if (strip) headerEnd++;
    if (!this.isSpaceOrEnd(headerEnd)) unsupported();
    const bodyStart = this.endOfLine(headerEnd);
    const contentIndent = this.indentOf(bodyStart);
    if (contentIndent <= indent || this.isLineEnd(bodyStart + contentIndent)) unsupported();
    // The scalar's lines: up to the last one at least as indented as the first, blank lines among them.
    let bodyEnd = this.nextLine(bodyStart);
    let line: number;
    for (;;) {
      line = this.nextNonBlankLine(bodyEnd);
      if (line >= text.length) break;
      const lineIndent = this.indentOf(line);
      if (lineIndent < contentIndent) {
        // A line between the collection's column and the scalar's: only a comment may stand there.
        if (lineIndent > indent && text.charCodeAt(line + lineIndent) !== HASH) unsupported();
        break;
      }
      bodyEnd = this.nextLine(line);
    }
    // Blank lines of spaces after the last line: the library keeps some of them.
    for (let i = bodyEnd; i < line; i = this.nextLine(i)) if (text.charCodeAt(i) === SPACE) unsupported();
    const layout: BlockScalarLayout = {
      offset: at,
      indent,
      header: { folded, indent: 0, chomp: strip ? '-' : '', length: bodyStart - at },
      end: bodyEnd,
    };
    const value = decodeBlockScalarExact(text, layout)?.value ?? unsupported();
    const node = stringScalar(value, folded ? 'block-folded' : 'block-literal', { text, start: at, end: bodyEnd, shift: 0, block: layout });
    return { node, end: bodyEnd };
  }

  /** The end of the escape at `at` (a `\\`), if the library reads it without an error. */
  private escapeEnd(at: number): number {
    const c = this.text[at + 1];
    if (c === undefined) return unsupported();
    // An escaped line break: the line break itself is read next, as any other in the scalar.
    if (c === '\n' || c === '\r') return at + 1;
    if (isYamlSimpleEscape(c)) return at + 2;
    const digits = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : unsupported();
    const hex = this.text.slice(at + 2, at + 2 + digits);
    if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) unsupported();
    // An astral escape past U+10FFFF is an error too.
    if (digits === 8 && parseInt(hex, 16) > 0x10ffff) unsupported();
    return at + 2 + digits;
  }

  private plain(at: number, indent: number): Read {
    const text = this.text;
    let valueEnd = this.plainLineEnd(at);
    let end = this.endOfLine(valueEnd);
    let multiline = false;
    // Further lines, more indented, continue the scalar (folded into one line) unless a comment ended it.
    if (text.charCodeAt(this.afterSpaces(valueEnd)) !== HASH) {
      for (;;) {
        const line = this.nextNonBlankLine(end);
        if (line >= text.length) break;
        const lineIndent = this.indentOf(line);
        const first = line + lineIndent;
        if (lineIndent <= indent || text.charCodeAt(first) === HASH) break;
        const lineValueEnd = this.plainLineEnd(first);
        if (text.charCodeAt(this.afterSpaces(lineValueEnd)) === HASH) unsupported();
        valueEnd = lineValueEnd;
        end = this.endOfLine(valueEnd);
        multiline = true;
      }
    }
    const raw = multiline ? this.decodedValue(at, valueEnd, 'plain') : text.slice(at, valueEnd);
    return { node: this.plainNode(raw, at, valueEnd), end };
  }

  private afterSpaces(from: number): number {
    while (this.text.charCodeAt(from) === SPACE) from++;
    return from;
  }

  /**
   * The end of a plain scalar's text on the line starting at `from`: before a ` #` comment and
   * trailing spaces. A `: ` or a final `:` would make it a key: outside the subset.
   */
  private plainLineEnd(from: number): number {
    const text = this.text;
    let i = from;
    let last = from;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === LF || c === CR) break;
      if (c === HASH && text.charCodeAt(i - 1) === SPACE) break;
      if (c === COLON && this.isSpaceOrEnd(i + 1)) unsupported();
      if (c !== SPACE) last = i + 1;
    }
    return last;
  }

  private decodedValue(start: number, end: number, style: FlowScalarStyle): string {
    return decodeFlowScalar(this.text, start, end, style).value;
  }

  private stringNode(value: string, style: FlowScalarStyle, start: number, end: number): HostScalar {
    return stringScalar(value, style, { text: this.text, start, end, shift: 0, flow: style });
  }

  /** A plain scalar, read as the core schema reads it. */
  private plainNode(raw: string, start: number, end: number): HostScalar {
    switch (raw) {
      case '~':
      case 'null':
      case 'Null':
      case 'NULL':
        return { kind: 'null', start, end, value: null };
      case 'true':
      case 'True':
      case 'TRUE':
        return { kind: 'boolean', start, end, value: true };
      case 'false':
      case 'False':
      case 'FALSE':
        return { kind: 'boolean', start, end, value: false };
    }
    const c = raw.charCodeAt(0);
    if ((c >= 0x30 && c <= 0x39) || c === DASH || c === 0x2b || c === 0x2e) {
      if (/^[-+]?[0-9]{1,15}$/.test(raw)) return { kind: 'number', start, end, value: Number(raw) };
      // Floats, octal, hexadecimal, infinities: rare in a ruleset, and the library knows them.
      if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$|^0o|^0x|^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$|^[-+]?[0-9]+$/.test(raw)) unsupported();
    }
    return this.stringNode(raw, 'plain', start, end);
  }
}
