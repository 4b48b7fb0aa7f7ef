import type {
  Argument,
  BooleanLiteral,
  Comparison,
  ComparisonOperator,
  Expression,
  FieldReference,
  FunctionCall,
  IndexedOperand,
  IndexStep,
  ListReference,
  Literal,
  LogicalOperator,
  Operand,
  OperatorToken,
  QuantifierExpression,
  ScalarType,
  SetLiteral,
  Span,
  Token,
} from './ast';
import { isKeyword, scanTokens, type LexicalToken } from './lex';
import { readBareValue, readQuotedString } from './literals';
import { comparisonOperatorOf, LOGICAL_OPERATOR_BY_SPELLING } from './catalogue/operators';

/**
 * Finds what is at an offset of an expression: the innermost node or token (a field, an
 * operator, a literal, a list, a function name, an index step, …) with its span and the
 * comparison it stands in, so that hover and other features can say what it means there
 * (`"BR"` on a country field, `443` on a port field).
 *
 * `locate` works on the AST, into call arguments, quantifiers and index steps however deeply
 * they nest. An expression that does not parse has none, so `locateInText` reads its tokens
 * instead and finds the same kinds of target, as far as they can be told apart without a
 * parse; `callAt` finds the call the cursor is in, even an unfinished one.
 *
 * Offsets are offsets in the decoded expression. A token covers [start, end); an offset just
 * after a token (a cursor at its end) finds it when nothing starts at the offset.
 */

/** The comparison a target stands in, as far as it is known. */
export interface ComparisonContext {
  /** The left side: the field, call or index expression the value is compared with. */
  readonly lhs?: Operand;
  readonly operator?: OperatorToken;
  /** The whole comparison, when the expression parsed. */
  readonly comparison?: Comparison;
}

/** The call a target is an argument of. */
export interface CallContext {
  /** The function's name as written. */
  readonly name: Token;
  /** Which argument (0-based) the target is, or is inside. */
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
  | { readonly kind: 'call'; readonly span: Span; readonly name: Token; readonly call?: FunctionCall }
  /**
   * An index step (`["key"]`, `[0]`, `[*]`): on its key or index (the span is that), or its
   * brackets (the span is the step). `target` is what the steps index, when known.
   */
  | { readonly kind: 'index'; readonly span: Span; readonly step: IndexStep; readonly target?: FieldReference | FunctionCall; readonly operand?: IndexedOperand; readonly call?: CallContext }
  /** The name `any` or `all` of a quantifier (the quantifier, when the expression parsed). */
  | { readonly kind: 'quantifier'; readonly span: Span; readonly name: Token; readonly quantifier?: QuantifierExpression };

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
export function locate(root: Expression | Operand, offset: number): Target | undefined {
  return atOrBefore(offset, (at) => inExpression(root, at));
}

/** `root`: a filter's expression, or a value expression's operand. */
function inExpression(root: Expression | Operand, offset: number): Target | undefined {
  // A loop rather than recursion: calls, quantifiers, parentheses and `not` nest as deep as
  // the user writes them. `context` and `call` say where the current node stands.
  let node: Argument | undefined = root;
  let context: ComparisonContext = {};
  let call: CallContext | undefined;
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
      case 'quantifier':
        if (contains(node.name.span, offset)) return { kind: 'quantifier', span: node.name.span, name: node.name, quantifier: node };
        node = node.argument;
        context = {};
        call = undefined;
        break;
      case 'comparison': {
        const lhs: Operand = node.lhs;
        context = { lhs, operator: node.operator, comparison: node };
        call = undefined;
        if (contains(lhs.span, offset)) {
          node = lhs;
          break;
        }
        return inComparisonRest(node, context, offset);
      }
      case 'field':
        return { kind: 'field', span: node.span, field: node, context, ...(call ? { call } : {}) };
      case 'call': {
        if (contains(node.name.span, offset)) return { kind: 'function', span: node.name.span, name: node.name, call: node };
        const index: number = node.args.findIndex((a) => contains(a.span, offset));
        if (index < 0) return { kind: 'call', span: node.span, name: node.name, call: node };
        call = { name: node.name, argumentIndex: index, call: node };
        context = {};
        node = node.args[index];
        break;
      }
      case 'index': {
        if (contains(node.target.span, offset)) {
          node = node.target;
          break;
        }
        const step = node.steps.find((s) => contains(s.span, offset));
        if (!step) return undefined;
        const key = step.kind === 'key' ? step.keySpan : step.kind === 'element' ? step.indexSpan : undefined;
        return { kind: 'index', span: key && contains(key, offset) ? key : step.span, step, target: node.target, operand: node, ...(call ? { call } : {}) };
      }
      default:
        // A literal argument of a call.
        return { kind: 'literal', span: node.span, literal: node, context, ...(call ? { call } : {}) };
    }
  }
  return undefined;
}

