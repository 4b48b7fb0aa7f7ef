import type { Argument, Comparison, Expression, Operand, QuantifierExpression } from './ast';

/** A comparison or a quantifier: what the lints and the analyses read of a tree, the logical structure aside. */
export type Atom = Comparison | QuantifierExpression;

/**
 * The comparisons and quantifiers of a tree, in the order walkExpression (ast.ts) visits them:
 * depth first, parents first, the expressions inside call arguments after their node's. One
 * array for the callers to loop over: the passes that visit only these nodes call no visitor
 * per node and make no closure. A loop rather than recursion: the depth is the user's.
 */
export function atomsOf(root: Expression): Atom[] {
  const atoms: Atom[] = [];
  const stack: Expression[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    switch (node.kind) {
      case 'logical':
        for (let i = node.operands.length - 1; i >= 0; i--) stack.push(node.operands[i]);
        break;
      case 'not':
        stack.push(node.operand);
        break;
      case 'group':
        stack.push(node.inner);
        break;
      case 'comparison':
        atoms.push(node);
        // A field, the common left side, holds no expression.
        if (node.lhs.kind !== 'field') pushInnerExpressions(node.lhs, stack);
        break;
      case 'quantifier': {
        atoms.push(node);
        const argument = node.argument;
        if (isOperandKind(argument)) pushInnerExpressions(argument, stack);
        else if (isExpressionKind(argument)) stack.push(argument);
        break;
      }
      default:
        break;
    }
  }
  return atoms;
}

/**
 * Pushes the expressions among the arguments of the calls of `operand` (and of the operands
 * among those arguments, nearest first) so that the first is popped first, as walkExpression
 * does.
 */
export function pushInnerExpressions(operand: Operand, stack: Expression[]): void {
  let operands: Operand[] | undefined;
  let next: Operand | undefined = operand;
  let found: Expression[] | undefined;
  while (next !== undefined) {
    const call = next.kind === 'index' ? next.target : next;
    if (call.kind === 'call') {
      for (let i = 0; i < call.args.length; i++) {
        const argument = call.args[i];
        if (isExpressionKind(argument)) (found ??= []).push(argument);
        else if (isOperandKind(argument)) (operands ??= []).push(argument);
      }
    }
    next = operands?.pop();
  }
  if (found) for (let i = found.length - 1; i >= 0; i--) stack.push(found[i]);
}

function isOperandKind(argument: Argument): argument is Operand {
  const kind = argument.kind;
  return kind === 'field' || kind === 'call' || kind === 'index';
}

function isExpressionKind(argument: Argument): argument is Expression {
  const kind = argument.kind;
  return kind === 'comparison' || kind === 'logical' || kind === 'not' || kind === 'group' || kind === 'quantifier' || kind === 'boolean';
}
