/**
 * `rulesets test` against a Terraform resource evaluated with its module: a rule whose
 * expression, action or `enabled` comes from a variable's default, a `.tfvars` value, a local or
 * a `dynamic "rules"` block runs with that value; the test file's `variables:` gives what stays
 * unknown (over every other value, as `-var`); a rule still unknown names the variables it needs.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { diskModuleReader } from '../../server/src/documents/include-files';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { isTestProblem, loadTestRuleset, readTestFile, runTestCase, type CaseOutcome, type TestProblem } from '../../server/src/evaluation/test-file-run';

/** A module folder of `files`, and the test file `test` (YAML) beside it, run: each case's outcome, or the file's problem. */
function run(files: Record<string, string>, test: string): CaseOutcome[] | TestProblem {
  const folder = mkdtempSync(join(tmpdir(), 'testvars-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const path = join(folder, 'main.test.yaml');
  const file = readTestFile(`ruleset: main.tf\n${test}`, 'yaml', { path, resolve: (p) => join(folder, p) });
  const loaded = loadTestRuleset(file, (p) => (p in files || files[p.slice(folder.length + 1)] !== undefined ? { text: files[p.slice(folder.length + 1)], display: p.slice(folder.length + 1), module: diskModuleReader() } : undefined));
  if (isTestProblem(loaded)) return loaded;
  return file.cases.map((c) => runTestCase(c, loaded, new Map()));
}

function outcomes(files: Record<string, string>, test: string): CaseOutcome[] {
  const result = run(files, test);
  if (!Array.isArray(result)) assert.fail(`the ruleset did not load: ${result.message}`);
  return result;
}

const VARIABLES = 'variable "blocked_path" {\n  type = string\n}\n';
const MAIN = `resource "cloudflare_ruleset" "waf" {
  phase = "http_request_firewall_custom"
  rules {
    action      = "block"
    expression  = "starts_with(http.request.uri.path, \\"\${var.blocked_path}\\")"
    description = "Block a path"
  }
  rules {
    action     = "managed_challenge"
    expression = "ip.src.country in {\\"CN\\" \\"RU\\"}"
  }
}
`;
const ADMIN = '  - request: {url: "https://www.example.com/admin/x", ip.src.country: GB}\n    expect: block\n';
const HOME = '  - request: {url: "https://www.example.com/", ip.src.country: GB}\n    expect: pass\n';
const CASES = `cases:\n${ADMIN}${HOME}`;

describe('rulesets test on a Terraform resource, with its module\'s values', () => {
  before(() => loadTerraformParser());

  it("runs a rule with its variable's default", () => {
    const files = { 'variables.tf': 'variable "blocked_path" {\n  default = "/admin"\n}\n', 'main.tf': MAIN };
    assert.deepEqual(outcomes(files, CASES).map((o) => `${o.kind} ${o.message}`), ['pass block by rule 1 (Block a path) at main.tf:3:3', 'pass pass: no rule matched']);
  });

  it('runs a rule with the value terraform.tfvars gives, over the default', () => {
    const files = { 'variables.tf': 'variable "blocked_path" {\n  default = "/login"\n}\n', 'terraform.tfvars': 'blocked_path = "/admin"\n', 'main.tf': MAIN };
    assert.deepEqual(outcomes(files, CASES).map((o) => o.kind), ['pass', 'pass']);
    // Without the .tfvars, the default decides: the admin page passes.
    const [admin] = outcomes({ 'variables.tf': files['variables.tf'], 'main.tf': MAIN }, CASES);
    assert.equal(admin.kind, 'fail', admin.message);
  });

  it("takes the test file's `variables:` over the default and the .tfvars value", () => {
    const files = { 'variables.tf': 'variable "blocked_path" {\n  default = "/login"\n}\n', 'terraform.tfvars': 'blocked_path = "/login"\n', 'main.tf': MAIN };
    assert.deepEqual(outcomes(files, `variables: {blocked_path: /admin}\n${CASES}`).map((o) => o.kind), ['pass', 'pass']);
  });

  it('names the variable a rule still needs, with where to give it, and counts the case as undecided', () => {
    const files = { 'variables.tf': VARIABLES, 'main.tf': MAIN };
    const [admin, home] = outcomes(files, CASES);
    for (const o of [admin, home]) {
      assert.equal(o.kind, 'error');
      assert.equal(o.undecided, true);
      assert.match(o.message, /^rule 1 \(Block a path\) at main\.tf:3:3: its expression is not known: it needs `var\.blocked_path` \(a variable without a value\): give it under `variables:` in the test file/);
      assert.doesNotMatch(o.message, /has errors|rulesets check|terraform`/);
    }
  });

  it('follows a local to the variable it needs', () => {
    const files = {
      'variables.tf': 'variable "prefix" {}\nvariable "unused" {}\n',
      'locals.tf': 'locals {\n  path = "${var.prefix}/admin"\n}\n',
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "starts_with(http.request.uri.path, \\"${local.path}\\")"\n  }\n}\n',
    };
    const [admin] = outcomes(files, CASES);
    assert.equal(admin.undecided, true);
    assert.match(admin.message, /it needs `var\.prefix` \(a variable without a value\)/);
    assert.doesNotMatch(admin.message, /var\.unused/);
    assert.equal(outcomes(files, `variables: {prefix: ""}\n${CASES}`)[0].kind, 'pass');
  });

  it('says so of a value only `terraform apply` knows, naming no variable', () => {
    const files = {
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "http.host eq \\"${cloudflare_record.www.hostname}\\""\n  }\n}\n',
    };
    const [outcome] = outcomes(files, CASES);
    assert.equal(outcome.undecided, true);
    assert.match(outcome.message, /its expression is filled in by Terraform as it applies/);
  });

  it('stops at a mistake of an expression a local holds, saying where it is written', () => {
    const files = {
      'locals.tf': 'locals {\n  admin = "http.hots eq \\"admin.example.com\\""\n}\n',
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = local.admin\n  }\n}\n',
    };
    const problem = run(files, CASES);
    assert.ok(!Array.isArray(problem));
    assert.equal(problem.undecided, undefined);
    assert.match(problem.message, /^rule 1's expression has errors \(unknown field `http\.hots`.*\(the expression is written at locals\.tf:2:12\)$/);
  });

  it('refuses a variable the module does not declare, at its key, with a did-you-mean', () => {
    const files = { 'variables.tf': VARIABLES, 'main.tf': MAIN };
    const problem = run(files, `variables:\n  blocked_pth: /admin\n${CASES}`);
    assert.ok(!Array.isArray(problem));
    assert.equal(problem.undecided, undefined);
    assert.equal(problem.offset, 'ruleset: main.tf\nvariables:\n  '.length);
    assert.equal(problem.message, 'no variable `blocked_pth` in the module of the ruleset; did you mean `blocked_path`? it declares `blocked_path`');
  });

  it('refuses `variables` that is not a map, at its place', () => {
    const problem = run({ 'variables.tf': VARIABLES, 'main.tf': MAIN }, `variables: [blocked_path]\n${CASES}`);
    assert.ok(!Array.isArray(problem));
    assert.match(problem.message, /^expected `variables` as a map of the Terraform module's variables to their values/);
    assert.equal(problem.offset, 'ruleset: main.tf\nvariables: '.length);
  });

  it('decides the cases of rules a `dynamic "rules"` block makes from a local', () => {
    const main = `locals {
  blocked = {
    admin = "starts_with(http.request.uri.path, \\"/admin\\")"
    bots  = "http.host eq \\"bots.example.com\\""
  }
}
resource "cloudflare_ruleset" "waf" {
  phase = "http_request_firewall_custom"
  rules {
    action     = "skip"
    action_parameters {
      ruleset = "current"
    }
    expression = "ip.src eq 192.0.2.1"
  }
  dynamic "rules" {
    for_each = local.blocked
    content {
      action      = "block"
      expression  = rules.value
      description = rules.key
    }
  }
}
`;
    const other = (c: string) => c.replace('}', ', ip.src: 198.51.100.1}');
    const cases = `cases:\n${other(ADMIN)}${other(HOME)}  - request: {url: "https://www.example.com/admin/", ip.src: 192.0.2.1}\n    expect: pass\n    rule: 1\n  - request: {url: "https://www.example.com/admin/"}\n    expect: block\n    rule: admin\n`.replace('admin/"}\n    expect: block', 'admin/", ip.src: 198.51.100.1}\n    expect: block');
    const got = outcomes({ 'main.tf': main }, cases);
    assert.deepEqual(got.map((o) => o.kind), ['pass', 'pass', 'pass', 'pass'], got.map((o) => o.message).join('\n'));
    assert.match(got[0].message, /^block by rule 2 \(admin\) at main\.tf:16:3/);
  });

  it('tells the rules of two `dynamic "rules"` blocks apart by where they are written', () => {
    const dynamic = (action: string) => `  dynamic "rules" {\n    for_each = local.hosts\n    content {\n      action     = "${action}"\n      expression = rules.value\n    }\n  }\n`;
    const main = `locals {\n  hosts = ["http.host eq \\"a.example\\""]\n}\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n${dynamic('log')}${dynamic('block')}}\n`;
    const [outcome] = outcomes({ 'main.tf': main }, 'cases:\n  - request: {url: "https://a.example/"}\n    expect: block\n    rule: 2\n');
    assert.equal(outcome.kind, 'pass', outcome.message);
    assert.equal(outcome.message, `block by rule 2 at main.tf:${main.split('\n').findIndex((line, i) => i > 6 && line.includes('dynamic')) + 1}:3`);
  });

  it('names what a `dynamic "rules"` block whose for_each is unknown needs, as undecided', () => {
    const main = 'variable "paths" {\n  type = list(string)\n}\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  dynamic "rules" {\n    for_each = var.paths\n    content {\n      action     = "block"\n      expression = "starts_with(http.request.uri.path, \\"${rules.value}\\")"\n    }\n  }\n}\n';
    const problem = run({ 'main.tf': main }, CASES);
    assert.ok(!Array.isArray(problem));
    assert.equal(problem.undecided, true);
    assert.match(problem.message, /^cloudflare_ruleset\.waf: its rules are not known: it needs `var\.paths`.*give it under `variables:`/);
    assert.deepEqual(outcomes({ 'main.tf': main }, `variables: {paths: [/admin, /login]}\n${CASES}`).map((o) => o.kind), ['pass', 'pass']);
  });

  it('runs the rules of a `for_each` resource whose instances all have the same, and not those of instances that differ', () => {
    const main = (expression: string) => `variable "zones" {\n  default = { a = "/admin", b = "/login" }\n}\nresource "cloudflare_ruleset" "waf" {\n  for_each = var.zones\n  phase    = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "${expression}"\n  }\n}\n`;
    const same = outcomes({ 'main.tf': main('starts_with(http.request.uri.path, \\"/${\"admin\"}\\")') }, CASES);
    assert.deepEqual(same.map((o) => o.kind), ['pass', 'pass'], same.map((o) => o.message).join('\n'));
    const differ = outcomes({ 'main.tf': main('starts_with(http.request.uri.path, \\"${each.value}\\")') }, CASES);
    assert.deepEqual(differ.map((o) => o.undecided), [true, true], differ.map((o) => o.message).join('\n'));
  });

  it("runs an action and `enabled` a variable's default gives", () => {
    const main = 'variable "action" {\n  default = "block"\n}\nvariable "on" {\n  default = false\n}\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = var.action\n    expression = "http.host eq \\"www.example.com\\""\n  }\n  rules {\n    action     = "managed_challenge"\n    enabled    = var.on\n    expression = "true"\n  }\n}\n';
    const got = outcomes({ 'main.tf': main }, `cases:\n${ADMIN}  - request: {url: "https://other.example.com/"}\n    expect: pass\n`);
    assert.deepEqual(got.map((o) => o.kind), ['pass', 'pass'], got.map((o) => o.message).join('\n'));
  });

  it('refuses `variables` for a ruleset that is not Terraform', () => {
    const folder = mkdtempSync(join(tmpdir(), 'testvars-'));
    const file = readTestFile(`ruleset: waf.yaml\nvariables: {a: b}\n${CASES}`, 'yaml', { path: join(folder, 't.test.yaml'), resolve: (p) => join(folder, p) });
    const loaded = loadTestRuleset(file, () => ({ text: 'phase: http_request_firewall_custom\nrules: []\n', display: 'waf.yaml' }));
    assert.ok(isTestProblem(loaded));
    assert.match(loaded.message, /`variables` gives the variables of a Terraform module; waf\.yaml is not a Terraform file/);
  });
});

describe('rulesets test on a provider v5 resource, with its module\'s values', () => {
  before(() => loadTerraformParser());
  const v5 = (rules: string) => `resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = ${rules}\n}\n`;

  it('runs the rules a `for` over a local makes', () => {
    const main = `locals {\n  paths = ["/admin", "/login"]\n}\n${v5('[for p in local.paths : {\n    action      = "block"\n    expression  = "starts_with(http.request.uri.path, \\"${p}\\")"\n    description = "Block ${p}"\n  }]')}`;
    const got = outcomes({ 'main.tf': main }, `cases:\n  - request: {url: "https://a.example/login/x"}\n    expect: block\n    rule: Block /login\n${HOME}`);
    assert.deepEqual(got.map((o) => o.kind), ['pass', 'pass'], got.map((o) => o.message).join('\n'));
  });

  it('keeps the written items of a list as they are, and runs the ones that use a value with it', () => {
    const main = `variable "host" {\n  default = "admin.example.com"\n}\n${v5('[\n    { action = "block", expression = "http.host eq \\"${var.host}\\"" },\n    { action = "managed_challenge", expression = "http.request.uri.path eq \\"/login\\"" },\n  ]')}`;
    const got = outcomes({ 'main.tf': main }, `cases:\n  - request: {url: "https://admin.example.com/"}\n    expect: block\n    rule: 1\n  - request: {url: "https://www.example.com/login"}\n    expect: managed_challenge\n`);
    assert.deepEqual(got.map((o) => o.kind), ['pass', 'pass'], got.map((o) => o.message).join('\n'));
  });

  it('names what `rules = local.rules` needs when a variable leaves it unknown', () => {
    const main = `variable "rules" {\n  type = list(any)\n}\nlocals {\n  rules = var.rules\n}\n${v5('local.rules')}`;
    const problem = run({ 'main.tf': main }, CASES);
    assert.ok(!Array.isArray(problem));
    assert.equal(problem.undecided, true);
    assert.match(problem.message, /its rules are not known: it needs `var\.rules`/);
    const given = outcomes({ 'main.tf': main }, `variables:\n  rules:\n    - {action: block, expression: 'http.request.uri.path eq "/admin/x"'}\n${CASES}`);
    assert.deepEqual(given.map((o) => o.kind), ['pass', 'pass'], given.map((o) => o.message).join('\n'));
  });
});
