/**
 * What the account's plan and add-ons allow a ruleset, by the docs' plans table: every phase's
 * quota of rules on every plan, at the limit (clean) and one rule over (an error on the rule past
 * it, naming the plan, the limit and the fix), in JSON, YAML, Terraform and octorules files; the
 * `log` action, hostname and ASN lists and Bot Management's fields; and nothing at all without a
 * plan, or where the number of rules is Terraform's to make.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import type { HostFormat } from '../../server/src/documents/host/host';
import { RULE_QUOTAS } from '../../server/src/language/catalogue/plan-quotas';
import { PLANS, type Addon, type Plan } from '../../server/src/language/catalogue/plans';
import { checkProblems } from './check-helpers';

/** One rule of each phase as the docs write them, the i-th differing from the others by its host. */
const RULE_OF_PHASE: Readonly<Record<string, (i: number) => string>> = {
  http_request_firewall_custom: (i) => `  - action: block\n    expression: 'http.host eq "a${i}.example.com"'\n`,
  http_ratelimit: (i) => `  - action: block\n    expression: 'http.host eq "a${i}.example.com"'\n    ratelimit:\n      characteristics: [cf.colo.id, ip.src]\n      period: 60\n      requests_per_period: 100\n      mitigation_timeout: 600\n`,
  http_request_dynamic_redirect: (i) => `  - action: redirect\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      from_value:\n        status_code: 301\n        target_url: {value: 'https://example.com/'}\n`,
  http_request_redirect: (i) => `  - action: redirect\n    expression: 'http.request.full_uri in $redirects${i}'\n    action_parameters:\n      from_list: {name: redirects${i}, key: http.request.full_uri}\n`,
  http_request_transform: (i) => `  - action: rewrite\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      uri:\n        path: {value: /new}\n`,
  http_request_late_transform: (i) => `  - action: rewrite\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      headers:\n        x-team: {operation: set, value: edge}\n`,
  http_response_headers_transform: (i) => `  - action: rewrite\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      headers:\n        x-team: {operation: set, value: edge}\n`,
  http_request_origin: (i) => `  - action: route\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      origin: {port: 8443}\n`,
  http_config_settings: (i) => `  - action: set_config\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      rocket_loader: false\n`,
  http_response_compression: (i) => `  - action: compress_response\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      algorithms: [{name: gzip}]\n`,
  http_request_cache_settings: (i) => `  - action: set_cache_settings\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      cache: true\n`,
  http_custom_errors: (i) => `  - action: serve_error\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      content: 'Try again later'\n      content_type: text/plain\n      status_code: 503\n`,
  http_request_cloud_connector: (i) => `  - action: route\n    expression: 'http.host eq "a${i}.example.com"'\n    action_parameters:\n      origin: {host: 'bucket.s3.amazonaws.com'}\n`,
};

function yamlRuleset(phase: string, kind: string, count: number, rule = RULE_OF_PHASE[phase]): string {
  return `name: quota\nkind: ${kind}\nphase: ${phase}\nrules:${count === 0 ? ' []\n' : `\n${Array.from({ length: count }, (_, i) => rule(i)).join('')}`}`;
}

/** The WAF custom rules of a zone's Terraform resource, as a v5 list of `count` rules. */
function terraformRuleset(count: number, phase = 'http_request_firewall_custom'): string {
  const rules = Array.from({ length: count }, (_, i) => `    { action = "block", expression = "http.host eq \\"a${i}.example.com\\"" },\n`).join('');
  return `resource "cloudflare_ruleset" "waf" {\n  zone_id = "0123456789abcdef0123456789abcdef"\n  name    = "waf"\n  kind    = "zone"\n  phase   = "${phase}"\n  rules = [\n${rules}  ]\n}\n`;
}

function octorulesFile(section: string, count: number): string {
  return `cloudflare:\n  ${section}:\n${Array.from({ length: count }, (_, i) => `    - ref: rule-${i}\n      expression: 'http.host eq "a${i}.example.com"'\n      action: block\n`).join('')}`;
}

function quotaProblems(text: string, format: HostFormat, plan: Plan | undefined, addons?: readonly Addon[]): DocumentProblem[] {
  return checkProblems(text, format, { ...(plan ? { plan } : {}), ...(addons ? { addons } : {}) }).filter((p) => p.code === 'rule-quota');
}

