import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import type { Ruleset, RuleInput } from '../../server/src/api/client';
import type { Emulator } from '../../server/src/api/emulator';
import {
  applyCreate,
  applyDeploy,
  DeployOutcomeUnknownError,
  destinationOf,
  mapServiceProblems,
  planCreate,
  planDeploy,
  readLocalRuleset,
  rulesetToBody,
  serializeRuleset,
  unifiedDiff,
  withVersion,
  WorkflowError,
  type LocalRuleset,
} from '../../server/src/core';
import { makeClient, startTestEmulator, type TestClient } from './harness';
import { entryPointFile, PHASE_FAMILIES } from './phase-families';

let emulator: Emulator;
let client: TestClient;

before(async () => {
  emulator = await startTestEmulator();
  client = makeClient(emulator.baseUrl);
});

after(async () => {
  await emulator.close();
});

const BLOCK_TCP: RuleInput = { action: 'block', expression: 'ip.proto == "tcp"', description: 'block tcp' };
const SKIP_SSH: RuleInput = { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in {22}', description: 'ssh' };
const BLOCK_UDP: RuleInput = { action: 'block', expression: 'ip.proto == "udp"', description: 'block udp' };

let names = 0;
async function custom(rules: readonly RuleInput[] = [SKIP_SSH, BLOCK_TCP]): Promise<Ruleset> {
  return client.createRuleset({ name: `workflow ${++names}`, kind: 'custom', phase: 'magic_transit', description: 'test', rules });
}

/** A pulled file, read back as a local ruleset. */
async function pulled(id: string, format: 'json' | 'yaml' = 'yaml'): Promise<LocalRuleset> {
  const ruleset = await client.getRuleset(id);
  return readLocalRuleset(`pulled.${format}`, serializeRuleset(ruleset, format));
}

function writes(): { method: string; path: string }[] {
  return emulator.requests.filter((r) => r.method !== 'GET' && !r.path.includes('dry_run=true'));
}

/** A phase of its own for each entry-point test (any name works in the emulator; unknown phases only warn). */
let accounts = 0;
function freshClient(): TestClient {
  return makeClient(emulator.baseUrl, { scope: { kind: 'account', id: `workflow-${++accounts}` } });
}

describe('readLocalRuleset', () => {
  it('reads the body, id and version of JSON and YAML files', () => {
    const yaml = readLocalRuleset(
      'a.ruleset.yaml',
      'id: abc\nname: n\nkind: custom\nphase: magic_transit\nversion: 4\nlast_updated: x\nsource: firewall_custom\nrules:\n  - id: r1\n    ref: r1\n    version: "3"\n    last_updated: y\n    action: block\n    expression: ip.proto == "tcp"\n',
    );
    assert.equal(yaml.format, 'yaml');
    assert.equal(yaml.id, 'abc');
    assert.equal(yaml.version, '4', 'a number version is read as the string the API uses');
    assert.deepEqual(yaml.body, { name: 'n', kind: 'custom', phase: 'magic_transit', rules: [{ id: 'r1', action: 'block', expression: 'ip.proto == "tcp"' }] });
    const json = readLocalRuleset('b.json', '{"name": "n", "kind": "root", "phase": "magic_transit", "description": "d", "rules": []}');
    assert.equal(json.format, 'json');
    assert.equal(json.id, undefined);
    assert.deepEqual(json.body, { name: 'n', kind: 'root', phase: 'magic_transit', description: 'd', rules: [] });
  });

  it('says where a file cannot be read as a ruleset, and how to fix it', () => {
    const cases: [path: string, text: string, message: RegExp][] = [
      ['r.txt', '{}', /^r\.txt: not a ruleset file; name it \*\.json, \*\.yaml, \*\.yml or, for Terraform, \*\.tf/],
      ['r.json', '{\n  "name": "n",\n  "rules": [\n}', /^r\.json:4:1: expected/],
      ['r.yaml', 'name: [unclosed\n', /^r\.yaml:\d+:\d+: .*rulesets check r\.yaml/],
      ['r.yaml', '- 1\n- 2\n', /^r\.yaml:1:1: expected a ruleset: an object with `name`/],
      ['r.yaml', 'id: abc\nkind: custom\nphase: p\nrules: []\n', /^r\.yaml:1:1: the ruleset has no `name`, which deploying it from here needs: add `name: …` at the top level/],
      ['r.yaml', 'id: abc\nrules: []\n', /^r\.yaml:1:1: the ruleset has no `name`, `kind` or `phase`, which deploying it from here needs: add `name: …`, `kind: …`, `phase: …` at the top level/],
      ['r.yaml', 'name: n\nkind: 3\nphase: p\nrules: []\n', /^r\.yaml:2:7: expected `kind` to be a string/],
      ['r.yaml', 'name: n\nkind: custom\nphase: p\n', /^r\.yaml:1:1: the ruleset has no `rules`/],
      ['r.yaml', 'name: n\nkind: custom\nphase: p\nrules: {}\n', /^r\.yaml:4:8: expected `rules` to be a list of rules/],
      ['r.yaml', 'name: n\nkind: custom\nphase: p\nrules:\n  - action: block\n  - just text\n', /^r\.yaml:6:5: expected rule 2 to be an object/],
    ];
    for (const [path, text, message] of cases) {
      assert.throws(() => readLocalRuleset(path, text), (error: unknown) => error instanceof WorkflowError && message.test(error.message), `${path}: ${text}`);
    }
  });

  it('a file of rules alone: a create names the keys its POST requires, a deploy without `id` or `phase` says it cannot tell where the file goes', () => {
    const rules = '{"rules": [{"action": "block", "expression": "true"}]}';
    const refusal = (text: string, options: { create?: boolean } = {}): string => {
      try {
        readLocalRuleset('ep.json', text, options);
      } catch (error) {
        assert.ok(error instanceof WorkflowError);
        return error.message;
      }
      assert.fail('read without a refusal');
    };
    assert.equal(refusal(rules, { create: true }), 'ep.json:1:1: a new ruleset needs `name`, `kind` and `phase` (`POST …/rulesets` requires them), and the file has no `name`, `kind` or `phase`: add `name: …`, `kind: …`, `phase: …` at the top level; nothing was sent');
    assert.match(refusal(rules.replace('{', '{"name": "n", "phase": "magic_transit", '), { create: true }), /the file has no `kind`: add `kind: …` at the top level; nothing was sent$/);
    assert.equal(
      refusal(rules),
      'ep.json:1:1: cannot tell where this ruleset goes: it has no `id` (the ruleset to update) and no `phase` (the entry point to deploy to); add `phase: …` or the `id` of the ruleset it is at the top level; nothing was sent',
    );
    assert.match(refusal(rules.replace('{', '{"name": "n", "kind": "root", ')), /^ep\.json:1:1: cannot tell where this ruleset goes: .*at the top level; nothing was sent$/);
  });
});

describe('serializeRuleset', () => {
  it('leaves out the ruleset fields the service sets and a deploy never sends: `last_updated`, `source`', () => {
    const live = { id: 'abc', name: 'n', description: '', kind: 'zone', phase: 'http_request_firewall_custom', version: '2', last_updated: '2026-11-01T00:00:00Z', source: 'firewall_custom', rules: [] } as Ruleset;
    for (const format of ['json', 'yaml'] as const) {
      const text = serializeRuleset(live, format);
      const value = format === 'json' ? JSON.parse(text) : YAML.parse(text);
      assert.deepEqual(Object.keys(value), ['id', 'name', 'description', 'kind', 'phase', 'version', 'rules']);
    }
  });

  it('writes the same bytes for an unchanged ruleset, in a stable key order, without server noise', async () => {
    const r = await custom([SKIP_SSH, { ...BLOCK_TCP, ref: 'my-ref', enabled: false }]);
    for (const format of ['json', 'yaml'] as const) {
      const first = serializeRuleset(await client.getRuleset(r.id), format);
      const second = serializeRuleset(await client.getRuleset(r.id), format);
      assert.equal(first, second);
      assert.ok(first.endsWith('\n') && !first.endsWith('\n\n'));
      assert.ok(!first.includes('last_updated'), 'no last_updated');
      const value = format === 'json' ? JSON.parse(first) : YAML.parse(first);
      assert.deepEqual(Object.keys(value), ['id', 'name', 'description', 'kind', 'phase', 'version', 'rules']);
      assert.deepEqual(Object.keys(value.rules[0]), ['id', 'action', 'action_parameters', 'expression', 'description', 'enabled'], 'no rule version, a ref equal to the id left out');
      assert.deepEqual(Object.keys(value.rules[1]), ['id', 'ref', 'action', 'expression', 'description', 'enabled']);
      assert.equal(value.version, '1');
    }
    assert.match(serializeRuleset(r, 'json'), /^\{\n {2}"id": /);
  });

  it('gives a file that reads back as the same body, with every expression as it was', () => {
    const expressions = [
      'ip.proto == "tcp"',
      'true',
      'false',
      '123',
      'tcp.dstport in {22 443} and not ip.src in $svc.anonymizer',
      "ip.src.country in {\"BR\" 'x'} # not a comment",
      '- leading dash',
      'a: b',
      '"quoted at both ends"',
      ' leading and trailing spaces ',
      'ip.proto == "tcp"\nand tcp.dstport == 22',
      'ends with a line break\n',
      '{22}',
      'ip.geoip.country == "\u00e9" or x == "\\x41"',
      '@at & *star !bang %percent |pipe >gt',
    ];
    const ruleset: Ruleset = {
      id: 'f'.repeat(32),
      name: 'round: trip',
      description: 'yes',
      kind: 'custom',
      phase: 'magic_transit',
      version: '12',
      last_updated: '2024-01-01T00:00:00Z',
      rules: expressions.map((expression, i) => ({
        id: `r${i}`,
        version: '3',
        ref: i % 2 ? `ref${i}` : `r${i}`,
        action: i % 3 === 0 ? 'skip' : 'block',
        ...(i % 3 === 0 ? { action_parameters: { ruleset: 'current' } } : {}),
        expression,
        description: i % 2 ? '' : `rule #${i}: on`,
        enabled: i % 4 !== 0,
        ...(i % 3 === 0 ? { logging: { enabled: true } } : {}),
        last_updated: '2024-01-01T00:00:00Z',
      })),
    };
    for (const format of ['json', 'yaml'] as const) {
      const text = serializeRuleset(ruleset, format);
      const local = readLocalRuleset(`x.${format}`, text);
      assert.deepEqual(local.body, rulesetToBody(ruleset));
      assert.deepEqual(
        local.body.rules.map((r) => r.expression),
        expressions,
      );
      assert.equal(local.id, ruleset.id);
      assert.equal(local.version, '12');
      assert.equal(serializeRuleset(ruleset, format), text);
    }
  });
});

describe('withVersion', () => {
  it('changes only the version in YAML, keeping comments, quoting and layout', () => {
    const text = '# my firewall\nid: abc\nname: n   # the name\nkind: custom\nphase: magic_transit\nversion: "3"  # pulled\n# the rules\nrules:\n  - action: block\n    expression: \'ip.proto == "tcp"\'\n';
    const local = readLocalRuleset('f.yaml', text);
    assert.equal(withVersion(local, '4'), text.replace('version: "3"', 'version: "4"'));
  });

  it('adds a version after the phase in YAML, before a comment that belongs to the rules', () => {
    const text = '# top\r\nname: n\r\nkind: root\r\nphase: magic_transit # here\r\n# the rules\r\nrules:\r\n  - {action: block, expression: "true"}\r\n';
    const out = withVersion(readLocalRuleset('f.yml', text), '1');
    assert.equal(out, text.replace('# here\r\n', '# here\r\nversion: "1"\r\n'));
    assert.equal(readLocalRuleset('f.yml', out).version, '1');
  });

  it('changes or adds the version in JSON, keeping its formatting', () => {
    const text = '{\n    "name": "n",\n    "kind": "root",\n    "phase": "magic_transit",\n    "version": "3",\n    "rules": [ {"action": "block", "expression": "true"} ]\n}\n';
    const local = readLocalRuleset('f.json', text);
    assert.equal(withVersion(local, '10'), text.replace('"3"', '"10"'));
    const without = text.replace('    "version": "3",\n', '');
    assert.equal(withVersion(readLocalRuleset('f.json', without), '1'), text.replace('"3"', '"1"'));
  });
});

describe('unifiedDiff', () => {
  it('writes hunks with three lines of context, as diff -u does', () => {
    const a = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n';
    const b = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\nn\n';
    assert.equal(unifiedDiff(a, b, { from: 'old', to: 'new' }), '--- old\n+++ new\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -9,5 +9,6 @@\n i\n j\n k\n-l\n+L\n m\n+n\n');
    assert.equal(unifiedDiff('x\ny\n', 'x\ny\n', { from: 'a', to: 'b' }), '');
    assert.equal(unifiedDiff('', 'x\n', { from: 'a', to: 'b' }), '--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n');
    assert.equal(unifiedDiff('1\n2\n3\n4\n5\n6\n7\n8\n', '1\n2\n3\n5\n6\n7\n8\n', { from: 'a', to: 'b' }), '--- a\n+++ b\n@@ -1,7 +1,6 @@\n 1\n 2\n 3\n-4\n 5\n 6\n 7\n');
  });

  it('joins changes close together into one hunk and keeps a common line between them', () => {
    const diff = unifiedDiff('a\nb\nc\nd\n', 'a\nX\nc\nY\n', { from: 'a', to: 'b' });
    assert.equal(diff, '--- a\n+++ b\n@@ -1,4 +1,4 @@\n a\n-b\n+X\n c\n-d\n+Y\n');
  });
});

describe('destinationOf', () => {
  it('is the id when there is one, else the entry point of a root or zone ruleset', () => {
    const read = (text: string) => readLocalRuleset('t.yaml', text);
    assert.deepEqual(destinationOf(read('id: abc\nname: n\nkind: custom\nphase: p\nrules: []\n')), { kind: 'ruleset', id: 'abc' });
    assert.deepEqual(destinationOf(read('name: n\nkind: root\nphase: p\nrules: []\n')), { kind: 'entrypoint', phase: 'p' });
    assert.deepEqual(destinationOf(read('name: n\nkind: zone\nphase: p\nrules: []\n')), { kind: 'entrypoint', phase: 'p' });
    assert.throws(() => destinationOf(read('name: n\nkind: custom\nphase: p\nrules: []\n')), /t\.yaml: a `custom` ruleset without an `id` has nowhere to deploy to; create it first \(`rulesets create t\.yaml`\)/);
    // An entry point's kind follows from where it is deployed.
    assert.deepEqual(destinationOf(read('phase: p\nrules: []\n')), { kind: 'entrypoint', phase: 'p' });
    assert.throws(() => destinationOf(read('kind: custom\nphase: p\nrules: []\n')), /t\.yaml: a `custom` ruleset without an `id` has nowhere to deploy to/);
  });
});

describe('planDeploy and applyDeploy', () => {
  it('deploys a pulled file with a new rule to its ruleset and records the new version and rule id', async () => {
    const r = await custom();
    const local = await pulled(r.id);
    const edited = readLocalRuleset(local.path, `${local.text}  - action: block\n    expression: ip.proto == "udp"\n    description: block udp\n`);
    const plan = await planDeploy(client, edited);
    assert.deepEqual(plan.destination, { kind: 'ruleset', id: r.id });
    assert.deepEqual(plan.localProblems, []);
    assert.equal(plan.deployed?.version, '1');
    assert.equal(plan.baseVersion, '1');
    assert.equal(plan.conflict, undefined);
    assert.equal(plan.dryRunError, undefined);
    assert.deepEqual(plan.serviceProblems, []);
    assert.match(plan.diff, new RegExp(`^--- ruleset ${r.id} \\(version 1, live\\)\\n\\+\\+\\+ pulled\\.yaml\\n@@ `));
    assert.ok(plan.diff.includes('+  - action: block\n+    expression: ip.proto == "udp"\n+    description: block udp\n+    enabled: true\n'), plan.diff);
    assert.equal(emulator.state.latest(r.id)!.version, '1', 'the dry run stored nothing');

    const { ruleset, newText } = await applyDeploy(client, edited, plan);
    assert.equal(ruleset.version, '2');
    assert.deepEqual(
      emulator.state.latest(r.id)!.rules.map((x) => x.description),
      ['ssh', 'block tcp', 'block udp'],
    );
    assert.equal(ruleset.rules[0].id, r.rules[0].id, 'rules named by id are updated, not replaced');
    const recorded = readLocalRuleset(local.path, newText);
    assert.equal(recorded.version, '2');
    assert.equal(recorded.body.rules[2].id, ruleset.rules[2].id, 'the new rule got its id recorded');
    const again = await planDeploy(client, recorded);
    assert.equal(again.diff, '');
    assert.equal(again.conflict, undefined);
  });

  it('deploys to an entry point that does not exist yet, then to the existing one', async () => {
    const c = freshClient();
    const text = '# the account firewall\nname: entry\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.proto == "tcp"\n';
    const local = readLocalRuleset('entry.yaml', text);
    const plan = await planDeploy(c, local);
    assert.deepEqual(plan.destination, { kind: 'entrypoint', phase: 'magic_transit' });
    assert.equal(plan.deployed, undefined);
    assert.equal(plan.conflict, undefined);
    assert.match(plan.diff, /^--- the magic_transit entry point \(does not exist yet\)\n\+\+\+ entry\.yaml\n@@ -0,0 \+1,\d+ @@\n\+name: entry\n/);
    const first = await applyDeploy(c, local, plan);
    assert.equal(first.ruleset.version, '1');
    assert.equal(first.ruleset.kind, 'root');
    assert.ok(first.newText.startsWith('# the account firewall\n'), 'comments kept');
    const recorded = readLocalRuleset('entry.yaml', first.newText);
    assert.equal(recorded.version, '1');
    assert.equal(recorded.id, undefined, 'the file still deploys to the entry point');

    const edited = readLocalRuleset('entry.yaml', first.newText.replace('ip.proto == "tcp"', 'ip.proto == "udp"'));
    const plan2 = await planDeploy(c, edited);
    assert.equal(plan2.deployed?.version, '1');
    assert.equal(plan2.conflict, undefined);
    assert.ok(plan2.diff.includes('-    expression: ip.proto == "tcp"\n+    expression: ip.proto == "udp"\n'), plan2.diff);
    const second = await applyDeploy(c, edited, plan2);
    assert.equal(second.ruleset.version, '2');
    assert.equal(second.ruleset.id, first.ruleset.id);
    assert.equal((await c.getEntryPoint('magic_transit')).rules[0].expression, 'ip.proto == "udp"');
  });

  it('finds a conflict when someone else deployed since the pull, shows what would be undone, and deploys only with force', async () => {
    const r = await custom();
    const local = await pulled(r.id);
    // Someone else changes the ruleset (keeping the rules' ids).
    await client.updateRuleset(r.id, { rules: [{ id: r.rules[0].id, ...SKIP_SSH }, { id: r.rules[1].id, ...BLOCK_TCP }, BLOCK_UDP] });
    const edited = readLocalRuleset(local.path, local.text.replace('description: block tcp', 'description: block all tcp'));
    const plan = await planDeploy(client, edited);
    assert.deepEqual(plan.conflict, { base: '1', current: '2' });
    assert.ok(plan.diff.includes('-    description: block udp'), 'the diff shows the other change being undone');
    const before = JSON.stringify(emulator.state.latest(r.id));
    await assert.rejects(applyDeploy(client, edited, plan), (error: unknown) => error instanceof WorkflowError && /is based on version 1 of ruleset \w+, but version 2 is live: someone else deployed since/.test(error.message));
    assert.equal(JSON.stringify(emulator.state.latest(r.id)), before, 'the remote is untouched');
    const forced = await applyDeploy(client, edited, plan, { force: true });
    assert.equal(forced.ruleset.version, '3');
    assert.deepEqual(
      forced.ruleset.rules.map((x) => x.description),
      ['ssh', 'block all tcp'],
    );
  });

  it('refuses to apply when someone else deployed between the plan and the apply', async () => {
    const r = await custom();
    const local = await pulled(r.id, 'json');
    const edited = readLocalRuleset(local.path, local.text.replace('"block tcp"', '"mine"'));
    const plan = await planDeploy(client, edited);
    assert.equal(plan.conflict, undefined);
    await client.updateRuleset(r.id, { rules: [{ id: r.rules[0].id, ...SKIP_SSH }, { id: r.rules[1].id, ...BLOCK_TCP, description: 'theirs' }] });
    const writesBefore = writes().length;
    await assert.rejects(applyDeploy(client, edited, plan), /pulled\.json: not deployed: ruleset \w+ changed since the plan \(version 1 then, version 2 now\); plan again/);
    assert.equal(writes().length, writesBefore, 'no write was sent');
    assert.equal(emulator.state.latest(r.id)!.rules[1].description, 'theirs');
    const forced = await applyDeploy(client, edited, plan, { force: true });
    assert.equal(forced.ruleset.rules[1].description, 'mine');
  });

  it('refuses a file whose name, kind or phase is not the live one, naming the field, before any write or dry run', async () => {
    const r = await custom();
    const local = await pulled(r.id);
    for (const [from, to, field, fix] of [
      [`name: ${r.name}`, 'name: renamed', 'name', `set \`name: "${r.name}"\` in the file to deploy; for a new name, create a new ruleset (remove \`id\``],
      ['kind: custom', 'kind: root', 'kind', "a ruleset's kind cannot change: set `kind: custom` back; for a new kind, create a new ruleset"],
      // A packet phase whose actions the rules' `skip` and `block` are (in `ddos_l4` a `skip` is a local error of its own).
      ['phase: magic_transit', 'phase: magic_transit_managed', 'phase', "a ruleset's phase cannot change: set `phase: magic_transit` back; for a new phase, create"],
    ] as const) {
      const edited = readLocalRuleset(local.path, local.text.replace(from, to));
      const requests = emulator.requests.length;
      const line = edited.text.split('\n').findIndex((l) => l === to) + 1;
      await assert.rejects(
        planDeploy(client, edited),
        (error: unknown) => error instanceof WorkflowError && error.message.startsWith(`pulled.yaml:${line}:${to.indexOf(' ') + 2}: not deployed: \`${field}\` is "${to.split(': ')[1]}" in the file but "${from.split(': ')[1]}" on ruleset ${r.id}; `) && error.message.includes(fix),
      );
      assert.deepEqual(
        emulator.requests.slice(requests).map((q) => q.method),
        ['GET'],
        `${field}: only the live version was read`,
      );
    }
    assert.equal(emulator.state.versions(r.id).length, 1);
  });

  it('refuses to rename an entry point, without offering to create another: a phase has one', async () => {
    const c = freshClient();
    const text = 'name: entry\nkind: root\nphase: magic_transit\nrules: []\n';
    const first = await applyDeploy(c, readLocalRuleset('e.yaml', text), await planDeploy(c, readLocalRuleset('e.yaml', text)));
    const renamed = readLocalRuleset('e.yaml', first.newText.replace('name: entry', 'name: other'));
    await assert.rejects(planDeploy(c, renamed), (error: unknown) => error instanceof WorkflowError && error.message === 'e.yaml:1:7: not deployed: `name` is "other" in the file but "entry" on the magic_transit entry point; the service cannot rename a ruleset: set `name: "entry"` in the file to deploy');
  });

  it('sends a ruleset that exists its rules and description only, never a name, kind or phase', async () => {
    const r = await custom();
    const local = await pulled(r.id);
    const bodies: unknown[] = [];
    const watching = makeClient(emulator.baseUrl, {
      fetch: (url, init) => {
        if (init?.method === 'PUT') bodies.push(JSON.parse(String(init.body)));
        return fetch(url, init);
      },
    });
    const edited = readLocalRuleset(local.path, local.text.replace('description: block tcp', 'description: all tcp'));
    await applyDeploy(watching, edited, await planDeploy(watching, edited));
    assert.equal(bodies.length, 2, 'the dry run and the write');
    for (const body of bodies) assert.deepEqual(Object.keys(body as object).sort(), ['description', 'rules']);
  });

  it('stops at a local error before any request', async () => {
    const requests = emulator.requests.length;
    const local = readLocalRuleset('bad.yaml', 'id: abc\nname: n\nkind: custom\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 22\n');
    const plan = await planDeploy(client, local);
    assert.equal(emulator.requests.length, requests, 'no request');
    assert.equal(plan.localProblems.length, 1);
    assert.equal(plan.localProblems[0].code, 'unknown-field');
    assert.deepEqual(plan.localProblems[0].range.start, { line: 6, character: 16 });
    assert.equal(plan.diff, '');
    await assert.rejects(applyDeploy(client, local, plan), /bad\.yaml: not deployed: the check found errors/);
    assert.equal(emulator.requests.length, requests, 'still no request');
  });

  it('places the service dry run rejection on the right characters of a JSON and a YAML file', async () => {
    const r = await custom([BLOCK_TCP, BLOCK_UDP]);
    // The service knows more than our check (an account list, say): a rejection we did not foresee.
    // The service's long form: (line:col) with the column in UTF-8 bytes (`é` is two), and carets.
    const message = `Filter parsing error (1:37):\nip.src.country == "é" or ip.src in $office_networks\n${' '.repeat(36)}${'^'.repeat(16)} unknown list`;
    const files = {
      json: `{"id": "${r.id}", "name": "${r.name}", "kind": "custom", "phase": "magic_transit", "rules": [\n  {"action": "block", "expression": "true"},\n  {"action": "block", "expression": "ip.src.country == \\"\\u00e9\\" or ip.src in $office_networks"}\n]}\n`,
      yaml: `id: ${r.id}\nname: ${r.name}\nkind: custom\nphase: magic_transit\nrules:\n  - action: block\n    expression: "true"\n  - action: block\n    expression: >-\n      ip.src.country == "é"\n      or ip.src in $office_networks\n`,
    };
    for (const [format, text] of Object.entries(files)) {
      emulator.faults.push({
        method: 'PUT',
        path: /dry_run=true/,
        respond: { status: 400, body: { result: null, success: false, errors: [{ code: 20021, message, source: { pointer: '/rules/1/expression' } }], messages: [] } },
      });
      const local = readLocalRuleset(`f.${format}`, text);
      const writesBefore = writes().length;
      const plan = await planDeploy(client, local);
      assert.equal(plan.dryRunError?.status, 400, format);
      assert.equal(plan.serviceProblems.length, 1);
      const problem = plan.serviceProblems[0];
      assert.equal(problem.message, message);
      assert.equal(text.slice(problem.start, problem.end), '$office_networks', format);
      await assert.rejects(applyDeploy(client, local, plan), /not deployed: the service rejected it: 400 Bad Request from PUT/);
      assert.equal(writes().length, writesBefore, 'nothing written');
    }
  });

  it('maps a rejection of the emulator itself (a rule id the ruleset does not have) to that id', async () => {
    const r = await custom([BLOCK_TCP]);
    const text = `{\n  "id": "${r.id}",\n  "name": "${r.name}",\n  "kind": "custom",\n  "phase": "magic_transit",\n  "rules": [\n    {"id": "nope", "action": "block", "expression": "true"}\n  ]\n}\n`;
    const local = readLocalRuleset('ids.json', text);
    const plan = await planDeploy(client, local);
    assert.equal(plan.dryRunError?.errors[0].pointer, '/rules/0/id');
    assert.equal(text.slice(plan.serviceProblems[0].start, plan.serviceProblems[0].end), '"nope"');
    assert.deepEqual(mapServiceProblems(plan.dryRunError!, local), plan.serviceProblems);
  });

  it('leaves the remote as it was when the real write fails with a 500, and says so', async () => {
    const r = await custom();
    const local = await pulled(r.id);
    const edited = readLocalRuleset(local.path, local.text.replace('description: ssh', 'description: changed'));
    const plan = await planDeploy(client, edited);
    emulator.faults.push({ method: 'PUT', path: /^[^?]*$/, respond: { status: 500 } });
    const error = await applyDeploy(client, edited, plan).then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof DeployOutcomeUnknownError, String(error));
    assert.equal(error.landed, false);
    assert.equal(error.live, '1');
    assert.match(error.message, /^500 Internal Server Error from PUT .*; ruleset \w+ is still at version 1: nothing was deployed; pulled\.yaml was not changed; try again$/);
    assert.equal(emulator.state.latest(r.id)!.version, '1');
  });

  it('says the change most likely went through when the write landed although the answer was a 500', async () => {
    const r = await custom();
    const local = await pulled(r.id);
    const edited = readLocalRuleset(local.path, local.text.replace('description: ssh', 'description: changed'));
    const plan = await planDeploy(client, edited);
    emulator.faults.push({ method: 'PUT', path: /^[^?]*$/, respond: { status: 500 }, after: true });
    const error = await applyDeploy(client, edited, plan).catch((e: unknown) => e);
    assert.ok(error instanceof DeployOutcomeUnknownError);
    assert.equal(error.landed, true);
    assert.equal(error.live, '2');
    assert.match(error.message, /yet version 2 is live now \(it was version 1\): the change most likely went through; pulled\.yaml was not changed/);
    assert.equal(emulator.state.latest(r.id)!.rules[0].description, 'changed', 'the remote is as asked');
  });

  it('says the file\'s id was not found, and what to do', async () => {
    const local = readLocalRuleset('gone.yaml', `id: ${'d'.repeat(32)}\nname: n\nkind: custom\nphase: magic_transit\nversion: "1"\nrules: []\n`);
    await assert.rejects(planDeploy(client, local), /gone\.yaml: ruleset d+ \(the file's `id`\) was not found at 127\.0\.0\.1:\d+; .*rulesets create gone\.yaml/);
  });
});

describe('planCreate and applyCreate', () => {
  it('creates the ruleset and records its id, version and rule ids in the file', async () => {
    const text = '# new\nname: created\nkind: custom\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.proto == "tcp"\n  - {action: block, expression: ip.proto == "udp"}\n';
    const local = readLocalRuleset('new.yaml', text);
    const plan = await planCreate(client, local);
    assert.deepEqual(plan.localProblems, []);
    assert.equal(plan.dryRunError, undefined);
    assert.match(plan.diff, /^--- \(nothing\)\n\+\+\+ new\.yaml\n@@ -0,0 /);
    const { ruleset, newText } = await applyCreate(client, local, plan);
    assert.equal(ruleset.version, '1');
    assert.ok(newText.startsWith('# new\n'));
    const recorded = readLocalRuleset('new.yaml', newText);
    assert.equal(recorded.id, ruleset.id);
    assert.equal(recorded.version, '1');
    assert.deepEqual(
      recorded.body.rules.map((rule) => rule.id),
      ruleset.rules.map((rule) => rule.id),
    );
    const next = await planDeploy(client, recorded);
    assert.equal(next.diff, '', next.diff);
    assert.throws(() => destinationOf(local), /create it first/);
    await assert.rejects(planCreate(client, recorded), /new\.yaml: the file has `id: \w+`, so it is deployed already: use `rulesets deploy new\.yaml`/);
  });

  it('creates from a copy of a pulled file without its id: the old rule ids are replaced', async () => {
    const r = await custom([BLOCK_TCP]);
    const copy = (await pulled(r.id, 'json')).text.replace(/ {2}"id": "\w+",\n/, '').replace(/ {2}"version": "\d+",\n/, '');
    const local = readLocalRuleset('copy.json', copy);
    assert.equal(local.id, undefined);
    const { ruleset, newText } = await applyCreate(client, local, await planCreate(client, local));
    assert.notEqual(ruleset.id, r.id);
    const recorded = readLocalRuleset('copy.json', newText);
    assert.equal(recorded.body.rules[0].id, ruleset.rules[0].id);
    assert.notEqual(recorded.body.rules[0].id, r.rules[0].id);
  });

  it('stops at a local error before any request', async () => {
    const requests = emulator.requests.length;
    const local = readLocalRuleset('bad.json', '{"name": "n", "kind": "custom", "phase": "magic_transit", "rules": [{"action": "block", "expression": "tcp.dstport in {22, 443}"}]}');
    const plan = await planCreate(client, local);
    assert.equal(plan.localProblems[0].code, 'comma-in-set');
    await assert.rejects(applyCreate(client, local, plan), /bad\.json: not created: the check found errors/);
    assert.equal(emulator.requests.length, requests);
  });
});

describe('an HTTP phase entry point in a zone (issue 22)', () => {
  let zones = 0;
  function zoneClient(): TestClient {
    return makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: `workflow-zone-${++zones}` } });
  }
  const httpFamilies = PHASE_FAMILIES.filter((f) => f.level === 'zone');

  for (const family of httpFamilies) {
    it(`deploys ${family.phase} (${family.family}): checked clean, dry run, diff, deploy; a pull gives the file back and nothing more to deploy`, async () => {
      const c = zoneClient();
      for (const format of ['json', 'yaml'] as const) {
        const path = `${family.phase}.${format}`;
        const body = entryPointFile(family);
        const local = readLocalRuleset(path, format === 'json' ? `${JSON.stringify(body, null, 2)}\n` : YAML.stringify(body));
        const plan = await planDeploy(c, local);
        assert.deepEqual(plan.destination, { kind: 'entrypoint', phase: family.phase });
        assert.deepEqual(plan.localProblems.filter((p) => p.severity === 'error'), [], path);
        assert.equal(plan.dryRunError, undefined, plan.dryRunError?.message);
        if (format === 'json') {
          assert.equal(plan.deployed, undefined);
          assert.match(plan.diff, new RegExp(`^--- the ${family.phase} entry point \\(does not exist yet\\)\\n`));
          await assert.rejects(c.getEntryPoint(family.phase), /404/, 'the dry run stored nothing');
        }
        const { ruleset, newText } = await applyDeploy(c, local, plan, { force: format === 'yaml' });
        assert.deepEqual([ruleset.kind, ruleset.phase], ['zone', family.phase]);
        const recorded = readLocalRuleset(path, newText);
        // The service fills in `enabled`; everything else is the file's.
        assert.deepEqual(rulesetToBody(await c.getEntryPoint(family.phase)).rules, recorded.body.rules.map((rule) => ({ enabled: true, ...rule })), 'the live rules are the file\'s, parameters and all');
        assert.equal((await planDeploy(c, recorded)).diff, '', 'nothing left to deploy');
      }
    });
  }

  it('stops before overwriting a change someone else deployed to the zone entry point since the file\'s version', async () => {
    const c = zoneClient();
    const redirect = httpFamilies.find((f) => f.family === 'redirect')!;
    const local = readLocalRuleset('redirects.json', `${JSON.stringify(entryPointFile(redirect), null, 2)}\n`);
    const first = await applyDeploy(c, local, await planDeploy(c, local));
    const mine = readLocalRuleset('redirects.json', first.newText.replace('"status_code": 301', '"status_code": 308'));
    // Someone else deploys a second redirect meanwhile.
    await c.updateRuleset({ phase: redirect.phase }, { rules: [...first.ruleset.rules.map((r) => ({ id: r.id, action: r.action, expression: r.expression, action_parameters: r.action_parameters })), { ...redirect.rule, expression: 'http.request.uri.path eq "/other"' }] });
    const plan = await planDeploy(c, mine);
    assert.deepEqual(plan.conflict, { base: '1', current: '2' });
    assert.match(plan.diff, /^- +"expression": "http\.request\.uri\.path eq \\"\/other\\"",?$/m, 'the diff shows the other redirect being undone');
    await assert.rejects(applyDeploy(c, mine, plan), /is based on version 1 of the http_request_dynamic_redirect entry point, but version 2 is live/);
    assert.equal((await c.getEntryPoint(redirect.phase)).version, '2', 'not overwritten');
  });

  it('refuses a zone file sent to an account, and an account\'s root file sent to a zone, before any request', async () => {
    const firewall = httpFamilies[0];
    const zoneFile = readLocalRuleset('zone.yaml', YAML.stringify(entryPointFile(firewall)));
    const rootFile = readLocalRuleset('root.yaml', YAML.stringify({ ...entryPointFile(firewall), kind: 'root' }));
    const requests = emulator.requests.length;
    await assert.rejects(planDeploy(freshClient(), zoneFile), /^WorkflowError: zone\.yaml:2:7: `kind: zone` is a zone's entry point, but the API commands work on account workflow-\d+: choose a zone \(--zone ID or RULESETS_ZONE_ID; in VS Code, Rulesets: Choose Account or Zone\), or make the file `kind: root`/);
    await assert.rejects(planCreate(freshClient(), zoneFile), /`kind: zone` is a zone's entry point/);
    await assert.rejects(planDeploy(zoneClient(), rootFile), /root\.yaml:2:7: `kind: root` is an account's entry point, but the API commands work on zone workflow-zone-\d+: choose an account \(--account ID or RULESETS_ACCOUNT_ID/);
    assert.equal(emulator.requests.length, requests, 'no request');
  });

  it('places a service rejection inside action_parameters on that value, in JSON and YAML', async () => {
    const c = zoneClient();
    const redirect = httpFamilies.find((f) => f.family === 'redirect')!;
    const transform = httpFamilies.find((f) => f.phase === 'http_request_transform')!;
    const cases = [
      // A value the service refuses, by the pointer of its key.
      { family: redirect, pointer: '/rules/0/action_parameters/from_value/status_code', message: 'status_code: 301 is not allowed here', expected: '301' },
      // An expression a parameter holds: the (line:col) narrows to the characters inside it.
      { family: transform, pointer: '/rules/0/action_parameters/uri/path/expression', message: 'Filter parsing error (1:15): unknown identifier', expected: 'h' },
    ];
    for (const { family, pointer, message, expected } of cases) {
      const body = entryPointFile(family);
      for (const [format, text] of [['json', `${JSON.stringify(body, null, 2)}\n`], ['yaml', YAML.stringify(body)]] as const) {
        emulator.faults.push({ method: 'PUT', path: /dry_run=true/, respond: { status: 400, body: { result: null, success: false, errors: [{ code: 20021, message, source: { pointer } }], messages: [] } } });
        const local = readLocalRuleset(`f.${format}`, text);
        const plan = await planDeploy(c, local);
        assert.equal(plan.dryRunError?.errors[0].pointer, pointer);
        const [problem] = plan.serviceProblems;
        assert.equal(text.slice(problem.start, problem.end), expected, `${format} ${pointer}`);
        const line = text.slice(0, problem.start).split('\n').pop()!;
        assert.match(line, pointer.endsWith('expression') ? /expression/ : /status_code/, `${format}: on the line of the key`);
        await assert.rejects(applyDeploy(c, local, plan), /not deployed: the service rejected it/);
      }
    }
  });
});

describe('an entry point file of `phase` and `rules` alone (the PUT body real repositories keep)', () => {
  let zones = 0;
  function zoneClient(fetchFn?: typeof fetch): TestClient {
    return makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: `entry-body-zone-${++zones}` }, ...(fetchFn ? { fetch: fetchFn } : {}) });
  }
  /** The bodies of the PUTs a client sends (dry runs and writes). */
  function watched(): { bodies: Record<string, unknown>[]; fetch: typeof fetch } {
    const bodies: Record<string, unknown>[] = [];
    return {
      bodies,
      fetch: (url, init) => {
        if (init?.method === 'PUT') bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
        return fetch(url, init);
      },
    };
  }
  const FIREWALL = 'phase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.request.uri.path eq "/admin"\n    description: no admin\n';

  it('deploys to a zone entry point that does not exist yet, sending no name or kind; the service names it; then nothing is left to deploy', async () => {
    const watch = watched();
    const c = zoneClient(watch.fetch);
    const local = readLocalRuleset('firewall.yaml', FIREWALL);
    const plan = await planDeploy(c, local);
    assert.deepEqual(plan.destination, { kind: 'entrypoint', phase: 'http_request_firewall_custom' });
    assert.equal(plan.dryRunError, undefined, plan.dryRunError?.message);
    assert.match(plan.diff, /^--- the http_request_firewall_custom entry point \(does not exist yet\)\n\+\+\+ firewall\.yaml\n/);
    assert.doesNotMatch(plan.diff, /name:|kind:/, 'a name or kind the file does not give is no part of the diff');
    const { ruleset, newText } = await applyDeploy(c, local, plan);
    assert.deepEqual([ruleset.name, ruleset.kind, ruleset.phase], ['default', 'zone', 'http_request_firewall_custom'], 'the service names a new entry point');
    assert.deepEqual(emulator.state.latest(ruleset.id)!.rules.map((r) => [r.expression, r.description]), [['http.request.uri.path eq "/admin"', 'no admin']]);
    assert.equal(watch.bodies.length, 2, 'the dry run and the write');
    for (const body of watch.bodies) assert.deepEqual(Object.keys(body).sort(), ['phase', 'rules'], 'no name or kind sent');
    const recorded = readLocalRuleset('firewall.yaml', newText);
    assert.equal(recorded.version, '1');
    assert.ok(!/^(name|kind):/m.test(newText), 'the file still gives no name or kind');
    const again = await planDeploy(c, recorded);
    assert.equal(again.diff, '', 'nothing left to deploy');
    assert.equal(again.conflict, undefined);
  });

  it('deploys to an existing zone entry point: the rules are the file\'s, its name and kind stay the live ones, never compared or sent', async () => {
    const watch = watched();
    const c = zoneClient(watch.fetch);
    const live = await c.updateRuleset({ phase: 'http_request_firewall_custom' }, { name: 'zone firewall', description: 'managed by the security team', rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.1' }] });
    watch.bodies.length = 0;
    const local = readLocalRuleset('firewall.yaml', FIREWALL);
    const plan = await planDeploy(c, local);
    assert.equal(plan.deployed?.version, '1');
    assert.equal(plan.dryRunError, undefined, plan.dryRunError?.message);
    assert.ok(plan.diff.includes('-    expression: ip.src eq 192.0.2.1\n'), plan.diff);
    assert.doesNotMatch(plan.diff, /^[-+](name|kind|description):/m, 'only the rules change');
    const { ruleset, newText } = await applyDeploy(c, local, plan);
    assert.equal(ruleset.id, live.id);
    const held = emulator.state.latest(live.id)!;
    assert.deepEqual([held.name, held.kind, held.description, held.version], ['zone firewall', 'zone', 'managed by the security team', '2']);
    assert.deepEqual(held.rules.map((r) => r.expression), ['http.request.uri.path eq "/admin"']);
    for (const body of watch.bodies) assert.deepEqual(Object.keys(body).sort(), ['rules']);
    const again = await planDeploy(c, readLocalRuleset('firewall.yaml', newText));
    assert.equal(again.diff, '', 'nothing left to deploy');
  });

  it('sends the description the file gives', async () => {
    const c = zoneClient();
    await c.updateRuleset({ phase: 'http_request_firewall_custom' }, { name: 'zone firewall', rules: [] });
    const local = readLocalRuleset('firewall.yaml', `description: from the repository\n${FIREWALL}`);
    const plan = await planDeploy(c, local);
    assert.ok(plan.diff.includes('+description: from the repository\n'), plan.diff);
    const { ruleset } = await applyDeploy(c, local, plan);
    assert.deepEqual([ruleset.name, ruleset.description], ['zone firewall', 'from the repository']);
  });

  it('deploys to an account\'s entry point, of kind root', async () => {
    const c = freshClient();
    const local = readLocalRuleset('mt.json', '{"phase": "magic_transit", "rules": [{"action": "block", "expression": "ip.proto == \\"tcp\\""}]}\n');
    const { ruleset, newText } = await applyDeploy(c, local, await planDeploy(c, local));
    assert.deepEqual([ruleset.kind, ruleset.phase, ruleset.name], ['root', 'magic_transit', 'default']);
    assert.equal((await c.getEntryPoint('magic_transit')).rules[0].expression, 'ip.proto == "tcp"');
    assert.equal((await planDeploy(c, readLocalRuleset('mt.json', newText))).diff, '');
  });

  it('keeps the checks of a name or kind the file gives, and of a file that says nothing of where it goes', async () => {
    const c = zoneClient();
    await c.updateRuleset({ phase: 'http_request_firewall_custom' }, { name: 'zone firewall', rules: [] });
    const sent = () => emulator.requests.filter((q) => q.method !== 'GET').length;
    const sentBefore = sent();
    await assert.rejects(planDeploy(c, readLocalRuleset('n.yaml', `name: mine\n${FIREWALL}`)), /^WorkflowError: n\.yaml:1:7: not deployed: `name` is "mine" in the file but "zone firewall" on the http_request_firewall_custom entry point/);
    await assert.rejects(planDeploy(freshClient(), readLocalRuleset('k.yaml', `kind: zone\n${FIREWALL}`)), /^WorkflowError: k\.yaml:1:7: `kind: zone` is a zone's entry point, but the API commands work on account/);
    assert.equal(sent(), sentBefore, 'nothing written, no dry run');
    assert.throws(() => readLocalRuleset('c.yaml', FIREWALL, { create: true }), /^WorkflowError: c\.yaml:1:1: a new ruleset needs `name`, `kind` and `phase` \(`POST …\/rulesets` requires them\), and the file has no `name` or `kind`: add `name: …`, `kind: …` at the top level; nothing was sent$/);
    assert.throws(() => readLocalRuleset('x.yaml', 'rules: []\n'), /cannot tell where this ruleset goes/);
  });
});
