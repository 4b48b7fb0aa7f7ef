/**
 * The whole estate, end to end: one repository of 50 zones (most named in `targets:` by their
 * zone name, looked up through the API, a few by id), each with three phases from three formats
 * (a JSON WAF ruleset, a YAML transform ruleset, an octorules file placed by its file name),
 * planned and applied by the built CLI (`node dist/cli.js`) against the emulator. The plan is
 * pinned (every target's counts, and one zone's text exactly); a dashboard edit between the plan
 * and the apply is refused with nothing written; the apply writes each ruleset once, one audit
 * line a write, and leaves nothing to do; a dashboard edit after it is drift naming the rule; a
 * mass deletion stops at the thresholds until --allow-mass-change. The tests are one story, in
 * order, over one estate: each starts where the one before left it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Emulator } from '../../server/src/api/emulator';
import { makeClient, runCli, SECRETS, startTestEmulator, type CliRun } from '../api/harness';
import { REDIRECT, TRANSFORM, UNLIMITED, WAF } from '../api/estate';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface Zone {
  readonly index: number;
  readonly name: string;
  readonly id: string;
  /** Named by its id in `targets:` (its octorules file still by its name). */
  readonly byId: boolean;
  /** As plans and the apply name it: what `targets:` says. */
  readonly label: string;
}

const ZONES: readonly Zone[] = Array.from({ length: 50 }, (_, index) => {
  const name = `shop-${String(index).padStart(2, '0')}.example`;
  const id = `e57a7e${index.toString(16).padStart(4, '0')}`.padEnd(32, '0');
  const byId = index % 10 === 4;
  return { index, name, id, byId, label: byId ? id : name };
});

/** Rules of each zone's transform file and octorules redirects: they differ, so that a count in the wrong zone shows. */
const transforms = (z: Zone) => 1 + (z.index % 3);
const redirects = (z: Zone) => 1 + (z.index % 2);

/** The live WAF entry point before the first apply: two rules the file keeps and changes, and one added in the dashboard that no file holds. */
const LIVE_WAF = [
  { ref: 'office', description: 'The office only', action: 'block', expression: 'not ip.src in {203.0.113.0/24}' },
  { ref: 'bots', description: 'Block bad bots', action: 'block', expression: 'http.user_agent contains "BadBot"' },
  { ref: 'legacy', description: 'Added in the dashboard', action: 'log', expression: 'http.request.uri.path eq "/legacy"' },
];

/** waf.json: keeps office, changes bots (one more agent), adds admin. */
function wafRules(z: Zone) {
  return [
    LIVE_WAF[0],
    { ...LIVE_WAF[1], expression: `http.user_agent contains "BadBot" or http.user_agent contains "EvilBot-${z.index}"` },
    { ref: 'admin', description: 'Challenge the admin area', action: 'managed_challenge', expression: 'starts_with(http.request.uri.path, "/admin")' },
  ];
}

let emulator: Emulator;
let repo: string;
let gitConfig: string;

