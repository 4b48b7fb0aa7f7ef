import { detached } from './host/index';
import { checkExpression, checkValueExpression, type CheckOptions, type CheckResult, type ValueCheckOptions, type ValueCheckResult } from '../language/checker';
import { printExpression } from '../language/format';
import { hasError } from '../language/problem';

/**
 * What one checked result keeps on the heap, estimated from its text's length: its tree,
 * problems and fixes, its canonical form, the analyses' forms of its tree, and the cache's
 * own entry. Measured by checking 3,000 different expressions of one shape, as rules of
 * ruleset documents (so that every analysis ran), into one cache: the heap used after a full
 * collection, less the heap used before, over the results kept: from 4.0 kB for a
 * 19-character comparison, through 43 kB for 600 characters of `not (…)` comparisons (the
 * most per character), to 68 kB for a 200-address set of 2,500 characters. These figures are
 * above every shape measured, by 7% (comparisons) to 2.5 times (large sets): bench/memory.ts
 * measures them again.
 */
const BYTES_PER_RESULT = 4_000;
const BYTES_PER_CHARACTER = 68;

/**
 * The default budget: some 4,000 results of expressions of 60 to 80 characters. V8 lets
 * garbage grow to a few times the live heap between full collections, and the server's RSS
 * with it: at this budget it stays near 200 MB over a long session (bench/memory.ts); at
 * twice it, above 300 MB at times.
 */
export const DEFAULT_CACHE_BYTES = 32 * 2 ** 20;

interface Result {
  /** The kind of expression and the check options, as a key. */
  readonly options: string;
  readonly result: CheckResult | ValueCheckResult;
  normalized?: string;
  /** The text without whitespace (squeezed), once asked for. */
  squeezed?: string;
  /** The text's result under other options, if any: a list, not an array, for the one result nearly every text has. */
  next?: Result;
}

/** One expression text's results: one per set of check options, nearly always one. */
interface Entry {
  /** The text, in memory of its own (see host.ts's detached). */
  readonly text: string;
  /** The most recently added first; none when a document holds the text before it is checked. */
  results?: Result;
  /** Estimated heap bytes of the results. */
  bytes: number;
  /** How many times the holds of open documents name the text. */
  holders: number;
}

/**
 * Results of checking expression texts, shared by every document: an expression that did
 * not change is not parsed again (re-checking a file after one edit costs one expression).
 *
 * Bounded by an estimate of the bytes it keeps: the results of the texts open documents hold
 * (`hold`), whatever their size, since each keystroke in a document checks every one of them
 * again; and of the others, the most recently used up to `budget` bytes.
 */
export class ExpressionCache {
  /** Texts some open document holds. */
  private readonly held = new Map<string, Entry>();
  /** The other texts, least recently used first. */
  private readonly recent = new Map<string, Entry>();
  private readonly holdings = new Map<string, readonly Entry[]>();
  private recentBytes = 0;
  private heldBytes = 0;
  private results = 0;

  constructor(readonly budget = DEFAULT_CACHE_BYTES) {}

  /** The result of checking `text` as a filter (a rule's `expression`, a `counting_expression`). */
  check(text: string, options: CheckOptions): CheckResult {
    return this.cached(text, keyOf(options, 'filter'), options, checkExpression);
  }

  /** The result of checking `text` as a value expression (a rewrite, a redirect target, a header value) of the types `options.expect` names. */
  checkValue(text: string, options: ValueCheckOptions): ValueCheckResult {
    return this.cached(text, keyOf(options, 'value'), options, checkValueExpression);
  }

