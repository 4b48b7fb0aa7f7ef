/**
 * What may be written at a cursor in an expression: the ground completion is built on.
 *
 * The parser decides, not a fixed list. The text before the token under the cursor is
 * matched with an impossible character appended, so the match fails exactly at the cursor,
 * and Ohm's rightmost failures there are the terminals and described rules the grammar
 * could accept next (`a field name`, `a comparison operator`, `}`, `and`, …). A small
 * lexical pass over the same text supplies what a failed match cannot: the partial token to
 * replace, and the field and operator a value belongs to.
 *
 * Pure: offsets are into the expression's decoded text; hosts map them to documents.
 */
import type { ComparisonOperator, Span, ValueType } from './ast';
import { catalogueFor, type Catalogue, type ExpressionKind, type FieldInfo, type FunctionInfo } from './catalogue/catalogues';
import { COMPARISON_OPERATORS, comparisonOperatorOf, LOGICAL_OPERATOR_BY_SPELLING, supportedOperators } from './catalogue/operators';
import { isScalarType, typeAfterStep } from './types';
import { grammar } from './grammar';
import { KEYWORDS, scanTokens, type LexicalToken } from './lex';
import { MAX_EXPRESSION_LENGTH, rightmostFailures } from './parser';
import { scanLexicalStructure } from './scan';

/** The kind of an index step: `["key"]`, `[0]`, `[*]`. */
export type StepKind = 'key' | 'element' | 'each';

/** What stands left of a comparison operator (or before the `[` of an index step). */
export interface LeftSide {
  readonly kind: 'field' | 'call';
  /** The field's name, or the function's. */
  readonly name: string;
  /**
   * The type of the whole left side, after its index steps (`http.request.headers["x"][0]` is
   * a String); undefined when the field or function is not in the catalogue, when a step does
   * not fit the type, or when a call returns its first argument's type and that is not known.
   */
  readonly type?: ValueType;
  readonly field?: FieldInfo;
  readonly fn?: FunctionInfo;
  /** The field or call has index steps after it (`x["a"][0]`), in `steps`. */
  readonly indexed?: true;
  readonly steps?: readonly StepKind[];
}

export interface ExpressionCompletionContext {
  /** The partial token under the cursor, which an accepted item replaces (empty at the cursor when none). */
  readonly replace: Span;
  /** The text of that token. */
  readonly partial: string;
  /** An operand may start here: after `and`/`or`/`xor`/`not`/`(`, or at the start. */
  readonly operand?: {
    readonly fields: boolean;
    readonly functions: boolean;
    readonly not: boolean;
    readonly group: boolean;
    readonly booleans: boolean;
    /** `any(…)`/`all(…)` may stand here. */
    readonly quantifiers: boolean;
  };
  /**
   * A comparison operator may follow the left side. With `strictWildcard`, `strict` is
   * typed and only the `wildcard` that completes `strict wildcard` may follow.
   */
  readonly operator?: { readonly lhs?: LeftSide; readonly strictWildcard?: true };
  /** A value of a comparison: right after its operator, or as an item of a `{…}` set. */
  readonly value?: {
    readonly lhs?: LeftSide;
    readonly operator?: ComparisonOperator;
    readonly inSet: boolean;
    /** A `{…}` set may start here. */
    readonly set: boolean;
    /** A `$list` may stand here. */
    readonly list: boolean;
  };
  /** An argument of a function call (or of `any(…)`/`all(…)`, whose `functionName` is then `any`/`all`). */
  readonly argument?: { readonly functionName: string; readonly index: number };
  /**
   * The key or index inside an index step's `[…]`, of what stands before the `[` (a field's or
   * function's name); `indexes` is that left side, with the type the step indexes.
   */
  readonly index?: { readonly target?: string; readonly indexes?: LeftSide };
  /** A logical operator may follow (the test before the cursor is complete). */
  readonly connective?: { readonly closeGroup: boolean };
}

// ---------------------------------------------------------------- operators

/**
 * The operators a left side of this type takes (LANGUAGE.md §3). Ordering IP addresses
 * parses but the service does not support it, so it is not offered. An unknown type takes
 * any operator; an array or a map none (it is compared element by element, through `[*]` or
 * an index).
 */
export function operatorsFor(type: ValueType | undefined): readonly ComparisonOperator[] {
  if (type === undefined) return [...COMPARISON_OPERATORS.keys()];
  return isScalarType(type) ? supportedOperators(type) : [];
}

