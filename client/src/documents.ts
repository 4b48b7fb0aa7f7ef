/** The languages whose documents the server is given; it decides itself which are rulesets. */
export const LANGUAGES = ['json', 'jsonc', 'yaml'] as const;

/** Saved files and new unsaved ones of those languages. */
export const DOCUMENT_SELECTOR = LANGUAGES.flatMap((language) => [
  { scheme: 'file', language },
  { scheme: 'untitled', language },
]);
