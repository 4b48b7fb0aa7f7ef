/**
 * The value of an HCL string template (a quoted string or a heredoc) with its offset map into
 * the `.tf` file: what Terraform hands the provider, character by character, except where the
 * template has a `${…}` interpolation or a `%{…}` directive, which Terraform fills in at plan
 * time. Those are holes: the value has a stand-in there (see `holeFiller`), every unit of which
 * maps to the whole `${…}`, and the holes are returned so that nothing found in them is reported.
 *
 * The parser (tree-sitter's HCL grammar) finds the string and its holes; this module only reads
 * the literal text between them, whose rules are few (HCL's native syntax specification,
 * hashicorp/hcl hclsyntax/spec.md "Template Expressions", and hclsyntax/parser_template.go).
 */
import { DecodedStringBuilder, type DecodedString } from './offset-map';

export type HclStringStyle = 'hcl-quoted' | 'hcl-heredoc';

export interface Range {
  readonly start: number;
  readonly end: number;
}

export interface DecodedTemplate {
  readonly decoded: DecodedString;
  /** The stand-ins of the holes, as ranges of `decoded.value`, in order. */
  readonly holes: readonly Range[];
}

/**
 * Decodes the template at [start, end) of `text` (from its opening quote or `<<` to its closing
 * quote or marker), whose interpolations and directives are `holes` (document ranges, in order).
 * Undefined when the text there is not a string template. `leftStripped` holds the starts of the
 * holes that strip the white space before them (`${~`, `%{~`): a flush heredoc's line that is
 * white space up to one of them counts as not indented, as HCL trims before it measures.
 */
export function decodeHclTemplate(text: string, start: number, end: number, holes: readonly Range[], leftStripped?: ReadonlySet<number>): DecodedTemplate | undefined {
  if (text[start] === '"') return decodeQuoted(text, start, end, holes);
  if (text.startsWith('<<', start)) return decodeHeredoc(text, start, end, holes, leftStripped);
  return undefined;
}

