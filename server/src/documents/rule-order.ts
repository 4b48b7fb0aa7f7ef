/**
 * Checks of a ruleset's rules against each other: a rule that repeats an earlier one, and a
 * rule that an earlier `block` or `skip` always decides first.
 */
import type { CheckResult } from '../language/checker';
import { findShadowedRules, modelOfFamily, type Model, type RuleForAnalysis } from '../language/analyses';
import { hasError } from '../language/problem';
import { phaseFamily } from '../language/catalogue/families';
import type { ExpressionCache } from './expression-cache';
import { isTerraformTemplate, property, type HostNode, type HostObject, type HostProperty } from './host/index';
import type { DocumentProblem, FilterSite, ParsedRuleset } from './parsed-ruleset';

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
 * The checks of rule order, fed each rule with its expression's result, in rule order: what
 * they need of a rule is taken then (its action, whether it repeats an earlier one, its tree
 * and forms where the search for shadowed rules can use them), and nothing else of its result
 * is kept for them. Undefined where the phase's actions do not mean what these checks assume.
 */
export function ruleOrderCheck(model: ParsedRuleset, cache: ExpressionCache, phase: string | undefined): RuleOrderCheck | undefined {
  return orderMatters(phase) ? new RuleOrderCheck(model, cache, phase) : undefined;
}

export class RuleOrderCheck {
  /**
   * The first rule of each form, by action, then by parameters: two `execute` rules of `true`
   * run different rulesets unless their parameters agree. Maps within a map, so that no key is
   * joined for each rule.
   */
  private readonly firstByDecision = new Map<string, Map<string, RulesOfDecision>>();
  /** The rules compared, in rule order: indexes of findShadowedRules's answers. */
  private readonly sites: FilterSite[] = [];
  private readonly rules: RuleForAnalysis[] = [];
  /** The repeats found, reported before what the order makes useless. */
  private readonly repeats: DocumentProblem[] = [];
  private readonly fieldModel: Model;

  constructor(
    private readonly model: ParsedRuleset,
    private readonly cache: ExpressionCache,
    private readonly phase: string | undefined,
  ) {
    this.fieldModel = modelOfFamily(phaseFamily(phase));
  }

  /** A rule's expression and its result; a rule that is not all in the file is not compared. */
  add(site: FilterSite, result: CheckResult): void {
    if (site.holes) return;
    const rule = this.model.rules[site.ruleIndex];
    const facts = rule?.kind === 'object' ? factsOf(rule) : NO_FACTS;
    if (facts.computed) return;
    const disabled = switchedOff(facts.enabled);
    // A disabled rule decides nothing, so it neither repeats nor is repeated.
    const earlier = disabled ? undefined : this.earlierOfForm(site, result, facts);
    if (earlier) {
      this.repeats.push({
        code: 'duplicate-rule',
        severity: 'warning',
        message: `rule ${site.ruleIndex + 1} repeats rule ${earlier.ruleIndex + 1} (same action and expression), so it never decides anything`,
        start: site.node.start,
        end: site.node.end,
        related: [{ start: earlier.node.start, end: earlier.node.end, message: `rule ${earlier.ruleIndex + 1}, which it repeats` }],
      });
    }
    const clean = !hasError(result.problems);
    this.sites.push(site);
    // The search passes over a disabled or unclean rule: its tree and forms are not kept for it.
    const enabled = rule?.kind === 'object' && !disabled;
    const searched = enabled && clean;
    this.rules.push({
      ast: searched ? result.ast : undefined,
      text: result.text,
      clean,
      enabled,
      decides: decisionOf(facts),
      duplicate: earlier !== undefined,
      forms: searched ? result.forms : undefined,
      model: this.fieldModel,
    });
  }

  /** The problems found, after every rule was added. */
  finish(problems: DocumentProblem[]): void {
    for (const repeat of this.repeats) problems.push(repeat);
    checkRuleOrder(this.model, this.sites, this.rules, problems, this.phase);
  }

