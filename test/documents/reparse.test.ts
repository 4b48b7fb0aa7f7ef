/**
 * Typing in a string re-reads that string only (server/src/documents/reparse.ts): whatever the
 * edit, the ruleset it gives, when it gives one, is the one a full parse of the new text gives:
 * the same tree and offsets, the same expressions, and the same offset maps into the document.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as YAML from 'yaml';

import type { HostFormat, HostNode } from '../../server/src/documents/host/host';
import { parseRuleset, type ParsedRuleset } from '../../server/src/documents/parsed-ruleset';
import { reparseAfterEdit } from '../../server/src/documents/reparse';

const RUNS = Number(process.env.REPARSE_RUNS ?? 3_000);

/** The tree as data: what every check reads, without the functions and sources behind `decode`. */
function plain(node: HostNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.kind) {
    case 'object':
      return { ...node, properties: node.properties.map((p) => ({ ...p, value: plain(p.value) })) };
    case 'array':
      return { ...node, items: node.items.map(plain) };
    default: {
      const { decode: _decode, source: _source, ...rest } = node;
      return rest;
    }
  }
}

function described(ruleset: ParsedRuleset): unknown {
  return {
    root: plain(ruleset.root),
    phase: ruleset.phase,
    rules: ruleset.rules.map(plain),
    syntaxProblems: ruleset.syntaxProblems,
    expressions: ruleset.expressions.map((site) => {
      const decoded = site.decoded();
      return { ruleIndex: site.ruleIndex, text: site.text, inFlow: site.inFlow, node: plain(site.node), decoded: { ...decoded, starts: [...decoded.starts], ends: [...decoded.ends] } };
    }),
  };
}

/** Every string scalar's offset map, which hover, fixes and diagnostics in descriptions read too. */
function decodedStrings(node: HostNode | undefined, out: unknown[] = []): unknown[] {
  if (node?.kind === 'object') for (const p of node.properties) decodedStrings(p.value, out);
  else if (node?.kind === 'array') for (const item of node.items) decodedStrings(item, out);
  else if (node?.kind === 'string') {
    const d = node.decode?.();
    out.push(d && { ...d, starts: [...d.starts], ends: [...d.ends] });
  }
  return out;
}

function assertSameAsFullParse(previous: ParsedRuleset, text: string): boolean {
  const incremental = reparseAfterEdit(previous, text);
  if (!incremental) return false;
  const full = parseRuleset(text, previous.format);
  assert.deepStrictEqual(described(incremental), described(full), `after the edit: ${JSON.stringify(text)}`);
  assert.deepStrictEqual(decodedStrings(incremental.root), decodedStrings(full.root));
  return true;
}

// ---------------------------------------------------------------- documents

const expression = fc.constantFrom(
  'ip.src == 10.0.0.1',
  'tcp.dstport in {22 80 443}',
  'ip.src.country in {"BR" "CN"} and not udp',
  "http.host eq \"a'b\"",
  'ip.src in $svc.anonymizer',
  'udp.dstport == 53 or (tcp and tcp.dstport == 5353)',
  'raw.data matches "^a\\\\d+"',
  'ip.src == 2001:db8::1',
);

interface RuleSpec {
  readonly expression: string;
  readonly style: 'plain' | 'single' | 'double' | 'block' | 'flow' | 'plain-lines' | 'single-lines' | 'double-lines';
  readonly description: string;
}

const rule = fc.record({
  expression,
  style: fc.constantFrom('plain', 'single', 'double', 'block', 'flow', 'plain-lines', 'single-lines', 'double-lines') as fc.Arbitrary<RuleSpec['style']>,
  description: fc.constantFrom('', 'blocks the scanners', "it's # not a comment"),
});

