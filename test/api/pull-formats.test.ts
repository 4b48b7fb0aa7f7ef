/**
 * What `rulesets pull --format terraform|octorules` writes for a live ruleset: the shapes of
 * the provider's v5 `cloudflare_ruleset` and of an octorules rules file, and strings that
 * read back as themselves. That they read back as the same ruleset, and deploy unchanged, is
 * test/cli/pull-formats.test.ts's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { hclString, resourceName, terraformOfRuleset } from '../../server/src/api/terraform-file';
import { octorulesOfRuleset, octorulesSectionOfPhase } from '../../server/src/api/octorules-file';
import type { Rule, Ruleset } from '../../server/src/api/types';

function rule(fields: Partial<Rule> & Pick<Rule, 'id' | 'action' | 'expression'>): Rule {
  return { version: '3', ref: fields.id, description: '', enabled: true, last_updated: '2026-01-02T03:04:05Z', ...fields };
}

const WAF: Ruleset = {
  id: 'rs1',
  name: 'WAF (prod) #1',
  description: 'zone firewall',
  kind: 'zone',
  phase: 'http_request_firewall_custom',
  version: '3',
  last_updated: '2026-01-02T03:04:05Z',
  rules: [
    rule({ id: 'r1', ref: 'block_admin', action: 'block', expression: 'http.request.uri.path eq "/admin"', description: 'no "admin"' }),
    rule({ id: 'r2', action: 'skip', expression: 'ip.src in $office', action_parameters: { ruleset: 'current' }, logging: { enabled: true }, categories: ['x'] }),
  ],
};

const HEADERS: Ruleset = {
  ...WAF,
  name: 'headers',
  phase: 'http_request_late_transform',
  rules: [
    rule({
      id: 'h1',
      ref: 'h1',
      action: 'rewrite',
      expression: 'true',
      action_parameters: { headers: { 'X-Source': { operation: 'set', expression: 'ip.src' }, for: { operation: 'remove' } }, version: '2' } as Record<string, unknown>,
    }),
    rule({ id: 'h2', ref: 'h2', action: 'block', expression: 'false' }),
  ],
};

describe('pull --format terraform', () => {
  it('quotes a string so that HCL reads it back as itself: quotes, backslashes, line breaks, and ${ and %{ escaped as $${ and %%{', () => {
    assert.equal(hclString('a "b" \\ c'), '"a \\"b\\" \\\\ c"');
    assert.equal(hclString('x\ny\r\tz'), '"x\\ny\\r\\tz"');
    assert.equal(hclString('${var} %{if} $x %y $${'), '"$${var} %%{if} $x %y $$${"');
    assert.equal(hclString('\u0001'), '"\\u0001"');
  });

  it('names the resource after the ruleset, as an HCL identifier that starts with a letter', () => {
    assert.equal(resourceName('WAF (prod) #1', 'http_request_firewall_custom'), 'waf_prod_1');
    assert.equal(resourceName('2024 rules', 'ddos_l7'), 'ruleset_2024_rules');
    assert.equal(resourceName('!!!', 'http_request_firewall_custom'), 'http_request_firewall_custom');
  });

  it('writes one cloudflare_ruleset in the provider v5 shape, its scope as zone_id, and the import block that adopts the live ruleset', () => {
    const { text, address, leftOut } = terraformOfRuleset(WAF, { kind: 'zone', id: 'z9' });
    assert.equal(address, 'cloudflare_ruleset.waf_prod_1');
    assert.ok(text.includes('import {\n  to = cloudflare_ruleset.waf_prod_1\n  id = "zones/z9/rs1"\n}\n'), text);
    assert.ok(text.includes('resource "cloudflare_ruleset" "waf_prod_1" {\n  zone_id     = "z9"\n  name        = "WAF (prod) #1"\n  description = "zone firewall"\n  kind        = "zone"\n  phase       = "http_request_firewall_custom"\n  rules = [\n'), text);
    // The first rule: its own ref, then the fields the schema has, `=` aligned as terraform fmt does.
    assert.ok(text.includes('    {\n      ref         = "block_admin"\n      description = "no \\"admin\\""\n      expression  = "http.request.uri.path eq \\"/admin\\""\n      action      = "block"\n      enabled     = true\n    },\n'), text);
    // The second: the ref the API gave it (its id), kept so that a deploy updates it in place.
    assert.ok(text.includes('      ref         = "r2"\n'), text);
    assert.ok(text.includes('      action_parameters = {\n        ruleset = "current"\n      }\n      logging = {\n        enabled = true\n      }\n'), text);
    const resource = text.slice(text.indexOf('resource '));
    for (const readOnly of ['version', 'last_updated', 'categories', 'id ']) assert.ok(!resource.includes(`  ${readOnly}`), `${readOnly} is left out`);
    assert.deepEqual(leftOut, [], 'categories is the service\'s, not a field left out');
  });

  it('writes account_id for a ruleset of an account, quotes keys that are not identifiers, and says which rule fields the provider has no place for', () => {
    const odd: Ruleset = { ...HEADERS, rules: [{ ...HEADERS.rules[0], position: 3 } as unknown as Rule] };
    const { text, leftOut } = terraformOfRuleset(odd, { kind: 'account', id: 'a1' });
    assert.ok(text.includes('  account_id  = "a1"\n'), text);
    assert.ok(text.includes('  id = "accounts/a1/rs1"\n'), text);
    assert.ok(text.includes('"X-Source" = {'), text);
    assert.ok(text.includes('"for" = {'), 'a key HCL reads as a keyword is quoted');
    assert.deepEqual(leftOut, ['rule 1: position']);
  });
});

describe('pull --format octorules', () => {
  it('maps a phase to the section octorules keeps it in, and knows when there is none', () => {
    assert.equal(octorulesSectionOfPhase('http_request_firewall_custom')?.section, 'waf_custom_rules');
    assert.equal(octorulesSectionOfPhase('http_request_late_transform')?.defaultAction, 'rewrite');
    assert.equal(octorulesSectionOfPhase('http_response_cache_settings'), undefined);
  });

  it('writes the section under `cloudflare:`, each rule with ref and description first and without what the service sets', () => {
    const text = octorulesOfRuleset(WAF, octorulesSectionOfPhase(WAF.phase)!);
    assert.ok(text.startsWith('---\ncloudflare:\n  waf_custom_rules:\n    - ref: block_admin\n      description: no "admin"\n'), text);
    const value = YAML.parse(text) as { cloudflare: { waf_custom_rules: Record<string, unknown>[] } };
    assert.deepEqual(value.cloudflare.waf_custom_rules, [
      { ref: 'block_admin', description: 'no "admin"', expression: 'http.request.uri.path eq "/admin"', action: 'block', enabled: true },
      { ref: 'r2', description: '', expression: 'ip.src in $office', action: 'skip', action_parameters: { ruleset: 'current' }, enabled: true, logging: { enabled: true } },
    ]);
  });

  it("leaves out an action that is the section's default, and the service's own action parameters", () => {
    const text = octorulesOfRuleset(HEADERS, octorulesSectionOfPhase(HEADERS.phase)!);
    const rules = (YAML.parse(text) as { cloudflare: { request_header_rules: Record<string, unknown>[] } }).cloudflare.request_header_rules;
    assert.equal(rules[0].action, undefined, 'rewrite is the default of request_header_rules');
    assert.deepEqual(rules[0].action_parameters, { headers: { 'X-Source': { operation: 'set', expression: 'ip.src' }, for: { operation: 'remove' } } });
    assert.equal(rules[1].action, 'block');
  });
});
