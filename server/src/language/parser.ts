import type * as ohm from 'ohm-js';
import type { Argument, Expression, IndexStep, Literal, Operand, ScalarType, SetLiteral, Span, Token, Value } from './ast';
import { LOGICAL_OPERATOR_BY_SPELLING } from './catalogue/operators';
import {
  argumentOfComparison,
  argumentValue,
  arrayIndexStep,
  bareValue,
  byPrecedence,
  comparisonOperatorToken,
  indexed,
  listInSet,
  listReference,
  mapKeyStep,
  quotedString,
  rawRegexCheck,
  rawString,
  readingType,
  regexLiteral,
  setComma,
  wildcardCheck,
  type ParseOptions,
} from './parse-semantics';
import { parseFast, type StartRule } from './fast-parser';
import { grammar } from './grammar';
import { KEYWORDS, scanTokens, type LexicalToken } from './lex';
import { problem, replaceFix, type Problem } from './problem';
import { scanLexicalStructure, type LexicalStructure } from './scan';

/** Longest expression the service accepts (LANGUAGE.md §8). */
export const MAX_EXPRESSION_LENGTH = 4096;
/**
 * Nesting depth limit of the reference parser: each `(`, `not`/`!`, call and `any(…)`/`all(…)`
 * is one level.
 */
export const MAX_NESTING_DEPTH = 128;
/**
 * Past this length an expression is not parsed at all, only reported as too long: the
 * service rejects it anyway, and the parser's memory grows with the input.
 */
const MAX_PARSED_LENGTH = 16 * MAX_EXPRESSION_LENGTH;

export type { ParseOptions };

export interface ParseResult {
  /** Undefined when the expression could not be parsed (a syntax error is among the problems). */
  readonly ast?: Expression;
  readonly problems: readonly Problem[];
}

export interface ValueParseResult {
  /** Undefined when the expression could not be parsed (a syntax error is among the problems). */
  readonly ast?: Operand;
  readonly problems: readonly Problem[];
}

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

/** The type the value on the right of `lhs` is read by. */
function lhsType(lhs: Operand): ScalarType | undefined {
  return readingType(ctx().options, lhs);
}

let built: ohm.Semantics | undefined;

/** The semantic actions, built on first use as the grammar is. */
function semantics(): ohm.Semantics {
  if (!built) {
    built = grammar().createSemantics();
    addOperations(built);
  }
  return built;
}

