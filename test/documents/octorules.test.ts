/**
 * octorules rules files as rulesets: each section the ruleset of its phase (octorules' own
 * mapping), its rules checked as any ruleset's, with what octorules itself wants (a `ref`,
 * unique in its section; `action` only where the section has no default), `!include`d files
 * checked and their problems shown on the include, every problem on its exact characters.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { classifyFile } from '../../server/src/documents/classify';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { parseHost } from '../../server/src/documents/host/host';
import { isOctorulesDocument } from '../../server/src/documents/octorules';
import { parseDocument, rulesetAt } from '../../server/src/documents/parsed-document';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { OCTORULES_SECTIONS } from '../../server/src/language/catalogue/generated/octorules-sections';

function problemsOf(text: string, files: Record<string, string> = {}): DocumentProblem[] {
  return checkRuleset(text, 'yaml', { cache: new ExpressionCache(), include: (path) => files[path] });
}

/** Each problem as its code and the characters it is on. */
function onText(text: string, problems: readonly DocumentProblem[]): [string, string][] {
  return problems.map((p) => [p.code, text.slice(p.start, p.end)]);
}

const ZONE = `cloudflare:
  waf_custom_rules:
    - ref: block-admin
      expression: http.hots eq "admin.example.com"
      action: block
  redirect_rules:
    - ref: old-blog
      expression: starts_with(http.request.uri.path, "/blog/")
      action_parameters:
        from_value:
          target_url:
            expression: concat("https://example.com", http.request.uri.pth)
          status_code: 301
  bot_management:
    fight_mode: true
`;

