/**
 * "Check Workspace" over LSP (rulesets/checkFiles): the bundled server, spoken to over stdio
 * as an editor would, is given the URIs of files it has never seen open; it reads them from
 * disk, publishes the diagnostics of the rulesets among them, reports progress, stops when
 * cancelled, and keeps those diagnostics when such a file is opened and closed or follows it
 * when it changes on disk.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  FileChangeType,
  RegistrationRequest,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  type RegistrationParams,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from 'vscode-languageserver-protocol/node';
import { CHECK_FILES_REQUEST, type CheckFilesParams, type CheckFilesResult } from '../../server/src/protocol';
import { codesOf, ROOT, startClient, type StartOptions, type TestClient } from './lsp-client';

before(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
});

const EDGE = 'name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 22\n';
const EDGE_FIXED = EDGE.replace('tcp.dstprt', 'tcp.dstport');

/** A workspace on disk: rulesets by name, by content, a clean one, and files that are not rulesets. */
const FILES: Record<string, string> = {
  'edge.ruleset.yaml': EDGE,
  'policy/office.json': JSON.stringify({ name: 'office', kind: 'custom', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src in {10.0.0.1/8}' }] }, null, 2),
  'clean.ruleset.json': JSON.stringify({ name: 'clean', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'tcp.dstport == 23' }] }, null, 2),
  'notes.json': '{\n  "rules": "none yet",\n  "expression": "tcp.dstprt == 22"\n}\n',
  'package.json': '{"name": "infra", "version": "1.0.0"}\n',
  'edge.ruleset.test.yaml': 'cases:\n  - packet: {tcp.dstport: 22}\n    expect: block\n',
  'README.md': '# rulesets\n`tcp.dstprt`\n',
};
const RULESETS = ['edge.ruleset.yaml', 'policy/office.json', 'clean.ruleset.json'];

let workspace: string;
const uriOf = (name: string) => pathToFileURL(join(workspace, name)).href;
const write = (name: string, text: string) => {
  mkdirSync(dirname(join(workspace, name)), { recursive: true });
  writeFileSync(join(workspace, name), text);
};

before(() => {
  workspace = mkdtempSync(join(tmpdir(), 'rulesets-check-files-'));
  for (const [name, text] of Object.entries(FILES)) write(name, text);
});
after(() => rmSync(workspace, { recursive: true, force: true }));

type Progress = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/** Sends rulesets/checkFiles for these files; the progress reported on `token` lands in `progress`. */
function checkFiles(client: TestClient, names: readonly string[], options: { token?: string; progress?: Progress[]; cancel?: CancellationTokenSource } = {}): Promise<CheckFilesResult> {
  if (options.token) client.connection.onProgress(WorkDoneProgress.type, options.token, (value) => options.progress?.push(value));
  const params: CheckFilesParams = { uris: names.map(uriOf), workDoneToken: options.token };
  // An undefined third argument would be sent as a second parameter.
  if (options.cancel) return client.connection.sendRequest<CheckFilesResult>(CHECK_FILES_REQUEST, params, options.cancel.token);
  return client.connection.sendRequest<CheckFilesResult>(CHECK_FILES_REQUEST, params);
}

async function withClient(options: StartOptions, body: (client: TestClient) => Promise<void>): Promise<void> {
  const client = await startClient(options);
  try {
    await body(client);
  } finally {
    await client.stop();
  }
}

const close = (client: TestClient, name: string) => client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uriOf(name) } });

