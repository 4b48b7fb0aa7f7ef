/**
 * Reading `.rulesets.yaml`: what the CLI and the language server both take from it, and each
 * mistake in it said at its place, with the fix; a mistake never costs the rest of the file.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toPositions } from '../../server/src/documents/positions';
import { isProjectConfigPath } from '../../server/src/documents/classify';
import { applyRuleSeverities, readProjectConfig } from '../../server/src/documents/project-config';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { checkRuleset } from '../../server/src/documents/ruleset';

/** Each problem as `[code, severity, the text it marks, line:col (1-based), message]`. */
function problemsOf(text: string): [string, string, string, string, string][] {
  const { problems } = readProjectConfig(text);
  const positioned = toPositions(text, problems);
  return problems.map((p, i) => {
    const { line, character } = positioned[i].range.start;
    return [p.code, p.severity, text.slice(p.start, p.end), `${line + 1}:${character + 1}`, p.message];
  });
}

/** The text after applying a problem's first fix. */
function fixed(text: string, problem: DocumentProblem): string {
  const edits = [...problem.fixes![0].edits].sort((a, b) => b.start - a.start);
  return edits.reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}

describe('readProjectConfig: a correct file', () => {
  it('reads the phase, the lists, the file patterns and the severities', () => {
    const text = [
      '# shared by the CLI and the editor',
      'phase: magic_transit',
      'lists: [office_networks, blocked_asns]',
      'files:',
      '  - "firewall/*.yaml"',
      'rules:',
      '  country-code-case: error',
      '  always-true: off',
      '  shadowed-rule: information',
      '',
    ].join('\n');
    assert.deepEqual(readProjectConfig(text), {
      config: {
        phase: 'magic_transit',
        lists: ['office_networks', 'blocked_asns'],
        files: ['firewall/*.yaml'],
        rules: { 'country-code-case': 'error', 'always-true': 'off', 'shadowed-rule': 'information' },
      },
      problems: [],
    });
  });

  it('takes an empty file, or one with comments only, as no configuration', () => {
    assert.deepEqual(readProjectConfig(''), { config: {}, problems: [] });
    assert.deepEqual(readProjectConfig('# nothing set yet\n'), { config: {}, problems: [] });
  });

  it('leaves a key with no value unset, as while it is being typed', () => {
    assert.deepEqual(readProjectConfig('phase:\nrules:\n'), { config: {}, problems: [] });
  });

  it('accepts ESLint\'s `warn` and the short `info` for the severities', () => {
    assert.deepEqual(readProjectConfig('rules:\n  empty-set: warn\n  unknown-list: info\n'), {
      config: { rules: { 'empty-set': 'warning', 'unknown-list': 'information' } },
      problems: [],
    });
  });

  it('lets an error code be set to `error`, which changes nothing', () => {
    assert.deepEqual(readProjectConfig('rules:\n  syntax-error: error\n'), { config: { rules: { 'syntax-error': 'error' } }, problems: [] });
  });

  it('knows its file by name', () => {
    assert.ok(isProjectConfigPath('/work/repo/.rulesets.yaml'));
    assert.ok(isProjectConfigPath('.rulesets.yaml'));
    assert.ok(!isProjectConfigPath('/work/repo/main.rulesets.yaml'));
    assert.ok(!isProjectConfigPath('/work/repo/.rulesets.yaml.bak'));
  });
});

