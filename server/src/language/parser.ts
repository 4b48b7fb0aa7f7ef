import type * as ohm from 'ohm-js';
import type {
  Argument,
  ComparisonOperator,
  Expression,
  FieldType,
  Literal,
  LogicalOperator,
  Operand,
  OperatorToken,
  SetLiteral,
  Span,
  Token,
  Value,
} from './ast';
import { grammar } from './grammar';
import { readBareValue, readQuotedString } from './literals';
import { problem, replaceFix, type Problem } from './problem';
import { scanLexicalStructure } from './scan';

/** Longest expression the service accepts (LANGUAGE.md §8). */
export const MAX_EXPRESSION_LENGTH = 4096;
/** Nesting depth limit of the reference parser. */
export const MAX_NESTING_DEPTH = 128;
/**
 * Past this length an expression is not parsed at all, only reported as too long: the
 * service rejects it anyway, and the parser's memory grows with the input.
 */
const MAX_PARSED_LENGTH = 16 * MAX_EXPRESSION_LENGTH;

export interface ParseOptions {
  /** The type of a field, or undefined when the field is not known. */
  readonly fieldType: (name: string) => FieldType | undefined;
}

export interface ParseResult {
  /** Undefined when the expression could not be parsed (a syntax error is among the problems). */
  readonly ast?: Expression;
  readonly problems: readonly Problem[];
}

const COMPARISON_OPERATORS: Record<string, ComparisonOperator> = {
  '==': 'eq', eq: 'eq', '=': 'eq',
  '!=': 'ne', ne: 'ne',
  '<': 'lt', lt: 'lt',
  '<=': 'le', le: 'le',
  '>': 'gt', gt: 'gt',
  '>=': 'ge', ge: 'ge',
  in: 'in',
  '&': 'bitwise_and', bitwise_and: 'bitwise_and',
  contains: 'contains',
  '~': 'matches', matches: 'matches',
  wildcard: 'wildcard',
};

/** Functions return Integer (bit_slice is the only one); their arguments are read by shape. */
const FUNCTION_RESULT_TYPE: FieldType = 'Integer';

interface Context {
  readonly options: ParseOptions;
  readonly problems: Problem[];
}

// Ohm actions cannot take extra arguments cheaply, so one parse at a time sets the context.
let context: Context | undefined;

function ctx(): Context {
  if (!context) throw new Error('parser context used outside parseExpression');
  return context;
}

function spanOf(node: ohm.Node): Span {
  return { start: node.source.startIdx, end: node.source.endIdx };
}

function token(node: ohm.Node): Token {
  return { text: node.sourceString, span: spanOf(node) };
}

const semantics = grammar.createSemantics();

semantics.addOperation<Expression>('expression', {
  Filter(or, _end) {
    return or.expression();
  },
  Or(first, operators, rest) {
    return logical(this, first, operators, rest, 'or');
  },
  Xor(first, operators, rest) {
    return logical(this, first, operators, rest, 'xor');
  },
  And(first, operators, rest) {
    return logical(this, first, operators, rest, 'and');
  },
  Unary_not(operator, operand) {
    return { kind: 'not', span: spanOf(this), operatorToken: token(operator), operand: operand.expression() };
  },
  Primary_group(_open, inner, _close) {
    return { kind: 'group', span: spanOf(this), inner: inner.expression() };
  },
  booleanLiteral(word) {
    return { kind: 'boolean', span: spanOf(this), value: word.sourceString === 'true' };
  },
  Comparison_binary(operandNode, operatorNode, valueNode) {
    const lhs: Operand = operandNode.operand();
    const operator = comparisonOperator(operatorNode);
    const lhsType = lhs.kind === 'field' ? ctx().options.fieldType(lhs.name) : FUNCTION_RESULT_TYPE;
    const rhs: Value = valueNode.value(lhsType);
    return { kind: 'comparison', span: spanOf(this), lhs, operator, rhs };
  },
  Comparison_bare(operandNode) {
    return { kind: 'comparison', span: spanOf(this), lhs: operandNode.operand() };
  },
});

function logical(node: ohm.Node, first: ohm.Node, operators: ohm.Node, rest: ohm.Node, operator: LogicalOperator): Expression {
  if (rest.numChildren === 0) return first.expression();
  const operands: Expression[] = [first.expression(), ...rest.children.map((n) => n.expression() as Expression)];
  return { kind: 'logical', span: spanOf(node), operator, operands, operatorTokens: operators.children.map(token) };
}

