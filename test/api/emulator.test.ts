import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RulesetsClient } from '../../server/src/api/client';
import { runEmulatorCommand } from '../../server/src/api/emulator-command';
import { EMULATOR_ACCOUNT_ID, EMULATOR_EMAIL, EMULATOR_KEY, EMULATOR_TOKEN, RulesetValidator, startEmulator, type Emulator } from '../../server/src/api/emulator';
import { assertNoSecrets, failure, makeClient, SECRETS, startTestEmulator } from './harness';

const temps: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-emulator-'));
  temps.push(dir);
  return dir;
}

after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const RULES = [{ action: 'block', expression: 'ip.proto == "tcp"' }];

describe('persistence', () => {
  it('keeps rulesets, versions and the version counter across a restart', async () => {
    const dir = tempDir();
    const dataFile = join(dir, 'state.json');
    const first = await startTestEmulator({ dataFile });
    const c1 = makeClient(first.baseUrl);
    const r = await c1.createRuleset({ name: 'kept', kind: 'custom', phase: 'magic_transit', rules: RULES });
    await c1.updateRuleset(r.id, { rules: [...RULES, { action: 'block', expression: 'ip.proto == "udp"' }] });
    await c1.updateRuleset(r.id, { rules: RULES });
    await c1.deleteVersion(r.id, 3 - 1);
    await c1.dryRun.updateRuleset(r.id, { rules: RULES });
    await first.close();
    assert.deepEqual(readdirSync(dir), ['state.json'], 'no temporary file is left behind');
    assert.equal(JSON.parse(readFileSync(dataFile, 'utf8')).format, 1);

    const second = await startTestEmulator({ dataFile });
    const c2 = makeClient(second.baseUrl);
    const latest = await c2.getRuleset(r.id);
    assert.equal(latest.version, '3');
    assert.deepEqual(
      (await c2.listVersions(r.id)).map((v) => v.version),
      ['1', '3'],
    );
    assert.equal((await c2.updateRuleset(r.id, { rules: RULES })).version, '4', 'the counter survives too');
    await second.close();
  });

  it('starts empty without the file, and refuses a file that is not its data', async () => {
    const dir = tempDir();
    const fresh = await startTestEmulator({ dataFile: join(dir, 'new.json') });
    assert.deepEqual(await makeClient(fresh.baseUrl).listRulesets(), []);
    await fresh.close();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"rules": [');
    await assert.rejects(startEmulator({ dataFile: broken }), /broken\.json: cannot read the emulator's data/);
    writeFileSync(broken, '{"rules": []}');
    await assert.rejects(startEmulator({ dataFile: broken }), /broken\.json: not an emulator data file/);
  });
});

describe('HTTP', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startTestEmulator();
  });
  after(() => emulator.close());

  const auth = { authorization: `Bearer ${SECRETS.token}` };

  async function call(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
    const response = await fetch(`${emulator.baseUrl}${path}`, { method, body: init.body, headers: init.headers ?? auth });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  it('wraps every JSON answer in the envelope', async () => {
    const ok = await call('GET', '/accounts/x/rulesets');
    assert.equal(ok.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(ok.body, { result: [], success: true, errors: [], messages: [], result_info: { count: 0, per_page: 2 } });
    const missing = await call('GET', '/accounts/x/rulesets/abc');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { result: null, success: false, errors: [{ code: 10007, message: 'could not find ruleset abc' }], messages: [] });
  });

  it('answers 401 without credentials, 404 for an unknown route, 405 for a wrong method', async () => {
    const anonymous = await call('GET', '/accounts/x/rulesets', { headers: {} });
    assert.equal(anonymous.status, 401);
    assert.equal((anonymous.body as { success: boolean }).success, false);
    assert.equal((await call('GET', '/accounts/x/rulesets', { headers: { authorization: 'Basic abc' } })).status, 401);
    assert.equal((await call('GET', '/accounts/x/rulesets', { headers: { 'x-auth-email': EMULATOR_EMAIL } })).status, 401, 'an email without a key');
    assert.equal((await call('GET', '/accounts/x/firewall')).status, 404);
    assert.equal((await call('GET', '/users/x/rulesets')).status, 404);
    assert.equal((await call('GET', '/accounts/x/rulesets/abc/versions/1/by_tag')).status, 404);
    assert.equal((await call('GET', '/accounts/x/rulesets/', { headers: {} })).status, 401, 'a trailing slash is the same route');
    const wrongMethod = await call('PATCH', '/accounts/x/rulesets/abc', { body: '{}' });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'GET, PUT, DELETE');
  });

  it('answers 400 for a body that is not JSON, or not an object', async () => {
    const headers = { ...auth, 'content-type': 'application/json' };
    const broken = await call('POST', '/accounts/x/rulesets', { body: '{"name": ', headers });
    assert.equal(broken.status, 400);
    assert.match((broken.body as { errors: { message: string }[] }).errors[0].message, /^the request body is not valid JSON/);
    assert.equal((await call('POST', '/accounts/x/rulesets', { body: '', headers })).status, 400);
    assert.equal((await call('POST', '/accounts/x/rulesets', { body: '[1]', headers })).status, 400);
  });

  it('accepts its documented default credentials', async () => {
    const defaults = await startEmulator();
    for (const credentials of [{ token: EMULATOR_TOKEN }, { email: EMULATOR_EMAIL, key: EMULATOR_KEY }]) {
      const c = new RulesetsClient({ baseUrl: defaults.baseUrl, credentials, scope: { kind: 'account', id: EMULATOR_ACCOUNT_ID } });
      assert.deepEqual(await c.listRulesets(), []);
    }
    await defaults.close();
  });

  it('says where an entry point of the other level belongs: kind zone in an account, root in a zone', async () => {
    const headers = { ...auth, 'content-type': 'application/json' };
    const rules = [{ action: 'block', expression: 'http.request.uri.path eq "/admin"' }];
    const zoneInAccount = await call('PUT', '/accounts/x/rulesets/phases/http_request_firewall_custom/entrypoint', { body: JSON.stringify({ kind: 'zone', rules }), headers });
    const rootInZone = await call('PUT', '/zones/z/rulesets/phases/http_request_firewall_custom/entrypoint', { body: JSON.stringify({ kind: 'root', rules }), headers });
    for (const [answer, message] of [
      [zoneInAccount, 'the entry point of phase http_request_firewall_custom in an account is of kind `root`; kind `zone` is the entry point of a zone (/zones/{id}/rulesets/phases/http_request_firewall_custom/entrypoint)'],
      [rootInZone, 'the entry point of phase http_request_firewall_custom in a zone is of kind `zone`; kind `root` is the entry point of an account (/accounts/{id}/rulesets/phases/http_request_firewall_custom/entrypoint)'],
    ] as const) {
      assert.equal(answer.status, 400);
      assert.deepEqual((answer.body as { errors: unknown[] }).errors, [{ code: 20021, message, source: { pointer: '/kind' } }]);
    }
    assert.equal((await call('PUT', '/zones/z/rulesets/phases/http_request_firewall_custom/entrypoint', { body: JSON.stringify({ kind: 'zone', rules }), headers })).status, 200);
  });

  it('refuses a rule whose action the service does not define, as the service does: 400 at the action, and nothing stored', async () => {
    const headers = { ...auth, 'content-type': 'application/json' };
    const typo = { action: 'blokc', expression: 'http.request.uri.path eq "/admin"' };
    const put = await call('PUT', '/zones/unknown-action/rulesets/phases/http_request_firewall_custom/entrypoint', { body: JSON.stringify({ rules: [typo] }), headers });
    assert.equal(put.status, 400);
    const [error] = (put.body as { errors: { code: number; message: string; source: { pointer: string } }[] }).errors;
    assert.deepEqual([error.code, error.source], [20021, { pointer: '/rules/0/action' }]);
    assert.match(error.message, /^unknown action `blokc` \(the service refuses a rule whose action it does not define\); did you mean `block`\?$/);
    assert.equal((await call('GET', '/zones/unknown-action/rulesets/phases/http_request_firewall_custom/entrypoint')).status, 404, 'no entry point was made');
    // Added to a ruleset that exists, the pointer is the rule's own.
    const made = await call('PUT', '/zones/unknown-action/rulesets/phases/http_request_firewall_custom/entrypoint', { body: JSON.stringify({ rules: [{ ...typo, action: 'block' }] }), headers });
    assert.equal(made.status, 200);
    const id = (made.body as { result: { id: string } }).result.id;
    const added = await call('POST', `/zones/unknown-action/rulesets/${id}/rules`, { body: JSON.stringify(typo), headers });
    assert.equal(added.status, 400);
    assert.deepEqual((added.body as { errors: { source: unknown }[] }).errors.map((e) => e.source), [{ pointer: '/action' }]);
  });

  it('answers a body sent again as it did the first time (its check is remembered), each pointer where its operation puts it', async () => {
    const headers = { ...auth, 'content-type': 'application/json' };
    const at = '/zones/same-body/rulesets/phases/http_request_firewall_custom/entrypoint';
    const made = await call('PUT', at, { body: JSON.stringify({ rules: [{ action: 'block', expression: 'true' }] }), headers });
    const { id, name, kind, phase } = (made.body as { result: { id: string; name: string; kind: string; phase: string } }).result;
    const typo = { action: 'blokc', expression: 'http.request.uri.path eq "/admin"' };
    // The rule added alone is checked as the only rule of its ruleset: the same text as this PUT's body.
    const whole = JSON.stringify({ name, kind, phase, rules: [typo] });
    const sources = async () => [
      ((await call('POST', `/zones/same-body/rulesets/${id}/rules`, { body: JSON.stringify(typo), headers })).body as { errors: { source: unknown }[] }).errors.map((e) => e.source),
      ((await call('PUT', at, { body: whole, headers })).body as { errors: { source: unknown }[] }).errors.map((e) => e.source),
    ];
    const first = await sources();
    assert.deepEqual(first, [[{ pointer: '/action' }], [{ pointer: '/rules/0/action' }]]);
    assert.deepEqual(await sources(), first);
    assert.equal(((await call('GET', at)).body as { result: { version: string } }).result.version, '1', 'nothing stored');
  });

  it('checks a body again once its remembered check was let go, with the same answer', () => {
    const validator = new RulesetValidator(undefined, 200);
    const body = (expression: string) => ({ name: 'default', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression }] });
    const bad = body('http.host eq');
    const answers = [bad, body('true'), body(`http.host eq "${'x'.repeat(300)}"`), bad].map((b) => validator.validate(b, (p) => `/x${p}`));
    assert.equal(answers[0].length, 1);
    assert.equal(answers[0][0].pointer, '/x/rules/0/expression');
    assert.deepEqual(answers[3], answers[0]);
    assert.deepEqual([answers[1], answers[2]], [[], []]);
  });

  it("refuses an account's execute rule not limited to Enterprise zones, as the docs say the service does; takes the docs' own", async () => {
    const headers = { ...auth, 'content-type': 'application/json' };
    const at = '/accounts/enterprise-only/rulesets/phases/http_request_firewall_custom/entrypoint';
    const execute = (expression: string) => ({ action: 'execute', description: 'Execute custom ruleset', expression, action_parameters: { id: '2f2feab2026849078ba485f918791bdc' } });
    const refused = await call('PUT', at, { body: JSON.stringify({ rules: [execute('(cf.zone.name == "example.com")')] }), headers });
    assert.equal(refused.status, 400);
    const [error] = (refused.body as { errors: { code: number; message: string; source: { pointer: string } }[] }).errors;
    assert.deepEqual([error.code, error.source], [20021, { pointer: '/rules/0/expression' }]);
    assert.match(error.message, /the service refuses one whose expression does not say so: end it with `and cf\.zone\.plan eq "ENT"`/);
    const taken = await call('PUT', at, { body: JSON.stringify({ rules: [execute('(cf.zone.name == "example.com") and cf.zone.plan eq "ENT"')] }), headers });
    assert.equal(taken.status, 200);
    // A zone's entry point runs what it executes on its own zone: no plan to say.
    assert.equal((await call('PUT', '/zones/enterprise-only/rulesets/phases/http_request_firewall_custom/entrypoint', { body: JSON.stringify({ rules: [execute('(http.request.uri.path eq "/login")')] }), headers })).status, 200);
  });

  it('records requests and consumes faults in order', async () => {
    const before = emulator.requests.length;
    emulator.faults.push({ method: 'POST', respond: { status: 418 } }, { path: /versions/, respond: { status: 500 } }, { respond: { status: 503 } });
    assert.equal((await call('GET', '/accounts/x/rulesets/abc/versions')).status, 500, 'the first fault that matches');
    assert.equal((await call('GET', '/accounts/x/rulesets')).status, 503);
    assert.equal((await call('POST', '/accounts/x/rulesets', { body: '{}' })).status, 418);
    assert.equal((await call('GET', '/accounts/x/rulesets')).status, 200, 'each fault is used once');
    assert.deepEqual(emulator.requests.slice(before, before + 2), [
      { method: 'GET', path: '/accounts/x/rulesets/abc/versions' },
      { method: 'GET', path: '/accounts/x/rulesets' },
    ]);
  });

  it('leaks no credential', async () => {
    await failure(makeClient(emulator.baseUrl, { credentials: { token: 'tok-other' } }).listRulesets());
    assertNoSecrets();
  });
});

