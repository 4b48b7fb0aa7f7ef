/**
 * The bundled server, started as a child process and spoken to over stdio, as any editor
 * would: initialize, open, change, diagnostics (pushed and pulled), completion, hover,
 * code actions, shutdown.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  IPCMessageReader,
  IPCMessageWriter,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type PublishDiagnosticsParams,
  CodeActionRequest,
  CompletionRequest,
  CompletionResolveRequest,
  DocumentDiagnosticRequest,
  DocumentSymbolRequest,
  HoverRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type FullDocumentDiagnosticReport,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { toPositions } from '../../server/src/documents/positions';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { plainText } from '../../server/src/language/problem';
import { DOCUMENT_STATUS_REQUEST, type DocumentStatus, type DocumentStatusParams } from '../../server/src/protocol';
import { applyEdits } from '../features/harness';
import { codesOf, positionOf, ROOT, SERVER, startClient, type TestClient } from './lsp-client';

const MISTAKES_PATH = join(ROOT, 'examples', 'mistakes.ruleset.yaml');
const MISTAKES = readFileSync(MISTAKES_PATH, 'utf8');
const MISTAKES_URI = 'file:///work/examples/mistakes.ruleset.yaml';

before(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
});

describe('server over stdio, push diagnostics', () => {
  let client: TestClient;
  before(async () => {
    client = await startClient();
  });
  after(async () => {
    await client.stop();
  });

  it('publishes the same diagnostics as rulesets check for an opened file', async () => {
    const published = client.nextDiagnostics(MISTAKES_URI, 1);
    client.open(MISTAKES_URI, 'yaml', MISTAKES);
    const { diagnostics } = await published;
    const expected = toPositions(MISTAKES, checkRuleset(MISTAKES, 'yaml'));
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range, d.message]),
      // The same words, with code quoted ‘…’: LSP messages are plain text.
      expected.map((p) => [p.code, p.range, plainText(p.message)]),
    );
    assert.ok(diagnostics.every((d) => d.source === 'rulesets'));
    assert.ok(codesOf(diagnostics).includes('unknown-field'));
  });

  it('re-publishes after an incremental change, for the new version', async () => {
    const published = client.nextDiagnostics(MISTAKES_URI, 2);
    const start = positionOf(MISTAKES, 'tcp.dstprt');
    client.change(MISTAKES_URI, 2, [{ range: { start, end: { line: start.line, character: start.character + 'tcp.dstprt'.length } }, text: 'tcp.dstport' }]);
    const { diagnostics, version } = await published;
    assert.equal(version, 2);
    assert.ok(!codesOf(diagnostics).includes('unknown-field'), 'the fixed field is no longer reported');
    assert.ok(codesOf(diagnostics).includes('comma-in-set'), 'the other mistakes still are');
  });

  it('debounces while typing: rapid changes publish once, for the last version', async () => {
    const uri = 'file:///work/typing.ruleset.yaml';
    const text = (port: number) => `name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport == ${port}\n`;
    const first = client.nextDiagnostics(uri, 1);
    client.open(uri, 'yaml', text(1));
    await first;
    const seen = client.published.length;
    const last = client.nextDiagnostics(uri, 6);
    // Keystrokes 20 ms apart, well inside the debounce.
    for (let version = 2; version <= 6; version++) {
      client.change(uri, version, [{ text: text(70_000 + version) }]);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { diagnostics } = await last;
    assert.match(diagnostics[0].message, /^70006 is outside/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(client.published.slice(seen).filter((p) => p.uri === uri).map((p) => p.version), [6]);
  });

  it('checks a test file against the open ruleset beside it, and again when the ruleset changes', async () => {
    const rulesetUri = 'file:///nonexistent-rulesets-dir/ssh.ruleset.yaml';
    const testUri = 'file:///nonexistent-rulesets-dir/ssh.ruleset.test.yaml';
    const ruleset = 'name: ssh\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.proto == "tcp"\n';
    const cases = '- packet: {ip.proto: udp}\n  expect: block\n';
    client.open(rulesetUri, 'yaml', ruleset);
    const failing = client.nextDiagnostics(testUri, 1);
    client.open(testUri, 'yaml', cases);
    const { diagnostics } = await failing;
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].message, 'expected block, got pass (no rule matched)');
    assert.deepEqual(diagnostics[0].range, { start: { line: 1, character: 10 }, end: { line: 1, character: 15 } });
    // Fix the ruleset: the test file is checked again, with no edit of its own.
    const fixed = client.nextDiagnostics(testUri, 1);
    client.change(rulesetUri, 2, [{ text: ruleset.replace('"tcp"', '"udp"') }]);
    assert.deepEqual((await fixed).diagnostics, []);
  });

  it("checks a test file of a Terraform resource with its module's values, and its `variables:` against the module's", async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { pathToFileURL } = await import('node:url');
    const folder = mkdtempSync(join(tmpdir(), 'protocol-tf-test-'));
    writeFileSync(join(folder, 'variables.tf'), 'variable "blocked_path" {\n  type = string\n}\n');
    const main = 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "starts_with(http.request.uri.path, \\"${var.blocked_path}\\")"\n  }\n}\n';
    writeFileSync(join(folder, 'main.tf'), main);
    const testUri = pathToFileURL(join(folder, 'waf.ruleset.test.yaml')).href;
    const cases = 'cases:\n  - request: {url: "https://a.example/admin/"}\n    expect: pass\n';
    const misspelt = client.nextDiagnostics(testUri, 1);
    client.open(testUri, 'yaml', `ruleset: main.tf\nvariables: {blocked_pth: /admin}\n${cases}`);
    assert.deepEqual((await misspelt).diagnostics.map((d) => d.message), ['no variable ‘blocked_pth’ in the module of the ruleset; did you mean ‘blocked_path’? it declares ‘blocked_path’']);
    const given = client.nextDiagnostics(testUri, 2);
    client.change(testUri, 2, [{ text: `ruleset: main.tf\nvariables: {blocked_path: /admin}\n${cases}` }]);
    assert.match((await given).diagnostics.map((d) => d.message).join('\n'), /^expected pass, got block by rule 1/);
  });

  it('publishes nothing for a JSON file that is not a ruleset', async () => {
    const uri = 'file:///work/package.json';
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'json', '{"name": "x", "version": "1.0.0", "rules": "not rules"}');
    assert.deepEqual((await published).diagnostics, []);
  });

  it('completes, hovers, and offers quick fixes that clean the document', async () => {
    const uri = 'file:///work/live.ruleset.json';
    const text = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n  {"action": "block", "expression": "ip.src in "},\n  {"action": "block", "expression": "ip.src.country in {\\"BR\\", \\"br\\"}"}\n]}\n';
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'json', text);
    const { diagnostics } = await published;

    const completion = (await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: positionOf(text, 'ip.src in "', 'ip.src in '.length),
    })) as CompletionList | CompletionItem[] | null;
    const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
    assert.ok(items.some((i) => i.label === '$svc.anonymizer'), 'lists are offered after `in`');

    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf(text, '\\"BR\\"', 3) });
    assert.match((hover?.contents as MarkupContent).value, /Brazil/);

    const comma = diagnostics.find((d) => d.code === 'comma-in-set');
    assert.ok(comma, 'the comma is reported');
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: comma.range,
      context: { diagnostics: [comma] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.kind === 'quickfix' && a.diagnostics?.some((d) => d.code === 'comma-in-set'));
    assert.ok(fix?.edit?.changes?.[uri], 'a quick fix with edits');
    const fixed = applyEdits(text, fix.edit.changes[uri]);
    assert.ok(!codesOf(toPositions(fixed, checkRuleset(fixed, 'json'))).includes('comma-in-set'));
  });

  it('answers the other features without error', async () => {
    const uri = 'file:///work/features.ruleset.json';
    const text = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "description": "udp", "expression": "bit_slice(udp, 64, 72) == 0x45"}]}';
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'json', text);
    await published;
    const signature = await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: { uri }, position: positionOf(text, 'udp, 64', 'udp, '.length) });
    assert.equal(signature?.activeParameter ?? signature?.signatures[0]?.activeParameter, 1);
    const tokens = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    assert.ok(tokens && tokens.data.length > 0 && tokens.data.length % 5 === 0);
    const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    assert.equal(symbols?.length, 1);
  });

  it('survives requests about nothing and positions past the end', async () => {
    const nowhere = { textDocument: { uri: 'file:///work/never-opened.ruleset.json' }, position: { line: 0, character: 0 } };
    assert.equal(await client.connection.sendRequest(HoverRequest.type, nowhere), null);
    const far = { textDocument: { uri: MISTAKES_URI }, position: { line: 100_000, character: 100_000 } };
    await client.connection.sendRequest(CompletionRequest.type, far);
    await client.connection.sendRequest(HoverRequest.type, far);
    // Still serving.
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: MISTAKES_URI }, position: positionOf(MISTAKES, 'ip.src in 10', 1) });
    assert.ok(hover, 'a hover on a field');
  });

  it('checks binary junk and deeply nested documents without dying', async () => {
    const junk = 'file:///work/junk.ruleset.json';
    const junkPublished = client.nextDiagnostics(junk, 1);
    client.open(junk, 'json', '\u0000\u0001{"rules": [[[[' + '['.repeat(20_000) + '\uFFFF');
    assert.ok((await junkPublished).diagnostics.length > 0);
    const deep = 'file:///work/deep.ruleset.yaml';
    const deepPublished = client.nextDiagnostics(deep, 1);
    client.open(deep, 'yaml', `name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ${'('.repeat(50_000)}sip${')'.repeat(50_000)}\n`);
    assert.ok(codesOf((await deepPublished).diagnostics).includes('nesting-too-deep'));
  });
});

describe('server over stdio, pull diagnostics and settings', () => {
  let client: TestClient;
  before(async () => {
    client = await startClient({ pull: true, settings: { knownLists: ['office_networks'], hints: { 'cidr-host-bits': false } } });
  });
  after(async () => {
    await client.stop();
  });

  async function pull(uri: string): Promise<FullDocumentDiagnosticReport> {
    return (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
  }

  it('answers textDocument/diagnostic, and again after a change', async () => {
    client.open(MISTAKES_URI, 'yaml', MISTAKES);
    const first = await pull(MISTAKES_URI);
    assert.equal(first.kind, 'full');
    assert.ok(codesOf(first.items).includes('unknown-field'));
    const start = positionOf(MISTAKES, 'tcp.dstprt');
    client.change(MISTAKES_URI, 2, [{ range: { start, end: { line: start.line, character: start.character + 10 } }, text: 'tcp.dstport' }]);
    const second = await pull(MISTAKES_URI);
    assert.ok(!codesOf(second.items).includes('unknown-field'));
  });

  it('answers for a test file, with the ruleset as it is now', async () => {
    const rulesetUri = 'file:///nonexistent-rulesets-dir/pull.ruleset.yaml';
    const testUri = 'file:///nonexistent-rulesets-dir/pull.ruleset.test.yaml';
    const ruleset = 'name: p\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.proto == "tcp"\n';
    client.open(testUri, 'yaml', '- packet: {ip.proto: udp}\n  expect: block\n');
    const missing = await pull(testUri);
    assert.deepEqual(missing.items.map((d) => d.code), ['test-no-ruleset']);
    client.open(rulesetUri, 'yaml', ruleset);
    assert.deepEqual((await pull(testUri)).items.map((d) => d.code), ['test-failed']);
    // The editor is asked to pull again: the test file's result changed with no edit of its own.
    const refreshed = new Promise<void>((resolve) => client.connection.onRequest('workspace/diagnostic/refresh', () => (resolve(), null)));
    client.change(rulesetUri, 2, [{ text: ruleset.replace('"tcp"', '"udp"') }]);
    await refreshed;
    assert.deepEqual((await pull(testUri)).items, []);
  });

  it('takes knownLists and hints from workspace/configuration', async () => {
    const uri = 'file:///work/lists.ruleset.yaml';
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in $office_netwroks or ip.src in {10.0.0.1/8}\n';
    client.open(uri, 'yaml', text);
    // The configuration is asked for after initialization; pull until it has arrived.
    let report = await pull(uri);
    for (let i = 0; i < 50 && !codesOf(report.items).includes('unknown-list'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      report = await pull(uri);
    }
    const unknown = report.items.find((d) => d.code === 'unknown-list');
    assert.ok(unknown, 'an account list that is not in knownLists is reported');
    assert.match(unknown.message, /office_networks/);
    // `cidr-host-bits` was a hint; a CIDR block with host bits set is now an error no hint setting hides.
    assert.ok(codesOf(report.items).includes('invalid-cidr'), 'the error is shown whatever the hints say');
  });
});

describe('server over stdio, the document status the VS Code extension shows', () => {
  let client: TestClient;
  before(async () => {
    client = await startClient({ pull: true, settings: { files: ['**/policies/*.yaml'] } });
  });
  after(async () => {
    await client.stop();
  });

  const status = (uri: string) => client.connection.sendRequest(DOCUMENT_STATUS_REQUEST, { uri } satisfies DocumentStatusParams) as Promise<DocumentStatus>;

  it('says why a document is a ruleset, and which phase it names', async () => {
    client.open(MISTAKES_URI, 'yaml', MISTAKES);
    assert.deepEqual(await status(MISTAKES_URI), { format: 'yaml', ruleset: 'name', phase: 'magic_transit' });
    const byContent = 'file:///work/firewall.json';
    client.open(byContent, 'json', '{"kind": "root", "rules": [{"action": "block", "expression": "ip.src == 10.0.0.1"}]}');
    assert.deepEqual(await status(byContent), { format: 'json', ruleset: 'content' });
  });

  it('takes the rulesets.files patterns into account, and says so of other files', async () => {
    const byPattern = 'file:///work/policies/edge.yaml';
    client.open(byPattern, 'yaml', 'rules: []\n');
    // The configuration is asked for after initialization; ask until it has arrived.
    let answer = await status(byPattern);
    for (let i = 0; i < 50 && answer.ruleset === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await status(byPattern);
    }
    assert.deepEqual(answer, { format: 'yaml', ruleset: 'pattern' });
    const other = 'file:///work/package.json';
    client.open(other, 'json', '{"name": "x", "version": "1.0.0"}');
    assert.deepEqual(await status(other), { format: 'json' });
    assert.deepEqual(await status('file:///work/not-open.json'), {});
  });
});

describe('server over stdio, clients with less', () => {
  it('keeps serving a pull client that cannot take diagnostic refresh requests', async () => {
    const client = await startClient({ pull: true, noRefresh: true, settings: { knownLists: ['a'] } });
    try {
      // The settings arrive after initialized; a refresh sent then would be refused.
      await new Promise((resolve) => setTimeout(resolve, 300));
      client.open(MISTAKES_URI, 'yaml', MISTAKES);
      const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: MISTAKES_URI } })) as FullDocumentDiagnosticReport;
      assert.ok(codesOf(report.items).includes('unknown-field'));
      assert.equal(client.child.exitCode, null, 'the server is still running');
    } finally {
      await client.stop();
    }
  });

  it('cancels, not empties, a pull overtaken by an edit', async () => {
    const client = await startClient({ pull: true });
    try {
      const uri = 'file:///work/big.ruleset.yaml';
      const rule = (i: number) => `  - action: block\n    expression: ip.src in {10.0.${i % 256}.0/24} and tcp.dstprt == ${i}\n`;
      const text = `name: x\nkind: root\nphase: magic_transit\nrules:\n${Array.from({ length: 5000 }, (_, i) => rule(i)).join('')}`;
      client.open(uri, 'yaml', text);
      const first = client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
      await new Promise((resolve) => setTimeout(resolve, 5));
      client.change(uri, 2, [{ text: text + '  - action: block\n    expression: sip\n' }]);
      const outcome = await first.then(
        (report) => ({ report: report as FullDocumentDiagnosticReport }),
        (error: { code?: number; data?: { retriggerRequest?: boolean } }) => ({ error }),
      );
      if ('report' in outcome) {
        // Finished before the edit arrived: then it is the whole answer for version 1 (a typo
        // in each rule, and one warning that 5,000 rules are more than the phase takes).
        assert.equal(outcome.report.items.filter((d) => d.code === 'unknown-field').length, 5000);
      } else {
        assert.equal(outcome.error.code, -32802, 'ServerCancelled');
        assert.equal(outcome.error.data?.retriggerRequest, true);
      }
      const second = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
      assert.equal(second.items.filter((d) => d.code === 'unknown-field').length, 5000);
    } finally {
      await client.stop();
    }
  });
});

/** Opens a ruleset using a misspelt account list: knownLists ['office_networks'] must be in force. */
async function assertKnownListsApplied(client: TestClient, uri: string): Promise<void> {
  const published = client.nextDiagnostics(uri, 1);
  client.open(uri, 'yaml', 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in $office_netwroks\n');
  const unknown = (await published).diagnostics.find((d) => d.code === 'unknown-list');
  assert.match(unknown?.message ?? '', /did you mean ‘\$office_networks’/);
}

describe('server over stdio, completion documentation on demand', () => {
  const uri = 'file:///work/waf.ruleset.yaml';
  const text = 'name: waf\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.ho\n';
  const position = positionOf(text, 'http.ho', 'http.ho'.length);

  async function complete(client: TestClient): Promise<CompletionItem[]> {
    client.open(uri, 'yaml', text);
    const completion = (await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position })) as CompletionList | null;
    return completion?.items ?? [];
  }

  it('leaves documentation out of the list for a client that resolves it, and gives it on resolve', async () => {
    const client = await startClient({ resolveDocumentation: true });
    try {
      const items = await complete(client);
      const host = items.find((i) => i.label === 'http.host');
      assert.ok(host, 'http.host is offered');
      assert.equal(host.documentation, undefined, 'no documentation in the list');
      assert.ok(host.detail, 'the detail stays in the list');
      const resolved = await client.connection.sendRequest(CompletionResolveRequest.type, host);
      assert.match((resolved.documentation as MarkupContent).value, /http\.host/);
      // An item of an older answer resolves as it is, not with another item's documentation.
      await complete(client);
      const stale = await client.connection.sendRequest(CompletionResolveRequest.type, host);
      assert.equal(stale.documentation, undefined);
    } finally {
      await client.stop();
    }
  });

  it('says the items\' shared range and format once to a client that reads item defaults, and each item\'s to one that does not', async () => {
    for (const itemDefaults of [true, false]) {
      const client = await startClient({ itemDefaults, resolveDocumentation: true });
      try {
        client.open(uri, 'yaml', text);
        const list = (await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position })) as CompletionList;
        const host = list.items.find((i) => i.label === 'http.host');
        assert.ok(host, 'http.host is offered');
        const range = { start: { line: position.line, character: position.character - 'http.ho'.length }, end: position };
        if (itemDefaults) {
          assert.deepEqual(list.itemDefaults?.editRange, range);
          assert.equal(host.textEdit, undefined);
          assert.equal(host.textEditText, undefined, 'the text is the label');
        } else {
          assert.equal(list.itemDefaults, undefined);
          assert.deepEqual(host.textEdit, { range, newText: 'http.host' });
        }
        // Resolving still finds the item's documentation.
        const resolved = await client.connection.sendRequest(CompletionResolveRequest.type, host);
        assert.match((resolved.documentation as MarkupContent).value, /http\.host/);
      } finally {
        await client.stop();
      }
    }
  });

  it('keeps documentation in the list for a client that does not resolve it', async () => {
    const client = await startClient();
    try {
      const host = (await complete(client)).find((i) => i.label === 'http.host');
      assert.match((host?.documentation as MarkupContent).value, /http\.host/);
    } finally {
      await client.stop();
    }
  });
});

