/**
 * `rulesets plan` of the built CLI (`node dist/cli.js`) against the emulator over loopback: a
 * pulled file plans to nothing; each edit of it plans to exactly that edit; the exit status is
 * Terraform's with --detailed-exitcode; files of every format are planned ruleset by ruleset;
 * and nothing is ever written.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Emulator } from '../../server/src/api/emulator';
import { makeClient, runCli, startTestEmulator, type CliRun } from '../api/harness';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

let emulator: Emulator;
const temps: string[] = [];
let zones = 0;

/** A zone of its own for each test, so that entry points do not meet. */
function zone(): string {
  return `plan${process.pid}z${++zones}`.padEnd(32, '0');
}

function run(args: readonly string[], cwd: string, zoneId: string, extra: Record<string, string> = {}): Promise<CliRun> {
  return runCli(CLI, args, cwd, emulator.baseUrl, { RULESETS_ZONE_ID: zoneId, ...extra });
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-plan-'));
  temps.push(dir);
  return dir;
}

/** The requests that change something, from `since` on: a plan makes none. */
function writesSince(since: number): string[] {
  return emulator.requests.slice(since).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
}

const PHASE = 'http_request_firewall_custom';

/** Four rules live in the zone's WAF entry point, and the file `pull` writes of them. */
async function pulled(zoneId: string): Promise<{ dir: string; file: string; text: string }> {
  const client = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: zoneId } });
  await client.updateRuleset(
    { phase: PHASE },
    {
      name: 'default',
      kind: 'zone',
      phase: PHASE,
      rules: [
        { ref: 'admin', description: 'Block the admin area', action: 'block', expression: 'http.request.uri.path wildcard "/admin/*"' },
        { ref: 'login', description: 'Challenge logins', action: 'managed_challenge', expression: 'http.request.uri.path eq "/login"' },
        { ref: 'monitor', description: 'Let the monitor through', action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'http.user_agent contains "UptimeRobot"' },
        { ref: 'bots', description: 'Block bad bots', action: 'block', expression: 'http.user_agent contains "BadBot"' },
      ],
    },
  );
  const dir = folder();
  const pull = await run(['pull', '--phase', PHASE, '-o', 'waf.yaml'], dir, zoneId);
  assert.equal(pull.status, 0, pull.stderr);
  const file = join(dir, 'waf.yaml');
  return { dir, file, text: readFileSync(file, 'utf8') };
}

/** The file's rules, each from `  - id:` to the next, by ref; the rest before them. */
function splitRules(text: string): { head: string; rules: Map<string, string> } {
  const [head, body] = text.split(/^rules:\n/m);
  const rules = new Map<string, string>();
  for (const item of body.split(/^(?= {2}- )/m).filter((s) => s.trim() !== '')) rules.set(/ref: (\S+)/.exec(item)![1], item);
  return { head: `${head}rules:\n`, rules };
}

before(async () => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
  emulator = await startTestEmulator();
});

