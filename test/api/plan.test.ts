/**
 * The plan's diff of one ruleset, rule by rule: what a user reads before a deploy, so each kind
 * of change must be told for what it is — a reorder as moves of the fewest rules, never a
 * removal and an addition; a live rule no file holds kept unless the phase is owned.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '../../server/src/api/client';
import type { Emulator } from '../../server/src/api/emulator';
import { diffHasChanges, diffRuleset, planTargets } from '../../server/src/api/plan';
import type { Rule, RuleInput, Ruleset } from '../../server/src/api/types';
import { makeClient, startTestEmulator } from './harness';
import { loadTerraformParser } from '../../server/src/documents/terraform';

function liveRule(id: string, fields: Partial<Rule> = {}): Rule {
  return { id, version: '1', ref: id, action: 'block', expression: `http.host eq "${id}.example"`, description: id, enabled: true, last_updated: '2026-01-01T00:00:00Z', ...fields };
}

function live(rules: Rule[], description = ''): Ruleset {
  return { id: 'rs', name: 'zone', kind: 'zone', phase: 'http_request_firewall_custom', version: '4', description, last_updated: '2026-01-01T00:00:00Z', rules } as Ruleset;
}

/** A local rule as the file gives it: the live one's fields, without what the service sets (a ref that is the id left out, as the reader does). */
function asLocal(rule: Rule, fields: Partial<RuleInput> = {}): RuleInput {
  const { version: _v, last_updated: _l, ref, ...rest } = rule;
  return { ...(ref !== rule.id ? { ref } : {}), ...rest, ...fields };
}

const A = liveRule('a');
const B = liveRule('b');
const C = liveRule('c');
const D = liveRule('d');
const E = liveRule('e');

function actions(diff: ReturnType<typeof diffRuleset>): string[] {
  return diff.rules.map((r) => `${r.action}${r.moved && r.action !== 'move' ? '+moved' : ''} ${r.name}`);
}

