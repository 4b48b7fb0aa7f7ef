/** The store behind `rulesets check --cache`: reuses findings only for what decided them. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResultCache, resultKey } from '../../server/src/cli/result-cache';

const finding = { code: 'unknown-field', severity: 'error' as const, message: 'unknown field `tcp.dstprt`', range: { start: { line: 2, character: 16 }, end: { line: 2, character: 26 } } };

function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-cache-'));
  const ruleset = join(dir, 'a.ruleset.yaml');
  writeFileSync(ruleset, 'rules: []\n');
  return { dir, ruleset, location: join(dir, '.rulesets-cache'), done: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('ResultCache', () => {
  it('gives back the findings of a file whose text, format and options are unchanged, in the next run', () => {
    const { ruleset, location, done } = folder();
    const key = resultKey('rules: []\n', 'yaml', { defaultPhase: 'magic_transit' });
    const first = ResultCache.open(location, 'tool 1');
    assert.equal(first.get(ruleset, key), undefined);
    first.set(ruleset, key, [finding]);
    assert.equal(first.save(), undefined);
    assert.deepEqual(ResultCache.open(location, 'tool 1').get(ruleset, key), [finding]);
    done();
  });

  it('keys on the text, the format and the options, so a change to any of them checks again', () => {
    const base = resultKey('rules: []\n', 'yaml', { defaultPhase: 'magic_transit' });
    assert.notEqual(resultKey('rules: [ ]\n', 'yaml', { defaultPhase: 'magic_transit' }), base);
    assert.notEqual(resultKey('rules: []\n', 'json', { defaultPhase: 'magic_transit' }), base);
    assert.notEqual(resultKey('rules: []\n', 'yaml', { defaultPhase: 'magic_transit_managed' }), base);
    assert.notEqual(resultKey('rules: []\n', 'yaml', { defaultPhase: 'magic_transit', knownLists: ['office'] }), base);
    assert.equal(resultKey('rules: []\n', 'yaml', { defaultPhase: 'magic_transit' }), base);
  });

  it('rebuilds a damaged cache nested 100,000 levels deep rather than write it out again', () => {
    const { ruleset, location, done } = folder();
    const key = resultKey('rules: []\n', 'yaml', {});
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    writeFileSync(location, `{"tool": "tool 1", "files": {${JSON.stringify(ruleset)}: {"key": "${key}", "diagnostics": ${deep}}}}`);
    const cache = ResultCache.open(location, 'tool 1');
    assert.equal(cache.get(ruleset, key), undefined);
    cache.set(ruleset, key, [finding]);
    assert.equal(cache.save(), undefined);
    assert.deepEqual(ResultCache.open(location, 'tool 1').get(ruleset, key), [finding]);
    done();
  });

  it('trusts nothing written by another build of the tool', () => {
    const { ruleset, location, done } = folder();
    const cache = ResultCache.open(location, 'tool 1');
    cache.set(ruleset, 'k', [finding]);
    cache.save();
    assert.equal(ResultCache.open(location, 'tool 2').get(ruleset, 'k'), undefined);
    done();
  });

  it('starts empty over a damaged cache file instead of failing the check', () => {
    const { ruleset, location, done } = folder();
    writeFileSync(location, '{"tool": "tool 1", "files": {');
    const cache = ResultCache.open(location, 'tool 1');
    assert.equal(cache.get(ruleset, 'k'), undefined);
    cache.set(ruleset, 'k', [finding]);
    assert.equal(cache.save(), undefined);
    assert.deepEqual(ResultCache.open(location, 'tool 1').get(ruleset, 'k'), [finding]);
    done();
  });

  it('forgets files that no longer exist when it is saved', () => {
    const { dir, ruleset, location, done } = folder();
    const gone = join(dir, 'b.ruleset.yaml');
    writeFileSync(gone, 'rules: []\n');
    const cache = ResultCache.open(location, 'tool 1');
    cache.set(ruleset, 'k', [finding]);
    cache.set(gone, 'k', [finding]);
    cache.save();
    rmSync(gone);
    ResultCache.open(location, 'tool 1').save();
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(location, 'utf8')).files), [ruleset]);
    done();
  });

  it('says why it could not write the cache, and leaves no temporary file behind', () => {
    const { dir, ruleset, done } = folder();
    const cache = ResultCache.open(join(dir, 'no-such-folder', '.rulesets-cache'), 'tool 1');
    cache.set(ruleset, 'k', [finding]);
    assert.match(cache.save() ?? '', /^could not write the cache .*no-such-folder.*\(ENOENT\); the next run checks every file again$/);
    assert.equal(existsSync(join(dir, 'no-such-folder')), false);
    done();
  });

  it('does not rewrite the file when a run only read from it', () => {
    const { ruleset, location, done } = folder();
    const cache = ResultCache.open(location, 'tool 1');
    cache.set(ruleset, 'k', [finding]);
    cache.save();
    const marked = JSON.stringify({ ...JSON.parse(readFileSync(location, 'utf8')), marker: 1 });
    writeFileSync(location, marked);
    const again = ResultCache.open(location, 'tool 1');
    assert.deepEqual(again.get(ruleset, 'k'), [finding]);
    assert.equal(again.save(), undefined);
    assert.equal(readFileSync(location, 'utf8'), marked);
    done();
  });
});
