// Bundles the CLI, the language server and the VS Code extension so they run without node_modules.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
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
// with V8's compile cache (server/src/launch/compile-cache.ts), which is named by the hash of
// the bundle's text: computed here once (as hashOf there does), not at every start.
const textHash = (file) => createHash('sha256').update(readFileSync(file, 'utf8').replace(/^#!.*/, '')).digest('hex').slice(0, 32);
await build({
  ...bundle,
  entryPoints: { cli: 'server/src/launch/cli.ts', server: 'server/src/launch/server.ts' },
  banner: { js: '#!/usr/bin/env node' },
  define: { BUNDLE_TEXT_HASHES: JSON.stringify({ 'rulesets-cli.js': textHash('dist/rulesets-cli.js'), 'rulesets-server.js': textHash('dist/rulesets-server.js') }) },
});
// The VS Code extension: `vscode` is given by the editor at run time.
await build({
  ...bundle,
  entryPoints: { extension: 'client/src/extension.ts' },
  external: ['vscode'],
  // Smaller is faster to load when a JSON or YAML file activates the extension.
  minify: true,
});
// The library (`require('rulesets-tools')`, package.json's "exports"); its source map gives the
// stack traces of those who call it their lines (`node --enable-source-maps`).
await build({ ...bundle, entryPoints: { library: 'server/src/library.ts' }, minify: true });
writeFileSync('dist/library.d.ts', libraryDeclarations('server/src/library.ts'));
// The grammar is read at run time from beside the bundle, and loaded from its compiled recipe
// when the recipe was made from that grammar.
copyFileSync('server/src/language/expression.ohm', 'dist/expression.ohm');
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/grammar-recipe.ts', 'dist'], { stdio: 'inherit' });
// The HCL parser (server/src/documents/host/hcl-parser.ts) reads its WebAssembly from beside the bundle.
copyFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm'), 'dist/tree-sitter.wasm');
copyFileSync(require.resolve('@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm'), 'dist/tree-sitter-hcl.wasm');
chmodSync('dist/cli.js', 0o755);
chmodSync('dist/server.js', 0o755);

/**
 * The library's declarations, made by TypeScript from its entry file alone (isolated
 * declarations: every exported type is written out there), which takes a fraction of a second
 * where a program's declarations take many. One that would need another file is refused: the
 * package holds only this one.
 */
function libraryDeclarations(entry) {
  const ts = require('typescript');
  const { outputText, diagnostics } = ts.transpileDeclaration(readFileSync(entry, 'utf8'), { fileName: entry, reportDiagnostics: true, compilerOptions: { declaration: true, isolatedDeclarations: true, stripInternal: true } });
  const problems = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (/^\s*(import|export)\b[^;]*\bfrom\s/m.test(outputText)) problems.push('the declarations import another file, which the package does not hold');
  if (problems.length > 0) throw new Error(`${entry}: ${problems.join('; ')}`);
  return `// rulesets-tools: the library's types, made from ${entry} by scripts/build.mjs.\n${outputText}`;
}
