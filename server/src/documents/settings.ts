/**
 * The `rulesets.*` settings of an editor, as the language server and the extension both read
 * them: one reader, so that the server's diagnostics and the extension's Test a packet see the
 * same files as rulesets, the same default phase and the same lists.
 */
import { escape, minimatch, type Minimatch } from 'minimatch';
import { isListKind, type ListKind } from '../language/catalogue/lists';
import { isPlan, type Addon, type Plan } from '../language/catalogue/plans';
import type { ProjectConfig, RuleSeverity, TargetConfig } from './project-config';

/** The server's settings (`rulesets.*` in the editor's configuration). */
export interface Settings {
  /** Extra glob patterns of files that are rulesets, beside `*.ruleset.{json,yaml,yml}`. */
  readonly files: readonly string[];
  /** The account's list names (without `$`); when empty, any account list name is accepted. */
  readonly knownLists: readonly string[];
  /** What the account's lists hold, by name, where the settings say (`knownLists` as a mapping of names to kinds). */
  readonly listKinds?: Readonly<Record<string, ListKind>>;
  /** Phase to assume for a file that names none. */
  readonly defaultPhase?: string;
  /** The account's plan: what needs a higher one is reported. Undefined: no plan is assumed. */
  readonly plan?: Plan;
  /** From `.rulesets.yaml` (`addons`): the account's paid add-ons; undefined: not said (no editor setting sets them). */
  readonly addons?: readonly Addon[];
  /** Optional hints by diagnostic code (the information-level ones); all on by default. */
  readonly hints: Readonly<Record<string, boolean>>;
  /** Severities by diagnostic code, from the project's `.rulesets.yaml` (no editor setting sets them). */
  readonly rules?: Readonly<Record<string, RuleSeverity>>;
  /** `rulesets.terraform.enable`: false leaves Terraform files to other tools; absent means on. */
  readonly terraform?: { readonly enable: boolean };
  /** From `.rulesets.yaml` (`terraform: {var_files}`): the `.tfvars` files a module's values come from, relative to its folder. */
  readonly terraformVarFiles?: readonly string[];
}

export const DEFAULT_SETTINGS: Settings = { files: [], knownLists: [], hints: {} };

/** Reads the `rulesets` configuration section, keeping defaults for anything malformed. */
export function readSettings(raw: unknown): Settings {
  const section = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  const hints = section.hints && typeof section.hints === 'object' ? (section.hints as Record<string, unknown>) : {};
  const lists = readLists(section.knownLists);
  return {
    files: strings(section.files),
    knownLists: lists.names,
    ...(lists.kinds ? { listKinds: lists.kinds } : {}),
    defaultPhase: typeof section.defaultPhase === 'string' && section.defaultPhase !== '' ? section.defaultPhase : undefined,
    plan: typeof section.plan === 'string' && isPlan(section.plan) ? section.plan : undefined,
    hints: Object.fromEntries(Object.entries(hints).filter(([, on]) => typeof on === 'boolean')) as Record<string, boolean>,
    // Only an explicit false turns Terraform files off: a malformed value keeps the default.
    ...(terraformEnabled(section.terraform) ? {} : { terraform: { enable: false } }),
  };
}

/** `rulesets.terraform`, as VS Code nests the dotted setting: `{ enable: false }` turns it off. */
function terraformEnabled(value: unknown): boolean {
  return !(value && typeof value === 'object' && (value as { enable?: unknown }).enable === false);
}

/**
 * The settings of a file in the folder of a `.rulesets.yaml`: each key the file sets wins over
 * the editor's setting, as ESLint's and Prettier's files win over the editor's defaults. The
 * file is in the repository, shared by everyone who checks it and by `rulesets check` in CI;
 * a personal setting that overrode it would show one person findings that CI does not.
 */
