/**
 * What the account's plan (`plan` in `.rulesets.yaml`) and add-ons (`addons`) allow a ruleset,
 * by the docs' plans table (catalogue/plan-quotas.ts): how many rules its phase takes, and the
 * `log` action of WAF custom rules; and, by the rate limiting parameters page, the duration of a
 * rate limiting rule with a challenge action (catalogue/actions.ts RATE_LIMIT_CHALLENGE_DURATION);
 * and, by the rate limiting availability table, the counting characteristics a plan has
 * (RATE_LIMIT_CHARACTERISTICS_BY_PLAN). Without a plan nothing is assumed and nothing is said; where
 * the rules are not all in the file (Terraform makes some), their number is not judged.
 */
import { RATE_LIMIT_CHALLENGE_DURATION, RATE_LIMIT_CHARACTERISTICS_BY_PLAN } from '../language/catalogue/actions';
import { phaseFamily } from '../language/catalogue/families';
import { OCTORULES_SECTIONS } from '../language/catalogue/generated/octorules-sections';
import { PLAN_GATES, planWithMore, quotaOn, ruleQuota, ZONE_CUSTOM_RULESETS } from '../language/catalogue/plan-quotas';
import { addonName, describePlan, PLANS, planIncludes, planName, type Addon, type Plan } from '../language/catalogue/plans';
import { isTerraformTemplate, property, type HostNode } from './host/index';
import { actionOfRule, type DocumentProblem, type ParsedRuleset } from './parsed-ruleset';

export interface PlanLimitOptions {
  readonly defaultPhase?: string;
  readonly plan?: Plan;
  readonly addons?: readonly Addon[];
}

/** The phase whose WAF custom rules the table's "Supported actions" row is of. */
const LOG_GATED_PHASE = 'http_request_firewall_custom';

export function checkPlanLimits(model: ParsedRuleset, problems: DocumentProblem[], options: PlanLimitOptions): void {
  const plan = options.plan;
  const root = model.root;
  if (!plan || root?.kind !== 'object') return;
  const phase = model.phase ?? options.defaultPhase;
  if (phaseFamily(phase) !== 'http') return;
  const rulesProperty = property(root, 'rules');
  const rules = rulesProperty?.value;
  if (rules?.kind !== 'array') return;
  if (phase === LOG_GATED_PHASE && !planIncludes(plan, PLAN_GATES.logAction.plan)) {
    for (const rule of rules.items) {
      const action = actionOfRule(rule, model.defaultAction);
      if (action?.name !== 'log' || !action.node) continue;
      problems.push({
        code: 'plan-required',
        severity: 'error',
        start: action.node.start,
        end: action.node.end,
        message: `the \`log\` action needs the ${describePlan(PLAN_GATES.logAction.plan)} plan; the account's plan is ${planName(plan)} (\`plan\` in .rulesets.yaml), so the service refuses it: use another action, or move to ${describePlan(PLAN_GATES.logAction.plan)}`,
      });
    }
  }
  if (phase === RATE_LIMIT_CHALLENGE_DURATION.phase && !planIncludes(plan, RATE_LIMIT_CHALLENGE_DURATION.plan)) checkChallengeDurations(model, rules.items, plan, problems);
  if (phase === RATE_LIMIT_CHARACTERISTICS_BY_PLAN.phase) checkCharacteristicsByPlan(rules.items, plan, options.addons, problems);
  // Rules Terraform makes, or a value of the module used elsewhere: their number is not this file's to say.
  if (model.rulesComputed || rulesProperty?.filledIn || model.usedBy !== undefined || model.legacyFilter) return;
  const quota = ruleQuota(phase, rulesetKind(model));
  if (!quota) return;
  const allowed = quotaOn(quota, plan, options.addons);
  if (!allowed) return;
  // Only the rules surely enabled count: the table counts "active" Transform Rules, and a rule
  // whose `enabled` Terraform fills in may be off.
  const counted = rules.items.filter(isSurelyEnabled);
  if (counted.length <= allowed.limit) return;
  const past = counted[allowed.limit];
  const excess = counted.length - allowed.limit;
  const on = `the ${planName(plan)} plan${allowed.addon ? ` with ${addonName(allowed.addon)}` : allowed.evenWith ? ` even with ${addonName(allowed.evenWith)}` : ''}`;
  const fixes = [`remove or disable ${excess === 1 ? 'a rule' : `${excess} rules`}`];
  const more = planWithMore(quota, plan, allowed.limit);
  if (more) fixes.push(`move to a higher plan (${planName(more)} allows ${quota.limits[more]})`);
  const extra = quota.withAddon;
  if (extra && extra.plan === plan && !allowed.addon && !allowed.evenWith && extra.limit > allowed.limit) fixes.push(`add ${addonName(extra.addon)} (${extra.limit} with it; \`addons: [${extra.addon}]\` in .rulesets.yaml)`);
  else if (!more && extra && extra.limit > allowed.limit && planIncludes(extra.plan, plan) && extra.plan !== plan) fixes.push(`move to ${planName(extra.plan)} with ${addonName(extra.addon)} (${extra.limit})`);
  const said = allowed.limit === 0 ? `${on} allows no ${quota.product} in \`${phase}\`` : `this is rule ${allowed.limit + 1} of the ${counted.length} enabled ${quota.product} of this ruleset, and ${on} allows ${allowed.limit} in \`${phase}\``;
  const at = firstKey(past);
  problems.push({
    code: 'rule-quota',
    severity: 'error',
    start: at.start,
    end: at.end,
    message: `${said} (\`plan\` in .rulesets.yaml), so the service refuses the ruleset: ${fixes.join(', or ')}`,
  });
}

