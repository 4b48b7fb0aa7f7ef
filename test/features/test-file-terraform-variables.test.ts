/**
 * A test file of a Terraform resource in the editor: its cases judged with the rules the module
 * evaluates (as `rulesets test` runs them), its `variables:` read and held to the module's.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { diskModuleReader } from '../../server/src/documents/include-files';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { testFileCompletion, testFileDiagnostics, type RulesetReader } from '../../server/src/features/test-file';
import { modelOf, takeCursor, textOf } from './harness';

const MAIN = `resource "cloudflare_ruleset" "waf" {
  phase = "http_request_firewall_custom"
  rules {
    action     = "block"
    expression = "starts_with(http.request.uri.path, \\"\${var.blocked_path}\\")"
  }
}
`;

/** A module folder of `files`, a reader of its main.tf, and the URI of a test file beside it. */
function folderOf(files: Record<string, string>): { read: RulesetReader; uri: string } {
  const folder = mkdtempSync(join(tmpdir(), 'testvars-editor-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  const main = join(folder, 'main.tf');
  const read: RulesetReader = (uri) => (uri === pathToFileURL(main).href ? { text: files['main.tf'], format: 'hcl', module: { path: main, reader: diskModuleReader() } } : undefined);
  return { read, uri: pathToFileURL(join(folder, 'main.test.yaml')).href };
}

/** The diagnostics of the test file `text` beside a module of `files`. */
function check(files: Record<string, string>, text: string) {
  const { read, uri } = folderOf(files);
  const model = modelOf(text, 'yaml', uri);
  return testFileDiagnostics(model, read).map((d) => ({ text: textOf(text, d.range), message: d.message }));
}

/** The labels completion offers at `|` in the test file beside a module of `files`. */
function complete(files: Record<string, string>, marked: string): string[] {
  const { read, uri } = folderOf(files);
  const { text, offset } = takeCursor(marked);
  const model = modelOf(text, 'yaml', uri);
  return testFileCompletion(model, model.positionAt(offset), read)?.items.map((i) => i.label) ?? [];
}

const CASE = 'cases:\n  - request: {url: "https://www.example.com/admin/"}\n    expect: pass\n';

describe('a test file of a Terraform resource in the editor', () => {
  before(() => loadTerraformParser());

  it("judges a case with the variable's default: the rule it runs decides", () => {
    const found = check({ 'variables.tf': 'variable "blocked_path" {\n  default = "/admin"\n}\n', 'main.tf': MAIN }, `ruleset: main.tf\n${CASE}`);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0].text, 'pass');
    assert.match(found[0].message, /^expected pass, got block by rule 1/);
  });

  it('takes `variables:` as a known key, and their values over the default', () => {
    const found = check({ 'variables.tf': 'variable "blocked_path" {\n  default = "/admin"\n}\n', 'main.tf': MAIN }, `ruleset: main.tf\nvariables:\n  blocked_path: /login\n${CASE}`);
    assert.deepEqual(found, []);
  });

  it('shows a variable the module does not declare on its key, with a did-you-mean', () => {
    const found = check({ 'variables.tf': 'variable "blocked_path" {}\n', 'main.tf': MAIN }, `ruleset: main.tf\nvariables:\n  blocked_pth: /admin\n${CASE}`);
    assert.deepEqual(found, [{ text: 'blocked_pth', message: 'no variable `blocked_pth` in the module of the ruleset; did you mean `blocked_path`? it declares `blocked_path`' }]);
  });

  it('shows `variables` that is not a map where it is written', () => {
    const found = check({ 'variables.tf': 'variable "blocked_path" {}\n', 'main.tf': MAIN }, `ruleset: main.tf\nvariables: /admin\n${CASE}`);
    assert.equal(found[0]?.text, '/admin');
    assert.match(found[0].message, /^expected `variables` as a map/);
  });

  it('names the variable a case needs, never an error of the expression', () => {
    const found = check({ 'variables.tf': 'variable "blocked_path" {}\n', 'main.tf': MAIN }, `ruleset: main.tf\n${CASE}`);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.match(found[0].message, /it needs `var\.blocked_path` \(a variable without a value\): give it under `variables:` in the test file/);
    assert.doesNotMatch(found[0].message, /has errors/);
  });

  it("completes the module's variables as keys of `variables:`, those given left out", () => {
    const files = { 'variables.tf': 'variable "blocked_path" {}\nvariable "zones" {\n  default = ["a"]\n}\n', 'main.tf': MAIN };
    assert.deepEqual(complete(files, `ruleset: main.tf\nvariables: {bl|}\n${CASE}`), ['blocked_path', 'zones']);
    assert.deepEqual(complete(files, `ruleset: main.tf\nvariables:\n  zones: [b]\n  |\n${CASE}`), ['blocked_path']);
    // Not in a case's request.
    assert.doesNotMatch(complete(files, `ruleset: main.tf\nvariables: {}\ncases:\n  - request: {|}\n`).join(' '), /blocked_path/);
  });
});
