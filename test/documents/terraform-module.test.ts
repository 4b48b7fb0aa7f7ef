/**
 * A module's values checked where they are written: a rule filter in a `locals` block, a
 * variable's default, a `.tfvars` line or a module's argument, found on its own characters and
 * named with the resource that uses it; the clean twin of each says nothing, and what the module
 * cannot know stays silent.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { memoryReader } from './terraform-module-helpers';

type Found = [code: string, on: string, message: string];

/** The problems of one file of a module held in memory (in /m), each as its code, the characters it is on and its message. */
function check(files: Record<string, string>, name: string): Found[] {
  const text = files[name];
  // The hint on rules without `ref` has tests of its own (firewall-rules.test.ts).
  const problems = checkRuleset(text, 'hcl', { cache: new ExpressionCache(), module: { path: `/m/${name}`, reader: memoryReader(files) } }).filter((p) => p.code !== 'terraform-rules-without-ref');
  return problems.map((p) => [p.code, text.slice(p.start, p.end), p.message]);
}

function codesOn(found: Found[]): [string, string][] {
  return found.map(([code, on]) => [code, on]);
}

const V5_FROM_LOCALS = (expression: string): Record<string, string> => ({
  'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  zone_id = var.zone\n  name    = "waf"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n  rules   = [for r in local.rules : {\n    action     = r.action\n    expression = r.expression\n  }]\n}\n',
  'locals.tf': `locals {\n  rules = [\n    { action = "block", expression = "${expression}" },\n  ]\n}\n`,
});

const V4_DYNAMIC = (expression: string): Record<string, string> => ({
  'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  zone_id = var.zone\n  name    = "waf"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n  dynamic "rules" {\n    for_each = var.rules\n    content {\n      action     = "block"\n      expression = rules.value.expression\n      description = rules.key\n    }\n  }\n}\n',
  'variables.tf': `variable "zone" {}\nvariable "rules" {\n  type = map(object({ expression = string }))\n  default = {\n    bots = { expression = "${expression}" }\n  }\n}\n`,
});

