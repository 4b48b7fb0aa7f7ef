/**
 * What a ruleset's rules can do to what they match, by phase: which actions end the evaluation
 * (and so decide a test case), and what a test case may `expect`.
 *
 * Source: the Cloudflare docs' actions reference (cloudflare-docs
 * src/content/docs/ruleset-engine/rules-language/actions.mdx at 0309c8be), whose table marks
 * `block`, `challenge`, `js_challenge`, `managed_challenge`, `redirect`, `serve_error` and
 * `log_custom_field` as terminating ("will stop the evaluation of the remaining rules"), and
 * `skip`, `log`, `execute`, `rewrite`, `route`, `set_config`, `compress_response` and
 * `set_cache_settings` as not; and says where each of the latter group and `redirect`,
 * `serve_error`, `log_custom_field` are "only available". In the phases that have only
 * non-terminating actions a test case says which rules match; what the actions do to the
 * request (a rewritten path, a header set, a cache setting) is effects.ts's.
 */
import { phaseFamily } from '../language/catalogue/catalogues';

export const TERMINATING_ACTIONS: readonly string[] = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'redirect', 'serve_error', 'log_custom_field'];

export interface PhaseOutcomes {
  /**
   * `decide`: the first matching rule with a terminating action decides (a skip of the current
   * ruleset passes), and no decision is a pass. `match`: the phase's actions do not end the
   * evaluation; a case says whether rules match.
   */
  readonly kind: 'decide' | 'match';
  /** Which actions end the evaluation in this phase. */
  readonly terminating: readonly string[];
  /** The values of a test case's `expect`. */
  readonly expectations: readonly string[];
}

const CHALLENGES = ['block', 'challenge', 'js_challenge', 'managed_challenge'];

/** Phases whose rules end a request with a block or a challenge: WAF custom and managed rules, rate limiting, DDoS. */
const FIREWALL_PHASES = ['http_request_firewall_custom', 'http_request_firewall_managed', 'http_response_firewall_managed', 'http_ratelimit', 'http_request_sbfm', 'ddos_l7'];

/** Phases whose only actions do not terminate (actions.mdx: "Only available in" each of them). */
const MATCH_PHASES = [
  'http_request_transform', // rewrite
  'http_request_late_transform', // rewrite
  'http_response_headers_transform', // rewrite
  'http_request_origin', // route
  'http_config_settings', // set_config
  'http_request_cache_settings', // set_cache_settings
  // set_cache_settings, set_cache_tags, set_cache_control: Cache Response Rules stack, the last
  // matching rule winning each setting (cache/how-to/cache-response-rules/index.mdx at 068d53af).
  'http_response_cache_settings',
  'http_response_compression', // compress_response
];

function decide(terminating: readonly string[]): PhaseOutcomes {
  return { kind: 'decide', terminating, expectations: [...terminating, 'pass'] };
}

/**
 * The outcomes of a ruleset of `phase` over a packet or a request. Packets (the Magic Transit
 * phases, or a ruleset that names no phase) know `block` only, as they always have; a request in
 * a phase this table does not name may meet any terminating action.
 */
export function phaseOutcomes(phase: string | undefined, subject: 'packet' | 'request'): PhaseOutcomes {
  if (subject === 'packet') return decide(['block']);
  if (phase !== undefined && FIREWALL_PHASES.includes(phase)) return decide(CHALLENGES);
  if (phase === 'http_request_dynamic_redirect' || phase === 'http_request_redirect') return decide(['redirect']);
  if (phase === 'http_custom_errors') return decide(['serve_error']);
  if (phase === 'http_log_custom_fields') return decide(['log_custom_field']);
  if (phase !== undefined && MATCH_PHASES.includes(phase)) return { kind: 'match', terminating: [], expectations: ['match', 'no-match'] };
  return decide(TERMINATING_ACTIONS);
}

/** Whether a ruleset of this phase runs on packets or on requests; undefined when the phase does not say. */
export function subjectOfPhase(phase: string | undefined): 'packet' | 'request' | undefined {
  const family = phaseFamily(phase);
  return family === 'magic' ? 'packet' : family === 'http' ? 'request' : undefined;
}

/** What `expect: X` means, for completion: `the ruleset blocks the request`. */
export function describeExpectation(value: string, subject: 'packet' | 'request'): string {
  switch (value) {
    case 'pass':
      return `no rule ends the evaluation: the ruleset lets the ${subject} through`;
    case 'match':
      return 'a rule matches the request (with `rule:`, that rule)';
    case 'no-match':
      return 'no rule matches the request';
    default:
      return `a matching \`${value}\` rule ends the evaluation`;
  }
}