// The actions only take their nodes apart: what the text means, and its problems, is written
// once in parse-semantics.ts, which fast-parser.ts's recursive descent calls too, in the same
// order, to build the same tree.
function addOperations(semantics: ohm.Semantics): void {
  semantics.addOperation<Expression>('expression', {
    Filter(logical, _end) {
      return logical.expression();
    },
    Logical(first, operators, rest) {
      const operands: Expression[] = [first.expression(), ...rest.children.map((n) => n.expression() as Expression)];
      return byPrecedence(operands, operators.children.map(token));
    },
    Unary_not(operator, operand) {
      return { kind: 'not', span: spanOf(this), operatorToken: token(operator), operand: operand.expression() };
    },
    Unary_group(_open, inner, _close) {
      return { kind: 'group', span: spanOf(this), inner: inner.expression() };
    },
    Quantifier(name, _open, argument, _close) {
      return { kind: 'quantifier', span: spanOf(this), name: token(name), argument: argument.argument() };
    },
    booleanLiteral(word) {
      return { kind: 'boolean', span: spanOf(this), value: word.sourceString === 'true' };
    },
    Comparison(operandNode, operators, values) {
      const lhs: Operand = operandNode.operand();
      if (operators.numChildren === 0) return { kind: 'comparison', span: spanOf(this), lhs };
      const operatorNode = operators.child(0);
      const valueNode = values.child(0);
      const operator = comparisonOperatorToken(operatorNode.sourceString, spanOf(operatorNode), ctx().problems);
      if (operatorNode.ctorName === 'regexOp') {
        // `~`/`matches` and a `"…"` pattern (regexString).
        const alternative = valueNode.children[0];
        const body = alternative.children[1];
        const rhs = regexLiteral(spanOf(valueNode), body.sourceString, body.source.startIdx, alternative.ctorName === 'regexString_unterminated', ctx().problems);
        return { kind: 'comparison', span: spanOf(this), lhs, operator, rhs };
      }
      const type = lhsType(lhs);
      const rhs: Value = operator.operator === 'matches' ? regexValue(valueNode, type) : valueNode.value(type);
      wildcardCheck(valueNode.source.sourceString, operator, rhs, ctx().problems);
      return { kind: 'comparison', span: spanOf(this), lhs, operator, rhs };
    },
  });

  semantics.addOperation<Operand>('operand', {
    ValueExpression(operand, _end) {
      return operand.operand();
    },
    Operand(target, steps) {
      // The target first: its arguments are read (and their problems found) before the steps.
      const read = target.operand() as Operand & { kind: 'field' | 'call' };
      return indexed(read, steps.children.map((step) => step.step() as IndexStep));
    },
    Call(name, _open, first, _commas, rest, _close) {
      // `(Argument ("," Argument)*)?`: the first argument, and the others (one level deeper).
      const nodes = [...first.children, ...rest.children.flatMap((more) => more.children)];
      return { kind: 'call', span: spanOf(this), name: token(name), args: nodes.map((a) => a.argument() as Argument) };
    },
    field(_first, _dots, _rest) {
      return { kind: 'field', span: spanOf(this), name: this.sourceString };
    },
  });

  semantics.addOperation<IndexStep>('step', {
    indexStep(_open, _spaces, key, _spaces2, _close) {
      const alternative = key.children[0];
      const span = spanOf(this);
      if (alternative.ctorName === 'indexKey_each') return { kind: 'each', span };
      if (alternative.ctorName === 'indexKey_key') return mapKeyStep(this.source.sourceString, span, spanOf(alternative), ctx().problems);
      return arrayIndexStep(this.source.sourceString, span, spanOf(alternative), ctx().problems);
    },
  });

  semantics.addOperation<Argument>('argument', {
    Argument(inner) {
      return inner.argument();
    },
    Logical(_first, _operators, _rest) {
      return this.expression();
    },
    Comparison(_operand, _operators, _values) {
      return argumentOfComparison(this.expression());
    },
    string(_) {
      return this.literal(undefined);
    },
    rawString(_) {
      return this.literal(undefined);
    },
    bareValue(_) {
      return argumentValue(this.source.sourceString, spanOf(this), ctx().problems);
    },
  });

  semantics.addOperation<Value>('value(type)', {
    Value(inner) {
      return inner.value(this.args.type);
    },
    Set(_open, items, _close) {
      const type: ScalarType | undefined = this.args.type;
      const literals = items.children.map((item) => item.setItem(type) as Literal | undefined).filter((l): l is Literal => l !== undefined);
      const set: SetLiteral = { kind: 'set', span: spanOf(this), items: literals };
      return set;
    },
    listRef(_dollar, _name) {
      return listReference(this.source.sourceString, spanOf(this), ctx().problems);
    },
    ...LITERAL_BY_TYPE,
  });

  semantics.addOperation<Literal | undefined>('setItem(type)', {
    SetItem(inner) {
      return inner.setItem(this.args.type);
    },
    SetItem_comma(comma) {
      setComma(comma.source.sourceString, spanOf(comma), ctx().problems);
      return undefined;
    },
    listRef(_dollar, _name) {
      return listInSet(this.source.sourceString, spanOf(this), ctx().problems);
    },
    ...LITERAL_BY_TYPE,
  });

  semantics.addOperation<Literal>('literal(type)', {
    string_closed(_open, _chars, _close) {
      return quotedString(this.source.sourceString, spanOf(this), true, ctx().problems);
    },
    string_unterminated(_open, _chars, _end) {
      return quotedString(this.source.sourceString, spanOf(this), false, ctx().problems);
    },
    rawString_closed(_r, _lookahead, _fenced) {
      return rawString(this.source.sourceString, spanOf(this), true, ctx().problems);
    },
    rawString_unterminated(_r, _hashes, _quote, _body, _end) {
      return rawString(this.source.sourceString, spanOf(this), false, ctx().problems);
    },
    bareValue(_) {
      return bareValue(this.source.sourceString, spanOf(this), this.args.type, ctx().problems);
    },
  });
}

