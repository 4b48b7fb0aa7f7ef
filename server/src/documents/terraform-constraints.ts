/**
 * A variable's `type` constraint and Terraform's conversion of its value (default, `.tfvars`,
 * module argument) to it: opentofu's variable evaluation applies the `optional(type, default)`
 * defaults (hashicorp/hcl ext/typeexpr/defaults.go: an attribute absent or null takes its
 * default, nested ones too), then converts with go-cty's cty/convert (unsafe conversions, as
 * for any input): strings to numbers and bools and back, tuples to lists and sets, objects to
 * maps and objects (attributes the type lacks dropped, a required one missing an error).
 * What this cannot do exactly (unifying the element types of `list(any)`, the order of a set
 * of objects) is unknown, never guessed.
 */
import type { HclNode } from './host/index';
import { isUnsure, list, NULL, num, numberText, object, produced, UNKNOWN, ERROR, valuesEqual, type Place, type StringValue, type Value } from './terraform-values';

/** A type constraint as `type = …` writes it. */
export type TypeConstraint =
  | { readonly kind: 'string' | 'number' | 'bool' | 'any' }
  | { readonly kind: 'list' | 'set' | 'map'; readonly element: TypeConstraint }
  | { readonly kind: 'tuple'; readonly elements: readonly TypeConstraint[] }
  | { readonly kind: 'object'; readonly attributes: ReadonlyMap<string, { readonly type: TypeConstraint; readonly optional: boolean; readonly default?: Value }> };

const MAX_DEPTH = 32;

/**
 * The constraint written in `node` (an expression: `string`, `list(object({…}))`…); undefined
 * when it is not one this reads. `evaluate` gives the value of an `optional`'s default.
 */
export function typeConstraint(node: HclNode | null | undefined, evaluate: (expression: HclNode) => Value, depth = 0): TypeConstraint | undefined {
  if (!node || depth > MAX_DEPTH) return undefined;
  if (node.type === 'expression') {
    const children = node.namedChildren.filter((c): c is HclNode => c !== null && c.type !== 'comment');
    return children.length === 1 ? typeConstraint(children[0], evaluate, depth + 1) : undefined;
  }
  if (node.type === 'variable_expr') {
    const name = node.text.trim();
    return name === 'string' || name === 'number' || name === 'bool' || name === 'any' ? { kind: name } : undefined;
  }
  if (node.type !== 'function_call') return undefined;
  const name = node.namedChildren[0]?.text;
  const args = node.namedChildren.find((c) => c?.type === 'function_arguments')?.namedChildren.filter((c): c is HclNode => c?.type === 'expression') ?? [];
  switch (name) {
    case 'list':
    case 'set':
    case 'map': {
      const element = args.length === 1 ? typeConstraint(args[0], evaluate, depth + 1) : undefined;
      return element && { kind: name, element };
    }
    case 'tuple': {
      const tuple = args.length === 1 ? collectionOf(args[0], 'tuple') : undefined;
      if (!tuple) return undefined;
      const elements = tuple.namedChildren.filter((c): c is HclNode => c?.type === 'expression').map((e) => typeConstraint(e, evaluate, depth + 1));
      return elements.every((e) => e !== undefined) ? { kind: 'tuple', elements: elements as TypeConstraint[] } : undefined;
    }
    case 'object': {
      const body = args.length === 1 ? collectionOf(args[0], 'object') : undefined;
      if (!body) return undefined;
      const attributes = new Map<string, { type: TypeConstraint; optional: boolean; default?: Value }>();
      for (const element of body.namedChildren) {
        if (element?.type !== 'object_elem') continue;
        const [keyNode, valueNode] = element.namedChildren.filter((c): c is HclNode => c?.type === 'expression');
        const key = attributeName(keyNode);
        if (key === undefined || !valueNode) return undefined;
        const optional = optionalCall(valueNode);
        if (optional) {
          const type = typeConstraint(optional[0], evaluate, depth + 1);
          if (!type || optional.length > 2) return undefined;
          attributes.set(key, optional[1] ? { type, optional: true, default: evaluate(optional[1]) } : { type, optional: true });
        } else {
          const type = typeConstraint(valueNode, evaluate, depth + 1);
          if (!type) return undefined;
          attributes.set(key, { type, optional: false });
        }
      }
      return { kind: 'object', attributes };
    }
    default:
      return undefined;
  }
}

function collectionOf(expression: HclNode, type: 'tuple' | 'object'): HclNode | undefined {
  const collection = expression.namedChildren.length === 1 ? expression.namedChildren[0] : undefined;
  const inner = collection?.type === 'collection_value' ? collection.namedChildren[0] : undefined;
  return inner?.type === type ? inner : undefined;
}

function attributeName(key: HclNode | undefined): string | undefined {
  const only = key?.namedChildren.length === 1 ? key.namedChildren[0] : undefined;
  if (only?.type === 'variable_expr') return only.text.trim();
  const literal = only?.type === 'literal_value' ? only.namedChildren[0] : undefined;
  if (literal?.type === 'string_lit' && /^"[A-Za-z0-9_-]*"$/.test(literal.text)) return literal.text.slice(1, -1);
  return undefined;
}