// ---------------------------------------------------------------- expected tokens

/** Appended to the text before the cursor: no rule accepts it, so the match fails right there. */
const SENTINEL = '\u0000';

/** Past this length the text before the cursor is not matched (the parser does not parse it either). */
const MAX_MATCHED_LENGTH = 16 * MAX_EXPRESSION_LENGTH;

const LOGICAL_TERMINALS = [...LOGICAL_OPERATOR_BY_SPELLING.keys()];
const LIST_DESCRIPTION = 'a list such as `$svc.anonymizer`';
/** The description of the grammar's `indexKey`: what goes inside an index step's brackets. */
const INDEX_KEY_DESCRIPTION = 'a key such as `"x-api-key"`, an index such as `0`, or `*`';

/** A word that names a function before `(`: any name but a keyword, and `contains` and `wildcard` (also functions). */
function namesCall(token: LexicalToken | undefined): boolean {
  return token?.kind === 'word' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(token.text) && (!KEYWORDS.has(token.text) || token.text === 'contains' || token.text === 'wildcard');
}

/**
 * The terminals and described rules the grammar expects at the end of `prefix`, or
 * undefined when the parse fails before that (a syntax error before the cursor).
 */
function expectedAfter(prefix: string, kind: ExpressionKind = 'filter'): Set<string> | undefined {
  if (prefix.length > MAX_MATCHED_LENGTH || scanLexicalStructure(prefix).deepest) return undefined;
  const match = grammar().match(prefix + SENTINEL, kind === 'value' ? 'ValueExpression' : 'Filter');
  if (!match.failed()) return undefined; // only inside an unterminated string, which is a token
  const position = match.getRightmostFailurePosition();
  if (position < prefix.length && prefix.slice(position).trim() !== '') return undefined;
  const expected = new Set<string>();
  for (const failure of rightmostFailures(match)) expected.add(failure.getText());
  return expected;
}

// ---------------------------------------------------------------- the context

/**
 * What may be written at `cursor` in the expression `text`, a filter or a value expression
 * (`kind`: one operand, so no operators or connectives). Left sides are typed with the
 * catalogue of the expression's phase (catalogueFor(phase)); without one, the union of every
 * phase's fields and functions.
 */
export function completionContext(text: string, cursor: number, catalogue: Catalogue = catalogueFor(undefined), kind: ExpressionKind = 'filter'): ExpressionCompletionContext {
  const at = Math.max(0, Math.min(cursor, text.length));
  const empty: ExpressionCompletionContext = { replace: { start: at, end: at }, partial: '' };
  try {
    return analyse(text, at, catalogue, kind) ?? empty;
  } catch (error) {
    // Nesting deep enough to exhaust the parser's stack gets no completion, as it gets no
    // parse; anything else is a bug and goes on to the server's guard, which logs it.
    if (error instanceof RangeError) return empty;
    throw error;
  }
}

