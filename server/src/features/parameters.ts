/**
 * A rule's parameters as completion and hover read them: the schema type at a path from the
 * rule (`['action_parameters', 'from_value', 'status_code']`, `['ratelimit', 'period']`), the keys
 * an object takes, and what a key is in words (type, required, allowed values, range). The
 * types are the catalogue's (language/catalogue/actions.ts, with the documented facts applied).
 */
import { RULE_OBJECT_KEYS, type ParameterKey, type ParameterType, type RuleObjectKey } from '../language/catalogue/action-schema';
import { actionSchema, actionsOfPhase, parameterAt, parameterNote, PHASE_ACTIONS, ruleObjectSchema, todaysForms } from '../language/catalogue/actions';
import { property, type HostNode } from '../documents/host/index';

/** A step from a rule into its objects: a key, or an array index. */
export type Step = string | number;

/** `ratelimit`, `exposed_credential_check`, `logging`: the rule-level objects the catalogue describes. */
export function isRuleObjectKey(key: Step | undefined): key is RuleObjectKey {
  return (RULE_OBJECT_KEYS as readonly (Step | undefined)[]).includes(key);
}

/** The rule keys whose value the schemas describe. */
export function isSchemaKey(key: Step | undefined): key is 'action_parameters' | RuleObjectKey {
  return key === 'action_parameters' || isRuleObjectKey(key);
}

/**
 * The rule as its ruleset reads it: in an octorules section with a default action, a rule that
 * names none has that action (its parameters are that action's), so the rule is given an `action`
 * that is nowhere in the text.
 */
export function ruleAsRead(rule: HostNode, defaultAction: string | undefined): HostNode {
  if (defaultAction === undefined || rule.kind !== 'object' || property(rule, 'action')) return rule;
  const action: HostNode = { kind: 'string', value: defaultAction, start: rule.start, end: rule.start };
  return { ...rule, properties: [...rule.properties, { key: 'action', keyStart: rule.start, keyEnd: rule.start, value: action }] };
}

/** The rule's action as written, when it is a string. */
export function actionOf(rule: HostNode | undefined): string | undefined {
  const action = property(rule, 'action')?.value;
  return action?.kind === 'string' ? String(action.value) : undefined;
}

/**
 * The type at `path` from the rule, or undefined where no schema describes it: a path that
 * starts elsewhere than `action_parameters` or a rule-level object, an action the API's types
 * lack, a key they do not have.
 */
export function ruleParameterType(rule: HostNode | undefined, path: readonly Step[]): ParameterType | undefined {
  const [first, ...rest] = path;
  if (first === 'action_parameters') return actionParameterType(actionOf(rule), rest);
  if (isRuleObjectKey(first)) return parameterAt(todaysForms(ruleObjectSchema(first)), rest);
  return undefined;
}

/** The type at `path` inside the `action_parameters` of `action`; the whole object for `[]`. */
export function actionParameterType(action: string | undefined, path: readonly Step[] = []): ParameterType | undefined {
  // Today's forms only: the editor teaches those, though the check also takes older ones.
  const parameters = action === undefined ? undefined : actionSchema(action)?.parameters;
  return parameters && parameterAt(todaysForms(parameters), path);
}

/**
 * The keys an object type takes; for a union of objects (`uri` is a path or a query rewrite),
 * the keys of every member, each required only when every member requires it.
 */
export function objectKeys(type: ParameterType | undefined): readonly ParameterKey[] {
  if (type?.kind === 'object') return type.keys;
  if (type?.kind !== 'union') return [];
  const members = type.types.filter((t) => t.kind === 'object');
  const keys = new Map<string, ParameterKey>();
  for (const member of members) {
    for (const key of member.keys) {
      const everywhere = members.every((m) => m.keys.some((k) => k.key === key.key && k.required));
      if (!keys.has(key.key)) keys.set(key.key, { ...key, required: everywhere, type: parameterAt(type, [key.key]) ?? key.type });
    }
  }
  return [...keys.values()];
}

/** The key `key` of the object at `path`, with whether it is required. */
export function parameterKey(rule: HostNode | undefined, path: readonly Step[], key: string): ParameterKey | undefined {
  return objectKeys(ruleParameterType(rule, path)).find((k) => k.key === key);
}

/** The type in a few words: `number (301, 302, 303, 307, 308)`, `value expression`, `array of string`. */
export function typeText(type: ParameterType): string {
  switch (type.kind) {
    case 'string':
      if (type.expression) return `${type.expression} expression`;
      return type.values ? `string (${listed(type.values.map((v) => JSON.stringify(v)))})` : 'string';
    case 'number': {
      if (type.values) return `number (${listed(type.values.map(String))})`;
      const range = rangeText(type);
      return `${type.integer ? 'integer' : 'number'}${range ? ` ${range}` : ''}`;
    }
    case 'boolean':
      return type.values && type.values.length === 1 ? String(type.values[0]) : 'boolean';
    case 'array':
      return `array of ${typeText(type.items)}`;
    case 'object':
      return type.values && type.keys.length === 0 ? `map of ${typeText(type.values)}` : 'object';
    case 'union':
      return [...new Set(type.types.map(typeText))].join(' or ');
    case 'any':
      return 'any value';
  }
}

