/**
 * What the API's types cannot say about actions, by hand, each fact with its source: which
 * actions each phase allows, which strings are expressions (and of which kind), documented ranges
 * and allowed values, and groups of keys of which one is required. `actionSchema` gives an
 * action's generated schema (generated/action-parameters.ts) with these facts applied.
 *
 * Where a source does not say clearly, we allow more: a false error is worse than a missed one.
 * Facts only, in our words; nothing here is copied from the sources.
 */
import {
  RULE_OBJECT_KEYS,
  type ActionSchema,
  type ObjectParameterType,
  type ParameterExpressionKind,
  type ParameterKey,
  type ParameterType,
  type RuleObjectKey,
} from './action-schema';
import { ACTION_PARAMETERS, RULE_OBJECTS } from './generated/action-parameters';
import { mergeObjectTypes, sameType } from './parameter-types';
import { PACKET_PHASE_ACTIONS } from './phases';

const DOCS = 'cloudflare/cloudflare-docs';

/** The documents the facts below come from, each with the commit it was read at. */
export const ACTION_SOURCES = {
  apiTypes: { repository: 'cloudflare/cloudflare-typescript', path: 'src/resources/rulesets/rules.ts', commit: 'faaaf89ed8064a9fb54de538ec3e89487f1302b0' },
  actions: { repository: DOCS, path: 'src/content/docs/ruleset-engine/rules-language/actions.mdx', commit: '0309c8bed23afe438f28fd5026b5a7999e653081' },
  phasesList: { repository: DOCS, path: 'src/content/docs/ruleset-engine/reference/phases-list.mdx', commit: '046f5f9e5fdf226151e76964294d856025c97ce6' },
  apiSpec: { repository: 'this project', path: 'shared/spec/API.md (Operations: a managed ruleset is run by `execute` with `action_parameters: {id, version?, overrides?}`)', commit: '' },
  packetActions: { repository: 'this project', path: 'shared/spec/LANGUAGE.md §8 and catalogue/phases.ts PACKET_PHASE_ACTIONS (the Magic Firewall docs)', commit: '' },
  magicIds: { repository: DOCS, path: 'src/content/docs/magic-firewall/how-to/enable-ids.mdx', commit: '1215e033399494999d646687df3c5c72083adce3' },
  urlRewrite: { repository: DOCS, path: 'src/content/docs/rules/transform/url-rewrite/reference/parameters.mdx', commit: '3db9cc42ee6680540c60a35cd33efd75ce009dd1' },
  headerRewrite: { repository: DOCS, path: 'src/content/docs/rules/transform/request-header-modification/reference/parameters.mdx', commit: '0cc0c37f2562870765528dc81993cae97e2f8f0d' },
  singleRedirects: { repository: DOCS, path: 'src/content/docs/rules/url-forwarding/single-redirects/settings.mdx', commit: '0d83b58777b7b492372cab6393cb6392ae959ab2' },
  singleRedirectsApi: { repository: DOCS, path: 'src/content/docs/rules/url-forwarding/single-redirects/create-api.mdx', commit: '2d0023da2ec67cee0733140758ab71001ac4a3d3' },
  bulkRedirects: { repository: DOCS, path: 'src/content/docs/rules/url-forwarding/bulk-redirects/reference/json-objects.mdx', commit: '0309c8bed23afe438f28fd5026b5a7999e653081' },
  bulkRedirectsApi: { repository: DOCS, path: 'src/content/docs/rules/url-forwarding/bulk-redirects/create-api.mdx', commit: '12de1227975eac9771b64f665d6fdf9a655a50ff' },
  originRules: { repository: DOCS, path: 'src/content/docs/rules/origin-rules/features.mdx', commit: '0309c8bed23afe438f28fd5026b5a7999e653081' },
  originParameters: { repository: DOCS, path: 'src/content/docs/rules/origin-rules/parameters.mdx', commit: '50e696f2635a3070e6dd68cc05bfc8dfd57928b7' },
  compression: { repository: DOCS, path: 'src/content/docs/rules/compression-rules/settings.mdx', commit: '07f9f6e79b89f67b53b9e37f5397f46867d71d31' },
  customErrors: { repository: DOCS, path: 'src/content/docs/rules/custom-errors/reference/parameters.mdx', commit: '59a47871b814b1c401573211eb57cb8b3563e064' },
  cacheRules: { repository: DOCS, path: 'src/content/docs/cache/how-to/cache-rules/settings.mdx', commit: '09c441806a50ed4d7cd8f35f9c91234ba431f419' },
  cacheByStatus: { repository: DOCS, path: 'src/content/docs/cache/how-to/configure-cache-status-code.mdx', commit: '0c50ffa05a96c48067721cbe0c1d637885537479' },
  cacheResponseRules: { repository: DOCS, path: 'src/content/docs/cache/how-to/cache-response-rules/settings.mdx', commit: '24fec10ca4fd3274688bcfa9be30e0253b58476b' },
  rateLimiting: { repository: DOCS, path: 'src/content/docs/waf/rate-limiting-rules/parameters.mdx', commit: '12dd7ce4e625b68c9ce511a256bdcda70fbc3f6c' },
  rateLimitingApi: { repository: DOCS, path: 'src/content/docs/waf/rate-limiting-rules/create-api.mdx', commit: '0309c8bed23afe438f28fd5026b5a7999e653081' },
  blockResponse: { repository: DOCS, path: 'src/content/partials/waf/custom-response-blocked-requests.mdx', commit: '12de1227975eac9771b64f665d6fdf9a655a50ff' },
  skipOptions: { repository: DOCS, path: 'src/content/docs/waf/custom-rules/skip/options.mdx', commit: '0ae61c0b72577c69ed32bf7867d2e478cee255d0' },
  wafExceptions: { repository: DOCS, path: 'src/content/docs/waf/managed-rules/waf-exceptions/define-api.mdx', commit: '0d83b58777b7b492372cab6393cb6392ae959ab2' },
  exposedCredentials: { repository: DOCS, path: 'src/content/docs/waf/managed-rules/check-for-exposed-credentials/configure-api.mdx', commit: '0309c8bed23afe438f28fd5026b5a7999e653081' },
  customFields: { repository: DOCS, path: 'src/content/docs/logs/logpush/logpush-job/custom-fields.mdx', commit: '0a16561fb3dcef837478b902b8b27a65f10653c0' },
  ddosHttp: { repository: DOCS, path: 'src/content/docs/ddos-protection/managed-rulesets/http/override-parameters.mdx', commit: '0309c8bed23afe438f28fd5026b5a7999e653081' },
  ddosHttpApi: { repository: DOCS, path: 'src/content/docs/ddos-protection/managed-rulesets/http/configure-api.mdx', commit: '067fce3be998b96e9f8d27c6da07ed16ad6f1c29' },
  ddosNetwork: { repository: DOCS, path: 'src/content/docs/ddos-protection/managed-rulesets/network/override-parameters.mdx', commit: '0309c8bed23afe438f28fd5026b5a7999e653081' },
  ddosNetworkApi: { repository: DOCS, path: 'src/content/docs/ddos-protection/managed-rulesets/network/configure-api.mdx', commit: '0fd5d99bafc99d38a40174040a35a80f9993417e' },
  headerRemarks: { repository: DOCS, path: 'src/content/docs/rules/transform/request-header-modification/index.mdx (Important remarks)', commit: '01c894223c4a63e6a24aa63d6ad56e82c2489786' },
  headerRewriteApi: { repository: DOCS, path: 'src/content/docs/rules/transform/request-header-modification/create-api.mdx', commit: '30171c0782273b2ed4210e0e31f37291b5e49ce7' },
  headerNames: { repository: DOCS, path: 'src/content/partials/rules/transform/header-valid-names.mdx (the names of request and response headers, on the header format pages of both)', commit: 'b11ab7c8ad455913644e8b2c0f3dff0125b1a955' },
  responseHeaderRewrite: { repository: DOCS, path: 'src/content/docs/rules/transform/response-header-modification/reference/parameters.mdx', commit: '1215e033399494999d646687df3c5c72083adce3' },
  providerV5: { repository: 'cloudflare/terraform-provider-cloudflare', path: 'internal/services/ruleset/schema.go (v5.22.0, made from the API schema: `ratelimit.requests_per_period` at least 1, `counting_expression` at least 1 character)', commit: 'a2efdc5786ae9726d56928dbfe91933bd92404ca' },
  customRulesetDeploy: { repository: DOCS, path: 'src/content/docs/ruleset-engine/custom-rulesets/deploy-custom-ruleset.mdx', commit: '261bf8bd87db601ab7a208ee483b990540df26f5' },
  accountCustomRulesets: { repository: DOCS, path: 'src/content/docs/waf/account/custom-rulesets/create-api.mdx', commit: '05b5f46cc6746674e33228fbac8b6ebaf4a19001' },
  managedRulesetDeploy: { repository: DOCS, path: 'src/content/docs/ruleset-engine/managed-rulesets/deploy-managed-ruleset.mdx', commit: '543440935ea49be42f7a116ae8ed54a93d0522c5' },
  rateLimitingAvailability: { repository: DOCS, path: 'src/content/partials/waf/rate-limiting-availability-by-plan.mdx (the rate limiting rules page, Availability: "Counting characteristics")', commit: '07acbb6612b5cefa1f8348106c158b0814a2972a' },
  accountRateLimiting: { repository: DOCS, path: 'src/content/docs/waf/account/rate-limiting-rulesets/create-api.mdx', commit: '10ead741745aedc8c2f1f1262796e7fa132139ef' },
  goSdkV0: { repository: 'cloudflare/cloudflare-go', path: 'rulesets.go (v0.116.0, the SDK of Terraform provider v4: `RulesetRuleActionParametersCustomKeyList` is sent and read as `"*"` or a bare list of names)', commit: '1eda786b473df9b16e8c229b44fbdca3a6c8d3e7' },
  providerV5QueryString: { repository: 'cloudflare/terraform-provider-cloudflare', path: 'internal/services/ruleset/resource.go (v5.22.0, `transformQueryStringJSON`: the API gives back `include` as a bare list) and migrations_test.go (`TestMigrateCloudflareRulesetCacheKeyQueryString`: provider 4.52.1 creates `include = ["*"]` and a list on a live zone)', commit: 'a2efdc5786ae9726d56928dbfe91933bd92404ca' },
  cfTerraformingCache: { repository: 'cloudflare/cf-terraforming', path: 'testdata/cloudflare/v5/cloudflare_ruleset_http_request_cache_settings.yaml (a recorded API response with `"exclude": "*"`) and internal/app/cf-terraforming/cmd/custom_processing.go (rewrites it for v5)', commit: '96600579454d27dd7c955b5bac506ecdbaaaa2b7' },
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

/** The security actions: rate limiting documents these five; WAF custom rules and managed rules use them too. */
const SECURITY_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;

/**
 * A managed ruleset's own rules (read-only, but a user may hold a copy) carry the actions its
 * product applies, so a managed phase allows them beside `execute` (which deploys the ruleset) and
 * `skip` (which makes exceptions).
 */
export const PHASE_ACTIONS: readonly PhaseActions[] = [
  { phase: 'magic_transit', actions: PACKET_PHASE_ACTIONS, sources: ['packetActions'], why: 'Magic Firewall rules block packets or skip the rest; execute deploys a ruleset.' },
  { phase: 'magic_transit_managed', actions: PACKET_PHASE_ACTIONS, sources: ['packetActions'], why: 'The packet phases share their actions; the managed ruleset is deployed with execute.' },
  { phase: 'magic_transit_ids_managed', actions: PACKET_PHASE_ACTIONS, sources: ['packetActions', 'magicIds'], why: 'IDS is turned on by a rule that executes its managed ruleset.' },
  { phase: 'magic_transit_ratelimit', actions: PACKET_PHASE_ACTIONS, sources: ['packetActions'], why: 'The packet phases share their actions.' },
  { phase: 'ddos_l4', actions: ['execute', 'block', 'log', 'ddos_dynamic'], sources: ['ddosNetworkApi', 'ddosNetwork'], why: 'Overrides deploy the network DDoS managed ruleset with execute; its rules block, log or act dynamically.' },
  {
    phase: 'ddos_l7',
    actions: ['execute', 'block', 'managed_challenge', 'challenge', 'log', 'ddos_dynamic', 'force_connection_close'],
    sources: ['ddosHttpApi', 'ddosHttp'],
    why: 'Overrides deploy the HTTP DDoS managed ruleset with execute; its rules use these actions.',
  },
  { phase: 'http_request_transform', actions: ['rewrite'], sources: ['actions'], why: 'URL Rewrite Rules.' },
  { phase: 'http_request_late_transform', actions: ['rewrite'], sources: ['actions'], why: 'Request Header Transform Rules.' },
  { phase: 'http_response_headers_transform', actions: ['rewrite'], sources: ['actions'], why: 'Response Header Transform Rules.' },
  { phase: 'http_request_dynamic_redirect', actions: ['redirect'], sources: ['actions', 'singleRedirectsApi'], why: 'Single Redirects.' },
  { phase: 'http_request_redirect', actions: ['redirect'], sources: ['actions', 'bulkRedirectsApi'], why: 'Bulk Redirects.' },
  { phase: 'http_request_origin', actions: ['route'], sources: ['actions'], why: 'Origin Rules.' },
  { phase: 'http_config_settings', actions: ['set_config'], sources: ['actions'], why: 'Configuration Rules.' },
  { phase: 'http_response_compression', actions: ['compress_response'], sources: ['actions'], why: 'Compression Rules.' },
  { phase: 'http_request_cache_settings', actions: ['set_cache_settings'], sources: ['actions'], why: 'Cache Rules.' },
  {
    phase: 'http_response_cache_settings',
    actions: ['set_cache_settings', 'set_cache_tags', 'set_cache_control'],
    sources: ['cacheResponseRules'],
    why: 'Cache Response Rules.',
  },
  { phase: 'http_custom_errors', actions: ['serve_error'], sources: ['actions'], why: 'Custom Error Rules.' },
  { phase: 'http_log_custom_fields', actions: ['log_custom_field'], sources: ['actions'], why: 'Logpush custom fields.' },
  {
    phase: 'http_request_firewall_custom',
    actions: [...SECURITY_ACTIONS, 'skip', 'execute', 'rewrite'],
    sources: ['actions', 'skipOptions', 'exposedCredentials'],
    why: 'WAF custom rules; execute deploys a custom ruleset (account level); rewrite adds a header when exposed credentials are found.',
  },
  {
    phase: 'http_ratelimit',
    actions: [...SECURITY_ACTIONS, 'execute'],
    sources: ['rateLimiting', 'rateLimitingApi'],
    why: 'Rate limiting rules take the five security actions; execute deploys a rate limiting ruleset (account level).',
  },
  {
    phase: 'http_request_firewall_managed',
    actions: [...SECURITY_ACTIONS, 'skip', 'execute'],
    sources: ['wafExceptions', 'actions'],
    why: 'Managed rulesets are deployed with execute and excepted with skip; their own rules use the security actions.',
  },
  {
    phase: 'http_response_firewall_managed',
    actions: [...SECURITY_ACTIONS, 'skip', 'execute'],
    sources: ['phasesList', 'wafExceptions'],
    why: 'Deployed like the request managed phase (Sensitive Data Detection).',
  },
  { phase: 'http_request_sanitize', sources: ['phasesList'], why: 'URL normalization is set in its own settings; no source lists actions for rules here.' },
  { phase: 'http_request_sbfm', sources: ['phasesList', 'skipOptions'], why: 'Super Bot Fight Mode is set in its own settings; the docs only say custom rules can skip it.' },
];

const PHASE_ACTIONS_BY_PHASE = new Map(PHASE_ACTIONS.map((row) => [row.phase, row]));

/** The actions a phase allows, or undefined when we have no source for the phase (then say nothing). */
export function actionsOfPhase(phase: string): readonly string[] | undefined {
  return PHASE_ACTIONS_BY_PHASE.get(phase)?.actions;
}

// ---- Where the rule-level objects belong ----

export interface RuleObjectScope {
  readonly key: RuleObjectKey;
  /** The actions whose rules may carry the object; undefined: any. */
  readonly actions?: readonly string[];
  /** The phases whose rules may carry the object; undefined: any. */
  readonly phases?: readonly string[];
  readonly sources: readonly ActionSourceId[];
  readonly why: string;
}

export const RULE_OBJECT_SCOPES: readonly RuleObjectScope[] = [
  {
    key: 'ratelimit',
    // The packet rate limiting phase is not documented through the API; it is left open.
    phases: ['http_ratelimit', 'magic_transit_ratelimit'],
    sources: ['rateLimitingApi'],
    why: 'Rate limiting rules are deployed to the http_ratelimit phase.',
  },
  {
    key: 'exposed_credential_check',
    actions: ['rewrite', 'log', 'block', 'js_challenge', 'challenge'],
    phases: ['http_request_firewall_custom', 'http_request_firewall_managed'],
    sources: ['exposedCredentials'],
    why: 'Exposed-credential checks are custom rules (account level) with one of five actions; the managed ruleset that checks them runs in the managed phase.',
  },
  { key: 'logging', actions: ['skip'], sources: ['skipOptions'], why: 'Logging is an option of skip rules.' },
];

/** Where a rule-level object may appear (undefined members: anywhere). */
export function ruleObjectScope(key: RuleObjectKey): RuleObjectScope {
  return RULE_OBJECT_SCOPES.find((scope) => scope.key === key)!;
}

// ---- Limits on a rule that its parameters' types cannot say ----

/**
 * Request Header Transform Rules (`http_request_late_transform`): the operations a request
 * header takes (the docs give `add` to response headers only), and the headers the service
 * refuses to change. Header names are compared in lower case.
 */
export const REQUEST_HEADER_LIMITS = {
  phase: 'http_request_late_transform',
  /** The operations of a request header: set (replacing, or adding a new header) and remove. */
  operations: ['set', 'remove'],
  /** Name prefixes of Cloudflare's own headers, which can be neither set nor removed… */
  reservedPrefixes: ['cf-', 'x-cf-'],
  /** …except these, which can be removed. */
  removable: ['cf-connecting-ip'],
  /** Headers that can be removed but not set. */
  removeOnly: ['cookie'],
  /** Headers that carry the visitor's IP address or protocol: their value cannot be changed (the docs say "such as": these are the ones they name). */
  identifying: ['x-forwarded-for', 'true-client-ip', 'x-real-ip', 'x-forwarded-proto'],
  sources: ['headerRemarks', 'headerRewrite', 'headerRewriteApi', 'responseHeaderRewrite'] as readonly ActionSourceId[],
} as const;

/**
 * The header names of Request and Response Header Transform Rules: the docs' header format
 * pages (of request and of response headers alike) allow only letters, digits, `-` and `_` in
 * them, a narrower set than the field names HTTP can carry (RFC 9110's token, which also takes
 * ``!#$%&'*+.^`|~``).
 */
export const HEADER_NAME_LIMITS = {
  phases: ['http_request_late_transform', 'http_response_headers_transform'],
  /** One character the docs allow in a header name. */
  character: /[-_0-9A-Za-z]/,
  described: 'letters, digits, `-` and `_`',
  sources: ['headerNames'] as readonly ActionSourceId[],
} as const;

/**
 * The id of a ruleset: 32 hexadecimal digits (the provider's schema, made from the API's, holds
 * its `id` to `^[0-9a-f]{32}$`); digits in either case are taken, since only the schema's
 * lowercase is stated and the API's own comparison is not.
 */
export const RULESET_ID = { pattern: /^[0-9a-fA-F]{32}$/, sources: ['providerV5'] as readonly ActionSourceId[] } as const;

/**
 * The counting characteristics of rate limiting rules by plan (the availability table): IP on
 * every plan, IP with NAT support from Business, every other only on Enterprise with Advanced
 * Rate Limiting. `cf.colo.id`, which every rule must have (RATE_LIMIT_CHARACTERISTICS), is on all.
 */
export const RATE_LIMIT_CHARACTERISTICS_BY_PLAN = {
  phase: 'http_ratelimit',
  /** The characteristics each plan from the one named has, besides the earlier plans'. */
  from: [
    { plan: 'free', characteristics: ['cf.colo.id', 'ip.src'] },
    { plan: 'business', characteristics: ['cf.unique_visitor_id'] },
  ],
  /** Every other characteristic: Enterprise with this add-on. */
  others: { plan: 'enterprise', addon: 'advanced_rate_limiting' },
  sources: ['rateLimitingAvailability'] as readonly ActionSourceId[],
} as const;

/**
 * Rate limiting rules with a challenge action: below Enterprise they throttle and take no duration,
 * so through the API their `mitigation_timeout` must be 0 (the parameters page, "For duration",
 * its note for API users); Enterprise may give any of the durations.
 */
export const RATE_LIMIT_CHALLENGE_DURATION = {
  phase: 'http_ratelimit',
  actions: ['managed_challenge', 'js_challenge', 'challenge'],
  /** The plan that may give such a rule a duration. */
  plan: 'enterprise',
  sources: ['rateLimiting'] as readonly ActionSourceId[],
} as const;

/**
 * Rate limiting rules (`http_ratelimit`): the characteristics the parameters page lists by name,
 * of which `cf.colo.id` is mandatory and `ip.src` and `cf.unique_visitor_id` exclude each other.
 * The page also lists forms with a name inside (`http.request.headers["…"]`, …) and a custom
 * expression, so a characteristic outside this list is not wrong as such: only a bare name that
 * is neither listed nor a field of the phase is.
 */
export const RATE_LIMIT_CHARACTERISTICS = {
  phase: 'http_ratelimit',
  named: [
    'cf.colo.id',
    'ip.src',
    'cf.unique_visitor_id',
    'http.host',
    'http.request.uri.path',
    'ip.src.asnum',
    'ip.src.country',
    'cf.bot_management.ja3_hash',
    'cf.bot_management.ja4',
    'http.request.body.raw',
    'http.request.body.size',
  ],
  mandatory: 'cf.colo.id',
  incompatible: ['ip.src', 'cf.unique_visitor_id'],
  /** What a rule must count up to: requests, or a score for complexity-based rate limiting. */
  thresholds: ['requests_per_period', 'score_per_period'],
  sources: ['rateLimiting', 'rateLimitingApi', 'providerV5'] as readonly ActionSourceId[],
} as const;

/**
 * An `execute` rule of an account's entry point (kind `root`) runs its ruleset on every zone of
 * the account; the docs require its expression to limit it to Enterprise zones with
 * `cf.zone.plan eq "ENT"`, "or else the API operation will fail": for custom rulesets, managed
 * rulesets and rate limiting rulesets, the phases below.
 */
export const ACCOUNT_EXECUTE_LIMIT = {
  kind: 'root',
  phases: ['http_request_firewall_custom', 'http_request_firewall_managed', 'http_ratelimit'],
  field: 'cf.zone.plan',
  condition: 'cf.zone.plan eq "ENT"',
  sources: ['customRulesetDeploy', 'accountCustomRulesets', 'managedRulesetDeploy', 'accountRateLimiting'] as readonly ActionSourceId[],
} as const;

// ---- Facts the types cannot say, applied by path ----

/** A fact about the type at a path. Paths step through object keys; `*` steps into a map's values, `[]` into an array's items. */
export interface ParameterFact {
  /** An action, or a rule-level object (`ratelimit`, `exposed_credential_check`, `logging`). */
  readonly target: string;
  readonly path: readonly string[];
  readonly expression?: ParameterExpressionKind;
  /** An empty string is the documented default, not an expression (ParameterType's `emptyMeansDefault`). */
  readonly emptyMeansDefault?: true;
  /** The only values allowed (strings or numbers, by the type's kind). */
  readonly values?: readonly (string | number)[];
  readonly min?: number;
  readonly max?: number;
  readonly integer?: boolean;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly exclusive?: readonly (readonly string[])[];
  readonly oneRequired?: readonly (readonly string[])[];
  readonly anyRequired?: readonly (readonly string[])[];
  /** Keys the docs require though the types leave them optional. */
  readonly required?: readonly string[];
  /** Keys the docs leave optional though the types require them. */
  readonly optional?: readonly string[];
  /** Keys the service takes that the API's types lack. */
  readonly addKeys?: readonly ParameterKey[];
  /** A union of objects that the docs combine into one object (its members' keys together). */
  readonly mergeUnion?: true;
  /** The whole type, where the API's types would refuse what the docs show the service taking. */
  readonly replace?: ParameterType;
  /** Older forms the service still takes beside the type's own, each marked `legacy`: the type becomes a union of it and them. */
  readonly legacyForms?: readonly ParameterType[];
  readonly sources: readonly ActionSourceId[];
}

const STRING: ParameterType = { kind: 'string' };
const BOOLEAN: ParameterType = { kind: 'boolean' };
const OPERATION: ParameterType = { kind: 'string', values: ['set', 'remove'] };
const SECONDS: ParameterType = { kind: 'number', integer: true, min: 0 };

/** A Cache-Control directive: `set` or `remove`, with what the directive's family takes beside. */
function cacheDirective(family: 'duration' | 'qualifiers' | 'plain'): ParameterType {
  const cloudflareOnly = { key: 'cloudflare_only', type: BOOLEAN, required: false };
  if (family === 'duration') {
    return {
      kind: 'union',
      types: [
        { kind: 'object', keys: [cloudflareOnly, { key: 'operation', type: { kind: 'string', values: ['set'] }, required: true }, { key: 'value', type: SECONDS, required: true }] },
        { kind: 'object', keys: [cloudflareOnly, { key: 'operation', type: { kind: 'string', values: ['remove'] }, required: true }] },
      ],
    };
  }
  const keys = [cloudflareOnly, { key: 'operation', type: OPERATION, required: true }];
  if (family === 'qualifiers') keys.push({ key: 'qualifiers', type: { kind: 'array', items: STRING }, required: false });
  return { kind: 'object', keys };
}

const CACHE_DIRECTIVES: readonly [string, 'duration' | 'qualifiers' | 'plain'][] = [
  ['max-age', 'duration'],
  ['s-maxage', 'duration'],
  ['stale-if-error', 'duration'],
  ['stale-while-revalidate', 'duration'],
  ['private', 'qualifiers'],
  ['no-cache', 'qualifiers'],
  ['no-store', 'plain'],
  ['no-transform', 'plain'],
  ['must-revalidate', 'plain'],
  ['proxy-revalidate', 'plain'],
  ['must-understand', 'plain'],
  ['public', 'plain'],
  ['immutable', 'plain'],
];

/**
 * A cache key's query string `include` / `exclude` as cloudflare-go v0 (Terraform provider v4's
 * SDK) writes it: `"*"` for all, a bare list of names for some. The API's types have only
 * `{all: true}` / `{list: […]}`, but the service takes and gives back the older forms.
 */
const QUERY_STRING_LEGACY_FORMS: readonly ParameterType[] = [
  { kind: 'string', values: ['*'], legacy: { described: '`KEY: "*"`', current: '{"all": true}', rewrite: { text: '{"all": true}' } } },
  { kind: 'array', items: STRING, legacy: { described: '`KEY` as a bare list', current: '{"list": […]}', rewrite: { wrapIn: 'list' } } },
];

const CUSTOM_FIELD_LISTS = ['request_fields', 'transformed_request_fields', 'response_fields', 'raw_response_fields', 'cookie_fields'] as const;

export const PARAMETER_FACTS: readonly ParameterFact[] = [
  // Rule-level objects.
  // An empty counting expression counts what the rule's expression matches (the parameters page says so).
  { target: 'ratelimit', path: ['counting_expression'], expression: 'filter', emptyMeansDefault: true, sources: ['rateLimiting'] },
  { target: 'ratelimit', path: ['period'], values: [10, 60, 120, 300, 600, 3600], sources: ['rateLimiting'] },
  { target: 'ratelimit', path: ['mitigation_timeout'], values: [0, 10, 60, 120, 300, 600, 3600, 86400], sources: ['rateLimiting'] },
  // A threshold of no requests is refused (the API's schema gives the minimum, as the v5 provider has it; the docs leave it unsaid).
  { target: 'ratelimit', path: ['requests_per_period'], integer: true, min: 1, sources: ['rateLimiting', 'providerV5'] },
  { target: 'ratelimit', path: ['score_per_period'], integer: true, sources: ['rateLimiting'] },
  { target: 'exposed_credential_check', path: ['username_expression'], expression: 'value', maxLength: 1024, sources: ['exposedCredentials'] },
  { target: 'exposed_credential_check', path: ['password_expression'], expression: 'value', maxLength: 1024, sources: ['exposedCredentials'] },

  // execute: the version of the ruleset to run (the service answers with it, e.g. `"latest"`).
  { target: 'execute', path: [], addKeys: [{ key: 'version', type: STRING, required: false }], sources: ['apiSpec'] },

  // block: the custom response.
  { target: 'block', path: ['response'], optional: ['content', 'content_type', 'status_code'], sources: ['rateLimiting'] },
  { target: 'block', path: ['response', 'status_code'], min: 400, max: 499, integer: true, sources: ['blockResponse', 'rateLimiting'] },
  { target: 'block', path: ['response', 'content_type'], values: ['text/html', 'text/plain', 'application/json', 'text/xml'], sources: ['blockResponse', 'rateLimiting'] },

  // redirect: Single Redirects (from_value) or Bulk Redirects (from_list).
  { target: 'redirect', path: [], oneRequired: [['from_list', 'from_value']], sources: ['singleRedirectsApi', 'bulkRedirects'] },
  { target: 'redirect', path: ['from_value', 'target_url'], oneRequired: [['value', 'expression']], sources: ['singleRedirects'] },
  { target: 'redirect', path: ['from_value', 'target_url', 'expression'], expression: 'value', sources: ['singleRedirects'] },
  { target: 'redirect', path: ['from_list', 'key'], expression: 'value', sources: ['bulkRedirects'] },

  // rewrite: the path and the query may be rewritten by one rule, each by a value or an expression.
  { target: 'rewrite', path: ['uri'], mergeUnion: true, sources: ['urlRewrite'] },
  { target: 'rewrite', path: ['uri'], anyRequired: [['path', 'query']], sources: ['urlRewrite'] },
  { target: 'rewrite', path: ['uri', 'path'], oneRequired: [['value', 'expression']], sources: ['urlRewrite'] },
  { target: 'rewrite', path: ['uri', 'query'], oneRequired: [['value', 'expression']], sources: ['urlRewrite'] },
  { target: 'rewrite', path: ['uri', 'path', 'expression'], expression: 'value', sources: ['urlRewrite'] },
  { target: 'rewrite', path: ['uri', 'query', 'expression'], expression: 'value', sources: ['urlRewrite'] },
  { target: 'rewrite', path: ['headers', '*', 'expression'], expression: 'value', sources: ['headerRewrite'] },

  // route.
  { target: 'route', path: ['origin', 'port'], min: 1, max: 65535, integer: true, sources: ['originRules'] },

  // compress_response.
  { target: 'compress_response', path: ['algorithms'], minItems: 1, sources: ['compression'] },

  // log_custom_field: at least one list, each of at most 100 names.
  { target: 'log_custom_field', path: [], anyRequired: [[...CUSTOM_FIELD_LISTS]], sources: ['customFields'] },
  ...CUSTOM_FIELD_LISTS.map((list): ParameterFact => ({ target: 'log_custom_field', path: [list], maxItems: 100, sources: ['customFields'] })),

  // serve_error. The content is at most 10 KB, read as 10,240 (a character is at least a byte, so never too many).
  { target: 'serve_error', path: ['status_code'], min: 400, max: 999, integer: true, sources: ['customErrors'] },
  { target: 'serve_error', path: ['content'], maxLength: 10240, sources: ['customErrors'] },

  // set_cache_settings.
  { target: 'set_cache_settings', path: ['browser_ttl', 'default'], integer: true, sources: ['cacheRules'] },
  { target: 'set_cache_settings', path: ['read_timeout'], integer: true, sources: ['cacheRules'] },
  { target: 'set_cache_settings', path: ['additional_cacheable_ports', '[]'], integer: true, sources: ['cacheRules'] },
  { target: 'set_cache_settings', path: ['edge_ttl', 'status_code_ttl', '[]', 'status_code'], min: 100, max: 999, integer: true, sources: ['cacheByStatus'] },
  {
    // Seconds, or -1 (no-store) and 0 (no-cache); the page also names the two words as values.
    target: 'set_cache_settings',
    path: ['edge_ttl', 'status_code_ttl', '[]', 'value'],
    replace: { kind: 'union', types: [{ kind: 'number', integer: true, min: -1 }, { kind: 'string', values: ['no-store', 'no-cache'] }] },
    sources: ['cacheByStatus'],
  },

  // The older forms of a cache key's query string, which provider v4 still sends.
  ...['include', 'exclude'].map((key): ParameterFact => ({ target: 'set_cache_settings', path: ['cache_key', 'custom_key', 'query_string', key], legacyForms: QUERY_STRING_LEGACY_FORMS, sources: ['goSdkV0', 'providerV5QueryString', 'cfTerraformingCache'] })),

  // set_cache_tags: static tags or an expression giving them (the types already require one of the two).
  { target: 'set_cache_tags', path: ['expression'], expression: 'value', sources: ['cacheResponseRules'] },

  // set_cache_control: the API's types merge every directive into one shape; the docs give three.
  ...CACHE_DIRECTIVES.map(([directive, family]): ParameterFact => ({ target: 'set_cache_control', path: [directive], replace: cacheDirective(family), sources: ['cacheResponseRules'] })),
];

// ---- Applying the facts ----

function fail(fact: ParameterFact, why: string): never {
  throw new Error(`actions.ts: the fact at ${fact.target} ${fact.path.join('.') || '(top)'}: ${why}`);
}

/** The type with the fact applied at the end of `path`; unions apply it to every member that has the path. */
function applyAt(type: ParameterType, path: readonly string[], fact: ParameterFact): ParameterType {
  if (path.length === 0) return refine(type, fact);
  const [step, ...rest] = path;
  if (type.kind === 'union') {
    let applied = false;
    const types = type.types.map((member) => {
      if (stepInto(member, step) === undefined) return member;
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
  if (fact.legacyForms) {
    if (!fact.legacyForms.every(isLegacy)) fail(fact, 'an older form without its `legacy` note');
    return { kind: 'union', types: [type, ...fact.legacyForms] };
  }
  if (fact.mergeUnion) {
    if (type.kind !== 'union' || !type.types.every((t) => t.kind === 'object')) fail(fact, `mergeUnion on a ${type.kind}`);
    return mergeObjectTypes(type.types as readonly ObjectParameterType[], `${fact.target} ${fact.path.join('.')}`);
  }
  if (type.kind === 'union') return { ...type, types: type.types.map((member) => refine(member, fact)) };
  const { expression, emptyMeansDefault, values, min, max, integer, maxLength, minItems, maxItems, exclusive, oneRequired, anyRequired, required, optional, addKeys } = fact;
  if (addKeys) {
    if (type.kind !== 'object') fail(fact, `keys added to a ${type.kind}`);
    const object: ObjectParameterType = type;
    for (const added of addKeys) if (object.keys.some((k) => k.key === added.key)) fail(fact, `${added.key} is in the API's types already`);
    type = { ...object, keys: [...object.keys, ...addKeys] };
  }
  if (expression !== undefined || maxLength !== undefined || emptyMeansDefault) {
    if (type.kind !== 'string') fail(fact, `an expression mark or length on a ${type.kind}`);
    type = { ...type, ...(expression !== undefined ? { expression } : {}), ...(emptyMeansDefault ? { emptyMeansDefault } : {}), ...(maxLength !== undefined ? { maxLength } : {}) };
  }
  if (values) {
    if (type.kind === 'string' && values.every((v) => typeof v === 'string')) type = { ...type, values: values as string[] };
    else if (type.kind === 'number' && values.every((v) => typeof v === 'number')) type = { ...type, values: values as number[] };
    else fail(fact, `values that do not fit a ${type.kind}`);
  }
  if (min !== undefined || max !== undefined || integer !== undefined) {
    if (type.kind !== 'number') fail(fact, `a range on a ${type.kind}`);
    type = { ...type, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...(integer !== undefined ? { integer } : {}) };
  }
  if (minItems !== undefined || maxItems !== undefined) {
    if (type.kind !== 'array') fail(fact, `an item count on a ${type.kind}`);
    type = { ...type, ...(minItems !== undefined ? { minItems } : {}), ...(maxItems !== undefined ? { maxItems } : {}) };
  }
  if (exclusive || oneRequired || anyRequired || required || optional) {
    if (type.kind !== 'object') fail(fact, `key groups on a ${type.kind}`);
    const object: ObjectParameterType = type;
    for (const key of [...[exclusive, oneRequired, anyRequired].flatMap((groups) => (groups ?? []).flat()), ...(required ?? []), ...(optional ?? [])]) {
      if (!object.keys.some((k) => k.key === key)) fail(fact, `no key ${key} in the API's types`);
    }
    const requiredNow = (key: string, was: boolean) => (required?.includes(key) ? true : optional?.includes(key) ? false : was);
    type = {
      ...object,
      keys: object.keys.map((k) => ({ ...k, required: requiredNow(k.key, k.required) })),
      ...(exclusive ? { exclusive: [...(object.exclusive ?? []), ...exclusive] } : {}),
      ...(oneRequired ? { oneRequired: [...(object.oneRequired ?? []), ...oneRequired] } : {}),
      ...(anyRequired ? { anyRequired: [...(object.anyRequired ?? []), ...anyRequired] } : {}),
    };
  }
  return type;
}

interface AppliedSchemas {
  readonly actions: ReadonlyMap<string, ActionSchema>;
  readonly ruleObjects: Readonly<Record<RuleObjectKey, ObjectParameterType>>;
}

function isRuleObjectKey(target: string): target is RuleObjectKey {
  return (RULE_OBJECT_KEYS as readonly string[]).includes(target);
}

/** The generated schemas with the facts applied; throws on a fact that does not fit the API's types. */
export function appliedSchemas(facts: readonly ParameterFact[] = PARAMETER_FACTS): AppliedSchemas {
  const actions = new Map(ACTION_PARAMETERS.map((schema) => [schema.action, schema]));
  const ruleObjects: Record<RuleObjectKey, ObjectParameterType> = { ...RULE_OBJECTS };
  for (const fact of facts) {
    if (isRuleObjectKey(fact.target)) {
      ruleObjects[fact.target] = applyAt(ruleObjects[fact.target], fact.path, fact) as ObjectParameterType;
      continue;
    }
    const schema = actions.get(fact.target) ?? fail(fact, "no such action in the API's types");
    const parameters = schema.parameters ?? fail(fact, "the action takes no parameters in the API's types");
    const applied = applyAt(parameters, fact.path, fact);
    if (applied.kind !== 'object') fail(fact, 'action_parameters must stay an object');
    actions.set(fact.target, { ...schema, parameters: applied });
  }
  return { actions, ruleObjects };
}

let built: AppliedSchemas | undefined;

function schemas(): AppliedSchemas {
  built ??= appliedSchemas();
  return built;
}

/** An action's `action_parameters` schema, with the documented facts; undefined for an action the API's types lack. */
export function actionSchema(action: string): ActionSchema | undefined {
  return schemas().actions.get(action);
}

/** A rule-level object's schema (`ratelimit`, `exposed_credential_check`, `logging`), with the documented facts. */
export function ruleObjectSchema(key: RuleObjectKey): ObjectParameterType {
  return schemas().ruleObjects[key];
}

/**
 * The type at a path inside a schema: a string steps into an object's key (or a map's values), a
 * number (or `[]`) into an array's items. In a union, the members that have the step are followed;
 * several give a union of what they have there. Undefined when the path leaves what the schema
 * describes; an `any` type describes everything below it as `any`.
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
      const distinct = found.filter((t, i) => found.findIndex((u) => sameType(u, t)) === i);
      return distinct.length === 0 ? undefined : distinct.length === 1 ? distinct[0] : { kind: 'union', types: distinct };
    }
    default:
      return undefined;
  }
}

/** Whether a type is an older form the service still takes (ParameterType's `legacy`). */
export function isLegacy(type: ParameterType): boolean {
  return (type.kind === 'string' || type.kind === 'array') && type.legacy !== undefined;
}

const TODAYS_FORMS = new WeakMap<ParameterType, ParameterType>();

/**
 * The type with its older forms left out, at every depth: what the editor offers and describes
 * (completion, hover), which should teach today's forms only.
 */
export function todaysForms(type: ParameterType): ParameterType {
  let found = TODAYS_FORMS.get(type);
  if (found) return found;
  switch (type.kind) {
    case 'array':
      found = { ...type, items: todaysForms(type.items) };
      break;
    case 'object':
      found = { ...type, keys: type.keys.map((k) => ({ ...k, type: todaysForms(k.type) })), ...(type.values ? { values: todaysForms(type.values) } : {}) };
      break;
    case 'union': {
      const types = type.types.filter((t) => !isLegacy(t)).map(todaysForms);
      found = types.length === 1 ? types[0] : { ...type, types };
      break;
    }
    default:
      found = type;
  }
  TODAYS_FORMS.set(type, found);
  return found;
}

// ---- A few words on what matters most, for hover ----

/** Notes by target and path (in the facts' path form), in our words. */
const PARAMETER_NOTES: ReadonlyMap<string, string> = new Map([
  ['redirect', 'Give `from_value` (one target, Single Redirects) or `from_list` (a Bulk Redirect List), not both.'],
  ['redirect from_value.target_url', 'The target: a static URL in `value`, or a value expression in `expression`.'],
  ['redirect from_value.status_code', 'One of 301, 302, 303, 307, 308; 301 when left out.'],
  ['redirect from_value.preserve_query_string', "Keeps the request's query string on the target URL; off when left out."],
  ['redirect from_list.key', "A value expression, usually `http.request.full_uri`, matched against the list's source URLs; the rule's expression must use the same field."],
  ['redirect from_list.name', 'The name of a Bulk Redirect List of the account.'],
  ['rewrite uri', 'Rewrites the path, the query, or both; each takes a static `value` or a value `expression`.'],
  ['rewrite headers', 'Header name to operation: `set` or `add` (with `value` or `expression`), or `remove` (with nothing else); `add` is for response headers only, and a request rule cannot touch `cf-…` headers, set `cookie` or set the visitor\'s IP headers.'],
  ['route host_header', 'Rewrites the Host header; also sets the SNI to it unless `sni` is given.'],
  ['route origin.port', 'The destination port, 1 to 65535.'],
  ['route sni.value', 'A static host name on the same account.'],
  ['block response.status_code', 'A status from 400 to 499.'],
  ['serve_error status_code', 'A status from 400 to 999; replaces the status of the response.'],
  ['serve_error asset_name', 'A custom error asset of the same zone or account; give it or `content`.'],
  ['compress_response algorithms', 'In order of preference, at least one; `none`, `default` or `auto` only as the last.'],
  ['set_cache_settings edge_ttl.status_code_ttl', 'TTLs per origin status code or range; a value of 0 means no-cache, -1 no-store.'],
  ['set_cache_tags expression', 'A value expression that gives the tags as an array; use it or `values`, not both.'],
  ['log_custom_field', "At least one list of names; the rule's expression must be `true`."],
  ...CUSTOM_FIELD_LISTS.map((list): [string, string] => [`log_custom_field ${list}`, list === 'cookie_fields' ? 'Cookie names, spelt as in the request (case matters); at most 100.' : 'Header names in lower case; at most 100. A header is logged raw or transformed, not both.']),
  ['skip phases', 'Phases to skip; from WAF custom rules only `http_ratelimit`, `http_request_sbfm` and `http_request_firewall_managed`.'],
  ['skip phase', '`current` skips the rest of the phase; only in zone-level `http_request_firewall_custom` rulesets.'],
  ['skip ruleset', '`current` skips the rest of this ruleset.'],
  ['skip products', 'Security products outside the ruleset engine to skip (case matters).'],
  ['skip rules', 'Ruleset id to the ids of its rules to skip.'],
  ['ratelimit characteristics', 'What the counter is kept per: `cf.colo.id` (always), and fields such as `ip.src` or `http.request.headers["x-key"]` (header names in lower case).'],
  ['ratelimit counting_expression', "A filter for which requests count; the rule's expression when empty."],
  ['ratelimit period', 'Seconds: 10, 60, 120, 300, 600 or 3600 (plans allow fewer).'],
  ['ratelimit mitigation_timeout', 'Seconds the action lasts: 0, 10, 60, 120, 300, 600, 3600 or 86400; 0 throttles instead.'],
  ['exposed_credential_check username_expression', 'A value expression giving the user name; only upper, lower, url_decode and lookup_json_string, not nested.'],
  ['exposed_credential_check password_expression', 'A value expression giving the password; only upper, lower, url_decode and lookup_json_string, not nested.'],
]);

/**
 * A short note on the key at `path` of an action's parameters (or of a rule-level object), or
 * undefined. Array indexes and map keys in the path are read as `[]` and `*`.
 */
export function parameterNote(target: string, path: readonly (string | number)[]): string | undefined {
  const root = isRuleObjectKey(target) ? ruleObjectSchema(target) : actionSchema(target)?.parameters;
  const normal: string[] = [];
  let here: ParameterType | undefined = root;
  for (const step of path) {
    if (!here) return undefined;
    const declared = here.kind === 'object' && typeof step === 'string' && here.keys.some((k) => k.key === step);
    normal.push(typeof step === 'number' ? '[]' : here.kind === 'object' && !declared && here.values ? '*' : step);
    here = stepInto(here, step);
  }
  return PARAMETER_NOTES.get(normal.length === 0 ? target : `${target} ${normal.join('.')}`);
}
