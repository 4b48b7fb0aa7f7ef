/**
 * An HTTP request given as field values, for evaluating the expressions of the HTTP phases
 * (`rulesets test`): the request counterpart of packet.ts.
 *
 * A request is an object whose keys are:
 * - **fields of the phase's catalogue**, each read by its type: a String is a string (its UTF-8
 *   bytes), an Integer a whole number or a string in the language's integer syntax (within the
 *   field's documented bounds), an IP address a string, a Boolean `true`/`false`,
 *   `Array<T>` an array and `Map<T>` an object of such values. Values must have the field's
 *   documented form: a method is uppercase, a path extension lowercase, a field with a closed set
 *   of values one of them. A field the docs limit to other phases is an error in this one.
 * - **conveniences** that give several fields at once, by the relations the docs state (below).
 *   A field given by its own key always wins over one a convenience derives.
 * - **calls** whose value the test case states (`'is_jwt_valid("6f4a…")': true`), for the
 *   functions `rulesets test` does not compute (functions.ts); the key is the call as written in
 *   the rule, spaces and string quoting aside (call-key.ts), the value read by the call's type.
 * - `"$lists"`, as in a packet: which lists the request's values are in (`true`/`false`), or an
 *   IP list's addresses.
 * An unknown key is an error with the nearest names, so that a typo cannot make a test pass by
 * leaving a field out.
 *
 * The conveniences, and where each derived value comes from
 * (cloudflare-docs src/content/fields/index.yaml at 0026d94e, "the field list" below):
 *
 * `url`: `https://host/path?query` (or a path alone, `/path?query`).
 *   - `raw.http.request.full_uri`, `raw.http.request.uri`, `…uri.path`, `…uri.query`: the parts
 *     as written; a `#fragment` is dropped ("not sent to web servers", the field list); an empty
 *     path is `/`, as a client sends it (RFC 9112 §3.2.1). `raw.http.request.uri.path.extension`:
 *     after the last dot of the last path segment, as the field list's table says, not lowercased.
 *   - `raw.http.request.uri.args` (and `.names`, `.values`): the query split at `&`, each
 *     argument at its first `=`, with "No decoding performed" (the field list) and names and values
 *     in the order written. An argument without `=` or an empty one (`a&&b`) is not described: not derived.
 *   - `http.request.*` of the same names (the extension lowercased, per the field list): equal to
 *     the raw ones only while URL normalization leaves the URL as it is. The service normalizes
 *     incoming URLs (on by default, RFC 3986 or "Cloudflare" type: src/content/docs/rules/
 *     normalization/how-it-works.mdx at 24554f18 and settings.mdx at 20a026ae) — percent-decoding unreserved characters,
 *     encoding other bytes, uppercasing `%xx`, removing dot segments, and for the Cloudflare type
 *     `\` to `/` and merging `//`. A path or query that any of this would change is not derived
 *     (which form the rules see depends on the zone's setting): give those fields explicitly.
 *   - `http.host`: the URL's host (the Host header, which `headers` may give instead; the two
 *     must agree). Not derived when the URL has a port: the field list does not say whether the
 *     field keeps it.
 *   - `ssl`: true for `https`, false for `http` (the connection is encrypted or not).
 * `method`: `http.request.method` ("a string of uppercase characters", the field list).
 * `headers`: an object from header name to a value or an array of values (a header sent more
 *   than once).
 *   - `http.request.headers`: names "converted to lowercase", each the array of its values "in the
 *     order they appear"; `http.request.headers.names` / `.values`: one entry per value, names as
 *     written ("retain the original case"), in the order given.
 *   - `http.host` (Host), `http.user_agent` (User-Agent), `http.referer` (Referer), `http.cookie`
 *     (Cookie), `http.x_forwarded_for` (X-Forwarded-For): that header's value. A header the request
 *     does not send, or sends twice, is not described for these fields: not derived.
 *   - `http.request.cookies`: the Cookie header's `name=value` pairs (separated by `;` and
 *     spaces, RFC 6265 §4.2.1); "The cookie names are URL decoded. If two cookies have the same
 *     name after decoding, their value arrays are merged", values "not pre-processed" (the field
 *     list). No Cookie header: no cookies. A pair without `=` or ending in a space, a name whose
 *     decoding the docs leave open (a `+`, a bad `%` escape), or two Cookie headers: not derived.
 * A field that is "not derived" is unknown, with the reason: a verdict that depends on it is an
 * error that says why and asks for the field.
 */
