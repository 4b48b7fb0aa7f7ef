/**
 * The shape of a ruleset file: required keys, types, known keys (with a did-you-mean), kinds,
 * phases and actions, and each action's parameters, with quick fixes.
 */
import { phaseFamily } from '../language/catalogue/families';
import { RULE_OBJECT_KEYS, type ObjectParameterType, type ParameterType, type RuleObjectKey } from '../language/catalogue/action-schema';
import { actionSchema, actionsOfPhase, ruleObjectSchema } from '../language/catalogue/actions';
import { RULE_ORDER_KEYS } from './entry-point';
import { KNOWN_ACTIONS, KNOWN_PHASES, RULE_KEYS, RULE_LIMITS, RULESET_KEYS, RULESET_KINDS } from '../language/catalogue/phases';
import { PROVIDER_V5 } from '../language/catalogue/generated/provider-schema';
import { providerNamesOf, withProviderNames } from '../language/catalogue/provider-schema';
import type { Severity } from '../language/problem';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { isTerraformTemplate, property, type HostNode, type HostObject, type HostProperty, type HostScalar } from './host/index';
import { addPropertyEdit, renameKeyEdit, replaceScalarEdit } from './host/index';
import { checkParameterValue, describe, hidesCheck, type Report } from './parameter-shape';
import { ruleObjectInPhase } from './parameter-sites';
import { checkRuleLimits } from './rule-limits';
import { actionOfRule, type DocumentProblem, type ParsedRuleset } from './parsed-ruleset';
import { convertPrimitive, inappropriateValue, terraformTypeName } from './terraform-types';
import { onWholeCharacters } from './host/index';

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
/** A ruleset file's and an octorules section's rule may also say where it goes among the entry point's (entry-point.ts); a Terraform resource is one resource, ordered as written. */
const ORDERED_RULE_KEYS_KNOWN = knownKeys([...RULE_KEY_NAMES, ...RULE_ORDER_KEYS.map((k) => k.key)]);

/**
 * The v5 provider's names for the API keys it names otherwise (`stale_if_error` for
 * `stale-if-error`): a Terraform file's list of rules is v5's shape, whose objects are checked
 * by these names.
 */
const PROVIDER_V5_NAMES = providerNamesOf(PROVIDER_V5);

/** A parameter type as the ruleset's file names its keys: the provider's names in a Terraform file. */
function asWritten<T extends ParameterType>(model: ParsedRuleset, type: T): T {
  return model.layout === 'terraform' ? withProviderNames(type, PROVIDER_V5_NAMES) : type;
}

type ValueKind = 'string' | 'array' | 'object' | 'boolean';

/** The types of a rule's values, where the API says them. */
const RULE_KEY_TYPES: ReadonlyMap<string, ValueKind> = new Map([
  ...['id', 'version', 'ref', 'action', 'description', 'last_updated', 'before', 'after'].map((key) => [key, 'string'] as const),
  ['action_parameters', 'object'],
  ['enabled', 'boolean'],
  ['logging', 'object'],
  ['categories', 'array'],
  ['ratelimit', 'object'],
  ['exposed_credential_check', 'object'],
]);

/** `defaultPhase`: the phase given for files that name none (`--phase`, `phase:` in .rulesets.yaml, `rulesets.defaultPhase`), whose rules are then checked for it. */
export function checkShape(model: ParsedRuleset, problems: DocumentProblem[], defaultPhase?: string): void {
  const text = model.text;
  // The values Terraform fills in that hide a check (`terraform-unknown`, whose message is then
  // the value's label) are said once for the resource, not once for each.
  const unknowns: Unknown[] = [];
  const report: Report = (code, severity, start, end, message, fixes) => {
    // A missing key is reported on its object's first character, which may be half an emoji (a YAML key `😀:`).
    ({ start, end } = onWholeCharacters(text, { start, end }));
    if (code === TERRAFORM_UNKNOWN) {
      if (!model.knownValues?.some((k) => k.start < end && start < k.end)) unknowns.push({ start, end, label: message });
    } else problems.push(fixes && fixes.length > 0 ? { code, severity, start, end, message, fixes } : { code, severity, start, end, message });
  };
  checkRoot(model, report, defaultPhase);
  if (unknowns.length > 0) problems.push(unknownsHint(model.text, unknowns));
}

