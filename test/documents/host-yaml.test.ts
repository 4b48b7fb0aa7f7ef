/**
 * YAML rulesets written in block style are read by documents/host/block-yaml.ts, without the
 * `yaml` library. For every text it accepts, its tree must be the library's, node for node:
 * keys, values, styles, offsets, and every decoded string with its offset map; and it may
 * accept only texts the library reads without an error. Everything else goes to the library.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as YAML from 'yaml';
import { readBlockYaml } from '../../server/src/documents/host/block-yaml';
import { parseHost, parseYamlWithLibrary, type HostNode } from '../../server/src/documents/host/host';
import { expression, rulesetObject } from '../../bench/inputs';

/** The tree as data: what every check reads, decoded strings and their offset maps included. */
function plain(node: HostNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.kind) {
    case 'object':
      return { kind: 'object', start: node.start, end: node.end, block: node.block, properties: node.properties.map((p) => ({ key: p.key, keyStart: p.keyStart, keyEnd: p.keyEnd, value: plain(p.value) })) };
    case 'array':
      return { kind: 'array', start: node.start, end: node.end, items: node.items.map(plain) };
    default: {
      const decoded = node.decode?.();
      return {
        kind: node.kind,
        start: node.start,
        end: node.end,
        value: node.value,
        style: node.style,
        decoded: decoded && { value: decoded.value, starts: [...decoded.starts], ends: [...decoded.ends], contentStart: decoded.contentStart, contentEnd: decoded.contentEnd },
      };
    }
  }
}

/** Whether the reader took the text; when it did, that it gave the library's tree. */
function sameAsLibrary(text: string): boolean {
  const fast = readBlockYaml(text);
  if (!fast) return false;
  const library = parseYamlWithLibrary(text);
  assert.deepEqual(library.syntaxErrors, [], `accepted a text the library rejects: ${JSON.stringify(text)}`);
  assert.deepStrictEqual(plain(fast), plain(library.root), JSON.stringify(text));
  return true;
}

/** Characters that matter to YAML, and some that do not. */
const tricky = fc.constantFrom('a', 'b', '1', '0', ' ', ' ', ':', '#', '-', '"', "'", '\\', '{', '}', '[', ']', ',', '\n', '&', '*', '!', '|', '>', '%', '@', '`', '?', '.', 'é', '\t', '\r', '~', 'n', 'u', 'l', 'x', '😀', '\u0085');
const word = fc.string({ unit: tricky, maxLength: 24 });
const scalar = fc.oneof(word, word, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constantFrom('true', 'null', '12', '0x1f', '1e3', '-5', '.inf', 'tcp.dstport in {22, 443}', 'ip.src.country in {"BR" "CN"}', "it's"));
const key = fc.oneof(fc.constantFrom('action', 'expression', 'description', 'enabled', 'action_parameters', 'ruleset', 'name', 'kind', 'phase', 'rules', 'x-y', 'a.b', 'True', 'null'), word);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ maxDepth: 3 }, scalar, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
})).node;
const rule = fc.record({
  action: fc.constantFrom('block', 'skip', 'log'),
  expression: fc.oneof(word, fc.constantFrom('tcp.dstport in {22 443}', 'ip.src in $svc.malware or udp.dstport == 53', 'ip.src.country in {"BR" "CN"} and not ip.dst in {203.0.113.7}')),
  description: fc.option(word, { nil: undefined }),
  enabled: fc.option(fc.boolean(), { nil: undefined }),
  extra: fc.option(value, { nil: undefined }),
});
const ruleset = fc.record({ name: word, kind: fc.constantFrom('root', 'custom'), phase: fc.constantFrom('magic_transit'), rules: fc.array(rule, { maxLength: 4 }) });
const options = fc.record({
  lineWidth: fc.constantFrom(0, 20, 40, 80),
  minContentWidth: fc.constantFrom(0, 10, 20),
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'),
  defaultKeyType: fc.constantFrom(null, 'PLAIN'),
  doubleQuotedAsJSON: fc.boolean(),
});
const written = fc
  .tuple(fc.oneof(ruleset, value), options, fc.boolean())
  .map(([object, o, marker]) => YAML.stringify(object, { ...(o as YAML.ToStringOptions), directives: marker }));

/** The text with comments and blank lines among its lines, at any indentation. */
const commented = fc.tuple(written, fc.array(fc.record({ line: fc.nat(), text: fc.constantFrom('# note', '   # note', '', '  ', ' #', '#'), after: fc.constantFrom('', ' # trailing', '  #x', '#x') }), { maxLength: 4 })).map(([text, additions]) => {
  const lines = text.split('\n');
  for (const a of additions) {
    const at = a.line % (lines.length + 1);
    if (a.after && at < lines.length) lines[at] += a.after;
    else lines.splice(at, 0, a.text);
  }
  return lines.join('\n');
});

/** The text after a few edits of a few characters each. */
const damaged = written.chain((text) =>
  fc
    .array(fc.record({ at: fc.nat({ max: text.length }), removed: fc.nat({ max: 3 }), inserted: fc.string({ unit: tricky, maxLength: 3 }) }), { minLength: 1, maxLength: 3 })
    .map((edits) => edits.reduce((t, e) => t.slice(0, Math.min(e.at, t.length)) + e.inserted + t.slice(Math.min(e.at, t.length) + e.removed), text)),
);