describe('octorules: sections as rulesets', () => {
  it('reads each section of the cloudflare: block as the ruleset of its phase, its root spanning the section', () => {
    const document = parseDocument(ZONE, 'yaml');
    assert.equal(document.layout, 'octorules');
    assert.deepEqual(
      document.rulesets.map((r) => [r.label, r.phase, r.defaultAction, r.rules.length]),
      [
        ['waf_custom_rules', 'http_request_firewall_custom', undefined, 1],
        ['redirect_rules', 'http_request_dynamic_redirect', 'redirect', 1],
      ],
    );
    const [waf, redirects] = document.rulesets;
    assert.ok(ZONE.slice(waf.root!.start, waf.root!.end).startsWith('waf_custom_rules:'));
    assert.ok(ZONE.slice(waf.root!.start, waf.root!.end).trimEnd().endsWith('action: block'));
    // The editor finds the section under the cursor.
    assert.equal(rulesetAt(document, ZONE.indexOf('http.hots')), waf);
    assert.equal(rulesetAt(document, ZONE.indexOf('http.request.uri.pth')), redirects);
    assert.equal(rulesetAt(document, ZONE.indexOf('fight_mode')), undefined);
  });

  it("takes every section's phase and default action from octorules' own table", () => {
    for (const section of OCTORULES_SECTIONS) {
      const text = `cloudflare:\n  ${section.section}:\n    - ref: a\n      expression: "true"\n`;
      const [ruleset] = parseDocument(text, 'yaml').rulesets;
      assert.equal(ruleset.phase, section.phase, section.section);
      assert.equal(ruleset.defaultAction, section.defaultAction, section.section);
    }
    // Spot checks against octorules_cloudflare 0.18.1's _CF_PHASE_SPECS.
    const byName = new Map(OCTORULES_SECTIONS.map((s) => [s.section, s]));
    assert.deepEqual(byName.get('cache_rules'), { section: 'cache_rules', phase: 'http_request_cache_settings', defaultAction: 'set_cache_settings', zone: true, account: false });
    assert.equal(byName.get('waf_custom_rules')?.defaultAction, undefined);
    assert.equal(byName.get('bulk_redirect_rules')?.phase, 'http_request_redirect');
  });

  it('checks the expressions of every section on their exact characters, the parameters of a default action among them', () => {
    const found = onText(ZONE, problemsOf(ZONE));
    assert.deepEqual(found, [
      ['unknown-field', 'http.hots'],
      ['unknown-field', 'http.request.uri.pth'],
    ]);
  });

  it('holds a rule without action to its section: the default is its action, and a section without one needs it', () => {
    const text = `cloudflare:
  redirect_rules:
    - ref: missing-target
      expression: http.host eq "a.example.com"
      action_parameters:
        from_value:
          status_code: 301
  compression_rules:
    - ref: no-parameters
      expression: http.host eq "b.example.com"
  waf_custom_rules:
    - ref: no-action
      expression: http.host eq "c.example.com"
`;
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => [p.code, text.slice(p.start, p.end), p.start]),
      [
        // `redirect`'s parameters want a target: the rule takes `redirect` by default.
        ['missing-key', 's', text.indexOf('status_code')],
        // `compress_response` without its parameters: said on the rule's first character, as it has no `action`.
        ['missing-action-parameters', 'r', text.indexOf('ref: no-parameters')],
        // waf_custom_rules has no default: the rule must name its action.
        ['missing-key', 'r', text.indexOf('ref: no-action')],
      ],
    );
    assert.match(problems[0].message, /`target_url`/);
    assert.match(problems[1].message, /`compress_response`/);
    assert.match(problems[2].message, /no `action`/);
  });

  it('finds the value expressions inside a default action’s parameters as sites', () => {
    const [ruleset] = parseDocument(ZONE.slice(ZONE.indexOf('  redirect_rules')).replace(/^ {2}/gm, ''), 'yaml').rulesets;
    assert.equal(ruleset.label, 'redirect_rules');
    assert.deepEqual(
      ruleset.sites.map((s) => [s.kind, s.path.join('.')]),
      [
        ['filter', 'expression'],
        ['value', 'action_parameters.from_value.target_url.expression'],
      ],
    );
  });

  it('wants a ref on every rule, unique within its section (not across sections)', () => {
    const text = `cloudflare:
  waf_custom_rules:
    - ref: same
      expression: ip.src eq 192.0.2.1
      action: block
    - expression: ip.src eq 192.0.2.2
      action: block
    - ref: same
      expression: ip.src eq 192.0.2.3
      action: block
  rate_limiting_rules:
    - ref: same
      expression: http.request.uri.path eq "/login"
      action: block
      ratelimit:
        characteristics: [ip.src, cf.colo.id]
        period: 60
        requests_per_period: 10
        mitigation_timeout: 60
`;
    const problems = problemsOf(text);
    const duplicate = problems.filter((p) => p.code === 'duplicate-ref');
    assert.equal(duplicate.length, 1, JSON.stringify(problems));
    assert.equal(duplicate[0].start, text.indexOf('same', text.indexOf('192.0.2.2')));
    assert.equal(text.slice(duplicate[0].start, duplicate[0].end), 'same');
    assert.equal(duplicate[0].related?.[0].start, text.indexOf('same'));
    const missing = problems.filter((p) => p.code === 'missing-key');
    assert.deepEqual(onText(text, missing), [['missing-key', 'e']]);
    assert.match(missing[0].message, /`ref`/);
  });

  it("ignores a rule's `octorules:` key and the sections that are no ruleset (bot management, lists, settings)", () => {
    const text = `cloudflare:
  waf_custom_rules:
    - ref: watched
      expression: http.host eq "api.example.com"
      action: log
      octorules:
        ignored: true
        included: [cloudflare]
  bot_management:
    fight_mode: true
  zone_security:
    security_level: high
  lists:
    - name: office
      kind: ip
  custom_rulesets: []
lists: []
`;
    assert.deepEqual(problemsOf(text), []);
  });

  it('says of a misspelt section what octorules calls it, with a rename, on the key', () => {
    const text = `cloudflare:
  waf_custom_rule:
    - ref: a
      expression: ip.src eq 192.0.2.1
      action: block
  cache_rules:
    - ref: b
      expression: http.host eq "a.example.com"
      action_parameters:
        cache: true
  some_future_setting:
    enabled: true
`;
    const problems = problemsOf(text);
    assert.deepEqual(onText(text, problems), [['unknown-section', 'waf_custom_rule']]);
    assert.equal(problems[0].severity, 'warning');
    assert.match(problems[0].message, /did you mean `waf_custom_rules`\?/);
    assert.deepEqual(problems[0].fixes?.[0].edits, [{ start: text.indexOf('waf_custom_rule'), end: text.indexOf('waf_custom_rule') + 'waf_custom_rule'.length, newText: 'waf_custom_rules' }]);
  });

  it('reads a section at the top level (the older spelling), checks it, and warns that octorules now skips it', () => {
    const text = `waf_custom_rules:
  - ref: a
    expression: http.hots eq "x"
    action: block
other_tool:
  - anything: at all
`;
    const document = parseDocument(text, 'yaml');
    assert.equal(document.layout, 'octorules');
    assert.deepEqual(document.rulesets.map((r) => r.phase), ['http_request_firewall_custom']);
    assert.deepEqual(onText(text, problemsOf(text)), [
      ['section-outside-block', 'waf_custom_rules'],
      ['unknown-field', 'http.hots'],
    ]);
  });

  it('names a section in both places, and its internal dotted spelling, as octorules refuses them', () => {
    const text = `waf_custom_rules: []
cloudflare.cache_rules: []
cloudflare:
  waf_custom_rules: []
`;
    assert.deepEqual(onText(text, problemsOf(text)), [
      ['duplicate-section', 'waf_custom_rules'],
      ['unknown-section', 'cloudflare.cache_rules'],
    ]);
  });

  it('says that a section holds a list of rules when it holds something else', () => {
    const text = 'cloudflare:\n  waf_custom_rules:\n    ref: a\n  cache_rules:\n';
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => p.code),
      ['invalid-type'],
    );
    assert.equal(text.slice(problems[0].start, problems[0].end).trim(), 'ref: a');
  });
});

