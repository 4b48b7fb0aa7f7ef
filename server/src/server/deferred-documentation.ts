import type { CompletionItem, CompletionList } from 'vscode-languageserver/node';

/** What a deferred item carries back in `completionItem/resolve`: which answer, which item. */
interface DeferredData {
  readonly list: number;
  readonly index: number;
}

function isDeferredData(data: unknown): data is DeferredData {
  return typeof data === 'object' && data !== null && typeof (data as DeferredData).list === 'number' && typeof (data as DeferredData).index === 'number';
}

/**
 * Completion documentation sent on demand, to clients that say they ask for it
 * (`completionItem.resolveSupport` with `documentation`): in an HTTP phase a field list is a few
 * hundred items, and their documentation is most of an answer the editor reads on every
 * keystroke, while it shows one item's at a time. Only the latest answer's documentation is
 * kept; an item of an older answer resolves as it is.
 */
export class DeferredDocumentation {
  private list = 0;
  private documentation: CompletionItem['documentation'][] = [];

  /** The answer without its documentation, which is kept for resolve. */
  defer(result: CompletionList | null): CompletionList | null {
    this.list++;
    this.documentation = [];
    if (!result) return result;
    const items = result.items.map((item, index) => {
      if (item.documentation === undefined) return item;
      const { documentation, ...rest } = item;
      this.documentation[index] = documentation;
      const data: DeferredData = { list: this.list, index };
      return { ...rest, data };
    });
    return { ...result, items };
  }

  /** The item with its documentation, when it is of the latest answer. */
  resolve(item: CompletionItem): CompletionItem {
    const data: unknown = item.data;
    if (!isDeferredData(data) || data.list !== this.list) return item;
    const documentation = this.documentation[data.index];
    return documentation === undefined ? item : { ...item, documentation };
  }
}