function cli(args: readonly string[]): Promise<CliRun> {
  // `who` of the audit log is USER and git's user.email: both fixed here.
  return runCli(CLI, args, repo, emulator.baseUrl, { USER: 'alice', GIT_CONFIG_GLOBAL: gitConfig, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' });
}

function writesSince(since: number): string[] {
  return emulator.requests.slice(since).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
}

function auditLines(): Record<string, unknown>[] {
  return readFileSync(join(repo, '.rulesets', 'audit.log'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
}

/** The blocks of a text plan (heading and its lines) whose heading names the zone. */
function sectionOf(text: string, label: string): string {
  return text
    .split('\n\n')
    .filter((block) => block.split('\n')[0].includes(` → zone ${label}, `))
    .join('\n\n');
}

const zoneClient = (z: Zone) => makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: z.id } });

/** A dashboard edit: one rule of the zone's WAF entry point changed through the API, as the dashboard does. */
async function dashboardEdit(z: Zone, ref: string, change: Record<string, unknown>): Promise<void> {
  const client = zoneClient(z);
  const live = await client.getEntryPoint(WAF);
  const rule = live.rules.find((r) => r.ref === ref)!;
  await client.updateRule(live.id, rule.id!, { ref: rule.ref, description: rule.description, action: rule.action, expression: rule.expression, ...change });
}

function writeWaf(z: Zone, rules: readonly object[]): void {
  writeFileSync(join(repo, 'zones', z.name, 'waf.json'), `${JSON.stringify({ name: 'default', kind: 'zone', phase: WAF, rules }, null, 2)}\n`);
}

before(async () => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
  emulator = await startTestEmulator({ rateLimit: UNLIMITED });
  repo = mkdtempSync(join(tmpdir(), 'rulesets-estate-'));
  gitConfig = join(repo, '..', `${repo.split('/').pop()}.gitconfig`);
  writeFileSync(gitConfig, '[user]\n\temail = alice@example.com\n');
  const targets: string[] = [];
  for (const z of ZONES) {
    emulator.state.addZone({ name: z.name, id: z.id });
    await zoneClient(z).updateRuleset({ phase: WAF }, { name: 'default', kind: 'zone', phase: WAF, rules: LIVE_WAF });
    mkdirSync(join(repo, 'zones', z.name), { recursive: true });
    writeWaf(z, wafRules(z));
    const tags = Array.from({ length: transforms(z) }, (_, k) => `  - ref: tag-${k}\n    description: Tag ${k}\n    action: rewrite\n    expression: http.request.uri.path ne "/health-${k}"\n    action_parameters:\n      headers:\n        x-tag-${k}:\n          operation: set\n          value: ${z.name}\n`);
    writeFileSync(join(repo, 'zones', z.name, 'transform.yaml'), `name: default\nkind: zone\nphase: ${TRANSFORM}\nrules:\n${tags.join('')}`);
    targets.push(`  - files: zones/${z.name}/*\n    zone: ${z.byId ? z.id : z.name}\n`);
  }
  // The octorules files are in no target: each goes to the zone of its file name.
  mkdirSync(join(repo, 'rules'));
  for (const z of ZONES) {
    const redirectRules = Array.from({ length: redirects(z) }, (_, k) => `    - ref: old-${k}\n      description: Old page ${k}\n      expression: http.request.uri.path eq "/old-${k}"\n      action_parameters:\n        from_value:\n          target_url:\n            value: https://${z.name}/new-${k}\n          status_code: 301\n`);
    writeFileSync(join(repo, 'rules', `${z.name}.yaml`), `cloudflare:\n  redirect_rules:\n${redirectRules.join('')}`);
  }
  writeFileSync(join(repo, '.rulesets.yaml'), `apply:\n  max_removed_total: 120\n  max_removed_percent: 60\ntargets:\n${targets.join('')}`);
});

after(async () => {
  await emulator.close();
  rmSync(repo, { recursive: true, force: true });
  rmSync(gitConfig, { force: true });
});

interface JsonRule {
  readonly action: string;
  readonly name: string;
  readonly from: number | null;
  readonly to: number | null;
  readonly fields: readonly { path: string; old?: unknown; new?: unknown }[];
}
interface JsonRuleset {
  readonly file: string;
  readonly label: string | null;
  readonly phase: string;
  readonly live_version: string | null;
  readonly summary: Record<string, number>;
  readonly rules: readonly JsonRule[];
  readonly drift?: unknown;
}
interface JsonPlan {
  readonly changes: boolean;
  readonly summary: Record<string, number>;
  readonly targets: readonly { scope: { kind: string; id: string }; label: string; rulesets: readonly JsonRuleset[]; skipped: readonly unknown[]; errors: readonly unknown[] }[];
}

/** A rule of `--format json` in one line: what happens to it, where, and (a change) each field's old and new value. */
function ruleLine(rule: JsonRule): string {
  const fields = rule.action === 'change' ? ` ${rule.fields.map((f) => `${f.path}: ${JSON.stringify(f.old)} → ${JSON.stringify(f.new)}`).join(', ')}` : rule.action === 'add' ? ` ${rule.fields.map((f) => f.path).join(', ')}` : '';
  return `${rule.action} ${rule.name} ${rule.from ?? '-'} → ${rule.to ?? '-'}${fields}`;
}

