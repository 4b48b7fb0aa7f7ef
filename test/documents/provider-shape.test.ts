/**
 * The shape of `rules` by provider version: where the module's version is known, the other
 * version's shape is the error Terraform gives (hclsyntax's "Unsupported block type" /
 * "Unsupported argument"), and a v4 resource is rewritten into v5's shape as the provider's
 * migration does. The v4/v5 pairs in fixtures/terraform/provider-v4-to-v5/ are ours, written
 * after the cases of the provider's migration testdata (headers, log custom fields, rate limits)
 * and its transform.go (edge TTLs, a cache key's query string, a skip's rules map).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ExpressionCache } from '../../server/src/documents/expression-cache';
import type { DocumentEdit } from '../../server/src/documents/host/host-edits';
import { v5RewriteAt } from '../../server/src/documents/provider-shape';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { loadTerraformParser, readTerraform } from '../../server/src/documents/terraform';

const PAIRS = join(__dirname, '..', 'fixtures', 'terraform', 'provider-v4-to-v5');
const read = (name: string) => readFileSync(join(PAIRS, name), 'utf8');

const V4 = 'terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = "~> 4.0"\n    }\n  }\n}\n';
const V5 = V4.replace('~> 4.0', '~> 5.0');

function applyEdits(text: string, edits: readonly DocumentEdit[]): string {
  for (const e of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.newText + text.slice(e.end);
  return text;
}

/** Every resource of the text rewritten into v5's shape, the last first so that offsets hold. */
function rewriteAll(text: string): string {
  const starts = [...text.matchAll(/^resource "cloudflare_ruleset"/gm)].map((m) => m.index).reverse();
  for (const start of starts) {
    const rewrite = v5RewriteAt(text, start);
    assert.ok(rewrite, `no rewrite for the resource at ${start}`);
    text = applyEdits(text, [rewrite.edit]);
  }
  return text;
}

const problems = (text: string) => checkRuleset(text, 'hcl', { cache: new ExpressionCache() });

before(() => loadTerraformParser());

describe('provider shapes: the rewrite of a v4 resource into v5', () => {
  const pairs = readdirSync(PAIRS).filter((f) => f.endsWith('.v4.tf')).map((f) => f.replace('.v4.tf', ''));
  it('has the pairs', () => assert.ok(pairs.length >= 4));
  for (const pair of pairs) {
    it(`writes ${pair}.v4.tf as ${pair}.v5.tf`, () => {
      assert.equal(rewriteAll(read(`${pair}.v4.tf`)), read(`${pair}.v5.tf`));
    });

    it(`${pair}: the rewritten file has the same expressions, and no error under a v5 constraint`, () => {
      const before = readTerraform(read(`${pair}.v4.tf`)).rulesets.flatMap((r) => r.sites.map((s) => [s.path.join('.'), String(s.node.value)]));
      const after = readTerraform(read(`${pair}.v5.tf`)).rulesets.flatMap((r) => r.sites.map((s) => [s.path.join('.'), String(s.node.value)]));
      assert.deepEqual(after, before);
      assert.deepEqual(problems(V5 + read(`${pair}.v5.tf`)).filter((p) => p.severity === 'error').map((p) => p.message), []);
    });
  }

  it("keeps the file's CRLF line ends and its tab indentation", () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    const tabs = (s: string) => s.replace(/^( {2})+/gm, (m) => '\t'.repeat(m.length / 2));
    for (const style of [crlf, tabs]) assert.equal(rewriteAll(style(read('headers.v4.tf'))), style(read('headers.v5.tf')));
  });

  it('gives no rewrite where it would have to guess: a `dynamic` block, a block v5 does not know, a syntax error', () => {
    const dynamic = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "true"\n  }\n  dynamic "rules" {\n    for_each = var.rules\n    content {\n      action     = "block"\n      expression = rules.value\n    }\n  }\n}\n';
    assert.equal(v5RewriteAt(dynamic, 5), undefined);
    const unknown = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "true"\n    actoin_parameters {\n      id = "x"\n    }\n  }\n}\n';
    assert.equal(v5RewriteAt(unknown, 5), undefined);
    const broken = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "true"\n    description = = "x"\n  }\n}\n';
    assert.equal(v5RewriteAt(broken, 5), undefined);
  });

  it('leaves out what v5 removed (`disable_railgun`), as the provider migration does', () => {
    const text = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_config_settings"\n  rules {\n    action     = "set_config"\n    expression = "true"\n    action_parameters {\n      disable_railgun = true\n      rocket_loader   = false\n    }\n  }\n}\n';
    const rewritten = applyEdits(text, [v5RewriteAt(text, 5)!.edit]);
    assert.doesNotMatch(rewritten, /disable_railgun/);
    assert.match(rewritten, /action_parameters = \{\n {8}rocket_loader = false\n {6}\}/);
  });
});