/** The text of the line a problem starts on. */
function lineOf(text: string, problem: DocumentProblem): string {
  return text.slice(text.lastIndexOf('\n', problem.start - 1) + 1, text.indexOf('\n', problem.start));
}

before(async () => {
  await loadTerraformParser();
});

describe('rule quotas by plan: every phase of the table, on every plan', () => {
  for (const quota of RULE_QUOTAS) {
    for (const plan of PLANS) {
      // Rate limiting on Enterprise depends on an add-on: its own cases below.
      if (quota.withAddon?.plan === plan) continue;
      const limit = quota.limits[plan];
      const kind = quota.kinds[0];
      it(`${quota.phase} (${kind}) on ${plan}: ${limit} rules are clean, ${limit + 1} are one too many`, () => {
        const clean = yamlRuleset(quota.phase, kind, limit);
        assert.deepEqual(checkProblems(clean, 'yaml', { plan }).filter((p) => p.severity === 'error'), []);
        const over = yamlRuleset(quota.phase, kind, limit + 1);
        const found = quotaProblems(over, 'yaml', plan);
        assert.equal(found.length, 1);
        const [problem] = found;
        assert.equal(problem.severity, 'error');
        // On the first rule past the quota: the (limit + 1)-th `- action:` line.
        const ruleStarts = [...over.matchAll(/^ {2}- /gm)].map((m) => m.index! + 4);
        assert.equal(problem.start, ruleStarts[limit]);
        assert.equal(over.slice(problem.start, problem.end), 'action');
        const planName = { free: 'Free', pro: 'Pro', business: 'Business', enterprise: 'Enterprise' }[plan];
        assert.match(problem.message, new RegExp(`the ${planName} plan allows ${limit === 0 ? 'no' : limit} `));
        assert.match(problem.message, new RegExp(`\`${quota.phase}\``));
        assert.match(problem.message, /`plan` in \.rulesets\.yaml/);
        assert.match(problem.message, /remove or disable a rule/);
        if (plan !== 'enterprise') assert.match(problem.message, /move to a higher plan \((Pro|Business|Enterprise) allows \d+\)|move to Enterprise with Advanced Rate Limiting \(100\)/);
      });
    }
  }
});

describe('rule quotas: what the messages say', () => {
  it('names the product, the plan, the limit and both fixes for the docs\' WAF custom rules on Free', () => {
    const text = yamlRuleset('http_request_firewall_custom', 'zone', 6);
    const [problem] = quotaProblems(text, 'yaml', 'free');
    assert.equal(
      problem.message,
      'this is rule 6 of the 6 enabled WAF custom rules of this ruleset, and the Free plan allows 5 in `http_request_firewall_custom` (`plan` in .rulesets.yaml), so the service refuses the ruleset: remove or disable a rule, or move to a higher plan (Pro allows 20)',
    );
    assert.equal(lineOf(text, problem), '  - action: block');
    assert.equal(text.slice(0, problem.start).split('\n').length - 1, 4 + 5 * 2);
  });

  it('says Custom Errors are none on Free', () => {
    const [problem] = quotaProblems(yamlRuleset('http_custom_errors', 'zone', 1), 'yaml', 'free');
    assert.equal(problem.message, 'the Free plan allows no Custom Errors rules in `http_custom_errors` (`plan` in .rulesets.yaml), so the service refuses the ruleset: remove or disable a rule, or move to a higher plan (Pro allows 25)');
  });

  it('counts the rules past the quota once, on the first of them', () => {
    const found = quotaProblems(yamlRuleset('http_request_firewall_custom', 'zone', 8), 'yaml', 'free');
    assert.equal(found.length, 1);
    assert.match(found[0].message, /rule 6 of the 8 enabled .*remove or disable 3 rules/);
  });
});

