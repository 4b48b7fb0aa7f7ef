import { coarseDecodedString } from './offset-map';
import type { CST, Scalar } from 'yaml';
import { DecodedString, DecodedStringBuilder } from './offset-map';

/**
 * A decoded YAML scalar. `exact` is false for the coarse fallback, where every unit maps to
 * the whole scalar's source range (positions are then imprecise but never wrong).
 */
export interface YamlDecodedString extends DecodedString {
  readonly exact: boolean;
}

/**
 * Decodes a scalar of a document parsed with `parseDocument(text, { keepSourceTokens: true })`
 * and maps every code unit of its value to the document.
 *
 * The decoders below replay the `yaml` library's own scalar resolution (compose/resolve-flow-scalar
 * and resolve-block-scalar in yaml v2) step by step while tracking source offsets. As a safety net
 * the result is compared with the library's decoded string (`scalar.source`, i.e. the string before
 * tag resolution, which equals `scalar.value` for string scalars); on any difference the coarse
 * fallback is returned, so a future change in the library costs precision, not correctness.
 *
 * Without `srcToken` (keepSourceTokens off) flow scalars are still decoded exactly from `range`,
 * but block scalars need the token's indentation and fall back to the coarse map.
 *
 * Returns undefined when the node has no source range inside `text` (a node built in code) or
 * no string form.
 */
export function decodeYamlScalar(text: string, scalar: Scalar): YamlDecodedString | undefined {
  const range = scalar.range;
  if (!range || range[0] < 0 || range[1] < range[0] || range[1] > text.length) return undefined;
  const expected = libraryString(scalar);
  if (expected === undefined) return undefined;
  const decoded = decodeFromSource(text, scalar, range);
  if (decoded && decoded.value === expected) return { ...decoded, exact: true };
  return coarse(expected, range[0], range[1]);
}

/** Like decodeYamlScalar, but undefined instead of the coarse fallback. */
export function decodeYamlScalarExact(text: string, scalar: Scalar): DecodedString | undefined {
  const decoded = decodeYamlScalar(text, scalar);
  return decoded?.exact ? decoded : undefined;
}

function libraryString(scalar: Scalar): string | undefined {
  if (typeof scalar.source === 'string') return scalar.source;
  if (typeof scalar.value === 'string') return scalar.value;
  return undefined;
}

function coarse(value: string, start: number, end: number): YamlDecodedString {
  return { ...coarseDecodedString(value, start, end), exact: false };
}

function decodeFromSource(
  text: string,
  scalar: Scalar,
  range: readonly [number, number, number],
): DecodedString | undefined {
  const token = scalar.srcToken;
  if (token?.type === 'block-scalar') return decodeBlockScalar(text, token);
  // A flow scalar's value range is exactly its source token, so the range suffices when the
  // token was not kept; when it was, its type is the authority on the style.
  const start = range[0];
  const end = range[1];
  let style = scalar.type;
  if (token) {
    if (token.type === 'scalar') style = 'PLAIN';
    else if (token.type === 'single-quoted-scalar') style = 'QUOTE_SINGLE';
    else if (token.type === 'double-quoted-scalar') style = 'QUOTE_DOUBLE';
    else return undefined;
    if (token.offset !== start || token.source.length !== end - start || !text.startsWith(token.source, start)) {
      return undefined;
    }
  }
  switch (style) {
    case 'PLAIN':
      return decodePlain(text, start, end);
    case 'QUOTE_SINGLE':
      return decodeSingleQuoted(text, start, end);
    case 'QUOTE_DOUBLE':
      return decodeDoubleQuoted(text, start, end);
    default:
      return undefined;
  }
}

/** The styles of YAML scalars that stand on their own lines' text (not `|` or `>`). */
export type FlowScalarStyle = 'plain' | 'single-quoted' | 'double-quoted';

