/**
 * The fast path of parseExpression and parseValueExpression (parser.ts): a hand-written
 * recursive-descent reading of exactly the PEG in expression.ohm, which builds the same tree
 * and the same problems, in the same order, as the Ohm semantic actions. Ohm stays the grammar
 * of record: the parser uses this parser's result only when it matched the whole input, and
 * otherwise runs Ohm, whose rightmost-failure information the syntax errors are made of. A
 * property test (test/language/fast-parser.test.ts) holds the two to the same verdicts, trees
 * and problems.
 *
 * What a matched literal, operator, list or index means is in parse-semantics.ts, which the
 * Ohm actions in parser.ts call too, so the meaning of the text is written once.
 *
 * How the descent mirrors Ohm:
 * - Syntactic (capitalised) rules skip `[ \r\n\t]*` before each of their parts; lexical rules
 *   (and the `#(indexStep*)` of Operand) skip nothing. A node's span starts after the skipped
 *   spaces and ends after its last part, so no span starts or ends with whitespace (Ohm's
 *   source intervals are the same).
 * - Ordered choice: alternatives are tried in the grammar's order, and a failed alternative
 *   restores the position and drops the problems it pushed, as Ohm's backtracking discards
 *   the nodes whose actions would have pushed them. Problems are pushed in the order the
 *   actions push them, which is left to right with each action after its children. Every
 *   method that fails leaves the position and the problems as it found them.
 * - Lexical rules are plain scans that return where the match ends (or -1); where the
 *   grammar has a lookahead (`~identChar`, `~"="`, `&("#" | "\"")`, `~bareWord`) the scan
 *   checks it.
 * - No text is read twice by the alternatives at one position, so the time is linear in the
 *   text: Comparison reads its operand once whichever way it ends (as Ohm's memo table does),
 *   and where an alternative fails after reading far (a `(`, a `not`, a quantifier, a call),
 *   the alternatives after it fail at its first character.
 * - The recursion (Logical → Unary → `(` Logical `)`, `not` Unary, a call's or quantifier's
 *   Argument) is one level per parenthesis, `not`, call or quantifier: the levels the
 *   reference counts against its limit. A tree deeper than `maxDepth` levels, an attempt
 *   more than one level deeper (which only a failed alternative can make, as in `f(not)`,
 *   where `not` is then a value), or any exception, makes this parser give up, and the caller
 *   runs Ohm, which then behaves as it always has: the scan before parsing can count fewer
 *   levels than there are (`not (a and not (a and …` counts one per parenthesis), and on such
 *   text Ohm's stack may run out where this parser's would not, which makes the text a
 *   nesting error rather than a tree.
 */
import type { Argument, Expression, IndexStep, Literal, Operand, ScalarType, SetLiteral, Span, StringLiteral, Token, Value } from './ast';
import { MAX_RAW_STRING_HASHES } from './grammar';
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
import type { Problem } from './problem';

// ================================================================ the recursive descent

/** The grammar's two start rules: a filter, and a value expression. */
export type StartRule = 'Filter' | 'ValueExpression';

export interface FastParse {
  /** An Expression for `Filter`, an Operand for `ValueExpression`. */
  readonly ast: Expression | Operand;
  readonly problems: readonly Problem[];
}

/**
 * Parses `text` as expression.ohm's `start` rule and builds what the Ohm actions build.
 * Undefined when the text does not match (a syntax error, which only Ohm can describe), or when
 * this parser gives up (nesting past `maxDepth`, or an exception): the caller then runs Ohm.
 */
export function parseFast(text: string, options: ParseOptions, maxDepth: number, start: StartRule = 'Filter'): FastParse | undefined {
  const parser = descent;
  parser.begin(text, options, maxDepth);
  try {
    const ast = start === 'Filter' ? parser.filter() : parser.valueExpression();
    return ast && { ast, problems: parser.problems.length === 0 ? NO_PROBLEMS : parser.problems.slice() };
  } catch {
    // GIVE_UP, a stack overflow, or an error of the semantics, which Ohm's path will then meet
    // in the same functions on the same text (only if it matched there too).
    parser.dropPending();
    return undefined;
  }
}

/**
 * The problems of most parses: none, one array for them all (readonly to the compiler; not frozen,
 * as a frozen array is a kind of its own that every loop over problems would then have to handle).
 */
const NO_PROBLEMS: readonly Problem[] = [];

/** Thrown where this parser stops and leaves the text to Ohm. */
const GIVE_UP = new Error('the fast parser leaves this expression to Ohm');

