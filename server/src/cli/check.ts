import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import {
  badBytesMessage,
  checkBareExpression,
  checkDocument,
  decodeFileBytes,
  checkRuleset,
  classifyFile,
  declaresTerraformRuleset,
  diskModuleReader,
  mayUseModuleValues,
  parseDocument,
  entryPointProblems,
  ExpressionCache,
  loadTerraformParser,
  nearestConfig,
  type FolderReader,
  patternInFolder,
  PROJECT_CONFIG_FILE_NAME,
  readProjectConfig,
  RULESET_EXTENSIONS_TEXT,
  rulesetFormatOfPath,
  toPositions,
  type BareExpressionOptions,
  type DocumentProblem,
  type EntryPointSource,
  type HostFormat,
  type ListKind,
  type Plan,
  type Addon,
  type PositionedProblem,
  type ProjectConfig,
  type RuleSeverity,
  includeReader,
  providerVersionInputsOf,
} from '../core';
import { isFile, searchFolder } from './files';
import { resultKey, type ResultCache } from './result-cache';
import type { Progress } from './progress';

/** A mistake in how the command was called or a file that cannot be read: exit code 2. */
export class UsageError extends Error {}

export interface FileResult {
  readonly path: string;
  readonly text: string;
  readonly diagnostics: readonly PositionedProblem[];
}

// What the README promises: dependencies and hidden folders (`.git` among them) are skipped.
const SKIPPED_DIRECTORIES = new Set(['node_modules']);

/**
 * The files to check. A file named on the command line is checked whatever its name (as
 * ESLint does); folders are searched for ruleset files: `*.ruleset.{json,yaml,yml}`, any
 * JSON/YAML file whose top level has `rules` and `phase` or `kind`, and the files that the
 * patterns of their project configuration (its `files`, as whole-path globs: `patternsOf`)
 * match.
 */
export function collectFiles(paths: readonly string[], patternsOf: (path: string) => readonly string[] = () => []): string[] {
  const files: string[] = [];
  feederCandidates.clear();
  rulesetFolders.clear();
  for (const path of paths) {
    if (path === STDIN) {
      files.push(STDIN);
      continue;
    }
    let stats;
    try {
      stats = statSync(path);
    } catch (error) {
      throw ioError(path, error, 'access it');
    }
    if (stats.isDirectory()) {
      files.push(...searchRulesets(path, patternsOf));
    } else if (rulesetFormatOfPath(path)) {
      // Normalized like the paths the folder search yields, so `./a.yaml` and `a.yaml`, or a
      // file named beside its folder, are checked and counted once.
      files.push(normalize(path));
    } else {
      throw new UsageError(`${path}: not a ruleset file (${RULESET_EXTENSIONS_TEXT})`);
    }
  }
  return [...new Set(files)];
}

function searchRulesets(folder: string, patternsOf: (path: string) => readonly string[]): string[] {
  return searchFolder(folder, {
    enter: (name) => !SKIPPED_DIRECTORIES.has(name) && !name.startsWith('.'),
    // A link to a file is followed.
    take: (entry, path) => (entry.isFile() || (entry.isSymbolicLink() && isFile(path))) && isRulesetFile(path, patternsOf),
    // An unreadable subfolder is an I/O problem like an unreadable file: one line, exit 2.
    unreadable: (path, error) => ioError(path, error, 'read the folder'),
  });
}

function isRulesetFile(path: string, patternsOf: (path: string) => readonly string[]): boolean {
  if (!rulesetFormatOfPath(path)) return false;
  // Whole paths, as the configuration's patterns are anchored at its folder. A Terraform file
  // is classified by its text, as the editor classifies it: the parser is not loaded yet (it
  // is, once, for the .tf files found).
  // Read leniently: whether it is a ruleset is asked of a file that may not be UTF-8 (it is
  // said so when it is checked, if it is one); another file that is not is left alone.
  const text = () => readText(path, false);
  const feedsRuleset = () => {
    // Whether it may: the parser is not loaded yet. checkFiles drops it when it feeds none.
    const feeds = !declaresTerraformRuleset(text()) && mayUseModuleValues(text(), path) && folderUsesModuleValues(dirname(resolve(path)));
    if (feeds) feederCandidates.add(path);
    return feeds;
  };
  return classifyFile(resolve(path), { patterns: patternsOf(path), text, feedsRuleset }).role === 'ruleset';
}