describe('provider shapes: the other version\'s shape is the error Terraform gives', () => {
  const v4Resource = read('ratelimit.v4.tf');
  const v5Resource = read('ratelimit.v5.tf');

  it('v5: each `rules { … }` block is an unsupported block type, in hclsyntax\'s words, with the rewrite as its fix', () => {
    const text = V5 + v4Resource;
    const found = problems(text).filter((p) => p.code === 'unsupported-block-type');
    assert.deepEqual(found.map((p) => text.slice(p.start, p.end)), ['rules', 'rules']);
    assert.match(found[0].message, /^Unsupported block type: Blocks of type "rules" are not expected here\. Did you mean to define argument "rules"\? If so, use the equals sign to assign it a value\./);
    assert.equal(found[0].severity, 'error');
    const fix = found[0].fixes?.[0];
    assert.equal(fix?.title, 'Rewrite `cloudflare_ruleset.ratelimit` in provider v5\'s shape (`rules = [{ … }]`)');
    assert.equal(applyEdits(text, fix!.edits), V5 + v5Resource);
  });

  it('v4: a `rules = [ … ]` list is an unsupported argument, in hclsyntax\'s words', () => {
    const text = V4 + v5Resource;
    const found = problems(text).filter((p) => p.code === 'unsupported-argument');
    assert.deepEqual(found.map((p) => text.slice(p.start, p.end)), ['rules']);
    assert.match(found[0].message, /^Unsupported argument: An argument named "rules" is not expected here\. Did you mean to define a block of type "rules"\?/);
    // Its fix writes the resource back in v4's blocks (blank lines between rules, as a v4 file has them).
    assert.equal(found[0].fixes?.[0].title, 'Rewrite `cloudflare_ruleset.ratelimit` in provider v4\'s shape (`rules { … }` blocks)');
    assert.equal(applyEdits(text, found[0].fixes![0].edits), V4 + v4Resource.replace('  }\n  rules {', '  }\n\n  rules {'));
  });

  it('v4: the rewrite back into blocks gives the v4 file of a pair, and none where v5 computes the list of names', () => {
    for (const pair of ['headers', 'cache']) {
      const text = V4 + read(`${pair}.v5.tf`);
      const edits = problems(text).filter((p) => p.code === 'unsupported-argument').map((p) => p.fixes![0].edits[0]);
      assert.equal(applyEdits(text, edits), V4 + read(`${pair}.v4.tf`));
    }
    const computed = problems(V4 + read('log-fields.v5.tf')).find((p) => p.code === 'unsupported-argument');
    assert.equal(computed?.fixes, undefined);
  });

  it('v4: an attribute written where v4 takes a block, inside a rule block', () => {
    const text = `${V4}resource "cloudflare_ruleset" "r" {\n  phase = "http_ratelimit"\n  rules {\n    action     = "block"\n    expression = "true"\n    ratelimit = {\n      period = 60\n    }\n  }\n}\n`;
    const found = problems(text).filter((p) => p.code === 'unsupported-argument');
    assert.deepEqual(found.map((p) => [text.slice(p.start, p.end), p.message]), [['ratelimit', 'Unsupported argument: An argument named "ratelimit" is not expected here. Did you mean to define a block of type "ratelimit"?']]);
  });

  it('the lock file decides over the constraint', () => {
    const lock = 'provider "registry.terraform.io/cloudflare/cloudflare" {\n  version = "5.3.0"\n}\n';
    const parsed = readTerraform(V4 + v4Resource, { lockFile: lock });
    assert.deepEqual(parsed.problems.map((p) => p.code), ['unsupported-block-type', 'unsupported-block-type']);
  });

  it('the constraint in another file of the module decides', () => {
    assert.deepEqual(readTerraform(v4Resource, { tfFiles: [V5] }).problems.map((p) => p.code), ['unsupported-block-type', 'unsupported-block-type']);
  });

  it('a version that is not known accepts both shapes, as before', () => {
    for (const text of [v4Resource, v5Resource, '# >= 4.0\n' + v4Resource]) assert.deepEqual(problems(text).filter((p) => p.severity === 'error'), []);
    const either = V4.replace('~> 4.0', '>= 4.0');
    assert.deepEqual(problems(either + v4Resource).filter((p) => p.severity === 'error'), []);
    assert.deepEqual(problems(either + v5Resource).filter((p) => p.severity === 'error'), []);
  });
});