after(async () => {
  await emulator.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('rulesets plan', () => {
  it('a file just pulled plans to nothing: exit 0, and 0 with --detailed-exitcode', async () => {
    const zoneId = zone();
    const { dir } = await pulled(zoneId);
    const since = emulator.requests.length;
    const plain = await run(['plan'], dir, zoneId);
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(plain.stdout, '1 ruleset is as its file says.\nNo changes: what is live is what the files say.\nPlan: 0 to add, 0 to change, 0 to move, 0 to remove; 0 unmanaged kept.\n');
    const detailed = await run(['plan', '--detailed-exitcode', '.'], dir, zoneId);
    assert.equal(detailed.status, 0, detailed.stderr);
    assert.deepEqual(writesSince(since), []);
  });

  it('an edited file plans to exactly the edit: a move, a field change, an addition, a rule left to the dashboard', async () => {
    const zoneId = zone();
    const { dir, file, text } = await pulled(zoneId);
    const { head, rules } = splitRules(text);
    const login = rules.get('login')!.replace('action: managed_challenge', 'action: js_challenge');
    const added = '  - ref: api\n    description: Log the API\n    action: log\n    expression: starts_with(http.request.uri.path, "/api/")\n';
    // bots moved first, login changed, monitor dropped from the file, api added.
    writeFileSync(file, head + rules.get('bots')! + rules.get('admin')! + login + added);
    const since = emulator.requests.length;
    const result = await run(['plan', '--detailed-exitcode'], dir, zoneId);
    assert.equal(result.status, 2, result.stderr);
    const entry = /ruleset (\w+) \(version 1\)/.exec(result.stdout)?.[1];
    assert.ok(entry, result.stdout);
    assert.equal(
      result.stdout,
      `waf.yaml → zone ${zoneId}, ruleset ${entry} (version 1)
  ↕ bots (Block bad bots), moved 4 → 1
  ~ login (Challenge logins), at 3
        ~ action: "managed_challenge" → "js_challenge"
    monitor (Let the monitor through), at 4: unmanaged (in no file), kept
  + api (Log the API), at 5
        ref: "api"
        action: "log"
        expression: "starts_with(http.request.uri.path, \\"/api/\\")"
        description: "Log the API"
        enabled: true
    (1 unchanged rule not shown)

Plan: 1 to add, 1 to change, 1 to move, 0 to remove; 1 unmanaged kept.
`,
    );
    // Without the flag, changes are no failure.
    assert.equal((await run(['plan'], dir, zoneId)).status, 0);
    // The phase owned: the rule no file holds is removed.
    const owned = await run(['plan', '--owns-phase', PHASE], dir, zoneId);
    assert.match(owned.stdout, /^ {2}- monitor \(Let the monitor through\), was at 3$/m);
    assert.match(owned.stdout, /^Plan: 1 to add, 1 to change, 1 to move, 1 to remove; 0 unmanaged kept\.$/m);
    const json = JSON.parse((await run(['plan', '--format', 'json'], dir, zoneId)).stdout);
    assert.deepEqual(json.summary, { add: 1, change: 1, move: 1, remove: 0, unmanaged: 1, unchanged: 1, settings: 0, errors: 0 });
    assert.equal(json.targets[0].rulesets[0].file, 'waf.yaml');
    const markdown = await run(['plan', '--format', 'markdown'], dir, zoneId);
    assert.match(markdown.stdout, /^\*\*Plan: 1 to add, 1 to change, 1 to move, 0 to remove; 1 unmanaged kept\.\*\*$/m);
    assert.match(markdown.stdout, /^-     action: "managed_challenge"\n\+     action: "js_challenge"$/m);
    assert.deepEqual(writesSince(since), [], 'plan never writes');
    assert.equal(readFileSync(file, 'utf8'), head + rules.get('bots')! + rules.get('admin')! + login + added, 'nor changes the file');
  });

  it('coloured when FORCE_COLOR is set, plain with NO_COLOR', async () => {
    const zoneId = zone();
    const { dir, file, text } = await pulled(zoneId);
    writeFileSync(file, text.replace('action: managed_challenge', 'action: js_challenge'));
    assert.match((await run(['plan'], dir, zoneId, { FORCE_COLOR: '1' })).stdout, /\x1b\[33m~ login/);
    assert.doesNotMatch((await run(['plan'], dir, zoneId, { FORCE_COLOR: '1', NO_COLOR: '1' })).stdout, /\x1b\[/);
  });

  it('a file with errors is not planned (exit 1, its findings on stderr); with --detailed-exitcode every failure is 1, never 2', async () => {
    const zoneId = zone();
    const { dir, file, text } = await pulled(zoneId);
    writeFileSync(file, text.replace('http.user_agent contains "BadBot"', 'http.user_agnet contains "BadBot"'));
    const broken = await run(['plan'], dir, zoneId);
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /waf\.yaml:\d+:\d+: error unknown-field/);
    assert.match(broken.stdout, /^error: waf\.yaml: not planned: the check found 1 error; fix it first/m);
    assert.equal((await run(['plan', '--detailed-exitcode'], dir, zoneId)).status, 1);
    // Usage errors: 2 as for every command, 1 with --detailed-exitcode.
    const usage = await run(['plan', '--format', 'yaml'], dir, zoneId);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /unknown --format "yaml": expected text, json or markdown/);
    assert.equal((await run(['plan', '--format', 'yaml', '--detailed-exitcode'], dir, zoneId)).status, 1);
    assert.equal((await run(['plan', '--detailed-exitcode', '--token=x'], dir, zoneId)).status, 1);
    assert.equal((await run(['plan', '--detailed-exitcode=yes'], dir, zoneId)).status, 1);
    assert.equal((await run(['plan', '--detailed-exitcode', 'missing-folder'], dir, zoneId)).status, 1);
    // The service unreachable: 3, and 1 with --detailed-exitcode.
    const offline = { RULESETS_BASE_URL: 'http://127.0.0.1:9/client/v4', RULESETS_TIMEOUT_MS: '2000' };
    const down = await run(['plan', '--detailed-exitcode'], dir, zoneId, offline);
    assert.equal(down.status, 1, down.stdout + down.stderr);
  });

  it('an octorules file plans section by section; a Terraform resource only Terraform can fill in is skipped, saying why', async () => {
    const zoneId = zone();
    const dir = folder();
    writeFileSync(
      join(dir, 'example.com.yaml'),
      'cloudflare:\n  waf_custom_rules:\n    - ref: office\n      expression: not ip.src in {203.0.113.0/24}\n      action: block\n  redirect_rules:\n    - ref: old\n      expression: http.request.uri.path eq "/old"\n      action_parameters:\n        from_value:\n          target_url:\n            value: https://example.com/new\n          status_code: 301\n',
    );
    writeFileSync(
      join(dir, 'main.tf'),
      'variable "office" {}\n\nresource "cloudflare_ruleset" "waf" {\n  zone_id = "x"\n  name    = "default"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n  rules = [{\n    ref        = "tf"\n    action     = "block"\n    expression = "ip.src eq ${var.office}"\n  }]\n}\n',
    );
    const result = await run(['plan', '--detailed-exitcode'], dir, zoneId);
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.match(result.stdout, /^example\.com\.yaml \(waf_custom_rules\) → zone \w+, the http_request_firewall_custom entry point \(does not exist yet: it would be created\)\n {2}\+ office, at 1$/m);
    assert.match(result.stdout, /^example\.com\.yaml \(redirect_rules\) → zone \w+, the http_request_dynamic_redirect entry point \(does not exist yet: it would be created\)$/m);
    assert.match(result.stdout, /^skipped: main\.tf \(cloudflare_ruleset\.waf\): .*only Terraform can deploy it/m);
    assert.match(result.stdout, /^Plan: 2 to add, 0 to change, 0 to move, 0 to remove; 0 unmanaged kept\.$/m);
  });

  it('a Terraform resource whose values are written out is planned against what it deployed, rule by rule', async () => {
    const zoneId = zone();
    const dir = folder();
    const resource = (expression: string) =>
      `resource "cloudflare_ruleset" "waf" {\n  zone_id = var.zone_id\n  name    = "default"\n  kind    = "zone"\n  phase   = "${PHASE}"\n  rules = [\n    {\n      ref        = "office"\n      action     = "block"\n      expression = "${expression}"\n    },\n    {\n      ref        = "bots"\n      action     = "block"\n      expression = "http.user_agent contains \\"BadBot\\""\n    },\n  ]\n}\n`;
    writeFileSync(join(dir, 'variables.tf'), 'variable "zone_id" {\n  type = string\n}\n');
    writeFileSync(join(dir, 'main.tf'), resource('not ip.src in {203.0.113.0/24}'));
    const deploy = await run(['deploy', 'main.tf', '--yes'], dir, zoneId);
    assert.equal(deploy.status, 0, deploy.stderr);
    assert.equal((await run(['plan', '--detailed-exitcode'], dir, zoneId)).status, 0);
    writeFileSync(join(dir, 'main.tf'), resource('not ip.src in {203.0.113.0/24 198.51.100.0/24}'));
    const result = await run(['plan', '--detailed-exitcode'], dir, zoneId);
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.equal(
      result.stdout,
      `main.tf (cloudflare_ruleset.waf) → zone ${zoneId}, the ${PHASE} entry point (version 1)
  ~ office, at 1
        ~ expression: "not ip.src in {203.0.113.0/24}" → "not ip.src in {203.0.113.0/24 198.51.100.0/24}"
    (1 unchanged rule not shown)

Plan: 0 to add, 1 to change, 0 to move, 0 to remove; 0 unmanaged kept.
`,
    );
  });

  it('a misspelt --owns-phase is a usage error with the phase meant: it would keep the rules it was meant to remove', async () => {
    const zoneId = zone();
    const { dir } = await pulled(zoneId);
    const result = await run(['plan', '--owns-phase', 'http_request_firewal_custom'], dir, zoneId);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unknown phase `http_request_firewal_custom` for --owns-phase; did you mean `http_request_firewall_custom`/);
  });

  it('--help says what it takes', async () => {
    const help = await run(['plan', '--help'], ROOT, zone());
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: rulesets plan \[PATH\.\.\.\]/);
    for (const option of ['--format', '--owns-phase', '--detailed-exitcode']) assert.ok(help.stdout.includes(option), option);
  });
});