/** Up to a handful of values; past that, how many (they are listed in the documentation). */
function listed(values: readonly string[]): string {
  return values.length <= 6 ? values.join(', ') : `one of ${values.length}`;
}

function rangeText(type: { readonly min?: number; readonly max?: number }): string {
  if (type.min !== undefined && type.max !== undefined) return `${type.min}–${type.max}`;
  if (type.min !== undefined) return `≥ ${type.min}`;
  if (type.max !== undefined) return `≤ ${type.max}`;
  return '';
}

/** The values a type allows, as JSON: enum strings and numbers, both Booleans; none for open types. */
export function allowedValues(type: ParameterType | undefined): readonly (string | number | boolean)[] {
  if (!type) return [];
  switch (type.kind) {
    case 'string':
    case 'number':
      return type.values ?? [];
    case 'boolean':
      return type.values ?? [true, false];
    case 'union':
      return [...new Set(type.types.flatMap((t) => allowedValues(t)))];
    default:
      return [];
  }
}

const code = (text: string) => `\`${text}\``;

/**
 * What the key `key` of the object at `path` (from the rule) is, in Markdown sections: type,
 * required, allowed values or range, key groups, expression kind, and the catalogue's note.
 */
export function keySections(rule: HostNode | undefined, path: readonly Step[], key: ParameterKey): string[] {
  const type = key.type;
  const sections = [`${code(key.key)}: ${typeText(type)}, ${key.required ? 'required' : 'optional'} (${ownerText(rule, path)}).`];
  const note = noteOf(rule, [...path, key.key]);
  if (note) sections.push(note);
  const values = allowedValues(type);
  if (values.length > 0 && type.kind !== 'boolean') sections.push(`Allowed: ${values.map((v) => code(JSON.stringify(v))).join(', ')}.`);
  const inner = type.kind === 'array' ? type.items : type;
  if (type.kind === 'array' && allowedValues(inner).length > 0) sections.push(`Each item one of ${allowedValues(inner).map((v) => code(JSON.stringify(v))).join(', ')}.`);
  if (type.kind === 'string' && type.expression === 'value') {
    sections.push('A value expression (e.g. `concat("/v2", http.request.uri.path)`): checked, completed and explained as the rule\'s `expression` is, with the functions a value may use.');
  }
  if (type.kind === 'string' && type.expression === 'filter') sections.push('A filter expression, checked as the rule\'s `expression` is.');
  const keys = objectKeys(type.kind === 'array' ? type.items : type);
  if (keys.length > 0) sections.push(`Keys: ${keys.map((k) => `${code(k.key)}${k.required ? ' (required)' : ''}`).join(', ')}.`);
  if (type.kind === 'object') {
    for (const group of type.oneRequired ?? []) sections.push(`Exactly one of ${group.map(code).join(', ')}.`);
    for (const group of type.anyRequired ?? []) sections.push(`At least one of ${group.map(code).join(', ')}.`);
    for (const group of type.exclusive ?? []) sections.push(`At most one of ${group.map(code).join(', ')}.`);
  }
  if (type.kind === 'string' && type.maxLength !== undefined) sections.push(`At most ${type.maxLength} characters.`);
  if (type.kind === 'array' && (type.minItems !== undefined || type.maxItems !== undefined)) sections.push(`${rangeText({ min: type.minItems, max: type.maxItems })} items.`);
  return sections;
}

/** The catalogue's note on the parameter at `path` from the rule (parameterNote of actions.ts). */
function noteOf(rule: HostNode | undefined, path: readonly Step[]): string | undefined {
  const [first, ...rest] = path;
  if (first === 'action_parameters') {
    const action = actionOf(rule);
    return action === undefined ? undefined : parameterNote(action, rest);
  }
  return isRuleObjectKey(first) ? parameterNote(first, rest) : undefined;
}

/** Who a path belongs to, as a key's documentation says it: "a parameter of `redirect`", "in the rule's `ratelimit`". */
function ownerText(rule: HostNode | undefined, path: readonly Step[]): string {
  return path[0] === 'action_parameters' ? `a parameter of \`${actionOf(rule) ?? 'the action'}\`` : `in the rule's \`${String(path[0])}\``;
}

/** The phases that allow an action, from the catalogue; empty when no phase's list names it. */
export function phasesOfAction(action: string): readonly string[] {
  return PHASE_ACTIONS.filter((row) => row.actions?.includes(action)).map((row) => row.phase);
}

/** The actions the phase allows, when the catalogue knows its list. */
export function phaseActions(phase: string | undefined): readonly string[] | undefined {
  return phase === undefined ? undefined : actionsOfPhase(phase);
}
