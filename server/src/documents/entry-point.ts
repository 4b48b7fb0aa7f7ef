/**
 * Several files, one entry point: the rules a phase's entry point gets from every file that
 * contributes to it, in one order. Files come in the order given (the caller sorts them: by
 * path), each file's rules in their order; a rule's `before:`/`after:` (our keys, never sent to
 * the API) names another rule's `ref` in any contributing file, and the rule is placed just
 * before or after it. Rules without either keep their relative place. Pure: no I/O, linear in
 * the rules but for the heap of the order (n log n).
 */
import type { HostNode } from './host/index';
import type { DocumentProblem, ParsedDocument, ParsedRuleset } from './parsed-ruleset';
import { lineNumber } from './positions';
import { closestMatches, quoteAlternatives } from '../language/suggest';

/** Our keys of a rule that place it among the entry point's rules; stripped before anything is sent. */
export const RULE_ORDER_KEYS = [
  { key: 'before', doc: 'Place this rule just before the rule whose `ref` this names, in any file contributing to the same entry point (not sent to the API).' },
  { key: 'after', doc: 'Place this rule just after the rule whose `ref` this names, in any file contributing to the same entry point (not sent to the API).' },
] as const;

/** A string value of a rule and where it is written. */
export interface Located {
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

export interface ContributedRule {
  readonly ref?: Located;
  readonly before?: Located;
  readonly after?: Located;
  /** The rule's own characters. */
  readonly start: number;
  readonly end: number;
}

/** One file's rules for the entry point. */
export interface Contribution {
  /** How messages name the file. */
  readonly file: string;
  /** The file's text, for lines in messages. */
  readonly text: string;
  readonly rules: readonly ContributedRule[];
}

export type EntryPointCode = 'ref-shared' | 'unknown-rule-ref' | 'rule-order-cycle' | 'rule-unplaceable';

/** A problem of one contributing file, at its characters. */
export interface EntryPointProblem {
  /** Index of the contribution whose text holds it. */
  readonly contribution: number;
  readonly code: EntryPointCode;
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** A rule of the merged entry point: which contribution, which of its rules. */
export interface RulePlace {
  readonly contribution: number;
  readonly rule: number;
}

export interface MergedEntryPoint {
  /** Every rule, in the order the entry point gets them (when there are problems, as far as it can be told). */
  readonly order: readonly RulePlace[];
  readonly problems: readonly EntryPointProblem[];
}

/** The rules of a Terraform-free ruleset (a ruleset file, an octorules section) as a contribution. */
export function contributionOf(file: string, ruleset: Pick<ParsedRuleset, 'text' | 'rules'>): Contribution {
  return { file, text: ruleset.text, rules: ruleset.rules.map(contributedRule) };
}

function contributedRule(rule: HostNode): ContributedRule {
  const located = (key: string): Located | undefined => {
    if (rule.kind !== 'object') return undefined;
    const value = rule.properties.find((p) => p.key === key)?.value;
    // Another type is the shape check's to report (ruleset-shape.ts).
    return value?.kind === 'string' && typeof value.value === 'string' ? { value: value.value, start: value.start, end: value.end } : undefined;
  };
  const ref = located('ref');
  const before = located('before');
  const after = located('after');
  return { ...(ref ? { ref } : {}), ...(before ? { before } : {}), ...(after ? { after } : {}), start: rule.start, end: rule.end };
}

/** Whether any rule of the ruleset says where it goes (then its file's rules are ordered through this module even alone). */
export function placesRules(ruleset: Pick<ParsedRuleset, 'rules'>): boolean {
  return ruleset.rules.some((r) => r.kind === 'object' && r.properties.some((p) => p.key === 'before' || p.key === 'after'));
}

/**
 * The entry point's rules in order, and every conflict on its line: a `ref` that two files
 * give (on the second), a `before`/`after` that names no rule, a cycle (on each of its rules),
 * a rule whose place hangs on one that cannot be placed.
 */
export function mergeContributions(contributions: readonly Contribution[]): MergedEntryPoint {
  const places: RulePlace[] = [];
  contributions.forEach((c, contribution) => c.rules.forEach((_, rule) => places.push({ contribution, rule })));
  const ruleAt = (g: number) => contributions[places[g].contribution].rules[places[g].rule];
  const lineOf = (g: number, offset: number) => `${contributions[places[g].contribution].file}:${lineNumber(contributions[places[g].contribution].text, offset)}`;
  const problems: EntryPointProblem[] = [];
  const report = (g: number, at: Located, { code, message }: { code: EntryPointCode; message: string }) => problems.push({ contribution: places[g].contribution, code, start: at.start, end: at.end, message });

  // Refs: the first rule that gives one owns it; a rule of another file giving it again is an error
  // (within one file the file's own checks, and the service, say it).
  const byRef = new Map<string, number>();
  places.forEach((place, g) => {
    const ref = ruleAt(g).ref;
    if (!ref) return;
    const first = byRef.get(ref.value);
    if (first === undefined) byRef.set(ref.value, g);
    else if (places[first].contribution !== place.contribution) {
      report(g, ref, { code: 'ref-shared', message: `\`ref\` "${ref.value}" is already the ref of a rule at ${lineOf(first, ruleAt(first).ref!.start)}, which goes to the same entry point: give this rule another ref` });
    }
  });

  // Constraints: `before: X` is an edge rule → X, `after: X` an edge X → rule. The anchor (the
  // rule it is placed beside) is its `after`, else its `before`.
  const out: number[][] = places.map(() => []);
  const anchor: (number | undefined)[] = places.map(() => undefined);
  const anchorSide: ('before' | 'after')[] = places.map(() => 'after');
  const resolved = new Map<string, number>(); // `${g}:${key}` → the rule it names
  const allRefs = [...byRef.keys()];
  places.forEach((_, g) => {
    const rule = ruleAt(g);
    for (const key of ['after', 'before'] as const) {
      const named = rule[key];
      if (!named) continue;
      const target = byRef.get(named.value);
      if (target === undefined) {
        const close = closestMatches(named.value, allRefs);
        const hint = close.length > 0 ? `; did you mean ${quoteAlternatives(close)}?` : allRefs.length === 0 ? '; no rule of it has a `ref`' : '';
        report(g, named, { code: 'unknown-rule-ref', message: `\`${key}\` names "${named.value}", the \`ref\` of no rule of this entry point (in ${fileList(contributions)})${hint}` });
        continue;
      }
      resolved.set(`${g}:${key}`, target);
      if (key === 'after') out[target].push(g);
      else out[g].push(target);
      if (anchor[g] === undefined) {
        anchor[g] = target;
        anchorSide[g] = key;
      }
    }
  });

  // Cycles: the strongly connected components of more than one rule, or a rule naming itself.
  const component = stronglyConnected(out);
  const sizes = new Map<number, number>();
  for (const c of component) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  const cyclic = (g: number) => sizes.get(component[g])! > 1 || out[g].includes(g);
  const reported = new Set<number>();
  // One cycle named for each component (found once: a search per rule would be quadratic).
  const cycles = new Map<number, number[]>();
  places.forEach((_, g) => {
    if (!cyclic(g)) return;
    reported.add(g);
    let cycle = cycles.get(component[g]);
    if (!cycle || (out[g].includes(g) && !cycle.includes(g))) cycles.set(component[g], (cycle = cycleThrough(g, out, component)));
    const shown = cycle.map((h) => ruleAt(h).ref?.value ?? `rule ${places[h].rule + 1}`);
    const rule = ruleAt(g);
    for (const key of ['after', 'before'] as const) {
      const target = resolved.get(`${g}:${key}`);
      if (target === undefined || component[target] !== component[g]) continue;
      report(g, rule[key]!, { code: 'rule-order-cycle', message: `\`${key}\` closes a cycle: ${[...shown, shown[0]].join(' → ')} (each must come before the next); no order can place these rules, so drop one \`before\`/\`after\`` });
    }
  });

  // The order the rules ask for: unanchored rules in file order, each anchored rule just before
  // or after its anchor (those before an anchor, and those after it, in file order).
  const beforeOf: number[][] = places.map(() => []);
  const afterOf: number[][] = places.map(() => []);
  const roots: number[] = [];
  places.forEach((_, g) => {
    const a = anchor[g];
    if (a === undefined) roots.push(g);
    else (anchorSide[g] === 'before' ? beforeOf : afterOf)[a].push(g);
  });
  const rank: (number | undefined)[] = places.map(() => undefined);
  const wanted: number[] = [];
  // Depth first without recursion: a chain of `after`s is as long as the file.
  type Step = { g: number; emit: boolean };
  const stack: Step[] = [];
  for (let r = roots.length - 1; r >= 0; r--) stack.push({ g: roots[r], emit: false });
  while (stack.length > 0) {
    const { g, emit } = stack.pop()!;
    if (emit) {
      rank[g] = wanted.length;
      wanted.push(g);
      continue;
    }
    for (let i = afterOf[g].length - 1; i >= 0; i--) stack.push({ g: afterOf[g][i], emit: false });
    stack.push({ g, emit: true });
    for (let i = beforeOf[g].length - 1; i >= 0; i--) stack.push({ g: beforeOf[g][i], emit: false });
  }

  // Every constraint kept (a rule with both `before` and `after` has one beyond its anchor): a
  // topological sort that takes, of the rules free to go, the one the order asks for first.
  const indegree = places.map(() => 0);
  places.forEach((_, g) => {
    if (rank[g] !== undefined) for (const h of out[g]) indegree[h]++;
  });
  const heap = new MinHeap((g) => rank[g]!);
  for (const g of wanted) if (indegree[g] === 0) heap.push(g);
  const order: RulePlace[] = [];
  const placed = new Set<number>();
  for (let g = heap.pop(); g !== undefined; g = heap.pop()) {
    order.push(places[g]);
    placed.add(g);
    for (const h of out[g]) if (rank[h] !== undefined && --indegree[h] === 0) heap.push(h);
  }
  places.forEach((_, g) => {
    if (placed.has(g) || reported.has(g)) return;
    const rule = ruleAt(g);
    const key = rule.after && resolved.has(`${g}:after`) ? 'after' : 'before';
    const named = rule[key] ?? rule.ref ?? { value: '', start: rule.start, end: rule.end };
    const target = resolved.get(`${g}:${key}`);
    const why = target !== undefined ? `its place is ${key} "${ruleAt(target).ref!.value}", which cannot be placed itself` : 'its `before` and `after` contradict the other rules\' order';
    report(g, named, { code: 'rule-unplaceable', message: `no order can place this rule: ${why}; fix that rule's \`before\`/\`after\` first` });
  });
  return { order, problems };
}

function fileList(contributions: readonly Contribution[]): string {
  const files = [...new Set(contributions.map((c) => c.file))];
  return files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
}

/** Tarjan's strongly connected components, without recursion: each node's component number. */
function stronglyConnected(out: readonly (readonly number[])[]): number[] {
  const n = out.length;
  const index = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const component = new Array<number>(n).fill(-1);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  let counter = 0;
  let components = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    const work: { g: number; edge: number }[] = [{ g: root, edge: 0 }];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = true;
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const { g } = frame;
      if (frame.edge < out[g].length) {
        const h = out[g][frame.edge++];
        if (index[h] === -1) {
          index[h] = low[h] = counter++;
          stack.push(h);
          onStack[h] = true;
          work.push({ g: h, edge: 0 });
        } else if (onStack[h]) low[g] = Math.min(low[g], index[h]);
        continue;
      }
      work.pop();
      if (work.length > 0) low[work[work.length - 1].g] = Math.min(low[work[work.length - 1].g], low[g]);
      if (low[g] === index[g]) {
        let h: number;
        do {
          h = stack.pop()!;
          onStack[h] = false;
          component[h] = components;
        } while (h !== g);
        components++;
      }
    }
  }
  return component;
}

