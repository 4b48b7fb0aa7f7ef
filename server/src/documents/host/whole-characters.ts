/** Ranges of a document on whole characters: UTF-16 offsets that never split a surrogate pair. */

/**
 * A range widened to whole characters: one that starts or ends between the two halves of a
 * surrogate pair (where a parser stopped on an emoji and took one unit) takes the whole pair,
 * which an editor can underline and a client can slice. Other ranges are returned as they are.
 */
export function onWholeCharacters<T extends { readonly start: number; readonly end: number }>(text: string, range: T): T {
  const start = splitsSurrogatePair(text, range.start) ? range.start - 1 : range.start;
  const end = splitsSurrogatePair(text, range.end) ? range.end + 1 : range.end;
  return start === range.start && end === range.end ? range : { ...range, start, end };
}

/** Whether `offset` falls between a high surrogate and the low one after it. */
export function splitsSurrogatePair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
