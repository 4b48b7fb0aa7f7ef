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
 * - calls without a space before `(` and with `, ` between arguments: `bit_slice(udp, 64, 72)`;
 * - literals (numbers, addresses, ranges, strings, raw strings, byte strings, lists, `true`,
 *   `false`) are copied exactly as written, never printed from their values: `0x1F` stays
 *   `0x1F`, `"\x41"` stays `"\x41"`, and whatever is inside a string is untouched.
 *
 * The printer needs a tree that holds every token of the text. A comma in a set is reported
 * and dropped by the parser, so only an expression that parses without errors is formatted
 * (see `formatExpression`).
 */
import type { Argument, Expression, Literal, Operand, Span, Value } from './ast';
import { FIELDS } from './catalogue/fields';
import { parseExpression, type ParseOptions } from './parser';

/** Prints `root`, parsed from `source`, in canonical spacing. */
export function printExpression(root: Expression, source: string): string {
  const out: string[] = [];
  const text = (span: Span) => source.slice(span.start, span.end);

  const operand = (node: Operand | Argument): void => {
    if (node.kind === 'field') out.push(node.name);
    else if (node.kind === 'call') {
      out.push(node.name.text, '(');
      node.args.forEach((arg, i) => {
        if (i > 0) out.push(', ');
        operand(arg);
      });
      out.push(')');
    } else out.push(text(node.span));
  };

  const value = (node: Value): void => {
    if (node.kind === 'set') {
      out.push('{');
      node.items.forEach((item: Literal, i) => {
        if (i > 0) out.push(' ');
        out.push(text(item.span));
      });
      out.push('}');
    } else out.push(text(node.span));
  };

  // Recursive: the parser bounds the nesting (128 levels of parentheses and `not`), and a
  // chain of `and`s is one flat node.
  const expression = (node: Expression): void => {
    switch (node.kind) {
      case 'logical':
        node.operands.forEach((child, i) => {
          if (i > 0) out.push(' ', node.operatorTokens[i - 1].text, ' ');
          expression(child);
        });
        return;
      case 'not': {
        const op = node.operatorToken.text;
        out.push(op === '!' ? '!' : `${op} `);
        expression(node.operand);
        return;
      }
      case 'group':
        out.push('(');
        expression(node.inner);
        out.push(')');
        return;
      case 'boolean':
        out.push(text(node.span));
        return;
      case 'comparison':
        operand(node.lhs);
        if (node.operator && node.rhs) {
          out.push(' ', node.operator.text.replace(/\s+/g, ' '), ' ');
          value(node.rhs);
        }
        return;
    }
  };

  expression(root);
  return out.join('');
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
  if (parsed.ast && !parsed.problems.some((p) => p.severity === 'error')) {
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