const TERRAFORM_UNKNOWN = 'terraform-unknown';

/** A value Terraform fills in, where it hides a check: its characters, and how messages name it (`` `expression` ``). */
interface Unknown {
  readonly start: number;
  readonly end: number;
  readonly label: string;
}

/**
 * The one hint of a resource on the first value Terraform fills in that hides a check:
 * "`expression` is filled in by Terraform (`var.expr`): not checked", and how many more there
 * are, by name.
 */
function unknownsHint(text: string, unknowns: readonly Unknown[]): DocumentProblem {
  const [first, ...rest] = [...unknowns].sort((a, b) => a.start - b.start);
  const written = text.slice(first.start, first.end).replace(/\s+/g, ' ');
  const shown = written.length > 60 ? `${written.slice(0, 59)}…` : written;
  const others = [...new Set(rest.map((u) => u.label))];
  const more = rest.length === 0 ? '' : `; nor ${rest.length === 1 ? 'is 1 more value' : `are ${rest.length} more values`} of this resource that Terraform fills in (${others.join(', ')})`;
  return { code: TERRAFORM_UNKNOWN, severity: 'hint', start: first.start, end: first.end, message: `${first.label} is filled in by Terraform (\`${shown}\`): not checked${more}` };
}

function checkRoot(model: ParsedRuleset, report: Report, defaultPhase: string | undefined): void {
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
    // Only `rules`: a file of rules alone is what `PUT …/phases/{phase}/entrypoint` takes (the
    // phase is in the path) and an update by id needs no more; `name`, `kind` and `phase` are
    // `POST …/rulesets`' to require, and `rulesets create` asks for them (local-ruleset.ts).
    requireKeys(root, ['rules'], 'ruleset', report);
    if (defaultPhase === undefined && !property(root, 'phase')) report('phase-not-given', 'information', root.start, root.start + 1, PHASE_NOT_GIVEN_MESSAGE);
  }
  // `kind` and `phase` too: the enum checks below look at strings only, so without this a
  // number there would pass unreported.
  const terraform = model.format === 'hcl';
  for (const key of ['id', 'name', 'description', 'kind', 'phase', 'last_updated', 'source']) expectType(root, key, 'string', report, terraform);
  expectType(root, 'version', 'string', report, terraform);
  expectType(root, 'rules', 'array', report, terraform);
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

const PHASE_NOT_GIVEN_MESSAGE =
  'this ruleset names no phase, so its expressions and actions are checked only for what holds in every phase: give it with `phase:` in this file, `--phase` on the command line, `phase:` in .rulesets.yaml, or the `rulesets.defaultPhase` setting in the editor';

function checkRule(model: ParsedRuleset, rule: HostNode, phase: string | undefined, report: Report): void {
  const terraform = model.format === 'hcl';
  if (rule.kind !== 'object') {
    // In HCL the API's "object" is written `{ key = value }` (a v4 `rules` block is always one).
    report('invalid-type', 'error', rule.start, rule.end, terraform ? 'expected a rule: an object such as `{ action = "block", expression = "…" }`' : 'expected a rule object with `action` and `expression`');
    return;
  }
  const repeatsKeys = checkKeys(rule, model.layout === 'octorules' ? OCTORULES_RULE_KEYS : model.layout === 'terraform' ? RULE_KEYS_KNOWN : ORDERED_RULE_KEYS_KNOWN, 'rule', report);
  requireKeys(rule, requiredRuleKeys(model), 'rule', report);
  expectTypes(rule, RULE_KEY_TYPES, repeatsKeys, report, terraform);
  const expression = property(rule, 'expression')?.value;
  // Terraform's own conversion makes a number or bool the string it reads as (`expression =
  // true` is the expression `true`, whose site parsed-ruleset.ts makes); expectTypes says the rest.
  if (terraform) expectValueType('expression', expression, 'string', report, true);
  else if (expression && expression.kind !== 'string') {
    const hint = expression.kind === 'boolean' ? `; in YAML, \`${expression.value}\` unquoted is a Boolean: write \`"${expression.value}"\`` : '';
    report('invalid-type', 'error', expression.start, expression.end, `expected the expression as a string${hint}`);
  }
  // The service's actions are a closed list, and KNOWN_ACTIONS is its own types': one outside it is refused.
  if (!isTerraformTemplate(property(rule, 'action')?.value)) expectOneOf(rule, 'action', KNOWN_ACTIONS, 'error', 'unknown-action', report, 'the service refuses a rule whose action it does not define');
  const action = actionOfRule(rule, model.defaultAction);
  const actionName = action?.name;
  if (terraform) reportUnknowns(model, rule, actionName, phase, report);
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
    if (value?.kind === 'object' && ruleObjectInPhase(name, phase) && !model.parametersInProviderShape) checkParameterValue(model.text, value, asWritten(model, ruleObjectSchema(name)), `\`${name}\``, report, terraform);
  }
  if (action !== undefined && !reported) checkActionParameters(model, rule, at, action.node, action.name, phase, report);
  checkRuleLimits(model, rule, actionName, phase, report);
}

