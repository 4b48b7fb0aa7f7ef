/**
 * Answers of the file system that the CLI's modules share, without user-facing errors: each
 * caller says in its own words what a failure means for it.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Whether `path` is a file, or a link to one (a dangling link is not). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Writes `text` to `path` through a temporary file beside it and a rename, so that no reader
 * (and no run that is killed) ever leaves half of it; the file keeps its mode. On failure the
 * temporary file is removed and the error thrown.
 */
export function replaceFile(path: string, text: string): void {
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