function analyse(text: string, cursor: number, catalogue: Catalogue, kind: ExpressionKind): ExpressionCompletionContext | undefined {
  // Word by word, as `strict wildcard` is typed: `strict wild` is a word being typed after `strict`.
  const tokens = scanTokens(text, { limit: cursor + 1, strictWildcardAsWords: true });
  // The token the cursor is in or just after is being typed: it is replaced, and what may
  // stand there is what may stand where it starts. Failing that, the token that starts right
  // at the cursor is the one under it. Symbols and punctuation are complete as typed.
  const under = (t: LexicalToken | undefined) => t !== undefined && (t.kind === 'word' || t.kind === 'list' || t.kind === 'string' || t.kind === 'raw-string');
  const lastBefore = tokens.filter((t) => t.span.start < cursor).pop();
  const atCursor = tokens.find((t) => t.span.start === cursor);
  const partial = under(lastBefore) && cursor <= lastBefore!.span.end ? lastBefore : under(atCursor) ? atCursor : undefined;
  // A string still open is what was typed before the cursor: the text after it is not the
  // string's (an unterminated string runs to the end of the text, over the rest of the
  // expression and, in a block scalar, its final line break).
  const replace: Span = !partial ? { start: cursor, end: cursor } : isOpenString(partial, text) ? { start: partial.span.start, end: cursor } : partial.span;
  const before = tokens.filter((t) => t.span.end <= replace.start && t.span.start < replace.start);
  const prefix = text.slice(0, replace.start);
  const typed = text.slice(replace.start, replace.end);

  // What may follow an `and`/`or`/`xor` (or an opening parenthesis) does not depend on what
  // came before it, so only the clause the cursor is in is matched: a long expression costs
  // its last clause. Inside parentheses, the end of that clause is a `)`.
  const levels: { start: number; call: boolean }[] = [{ start: 0, call: false }];
  before.forEach((t, i) => {
    if (t.kind === '(') {
      levels.push({ start: t.span.end, call: namesCall(before[i - 1]) });
    } else if (t.kind === ')') {
      if (levels.length > 1) levels.pop();
    } else if (isConnective(t)) {
      levels[levels.length - 1].start = t.span.end;
    }
  });
  // A call's arguments are read with the call, from the clause around it.
  let level = levels.length - 1;
  while (level > 0 && levels[level].call) level--;
  const clauseStart = levels[level].start;

  // The grammar reads `strict wildcard` as one operator: after `strict ` it expects nothing
  // (its failure is where `strict` starts), so the operator is matched from there.
  const strict = before[before.length - 1];
  if (strict?.text === 'strict' && /^ +$/.test(text.slice(strict.span.end, replace.start)) && (!partial || partial.kind === 'word') && 'wildcard'.startsWith(typed)) {
    const operatorExpected = expectedAfter(text.slice(clauseStart, strict.span.start), kind);
    if (!operatorExpected?.has('a comparison operator')) return undefined;
    return { replace, partial: typed, operator: { lhs: leftSideBefore(before, before.length - 2, catalogue), strictWildcard: true } };
  }

  let expected = expectedAfter(prefix.slice(clauseStart), kind);
  if (expected && level > 0 && expected.delete('end of input')) expected.add(')');
  let recovered = false;
  if (!expected) {
    // A syntax error earlier: complete the clause the cursor is in, as if it stood alone.
    const start = lastIndexWhere(before, (t) => isConnective(t) || t.kind === '(' || t.text === 'not' || t.text === '!');
    if (start < 0 || before[start].span.end <= clauseStart) return undefined;
    expected = expectedAfter(prefix.slice(before[start].span.end), kind);
    recovered = true;
    if (!expected) return undefined;
  }

  const has = (terminal: string) => expected!.has(terminal);
  const context: { -readonly [K in keyof ExpressionCompletionContext]: ExpressionCompletionContext[K] } = { replace, partial: typed };

  const fieldExpected = has('a field name');
  const valueExpected = has('a value') || has('{') || has('"');
  if (fieldExpected && valueExpected) {
    // Only the arguments of a call take both.
    const open = unclosedOpening(before, '(', ')');
    const name = open > 0 && before[open - 1].kind === 'word' ? before[open - 1].text : '';
    const index = before.slice(open + 1).filter((t) => t.kind === ',').length;
    context.argument = { functionName: name, index };
  } else if (fieldExpected || has('not')) {
    context.operand = {
      fields: fieldExpected,
      functions: has('a function name'),
      not: has('not'),
      group: has('('),
      booleans: has('true') || has('false'),
      quantifiers: has('a quantifier'),
    };
  }
  if (has(INDEX_KEY_DESCRIPTION)) {
    const target = leftSideBefore(before, unclosedBracket(before) - 1, catalogue);
    context.index = target ? { target: target.name, indexes: target } : {};
  }
  // (After a name the grammar also expects `(`, as a name could start a call: that is not
  // an operand position, and is not offered.)
  if (has('a comparison operator')) {
    context.operator = { lhs: leftSideBefore(before, before.length - 1, catalogue) };
  } else if (valueExpected && !fieldExpected) {
    const inSet = has('}');
    let operatorIndex = before.length - 1;
    if (inSet) operatorIndex = unclosedOpening(before, '{', '}') - 1;
    const operator = operatorAt(before, operatorIndex);
    const lhs = operator ? leftSideBefore(before, operatorIndex - operator.tokens, catalogue) : undefined;
    context.value = {
      lhs,
      operator: operator?.operator,
      inSet,
      set: has('{'),
      list: has(LIST_DESCRIPTION) && !inSet,
    };
  }
  if (LOGICAL_TERMINALS.some(has)) {
    const closeGroup = has(')') || (recovered && unclosedOpening(before, '(', ')') >= 0);
    context.connective = { closeGroup };
  }
  return context;
}

/**
 * Whether a string token is still open: unterminated (the lexer runs it to the end of the
 * text), or closed by a quote glued to a word (`{"B| "US"}`), which is more likely the
 * opening quote of the next string than the end of this one (`"a"and` excepted).
 */
