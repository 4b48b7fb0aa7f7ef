/**
 * Terraform files through the bundled server, as VS Code (with or without HashiCorp's
 * extension), Neovim and Helix hand them over: by the `terraform` language or by a `.tf` name.
 * The server loads its HCL parser when it starts and serves a `.tf` document opened at once;
 * `rulesets.terraform.enable: false` leaves `.tf` files alone and takes back what was shown.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompletionRequest, DidChangeConfigurationNotification, DocumentDiagnosticRequest, HoverRequest, type CompletionList, type FullDocumentDiagnosticReport, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { parseDocument } from '../../server/src/documents/parsed-document';
import { toPositions } from '../../server/src/documents/positions';
import { checkDocument } from '../../server/src/documents/ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { plainText } from '../../server/src/language/problem';
import { DOCUMENT_STATUS_REQUEST, type DocumentStatus, type DocumentStatusParams } from '../../server/src/protocol';
import { positionOf, ROOT, startClient, type TestClient } from './lsp-client';

const FIXTURE = readFileSync(join(ROOT, 'test', 'e2e', 'fixtures', 'rulesets.tf'), 'utf8');
const DNS_ONLY = 'resource "cloudflare_record" "www" {\n  zone_id = var.zone_id\n  name    = "www"\n}\n';

before(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  await loadTerraformParser();
});

/** What `rulesets check` finds in the fixture, as the server publishes it (hints included). */
function expected(text: string) {
  return toPositions(text, checkDocument(parseDocument(text, 'hcl'))).map((p) => [p.code, p.range, plainText(p.message)]);
}

describe('Terraform files, pushed diagnostics', () => {
  let client: TestClient;
  const settings: { terraform?: { enable: boolean } } = {};
  before(async () => {
    client = await startClient({ settings });
  });
  after(async () => {
    await client.stop();
  });

  it('publishes each mistake of the three resources on its characters, for a document opened as the server starts', async () => {
    const uri = 'file:///work/infra/rulesets.tf';
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'terraform', FIXTURE);
    const { diagnostics } = await published;
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range, d.message]),
      expected(FIXTURE),
    );
    const at = (code: string) => diagnostics.filter((d) => d.code === code).map((d) => FIXTURE.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character));
    assert.deepEqual(at('unknown-field'), ['http.hots', 'tcp.dstprt', 'http.request.methd']);
    assert.deepEqual(at('unknown-function'), ['lowr']);
    // The interpolation is never a mistake: one hint, on it, says it was not checked.
    const interpolation = positionOf(FIXTURE, '${var.office_ip}');
    const onIt = diagnostics.filter((d) => d.range.start.line === interpolation.line);
    assert.deepEqual(onIt.map((d) => [d.code, d.severity]), [['terraform-interpolation', 4]]);
  });

  it('serves a .tf file by its name when no extension gives it the terraform language', async () => {
    const uri = 'file:///work/infra/plain.tf';
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'plaintext', FIXTURE);
    assert.deepEqual((await published).diagnostics.map((d) => [d.code, d.range, d.message]), expected(FIXTURE));
  });

  it('leaves a Terraform file without a cloudflare_ruleset alone', async () => {
    const uri = 'file:///work/infra/dns.tf';
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'terraform', DNS_ONLY);
    assert.deepEqual((await published).diagnostics, []);
    const status = (await client.connection.sendRequest(DOCUMENT_STATUS_REQUEST, { uri } satisfies DocumentStatusParams)) as DocumentStatus;
    assert.deepEqual(status, { format: 'hcl' });
  });

  it('says how many rulesets a Terraform file declares', async () => {
    const status = (await client.connection.sendRequest(DOCUMENT_STATUS_REQUEST, { uri: 'file:///work/infra/rulesets.tf' } satisfies DocumentStatusParams)) as DocumentStatus;
    assert.deepEqual(status, { format: 'hcl', ruleset: 'terraform', layout: 'terraform', rulesets: 3 });
  });

  it('completes and hovers inside a heredoc and inside an escaped string', async () => {
    const uri = 'file:///work/infra/rulesets.tf';
    const complete = async (needle: string, delta: number) =>
      ((await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: positionOf(FIXTURE, needle, delta) })) as CompletionList).items.map((i) => i.label);
    const hover = async (needle: string, delta: number) => {
      const answer = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf(FIXTURE, needle, delta) });
      return (answer?.contents as MarkupContent | undefined)?.value ?? '';
    };
    // In the heredoc of the first resource (an HTTP phase): the request's fields.
    assert.ok((await complete('http.request.method eq "POST"', 'http.request.'.length)).includes('http.request.method'));
    assert.match(await hover('http.request.method eq "POST"', 3), /http\.request\.method/);
    // In the quoted string, past its escaped quotes: a country code by its name.
    assert.match(await hover('\\"BR\\"', 3), /Brazil/);
    assert.ok((await complete('ip.src.country in', 3)).some((label) => label.startsWith('ip.src')));
  });

  it('drops its diagnostics when rulesets.terraform.enable is turned off, and shows them again when it is on', async () => {
    const uri = 'file:///work/infra/rulesets.tf';
    const cleared = client.nextDiagnostics(uri);
    settings.terraform = { enable: false };
    void client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { rulesets: settings } });
    assert.deepEqual((await cleared).diagnostics, []);
    const status = (await client.connection.sendRequest(DOCUMENT_STATUS_REQUEST, { uri } satisfies DocumentStatusParams)) as DocumentStatus;
    assert.deepEqual(status, { format: 'hcl', disabled: 'terraform' });
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionOf(FIXTURE, 'http.hots', 2) });
    assert.equal(hover, null);
    // JSON and YAML rulesets are not affected.
    const yaml = 'file:///work/edge.ruleset.yaml';
    const yamlPublished = client.nextDiagnostics(yaml, 1);
    client.open(yaml, 'yaml', 'name: e\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 1\n');
    assert.equal((await yamlPublished).diagnostics.length, 1);
    const back = client.nextDiagnostics(uri);
    settings.terraform = { enable: true };
    void client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { rulesets: settings } });
    assert.deepEqual((await back).diagnostics.map((d) => [d.code, d.range, d.message]), expected(FIXTURE));
  });
});

describe('Terraform files, pulled diagnostics', () => {
  let client: TestClient;
  before(async () => {
    client = await startClient({ pull: true });
  });
  after(async () => {
    await client.stop();
  });

  it('answers a pull for a .tf document at once after start-up, waiting for the parser rather than answering empty', async () => {
    const uri = 'file:///work/infra/rulesets.tf';
    client.open(uri, 'terraform', FIXTURE);
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    assert.deepEqual(report.items.map((d) => [d.code, d.range, d.message]), expected(FIXTURE));
  });
});
