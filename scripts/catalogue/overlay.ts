/**
 * Our decisions, each with its reason: what the catalogue adds to, or takes differently from, the
 * engine's and the docs' facts. The generator (scripts/catalogue/fields.ts) applies them; the oracle's
 * catalogue test (test/oracle/catalogue.test.ts) holds every difference it finds between the
 * catalogue and the engine to DECIDED_DIFFERENCES, which are the rows of docs/engine.md.
 */
import type { ValueType } from '../../server/src/language/ast';
import type { FieldValueKind, PhaseFamily } from '../../server/src/language/catalogue/entries';
import { MAGIC_PHASES } from '../../server/src/language/catalogue/families';

const PORT = ['0', '65535'] as const;
const BYTE = ['0', '255'] as const;
const AS_NUMBER = ['0', '4294967295'] as const;

/**
 * Value ranges and kinds of the packet fields, as the magic_transit table has always had them
 * (LANGUAGE.md §5 and §8: ports are 16 bits, TTL, ICMP type/code and the flags byte 8 bits, AS
 * numbers 32 bits; ip.len is a 16-bit length field, ip.hdr_len fits a byte). The docs' Magic
 * Firewall page gives no ranges.
 */
export const MAGIC_FIELD_EXTRAS: Readonly<Record<string, { readonly range?: readonly [string, string]; readonly values?: FieldValueKind }>> = {
  'ip.src.country': { values: 'country' },
  'ip.dst.country': { values: 'country' },
  'ip.geoip.country': { values: 'country' },
  'ip.src.asnum': { range: AS_NUMBER },
  'ip.dst.asnum': { range: AS_NUMBER },
  'ip.proto': { values: 'protocol' },
  'ip.len': { range: PORT },
  'ip.hdr_len': { range: BYTE },
  'ip.ttl': { range: BYTE },
  'ip.opt.type': { range: BYTE },
  'tcp.srcport': { range: PORT, values: 'port' },
  'tcp.dstport': { range: PORT, values: 'port' },
  'udp.srcport': { range: PORT, values: 'port' },
  'udp.dstport': { range: PORT, values: 'port' },
  'tcp.flags': { range: BYTE, values: 'tcp-flags' },
  'icmp.type': { range: BYTE, values: 'icmp-type' },
  'icmp.code': { range: BYTE, values: 'icmp-code' },
  ip: { values: 'raw-header' },
  tcp: { values: 'raw-header' },
  udp: { values: 'raw-header' },
  icmp: { values: 'raw-header' },
};

/**
 * The packet phases know `bit_slice` only: LANGUAGE.md §7 and docs/engine.md's table decided that the
 * other functions the engine's magic_firewall scheme registers (it shares the HTTP scheme's
 * registration) are not documented for these phases, so a call to one is an unknown function.
 */
export const MAGIC_FUNCTION_NAMES: readonly string[] = ['bit_slice'];

/**
 * The docs list bit_slice among the Magic Firewall functions; the packet phases share one table
 * (LANGUAGE.md §5), so we allow it in all of them, ddos_l4 included, rather than report it there.
 */
export const FUNCTION_PHASES: Readonly<Record<string, readonly string[]>> = {
  bit_slice: MAGIC_PHASES,
};

/** Our completion groups, from the docs' second category (the first is Request or Response). */
export const CATEGORY_GROUPS: Readonly<Record<string, string>> = {
  URI: 'URI',
  Headers: 'Headers',
  Body: 'Body',
  Geolocation: 'Geolocation',
  Bots: 'Bot management',
  'SSL/TLS': 'TLS',
  mTLS: 'Client certificate',
  'JWT validation': 'JWT',
};

/** For fields the docs file under Request only: a group by name, else 'Request'. */
export const PREFIX_GROUPS: readonly (readonly [prefix: string, group: string])[] = [
  ['cf.waf.', 'WAF'],
  ['cf.llm.', 'AI Security'],
  ['cf.api_gateway.', 'API Shield'],
  ['cf.schema_validation.', 'API Shield'],
  ['cf.sequence.', 'API Shield'],
  ['cf.timings.', 'Timings'],
  ['cf.tls_', 'TLS'],
  ['cf.', 'Cloudflare'],
];

/**
 * Fields the docs list without a type, and the type (as the docs write types) we read them as.
 * `cf.metal.id`: the docs' list of the fields a header value may use has it, untyped, and the same
 * page asks for `to_string()` around any value that is not a String; real rule files set a header
 * to it bare. Read as a String, so that use is no error (a false error is worse than a missed one).
 */
