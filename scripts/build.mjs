// Bundles the CLI, the language server and the VS Code extension so they run without node_modules.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

mkdirSync('dist', { recursive: true });
const require = createRequire(import.meta.url);
/**
 * web-tree-sitter (the HCL parser's runtime) as its CommonJS build: its ES module build finds
 * itself through `import.meta.url` and `await import('module')`, which a CommonJS bundle has
 * not (esbuild empties `import.meta`), and which a bundle run from a vm.Script (the compile
 * cache, server/src/launch/compile-cache.ts) cannot import.
 */
const treeSitterAsCommonJs = {
  name: 'web-tree-sitter-commonjs',
  setup(build) {
    build.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: require.resolve('web-tree-sitter') }));
  },
};
/** What every bundle shares: one file for node 20, with its source map. */
const bundle = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  // jsonc-parser's UMD build requires its modules dynamically, which a bundle cannot follow.
  mainFields: ['module', 'main'],
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
};
await build({
  ...bundle,
  entryPoints: { 'rulesets-cli': 'server/src/cli/main.ts', 'rulesets-server': 'server/src/server/main.ts' },
  minify: true,
  plugins: [treeSitterAsCommonJs],
  // `import()` becomes `require()`: a bundle run from a vm.Script has no dynamic import.
  supported: { 'dynamic-import': false },
});
// What `rulesets` and `rulesets-language-server` run: a few lines that start the bundles above
// with V8's compile cache (server/src/launch/compile-cache.ts).
await build({
  ...bundle,
  entryPoints: { cli: 'server/src/launch/cli.ts', server: 'server/src/launch/server.ts' },
  banner: { js: '#!/usr/bin/env node' },
});
// The VS Code extension: `vscode` is given by the editor at run time.
await build({
  ...bundle,
  entryPoints: { extension: 'client/src/extension.ts' },
  external: ['vscode'],
  // Smaller is faster to load when a JSON or YAML file activates the extension.
  minify: true,
});
// The grammar is read at run time from beside the bundle, and loaded from its compiled recipe
// when the recipe was made from that grammar.
copyFileSync('server/src/language/expression.ohm', 'dist/expression.ohm');
// The HCL parser of `.tf` files is WebAssembly, read at run time from beside the bundle
// (server/src/documents/hcl-parser.ts): tree-sitter's runtime and the HCL grammar.
for (const wasm of ['web-tree-sitter/tree-sitter.wasm', '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm']) {
  copyFileSync(require.resolve(wasm), `dist/${wasm.slice(wasm.lastIndexOf('/') + 1)}`);
}
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/grammar-recipe.ts', 'dist'], { stdio: 'inherit' });
chmodSync('dist/cli.js', 0o755);
chmodSync('dist/server.js', 0o755);
