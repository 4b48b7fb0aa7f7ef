/**
 * The JSON host tree is built as jsonc-parser's visitor reads the text (documents/host/host.ts), not
 * from its `parseTree`: for any text, well-formed or not, it is the tree `parseTree` gives,
 * converted node for node (the conversion below is how host.ts read that tree before).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as jsonc from 'jsonc-parser';
import { parseHost, type HostNode, type HostProperty } from '../../server/src/documents/host/host';
import { readStrictJson } from '../../server/src/documents/host/strict-json';

/** The host tree from jsonc-parser's tree, as the data the checks read. */
function fromTree(node: jsonc.Node): unknown {
  const start = node.offset;
  const end = node.offset + node.length;
  switch (node.type) {
    case 'object': {
      const properties = [];
      for (const child of node.children ?? []) {
        const [keyNode, valueNode] = child.children ?? [];
        // A value in an object that is not a property (after an error) has no key: not a property.
        if (!keyNode || child.type !== 'property') continue;
        properties.push({ key: String(keyNode.value), keyStart: keyNode.offset, keyEnd: keyNode.offset + keyNode.length, value: valueNode ? fromTree(valueNode) : undefined });
      }
      return { kind: 'object', start, end, properties, block: false };
    }
    case 'array':
      return { kind: 'array', start, end, items: (node.children ?? []).map(fromTree) };
    case 'string':
      return { kind: 'string', start, end, value: node.value, style: 'json' };
    case 'number':
      return { kind: 'number', start, end, value: node.value };
    case 'boolean':
      return { kind: 'boolean', start, end, value: node.value };
    default:
      return { kind: 'null', start, end, value: null };
  }
}

function plain(node: HostNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.kind) {
    case 'object':
      return { kind: 'object', start: node.start, end: node.end, properties: node.properties.map((p: HostProperty) => ({ key: p.key, keyStart: p.keyStart, keyEnd: p.keyEnd, value: plain(p.value) })), block: node.block };
    case 'array':
      return { kind: 'array', start: node.start, end: node.end, items: node.items.map(plain) };
    default:
      return node.kind === 'string' ? { kind: node.kind, start: node.start, end: node.end, value: node.value, style: node.style } : { kind: node.kind, start: node.start, end: node.end, value: node.value };
  }
}

function same(text: string): void {
  const errors: jsonc.ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
  const host = parseHost(text, 'json');
  assert.deepStrictEqual(plain(host.root), tree ? fromTree(tree) : undefined, JSON.stringify(text));
  assert.equal(host.syntaxErrors.length > 0, errors.length > 0, JSON.stringify(text));
}

const ruleset = fc
  .array(fc.record({ action: fc.constantFrom('block', 'skip'), expression: fc.string({ maxLength: 12 }), enabled: fc.boolean(), n: fc.oneof(fc.integer(), fc.constant(null)) }), { maxLength: 4 })
  .chain((rules) => fc.constantFrom(JSON.stringify({ name: 'x', rules }, null, 2), JSON.stringify({ name: 'x', rules })));

const damaged = ruleset.chain((text) =>
  fc.array(fc.record({ at: fc.integer({ min: 0, max: text.length }), removed: fc.integer({ min: 0, max: 3 }), inserted: fc.string({ unit: fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '1', 'a', ' ', '\n', 't', 'null'), maxLength: 3 }) }), { maxLength: 3 }).map((edits) =>
    edits.reduce((t, e) => t.slice(0, Math.min(e.at, t.length)) + e.inserted + t.slice(Math.min(e.at, t.length) + e.removed), text),
  ),
);

describe('the JSON host tree', () => {
  it('is the tree jsonc-parser gives, for rulesets', () => fc.assert(fc.property(ruleset, same), { numRuns: 500 }));
  it('is the tree jsonc-parser gives, for damaged rulesets (its recovery from errors included)', () => fc.assert(fc.property(damaged, same), { numRuns: 5_000 }));
  it('is the tree jsonc-parser gives, for any text', () => fc.assert(fc.property(fc.string({ unit: fc.constantFrom('{', '}', '[', ']', ',', ':', '"', 'a', '1', ' ', 'true') }), same), { numRuns: 5_000 }));
  it('is read in one pass, without jsonc-parser, when the text is well-formed JSON', () =>
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        assert.ok(readStrictJson(text) !== undefined, text);
      }),
      { numRuns: 2_000 },
    ));
  it('is left to jsonc-parser when the text has a mistake it reports', () =>
    fc.assert(
      fc.property(damaged, (text) => {
        const errors: jsonc.ParseError[] = [];
        jsonc.parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true });
        if (errors.length > 0) assert.equal(readStrictJson(text), undefined, JSON.stringify(text));
      }),
      { numRuns: 3_000 },
    ));
  it('is the tree jsonc-parser gives, for JSON values of every kind, escapes and numbers included', () =>
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => same(JSON.stringify(value, null, indent) ?? 'null')), { numRuns: 2_000 }));
  for (const text of ['{"a": 1 2}', '{"a": 1 {"b": 2}}', '{"a": [1, 2', '{"a"', '[{"a": }]', '', '{} {}', '{"a": {"b": }', '{"a": 1,}', '[1,]', '{"a" : -0.5e+3, "b\\u00e9\\n": "x\\"y"}', '01', '[1 2]', 'true false', '\ufeff{}', '{"a": "\u0001"}', ' \n\t ']) {
    it(`is the tree jsonc-parser gives for ${JSON.stringify(text)}`, () => same(text));
  }
});