import type { ValueType } from '../language/ast';
import { catalogueFor, type Catalogue, type FieldInfo } from '../language/catalogue/catalogues';
import { readBareValue, readInteger } from '../language/literals';
import { parseExpression } from '../language/parser';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { describeValueType, elementType, isArrayType, isMapType } from '../language/types';
import { callKey } from './call-key';
import { describeJson, LISTS_KEY, parsePacketLists, PacketError, type Lists } from './packet';
import { arrayValue, bytesValue, mapValue, type Value } from './value';

export interface Request {
  readonly kind: 'request';
  readonly phase?: string;
  /** The catalogue the request was read by: the phase's, or the HTTP one. */
  readonly catalogue: Catalogue;
  /** Field values, given or derived. */
  readonly fields: ReadonlyMap<string, Value>;
  /** Fields a convenience could not derive, with why: unknown, and said so when they decide. */
  readonly underivable: ReadonlyMap<string, string>;
  /**
   * Of those, the fields of a header `headers` does not send (`http.user_agent` without a
   * User-Agent): left out rather than contradicted, so a test case may assume them
   * (assumed-fields.ts), where a field its URL or headers give otherwise stays unknown.
   */
  readonly notSent: ReadonlySet<string>;
  /** Values the test case gives for calls, by call-key.ts's key. */
  readonly calls: ReadonlyMap<string, Value>;
  readonly lists: Lists;
}

/** A request that cannot be read: the message says why; `key` is its key, `path` where inside its value. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly key?: string,
    readonly path: readonly (string | number)[] = [],
    /** The key itself is wrong (unknown), not its value. */
    readonly atKey = false,
  ) {
    super(message);
  }
}

export interface Convenience {
  readonly key: string;
  readonly doc: string;
  readonly example: string;
}

/** The keys of a request besides fields and calls, as completion offers them. */
export const REQUEST_CONVENIENCES: readonly Convenience[] = [
  { key: 'url', doc: 'The URL: gives http.host, ssl, http.request.full_uri, http.request.uri, its path, extension, query and args (and their raw.* forms).', example: 'https://example.com/login?next=%2F' },
  { key: 'method', doc: 'The method, uppercase: gives http.request.method.', example: 'POST' },
  {
    key: 'headers',
    doc: 'The headers (name → value, or an array for a repeated header): gives http.request.headers, .names, .values, http.host, http.user_agent, http.referer, http.cookie, http.x_forwarded_for and http.request.cookies.',
    example: '{User-Agent: curl/8.5.0, Cookie: "session=abc"}',
  },
  { key: LISTS_KEY, doc: 'Lists: name → true or false (the request is in it or not), or an IP list\'s addresses.', example: "{'$known_bots': true}" },
];

const CONVENIENCE_KEYS = new Set(REQUEST_CONVENIENCES.map((c) => c.key));

/** The catalogue a request of this phase is read by: the phase's when it is an HTTP phase, else the HTTP phases'. */
export function requestCatalogue(phase: string | undefined): Catalogue {
  const catalogue = catalogueFor(phase);
  return catalogue.family === 'http' ? catalogue : catalogueFor('http_request_firewall_custom');
}

