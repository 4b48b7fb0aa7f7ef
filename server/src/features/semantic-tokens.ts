import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver';
import { isExpression, isOperand, walkExpression, type Argument, type Comparison, type Expression, type Operand, type ScalarType, type Literal, type Span, type Token } from '../language/ast';
import { catalogueFor, type Catalogue } from '../language/catalogue/catalogues';
import { isScalarType } from '../language/types';
import { MANAGED_LIST_NAMESPACE } from '../language/catalogue/lists';
import { COMPARISON_OPERATORS, comparisonOperatorOf, LOGICAL_OPERATOR_BY_SPELLING } from '../language/catalogue/operators';
import { isSpace, KEYWORDS, scanTokens } from '../language/lex';
import { readBareValue } from '../language/literals';
import type { DecodedString } from '../documents/host/index';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';
import { phaseScope } from './catalogue-text';

/**
 * Semantic tokens for the expression inside each `expression` string; the JSON or YAML
 * around it is left to the editor's own highlighting.
 *
 * Only standard token types are used, so that every theme colours them:
 *
 * | what                                                    | type       | modifiers                   |
 * |---------------------------------------------------------|------------|-----------------------------|
 * | field (`ip.src`, also a field argument of a function)   | `property` |                             |
 * | function name (`bit_slice`, `lower`)                    | `function` | `defaultLibrary` when the phase has it |
 * | symbol operators `== != < <= > >= ~ & ! && \|\| ^^`     | `operator` |                             |
 * | English operators and keywords: `and or xor not in eq …`| `keyword`  |                             |
 * | quantifiers `any` `all` (logical terms, like `not`)      | `keyword`  |                             |
 * | `*` of an index step `[*]`                              | `operator` |                             |
 * | key of an index step `["x-api-key"]`, index `[0]`       | `string`, `number` |                     |
 * | `contains matches wildcard strict wildcard true false`  | `keyword`  |                             |
 * | integer, integer range `1..1024`                        | `number`   |                             |
 * | IP address, CIDR block, address range                   | `number`   | `ip` (custom)               |
 * | string, raw string, hex bytes `aa:bb`                   | `string`   |                             |
 * | list `$name`                                            | `variable` | `readonly`; `$svc.*` also `defaultLibrary` |
 *
 * Addresses are numbers to a theme (they are numeric values); the custom `ip` modifier lets
 * an editor colour them apart (`number.ip` in VS Code's `semanticTokenColors`,
 * `@lsp.mod.ip` in Neovim). Unknown modifiers are ignored by clients, so the token still
 * gets the number colour everywhere. Punctuation (`( ) { } [ ] ,`) gets no token: the TextMate
 * grammar scopes it (`punctuation.section.index.*` for the brackets of an index step).
 *
 * Positions: each token's decoded span is mapped through the string's offset map, so a
 * token covers all of its source (`\"BR\"` in JSON is one string token of six characters).
 * A token whose source crosses a line break (a folded or block YAML scalar) is split into
 * one token per line; the line break itself and the indentation are not part of any token.
 *
 * An expression with a syntax error has no tree; it is coloured by a lexical scan that
 * follows the grammar's token rules, so everything before the error (and, as far as
 * the scan can tell, after it) keeps its colour while typing.
 *
 * These are the legend's token types, in order: all standard (`SemanticTokenTypes`).
 */
export const TOKEN_TYPES = ['property', 'operator', 'keyword', 'number', 'string', 'variable', 'function'] as const;

/** The custom modifier of IP addresses, CIDR blocks and address ranges (on `number`). */
export const IP_MODIFIER = 'ip';

/** Two standard modifiers (`SemanticTokenModifiers`) and the custom `ip`, in legend order. */
export const TOKEN_MODIFIERS = ['readonly', 'defaultLibrary', IP_MODIFIER] as const;

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

export type TokenType = (typeof TOKEN_TYPES)[number];
export type TokenModifier = (typeof TOKEN_MODIFIERS)[number];

/** A token of one expression, in offsets of its decoded text. */
export interface ExpressionToken {
  readonly start: number;
  readonly end: number;
  readonly type: TokenType;
  readonly modifiers: readonly TokenModifier[];
}

