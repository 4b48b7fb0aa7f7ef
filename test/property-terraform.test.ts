/**
 * The fuzzers of property.test.ts and features/robustness.test.ts, on Terraform files: real-looking
 * `cloudflare_ruleset` resources (provider v4 blocks, v5 lists, heredocs, `${…}` and `%{…}`,
 * `dynamic` blocks, emoji) mutated at random and generated at random, read by the checks and by
 * every editor feature. Nothing throws, every check finishes in bounded time, every range lies
 * inside the document and on whole characters (never between the halves of a surrogate pair),
 * and each document symbol lies inside its parent.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { DocumentSymbol, Range } from 'vscode-languageserver';

import { ExpressionCache } from '../server/src/documents/expression-cache';
import type { DocumentProblem } from '../server/src/documents/parsed-ruleset';
import { checkRuleset } from '../server/src/documents/ruleset';
import { loadTerraformParser } from '../server/src/documents/terraform';
import { codeActions } from '../server/src/features/code-actions';
import { completion } from '../server/src/features/completion';
import { diagnostics } from '../server/src/features/diagnostics';
import { hover } from '../server/src/features/hover';
import { semanticTokens } from '../server/src/features/semantic-tokens';
import { documentSymbols } from '../server/src/features/symbols';
import { modelOf, settings } from './features/harness';

before(() => loadTerraformParser());

/** Longest time one check may take before it counts as not finishing (as in property.test.ts). */
const SLOW_MS = 2_000;

const ROOT = join(__dirname, '..');
/** Every `.tf` file of the examples and the fixtures. */
const FILES = ['examples', join('test', 'fixtures')].flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.tf'))
    .sort()
    .map((name) => readFileSync(join(ROOT, folder, name), 'utf8')),
);

/** Idioms the files above may lack: a heredoc of each kind, holes of each kind, a `dynamic` block, a v5 list with parameters, emoji. */
const WRITTEN = [
  `resource "cloudflare_ruleset" "heredocs" {
  zone_id = var.zone_id
  name    = "Heredocs 😀"
  kind    = "zone"
  phase   = "http_request_firewall_custom"

  rules {
    action      = "block"
    expression  = <<-EOT
      (http.host eq "\${var.host}" and ip.src in \${var.list})
      or http.request.uri.path contains "/😀/%{ if var.on }x%{ endif }"
    EOT
    description = "heredoc"
  }
  rules {
    action     = "log"
    expression = <<EOT
http.request.method eq "POST" and $\${literal}
EOT
  }
  dynamic "rules" {
    for_each = local.rules
    content {
      action     = rules.value.action
      expression = rules.value.expression
    }
  }
}
`,
  `resource "cloudflare_ruleset" "v5" {
  account_id = "0123456789abcdef"
  name       = "v5"
  kind       = "root"
  phase      = "http_request_redirect"
  rules = [{
    ref        = "one"
    action     = "redirect"
    expression = "http.host eq \\"a.example\\" and starts_with(http.request.uri.path, \\"/\${local.prefix}\\")"
    action_parameters = {
      from_value = {
        status_code = 301
        target_url  = { expression = "concat(\\"https://b.example\\", http.request.uri.path)" }
        preserve_query_string = true
      }
    }
  }, {
    action     = "redirect"
    expression = format("http.host eq %q", var.host)
    enabled    = "true"
  }]
}
`,
];

const SEEDS = [...FILES, ...WRITTEN];

/** Characters and pieces that matter to HCL and to the expression language. */
const INTERESTING = [
  '"', '\\', '{', '}', '[', ']', '(', ')', '=', ',', '#', '//', '/*', '*/', '\n', '\r\n', ' ', '\t', '$', '${', '%{', '$${', '%%{', '<<EOT\n', '<<-EOT\n', '\nEOT\n', 'EOT',
  'rules {', 'rules = [{', '}]', 'expression = "', 'var.x', '${var.x}', 'and ', 'in ', 'r#"', '😀', '\ud83d', '\ude00', 'é', '\\u00e9', '\\U0001F600', '\\😀', '=😀', 'dynamic "rules" {',
];

const edit = fc.record({
  // An integer taken modulo the length: fast-check's doubles favour 0 and 1.
  at: fc.nat({ max: 1_000_000 }),
  remove: fc.nat({ max: 12 }),
  insert: fc.oneof(fc.constantFrom(...INTERESTING), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 })),
});