// Character codes.
const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const BANG = 33; // !
const QUOTE = 34; // "
const HASH = 35; // #
const DOLLAR = 36; // $
const AMPERSAND = 38; // &
const OPEN_PAREN = 40; // (
const CLOSE_PAREN = 41; // )
const STAR = 42; // *
const COMMA = 44; // ,
const MINUS = 45; // -
const DOT = 46; // .
const SLASH = 47; // /
const DIGIT_0 = 48; // 0
const COLON = 58; // :
const LESS = 60; // <
const EQUALS = 61; // =
const GREATER = 62; // >
const UPPER_A = 65; // A
const OPEN_BRACKET = 91; // [
const BACKSLASH = 92; // \
const CLOSE_BRACKET = 93; // ]
const CARET = 94; // ^
const UNDERSCORE = 95; // _
const LOWER_A = 97; // a
const LOWER_M = 109; // m
const LOWER_O = 111; // o
const LOWER_R = 114; // r
const LOWER_X = 120; // x
const OPEN_BRACE = 123; // {
const BAR = 124; // |
const CLOSE_BRACE = 125; // }
const TILDE = 126; // ~

// Character classes of the lexical rules, by code unit (none includes a character past ASCII).
const IDENT = 1; // identChar: a-z A-Z 0-9 _
const DIGIT = 4; // asciiDigit
const HEX = 8; // 0-9 a-f A-F
const CLASSES = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const digit = c >= DIGIT_0 && c <= DIGIT_0 + 9;
  const lower = c >= LOWER_A && c <= LOWER_A + 25;
  const upper = c >= UPPER_A && c <= UPPER_A + 25;
  const alnum = digit || lower || upper;
  const hexLetter = (lower && c <= LOWER_A + 5) || (upper && c <= UPPER_A + 5);
  CLASSES[c] =
    (alnum || c === UNDERSCORE ? IDENT : 0) | (digit ? DIGIT : 0) | (digit || hexLetter ? HEX : 0);
}

/**
 * The runs of the lexical rules, matched at a position (sticky): a native scan costs a fraction
 * of a loop over the characters, which runs uncompiled (or baseline-compiled) in most processes.
 */
const IDENT_RUN = /[a-zA-Z0-9_]*/y; // identChar*
const DOTTED_RUN = /(?:\.[a-zA-Z0-9_]+)*/y; // ("." name)*, after a name
const BARE_RUN = /[a-zA-Z0-9.:\-/]*/y; // the characters of bareValue

/** Where the run of `run` that starts at `at` ends (`at` itself when there is none). */
function runEnd(run: RegExp, text: string, at: number): number {
  run.lastIndex = at;
  run.test(text);
  return run.lastIndex;
}

/** `keyword` in the grammar: never a field or function name. */
const KEYWORDS: readonly string[] = [
  'and', 'or', 'xor', 'not', 'in', 'eq', 'ne', 'ge', 'le', 'gt', 'lt',
  'contains', 'matches', 'wildcard', 'strict', 'bitwise_and', 'true', 'false',
];
/** functionName_operatorWord: the keywords that are also names of functions. */
const FUNCTION_KEYWORDS: ReadonlySet<string> = new Set(['contains', 'wildcard']);
/** The word alternatives of `comparisonOp`. */
const OPERATOR_WORDS: ReadonlySet<string> = new Set(['eq', 'ne', 'ge', 'le', 'gt', 'lt', 'in', 'contains', 'matches', 'wildcard', 'bitwise_and']);
/**
 * The keywords by length and first character (at `length * 128 + code`), so that a word of the
 * text is compared in place, with most words (field names) compared with none, rather than
 * copied out to be looked up.
 */
const LONGEST_KEYWORD = Math.max(...KEYWORDS.map((keyword) => keyword.length));
const KEYWORDS_BY_SHAPE: (string[] | undefined)[] = Array.from({ length: (LONGEST_KEYWORD + 1) * 128 }, () => undefined);
for (const keyword of KEYWORDS) (KEYWORDS_BY_SHAPE[keyword.length * 128 + keyword.charCodeAt(0)] ??= []).push(keyword);

/** What closes a raw string with n `#`: `"` and the same n `#`. */
const closingFences: string[] = [];
function closingFence(hashes: number): string {
  return (closingFences[hashes] ??= `"${'#'.repeat(hashes)}`);
}

function isIdent(c: number): boolean {
  return c < 128 && (CLASSES[c] & IDENT) !== 0;
}

function isHex(c: number): boolean {
  return c < 128 && (CLASSES[c] & HEX) !== 0;
}

function isDigit(c: number): boolean {
  return c < 128 && (CLASSES[c] & DIGIT) !== 0;
}

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB;
}

