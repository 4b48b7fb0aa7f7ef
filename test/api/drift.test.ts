/**
 * Drift against the in-process emulator: `apply` records in the lock what landed; a dashboard
 * edit between apply and plan is shown as drift naming the rule and whether an apply would undo
 * it; a change in the file is "changed here"; applying again brings the lock up to date; an apply
 * stopped part-way by a fault records only the rulesets that landed.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '../../server/src/api/client';
import type { Emulator } from '../../server/src/api/emulator';
import { applyPlan, planFileText, readSavedPlan, savedPlanOf, type SavedPlan } from '../../server/src/api/apply';
import { emptyLock, lockFileText, lockKey, readLockFile, withDrift, withLockEntry, type LockFile } from '../../server/src/api/lock';
import { planTargets, type EstatePlan } from '../../server/src/api/plan';
import { planJson, planMarkdown, planText } from '../../server/src/api/plan-output';
import type { Target } from '../../server/src/api/targets';
import { makeClient, startTestEmulator } from './harness';

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const WAF = 'http_request_firewall_custom';
const UNLIMITED = { requests: 1_000_000, windowMs: 60_000 };
const RULES = [
  { ref: 'office', action: 'block', expression: 'not ip.src in {203.0.113.0/24}' },
  { ref: 'bots', action: 'block', expression: 'http.user_agent contains "BadBot"' },
];

function zoneId(i: number): string {
  return `d${i.toString(16).padStart(4, '0')}`.padEnd(32, '0');
}

/** `count` zones, each with a waf.json of RULES (nothing live yet). */
function estate(count: number): Target[] {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-drift-'));
  temps.push(dir);
  return Array.from({ length: count }, (_, i) => {
    const file = join(dir, `waf${i}.json`);
    writeFileSync(file, JSON.stringify({ name: 'default', kind: 'zone', phase: WAF, rules: RULES }));
    return { scope: { kind: 'zone', id: zoneId(i) } as Scope, label: `z${i}.example`, files: [file] };
  });
}

function planOf(emulator: Emulator, targets: Target[], ownedPhases: string[] = []): Promise<EstatePlan> {
  return planTargets(targets, { clientFor: (scope) => makeClient(emulator.baseUrl, { scope }), read: (path) => readFileSync(path, 'utf8'), ownedPhases });
}

/** Applies the plan as `rulesets apply` does, recording what lands in the lock (through its text, as on disk). */
async function applyWithLock(emulator: Emulator, plan: EstatePlan, lock: LockFile, concurrency?: number): Promise<{ lock: LockFile; complete: boolean }> {
  const saved: SavedPlan = readSavedPlan(planFileText(savedPlanOf(plan)), 'plan.json');
  let current = lock;
  const result = await applyPlan(saved, {
    clientFor: (scope) => makeClient(emulator.baseUrl, { scope }),
    ...(concurrency !== undefined ? { concurrency } : {}),
    onLocked: (target, ruleset, entry) => {
      current = readLockFile(lockFileText(withLockEntry(current, lockKey(target.scope, ruleset.destination), entry)), 'lock.json');
    },
  });
  return { lock: current, complete: result.complete };
}

