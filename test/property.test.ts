import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import * as YAML from 'yaml';

import { checkExpression } from '../server/src/language/checker';
import { formatOfPath } from '../server/src/documents/classify';
import { ExpressionCache } from '../server/src/documents/expression-cache';
import { toPositions } from '../server/src/documents/positions';
import { checkRuleset } from '../server/src/documents/ruleset';
import { parseRuleset, type DocumentProblem } from '../server/src/documents/parsed-ruleset';
import type { HostFormat } from '../server/src/documents/host/host';
import type { DocumentSymbol, Range } from 'vscode-languageserver';
import { documentSymbols } from '../server/src/features/symbols';
import { modelOf, settings } from './features/harness';

// Properties of the whole pipeline on arbitrary input: nothing throws, every call finishes
// quickly, and every range lies inside the text it is about. numRuns are kept modest so the
// file runs in a few seconds; a failure prints the shrunk counterexample and its seed.

const EXAMPLES = join(__dirname, '..', 'examples');

/** Longest time one check may take before it counts as not finishing. */
const SLOW_MS = 2_000;

function timed<T>(what: string, input: string, f: () => T): T {
  const start = performance.now();
  const result = f();
  const elapsed = performance.now() - start;
  assert.ok(elapsed < SLOW_MS, `${what} took ${elapsed.toFixed(0)} ms on ${JSON.stringify(input)}`);
  return result;
}

// ------------------------------------------------------------------ inputs

interface ExampleDocument {
  readonly name: string;
  readonly format: HostFormat;
  readonly text: string;
}

// Subfolders too; a folder's `.rulesets.yaml` is no ruleset.
const documents: ExampleDocument[] = readdirSync(EXAMPLES, { recursive: true, encoding: 'utf8' })
  .filter((name) => formatOfPath(name) !== undefined && !name.endsWith('.rulesets.yaml'))
  .sort()
  .map((name) => ({ name, format: formatOfPath(name)!, text: readFileSync(join(EXAMPLES, name), 'utf8') }));

/** Every expression of the examples (mistakes included), plus a few that use more of the language. */
const validExpressions: string[] = [
  ...new Set([
    ...documents.flatMap((d) => parseRuleset(d.text, d.format).expressions.map((e) => e.text)),
    'tcp.flags & 0x12 and not tcp.flags.ack',
    'bit_slice(udp, 64, 72) == 0x45 && ip.len > 100',
    'ip.src in {10.0.0.0/8 192.0.2.1..192.0.2.9 2001:db8::/32} xor (ip.ttl le 5)',
    'cf.colo.name matches r#"^[a-z]+"# or ip.src.asnum in {13335 64512..65534}',
    'udp.dstport in {53 5353} and ip.proto eq "udp" and sip',
    'ip.ttl > 3 and ip.proto == "udp" and (tcp.dstport == 22 or tcp.dstport == 23)',
    'sip and ip.proto in {"tcp" "gre"} or icmp.type == 8 && tcp.flags.syn',
    'true',
  ]),
];

/** Characters that matter to the expression language and to the host formats. */
const SPECIAL = ['"', '\\', '{', '}', '(', ')', '$', '\t', '😀', ' ', '\n', '\r', '#', ',', '.', ':', '/', '&', '!', '=', '<', '~', 'r', '0', 'x', '\ud83d'];

const specialChar = fc.constantFrom(...SPECIAL);
const anyChar = fc.oneof(specialChar, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }));

/** Tokens of the language, so random strings often get past the first character. */
const TOKENS = [
  'ip.src', 'ip.dst', 'tcp.dstport', 'udp.srcport', 'ip.geoip.country', 'ip.proto', 'tcp.flags', 'tcp.flags.syn', 'sip', 'ip.len',
  'cf.colo.name', 'ip.src.asnum', 'bit_slice', 'foo.bar', '==', '!=', 'eq', 'in', 'contains', 'matches', 'wildcard', 'strict wildcard',
  '&', 'bitwise_and', '<', '>=', 'and', 'or', 'xor', 'not', '&&', '||', '^^', '!', '(', ')', '{', '}', ',', '..', '$svc.vpn', '$my_list',
  '$', '"tcp"', '"BR"', '"\\x41"', '"\\n"', 'r#"a"#', 'r"', '"', '22', '-1', '0x1f', '080', '70000', '99999999999999999999', '10.0.0.0/8',
  '192.0.2.1', '::1', '2001:db8::/129', 'aa:bb:cc', 'true', 'false', ' ', ' ', '\t', '\n', '#', '😀',
];

