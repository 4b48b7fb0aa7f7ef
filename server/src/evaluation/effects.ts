/**
 * What the matching rules of a ruleset do to a request, beyond the verdict: the redirect's
 * target and status, the rewritten path and query, the headers set, added or removed, the
 * origin chosen, the cache and configuration settings, the error page served. Read from each
 * rule's `action_parameters` (their shapes: the API's types, cloudflare-typescript
 * src/resources/rulesets/rules.ts at faaaf89e: RedirectRule, RewriteRule, RouteRule,
 * SetCacheSettingsRule, SetConfigRule, ServeErrorRule, CompressResponseRule), with value expressions evaluated over the
 * request as filters are (evaluate.ts).
 *
 * How several rules combine, and where it comes from (cloudflare-docs):
 * - Transform rules (`rewrite`) "run in order", later ones can overwrite what earlier ones
 *   changed, and fields are immutable within a phase: every rule's filter and value expressions
 *   see the original request (src/content/docs/rules/transform/index.mdx and
 *   url-rewrite/index.mdx at 01c89422). So every value here is evaluated over the request as
 *   given, and for one target (the path, the query, a header) the last matching rule's change
 *   wins — except `add`, which keeps what is there (below).
 * - Headers (response-header-modification/reference/parameters.mdx at 1215e033): `set`
 *   overwrites any header of that name, `add` keeps them and adds one more, `remove` removes
 *   them. Names are compared without regard to case (HTTP field names are case-insensitive,
 *   RFC 9110 §5.1).
 * - Cache settings: several matching rules combine, and "if several matching rules set a value
 *   for the same setting, the value in the last matching rule wins"
 *   (src/content/docs/cache/how-to/cache-rules/order.mdx at 2678ac4c). Origin rules merge the
 *   same way, a later rule's settings overriding or adding to earlier ones: the port of one rule
 *   and the host of another both apply (src/content/docs/rules/origin-rules/faq.mdx at d1b4c276).
 *   Configuration rules are taken to combine the same way, setting by setting (each top-level
 *   key of the parameters); the docs read here do not say.
 * - Compression: "If multiple compression rules match, the last rule wins"
 *   (src/content/docs/rules/compression-rules/index.mdx at 04047ca5).
 * - A redirect (url-forwarding/single-redirects/settings.mdx at 0d83b587): the target is the
 *   `value`, or the value of the `expression`; the status code is 301 unless `status_code` says
 *   otherwise; with `preserve_query_string` the request's query string is kept. How a kept query
 *   joins a target that has one of its own is not said: not evaluated. A redirect `from_list`
 *   looks the request up in a bulk redirect list that the ruleset file does not hold: not evaluated.
 */
import { isTerraformTemplate, property, type HostNode, type HostProperty } from '../documents/host/index';
import { checkValueExpression } from '../language/checker';
import { EvaluationError, evaluateValuePartial, explainMissing, type Subject } from './evaluate';
import type { Lists } from './packet';
import { describeRule, FILLED_IN_BY_TERRAFORM, plain, type PreparedRuleset, type RuleInfo, type RulesetVerdict } from './ruleset-eval';
import { MISSING } from './value';

/** A value the effect has, or why it cannot be known. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** A setting and the rule that gave it (the last matching one that did). */
export interface Given<T> {
  readonly value: T;
  readonly rule: RuleInfo;
  /** Part of it is Terraform's to fill in (a reference, a `${…}`): why its value is not known. */
  readonly filledIn?: string;
}

export interface RedirectEffect {
  readonly rule: RuleInfo;
  /** The URL of the `Location` header. */
  readonly url: Outcome<string>;
  /** The status code: `status_code`, or 301 when the rule gives none; unknown when it is not a number. */
  readonly status: Outcome<number>;
}

/** What the rules did to one header: `set` (replaced), `add` (kept, one more value each), or `remove`. */
export interface HeaderEffect {
  /** The name as the last rule that changed it wrote it. */
  readonly name: string;
  /** `set`: the header's values are now `values`; `add`: `values` were added to those it had; `remove`: it is gone. */
  readonly state: 'set' | 'add' | 'remove';
  readonly values: readonly Outcome<string>[];
  /** The rules that changed it, in order. */
  readonly rules: readonly RuleInfo[];
}

