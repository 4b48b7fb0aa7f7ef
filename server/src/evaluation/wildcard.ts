/**
 * Wildcard patterns: the `wildcard` / `strict wildcard` operators (the `wildcard` crate as
 * wirefilter configures it) and `wildcard_replace` (functions.mdx). `*` is any run of bytes, `\*`
 * and `\\` a literal star and backslash; letter case, where it is ignored, is folded for ASCII
 * letters only. Both matchers are O(pattern × value) at worst, never exponential.
 */

export const STAR = -1;

export function foldAscii(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}

/** The pattern as bytes and STARs, escapes resolved; `doubleStar` when it has an unescaped `**`. */
export function wildcardTokens(pattern: Uint8Array): { tokens: number[]; doubleStar: boolean } {
  const tokens: number[] = [];
  let doubleStar = false;
  for (let i = 0; i < pattern.length; i++) {
    const b = pattern[i];
    if (b === 0x5c && i + 1 < pattern.length) tokens.push(pattern[++i]);
    else if (b === 0x2a) {
      if (tokens[tokens.length - 1] === STAR && pattern[i - 1] === 0x2a) doubleStar = true;
      tokens.push(STAR);
    } else tokens.push(b);
  }
  return { tokens, doubleStar };
}

/**
 * Whether the whole `value` matches the pattern (the operators): greedy with a return to the
 * last `*`.
 */
export function wildcardMatches(pattern: Uint8Array, value: Uint8Array, ignoreCase: boolean): boolean {
  const { tokens } = wildcardTokens(pattern);
  const same = ignoreCase ? (a: number, b: number) => foldAscii(a) === foldAscii(b) : (a: number, b: number) => a === b;
  let p = 0;
  let v = 0;
  // After a `*` fails further on, it takes one more byte and matching resumes after it:
  // a later `*` can absorb anything an earlier one could, so only the last one matters.
  let star = -1;
  let starValue = 0;
  while (v < value.length) {
    if (p < tokens.length && tokens[p] === STAR) {
      star = p++;
      starValue = v;
    } else if (p < tokens.length && same(tokens[p], value[v])) {
      p++;
      v++;
    } else if (star >= 0) {
      p = star + 1;
      v = ++starValue;
    } else {
      return false;
    }
  }
  while (p < tokens.length && tokens[p] === STAR) p++;
  return p === tokens.length;
}

/**
 * What each star captures when the whole value matches, each as short as the rest allows; none
 * when it does not match. `rest[p][v]`, whether tokens from p match the value from v, is filled
 * from the end, so the walk forward never backtracks: O(tokens × bytes).
 */
export function lazyWildcardMatch(tokens: readonly number[], value: Uint8Array, fold: (b: number) => number): Uint8Array[] | undefined {
  const width = value.length + 1;
  const rest = new Uint8Array((tokens.length + 1) * width);
  rest[tokens.length * width + value.length] = 1;
  for (let p = tokens.length - 1; p >= 0; p--) {
    for (let v = value.length; v >= 0; v--) {
      const t = tokens[p];
      const ok = t === STAR ? rest[(p + 1) * width + v] === 1 || (v < value.length && rest[p * width + v + 1] === 1) : v < value.length && fold(value[v]) === fold(t) && rest[(p + 1) * width + v + 1] === 1;
      if (ok) rest[p * width + v] = 1;
    }
  }
  if (rest[0] !== 1) return undefined;
  const captures: Uint8Array[] = [];
  let v = 0;
  for (let p = 0; p < tokens.length; p++) {
    if (tokens[p] !== STAR) {
      v++;
      continue;
    }
    let end = v;
    while (rest[(p + 1) * width + end] !== 1) end++;
    captures.push(value.slice(v, end));
    v = end;
  }
  return captures;
}
