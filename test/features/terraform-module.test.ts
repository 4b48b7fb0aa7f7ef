/**
 * The editor in a module's `locals.tf`, `variables.tf` and `.tfvars`: a string there that a
 * `cloudflare_ruleset` of the module uses has diagnostics, hover, completion and quick fixes, as
 * the resource's own expressions have; a string no ruleset uses has none.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { codeActions } from '../../server/src/features/code-actions';
import { completeAt } from '../../server/src/features/completion';
import { diagnostics } from '../../server/src/features/diagnostics';
import { hover } from '../../server/src/features/hover';
import { DocumentModel } from '../../server/src/features/model';
import { memoryReader } from '../documents/terraform-module-helpers';
import { applyEdits, settings, takeCursor } from './harness';

const MAIN = 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [for r in local.rules : { action = "block", expression = r.expression }]\n}\n';

/** The model of locals.tf (given with a cursor marker `|`) in a module beside MAIN. */
function localsModel(marked: string, name = 'locals.tf', main = MAIN): { model: DocumentModel; offset: number; text: string } {
  const { text, offset } = takeCursor(marked);
  const reader = memoryReader({ 'main.tf': main, [name]: text });
  const model = new DocumentModel(`file:///m/${name}`, 1, text, 'hcl', new ExpressionCache(), undefined, undefined, { path: `/m/${name}`, reader });
  return { model, offset, text };
}

describe('features in a string a module\'s ruleset uses', () => {
  before(() => loadTerraformParser());

  it('diagnoses a mistake in a local as it is typed, and names the resource', () => {
    const { model, text } = localsModel('locals {\n  rules = [{ expression = "http.hots eq \\"a\\"|" }]\n}\n');
    assert.ok(model.isRuleset(settings()), 'locals.tf is checked');
    const found = diagnostics(model, settings());
    assert.deepEqual(found.map((d) => [d.code, text.slice(model.offsetAt(d.range.start), model.offsetAt(d.range.end))]), [['unknown-field', 'http.hots']]);
    assert.match(found[0].message, /cloudflare_ruleset\.waf/);
  });

  it('fixes the mistake in place with the did-you-mean', () => {
    const { model, text } = localsModel('locals {\n  rules = [{ expression = "http.hots eq \\"a\\"|" }]\n}\n');
    const [diagnostic] = diagnostics(model, settings());
    const actions = codeActions(model, diagnostic.range, { diagnostics: [diagnostic] }, settings());
    const fix = actions.find((a) => a.title.includes('http.host'));
    assert.ok(fix?.edit?.changes, JSON.stringify(actions.map((a) => a.title)));
    const edits = Object.values(fix.edit.changes)[0];
    assert.equal(applyEdits(text, edits), text.replace('http.hots', 'http.host'));
  });

  it('hovers a field and completes one inside the local', () => {
    const hovered = localsModel('locals {\n  rules = [{ expression = "http.ho|st eq \\"a\\"" }]\n}\n');
    const found = hover(hovered.model, hovered.model.positionAt(hovered.offset), settings());
    assert.match(JSON.stringify(found?.contents), /`http\.host`/);
    const typed = localsModel('locals {\n  rules = [{ expression = "http.host eq \\"a\\" and http.req|" }]\n}\n');
    const list = completeAt(typed.model, typed.offset, settings());
    const item = list?.items.find((i) => i.label === 'http.request.uri.path');
    assert.ok(item?.textEdit && 'range' in item.textEdit);
    assert.equal(applyEdits(typed.text, [item.textEdit]), typed.text.replace('http.req"', 'http.request.uri.path"'));
  });

  it('a .tfvars value is checked, and a string no ruleset uses is not', () => {
    const main = 'variable "filter" { default = "http.host eq \\"a\\"" }\nresource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = var.filter }]\n}\n';
    const tfvars = localsModel('filter = "http.hots eq \\"b\\"|"\nunused = "http.hots"\n', 'terraform.tfvars', main);
    assert.deepEqual(diagnostics(tfvars.model, settings()).map((d) => [d.code, d.range.start.line]), [['unknown-field', 0]]);
    const other = localsModel('locals {\n  unrelated = "http.hots|"\n}\n');
    assert.equal(other.model.isRuleset(settings()), false);
  });
});

describe('a value composed of two locals', () => {
  before(() => loadTerraformParser());

  it('is an expression only on the characters of its locals, not on the text between them', () => {
    const main = 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules = [{ action = "block", expression = "${local.a} and ${local.b}" }]\n}\n';
    const inA = localsModel('locals {\n  a = "http.ho|st eq \\"x\\""\n  other = "not an expression"\n  b = "ip.src ne 10.0.0.1"\n}\n', 'locals.tf', main);
    assert.match(JSON.stringify(hover(inA.model, inA.model.positionAt(inA.offset), settings())?.contents), /`http\.host`/);
    const between = localsModel('locals {\n  a = "http.host eq \\"x\\""\n  other = "not an ex|pression"\n  b = "ip.src ne 10.0.0.1"\n}\n', 'locals.tf', main);
    assert.equal(between.model.siteAt(between.offset), undefined);
    assert.equal(hover(between.model, between.model.positionAt(between.offset), settings()), null);
  });
});
