import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import { plainText, type Severity } from '../language/problem';
import type { DocumentProblem } from '../documents/parsed-ruleset';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';
import { DIAGNOSTIC_SOURCE } from '../protocol';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Codes whose span is code that does nothing: editors fade it. */
const UNNECESSARY = new Set(['duplicate-rule', 'shadowed-rule', 'redundant-set-member']);

/** A diagnostic made elsewhere (a test file's) with its messages as plain text. */
export function withPlainText(diagnostic: Diagnostic): Diagnostic {
  return {
    ...diagnostic,
    message: plainText(diagnostic.message),
    ...(diagnostic.relatedInformation ? { relatedInformation: diagnostic.relatedInformation.map((r) => ({ ...r, message: plainText(r.message) })) } : {}),
  };
}

export function toDiagnostic(model: DocumentModel, problem: DocumentProblem): Diagnostic {
  const diagnostic: Diagnostic = {
    range: model.range(problem.start, problem.end),
    severity: SEVERITY[problem.severity],
    code: problem.code,
    source: DIAGNOSTIC_SOURCE,
    message: plainText(problem.message),
  };
  if (UNNECESSARY.has(problem.code)) diagnostic.tags = [DiagnosticTag.Unnecessary];
  if (problem.related) {
    diagnostic.relatedInformation = problem.related.map((r) => ({
      location: { uri: model.uri, range: model.range(r.start, r.end) },
      message: plainText(r.message),
    }));
  }
  return diagnostic;
}

/** The same diagnostics as `rulesets check`, for one document version. */
export function diagnostics(model: DocumentModel, settings: Settings): Diagnostic[] {
  if (!model.isRuleset(settings)) return [];
  return model.problems(settings).map((p) => toDiagnostic(model, p));
}
