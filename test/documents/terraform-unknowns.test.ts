/**
 * Terraform files as Terraform reads them: a value Terraform fills in (a reference, a function
 * call, a conditional, a splat, a `for`, a template with `${…}`) is an unknown of its attribute's
 * type, never missing and never of the wrong type, and named once a resource where it hides a
 * check; Terraform's own conversions (bool and number from and to strings) hold, and what
 * Terraform refuses is said in its words; every message speaks HCL.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { parseDocument } from '../../server/src/documents/parsed-document';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { PROBLEM_CODES } from '../../server/src/language/problem-codes';

const ROOT = join(__dirname, '..', '..');

/** The file's problems but the hint on rules without `ref` (test/documents/firewall-rules.test.ts has it). */
function problems(text: string): DocumentProblem[] {
  return checkRuleset(text, 'hcl', { cache: new ExpressionCache() }).filter((p) => p.code !== 'terraform-rules-without-ref');
}

/** Each problem as its code, severity and the characters of the file it is on. */
function marked(text: string, found = problems(text)): [string, string, string][] {
  return found.map((p) => [p.code, p.severity, text.slice(p.start, p.end)]);
}

/** A resource of the v5 shape around the rules' attributes (`}, {` between rules). */
function v5(rules: string, phase = 'http_request_firewall_custom'): string {
  return `resource "cloudflare_ruleset" "r" {\n  zone_id = var.zone_id\n  phase   = "${phase}"\n  rules = [{\n${rules}\n  }]\n}\n`;
}

/** A resource of the v4 shape: one `rules { … }` block for each rule given. */
function v4(phase: string, ...rules: string[]): string {
  return `resource "cloudflare_ruleset" "r" {\n  zone_id = var.zone_id\n  phase   = "${phase}"\n${rules.map((r) => `  rules {\n${r}\n  }\n`).join('')}}\n`;
}

