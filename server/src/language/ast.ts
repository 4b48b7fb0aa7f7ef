/**
 * The typed syntax tree of one expression. Every node carries its span: offsets into the
 * expression's decoded text, half-open. Host documents map spans to file positions.
 */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The type of a single value: what a comparison compares, and what a literal is read as. */
export type ScalarType = 'Integer' | 'Ip' | 'Bytes' | 'Boolean';

/**
 * The type of a field, a call or an index expression: a scalar, or an array or map of values
 * (`Array<Bytes>`, `Map<Array<Bytes>>`). Map keys are always strings. Written as text so that a
 * type is one comparable, printable value (types.ts reads and builds them).
 */
export type ValueType = ScalarType | `Array<${string}>` | `Map<${string}>`;

export type Expression = LogicalExpression | NotExpression | GroupExpression | BooleanLiteral | Comparison | QuantifierExpression;

export type LogicalOperator = 'or' | 'xor' | 'and';

/** A run of one logical operator: `a and b and c` has three operands and two operators. */
export interface LogicalExpression {
  readonly kind: 'logical';
  readonly span: Span;
  readonly operator: LogicalOperator;
  readonly operands: readonly Expression[];
  /** The operators as written (`and` or `&&`), between the operands. */
  readonly operatorTokens: readonly Token[];
}

export interface NotExpression {
  readonly kind: 'not';
  readonly span: Span;
  readonly operatorToken: Token;
  readonly operand: Expression;
}

export interface GroupExpression {
  readonly kind: 'group';
  readonly span: Span;
  readonly inner: Expression;
}

export interface BooleanLiteral {
  readonly kind: 'boolean';
  readonly span: Span;
  readonly value: boolean;
}

export type ComparisonOperator =
  | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'
  | 'in' | 'bitwise_and' | 'contains' | 'matches' | 'wildcard' | 'strict_wildcard';

export interface Token {
  readonly text: string;
  readonly span: Span;
}

export interface OperatorToken extends Token {
  readonly operator: ComparisonOperator;
}

/**
 * `any(…)` or `all(…)`: reduces an array of Booleans (a Boolean array field, or a comparison
 * over `[*]`) to one Boolean. A logical term, not a function call: `any(…) == 1` is no comparison.
 */
export interface QuantifierExpression {
  readonly kind: 'quantifier';
  readonly span: Span;
  /** `any` or `all`, as written. */
  readonly name: Token;
  readonly argument: Argument;
}

/** `lhs op rhs`, or a lone `lhs` (which must then be Boolean, or an array of Booleans). */
export interface Comparison {
  readonly kind: 'comparison';
  readonly span: Span;
  readonly lhs: Operand;
  readonly operator?: OperatorToken;
  readonly rhs?: Value;
}

/** What stands on the left of a comparison: a field, a call, or either of them indexed. */
export type Operand = FieldReference | FunctionCall | IndexedOperand;

export interface FieldReference {
  readonly kind: 'field';
  readonly span: Span;
  readonly name: string;
}

export interface FunctionCall {
  readonly kind: 'call';
  readonly span: Span;
  readonly name: Token;
  readonly args: readonly Argument[];
}

/**
 * A field or a call with one or more index steps: `http.request.headers["x-api-key"][0]`,
 * `http.request.uri.args["q"][*]`, `split(http.host, ".", 3)[0]`.
 */
export interface IndexedOperand {
  readonly kind: 'index';
  readonly span: Span;
  readonly target: FieldReference | FunctionCall;
  /** In the order written; never empty. */
  readonly steps: readonly IndexStep[];
}

/** One `[…]`; its span covers the brackets. */
export type IndexStep = MapKeyStep | ArrayIndexStep | EachStep;

/** `["x-api-key"]`: the values of a map under one key. */
export interface MapKeyStep {
  readonly kind: 'key';
  readonly span: Span;
  /** The key after escapes. */
  readonly key: string;
  /** The span of the quoted key inside the brackets. */
  readonly keySpan: Span;
}

/** `[0]`: one element of an array. */
export interface ArrayIndexStep {
  readonly kind: 'element';
  readonly span: Span;
  readonly index: number;
  readonly indexSpan: Span;
}

/** `[*]`: every element of an array, or every value of a map. */
export interface EachStep {
  readonly kind: 'each';
  readonly span: Span;
}

/**
 * An argument of a call (or of `any`/`all`): a field, call or index expression; a literal; or
 * a logical expression (`any(http.request.headers.names[*] == "x")`, `not …`, `(…)`).
 */
