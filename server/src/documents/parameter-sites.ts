/**
 * The strings of a rule's parameters that their schema (action-schema.ts) marks as
 * expressions: each is one more expression site of the ruleset (parsed-ruleset.ts).
 */
import type { ParameterExpressionKind, ParameterType, RuleObjectKey } from '../language/catalogue/action-schema';
import { ruleObjectScope } from '../language/catalogue/actions';
import type { HostNode, HostScalar } from './host/index';

/** A string the schema marks as an expression, found in a rule's parameters. */
export interface ExpressionString {
  readonly node: HostScalar;
  readonly kind: ParameterExpressionKind;
  /** From the rule to the string: `['action_parameters', 'uri', 'path', 'expression']`. */
  readonly path: readonly string[];
  /**
   * In a YAML flow collection (`{…}`, `[…]`), where a plain scalar cannot hold `{}[],`. An
   * array's items count as in one: the host tree does not say which style a sequence has, and
   * the edits of a scalar in a flow collection are safe in a block one.
   */
  readonly inFlow: boolean;
}

/**
 * Every string under `node` (at `path` from its rule) that `type` marks as an expression.
 * Recursive on the host tree, which nests MAX_NESTING levels at most.
 */
export function expressionStrings(node: HostNode, type: ParameterType, path: readonly string[], found: ExpressionString[], inFlow = false): void {
  switch (type.kind) {
    case 'string':
      // An empty string where it stands for a default is no expression (`counting_expression: ""`).
      if (type.expression && node.kind === 'string' && !(type.emptyMeansDefault && node.value === '')) found.push({ node, kind: type.expression, path, inFlow });
      return;
    case 'object':
      if (node.kind !== 'object') return;
      for (const p of node.properties) {
        const keyType = type.keys.find((k) => k.key === p.key)?.type ?? type.values;
        if (p.value && keyType) expressionStrings(p.value, keyType, [...path, p.key], found, !node.block);
      }
      return;
    case 'array':
      if (node.kind === 'array') node.items.forEach((item, i) => expressionStrings(item, type.items, [...path, String(i)], found, true));
      return;
    case 'union':
      // The first shape that has expressions where the value has strings: the shapes of a
      // union differ by their keys (a header `set` from an `expression` or from a `value`).
      for (const member of type.types) {
        const before = found.length;
        expressionStrings(node, member, path, found, inFlow);
        if (found.length > before) return;
      }
      return;
    default:
      return;
  }
}

/**
 * Whether a rule-level object is read against its schema in the phase: not outside the phases
 * it belongs to (a `ratelimit` in `magic_transit`, an `exposed_credential_check` there), where
 * nothing documents what the service does with it, and its expressions would be read against
 * the wrong fields. Anywhere when the phase is not known.
 */
export function ruleObjectInPhase(key: RuleObjectKey, phase: string | undefined): boolean {
  const phases = ruleObjectScope(key).phases;
  return phase === undefined || phases === undefined || phases.includes(phase);
}
