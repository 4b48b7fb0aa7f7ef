/**
 * Answers of the file system that the CLI's modules share, without user-facing errors: each
 * caller says in its own words what a failure means for it.
 */
import { readdirSync, renameSync, rmSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Whether `path` is a file, or a link to one (a dangling link is not). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface FolderSearch {
  /** Whether to search the subfolder of this name. */
  readonly enter: (name: string) => boolean;
  /** Whether the entry (a file, a link, …) at `path` is one of the files searched for. */
  readonly take: (entry: Dirent, path: string) => boolean;
  /** What to throw when a folder cannot be read. */
  readonly unreadable: (folder: string, error: unknown) => Error;
}

/**
 * The files below `folder` that `search.take`s, depth first, each folder's entries in the
 * order of their names. Links to folders are not followed (they could loop).
 */
export function searchFolder(folder: string, search: FolderSearch): string[] {
  const entriesOf = (path: string): Dirent[] => {
    try {
      return readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch (error) {
      throw search.unreadable(path, error);
    }
  };
  const found: string[] = [];
  // The folders being searched, each with its next entry: a loop rather than a call per level,
  // since folders nest as deep as a path goes (a call per level ran out of stack at 2,000).
  const open = [{ folder, entries: entriesOf(folder), next: 0 }];
  while (open.length > 0) {
    const current = open[open.length - 1];
    if (current.next === current.entries.length) {
      open.pop();
      continue;
    }
    const entry = current.entries[current.next++];
    const path = join(current.folder, entry.name);
    if (entry.isDirectory()) {
      if (search.enter(entry.name)) open.push({ folder: path, entries: entriesOf(path), next: 0 });
    } else if (search.take(entry, path)) {
      found.push(path);
    }
  }
  return found;
}

/**
 * Writes `text` to `path` through a temporary file beside it and a rename, so that no reader
 * (and no run that is killed) ever leaves half of it; the file keeps its mode. On failure the
 * temporary file is removed and the error thrown.
 */
export function replaceFile(path: string, text: string): void {
  // node:crypto on first use: a check writes no file.
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  try {
    writeFileSync(temp, text, mode !== undefined ? { mode } : {});
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
