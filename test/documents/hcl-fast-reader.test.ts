/**
 * hcl-subset.ts, the reader of Terraform files without tree-sitter, held to tree-sitter's: for
 * every file it reads, readTerraform gives exactly the document tree-sitter's tree gives (its
 * rulesets with their sites, nodes and offsets, its problems). On the examples, the fixtures,
 * the benchmark's generated rulesets in both provider shapes, and files mutated at random.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

import { readHclSubset } from '../../server/src/documents/host/hcl-subset';
import type { ParsedDocument } from '../../server/src/documents/parsed-ruleset';
import { loadTerraformParser, readTerraform, readTerraformWithTreeSitter } from '../../server/src/documents/terraform';
import { httpRulesetObject, terraformOfObject, withMistakes } from '../../bench/inputs';

before(() => loadTerraformParser());

const ROOT = join(__dirname, '..', '..');
/** Every `.tf` file of the examples and the fixtures, by path. */
const FILES = ['examples', join('test', 'fixtures')].flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.tf'))
    .sort()
    .map((name) => [join(folder, name), readFileSync(join(ROOT, folder, name), 'utf8')] as const),
);

/** Idioms the subset reads, written the ways files write them. */
const WRITTEN = `# a ruleset
resource "cloudflare_ruleset" "written" {
  zone_id     = var.zone_id // the zone
  name        = "Written \\"quoted\\" \\u00e9 😀"
  kind        = "zone"
  phase       = "http_request_firewall_custom"
  description = local.description

  rules {
    action      = "block"
    expression  = "(http.host eq \\"\${var.host}\\" and ip.src in {192.0.2.0/24}) or $\${not}"
    description = <<-EOT
      a heredoc \${upper("x")}
    EOT
    enabled     = true
    /* a block comment */
    action_parameters {
      ruleset  = cloudflare_ruleset.other.id
      products = ["waf", "uaBlock", ]
      version  = null
    }
  }

  rules {
    action     = "execute"
    expression = <<EOT
http.request.method eq "POST"
EOT
    action_parameters {
      id = data.cloudflare_rulesets.x.rulesets[0].id
      overrides {
        categories = [for c in var.categories : { category = c, action = "block" }]
        sensitivity_level = var.on ? "high" : "low"
      }
    }
    ratelimit {
      period              = 60
      requests_per_period = 1.5e2
      mitigation_timeout  = -1
      characteristics     = ["ip.src", "cf.colo.id"]
    }
  }
}

resource "cloudflare_ruleset" "v5" {
  zone_id = "0123"
  name    = "v5"
  kind    = "zone"
  phase   = "http_request_late_transform"
  rules = [{
    ref        = "a"
    action     = "rewrite"
    expression = "http.host eq \\"a\\""
    action_parameters = {
      headers = {
        "X-Foo" = { operation = "set", value = "bar" }
        x_bar   = { operation = "set", expression = format("%s", "x") }
      }
    }
  }, {
    action     = "rewrite"
    expression = true
    enabled    = "true"
  }, merge(local.rule, { a = 1 })]
}
`;

/** The document without what is the same object on both sides whatever the path (the text). */
function comparable(document: ParsedDocument): unknown {
  return JSON.parse(JSON.stringify({ ...document, text: undefined }));
}

/** Asserts that when the subset reads `text`, readTerraform's document is tree-sitter's; returns whether it read it. */
function assertSame(text: string, label: string): boolean {
  const read = readHclSubset(text) !== undefined;
  assert.deepEqual(comparable(readTerraform(text)), comparable(readTerraformWithTreeSitter(text)), label);
  return read;
}

