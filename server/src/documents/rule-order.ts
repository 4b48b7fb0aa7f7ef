/**
 * Checks of a ruleset's rules against each other: a rule that repeats an earlier one, and a
 * rule that an earlier `block` or `skip` always decides first.
 */
import type { CheckResult } from '../language/checker';
import { findShadowedRules, modelOfFamily } from '../language/analyses';
import { hasError } from '../language/problem';
import { phaseFamily } from '../language/catalogue/families';
import type { ExpressionCache } from './expression-cache';
import { property, type HostNode } from './host';
import type { DocumentProblem, ExpressionSite, ParsedRuleset } from './parsed-ruleset';

/**
 * Whether the actions of a phase mean what these checks assume: `block` ends the evaluation of
 * what it matches, `skip` of the current ruleset skips the rules after it, and a rule that
 * repeats an earlier one does nothing more. So in the packet phases and in WAF custom rules
 * (`http_request_firewall_custom`). The other HTTP phases' rules rewrite, redirect, set or
 * count (a repeated `add` adds a header twice; rate limiting's `block` waits for a rate), so
 * nothing is said there. A phase we do not know is read as before, as the packet phases.
 */
function orderMatters(phase: string | undefined): boolean {
  return phaseFamily(phase) !== 'http' || phase === 'http_request_firewall_custom';
}

/** What the rules of a phase are about, in messages. */
function subjectOf(phase: string | undefined): string {
  return phaseFamily(phase) === 'http' ? 'request' : 'packet';
}

/**
 * A rule whose action and expression repeat an earlier rule's can never decide anything the
 * earlier one did not: it is dead weight, or a copy that was meant to be edited.
 */
export function checkRepeatedRules(model: ParsedRuleset, results: readonly CheckResult[], cache: ExpressionCache, problems: DocumentProblem[], phase?: string): Set<number> {
  const repeats = new Set<number>();
  if (!orderMatters(phase)) return repeats;
  // By action, then by parameters: two `execute` rules of `true` run different rulesets unless
  // their parameters agree. Maps within a map, so that no key is joined for each rule.
  const firstByDecision = new Map<string, Map<string, Map<string, FirstOfForm[]>>>();
  const { expressions } = model;
  for (let index = 0; index < expressions.length; index++) {
    const site = expressions[index];
    const rule = model.rules[site.ruleIndex];
    // A disabled rule decides nothing, so it neither repeats nor is repeated.
    if (isDisabled(rule)) continue;
    const action = property(rule, 'action')?.value;
    const actionName = action?.kind === 'string' ? String(action.value) : '';
    const parameters = property(rule, 'action_parameters')?.value;
    let byParameters = firstByDecision.get(actionName);
    if (!byParameters) firstByDecision.set(actionName, (byParameters = new Map()));
    const parametersKey = parameters ? canonicalValue(parameters) : '';
    let bySqueezed = byParameters.get(parametersKey);
    if (!bySqueezed) byParameters.set(parametersKey, (bySqueezed = new Map()));
    const earlier = firstOfForm(bySqueezed, site, results[index], cache);
    if (!earlier) continue;
    repeats.add(index);
    problems.push({
      code: 'duplicate-rule',
      severity: 'warning',
      message: `rule ${site.ruleIndex + 1} repeats rule ${earlier.ruleIndex + 1} (same action and expression), so it never decides anything`,
      start: site.node.start,
      end: site.node.end,
      related: [{ start: earlier.node.start, end: earlier.node.end, message: `rule ${earlier.ruleIndex + 1}, which it repeats` }],
    });
  }
  return repeats;
}

/** The first rule of an expression's canonical form (ExpressionCache.normalize), that form once it was needed. */
interface FirstOfForm {
  readonly site: ExpressionSite;
  readonly result: CheckResult;
  normalized?: string;
}

/**
 * The earlier rule whose expression has the canonical form of `site`'s, or undefined when
 * there is none (`site` is then the first of its form, kept in `bySqueezed`). The canonical
 * form changes only whitespace (or trims it), so expressions of one form have one text without
 * whitespace: forms are kept by that text, and printed only where two texts share it and are
 * not the same text, which is rare; printing every rule's tree cost more than the rest of
 * this check.
 */
function firstOfForm(bySqueezed: Map<string, FirstOfForm[]>, site: ExpressionSite, result: CheckResult, cache: ExpressionCache): ExpressionSite | undefined {
  const squeezed = site.text.replace(WHITESPACE, '');
  const forms = bySqueezed.get(squeezed);
  if (!forms) {
    bySqueezed.set(squeezed, [{ site, result }]);
    return undefined;
  }
  // The same text has the same form; each form is kept once, so at most one matches.
  for (const form of forms) if (form.site.text === site.text) return form.site;
  const normalized = cache.normalize(site.text, result);
  for (const form of forms) if ((form.normalized ??= cache.normalize(form.site.text, form.result)) === normalized) return form.site;
  forms.push({ site, result, normalized });
  return undefined;
}
/** Every character that String.prototype.trim removes, as the canonical form may. */
const WHITESPACE = /\s+/g;

