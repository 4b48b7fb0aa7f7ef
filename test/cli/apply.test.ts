/**
 * `rulesets apply` of the built CLI (`node dist/cli.js`) against the emulator over loopback: a
 * plan saved with `plan -o` applies, with a line of the audit log per write, and applies to
 * nothing more the second time; an altered plan, a live change since the plan and a mass
 * deletion are refused before any write; without a plan file it plans, asks and applies.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Emulator } from '../../server/src/api/emulator';
import { makeClient, SECRETS, startTestEmulator, runCli, type CliRun } from '../api/harness';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const PHASE = 'http_request_firewall_custom';

let emulator: Emulator;
const temps: string[] = [];
let zones = 0;

/** A zone of its own for each test, so that entry points do not meet. */
function zone(): string {
  return `apply${process.pid}z${++zones}`.padEnd(32, '0');
}

function run(args: readonly string[], cwd: string, zoneId: string, extra: Record<string, string> = {}): Promise<CliRun> {
  return runCli(CLI, args, cwd, emulator.baseUrl, { RULESETS_ZONE_ID: zoneId, USER: 'alice', ...extra });
}

function writesSince(since: number): string[] {
  return emulator.requests.slice(since).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
}

const ruleset = (rules: readonly [string, string][]) => `name: default\nkind: zone\nphase: ${PHASE}\nrules:\n${rules.map(([ref, expression]) => `  - ref: ${ref}\n    action: block\n    expression: ${expression}\n`).join('')}`;

/** A folder with a WAF file of two rules, one of them live already (version 1), and a redirect file, new. */
async function project(zoneId: string, liveRules = 1): Promise<string> {
  await makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: zoneId } }).updateRuleset(
    { phase: PHASE },
    { name: 'default', kind: 'zone', phase: PHASE, rules: Array.from({ length: liveRules }, (_, i) => ({ ref: i === 0 ? 'office' : `old${i}`, action: 'block', expression: i === 0 ? 'ip.src eq 192.0.2.1' : `ip.src eq 198.51.100.${i}` })) },
  );
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-apply-'));
  temps.push(dir);
  writeFileSync(join(dir, 'waf.ruleset.yaml'), ruleset([['office', 'ip.src eq 192.0.2.1'], ['bots', 'http.user_agent contains "BadBot"']]));
  writeFileSync(join(dir, 'redirect.ruleset.yaml'), `name: default\nkind: zone\nphase: http_request_dynamic_redirect\nrules:\n  - ref: old\n    action: redirect\n    expression: http.request.uri.path eq "/old"\n    action_parameters:\n      from_value:\n        target_url:\n          value: https://example.com/new\n`);
  return dir;
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