const counts = (c: Partial<Record<'add' | 'change' | 'move' | 'remove' | 'unmanaged' | 'unchanged', number>>) => ({ add: 0, change: 0, move: 0, remove: 0, unmanaged: 0, unchanged: 0, ...c });

/** What the first plan must say of each zone, from how the estate was built: the transforms and redirects new, the WAF rules kept, changed, added and left alone. */
function expectedFirstPlan(z: Zone) {
  const added = (ref: string, k: number, parameters: string[]) => `add ${ref} - → ${k + 1} ref, action, expression, description, enabled, ${parameters.join(', ')}`;
  return {
    scope: { kind: 'zone', id: z.id },
    label: z.label,
    rulesets: [
      {
        file: `zones/${z.name}/transform.yaml`,
        label: null,
        phase: TRANSFORM,
        live_version: null,
        summary: counts({ add: transforms(z) }),
        rules: Array.from({ length: transforms(z) }, (_, k) => added(`tag-${k}`, k, [`action_parameters.headers.x-tag-${k}.operation`, `action_parameters.headers.x-tag-${k}.value`])),
      },
      {
        file: `zones/${z.name}/waf.json`,
        label: null,
        phase: WAF,
        live_version: '1',
        summary: counts({ add: 1, change: 1, unmanaged: 1, unchanged: 1 }),
        rules: [
          'unchanged office 1 → 1',
          `change bots 2 → 2 expression: ${JSON.stringify(LIVE_WAF[1].expression)} → ${JSON.stringify(wafRules(z)[1].expression)}`,
          'unmanaged legacy 3 → 3',
          'add admin - → 4 ref, action, expression, description, enabled',
        ],
      },
      {
        file: `rules/${z.name}.yaml`,
        label: 'redirect_rules',
        phase: REDIRECT,
        live_version: null,
        summary: counts({ add: redirects(z) }),
        rules: Array.from({ length: redirects(z) }, (_, k) => added(`old-${k}`, k, ['action_parameters.from_value.target_url.value', 'action_parameters.from_value.status_code'])),
      },
    ],
  };
}

const CHOSEN = ZONES[7];
const EDITED_BEFORE_APPLY = ZONES[21];
const EDITED_AFTER_APPLY = ZONES[33];

/** The first plan's text of CHOSEN (shop-07.example): two tags, the WAF's change, addition and unmanaged rule, two redirects. */
const CHOSEN_TEXT = String.raw`zones/shop-07.example/transform.yaml → zone shop-07.example, the http_request_late_transform entry point (does not exist yet: it would be created)
  + tag-0 (Tag 0), at 1
        ref: "tag-0"
        action: "rewrite"
        expression: "http.request.uri.path ne \"/health-0\""
        description: "Tag 0"
        enabled: true
        action_parameters.headers.x-tag-0.operation: "set"
        action_parameters.headers.x-tag-0.value: "shop-07.example"
  + tag-1 (Tag 1), at 2
        ref: "tag-1"
        action: "rewrite"
        expression: "http.request.uri.path ne \"/health-1\""
        description: "Tag 1"
        enabled: true
        action_parameters.headers.x-tag-1.operation: "set"
        action_parameters.headers.x-tag-1.value: "shop-07.example"

zones/shop-07.example/waf.json → zone shop-07.example, the http_request_firewall_custom entry point (version 1)
  ~ bots (Block bad bots), at 2
        ~ expression: "http.user_agent contains \"BadBot\"" → "http.user_agent contains \"BadBot\" or http.user_agent contains \"EvilBot-7\""
    legacy (Added in the dashboard), at 3: unmanaged (in no file), kept
  + admin (Challenge the admin area), at 4
        ref: "admin"
        action: "managed_challenge"
        expression: "starts_with(http.request.uri.path, \"/admin\")"
        description: "Challenge the admin area"
        enabled: true
    (1 unchanged rule not shown)

rules/shop-07.example.yaml (redirect_rules) → zone shop-07.example, the http_request_dynamic_redirect entry point (does not exist yet: it would be created)
  + old-0 (Old page 0), at 1
        ref: "old-0"
        action: "redirect"
        expression: "http.request.uri.path eq \"/old-0\""
        description: "Old page 0"
        enabled: true
        action_parameters.from_value.target_url.value: "https://shop-07.example/new-0"
        action_parameters.from_value.status_code: 301
  + old-1 (Old page 1), at 2
        ref: "old-1"
        action: "redirect"
        expression: "http.request.uri.path eq \"/old-1\""
        description: "Old page 1"
        enabled: true
        action_parameters.from_value.target_url.value: "https://shop-07.example/new-1"
        action_parameters.from_value.status_code: 301`;

