/**
 * What the specs do in the editor, through VS Code's own API: open a file of the workspace (a
 * scratch copy of examples/), wait for the server's diagnostics and quick fixes on events,
 * never on sleeps.
 */
import assert from 'node:assert/strict';
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