describe('rulesets apply', () => {
  it('applies a plan saved with plan -o, one audit line per write; the same plan again is already applied', async () => {
    const zoneId = zone();
    const dir = await project(zoneId);
    const planned = await run(['plan', '-o', 'plan.json'], dir, zoneId);
    assert.equal(planned.status, 0, planned.stderr);
    assert.match(planned.stderr, /plan saved to plan\.json; apply exactly it with `rulesets apply plan\.json`/);
    const planText = readFileSync(join(dir, 'plan.json'), 'utf8');
    assert.match(planText, /"checksum": "sha256:[0-9a-f]{64}"/);
    assert.ok(!planText.includes(SECRETS.token), 'no credential in the plan');
    const since = emulator.requests.length;
    const applied = await run(['apply', 'plan.json'], dir, zoneId);
    assert.equal(applied.status, 0, applied.stderr);
    assert.match(applied.stdout, new RegExp(`^zone ${zoneId}, the ${PHASE} entry point \\(waf\\.ruleset\\.yaml\\): applied, version 1 → 2$`, 'm'));
    assert.match(applied.stdout, new RegExp(`^zone ${zoneId}, the http_request_dynamic_redirect entry point \\(redirect\\.ruleset\\.yaml\\): applied, created at version 1$`, 'm'));
    assert.match(applied.stdout, /^Apply: 2 applied, 0 already applied, 0 unchanged, 0 not applied, 0 unknown\.$/m);
    assert.equal(writesSince(since).length, 2);
    const audit = readFileSync(join(dir, '.rulesets', 'audit.log'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    const checksum = JSON.parse(planText).checksum;
    assert.deepEqual(audit.map((e) => [e.ruleset, e.from, e.to, e.outcome, e.target.id, e.plan]).sort(), [
      ['the http_request_dynamic_redirect entry point', null, '1', 'applied', zoneId, checksum],
      [`the ${PHASE} entry point`, '1', '2', 'applied', zoneId, checksum],
    ]);
    assert.match(audit[0].who, /^alice\b/);
    assert.ok(!JSON.stringify(audit).includes(SECRETS.token));
    const again = await run(['apply', 'plan.json'], dir, zoneId);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^Apply: 0 applied, 2 already applied/m);
    assert.equal(readFileSync(join(dir, '.rulesets', 'audit.log'), 'utf8').trimEnd().split('\n').length, 2, 'no write, no line');
  });

  it('applies a plan whose entry point two files give rules: the merged order lands, before:/after: are not sent', async () => {
    const zoneId = zone();
    const dir = await project(zoneId);
    rmSync(join(dir, 'redirect.ruleset.yaml'));
    writeFileSync(join(dir, 'extra.ruleset.yaml'), `name: default\nkind: zone\nphase: ${PHASE}\nrules:\n  - ref: first\n    action: block\n    expression: http.request.uri.path eq "/first"\n    before: office\n`);
    const planned = await run(['plan', '-o', 'plan.json'], dir, zoneId);
    assert.equal(planned.status, 0, planned.stderr);
    const applied = await run(['apply', 'plan.json'], dir, zoneId);
    assert.equal(applied.status, 0, applied.stdout + applied.stderr);
    const live = await makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: zoneId } }).getEntryPoint(PHASE);
    assert.deepEqual(live.rules.map((r) => r.ref), ['first', 'office', 'bots']);
    assert.ok(live.rules.every((r) => !('before' in r) && !('after' in r)));
  });

  it('refuses an altered plan file, and a live change since the plan, naming the target and both versions; nothing is written', async () => {
    const zoneId = zone();
    const dir = await project(zoneId);
    assert.equal((await run(['plan', '-o', 'plan.json'], dir, zoneId)).status, 0);
    const text = readFileSync(join(dir, 'plan.json'), 'utf8');
    writeFileSync(join(dir, 'altered.json'), text.replace('BadBot', 'GoodBot'));
    const since = emulator.requests.length;
    const altered = await run(['apply', 'altered.json'], dir, zoneId);
    assert.equal(altered.status, 1);
    assert.match(altered.stderr, /altered\.json: the plan was altered since it was written \(its checksum does not match its content\); nothing was applied/);
    const elsewhere = await run(['apply', 'plan.json'], dir, zoneId, { RULESETS_BASE_URL: 'https://api.example.com/client/v4' });
    assert.equal(elsewhere.status, 1);
    assert.match(elsewhere.stderr, new RegExp(`plan\\.json was planned against ${emulator.baseUrl.replace(/[.]/g, '\\.')}, but the API now is https://api\\.example\\.com/client/v4 .*nothing was applied`));
    await makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: zoneId } }).updateRuleset({ phase: PHASE }, { rules: [{ ref: 'office', action: 'log', expression: 'true' }] });
    const moved = await run(['apply', 'plan.json'], dir, zoneId);
    assert.equal(moved.status, 1);
    assert.match(moved.stderr, new RegExp(`live rulesets changed since the plan \\(a dashboard edit or another apply\\): zone ${zoneId}: the ${PHASE} entry point \\(waf\\.ruleset\\.yaml\\) was at version 1 when planned, version 2 now; plan again`));
    assert.deepEqual(writesSince(since), [`PUT /zones/${zoneId}/rulesets/phases/${PHASE}/entrypoint`], 'only the dashboard edit');
    assert.equal(existsSync(join(dir, '.rulesets', 'audit.log')), false);
  });

  it('the thresholds of .rulesets.yaml stop a mass deletion; --allow-mass-change passes it', async () => {
    const zoneId = zone();
    const dir = await project(zoneId, 6);
    writeFileSync(join(dir, '.rulesets.yaml'), 'apply:\n  max_removed: 3\n');
    assert.equal((await run(['plan', '--owns-phase', PHASE, '-o', 'plan.json'], dir, zoneId)).status, 0);
    const since = emulator.requests.length;
    const refused = await run(['apply', 'plan.json'], dir, zoneId);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, new RegExp(`the plan passes the mass-change thresholds .*: zone ${zoneId}: the ${PHASE} entry point \\(waf\\.ruleset\\.yaml\\) would lose 5 of its 6 rules \\(83%, more than max_removed_percent 50%\\); zone ${zoneId}: 5 rules would be removed \\(more than max_removed 3\\); .*--allow-mass-change`));
    assert.deepEqual(writesSince(since), []);
    const allowed = await run(['apply', 'plan.json', '--allow-mass-change'], dir, zoneId);
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.equal((await makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: zoneId } }).getEntryPoint(PHASE)).rules.length, 2);
  });

  it('without a plan file: plans the folder and shows it; without a terminal only with --yes', async () => {
    const zoneId = zone();
    const dir = await project(zoneId);
    const since = emulator.requests.length;
    const asked = await run(['apply'], dir, zoneId);
    assert.equal(asked.status, 2);
    assert.match(asked.stdout, /^ {2}\+ bots, at 2$/m);
    assert.match(asked.stderr, /refusing to apply without --yes when not interactive/);
    assert.deepEqual(writesSince(since), []);
    const applied = await run(['apply', '--yes'], dir, zoneId);
    assert.equal(applied.status, 0, applied.stderr);
    assert.match(applied.stdout, /^Apply: 2 applied/m);
    const nothing = await run(['apply', '--yes'], dir, zoneId);
    assert.equal(nothing.status, 0);
    assert.match(nothing.stdout, /^Nothing to apply\.$/m);
  });

  it('records what landed in .rulesets/lock.json; plan then shows a dashboard edit as drift, naming the rule an apply would undo', async () => {
    const zoneId = zone();
    const dir = await project(zoneId);
    assert.equal((await run(['apply', '--yes'], dir, zoneId)).status, 0);
    const lock = JSON.parse(readFileSync(join(dir, '.rulesets', 'lock.json'), 'utf8'));
    const key = `zone ${zoneId}: the ${PHASE} entry point`;
    assert.deepEqual(Object.keys(lock.rulesets), [`zone ${zoneId}: the http_request_dynamic_redirect entry point`, key]);
    assert.equal(lock.rulesets[key].version, '2');
    assert.ok(!JSON.stringify(lock).includes(SECRETS.token));
    const quiet = await run(['plan'], dir, zoneId);
    assert.doesNotMatch(quiet.stdout, /drift:/);
    // A dashboard edit of bots.
    const client = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: zoneId } });
    const live = await client.getEntryPoint(PHASE);
    await client.updateRuleset({ phase: PHASE }, { rules: live.rules.map((r) => ({ id: r.id, ref: r.ref, action: r.action, expression: r.ref === 'bots' ? 'http.user_agent contains "Bad"' : r.expression })) });
    const drifted = await run(['plan'], dir, zoneId);
    assert.equal(drifted.status, 0, drifted.stderr);
    assert.match(drifted.stdout, /^ {2}drift: unchanged here since the last apply; changed live since the last apply \(version 2 → version 3\); apply would undo the live edit to bots$/m);
    assert.match(drifted.stdout, /^ {2}~ bots, at 2 \[edited live since the last apply; apply would undo it\]$/m);
    const json = JSON.parse((await run(['plan', '--format', 'json'], dir, zoneId)).stdout);
    assert.deepEqual(json.targets[0].rulesets.find((r: { phase: string }) => r.phase === PHASE).drift, { locked_version: '2', changed_here: false, changed_live: true, undone_by_apply: ['bots'], removed_live: [] });
    // Applying again undoes it and updates the lock.
    assert.equal((await run(['apply', '--yes'], dir, zoneId)).status, 0);
    assert.equal(JSON.parse(readFileSync(join(dir, '.rulesets', 'lock.json'), 'utf8')).rulesets[key].version, '4');
    assert.doesNotMatch((await run(['plan'], dir, zoneId)).stdout, /drift:/);
  });
});