function comparisonOperator(node: ohm.Node): OperatorToken {
  const text = node.sourceString;
  const span = spanOf(node);
  if (text === '=') {
    ctx().problems.push(problem('single-equals', 'error', span, 'expected a comparison operator, found `=`; equality is written `==` (or `eq`)', [replaceFix('Replace `=` with `==`', span, '==')]));
  }
  const operator = text.startsWith('strict') ? 'strict_wildcard' : COMPARISON_OPERATORS[text];
  return { text, span, operator };
}

semantics.addOperation<Operand>('operand', {
  Operand(inner) {
    return inner.operand();
  },
  Call(name, _open, args, _close) {
    return { kind: 'call', span: spanOf(this), name: token(name), args: args.asIteration().children.map((a) => a.argument() as Argument) };
  },
  field(_first, _dots, _rest) {
    return { kind: 'field', span: spanOf(this), name: this.sourceString };
  },
});

semantics.addOperation<Argument>('argument', {
  Argument(inner) {
    return inner.argument();
  },
  field(_first, _dots, _rest) {
    return { kind: 'field', span: spanOf(this), name: this.sourceString };
  },
  string(_) {
    return this.literal(undefined);
  },
  rawString(_) {
    return this.literal(undefined);
  },
  bareValue(_) {
    return this.literal(undefined);
  },
});

semantics.addOperation<Value>('value(type)', {
  Value(inner) {
    return inner.value(this.args.type);
  },
  Set(_open, items, _close) {
    const type: FieldType | undefined = this.args.type;
    const literals = items.children.map((item) => item.setItem(type) as Literal | undefined).filter((l): l is Literal => l !== undefined);
    const set: SetLiteral = { kind: 'set', span: spanOf(this), items: literals };
    return set;
  },
  listRef(_dollar, _name) {
    return listReference(this);
  },
  string(_) {
    return this.literal(this.args.type);
  },
  rawString(_) {
    return this.literal(this.args.type);
  },
  bareValue(_) {
    return this.literal(this.args.type);
  },
});

semantics.addOperation<Literal | undefined>('setItem(type)', {
  SetItem(inner) {
    return inner.setItem(this.args.type);
  },
  SetItem_comma(comma) {
    const span = spanOf(comma);
    const text = comma.source.sourceString;
    const followedBySpace = span.end < text.length && /[ \r\n\t]/.test(text[span.end]);
    ctx().problems.push(
      problem('comma-in-set', 'error', span, 'expected whitespace between set items, found `,`; items of a `{…}` set are separated by spaces only', [
        replaceFix('Separate set items with spaces', span, followedBySpace ? '' : ' '),
      ]),
    );
    return undefined;
  },
  listRef(_dollar, _name) {
    const span = spanOf(this);
    ctx().problems.push(problem('list-in-set', 'error', span, `expected a value, found the list \`${this.sourceString}\`; a list cannot be a set item: compare with \`in ${this.sourceString}\` in its own comparison`));
    return undefined;
  },
  string(_) {
    return this.literal(this.args.type);
  },
  rawString(_) {
    return this.literal(this.args.type);
  },
  bareValue(_) {
    return this.literal(this.args.type);
  },
});

semantics.addOperation<Literal>('literal(type)', {
  string_closed(_open, chars, _close) {
    const { value, problems } = readQuotedString(chars.sourceString, chars.source.startIdx);
    ctx().problems.push(...problems);
    return { kind: 'string', span: spanOf(this), value, raw: false };
  },
  string_unterminated(_open, chars, _end) {
    const span = spanOf(this);
    const { value, problems } = readQuotedString(chars.sourceString, chars.source.startIdx);
    ctx().problems.push(...problems, unterminated(span, '"'));
    return { kind: 'string', span, value, raw: false };
  },
  rawString_closed(_r, _lookahead, fenced) {
    const text = fenced.sourceString;
    const hashes = text.indexOf('"');
    return { kind: 'string', span: spanOf(this), value: text.slice(hashes + 1, text.length - hashes - 1), raw: true };
  },
  rawString_unterminated(_r, hashes, _quote, body, _end) {
    const span = spanOf(this);
    ctx().problems.push(unterminated(span, `"${hashes.sourceString}`));
    return { kind: 'string', span, value: body.sourceString, raw: true };
  },
  bareValue(_) {
    const { literal, problems } = readBareValue(this.sourceString, spanOf(this), this.args.type);
    ctx().problems.push(...problems);
    return literal;
  },
});