  /**
   * The earlier rule of the same action and parameters whose expression has the form of
   * `site`'s; undefined when there is none (`site` is then the first of its form, kept).
   */
  private earlierOfForm(site: FilterSite, result: CheckResult, facts: RuleFacts): FilterSite | undefined {
    const action = facts.action?.value;
    const actionName = action?.kind === 'string' ? String(action.value) : '';
    const parameters = facts.parameters?.value;
    let byParameters = this.firstByDecision.get(actionName);
    if (!byParameters) this.firstByDecision.set(actionName, (byParameters = new Map()));
    const parametersKey = parameters ? canonicalValue(parameters) : '';
    let rules = byParameters.get(parametersKey);
    if (!rules) byParameters.set(parametersKey, (rules = { byText: new Map(), bySqueezed: new Map() }));
    return firstOfForm(rules, site, result, this.cache);
  }
}

/**
 * A rule's keys that the order checks read, each as `property` finds it (the first of its
 * key), from one walk of its properties.
 */
interface RuleFacts {
  readonly action?: HostProperty;
  readonly parameters?: HostProperty;
  readonly enabled?: HostNode;
  /**
   * Its `action`, `action_parameters` or `enabled` is a value Terraform computes (a key whose
   * value was not read): what decides the rule is not all in the file.
   */
  readonly computed: boolean;
}

const NO_FACTS: RuleFacts = { computed: false };

function factsOf(rule: HostObject): RuleFacts {
  let action: HostProperty | undefined;
  let parameters: HostProperty | undefined;
  let enabled: HostProperty | undefined;
  let computed = false;
  for (const p of rule.properties) {
    if (p.key === 'action') action ??= p;
    else if (p.key === 'action_parameters') parameters ??= p;
    else if (p.key === 'enabled') enabled ??= p;
    else continue;
    // A `"${…}"` template is Terraform's to fill in as much as a reference is.
    if (p.value === undefined || isTerraformTemplate(p.value)) computed = true;
  }
  return { action, parameters, enabled: enabled?.value, computed };
}

/** The first rule of an expression's canonical form (ExpressionCache.normalize), that form once it was needed. */
interface FirstOfForm {
  readonly site: FilterSite;
  readonly result: CheckResult;
  normalized?: string;
}

/** The rules of one action and parameters, by expression. */
interface RulesOfDecision {
  /** The first rule of the form of each text seen: a rule that repeats a text is found without its form. */
  readonly byText: Map<string, FilterSite>;
  /** The first rule of each form, by its text without whitespace. */
  readonly bySqueezed: Map<string, FirstOfForm[]>;
}

/**
 * The earlier rule whose expression has the canonical form of `site`'s, or undefined when
 * there is none (`site` is then the first of its form, kept). The canonical form changes only
 * whitespace (or trims it), so expressions of one form have one text without whitespace:
 * forms are kept by that text, and printed only where two texts share it and are not the same
 * text, which is rare; printing every rule's tree cost more than the rest of this check.
 */
function firstOfForm(rules: RulesOfDecision, site: FilterSite, result: CheckResult, cache: ExpressionCache): FilterSite | undefined {
  const same = rules.byText.get(site.text);
  if (same) return same;
  const earlier = firstOfNewText(rules.bySqueezed, site, result, cache);
  rules.byText.set(site.text, earlier ?? site);
  return earlier;
}

/** firstOfForm of a text no earlier rule has. */
function firstOfNewText(bySqueezed: Map<string, FirstOfForm[]>, site: FilterSite, result: CheckResult, cache: ExpressionCache): FilterSite | undefined {
  const squeezed = cache.squeeze(site.text, result);
  const forms = bySqueezed.get(squeezed);
  if (!forms) {
    bySqueezed.set(squeezed, [{ site, result }]);
    return undefined;
  }
  const normalized = cache.normalize(site.text, result);
  for (const form of forms) if ((form.normalized ??= cache.normalize(form.site.text, form.result)) === normalized) return form.site;
  forms.push({ site, result, normalized });
  return undefined;
}

/** Whether a rule is switched off (`enabled: false`). */
function isDisabled(rule: HostNode | undefined): boolean {
  return switchedOff(property(rule, 'enabled')?.value);
}

