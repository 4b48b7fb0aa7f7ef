/**
 * Offsets of a text as line and column: the one place they are counted, for the editor
 * (LSP positions), the CLI's `FILE:LINE:COL` and the API's messages alike.
 *
 * One rule for line ends, the LSP's (and vscode-languageserver-textdocument's): LF, CR LF and a
 * lone CR each end a line, so that a column the CLI prints is the one the editor shows.
 * Characters are UTF-16 code units. The lines of a text are found once (LineTable), then each
 * offset is a binary search over their starts.
 */
import type { DocumentProblem } from './parsed-ruleset';

export interface Position {
  readonly line: number;
  readonly character: number;
}

/** A problem with LSP positions (0-based lines, UTF-16 characters). */
export interface PositionedProblem extends Omit<DocumentProblem, 'start' | 'end' | 'fixes'> {
  readonly range: { readonly start: Position; readonly end: Position };
}

export function toPositions(text: string, problems: readonly DocumentProblem[]): PositionedProblem[] {
  const positionAt = positionsIn(text);
  return problems.map(({ start, end, code, severity, message }) => ({ code, severity, message, range: { start: positionAt(start), end: positionAt(end) } }));
}

/**
 * Offsets of `text` as LSP positions: lines end at CR LF, LF or CR, characters count UTF-16
 * code units; an offset between the CR and the LF of a pair is the end of its line.
 */
export function positionsIn(text: string): (offset: number) => Position {
  const lines = new LineTable(text);
  return (offset) => lines.positionAt(offset);
}

/** The 0-based line and UTF-16 character of an offset, as the editor counts them. */
export function lineAndCharacter(text: string, offset: number): Position {
  return lineTableOf(text).positionAt(offset);
}

/** `LINE:COL` of an offset, both 1-based, as the CLI and messages print a place (`FILE:LINE:COL`). */
export function linePosition(text: string, offset: number): string {
  const { line, character } = lineAndCharacter(text, offset);
  return `${line + 1}:${character + 1}`;
}

/** The 1-based line of an offset. */
export function lineNumber(text: string, offset: number): number {
  return lineAndCharacter(text, offset).line + 1;
}

// The texts asked about last and their lines: a report asks for many places of a few files in
// turn (a test file's cases, each with its ruleset's rule), and each would otherwise count a
// file's lines again. A few, so that two files asked about in turn keep theirs.
const RECENT_TABLES = 4;
const recentTables = new Map<string, LineTable>();

/** The LineTable of a text, made once while it is among the few texts asked about last. */
export function lineTableOf(text: string): LineTable {
  let table = recentTables.get(text);
  if (table) return table;
  table = new LineTable(text);
  if (recentTables.size >= RECENT_TABLES) recentTables.delete(recentTables.keys().next().value!);
  recentTables.set(text, table);
  return table;
}

/**
 * The lines of a text, found once: offsets to LSP positions and back, as TextDocument
 * (vscode-languageserver-textdocument) reads them, without its loop over every character.
 */
export class LineTable {
  private readonly lineStarts: number[];

  constructor(private readonly text: string) {
    this.lineStarts = lineStartsOf(text);
  }

  positionAt(offset: number): Position {
    const { text, lineStarts } = this;
    let at = Math.max(0, Math.min(offset, text.length));
    if (text.charCodeAt(at) === 10 && text.charCodeAt(at - 1) === 13) at--;
    let low = 0;
    let high = lineStarts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (lineStarts[mid] > at) high = mid;
      else low = mid + 1;
    }
    const line = low - 1;
    return { line, character: at - lineStarts[line] };
  }

  /** A line past the last is the text's end; a character past its line's end, that end (before its line break). */
  offsetAt(position: Position): number {
    const { text, lineStarts } = this;
    if (position.line >= lineStarts.length) return text.length;
    if (position.line < 0) return 0;
    const lineStart = lineStarts[position.line];
    if (position.character <= 0) return lineStart;
    const next = position.line + 1 < lineStarts.length ? lineStarts[position.line + 1] : text.length;
    let offset = Math.min(lineStart + position.character, next);
    while (offset > lineStart && isLineBreak(text.charCodeAt(offset - 1))) offset--;
    return offset;
  }
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

function lineStartsOf(text: string): number[] {
  const lineStarts = [0];
  // Most files end their lines with LF alone: found by indexOf, not read a character at a time.
  if (text.indexOf('\r') === -1) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    return lineStarts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 13 || c === 10) lineStarts.push(i + 1);
  }
  return lineStarts;
}
