/**
 * The typed syntax tree of one expression. Every node carries its span: offsets into the
 * expression's decoded text, half-open. Host documents map spans to file positions.
 */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export type FieldType = 'Integer' | 'Ip' | 'Bytes' | 'Boolean';

export type Expression = LogicalExpression | NotExpression | GroupExpression | BooleanLiteral | Comparison;

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

/** `lhs op rhs`, or a lone `lhs` (which must then be Boolean). */
export interface Comparison {
  readonly kind: 'comparison';
  readonly span: Span;
  readonly lhs: Operand;
  readonly operator?: OperatorToken;
  readonly rhs?: Value;
}

export type Operand = FieldReference | FunctionCall;

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

export type Argument = FieldReference | Literal;

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

/** Calls `visit` for the node and every node below it, depth first, parents first. */
export function walkExpression(root: Expression, visit: (node: Expression) => void): void {
  const stack: Expression[] = [root];
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
      default:
        break;
    }
  }
}
