/**
 * The in-place tests of value-sets.ts agree with their definitions: `isUniverse` is "the
 * complement is empty" and `isSubset` is "nothing of a is outside b", over random interval sets
 * and universes of one or two (possibly adjacent) intervals.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { complement, intersect, intervals, isEmpty, isSubset, isUniverse, type Interval, type Universe } from '../../server/src/language/value-sets';

const bound = fc.bigInt({ min: -5n, max: 40n });
const interval = fc.tuple(bound, bound).map(([a, b]): Interval => (a <= b ? [a, b] : [b, a]));
const set = fc.array(interval, { maxLength: 5 }).map(intervals);
const universe = fc.oneof(
  interval.map((i): Universe => ({ kind: 'intervals', items: [i] })),
  fc.tuple(bound, bound, fc.bigInt({ min: 1n, max: 10n })).map(([a, b, gap]): Universe => {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    // Two intervals, adjacent (gap 1) or apart, as the IPv4 and IPv6 halves of the IP universe.
    return { kind: 'intervals', items: [[lo, hi], [hi + gap, hi + gap + 7n]] };
  }),
);

describe('value sets', () => {
  it('isUniverse is "the complement is empty"', () => {
    fc.assert(fc.property(set, universe, (a, u) => assert.equal(isUniverse(a, u), isEmpty(complement(a, u)))), { numRuns: 5_000 });
  });
  it('isSubset is "nothing of a, within the universe, is outside b"', () => {
    fc.assert(fc.property(set, set, universe, (a, b, u) => assert.equal(isSubset(a, b, u), isEmpty(intersect(a, complement(b, u))))), { numRuns: 5_000 });
  });
});
