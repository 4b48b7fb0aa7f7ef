/**
 * The plan as people and programs read it: the text a reviewer reads in a terminal or a CI log,
 * the JSON a script reads (its shape is documented and must not drift), and the Markdown of a
 * pull request's comment. Each is pinned whole.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diffRuleset, type EstatePlan, type RulesetPlan } from '../../server/src/api/plan';
import { planJson, planMarkdown, planText, summaryLine } from '../../server/src/api/plan-output';
import type { Rule, Ruleset } from '../../server/src/api/types';

function rule(ref: string, fields: Partial<Rule> = {}): Rule {
  return { id: `id-${ref}`, version: '3', ref, action: 'block', expression: `http.host eq "${ref}"`, description: '', enabled: true, last_updated: '2026-01-01T00:00:00Z', ...fields };
}

const LIVE: Ruleset = {
  id: 'entry',
  name: 'default',
  kind: 'zone',
  phase: 'http_request_firewall_custom',
  version: '7',
  description: '',
  last_updated: '2026-01-01T00:00:00Z',
  rules: [rule('admin'), rule('login', { action: 'managed_challenge' }), rule('dash', { id: 'f00d', ref: 'f00d', description: 'from the dashboard' }), rule('bots')],
} as Ruleset;

/** The file: bots moved first, login changed, a rule added; the dashboard's rule is in no file. */
function planOf(owned: boolean): EstatePlan {
  const diff = diffRuleset(
    {
      rules: [
        { ref: 'bots', action: 'block', expression: 'http.host eq "bots"' },
        { ref: 'admin', action: 'block', expression: 'http.host eq "admin"' },
        { ref: 'login', action: 'js_challenge', expression: 'http.host eq "login"', action_parameters: { response: { status_code: 403 } } },
        { ref: 'api', action: 'log', expression: 'http.host eq "api"', description: 'log the API' },
      ],
    },
    LIVE,
    { owned },
  );
  const planned: RulesetPlan = { file: 'zones/example.com/waf.yaml', destination: { kind: 'entrypoint', phase: LIVE.phase }, phase: LIVE.phase, liveVersion: '7', owned, warnings: [], ...diff };
  const quiet: RulesetPlan = { file: 'zones/example.com/redirects.yaml', destination: { kind: 'entrypoint', phase: 'http_request_dynamic_redirect' }, phase: 'http_request_dynamic_redirect', liveVersion: '2', owned: false, warnings: [], ...diffRuleset({ rules: [] }, undefined) };
  return {
    targets: [
      {
        target: { scope: { kind: 'zone', id: 'z1' }, label: 'example.com' },
        rulesets: [planned, quiet],
        errors: [{ file: 'zones/example.com/broken.yaml', message: 'zones/example.com/broken.yaml: not planned: the check found 1 error; fix it first (`rulesets check zones/example.com/broken.yaml`)' }],
        skipped: [{ file: 'main.tf', label: 'cloudflare_ruleset.waf', reason: 'this expression has a `${…}` that Terraform fills in, so only Terraform can deploy it; nothing was sent' }],
      },
    ],
    counts: { ...diff.counts, settings: 0 },
    changes: true,
    errors: 1,
  };
}