describe('the plan of one ruleset', () => {
  it('the same rules in the same order: nothing to do', () => {
    const diff = diffRuleset({ rules: [A, B, C].map((r) => asLocal(r)) }, live([A, B, C]));
    assert.deepEqual(actions(diff), ['unchanged a', 'unchanged b', 'unchanged c']);
    assert.equal(diffHasChanges(diff), false);
  });

  it('a rule the file adds is added where the file has it; one it changes shows each field with old and new', () => {
    const added: RuleInput = { ref: 'new', action: 'log', expression: 'ip.src eq 192.0.2.1', description: 'new one' };
    const diff = diffRuleset({ rules: [asLocal(A), added, asLocal(B, { expression: 'http.host eq "b.example.org"', enabled: false, action_parameters: { response: { status_code: 403 } } })] }, live([A, { ...B, action_parameters: { response: { status_code: 429, content: 'x' } } }]));
    assert.deepEqual(actions(diff), ['unchanged a', 'add new', 'change b']);
    assert.deepEqual(diff.rules[1].fields, [
      { path: 'ref', new: 'new' },
      { path: 'action', new: 'log' },
      { path: 'expression', new: 'ip.src eq 192.0.2.1' },
      { path: 'description', new: 'new one' },
      { path: 'enabled', new: true },
    ]);
    assert.equal(diff.rules[1].to, 2);
    assert.deepEqual(diff.rules[2].fields, [
      { path: 'expression', old: 'http.host eq "b.example"', new: 'http.host eq "b.example.org"' },
      { path: 'enabled', old: true, new: false },
      { path: 'action_parameters.response.status_code', old: 429, new: 403 },
      { path: 'action_parameters.response.content', old: 'x' },
    ]);
    assert.deepEqual(diff.counts, { add: 1, change: 1, move: 0, remove: 0, unmanaged: 0, unchanged: 1 });
  });

  it('a reorder is moves of the fewest rules (a longest increasing subsequence stays), never a removal and an addition', () => {
    // e moved to the front: one move, not four.
    const diff = diffRuleset({ rules: [E, A, B, C, D].map((r) => asLocal(r)) }, live([A, B, C, D, E]));
    assert.deepEqual(actions(diff), ['move e', 'unchanged a', 'unchanged b', 'unchanged c', 'unchanged d']);
    assert.deepEqual(diff.counts, { add: 0, change: 0, move: 1, remove: 0, unmanaged: 0, unchanged: 4 });
    assert.deepEqual([diff.rules[0].from, diff.rules[0].to], [5, 1]);
    // Two swapped pairs: two moves.
    const swapped = diffRuleset({ rules: [B, A, D, C, E].map((r) => asLocal(r)) }, live([A, B, C, D, E]));
    assert.equal(swapped.counts.move, 2);
    assert.equal(swapped.counts.add + swapped.counts.remove, 0);
    // Reversed: all but one move.
    const reversed = diffRuleset({ rules: [E, D, C, B, A].map((r) => asLocal(r)) }, live([A, B, C, D, E]));
    assert.equal(reversed.counts.move, 4);
  });

  it('a rule both changed and moved counts once in each', () => {
    const diff = diffRuleset({ rules: [asLocal(C, { description: 'now first' }), asLocal(A), asLocal(B)] }, live([A, B, C]));
    assert.deepEqual(actions(diff), ['change+moved c', 'unchanged a', 'unchanged b']);
    assert.deepEqual([diff.counts.change, diff.counts.move], [1, 1]);
  });

  it('live rules no file holds are unmanaged: kept in place and listed, by default', () => {
    const diff = diffRuleset({ rules: [asLocal(A), asLocal(C)] }, live([A, B, C, D]));
    assert.deepEqual(actions(diff), ['unchanged a', 'unmanaged b', 'unchanged c', 'unmanaged d']);
    assert.equal(diffHasChanges(diff), false);
    assert.deepEqual(diff.written.map((r) => r.id), ['a', 'b', 'c', 'd']);
  });

  it('an unmanaged rule stays by the rules that keep their order, not by one that moved away', () => {
    // d follows c live; c moves to the front, d stays after b.
    const diff = diffRuleset({ rules: [asLocal(C), asLocal(A), asLocal(B)] }, live([A, B, C, D]));
    assert.deepEqual(actions(diff), ['move c', 'unchanged a', 'unchanged b', 'unmanaged d']);
    assert.deepEqual(diff.written.map((r) => r.id), ['c', 'a', 'b', 'd']);
  });

  it('in an owned phase, they are removed', () => {
    const diff = diffRuleset({ rules: [asLocal(A), asLocal(C)] }, live([A, B, C, D]), { owned: true });
    assert.deepEqual(actions(diff), ['unchanged a', 'remove b', 'unchanged c', 'remove d']);
    assert.deepEqual(diff.written.map((r) => r.id), ['a', 'c']);
    assert.equal(diff.counts.remove, 2);
    assert.ok(diff.rules[1].fields.some((f) => f.path === 'expression' && f.old === B.expression && !('new' in f)));
  });

  it('matches by ref first, then by id, then by content; matched rules keep their ids in what would be written', () => {
    const byRef = liveRule('id-1', { ref: 'allow-office' });
    const byId = liveRule('id-2');
    const byContent = liveRule('id-3', { description: 'same content' });
    const local: RuleInput[] = [
      // A new id but the live rule's ref: the rule is the same, changed.
      { ref: 'allow-office', action: 'skip', expression: byRef.expression, description: byRef.description },
      asLocal(byId, { description: 'renamed' }),
      { action: byContent.action, expression: byContent.expression, description: 'same content' },
    ];
    const diff = diffRuleset({ rules: local }, live([byRef, byId, byContent]), { owned: true });
    assert.deepEqual(diff.rules.map((r) => [r.action, r.matchedBy, r.id]), [
      ['change', 'ref', 'id-1'],
      ['change', 'id', 'id-2'],
      ['unchanged', 'content', 'id-3'],
    ]);
    assert.deepEqual(diff.rules[0].fields, [{ path: 'action', old: 'block', new: 'skip' }]);
    assert.deepEqual(diff.written.map((r) => r.id), ['id-1', 'id-2', 'id-3']);
    assert.equal(diff.counts.remove, 0);
  });

  it('a rule that names a ref no live rule has is added, even when another has its content', () => {
    const diff = diffRuleset({ rules: [{ ref: 'fresh', action: A.action, expression: A.expression, description: A.description }] }, live([A]));
    assert.deepEqual(actions(diff), ['unmanaged a', 'add fresh']);
  });

  it('an entry point that does not exist: every rule is added', () => {
    const diff = diffRuleset({ rules: [asLocal(A), asLocal(B)] }, undefined);
    assert.deepEqual(diff.counts, { add: 2, change: 0, move: 0, remove: 0, unmanaged: 0, unchanged: 0 });
  });

  it("the ruleset's description is a change; an octorules section's rules alone leave it", () => {
    const diff = diffRuleset({ description: 'new', rules: [asLocal(A)] }, live([A], 'old'));
    assert.deepEqual(diff.settings, [{ path: 'description', old: 'old', new: 'new' }]);
    assert.equal(diffHasChanges(diff), true);
    assert.deepEqual(diffRuleset({ rules: [asLocal(A)] }, live([A], 'old'), { rulesOnly: true }).settings, []);
    // A file that gives no description (an entry point's rules alone) leaves it too: the PUT does not send one.
    assert.deepEqual(diffRuleset({ rules: [asLocal(A)] }, live([A], 'old')).settings, []);
    assert.deepEqual(diffRuleset({ description: '', rules: [asLocal(A)] }, live([A], 'old')).settings, [{ path: 'description', old: 'old', new: '' }]);
  });

  it('defaults the service fills in are no change: a file that leaves out enabled or description', () => {
    const bare = liveRule('x', { description: '' });
    const diff = diffRuleset({ rules: [{ id: 'x', action: 'block', expression: bare.expression }] }, live([bare]));
    assert.deepEqual(actions(diff), ['unchanged x']);
  });

  it('a reorder of 20,000 rules is planned in well under a second (moves in n log n)', () => {
    const rules = Array.from({ length: 20_000 }, (_, i) => liveRule(`r${i}`));
    const local = rules.map((r) => asLocal(r)).reverse();
    const started = performance.now();
    const diff = diffRuleset({ rules: local }, live(rules));
    assert.equal(diff.counts.move, 19_999);
    assert.ok(performance.now() - started < 3000, `took ${performance.now() - started} ms`);
  });
});

