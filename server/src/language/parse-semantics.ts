/**
 * What matched text means, for both parsers (parser.ts's Ohm actions and fast-parser.ts): the
 * tree node of a literal, operator or list, and the problems it has. Each function takes the
 * whole expression text and the span of what matched.
 */
import type {
  ArrayIndexStep,
  Comparison,
  Expression,
  FieldReference,
  FunctionCall,
  IndexedOperand,
  IndexStep,
  ListReference,
  Literal,
  LogicalOperator,
  MapKeyStep,
  Operand,
  OperatorToken,
  ScalarType,
  Span,
  StringLiteral,
  Token,
  Value,
  ValueType,
} from './ast';
import { comparisonOperatorOf, LOGICAL_OPERATOR_BY_SPELLING } from './catalogue/operators';
import { looksLikeBytes, plainDecimal, readBareValue, readInteger, readPlainBareValue, readPlainInteger, readQuotedString } from './literals';
import { regexProblem, wildcardProblem } from './patterns';
import { problem, replaceFix, type Problem } from './problem';
import { regexFromQuoted } from './regex';
import { isScalarType, typeAfterStep } from './types';

/** The type of a field, or undefined when the field is not known. */
export type FieldTypeOf = (name: string) => ValueType | undefined;

/**
 * The type of an operand (a field, a call, an index expression), or undefined when it is not
 * known: the literals on the right of its comparison are read by it. Called once per
 * comparison by either parser, on operands whose arguments and steps are already read, so it
 * must be a pure function of the operand.
 */
export type OperandTypeOf = (operand: Operand) => ValueType | undefined;

/** What a call returns when only field types are known: bit_slice, the one function of the packet phases, returns an Integer. */
export const FUNCTION_RESULT_TYPE: ScalarType = 'Integer';

/**
 * How the literals on the right of an operator are read: by the type of the operand on the
 * left. `operandType` types any operand (field, call, index expression); `fieldType` types
 * fields only, with calls read as Integer and index expressions by their steps
 * (operandTypesOfFields), which is how the packet phases have always been read.
 */
export type ParseOptions = { readonly operandType: OperandTypeOf } | { readonly fieldType: FieldTypeOf };

/**
 * The type the value on the right of `lhs` is read by: the operand's, when it is a single
 * value. (A plain function of the options rather than a closure made per parse: a parse takes
 * a few microseconds, and making a closure is not free.)
 */
export function readingType(options: ParseOptions, lhs: Operand): ScalarType | undefined {
  const type = 'operandType' in options ? options.operandType(lhs) : typeFromFields(options.fieldType, lhs);
  return type !== undefined && isScalarType(type) ? type : undefined;
}

/**
 * Operand types from field types alone, as the packet phases read them: a field has its type,
 * a call returns FUNCTION_RESULT_TYPE, and an index expression has the type its steps leave
 * of its target's (undefined once a step does not fit).
 */
export function operandTypesOfFields(fieldType: FieldTypeOf): OperandTypeOf {
  return (operand) => typeFromFields(fieldType, operand);
}

function typeFromFields(fieldType: FieldTypeOf, operand: Operand): ValueType | undefined {
  const target = operand.kind === 'index' ? operand.target : operand;
  let type = target.kind === 'field' ? fieldType(target.name) : FUNCTION_RESULT_TYPE;
  if (operand.kind === 'index') for (const step of operand.steps) type = type && typeAfterStep(type, step.kind);
  return type;
}

/** Argument of a call or quantifier, from the comparison read there: a lone operand stands for itself. */
export function argumentOfComparison(comparison: Comparison): Operand | Comparison {
  return comparison.operator ? comparison : comparison.lhs;
}

/** A field or call with its index steps (none: the target itself). */
export function indexed(target: FieldReference | FunctionCall, steps: readonly IndexStep[]): Operand {
  if (steps.length === 0) return target;
  // The span apart: a literal inside another is copied by a call into the runtime.
  const span: Span = { start: target.span.start, end: steps[steps.length - 1].span.end };
  const node: IndexedOperand = { kind: 'index', span, target, steps };
  return node;
}

/** The largest array index the reference takes (a u32). */
const MAX_ARRAY_INDEX = 0xffff_ffffn;
const MAX_ARRAY_INDEX_NUMBER = Number(MAX_ARRAY_INDEX);
const CODE_MINUS = 45;

/**
 * `["key"]`: the key as the reference reads it, a quoted string with the escapes of any
 * string, whose bytes must be UTF-8 text (`"\xc3\xa9"` is `é`, `"\xff"` no key at all).
 */