function booleanTarget(node: BooleanLiteral): Target {
  return { kind: 'boolean', span: node.span, value: node.value };
}

/** On a comparison's operator or value. */
function inComparisonRest(comparison: Comparison, context: ComparisonContext, offset: number): Target | undefined {
  const { operator, rhs } = comparison;
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

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

/** A word that names a function before `(`: a name, or the operators `contains` and `wildcard` (also functions). */
function isFunctionName(word: string): boolean {
  return FIELD_NAME.test(word) && (!isKeyword(word) || word === 'contains' || word === 'wildcard');
}

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

  /** What a `[` right at `end` would index: the field or call just read, or just indexed. */
  let indexable: { readonly target: FieldReference | OpenCall; readonly end: number } | undefined;
  /** An index step being read: where its `[` is, and the span to stretch to its `]`. */
  let step: { readonly target: FieldReference | OpenCall; readonly span: { start: number; end: number } } | undefined;
  /** A step's target on its brackets and, for a key or an index, one on that too (as locate has them). */
  const addStep = (made: IndexStep, keySpan: Span | undefined) => {
    if (keySpan) targets.push({ kind: 'index', span: keySpan, step: made, target: step!.target });
    targets.push({ kind: 'index', span: made.span, step: made, target: step!.target });
  };

  tokens.forEach((token, index) => {
    const call = parens[parens.length - 1];
    const { span } = token;
    const before = indexable;
    indexable = undefined;
    if (step) {
      // Inside `[…]`: a quoted key, an index or `*`, then `]`; anything else ends the step.
      const open = step;
      const number = token.kind === 'word' ? readBareValue(token.text, span, 'Integer').literal : undefined;
      const part = token.text === ']' || token.kind === 'string' || token.text === '*' || number?.kind === 'integer';
      // Until its `]` is read, the step reaches to the end of what it holds.
      if (part) open.span.end = span.end;
      if (token.text === ']') {
        step = undefined;
        indexable = { target: open.target, end: span.end };
        return;
      }
      if (token.kind === 'string') {
        const literal = stringLiteral(token);
        addStep({ kind: 'key', span: open.span, key: literal.kind === 'string' ? literal.value : token.text, keySpan: span }, span);
        return;
      }
      if (token.text === '*') {
        addStep({ kind: 'each', span: open.span }, undefined);
        return;
      }
      if (number?.kind === 'integer') {
        addStep({ kind: 'element', span: open.span, index: Number(number.value), indexSpan: span }, span);
        return;
      }
      step = undefined;
    }
    if (token.text === '[' && before && before.end === span.start) {
      step = { target: before.target, span: { start: span.start, end: span.end } };
      return;
    }
    switch (token.kind) {
      case 'word': {
        const word = token.text;
        const logical = LOGICAL_OPERATOR_BY_SPELLING.get(word);
        const comparison = comparisonOperatorOf(word);
        const opensCall = tokens[index + 1]?.kind === '(' && !valuePosition && !set && isFunctionName(word);
        if (opensCall && (word === 'any' || word === 'all')) {
          // A quantifier: its parentheses hold a test, read as a group's.
          targets.push({ kind: 'quantifier', span, name: { text: word, span } });
          resetComparison();
        } else if (opensCall) {
          const name: Token = { text: word, span };
          const opened: OpenCall = { kind: 'call', span: { start: span.start, end: span.end }, name, args: [], argumentIndex: 0 };
          targets.push({ kind: 'function', span, name, call: opened });
          lhs = opened;
          operator = undefined;
        } else if (call && !isKeyword(word)) {
          const argument: FieldReference | Literal = FIELD_NAME.test(word) ? { kind: 'field', span, name: word } : readBareValue(word, span, undefined).literal;
          if (argument.kind === 'field') indexable = { target: argument, end: span.end };
          addArgument(call, argument);
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
        } else {
          const field: FieldReference = { kind: 'field', span, name: word };
          lhs = field;
          operator = undefined;
          indexable = { target: field, end: span.end };
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
        if (closed) {
          closed.span.end = span.end;
          indexable = { target: closed, end: span.end };
        } else {
          resetComparison();
        }
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
      // `any(`/`all(` hold a test, not arguments: they are no call.
      const isCall = previous?.kind === 'word' && isFunctionName(previous.text) && previous.text !== 'any' && previous.text !== 'all';
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
