import type { Span } from './ast';
import { scanTokens } from './lex';

export interface LexicalStructure {
  /** Offsets of TAB characters between tokens (a TAB inside a string is content). */
  readonly tabs: readonly number[];
  /**
   * Set when parentheses or `not` chains nest deeper than the limit: the token where the
   * limit is passed. Every `(` counts, so a call or an `any(…)` is one level, as the reference
   * counts them; index steps hold no level, as they nest nothing. The parser is not run then,
   * so hostile input cannot exhaust its stack.
   */
  readonly deepest?: Span;
}

const GUARD_DEPTH = 128;

const NOTHING_FOUND: LexicalStructure = { tabs: [] };

/**
 * Whether the text holds at least `count` characters that may open a level of nesting: `(`,
 * `!` and the `n` of `not`. Counting characters costs a fraction of reading tokens, and the
 * count stops once too few characters are left to reach it, a few characters into most
 * expressions.
 */
export function mayHoldOpeners(text: string, count: number): boolean {
  // At least `count` openers leave at most `length - count` other characters.
  let others = text.length - count + 1;
  if (others <= 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x28 && c !== 0x21 && c !== 0x6e && --others === 0) return false;
  }
  return true;
}

/**
 * Whether the scan could find anything: a TAB, or more openers than the guard allows. Almost
 * every expression has neither; text no longer than the guard cannot hold too many openers, so
 * only the (native) search for a TAB reads it.
 */
function mayFindAnything(text: string): boolean {
  if (text.indexOf('\t') >= 0) return true;
  return text.length > GUARD_DEPTH && mayHoldOpeners(text, GUARD_DEPTH + 1);
}

/**
 * A single pass over the expression's tokens. It finds what the grammar deliberately
 * tolerates (TABs) and guards the recursive parser against depth.
 */
export function scanLexicalStructure(text: string): LexicalStructure {
  if (!mayFindAnything(text)) return NOTHING_FOUND;
  const tabs: number[] = [];
  let depth = 0;
  let notChain = 0;
  let deepest: Span | undefined;
  // The reference parser trims the whole expression (Rust's `trim`, TAB included) before
  // reading it, so only a TAB between tokens is an error.
  const first = text.length - text.trimStart().length;
  const last = text.trimEnd().length;
  let gapStart = 0;
  const tabsBefore = (end: number) => {
    for (let i = gapStart; i < end; i++) if (text[i] === '\t' && i > first && i < last) tabs.push(i);
  };
  for (const token of scanTokens(text)) {
    tabsBefore(token.span.start);
    gapStart = token.span.end;
    if (token.kind === '(') {
      depth++;
      if (depth + notChain > GUARD_DEPTH && !deepest) deepest = token.span;
    } else if (token.kind === ')') {
      depth = Math.max(0, depth - 1);
      notChain = 0;
    } else if (token.text === '!' || (token.kind === 'word' && token.text === 'not')) {
      notChain++;
      if (depth + notChain > GUARD_DEPTH && !deepest) deepest = token.span;
    } else {
      notChain = 0;
    }
  }
  tabsBefore(text.length);
  return deepest ? { tabs, deepest } : { tabs };
}
