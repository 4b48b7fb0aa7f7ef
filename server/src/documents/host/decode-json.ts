import { VerbatimDecodedString, type DecodedString } from './offset-map';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LF = 0x0a;
const CR = 0x0d;
const U = 0x75;

/** The character a one-letter escape stands for, by the letter's code; undefined for any other. */
function simpleEscape(code: number): string | undefined {
  switch (code) {
    case QUOTE:
      return '"';
    case BACKSLASH:
      return '\\';
    case 0x2f:
      return '/';
    case 0x62:
      return '\b';
    case 0x66:
      return '\f';
    case 0x6e:
      return '\n';
    case 0x72:
      return '\r';
    case 0x74:
      return '\t';
    default:
      return undefined;
  }
}

/**
 * Decodes the JSON string token at document range [start, end) (quotes included, as
 * jsonc-parser's `parseTree` reports string nodes) and records where every code unit of
 * the value comes from. Offsets are UTF-16 code-unit offsets (JS string indices), so a raw
 * astral character is two units mapped to its two source units, and a `\uXXXX` escape is
 * one unit mapped to all six characters of the escape.
 *
 * Malformed input is decoded the way jsonc-parser's scanner reads it, so the value always
 * equals the node's `value`: an unknown escape or an incomplete `\u` escape contributes
 * nothing, and a line break or `end` stops an unterminated string (contentEnd is then where
 * decoding stopped).
 *
 * Every problem of an expression is mapped through this, so it is built without a string or a
 * number per character: a string without escapes (most) is its source as it is, mapped by
 * arithmetic; another is cut from the text a run of unescaped characters at a time, and its
 * offsets written into arrays of the source's length (no unit comes from less than one
 * character of it).
 *
 * Returns undefined only when `text[start]` is not a double quote.
 */
export function decodeJsonString(text: string, start: number, end: number): DecodedString | undefined {
  if (text.charCodeAt(start) !== QUOTE) return undefined;
  const limit = Math.min(end, text.length);
  let verbatimEnd = start + 1;
  for (; verbatimEnd < limit; verbatimEnd++) {
    const code = text.charCodeAt(verbatimEnd);
    if (code === QUOTE || code === LF || code === CR || code === BACKSLASH) break;
  }
  // A backslash last (at `end`) stops decoding as the string's end would.
  if (text.charCodeAt(verbatimEnd) !== BACKSLASH || verbatimEnd + 1 >= limit) return new VerbatimDecodedString(text.slice(start + 1, verbatimEnd), start + 1);
  const capacity = Math.max(0, limit - start - 1);
  const starts = new Int32Array(capacity);
  const ends = new Int32Array(capacity);
  let units = 0;
  let value = '';
  // Where the run of characters taken as they are, not yet added to `value`, starts.
  let run = start + 1;
  let i = start + 1;
  while (i < limit) {
    const code = text.charCodeAt(i);
    // jsonc-parser ends an unterminated string at the line break.
    if (code === QUOTE || code === LF || code === CR) break;
    if (code !== BACKSLASH) {
      starts[units] = i;
      ends[units++] = ++i;
      continue;
    }
    if (i + 1 >= limit) break;
    value += text.slice(run, i);
    const escape = text.charCodeAt(i + 1);
    const simple = simpleEscape(escape);
    if (simple !== undefined) {
      value += simple;
      starts[units] = i;
      ends[units++] = i + 2;
      i += 2;
    } else if (escape === U) {
      let digits = 0;
      while (digits < 4 && i + 2 + digits < limit && isHexDigit(text.charCodeAt(i + 2 + digits))) digits++;
      if (digits === 4) {
        // A surrogate pair written as two escapes stays two units, each mapped to its own escape.
        value += String.fromCharCode(parseInt(text.substr(i + 2, 4), 16));
        starts[units] = i;
        ends[units++] = i + 6;
      }
      // jsonc-parser drops an incomplete escape together with the hex digits it consumed.
      i += 2 + digits;
    } else {
      // jsonc-parser drops an unknown escape (both characters) from the value.
      i += 2;
    }
    run = i;
  }
  value += text.slice(run, i);
  return {
    value,
    starts: units === capacity ? starts : starts.slice(0, units),
    ends: units === capacity ? ends : ends.slice(0, units),
    contentStart: start + 1,
    contentEnd: i,
  };
}

function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}
