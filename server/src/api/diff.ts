/**
 * A unified diff of two texts, as `diff -u` writes it, for the deploy plan: what is live
 * against what deploying the file would make it. The edit script is the `diff` package's
 * (Myers' algorithm, as git's); only the hunk headers are written here, GNU's way.
 */
import { structuredPatch } from 'diff';

export interface DiffLabels {
  readonly from: string;
  readonly to: string;
}

const CONTEXT = 3;
/**
 * Past this many changed lines the edit script is not searched for (its cost grows with the
 * square of the changes): the diff shows every line of one side replaced by every line of the other.
 */
const MAX_EDIT_LENGTH = 20_000;

/** '' when the texts are equal; else `---`/`+++` headers and `@@` hunks with three lines of context. */
export function unifiedDiff(from: string, to: string, labels: DiffLabels): string {
  if (from === to) return '';
  const patch = structuredPatch(labels.from, labels.to, from, to, undefined, undefined, { context: CONTEXT, maxEditLength: MAX_EDIT_LENGTH });
  const hunks = patch?.hunks ?? [replacedWhole(from, to)];
  const out = [`--- ${labels.from}`, `+++ ${labels.to}`];
  for (const hunk of hunks) {
    out.push(`@@ -${hunkRange(hunk.oldStart, hunk.oldLines)} +${hunkRange(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines);
  }
  return `${out.join('\n')}\n`;
}

function hunkRange(start: number, count: number): string {
  // An empty side names the line before the hunk, as GNU diff does.
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? String(start) : `${start},${count}`;
}

function replacedWhole(from: string, to: string): { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] } {
  const split = (text: string) => (text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/));
  const a = split(from);
  const b = split(to);
  return { oldStart: 1, oldLines: a.length, newStart: 1, newLines: b.length, lines: [...a.map((line) => `-${line}`), ...b.map((line) => `+${line}`)] };
}
