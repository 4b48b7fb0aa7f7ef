/**
 * The contract: how the real service answers (`shared/spec/API.md`, "How the real service
 * answers", with the envelope and deletes), one row per fact, run against the emulator over
 * HTTP with plain `fetch`: never through our client, whose assumptions must not shape what
 * the emulator is held to. The client's own tests run against this emulator, so a change to
 * either that breaks a fact of the service fails here or there.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../server/src/api/emulator';
import { SECRETS, startTestEmulator, TEST_PAGE_SIZE } from './harness';
import { entryPointFile, FAMILY_NAMES, PHASE_FAMILIES } from './phase-families';

let emulator: Emulator;

before(async () => {
  emulator = await startTestEmulator();
});

after(() => emulator.close());

interface Answer {
  readonly status: number;
  /** The raw text: '' for a 204. */
  readonly text: string;
  readonly body: Envelope | undefined;
  readonly headers: Headers;
}

interface Envelope {
  readonly result: unknown;
  readonly success: boolean;
  readonly errors: { code?: number; message: string; source?: { pointer?: string } }[];
  readonly messages: { code?: number; message: string }[];
  readonly result_info?: { count?: number; per_page?: number; cursor?: string };
}

const AUTH = { authorization: `Bearer ${SECRETS.token}`, 'content-type': 'application/json' };

async function call(method: string, path: string, body?: unknown, base = emulator.baseUrl): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method, headers: AUTH, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text, body: text ? (JSON.parse(text) as Envelope) : undefined, headers: response.headers };
}

let owners = 0;

/** An account of its own for each row, so that no row sees another's rulesets. */
function owner(): string {
  return `/accounts/contract${++owners}`;
}

