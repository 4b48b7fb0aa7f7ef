/**
 * The types of operands (fields, calls, index expressions) by a phase's catalogue, as the
 * reference engine types them (/work/notes/engine-http.md §4, §5, §9; LANGUAGE.md §3): the
 * shared rules of the checker, which reports what does not fit, and of the parser, which reads
 * the literals on the right of a comparison by the type of its left side.
 *
 * `[*]` maps: after it, a value is one element at a time. In a comparison's left side the
 * comparison is then made once per element (an `Array<Boolean>`); in a call's first argument
 * the call is made once per element, and its value is an array of its results
 * (`lower(http.request.headers.names[*])` is an `Array<Bytes>`).
 */
import type { Argument, FunctionCall, Literal, Operand, ValueType } from './ast';
import type { Catalogue, FunctionInfo } from './catalogue/entries';
import type { OperandTypeOf, ParseOptions } from './parse-semantics';
import { arrayOf, typeAfterStep } from './types';

export const BOOLEAN_ARRAY: ValueType = 'Array<Boolean>';

/** The type of a literal standing as an argument; undefined for one that could not be read. */
export function literalType(literal: Literal): ValueType | undefined {
  switch (literal.kind) {
    case 'string':
    case 'bytes':
      return 'Bytes';
    case 'integer':
    case 'integer-range':
      return 'Integer';
    case 'ip':
    case 'ip-range':
      return 'Ip';
    case 'invalid':
      return undefined;
  }
}

/** Whether an operand's own steps hold a `[*]` (not those inside the arguments of its call). */
export function isMapped(argument: Argument): boolean {
  if (argument.kind !== 'index') return false;
  for (const step of argument.steps) if (step.kind === 'each') return true;
  return false;
}

/**
 * What a call returns from the type of its first argument (its element's type when the
 * argument is mapped): `concat` and `coalesce` return their first argument's type; a call on a
 * mapped first argument returns an array of its results.
 */
export function callResult(fn: FunctionInfo, first: ValueType | undefined, firstMapped: boolean): ValueType | undefined {
  const result = fn.result === 'first-argument' ? first : fn.result;
  if (result === undefined) return undefined;
  return firstMapped ? arrayOf(result) : result;
}

/**
 * The type of an operand by the catalogue, with no problems reported: the type after its
 * steps (a `[*]` gives the element's type). Undefined when a name is not in the catalogue or a
 * step does not fit. A call whose function is not known has `unknownCall`'s type.
 *
 * A loop, not recursion, down the chain of first arguments that decide a call's type
 * (`concat(concat(…), "a")`): the nesting is the user's.
 */
export function operandType(catalogue: Catalogue, operand: Operand, unknownCall?: ValueType): ValueType | undefined {
  // The parser asks this of every comparison's left side, most often a field.
  if (operand.kind === 'field') return catalogue.fields.get(operand.name)?.type;
  // The operands whose type waits for their first argument's, outermost first.
  const pending: Operand[] = [];
  let node: Argument = operand;
  let type: ValueType | undefined;
  let mapped = false;
  for (;;) {
    if (node.kind === 'field' || node.kind === 'call' || node.kind === 'index') {
      const target: Operand = node.kind === 'index' ? node.target : node;
      if (target.kind === 'field') {
        type = catalogue.fields.get(target.name)?.type;
      } else if (target.kind === 'call') {
        const fn = catalogue.functions.get(target.name.text);
        const first: Argument | undefined = target.args[0];
        if (!fn || fn.quantifier) {
          type = fn ? undefined : unknownCall;
        } else if (fn.result !== 'first-argument' && (first === undefined || !isMapped(first))) {
          type = fn.result;
        } else if (first === undefined) {
          type = undefined;
        } else {
          pending.push(node);
          node = first;
          continue;
        }
      }
      type = afterSteps(node, type);
      mapped = isMapped(node);
    } else if (node.kind === 'comparison') {
      type = node.lhs.kind === 'index' && isMapped(node.lhs) ? BOOLEAN_ARRAY : 'Boolean';
      mapped = false;
    } else if (node.kind === 'boolean') {
      type = 'Boolean';
      mapped = false;
    } else if (node.kind === 'logical' || node.kind === 'not' || node.kind === 'group' || node.kind === 'quantifier') {
      // Booleans or arrays of them: no literal is read by such a type.
      type = undefined;
      mapped = false;
    } else {
      type = literalType(node);
      mapped = false;
    }
    break;
  }
  // Back up the chain: each call's result from its first argument, then the call's own steps.
  for (let i = pending.length - 1; i >= 0; i--) {
    const outer = pending[i];
    const call = (outer.kind === 'index' ? outer.target : outer) as FunctionCall;
    type = callResult(catalogue.functions.get(call.name.text)!, type, mapped);
    type = afterSteps(outer, type);
    mapped = isMapped(outer);
  }
  return type;
}

function afterSteps(node: Argument, type: ValueType | undefined): ValueType | undefined {
  if (node.kind !== 'index') return type;
  for (const step of node.steps) {
    if (type === undefined) return undefined;
    type = typeAfterStep(type, step.kind);
  }
  return type;
}

const PARSE_OPTIONS = new WeakMap<Catalogue, ParseOptions>();

/**
 * The parse options that read the literals after an operand by its type in this catalogue;
 * one object per catalogue, made once (catalogueFor gives one catalogue per family). In the
 * packet phases a call of a function they do not have is read as an Integer, the type of
 * `bit_slice`, as it always has been there.
 */
export function parseOptionsFor(catalogue: Catalogue): ParseOptions {
  let options = PARSE_OPTIONS.get(catalogue);
  if (!options) {
    const unknownCall: ValueType | undefined = catalogue.family === 'magic' ? 'Integer' : undefined;
    const operandTypeOf: OperandTypeOf = (operand) => operandType(catalogue, operand, unknownCall);
    options = { operandType: operandTypeOf };
    PARSE_OPTIONS.set(catalogue, options);
  }
  return options;
}