/** A flow scalar at [start, end) of `text`, decoded as the library decodes it, read without the library. */
export function decodeFlowScalar(text: string, start: number, end: number, style: FlowScalarStyle): YamlDecodedString {
  const decoded = style === 'plain' ? decodePlain(text, start, end) : style === 'single-quoted' ? decodeSingleQuoted(text, start, end) : decodeDoubleQuoted(text, start, end);
  return { ...decoded, exact: true };
}

function decodePlain(text: string, start: number, end: number): DecodedString {
  const out = new DecodedStringBuilder(start);
  unfoldLines(text, start, end, out, false);
  return out.finish(end);
}

function decodeSingleQuoted(text: string, start: number, end: number): DecodedString {
  // Like the library, which reads `source.slice(1, -1)`, drop the last character even when it
  // is not a closing quote (an unterminated scalar in a broken document).
  const contentStart = Math.min(start + 1, end);
  const contentEnd = Math.max(contentStart, end - 1);
  const out = new DecodedStringBuilder(contentStart);
  unfoldLines(text, contentStart, contentEnd, out, true);
  const closed = end - start > 1 && text[end - 1] === "'";
  return out.finish(closed ? contentEnd : end);
}

/**
 * Line folding of plain and single-quoted scalars (the library's `unfoldLines`): a line break
 * between two non-empty lines reads as a space, each further empty (or blank) line as `\n`,
 * leading blanks of continuation lines and trailing blanks of all but the last line are dropped.
 *
 * The first line break of a run is the one discarded, so a folded space maps to that break and
 * each kept `\n` to the break ending one of the empty lines, which keeps `starts` increasing.
 */
function unfoldLines(text: string, from: number, to: number, out: DecodedStringBuilder, singleQuoted: boolean): void {
  let nl = indexOfLineFeed(text, from, to);
  if (nl === to) {
    pushContent(text, from, to, out, singleQuoted);
    return;
  }
  let lineEnd = lineContentEnd(text, from, nl);
  pushContent(text, from, trimEndBlanks(text, from, lineEnd), out, singleQuoted);
  let sep = ' ';
  let sepStart = lineEnd;
  let sepEnd = nl + 1;
  let pos = nl + 1;
  while ((nl = indexOfLineFeed(text, pos, to)) < to) {
    lineEnd = lineContentEnd(text, pos, nl);
    const contentStart = skipBlanks(text, pos, lineEnd);
    const contentEnd = trimEndBlanks(text, contentStart, lineEnd);
    if (contentStart === contentEnd) {
      if (sep === '\n') out.push('\n', sepStart, sepEnd);
      else sep = '\n';
    } else {
      out.push(sep, sepStart, sepEnd);
      pushContent(text, contentStart, contentEnd, out, singleQuoted);
      sep = ' ';
    }
    sepStart = lineEnd;
    sepEnd = nl + 1;
    pos = nl + 1;
  }
  // The last line keeps its trailing blanks (in a quoted scalar they precede the closing quote).
  out.push(sep, sepStart, sepEnd);
  pushContent(text, skipBlanks(text, pos, to), to, out, singleQuoted);
}

function pushContent(text: string, from: number, to: number, out: DecodedStringBuilder, singleQuoted: boolean): void {
  for (let i = from; i < to; i++) {
    if (singleQuoted && text[i] === "'" && i + 1 < to && text[i + 1] === "'") {
      out.push("'", i, i + 2);
      i++;
    } else {
      out.push(text[i], i, i + 1);
    }
  }
}

/**
 * The first `\n` in [from, to), or `to`. Bounded, unlike `indexOf`, which would scan past a
 * short scalar to the end of a long line (a large flow collection) for every scalar on it.
 */
function indexOfLineFeed(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 0x0a) return i;
  return to;
}

/** End of a line's content: before the `\n` at `nl`, or before a `\r` that precedes it. */
function lineContentEnd(text: string, lineStart: number, nl: number): number {
  return nl > lineStart && text[nl - 1] === '\r' ? nl - 1 : nl;
}

function skipBlanks(text: string, from: number, to: number): number {
  while (from < to && (text[from] === ' ' || text[from] === '\t')) from++;
  return from;
}