function isOpenString(token: LexicalToken, text: string): boolean {
  if (token.kind !== 'string' && token.kind !== 'raw-string') return false;
  // Read alone and followed by more text, a closed string ends where it did; an open one
  // runs on.
  const [alone] = scanTokens(`${token.text} `, { limit: 1 });
  if (alone.span.end > token.text.length) return true;
  const after = /^[A-Za-z0-9_]+/.exec(text.slice(token.span.end, token.span.end + 16));
  return after !== null && !KEYWORDS.has(after[0]);
}

function isConnective(token: LexicalToken): boolean {
  return LOGICAL_TERMINALS.includes(token.text);
}

function lastIndexWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
  return -1;
}

/** Index of the innermost `open` token not closed before the end, or -1. */
function unclosedOpening(tokens: readonly LexicalToken[], open: '(' | '{', close: ')' | '}'): number {
  let depth = 0;
  for (let i = tokens.length - 1; i >= 0; i--) {
    if (tokens[i].kind === close) depth++;
    else if (tokens[i].kind === open) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** The comparison operator that ends at token `index`, and how many tokens it spans. */
function operatorAt(tokens: readonly LexicalToken[], index: number): { operator: ComparisonOperator; tokens: number } | undefined {
  const token = tokens[index];
  if (!token) return undefined;
  if (token.text === 'wildcard' && tokens[index - 1]?.text === 'strict') return { operator: 'strict_wildcard', tokens: 2 };
  const operator = comparisonOperatorOf(token.text);
  return operator ? { operator, tokens: 1 } : undefined;
}

/** Index of the `[` of the index step the tokens end inside, or -1. */
function unclosedBracket(tokens: readonly LexicalToken[]): number {
  for (let i = tokens.length - 1; i >= 0; i--) {
    if (tokens[i].text === ']') return -1;
    if (tokens[i].text === '[') return i;
  }
  return -1;
}

/** The field or call that ends at token `index`, typed by the catalogue. */
function leftSideBefore(tokens: readonly LexicalToken[], index: number, catalogue: Catalogue): LeftSide | undefined {
  const token = tokens[index];
  if (!token) return undefined;
  if (token.text === ']') {
    // An index expression, `x["a"][0]`: what its steps index, and each step's kind, read
    // backwards from the last `]` (a loop: steps may be as many as the user writes).
    const steps: StepKind[] = [];
    while (index > 0 && tokens[index].text === ']') {
      let open = index - 1;
      while (open >= 0 && tokens[open].text !== '[') open--;
      if (open < 0) return undefined;
      steps.push(stepKind(tokens[open + 1]));
      index = open - 1;
    }
    steps.reverse();
    const target = leftSideBefore(tokens, index, catalogue);
    if (!target) return undefined;
    let type: ValueType | undefined = target.type;
    for (const step of steps) type = type === undefined ? undefined : typeAfterStep(type, step);
    const { kind, name, field, fn } = target;
    return { kind, name, ...(type !== undefined ? { type } : {}), ...(field ? { field } : {}), ...(fn ? { fn } : {}), indexed: true, steps };
  }
  if (token.kind === 'word' && !KEYWORDS.has(token.text)) {
    const field = catalogue.fields.get(token.text);
    return field ? { kind: 'field', name: token.text, type: field.type, field } : { kind: 'field', name: token.text };
  }
  if (token.kind === ')') {
    const open = unclosedOpening(tokens.slice(0, index), '(', ')');
    const name = open > 0 ? tokens[open - 1] : undefined;
    if (name?.kind !== 'word') return undefined;
    const fn = catalogue.functions.get(name.text);
    if (!fn || fn.quantifier) return { kind: 'call', name: name.text };
    // concat and coalesce give the type of their first argument: known when it is a field.
    const first = tokens[open + 1];
    const type = fn.result !== 'first-argument' ? fn.result : first?.kind === 'word' && tokens[open + 2]?.kind !== '(' && tokens[open + 2]?.text !== '[' ? catalogue.fields.get(first.text)?.type : undefined;
    return { kind: 'call', name: name.text, ...(type !== undefined ? { type } : {}), fn };
  }
  return undefined;
}

/** What an index step is, by the token after its `[`. */
function stepKind(token: LexicalToken | undefined): StepKind {
  if (token?.text === '*') return 'each';
  if (token?.kind === 'string' || token?.kind === 'raw-string') return 'key';
  return 'element';
}