export const UNTYPED_FIELDS: Readonly<Record<string, { readonly docsType: string }>> = {
  'cf.metal.id': { docsType: 'String' },
};

/** Every field of a response phase, whatever its docs category. */
export const RESPONSE_GROUP = 'Response';
export const MAGIC_GROUP = 'Packet';

/** A field with a closed set of values whose kind is more than `one-of`: completion and hover name continents. */
export const ONE_OF_KINDS: Readonly<Record<string, FieldValueKind>> = {
  'ip.src.continent': 'continent',
};

/** The value kind a documented value form gives. */
export const FORM_VALUES: Readonly<Record<string, FieldValueKind>> = {
  uppercase: 'method',
  lowercase: 'lowercase',
  country: 'country',
};

/** A parameter as the catalogue takes it, where it does not follow the engine. */
export interface ParameterDecision {
  readonly kind: 'field' | 'literal' | 'both';
  readonly types: readonly ValueType[];
  readonly repeats?: boolean;
}

/**
 * Signatures where we follow the docs rather than the engine, because the engine (the
 * octorules-wirefilter binding registers stand-ins for Cloudflare's functions) rejects calls the
 * docs show: a false error is worse than a missed one. `parameters` replaces the probed list.
 */
export const FUNCTION_DECISIONS: Readonly<Record<string, { readonly minArgs?: number; readonly maxArgs?: number | 'unbounded'; readonly parameters?: readonly ParameterDecision[] }>> = {
  substring: { minArgs: 2 },
  to_string: { parameters: [{ kind: 'field', types: ['Integer', 'Ip', 'Boolean'] }] },
  len: { parameters: [{ kind: 'field', types: ['Bytes', 'Array<Array<Bytes>>', 'Array<Bytes>', 'Array<Integer>'] }] },
  url_decode: {
    maxArgs: 2,
    parameters: [
      { kind: 'field', types: ['Bytes'] },
      { kind: 'literal', types: ['Bytes'] },
    ],
  },
  lookup_json_string: {
    maxArgs: 'unbounded',
    parameters: [
      { kind: 'field', types: ['Bytes'] },
      { kind: 'literal', types: ['Bytes', 'Integer'], repeats: true },
    ],
  },
  lookup_json_integer: {
    maxArgs: 'unbounded',
    parameters: [
      { kind: 'field', types: ['Bytes'] },
      { kind: 'literal', types: ['Bytes', 'Integer'], repeats: true },
    ],
  },
  remove_query_args: {
    maxArgs: 'unbounded',
    parameters: [
      { kind: 'field', types: ['Bytes'] },
      { kind: 'literal', types: ['Bytes'], repeats: true },
    ],
  },
  is_timed_hmac_valid_v0: {
    minArgs: 4,
    maxArgs: 6,
    parameters: [
      { kind: 'literal', types: ['Bytes'] },
      { kind: 'both', types: ['Bytes'] },
      { kind: 'literal', types: ['Integer'] },
      { kind: 'both', types: ['Integer'] },
      { kind: 'literal', types: ['Integer'] },
      { kind: 'literal', types: ['Bytes'] },
    ],
  },
};

/**
 * Every way the catalogue differs from the engine, as docs/engine.md's table says it (what | engine | we
 * | why), with the differences the oracle's catalogue test finds for it (`aspects`). A difference
 * the test finds that no row names fails it, and so does a row whose aspects it no longer finds.
 */
export interface DecidedDifference {
  readonly family: PhaseFamily;
  readonly what: string;
  readonly engine: string;
  readonly we: string;
  readonly why: string;
  readonly aspects: readonly string[];
}

const MAGIC_MISSING_FUNCTIONS = [
  'all', 'any', 'cidr', 'cidr6', 'coalesce', 'concat', 'contains', 'decode_base64', 'encode_base64', 'ends_with',
  'has_key', 'has_value', 'hash_in_range', 'hmac', 'ip_in_range', 'is_jwt_present', 'is_jwt_valid', 'is_timed_hmac_valid_v0', 'join', 'len',
  'lookup_json_integer', 'lookup_json_string', 'lower', 'regex_replace', 'remove_bytes', 'remove_query_args', 'sha256', 'sha512', 'split', 'starts_with',
  'substring', 'to_string', 'trim', 'trim_end', 'trim_start', 'upper', 'url_decode', 'uuidv4', 'wildcard', 'wildcard_replace',
];