function trimEndBlanks(text: string, from: number, to: number): number {
  while (to > from && (text[to - 1] === ' ' || text[to - 1] === '\t')) to--;
  return to;
}

const YAML_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  '\t': '\t',
};

/** Whether `\c` is one of the library's one-character escapes in a double-quoted scalar. */
export function isYamlSimpleEscape(c: string): boolean {
  return Object.hasOwn(YAML_ESCAPES, c);
}

/**
 * The library's `doubleQuotedValue`, index for index (including its handling of malformed
 * escapes and of an unterminated scalar), with every unit mapped to its source.
 */
function decodeDoubleQuoted(text: string, start: number, end: number): DecodedString {
  const source = text.slice(start, end);
  const out = new DecodedStringBuilder(Math.min(start + 1, end));
  const lineBreakStart = (nl: number) => (nl > 0 && source[nl - 1] === '\r' ? nl - 1 : nl);
  const pushRaw = (raw: string, at: number) => {
    for (let k = 0; k < raw.length; k++) out.push(raw[k], start + at + k, start + at + k + 1);
  };
  for (let i = 1; i < source.length - 1; ++i) {
    const ch = source[i];
    if (ch === '\r' && source[i + 1] === '\n') continue;
    if (ch === '\n') {
      // Folding: the first line break becomes a space unless empty lines follow; then it is
      // dropped and each following line break is kept as `\n`.
      let offset = i;
      let kept = 0;
      let next = source[offset + 1];
      while (next === ' ' || next === '\t' || next === '\n' || next === '\r') {
        if (next === '\r' && source[offset + 2] !== '\n') break;
        if (next === '\n') {
          out.push('\n', start + lineBreakStart(offset + 1), start + offset + 2);
          kept++;
        }
        offset += 1;
        next = source[offset + 1];
      }
      if (kept === 0) out.push(' ', start + lineBreakStart(i), start + i + 1);
      i = offset;
    } else if (ch === '\\') {
      const escStart = i;
      let next = source[++i];
      const simple = next === undefined ? undefined : YAML_ESCAPES[next];
      if (simple) {
        out.push(simple, start + escStart, start + i + 1);
      } else if (next === '\n') {
        // An escaped line break joins the lines without a space; the next line's indentation goes too.
        next = source[i + 1];
        while (next === ' ' || next === '\t') next = source[++i + 1];
      } else if (next === '\r' && source[i + 1] === '\n') {
        next = source[++i + 1];
        while (next === ' ' || next === '\t') next = source[++i + 1];
      } else if (next === 'x' || next === 'u' || next === 'U') {
        const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const digits = source.substr(i + 1, length);
        const code = digits.length === length && /^[0-9a-fA-F]+$/.test(digits) ? parseInt(digits, 16) : NaN;
        if (code <= 0x10ffff) {
          // An astral `\U` escape gives two units, both mapped to the whole escape.
          out.push(String.fromCodePoint(code), start + escStart, start + i + 1 + length);
        } else {
          // The library keeps an invalid escape verbatim.
          pushRaw(source.substr(i - 1, length + 2), i - 1);
        }
        i += length;
      } else {
        pushRaw(source.substr(i - 1, 2), i - 1);
      }
    } else if (ch === ' ' || ch === '\t') {
      // Blanks before a line break are dropped.
      const wsStart = i;
      let next = source[i + 1];
      while (next === ' ' || next === '\t') next = source[++i + 1];
      if (next !== '\n' && !(next === '\r' && source[i + 2] === '\n')) pushRaw(source.slice(wsStart, i + 1), wsStart);
    } else {
      out.push(ch, start + i, start + i + 1);
    }
  }
  const closed = source.length > 1 && source[source.length - 1] === '"';
  return out.finish(closed ? end - 1 : end);
}

export interface BlockHeader {
  readonly folded: boolean;
  readonly indent: number;
  readonly chomp: '' | '-' | '+';
  /** Length of the header line including its comment and line break. */
  readonly length: number;
}