describe('the plan, written out', () => {
  it('as text: each change with its sign, the unmanaged rule kept, then the summary line', () => {
    assert.equal(
      planText(planOf(false)),
      `zones/example.com/waf.yaml → zone example.com, the http_request_firewall_custom entry point (version 7)
  ↕ bots, moved 4 → 1
  ~ login, at 3
        ~ action: "managed_challenge" → "js_challenge"
        + action_parameters: {"response":{"status_code":403}}
    f00d (from the dashboard), at 4: unmanaged (in no file), kept
  + api (log the API), at 5
        ref: "api"
        action: "log"
        expression: "http.host eq \\"api\\""
        description: "log the API"
        enabled: true
    (1 unchanged rule not shown)

skipped: main.tf (cloudflare_ruleset.waf): this expression has a \`\${…}\` that Terraform fills in, so only Terraform can deploy it; nothing was sent

error: zones/example.com/broken.yaml: not planned: the check found 1 error; fix it first (\`rulesets check zones/example.com/broken.yaml\`)

1 ruleset is as its file says.
Plan: 1 to add, 1 to change, 1 to move, 0 to remove; 1 unmanaged kept. 1 ruleset could not be planned.
`,
    );
  });

  it('the summary counts removals where the phase is owned', () => {
    assert.equal(summaryLine(planOf(true)), 'Plan: 1 to add, 1 to change, 1 to move, 1 to remove; 0 unmanaged kept. 1 ruleset could not be planned.');
    assert.match(planText(planOf(true)), /^ {2}- f00d \(from the dashboard\), was at 3\n {8}action: "block"\n/m);
  });

  it('coloured on a terminal: green additions, red removals, yellow changes, cyan moves', () => {
    const text = planText(planOf(true), { colour: true });
    assert.ok(text.includes('\x1b[36m↕ bots, moved 4 → 1\x1b[0m'));
    assert.ok(text.includes('\x1b[32m+ api (log the API), at 4\x1b[0m'));
    assert.ok(text.includes('\x1b[33m~ login, at 3\x1b[0m'));
    assert.ok(text.includes('\x1b[31m- f00d (from the dashboard), was at 3\x1b[0m'));
    assert.ok(!planText(planOf(true)).includes('\x1b['));
  });

  it('says so when nothing is to be done', () => {
    const diff = diffRuleset({ rules: [{ ref: 'admin', action: 'block', expression: 'http.host eq "admin"' }] }, { ...LIVE, rules: [rule('admin')] } as Ruleset);
    const plan: EstatePlan = {
      targets: [{ target: { scope: { kind: 'zone', id: 'z1' }, label: 'example.com' }, rulesets: [{ file: 'waf.yaml', destination: { kind: 'entrypoint', phase: LIVE.phase }, phase: LIVE.phase, liveVersion: '7', owned: false, warnings: [], ...diff }], errors: [], skipped: [] }],
      counts: { ...diff.counts, settings: 0 },
      changes: false,
      errors: 0,
    };
    assert.equal(planText(plan), '1 ruleset is as its file says.\nNo changes: what is live is what the files say.\nPlan: 0 to add, 0 to change, 0 to move, 0 to remove; 0 unmanaged kept.\n');
  });

  it('as JSON: the documented shape, every rule with its action, positions and fields', () => {
    const json = JSON.parse(planJson(planOf(false)));
    assert.deepEqual(Object.keys(json), ['format_version', 'changes', 'summary', 'targets']);
    assert.equal(json.format_version, 1);
    assert.deepEqual(json.summary, { add: 1, change: 1, move: 1, remove: 0, unmanaged: 1, unchanged: 1, settings: 0, errors: 1 });
    const [target] = json.targets;
    assert.deepEqual(target.scope, { kind: 'zone', id: 'z1' });
    assert.equal(target.label, 'example.com');
    const [waf] = target.rulesets;
    assert.deepEqual(
      { ...waf, rules: undefined },
      { file: 'zones/example.com/waf.yaml', label: null, phase: 'http_request_firewall_custom', destination: { kind: 'entrypoint', phase: 'http_request_firewall_custom' }, live_version: '7', owned: false, summary: { add: 1, change: 1, move: 1, remove: 0, unmanaged: 1, unchanged: 1 }, settings: [], rules: undefined },
    );
    assert.deepEqual(
      waf.rules.map((r: { action: string; name: string; from: number | null; to: number | null; moved: boolean; matched_by: string | null }) => [r.action, r.name, r.from, r.to, r.moved, r.matched_by]),
      [
        ['move', 'bots', 4, 1, true, 'ref'],
        ['unchanged', 'admin', 1, 2, false, 'ref'],
        ['change', 'login', 2, 3, false, 'ref'],
        ['unmanaged', 'f00d', 3, 4, false, null],
        ['add', 'api', null, 5, false, null],
      ],
    );
    assert.deepEqual(waf.rules[2], {
      action: 'change',
      name: 'login',
      id: 'id-login',
      ref: 'login',
      from: 2,
      to: 3,
      moved: false,
      matched_by: 'ref',
      fields: [
        { path: 'action', old: 'managed_challenge', new: 'js_challenge' },
        { path: 'action_parameters', new: { response: { status_code: 403 } } },
      ],
    });
    assert.deepEqual(target.skipped, [{ file: 'main.tf', label: 'cloudflare_ruleset.waf', reason: 'this expression has a `${…}` that Terraform fills in, so only Terraform can deploy it; nothing was sent' }]);
    assert.deepEqual(target.errors[0].problems, []);
  });

  it('as Markdown, within what a comment holds: the rulesets past it counted, many without changes in one collapsed list', () => {
    const one = planOf(false);
    const target = one.targets[0];
    const many: EstatePlan = {
      ...one,
      targets: [{ ...target, rulesets: Array.from({ length: 30 }, (_, i) => ({ ...target.rulesets[i % 2], file: `zone${i}.yaml` })), errors: [], skipped: [] }],
    };
    const markdown = planMarkdown(many, { limit: 3000 });
    assert.ok(markdown.length <= 3000, `${markdown.length} characters`);
    const shown = (markdown.match(/<details open>/g) ?? []).length;
    assert.ok(shown >= 1 && shown < 15, `${shown} shown`);
    assert.ok(markdown.includes(`${15 - shown} more rulesets with changes are not shown here, for a comment holds 3,000 characters at most: \`rulesets plan\` shows them.`), markdown.slice(-800));
    assert.match(markdown, /<details><summary>15 rulesets without changes, or skipped<\/summary>\n\n(- zone\d+\.yaml → .*\n)+- and \d+ more\n/);
    // With room, every one is listed.
    assert.equal((planMarkdown(many).match(/: no changes$/gm) ?? []).length, 15);
  });

  it('as Markdown: the summary in bold, each ruleset with changes in a diff block, old and new on - and + lines', () => {
    assert.equal(
      planMarkdown(planOf(false)),
      `### rulesets plan

**Plan: 1 to add, 1 to change, 1 to move, 0 to remove; 1 unmanaged kept. 1 ruleset could not be planned.**

- **error**: zones/example.com/broken.yaml: not planned: the check found 1 error; fix it first (\\\`rulesets check zones/example.com/broken.yaml\\\`)

<details open><summary>zones/example.com/waf.yaml → zone example.com, the http\\_request\\_firewall\\_custom entry point (version 7): 1 to add, 1 to change, 1 to move, 0 to remove; 1 unmanaged kept</summary>

\`\`\`diff
↕ bots, moved 4 → 1
~ login, at 3
-     action: "managed_challenge"
+     action: "js_challenge"
+     action_parameters: {"response":{"status_code":403}}
  f00d (from the dashboard), at 4: unmanaged (in no file), kept
+ api (log the API), at 5
+     ref: "api"
+     action: "log"
+     expression: "http.host eq \\"api\\""
+     description: "log the API"
+     enabled: true
  (1 unchanged rule not shown)
\`\`\`

</details>

- zones/example.com/redirects.yaml → zone example.com, the http\\_request\\_dynamic\\_redirect entry point (version 2): no changes
- skipped: main.tf (cloudflare\\_ruleset.waf): this expression has a \\\`\${…}\\\` that Terraform fills in, so only Terraform can deploy it; nothing was sent
`,
    );
  });
});
