/**
 * The bundled server with a workspace folder that has a `.rulesets.yaml`, spoken to over stdio
 * as an editor would: the file decides the phase and severities of an open ruleset, saving a
 * change to it re-checks the open documents, and the file itself gets its own diagnostics,
 * completion and fixes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompletionRequest, DidChangeWatchedFilesNotification, DidChangeWorkspaceFoldersNotification, FileChangeType, type CompletionItem, type CompletionList, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { ROOT, startClient, type TestClient } from './lsp-client';

before(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
});

// No phase of its own; a lowercase country code is a warning, `http.host` an unknown field in
// the magic_transit phase (with no phase, the checker cannot know: the HTTP phases have it).
const RULESET = 'name: edge\nkind: root\nrules:\n  - action: block\n    expression: ip.src.country == "br" or http.host == "a"\n';

function shown(diagnostics: readonly Diagnostic[]): [unknown, unknown][] {
  return diagnostics.map((d) => [d.code, d.severity]);
}

describe('server: the .rulesets.yaml of a workspace folder', () => {
  let folder: string;
  let client: TestClient;
  const uriOf = (name: string) => pathToFileURL(join(folder, name)).href;

  before(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'rulesets-project-')));
    writeFileSync(join(folder, '.rulesets.yaml'), 'phase: magic_transit\nrules:\n  country-code-case: error\n');
    client = await startClient({ workspaceFolders: [pathToFileURL(folder).href] });
  });
  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('checks an open ruleset with the phase and the severities of the file', async () => {
    const uri = uriOf('edge.ruleset.yaml');
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'yaml', RULESET);
    assert.deepEqual(shown((await published).diagnostics), [
      ['country-code-case', 1],
      ['unknown-field', 1],
    ]);
  });

  it('checks the open ruleset again when a change to the file is saved', async () => {
    const uri = uriOf('edge.ruleset.yaml');
    writeFileSync(join(folder, '.rulesets.yaml'), 'phase: magic_transit\nrules:\n  country-code-case: off\n');
    const published = client.nextDiagnostics(uri);
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf('.rulesets.yaml'), type: FileChangeType.Changed }] });
    assert.deepEqual(shown((await published).diagnostics), [['unknown-field', 1]]);
  });

  it('falls back to the user\'s settings when the file is deleted', async () => {
    const uri = uriOf('edge.ruleset.yaml');
    rmSync(join(folder, '.rulesets.yaml'));
    const published = client.nextDiagnostics(uri);
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf('.rulesets.yaml'), type: FileChangeType.Deleted }] });
    // No phase any more: the file says so, and the field is not checked.
    assert.deepEqual(shown((await published).diagnostics), [
      ['phase-not-given', 3],
      ['country-code-case', 2],
    ]);
  });

  it('shows the mistakes of the file itself while it is edited', async () => {
    const uri = uriOf('.rulesets.yaml');
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'yaml', 'phase: magic_transitt\nrules:\n  unknown-field: off\n');
    const { diagnostics } = await published;
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line, d.message]),
      [
        ['unknown-phase', 0, 'unknown phase ‘magic_transitt’; did you mean ‘magic_transit’?'],
        ['error-not-configurable', 2, '‘unknown-field’ is a mistake the service rejects, so it stays an error: fix the rule instead of turning it off'],
      ],
    );
  });

  it('completes the codes under `rules` in the file', async () => {
    const uri = uriOf('.rulesets.yaml');
    client.change(uri, 2, [{ text: 'rules:\n  shad\n' }]);
    const list = (await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 1, character: 6 } })) as CompletionList | CompletionItem[];
    const labels = (Array.isArray(list) ? list : list.items).map((i) => i.label);
    assert.ok(labels.includes('shadowed-rule'), JSON.stringify(labels));
  });
});

describe('server: a .rulesets.yaml in a folder inside the workspace folder', () => {
  let folder: string;
  let client: TestClient;
  const uriOf = (...names: string[]) => pathToFileURL(join(folder, ...names)).href;

  before(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'rulesets-nested-')));
    mkdirSync(join(folder, 'edge', 'deep'), { recursive: true });
    mkdirSync(join(folder, 'other'));
    writeFileSync(join(folder, 'edge', '.rulesets.yaml'), 'phase: magic_transit\nrules:\n  country-code-case: error\n');
    client = await startClient({ workspaceFolders: [pathToFileURL(folder).href] });
  });
  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('applies to the files of its folder and of the folders below it, as in `rulesets check`', async () => {
    for (const uri of [uriOf('edge', 'a.ruleset.yaml'), uriOf('edge', 'deep', 'b.ruleset.yaml')]) {
      const published = client.nextDiagnostics(uri, 1);
      client.open(uri, 'yaml', RULESET);
      assert.deepEqual(shown((await published).diagnostics), [['country-code-case', 1], ['unknown-field', 1]], uri);
    }
  });

  it('does not apply beside its folder', async () => {
    const uri = uriOf('other', 'c.ruleset.yaml');
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'yaml', RULESET);
    assert.deepEqual(shown((await published).diagnostics), [['phase-not-given', 3], ['country-code-case', 2]]);
  });

  it('one created nearer to an open file wins over the one above, whole, once the editor says so', async () => {
    const uri = uriOf('edge', 'deep', 'b.ruleset.yaml');
    writeFileSync(join(folder, 'edge', 'deep', '.rulesets.yaml'), 'rules:\n  always-true: off\n');
    const published = client.nextDiagnostics(uri);
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf('edge', 'deep', '.rulesets.yaml'), type: FileChangeType.Created }] });
    // Its own file sets no phase, and takes none from the one above.
    assert.deepEqual(shown((await published).diagnostics), [['phase-not-given', 3], ['country-code-case', 2]]);
  });
});

describe('server: workspace folders added and removed while it runs', () => {
  it('reads the .rulesets.yaml of a folder added to the workspace, and forgets it when the folder is removed', async () => {
    const first = realpathSync(mkdtempSync(join(tmpdir(), 'rulesets-first-')));
    const added = realpathSync(mkdtempSync(join(tmpdir(), 'rulesets-added-')));
    writeFileSync(join(added, '.rulesets.yaml'), 'phase: magic_transit\nrules:\n  country-code-case: error\n');
    const client = await startClient({ workspaceFolders: [pathToFileURL(first).href] });
    try {
      const uri = pathToFileURL(join(added, 'edge.ruleset.yaml')).href;
      const opened = client.nextDiagnostics(uri, 1);
      client.open(uri, 'yaml', RULESET);
      // Not yet a folder of the workspace: no phase, so only the country code, as a warning.
      assert.deepEqual(shown((await opened).diagnostics), [['phase-not-given', 3], ['country-code-case', 2]]);

      const withFolder = client.nextDiagnostics(uri);
      await client.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: [{ uri: pathToFileURL(added).href, name: 'added' }], removed: [] } });
      assert.deepEqual(shown((await withFolder).diagnostics), [['country-code-case', 1], ['unknown-field', 1]]);

      const withoutFolder = client.nextDiagnostics(uri);
      await client.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: [], removed: [{ uri: pathToFileURL(added).href, name: 'added' }] } });
      assert.deepEqual(shown((await withoutFolder).diagnostics), [['phase-not-given', 3], ['country-code-case', 2]]);
    } finally {
      await client.stop();
      rmSync(first, { recursive: true, force: true });
      rmSync(added, { recursive: true, force: true });
    }
  });
});

describe('server: the plan and add-ons of .rulesets.yaml', () => {
  it("reports Bot Management's fields on Enterprise without the add-on, and not once the saved file lists it", async () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'rulesets-addons-')));
    writeFileSync(join(folder, '.rulesets.yaml'), 'plan: enterprise\naddons: []\n');
    const client = await startClient({ workspaceFolders: [pathToFileURL(folder).href] });
    try {
      const uri = pathToFileURL(join(folder, 'bots.ruleset.yaml')).href;
      const opened = client.nextDiagnostics(uri, 1);
      client.open(uri, 'yaml', 'name: bots\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: cf.bot_management.score lt 30\n');
      assert.deepEqual(shown((await opened).diagnostics), [['addon-required', 1]]);
      writeFileSync(join(folder, '.rulesets.yaml'), 'plan: enterprise\naddons: [bot_management]\n');
      const saved = client.nextDiagnostics(uri);
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(join(folder, '.rulesets.yaml')).href, type: FileChangeType.Changed }] });
      assert.deepEqual(shown((await saved).diagnostics), []);
    } finally {
      await client.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