/** A single value, wherever it stands, is read by the type passed down from the comparison. */
const LITERAL_BY_TYPE: ohm.ActionDict<Literal> = {
  string(_) {
    return this.literal(this.args.type);
  },
  rawString(_) {
    return this.literal(this.args.type);
  },
  bareValue(_) {
    return this.literal(this.args.type);
  },
};

/**
 * The value after `matches`/`~` when it is not the `"…"` that `regexOp regexString` reads: a
 * quoted string is read as a regex (regexLiteral), a closed raw string's body is the regex.
 */
function regexValue(valueNode: ohm.Node, type: ScalarType | undefined): Value {
  const inner = valueNode.children[0];
  const string = inner?.ctorName === 'string' ? inner.children[0] : undefined;
  if (!string) {
    const value: Value = valueNode.value(type);
    if (value.kind === 'string' && value.raw && inner?.children[0]?.ctorName === 'rawString_closed') rawRegexCheck(valueNode.source.sourceString, value, ctx().problems);
    return value;
  }
  const body = string.children[1];
  return regexLiteral(spanOf(string), body.sourceString, body.source.startIdx, string.ctorName === 'string_unterminated', ctx().problems);
}

/** Parses one filter expression (a rule's `expression`) into its AST and the problems found while reading it. */
export function parseExpression(text: string, options: ParseOptions): ParseResult {
  return parse(text, options, true, 'Filter');
}

/**
 * Parses a value expression (a rewrite, a redirect target, a header value): one field, call
 * or index expression and nothing else, as the reference's value parser reads it.
 */
export function parseValueExpression(text: string, options: ParseOptions): ValueParseResult {
  return parse(text, options, true, 'ValueExpression');
}

/**
 * parseExpression without its fast path: Ohm alone, the grammar of record, which the tests
 * and the benchmark hold the fast path to.
 */
export function parseExpressionWithOhm(text: string, options: ParseOptions): ParseResult {
  return parse(text, options, false, 'Filter');
}

/** parseValueExpression without its fast path (see parseExpressionWithOhm). */
export function parseValueExpressionWithOhm(text: string, options: ParseOptions): ValueParseResult {
  return parse(text, options, false, 'ValueExpression');
}

const EMPTY_MESSAGES: Record<StartRule, string> = {
  Filter: 'expected an expression such as `ip.src in $svc.anonymizer` (or `true`), found nothing',
  ValueExpression: 'expected a value expression such as `lower(http.request.uri.path)`, found nothing',
};

