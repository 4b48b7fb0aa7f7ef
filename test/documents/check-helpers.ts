/** What the document checks share: a check with a fresh cache, problems as positions, fixes applied. */
import assert from 'node:assert/strict';

import { ExpressionCache } from '../../server/src/documents/expression-cache';
import type { DocumentEdit } from '../../server/src/documents/host/host-edits';
import type { HostFormat } from '../../server/src/documents/host/host';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { toPositions, type PositionedProblem } from '../../server/src/documents/positions';
import { checkRuleset, type RulesetCheckOptions } from '../../server/src/documents/ruleset';

export type At = [line: number, character: number, endLine: number, endCharacter: number];

export function checkProblems(text: string, format: HostFormat, options: RulesetCheckOptions = {}): DocumentProblem[] {
  return checkRuleset(text, format, { cache: new ExpressionCache(), ...options });
}

export function check(text: string, format: HostFormat, options: RulesetCheckOptions = {}): PositionedProblem[] {
  return toPositions(text, checkProblems(text, format, options));
}

export function at(p: PositionedProblem): At {
  return [p.range.start.line, p.range.start.character, p.range.end.line, p.range.end.character];
}

/** Every problem as `[code, line, character, endLine, endCharacter]`, in document order. */
export function located(problems: readonly PositionedProblem[]): [string, ...At][] {
  return problems.map((p) => [p.code, ...at(p)]);
}

export function withCode(problems: readonly PositionedProblem[], code: string): PositionedProblem[] {
  return problems.filter((p) => p.code === code);
}

export function one(problems: readonly PositionedProblem[], code: string): PositionedProblem {
  const found = withCode(problems, code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(problems, null, 1)}`);
  return found[0];
}

export function codes(problems: readonly PositionedProblem[]): string[] {
  return problems.map((p) => `${p.severity} ${p.code}`);
}

export function applyDocumentEdits(text: string, edits: readonly DocumentEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let result = text;
  for (const edit of sorted) {
    assert.ok(edit.start >= 0 && edit.start <= edit.end && edit.end <= text.length, 'edit inside the document');
    result = result.slice(0, edit.start) + edit.newText + result.slice(edit.end);
  }
  return result;
}

/** The document after the first fix of the one problem with this code. */
export function fixed(text: string, format: HostFormat, code: string, fixIndex = 0): string {
  const problems = checkProblems(text, format).filter((p) => p.code === code);
  assert.equal(problems.length, 1, `one ${code} in ${JSON.stringify(text)}`);
  const fix = problems[0].fixes?.[fixIndex];
  assert.ok(fix, `${code} has a fix`);
  return applyDocumentEdits(text, fix.edits);
}

/** The range of the `occurrence`-th `needle` in the text, as [line, character, endLine, endCharacter]. */
export function where(text: string, needle: string, occurrence = 1): At {
  let index = -1;
  for (let i = 0; i < occurrence; i++) {
    index = text.indexOf(needle, index + 1);
    assert.ok(index >= 0, `${JSON.stringify(needle)} (${occurrence}) in the text`);
  }
  const position = (offset: number): [number, number] => {
    const before = text.slice(0, offset);
    const line = before.split('\n').length - 1;
    return [line, offset - (before.lastIndexOf('\n') + 1)];
  };
  return [...position(index), ...position(index + needle.length)];
}

/** A JSON ruleset of the phase (a zone's, unless `kind` says otherwise) holding `rules`. */
export function jsonRuleset(phase: string, rules: readonly object[], kind = 'zone'): string {
  return JSON.stringify({ name: 'x', kind, phase, rules }, null, 2);
}

/** A YAML ruleset of the phase; `rules` are the lines after `rules:`, as written. */
export function yamlRuleset(phase: string, rules: string, kind = 'zone'): string {
  return `name: x\nkind: ${kind}\nphase: ${phase}\nrules:\n${rules}`;
}

/** The document after the fix titled `title` of its one problem; it then checks clean. */
export function fixedClean(text: string, format: HostFormat, title: string): string {
  const problems = checkProblems(text, format);
  assert.equal(problems.length, 1, JSON.stringify(problems, null, 1));
  const fix = problems[0].fixes?.find((f) => f.title === title);
  assert.ok(fix, `a fix "${title}" among ${JSON.stringify(problems[0].fixes?.map((f) => f.title))}`);
  const after = applyDocumentEdits(text, fix.edits);
  assert.deepEqual(check(after, format), [], after);
  return after;
}