/**
 * A rate limiting rule with a challenge action and a duration (`mitigation_timeout` other than 0)
 * on a plan below Enterprise, where such a rule throttles and the API wants 0; the fix writes 0.
 */
function checkChallengeDurations(model: ParsedRuleset, rules: readonly HostNode[], plan: Plan, problems: DocumentProblem[]): void {
  const limit = RATE_LIMIT_CHALLENGE_DURATION;
  for (const rule of rules) {
    const action = actionOfRule(rule, model.defaultAction)?.name;
    if (action === undefined || !(limit.actions as readonly string[]).includes(action)) continue;
    const timeout = property(property(rule, 'ratelimit')?.value, 'mitigation_timeout')?.value;
    // Only a number written as one: a value Terraform fills in is not known.
    if (timeout?.kind !== 'number' || timeout.value === 0) continue;
    problems.push({
      code: 'plan-required',
      severity: 'error',
      start: timeout.start,
      end: timeout.end,
      message: `a rate limiting rule with \`${action}\` takes a duration only on the ${describePlan(limit.plan)} plan; on ${planName(plan)} (\`plan\` in .rulesets.yaml) it throttles requests instead, and the service wants \`mitigation_timeout\` 0 (the docs' rate limiting parameters): set it to 0, or use \`block\` for a duration`,
      fixes: [{ title: 'Change to `0`', edits: [{ start: timeout.start, end: timeout.end, newText: '0' }] }],
    });
  }
}

/**
 * The characteristics of rate limiting rules the plan does not have: IP with NAT support below
 * Business, any but IP and IP with NAT support without Enterprise and Advanced Rate Limiting (on
 * Enterprise said only when `addons` is configured without it).
 */
function checkCharacteristicsByPlan(rules: readonly HostNode[], plan: Plan, addons: readonly Addon[] | undefined, problems: DocumentProblem[]): void {
  const table = RATE_LIMIT_CHARACTERISTICS_BY_PLAN;
  const others = table.others;
  if (planIncludes(plan, others.plan) && (addons === undefined || addons.includes(others.addon))) return;
  for (const rule of rules) {
    const list = property(property(rule, 'ratelimit')?.value, 'characteristics')?.value;
    if (list?.kind !== 'array') continue;
    for (const item of list.items) {
      // A name Terraform fills in is not known.
      if (item.kind !== 'string' || isTerraformTemplate(item)) continue;
      const name = String(item.value);
      const row = table.from.find((r) => (r.characteristics as readonly string[]).includes(name));
      const required: Plan = row ? row.plan : others.plan;
      if (!planIncludes(plan, required)) {
        const needs = row ? `the ${describePlan(required)} plan` : `Enterprise with ${addonName(others.addon)}`;
        problems.push({ code: 'plan-required', severity: 'error', start: item.start, end: item.end, message: `\`${name}\` as a counting characteristic needs ${needs}; the account's plan is ${planName(plan)} (\`plan\` in .rulesets.yaml), so the service refuses it (the docs' rate limiting availability table)` });
      } else if (!row) {
        problems.push({ code: 'addon-required', severity: 'error', start: item.start, end: item.end, message: `\`${name}\` as a counting characteristic needs the ${addonName(others.addon)} add-on, which \`addons\` in .rulesets.yaml does not list, so the service refuses it (the docs' rate limiting availability table); add \`${others.addon}\` there if the account has it` });
      }
    }
  }
}