/** The arguments of an `optional(type[, default])`. */
function optionalCall(expression: HclNode): HclNode[] | undefined {
  const call = expression.namedChildren.length === 1 ? expression.namedChildren[0] : undefined;
  if (call?.type !== 'function_call' || call.namedChildren[0]?.text !== 'optional') return undefined;
  return call.namedChildren.find((c) => c?.type === 'function_arguments')?.namedChildren.filter((c): c is HclNode => c?.type === 'expression') ?? [];
}

/**
 * `value` as Terraform hands it on after converting it to `type`: ERROR where Terraform refuses
 * it, UNKNOWN where it is not known or not followed here. Text a conversion writes (a number
 * to a string) comes from `place`.
 */
export function convertValue(value: Value, type: TypeConstraint, place: Place, depth = 0): Value {
  if (isUnsure(value) || value.kind === 'null') return value;
  if (depth > MAX_DEPTH) return UNKNOWN;
  switch (type.kind) {
    case 'any':
      return value;
    case 'string':
      if (value.kind === 'string') return value;
      if (value.kind === 'number') {
        const text = numberText(value.value);
        return text === undefined ? UNKNOWN : produced(text, place);
      }
      return value.kind === 'bool' ? produced(String(value.value), place) : ERROR;
    case 'number': {
      if (value.kind === 'number') return value;
      // cty.ParseNumberVal: a decimal number, no spaces.
      return value.kind === 'string' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value.value) ? num(Number(value.value)) : ERROR;
    }
    case 'bool': {
      if (value.kind === 'bool') return value;
      if (value.kind !== 'string') return ERROR;
      const text = (value as StringValue).value;
      return text === 'true' || text === '1' ? { kind: 'bool', value: true } : text === 'false' || text === '0' ? { kind: 'bool', value: false } : ERROR;
    }
    case 'list':
    case 'set': {
      if (value.kind !== 'list') return ERROR;
      const items = convertItems(value.items, type.element, place, depth);
      if (!Array.isArray(items)) return items;
      return type.kind === 'list' ? list(items) : toSet(items);
    }
    case 'tuple': {
      if (value.kind !== 'list' || value.set || value.items.length !== type.elements.length) return ERROR;
      const items = value.items.map((item, i) => convertValue(item, type.elements[i], place, depth + 1));
      return items.find((i) => i.kind === 'error') ?? list(items);
    }
    case 'map': {
      if (value.kind !== 'object') return ERROR;
      const converted = convertItems([...value.entries.values()], type.element, place, depth);
      if (!Array.isArray(converted)) return converted;
      const keys = [...value.entries.keys()];
      return object(converted.map((v, i) => [keys[i], v] as const));
    }
    case 'object': {
      if (value.kind !== 'object') return ERROR;
      const entries: [string, Value][] = [];
      for (const [name, attribute] of type.attributes) {
        let given = value.entries.get(name);
        if (given === undefined && !attribute.optional) return ERROR;
        if ((given === undefined || given.kind === 'null') && attribute.default !== undefined) given = attribute.default;
        entries.push([name, given === undefined ? NULL : convertValue(given, attribute.type, place, depth + 1)]);
      }
      return entries.find(([, v]) => v.kind === 'error')?.[1] ?? object(entries);
    }
  }
}

/**
 * The items of a list, set or map converted to one element type; with `any`, cty unifies them to
 * one type, which is followed only where they already share one kind of primitive.
 */
function convertItems(items: readonly Value[], element: TypeConstraint, place: Place, depth: number): Value[] | Value {
  if (element.kind === 'any') {
    const known = items.filter((i) => i.kind !== 'null');
    return known.every((item) => sameShape(item, known[0], 0)) ? [...items] : UNKNOWN;
  }
  const converted = items.map((item) => convertValue(item, element, place, depth + 1));
  return converted.find((i) => i.kind === 'error') ?? converted;
}

/** A set of strings, numbers or bools in cty's order; of anything else, an order this does not know. */
function toSet(items: readonly Value[]): Value {
  const kept: Value[] = [];
  for (const item of items) {
    if (isUnsure(item)) return UNKNOWN;
    if (!kept.some((k) => valuesEqual(k, item) === true)) kept.push(item);
  }
  if (kept.every((k) => k.kind === 'string')) kept.sort((a, b) => ((a as StringValue).value < (b as StringValue).value ? -1 : (a as StringValue).value > (b as StringValue).value ? 1 : 0));
  else if (kept.every((k) => k.kind === 'number')) kept.sort((a, b) => (a as { value: number }).value - (b as { value: number }).value);
  else if (kept.length > 1) return UNKNOWN;
  return { kind: 'list', items: kept, set: true };
}

/** Whether two values have one type as cty would see it (what unifies without a conversion); nulls fit anything. */
function sameShape(a: Value, b: Value, depth: number): boolean {
  if (depth > MAX_DEPTH || isUnsure(a) || isUnsure(b)) return false;
  if (a.kind === 'null' || b.kind === 'null') return true;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'list' && b.kind === 'list') return a.items.length === b.items.length && a.items.every((item, i) => sameShape(item, b.items[i], depth + 1));
  if (a.kind === 'object' && b.kind === 'object') return a.entries.size === b.entries.size && [...a.entries].every(([k, v]) => b.entries.has(k) && sameShape(v, b.entries.get(k)!, depth + 1));
  return true;
}
