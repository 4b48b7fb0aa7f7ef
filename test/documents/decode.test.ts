import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as yaml from 'yaml';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { decodeJsonString } from '../../server/src/documents/host/decode-json';
import { decodeYamlScalar, decodeYamlScalarExact, YamlDecodedString } from '../../server/src/documents/host/decode-yaml';
import { DecodedString, mapRange, unmapOffset } from '../../server/src/documents/host/offset-map';

// Expected offsets and positions in this file are counted by hand from the literal documents.

interface Expected {
  /** The decoded code unit. */
  char: string;
  /** Document offset where its source starts. */
  offset: number;
  /** Document offset where its source ends (exclusive); defaults to offset + 1. */
  end?: number;
  /** LSP position of `offset`. */
  line: number;
  character: number;
}

function expectUnit(text: string, decoded: DecodedString, index: number, expected: Expected): void {
  const label = `unit ${index} of ${JSON.stringify(decoded.value)}`;
  assert.equal(decoded.value[index], expected.char, `${label}: char`);
  assert.equal(decoded.starts[index], expected.offset, `${label}: start`);
  assert.equal(decoded.ends[index], expected.end ?? expected.offset + 1, `${label}: end`);
  const position = TextDocument.create('file:///doc', 'plaintext', 1, text).positionAt(expected.offset);
  assert.deepEqual(position, { line: expected.line, character: expected.character }, `${label}: position`);
}

/** Decodes the JSON string at `path`, checking the value against jsonc-parser's. */
function jsonAt(text: string, path: (string | number)[]): DecodedString {
  const node = findNodeAtLocation(parseTree(text)!, path);
  assert.ok(node && node.type === 'string', `no string at ${path.join('.')}`);
  const decoded = decodeJsonString(text, node.offset, node.offset + node.length);
  assert.ok(decoded);
  assert.equal(decoded.value, node.value);
  return decoded;
}

function yamlNode(text: string, path: (string | number)[], keepSourceTokens = true): yaml.Scalar {
  const doc = yaml.parseDocument(text, { keepSourceTokens });
  const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
  assert.ok(yaml.isScalar(node), `no scalar at ${path.join('.')}`);
  return node;
}

/** Decodes the YAML scalar at `path`, requiring the exact path and the library's value. */
function yamlAt(text: string, path: (string | number)[], expectedValue: string): YamlDecodedString {
  const node = yamlNode(text, path);
  const decoded = decodeYamlScalar(text, node);
  assert.ok(decoded);
  assert.equal(decoded.exact, true, `coarse fallback for ${JSON.stringify(text)}`);
  assert.equal(decoded.value, node.source);
  assert.equal(decoded.value, expectedValue);
  assert.equal(decoded.starts.length, decoded.value.length);
  return decoded;
}