describe('server over stdio, settings in initializationOptions', () => {
  it('keeps initializationOptions when workspace/configuration has no rulesets section', async () => {
    const client = await startClient({ configurationAnswersNull: true, initializationOptions: { rulesets: { knownLists: ['office_networks'] } } });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await assertKnownListsApplied(client, 'file:///work/null-config.ruleset.yaml');
    } finally {
      await client.stop();
    }
  });

  it('reads the rulesets section from initializationOptions when the editor cannot be asked', async () => {
    const client = await startClient({ noConfiguration: true, initializationOptions: { rulesets: { knownLists: ['office_networks'] } } });
    try {
      await assertKnownListsApplied(client, 'file:///work/init.ruleset.yaml');
    } finally {
      await client.stop();
    }
  });
});

describe('server over node IPC (as VS Code starts it)', () => {
  it('initializes and publishes diagnostics over --node-ipc', async () => {
    const child = fork(SERVER, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    const published = new Promise<PublishDiagnosticsParams>((resolve) => connection.onNotification(PublishDiagnosticsNotification.type, resolve));
    connection.listen();
    try {
      const result = await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
      assert.equal(result.serverInfo?.name, 'rulesets-language-server');
      await connection.sendNotification(InitializedNotification.type, {});
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: MISTAKES_URI, languageId: 'yaml', version: 1, text: MISTAKES } });
      assert.ok(codesOf((await published).diagnostics).includes('unknown-field'));
      await connection.sendRequest(ShutdownRequest.type);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await connection.sendNotification(ExitNotification.type);
      assert.equal(await exited, 0);
    } finally {
      connection.dispose();
      child.kill();
    }
  });
});

describe('server process', () => {
  it('exits cleanly on shutdown and exit', async () => {
    const client = await startClient();
    const exit = new Promise<number | null>((resolve) => client.child.once('exit', (code) => resolve(code)));
    await client.stop();
    assert.equal(await exit, 0);
    assert.equal(client.stderr(), '');
  });

  it('prints its version', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'dist', 'server.js'), '--version'], { encoding: 'utf8' });
    assert.equal(out.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});
