/**
 * What the specs do in the editor, through VS Code's own API: open a file of the workspace (a
 * scratch copy of examples/), wait for the server's diagnostics and quick fixes on events,
 * never on sleeps.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { codeOf } from '../../../client/src/overlap';
import { DIAGNOSTIC_SOURCE } from '../../../server/src/protocol';

export function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests run in a workspace folder (a copy of examples/)');
  return vscode.Uri.joinPath(folder.uri, name);
}

export function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === DIAGNOSTIC_SOURCE);
}

/** Resolves when the document's diagnostics satisfy `ready`, checking on every change. */
export function diagnosticsWhere(uri: vscode.Uri, ready: (all: vscode.Diagnostic[]) => boolean, what: string, timeoutMs = 30_000): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const all = ours(uri);
      if (!ready(all)) return false;
      subscription.dispose();
      clearTimeout(timer);
      resolve(all);
      return true;
    };
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out waiting for ${what}; diagnostics were: ${JSON.stringify(ours(uri).map(codeOf))}`));
    }, timeoutMs);
    check();
  });
}

/**
 * The quick fixes at `range` once one satisfies `ready`. VS Code asks again whenever the
 * document or its markers change, and a request it cancels (another test's revert, the
 * server still reading the document) answers none: so do the same, up to `timeoutMs`.
 */
export async function quickFixWhere(uri: vscode.Uri, range: vscode.Range, ready: (action: vscode.CodeAction) => boolean, timeoutMs = 30_000): Promise<vscode.CodeAction> {
  const deadline = Date.now() + timeoutMs;
  let titles: string[] = [];
  for (;;) {
    const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value)) ?? [];
    const found = actions.find(ready);
    if (found) return found;
    titles = actions.map((a) => a.title);
    if (Date.now() > deadline) throw new Error(`timed out waiting for the quick fix; the quick fixes were: ${titles.join(' | ') || 'none'}`);
    await new Promise<void>((resolve) => {
      const subscription = vscode.languages.onDidChangeDiagnostics(() => done());
      const timer = setTimeout(() => done(), 250);
      const done = () => (subscription.dispose(), clearTimeout(timer), resolve());
    });
  }
}

export async function open(name: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceFile(name));
  return vscode.window.showTextDocument(document);
}

export function positionOf(document: vscode.TextDocument, needle: string, delta = 0): vscode.Position {
  const offset = document.getText().indexOf(needle);
  assert.ok(offset >= 0, `${needle} is in ${document.uri.path}`);
  return document.positionAt(offset + delta);
}

/** The editor's severity of each severity `rulesets check` prints. */
export const SEVERITIES: Readonly<Record<string, vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

export interface CliDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** What `rulesets check --format json` (this extension's own dist/cli.js) says of the workspace's copy of `file`, which has errors. */
export function cliDiagnostics(file: string): CliDiagnostic[] {
  const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const extension = vscode.extensions.all.find((e) => e.packageJSON?.name === 'rulesets-tools');
  assert.ok(extension, 'the extension under test is loaded');
  // The extension host runs under Node (code-server) or Electron (VS Code), which runs as Node so.
  const run = spawnSync(process.execPath, [join(extension.extensionPath, 'dist', 'cli.js'), 'check', file, '--format', 'json'], {
    cwd: folder,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  assert.equal(run.status, 1, run.stderr);
  const report = JSON.parse(run.stdout) as { files: { path: string; diagnostics: CliDiagnostic[] }[] };
  assert.deepEqual(report.files.map((f) => f.path), [file]);
  return report.files[0].diagnostics;
}

/** The characters of a range, or of one over several lines those of its first line (as the CLI's carets show them). */
export function firstLine(document: vscode.TextDocument, range: vscode.Range): string {
  return document.getText(range).split(/\r?\n/)[0];
}

/** A diagnostic as the editor and the CLI can both say it: where, on what characters, which code, how severe, what message. */
export function shown(document: vscode.TextDocument, range: vscode.Range, code: string | undefined, severity: vscode.DiagnosticSeverity, message: string) {
  return { line: range.start.line, character: range.start.character, text: firstLine(document, range), code, severity, message };
}
