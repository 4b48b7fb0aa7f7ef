/**
 * What the HTTP generator (generate-http.ts) needs to know of the engine's default (HTTP) scheme,
 * as data, in the shapes of the catalogue contract (FieldInfo and FunctionInfo of issue 21's
 * design notes, reduced to the members a generator reads), so that the catalogue, once it exists,
 * can be passed in their place.
 *
 * Facts, each checked against the engine by http-scheme.test.ts: the fields come from the engine
 * itself (`get_schema_info()`) plus the nine it leaves out of that list; the function signatures
 * below are held to the engine argument by argument (kind, type, count).
 */
import type { ValueType } from '../../server/src/language/ast';
import { typeFromEngineName } from '../../server/src/language/types';
import type { SchemaInfo } from './engine';

export interface GenField {
  readonly name: string;
  readonly type: ValueType;
}

export interface GenParameter {
  /** The types the engine takes here (any of them). */
  readonly types: readonly ValueType[];
  /**
   * The engine's argument kind: `field` = a field, a call, an index or a logical expression (a
   * "variable"); `literal` = a string, number or address written out; `both` = either.
   */
  readonly kind: 'field' | 'literal' | 'both';
  readonly optional?: boolean;
  /** May be given again and again (up to the function's maxArgs). */
  readonly repeats?: boolean;
}

export interface GenFunction {
  readonly name: string;
  readonly parameters: readonly GenParameter[];
  readonly minArgs: number;
  /** undefined: no upper bound. */
  readonly maxArgs?: number;
  /** `first-argument`: the type of the call's first argument (concat, coalesce). */
  readonly result: ValueType | 'first-argument';
  /** any / all: logical quantifiers, not calls; the generator writes them itself. */
  readonly quantifier?: boolean;
}

/**
 * Fields the engine's HTTP scheme has but `get_schema_info()` does not list (the bindings keep
 * them out of it on purpose; see the notes of issue 21). Their types were read off the engine by
 * what it accepts after each (http-scheme.test.ts).
 */
export const HIDDEN_HTTP_FIELDS: readonly GenField[] = [
  { name: 'http.request.uri.path', type: 'Bytes' },
  { name: 'cf.zone.name', type: 'Bytes' },
  { name: 'cf.zone.plan', type: 'Bytes' },
  { name: 'ip.geoip.asnum', type: 'Integer' },
  { name: 'ip.geoip.continent', type: 'Bytes' },
  { name: 'ip.geoip.country', type: 'Bytes' },
  { name: 'ip.geoip.subdivision_1_iso_code', type: 'Bytes' },
  { name: 'ip.geoip.subdivision_2_iso_code', type: 'Bytes' },
  { name: 'ip.geoip.is_in_european_union', type: 'Boolean' },
];

/** The engine's HTTP fields: its own list, with the engine's type names read, and the hidden ones. */
export function httpFieldsFromSchema(schema: SchemaInfo): GenField[] {
  const listed = schema.fields.map((f) => {
    const type = typeFromEngineName(f.type);
    if (type === undefined) throw new Error(`the engine reported a type we cannot read: ${f.name}: ${f.type}`);
    return { name: f.name, type };
  });
  const names = new Set(listed.map((f) => f.name));
  return [...listed, ...HIDDEN_HTTP_FIELDS.filter((f) => !names.has(f.name))];
}

const bytesField = (optional?: true): GenParameter => ({ types: ['Bytes'], kind: 'field', ...(optional ? { optional } : {}) });
const literal = (type: ValueType, optional?: true): GenParameter => ({ types: [type], kind: 'literal', ...(optional ? { optional } : {}) });
const fixed = (name: string, parameters: GenParameter[], result: ValueType): GenFunction => ({
  name,
  parameters,
  minArgs: parameters.filter((p) => !p.optional).length,
  maxArgs: parameters.length,
  result,
});

/**
 * The 41 functions of the engine's schemes (both register the same ones), as the engine reads
 * their arguments. Where the engine and the documentation differ (`substring` needs its end,
 * `remove_query_args` stops at nine arguments, `hash_in_range` at three), this is the engine.
 */