function parse(text: string, options: ParseOptions, fastPath: boolean, start: 'Filter'): ParseResult;
function parse(text: string, options: ParseOptions, fastPath: boolean, start: 'ValueExpression'): ValueParseResult;
function parse(text: string, options: ParseOptions, fastPath: boolean, start: StartRule): ParseResult | ValueParseResult {
  if (isBlank(text)) {
    return { problems: [problem('empty-expression', 'error', { start: 0, end: text.length }, EMPTY_MESSAGES[start])] };
  }
  // The scan is linear and needs no stack, so even text too long to parse gets its
  // nesting and TAB errors: they say what else to fix besides the length.
  const lexical = scanLexicalStructure(text);
  const before = problemsBeforeParse(text, lexical);
  if (lexical.deepest) {
    // The real depth is checked on the tree; this guards the parser's own stack.
    before!.push(nestingTooDeep(lexical.deepest));
    return { problems: before! };
  }
  if (text.length > MAX_PARSED_LENGTH) return { problems: before! };
  if (fastPath) {
    // The recursive descent of the same grammar, some 20 times faster than Ohm. When it does
    // not match the whole text, what it built is dropped and Ohm parses: the syntax error is
    // made of Ohm's rightmost failures.
    const fast = parseFast(text, options, MAX_NESTING_DEPTH, start);
    if (fast) {
      // Almost always there is nothing before the parse's own problems: its result is the answer.
      if (!before) return fast as ParseResult | ValueParseResult;
      before.push(...fast.problems);
      return { ast: fast.ast, problems: before } as ParseResult | ValueParseResult;
    }
  }
  const problems = before ?? [];
  context = { options, problems };
  try {
    // Matching, failure reporting and the semantic actions all recurse on the JS stack; the
    // scan bounds the nesting, and this is the backstop should a stack still run out.
    const match = grammar().match(text, start);
    if (match.failed()) return { problems: [...problems, syntaxError(text, match, start)] };
    const ast: Expression | Operand = start === 'Filter' ? semantics()(match).expression() : semantics()(match).operand();
    return { ast, problems } as ParseResult | ValueParseResult;
  } catch (error) {
    if (error instanceof RangeError) return { problems: [...problems, nestingTooDeep({ start: 0, end: text.length })] };
    throw error;
  } finally {
    context = undefined;
  }
}

/**
 * What is found before the parse: the length past the service's limit, TABs; an array to add
 * the parse's problems to, or undefined when there is none (almost always: no array is made).
 * Always an array when the text is too long or nests too deeply.
 */
function problemsBeforeParse(text: string, lexical: LexicalStructure): Problem[] | undefined {
  if (text.length <= MAX_EXPRESSION_LENGTH && lexical.tabs.length === 0 && !lexical.deepest) return undefined;
  const problems: Problem[] = [];
  if (text.length > MAX_EXPRESSION_LENGTH) {
    problems.push(problem('expression-too-long', 'error', { start: MAX_EXPRESSION_LENGTH, end: text.length }, `the expression is ${text.length} characters long; the service accepts at most ${MAX_EXPRESSION_LENGTH}`));
  }
  for (let i = 0; i < lexical.tabs.length; i++) {
    const tab = lexical.tabs[i];
    problems.push(problem('tab-whitespace', 'error', { start: tab, end: tab + 1 }, 'expected a space, found a TAB; only spaces and line breaks separate tokens', [replaceFix('Replace the TAB with a space', { start: tab, end: tab + 1 }, ' ')]));
  }
  return problems;
}

/** Whether `text` is empty once String.prototype.trim's whitespace is gone, read without making the trimmed copy. */
function isBlank(text: string): boolean {
  // Nearly every expression starts with a letter, a `(` or a `!`, none of them whitespace.
  const first = text.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return false;
  return text.trim() === '';
}

export function nestingTooDeep(span: Span): Problem {
  return problem('nesting-too-deep', 'error', span, `expressions may nest at most ${MAX_NESTING_DEPTH} levels of parentheses and \`not\`; simplify this expression`);
}

// ---------------------------------------------------------------- syntax errors

function foundToken(text: string, position: number): Span {
  if (position >= text.length) return { start: text.length, end: text.length };
  const word = /^(?:[A-Za-z0-9_.:$\-\/]+|[=!<>&|^~]+)/.exec(text.slice(position));
  // One code point, so an emoji is found whole rather than half a surrogate pair.
  return { start: position, end: position + (word ? word[0].length : String.fromCodePoint(text.codePointAt(position)!).length) };
}

