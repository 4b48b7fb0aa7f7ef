/**
 * A Terraform file in a real VS Code (code-server), with the packaged .vsix installed beside
 * the `terraform` language: what a person editing `cloudflare_ruleset` resources sees. Each
 * step leaves a screenshot in test-artifacts/e2e/terraform/ (images/terraform.png is
 * 5-hover-escaped-string.png of a run).
 *
 * HashiCorp's Terraform extension (hashicorp.terraform) cannot be installed here: it is on the
 * VS Code Marketplace and Open VSX, which these machines cannot reach, and on no registry they
 * can. In its place the test profile has test/e2e/terraform-stand-in/, an extension that
 * contributes the `terraform` language for `.tf` exactly as HashiCorp's does (id, aliases,
 * extension), and `terraform-vars` for `.tfvars` (terraform-module.test.ts), and nothing else. So this proves that the extension serves documents whose
 * language is `terraform` without contributing that language itself; it does not prove
 * anything about running beside terraform-ls (HashiCorp's language server), which is not here.
 * A second workbench, without the stand-in, shows `.tf` files served by their name alone.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from '../../server/src/documents/parsed-document';
import { toPositions } from '../../server/src/documents/positions';
import { checkDocument } from '../../server/src/documents/ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { plainText } from '../../server/src/language/problem';
import { makeWorkspace, startWorkbench, type Problem, type Workbench } from './workbench';
import { OCTORULES_MISTAKES, OCTORULES_MISTAKES_FILE } from '../fixtures/octorules';

const ROOT = join(__dirname, '..', '..');
const STAND_IN = join(__dirname, 'terraform-stand-in');
const FILE = 'infra/rulesets.tf';
const TEXT = readFileSync(join(__dirname, 'fixtures', 'rulesets.tf'), 'utf8');
const LINES = TEXT.split('\n');
const DNS = 'infra/dns.tf';
const DNS_TEXT = 'resource "cloudflare_record" "www" {\n  zone_id = var.zone_id\n  name    = "www"\n  content = "tcp.dstprt == 22"\n}\n';
// An octorules project of two zones beside it, from the examples: one zone with mistakes, one clean
// that `!include`s its redirects.
const EXAMPLES = join(ROOT, 'examples');
const OCTORULES: Record<string, string> = {
  'octorules/rules/example.net.yaml': readFileSync(join(EXAMPLES, OCTORULES_MISTAKES_FILE), 'utf8'),
  'octorules/rules/example.org.yaml': readFileSync(join(EXAMPLES, 'octorules/rules/example.org.yaml'), 'utf8'),
  'octorules/rules/shared/redirects.yaml': readFileSync(join(EXAMPLES, 'octorules/rules/shared/redirects.yaml'), 'utf8'),
};

/** The 1-based line and column of `needle` in the fixture, `delta` characters in. */
function place(needle: string, delta = 0): { line: number; column: number } {
  const line = LINES.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} is in the fixture`);
  return { line: line + 1, column: LINES[line].indexOf(needle) + 1 + delta };
}

/**
 * What `rulesets check` finds in the file, as the Problems panel shows it (1-based). Hints
 * (the note on an interpolation) are not listed there: VS Code shows them only in the editor.
 */
function expectedProblems(): Problem[] {
  const severity = { error: 'error', warning: 'warning', information: 'info' } as const;
  return toPositions(TEXT, checkDocument(parseDocument(TEXT, 'hcl')))
    .filter((p) => p.severity !== 'hint')
    .map((p) => ({
      file: FILE,
      line: p.range.start.line + 1,
      column: p.range.start.character + 1,
      severity: severity[p.severity as keyof typeof severity],
      message: plainText(p.message),
      source: 'rulesets',
      code: p.code,
    }));
}

const byPlace = (a: Problem, b: Problem) => a.line - b.line || a.column - b.column || a.message.localeCompare(b.message);
const vsix = () => {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return join(ROOT, `${name}-${version}.vsix`);
};

before(async () => {
  execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'pipe' });
  await loadTerraformParser();
});

describe('a Terraform file in VS Code, its language `terraform` given by another extension', () => {
  let workspace = '';
  let wb: Workbench | undefined;

  before(async () => {
    workspace = makeWorkspace({ [FILE]: TEXT, [DNS]: DNS_TEXT, ...OCTORULES });
    wb = await startWorkbench({ workspace, vsix: vsix(), extensionDir: STAND_IN, name: 'terraform', viewport: { width: 1400, height: 900 } });
  });

  after(async () => {
    await wb?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('lists each mistake of the three resources on its exact characters, and nothing on the interpolation', async () => {
    const expected = expectedProblems().sort(byPlace);
    // The fixture's mistakes, found by hand: where they are is not taken from the checker alone.
    const mistakes = ['http.hots', 'lowr', 'tcp.dstprt', '10.0.0.1/8', 'http.request.methd'].map((needle) => place(needle));
    assert.deepEqual(expected.map((p) => ({ line: p.line, column: p.column })), mistakes);
    await wb!.openFile(FILE);
    assert.equal((await wb!.activeEditor())?.languageId, 'terraform', 'the document keeps the language the other extension gives it');
    await wb!.goTo(place('http.hots').line);
    const rows = await wb!.problems({ until: (all) => all.filter((row) => row.file === FILE).length >= expected.length });
    await wb!.screenshot('1-problems');
    assert.deepEqual(rows.filter((row) => row.file === FILE).sort(byPlace), expected);
    const interpolation = place('${var.office_ip}');
    assert.deepEqual(rows.filter((row) => row.line === interpolation.line), [], 'no report on the interpolation');
    assert.deepEqual(rows.filter((row) => row.file === DNS), [], 'a file without a cloudflare_ruleset is left alone');
  });

  it('lists each mistake of an octorules zone on its exact characters, and nothing in the other zone, whose include is read', async () => {
    const file = 'octorules/rules/example.net.yaml';
    const severity = { error: 'error', warning: 'warning' } as const;
    await wb!.openFile(file);
    const rows = await wb!.problems({ until: (all) => all.filter((row) => row.file === file).length >= OCTORULES_MISTAKES.length });
    await wb!.screenshot('1b-octorules-problems');
    assert.deepEqual(
      rows.filter((row) => row.file === file).map((row) => [row.line, row.column, row.severity, row.code]).sort(),
      OCTORULES_MISTAKES.map((m) => [m.line, m.col, severity[m.severity], m.code]).sort(),
    );
    await wb!.openFile('octorules/rules/example.org.yaml');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const other = (await wb!.problems()).filter((row) => row.file.startsWith('octorules/rules/example.org') || row.file.startsWith('octorules/rules/shared'));
    assert.deepEqual(other, [], 'the clean zone, its included redirects read beside it');
  });

  it('completes inside a heredoc: the phase\'s fields after `http.request.`', async () => {
    await wb!.openFile(FILE);
    const at = place('lowr(http.request.uri.path)');
    await wb!.goTo(at.line, LINES[at.line - 1].length + 1);
    await wb!.type(' and http.request.');
    const items = await wb!.suggest({ until: (list) => list.some((item) => item.label === 'http.request.method') });
    await wb!.screenshot('2-completion-heredoc');
    assert.ok(!items.some((item) => item.label.startsWith('tcp.')), 'an HTTP phase: no packet fields');
    await wb!.closeWidgets();
    await wb!.runCommand('File: Revert File');
    await wb!.editorText({ until: (t) => t === TEXT });
  });

  it('completes inside an escaped string, past its \\" escapes', async () => {
    await wb!.openFile(FILE);
    // Just inside the closing quote of the first rule's expression.
    const line = place('http.hots').line;
    await wb!.goTo(line, LINES[line - 1].lastIndexOf('"') + 1);
    await wb!.type(' and ip.src.');
    const items = await wb!.suggest({ until: (list) => list.some((item) => item.label === 'ip.src.country') });
    await wb!.screenshot('3-completion-escaped-string');
    assert.ok(items.every((item) => item.label.startsWith('ip.src')), JSON.stringify(items.map((item) => item.label)));
    await wb!.closeWidgets();
    await wb!.runCommand('File: Revert File');
    await wb!.editorText({ until: (t) => t === TEXT });
  });

  it('hovers inside a heredoc and inside an escaped string', async () => {
    await wb!.openFile(FILE);
    const field = place('http.request.method eq "POST"', 6);
    const fieldText = await wb!.hover(field.line, field.column, { until: (t) => t.includes('http.request.method') });
    await wb!.screenshot('4-hover-heredoc');
    assert.match(fieldText, /HTTP method of the request/);
    await wb!.closeWidgets();
    const country = place('\\"BR\\"', 3);
    const countryText = await wb!.hover(country.line, country.column, { until: (t) => t.includes('Brazil') });
    await wb!.screenshot('5-hover-escaped-string');
    assert.match(countryText, /Brazil/);
    await wb!.closeWidgets();
  });

  it('says in the language status how many rulesets the file declares', async () => {
    await wb!.openFile(FILE);
    await wb!.page.locator('#status\\.languageStatus').hover();
    const hover = wb!.page.locator('.monaco-hover:not(.hidden)').filter({ hasText: 'Rulesets' });
    await hover.first().waitFor({ timeout: 20_000 });
    const text = await hover.first().innerText();
    await wb!.screenshot('6-language-status');
    assert.match(text, /Rulesets: 5 errors/);
    assert.match(text, /a Terraform file with 3 cloudflare_ruleset resources/);
    await wb!.closeWidgets();
  });

  it('offers Test a packet over the packet-phase resource only, and tests the packet against that resource\'s rules', async () => {
    await wb!.openFile(FILE);
    const uri = { $uri: (await wb!.activeEditor())!.uri };
    type Lens = { range: [{ line: number }, unknown]; command?: { command: string; arguments: [{ offset: number }] } };
    const packetLenses = async () => ((await wb!.executeCommand('vscode.executeCodeLensProvider', uri)) as Lens[]).filter((lens) => lens.command?.command === 'rulesets.testPacket');
    // The extension host loads its HCL parser once a .tf document is open; the lenses follow.
    let lenses = await packetLenses();
    for (let i = 0; i < 40 && lenses.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      lenses = await packetLenses();
    }
    await wb!.goTo(place('resource "cloudflare_ruleset" "edge"').line);
    await wb!.screenshot('7-packet-lens');
    assert.deepEqual(lenses.map((lens) => lens.range[0].line + 1), [place('resource "cloudflare_ruleset" "edge"').line], 'the magic_transit resource, not the HTTP ones');
    const verdict = (await wb!.executeCommand('rulesets.testPacket', { uri, offset: lenses[0].command!.arguments[0].offset, packet: { 'ip.src': '10.1.2.3', 'ip.proto': 'udp' } })) as { verdict?: string; message?: string; error?: string };
    await wb!.screenshot('8-packet-verdict');
    assert.ok(verdict.verdict !== undefined || verdict.error !== undefined, JSON.stringify(verdict));
    assert.doesNotMatch(JSON.stringify(verdict), /JSON or YAML/, 'a Terraform ruleset is tested, not refused');
    await wb!.closeWidgets();
  });

  it('takes its problems back when rulesets.terraform.enable is turned off, and shows them again when it is on', async () => {
    await wb!.openFile(FILE);
    await wb!.setSetting('rulesets.terraform.enable', false);
    await wb!.problems({ until: (all) => !all.some((row) => row.file === FILE) });
    await wb!.screenshot('9-turned-off');
    await wb!.setSetting('rulesets.terraform.enable', true);
    const rows = await wb!.problems({ until: (all) => all.filter((row) => row.file === FILE).length >= expectedProblems().length });
    assert.deepEqual(rows.filter((row) => row.file === FILE).sort(byPlace), expectedProblems().sort(byPlace));
  });
});

describe('a Terraform file in VS Code with no Terraform extension at all', () => {
  let workspace = '';
  let wb: Workbench | undefined;

  before(async () => {
    workspace = makeWorkspace({ [FILE]: TEXT });
    wb = await startWorkbench({ workspace, vsix: vsix(), name: 'terraform-alone' });
  });

  after(async () => {
    await wb?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('serves the .tf file by its name: the same problems, and the language stays VS Code\'s own', async () => {
    const expected = expectedProblems().sort(byPlace);
    await wb!.openFile(FILE);
    assert.notEqual((await wb!.activeEditor())?.languageId, 'terraform', 'the extension contributes no terraform language');
    const rows = await wb!.problems({ until: (all) => all.filter((row) => row.file === FILE).length >= expected.length });
    await wb!.screenshot('1-problems-without-terraform-extension');
    assert.deepEqual(rows.filter((row) => row.file === FILE).sort(byPlace), expected);
  });
});
