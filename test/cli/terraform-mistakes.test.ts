/**
 * `rulesets check` on the Terraform example of mistakes: every mistake printed on its line,
 * column and characters of the `.tf` file, in text, JSON and SARIF; the interpolations never
 * reported, each said once as a hint; the quick fixes of the findings that have one applied
 * give a file that checks clean of them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TERRAFORM_MISTAKES, TERRAFORM_MISTAKES_FILE } from '../fixtures/terraform-mistakes';

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

describe('rulesets test on a Terraform resource whose rule holds a `${…}`', () => {
  it('names the rule and what it needs, never an error of its expression, and counts every case', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-tf-test-'));
    try {
      // The `waf` resource of the example, its first rule's misspelt field corrected.
      const tf = TEXT.replace('http.hots', 'http.host');
      writeFileSync(join(dir, 'main.tf'), tf);
      writeFileSync(
        join(dir, 'main.test.yaml'),
        [
          'resource: waf',
          'cases:',
          '  - request: {url: "https://admin.example.com/"}',
          '    expect: block',
          '  - request: {url: "https://www.example.com/", ip.src.country: CN}',
          '    expect: managed_challenge',
          '  - request: {url: "https://www.example.com/", ip.src.country: GB}',
          '    expect: pass',
          '',
        ].join('\n'),
      );
      const result = spawnSync(process.execPath, [CLI, 'test', 'main.test.yaml'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      assert.equal(result.stderr, '');
      const lines = result.stdout.trimEnd().split('\n');
      assert.match(lines[0], /^ok /);
      const rule2 = tf.split('\n').findIndex((line) => line.includes('${var.blocked_path}')) - 1;
      for (const line of lines.slice(1, 3)) {
        assert.equal(line.replace(/^UNDECIDED main\.test\.yaml:\d+:\d+: /, ''), `rule 2 (Block a path Terraform fills in) at main.tf:${rule2}:3: its expression is filled in by Terraform (\`\${var.blocked_path}\`), and the verdict depends on it: not decided`);
      }
      assert.doesNotMatch(result.stdout, /`terraform`|has errors/);
      assert.equal(lines.at(-1), '3 cases in 1 file: 1 passed, 0 failed, 2 undecided (they need what Terraform fills in)');
      assert.equal(result.status, 2);
      // A mistake of an expression stops the file: said once, and every case counted.
      writeFileSync(join(dir, 'main.tf'), TEXT);
      const broken = spawnSync(process.execPath, [CLI, 'test', 'main.test.yaml'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      assert.match(broken.stdout, /^ERROR main\.test\.yaml:1:1: main\.tf:32:20: rule 1's expression has errors \(unknown field `http\.hots`/);
      assert.equal(broken.stdout.trimEnd().split('\n').at(-1), '3 cases in 1 file: 0 passed, 0 failed, 3 with bad input');
      writeFileSync(join(dir, 'main.tf'), tf);
      // One request on the command line: said the same way, as bad input is, without a stack.
      const one = spawnSync(process.execPath, [CLI, 'test', 'main.tf', '--resource', 'waf', '--request', '{"url": "https://www.example.com/"}'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      assert.equal(one.status, 2);
      assert.equal(one.stdout, '');
      assert.equal(one.stderr, `rulesets: main.tf:${rule2}:3: rule 2 (Block a path Terraform fills in): its expression is filled in by Terraform (\`\${var.blocked_path}\`), and the verdict depends on it: not decided\n`);
      // In a phase of matches, a rule Terraform fills in is named beside the ones that matched.
      writeFileSync(join(dir, 'late.tf'), 'resource "cloudflare_ruleset" "late" {\n  phase = "http_request_late_transform"\n  rules {\n    action = "rewrite"\n    action_parameters {\n      headers {\n        name = "X-A"\n        operation = "set"\n        value = "1"\n      }\n    }\n    expression = "http.host eq \\"${var.host}\\""\n  }\n}\n');
      const late = spawnSync(process.execPath, [CLI, 'test', 'late.tf', '--request', '{"url": "https://a.example/"}'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      assert.equal(late.stdout, 'no-match: no rule matched\n  rule 1 at late.tf:3:3 may match too: its expression is filled in by Terraform (`${var.host}`)\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
