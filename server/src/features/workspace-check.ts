/**
 * A ruleset file on disk, checked as an open document would be ("Check Workspace",
 * rulesets/checkFiles): the same model, the same checks and the same diagnostics, from the
 * file's text, whether or not an editor has it open.
 */
import type { Diagnostic } from 'vscode-languageserver';
import { classifyFile, rulesetFormatOfPath } from '../documents/classify';
import { badBytesProblem, type BadBytes } from '../documents/file-bytes';
import type { ExpressionCache } from '../documents/expression-cache';
import type { Settings } from '../documents/settings';
import { mayUseModuleValues } from '../documents/terraform';
import type { TerraformModuleReader } from '../documents/terraform-module';
import { diagnostics, toDiagnostic } from './diagnostics';
import { DocumentModel, pathOfUri } from './model';

/**
 * The diagnostics of the file at `uri` with this text, or undefined when it is not a ruleset
 * (by its name, a `rulesets.files` pattern or its content), a test file among them: those
 * have checks that run their cases. `bad`: the file's first byte that is not UTF-8 text (`text`
 * has U+FFFD there); a ruleset file with one has that one diagnostic, as `rulesets check` refuses it.
 */
export function fileDiagnostics(uri: string, text: string, settings: Settings, cache: ExpressionCache, moduleReader?: TerraformModuleReader, bad?: BadBytes): Diagnostic[] | undefined {
  const path = pathOfUri(uri);
  const format = rulesetFormatOfPath(path);
  if (!format) return undefined;
  const byName = classifyFile(path, { patterns: settings.files });
  if (byName.role === 'ruleset-test') return undefined;
  // Most JSON, YAML and Terraform files of a workspace are something else: without `rules` a
  // file cannot be a ruleset by its content, nor a resource one with rules, and is not parsed.
  // A Terraform file may instead feed its module's rulesets (a locals.tf, a .tfvars).
  const module = format === 'hcl' && moduleReader && uri.startsWith('file:') && mayUseModuleValues(text, path) ? { path, reader: moduleReader, varFiles: settings.terraformVarFiles } : undefined;
  if (byName.role === 'other' && !text.includes('rules') && !module) return undefined;
  // As `rulesets check` reads a file: an editor never shows the byte order mark.
  const model = new DocumentModel(uri, 0, text.replace(/^\uFEFF/, ''), format, cache, undefined, undefined, module);
  if (!model.isRuleset(settings)) return undefined;
  return bad ? [toDiagnostic(model, badBytesProblem(bad))] : diagnostics(model, settings);
}
