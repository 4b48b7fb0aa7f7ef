import type {
  BooleanLiteral,
  Comparison,
  ComparisonOperator,
  Expression,
  FieldReference,
  ScalarType,
  FunctionCall,
  ListReference,
  Literal,
  LogicalOperator,
  Operand,
  OperatorToken,
  SetLiteral,
  Span,
  Token,
} from './ast';
import { isExpression, isOperand } from './ast';
import { isKeyword, scanTokens, type LexicalToken } from './lex';
import { readBareValue, readQuotedString } from './literals';
import { comparisonOperatorOf, LOGICAL_OPERATOR_BY_SPELLING } from './catalogue/operators';

/**
 * Finds what is at an offset of an expression: the innermost node or token (a field, an
 * operator, a literal, a list, a function name, …) with its span and the comparison it stands
 * in, so that hover and other features can say what it means there (`"BR"` on a country field,
 * `443` on a port field).
 *
 * `locate` works on the AST. An expression that does not parse has none, so `locateInText`
 * reads its tokens instead and finds the same kinds of target, as far as they can be told
 * apart without a parse; `callAt` finds the call the cursor is in, even an unfinished one.
 *
 * Offsets are offsets in the decoded expression. A token covers [start, end); an offset just
 * after a token (a cursor at its end) finds it when nothing starts at the offset.
 */

/** The comparison a target stands in, as far as it is known. */
export interface ComparisonContext {
  /** The left side: the field or call the value is compared with. */
  readonly lhs?: Operand;
  readonly operator?: OperatorToken;
  /** The whole comparison, when the expression parsed. */
  readonly comparison?: Comparison;
}

/** The call a target is an argument of. */
export interface CallContext {
  /** The function's name as written. */
  readonly name: Token;
  /** Which argument (0-based) the target is. */
  readonly argumentIndex: number;
  /** The call, when the expression parsed. */
  readonly call?: FunctionCall;
}

export type Target =
  | { readonly kind: 'field'; readonly span: Span; readonly field: FieldReference; readonly context: ComparisonContext; readonly call?: CallContext }
  | { readonly kind: 'operator'; readonly span: Span; readonly token: OperatorToken; readonly context: ComparisonContext }
  | { readonly kind: 'logical'; readonly span: Span; readonly token: Token; readonly operator: LogicalOperator }
  | { readonly kind: 'not'; readonly span: Span; readonly token: Token }
  | { readonly kind: 'boolean'; readonly span: Span; readonly value: boolean }
  | {
      readonly kind: 'literal';
      readonly span: Span;
      readonly literal: Literal;
      readonly context: ComparisonContext;
      /** The set the literal is an item of. */
      readonly set?: SetLiteral;
      readonly call?: CallContext;
    }
  | { readonly kind: 'set'; readonly span: Span; readonly set: SetLiteral; readonly context: ComparisonContext }
  | { readonly kind: 'list'; readonly span: Span; readonly list: ListReference; readonly context: ComparisonContext }
  /** The name of a called function. */
  | { readonly kind: 'function'; readonly span: Span; readonly name: Token; readonly call?: FunctionCall }
  /** Inside a call's parentheses but on no argument (a comma, a parenthesis, a space). */
  | { readonly kind: 'call'; readonly span: Span; readonly name: Token; readonly call?: FunctionCall };

export type TargetKind = Target['kind'];

function contains(span: Span, offset: number): boolean {
  return span.start <= offset && offset < span.end;
}

/** Strictly at the offset, else just before it (a cursor at the end of a token). */
function atOrBefore<T>(offset: number, find: (offset: number) => T | undefined): T | undefined {
  return find(offset) ?? (offset > 0 ? find(offset - 1) : undefined);
}

// ---------------------------------------------------------------- on the AST

/** The innermost target at `offset` of a parsed expression, or undefined (a space, a parenthesis). */
export function locate(root: Expression, offset: number): Target | undefined {
  return atOrBefore(offset, (at) => inExpression(root, at));
}

