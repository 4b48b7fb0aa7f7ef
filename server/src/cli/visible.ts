/**
 * Text of a user's file made safe to print on a terminal: a control character (C0 but TAB and
 * the line break, DEL, C1) or a bidirectional control is written as its escape (`\x1b`,
 * `\u{202e}`), so that no byte of a file can move the cursor, clear the screen, ring the bell
 * or reorder what the report shows. The report's own colours are added after, not escaped.
 */

/** The characters escaped: C0 controls but TAB (and LF, which ends a line), DEL and C1, and the bidi embeddings, overrides and isolates. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/** The escape a control character is printed as. */
function escapeOf(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/** The text with each control character written as its escape. */
export function visibleText(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, escapeOf) : text;
}

/** Whether the text has a character visibleText escapes. */
export function hasControls(text: string): boolean {
  return CONTROL.test(text);
}

/** The width `text.slice(0, i)` takes once escaped, for each `i` from 0 to its length. */
export function visibleColumns(text: string): number[] {
  const columns = [0];
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    width += CONTROL.test(text[i]) ? escapeOf(text[i]).length : 1;
    columns.push(width);
  }
  return columns;
}

/**
 * What goes to a terminal: every control character escaped as visibleText does, but the colours
 * the tool itself adds (`ESC [ … m`) and CR before LF (a CRLF file's lines, in a diff). A file's
 * own colour sequence passes as a colour, which is all it can do.
 */
const TERMINAL_UNSAFE = /\u001b(?!\[[0-9;]*m)|\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_UNSAFE, escapeOf);
}
