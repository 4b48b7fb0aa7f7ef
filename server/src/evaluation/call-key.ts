/**
 * A call written one way for every spelling of it: how a test case names a call whose value it
 * gives (`'is_jwt_valid("6f4a…")': true`, see request.ts), and how messages name a call whose
 * value `rulesets test` cannot know. `is_jwt_valid( r"a" )` and `is_jwt_valid("a")` are one key.
 *
 * Recursive over nested calls: their depth is bounded by the parser's nesting limit (128 levels,
 * calls counted), not by the user.
 */
import type { Argument, FunctionCall, IndexedOperand, Operand } from '../language/ast';
import { isExpression } from '../language/ast';
import { formatAddress } from '../language/literals';

/** The call's key; undefined when an argument is a logical expression, which no key names. */
export function callKey(call: FunctionCall): string | undefined {
  const args: string[] = [];
  for (const argument of call.args) {
    const printed = argumentKey(argument);
    if (printed === undefined) return undefined;
    args.push(printed);
  }
  return `${call.name.text}(${args.join(', ')})`;
}

export function operandKey(operand: Operand): string | undefined {
  if (operand.kind === 'field') return operand.name;
  if (operand.kind === 'call') return callKey(operand);
  return indexKey(operand);
}

function indexKey(operand: IndexedOperand): string | undefined {
  const target = operandKey(operand.target);
  if (target === undefined) return undefined;
  return target + operand.steps.map((s) => (s.kind === 'key' ? `[${JSON.stringify(s.key)}]` : s.kind === 'element' ? `[${s.index}]` : '[*]')).join('');
}

function argumentKey(argument: Argument): string | undefined {
  if (isExpression(argument)) return undefined;
  switch (argument.kind) {
    case 'field':
    case 'call':
    case 'index':
      return operandKey(argument);
    case 'string':
      return argument.bytes ? hexBytes(argument.bytes) : JSON.stringify(argument.value);
    case 'bytes':
      return hexBytes(argument.bytes);
    case 'integer':
      return String(argument.value);
    case 'ip':
      return formatAddress(argument.family, argument.value);
    default:
      return undefined;
  }
}

function hexBytes(bytes: readonly number[]): string {
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
}