describe('readProjectConfig: mistakes, at their place', () => {
  it('reports broken YAML where it is broken, and reads nothing from it', () => {
    const text = 'phase: magic_transit\nrules: [always-true: off\n';
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(config, {});
    assert.ok(problems.length > 0);
    assert.ok(problems.every((p) => p.code === 'yaml-syntax' && p.severity === 'error'));
  });

  it('wants a mapping at the top', () => {
    assert.deepEqual(problemsOf('- phase: magic_transit\n'), [
      ['invalid-type', 'error', '- phase: magic_transit\n', '1:1', 'expected a mapping of `phase`, `plan`, `addons`, `lists`, `files`, `rules`, `terraform`, `targets` and `apply` in `.rulesets.yaml`, found a list'],
    ]);
  });

  it('reads `apply:`, the thresholds and the audit log of `rulesets apply`, and says what is wrong in it at its place', () => {
    assert.deepEqual(readProjectConfig('apply:\n  max_removed: 3\n  max_removed_percent: 30\n  audit_log: logs/apply.log\n').config, { apply: { max_removed: 3, max_removed_percent: 30, audit_log: 'logs/apply.log' } });
    assert.deepEqual(problemsOf('apply:\n  max_remove: 3\n  max_changed: -1\n  max_removed_percent: 150\n  audit_log: [x]\n'), [
      ['unknown-key', 'error', 'max_remove', '2:3', 'unknown key `max_remove` in `apply`; did you mean `max_removed`?'],
      ['invalid-type', 'error', '-1', '3:16', 'expected `max_changed` to be a whole number from 0, found `-1`'],
      ['invalid-type', 'error', '150', '4:24', 'expected `max_removed_percent` to be a whole number from 0 to 100, found `150`'],
      ['invalid-type', 'error', '[x]', '5:14', 'expected `audit_log` to be a file path, e.g. `.rulesets/audit.log`, found a list'],
    ]);
    assert.deepEqual(readProjectConfig('apply:\n  max_changed: -1\n').config, { apply: {} }, 'a wrong threshold is left at its default');
  });

  it('says which key was meant by a misspelt one, with the fix, and reads the others', () => {
    const text = 'phase: magic_transit\nrulse:\n  always-true: off\n';
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(config, { phase: 'magic_transit' });
    assert.deepEqual(problemsOf(text), [['unknown-key', 'error', 'rulse', '2:1', 'unknown key `rulse` in `.rulesets.yaml`; did you mean `rules`?']]);
    assert.equal(fixed(text, problems[0]), 'phase: magic_transit\nrules:\n  always-true: off\n');
  });

  it('points the names of the editor settings to the keys of the file', () => {
    assert.deepEqual(
      problemsOf('knownLists: [office]\ndefaultPhase: magic_transit\nhints: {}\n').map((p) => p[4]),
      [
        'unknown key `knownLists` in `.rulesets.yaml`; the account\'s list names are `lists`',
        'unknown key `defaultPhase` in `.rulesets.yaml`; the phase of files that name none is `phase`',
        'unknown key `hints` in `.rulesets.yaml`; codes are turned off under `rules`, e.g. `always-true: off`',
      ],
    );
  });

  it('reports a key given twice', () => {
    assert.deepEqual(problemsOf('phase: magic_transit\nphase: ddos_l4\n').map((p) => p.slice(0, 4)), [['duplicate-key', 'error', 'phase', '2:1']]);
  });

  it('says which phase was meant by a misspelt one, and does not use it', () => {
    const text = 'phase: magic_transitt\n';
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(config, {});
    assert.deepEqual(problemsOf(text), [['unknown-phase', 'error', 'magic_transitt', '1:8', 'unknown phase `magic_transitt`; did you mean `magic_transit`?']]);
    assert.equal(fixed(text, problems[0]), 'phase: magic_transit\n');
  });

  it('uses a phase it does not know but that is like none it knows, with a warning (the service adds phases)', () => {
    const text = 'phase: zero_trust_gateway\n';
    assert.deepEqual(readProjectConfig(text).config, { phase: 'zero_trust_gateway' });
    assert.deepEqual(problemsOf(text), [['unknown-phase', 'warning', 'zero_trust_gateway', '1:8', '`zero_trust_gateway` is not a phase this version knows; files without a phase are checked with it anyway']]);
  });

  it('wants the phase as a name', () => {
    assert.deepEqual(problemsOf('phase: [magic_transit]\n').map((p) => p.slice(0, 3)), [['invalid-type', 'error', '[magic_transit]']]);
  });

  it('wants the lists as a list, and says so for a single name', () => {
    assert.deepEqual(problemsOf('lists: office_networks\n'), [
      ['invalid-type', 'error', 'office_networks', '1:8', 'expected `lists` to be a list of list names, e.g. `[office_networks]` (or a mapping of names to kinds, `{office_networks: ip}`), found a string'],
    ]);
  });

  it('reads the lists as a mapping of names to kinds, a name without a kind too', () => {
    const text = 'lists:\n  office_networks: ip\n  bad_asns: asn\n  hosts: hostname\n  redirects: redirect\n  other:\n';
    assert.deepEqual(readProjectConfig(text), {
      config: {
        lists: ['office_networks', 'bad_asns', 'hosts', 'redirects', 'other'],
        listKinds: { office_networks: 'ip', bad_asns: 'asn', hosts: 'hostname', redirects: 'redirect' },
      },
      problems: [],
    });
    assert.deepEqual(readProjectConfig('lists: {a: , b: }\n').config, { lists: ['a', 'b'] });
  });

  it('says which kinds there are for one that is none, with the kind meant', () => {
    const text = 'lists: {office_networks: IP, bad_asns: country}\n';
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(config, { lists: ['office_networks', 'bad_asns'] }, 'the names are known all the same');
    assert.deepEqual(problemsOf(text), [
      ['invalid-list-kind', 'error', 'IP', '1:26', 'expected the kind of `$office_networks` to be `ip`, `asn`, `hostname` or `redirect`, found `IP`; did you mean `ip`?'],
      ['invalid-list-kind', 'error', 'country', '1:40', 'expected the kind of `$bad_asns` to be `ip`, `asn`, `hostname` or `redirect`, found `country`'],
    ]);
    assert.equal(fixed(text, problems[0]), 'lists: {office_networks: ip, bad_asns: country}\n');
  });

  it('corrects a list name that is a key of the mapping, by renaming the key', () => {
    const text = 'lists:\n  Office-Networks: ip\n  $hosts: hostname\n';
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(config, { lists: ['hosts'], listKinds: { hosts: 'hostname' } });
    assert.deepEqual(problemsOf(text).map(([code, severity, marked]) => [code, severity, marked]), [
      ['invalid-list-name', 'error', 'Office-Networks'],
      ['invalid-list-name', 'warning', '$hosts'],
    ]);
    assert.equal(fixed(text, problems[0]), 'lists:\n  office_networks: ip\n  $hosts: hostname\n');
    assert.equal(fixed(text, problems[1]), 'lists:\n  Office-Networks: ip\n  hosts: hostname\n');
  });

  it('the kinds reach the checks of a ruleset: a misfit is an error', () => {
    const { config } = readProjectConfig('lists: {office_networks: ip}\n');
    const ruleset = '{"name": "waf", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "block", "expression": "http.host in $office_networks"}]}';
    const found = checkRuleset(ruleset, 'json', { knownLists: config.lists, listKinds: config.listKinds }).map((p) => `${p.code} ${p.severity}`);
    assert.deepEqual(found, ['list-not-allowed error']);
    // Without the kind, it may be a hostname list: nothing to say.
    assert.deepEqual(checkRuleset(ruleset, 'json', { knownLists: ['office_networks'] }), []);
  });

  it('corrects list names with characters list names cannot have, and leaves them out', () => {
    const text = 'lists: [Office-Networks, blocked_asns, svc.vpn]\n';
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(config, { lists: ['blocked_asns'] });
    assert.deepEqual(problemsOf(text), [
      ['invalid-list-name', 'error', 'Office-Networks', '1:9', '`Office-Networks` is not a list name: list names use lowercase letters, digits and `_`; did you mean `office_networks`?'],
      ['invalid-list-name', 'error', 'svc.vpn', '1:40', '`svc.vpn` is not an account list name: account list names have no `.`, and the managed lists (`$svc.…`) are always known'],
    ]);
    assert.equal(fixed(text, problems[0]), 'lists: [office_networks, blocked_asns, svc.vpn]\n');
  });

  it('takes a list name written with `$`, and says it is written without', () => {
    const text = 'lists: [$office_networks]\n';
    assert.deepEqual(readProjectConfig(text).config, { lists: ['office_networks'] });
    assert.deepEqual(problemsOf(text), [['invalid-list-name', 'warning', '$office_networks', '1:9', 'list names are written here without `$`: `office_networks`']]);
  });

  it('wants the file patterns as strings', () => {
    const text = 'files: ["*.yaml", 3]\n';
    assert.deepEqual(readProjectConfig(text).config, { files: ['*.yaml'] });
    assert.deepEqual(problemsOf(text).map((p) => p.slice(0, 4)), [['invalid-type', 'error', '3', '1:19']]);
  });

  it('wants the rules as a mapping of codes to severities', () => {
    assert.deepEqual(problemsOf('rules: [always-true]\n'), [
      ['invalid-type', 'error', '[always-true]', '1:8', 'expected `rules` to be a mapping of codes to severities, e.g. `always-true: off`, found a list'],
    ]);
  });

  it('says which code was meant by a misspelt one, with the fix', () => {
    const text = 'rules:\n  shadowed-rules: off\n';
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(config, { rules: {} });
    assert.deepEqual(problemsOf(text), [['unknown-code', 'error', 'shadowed-rules', '2:3', 'unknown code `shadowed-rules`; did you mean `shadowed-rule`?']]);
    assert.equal(fixed(text, problems[0]), 'rules:\n  shadowed-rule: off\n');
  });

  it('passes over a code it does not know and that is like none it knows, with a warning (a newer version may know it)', () => {
    assert.deepEqual(problemsOf('rules:\n  rule-from-the-future: off\n'), [
      ['unknown-code', 'warning', 'rule-from-the-future', '2:3', '`rule-from-the-future` is not a code this version reports, so this line does nothing'],
    ]);
  });

  it('lists the severities for a value that is none of them', () => {
    const text = 'rules:\n  always-true: silent\n  empty-set: 0\n  unknown-list: false\n';
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(config, { rules: {} });
    assert.deepEqual(problemsOf(text), [
      ['invalid-severity', 'error', 'silent', '2:16', 'expected `off`, `error`, `warning` or `information` for `always-true`, found `silent`'],
      ['invalid-severity', 'error', '0', '3:14', 'expected `off`, `error`, `warning` or `information` for `empty-set`, found `0`'],
      ['invalid-severity', 'error', 'false', '4:17', 'expected `off`, `error`, `warning` or `information` for `unknown-list`, found `false`; did you mean `off`?'],
    ]);
    assert.equal(fixed(text, problems[2]), 'rules:\n  always-true: silent\n  empty-set: 0\n  unknown-list: off\n');
  });

  it('refuses to turn off or lower an error the service would reject, and keeps it an error', () => {
    const text = 'rules:\n  unknown-field: off\n  syntax-error: warning\n  always-true: off\n';
    const { config } = readProjectConfig(text);
    assert.deepEqual(config, { rules: { 'always-true': 'off' } });
    assert.deepEqual(problemsOf(text), [
      ['error-not-configurable', 'error', 'off', '2:18', '`unknown-field` is a mistake the service rejects, so it stays an error: fix the rule instead of turning it off'],
      ['error-not-configurable', 'error', 'warning', '3:17', '`syntax-error` is a mistake the service rejects, so it stays an error: fix the rule instead of lowering it'],
    ]);
  });

  it('reads the plan, and names the plan meant by a misspelt or miscased one, with the fix', () => {
    assert.deepEqual(readProjectConfig('plan: business\n').config, { plan: 'business' });
    assert.deepEqual(problemsOf('plan: business\n'), []);
    const misspelt = 'plan: buisness\n';
    assert.deepEqual(readProjectConfig(misspelt).config, {});
    assert.deepEqual(problemsOf(misspelt), [['invalid-plan', 'error', 'buisness', '1:7', 'expected `plan` to be `free`, `pro`, `business` or `enterprise`, found `buisness`; did you mean `business`?']]);
    assert.equal(fixed(misspelt, readProjectConfig(misspelt).problems[0]), 'plan: business\n');
    const upper = 'plan: Enterprise\n';
    assert.deepEqual(problemsOf(upper), [['invalid-plan', 'error', 'Enterprise', '1:7', 'plans are written in lowercase: `enterprise`']]);
    assert.equal(fixed(upper, readProjectConfig(upper).problems[0]), 'plan: enterprise\n');
    assert.deepEqual(problemsOf('plan: [pro]\n').map((p) => p.slice(0, 4)), [['invalid-plan', 'error', '[pro]', '1:7']]);
  });

  it('reads the add-ons, and names the add-on meant by a misspelt one, with the fix', () => {
    assert.deepEqual(readProjectConfig('plan: enterprise\naddons: [bot_management, advanced_rate_limiting]\n').config, { plan: 'enterprise', addons: ['bot_management', 'advanced_rate_limiting'] });
    // An empty list says the account has none, which is not the same as not saying.
    assert.deepEqual(readProjectConfig('addons: []\n').config, { addons: [] });
    assert.deepEqual(readProjectConfig('addons:\n  - bot_management\n').config, { addons: ['bot_management'] });
    const misspelt = 'addons: [bot-management, advanced_ratelimiting]\n';
    assert.deepEqual(readProjectConfig(misspelt).config, { addons: [] });
    assert.deepEqual(problemsOf(misspelt), [
      ['unknown-addon', 'error', 'bot-management', '1:10', 'unknown add-on `bot-management` in `addons`; did you mean `bot_management`?'],
      ['unknown-addon', 'error', 'advanced_ratelimiting', '1:26', 'unknown add-on `advanced_ratelimiting` in `addons`; did you mean `advanced_rate_limiting`?'],
    ]);
    assert.equal(fixed(misspelt, readProjectConfig(misspelt).problems[0]), 'addons: [bot_management, advanced_ratelimiting]\n');
    assert.deepEqual(problemsOf('addons: [api_shield]\n'), [['unknown-addon', 'error', 'api_shield', '1:10', 'unknown add-on `api_shield` in `addons`; the add-ons this version knows are `bot_management` and `advanced_rate_limiting`']]);
    assert.deepEqual(problemsOf('addons: bot_management\n'), [['invalid-type', 'error', 'bot_management', '1:9', 'expected `addons` to be a list of add-on names, e.g. `[bot_management]`, found a string']]);
  });

  it('reads what is right in a file with mistakes', () => {
    const text = 'phase: magic_transit\nlists: [Bad-Name, good]\ncolour: red\nrules:\n  always-true: off\n  empty-set: loud\n';
    assert.deepEqual(readProjectConfig(text).config, { phase: 'magic_transit', lists: ['good'], rules: { 'always-true': 'off' } });
  });
});