/** A token of the document, on one line: offsets into the document text. */
interface DocumentToken {
  readonly start: number;
  readonly end: number;
  readonly type: number;
  readonly modifiers: number;
}

const MANAGED_LIST_PREFIX = `${MANAGED_LIST_NAMESPACE}.`;

// ---------------------------------------------------------------- expression tokens

/**
 * The tokens of one expression, sorted and not overlapping: from its syntax tree when it
 * parsed (a filter's expression, or a value expression's operand), else from a lexical scan
 * of the text.
 */
export function expressionTokens(text: string, ast: Expression | Operand | undefined, catalogue: Catalogue = catalogueFor(undefined)): ExpressionToken[] {
  const tokens = !ast ? textTokens(text, catalogue) : isOperand(ast) ? valueTokens(ast, text, catalogue) : treeTokens(ast, text, catalogue);
  tokens.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: ExpressionToken[] = [];
  for (const token of tokens) {
    if (token.end <= token.start || token.start < 0 || token.end > text.length) continue;
    if (out.length > 0 && token.start < out[out.length - 1].end) continue;
    out.push(token);
  }
  return out;
}

function token(span: Span, type: TokenType, modifiers: readonly TokenModifier[] = []): ExpressionToken {
  return { start: span.start, end: span.end, type, modifiers };
}

/** `and`, `not`, `strict wildcard` are keywords (one token a word); `&&`, `!`, `==` operators. */
function operatorTokens(op: Token, out: ExpressionToken[]): void {
  if (!/^[a-z_]/i.test(op.text)) {
    out.push(token(op.span, 'operator'));
    return;
  }
  for (const word of op.text.matchAll(/[A-Za-z_]+/g)) {
    const start = op.span.start + word.index!;
    out.push(token({ start, end: start + word[0].length }, 'keyword'));
  }
}

function listToken(span: Span, name: string): ExpressionToken {
  return token(span, 'variable', name.startsWith(MANAGED_LIST_PREFIX) ? ['readonly', 'defaultLibrary'] : ['readonly']);
}

function functionToken(span: Span, name: string, catalogue: Catalogue): ExpressionToken {
  const fn = catalogue.functions.get(name);
  return token(span, 'function', fn && !fn.quantifier ? ['defaultLibrary'] : []);
}

/** `any` and `all` before `(`: logical terms, coloured as `not` is. */
function isQuantifier(name: string): boolean {
  return name === 'any' || name === 'all';
}

function literalToken(literal: Literal): ExpressionToken | undefined {
  switch (literal.kind) {
    case 'integer':
    case 'integer-range':
      return token(literal.span, 'number');
    case 'ip':
    case 'ip-range':
      return token(literal.span, 'number', [IP_MODIFIER]);
    case 'string':
    case 'bytes':
      return token(literal.span, 'string');
    case 'invalid':
      return invalidToken(literal.span, literal.text);
  }
}

/**
 * A value that is wrong for its place (an address after a port field, a string with a bad
 * escape) is still coloured as what it looks like; a word that is no value at all is not.
 */
