/**
 * HCL strings decoded with their offset maps: generated strings in every style (quoted with
 * every escape, `<<EOT` and `<<-EOT` heredocs, `$${` and `%%{`, interpolations and directives),
 * each written piece by piece so that where every decoded unit comes from is known beforehand;
 * the decoder must send each unit to exactly those characters, read alone and read from a `.tf`
 * file by the parser.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { decodeHclTemplate, holeFiller, plainQuotedValue, type Range } from '../../server/src/documents/host/decode-hcl';
import { encodeForScalar } from '../../server/src/documents/host/host';
import { parseDocument } from '../../server/src/documents/parsed-document';
import { loadTerraformParser } from '../../server/src/documents/terraform';

/** Source text, and the units it decodes to (`$${` decodes to `$` from `$$` and `{` from `{`); a hole decodes to a stand-in. */
interface Piece {
  readonly source: string;
  readonly units: readonly { readonly text: string; readonly from: number; readonly to: number }[] | 'hole';
}

/** Each code unit from itself. */
const literal = (source: string): Piece => ({ source, units: [...source.split('')].map((text, i) => ({ text, from: i, to: i + 1 })) });
const escape = (source: string, value: string): Piece => ({ source, units: [{ text: value, from: 0, to: source.length }] });
const doubled = (source: string): Piece => ({ source, units: [{ text: source[0], from: 0, to: 2 }, { text: '{', from: 2, to: 3 }] });
const hole = (source: string): Piece => ({ source, units: 'hole' });

const SHARED: readonly Piece[] = [
  literal('a'),
  literal('ip.src'),
  literal(' '),
  literal('é'),
  literal('😀'),
  literal('{'),
  literal('}'),
  literal('$a'),
  literal('%a'),
  doubled('$${'),
  doubled('%%{'),
  hole('${var.x}'),
  hole('${join(" ", ["}"])}'),
  hole('%{ if var.b }x%{ endif }'),
];
const QUOTED: readonly Piece[] = [
  ...SHARED,
  escape('\\"', '"'),
  escape('\\\\', '\\'),
  escape('\\n', '\n'),
  escape('\\r', '\r'),
  escape('\\t', '\t'),
  escape('\\u00e9', 'é'),
  escape('\\U0001F600', '😀'),
  literal('\t'),
];
/** In a heredoc a backslash and a quote are themselves. */
const HEREDOC: readonly Piece[] = [...SHARED, literal('"'), literal('\\'), literal('\\n'), literal('\t')];

interface Expected {
  readonly value: string;
  readonly starts: number[];
  readonly ends: number[];
  readonly holes: Range[];
  /** The holes' places in the file. */
  readonly holeSources: Range[];
}

/** What decoding the pieces written from `offset` on must give. */
function expectedOf(pieces: readonly Piece[], offset: number, expected: Expected = { value: '', starts: [], ends: [], holes: [], holeSources: [] }): Expected {
  let { value } = expected;
  for (const piece of pieces) {
    if (piece.units === 'hole') {
      const filler = holeFiller(value);
      expected.holes.push({ start: value.length, end: value.length + filler.length });
      expected.holeSources.push({ start: offset, end: offset + piece.source.length });
      for (let i = 0; i < filler.length; i++) {
        expected.starts.push(offset);
        expected.ends.push(offset + piece.source.length);
      }
      value += filler;
    } else {
      for (const unit of piece.units) {
        for (let i = 0; i < unit.text.length; i++) {
          expected.starts.push(offset + unit.from);
          expected.ends.push(offset + unit.to);
        }
        value += unit.text;
      }
    }
    offset += piece.source.length;
  }
  return { ...expected, value };
}

function assertDecoded(actual: ReturnType<typeof decodeHclTemplate>, expected: Expected, text: string): void {
  assert.ok(actual, text);
  assert.equal(actual.decoded.value, expected.value, text);
  assert.deepEqual([...actual.decoded.starts], expected.starts, text);
  assert.deepEqual([...actual.decoded.ends], expected.ends, text);
  assert.deepEqual(actual.holes, expected.holes, text);
}

const PREFIX = 'resource "cloudflare_ruleset" "r" {\n  rules = [{\n    expression = ';
const SUFFIX = '\n  }]\n}\n';