function syntaxError(text: string, match: ohm.FailedMatchResult, start: StartRule = 'Filter'): Problem {
  const position = match.getRightmostFailurePosition();
  const span = foundToken(text, position);
  // A keyword run into the next word (`andtcp.flags.syn`): the grammar stops right after the
  // keyword, where a space should be.
  const glued = /(?:^|[^A-Za-z0-9_.$])([a-z_]+)$/.exec(text.slice(0, position));
  if (glued && KEYWORDS.has(glued[1]) && /[A-Za-z0-9_]/.test(text[position] ?? '')) {
    const keyword = glued[1];
    return problem('syntax-error', 'error', span, `expected a space after \`${keyword}\`, found \`${text.slice(span.start, span.end)}\` right after it`, [
      replaceFix(`Add a space after \`${keyword}\``, { start: position, end: position }, ' '),
    ]);
  }
  const found = span.start >= text.length ? 'the end of the expression' : `\`${text.slice(span.start, span.end)}\``;
  const expected = describeExpected(match);
  const borrowed = borrowedSpelling(text, position, expected);
  if (borrowed) return borrowed;
  const word = text.slice(span.start, span.end);
  if (KEYWORDS.has(word.toLowerCase()) && word !== word.toLowerCase()) {
    const lower = word.toLowerCase();
    return problem('syntax-error', 'error', span, `expected ${expected}, found ${found}; keywords are lowercase: \`${lower}\``, [replaceFix(`Change to \`${lower}\``, span, lower)]);
  }
  // A miscased keyword before the failure (`NOT sip`) was read as a field name, so the parse
  // only failed on the token after it; the keyword is what to fix.
  const previous = /(?:^|[^A-Za-z0-9_.$])([A-Za-z_]+)[ \r\n\t]+$/.exec(text.slice(0, position));
  if (previous && KEYWORDS.has(previous[1].toLowerCase()) && previous[1] !== previous[1].toLowerCase()) {
    const keyword = previous[1];
    const start = position - previous[0].length + previous[0].indexOf(keyword);
    const keywordSpan: Span = { start, end: start + keyword.length };
    const lower = keyword.toLowerCase();
    return problem('syntax-error', 'error', keywordSpan, `\`${keyword}\` is not a keyword, so it reads as a field name and ${found} cannot follow it; keywords are lowercase: \`${lower}\``, [replaceFix(`Change to \`${lower}\``, keywordSpan, lower)]);
  }
  if (word === '#') {
    const before = text.slice(0, position);
    if (/"#*$/.test(before) && /(?:^|[^A-Za-z0-9_])r#+"/.test(before)) {
      const fence: Span = { start: position, end: position + /^#*/.exec(text.slice(position))![0].length };
      return problem('syntax-error', 'error', fence, `expected ${expected}, found \`${text.slice(fence.start, fence.end)}\`; a raw string closes at the first \`"\` followed by as many \`#\` as its opening \`r#…"\`, so these \`#\` are left over`);
    }
    return problem('syntax-error', 'error', { start: position, end: text.length }, `expected ${expected}, found \`#\`; expressions have no comments: move the note to the rule's \`description\``);
  }
  // `X & Y` right before a comparison operator. Matched on the reversed text, where the
  // pattern is anchored: an unanchored `(\S+)…$` takes quadratic time on long input.
  const reversed = /^[=!<>]/.test(word) ? reverse(text.slice(0, position)) : '';
  const bitwise = /^\s*([^\s&]+)\s*(?:&|dna_esiwtib)\s*(?!&)(\S+)/.exec(reversed);
  if (bitwise) {
    const test = `${reverse(bitwise[2])} & ${reverse(bitwise[1])}`;
    return problem('syntax-error', 'error', span, `expected ${expected}, found ${found}; \`${test}\` is already a complete test (true when any of those bits is set), so it cannot be compared again`);
  }
  if (start === 'ValueExpression') {
    const grouped = parenthesisedValue(text, position, span, `expected ${expected}, found ${found}`);
    if (grouped) return grouped;
  }
  return callOrIndexMistake(text, position, span, `expected ${expected}, found ${found}`, start) ?? problem('syntax-error', 'error', span, `expected ${expected}, found ${found}`);
}

/**
 * A value expression written in parentheses, `(http.host)`: the reference's value parser reads
 * one field or call with its index steps (wirefilter's `FilterValueAst` is an `IndexExpr`) and no
 * group, so the parentheses are refused. When they enclose the whole expression (at any depth),
 * the error says so, with the fix that removes them where what they hold is a value expression.
 */
function parenthesisedValue(text: string, position: number, span: Span, message: string): Problem | undefined {
  if (text[position] !== '(' || text.slice(0, position).trim() !== '') return undefined;
  const tokens = scanTokens(text);
  // Peel the pairs of parentheses that enclose all the rest: `((x))` is `x` in two.
  let first = 0;
  let last = tokens.length - 1;
  const removed: Span[] = [];
  while (first < last && tokens[first].kind === '(' && tokens[last].kind === ')' && closingOf(tokens, first) === last) {
    removed.push(tokens[first].span, tokens[last].span);
    first++;
    last--;
  }
  if (removed.length === 0) return undefined;
  const inner: Span = { start: removed[removed.length - 2].end, end: removed[removed.length - 1].start };
  const held = text.slice(inner.start, inner.end).trim();
  if (held === '' || grammar().match(held, 'ValueExpression').failed()) {
    return problem('syntax-error', 'error', span, `${message}; a value expression cannot be in parentheses: it is one field, call or index expression, such as \`lower(http.host)\``);
  }
  // From each outer `(` to the text it holds, and from that text's end to the `)`: the spaces
  // inside the parentheses go with them, those outside stay.
  const heldStart = inner.start + (text.slice(inner.start, inner.end).length - text.slice(inner.start, inner.end).trimStart().length);
  const heldEnd = heldStart + held.length;
  const edits = [
    { span: { start: removed[0].start, end: heldStart }, newText: '' },
    { span: { start: heldEnd, end: removed[1].end }, newText: '' },
  ];
  return problem('syntax-error', 'error', span, `${message}; a value expression cannot be in parentheses: write \`${held}\``, [{ title: 'Remove the parentheses', edits }]);
}

/** The index of the `)` that closes the `(` at `open` among `tokens`, or -1. */
function closingOf(tokens: readonly LexicalToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i].kind === '(') depth++;
    else if (tokens[i].kind === ')' && --depth === 0) return i;
  }
  return -1;
}

