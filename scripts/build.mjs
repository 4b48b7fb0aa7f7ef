// Bundles the CLI, the language server and the VS Code extension so they run without node_modules.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
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
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/grammar-recipe.ts', 'dist'], { stdio: 'inherit' });
chmodSync('dist/cli.js', 0o755);
chmodSync('dist/server.js', 0o755);
