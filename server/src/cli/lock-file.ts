/**
 * The lock file on disk: `.rulesets/lock.json` beside `.rulesets.yaml` (the folder of apply's
 * audit log; the current folder without a configuration). `apply` rewrites it after each write
 * that lands, through a temporary file and a rename; `plan` reads it to tell drift.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { emptyLock, lockFileText, lockKey, readLockFile, withLockEntry, type Destination, type LockEntry, type LockFile, type Scope } from '../core';
import { ProjectConfigs, STDIN, UsageError } from './check';
import { readTextFile } from './io';
import { replaceFile } from './files';

/** Where the lock file of the current folder's configuration is. */
export function lockPath(): string {
  const loaded = new ProjectConfigs({}).of(STDIN);
  return resolve(loaded?.folder ?? process.cwd(), '.rulesets', 'lock.json');
}

/** The lock file, or undefined when there is none (nothing applied from here yet); a broken one is a usage error naming it. */
export function loadLock(path: string): LockFile | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return readLockFile(readTextFile(path).text, path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Records each ruleset's entry in the lock file, rewriting it whole each time (so an apply stopped part-way keeps what landed). */
export function lockRecorder(path: string): (scope: Scope, destination: Destination, entry: LockEntry) => void {
  let lock = loadLock(path) ?? emptyLock();
  let made = false;
  return (scope, destination, entry) => {
    if (JSON.stringify(lock.rulesets[lockKey(scope, destination)]) === JSON.stringify(entry)) return;
    lock = withLockEntry(lock, lockKey(scope, destination), entry);
    if (!made) {
      mkdirSync(dirname(path), { recursive: true });
      made = true;
    }
    replaceFile(path, lockFileText(lock));
  };
}
