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

/**
 * The map of a value that is its source as it is (a JSON string without escapes, most
 * expressions): unit `i` comes from the one character at `contentStart + i`. Mapped by
 * arithmetic; the arrays are made only when something reads them (an editor feature), as two
 * typed arrays of a long expression each take memory outside the heap that is slow to get.
 */
export class VerbatimDecodedString implements DecodedString {
  readonly contentEnd: number;
  #starts: Int32Array | undefined = undefined;
  #ends: Int32Array | undefined = undefined;

  constructor(
    readonly value: string,
    readonly contentStart: number,
  ) {
    this.contentEnd = contentStart + value.length;
  }

  get starts(): Int32Array {
    return (this.#starts ??= sequence(this.contentStart, this.value.length));
  }

  get ends(): Int32Array {
    return (this.#ends ??= sequence(this.contentStart + 1, this.value.length));
  }
}

/** `length` numbers counting up from `first`. */
function sequence(first: number, length: number): Int32Array {
  const numbers = new Int32Array(length);
  for (let i = 0; i < length; i++) numbers[i] = first + i;
  return numbers;
}

/** Maps a half-open range of the decoded value to a half-open range of the document. */
export function mapRange(decoded: DecodedString, start: number, end: number): { start: number; end: number } {
  const length = decoded.value.length;
  const from = Math.max(0, Math.min(start, length));
  const to = Math.max(from, Math.min(end, length));
  if (decoded instanceof VerbatimDecodedString) return { start: decoded.contentStart + from, end: decoded.contentStart + to };
  const docStart = from < length ? decoded.starts[from] : decoded.contentEnd;
  const docEnd = to > from ? decoded.ends[to - 1] : docStart;
  return { start: docStart, end: Math.max(docStart, docEnd) };
}

/** Maps a document offset back to an offset in the decoded value (for a cursor in an editor). */
export function unmapOffset(decoded: DecodedString, docOffset: number): number {
  if (decoded instanceof VerbatimDecodedString) return Math.max(0, Math.min(decoded.value.length, docOffset - decoded.contentStart));
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
      starts: new Int32Array(this.starts),
      ends: new Int32Array(this.ends),
      contentStart: this.contentStart,
      contentEnd,
    };
  }
}