export type Argument = Operand | Literal | Expression;

export type Value = Literal | SetLiteral | ListReference;

export interface SetLiteral {
  readonly kind: 'set';
  readonly span: Span;
  readonly items: readonly Literal[];
}

export interface ListReference {
  readonly kind: 'list';
  readonly span: Span;
  /** The name without `$`, e.g. `svc.anonymizer`. */
  readonly name: string;
}

/** A single right-hand value, read according to the type of the left side. */
export type Literal =
  | IntegerLiteral
  | IntegerRangeLiteral
  | StringLiteral
  | BytesLiteral
  | IpLiteral
  | IpRangeLiteral
  | InvalidLiteral;

export interface IntegerLiteral {
  readonly kind: 'integer';
  readonly span: Span;
  readonly value: bigint;
}

export interface IntegerRangeLiteral {
  readonly kind: 'integer-range';
  readonly span: Span;
  readonly from: bigint;
  readonly to: bigint;
}

export interface StringLiteral {
  readonly kind: 'string';
  readonly span: Span;
  /** The string's characters after escapes (`\x41` → `A`); after `matches`, the regex source. */
  readonly value: string;
  readonly raw: boolean;
  /**
   * The exact bytes, set when `value` cannot tell them: a quoted string with an escape of a
   * byte 0x80–0xFF (`"\xe9"` is the one byte E9, while `"é"` is C3 A9).
   */
  readonly bytes?: readonly number[];
}

export interface BytesLiteral {
  readonly kind: 'bytes';
  readonly span: Span;
  readonly bytes: readonly number[];
}

export type IpFamily = 4 | 6;

export interface IpLiteral {
  readonly kind: 'ip';
  readonly span: Span;
  readonly family: IpFamily;
  /** The address as an unsigned integer (32 or 128 bits). */
  readonly value: bigint;
}

/** A CIDR block (`10.0.0.0/8`) or an address range (`10.0.0.1..10.0.0.9`). */
export interface IpRangeLiteral {
  readonly kind: 'ip-range';
  readonly span: Span;
  readonly family: IpFamily;
  readonly first: bigint;
  readonly last: bigint;
  /** Prefix length for CIDR notation; undefined for `a..b`. */
  readonly prefixLength?: number;
}

/** Text that could not be read as a value of the expected type; a diagnostic says why. */
export interface InvalidLiteral {
  readonly kind: 'invalid';
  readonly span: Span;
  readonly text: string;
}

const EXPRESSION_KINDS: ReadonlySet<string> = new Set(['logical', 'not', 'group', 'boolean', 'comparison', 'quantifier']);

/** Whether an argument is a logical expression (rather than an operand or a literal). */
export function isExpression(argument: Argument): argument is Expression {
  return EXPRESSION_KINDS.has(argument.kind);
}

const OPERAND_KINDS: ReadonlySet<string> = new Set(['field', 'call', 'index']);

/** Whether an argument is a field, a call or an index expression. */
export function isOperand(argument: Argument): argument is Operand {
  return OPERAND_KINDS.has(argument.kind);
}

/**
 * Calls `visit` for the node and every expression below it, depth first, parents first:
 * operands of logical operators, `not` and groups, and the logical expressions that stand as
 * arguments of `any`/`all` and of calls (`concat(…)`'s arguments may hold a comparison), however
 * deeply the calls nest. No recursion: the depth is the user's.
 */
export function walkExpression(root: Expression, visit: (node: Expression) => void): void {
  const stack: Expression[] = [root];
  const operands: Operand[] = [];
  const pushArgument = (argument: Argument) => {
    if (isExpression(argument)) stack.push(argument);
    else if (isOperand(argument)) operands.push(argument);
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
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
      case 'quantifier':
        pushArgument(node.argument);
        break;
      case 'comparison':
        operands.push(node.lhs);
        break;
      default:
        break;
    }
    // The expressions inside this node's operands, nearest first (the stack is last in, first out);
    // most nodes have none.
    let found: Expression[] | undefined;
    while (operands.length > 0) {
      const operand = operands.pop()!;
      const call = operand.kind === 'index' ? operand.target : operand;
      if (call.kind !== 'call') continue;
      for (const argument of call.args) {
        if (isExpression(argument)) (found ??= []).push(argument);
        else if (isOperand(argument)) operands.push(argument);
      }
    }
    if (found) for (let i = found.length - 1; i >= 0; i--) stack.push(found[i]);
  }
}
