/**
 * The layers of docs/architecture.md, checked by dependency-cruiser with
 * `.dependency-cruiser.cjs`: the tree as it is must pass, and a tree with each kind of
 * violation planted in it must fail, naming the rule, so that the check cannot pass by
 * checking nothing.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CRUISER = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

function cruise(cwd: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [CRUISER, 'server/src', 'client/src', '--config', CONFIG, '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A tree with these files, and this project's node_modules and tsconfig. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-layers-'));
  temps.push(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'es2022', strict: true } }));
  for (const folder of ['server/src', 'client/src']) mkdirSync(join(dir, folder), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the layers', () => {
  it('hold in this tree', () => {
    const { status, output } = cruise(ROOT);
    assert.equal(status, 0, output);
    assert.match(output, /no dependency violations found/);
  });

  const planted: readonly [string, Record<string, string>, RegExp][] = [
    ['the language importing documents', { 'server/src/language/a.ts': "import { b } from '../documents/b';\nexport const a = b;\n", 'server/src/documents/b.ts': 'export const b = 1;\n' }, /error language-stands-alone: server\/src\/language\/a\.ts → server\/src\/documents\/b\.ts/],
    ['two folders importing each other', { 'server/src/documents/a.ts': "import { b } from '../evaluation/b';\nexport const a = b;\n", 'server/src/evaluation/b.ts': "import { a } from '../documents/a';\nexport const b = () => a;\n" }, /error no-cycle: /],
    ['an editor package in the core', { 'server/src/documents/a.ts': "import { TextDocument } from 'vscode-languageserver-textdocument';\nexport const a = TextDocument;\n" }, /error core-without-editors: server\/src\/documents\/a\.ts → \S*node_modules\/vscode-languageserver-textdocument/],
    ['the extension past the core entry module', { 'client/src/a.ts': "import { b } from '../../server/src/api/b';\nexport const a = b;\n", 'server/src/api/b.ts': 'export const b = 1;\n', 'server/src/core.ts': "export { b } from './api/b';\n" }, /error extension-through-the-core-entry: client\/src\/a\.ts → server\/src\/api\/b\.ts/],
    ['the CLI past the core entry module', { 'server/src/cli/a.ts': "import { b } from '../language/b';\nexport const a = b;\n", 'server/src/language/b.ts': 'export const b = 1;\n' }, /error cli-through-the-core-entry: server\/src\/cli\/a\.ts → server\/src\/language\/b\.ts/],
    ['the host-format readers importing a ruleset module', { 'server/src/documents/host/a.ts': "import { b } from '../b';\nexport const a = b;\n", 'server/src/documents/b.ts': 'export const b = 1;\n' }, /error host-formats-stand-alone: server\/src\/documents\/host\/a\.ts → server\/src\/documents\/b\.ts/],
    ['a ruleset module past the host-format entry', { 'server/src/documents/a.ts': "import { b } from './host/b';\nexport const a = b;\n", 'server/src/documents/host/b.ts': 'export const b = 1;\n', 'server/src/documents/host/index.ts': "export { b } from './b';\n" }, /error host-formats-through-their-index: server\/src\/documents\/a\.ts → server\/src\/documents\/host\/b\.ts/],
  ];
  for (const [what, files, expected] of planted) {
    it(`fail on ${what}`, () => {
      const { status, output } = cruise(tree(files));
      assert.notEqual(status, 0, output);
      assert.match(output, expected);
    });
  }
});