/**
 * The two forms the packet phases have been checked for since before the schemas, with their
 * own messages and fix; true when one was reported, so that the schema walk does not repeat it.
 * `ruleset: current` is the one form of `skip` the packet phases document; elsewhere a skip
 * names phases, products or rulesets, which its schema describes.
 */
function checkPacketForms(model: ParsedRuleset, rule: HostObject, action: Place, actionName: string, phase: string | undefined, report: Report): boolean {
  const terraform = model.format === 'hcl';
  const parametersProperty = property(rule, 'action_parameters');
  const parameters = parametersProperty?.value;
  if (actionName === 'skip' && phaseFamily(phase) === 'magic') {
    const rulesetProperty = property(parameters, 'ruleset');
    const ruleset = rulesetProperty?.value;
    // A key without a value is one Terraform computes: it may well hold what is needed.
    if (!parametersProperty) {
      const actionProperty = property(rule, 'action');
      // No fix in a Terraform file (its rule may be a v4 block, which takes a block there), nor
      // where the action is the section's default (no `action` key to add it after).
      const needed = !terraform ? '`action_parameters: {"ruleset": "current"}`' : model.parametersInProviderShape ? '`action_parameters { ruleset = "current" }`' : '`action_parameters = { ruleset = "current" }`';
      report('missing-action-parameters', 'error', action.start, action.end, `a \`skip\` rule needs ${needed} to say what it skips`, !terraform && actionProperty ? [
        { title: 'Add `action_parameters: {"ruleset": "current"}`', edits: [addPropertyEdit(model.text, model.format, rule, actionProperty, 'action_parameters', { ruleset: 'current' })] },
      ] : undefined);
      return true;
    }
    if (parameters?.kind === 'object' && !rulesetProperty) {
      report('missing-action-parameters', 'error', parametersProperty!.keyStart, parametersProperty!.keyEnd, `a \`skip\` rule needs ${terraform ? '`ruleset = "current"`' : '`"ruleset": "current"`'} in its \`action_parameters\``);
      return true;
    }
    // `ruleset` Terraform fills in: what is checked of it is not known.
    const unknown = rulesetProperty?.filledIn ?? (terraform && isTerraformTemplate(ruleset) ? ruleset : undefined);
    if (unknown) {
      report(TERRAFORM_UNKNOWN, 'hint', unknown.start, unknown.end, '`ruleset`');
      return true;
    }
    if (ruleset && terraform && (ruleset.kind === 'object' || ruleset.kind === 'array')) {
      report('invalid-type', 'error', ruleset.start, ruleset.end, inappropriateValue('ruleset', `string required, but have ${terraformTypeName(ruleset)}`));
      return true;
    }
    if (ruleset && (ruleset.kind !== 'string' || ruleset.value !== 'current') && !(terraform && ruleset.kind === 'null')) {
      report('invalid-action-parameters', 'error', ruleset.start, ruleset.end, `expected \`"current"\` (the only value \`skip\` accepts for \`ruleset\`), found ${describe(ruleset)}`, ruleset.kind === 'string' ? [
        { title: 'Change to `current`', edits: [replaceScalarEdit(ruleset, 'current')] },
      ] : undefined);
      return true;
    }
  } else if (actionName === 'execute') {
    // An id Terraform fills in (`cloudflare_ruleset.custom.id`, `data.cloudflare_rulesets.x.rulesets[0].id`)
    // is there: the property without a value.
    const idProperty = property(parameters, 'id');
    const id = idProperty?.value;
    if (!parametersProperty || (parameters?.kind === 'object' && !idProperty)) {
      const at = parametersProperty ?? { keyStart: action.start, keyEnd: action.end };
      report('missing-action-parameters', 'error', at.keyStart, at.keyEnd, 'an `execute` rule needs `action_parameters.id`: the id of the ruleset to execute');
      return true;
    }
    if (id && terraform) {
      // Terraform converts a number or bool to the string; what it refuses, it says.
      const conversion = convertPrimitive(id, 'string');
      if (conversion && 'refused' in conversion) {
        report('invalid-type', 'error', id.start, id.end, inappropriateValue('id', conversion.refused));
        return true;
      }
    } else if (id && id.kind !== 'string') {
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
    checkParameterValue(model.text, parameters, asWritten(model, schema.parameters), '`action_parameters`', report, model.format === 'hcl');
    if (actionName === 'compress_response') checkCompressionOrder(parameters, report);
    else if (actionName === 'skip' && phase === 'http_request_firewall_custom') checkCustomRuleSkip(parameters, report);
    return;
  }
  if (parametersProperty) return;
  const needs = requiredParameters(schema.parameters);
  if (needs) report('missing-action-parameters', 'error', action.start, action.end, `a \`${actionName}\` rule needs \`action_parameters\` with ${needs}`);
}

/** The algorithms that end a compression rule's list: each must be its last (the Compression Rules settings page, ACTION_SOURCES.compression). */
const LAST_ALGORITHMS = ['none', 'default', 'auto'];

/** `none`, `default` or `auto` before another algorithm, which the docs forbid: each of them must be the last. */
function checkCompressionOrder(parameters: HostObject, report: Report): void {
  const algorithms = property(parameters, 'algorithms')?.value;
  if (algorithms?.kind !== 'array') return;
  for (let i = 0; i < algorithms.items.length - 1; i++) {
    const name = property(algorithms.items[i], 'name')?.value;
    if (name?.kind !== 'string' || !LAST_ALGORITHMS.includes(String(name.value))) continue;
    const others = LAST_ALGORITHMS.filter((a) => a !== name.value).map((a) => `\`${a}\``).join(' and ');
    report('invalid-action-parameters', 'error', name.start, name.end, `\`${String(name.value)}\` must be the last of \`algorithms\`, as must ${others}: move it after the others, or remove them`);
  }
}

/**
 * The skip options of WAF custom rules are `ruleset`, `phase`, `phases` and `products` (the skip
 * options page, ACTION_SOURCES.skipOptions); `rules` and `rulesets` are skip options of the
 * managed phase (ACTION_SOURCES.wafExceptions), which the action's schema holds for every phase.
 */
function checkCustomRuleSkip(parameters: HostObject, report: Report): void {
  for (const p of parameters.properties) {
    if (p.key !== 'rules' && p.key !== 'rulesets') continue;
    report('unknown-key', 'warning', p.keyStart, p.keyEnd, `\`${p.key}\` is not a skip option of WAF custom rules, which skip with \`ruleset\`, \`phase\`, \`phases\` or \`products\`; \`${p.key}\` skips rules of a managed ruleset, in a rule of \`http_request_firewall_managed\``);
  }
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
const OCTORULES_RULE_KEYS = knownKeys([...RULE_KEY_NAMES, ...RULE_ORDER_KEYS.map((k) => k.key), 'octorules']);

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
function expectTypes(node: HostObject, types: ReadonlyMap<string, ValueKind>, repeatsKeys: boolean, report: Report, terraform: boolean): void {
  if (repeatsKeys) {
    for (const [key, type] of types) expectType(node, key, type, report, terraform);
    return;
  }
  for (const p of node.properties) {
    const type = types.get(p.key);
    if (type !== undefined) expectValueType(p.key, p.value, type, report, terraform);
  }
}

function expectType(node: HostObject, key: string, type: ValueKind, report: Report, terraform: boolean): void {
  expectValueType(key, property(node, key)?.value, type, report, terraform);
}

/** The value's type, or in a Terraform file the value as Terraform converts it (terraform-types.ts), with Terraform's message where it cannot. */
function expectValueType(key: string, value: HostNode | undefined, type: ValueKind, report: Report, terraform: boolean): void {
  if (!value || value.kind === type) return;
  if (terraform) {
    // `null` is no value; a template Terraform fills in is a string of its own, converted when it is known.
    if (value.kind === 'null' || isTerraformTemplate(value)) return;
    if (type === 'string' || type === 'boolean') {
      const conversion = convertPrimitive(value, type);
      if (conversion && 'refused' in conversion) report('invalid-type', 'error', value.start, value.end, inappropriateValue(key, conversion.refused));
      return;
    }
    const wanted = type === 'array' ? (key === 'rules' ? 'list of object' : 'list of string') : 'object';
    report('invalid-type', 'error', value.start, value.end, inappropriateValue(key, `${wanted} required, but have ${terraformTypeName(value)}`));
    return;
  }
  const severity = key === 'version' && value.kind === 'number' ? 'warning' : 'error';
  report('invalid-type', severity, value.start, value.end, `expected \`${key}\` to be ${type === 'array' || type === 'object' ? 'an' : 'a'} ${type}, found ${describe(value)}`);
}

/**
 * The values of a rule Terraform fills in (a property without a value, or a template where no
 * expression is) that hide one of its checks: its expression, its action, the parameters or
 * rule objects whose shape is checked. Reported as TERRAFORM_UNKNOWN, for checkShape to say once.
 */
function reportUnknowns(model: ParsedRuleset, rule: HostObject, action: string | undefined, phase: string | undefined, report: Report): void {
  for (const p of rule.properties) {
    // An expression's template is an expression site, whose `${…}` says so itself.
    const at = p.value === undefined ? p.filledIn : p.key !== 'expression' && isTerraformTemplate(p.value) ? p.value : undefined;
    if (at && hidesRuleCheck(model, p.key, action, phase)) report(TERRAFORM_UNKNOWN, 'hint', at.start, at.end, `\`${p.key}\``);
  }
}

function hidesRuleCheck(model: ParsedRuleset, key: string, action: string | undefined, phase: string | undefined): boolean {
  switch (key) {
    case 'expression':
    case 'action':
      return true;
    case 'action_parameters':
      if (action === undefined) return false;
      // A packet `skip` says what it skips there, in either shape; the rest is the v5 list's.
      if (action === 'skip' && phaseFamily(phase) === 'magic') return true;
      return !model.parametersInProviderShape && hidesCheck(actionSchema(action)?.parameters);
    default:
      return !model.parametersInProviderShape && (RULE_OBJECT_KEYS as readonly string[]).includes(key) && ruleObjectInPhase(key as RuleObjectKey, phase);
  }
}

/** `consequence`: what the service does with such a value, said after the value (the service refuses an unknown action). */
function expectOneOf(node: HostObject, key: string, allowed: readonly string[], severity: Severity, code: string, report: Report, consequence?: string): void {
  const value = property(node, key)?.value;
  if (value?.kind !== 'string' || allowed.includes(String(value.value))) return;
  const suggestions = closestMatches(String(value.value), allowed);
  const hint = suggestions.length > 0 ? `did you mean ${quoteAlternatives(suggestions)}?` : `expected one of ${quoteAlternatives(allowed.slice(0, 8))}${allowed.length > 8 ? ', …' : ''}`;
  report(code, severity, value.start, value.end, `unknown ${key} \`${value.value}\`${consequence ? ` (${consequence})` : ''}; ${hint}`, suggestions.map((v) => ({ title: `Change to \`${v}\``, edits: [replaceScalarEdit(value, v)] })));
}
