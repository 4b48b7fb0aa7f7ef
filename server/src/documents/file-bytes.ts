/**
 * A file's bytes as text, for every reader of files from disk (the CLI, the language server's
 * Check Workspace): a ruleset file is UTF-8 text, as the API's JSON is. Node's `'utf8'` reading
 * puts U+FFFD in place of bytes that are not UTF-8, and a file checked or deployed that way is
 * not the file on disk; so the first such byte (or a NUL byte, which no text format has: a
 * binary file) is found, and the reader says where it is instead of reading on.
 */
import type { DocumentProblem } from './parsed-ruleset';

/** The first byte that makes a file no UTF-8 text. */
export interface BadBytes {
  /** Its offset in the file, 0-based, counting a byte order mark. */
  readonly offset: number;
  /** The bytes of the sequence that is not UTF-8 (at most 4), or the NUL byte. */
  readonly bytes: readonly number[];
  /** A NUL byte: the file is binary. */
  readonly nul: boolean;
  /** The file has a NUL byte (this one or a later one): a binary file, not text in another encoding. */
  readonly binary: boolean;
  /** Its line and column (1-based; the column in characters of the line before it). */
  readonly line: number;
  readonly column: number;
  /** Its offset in `text` (the lenient decoding below): where an editor shows it. */
  readonly textOffset: number;
}

export interface DecodedFile {
  /** The text, a byte order mark taken off; bytes that are not UTF-8 are U+FFFD in it. */
  readonly text: string;
  /** The file began with a byte order mark. */
  readonly bom: boolean;
  /** The first byte that is not UTF-8 text, when there is one. */
  readonly bad?: BadBytes;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** Decodes a file's bytes as UTF-8, saying where the first byte that is not is (or the first NUL). */
export function decodeFileBytes(bytes: Uint8Array): DecodedFile {
  let raw: string;
  let badAt = -1;
  try {
    // The native decoder first: most files are UTF-8, and it is fast.
    raw = strict.decode(bytes);
  } catch {
    badAt = firstInvalidUtf8(bytes);
    raw = lenient.decode(bytes);
  }
  const nulAt = raw.indexOf('\0');
  const bom = raw.startsWith('\uFEFF');
  const text = bom ? raw.slice(1) : raw;
  if (badAt < 0 && nulAt < 0) return { text, bom };
  // A NUL before the first bad byte is said first: both mean "not text", the earlier is nearer.
  const nulByte = nulAt < 0 ? -1 : new TextEncoder().encode(raw.slice(0, nulAt)).length;
  const nul = nulByte >= 0 && (badAt < 0 || nulByte < badAt);
  const offset = nul ? nulByte : badAt;
  const before = lenient.decode(bytes.subarray(bom ? 3 : 0, offset));
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  const line = countLines(before);
  return { text, bom, bad: { offset, bytes: nul ? [0] : sequenceAt(bytes, offset), nul, binary: nulAt >= 0, line, column: before.length - lineStart + 1, textOffset: before.length } };
}

/** `file.yaml: byte 1234 (line 5, column 3) is not UTF-8 (0xE9); save the file as UTF-8`, the path first. */
export function badBytesMessage(path: string, bad: BadBytes): string {
  return `${path}: ${badBytesText(bad)}`;
}

/** What is wrong, without the path: for a diagnostic on the file itself. */
export function badBytesText(bad: BadBytes): string {
  const where = `byte ${bad.offset} (line ${bad.line}, column ${bad.column})`;
  const binary = 'this is a binary file, not text; a ruleset file is text saved as UTF-8';
  if (bad.nul) return `${where} is a NUL byte (0x00): ${binary}`;
  const hex = bad.bytes.map((b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`).join(' ');
  if (bad.binary) return `${where} is not UTF-8 (${hex}) and the file has NUL bytes: ${binary}`;
  return `${where} is not UTF-8 (${hex}); save the file as UTF-8 (the API reads rulesets as UTF-8, and a byte that is not would be sent as U+FFFD)`;
}

/**
 * The one finding of a ruleset file that is not UTF-8 text, on its first such byte: an editor
 * shows the file (with U+FFFD there), but what it would check or send is not the file.
 */
export function badBytesProblem(bad: BadBytes): DocumentProblem {
  return { code: 'not-utf8', severity: 'error', message: badBytesText(bad), start: bad.textOffset, end: bad.textOffset + 1 };
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) lines++;
  }
  return lines;
}

/**
 * The offset of the first byte that does not start a well-formed UTF-8 sequence (or starts one
 * cut short): overlong forms, surrogates and code points past U+10FFFF included, as the
 * Encoding Standard's decoder refuses them. One pass over the bytes.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      else if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      else if (b === 0xf4) high = 0x8f;
    } else return i;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** The bytes shown of a bad sequence: its first byte and the continuation bytes that follow it, at most 4. */
function sequenceAt(bytes: Uint8Array, offset: number): number[] {
  const shown = [bytes[offset]];
  for (let k = offset + 1; k < bytes.length && shown.length < 4 && bytes[k] >= 0x80 && bytes[k] <= 0xbf; k++) shown.push(bytes[k]);
  return shown;
}
