import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, normalize, relative } from 'node:path';
import { checkRuleset, classifyFile, ExpressionCache, formatOfPath, parseRuleset, toPositions, type HostFormat, type PositionedProblem } from '../core';

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
 * ESLint does); folders are searched for ruleset files: `*.ruleset.{json,yaml,yml}`, or
 * any JSON/YAML file whose top level has `rules` and `phase` or `kind`.
 */
export function collectFiles(paths: readonly string[]): string[] {
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
      files.push(...searchFolder(path));
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

function searchFolder(folder: string): string[] {
  const found: string[] = [];
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    // An unreadable subfolder is an I/O problem like an unreadable file: one line, exit 2.
    throw ioError(folder, error, 'read the folder');
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith('.')) found.push(...searchFolder(path));
    } else if ((entry.isFile() || (entry.isSymbolicLink() && isFileBehindLink(path))) && isRulesetFile(path)) {
      found.push(path);
    }
  }
  return found;
}

/** A link to a file is followed; a link to a folder is not (it could loop). */
function isFileBehindLink(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false; // a dangling link
  }
}

function isRulesetFile(path: string): boolean {
  const format = formatOfPath(path);
  if (!format) return false;
  return classifyFile(path, { root: () => parseRuleset(readText(path), format).root }).role === 'ruleset';
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

export function checkFiles(files: readonly string[], options: { phase?: string }): FileResult[] {
  // One run: an expression repeated across files is checked once.
  const cache = new ExpressionCache();
  return files.map((path) => {
    const text = path === STDIN ? readStdin() : readText(path);
    const format = path === STDIN ? formatOfText(text) : formatOfPath(path)!;
    const problems = checkRuleset(text, format, { defaultPhase: options.phase, cache });
    return { path: path === STDIN ? '<stdin>' : relative(process.cwd(), path) || path, text, diagnostics: toPositions(text, problems) };
  });
}