describe('octorules: custom rulesets', () => {
  it('checks the rules of each custom ruleset in its phase, each rule naming its action', () => {
    const text = `cloudflare:
  custom_rulesets:
    - id: f0000000000000000000000000000000
      name: shared-waf
      phase: http_request_firewall_custom
      rules:
        - ref: scanners
          expression: cf.threat_score gt 50 and http.hots eq "x"
          action: block
        - ref: no-action
          expression: ip.src eq 192.0.2.1
    - id: f1111111111111111111111111111111
      name: elsewhere
      phase: some_phase_octorules_does_not_know
      rules:
        - ref: a
          expression: not an expression
`;
    const document = parseDocument(text, 'yaml');
    assert.deepEqual(document.rulesets.map((r) => [r.label, r.phase, r.rules.length]), [['custom_rulesets: shared-waf', 'http_request_firewall_custom', 2]]);
    assert.deepEqual(onText(text, problemsOf(text)), [
      ['unknown-field', 'http.hots'],
      ['missing-key', 'r'],
    ]);
  });
});

describe('octorules: refs, custom rulesets and files of unknown sections, as octorules reads them (issue 35)', () => {
  it('refuses an empty `ref`, as octorules does (planner.py _require_string_field: "must be a non-empty string"), in a section and in a custom ruleset', () => {
    const text = `cloudflare:
  waf_custom_rules:
    - ref: ""
      expression: http.host eq "a.example.com"
      action: block
    - ref: named
      expression: http.host eq "b.example.com"
      action: block
  custom_rulesets:
    - id: f0000000000000000000000000000000
      name: shared
      phase: http_request_firewall_custom
      rules:
        - ref: ''
          expression: ip.src eq 192.0.2.1
          action: block
`;
    const problems = problemsOf(text);
    assert.deepEqual(onText(text, problems), [
      ['empty-ref', '""'],
      ['empty-ref', "''"],
    ]);
    assert.ok(problems.every((p) => p.severity === 'error'));
    assert.match(problems[0].message, /octorules refuses/);
    // A ref that is there is not an empty one: the clean twin says nothing.
    assert.deepEqual(problemsOf(text.replace('ref: ""', 'ref: first').replace("ref: ''", 'ref: second')), []);
  });

  it('reads `custom_rulesets:` at the top level (octorules keeps it there: a core section of every file) and checks its rules, duplicate refs too', () => {
    const text = `custom_rulesets:
  - id: f0000000000000000000000000000000
    name: shared-waf
    phase: http_request_firewall_custom
    rules:
      - ref: scanners
        expression: http.hots eq "x"
        action: block
      - ref: scanners
        expression: ip.src eq 192.0.2.1
        action: block
`;
    assert.equal(isOctorulesDocument(parseHost(text, 'yaml').root), true);
    assert.deepEqual(classifyFile('/p/rules/account.yaml', { root: () => parseHost(text, 'yaml').root }), { role: 'ruleset', why: 'content' });
    const document = parseDocument(text, 'yaml');
    assert.equal(document.layout, 'octorules');
    assert.deepEqual(document.rulesets.map((r) => [r.label, r.phase, r.rules.length]), [['custom_rulesets: shared-waf', 'http_request_firewall_custom', 2]]);
    assert.deepEqual(onText(text, problemsOf(text)), [
      ['unknown-field', 'http.hots'],
      ['duplicate-ref', 'scanners'],
    ]);
  });

  it('says of a custom ruleset what octorules refuses in it: no `name`, no `phase`, a phase misspelt, `rules` that are no list', () => {
    const text = `cloudflare:
  custom_rulesets:
    - id: f0000000000000000000000000000000
      phase: http_request_firewall_custom
      rules: []
    - id: f1111111111111111111111111111111
      name: no-phase
      rules: []
    - id: f2222222222222222222222222222222
      name: misspelt
      phase: http_request_firewall_custon
      rules: []
    - id: f3333333333333333333333333333333
      name: not-a-list
      phase: http_request_firewall_custom
      rules:
        ref: a
`;
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => [p.code, p.severity, text.slice(p.start, p.end).split('\n')[0]]),
      [
        ['missing-key', 'error', 'id: f0000000000000000000000000000000'],
        ['missing-key', 'error', 'id: f1111111111111111111111111111111'],
        ['unknown-phase', 'error', 'http_request_firewall_custon'],
        ['invalid-type', 'error', 'ref: a'],
      ],
    );
    assert.match(problems[0].message, /`name`/);
    assert.match(problems[1].message, /`phase`/);
    assert.match(problems[2].message, /did you mean `http_request_firewall_custom`/);
  });

  it('says that octorules refuses to create a custom ruleset (no `id`) without a `capacity`, an `id` that is empty, and a `capacity` that is no positive whole number', () => {
    const ruleset = (keys: string) => `cloudflare:\n  custom_rulesets:\n    - name: new\n${keys}      phase: http_request_firewall_custom\n      rules: []\n`;
    const created = ruleset('');
    assert.deepEqual(problemsOf(created).map((p) => [p.code, p.severity, created.slice(p.start, p.end)]), [['missing-key', 'error', 'name: new']]);
    assert.match(problemsOf(created)[0].message, /no `id`, so octorules would create it, and it refuses to create one without a `capacity`/);
    const wrong = ruleset('      id: ""\n      capacity: 0\n');
    assert.deepEqual(onText(wrong, problemsOf(wrong)), [['invalid-type', '""'], ['invalid-type', '0']]);
    // The clean twins: a ruleset to update (an `id`), and one to create with its capacity.
    assert.deepEqual(problemsOf(ruleset('      id: f0000000000000000000000000000000\n')), []);
    // An id of digits alone is a number to YAML, as to octorules, which refuses it: quoted, it is a string.
    const digits = ruleset('      id: 00000000000000000000000000000000\n');
    const [number] = problemsOf(digits);
    assert.deepEqual([number.code, digits.slice(number.start, number.end)], ['invalid-type', '00000000000000000000000000000000']);
    assert.match(number.message, /found a number, as YAML reads digits alone, which octorules refuses: quote it$/);
    assert.deepEqual(number.fixes?.[0].edits, [{ start: number.start, end: number.end, newText: '"00000000000000000000000000000000"' }]);
    assert.deepEqual(problemsOf(ruleset('      id: "00000000000000000000000000000000"\n')), []);
    // An id that is not 32 hexadecimal digits names no ruleset (the provider's schema: `^[0-9a-f]{32}$`).
    for (const id of ['xyz', 'f000000000000000000000000000000', 'f00000000000000000000000000000000', 'g0000000000000000000000000000000']) {
      const text = ruleset(`      id: ${id}\n`);
      const problems = problemsOf(text);
      assert.deepEqual(onText(text, problems), [['invalid-type', id]], id);
      assert.match(problems[0].message, /is not the id of a ruleset, which is 32 hexadecimal digits/);
    }
    assert.deepEqual(problemsOf(ruleset('      id: 2f2feab2026849078ba485f918791bdc\n')), []);
    assert.deepEqual(problemsOf(ruleset('      capacity: 100\n')), []);
  });

  it('reads the rules of a custom ruleset from an `!include`, and takes an include for any value of it', () => {
    const text = `custom_rulesets:
  - id: f0000000000000000000000000000000
    name: shared
    phase: http_request_firewall_custom
    rules: !include shared-rules.yaml
  - !include other-ruleset.yaml
`;
    const files = { 'shared-rules.yaml': '- ref: a\n  expression: http.hots eq "x"\n  action: block\n', 'other-ruleset.yaml': 'name: other\nphase: http_request_firewall_custom\nrules: []\n' };
    assert.deepEqual(onText(text, problemsOf(text, files)), [['unknown-field', '!include shared-rules.yaml']]);
    assert.deepEqual(problemsOf('custom_rulesets: !include all.yaml\n', { 'all.yaml': '[]\n' }), []);
  });

  it("reads a file whose only section octorules does not know as an octorules file with that section's finding, not as a ruleset of ours", () => {
    for (const text of [
      'cloudflare:\n  waf_custom_rule:\n    - ref: a\n      expression: http.host eq "x"\n      action: block\n',
      'waf_custom_rule:\n  - ref: a\n    expression: http.host eq "x"\n    action: block\n',
    ]) {
      assert.equal(isOctorulesDocument(parseHost(text, 'yaml').root), true, text);
      const document = parseDocument(text, 'yaml');
      assert.equal(document.layout, 'octorules', text);
      const problems = problemsOf(text);
      assert.deepEqual(onText(text, problems), [['unknown-section', 'waf_custom_rule']], text);
      assert.match(problems[0].message, /did you mean `waf_custom_rules`\?/);
    }
  });

  it('says of a `cloudflare:` block with no key octorules knows that octorules would manage nothing in the file', () => {
    const text = 'cloudflare:\n  firewall_things:\n    - ref: a\n      expression: http.host eq "x"\n';
    // Named on the command line or opened: octorules' block, not a ruleset of ours.
    const document = parseDocument(text, 'yaml');
    assert.equal(document.layout, 'octorules');
    const problems = problemsOf(text);
    assert.deepEqual(onText(text, problems), [['unknown-section', 'firewall_things']]);
    assert.equal(problems[0].severity, 'warning');
    assert.match(problems[0].message, /would manage nothing in this file/);
    // But a folder search does not take a file for octorules' by a `cloudflare:` key alone, nor
    // by another tool's list at the top level whose name is a near miss of a section.
    assert.equal(isOctorulesDocument(parseHost(text, 'yaml').root), false);
    assert.equal(isOctorulesDocument(parseHost('cloudflare:\n  api_token: abc\n', 'yaml').root), false);
    assert.equal(isOctorulesDocument(parseHost('page_rules:\n  - targets: ["example.com/*"]\n    actions: {cache_level: bypass}\n', 'yaml').root), false);
  });
});

