/**
 * `rulesets check` on the Terraform example of mistakes: every mistake printed on its line,
 * column and characters of the `.tf` file, in text, JSON and SARIF; the interpolations never
 * reported, each said once as a hint; the quick fixes of the findings that have one applied
 * give a file that checks clean of them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LEGACY_FILE, LEGACY_MISTAKES, MODULE_MISTAKES, TERRAFORM_MISTAKES, TERRAFORM_MISTAKES_FILE } from '../fixtures/terraform-mistakes';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FILE = `examples/${TERRAFORM_MISTAKES_FILE}`;
const TEXT = readFileSync(join(ROOT, FILE), 'utf8');
const LINES = TEXT.split('\n');

function check(args: readonly string[]): { status: number | null; stdout: string } {
  const result = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.error) throw result.error;
  assert.equal(result.stderr, '');
  return { status: result.status, stdout: result.stdout };
}

describe('rulesets check on a Terraform file of three cloudflare_ruleset resources', () => {
  it('prints each mistake on its line, column and characters, and exits 1', () => {
    const { status, stdout } = check([FILE]);
    assert.equal(status, 1);
    const lines = stdout.split('\n');
    const found = [];
    for (let i = 0; i < lines.length; i++) {
      const m = /^(.+?):(\d+):(\d+): (error|warning|information|hint) (\S+) /.exec(lines[i]);
      if (!m) continue;
      assert.equal(m[1], FILE);
      const [line, col] = [Number(m[2]), Number(m[3])];
      // The source line under the finding is the file's, and the carets stand under its characters.
      assert.equal(lines[i + 1].slice(2), LINES[line - 1]);
      const carets = lines[i + 2].slice(2);
      assert.equal(carets.indexOf('^'), col - 1);
      found.push({ line, col, severity: m[4], code: m[5], text: LINES[line - 1].slice(col - 1, carets.length) });
    }
    assert.deepEqual(found, TERRAFORM_MISTAKES);
    assert.match(lines.at(-2)!, /^1 file checked: 6 errors, 1 warning$/);
  });

  it('gives the same places in JSON and SARIF', () => {
    const json = JSON.parse(check([FILE, '--format', 'json']).stdout) as { files: { path: string; diagnostics: { code: string; severity: string; range: { start: { line: number; character: number } } }[] }[] };
    assert.deepEqual(
      json.files[0].diagnostics.map((d) => [d.range.start.line + 1, d.range.start.character + 1, d.code]),
      TERRAFORM_MISTAKES.map((m) => [m.line, m.col, m.code]),
    );
    const sarif = JSON.parse(check([FILE, '--format', 'sarif']).stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[] };
    assert.deepEqual(
      sarif.runs[0].results.map((r) => [r.locations[0].physicalLocation.artifactLocation.uri, r.locations[0].physicalLocation.region.startLine, r.locations[0].physicalLocation.region.startColumn, r.ruleId]),
      TERRAFORM_MISTAKES.map((m) => [FILE, m.line, m.col, m.code]),
    );
  });

  it('reports nothing of the interpolations but the hints', () => {
    const { stdout } = check([FILE, '--format', 'json']);
    const diagnostics = (JSON.parse(stdout) as { files: { diagnostics: { code: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }[] }[] }).files[0].diagnostics;
    // Every `${…}` of an expression, by its place in the file.
    const holes = [...TEXT.matchAll(/\$\{[^}]*\}\}?/g)].map((m) => m.index!);
    const lineStarts = LINES.map((_, i) => LINES.slice(0, i).join('\n').length + (i > 0 ? 1 : 0));
    for (const d of diagnostics) {
      const start = lineStarts[d.range.start.line] + d.range.start.character;
      const end = lineStarts[d.range.end.line] + d.range.end.character;
      const onHole = holes.some((h) => start <= h + 2 && h < end);
      if (onHole) assert.equal(d.code, 'terraform-interpolation', `nothing but the hint on an interpolation: ${d.code}`);
    }
  });
});

describe("rulesets check: the module's provider version decides the shape of rules", () => {
  const RESOURCE = 'resource "cloudflare_ruleset" "waf" {\n  zone_id = "z"\n  name    = "waf"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n  rules {\n    ref        = "b"\n    action     = "block"\n    expression = "http.host eq \\"a.example.com\\""\n  }\n}\n';
  const versions = (constraint: string) => `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "${constraint}"\n    }\n  }\n}\n`;

  function checkModule(files: Record<string, string>, extra: readonly string[] = []): { status: number | null; stdout: string } {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-provider-'));
    try {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const result = spawnSync(process.execPath, [CLI, 'check', dir, ...extra], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      if (result.error) throw result.error;
      return { status: result.status, stdout: result.stdout };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('v4 blocks under a v5 constraint in versions.tf: the error Terraform gives, on `rules`', () => {
    const { status, stdout } = checkModule({ 'main.tf': RESOURCE, 'versions.tf': versions('~> 5.0') });
    assert.equal(status, 1);
    assert.match(stdout, /main\.tf:6:3: error unsupported-block-type Unsupported block type: Blocks of type "rules" are not expected here\. Did you mean to define argument "rules"\?/);
  });

  it('the same file under a v4 constraint, or none, checks clean', () => {
    assert.equal(checkModule({ 'main.tf': RESOURCE, 'versions.tf': versions('~> 4.0') }).status, 0);
    assert.equal(checkModule({ 'main.tf': RESOURCE }).status, 0);
  });

  it('the lock file wins over the constraint, and a changed lock file is not hidden by --cache', () => {
    const lock = (version: string) => `provider "registry.terraform.io/cloudflare/cloudflare" {\n  version = "${version}"\n}\n`;
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-provider-'));
    try {
      writeFileSync(join(dir, 'main.tf'), RESOURCE);
      writeFileSync(join(dir, 'versions.tf'), versions('>= 4.0'));
      const run = () => spawnSync(process.execPath, [CLI, 'check', dir, '--cache'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }).status;
      writeFileSync(join(dir, '.terraform.lock.hcl'), lock('4.52.0'));
      assert.equal(run(), 0);
      writeFileSync(join(dir, '.terraform.lock.hcl'), lock('5.4.0'));
      assert.equal(run(), 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rulesets test on a Terraform resource whose rule holds a `${…}`', () => {
  it("runs the rule with the module's value, names what a rule still needs, never an error of its expression, and counts every case", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-tf-test-'));
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'test', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const cases = (variables = '') =>
      [
        'resource: waf',
        ...(variables ? [variables] : []),
        'cases:',
        '  - request: {url: "https://admin.example.com/"}',
        '    expect: block',
        '  - request: {url: "https://www.example.com/", ip.src.country: RU}',
        '    expect: managed_challenge',
        '  - request: {url: "https://www.example.com/", ip.src.country: GB}',
        '    expect: pass',
        '  - request: {url: "https://www.example.com/wp-admin/x"}',
        '    expect: block',
        '    rule: 2',
        '',
      ].join('\n');
    try {
      // The `waf` resource of the example, its first rule's misspelt field corrected: rule 2's
      // `${var.blocked_path}` is the variable's default, "/wp-admin".
      const tf = TEXT.replace('http.hots', 'http.host');
      assert.match(tf, /default = "\/wp-admin"/);
      writeFileSync(join(dir, 'main.tf'), tf);
      writeFileSync(join(dir, 'main.test.yaml'), cases());
      const decided = run('main.test.yaml');
      assert.equal(decided.stderr, '');
      assert.equal(decided.stdout.trimEnd().split('\n').at(-1), '4 cases in 1 file: 4 passed, 0 failed', decided.stdout);
      assert.equal(decided.status, 0);
      // Without a default, the variable is what the cases rule 2 decides need.
      const undefaulted = tf.replace(/\n\s*default = "\/wp-admin"/, '');
      writeFileSync(join(dir, 'main.tf'), undefaulted);
      const result = run('main.test.yaml');
      assert.equal(result.stderr, '');
      const lines = result.stdout.trimEnd().split('\n');
      assert.match(lines[0], /^ok /);
      const rule2 = undefaulted.split('\n').findIndex((line) => line.includes('${var.blocked_path}')) - 1;
      for (const line of lines.slice(1, 4)) {
        assert.equal(line.replace(/^UNDECIDED main\.test\.yaml:\d+:\d+: /, ''), `rule 2 (Block a path Terraform fills in) at main.tf:${rule2}:3: its expression is not known: it needs \`var.blocked_path\` (a variable without a value): give it under \`variables:\` in the test file, and the verdict depends on it: not decided`);
      }
      assert.doesNotMatch(result.stdout, /`terraform`|has errors/);
      assert.equal(lines.at(-1), '4 cases in 1 file: 1 passed, 0 failed, 3 undecided (they need what Terraform fills in)');
      assert.equal(result.status, 2);
      // Given in the test file, it decides them.
      writeFileSync(join(dir, 'main.test.yaml'), cases('variables: {blocked_path: /wp-admin}'));
      const given = run('main.test.yaml');
      assert.equal(given.stdout.trimEnd().split('\n').at(-1), '4 cases in 1 file: 4 passed, 0 failed', given.stdout);
      // A variable the module does not declare stops the file, at its name.
      writeFileSync(join(dir, 'main.test.yaml'), cases('variables: {blocked_pth: /wp-admin}'));
      const misspelt = run('main.test.yaml');
      assert.match(misspelt.stdout, /^ERROR main\.test\.yaml:2:13: no variable `blocked_pth` in the module of the ruleset; did you mean `blocked_path`\? it declares `zone_id`, `account_id`, `blocked_path`/);
      assert.equal(misspelt.stdout.trimEnd().split('\n').at(-1), '4 cases in 1 file: 0 passed, 0 failed, 4 with bad input');
      writeFileSync(join(dir, 'main.test.yaml'), cases());
      // A mistake of an expression stops the file: said once, and every case counted.
      writeFileSync(join(dir, 'main.tf'), TEXT);
      const broken = run('main.test.yaml');
      assert.match(broken.stdout, /^ERROR main\.test\.yaml:1:1: main\.tf:32:20: rule 1's expression has errors \(unknown field `http\.hots`/);
      assert.equal(broken.stdout.trimEnd().split('\n').at(-1), '4 cases in 1 file: 0 passed, 0 failed, 4 with bad input');
      writeFileSync(join(dir, 'main.tf'), undefaulted);
      // One request on the command line: said the same way, as bad input is, without a stack.
      const one = run('main.tf', '--resource', 'waf', '--request', '{"url": "https://www.example.com/"}');
      assert.equal(one.status, 2);
      assert.equal(one.stdout, '');
      assert.equal(one.stderr, `rulesets: main.tf:${rule2}:3: rule 2 (Block a path Terraform fills in): its expression is not known: it needs \`var.blocked_path\` (a variable without a value): give it under \`variables:\` in the test file, and the verdict depends on it: not decided\n`);
      // In a phase of matches, a rule Terraform fills in is named beside the ones that matched.
      writeFileSync(join(dir, 'late.tf'), 'resource "cloudflare_ruleset" "late" {\n  phase = "http_request_late_transform"\n  rules {\n    action = "rewrite"\n    action_parameters {\n      headers {\n        name = "X-A"\n        operation = "set"\n        value = "1"\n      }\n    }\n    expression = "http.host eq \\"${cloudflare_record.www.hostname}\\""\n  }\n}\n');
      const late = run('late.tf', '--request', '{"url": "https://a.example/"}');
      assert.equal(late.stdout, 'no-match: no rule matched\n  rule 1 at late.tf:3:3 may match too: its expression is filled in by Terraform as it applies (it is known only then)\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes a variable's value from the var files `.rulesets.yaml` names, as `rulesets check` does", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-tf-varfiles-'));
    try {
      writeFileSync(join(dir, 'variables.tf'), 'variable "blocked_path" {\n  type = string\n}\n');
      writeFileSync(join(dir, 'main.tf'), 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "starts_with(http.request.uri.path, \\"${var.blocked_path}\\")"\n  }\n}\n');
      writeFileSync(join(dir, 'prod.tfvars'), 'blocked_path = "/admin"\n');
      writeFileSync(join(dir, 'main.test.yaml'), 'cases:\n  - request: {url: "https://a.example/admin/x"}\n    expect: block\n');
      const run = () => spawnSync(process.execPath, [CLI, 'test', 'main.test.yaml'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      assert.match(run().stdout, /1 case in 1 file: 0 passed, 0 failed, 1 undecided/);
      writeFileSync(join(dir, '.rulesets.yaml'), 'terraform:\n  var_files: [prod.tfvars]\n');
      const given = run();
      assert.equal(given.stdout.trimEnd().split('\n').at(-1), '1 case in 1 file: 1 passed, 0 failed', given.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the legacy Firewall Rules of a Terraform folder', () => {
  const LEGACY = `examples/${LEGACY_FILE}`;
  const LEGACY_LINES = readFileSync(join(ROOT, LEGACY), 'utf8').split('\n');

  it('are found in a folder of nothing else, each told that Firewall Rules ended, the filter checked as a custom rule', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-legacy-'));
    copyFileSync(join(ROOT, LEGACY), join(dir, 'legacy.tf'));
    const result = spawnSync(process.execPath, [CLI, 'check', dir], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(result.stderr, '');
    assert.equal(result.status, 1);
    const lines = result.stdout.split('\n');
    const found = lines.flatMap((line, i) => {
      const m = /^.+?:(\d+):(\d+): (\S+) (\S+) /.exec(line);
      if (!m) return [];
      const [l, col] = [Number(m[1]), Number(m[2])];
      return [{ line: l, col, severity: m[3], code: m[4], text: LEGACY_LINES[l - 1].slice(col - 1, lines[i + 2].slice(2).length) }];
    });
    assert.deepEqual(found, LEGACY_MISTAKES);
  });

  it('`rulesets migrate-firewall-rules` prints the cloudflare_ruleset that takes them over, and `--write` appends it', () => {
    const printed = spawnSync(process.execPath, [CLI, 'migrate-firewall-rules', LEGACY], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(printed.stderr, '');
    assert.equal(printed.status, 0);
    assert.match(printed.stdout, /resource "cloudflare_ruleset" "firewall_rules" \{\n {2}zone_id = var\.zone_id\n[\s\S]*phase {3}= "http_request_firewall_custom"\n\n {2}rules \{\n {4}ref {9}= "wordpress"\n {4}description = "Challenge WordPress logins from outside the office"\n {4}expression {2}= "http\.request\.uri\.path contains[^\n]*"\n {4}action {6}= "managed_challenge"\n {4}enabled {5}= true\n {2}\}\n\}\n$/);
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-legacy-'));
    const file = join(dir, 'legacy.tf');
    copyFileSync(join(ROOT, LEGACY), file);
    const written = spawnSync(process.execPath, [CLI, 'migrate-firewall-rules', file, '--write'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(written.status, 0, written.stderr);
    assert.equal(readFileSync(file, 'utf8'), `${readFileSync(join(ROOT, LEGACY), 'utf8')}\n${printed.stdout}`);
    // Taken over once: a second run says why there is nothing left, without a stack trace.
    const again = spawnSync(process.execPath, [CLI, 'migrate-firewall-rules', file], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(again.status, 2);
    assert.match(again.stderr, /^rulesets: .*legacy\.tf: no firewall rule to take over: cloudflare_firewall_rule\.wordpress: cloudflare_ruleset\.firewall_rules has a rule with its name as `ref` already\n$/);
  });

  it('says what is wrong with its arguments in one line, and lists it in --help', () => {
    const none = spawnSync(process.execPath, [CLI, 'migrate-firewall-rules'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(none.status, 2);
    assert.equal(none.stderr, 'rulesets: no file given: rulesets migrate-firewall-rules FILE.tf [--write]\n');
    const yaml = spawnSync(process.execPath, [CLI, 'migrate-firewall-rules', 'examples/waf-custom.ruleset.yaml'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(yaml.status, 2);
    assert.match(yaml.stderr, /^rulesets: examples\/waf-custom\.ruleset\.yaml: expected a Terraform file \(\.tf\)/);
    const clean = spawnSync(process.execPath, [CLI, 'migrate-firewall-rules', 'examples/terraform/rulesets.tf'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(clean.status, 2);
    assert.equal(clean.stderr, 'rulesets: examples/terraform/rulesets.tf: no cloudflare_firewall_rule in the file: nothing to take over\n');
    assert.match(spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' }).stdout, /rulesets migrate-firewall-rules FILE\.tf \[--write\]/);
    assert.match(spawnSync(process.execPath, [CLI, 'migrate-firewall-rules', '--help'], { encoding: 'utf8' }).stdout, /^Usage: rulesets migrate-firewall-rules FILE\.tf \[--write\]/);
  });
});

describe("rulesets check on the example's module: rules made from locals and a variable set in terraform.tfvars", () => {
  it('finds each mistake where it is written, naming the resource that uses it; cache.tf itself is clean', () => {
    const { status, stdout } = check(['examples/terraform-mistakes/']);
    assert.equal(status, 1);
    const lines = stdout.split('\n');
    const found = [];
    for (let i = 0; i < lines.length; i++) {
      const m = /^examples\/(terraform-mistakes\/(?:locals\.tf|terraform\.tfvars|cache\.tf)):(\d+):(\d+): (error|warning|information|hint) (\S+) (.*)$/.exec(lines[i]);
      if (!m) continue;
      const [line, col] = [Number(m[2]), Number(m[3])];
      const fileLines = readFileSync(join(ROOT, 'examples', m[1]), 'utf8').split('\n');
      const carets = lines[i + 2].slice(2);
      found.push({ file: m[1], line, col, severity: m[4], code: m[5], text: fileLines[line - 1].slice(col - 1, carets.length) });
      assert.match(m[6], /\(in `cloudflare_ruleset\.cache`, cache\.tf:7\)$/);
    }
    assert.deepEqual(found, MODULE_MISTAKES);
  });
});
