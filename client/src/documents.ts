import { formatOfDocument, type HostFormat } from '../../server/src/core';

/** The languages whose documents the server is given; it decides itself which are rulesets. */
export const LANGUAGES = ['json', 'jsonc', 'yaml'] as const;

/** Saved files and new unsaved ones of those languages. */
export const DOCUMENT_SELECTOR = LANGUAGES.flatMap((language) => [
  { scheme: 'file', language },
  { scheme: 'untitled', language },
]);

/** JSON or YAML, as the language server decides it for the same document. */
export function formatOf(document: { readonly languageId: string; readonly uri: { readonly path: string } }): HostFormat | undefined {
  return formatOfDocument(document.languageId, document.uri.path);
}
