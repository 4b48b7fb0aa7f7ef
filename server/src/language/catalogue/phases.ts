/**
 * Phases the service is known to have. A phase outside this list is a warning, not an
 * error: the service adds phases, and a stale list must not block anyone. Source: the API's
 * `Phase` type (cloudflare/cloudflare-typescript src/resources/rulesets/rulesets.ts at faaaf89e),
 * whose members are exactly these; it has `http_response_cache_settings` (Cache Response Rules),
 * which the docs' phases list does not name.
 */
export const KNOWN_PHASES: readonly string[] = [
  'magic_transit',
  'magic_transit_managed',
  'magic_transit_ids_managed',
  'magic_transit_ratelimit',
  'ddos_l4',
  'ddos_l7',
  'http_config_settings',
  'http_custom_errors',
  'http_log_custom_fields',
  'http_ratelimit',
  'http_request_cache_settings',
  'http_request_dynamic_redirect',
  'http_request_firewall_custom',
  'http_request_firewall_managed',
  'http_request_late_transform',
  'http_request_origin',
  'http_request_redirect',
  'http_request_sanitize',
  'http_request_sbfm',
  'http_request_transform',
  'http_response_cache_settings',
  'http_response_compression',
  'http_response_firewall_managed',
  'http_response_headers_transform',
];

/**
 * The most rules the service documents for a ruleset of a phase (and kind). Sources:
 * developers.cloudflare.com/cloudflare-one/traffic-policies/packet-filtering/add-policies
 * ("by default, you can create a maximum of 200 policies"; an account team can raise it) and
 * …/packet-filtering/enable-managed-rulesets (the managed phase's root ruleset "can contain
 * only one rule, but that single rule can include multiple overrides").
 */
export const RULE_LIMITS: readonly { readonly phase: string; readonly kinds: readonly string[]; readonly limit: number; readonly why: string }[] = [
  { phase: 'magic_transit', kinds: ['root', 'custom', 'zone'], limit: 200, why: 'the service takes at most 200 in the `magic_transit` phase, unless your account team has raised the limit' },
  { phase: 'magic_transit_managed', kinds: ['root'], limit: 1, why: 'a root ruleset of the `magic_transit_managed` phase holds one rule, whose overrides enable the managed rules' },
];

export const RULESET_KINDS: readonly string[] = ['root', 'custom', 'managed', 'zone'];

/**
 * Every action the API defines, with what it does in a few words (ours). Source: the API's types,
 * cloudflare/cloudflare-typescript src/resources/rulesets/rules.ts at faaaf89e (the `action`
 * members), and the docs' actions reference (ruleset-engine/rules-language/actions.mdx at
 * 0309c8be) for what each does and where. The service's list of actions is closed and these are
 * its own types', so a name outside this list is an error (`unknown-action`): the service refuses it. Each action's `action_parameters`, and the phases that take it, are in
 * actions.ts.
 */
export const ACTION_SUMMARIES: ReadonlyMap<string, string> = new Map([
  ['block', 'Stops what the expression matches: a packet is dropped, a request is refused (403, or 429 for rate limiting).'],
  ['challenge', 'An interactive challenge the client must pass before the request goes on.'],
  ['js_challenge', 'A non-interactive challenge the client must pass before the request goes on.'],
  ['managed_challenge', 'A challenge the service chooses for the request, interactive or not.'],
  ['log', 'Records the match in the logs and lets the request go on (Enterprise).'],
  ['skip', 'Skips rules after this one for what it matches: the rest of this ruleset, or phases, products or rulesets, by its parameters.'],
  ['execute', 'Runs another ruleset (managed or custom) on what the expression matches.'],
  ['rewrite', 'Rewrites the URI path, query or headers (Transform Rules).'],
  ['redirect', 'Answers with an HTTP redirect to a target URL (Single and Bulk Redirects).'],
  ['route', 'Changes the Host header, SNI, resolved host name or destination port (Origin Rules).'],
  ['set_config', 'Changes the settings of Cloudflare products for the request (Configuration Rules).'],
  ['compress_response', 'Sets how the response is compressed (Compression Rules).'],
  ['set_cache_settings', 'Sets how the response is cached (Cache Rules).'],
  ['set_cache_control', 'Sets Cache-Control directives of the response.'],
  ['set_cache_tags', 'Sets the cache tags of the response.'],
  ['serve_error', 'Serves custom error content (Custom Error Rules).'],
  ['log_custom_field', 'Adds custom fields to the Logpush jobs of a zone.'],
  ['score', 'Adds to a score that later rules can test (rate limiting by score).'],
  ['ddos_dynamic', 'The DDoS protection chooses the mitigation (DDoS managed rules).'],
  ['force_connection_close', 'Closes the client connection after the response.'],
  ['transform_response_html', 'Rewrites the HTML of the response.'],
]);