function yamlScalar(value: string, style: RuleSpec['style'], indent: string): string {
  // Over two lines, folded at the middle space as an editor or YAML.stringify folds a long string.
  const space = value.indexOf(' ', value.length >> 1);
  const folded = (scalar: string) => {
    const at = scalar.indexOf(' ', scalar.length >> 1);
    return at < 0 ? scalar : `${scalar.slice(0, at)}\n${indent}  ${scalar.slice(at + 1)}`;
  };
  switch (style) {
    case 'plain-lines':
      return space < 0 ? yamlScalar(value, 'plain', indent) : folded(yamlScalar(value, 'plain', indent));
    case 'single-lines':
      return folded(yamlScalar(value, 'single', indent));
    case 'double-lines':
      return folded(yamlScalar(value, 'double', indent));
    case 'single':
      return `'${value.replace(/'/g, "''")}'`;
    case 'double':
      return JSON.stringify(value);
    case 'block':
      return `|\n${indent}  ${value}`;
    default:
      // A plain scalar only where YAML reads it back as this string.
      return /^[a-z]/.test(value) && !/: |#|"|'|[{}[\],]/.test(value) ? value : JSON.stringify(value);
  }
}

function yamlDocument(rules: readonly RuleSpec[]): string {
  const lines = ['name: edited', 'kind: root', 'phase: magic_transit', 'rules:'];
  for (const r of rules) {
    if (r.style === 'flow') {
      lines.push(`  - {action: block, expression: ${yamlScalar(r.expression, 'plain', '    ').replace(/^([a-z].*)$/, (v) => (/[{}[\],]/.test(v) ? JSON.stringify(v) : v))}}`);
      continue;
    }
    lines.push('  - action: block');
    lines.push(`    expression: ${yamlScalar(r.expression, r.style, '    ')}`);
    if (r.description) lines.push(`    description: ${yamlScalar(r.description, r.style === 'block' ? 'double' : r.style.replace('-lines', '') as RuleSpec['style'], '    ')}`);
  }
  return `${lines.join('\n')}\n`;
}

function jsonDocument(rules: readonly RuleSpec[]): string {
  return JSON.stringify({ name: 'edited', kind: 'root', phase: 'magic_transit', rules: rules.map((r) => ({ action: 'block', expression: r.expression, ...(r.description ? { description: r.description } : {}) })) }, null, 2);
}

/** Characters a person types, and the ones that change what a file means. */
const typed = fc.string({ unit: fc.constantFrom('a', 'z', '1', '0', ' ', '.', '=', '$', '{', '}', '"', "'", '\\', ':', '#', ',', '\n', '[', 'é', '\t'), maxLength: 4 });

/** An edit somewhere in the text, most often inside an expression, as typing does. */
function edit(text: string, previous: ParsedRuleset) {
  const sites = previous.expressions.map((s) => s.node);
  const inString = sites.length > 0
    ? fc.integer({ min: 0, max: sites.length - 1 }).chain((i) => fc.integer({ min: sites[i].start, max: sites[i].end }))
    : fc.integer({ min: 0, max: text.length });
  return fc.record({
    at: fc.oneof({ weight: 4, arbitrary: inString }, { weight: 1, arbitrary: fc.integer({ min: 0, max: text.length }) }),
    removed: fc.integer({ min: 0, max: 3 }),
    inserted: typed,
  });
}

function applied(text: string, e: { at: number; removed: number; inserted: string }): string {
  return text.slice(0, e.at) + e.inserted + text.slice(Math.min(text.length, e.at + e.removed));
}

function property(format: HostFormat): void {
  let reread = 0;
  let total = 0;
  fc.assert(
    fc.property(
      fc.array(rule, { minLength: 1, maxLength: 5 }).chain((rules) => {
        const text = format === 'json' ? jsonDocument(rules) : yamlDocument(rules);
        const previous = parseRuleset(text, format);
        return fc.tuple(fc.constant(previous), fc.array(edit(text, previous), { minLength: 1, maxLength: 3 }));
      }),
      ([first, edits]) => {
        // A few keystrokes in a row, each re-read from the one before when it can be.
        let previous = first;
        for (const e of edits) {
          const text = applied(previous.text, { ...e, at: Math.min(e.at, previous.text.length) });
          total++;
          if (assertSameAsFullParse(previous, text)) reread++;
          previous = reparseAfterEdit(previous, text) ?? parseRuleset(text, format);
        }
      },
    ),
    { numRuns: RUNS },
  );
  // The test says something only if it compared many re-read documents, not only fallbacks.
  assert.ok(reread > total / 5, `only ${reread} of ${total} edits were re-read incrementally`);
}