export interface ServeErrorEffect {
  readonly rule: RuleInfo;
  /** As Given.filledIn. */
  readonly filledIn?: string;
  /** The parameters as given: `content`, `content_type`, `status_code`, `asset_name`. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface Effects {
  readonly redirect?: RedirectEffect;
  /** The URL rewrite: the new path and query, each from the last matching rule that rewrites it. */
  readonly path?: Given<Outcome<string>>;
  readonly query?: Given<Outcome<string>>;
  /** Header changes by lowercase name, in the order first changed. */
  readonly headers: ReadonlyMap<string, HeaderEffect>;
  /** `route`: `host_header`, `host`, `port`, `sni`. */
  readonly origin: ReadonlyMap<string, Given<unknown>>;
  /** `set_cache_settings` and `set_config`: each setting from the last matching rule that sets it. */
  readonly cache: ReadonlyMap<string, Given<unknown>>;
  readonly config: ReadonlyMap<string, Given<unknown>>;
  readonly serveError?: ServeErrorEffect;
  /** `compress_response`: the algorithms of the last matching rule, as given. */
  readonly compression?: Given<unknown>;
}

/**
 * The effects of the rules that matched in the verdict's trace, in order: each non-terminating
 * match, then the deciding rule's when it redirects or serves an error.
 */
export function rulesetEffects(prepared: PreparedRuleset, verdict: RulesetVerdict, subject: Subject, lists: Lists = new Map()): Effects {
  const valueOf = (text: string, rule: RuleInfo, what: string): Outcome<string> => evaluateText(text, prepared.phase, subject, lists, rule, what);
  const headers = new Map<string, HeaderEffect>();
  const origin = new Map<string, Given<unknown>>();
  const cache = new Map<string, Given<unknown>>();
  const config = new Map<string, Given<unknown>>();
  let path: Given<Outcome<string>> | undefined;
  let query: Given<Outcome<string>> | undefined;
  let redirect: RedirectEffect | undefined;
  let serveError: ServeErrorEffect | undefined;
  let compression: Given<unknown> | undefined;
  for (const entry of verdict.trace) {
    if (entry.outcome !== 'match') continue;
    const rule = entry.rule;
    const parameters = prepared.rules[rule.index]?.parameters;
    switch (rule.action) {
      case 'rewrite': {
        const uri = property(parameters, 'uri')?.value;
        const part = (key: 'path' | 'query'): Given<Outcome<string>> | undefined => {
          const node = property(uri, key)?.value;
          return node ? { value: staticOrExpression(node, rule, `the ${key} rewrite`, valueOf), rule } : undefined;
        };
        path = part('path') ?? path;
        query = part('query') ?? query;
        const headersNode = property(parameters, 'headers')?.value;
        if (headersNode?.kind === 'object') {
          for (const p of headersNode.properties) changeHeader(headers, p.key, p.value, rule, valueOf);
        }
        break;
      }
      case 'route':
        if (parameters?.kind !== 'object') break;
        for (const p of parameters.properties) {
          if (p.key === 'origin' && p.value?.kind === 'object') for (const q of p.value.properties) origin.set(q.key, given(q, q.value, rule));
          else if (p.key === 'sni') origin.set('sni', given(p, property(p.value, 'value')?.value, rule));
          else origin.set(p.key, given(p, p.value, rule));
        }
        break;
      case 'set_cache_settings':
      case 'set_config':
        if (parameters?.kind !== 'object') break;
        for (const p of parameters.properties) (rule.action === 'set_config' ? config : cache).set(p.key, given(p, p.value, rule));
        break;
      case 'redirect':
        redirect = redirectEffect(parameters, rule, subject, valueOf);
        break;
      case 'serve_error':
        serveError = { rule, parameters: parameters?.kind === 'object' ? (plain(parameters) as Record<string, unknown>) : {}, ...filledInOf(parameters, rule, 'the error page') };
        break;
      case 'compress_response': {
        const algorithms = property(parameters, 'algorithms');
        compression = given(algorithms, algorithms?.value, rule);
        break;
      }
    }
  }
  return { redirect, path, query, headers, origin, cache, config, serveError, compression };
}

/** A setting as given by `property` of a rule: its plain value, or why Terraform's part of it is not known. */
function given(p: HostProperty | undefined, value: HostNode | undefined, rule: RuleInfo): Given<unknown> {
  const filledIn = p?.filledIn ? { filledIn: `\`${p.key}\` of rule ${describeRule(rule)} is ${FILLED_IN_BY_TERRAFORM}: not decided` } : filledInOf(value, rule, p ? `\`${p.key}\`` : 'a setting');
  return { value: plain(value), rule, ...filledIn };
}