describe('rulesets emulator', () => {
  function io() {
    const out: string[] = [];
    const err: string[] = [];
    const signals = new EventEmitter();
    let emulator: Emulator | undefined;
    return { out, err, signals, get emulator() { return emulator; }, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), signals, onListening: (e: Emulator) => (emulator = e) } };
  }

  it('prints its base URL, credentials and environment, serves until SIGINT, and keeps state in --data', async () => {
    const dataFile = join(tempDir(), 'data.json');
    const run = io();
    const done = runEmulatorCommand(['--port', '0', '--data', dataFile], run.io);
    while (!run.emulator) await new Promise((resolve) => setTimeout(resolve, 5));
    const text = run.out.join('');
    const m = /^Rulesets API emulator listening on (http:\/\/127\.0\.0\.1:(\d+)\/client\/v4)\n/.exec(text);
    assert.ok(m, text);
    assert.ok(text.includes(`export RULESETS_BASE_URL=${m[1]}\n`));
    assert.ok(text.includes(`export RULESETS_API_TOKEN=${EMULATOR_TOKEN}\n`));
    assert.ok(text.includes(`export RULESETS_ACCOUNT_ID=${EMULATOR_ACCOUNT_ID}\n`));
    assert.ok(text.includes(`the email ${EMULATOR_EMAIL} with the API key ${EMULATOR_KEY}`));
    assert.ok(text.includes(`kept in ${dataFile}`));
    const c = new RulesetsClient({ baseUrl: m[1], credentials: { token: EMULATOR_TOKEN }, scope: { kind: 'account', id: EMULATOR_ACCOUNT_ID } });
    await c.createRuleset({ name: 'cli', kind: 'custom', phase: 'magic_transit', rules: [] });
    run.signals.emit('SIGINT');
    assert.equal(await done, 0);
    assert.match(run.out.join(''), /Emulator stopped \(SIGINT\)\.\n$/);
    assert.equal(JSON.parse(readFileSync(dataFile, 'utf8')).rulesets.length, 1);
    assert.equal(run.signals.listenerCount('SIGINT') + run.signals.listenerCount('SIGTERM'), 0);
  });

  it('stops on SIGTERM too', async () => {
    const run = io();
    const done = runEmulatorCommand(['--port', '0'], run.io);
    while (!run.emulator) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.match(run.out.join(''), /kept in memory/);
    run.signals.emit('SIGTERM');
    assert.equal(await done, 0);
  });

  it('answers a bad option or a port in use with one line and status 2', async () => {
    for (const args of [['--port', 'x'], ['--port', '70000'], ['--port', '-1'], ['--bogus']]) {
      const run = io();
      assert.equal(await runEmulatorCommand(args, run.io), 2, args.join(' '));
      assert.match(run.err.join(''), /^rulesets: .+\n$/);
    }
    const busy = await startEmulator();
    const run = io();
    assert.equal(await runEmulatorCommand(['--port', String(busy.port)], run.io), 2);
    assert.equal(run.err.join(''), `rulesets: port ${busy.port} is already in use; pick another with --port N (--port 0 picks a free one)\n`);
    await busy.close();
    const help = io();
    assert.equal(await runEmulatorCommand(['--help'], help.io), 0);
    assert.match(help.out.join(''), /^Usage: rulesets emulator \[--port N\] \[--data FILE\]/);
  });
});
