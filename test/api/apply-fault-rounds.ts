/**
 * Run by test/api/apply.test.ts as a process: an estate of 50 zones × 3 phases is planned once;
 * then, for each request of its apply whose number is SHARE modulo SHARES, the state the plan was
 * made against is put back, a fault of the next of the four kinds (500 or a dropped connection,
 * before or after the write) is armed at that request, and the plan is applied. Every ruleset
 * must then be at its old or its new version, as the apply told, and a second apply must
 * complete. Prints {"rounds": [n…], "told": [outcome…]}; a failed check exits non-zero.
 *
 *   node --import tsx test/api/apply-fault-rounds.ts SHARE SHARES
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { Scope } from '../../server/src/api/client';
import { applyPlan, atPlannedContent, type SavedPlan } from '../../server/src/api/apply';
import { estate, planOf, UNLIMITED } from './estate';
import { makeClient, startTestEmulator } from './harness';

async function main(share: number, shares: number): Promise<{ rounds: number[]; told: string[] }> {
  const temps: string[] = [];
  const emulator = await startTestEmulator({ rateLimit: UNLIMITED });
  try {
    const targets = await estate(emulator, 50, 'f5', temps);
    const plan = await planOf(emulator, targets);
    const clientFor = (scope: Scope) => makeClient(emulator.baseUrl, { scope });
    // Each round starts from the state the plan was made against (the emulator's copies share what neither changes).
    const planned = emulator.state.clone();
    const liveOf = (scope: SavedPlan['targets'][number]['scope'], phase: string) =>
      emulator.state.storedAll().find((s) => s.owner === scope.id && s.scope === `${scope.kind}s` && s.versions.at(-1)?.phase === phase && s.versions.at(-1)?.kind !== 'custom')?.versions.at(-1);
    const since = emulator.requests.length;
    assert.equal((await applyPlan(plan, { clientFor })).complete, true);
    const requests = emulator.requests.length - since;
    const kinds = [{}, { after: true }, { respond: 'drop' as const }, { respond: 'drop' as const, after: true }];
    const rounds: number[] = [];
    const told = new Set<string>();
    for (let n = 1; n <= requests; n++) {
      if (n % shares !== share) continue;
      emulator.state.adopt(planned.clone());
      const fault = kinds[(n - 1) % kinds.length];
      emulator.failRequest({ failRequest: n, ...fault });
      const first = await applyPlan(plan, { clientFor });
      assert.equal(emulator.armedFault, undefined, `the fault at request ${n} fired`);
      for (const { target, ruleset, outcome } of first.rulesets) {
        const live = liveOf(target.scope, ruleset.phase);
        const old = live?.version === ruleset.liveVersion;
        const where = `fault ${JSON.stringify({ n, ...fault })}: ${target.label} ${ruleset.phase} (${outcome.state})`;
        assert.ok(old || (live && atPlannedContent(live, ruleset)), `${where} is at neither its old nor its new version`);
        if (outcome.state === 'applied') assert.ok(!old && live?.version === outcome.to, `${where}: told applied at ${outcome.to}, live ${live?.version}`);
        if (outcome.state === 'not-applied') assert.ok(old, `${where}: told not applied, but it moved`);
        told.add(outcome.state);
      }
      const second = await applyPlan(plan, { clientFor });
      assert.equal(second.complete, true, `fault ${JSON.stringify({ n, ...fault })}: the second apply: ${JSON.stringify(second.rulesets.map((r) => r.outcome).filter((o) => o.state !== 'applied' && o.state !== 'done'))}`);
      rounds.push(n);
    }
    return { rounds, told: [...told] };
  } finally {
    await emulator.close();
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  }
}

const [share, shares] = process.argv.slice(2).map(Number);
main(share, shares).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