/** The keyword that the run of identChars [at, end) of `text` is, or undefined. */
function keywordAt(text: string, at: number, end: number): string | undefined {
  const length = end - at;
  const c = text.charCodeAt(at);
  const candidates = length <= LONGEST_KEYWORD && c < 128 ? KEYWORDS_BY_SHAPE[length * 128 + c] : undefined;
  if (candidates === undefined) return undefined;
  for (let i = 0; i < candidates.length; i++) if (text.startsWith(candidates[i], at)) return candidates[i];
  return undefined;
}

class Descent {
  /** The problems of this parse so far: copied out at its end (the parser keeps this array for the next). */
  readonly problems: Problem[] = [];
  // Lists of the tree (operands, set items, arguments, steps) are gathered on these stacks, nested
  // lists above their parents', and spliced off whole: an array grown by push keeps room for 17
  // items, which the tree would keep for the whole run.
  private readonly pendingExpressions: Expression[] = [];
  private readonly pendingOperators: Token[] = [];
  private readonly pendingArguments: Argument[] = [];
  private readonly pendingLiterals: Literal[] = [];
  private readonly pendingSteps: IndexStep[] = [];
  private text = '';
  private length = 0;
  private options: ParseOptions = { operandType: () => undefined };
  private maxDepth = 0;
  private pos = 0;
  private depth = 0;

  /** Sets this parser up to read `text` from its start. */
  begin(text: string, options: ParseOptions, maxDepth: number): void {
    // Setting an array's length is a call into the runtime: done only when there is something to drop.
    if (this.problems.length !== 0) this.problems.length = 0;
    this.text = text;
    this.length = text.length;
    this.options = options;
    this.maxDepth = maxDepth;
    this.pos = 0;
    this.depth = 0;
  }

  /** Empties the stacks of lists, which a parse that threw may have left holding what it was gathering. */
  dropPending(): void {
    this.pendingExpressions.length = 0;
    this.pendingOperators.length = 0;
    this.pendingArguments.length = 0;
    this.pendingLiterals.length = 0;
    this.pendingSteps.length = 0;
  }

  // ---------------------------------------------------------------- syntactic rules
  // Spans are made apart from their nodes: an object literal inside another is copied from its
  // template by a call into the runtime, some 500 instructions more than two flat literals.

  /** Filter = Logical end */
  filter(): Expression | undefined {
    this.skip();
    const expression = this.logical();
    if (!expression) return undefined;
    this.skip();
    return this.pos === this.length ? expression : undefined;
  }

  /** ValueExpression = Operand end */
  valueExpression(): Operand | undefined {
    this.skip();
    const operand = this.operand();
    if (!operand) return undefined;
    this.skip();
    return this.pos === this.length ? operand : undefined;
  }

  /** One level deeper: a `(`, `not`, call or quantifier being tried. */
  private enter(): void {
    // One level past the limit is left to the attempt, which may fail and leave a tree within it.
    if (++this.depth > this.maxDepth + 1) throw GIVE_UP;
  }

  /** Back out of a level: `built` when its node is in the tree, which then may be no deeper than the limit. */
  private leave(built: boolean): void {
    if (built && this.depth > this.maxDepth) throw GIVE_UP;
    this.depth--;
  }

  /** Logical = Unary (logicalOp Unary)* */
  private logical(): Expression | undefined {
    const first = this.unary();
    if (!first) return undefined;
    const operands = this.pendingExpressions;
    const operators = this.pendingOperators;
    const operandsBase = operands.length;
    const operatorsBase = operators.length;
    for (;;) {
      const before = this.pos;
      this.skip();
      const start = this.pos;
      const written = this.logicalOperatorAt(start);
      if (written === undefined) {
        this.pos = before;
        break;
      }
      const mark = this.problems.length;
      const end = start + written.length;
      this.pos = end;
      const operand = this.unary();
      if (!operand) {
        this.pos = before;
        this.problems.length = mark;
        break;
      }
      if (operands.length === operandsBase) operands.push(first);
      operands.push(operand);
      const span: Span = { start, end };
      operators.push({ text: written, span });
    }
    // Most logical operands are one comparison each: no arrays for them.
    return operators.length === operatorsBase ? first : byPrecedence(operands.splice(operandsBase), operators.splice(operatorsBase));
  }

