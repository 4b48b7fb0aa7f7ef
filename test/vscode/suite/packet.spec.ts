/**
 * "Test a packet" in a real extension host: the command with `{ uri, packet }` arguments asks
 * nothing, evaluates the document as the editor has it and returns the verdict; the code lens
 * is offered over the ruleset.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { workspaceFile } from './editor';

interface Verdict {
  readonly verdict?: 'block' | 'pass';
  readonly rule?: { readonly number: number; readonly description?: string };
  readonly message?: string;
  readonly error?: string;
}

export function registerPacketTests(root: Mocha.Suite): void {
  const suite = Mocha.Suite.create(root, 'Rulesets: test a packet');
  const test = (title: string, body: () => Promise<void>) => suite.addTest(new Mocha.Test(title, body));
  const uri = () => workspaceFile('allow-ssh-only.ruleset.yaml');

  test('a port-22 TCP packet passes by the skip rule; a port-80 one is blocked by rule 2', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri()));
    const ssh = await vscode.commands.executeCommand<Verdict>('rulesets.testPacket', { uri: uri(), packet: { 'ip.src': '192.0.2.7', 'ip.proto': 'tcp', 'tcp.dstport': 22 } });
    assert.equal(ssh.verdict, 'pass', JSON.stringify(ssh));
    assert.equal(ssh.rule?.number, 1);
    const web = await vscode.commands.executeCommand<Verdict>('rulesets.testPacket', { uri: uri(), packet: '{"ip.src": "192.0.2.7", "ip.proto": "tcp", "tcp.dstport": 80}' });
    assert.equal(web.verdict, 'block', JSON.stringify(web));
    assert.equal(web.rule?.number, 2);
    assert.equal(web.message, 'Blocked by rule 2 (Block every other TCP destination port)');
  });

  test('bad input is an error naming the problem', async () => {
    const bad = await vscode.commands.executeCommand<Verdict>('rulesets.testPacket', { uri: uri(), packet: { 'tcp.dstprt': 22 } });
    assert.equal(bad.verdict, undefined);
    assert.match(bad.error ?? '', /unknown field `tcp.dstprt`/);
  });

  test('offers the "Test a packet" code lens over the rules', async () => {
    const document = await vscode.workspace.openTextDocument(uri());
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    const lens = lenses.find((l) => l.command?.command === 'rulesets.testPacket');
    assert.ok(lens, `lenses: ${lenses.map((l) => l.command?.title).join(', ')}`);
    assert.equal(lens.command?.title, 'Test a packet');
    assert.equal(lens.range.start.line, document.positionAt(document.getText().indexOf('rules:')).line);
  });
}
