/**
 * JSON bodies nested thousands of levels deep, both ways: the emulator answers a request body
 * nested too deep with a 400 that says so (not a 500 from its own stack running out), refuses
 * a data file nested too deep when it starts, and the client refuses an answer nested too deep
 * (which every command would otherwise hand to a recursive walk: the key sort of a pull, the
 * YAML writer, JSON.stringify). A local file's YAML aliases that expand too far are a
 * WorkflowError, not the library's ReferenceError.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLocalRuleset, WorkflowError } from '../../server/src/api/local-ruleset';
import { startEmulator, type Emulator } from '../../server/src/api/emulator';
import { MAX_NESTING } from '../../server/src/documents/host/nesting';
import { failure, makeClient, SECRETS, startTestEmulator } from './harness';

const deepValue = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);
const rulesetBody = (parameters: string) =>
  `{"name": "deep", "kind": "custom", "phase": "magic_transit", "rules": [{"action": "block", "expression": "tcp.dstport == 22", "action_parameters": {"deep": ${parameters}}}]}`;

describe('the emulator, on request bodies nested too deep', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startTestEmulator();
  });
  after(() => emulator.close());

  async function call(method: string, path: string, body?: string): Promise<{ status: number; body: { success: boolean; errors: { message: string }[]; result: unknown } }> {
    const response = await fetch(`${emulator.baseUrl}${path}`, { method, body, headers: { authorization: `Bearer ${SECRETS.token}`, 'content-type': 'application/json' } });
    return { status: response.status, body: JSON.parse(await response.text()) };
  }

  for (const n of [MAX_NESTING, 7_000, 100_000]) {
    it(`answers 400, saying so, for a body ${n} levels deep; and then serves as before`, async () => {
      for (const [method, path] of [
        ['POST', '/accounts/deep/rulesets'],
        ['PUT', '/accounts/deep/rulesets/phases/magic_transit/entrypoint'],
      ] as const) {
        const refused = await call(method, path, rulesetBody(deepValue(n)));
        assert.equal(refused.status, 400, JSON.stringify(refused.body).slice(0, 300));
        assert.match(refused.body.errors[0].message, new RegExp(`the request body nests deeper than ${MAX_NESTING} levels`));
      }
      const fine = await call('POST', '/accounts/deep/rulesets', rulesetBody('{"a": 1}'));
      assert.equal(fine.status, 200, JSON.stringify(fine.body));
      const id = (fine.body.result as { id: string }).id;
      const rule = await call('POST', `/accounts/deep/rulesets/${id}/rules`, `{"action": "block", "expression": "tcp.dstport == 23", "action_parameters": ${deepValue(n)}}`);
      assert.equal(rule.status, 400);
      assert.equal((await call('GET', `/accounts/deep/rulesets/${id}`)).status, 200);
    });
  }

  it('keeps a body nested as deep as a request may, across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-emulator-deep-'));
    const dataFile = join(dir, 'data.json');
    const running: Emulator[] = [];
    try {
      const first = await startEmulator({ credentials: SECRETS, dataFile });
      running.push(first);
      const post = (path: string, body: string) =>
        fetch(`${first.baseUrl}${path}`, { method: 'POST', body, headers: { authorization: `Bearer ${SECRETS.token}`, 'content-type': 'application/json' } });
      // The ruleset, `rules`, the rule and `action_parameters` are four levels of the body; the
      // emulator checks a rule of its own inside a ruleset, two levels deeper.
      const created = await post('/accounts/deep/rulesets', rulesetBody(deepValue(MAX_NESTING - 6)));
      assert.equal(created.status, 200, await created.clone().text());
      const { result } = (await created.json()) as { result: { id: string } };
      const rule = await post(`/accounts/deep/rulesets/${result.id}/rules`, `{"action": "block", "expression": "tcp.dstport == 23", "action_parameters": {"deep": ${deepValue(MAX_NESTING - 4)}}}`);
      assert.equal(rule.status, 200, await rule.clone().text());
      await running.pop()!.close();
      const second = await startEmulator({ credentials: SECRETS, dataFile });
      running.push(second);
      assert.equal(second.state.latest(result.id)?.rules.length, 2);
    } finally {
      for (const emulator of running) await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start on a data file nested too deep, saying which', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-emulator-deep-'));
    try {
      const dataFile = join(dir, 'data.json');
      const rule = `{"id": "r", "version": "1", "action": "block", "expression": "tcp.dstport == 22", "action_parameters": ${deepValue(7_000)}}`;
      writeFileSync(dataFile, `{"format": 1, "rulesets": [{"id": "x", "scope": "accounts", "owner": "a", "nextVersion": 2, "versions": [{"id": "x", "name": "n", "kind": "custom", "phase": "magic_transit", "version": "1", "rules": [${rule}]}]}]}`);
      await assert.rejects(startEmulator({ dataFile }), /data\.json: not an emulator data file \(it nests deeper than \d+ levels\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the client, on answers nested too deep', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startTestEmulator();
  });
  after(() => emulator.close());

  for (const n of [7_000, 100_000]) {
    it(`refuses a result ${n} levels deep as an invalid response, and errors as deep`, async () => {
      const client = makeClient(emulator.baseUrl);
      const result = `{"id": "x", "name": "n", "kind": "custom", "phase": "magic_transit", "version": "1", "rules": [{"id": "r", "action": "block", "expression": "tcp.dstport == 22", "action_parameters": ${deepValue(n)}}]}`;
      emulator.faults.push({ method: 'GET', respond: { status: 200, body: `{"success": true, "errors": [], "messages": [], "result": ${result}}` } });
      const refused = await failure(client.getRuleset('x'));
      assert.equal(refused.kind, 'invalid-response');
      assert.match(refused.message, new RegExp(`the response nests deeper than ${MAX_NESTING} levels`));
      emulator.faults.push({ method: 'GET', respond: { status: 400, body: `{"success": false, "errors": [{"code": 1, "message": ${deepValue(n)}}], "messages": [], "result": null}` } });
      const error = await failure(client.getRuleset('x'));
      assert.equal(error.kind, 'invalid-response');
    });
  }
});

describe('readLocalRuleset, on files nested too deep or aliased too far', () => {
  it('a file nested too deep is a WorkflowError at the place', () => {
    for (const [path, text] of [
      ['deep.json', rulesetBody(deepValue(7_000))],
      ['deep.yaml', `name: deep\nkind: custom\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport == 22\n    action_parameters: ${deepValue(100_000)}\n`],
    ]) {
      assert.throws(
        () => readLocalRuleset(path, text),
        (error: unknown) => error instanceof WorkflowError && new RegExp(`^${path.replace('.', '\\.')}:\\d+:\\d+: nested too deeply`).test(error.message),
      );
    }
  });

  it('an alias before its anchor, or aliases resolved into a value nested too deep, are WorkflowErrors', () => {
    const head = 'name: deep\nkind: custom\nphase: magic_transit\n';
    const rule = (parameters: string) => `rules:\n  - action: block\n    expression: tcp.dstport == 22\n    action_parameters: ${parameters}\n`;
    assert.throws(
      () => readLocalRuleset('early.yaml', `${head}${rule('*later')}later: &later {a: 1}\n`),
      (error: unknown) => error instanceof WorkflowError && /^early\.yaml: Unresolved alias .*later/.test(error.message),
    );
    // Each anchor's value holds the one before it 200 levels down: the text nests 201 levels,
    // the value 1,000.
    const deep = (inner: string) => '['.repeat(200) + inner + ']'.repeat(200);
    const anchors = ['x0: &a0 1', ...Array.from({ length: 5 }, (_, i) => `x${i + 1}: &a${i + 1} ${deep(`*a${i}`)}`)].join('\n');
    assert.throws(
      () => readLocalRuleset('chain.yaml', `${head}${anchors}\n${rule('*a5')}`),
      (error: unknown) => error instanceof WorkflowError && new RegExp(`^chain\\.yaml: with its aliases .* resolved, the ruleset nests deeper than ${MAX_NESTING} levels`).test(error.message),
    );
  });

  it('YAML aliases that expand past the library\'s limit are a WorkflowError that says so', () => {
    const lines = ['name: deep', 'kind: custom', 'phase: magic_transit', 'x0: &a0 [1, 1]'];
    for (let i = 1; i < 60; i++) lines.push(`x${i}: &a${i} [*a${i - 1}, *a${i - 1}]`);
    lines.push('rules:', '  - action: block', '    expression: tcp.dstport == 22', '    action_parameters: {deep: *a59}', '');
    assert.throws(
      () => readLocalRuleset('aliases.yaml', lines.join('\n')),
      (error: unknown) => error instanceof WorkflowError && /^aliases\.yaml: .*aliases/.test(error.message),
    );
  });
});
