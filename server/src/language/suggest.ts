/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j] + 1, d[i * cols + j - 1] + 1, d[(i - 1) * cols + j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * cols + j - 2] + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1];
}

/**
 * The candidates close enough to `word` to be what was meant, closest first. The allowed
 * distance grows with the word's length, as in rust-analyzer's and TypeScript's suggestions,
 * so short words do not attract unrelated names.
 */
export function closestMatches(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = word.toLowerCase();
  const maxDistance = Math.max(1, Math.floor(word.length / 3));
  const scored: { name: string; distance: number }[] = [];
  for (const name of candidates) {
    const candidate = name.toLowerCase();
    // The distance is at least the difference in length: most candidates need no table.
    if (Math.abs(candidate.length - lower.length) > maxDistance) continue;
    const distance = candidate === lower ? 0 : editDistance(lower, candidate);
    if (distance <= maxDistance) scored.push({ name, distance });
  }
  scored.sort((x, y) => x.distance - y.distance || x.name.localeCompare(y.name));
  return scored.slice(0, limit).map((s) => s.name);
}

/** "`a`", "`a` or `b`", "`a`, `b` or `c`". */
export function quoteAlternatives(names: readonly string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}