export function mapKeyStep(source: string, span: Span, keySpan: Span, problems: Problem[]): MapKeyStep {
  const literal = quotedString(source, keySpan, true, problems);
  let key = literal.kind === 'string' ? literal.value : source.slice(keySpan.start + 1, keySpan.end - 1);
  if (literal.kind === 'string' && literal.bytes) {
    try {
      key = UTF8.decode(Uint8Array.from(literal.bytes));
    } catch {
      problems.push(problem('invalid-index', 'error', keySpan, `expected a map key of UTF-8 text, found \`${source.slice(keySpan.start, keySpan.end)}\`, whose escaped bytes are not UTF-8; keys are text, such as header or argument names`));
    }
  }
  return { kind: 'key', span, key, keySpan };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `[0]`: an array index as the reference reads it, an integer (decimal, 0x hex or 0-octal)
 * from 0 to 2³²−1. Out of that range it is reported and kept, so the tree says what was meant.
 */
export function arrayIndexStep(source: string, span: Span, indexSpan: Span, problems: Problem[]): ArrayIndexStep {
  // Most indexes are a few decimal digits, read in place (`-0` is left to the reader below: it is 0).
  const plain = source.charCodeAt(indexSpan.start) === CODE_MINUS ? NaN : plainDecimal(source, indexSpan.start, indexSpan.end);
  if (plain <= MAX_ARRAY_INDEX_NUMBER) return { kind: 'element', span, index: plain, indexSpan };
  const text = source.slice(indexSpan.start, indexSpan.end);
  const read = readInteger(text, indexSpan.start);
  if (!read.ok && read.problem.code !== 'integer-overflow') {
    // `08`: a leading 0 makes it octal, and 8 is no octal digit. The reference refuses the
    // index as a whole (after a comparison operator, it points at the digit).
    problems.push({ ...read.problem, span: indexSpan });
    return { kind: 'element', span, index: Number(text), indexSpan };
  }
  // The grammar takes only `0x` hex and decimal digits, which BigInt reads as they are.
  const value = read.ok ? read.value : BigInt(text);
  if (value < 0n || value > MAX_ARRAY_INDEX) {
    problems.push(problem('invalid-index', 'error', indexSpan, `expected an array index from 0 to ${MAX_ARRAY_INDEX}, found \`${text}\`${value < 0n ? '; the first element is `[0]`' : ''}`));
  }
  return { kind: 'element', span, index: Number(value), indexSpan };
}

/** Eight groups of two hex digits: an IPv6 address and a byte string alike. */
const EIGHT_PAIRS = /^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){7}$/;

/**
 * A bare value as a call's argument, where no field type says how to read it. The reference
 * tries an IP address first, then an integer, then bytes:
 * - eight `:`-separated pairs of hex digits, an IPv6 address and bytes alike, are an address;
 * - text that starts with an integer and goes on (`61:62`, `12-34`, `1..5`, `10.0.0.0/8`) is
 *   that integer, after which the reference wants `,` or `)`: reported on the rest, and the
 *   argument is the integer;
 * - anything else is read by its shape, as a value of an unknown field is.
 */
export function argumentValue(source: string, span: Span, problems: Problem[]): Literal {
  // A plain decimal integer is none of the first two, and read as a value of an unknown field is.
  const integer = readPlainInteger(source, span);
  if (integer) return integer;
  const text = source.slice(span.start, span.end);
  if (EIGHT_PAIRS.test(text)) return bareValue(source, span, 'Ip', problems);
  const prefix = startsLikeName(text) ? undefined : integerPrefix(text);
  if (prefix !== undefined && !isAddress(text)) {
    const read = readInteger(text.slice(0, prefix), span.start);
    if (read.ok) {
      const number: Span = { start: span.start, end: span.start + prefix };
      const rest: Span = { start: number.end, end: span.end };
      const written = text.slice(0, prefix);
      const bytes = looksLikeBytes(text) ? `"${text.split(/[:.\-]/).map((pair) => `\\x${pair.toLowerCase()}`).join('')}"` : undefined;
      problems.push(
        problem(
          'invalid-value',
          'error',
          rest,
          `expected \`,\` or \`)\` after the argument \`${written}\`, found \`${text.slice(prefix)}\`: a call's argument that starts with a number is read as that number${bytes ? `; to pass these bytes, write them as a string: \`${bytes}\`` : ''}`,
          bytes ? [replaceFix(`Change to \`${bytes}\``, span, bytes)] : [],
        ),
      );
      return { kind: 'integer', span: number, value: read.value };
    }
  }
  return bareValue(source, span, undefined, problems);
}

/**
 * Whether the reference reads an argument that starts so as a name (`0x10`, `1g`, `ab_`): a
 * letter past `f` or `_` among its first three characters, after letters and digits only.
 */
function startsLikeName(text: string): boolean {
  return NAME_START.test(text);
}

/** The reference's test of an argument's first three characters for a name (startsLikeName). */
const NAME_START = /^(?:[g-zG-Z_]|[A-Za-z0-9_][g-zG-Z_]|[A-Za-z0-9_]{2}[g-zG-Z_])/;

