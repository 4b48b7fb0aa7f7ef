/**
 * Terraform's conversions of a value to an attribute's type, as the checks of a `.tf` file need
 * them: what Terraform hands the provider is the value converted, and what it cannot convert is
 * its error, in its words.
 *
 * The rules are go-cty's (github.com/zclconf/go-cty, commit dcb5db69, cty/convert): a number
 * or a bool converts to a string (conversion_primitive.go, primitiveConversionsSafe); a string
 * converts to a bool when it is exactly `true`, `1`, `false` or `0`, and to a number when
 * `cty.ParseNumberVal` reads it (primitiveConversionsUnsafe; value_init.go: Go's
 * `big.ParseFloat(s, 10, 512, …)`); `null` converts to every type. Anything else is a mismatch,
 * described as convert.MismatchMessage does (mismatch_msg.go: `bool required, but have
 * number`), and Terraform's attribute decoder says it as `Inappropriate value for attribute
 * "NAME": MESSAGE.` (hashicorp/hcl, hcldec/spec.go, AttrSpec.decode).
 */
import type { ParameterType } from '../language/catalogue/action-schema';
import type { HostNode, HostScalar } from './host/index';

/** A value's type as Terraform names it: an HCL `[…]` is a tuple, `{…}` (or a block) an object. */
export function terraformTypeName(node: HostNode): string {
  switch (node.kind) {
    case 'boolean':
      return 'bool';
    case 'array':
      return 'tuple';
    default:
      return node.kind;
  }
}

/** A schema type as Terraform names it in a mismatch (`list of string`); undefined for a union or any, whose mismatches our own checks describe. */
export function terraformTypeOf(type: ParameterType): string | undefined {
  switch (type.kind) {
    case 'string':
    case 'number':
    case 'object':
      return type.kind;
    case 'boolean':
      return 'bool';
    case 'array': {
      const items = terraformTypeOf(type.items);
      return items ? `list of ${items}` : undefined;
    }
    default:
      return undefined;
  }
}

/** What converting `node` to a primitive type gives: the value as that type, or Terraform's message of why not. */
export type Conversion = { readonly value: HostScalar } | { readonly refused: string };

/**
 * `node` converted to `want` as Terraform converts it; undefined when it needs no conversion or
 * is not a primitive conversion (objects and lists, whose insides are checked as they are).
 */
export function convertPrimitive(node: HostNode, want: 'string' | 'number' | 'boolean'): Conversion | undefined {
  if (node.kind === want || node.kind === 'null') return undefined;
  if (want === 'string') {
    if (node.kind === 'number' || node.kind === 'boolean') return { value: { kind: 'string', start: node.start, end: node.end, value: terraformString(node), style: 'hcl-quoted' } };
  } else if (node.kind === 'string') {
    const text = String(node.value);
    if (want === 'boolean') {
      if (text === 'true' || text === '1') return { value: { kind: 'boolean', start: node.start, end: node.end, value: true } };
      if (text === 'false' || text === '0') return { value: { kind: 'boolean', start: node.start, end: node.end, value: false } };
      const lower = text.toLowerCase();
      return { refused: lower === 'true' || lower === 'false' ? `a bool is required; to convert from string, use lowercase "${lower}"` : 'a bool is required' };
    }
    const number = terraformNumber(text);
    return number === undefined ? { refused: 'a number is required' } : { value: { kind: 'number', start: node.start, end: node.end, value: number } };
  }
  const wanted = want === 'boolean' ? 'bool' : want;
  return { refused: `${wanted} required, but have ${terraformTypeName(node)}` };
}

/** Terraform's message for a value of an attribute it cannot convert. */
export function inappropriateValue(attribute: string, reason: string): string {
  return `Inappropriate value for attribute "${attribute}": ${reason}.`;
}

/**
 * The number a string converts to, as go-cty reads it (Go's big.Float in base 10: an optional
 * sign, digits with an optional point, an exponent `e` or binary `p`, or `Inf`; no spaces, no
 * `_`, no `0x`); undefined when Terraform refuses it.
 */
export function terraformNumber(text: string): number | undefined {
  const m = /^([+-]?)(?:([Ii]nf)|(\d+\.?\d*|\.\d+)(?:([eEpP])([+-]?\d+))?)$/.exec(text);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  if (m[2]) return sign * Infinity;
  const mantissa = Number(m[3]);
  if (!m[4]) return sign * mantissa;
  const exponent = Number(m[5]);
  return sign * (m[4] === 'p' || m[4] === 'P' ? mantissa * 2 ** exponent : Number(`${m[3]}e${m[5]}`));
}

/** A number or bool as the string Terraform converts it to (big.Float's `Text('f', -1)`: no exponent). */
function terraformString(node: HostScalar): string {
  if (node.kind === 'boolean') return node.value ? 'true' : 'false';
  const value = Number(node.value);
  if (!Number.isFinite(value)) return String(value);
  const shown = String(value);
  // JavaScript writes 1e21 and above, and small fractions, with an exponent; Go's 'f' does not.
  if (!/e/i.test(shown)) return shown;
  return Number.isInteger(value) ? BigInt(value).toString() : value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}
