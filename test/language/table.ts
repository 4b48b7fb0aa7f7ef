/**
 * The machinery of the table tests of expressions (expressions.test.ts, http-checks.test.ts).
 *
 * Each row is an expression as a user writes it, with the span of every expected problem
 * marked ⟦like this⟧ (⟦⟧ marks an empty span, e.g. at the end of the expression). Strip the
 * markers to get the input. A row without markers expects no problems at all; a row with
 * markers expects exactly those problems, all with the row's code and severity.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { checkExpression, checkValueExpression, type CheckOptions, type ListKind } from '../../server/src/language/checker';
import type { Plan } from '../../server/src/language/catalogue/plans';
import type { ValueType } from '../../server/src/language/ast';
import type { ExpressionEdit, Problem, Severity } from '../../server/src/language/problem';

const OPEN = '⟦';
const CLOSE = '⟧';

interface Span {
  start: number;
  end: number;
}

/** The input without markers, and the marked spans in input coordinates. */
export function unmark(marked: string): { input: string; spans: Span[] } {
  let input = '';
  const spans: Span[] = [];
  let open: number | undefined;
  for (const c of marked) {
    if (c === OPEN) {
      assert.equal(open, undefined, `nested ${OPEN} in ${marked}`);
      open = input.length;
    } else if (c === CLOSE) {
      assert.notEqual(open, undefined, `${CLOSE} without ${OPEN} in ${marked}`);
      spans.push({ start: open!, end: input.length });
      open = undefined;
    } else {
      input += c;
    }
  }
  assert.equal(open, undefined, `unclosed ${OPEN} in ${marked}`);
  return { input, spans };
}

export function mark(input: string, span: Span): string {
  return `${input.slice(0, span.start)}${OPEN}${input.slice(span.start, span.end)}${CLOSE}${input.slice(span.end)}`;
}

export function applyEdits(text: string, edits: readonly ExpressionEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.span.start - a.span.start);
  for (const edit of sorted) text = text.slice(0, edit.span.start) + edit.newText + text.slice(edit.span.end);
  return text;
}

export interface RowOptions {
  /** Default `magic_transit`; null checks without a phase. */
  readonly phase?: string | null;
  readonly knownLists?: readonly string[];
  /** The kinds of the account's lists, by name. */
  readonly listKinds?: Readonly<Record<string, ListKind>>;
  readonly plan?: Plan;
  /** Checked as a value expression (checkValueExpression) that takes these types, rather than as a filter. */
  readonly value?: readonly ValueType[] | true;
  /** Every expected problem's message matches each of these. */
  readonly message?: RegExp | readonly RegExp[];
  /** The input after applying the first fix of the first expected problem. */
  readonly fixed?: string;
  /** Test title, for rows too long to be their own. */
  readonly name?: string;
}

export interface Row extends RowOptions {
  readonly text: string;
  readonly code?: string;
  readonly severity?: Severity;
}

export const ok = (text: string, options: RowOptions = {}): Row => ({ text, ...options });
export const error = (text: string, code: string, options: RowOptions = {}): Row => ({ text, code, severity: 'error', ...options });
export const warning = (text: string, code: string, options: RowOptions = {}): Row => ({ text, code, severity: 'warning', ...options });
export const information = (text: string, code: string, options: RowOptions = {}): Row => ({ text, code, severity: 'information', ...options });

function optionsOf(row: RowOptions): CheckOptions {
  return {
    phase: row.phase === null ? undefined : (row.phase ?? 'magic_transit'),
    knownLists: row.knownLists,
    ...(row.listKinds ? { listKinds: row.listKinds } : {}),
    ...(row.plan ? { plan: row.plan } : {}),
  };
}

/** One problem as the user sees it: code, severity and the marked input. */
export function shown(input: string, p: Problem): string {
  return `${p.code} (${p.severity}) ${mark(input, p.span)}`;
}

/**
 * The style lints (lints.ts, issue 35): what they say of a row written for the checker is the
 * lints' tests' business (lints.test.ts), unless the row is about one of them.
 */
export const STYLE_CODES: ReadonlySet<string> = new Set(['mixed-logical-operators', 'edge-whitespace', 'expression-builder']);

function checkRow(row: Row): void {
  const { input, spans } = unmark(row.text);
  assert.ok(row.code !== undefined || spans.length === 0, 'a row with markers needs a code');
  assert.ok(row.code === undefined || spans.length > 0, 'a row with a code needs markers');
  const result = row.value ? checkValueExpression(input, { ...optionsOf(row), ...(row.value === true ? {} : { expect: row.value }) }) : checkExpression(input, optionsOf(row));
  const actual = result.problems.filter((p) => p.code === row.code || !STYLE_CODES.has(p.code)).map((p) => shown(input, p)).sort();
  const expected = spans.map((span) => `${row.code} (${row.severity}) ${mark(input, span)}`).sort();
  assert.deepEqual(actual, expected);
  if (spans.length === 0) assert.ok(result.ast, 'a valid expression has a tree');
  for (const p of result.problems.filter((p) => p.code === row.code || !STYLE_CODES.has(p.code))) {
    for (const pattern of [row.message ?? []].flat()) assert.match(p.message, pattern);
    assert.ok(p.span.start >= 0 && p.span.start <= p.span.end && p.span.end <= input.length, 'span inside the expression');
  }
  if (row.fixed !== undefined) {
    const first = [...result.problems].find((p) => p.code === row.code)!;
    assert.ok(first.fixes && first.fixes.length > 0, `${row.code} offers a fix`);
    assert.equal(applyEdits(input, first.fixes[0].edits), row.fixed);
  }
}

export function table(title: string, rows: readonly Row[]): void {
  describe(title, () => {
    for (const row of rows) it(row.name ?? JSON.stringify(row.text).slice(1, -1), () => checkRow(row));
  });
}