describe("octorules: a section under a name octorules does not read (octorules' lint rules CF010, CF014)", () => {
  it('says of a phase\'s API name where octorules wants its section\'s name that octorules would not manage it, with the rename, and checks its rules as that section\'s', () => {
    const text = `cloudflare:
  cache_rules:
    - ref: b
      expression: http.host eq "a.example.com"
      action_parameters:
        cache: true
  http_request_firewall_custom:
    - ref: a
      expression: ip.src eq 192.0.2.300
      action: block
`;
    const problems = problemsOf(text);
    assert.deepEqual(onText(text, problems), [['unknown-section', 'http_request_firewall_custom'], ['invalid-ip', '300']]);
    assert.equal(problems[0].severity, 'warning');
    assert.equal(problems[0].message, '`http_request_firewall_custom` is the API name of a phase, which octorules 0.37.0 does not read as a section: it names the section `waf_custom_rules`; it would not manage these rules: rename it to `waf_custom_rules`');
    const start = text.indexOf('http_request_firewall_custom');
    assert.deepEqual(problems[0].fixes?.map((f) => [f.title, f.edits]), [['Change to `waf_custom_rules`', [{ start, end: start + 'http_request_firewall_custom'.length, newText: 'waf_custom_rules' }]]]);
    // Its clean twin: the section under its own name.
    assert.deepEqual(problemsOf(text.replace('http_request_firewall_custom', 'waf_custom_rules').replace('192.0.2.300', '192.0.2.30')), []);
  });

  it('says of `waf_managed_exceptions`, the former name of `waf_managed_rules`, that octorules no longer reads it, in the block and at the top level', () => {
    const rule = '- ref: a\n  expression: http.host eq "x"\n  action: skip\n  action_parameters:\n    ruleset: current\n';
    const indent = (text: string, by: string) => text.replace(/^(?=.)/gm, by);
    const nested = `cloudflare:\n  waf_managed_exceptions:\n${indent(rule, '    ')}`;
    const flat = `waf_managed_exceptions:\n${indent(rule, '  ')}`;
    for (const text of [nested, flat]) {
      assert.equal(isOctorulesDocument(parseHost(text, 'yaml').root), true, text);
      const problems = problemsOf(text);
      assert.deepEqual(onText(text, problems), [['unknown-section', 'waf_managed_exceptions']], text);
      assert.match(problems[0].message, /^`waf_managed_exceptions` is the former name of `waf_managed_rules`, which octorules 0\.37\.0 no longer reads; it would not manage these rules: rename it to `waf_managed_rules`/);
      assert.deepEqual(problems[0].fixes?.map((f) => f.title), ['Change to `waf_managed_rules`']);
    }
    assert.match(problemsOf(flat)[0].message, /and nest it under `cloudflare:`$/);
    assert.deepEqual(problemsOf(nested.replace('waf_managed_exceptions', 'waf_managed_rules')), []);
  });

  it('reads a file whose only key is a phase\'s API name over a list of rules as octorules\', not as a ruleset of ours with no `phase` (a false `missing-key`)', () => {
    const text = 'http_request_firewall_custom:\n  - ref: a\n    expression: ip.src eq 192.0.2.1\n    action: block\n';
    assert.equal(parseDocument(text, 'yaml').layout, 'octorules');
    assert.deepEqual(onText(text, problemsOf(text)), [['unknown-section', 'http_request_firewall_custom']]);
    // Another tool's key of that name holding no rules does not make a file octorules'.
    assert.equal(isOctorulesDocument(parseHost('http_request_firewall_custom:\n  - enabled\n', 'yaml').root), false);
  });

  it('checks `cloudflare: {}` alone clean: an octorules file with no rules, not a ruleset missing its keys', () => {
    assert.equal(parseDocument('cloudflare: {}\n', 'yaml').layout, 'octorules');
    assert.deepEqual(problemsOf('cloudflare: {}\n'), []);
  });
});