/** A `[`, a raw string or an unquoted word where an index key goes: what was meant. */
const INDEX_AFTER_SPACE = /^\[[ \r\n\t]*(?:"(?:[^"\\]|\\.)*"|\*|-?[0-9]+|0x[0-9a-fA-F]+)[ \r\n\t]*\]/;
const RAW_KEY = /^r(#*)"([^"\\]*)"\1[ \r\n\t]*\]/;
const UNQUOTED_KEY = /^([A-Za-z_][A-Za-z0-9_.\-]*)[ \r\n\t]*\]/;
const LOGICAL_SPELLINGS: ReadonlySet<string> = new Set(LOGICAL_OPERATOR_BY_SPELLING.keys());
const COMPARISON_START = /^(?:[=!<>~&]|(?:eq|ne|lt|le|gt|ge|in|contains|matches|wildcard|strict|bitwise_and)(?![A-Za-z0-9_]))/;

/**
 * The mistakes of the forms that calls, quantifiers and index steps brought, as a syntax error
 * that says what to write (`message` is the grammar's "expected …, found …"); undefined for
 * any other failure.
 */
function callOrIndexMistake(text: string, position: number, span: Span, message: string, start: StartRule): Problem | undefined {
  const rest = text.slice(position);
  const before = text.slice(0, position);
  // `http.request.headers ["x"]`: the reference takes the `[` of an index right after the name.
  if (rest.startsWith('[') && INDEX_AFTER_SPACE.test(rest)) {
    const gap = /[A-Za-z0-9_)\]]([ \r\n\t]+)$/.exec(before);
    if (gap) {
      const spaces: Span = { start: position - gap[1].length, end: position };
      return problem('syntax-error', 'error', span, `${message}; an index follows its field or call with no space before the \`[\``, [replaceFix('Remove the space before `[`', spaces, '')]);
    }
  }
  const opening = /\[[ \r\n\t]*$/.test(before);
  const raw = opening ? RAW_KEY.exec(rest) : null;
  if (raw) {
    const key: Span = { start: position, end: position + raw[0].replace(/[ \r\n\t]*\]$/, '').length };
    return problem('syntax-error', 'error', key, `${message.replace(/found `r`$/, `found \`${text.slice(key.start, key.end)}\``)}; a map key is a quoted string, never a raw one: \`"${raw[2]}"\``, [replaceFix(`Change to \`"${raw[2]}"\``, key, `"${raw[2]}"`)]);
  }
  const word = opening ? UNQUOTED_KEY.exec(rest) : null;
  if (word) {
    const key: Span = { start: position, end: position + word[1].length };
    return problem('syntax-error', 'error', key, `${message}; map keys are quoted: \`["${word[1]}"]\``, [replaceFix(`Quote it: \`"${word[1]}"\``, key, `"${word[1]}"`)]);
  }
  if (start === 'ValueExpression' && (COMPARISON_START.test(rest) || LOGICAL_SPELLINGS.has(text.slice(span.start, span.end)))) {
    return problem('syntax-error', 'error', span, `${message}; a value expression is one field, call or index expression, such as \`lower(http.host)\`: it compares nothing`);
  }
  const found = text.slice(span.start, span.end);
  const call = LOGICAL_SPELLINGS.has(found) || found === ',' ? enclosingCall(text, position) : undefined;
  if (call && LOGICAL_SPELLINGS.has(found)) {
    return problem('syntax-error', 'error', span, `${message}; an argument of \`${call}(…)\` is at most one comparison: to combine tests in one argument, put them in parentheses`);
  }
  if ((call === 'any' || call === 'all') && found === ',') {
    return problem('syntax-error', 'error', span, `${message}; \`${call}(…)\` takes one argument`);
  }
  const closed = COMPARISON_START.test(rest) ? closedCallLength(before) : 0;
  const quantifier = closed > 0 ? /(?:^|[^A-Za-z0-9_.])(any|all)[ \r\n\t]*$/.exec(before.slice(0, before.length - closed)) : null;
  if (quantifier) {
    return problem('syntax-error', 'error', span, `${message}; \`${quantifier[1]}(…)\` is already a complete test (true when ${quantifier[1] === 'any' ? 'any' : 'every'} value of its argument is true), so it cannot be compared`);
  }
  return undefined;
}

