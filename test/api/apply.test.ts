/**
 * `rulesets apply` of a saved plan against the in-process emulator, an estate of zones each with
 * three phases from a JSON ruleset, a YAML ruleset and an octorules file: a plan applies whole,
 * one audit line per write; a live change since the plan, a mass deletion and an altered plan
 * are refused before any write; a fault at any request leaves each ruleset at its old or its new
 * version, and applying the plan again finishes the rest.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, type Scope } from '../../server/src/api/client';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { applyPlan, ApplyRefusedError, atPlannedContent, massChanges, planFileText, PlanFileError, readSavedPlan, serviceOf, type AuditEntry, type SavedPlan } from '../../server/src/api/apply';
import type { Emulator } from '../../server/src/api/emulator';
import { planTargets } from '../../server/src/api/plan';
import { estate, planOf, REDIRECT, TRANSFORM, UNLIMITED, WAF, zoneId } from './estate';
import { makeClient, startTestEmulator } from './harness';

const temps: string[] = [];

/** test/api/apply-fault-rounds.ts as a process: the rounds whose request number is `share` modulo `shares`. */
function runFaultRounds(share: number, shares: number): Promise<{ rounds: number[]; told: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'apply-fault-rounds.ts'), String(share), String(shares)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as { rounds: number[]; told: string[] }) : reject(new Error(`share ${share} of ${shares} exited ${code}:\n${err}`))));
  });
}
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The checksum as the plan file's documentation states it: sha256 of the JSON with keys sorted. */
function checksumFor(content: object): string {
  const canonical = (value: unknown): string =>
    Array.isArray(value)
      ? `[${value.map(canonical).join(',')}]`
      : value !== null && typeof value === 'object'
        ? `{${Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
        : JSON.stringify(value);
  return `sha256:${createHash('sha256').update(canonical(content)).digest('hex')}`;
}

function writes(emulator: Emulator, since: number): number {
  return emulator.requests.slice(since).filter((r) => r.method !== 'GET').length;
}

describe('rulesets apply of a saved plan', () => {
  it('50 zones × 3 phases from JSON, YAML and octorules files: everything lands, one audit line per write, and a new plan has nothing to do', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      const targets = await estate(emulator, 50, 'a5', temps);
      const plan = await planOf(emulator, targets);
      assert.equal(plan.targets.length, 50);
      assert.deepEqual(plan.targets[7].rulesets.map((r) => [r.phase, r.liveVersion, r.counts.add, r.counts.change]), [
        [WAF, '1', 1, 1],
        [TRANSFORM, undefined, 1, 0],
        [REDIRECT, undefined, 1, 0],
      ]);
      assert.ok(!planFileText(plan).includes('S3cret'), 'no credential in the plan');
      const audit: AuditEntry[] = [];
      const since = emulator.requests.length;
      const result = await applyPlan(plan, { clientFor: (scope) => makeClient(emulator.baseUrl, { scope }), audit: (e) => audit.push(e), who: 'alice' });
      assert.equal(result.complete, true);
      assert.equal(writes(emulator, since), 150, 'one write per ruleset');
      assert.deepEqual(new Set(result.rulesets.map((r) => r.outcome.state)), new Set(['applied']));
      assert.equal(audit.length, 150);
      const waf7 = audit.find((e) => e.target.id === zoneId('a5', 7) && e.ruleset === `the ${WAF} entry point`)!;
      assert.deepEqual({ ...waf7, time: 'T' }, { time: 'T', who: 'alice', target: { kind: 'zone', id: zoneId('a5', 7), label: 'z7.example' }, ruleset: `the ${WAF} entry point`, file: targets[7].files[0], from: '1', to: '2', outcome: 'applied', plan: plan.checksum });
      const again = await planTargets(targets, { clientFor: (scope) => makeClient(emulator.baseUrl, { scope }), read: (path) => readFileSync(path, 'utf8') });
      assert.deepEqual(again.targets.flatMap((t) => t.rulesets.filter((r) => r.counts.add + r.counts.change + r.counts.move + r.counts.remove + r.settings.length > 0).map((r) => JSON.stringify([r.phase, r.settings, r.rules]))).slice(0, 2), []);
      assert.equal(again.changes, false);
      const live = await makeClient(emulator.baseUrl, { scope: targets[7].scope }).getEntryPoint(WAF);
      assert.deepEqual(live.rules.map((r) => [r.ref, r.expression]), [
        ['office', 'not ip.src in {203.0.113.0/24}'],
        ['bots', 'http.user_agent contains "BadBot7"'],
        ['admin', 'http.request.uri.path eq "/admin"'],
      ]);
    } finally {
      await emulator.close();
    }
  });

  it('a live change between plan and apply is refused before any write, naming the target and both versions', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      const targets = await estate(emulator, 3, 'b5', temps);
      const plan = await planOf(emulator, targets);
      // A dashboard edit in the second zone.
      await makeClient(emulator.baseUrl, { scope: targets[1].scope }).updateRuleset({ phase: WAF }, { rules: [{ ref: 'office', action: 'log', expression: 'true' }] });
      const since = emulator.requests.length;
      await assert.rejects(
        applyPlan(plan, { clientFor: (scope) => makeClient(emulator.baseUrl, { scope }) }),
        (error: unknown) => error instanceof ApplyRefusedError && /zone z1\.example: the http_request_firewall_custom entry point \(.*waf\.json\) was at version 1 when planned, version 2 now.*plan again/.test(error.message),
      );
      assert.equal(writes(emulator, since), 0);
    } finally {
      await emulator.close();
    }
  });

  it('the thresholds stop a mass deletion before any write; --allow-mass-change passes it', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      const scope: Scope = { kind: 'zone', id: zoneId('c5', 1) };
      const client = makeClient(emulator.baseUrl, { scope });
      await client.updateRuleset({ phase: WAF }, { name: 'default', kind: 'zone', phase: WAF, rules: Array.from({ length: 12 }, (_, i) => ({ ref: `r${i}`, action: 'block', expression: `ip.src eq 192.0.2.${i}` })) });
      const dir = mkdtempSync(join(tmpdir(), 'rulesets-apply-'));
      temps.push(dir);
      const file = join(dir, 'waf.yaml');
      writeFileSync(file, `name: default\nkind: zone\nphase: ${WAF}\nrules:\n  - ref: r0\n    action: block\n    expression: ip.src eq 192.0.2.0\n`);
      const plan = await planOf(emulator, [{ scope, label: 'c.example', files: [file] }], [WAF]);
      assert.deepEqual(massChanges(plan), [`zone c.example: the ${WAF} entry point (${file}) would lose 11 of its 12 rules (92%, more than max_removed_percent 50%)`, 'zone c.example: 11 rules would be removed (more than max_removed 10)']);
      const since = emulator.requests.length;
      await assert.rejects(applyPlan(plan, { clientFor: () => client }), /not applied: the plan passes the mass-change thresholds.*--allow-mass-change/);
      assert.equal(emulator.requests.length, since, 'not even a read');
      // A threshold set higher lets the share through, not the count.
      assert.deepEqual(massChanges(plan, { maxRemoved: 20, maxChanged: 100, maxRemovedTotal: 50, maxChangedTotal: 1000, maxRemovedPercent: 95 }), []);
      const result = await applyPlan(plan, { clientFor: () => client, allowMassChange: true });
      assert.equal(result.complete, true);
      assert.equal((await client.getEntryPoint(WAF)).rules.length, 1);
    } finally {
      await emulator.close();
    }
  });

  it('an altered plan file is refused; so is a plan of an unknown version and a file that is no plan', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      const targets = await estate(emulator, 1, 'd5', temps);
      const text = planFileText(await planOf(emulator, targets));
      const altered = text.replace('http.request.uri.path eq \\"/admin\\"', 'true');
      assert.notEqual(altered, text);
      assert.throws(() => readSavedPlan(altered, 'plan.json'), (e: unknown) => e instanceof PlanFileError && /plan\.json: the plan was altered since it was written \(its checksum does not match its content\); nothing was applied/.test((e as Error).message));
      assert.throws(() => readSavedPlan(text.replace('"version": 1', '"version": 2'), 'plan.json'), /a plan file of version 2/);
      assert.throws(() => readSavedPlan('{"name": "default", "rules": []}', 'waf.json'), /not a plan file/);
      // A plan made by hand, its checksum made to match: its shape is still checked.
      const plan = JSON.parse(text) as SavedPlan;
      const { checksum: _c, ...rest } = { ...plan, targets: [{ ...plan.targets[0], rulesets: [{ ...plan.targets[0].rulesets[0], body: {} }] }] };
      const { checksum, ...content } = plan;
      assert.equal(checksumFor(content), checksum, 'the checksum is as documented: sha256 of the JSON with keys sorted');
      const withChecksum = (forged: object) => JSON.stringify({ ...forged, checksum: checksumFor(forged) });
      assert.throws(() => readSavedPlan(withChecksum(rest), 'plan.json'), /plan\.json: not a plan this version can apply: targets\[0\]\.rulesets\[0\] has no `body` with `rules`/);
      assert.equal(serviceOf('https://user:secret@api.example.com/client/v4/?x=1'), 'https://api.example.com/client/v4');
    } finally {
      await emulator.close();
    }
  });

  it('writes a custom ruleset before the entry point that executes it, whatever the order of the files', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      const scope: Scope = { kind: 'account', id: 'f00d'.padEnd(32, '0') };
      const client = makeClient(emulator.baseUrl, { scope });
      const custom = await client.createRuleset({ name: 'shared', kind: 'custom', phase: WAF, rules: [{ ref: 'one', action: 'block', expression: 'ip.src eq 192.0.2.1' }] });
      const dir = mkdtempSync(join(tmpdir(), 'rulesets-apply-'));
      temps.push(dir);
      const entry = join(dir, 'entry.yaml');
      writeFileSync(entry, `name: root\nkind: root\nphase: ${WAF}\nrules:\n  - ref: run-shared\n    action: execute\n    expression: cf.zone.plan eq \"ENT\"\n    action_parameters:\n      id: ${custom.id}\n`);
      const shared = join(dir, 'shared.yaml');
      writeFileSync(shared, `id: ${custom.id}\nname: shared\nkind: custom\nphase: ${WAF}\nrules:\n  - ref: one\n    action: block\n    expression: ip.src eq 192.0.2.2\n`);
      const plan = await planOf(emulator, [{ scope, label: 'the account', files: [entry, shared] }]);
      const since = emulator.requests.length;
      const result = await applyPlan(plan, { clientFor: () => client });
      assert.equal(result.complete, true);
      assert.deepEqual(
        emulator.requests.slice(since).filter((r) => r.method === 'PUT').map((r) => r.path),
        [`/accounts/${scope.id}/rulesets/${custom.id}`, `/accounts/${scope.id}/rulesets/phases/${WAF}/entrypoint`],
      );
    } finally {
      await emulator.close();
    }
  });

  it('50 zones × 3 phases: a fault at each request of the apply in turn (the four kinds in turn) leaves every ruleset at its old or its new version; a second apply completes', async () => {
    // 300 rounds of two applies each: in processes of their own, outside this runner's
    // bookkeeping of every promise (which doubles their time), half the requests in each.
    const shares = 2;
    const runs = await Promise.all(Array.from({ length: shares }, (_, share) => runFaultRounds(share, shares)));
    const rounds = runs.flatMap((r) => r.rounds).sort((a, b) => a - b);
    assert.deepEqual(rounds, Array.from({ length: 300 }, (_, i) => i + 1), 'a fault at each of the 300 requests (a read and a write of each ruleset)');
    // Some faults stopped an apply part way: rulesets applied, others not sent.
    const told = new Set(runs.flatMap((r) => r.told));
    assert.ok(told.has('applied') && told.has('not-applied'), [...told].join());
  });

  it('a fault at each request in turn leaves every ruleset at its old or its new version, the outcome told right; a second apply completes', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      let round = 0;
      for (const fault of [{ respond: 500 as const }, { respond: 'drop' as const, after: true }]) {
        for (let n = 1; ; n++) {
          const targets = await estate(emulator, 2, `e${++round}f`, temps);
          const plan = await planOf(emulator, targets);
          const clientFor = (scope: Scope) => makeClient(emulator.baseUrl, { scope });
          const before = new Map<string, string | undefined>();
          for (const t of plan.targets) for (const r of t.rulesets) before.set(`${t.scope.id} ${r.phase}`, r.liveVersion);
          emulator.failRequest({ failRequest: n, ...fault });
          let first: Awaited<ReturnType<typeof applyPlan>> | undefined;
          try {
            first = await applyPlan(plan, { clientFor });
          } catch (error) {
            // A read before any write failed for good: nothing was written.
            assert.match(String(error), /not applied: 1 live ruleset could not be read, so nothing was written: zone z\d\.example: the \w+ entry point .*; apply again/);
            assert.ok((error as Error).cause instanceof ApiError);
          }
          const fired = emulator.armedFault === undefined;
          emulator.failRequest(undefined);
          for (const t of plan.targets) {
            for (const r of t.rulesets) {
              const live = await clientFor(t.scope).getEntryPoint(r.phase).catch(() => undefined);
              const old = live?.version === before.get(`${t.scope.id} ${r.phase}`);
              assert.ok(old || (live && atPlannedContent(live, r)), `n=${n} ${JSON.stringify(fault)}: ${t.label} ${r.phase} is at neither its old nor its new version`);
              const outcome = first?.rulesets.find((x) => x.ruleset === r)?.outcome;
              if (outcome?.state === 'applied') assert.ok(!old && live?.version === outcome.to, `n=${n}: told applied at ${outcome.to}, live ${live?.version}`);
              if (outcome?.state === 'not-applied') assert.ok(old, `n=${n}: told not applied, but it moved`);
            }
          }
          const second = await applyPlan(plan, { clientFor });
          assert.equal(second.complete, true, `n=${n} ${JSON.stringify(fault)}: ${JSON.stringify(second.rulesets.map((r) => r.outcome))}`);
          if (!fired) break;
          assert.ok(n < 100, 'the loop ends');
        }
      }
      assert.ok(round > 10, `a fault at each of the requests in turn (${round} rounds)`);
    } finally {
      await emulator.close();
    }
  });
});