function inExpression(root: Expression, offset: number): Target | undefined {
  // A loop rather than recursion: parentheses and `not` may nest 128 deep.
  let node: Expression | undefined = root;
  while (node && contains(node.span, offset)) {
    switch (node.kind) {
      case 'logical': {
        const token = node.operatorTokens.find((t) => contains(t.span, offset));
        if (token) return { kind: 'logical', span: token.span, token, operator: LOGICAL_OPERATOR_BY_SPELLING.get(token.text) ?? node.operator };
        node = node.operands.find((operand) => contains(operand.span, offset));
        break;
      }
      case 'not':
        if (contains(node.operatorToken.span, offset)) return { kind: 'not', span: node.operatorToken.span, token: node.operatorToken };
        node = node.operand;
        break;
      case 'group':
        node = node.inner;
        break;
      case 'boolean':
        return booleanTarget(node);
      case 'comparison':
        return inComparison(node, offset);
    }
  }
  return undefined;
}

function booleanTarget(node: BooleanLiteral): Target {
  return { kind: 'boolean', span: node.span, value: node.value };
}

function inComparison(comparison: Comparison, offset: number): Target | undefined {
  const { lhs, operator, rhs } = comparison;
  const context: ComparisonContext = { lhs, operator, comparison };
  if (contains(lhs.span, offset)) {
    if (lhs.kind === 'field') return { kind: 'field', span: lhs.span, field: lhs, context };
    if (lhs.kind === 'index') return undefined;
    return inCall(lhs, offset);
  }
  if (operator && contains(operator.span, offset)) return { kind: 'operator', span: operator.span, token: operator, context };
  if (!rhs || !contains(rhs.span, offset)) return undefined;
  switch (rhs.kind) {
    case 'set': {
      const item = rhs.items.find((i) => contains(i.span, offset));
      if (item) return { kind: 'literal', span: item.span, literal: item, context, set: rhs };
      return { kind: 'set', span: rhs.span, set: rhs, context };
    }
    case 'list':
      return { kind: 'list', span: rhs.span, list: rhs, context };
    default:
      return { kind: 'literal', span: rhs.span, literal: rhs, context };
  }
}