/**
 * The Terraform files found in a folder search that declare no `cloudflare_ruleset` but may
 * feed one of their module's (a `locals.tf`, a `variables.tf`, a `.tfvars`): checked, and
 * reported, only when the module's resources use characters of theirs.
 */
const feederCandidates = new Set<string>();
const rulesetFolders = new Map<string, boolean>();

/** Whether a folder's `.tf` files declare a `cloudflare_ruleset` or call a local module (which may). */
function folderUsesModuleValues(folder: string): boolean {
  let uses = rulesetFolders.get(folder);
  if (uses === undefined) {
    const reader = diskModuleReader();
    const names = reader.listFiles(folder) ?? [];
    uses = names.some((name) => {
      if (!/\.tf$/i.test(name)) return false;
      const text = reader.readFile(join(folder, name)) ?? '';
      return declaresTerraformRuleset(text) || /^[ \t]*source[ \t]*=[ \t]*"\.\.?\//m.test(text);
    });
    rulesetFolders.set(folder, uses);
  }
  return uses;
}

/** Loads, once, what reading the files takes ahead of time: the Terraform parser, for .tf files. */
export async function prepareReaders(files: readonly string[]): Promise<void> {
  if (files.some((file) => file !== STDIN && rulesetFormatOfPath(file) === 'hcl')) await loadTerraformParser();
}

/** The path that means standard input, as in most Unix tools. */
export const STDIN = '-';

/** Standard input, as read for `-` (a byte-order mark dropped; not UTF-8 text, a file problem that says where). */
export function readStdin(): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(0);
  } catch (error) {
    throw ioError('<stdin>', error, 'read standard input');
  }
  return textOf('<stdin>', bytes, true);
}

/** JSON when the text starts as JSON must (after any whitespace), YAML otherwise: YAML reads JSON too, but with its own messages. */
function formatOfText(text: string): HostFormat {
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml';
}

/** A file's text; `strict`: a file that is not UTF-8 text (or is binary) is a file problem that says where, not a text with U+FFFD in it. */
function readText(path: string, strict = true): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw ioError(path, error, 'read the file');
  }
  return textOf(path, bytes, strict);
}

function textOf(shown: string, bytes: Uint8Array, strict: boolean): string {
  const decoded = decodeFileBytes(bytes);
  if (strict && decoded.bad) throw new UsageError(badBytesMessage(shown, decoded.bad));
  return decoded.text;
}

function ioError(path: string, error: unknown, action: string): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  // Only a path that is not there is "no such file"; EACCES and the like must say so.
  if (code === 'ENOENT' || code === 'ENOTDIR') return new UsageError(`${path}: no such file or folder`);
  return new UsageError(`${path}: cannot ${action} (${code ?? 'error'})`);
}

export interface CheckFilesOptions {
  readonly phase?: string;
  readonly knownLists?: readonly string[];
  /** What the account's lists hold, by name. */
  readonly listKinds?: Readonly<Record<string, ListKind>>;
  readonly plan?: Plan;
  readonly addons?: readonly Addon[];
  readonly severities?: Readonly<Record<string, RuleSeverity>>;
  /** `.rulesets.yaml`'s `terraform.var_files`: the `-var-file`s of a Terraform module, relative to its folder. */
  readonly terraformVarFiles?: readonly string[];
}

