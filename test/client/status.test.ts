/**
 * What the language status item says (the `{}` in VS Code's status bar) and which of the
 * server's diagnostics the extension leaves to VS Code's JSON support and the YAML extension.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { codeOf, codesReportedElsewhere, symbolsProvidedElsewhere, type OtherSupport } from '../../client/src/overlap';
import { describeStatus } from '../../client/src/status-text';

const none = { errors: 0, warnings: 0, others: 0 };

describe('language status', () => {
  it('is busy until the server has answered', () => {
    const view = describeStatus(undefined, none);
    assert.equal(view.busy, true);
    assert.match(view.detail, /starting/);
  });

  it('says when a file is not treated as a ruleset, and how to make it one', () => {
    const view = describeStatus({}, none);
    assert.equal(view.text, 'Not a ruleset');
    assert.match(view.detail, /\*\.ruleset\.json/);
    assert.match(view.detail, /rulesets\.files/);
    assert.equal(view.severity, 'information');
  });

  it('says why a file is a ruleset and which phase it names', () => {
    assert.match(describeStatus({ ruleset: 'name', phase: 'magic_transit' }, none).detail, /^a ruleset by its file name; phase magic_transit; the service would accept it$/);
    assert.match(describeStatus({ ruleset: 'pattern' }, none).detail, /rulesets\.files pattern/);
    assert.match(describeStatus({ ruleset: 'content' }, none).detail, /by its content/);
  });

  it('says what a Terraform file is: its cloudflare_ruleset resources, none, or turned off', () => {
    const three = describeStatus({ format: 'hcl', ruleset: 'terraform', layout: 'terraform', rulesets: 3 }, { errors: 2, warnings: 0, others: 0 });
    assert.equal(three.text, 'Rulesets: 2 errors');
    assert.equal(three.detail, 'a Terraform file with 3 cloudflare_ruleset resources');
    assert.equal(describeStatus({ format: 'hcl', ruleset: 'terraform', layout: 'terraform', rulesets: 3 }, none).detail, 'a Terraform file with 3 cloudflare_ruleset resources; the service would accept them');
    const one = describeStatus({ format: 'hcl', ruleset: 'terraform', layout: 'terraform', rulesets: 1 }, none);
    assert.equal(one.text, '$(check) Ruleset');
    const other = describeStatus({ format: 'hcl' }, none);
    assert.equal(other.text, 'No ruleset');
    assert.match(other.detail, /without a cloudflare_ruleset resource/);
    assert.doesNotMatch(other.detail, /\*\.ruleset\.json/, 'no advice to rename a .tf file');
    const off = describeStatus({ format: 'hcl', disabled: 'terraform' }, none);
    assert.equal(off.text, 'Rulesets: off');
    assert.match(off.detail, /rulesets\.terraform\.enable/);
  });

  it('says what an octorules rules file is: its sections, each a ruleset of its phase', () => {
    const view = describeStatus({ format: 'yaml', ruleset: 'content', layout: 'octorules', rulesets: 2 }, { errors: 1, warnings: 0, others: 0 });
    assert.equal(view.text, 'Rulesets: 1 error');
    assert.equal(view.detail, 'an octorules rules file with 2 sections');
  });

  it('shows the check state: errors first, then warnings, then clean', () => {
    const broken = describeStatus({ ruleset: 'name' }, { errors: 5, warnings: 1, others: 0 });
    assert.equal(broken.text, 'Ruleset: 5 errors, 1 warning');
    assert.equal(broken.severity, 'error');
    const doubtful = describeStatus({ ruleset: 'name' }, { errors: 0, warnings: 2, others: 0 });
    assert.equal(doubtful.text, 'Ruleset: 2 warnings');
    assert.equal(doubtful.severity, 'warning');
    const clean = describeStatus({ ruleset: 'name' }, { errors: 0, warnings: 0, others: 3 });
    assert.equal(clean.text, '$(check) Ruleset');
    assert.equal(clean.severity, 'information');
    assert.equal(describeStatus({ ruleset: 'name' }, { errors: 1, warnings: 0, others: 0 }).text, 'Ruleset: 1 error');
  });
});

describe('diagnostics and outline shared with other JSON and YAML support', () => {
  const vscodeOnly: OtherSupport = { jsonValidates: true, jsonSymbols: true, yamlValidates: false, yamlSymbols: false };
  const withYamlExtension: OtherSupport = { jsonValidates: true, jsonSymbols: true, yamlValidates: true, yamlSymbols: true };
  const jsonValidationOff: OtherSupport = { ...vscodeOnly, jsonValidates: false };

  it('leaves JSON syntax errors and duplicate keys to VS Code, which reports them itself', () => {
    assert.deepEqual([...codesReportedElsewhere('json', vscodeOnly)].sort(), ['duplicate-key', 'json-syntax']);
    assert.deepEqual([...codesReportedElsewhere('jsonc', vscodeOnly)].sort(), ['duplicate-key', 'json-syntax']);
  });

  it('keeps them when json.validate.enable is off, so they are still shown once', () => {
    assert.equal(codesReportedElsewhere('json', jsonValidationOff).size, 0);
  });

  it('keeps YAML syntax errors unless the YAML extension validates', () => {
    assert.equal(codesReportedElsewhere('yaml', vscodeOnly).size, 0);
    assert.deepEqual([...codesReportedElsewhere('yaml', withYamlExtension)].sort(), ['duplicate-key', 'yaml-syntax']);
  });

  it('never leaves out a diagnostic about the ruleset itself', () => {
    for (const language of ['json', 'jsonc', 'yaml']) {
      const elsewhere = codesReportedElsewhere(language, withYamlExtension);
      for (const code of ['unknown-field', 'syntax-error', 'missing-action-parameters', 'duplicate-rule']) assert.ok(!elsewhere.has(code), `${language}: ${code}`);
    }
  });

  it('gives the outline to whichever extension already gives one', () => {
    assert.equal(symbolsProvidedElsewhere('json', vscodeOnly), true);
    assert.equal(symbolsProvidedElsewhere('yaml', vscodeOnly), false);
    assert.equal(symbolsProvidedElsewhere('yaml', withYamlExtension), true);
  });

  it('leaves HCL syntax errors to HashiCorp\'s Terraform extension when it is there, and keeps them when it is not', () => {
    assert.deepEqual([...codesReportedElsewhere('terraform', { ...vscodeOnly, terraformValidates: true })], ['hcl-syntax']);
    assert.equal(codesReportedElsewhere('terraform', vscodeOnly).size, 0);
    // Without the extension VS Code gives .tf files no `terraform` language: the syntax errors are ours to show.
    assert.equal(codesReportedElsewhere('plaintext', { ...vscodeOnly, terraformValidates: true }).size, 0);
    assert.equal(symbolsProvidedElsewhere('terraform', { ...vscodeOnly, terraformValidates: true }), false);
  });

  it('reads a diagnostic code plain or with its documentation link', () => {
    assert.equal(codeOf({ code: 'json-syntax' }), 'json-syntax');
    assert.equal(codeOf({ code: { value: 'duplicate-key' } }), 'duplicate-key');
    assert.equal(codeOf({}), undefined);
  });
});