/** Reads a request from parsed JSON/YAML. Throws RequestError. */
export function parseRequest(input: unknown, options: { readonly phase?: string } = {}): Request {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new RequestError(`expected the request as an object of field values, e.g. {"url": "https://example.com/login", "ip.src": "192.0.2.7"}, found ${describeJson(input)}`);
  }
  const catalogue = requestCatalogue(options.phase);
  const explicit = new Map<string, Value>();
  const calls = new Map<string, Value>();
  const derived = new Derived();
  let lists: Lists = new Map();
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    const at = <T>(read: () => T): T => {
      try {
        return read();
      } catch (error) {
        if (error instanceof RequestError && error.key === undefined) throw new RequestError(error.message, key, error.path, error.atKey);
        if (error instanceof PacketError) throw new RequestError(error.message, key);
        throw error;
      }
    };
    if (key === LISTS_KEY) lists = at(() => parsePacketLists(raw));
    else if (key === 'url') at(() => deriveFromUrl(raw, derived));
    else if (key === 'method') at(() => deriveMethod(raw, derived));
    else if (key === 'headers') at(() => deriveFromHeaders(raw, derived));
    else if (key.includes('(')) at(() => calls.set(...readCall(key, raw, catalogue)));
    else {
      const field = catalogue.fields.get(key);
      if (!field) throw unknownKey(key, catalogue);
      at(() => {
        checkPhase(field, options.phase);
        explicit.set(key, readField(field, raw));
      });
    }
  }
  for (const [name, conflict] of derived.conflicts) if (!explicit.has(name)) throw conflict;
  const fields = new Map(derived.values);
  for (const [name, value] of explicit) fields.set(name, value);
  const underivable = new Map([...derived.reasons].filter(([name]) => !fields.has(name)));
  const notSent = new Set([...derived.notSent].filter((name) => underivable.has(name)));
  return { kind: 'request', phase: options.phase, catalogue, fields, underivable, notSent, calls, lists };
}

function unknownKey(key: string, catalogue: Catalogue): RequestError {
  const suggestions = closestMatches(key, [...catalogue.fields.keys(), ...CONVENIENCE_KEYS]);
  const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : '';
  return new RequestError(`unknown field \`${key}\` in the request${hint}`, key, [], true);
}

function checkPhase(field: FieldInfo, phase: string | undefined): void {
  const phases = field.only?.phases;
  if (!phases || !phase || phases.includes(phase)) return;
  throw new RequestError(`\`${field.name}\` is not a field of phase \`${phase}\` (${field.only!.why}), so no rule here can read it`);
}

// ---------------------------------------------------------------- typed values

/** How a message names what a type wants: `a string`, `an array of strings`, `an object of arrays of strings`. */
function expected(type: ValueType): string {
  const element = elementType(type);
  if (element !== undefined) return `${isArrayType(type) ? 'an array' : 'an object'} of ${plural(element)}`;
  return { Bytes: 'a string', Integer: 'an integer', Ip: 'an IP address', Boolean: 'true or false' }[type as 'Bytes'];
}

function plural(type: ValueType): string {
  const element = elementType(type);
  if (element !== undefined) return `${isArrayType(type) ? 'arrays' : 'objects'} of ${plural(element)}`;
  return { Bytes: 'strings', Integer: 'integers', Ip: 'IP addresses', Boolean: 'Booleans' }[type as 'Bytes'];
}

/** A field's value by its type; its documented form checked. Throws RequestError. */
export function readField(field: FieldInfo, raw: unknown): Value {
  return readTyped(field.type, raw, field, []);
}

/**
 * `raw` as a value of `type`. Recursive over the type, whose depth is the catalogue's (at most
 * `Map<Array<String>>`), not the input's.
 */
function readTyped(type: ValueType, raw: unknown, field: FieldInfo | undefined, path: (string | number)[]): Value {
  const name = field ? `\`${field.name}\`` : 'the call';
  const bad = () => new RequestError(`expected ${expected(type)} (${describeValueType(type)}) for ${name}${path.length > 0 ? ` at ${path.map((p) => `[${JSON.stringify(p)}]`).join('')}` : ''}, found ${describeJson(raw)}`, undefined, path);
  const element = elementType(type);
  if (element !== undefined && isArrayType(type)) {
    if (!Array.isArray(raw)) throw bad();
    return arrayValue(raw.map((item, i) => readTyped(element, item, field, [...path, i])));
  }
  if (element !== undefined && isMapType(type)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad();
    return mapValue(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, readTyped(element, v, field, [...path, k])] as const));
  }
  switch (type) {
    case 'Bytes': {
      if (typeof raw !== 'string') throw bad();
      checkForm(field, raw, path);
      return bytesValue(raw);
    }
    case 'Integer': {
      let value: bigint;
      if (typeof raw === 'number' && Number.isSafeInteger(raw)) value = BigInt(raw);
      else if (typeof raw === 'string') {
        const read = readInteger(raw.trim(), 0);
        if (!read.ok) throw bad();
        value = read.value;
      } else throw bad();
      const range = field?.range;
      if (range && (value < range[0] || value > range[1])) throw new RequestError(`${value} is outside the values of ${name} (${range[0]}–${range[1]})`, undefined, path);
      if (value < -(1n << 63n) || value >= 1n << 63n) throw new RequestError(`${value} is outside the 64-bit integers ${name} holds`, undefined, path);
      return { type: 'Integer', value };
    }
    case 'Ip': {
      if (typeof raw !== 'string') throw bad();
      const { literal } = readBareValue(raw.trim(), { start: 0, end: raw.length }, 'Ip');
      if (literal.kind !== 'ip') throw bad();
      return { type: 'Ip', family: literal.family, value: literal.value };
    }
    default:
      if (typeof raw !== 'boolean') throw bad();
      return { type: 'Boolean', value: raw };
  }
}

