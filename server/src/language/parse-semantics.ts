/**
 * What matched text means, for both parsers (parser.ts's Ohm actions and fast-parser.ts): the
 * tree node of a literal, operator or list, and the problems it has. Each function takes the
 * whole expression text and the span of what matched.
 */
import type { Expression, ScalarType, ListReference, Literal, LogicalOperator, OperatorToken, Span, StringLiteral, Token, Value } from './ast';
import { comparisonOperatorOf, LOGICAL_OPERATOR_BY_SPELLING } from './catalogue/operators';
import { readBareValue, readQuotedString } from './literals';
import { regexProblem, wildcardProblem } from './patterns';
import { problem, replaceFix, type Problem } from './problem';
import { regexFromQuoted } from './regex';

/** The type of a field, or undefined when the field is not known. */
export type FieldTypeOf = (name: string) => ScalarType | undefined;


/** Functions return Integer (bit_slice is the only one); their arguments are read by shape. */
export const FUNCTION_RESULT_TYPE: ScalarType = 'Integer';

/** Logical operators from the lowest precedence to the highest (`not` binds tighter still). */
const PRECEDENCE: readonly LogicalOperator[] = ['or', 'xor', 'and'];

/**
 * Builds the tree of `operands[0] operators[0] operands[1] …` by splitting at the operator
 * of the lowest precedence first. Runs of one operator stay flat (`a and b and c` is one
 * node with three operands), so long chains build a shallow tree.
 */
export function byPrecedence(operands: readonly Expression[], operators: readonly Token[], level: number): Expression {
  if (operators.length === 0) return operands[0];
  const operator = PRECEDENCE[level];
  const children: Expression[] = [];
  const separators: Token[] = [];
  // The operands and the tighter operators between two of this level's operators.
  let partOperands: Expression[] = [operands[0]];
  let partOperators: Token[] = [];
  for (let i = 0; i < operators.length; i++) {
    const token = operators[i];
    if (LOGICAL_OPERATOR_BY_SPELLING.get(token.text) === operator) {
      separators.push(token);
      children.push(byPrecedence(partOperands, partOperators, level + 1));
      partOperands = [operands[i + 1]];
      partOperators = [];
    } else {
      partOperators.push(token);
      partOperands.push(operands[i + 1]);
    }
  }
  children.push(byPrecedence(partOperands, partOperators, level + 1));
  if (children.length === 1) return children[0];
  const span: Span = { start: children[0].span.start, end: children[children.length - 1].span.end };
  return { kind: 'logical', span, operator, operands: children, operatorTokens: separators };
}

/** A comparison operator as matched (`=` is reported: it stands for `==`). */
export function comparisonOperatorToken(source: string, span: Span, problems: Problem[]): OperatorToken {
  const text = source.slice(span.start, span.end);
  if (text === '=') {
    problems.push(problem('single-equals', 'error', span, 'expected a comparison operator, found `=`; equality is written `==` (or `eq`)', [replaceFix('Replace `=` with `==`', span, '==')]));
  }
  // The grammar matched an operator, so the text spells one.
  return { text, span, operator: comparisonOperatorOf(text)! };
}

/** A trailing lone `\` would escape a plain closing quote. */
const DANGLING_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\$/;

/**
 * The quoted string at `span` (its quotes included; `closed` false when it runs to the end of
 * the expression). With a bad escape its value is unknown, so it is not checked further.
 */
export function quotedString(source: string, span: Span, closed: boolean, problems: Problem[]): Literal {
  const bodyStart = span.start + 1;
  const body = source.slice(bodyStart, closed ? span.end - 1 : span.end);
  const read = readQuotedString(body, bodyStart);
  problems.push(...read.problems);
  const literal: Literal =
    read.problems.length > 0
      ? { kind: 'invalid', span, text: source.slice(span.start, span.end) }
      : { kind: 'string', span, value: read.value, raw: false, ...(read.bytes ? { bytes: read.bytes } : {}) };
  if (!closed) problems.push(unterminated(span, '"', DANGLING_ESCAPE.test(body) ? '\\"' : '"'));
  return literal;
}

/** The raw string at `span` (`r#"…"#`; `closed` false when it runs to the end of the expression). */
export function rawString(source: string, span: Span, closed: boolean, problems: Problem[]): StringLiteral {
  let quote = span.start + 1;
  while (source[quote] === '#') quote++;
  const hashes = quote - span.start - 1;
  if (closed) return { kind: 'string', span, value: source.slice(quote + 1, span.end - 1 - hashes), raw: true };
  problems.push(unterminated(span, `"${source.slice(span.start + 1, quote)}`));
  return { kind: 'string', span, value: source.slice(quote + 1, span.end), raw: true };
}

