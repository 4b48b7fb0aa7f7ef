/**
 * `rulesets plan --terraform-plan FILE` of the built CLI (`node dist/cli.js`), as a process: it
 * reads `terraform show -json` output with no credentials and no service at all, prints each
 * `cloudflare_ruleset` change rule by rule, and exits as `plan` does (`--detailed-exitcode`:
 * 0 nothing to do, 2 changes, 1 any error). The plan files are hand-written (test/fixtures/
 * terraform-plan; see test/api/terraform-plan.test.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'terraform-plan');

/** The CLI with no RULESETS_* variable at all: this mode makes no request. */
function run(args: readonly string[], cwd = FIXTURES) {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('RULESETS_') && !key.startsWith('CLOUDFLARE_') && key !== 'FORCE_COLOR' && key !== 'NO_COLOR') env[key] = value;
  return spawnSync(process.execPath, [CLI, 'plan', ...args], { cwd, env, encoding: 'utf8' });
}

const temps: string[] = [];

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-tfplan-'));
  temps.push(dir);
  return dir;
}

after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
});

describe('rulesets plan --terraform-plan', () => {
  it('prints a reordered ruleset as a move, without credentials, and exits 2 for changes with --detailed-exitcode', () => {
    const result = run(['--terraform-plan', 'reordered-v5.json', '--detailed-exitcode']);
    assert.equal(result.stderr, '');
    assert.equal(result.status, 2);
    assert.equal(
      result.stdout,
      [
        'reordered-v5.json (cloudflare_ruleset.waf) → zone 0123456789abcdef0123456789abcdef, the http_request_firewall_custom entry point (version 7)',
        '  ↕ allow_office, moved 3 → 1',
        '    (2 unchanged rules not shown)',
        '',
        'Plan: 0 to add, 0 to change, 1 to move, 0 to remove; 0 unmanaged kept.',
        '',
      ].join('\n'),
    );
    assert.equal(run(['--terraform-plan', 'reordered-v5.json']).status, 0, 'without --detailed-exitcode, a plan with changes exits 0');
  });

  it('exits 0 with --detailed-exitcode when Terraform changes no ruleset', () => {
    const dir = folder();
    const rules = [{ id: 'a'.repeat(32), ref: 'keep', action: 'block', expression: 'true', description: '', enabled: true }];
    const values = { id: 'f'.repeat(32), zone_id: '0123456789abcdef0123456789abcdef', kind: 'zone', name: 'z', phase: 'http_request_firewall_custom', rules, version: '2' };
    writeFileSync(join(dir, 'plan.json'), JSON.stringify({ format_version: '1.2', resource_changes: [{ address: 'cloudflare_ruleset.waf', mode: 'managed', type: 'cloudflare_ruleset', change: { actions: ['no-op'], before: values, after: values, after_unknown: {} } }] }));
    const result = run(['--terraform-plan', 'plan.json', '--detailed-exitcode'], dir);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^1 ruleset is as its file says\.\nNo changes/m);
  });

  it('writes JSON and Markdown with the resource address as the label', () => {
    const json = JSON.parse(run(['--terraform-plan', 'mixed-v5.json', '--format', 'json']).stdout);
    const labels = json.targets.flatMap((t: { rulesets: { label: string }[] }) => t.rulesets.map((r) => r.label));
    assert.deepEqual(labels.sort(), ['cloudflare_ruleset.account_waf', 'cloudflare_ruleset.gone', 'cloudflare_ruleset.hosts', 'cloudflare_ruleset.moved_zone', 'cloudflare_ruleset.new', 'cloudflare_ruleset.same']);
    const markdown = run(['--terraform-plan', 'mixed-v5.json', '--format', 'markdown']).stdout;
    assert.match(markdown, /cloudflare\\_ruleset\.moved\\_zone\) → zone fedcba9876543210fedcba9876543210, the http\\_ratelimit entry point: replaced/);
    assert.match(markdown, /^\+ {5}id: \(known after apply\)$/m);
  });

  it('refuses a file that is not a JSON plan, and PATHs beside the option, as usage errors (1 with --detailed-exitcode)', () => {
    const dir = folder();
    writeFileSync(join(dir, 'tfplan'), 'binary plan bytes');
    const bad = run(['--terraform-plan', 'tfplan'], dir);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /tfplan: not JSON .*terraform show -json PLANFILE > tfplan/);
    assert.equal(run(['--terraform-plan', 'tfplan', '--detailed-exitcode'], dir).status, 1);
    const both = run(['--terraform-plan', 'reordered-v5.json', 'rules.json']);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--terraform-plan reads Terraform's plan, not ruleset files: leave out rules\.json/);
    const missing = run(['--terraform-plan', 'nowhere.json']);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /nowhere\.json: cannot be read/);
  });
});
