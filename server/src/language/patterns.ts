import type { Span, StringLiteral } from './ast';
import { problem, type Problem } from './problem';
import { regexError } from './regex';

/**
 * Checks of the patterns on the right of `matches`, `wildcard` and `strict wildcard`, as the
 * reference engine reads them (LANGUAGE.md §7b). Spans point at the pattern's own characters
 * in the expression, whatever escapes stand between.
 */

/**
 * The problem of an invalid regex. `source` is the pattern the regex engine sees, and
 * `at(i)` the expression offset of its UTF-16 unit `i` (`at(source.length)` is past the end).
 */
export function regexProblem(source: string, at: (index: number) => number): Problem | undefined {
  const error = regexError(source);
  if (!error) return undefined;
  let { start, end } = error;
  // regex-syntax marks some errors with an empty span ("missing expression" before `*`, a
  // flag expected at the end): mark the character there, or the last one at the end.
  if (end <= start) {
    if (start < source.length) end = start + 1;
    else if (start > 0) start = end - 1;
  }
  const span: Span = { start: at(start), end: end > start ? at(end - 1) + 1 : at(start) };
  return problem('invalid-regex', 'error', span, `invalid regular expression (Rust \`regex\` syntax, as the service reads it): ${error.message}`);
}

/** One byte of a decoded string literal, with the characters of the expression it came from. */
interface Unit {
  readonly byte: number;
  readonly span: Span;
}

/**
 * The bytes of a string literal's body, each with its span. A quoted body is read with the
 * string escapes (`\"`, `\\`, `\xHH`, `\OOO`); characters are their UTF-8 bytes. Undefined
 * when an escape is invalid (reported elsewhere).
 */
function units(literal: StringLiteral, text: string): Unit[] | undefined {
  const out: Unit[] = [];
  const encoder = new TextEncoder();
  const push = (bytes: Iterable<number>, start: number, end: number) => {
    for (const byte of bytes) out.push({ byte, span: { start, end } });
  };
  const raw = literal.raw;
  const open = text.indexOf('"', literal.span.start);
  const hashes = open - literal.span.start - 1;
  const bodyStart = open + 1;
  const bodyEnd = raw ? literal.span.end - 1 - hashes : literal.span.end - 1;
  if (open < 0 || bodyEnd < bodyStart) return undefined;
  for (let i = bodyStart; i < bodyEnd; ) {
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    if (raw || text[i] !== '\\') {
      push(encoder.encode(String.fromCodePoint(code)), i, i + width);
      i += width;
      continue;
    }
    const next = text[i + 1];
    if (next === '"' || next === '\\') {
      push([next.charCodeAt(0)], i, i + 2);
      i += 2;
    } else if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
      push([parseInt(text.slice(i + 2, i + 4), 16)], i, i + 4);
      i += 4;
    } else if (/^[0-7]{3}$/.test(text.slice(i + 1, i + 4)) && parseInt(text.slice(i + 1, i + 4), 8) <= 0xff) {
      push([parseInt(text.slice(i + 1, i + 4), 8)], i, i + 4);
      i += 4;
    } else {
      return undefined;
    }
  }
  return out;
}

const STAR = 0x2a;
/**
 * The most `*` a `wildcard`/`strict wildcard` pattern may hold: a setting of the service's
 * parser (the reference engine's bindings refuse the 11th: "wildcard has 11 star
 * metacharacters, but the limit is 10"). The `wildcard()` function's pattern has no such limit.
 */
export const MAX_WILDCARD_STARS = 10;
const BACKSLASH = 0x5c;

/**
 * The problem of an invalid wildcard (the `wildcard` crate, as wirefilter configures it: `*`
 * only, `\` escapes only `*` and `\`, and no `**`), checked on the string's bytes.
 */
export function wildcardProblem(literal: StringLiteral, text: string): Problem | undefined {
  const bytes = units(literal, text);
  if (!bytes) return undefined;
  const escapeHelp = 'a wildcard has no other escapes; write `\\\\` for a backslash';
  // The reference checks the escapes of the whole pattern first, then looks for `**`.
  let doubleStar: Span | undefined;
  let previousStar = false;
  for (let i = 0; i < bytes.length; i++) {
    const { byte, span } = bytes[i];
    if (byte === BACKSLASH) {
      const next = bytes[i + 1];
      if (!next) return problem('invalid-wildcard', 'error', span, `expected \`*\` or \`\\\` after \`\\\` in the wildcard, found its end; ${escapeHelp}`);
      if (next.byte !== STAR && next.byte !== BACKSLASH) {
        const found = text.slice(next.span.start, next.span.end);
        return problem('invalid-wildcard', 'error', { start: span.start, end: next.span.end }, `expected \`*\` or \`\\\` after \`\\\` in the wildcard, found \`${found}\`; ${escapeHelp}`);
      }
      i++;
      previousStar = false;
      continue;
    }
    if (byte === STAR && previousStar && !doubleStar) doubleStar = { start: bytes[i - 1].span.start, end: span.end };
    previousStar = byte === STAR;
  }
  // The service's parser takes at most MAX_WILDCARD_STARS metacharacters, and counts them before it looks for `**`.
  let stars = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i].byte === BACKSLASH) i++;
    else if (bytes[i].byte === STAR) stars++;
  }
  if (stars > MAX_WILDCARD_STARS) {
    return problem('invalid-wildcard', 'error', literal.span, `a wildcard pattern may hold at most ${MAX_WILDCARD_STARS} \`*\`, found ${stars}; the service refuses more (for longer patterns, use \`matches\` with a regular expression)`);
  }
  if (!doubleStar) return undefined;
  return problem('invalid-wildcard', 'error', doubleStar, 'a wildcard may not contain `**`: one `*` already matches any run of characters', [
    { title: 'Write one `*`', edits: [{ span: doubleStar, newText: '*' }] },
  ]);
}
