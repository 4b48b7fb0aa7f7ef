/**
 * Deploying a Terraform resource (`rulesets deploy --resource`): what Terraform fills in is never
 * sent as our stand-in for it, and rules Terraform makes are never silently left out.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { readLocalRuleset } from '../../server/src/api/local-ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';

function resource(body: string): string {
  return `resource "cloudflare_ruleset" "r" {\n  name  = "r"\n  kind  = "zone"\n  phase = "http_request_firewall_custom"\n${body}\n}\n`;
}

describe('readLocalRuleset of a Terraform resource', () => {
  before(() => loadTerraformParser());

  it('refuses a value with a `${…}` anywhere, not only in an expression, at its place', () => {
    for (const rule of ['action = "${var.action}"', 'description = "for ${var.env}"']) {
      const text = resource(`  rules = [{\n    ${rule}\n    expression = "true"\n  }]`);
      assert.throws(() => readLocalRuleset('main.tf', text), (e: Error) => /^main\.tf:6:\d+: this value has a `\$\{…\}` that Terraform fills in, so only Terraform can deploy it; nothing was sent$/.test(e.message), rule);
    }
  });

  it('refuses a resource some of whose rules Terraform makes', () => {
    const dynamic = resource('  rules = [{ action = "block", expression = "true" }]\n  dynamic "rules" {\n    for_each = var.rules\n    content {\n      action = "block"\n      expression = rules.value\n    }\n  }');
    assert.throws(() => readLocalRuleset('main.tf', dynamic), /Terraform's to make .* nothing was sent/);
  });

  it('reads one written out', () => {
    const text = resource('  rules = [{\n    action = "block"\n    description = "for prod"\n    expression = "true"\n  }]');
    assert.equal(readLocalRuleset('main.tf', text).body.rules.length, 1);
  });
});