describe('octorules: disable directives', () => {
  it('reads them once for the whole file, whichever section their line is in', () => {
    const text = `# rulesets-disable country-code-case
cloudflare:
  waf_custom_rules:
    - ref: a
      expression: ip.src.country in {"br"}
      action: block
    # rulesets-disable-next-line duplicate-rule
    - ref: b
      expression: ip.src eq 192.0.2.1
      action: block
  redirect_rules:
    - ref: c
      expression: http.host eq "a.example.com"
      action_parameters:
        from_value:
          target_url:
            value: https://b.example.com/
`;
    const problems = problemsOf(text);
    // The file's directive silences the first section's finding, and is not unused in the second;
    // the next-line one, unused, is said once.
    assert.deepEqual(onText(text, problems), [['unused-disable', 'duplicate-rule']]);
  });
});

describe('octorules: which files', () => {
  it('is an octorules file when the cloudflare: block (or the top level) has a section', () => {
    const rootOf = (text: string) => parseHost(text, 'yaml').root;
    assert.equal(isOctorulesDocument(rootOf(ZONE)), true);
    assert.equal(isOctorulesDocument(rootOf('waf_custom_rules:\n  - ref: a\n')), true);
    // Only settings: nothing to check.
    assert.equal(isOctorulesDocument(rootOf('cloudflare:\n  bot_management:\n    fight_mode: true\n')), false);
    // octorules' configuration.
    assert.equal(isOctorulesDocument(rootOf('providers:\n  cloudflare:\n    token: env/CLOUDFLARE_API_TOKEN\nzones:\n  example.com:\n    sources: [rules]\n')), false);
    // A list of rules on its own (what an include reads).
    assert.equal(isOctorulesDocument(rootOf('- ref: a\n  expression: "true"\n')), false);
  });

  it('never takes a ruleset in the API shape for one, whatever else it holds', () => {
    const api = 'name: r\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: "true"\n';
    for (const text of [api, `${api}cloudflare:\n  waf_custom_rules: []\n`, `${api}waf_custom_rules:\n  - ref: a\n`]) {
      assert.equal(isOctorulesDocument(parseHost(text, 'yaml').root), false, text);
      assert.equal(parseDocument(text, 'yaml').layout, 'api');
    }
  });

  it('classifies rules files as rulesets by their content, and octorules configuration as other', () => {
    const classify = (path: string, text: string) => classifyFile(path, { root: () => parseHost(text, 'yaml').root });
    assert.deepEqual(classify('/p/rules/example.com.yaml', ZONE), { role: 'ruleset', why: 'content' });
    assert.deepEqual(classify('/p/config.yaml', 'providers:\n  cloudflare:\n    token: env/T\nzones:\n  example.com:\n    sources: [rules]\n'), { role: 'other' });
  });

  it('never takes a JSON file for one: octorules reads its rules from YAML files only (*.yaml, *.yml)', () => {
    for (const text of ['{"rate_limit_rules":[{"expression":"true","action":"block"}]}', '{"redirect_rules":[{"expression":"true","action":"redirect"}]}', '{"cloudflare":{"redirect_rules":[{"ref":"a","expression":"true"}]}}']) {
      const root = () => parseHost(text, 'json').root;
      // Found in a folder search: not a ruleset file at all (no false `missing-key`).
      assert.deepEqual(classifyFile('/p/d/x.json', { root }), { role: 'other' }, text);
      // The editor knows the format from the document's language, whatever the name.
      assert.deepEqual(classifyFile('/p/d/untitled', { root, format: 'json' }), { role: 'other' }, text);
      // Named on the command line, it is read as an API ruleset, as any file named is.
      assert.equal(parseDocument(text, 'json').layout, 'api');
      // The same content as YAML is octorules'.
      const yaml = () => parseHost(text, 'yaml').root;
      assert.deepEqual(classifyFile('/p/d/x.yaml', { root: yaml }), { role: 'ruleset', why: 'content' }, text);
      assert.equal(parseDocument(text, 'yaml').layout, 'octorules');
    }
  });
});

