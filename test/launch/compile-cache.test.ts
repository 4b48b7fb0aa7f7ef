/**
 * The launcher's compile cache (server/src/launch/compile-cache.ts): a second start loads the
 * bytecode the first one saved; the bundle runs as the main module either way; a changed
 * bundle, a folder other users can write to, or NODE_DISABLE_COMPILE_CACHE means compiling.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileCacheFolder } from '../../server/src/launch/compile-cache';
import { PATIENT_INTERRUPT_BUDGET, V8_DEFAULT_TIERING_FLAGS } from '../../server/src/launch/tiering';

const LAUNCH = join(__dirname, '..', '..', 'server', 'src', 'launch', 'compile-cache.ts');

/** A bundle that says how it was run. */
const BUNDLE = `#!/usr/bin/env node
const out = { main: require.main === module, dirname: __dirname, argv1: process.argv[1], os: typeof require('node:os').tmpdir };
process.stdout.write(JSON.stringify(out));
module.exports = out;
`;

interface Started {
  readonly bundle: { main: boolean; dirname: string; argv1: string; os: string };
  readonly run: { cacheFile?: string; cacheUsed: boolean };
}

function start(bundle: string, env: NodeJS.ProcessEnv = {}, startFlags?: string): Started {
  const script = `const { runBundle } = require(${JSON.stringify(LAUNCH)}); const run = runBundle(${JSON.stringify(bundle)}, { startFlags: ${JSON.stringify(startFlags)} }); process.stdout.write('\\n' + JSON.stringify(run));`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.equal(result.status, 0, result.stderr);
  const [bundleLine, runLine] = result.stdout.split('\n');
  return { bundle: JSON.parse(bundleLine), run: JSON.parse(runLine) };
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-launch-'));
  const bundle = join(dir, 'bundle.js');
  writeFileSync(bundle, BUNDLE);
  return dir;
}

describe('starting a bundle with the compile cache', () => {
  it('runs the bundle as the main module, and the second start uses the bytecode the first saved', () => {
    const dir = folder();
    const env = { RULESETS_COMPILE_CACHE_DIR: join(dir, 'cache') };
    const first = start(join(dir, 'bundle.js'), env);
    assert.deepEqual(first.bundle, { main: true, dirname: dir, argv1: join(dir, 'bundle.js'), os: 'function' });
    assert.equal(first.run.cacheUsed, false);
    assert.deepEqual(readdirSync(join(dir, 'cache')).length, 1, 'the first start saved the cache at exit');
    const second = start(join(dir, 'bundle.js'), env);
    assert.equal(second.run.cacheUsed, true);
    assert.deepEqual(second.bundle, first.bundle);
  });

  it('does not give a changed bundle of the same length the old bytecode', () => {
    const dir = folder();
    const env = { RULESETS_COMPILE_CACHE_DIR: join(dir, 'cache') };
    start(join(dir, 'bundle.js'), env);
    writeFileSync(join(dir, 'bundle.js'), BUNDLE.replace('main:', 'mAin:'));
    const changed = start(join(dir, 'bundle.js'), env);
    assert.equal(changed.run.cacheUsed, false);
    assert.ok('mAin' in changed.bundle, 'the new text ran');
  });

  it('saves a cache the next start takes from a bundle that changes V8\'s flags, given the flags it started with', () => {
    const dir = folder();
    const env = { RULESETS_COMPILE_CACHE_DIR: join(dir, 'cache') };
    writeFileSync(join(dir, 'bundle.js'), `${BUNDLE}require('node:v8').setFlagsFromString('--interrupt-budget=${PATIENT_INTERRUPT_BUDGET}');\n`);
    start(join(dir, 'bundle.js'), env);
    assert.equal(start(join(dir, 'bundle.js'), env).run.cacheUsed, false, 'V8 refuses a cache made under other flags');
    start(join(dir, 'bundle.js'), env, V8_DEFAULT_TIERING_FLAGS);
    assert.equal(start(join(dir, 'bundle.js'), env, V8_DEFAULT_TIERING_FLAGS).run.cacheUsed, true);
  });

  it('knows the tiering V8 starts with', () => {
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    assert.ok(options.includes(`default: ${V8_DEFAULT_TIERING_FLAGS}\n`), `node --v8-options no longer says ${V8_DEFAULT_TIERING_FLAGS}`);
  });

  it('uses no cache where NODE_DISABLE_COMPILE_CACHE is set', () => {
    const dir = folder();
    const env = { RULESETS_COMPILE_CACHE_DIR: join(dir, 'cache'), NODE_DISABLE_COMPILE_CACHE: '1' };
    start(join(dir, 'bundle.js'), env);
    const again = start(join(dir, 'bundle.js'), env);
    assert.equal(again.run.cacheUsed, false);
    assert.equal(again.run.cacheFile, undefined);
  });

  it('refuses a cache folder other users can write to', (t) => {
    if (process.getuid === undefined) return t.skip('no user ids on this platform');
    const dir = folder();
    const shared = join(dir, 'shared');
    assert.ok(compileCacheFolder({ RULESETS_COMPILE_CACHE_DIR: shared }), 'a new folder is made the user’s own');
    chmodSync(shared, 0o777);
    assert.equal(compileCacheFolder({ RULESETS_COMPILE_CACHE_DIR: shared }), undefined);
  });
});
