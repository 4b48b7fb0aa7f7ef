/**
 * The shape of a ruleset file: required keys, types, known keys (with a did-you-mean), kinds,
 * phases and actions, and each action's parameters, with quick fixes.
 */
import { phaseFamily } from '../language/catalogue/families';
import { RULE_OBJECT_KEYS, type ObjectParameterType } from '../language/catalogue/action-schema';
import { actionSchema, actionsOfPhase, ruleObjectSchema } from '../language/catalogue/actions';
import { KNOWN_ACTIONS, KNOWN_PHASES, RULE_KEYS, RULE_LIMITS, RULESET_KEYS, RULESET_KINDS } from '../language/catalogue/phases';
import type { Severity } from '../language/problem';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { property, type HostNode, type HostObject, type HostProperty, type HostScalar } from './host';
import { addPropertyEdit, renameKeyEdit, replaceScalarEdit } from './host-edits';
import { checkParameterValue, describe, type Report } from './parameter-shape';
import { ruleObjectInPhase } from './parameter-sites';
import { actionOfRule, type DocumentProblem, type ParsedRuleset } from './parsed-ruleset';
import { onWholeCharacters } from './whole-characters';

/** Keys known to a ruleset and to a rule: their names in order, for messages, and as a set to look them up. */
interface KnownKeys {
  readonly names: readonly string[];
  readonly set: ReadonlySet<string>;
}

function knownKeys(names: readonly string[]): KnownKeys {
  return { names, set: new Set(names) };
}

const RULESET_KEYS_KNOWN = knownKeys(RULESET_KEYS.map((k) => k.key));
const RULE_KEY_NAMES = RULE_KEYS.map((k) => k.key);
const RULE_KEYS_KNOWN = knownKeys(RULE_KEY_NAMES);

type ValueKind = 'string' | 'array' | 'object' | 'boolean';

/** The types of a rule's values, where the API says them. */
const RULE_KEY_TYPES: ReadonlyMap<string, ValueKind> = new Map([
  ...['id', 'version', 'ref', 'action', 'description', 'last_updated'].map((key) => [key, 'string'] as const),
  ['action_parameters', 'object'],
  ['enabled', 'boolean'],
  ['logging', 'object'],
  ['categories', 'array'],
  ['ratelimit', 'object'],
  ['exposed_credential_check', 'object'],
]);

/** `defaultPhase`: the phase given for files that name none (`--phase`, `rulesets.defaultPhase`), which then need no `phase`. */
export function checkShape(model: ParsedRuleset, problems: DocumentProblem[], defaultPhase?: string): void {
  const text = model.text;
  // A missing key is reported on its object's first character, which may be half an emoji (a YAML key `😀:`).
  const report: Report = (code, severity, start, end, message, fixes) => {
    ({ start, end } = onWholeCharacters(text, { start, end }));
    problems.push(fixes && fixes.length > 0 ? { code, severity, start, end, message, fixes } : { code, severity, start, end, message });
  };
  const root = model.root;
  if (!root) {
    // An unreadable document has syntax errors that say why; an empty one says nothing itself.
    if (model.syntaxProblems.length === 0) report('empty-document', 'error', 0, model.text.length, 'the file has no ruleset in it: expected one with `name`, `kind`, `phase` and `rules`');
    return;
  }
  if (root.kind !== 'object') {
    report('invalid-type', 'error', root.start, root.end, 'expected a ruleset object with `name`, `kind`, `phase` and `rules`');
    return;
  }
  // A Terraform resource or an octorules section: its reader built the root from the keys it
  // knows, and what the resource needs is Terraform's to say (or the section's name gives it).
  if (model.layout === 'api') {
    checkKeys(root, RULESET_KEYS_KNOWN, 'ruleset', report);
    requireKeys(root, defaultPhase ? ['name', 'kind', 'rules'] : ['name', 'kind', 'phase', 'rules'], 'ruleset', report);
  }
  // `kind` and `phase` too: the enum checks below look at strings only, so without this a
  // number there would pass unreported.
  for (const key of ['id', 'name', 'description', 'kind', 'phase', 'last_updated']) expectType(root, key, 'string', report);
  expectType(root, 'version', 'string', report);
  expectType(root, 'rules', 'array', report);
  expectOneOf(root, 'kind', RULESET_KINDS, 'error', 'unknown-kind', report);
  expectOneOf(root, 'phase', KNOWN_PHASES, 'warning', 'unknown-phase', report);
  const rulesProperty = property(root, 'rules');
  const rules = rulesProperty?.value;
  if (rules?.kind === 'array') {
    const phase = model.phase ?? defaultPhase;
    for (const rule of rules.items) checkRule(model, rule, phase, report);
    const kind = property(root, 'kind')?.value;
    const limit = RULE_LIMITS.find((l) => l.phase === phase && kind?.kind === 'string' && l.kinds.includes(String(kind.value)));
    if (limit && rules.items.length > limit.limit) {
      report('too-many-rules', 'warning', rulesProperty!.keyStart, rulesProperty!.keyEnd, `this ruleset has ${rules.items.length} rules; ${limit.why}`);
    }
  }
}

