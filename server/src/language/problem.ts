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

export function problem(code: string, severity: Severity, span: Span, message: string, fixes?: readonly Fix[]): Problem {
  return fixes && fixes.length > 0 ? { code, severity, span, message, fixes } : { code, severity, span, message };
}

export function replaceFix(title: string, span: Span, newText: string): Fix {
  return { title, edits: [{ span, newText }] };
}