function invalidToken(span: Span, text: string): ExpressionToken | undefined {
  if (text.startsWith('"') || /^r#*"/.test(text)) return token(span, 'string');
  if (text.startsWith('$')) return listToken(span, text.slice(1));
  // `tcp.flags.syn == true`: the parser reads a value, the author wrote the keyword.
  if (text === 'true' || text === 'false') return token(span, 'keyword');
  const byShape = readBareValue(text, span, undefined).literal;
  if (byShape.kind !== 'invalid') return literalToken(byShape);
  // Out-of-range and malformed numbers (`080`, `99999999999999999999`, `0x`).
  if (/^-?[0-9][0-9a-fA-Fx]*$/.test(text)) return token(span, 'number');
  return undefined;
}

function treeTokens(root: Expression, text: string, catalogue: Catalogue): ExpressionToken[] {
  const out: ExpressionToken[] = [];
  walkExpression(root, (node) => {
    switch (node.kind) {
      case 'logical':
        for (const op of node.operatorTokens) operatorTokens(op, out);
        break;
      case 'not':
        operatorTokens(node.operatorToken, out);
        break;
      case 'boolean':
        out.push(token(node.span, 'keyword'));
        break;
      case 'comparison':
        comparisonTokens(node, out, text, catalogue);
        break;
      case 'quantifier':
        out.push(token(node.name.span, 'keyword'));
        // A comparison inside is visited on its own; an operand alone (`any(x[*])`) is not.
        if (isOperand(node.argument)) operandTokens(node.argument, out, text, catalogue);
        break;
      case 'group':
        break;
    }
  });
  return out;
}

/** A value expression: its operand, and the logical expressions among its calls' arguments. */
function valueTokens(root: Operand, text: string, catalogue: Catalogue): ExpressionToken[] {
  const out: ExpressionToken[] = [];
  const nested: Expression[] = [];
  operandTokens(root, out, text, catalogue, nested);
  for (const expression of nested) out.push(...treeTokens(expression, text, catalogue));
  return out;
}

/**
 * A field, a call with its arguments, an index expression with its steps: in a loop, since
 * calls nest as deep as the user writes them. Logical expressions among the arguments are
 * walkExpression's to visit (when it walks the whole expression), or go to `expressions`.
 */
function operandTokens(operand: Operand, out: ExpressionToken[], text: string, catalogue: Catalogue, expressions?: Expression[]): void {
  const stack: Argument[] = [operand];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isExpression(node)) {
      expressions?.push(node);
      continue;
    }
    switch (node.kind) {
      case 'field':
        out.push(token(node.span, 'property'));
        break;
      case 'call':
        out.push(functionToken(node.name.span, node.name.text, catalogue));
        for (const arg of node.args) stack.push(arg);
        break;
      case 'index':
        stack.push(node.target);
        for (const step of node.steps) {
          if (step.kind === 'key') out.push(token(step.keySpan, 'string'));
          else if (step.kind === 'element') out.push(token(step.indexSpan, 'number'));
          else {
            const star = text.indexOf('*', step.span.start);
            if (star >= 0 && star < step.span.end) out.push(token({ start: star, end: star + 1 }, 'operator'));
          }
        }
        break;
      default: {
        const t = literalToken(node);
        if (t) out.push(t);
      }
    }
  }
}

function comparisonTokens(node: Comparison, out: ExpressionToken[], text: string, catalogue: Catalogue): void {
  const { lhs, operator, rhs } = node;
  operandTokens(lhs, out, text, catalogue);
  if (operator) operatorTokens(operator, out);
  if (!rhs) return;
  if (rhs.kind === 'list') {
    out.push(listToken(rhs.span, rhs.name));
  } else if (rhs.kind === 'set') {
    for (const item of rhs.items) {
      const t = literalToken(item);
      if (t) out.push(t);
    }
  } else {
    const t = literalToken(rhs);
    if (t) out.push(t);
  }
}

// ---------------------------------------------------------------- lexical scan

/** The words that stand between a left side and its value (`strict` is only half of one). */
const COMPARISON_WORDS: ReadonlySet<string> = new Set([...COMPARISON_OPERATORS.values()].flatMap((info) => info.spellings).filter((s) => /^[a-z_]+$/.test(s)));
/** Names as the grammar reads a field or function name, and bare values: a word of the lexer is either, by context. */
const NAME = /[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]*)*/y;
const BARE_VALUE = /[A-Za-z0-9.:\-/]+/y;

