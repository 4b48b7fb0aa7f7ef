/**
 * STUB until helper H1's branch `actions-data` is merged (it replaces this file): the signatures
 * the documents layer codes against, with no data.
 */
import type { ActionSchema, ParameterType } from './action-schema';

export type RuleObjectName = 'ratelimit' | 'exposed_credential_check' | 'logging';

export function actionsOfPhase(_phase: string | undefined): readonly string[] | undefined {
  return undefined;
}

export function actionSchema(_action: string): ActionSchema | undefined {
  return undefined;
}

export function ruleObjectSchema(_name: RuleObjectName): (ParameterType & { readonly kind: 'object' }) | undefined {
  return undefined;
}