/** `zone` for a zone's entry point ruleset, `root` for an account's; undefined where the file does not say. */
function rulesetKind(model: ParsedRuleset): string | undefined {
  if (model.layout === 'octorules') {
    // A section of a zone's file or an account's (custom_rulesets are neither: no section of that name).
    const section = OCTORULES_SECTIONS.find((s) => s.section === model.label);
    return section ? (section.zone ? 'zone' : 'root') : undefined;
  }
  const kind = property(model.root, 'kind')?.value;
  return kind?.kind === 'string' ? String(kind.value) : undefined;
}

/** A rule that is an object whose `enabled` is absent or `true`. */
function isSurelyEnabled(rule: HostNode): boolean {
  if (rule.kind !== 'object') return false;
  const enabled = property(rule, 'enabled');
  if (!enabled) return true;
  return enabled.value?.kind === 'boolean' && enabled.value.value === true;
}

/** Where a rule's finding goes: its first key (the rule's first line), else its first character. */
function firstKey(rule: HostNode): { start: number; end: number } {
  const first = rule.kind === 'object' ? rule.properties[0] : undefined;
  return first && first.keyEnd > first.keyStart ? { start: first.keyStart, end: first.keyEnd } : { start: rule.start, end: Math.min(rule.end, rule.start + 1) };
}

/** The phase whose custom rulesets the table's "Number of custom rulesets (zone)" and "Account-level custom rulesets" rows count (WAF custom rules). */
const CUSTOM_RULESETS_PHASE = 'http_request_firewall_custom';

/**
 * The custom rulesets of WAF custom rules among a Terraform file's resources, by the plan: an
 * account's need Enterprise, and a zone has at most ZONE_CUSTOM_RULESETS of them (the
 * resources of one zone are those whose `zone_id` is written alike). A resource with `count` or
 * `for_each` stands for a number of rulesets the file does not say, so it is not counted; nor are
 * a module's other files read: what one file holds is at most what the zone has.
 */
export function checkCustomRulesets(rulesets: readonly ParsedRuleset[], options: PlanLimitOptions): DocumentProblem[] {
  const plan = options.plan;
  if (!plan) return [];
  const problems: DocumentProblem[] = [];
  const byZone = new Map<string, { ruleset: ParsedRuleset; kind: HostNode }[]>();
  for (const ruleset of rulesets) {
    const kind = property(ruleset.root, 'kind')?.value;
    if (ruleset.layout !== 'terraform' || ruleset.usedBy !== undefined || kind?.kind !== 'string' || kind.value !== 'custom' || ruleset.phase !== CUSTOM_RULESETS_PHASE || !ruleset.owner) continue;
    if (ruleset.owner.key === 'account_id') {
      const required = PLAN_GATES.accountCustomRulesets.plan;
      if (!planIncludes(plan, required)) {
        problems.push({
          code: 'plan-required',
          severity: 'error',
          start: kind.start,
          end: kind.end,
          message: `an account's custom ruleset of WAF custom rules needs the ${describePlan(required)} plan; the account's plan is ${planName(plan)} (\`plan\` in .rulesets.yaml), so the service refuses it: put the rules in the zone's ruleset (\`kind = "zone"\` with \`zone_id\`), or move to ${describePlan(required)}`,
        });
      }
      continue;
    }
    if (ruleset.repeated) continue;
    const zone = byZone.get(ruleset.owner.written) ?? [];
    zone.push({ ruleset, kind });
    byZone.set(ruleset.owner.written, zone);
  }
  const limit = ZONE_CUSTOM_RULESETS[plan];
  for (const [zone, found] of byZone) {
    if (found.length <= limit) continue;
    const past = found[limit];
    const more = PLANS.slice(PLANS.indexOf(plan) + 1).find((p) => ZONE_CUSTOM_RULESETS[p] > limit);
    problems.push({
      code: 'ruleset-quota',
      severity: 'error',
      start: past.kind.start,
      end: past.kind.end,
      message: `${past.ruleset.label ?? 'this resource'} is custom ruleset ${limit + 1} of the ${found.length} in this file for the zone \`${zone}\`, and the ${planName(plan)} plan allows ${limit} custom ${limit === 1 ? 'ruleset' : 'rulesets'} per zone (\`plan\` in .rulesets.yaml), so the service refuses it: merge their rules into fewer rulesets${more ? `, or move to a higher plan (${planName(more)} allows ${ZONE_CUSTOM_RULESETS[more]})` : ''}`,
    });
  }
  return problems;
}