describe('rulesets/checkFiles: Check Workspace over LSP', { timeout: 60_000 }, () => {
  it('publishes the diagnostics of rulesets never opened, reports progress, and skips other files', async () => {
    await withClient({}, async (client) => {
      const progress: Progress[] = [];
      const names = [...Object.keys(FILES), 'gone.ruleset.yaml'];
      const result = await checkFiles(client, names, { token: 'check-1', progress });

      assert.deepEqual(result, { rulesets: 3, withProblems: 2, errors: 2, warnings: 0, others: 0, unreadable: [uriOf('gone.ruleset.yaml')], cancelled: false });
      const published = new Map(client.published.map((p) => [p.uri, p.diagnostics]));
      assert.deepEqual([...published.keys()].sort(), RULESETS.map(uriOf).sort(), 'diagnostics for the rulesets, and only for them');
      assert.deepEqual(codesOf(published.get(uriOf('edge.ruleset.yaml'))!), ['unknown-field']);
      assert.equal(published.get(uriOf('edge.ruleset.yaml'))![0].message, "unknown field ‘tcp.dstprt’ in phase ‘magic_transit’; did you mean ‘tcp.dstport’ or ‘udp.dstport’?");
      assert.deepEqual(codesOf(published.get(uriOf('policy/office.json'))!), ['invalid-cidr'], 'a ruleset by its content');
      assert.deepEqual(published.get(uriOf('clean.ruleset.json')), [], 'a clean ruleset is published empty');

      assert.deepEqual(progress[0], { kind: 'begin', title: 'Checking rulesets', percentage: 0, message: `0/${names.length} files`, cancellable: true });
      const reports = progress.filter((p): p is WorkDoneProgressReport => p.kind === 'report');
      assert.ok(reports.length >= 1, JSON.stringify(progress));
      assert.deepEqual(reports.at(-1), { kind: 'report', percentage: 100, message: `${names.length}/${names.length} files` });
      assert.deepEqual(progress.at(-1), { kind: 'end' });
    });
  });

  it('checks the Terraform files that declare a cloudflare_ruleset, and no other, unless Terraform is turned off', async () => {
    write('infra/edge.tf', 'resource "cloudflare_ruleset" "edge" {\n  name  = "edge"\n  kind  = "root"\n  phase = "magic_transit"\n  rules {\n    action     = "block"\n    expression = "tcp.dstprt == 22"\n    ref        = "no_ssh"\n  }\n}\n');
    write('infra/dns.tf', 'resource "cloudflare_record" "www" {\n  name    = "www"\n  content = "tcp.dstprt == 22 rules"\n}\n');
    await withClient({}, async (client) => {
      const result = await checkFiles(client, ['infra/edge.tf', 'infra/dns.tf']);
      assert.deepEqual(result, { rulesets: 1, withProblems: 1, errors: 1, warnings: 0, others: 0, unreadable: [], cancelled: false });
      const published = new Map(client.published.map((p) => [p.uri, p.diagnostics]));
      assert.deepEqual([...published.keys()], [uriOf('infra/edge.tf')]);
      assert.deepEqual(published.get(uriOf('infra/edge.tf'))!.map((d) => [d.code, d.range.start]), [['unknown-field', { line: 6, character: 18 }]]);
    });
    await withClient({ settings: { terraform: { enable: false } } }, async (client) => {
      // The settings are asked for after initialization; until they arrive, Terraform is on.
      let result: CheckFilesResult | undefined;
      for (let i = 0; i < 50 && result?.rulesets !== 0; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        result = await checkFiles(client, ['infra/edge.tf']);
      }
      assert.equal(result?.rulesets, 0);
    });
  });

  it('says of a ruleset file that is not UTF-8 text, once, on its first such byte; a binary file that is no ruleset is passed over (issue 35)', async () => {
    // The é of `café` is byte 88: line 6, after the 20 characters of `    description: caf`.
    const latin1 = Buffer.concat([Buffer.from('name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    description: caf'), Buffer.from([0xe9]), Buffer.from('\n    expression: tcp.dstprt == 22\n')]);
    mkdirSync(join(workspace, 'bytes'), { recursive: true });
    writeFileSync(join(workspace, 'bytes', 'latin1.ruleset.yaml'), latin1);
    writeFileSync(join(workspace, 'bytes', 'logo.json'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    await withClient({}, async (client) => {
      const result = await checkFiles(client, ['bytes/latin1.ruleset.yaml', 'bytes/logo.json']);
      assert.deepEqual(result, { rulesets: 1, withProblems: 1, errors: 1, warnings: 0, others: 0, unreadable: [], cancelled: false });
      const published = new Map(client.published.map((p) => [p.uri, p.diagnostics]));
      assert.deepEqual([...published.keys()], [uriOf('bytes/latin1.ruleset.yaml')]);
      // One finding: the file's mistake in `tcp.dstprt` is not said of a text that is not the file.
      const [diagnostic] = published.get(uriOf('bytes/latin1.ruleset.yaml'))!;
      assert.deepEqual([diagnostic.code, diagnostic.range.start, diagnostic.range.end], ['not-utf8', { line: 5, character: 20 }, { line: 5, character: 21 }]);
      assert.match(diagnostic.message, /^byte 88 \(line 6, column 21\) is not UTF-8 \(0xE9\); save the file as UTF-8/);
      assert.equal(published.get(uriOf('bytes/latin1.ruleset.yaml'))!.length, 1);
    });
  });

  it('keeps a checked file’s diagnostics when the editor opens and closes it: from the file on disk again', async () => {
    await withClient({}, async (client) => {
      await checkFiles(client, ['edge.ruleset.yaml']);
      const edited = client.nextDiagnostics(uriOf('edge.ruleset.yaml'), 1);
      client.open(uriOf('edge.ruleset.yaml'), 'yaml', EDGE_FIXED);
      assert.deepEqual(codesOf((await edited).diagnostics), [], 'the open document: its text, fixed but not saved');
      const closed = client.nextDiagnostics(uriOf('edge.ruleset.yaml'));
      await close(client, 'edge.ruleset.yaml');
      assert.deepEqual(codesOf((await closed).diagnostics), ['unknown-field'], 'closed: the file on disk, whose mistake is still there');

      // A file never checked from disk goes as before: closed, its diagnostics are cleared.
      const other = 'file:///elsewhere/other.ruleset.yaml';
      const opened = client.nextDiagnostics(other, 1);
      client.open(other, 'yaml', EDGE);
      assert.deepEqual(codesOf((await opened).diagnostics), ['unknown-field']);
      const cleared = client.nextDiagnostics(other);
      await client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: other } });
      assert.deepEqual((await cleared).diagnostics, []);
    });
  });

  it('with pull diagnostics: takes back the pushed ones while the editor has the file open, and pushes them again when it closes it', async () => {
    await withClient({ pull: true }, async (client) => {
      await checkFiles(client, ['edge.ruleset.yaml']);
      assert.deepEqual(codesOf(client.published.at(-1)!.diagnostics), ['unknown-field'], 'pushed, though the editor pulls');
      const takenBack = client.nextDiagnostics(uriOf('edge.ruleset.yaml'));
      client.open(uriOf('edge.ruleset.yaml'), 'yaml', EDGE);
      // The editor pulls the open document's own: both would list the same problem twice.
      assert.deepEqual((await takenBack).diagnostics, []);
      const closed = client.nextDiagnostics(uriOf('edge.ruleset.yaml'));
      await close(client, 'edge.ruleset.yaml');
      assert.deepEqual(codesOf((await closed).diagnostics), ['unknown-field']);
    });
  });

  it('follows a checked file on disk through the watcher it registers: changed, then deleted', async () => {
    const name = 'watched.ruleset.yaml';
    write(name, EDGE);
    await withClient({ watchedFiles: true }, async (client) => {
      const registrations: RegistrationParams[] = [];
      client.connection.onRequest(RegistrationRequest.type, (params) => {
        registrations.push(params);
      });
      await checkFiles(client, [name]);
      assert.deepEqual(
        registrations.flatMap((r) => r.registrations).map((r) => [r.method, r.registerOptions]),
        [[DidChangeWatchedFilesNotification.method, { watchers: [{ globPattern: '**/*.{json,yaml,yml,tf,tfvars}' }] }]],
      );
      write(name, EDGE_FIXED);
      const changed = client.nextDiagnostics(uriOf(name));
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(name), type: FileChangeType.Changed }] });
      assert.deepEqual((await changed).diagnostics, [], 'fixed on disk');
      rmSync(join(workspace, name));
      const deleted = client.nextDiagnostics(uriOf(name));
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(name), type: FileChangeType.Deleted }] });
      assert.deepEqual((await deleted).diagnostics, [], 'gone from disk, gone from the list');
      await checkFiles(client, [name]);
      assert.equal(registrations.length, 1, 'the watcher is registered once');
    });
  });

  it('stops when the request is cancelled, as from the progress notification', async () => {
    const names = Array.from({ length: 400 }, (_, n) => `many/r${n}.ruleset.yaml`);
    for (const [n, name] of names.entries()) write(name, EDGE.replace('tcp.dstprt == 22', `tcp.dstprt == ${n}`));
    await withClient({}, async (client) => {
      const cancel = new CancellationTokenSource();
      const progress: Progress[] = [];
      const first = client.nextDiagnostics(uriOf(names[0]));
      const running = checkFiles(client, names, { token: 'check-cancelled', progress, cancel });
      await first;
      cancel.cancel();
      const result = await running;
      assert.equal(result.cancelled, true);
      assert.ok(result.rulesets < names.length, `stopped after ${result.rulesets} of ${names.length} files`);
      assert.equal(client.published.length, result.rulesets, 'no file is published after the run stopped');
      assert.deepEqual(progress.at(-1), { kind: 'end' });
    });
  });

  it('shows progress of its own in an editor that sends no token but shows server progress (Neovim)', async () => {
    await withClient({ workDoneProgress: true }, async (client) => {
      const progress: Progress[] = [];
      client.connection.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
        client.connection.onProgress(WorkDoneProgress.type, token, (value) => progress.push(value));
      });
      const result = await checkFiles(client, RULESETS);
      assert.equal(result.rulesets, 3);
      assert.deepEqual(progress.map((p) => p.kind).filter((kind, i, all) => kind !== all[i - 1]), ['begin', 'report', 'end']);
    });
  });
});
