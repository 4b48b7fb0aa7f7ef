/**
 * TO BE REPLACED by the octorules reader's table (server/src/language/catalogue/generated/
 * octorules-sections.ts) once it lands: the sections of an octorules rules file and the phase
 * each holds, with the action a rule of it gets when it names none.
 *
 * From octorules-cloudflare 0.18.1, `_CF_PHASE_SPECS` in octorules_cloudflare/__init__.py.
 */
/** The block a zone or account file nests its Cloudflare sections in. */
export const OCTORULES_NAMESPACE = 'cloudflare';

/** The same names and members as the generated table, so that swapping is an import. */
export interface OctorulesSection {
  /** The section's key in a rules file, under `cloudflare:`. */
  readonly section: string;
  readonly phase: string;
  readonly defaultAction?: string;
}

export const OCTORULES_SECTIONS: readonly OctorulesSection[] = [
  { section: 'redirect_rules', phase: 'http_request_dynamic_redirect', defaultAction: 'redirect' },
  { section: 'url_rewrite_rules', phase: 'http_request_transform', defaultAction: 'rewrite' },
  { section: 'request_header_rules', phase: 'http_request_late_transform', defaultAction: 'rewrite' },
  { section: 'response_header_rules', phase: 'http_response_headers_transform', defaultAction: 'rewrite' },
  { section: 'config_rules', phase: 'http_config_settings', defaultAction: 'set_config' },
  { section: 'origin_rules', phase: 'http_request_origin', defaultAction: 'route' },
  { section: 'cache_rules', phase: 'http_request_cache_settings', defaultAction: 'set_cache_settings' },
  { section: 'compression_rules', phase: 'http_response_compression', defaultAction: 'compress_response' },
  { section: 'custom_error_rules', phase: 'http_custom_errors', defaultAction: 'serve_error' },
  { section: 'waf_custom_rules', phase: 'http_request_firewall_custom' },
  { section: 'waf_managed_rules', phase: 'http_request_firewall_managed' },
  { section: 'rate_limiting_rules', phase: 'http_ratelimit' },
  { section: 'bot_fight_rules', phase: 'http_request_sbfm' },
  { section: 'sensitive_data_detection', phase: 'http_response_firewall_managed' },
  { section: 'http_ddos_rules', phase: 'ddos_l7' },
  { section: 'bulk_redirect_rules', phase: 'http_request_redirect', defaultAction: 'redirect' },
  { section: 'log_custom_fields', phase: 'http_log_custom_fields', defaultAction: 'log_custom_field' },
  { section: 'network_ddos_rules', phase: 'ddos_l4' },
  { section: 'network_firewall_rules', phase: 'magic_transit' },
  { section: 'network_firewall_managed', phase: 'magic_transit_managed' },
  { section: 'network_firewall_ratelimit', phase: 'magic_transit_ratelimit' },
  { section: 'network_firewall_ids', phase: 'magic_transit_ids_managed' },
  { section: 'url_normalization', phase: 'http_request_sanitize' },
];