function unterminated(span: Span, closing: string): Problem {
  const end: Span = { start: span.end, end: span.end };
  return problem('unterminated-string', 'error', span, `expected a closing \`${closing}\` for this string, found the end of the expression`, [
    { title: `Close the string with \`${closing}\``, edits: [{ span: end, newText: closing }] },
  ]);
}

function listReference(node: ohm.Node): Value {
  const span = spanOf(node);
  const name = node.sourceString.slice(1);
  const nameSpan: Span = { start: span.start + 1, end: span.end };
  if (name === '') {
    ctx().problems.push(problem('invalid-list-name', 'error', { start: span.start, end: span.end }, 'expected a list name after `$`, such as `$svc.anonymizer` or `$my_list`'));
  } else if (name.startsWith('.') || name.endsWith('.') || name.includes('..')) {
    ctx().problems.push(problem('invalid-list-name', 'error', nameSpan, `\`$${name}\` is not a list name: dots may only separate parts of the name`));
  } else if (/[A-Z]/.test(name)) {
    const lower = name.toLowerCase();
    ctx().problems.push(problem('invalid-list-name', 'error', nameSpan, `expected a lowercase list name, found \`$${name}\`; list names use lowercase letters, digits, \`_\` and \`.\``, [replaceFix(`Change to \`$${lower}\``, nameSpan, lower)]));
  }
  return { kind: 'list', span, name };
}

/** Parses one expression into its AST and the problems found while reading it. */
export function parseExpression(text: string, options: ParseOptions): ParseResult {
  const problems: Problem[] = [];
  const trimmed = text.trim();
  if (trimmed === '') {
    return { problems: [problem('empty-expression', 'error', { start: 0, end: text.length }, 'expected an expression such as `ip.src in $svc.anonymizer` (or `true`), found nothing')] };
  }
  if (text.length > MAX_EXPRESSION_LENGTH) {
    problems.push(problem('expression-too-long', 'error', { start: MAX_EXPRESSION_LENGTH, end: text.length }, `the expression is ${text.length} characters long; the service accepts at most ${MAX_EXPRESSION_LENGTH}`));
    if (text.length > MAX_PARSED_LENGTH) return { problems };
  }
  const lexical = scanLexicalStructure(text);
  for (const tab of lexical.tabs) {
    problems.push(problem('tab-whitespace', 'error', { start: tab, end: tab + 1 }, 'expected a space, found a TAB; only spaces and line breaks separate tokens', [replaceFix('Replace the TAB with a space', { start: tab, end: tab + 1 }, ' ')]));
  }
  if (lexical.deepest) {
    // The real depth is checked on the tree; this guards the parser's own stack.
    problems.push(nestingTooDeep(lexical.deepest));
    return { problems };
  }
  let match: ohm.MatchResult;
  try {
    match = grammar.match(text);
  } catch (error) {
    if (error instanceof RangeError) return { problems: [...problems, nestingTooDeep({ start: 0, end: text.length })] };
    throw error;
  }
  if (match.failed()) {
    return { problems: [...problems, syntaxError(text, match)] };
  }
  context = { options, problems };
  try {
    const ast: Expression = semantics(match).expression();
    return { ast, problems };
  } finally {
    context = undefined;
  }
}

export function nestingTooDeep(span: Span): Problem {
  return problem('nesting-too-deep', 'error', span, `expressions may nest at most ${MAX_NESTING_DEPTH} levels of parentheses and \`not\`; simplify this expression`);
}

// ---------------------------------------------------------------- syntax errors

const KEYWORDS = ['and', 'or', 'xor', 'not', 'in', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'strict', 'bitwise_and', 'true', 'false'];

function foundToken(text: string, position: number): Span {
  if (position >= text.length) return { start: text.length, end: text.length };
  const word = /^(?:[A-Za-z0-9_.:$\-\/]+|[=!<>&|^~]+)/.exec(text.slice(position));
  return { start: position, end: position + (word ? word[0].length : 1) };
}

