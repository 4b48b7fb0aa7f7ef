/**
 * TO BE REPLACED by the octorules reader's table (server/src/language/catalogue/generated/
 * octorules-sections.ts) once it lands: the sections of an octorules rules file and the phase
 * each holds, with the action a rule of it gets when it names none.
 *
 * From octorules-cloudflare 0.18.1, `_CF_PHASE_SPECS` in octorules_cloudflare/__init__.py.
 */
export interface OctorulesSection {
  /** As the file names it under `cloudflare:`. */
  readonly name: string;
  readonly phase: string;
  readonly defaultAction?: string;
}

export const OCTORULES_SECTIONS: readonly OctorulesSection[] = [
  { name: 'redirect_rules', phase: 'http_request_dynamic_redirect', defaultAction: 'redirect' },
  { name: 'url_rewrite_rules', phase: 'http_request_transform', defaultAction: 'rewrite' },
  { name: 'request_header_rules', phase: 'http_request_late_transform', defaultAction: 'rewrite' },
  { name: 'response_header_rules', phase: 'http_response_headers_transform', defaultAction: 'rewrite' },
  { name: 'config_rules', phase: 'http_config_settings', defaultAction: 'set_config' },
  { name: 'origin_rules', phase: 'http_request_origin', defaultAction: 'route' },
  { name: 'cache_rules', phase: 'http_request_cache_settings', defaultAction: 'set_cache_settings' },
  { name: 'compression_rules', phase: 'http_response_compression', defaultAction: 'compress_response' },
  { name: 'custom_error_rules', phase: 'http_custom_errors', defaultAction: 'serve_error' },
  { name: 'waf_custom_rules', phase: 'http_request_firewall_custom' },
  { name: 'waf_managed_rules', phase: 'http_request_firewall_managed' },
  { name: 'rate_limiting_rules', phase: 'http_ratelimit' },
  { name: 'bot_fight_rules', phase: 'http_request_sbfm' },
  { name: 'sensitive_data_detection', phase: 'http_response_firewall_managed' },
  { name: 'http_ddos_rules', phase: 'ddos_l7' },
  { name: 'bulk_redirect_rules', phase: 'http_request_redirect', defaultAction: 'redirect' },
  { name: 'log_custom_fields', phase: 'http_log_custom_fields', defaultAction: 'log_custom_field' },
  { name: 'network_ddos_rules', phase: 'ddos_l4' },
  { name: 'network_firewall_rules', phase: 'magic_transit' },
  { name: 'network_firewall_managed', phase: 'magic_transit_managed' },
  { name: 'network_firewall_ratelimit', phase: 'magic_transit_ratelimit' },
  { name: 'network_firewall_ids', phase: 'magic_transit_ids_managed' },
  { name: 'url_normalization', phase: 'http_request_sanitize' },
];
