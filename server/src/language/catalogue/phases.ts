/**
 * Phases the service is known to have. A phase outside this list is a warning, not an
 * error: the service adds phases, and a stale list must not block anyone.
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
  'http_response_compression',
  'http_response_firewall_managed',
  'http_response_headers_transform',
];

export const RULESET_KINDS: readonly string[] = ['root', 'custom', 'managed', 'zone'];

/** Actions this tooling knows the parameters of; others are accepted with a warning. */
export const KNOWN_ACTIONS: readonly string[] = ['block', 'skip', 'execute'];