describe('rule quotas: rate limiting and the Advanced Rate Limiting add-on', () => {
  const six = yamlRuleset('http_ratelimit', 'zone', 6);
  it('holds Enterprise to the most the add-on allows when the add-ons are not configured, which would decide the rest', () => {
    assert.deepEqual(quotaProblems(six, 'yaml', 'enterprise'), []);
    assert.deepEqual(quotaProblems(yamlRuleset('http_ratelimit', 'zone', 100), 'yaml', 'enterprise'), []);
    const [problem] = quotaProblems(yamlRuleset('http_ratelimit', 'zone', 101), 'yaml', 'enterprise');
    assert.match(problem.message, /rule 101 of the 101 enabled rate limiting rules of this ruleset, and the Enterprise plan even with Advanced Rate Limiting allows 100 in `http_ratelimit` .*: remove or disable a rule$/);
  });

  it('holds Enterprise without the add-on to 5, and names the add-on as a fix', () => {
    const [problem] = quotaProblems(six, 'yaml', 'enterprise', []);
    assert.equal(
      problem.message,
      'this is rule 6 of the 6 enabled rate limiting rules of this ruleset, and the Enterprise plan allows 5 in `http_ratelimit` (`plan` in .rulesets.yaml), so the service refuses the ruleset: remove or disable a rule, or add Advanced Rate Limiting (100 with it; `addons: [advanced_rate_limiting]` in .rulesets.yaml)',
    );
    assert.equal(quotaProblems(yamlRuleset('http_ratelimit', 'zone', 5), 'yaml', 'enterprise', []).length, 0);
  });

  it('allows 100 on Enterprise with the add-on, and not 101', () => {
    assert.deepEqual(quotaProblems(yamlRuleset('http_ratelimit', 'zone', 100), 'yaml', 'enterprise', ['advanced_rate_limiting']), []);
    const [problem] = quotaProblems(yamlRuleset('http_ratelimit', 'zone', 101), 'yaml', 'enterprise', ['advanced_rate_limiting']);
    assert.match(problem.message, /the Enterprise plan with Advanced Rate Limiting allows 100 in `http_ratelimit`.*: remove or disable a rule$/);
  });

  it('names Enterprise with the add-on as the fix on Business, whose 5 Enterprise does not raise alone', () => {
    const [problem] = quotaProblems(six, 'yaml', 'business');
    assert.match(problem.message, /the Business plan allows 5 in `http_ratelimit` .*: remove or disable a rule, or move to Enterprise with Advanced Rate Limiting \(100\)$/);
  });

  it('says nothing of the add-on on a plan the table gives it no number on', () => {
    assert.deepEqual(quotaProblems(six, 'yaml', 'business', ['advanced_rate_limiting']), []);
    // Without the add-on, Business's own 5 hold.
    assert.equal(quotaProblems(six, 'yaml', 'business', ['bot_management']).length, 1);
  });
});

describe('rule quotas: which rules and rulesets count', () => {
  it('says nothing without a plan: none is assumed', () => {
    assert.deepEqual(quotaProblems(yamlRuleset('http_request_firewall_custom', 'zone', 1001), 'yaml', undefined), []);
  });

  it('counts only the enabled rules (the table counts active Transform Rules)', () => {
    const rule = (i: number) => `${RULE_OF_PHASE.http_request_transform(i)}${i === 0 ? '    enabled: false\n' : ''}`;
    assert.deepEqual(quotaProblems(yamlRuleset('http_request_transform', 'zone', 11, rule), 'yaml', 'free'), []);
    assert.equal(quotaProblems(yamlRuleset('http_request_transform', 'zone', 12, rule), 'yaml', 'free').length, 1);
  });

  it("holds a zone's quota to zone rulesets only: an account's root or a custom ruleset has others", () => {
    for (const kind of ['root', 'custom']) assert.deepEqual(quotaProblems(yamlRuleset('http_request_firewall_custom', kind, 6), 'yaml', 'free'), [], kind);
  });

  it('reads a JSON file as a YAML one', () => {
    const rules = Array.from({ length: 21 }, (_, i) => ({ action: 'block', expression: `http.host eq "a${i}.example.com"` }));
    const text = JSON.stringify({ name: 'waf', kind: 'zone', phase: 'http_request_firewall_custom', rules }, null, 2);
    assert.deepEqual(quotaProblems(JSON.stringify({ name: 'waf', kind: 'zone', phase: 'http_request_firewall_custom', rules: rules.slice(0, 20) }, null, 2), 'json', 'pro'), []);
    const [problem] = quotaProblems(text, 'json', 'pro');
    assert.equal(text.slice(problem.start, problem.end), '"action"');
    assert.equal(problem.start, text.lastIndexOf('"action"', text.indexOf('a20.example.com')));
  });
});

