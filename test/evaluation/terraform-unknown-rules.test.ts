/**
 * `rulesets test` against a Terraform resource whose rules hold what Terraform fills in (a
 * `${…}` in the expression, `expression = var.x`, `action = var.a`): such a rule is never run
 * with our stand-in for the hole, nor reported as an error of its expression; a case it decides
 * is undecided and names the rule and what it needs; a case decided before it runs as usual.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { loadTerraformParser } from '../../server/src/documents/terraform';
import { caseOutput, isTestProblem, loadTestRuleset, readTestFile, runTestCase, type CaseOutcome } from '../../server/src/evaluation/test-file-run';
import { linePosition } from '../../server/src/documents/positions';

/** The outcome of each case of `cases` (a YAML list) against `main.tf`. */
function run(tf: string, cases: string): CaseOutcome[] {
  const file = readTestFile(`ruleset: main.tf\ncases:\n${cases}`, 'yaml', { path: '/w/main.test.yaml', resolve: (p) => `/w/${p}` });
  const loaded = loadTestRuleset(file, (path) => (path === '/w/main.tf' ? { text: tf, display: 'main.tf' } : undefined));
  if (isTestProblem(loaded)) assert.fail(`the ruleset did not load: ${loaded.message}`);
  return file.cases.map((c) => runTestCase(c, loaded, new Map()));
}

function v4(phase: string, ...rules: string[]): string {
  return `resource "cloudflare_ruleset" "r" {\n  phase = "${phase}"\n${rules.map((r) => `  rules {\n${r}\n  }\n`).join('')}}\n`;
}

const WAF = v4(
  'http_request_firewall_custom',
  '    action = "block"\n    expression = "http.host eq \\"admin.example.com\\""\n    description = "Block the admin host"',
  '    action = "block"\n    expression = "starts_with(http.request.uri.path, \\"${var.blocked_path}\\")"\n    description = "Block a path"',
  '    action = "managed_challenge"\n    expression = "ip.src.country in {\\"CN\\" \\"RU\\"}"',
);

const CASES = [
  '  - request: {url: "https://admin.example.com/"}\n    expect: block',
  '  - request: {url: "https://www.example.com/", ip.src.country: CN}\n    expect: managed_challenge',
  '  - request: {url: "https://www.example.com/", ip.src.country: GB}\n    expect: pass',
].join('\n');