/** The documented form of a String field's values: a value of another form never arrives, so a test of it proves nothing. */
function checkForm(field: FieldInfo | undefined, value: string, path: readonly (string | number)[]): void {
  if (!field) return;
  if (field.values === 'method' && /[a-z]/.test(value)) {
    throw new RequestError(`\`${field.name}\` is uppercase ("a string of uppercase characters", the docs): write "${value.toUpperCase()}", not "${value}"`, undefined, path);
  }
  if (field.values === 'lowercase' && /[A-Z]/.test(value)) {
    throw new RequestError(`\`${field.name}\` is lowercase: write "${value.toLowerCase()}", not "${value}"`, undefined, path);
  }
  if ((field.values === 'one-of' || field.values === 'continent') && field.oneOf && !field.oneOf.includes(value)) {
    throw new RequestError(`"${value}" is not a value of \`${field.name}\`, which is one of ${field.oneOf.map((v) => `"${v}"`).join(', ')}`, undefined, path);
  }
}

/** A stated call value: the key read as a call, the value by the call's type. */
function readCall(key: string, raw: unknown, catalogue: Catalogue): [string, Value] {
  const parsed = parseExpression(key, { fieldType: (name) => catalogue.fields.get(name)?.type });
  const node = parsed.ast;
  const call = node?.kind === 'comparison' && !node.operator && node.lhs.kind === 'call' ? node.lhs : undefined;
  const canonical = call && parsed.problems.length === 0 ? callKey(call) : undefined;
  if (!call || canonical === undefined) {
    throw new RequestError(`\`${key}\` is neither a field nor a call such as \`is_jwt_valid("…")\` whose value the case gives`, undefined, [], true);
  }
  const fn = catalogue.functions.get(call.name.text);
  if (!fn || fn.quantifier) {
    const suggestions = closestMatches(call.name.text, [...catalogue.functions.values()].filter((f) => !f.quantifier).map((f) => f.name));
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : '';
    throw new RequestError(`unknown function \`${call.name.text}\`${hint}`, undefined, [], true);
  }
  let type: ValueType | undefined = fn.result === 'first-argument' ? undefined : fn.result;
  if (type === undefined) {
    const first = call.args[0];
    type = first?.kind === 'field' ? catalogue.fields.get(first.name)?.type : first?.kind === 'string' ? 'Bytes' : first?.kind === 'integer' ? 'Integer' : first?.kind === 'ip' ? 'Ip' : undefined;
    if (type === undefined) throw new RequestError(`the type of \`${key}\` is its first argument's, which is not known here: give a field or a literal as its first argument`);
  }
  return [canonical, readTyped(type, raw, undefined, [])];
}

// ---------------------------------------------------------------- conveniences

/** What the conveniences give: values, and the fields they leave unknown with why. */
class Derived {
  readonly values = new Map<string, Value>();
  readonly reasons = new Map<string, string>();
  /** Fields of a header the request does not send (Request.notSent). */
  readonly notSent = new Set<string>();
  /** Who gave each value, for a conflict between two conveniences. */
  private readonly givers = new Map<string, string>();

  /** Fields two conveniences give different values: an error unless the field is given itself. */
  readonly conflicts = new Map<string, RequestError>();

  set(name: string, value: Value, giver: string): void {
    const given = this.values.get(name);
    if (given !== undefined && !sameValue(given, value)) {
      const error = new RequestError(`\`${giver}\` and \`${this.givers.get(name)}\` give \`${name}\` different values; make them agree, or give \`${name}\` itself`, giver);
      this.conflicts.set(name, error);
      return;
    }
    this.values.set(name, value);
    this.givers.set(name, giver);
    this.reasons.delete(name);
  }