/** A block scalar (`|` or `>`) where it stands: what its decoding needs, from the library's token or read without it. */
export interface BlockScalarLayout {
  /** The offset of its header (`|`, `>-`, …). */
  readonly offset: number;
  /** The indentation of the collection it is a value of (the token's `indent`). */
  readonly indent: number;
  readonly header: BlockHeader;
  /** Where its lines after the header end: at the line break of its last line. */
  readonly end: number;
}

/** The library's `parseBlockScalarHeader`, without the error reporting. */
function parseBlockHeader(token: CST.BlockScalar): BlockHeader | undefined {
  const first = token.props[0];
  if (!first || first.type !== 'block-scalar-header') return undefined;
  const source = first.source;
  let indent = 0;
  let chomp: '' | '-' | '+' = '';
  for (let i = 1; i < source.length; ++i) {
    const ch = source[i];
    if (!chomp && (ch === '-' || ch === '+')) chomp = ch;
    else {
      const n = Number(ch);
      if (!indent && n) indent = n;
    }
  }
  let length = 0;
  for (const prop of token.props) {
    const propSource = (prop as { source?: unknown }).source;
    if (typeof propSource === 'string') length += propSource.length;
  }
  return { folded: source[0] === '>', indent, chomp, length };
}

/** A block scalar read without the library (documents/host/block-yaml.ts), decoded as the library decodes it. */
export function decodeBlockScalarExact(text: string, layout: BlockScalarLayout): YamlDecodedString | undefined {
  const decoded = decodeBlockScalarAt(text, layout);
  return decoded && { ...decoded, exact: true };
}

function decodeBlockScalar(text: string, token: CST.BlockScalar): DecodedString | undefined {
  const header = parseBlockHeader(token);
  if (!header) return undefined;
  // The token's lines must be the document's where the token says they stand.
  const base = token.offset + header.length;
  if (!text.startsWith(token.source, base)) return undefined;
  return decodeBlockScalarAt(text, { offset: token.offset, indent: token.indent, header, end: base + token.source.length });
}

/**
 * The library's `resolveBlockScalar`, with every unit mapped to its source. Lines are kept as
 * offsets into the document (start, indentation length, end before `\n`) to avoid copies.
 */