/**
 * The name of the call (or quantifier) whose parentheses `position` is inside, from the tokens
 * before it; undefined inside a group or outside any parentheses.
 */
function enclosingCall(text: string, position: number): string | undefined {
  const open: (string | undefined)[] = [];
  let previous: LexicalToken | undefined;
  for (const token of scanTokens(text, { limit: position })) {
    if (token.span.start >= position) break;
    if (token.kind === '(') open.push(previous?.kind === 'word' && isCallName(previous.text) ? previous.text : undefined);
    else if (token.kind === ')') open.pop();
    previous = token;
  }
  return open[open.length - 1];
}

function isCallName(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(word) && (!KEYWORDS.has(word) || word === 'contains' || word === 'wildcard');
}

/**
 * How much of the end of `before` (spaces aside) is one parenthesised argument list `(…)`:
 * from its `(` to the end, or 0 when `before` does not end with `)`.
 */
function closedCallLength(before: string): number {
  const end = before.trimEnd();
  if (!end.endsWith(')')) return 0;
  // The `(` that the last `)` closes, by the tokens (parentheses inside strings do not count).
  const opens: number[] = [];
  let matched = -1;
  for (const token of scanTokens(end)) {
    if (token.kind === '(') opens.push(token.span.start);
    else if (token.kind === ')') matched = opens.pop() ?? -1;
  }
  return matched < 0 ? 0 : before.length - matched;
}

