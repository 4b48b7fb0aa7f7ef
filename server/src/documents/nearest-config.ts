/**
 * Which `.rulesets.yaml` a file is checked with, one rule for `rulesets check` and the editor:
 * the nearest one, in the file's folder or else in the closest parent that has one, looking no
 * higher than a root (the repository's, the folder holding `.git`, for the CLI; the workspace
 * folder in the editor), as Prettier and ESLint look for theirs. The nearest applies whole:
 * nothing is merged from one further up. Pure: the caller says how to read a folder's file and
 * where the root is, from the disk (the CLI) or from what the editor has read so far (the server).
 */

/** How the folders above a file are read: by path for the CLI, by URI for the server. */
export interface FolderReader<T> {
  /** The configuration of the folder's own `.rulesets.yaml`; undefined when it has none. */
  readonly configIn: (folder: string) => T | undefined;
  /** Whether the folder is the root: no file above it applies. */
  readonly isRoot: (folder: string) => boolean;
  /** The folder above, or undefined at the top of the file system. */
  readonly parentOf: (folder: string) => string | undefined;
}

/** A configuration found, and the folder of its file (its patterns are anchored there). */
export interface NearestConfig<T> {
  readonly folder: string;
  readonly config: T;
}

/** The configuration that applies in `folder` (a file's folder): the nearest one up to the root; undefined when there is none. */
export function nearestConfig<T>(folder: string, reader: FolderReader<T>): NearestConfig<T> | undefined {
  for (let current: string | undefined = folder; current !== undefined; current = reader.parentOf(current)) {
    const config = reader.configIn(current);
    if (config !== undefined) return { folder: current, config };
    if (reader.isRoot(current)) return undefined;
  }
  return undefined;
}

/** The folder above a folder's URI (`file:///work/repo` → `file:///work`), or undefined at the top (`file://`). */
export function parentOfFolderUri(folder: string): string | undefined {
  const slash = folder.lastIndexOf('/');
  const scheme = folder.indexOf('://');
  return slash > (scheme < 0 ? 0 : scheme + 2) ? folder.slice(0, slash) : undefined;
}
