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
