/**
 * The shape of a ruleset file: required keys, types, known keys (with a did-you-mean), kinds,
 * phases and actions, and each action's parameters, with quick fixes.
 */
import { phaseFamily } from '../language/catalogue/families';
import { RULE_OBJECT_KEYS } from '../language/catalogue/action-schema';
import { actionSchema, actionsOfPhase, ruleObjectSchema } from '../language/catalogue/actions';
import { KNOWN_ACTIONS, KNOWN_PHASES, RULE_KEYS, RULE_LIMITS, RULESET_KEYS, RULESET_KINDS } from '../language/catalogue/phases';
import type { Severity } from '../language/problem';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { property, type HostNode, type HostObject, type HostScalar } from './host';
import { addPropertyEdit, renameKeyEdit, replaceScalarEdit } from './host-edits';
import { checkParameterValue, describe, type Report } from './parameter-shape';
import { ruleObjectInPhase } from './parameter-sites';
import { actionOfRule, type DocumentProblem, type ParsedRuleset } from './parsed-ruleset';

const RULESET_KEY_NAMES = RULESET_KEYS.map((k) => k.key);
const RULE_KEY_NAMES = RULE_KEYS.map((k) => k.key);

/** `defaultPhase`: the phase given for files that name none (`--phase`, `rulesets.defaultPhase`), which then need no `phase`. */
export function checkShape(model: ParsedRuleset, problems: DocumentProblem[], defaultPhase?: string): void {
  const report: Report = (code, severity, start, end, message, fixes) =>
    problems.push(fixes && fixes.length > 0 ? { code, severity, start, end, message, fixes } : { code, severity, start, end, message });
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
    checkKeys(root, RULESET_KEY_NAMES, 'ruleset', report);
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
  checkKeys(rule, model.layout === 'octorules' ? OCTORULES_RULE_KEY_NAMES : RULE_KEY_NAMES, 'rule', report);
  requireKeys(rule, requiredRuleKeys(model), 'rule', report);
  for (const key of ['id', 'version', 'ref', 'action', 'description', 'last_updated']) expectType(rule, key, 'string', report);
  expectType(rule, 'action_parameters', 'object', report);
  expectType(rule, 'enabled', 'boolean', report);
  expectType(rule, 'logging', 'object', report);
  expectType(rule, 'categories', 'array', report);
  expectType(rule, 'ratelimit', 'object', report);
  expectType(rule, 'exposed_credential_check', 'object', report);
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
  const { keys, oneRequired, anyRequired } = schema.parameters;
  const required = keys.filter((k) => k.required).map((k) => `\`${k.key}\``);
  const groups = [...(oneRequired ?? []), ...(anyRequired ?? [])].map((group) => quoteAlternatives(group));
  const needs = [...required, ...groups];
  if (needs.length > 0) report('missing-action-parameters', 'error', action.start, action.end, `a \`${actionName}\` rule needs \`action_parameters\` with ${needs.join(' and ')}`);
}

/** Where a report about a rule's action lands: its `action` value, or the rule's first character when the action is its section's default. */
type Place = { readonly start: number; readonly end: number };

/** octorules' own key of a rule (its per-rule settings), which it removes before the API sees the rule. */
const OCTORULES_RULE_KEY_NAMES = [...RULE_KEY_NAMES, 'octorules'];

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

function checkKeys(node: HostObject, known: readonly string[], what: string, report: Report): void {
  const seen = new Set<string>();
  for (const p of node.properties) {
    if (seen.has(p.key)) report('duplicate-key', 'error', p.keyStart, p.keyEnd, `\`${p.key}\` appears twice in this ${what}; only one is kept`);
    seen.add(p.key);
    if (known.includes(p.key)) continue;
    const suggestions = closestMatches(p.key, known).filter((k) => !node.properties.some((other) => other.key === k));
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : `; ${what} keys are ${quoteAlternatives(known)}`;
    report('unknown-key', 'warning', p.keyStart, p.keyEnd, `unknown ${what} key \`${p.key}\`${hint}`, suggestions.map((k) => ({ title: `Change to \`${k}\``, edits: [renameKeyEdit(p, k)] })));
  }
}

function requireKeys(node: HostObject, keys: readonly string[], what: string, report: Report): void {
  const missing = keys.filter((k) => !node.properties.some((p) => p.key === k));
  if (missing.length === 0) return;
  // On the object's first character, as the JSON language service reports missing properties.
  report('missing-key', 'error', node.start, node.start + 1, `this ${what} has no ${quoteAlternatives(missing)}, which ${missing.length > 1 ? 'are' : 'is'} required`);
}

function expectType(node: HostObject, key: string, type: 'string' | 'array' | 'object' | 'boolean', report: Report): void {
  const value = property(node, key)?.value;
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