  /** Unary = Quantifier | Comparison | notOp Unary -- not | "(" Logical ")" -- group | booleanLiteral */
  private unary(): Expression | undefined {
    const entry = this.pos;
    const mark = this.problems.length;
    this.skip();
    const start = this.pos;
    const c = this.text.charCodeAt(start);
    if (c === LOWER_A) {
      const quantifier = this.quantifier(start);
      if (quantifier) return quantifier;
    }
    // A comparison starts with its operand's name: a `(` or a `!` is none.
    if (c < 128 && (CLASSES[c] & IDENT) !== 0) {
      const comparison = this.comparison();
      if (comparison) return comparison;
    }
    const notEnd = this.notOpEnd(start);
    const open = c === OPEN_PAREN;
    if (notEnd >= 0 || open) {
      this.enter();
      if (notEnd >= 0) {
        this.pos = notEnd;
        const operand = this.unary();
        if (operand) {
          this.leave(true);
          const span: Span = { start, end: this.pos };
          return { kind: 'not', span, operatorToken: this.token(start, notEnd), operand };
        }
      } else {
        this.pos = start + 1;
        const inner = this.logical();
        if (inner) {
          this.skip();
          if (this.text.charCodeAt(this.pos) === CLOSE_PAREN) {
            this.pos++;
            this.leave(true);
            const span: Span = { start, end: this.pos };
            return { kind: 'group', span, inner };
          }
          this.problems.length = mark;
        }
      }
      this.leave(false);
      this.pos = start;
    }
    // booleanLiteral = ("true" | "false") ~identChar
    const end = this.wordEnd(start, 'true') >= 0 ? start + 4 : this.wordEnd(start, 'false') >= 0 ? start + 5 : -1;
    if (end >= 0) {
      this.pos = end;
      const span: Span = { start, end };
      return { kind: 'boolean', span, value: end - start === 4 };
    }
    this.pos = entry;
    return undefined;
  }

  /** Quantifier = quantifierName "(" Argument ")", at `start` (its spaces skipped). */
  private quantifier(start: number): Expression | undefined {
    const nameEnd = this.quantifierNameEnd(start);
    if (nameEnd < 0) return undefined;
    this.pos = nameEnd;
    this.skip();
    if (this.text.charCodeAt(this.pos) !== OPEN_PAREN) {
      this.pos = start;
      return undefined;
    }
    const mark = this.problems.length;
    this.enter();
    this.pos++;
    const argument = this.argument();
    if (argument) {
      this.skip();
      if (this.text.charCodeAt(this.pos) === CLOSE_PAREN) {
        this.pos++;
        this.leave(true);
        const span: Span = { start, end: this.pos };
        return { kind: 'quantifier', span, name: this.token(start, nameEnd), argument };
      }
    }
    this.leave(false);
    this.problems.length = mark;
    this.pos = start;
    return undefined;
  }

  /**
   * Comparison = Operand (regexOp regexString | comparisonOp Value)?
   * Called with the spaces before it skipped.
   */
  private comparison(): Expression | undefined {
    const start = this.pos;
    const lhs = this.operand();
    if (!lhs) return undefined;
    const lhsEnd = this.pos;
    this.skip();
    const at = this.pos;
    const c = this.text.charCodeAt(at);
    const regexOperator = c === TILDE || c === LOWER_M ? this.regexOperatorAt(at) : undefined;
    if (regexOperator !== undefined) {
      const regexOperatorEnd = at + regexOperator.length;
      this.pos = regexOperatorEnd;
      this.skip();
      if (this.text.charCodeAt(this.pos) === QUOTE) {
        const operator = comparisonOperatorToken(regexOperator, { start: at, end: regexOperatorEnd }, this.problems);
        const rhs = this.regexString();
        const span: Span = { start, end: this.pos };
        return { kind: 'comparison', span, lhs, operator, rhs };
      }
    }
    const written = this.comparisonOperatorAt(at);
    if (written !== undefined) {
      const mark = this.problems.length;
      const operatorEnd = at + written.length;
      const operator = comparisonOperatorToken(written, { start: at, end: operatorEnd }, this.problems);
      this.pos = operatorEnd;
      const rhs = this.value(readingType(this.options, lhs));
      if (rhs) {
        if (operator.operator === 'matches') {
          // regexValue in parser.ts. A quoted string cannot get here (`regexOp regexString`
          // takes every `"` after `~`/`matches`), but were it to, only Ohm's semantics for it
          // would be right.
          if (this.valueKind === QUOTE) throw GIVE_UP;
          if (this.valueKind === RAW_CLOSED && rhs.kind === 'string' && rhs.raw) rawRegexCheck(this.text, rhs, this.problems);
        }
        wildcardCheck(this.text, operator, rhs, this.problems);
        const span: Span = { start, end: this.pos };
        return { kind: 'comparison', span, lhs, operator, rhs };
      }
      this.problems.length = mark;
    }
    this.pos = lhsEnd;
    // A lone operand: the comparison is the operand, and spans what it spans.
    return { kind: 'comparison', span: lhs.span, lhs };
  }

