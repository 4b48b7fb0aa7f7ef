/**
 * `before:` and `after:` on a rule (our keys, placing it among its entry point's rules): the
 * checker takes them as strings on a ruleset file's and an octorules section's rules, the
 * editor completes and hovers them, and in a Terraform resource (ordered as written) they stay
 * unknown keys.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver';
import { completion } from '../../server/src/features/completion';
import { hover } from '../../server/src/features/hover';
import { modelOf, settings, takeCursor } from './harness';

const YAML = (rest: string) => `name: t\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - ref: a\n    action: block\n    expression: ip.src eq 1.1.1.1\n${rest}`;

function codes(text: string, format: 'yaml' | 'json' | 'hcl'): string[] {
  return modelOf(text, format).problems(settings()).map((p) => p.code);
}

describe('before: and after: on a rule', () => {
  it('are accepted as strings, and another type is an error', () => {
    assert.deepEqual(codes(YAML('  - ref: b\n    action: block\n    expression: ip.src eq 2.2.2.2\n    before: a\n'), 'yaml'), []);
    assert.deepEqual(codes(YAML('  - ref: b\n    action: block\n    expression: ip.src eq 2.2.2.2\n    after: [a]\n'), 'yaml'), ['invalid-type']);
  });

  it('are accepted on an octorules rule', () => {
    const text = 'waf_custom_rules:\n  - ref: a\n    action: block\n    expression: ip.src eq 1.1.1.1\n  - ref: b\n    action: block\n    expression: ip.src eq 2.2.2.2\n    before: a\n';
    assert.ok(!codes(text, 'yaml').includes('unknown-key'), codes(text, 'yaml').join(', '));
  });

  it('are completed among a rule\'s keys and hovered with what they do', () => {
    const { text, offset } = takeCursor(YAML('    |\n'));
    const model = modelOf(text, 'yaml');
    const labels = completion(model, model.positionAt(offset), settings())!.items.map((i) => i.label);
    assert.ok(labels.includes('before') && labels.includes('after'), labels.join(', '));
    const placed = modelOf(YAML('    after: x\n'), 'yaml');
    const h = hover(placed, placed.positionAt(placed.text.indexOf('after:') + 2), settings());
    assert.ok(h);
    assert.match((h.contents as MarkupContent).value, /just after the rule whose `ref` this names/);
  });

  it('stay unknown keys in a Terraform resource, which is one resource ordered as written', () => {
    const text = 'resource "cloudflare_ruleset" "waf" {\n  zone_id = "0123456789abcdef0123456789abcdef"\n  name    = "t"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n  rules = [{\n    ref        = "a"\n    action     = "block"\n    expression = "ip.src eq 1.1.1.1"\n    before     = "b"\n  }]\n}\n';
    assert.ok(codes(text, 'hcl').includes('unknown-key'), codes(text, 'hcl').join(', '));
  });
});

describe('the order checks of a file whose rules say where they go', () => {
  it('say nothing of which rule runs first, as the written order is not the one deployed', () => {
    const repeat = (place: string) => `name: t\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - ref: a\n    action: block\n    expression: ip.src eq 1.1.1.1\n  - ref: b\n    action: block\n    expression: ip.src eq 1.1.1.1\n${place}`;
    // The same rule twice: the second repeats the first as written…
    assert.ok(codes(repeat(''), 'yaml').length > 0);
    // …but placed before it, the written order is not the deployed one.
    assert.deepEqual(codes(repeat('    before: a\n'), 'yaml'), []);
  });
});
