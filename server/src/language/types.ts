import type { ScalarType, ValueType } from './ast';

/**
 * Types as text (`Integer`, `Array<Bytes>`, `Map<Array<Bytes>>`): one string per type, so that
 * types compare with `===`, print as they read, and cost no object per node.
 */

export function arrayOf(element: ValueType): ValueType {
  return `Array<${element}>`;
}

export function mapOf(value: ValueType): ValueType {
  return `Map<${value}>`;
}

export function isArrayType(type: ValueType): type is `Array<${string}>` {
  return type.startsWith('Array<');
}

export function isMapType(type: ValueType): type is `Map<${string}>` {
  return type.startsWith('Map<');
}

export function isScalarType(type: ValueType): type is ScalarType {
  return !type.endsWith('>');
}

/** The type of an array's elements or a map's values; undefined for a scalar. */
export function elementType(type: ValueType): ValueType | undefined {
  if (isScalarType(type)) return undefined;
  // Asked of every index step: the few container types are cut once.
  let element = ELEMENT_TYPES.get(type);
  if (element === undefined) {
    element = (isArrayType(type) ? type.slice('Array<'.length, -1) : type.slice('Map<'.length, -1)) as ValueType;
    if (ELEMENT_TYPES.size < MAX_ELEMENT_TYPES) ELEMENT_TYPES.set(type, element);
  }
  return element;
}

const ELEMENT_TYPES = new Map<ValueType, ValueType>();
/** The catalogue's container types are a handful; calls can nest arrays in what the user writes. */
const MAX_ELEMENT_TYPES = 64;

const SCALAR_NAMES: Record<ScalarType, string> = { Integer: 'Integer', Ip: 'IP address', Bytes: 'String', Boolean: 'Boolean' };

/** How messages and hovers name a type: `String`, `IP address`, `Array<String>`, `Map<Array<String>>`. */
export function describeValueType(type: ValueType): string {
  const element = elementType(type);
  if (element === undefined) return SCALAR_NAMES[type as ScalarType];
  const inner = isScalarType(element) && element === 'Ip' ? 'IP' : describeValueType(element);
  return `${isArrayType(type) ? 'Array' : 'Map'}<${inner}>`;
}

const ENGINE_SCALARS: Record<ScalarType, string> = { Integer: 'INT', Ip: 'IP', Bytes: 'STRING', Boolean: 'BOOL' };

/**
 * The reference engine's name of a type, as its `get_schema_info()` spells it: `STRING`,
 * `ARRAY_STRING`, `MAP_ARRAY_STRING`, and `MAP_STRING_INT` for a map of integers.
 */
export function engineTypeName(type: ValueType): string {
  const element = elementType(type);
  if (element === undefined) return ENGINE_SCALARS[type as ScalarType];
  if (isArrayType(type)) return `ARRAY_${engineTypeName(element)}`;
  return isScalarType(element) ? `MAP_STRING_${engineTypeName(element)}` : `MAP_${engineTypeName(element)}`;
}

/** The type an engine type name stands for (the inverse of engineTypeName); undefined for a name it cannot read. */
export function typeFromEngineName(name: string): ValueType | undefined {
  const scalar = (Object.keys(ENGINE_SCALARS) as ScalarType[]).find((t) => ENGINE_SCALARS[t] === name);
  if (scalar) return scalar;
  if (name.startsWith('ARRAY_')) {
    const element = typeFromEngineName(name.slice('ARRAY_'.length));
    return element && arrayOf(element);
  }
  if (name.startsWith('MAP_STRING_')) {
    const value = typeFromEngineName(name.slice('MAP_STRING_'.length));
    if (value && isScalarType(value)) return mapOf(value);
  }
  if (name.startsWith('MAP_')) {
    const value = typeFromEngineName(name.slice('MAP_'.length));
    if (value && !isScalarType(value)) return mapOf(value);
  }
  return undefined;
}

/**
 * The type left by one index step (`["key"]`, `[0]`, `[*]`) on a value of `type`: a map's
 * values for a key, an array's elements for an index, either for `[*]`; undefined when the
 * step does not fit (an index of a map, a key or `[*]` of a scalar).
 */
export function typeAfterStep(type: ValueType, step: 'key' | 'element' | 'each'): ValueType | undefined {
  if (step === 'key') return isMapType(type) ? elementType(type) : undefined;
  if (step === 'element') return isArrayType(type) ? elementType(type) : undefined;
  return elementType(type);
}