  /** Operand = (Call | field) #(indexStep*), with its spaces skipped. */
  private operand(): Operand | undefined {
    const text = this.text;
    const start = this.pos;
    const nameEnd = runEnd(IDENT_RUN, text, start);
    // The name may be a `field` (`~asciiDigit ~keyword name`), a `functionName` (the same
    // without a quantifier name, or `contains` and `wildcard`), both, or neither. A keyword is
    // one of the words above followed by no identChar: the whole run is one.
    if (nameEnd === start || (CLASSES[text.charCodeAt(start)] & DIGIT) !== 0) return undefined;
    const keyword = keywordAt(text, start, nameEnd);
    if (keyword !== undefined && !FUNCTION_KEYWORDS.has(keyword)) return undefined;
    const field = keyword === undefined;
    const callable = !field || nameEnd - start !== 3 || this.quantifierNameEnd(start) !== nameEnd;
    // A call needs its `(` next (after spaces): a name with a `.` after it is no call's.
    const next = text.charCodeAt(nameEnd);
    let target: Operand | undefined = callable && (next === OPEN_PAREN || (next <= SPACE && isSpace(next))) ? this.call(start, nameEnd) : undefined;
    if (!target) {
      if (!field) return undefined;
      const end = runEnd(DOTTED_RUN, text, nameEnd);
      this.pos = end;
      const span: Span = { start, end };
      target = { kind: 'field', span, name: text.slice(start, end) };
    }
    // Most operands have no step: no array for them.
    if (this.text.charCodeAt(this.pos) !== OPEN_BRACKET) return target;
    const steps = this.pendingSteps;
    const base = steps.length;
    for (let step = this.indexStep(); step; step = this.indexStep()) steps.push(step);
    return indexed(target as Operand & { kind: 'field' | 'call' }, steps.splice(base));
  }

  /** Call = functionName "(" (Argument ("," Argument)*)? ")", the function name already read. */
  private call(start: number, nameEnd: number): Operand | undefined {
    this.pos = nameEnd;
    this.skip();
    if (this.text.charCodeAt(this.pos) !== OPEN_PAREN) {
      this.pos = start;
      return undefined;
    }
    this.enter();
    this.pos++;
    const mark = this.problems.length;
    const args = this.pendingArguments;
    const base = args.length;
    const first = this.argument();
    if (first) {
      args.push(first);
      for (;;) {
        const before = this.pos;
        this.skip();
        if (this.text.charCodeAt(this.pos) === COMMA) {
          this.pos++;
          const next = this.argument();
          if (next) {
            args.push(next);
            continue;
          }
        }
        this.pos = before;
        break;
      }
    }
    this.skip();
    if (this.text.charCodeAt(this.pos) !== CLOSE_PAREN) {
      this.leave(false);
      this.problems.length = mark;
      args.length = base;
      this.pos = start;
      return undefined;
    }
    this.pos++;
    this.leave(true);
    const span: Span = { start, end: this.pos };
    return { kind: 'call', span, name: this.token(start, nameEnd), args: args.splice(base) };
  }

  /** Argument = string | rawString | ~(~logicalStart) Logical | ~bareWord Comparison | bareValue */
  private argument(): Argument | undefined {
    const entry = this.pos;
    this.skip();
    const start = this.pos;
    const c = this.text.charCodeAt(start);
    if (c === QUOTE) return this.quoted(start);
    if (c === LOWER_R) {
      const raw = this.raw(start);
      if (raw) return raw;
    }
    if (this.logicalStart(start)) {
      const logical = this.logical();
      if (logical) return logical;
    }
    if (!this.isBareWord(start)) {
      const comparison = this.comparison();
      if (comparison) return argumentOfComparison(comparison as Expression & { kind: 'comparison' });
    }
    const literal = this.bare(start, undefined, true);
    if (literal) return literal;
    this.pos = entry;
    return undefined;
  }

  /** Which alternative of Value (or SetItem) the last value() call matched. */
  private valueKind = 0;

  /** Value = Set | listRef | rawString | string | bareValue */
  private value(type: ScalarType | undefined): Value | undefined {
    const entry = this.pos;
    this.skip();
    const start = this.pos;
    const c = this.text.charCodeAt(start);
    this.valueKind = c;
    if (c === OPEN_BRACE) {
      const set = this.set(type);
      if (set) return set;
    } else if (c === DOLLAR) {
      const end = this.listRefEnd(start);
      this.pos = end;
      return listReference(this.text, { start, end }, this.problems);
    } else if (c === LOWER_R) {
      const raw = this.raw(start);
      if (raw) {
        this.valueKind = this.rawClosed ? RAW_CLOSED : 0;
        return raw;
      }
    } else if (c === QUOTE) {
      return this.quoted(start);
    }
    this.valueKind = 0;
    const literal = this.bare(start, type, false);
    if (literal) return literal;
    this.pos = entry;
    return undefined;
  }