describe('re-reading one string after an edit', () => {
  it('gives what a full parse of a JSON file gives, whatever the edit', () => property('json'));
  it('gives what a full parse of a YAML file gives, whatever the edit', () => property('yaml'));

  it('re-reads a plain YAML expression typed at its end', () => {
    const before = parseRuleset('rules:\n  - action: block\n    expression: tcp.dstport == 2\n', 'yaml');
    const after = reparseAfterEdit(before, 'rules:\n  - action: block\n    expression: tcp.dstport == 23\n');
    assert.equal(after?.expressions[0].text, 'tcp.dstport == 23');
  });

  it('re-reads a JSON expression with an escaped quote typed into it', () => {
    const before = parseRuleset('{"rules": [{"action": "block", "expression": "http.host == x"}]}', 'json');
    const text = '{"rules": [{"action": "block", "expression": "http.host == \\"x\\""}]}';
    assert.ok(assertSameAsFullParse(before, text));
    assert.equal(reparseAfterEdit(before, text)?.expressions[0].text, 'http.host == "x"');
  });

  for (const [why, format, before, after] of [
    ['an unescaped quote ends the JSON string', 'json', '{"rules": [{"expression": "a == b"}]}', '{"rules": [{"expression": "a == "b"}]}'],
    ['`: ` makes a plain YAML scalar a mapping', 'yaml', 'rules:\n  - expression: a == b\n', 'rules:\n  - expression: a: b\n'],
    ['` #` starts a YAML comment', 'yaml', 'rules:\n  - expression: a == b\n', 'rules:\n  - expression: a #= b\n'],
    ['a line break inside a YAML string', 'yaml', 'rules:\n  - expression: "a == b"\n', 'rules:\n  - expression: "a =\n= b"\n'],
    ['the indentation of a folded string changes', 'yaml', 'rules:\n  - expression: a ==\n      b\n', 'rules:\n  - expression: a ==\n     b\n'],
    ['a line break is typed into a folded string', 'yaml', 'rules:\n  - expression: a ==\n      b c\n', 'rules:\n  - expression: a ==\n      b\n c\n'],
    ['the edit is in a key', 'yaml', 'rules:\n  - expression: a\n', 'rules:\n  - expresion: a\n'],
    ['a plain scalar that becomes a number', 'yaml', 'rules:\n  - expression: 1a2\n', 'rules:\n  - expression: 102\n'],
    ['`,` in a plain scalar inside `{…}`', 'yaml', 'rules:\n  - {expression: a b}\n', 'rules:\n  - {expression: a, b}\n'],
  ] as const) {
    it(`falls back to a full parse when ${why}`, () => {
      assert.equal(reparseAfterEdit(parseRuleset(before, format), after), undefined);
    });
  }

  it('falls back to a full parse while the previous version has syntax errors', () => {
    const before = parseRuleset('{"rules": [{"expression": "a == b"}]', 'json');
    assert.ok(before.syntaxProblems.length > 0);
    assert.equal(reparseAfterEdit(before, '{"rules": [{"expression": "a == c"}]'), undefined);
  });

  it('re-reads an expression folded over two lines, as YAML.stringify writes a long one', () => {
    const text = YAML.stringify({ rules: [{ action: 'block', expression: `tcp.flags.syn and not tcp.flags.ack and tcp.dstport in {382} and ip.ttl < 182` }] });
    assert.match(text, /and\n +ip\.ttl/);
    const before = parseRuleset(text, 'yaml');
    assert.ok(assertSameAsFullParse(before, text.replace('{382}', '{383}')));
    assert.equal(reparseAfterEdit(before, text.replace('{382}', '{383}'))?.expressions[0].text, 'tcp.flags.syn and not tcp.flags.ack and tcp.dstport in {383} and ip.ttl < 182');
  });

  it('keeps the YAML library honest: the generated documents parse', () => {
    // The generator's documents must be YAML that says what it means, or the property is vacuous.
    const text = yamlDocument([{ expression: "http.host eq \"a'b\"", style: 'plain', description: "it's # not a comment" }, { expression: 'a', style: 'flow', description: '' }]);
    assert.deepEqual(YAML.parse(text).rules.map((r: { expression: string }) => r.expression), ["http.host eq \"a'b\"", 'a']);
  });
});