describe('drift against the lock file', () => {
  it('a dashboard edit between apply and plan is drift naming the rule, and the apply that would undo it; applying again updates the lock', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      const targets = estate(1);
      const client = makeClient(emulator.baseUrl, { scope: targets[0].scope });
      // Before any apply from here: no lock entry, nothing said of drift.
      const first = withDrift(await planOf(emulator, targets), emptyLock());
      assert.equal(first.targets[0].rulesets[0].drift, undefined);
      assert.doesNotMatch(planText(first), /drift:/);
      let { lock } = await applyWithLock(emulator, first, emptyLock());
      const applied = await client.getEntryPoint(WAF);
      const key = lockKey(targets[0].scope, { kind: 'entrypoint', phase: WAF });
      assert.deepEqual(Object.keys(lock.rulesets), [key]);
      assert.equal(lock.rulesets[key].version, applied.version);
      assert.deepEqual(lock.rulesets[key].rules.map((r) => [r.id, r.ref]), applied.rules.map((r) => [r.id, 'ref' in r && r.ref !== r.id ? r.ref : undefined]));

      // Live as last applied: the lock's version is live, no drift.
      const quiet = withDrift(await planOf(emulator, targets), lock);
      assert.deepEqual(quiet.targets[0].rulesets[0].drift, { lockedVersion: applied.version, changedHere: false, changedLive: false, undone: [], removedLive: [] });
      assert.ok(quiet.targets[0].rulesets[0].rules.every((r) => r.drift === undefined));

      // A dashboard edit: bots changed, a rule added.
      await client.updateRuleset({ phase: WAF }, { rules: [{ id: applied.rules[0].id, ...RULES[0] }, { id: applied.rules[1].id, ref: 'bots', action: 'log', expression: 'http.user_agent contains "BadBot"' }, { ref: 'dash', action: 'block', expression: 'ip.src eq 198.51.100.7' }] });
      const edited = await client.getEntryPoint(WAF);
      const drifted = withDrift(await planOf(emulator, targets), lock);
      const r = drifted.targets[0].rulesets[0];
      assert.deepEqual(r.drift, { lockedVersion: applied.version, changedHere: false, changedLive: true, undone: ['bots'], removedLive: [] });
      assert.deepEqual(r.rules.map((rule) => [rule.name, rule.action, rule.drift, rule.undone]), [
        ['office', 'unchanged', undefined, undefined],
        ['bots', 'change', 'edited-live', true],
        ['dash', 'unmanaged', 'added-live', false],
      ]);
      const text = planText(drifted);
      assert.match(text, new RegExp(`drift: unchanged here since the last apply; changed live since the last apply \\(version ${applied.version} → version ${edited.version}\\); apply would undo the live edit to bots\\n`));
      assert.match(text, /~ bots, at 2 \[edited live since the last apply; apply would undo it\]/);
      assert.match(text, /dash, at 3: unmanaged \(in no file\), kept \[added live since the last apply\]/);
      const json = JSON.parse(planJson(drifted));
      assert.deepEqual(json.targets[0].rulesets[0].drift, { locked_version: applied.version, changed_here: false, changed_live: true, undone_by_apply: ['bots'], removed_live: [] });
      assert.deepEqual(json.targets[0].rulesets[0].rules.map((x: { name: string; drift?: string; undone_by_apply?: boolean }) => [x.name, x.drift ?? null, x.undone_by_apply ?? null]), [
        ['office', null, null],
        ['bots', 'edited_live', true],
        ['dash', 'added_live', false],
      ]);
      assert.match(planMarkdown(drifted), /! drift: .*apply would undo the live edit to bots/);
      // Owning the phase, the added rule would go too: that undoes it.
      const owned = withDrift(await planOf(emulator, targets, [WAF]), lock);
      assert.deepEqual(owned.targets[0].rulesets[0].drift?.undone, ['bots', 'dash']);

      // Changed here too: the file takes up the dashboard's edit of bots (nothing to undo there)…
      writeFileSync(targets[0].files[0], JSON.stringify({ name: 'default', kind: 'zone', phase: WAF, rules: [RULES[0], { ...RULES[1], action: 'log' }] }));
      const taken = withDrift(await planOf(emulator, targets), lock);
      assert.deepEqual(taken.targets[0].rulesets[0].drift, { lockedVersion: applied.version, changedHere: true, changedLive: true, undone: [], removedLive: [] });
      assert.match(planText(taken), /drift: changed here since the last apply; changed live since the last apply .*; apply undoes no live edit/);
      assert.match(planText(taken), /bots, at 2: unchanged \[edited live since the last apply\]/);
      // Applying that writes nothing, yet records the live ruleset the files now agree with: no drift after it.
      const accepted = await applyWithLock(emulator, taken, lock);
      assert.equal(accepted.lock.rulesets[key].version, edited.version);
      assert.deepEqual(withDrift(await planOf(emulator, targets), accepted.lock).targets[0].rulesets[0].drift, { lockedVersion: edited.version, changedHere: false, changedLive: false, undone: [], removedLive: [] });
      // …or changes it another way, which undoes the live edit.
      writeFileSync(targets[0].files[0], JSON.stringify({ name: 'default', kind: 'zone', phase: WAF, rules: [RULES[0], { ...RULES[1], action: 'managed_challenge' }] }));
      const both = withDrift(await planOf(emulator, targets), lock);
      assert.deepEqual(both.targets[0].rulesets[0].drift, { lockedVersion: applied.version, changedHere: true, changedLive: true, undone: ['bots'], removedLive: [] });

      // Applying again records the new version: no drift after it.
      ({ lock } = await applyWithLock(emulator, both, lock));
      const now = await client.getEntryPoint(WAF);
      assert.equal(lock.rulesets[key].version, now.version);
      assert.notEqual(now.version, edited.version);
      const after = withDrift(await planOf(emulator, targets), lock);
      assert.deepEqual(after.targets[0].rulesets[0].drift, { lockedVersion: now.version, changedHere: false, changedLive: false, undone: [], removedLive: [] });
    } finally {
      await emulator.close();
    }
  });

  it('a rule deleted live since the last apply is named in the drift line', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      const targets = estate(1);
      const client = makeClient(emulator.baseUrl, { scope: targets[0].scope });
      const { lock } = await applyWithLock(emulator, await planOf(emulator, targets), emptyLock());
      const applied = await client.getEntryPoint(WAF);
      await client.updateRuleset({ phase: WAF }, { rules: [{ id: applied.rules[0].id, ...RULES[0] }] });
      const drifted = withDrift(await planOf(emulator, targets), lock);
      assert.deepEqual(drifted.targets[0].rulesets[0].drift?.removedLive, ['bots']);
      assert.match(planText(drifted), /removed live: bots/);
    } finally {
      await emulator.close();
    }
  });

  it('an apply stopped by a failed write records only the rulesets that landed', async () => {
    const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
    try {
      const targets = estate(3);
      const plan = await planOf(emulator, targets);
      // The second write fails (500, nothing stored); one at a time, so the third is never sent.
      emulator.failRequest({ failRequest: 2, method: 'PUT' });
      const { lock, complete } = await applyWithLock(emulator, plan, emptyLock(), 1);
      emulator.failRequest(undefined);
      assert.equal(complete, false);
      const landed = [];
      for (const t of targets) {
        const live = await makeClient(emulator.baseUrl, { scope: t.scope }).getEntryPoint(WAF).catch(() => undefined);
        if (live) landed.push(lockKey(t.scope, { kind: 'entrypoint', phase: WAF }));
      }
      assert.equal(landed.length, 1);
      assert.deepEqual(Object.keys(lock.rulesets), landed);
      // Applying again finishes the rest, and records them.
      const again = await applyWithLock(emulator, await planOf(emulator, targets), lock);
      assert.equal(again.complete, true);
      assert.equal(Object.keys(again.lock.rulesets).length, 3);
    } finally {
      await emulator.close();
    }
  });
});