function applyEdits(text: string, edits: readonly { at: number; remove: number; insert: string }[]): string {
  for (const e of edits) {
    const at = e.at % (text.length + 1);
    text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
  }
  return text;
}

const mutated = fc.tuple(fc.constantFrom(...SEEDS), fc.array(edit, { minLength: 1, maxLength: 8 })).map(([seed, edits]) => applyEdits(seed, edits));

/** Expressions as rule files write them in Terraform: quoted with escapes, with holes, in heredocs. */
const EXPRESSIONS = [
  '"http.host eq \\"example.com\\""',
  '"ip.src in {192.0.2.0/24} and not cf.client.bot"',
  '"http.request.uri.path contains \\"/${var.path}\\""',
  '"ip.src.country in ${jsonencode(var.countries)}"',
  '"(http.host eq \\"a\\") %{ for h in var.hosts }or http.host eq \\"${h}\\" %{ endfor }"',
  '"any(http.request.headers[\\"x\\"][*] eq \\"😀\\")"',
  '"http.hots eq \\"typo\\""',
  '<<-EOT\n      http.host eq "a"\n      and ip.src in $bad\n    EOT',
  'var.expression',
  'true',
  '"true"',
];
const ACTIONS = ['"block"', '"skip"', '"log"', '"managed_challenge"', '"execute"', '"rewrite"', 'var.action'];

const rule = fc.record({ action: fc.constantFrom(...ACTIONS), expression: fc.constantFrom(...EXPRESSIONS), enabled: fc.constantFrom('true', 'false', '"true"', 'var.on'), ref: fc.option(fc.string({ unit: 'grapheme', maxLength: 6 })) });

/** A resource of random rules, in either provider shape, mutated a little. */
const generated = fc
  .tuple(
    fc.constantFrom('v4', 'v5'),
    fc.constantFrom('http_request_firewall_custom', 'http_request_transform', 'http_request_redirect', 'magic_transit', 'unknown_phase'),
    fc.array(rule, { maxLength: 6 }),
    fc.array(edit, { maxLength: 3 }),
  )
  .map(([shape, phase, rules, edits]) => {
    const bodies = rules.map((r) => [`action = ${r.action}`, `expression = ${r.expression}`, `enabled = ${r.enabled}`, ...(r.ref === null ? [] : [`ref = ${JSON.stringify(r.ref)}`])]);
    const rulesText = shape === 'v4' ? bodies.map((b) => `  rules {\n    ${b.join('\n    ')}\n  }\n`).join('') : `  rules = [${bodies.map((b) => `{\n    ${b.join('\n    ')}\n  }`).join(', ')}]\n`;
    return applyEdits(`resource "cloudflare_ruleset" "g" {\n  name  = "g"\n  kind  = "zone"\n  phase = "${phase}"\n${rulesText}}\n`, edits);
  });

const anyTerraform = fc.oneof(mutated, generated);

// ------------------------------------------------------------------ assertions

/** Whether `offset` falls between a high surrogate and the low one after it. */
function splitsSurrogatePair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const [before, after] = [text.charCodeAt(offset - 1), text.charCodeAt(offset)];
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

function assertOffsets(text: string, range: { start: number; end: number }, label: string): void {
  assert.ok(0 <= range.start && range.start <= range.end && range.end <= text.length, `${label} ${range.start}..${range.end} inside ${JSON.stringify(text)}`);
  assert.ok(!splitsSurrogatePair(text, range.start) && !splitsSurrogatePair(text, range.end), `${label} ${range.start}..${range.end} between the halves of a surrogate pair in ${JSON.stringify(text)}`);
}

function checkTimed(text: string): DocumentProblem[] {
  const start = performance.now();
  const problems = checkRuleset(text, 'hcl', { cache });
  const elapsed = performance.now() - start;
  assert.ok(elapsed < SLOW_MS, `the check took ${elapsed.toFixed(0)} ms on ${JSON.stringify(text)}`);
  return problems;
}

function assertProblems(text: string, problems: readonly DocumentProblem[]): void {
  let previous = -1;
  for (const p of problems) {
    assertOffsets(text, p, p.code);
    assert.ok(p.start >= previous, `problems sorted by start: ${p.code} in ${JSON.stringify(text)}`);
    previous = p.start;
    assert.ok(p.message.length > 0, p.code);
    // Messages in a `.tf` file speak HCL: never of YAML or JSON syntax.
    assert.ok(p.code !== 'yaml-syntax' && p.code !== 'json-syntax', `${p.code} in a .tf file`);
    for (const r of p.related ?? []) assertOffsets(text, r, `related of ${p.code}`);
    for (const fix of p.fixes ?? []) for (const e of fix.edits) assert.ok(0 <= e.start && e.start <= e.end && e.end <= text.length, `fix of ${p.code} inside ${JSON.stringify(text)}`);
  }
}