describe('values Terraform fills in', () => {
  before(() => loadTerraformParser());

  describe('satisfy what is required', () => {
    const execute = [
      ['a v5 object, a resource reference', v5('    action = "execute"\n    action_parameters = { id = cloudflare_ruleset.custom.id }\n    expression = "true"', 'http_request_firewall_managed')],
      ['a v4 block, a resource reference', v4('http_request_firewall_managed', '    action = "execute"\n    action_parameters {\n      id = cloudflare_ruleset.custom.id\n    }\n    expression = "true"')],
      ['a v4 block, a data source with an index', v4('http_request_firewall_managed', '    action = "execute"\n    action_parameters {\n      id = data.cloudflare_rulesets.managed.rulesets[0].id\n    }\n    expression = "true"')],
      ['a v5 object, a splat', v5('    action = "execute"\n    action_parameters = { id = data.cloudflare_rulesets.managed.rulesets[*].id[0] }\n    expression = "true"', 'http_request_firewall_managed')],
      ['a v5 object, a conditional', v5('    action = "execute"\n    action_parameters = { id = var.strict ? local.owasp : local.managed }\n    expression = "true"', 'http_request_firewall_managed')],
      ['a v5 object, a function call', v5('    action = "execute"\n    action_parameters = { id = lookup(local.ids, "owasp") }\n    expression = "true"', 'http_request_firewall_managed')],
      ['a v5 object, a template', v5('    action = "execute"\n    action_parameters = { id = "${local.prefix}-ruleset" }\n    expression = "true"', 'http_request_firewall_managed')],
    ];
    for (const [what, text] of execute) {
      it(`an \`execute\` rule's id in ${what}: nothing reported (it hides no check)`, () => {
        assert.deepEqual(marked(text), []);
      });
    }

    it('the `ruleset` of a packet `skip`, given by a variable or a template: no error, one hint', () => {
      for (const value of ['var.skip_what', '"${var.skip_what}"']) {
        const text = v5(`    action = "skip"\n    action_parameters = { ruleset = ${value} }\n    expression = "tcp.dstport == 22"`, 'magic_transit');
        const found = problems(text);
        assert.deepEqual(marked(text, found), [['terraform-unknown', 'hint', value]]);
        assert.equal(found[0].message, `\`ruleset\` is filled in by Terraform (\`${value}\`): not checked`);
      }
      const v4Text = v4('magic_transit', '    action = "skip"\n    action_parameters {\n      ruleset = var.skip_what\n    }\n    expression = "tcp.dstport == 22"');
      assert.deepEqual(marked(v4Text), [['terraform-unknown', 'hint', 'var.skip_what']]);
    });

    it('a redirect\'s `target_url` as a whole, and its `value`: no missing key', () => {
      const whole = v5('    action = "redirect"\n    action_parameters = { from_value = { target_url = var.target } }\n    expression = "true"', 'http_request_dynamic_redirect');
      assert.deepEqual(marked(whole), [['terraform-unknown', 'hint', 'var.target']]);
      // A static URL has no check a variable could hide.
      const value = v5('    action = "redirect"\n    action_parameters = { from_value = { target_url = { value = var.url } } }\n    expression = "true"', 'http_request_dynamic_redirect');
      assert.deepEqual(marked(value), []);
    });

    it('the whole `action_parameters` of a v5 rule: no missing parameters, one hint', () => {
      const text = v5('    action = "execute"\n    action_parameters = var.parameters\n    expression = "true"', 'http_request_firewall_managed');
      assert.deepEqual(marked(text), [['terraform-unknown', 'hint', 'var.parameters']]);
    });
  });

  describe('are never a type error', () => {
    it('in a rule\'s own attributes and in parameters', () => {
      const text = v5(
        '    action = "block"\n    expression = "true"\n    enabled = var.enabled\n    description = format("rule %d", 1)\n  }, {\n    action = "block"\n    expression = "ip.src eq 192.0.2.1"\n    ratelimit = { characteristics = ["ip.src", "cf.colo.id"], period = var.period, requests_per_period = local.limit, mitigation_timeout = 60 }',
        'http_ratelimit',
      );
      const found = problems(text);
      assert.ok(!found.some((p) => p.severity === 'error' || p.severity === 'warning'), JSON.stringify(marked(text, found)));
    });

    it('a template where a value is one of a few: not compared with them', () => {
      const text = v5('    action = "${var.action}"\n    expression = "true"');
      assert.ok(!problems(text).some((p) => p.code === 'unknown-action'), JSON.stringify(marked(text)));
      const phase = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_${var.which}"\n  rules = [{ action = "block", expression = "true" }]\n}\n';
      assert.deepEqual(problems(phase).filter((p) => p.code === 'unknown-phase'), []);
      assert.equal(parseDocument(phase, 'hcl').rulesets[0].phase, undefined);
    });
  });

  describe('are named once a resource, where they hide a check', () => {
    it('an expression, an action: one hint on the first, naming the rest', () => {
      const text = v5('    action = "block"\n    expression = var.expr\n  }, {\n    action = "block"\n    expression = local.other\n  }, {\n    action = var.action\n    expression = "true"');
      const found = problems(text);
      assert.deepEqual(marked(text, found), [['terraform-unknown', 'hint', 'var.expr']]);
      assert.match(found[0].message, /^`expression` is filled in by Terraform \(`var\.expr`\): not checked/);
      assert.match(found[0].message, /`action`/);
      assert.match(found[0].message, /2 more values/);
    });

    it('once for each resource', () => {
      const text = v5('    action = "block"\n    expression = var.a') + v5('    action = "block"\n    expression = var.b').replace('"r"', '"s"');
      assert.deepEqual(marked(text).map(([code, , at]) => [code, at]), [['terraform-unknown', 'var.a'], ['terraform-unknown', 'var.b']]);
    });

    it('nothing where nothing is hidden: an id, a description, enabled, a zone', () => {
      const text = v5('    action = "block"\n    expression = "true"\n    enabled = var.on\n    description = var.why\n    ref = local.ref');
      assert.deepEqual(marked(text), []);
    });

    it('is a code the project configuration can turn off', () => {
      assert.equal(PROBLEM_CODES.get('terraform-unknown')?.severity, 'hint');
      const text = v5('    action = "block"\n    expression = var.expr');
      assert.deepEqual(checkRuleset(text, 'hcl', { severities: { 'terraform-unknown': 'off', 'terraform-rules-without-ref': 'off' } }), []);
    });
  });
});