export const DECIDED_DIFFERENCES: readonly DecidedDifference[] = [
  {
    family: 'magic',
    what: '`ip.geoip.country` in the packet phases',
    engine: 'unknown',
    we: 'accept; deprecated, for `ip.src.country` / `ip.dst.country`',
    why: 'the Magic Firewall docs keep it (deprecated) for the source or destination country (LANGUAGE.md §5)',
    aspects: ['field ip.geoip.country: not in the engine'],
  },
  {
    family: 'magic',
    what: '`len(…)`, `lower(…)` and the other HTTP functions in the packet phases',
    engine: 'accepts',
    we: 'unknown function',
    why: 'only `bit_slice` is documented for these phases (LANGUAGE.md §7)',
    aspects: MAGIC_MISSING_FUNCTIONS.map((name) => `function ${name}: missing`),
  },
  {
    family: 'http',
    what: '`cf.bot_management.signed_agent`, `cf.schema_validation.learned.violated`, `cf.schema_validation.uploaded.violated`',
    engine: 'unknown',
    we: 'accept (Boolean)',
    why: "the docs' field list has them; the engine's scheme does not yet",
    aspects: ['cf.bot_management.signed_agent', 'cf.schema_validation.learned.violated', 'cf.schema_validation.uploaded.violated'].map((name) => `field ${name}: not in the engine`),
  },
  {
    family: 'http',
    what: '`cf.sequence.current_op`, `cf.sequence.previous_ops`, `cf.sequence.msec_since_op` (custom rules, rate limiting rules, Bulk Redirects, Request Header Transform Rules); `cf.metal.id` (header values of Request and Response Header Transform Rules)',
    engine: 'unknown',
    we: "accept in the phases the docs give them, with the docs' types (`cf.metal.id`, untyped there, as a String); elsewhere an error",
    why: "the docs list them for these phases; the engine's scheme does not have them",
    aspects: ['cf.sequence.current_op', 'cf.sequence.previous_ops', 'cf.sequence.msec_since_op', 'cf.metal.id'].map((name) => `field ${name}: not in the engine`),
  },
  {
    family: 'http',
    what: '`substring(field, start)` without `end`',
    engine: 'three arguments required',
    we: 'accept',
    why: 'the docs make `end` optional',
    aspects: ['function substring: minArgs'],
  },
  {
    family: 'http',
    what: '`to_string(ssl)`, `to_string(ip.src)`',
    engine: 'Integer only',
    we: 'accept Integer, Boolean and IP address',
    why: 'the docs list all three',
    aspects: ['function to_string: parameter 0 types'],
  },
  {
    family: 'http',
    what: '`len(array)`',
    engine: 'String only',
    we: 'accept arrays (their element count)',
    why: 'the docs count the elements of an array',
    aspects: ['function len: parameter 0 types'],
  },
  {
    family: 'http',
    what: '`url_decode(field, "r")`',
    engine: 'one argument',
    we: 'accept an optional literal of options',
    why: 'the docs document the options `r` and `u`',
    aspects: ['function url_decode: maxArgs'],
  },
  {
    family: 'http',
    what: '`lookup_json_string` / `lookup_json_integer` with integer or several keys',
    engine: 'exactly one String key',
    we: 'one or more keys, each a String or an Integer',
    why: 'the docs walk nested objects and arrays with several keys and array positions',
    aspects: ['function lookup_json_string: maxArgs', 'function lookup_json_string: parameter 1 types', 'function lookup_json_integer: maxArgs', 'function lookup_json_integer: parameter 1 types'],
  },
  {
    family: 'http',
    what: '`remove_query_args` with more than 8 names',
    engine: 'at most 9 arguments',
    we: 'any number of names',
    why: 'the docs take any number; the binding stops at 9 for convenience',
    aspects: ['function remove_query_args: maxArgs'],
  },
  {
    family: 'http',
    what: '`is_timed_hmac_valid_v0(key, message_mac, ttl, timestamp[, separator_length[, flags]])`',
    engine: 'another order: a field first, 3 to 5 arguments; rejects the documented call',
    we: "the docs' signature: literal key, message, literal ttl, timestamp, two optional literals",
    why: "the docs' own examples must pass",
    aspects: [
      'function is_timed_hmac_valid_v0: minArgs',
      'function is_timed_hmac_valid_v0: maxArgs',
      'function is_timed_hmac_valid_v0: parameter 0 kind',
      'function is_timed_hmac_valid_v0: parameter 1 kind',
      'function is_timed_hmac_valid_v0: parameter 3 kind',
      'function is_timed_hmac_valid_v0: parameter 3 types',
    ],
  },
];