  /** Set = "{" SetItem* "}", at its `{`. */
  private set(type: ScalarType | undefined): SetLiteral | undefined {
    const start = this.pos;
    const mark = this.problems.length;
    this.pos++;
    const items = this.pendingLiterals;
    const base = items.length;
    for (;;) {
      this.skip();
      // The `}` that closes the set is no item's start.
      if (this.text.charCodeAt(this.pos) === CLOSE_BRACE || !this.setItem(type, items)) break;
    }
    if (this.text.charCodeAt(this.pos) !== CLOSE_BRACE) {
      this.problems.length = mark;
      items.length = base;
      this.pos = start;
      return undefined;
    }
    this.pos++;
    const span: Span = { start, end: this.pos };
    return { kind: 'set', span, items: items.splice(base) };
  }

  /**
   * SetItem = rawString | string | bareValue | listRef | setComma -- comma, at its first
   * character; adds what it reads to `items` (a comma adds nothing) and says whether it matched.
   */
  private setItem(type: ScalarType | undefined, items: Literal[]): boolean {
    const start = this.pos;
    const c = this.text.charCodeAt(start);
    if (c === LOWER_R) {
      const raw = this.raw(start);
      if (raw) {
        items.push(raw);
        return true;
      }
    } else if (c === QUOTE) {
      items.push(this.quoted(start));
      return true;
    } else if (c === DOLLAR) {
      const end = this.listRefEnd(start);
      this.pos = end;
      items.push(listInSet(this.text, { start, end }, this.problems));
      return true;
    } else if (c === COMMA) {
      this.pos = start + 1;
      setComma(this.text, { start, end: start + 1 }, this.problems);
      return true;
    }
    const literal = this.bare(start, type, false);
    if (!literal) return false;
    items.push(literal);
    return true;
  }

  // ---------------------------------------------------------------- lexical rules

  /** `spaces`, skipped before each part of a syntactic rule. */
  private skip(): void {
    // Reads stop at the text's end rather than at the NaN past it: the optimised code of a
    // scan that reads past the end is thrown away the first time it does (an early deopt).
    const text = this.text;
    const length = this.length;
    let pos = this.pos;
    while (pos < length) {
      const c = text.charCodeAt(pos);
      if (c === SPACE || c === LF || c === CR || c === TAB) pos++;
      else break;
    }
    this.pos = pos;
  }

  private token(start: number, end: number): Token {
    const span: Span = { start, end };
    return { text: this.text.slice(start, end), span };
  }

  /** The end of `word` at `at` when it is there and no identChar follows, else -1. */
  private wordEnd(at: number, word: string): number {
    const end = at + word.length;
    return this.text.startsWith(word, at) && !isIdent(this.text.charCodeAt(end)) ? end : -1;
  }

  /** quantifierName = ("any" | "all") ~identChar: its end, or -1. */
  private quantifierNameEnd(at: number): number {
    const text = this.text;
    if (text.charCodeAt(at) !== LOWER_A || !(text.startsWith('any', at) || text.startsWith('all', at)) || isIdent(text.charCodeAt(at + 3))) return -1;
    return at + 3;
  }

  /** logicalStart = "(" | notOp | quantifierName spaces "(" -- quantifier, as a lookahead at `at`. */
  private logicalStart(at: number): boolean {
    if (this.text.charCodeAt(at) === OPEN_PAREN || this.notOpEnd(at) >= 0) return true;
    let end = this.quantifierNameEnd(at);
    if (end < 0) return false;
    while (isSpace(this.text.charCodeAt(end))) end++;
    return this.text.charCodeAt(end) === OPEN_PAREN;
  }

  /** bareWord = name ("." name)* ("." | ":" | "-" | "/"), as a lookahead at `at`. */
  private isBareWord(at: number): boolean {
    const nameEnd = runEnd(IDENT_RUN, this.text, at);
    if (nameEnd === at) return false;
    const c = this.text.charCodeAt(runEnd(DOTTED_RUN, this.text, nameEnd));
    return c === DOT || c === COLON || c === MINUS || c === SLASH;
  }

