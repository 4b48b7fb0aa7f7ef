/**
 * The provider's major version, as Terraform would pick it: the lock file's selected version,
 * else the `required_providers` constraints read as Terraform reads them (apparentlymart/go-versions'
 * Ruby-style constraints); and what the version decides in a `.tf` file (the shape of `rules`).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { majorOfConstraints, providerMajor } from '../../server/src/documents/provider-version';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';

before(() => loadTerraformParser());

const required = (constraint: string, source = 'cloudflare/cloudflare') => `terraform {\n  required_providers {\n    cloudflare = {\n      source  = "${source}"\n      version = "${constraint}"\n    }\n  }\n}\n`;
const lock = (version: string) => `# This file is maintained automatically by "terraform init".\nprovider "registry.terraform.io/cloudflare/cloudflare" {\n  version     = "${version}"\n  constraints = "~> 4.0"\n  hashes = [\n    "h1:abc=",\n  ]\n}\n`;

describe('provider version: constraints as Terraform reads them', () => {
  const cases: [string, 4 | 5 | undefined][] = [
    ['~> 4.0', 4],
    ['~> 4', 4],
    ['~> 4.52.1', 4],
    ['~> 5.0', 5],
    ['~> 5', 5],
    ['>= 5', 5],
    ['>= 5.0.0-rc1', 5],
    ['>= 4.40', undefined],
    ['>= 4.40, < 5', 4],
    ['>= 4.40, < 5.0.0', 4],
    ['>= 4.40, <= 5.0.0', undefined],
    ['> 4.99, < 6', undefined],
    ['< 5.1', undefined],
    ['4.52.0', 4],
    ['= 5.3.0', 5],
    ['!= 4.1.0', undefined],
    ['~> 3.0', 4],
    ['>= 4.0,<5.0', 4],
    ['>= 5.1, != 5.2.0', 5],
    ['~> 4.0, >= 5', undefined],
    ['v4.0', undefined],
    ['=> 4.0', undefined],
    ['latest', undefined],
  ];
  for (const [constraint, major] of cases) {
    it(`"${constraint}" is ${major === undefined ? 'neither 4 nor 5' : `provider v${major}`}`, () => {
      assert.equal(majorOfConstraints([constraint]), major);
    });
  }

  it('constraints of several files hold together', () => {
    assert.equal(majorOfConstraints(['>= 4.0', '< 5']), 4);
    assert.equal(majorOfConstraints(['>= 4.0', '~> 5.1']), 5);
  });
});

describe('provider version: the module files', () => {
  it('reads the constraint of `required_providers`, in its object and shorthand forms', () => {
    assert.equal(providerMajor({ tfFiles: [required('~> 4.0')] }), 4);
    assert.equal(providerMajor({ tfFiles: [required('~> 5.0', 'registry.terraform.io/cloudflare/cloudflare')] }), 5);
    assert.equal(providerMajor({ tfFiles: ['terraform {\n  required_providers {\n    cloudflare = "~> 4.0"\n  }\n}\n'] }), 4);
  });

  it('a provider of another source, or none, says nothing', () => {
    assert.equal(providerMajor({ tfFiles: [required('~> 5.0', 'example/cloudflare')] }), undefined);
    assert.equal(providerMajor({ tfFiles: ['resource "cloudflare_ruleset" "r" {\n}\n'] }), undefined);
    assert.equal(providerMajor({}), undefined);
  });

  it('reads the constraint in any file of the module', () => {
    assert.equal(providerMajor({ tfFiles: ['resource "cloudflare_ruleset" "r" {\n}\n', required('>= 5.2')] }), 5);
  });

  it("the lock file's selected version wins over a constraint", () => {
    assert.equal(providerMajor({ tfFiles: [required('>= 4.0')], lockFile: lock('4.52.0') }), 4);
    assert.equal(providerMajor({ tfFiles: [required('>= 4.0')], lockFile: lock('5.8.2') }), 5);
    assert.equal(providerMajor({ tfFiles: [required('~> 4.0')], lockFile: lock('5.8.2') }), 5);
  });

  it('a lock file without the Cloudflare provider leaves the constraint to decide', () => {
    const other = 'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.6.0"\n}\n# cloudflare\n';
    assert.equal(providerMajor({ tfFiles: [required('~> 4.0')], lockFile: other }), 4);
  });
});

describe("provider names: a .tf file's objects are checked by the provider's own attribute names", () => {
  const cacheControl = (directive: string) =>
    `resource "cloudflare_ruleset" "cc" {\n  zone_id = "z"\n  name    = "cache control"\n  kind    = "zone"\n  phase   = "http_response_cache_settings"\n  rules = [{\n    ref        = "cc"\n    action     = "set_cache_control"\n    expression = "true"\n    action_parameters = {\n      ${directive} = {\n        operation = "set"\n        value     = 600\n      }\n    }\n  }]\n}\n`;
  const found = (text: string) => checkRuleset(text, 'hcl', { cache: new ExpressionCache() }).map((p) => `${p.code} ${text.slice(p.start, p.end)}: ${p.message}`);

  it("v5's `stale_if_error` is no unknown key (the API's `stale-if-error`)", () => {
    assert.deepEqual(found(cacheControl('stale_if_error')), []);
    assert.deepEqual(found(cacheControl('max_age')), []);
  });

  it("the API's hyphenated key in a .tf file is unknown there, and the did-you-mean offers the provider's name", () => {
    const problems = found(cacheControl('"stale-if-error"'));
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^unknown-key "stale-if-error": .*did you mean `stale_if_error`\?$/);
  });

  it("a misspelt name is offered the provider's name, never the API's", () => {
    const problems = found(cacheControl('stale_if_eror'));
    assert.equal(problems.length, 1);
    assert.match(problems[0], /did you mean `stale_if_error`\?$/);
    assert.doesNotMatch(problems[0], /stale-if-error/);
  });

  it("the same rule in a ruleset file keeps the API's names", () => {
    const yaml = 'name: cc\nkind: zone\nphase: http_response_cache_settings\nrules:\n  - action: set_cache_control\n    expression: "true"\n    action_parameters:\n      stale_if_error: {operation: set, value: 600}\n';
    const problems = checkRuleset(yaml, 'yaml', { cache: new ExpressionCache() });
    assert.match(problems.find((p) => p.code === 'unknown-key')?.message ?? '', /did you mean `stale-if-error`\?/);
  });
});