/** Whether a rule is switched off (`enabled: false`). */
function isDisabled(rule: HostNode | undefined): boolean {
  const enabled = property(rule, 'enabled')?.value;
  return enabled?.kind === 'boolean' && enabled.value === false;
}

/** `block`, or `skip` of the rest of the current ruleset: how a rule ends evaluation, if it does. */
function decisionOf(rule: HostNode | undefined): 'block' | 'skip' | undefined {
  const action = property(rule, 'action')?.value;
  if (action?.kind !== 'string') return undefined;
  if (action.value === 'block') return 'block';
  const ruleset = property(property(rule, 'action_parameters')?.value, 'ruleset')?.value;
  return action.value === 'skip' && ruleset?.kind === 'string' && ruleset.value === 'current' ? 'skip' : undefined;
}

/**
 * Rules that the order of the ruleset makes useless: a last `skip` of the current ruleset (there
 * is nothing after it to skip), and rules every packet of which an earlier rule decides first.
 */
export function checkRuleOrder(model: ParsedRuleset, results: readonly CheckResult[], repeats: ReadonlySet<number>, problems: DocumentProblem[], phase?: string): void {
  if (!orderMatters(phase)) return;
  const subject = subjectOf(phase);
  const fieldModel = modelOfFamily(phaseFamily(phase));
  const enabled = (rule: HostNode) => rule.kind === 'object' && !isDisabled(rule);
  const lastIndex = model.rules.findLastIndex(enabled);
  const last = model.rules[lastIndex];
  // A ruleset of one skip rule is being written; after other rules, the order is the mistake.
  if (lastIndex > 0 && model.rules.findIndex(enabled) < lastIndex && decisionOf(last) === 'skip') {
    const parameters = property(last, 'action_parameters')?.value;
    const logging = property(property(last, 'logging')?.value, 'enabled')?.value;
    const action = property(last, 'action')!.value!;
    // Other parameters (`phases`, `products`) skip more than this ruleset, and a logged skip
    // records the packets it matches: either is a reason to be last.
    const onlyRuleset = parameters?.kind === 'object' && parameters.properties.every((p) => p.key === 'ruleset');
    if (onlyRuleset && !(logging?.kind === 'boolean' && logging.value === true)) {
      problems.push({
        code: 'skip-skips-nothing',
        severity: 'warning',
        message: `this \`skip\` of the current ruleset comes after every other enabled rule: there is no later rule for it to skip, so it does nothing; move it before the rules it should exempt packets from`,
        start: action.start,
        end: action.end,
      });
    }
  }
  const sites = model.expressions;
  const shadowed = findShadowedRules(
    sites.map((site, i) => {
      const rule = model.rules[site.ruleIndex];
      return {
        ast: results[i].ast,
        text: results[i].text,
        clean: !hasError(results[i].problems),
        enabled: enabled(rule),
        decides: decisionOf(rule),
        duplicate: repeats.has(i),
        forms: results[i].forms,
        model: fieldModel,
      };
    }),
  );
  for (const { later, earlier } of shadowed) {
    const site = sites[later];
    const by = sites[earlier];
    const how = decisionOf(model.rules[by.ruleIndex]) === 'block' ? 'blocked' : 'skipped (with the rest of the ruleset)';
    problems.push({
      code: 'shadowed-rule',
      severity: 'warning',
      message: `rule ${site.ruleIndex + 1} never decides anything: every ${subject} it matches is already ${how} by rule ${by.ruleIndex + 1}, which comes first`,
      start: site.node.start,
      end: site.node.end,
      related: [{ start: by.node.start, end: by.node.end, message: `rule ${by.ruleIndex + 1}, which matches every ${subject} rule ${site.ruleIndex + 1} matches` }],
    });
  }
}

/**
 * A host value as text that is the same however it was written (key order, quoting, style).
 * Recursive: a host tree nests MAX_NESTING levels at most.
 */
function canonicalValue(node: HostNode | undefined): string {
  if (!node) return '';
  if (node.kind === 'object') {
    const entries = [...node.properties].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return `{${entries.map((p) => `${JSON.stringify(p.key)}:${canonicalValue(p.value)}`).join(',')}}`;
  }
  if (node.kind === 'array') return `[${node.items.map(canonicalValue).join(',')}]`;
  return JSON.stringify(node.value);
}
