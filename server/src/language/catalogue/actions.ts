/**
 * What the API's types cannot say about actions, by hand, each fact with its source: which
 * actions each phase allows, which strings are expressions (and of which kind), documented ranges,
 * and groups of keys of which one is required or at most one allowed. `actionSchema` gives an
 * action's generated schema (generated/action-parameters.ts) with these facts applied.
 *
 * Where a source does not say clearly, we allow more: a false error is worse than a missed one.
 */
import { RULE_OBJECT_KEYS, type ActionSchema, type ObjectParameterType, type ParameterExpressionKind, type ParameterType, type RuleObjectKey } from './action-schema';
import { ACTION_PARAMETERS, RULE_OBJECTS } from './generated/action-parameters';
import { PACKET_PHASE_ACTIONS } from './phases';

/** The documents the facts below come from, with the commit each was read at. */
export const ACTION_SOURCES = {
  actions: { repository: 'cloudflare/cloudflare-docs', path: 'src/content/docs/ruleset-engine/rules-language/actions.mdx', commit: '0309c8bed23afe438f28fd5026b5a7999e653081' },
  phasesList: { repository: 'cloudflare/cloudflare-docs', path: 'src/content/docs/ruleset-engine/reference/phases-list.mdx', commit: '046f5f9e5fdf226151e76964294d856025c97ce6' },
  apiTypes: { repository: 'cloudflare/cloudflare-typescript', path: 'src/resources/rulesets/rules.ts', commit: 'faaaf89ed8064a9fb54de538ec3e89487f1302b0' },
  language: { repository: 'this project', path: 'shared/spec/LANGUAGE.md §8, §11', commit: '' },
} as const;

export type ActionSourceId = keyof typeof ACTION_SOURCES;

// ---- Actions per phase ----

export interface PhaseActions {
  readonly phase: string;
  /** The actions a rule of the phase may have; undefined when no source says (then nothing is checked). */
  readonly actions?: readonly string[];
  readonly sources: readonly ActionSourceId[];
  /** Why the list is what it is, in a few words (ours). */
  readonly why: string;
}

/** The actions of the WAF's request-blocking phases: actions.mdx lists them for security products. */
const SECURITY_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;

export const PHASE_ACTIONS: readonly PhaseActions[] = [
  { phase: 'magic_transit', actions: PACKET_PHASE_ACTIONS, sources: ['language'], why: 'Magic Firewall rules block or skip packets; execute deploys a ruleset.' },
  { phase: 'magic_transit_managed', actions: PACKET_PHASE_ACTIONS, sources: ['language'], why: 'The packet phases share their actions.' },
  { phase: 'magic_transit_ids_managed', actions: PACKET_PHASE_ACTIONS, sources: ['language'], why: 'The packet phases share their actions.' },
  { phase: 'magic_transit_ratelimit', actions: PACKET_PHASE_ACTIONS, sources: ['language'], why: 'The packet phases share their actions.' },
  { phase: 'http_request_transform', actions: ['rewrite'], sources: ['actions'], why: 'URL Rewrite Rules rewrite the path and query.' },
  { phase: 'http_request_late_transform', actions: ['rewrite'], sources: ['actions'], why: 'Request Header Transform Rules set, add or remove headers.' },
  { phase: 'http_response_headers_transform', actions: ['rewrite'], sources: ['actions'], why: 'Response Header Transform Rules set, add or remove headers.' },
  { phase: 'http_request_dynamic_redirect', actions: ['redirect'], sources: ['actions'], why: 'Single Redirects.' },
  { phase: 'http_request_redirect', actions: ['redirect'], sources: ['actions'], why: 'Bulk Redirects.' },
  { phase: 'http_request_origin', actions: ['route'], sources: ['actions'], why: 'Origin Rules.' },
  { phase: 'http_config_settings', actions: ['set_config'], sources: ['actions'], why: 'Configuration Rules.' },
  { phase: 'http_response_compression', actions: ['compress_response'], sources: ['actions'], why: 'Compression Rules.' },
  { phase: 'http_request_cache_settings', actions: ['set_cache_settings'], sources: ['actions'], why: 'Cache Rules.' },
  { phase: 'http_custom_errors', actions: ['serve_error'], sources: ['actions'], why: 'Custom Error Rules.' },
  { phase: 'http_log_custom_fields', actions: ['log_custom_field'], sources: ['actions'], why: 'Logpush custom fields.' },
  {
    phase: 'http_request_firewall_custom',
    actions: [...SECURITY_ACTIONS, 'skip', 'execute', 'rewrite'],
    sources: ['actions'],
    why: 'WAF custom rules; execute deploys a custom ruleset at account level; rewrite adds the exposed-credential header at account level.',
  },
  { phase: 'http_ratelimit', actions: [...SECURITY_ACTIONS, 'skip', 'execute'], sources: ['actions'], why: 'Rate limiting rules; execute deploys a rate limiting ruleset at account level.' },
  { phase: 'http_request_firewall_managed', actions: [...SECURITY_ACTIONS, 'skip', 'execute'], sources: ['actions'], why: 'Managed rulesets are deployed with execute; skip makes exceptions.' },
  { phase: 'http_response_firewall_managed', actions: [...SECURITY_ACTIONS, 'skip', 'execute'], sources: ['actions'], why: 'Managed rulesets are deployed with execute; skip makes exceptions.' },
  { phase: 'ddos_l7', actions: [...SECURITY_ACTIONS, 'execute', 'ddos_dynamic', 'force_connection_close'], sources: ['actions'], why: 'The DDoS managed ruleset is deployed with execute; its rules use these actions.' },
  { phase: 'ddos_l4', actions: ['block', 'log', 'execute', 'ddos_dynamic'], sources: ['actions'], why: 'The network DDoS managed ruleset is deployed with execute.' },
  { phase: 'http_request_sanitize', sources: ['phasesList'], why: 'URL normalization is set up by its own settings, not by rules we can check.' },
  { phase: 'http_request_sbfm', sources: ['phasesList'], why: 'Super Bot Fight Mode is set up by its own settings; its rules are not documented.' },
];