/** `false`, or in a Terraform file a string Terraform converts to false (`"false"`, `"0"`: terraform-types.ts). */
function switchedOff(enabled: HostNode | undefined): boolean {
  if (enabled?.kind === 'boolean') return enabled.value === false;
  const hcl = enabled?.kind === 'string' && (enabled.style === 'hcl-quoted' || enabled.style === 'hcl-heredoc');
  return hcl && !isTerraformTemplate(enabled) && (enabled.value === 'false' || enabled.value === '0');
}

/** `block`, or `skip` of the rest of the current ruleset: how a rule ends evaluation, if it does. */
function decisionOf(facts: RuleFacts): 'block' | 'skip' | undefined {
  const action = facts.action?.value;
  if (action?.kind !== 'string') return undefined;
  if (action.value === 'block') return 'block';
  if (action.value !== 'skip') return undefined;
  const ruleset = property(facts.parameters?.value, 'ruleset')?.value;
  return ruleset?.kind === 'string' && ruleset.value === 'current' ? 'skip' : undefined;
}

/** decisionOf a rule not yet read. */
function decisionOfRule(rule: HostNode | undefined): 'block' | 'skip' | undefined {
  return rule?.kind === 'object' ? decisionOf(factsOf(rule)) : undefined;
}

/**
 * Whether a `skip` rule records what it matches, by its `logging.enabled` (`logging`). In the
 * HTTP phases it does unless that is false: "If you do not specify this option in the API, the
 * default value is `true` for custom rules with the skip action (logs requests matching the skip
 * rule)", and they show in Security Events (cloudflare-docs
 * src/content/docs/waf/custom-rules/skip/options.mdx @ f279fc244501ec7678915614bb7067d3504e9b14,
 * "Logging"); people write a last skip for that, in place of the Enterprise-only `log` action.
 * Elsewhere (magic_transit, a phase we do not know) only when it is true.
 */
function logsMatches(logging: HostNode | undefined, phase: string | undefined): boolean {
  if (phaseFamily(phase) === 'http') return !switchedOff(logging);
  return logging?.kind === 'boolean' && logging.value === true;
}

/**
 * Rules that the order of the ruleset makes useless: a last `skip` of the current ruleset (there
 * is nothing after it to skip), and rules every packet of which an earlier rule decides first.
 * `sites` and `rules`: the rules compared, as RuleOrderCheck took them.
 */
function checkRuleOrder(model: ParsedRuleset, sites: readonly FilterSite[], rules: readonly RuleForAnalysis[], problems: DocumentProblem[], phase: string | undefined): void {
  const subject = subjectOf(phase);
  const enabled = (rule: HostNode) => rule.kind === 'object' && !isDisabled(rule);
  const lastIndex = model.rules.findLastIndex(enabled);
  const last = model.rules[lastIndex];
  // A ruleset of one skip rule is being written; after other rules, the order is the mistake.
  if (lastIndex > 0 && model.rules.findIndex(enabled) < lastIndex && decisionOfRule(last) === 'skip') {
    const parameters = property(last, 'action_parameters')?.value;
    const logging = property(property(last, 'logging')?.value, 'enabled')?.value;
    const action = property(last, 'action')!.value!;
    // Other parameters (`phases`, `products`) skip more than this ruleset, and a logged skip
    // records what it matches: either is a reason to be last.
    const onlyRuleset = parameters?.kind === 'object' && parameters.properties.every((p) => p.key === 'ruleset');
    if (onlyRuleset && !logsMatches(logging, phase)) {
      problems.push({
        code: 'skip-skips-nothing',
        severity: 'warning',
        message: `this \`skip\` of the current ruleset comes after every other enabled rule: there is no later rule for it to skip, so it does nothing; move it before the rules it should exempt ${subject}s from`,
        start: action.start,
        end: action.end,
      });
    }
  }
  for (const { later, earlier } of findShadowedRules(rules)) {
    const site = sites[later];
    const by = sites[earlier];
    const how = rules[earlier].decides === 'block' ? 'blocked' : 'skipped (with the rest of the ruleset)';
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