  /**
   * indexStep = "[" spaces indexKey spaces "]", right at the position (Operand's `#(…)` skips
   * no space before it), with
   *   indexKey = "*" -- each | string -- key | arrayIndex -- element
   *   arrayIndex = "0x" hexDigit+ ~identChar -- hex | "-"? asciiDigit+ ~identChar -- decimal
   * The step, or undefined (the position unchanged) when there is none.
   */
  private indexStep(): IndexStep | undefined {
    const text = this.text;
    const start = this.pos;
    if (text.charCodeAt(start) !== OPEN_BRACKET) return undefined;
    let keyStart = start + 1;
    while (isSpace(text.charCodeAt(keyStart))) keyStart++;
    const c = text.charCodeAt(keyStart);
    let keyEnd = -1;
    if (c === STAR) {
      keyEnd = keyStart + 1;
    } else if (c === QUOTE) {
      // An unterminated string runs to the end of the text, where no `]` can follow.
      keyEnd = this.quotedEnd(keyStart);
      if (keyEnd < 0) return undefined;
    } else if (c === DIGIT_0 && text.charCodeAt(keyStart + 1) === LOWER_X && isHex(text.charCodeAt(keyStart + 2))) {
      keyEnd = keyStart + 3;
      while (isHex(text.charCodeAt(keyEnd))) keyEnd++;
    } else {
      const digits = c === MINUS ? keyStart + 1 : keyStart;
      keyEnd = digits;
      while (isDigit(text.charCodeAt(keyEnd))) keyEnd++;
      if (keyEnd === digits) return undefined;
    }
    // The lookahead `~identChar` after an array index (`[1a]` is none).
    if (c !== STAR && c !== QUOTE && isIdent(text.charCodeAt(keyEnd))) return undefined;
    let close = keyEnd;
    while (isSpace(text.charCodeAt(close))) close++;
    if (text.charCodeAt(close) !== CLOSE_BRACKET) return undefined;
    const span: Span = { start, end: close + 1 };
    const keySpan: Span = { start: keyStart, end: keyEnd };
    this.pos = close + 1;
    if (c === STAR) return { kind: 'each', span };
    if (c === QUOTE) return mapKeyStep(text, span, keySpan, this.problems);
    return arrayIndexStep(text, span, keySpan, this.problems);
  }

  /**
   * logicalOp = "||" | "^^" | "&&" | ("or" | "xor" | "and") ~identChar: the operator as written
   * at `at` (a constant string, so that no token copies it out of the text), or undefined.
   */
  private logicalOperatorAt(at: number): string | undefined {
    const text = this.text;
    const c = text.charCodeAt(at);
    switch (c) {
      case BAR:
        return text.charCodeAt(at + 1) === c ? '||' : undefined;
      case CARET:
        return text.charCodeAt(at + 1) === c ? '^^' : undefined;
      case AMPERSAND:
        return text.charCodeAt(at + 1) === c ? '&&' : undefined;
      case LOWER_A:
        return this.wordEnd(at, 'and') >= 0 ? 'and' : undefined;
      case LOWER_O:
        return this.wordEnd(at, 'or') >= 0 ? 'or' : undefined;
      case LOWER_X:
        return this.wordEnd(at, 'xor') >= 0 ? 'xor' : undefined;
    }
    return undefined;
  }

  /** notOp = "!" ~"=" | "not" ~identChar */
  private notOpEnd(at: number): number {
    const c = this.text.charCodeAt(at);
    if (c === BANG) return this.text.charCodeAt(at + 1) === EQUALS ? -1 : at + 1;
    return this.wordEnd(at, 'not');
  }

  /** regexOp = "~" | "matches" ~identChar: the operator as written at `at`, or undefined. */
  private regexOperatorAt(at: number): string | undefined {
    const c = this.text.charCodeAt(at);
    if (c === TILDE) return '~';
    return c === LOWER_M && this.wordEnd(at, 'matches') >= 0 ? 'matches' : undefined;
  }

  /**
   * comparisonOp = "==" | "!=" | ">=" | "<=" | ">" | "<" | "~" | "&" ~"&" | "=" ~"=" -- single
   *              | (eq | ne | … | bitwise_and) ~identChar -- word
   *              | "strict" (" " | "\r" | "\n" | "\t")+ "wildcard" ~identChar -- strictWildcard
   * The operator as written at `at` (a constant string but for `strict … wildcard`), or undefined.
   */
  private comparisonOperatorAt(at: number): string | undefined {
    const text = this.text;
    const c = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    switch (c) {
      case EQUALS:
        return next === EQUALS ? '==' : '='; // "=" ~"=" (single)
      case BANG:
        return next === EQUALS ? '!=' : undefined;
      case GREATER:
        return next === EQUALS ? '>=' : '>';
      case LESS:
        return next === EQUALS ? '<=' : '<';
      case TILDE:
        return '~';
      case AMPERSAND:
        return next === AMPERSAND ? undefined : '&';
    }
    const end = runEnd(IDENT_RUN, text, at);
    const keyword = keywordAt(text, at, end);
    if (keyword !== undefined && OPERATOR_WORDS.has(keyword)) return keyword;
    if (keyword === 'strict') {
      let gap = end;
      for (;;) {
        const s = text.charCodeAt(gap);
        if (s === SPACE || s === CR || s === LF || s === TAB) gap++;
        else break;
      }
      const wildcardEnd = gap > end ? this.wordEnd(gap, 'wildcard') : -1;
      if (wildcardEnd >= 0) return text.slice(at, wildcardEnd);
    }
    return undefined;
  }