const tokenString = fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((parts) => parts.join(' '));
const glued = fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }).map((parts) => parts.join(''));

const randomExpression = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc.string({ unit: anyChar, maxLength: 120 }),
  tokenString,
  glued,
);

type Edit = { kind: 'insert' | 'delete' | 'replace'; at: number; length: number; text: string };

const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'replace') as fc.Arbitrary<Edit['kind']>,
  // An integer taken modulo the length: fast-check's doubles favour 0 and 1, which would put
  // most edits at the ends of the text.
  at: fc.nat({ max: 1_000_000 }),
  length: fc.integer({ min: 1, max: 4 }),
  text: fc.oneof(fc.string({ unit: anyChar, minLength: 1, maxLength: 3 }), fc.constantFrom(...TOKENS)),
});

function applyEdits(text: string, edits: readonly Edit[]): string {
  for (const e of edits) {
    const at = e.at % (text.length + 1);
    if (e.kind === 'insert') text = text.slice(0, at) + e.text + text.slice(at);
    else if (e.kind === 'delete') text = text.slice(0, at) + text.slice(at + e.length);
    else text = text.slice(0, at) + e.text + text.slice(at + e.length);
  }
  return text;
}

const editedExpression = fc
  .tuple(fc.constantFrom(...validExpressions), fc.array(edit, { minLength: 1, maxLength: 6 }))
  .map(([base, edits]) => applyEdits(base, edits));

const editedDocument = fc
  .tuple(fc.constantFrom(...documents), fc.array(edit, { minLength: 1, maxLength: 8 }))
  .map(([doc, edits]) => ({ ...doc, text: applyEdits(doc.text, edits) }));

// ------------------------------------------------------------------ assertions

function assertExpressionResult(text: string): void {
  const result = timed('checkExpression', text, () => checkExpression(text, { phase: 'magic_transit' }));
  let previous = -1;
  for (const p of result.problems) {
    const label = `${p.code} ${p.span.start}..${p.span.end} in ${JSON.stringify(text)} (length ${text.length})`;
    assert.ok(0 <= p.span.start && p.span.start <= p.span.end && p.span.end <= text.length, label);
    assert.ok(p.span.start >= previous, `problems sorted by start: ${label}`);
    previous = p.span.start;
    assert.ok(p.message.length > 0, label);
    for (const fix of p.fixes ?? []) {
      for (const e of fix.edits) assert.ok(0 <= e.span.start && e.span.start <= e.span.end && e.span.end <= text.length, `fix of ${label}`);
    }
    for (const r of p.related ?? []) assert.ok(0 <= r.span.start && r.span.start <= r.span.end && r.span.end <= text.length, `related of ${label}`);
  }
}

/** Whether `offset` falls between a high surrogate and the low one after it. */
function splitsSurrogatePair(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const [before, after] = [text.charCodeAt(offset - 1), text.charCodeAt(offset)];
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** Lines as LSP counts them: CRLF, CR and LF all end a line. */
function lineLengths(text: string): number[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.length);
}

function assertDocumentResult(text: string, format: HostFormat, problems: readonly DocumentProblem[]): void {
  let previous = -1;
  for (const p of problems) {
    const label = `${p.code} ${p.start}..${p.end} in ${format} ${JSON.stringify(text)} (length ${text.length})`;
    assert.ok(0 <= p.start && p.start <= p.end && p.end <= text.length, label);
    // An editor underlines whole characters: an end between the halves of an emoji is off by one.
    assert.ok(!splitsSurrogatePair(text, p.start) && !splitsSurrogatePair(text, p.end), `between the halves of a surrogate pair: ${label}`);
    assert.ok(p.start >= previous, `problems sorted by start: ${label}`);
    previous = p.start;
    for (const fix of p.fixes ?? []) {
      for (const e of fix.edits) assert.ok(0 <= e.start && e.start <= e.end && e.end <= text.length, `fix of ${label}`);
    }
    for (const r of p.related ?? []) assert.ok(0 <= r.start && r.start <= r.end && r.end <= text.length, `related of ${label}`);
  }
  const lines = lineLengths(text);
  for (const p of toPositions(text, problems)) {
    for (const end of [p.range.start, p.range.end]) {
      const label = `${p.code} at ${JSON.stringify(end)} in ${JSON.stringify(text)}`;
      assert.ok(end.line >= 0 && end.line < lines.length, label);
      assert.ok(end.character >= 0 && end.character <= lines[end.line], label);
    }
    const { start, end } = p.range;
    assert.ok(start.line < end.line || (start.line === end.line && start.character <= end.character), `start before end: ${p.code}`);
  }
}

