/**
 * The rewrite of a provider v4 `cloudflare_ruleset` into v5's shape, as the editor offers it: a
 * refactoring on the resource's opening line or a rule block's, whatever the version; and the
 * quick fix of Terraform's error where the module's version is v5.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeActionKind } from 'vscode-languageserver';

import { loadTerraformParser } from '../../server/src/documents/terraform';
import { codeActions } from '../../server/src/features/code-actions';
import { toDiagnostic } from '../../server/src/features/diagnostics';
import { applyEdits, modelOf, settings, takeCursor } from './harness';

const PAIRS = join(__dirname, '..', 'fixtures', 'terraform', 'provider-v4-to-v5');
const v4 = readFileSync(join(PAIRS, 'headers.v4.tf'), 'utf8');
const v5 = readFileSync(join(PAIRS, 'headers.v5.tf'), 'utf8');
const TITLE = "Rewrite ‘cloudflare_ruleset.response_headers’ in provider v5's shape (‘rules = [{ … }]’)";
const V5_CONSTRAINT = 'terraform {\n  required_providers {\n    cloudflare = {\n      source  = "cloudflare/cloudflare"\n      version = ">= 5.1"\n    }\n  }\n}\n';

function actionsAt(marked: string, only?: string[]) {
  const { text, offset } = takeCursor(marked);
  const model = modelOf(text, 'hcl');
  const position = model.positionAt(offset);
  const diagnostics = model.problems(settings()).filter((p) => p.start <= offset && offset <= p.end).map((p) => toDiagnostic(model, p));
  return { text, actions: codeActions(model, { start: position, end: position }, { diagnostics, ...(only ? { only } : {}) }, settings()) };
}

describe('code actions: provider v4 to v5', () => {
  before(() => loadTerraformParser());

  it('offers the rewrite as a refactoring on the resource line, and it writes the v5 shape', () => {
    const { text, actions } = actionsAt(v4.replace('resource "cloudflare_ruleset"', 'resource "cloudflare_|ruleset"'));
    const rewrite = actions.find((a) => a.title === TITLE);
    assert.equal(rewrite?.kind, CodeActionKind.RefactorRewrite);
    assert.equal(applyEdits(text, rewrite!.edit!.changes!['file:///work/main.tf']), v5);
  });

  it("offers it on a rule block's opening line, not inside a rule", () => {
    assert.ok(actionsAt(v4.replace('  rules {', '  ru|les {')).actions.some((a) => a.title === TITLE));
    assert.ok(!actionsAt(v4.replace('"DENY"', '"DE|NY"')).actions.some((a) => a.title === TITLE));
  });

  it('offers nothing on a resource already in v5 shape', () => {
    assert.ok(!actionsAt(v5.replace('resource "cloudflare_ruleset"', 'resource "cloudflare_|ruleset"')).actions.some((a) => a.title.startsWith('Rewrite')));
  });

  it('under a v5 constraint, is the preferred quick fix of the `rules` block error, offered once', () => {
    const { text, actions } = actionsAt(V5_CONSTRAINT + v4.replace('  rules {', '  ru|les {'));
    const offered = actions.filter((a) => a.title === TITLE);
    assert.equal(offered.length, 1);
    assert.equal(offered[0].kind, CodeActionKind.QuickFix);
    assert.equal(offered[0].isPreferred, true);
    assert.equal(offered[0].diagnostics?.[0].code, 'unsupported-block-type');
    assert.equal(applyEdits(text, offered[0].edit!.changes!['file:///work/main.tf']), V5_CONSTRAINT + v5);
  });

  it('is a refactoring only when the client asks for refactorings', () => {
    const marked = v4.replace('resource "cloudflare_ruleset"', 'resource "cloudflare_|ruleset"');
    assert.ok(!actionsAt(marked, [CodeActionKind.QuickFix]).actions.some((a) => a.title === TITLE));
    assert.ok(actionsAt(marked, [CodeActionKind.Refactor]).actions.some((a) => a.title === TITLE));
  });
});