const TYPOGRAPHIC_QUOTES: Readonly<Record<string, string>> = { '“': '”', '‘': '’', '”': '”', '’': '’' };

/**
 * What users bring from other tools, at the place the parse failed: a string in typographic
 * quotes (pasted from a document) or in single quotes, a list name with `-`. Undefined for
 * anything else.
 */
function borrowedSpelling(text: string, position: number, expected: string): Problem | undefined {
  const char = text[position];
  const closing = TYPOGRAPHIC_QUOTES[char] ?? (char === "'" ? "'" : undefined);
  if (closing) {
    const end = text.indexOf(closing, position + 1);
    if (end < 0) return undefined;
    const span: Span = { start: position, end: end + 1 };
    const straight = JSON.stringify(text.slice(position + 1, end));
    const why = char === "'" ? 'strings are written in double quotes' : 'these are typographic quotes (a word processor or chat put them in); strings are written in straight double quotes';
    return problem('syntax-error', 'error', span, `expected ${expected}, found \`${text.slice(span.start, span.end)}\`; ${why}: \`${straight}\``, [replaceFix(`Change to \`${straight}\``, span, straight)]);
  }
  const list = /\$[A-Za-z0-9_.]+$/.exec(text.slice(0, position));
  const rest = /^(?:-[A-Za-z0-9_.]+)+/.exec(text.slice(position));
  if (list && rest) {
    const span: Span = { start: position - list[0].length, end: position + rest[0].length };
    const name = text.slice(span.start, span.end);
    const fixed = name.replace(/-/g, '_').toLowerCase();
    return problem('syntax-error', 'error', span, `\`${name}\` is not a list name: list names use \`_\`, not \`-\`: \`${fixed}\``, [replaceFix(`Change to \`${fixed}\``, span, fixed)]);
  }
  return undefined;
}

function reverse(text: string): string {
  return [...text].reverse().join('');
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
  'a function name': null,
  'a comma in a set': null,
  '`not`': '`not`',
  '`!`': null,
  '`(`': '`(`',
  '`true`': null,
  '`false`': null,
  '`_`': null,
  'a comparison operator': 'a comparison operator',
  'a value': 'a value',
  '`"`': null,
  '`\\`': null,
  'any character': null,
  '`r`': null,
  'a list such as `$svc.anonymizer`': null,
  '`{`': null,
  // `any(…)`, `all(…)` and an index step `[…]` may follow where a field or a name may: not
  // worth a word in every message that lists what may come next.
  'a quantifier': null,
  '`[`': null,
  '`)`': '`)`',
  '`}`': '`}`',
  '`,`': '`,`',
  'the end of the expression': 'the end of the expression',
};
const LOGICAL = [...LOGICAL_OPERATOR_BY_SPELLING.keys()].map((spelling) => `\`${spelling}\``);

/** Turns the parser's expected terminals into a short, readable list. */
function describeExpected(match: ohm.FailedMatchResult): string {
  const raw = new Set<string>();
  for (const failure of rightmostFailures(match)) {
    // Ohm marks a failure fluffy when the repetition around it ended right there, which
    // depends on whether a space follows (`a)` versus `a )`); the `and` that could have
    // continued is expected either way.
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
    // `not an identChar` and the like come from the lookaheads that end keywords: grammar
    // internals, which syntaxError puts in words where they matter.
    if (name === undefined && !LOGICAL.includes(item) && item !== '' && !/digit|letter|alpha|^not /.test(item)) add(item);
    else if (name && !['a field name', '`not`', '`(`', 'a comparison operator', 'a value', 'the end of the expression'].includes(name)) add(name);
  }
  if (raw.has('the end of the expression')) add('the end of the expression');
  if (items.length === 0) return 'more input';
  if (items.length === 1) return items[0];
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