describe('octorules: !include', () => {
  const INCLUDING = `cloudflare:
  redirect_rules: !include shared/redirects.yaml
  waf_custom_rules:
    - ref: local
      expression: ip.src eq 192.0.2.1
      action: block
    - !include shared/one-rule.yaml
`;
  const REDIRECTS = `- ref: docs
  expression: http.request.uri.pth eq "/docs"
  action_parameters:
    from_value:
      target_url:
        value: https://docs.example.com/
`;
  const ONE_RULE = 'ref: local\nexpression: http.hots eq "x"\naction: block\n';

  it("reads a section's file of rules and a rule's file, and shows their problems on the include, naming file, line and column", () => {
    const problems = problemsOf(INCLUDING, { 'shared/redirects.yaml': REDIRECTS, 'shared/one-rule.yaml': ONE_RULE });
    assert.deepEqual(
      problems.map((p) => [p.code, INCLUDING.slice(p.start, p.end), p.message.replace(/: .*/, '')]),
      [
        ['unknown-field', '!include shared/redirects.yaml', 'shared/redirects.yaml:2:15'],
        ['duplicate-ref', '!include shared/one-rule.yaml', 'shared/one-rule.yaml:1:6'],
        ['unknown-field', '!include shared/one-rule.yaml', 'shared/one-rule.yaml:2:13'],
      ],
    );
    assert.match(problems[0].message, /unknown field `http\.request\.uri\.pth`/);
    assert.match(problems[1].message, /first on line 4, above/);
    // The included files' places are right: line 2, column 15 of redirects.yaml is the field.
    assert.equal(REDIRECTS.split('\n')[1].slice(14, 14 + 'http.request.uri.pth'.length), 'http.request.uri.pth');
    assert.equal(ONE_RULE.split('\n')[1].slice(12, 12 + 'http.hots'.length), 'http.hots');
    // The includes' rules are not the document's: only its own rule is in its section.
    const document = parseDocument(INCLUDING, 'yaml', { include: (p) => ({ 'shared/redirects.yaml': REDIRECTS, 'shared/one-rule.yaml': ONE_RULE })[p] });
    assert.deepEqual(document.rulesets.map((r) => [r.label, r.rules.length]), [['waf_custom_rules', 1]]);
    assert.deepEqual(document.included?.map((f) => [f.path, f.ruleset?.label, f.ruleset?.rules.length]), [
      ['shared/redirects.yaml', 'redirect_rules', 1],
      ['shared/one-rule.yaml', 'waf_custom_rules', 1],
    ]);
  });

  it('says once, on its characters, that an include cannot be read, or reaches outside its folder', () => {
    const text = 'cloudflare:\n  redirect_rules: !include missing.yaml\n  cache_rules: !include ../elsewhere/cache.yaml\n';
    const problems = problemsOf(text);
    assert.deepEqual(onText(text, problems), [
      ['include-unreadable', '!include missing.yaml'],
      ['include-outside', '!include ../elsewhere/cache.yaml'],
    ]);
    assert.ok(problems.every((p) => p.severity === 'error'));
  });

  it('reads an include within an include relative to its own file, and stops at one that includes itself', () => {
    const files = {
      'a/rules.yaml': '- !include more/rule.yaml\n- !include ../a/rules.yaml\n',
      'a/more/rule.yaml': 'ref: deep\nexpression: ip.src eq 192.0.2.1\naction: blok\n',
    };
    const text = 'cloudflare:\n  waf_custom_rules: !include a/rules.yaml\n';
    const problems = problemsOf(text, files);
    assert.deepEqual(
      problems.map((p) => [p.code, p.message.replace(/: .*/, '')]),
      // In reading order: the rule line 1 includes, then line 2's include.
      [
        ['unknown-action', 'a/more/rule.yaml:3:9'],
        ['include-outside', 'a/rules.yaml:2:3'],
      ],
    );
    assert.ok(problems.every((p) => text.slice(p.start, p.end) === '!include a/rules.yaml'));
    const loop = { 'self.yaml': '- !include self.yaml\n' };
    const looped = problemsOf('cloudflare:\n  waf_custom_rules: !include self.yaml\n', loop);
    assert.deepEqual(looped.map((p) => p.code), ['include-loop']);
  });

  it('reads no include without a reader, and says nothing of it', () => {
    assert.deepEqual(checkRuleset('cloudflare:\n  waf_custom_rules: !include x.yaml\n', 'yaml'), []);
  });
});