/** `{ filledIn }` when some value in `node` is Terraform's to fill in; walks MAX_NESTING levels at most, as the host tree has. */
function filledInOf(node: HostNode | undefined, rule: RuleInfo, what: string): { filledIn?: string } {
  const holds = (n: HostNode | undefined): boolean =>
    n !== undefined && (isTerraformTemplate(n) || (n.kind === 'object' ? n.properties.some((q) => q.filledIn !== undefined || holds(q.value)) : n.kind === 'array' && n.items.some(holds)));
  return holds(node) ? { filledIn: `part of ${what} of rule ${describeRule(rule)} is ${FILLED_IN_BY_TERRAFORM}: not decided` } : {};
}

/** `{value: "…"}` or `{expression: "…"}`, the two forms of a rewritten value. */
function staticOrExpression(node: HostNode, rule: RuleInfo, what: string, valueOf: (text: string, rule: RuleInfo, what: string) => Outcome<string>): Outcome<string> {
  const filledIn = terraformFilledIn(node, ['value', 'expression'], rule, what);
  if (filledIn) return filledIn;
  const value = property(node, 'value')?.value;
  if (value?.kind === 'string') return { ok: true, value: String(value.value) };
  const expression = property(node, 'expression')?.value;
  if (expression?.kind === 'string') return valueOf(String(expression.value), rule, what);
  return { ok: false, reason: `rule ${describeRule(rule)} gives ${what} neither a \`value\` nor an \`expression\` string` };
}

function changeHeader(headers: Map<string, HeaderEffect>, name: string, node: HostNode | undefined, rule: RuleInfo, valueOf: (text: string, rule: RuleInfo, what: string) => Outcome<string>): void {
  const operation = property(node, 'operation')?.value;
  const op = operation?.kind === 'string' ? String(operation.value) : undefined;
  if (op !== 'set' && op !== 'add' && op !== 'remove') return;
  const key = name.toLowerCase();
  const before = headers.get(key);
  const rules = [...(before?.rules ?? []), rule];
  if (op === 'remove') {
    headers.set(key, { name, state: 'remove', values: [], rules });
    return;
  }
  const value = staticOrExpression(node!, rule, `header \`${name}\``, valueOf);
  if (op === 'set') headers.set(key, { name, state: 'set', values: [value], rules });
  // An add after a set or a removal adds to what those left; after nothing, to the header as it was.
  else if (!before) headers.set(key, { name, state: 'add', values: [value], rules });
  else headers.set(key, { name, state: before.state === 'remove' ? 'set' : before.state, values: [...before.values, value], rules });
}

/**
 * Where a Terraform file leaves one of `keys` of `node` to Terraform (a reference, a `${…}`
 * template), what it does is not known: never the stand-in of a hole taken for the value.
 */
function terraformFilledIn(node: HostNode | undefined, keys: readonly string[], rule: RuleInfo, what: string): Outcome<never> | undefined {
  for (const key of keys) {
    const p: HostProperty | undefined = property(node, key);
    if (p && (p.filledIn || isTerraformTemplate(p.value))) return { ok: false, reason: `\`${key}\` of ${what} of rule ${describeRule(rule)} is ${FILLED_IN_BY_TERRAFORM}: not decided` };
  }
  return undefined;
}

/** The documented default status of a redirect (settings.mdx: "301 - Permanent Redirect by default"). */
export const DEFAULT_REDIRECT_STATUS = 301;

function redirectEffect(parameters: HostNode | undefined, rule: RuleInfo, subject: Subject, valueOf: (text: string, rule: RuleInfo, what: string) => Outcome<string>): RedirectEffect {
  const fromValue = property(parameters, 'from_value')?.value;
  if (!fromValue) {
    const fromList = property(parameters, 'from_list')?.value;
    const name = property(fromList, 'name')?.value;
    const reason = fromList
      ? `rule ${describeRule(rule)} redirects by the bulk redirect list${name?.kind === 'string' ? ` \`${String(name.value)}\`` : ''}, whose entries are not in the ruleset file: \`rulesets test\` cannot say where it leads`
      : `rule ${describeRule(rule)} has no \`action_parameters.from_value\``;
    return { rule, url: { ok: false, reason }, status: { ok: true, value: DEFAULT_REDIRECT_STATUS } };
  }
  const statusNode = property(fromValue, 'status_code')?.value;
  const status: Outcome<number> =
    terraformFilledIn(fromValue, ['status_code'], rule, 'the redirect') ??
    (statusNode === undefined
      ? { ok: true, value: DEFAULT_REDIRECT_STATUS }
      : statusNode.kind === 'number'
        ? { ok: true, value: Number(statusNode.value) }
        : { ok: false, reason: `rule ${describeRule(rule)} gives \`status_code\` as ${statusNode.kind === 'string' ? `the string "${String(statusNode.value)}"` : `a ${statusNode.kind}`}, not a number: the API refuses it` });
  const target = property(fromValue, 'target_url')?.value;
  let url: Outcome<string> =
    terraformFilledIn(fromValue, ['target_url', 'preserve_query_string'], rule, 'the redirect') ??
    (target ? staticOrExpression(target, rule, 'the target URL', valueOf) : { ok: false, reason: `rule ${describeRule(rule)} has no \`target_url\`` });
  const preserve = property(fromValue, 'preserve_query_string')?.value;
  if (url.ok && preserve?.kind === 'boolean' && preserve.value === true) url = keepQuery(url.value, rule, subject);
  return { rule, url, status };
}