/** A bare value (number, address, range, bytes), read by the type of the field on the left. */
export function bareValue(source: string, span: Span, type: ScalarType | undefined, problems: Problem[]): Literal {
  const { literal, problems: found } = readBareValue(source.slice(span.start, span.end), span, type);
  problems.push(...found);
  return literal;
}

/** A list reference (`$name`); the name's exact rules are checked here rather than by the grammar. */
export function listReference(source: string, span: Span, problems: Problem[]): ListReference {
  const name = source.slice(span.start + 1, span.end);
  const nameSpan: Span = { start: span.start + 1, end: span.end };
  if (name === '') {
    problems.push(problem('invalid-list-name', 'error', { start: span.start, end: span.end }, 'expected a list name after `$`, such as `$svc.anonymizer` or `$my_list`'));
  } else if (name.startsWith('.') || name.endsWith('.') || name.includes('..')) {
    problems.push(problem('invalid-list-name', 'error', nameSpan, `\`$${name}\` is not a list name: dots may only separate parts of the name`));
  } else if (/[A-Z]/.test(name)) {
    const lower = name.toLowerCase();
    problems.push(problem('invalid-list-name', 'error', nameSpan, `expected a lowercase list name, found \`$${name}\`; list names use lowercase letters, digits, \`_\` and \`.\``, [replaceFix(`Change to \`$${lower}\``, nameSpan, lower)]));
  }
  return { kind: 'list', span, name };
}

/** A list among the items of a set: reported, and still an item, so the set is not taken for an empty one. */
export function listInSet(source: string, span: Span, problems: Problem[]): Literal {
  const text = source.slice(span.start, span.end);
  problems.push(problem('list-in-set', 'error', span, `expected a value, found the list \`${text}\`; a list cannot be a set item: compare with \`in ${text}\` in its own comparison`));
  return { kind: 'invalid', span, text };
}

/** A comma between set items (error production): reported; it is no item. */
export function setComma(source: string, span: Span, problems: Problem[]): void {
  const followedBySpace = span.end < source.length && /[ \r\n\t]/.test(source[span.end]);
  problems.push(
    problem('comma-in-set', 'error', span, 'expected whitespace between set items, found `,`; items of a `{…}` set are separated by spaces only', [
      replaceFix('Separate set items with spaces', span, followedBySpace ? '' : ' '),
    ]),
  );
}

/**
 * A quoted regex from its body. It is not read with string escapes: as in the reference
 * (wirefilter's lex_regex_from_literal), `\"` outside a `[…]` class is a quote and every
 * other backslash goes to the regex engine (`"^sfo\d+$"`). The value is the regex source.
 */
export function regexLiteral(span: Span, body: string, bodyStart: number, unterminatedString: boolean, problems: Problem[]): Value {
  const { source, offsets, openClass } = regexFromQuoted(body);
  if (unterminatedString) {
    if (openClass !== undefined) {
      const classStart = bodyStart + openClass;
      const classSpan: Span = { start: classStart, end: classStart + 1 };
      problems.push({
        ...problem('unterminated-string', 'error', span, 'expected a closing `"` for this pattern, found the end of the expression: the service reads a `"` inside a `[…]` class as part of the class; close the class with `]` before the quote'),
        related: [{ span: classSpan, message: 'this class is never closed, so the quotes after it are in it' }],
      });
    } else {
      problems.push(unterminated(span, '"', DANGLING_ESCAPE.test(body) ? '\\"' : '"'));
    }
  } else {
    const invalid = regexProblem(source, (i) => bodyStart + offsets[i]);
    if (invalid) problems.push(invalid);
  }
  return { kind: 'string', span, value: source, raw: false };
}

/** The regex of a closed raw string after `matches`/`~`: its body is the pattern as written. */
export function rawRegexCheck(source: string, literal: StringLiteral, problems: Problem[]): void {
  const bodyStart = source.indexOf('"', literal.span.start) + 1;
  const invalid = regexProblem(literal.value, (i) => bodyStart + i);
  if (invalid) problems.push(invalid);
}

/** The pattern of a `wildcard`/`strict wildcard` comparison, once its value is read. */
export function wildcardCheck(source: string, operator: OperatorToken, rhs: Value, problems: Problem[]): void {
  if ((operator.operator === 'wildcard' || operator.operator === 'strict_wildcard') && rhs.kind === 'string') {
    const invalid = wildcardProblem(rhs, source);
    if (invalid) problems.push(invalid);
  }
}

export function unterminated(span: Span, closing: string, insert = closing): Problem {
  const end: Span = { start: span.end, end: span.end };
  return problem('unterminated-string', 'error', span, `expected a closing \`${closing}\` for this string, found the end of the expression`, [
    { title: `Close the string with \`${insert}\``, edits: [{ span: end, newText: insert }] },
  ]);
}

