/**
 * Issue 22's first "done when", in the editor: each ruleset of examples/action-mistakes/ (one
 * per phase family, with mistakes in the rules' actions) shows the findings `rulesets check`
 * prints for it (those of test/fixtures/action-mistakes.ts), on the same
 * characters, with the same codes and messages, and quick fixes on a parameter key (in JSON)
 * and inside a parameter's expression (in YAML) do what they say.
 * The files are never saved: each fix is reverted.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { codeOf } from '../../../client/src/overlap';
import { plainText } from '../../../server/src/language/problem';
import { ACTION_MISTAKES_FILES, placeOf, ACTION_MISTAKES, type ActionMistake } from '../../fixtures/action-mistakes';
import { cliDiagnostics, diagnosticsWhere, firstLine, open, quickFixWhere, SEVERITIES, shown } from './editor';

/** The quick fixes shown here: one on a key of a JSON file, one inside an expression of a parameter in YAML. */
const SHOWN_FIXES: readonly ActionMistake[] = [
  ACTION_MISTAKES.find((m) => m.file.endsWith('.json') && m.code === 'unknown-key' && m.fix),
  ACTION_MISTAKES.find((m) => m.file.endsWith('redirects.ruleset.yaml') && m.code === 'unknown-field' && m.fix),
].filter((m): m is ActionMistake => m !== undefined);

export function registerActionMistakesTests(root: Mocha.Suite): void {
  const suite = Mocha.Suite.create(root, 'Mistakes in actions, one ruleset per phase family (examples/action-mistakes)');
  const test = (title: string, body: () => Promise<void>) => suite.addTest(new Mocha.Test(title, body));

  for (const file of ACTION_MISTAKES_FILES) {
    const mine = ACTION_MISTAKES.filter((m) => m.file === file);
    test(`${file}: the ${mine.length} findings \`rulesets check\` prints, on the same characters, with the same codes and messages`, async () => {
      const editor = await open(file);
      const document = editor.document;
      const found = await diagnosticsWhere(document.uri, (all) => all.length >= mine.length, `the ${mine.length} diagnostics of ${file}`);
      const inEditor = found.map((d) => shown(document, d.range, codeOf(d), d.severity, d.message)).sort((a, b) => a.line - b.line || a.character - b.character);
      const fromCli = cliDiagnostics(file).map((d) =>
        // The editor gets plain text (‘…’ where the CLI prints backticks: server/src/features/diagnostics.ts).
        shown(document, new vscode.Range(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), d.code, SEVERITIES[d.severity], plainText(d.message)),
      );
      assert.deepEqual(inEditor, fromCli);
      const text = document.getText();
      assert.deepEqual(
        inEditor.map((d) => [d.line + 1, d.character + 1, d.code, d.text, d.severity]),
        mine.map((m) => {
          const { line, col } = placeOf(text, m);
          return [line, col, m.code, m.text, SEVERITIES[m.severity]];
        }),
      );
    });
  }

  for (const mistake of SHOWN_FIXES) {
    const fix = mistake.fix!;
    const title = plainText(fix.title);
    test(`${mistake.file}: ${mistake.code} on ${mistake.text}: the quick fix ‘${title}’ writes ${fix.replacement} there, and the mistake goes`, async () => {
      const editor = await open(mistake.file);
      const document = editor.document;
      const count = ACTION_MISTAKES.filter((m) => m.file === mistake.file).length;
      const found = await diagnosticsWhere(document.uri, (all) => all.length >= count, `the ${count} diagnostics of ${mistake.file}`);
      const diagnostic = found.find((d) => codeOf(d) === mistake.code && firstLine(document, d.range) === mistake.text);
      assert.ok(diagnostic, `${mistake.code} on ${mistake.text}`);
      const line = diagnostic.range.start.line;
      const before = document.lineAt(line).text;
      const action = await quickFixWhere(document.uri, diagnostic.range, (a) => a.title === title && a.edit !== undefined);
      try {
        assert.ok(await vscode.workspace.applyEdit(action.edit!));
        const at = diagnostic.range.start.character;
        assert.equal(document.lineAt(line).text, before.slice(0, at) + fix.replacement + before.slice(at + mistake.text.length));
        const after = await diagnosticsWhere(document.uri, (all) => all.length === count - 1, 'the diagnostics without the fixed one');
        assert.ok(!after.some((d) => codeOf(d) === mistake.code && d.range.start.line === line), JSON.stringify(after.map((d) => [codeOf(d), d.range.start.line])));
      } finally {
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    });
  }
}