/** Each file is checked with its own options (`optionsOf`): the project configuration of its folder. `progress` is told of each file and expression. */
export function checkFiles(files: readonly string[], optionsOf: (path: string) => CheckFilesOptions, results?: ResultCache, progress?: Progress): FileResult[] {
  // One run: an expression repeated across files is checked once.
  const cache = new ExpressionCache();
  // A folder's `.tf` files are read once for the run, not once for each of them (their provider version).
  const modules = new Map<string, ReadonlyMap<string, string>>();
  // One reader for the run: a module's files are read once, whichever of them is checked.
  const moduleReader = diskModuleReader();
  const onExpression = progress ? (checked: number, total: number) => progress.expression(checked, total) : undefined;
  return files.flatMap((path, index): FileResult[] => {
    const options = optionsOf(path);
    // No list names means any account list is accepted, as in the editor.
    const knownLists = options.knownLists && options.knownLists.length > 0 ? options.knownLists : undefined;
    const checkOptions = { defaultPhase: options.phase, knownLists, listKinds: options.listKinds, plan: options.plan, ...(options.addons ? { addons: options.addons } : {}), severities: options.severities };
    const text = path === STDIN ? readStdin() : readText(path);
    const format = path === STDIN ? formatOfText(text) : rulesetFormatOfPath(path)!;
    const shown = path === STDIN ? '<stdin>' : relative(process.cwd(), path) || path;
    progress?.file(index, files.length, shown);
    // Standard input has no path to keep findings under.
    // A file that includes others (octorules' `!include`) is checked with theirs, which its own
    // text does not stand for: its findings are not kept.
    // A Terraform file's findings depend on its module's provider version too (its other `.tf` files, its lock file).
    const providerVersionInputs = format === 'hcl' && path !== STDIN ? providerVersionInputsOf(path, moduleReader, modules) : undefined;
    // A Terraform file that uses or feeds its module's values is checked with the module's other files, which its text does not stand for.
    const module = format === 'hcl' && path !== STDIN && mayUseModuleValues(text, path) ? { path: resolve(path), reader: moduleReader, varFiles: options.terraformVarFiles } : undefined;
    const key = results && path !== STDIN && !INCLUDE.test(text) && !module ? resultKey(text, format, providerVersionInputs ? { ...checkOptions, providerVersionInputs } : checkOptions) : undefined;
    const kept = key !== undefined ? results!.get(path, key) : undefined;
    if (kept) return [{ path: shown, text, diagnostics: kept }];
    const include = path === STDIN ? undefined : includeReader(path);
    if (module) {
      const document = parseDocument(text, format, { include, module, ...(providerVersionInputs ? { providerVersionInputs } : {}) });
      // A locals.tf or .tfvars found in a folder that feeds none of the module's rulesets is not a ruleset file.
      if (feederCandidates.has(path) && document.rulesets.length === 0) return [];
      return [{ path: shown, text, diagnostics: toPositions(text, checkDocument(document, { ...checkOptions, cache, onExpression })) }];
    }
    const diagnostics = toPositions(text, checkRuleset(text, format, { ...checkOptions, cache, include, onExpression, ...(providerVersionInputs ? { providerVersionInputs } : {}) }));
    if (key !== undefined) results!.set(path, key, diagnostics);
    return [{ path: shown, text, diagnostics }];
  });
}

const INCLUDE = /!include\b/;

/**
 * The checked files with the problems of the entry points they give rules to (entry-point.ts):
 * the files of one place of `targets:` (`targetOf` names it) whose rulesets are one phase's
 * entry point, merged as `rulesets plan` merges them, and any file alone whose rules say where
 * they go. A file neither in `targets:` nor writing `before:`/`after:` is not read again.
 */
export function withEntryPointProblems(files: readonly string[], results: readonly FileResult[], targetOf: (path: string) => string | undefined): FileResult[] {
  const byShown = new Map(results.map((r, i) => [r.path, i]));
  const sources: EntryPointSource[] = [];
  const resultOf: number[] = [];
  for (const path of files) {
    if (path === STDIN) continue;
    const shown = relative(process.cwd(), path) || path;
    const index = byShown.get(shown);
    const format = rulesetFormatOfPath(path);
    if (index === undefined || format === undefined || format === 'hcl') continue;
    const { text } = results[index];
    const target = targetOf(path);
    if (target === undefined && !ORDER_WORDS.test(text)) continue;
    sources.push({ file: shown, document: parseDocument(text, format, { include: includeReader(path) }), ...(target !== undefined ? { target } : {}) });
    resultOf.push(index);
  }
  if (sources.length === 0) return [...results];
  const out = [...results];
  entryPointProblems(sources).forEach((problems, i) => {
    if (problems.length === 0) return;
    const r = out[resultOf[i]];
    out[resultOf[i]] = { ...r, diagnostics: [...r.diagnostics, ...toPositions(r.text, problems)].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character) };
  });
  return out;
}

const ORDER_WORDS = /\b(?:before|after)\b/;

/**
 * Bare expressions, outside any file: `--expression`'s one (the whole text, line breaks and
 * all), or `--stdin`'s, one a line (blank lines skipped). Reported as one file named `path`, so
 * that a finding is at its line and column of the text and the report shows its carets as for a
 * file. `count` is the number of expressions checked.
 */
