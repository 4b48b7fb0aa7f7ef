/**
 * The legacy Firewall Rules resources of a Terraform file: a `cloudflare_filter`'s expression
 * checked as a custom rule's, a warning on each legacy resource with the fix that writes the
 * `cloudflare_ruleset` that takes over; and the one hint on a `cloudflare_ruleset` whose
 * rules have no `ref`, with the fix that adds them.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { ExpressionCache } from '../../server/src/documents/expression-cache';
import type { DocumentEdit } from '../../server/src/documents/host/host-edits';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { parseDocument } from '../../server/src/documents/parsed-document';
import { selectRuleset } from '../../server/src/documents/select-ruleset';
import { loadTerraformParser, migrateFirewallRules } from '../../server/src/documents/terraform';

function problems(text: string): DocumentProblem[] {
  return checkRuleset(text, 'hcl', { cache: new ExpressionCache() });
}

function marked(text: string, found = problems(text)): [string, string, string][] {
  return found.map((p) => [p.code, p.severity, text.slice(p.start, p.end)]);
}

function applyEdits(text: string, edits: readonly DocumentEdit[]): string {
  for (const e of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.newText + text.slice(e.end);
  return text;
}

const FILTER = `resource "cloudflare_filter" "wordpress" {
  zone_id     = var.zone_id
  description = "WordPress logins"
  expression  = "http.request.uri.path contains \\"/wp-login.php\\" and not ip.src in {192.0.2.0/24}"
}
`;

function firewallRule(name: string, attributes: string, filter = 'wordpress'): string {
  return `\nresource "cloudflare_firewall_rule" "${name}" {\n  zone_id   = var.zone_id\n  filter_id = cloudflare_filter.${filter}.id\n${attributes}}\n`;
}

describe('cloudflare_filter and cloudflare_firewall_rule', () => {
  before(() => loadTerraformParser());

  it("checks a filter's expression with the fields of custom rules, on its characters", () => {
    const text = FILTER.replace('http.request.uri.path', 'http.request.uri.pth');
    const found = marked(text).filter(([code]) => code !== 'firewall-rules-ended');
    assert.deepEqual(found, [['unknown-field', 'error', 'http.request.uri.pth']]);
    assert.match(problems(text).find((p) => p.code === 'unknown-field')!.message, /http_request_firewall_custom/);
  });

  it('reads a clean filter as clean but for the note that Firewall Rules ended', () => {
    assert.deepEqual(marked(FILTER), [['firewall-rules-ended', 'warning', 'resource "cloudflare_filter" "wordpress"']]);
    assert.match(problems(FILTER)[0].message, /ended on 2025-06-15/);
  });

  it('knows a field only custom rules have, and refuses one of another phase', () => {
    // `cf.waf.score` is a custom rules field; `raw.http.response.headers` is a response phase's.
    assert.deepEqual(marked(FILTER.replace('not ip.src in {192.0.2.0/24}', 'cf.waf.score lt 20')).filter(([c]) => c !== 'firewall-rules-ended'), []);
    const other = FILTER.replace('not ip.src in {192.0.2.0/24}', 'http.response.code eq 403');
    assert.ok(marked(other).some(([code, severity]) => severity === 'error' && code !== 'firewall-rules-ended'), JSON.stringify(marked(other)));
  });

  it('names the filter as a resource, and never offers it to a command that deploys or tests', () => {
    const document = parseDocument(FILTER, 'hcl');
    assert.deepEqual(document.rulesets.map((r) => [r.label, r.phase]), [['cloudflare_filter.wordpress', 'http_request_firewall_custom']]);
    const chosen = selectRuleset(document, {}, () => '--resource');
    assert.ok('problem' in chosen && /no `cloudflare_ruleset` resource/.test(chosen.problem));
  });

  it('notes each legacy resource once, with the fix that writes the cloudflare_ruleset (v4 blocks for filter_id, the v4 provider\'s)', () => {
    const text = FILTER + firewallRule('wordpress', '  action      = "block"\n  description = "Block WordPress logins"\n');
    const notes = problems(text).filter((p) => p.code === 'firewall-rules-ended');
    assert.deepEqual(notes.map((p) => text.slice(p.start, p.end)), ['resource "cloudflare_filter" "wordpress"', 'resource "cloudflare_firewall_rule" "wordpress"']);
    assert.deepEqual(notes.map((p) => p.fixes?.map((f) => f.title)), [['Write the equivalent `cloudflare_ruleset` (1 rule)'], ['Write the equivalent `cloudflare_ruleset` (1 rule)']]);
    const fixed = applyEdits(text, notes[0].fixes![0].edits);
    const written = fixed.slice(text.length);
    assert.match(written, /^\n# WAF custom rules that take over cloudflare_firewall_rule\.wordpress/);
    assert.ok(written.includes(`resource "cloudflare_ruleset" "firewall_rules" {
  zone_id = var.zone_id
  name    = "default"
  kind    = "zone"
  phase   = "http_request_firewall_custom"

  rules {
    ref         = "wordpress"
    description = "Block WordPress logins"
    expression  = "http.request.uri.path contains \\"/wp-login.php\\" and not ip.src in {192.0.2.0/24}"
    action      = "block"
    enabled     = true
  }
}
`), written);
    // The written resource checks clean, and the fix is not offered again.
    const after = problems(fixed);
    assert.deepEqual(after.filter((p) => p.code !== 'firewall-rules-ended').map((p) => p.code), []);
    assert.ok(after.every((p) => !p.fixes), JSON.stringify(after.map((p) => p.fixes)));
  });

  it('writes a v5 list beside cloudflare_ruleset resources written as lists', () => {
    const v5 = `resource "cloudflare_ruleset" "redirects" {\n  zone_id = var.zone_id\n  phase   = "http_request_dynamic_redirect"\n  rules = [{\n    ref        = "a"\n    action     = "redirect"\n    expression = "true"\n  }]\n}\n\n`;
    const text = v5 + FILTER + firewallRule('wordpress', '  action = "allow"\n');
    const migration = migrateFirewallRules(text)!;
    assert.ok(migration.text.includes(`  rules = [
    {
      ref         = "wordpress"
      description = "WordPress logins"
      expression  = "http.request.uri.path contains \\"/wp-login.php\\" and not ip.src in {192.0.2.0/24}"
      action      = "skip"
      action_parameters = {
        ruleset = "current"
      }
      enabled = true
    },
  ]`), migration.text);
  });

  it('turns allow into a skip of the remaining custom rules, bypass into a skip of its products, and keeps the others', () => {
    const text =
      FILTER +
      firewallRule('bypass', '  action   = "bypass"\n  products = ["zoneLockdown", "uaBlock"]\n') +
      firewallRule('logged', '  action = "log"\n') +
      firewallRule('challenged', '  action = "managed_challenge"\n');
    const written = migrateFirewallRules(text)!.text;
    assert.match(written, /ref {9}= "bypass"[\s\S]*action {6}= "skip"[\s\S]*action_parameters \{\n {6}products = \["zoneLockdown", "uaBlock"\]\n {4}\}/);
    assert.match(written, /ref {9}= "logged"[\s\S]*?action {6}= "log"/);
    assert.match(written, /ref {9}= "challenged"[\s\S]*?action {6}= "managed_challenge"/);
  });

  it('orders the rules by priority, those without one last, and enables only what is not paused', () => {
    const text =
      FILTER +
      firewallRule('none', '  action = "block"\n') +
      firewallRule('second', '  action   = "block"\n  priority = 20\n  paused   = true\n') +
      firewallRule('first', '  action   = "block"\n  priority = 10\n  paused   = var.off\n');
    const migration = migrateFirewallRules(text)!;
    assert.deepEqual(migration.migrated, ['cloudflare_firewall_rule.first', 'cloudflare_firewall_rule.second', 'cloudflare_firewall_rule.none']);
    assert.deepEqual([...migration.text.matchAll(/ref {9}= "(\w+)"/g)].map((m) => m[1]), ['first', 'second', 'none']);
    assert.deepEqual([...migration.text.matchAll(/enabled {5}= (.+)/g)].map((m) => m[1]), ['!(var.off)', 'false', 'true']);
  });

  it('leaves out a firewall rule whose filter is not in the file, and says why', () => {
    const text = FILTER + firewallRule('here', '  action = "block"\n') + firewallRule('elsewhere', '  action = "block"\n', 'other');
    const migration = migrateFirewallRules(text)!;
    assert.deepEqual(migration.migrated, ['cloudflare_firewall_rule.here']);
    assert.deepEqual(migration.leftOut, ['cloudflare_firewall_rule.elsewhere: its filter is not a `cloudflare_filter` of this file with an `expression`']);
  });

  it("checks the filter a v5 firewall rule holds inline, and leaves its conversion to a person", () => {
    const text = `resource "cloudflare_firewall_rule" "v5" {\n  zone_id = var.zone_id\n  action = {\n    mode = "challenge"\n  }\n  filter = {\n    description = "Old clients"\n    expression  = "http.user_agnt eq \\"\\""\n  }\n}\n`;
    assert.deepEqual(marked(text), [
      ['firewall-rules-ended', 'warning', 'resource "cloudflare_firewall_rule" "v5"'],
      ['unknown-field', 'error', 'http.user_agnt'],
    ]);
    assert.deepEqual(parseDocument(text, 'hcl').rulesets.map((r) => r.label), ['cloudflare_firewall_rule.v5']);
    assert.deepEqual(migrateFirewallRules(text)?.leftOut, ['cloudflare_firewall_rule.v5: its `filter` and `action` are provider v5 objects, not taken over here']);
  });

  it('offers no fix where no firewall rule uses the filter', () => {
    assert.deepEqual(problems(FILTER).map((p) => p.fixes), [undefined]);
    assert.equal(migrateFirewallRules(FILTER), undefined);
  });
});

describe('rules without a ref', () => {
  before(() => loadTerraformParser());

  const V4 = `resource "cloudflare_ruleset" "waf" {
  zone_id = var.zone_id
  name    = "waf"
  kind    = "zone"
  phase   = "http_request_firewall_custom"

  rules {
    action      = "block"
    expression  = "http.host eq \\"a.example.com\\""
    description = "Block the admin host"
  }

  rules {
    ref        = "block_the_admin_host"
    action     = "block"
    expression = "http.host eq \\"b.example.com\\""
  }

  rules {
    action     = "log"
    expression = "http.host eq \\"c.example.com\\""
  }
}
`;

  it('is one hint on the resource, not one a rule, and its fix gives each a ref of its own', () => {
    const hints = problems(V4).filter((p) => p.code === 'terraform-rules-without-ref');
    assert.deepEqual(marked(V4, hints), [['terraform-rules-without-ref', 'information', 'resource "cloudflare_ruleset" "waf"']]);
    assert.match(hints[0].message, /2 of its 3 rules have no `ref`/);
    const fixed = applyEdits(V4, hints[0].fixes![0].edits);
    // The description's slug, clear of the ref already taken; `rule_N` without a description; aligned on the `=`.
    assert.ok(fixed.includes('  rules {\n    ref         = "block_the_admin_host_2"\n    action      = "block"\n'), fixed);
    assert.ok(fixed.includes('  rules {\n    ref        = "rule_3"\n    action     = "log"\n'), fixed);
    assert.deepEqual(problems(fixed).map((p) => p.code), []);
  });

  it('adds the refs to a v5 list, also to an object written on one line', () => {
    const text = `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules = [\n    { action = "block", expression = "http.host eq \\"a\\"" },\n    {\n      action = "log"\n      expression = "http.host eq \\"b\\""\n    },\n  ]\n}\n`;
    const [hint] = problems(text);
    assert.equal(hint.code, 'terraform-rules-without-ref');
    assert.match(hint.message, /^its 2 rules have no `ref`/);
    const fixed = applyEdits(text, hint.fixes![0].edits);
    assert.ok(fixed.includes('{ ref = "rule_1", action = "block", expression = "http.host eq \\"a\\"" }'), fixed);
    assert.ok(fixed.includes('    {\n      ref    = "rule_2"\n      action = "log"\n'), fixed);
    assert.deepEqual(problems(fixed).map((p) => p.code), []);
  });

  it('says nothing where every rule has a ref, or where Terraform makes the rules', () => {
    const dynamic = `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules = local.rules\n}\n`;
    assert.deepEqual(problems(dynamic).map((p) => p.code), []);
    const computedRef = `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules = [{\n    ref = local.ref\n    action = "block"\n    expression = "true"\n  }]\n}\n`;
    assert.deepEqual(problems(computedRef).map((p) => p.code), []);
  });

  it('gives rules of one description refs that never clash, however many', () => {
    const rules = Array.from({ length: 2000 }, (_, i) => `  rules {\n    action      = "block"\n    expression  = "http.host eq \\"h${i}.example.com\\""\n    description = "Same"\n  }\n`).join('\n');
    const text = `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n\n  rules {\n    ref         = "same_2"\n    action      = "log"\n    expression  = "true"\n  }\n\n${rules}}\n`;
    const [hint] = problems(text).filter((p) => p.code === 'terraform-rules-without-ref');
    const refs = hint.fixes![0].edits.map((e) => /"(\w+)"/.exec(e.newText)![1]);
    assert.equal(refs.length, 2000);
    assert.equal(new Set([...refs, 'same_2']).size, 2001);
    assert.deepEqual(refs.slice(0, 3), ['same', 'same_3', 'same_4']);
  });

  it('can be turned off by the project configuration', () => {
    const found = checkRuleset(V4, 'hcl', { severities: { 'terraform-rules-without-ref': 'off' } });
    assert.deepEqual(found.map((p) => p.code), []);
  });
});
