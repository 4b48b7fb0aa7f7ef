/**
 * `rulesets plan --terraform-plan`: Terraform's JSON plan of its `cloudflare_ruleset` resources
 * read rule by rule. What a user relies on: a reorder reads as moves (never the list replaced),
 * a rule whose id the provider will change says so, values known only after apply are not
 * shown as some other value, and a replacement says it is one and why. The fixtures under
 * test/fixtures/terraform-plan are written by hand after HashiCorp's "JSON Output Format"
 * (no provider can be downloaded here to make a real one).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planJson, planText } from '../../server/src/api/plan-output';
import { terraformPlanOf, TerraformPlanError } from '../../server/src/api/terraform-plan';

const FIXTURES = join(__dirname, '..', 'fixtures', 'terraform-plan');
const ZONE = '0123456789abcdef0123456789abcdef';

function fixture(name: string) {
  return terraformPlanOf(readFileSync(join(FIXTURES, name), 'utf8'), name);
}

/** A v5 rule as the state holds it: unset attributes null, the ref the id unless set. */
function stateRule(id: string, expression: string, ref?: string): Record<string, unknown> {
  return { id, ref: ref ?? id, action: 'block', expression, description: '', enabled: true, action_parameters: null, exposed_credential_check: null, logging: null, ratelimit: null };
}

function ruleset(rules: unknown[], fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'f'.repeat(32), zone_id: ZONE, account_id: null, kind: 'zone', name: 'default', phase: 'http_request_firewall_custom', description: '', rules, version: '3', ...fields };
}

function planOf(changes: { address?: string; actions: string[]; before: unknown; after: unknown; after_unknown?: unknown; replace_paths?: unknown }[]): string {
  return JSON.stringify({
    format_version: '1.2',
    resource_changes: changes.map((c) => ({ address: c.address ?? 'cloudflare_ruleset.waf', mode: 'managed', type: 'cloudflare_ruleset', name: 'waf', change: { actions: c.actions, before: c.before, after: c.after, after_unknown: c.after_unknown ?? {}, ...(c.replace_paths ? { replace_paths: c.replace_paths } : {}) } })),
  });
}

function onlyRuleset(plan: ReturnType<typeof terraformPlanOf>) {
  const rulesets = plan.targets.flatMap((t) => t.rulesets);
  assert.equal(rulesets.length, 1);
  return rulesets[0];
}