function assertRangeInside(text: string, lines: readonly string[], range: Range, what: string): void {
  for (const p of [range.start, range.end]) {
    assert.ok(p.line >= 0 && p.line < lines.length, `${what}: line ${p.line} inside ${JSON.stringify(text)}`);
    assert.ok(p.character >= 0 && p.character <= lines[p.line].length, `${what}: character ${p.character} inside line ${p.line} of ${JSON.stringify(text)}`);
    const line = lines[p.line];
    assert.ok(!splitsSurrogatePair(line, p.character), `${what}: ${p.line}:${p.character} between the halves of a surrogate pair in ${JSON.stringify(text)}`);
  }
  assert.ok(range.start.line < range.end.line || (range.start.line === range.end.line && range.start.character <= range.end.character), `${what}: start before end`);
}

const before_ = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character <= b.character);
const inside = (inner: Range, outer: Range) => before_(outer.start, inner.start) && before_(inner.end, outer.end);

/** LSP requires each selectionRange inside its range, and children inside their parent. */
function assertNested(text: string, lines: readonly string[], symbols: readonly DocumentSymbol[], parent?: DocumentSymbol): void {
  for (const symbol of symbols) {
    assertRangeInside(text, lines, symbol.range, `symbol ${symbol.name}`);
    assert.ok(symbol.name.length > 0, `a symbol's name in ${JSON.stringify(text)}`);
    assert.ok(inside(symbol.selectionRange, symbol.range), `selectionRange of ${symbol.name} inside its range in ${JSON.stringify(text)}`);
    if (parent) assert.ok(inside(symbol.range, parent.range), `${symbol.name} inside ${parent.name} in ${JSON.stringify(text)}`);
    assertNested(text, lines, symbol.children ?? [], symbol);
  }
}

const cache = new ExpressionCache();

// ------------------------------------------------------------------ properties

describe('property: Terraform documents', { timeout: 120_000 }, () => {
  it('mutated and generated `.tf` files never throw, finish, and every range lies inside, on whole characters', () => {
    fc.assert(
      fc.property(anyTerraform, (text) => {
        assertProblems(text, checkTimed(text));
        // CRLF line ends too.
        const crlf = text.replace(/\r?\n/g, '\r\n');
        assertProblems(crlf, checkTimed(crlf));
      }),
      { numRuns: 400 },
    );
  });

  it('random text read as a `.tf` file never throws, and its ranges lie inside, on whole characters', () => {
    const chars = fc.oneof(fc.constantFrom(...INTERESTING), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 60 }).map((parts) => parts.join('')), (text) => assertProblems(text, checkTimed(text))),
      { numRuns: 300 },
    );
  });

  it('every editor feature answers on them without throwing, with ranges inside, and symbols inside their parents', () => {
    fc.assert(
      fc.property(anyTerraform, fc.array(fc.nat({ max: 1_000_000 }), { minLength: 1, maxLength: 4 }), (text, cursors) => {
        const model = modelOf(text, 'hcl');
        const lines = text.split(/\r\n|\r|\n/);
        const s = settings();
        for (const d of diagnostics(model, s)) {
          assertRangeInside(text, lines, d.range, `diagnostic ${d.code}`);
          for (const r of d.relatedInformation ?? []) assertRangeInside(text, lines, r.location.range, 'related information');
        }
        assert.equal(semanticTokens(model, s).data.length % 5, 0);
        assertNested(text, lines, documentSymbols(model, s));
        for (const c of cursors) {
          const position = model.positionAt(c % (text.length + 1));
          for (const item of completion(model, position, s)?.items ?? []) {
            if (item.textEdit && 'range' in item.textEdit) assertRangeInside(text, lines, item.textEdit.range, `completion ${item.label}`);
          }
          const h = hover(model, position, s);
          if (h?.range) assertRangeInside(text, lines, h.range, 'hover');
          for (const action of codeActions(model, { start: position, end: position }, { diagnostics: [] }, s)) {
            for (const e of action.edit?.changes?.[model.uri] ?? []) assertRangeInside(text, lines, e.range, `code action ${action.title}`);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
