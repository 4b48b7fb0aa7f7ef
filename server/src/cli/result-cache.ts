/**
 * `rulesets check --cache`: each file's findings kept between runs, as ESLint's `--cache`
 * keeps them, so a CI job or a pre-commit hook re-checks only the files that changed.
 *
 * An entry is reused only when everything that decides the findings is the same: the file's
 * text and format, the check's options (phase, lists, severities) and the tool itself (its
 * version and the size and time of the code that runs). Anything else, or a cache file that
 * cannot be read, means checking afresh: the cache can make a run faster, never different.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { nestsDeeperThan, type PositionedProblem } from '../core';
import { version } from '../version';
import { replaceFile } from './files';

/** Where the cache lives unless `--cache-location` says otherwise (ESLint's is `.eslintcache`). */
export const DEFAULT_CACHE_LOCATION = '.rulesets-cache';

interface CacheFile {
  readonly tool: string;
  readonly files: Record<string, { readonly key: string; readonly diagnostics: readonly PositionedProblem[] }>;
}

export class ResultCache {
  private readonly files: CacheFile['files'];
  private changed = false;

  private constructor(
    readonly location: string,
    private readonly tool: string,
    files: CacheFile['files'],
  ) {
    this.files = files;
  }

  /** The cache at `location`, or an empty one when it is missing, unreadable or from another build. */
  static open(location: string, tool: string = toolIdentity()): ResultCache {
    let files: CacheFile['files'] = {};
    try {
      const stored = JSON.parse(readFileSync(location, 'utf8')) as Partial<CacheFile>;
      // Nested deeper than findings are is damage too, and would run out of stack when the
      // report or the next save writes it out again.
      if (stored.tool === tool && stored.files && typeof stored.files === 'object' && !nestsDeeperThan(stored)) files = stored.files;
    } catch {
      // No cache yet, or one that a crash or a person damaged: it is rebuilt.
    }
    return new ResultCache(location, tool, files);
  }

  /** The findings stored for `path` under `key`, if that is what was stored. */
  get(path: string, key: string): readonly PositionedProblem[] | undefined {
    const entry = Object.hasOwn(this.files, resolve(path)) ? this.files[resolve(path)] : undefined;
    return entry?.key === key && Array.isArray(entry.diagnostics) ? entry.diagnostics : undefined;
  }

  set(path: string, key: string, diagnostics: readonly PositionedProblem[]): void {
    this.files[resolve(path)] = { key, diagnostics };
    this.changed = true;
  }

  /**
   * Writes the cache when it changed, dropping the entries of files that are gone. Written
   * with replaceFile, so a run that is killed never leaves half a cache.
   * Returns why it could not be written, for one line on stderr; the check stands anyway.
   */
  save(): string | undefined {
    for (const path of Object.keys(this.files)) {
      if (!existsSync(path)) {
        delete this.files[path];
        this.changed = true;
      }
    }
    if (!this.changed) return undefined;
    try {
      replaceFile(this.location, JSON.stringify({ tool: this.tool, files: this.files } satisfies CacheFile));
      this.changed = false;
      return undefined;
    } catch (error) {
      return `could not write the cache ${this.location} (${(error as NodeJS.ErrnoException).code ?? 'error'}); the next run checks every file again`;
    }
  }
}

/** What the findings of one file depend on, as one digest. */
export function resultKey(text: string, format: string, options: unknown): string {
  // node:crypto on first use (with --cache only): loading it is ~7 ms of every start.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(format).update('\0').update(JSON.stringify(options) ?? '').update('\0').update(text).digest('base64url');
}

/**
 * The running tool: its version, and the size and time of the code that runs (the bundle, or
 * this module from source), so that a rebuilt tool of the same version does not trust the
 * findings of the old one.
 */
function toolIdentity(): string {
  try {
    const script = statSync(__filename);
    return `${version}:${script.size}:${Math.round(script.mtimeMs)}`;
  } catch {
    return version;
  }
}
