/**
 * The editor in a `.tf` file of the legacy Firewall Rules: completion, hover and diagnostics in a
 * `cloudflare_filter`'s expression as in a custom rule's; the warning on each legacy resource and
 * its code action, which writes the `cloudflare_ruleset` that takes over; the hint on a
 * `cloudflare_ruleset` whose rules have no `ref`, and its code action.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Range } from 'vscode-languageserver';

import { loadTerraformParser } from '../../server/src/documents/terraform';
import { codeActions } from '../../server/src/features/code-actions';
import { completeAt } from '../../server/src/features/completion';
import { diagnostics } from '../../server/src/features/diagnostics';
import { hover } from '../../server/src/features/hover';
import type { DocumentModel } from '../../server/src/features/model';
import { applyEdits, modelOf, settings, takeCursor } from './harness';

function filterWith(expression: string): string {
  return `resource "cloudflare_filter" "admin" {\n  zone_id    = var.zone_id\n  expression = "${expression}"\n}\n\nresource "cloudflare_firewall_rule" "admin" {\n  zone_id   = var.zone_id\n  filter_id = cloudflare_filter.admin.id\n  action    = "block"\n}\n`;
}

function cursorRange(model: DocumentModel, offset: number): Range {
  const position = model.positionAt(offset);
  return { start: position, end: position };
}

/** The quick fixes at the cursor, asked for as VS Code does: with the diagnostics under it. */
function fixesAt(model: DocumentModel, offset: number): CodeAction[] {
  const range = cursorRange(model, offset);
  const under = diagnostics(model, settings()).filter((d) => model.offsetAt(d.range.start) <= offset && offset <= model.offsetAt(d.range.end));
  return codeActions(model, range, { diagnostics: under, only: ['quickfix'] }, settings());
}

function applied(model: DocumentModel, text: string, action: CodeAction): string {
  return applyEdits(text, action.edit!.changes![model.uri]);
}

describe('the editor in a cloudflare_filter', () => {
  before(() => loadTerraformParser());

  it("completes a custom rule's field in the filter's expression", () => {
    const { text, offset } = takeCursor(filterWith('cf.waf.sc|'));
    const model = modelOf(text, 'hcl');
    const labels = completeAt(model, offset, settings())?.items.map((i) => i.label) ?? [];
    assert.ok(labels.includes('cf.waf.score'), JSON.stringify(labels.slice(0, 20)));
  });

  it('hovers a field of the expression', () => {
    const { text, offset } = takeCursor(filterWith('http.ho|st eq \\"a.example.com\\"'));
    const model = modelOf(text, 'hcl');
    const found = hover(model, model.positionAt(offset), settings());
    assert.match(JSON.stringify(found?.contents), /`http\.host`/);
  });

  it("shows the expression's mistake on its characters, and fixes it", () => {
    const { text, offset } = takeCursor(filterWith('http.ho|ts eq \\"a.example.com\\"'));
    const model = modelOf(text, 'hcl');
    const found = diagnostics(model, settings()).map((d) => [d.code, text.slice(model.offsetAt(d.range.start), model.offsetAt(d.range.end))]);
    assert.deepEqual(found, [
      ['firewall-rules-ended', 'resource "cloudflare_filter" "admin"'],
      ['unknown-field', 'http.hots'],
      ['firewall-rules-ended', 'resource "cloudflare_firewall_rule" "admin"'],
    ]);
    const fix = fixesAt(model, offset).find((a) => /^Change to .http\.host.$/.test(a.title));
    assert.ok(fix);
    assert.equal(applied(model, text, fix), text.replace('http.hots', 'http.host'));
  });

  it('offers, on the warning of either resource, the cloudflare_ruleset that takes over; once written, it is clean and not offered again', () => {
    const marked = filterWith('http.host eq \\"admin.example.com\\"').replace('resource "cloudflare_firewall_rule" "admin"', 'resource "cloudflare_fire|wall_rule" "admin"');
    const { text, offset } = takeCursor(marked);
    const model = modelOf(text, 'hcl');
    const fix = fixesAt(model, offset).find((a) => /^Write the equivalent .cloudflare_ruleset. \(1 rule\)$/.test(a.title));
    assert.ok(fix, JSON.stringify(fixesAt(model, offset).map((a) => a.title)));
    const after = applied(model, text, fix);
    assert.ok(after.startsWith(text));
    assert.match(after.slice(text.length), /resource "cloudflare_ruleset" "firewall_rules" \{[\s\S]*rules \{\n {4}ref {8}= "admin"\n {4}expression = "http\.host eq \\"admin\.example\.com\\""\n {4}action {5}= "block"\n {4}enabled {4}= true\n {2}\}\n\}\n$/);
    const again = modelOf(after, 'hcl');
    const problems = diagnostics(again, settings());
    assert.deepEqual(problems.map((d) => d.code), ['firewall-rules-ended', 'firewall-rules-ended']);
    assert.deepEqual(fixesAt(again, after.indexOf('cloudflare_fire') + 3).map((a) => a.title), []);
  });
});

describe('the editor on a cloudflare_ruleset whose rules have no ref', () => {
  before(() => loadTerraformParser());

  it('shows one hint on the resource and adds a ref to each rule', () => {
    const { text, offset } = takeCursor(`resource "cloudflare_ruleset" "w|af" {\n  phase = "http_request_firewall_custom"\n  rules = [\n    {\n      description = "Admin host"\n      action      = "block"\n      expression  = "http.host eq \\"admin.example.com\\""\n    },\n    {\n      description = "Admin host"\n      action      = "log"\n      expression  = "http.host eq \\"log.example.com\\""\n    },\n  ]\n}\n`);
    const model = modelOf(text, 'hcl');
    assert.deepEqual(diagnostics(model, settings()).map((d) => [d.code, d.severity]), [['terraform-rules-without-ref', 3]]);
    const fix = fixesAt(model, offset).find((a) => /^Add a .ref. to each of the 2 rules without one$/.test(a.title));
    assert.ok(fix);
    const after = applied(model, text, fix);
    assert.deepEqual([...after.matchAll(/ref {9}= "(\w+)"/g)].map((m) => m[1]), ['admin_host', 'admin_host_2']);
    assert.deepEqual(diagnostics(modelOf(after, 'hcl'), settings()), []);
  });
});