/** A zone id as `targets:` takes one: 32 lowercase hex digits. */
function hexZone(): string {
  return randomBytes(16).toString('hex');
}

describe('rulesets plan with targets: in .rulesets.yaml', () => {
  it('plans each file where its target says: a zone by name, a zone by id, an octorules file by its name; no zone from the environment needed', async () => {
    const alpha = hexZone();
    const beta = hexZone();
    const gamma = hexZone();
    emulator.state.addZone({ name: `alpha${process.pid}.example`, id: alpha });
    emulator.state.addZone({ name: `gamma${process.pid}.example`, id: gamma });
    const dir = folder();
    writeFileSync(join(dir, '.rulesets.yaml'), `targets:\n  - files: waf/alpha.yaml\n    zone: alpha${process.pid}.example\n  - files: [waf/beta.yaml]\n    zone: "${beta}"\n`);
    const ruleset = (ref: string) => `name: default\nkind: zone\nphase: ${PHASE}\nrules:\n  - ref: ${ref}\n    action: block\n    expression: http.request.uri.path eq "/${ref}"\n`;
    mkdirSync(join(dir, 'waf'));
    writeFileSync(join(dir, 'waf', 'alpha.yaml'), ruleset('alpha'));
    writeFileSync(join(dir, 'waf', 'beta.yaml'), ruleset('beta'));
    writeFileSync(join(dir, `gamma${process.pid}.example.yaml`), `cloudflare:\n  waf_custom_rules:\n    - ref: gamma\n      action: block\n      expression: http.request.uri.path eq "/gamma"\n`);
    const since = emulator.requests.length;
    const result = await run(['plan', '--format', 'json', '--detailed-exitcode'], dir, '', { RULESETS_ZONE_ID: '' });
    assert.equal(result.status, 2, result.stderr);
    const plan = JSON.parse(result.stdout) as { targets: { scope: { kind: string; id: string }; label: string; rulesets: { file: string; summary: { add: number } }[] }[] };
    const byZone = Object.fromEntries(plan.targets.map((t) => [t.scope.id, { label: t.label, files: t.rulesets.map((r) => r.file), add: t.rulesets.reduce((n, r) => n + r.summary.add, 0) }]));
    assert.deepEqual(byZone, {
      [alpha]: { label: `alpha${process.pid}.example`, files: [join('waf', 'alpha.yaml')], add: 1 },
      [beta]: { label: beta, files: [join('waf', 'beta.yaml')], add: 1 },
      [gamma]: { label: `gamma${process.pid}.example`, files: [`gamma${process.pid}.example.yaml`], add: 1 },
    });
    assert.deepEqual(writesSince(since), []);
  });

  it('a file two targets name, or a zone name no zone has, is a usage error before anything is planned', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.ruleset.yaml'), `name: default\nkind: zone\nphase: ${PHASE}\nrules: []\n`);
    writeFileSync(join(dir, '.rulesets.yaml'), `targets:\n  - files: a.ruleset.yaml\n    zone: nowhere${process.pid}.example\n`);
    const missing = await run(['plan', '--detailed-exitcode'], dir, '', { RULESETS_ZONE_ID: '' });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, new RegExp(`nowhere${process.pid}\\.example.*give the zone's id in targets: instead`));
    writeFileSync(join(dir, '.rulesets.yaml'), `targets:\n  - files: a.ruleset.yaml\n    zone: "${hexZone()}"\n  - files: "*.yaml"\n    zone: "${hexZone()}"\n`);
    const twice = await run(['plan'], dir, '', { RULESETS_ZONE_ID: '' });
    assert.equal(twice.status, 2, twice.stdout);
    assert.match(twice.stderr, /a\.ruleset\.yaml/);
  });
});

