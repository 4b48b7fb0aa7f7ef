/**
 * What a run of the extension-host suite (suite/) needs, wherever VS Code comes from: the
 * built extension, the suite bundled for the extension host, and a scratch workspace.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

export const ROOT = join(__dirname, '..', '..');

/** Builds dist/ (the extension and its server) and the suite; returns the suite's entry file. */
export function buildSuite(): string {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  const outfile = join(ROOT, '.cache', 'vscode-suite', 'index.js');
  buildSync({
    entryPoints: [join(ROOT, 'test', 'vscode', 'suite', 'index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Given by the editor, and found in the repo's node_modules from .cache/.
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return outfile;
}

/** A fresh folder with the examples and one JSON file that is not a ruleset. */
export function scratchWorkspace(): string {
  const folder = mkdtempSync(join(tmpdir(), 'rulesets-vscode-'));
  cpSync(join(ROOT, 'examples'), folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), '{\n  "name": "not-a-ruleset",\n  "version": "1.0.0"\n}\n');
  return folder;
}