/** The escapes HCL shares with JSON, which reads them as HCL does. */
const SHARED_ESCAPES = /\\(?:[nrt"\\]|u(?![dD][89a-fA-F])[0-9a-fA-F]{4})/g;

/**
 * The value of a quoted string without holes or doubled `$$`/`%%`, whose escapes are only those
 * HCL shares with JSON (`\"`, `\\`, `\n`, `\r`, `\t`, `\uNNNN` outside the surrogates), which
 * JSON's parser then reads as HCL does; undefined for any other string. Most strings are such
 * (an expression's quotes are escaped), and need no offset map until a problem is found in
 * them: decoding each unit of every string of a 10,000-rule file to read its value took a
 * quarter of the reading.
 */
export function plainQuotedValue(text: string, start: number, end: number): string | undefined {
  if (text[start] !== '"' || end - start < 2 || text[end - 1] !== '"') return undefined;
  const content = text.slice(start + 1, end - 1);
  if (!/[\\$%]/.test(content)) return content;
  // A doubled introducer, a character JSON refuses unescaped, an escape JSON reads otherwise (or
  // that HCL refuses; the shared ones taken out in pairs, left to right): the whole decoder.
  if (/\$\$\{|%%\{|[\u0000-\u001f]/.test(content) || content.replace(SHARED_ESCAPES, '').includes('\\')) return undefined;
  try {
    return JSON.parse(`"${content}"`) as string;
  } catch {
    return undefined;
  }
}

/**
 * What stands in a hole: something the expression still parses with, where it can. Inside a
 * string of the expression (`http.host eq "${var.host}"`), letters; after `in`, a list
 * (`ip.src in ${var.list}`: a set or a `$list` both fit there); elsewhere, a field name. Any
 * problem the checks find on it is dropped (checkParsedRuleset), so it only has to keep the
 * rest of the expression readable.
 */
export function holeFiller(before: string): string {
  const context = new FillerContext();
  context.read(before);
  return context.filler();
}

/**
 * The expression text read so far, as much of it as holeFiller needs: whether it ends inside a
 * string literal (`"…` or `r#"…`) and whether it ends in the word `in`. Read unit by unit as a
 * template is decoded, so that a string of many holes costs time linear in its length: asked
 * of the whole text before each hole, it took 30 s for one of 17,320 holes.
 */
export class FillerContext {
  private state: 'code' | 'string' | 'escape' | 'raw-opening' | 'raw' = 'code';
  /** The `#`s of a raw string's opening (counted so far while it opens). */
  private hashes = 0;
  /** The `#`s after a quote that may close a raw string; -1 when no quote is pending. */
  private closing = -1;
  private previous = '';
  /** The last run of word characters and dots (at most its last three units), and whether only whitespace followed it. */
  private word = '';
  private wordLength = 0;

  read(text: string): void {
    for (let i = 0; i < text.length; i++) this.unit(text[i]);
  }

  filler(): string {
    if (this.state === 'string' || this.state === 'escape' || this.state === 'raw') return 'terraform';
    return this.wordLength === 2 && this.word === 'in' ? '$terraform' : 'terraform';
  }

  private unit(c: string): void {
    this.trackWord(c);
    this.trackString(c);
    this.previous = c;
  }

  private trackWord(c: string): void {
    if (isWordOrDot(c)) {
      if (this.wordLength > 0 && !isWordOrDot(this.previous)) this.wordLength = 0;
      this.word = this.wordLength === 0 ? c : (this.word + c).slice(-3);
      this.wordLength++;
    } else if (!isSpace(c)) this.wordLength = 0;
  }

  private trackString(c: string): void {
    switch (this.state) {
      case 'escape':
        this.state = 'string';
        return;
      case 'string':
        if (c === '\\') this.state = 'escape';
        else if (c === '"') this.state = 'code';
        return;
      case 'raw':
        if (c === '#' && this.closing >= 0) this.closing++;
        else this.closing = c === '"' ? 0 : -1;
        if (this.closing === this.hashes) {
          this.state = 'code';
          this.closing = -1;
        }
        return;
      case 'raw-opening':
        if (c === '#') {
          this.hashes++;
          return;
        }
        if (c === '"') {
          this.state = 'raw';
          this.closing = -1;
          return;
        }
        // Not a raw string after all: the `r` was a word's, and this unit is read as code.
        this.state = 'code';
        break;
      case 'code':
        break;
    }
    if (c === '"') this.state = 'string';
    else if (c === 'r' && !/\w/.test(this.previous)) {
      this.state = 'raw-opening';
      this.hashes = 0;
    }
  }
}

/** `[\w.]`, by the unit's code: asked of every unit of a template with holes. */
function isWordOrDot(c: string): boolean {
  const code = c.charCodeAt(0);
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 46;
}

/** `\s`, by the unit's code where it is ASCII. */
function isSpace(c: string): boolean {
  const code = c.charCodeAt(0);
  return code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(c));
}

class TemplateBuilder {
  readonly units: DecodedStringBuilder;
  readonly holes: Range[] = [];
  private length = 0;
  /** What the text before a hole is, read as it is decoded: only in a template that has holes. */
  private readonly context: FillerContext | undefined;

  constructor(contentStart: number, holes: readonly Range[]) {
    this.units = new DecodedStringBuilder(contentStart);
    this.context = holes.length > 0 ? new FillerContext() : undefined;
  }

  push(unit: string, start: number, end: number): void {
    this.units.push(unit, start, end);
    this.length += unit.length;
    this.context?.read(unit);
  }

  hole(hole: Range): void {
    const filler = this.context!.filler();
    this.holes.push({ start: this.length, end: this.length + filler.length });
    this.push(filler, hole.start, hole.end);
  }

  /** `$${` and `%%{`: a literal `${` and `%{`, the first unit from both `$$`. Else false. */
  doubledIntroducer(text: string, i: number): boolean {
    const c = text[i];
    if ((c !== '$' && c !== '%') || text[i + 1] !== c || text[i + 2] !== '{') return false;
    this.push(c, i, i + 2);
    this.push('{', i + 2, i + 3);
    return true;
  }

  finish(contentEnd: number): DecodedTemplate {
    return { decoded: this.units.finish(contentEnd), holes: this.holes };
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

function decodeQuoted(text: string, start: number, end: number, holes: readonly Range[]): DecodedTemplate {
  const contentStart = start + 1;
  // A string cut short by broken text has no closing quote: its content runs to its end.
  const contentEnd = end - 1 > start && text[end - 1] === '"' ? end - 1 : end;
  const out = new TemplateBuilder(contentStart, holes);
  let h = 0;
  let i = contentStart;
  while (i < contentEnd) {
    if (h < holes.length && i >= holes[h].start) {
      out.hole(holes[h]);
      i = Math.max(i, holes[h].end);
      h++;
      continue;
    }
    const c = text[i];
    if (c === '\\') {
      const escape = readEscape(text, i, contentEnd);
      if (escape) {
        for (const unit of escape.value) out.push(unit, i, escape.end);
        i = escape.end;
        continue;
      }
    } else if (out.doubledIntroducer(text, i)) {
      i += 3;
      continue;
    }
    out.push(c, i, i + 1);
    i++;
  }
  return out.finish(contentEnd);
}

/** The escape at `i` (a backslash): `\n`, `\r`, `\t`, `\"`, `\\`, `\uNNNN`, `\UNNNNNNNN`. Undefined for any other, which the parser reports. */
function readEscape(text: string, i: number, limit: number): { value: string; end: number } | undefined {
  const c = text[i + 1];
  if (i + 1 < limit && c in SIMPLE_ESCAPES) return { value: SIMPLE_ESCAPES[c], end: i + 2 };
  const digits = c === 'u' ? 4 : c === 'U' ? 8 : 0;
  if (digits === 0 || i + 2 + digits > limit) return undefined;
  const hex = text.slice(i + 2, i + 2 + digits);
  if (!/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  const code = parseInt(hex, 16);
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
  return { value: String.fromCodePoint(code), end: i + 2 + digits };
}

/**
 * A heredoc's lines, from the one after `<<EOT` to the one before the closing marker, each with
 * its line break; no escapes but `$${` and `%%{`. `<<-EOT` removes the indentation its lines
 * share, counted the way Terraform counts it (hashicorp/hcl hclsyntax/parser_template.go,
 * flushHeredocTemplateParts): by whitespace characters at the start of each line; a line of
 * only whitespace does not count and keeps its own; a line that starts with a hole has none,
 * so then nothing is removed.
 */
function decodeHeredoc(text: string, start: number, end: number, holes: readonly Range[], leftStripped?: ReadonlySet<number>): DecodedTemplate | undefined {
  const intro = /<<(-?)([A-Za-z_][\w-]*)[ \t]*\r?\n/y;
  intro.lastIndex = start;
  const opening = intro.exec(text);
  if (!opening || intro.lastIndex > end) return undefined;
  const contentStart = intro.lastIndex;
  // The closing marker's line, when the heredoc has one; broken text may end it anywhere.
  const lastLine = text.lastIndexOf('\n', end - 1) + 1;
  const closed = lastLine >= contentStart && text.slice(lastLine, end).trim() === opening[2];
  const contentEnd = closed ? lastLine : end;
  const lines: Range[] = [];
  for (let lineStart = contentStart; lineStart < contentEnd; ) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 || newline >= contentEnd ? contentEnd : newline + 1;
    lines.push({ start: lineStart, end: lineEnd });
    lineStart = lineEnd;
  }
  const holeStarts = new Set(holes.map((hole) => hole.start));
  const isBlank = (line: Range) => /^\s*$/.test(text.slice(line.start, line.end));
  let strip = 0;
  if (opening[1] === '-') {
    strip = Number.MAX_SAFE_INTEGER;
    for (const line of lines) {
      if (isBlank(line)) continue;
      const indent = /^[^\S\r\n]*/.exec(text.slice(line.start, line.end))![0].length;
      strip = Math.min(strip, holeStarts.has(line.start) || leftStripped?.has(line.start + indent) ? 0 : indent);
    }
    if (strip === Number.MAX_SAFE_INTEGER) strip = 0;
  }
  const out = new TemplateBuilder(contentStart, holes);
  let h = 0;
  // Where reading resumes: past a hole that runs over several lines.
  let next = contentStart;
  for (const line of lines) {
    let i = Math.max(line.start, next);
    if (i === line.start && !isBlank(line)) i += strip;
    while (i < line.end) {
      while (h < holes.length && holes[h].end <= i) h++;
      if (h < holes.length && i >= holes[h].start) {
        out.hole(holes[h]);
        i = holes[h].end;
        h++;
        continue;
      }
      if (out.doubledIntroducer(text, i)) {
        i += 3;
        continue;
      }
      out.push(text[i], i, i + 1);
      i++;
    }
    next = i;
  }
  return out.finish(contentEnd);
}
