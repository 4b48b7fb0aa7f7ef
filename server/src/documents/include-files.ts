/**
 * The files an octorules `!include` names, read from disk relative to the including file's
 * folder: the CLI and the language server read them alike. (octorules.ts decides which paths
 * may be read at all: none outside that folder.)
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { IncludeReader } from './octorules';

export function includeReader(path: string): IncludeReader {
  const folder = dirname(resolve(path));
  return (relativePath) => {
    try {
      return readFileSync(join(folder, relativePath), 'utf8');
    } catch {
      return undefined;
    }
  };
}
