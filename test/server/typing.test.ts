/**
 * Typing in an expression, keystroke by keystroke as an editor sends it (incremental changes):
 * the server re-reads only the edited string (documents/reparse.ts), and every version's
 * diagnostics are the ones a fresh open of the same text gets.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentDiagnosticRequest, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { ROOT, startClient, type TestClient } from './lsp-client';

let client: TestClient;
before(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  client = await startClient({ pull: true });
});
after(() => client.stop());

async function pull(uri: string): Promise<Diagnostic[]> {
  const report = await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
  return report.kind === 'full' ? report.items : [];
}

const RULES = (expression: string, format: 'json' | 'yaml') =>
  format === 'yaml'
    ? `name: typing\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src == 10.0.0.1\n  - action: block\n    expression: ${expression}\n    description: "after the edit"\n  - action: block\n    expression: "udp.dstport == 53 and ip.len > 1000000000000"\n`
    : `{"name": "typing", "kind": "root", "phase": "magic_transit", "rules": [\n  {"action": "block", "expression": "ip.src == 10.0.0.1"},\n  {"action": "block", "expression": "${expression}", "description": "after the edit"},\n  {"action": "block", "expression": "udp.dstport == 53 and ip.len > 1000000000000"}\n]}\n`;

for (const format of ['yaml', 'json'] as const) {
  it(`${format.toUpperCase()}: each keystroke in an expression gets the diagnostics of a fresh open of its text`, async () => {
    const uri = `file:///work/typing-${format}.ruleset.${format}`;
    let document = TextDocument.create(uri, format, 1, RULES('tcp.dstport == 2', format));
    client.open(uri, format, document.getText());
    await pull(uri);
    // Type ` and tcp.flags.syn`, then a typo and its fix, one character at a time, at the end of rule 2.
    const typed = [...' and tcp.flgs.syn'].map((c) => ({ insert: c })) as { insert?: string; remove?: number }[];
    typed.push({ remove: 'flgs.syn'.length }, ...[...'flags.syn'].map((c) => ({ insert: c })));
    let version = 1;
    let cursor = document.getText().indexOf('tcp.dstport == 2') + 'tcp.dstport == 2'.length;
    for (const key of typed) {
      const start = cursor - (key.remove ?? 0);
      const range = { start: document.positionAt(start), end: document.positionAt(cursor) };
      cursor = start + (key.insert?.length ?? 0);
      version++;
      document = TextDocument.update(document, [{ range, text: key.insert ?? '' }], version);
      client.change(uri, version, [{ range, text: key.insert ?? '' }]);
      const incremental = await pull(uri);
      const freshUri = `file:///work/fresh-${format}-${version}.ruleset.${format}`;
      client.open(freshUri, format, document.getText());
      assert.deepEqual(incremental, await pull(freshUri), `version ${version}: ${JSON.stringify(document.getText())}`);
    }
    const last = await pull(uri);
    assert.ok(!last.some((d) => d.code === 'unknown-field'), 'the fixed typo is no longer reported');
    assert.ok(last.some((d) => d.message.includes('1000000000000')), 'the rule after the edit still has its diagnostic, at its place');
  });
}

describe('the typing scenario can fail', () => {
  it('reports the typo while it is there', async () => {
    const uri = 'file:///work/typo.ruleset.yaml';
    client.open(uri, 'yaml', RULES('tcp.dstport == 2 and tcp.flgs.syn', 'yaml'));
    assert.ok((await pull(uri)).some((d) => d.code === 'unknown-field'));
  });
});