function syntaxError(text: string, match: ohm.FailedMatchResult): Problem {
  const position = match.getRightmostFailurePosition();
  const span = foundToken(text, position);
  const found = span.start >= text.length ? 'the end of the expression' : `\`${text.slice(span.start, span.end)}\``;
  const expected = describeExpected(match);
  const word = text.slice(span.start, span.end);
  if (KEYWORDS.includes(word.toLowerCase()) && word !== word.toLowerCase()) {
    const lower = word.toLowerCase();
    return problem('syntax-error', 'error', span, `expected ${expected}, found ${found}; keywords are lowercase: \`${lower}\``, [replaceFix(`Change to \`${lower}\``, span, lower)]);
  }
  if (word === '#') {
    return problem('syntax-error', 'error', { start: position, end: text.length }, `expected ${expected}, found \`#\`; expressions have no comments: move the note to the rule's \`description\``);
  }
  const bitwise = /(\S+)\s*(?:&|bitwise_and)\s*(\S+)\s*$/.exec(text.slice(0, position));
  if (bitwise && /^[=!<>]/.test(word) && !bitwise[0].includes('&&')) {
    const test = `${bitwise[1]} & ${bitwise[2]}`;
    return problem('syntax-error', 'error', span, `expected ${expected}, found ${found}; \`${test}\` is already a complete test (true when any of those bits is set), so it cannot be compared again`);
  }
  return problem('syntax-error', 'error', span, `expected ${expected}, found ${found}`);
}

interface OhmFailure {
  getText(): string;
  getType(): 'description' | 'string' | 'code';
  isFluffy(): boolean;
}

/** Expected-token information at the failure point (not in ohm-js's type declarations). */
export function rightmostFailures(match: ohm.MatchResult): OhmFailure[] {
  return (match as unknown as { getRightmostFailures(): OhmFailure[] }).getRightmostFailures();
}

/**
 * What a person thinks in, for each terminal or described rule the grammar can expect;
 * null drops one that only repeats another (`!` beside `not`, the `r` of a raw string).
 */
const EXPECTED_NAMES: Record<string, string | null> = {
  'a field name': 'a field name',
  '`not`': '`not`',
  '`!`': null,
  '`(`': '`(`',
  '`true`': null,
  '`false`': null,
  '`_`': null,
  'a comparison operator': 'a comparison operator',
  'a value': 'a value',
  '`"`': null,
  '`r`': null,
  'a list such as `$svc.anonymizer`': null,
  '`{`': null,
  '`)`': '`)`',
  '`}`': '`}`',
  '`,`': '`,`',
  'the end of the expression': 'the end of the expression',
};
const LOGICAL = ['`or`', '`||`', '`xor`', '`^^`', '`and`', '`&&`'];

/** Turns the parser's expected terminals into a short, readable list. */
function describeExpected(match: ohm.FailedMatchResult): string {
  const raw = new Set<string>();
  for (const failure of rightmostFailures(match)) {
    if (failure.isFluffy()) continue;
    const text = failure.getText();
    if (failure.getType() === 'string') raw.add(text.trim() === '' ? '' : `\`${text}\``);
    else raw.add(text === 'end of input' ? 'the end of the expression' : text);
  }
  const items: string[] = [];
  const add = (item: string) => {
    if (!items.includes(item)) items.push(item);
  };
  if (raw.has('a field name')) add('a field name');
  if (raw.has('`not`') || raw.has('`!`')) add('`not`');
  if (raw.has('`(`') && !raw.has('a comparison operator')) add('`(`');
  if (raw.has('a comparison operator')) add('a comparison operator');
  if (raw.has('a value') || raw.has('`{`')) add('a value (a number, an address, a `"string"`, a `{…}` set or a `$list`)');
  if (LOGICAL.some((op) => raw.has(op))) add('`and`/`or`/`xor`');
  for (const item of raw) {
    const name = EXPECTED_NAMES[item];
    if (name === undefined && !LOGICAL.includes(item) && item !== '' && !/digit|letter|alpha/.test(item)) add(item);
    else if (name && !['a field name', '`not`', '`(`', 'a comparison operator', 'a value', 'the end of the expression'].includes(name)) add(name);
  }
  if (raw.has('the end of the expression')) add('the end of the expression');
  if (items.length === 0) return 'more input';
  if (items.length === 1) return items[0];
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