export const KNOWN_ACTIONS: readonly string[] = [...ACTION_SUMMARIES.keys()];

/** The actions the packet phases document (the Magic Firewall docs; LANGUAGE.md §8). */
export const PACKET_PHASE_ACTIONS: readonly string[] = ['block', 'skip', 'execute'];

export interface KeyInfo {
  readonly key: string;
  readonly doc: string;
}

/** The keys of a ruleset, in the order completion offers them: what an author writes first. */
export const RULESET_KEYS: readonly KeyInfo[] = [
  { key: 'name', doc: 'Name of the ruleset.' },
  { key: 'kind', doc: `Kind of the ruleset: ${RULESET_KINDS.join(', ')}.` },
  { key: 'phase', doc: 'Phase the ruleset runs in, e.g. `magic_transit`.' },
  { key: 'description', doc: 'What the ruleset is for.' },
  { key: 'rules', doc: 'The rules, evaluated in order.' },
  { key: 'id', doc: 'Id of the ruleset (set by the service).' },
  { key: 'version', doc: 'Version of the ruleset (set by the service).' },
  { key: 'last_updated', doc: 'When the ruleset last changed (set by the service).' },
  // The API returns it (cf-terraforming's recorded responses: `"source": "firewall_custom"`).
  { key: 'source', doc: 'What the ruleset is for, as the API reports it: `firewall_custom` on a zone\'s custom rules entry point (set by the service).' },
];

/** The keys of a rule, in the order completion offers them. */
export const RULE_KEYS: readonly KeyInfo[] = [
  { key: 'action', doc: `What the rule does when the expression matches: ${KNOWN_ACTIONS.join(', ')}.` },
  { key: 'expression', doc: 'The filter expression, e.g. `ip.src in $svc.anonymizer`.' },
  { key: 'description', doc: 'What the rule is for.' },
  { key: 'enabled', doc: 'Whether the rule is active.' },
  { key: 'action_parameters', doc: 'Parameters of the action, by action: `{"from_value": {…}}` for `redirect`, `{"uri": {…}}` or `{"headers": {…}}` for `rewrite`, `{"ruleset": "current"}` for a packet `skip`, `{"id": …}` for `execute`.' },
  { key: 'logging', doc: 'Logging of a `skip` rule: `{"enabled": true}`.' },
  { key: 'id', doc: 'Id of the rule (set by the service).' },
  { key: 'ref', doc: 'Stable reference of the rule.' },
  { key: 'version', doc: 'Version of the rule (set by the service).' },
  { key: 'categories', doc: 'Categories of the rule.' },
  { key: 'last_updated', doc: 'When the rule last changed (set by the service).' },
  // Defined by the API for other actions and phases; kept as they are on a round trip.
  { key: 'ratelimit', doc: 'Rate limiting parameters of the rule (rate limiting phases).' },
  { key: 'exposed_credential_check', doc: 'Exposed credential check parameters of the rule (HTTP phases).' },
];
