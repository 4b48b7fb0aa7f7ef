/**
 * Terraform files: every `cloudflare_ruleset` resource read as a ruleset, in both provider
 * shapes, every problem on the exact characters of the `.tf` file, and never a report on what
 * Terraform fills in (`${…}`).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { parseDocument, rulesetAt } from '../../server/src/documents/parsed-document';
import type { DocumentEdit } from '../../server/src/documents/host/host-edits';
import { MAX_NESTING } from '../../server/src/documents/host/nesting';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { checkRuleset, expressionEdit, siteAt } from '../../server/src/documents/ruleset';
import { loadTerraformParser, readTerraform } from '../../server/src/documents/terraform';

const FIXTURES = join(__dirname, '..', 'fixtures', 'terraform');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

/** The file's problems but the hint on rules without a `ref`, which firewall-rules.test.ts holds to its own cases: the rules here have none. */
function problems(text: string): DocumentProblem[] {
  return checkRuleset(text, 'hcl', { cache: new ExpressionCache() }).filter((p) => p.code !== 'terraform-rules-without-ref');
}

/** Each problem as its code and the characters of the file it is on. */
function marked(text: string, found = problems(text)): [string, string][] {
  return found.map((p) => [p.code, text.slice(p.start, p.end)]);
}

function applyEdits(text: string, edits: readonly DocumentEdit[]): string {
  for (const e of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.newText + text.slice(e.end);
  return text;
}

/** A resource of the v5 shape around one rule's attributes. */
function v5(rule: string, phase = 'http_request_firewall_custom', name = 'r'): string {
  return `resource "cloudflare_ruleset" "${name}" {\n  phase = "${phase}"\n  rules = [{\n    action = "block"\n${rule}\n  }]\n}\n`;
}

describe('a Terraform file before the HCL parser is loaded', () => {
  it('says so in one problem, rather than throwing or saying nothing, for a file only tree-sitter reads', () => {
    // A `dynamic` block is left to tree-sitter (hcl-subset.ts does not read it).
    const document = readTerraform('resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  dynamic "rules" {\n    for_each = local.rules\n    content {\n      action = "block"\n    }\n  }\n}\n');
    assert.deepEqual(document.rulesets, []);
    assert.deepEqual(document.problems.map((p) => [p.code, p.severity]), [['hcl-parser-unavailable', 'error']]);
    assert.match(document.problems[0].message, /not been loaded/);
  });

  it('reads a file written in the common subset of HCL without it', () => {
    const document = readTerraform(fixture('v5-list.tf'));
    assert.ok(document.rulesets.length > 0);
    assert.deepEqual(document.problems.filter((p) => p.code === 'hcl-parser-unavailable'), []);
  });
});

describe('Terraform files', () => {
  before(() => loadTerraformParser());

  it('loads the parser once, however often it is asked', async () => {
    const again = loadTerraformParser();
    assert.equal(again, loadTerraformParser());
    await again;
  });

  it("a cache key's query string: v4 writes a list (its provider sends the API's older form), v5 an object, and v5 refuses a list", () => {
    const v4 = `resource "cloudflare_ruleset" "c" {\n  phase = "http_request_cache_settings"\n  rules {\n    action = "set_cache_settings"\n    expression = "true"\n    action_parameters {\n      cache_key {\n        custom_key {\n          query_string {\n            exclude = ["*"]\n          }\n        }\n      }\n    }\n  }\n}\n`;
    assert.deepEqual(marked(v4), []);
    const v5Cache = (queryString: string) =>
      `resource "cloudflare_ruleset" "c" {\n  phase = "http_request_cache_settings"\n  rules = [{\n    action = "set_cache_settings"\n    expression = "true"\n    action_parameters = {\n      cache_key = {\n        custom_key = {\n          query_string = { ${queryString} }\n        }\n      }\n    }\n  }]\n}\n`;
    assert.deepEqual(marked(v5Cache('exclude = { all = true }')), []);
    assert.deepEqual(marked(v5Cache('include = ["a"]')), [['invalid-type', '["a"]']]);
    assert.deepEqual(marked(v5Cache('exclude = "*"')), [['invalid-type', '"*"']]);
  });

  it('reads provider v4 rules blocks, with parameters in nested blocks, and finds their expressions clean', () => {
    const text = fixture('v4-blocks.tf');
    const document = parseDocument(text, 'hcl');
    assert.deepEqual(
      document.rulesets.map((r) => [r.label, r.phase, r.parametersInProviderShape, r.sites.map((s) => s.path.join('.'))]),
      [
        ['cloudflare_ruleset.rewrite_paths', 'http_request_transform', true, ['action_parameters.uri.path.expression', 'expression']],
        ['cloudflare_ruleset.late_headers', 'http_request_late_transform', true, ['action_parameters.headers.X-Country.expression', 'expression']],
        ['cloudflare_ruleset.api_limit', 'http_ratelimit', true, ['ratelimit.counting_expression', 'expression']],
      ],
    );
    assert.equal(document.rulesets[0].sites[0].text, 'regex_replace(http.request.uri.path, "^/old/", "/new/")');
    assert.deepEqual(problems(text), []);
  });

  it('reads provider v5 rules lists, map keys and heredocs, and finds them clean', () => {
    const text = fixture('v5-list.tf');
    const document = parseDocument(text, 'hcl');
    assert.deepEqual(
      document.rulesets.map((r) => [r.label, r.phase, r.parametersInProviderShape, r.sites.map((s) => s.path.join('.'))]),
      [
        ['cloudflare_ruleset.waf', 'http_request_firewall_custom', undefined, ['expression', 'expression']],
        ['cloudflare_ruleset.response_headers', 'http_response_headers_transform', undefined, ['action_parameters.headers.X-Served-By.expression', 'expression']],
      ],
    );
    // `<<-EOT` loses the indentation its lines share, as Terraform reads it; the rest stays.
    assert.equal(document.rulesets[0].sites[1].text, '(http.request.uri.path contains "/login" and\n  cf.threat_score gt 10)\n');
    assert.equal(document.rulesets[1].sites[1].text, 'http.host eq "example.com"\n');
    assert.deepEqual(problems(text), []);
  });

  it('reports each mistake of three resources (v4 blocks, v5 list, heredocs) on its own characters', () => {
    const text = [
      'resource "cloudflare_ruleset" "v4" {',
      '  phase = "http_request_transform"',
      '  rules {',
      '    action = "rewrite"',
      '    action_parameters {',
      '      uri {',
      '        path { expression = "concat(\\"/\\u00e9/\\", http.request.uri.pathh)" }',
      '      }',
      '    }',
      '    expression = "http.host eq \\"a\\\\b\\" and http.hots eq \\"x\\""',
      '  }',
      '}',
      'resource "cloudflare_ruleset" "v5" {',
      '  phase = "http_request_firewall_custom"',
      '  rules = [{',
      '    action     = "blok"',
      '    expression = "http.host eq \\"$${x}\\" and ip.sr eq 1.1.1.1"',
      '  }]',
      '}',
      'resource "cloudflare_ruleset" "heredoc" {',
      '  phase = "http_request_firewall_custom"',
      '  rules = [{',
      '    action     = "block"',
      '    expression = <<-EOT',
      '      http.host eq "a" and',
      '        ip.src.country eq "GB" and ssl = true',
      '    EOT',
      '  }]',
      '}',
      '',
    ].join('\n');
    assert.deepEqual(
      marked(text).filter(([code]) => code !== 'deprecated-field'),
      [
        ['unknown-field', 'http.request.uri.pathh'],
        // The expression's `\b` (not an escape it has), written `\\b` in HCL.
        ['invalid-escape', '\\\\b'],
        ['unknown-field', 'http.hots'],
        ['unknown-action', '"blok"'],
        ['unknown-field', 'ip.sr'],
        ['single-equals', '='],
        ['boolean-comparison', '= true'],
      ],
    );
    // The same on the same characters with Windows line breaks (heredoc lines end in `\r\n`).
    assert.deepEqual(marked(text.replace(/\n/g, '\r\n')), marked(text));
    const document = parseDocument(text, 'hcl');
    assert.deepEqual(document.rulesets.map((r) => r.phase), ['http_request_transform', 'http_request_firewall_custom', 'http_request_firewall_custom']);
    assert.equal(rulesetAt(document, text.indexOf('ip.sr'))?.label, 'cloudflare_ruleset.v5');
    assert.equal(rulesetAt(document, text.indexOf('<<-EOT'))?.label, 'cloudflare_ruleset.heredoc');
    assert.equal(rulesetAt(document, text.indexOf('resource "cloudflare_ruleset" "heredoc"'))?.label, 'cloudflare_ruleset.heredoc');
  });

  it('leaves other resources, data sources and variables alone', () => {
    const text = [
      'variable "expression" { default = "http.hots eq 1" }',
      'data "cloudflare_ruleset" "existing" { expression = "nonsense (" }',
      'resource "cloudflare_record" "www" { expression = "nonsense (" }',
      'module "rules" { rules = [{ expression = "nonsense (" }] }',
      v5('    expression = "ip.src eq 192.0.2.1"', 'http_request_firewall_custom', 'only'),
    ].join('\n');
    const document = parseDocument(text, 'hcl');
    assert.deepEqual(document.rulesets.map((r) => r.label), ['cloudflare_ruleset.only']);
    assert.deepEqual(problems(text), []);
  });

  it('claims nothing about a name or phase Terraform computes', () => {
    const text = 'resource "cloudflare_ruleset" "r" {\n  phase = var.phase\n  name = "x-${var.env}"\n  rules = [{ action = "block", expression = "http.request.uri.path eq \\"/\\"" }]\n}\n';
    const [ruleset] = parseDocument(text, 'hcl').rulesets;
    assert.equal(ruleset.phase, undefined);
    assert.deepEqual(problems(text), []);
  });

  describe('interpolations', () => {
    const holed = [
      ['a list after `in`', 'ip.src in ${var.office}'],
      ['a string inside the expression', 'http.host eq \\"${var.host}\\"'],
      ['the whole expression', '${var.expression}'],
      ['two parts', '${var.a} and ${var.b}'],
      ['a value', 'http.request.uri.path eq ${jsonencode(var.path)}'],
      ['a set', 'ip.src in {${join(" ", var.ips)}}'],
      ['a field name', 'http.${var.which} eq \\"x\\"'],
      ['a directive', 'http.host eq \\"a\\"%{ if var.strict } and ssl%{ endif }'],
      ['a nested string in the interpolation', 'http.host in {${join(" ", [for h in var.hosts : "\\"${h}\\""])}}'],
    ];
    for (const [what, expression] of holed) {
      it(`reports none, and hints once, for ${what}`, () => {
        const text = v5(`    expression = "${expression}"`);
        const found = problems(text);
        assert.deepEqual(found.map((p) => [p.code, p.severity]), [['terraform-interpolation', 'hint']], JSON.stringify(marked(text, found)));
        const hole = /[$%]\{/.exec(text.slice(text.indexOf('expression')))!;
        assert.equal(found[0].start, text.indexOf('expression') + hole.index);
        assert.ok(/^[$%]\{.*\}$/.test(text.slice(found[0].start, found[0].end)), text.slice(found[0].start, found[0].end));
      });
    }

    it('still reports a mistake away from the interpolation, where it is', () => {
      const text = v5('    expression = "http.hots eq \\"${var.host}\\""');
      assert.deepEqual(marked(text), [
        ['unknown-field', 'http.hots'],
        ['terraform-interpolation', '${var.host}'],
      ]);
    });

    it('reads interpolations in heredocs, and `$${` as a literal `${`', () => {
      const text = v5('    expression = <<-EOT\n      http.host eq "${var.host}" and\n      http.request.uri.path eq "/$${x}"\n    EOT');
      const [site] = parseDocument(text, 'hcl').rulesets[0].sites;
      assert.equal(site.text, 'http.host eq "terraform" and\nhttp.request.uri.path eq "/${x}"\n');
      assert.deepEqual(marked(text), [['terraform-interpolation', '${var.host}']]);
    });

    it('does not compare rules whose expression or action Terraform fills in', () => {
      const text = v5('    expression = "${var.a}"\n  }, {\n    action = "block"\n    expression = "${var.b}"\n  }, {\n    action = var.action\n    expression = "ip.src eq 192.0.2.1"\n  }, {\n    action = var.action\n    expression = "ip.src eq 192.0.2.1"');
      // The actions Terraform fills in are said once, as the resource's one `terraform-unknown`.
      assert.deepEqual(problems(text).map((p) => p.code), ['terraform-interpolation', 'terraform-interpolation', 'terraform-unknown']);
    });

    it('does not compare rules when Terraform makes some of them', () => {
      const skip = '    rules {\n      action = "skip"\n      action_parameters { ruleset = "current" }\n      expression = "ip.src eq 192.0.2.1"\n    }\n';
      const block = '    rules {\n      action = "block"\n      expression = "ip.src eq 192.0.2.2"\n    }\n';
      const resource = (body: string) => `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n${body}}\n`;
      // A last skip in WAF custom rules logs what it matches (by default): no skip-skips-nothing.
      assert.deepEqual(problems(resource(block + skip.replace('    }\n', '      logging { enabled = false }\n    }\n'))).map((p) => p.code), ['skip-skips-nothing']);
      const dynamicHeaders = '    rules {\n      action = "block"\n      expression = "true"\n      dynamic "ratelimit" {\n        for_each = var.limits\n        content { period = 60 }\n      }\n    }\n';
      assert.deepEqual(problems(resource(dynamicHeaders)), []);
      const dynamic = '    dynamic "rules" {\n      for_each = var.rules\n      content {\n        action = "block"\n        expression = rules.value\n      }\n    }\n';
      assert.deepEqual(problems(resource(block + skip + dynamic)), []);
      const list = (extra: string) => resource(`  rules = [{ action = "block", expression = "ip.src eq 192.0.2.2" }, { action = "skip", action_parameters = { ruleset = "current" }, logging = { enabled = false }, expression = "ip.src eq 192.0.2.1" }${extra}]\n`);
      assert.deepEqual(problems(list('')).map((p) => p.code), ['skip-skips-nothing']);
      assert.deepEqual(problems(list(', var.more_rules')), []);
    });

    it('claims nothing about a list with an item, or an object with a key, Terraform computes', () => {
      const text = v5('    action = "skip"\n    action_parameters = { phases = [var.phase] }\n    expression = "true"\n  }, {\n    action = "skip"\n    action_parameters = { (var.key) = "current" }\n    expression = "ip.src eq 192.0.2.1"').replace('    action = "block"\n', '');
      // Nothing but the one hint that says what was not checked.
      assert.deepEqual(marked(text), [['terraform-unknown', '[var.phase]']]);
      // Written out, the same lists and objects are checked.
      const written = text.replace('[var.phase]', '["http_request_firewall_manage"]').replace('(var.key)', 'rulesett');
      assert.deepEqual(problems(written).map((p) => p.code).sort(), ['invalid-action-parameters', 'unknown-key']);
    });

    it('does not call parameters Terraform computes missing', () => {
      const text = v5('    action = "execute"\n    action_parameters = var.parameters\n    expression = "true"').replace('    action = "block"\n', '');
      assert.deepEqual(marked(text), [['terraform-unknown', 'var.parameters']]);
    });
  });

  describe('syntax errors', () => {
    it('are reported on their characters, and the resources that parse are still read', () => {
      const text = `${v5('    expression = "ip.src eq 192.0.2.1"', 'http_request_firewall_custom', 'good')}resource "cloudflare_ruleset" "broken" {\n  phase = = "x"\n}\n${v5('    expression = "http.hots eq \\"a\\""', 'http_request_firewall_custom', 'after')}`;
      const document = parseDocument(text, 'hcl');
      assert.deepEqual(document.rulesets.map((r) => r.label).filter((l) => l !== 'cloudflare_ruleset.broken'), ['cloudflare_ruleset.good', 'cloudflare_ruleset.after']);
      const found = problems(text);
      const syntax = found.filter((p) => p.code === 'hcl-syntax');
      assert.ok(syntax.length > 0);
      for (const p of syntax) assert.ok(p.start >= text.indexOf('phase = = ') && p.end <= text.indexOf('}\n', text.indexOf('phase = = ')) + 1, JSON.stringify(text.slice(p.start, p.end)));
      assert.deepEqual(marked(text, found.filter((p) => p.code !== 'hcl-syntax')), [['unknown-field', 'http.hots']]);
    });

    it('say where a string lacks its closing quote, and where an escape is not HCL\'s', () => {
      const unclosed = 'resource "cloudflare_ruleset" "a" {\n  phase = "http_request_firewall_custom\n  rules = []\n}\n';
      assert.deepEqual(marked(unclosed)[0], ['hcl-syntax', '"http_request_firewall_custom']);
      const escape = 'resource "cloudflare_ruleset" "a" {\n  rules = [{ expression = "a\\qb" }]\n}\n';
      const found = problems(escape);
      assert.deepEqual(marked(escape, found), [['hcl-syntax', '\\q']]);
      assert.match(found[0].message, /not an escape HCL has/);
    });

    it('says what is missing at the end of a cut file', () => {
      const text = 'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n';
      const found = problems(text);
      assert.equal(found.length, 1);
      assert.equal(found[0].code, 'hcl-syntax');
      assert.equal(found[0].severity, 'error');
    });

    it('never throw, at every cut of a file with every string style, nor with characters left out', () => {
      const text = [
        'resource "cloudflare_ruleset" "a" {',
        '  phase = "http_request_transform"',
        '  rules {',
        '    action = "rewrite"',
        '    action_parameters { uri { path { expression = "concat(\\"/\\u00e9\\", ${var.p})" } } }',
        '    expression = "http.host eq \\"$${x}\\" and %{ if var.b }ssl%{ endif }"',
        '  }',
        '}',
        v5('    expression = <<-EOT\n      ip.src in ${var.l} and\n        http.host eq "a"\n    EOT\n    x = <<EOT\nEOT'),
      ].join('\n');
      const cache = new ExpressionCache();
      for (let cut = 0; cut <= text.length; cut++) {
        checkRuleset(text.slice(0, cut), 'hcl', { cache });
        checkRuleset(text.slice(0, cut) + text.slice(cut + 5), 'hcl', { cache });
      }
    });

    it('never throw at cuts of the fixtures', () => {
      const cache = new ExpressionCache();
      for (const name of ['v4-blocks.tf', 'v5-list.tf']) {
        const text = fixture(name);
        for (let cut = 0; cut <= text.length; cut += 29) checkRuleset(text.slice(0, cut), 'hcl', { cache });
      }
    });

    it('stop at MAX_NESTING levels of lists, objects and blocks', () => {
      const depth = MAX_NESTING * 40;
      for (const text of [
        `resource "cloudflare_ruleset" "r" {\n  rules = ${'['.repeat(depth)}${']'.repeat(depth)}\n}\n`,
        `resource "cloudflare_ruleset" "r" {\n  rules = [${'{a = '.repeat(depth)}1${'}'.repeat(depth)}]\n}\n`,
        `resource "cloudflare_ruleset" "r" {\n  rules {\n${'a {\n'.repeat(depth)}${'}\n'.repeat(depth)}  }\n}\n`,
        `resource "cloudflare_ruleset" "r" {\n  rules = ${'['.repeat(depth)}\n`,
      ]) {
        const found = problems(text);
        assert.ok(found.some((p) => /nested too deeply/.test(p.message) || p.code === 'hcl-syntax'), JSON.stringify(found.slice(0, 2)));
      }
    });
  });

  describe('edits into HCL strings', () => {
    it('a quick fix in an escaped string writes HCL escapes', () => {
      const text = v5('    expression = "http.hots eq \\"a\\\\\\\\b\\" and ip.src in {192.0.2.1}"');
      const fix = problems(text).find((p) => p.code === 'unknown-field')!.fixes![0];
      const fixed = applyEdits(text, fix.edits);
      assert.equal(parseDocument(fixed, 'hcl').rulesets[0].sites[0].text, 'http.host eq "a\\\\b" and ip.src in {192.0.2.1}');
      assert.deepEqual(problems(fixed), []);
    });

    it('text with quotes, backslashes, `${` and line breaks reads back as itself in a quoted string and in heredocs', () => {
      const inserted = 'x "q" \\ ${a} %{b}\nnext';
      for (const expression of ['"http.host eq \\"a\\""', '<<EOT\nhttp.host eq "a"\nEOT', '<<-EOT\n      http.host eq "a"\n    EOT']) {
        const text = v5(`    expression = ${expression}`);
        const [site] = parseDocument(text, 'hcl').rulesets[0].sites;
        const at = site.text.indexOf('"a"') + 1;
        const edited = applyEdits(text, [expressionEdit(site, { start: at, end: at }, inserted)]);
        const [after] = parseDocument(edited, 'hcl').rulesets[0].sites;
        const expected = site.text.slice(0, at) + inserted + site.text.slice(at);
        // A heredoc's new line starts at its line's indentation, which it keeps as it was written.
        assert.equal(after.text.replace(/\n +/g, '\n'), expected, edited);
        assert.equal(after.holes, undefined);
      }
    });

    it('a fix of an unknown action keeps the value an HCL string', () => {
      const text = v5('    expression = "true"').replace('"block"', '"blok"');
      const fix = problems(text).find((p) => p.code === 'unknown-action')!.fixes![0];
      assert.equal(applyEdits(text, fix.edits), v5('    expression = "true"'));
    });

    it('offers nothing inside an interpolation, which is Terraform\'s', () => {
      const text = v5('    expression = "ip.src in ${var.list} and http.host eq \\"a\\""');
      const { sites } = parseDocument(text, 'hcl').rulesets[0];
      assert.equal(siteAt(sites, text.indexOf('var.list')), undefined);
      assert.equal(siteAt(sites, text.indexOf('${var.list}'))?.offset, 'ip.src in '.length);
      const after = siteAt(sites, text.indexOf('http.host'));
      assert.equal(after?.site.text.slice(after.offset, after.offset + 9), 'http.host');
    });

    it('offers no fix that would write JSON or YAML into the file', () => {
      const text = 'resource "cloudflare_ruleset" "r" {\n  phase = "magic_transit"\n  rules {\n    action = "skip"\n    expression = "tcp.dstport == 22"\n  }\n}\n';
      const found = problems(text);
      assert.deepEqual(marked(text, found), [['missing-action-parameters', '"skip"']]);
      assert.equal(found[0].fixes, undefined);
    });

    it('finds the expression under the cursor in the file, through escapes and heredoc indentation', () => {
      const text = v5('    expression = <<-EOT\n      http.host eq "\\u00e9" and\n        ip.src eq 1.1.1.1\n    EOT');
      const { sites } = parseDocument(text, 'hcl').rulesets[0];
      const found = siteAt(sites, text.indexOf('ip.src'));
      assert.equal(found?.site.text.slice(found.offset, found.offset + 6), 'ip.src');
    });
  });
});

describe('a Terraform expression whose inner quotes are not escaped', () => {
  before(() => loadTerraformParser());

  it('is one problem on the string that says to escape them, with the fix, in both shapes', () => {
    for (const text of [
      v5('    expression = "http.host eq "a.example.com""'),
      'resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "http.host eq "a.example.com"" # the admin host\n  }\n}\n',
    ]) {
      const found = problems(text);
      assert.deepEqual(marked(text, found), [['unescaped-quote', '"http.host eq "a.example.com""']]);
      assert.match(found[0].message, /write them as `\\"`/);
      const fixed = applyEdits(text, found[0].fixes![0].edits);
      assert.ok(fixed.includes('expression = "http.host eq \\"a.example.com\\""'), fixed);
      assert.deepEqual(problems(fixed), []);
    }
  });

  it('is not said where escaping the quotes would not make the file read (another syntax error)', () => {
    const text = v5('    expression = "http.host eq "a.example.com""\n    description = "unclosed');
    assert.ok(!problems(text).some((p) => p.code === 'unescaped-quote'));
  });
});

// Issue 34: four false `unknown-field`s on real files, on fields the docs give to these phases and the engine's scheme lacks.
describe('fields the docs list for a phase and the engine lacks, in Terraform and YAML files alike', () => {
  before(() => loadTerraformParser());

  const SEQUENCE = 'cf.sequence.current_op eq \\"36074bb2\\" and not any(cf.sequence.previous_ops[*] == \\"dbab25d2\\") and cf.sequence.msec_since_op[\\"6ef5fb59\\"] ge 10000';
  const v4Headers = (phase: string, value: string) =>
    `resource "cloudflare_ruleset" "h" {\n  phase = "${phase}"\n  rules {\n    action = "rewrite"\n    expression = "true"\n    action_parameters {\n      headers {\n        name = "X-Metal"\n        operation = "set"\n        expression = "${value}"\n      }\n    }\n  }\n}\n`;
  const v5Headers = (phase: string, value: string) =>
    `resource "cloudflare_ruleset" "h" {\n  phase = "${phase}"\n  rules = [{\n    action = "rewrite"\n    expression = "true"\n    action_parameters = {\n      headers = {\n        "X-Metal" = { operation = "set", expression = "${value}" }\n      }\n    }\n  }]\n}\n`;
  const yamlHeaders = (phase: string, value: string) =>
    `name: h\nkind: zone\nphase: ${phase}\nrules:\n  - action: rewrite\n    expression: "true"\n    action_parameters:\n      headers:\n        X-Metal: {operation: set, expression: ${value}}\n`;

  it('sequence fields in a custom rule: no problem, v4 blocks, v5 lists and YAML', () => {
    assert.deepEqual(marked(v5(`    expression = "${SEQUENCE}"`)), []);
    const v4 = `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action = "block"\n    expression = "${SEQUENCE}"\n  }\n}\n`;
    assert.deepEqual(marked(v4), []);
    const yaml = `name: r\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: '${SEQUENCE.replace(/\\"/g, '"')}'\n`;
    assert.deepEqual(checkRuleset(yaml, 'yaml', { cache: new ExpressionCache() }), []);
  });

  it("the docs' type holds, and outside the docs' phases the field is an error", () => {
    assert.deepEqual(marked(v5('    expression = "cf.sequence.msec_since_op[\\"a\\"] eq \\"x\\""')), [['type-mismatch', '\\"x\\"']]);
    assert.deepEqual(marked(v5('    expression = "cf.sequence.current_op eq \\"a\\""', 'http_request_transform').replace('"block"', '"rewrite"')), [['field-not-available', 'cf.sequence.current_op']]);
  });

  it('cf.metal.id as a header value of Response and Request Header Transform Rules: no problem, v4, v5 and YAML', () => {
    for (const phase of ['http_response_headers_transform', 'http_request_late_transform']) {
      assert.deepEqual(marked(v4Headers(phase, 'cf.metal.id')), [], `v4 ${phase}`);
      assert.deepEqual(marked(v5Headers(phase, 'cf.metal.id')), [], `v5 ${phase}`);
      assert.deepEqual(checkRuleset(yamlHeaders(phase, 'cf.metal.id'), 'yaml', { cache: new ExpressionCache() }), [], `yaml ${phase}`);
    }
  });

  it('cf.metal.id in a header value of a phase the docs do not give it is still an error, on its characters', () => {
    assert.deepEqual(marked(v5Headers('http_request_transform', 'cf.metal.id')), [['field-not-available', 'cf.metal.id']]);
    assert.deepEqual(marked(v5Headers('http_response_headers_transform', 'cf.metal.idd')), [['unknown-field', 'cf.metal.idd']]);
  });
});