describe('rulesets plan of several files giving one entry point its rules', () => {
  /** A zone ruleset file of the WAF phase with these rules (`ref`, and what places it). */
  const rulesetOf = (rules: readonly string[]) => `name: default\nkind: zone\nphase: ${PHASE}\nrules:\n${rules.map((r) => `  - ref: ${r.split(' ')[0]}\n    action: block\n    expression: http.request.uri.path eq "/${r.split(' ')[0]}"\n${r.includes(' ') ? `    ${r.split(' ').slice(1).join(' ')}\n` : ''}`).join('')}`;

  it('merges the files of one target in the order of their paths and their before:/after:, sending neither key', async () => {
    const zoneId = hexZone();
    const dir = folder();
    writeFileSync(join(dir, '.rulesets.yaml'), `targets:\n  - files: "waf/*.yaml"\n    zone: "${zoneId}"\n`);
    mkdirSync(join(dir, 'waf'));
    writeFileSync(join(dir, 'waf', 'b-team.yaml'), rulesetOf(['b1', 'b2 after: a1', 'b3 before: a3']));
    writeFileSync(join(dir, 'waf', 'a-team.yaml'), rulesetOf(['a1', 'a2', 'a3']));
    const since = emulator.requests.length;
    const result = await run(['plan', '--format', 'json', '--detailed-exitcode'], dir, '', { RULESETS_ZONE_ID: '' });
    assert.equal(result.status, 2, result.stdout + result.stderr);
    const plan = JSON.parse(result.stdout) as { targets: { rulesets: { file: string; files: string[]; rules: { action: string; name: string; fields: { path: string }[] }[] }[]; errors: unknown[] }[] };
    const [ruleset] = plan.targets[0].rulesets;
    assert.deepEqual(plan.targets[0].errors, []);
    assert.deepEqual(ruleset.files, [join('waf', 'a-team.yaml'), join('waf', 'b-team.yaml')]);
    assert.deepEqual(ruleset.rules.map((r) => `${r.action} ${r.name}`), ['add a1', 'add b2', 'add a2', 'add b3', 'add a3', 'add b1']);
    assert.ok(ruleset.rules.every((r) => r.fields.every((f) => !/^(before|after)/.test(f.path))));
    assert.deepEqual(writesSince(since), []);
    // The text names every file of the entry point.
    const text = await run(['plan'], dir, '', { RULESETS_ZONE_ID: '', NO_COLOR: '1' });
    assert.match(text.stdout, /waf\/a-team\.yaml \+ waf\/b-team\.yaml → zone/);
  });

  it('says each conflict on its line, in the file that has it, and plans nothing of that entry point (exit 1)', async () => {
    const zoneId = hexZone();
    const dir = folder();
    writeFileSync(join(dir, '.rulesets.yaml'), `targets:\n  - files: "waf/*.yaml"\n    zone: "${zoneId}"\n`);
    mkdirSync(join(dir, 'waf'));
    writeFileSync(join(dir, 'waf', 'a.yaml'), rulesetOf(['a1', 'a2 after: b2', 'a3']));
    writeFileSync(join(dir, 'waf', 'b.yaml'), rulesetOf(['a3', 'b2 after: a2', 'b3 before: a11']));
    const result = await run(['plan', '--detailed-exitcode'], dir, '', { RULESETS_ZONE_ID: '', NO_COLOR: '1' });
    assert.equal(result.status, 1, result.stdout + result.stderr);
    const findings = result.stderr.split('\n').filter((l) => /^waf\//.test(l)).map((l) => l.replace(/ `.*$| .*? (?=[a-z-]+ )/, ' ').split(' ').slice(0, 2).join(' '));
    assert.deepEqual(findings, ['waf/a.yaml:11:12: rule-order-cycle', 'waf/b.yaml:5:10: ref-shared', 'waf/b.yaml:11:12: rule-order-cycle', 'waf/b.yaml:15:13: unknown-rule-ref']);
    assert.match(result.stderr, /a2 → b2 → a2|b2 → a2 → b2/);
    assert.match(result.stderr, /already the ref of a rule at waf\/a\.yaml:12/);
    assert.match(result.stderr, /did you mean `a1`/);
    // `rulesets check` of the folder says the same, on the same lines.
    const check = spawnSync(process.execPath, [CLI, 'check', '.'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(check.status, 1);
    assert.deepEqual(check.stdout.split('\n').filter((l) => /^waf\//.test(l)).map((l) => l.split(' ').slice(0, 3).join(' ')), ['waf/a.yaml:11:12: error rule-order-cycle', 'waf/b.yaml:5:10: error ref-shared', 'waf/b.yaml:11:12: error rule-order-cycle', 'waf/b.yaml:15:13: error unknown-rule-ref']);
  });
});