const PHASE_ACTIONS_BY_PHASE = new Map(PHASE_ACTIONS.map((row) => [row.phase, row]));

/** The actions a phase allows, or undefined when we have no source for the phase (then say nothing). */
export function actionsOfPhase(phase: string): readonly string[] | undefined {
  return PHASE_ACTIONS_BY_PHASE.get(phase)?.actions;
}

// ---- Facts the types cannot say, applied by path ----

/** A fact about the type at a path. Paths step through object keys; `*` steps into a map's values, `[]` into an array's items. */
export interface ParameterFact {
  /** An action, or a rule-level object (`ratelimit`, `exposed_credential_check`, `logging`). */
  readonly target: string;
  readonly path: readonly string[];
  readonly expression?: ParameterExpressionKind;
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
  readonly exclusive?: readonly (readonly string[])[];
  readonly oneRequired?: readonly (readonly string[])[];
  /** Keys the docs require though the types leave them optional. */
  readonly required?: readonly string[];
  /** The whole type, where the API's types are wrong in a way that would refuse what the service takes. */
  readonly replace?: ParameterType;
  readonly sources: readonly ActionSourceId[];
}

export const PARAMETER_FACTS: readonly ParameterFact[] = [
  // LANGUAGE.md §11: the expressions inside parameters, and their kinds.
  { target: 'ratelimit', path: ['counting_expression'], expression: 'filter', sources: ['language'] },
  { target: 'redirect', path: ['from_value', 'target_url', 'expression'], expression: 'value', sources: ['language'] },
  { target: 'rewrite', path: ['uri', 'path', 'expression'], expression: 'value', sources: ['language'] },
  { target: 'rewrite', path: ['uri', 'query', 'expression'], expression: 'value', sources: ['language'] },
  { target: 'rewrite', path: ['headers', '*', 'expression'], expression: 'value', sources: ['language'] },
];

// ---- Applying the facts ----

type ObjectType = ObjectParameterType;

function fail(fact: ParameterFact, why: string): never {
  throw new Error(`actions.ts: the fact at ${fact.target} ${fact.path.join('.')}: ${why}`);
}

/** The type with the fact applied at the end of `path`; unions apply it to every member that has the path. */
function applyAt(type: ParameterType, path: readonly string[], fact: ParameterFact): ParameterType {
  if (path.length === 0) return refine(type, fact);
  const [step, ...rest] = path;
  if (type.kind === 'union') {
    let applied = false;
    const types = type.types.map((member) => {
      if (parameterAt(member, [step]) === undefined) return member;
      applied = true;
      return applyAt(member, path, fact);
    });
    return applied ? { ...type, types } : fail(fact, `no member of the union has ${step}`);
  }
  if (step === '[]') return type.kind === 'array' ? { ...type, items: applyAt(type.items, rest, fact) } : fail(fact, '[] on a type that is not an array');
  if (type.kind !== 'object') return fail(fact, `${step} on a ${type.kind}`);
  if (step === '*') return type.values ? { ...type, values: applyAt(type.values, rest, fact) } : fail(fact, '* on an object that is not a map');
  if (!type.keys.some((k) => k.key === step)) return fail(fact, `no key ${step} in the API's types`);
  return { ...type, keys: type.keys.map((k) => (k.key === step ? { ...k, type: applyAt(k.type, rest, fact) } : k)) };
}

