import { InsertTextFormat, type CompletionItem, type CompletionList, type Range, type TextEdit } from 'vscode-languageserver/node';

/** The item defaults (LSP 3.17 `completionList.itemDefaults`) a client reads that answers use. */
export interface ItemDefaultsSupport {
  readonly editRange: boolean;
  readonly insertTextFormat: boolean;
}

export function itemDefaultsSupport(names: readonly string[] | undefined): ItemDefaultsSupport {
  return { editRange: names?.includes('editRange') === true, insertTextFormat: names?.includes('insertTextFormat') === true };
}

/**
 * The answer with what most of its items share said once, in `itemDefaults`, for a client that
 * reads them: a field list is a few hundred items that replace the same range, and the range
 * (with the format) was most of each item's bytes, which the editor reads on every keystroke.
 * An item of the common range gives its text as `textEditText`, or nothing when the text is its
 * label; an item of another range keeps its own `textEdit`, which takes precedence. Read back
 * as the protocol says, the answer is the one given.
 */
export function withItemDefaults(list: CompletionList | null, support: ItemDefaultsSupport): CompletionList | null {
  if (!list || list.items.length < 2 || list.itemDefaults) return list;
  // An item without a textEdit would take the default range with its label as text: the range
  // is said once only where every item names its own.
  const editRange = support.editRange && list.items.every((item) => item.textEdit !== undefined && 'range' in item.textEdit) ? mostCommon(list.items, (item) => (item.textEdit as TextEdit).range, rangeKey) : undefined;
  const insertTextFormat = support.insertTextFormat ? mostCommon(list.items, formatOf, String) : undefined;
  if (editRange === undefined && insertTextFormat === undefined) return list;
  const defaultKey = rangeKey(editRange);
  const items = list.items.map((item) => {
    const shared = editRange !== undefined && rangeKey((item.textEdit as TextEdit).range) === defaultKey;
    if (!shared && insertTextFormat === undefined) return item;
    const { textEdit, insertTextFormat: format, ...rest } = item as CompletionItem & { textEdit?: TextEdit };
    const result: CompletionItem = rest;
    if (!shared) {
      if (textEdit) result.textEdit = textEdit;
    } else if (textEdit!.newText !== item.label) result.textEditText = textEdit!.newText;
    // Omitted, an item's format is plain text, or the default where there is one: given where it differs.
    if (insertTextFormat === undefined) {
      if (format !== undefined) result.insertTextFormat = format;
    } else if (formatOf(item) !== insertTextFormat) result.insertTextFormat = formatOf(item);
    return result;
  });
  return {
    ...list,
    itemDefaults: { ...(editRange ? { editRange } : {}), ...(insertTextFormat !== undefined ? { insertTextFormat } : {}) },
    items,
  };
}

function formatOf(item: CompletionItem): InsertTextFormat {
  return item.insertTextFormat ?? InsertTextFormat.PlainText;
}

function rangeKey(range: Range | undefined): string {
  return range ? `${range.start.line}:${range.start.character}:${range.end.line}:${range.end.character}` : '';
}

/** The value most items have, when at least two share it. */
function mostCommon<T>(items: readonly CompletionItem[], valueOf: (item: CompletionItem) => T, keyOf: (value: T) => string): T | undefined {
  const counts = new Map<string, { value: T; count: number }>();
  let best: { value: T; count: number } | undefined;
  for (const item of items) {
    const value = valueOf(item);
    const key = keyOf(value);
    let entry = counts.get(key);
    if (!entry) counts.set(key, (entry = { value, count: 0 }));
    entry.count++;
    if (!best || entry.count > best.count) best = entry;
  }
  return best && best.count >= 2 ? best.value : undefined;
}
