/**
 * A decoded string (the value of a JSON or YAML scalar) together with where each of its
 * UTF-16 code units came from in the host document. Escapes (`\"`, `\u00e9`), YAML quoting
 * (`''`) and folding (a line break read as a space, indentation dropped) make the decoded
 * text and the source differ, so every diagnostic inside an expression goes through this map.
 */
export interface DecodedString {
  /** The value, as the host format's parser reads it. */
  readonly value: string;
  /**
   * For each code unit `i` of `value`: the document offset where its source starts
   * (`starts[i]`) and ends (`ends[i]`, exclusive). `\u00e9` maps one unit to six source
   * characters; a folded line break maps one space to the line break it replaces.
   */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Document offset just after the last content character (before a closing quote). */
  readonly contentEnd: number;
  /** Document offset of the first content character (after an opening quote). */
  readonly contentStart: number;
}

/**
 * A map that sends every unit to the whole source range [start, end): coarse, but never
 * wrong, for a value whose source could not be followed character by character.
 */
export function coarseDecodedString(value: string, start: number, end: number): DecodedString {
  return {
    value,
    starts: new Int32Array(value.length).fill(start),
    ends: new Int32Array(value.length).fill(end),
    contentStart: start,
    contentEnd: end,
  };
}

/** Maps a half-open range of the decoded value to a half-open range of the document. */
export function mapRange(decoded: DecodedString, start: number, end: number): { start: number; end: number } {
  const length = decoded.value.length;
  const from = Math.max(0, Math.min(start, length));
  const to = Math.max(from, Math.min(end, length));
  const docStart = from < length ? decoded.starts[from] : decoded.contentEnd;
  const docEnd = to > from ? decoded.ends[to - 1] : docStart;
  return { start: docStart, end: Math.max(docStart, docEnd) };
}

/** Maps a document offset back to an offset in the decoded value (for a cursor in an editor). */
export function unmapOffset(decoded: DecodedString, docOffset: number): number {
  const { starts, ends } = decoded;
  // Binary search: the first unit whose source ends after the offset.
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid] <= docOffset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Builds a DecodedString as decoders append units one by one. */
export class DecodedStringBuilder {
  private readonly units: string[] = [];
  private starts: number[] = [];
  private ends: number[] = [];

  constructor(private readonly contentStart: number) {}

  /** Appends `text` (one or more code units) whose source is document range [start, end). */
  push(text: string, start: number, end: number): void {
    for (let i = 0; i < text.length; i++) {
      this.units.push(text[i]);
      this.starts.push(start);
      this.ends.push(end);
    }
  }

  /** Removes trailing units (YAML chomping, trailing-space trimming). */
  truncate(length: number): void {
    this.units.length = length;
    this.starts.length = length;
    this.ends.length = length;
  }

  get length(): number {
    return this.units.length;
  }

  lastUnit(): string | undefined {
    return this.units[this.units.length - 1];
  }

  finish(contentEnd: number): DecodedString {
    return {
      value: this.units.join(''),
      starts: Int32Array.from(this.starts),
      ends: Int32Array.from(this.ends),
      contentStart: this.contentStart,
      contentEnd,
    };
  }
}