const startsBefore = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character <= b.character);
const rangeInside = (inner: Range, outer: Range) => startsBefore(outer.start, inner.start) && startsBefore(inner.end, outer.end);

/** LSP requires each symbol's selectionRange inside its range, and each child inside its parent. */
function assertSymbolsNest(text: string, symbols: readonly DocumentSymbol[], parent?: DocumentSymbol): void {
  for (const symbol of symbols) {
    assert.ok(rangeInside(symbol.selectionRange, symbol.range), `selectionRange of ${symbol.name} inside its range in ${JSON.stringify(text)}`);
    if (parent) assert.ok(rangeInside(symbol.range, parent.range), `${symbol.name} ${JSON.stringify(symbol.range)} inside ${parent.name} ${JSON.stringify(parent.range)} in ${JSON.stringify(text)}`);
    assertSymbolsNest(text, symbol.children ?? [], symbol);
  }
}

function checkDocument(text: string, format: HostFormat): DocumentProblem[] {
  // A fresh cache per document would hide nothing; a shared one keeps the file fast.
  const problems = timed(`checkRuleset(${format})`, text, () => checkRuleset(text, format, { cache }));
  assertDocumentResult(text, format, problems);
  return problems;
}

const cache = new ExpressionCache();

// ------------------------------------------------------------------ properties

