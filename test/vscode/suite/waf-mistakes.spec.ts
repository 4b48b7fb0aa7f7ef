/**
 * Issue 21's first "done when", in the editor: examples/waf-mistakes/waf-custom.ruleset.yaml
 * (20 WAF custom rules, its folder's `.rulesets.yaml` on the Pro plan) shows the ten mistakes
 * that `rulesets check` prints for the same file, on the same characters, and each quick fix
 * does what it says. The file is never saved: each fix is reverted.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { codeOf } from '../../../client/src/overlap';
import { plainText } from '../../../server/src/language/problem';
import { WAF_MISTAKES, WAF_MISTAKES_FILE, type WafMistake } from '../../fixtures/waf-mistakes';
import { cliDiagnostics, diagnosticsWhere, open, quickFixWhere, SEVERITIES, shown } from './editor';

export function registerWafMistakesTests(root: Mocha.Suite): void {
  const suite = Mocha.Suite.create(root, 'WAF custom rules with ten mistakes (examples/waf-mistakes)');
  const test = (title: string, body: () => Promise<void>) => suite.addTest(new Mocha.Test(title, body));
  const ready = (all: vscode.Diagnostic[]) => all.length >= WAF_MISTAKES.length;

  test('shows the ten mistakes `rulesets check` prints for the file, on the same characters, with the same codes and messages', async () => {
    const editor = await open(WAF_MISTAKES_FILE);
    const document = editor.document;
    const found = await diagnosticsWhere(document.uri, ready, 'the ten diagnostics');
    const inEditor = found.map((d) => shown(document, d.range, codeOf(d), d.severity, d.message)).sort((a, b) => a.line - b.line || a.character - b.character);
    const fromCli = cliDiagnostics(WAF_MISTAKES_FILE).map((d) =>
      // The editor gets plain text (‘…’ where the CLI prints backticks: server/src/features/diagnostics.ts).
      shown(document, new vscode.Range(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), d.code, SEVERITIES[d.severity], plainText(d.message)),
    );
    assert.deepEqual(inEditor, fromCli);
    assert.deepEqual(
      inEditor.map((d) => [d.code, d.text, d.severity]),
      WAF_MISTAKES.map((m) => [m.code, m.text, SEVERITIES[m.severity]]),
    );
  });

  const withFix = WAF_MISTAKES.filter((m): m is WafMistake & { fix: NonNullable<WafMistake['fix']> } => m.fix !== undefined);
  for (const mistake of withFix) {
    const title = plainText(mistake.fix.title);
    test(`${mistake.code} on ${mistake.text}: the quick fix ‘${title}’ leaves \`${mistake.fix.expression}\`, and the mistake goes`, async () => {
      const editor = await open(WAF_MISTAKES_FILE);
      const document = editor.document;
      const found = await diagnosticsWhere(document.uri, ready, 'the ten diagnostics');
      const diagnostic = found.find((d) => codeOf(d) === mistake.code && document.getText(d.range) === mistake.text);
      assert.ok(diagnostic, `${mistake.code} on ${mistake.text}`);
      const line = diagnostic.range.start.line;
      const fix = await quickFixWhere(document.uri, diagnostic.range, (a) => a.title === title && a.edit !== undefined);
      try {
        assert.ok(await vscode.workspace.applyEdit(fix.edit!));
        assert.equal(document.lineAt(line).text, `    expression: ${mistake.fix.expression}`);
        // The other nine stay; this one goes.
        const after = await diagnosticsWhere(document.uri, (all) => all.length === WAF_MISTAKES.length - 1, 'the diagnostics without the fixed one');
        assert.ok(!after.some((d) => codeOf(d) === mistake.code && d.range.start.line === line), JSON.stringify(after.map((d) => [codeOf(d), d.range.start.line])));
      } finally {
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    });
  }
}