  /** A field this convenience would give, but not for this request: why (unless another gives it). */
  cannot(name: string, reason: string): void {
    if (!this.values.has(name)) this.reasons.set(name, reason);
  }
}

function sameValue(a: Value, b: Value): boolean {
  return JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : v instanceof Map ? [...v] : v)) ===
    JSON.stringify(b, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : v instanceof Map ? [...v] : v));
}

const URL_SHAPE = /^(?:([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#[\s\S]*)?$/;

function deriveFromUrl(raw: unknown, derived: Derived): void {
  if (typeof raw !== 'string') throw new RequestError(`expected \`url\` as a string, e.g. "https://example.com/login?next=%2F", found ${describeJson(raw)}`);
  const m = URL_SHAPE.exec(raw);
  if (!m || (m[1] === undefined && !m[3].startsWith('/'))) {
    throw new RequestError(`expected \`url\` as an absolute URL ("https://example.com/path?query") or a path ("/path?query"), found ${describeJson(raw)}`);
  }
  const [, scheme, authority, rawPath, query] = m;
  let path = rawPath;
  if (scheme !== undefined) {
    const lower = scheme.toLowerCase();
    if (lower !== 'http' && lower !== 'https') throw new RequestError(`expected an http or https URL, found the scheme \`${scheme}\``);
    if (authority.includes('@')) throw new RequestError('a URL with user information (`user@host`) is not what a client sends in a request: leave it out');
    if (authority === '') throw new RequestError('the URL has no host: write it as "https://example.com/path"');
    if (path === '') path = '/'; // RFC 9112 §3.2.1: an empty path is sent as "/"
    derived.set('ssl', { type: 'Boolean', value: lower === 'https' }, 'url');
    const port = /^(\[[^\]]*\]|[^:]*)(:\d*)?$/.exec(authority);
    if (port?.[2]) derived.cannot('http.host', `the URL gives a port (\`${port[2]}\`), and the docs do not say whether \`http.host\` keeps it; give \`http.host\` itself`);
    else derived.set('http.host', bytesValue(authority), 'url');
  }
  const uri = query === undefined ? path : `${path}?${query}`;
  const full = scheme === undefined ? undefined : `${scheme}://${authority}${uri}`;
  const args = splitArgs(query ?? '');

  // The raw fields: the URL as written.
  if (full !== undefined) derived.set('raw.http.request.full_uri', bytesValue(full), 'url');
  derived.set('raw.http.request.uri', bytesValue(uri), 'url');
  derived.set('raw.http.request.uri.path', bytesValue(path), 'url');
  derived.set('raw.http.request.uri.path.extension', bytesValue(extensionOf(path)), 'url');
  derived.set('raw.http.request.uri.query', bytesValue(query ?? ''), 'url');
  setArgs(derived, 'raw.http.request.uri.args', args);

  // The fields rules read after URL normalization: the same while normalization changes nothing.
  const pathChange = normalizationChange(path, true);
  const queryChange = normalizationChange(query ?? '', false);
  const notNormal = (change: string, where: string) => (name: string) =>
    `\`url\` has ${change} in its ${where}, which URL normalization (on by default) rewrites before rules read \`${name}\`, in a way that depends on the zone's settings (rules/normalization/how-it-works.mdx in the Cloudflare docs); give \`${name}\` as the rules see it (\`raw.${name}\` is read from \`url\` as written)`;
  const pathReason = pathChange && notNormal(pathChange, 'path');
  const queryReason = queryChange && notNormal(queryChange, 'query');
  const whole = pathReason ?? queryReason;
  const put = (name: string, value: Value | undefined, reason: ((name: string) => string) | undefined | '') => {
    if (reason) derived.cannot(name, reason(name));
    else if (value) derived.set(name, value, 'url');
  };
  if (full !== undefined) put('http.request.full_uri', bytesValue(full), whole);
  put('http.request.uri', bytesValue(uri), whole);
  put('http.request.uri.path', bytesValue(path), pathReason);
  put('http.request.uri.path.extension', bytesValue(extensionOf(path).toLowerCase()), pathReason);
  put('http.request.uri.query', bytesValue(query ?? ''), queryReason);
  if (queryReason) for (const name of ['http.request.uri.args', 'http.request.uri.args.names', 'http.request.uri.args.values']) derived.cannot(name, queryReason(name));
  else setArgs(derived, 'http.request.uri.args', args);
}

/** `a=1&b=2&a=3` as [name, value] pairs, or why the docs do not say how it splits. */
function splitArgs(query: string): [string, string][] | string {
  if (query === '') return [];
  const pairs: [string, string][] = [];
  for (const part of query.split('&')) {
    if (part === '') return `the query "${query}" has an empty argument (\`&&\`, or \`&\` at an end), and the docs do not say what the argument fields hold for it`;
    const eq = part.indexOf('=');
    if (eq < 0) return `the query argument "${part}" has no \`=\`, and the docs do not say what the argument fields hold for it`;
    pairs.push([part.slice(0, eq), part.slice(eq + 1)]);
  }
  return pairs;
}

function setArgs(derived: Derived, field: string, args: [string, string][] | string): void {
  const names = [field, `${field}.names`, `${field}.values`];
  if (typeof args === 'string') {
    for (const name of names) derived.cannot(name, `${args}; give \`${name}\` itself`);
    return;
  }
  const byName = new Map<string, Value[]>();
  for (const [name, value] of args) byName.set(name, [...(byName.get(name) ?? []), bytesValue(value)]);
  derived.set(field, mapValue([...byName].map(([name, values]) => [name, arrayValue(values)] as const)), 'url');
  derived.set(`${field}.names`, arrayValue(args.map(([name]) => bytesValue(name))), 'url');
  derived.set(`${field}.values`, arrayValue(args.map(([, value]) => bytesValue(value))), 'url');
}

/**
 * The field list's `http.request.uri.path.extension`: what follows the last dot of the last path
 * segment; "" when there is no dot, or when the only dot starts the segment (`/.mp3`).
 */
export function extensionOf(path: string): string {
  const segment = path.slice(path.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  return dot <= 0 ? '' : segment.slice(dot + 1);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/**
 * What URL normalization would change in a path or query (how-it-works.mdx: unreserved
 * characters percent-decoded, other bytes than unreserved and reserved ones percent-encoded,
 * escapes uppercased, dot segments removed; the Cloudflare type also turns `\` into `/` and
 * merges `//`), quoted for a message; undefined when it leaves the text as it is.
 */
function normalizationChange(text: string, isPath: boolean): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return `a \`%\` that starts no escape (\`${text.slice(i, i + 3)}\`)`;
      if (hex !== hex.toUpperCase()) return `a lowercase escape (\`%${hex}\`)`;
      if (UNRESERVED.test(String.fromCharCode(parseInt(hex, 16)))) return `an escaped unreserved character (\`%${hex}\`)`;
      i += 2;
    } else if (!UNRESERVED.test(c) && !RESERVED.test(c)) {
      return `a character that is neither unreserved nor reserved (\`${c}\`)`;
    }
  }
  if (isPath) {
    if (text.includes('//')) return 'a `//`';
    if (text.split('/').some((segment) => segment === '.' || segment === '..')) return 'a dot segment (`.` or `..`)';
  }
  return undefined;
}

function deriveMethod(raw: unknown, derived: Derived): void {
  if (typeof raw !== 'string' || raw === '') throw new RequestError(`expected \`method\` as a string, e.g. "POST", found ${describeJson(raw)}`);
  if (/[a-z]/.test(raw)) throw new RequestError(`\`http.request.method\` is uppercase ("a string of uppercase characters", the docs): write "${raw.toUpperCase()}", not "${raw}"`);
  derived.set('http.request.method', bytesValue(raw), 'method');
}

/** The single-valued header fields and the header each reads (the field list). */
const HEADER_FIELDS: readonly (readonly [field: string, header: string])[] = [
  ['http.user_agent', 'user-agent'],
  ['http.referer', 'referer'],
  ['http.cookie', 'cookie'],
  ['http.x_forwarded_for', 'x-forwarded-for'],
];

function deriveFromHeaders(raw: unknown, derived: Derived): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new RequestError(`expected \`headers\` as an object from header name to value, e.g. {"User-Agent": "curl/8.5.0"}, found ${describeJson(raw)}`);
  }
  const sent: [name: string, value: string][] = [];
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && value.length === 0) throw new RequestError(`\`${name}\` has no value: a header is sent with one; leave it out instead`, undefined, [name]);
    values.forEach((v, i) => {
      if (typeof v !== 'string') {
        throw new RequestError(`expected the value of the header \`${name}\` as a string${Array.isArray(value) ? ' (or an array of strings)' : ''}, found ${describeJson(v)}${typeof v === 'number' ? `; quote it: "${v}"` : ''}`, undefined, Array.isArray(value) ? [name, i] : [name]);
      }
      sent.push([name, v]);
    });
  }
  const byName = new Map<string, string[]>();
  for (const [name, value] of sent) byName.set(name.toLowerCase(), [...(byName.get(name.toLowerCase()) ?? []), value]);
  derived.set('http.request.headers', mapValue([...byName].map(([name, values]) => [name, arrayValue(values.map(bytesValue))] as const)), 'headers');
  derived.set('http.request.headers.names', arrayValue(sent.map(([name]) => bytesValue(name))), 'headers');
  derived.set('http.request.headers.values', arrayValue(sent.map(([, value]) => bytesValue(value))), 'headers');

  const host = byName.get('host');
  if (host?.length === 1) derived.set('http.host', bytesValue(host[0]), 'headers');
  else if (host) derived.cannot('http.host', `the request sends the Host header ${host.length} times, and the docs do not say which one \`http.host\` holds; give \`http.host\` itself`);
  for (const [field, header] of HEADER_FIELDS) {
    const values = byName.get(header);
    if (values?.length === 1) derived.set(field, bytesValue(values[0]), 'headers');
    else if (values) derived.cannot(field, `the request sends the ${header} header ${values.length} times, and the docs do not say how \`${field}\` holds them; give \`${field}\` itself`);
    else {
      derived.notSent.add(field);
      derived.cannot(field, `\`headers\` has no ${header} header, and the docs do not say what \`${field}\` holds then (empty, or no value at all); give \`${field}\` itself`);
    }
  }
  const cookies = byName.get('cookie');
  if (!cookies) derived.set('http.request.cookies', mapValue([]), 'headers');
  else if (cookies.length > 1) derived.cannot('http.request.cookies', `the request sends the Cookie header ${cookies.length} times, and the docs do not say how \`http.request.cookies\` joins them; give it itself`);
  else {
    const parsed = parseCookies(cookies[0]);
    if (typeof parsed === 'string') derived.cannot('http.request.cookies', `${parsed}; give \`http.request.cookies\` itself`);
    else derived.set('http.request.cookies', parsed, 'headers');
  }
}

