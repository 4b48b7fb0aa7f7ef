import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import {
  checkRuleset,
  classifyFile,
  ExpressionCache,
  formatOfPath,
  parseRuleset,
  patternInFolder,
  PROJECT_CONFIG_FILE_NAME,
  readProjectConfig,
  toPositions,
  type HostFormat,
  type ListKind,
  type Plan,
  type PositionedProblem,
  type ProjectConfig,
  type RuleSeverity,
} from '../core';
import { isFile, searchFolder } from './files';
import { resultKey, type ResultCache } from './result-cache';

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
 * JSON/YAML file whose top level has `rules` and `phase` or `kind`, and the files `patterns`
 * (the project configuration's `files`, as whole-path globs) match.
 */
export function collectFiles(paths: readonly string[], patterns: readonly string[] = []): string[] {
  const files: string[] = [];
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
      files.push(...searchRulesets(path, patterns));
    } else if (formatOfPath(path)) {
      // Normalized like the paths the folder search yields, so `./a.yaml` and `a.yaml`, or a
      // file named beside its folder, are checked and counted once.
      files.push(normalize(path));
    } else {
      throw new UsageError(`${path}: not a JSON or YAML file (expected .json, .yaml or .yml)`);
    }
  }
  return [...new Set(files)];
}

function searchRulesets(folder: string, patterns: readonly string[]): string[] {
  return searchFolder(folder, {
    enter: (name) => !SKIPPED_DIRECTORIES.has(name) && !name.startsWith('.'),
    // A link to a file is followed.
    take: (entry, path) => (entry.isFile() || (entry.isSymbolicLink() && isFile(path))) && isRulesetFile(path, patterns),
    // An unreadable subfolder is an I/O problem like an unreadable file: one line, exit 2.
    unreadable: (path, error) => ioError(path, error, 'read the folder'),
  });
}

function isRulesetFile(path: string, patterns: readonly string[]): boolean {
  const format = formatOfPath(path);
  if (!format) return false;
  // Whole paths, as the configuration's patterns are anchored at its folder.
  return classifyFile(resolve(path), { patterns, root: () => parseRuleset(readText(path), format).root }).role === 'ruleset';
}

/** The path that means standard input, as in most Unix tools. */
export const STDIN = '-';

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw ioError('<stdin>', error, 'read standard input');
  }
}

/** JSON when the text starts as JSON must (after any whitespace), YAML otherwise: YAML reads JSON too, but with its own messages. */
function formatOfText(text: string): HostFormat {
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml';
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw ioError(path, error, 'read the file');
  }
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
  readonly severities?: Readonly<Record<string, RuleSeverity>>;
}

export function checkFiles(files: readonly string[], options: CheckFilesOptions, results?: ResultCache): FileResult[] {
  // One run: an expression repeated across files is checked once.
  const cache = new ExpressionCache();
  // No list names means any account list is accepted, as in the editor.
  const knownLists = options.knownLists && options.knownLists.length > 0 ? options.knownLists : undefined;
  const checkOptions = { defaultPhase: options.phase, knownLists, listKinds: options.listKinds, plan: options.plan, severities: options.severities };
  return files.map((path) => {
    const text = path === STDIN ? readStdin() : readText(path);
    const format = path === STDIN ? formatOfText(text) : formatOfPath(path)!;
    const shown = path === STDIN ? '<stdin>' : relative(process.cwd(), path) || path;
    // Standard input has no path to keep findings under.
    const key = results && path !== STDIN ? resultKey(text, format, checkOptions) : undefined;
    const kept = key !== undefined ? results!.get(path, key) : undefined;
    if (kept) return { path: shown, text, diagnostics: kept };
    const diagnostics = toPositions(text, checkRuleset(text, format, { ...checkOptions, cache }));
    if (key !== undefined) results!.set(path, key, diagnostics);
    return { path: shown, text, diagnostics };
  });
}

// ---------------------------------------------------------------- the project configuration

/** A `.rulesets.yaml` as read: what is right in it, and its mistakes with their positions. */
export interface LoadedProjectConfig {
  /** As the report names it: relative to the current folder. */
  readonly path: string;
  readonly text: string;
  readonly config: ProjectConfig;
  /** The configuration's patterns of more ruleset files, anchored at its folder. */
  readonly patterns: readonly string[];
  readonly problems: readonly PositionedProblem[];
}

/**
 * The `.rulesets.yaml` that applies in `folder`: there, or in the nearest parent that has one,
 * looking no higher than the repository's root (the folder holding `.git`), as ESLint and
 * Prettier look for theirs.
 */
export function findProjectConfig(folder: string): string | undefined {
  let current = resolve(folder);
  for (;;) {
    const candidate = join(current, PROJECT_CONFIG_FILE_NAME);
    if (isFile(candidate)) return candidate;
    const parent = dirname(current);
    if (parent === current || existsSync(join(current, '.git'))) return undefined;
    current = parent;
  }
}

export function loadProjectConfig(path: string): LoadedProjectConfig {
  const text = readText(path);
  const { config, problems } = readProjectConfig(text);
  const folder = dirname(resolve(path));
  return {
    path: relative(process.cwd(), path) || path,
    text,
    config,
    patterns: (config.files ?? []).map((pattern) => patternInFolder(pattern, folder)),
    problems: toPositions(text, problems),
  };
}