describe('octorules: positions', () => {
  it('puts a mistake on its characters in any section, nested or not, in every scalar style, after any rules', () => {
    const styles = [
      (e: string) => ` ${e}`,
      (e: string) => ` '${e.replace(/'/g, "''")}'`,
      (e: string) => ` ${JSON.stringify(e)}`,
      (e: string, indent: string) => ` |-\n${indent}  ${e}`,
      (e: string, indent: string) => ` >-\n${indent}  ${e}`,
    ];
    const sections = OCTORULES_SECTIONS.filter((s) => s.phase.startsWith('http_request_firewall') || s.phase === 'http_request_dynamic_redirect' || s.phase === 'http_request_cache_settings');
    fc.assert(
      fc.property(fc.constantFrom(...sections), fc.boolean(), fc.nat(3), fc.nat(styles.length - 1), fc.constantFrom('', '\r'), (section, nested, before, style, cr) => {
        const indent = nested ? '    ' : '  ';
        const rule = (ref: string, expression: string) => `${indent}- ref: ${ref}\n${indent}  expression:${styles[style](expression, indent + ' ')}\n${section.defaultAction ? '' : `${indent}  action: log\n`}`;
        const rules = Array.from({ length: before }, (_, i) => rule(`r${i}`, `http.host eq "h${i}.example.com"`)).join('') + rule('bad', 'http.request.uri.path eq "/x" and http.hots eq "a.example.com"');
        const head = nested ? `cloudflare:\n  ${section.section}:\n` : `${section.section}:\n`;
        const text = (head + rules).replace(/\n/g, `${cr}\n`);
        const found = problemsOf(text).filter((p) => p.code === 'unknown-field');
        assert.deepEqual(found.map((p) => text.slice(p.start, p.end)), ['http.hots'], text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('octorules: never throws', () => {
  it('on broken YAML: one syntax problem inside the text, and the sections that can be read are read', () => {
    const text = 'cloudflare:\n  waf_custom_rules:\n    - ref: a\n      expression: "ip.src eq 1.1.1.1\n      action: block\n';
    const problems = problemsOf(text);
    assert.ok(problems.length > 0);
    assert.ok(problems.every((p) => p.start >= 0 && p.end <= text.length && p.start <= p.end));
  });

  it('on any text built from octorules pieces', () => {
    const pieces = ['cloudflare:\n', '  waf_custom_rules:\n', '    - ref: a\n', '      expression: ip.src eq 1.1.1.1\n', '  redirect_rules: !include x.yaml\n', '    - !include y.yaml\n', '      action: block\n', '  - ', ': ', '"', '\t', '{', '[', '!include', '\n'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 25 }), fc.constantFrom('- ref: a\n  expression: "true"\n', 'a: [', '- !include x.yaml\n'), (parts, included) => {
        const text = parts.join('');
        const problems = checkRuleset(text, 'yaml', { cache: new ExpressionCache(), include: () => included });
        for (const p of problems) assert.ok(p.start >= 0 && p.end <= text.length && p.start <= p.end, JSON.stringify({ text, p }));
      }),
      { numRuns: 300 },
    );
  });
});
