/**
 * What a rule does, in a few words read off its `action` and `action_parameters`: the outline
 * names a rule by it (`redirect → https://example.com/new (301)`). Only what is written is
 * said: a parameter that is missing or of another type is left out, never guessed (the checks
 * report it). The shapes are the API's types (cloudflare-typescript src/resources/rulesets/
 * rules.ts at faaaf89e: RedirectRule, RewriteRule, RouteRule, SkipRule, …).
 */
import { property, type HostNode } from '../documents/host/index';

/** Longest value (a target URL, an expression) quoted in an effect; the full text is in the document. */
export const MAX_EFFECT_VALUE_LENGTH = 32;

/**
 * The rule's effect, starting with its action (`route → origin.example.com:8443`); undefined
 * when the rule has no action, or its parameters say nothing more than the action's name.
 */
export function ruleEffect(rule: HostNode): string | undefined {
  const action = text(property(rule, 'action')?.value);
  if (!action) return undefined;
  const parameters = property(rule, 'action_parameters')?.value;
  if (parameters?.kind !== 'object') return undefined;
  const words = EFFECTS[action]?.(parameters);
  return words ? words : undefined;
}

const EFFECTS: Record<string, (parameters: HostNode) => string | undefined> = {
  redirect(p) {
    const fromValue = property(p, 'from_value')?.value;
    if (fromValue?.kind === 'object') {
      const target = valueOrExpression(property(fromValue, 'target_url')?.value);
      const status = property(fromValue, 'status_code')?.value;
      const code = status?.kind === 'number' || status?.kind === 'string' ? ` (${String(status.value)})` : '';
      return target ? `redirect → ${target}${code}` : undefined;
    }
    const list = text(property(property(p, 'from_list')?.value, 'name')?.value);
    return list ? `redirect by list ${list}` : undefined;
  },
  rewrite(p) {
    const parts: string[] = [];
    const uri = property(p, 'uri')?.value;
    for (const part of ['path', 'query']) {
      const written = valueOrExpression(property(uri, part)?.value);
      if (written) parts.push(`rewrite ${part} → ${written}`);
    }
    const headers = headerList(property(p, 'headers')?.value);
    if (headers) parts.push(`set headers ${headers}`);
    return parts.join('; ') || undefined;
  },
  route(p) {
    const origin = property(p, 'origin')?.value;
    const host = text(property(origin, 'host')?.value);
    const port = property(origin, 'port')?.value;
    const parts: string[] = [];
    if (host || port?.kind === 'number') parts.push(`route → ${host ?? ''}${port?.kind === 'number' ? `:${port.value}` : ''}`);
    const hostHeader = text(property(p, 'host_header')?.value);
    if (hostHeader) parts.push(`Host: ${short(hostHeader)}`);
    const sni = text(property(property(p, 'sni')?.value, 'value')?.value);
    if (sni) parts.push(`SNI ${short(sni)}`);
    if (parts.length === 0) return undefined;
    return parts[0].startsWith('route') ? parts.join(', ') : `route ${parts.join(', ')}`;
  },
  skip(p) {
    const parts: string[] = [];
    if (text(property(p, 'ruleset')?.value) === 'current') parts.push('the rest of this ruleset');
    for (const key of ['phases', 'products', 'rulesets']) {
      const names = strings(property(p, key)?.value);
      if (names.length > 0) parts.push(`${key} ${names.join(', ')}`);
    }
    const rules = property(p, 'rules')?.value;
    if (rules?.kind === 'object' && rules.properties.length > 0) parts.push('rules');
    return parts.length > 0 ? `skip ${parts.join('; ')}` : undefined;
  },
  execute(p) {
    const id = text(property(p, 'id')?.value);
    return id ? `execute ${short(id)}` : undefined;
  },
  compress_response(p) {
    const algorithms = property(p, 'algorithms')?.value;
    const names = algorithms?.kind === 'array' ? algorithms.items.flatMap((a) => text(property(a, 'name')?.value) ?? []) : [];
    return names.length > 0 ? `compress_response: ${names.join(', ')}` : undefined;
  },
  serve_error(p) {
    const status = property(p, 'status_code')?.value;
    return status?.kind === 'number' ? `serve_error (${status.value})` : undefined;
  },
  set_cache_settings(p) {
    const cache = property(p, 'cache')?.value;
    if (cache?.kind !== 'boolean') return undefined;
    return cache.value ? 'set_cache_settings: cache' : 'set_cache_settings: bypass cache';
  },
  set_config(p) {
    const keys = p.kind === 'object' ? p.properties.map((q) => q.key) : [];
    return keys.length > 0 ? `set_config: ${short(keys.join(', '))}` : undefined;
  },
  score(p) {
    const increment = property(p, 'increment')?.value;
    return increment?.kind === 'number' ? `score ${Number(increment.value) < 0 ? '' : '+'}${increment.value}` : undefined;
  },
};

/** `X-Frame-Options, X-Powered-By (removed)`: each header, and the removed ones said so. */
function headerList(headers: HostNode | undefined): string | undefined {
  if (headers?.kind !== 'object' || headers.properties.length === 0) return undefined;
  const names = headers.properties.map((h) => (text(property(h.value, 'operation')?.value) === 'remove' ? `${h.key} (removed)` : h.key));
  // Names are short and each one counts: a longer cut than a value's.
  return oneLine(names.join(', '), 2 * MAX_EFFECT_VALUE_LENGTH);
}

/** A `{value: …}` or `{expression: …}` object as its text, shortened. */
function valueOrExpression(node: HostNode | undefined): string | undefined {
  const written = text(property(node, 'value')?.value) ?? text(property(node, 'expression')?.value);
  return written === undefined ? undefined : short(written);
}

function strings(node: HostNode | undefined): string[] {
  return node?.kind === 'array' ? node.items.flatMap((item) => text(item) ?? []) : [];
}

function text(node: HostNode | undefined): string | undefined {
  return node?.kind === 'string' ? String(node.value) : undefined;
}

/** Whitespace (line breaks too) collapsed to single spaces, cut at `max` characters with `…`. */
export function oneLine(text: string, max: number): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= max) return collapsed;
  let cut = max - 1;
  // Never between the two halves of a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(collapsed[cut - 1])) cut--;
  return `${collapsed.slice(0, cut).trimEnd()}…`;
}

function short(value: string): string {
  return oneLine(value, MAX_EFFECT_VALUE_LENGTH);
}