describe('applyRuleSeverities: the findings of a ruleset under the configured severities', () => {
  const RULESET = [
    'name: x',
    'kind: root',
    'phase: magic_transit',
    'rules:',
    '  - action: block',
    '    expression: ip.src.country == "br"',
    '  - action: block',
    '    expression: tcp.dstprt == 22 or ip.src in {}',
    '',
  ].join('\n');

  it('turns codes off and changes the severity of warnings', () => {
    const problems = checkRuleset(RULESET, 'yaml');
    assert.deepEqual(problems.map((p) => [p.code, p.severity]), [
      ['country-code-case', 'warning'],
      ['unknown-field', 'error'],
      ['empty-set', 'warning'],
    ]);
    applyRuleSeverities(problems, { 'country-code-case': 'error', 'empty-set': 'off' });
    assert.deepEqual(problems.map((p) => [p.code, p.severity]), [
      ['country-code-case', 'error'],
      ['unknown-field', 'error'],
    ]);
  });

  it('never turns off or lowers an error, whoever asks', () => {
    const problems = checkRuleset(RULESET, 'yaml');
    applyRuleSeverities(problems, { 'unknown-field': 'off' });
    assert.deepEqual(problems.map((p) => [p.code, p.severity]), [
      ['country-code-case', 'warning'],
      ['unknown-field', 'error'],
      ['empty-set', 'warning'],
    ]);
    applyRuleSeverities(problems, { 'unknown-field': 'information' });
    assert.equal(problems[1].severity, 'error');
  });

  it('is applied by checkRuleset with the `severities` option', () => {
    const problems = checkRuleset(RULESET, 'yaml', { severities: { 'country-code-case': 'off', 'empty-set': 'error' } });
    assert.deepEqual(problems.map((p) => [p.code, p.severity]), [
      ['unknown-field', 'error'],
      ['empty-set', 'error'],
    ]);
  });
});