function checkRule(model: ParsedRuleset, rule: HostNode, phase: string | undefined, report: Report): void {
  if (rule.kind !== 'object') {
    report('invalid-type', 'error', rule.start, rule.end, 'expected a rule object with `action` and `expression`');
    return;
  }
  const repeatsKeys = checkKeys(rule, model.layout === 'octorules' ? OCTORULES_RULE_KEYS : RULE_KEYS_KNOWN, 'rule', report);
  requireKeys(rule, requiredRuleKeys(model), 'rule', report);
  expectTypes(rule, RULE_KEY_TYPES, repeatsKeys, report);
  const expression = property(rule, 'expression')?.value;
  if (expression && expression.kind !== 'string') {
    const hint = expression.kind === 'boolean' ? `; in YAML, \`${expression.value}\` unquoted is a Boolean: write \`"${expression.value}"\`` : '';
    report('invalid-type', 'error', expression.start, expression.end, `expected the expression as a string${hint}`);
  }
  expectOneOf(rule, 'action', KNOWN_ACTIONS, 'warning', 'unknown-action', report);
  const action = actionOfRule(rule, model.defaultAction);
  const actionName = action?.name;
  // A rule that takes its octorules section's default action has no `action` to point at: what
  // is said of its action is said on its first character, as a missing key is.
  const at = action?.node ?? { start: rule.start, end: rule.start + 1 };
  const reported = action !== undefined && checkPacketForms(model, rule, at, action.name, phase, report);
  const logging = property(rule, 'logging');
  if (logging && actionName !== undefined && actionName !== 'skip') {
    report('logging-not-allowed', 'error', logging.keyStart, logging.keyEnd, `\`logging\` is only allowed on \`skip\` rules, not on \`${actionName}\``);
  }
  for (const name of RULE_OBJECT_KEYS) {
    const value = property(rule, name)?.value;
    if (value?.kind === 'object' && ruleObjectInPhase(name, phase) && !model.parametersInProviderShape) checkParameterValue(model.text, value, ruleObjectSchema(name), `\`${name}\``, report);
  }
  if (action !== undefined && !reported) checkActionParameters(model, rule, at, action.node, action.name, phase, report);
}

/**
 * The two forms the packet phases have been checked for since before the schemas, with their
 * own messages and fix; true when one was reported, so that the schema walk does not repeat it.
 * `ruleset: current` is the one form of `skip` the packet phases document; elsewhere a skip
 * names phases, products or rulesets, which its schema describes.
 */