describe('the plan of several targets', () => {
  let emulator: Emulator;
  let dir: string;
  before(async () => {
    emulator = await startTestEmulator();
    dir = mkdtempSync(join(tmpdir(), 'rulesets-plan-api-'));
  });
  after(async () => {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const waf = (rules: string) => `name: default\nkind: zone\nphase: http_request_firewall_custom\nrules:\n${rules}`;
  const clientFor = (scope: Scope) => makeClient(emulator.baseUrl, { scope });
  const read = (path: string) => readFileSync(path, 'utf8');

  it('plans each target against its own zone, in the order of the targets and their files, and writes nothing', async () => {
    const zoneA: Scope = { kind: 'zone', id: 'aaaa0000aaaa0000aaaa0000aaaa0000' };
    const zoneB: Scope = { kind: 'zone', id: 'bbbb0000bbbb0000bbbb0000bbbb0000' };
    await clientFor(zoneA).updateRuleset({ phase: 'http_request_firewall_custom' }, { rules: [{ ref: 'one', action: 'block', expression: 'ip.src eq 192.0.2.1' }] });
    const a = file('a.yaml', waf('  - ref: one\n    action: block\n    expression: ip.src eq 192.0.2.1\n'));
    const b = file('b.yaml', waf('  - ref: one\n    action: block\n    expression: ip.src eq 192.0.2.2\n'));
    const before = emulator.requests.length;
    const plan = await planTargets(
      [
        { scope: zoneA, label: 'a.example', files: [a] },
        { scope: zoneB, label: 'b.example', files: [b] },
      ],
      { clientFor, read },
    );
    assert.deepEqual(plan.targets.map((t) => [t.target.label, t.rulesets.map((r) => [r.file, r.liveVersion, r.counts.unchanged, r.counts.add])]), [
      ['a.example', [[a, '1', 1, 0]]],
      ['b.example', [[b, undefined, 0, 1]]],
    ]);
    assert.equal(plan.changes, true);
    assert.deepEqual(emulator.requests.slice(before).filter((r) => r.method !== 'GET'), []);
  });

  it('two files of one destination are merged into one ruleset, in the order of their paths; a missing ruleset of a file\'s id is an error; the others are still planned', async () => {
    const zone: Scope = { kind: 'zone', id: 'cccc0000cccc0000cccc0000cccc0000' };
    const first = file('first.yaml', waf('  - ref: x\n    action: block\n    expression: ip.src eq 192.0.2.3\n'));
    const second = file('second.yaml', waf('  - ref: y\n    action: block\n    expression: ip.src eq 192.0.2.4\n    before: x\n'));
    const gone = file('gone.yaml', 'id: 0123456789abcdef0123456789abcdef\nname: edge\nkind: custom\nphase: http_request_firewall_custom\nrules: []\n');
    const plan = await planTargets([{ scope: zone, label: 'c.example', files: [second, gone, first] }], { clientFor, read });
    assert.deepEqual(plan.targets[0].rulesets.map((r) => [r.file, r.files]), [[first, [first, second]]]);
    assert.deepEqual(plan.targets[0].rulesets[0].rules.map((r) => `${r.action} ${r.name}`), ['add y', 'add x']);
    // Our key is not sent.
    assert.deepEqual(plan.targets[0].rulesets[0].written.map((r) => Object.keys(r).sort().join(',')), ['action,expression,ref', 'action,expression,ref']);
    assert.equal(plan.errors, 1);
    assert.match(plan.targets[0].errors[0].message, /gone\.yaml: ruleset 0123456789abcdef0123456789abcdef \(the file's `id`\) was not found/);
  });

  it('a Terraform resource shares its entry point with no other file: an error on the other', async () => {
    await loadTerraformParser();
    const zone: Scope = { kind: 'zone', id: 'cccc0000cccc0000cccc0000cccc0001' };
    const yaml = file('rules.yaml', waf('  - ref: x\n    action: block\n    expression: ip.src eq 192.0.2.3\n'));
    const tf = file('main.tf', 'resource "cloudflare_ruleset" "waf" {\n  zone_id = "cccc0000cccc0000cccc0000cccc0001"\n  name    = "default"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n  rules = [{\n    ref        = "t"\n    action     = "block"\n    expression = "ip.src eq 192.0.2.9"\n  }]\n}\n');
    const plan = await planTargets([{ scope: zone, label: 'c.example', files: [yaml, tf] }], { clientFor, read });
    assert.deepEqual(plan.targets[0].rulesets, []);
    assert.match(plan.targets[0].errors.map((e) => e.message).join('\n'), /rules\.yaml deploys to the http_request_firewall_custom entry point, as .*main\.tf \(cloudflare_ruleset\.waf\) does, a Terraform resource that is the whole entry point/);
  });
});