function refine(type: ParameterType, fact: ParameterFact): ParameterType {
  if (fact.replace) return fact.replace;
  if (type.kind === 'union') return { ...type, types: type.types.map((member) => refine(member, fact)) };
  const { expression, min, max, integer, exclusive, oneRequired, required } = fact;
  if (expression !== undefined) {
    if (type.kind !== 'string') fail(fact, `an expression mark on a ${type.kind}`);
    type = { ...type, expression };
  }
  if (min !== undefined || max !== undefined || integer !== undefined) {
    if (type.kind !== 'number') fail(fact, `a range on a ${type.kind}`);
    type = { ...type, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...(integer !== undefined ? { integer } : {}) };
  }
  if (exclusive || oneRequired || required) {
    if (type.kind !== 'object') fail(fact, `key groups on a ${type.kind}`);
    const object: ObjectType = type;
    for (const key of [...(exclusive ?? []), ...(oneRequired ?? [])].flat().concat(required ?? [])) {
      if (!object.keys.some((k) => k.key === key)) fail(fact, `no key ${key} in the API's types`);
    }
    type = {
      ...object,
      keys: required ? object.keys.map((k) => (required.includes(k.key) ? { ...k, required: true } : k)) : object.keys,
      ...(exclusive ? { exclusive: [...(object.exclusive ?? []), ...exclusive] } : {}),
      ...(oneRequired ? { oneRequired: [...(object.oneRequired ?? []), ...oneRequired] } : {}),
    };
  }
  return type;
}

let built: { readonly actions: ReadonlyMap<string, ActionSchema>; readonly ruleObjects: Readonly<Record<RuleObjectKey, ObjectType>> } | undefined;

/** The generated schemas with every fact applied: built once, on first use. Exported for the tests. */
export function appliedSchemas(facts: readonly ParameterFact[] = PARAMETER_FACTS): NonNullable<typeof built> {
  const actions = new Map(ACTION_PARAMETERS.map((schema) => [schema.action, schema]));
  const ruleObjects: Record<RuleObjectKey, ObjectType> = { ...RULE_OBJECTS };
  for (const fact of facts) {
    if ((RULE_OBJECT_KEYS as readonly string[]).includes(fact.target)) {
      const key = fact.target as RuleObjectKey;
      ruleObjects[key] = applyAt(ruleObjects[key], fact.path, fact) as ObjectType;
      continue;
    }
    const schema = actions.get(fact.target) ?? fail(fact, 'no such action in the API\'s types');
    const parameters = schema.parameters ?? fail(fact, 'the action takes no parameters in the API\'s types');
    actions.set(fact.target, { ...schema, parameters: applyAt(parameters, fact.path, fact) as ObjectType });
  }
  return { actions, ruleObjects };
}

function schemas(): NonNullable<typeof built> {
  built ??= appliedSchemas();
  return built;
}

/** An action's `action_parameters` schema, with the documented facts; undefined for an action the API's types lack. */
export function actionSchema(action: string): ActionSchema | undefined {
  return schemas().actions.get(action);
}

/** A rule-level object's schema (`ratelimit`, `exposed_credential_check`, `logging`), with the documented facts. */
export function ruleObjectSchema(key: RuleObjectKey): ObjectType {
  return schemas().ruleObjects[key];
}

/**
 * The type at a path inside a schema: a string steps into an object's key (or a map's values), a
 * number into an array's items. In a union, the members that have the step are followed; several
 * give a union of what they have there. Undefined when the path leaves what the schema describes
 * (an `any` type describes everything below it as `any`).
 */
export function parameterAt(type: ParameterType | undefined, path: readonly (string | number)[]): ParameterType | undefined {
  let here = type;
  for (const step of path) {
    if (!here) return undefined;
    here = stepInto(here, step);
  }
  return here;
}

function stepInto(type: ParameterType, step: string | number): ParameterType | undefined {
  switch (type.kind) {
    case 'any':
      return type;
    case 'array':
      return typeof step === 'number' || step === '[]' ? type.items : undefined;
    case 'object':
      if (typeof step === 'number') return undefined;
      return type.keys.find((k) => k.key === step)?.type ?? type.values;
    case 'union': {
      const found = type.types.map((member) => stepInto(member, step)).filter((t): t is ParameterType => t !== undefined);
      const distinct = found.filter((t, i) => found.findIndex((u) => JSON.stringify(u) === JSON.stringify(t)) === i);
      return distinct.length === 0 ? undefined : distinct.length === 1 ? distinct[0] : { kind: 'union', types: distinct };
    }
    default:
      return undefined;
  }
}
