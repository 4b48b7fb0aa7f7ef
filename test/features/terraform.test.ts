/**
 * Completion and hover inside the expressions of a `.tf` file: in a heredoc, in an escaped
 * string, after an interpolation; and nothing offered inside the interpolation.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { loadTerraformParser } from '../../server/src/documents/terraform';
import { completeAt } from '../../server/src/features/completion';
import { hover } from '../../server/src/features/hover';
import { applyEdits, modelOf, settings } from './harness';

function v5(rule: string): string {
  return `resource "cloudflare_ruleset" "r" {\n  phase = "http_request_firewall_custom"\n  rules = [{\n    action = "block"\n${rule}\n  }]\n}\n`;
}

/** The file after choosing `label` from the completion at the end of the first `typed`. */
function complete(text: string, typed: string, label: string): string {
  const model = modelOf(text, 'hcl');
  const list = completeAt(model, text.indexOf(typed) + typed.length, settings());
  const item = list?.items.find((i) => i.label === label);
  assert.ok(item?.textEdit && 'range' in item.textEdit, `no ${label} in ${JSON.stringify(list?.items.map((i) => i.label).slice(0, 10))}`);
  return applyEdits(text, [item.textEdit]);
}

describe('features in a Terraform file', () => {
  before(() => loadTerraformParser());

  it('completes a field inside a `<<-EOT` heredoc, on its line', () => {
    const text = v5('    expression = <<-EOT\n      http.host eq "a" and\n        http.req\n    EOT');
    assert.equal(complete(text, 'http.req', 'http.request.uri.path'), text.replace('http.req\n', 'http.request.uri.path\n'));
  });

  it('completes a field inside a quoted string with escaped quotes', () => {
    const text = v5('    expression = "http.host eq \\"a\\" and http.req"');
    assert.equal(complete(text, 'http.req', 'http.request.uri.path'), text.replace('http.req"', 'http.request.uri.path"'));
  });

  it('completes after an interpolation, which stays as it is', () => {
    const text = v5('    expression = "ip.src in ${var.office} and http.req"');
    assert.equal(complete(text, 'http.req', 'http.request.uri.path'), text.replace('http.req"', 'http.request.uri.path"'));
  });

  it('offers nothing inside an interpolation', () => {
    const text = v5('    expression = "ip.src in ${var.office} and http.host eq \\"a\\""');
    const model = modelOf(text, 'hcl');
    assert.deepEqual(completeAt(model, text.indexOf('var.office') + 4, settings())?.items ?? [], []);
    assert.equal(hover(model, model.positionAt(text.indexOf('var.office') + 4), settings()), null);
  });

  it('hovers a field inside a heredoc and inside an escaped string', () => {
    for (const text of [v5('    expression = <<-EOT\n      http.host eq "a"\n    EOT'), v5('    expression = "ip.src ne 192.0.2.1 and http.host eq \\"\\u00e9\\""')]) {
      const model = modelOf(text, 'hcl');
      const found = hover(model, model.positionAt(text.indexOf('http.host') + 3), settings());
      assert.match(JSON.stringify(found?.contents), /`http\.host`/);
      assert.deepEqual(found?.range && [model.offsetAt(found.range.start), model.offsetAt(found.range.end)], [text.indexOf('http.host'), text.indexOf('http.host') + 9]);
    }
  });
});