export function withProjectConfig(settings: Settings, config: ProjectConfig, folder: string, file?: string): Settings {
  // The plan of the zone a file goes to is the one its checks need: a target's wins for its files.
  const target = file !== undefined ? targetOfFile(config, folder, file) : undefined;
  const plan = target?.plan ?? config.plan;
  const addons = target?.addons ?? config.addons;
  return {
    ...settings,
    ...(config.phase !== undefined ? { defaultPhase: config.phase } : {}),
    ...(plan !== undefined ? { plan } : {}),
    ...(addons !== undefined ? { addons } : {}),
    // The file's lists replace the settings', kinds and all.
    ...(config.lists !== undefined ? { knownLists: config.lists, listKinds: config.listKinds } : {}),
    ...(config.files !== undefined ? { files: config.files.map((pattern) => patternInFolder(pattern, folder)) } : {}),
    ...(config.rules !== undefined ? { rules: config.rules } : {}),
    ...(config.terraformVarFiles !== undefined ? { terraformVarFiles: config.terraformVarFiles } : {}),
  };
}

/**
 * `rulesets.knownLists`: an array of names, or a mapping of names to kinds (`{"office": "ip"}`;
 * a name whose value is no kind is known, of a kind not said).
 */
function readLists(value: unknown): { names: string[]; kinds?: Record<string, ListKind> } {
  const bare = (name: string) => name.replace(/^\$/, '');
  if (Array.isArray(value)) return { names: value.filter((v): v is string => typeof v === 'string').map(bare) };
  if (!value || typeof value !== 'object') return { names: [] };
  const names: string[] = [];
  const kinds: Record<string, ListKind> = {};
  for (const [name, kind] of Object.entries(value as Record<string, unknown>)) {
    names.push(bare(name));
    if (typeof kind === 'string' && isListKind(kind)) kinds[bare(name)] = kind;
  }
  return Object.keys(kinds).length > 0 ? { names, kinds } : { names };
}

/**
 * A pattern of `.rulesets.yaml` as the ruleset patterns are matched, against whole paths: one
 * with a `/` is relative to the file's folder (as in `.gitignore` and ESLint), one without
 * matches the file name in any folder, as `rulesets.files` does.
 */
/**
 * A glob of `targets:` as a matcher of absolute paths: relative to the folder of
 * `.rulesets.yaml` (a bare name too: `waf.yaml` is the one beside it, none below).
 */
export function targetGlob(pattern: string, folder: string): (path: string) => boolean {
  const glob: Minimatch = new minimatch.Minimatch(`${escape(folder.replace(/\\/g, '/').replace(/\/+$/, ''))}/${pattern.replace(/\\/g, '/').replace(/^\.?\//, '')}`, { dot: true });
  // The glob's one regular expression, tried on the whole path: `match` splits the path again
  // for every try, and a repository's files are tried against every target. A negated glob
  // (`!…`) has no such expression of its own: `match` says.
  const re = glob.makeRe();
  return re && !glob.negate ? (path) => re.test(path.replace(/\\/g, '/')) : (path) => glob.match(path.replace(/\\/g, '/'));
}

/** Each configuration's targets' matchers, made once per configuration read (and folder). */
const targetMatchers = new WeakMap<ProjectConfig, { folder: string; matchers: (readonly ((path: string) => boolean)[])[] }>();

/** The first item of `targets:` whose `files` match a file (an absolute path), if any. */
export function targetOfFile(config: ProjectConfig, folder: string, file: string): TargetConfig | undefined {
  const targets = config.targets;
  if (!targets || targets.length === 0) return undefined;
  let known = targetMatchers.get(config);
  if (!known || known.folder !== folder) {
    known = { folder, matchers: targets.map((t) => t.files.map((pattern) => targetGlob(pattern, folder))) };
    targetMatchers.set(config, known);
  }
  const path = file.replace(/\\/g, '/');
  const index = known.matchers.findIndex((globs) => globs.some((matches) => matches(path)));
  return index === -1 ? undefined : targets[index];
}

export function patternInFolder(pattern: string, folder: string): string {
  if (!pattern.includes('/')) return pattern;
  return `${escape(folder.replace(/\\/g, '/').replace(/\/+$/, ''))}/${pattern.replace(/^\.?\//, '')}`;
}