describe('Terraform\'s own conversions', () => {
  before(() => loadTerraformParser());

  it('`expression = true` unquoted is the expression `true`, checked as such', () => {
    for (const text of [v5('    action = "block"\n    expression = true'), v4('http_request_firewall_custom', '    action = "block"\n    expression = true')]) {
      assert.deepEqual(marked(text), []);
      const [site] = parseDocument(text, 'hcl').rulesets[0].expressions;
      assert.equal(site?.text, 'true');
    }
    // A number is converted too, and then it is no filter.
    const number = v5('    action = "block"\n    expression = 42');
    assert.ok(problems(number).some((p) => p.severity === 'error' && p.code !== 'invalid-type'), JSON.stringify(marked(number)));
  });

  it('a bool or number written as a string is the bool or number Terraform converts it to', () => {
    const text = v5(
      '    action = "block"\n    expression = "true"\n    enabled = "true"\n  }, {\n    action = "block"\n    expression = "ip.src eq 192.0.2.1"\n    enabled = "0"\n    ratelimit = { characteristics = ["ip.src", "cf.colo.id"], period = "60", requests_per_period = "1e2", mitigation_timeout = "60", requests_to_origin = "false" }',
      'http_ratelimit',
    );
    assert.deepEqual(marked(text), []);
    const v4Text = v4('http_request_firewall_custom', '    action = "block"\n    expression = "true"\n    enabled = "false"');
    assert.deepEqual(marked(v4Text), []);
  });

  it('a rule switched off by `enabled = "false"` is off when rules are compared; one whose action Terraform fills in is not compared', () => {
    const twice = (first: string) => v5(`    action = "block"\n    expression = "ip.src eq 192.0.2.1"\n${first}\n  }, {\n    action = "block"\n    expression = "ip.src eq 192.0.2.1"`);
    assert.deepEqual(problems(twice('    enabled = true')).map((p) => p.code), ['duplicate-rule']);
    assert.deepEqual(problems(twice('    enabled = "false"')), []);
    const templated = v5('    action = "${var.a}"\n    expression = "ip.src eq 192.0.2.1"\n  }, {\n    action = "${var.a}"\n    expression = "ip.src eq 192.0.2.1"');
    assert.deepEqual(problems(templated).map((p) => p.code), ['terraform-unknown']);
  });

  it('a converted number is still held to its values and range', () => {
    const text = v5('    action = "block"\n    expression = "true"\n    ratelimit = { characteristics = ["ip.src", "cf.colo.id"], period = "61", requests_per_period = 10, mitigation_timeout = 60 }', 'http_ratelimit');
    assert.deepEqual(marked(text).map(([code, , at]) => [code, at]), [['invalid-action-parameters', '"61"']]);
  });

  it('a number or bool where a string belongs is converted', () => {
    const text = v5('    action = "block"\n    expression = "true"\n    description = 42\n    ref = true');
    assert.deepEqual(marked(text), []);
  });

  it('what Terraform refuses is an error in Terraform\'s words', () => {
    const cases: [string, string, string][] = [
      ['    enabled = "yes"', '"yes"', 'Inappropriate value for attribute "enabled": a bool is required.'],
      ['    enabled = "True"', '"True"', 'Inappropriate value for attribute "enabled": a bool is required; to convert from string, use lowercase "true".'],
      ['    enabled = 1', '1', 'Inappropriate value for attribute "enabled": bool required, but have number.'],
      ['    enabled = { on = true }', '{ on = true }', 'Inappropriate value for attribute "enabled": bool required, but have object.'],
      ['    description = ["a"]', '["a"]', 'Inappropriate value for attribute "description": string required, but have tuple.'],
    ];
    for (const [attribute, at, message] of cases) {
      const text = v5(`    action = "block"\n    expression = "true"\n${attribute}`);
      const found = problems(text);
      assert.deepEqual(marked(text, found), [['invalid-type', 'error', at]], attribute);
      assert.equal(found[0].message, message);
    }
    const number = v5('    action = "block"\n    expression = "true"\n    ratelimit = { characteristics = ["ip.src", "cf.colo.id"], period = "a minute", requests_per_period = 10, mitigation_timeout = 60 }', 'http_ratelimit');
    const found = problems(number);
    assert.deepEqual(marked(number, found), [['invalid-type', 'error', '"a minute"']]);
    assert.equal(found[0].message, 'Inappropriate value for attribute "period": a number is required.');
  });

  it('leaves JSON and YAML files as they were', () => {
    const yaml = 'name: r\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: true\n    enabled: "true"\n';
    const found = checkRuleset(yaml, 'yaml', { cache: new ExpressionCache() });
    assert.deepEqual(found.map((p) => p.code), ['invalid-type', 'invalid-type']);
    assert.match(found[0].message, /in YAML/);
  });
});

