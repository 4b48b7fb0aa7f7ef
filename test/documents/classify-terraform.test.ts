/**
 * Terraform files as the CLI, the language server and the extension all classify them: HCL by
 * the `terraform` language or the `.tf` name, a ruleset file when it declares a
 * `cloudflare_ruleset`, and left alone when the user turns Terraform off.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classifyFile, formatOfDocument, formatOfPath, rulesetFormatOfPath } from '../../server/src/documents/classify';
import { readSettings } from '../../server/src/documents/settings';

const RULESET_TF = 'resource "cloudflare_ruleset" "waf" {\n  zone_id = var.zone_id\n  phase   = "http_request_firewall_custom"\n}\n';
const OTHER_TF = 'resource "cloudflare_record" "www" {\n  name = "www"\n}\n';

describe('Terraform files', () => {
  it('are HCL by the terraform and terraform-vars languages (HashiCorp\'s extension) or by the .tf and .tfvars names, and nothing else is', () => {
    assert.equal(rulesetFormatOfPath('/w/main.tf'), 'hcl');
    assert.equal(rulesetFormatOfPath('/w/MAIN.TF'), 'hcl');
    // A .tfvars file's values feed the module's rulesets (issue 34).
    assert.equal(rulesetFormatOfPath('/w/terraform.tfvars'), 'hcl');
    assert.equal(rulesetFormatOfPath('/w/plan.tf.json'), 'json');
    // Data files (packets, lists, test files) are never Terraform.
    assert.equal(formatOfPath('/w/main.tf'), undefined);
    assert.equal(formatOfDocument('terraform', '/w/main.tf'), 'hcl');
    // An unsaved Terraform document has no .tf name: its language decides.
    assert.equal(formatOfDocument('terraform', 'Untitled-1'), 'hcl');
    assert.equal(formatOfDocument('plaintext', '/w/main.tf'), 'hcl');
    assert.equal(formatOfDocument('terraform-vars', '/w/terraform.tfvars'), 'hcl');
    assert.equal(formatOfDocument('plaintext', '/w/notes.txt'), undefined);
  });

  it('are ruleset files when they declare a cloudflare_ruleset resource, whatever the patterns say', () => {
    const text = () => RULESET_TF;
    assert.deepEqual(classifyFile('/w/main.tf', { text }), { role: 'ruleset', why: 'terraform' });
    assert.deepEqual(classifyFile('/w/main.tf', { text: () => '  resource cloudflare_ruleset "bare_label" {\n}\n' }), { role: 'ruleset', why: 'terraform' });
    assert.deepEqual(classifyFile('Untitled-1', { format: 'hcl', text }), { role: 'ruleset', why: 'terraform' });
    assert.deepEqual(classifyFile('/w/dns.tf', { text: () => OTHER_TF }), { role: 'other' });
    // A locals.tf whose strings the module's rulesets use is checked; one whose are not, not.
    assert.deepEqual(classifyFile('/w/locals.tf', { text: () => OTHER_TF, feedsRuleset: () => true }), { role: 'ruleset', why: 'terraform' });
    assert.deepEqual(classifyFile('/w/locals.tf', { text: () => OTHER_TF, feedsRuleset: () => false }), { role: 'other' });
    assert.deepEqual(classifyFile('/w/dns.tf', { text: () => OTHER_TF, patterns: ['*.tf'] }), { role: 'other' }, 'rulesets.files is for JSON and YAML');
    assert.deepEqual(classifyFile('/w/old.tf', { text: () => '# resource "cloudflare_ruleset" "gone" {}\n' }), { role: 'other' }, 'a commented-out resource');
    assert.deepEqual(classifyFile('/w/lookalike.tf', { text: () => 'resource "cloudflare_ruleset_x" "y" {}\n' }), { role: 'other' });
  });

  it('are ruleset files when they declare the legacy cloudflare_filter or cloudflare_firewall_rule, whose expressions are checked', () => {
    assert.deepEqual(classifyFile('/w/legacy.tf', { text: () => 'resource "cloudflare_filter" "f" {\n  expression = "true"\n}\n' }), { role: 'ruleset', why: 'terraform' });
    assert.deepEqual(classifyFile('/w/legacy.tf', { text: () => 'resource "cloudflare_firewall_rule" "r" {\n  action = "block"\n}\n' }), { role: 'ruleset', why: 'terraform' });
    assert.deepEqual(classifyFile('/w/other.tf', { text: () => 'resource "cloudflare_filter_policy" "p" {}\n' }), { role: 'other' });
  });

  it('are not read without their text (a folder search asks by name first), and not at all when turned off', () => {
    let read = false;
    assert.deepEqual(classifyFile('/w/main.tf'), { role: 'other' });
    assert.deepEqual(
      classifyFile('/w/main.tf', {
        terraform: false,
        text: () => {
          read = true;
          return RULESET_TF;
        },
      }),
      { role: 'other' },
    );
    assert.equal(read, false, 'turned off, the file is not even searched');
  });

  it('are turned off by rulesets.terraform.enable false only: anything else keeps them on', () => {
    assert.deepEqual(readSettings({ terraform: { enable: false } }).terraform, { enable: false });
    for (const terraform of [undefined, { enable: true }, { enable: 'no' }, false, null]) assert.equal(readSettings({ terraform }).terraform, undefined, JSON.stringify(terraform));
  });
});