function match(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/**
 * Tokens of an expression that did not parse, from the lexer's tokens and just enough
 * context to tell a field from a value (after a comparison operator, inside `{}`) and to
 * read a bare value by the type of the field before it, as the parser does. Linear in the
 * text, never fails.
 */
function textTokens(text: string, catalogue: Catalogue): ExpressionToken[] {
  const out: ExpressionToken[] = [];
  let expectValue = false;
  let inSet = false;
  /** Inside the brackets of an index step (`[`, right after a name, a `)` or a `]`). */
  let inIndex = false;
  let indexable = false;
  const parens: ('call' | 'group')[] = [];
  let afterFunctionName = false;
  let lhsType: ScalarType | undefined;
  const inCall = () => parens[parens.length - 1] === 'call';
  const afterValue = () => {
    if (!inSet) expectValue = false;
  };

  /** A word of the lexer: field and function names, keywords and bare values, read by context. */
  const readWord = (start: number, end: number) => {
    let i = start;
    while (i < end) {
      const c = text[i];
      afterFunctionName = false;
      const word = match(NAME, text, i);
      // A value after an operator or in a set; a number anywhere (a function's argument).
      const valueMode = expectValue || inSet || /[0-9-]/.test(c);
      if (word && KEYWORDS.has(word) && !inSet) {
        out.push(token({ start: i, end: i + word.length }, 'keyword'));
        expectValue = COMPARISON_WORDS.has(word);
        i += word.length;
        continue;
      }
      if (valueMode) {
        const bare = match(BARE_VALUE, text, i);
        if (bare) {
          const span = { start: i, end: i + bare.length };
          const t = literalToken(readBareValue(bare, span, inCall() ? undefined : lhsType).literal);
          if (t) out.push(t);
          i += bare.length;
          afterValue();
          continue;
        }
      } else if (word) {
        const span = { start: i, end: i + word.length };
        i += word.length;
        let next = i;
        while (isSpace(text[next])) next++;
        if (text[next] === '(' && isQuantifier(word)) {
          out.push(token(span, 'keyword'));
        } else if (text[next] === '(') {
          out.push(functionToken(span, word, catalogue));
          afterFunctionName = true;
          if (!inCall()) lhsType = scalarResult(catalogue, word);
        } else if (KEYWORDS.has(word.toLowerCase())) {
          // A miscased keyword (`AND`): the parser reads a field name, the author meant the keyword.
        } else {
          out.push(token(span, 'property'));
          if (!inCall()) lhsType = scalarType(catalogue.fields.get(word)?.type);
          indexable = text[i] === '[';
        }
        continue;
      }
      // `.`, `_`, …: no token.
      i++;
    }
  };

  // Word by word: `strict` and `wildcard` are two keywords to colour, as on the tree.
  for (const t of scanTokens(text, { strictWildcardAsWords: true })) {
    const callOpens = afterFunctionName;
    afterFunctionName = false;
    const canIndex = indexable;
    indexable = false;
    if (inIndex) {
      // Inside `[…]`: a key (a string), an index (a number) or `*`, then `]`.
      if (t.kind === 'string' || t.kind === 'raw-string') out.push(token(t.span, 'string'));
      else if (t.kind === 'word' && /^[0-9]+$/.test(t.text)) out.push(token(t.span, 'number'));
      else if (t.text === '*') out.push(token(t.span, 'operator'));
      else if (t.text === ']') {
        inIndex = false;
        indexable = text[t.span.end] === '[';
      } else inIndex = false;
      if (inIndex || t.text === ']') continue;
    }
    if (t.text === '[' && canIndex) {
      inIndex = true;
      continue;
    }
    switch (t.kind) {
      case 'word':
        readWord(t.span.start, t.span.end);
        break;
      case 'string':
      case 'raw-string':
        out.push(token(t.span, 'string'));
        afterValue();
        break;
      case 'list':
        out.push(listToken(t.span, t.text.slice(1)));
        afterValue();
        break;
      case '{':
      case '}':
        inSet = t.kind === '{';
        expectValue = inSet;
        break;
      case '(':
        parens.push(callOpens ? 'call' : 'group');
        expectValue = false;
        break;
      case ')':
        parens.pop();
        expectValue = false;
        indexable = text[t.span.end] === '[';
        break;
      case 'symbol': {
        const symbol = t.text;
        const logical = LOGICAL_OPERATOR_BY_SPELLING.has(symbol);
        // A lone `|` or `^` is no operator.
        if (!logical && symbol !== '!' && comparisonOperatorOf(symbol) === undefined) break;
        out.push(token(t.span, 'operator'));
        // `!` and the logical operators are followed by an operand, the others by a value.
        expectValue = !logical && symbol !== '!';
        if (!expectValue) inSet = false;
        break;
      }
      case 'other':
        // The language has no comments: what follows a `#` is not read as code.
        if (t.text === '#') return out;
        break;
      case ',':
        break;
    }
  }
  return out;
}

/** A scalar type, for reading a bare value by it; an array or a map reads none. */
function scalarType(type: string | undefined): ScalarType | undefined {
  return type !== undefined && isScalarType(type as ScalarType) ? (type as ScalarType) : undefined;
}

/** What a call at the left of a comparison gives, to read the value after it; Integer when unknown, as before. */
function scalarResult(catalogue: Catalogue, name: string): ScalarType | undefined {
  const fn = catalogue.functions.get(name);
  if (!fn) return 'Integer';
  return fn.result === 'first-argument' ? undefined : scalarType(fn.result);
}

// ---------------------------------------------------------------- document tokens

/** A map that sends every unit to the whole scalar (the decoder could not follow it). */
function isCoarse(decoded: DecodedString): boolean {
  if ((decoded as { exact?: boolean }).exact === false) return true;
  const n = decoded.value.length;
  return n > 1 && decoded.starts[0] === decoded.starts[n - 1] && decoded.ends[0] === decoded.ends[n - 1];
}

function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return true;
  }
  return false;
}