const SAVED = 'rulesets: plan saved to plan.json; apply exactly it with `rulesets apply plan.json`\n';
const entryPointPath = (z: Zone, phase: string) => `/zones/${z.id}/rulesets/phases/${phase}/entrypoint`;

describe('rulesets plan and apply: 50 zones, 3 phases each, from JSON, YAML and octorules files', () => {
  it('plan shows exactly the expected diff: every target, ruleset and rule, and one zone as text', async () => {
    const since = emulator.requests.length;
    const json = await cli(['plan', '--format', 'json', '--detailed-exitcode']);
    assert.equal(json.status, 2, json.stderr);
    assert.equal(json.stderr, '');
    const plan = JSON.parse(json.stdout) as JsonPlan;
    const shown = plan.targets.map((t) => ({
      scope: t.scope,
      label: t.label,
      rulesets: t.rulesets.map((r) => ({ file: r.file, label: r.label, phase: r.phase, live_version: r.live_version, summary: r.summary, rules: r.rules.map(ruleLine) })),
    }));
    assert.deepEqual(shown, ZONES.map(expectedFirstPlan));
    assert.ok(plan.targets.every((t) => t.skipped.length === 0 && t.errors.length === 0));
    const added = ZONES.reduce((n, z) => n + transforms(z) + 1 + redirects(z), 0);
    assert.equal(plan.changes, true);
    assert.deepEqual(plan.summary, { ...counts({ add: added, change: 50, unmanaged: 50, unchanged: 50 }), settings: 0, errors: 0 });
    // Each zone's name was looked up once: those of targets by id too, for their octorules files.
    const lookups = emulator.requests.slice(since).filter((r) => r.method === 'GET' && r.path.startsWith('/zones?'));
    assert.deepEqual(lookups.map((r) => new URLSearchParams(r.path.slice('/zones?'.length)).get('name')).sort(), ZONES.map((z) => z.name));

    const text = await cli(['plan', '--format', 'text']);
    assert.equal(text.status, 0, text.stderr);
    assert.equal(sectionOf(text.stdout, CHOSEN.label), CHOSEN_TEXT);
    assert.ok(text.stdout.endsWith(`\nPlan: ${added} to add, 50 to change, 0 to move, 0 to remove; 50 unmanaged kept.\n`), text.stdout.slice(-200));
    assert.doesNotMatch(text.stdout, /\x1b\[/, 'NO_COLOR: no colour');
  });

  it('apply of a saved plan is refused when a ruleset was edited in the dashboard since, naming the zone and both versions; nothing is written', async () => {
    const planned = await cli(['plan', '-o', 'plan.json']);
    assert.equal(planned.status, 0, planned.stderr);
    assert.equal(planned.stderr, SAVED);
    await dashboardEdit(EDITED_BEFORE_APPLY, 'legacy', { expression: 'http.request.uri.path eq "/legacy-2"' });
    const since = emulator.requests.length;
    const refused = await cli(['apply', 'plan.json']);
    assert.equal(refused.status, 1, refused.stdout + refused.stderr);
    assert.equal(
      refused.stderr,
      `rulesets: not applied: live rulesets changed since the plan (a dashboard edit or another apply): zone ${EDITED_BEFORE_APPLY.name}: the ${WAF} entry point (zones/${EDITED_BEFORE_APPLY.name}/waf.json) was at version 1 when planned, version 2 now; plan again\n`,
    );
    assert.deepEqual(writesSince(since), []);
    assert.equal(existsSync(join(repo, '.rulesets', 'audit.log')), false, 'no write, no audit line');
    assert.equal(existsSync(join(repo, '.rulesets', 'lock.json')), false);
  });

  it('apply of a new plan writes each of the 150 rulesets once, one audit line a write; then there is nothing to do', async () => {
    const planned = await cli(['plan', '-o', 'plan.json']);
    assert.equal(planned.status, 0, planned.stderr);
    assert.equal(planned.stderr, SAVED);
    const checksum = JSON.parse(readFileSync(join(repo, 'plan.json'), 'utf8')).checksum;
    assert.match(checksum, /^sha256:[0-9a-f]{64}$/);
    const since = emulator.requests.length;
    const started = Date.now();
    const applied = await cli(['apply', 'plan.json']);
    assert.equal(applied.status, 0, applied.stdout + applied.stderr);
    assert.match(applied.stdout, /^Apply: 150 applied, 0 already applied, 0 unchanged, 0 not applied, 0 unknown\.$/m);
    assert.equal(applied.stderr, 'rulesets: each write is in .rulesets/audit.log\n');
    const phases = [TRANSFORM, WAF, REDIRECT];
    assert.deepEqual(writesSince(since).sort(), ZONES.flatMap((z) => phases.map((phase) => `PUT ${entryPointPath(z, phase)}`)).sort(), 'each ruleset written once');

    const audit = auditLines();
    assert.equal(audit.length, 150);
    const wafFrom = (z: Zone) => (z === EDITED_BEFORE_APPLY ? '2' : '1');
    const expected = ZONES.flatMap((z) => [
      [z.id, z.label, `the ${TRANSFORM} entry point`, `zones/${z.name}/transform.yaml`, undefined, null, '1'],
      [z.id, z.label, `the ${WAF} entry point`, `zones/${z.name}/waf.json`, undefined, wafFrom(z), String(Number(wafFrom(z)) + 1)],
      [z.id, z.label, `the ${REDIRECT} entry point`, `rules/${z.name}.yaml`, 'redirect_rules', null, '1'],
    ]);
    const entries = audit.map((e) => {
      // `label`: the section of a file of several rulesets (octorules'), only there.
      const { time, who, target, ruleset, file, label: section, from, to, outcome, plan, ...rest } = e as Record<string, never>;
      assert.deepEqual(rest, {}, 'no other field');
      assert.equal(who, 'alice <alice@example.com>');
      assert.equal(outcome, 'applied');
      assert.equal(plan, checksum);
      const at = Date.parse(time);
      assert.ok(at >= started - 1000 && at <= Date.now() + 1000, `time ${time}`);
      const { kind, id, label } = target as { kind: string; id: string; label: string };
      assert.equal(kind, 'zone');
      return [id, label, ruleset, file, section, from, to];
    });
    const order = (a: unknown[], b: unknown[]) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    assert.deepEqual(entries.sort(order), expected.sort(order));
    assert.ok(!JSON.stringify(audit).includes(SECRETS.token));

    const again = await cli(['plan', '--detailed-exitcode']);
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.ok(again.stdout.endsWith('No changes: what is live is what the files say.\nPlan: 0 to add, 0 to change, 0 to move, 0 to remove; 50 unmanaged kept.\n'), again.stdout.slice(-300));
    assert.doesNotMatch(again.stdout, /changed live/);
  });

  it('a dashboard edit after the apply is drift in plan, naming the rule an apply would undo', async () => {
    await dashboardEdit(EDITED_AFTER_APPLY, 'bots', { action: 'log' });
    const text = await cli(['plan', '--detailed-exitcode']);
    assert.equal(text.status, 2, text.stdout + text.stderr);
    assert.equal(
      sectionOf(text.stdout, EDITED_AFTER_APPLY.label),
      `zones/${EDITED_AFTER_APPLY.name}/waf.json → zone ${EDITED_AFTER_APPLY.name}, the ${WAF} entry point (version 3)
  drift: unchanged here since the last apply; changed live since the last apply (version 2 → version 3); apply would undo the live edit to bots
  ~ bots (Block bad bots), at 2 [edited live since the last apply; apply would undo it]
        ~ action: "log" → "block"
    legacy (Added in the dashboard), at 3: unmanaged (in no file), kept
    (2 unchanged rules not shown)`,
    );
    assert.equal(text.stdout.match(/changed live since the last apply/g)?.length, 1, 'no other zone drifted');
    assert.ok(text.stdout.endsWith('\nPlan: 0 to add, 1 to change, 0 to move, 0 to remove; 50 unmanaged kept.\n'), text.stdout.slice(-300));
    const json = JSON.parse((await cli(['plan', '--format', 'json'])).stdout) as JsonPlan;
    const drifted = json.targets.flatMap((t) => t.rulesets.filter((r) => (r.drift as { changed_live?: boolean } | undefined)?.changed_live).map((r) => [t.label, r.phase, r.drift]));
    assert.deepEqual(drifted, [[EDITED_AFTER_APPLY.label, WAF, { locked_version: '2', changed_here: false, changed_live: true, undone_by_apply: ['bots'], removed_live: [] }]]);
  });

  it('a mass deletion in the files of one phase stops at the thresholds of .rulesets.yaml with nothing written; --allow-mass-change applies it', async () => {
    // Every zone's WAF file keeps office only, and the repository owns the phase: bots, admin and the unmanaged legacy go.
    for (const z of ZONES) writeWaf(z, [LIVE_WAF[0]]);
    const planned = await cli(['plan', '--owns-phase', WAF, '-o', 'plan.json']);
    assert.equal(planned.status, 0, planned.stderr);
    assert.ok(planned.stdout.endsWith('\nPlan: 0 to add, 0 to change, 0 to move, 150 to remove; 0 unmanaged kept.\n'), planned.stdout.slice(-300));
    const since = emulator.requests.length;
    const refused = await cli(['apply', 'plan.json']);
    assert.equal(refused.status, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /^rulesets: not applied: the plan passes the mass-change thresholds \(`apply:` in \.rulesets\.yaml\): /);
    for (const z of ZONES) {
      assert.ok(refused.stderr.includes(`zone ${z.label}: the ${WAF} entry point (zones/${z.name}/waf.json) would lose 3 of its 4 rules (75%, more than max_removed_percent 60%)`), `${z.label} in: ${refused.stderr}`);
    }
    assert.match(refused.stderr, /; 150 rules would be removed in all \(more than max_removed_total 120\); check the plan, then apply with --allow-mass-change if it is meant\n$/);
    assert.doesNotMatch(refused.stderr, /more than max_removed \d/, '3 a zone is within max_removed (10)');
    assert.deepEqual(writesSince(since), []);
    assert.equal(auditLines().length, 150);

    const allowed = await cli(['apply', 'plan.json', '--allow-mass-change']);
    assert.equal(allowed.status, 0, allowed.stdout + allowed.stderr);
    assert.match(allowed.stdout, /^Apply: 50 applied, 0 already applied, 100 unchanged, 0 not applied, 0 unknown\.$/m);
    assert.deepEqual(writesSince(since).sort(), ZONES.map((z) => `PUT ${entryPointPath(z, WAF)}`).sort());
    assert.equal(auditLines().length, 200);
    for (const z of ZONES) assert.deepEqual((await zoneClient(z).getEntryPoint(WAF)).rules.map((r) => r.ref), ['office']);
    const after = await cli(['plan', '--owns-phase', WAF, '--detailed-exitcode']);
    assert.equal(after.status, 0, after.stdout + after.stderr);
  });
});