/** A cycle through `g` within its component, as the rules in order (breadth first: a shortest one). */
function cycleThrough(g: number, out: readonly (readonly number[])[], component: readonly number[]): number[] {
  if (out[g].includes(g)) return [g];
  const previous = new Map<number, number>();
  const queue = [g];
  for (let q = 0; q < queue.length; q++) {
    const x = queue[q];
    for (const y of out[x]) {
      if (component[y] !== component[g]) continue;
      if (y === g) {
        const path = [x];
        for (let p = x; p !== g; ) path.push((p = previous.get(p)!));
        return path.reverse();
      }
      if (!previous.has(y)) {
        previous.set(y, x);
        queue.push(y);
      }
    }
  }
  return [g];
}

/** A binary min-heap of node numbers by a key. */
class MinHeap {
  private readonly items: number[] = [];
  constructor(private readonly key: (g: number) => number) {}
  push(g: number): void {
    const items = this.items;
    items.push(g);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (this.key(items[parent]) <= this.key(items[i])) break;
      [items[parent], items[i]] = [items[i], items[parent]];
      i = parent;
    }
  }
  pop(): number | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.key(items[l]) < this.key(items[m])) m = l;
        if (r < items.length && this.key(items[r]) < this.key(items[m])) m = r;
        if (m === i) break;
        [items[m], items[i]] = [items[i], items[m]];
        i = m;
      }
    }
    return top;
  }
}