function checkPacketForms(model: ParsedRuleset, rule: HostObject, action: Place, actionName: string, phase: string | undefined, report: Report): boolean {
  const parametersProperty = property(rule, 'action_parameters');
  const parameters = parametersProperty?.value;
  if (actionName === 'skip' && phaseFamily(phase) === 'magic') {
    const ruleset = property(parameters, 'ruleset')?.value;
    // A key without a value is one Terraform computes: it may well hold what is needed.
    if (!parametersProperty) {
      const actionProperty = property(rule, 'action');
      // No fix in a Terraform file (its rule may be a v4 block, which takes a block there), nor
      // where the action is the section's default (no `action` key to add it after).
      report('missing-action-parameters', 'error', action.start, action.end, 'a `skip` rule needs `action_parameters: {"ruleset": "current"}` to say what it skips', model.format !== 'hcl' && actionProperty ? [
        { title: 'Add `action_parameters: {"ruleset": "current"}`', edits: [addPropertyEdit(model.text, model.format, rule, actionProperty, 'action_parameters', { ruleset: 'current' })] },
      ] : undefined);
      return true;
    }
    if (parameters?.kind === 'object' && !ruleset) {
      report('missing-action-parameters', 'error', parametersProperty!.keyStart, parametersProperty!.keyEnd, 'a `skip` rule needs `"ruleset": "current"` in its `action_parameters`');
      return true;
    }
    if (ruleset && (ruleset.kind !== 'string' || ruleset.value !== 'current')) {
      report('invalid-action-parameters', 'error', ruleset.start, ruleset.end, `expected \`"current"\` (the only value \`skip\` accepts for \`ruleset\`), found ${describe(ruleset)}`, ruleset.kind === 'string' ? [
        { title: 'Change to `current`', edits: [replaceScalarEdit(ruleset, 'current')] },
      ] : undefined);
      return true;
    }
  } else if (actionName === 'execute') {
    const id = property(parameters, 'id')?.value;
    if (!parametersProperty || (parameters?.kind === 'object' && !id)) {
      const at = parametersProperty ?? { keyStart: action.start, keyEnd: action.end };
      report('missing-action-parameters', 'error', at.keyStart, at.keyEnd, 'an `execute` rule needs `action_parameters.id`: the id of the ruleset to execute');
      return true;
    }
    if (id && id.kind !== 'string') {
      report('invalid-action-parameters', 'error', id.start, id.end, `expected the id of the ruleset to execute as a string, found ${describe(id)}`);
      return true;
    }
  }
  return false;
}

/** Whether the phase allows the action, and the action's parameters against its schema. */
function checkActionParameters(model: ParsedRuleset, rule: HostObject, action: Place, actionNode: HostScalar | undefined, actionName: string, phase: string | undefined, report: Report): void {
  const allowed = phase === undefined ? undefined : actionsOfPhase(phase);
  if (allowed && KNOWN_ACTIONS.includes(actionName) && !allowed.includes(actionName)) {
    const suggestions = actionNode ? closestMatches(actionName, allowed) : [];
    report('action-not-allowed', 'error', action.start, action.end, `\`${actionName}\` is not an action of the phase \`${phase}\`, which allows ${quoteAlternatives(allowed)}`, suggestions.map((a) => ({ title: `Change to \`${a}\``, edits: [replaceScalarEdit(actionNode!, a)] })));
  }
  const schema = actionSchema(actionName);
  if (!schema) return;
  const parametersProperty = property(rule, 'action_parameters');
  const parameters = parametersProperty?.value;
  if (!schema.parameters) {
    if (parametersProperty) report('unknown-key', 'warning', parametersProperty.keyStart, parametersProperty.keyEnd, `\`${actionName}\` takes no \`action_parameters\`; the service ignores or refuses them`);
    return;
  }
  if (model.parametersInProviderShape) return;
  if (parameters?.kind === 'object') {
    checkParameterValue(model.text, parameters, schema.parameters, '`action_parameters`', report);
    return;
  }
  if (parametersProperty) return;
  const needs = requiredParameters(schema.parameters);
  if (needs) report('missing-action-parameters', 'error', action.start, action.end, `a \`${actionName}\` rule needs \`action_parameters\` with ${needs}`);
}

/**
 * What an action's parameters must have, as the message says it, or '' when nothing: worked out
 * once for each action, not again for each of its rules (every `block` rule of a file has none).
 */
function requiredParameters(parameters: ObjectParameterType): string {
  let needs = REQUIRED_PARAMETERS.get(parameters);
  if (needs === undefined) {
    const { keys, oneRequired, anyRequired } = parameters;
    const required = keys.filter((k) => k.required).map((k) => `\`${k.key}\``);
    const groups = [...(oneRequired ?? []), ...(anyRequired ?? [])].map((group) => quoteAlternatives(group));
    needs = [...required, ...groups].join(' and ');
    REQUIRED_PARAMETERS.set(parameters, needs);
  }
  return needs;
}
const REQUIRED_PARAMETERS = new WeakMap<ObjectParameterType, string>();

/** Where a report about a rule's action lands: its `action` value, or the rule's first character when the action is its section's default. */
type Place = { readonly start: number; readonly end: number };

/** octorules' own key of a rule (its per-rule settings), which it removes before the API sees the rule. */
const OCTORULES_RULE_KEYS = knownKeys([...RULE_KEY_NAMES, 'octorules']);

/**
 * What a rule must have where it is written: in a ruleset file, what the API requires; in
 * Terraform, the `expression` (the provider's schema says the rest, and Terraform checks it);
 * in octorules, a `ref` that names it, and an `action` only where the section has no default.
 */
