import type { Span } from './ast';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A text edit inside the expression (spans are offsets into the decoded expression). */
export interface ExpressionEdit {
  readonly span: Span;
  readonly newText: string;
}

export interface Fix {
  readonly title: string;
  readonly edits: readonly ExpressionEdit[];
}

/**
 * One finding about an expression. `code` is stable (tests, suppressions and quick fixes
 * key on it); `message` says what was expected and what was found.
 */
export interface Problem {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly span: Span;
  /** Edits that make this problem go away, best first. */
  readonly fixes?: readonly Fix[];
  /** Other places in the expression that explain the problem (the set member that covers this one). */
  readonly related?: readonly { readonly span: Span; readonly message: string }[];
}

/** Whether any of `problems` is an error: what the service would refuse. */
export function hasError(problems: readonly { readonly severity: Severity }[]): boolean {
  // A loop, not some(): called for every expression of a file, and most have no problem at all.
  for (const p of problems) if (p.severity === 'error') return true;
  return false;
}

export function problem(code: string, severity: Severity, span: Span, message: string, fixes?: readonly Fix[]): Problem {
  return fixes && fixes.length > 0 ? { code, severity, span, message, fixes } : { code, severity, span, message };
}

export function replaceFix(title: string, span: Span, newText: string): Fix {
  return { title, edits: [{ span, newText }] };
}

/**
 * A span of code in a message: text between a pair of backticks, the opening one at the start
 * or after a space, bracket or slash, the closing one at the end or before a space, bracket,
 * slash or punctuation, and the text neither starting nor ending with a space unless it is all
 * spaces (a key ` `). So a backtick inside quoted code (`"a`b"`, or a backtick quoted as
 * ```) is part of the span, and a lone backtick is left as it is.
 */
const CODE_SPAN = /(?<=^|[\s([{/])`(\S(?:.*?\S)??|\s+)`(?=$|[\s)\]},.;:!?/])/gu;

/**
 * The core's text as LSP clients show it. Messages, related information and code action
 * titles are plain text: the Problems panel and the quick fix menu show Markdown backticks as
 * they are. The core writes code in backticks, which the CLI prints and hovers render; here a
 * span `x` becomes ‘x’. Typographic quotes, as no expression uses them: "…" and '…' would run
 * into the expression's own quotes (`"tcp"` is ‘"tcp"’, not ""tcp"").
 */
export function plainText(text: string): string {
  return text.includes('`') ? text.replace(CODE_SPAN, '‘$1’') : text;
}

export { PROBLEM_CODES, type ProblemCodeInfo } from './problem-codes';
