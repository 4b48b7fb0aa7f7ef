/**
 * What the plans table (generated/plans-limits.ts) says a plan and its add-ons allow: the rules
 * a ruleset of a phase may hold, and what needs a plan or an add-on. Where the table says
 * nothing, or the add-ons are not configured and would change the answer, nothing is answered:
 * a false error is worse than a missed one.
 */
import { PLAN_GATES, RULE_QUOTAS } from './generated/plans-limits';
import { PLANS, type Addon, type Plan, type RuleQuota } from './plans';

export { PLAN_GATES, PLANS_SOURCE, RULE_QUOTAS, ZONE_CUSTOM_RULESETS } from './generated/plans-limits';

/** The quota of a phase's rulesets of a kind, if the table gives one. */
export function ruleQuota(phase: string | undefined, kind: string | undefined): RuleQuota | undefined {
  if (phase === undefined || kind === undefined) return undefined;
  return RULE_QUOTAS.find((q) => q.phase === phase && q.kinds.includes(kind));
}

/**
 * The most rules a ruleset under `quota` holds on `plan` with `addons` (undefined: the add-ons
 * are not configured), and the add-on that counts in it: `addon` where the configuration lists
 * it, `evenWith` where the add-ons are not configured and the add-on would raise the quota on this
 * plan (the most it can be then). Undefined where it cannot be said: the add-on is configured on
 * a plan the table gives no number with it for.
 */
export function quotaOn(quota: RuleQuota, plan: Plan, addons: readonly Addon[] | undefined): { readonly limit: number; readonly addon?: Addon; readonly evenWith?: Addon } | undefined {
  const extra = quota.withAddon;
  if (!extra) return { limit: quota.limits[plan] };
  if (addons === undefined) return extra.plan === plan ? { limit: Math.max(extra.limit, quota.limits[plan]), evenWith: extra.addon } : { limit: quota.limits[plan] };
  if (!addons.includes(extra.addon)) return { limit: quota.limits[plan] };
  return extra.plan === plan ? { limit: extra.limit, addon: extra.addon } : undefined;
}

/** The next plan that allows more than `limit` under `quota`, for a message's fix. */
export function planWithMore(quota: RuleQuota, plan: Plan, limit: number): Plan | undefined {
  return PLANS.slice(PLANS.indexOf(plan) + 1).find((p) => quota.limits[p] > limit);
}

/**
 * The add-on a field needs besides its plan: Bot Management's fields (`cf.bot_management.…`,
 * the docs' "Bot Management variables", bots/reference/bot-management-variables).
 */
export function fieldAddon(name: string): Addon | undefined {
  return name.startsWith('cf.bot_management.') ? PLAN_GATES.botManagementFields.addon : undefined;
}