  /** listRef = "$" (identChar | ".")*, at its `$`: its end. */
  private listRefEnd(at: number): number {
    let end = at + 1;
    for (;;) {
      const c = this.text.charCodeAt(end);
      if (c === DOT || (c < 128 && (CLASSES[c] & IDENT) !== 0)) end++;
      else return end;
    }
  }

  /**
   * bareValue = ("a".."z" | "A".."Z" | "0".."9" | "." | ":" | "-" | "/")+, read by `type`, or
   * as a call's argument is (argumentValue).
   */
  private bare(start: number, type: ScalarType | undefined, argument: boolean): Literal | undefined {
    const text = this.text;
    const end = runEnd(BARE_RUN, text, start);
    if (end === start) return undefined;
    this.pos = end;
    return argument ? argumentValue(text, { start, end }, this.problems) : bareValue(text, { start, end }, type, this.problems);
  }

  /** The end of the closed string that starts at `start` (its `"`), or -1 when it runs to the end of the text. */
  private quotedEnd(start: number): number {
    const text = this.text;
    const length = this.length;
    // Most strings hold no `\`: their end is the next `"`, found natively.
    const quote = text.indexOf('"', start + 1);
    if (quote < 0) return -1;
    const backslash = text.indexOf('\\', start + 1);
    if (backslash < 0 || backslash > quote) return quote + 1;
    let i = backslash;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) return i + 1;
      // `"\\" any`; a `\` at the very end is no escape, and only the unterminated alternative takes it.
      i += c === BACKSLASH ? 2 : 1;
    }
    return -1;
  }

  /**
   * string = "\"" stringChar* "\"" -- closed | "\"" (stringChar | "\\")* end -- unterminated,
   * at its `"`. It always matches: without a closing quote it runs to the end of the text.
   */
  private quoted(start: number): Literal {
    const end = this.quotedEnd(start);
    this.pos = end < 0 ? this.length : end;
    return quotedString(this.text, { start, end: this.pos }, end >= 0, this.problems);
  }

  /** Whether the last raw string read was closed. */
  private rawClosed = false;

  /**
   * rawString = "r" &("#" | "\"") rawStringClosed -- closed | "r" "#"* "\"" any* end -- unterminated,
   * at its `r`. rawStringClosed is one alternative per fence length 0..255, of which only the one
   * with as many `#` as stand after the `r` can match; past 255 `#` only the unterminated one can.
   */
  private raw(start: number): StringLiteral | undefined {
    const text = this.text;
    let quote = start + 1;
    while (text.charCodeAt(quote) === HASH) quote++;
    if (text.charCodeAt(quote) !== QUOTE) return undefined;
    const hashes = quote - start - 1;
    if (hashes <= MAX_RAW_STRING_HASHES) {
      const close = text.indexOf(closingFence(hashes), quote + 1);
      if (close >= 0) {
        this.pos = close + 1 + hashes;
        this.rawClosed = true;
        return rawString(text, { start, end: this.pos }, true, this.problems);
      }
    }
    this.pos = this.length;
    this.rawClosed = false;
    return rawString(text, { start, end: this.length }, false, this.problems);
  }

  /**
   * regexString = "\"" (regexClass | ~"[" stringChar)* "\"" -- closed | "\"" any* end -- unterminated
   * regexClass = "[" (stringChar_escape | ~"]" any)* "]"
   * at its `"`. It always matches; the value is the regex (regexLiteral).
   */
  private regexString(): Value {
    const text = this.text;
    const length = this.length;
    const start = this.pos;
    let i = start + 1;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return regexLiteral({ start, end: i + 1 }, text.slice(start + 1, i), start + 1, false, this.problems);
      }
      if (c === BACKSLASH) {
        if (i + 1 >= length) break;
        i += 2;
      } else if (c === OPEN_BRACKET) {
        // A class must close: otherwise `~"["` stops the loop at its `[`, and the closed alternative fails there.
        let j = i + 1;
        for (;;) {
          if (j >= length) break;
          const d = text.charCodeAt(j);
          if (d === CLOSE_BRACKET) break;
          j += d === BACKSLASH && j + 1 < length ? 2 : 1;
        }
        if (j >= length) break;
        i = j + 1;
      } else {
        i++;
      }
    }
    this.pos = length;
    return regexLiteral({ start, end: length }, text.slice(start + 1), start + 1, true, this.problems);
  }
}

/** valueKind of a closed raw string (other kinds are the value's first character code). */
const RAW_CLOSED = -1;

/**
 * The one parser every parse uses, set up anew by each (begin): a parse runs to its end before
 * the next starts, as nothing it calls parses. A parser made for each parse, with its fields,
 * cost as much as reading a short comparison.
 */
const descent = new Descent();