/** A file whose rulesets may give rules to an entry point shared with other files. */
export interface EntryPointSource {
  /** How messages name it. */
  readonly file: string;
  readonly document: ParsedDocument;
  /**
   * The place its rulesets go, when the project says (an item of `targets:`): files of one
   * place and phase give one entry point its rules. Absent: the file is an entry point of its own.
   */
  readonly target?: string;
}

/**
 * The problems of merging each entry point's rules, for each source (by index): files of one
 * target whose rulesets are the entry point (kind `zone` or `root`, no `id`) of one phase, and
 * any file alone whose rules say where they go. A Terraform resource is one resource: left out.
 */
export function entryPointProblems(sources: readonly EntryPointSource[]): DocumentProblem[][] {
  const out: DocumentProblem[][] = sources.map(() => []);
  const groups = new Map<string, { source: number; ruleset: ParsedRuleset }[]>();
  sources.forEach((source, index) => {
    if (source.document.layout === 'terraform') return;
    for (const ruleset of source.document.rulesets) {
      const phase = ruleset.phase;
      if (phase === undefined || ruleset.legacyFilter || !isEntryPoint(ruleset)) continue;
      const key = source.target !== undefined ? `${source.target}\0${phase}` : `\0${index}\0${phase}`;
      const group = groups.get(key);
      if (group) group.push({ source: index, ruleset });
      else groups.set(key, [{ source: index, ruleset }]);
    }
  });
  for (const group of groups.values()) {
    if (group.length === 1 && !placesRules(group[0].ruleset)) continue;
    // In the order plan merges them: by path.
    const sorted = [...group].sort((a, b) => (sources[a.source].file < sources[b.source].file ? -1 : sources[a.source].file > sources[b.source].file ? 1 : 0));
    const merged = mergeContributions(sorted.map((g) => contributionOf(sources[g.source].file, g.ruleset)));
    for (const p of merged.problems) out[sorted[p.contribution].source].push({ code: p.code, severity: 'error', start: p.start, end: p.end, message: p.message });
  }
  for (const problems of out) problems.sort((a, b) => a.start - b.start);
  return out;
}

/** A phase's entry point: kind `zone` or `root` (an octorules section is one), and no `id` of a ruleset of its own. */
function isEntryPoint(ruleset: ParsedRuleset): boolean {
  if (ruleset.layout === 'octorules') return true;
  const root = ruleset.root;
  if (root?.kind !== 'object') return false;
  const value = (key: string) => root.properties.find((p) => p.key === key)?.value;
  const kind = value('kind');
  if (kind?.kind !== 'string' || (kind.value !== 'zone' && kind.value !== 'root')) return false;
  const id = value('id');
  return !(id?.kind === 'string' && id.value !== '');
}