const BLOCK = { action: 'block', expression: 'ip.proto == "tcp"', description: 'block tcp' };
const BLOCK_HTTP = { action: 'block', expression: 'http.request.uri.path eq "/admin"' };
const SKIP = { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport == 22', description: 'ssh', logging: { enabled: true }, enabled: false };

interface Ruleset {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly version: unknown;
  readonly rules: { id: string; version: unknown; [key: string]: unknown }[];
}

/** A custom ruleset made with a real call, for a row to work on. */
async function made(at: string, rules: readonly object[] = [BLOCK, SKIP]): Promise<Ruleset> {
  const created = await call('POST', `${at}/rulesets`, { name: 'contract', kind: 'custom', phase: 'magic_transit', description: 'd', rules });
  assert.equal(created.status, 200, created.text);
  return created.body!.result as Ruleset;
}

async function latest(at: string, id: string): Promise<Ruleset> {
  return (await call('GET', `${at}/rulesets/${id}`)).body!.result as Ruleset;
}

function success(answer: Answer): Envelope {
  assert.ok(answer.body, `expected the JSON envelope, found ${JSON.stringify(answer.text)}`);
  assert.equal(answer.body.success, true);
  assert.deepEqual(answer.body.errors, []);
  assert.ok(Array.isArray(answer.body.messages));
  return answer.body;
}

function refusal(answer: Answer, pointer?: string): Envelope {
  assert.ok(answer.body, 'an error is a JSON envelope too');
  assert.equal(answer.body.success, false);
  assert.equal(answer.body.result, null);
  assert.ok(answer.body.errors.length > 0 && answer.body.errors.every((e) => typeof e.message === 'string' && e.message !== ''));
  if (pointer !== undefined) assert.equal(answer.body.errors[0].source?.pointer, pointer);
  return answer.body;
}

interface Row {
  /** The fact of API.md the row holds the emulator to. */
  readonly fact: string;
  readonly does: string;
  /** Makes what the request needs, sends it, and says what must have come back. */
  readonly run: (at: string) => Promise<void>;
}

const ROWS: readonly Row[] = [
  // 1. Dry run
  {
    fact: '1. dry run',
    does: 'POST a ruleset ?dry_run=true → 200, result null, nothing created',
    run: async (at) => {
      const answer = await call('POST', `${at}/rulesets?dry_run=true`, { name: 'dry', kind: 'custom', phase: 'magic_transit', rules: [BLOCK] });
      assert.equal(answer.status, 200);
      assert.equal(success(answer).result, null);
      assert.deepEqual((await call('GET', `${at}/rulesets`)).body!.result, []);
    },
  },
  {
    fact: '1. dry run',
    does: 'PUT a ruleset ?dry_run=true → 200, result null, no new version',
    run: async (at) => {
      const r = await made(at);
      const answer = await call('PUT', `${at}/rulesets/${r.id}?dry_run=true`, { rules: [BLOCK] });
      assert.equal(answer.status, 200);
      assert.equal(success(answer).result, null);
      assert.equal((await latest(at, r.id)).version, '1');
    },
  },
  {
    fact: '1. dry run',
    does: 'PUT a phase entry point that does not exist ?dry_run=true → 200, result null, still none',
    run: async (at) => {
      const answer = await call('PUT', `${at}/rulesets/phases/magic_transit/entrypoint?dry_run=true`, { rules: [BLOCK] });
      assert.equal(answer.status, 200);
      assert.equal(success(answer).result, null);
      assert.equal((await call('GET', `${at}/rulesets/phases/magic_transit/entrypoint`)).status, 404);
    },
  },
  {
    fact: '1. dry run',
    does: 'POST a rule, PATCH a rule, DELETE a rule ?dry_run=true → 200, result null each, nothing changed',
    run: async (at) => {
      const r = await made(at);
      for (const [method, path, body] of [
        ['POST', `/rules`, { ...BLOCK, position: { index: 1 } }],
        ['PATCH', `/rules/${r.rules[0].id}`, { action: 'block', expression: 'ip.proto == "udp"' }],
        ['DELETE', `/rules/${r.rules[0].id}`, undefined],
      ] as const) {
        const answer = await call(method, `${at}/rulesets/${r.id}${path}?dry_run=true`, body);
        assert.equal(answer.status, 200, `${method} ${answer.text}`);
        assert.equal(success(answer).result, null, method);
      }
      assert.deepEqual(await latest(at, r.id), r);
    },
  },
  {
    fact: '1. dry run',
    does: 'DELETE a ruleset or a version ?dry_run=true → 204 with no body, as the real call, nothing deleted',
    run: async (at) => {
      const r = await made(at);
      await call('PUT', `${at}/rulesets/${r.id}`, { rules: [BLOCK] });
      for (const path of [`/rulesets/${r.id}/versions/1`, `/rulesets/${r.id}`]) {
        const answer = await call('DELETE', `${at}${path}?dry_run=true`);
        assert.equal(answer.status, 204, path);
        assert.equal(answer.text, '', path);
      }
      assert.deepEqual(((await call('GET', `${at}/rulesets/${r.id}/versions`)).body!.result as { version: string }[]).map((v) => v.version), ['1', '2']);
    },
  },
  {
    fact: '1. dry run',
    does: 'a dry run that fails validation answers as the real call would: 400 with the pointer',
    run: async (at) => {
      const r = await made(at);
      const answer = await call('PUT', `${at}/rulesets/${r.id}?dry_run=true`, { rules: [{ action: 'block', expression: 'tcp.dstprt == 22' }] });
      assert.equal(answer.status, 400);
      assert.match(refusal(answer, '/rules/0/expression').errors[0].message, /^Filter parsing error \(1:1\): /);
    },
  },
  {
    fact: '1. dry run',
    does: 'dry_run other than true or false → 400; dry_run=false is the real call',
    run: async (at) => {
      const r = await made(at);
      for (const value of ['yes', '1', 'TRUE', '']) {
        const answer = await call('PUT', `${at}/rulesets/${r.id}?dry_run=${value}`, { rules: [BLOCK] });
        assert.equal(answer.status, 400, `dry_run=${value}`);
        refusal(answer);
      }
      const real = await call('PUT', `${at}/rulesets/${r.id}?dry_run=false`, { rules: [BLOCK] });
      assert.equal(real.status, 200);
      assert.equal((success(real).result as Ruleset).version, '2');
    },
  },
  // 2. PATCH a rule replaces it
  {
    fact: '2. PATCH replaces the rule',
    does: 'PATCH with only some fields → the rule has exactly those; the rest is gone',
    run: async (at) => {
      const r = await made(at, [SKIP, BLOCK]);
      const answer = await call('PATCH', `${at}/rulesets/${r.id}/rules/${r.rules[0].id}`, { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport == 2222' });
      assert.equal(answer.status, 200, answer.text);
      const rule = (success(answer).result as Ruleset).rules[0];
      assert.equal(rule.id, r.rules[0].id, 'the rule keeps its id');
      assert.equal(rule.expression, 'tcp.dstport == 2222');
      assert.equal(rule.description, '', 'description left out: gone');
      assert.equal(rule.enabled, true, 'enabled left out: back to its default');
      assert.equal(rule.logging, undefined, 'logging left out: gone');
    },
  },
  {
    fact: '2. PATCH replaces the rule',
    does: 'PATCH the whole rule with a position → moved, every field kept',
    run: async (at) => {
      const r = await made(at, [SKIP, BLOCK]);
      const { id: _id, version: _version, last_updated: _at, ...whole } = r.rules[0];
      const answer = await call('PATCH', `${at}/rulesets/${r.id}/rules/${r.rules[0].id}`, { ...whole, position: { after: '' } });
      assert.equal(answer.status, 200, answer.text);
      const rules = (success(answer).result as Ruleset).rules;
      assert.deepEqual(
        rules.map((x) => x.description),
        ['block tcp', 'ssh'],
      );
      assert.deepEqual(rules[1], r.rules[0], 'the same rule, untouched, in its new place');
    },
  },
  // 3. Lists are paged by cursor
  {
    fact: '3. lists are paged by cursor',
    does: 'GET rulesets → pages of per_page, result_info {count, per_page, cursor}; no cursor on the last',
    run: async (at) => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add((await made(at)).id);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const answer = await call('GET', `${at}/rulesets${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
        const body = success(answer);
        const page = body.result as { id: string; rules?: unknown }[];
        assert.equal(body.result_info?.per_page, TEST_PAGE_SIZE);
        assert.equal(body.result_info?.count, page.length);
        assert.ok(page.every((item) => !('rules' in item)), 'items come without rules');
        seen.push(...page.map((item) => item.id));
        cursor = body.result_info?.cursor;
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.deepEqual(new Set(seen), ids);
      assert.equal(seen.length, ids.size, 'each ruleset once');
      const big = success(await call('GET', `${at}/rulesets?per_page=5`));
      assert.equal((big.result as unknown[]).length, 5);
      assert.equal(big.result_info?.cursor, undefined, 'all on one page: no cursor');
      assert.equal((await call('GET', `${at}/rulesets?cursor=not-a-cursor`)).status, 400);
    },
  },
  // 4. Warnings
  {
    fact: '4. warnings',
    does: 'a successful answer carries messages [{code?, message}]',
    run: async (at) => {
      const r = await made(at);
      emulator.notices.push({ method: 'PUT', message: { code: 20100, message: 'this ruleset is close to the complexity limit' } });
      const answer = await call('PUT', `${at}/rulesets/${r.id}`, { rules: [BLOCK] });
      assert.equal(answer.status, 200);
      assert.deepEqual(success(answer).messages, [{ code: 20100, message: 'this ruleset is close to the complexity limit' }]);
    },
  },
  // 5. by_tag
  {
    fact: '5. by_tag is account-level',
    does: 'GET …/by_tag/{tag} → 200 for an account, 404 for a zone',
    run: async (at) => {
      const managed = emulator.state.addManagedRuleset({ name: 'M', phase: 'magic_transit_managed', rules: [{ action: 'block', expression: 'tcp.dstport == 23', categories: ['telnet'] }] });
      const account = await call('GET', `${at}/rulesets/${managed.id}/versions/1/by_tag/telnet`);
      assert.equal(account.status, 200);
      assert.equal((success(account).result as Ruleset).rules.length, 1);
      const zone = await call('GET', `/zones/z${owners}/rulesets/${managed.id}/versions/1/by_tag/telnet`);
      assert.equal(zone.status, 404);
      refusal(zone);
    },
  },
  // 6. Name and kind cannot be changed
  {
    fact: '6. name and kind cannot change',
    does: 'PUT with another name or kind → 400 at /name or /kind; left out or unchanged → 200',
    run: async (at) => {
      const r = await made(at);
      refusal(await call('PUT', `${at}/rulesets/${r.id}`, { name: 'renamed', rules: [BLOCK] }), '/name');
      refusal(await call('PUT', `${at}/rulesets/${r.id}`, { kind: 'root', rules: [BLOCK] }), '/kind');
      assert.equal((await call('PUT', `${at}/rulesets/${r.id}`, { rules: [BLOCK] })).status, 200);
      assert.equal((await call('PUT', `${at}/rulesets/${r.id}`, { name: r.name, kind: r.kind, rules: [BLOCK] })).status, 200);
      assert.equal((await latest(at, r.id)).name, 'contract');
    },
  },
  // 7. version is a string
  {
    fact: '7. version is a string',
    does: 'every ruleset, list item, version item and rule has version "N"',
    run: async (at) => {
      const r = await made(at);
      const all = [
        r,
        ...((await call('GET', `${at}/rulesets`)).body!.result as Ruleset[]),
        ...((await call('GET', `${at}/rulesets/${r.id}/versions`)).body!.result as Ruleset[]),
        ...r.rules,
      ];
      for (const item of all) assert.match(item.version as string, /^[1-9]\d*$/);
    },
  },
  // 8. Rules carry more fields
  {
    fact: '8. rules carry more fields',
    does: 'fields block/skip do not use (ratelimit, exposed_credential_check, categories, ref) are kept on PUT, POST and GET',
    run: async (at) => {
      const extra = {
        ref: 'my-ref',
        categories: ['mine'],
        ratelimit: { characteristics: ['ip.src'], period: 60, requests_per_period: 100 },
        exposed_credential_check: { username_expression: 'x', password_expression: 'y' },
      };
      const r = await made(at, [{ ...BLOCK, ...extra }]);
      const added = await call('POST', `${at}/rulesets/${r.id}/rules`, { ...BLOCK, ...extra, ref: 'second' });
      assert.equal(added.status, 200, added.text);
      for (const rule of (await latest(at, r.id)).rules) {
        assert.deepEqual(rule.ratelimit, extra.ratelimit);
        assert.deepEqual(rule.exposed_credential_check, extra.exposed_credential_check);
        assert.deepEqual(rule.categories, extra.categories);
      }
      assert.deepEqual(
        (await latest(at, r.id)).rules.map((rule) => rule.ref),
        ['my-ref', 'second'],
      );
    },
  },
  // 9. Versions of a phase with no entry point
  {
    fact: '9. versions of a phase with no entry point',
    does: 'GET …/phases/{phase}/entrypoint/versions → 200, result []',
    run: async (at) => {
      const answer = await call('GET', `${at}/rulesets/phases/magic_transit/entrypoint/versions`);
      assert.equal(answer.status, 200);
      assert.deepEqual(success(answer).result, []);
    },
  },
  // 10. Deletes
  {
    fact: '10. deletes',
    does: 'DELETE a rule → 200 with the whole ruleset; a version or a ruleset → 204, no body',
    run: async (at) => {
      const r = await made(at);
      const rule = await call('DELETE', `${at}/rulesets/${r.id}/rules/${r.rules[0].id}`);
      assert.equal(rule.status, 200);
      const after = success(rule).result as Ruleset;
      assert.equal(after.id, r.id);
      assert.equal(after.version, '2');
      assert.equal(after.rules.length, 1);
      const version = await call('DELETE', `${at}/rulesets/${r.id}/versions/1`);
      assert.deepEqual([version.status, version.text], [204, '']);
      const ruleset = await call('DELETE', `${at}/rulesets/${r.id}`);
      assert.deepEqual([ruleset.status, ruleset.text], [204, '']);
      assert.equal((await call('GET', `${at}/rulesets/${r.id}`)).status, 404);
    },
  },
  {
    fact: '8. rules carry more fields',
    does: 'a mistake inside action_parameters → 400 with source.pointer naming that key',
    run: async (at) => {
      const zone = at.replace('/accounts/', '/zones/');
      const answer = await call('PUT', `${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [BLOCK_HTTP, { action: 'execute', expression: 'true', action_parameters: { id: 5 } }] });
      assert.equal(answer.status, 400, answer.text);
      refusal(answer, '/rules/1/action_parameters/id');
      assert.equal((await call('GET', `${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`)).status, 404, 'nothing stored');
    },
  },
  // Operations 6 and 7: what each body must hold
  {
    fact: 'ops 6 and 7',
    does: 'POST …/rulesets requires name, kind and phase; PUT …/phases/{phase}/entrypoint and PUT …/rulesets/{id} take `rules` alone',
    run: async (at) => {
      for (const [body, missing] of [
        [{ rules: [BLOCK] }, ['/name', '/kind', '/phase']],
        [{ name: 'n', kind: 'root', rules: [BLOCK] }, ['/phase']],
      ] as const) {
        for (const dry of ['', '?dry_run=true']) {
          const refused = await call('POST', `${at}/rulesets${dry}`, body);
          assert.equal(refused.status, 400, refused.text);
          assert.deepEqual(refusal(refused).errors.map((e) => e.source?.pointer), missing);
        }
      }
      assert.deepEqual((((await call('GET', `${at}/rulesets`)).body!.result) as Ruleset[]).filter((x) => x.kind !== 'managed'), [], 'nothing created');
      const entry = await call('PUT', `${at}/rulesets/phases/magic_transit/entrypoint`, { rules: [BLOCK] });
      assert.equal(entry.status, 200, entry.text);
      const r = await made(at);
      const byId = await call('PUT', `${at}/rulesets/${r.id}`, { rules: [BLOCK] });
      assert.equal(byId.status, 200, byId.text);
      assert.equal((success(byId).result as Ruleset).name, r.name);
    },
  },
  // Envelope
  {
    fact: 'envelope',
    does: 'every JSON answer is {result, success, errors, messages}; an error is {code, message, source.pointer}',
    run: async (at) => {
      const ok = await call('GET', `${at}/rulesets`);
      assert.deepEqual(Object.keys(ok.body!).sort(), ['errors', 'messages', 'result', 'result_info', 'success']);
      const bad = await call('POST', `${at}/rulesets`, { name: 'x', kind: 'custom', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src == 10.0.0.0/8' }] });
      assert.equal(bad.status, 400);
      const error = refusal(bad, '/rules/0/expression').errors[0];
      assert.equal(typeof error.code, 'number');
      assert.deepEqual(Object.keys(bad.body!).sort(), ['errors', 'messages', 'result', 'success']);
    },
  },
];

describe('the emulator answers as the service does (API.md, "How the real service answers")', () => {
  for (const row of ROWS) it(`${row.fact}: ${row.does}`, () => row.run(owner()));

  it('11. rate limit: past 1,200 requests in 5 minutes, 429 with Retry-After for the next five minutes', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const limited = await startEmulator({ credentials: SECRETS, now: () => new Date(now) });
    try {
      const at = owner();
      for (let i = 0; i < 1200; i++) assert.equal((await call('GET', `${at}/rulesets`, undefined, limited.baseUrl)).status, 200, `request ${i + 1}`);
      const refused = await call('GET', `${at}/rulesets`, undefined, limited.baseUrl);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '300');
      refusal(refused);
      now += 4 * 60_000;
      const still = await call('GET', `${at}/rulesets`, undefined, limited.baseUrl);
      assert.equal(still.status, 429, 'still limited four minutes later');
      assert.equal(still.headers.get('retry-after'), '60');
      now += 60_000;
      assert.equal((await call('GET', `${at}/rulesets`, undefined, limited.baseUrl)).status, 200, 'five minutes later: answered again');
    } finally {
      await limited.close();
    }
  });

  // Issue 22: every phase family's entry point deploys as magic_transit's does. A dry run answers
  // null and stores nothing; the real PUT stores the rule with every parameter as sent; a read
  // gives the same back. Each row fails if the emulator refuses the phase or the action, drops or
  // changes a parameter, or stores a dry run.
  for (const family of PHASE_FAMILIES) {
    const kind = family.level === 'zone' ? 'zone' : 'root';
    it(`phase ${family.phase} (${family.family}): the ${family.level}'s entry point takes a ${family.rule.action} rule; dry run null, deploy stores it as sent, GET returns it`, async () => {
      const at = family.level === 'zone' ? owner().replace('/accounts/', '/zones/') : owner();
      const entry = `${at}/rulesets/phases/${family.phase}/entrypoint`;
      const body = entryPointFile(family);
      const dry = await call('PUT', `${entry}?dry_run=true`, body);
      assert.equal(dry.status, 200, dry.text);
      assert.equal(success(dry).result, null);
      assert.equal((await call('GET', entry)).status, 404, 'a dry run stores nothing');
      assert.deepEqual(success(await call('GET', `${entry}/versions`)).result, []);
      const real = await call('PUT', entry, body);
      assert.equal(real.status, 200, real.text);
      const stored = success(real).result as Ruleset & { phase: string };
      assert.deepEqual([stored.kind, stored.phase, stored.version, stored.rules.length], [kind, family.phase, '1', 1]);
      for (const [key, value] of Object.entries(family.rule)) assert.deepEqual(stored.rules[0][key], value, `${key} as sent`);
      assert.deepEqual(success(await call('GET', entry)).result, stored, 'GET returns what the PUT stored');
      assert.deepEqual(success(await call('GET', `${entry}/versions/1`)).result, stored);
    });
  }

  it('has a row for every phase family', () => {
    assert.deepEqual([...new Set(PHASE_FAMILIES.map((f) => f.family))].sort(), [...FAMILY_NAMES].sort());
  });

  it('has a row for every fact of API.md', () => {
    const facts = new Set([...ROWS.map((row) => row.fact.split('.')[0]), '11']);
    for (const fact of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', 'envelope']) assert.ok(facts.has(fact), `no row for fact ${fact}`);
  });
});