  /** `key` names the kind of check and its options: one text may be checked as a filter and as a value, under different options. */
  private cached<O, R extends CheckResult | ValueCheckResult>(text: string, key: string, options: O, compute: (own: string, options: O) => R): R {
    const entry = this.find(text);
    // The key names the kind of check: a result kept under it is of the kind `compute` makes.
    for (let kept = entry?.results; kept; kept = kept.next) if (kept.options === key) return kept.result as R;
    const own = entry?.text ?? detached(text);
    const result = compute(own, options);
    const bytes = BYTES_PER_RESULT + BYTES_PER_CHARACTER * own.length;
    this.results++;
    if (!entry) {
      this.recent.set(own, { text: own, results: { options: key, result }, bytes, holders: 0 });
      this.recentBytes += bytes;
      if (this.recentBytes > this.budget) this.evict();
      return result;
    }
    entry.results = { options: key, result, next: entry.results };
    entry.bytes += bytes;
    if (entry.holders > 0) this.heldBytes += bytes;
    else {
      this.recentBytes += bytes;
      if (this.recentBytes > this.budget) this.evict();
    }
    return result;
  }

  /**
   * The expression in canonical spacing (whitespace inside strings kept), or as written when
   * it does not parse: what two rules are compared by. `checked` is what check returned; kept
   * with it while the cache keeps it.
   */
  normalize(text: string, checked: CheckResult): string {
    const entry = this.entryOf(text);
    const kept = resultIn(entry, checked);
    if (kept?.normalized !== undefined) return kept.normalized;
    const source = entry?.text ?? text;
    // Printed from the tree the check already built: parsing again would double the cost
    // of opening a file. Errors may have dropped text from the tree (a comma in a set).
    const clean = checked.ast && !hasError(checked.problems);
    const normalized = clean ? printExpression(checked.ast!, source) : source.trim();
    if (kept) kept.normalized = normalized;
    return normalized;
  }

  /**
   * The text without whitespace, which normalize's form never changes but for whitespace: what
   * rules are first compared by (rule-order.ts). Kept with the result as normalize's form is:
   * the server compares every rule again at each keystroke, and squeezing every text again was
   * a fifth of an edit's cost in a file of 1,000 rules.
   */
  squeeze(text: string, checked: CheckResult): string {
    const entry = this.entryOf(text);
    const kept = resultIn(entry, checked);
    if (kept?.squeezed !== undefined) return kept.squeezed;
    // From the entry's own text, which is no view of a document: kept, it keeps no document alive.
    const squeezed = (entry?.text ?? text).replace(WHITESPACE, '');
    if (kept) kept.squeezed = squeezed;
    return squeezed;
  }

  /** The entry of the text, where it is (not moved as used: see find). */
  private entryOf(text: string): Entry | undefined {
    return this.held.get(text) ?? this.recent.get(text);
  }

  /**
   * Keeps the results of `texts` (an open document's expressions, checked again at each
   * keystroke) whatever the budget, in place of what `holder` held before, until it holds
   * others or is released.
   */
  hold(holder: string, texts: Iterable<string>): void {
    const entries: Entry[] = [];
    for (const text of texts) {
      let entry = this.held.get(text);
      if (!entry) {
        entry = this.recent.get(text);
        if (entry) {
          this.recent.delete(text);
          this.recentBytes -= entry.bytes;
          this.heldBytes += entry.bytes;
        } else entry = { text: detached(text), results: undefined, bytes: 0, holders: 0 };
        this.held.set(entry.text, entry);
      }
      entry.holders++;
      entries.push(entry);
    }
    const previous = this.holdings.get(holder);
    this.holdings.set(holder, entries);
    if (previous) this.unhold(previous);
  }

  /** Lets go of what `holder` held (its document was closed): the results stay, within the budget. */
  release(holder: string): void {
    const entries = this.holdings.get(holder);
    if (!entries) return;
    this.holdings.delete(holder);
    this.unhold(entries);
  }

  /** How many results the cache keeps. */
  get size(): number {
    return this.results;
  }

  /** The estimated heap bytes of the results kept, held or not. */
  get bytes(): number {
    return this.heldBytes + this.recentBytes;
  }