describe('a Terraform plan, rule by rule', () => {
  it('shows a reordered ruleset as moves, not a replacement (the issue’s done-when)', () => {
    const plan = fixture('reordered-v5.json');
    const r = onlyRuleset(plan);
    assert.equal(r.label, 'cloudflare_ruleset.waf');
    assert.equal(r.note, undefined, 'an update, not a replacement');
    assert.deepEqual({ add: r.counts.add, remove: r.counts.remove, change: r.counts.change, move: r.counts.move }, { add: 0, remove: 0, change: 0, move: 1 });
    const moved = r.rules.filter((rule) => rule.action === 'move');
    assert.deepEqual(moved.map((rule) => [rule.name, rule.from, rule.to, rule.matchedBy]), [['allow_office', 3, 1, 'ref']]);
    // Matched by ref, the provider keeps each id (ModifyPlan): no id change is shown.
    assert.ok(r.rules.every((rule) => rule.fields.every((f) => f.path !== 'id')));
    const text = planText(plan);
    assert.match(text, /↕ allow_office, moved 3 → 1/);
    assert.doesNotMatch(text, /^\s*[+-] /m, 'no rule added or removed');
    assert.match(text, /Plan: 0 to add, 0 to change, 1 to move, 0 to remove/);
  });

  it('matches rules without ref by content and says the provider gives them new ids', () => {
    const a = stateRule('a'.repeat(32), 'http.host eq "a.example"');
    const b = stateRule('b'.repeat(32), 'http.host eq "b.example"');
    const c = stateRule('c'.repeat(32), 'http.host eq "c.example"');
    const unnamed = (rule: Record<string, unknown>) => ({ ...rule, id: null, ref: null });
    const plan = terraformPlanOf(planOf([{ actions: ['update'], before: ruleset([a, b, c]), after: ruleset([unnamed(c), unnamed(a), unnamed(b)], { version: null }), after_unknown: { rules: [{ id: true, ref: true }, { id: true, ref: true }, { id: true, ref: true }], version: true } }]), 'plan.json');
    const r = onlyRuleset(plan);
    assert.equal(r.counts.add + r.counts.remove, 0, 'a reorder of rules without ref is no removal and addition either');
    assert.equal(r.counts.move, 1);
    assert.deepEqual(r.rules.map((rule) => [rule.id, rule.matchedBy, rule.moved, rule.fields.map((f) => `${f.path}:${String(f.old)}:${f.unknown}`)]), [
      ['c'.repeat(32), 'content', true, [`id:${'c'.repeat(32)}:true`]],
      ['a'.repeat(32), 'content', false, [`id:${'a'.repeat(32)}:true`]],
      ['b'.repeat(32), 'content', false, [`id:${'b'.repeat(32)}:true`]],
    ]);
    assert.match(planText(plan), new RegExp(`~ id: "${'c'.repeat(32)}" → \\(known after apply\\)`));
  });

  it('reads v4’s blocks in the API’s shape: one-item lists as objects, headers by name', () => {
    const plan = fixture('blocks-v4.json');
    const r = onlyRuleset(plan);
    assert.equal(r.label, 'module.edge.cloudflare_ruleset.transform');
    const changed = r.rules.find((rule) => rule.action === 'change');
    assert.deepEqual(changed?.fields, [{ path: 'action_parameters.headers.X-Env.value', old: 'prod', new: 'staging' }]);
    assert.deepEqual(r.rules.filter((rule) => rule.moved).map((rule) => rule.name), ['second']);
  });

  it('tells a value known only after apply from a change to some value', () => {
    const a = stateRule('a'.repeat(32), 'ip.src eq 192.0.2.1', 'office');
    const plan = terraformPlanOf(planOf([{ actions: ['update'], before: ruleset([a]), after: ruleset([{ ...a, expression: null }]), after_unknown: { rules: [{ expression: true }] } }]), 'plan.json');
    const rule = onlyRuleset(plan).rules[0];
    assert.equal(rule.action, 'change');
    assert.deepEqual(rule.fields, [{ path: 'expression', old: 'ip.src eq 192.0.2.1', unknown: true }]);
    assert.match(planText(plan), /~ expression: "ip\.src eq 192\.0\.2\.1" → \(known after apply\)/);
    const json = JSON.parse(planJson(plan));
    assert.deepEqual(json.targets[0].rulesets[0].rules[0].fields, [{ path: 'expression', old: 'ip.src eq 192.0.2.1', unknown: true }]);
  });

  it('shows an added rule’s value known only after apply as such', () => {
    const a = stateRule('a'.repeat(32), 'true', 'kept');
    const added = { ...stateRule('', 'x', 'allowlist'), id: null, expression: null };
    const plan = terraformPlanOf(planOf([{ actions: ['update'], before: ruleset([a]), after: ruleset([a, added]), after_unknown: { rules: [{}, { id: true, expression: true }] } }]), 'plan.json');
    const rule = onlyRuleset(plan).rules.find((r) => r.action === 'add');
    assert.deepEqual(rule?.fields.find((f) => f.path === 'expression'), { path: 'expression', unknown: true });
    assert.match(planText(plan), /^ {8}expression: \(known after apply\)$/m);
  });

  it('shows a ruleset description known only after apply as such, not as cleared', () => {
    const rules = [stateRule('a'.repeat(32), 'true', 'kept')];
    const plan = terraformPlanOf(planOf([{ actions: ['update'], before: ruleset(rules, { description: 'old words' }), after: ruleset(rules, { description: null }), after_unknown: { description: true } }]), 'plan.json');
    assert.deepEqual(onlyRuleset(plan).settings, [{ path: 'description', old: 'old words', unknown: true }]);
    assert.match(planText(plan), /~ ruleset description: "old words" → \(known after apply\)/);
  });

  it('skips a resource whose rules as a whole are known only after apply, with why', () => {
    const plan = terraformPlanOf(planOf([{ actions: ['update'], before: ruleset([stateRule('a'.repeat(32), 'true')]), after: ruleset([], { rules: null }), after_unknown: { rules: true } }]), 'plan.json');
    assert.equal(plan.targets[0].rulesets.length, 0);
    assert.match(plan.targets[0].skipped[0].reason, /known only after apply/);
  });

  it('says a replacement is one, why (replace_paths), and that every rule gets a new id', () => {
    const plan = fixture('mixed-v5.json');
    const replaced = plan.targets.flatMap((t) => t.rulesets).find((r) => r.label === 'cloudflare_ruleset.moved_zone');
    assert.match(replaced?.note ?? '', /^replaced \(the ruleset is destroyed, then created anew, because `zone_id` changes\): every rule gets a new id$/);
    assert.deepEqual(replaced?.rules.map((rule) => rule.fields.map((f) => [f.path, f.unknown])), [[['id', true]]]);
    assert.match(planText(plan), /cloudflare_ruleset\.moved_zone\) → zone fedcba9876543210fedcba9876543210, the http_ratelimit entry point: replaced/);
    assert.match(planJson(plan), /"note": "replaced/);
  });

  it('says why from action_reason where replace_paths is silent, and names a deposed object', () => {
    const rules = [stateRule('a'.repeat(32), 'true', 'r')];
    const text = JSON.stringify({
      format_version: '1.2',
      resource_changes: [
        { address: 'cloudflare_ruleset.tainted', mode: 'managed', type: 'cloudflare_ruleset', action_reason: 'replace_because_tainted', change: { actions: ['delete', 'create'], before: ruleset(rules), after: ruleset(rules, { id: null }), after_unknown: { id: true, rules: [{ id: true }] } } },
        { address: 'cloudflare_ruleset.old', mode: 'managed', type: 'cloudflare_ruleset', deposed: '00000001', action_reason: 'delete_because_no_resource_config', change: { actions: ['delete'], before: ruleset(rules, { phase: 'http_request_origin' }), after: null } },
        { address: 'cloudflare_ruleset.other', mode: 'managed', type: 'cloudflare_ruleset', action_reason: 'some_future_reason', change: { actions: ['delete', 'create'], before: ruleset(rules, { phase: 'http_ratelimit' }), after: ruleset(rules, { phase: 'http_ratelimit' }) } },
      ],
    });
    const notes = terraformPlanOf(text, 'plan.json').targets.flatMap((t) => t.rulesets.map((r) => [r.label, r.note]));
    assert.deepEqual(notes, [
      ['cloudflare_ruleset.tainted', 'replaced (the ruleset is destroyed, then created anew, because it is tainted): every rule gets a new id'],
      ['cloudflare_ruleset.old (deposed object 00000001)', 'destroyed because the configuration no longer has it: every rule of http_request_origin goes'],
      ['cloudflare_ruleset.other', 'replaced (the ruleset is destroyed, then created anew): every rule gets a new id'],
    ]);
  });

  it('shows a created ruleset as every rule added, a destroyed one as every rule removed, and counts one left as it is', () => {
    const plan = fixture('mixed-v5.json');
    const byLabel = new Map(plan.targets.flatMap((t) => t.rulesets).map((r) => [r.label, r]));
    const created = byLabel.get('cloudflare_ruleset.new')!;
    assert.equal(created.note, 'created');
    assert.deepEqual(created.rules.map((r) => [r.action, r.name]), [['add', 'n1']]);
    const gone = byLabel.get('cloudflare_ruleset.gone')!;
    assert.match(gone.note ?? '', /^destroyed/);
    assert.deepEqual(gone.rules.map((r) => [r.action, r.name]), [['remove', 'g1']]);
    const same = byLabel.get('cloudflare_ruleset.same')!;
    assert.equal(same.rules.every((r) => r.action === 'unchanged'), true);
    assert.match(planText(plan), /^1 ruleset is as its file says\.$/m);
    // Another resource type is not a ruleset.
    assert.equal(byLabel.has('cloudflare_zone.z'), false);
    // An account-level ruleset goes under its account.
    assert.deepEqual(plan.targets.find((t) => t.rulesets.some((r) => r.label === 'cloudflare_ruleset.account_waf'))?.target.scope, { kind: 'account', id: 'abcdef0123456789abcdef0123456789' });
  });

  it('has nothing to do when every resource is a no-op', () => {
    const rules = [stateRule('a'.repeat(32), 'true', 'keep')];
    const plan = terraformPlanOf(planOf([{ actions: ['no-op'], before: ruleset(rules), after: ruleset(rules) }]), 'plan.json');
    assert.equal(plan.changes, false);
    assert.equal(onlyRuleset(plan).counts.unchanged, 1);
  });

  it('refuses what is not a JSON plan, naming the file and how to make one', () => {
    assert.throws(() => terraformPlanOf('not json', 'tfplan'), (e: unknown) => e instanceof TerraformPlanError && /^tfplan: not JSON .*terraform show -json PLANFILE/.test(e.message));
    assert.throws(() => terraformPlanOf('{"version": 4, "resources": []}', 'terraform.tfstate'), (e: unknown) => e instanceof TerraformPlanError && /^terraform\.tfstate: not a Terraform plan in JSON/.test(e.message));
    assert.throws(() => terraformPlanOf('{"format_version": "2.0", "resource_changes": []}', 'p.json'), /newer than this version reads/);
  });
});
