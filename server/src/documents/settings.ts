/**
 * The `rulesets.*` settings of an editor, as the language server and the extension both read
 * them: one reader, so that the server's diagnostics and the extension's Test a packet see the
 * same files as rulesets, the same default phase and the same lists.
 */

/** The server's settings (`rulesets.*` in the editor's configuration). */
export interface Settings {
  /** Extra glob patterns of files that are rulesets, beside `*.ruleset.{json,yaml,yml}`. */
  readonly files: readonly string[];
  /** The account's list names (without `$`); when empty, any account list name is accepted. */
  readonly knownLists: readonly string[];
  /** Phase to assume for a file that names none. */
  readonly defaultPhase?: string;
  /** Optional hints by diagnostic code (the information-level ones); all on by default. */
  readonly hints: Readonly<Record<string, boolean>>;
}

export const DEFAULT_SETTINGS: Settings = { files: [], knownLists: [], hints: {} };

/** Reads the `rulesets` configuration section, keeping defaults for anything malformed. */
export function readSettings(raw: unknown): Settings {
  const section = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  const hints = section.hints && typeof section.hints === 'object' ? (section.hints as Record<string, unknown>) : {};
  return {
    files: strings(section.files),
    knownLists: strings(section.knownLists).map((name) => name.replace(/^\$/, '')),
    defaultPhase: typeof section.defaultPhase === 'string' && section.defaultPhase !== '' ? section.defaultPhase : undefined,
    hints: Object.fromEntries(Object.entries(hints).filter(([, on]) => typeof on === 'boolean')) as Record<string, boolean>,
  };
}