describe('rule quotas in Terraform', () => {
  it("counts a resource's list of rules: 20 clean on Pro, 21 an error on the 21st", () => {
    assert.deepEqual(quotaProblems(terraformRuleset(20), 'hcl', 'pro'), []);
    const text = terraformRuleset(21);
    const [problem] = quotaProblems(text, 'hcl', 'pro');
    assert.match(lineOf(text, problem), /a20\.example\.com/);
    assert.equal(text.slice(problem.start, problem.end), 'action');
    assert.doesNotMatch(problem.message, /YAML|JSON/);
  });

  it('counts v4 `rules` blocks', () => {
    const blocks = Array.from({ length: 6 }, (_, i) => `  rules {\n    action     = "block"\n    expression = "http.host eq \\"a${i}.example.com\\""\n  }\n`).join('');
    const text = `resource "cloudflare_ruleset" "waf" {\n  zone_id = "z"\n  name    = "waf"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n${blocks}}\n`;
    const [problem] = quotaProblems(text, 'hcl', 'free');
    // The sixth block's `action`.
    assert.equal(text.slice(problem.start, problem.end), 'action');
    assert.ok(problem.start > text.indexOf('a4.example.com') && problem.start < text.indexOf('a5.example.com'));
  });

  it('says nothing where Terraform makes rules (a dynamic block, a for expression): their number is not known', () => {
    const dynamic = `resource "cloudflare_ruleset" "waf" {\n  zone_id = "z"\n  name    = "waf"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n${Array.from({ length: 6 }, (_, i) => `  rules {\n    action     = "block"\n    expression = "http.host eq \\"a${i}.example.com\\""\n  }\n`).join('')}  dynamic "rules" {\n    for_each = var.rules\n    content {\n      action     = "block"\n      expression = rules.value\n    }\n  }\n}\n`;
    assert.deepEqual(quotaProblems(dynamic, 'hcl', 'free'), []);
    const forExpression = `variable "hosts" {\n  type = list(string)\n}\nresource "cloudflare_ruleset" "waf" {\n  zone_id = "z"\n  name    = "waf"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n  rules = [for h in var.hosts : { action = "block", expression = "http.host eq \\"\${h}\\"" }]\n}\n`;
    assert.deepEqual(quotaProblems(forExpression, 'hcl', 'free'), []);
  });

  it('does not count a rule whose `enabled` Terraform fills in', () => {
    const rules = Array.from({ length: 6 }, (_, i) => `    { action = "block", expression = "http.host eq \\"a${i}.example.com\\""${i === 0 ? ', enabled = var.on' : ''} },\n`).join('');
    const text = `variable "on" {\n  type = bool\n}\nresource "cloudflare_ruleset" "waf" {\n  zone_id = "z"\n  name    = "waf"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n  rules = [\n${rules}  ]\n}\n`;
    assert.deepEqual(quotaProblems(text, 'hcl', 'free'), []);
  });
});

describe('rule quotas in octorules files', () => {
  it("counts a zone's section: 5 WAF custom rules clean on Free, 6 an error on the 6th", () => {
    assert.deepEqual(quotaProblems(octorulesFile('waf_custom_rules', 5), 'yaml', 'free'), []);
    const text = octorulesFile('waf_custom_rules', 6);
    const [problem] = quotaProblems(text, 'yaml', 'free');
    assert.equal(lineOf(text, problem), '    - ref: rule-5');
    assert.match(problem.message, /the Free plan allows 5 in `http_request_firewall_custom`/);
  });

  it("holds bulk_redirect_rules, an account's section, to the Bulk Redirect Rules quota", () => {
    const rule = (i: number) => `    - ref: r${i}\n      expression: 'http.request.full_uri in $redirects${i}'\n      action_parameters:\n        from_list: {name: redirects${i}, key: http.request.full_uri}\n`;
    const text = (n: number) => `cloudflare:\n  bulk_redirect_rules:\n${Array.from({ length: n }, (_, i) => rule(i)).join('')}`;
    assert.deepEqual(quotaProblems(text(15), 'yaml', 'business'), []);
    assert.match(quotaProblems(text(16), 'yaml', 'business')[0].message, /Bulk Redirect Rules .* the Business plan allows 15 in `http_request_redirect`/);
  });
});

