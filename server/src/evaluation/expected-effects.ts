/**
 * What a test case says the matching rules do, beside `expect:` (effects.ts computes what they
 * do):
 *
 *   redirect: {url: https://www.example.com/news/, status: 301}   # status optional
 *   rewrite: {path: /v2/users, query: id=1}                        # either; null: not rewritten
 *   headers: {X-Frame-Options: DENY, X-Powered-By: null}           # null: removed; a list: several values
 *   origin: {host: eu.example.net, port: 8443, host_header: …, sni: …}
 *   cache: {cache: true, edge_ttl: {mode: override_origin, default: 3600}}   # the settings given
 *   config: {ssl: strict}
 *   serve_error: {status: 503, content_type: text/html, content: "…"}
 *   compression: [zstd, brotli, gzip]                              # the algorithms' names, in order
 *
 * Only what the case names is compared: a case that names `path` says nothing of the query,
 * one that names `edge_ttl` nothing of other cache settings.
 */
import type { HostNode } from '../documents/host/index';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import type { Effects, Given, Outcome } from './effects';
import { describeRule, plain, type RuleInfo } from './ruleset-eval';

/** The keys of a case that state an effect, with what each says (completion shows it). */
export const EFFECT_KEYS = {
  redirect: 'the redirect: `{url: …, status: 301}` (status optional)',
  rewrite: 'the URL rewrite: `{path: …, query: …}` (either; null: not rewritten)',
  headers: 'headers set, added or removed: `{X-Frame-Options: DENY, X-Powered-By: null}` (null: removed)',
  origin: 'the route to the origin: `{host: …, port: …, host_header: …, sni: …}`',
  cache: 'the cache settings (`set_cache_settings`): the settings to compare, as in `action_parameters`',
  config: 'the configuration settings (`set_config`): the settings to compare, as in `action_parameters`',
  serve_error: 'the error page served: `{status: 503, content_type: text/html, content: …}`',
  compression: 'the compression algorithms (`compress_response`), by name in order: `[brotli, gzip]`',
} as const;

export type EffectKey = keyof typeof EFFECT_KEYS;
export const EFFECT_KEY_NAMES = Object.keys(EFFECT_KEYS) as EffectKey[];

/** The keys inside an effect key, where they are fixed (`cache`, `config` and `headers` take any). */
export const EFFECT_MEMBERS: Partial<Record<EffectKey, readonly string[]>> = {
  redirect: ['url', 'status'],
  rewrite: ['path', 'query'],
  origin: ['host', 'port', 'host_header', 'sni'],
  serve_error: ['status', 'content', 'content_type', 'asset_name'],
};

/** One thing a case expects, at its place in the test file. */
export interface Expectation {
  readonly key: EffectKey;
  /** The member (`url`, a header's name, a setting), or undefined for the whole key. */
  readonly member: string;
  readonly value: unknown;
  readonly node: HostNode;
}