describe('decodeJsonString', () => {
  it('maps the simple escapes and the characters after them', () => {
    const text = String.raw`{"expression": "A\"B\\C\/D\bE\fF\nG\rH\tI"}`;
    const d = jsonAt(text, ['expression']);
    assert.equal(d.value, 'A"B\\C/D\bE\fF\nG\rH\tI');
    assert.equal(d.contentStart, 16);
    assert.equal(d.contentEnd, 41);
    expectUnit(text, d, 0, { char: 'A', offset: 16, line: 0, character: 16 });
    expectUnit(text, d, 1, { char: '"', offset: 17, end: 19, line: 0, character: 17 });
    expectUnit(text, d, 2, { char: 'B', offset: 19, line: 0, character: 19 });
    expectUnit(text, d, 3, { char: '\\', offset: 20, end: 22, line: 0, character: 20 });
    expectUnit(text, d, 5, { char: '/', offset: 23, end: 25, line: 0, character: 23 });
    expectUnit(text, d, 7, { char: '\b', offset: 26, end: 28, line: 0, character: 26 });
    expectUnit(text, d, 9, { char: '\f', offset: 29, end: 31, line: 0, character: 29 });
    expectUnit(text, d, 11, { char: '\n', offset: 32, end: 34, line: 0, character: 32 });
    expectUnit(text, d, 13, { char: '\r', offset: 35, end: 37, line: 0, character: 35 });
    expectUnit(text, d, 15, { char: '\t', offset: 38, end: 40, line: 0, character: 38 });
    expectUnit(text, d, 16, { char: 'I', offset: 40, line: 0, character: 40 });
  });

  it('maps a \\u escape to its six characters', () => {
    const text = String.raw`{"expression": "caf\u00e9 B"}`;
    const d = jsonAt(text, ['expression']);
    assert.equal(d.value, 'café B');
    expectUnit(text, d, 3, { char: 'é', offset: 19, end: 25, line: 0, character: 19 });
    expectUnit(text, d, 5, { char: 'B', offset: 26, line: 0, character: 26 });
  });

  it('maps each half of an escaped surrogate pair to its own escape', () => {
    const text = String.raw`{"expression": "\ud83d\ude00Y"}`;
    const d = jsonAt(text, ['expression']);
    assert.equal(d.value, '😀Y');
    expectUnit(text, d, 0, { char: '\ud83d', offset: 16, end: 22, line: 0, character: 16 });
    expectUnit(text, d, 1, { char: '\ude00', offset: 22, end: 28, line: 0, character: 22 });
    expectUnit(text, d, 2, { char: 'Y', offset: 28, line: 0, character: 28 });
  });

  it('maps raw non-ASCII and astral characters unit by unit', () => {
    const text = '{"expression": "é😀X"}';
    const d = jsonAt(text, ['expression']);
    assert.equal(d.value, 'é😀X');
    expectUnit(text, d, 0, { char: 'é', offset: 16, line: 0, character: 16 });
    expectUnit(text, d, 1, { char: '\ud83d', offset: 17, line: 0, character: 17 });
    expectUnit(text, d, 2, { char: '\ude00', offset: 18, line: 0, character: 18 });
    expectUnit(text, d, 3, { char: 'X', offset: 19, line: 0, character: 19 });
  });

  it('lands on the right line and character in a CRLF document', () => {
    const text = '{\r\n  "expression": "a\\u00e9b"\r\n}';
    const d = jsonAt(text, ['expression']);
    assert.equal(d.value, 'aéb');
    expectUnit(text, d, 1, { char: 'é', offset: 21, end: 27, line: 1, character: 18 });
    expectUnit(text, d, 2, { char: 'b', offset: 27, line: 1, character: 24 });
  });

  it('decodes an unterminated string up to its end', () => {
    const text = '{"expression": "ab\\"c';
    const d = jsonAt(text, ['expression']);
    assert.equal(d.value, 'ab"c');
    assert.equal(d.contentEnd, text.length);
    expectUnit(text, d, 3, { char: 'c', offset: 20, line: 0, character: 20 });

    // jsonc-parser ends an unterminated string at the line break.
    const broken = '{"expression": "ab\n}';
    const e = decodeJsonString(broken, 15, broken.length);
    assert.ok(e);
    assert.equal(e.value, 'ab');
    assert.equal(e.contentEnd, 18);
  });

  it('drops malformed escapes exactly as jsonc-parser does', () => {
    // An incomplete \u escape also swallows the hex digits it read.
    const text = String.raw`{"expression": "a\qb\u12x"}`;
    const d = jsonAt(text, ['expression']);
    assert.equal(d.value, 'abx');
    expectUnit(text, d, 1, { char: 'b', offset: 19, line: 0, character: 19 });
    expectUnit(text, d, 2, { char: 'x', offset: 24, line: 0, character: 24 });
  });

  it('returns undefined when the range does not start with a quote', () => {
    assert.equal(decodeJsonString('{"a": 1}', 6, 7), undefined);
  });

  it('maps decoded ranges and document offsets both ways', () => {
    const text = String.raw`{"expression": "x\u00e9y"}`;
    const d = jsonAt(text, ['expression']);
    assert.deepEqual(mapRange(d, 1, 3), { start: 17, end: 24 });
    assert.deepEqual(mapRange(d, 3, 3), { start: 24, end: 24 });
    assert.equal(unmapOffset(d, 20), 1);
    assert.equal(unmapOffset(d, 23), 2);
  });

  it('property: a stringified string decodes to itself, unit by unit', () => {
    const unit = fc.oneof(
      fc.constantFrom('"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\0', '\x1f', '\u2028', 'é', '😀'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
    );
    fc.assert(
      fc.property(fc.string({ unit }), fc.constantFrom('\n', '\r\n'), (s, eol) => {
        const text = `{${eol}  "x": 1,${eol}  "expression": ${JSON.stringify(s)}${eol}}`;
        const d = jsonAt(text, ['expression']);
        assert.equal(d.value, s);
        for (let i = 0; i < s.length; i++) {
          const slice = text.slice(d.starts[i], d.ends[i]);
          assert.equal(JSON.parse(`"${slice}"`), s[i]);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('decodeYamlScalar: plain', () => {
  it('maps a single-line value after its key', () => {
    const text = 'expression: a + b';
    const d = yamlAt(text, ['expression'], 'a + b');
    assert.equal(d.contentStart, 12);
    assert.equal(d.contentEnd, 17);
    expectUnit(text, d, 4, { char: 'b', offset: 16, line: 0, character: 16 });
  });

  it('maps after a raw emoji and a non-ASCII character on the same line', () => {
    const text = 'expression: 😀 é B\n';
    const d = yamlAt(text, ['expression'], '😀 é B');
    expectUnit(text, d, 1, { char: '\ude00', offset: 13, line: 0, character: 13 });
    expectUnit(text, d, 5, { char: 'B', offset: 17, line: 0, character: 17 });
  });

  it('folds lines (LF)', () => {
    const text = 'expression: foo\n  bar\n\n  baz\n';
    const d = yamlAt(text, ['expression'], 'foo bar\nbaz');
    expectUnit(text, d, 3, { char: ' ', offset: 15, line: 0, character: 15 });
    expectUnit(text, d, 4, { char: 'b', offset: 18, line: 1, character: 2 });
    expectUnit(text, d, 7, { char: '\n', offset: 22, line: 2, character: 0 });
    expectUnit(text, d, 8, { char: 'b', offset: 25, line: 3, character: 2 });
  });

  it('folds lines (CRLF)', () => {
    const text = 'expression: foo\r\n  bar\r\n\r\n  baz\r\n';
    const d = yamlAt(text, ['expression'], 'foo bar\nbaz');
    expectUnit(text, d, 3, { char: ' ', offset: 15, end: 17, line: 0, character: 15 });
    expectUnit(text, d, 4, { char: 'b', offset: 19, line: 1, character: 2 });
    expectUnit(text, d, 7, { char: '\n', offset: 24, end: 26, line: 2, character: 0 });
    expectUnit(text, d, 8, { char: 'b', offset: 28, line: 3, character: 2 });
  });

  it('drops trailing blanks before a folded line break', () => {
    const text = 'expression: foo  \n  bar';
    const d = yamlAt(text, ['expression'], 'foo bar');
    expectUnit(text, d, 3, { char: ' ', offset: 17, line: 0, character: 17 });
    expectUnit(text, d, 4, { char: 'b', offset: 20, line: 1, character: 2 });
  });
});

describe('decodeYamlScalar: single-quoted', () => {
  it("maps '' to both quotes and folds a line break (LF)", () => {
    const text = "expression: 'it''s\n  ok'\n";
    const d = yamlAt(text, ['expression'], "it's ok");
    assert.equal(d.contentStart, 13);
    assert.equal(d.contentEnd, 23);
    expectUnit(text, d, 2, { char: "'", offset: 15, end: 17, line: 0, character: 15 });
    expectUnit(text, d, 3, { char: 's', offset: 17, line: 0, character: 17 });
    expectUnit(text, d, 4, { char: ' ', offset: 18, line: 0, character: 18 });
    expectUnit(text, d, 5, { char: 'o', offset: 21, line: 1, character: 2 });
  });

  it('keeps an empty line as \\n (CRLF)', () => {
    const text = "expression: 'it''s\r\n\r\n  ok'\r\n";
    const d = yamlAt(text, ['expression'], "it's\nok");
    expectUnit(text, d, 4, { char: '\n', offset: 20, end: 22, line: 1, character: 0 });
    expectUnit(text, d, 5, { char: 'o', offset: 24, line: 2, character: 2 });
  });
});

describe('decodeYamlScalar: double-quoted', () => {
  // [escape as written, decoded text, length of the escape in the source]
  const escapes: [string, string, number][] = [
    ['\\\\', '\\', 2],
    ['\\"', '"', 2],
    ['\\/', '/', 2],
    ['\\0', '\0', 2],
    ['\\a', '\x07', 2],
    ['\\b', '\b', 2],
    ['\\e', '\x1b', 2],
    ['\\f', '\f', 2],
    ['\\n', '\n', 2],
    ['\\r', '\r', 2],
    ['\\t', '\t', 2],
    ['\\v', '\v', 2],
    ['\\N', '\u0085', 2],
    ['\\_', '\u00a0', 2],
    ['\\L', '\u2028', 2],
    ['\\P', '\u2029', 2],
    ['\\ ', ' ', 2],
    ['\\\t', '\t', 2],
    ['\\x41', 'A', 4],
    ['\\u00e9', 'é', 6],
    ['\\U0001F600', '😀', 10],
  ];
  for (const [escape, decodedText, length] of escapes) {
    it(`maps the escape ${JSON.stringify(escape)} and the character after it`, () => {
      // `"` is at 12, `A` at 13, the escape starts at 14.
      const text = `expression: "A${escape}B"\n`;
      const d = yamlAt(text, ['expression'], `A${decodedText}B`);
      expectUnit(text, d, 0, { char: 'A', offset: 13, line: 0, character: 13 });
      for (let k = 0; k < decodedText.length; k++) {
        expectUnit(text, d, 1 + k, { char: decodedText[k], offset: 14, end: 14 + length, line: 0, character: 14 });
      }
      const b = 1 + decodedText.length;
      expectUnit(text, d, b, { char: 'B', offset: 14 + length, line: 0, character: 14 + length });
    });
  }

  it('maps after a raw emoji and an escape on the same line', () => {
    const text = 'expression: "😀 \\u00e9 B"';
    const d = yamlAt(text, ['expression'], '😀 é B');
    expectUnit(text, d, 3, { char: 'é', offset: 16, end: 22, line: 0, character: 16 });
    expectUnit(text, d, 5, { char: 'B', offset: 23, line: 0, character: 23 });
  });

  it('folds, joins escaped line breaks and keeps empty lines (LF)', () => {
    const text = 'expression: "a\n  b\\\n   c\n\n  d"\n';
    const d = yamlAt(text, ['expression'], 'a bc\nd');
    assert.equal(d.contentStart, 13);
    assert.equal(d.contentEnd, 29);
    expectUnit(text, d, 1, { char: ' ', offset: 14, line: 0, character: 14 });
    expectUnit(text, d, 2, { char: 'b', offset: 17, line: 1, character: 2 });
    expectUnit(text, d, 3, { char: 'c', offset: 23, line: 2, character: 3 });
    expectUnit(text, d, 4, { char: '\n', offset: 25, line: 3, character: 0 });
    expectUnit(text, d, 5, { char: 'd', offset: 28, line: 4, character: 2 });
  });

  it('folds, joins escaped line breaks and keeps empty lines (CRLF)', () => {
    const text = 'expression: "a\r\n  b\\\r\n   c\r\n\r\n  d"\r\n';
    const d = yamlAt(text, ['expression'], 'a bc\nd');
    expectUnit(text, d, 1, { char: ' ', offset: 14, end: 16, line: 0, character: 14 });
    expectUnit(text, d, 2, { char: 'b', offset: 18, line: 1, character: 2 });
    expectUnit(text, d, 3, { char: 'c', offset: 25, line: 2, character: 3 });
    expectUnit(text, d, 4, { char: '\n', offset: 28, end: 30, line: 3, character: 0 });
    expectUnit(text, d, 5, { char: 'd', offset: 32, line: 4, character: 2 });
  });

  it('drops blanks before a line break but keeps inner ones', () => {
    const text = 'expression: "a  b  \n  c"';
    const d = yamlAt(text, ['expression'], 'a  b c');
    expectUnit(text, d, 2, { char: ' ', offset: 15, line: 0, character: 15 });
    expectUnit(text, d, 4, { char: ' ', offset: 19, line: 0, character: 19 });
    expectUnit(text, d, 5, { char: 'c', offset: 22, line: 1, character: 2 });
  });
});

describe('decodeYamlScalar: literal block', () => {
  it('keeps line breaks and extra indentation, clips the end', () => {
    const text = 'expression: |\n  line1\n    indented\n\n  last\nnext: 1\n';
    const d = yamlAt(text, ['expression'], 'line1\n  indented\n\nlast\n');
    assert.equal(d.contentStart, 14);
    expectUnit(text, d, 0, { char: 'l', offset: 16, line: 1, character: 2 });
    expectUnit(text, d, 5, { char: '\n', offset: 21, line: 1, character: 7 });
    expectUnit(text, d, 6, { char: ' ', offset: 24, line: 2, character: 2 });
    expectUnit(text, d, 8, { char: 'i', offset: 26, line: 2, character: 4 });
    expectUnit(text, d, 16, { char: '\n', offset: 34, line: 2, character: 12 });
    expectUnit(text, d, 17, { char: '\n', offset: 35, line: 3, character: 0 });
    expectUnit(text, d, 18, { char: 'l', offset: 38, line: 4, character: 2 });
    expectUnit(text, d, 22, { char: '\n', offset: 42, line: 4, character: 6 });
  });

  it('strips with |-', () => {
    const text = 'expression: |-\n  a\n  b\n\n';
    const d = yamlAt(text, ['expression'], 'a\nb');
    // `|` 12, `-` 13, line 1 starts at 15, line 2 at 19.
    expectUnit(text, d, 1, { char: '\n', offset: 18, line: 1, character: 3 });
    expectUnit(text, d, 2, { char: 'b', offset: 21, line: 2, character: 2 });
  });

  it('keeps trailing empty lines with |+', () => {
    const text = 'expression: |+\n  a\n\n\nnext: 1\n';
    const d = yamlAt(text, ['expression'], 'a\n\n\n');
    expectUnit(text, d, 0, { char: 'a', offset: 17, line: 1, character: 2 });
    expectUnit(text, d, 1, { char: '\n', offset: 18, line: 1, character: 3 });
    expectUnit(text, d, 2, { char: '\n', offset: 19, line: 2, character: 0 });
    expectUnit(text, d, 3, { char: '\n', offset: 20, line: 3, character: 0 });
  });

  it('honours an explicit indentation indicator (|2)', () => {
    const text = 'expression: |2\n    x\n  y\n';
    const d = yamlAt(text, ['expression'], '  x\ny\n');
    expectUnit(text, d, 0, { char: ' ', offset: 17, line: 1, character: 2 });
    expectUnit(text, d, 2, { char: 'x', offset: 19, line: 1, character: 4 });
    expectUnit(text, d, 3, { char: '\n', offset: 20, line: 1, character: 5 });
    expectUnit(text, d, 4, { char: 'y', offset: 23, line: 2, character: 2 });
  });

  it('keeps leading empty lines', () => {
    const text = 'expression: |\n\n  a\n';
    const d = yamlAt(text, ['expression'], '\na\n');
    expectUnit(text, d, 0, { char: '\n', offset: 14, line: 1, character: 0 });
    expectUnit(text, d, 1, { char: 'a', offset: 17, line: 2, character: 2 });
  });

  it('maps a CRLF line break to both characters', () => {
    const text = 'expression: |\r\n  a\r\n  b\r\n';
    const d = yamlAt(text, ['expression'], 'a\nb\n');
    expectUnit(text, d, 1, { char: '\n', offset: 18, end: 20, line: 1, character: 3 });
    expectUnit(text, d, 2, { char: 'b', offset: 22, line: 2, character: 2 });
    expectUnit(text, d, 3, { char: '\n', offset: 23, end: 25, line: 2, character: 3 });
  });

  it('maps a header comment away from the content', () => {
    const text = 'expression: | # note\n  a\n';
    const d = yamlAt(text, ['expression'], 'a\n');
    expectUnit(text, d, 0, { char: 'a', offset: 23, line: 1, character: 2 });
  });

  it('maps a clipped line break the document does not have to the end of the scalar', () => {
    const text = 'expression: |\n  a';
    const d = yamlAt(text, ['expression'], 'a\n');
    expectUnit(text, d, 1, { char: '\n', offset: 17, end: 17, line: 1, character: 3 });
  });
});

describe('decodeYamlScalar: folded block', () => {
  it('folds lines, keeps empty and more-indented lines', () => {
    const text = 'expression: >\n  one\n  two\n\n  three\n    more\n  four\n';
    const d = yamlAt(text, ['expression'], 'one two\nthree\n  more\nfour\n');
    expectUnit(text, d, 3, { char: ' ', offset: 19, line: 1, character: 5 });
    expectUnit(text, d, 4, { char: 't', offset: 22, line: 2, character: 2 });
    expectUnit(text, d, 7, { char: '\n', offset: 26, line: 3, character: 0 });
    expectUnit(text, d, 8, { char: 't', offset: 29, line: 4, character: 2 });
    expectUnit(text, d, 13, { char: '\n', offset: 34, line: 4, character: 7 });
    expectUnit(text, d, 14, { char: ' ', offset: 37, line: 5, character: 2 });
    expectUnit(text, d, 16, { char: 'm', offset: 39, line: 5, character: 4 });
    expectUnit(text, d, 20, { char: '\n', offset: 43, line: 5, character: 8 });
    expectUnit(text, d, 21, { char: 'f', offset: 46, line: 6, character: 2 });
    expectUnit(text, d, 25, { char: '\n', offset: 50, line: 6, character: 6 });
  });

  it('keeps both line breaks around an empty line before a more-indented line (>-)', () => {
    const text = 'expression: >-\n  a\n\n    b\n';
    const d = yamlAt(text, ['expression'], 'a\n\n  b');
    expectUnit(text, d, 1, { char: '\n', offset: 18, line: 1, character: 3 });
    expectUnit(text, d, 2, { char: '\n', offset: 19, line: 2, character: 0 });
    expectUnit(text, d, 3, { char: ' ', offset: 22, line: 3, character: 2 });
    expectUnit(text, d, 5, { char: 'b', offset: 24, line: 3, character: 4 });
  });

  it('honours >-2 with a more-indented first line', () => {
    const text = 'expression: >-2\n   x\n  y\n';
    const d = yamlAt(text, ['expression'], ' x\ny');
    // `>` 12, `-` 13, `2` 14, line 1 starts at 16.
    expectUnit(text, d, 0, { char: ' ', offset: 18, line: 1, character: 2 });
    expectUnit(text, d, 1, { char: 'x', offset: 19, line: 1, character: 3 });
    expectUnit(text, d, 2, { char: '\n', offset: 20, line: 1, character: 4 });
    expectUnit(text, d, 3, { char: 'y', offset: 23, line: 2, character: 2 });
  });

  it('keeps trailing empty lines with >+', () => {
    const text = 'expression: >+\n  a\n  b\n\nnext: 1\n';
    const d = yamlAt(text, ['expression'], 'a b\n\n');
    expectUnit(text, d, 1, { char: ' ', offset: 18, line: 1, character: 3 });
    expectUnit(text, d, 2, { char: 'b', offset: 21, line: 2, character: 2 });
    expectUnit(text, d, 3, { char: '\n', offset: 22, line: 2, character: 3 });
    expectUnit(text, d, 4, { char: '\n', offset: 23, line: 3, character: 0 });
  });

  it('maps a folded CRLF line break to both characters', () => {
    const text = 'expression: >\r\n  one\r\n  two\r\n';
    const d = yamlAt(text, ['expression'], 'one two\n');
    expectUnit(text, d, 3, { char: ' ', offset: 20, end: 22, line: 1, character: 5 });
    expectUnit(text, d, 4, { char: 't', offset: 24, line: 2, character: 2 });
    expectUnit(text, d, 7, { char: '\n', offset: 27, end: 29, line: 2, character: 5 });
  });
});

describe('decodeYamlScalar: contexts', () => {
  it('decodes a value in a flow mapping', () => {
    const text = '{expression: "a\\tb"}';
    const d = yamlAt(text, ['expression'], 'a\tb');
    expectUnit(text, d, 1, { char: '\t', offset: 15, end: 17, line: 0, character: 15 });
    expectUnit(text, d, 2, { char: 'b', offset: 17, line: 0, character: 17 });
  });

  it('decodes an item of a flow sequence', () => {
    const text = "list: [x, \"y\\u00e9z\", 'w']";
    const d = yamlAt(text, ['list', 1], 'yéz');
    expectUnit(text, d, 2, { char: 'z', offset: 18, line: 0, character: 18 });
  });

  it('decodes items of a block sequence', () => {
    const text = 'items:\n  - "p\\nq"\n  - plain text\n';
    const quoted = yamlAt(text, ['items', 0], 'p\nq');
    expectUnit(text, quoted, 2, { char: 'q', offset: 15, line: 1, character: 8 });
    const plain = yamlAt(text, ['items', 1], 'plain text');
    expectUnit(text, plain, 6, { char: 't', offset: 28, line: 2, character: 10 });
  });

  it('decodes a folded block in a mapping inside a sequence', () => {
    const text = '- expression: >-\n    x\n    y\n';
    const d = yamlAt(text, [0, 'expression'], 'x y');
    expectUnit(text, d, 1, { char: ' ', offset: 22, line: 1, character: 5 });
    expectUnit(text, d, 2, { char: 'y', offset: 27, line: 2, character: 4 });
  });

  it('decodes the string form of a scalar resolved to another type', () => {
    const text = 'expression: 0x1F\n';
    const d = yamlAt(text, ['expression'], '0x1F');
    expectUnit(text, d, 3, { char: 'F', offset: 15, line: 0, character: 15 });
  });
});

describe('decodeYamlScalar: fallback', () => {
  it('falls back to the whole scalar for a block scalar without source tokens', () => {
    const text = 'expression: |\n  a\n';
    const node = yamlNode(text, ['expression'], false);
    const d = decodeYamlScalar(text, node);
    assert.ok(d);
    assert.equal(d.exact, false);
    assert.equal(d.value, 'a\n');
    assert.deepEqual([...d.starts], [12, 12]);
    assert.deepEqual([...d.ends], [18, 18]);
    assert.equal(decodeYamlScalarExact(text, node), undefined);
  });

  it('still decodes flow scalars exactly without source tokens', () => {
    const text = 'expression: "a\\u00e9b"\n';
    const node = yamlNode(text, ['expression'], false);
    const d = decodeYamlScalarExact(text, node);
    assert.ok(d);
    assert.equal(d.value, 'aéb');
    assert.equal(d.starts[2], 20);
  });

  it('returns undefined for a node that does not come from the document', () => {
    assert.equal(decodeYamlScalar('expression: a', new yaml.Scalar('a')), undefined);
  });
});

describe('decodeYamlScalar: properties', () => {
  const unit = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(' ', '  ', '\n', '\n\n', '\t', 'a', 'b', 'x', '#', ':', '- ', '"', "'", '\\') },
    { weight: 1, arbitrary: fc.constantFrom('\r', '\r\n', 'é', '😀', '\u0085', '\u2028', '\0', '\x1b', '\ufeff') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  );
  const styles = [
    yaml.Scalar.PLAIN,
    yaml.Scalar.QUOTE_DOUBLE,
    yaml.Scalar.QUOTE_SINGLE,
    yaml.Scalar.BLOCK_LITERAL,
    yaml.Scalar.BLOCK_FOLDED,
  ] as const;

  /** The exact path is taken and every unit maps inside the scalar, in source order. */
  function checkExact(text: string, path: (string | number)[]): void {
    const node = yaml.parseDocument(text, { keepSourceTokens: true }).getIn(path, true);
    // The library's stringifier occasionally writes something that does not read back as a
    // scalar (e.g. a plain value starting with `:`); that is not what is tested here.
    if (!yaml.isScalar(node)) return;
    const d = decodeYamlScalar(text, node);
    assert.ok(d);
    assert.equal(d.exact, true, `coarse fallback for ${JSON.stringify(text)}`);
    assert.equal(d.value, node.source);
    const [start, end] = node.range!;
    for (let i = 0; i < d.value.length; i++) {
      assert.ok(start <= d.starts[i] && d.starts[i] <= d.ends[i] && d.ends[i] <= end, `unit ${i} out of the scalar`);
      if (i > 0) assert.ok(d.starts[i - 1] <= d.starts[i], `unit ${i} goes backwards`);
      // A unit mapped to one source character other than a line break is that character.
      if (d.ends[i] - d.starts[i] === 1 && text[d.starts[i]] !== '\n') assert.equal(text[d.starts[i]], d.value[i]);
    }
  }

  /** A document whose scalar `s` at `path` asks for `style` (the stringifier may still pick another). */
  function stringify(value: unknown, path: (string | number)[], style: yaml.Scalar.Type, lineWidth: number): string {
    const doc = new yaml.Document(value);
    const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
    assert.ok(yaml.isScalar(node));
    node.type = style;
    return doc.toString({ defaultStringType: style, defaultKeyType: yaml.Scalar.PLAIN, lineWidth, minContentWidth: 0 });
  }

  it('decodes stringified values of every style exactly', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 30 }).map((parts) => parts.join('')),
        fc.constantFrom(...styles),
        fc.constantFrom(0, 20, 80),
        fc.boolean(),
        (s, style, lineWidth, crlf) => {
          let text = `first: 1\n${stringify({ expression: s }, ['expression'], style, lineWidth)}`;
          if (crlf) text = text.replace(/\n/g, '\r\n');
          checkExact(text, ['expression']);
          checkExact(stringify(s, [], style, lineWidth), []);
          const nested = stringify({ list: [{ expression: s }] }, ['list', 0, 'expression'], style, lineWidth);
          checkExact(nested, ['list', 0, 'expression']);
          const node = yaml.parseDocument(text).get('expression', true);
          if (yaml.isScalar(node) && node.type) seen.add(node.type);
        },
      ),
      { numRuns: 1000 },
    );
    assert.deepEqual([...seen].sort(), [...styles].sort());
  });

  it('decodes arbitrary scalar sources the way the library does', () => {
    const piece = fc.constantFrom(
      ' ', '  ', '\t', '\n', '\r\n', '\n\n', '\n  ', '\n    ', 'a', 'b', '"', "'", "''", '\\', '\\\n', '\\x4', '\\u00e9',
      '\\U0001F600', '\\U00110000', '\\q', '#', ': ', '😀', 'é',
    );
    const header = fc.constantFrom(
      'expression: ', 'expression: "', "expression: '", 'expression: |\n', 'expression: >\n', 'expression: |-\n',
      'expression: >+\n', 'expression: |2\n', 'expression: >-1\n', 'expression:\n  ', '- expression: ', '{expression: ',
    );
    fc.assert(
      fc.property(header, fc.array(piece, { maxLength: 25 }), (head, parts) => {
        const text = head + parts.join('');
        const doc = yaml.parseDocument(text, { keepSourceTokens: true });
        yaml.visit(doc, {
          Scalar(_key, node) {
            const d = decodeYamlScalar(text, node);
            assert.ok(d);
            assert.equal(d.exact, true, `coarse fallback for ${JSON.stringify(text)}`);
            assert.equal(d.value, node.source);
          },
        });
      }),
      { numRuns: 3000 },
    );
  });
});
