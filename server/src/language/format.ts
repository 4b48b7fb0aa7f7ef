/**
 * The canonical printer of expressions: an AST and the text it was parsed from in, the same
 * expression in canonical spacing out. Only whitespace between tokens changes; every token
 * is copied from the source, so the printed text parses to the same tree.
 *
 * The canonical convention:
 * - the expression is one line, without leading or trailing whitespace;
 * - one space on each side of a logical operator (`a and b`, `a && b`) and of a comparison
 *   operator (`ip.src in {…}`, `tcp.flags & 0x02`, `a == 1`);
 * - operators keep the spelling they were written with (`&&` stays `&&`, `eq` stays `eq`);
 *   only the gap inside `strict wildcard` shrinks to one space;
 * - `not x` with one space; `!x` with none (`!` is punctuation, as in most languages);
 * - groups without inner padding: `(a or b)`;
 * - sets without padding inside the braces and one space between items: `{22 80 443}`,
 *   and `{}` when empty;
 * - calls and `any(…)`/`all(…)` without a space before `(` and with `, ` between arguments:
 *   `bit_slice(udp, 64, 72)`; an argument that is a comparison or a logical expression is
 *   printed as one is anywhere (`concat(x == "a")`, `any((a) or b)`);
 * - index steps without spaces, inside or before their brackets: `http.request.headers["x"][0]`,
 *   `x[*]`;
 * - literals (numbers, addresses, ranges, strings, raw strings, byte strings, lists, `true`,
 *   `false`) are copied exactly as written, never printed from their values: `0x1F` stays
 *   `0x1F`, `"\x41"` stays `"\x41"`, and whatever is inside a string is untouched.
 *
 * The printer needs a tree that holds every token of the text. A comma in a set is reported
 * and dropped by the parser, so only an expression that parses without errors is formatted
 * (see `formatExpression`).
 */
import type { Argument, Comparison, Expression, Span } from './ast';
import { FIELDS } from './catalogue/fields';
import { parseExpression, type ParseOptions } from './parser';
import { hasError } from './problem';

/** Prints `root`, parsed from `source`, in canonical spacing. */
export function printExpression(root: Expression, source: string): string {
  // The static analyses print every comparison they meet, and the expression cache every
  // expression: those of a field, the common case, without the machinery below.
  if (root.kind === 'comparison' && root.lhs.kind === 'field') return comparisonText(root.lhs.name, root, source);
  // Most expressions are written canonically already: while what is printed matches the source,
  // nothing is built but the offset where the source's match ends (`at`); at the first
  // difference, what matched is copied and the rest is built.
  let at = root.span.start;
  let out: string | undefined;
  const write = (piece: string) => {
    if (out !== undefined) out += piece;
    else if (source.startsWith(piece, at)) at += piece.length;
    else out = source.slice(root.span.start, at) + piece;
  };
  // A stack of what is left to print, last first: text as it is, or a node. A loop rather
  // than recursion: calls and quantifiers nest in arguments as deep as the parser read them.
  const work: (string | Argument)[] = [root];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === 'string') {
      write(item);
      continue;
    }
    switch (item.kind) {
      case 'logical':
        for (let i = item.operands.length - 1; i >= 0; i--) {
          work.push(item.operands[i]);
          if (i > 0) work.push(` ${item.operatorTokens[i - 1].text} `);
        }
        break;
      case 'not': {
        const op = item.operatorToken.text;
        work.push(item.operand);
        write(op === '!' ? '!' : `${op} `);
        break;
      }
      case 'group':
        work.push(')', item.inner);
        write('(');
        break;
      case 'comparison':
        if (item.lhs.kind === 'field') write(comparisonText(item.lhs.name, item, source));
        else if (item.operator && item.rhs) work.push(comparisonRest(item, source), item.lhs);
        else work.push(item.lhs);
        break;
      case 'quantifier':
        work.push(')', item.argument);
        write(`${item.name.text}(`);
        break;
      case 'field':
        write(item.name);
        break;
      case 'call':
        work.push(')');
        for (let i = item.args.length - 1; i >= 0; i--) {
          work.push(item.args[i]);
          if (i > 0) work.push(', ');
        }
        write(`${item.name.text}(`);
        break;
      case 'index': {
        let steps = '';
        for (const step of item.steps) {
          const inner = step.kind === 'key' ? step.keySpan : step.kind === 'element' ? step.indexSpan : undefined;
          steps += inner ? `[${source.slice(inner.start, inner.end)}]` : '[*]';
        }
        work.push(steps, item.target);
        break;
      }
      default:
        // A literal argument: as written.
        write(source.slice(item.span.start, item.span.end));
        break;
    }
  }
  return out ?? source.slice(root.span.start, at);
}

