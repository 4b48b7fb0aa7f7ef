/**
 * One realistic rule for each phase family, as a person would deploy it to the family's entry
 * point: the action the phase runs and its parameters (or `ratelimit`), in the shapes of the
 * API's types (cloudflare/cloudflare-typescript src/resources/rulesets/rules.ts at
 * faaaf89ed8064a9fb54de538ec3e89487f1302b0: RedirectRule, RewriteRule, RouteRule,
 * SetCacheSettingsRule, SetConfigRule, CompressResponseRule, ServeErrorRule, BlockRule's
 * `response` and `ratelimit`). Shared by the contract rows, the deploy workflow tests, the CLI's
 * and the editor's: what each of them deploys is what the others deploy.
 */
import type { RuleInput } from '../../server/src/api/types';

export interface PhaseFamily {
  /** The family's name in issue 22's list. */
  readonly family: string;
  readonly phase: string;
  /** Where the family's entry point lives: HTTP phases in a zone, the packet phases in an account. */
  readonly level: 'zone' | 'account';
  readonly rule: RuleInput;
}

export const PHASE_FAMILIES: readonly PhaseFamily[] = [
  {
    family: 'firewall',
    phase: 'http_request_firewall_custom',
    level: 'zone',
    rule: {
      action: 'block',
      expression: 'http.request.uri.path eq "/admin" and not ip.src in {192.0.2.0/24}',
      description: 'the admin pages only from the office',
      action_parameters: { response: { status_code: 403, content: '{"error": "forbidden"}', content_type: 'application/json' } },
    },
  },
  {
    family: 'redirect',
    phase: 'http_request_dynamic_redirect',
    level: 'zone',
    rule: {
      action: 'redirect',
      expression: 'starts_with(http.request.uri.path, "/old/")',
      description: 'the old pages moved to www',
      action_parameters: { from_value: { status_code: 301, target_url: { expression: 'concat("https://www.example.com", http.request.uri.path)' }, preserve_query_string: true } },
    },
  },
  {
    family: 'transform',
    phase: 'http_request_transform',
    level: 'zone',
    rule: {
      action: 'rewrite',
      expression: 'starts_with(http.request.uri.path, "/v1/")',
      description: 'v1 is served by v2',
      action_parameters: { uri: { path: { expression: 'regex_replace(http.request.uri.path, "^/v1/", "/v2/")' } } },
    },
  },
  {
    family: 'transform',
    phase: 'http_response_headers_transform',
    level: 'zone',
    rule: {
      action: 'rewrite',
      expression: 'true',
      description: 'security headers',
      action_parameters: { headers: { 'X-Frame-Options': { operation: 'set', value: 'DENY' }, 'X-Client-Country': { operation: 'set', expression: 'ip.src.country' }, 'X-Powered-By': { operation: 'remove' } } },
    },
  },
  {
    family: 'origin',
    phase: 'http_request_origin',
    level: 'zone',
    rule: {
      action: 'route',
      expression: 'starts_with(http.request.uri.path, "/static/")',
      description: 'static files from the bucket',
      action_parameters: { host_header: 'static.example.net', origin: { host: 'static.example.net', port: 8443 }, sni: { value: 'static.example.net' } },
    },
  },
  {
    family: 'cache',
    phase: 'http_request_cache_settings',
    level: 'zone',
    rule: {
      action: 'set_cache_settings',
      expression: 'http.request.uri.path.extension in {"css" "js"}',
      description: 'styles and scripts a day at the edge',
      action_parameters: {
        cache: true,
        edge_ttl: { mode: 'override_origin', default: 86400, status_code_ttl: [{ status_code_range: { from: 500, to: 599 }, value: -1 }] },
        browser_ttl: { mode: 'respect_origin' },
      },
    },
  },
  {
    family: 'configuration',
    phase: 'http_config_settings',
    level: 'zone',
    rule: {
      action: 'set_config',
      expression: 'http.host eq "shop.example.com"',
      description: 'the shop: strict TLS, lossless images',
      action_parameters: { ssl: 'strict', automatic_https_rewrites: true, polish: 'lossless', security_level: 'high' },
    },
  },
  {
    family: 'compression',
    phase: 'http_response_compression',
    level: 'zone',
    rule: {
      action: 'compress_response',
      expression: 'http.response.content_type.media_type eq "text/html"',
      description: 'brotli first for HTML',
      action_parameters: { algorithms: [{ name: 'brotli' }, { name: 'gzip' }] },
    },
  },
  {
    family: 'custom errors',
    phase: 'http_custom_errors',
    level: 'zone',
    rule: {
      action: 'serve_error',
      expression: 'http.response.code eq 503',
      description: 'a friendly page while the origin is down',
      action_parameters: { content: '<h1>Back soon</h1>', content_type: 'text/html', status_code: 503 },
    },
  },
  {
    family: 'rate limiting',
    phase: 'http_ratelimit',
    level: 'zone',
    rule: {
      action: 'block',
      expression: 'starts_with(http.request.uri.path, "/api/")',
      description: 'at most 100 API requests a minute per address',
      ratelimit: { characteristics: ['ip.src', 'cf.colo.id'], period: 60, requests_per_period: 100, mitigation_timeout: 600 },
    },
  },
  {
    family: 'magic transit',
    phase: 'magic_transit',
    level: 'account',
    rule: { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in {22}', description: 'ssh', logging: { enabled: true } },
  },
];

/** Issue 22's phase families, each of which needs a row. */
export const FAMILY_NAMES: readonly string[] = ['firewall', 'redirect', 'transform', 'origin', 'cache', 'configuration', 'compression', 'custom errors', 'rate limiting', 'magic transit'];

/** The family's entry point ruleset as a file holds it (kind `zone` in a zone, `root` in an account). */
export function entryPointFile(family: PhaseFamily, rules: readonly RuleInput[] = [family.rule]): { name: string; kind: 'zone' | 'root'; phase: string; rules: readonly RuleInput[] } {
  return { name: `${family.family} (${family.phase})`, kind: family.level === 'zone' ? 'zone' : 'root', phase: family.phase, rules };
}

/**
 * A zone's redirects as a person writes them in YAML, with a comment: the file the CLI and the
 * editor deploy end to end: the redirect family's rule and one more.
 */
export const REDIRECTS_YAML = [
  '# Redirects of www.example.com',
  'name: redirects',
  'kind: zone',
  'phase: http_request_dynamic_redirect',
  'rules:',
  '  - action: redirect',
  '    description: the old pages moved to www',
  '    expression: starts_with(http.request.uri.path, "/old/")',
  '    action_parameters:',
  '      from_value:',
  '        status_code: 301',
  '        target_url:',
  '          expression: concat("https://www.example.com", http.request.uri.path)',
  '        preserve_query_string: true',
  '  - action: redirect',
  '    expression: http.request.uri.path eq "/contact"',
  '    action_parameters:',
  '      from_value:',
  '        status_code: 302',
  '        target_url:',
  '          value: https://www.example.com/about#contact',
  '',
].join('\n');
