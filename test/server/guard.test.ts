import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guarded } from '../../server/src/server/guard';

describe('guarded features', () => {
  it('answers empty and logs the failure with its stack when a feature throws', () => {
    const logged: string[] = [];
    const result = guarded('hover', null, () => {
      throw new TypeError('boom');
    }, (message) => logged.push(message));
    assert.equal(result, null);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /^hover failed: TypeError: boom\n\s+at /);
  });

  it('passes a result through untouched', () => {
    const logged: string[] = [];
    assert.deepEqual(guarded('completion', [], () => ['item'], (m) => logged.push(m)), ['item']);
    assert.deepEqual(logged, []);
  });
});