function requiredRuleKeys(model: ParsedRuleset): readonly string[] {
  switch (model.layout) {
    case 'terraform':
      return ['expression'];
    case 'octorules':
      return model.defaultAction ? ['ref', 'expression'] : ['ref', 'action', 'expression'];
    default:
      return ['action', 'expression'];
  }
}

/** Reports keys repeated and keys not known; true when a key is repeated. */
function checkKeys(node: HostObject, known: KnownKeys, what: string, report: Report): boolean {
  const { properties } = node;
  // An object of a rule's size compares each key with those before it, quicker than a set; a
  // larger one keeps the keys seen in a set, so that thousands of keys are not compared pairwise.
  const seen = properties.length > PAIRWISE_KEYS ? new Set<string>() : undefined;
  let repeats = false;
  for (let i = 0; i < properties.length; i++) {
    const p = properties[i];
    const repeated = seen ? seen.has(p.key) : appearsBefore(properties, i);
    seen?.add(p.key);
    if (repeated) {
      repeats = true;
      report('duplicate-key', 'error', p.keyStart, p.keyEnd, `\`${p.key}\` appears twice in this ${what}; only one is kept`);
    }
    if (known.set.has(p.key)) continue;
    const suggestions = closestMatches(p.key, known.names).filter((k) => !node.properties.some((other) => other.key === k));
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : `; ${what} keys are ${quoteAlternatives(known.names)}`;
    report('unknown-key', 'warning', p.keyStart, p.keyEnd, `unknown ${what} key \`${p.key}\`${hint}`, suggestions.map((k) => ({ title: `Change to \`${k}\``, edits: [renameKeyEdit(p, k)] })));
  }
  return repeats;
}

/** Whether the key of `properties[index]` is the key of an earlier property. */
function appearsBefore(properties: readonly HostProperty[], index: number): boolean {
  const key = properties[index].key;
  for (let i = 0; i < index; i++) if (properties[i].key === key) return true;
  return false;
}
const PAIRWISE_KEYS = 16;

function requireKeys(node: HostObject, keys: readonly string[], what: string, report: Report): void {
  let missing: string[] | undefined;
  for (const key of keys) if (!property(node, key)) (missing ??= []).push(key);
  // Most objects have every key.
  if (!missing) return;
  // On the object's first character, as the JSON language service reports missing properties.
  report('missing-key', 'error', node.start, node.start + 1, `this ${what} has no ${quoteAlternatives(missing)}, which ${missing.length > 1 ? 'are' : 'is'} required`);
}

/**
 * expectType for each key of `types`, in one walk of the object's properties; `repeatsKeys`:
 * some key appears twice, of which the first is the one looked at, as `property` finds it.
 */
function expectTypes(node: HostObject, types: ReadonlyMap<string, ValueKind>, repeatsKeys: boolean, report: Report): void {
  if (repeatsKeys) {
    for (const [key, type] of types) expectType(node, key, type, report);
    return;
  }
  for (const p of node.properties) {
    const type = types.get(p.key);
    if (type !== undefined) expectValueType(p.key, p.value, type, report);
  }
}

function expectType(node: HostObject, key: string, type: ValueKind, report: Report): void {
  expectValueType(key, property(node, key)?.value, type, report);
}

function expectValueType(key: string, value: HostNode | undefined, type: ValueKind, report: Report): void {
  if (!value || value.kind === type) return;
  const severity = key === 'version' && value.kind === 'number' ? 'warning' : 'error';
  report('invalid-type', severity, value.start, value.end, `expected \`${key}\` to be ${type === 'array' || type === 'object' ? 'an' : 'a'} ${type}, found ${describe(value)}`);
}

function expectOneOf(node: HostObject, key: string, allowed: readonly string[], severity: Severity, code: string, report: Report): void {
  const value = property(node, key)?.value;
  if (value?.kind !== 'string' || allowed.includes(String(value.value))) return;
  const suggestions = closestMatches(String(value.value), allowed);
  const hint = suggestions.length > 0 ? `did you mean ${quoteAlternatives(suggestions)}?` : `expected one of ${quoteAlternatives(allowed.slice(0, 8))}${allowed.length > 8 ? ', …' : ''}`;
  report(code, severity, value.start, value.end, `unknown ${key} \`${value.value}\`; ${hint}`, suggestions.map((v) => ({ title: `Change to \`${v}\``, edits: [replaceScalarEdit(value, v)] })));
}