/** A comparison of a field, whose name is `lhs`: ` op value` after it, when it has them. */
function comparisonText(lhs: string, comparison: Comparison, source: string): string {
  if (!comparison.operator || !comparison.rhs) return lhs;
  // Most comparisons are written canonically already: their text is the printed one, with no new string built.
  if (writtenCanonically(comparison, source)) return source.slice(comparison.lhs.span.start, comparison.rhs.span.end);
  return lhs + comparisonRest(comparison, source);
}

/**
 * Whether a comparison of a field with a value is spaced as the printer spaces it: one space
 * around the operator (written as one token, or `strict wildcard` with one space), and a set
 * with one space between members and none inside its braces. Every token is the source's, so
 * the source between the field and the value is then the printed text.
 */
function writtenCanonically(comparison: Comparison, source: string): boolean {
  const { lhs, operator, rhs } = comparison;
  if (operator!.span.start !== lhs.span.end + 1 || rhs!.span.start !== operator!.span.end + 1) return false;
  if (source.charCodeAt(lhs.span.end) !== SPACE || source.charCodeAt(operator!.span.end) !== SPACE) return false;
  if (operator!.operator === 'strict_wildcard' && operator!.text !== 'strict wildcard') return false;
  if (rhs!.kind !== 'set') return true;
  const items = rhs!.items;
  // Where the next member must start.
  let at = rhs!.span.start + 1;
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && source.charCodeAt(at++) !== SPACE) return false;
    if (items[i].span.start !== at) return false;
    at = items[i].span.end;
  }
  return rhs!.span.end === at + 1;
}

const SPACE = 0x20;

/** ` op value` of a comparison: the operator as written (`strict wildcard` with one space), and the value. */
function comparisonRest(comparison: Comparison, source: string): string {
  const rhs = comparison.rhs!;
  const operator = comparison.operator!;
  // Only `strict wildcard` is spelled with whitespace.
  let out = ` ${operator.operator === 'strict_wildcard' ? operator.text.replace(/\s+/g, ' ') : operator.text} `;
  if (rhs.kind !== 'set') return out + source.slice(rhs.span.start, rhs.span.end);
  out += '{';
  const items = rhs.items;
  for (let i = 0; i < items.length; i++) out += (i > 0 ? ' ' : '') + source.slice(items[i].span.start, items[i].span.end);
  return `${out}}`;
}

export interface FormatResult {
  /** The expression in canonical spacing. */
  readonly text: string;
  /** Where the expression proper lies in the source (leading and trailing whitespace excluded). */
  readonly span: Span;
  /** Whether the source (whitespace around the expression included) already is canonical. */
  readonly unchanged: boolean;
}

const CATALOGUE_TYPES: ParseOptions = { fieldType: (name) => FIELDS.get(name)?.type };

/**
 * Formats an expression's text, or returns undefined when it does not parse without errors
 * (a syntax error, a comma in a set, a malformed literal…): formatting is offered only where
 * the result is certain to mean what the source means.
 *
 * Field types only decide how literals are read, and literals are copied as written, so the
 * catalogue's types serve for every phase.
 */
export function formatExpression(source: string, options: ParseOptions = CATALOGUE_TYPES): FormatResult | undefined {
  const cached = recent.get(source);
  if (cached !== undefined && options === CATALOGUE_TYPES) return cached ?? undefined;
  const parsed = parseExpression(source, options);
  let result: FormatResult | null = null;
  if (parsed.ast && !hasError(parsed.problems)) {
    const text = printExpression(parsed.ast, source);
    result = { text, span: parsed.ast.span, unchanged: text === source };
  }
  if (options === CATALOGUE_TYPES) remember(source, result);
  return result ?? undefined;
}

// Code actions are asked for on every cursor move: the last few answers are kept.
const RECENT_CAPACITY = 64;
const recent = new Map<string, FormatResult | null>();

function remember(source: string, result: FormatResult | null): void {
  if (recent.size >= RECENT_CAPACITY) recent.delete(recent.keys().next().value!);
  recent.set(source, result);
}
