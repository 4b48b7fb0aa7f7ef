import type { Span } from './ast';

export interface LexicalStructure {
  /** Offsets of TAB characters between tokens (a TAB inside a string is content). */
  readonly tabs: readonly number[];
  /**
   * Set when parentheses or `not` chains nest deeper than the limit: the token where the
   * limit is passed. The parser is not run then, so hostile input cannot exhaust its stack.
   */
  readonly deepest?: Span;
}

const GUARD_DEPTH = 128;

/**
 * A single pass over the expression that knows only where strings are. It finds what the
 * grammar deliberately tolerates (TABs) and guards the recursive parser against depth.
 */
export function scanLexicalStructure(text: string): LexicalStructure {
  const tabs: number[] = [];
  let depth = 0;
  let notChain = 0;
  let deepest: Span | undefined;
  // The reference parser trims the whole expression (Rust's `trim`, TAB included) before
  // reading it, so only a TAB between tokens is an error.
  const first = text.length - text.trimStart().length;
  const last = text.trimEnd().length;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = skipQuoted(text, i);
      notChain = 0;
      continue;
    }
    if (c === 'r' && (text[i + 1] === '#' || text[i + 1] === '"') && !isIdentChar(text[i - 1])) {
      i = skipRaw(text, i);
      notChain = 0;
      continue;
    }
    if (c === '\t') {
      if (i > first && i < last) tabs.push(i);
    } else if (c === '(') {
      depth++;
      if (depth + notChain > GUARD_DEPTH && !deepest) deepest = { start: i, end: i + 1 };
    } else if (c === ')') {
      depth = Math.max(0, depth - 1);
      notChain = 0;
    } else if ((c === '!' && text[i + 1] !== '=') || (text.startsWith('not', i) && !isIdentChar(text[i - 1]) && !isIdentChar(text[i + 3]))) {
      notChain++;
      if (depth + notChain > GUARD_DEPTH && !deepest) deepest = { start: i, end: i + (c === '!' ? 1 : 3) };
      i += c === '!' ? 1 : 3;
      continue;
    } else if (c !== ' ' && c !== '\r' && c !== '\n') {
      notChain = 0;
    }
    i++;
  }
  return deepest ? { tabs, deepest } : { tabs };
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}

function skipQuoted(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text[i] === '"') return i + 1;
    else i++;
  }
  return text.length;
}

function skipRaw(text: string, start: number): number {
  let i = start + 1;
  let hashes = 0;
  while (text[i] === '#') {
    hashes++;
    i++;
  }
  if (text[i] !== '"') return i;
  const close = '"' + '#'.repeat(hashes);
  const end = text.indexOf(close, i + 1);
  return end < 0 ? text.length : end + close.length;
}