/**
 * How long the integer is that the reference reads at the start of `text` when `text` goes on
 * after it, else undefined. It reads a run of hex digits: a decimal integer (after an optional
 * `-`) when they are all decimal, an octal one after a leading 0 when they are all octal.
 */
function integerPrefix(text: string): number | undefined {
  const run = /^(-?)([0-9a-fA-F]+)/.exec(text);
  if (!run || run[0].length === text.length) return undefined;
  const digits = run[2];
  const octal = run[1] === '' && digits.startsWith('0');
  return (octal ? /^[0-7]+$/ : /^[0-9]+$/).test(digits) ? run[0].length : undefined;
}

/** Whether `text` is one IP address, which the reference reads before an integer. */
function isAddress(text: string): boolean {
  return !/[/]|\.\./.test(text) && readBareValue(text, { start: 0, end: text.length }, 'Ip').literal.kind === 'ip';
}

/** Logical operators from the lowest precedence to the highest (`not` binds tighter still). */
const PRECEDENCE: readonly LogicalOperator[] = ['or', 'xor', 'and'];

/**
 * The precedence level (index in PRECEDENCE) of a logical operator's spelling, by its first
 * character, which tells the spellings apart (`a`nd `&&`, `o`r `||`, `x`or `^^`): no string
 * is hashed to find it.
 */
const LEVEL_BY_FIRST_CODE = new Int8Array(128).fill(-1);
for (const [spelling, operator] of LOGICAL_OPERATOR_BY_SPELLING) {
  const code = spelling.charCodeAt(0);
  if (LEVEL_BY_FIRST_CODE[code] !== -1) throw new Error(`two logical operators start with \`${spelling[0]}\``);
  LEVEL_BY_FIRST_CODE[code] = PRECEDENCE.indexOf(operator);
}

function levelOf(operator: Token): number {
  return LEVEL_BY_FIRST_CODE[operator.text.charCodeAt(0)];
}

/**
 * Builds the tree of `operands[0] operators[0] operands[1] …` by splitting at the operator
 * of the lowest precedence first. Runs of one operator stay flat (`a and b and c` is one
 * node with three operands), so long chains build a shallow tree. The arrays become the
 * tree's when all operators are one (the usual case), so the caller hands them over.
 */
export function byPrecedence(operands: readonly Expression[], operators: readonly Token[]): Expression {
  if (operators.length === 0) return operands[0];
  let loosest = PRECEDENCE.length;
  let mixed = false;
  for (let i = 0; i < operators.length; i++) {
    const operatorLevel = levelOf(operators[i]);
    if (i > 0 && operatorLevel !== loosest) mixed = true;
    if (operatorLevel < loosest) loosest = operatorLevel;
  }
  const last = operands[operands.length - 1];
  if (!mixed) {
    // The span apart: a literal inside another is copied by a call into the runtime.
    const span: Span = { start: operands[0].span.start, end: last.span.end };
    return { kind: 'logical', span, operator: PRECEDENCE[loosest], operands, operatorTokens: operators };
  }
  const children: Expression[] = [];
  const separators: Token[] = [];
  // The operands and the tighter operators between two of the loosest operators.
  let from = 0;
  for (let i = 0; i < operators.length; i++) {
    if (levelOf(operators[i]) !== loosest) continue;
    separators.push(operators[i]);
    children.push(byPrecedence(operands.slice(from, i + 1), operators.slice(from, i)));
    from = i + 1;
  }
  children.push(byPrecedence(operands.slice(from), operators.slice(from)));
  const span: Span = { start: children[0].span.start, end: children[children.length - 1].span.end };
  return { kind: 'logical', span, operator: PRECEDENCE[loosest], operands: children, operatorTokens: separators };
}

/** A comparison operator as matched, `text` at `span` (`=` is reported: it stands for `==`). */
export function comparisonOperatorToken(text: string, span: Span, problems: Problem[]): OperatorToken {
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
  // Without a `\` the body is the value: nothing to decode, nothing to report.
  if (closed && body.indexOf('\\') < 0) return { kind: 'string', span, value: body, raw: false };
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
  const plain = readPlainBareValue(source, span, type);
  if (plain) return plain;
  const { literal, problems: found } = readBareValue(source.slice(span.start, span.end), span, type);
  problems.push(...found);
  return literal;
}

/** A list reference (`$name`); the name's exact rules are checked here rather than by the grammar. */
export function listReference(source: string, span: Span, problems: Problem[]): ListReference {
  const name = source.slice(span.start + 1, span.end);
  if (PLAIN_LIST_NAME.test(name)) return { kind: 'list', span, name };
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

/**
 * A list name (the grammar's `(identChar | ".")*`) that listReference reports nothing on: not
 * empty, no dot at either end or beside another, no uppercase letter. One native match rather
 * than a loop over the name's characters, which runs uncompiled in most processes.
 */
const PLAIN_LIST_NAME = /^[a-z0-9_]+(?:\.[a-z0-9_]+)*$/;

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