export const ENGINE_FUNCTIONS: readonly GenFunction[] = [
  { name: 'any', parameters: [{ types: ['Array<Boolean>'], kind: 'field' }], minArgs: 1, maxArgs: 1, result: 'Boolean', quantifier: true },
  { name: 'all', parameters: [{ types: ['Array<Boolean>'], kind: 'field' }], minArgs: 1, maxArgs: 1, result: 'Boolean', quantifier: true },
  // Bytes or an array, the same type for every argument; literals too.
  { name: 'concat', parameters: [{ types: ['Bytes', 'Array<Bytes>', 'Array<Integer>', 'Array<Array<Bytes>>', 'Array<Boolean>'], kind: 'both', repeats: true }], minArgs: 2, result: 'first-argument' },
  // One of four scalar types, the same for every argument.
  { name: 'coalesce', parameters: [{ types: ['Bytes', 'Integer', 'Ip', 'Boolean'], kind: 'both', repeats: true }], minArgs: 2, result: 'first-argument' },
  // The bounds are literals with max > min (the generator keeps to that mostly).
  fixed('hash_in_range', [literal('Integer'), literal('Integer'), { types: ['Bytes', 'Integer', 'Ip'], kind: 'field' }], 'Integer'),
  // The optional set may not name a byte twice.
  fixed('trim', [bytesField(), literal('Bytes', true)], 'Bytes'),
  fixed('trim_start', [bytesField(), literal('Bytes', true)], 'Bytes'),
  fixed('trim_end', [bytesField(), literal('Bytes', true)], 'Bytes'),
  fixed('lower', [bytesField()], 'Bytes'),
  fixed('upper', [bytesField()], 'Bytes'),
  fixed('url_decode', [bytesField()], 'Bytes'),
  fixed('uuidv4', [bytesField()], 'Bytes'),
  fixed('starts_with', [bytesField(), { types: ['Bytes'], kind: 'both' }], 'Boolean'),
  fixed('ends_with', [bytesField(), { types: ['Bytes'], kind: 'both' }], 'Boolean'),
  fixed('contains', [bytesField(), { types: ['Bytes'], kind: 'both' }], 'Boolean'),
  fixed('len', [bytesField()], 'Integer'),
  fixed('substring', [bytesField(), literal('Integer'), literal('Integer')], 'Bytes'),
  fixed('regex_replace', [bytesField(), literal('Bytes'), literal('Bytes')], 'Bytes'),
  fixed('remove_bytes', [bytesField(), literal('Bytes')], 'Bytes'),
  fixed('to_string', [{ types: ['Integer'], kind: 'field' }], 'Bytes'),
  fixed('lookup_json_string', [bytesField(), literal('Bytes')], 'Bytes'),
  fixed('lookup_json_integer', [bytesField(), literal('Bytes')], 'Integer'),
  fixed('sha256', [bytesField()], 'Bytes'),
  fixed('sha512', [bytesField()], 'Bytes'),
  fixed('hmac', [bytesField(), literal('Bytes'), literal('Bytes')], 'Bytes'),
  fixed('is_timed_hmac_valid_v0', [bytesField(), literal('Bytes'), literal('Integer'), literal('Bytes', true), literal('Integer', true)], 'Boolean'),
  fixed('ip_in_range', [{ types: ['Ip'], kind: 'field' }, literal('Bytes')], 'Boolean'),
  fixed('wildcard', [bytesField(), literal('Bytes')], 'Boolean'),
  fixed('encode_base64', [bytesField(), literal('Bytes', true)], 'Bytes'),
  fixed('decode_base64', [bytesField()], 'Bytes'),
  fixed('cidr', [{ types: ['Ip'], kind: 'field' }, literal('Integer'), literal('Integer')], 'Ip'),
  fixed('cidr6', [{ types: ['Ip'], kind: 'field' }, literal('Integer')], 'Ip'),
  fixed('join', [{ types: ['Array<Bytes>'], kind: 'field' }, literal('Bytes')], 'Bytes'),
  fixed('split', [bytesField(), literal('Bytes'), literal('Integer')], 'Array<Bytes>'),
  fixed('has_key', [{ types: ['Map<Array<Bytes>>'], kind: 'field' }, literal('Bytes')], 'Boolean'),
  fixed('has_value', [{ types: ['Array<Bytes>'], kind: 'field' }, literal('Bytes')], 'Boolean'),
  // The query and at least one name; at most nine arguments in all.
  { name: 'remove_query_args', parameters: [bytesField(), { types: ['Bytes'], kind: 'literal', repeats: true }], minArgs: 2, maxArgs: 9, result: 'Bytes' },
  // In this scheme the first argument is any String field; the offsets are not bounded.
  fixed('bit_slice', [bytesField(), literal('Integer'), literal('Integer')], 'Integer'),
  fixed('wildcard_replace', [bytesField(), literal('Bytes'), literal('Bytes'), literal('Bytes', true)], 'Bytes'),
  // The argument names a token configuration (a literal id), not a header.
  fixed('is_jwt_valid', [literal('Bytes')], 'Boolean'),
  fixed('is_jwt_present', [literal('Bytes')], 'Boolean'),
];