function inCall(call: FunctionCall, offset: number): Target {
  if (contains(call.name.span, offset)) return { kind: 'function', span: call.name.span, name: call.name, call };
  const index = call.args.findIndex((a) => contains(a.span, offset));
  if (index < 0) return { kind: 'call', span: call.span, name: call.name, call };
  const argument = call.args[index];
  const callContext: CallContext = { name: call.name, argumentIndex: index, call };
  if (argument.kind === 'field') return { kind: 'field', span: argument.span, field: argument, context: {}, call: callContext };
  if (isExpression(argument) || isOperand(argument)) return { kind: 'call', span: call.span, name: call.name, call };
  return { kind: 'literal', span: argument.span, literal: argument, context: {}, call: callContext };
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

// ---------------------------------------------------------------- without a parse

export interface TextLocateOptions {
  /** The type of a field, or undefined when the field is not known. */
  readonly fieldType: (name: string) => ScalarType | undefined;
}

/** A call or set being read: its span grows until its `)` or `}` (or the end of the text). */
interface OpenCall {
  readonly kind: 'call';
  readonly span: { start: number; end: number };
  readonly name: Token;
  readonly args: (FieldReference | Literal)[];
  argumentIndex: number;
}

interface OpenSet {
  readonly kind: 'set';
  readonly span: { start: number; end: number };
  readonly items: Literal[];
}

/**
 * Like `locate`, for an expression that did not parse: reads its tokens left to right and
 * tells each one's role from the tokens before it (a word after a comparison operator or
 * inside `{` is a value, read by the type of the field before the operator). The context is
 * what the tokens show, and `comparison` is never set. Never throws.
 */
export function locateInText(text: string, offset: number, options: TextLocateOptions): Target | undefined {
  const targets = textTargets(text, options);
  return atOrBefore(offset, (at) => {
    // Innermost first: an item of a set before the set, an argument before its call.
    let best: Target | undefined;
    for (const target of targets) {
      if (contains(target.span, at) && (!best || target.span.end - target.span.start < best.span.end - best.span.start)) best = target;
    }
    return best;
  });
}

function textTargets(text: string, options: TextLocateOptions): Target[] {
  const tokens = scanTokens(text);
  const targets: Target[] = [];
  let lhs: Operand | undefined;
  let operator: OperatorToken | undefined;
  let valuePosition = false;
  let set: OpenSet | undefined;
  let setContext: ComparisonContext = {};
  /** Open parentheses: a call's, or a group's (undefined). */
  const parens: (OpenCall | undefined)[] = [];
  const resetComparison = () => {
    lhs = undefined;
    operator = undefined;
    valuePosition = false;
  };
  const lhsType = (): ScalarType | undefined => (lhs?.kind === 'field' ? options.fieldType(lhs.name) : lhs ? 'Integer' : undefined);
  const addOperator = (written: string, spelled: ComparisonOperator, span: Span) => {
    const token: OperatorToken = { text: written, span, operator: spelled };
    operator = token;
    valuePosition = true;
    targets.push({ kind: 'operator', span, token, context: { lhs, operator: token } });
  };
  const addValue = (literal: Literal) => {
    if (set) {
      set.items.push(literal);
      targets.push({ kind: 'literal', span: literal.span, literal, context: setContext, set });
    } else {
      targets.push({ kind: 'literal', span: literal.span, literal, context: { lhs, operator } });
      valuePosition = false;
    }
  };
  const addArgument = (call: OpenCall, argument: FieldReference | Literal) => {
    call.args.push(argument);
    const callContext: CallContext = { name: call.name, argumentIndex: call.argumentIndex, call };
    const { span } = argument;
    targets.push(argument.kind === 'field' ? { kind: 'field', span, field: argument, context: {}, call: callContext } : { kind: 'literal', span, literal: argument, context: {}, call: callContext });
  };

  tokens.forEach((token, index) => {
    const call = parens[parens.length - 1];
    const { span } = token;
    switch (token.kind) {
      case 'word': {
        const word = token.text;
        const logical = LOGICAL_OPERATOR_BY_SPELLING.get(word);
        const comparison = comparisonOperatorOf(word);
        if (call && !isKeyword(word)) {
          addArgument(call, FIELD_NAME.test(word) ? { kind: 'field', span, name: word } : readBareValue(word, span, undefined).literal);
        } else if (logical) {
          targets.push({ kind: 'logical', span, token: { text: word, span }, operator: logical });
          resetComparison();
        } else if (word === 'not') {
          targets.push({ kind: 'not', span, token: { text: word, span } });
          resetComparison();
        } else if (word === 'true' || word === 'false') {
          targets.push({ kind: 'boolean', span, value: word === 'true' });
          resetComparison();
        } else if (comparison) {
          addOperator(word, comparison, span);
        } else if (valuePosition || set) {
          addValue(readBareValue(word, span, lhsType()).literal);
        } else if (tokens[index + 1]?.kind === '(') {
          const name: Token = { text: word, span };
          const opened: OpenCall = { kind: 'call', span: { start: span.start, end: span.end }, name, args: [], argumentIndex: 0 };
          targets.push({ kind: 'function', span, name, call: opened });
          lhs = opened;
          operator = undefined;
        } else {
          const field: FieldReference = { kind: 'field', span, name: word };
          lhs = field;
          operator = undefined;
          targets.push({ kind: 'field', span, field, context: { lhs: field } });
        }
        return;
      }
      case 'string':
      case 'raw-string': {
        const literal = stringLiteral(token);
        if (call) addArgument(call, literal);
        else addValue(literal);
        return;
      }
      case 'list': {
        const list: ListReference = { kind: 'list', span, name: token.text.slice(1) };
        targets.push({ kind: 'list', span, list, context: set ? setContext : { lhs, operator } });
        valuePosition = false;
        return;
      }
      case 'symbol': {
        const symbol = token.text;
        const logical = LOGICAL_OPERATOR_BY_SPELLING.get(symbol);
        const comparison = comparisonOperatorOf(symbol);
        if (logical) {
          targets.push({ kind: 'logical', span, token: { text: symbol, span }, operator: logical });
          resetComparison();
        } else if (symbol === '!') {
          targets.push({ kind: 'not', span, token: { text: symbol, span } });
          resetComparison();
        } else if (comparison) {
          addOperator(symbol, comparison, span);
        }
        return;
      }
      case '(': {
        const previous = tokens[index - 1];
        if (lhs?.kind === 'call' && previous?.span === lhs.name.span && lhs.args.length === 0) {
          const opened = lhs as OpenCall;
          // Until its `)` is read, the call reaches to the end of the text.
          opened.span.end = text.length;
          parens.push(opened);
          targets.push({ kind: 'call', span: opened.span, name: opened.name, call: opened });
        } else {
          parens.push(undefined);
          resetComparison();
        }
        return;
      }
      case ')': {
        const closed = parens.pop();
        if (closed) closed.span.end = span.end;
        else resetComparison();
        return;
      }
      case ',':
        if (call) call.argumentIndex++;
        return;
      case '{':
        if (call || set) return;
        set = { kind: 'set', span: { start: span.start, end: text.length }, items: [] };
        setContext = { lhs, operator };
        targets.push({ kind: 'set', span: set.span, set, context: setContext });
        return;
      case '}':
        if (!set) return;
        set.span.end = span.end;
        set = undefined;
        valuePosition = false;
        return;
      default:
        return;
    }
  });
  return targets;
}

function stringLiteral(token: LexicalToken): Literal {
  const { text, span } = token;
  if (token.kind === 'raw-string') {
    const hashes = /^r(#*)"/.exec(text)?.[1].length ?? 0;
    const fence = `"${'#'.repeat(hashes)}`;
    const bodyStart = hashes + 2;
    const closed = text.length >= bodyStart + fence.length && text.endsWith(fence);
    return { kind: 'string', span, value: text.slice(bodyStart, closed ? text.length - fence.length : text.length), raw: true };
  }
  const closed = text.length >= 2 && text.endsWith('"') && !/(?:^|[^\\])(?:\\\\)*\\"$/.test(text.slice(1));
  const body = text.slice(1, closed ? -1 : undefined);
  const { value, problems } = readQuotedString(body, span.start + 1);
  return problems.length > 0 ? { kind: 'invalid', span, text } : { kind: 'string', span, value, raw: false };
}

// ---------------------------------------------------------------- the call at a cursor

export interface CallSite {
  /** The function's name as written. */
  readonly name: Token;
  /** Offset of the call's `(`. */
  readonly open: number;
  /** The argument the cursor is in: the number of the call's commas before it. */
  readonly argumentIndex: number;
}

/**
 * The innermost call whose parentheses the offset is inside (after its `(`, not after its
 * `)`), read from the tokens so that an unfinished call (`bit_slice(udp, 64`) is found too.
 * Commas inside strings do not count.
 */
export function callAt(text: string, offset: number): CallSite | undefined {
  const stack: ({ name: Token; open: number; argumentIndex: number } | undefined)[] = [];
  let previous: LexicalToken | undefined;
  for (const token of scanTokens(text)) {
    if (token.span.start >= offset) break;
    // A cursor inside a string or a word is inside that argument, not after it.
    if (token.kind === '(') {
      const isCall = previous?.kind === 'word' && !isKeyword(previous.text) && FIELD_NAME.test(previous.text);
      stack.push(isCall ? { name: { text: previous!.text, span: previous!.span }, open: token.span.start, argumentIndex: 0 } : undefined);
    } else if (token.kind === ')') {
      stack.pop();
    } else if (token.kind === ',') {
      const top = stack[stack.length - 1];
      if (top) top.argumentIndex++;
    }
    previous = token;
  }
  const top = stack[stack.length - 1];
  return top ? { name: top.name, open: top.open, argumentIndex: top.argumentIndex } : undefined;
}