export function checkExpressionText(text: string, path: string, oneALine: boolean, options: BareExpressionOptions): FileResult & { readonly count: number } {
  if (!oneALine) return { path, text, diagnostics: toPositions(text, checkBareExpression(text, options)), count: 1 };
  const problems: DocumentProblem[] = [];
  let count = 0;
  const lineBreak = /\r\n|\r|\n/g;
  for (let start = 0; start <= text.length; ) {
    const found = lineBreak.exec(text);
    const end = found ? found.index : text.length;
    const line = text.slice(start, end);
    if (line.trim() !== '') {
      count++;
      for (const p of checkBareExpression(line, options)) problems.push({ ...p, start: p.start + start, end: p.end + start });
    }
    if (!found) break;
    start = end + found[0].length;
  }
  return { path, text, diagnostics: toPositions(text, problems), count };
}

// ---------------------------------------------------------------- the project configuration

/** A `.rulesets.yaml` as read: what is right in it, and its mistakes with their positions. */
export interface LoadedProjectConfig {
  /** As the report names it: relative to the current folder. */
  readonly path: string;
  /** Its folder, absolute: the globs of `targets:` are relative to it. */
  readonly folder: string;
  readonly text: string;
  readonly config: ProjectConfig;
  /** The configuration's patterns of more ruleset files, anchored at its folder. */
  readonly patterns: readonly string[];
  readonly problems: readonly PositionedProblem[];
}

/**
 * The project configurations of a run. A file is checked with the nearest `.rulesets.yaml`
 * (nearestConfig, as the editor finds it), looking no higher than the repository's root (the
 * folder holding `.git`). So a folder's file applies to that folder and those below it, and to
 * no other, wherever the check starts; the nearest one applies whole. `--config` names one for
 * every file, and `--no-config` uses none. Each is read once, when a file first needs it.
 */
export class ProjectConfigs {
  /** Every configuration read, by absolute path, in the order they were first needed. */
  private readonly byPath = new Map<string, LoadedProjectConfig>();
  private readonly named: LoadedProjectConfig | undefined;

  constructor(private readonly choice: { readonly named?: string; readonly none?: boolean }) {
    // Read at once: a `--config` that names no file is a usage error before anything is searched.
    this.named = choice.named !== undefined && !choice.none ? this.load(choice.named) : undefined;
  }

  /** The configuration of a file; standard input has the one of the current folder. */
  of(file: string): LoadedProjectConfig | undefined {
    if (this.choice.none) return undefined;
    if (this.named) return this.named;
    return nearestConfig(file === STDIN ? process.cwd() : dirname(resolve(file)), this.disk)?.config;
  }

  /** The configurations the files so far were given. */
  used(): LoadedProjectConfig[] {
    return [...this.byPath.values()];
  }

  /** The folders as the disk has them (for nearestConfig), each asked once however many files are below it: its own file, and whether it is the repository's root (it holds `.git`). */
  private readonly folders = new Map<string, { readonly config: LoadedProjectConfig | undefined; readonly root: boolean }>();
  private readonly disk: FolderReader<LoadedProjectConfig> = {
    configIn: (folder) => this.folder(folder).config,
    isRoot: (folder) => this.folder(folder).root,
    parentOf: (folder) => (dirname(folder) === folder ? undefined : dirname(folder)),
  };

  private folder(folder: string): { readonly config: LoadedProjectConfig | undefined; readonly root: boolean } {
    let known = this.folders.get(folder);
    if (!known) {
      const candidate = join(folder, PROJECT_CONFIG_FILE_NAME);
      known = { config: isFile(candidate) ? this.load(candidate) : undefined, root: existsSync(join(folder, '.git')) };
      this.folders.set(folder, known);
    }
    return known;
  }

  private load(path: string): LoadedProjectConfig {
    const absolute = resolve(path);
    let loaded = this.byPath.get(absolute);
    if (!loaded) {
      loaded = loadProjectConfig(path);
      this.byPath.set(absolute, loaded);
    }
    return loaded;
  }
}

export function loadProjectConfig(path: string): LoadedProjectConfig {
  const text = readText(path);
  const { config, problems } = readProjectConfig(text);
  const folder = dirname(resolve(path));
  return {
    path: relative(process.cwd(), path) || path,
    folder,
    text,
    config,
    patterns: (config.files ?? []).map((pattern) => patternInFolder(pattern, folder)),
    problems: toPositions(text, problems),
  };
}
