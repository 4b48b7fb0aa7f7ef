import type { Span } from './ast';
import { comparisonOperatorOf } from './catalogue/operators';

/**
 * The tokens of an expression, read without a parse: for the features that must work on
 * text that does not parse (completion while typing, hover and highlighting of a broken
 * expression) and for the scan that guards the parser. Follows the grammar's token rules
 * (expression.ohm) as far as they can be told without context; what the grammar decides by
 * context (whether a word is a field name or a bare value) is left to the reader of the
 * tokens. Never throws, and linear in the text.
 */

export type TokenKind = 'word' | 'string' | 'raw-string' | 'list' | 'symbol' | '(' | ')' | '{' | '}' | ',' | 'other';

export interface LexicalToken {
  readonly kind: TokenKind;
  readonly text: string;
  readonly span: Span;
}

export interface ScanOptions {
  /** Tokens that start at or after this offset are not read (the last one read may reach past it). */
  readonly limit?: number;
  /**
   * `strict wildcard` as the two words it is typed as, rather than as the one operator token
   * the grammar reads (`strict`, whitespace, `wildcard`).
   */
  readonly strictWildcardAsWords?: boolean;
}

/** The grammar's `keyword` rule: words that are never a field or a function name. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'and', 'or', 'xor', 'not', 'in', 'eq', 'ne', 'ge', 'le', 'gt', 'lt',
  'contains', 'matches', 'wildcard', 'strict', 'bitwise_and', 'true', 'false',
]);

/** A keyword, or the `strict wildcard` operator read as one token. */
export function isKeyword(word: string): boolean {
  return KEYWORDS.has(word) || comparisonOperatorOf(word) === 'strict_wildcard';
}

/** What may follow `strict` to make it one token with `wildcard`. */
const WILDCARD_AFTER_STRICT = /[ \t\r\n]+wildcard(?![A-Za-z0-9_])/y;

/** Longest first, as the grammar tries them. */
const SYMBOLS = ['==', '!=', '>=', '<=', '&&', '||', '^^', '>', '<', '~', '&', '!', '=', '|', '^'];

export function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\r' || c === '\n' || c === '\t';
}

/** `[A-Za-z0-9_]`: the characters of names and keywords. */
function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_');
}

/** The characters of a field name or of a bare value (`ip.src`, `10.0.0.0/8`, `1..5`, `::1`, `-1`). */
function isWordChar(c: string): boolean {
  return isIdentChar(c) || c === '.' || c === ':' || c === '-' || c === '/';
}

/**
 * Splits an expression into tokens, whatever state it is in: strings (closed or not), raw
 * strings, `$lists`, words (field names, keywords and bare values alike: `ip.src`,
 * `10.0.0.0/8`, `1..5`), operator symbols, punctuation, and any other character alone.
 * Spaces, line breaks and TABs separate tokens and belong to none.
 */
export function scanTokens(text: string, options: ScanOptions = {}): LexicalToken[] {
  const limit = Math.min(options.limit ?? text.length, text.length);
  const tokens: LexicalToken[] = [];
  let i = 0;
  while (i < limit) {
    const c = text[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    let kind: TokenKind;
    let end = i + 1;
    if (c === '"') {
      kind = 'string';
      const previous = tokens[tokens.length - 1]?.text;
      end = previous === 'matches' || previous === '~' ? endOfPattern(text, i) : endOfQuoted(text, i);
    } else if (c === 'r' && isRawStringStart(text, i)) {
      kind = 'raw-string';
      end = endOfRaw(text, i);
    } else if (c === '$') {
      kind = 'list';
      while (end < text.length && (isIdentChar(text[end]) || text[end] === '.')) end++;
    } else if (isWordChar(c)) {
      kind = 'word';
      while (end < text.length && isWordChar(text[end])) end++;
      if (!options.strictWildcardAsWords && end - i === 6 && text.startsWith('strict', i)) {
        WILDCARD_AFTER_STRICT.lastIndex = end;
        if (WILDCARD_AFTER_STRICT.test(text)) end = WILDCARD_AFTER_STRICT.lastIndex;
      }
    } else if (c === '(' || c === ')' || c === '{' || c === '}' || c === ',') {
      kind = c;
    } else {
      const symbol = SYMBOLS.find((s) => text.startsWith(s, i));
      kind = symbol ? 'symbol' : 'other';
      if (symbol) end = i + symbol.length;
    }
    tokens.push({ kind, text: text.slice(i, end), span: { start: i, end } });
    i = end;
  }
  return tokens;
}

/** The end of the quoted string that starts at `start`: after its closing quote, or the end of the text. */
function endOfQuoted(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** The end of a quoted pattern after `matches`/`~`: as the reference reads it, a `"` inside a `[…]` class does not end it. */
function endOfPattern(text: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    else if (c === '"' && !inClass) return i + 1;
  }
  return text.length;
}

/** Whether a raw string (`r"…"`, `r#"…"#`, …) starts at `start`: an `r`, any number of `#`, a `"`. */
function isRawStringStart(text: string, start: number): boolean {
  if (text[start] !== 'r') return false;
  let i = start + 1;
  while (text[i] === '#') i++;
  return text[i] === '"';
}

/** The end of the raw string that starts at `start`: after its closing fence, or the end of the text. */
function endOfRaw(text: string, start: number): number {
  let i = start + 1;
  while (text[i] === '#') i++;
  const fence = `"${'#'.repeat(i - start - 1)}`;
  const close = text.indexOf(fence, i + 1);
  return close < 0 ? text.length : close + fence.length;
}