describe('features a plan or an add-on gates', () => {
  const ruleset = (action: string, expression: string) => `name: x\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: ${action}\n    expression: '${expression}'\n`;
  const errors = (text: string, plan?: Plan, addons?: readonly Addon[]) =>
    checkProblems(text, 'yaml', { ...(plan ? { plan } : {}), ...(addons ? { addons } : {}) })
      .filter((p) => p.severity === 'error')
      .map((p) => [p.code, text.slice(p.start, p.end), p.message]);

  it('`log` needs Enterprise in WAF custom rules', () => {
    const text = ruleset('log', 'http.host eq "example.com"');
    assert.deepEqual(errors(text, 'business'), [['plan-required', 'log', "the `log` action needs the Enterprise plan; the account's plan is Business (`plan` in .rulesets.yaml), so the service refuses it: use another action, or move to Enterprise"]]);
    assert.deepEqual(errors(text, 'enterprise'), []);
    assert.deepEqual(errors(text), []);
    assert.deepEqual(errors(ruleset('block', 'http.host eq "example.com"'), 'free'), []);
  });

  it('hostname and ASN lists need Enterprise, whether the configuration or the field says the kind', () => {
    const text = ruleset('block', 'http.host in $hosts or ip.src.asnum in $asns or ip.src in $office');
    assert.deepEqual(errors(text, 'pro'), [
      ['plan-required', '$hosts', "`$hosts`, a hostname list (the only kind of list made for `http.host`), needs the Enterprise plan; the account's plan is Pro (`plan` in .rulesets.yaml), so the service refuses it"],
      ['plan-required', '$asns', "`$asns`, an ASN list (the only kind of list made for `ip.src.asnum`), needs the Enterprise plan; the account's plan is Pro (`plan` in .rulesets.yaml), so the service refuses it"],
    ]);
    assert.deepEqual(errors(text, 'enterprise'), []);
    assert.deepEqual(errors(text), []);
    const configured = checkProblems(ruleset('block', 'http.host in $hosts'), 'yaml', { plan: 'free', listKinds: { hosts: 'hostname' } }).filter((p) => p.code === 'plan-required');
    assert.match(configured[0].message, /^`\$hosts`, a hostname list, needs the Enterprise plan/);
  });

  it("Bot Management's fields need the add-on on Enterprise, where the add-ons are configured", () => {
    const text = ruleset('block', 'cf.bot_management.score lt 30 and not cf.bot_management.verified_bot');
    const missing = errors(text, 'enterprise', []);
    assert.deepEqual(missing.map(([code, at]) => [code, at]), [['addon-required', 'cf.bot_management.score'], ['addon-required', 'cf.bot_management.verified_bot']]);
    assert.equal(missing[0][2], '`cf.bot_management.score` needs the Bot Management add-on, which `addons` in .rulesets.yaml does not list, so the service refuses it; add `bot_management` there if the account has it');
    assert.deepEqual(errors(text, 'enterprise', ['bot_management']), []);
    // Not configured: nothing is assumed.
    assert.deepEqual(errors(text, 'enterprise'), []);
    // Below Enterprise the plan is what is missing, and said once.
    assert.deepEqual(errors(text, 'business', ['bot_management']).map(([code]) => code), ['plan-required', 'plan-required']);
    assert.deepEqual(errors(text, 'business', []).map(([code]) => code), ['plan-required', 'plan-required']);
  });

  it('keeps `matches` from Business, as before', () => {
    const text = ruleset('block', 'http.request.uri.path matches "^/admin"');
    assert.deepEqual(errors(text, 'pro').map(([code, at]) => [code, at]), [['plan-required', 'matches']]);
    assert.deepEqual(errors(text, 'business'), []);
  });
});

