import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { parseRetryAfter, redact, ruleDefinition, RulesetsClient, type Credentials, type RuleInput, type Ruleset, type Scope } from '../../server/src/api/client';
import type { Emulator } from '../../server/src/api/emulator';
import { ACCOUNT, assertNoSecrets, EMAIL_KEY, failure, makeClient, record, SECRETS, startTestEmulator, TOKEN, ZONE, type TestClient } from './harness';

const BLOCK_TCP: RuleInput = { action: 'block', expression: 'ip.proto == "tcp"', description: 'block tcp' };
const SKIP_SSH: RuleInput = { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in {22}', description: 'ssh' };
const BLOCK_UDP: RuleInput = { action: 'block', expression: 'ip.proto == "udp"', description: 'block udp' };

let emulator: Emulator;

before(async () => {
  emulator = await startTestEmulator();
});

after(async () => {
  await emulator.close();
});

function client(options: Parameters<typeof makeClient>[1] = {}): TestClient {
  return makeClient(emulator.baseUrl, options);
}

function descriptions(ruleset: Ruleset): string[] {
  return ruleset.rules.map((r) => r.description);
}

async function custom(c: RulesetsClient, rules: readonly RuleInput[] = [BLOCK_TCP], name = 'custom'): Promise<Ruleset> {
  return c.createRuleset({ name, kind: 'custom', phase: 'magic_transit', description: 'test', rules });
}

/** The emulator's whole state, to compare before and after. */
function snapshot(): string {
  return JSON.stringify(emulator.state);
}

// ------------------------------------------------------------------ every operation

const COMBINATIONS: readonly { scope: Scope; credentials: Credentials; label: string; prefix: string; entryKind: string }[] = [
  { scope: ACCOUNT, credentials: TOKEN, label: 'account scope, API token', prefix: `/accounts/${'a1'.repeat(16)}`, entryKind: 'root' },
  { scope: ZONE, credentials: EMAIL_KEY, label: 'zone scope, email and key', prefix: `/zones/${'b2'.repeat(16)}`, entryKind: 'zone' },
  { scope: ACCOUNT, credentials: EMAIL_KEY, label: 'account scope, email and key', prefix: `/accounts/${'a1'.repeat(16)}`, entryKind: 'root' },
  { scope: ZONE, credentials: TOKEN, label: 'zone scope, API token', prefix: `/zones/${'b2'.repeat(16)}`, entryKind: 'zone' },
];

for (const { scope, credentials, label, prefix, entryKind } of COMBINATIONS) {
  describe(`every operation (${label})`, () => {
    it('creates, reads, lists, updates, versions, changes rules and deletes a ruleset', async () => {
      const lines: string[] = [];
      const c = client({ scope, credentials, log: (line) => lines.push(line) });
      const created = await custom(c, [BLOCK_TCP], `ops ${label}`);
      assert.match(created.id, /^[0-9a-f]{32}$/);
      assert.equal(created.version, '1');
      assert.equal(created.kind, 'custom');
      assert.equal(created.rules.length, 1);
      assert.match(created.rules[0].id, /^[0-9a-f]{32}$/);
      assert.equal(created.rules[0].ref, created.rules[0].id);
      assert.equal(created.rules[0].enabled, true);
      assert.ok(!Number.isNaN(Date.parse(created.last_updated)));
      assert.deepEqual(lines.slice(0, 1), [`→ POST ${prefix}/rulesets`]);
      assert.match(lines[1], new RegExp(`^← 200 POST ${prefix}/rulesets \\(\\d+ ms\\)$`));

      const listed = await c.listRulesets();
      const item = listed.find((r) => r.id === created.id);
      assert.ok(item, 'the new ruleset is listed');
      assert.equal('rules' in item, false, 'list items come without rules');

      assert.deepEqual(await c.getRuleset(created.id), created);

      const updated = await c.updateRuleset(created.id, { description: 'now two rules', rules: [SKIP_SSH, BLOCK_TCP] });
      assert.equal(updated.version, '2');
      assert.equal(updated.description, 'now two rules');
      assert.deepEqual(descriptions(updated), ['ssh', 'block tcp']);

      const versions = await c.listVersions(created.id);
      assert.deepEqual(
        versions.map((v) => v.version),
        ['1', '2'],
      );
      assert.equal('rules' in versions[0], false);
      assert.deepEqual(descriptions(await c.getVersion(created.id, '1')), ['block tcp']);
      assert.deepEqual(descriptions(await c.getVersion(created.id, 2)), ['ssh', 'block tcp']);

      const added = await c.addRule(created.id, BLOCK_UDP, { position: { index: 2 } });
      assert.equal(added.version, '3');
      assert.deepEqual(descriptions(added), ['ssh', 'block udp', 'block tcp']);

      const udp = added.rules[1];
      const changed = await c.updateRule(created.id, udp.id, { ...ruleDefinition(udp), enabled: false, description: 'udp off' });
      assert.equal(changed.version, '4');
      assert.deepEqual(descriptions(changed), ['ssh', 'udp off', 'block tcp']);
      assert.equal(changed.rules[1].enabled, false);
      assert.equal(changed.rules[1].id, udp.id, 'an updated rule keeps its id');

      const removed = await c.deleteRule(created.id, udp.id);
      assert.equal(removed.version, '5');
      assert.deepEqual(descriptions(removed), ['ssh', 'block tcp']);

      await c.deleteVersion(created.id, '1');
      assert.equal((await failure(c.getVersion(created.id, '1'))).status, 404);
      assert.deepEqual(
        (await c.listVersions(created.id)).map((v) => v.version),
        ['2', '3', '4', '5'],
      );

      await c.deleteRuleset(created.id);
      assert.equal((await failure(c.getRuleset(created.id))).status, 404);
      assert.ok(!(await c.listRulesets()).some((r) => r.id === created.id));
    });

    it('deploys to a phase entry point, creating it when missing, and reads it back', async () => {
      const c = client({ scope, credentials });
      const phase = `magic_transit`;
      const missing = await failure(c.getEntryPoint(phase));
      assert.equal(missing.status, 404);
      const first = await c.updateRuleset({ phase }, { rules: [SKIP_SSH, BLOCK_TCP] });
      assert.equal(first.kind, entryKind);
      assert.equal(first.phase, phase);
      assert.equal(first.version, '1');
      const renamed = await failure(c.updateRuleset({ phase }, { name: 'entry', rules: [BLOCK_TCP] }));
      assert.equal(renamed.status, 400, 'a ruleset is never renamed');
      assert.equal(renamed.errors[0].pointer, '/name');
      const second = await c.updateRuleset({ phase }, { name: first.name, rules: [BLOCK_TCP] });
      assert.equal(second.id, first.id, 'the entry point is updated, not created again');
      assert.equal(second.version, '2');
      assert.equal(second.name, first.name);
      assert.deepEqual(await c.getEntryPoint(phase), second);
      assert.deepEqual(
        (await c.listVersions({ phase })).map((v) => v.version),
        ['1', '2'],
      );
      assert.deepEqual(descriptions(await c.getVersion({ phase }, '1')), ['ssh', 'block tcp']);
      await c.deleteRuleset(first.id);
    });

    it('reads the rules of a managed ruleset by tag', async () => {
      const managed = emulator.state.addManagedRuleset({
        name: 'Managed',
        phase: 'magic_transit_managed',
        rules: [
          { action: 'block', expression: 'tcp.dstport == 23', description: 'telnet', categories: ['telnet', 'legacy'] },
          { action: 'block', expression: 'udp.dstport == 69', description: 'tftp', categories: ['legacy'] },
          { action: 'block', expression: 'tcp.dstport == 445', description: 'smb', categories: ['smb'] },
        ],
      });
      const requests = emulator.requests.length;
      const c = client({ scope, credentials });
      assert.ok((await c.listRulesets()).some((r) => r.id === managed.id && r.kind === 'managed'), 'managed rulesets are listed everywhere');
      if (scope.kind === 'account') {
        assert.deepEqual(descriptions(await c.rulesByTag(managed.id, '1', 'legacy')), ['telnet', 'tftp']);
        assert.deepEqual(descriptions(await c.rulesByTag(managed.id, '1', 'nothing')), []);
      } else {
        const sent = emulator.requests.length;
        const zone = await failure(c.rulesByTag(managed.id, '1', 'legacy'));
        assert.equal(zone.kind, 'config');
        assert.match(zone.message, /^rules by tag is an account-level operation of the API \(there is no zone form\): give an account/);
        assert.equal(emulator.requests.length, sent, 'refused before any request');
      }
      assert.ok(emulator.requests.length > requests);
      const readOnly = await failure(c.updateRuleset(managed.id, { rules: [] }));
      assert.equal(readOnly.status, 400);
      assert.match(readOnly.message, /managed ruleset and cannot be changed/);
    });
  });
}

describe('scopes', () => {
  it('keeps accounts and zones apart', async () => {
    const a = client({ scope: ACCOUNT });
    const created = await custom(a);
    assert.equal((await failure(client({ scope: ZONE }).getRuleset(created.id))).status, 404);
    assert.equal((await failure(client({ scope: { kind: 'account', id: 'another' } }).getRuleset(created.id))).status, 404);
    await a.deleteRuleset(created.id);
  });

  it('creates only the kinds a scope allows, and one entry point per phase', async () => {
    const zone = await failure(client({ scope: ZONE }).createRuleset({ name: 'x', kind: 'root', phase: 'magic_transit', rules: [] }));
    assert.equal(zone.status, 400);
    assert.equal(zone.errors[0].pointer, '/kind');
    const a = client({ scope: { kind: 'account', id: 'entry-points' } });
    await a.createRuleset({ name: 'entry', kind: 'root', phase: 'magic_transit', rules: [] });
    const twice = await failure(a.createRuleset({ name: 'again', kind: 'root', phase: 'magic_transit', rules: [] }));
    assert.equal(twice.status, 400);
    assert.equal(twice.errors[0].pointer, '/phase');
  });
});

// ------------------------------------------------------------------ versions

describe('versions', () => {
  it('makes a new version on each change and never reuses a number, even after deleting a version', async () => {
    const c = client();
    const r = await custom(c);
    await c.updateRuleset(r.id, { rules: [BLOCK_UDP] });
    await c.updateRuleset(r.id, { rules: [BLOCK_TCP] });
    await c.deleteVersion(r.id, 2);
    assert.deepEqual(emulator.state.versions(r.id), ['1', '3']);
    assert.equal((await c.updateRuleset(r.id, { rules: [BLOCK_TCP] })).version, '4', 'an unchanged deploy is a change too');
    assert.equal((await c.addRule(r.id, BLOCK_UDP)).version, '5');
    assert.deepEqual(emulator.state.versions(r.id), ['1', '3', '4', '5']);
  });

  it('keeps each version as a full snapshot with its rules', async () => {
    const c = client();
    const r = await custom(c, [BLOCK_TCP, BLOCK_UDP]);
    await c.updateRule(r.id, r.rules[0].id, { ...ruleDefinition(r.rules[0]), expression: 'ip.proto == "icmp"' });
    await c.deleteRule(r.id, r.rules[1].id);
    assert.deepEqual(
      (await c.getVersion(r.id, 1)).rules.map((x) => x.expression),
      ['ip.proto == "tcp"', 'ip.proto == "udp"'],
    );
    assert.deepEqual(
      (await c.getVersion(r.id, 2)).rules.map((x) => x.expression),
      ['ip.proto == "icmp"', 'ip.proto == "udp"'],
    );
    assert.deepEqual(
      (await c.getVersion(r.id, 3)).rules.map((x) => x.expression),
      ['ip.proto == "icmp"'],
    );
  });

  it('refuses to delete the latest version', async () => {
    const c = client();
    const r = await custom(c);
    const latest = await failure(c.deleteVersion(r.id, '1'));
    assert.equal(latest.status, 400);
    assert.match(latest.message, /latest version/);
    assert.equal((await failure(c.deleteVersion(r.id, '9'))).status, 404);
  });

  it('keeps the id, ref and version of a rule a deploy names by id and leaves unchanged', async () => {
    const c = client();
    const r = await custom(c, [{ ...BLOCK_TCP, ref: 'my-ref' }, BLOCK_UDP]);
    const [tcp, udp] = r.rules;
    assert.equal(tcp.ref, 'my-ref');
    const next = await c.updateRuleset(r.id, { rules: [{ ...BLOCK_UDP, id: udp.id }, { ...BLOCK_TCP, id: tcp.id, description: 'changed' }, SKIP_SSH] });
    assert.equal(next.version, '2');
    assert.deepEqual(
      next.rules.map((x) => [x.id === udp.id, x.id === tcp.id, x.version]),
      [
        [true, false, '1'],
        [false, true, '2'],
        [false, false, '2'],
      ],
    );
    assert.equal(next.rules[0].last_updated, udp.last_updated, 'an unchanged rule keeps its time');
    assert.equal(next.rules[1].ref, 'my-ref');
    const unknown = await failure(c.updateRuleset(r.id, { rules: [{ ...BLOCK_TCP, id: 'f'.repeat(32) }] }));
    assert.equal(unknown.status, 400);
    assert.equal(unknown.errors[0].pointer, '/rules/0/id');
  });
});

// ------------------------------------------------------------------ positions

describe('positions', () => {
  const rule = (d: string): RuleInput => ({ action: 'block', expression: `tcp.dstport == ${d.charCodeAt(0)}`, description: d });

  async function abc(c: RulesetsClient): Promise<Ruleset> {
    return custom(c, [rule('a'), rule('b'), rule('c')]);
  }

  it('adds a rule first, last, before or after a rule, or at an index', async () => {
    const c = client();
    const r = await abc(c);
    const [a, b] = r.rules;
    assert.deepEqual(descriptions(await c.addRule(r.id, rule('x'))), ['a', 'b', 'c', 'x'], 'last by default');
    const s = await abc(c);
    assert.deepEqual(descriptions(await c.addRule(s.id, rule('x'), { position: { before: '' } })), ['x', 'a', 'b', 'c']);
    assert.deepEqual(descriptions(await c.addRule(s.id, rule('y'), { position: { after: '' } })), ['x', 'a', 'b', 'c', 'y']);
    assert.deepEqual(descriptions(await c.addRule(r.id, rule('z'), { position: { before: b.id } })), ['a', 'z', 'b', 'c', 'x']);
    assert.deepEqual(descriptions(await c.addRule(r.id, rule('w'), { position: { after: a.id } })), ['a', 'w', 'z', 'b', 'c', 'x']);
    assert.deepEqual(descriptions(await c.addRule(r.id, rule('v'), { position: { index: 1 } })), ['v', 'a', 'w', 'z', 'b', 'c', 'x']);
    assert.deepEqual(descriptions(await c.addRule(r.id, rule('u'), { position: { index: 8 } })), ['v', 'a', 'w', 'z', 'b', 'c', 'x', 'u']);
  });

  it('refuses an index out of range, an unknown rule id and a position of two kinds', async () => {
    const c = client();
    const r = await abc(c);
    const before = snapshot();
    for (const [position, pointer] of [
      [{ index: 5 }, '/position/index'],
      [{ index: 0 }, '/position/index'],
      [{ index: 1.5 }, '/position/index'],
      [{ before: 'f'.repeat(32) }, '/position/before'],
      [{ after: 'nope' }, '/position/after'],
      [{ before: '', after: '' }, '/position'],
    ] as const) {
      const error = await failure(c.addRule(r.id, rule('x'), { position: position as never }));
      assert.equal(error.status, 400, JSON.stringify(position));
      assert.equal(error.errors[0].pointer, pointer, JSON.stringify(position));
    }
    const moved = await failure(c.updateRule(r.id, r.rules[0].id, ruleDefinition(r.rules[0]), { position: { index: 4 } }));
    assert.equal(moved.status, 400, 'moving: 1 to the number of rules');
    assert.equal(moved.errors[0].pointer, '/position/index');
    assert.equal(snapshot(), before, 'a refused request changes nothing');
  });

  it('moves a rule to an index, before or after another, first or last', async () => {
    const c = client();
    const r = await abc(c);
    const [a, b, cRule] = r.rules;
    // A move sends the rule whole, as it is live: the service replaces it with the body.
    const live = async (id: string) => ruleDefinition((await c.getRuleset(r.id)).rules.find((x) => x.id === id)!);
    assert.deepEqual(descriptions(await c.updateRule(r.id, a.id, await live(a.id), { position: { index: 3 } })), ['b', 'c', 'a']);
    assert.deepEqual(descriptions(await c.updateRule(r.id, a.id, await live(a.id), { position: { before: b.id } })), ['a', 'b', 'c']);
    assert.deepEqual(descriptions(await c.updateRule(r.id, cRule.id, await live(cRule.id), { position: { before: '' } })), ['c', 'a', 'b']);
    assert.deepEqual(descriptions(await c.updateRule(r.id, cRule.id, await live(cRule.id), { position: { after: '' } })), ['a', 'b', 'c']);
    assert.deepEqual(descriptions(await c.updateRule(r.id, a.id, { ...(await live(a.id)), description: 'A' }, { position: { after: b.id } })), ['b', 'A', 'c']);
    assert.deepEqual(descriptions(await c.updateRule(r.id, a.id, await live(a.id), { position: { after: a.id } })), ['b', 'A', 'c'], 'after itself: where it is');
  });
});

// ------------------------------------------------------------------ dry runs

describe('dry_run', () => {
  it('checks every write and stores nothing', async () => {
    const c = client();
    const r = await custom(c, [BLOCK_TCP, BLOCK_UDP]);
    const before = snapshot();
    const lines: string[] = [];
    const d = client({ log: (line) => lines.push(line) });

    // A dry run answers nothing but success (`"result": null`, or 204): never a ruleset.
    const none = { messages: [] };
    assert.deepEqual(await d.dryRun.createRuleset({ name: 'dry', kind: 'custom', phase: 'magic_transit', rules: [BLOCK_TCP] }), none);
    assert.deepEqual(await d.dryRun.updateRuleset(r.id, { rules: [SKIP_SSH] }), none);
    assert.deepEqual(await d.dryRun.updateRuleset({ phase: 'magic_transit' }, { rules: [SKIP_SSH] }), none);
    assert.deepEqual(await d.dryRun.addRule(r.id, SKIP_SSH, { position: { index: 1 } }), none);
    assert.deepEqual(await d.dryRun.updateRule(r.id, r.rules[0].id, { ...ruleDefinition(r.rules[0]), enabled: false }), none);
    assert.deepEqual(await d.dryRun.deleteRule(r.id, r.rules[0].id), none);
    await c.updateRuleset(r.id, { rules: [BLOCK_TCP] });
    const afterUpdate = snapshot();
    assert.deepEqual(await d.dryRun.deleteVersion(r.id, '1'), none);
    assert.deepEqual(await d.dryRun.deleteRuleset(r.id), none);
    assert.equal(snapshot(), afterUpdate, 'dry-run deletes store nothing');
    assert.notEqual(before, afterUpdate);
    assert.ok(!(await c.listRulesets()).some((x) => x.name === 'dry'));
    assert.deepEqual(emulator.state.versions(r.id), ['1', '2']);

    const invalid = await failure(d.dryRun.updateRuleset(r.id, { rules: [{ action: 'block', expression: 'tcp.dstprt == 22' }] }));
    assert.equal(invalid.status, 400);
    assert.equal(invalid.errors[0].pointer, '/rules/0/expression');
    assert.ok(lines.every((line) => !/→/.test(line) || line.includes('?dry_run=true')), 'every dry-run request says so');
  });
});

// ------------------------------------------------------------------ errors

describe('errors', () => {
  it('answers an invalid expression with 400, its pointer and one readable message', async () => {
    const c = client();
    const r = await custom(c);
    const error = await failure(c.updateRuleset(r.id, { rules: [BLOCK_TCP, { action: 'block', expression: 'ip.proto == "tcp" and tcp.dstprt == 22' }] }));
    assert.equal(error.kind, 'api');
    assert.equal(error.status, 400);
    assert.deepEqual(
      error.errors.map((e) => e.pointer),
      ['/rules/1/expression'],
    );
    assert.equal(
      error.message,
      `400 Bad Request from PUT /accounts/${'a1'.repeat(16)}/rulesets/${r.id}: rules/1/expression: Filter parsing error (1:23): unknown field \`tcp.dstprt\` in phase \`magic_transit\`; did you mean \`tcp.dstport\` or \`udp.dstport\`?`,
    );
    assert.equal(error.request, `PUT /accounts/${'a1'.repeat(16)}/rulesets/${r.id}`);
  });

  it('points at the key of a shape mistake, in a ruleset and in a single rule', async () => {
    const c = client();
    const r = await custom(c);
    const shape = await failure(c.updateRuleset(r.id, { rules: [{ action: 'block', expression: 'true', enabled: 'yes' as never }, { action: 'block' } as never] }));
    assert.deepEqual(
      shape.errors.map((e) => e.pointer),
      ['/rules/0/enabled', '/rules/1'],
    );
    const rule = await failure(c.addRule(r.id, { action: 'block', expression: 'ip.src == 10.0.0.0/8' }));
    assert.deepEqual(
      rule.errors.map((e) => [e.pointer, e.message.slice(0, 26)]),
      [['/expression', 'Filter parsing error (1:11']],
    );
    const logging = await failure(c.updateRule(r.id, r.rules[0].id, { ...ruleDefinition(r.rules[0]), logging: { enabled: true } }));
    assert.equal(logging.errors[0].pointer, '/logging');
  });

  it('answers missing credentials with 401 and wrong ones with 403', async () => {
    const anonymous = client({
      fetch: (url, init) => {
        const headers = { ...(init?.headers as Record<string, string>) };
        delete headers.authorization;
        return fetch(url, { ...init, headers });
      },
    });
    const missing = await failure(anonymous.listRulesets());
    assert.equal(missing.status, 401);
    assert.match(missing.message, /^401 Unauthorized from GET \/accounts\/\w+\/rulesets: missing credentials/);
    const wrongToken = await failure(client({ credentials: { token: 'tok-wrong' } }).listRulesets());
    assert.equal(wrongToken.status, 403);
    assert.equal(wrongToken.attempts, 1, 'a 403 is not retried');
    const wrongKey = await failure(client({ credentials: { email: SECRETS.email, key: 'key-wrong' } }).listRulesets());
    assert.equal(wrongKey.status, 403);
    const wrongEmail = await failure(client({ credentials: { email: 'someone@example.com', key: SECRETS.key } }).listRulesets());
    assert.equal(wrongEmail.status, 403);
  });

  it('answers unknown rulesets, versions and rules with 404', async () => {
    const c = client();
    const r = await custom(c);
    const unknown = 'f'.repeat(32);
    for (const call of [
      () => c.getRuleset(unknown),
      () => c.listVersions(unknown),
      () => c.getVersion(r.id, '7'),
      () => c.rulesByTag(r.id, '7', 'x'),
      () => c.updateRule(r.id, unknown, { ...BLOCK_TCP, enabled: false }),
      () => c.deleteRule(r.id, unknown),
      () => c.deleteRuleset(unknown),
      () => c.getEntryPoint('http_request_firewall_custom'),
      () => c.getVersion({ phase: 'ddos_l4' }, '1'),
    ]) {
      const error = await failure(call());
      assert.equal(error.status, 404, error.message);
      assert.equal(error.attempts, 1, 'a 404 is not retried');
    }
  });
});

// ------------------------------------------------------------------ faults and retries

describe('retries and faults', () => {
  it('retries a 429 after the Retry-After seconds it asks for', async () => {
    const c = client();
    emulator.faults.push({ method: 'GET', respond: { status: 429, headers: { 'retry-after': '2' } } });
    emulator.faults.push({ method: 'GET', respond: { status: 429, headers: { 'retry-after': '1' } } });
    await c.listRulesets();
    assert.deepEqual(c.waits, [2000, 1000]);
  });

  it('reads Retry-After as an HTTP date', async () => {
    const c = client();
    emulator.faults.push({ method: 'GET', respond: { status: 429, headers: { 'retry-after': new Date(Date.now() + 3000).toUTCString() } } });
    await c.listRulesets();
    assert.equal(c.waits.length, 1);
    assert.ok(c.waits[0] > 1000 && c.waits[0] <= 3000, `waited ${c.waits[0]} ms`);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:30 GMT')), 30_000);
    assert.equal(parseRetryAfter('soon'), undefined);
  });

  it('gives up at once when Retry-After asks for longer than it waits', async () => {
    const c = client();
    emulator.faults.push({ method: 'GET', respond: { status: 429, headers: { 'retry-after': '600' } } });
    const error = await failure(c.listRulesets());
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 600_000);
    assert.deepEqual(c.waits, []);
    assert.match(error.message, /^429 Too Many Requests from GET .*wait 600 s before trying again/);
  });

  it('retries a 500 with exponential backoff for GET, and gives up after the retries', async () => {
    const c = client();
    emulator.faults.push({ method: 'GET', respond: { status: 500 } }, { method: 'GET', respond: { status: 503 } });
    await c.listRulesets();
    assert.deepEqual(c.waits, [375, 750], 'random 0.5: 75 % of 500 ms, then of 1 s');
    const d = client({ retries: 2 });
    const requests = emulator.requests.length;
    for (let i = 0; i < 3; i++) emulator.faults.push({ method: 'GET', respond: { status: 502 } });
    const error = await failure(d.listRulesets());
    assert.equal(emulator.requests.length - requests, 3);
    assert.equal(error.attempts, 3);
    assert.match(error.message, /^502 Bad Gateway from GET .*\(gave up after 3 attempts\)$/);
  });

  it('retries a 500 for a dry run, which stores nothing', async () => {
    const c = client();
    const r = await custom(c);
    emulator.faults.push({ method: 'PUT', respond: { status: 500 } });
    assert.deepEqual(await c.dryRun.updateRuleset(r.id, { rules: [SKIP_SSH] }), { messages: [] });
    assert.equal(c.waits.length, 1);
    assert.deepEqual(emulator.state.versions(r.id), ['1']);
  });

  it('never retries a real write that failed with 500: the remote state is what it was, or what was asked', async () => {
    const c = client();
    const r = await custom(c);
    const requests = emulator.requests.length;

    emulator.faults.push({ method: 'PUT', respond: { status: 500 } });
    const refused = await failure(c.updateRuleset(r.id, { rules: [SKIP_SSH] }));
    assert.equal(refused.status, 500);
    assert.equal(refused.attempts, 1);
    assert.deepEqual(emulator.state.versions(r.id), ['1'], 'refused before it ran: unchanged');
    assert.deepEqual(emulator.state.latest(r.id)!.rules.map((x) => x.description), ['block tcp']);

    emulator.faults.push({ method: 'PUT', respond: { status: 500 }, after: true });
    const ranThenFailed = await failure(c.updateRuleset(r.id, { rules: [SKIP_SSH] }));
    assert.equal(ranThenFailed.attempts, 1);
    assert.deepEqual(emulator.state.versions(r.id), ['1', '2'], 'ran once, not twice');
    assert.deepEqual(emulator.state.latest(r.id)!.rules.map((x) => x.description), ['ssh'], 'exactly what was asked');

    for (const call of [() => c.addRule(r.id, BLOCK_UDP), () => c.deleteRule(r.id, emulator.state.latest(r.id)!.rules[0].id), () => c.deleteVersion(r.id, 1)]) {
      emulator.faults.push({ respond: { status: 503 } });
      assert.equal((await failure(call())).attempts, 1);
    }
    assert.equal(emulator.requests.length - requests, 5);
    assert.deepEqual(c.waits, []);
  });

  it('retries a real write refused with 429, which the service did not act on, after the wait it asks for', async () => {
    const c = client();
    const r = await custom(c);
    emulator.faults.push({ method: 'PUT', respond: { status: 429, headers: { 'retry-after': '3' } } });
    const deployed = await c.updateRuleset(r.id, { rules: [SKIP_SSH] });
    assert.equal(deployed.version, '2');
    assert.deepEqual(c.waits, [3000]);
    assert.deepEqual(emulator.state.versions(r.id), ['1', '2'], 'written once');
  });

  it('times out a hanging response with a clear message', async () => {
    const c = client({ timeoutMs: 150, retries: 0 });
    emulator.faults.push({ method: 'GET', respond: 'hang' });
    const started = Date.now();
    const error = await failure(c.listRulesets());
    assert.ok(Date.now() - started < 2000);
    assert.equal(error.kind, 'timeout');
    assert.equal(error.message, `GET /accounts/${'a1'.repeat(16)}/rulesets: no response from 127.0.0.1:${emulator.port} within 150 ms`);
  });

  it('retries a GET that hung, but not a real write', async () => {
    const c = client({ timeoutMs: 150 });
    emulator.faults.push({ method: 'GET', respond: 'hang' });
    assert.ok(Array.isArray(await c.listRulesets()));
    assert.equal(c.waits.length, 1);
    const r = await custom(c);
    emulator.faults.push({ method: 'PUT', respond: 'hang' });
    const error = await failure(c.updateRuleset(r.id, { rules: [] }));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.attempts, 1);
  });

  it('retries a dropped connection for GET, not for a real write', async () => {
    const c = client();
    emulator.faults.push({ method: 'GET', respond: 'drop' });
    assert.ok(Array.isArray(await c.listRulesets()));
    assert.equal(c.waits.length, 1);
    const r = await custom(c);
    emulator.faults.push({ method: 'PATCH', respond: 'drop' });
    const error = await failure(c.updateRule(r.id, r.rules[0].id, { ...ruleDefinition(r.rules[0]), enabled: false }));
    assert.equal(error.kind, 'network');
    assert.equal(error.attempts, 1);
    assert.match(error.message, new RegExp(`^PATCH /accounts/\\w+/rulesets/\\w+/rules/\\w+: could not complete the request to 127\\.0\\.0\\.1:${emulator.port}: `));
    assert.deepEqual(emulator.state.versions(r.id), ['1']);
  });

  it('says so when the answer is not JSON (a proxy page), with the status and the start of the body', async () => {
    const c = client({ retries: 0 });
    emulator.faults.push({ method: 'GET', respond: 'html' });
    const html = await failure(c.listRulesets());
    assert.equal(html.kind, 'invalid-response');
    assert.equal(html.status, 502);
    assert.match(html.message, /^502 Bad Gateway from GET \/accounts\/\w+\/rulesets: the response is not JSON \(text\/html\), so it did not come from the API \(a proxy or gateway\?\): <html> <head><title>502 Bad Gateway<\/title>/);
    emulator.faults.push({ method: 'GET', respond: { status: 200, body: `${'x'.repeat(500)}` } });
    const long = await failure(c.listRulesets());
    assert.ok(long.message.endsWith(`${'x'.repeat(200)}…`), 'cut to 200 characters');
    emulator.faults.push({ method: 'GET', respond: { status: 200, body: { hello: 'world' } } });
    assert.match((await failure(c.listRulesets())).message, /JSON but not the API's envelope/);
    emulator.faults.push({ method: 'GET', respond: { status: 200, body: { success: false, errors: [{ code: 1, message: 'nope' }] } } });
    assert.match((await failure(c.listRulesets())).message, /^200 OK from GET \S+: nope$/);
  });

  it('does not follow a redirect, which would carry the credentials elsewhere', async () => {
    const c = client();
    emulator.faults.push({ method: 'GET', respond: { status: 302, headers: { location: 'https://elsewhere.example/' }, body: 'moved' } });
    const error = await failure(c.listRulesets());
    assert.match(error.message, /the service answered with a redirect, which is not followed/);
    assert.equal(error.attempts, 1);
    emulator.faults.push({ method: 'GET', respond: { status: 204 } });
    assert.match((await failure(c.listRulesets())).message, /^204 No Content from GET \S+: the response has no body/);
  });

  it('never puts a credential in a message, even when the answer echoes it', async () => {
    const c = client({ retries: 0 });
    emulator.faults.push({ respond: { status: 400, body: { success: false, errors: [{ message: `bad token ${SECRETS.token}` }] } } });
    const echoed = await failure(c.listRulesets());
    assert.match(echoed.message, /: bad token \[redacted\]$/);
    assert.equal(echoed.errors[0].message, 'bad token [redacted]');
    const k = client({ retries: 0, credentials: EMAIL_KEY });
    emulator.faults.push({ respond: { status: 400, body: { success: false, errors: [{ message: `unknown ${encodeURIComponent(SECRETS.email)} / ${SECRETS.key}` }] } } });
    assert.match((await failure(k.listRulesets())).message, /: unknown \[redacted\] \/ \[redacted\]$/);
    emulator.faults.push({ respond: { status: 502, headers: { 'content-type': 'text/html' }, body: `<p>key=${SECRETS.key} for ${SECRETS.email}</p>` } });
    assert.match((await failure(k.listRulesets())).message, /<p>key=\[redacted\] for \[redacted\]<\/p>/);
  });

  it('reports a refused connection naming the host, and retries it even for a write, which cannot have arrived', async () => {
    const port = await freePort();
    const c = makeClient(`http://127.0.0.1:${port}/client/v4`, { retries: 2 });
    const get = await failure(c.listRulesets());
    assert.equal(get.kind, 'network');
    assert.equal(get.message, `GET /accounts/${'a1'.repeat(16)}/rulesets: could not reach 127.0.0.1:${port}: connection refused (ECONNREFUSED) (gave up after 3 attempts)`);
    const put = await failure(c.updateRuleset('abc', { rules: [] }));
    assert.equal(put.attempts, 3);
    assert.equal(c.waits.length, 4);
  });

  it('reports a host name that does not resolve', async () => {
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND api.example.test'), { code: 'ENOTFOUND' });
    const c = makeClient('https://api.example.test/client/v4', { retries: 1, fetch: async () => Promise.reject(new TypeError('fetch failed', { cause: dns })) });
    const error = await failure(c.createRuleset({ name: 'n', kind: 'custom', phase: 'magic_transit', rules: [] }));
    assert.equal(error.message, `POST /accounts/${'a1'.repeat(16)}/rulesets: could not reach api.example.test: host name not found (DNS) (ENOTFOUND) (gave up after 2 attempts)`);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// ------------------------------------------------------------------ cancellation

describe('cancellation', () => {
  it('stops a request in flight', async () => {
    const c = client({ timeoutMs: 10_000 });
    emulator.faults.push({ method: 'GET', respond: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await failure(c.listRulesets({ signal: controller.signal }));
    assert.equal(error.kind, 'cancelled');
    assert.ok(Date.now() - started < 2000);
    assert.match(error.message, /^GET \/accounts\/\w+\/rulesets: cancelled$/);
    assert.deepEqual(c.waits, [], 'and does not retry');
  });

  it('stops the wait before a retry, and sends nothing when already cancelled', async () => {
    const controller = new AbortController();
    const c = makeClient(emulator.baseUrl, {
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('aborted')));
          controller.abort();
        }),
    });
    emulator.faults.push({ method: 'GET', respond: { status: 500 } });
    const requests = emulator.requests.length;
    assert.equal((await failure(c.listRulesets({ signal: controller.signal }))).kind, 'cancelled');
    assert.equal(emulator.requests.length - requests, 1, 'no retry after the cancel');
    assert.equal((await failure(c.getRuleset('abc', { signal: controller.signal }))).kind, 'cancelled');
    assert.equal(emulator.requests.length - requests, 1, 'nothing sent');
  });

  it('works with the default sleep too', async () => {
    const controller = new AbortController();
    const c = new RulesetsClient({ baseUrl: emulator.baseUrl, credentials: TOKEN, scope: ACCOUNT });
    emulator.faults.push({ method: 'GET', respond: { status: 429, headers: { 'retry-after': '30' } } });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    assert.equal((await failure(c.listRulesets({ signal: controller.signal }))).kind, 'cancelled');
    assert.ok(Date.now() - started < 2000);
  });
});

// ------------------------------------------------------------------ configuration

describe('configuration', () => {
  function construct(baseUrl: string, credentials: Credentials = TOKEN): RulesetsClient {
    return new RulesetsClient({ baseUrl, credentials, scope: ACCOUNT });
  }

  it('refuses http: to another machine, and accepts it for this one', () => {
    for (const url of ['http://api.example.com/client/v4', 'http://10.0.0.1/client/v4', 'http://localhost.example.com/']) {
      const error = record(catchError(() => construct(url)));
      assert.equal(error.kind, 'config');
      assert.match(error.message, /^refusing to send credentials over plain http:\/\/ to .+: use https:\/\//);
    }
    for (const url of ['http://localhost:8787/client/v4', 'http://127.0.0.1/client/v4', 'http://127.9.8.7:1/', 'http://[::1]:8787/client/v4', 'https://api.example.com/client/v4']) {
      assert.ok(construct(url), url);
    }
    assert.match(record(catchError(() => construct('ftp://example.com/'))).message, /must start with https:\/\//);
    assert.match(record(catchError(() => construct('not a url'))).message, /is not a URL/);
    assert.match(record(catchError(() => construct(`https://user:${SECRETS.key}@example.com/`))).message, /must not hold a user name or password/);
  });

  it('refuses credentials a header cannot carry, without quoting them', () => {
    const error = record(catchError(() => construct('https://example.com/', { token: `${SECRETS.token}\n` })));
    assert.equal(error.message, 'the API token is empty or has characters a header cannot carry (spaces, line breaks, non-ASCII)');
    record(catchError(() => construct('https://example.com/', { email: SECRETS.email, key: '' })));
  });

  it('refuses an empty id instead of calling another operation', async () => {
    const c = client();
    assert.equal((await failure(c.getRuleset(''))).kind, 'config');
    assert.equal((await failure(c.deleteRule('abc', ''))).kind, 'config');
  });
});

function catchError(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  assert.fail('expected an error');
}

describe('redact', () => {
  it('replaces secrets, also URL-encoded and JSON-escaped', () => {
    assert.equal(redact('a tok-1 b tok-1', ['tok-1']), 'a [redacted] b [redacted]');
    assert.equal(redact('mail: a%40b.c and a@b.c', ['a@b.c']), 'mail: [redacted] and [redacted]');
    assert.equal(redact('{"k":"x\\"y"}', ['x"y']), '{"k":"[redacted]"}');
    assert.equal(redact('nothing here', ['', undefined]), 'nothing here');
  });

  it('replaces a secret only where it stands whole, not inside other words', () => {
    assert.equal(redact('expected a ruleset, found x: the box is empty', ['x']), 'expected a ruleset, found [redacted]: the box is empty');
    assert.equal(redact('Bearer x', ['x']), 'Bearer [redacted]');
    assert.equal(redact('key=abc123&next', ['abc123']), 'key=[redacted]&next');
    assert.equal(redact('"abc123"', ['abc123']), '"[redacted]"');
    assert.equal(redact('xabc123 abc1234', ['abc123']), 'xabc123 abc1234', 'a longer word is another word');
  });

  it('keeps the messages of a client with a one-letter token readable', async () => {
    const c = client({ credentials: { token: 'x' } });
    const error = await failure(c.listRulesets());
    assert.equal(error.status, 403);
    assert.match(error.message, /^403 Forbidden from GET \/accounts\/\w+\/rulesets: Authentication error: invalid API token$/);
  });
});

// ------------------------------------------------------------------ how the real service answers

/** A service that answers each request with the next of `answers` (status, body, headers). */
function scripted(answers: { status: number; body?: unknown; headers?: Record<string, string> }[], seen: string[] = []): typeof fetch {
  return async (url, init) => {
    seen.push(`${init?.method ?? 'GET'} ${String(url)}`);
    const next = answers.shift();
    assert.ok(next, `no answer scripted for ${String(url)}`);
    const text = next.body === undefined ? null : typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
    return new Response(text, { status: next.status, headers: { 'content-type': 'application/json', ...next.headers } });
  };
}

function envelope(result: unknown, extra: object = {}): object {
  return { result, success: true, errors: [], messages: [], ...extra };
}

const SOMEWHERE = 'https://api.example.test/client/v4';

describe('the service as it answers', () => {
  it('takes any success answer of a dry run: result null, no body, or 204', async () => {
    for (const answer of [{ status: 200, body: envelope(null) }, { status: 200, body: '' }, { status: 204 }, { status: 200, body: envelope({ unexpected: true }) }]) {
      const c = client({ fetch: scripted([answer]) });
      assert.deepEqual(await c.dryRun.updateRuleset('abc', { rules: [] }), { messages: [] }, JSON.stringify(answer));
    }
  });

  it('lists every page of rulesets, following result_info.cursor', async () => {
    const at = client({ scope: { kind: 'account', id: 'paged' } });
    const made = new Set<string>();
    for (let i = 0; i < 5; i++) made.add((await custom(at, [BLOCK_TCP], `paged ${i}`)).id);
    const requests = emulator.requests.length;
    const listed = await at.listRulesets();
    assert.deepEqual(new Set(listed.filter((r) => r.kind === 'custom').map((r) => r.id)), made);
    const gets = emulator.requests.slice(requests).map((r) => r.path);
    assert.ok(gets.length >= 3, `pages of two: ${gets.join(', ')}`);
    assert.equal(gets[0], '/accounts/paged/rulesets');
    assert.ok(gets.slice(1).every((path) => /^\/accounts\/paged\/rulesets\?cursor=/.test(path)));
  });

  it('stops with a clear error when the service answers the same cursor again', async () => {
    const page = (cursor: string) => ({ status: 200, body: envelope([{ id: cursor, version: '1' }], { result_info: { count: 1, per_page: 1, cursor } }) });
    const seen: string[] = [];
    const c = client({ baseUrl: SOMEWHERE, fetch: scripted([page('a'), page('b'), page('a')], seen) } as never);
    const error = await failure(c.listRulesets());
    assert.equal(error.kind, 'invalid-response');
    assert.match(error.message, /the service answered page 3 with a cursor it had already given \(a\); stopped rather than go round in circles/);
    assert.deepEqual(seen.map((line) => line.replace(/^GET https:\/\/api\.example\.test\/client\/v4\/accounts\/\w+/, '')), ['/rulesets', '/rulesets?cursor=a', '/rulesets?cursor=b']);
  });

  it('reads a version sent as a number as the string it stands for', async () => {
    const ruleset = { id: 'r', name: 'n', description: '', kind: 'custom', phase: 'magic_transit', version: 5, last_updated: '', rules: [{ id: 'x', version: 4, action: 'block', expression: 'true' }] };
    const c = client({ fetch: scripted([{ status: 200, body: envelope(ruleset) }, { status: 200, body: envelope([{ ...ruleset, rules: undefined }]) }, { status: 200, body: envelope([{ ...ruleset, rules: undefined, version: 7 }]) }]) });
    const read = await c.getRuleset('r');
    assert.equal(read.version, '5');
    assert.equal(read.rules[0].version, '4');
    assert.equal((await c.listVersions('r'))[0].version, '5');
    assert.equal((await c.listRulesets())[0].version, '7');
  });

  it("hands the service's warnings of every successful answer, dry runs too, to onMessages", async () => {
    const r = await custom(client());
    const heard: [string, string][] = [];
    const c = client({ onMessages: (messages, request) => heard.push(...messages.map((m) => [m.message, request] as [string, string])) });
    emulator.notices.push({ method: 'PUT', path: /dry_run=true/, message: { code: 1, message: 'checked with a warning' } });
    assert.deepEqual(await c.dryRun.updateRuleset(r.id, { rules: [BLOCK_UDP] }), { messages: [{ code: 1, message: 'checked with a warning' }] });
    emulator.notices.push({ method: 'PUT', message: { message: 'deployed with a warning' } });
    await c.updateRuleset(r.id, { rules: [BLOCK_UDP] });
    assert.deepEqual(heard, [
      ['checked with a warning', `PUT /accounts/${'a1'.repeat(16)}/rulesets/${r.id}?dry_run=true`],
      ['deployed with a warning', `PUT /accounts/${'a1'.repeat(16)}/rulesets/${r.id}`],
    ]);
  });

  it('says what a 404 means when the base URL lacks /client/v4', async () => {
    const c = client({ baseUrl: emulator.baseUrl.replace(/\/client\/v4$/, ''), retries: 0 });
    const error = await failure(c.listRulesets());
    assert.equal(error.status, 404);
    assert.match(error.message, new RegExp(`the base URL http://127\\.0\\.0\\.1:${emulator.port}/ does not end in /client/v4, which the API's paths start with: try http://127\\.0\\.0\\.1:${emulator.port}/client/v4$`));
    const right = await failure(client().getRuleset('f'.repeat(32)));
    assert.doesNotMatch(right.message, /client\/v4/, 'no hint where the base URL is right');
  });

  it('tells onWait what it waits for: a slow answer, a retry, a wait the service asked for', async () => {
    const lines: string[] = [];
    const c = client({ onWait: (line) => lines.push(line), slowAnswerMs: 20, timeoutMs: 150 });
    emulator.faults.push({ method: 'GET', respond: 'hang' });
    emulator.faults.push({ method: 'GET', respond: { status: 503 } });
    emulator.faults.push({ method: 'GET', respond: { status: 429, headers: { 'retry-after': '20' } } });
    await c.listRulesets();
    const request = `GET /accounts/${'a1'.repeat(16)}/rulesets`;
    assert.deepEqual(lines, [
      `waiting for 127.0.0.1:${emulator.port} to answer ${request} (gives up after 150 ms)`,
      `no answer within 150 ms: retrying 2/4 in 375 ms: ${request}`,
      `503 Service Unavailable: retrying 3/4 in 750 ms: ${request}`,
      `429 Too Many Requests: waiting 20 s as the service asked, then trying again (4/4): ${request}`,
    ]);
  });
});

// ------------------------------------------------------------------ last: the collected output

describe('credentials', () => {
  it('appear in no log line and no error message of any test above', () => {
    assertNoSecrets();
  });
});