describe('.rulesets.yaml terraform.var_files (issue 34)', () => {
  it('reads the var files, and says what is wrong with the key', () => {
    assert.deepEqual(readProjectConfig('terraform:\n  var_files: [prod.tfvars, envs/eu.tfvars]\n'), { config: { terraformVarFiles: ['prod.tfvars', 'envs/eu.tfvars'] }, problems: [] });
    assert.deepEqual(readProjectConfig('terraform:\n  var_file: [prod.tfvars]\n').problems.map((p) => p.code), ['unknown-key']);
    assert.deepEqual(readProjectConfig('terraform: prod.tfvars\n').problems.map((p) => p.code), ['invalid-type']);
  });
});

describe('.rulesets.yaml targets', () => {
  const ZONE_ID = '0123456789abcdef0123456789abcdef';

  it('reads each item: files (a glob or a list), a zone (name or id) or an account, its plan and add-ons', () => {
    const text = `targets:
  - files: zones/example.com/*.yaml
    zone: Example.com
    plan: business
    addons: [bot_management]
  - files: [account/*.json, account/*.tf]
    account: ${ZONE_ID}
  - files: by-id/*.json
    zone: ${ZONE_ID}
`;
    const { config, problems } = readProjectConfig(text);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      config.targets!.map(({ start, end, ...rest }) => rest),
      [
        { files: ['zones/example.com/*.yaml'], zone: 'example.com', plan: 'business', addons: ['bot_management'] },
        { files: ['account/*.json', 'account/*.tf'], account: ZONE_ID },
        { files: ['by-id/*.json'], zone: ZONE_ID },
      ],
    );
    assert.equal(text.slice(config.targets![1].start, config.targets![1].start + 6), 'files:', 'each item says where it is, for messages about it');
  });

  it('wants exactly one of zone and account, and files, each said at its place; an item with a mistake is left out', () => {
    const text = `targets:
  - files: a/*.json
    zone: example.com
    account: ${ZONE_ID}
  - files: b/*.json
  - zone: example.org
  - files: c/*.json
    zone: example.net
`;
    const { config } = readProjectConfig(text);
    assert.deepEqual(config.targets!.map((t) => t.zone), ['example.net']);
    assert.deepEqual(problemsOf(text), [
      ['invalid-target', 'error', 'account', '4:5', 'a target is one zone or one account: give `zone` or `account`, not both (a second item sends other files elsewhere)'],
      ['invalid-target', 'error', 'files: b/*.json\n', '5:5', 'this target says no place: add `zone: <name or id>` or `account: <id>`'],
      ['invalid-target', 'error', 'zone: example.org\n', '6:5', 'this target names no files: add `files: <glob>` (relative to the folder of `.rulesets.yaml`)'],
    ]);
  });

  it('refuses an id that is no id, and a zone that is no domain, and lowercases an id with the fix', () => {
    const text = `targets:
  - files: a
    account: acme
  - files: b
    zone: 0123456789abcdef
  - files: c
    zone: production
  - files: d
    zone: exa_mple.com
  - files: e
    zone: 0123456789ABCDEF0123456789ABCDEF
`;
    assert.deepEqual(problemsOf(text), [
      ['invalid-id', 'error', 'acme', '3:14', 'expected `account` to be an account id (32 hex digits), found `acme`'],
      ['invalid-id', 'error', '0123456789abcdef', '5:11', 'expected `zone` to be a zone name, e.g. `example.com`, or its id (32 hex digits), found 16 hex digits'],
      ['invalid-id', 'error', 'production', '7:11', 'expected `zone` to be a zone name, e.g. `example.com`, or its id (32 hex digits), found `production`'],
      ['invalid-id', 'error', 'exa_mple.com', '9:11', '`exa_mple.com` is not a zone name: a zone is a domain like `example.com` (letters, digits, `-` and dots), or its id (32 hex digits)'],
      ['invalid-id', 'error', '0123456789ABCDEF0123456789ABCDEF', '11:11', 'ids are written in lowercase: `0123456789abcdef0123456789abcdef`'],
    ]);
    const problem = readProjectConfig(text).problems.at(-1)!;
    assert.match(fixed(text, problem), /zone: 0123456789abcdef0123456789abcdef\n$/);
    assert.deepEqual(readProjectConfig(text).config.targets, []);
  });

  it('names the key meant by a misspelt one, with the fix, and checks plan and add-ons as at the top', () => {
    const text = 'targets:\n  - files: a/*.json\n    zones: example.com\n    plan: buisness\n    addons: [bot-management]\n';
    assert.deepEqual(problemsOf(text), [
      ['unknown-key', 'error', 'zones', '3:5', 'unknown key `zones` in an item of `targets`; did you mean `zone`?'],
      ['invalid-plan', 'error', 'buisness', '4:11', 'expected `plan` to be `free`, `pro`, `business` or `enterprise`, found `buisness`; did you mean `business`?'],
      ['unknown-addon', 'error', 'bot-management', '5:14', 'unknown add-on `bot-management` in `addons`; did you mean `bot_management`?'],
    ]);
    assert.equal(fixed(text, readProjectConfig(text).problems[0]), 'targets:\n  - files: a/*.json\n    zone: example.com\n    plan: buisness\n    addons: [bot-management]\n');
  });

  it('wants a list of mappings', () => {
    assert.deepEqual(problemsOf('targets: example.com\n'), [['invalid-type', 'error', 'example.com', '1:10', 'expected `targets` to be a list of mappings, each with `files` and a `zone` or an `account`, found a string']]);
    assert.deepEqual(problemsOf('targets:\n  - example.com\n'), [['invalid-type', 'error', 'example.com', '2:5', 'expected an item of `targets` to be a mapping with `files` and a `zone` or an `account`, found a string']]);
    assert.deepEqual(problemsOf('targets:\n  - files: []\n    zone: example.com\n').map((p) => p[4]), ['expected `files` to name at least one glob, e.g. `zones/example.com/*.yaml`']);
    assert.deepEqual(problemsOf('targets:\n  - files: {a: b}\n    zone: example.com\n').map((p) => p[4]), ['expected `files` to be a glob or a list of globs, e.g. `zones/example.com/*.yaml`, found a mapping']);
    assert.deepEqual(problemsOf('targets:\n  - files: a\n    account: 01234567890123456789012345678901\n').map((p) => p[4]), ['YAML reads this `account` as a number, which may lose digits: quote it, `account: "…"`']);
    assert.deepEqual(problemsOf('targets:\n  - files: a\n    account: "01234567890123456789012345678901"\n'), []);
  });
});