describe('Terraform module values checked where they are written', () => {
  before(() => loadTerraformParser());

  it('a v5 list built by `for` from a local: the mistake on the local, naming the resource', () => {
    const found = check(V5_FROM_LOCALS('http.hots eq \\"a\\"'), 'locals.tf');
    assert.deepEqual(codesOn(found), [['unknown-field', 'http.hots']]);
    assert.match(found[0][2], /\(in `cloudflare_ruleset\.waf`, main\.tf:1\)$/);
    assert.deepEqual(check(V5_FROM_LOCALS('http.host eq \\"a\\"'), 'locals.tf'), []);
    // Nothing in main.tf: its characters are not the mistake's.
    assert.deepEqual(codesOn(check(V5_FROM_LOCALS('http.hots eq \\"a\\"'), 'main.tf')).filter(([c]) => c === 'unknown-field'), []);
  });

  it('a v4 dynamic "rules" block over a variable\'s default: the mistake on the default', () => {
    const found = check(V4_DYNAMIC('ip.src in {1.2.3.4 ip.src}'), 'variables.tf');
    assert.ok(found.length > 0, 'a problem');
    assert.ok(found.every(([, , message]) => message.includes('cloudflare_ruleset.waf')));
    assert.deepEqual(check(V4_DYNAMIC('ip.src in {1.2.3.4}'), 'variables.tf'), []);
  });

  it('a .tfvars value overrides the default, and is checked in the .tfvars file', () => {
    const files = { ...V4_DYNAMIC('http.host eq \\"a\\"'), 'terraform.tfvars': 'rules = {\n  bots = { expression = "http.hots eq \\"b\\"" }\n}\n' };
    assert.deepEqual(codesOn(check(files, 'terraform.tfvars')), [['unknown-field', 'http.hots']]);
    assert.deepEqual(check(files, 'variables.tf'), []);
  });

  it('an interpolation of known parts is checked whole: a mistake brought by `${…}` is shown on it', () => {
    const files = {
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{\n    action     = "block"\n    expression = "${var.field} eq \\"x\\" and ip.src in {1.1.1.1}"\n  }]\n}\n',
      'variables.tf': 'variable "field" {\n  default = "http.hots"\n}\n',
    };
    assert.deepEqual(codesOn(check(files, 'main.tf')), [['unknown-field', '${var.field}']]);
    assert.deepEqual(codesOn(check(files, 'variables.tf')), [['unknown-field', 'http.hots']]);
    const clean = { ...files, 'variables.tf': 'variable "field" {\n  default = "http.host"\n}\n' };
    assert.deepEqual(check(clean, 'main.tf'), []);
    assert.deepEqual(check(clean, 'variables.tf'), []);
  });

  it('a mistake in the file\'s own characters of an interpolation is found once the holes are known', () => {
    const files = {
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{\n    action     = "block"\n    expression = "http.hots eq \\"${var.host}\\""\n  }]\n}\n',
      'variables.tf': 'variable "host" {\n  default = "example.com"\n}\n',
    };
    assert.deepEqual(codesOn(check(files, 'main.tf')), [['unknown-field', 'http.hots']]);
  });

  it('a module argument: the mistake on the argument, naming the sub-module\'s resource', () => {
    const files = {
      'main.tf': 'module "edge" {\n  source     = "./edge"\n  expression = "http.hots eq \\"a\\""\n}\n',
      'edge/main.tf': 'variable "expression" {}\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = var.expression }]\n}\n',
    };
    const found = check(files, 'main.tf');
    assert.deepEqual(codesOn(found), [['unknown-field', 'http.hots']]);
    assert.match(found[0][2], /module\.edge\.cloudflare_ruleset\.waf`, edge\/main\.tf:2/);
  });

  it('a value used by two resources of different phases is checked in each', () => {
    const files = {
      'main.tf':
        'resource "cloudflare_ruleset" "req" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = local.filter }]\n}\nresource "cloudflare_ruleset" "resp" {\n  phase = "http_response_firewall_managed"\n  rules = [{ action = "execute", expression = local.filter, action_parameters = { id = "x" } }]\n}\n',
      'locals.tf': 'locals {\n  filter = "http.response.code eq 500"\n}\n',
    };
    const found = check(files, 'locals.tf');
    assert.ok(found.some(([, , m]) => m.includes('cloudflare_ruleset.req')), JSON.stringify(found));
    assert.ok(!found.some(([, , m]) => m.includes('cloudflare_ruleset.resp')), JSON.stringify(found));
  });

  it('what the module cannot know stays silent, as before', () => {
    const files = {
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [for r in data.x.y : { action = "block", expression = "${r.field} eq 1 and ${local.part}" }]\n}\n',
      'locals.tf': 'locals {\n  part = "http.hots eq \\"${var.unset}\\""\n}\nvariable "unset" {}\n',
    };
    assert.deepEqual(check(files, 'locals.tf'), []);
    assert.deepEqual(check(files, 'main.tf'), []);
  });

  it('count and for_each resources are evaluated per instance', () => {
    const files = {
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  for_each = { a = "http.host", b = "http.hots" }\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = "${each.value} eq \\"x\\"" }]\n}\n',
    };
    const found = check(files, 'main.tf');
    assert.deepEqual(codesOn(found), [['unknown-field', 'http.hots']]);
    assert.match(found[0][2], /cloudflare_ruleset\.waf\["b"\]/);
  });
});

describe('a module checked without its caller', () => {
  before(() => loadTerraformParser());

  it('takes an empty default for what the caller gives, not for an empty set', () => {
    const files = {
      'main.tf': 'variable "markets" {\n  type    = list(string)\n  default = []\n}\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = "not (ip.src.country in { ${join(" ", var.markets)} })" }]\n}\n',
    };
    assert.deepEqual(codesOn(check(files, 'main.tf')), [['terraform-interpolation', '${join(" ", var.markets)}']]);
  });
});

describe('more idioms of modules', () => {
  before(() => loadTerraformParser());

  it('count.index picks a local\'s item; the mistake is found on it', () => {
    const files = {
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  count = length(local.filters)\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = local.filters[count.index] }]\n}\n',
      'locals.tf': 'locals {\n  filters = ["http.host eq \\"a\\"", "http.hots eq \\"b\\""]\n}\n',
    };
    const found = check(files, 'locals.tf');
    assert.deepEqual(codesOn(found), [['unknown-field', 'http.hots']]);
    assert.match(found[0][2], /cloudflare_ruleset\.waf\[1\]/);
  });

  it('a value expression in a v4 dynamic block\'s nested parameters blocks, from a heredoc local', () => {
    const files = {
      'main.tf':
        'resource "cloudflare_ruleset" "rewrite" {\n  phase = "http_request_transform"\n  dynamic "rules" {\n    for_each = local.rewrites\n    content {\n      action     = "rewrite"\n      expression = "true"\n      action_parameters {\n        uri {\n          path {\n            expression = rules.value\n          }\n        }\n      }\n    }\n  }\n}\n',
      'locals.tf': 'locals {\n  rewrites = [\n    <<-EOT\n      concat("/v2", http.request.uri.pat)\n    EOT\n  ]\n}\n',
    };
    assert.deepEqual(codesOn(check(files, 'locals.tf')), [['unknown-field', 'http.request.uri.pat']]);
    const clean = { ...files, 'locals.tf': files['locals.tf'].replace('uri.pat)', 'uri.path)') };
    assert.deepEqual(check(clean, 'locals.tf'), []);
  });

  it('a module called with for_each or count: each instance is given its arguments, and named so', () => {
    const files = {
      'main.tf': 'module "waf" {\n  source   = "./waf"\n  for_each = local.zones\n  filter   = each.value\n}\nmodule "edge" {\n  source = "./waf"\n  count  = 1\n  filter = local.edge[count.index]\n}\n',
      'locals.tf': 'locals {\n  zones = { a = "http.host eq \\"a\\"", b = "http.hots eq \\"b\\"" }\n  edge  = ["ip.src in {10.0.0.300}"]\n}\n',
      'waf/main.tf': 'variable "filter" {}\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ ref = "a", action = "block", expression = var.filter }]\n}\n',
    };
    const found = check(files, 'locals.tf');
    assert.deepEqual(codesOn(found), [['unknown-field', 'http.hots'], ['invalid-ip', '300']]);
    assert.match(found[0][2], /module\.waf\["b"\]\.cloudflare_ruleset\.waf/);
    assert.match(found[1][2], /module\.edge\[0\]\.cloudflare_ruleset\.waf/);
  });

  it('merge and lookup of rule objects, and a %{ for } template, are followed', () => {
    const files = {
      'main.tf':
        'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [for name, r in local.rules : merge({ action = "block" }, r, { expression = lookup(r, "expression", "true") })]\n}\n',
      'locals.tf': 'locals {\n  countries = ["CN", "RU"]\n  rules = {\n    geo = { expression = "ip.src.country in {%{ for c in local.countries }\\"${c}\\" %{ endfor }} and http.hots eq \\"x\\"" }\n  }\n}\n',
    };
    assert.deepEqual(codesOn(check(files, 'locals.tf')), [['unknown-field', 'http.hots']]);
  });
});

describe('the module\'s evaluation kept between checks', () => {
  before(() => loadTerraformParser());

  it('is evaluated again when a sub-module\'s file changes, though the caller\'s files do not', () => {
    const files: Record<string, string> = {
      'main.tf': 'module "edge" {\n  source     = "./edge"\n  expression = "http.hots eq \\"a\\""\n}\n',
      'edge/main.tf': 'variable "expression" {}\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = var.expression }]\n}\n',
    };
    assert.deepEqual(codesOn(check(files, 'main.tf')), [['unknown-field', 'http.hots']]);
    files['edge/main.tf'] = files['edge/main.tf'].replace('expression = var.expression', 'expression = "true"');
    assert.deepEqual(check(files, 'main.tf'), []);
  });
});

describe('what functions write', () => {
  before(() => loadTerraformParser());

  it('a templatefile\'s text is checked, its findings on the call; a number format writes is on the call, and never edited', () => {
    const files = {
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = templatefile("rule.tftpl", { host = "example.com" }) }]\n}\n',
      'rule.tftpl': 'http.hots eq "${host}"',
    };
    assert.deepEqual(codesOn(check(files, 'main.tf')), [['unknown-field', 'templatefile("rule.tftpl", { host = "example.com" })']]);
    const formatted = {
      'main.tf': 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = format("http.hots eq \\"%s\\" and ip.src.asnum eq %d", "a", 13335) }]\n}\n',
    };
    const text = formatted['main.tf'];
    const problems = checkRuleset(text, 'hcl', { cache: new ExpressionCache(), module: { path: '/m/main.tf', reader: memoryReader(formatted) } }).filter((p) => p.code !== 'terraform-rules-without-ref');
    assert.deepEqual(problems.map((p) => [p.code, text.slice(p.start, p.end)]), [['unknown-field', 'http.hots']]);
    // The did-you-mean edits the format string's own characters.
    assert.ok(problems[0].fixes?.some((f) => f.edits.every((e) => text.slice(e.start, e.end) === 'http.hots')));
  });
});

describe('var files named in .rulesets.yaml', () => {
  before(() => loadTerraformParser());

  it('a -var-file is read after terraform.tfvars and checked where it is written; one not named is not read', () => {
    const files = {
      'main.tf': 'variable "filter" { default = "http.host eq \\"a\\"" }\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = var.filter }]\n}\n',
      'terraform.tfvars': 'filter = "http.host eq \\"b\\""\n',
      'prod.tfvars': 'filter = "http.hots eq \\"c\\""\n',
    };
    const withVarFiles = (name: string, varFiles?: string[]) => {
      const text = files[name as keyof typeof files];
      return checkRuleset(text, 'hcl', { cache: new ExpressionCache(), module: { path: `/m/${name}`, reader: memoryReader(files), varFiles } }).map((p) => [p.code, text.slice(p.start, p.end)]);
    };
    assert.deepEqual(withVarFiles('prod.tfvars', ['prod.tfvars']), [['unknown-field', 'http.hots']]);
    assert.deepEqual(withVarFiles('terraform.tfvars', ['prod.tfvars']), []);
    assert.deepEqual(withVarFiles('prod.tfvars'), []);
  });
});

describe('a reference the module knows is not called filled in by Terraform', () => {
  before(() => loadTerraformParser());

  const files = (value: string): Record<string, string> => ({
    'main.tf':
      'variable "bypass" {}\nresource "cloudflare_ruleset" "cache" {\n  zone_id = var.zone\n  phase   = "http_request_firewall_custom"\n' +
      '  dynamic "rules" {\n    for_each = local.rules\n    content {\n      ref        = rules.value.ref\n      action     = "block"\n      expression = rules.value.expression\n    }\n  }\n' +
      '  rules {\n    ref        = "api"\n    action     = "block"\n    expression = var.bypass\n  }\n}\n',
    'locals.tf': 'locals {\n  rules = [{ ref = "a", expression = "http.host eq \\"a\\"" }]\n}\n',
    ...(value ? { 'terraform.tfvars': `bypass = "${value}"\n` } : {}),
  });

  it('a v4 rule beside a dynamic block, matched by its ref: its variable set in terraform.tfvars is checked there, and no hint in main.tf', () => {
    assert.deepEqual(codesOn(check(files('http.hots eq \\"b\\"'), 'main.tf')), []);
    assert.deepEqual(codesOn(check(files('http.hots eq \\"b\\"'), 'terraform.tfvars')), [['unknown-field', 'http.hots']]);
  });

  it('the same variable without a value is named once as what hides the check', () => {
    assert.deepEqual(codesOn(check(files(''), 'main.tf')), [['terraform-unknown', 'var.bypass']]);
  });
});

describe("a resource's phase the module knows", () => {
  before(() => loadTerraformParser());

  const files = (phase: string): Record<string, string> => ({
    'main.tf': `locals {\n  phase = "${phase}"\n}\nresource "cloudflare_ruleset" "late" {\n  zone_id = var.zone\n  phase   = local.phase\n  rules = [{ ref = "a", action = "rewrite", expression = "http.response.code eq 404", action_parameters = { headers = { "x-a" = { operation = "set", value = "1" } } } }]\n}\n`,
  });

  it("checks the resource's own literal rules in it: a response field in a request phase is found", () => {
    assert.deepEqual(codesOn(check(files('http_request_late_transform'), 'main.tf')), [['field-not-available', 'http.response.code']]);
  });

  it('and nothing in the phase where the field is available', () => {
    assert.deepEqual(codesOn(check(files('http_response_headers_transform'), 'main.tf')), []);
  });
});