describe("provider shapes: v4's names, where the module's version is v4", () => {
  const rule = (body: string) => `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_dynamic_redirect"\n  rules {\n    action     = "redirect"\n    expression = "true"\n${body}\n  }\n}\n`;

  it('every v4 pair checks without a finding on its names under a v4 constraint', () => {
    for (const file of readdirSync(PAIRS).filter((f) => f.endsWith('.v4.tf'))) {
      assert.deepEqual(problems(V4 + read(file)).filter((p) => p.code === 'unknown-key' || p.code.startsWith('unsupported')).map((p) => p.message), [], file);
    }
  });

  it('a misspelt argument or block inside a rule: a warning with the name hclsyntax would suggest, and a fix', () => {
    const text = V4 + rule('    action_parameters {\n      from_valeu {\n        status_code = 301\n      }\n      from_value {\n        status_codee = 301\n      }\n    }');
    const found = problems(text).filter((p) => p.code === 'unknown-key');
    assert.deepEqual(found.map((p) => [text.slice(p.start, p.end), p.severity, p.message]), [
      ['from_valeu', 'warning', 'provider v4 has no block type `from_valeu` in `action_parameters`; did you mean `from_value`?'],
      ['status_codee', 'warning', 'provider v4 has no argument `status_codee` in `from_value`; did you mean `status_code`?'],
    ]);
    assert.equal(applyEdits(text, found[1].fixes![0].edits), text.replace('status_codee', 'status_code'));
  });

  it('says nothing of names when the version is not known, nor of names earlier v4 releases took', () => {
    assert.deepEqual(problems(rule('    action_parameters {\n      from_valeu {\n        status_code = 301\n      }\n    }')).filter((p) => p.code === 'unknown-key'), []);
    assert.deepEqual(problems(V4 + rule('    action_parameters {\n      version = "1"\n    }')).filter((p) => p.code === 'unknown-key'), []);
  });
});

describe('provider shapes: a `dynamic "rules"` block under v5', () => {
  it('is the error hcl\'s dynblock gives, on its label, with no rewrite offered', () => {
    const text = `${V5}resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  dynamic "rules" {\n    for_each = var.rules\n    content {\n      action     = "block"\n      expression = rules.value\n    }\n  }\n}\n`;
    const found = problems(text).filter((p) => p.code === 'unsupported-block-type');
    assert.deepEqual(found.map((p) => [text.slice(p.start, p.end), p.message.split('. Provider')[0], p.fixes]), [['"rules"', 'Unsupported block type: Blocks of type "rules" are not expected here', undefined]]);
  });
});
