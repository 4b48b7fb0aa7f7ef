/**
 * The extension in a real VS Code extension host: what a person sees through the editor's own
 * commands (diagnostics, completion, hover, quick fixes), waiting on events, never on sleeps.
 * The workspace is a scratch copy of examples/, so edits here change nothing in the repo.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { codeOf } from '../../../client/src/overlap';
import { diagnosticsWhere, open, ours, positionOf, quickFixWhere } from './editor';

export function registerExtensionTests(root: Mocha.Suite): void {
  const suite = Mocha.Suite.create(root, 'Rulesets extension');
  const test = (title: string, body: () => Promise<void>) => suite.addTest(new Mocha.Test(title, body));

  test('lists the mistakes of a broken ruleset, on the right characters', async () => {
    const editor = await open('mistakes.ruleset.yaml');
    const uri = editor.document.uri;
    const found = await diagnosticsWhere(uri, (all) => all.some((d) => codeOf(d) === 'unknown-field'), 'the unknown-field diagnostic');
    const unknown = found.find((d) => codeOf(d) === 'unknown-field')!;
    assert.deepEqual(unknown.range, new vscode.Range(positionOf(editor.document, 'tcp.dstprt'), positionOf(editor.document, 'tcp.dstprt', 10)));
    assert.match(unknown.message, /did you mean ‘tcp\.dstport’/);
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Error);
    for (const code of ['missing-action-parameters', 'comma-in-set', 'set-required']) assert.ok(found.some((d) => codeOf(d) === code), code);
  });

  test('completes $svc lists after `ip.src in `', async () => {
    const editor = await open('block-threat-lists.ruleset.yaml');
    const document = editor.document;
    const end = document.lineAt(positionOf(document, 'expression:').line).range.end;
    const start = positionOf(document, 'expression:', 'expression: '.length);
    await editor.edit((edit) => edit.replace(new vscode.Range(start, end), 'ip.src in '));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, start.translate(0, 'ip.src in '.length));
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    assert.ok(labels.includes('$svc.anonymizer'), `suggestions: ${labels.slice(0, 20).join(', ')}`);
    // With a name begun, the item replaces what was typed: the range the server says once for
    // all items (itemDefaults, which this client reads) reaches the editor as each item's.
    await editor.edit((edit) => edit.insert(start.translate(0, 'ip.src in '.length), '$svc.an'));
    const begun = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, start.translate(0, 'ip.src in $svc.an'.length));
    const anonymizer = begun.items.find((item) => (typeof item.label === 'string' ? item.label : item.label.label) === '$svc.anonymizer');
    assert.ok(anonymizer, 'the list is offered with a name begun');
    const range = anonymizer.range instanceof vscode.Range ? anonymizer.range : anonymizer.range?.replacing;
    assert.deepEqual(range, new vscode.Range(start.translate(0, 'ip.src in '.length), start.translate(0, 'ip.src in $svc.an'.length)));
    assert.equal(typeof anonymizer.insertText === 'string' ? anonymizer.insertText : anonymizer.insertText?.value, '$svc.anonymizer');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('hovering a country code names the country', async () => {
    const editor = await open('block-country.ruleset.json');
    const kp = positionOf(editor.document, 'KP');
    await editor.edit((edit) => edit.replace(new vscode.Range(kp, kp.translate(0, 2)), 'BR'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, positionOf(editor.document, 'BR', 1));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /Brazil/);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('a quick fix corrects the misspelt field and its problem goes away', async () => {
    const editor = await open('mistakes.ruleset.yaml');
    const uri = editor.document.uri;
    await diagnosticsWhere(uri, (all) => all.some((d) => codeOf(d) === 'unknown-field'), 'the unknown-field diagnostic');
    const range = new vscode.Range(positionOf(editor.document, 'tcp.dstprt'), positionOf(editor.document, 'tcp.dstprt', 10));
    const fix = await quickFixWhere(uri, range, (a) => a.title.includes('tcp.dstport') && a.edit !== undefined);
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.match(editor.document.getText(), /expression: tcp\.dstport == 22/);
    await diagnosticsWhere(uri, (all) => all.length > 0 && !all.some((d) => codeOf(d) === 'unknown-field'), 'the unknown-field diagnostic to go');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('leaves a JSON file that is not a ruleset alone', async () => {
    const editor = await open('package.json');
    // Another ruleset's diagnostics arriving proves the server has had time to look at this one.
    const other = await open('mistakes.ruleset.yaml');
    await diagnosticsWhere(other.document.uri, (all) => all.length > 0, 'diagnostics of a ruleset');
    assert.deepEqual(ours(editor.document.uri), []);
  });
}
