/**
 * The bundled server over stdio, as an editor sees it, on documents nested 7,000 and 100,000
 * levels deep: every request gets its answer (not the empty answer of a feature that failed,
 * which the server logs), the diagnostics say where the nesting goes too deep, and the server
 * keeps serving. Before, completion at the end of such a JSON ruleset overflowed the stack.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  CodeActionRequest,
  CompletionRequest,
  DocumentDiagnosticRequest,
  DocumentSymbolRequest,
  HoverRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
  type Diagnostic,
  type FullDocumentDiagnosticReport,
  type Position,
} from 'vscode-languageserver-protocol/node';
import { ROOT, startClient, type TestClient } from './lsp-client';

before(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
});

const arrays = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);

function documents(n: number): { uri: string; languageId: string; text: string }[] {
  return [
    {
      uri: `file:///work/deep-${n}.ruleset.json`,
      languageId: 'json',
      text: `{"name": "deep", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": "tcp.dstprt == 22", "extra": ${'['.repeat(n)}`,
    },
    {
      uri: `file:///work/deep-${n}.ruleset.yaml`,
      languageId: 'yaml',
      text: `name: deep\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 22\n    extra: ${arrays(n)}\n    other:\n      ${'- '.repeat(n)}1\n`,
    },
    { uri: `file:///work/deep-${n}.ruleset.test.yaml`, languageId: 'yaml', text: `- packet: {tcp.dstport: ${arrays(n)}}\n  expect: pass\n` },
    { uri: `file:///work/deep-${n}/.rulesets.yaml`, languageId: 'yaml', text: `phase: magic_transit\nlists: ${arrays(n)}\n` },
  ];
}

function endOf(text: string): Position {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
}

async function askEverything(client: TestClient, uri: string, text: string): Promise<void> {
  const textDocument = { uri };
  const positions = [{ line: 0, character: 0 }, { line: 0, character: 40 }, endOf(text)];
  for (const position of positions) {
    const list = await client.connection.sendRequest(CompletionRequest.type, { textDocument, position });
    assert.ok(list === null || Array.isArray(list) || Array.isArray(list.items));
    await client.connection.sendRequest(HoverRequest.type, { textDocument, position });
    await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument, position });
    await client.connection.sendRequest(CodeActionRequest.type, { textDocument, range: { start: position, end: position }, context: { diagnostics: [] } });
  }
  await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument });
  await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument });
}

function assertNestedTooDeep(diagnostics: readonly Diagnostic[], uri: string): void {
  const deep = diagnostics.filter((d) => /nested too deeply/.test(d.message));
  assert.ok(deep.length >= 1, `${uri}: ${JSON.stringify(diagnostics.slice(0, 3))}`);
  assert.notDeepEqual(deep[0].range.start, { line: 0, character: 0 }, 'at its place');
}

/** No feature failed: the guard logs a failure (with its stack) and answers empty. */
function assertNothingFailed(client: TestClient): void {
  const failures = client.logs.filter((line) => /failed|RangeError|call stack/i.test(line));
  assert.deepEqual(failures.map((l) => l.slice(0, 300)), []);
  assert.equal(client.child.exitCode, null, 'still running');
}

describe('server over stdio, documents nested 7,000 and 100,000 levels deep', () => {
  let client: TestClient;
  before(async () => {
    client = await startClient();
  });
  after(async () => {
    await client.stop();
  });

  for (const n of [7_000, 100_000]) {
    it(`pushes diagnostics and answers every request, ${n} levels`, async () => {
      for (const { uri, languageId, text } of documents(n)) {
        const published = client.nextDiagnostics(uri, 1);
        client.open(uri, languageId, text);
        const { diagnostics } = await published;
        await askEverything(client, uri, text);
        assertNothingFailed(client);
        // A test file says so as a bad input, and .rulesets.yaml as a syntax error: both at the place.
        assertNestedTooDeep(diagnostics, uri);
        // A keystroke at the end, as the document is typed.
        const changed = client.nextDiagnostics(uri, 2);
        client.change(uri, 2, [{ range: { start: endOf(text), end: endOf(text) }, text: '[' }]);
        assertNestedTooDeep((await changed).diagnostics, uri);
        await askEverything(client, uri, `${text}[`);
        assertNothingFailed(client);
      }
    });
  }
});

describe('server over stdio, pull diagnostics of documents nested too deep', () => {
  let client: TestClient;
  before(async () => {
    client = await startClient({ pull: true });
  });
  after(async () => {
    await client.stop();
  });

  it('answers textDocument/diagnostic with the place, 100,000 levels', async () => {
    for (const { uri, languageId, text } of documents(100_000)) {
      client.open(uri, languageId, text);
      const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
      assert.equal(report.kind, 'full');
      assertNestedTooDeep(report.items, uri);
    }
    assertNothingFailed(client);
  });
});
