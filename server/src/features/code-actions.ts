/**
 * Code actions: the quick fixes that come with problems, "Silence `code` on this line" for a
 * warning in a YAML file (documents/directives.ts), "fix all" for a kind of problem whose fix
 * is unambiguous, and "Format expression".
 *
 * Every edit is a document edit made by the ruleset layer (DocumentProblem.fixes, or
 * `expressionEdit` for formatting), so text that lands inside a JSON or YAML string is
 * already escaped for that string.
 */
import { CodeActionKind, type CodeAction, type CodeActionContext, type Diagnostic, type Range, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver';
import type { DocumentEdit } from '../documents/host/index';
import { silenceFix } from '../documents/directives';
import { v5RewriteAt, v5RewriteTitle } from '../documents/provider-shape';
import { expressionEdit } from '../documents/ruleset';
import type { DocumentFix, DocumentProblem } from '../documents/parsed-ruleset';
import { formatExpression } from '../language/format';
import { DIAGNOSTIC_SOURCE } from '../protocol';
import { toDiagnostic } from './diagnostics';
import { plainText } from '../language/problem';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';

export const FORMAT_EXPRESSION_TITLE = 'Format expression';

export function codeActions(model: DocumentModel, range: Range, context: CodeActionContext, settings: Settings): CodeAction[] {
  if (!model.isRuleset(settings)) return [];
  const start = model.offsetAt(range.start);
  const end = model.offsetAt(range.end);
  const actions: CodeAction[] = [];
  if (wanted(context, CodeActionKind.QuickFix)) actions.push(...quickFixes(model, start, end, context, settings));
  if (wanted(context, CodeActionKind.RefactorRewrite)) {
    const format = formatAction(model, start, end);
    if (format) actions.push(format);
    const rewrite = providerRewriteAction(model, start, actions);
    if (rewrite) actions.push(rewrite);
  }
  return actions;
}

/** Whether the client asked for this kind: no `only`, or an `only` entry that is the kind or a parent of it. */
function wanted(context: CodeActionContext, kind: string): boolean {
  const only = context.only;
  if (!only || only.length === 0) return true;
  return only.some((k) => k === kind || kind.startsWith(`${k}.`));
}

// ---------------------------------------------------------------- quick fixes

/**
 * The fixes of every problem the client names in `context.diagnostics` or that overlaps the
 * range (a client may send no diagnostics, or stale ones), best fix first and preferred.
 */
function quickFixes(model: DocumentModel, start: number, end: number, context: CodeActionContext, settings: Settings): CodeAction[] {
  const problems = model.problems(settings);
  const actions: CodeAction[] = [];
  const offered: DocumentProblem[] = [];
  for (const problem of problems) {
    const range = model.range(problem.start, problem.end);
    const named = context.diagnostics.find((d) => isDiagnosticOf(d, problem, range));
    if (!named && !(problem.start <= end && start <= problem.end)) continue;
    const ruleset = model.rulesetAt(problem.start);
    const silence = ruleset && silenceFix(ruleset, problem);
    if ((!problem.fixes || problem.fixes.length === 0) && !silence) continue;
    const diagnostic = named ?? toDiagnostic(model, problem);
    offered.push(problem);
    if (problem.fixes) actions.push(...fixActions(model, diagnostic, problem.fixes));
    // After the fixes, never preferred: saying "I meant that" is a choice, not the repair.
    if (silence) actions.push(quickFix(model, diagnostic, silence));
  }
  actions.push(...fixAllActions(model, problems, offered));
  return actions;
}

function isDiagnosticOf(diagnostic: Diagnostic, problem: DocumentProblem, range: Range): boolean {
  return (
    diagnostic.code === problem.code &&
    (diagnostic.source === undefined || diagnostic.source === DIAGNOSTIC_SOURCE) &&
    diagnostic.range.start.line === range.start.line &&
    diagnostic.range.start.character === range.start.character &&
    diagnostic.range.end.line === range.end.line &&
    diagnostic.range.end.character === range.end.character
  );
}

/**
 * "Fix all" for each code among the offered problems, when the file has two or more problems
 * of that code with exactly one fix each: a problem with several fixes (three fields that
 * an unknown one might have meant) needs a person to choose. Fixes whose edits would clash
 * with an earlier one are left for another round.
 */
function fixAllActions(model: DocumentModel, problems: readonly DocumentProblem[], offered: readonly DocumentProblem[]): CodeAction[] {
  const codes = [...new Set(offered.filter((p) => p.fixes?.length === 1).map((p) => p.code))];
  const actions: CodeAction[] = [];
  for (const code of codes) {
    const edits: DocumentEdit[] = [];
    const taken = new TakenEdits();
    const fixed: DocumentProblem[] = [];
    for (const problem of problems) {
      if (problem.code !== code || problem.fixes?.length !== 1) continue;
      const fixEdits = problem.fixes[0].edits;
      if (fixEdits.some((e) => taken.clashes(e))) continue;
      taken.add(fixEdits);
      edits.push(...fixEdits);
      fixed.push(problem);
    }
    if (fixed.length < 2) continue;
    actions.push({
      title: `Fix all ${fixed.length} ${code} problems in this file`,
      kind: CodeActionKind.QuickFix,
      diagnostics: fixed.map((p) => toDiagnostic(model, p)),
      edit: workspaceEdit(model, edits),
    });
  }
  return actions;
}

/** Edits that overlap, or that both start at one offset (their order would be unclear). */
function clash(a: DocumentEdit, b: DocumentEdit): boolean {
  return (a.start < b.end && b.start < a.end) || a.start === b.start;
}

/**
 * The edits a "fix all" has taken, sorted by start, so that whether a new edit clashes with one
 * is two comparisons after a binary search: a file with a fixable mistake in each of 10,000
 * rules compared every edit with every edit taken before it (6 s of a code action request).
 * Taken edits never clash with each other, so their ends are in order too, and only the
 * neighbours of a new edit can clash with it; should one fix's own edits clash (nothing known
 * makes such a fix), every taken edit is compared, as before.
 */
class TakenEdits {
  private readonly sorted: DocumentEdit[] = [];
  private overlapping = false;

  clashes(edit: DocumentEdit): boolean {
    if (this.overlapping) return this.sorted.some((taken) => clash(edit, taken));
    const i = this.firstStartingFrom(edit.start);
    return (i < this.sorted.length && clash(edit, this.sorted[i])) || (i > 0 && clash(edit, this.sorted[i - 1]));
  }

  add(edits: readonly DocumentEdit[]): void {
    for (const edit of edits) {
      if (!this.overlapping && this.clashes(edit)) this.overlapping = true;
      this.sorted.splice(this.firstStartingFrom(edit.start), 0, edit);
    }
  }

  /** The index of the first taken edit that starts at `offset` or after it. */
  private firstStartingFrom(offset: number): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.sorted[middle].start < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** A problem's fixes as quick fixes of its diagnostic, the first one preferred. */
export function fixActions(model: DocumentModel, diagnostic: Diagnostic, fixes: readonly DocumentFix[]): CodeAction[] {
  return fixes.map((fix, i) => {
    const action = quickFix(model, diagnostic, fix);
    if (i === 0) action.isPreferred = true;
    return action;
  });
}

function quickFix(model: DocumentModel, diagnostic: Diagnostic, fix: DocumentFix): CodeAction {
  // Titles are plain text in every quick fix menu, as messages are in the Problems panel.
  return { title: plainText(fix.title), kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], edit: workspaceEdit(model, fix.edits) };
}

/** Document edits (offsets) as the workspace edit of a code action on the model's document. */
function workspaceEdit(model: DocumentModel, edits: readonly DocumentEdit[]): WorkspaceEdit {
  const textEdits: TextEdit[] = edits.map((e) => ({ range: model.range(e.start, e.end), newText: e.newText }));
  return { changes: { [model.uri]: textEdits } };
}

// ---------------------------------------------------------------- provider v4 to v5

/** The opening line of a resource, or of a v4 rule block: where the rewrite is offered without an error asking for it. */
const REWRITE_LINE = /^\s*(?:resource\s+"cloudflare_ruleset"|rules\s*\{)/;

/**
 * "Rewrite … in provider v5's shape" on a v4 resource (`rules { … }` blocks), from its opening
 * line or a rule block's, whatever the module's version: the migration users ask for. Where the
 * version is v5 the same rewrite is already the quick fix of the error, and is not offered twice.
 */
function providerRewriteAction(model: DocumentModel, start: number, offered: readonly CodeAction[]): CodeAction | undefined {
  if (model.format !== 'hcl' || !model.rulesetAt(start)?.parametersInProviderShape) return undefined;
  const lineStart = model.text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = model.text.indexOf('\n', start);
  if (!REWRITE_LINE.test(model.text.slice(lineStart, lineEnd === -1 ? model.text.length : lineEnd))) return undefined;
  const rewrite = v5RewriteAt(model.text, start);
  if (!rewrite) return undefined;
  const title = plainText(v5RewriteTitle(rewrite.label));
  if (offered.some((a) => a.title === title)) return undefined;
  return { title, kind: CodeActionKind.RefactorRewrite, edit: workspaceEdit(model, [rewrite.edit]) };
}

// ---------------------------------------------------------------- formatting

/**
 * "Format expression" for the expression at the start of the range (or else at its end),
 * when it parses without errors and is not already in canonical form (see language/format.ts).
 *
 * In a quoted string (JSON, YAML '…' or "…") the whole value is replaced, so whitespace
 * around the expression goes too. In a plain or block YAML scalar only the expression proper
 * is: around it is YAML's own layout (the final line break of a `|` block, say).
 */
function formatAction(model: DocumentModel, start: number, end: number): CodeAction | undefined {
  const here = model.expressionAt(start) ?? model.expressionAt(end);
  if (!here) return undefined;
  const { site } = here;
  // The text checked has stand-ins for Terraform's `${…}`: written back, they would replace them.
  if (site.holes) return undefined;
  const result = formatExpression(site.text);
  if (!result) return undefined;
  const style = site.node.style;
  const quoted = style === 'json' || style === 'double-quoted' || style === 'single-quoted';
  const span = quoted ? { start: 0, end: site.text.length } : result.span;
  if (site.text.slice(span.start, span.end) === result.text) return undefined;
  return {
    title: FORMAT_EXPRESSION_TITLE,
    kind: CodeActionKind.RefactorRewrite,
    edit: workspaceEdit(model, [expressionEdit(site, span, result.text)]),
  };
}
