/**
 * Exact sets of the values one field can take, for the static analyses: sorted, disjoint,
 * inclusive integer intervals (Integer fields, IP addresses, Boolean tests), or a finite or
 * cofinite set of byte strings (String fields). Every operation is exact, so a set found empty
 * (or equal to its universe) really is.
 */

export type Interval = readonly [bigint, bigint];

export interface IntervalSet {
  readonly kind: 'intervals';
  /** Sorted, disjoint, not adjacent, each `lo <= hi`. */
  readonly items: readonly Interval[];
}

export interface StringSet {
  readonly kind: 'strings';
  /** When true, the set is every string except `values`. */
  readonly cofinite: boolean;
  readonly values: ReadonlySet<string>;
}

export type ValueSet = IntervalSet | StringSet;

/** What a set is taken within: the values the field can hold. */
export type Universe = { readonly kind: 'intervals'; readonly items: readonly Interval[] } | { readonly kind: 'strings' };

export function intervals(items: readonly Interval[]): IntervalSet {
  if (items.length === 0) return EMPTY;
  if (items.length === 1) return items[0][0] <= items[0][1] ? { kind: 'intervals', items } : EMPTY;
  const sorted = items.filter(([lo, hi]) => lo <= hi).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged: [bigint, bigint][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged[merged.length - 1];
    if (last && lo <= last[1] + 1n) {
      if (hi > last[1]) last[1] = hi;
    } else merged.push([lo, hi]);
  }
  return { kind: 'intervals', items: merged };
}

const EMPTY: IntervalSet = { kind: 'intervals', items: [] };

export function strings(values: Iterable<string>, cofinite = false): StringSet {
  return { kind: 'strings', cofinite, values: new Set(values) };
}

export function universeSet(universe: Universe): ValueSet {
  return universe.kind === 'strings' ? strings([], true) : intervals(universe.items);
}

function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = a[i][0] > b[j][0] ? a[i][0] : b[j][0];
    const hi = a[i][1] < b[j][1] ? a[i][1] : b[j][1];
    if (lo <= hi) out.push([lo, hi]);
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return out;
}

export function intersect(a: ValueSet, b: ValueSet): ValueSet {
  if (a.kind === 'intervals' && b.kind === 'intervals') return intervals(intersectIntervals(a.items, b.items));
  if (a.kind === 'strings' && b.kind === 'strings') {
    if (!a.cofinite && !b.cofinite) return strings([...a.values].filter((v) => b.values.has(v)));
    if (a.cofinite && b.cofinite) return strings([...a.values, ...b.values], true);
    const [finite, cofinite] = a.cofinite ? [b, a] : [a, b];
    return strings([...finite.values].filter((v) => !cofinite.values.has(v)));
  }
  throw new Error('sets of different kinds');
}

export function complement(a: ValueSet, universe: Universe): ValueSet {
  if (a.kind === 'strings') return strings(a.values, !a.cofinite);
  if (universe.kind !== 'intervals') throw new Error('sets of different kinds');
  const gaps: Interval[] = [];
  for (const [ulo, uhi] of universe.items) {
    let next = ulo;
    for (const [lo, hi] of a.items) {
      if (hi < next || lo > uhi) continue;
      if (lo > next) gaps.push([next, lo - 1n]);
      next = hi + 1n;
      if (next > uhi) break;
    }
    if (next <= uhi) gaps.push([next, uhi]);
  }
  return intervals(gaps);
}

export function union(a: ValueSet, b: ValueSet, universe: Universe): ValueSet {
  if (a.kind === 'intervals' && b.kind === 'intervals') return intervals([...a.items, ...b.items]);
  return complement(intersect(complement(a, universe), complement(b, universe)), universe);
}

export function isEmpty(a: ValueSet): boolean {
  return a.kind === 'intervals' ? a.items.length === 0 : !a.cofinite && a.values.size === 0;
}

export function isUniverse(a: ValueSet, universe: Universe): boolean {
  if (a.kind === 'strings') return a.cofinite && a.values.size === 0;
  if (universe.kind !== 'intervals') throw new Error('sets of different kinds');
  return universe.items.every((u) => coversInterval(a.items, u));
}

/** Whether every value of `a` is in `b`. */
export function isSubset(a: ValueSet, b: ValueSet, universe: Universe): boolean {
  // Intervals are compared in place: the analyses ask this for every pair of rules they
  // compare, and building the complement allocates a set of bigints each time.
  if (a.kind === 'intervals' && b.kind === 'intervals' && universe.kind === 'intervals') {
    // Only the part of `a` inside the universe counts, as with the complement.
    return a.items.every(([lo, hi]) =>
      universe.items.every(([ulo, uhi]) => {
        const from = lo > ulo ? lo : ulo;
        const to = hi < uhi ? hi : uhi;
        return from > to || coversInterval(b.items, [from, to]);
      }),
    );
  }
  return isEmpty(intersect(a, complement(b, universe)));
}

/**
 * Whether one of `items` holds every value of `[lo, hi]`. For the items of a set (disjoint and
 * not adjacent, so a gap lies between any two) that is whether the set holds them all.
 */
export function coversInterval(items: readonly Interval[], [lo, hi]: Interval): boolean {
  return items.some(([l, h]) => l <= lo && hi <= h);
}

export function contains(a: ValueSet, value: bigint | string): boolean {
  if (a.kind === 'strings') return typeof value === 'string' && a.values.has(value) !== a.cofinite;
  return typeof value === 'bigint' && a.items.some(([lo, hi]) => lo <= value && value <= hi);
}