describe('property: expressions', { timeout: 60_000 }, () => {
  it('random strings never throw, finish, and every range lies inside the expression', () => {
    fc.assert(fc.property(randomExpression, assertExpressionResult), { numRuns: 400 });
  });

  it('random edits of valid expressions never throw, finish, and every range lies inside', () => {
    fc.assert(fc.property(editedExpression, assertExpressionResult), { numRuns: 400 });
  });

  it('inputs around and beyond the 4,096-character limit finish too', () => {
    const long = fc.array(fc.constantFrom(...TOKENS), { minLength: 500, maxLength: 2_000 }).map((parts) => parts.join(' '));
    fc.assert(fc.property(long, assertExpressionResult), { numRuns: 30 });
  });

  it('the same holds in phases with incomplete field tables and with known lists', () => {
    fc.assert(
      fc.property(fc.oneof(editedExpression, randomExpression), fc.constantFrom('magic_transit_managed', 'no_such_phase', undefined), (text, phase) => {
        for (const options of [{ phase }, { phase, knownLists: ['my_list'] }]) {
          const result = checkExpression(text, options);
          for (const p of result.problems) assert.ok(0 <= p.span.start && p.span.start <= p.span.end && p.span.end <= text.length, `${p.code} in ${JSON.stringify(text)}`);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('property: documents', { timeout: 60_000 }, () => {
  it('random edits of the example documents never throw, finish, and every range lies inside', () => {
    fc.assert(
      fc.property(editedDocument, (doc) => {
        checkDocument(doc.text, doc.format);
        // The other format's parser must cope with the same text too.
        checkDocument(doc.text, doc.format === 'json' ? 'yaml' : 'json');
      }),
      { numRuns: 250 },
    );
  });

  it('random edits with CRLF line ends behave the same', () => {
    fc.assert(
      fc.property(editedDocument, (doc) => {
        checkDocument(doc.text.replace(/\r?\n/g, '\r\n'), doc.format);
      }),
      { numRuns: 100 },
    );
  });

  it('random text read as a JSON or YAML document never throws, and its ranges lie inside', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: anyChar, maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 })), fc.constantFrom<HostFormat>('json', 'yaml'), (text, format) => {
        checkDocument(text, format);
      }),
      { numRuns: 200 },
    );
  });

  it('document symbols of any JSON or YAML document nest: each selection inside its range, each child inside its parent (Terraform: property-terraform.test.ts)', () => {
    // The line of a fuzzed ruleset whose rule the YAML library ran past its list (issue 35),
    // put where the edits may meet it.
    const FUZZED_LINE = '    {1.2.3.4 10.0.0.0/8 ::1} wildcard andexpression: >-\n';
    const withFuzzedLine = fc.tuple(editedDocument, fc.nat({ max: 1_000 })).map(([doc, n]) => {
      const breaks = [...doc.text.matchAll(/\n/g)].map((m) => m.index! + 1);
      const at = breaks.length > 0 ? breaks[n % breaks.length] : doc.text.length;
      return { ...doc, text: doc.text.slice(0, at) + FUZZED_LINE + doc.text.slice(at) };
    });
    const anyDocument = fc.oneof(editedDocument, withFuzzedLine, fc.record({ format: fc.constantFrom<HostFormat>('json', 'yaml'), text: fc.string({ unit: anyChar, maxLength: 200 }) }));
    fc.assert(
      fc.property(anyDocument, ({ text, format }) => {
        for (const f of [format, format === 'json' ? 'yaml' : 'json'] as const) assertSymbolsNest(text, documentSymbols(modelOf(text, f), settings()));
      }),
      { numRuns: 300 },
    );
  });

  it('the problems of any document come sorted by start', () => {
    const anyDocument = fc.oneof(
      editedDocument,
      fc.record({ format: fc.constantFrom<HostFormat>('json', 'yaml'), text: fc.string({ unit: anyChar, maxLength: 200 }) }),
    );
    fc.assert(
      fc.property(anyDocument, ({ text, format }) => {
        const problems = checkRuleset(text, format, { cache });
        for (let i = 1; i < problems.length; i++) {
          assert.ok(problems[i - 1].start <= problems[i].start, `problem ${i} of ${JSON.stringify(text)} starts before the one above it`);
        }
        const positioned = toPositions(text, problems);
        for (let i = 1; i < positioned.length; i++) {
          const [a, b] = [positioned[i - 1].range.start, positioned[i].range.start];
          assert.ok(a.line < b.line || (a.line === b.line && a.character <= b.character), `positions of ${JSON.stringify(text)} in order`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('any expression written into a JSON or YAML document maps back inside its own string, and reads back unchanged', () => {
    const styles = ['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'] as const;
    fc.assert(
      fc.property(fc.oneof(editedExpression, randomExpression), fc.constantFrom('json' as const, ...styles), fc.boolean(), (expression, style, crlf) => {
        const ruleset = { name: 'p', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression }] };
        const format: HostFormat = style === 'json' ? 'json' : 'yaml';
        let text = style === 'json' ? JSON.stringify(ruleset, null, 2) : YAML.stringify(ruleset, { defaultStringType: style, lineWidth: 40 });
        if (crlf) text = text.replace(/\n/g, '\r\n');
        // The host library must read its own output back; where it does not, there is nothing to test.
        let libraryValue: unknown;
        let bounds: [number, number];
        if (format === 'json') {
          libraryValue = (JSON.parse(text) as typeof ruleset).rules[0].expression;
          const token = JSON.stringify(expression);
          const at = text.lastIndexOf(token);
          bounds = [at, at + token.length];
        } else {
          const doc = YAML.parseDocument(text);
          fc.pre(doc.errors.length === 0);
          const node = doc.getIn(['rules', 0, 'expression'], true);
          fc.pre(YAML.isScalar(node) && node.range !== undefined && node.range !== null);
          libraryValue = (node as YAML.Scalar).value;
          bounds = [(node as YAML.Scalar).range![0], (node as YAML.Scalar).range![1]];
        }
        fc.pre(libraryValue === expression);

        const model = parseRuleset(text, format);
        assert.equal(model.expressions.length, 1);
        assert.equal(model.expressions[0].text, expression);

        // Whitespace at an end is the host's to judge (a block scalar's own line breaks are not
        // said: test/documents/ruleset.test.ts); every other finding is the expression's.
        const expected = checkExpression(expression, { phase: 'magic_transit' }).problems.filter((p) => p.code !== 'edge-whitespace');
        const problems = checkDocument(text, format);
        assert.deepEqual(
          problems.filter((p) => p.code !== 'edge-whitespace').map((p) => p.code).sort(),
          expected.map((p) => p.code).sort(),
          'the document has exactly the problems of its expression',
        );
        for (const p of problems) {
          assert.ok(bounds[0] <= p.start && p.end <= bounds[1], `${p.code} ${p.start}..${p.end} outside the scalar ${bounds[0]}..${bounds[1]} of ${JSON.stringify(text)}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
