/**
 * The service's plans, from the least to the most: a field, an operator or a function the docs
 * reserve for a plan works on that plan and every plan after it.
 */
export type Plan = 'free' | 'pro' | 'business' | 'enterprise';

export const PLANS: readonly Plan[] = ['free', 'pro', 'business', 'enterprise'];

const PLAN_NAMES: Readonly<Record<Plan, string>> = { free: 'Free', pro: 'Pro', business: 'Business', enterprise: 'Enterprise' };

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** Whether `plan` includes what `required` gives. */
export function planIncludes(plan: Plan, required: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(required);
}

/** `Business or above`, as the docs label a field. */
export function describePlan(required: Plan): string {
  return required === 'enterprise' ? 'Enterprise' : `${PLAN_NAMES[required]} or above`;
}

export function planName(plan: Plan): string {
  return PLAN_NAMES[plan];
}

/**
 * The paid add-ons `addons:` in `.rulesets.yaml` names, of those the plans table gives a
 * limit or a gate (generated/plans-limits.ts): Bot Management, whose fields
 * (`cf.bot_management.…`) an Enterprise zone has only with it, and Advanced Rate Limiting, the
 * "Enterprise with add-on" column of rate limiting rules. The names are ours.
 */
export type Addon = 'bot_management' | 'advanced_rate_limiting';

export const ADDONS: readonly Addon[] = ['bot_management', 'advanced_rate_limiting'];

const ADDON_NAMES: Readonly<Record<Addon, string>> = { bot_management: 'Bot Management', advanced_rate_limiting: 'Advanced Rate Limiting' };

export function isAddon(value: string): value is Addon {
  return (ADDONS as readonly string[]).includes(value);
}

export function addonName(addon: Addon): string {
  return ADDON_NAMES[addon];
}

/**
 * How many rules a ruleset of a phase may hold on each plan (the plans table's "Number of
 * rules" of a product), for the kinds of ruleset the product's rules live in.
 */
export interface RuleQuota {
  /** How messages name the rules: `WAF custom rules`. */
  readonly product: string;
  readonly phase: string;
  /** `zone` for a zone's entry point ruleset; `root` for an account's. */
  readonly kinds: readonly string[];
  readonly limits: Readonly<Record<Plan, number>>;
  /** Where the table says more is had with an add-on: on which plan, and how many then. */
  readonly withAddon?: { readonly addon: Addon; readonly plan: Plan; readonly limit: number };
  /** The table's entry (`section.product.property`), for the reader who checks. */
  readonly entry: string;
}

/** Something the table gives from a plan on, perhaps with an add-on there. */
export interface PlanGate {
  readonly plan: Plan;
  readonly addon?: Addon;
  readonly entry: string;
}
