/**
 * `deploy` of one file whose rules say where they go: the file is its entry point's only file,
 * so its `before:`/`after:` order the rules sent, and are not sent; one that names no rule of
 * the file stops the deploy with an error on its line, before anything is written.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Emulator } from '../../server/src/api/emulator';
import { applyDeploy, planDeploy } from '../../server/src/api/deploy';
import { readLocalRuleset } from '../../server/src/api/local-ruleset';
import { makeClient, startTestEmulator } from './harness';

let emulator: Emulator;

before(async () => {
  emulator = await startTestEmulator();
});

after(async () => {
  await emulator.close();
});

const waf = (rules: string) => `name: default\nkind: zone\nphase: http_request_firewall_custom\nrules:\n${rules}`;

describe('deploying a file whose rules say where they go', () => {
  it('sends its rules in the order before:/after: give, without those keys', async () => {
    const client = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: 'dddd0000dddd0000dddd0000dddd0001' } });
    const local = readLocalRuleset('waf.yaml', waf('  - ref: one\n    action: block\n    expression: ip.src eq 192.0.2.1\n  - ref: two\n    action: block\n    expression: ip.src eq 192.0.2.2\n    before: one\n'));
    const plan = await planDeploy(client, local);
    assert.deepEqual(plan.localProblems, []);
    const { ruleset } = await applyDeploy(client, local, plan);
    assert.deepEqual(ruleset.rules.map((r) => r.ref), ['two', 'one']);
    const live = await client.getEntryPoint('http_request_firewall_custom');
    assert.ok(live.rules.every((r) => !('before' in r) && !('after' in r)));
  });

  it('stops on a before: that names no rule of the file, on its line', async () => {
    const client = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: 'dddd0000dddd0000dddd0000dddd0002' } });
    const local = readLocalRuleset('waf.yaml', waf('  - ref: one\n    action: block\n    expression: ip.src eq 192.0.2.1\n    after: onw\n'));
    const since = emulator.requests.length;
    const plan = await planDeploy(client, local);
    assert.deepEqual(plan.localProblems.map((p) => `${p.range.start.line + 1} ${p.code}`), ['8 unknown-rule-ref']);
    await assert.rejects(applyDeploy(client, local, plan), /not deployed: the check found errors/);
    assert.deepEqual(emulator.requests.slice(since).filter((r) => r.method !== 'GET'), []);
  });
});
