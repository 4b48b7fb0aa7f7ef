/**
 * The HCL parser: tree-sitter's HCL grammar (@tree-sitter-grammars/tree-sitter-hcl) run by
 * web-tree-sitter. Both are WebAssembly, so loading is asynchronous and happens once, at the
 * start of whatever reads `.tf` files; parsing after that is synchronous, as every check is.
 *
 * The `.wasm` files are read from beside the bundle (scripts/build.mjs copies them into dist/),
 * else from node_modules (running from the sources).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as TreeSitter from 'web-tree-sitter';

/**
 * web-tree-sitter, required on first load: a run that reads no `.tf` file does not pay for
 * its module (about 30 ms). By `require`, so that the bundle takes the package's CommonJS
 * build: its ES module build finds itself through `import.meta.url`, which a CommonJS bundle
 * does not have.
 */
function treeSitter(): typeof TreeSitter {
  return require('web-tree-sitter') as typeof TreeSitter;
}

export type { Node as HclNode, Tree as HclTree } from 'web-tree-sitter';

const RUNTIME_WASM = 'tree-sitter.wasm';
const GRAMMAR_WASM = 'tree-sitter-hcl.wasm';

let parser: TreeSitter.Parser | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the parser; resolves when `.tf` files can be read. Call it once at start-up and await
 * it before the first check of a `.tf` file; later calls return the same promise. A failure
 * (a missing `.wasm` file) rejects, and a later call tries again.
 */
export function loadTerraformParser(): Promise<void> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<void> {
  const { Language, Parser } = treeSitter();
  await Parser.init({ wasmBinary: readWasm(RUNTIME_WASM, 'web-tree-sitter/tree-sitter.wasm') });
  const language = await Language.load(readWasm(GRAMMAR_WASM, '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm'));
  const created = new Parser();
  created.setLanguage(language);
  parser = created;
}

/** The file beside the bundle, else the package's own. */
function readWasm(name: string, packagePath: string): Uint8Array {
  try {
    return readFileSync(join(__dirname, name));
  } catch {
    return readFileSync(require.resolve(packagePath));
  }
}

/** The loaded parser, or undefined before loadTerraformParser has resolved. */
export function hclParser(): TreeSitter.Parser | undefined {
  return parser;
}
