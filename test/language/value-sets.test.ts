/**
 * The in-place tests of value-sets.ts agree with their definitions: `isUniverse` is "the
 * complement is empty" and `isSubset` is "nothing of a is outside b", over random interval sets
 * and universes of one or two (possibly adjacent) intervals. Bounds written as numbers, as
 * bigints or mixed (safe integers are numbers, others bigints) give the same sets.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bound, complement, intersect, intervals, isEmpty, isSubset, isUniverse, union, type Interval, type IntervalSet, type Universe, type ValueSet } from '../../server/src/language/value-sets';

const value = fc.bigInt({ min: -5n, max: 40n });
const interval = fc.tuple(value, value).map(([a, b]): Interval => (a <= b ? [a, b] : [b, a]));
const set = fc.array(interval, { maxLength: 5 }).map(intervals);
const universe = fc.oneof(
  interval.map((i): Universe => ({ kind: 'intervals', items: [i] })),
  fc.tuple(value, value, fc.bigInt({ min: 1n, max: 10n })).map(([a, b, gap]): Universe => {
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
  it('answer the same for bounds as numbers as for bounds as bigints, across the safe integers’ edge', () => {
    // Shifted so that sets straddle 2^53, where numbers stop and bigints take over.
    const shift = (1n << 53n) - 20n;
    const shifted = (items: readonly Interval[]): Interval[] => items.map(([lo, hi]) => [BigInt(lo) + shift, BigInt(hi) + shift]);
    const asBounds = (items: readonly Interval[]): Interval[] => items.map(([lo, hi]) => [bound(BigInt(lo)), bound(BigInt(hi))]);
    const exact = (s: ValueSet) => (s as IntervalSet).items.map(([lo, hi]) => [BigInt(lo), BigInt(hi)]);
    fc.assert(
      fc.property(set, set, universe, (a, b, u) => {
        const [big, bigU] = [[shifted(a.items), shifted(b.items)], shifted((u as { items: readonly Interval[] }).items)];
        const [small, smallU] = [big.map(asBounds), asBounds(bigU)];
        const [ba, bb, sa, sb] = [intervals(big[0]), intervals(big[1]), intervals(small[0]), intervals(small[1])];
        const [bu, su]: Universe[] = [{ kind: 'intervals', items: bigU }, { kind: 'intervals', items: smallU }];
        assert.deepEqual(exact(intersect(sa, sb)), exact(intersect(ba, bb)));
        assert.deepEqual(exact(union(sa, sb, su)), exact(union(ba, bb, bu)));
        assert.deepEqual(exact(complement(sa, su)), exact(complement(ba, bu)));
        assert.equal(isSubset(sa, sb, su), isSubset(ba, bb, bu));
        assert.equal(isUniverse(sa, su), isUniverse(ba, bu));
      }),
      { numRuns: 2_000 },
    );
  });
});