describe('rulesets test on a Terraform resource with values Terraform fills in', () => {
  before(() => loadTerraformParser());

  it('decides the cases a rule before the unknown one decides, and names the unknown rule in the others', () => {
    const outcomes = run(WAF, CASES);
    assert.deepEqual(outcomes.map((o) => [o.kind, o.undecided === true]), [['pass', false], ['error', true], ['error', true]]);
    for (const o of outcomes.slice(1)) {
      assert.match(o.message, /^rule 2 \(Block a path\) at main\.tf:8:3: its expression is filled in by Terraform \(`\$\{var\.blocked_path\}`\)/);
      assert.doesNotMatch(o.message, /terraform`|has errors|rulesets check/);
    }
  });

  it('never runs a rule with the stand-in of its `${…}`, nor calls the stand-in an error', () => {
    // The stand-in makes `http.host eq terraform`, which does not parse; `starts_with(…, "terraform")` would have run.
    const tf = v4('http_request_firewall_custom', '    action = "block"\n    expression = "http.host eq ${jsonencode(var.host)}"');
    const [outcome] = run(tf, '  - request: {url: "https://terraform/"}\n    expect: pass');
    assert.equal(outcome.undecided, true);
    assert.match(outcome.message, /`\$\{jsonencode\(var\.host\)\}`/);
  });

  it('names an expression, an action or `enabled` Terraform fills in as a whole', () => {
    const expression = v4('http_request_firewall_custom', '    action = "block"\n    expression = var.expr');
    assert.match(run(expression, '  - request: {url: "https://a.example/"}\n    expect: pass')[0].message, /^rule 1 at main\.tf:3:3: its expression is filled in by Terraform \(`var\.expr`\)/);
    const action = v4('http_request_firewall_custom', '    action = var.action\n    expression = "http.host eq \\"a.example\\""');
    const [matched, unmatched] = run(action, '  - request: {url: "https://a.example/"}\n    expect: pass\n  - request: {url: "https://b.example/"}\n    expect: pass');
    assert.match(matched.message, /its action is filled in by Terraform \(`var\.action`\)/);
    assert.equal(matched.undecided, true);
    // It does not match: what it would do does not matter.
    assert.equal(unmatched.kind, 'pass');
    const enabled = v4('http_request_firewall_custom', '    action = "block"\n    enabled = var.on\n    expression = "http.host eq \\"a.example\\""');
    assert.match(run(enabled, '  - request: {url: "https://a.example/"}\n    expect: block')[0].message, /whether it is enabled is filled in by Terraform \(`var\.on`\)/);
  });

  it('in a phase of matches, decides what the known rules decide', () => {
    const tf = v4(
      'http_request_late_transform',
      '    action = "rewrite"\n    action_parameters {\n      headers {\n        name = "X-A"\n        operation = "set"\n        value = "1"\n      }\n    }\n    expression = "http.host eq \\"a.example\\""',
      '    action = "rewrite"\n    action_parameters {\n      headers {\n        name = "X-B"\n        operation = "set"\n        value = "1"\n      }\n    }\n    expression = "http.host eq \\"${var.host}\\""',
    );
    const outcomes = run(
      tf,
      [
        '  - request: {url: "https://a.example/"}\n    expect: match\n    rule: 1',
        '  - request: {url: "https://b.example/"}\n    expect: no-match',
        '  - request: {url: "https://b.example/"}\n    expect: match\n    rule: 2',
        '  - request: {url: "https://a.example/"}\n    expect: no-match',
      ].join('\n'),
    );
    assert.deepEqual(outcomes.map((o) => [o.kind, o.undecided === true]), [['pass', false], ['error', true], ['error', true], ['fail', false]]);
  });

  it('never takes the stand-in of a `${…}` for what a rule does (a redirect\'s target or status)', () => {
    const redirect = (fromValue: string) =>
      `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_dynamic_redirect"\n  rules = [{\n    action = "redirect"\n    action_parameters = { from_value = ${fromValue} }\n    expression = "http.host eq \\"a.example\\""\n  }]\n}\n`;
    const expectation = '  - request: {url: "https://a.example/"}\n    expect: redirect\n    redirect: {url: "https://b.example/", status: 301}';
    for (const fromValue of ['{ target_url = { value = "https://${var.host}/" } }', '{ target_url = { value = "https://b.example/" }, status_code = var.code }', '{ target_url = local.target }']) {
      const [outcome] = run(redirect(fromValue), expectation);
      assert.equal(outcome.undecided, true, `${fromValue}: ${outcome.kind} ${outcome.message}`);
      assert.match(outcome.message, /filled in by Terraform/);
    }
    // Written out, it is decided.
    assert.equal(run(redirect('{ target_url = { value = "https://b.example/" } }'), expectation)[0].kind, 'pass');
  });

  it('never compares a setting Terraform fills in part of', () => {
    const cache = (edgeTtl: string) =>
      `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_cache_settings"\n  rules = [{\n    action = "set_cache_settings"\n    action_parameters = { cache = true, edge_ttl = ${edgeTtl} }\n    expression = "true"\n  }]\n}\n`;
    const expectation = '  - request: {url: "https://a.example/"}\n    expect: match\n    rule: 1\n    cache: {edge_ttl: {mode: override_origin, default: 60}}';
    for (const edgeTtl of ['{ mode = "override_origin", default = var.ttl }', 'local.edge_ttl', '{ mode = "${var.mode}", default = 60 }']) {
      const [outcome] = run(cache(edgeTtl), expectation);
      assert.equal(outcome.undecided, true, `${edgeTtl}: ${outcome.kind} ${outcome.message}`);
    }
    assert.equal(run(cache('{ mode = "override_origin", default = 60 }'), expectation)[0].kind, 'pass');
  });

  it('decides no case of a resource whose rules Terraform makes, and says so as undecided, not as a mistake', () => {
    const block = '  rules {\n    action = "block"\n    expression = "http.host eq \\"a.example\\""\n  }\n';
    const dynamic = `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n${block}  dynamic "rules" {\n    for_each = local.rules\n    content {\n      action = "block"\n      expression = rules.value\n    }\n  }\n}\n`;
    const list = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules = local.rules\n}\n';
    const more = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules = concat([{ action = "block", expression = "true" }], var.more)\n}\n';
    for (const [tf, said] of [[dynamic, /some of its rules are Terraform's to make/], [list, /`rules` is filled in by Terraform \(`local\.rules`\)/], [more, /`rules` is filled in by Terraform/]] as const) {
      const file = readTestFile('ruleset: main.tf\ncases:\n  - request: {url: "https://b.example/"}\n    expect: pass\n', 'yaml', { path: '/w/main.test.yaml', resolve: (p) => `/w/${p}` });
      const loaded = loadTestRuleset(file, () => ({ text: tf, display: 'main.tf' }));
      assert.ok(isTestProblem(loaded));
      assert.equal(loaded.undecided, true);
      assert.match(loaded.message, said);
    }
  });

  it('says the case is undecided in what rulesets test prints', () => {
    const text = `ruleset: main.tf\ncases:\n${CASES}`;
    const file = readTestFile(text, 'yaml', { path: '/w/main.test.yaml', resolve: (p) => `/w/${p}` });
    const loaded = loadTestRuleset(file, () => ({ text: WAF, display: 'main.tf' }));
    if (isTestProblem(loaded)) assert.fail(loaded.message);
    const printed = caseOutput((offset) => `main.test.yaml:${linePosition(text, offset)}`, file.cases[1], runTestCase(file.cases[1], loaded, new Map()));
    assert.match(printed, /^UNDECIDED main\.test\.yaml:\d+:\d+: rule 2/);
  });
});