describe("custom rulesets of WAF custom rules in Terraform: a zone's number, an account's plan", () => {
  const resource = (name: string, owner: string, extra = '') =>
    `resource "cloudflare_ruleset" "${name}" {\n  ${owner}\n  name  = "${name}"\n  kind  = "custom"\n  phase = "http_request_firewall_custom"\n${extra}  rules = [{ action = "block", expression = "http.host eq \\"${name}.example.com\\"" }]\n}\n`;
  const errors = (text: string, plan?: Plan) =>
    checkProblems(text, 'hcl', plan ? { plan } : {})
      .filter((p) => p.severity === 'error')
      .map((p) => [p.code, text.slice(0, p.start).split('\n').length, p.message]);

  it('takes one custom ruleset a zone on Free, and the second is an error on its `kind`', () => {
    assert.deepEqual(errors(resource('a', 'zone_id = var.zone_id'), 'free'), []);
    const two = resource('a', 'zone_id = var.zone_id') + resource('b', 'zone_id = var.zone_id');
    assert.deepEqual(errors(two, 'free'), [
      ['ruleset-quota', 11, 'cloudflare_ruleset.b is custom ruleset 2 of the 2 in this file for the zone `var.zone_id`, and the Free plan allows 1 custom ruleset per zone (`plan` in .rulesets.yaml), so the service refuses it: merge their rules into fewer rulesets, or move to a higher plan (Pro allows 2)'],
    ]);
    assert.deepEqual(errors(two, 'pro'), []);
    assert.deepEqual(errors(two), []);
  });

  it('counts each zone apart, and not a resource with `count` or `for_each`', () => {
    const text = resource('a', 'zone_id = var.zone_id') + resource('b', 'zone_id = var.other_zone') + resource('c', 'zone_id = var.zone_id', '  count = 2\n');
    assert.deepEqual(errors(text, 'free'), []);
  });

  it("an account's custom ruleset needs Enterprise", () => {
    const text = resource('shared', 'account_id = var.account_id');
    assert.deepEqual(errors(text, 'business').map(([code, line]) => [code, line]), [['plan-required', 4]]);
    assert.match(String(errors(text, 'business')[0][2]), /^an account's custom ruleset of WAF custom rules needs the Enterprise plan; the account's plan is Business/);
    assert.deepEqual(errors(text, 'enterprise'), []);
    // Another phase's custom rulesets are not what the table's row counts.
    assert.deepEqual(errors(text.replace('http_request_firewall_custom', 'magic_transit'), 'free').filter(([code]) => code === 'plan-required'), []);
  });
});

describe('a challenge rate limiting rule below Enterprise takes no duration (the rate limiting parameters page, "For duration")', () => {
  const rule = (action: string, timeout: number) => `  - action: ${action}\n    expression: 'http.request.uri.path eq "/login"'\n    ratelimit:\n      characteristics: [cf.colo.id, ip.src]\n      period: 60\n      requests_per_period: 10\n      mitigation_timeout: ${timeout}\n`;
  const ruleset = (action: string, timeout: number) => `name: rl\nkind: zone\nphase: http_ratelimit\nrules:\n${rule(action, timeout)}`;
  const durations = (text: string, format: HostFormat, plan: Plan | undefined) => checkProblems(text, format, plan ? { plan } : {}).filter((p) => p.code === 'plan-required');

  it('is an error on the duration of each challenge action on Free, Pro and Business, with the fix to 0', () => {
    for (const plan of ['free', 'pro', 'business'] as const) {
      for (const action of ['managed_challenge', 'js_challenge', 'challenge']) {
        const text = ruleset(action, 600);
        const [problem, ...rest] = durations(text, 'yaml', plan);
        assert.deepEqual(rest, [], `${plan} ${action}`);
        assert.equal(text.slice(problem.start, problem.end), '600');
        assert.equal(problem.severity, 'error');
        assert.match(problem.message, new RegExp(`with \`${action}\` takes a duration only on the Enterprise plan; on \\w+ \\(\`plan\` in \\.rulesets\\.yaml\\) it throttles requests instead, and the service wants \`mitigation_timeout\` 0`));
        assert.deepEqual(problem.fixes?.[0].edits, [{ start: problem.start, end: problem.end, newText: '0' }]);
      }
    }
  });

  it('stays silent on its clean twins: 0 (throttling), a `block` with a duration, Enterprise, and no plan', () => {
    assert.deepEqual(durations(ruleset('managed_challenge', 0), 'yaml', 'pro'), []);
    assert.deepEqual(durations(ruleset('block', 600), 'yaml', 'pro'), []);
    assert.deepEqual(durations(ruleset('managed_challenge', 600), 'yaml', 'enterprise'), []);
    assert.deepEqual(durations(ruleset('managed_challenge', 600), 'yaml', undefined), []);
  });

  it('in JSON and in an octorules section alike', () => {
    const json = JSON.stringify({ name: 'rl', kind: 'zone', phase: 'http_ratelimit', rules: [{ action: 'js_challenge', expression: 'true', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 10, mitigation_timeout: 60 } }] }, null, 2);
    const [inJson] = durations(json, 'json', 'business');
    assert.equal(json.slice(inJson.start, inJson.end), '60');
    const octorules = "cloudflare:\n  rate_limiting_rules:\n    - ref: login\n      action: managed_challenge\n      expression: 'http.request.uri.path eq \"/login\"'\n      ratelimit:\n        characteristics: [cf.colo.id, ip.src]\n        period: 60\n        requests_per_period: 10\n        mitigation_timeout: 3600\n";
    const [inOctorules, ...more] = durations(octorules, 'yaml', 'free');
    assert.deepEqual(more, []);
    assert.equal(octorules.slice(inOctorules.start, inOctorules.end), '3600', octorules);
  });
});