/** The file's one expression site, decoded, as decodeHclTemplate gives it. */
function siteOf(text: string): ReturnType<typeof decodeHclTemplate> {
  const document = parseDocument(text, 'hcl');
  // No syntax problem; the one hint on its rule without a `ref` is firewall-rules.test.ts's.
  assert.deepEqual(document.problems.filter((p) => p.code !== 'terraform-rules-without-ref'), [], text);
  const [site] = document.rulesets[0].sites;
  const decoded = site.decoded();
  return { decoded, holes: site.holes ?? [] };
}

/** A quoted string: the pieces between quotes. */
const quoted = fc.array(fc.constantFrom(...QUOTED), { maxLength: 12 });

/**
 * A heredoc's lines, each of pieces. A line does not start with whitespace, so that the
 * indentation `<<-` removes is the one written before it; an empty line is written without
 * indentation, which `<<-` leaves as it is.
 */
const heredocLines = fc.array(
  fc.array(fc.constantFrom(...HEREDOC), { maxLength: 5 }).map((line) => (line.length > 0 && /^\s/.test(line[0].source) ? [literal('a'), ...line] : line)),
  { maxLength: 5 },
);

describe('decodeHclTemplate', () => {
  before(() => loadTerraformParser());

  it('maps every unit of a quoted string to its escape or character, read alone and from a file', () => {
    fc.assert(
      fc.property(quoted, (pieces) => {
        const body = pieces.map((p) => p.source).join('');
        const text = `${PREFIX}"${body}"${SUFFIX}`;
        const start = PREFIX.length;
        const expected = expectedOf(pieces, start + 1);
        assertDecoded(decodeHclTemplate(text, start, start + body.length + 2, expected.holeSources), expected, text);
        assertDecoded(siteOf(text), expected, text);
        // The value read without the offset map, where it is (no holes, escapes JSON shares), is the decoder's.
        const value = expected.holeSources.length === 0 ? plainQuotedValue(text, start, start + body.length + 2) : undefined;
        if (value !== undefined) assert.equal(value, expected.value, text);
        assert.equal(parseDocument(text, 'hcl').rulesets[0]?.expressions[0]?.text, expected.value, text);
      }),
      { numRuns: 1_500 },
    );
  });

  for (const [what, marker, indent] of [
    ['a `<<EOT` heredoc', '<<EOT', ''],
    ['a `<<-EOT` heredoc, without its indentation', '<<-EOT', '      '],
    ['a `<<-EOT` heredoc whose lines are indented unevenly', '<<-EOT', 'uneven'],
  ] as const) {
    it(`maps every unit of ${what} to its character, read alone and from a file`, () => {
      fc.assert(
        fc.property(heredocLines, fc.array(fc.nat({ max: 3 }), { minLength: 5, maxLength: 5 }), (lines, extra) => {
          const start = PREFIX.length;
          const opening = `${marker}\n`;
          let offset = start + opening.length;
          let expected: Expected = { value: '', starts: [], ends: [], holes: [], holeSources: [] };
          let written = opening;
          // Uneven: each line has 4 spaces and 0-3 more; one line at least has only the 4, which go.
          const least = Math.min(...lines.map((line, i) => (line.length > 0 ? extra[i] : Infinity)));
          lines.forEach((line, i) => {
            if (line.length === 0) {
              expected = { ...expected, value: expected.value + '\n', starts: [...expected.starts, offset], ends: [...expected.ends, offset + 1] };
              written += '\n';
              offset += 1;
              return;
            }
            const own = indent === 'uneven' ? ' '.repeat(extra[i] - least) : '';
            // What `<<-` removes; the line's own further indentation is part of its value.
            const removed = indent === 'uneven' ? ' '.repeat(4) : indent;
            written += removed;
            offset += removed.length;
            expected = expectedOf(own.length > 0 ? [literal(own), ...line] : line, offset, expected);
            const body = own + line.map((p) => p.source).join('');
            written += `${body}\n`;
            offset += body.length;
            expected = { ...expected, value: expected.value + '\n', starts: [...expected.starts, offset], ends: [...expected.ends, offset + 1] };
            offset += 1;
          });
          written += `${indent === 'uneven' ? '    ' : indent}EOT`;
          const text = `${PREFIX}${written}${SUFFIX}`;
          assertDecoded(decodeHclTemplate(text, start, start + written.length, expected.holeSources), expected, text);
          assertDecoded(siteOf(text), expected, text);
        }),
        { numRuns: 800 },
      );
    });
  }

  it('reads back any text encoded for a quoted string or a heredoc, and nothing of it as an interpolation', () => {
    const units = fc.constantFrom('a', ' ', '"', '\\', '$', '%', '{', '}', '\n', '\t', 'é', '😀', '$$', '%%', 'u', 'n');
    fc.assert(
      fc.property(fc.array(units, { maxLength: 20 }).map((parts) => parts.join('')), (value) => {
        const quotedText = `${PREFIX}"${encodeForScalar('hcl-quoted', value)}"${SUFFIX}`;
        const fromQuoted = siteOf(quotedText);
        assert.equal(fromQuoted?.decoded.value, value, quotedText);
        assert.deepEqual(fromQuoted?.holes, [], quotedText);
        // A heredoc holds line breaks as they are. It has no escapes, so a `$` just before `${`
        // cannot be written for the tree-sitter grammar to read it as Terraform does (host.ts).
        if (/\$\$\{|%%\{/.test(value)) return;
        const heredocText = `${PREFIX}<<EOT\n${encodeForScalar('hcl-heredoc', value)}\nEOT${SUFFIX}`;
        const fromHeredoc = siteOf(heredocText);
        assert.equal(fromHeredoc?.decoded.value, `${value}\n`, heredocText);
        assert.deepEqual(fromHeredoc?.holes, [], heredocText);
      }),
      { numRuns: 1_500 },
    );
  });

  it('reads the value of a quoted string with the escapes JSON shares without decoding it unit by unit, and leaves the others to the decoder', () => {
    const read = (body: string) => plainQuotedValue(`"${body}"`, 0, body.length + 2);
    assert.equal(read('ip.src'), 'ip.src');
    assert.equal(read('http.host eq \\"a\\" and \\\\ \\n\\t\\u00e9'), 'http.host eq "a" and \\ \n\té');
    for (const other of ['\\U0001F600', '\\ud83d', '$${x}', '%%{x}', 'a\tb\\n', '\\x41']) assert.equal(read(other), undefined, other);
  });

  it('chooses the stand-in of a hole as the text before it, read whole, would: reading as it decodes changes nothing', () => {
    const piece = fc.oneof(fc.constantFrom('r', '#', '"', '\\', 'i', 'n', 'in', ' ', '.', '$', '\n', '\t', '\u00a0', '\u2028', 'é', '_', '9', 'x', 'r#"', '"#'), fc.string({ unit: 'binary', maxLength: 1 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }).map((parts) => parts.join('')), (before) => assert.equal(holeFiller(before), fillerReadingTheWholeText(before), JSON.stringify(before))),
      { numRuns: 20_000 },
    );
  });

  it('stands in for a hole with letters inside a string, a list after `in`, and a field elsewhere', () => {
    assert.equal(holeFiller('http.host eq "a'), 'terraform');
    assert.equal(holeFiller('http.host eq r#"a"'), 'terraform');
    assert.equal(holeFiller('ip.src in '), '$terraform');
    assert.equal(holeFiller('http.host eq "in" and '), 'terraform');
    assert.equal(holeFiller('http.host eq "x" and ip.src in'), '$terraform');
  });
});

/**
 * What holeFiller answered when it read the whole text before each hole (quadratic in a string
 * of many holes, so replaced), kept as the reference the incremental reading is held to.
 */
function fillerReadingTheWholeText(before: string): string {
  if (insideStringReadingTheWholeText(before)) return 'terraform';
  if (/(?:^|[^\w.])in\s*$/.test(before)) return '$terraform';
  return 'terraform';
}

function insideStringReadingTheWholeText(before: string): boolean {
  let i = 0;
  while (i < before.length) {
    const c = before[i];
    if (c === '"') {
      i++;
      while (i < before.length && before[i] !== '"') i += before[i] === '\\' ? 2 : 1;
      if (i >= before.length) return true;
      i++;
    } else if (c === 'r' && (i === 0 || !/\w/.test(before[i - 1]))) {
      const raw = /^r(#*)"/.exec(before.slice(i, i + 300));
      if (!raw) {
        i++;
        continue;
      }
      const close = before.indexOf(`"${raw[1]}`, i + raw[0].length);
      if (close === -1) return true;
      i = close + 1 + raw[1].length;
    } else i++;
  }
  return false;
}
