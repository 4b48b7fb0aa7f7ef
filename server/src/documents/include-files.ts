/**
 * The files an octorules `!include` names, read from disk relative to the including file's
 * folder: the CLI and the language server read them alike. (octorules.ts decides which paths
 * may be read at all: none outside that folder.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { IncludeReader } from './octorules';
import type { TerraformModuleReader } from './terraform-module';

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

/**
 * A Terraform module's files read from disk: the CLI's reader, and the language server's under
 * its open documents. A file's text is read once a reader.
 */
export function diskModuleReader(): TerraformModuleReader {
  const texts = new Map<string, string | undefined>();
  return {
    listFiles: (folder) => {
      try {
        return readdirSync(folder, { withFileTypes: true })
          .filter((entry) => entry.isFile() || entry.isSymbolicLink())
          .map((entry) => entry.name);
      } catch {
        return undefined;
      }
    },
    readFile: (path) => {
      if (!texts.has(path)) {
        let text: string | undefined;
        try {
          text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
        } catch {
          text = undefined;
        }
        texts.set(path, text);
      }
      return texts.get(path);
    },
  };
}
