/**
 * The files an octorules `!include` names, read from disk relative to the including file's
 * folder: the CLI and the language server read them alike. (octorules.ts decides which paths
 * may be read at all: none outside that folder.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { badBytesText, decodeFileBytes } from './file-bytes';
import type { IncludeReader } from './octorules';
import type { ModuleVersionInputs } from './provider-version';
import type { TerraformModuleReader } from './terraform-module';

export function includeReader(path: string): IncludeReader {
  const folder = dirname(resolve(path));
  return (relativePath) => {
    try {
      // A file that is not UTF-8 text cannot be read: its rules would be checked (and sent)
      // with U+FFFD in place of its bytes.
      const decoded = decodeFileBytes(readFileSync(join(folder, relativePath)));
      return decoded.bad ? { unreadable: badBytesText(decoded.bad) } : decoded.text;
    } catch {
      return undefined;
    }
  };
}

/** A module's `.tf` file larger than this is not read for its `required_providers` (they sit in small files). */
const MAX_MODULE_FILE = 1024 * 1024;
/** At most this many other `.tf` files of a folder are read. */
const MAX_MODULE_FILES = 200;

/**
 * The module of a `.tf` file: the other `.tf` files of its folder (which may hold
 * `required_providers`) and `.terraform.lock.hcl`, as the provider's version is decided from them,
 * read through the run's module reader (the files the evaluator reads too, read once).
 */
export function providerVersionInputsOf(path: string, reader: TerraformModuleReader, folders?: Map<string, ReadonlyMap<string, string>>): ModuleVersionInputs {
  const folder = dirname(resolve(path));
  const own = basename(path);
  let files = folders?.get(folder);
  if (!files) {
    files = tfFilesOf(folder, reader);
    folders?.set(folder, files);
  }
  const tfFiles = [...files].filter(([name]) => name !== own).map(([, text]) => text);
  const lockFile = reader.readFile(join(folder, '.terraform.lock.hcl'));
  return lockFile !== undefined ? { tfFiles, lockFile } : { tfFiles };
}

/** The `.tf` files of a folder that could hold `required_providers`, by name. */
function tfFilesOf(folder: string, reader: TerraformModuleReader): Map<string, string> {
  const files = new Map<string, string>();
  const names = (reader.listFiles(folder) ?? []).filter((name) => name.endsWith('.tf')).sort().slice(0, MAX_MODULE_FILES);
  for (const name of names) {
    const file = join(folder, name);
    if (fileSize(file) > MAX_MODULE_FILE) continue;
    const text = reader.readFile(file);
    if (text !== undefined && /\brequired_providers\b/.test(text)) files.set(name, text);
  }
  return files;
}

/** A file's size in bytes; 0 when it cannot be read (the reader then says it has no text). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
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
          const decoded = decodeFileBytes(readFileSync(path));
          // Not UTF-8 text: as a file that is not there (its values are then unknown, not U+FFFD).
          text = decoded.bad ? undefined : decoded.text;
        } catch {
          text = undefined;
        }
        texts.set(path, text);
      }
      return texts.get(path);
    },
  };
}