const INTERESTING = [
  '"', '\\', '{', '}', '[*]', '.*', '...', '=>', '[for x in y : x]', '{ a = 1 }', ' ? 1 : 2', 'f(x, y)', '[', ']', '(', ')', '=', '==', ',', '#', '//', '/*', '*/', '\n', '\r\n', ' ', '\t', '$', '${', '$${', '%%{', '<<EOT\n', '<<-EOT\n', '\nEOT\n', 'EOT', '.', '?', ':', '-', '!', '*', '+',
  'rules {', 'rules = [{', '}]', 'expression = "', 'var.x', '${var.x}', 'f(', 'true', 'null', '1.5', 'for', 'in ', '😀', '\ud83d', 'é', '\\u00e9', '\\U0001F600', '\\q', '=😀',
];
const edit = fc.record({
  at: fc.nat({ max: 1_000_000 }),
  remove: fc.nat({ max: 12 }),
  insert: fc.oneof(fc.constantFrom(...INTERESTING), fc.string({ maxLength: 4 })),
});

function applyEdits(text: string, edits: readonly { at: number; remove: number; insert: string }[]): string {
  for (const e of edits) {
    const at = e.at % (text.length + 1);
    text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
  }
  return text;
}

describe('the Terraform reader without tree-sitter', () => {
  it('reads every example and fixture it accepts as tree-sitter does', () => {
    let read = 0;
    for (const [path, text] of FILES) if (assertSame(text, path)) read++;
    // The fixtures are mostly of what it leaves to tree-sitter (modules, `dynamic`, versions); some are plain.
    assert.ok(read >= 5, `read ${read} of ${FILES.length}`);
  });

  it('reads each idiom of the subset as tree-sitter does', () => {
    assert.ok(assertSame(WRITTEN, 'written'));
    assert.ok(assertSame(WRITTEN.replace(/\n/g, '\r\n'), 'written, CRLF'));
  });

  it('reads the benchmark\'s generated rulesets in both shapes, with and without mistakes', () => {
    for (const shape of ['v4', 'v5'] as const) {
      for (const object of [httpRulesetObject(100), withMistakes(httpRulesetObject(100))]) {
        assert.ok(assertSame(terraformOfObject(object, shape), shape), `${shape} is read without tree-sitter`);
      }
    }
  });

  it('leaves to tree-sitter what it does not read (and the document is the same)', () => {
    for (const text of [
      'resource "cloudflare_ruleset" "x" {\n  rules {\n    expression = "a\\qb"\n  }\n}\n',
      'resource "cloudflare_ruleset" "x" {\n  name = "a\n}\n',
      'resource "cloudflare_ruleset" "x" {\n  name = "%{ if a }b%{ endif }"\n}\n',
      'resource "cloudflare_ruleset" "x" {\n  name = a\n    + b\n}\n',
      // Found by the mutation test below: an operator after `.` (tree-sitter: a syntax error).
      'resource "cloudflare_ruleset" "x" {\n  account_id = var.-account_id\n}\n',
      'resource "cloudflare_ruleset" "x" {\n  dynamic "rules" {\n    for_each = []\n    content {}\n  }\n}\n',
      'terraform {\n  required_providers {\n    cloudflare = { version = "~> 5" }\n  }\n}\nresource "cloudflare_ruleset" "x" {\n  rules {\n  }\n}\n',
    ]) {
      assert.equal(readHclSubset(text) === undefined || /dynamic|required_providers/.test(text), true, text);
      assertSame(text, text);
    }
  });

  it('whenever it reads a mutated file, reads it as tree-sitter does', () => {
    const seeds = [WRITTEN, terraformOfObject(httpRulesetObject(3), 'v4'), terraformOfObject(httpRulesetObject(3), 'v5'), ...FILES.map(([, text]) => text).filter((text) => readHclSubset(text) !== undefined)];
    let read = 0;
    const runs = Number(process.env.FAST_CHECK_RUNS ?? 3_000);
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.array(edit, { minLength: 1, maxLength: 6 }), (seed, edits) => {
        const text = applyEdits(seed, edits);
        if (assertSame(text, JSON.stringify(text))) read++;
      }),
      { numRuns: runs },
    );
    // Most mutations break the syntax; enough of them must stay readable for this to test the reader.
    assert.ok(read > runs / 20, `read ${read} of ${runs}`);
  });
});
