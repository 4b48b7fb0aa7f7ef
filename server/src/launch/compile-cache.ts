/**
 * Starts a bundle (dist/rulesets-cli.js, dist/rulesets-server.js) with a V8 code cache, as
 * Node 22's `module.enableCompileCache()` does: the first run compiles the bundle and, at exit,
 * saves the bytecode V8 made; later runs load it instead of compiling again (50 ms of the
 * 150 ms the CLI takes for one small file). The cache belongs to one bundle text, one Node and
 * one user; anything unexpected (no cache, a rejected or unreadable one, a folder that is not
 * the user's own) only means compiling as usual. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as
 * it does Node's own.
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/** Where this user's caches live: a folder only they can write to. */
export function compileCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const uid = process.getuid?.();
  const folder = env.RULESETS_COMPILE_CACHE_DIR ?? join(tmpdir(), `rulesets-compile-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = lstatSync(folder);
    // In a shared temporary folder, another user could plant bytecode for us to run.
    if (!stat.isDirectory() || (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0))) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

export interface BundleRun {
  /** The cache file for this bundle text and this Node, if there is a cache folder. */
  readonly cacheFile?: string;
  /** Whether V8 took the cached bytecode. */
  readonly cacheUsed: boolean;
}

export interface BundleOptions {
  /** Where the cache is kept: by default this user's folder (compileCacheFolder). */
  readonly folder?: string;
  /**
   * The flags the bundle started with, when it changes V8's flags as it runs: they are set
   * again before the cache is made, since V8 takes a cache only when it was made under the
   * flags of the process loading it (every run of the CLI on a small file rejected the cache
   * its previous run saved, and compiled the bundle again).
   */
  readonly startFlags?: string;
  /**
   * The hash of the bundle's text, when the build that wrote the bundle gave it to its
   * launcher (scripts/build.mjs): hashing the 1 MB text at each start, and loading node:crypto
   * to do it, cost about 7 ms.
   */
  readonly textHash?: string;
}

/** Runs the bundle as the main module, with the cache when there is a folder for it. */
export function runBundle(bundle: string, { folder = compileCacheFolder(), startFlags, textHash }: BundleOptions = {}): BundleRun {
  const source = readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
  // V8 checks a cache against the source's length only: the file name carries a hash of the text.
  const cacheFile = folder && join(folder, `${basename(bundle)}-${textHash ?? hashOf(source)}-${process.version}-${process.arch}.v8`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // not cached yet
  }
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  if (cacheFile && !cacheUsed) {
    // At exit, V8 holds the bytecode of every function the run compiled, not only the outer ones.
    process.once('exit', () => {
      try {
        if (startFlags) setFlagsFromString(startFlags);
        const partial = `${cacheFile}.${process.pid}`;
        writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        renameSync(partial, cacheFile);
      } catch {
        // a cache that cannot be written is only a slower next start
      }
    });
  }
  const main = new Module(bundle, undefined);
  main.filename = bundle;
  main.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(dirname(bundle));
  const bundleRequire = Object.assign((id: string) => main.require(id), { main, resolve: resolverOf(main), cache: {}, extensions: {} }) as unknown as NodeJS.Require;
  process.argv[1] = bundle;
  (script.runInThisContext() as (...args: unknown[]) => void).call(main.exports, main.exports, bundleRequire, main, bundle, dirname(bundle));
  main.loaded = true;
  return { cacheFile, cacheUsed };
}

declare const BUNDLE_TEXT_HASHES: Readonly<Record<string, string>> | undefined;

/** The hash of dist/NAME's text, as the build that wrote it gave it to the launchers (undefined when run from the sources). */
export function builtTextHash(name: string): string | undefined {
  return typeof BUNDLE_TEXT_HASHES === 'undefined' ? undefined : BUNDLE_TEXT_HASHES[name];
}

/** The hash a cache file is named by: the first 128 bits of the text's SHA-256, in hex. */
export function hashOf(text: string): string {
  // Loaded only when the launcher was not given the hash: most starts need nothing of it.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function resolverOf(main: Module): (id: string) => string {
  return (id) => (Module as unknown as { _resolveFilename(id: string, parent: Module): string })._resolveFilename(id, main);
}
