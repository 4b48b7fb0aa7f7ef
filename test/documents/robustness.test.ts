/**
 * Documents at the edges users and fuzzers reach: a Terraform string of many thousands of `${…}`
 * read in work that grows with its length, not with its length times its holes; and every range
 * on whole characters, never between the two halves of a surrogate pair (test/property.test.ts
 * holds every format to that on random documents).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { FillerContext } from '../../server/src/documents/host/decode-hcl';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import type { HostFormat } from '../../server/src/documents/host/host';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';

before(() => loadTerraformParser());

/** A v4 resource with one rule of this expression, written between quotes as is. */
function resource(expression: string): string {
  return `resource "cloudflare_ruleset" "r" {\n  name  = "r"\n  kind  = "zone"\n  phase = "http_request_firewall_custom"\n  rules {\n    ref        = "r1"\n    action     = "block"\n    expression = "${expression}"\n  }\n}\n`;
}

/** `holes` interpolations, alternately standing for a field and inside a string of the expression, then a typo. */
function manyHoles(holes: number): string {
  return `${Array.from({ length: holes }, (_, i) => (i % 2 === 0 ? '${var.x}' : 'http.host eq \\"${var.host}\\"')).join(' or ')} or http.hots eq \\"a\\"`;
}

/** The units of expression text read to choose the holes' stand-ins while `run` runs. */
function unitsReadBy(run: () => void): number {
  const read = FillerContext.prototype.read;
  let units = 0;
  FillerContext.prototype.read = function (this: FillerContext, text: string) {
    units += text.length;
    return read.call(this, text);
  };
  try {
    run();
  } finally {
    FillerContext.prototype.read = read;
  }
  return units;
}

describe('a string of many interpolations', () => {
  it('17,320 `${…}`: each unit of the expression read a few times, not once per hole; one hint names them all', () => {
    const expression = manyHoles(17_320);
    const text = resource(expression);
    let found: ReturnType<typeof checkRuleset> = [];
    // Counted where the stand-ins of the holes are chosen: the whole text before each hole was
    // read again (30 s for this string); now each unit once per decoding (read, checked, mapped).
    const units = unitsReadBy(() => (found = checkRuleset(text, 'hcl', { cache: new ExpressionCache() })));
    assert.ok(units <= 4 * expression.length, `${units} units read for an expression of ${expression.length}`);
    // Too long to parse, and what Terraform fills in may change its length: nothing but the hint.
    assert.deepEqual(
      found.map((p) => [p.code, text.slice(p.start, p.end)]),
      [['terraform-interpolation', '${var.x}']],
    );
    assert.match(found[0].message, /its 17320 `\$\{…\}` parts are Terraform's to fill in/);
  });

  it('1,500 `${…}` and a typo after them: the typo found on its characters, with its did-you-mean', () => {
    const text = resource(manyHoles(1_500));
    const found = checkRuleset(text, 'hcl', { cache: new ExpressionCache() });
    assert.deepEqual(
      found.map((p) => [p.code, text.slice(p.start, p.end)]),
      [
        ['terraform-interpolation', '${var.x}'],
        ['unknown-field', 'http.hots'],
      ],
    );
    assert.match(found[1].message, /did you mean `http\.host`/);
  });
});

/** Whether `offset` falls between the two halves of a surrogate pair of `text`. */
function splitsPair(text: string, offset: number): boolean {
  return offset > 0 && offset < text.length && /[\uD800-\uDBFF]/.test(text[offset - 1]) && /[\uDC00-\uDFFF]/.test(text[offset]);
}

describe('ranges on whole characters', () => {
  const cases: [string, string, [string, string][], HostFormat?][] = [
    // The parser stops on the emoji (UTF-16 units 30 and 31): the problem takes both.
    ['an emoji where a label or `{` should be', 'resource "cloudflare_ruleset"=😀  =C', [
      ['hcl-syntax', '"cloudflare_ruleset"'],
      ['hcl-syntax', '😀'],
      ['hcl-syntax', ''],
    ]],
    // Not an escape: the backslash and the emoji after it, not its first half.
    ['an emoji after a backslash', 'resource "cloudflare_ruleset" "r" {\n  rules {\n    expression = "a\\😀"\n  }\n}\n', [['hcl-syntax', '\\😀']]],
    // A missing key (and a phase not given) is reported on its object's first character; the YAML library's error on the emoji's first unit.
    ['YAML: an emoji as the first key', '😀:', [['unknown-key', '😀'], ['missing-key', '😀'], ['phase-not-given', '😀']], 'yaml'],
    ['YAML: an emoji after a tag', '!😀', [['yaml-syntax', '😀'], ['invalid-type', '😀']], 'yaml'],
    // JSON: an escape the string cannot hold before an astral character; the expression's problem
    // on the character, not on the unit after its first half (found by test/property.test.ts).
    ['JSON: a backslash before an astral character in an expression', '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": "ip.proto == \\𐀀"}]}', [['json-syntax', '"ip.proto == \\𐀀"'], ['syntax-error', '𐀀']], 'json'],
  ];
  for (const [name, text, expected, format = 'hcl'] of cases) {
    it(`${name}: each problem starts and ends between characters`, () => {
      const found = checkRuleset(text, format, { cache: new ExpressionCache() });
      assert.deepEqual(found.map((p) => [p.code, text.slice(p.start, p.end)]), expected);
      for (const p of found) assert.ok(!splitsPair(text, p.start) && !splitsPair(text, p.end), `${p.code} ${p.start}..${p.end}`);
    });
  }
});
