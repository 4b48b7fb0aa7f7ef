/**
 * The emulator as an estate: many accounts and zones, zones known by name (List Zones), the
 * versions of each kept apart, and a fault at any request, before or after its write, so that
 * a plan and an apply can be tested end to end.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFaultOption } from '../../server/src/api/emulator-command';
import { ADMIN_PREFIX, EMULATOR_ACCOUNT_ID, startEmulator, type Emulator } from '../../server/src/api/emulator';
import { failure, makeClient, SECRETS, startTestEmulator } from './harness';

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const ZONE_A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const ZONE_B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const OTHER_ACCOUNT = 'cccccccccccccccccccccccccccccccc';
const RULES = [{ action: 'block', expression: 'ip.src eq 192.0.2.1' }];
const PHASE = 'http_request_firewall_custom';

async function getJson(emulator: Emulator, path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const url = path.startsWith(ADMIN_PREFIX) ? emulator.baseUrl.replace('/client/v4', path) : `${emulator.baseUrl}${path}`;
  const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${SECRETS.token}`, 'content-type': 'application/json', ...init.headers } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('zones with names: List Zones', () => {
  it('answers GET /zones?name= with the zone of that name, its id and account, in any case', async () => {
    const emulator = await startTestEmulator();
    try {
      emulator.state.addZone({ name: 'example.com', id: ZONE_A });
      emulator.state.addZone({ name: 'example.net', id: ZONE_B, account: OTHER_ACCOUNT });
      const { status, body } = await getJson(emulator, '/zones?name=Example.COM');
      assert.equal(status, 200);
      assert.equal(body.success, true);
      assert.deepEqual(
        body.result.map((z: any) => ({ id: z.id, name: z.name, account: z.account.id })),
        [{ id: ZONE_A, name: 'example.com', account: EMULATOR_ACCOUNT_ID }],
      );
      assert.deepEqual((await getJson(emulator, '/zones?name=nowhere.example')).body.result, []);
      const inAccount = await getJson(emulator, `/zones?account.id=${OTHER_ACCOUNT}`);
      assert.deepEqual(inAccount.body.result.map((z: any) => z.name), ['example.net']);
      assert.equal(inAccount.body.result_info.total_count, 1);
    } finally {
      await emulator.close();
    }
  });

  it('pages the list by page and per_page, and refuses a per_page the API refuses', async () => {
    const emulator = await startTestEmulator();
    try {
      for (let i = 0; i < 12; i++) emulator.state.addZone({ name: `zone${i}.example` });
      const second = await getJson(emulator, '/zones?per_page=5&page=2');
      assert.deepEqual(second.body.result.map((z: any) => z.name), ['zone5.example', 'zone6.example', 'zone7.example', 'zone8.example', 'zone9.example']);
      assert.deepEqual(second.body.result_info, { page: 2, per_page: 5, count: 5, total_count: 12, total_pages: 3 });
      assert.equal((await getJson(emulator, '/zones?per_page=500')).status, 400);
    } finally {
      await emulator.close();
    }
  });

  it('asks for credentials as every other operation does', async () => {
    const emulator = await startTestEmulator();
    try {
      const response = await fetch(`${emulator.baseUrl}/zones?name=example.com`);
      assert.equal(response.status, 401);
      const wrong = await fetch(`${emulator.baseUrl}/zones`, { headers: { authorization: 'Bearer nope' } });
      assert.equal(wrong.status, 403);
    } finally {
      await emulator.close();
    }
  });

  it('takes zones from the data file (an id made for one written without) and keeps them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-estate-'));
    temps.push(dir);
    const dataFile = join(dir, 'state.json');
    writeFileSync(dataFile, JSON.stringify({ format: 1, rulesets: [], zones: [{ name: 'example.com', id: ZONE_A }, { name: 'example.org', account: OTHER_ACCOUNT }] }));
    const first = await startTestEmulator({ dataFile });
    const made = first.state.zones().find((z) => z.name === 'example.org')!;
    assert.match(made.id, /^[0-9a-f]{32}$/);
    assert.equal(made.account.id, OTHER_ACCOUNT);
    await first.close();
    const second = await startTestEmulator({ dataFile });
    assert.deepEqual(second.state.zones(), first.state.zones(), 'the same ids after a restart');
    await second.close();
    writeFileSync(dataFile, JSON.stringify({ format: 1, rulesets: [], zones: [{ name: 'not a domain' }] }));
    await assert.rejects(startEmulator({ dataFile }), /state\.json: zones\[0\]: a zone's name is a domain like "example\.com", found "not a domain"/);
  });

  it('adds zones through POST /__emulator/zones (one or a list), and refuses a bad one', async () => {
    const emulator = await startTestEmulator();
    try {
      const added = await getJson(emulator, `${ADMIN_PREFIX}/zones`, { method: 'POST', body: JSON.stringify([{ name: 'one.example', id: ZONE_A }, { name: 'two.example' }]) });
      assert.equal(added.status, 200);
      assert.deepEqual(added.body.result.map((z: any) => z.name), ['one.example', 'two.example']);
      assert.equal((await getJson(emulator, '/zones?name=two.example')).body.result.length, 1);
      const bad = await getJson(emulator, `${ADMIN_PREFIX}/zones`, { method: 'POST', body: JSON.stringify({ name: 'three.example', id: 'XYZ' }) });
      assert.equal(bad.status, 400);
      assert.match(bad.body.errors[0].message, /a zone's id is 32 lowercase hex digits, found "XYZ"/);
      const unauthenticated = await fetch(emulator.baseUrl.replace('/client/v4', `${ADMIN_PREFIX}/zones`), { method: 'POST', body: '{"name":"x.example"}' });
      assert.equal(unauthenticated.status, 401);
      assert.deepEqual(emulator.requests.map((r) => r.path), ['/zones?name=two.example'], 'the emulator\'s own requests are not recorded');
    } finally {
      await emulator.close();
    }
  });
});

describe('versions per account and zone', () => {
  it("keeps each zone's entry point and its versions apart from another zone's and the account's", async () => {
    const emulator = await startTestEmulator();
    try {
      const a = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: ZONE_A } });
      const b = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: ZONE_B } });
      await a.updateRuleset({ phase: PHASE }, { rules: RULES });
      await a.updateRuleset({ phase: PHASE }, { rules: [...RULES, { action: 'log', expression: 'ip.src eq 192.0.2.2' }] });
      await b.updateRuleset({ phase: PHASE }, { rules: RULES });
      assert.equal((await a.getEntryPoint(PHASE)).version, '2');
      assert.equal((await b.getEntryPoint(PHASE)).version, '1');
      assert.equal((await b.getEntryPoint(PHASE)).rules.length, 1);
      assert.deepEqual((await a.listVersions({ phase: PHASE })).map((v) => v.version).sort(), ['1', '2']);
      const account = makeClient(emulator.baseUrl, { scope: { kind: 'account', id: EMULATOR_ACCOUNT_ID } });
      assert.deepEqual(await account.listRulesets(), []);
    } finally {
      await emulator.close();
    }
  });
});

describe('a fault at the n-th request', () => {
  /** The entry point's version and rule count, read straight from the state. */
  function entryPoint(emulator: Emulator): { version: string; rules: number } | undefined {
    const found = emulator.state.all().find((r) => r.phase === PHASE && r.kind === 'zone');
    return found && { version: found.version, rules: found.rules.length };
  }

  it('fails the n-th request from when it is armed with 500, leaving the ruleset at its old version', async () => {
    const emulator = await startTestEmulator();
    try {
      const client = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: ZONE_A }, retries: 0 });
      await client.updateRuleset({ phase: PHASE }, { rules: RULES });
      emulator.failRequest({ failRequest: 2 });
      await client.getEntryPoint(PHASE);
      assert.equal(emulator.armedFault?.remaining, 1);
      const error = await failure(client.updateRuleset({ phase: PHASE }, { rules: [...RULES, ...RULES] }));
      assert.equal(error.status, 500);
      assert.deepEqual(entryPoint(emulator), { version: '1', rules: 1 });
      assert.equal(emulator.armedFault, undefined, 'a fault fires once');
      assert.equal((await client.updateRuleset({ phase: PHASE }, { rules: [...RULES, ...RULES] })).version, '2', 'the next try succeeds');
    } finally {
      await emulator.close();
    }
  });

  it('after: stores the write, then answers 500 — the ruleset is at its new version although the client saw a failure', async () => {
    const emulator = await startTestEmulator();
    try {
      const client = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: ZONE_A }, retries: 0 });
      await client.updateRuleset({ phase: PHASE }, { rules: RULES });
      emulator.failRequest({ failRequest: 1, after: true });
      const error = await failure(client.updateRuleset({ phase: PHASE }, { rules: [...RULES, ...RULES] }));
      assert.equal(error.status, 500);
      assert.deepEqual(entryPoint(emulator), { version: '2', rules: 2 });
    } finally {
      await emulator.close();
    }
  });

  it("drops the connection, before or after the write: the ruleset is whole at its old or its new version", async () => {
    for (const afterWrite of [false, true]) {
      const emulator = await startTestEmulator();
      try {
        const client = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: ZONE_A }, retries: 0 });
        await client.updateRuleset({ phase: PHASE }, { rules: RULES });
        emulator.failRequest({ failRequest: 1, respond: 'drop', after: afterWrite });
        const error = await failure(client.updateRuleset({ phase: PHASE }, { rules: [...RULES, ...RULES] }));
        assert.equal(error.kind, 'network');
        assert.deepEqual(entryPoint(emulator), afterWrite ? { version: '2', rules: 2 } : { version: '1', rules: 1 });
      } finally {
        await emulator.close();
      }
    }
  });

  it('counts only the requests that match its method and path', async () => {
    const emulator = await startTestEmulator({ faults: { failRequest: 2, method: 'PUT' } });
    try {
      const client = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: ZONE_A }, retries: 0 });
      await client.updateRuleset({ phase: PHASE }, { rules: RULES });
      await client.getEntryPoint(PHASE);
      await client.getEntryPoint(PHASE);
      await failure(client.updateRuleset({ phase: PHASE }, { rules: [...RULES, ...RULES] }));
      assert.deepEqual(entryPoint(emulator), { version: '1', rules: 1 });
    } finally {
      await emulator.close();
    }
  });

  it('is armed in another process through POST /__emulator/faults, and refused when malformed', async () => {
    const emulator = await startTestEmulator();
    try {
      const armed = await getJson(emulator, `${ADMIN_PREFIX}/faults`, { method: 'POST', body: JSON.stringify({ failRequest: 1, respond: 503 }) });
      assert.equal(armed.status, 200);
      assert.equal((await fetch(`${emulator.baseUrl}/zones`, { headers: { authorization: `Bearer ${SECRETS.token}` } })).status, 503);
      const bad = await getJson(emulator, `${ADMIN_PREFIX}/faults`, { method: 'POST', body: JSON.stringify({ failRequest: 0 }) });
      assert.equal(bad.status, 400);
      assert.match(bad.body.errors[0].message, /failRequest is the number of the request to fail, from 1/);
      await getJson(emulator, `${ADMIN_PREFIX}/faults`, { method: 'POST', body: JSON.stringify({ failRequest: 1 }) });
      assert.equal((await getJson(emulator, `${ADMIN_PREFIX}/faults`, { method: 'DELETE' })).status, 204);
      assert.equal(emulator.armedFault, undefined);
    } finally {
      await emulator.close();
    }
  });

  it('a fault at each request in turn, of every kind, leaves every ruleset of every zone at its old or its new version', async () => {
    const zones = [ZONE_A, ZONE_B];
    const phases = [PHASE, 'http_request_late_transform'];
    const oldRules = (zone: string, phase: string) => [{ action: phase === PHASE ? 'block' : 'rewrite', expression: `http.host eq "${zone.slice(0, 4)}.old"`, ...(phase === PHASE ? {} : { action_parameters: { headers: { 'x-old': { operation: 'set', value: '1' } } } }) }];
    const newRules = (zone: string, phase: string) => [...oldRules(zone, phase), { ...oldRules(zone, phase)[0], expression: `http.host eq "${zone.slice(0, 4)}.new"` }];
    const writes = zones.flatMap((zone) => phases.map((phase) => ({ zone, phase })));
    let landed = 0;
    for (let n = 1; n <= writes.length; n++) {
      for (const kind of [{}, { after: true }, { respond: 'drop' as const }, { respond: 'drop' as const, after: true }]) {
        const emulator = await startTestEmulator();
        try {
          const client = (zone: string) => makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: zone }, retries: 0 });
          for (const { zone, phase } of writes) await client(zone).updateRuleset({ phase }, { rules: oldRules(zone, phase) });
          emulator.failRequest({ failRequest: n, ...kind });
          for (const { zone, phase } of writes) {
            try {
              await client(zone).updateRuleset({ phase }, { rules: newRules(zone, phase) });
            } catch {
              break;
            }
          }
          for (const { zone, phase } of writes) {
            const live = await client(zone).getEntryPoint(phase);
            const whole = (live.version === '1' && live.rules.length === 1) || (live.version === '2' && live.rules.length === 2 && live.rules[1].expression.endsWith('.new"'));
            assert.ok(whole, `fault ${JSON.stringify({ n, ...kind })}: ${zone} ${phase} is at version ${live.version} with ${live.rules.length} rules`);
            if (live.version === '2') landed++;
          }
        } finally {
          await emulator.close();
        }
      }
    }
    // Before the write, the n-th write fails unstored: n-1 landed; after it, n landed.
    const expected = [...Array(writes.length).keys()].reduce((sum, i) => sum + 2 * i + 2 * (i + 1), 0);
    assert.equal(landed, expected);
  });

  it('reads --fault N[:drop][:after] and refuses anything else', () => {
    assert.deepEqual(parseFaultOption('3'), { failRequest: 3 });
    assert.deepEqual(parseFaultOption('3:drop:after'), { failRequest: 3, respond: 'drop', after: true });
    assert.deepEqual(parseFaultOption('1:503'), { failRequest: 1, respond: 503 });
    assert.throws(() => parseFaultOption('0'), /--fault expects the number of the request to fail/);
    assert.throws(() => parseFaultOption('2:later'), /--fault: unknown "later" in "2:later"/);
  });
});