function decodeBlockScalarAt(text: string, layout: BlockScalarLayout): DecodedString | undefined {
  const { header, end: sourceEnd } = layout;
  const base = layout.offset + header.length;

  // Lines as the library's splitLines sees them: `indent` counts spaces only, content may end
  // with the `\r` of a CRLF line break.
  const lineStart: number[] = [];
  const lineIndent: number[] = [];
  const lineEnd: number[] = [];
  if (sourceEnd > base) {
    let pos = base;
    for (;;) {
      const nl = indexOfLineFeed(text, pos, sourceEnd);
      let indentEnd = pos;
      while (indentEnd < nl && text[indentEnd] === ' ') indentEnd++;
      lineStart.push(pos);
      lineIndent.push(indentEnd - pos);
      lineEnd.push(nl);
      if (nl === sourceEnd) break;
      pos = nl + 1;
    }
  }
  const lineCount = lineStart.length;
  const contentFrom = (i: number) => lineStart[i] + lineIndent[i];
  const isEmptyContent = (i: number) => {
    const length = lineEnd[i] - contentFrom(i);
    return length === 0 || (length === 1 && text[contentFrom(i)] === '\r');
  };

  const out = new DecodedStringBuilder(base);
  // A chomped or clipped final `\n` may stand for a line break the source does not have (the
  // scalar ends the document); it then maps to the empty range at the end of the scalar.
  const pushBreak = (str: string, line: number) => {
    if (line >= 0 && line < lineCount - 1) {
      const nl = lineEnd[line];
      const breakStart = nl > lineStart[line] && text[nl - 1] === '\r' ? nl - 1 : nl;
      out.push(str, breakStart, nl + 1);
    } else {
      out.push(str, sourceEnd, sourceEnd);
    }
  };
  const pushSlice = (from: number, to: number) => {
    for (let k = from; k < to; k++) out.push(text[k], k, k + 1);
  };
  /** Extra indentation of line `i` beyond `trimIndent` (kept in the value). */
  const pushIndent = (i: number, trimIndent: number) => {
    if (lineIndent[i] > trimIndent) pushSlice(lineStart[i] + trimIndent, contentFrom(i));
  };

  let chompStart = lineCount;
  for (let i = lineCount - 1; i >= 0; --i) {
    if (isEmptyContent(i)) chompStart = i;
    else break;
  }

  if (chompStart === 0) {
    if (header.chomp === '+' && lineCount > 0) {
      const count = Math.max(1, lineCount - 1);
      for (let k = 0; k < count; k++) pushBreak('\n', k);
    }
    return out.finish(sourceEnd);
  }

  let trimIndent = layout.indent + header.indent;
  let contentStart = 0;
  for (let i = 0; i < chompStart; ++i) {
    if (isEmptyContent(i)) {
      if (header.indent === 0 && lineIndent[i] > trimIndent) trimIndent = lineIndent[i];
    } else {
      if (header.indent === 0) trimIndent = lineIndent[i];
      contentStart = i;
      break;
    }
  }
  // Trailing empty lines that are more indented belong to the content.
  for (let i = lineCount - 1; i >= chompStart; --i) {
    if (lineIndent[i] > trimIndent) chompStart = i + 1;
  }

  for (let i = 0; i < contentStart; ++i) {
    pushIndent(i, trimIndent);
    pushBreak('\n', i);
  }

  // The library appends a separator before each content line; `pendingNewlines` holds the
  // `\n`s it appends for empty lines in a folded scalar, emitted together with the separator.
  // The separator stands for the line breaks since the last emitting line: if it has fewer
  // characters than there are breaks, the first breaks are the ones folded away.
  let sep = '';
  let pendingNewlines = 0;
  let prevMoreIndented = false;
  let lastEmitted = contentStart;
  const emitSeparator = (line: number) => {
    const str = '\n'.repeat(pendingNewlines) + sep;
    for (let k = 0; k < str.length; k++) pushBreak(str[k], Math.max(lastEmitted, line - str.length + k));
    pendingNewlines = 0;
    lastEmitted = line;
  };

  for (let i = contentStart; i < chompStart; ++i) {
    const from = contentFrom(i);
    let to = lineEnd[i];
    if (to > from && text[to - 1] === '\r') to--;
    let indent = lineIndent[i];
    if (to > from && indent < trimIndent) indent = 0; // malformed: the library drops the indentation
    const pushLine = () => {
      if (indent > trimIndent) pushSlice(lineStart[i] + trimIndent, lineStart[i] + indent);
      pushSlice(from, to);
    };
    if (!header.folded) {
      emitSeparator(i);
      pushLine();
      sep = '\n';
    } else if (indent > trimIndent || (to > from && text[from] === '\t')) {
      // More-indented lines keep their line breaks, including the one before them.
      if (sep === ' ') sep = '\n';
      else if (!prevMoreIndented && sep === '\n') sep = '\n\n';
      emitSeparator(i);
      pushLine();
      sep = '\n';
      prevMoreIndented = true;
    } else if (to === from) {
      if (sep === '\n') pendingNewlines++;
      else sep = '\n';
    } else {
      emitSeparator(i);
      pushLine();
      sep = ' ';
      prevMoreIndented = false;
    }
  }
  // The last content line always emits, so this only guards against a library change.
  if (pendingNewlines > 0) {
    for (let k = 0; k < pendingNewlines; k++) pushBreak('\n', Math.max(lastEmitted, chompStart - pendingNewlines + k));
  }

  switch (header.chomp) {
    case '-':
      break;
    case '+':
      for (let i = chompStart; i < lineCount; ++i) {
        pushBreak('\n', i - 1);
        pushIndent(i, trimIndent);
      }
      if (out.lastUnit() !== '\n') pushBreak('\n', lineCount - 1);
      break;
    default:
      pushBreak('\n', chompStart - 1);
  }
  return out.finish(sourceEnd);
}
