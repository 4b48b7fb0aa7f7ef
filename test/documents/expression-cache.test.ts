import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ExpressionCache } from '../../server/src/documents/expression-cache';

const OPTIONS = { phase: 'magic_transit' };

/** A different expression for each `i`, of about `members` × 12 characters. */
function large(i: number, members = 40): string {
  const addresses = Array.from({ length: members }, (_, k) => `10.${k % 256}.${i % 256}.${(i >> 8) % 256}`);
  return `ip.src in {${addresses.join(' ')}} and tcp.dstport == ${i}`;
}

function small(i: number): string {
  return `tcp.dstport == ${i}`;
}

/** Whether the cache still has the text's result: checking it again answers the very same object. */
function kept(cache: ExpressionCache, text: string, result: object): boolean {
  return cache.check(text, OPTIONS) === result;
}

describe('ExpressionCache: bounded by bytes', () => {
  it('stays within its budget however many large expressions pass through it', () => {
    const budget = 2 ** 20;
    const cache = new ExpressionCache(budget);
    for (let i = 0; i < 1_000; i++) {
      cache.check(large(i), OPTIONS);
      assert.ok(cache.bytes <= budget, `${cache.bytes} bytes after ${i + 1} expressions`);
    }
    assert.ok(cache.size > 0 && cache.size < 1_000, `${cache.size} results kept`);
    assert.ok(cache.bytes > budget / 2, 'the budget is used, not emptied at once');
  });

  it('keeps fewer large results than small ones in the same budget', () => {
    const fill = (make: (i: number) => string) => {
      const cache = new ExpressionCache(2 ** 20);
      for (let i = 0; i < 2_000; i++) cache.check(make(i), OPTIONS);
      return cache.size;
    };
    const smallOnes = fill(small);
    const largeOnes = fill(large);
    assert.ok(largeOnes * 5 < smallOnes, `${largeOnes} large results, ${smallOnes} small ones`);
  });

  it('drops the least recently used results first', () => {
    const cache = new ExpressionCache(2 ** 20);
    const first = cache.check(large(0), OPTIONS);
    const second = cache.check(large(1), OPTIONS);
    // Many more than fit; the first is used all along, the second never again.
    for (let i = 2; i < 500; i++) {
      cache.check(large(i), OPTIONS);
      cache.check(large(0), OPTIONS);
    }
    const newest = cache.check(large(499), OPTIONS);
    assert.ok(kept(cache, large(0), first), 'the expression in use is kept');
    assert.ok(kept(cache, large(499), newest), 'the newest is kept');
    assert.ok(!kept(cache, large(1), second), 'the one not used since is checked again');
  });

  it('keeps exactly the most recently used results that fit, however uses and drops interleave', () => {
    // Texts of one length, so that the budget holds exactly ten results.
    const text = (i: number) => `tcp.dstport == ${1000 + i}`;
    const measure = new ExpressionCache();
    measure.check(text(0), OPTIONS);
    const cache = new ExpressionCache(10 * measure.bytes);
    const results = new Map<string, object>();
    let recent: string[] = [];
    let seed = 7;
    for (let step = 0; step < 2_000; step++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const t = text(seed % 40);
      const result = cache.check(t, OPTIONS);
      if (recent.includes(t)) assert.equal(result, results.get(t), `step ${step}: ${t} was kept`);
      results.set(t, result);
      recent = [...recent.filter((r) => r !== t), t].slice(-10);
    }
    assert.equal(cache.size, 10);
    for (const t of recent) assert.ok(kept(cache, t, results.get(t)!), `${t} is among the ten most recently used`);
  });

  it('keeps what an open document holds whatever the budget, until it is released', () => {
    const cache = new ExpressionCache(2 ** 20);
    const texts = Array.from({ length: 300 }, (_, i) => large(i));
    // More than the budget on its own: a large document is not checked afresh at each keystroke.
    cache.hold('file:///open.ruleset.json', texts);
    const results = texts.map((text) => cache.check(text, OPTIONS));
    for (let i = 300; i < 1_000; i++) cache.check(large(i), OPTIONS);
    assert.ok(texts.every((text, i) => kept(cache, text, results[i])), 'every held result is kept');

    // Holding the next version's texts lets go of the ones it no longer has.
    cache.hold('file:///open.ruleset.json', texts.slice(1));
    cache.release('file:///open.ruleset.json');
    for (let i = 1_000; i < 1_500; i++) cache.check(large(i), OPTIONS);
    assert.ok(!kept(cache, texts[0], results[0]), 'released results are dropped like any other');
    assert.ok(cache.bytes <= 2 ** 20);
  });

  it('keeps a text two documents hold until both let go of it', () => {
    const cache = new ExpressionCache(2 ** 20);
    const text = large(0);
    cache.hold('file:///a.ruleset.json', [text]);
    cache.hold('file:///b.ruleset.json', [text]);
    const result = cache.check(text, OPTIONS);
    cache.release('file:///a.ruleset.json');
    for (let i = 1; i < 500; i++) cache.check(large(i), OPTIONS);
    assert.ok(kept(cache, text, result), 'b still holds it');
    cache.release('file:///b.ruleset.json');
    for (let i = 500; i < 1_000; i++) cache.check(large(i), OPTIONS);
    assert.ok(!kept(cache, text, result));
  });

  it('a result is the same for a text cut from a document as for the text itself', () => {
    const cache = new ExpressionCache();
    const document = `{"expression": "${large(7)}"}`;
    const cut = document.slice('{"expression": "'.length, -2);
    const result = cache.check(cut, OPTIONS);
    assert.equal(cache.check(large(7), OPTIONS), result);
    assert.equal(cache.normalize(cut, result), cache.normalize(large(7), result));
    assert.deepEqual(result.problems, []);
  });
});

describe('ExpressionCache: results by the options they were checked with', () => {
  it('a list kind given, changed or taken away is another result', () => {
    const cache = new ExpressionCache();
    const text = 'http.host in $office';
    const phase = 'http_request_firewall_custom';
    const codes = (listKinds?: Record<string, 'ip' | 'hostname'>) => cache.check(text, { phase, ...(listKinds ? { listKinds } : {}) }).problems.map((p) => p.code);
    assert.deepEqual(codes(), []);
    assert.deepEqual(codes({ office: 'ip' }), ['list-not-allowed']);
    assert.deepEqual(codes({ office: 'hostname' }), []);
    assert.deepEqual(codes({ office: 'ip' }), ['list-not-allowed']);
    assert.deepEqual(codes(), []);
  });
});

describe('ExpressionCache: filters and value expressions', () => {
  it('keeps one result per kind of a text, each the check of its kind', () => {
    const cache = new ExpressionCache();
    const options = { phase: 'http_request_transform' };
    const filter = cache.check('http.request.uri.path', options);
    const value = cache.checkValue('http.request.uri.path', { ...options, expect: ['Bytes'] });
    assert.notEqual(filter, value);
    assert.ok(filter.problems.some((p) => p.severity === 'error'), 'a lone string field is no filter');
    assert.deepEqual(value.problems, [], 'but a fine value');
    assert.equal(cache.check('http.request.uri.path', options), filter);
    assert.equal(cache.checkValue('http.request.uri.path', { ...options, expect: ['Bytes'] }), value);
    // Another expected type is another check: an integer place refuses the string.
    const integer = cache.checkValue('http.request.uri.path', { ...options, expect: ['Integer'] });
    assert.ok(integer.problems.some((p) => p.severity === 'error'));
    assert.equal(cache.size, 3);
  });
});