/**
 * Maps an expression token to the document: one token per line of its source. A unit whose
 * source is a line break (a folded space, a kept `\n`) belongs to no token.
 */
function mapToken(text: string, decoded: DecodedString, t: ExpressionToken, type: number, modifiers: number, out: DocumentToken[]): void {
  let segStart = -1;
  let segEnd = -1;
  const flush = () => {
    if (segStart >= 0 && segEnd > segStart) out.push({ start: segStart, end: segEnd, type, modifiers });
    segStart = -1;
  };
  for (let u = t.start; u < t.end; u++) {
    const s = decoded.starts[u];
    const e = decoded.ends[u];
    if (hasLineBreak(text, s, e)) {
      flush();
      continue;
    }
    if (segStart < 0) {
      segStart = s;
      segEnd = e;
    } else if (s >= segEnd && hasLineBreak(text, segEnd, s)) {
      flush();
      segStart = s;
      segEnd = e;
    } else {
      segEnd = Math.max(segEnd, e);
    }
  }
  flush();
}

const TYPE_INDEX = new Map<string, number>(TOKEN_TYPES.map((t, i) => [t, i]));
const MODIFIER_BIT = new Map<string, number>(TOKEN_MODIFIERS.map((m, i) => [m, 1 << i]));

/** The semantic tokens of every expression of a ruleset document (in its parameters too), in LSP's relative encoding. */
export function semanticTokens(model: DocumentModel, settings: Settings): SemanticTokens {
  if (!model.isRuleset(settings)) return { data: [] };
  const text = model.text;
  const tokens: DocumentToken[] = [];
  for (const site of model.sites) {
    const { catalogue } = phaseScope(model, settings, site.node.start);
    const decoded = site.decoded();
    if (decoded.value !== site.text || isCoarse(decoded)) continue;
    const { ast } = model.check(site, settings);
    for (const t of expressionTokens(site.text, ast, catalogue)) {
      const modifiers = t.modifiers.reduce((bits, m) => bits | (MODIFIER_BIT.get(m) ?? 0), 0);
      mapToken(text, decoded, t, TYPE_INDEX.get(t.type)!, modifiers, tokens);
    }
  }
  tokens.sort((a, b) => a.start - b.start || a.end - b.end);
  const data: number[] = [];
  let previousLine = 0;
  let previousCharacter = 0;
  let previousEnd = -1;
  for (const t of tokens) {
    if (t.start < previousEnd) continue;
    // On one line by construction, so the length in the document is the length in UTF-16 units.
    const start = model.positionAt(t.start);
    const deltaLine = start.line - previousLine;
    const deltaStart = deltaLine === 0 ? start.character - previousCharacter : start.character;
    data.push(deltaLine, deltaStart, t.end - t.start, t.type, t.modifiers);
    previousLine = start.line;
    previousCharacter = start.character;
    previousEnd = t.end;
  }
  return { data };
}
