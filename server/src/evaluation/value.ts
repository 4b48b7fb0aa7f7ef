/**
 * Values as the evaluator holds them: the four scalar types of packets and requests, and the
 * arrays and maps of the HTTP phases (`http.request.headers` is a `Map<Array<String>>`).
 *
 * Three things may stand where a value is read, and they are kept apart on purpose:
 * - a value;
 * - `undefined`: *unknown* — the test case does not say (a field it does not give), so the
 *   result may depend on it, and a verdict that does is an error naming it;
 * - `MISSING`: the engine's "missing value" — the request has no such thing (a header it does
 *   not send, an index past the end of an array, a transport header the packet does not have).
 *   The Cloudflare docs (src/content/partials/ruleset-engine/rules-language-missing-value-behavior.mdx
 *   at 3e5c0a75) say every comparison of a missing value is false; wirefilter does the same with its
 *   `default` of each comparison (engine/src/ast/field_expr.rs, `compile_with(compiler, false, …)`;
 *   only `!=` takes the scheme's nil-not-equal setting, and the docs settle it as false).
 */
import type { IpFamily, ValueType } from '../language/ast';

export type FieldValue =
  | { readonly type: 'Integer'; readonly value: bigint }
  | { readonly type: 'Ip'; readonly family: IpFamily; readonly value: bigint }
  | { readonly type: 'Bytes'; readonly bytes: Uint8Array }
  | { readonly type: 'Boolean'; readonly value: boolean };

/**
 * An array. An element is `undefined` when it is unknown: a call mapped over an array
 * (`starts_with(names[*], http.host)`) whose other argument the test case does not give.
 */
export interface ArrayValue {
  readonly type: 'Array';
  readonly items: readonly Item[];
}

/**
 * A map from string keys. `keys` are in the order wirefilter walks them with `[*]`: it keeps a
 * map as a `BTreeMap<Box<[u8]>, _>` (engine/src/lhs_types/map.rs), so by the keys' UTF-8 bytes.
 */
export interface MapValue {
  readonly type: 'Map';
  readonly keys: readonly string[];
  readonly byKey: ReadonlyMap<string, Value>;
}

export type Value = FieldValue | ArrayValue | MapValue;
export type Item = Value | undefined;

export const MISSING = Symbol('missing');
/** What reading a field, an index or a call gives. */
export type Read = Value | undefined | typeof MISSING;

const UTF8 = new TextEncoder();

/** A map of these entries, its keys in wirefilter's order (by UTF-8 bytes, not by UTF-16 units). */
export function mapValue(entries: Iterable<readonly [string, Value]>): MapValue {
  const byKey = new Map<string, Value>(entries);
  const encoded = [...byKey.keys()].map((key) => ({ key, bytes: UTF8.encode(key) }));
  encoded.sort((a, b) => compareBytes(a.bytes, b.bytes));
  return { type: 'Map', keys: encoded.map((e) => e.key), byKey };
}

export function arrayValue(items: readonly Item[]): ArrayValue {
  return { type: 'Array', items };
}

export function bytesValue(text: string): FieldValue & { type: 'Bytes' } {
  return { type: 'Bytes', bytes: UTF8.encode(text) };
}

export function booleanValue(value: boolean): FieldValue & { type: 'Boolean' } {
  return { type: 'Boolean', value };
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** The elements `[*]` walks: an array's items, or a map's values in key order. */
export function elementsOf(value: ArrayValue | MapValue): readonly Item[] {
  return value.type === 'Array' ? value.items : value.keys.map((key) => value.byKey.get(key)!);
}

/** How messages name a value's type: `String`, `Array<String>` (the first element decides, or `Array`). */
export function describeValue(value: Value): string {
  switch (value.type) {
    case 'Bytes':
      return 'String';
    case 'Ip':
      return 'IP address';
    case 'Integer':
    case 'Boolean':
      return value.type;
    case 'Array':
      return 'an array';
    case 'Map':
      return 'a map';
  }
}

/** Whether a value is of a catalogue type (elements of an empty array or map fit any). */
export function valueFits(value: Value, type: ValueType): boolean {
  if (type.startsWith('Array<')) return value.type === 'Array' && value.items.every((item) => item === undefined || valueFits(item, type.slice(6, -1) as ValueType));
  if (type.startsWith('Map<')) return value.type === 'Map' && [...value.byKey.values()].every((item) => valueFits(item, type.slice(4, -1) as ValueType));
  return value.type === type;
}