/** The target with the request's query string, as sent, after a `?`. */
function keepQuery(target: string, rule: RuleInfo, subject: Subject): Outcome<string> {
  const field = 'raw.http.request.uri.query';
  const query = 'fields' in subject ? subject.fields.get(field) : undefined;
  if (query?.type !== 'Bytes') return { ok: false, reason: `rule ${describeRule(rule)} keeps the query string, and the request has no value for \`${field}\` (give \`url\`)` };
  if (query.bytes.length === 0) return { ok: true, value: target };
  if (target.includes('?')) {
    return { ok: false, reason: `rule ${describeRule(rule)} keeps the request's query string, and its target \`${target}\` has a query of its own: the docs do not say how the two combine` };
  }
  return { ok: true, value: `${target}?${new TextDecoder().decode(query.bytes)}` };
}

/** A value expression's text, checked for the phase and evaluated over the request, as a String. */
function evaluateText(text: string, phase: string | undefined, subject: Subject, lists: Lists, rule: RuleInfo, what: string): Outcome<string> {
  const checked = checkValueExpression(text, { phase, expect: ['Bytes'] });
  const error = checked.problems.find((p) => p.severity === 'error');
  const of = `${what} of rule ${describeRule(rule)}`;
  if (!checked.ast || error) return { ok: false, reason: `${of} has errors (${error?.message ?? 'it does not parse'}); \`rulesets check\` lists them` };
  let result;
  try {
    result = evaluateValuePartial(checked.ast, subject, lists);
  } catch (e) {
    if (e instanceof EvaluationError) return { ok: false, reason: `${of} cannot be evaluated: ${e.message}` };
    throw e;
  }
  if (result.value === undefined) return { ok: false, reason: `${of} is unknown: ${explainMissing(result.missing, result.reasons, 'request', 'this value needs')}` };
  if (result.value === MISSING) return { ok: false, reason: `${of} is a missing value (a header or key the request does not have), and the docs do not say what the action does then` };
  if (result.value.type !== 'Bytes') return { ok: false, reason: `${of} is not a String` };
  return { ok: true, value: new TextDecoder().decode(result.value.bytes) };
}

/**
 * The effects as `rulesets test --request` prints them, one line each: `redirect to URL, status
 * 301`, `path /v2/users by rule 1`, `header X-Frame-Options set to "DENY" by rule 1`, `cache
 * edge_ttl {…} by rule 2`; a value that cannot be known says why.
 */
export function describeEffects(effects: Effects): string[] {
  const lines: string[] = [];
  const of = (rule: RuleInfo) => `by rule ${describeRule(rule)}`;
  const text = (value: Outcome<string>) => (value.ok ? value.value : `unknown: ${value.reason}`);
  if (effects.redirect) lines.push(`redirect to ${text(effects.redirect.url)}, status ${effects.redirect.status.ok ? effects.redirect.status.value : `unknown: ${effects.redirect.status.reason}`}`);
  if (effects.path) lines.push(`path ${text(effects.path.value)} ${of(effects.path.rule)}`);
  if (effects.query) lines.push(`query ${text(effects.query.value)} ${of(effects.query.rule)}`);
  for (const h of effects.headers.values()) {
    const values = h.values.map((v) => (v.ok ? JSON.stringify(v.value) : `(unknown: ${v.reason})`)).join(', ');
    lines.push(`header ${h.name} ${h.state === 'remove' ? 'removed' : h.state === 'add' ? `added ${values}` : `set to ${values}`} ${of(h.rules[h.rules.length - 1])}`);
  }
  for (const [what, settings] of [['origin', effects.origin], ['cache', effects.cache], ['config', effects.config]] as const) {
    for (const [key, given] of settings) lines.push(`${what} ${key} ${JSON.stringify(given.value)} ${of(given.rule)}`);
  }
  if (effects.compression) lines.push(`compression ${JSON.stringify(effects.compression.value)} ${of(effects.compression.rule)}`);
  if (effects.serveError) lines.push(`serve_error ${JSON.stringify(effects.serveError.parameters)} ${of(effects.serveError.rule)}`);
  return lines;
}