describe('rulesets plan and apply of files of `phase` and `rules` alone, under targets:', () => {
  let ids = 0;
  /** 32 hex digits, as targets: takes an account or zone id. */
  const hexId = () => `${process.pid.toString(16)}e${(++ids).toString(16)}`.padEnd(32, '0');

  it('plans and applies them to the entry points of a zone and an account: only the rules, the live name kept, then nothing to do and no drift', async () => {
    const zoneId = hexId();
    const accountId = hexId();
    const zoneClient = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: zoneId } });
    const live = await zoneClient.updateRuleset({ phase: PHASE }, { name: 'zone firewall', description: 'kept by the dashboard', rules: [{ ref: 'office', action: 'block', expression: 'ip.src eq 192.0.2.1' }] });
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-apply-'));
    temps.push(dir);
    writeFileSync(join(dir, '.rulesets.yaml'), `targets:\n  - files: waf.yaml\n    zone: "${zoneId}"\n  - files: mt.json\n    account: "${accountId}"\n`);
    writeFileSync(join(dir, 'waf.yaml'), `phase: ${PHASE}\nrules:\n  - ref: office\n    action: block\n    expression: ip.src eq 192.0.2.1\n  - ref: bots\n    action: block\n    expression: http.user_agent contains "BadBot"\n`);
    writeFileSync(join(dir, 'mt.json'), '{"phase": "magic_transit", "rules": [{"ref": "tcp", "action": "block", "expression": "ip.proto == \\"tcp\\""}]}\n');
    const env = { RULESETS_ZONE_ID: '' };
    const planned = await run(['plan', '--detailed-exitcode'], dir, '', env);
    assert.equal(planned.status, 2, planned.stderr);
    assert.equal(
      planned.stdout,
      `waf.yaml → zone ${zoneId}, the ${PHASE} entry point (version 1)
  + bots, at 2
        ref: "bots"
        action: "block"
        expression: "http.user_agent contains \\"BadBot\\""
        description: ""
        enabled: true
    (1 unchanged rule not shown)

mt.json → account ${accountId}, the magic_transit entry point (does not exist yet: it would be created)
  + tcp, at 1
        ref: "tcp"
        action: "block"
        expression: "ip.proto == \\"tcp\\""
        description: ""
        enabled: true

Plan: 2 to add, 0 to change, 0 to move, 0 to remove; 0 unmanaged kept.
`,
    );
    const applied = await run(['apply', '--yes'], dir, '', env);
    assert.equal(applied.status, 0, applied.stderr);
    const held = emulator.state.latest(live.id)!;
    assert.deepEqual([held.name, held.kind, held.description], ['zone firewall', 'zone', 'kept by the dashboard']);
    assert.deepEqual(held.rules.map((r) => r.ref), ['office', 'bots']);
    const root = await makeClient(emulator.baseUrl, { scope: { kind: 'account', id: accountId } }).getEntryPoint('magic_transit');
    assert.deepEqual([root.name, root.kind, root.rules.map((r) => r.expression)], ['default', 'root', ['ip.proto == "tcp"']]);
    const lock = JSON.parse(readFileSync(join(dir, '.rulesets', 'lock.json'), 'utf8'));
    assert.deepEqual(Object.keys(lock.rulesets), [`account ${accountId}: the magic_transit entry point`, `zone ${zoneId}: the ${PHASE} entry point`]);
    const again = await run(['plan', '--detailed-exitcode'], dir, '', env);
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.doesNotMatch(again.stdout, /drift:/);
    assert.match(again.stdout, /^No changes: what is live is what the files say\.$/m);
  });
});
