import { checkExpression, type CheckOptions, type CheckResult } from '../language/checker';
import { printExpression } from '../language/format';

/**
 * Results of checking expression texts, shared by every document: an expression that did
 * not change is not parsed again (re-checking a file after one edit costs one expression).
 */
export class ExpressionCache {
  // Options first, then the text itself as the key: no key string is built per lookup, and
  // V8 hashes each text once.
  private readonly byOptions = new Map<string, Map<string, CheckResult>>();
  private readonly normalized = new Map<string, string>();
  private entries = 0;

  constructor(private readonly capacity = 50_000) {}

  check(text: string, options: CheckOptions): CheckResult {
    const optionsKey = `${options.phase ?? ''}\u0000${options.knownLists?.join(',') ?? '*'}`;
    let results = this.byOptions.get(optionsKey);
    if (!results) this.byOptions.set(optionsKey, (results = new Map()));
    const cached = results.get(text);
    if (cached) return cached;
    if (this.entries >= this.capacity) this.clear();
    const result = checkExpression(text, options);
    results.set(text, result);
    this.entries++;
    return result;
  }

  /**
   * The expression in canonical spacing (whitespace inside strings kept), or as written when
   * it does not parse: what two rules are compared by.
   */
  normalize(text: string, checked: CheckResult): string {
    let result = this.normalized.get(text);
    if (result === undefined) {
      // Printed from the tree the check already built: parsing again would double the cost
      // of opening a file. Errors may have dropped text from the tree (a comma in a set).
      const clean = checked.ast && !checked.problems.some((p) => p.severity === 'error');
      result = clean ? printExpression(checked.ast!, text) : text.trim();
      if (this.normalized.size >= this.capacity) this.normalized.clear();
      this.normalized.set(text, result);
    }
    return result;
  }

  private clear(): void {
    // Dropping everything at once is simpler than LRU order, and at this size it happens
    // only in a long session that has seen tens of thousands of distinct expressions.
    this.byOptions.clear();
    this.entries = 0;
  }

  get size(): number {
    return this.entries;
  }
}