describe('messages in a .tf file', () => {
  before(() => loadTerraformParser());

  /** What a message must not say in a Terraform file: YAML or JSON by name. */
  const FOREIGN_WORDS = [/\bYAML\b/i, /\bJSON\b/i];
  /** What its code (between backticks) must not be: their syntax, `"key": value` or `key: value`, where HCL writes `key = value`. */
  const FOREIGN_CODE = [/"[\w-]+"\s*:/, /^[\w.-]*[a-z_]:\s/, /[{,]\s*[a-z_]+:\s/];

  function speaksHcl(path: string, found: readonly DocumentProblem[]): void {
    for (const p of found) {
      for (const pattern of FOREIGN_WORDS) assert.ok(!pattern.test(p.message), `${path}: ${p.code}: ${p.message}`);
      const code = p.message.split('`').filter((_, i) => i % 2 === 1);
      for (const span of code) for (const pattern of FOREIGN_CODE) assert.ok(!pattern.test(span), `${path}: ${p.code}: ${p.message}`);
    }
  }

  it('the check of what a message says would catch the JSON and YAML the messages said', () => {
    const said = (message: string) => (): void => speaksHcl('t', [{ code: 'c', severity: 'error', start: 0, end: 0, message }]);
    assert.throws(said('a `skip` rule needs `action_parameters: {"ruleset": "current"}` to say what it skips'));
    assert.throws(said('a `skip` rule needs `"ruleset": "current"` in its `action_parameters`'));
    assert.throws(said('expected the expression as a string; in YAML, `true` unquoted is a Boolean: write `"true"`'));
    assert.doesNotThrow(said('a `skip` rule needs `action_parameters = { ruleset = "current" }` to say what it skips: it does nothing else'));
  });

  it('a `skip` without what it skips is told the HCL of its shape', () => {
    const v5Text = v5('    action = "skip"\n    expression = "tcp.dstport == 22"', 'magic_transit');
    const v5Found = problems(v5Text);
    assert.deepEqual(v5Found.map((p) => p.code), ['missing-action-parameters']);
    assert.match(v5Found[0].message, /`action_parameters = \{ ruleset = "current" \}`/);
    const v4Text = v4('magic_transit', '    action = "skip"\n    expression = "tcp.dstport == 22"');
    assert.match(problems(v4Text)[0].message, /`action_parameters \{ ruleset = "current" \}`/);
    const empty = v5('    action = "skip"\n    action_parameters = {}\n    expression = "tcp.dstport == 22"', 'magic_transit');
    assert.match(problems(empty)[0].message, /`ruleset = "current"`/);
    speaksHcl('skip', [...v5Found, ...problems(v4Text), ...problems(empty)]);
  });

  it('a rule that is not an object is told so in HCL', () => {
    const text = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules = ["ip.src eq 192.0.2.1"]\n}\n';
    const found = problems(text);
    assert.deepEqual(marked(text, found).map(([code, , at]) => [code, at]), [['invalid-type', '"ip.src eq 192.0.2.1"']]);
    speaksHcl('rule', found);
  });

  it('no finding of the examples\' and fixtures\' .tf files, nor of these mistakes, speaks YAML or JSON', () => {
    const files: string[] = [];
    const walk = (folder: string): void => {
      for (const name of readdirSync(folder)) {
        const path = join(folder, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.tf')) files.push(path);
      }
    };
    walk(join(ROOT, 'examples'));
    walk(join(ROOT, 'test', 'fixtures'));
    assert.ok(files.length >= 3, files.join(', '));
    let count = 0;
    for (const path of files) {
      const found = problems(readFileSync(path, 'utf8'));
      count += found.length;
      speaksHcl(path, found);
    }
    assert.ok(count > 0);
    const mistakes = [
      v5('    action = "block"\n    expression = { a = 1 }'),
      v5('    action = "skip"\n    expression = "tcp.dstport == 22"', 'magic_transit'),
      v5('    action = "execute"\n    action_parameters = { id = ["a"] }\n    expression = "true"', 'http_request_firewall_managed'),
      v5('    action = "execute"\n    expression = "true"', 'http_request_firewall_managed'),
      v5('    action = "redirect"\n    action_parameters = { from_value = { status_code = "299", target_url = {} } }\n    expression = "true"', 'http_request_dynamic_redirect'),
      v5('    action = "block"\n    expression = "true"\n    logging = { enabled = "maybe" }'),
      v5('    action = "block"\n    expression = "true"\n    enabled = "yes"'),
      v5('    action = "skip"\n    action_parameters = { ruleset = ["current"] }\n    expression = "tcp.dstport == 22"', 'magic_transit'),
      v4('magic_transit', '    action = "skip"\n    action_parameters {\n      ruleset = "currnet"\n    }\n    expression = "tcp.dstport == 22"'),
      v5('    action = "block"\n    expression = "true"\n    categories = "a"'),
      'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules = "none"\n}\n',
    ];
    for (const text of mistakes) {
      const found = problems(text);
      assert.ok(found.length > 0, text);
      speaksHcl(text, found);
    }
  });
});
