import { DecodedString, DecodedStringBuilder } from './offset-map';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

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
 * Returns undefined only when `text[start]` is not a double quote.
 */
export function decodeJsonString(text: string, start: number, end: number): DecodedString | undefined {
  if (text.charCodeAt(start) !== 0x22 /* " */) return undefined;
  const limit = Math.min(end, text.length);
  const out = new DecodedStringBuilder(start + 1);
  let i = start + 1;
  while (i < limit) {
    const ch = text[i];
    if (ch === '"') return out.finish(i);
    if (ch === '\\') {
      if (i + 1 >= limit) break;
      const esc = text[i + 1];
      const simple = SIMPLE_ESCAPES[esc];
      if (simple !== undefined) {
        out.push(simple, i, i + 2);
        i += 2;
      } else if (esc === 'u') {
        let digits = 0;
        while (digits < 4 && i + 2 + digits < limit && isHexDigit(text.charCodeAt(i + 2 + digits))) digits++;
        if (digits === 4) {
          // A surrogate pair written as two escapes stays two units, each mapped to its own escape.
          out.push(String.fromCharCode(parseInt(text.substr(i + 2, 4), 16)), i, i + 6);
        }
        // jsonc-parser drops an incomplete escape together with the hex digits it consumed.
        i += 2 + digits;
      } else {
        // jsonc-parser drops an unknown escape (both characters) from the value.
        i += 2;
      }
      continue;
    }
    // jsonc-parser ends an unterminated string at the line break.
    if (ch === '\n' || ch === '\r') break;
    out.push(ch, i, i + 1);
    i++;
  }
  return out.finish(i);
}

function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}
