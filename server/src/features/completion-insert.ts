/**
 * Completion items and the text they insert: literal text and tab stops, rendered as snippet
 * syntax for the host string they land in. Shared by the completion of expressions
 * (completion.ts) and of the ruleset structure (completion-structure.ts).
 */
import { CompletionItemKind, CompletionItemTag, InsertTextFormat, MarkupKind, TextEdit, type CompletionItem } from 'vscode-languageserver';

/** Literal text, or a tab stop (with a placeholder or a choice). */
export type Part = string | { readonly stop: number; readonly placeholder?: string; readonly choices?: readonly string[] };

function isSnippet(parts: readonly Part[]): boolean {
  return parts.some((p) => typeof p !== 'string');
}

function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (c) => `\\${c}`);
}

/**
 * The parts as snippet syntax (or plain text when there are no tab stops). Literal text is
 * encoded for its host string first, then escaped for the snippet syntax.
 */
export function render(parts: readonly Part[], encode: (text: string) => string): { text: string; snippet: boolean } {
  if (!isSnippet(parts)) return { text: encode(parts.join('')), snippet: false };
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return escapeSnippet(encode(part));
      if (part.choices) return `\${${part.stop}|${part.choices.map((c) => encode(c).replace(/[\\,|]/g, (x) => `\\${x}`)).join(',')}|}`;
      if (part.placeholder) return `\${${part.stop}:${escapeSnippet(encode(part.placeholder))}}`;
      return `$${part.stop}`;
    })
    .join('');
  return { text, snippet: true };
}

export interface ItemSpec {
  readonly label: string;
  readonly kind: CompletionItemKind;
  readonly parts: readonly Part[];
  readonly detail?: string;
  readonly description?: string;
  readonly documentation?: string;
  /** Words besides the label that find the item (a country's name), in decoded form. */
  readonly also?: string;
  readonly sortText?: string;
  /** Shown struck through (a deprecated field). */
  readonly deprecated?: boolean;
}

/** An item as its spec describes it, inserted by `textEdit`. */
export function itemOf(spec: Omit<ItemSpec, 'parts'>, textEdit: TextEdit, snippet: boolean): CompletionItem {
  const item: CompletionItem = { label: spec.label, kind: spec.kind, textEdit, insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText };
  if (spec.detail) item.detail = spec.detail;
  if (spec.description) item.labelDetails = { description: spec.description };
  if (spec.documentation) item.documentation = { kind: MarkupKind.Markdown, value: spec.documentation };
  if (spec.sortText) item.sortText = spec.sortText;
  if (spec.deprecated) item.tags = [CompletionItemTag.Deprecated];
  return item;
}

/** A sort key: the group first, then the place within it. */
export function sortKey(group: number, index: number): string {
  return `${group}${String(index).padStart(4, '0')}`;
}

/** The text the parts insert when every tab stop keeps its placeholder. */
export function plainText(parts: readonly Part[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : (p.placeholder ?? p.choices?.[0] ?? ''))).join('');
}
