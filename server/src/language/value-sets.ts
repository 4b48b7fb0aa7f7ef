/**
 * Exact sets of the values one field can take, for the static analyses: sorted, disjoint,
 * inclusive integer intervals (Integer fields, IP addresses, Boolean tests), or a finite or
 * cofinite set of byte strings (String fields). Every operation is exact, so a set found empty
 * (or equal to its universe) really is.
 *
 * The hot loops are indexed, not `for…of` over intervals destructured: the iterator protocol
 * is costly in code V8 has not optimised yet, which is most of what one check runs.
 */

/**
 * One integer value: a plain number when it is a safe integer (ports, lengths, TTLs, IPv4
 * addresses, the absent markers: nearly every value), a bigint beyond (IPv6 addresses, 64-bit
 * extremes). Bigints cost an allocation per operation; numbers cost nothing. `<`, `<=`, `>`
 * and `>=` compare a number with a bigint exactly, so bounds are only ever compared that way,
 * never with `===`, and stepped by one only through `after` and `before`.
 */
export type Bound = number | bigint;

export type Interval = readonly [Bound, Bound];

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

/** `value` as a Bound: a number when that is exact. */
export function bound(value: bigint): Bound {
  // A value beyond the safe integers converts to one beyond them too (rounded): kept a bigint.
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

/** The value after `value`. */
export function after(value: Bound): Bound {
  return typeof value === 'number' && value < Number.MAX_SAFE_INTEGER ? value + 1 : BigInt(value) + 1n;
}

/** The value before `value`. */
export function before(value: Bound): Bound {
  return typeof value === 'number' && value > -Number.MAX_SAFE_INTEGER ? value - 1 : BigInt(value) - 1n;
}

/** The set of `items`, in any order, overlapping or not. */
export function intervals(items: readonly Interval[]): IntervalSet {
  if (items.length === 0) return EMPTY;
  if (items.length === 1) return items[0][0] <= items[0][1] ? { kind: 'intervals', items } : EMPTY;
  // Most lists come sorted and apart already (sets as written, the results of the operations
  // below): they are taken as they are.
  let normal = items[0][0] <= items[0][1];
  for (let i = 1; normal && i < items.length; i++) {
    const previous = items[i - 1][1];
    const lo = items[i][0];
    // After a number, `previous + 1` is exact: a safe integer plus one is at most 2^53.
    normal = lo <= items[i][1] && (typeof previous === 'number' ? previous + 1 < lo : after(previous) < lo);
  }
  if (normal) return { kind: 'intervals', items };
  const sorted = items.filter(([lo, hi]) => lo <= hi).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged: [Bound, Bound][] = [];
  for (const [lo, hi] of sorted) {
    const last = merged[merged.length - 1];
    if (last && lo <= after(last[1])) {
      if (hi > last[1]) last[1] = hi;
    } else merged.push([lo, hi]);
  }
  return merged.length === 0 ? EMPTY : { kind: 'intervals', items: merged };
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
    const x = a[i];
    const y = b[j];
    // An interval wholly inside the other is kept as it is, not copied.
    if (x[0] >= y[0] && x[1] <= y[1]) out.push(x);
    else if (y[0] >= x[0] && y[1] <= x[1]) out.push(y);
    else {
      const lo = x[0] > y[0] ? x[0] : y[0];
      const hi = x[1] < y[1] ? x[1] : y[1];
      if (lo <= hi) out.push([lo, hi]);
    }
    if (x[1] < y[1]) i++;
    else j++;
  }
  return out;
}

/** The union of two sets of intervals, each sorted and apart, merged in one pass. */
function unionIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const out: [Bound, Bound][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i][0] <= b[j][0]) ? a[i++] : b[j++];
    const last = out[out.length - 1];
    if (last && next[0] <= after(last[1])) {
      if (next[1] > last[1]) last[1] = next[1];
    } else out.push([next[0], next[1]]);
  }
  return out;
}

export function intersect(a: ValueSet, b: ValueSet): ValueSet {
  if (a.kind === 'intervals' && b.kind === 'intervals') {
    if (a.items.length === 0 || b.items.length === 0) return EMPTY;
    const items = intersectIntervals(a.items, b.items);
    return items.length === 0 ? EMPTY : { kind: 'intervals', items };
  }
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
  for (let u = 0; u < universe.items.length; u++) {
    const ulo = universe.items[u][0];
    const uhi = universe.items[u][1];
    let next = ulo;
    let within = true;
    for (let i = 0; i < a.items.length; i++) {
      const lo = a.items[i][0];
      const hi = a.items[i][1];
      if (hi < next || lo > uhi) continue;
      if (lo > next) gaps.push([next, before(lo)]);
      if (hi >= uhi) {
        within = false;
        break;
      }
      next = after(hi);
    }
    if (within) gaps.push([next, uhi]);
  }
  // The universe's own intervals may be adjacent (IPv4 and IPv6): their gaps are merged.
  return intervals(gaps);
}

export function union(a: ValueSet, b: ValueSet, universe: Universe): ValueSet {
  if (a.kind === 'intervals' && b.kind === 'intervals') {
    if (a.items.length === 0) return b;
    if (b.items.length === 0) return a;
    return { kind: 'intervals', items: unionIntervals(a.items, b.items) };
  }
  return complement(intersect(complement(a, universe), complement(b, universe)), universe);
}

export function isEmpty(a: ValueSet): boolean {
  return a.kind === 'intervals' ? a.items.length === 0 : !a.cofinite && a.values.size === 0;
}

export function isUniverse(a: ValueSet, universe: Universe): boolean {
  if (a.kind === 'strings') return a.cofinite && a.values.size === 0;
  if (universe.kind !== 'intervals') throw new Error('sets of different kinds');
  for (let i = 0; i < universe.items.length; i++) if (!covers(a.items, universe.items[i][0], universe.items[i][1])) return false;
  return true;
}

/** Whether every value of `a` is in `b`. */
export function isSubset(a: ValueSet, b: ValueSet, universe: Universe): boolean {
  // Intervals are compared in place: the analyses ask this for every pair of rules they
  // compare, and building the complement allocates a set each time.
  if (a.kind === 'intervals' && b.kind === 'intervals' && universe.kind === 'intervals') {
    // Only the part of `a` inside the universe counts, as with the complement.
    for (let i = 0; i < a.items.length; i++) {
      const lo = a.items[i][0];
      const hi = a.items[i][1];
      for (let u = 0; u < universe.items.length; u++) {
        const ulo = universe.items[u][0];
        const uhi = universe.items[u][1];
        const from = lo > ulo ? lo : ulo;
        const to = hi < uhi ? hi : uhi;
        if (from <= to && !covers(b.items, from, to)) return false;
      }
    }
    return true;
  }
  return isEmpty(intersect(a, complement(b, universe)));
}

/**
 * Whether one of `items` holds every value of `[lo, hi]`. For the items of a set (disjoint and
 * not adjacent, so a gap lies between any two) that is whether the set holds them all.
 */
export function coversInterval(items: readonly Interval[], interval: Interval): boolean {
  return covers(items, interval[0], interval[1]);
}

function covers(items: readonly Interval[], lo: Bound, hi: Bound): boolean {
  for (let i = 0; i < items.length; i++) if (items[i][0] <= lo && hi <= items[i][1]) return true;
  return false;
}

export function contains(a: ValueSet, value: Bound | string): boolean {
  if (a.kind === 'strings') return typeof value === 'string' && a.values.has(value) !== a.cofinite;
  if (typeof value === 'string') return false;
  return covers(a.items, value, value);
}