describe('YAML read without the library', () => {
  it('gives the library tree for written rulesets and values', () => {
    fc.assert(fc.property(written, (text) => void sameAsLibrary(text)), { numRuns: 3_000 });
  });

  it('reads the rulesets people write itself, however YAML.stringify lays them out', () => {
    const realistic = fc.tuple(fc.nat({ max: 10_000 }), fc.nat({ max: 6 }), options).map(([from, rules, o]) => {
      const object = rulesetObject(rules);
      object.rules = object.rules.map((r, i) => ({ ...r, expression: expression(from + i), description: `Rule ${from + i}: it's the "${i}" one` }));
      return YAML.stringify(object, o as YAML.ToStringOptions);
    });
    fc.assert(fc.property(realistic, (text) => sameAsLibrary(text)), { numRuns: 1_000 });
  });

  it('gives the library tree with Windows line breaks', () => {
    fc.assert(fc.property(fc.oneof(written, commented, damaged), (text) => void sameAsLibrary(text.replace(/\n/g, '\r\n'))), { numRuns: 3_000 });
  });

  it('gives the library tree with comments and blank lines among the lines', () => {
    fc.assert(fc.property(commented, (text) => void sameAsLibrary(text)), { numRuns: 3_000 });
  });

  it('gives the library tree, or leaves the text to it, for damaged rulesets', () => {
    fc.assert(fc.property(damaged, (text) => void sameAsLibrary(text)), { numRuns: 5_000 });
  });

  it('gives the library tree, or leaves the text to it, for any text of YAML characters', () => {
    fc.assert(fc.property(fc.string({ unit: fc.oneof(tricky, fc.constantFrom('a: ', '- ', '\n  ', '\n- ', 'b:\n')), maxLength: 40 }), (text) => void sameAsLibrary(text)), { numRuns: 10_000 });
  });

  it('reads the YAML examples and a generated benchmark ruleset itself', () => {
    const examples = join(__dirname, '..', '..', 'examples');
    for (const name of readdirSync(examples).filter((n) => n.endsWith('.ruleset.yaml'))) {
      assert.ok(sameAsLibrary(readFileSync(join(examples, name), 'utf8')), name);
    }
    assert.ok(sameAsLibrary(YAML.stringify(rulesetObject(300))));
  });

  for (const [what, text] of [
    ['a sequence at its key’s column', 'rules:\n- action: block\n  expression: tcp.dstport == 22\nname: x\n'],
    ['an empty value', 'name:\nkind: root\n'],
    ['empty collections', 'a: []\nb: {} # c\nc:\n  - []\n  - {}\n'],
    ['quoted keys', '"expression": "tcp.dstport == 22"\n\'it\'\'s\': 1\n'],
    ['a folded plain expression', 'rules:\n  - expression: ip.src in {192.0.2.1 198.51.100.0/24} and\n      tcp.dstport == 22\n\n      and ip.ttl > 3\n'],
    ['a double-quoted scalar with escapes over two lines', 'a: "x \\"y\\" \\u00e9\n  z\\\n  w"\n'],
    ['a single-quoted scalar with a quote', "a: 'it''s'   # why\n"],
    ['a comment less indented than the mapping', 'a:\n    b: 1\n# c\n    c: 2\n'],
    ['no final line break', 'a: b'],
    ['a document start marker', '---\nname: x\n'],
    ['comments around the document start marker', '# c\n--- # start\n\nname: x\nrules:\n  - action: block\n'],
    ['Windows line breaks', 'a: b  \r\nc:\r\n  - "x\r\n\r\n    y" # z\r\n  - >-\r\n    p\r\n\r\n    q\r\nd: e\r\n  f\r\n'],
    ['a folded block expression', 'rules:\n  - expression: >-\n      ip.src in {192.0.2.1}\n\n      and tcp.dstport == 22\n    # a comment between the collection and the scalar\n    description: x\n'],
    ['a literal block scalar with a comment on its header, at the end', 'a: | # why\n  x\n    y\n\n  z\n\n\n'],
    ['a block scalar as a sequence item', 'a:\n  - |-\n    x\n  - y\n'],
    ['a block scalar without a final line break', 'a: >\n  x'],
    ['a document indented as a whole', '  a: 1\n  b: 2\n'],
  ] as const) {
    it(`reads ${what} as the library does`, () => assert.ok(sameAsLibrary(text)));
  }

  for (const [what, text] of [
    ['a tab', 'a:\tb\n'],
    ['a carriage return alone', 'a: b\rc: d\n'],
    ['an anchor', 'a: &x b\n'],
    ['a flow collection', 'a: {b: 1}\n'],
    ['a flow collection with spaces', 'a: [ ]\n'],
    ['several documents', '---\na: 1\n---\nb: 2\n'],
    ['a document end marker', 'a: 1\n...\n'],
    ['a directive', '%YAML 1.2\n---\na: 1\n'],
    ['content on the document marker’s line', '--- |\n  x\n'],
    ['a block scalar that keeps its line breaks', 'a: |+\n  x\n\nb: 1\n'],
    ['a block scalar with an indentation indicator', 'a: |2\n   x\n'],
    ['a float', 'a: 1.5\n'],
    ['a key over two lines', '"a\n b": c\n'],
    ['a key in a plain value', 'a: b: c\n'],
    ['a line more indented than its mapping', 'a: 1\n  b: 2\n'],
  ] as const) {
    it(`leaves ${what} to the library, with the same result`, () => {
      assert.equal(readBlockYaml(text), undefined);
      assert.deepStrictEqual(plain(parseHost(text, 'yaml').root), plain(parseYamlWithLibrary(text).root));
    });
  }
});