/** The Cookie header as the field list's `http.request.cookies` map, or why the docs do not say what it is. */
function parseCookies(header: string): Value | string {
  const byName = new Map<string, Value[]>();
  for (const part of header.split(';')) {
    // The spaces after `;` separate pairs; spaces before one may be the value's, or not.
    const pair = part.replace(/^[ \t]+/, '');
    if (pair === '') return `the Cookie header "${header}" has an empty pair, and the docs do not say what becomes of it`;
    if (/[ \t]$/.test(pair)) return `the cookie "${pair}" ends in a space, and the docs do not say whether its value keeps it`;
    const eq = pair.indexOf('=');
    if (eq < 0) return `the cookie "${pair}" has no \`=\`, and the docs do not say what becomes of it`;
    const name = decodeCookieName(pair.slice(0, eq));
    if (name === undefined) return `the cookie name "${pair.slice(0, eq)}" holds a \`+\` or a \`%\` escape that is not UTF-8 text, and the docs say only that names are "URL decoded"`;
    byName.set(name, [...(byName.get(name) ?? []), bytesValue(pair.slice(eq + 1))]);
  }
  return mapValue([...byName].map(([name, values]) => [name, arrayValue(values)] as const));
}

function decodeCookieName(name: string): string | undefined {
  if (name.includes('+')) return undefined; // a space, or a plus? "URL decoded" does not say
  const bytes: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < name.length; ) {
    if (name[i] === '%') {
      const hex = name.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else {
      const char = String.fromCodePoint(name.codePointAt(i)!);
      bytes.push(...utf8.encode(char));
      i += char.length;
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}