/** What is wrong with a case's effect keys (bad input), or an expectation not met, at its offsets in the test file. */
export interface EffectProblem {
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

/** The expectations of a case's effect keys, or what is wrong with them. */
export function readExpectedEffects(caseNode: HostNode): { expectations: Expectation[]; problems: EffectProblem[] } {
  const expectations: Expectation[] = [];
  const problems: EffectProblem[] = [];
  if (caseNode.kind !== 'object') return { expectations, problems };
  for (const p of caseNode.properties) {
    if (!(p.key in EFFECT_KEYS) || !p.value) continue;
    const key = p.key as EffectKey;
    const node = p.value;
    if (key === 'compression') {
      if (node.kind === 'array' && node.items.every((i) => i.kind === 'string')) expectations.push({ key, member: '', value: plain(node), node });
      else problems.push({ message: `expected \`compression\` as a list of algorithm names: ${EFFECT_KEYS.compression}`, start: node.start, end: node.end });
      continue;
    }
    if (node.kind !== 'object') {
      problems.push({ message: `expected \`${key}\` as an object: ${EFFECT_KEYS[key]}`, start: node.start, end: node.end });
      continue;
    }
    const members = EFFECT_MEMBERS[key];
    for (const m of node.properties) {
      const value = m.value;
      if (!value) continue;
      if (members && !members.includes(m.key)) {
        const near = closestMatches(m.key, members);
        problems.push({ message: `unknown key \`${m.key}\` in \`${key}\`${near.length > 0 ? `; did you mean ${quoteAlternatives(near)}?` : ''} (\`${key}\` has ${members.map((k) => `\`${k}\``).join(', ')})`, start: m.keyStart, end: m.keyEnd });
        continue;
      }
      const wrong = wrongShape(key, m.key, value);
      if (wrong) problems.push({ message: wrong, start: value.start, end: value.end });
      else expectations.push({ key, member: m.key, value: plain(value), node: value });
    }
  }
  return { expectations, problems };
}

function wrongShape(key: EffectKey, member: string, node: HostNode): string | undefined {
  const isString = node.kind === 'string';
  switch (key) {
    case 'redirect':
      if (member === 'url' && !isString) return 'expected the URL the request is redirected to, as a string';
      if (member === 'status' && node.kind !== 'number') return 'expected the status code of the redirect, a number (301, 302, 303, 307 or 308)';
      return undefined;
    case 'rewrite':
      return isString || node.kind === 'null' ? undefined : `expected the rewritten ${member} as a string, or null when it is not rewritten`;
    case 'headers':
      if (isString || node.kind === 'null') return undefined;
      if (node.kind === 'array' && node.items.every((i) => i.kind === 'string')) return undefined;
      return `expected the value of header \`${member}\` (a string, a list of strings when it has several, or null when it is removed)`;
    case 'origin':
      if (member === 'port') return node.kind === 'number' ? undefined : 'expected the origin port as a number';
      return isString ? undefined : `expected \`${member}\` as a string`;
    case 'serve_error':
      if (member === 'status') return node.kind === 'number' ? undefined : 'expected the status code of the error page, a number';
      return isString ? undefined : `expected \`${member}\` as a string`;
    default:
      return undefined;
  }
}

/** An expectation not met: the message, and what was wanted and what happened, as a diff shows them. */
export interface EffectFailure extends EffectProblem {
  readonly want: string;
  readonly got: string;
}

/** What the case expected and did not get, or could not be known, each at the expectation's node. */
export interface EffectJudgement {
  readonly failures: readonly EffectFailure[];
  /** Expectations whose actual value cannot be known (a field the request does not give…): errors of the case. */
  readonly unknown: readonly EffectProblem[];
  /** What the expected effects are, said as a pass says them: `redirect to https://… (301)`. */
  readonly described: readonly string[];
}

export function judgeEffects(expectations: readonly Expectation[], effects: Effects): EffectJudgement {
  const failures: EffectFailure[] = [];
  const unknown: EffectProblem[] = [];
  const described: string[] = [];
  for (const e of expectations) {
    const result = judgeOne(e, effects);
    if (result.unknown) unknown.push({ message: result.unknown, start: e.node.start, end: e.node.end });
    else if (result.got !== undefined) failures.push({ message: `expected ${result.want}, got ${result.got}`, want: result.want, got: result.got, start: e.node.start, end: e.node.end });
    else described.push(result.want);
  }
  return { failures, unknown, described };
}

/** `want` as a message says it; `got` when it differs; `unknown` when what happened cannot be known. */
type Verdict = { want: string; got?: string; unknown?: string };

function judgeOne(e: Expectation, effects: Effects): Verdict {
  switch (e.key) {
    case 'redirect': {
      const r = effects.redirect;
      if (e.member === 'status') {
        const want = `redirect status ${String(e.value)}`;
        if (!r) return { want, got: 'no redirect' };
        if (!r.status.ok) return { want, unknown: r.status.reason };
        return r.status.value === e.value ? { want } : { want, got: `status ${r.status.value} ${by(r.rule)}` };
      }
      const want = `a redirect to ${String(e.value)}`;
      if (!r) return { want, got: 'no redirect' };
      if (!r.url.ok) return { want, unknown: r.url.reason };
      return r.url.value === e.value ? { want } : { want, got: `a redirect to ${r.url.value} ${by(r.rule)}` };
    }
    case 'rewrite': {
      const given = e.member === 'path' ? effects.path : effects.query;
      return compareOutcome(e.value as string | null, given, `the ${e.member} rewritten to`, `the ${e.member} not rewritten`);
    }
    case 'headers': {
      const header = effects.headers.get(e.member.toLowerCase());
      const name = `header \`${e.member}\``;
      if (e.value === null) {
        const want = `${name} removed`;
        if (!header) return { want, got: 'no rule changing it' };
        return header.state === 'remove' ? { want } : { want, got: describeHeader(header.state, header.values, header.rules) };
      }
      const wanted = Array.isArray(e.value) ? (e.value as string[]) : [e.value as string];
      const want = `${name} ${wanted.map((v) => JSON.stringify(v)).join(', ')}`;
      if (!header) return { want, got: 'no rule changing it' };
      const unknownValue = header.values.find((v): v is Extract<Outcome<string>, { ok: false }> => !v.ok);
      if (unknownValue) return { want, unknown: unknownValue.reason };
      const values = header.values.map((v) => (v as { value: string }).value);
      const same = header.state !== 'remove' && values.length === wanted.length && values.every((v, i) => v === wanted[i]);
      return same ? { want: `${name} ${header.state === 'add' ? 'added' : 'set to'} ${wanted.map((v) => JSON.stringify(v)).join(', ')}` } : { want, got: describeHeader(header.state, header.values, header.rules) };
    }
    case 'origin':
      return compareSetting(e, effects.origin, 'the origin');
    case 'cache':
      return compareSetting(e, effects.cache, 'the cache setting');
    case 'config':
      return compareSetting(e, effects.config, 'the configuration setting');
    case 'compression': {
      const wanted = e.value as string[];
      const want = `compression by ${wanted.join(', ')}`;
      const c = effects.compression;
      if (!c) return { want, got: 'no compression rule' };
      if (c.filledIn) return { want, unknown: c.filledIn };
      const names = Array.isArray(c.value) ? c.value.map((a: unknown) => (typeof a === 'object' && a !== null && 'name' in a ? String((a as { name: unknown }).name) : JSON.stringify(a))) : [];
      return deepEqual(names, wanted) ? { want } : { want, got: `compression by ${names.join(', ') || 'nothing'} ${by(c.rule)}` };
    }
    case 'serve_error': {
      const s = effects.serveError;
      const parameter = e.member === 'status' ? 'status_code' : e.member;
      const want = `an error page with ${e.member} ${JSON.stringify(e.value)}`;
      if (!s) return { want, got: 'no error page' };
      if (s.filledIn) return { want, unknown: s.filledIn };
      const actual = s.parameters[parameter];
      if (actual === undefined) return { want, unknown: `rule ${describeRule(s.rule)} gives no \`${parameter}\`, and \`rulesets test\` does not assume the service's default` };
      return deepEqual(actual, e.value) ? { want } : { want, got: `${e.member} ${JSON.stringify(actual)} ${by(s.rule)}` };
    }
  }
}

function compareOutcome(expected: string | null, given: Given<Outcome<string>> | undefined, wantText: string, notText: string): Verdict {
  if (expected === null) return given ? { want: notText, got: given.value.ok ? `${wantText} ${given.value.value} ${by(given.rule)}` : `a rewrite ${by(given.rule)}` } : { want: notText };
  const want = `${wantText} ${expected}`;
  if (!given) return { want, got: 'no rewrite of it' };
  if (!given.value.ok) return { want, unknown: given.value.reason };
  return given.value.value === expected ? { want } : { want, got: `${wantText} ${given.value.value} ${by(given.rule)}` };
}

function compareSetting(e: Expectation, settings: ReadonlyMap<string, Given<unknown>>, what: string): Verdict {
  const want = `${what} \`${e.member}\` ${JSON.stringify(e.value)}`;
  const given = settings.get(e.member);
  if (!given) return { want, got: `no rule setting \`${e.member}\`` };
  if (given.filledIn) return { want, unknown: given.filledIn };
  return deepEqual(given.value, e.value) ? { want } : { want, got: `${JSON.stringify(given.value)} ${by(given.rule)}` };
}

function describeHeader(state: 'set' | 'add' | 'remove', values: readonly Outcome<string>[], rules: readonly RuleInfo[]): string {
  const last = rules[rules.length - 1];
  if (state === 'remove') return `it removed ${by(last)}`;
  const shown = values.map((v) => (v.ok ? JSON.stringify(v.value) : '(unknown)')).join(', ');
  return `${state === 'add' ? 'added' : 'set to'} ${shown} ${by(last)}`;
}

function by(rule: RuleInfo): string {
  return `by rule ${describeRule(rule)}`;
}

/** Plain JSON-like values (plain()), compared by value; objects without regard to key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => k in b && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