  /** The entry of the text, as most recently used. */
  private find(text: string): Entry | undefined {
    // Only the language server holds texts: the command line's cache asks one map, not two.
    const held = this.held.size > 0 ? this.held.get(text) : undefined;
    if (held) return held;
    const entry = this.recent.get(text);
    if (entry) {
      this.recent.delete(text);
      this.recent.set(entry.text, entry);
    }
    return entry;
  }

  private unhold(entries: readonly Entry[]): void {
    for (const entry of entries) {
      if (--entry.holders > 0) continue;
      this.held.delete(entry.text);
      this.heldBytes -= entry.bytes;
      // Texts held but never checked (the document was closed first) leave nothing.
      if (!entry.results) continue;
      this.recent.set(entry.text, entry);
      this.recentBytes += entry.bytes;
    }
    this.evict();
  }

  /**
   * Where the walk from the least recently used text stopped: every text before it was dropped,
   * and texts used again move after it, so it goes on from there. A walk begun afresh at each
   * drop stepped again over all the places the dropped texts left, until the map was rebuilt.
   */
  private oldest?: IterableIterator<Entry>;

  /** Drops the least recently used results no document holds until the rest fit the budget. */
  private evict(): void {
    while (this.recentBytes > this.budget) {
      let next = this.oldest?.next();
      if (!next || next.done) {
        // An iterator that has ended stays ended, whatever is added after.
        this.oldest = this.recent.values();
        next = this.oldest.next();
        if (next.done) return;
      }
      // Every entry is kept under its own text.
      const entry = next.value;
      this.recent.delete(entry.text);
      this.recentBytes -= entry.bytes;
      for (let kept = entry.results; kept; kept = kept.next) this.results--;
    }
  }
}

/**
 * The cache key of a kind of check under its options, made once per options object: a ruleset
 * checks all its expressions with one (ruleset.ts), and its key is then not joined again for
 * each of them. The key is a string of its own, not one joined from parts that may be views of
 * a document, since the cache keeps it.
 */
const keys = { filter: new WeakMap<CheckOptions, string>(), value: new WeakMap<ValueCheckOptions, string>() };
function keyOf(options: CheckOptions, kind: 'filter'): string;
function keyOf(options: ValueCheckOptions, kind: 'value'): string;
function keyOf(options: CheckOptions & Partial<ValueCheckOptions>, kind: 'filter' | 'value'): string {
  let key = keys[kind].get(options);
  if (key === undefined) {
    key = detached(kind === 'filter' ? `f\u0000${optionsKey(options)}` : `v${options.expect?.join(',') ?? '*'}\u0000${optionsKey(options)}`);
    keys[kind].set(options, key);
  }
  return key;
}

function optionsKey(options: CheckOptions): string {
  return `${options.phase ?? ''}\u0000${options.plan ?? ''}\u0000${options.knownLists?.join(',') ?? '*'}\u0000${options.listKinds ? listKindsKey(options.listKinds) : ''}\u0000${options.addons?.join(',') ?? '*'}\u0000${options.lints?.join(',') ?? ''}`;
}

/** The list kinds of a check's options as part of a cache key (the same kinds, the same key, whatever their order). */
const listKindKeys = new WeakMap<object, string>();
function listKindsKey(kinds: Readonly<Record<string, string>>): string {
  let key = listKindKeys.get(kinds);
  if (key === undefined) {
    key = Object.keys(kinds)
      .sort()
      .map((name) => `${name}=${kinds[name]}`)
      .join(',');
    listKindKeys.set(kinds, key);
  }
  return key;
}

/** The record of `checked` among the entry's results. */
function resultIn(entry: Entry | undefined, checked: CheckResult): Result | undefined {
  let kept = entry?.results;
  while (kept && kept.result !== checked) kept = kept.next;
  return kept;
}

/** Every character that String.prototype.trim removes, as the canonical form may. */
const WHITESPACE = /\s+/g;
