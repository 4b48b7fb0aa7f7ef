/**
 * A closed document leaves nothing behind in the server: not its model, text or timers, and
 * not through the expression cache, whose entries are the expressions' own text, not views
 * of the document they were cut from. Seen from outside, as an editor would leave it: the
 * server's heap (a snapshot of the bundled server, taken after a full collection) holds no
 * string with the documents' URI or text.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocumentDiagnosticRequest } from 'vscode-languageserver-protocol/node';
import { ROOT } from './lsp-client';
import { startServerProcess, type ServerProcess } from './instrumented-server';

/** In every document's URI and name, and nowhere else: its expressions are ordinary ones. */
const MARKER = 'zq-closed-document';
const DOCUMENTS = 40;

let scratch: string;
before(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  scratch = mkdtempSync(join(tmpdir(), 'closed-documents-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Document `n`, JSON or YAML, with a few expressions no other document of the run has. */
function document(n: number, run: string): { uri: string; languageId: string; text: string } {
  const expressions = Array.from({ length: 5 + (n % 4) }, (_, k) => `ip.src in {10.${n}.${k}.0/24} and tcp.dstport == ${1000 + k}`);
  const name = `${MARKER} ${run} ${n}`;
  if (n % 2 === 0) {
    const rules = expressions.map((expression) => ({ action: 'block', description: `a rule of ${name}`, expression }));
    return { uri: `file:///${MARKER}/${run}-${n}.ruleset.json`, languageId: 'json', text: JSON.stringify({ name, kind: 'root', phase: 'magic_transit', rules }, null, 2) };
  }
  const rules = expressions.map((expression) => `  - action: block\n    description: a rule of ${name}\n    expression: ${expression}\n`).join('');
  return { uri: `file:///${MARKER}/${run}-${n}.ruleset.yaml`, languageId: 'yaml', text: `name: ${name}\nkind: root\nphase: magic_transit\nrules:\n${rules}` };
}

/**
 * Every string in the server's heap that contains the marker. V8 keeps the subject of the last
 * regular expression match (for `RegExp.input`), the path of the last document closed: an
 * unmarked document is opened and closed first, to be that one.
 */
async function markedStrings(server: ServerProcess, pull: boolean): Promise<string[]> {
  const { uri, languageId, text } = document(0, 'last');
  const unmarked = { uri: uri.replaceAll(MARKER, 'unmarked'), text: text.replaceAll(MARKER, 'unmarked') };
  const published = server.nextDiagnostics(unmarked.uri);
  await server.open(unmarked.uri, languageId, unmarked.text);
  if (pull) await server.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: unmarked.uri } });
  else await published;
  await server.close(unmarked.uri);
  const path = join(scratch, `${Date.now()}-${Math.random()}.heapsnapshot`);
  await server.writeHeapSnapshot(path);
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as { strings: string[] };
  rmSync(path);
  return snapshot.strings.filter((s) => s.includes(MARKER));
}

/** The marked strings, shortened for an assertion's message. */
const shown = (strings: string[]) => strings.map((s) => s.slice(0, 100));

describe('closing documents releases what the server kept for them', { timeout: 120_000 }, () => {
  it('pull diagnostics: nothing of a closed document stays in the heap', async () => {
    const server = await startServerProcess({ pull: true, instrumented: true });
    try {
      // The snapshot sees an open document: an empty answer below is not a blind one.
      const open = document(0, 'pull-open');
      await server.open(open.uri, open.languageId, open.text);
      await server.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: open.uri } });
      assert.ok((await markedStrings(server, true)).some((s) => s.includes('pull-open')), 'an open document is in the heap');
      await server.close(open.uri);

      for (let n = 0; n < DOCUMENTS; n++) {
        const { uri, languageId, text } = document(n, 'pull');
        await server.open(uri, languageId, text);
        await server.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
        await server.close(uri);
      }
      assert.deepEqual(shown(await markedStrings(server, true)), []);
    } finally {
      await server.stop();
    }
  });

  it('push diagnostics: nothing stays, whether closed before or after its diagnostics were published', async () => {
    const server = await startServerProcess({ pull: false, instrumented: true });
    try {
      for (let n = 0; n < DOCUMENTS; n++) {
        const { uri, languageId, text } = document(n, 'push');
        const published = server.nextDiagnostics(uri);
        await server.open(uri, languageId, text);
        // Every other one is closed at once, while its diagnostics still wait for typing to pause.
        if (n % 2 === 1) await published;
        await server.close(uri);
      }
      assert.deepEqual(shown(await markedStrings(server, false)), []);
    } finally {
      await server.stop();
    }
  });
});
