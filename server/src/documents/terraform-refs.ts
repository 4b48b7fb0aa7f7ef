/**
 * Rules of a `cloudflare_ruleset` without a `ref`: one hint on the resource, and a fix that
 * gives each a `ref` of its own. The provider matches a planned rule to a rule of its state by
 * `ref` alone, and keeps that rule's id only then (terraform-provider-cloudflare a2efdc5,
 * internal/services/ruleset/resource.go, ModifyPlan; v4.52.8,
 * internal/framework/service/rulesets/resource.go, ModifyPlan): without one, a rule moved,
 * inserted or removed before others gives them new ids on the next apply.
 */
import { property, type HostNode, type HostObject } from './host/index';
import type { DocumentEdit } from './host/index';
import type { DocumentFix, DocumentProblem, ParsedRuleset } from './parsed-ruleset';

/** The hint for a resource whose rules (those written out) lack a `ref`, at `header`; undefined when every rule has one. */
export function rulesWithoutRefProblem(ruleset: ParsedRuleset, header: { readonly start: number; readonly end: number }): DocumentProblem | undefined {
  const rules = ruleset.rules.filter((r): r is HostObject => r.kind === 'object');
  // Each with its number among the rules, for `rule_N`: looked up once, not by indexOf (a file may hold 10,000 rules).
  const without = rules.flatMap((rule, index) => (property(rule, 'ref') === undefined ? [{ rule, index }] : []));
  if (without.length === 0) return undefined;
  const count = without.length === rules.length ? (rules.length === 1 ? 'its rule has' : `its ${rules.length} rules have`) : `${without.length} of its ${rules.length} rules have`;
  const problem: DocumentProblem = {
    code: 'terraform-rules-without-ref',
    severity: 'information',
    message: `${count} no \`ref\`: the provider keeps a rule's id from one apply to the next by its \`ref\`, so without one a rule moved or inserted gives the rules after it new ids`,
    start: header.start,
    end: header.end,
  };
  // The fix is made when something reads it (a code action): a check of 10,000 rules without a
  // `ref` would otherwise build 10,000 edits that the command line never shows.
  let fixes: readonly DocumentFix[] | undefined;
  Object.defineProperty(problem, 'fixes', {
    enumerable: true,
    get: () => {
      if (!fixes) {
        const edits = refEdits(ruleset, rules, without);
        fixes = edits.length > 0 ? [{ title: `Add a \`ref\` to ${without.length === 1 ? 'the rule' : `each of the ${without.length} rules`} without one`, edits }] : [];
      }
      return fixes.length > 0 ? fixes : undefined;
    },
  });
  return problem;
}

/**
 * An edit a rule: `ref = "…"` before its first attribute, on a line of its own where that
 * attribute starts a line (aligned as its `=` is), else before it with a comma in a v5 object
 * (a v4 block on one line takes one attribute only: left as it is).
 */
function refEdits(ruleset: ParsedRuleset, rules: readonly HostObject[], without: readonly { rule: HostObject; index: number }[]): DocumentEdit[] {
  const text = ruleset.text;
  const taken = new Set(rules.map((r) => property(r, 'ref')?.value).filter((v): v is HostNode & { value: string } => v?.kind === 'string').map((v) => String(v.value)));
  const edits: DocumentEdit[] = [];
  const next = new Map<string, number>();
  for (const { rule, index } of without) {
    const first = rule.properties.reduce<(typeof rule.properties)[number] | undefined>((a, p) => (a === undefined || p.keyStart < a.keyStart ? p : a), undefined);
    if (!first) continue;
    const ref = freeRef(refBase(rule, index), taken, next);
    taken.add(ref);
    const lineStart = text.lastIndexOf('\n', first.keyStart - 1) + 1;
    const before = text.slice(lineStart, first.keyStart);
    if (/^[ \t]*$/.test(before)) {
      // `action      = "block"`: `ref` padded to the same `=`.
      const equals = /^[ \t]*=/.exec(text.slice(first.keyEnd, first.keyEnd + 200));
      const width = equals ? first.keyEnd - first.keyStart + equals[0].length - 1 : 0;
      edits.push({ start: first.keyStart, end: first.keyStart, newText: `${'ref'.padEnd(Math.max(width, 4) - 1)} = "${ref}"\n${before}` });
    } else if (!ruleset.parametersInProviderShape) {
      edits.push({ start: first.keyStart, end: first.keyStart, newText: `ref = "${ref}", ` });
    }
  }
  return edits;
}

/** The rule's description as a ref (`Block the admin host` → `block_the_admin_host`), else `rule_N`. */
function refBase(rule: HostObject, index: number): string {
  const description = property(rule, 'description')?.value;
  const slug = description?.kind === 'string' ? String(description.value).toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 48).replace(/_+$/, '') : '';
  return slug || `rule_${index + 1}`;
}

/**
 * `base`, or `base_2`, `base_3`, … the first not taken. Where each base goes on counting is
 * kept, so that 10,000 rules of one description cost a lookup each, not one for every rule before.
 */
function freeRef(base: string, taken: ReadonlySet<string>, next: Map<string, number>): string {
  if (!taken.has(base)) return base;
  let n = next.get(base) ?? 2;
  while (taken.has(`${base}_${n}`)) n++;
  next.set(base, n + 1);
  return `${base}_${n}`;
}