describe("rate limiting characteristics by plan (the docs' availability table: IP everywhere, IP with NAT support from Business, the rest with Advanced Rate Limiting)", () => {
  const ruleset = (characteristics: string) => `name: rl\nkind: zone\nphase: http_ratelimit\nrules:\n  - action: block\n    expression: 'http.request.uri.path eq "/login"'\n    ratelimit:\n      characteristics: ${characteristics}\n      period: 10\n      requests_per_period: 10\n      mitigation_timeout: 10\n`;
  const gated = (text: string, plan: Plan, addons?: readonly Addon[]) => checkProblems(text, 'yaml', { plan, ...(addons ? { addons } : {}) }).filter((p) => p.code === 'plan-required' || p.code === 'addon-required').map((p) => [p.code, text.slice(p.start, p.end)]);

  it('IP with NAT support below Business, and a header below Enterprise: plan-required on the characteristic', () => {
    const nat = ruleset('[cf.colo.id, cf.unique_visitor_id]');
    for (const plan of ['free', 'pro'] as const) assert.deepEqual(gated(nat, plan), [['plan-required', 'cf.unique_visitor_id']], plan);
    const header = ruleset(`[cf.colo.id, 'http.request.headers["x-api-key"]']`);
    for (const plan of ['free', 'pro', 'business'] as const) assert.deepEqual(gated(header, plan), [['plan-required', `'http.request.headers["x-api-key"]'`]], plan);
    const [problem] = checkProblems(ruleset('[cf.colo.id, http.host]'), 'yaml', { plan: 'business' }).filter((p) => p.code === 'plan-required');
    assert.equal(problem.message, "`http.host` as a counting characteristic needs Enterprise with Advanced Rate Limiting; the account's plan is Business (`plan` in .rulesets.yaml), so the service refuses it (the docs' rate limiting availability table)");
  });

  it('on Enterprise, the rest needs Advanced Rate Limiting where `addons` is configured without it, and nothing is said where it is not configured', () => {
    const host = ruleset('[cf.colo.id, http.host]');
    assert.deepEqual(gated(host, 'enterprise', ['bot_management']), [['addon-required', 'http.host']]);
    assert.deepEqual(gated(host, 'enterprise', ['advanced_rate_limiting']), []);
    assert.deepEqual(gated(host, 'enterprise'), []);
  });

  it("stays silent on the table's own: IP on Free, IP with NAT support on Business", () => {
    assert.deepEqual(gated(ruleset('[cf.colo.id, ip.src]'), 'free'), []);
    assert.deepEqual(gated(ruleset('[cf.colo.id, cf.unique_visitor_id]'), 'business'), []);
  });
});
