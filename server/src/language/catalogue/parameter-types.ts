/**
 * Operations on parameter types shared by the generator (scripts/catalogue/actions-generate.ts)
 * and the facts applied over its output (actions.ts): one way to merge object types.
 */
import type { ObjectParameterType, ParameterKey, ParameterType } from './action-schema';

export function sameType(a: ParameterType, b: ParameterType): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Several object types (declarations of one name, or the members of a union) as one: every key of
 * any of them, required only when all of them require it, so that the result refuses nothing one
 * of them accepts. Throws when they disagree on a key's type beyond a set of literals.
 */
export function mergeObjectTypes(objects: readonly ObjectParameterType[], where: string): ObjectParameterType {
  const names = unique(objects.flatMap((o) => o.keys.map((k) => k.key))).sort(byKey);
  const keys = names.map((key): ParameterKey => {
    const found = objects.flatMap((o) => o.keys.filter((k) => k.key === key));
    const types = found.map((k) => k.type).filter((t, i, all) => all.findIndex((u) => sameType(u, t)) === i);
    return { key, type: mergeTypes(types, `${where}.${key}`), required: found.length === objects.length && found.every((k) => k.required) };
  });
  const maps = objects.filter((o) => o.values);
  if (maps.length > 0 && maps.length !== objects.length) throw new Error(`${where}: some of the merged types are maps, some not`);
  return maps.length > 0 ? { kind: 'object', keys, values: mergeTypes(maps.map((m) => m.values!), `${where}.*`) } : { kind: 'object', keys };
}

/** Types of one key in several merged types: literal sets joined, otherwise they must agree. */
function mergeTypes(types: readonly ParameterType[], where: string): ParameterType {
  if (types.length === 1) return types[0];
  if (types.every((t) => t.kind === 'string')) {
    const all = types as readonly (ParameterType & { kind: 'string' })[];
    return all.some((t) => !t.values) ? { kind: 'string' } : { kind: 'string', values: unique(all.flatMap((t) => t.values!)) };
  }
  if (types.every((t) => t.kind === 'number')) {
    const all = types as readonly (ParameterType & { kind: 'number' })[];
    return all.some((t) => !t.values) ? { kind: 'number' } : { kind: 'number', values: unique(all.flatMap((t) => t.values!)) };
  }
  if (types.every((t) => t.kind === 'boolean')) return { kind: 'boolean' };
  throw new Error(`${where}: the merged types disagree on the type`);
}
