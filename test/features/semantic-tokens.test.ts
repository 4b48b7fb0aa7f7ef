import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { SemanticTokenModifiers, SemanticTokenTypes } from 'vscode-languageserver';

import { checkExpression } from '../../server/src/language/checker';
import { catalogueFor } from '../../server/src/language/catalogue/catalogues';
import { expressionTokens, SEMANTIC_TOKENS_LEGEND, semanticTokens } from '../../server/src/features/semantic-tokens';
import { formatOf, HOSTS, modelOf, rulesetWith, settings, type Host } from './harness';

// Expected tokens are written as [line, character, length, type, modifiers, source text]:
// the first five are the decoded LSP token (0-based line, UTF-16 character and length), the
// source text is what the token covers in the document, so a wrong column shows at a glance.

type Tok = [line: number, character: number, length: number, type: string, modifiers: string, source: string];

const EXAMPLES = join(__dirname, '..', '..', 'examples');

/** Decodes LSP's relative encoding back to absolute tuples. */
function decode(text: string, data: readonly number[]): Tok[] {
  assert.equal(data.length % 5, 0, 'five integers a token');
  const lines = text.split(/\r?\n/);
  const { tokenTypes, tokenModifiers } = SEMANTIC_TOKENS_LEGEND;
  const out: Tok[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [deltaLine, deltaStart, length, type, modifiers] = data.slice(i, i + 5);
    line += deltaLine;
    character = deltaLine === 0 ? character + deltaStart : deltaStart;
    assert.ok(type < tokenTypes.length, `type index ${type}`);
    assert.ok(modifiers < 1 << tokenModifiers.length, `modifier bits ${modifiers}`);
    const names = tokenModifiers.filter((_, bit) => modifiers & (1 << bit));
    out.push([line, character, length, tokenTypes[type], names.join(','), (lines[line] ?? '').slice(character, character + length)]);
  }
  return out;
}

function tokensOf(text: string, format: 'json' | 'yaml', uri?: string): Tok[] {
  return decode(text, semanticTokens(modelOf(text, format, uri), settings()).data);
}

function tokensIn(host: Host, expression: string): Tok[] {
  const { text } = rulesetWith(host, expression);
  return tokensOf(text, formatOf(host));
}

/** Every token on one line, inside it, sorted and apart. */
function assertWellFormed(text: string, tokens: readonly Tok[]): void {
  const lines = text.split(/\r?\n/);
  let previous: Tok | undefined;
  for (const t of tokens) {
    const [line, character, length] = t;
    assert.ok(length > 0, `empty token ${JSON.stringify(t)}`);
    assert.ok(line < lines.length && character + length <= lines[line].length, `token ${JSON.stringify(t)} inside its line`);
    if (previous) {
      assert.ok(line > previous[0] || (line === previous[0] && character >= previous[1] + previous[2]), `${JSON.stringify(t)} after ${JSON.stringify(previous)}`);
    }
    previous = t;
  }
}

describe('semantic tokens: legend', () => {
  it('uses standard token types and modifiers, plus the custom `ip` modifier', () => {
    const standardTypes: string[] = Object.values(SemanticTokenTypes);
    for (const type of SEMANTIC_TOKENS_LEGEND.tokenTypes) assert.ok(standardTypes.includes(type), `${type} is a standard type`);
    assert.deepEqual(SEMANTIC_TOKENS_LEGEND.tokenTypes, ['property', 'operator', 'keyword', 'number', 'string', 'variable', 'function']);
    assert.deepEqual(SEMANTIC_TOKENS_LEGEND.tokenModifiers, [SemanticTokenModifiers.readonly, SemanticTokenModifiers.defaultLibrary, 'ip']);
  });
});

describe('semantic tokens: every kind of token (JSON)', () => {
  const expression =
    'ip.src in {10.0.0.1..10.0.0.9 2001:db8::/32 192.0.2.1} xor !(tcp.dstport in {1..1024 8080}) ^^ sip && true || ' +
    'bit_slice(udp, 64, 72) == 0x45 and cf.colo.name strict wildcard r#"a\\b"# and ip contains 45:00:1c and ' +
    'ip.src in $my_list and tcp.flags & 0x02 and ip.len ge 100';

  it('parses (the tokens come from the syntax tree)', () => {
    assert.ok(checkExpression(expression, { phase: 'magic_transit' }).ast);
  });

  it('colours fields, operators, keywords, numbers, addresses, strings, bytes, lists and functions', () => {
    // `"expression": "` ends at character 21 of line 7; `\"` and `\\` are two characters each.
    assert.deepEqual(tokensIn('json', expression), [
      [7, 21, 6, 'property', '', 'ip.src'],
      [7, 28, 2, 'keyword', '', 'in'],
      [7, 32, 18, 'number', 'ip', '10.0.0.1..10.0.0.9'],
      [7, 51, 13, 'number', 'ip', '2001:db8::/32'],
      [7, 65, 9, 'number', 'ip', '192.0.2.1'],
      [7, 76, 3, 'keyword', '', 'xor'],
      [7, 80, 1, 'operator', '', '!'],
      [7, 82, 11, 'property', '', 'tcp.dstport'],
      [7, 94, 2, 'keyword', '', 'in'],
      [7, 98, 7, 'number', '', '1..1024'],
      [7, 106, 4, 'number', '', '8080'],
      [7, 113, 2, 'operator', '', '^^'],
      [7, 116, 3, 'property', '', 'sip'],
      [7, 120, 2, 'operator', '', '&&'],
      [7, 123, 4, 'keyword', '', 'true'],
      [7, 128, 2, 'operator', '', '||'],
      [7, 131, 9, 'function', 'defaultLibrary', 'bit_slice'],
      [7, 141, 3, 'property', '', 'udp'],
      [7, 146, 2, 'number', '', '64'],
      [7, 150, 2, 'number', '', '72'],
      [7, 154, 2, 'operator', '', '=='],
      [7, 157, 4, 'number', '', '0x45'],
      [7, 162, 3, 'keyword', '', 'and'],
      [7, 166, 12, 'property', '', 'cf.colo.name'],
      [7, 179, 6, 'keyword', '', 'strict'],
      [7, 186, 8, 'keyword', '', 'wildcard'],
      [7, 195, 11, 'string', '', 'r#\\"a\\\\b\\"#'],
      [7, 207, 3, 'keyword', '', 'and'],
      [7, 211, 2, 'property', '', 'ip'],
      [7, 214, 8, 'keyword', '', 'contains'],
      [7, 223, 8, 'string', '', '45:00:1c'],
      [7, 232, 3, 'keyword', '', 'and'],
      [7, 236, 6, 'property', '', 'ip.src'],
      [7, 243, 2, 'keyword', '', 'in'],
      [7, 246, 8, 'variable', 'readonly', '$my_list'],
      [7, 255, 3, 'keyword', '', 'and'],
      [7, 259, 9, 'property', '', 'tcp.flags'],
      [7, 269, 1, 'operator', '', '&'],
      [7, 271, 4, 'number', '', '0x02'],
      [7, 276, 3, 'keyword', '', 'and'],
      [7, 280, 6, 'property', '', 'ip.len'],
      [7, 287, 2, 'keyword', '', 'ge'],
      [7, 290, 3, 'number', '', '100'],
    ]);
  });

  it('encodes positions relative to the previous token', () => {
    const { text } = rulesetWith('json', 'sip and ip.src in $svc.vpn');
    assert.deepEqual(semanticTokens(modelOf(text, 'json'), settings()).data, [
      7, 21, 3, 0, 0, // sip: property
      0, 4, 3, 2, 0, // and: keyword
      0, 4, 6, 0, 0, // ip.src: property
      0, 7, 2, 2, 0, // in: keyword
      0, 3, 8, 5, 0b11, // $svc.vpn: variable, readonly + defaultLibrary
    ]);
  });

  it('covers the whole source of a token with escapes (`\\"BR\\"`, `\\u0041`) and ignores a `\\n` escape', () => {
    const text = '{"name": "t", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": "ip.src.country == \\"BR\\" and\\ncf.colo.name == \\"\\u0041\\""}]}';
    assert.deepEqual(tokensOf(text, 'json'), [
      [0, 101, 14, 'property', '', 'ip.src.country'],
      [0, 116, 2, 'operator', '', '=='],
      [0, 119, 6, 'string', '', '\\"BR\\"'],
      [0, 126, 3, 'keyword', '', 'and'],
      [0, 131, 12, 'property', '', 'cf.colo.name'],
      [0, 144, 2, 'operator', '', '=='],
      [0, 147, 10, 'string', '', '\\"\\u0041\\"'],
    ]);
  });

  it('colours every expression of an example file, and nothing of the JSON around them', () => {
    const text = readFileSync(join(EXAMPLES, 'block-country.ruleset.json'), 'utf8');
    assert.deepEqual(tokensOf(text, 'json'), [
      [8, 21, 16, 'property', '', 'ip.geoip.country'],
      [8, 38, 2, 'operator', '', '=='],
      [8, 41, 6, 'string', '', '\\"KP\\"'],
      [14, 21, 14, 'property', '', 'ip.src.country'],
      [14, 36, 2, 'keyword', '', 'in'],
      [14, 40, 6, 'string', '', '\\"CU\\"'],
      [14, 47, 6, 'string', '', '\\"IR\\"'],
      [14, 54, 6, 'string', '', '\\"SY\\"'],
      [14, 62, 3, 'keyword', '', 'and'],
      [14, 66, 3, 'keyword', '', 'not'],
      [14, 70, 6, 'property', '', 'ip.dst'],
      [14, 77, 2, 'keyword', '', 'in'],
      [14, 81, 12, 'number', 'ip', '192.0.2.0/24'],
    ]);
  });
});

describe('semantic tokens: every host style', () => {
  const expression = 'ip.src.country in {"BR" "CU"} and not cf.colo.name == "it\'s" or ip.dst in $svc.vpn';
  const expected: Record<Host, Tok[]> = {
    json: [
      [7, 21, 14, 'property', '', 'ip.src.country'],
      [7, 36, 2, 'keyword', '', 'in'],
      [7, 40, 6, 'string', '', '\\"BR\\"'],
      [7, 47, 6, 'string', '', '\\"CU\\"'],
      [7, 55, 3, 'keyword', '', 'and'],
      [7, 59, 3, 'keyword', '', 'not'],
      [7, 63, 12, 'property', '', 'cf.colo.name'],
      [7, 76, 2, 'operator', '', '=='],
      [7, 79, 8, 'string', '', '\\"it\'s\\"'],
      [7, 88, 2, 'keyword', '', 'or'],
      [7, 91, 6, 'property', '', 'ip.dst'],
      [7, 98, 2, 'keyword', '', 'in'],
      [7, 101, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
    ],
    'yaml-plain': [
      [5, 16, 14, 'property', '', 'ip.src.country'],
      [5, 31, 2, 'keyword', '', 'in'],
      [5, 35, 4, 'string', '', '"BR"'],
      [5, 40, 4, 'string', '', '"CU"'],
      [5, 46, 3, 'keyword', '', 'and'],
      [5, 50, 3, 'keyword', '', 'not'],
      [5, 54, 12, 'property', '', 'cf.colo.name'],
      [5, 67, 2, 'operator', '', '=='],
      [5, 70, 6, 'string', '', '"it\'s"'],
      [5, 77, 2, 'keyword', '', 'or'],
      [5, 80, 6, 'property', '', 'ip.dst'],
      [5, 87, 2, 'keyword', '', 'in'],
      [5, 90, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
    ],
    'yaml-single': [
      [5, 17, 14, 'property', '', 'ip.src.country'],
      [5, 32, 2, 'keyword', '', 'in'],
      [5, 36, 4, 'string', '', '"BR"'],
      [5, 41, 4, 'string', '', '"CU"'],
      [5, 47, 3, 'keyword', '', 'and'],
      [5, 51, 3, 'keyword', '', 'not'],
      [5, 55, 12, 'property', '', 'cf.colo.name'],
      [5, 68, 2, 'operator', '', '=='],
      [5, 71, 7, 'string', '', '"it\'\'s"'],
      [5, 79, 2, 'keyword', '', 'or'],
      [5, 82, 6, 'property', '', 'ip.dst'],
      [5, 89, 2, 'keyword', '', 'in'],
      [5, 92, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
    ],
    'yaml-double': [
      [5, 17, 14, 'property', '', 'ip.src.country'],
      [5, 32, 2, 'keyword', '', 'in'],
      [5, 36, 6, 'string', '', '\\"BR\\"'],
      [5, 43, 6, 'string', '', '\\"CU\\"'],
      [5, 51, 3, 'keyword', '', 'and'],
      [5, 55, 3, 'keyword', '', 'not'],
      [5, 59, 12, 'property', '', 'cf.colo.name'],
      [5, 72, 2, 'operator', '', '=='],
      [5, 75, 8, 'string', '', '\\"it\'s\\"'],
      [5, 84, 2, 'keyword', '', 'or'],
      [5, 87, 6, 'property', '', 'ip.dst'],
      [5, 94, 2, 'keyword', '', 'in'],
      [5, 97, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
    ],
    'yaml-literal': [
      [6, 6, 14, 'property', '', 'ip.src.country'],
      [6, 21, 2, 'keyword', '', 'in'],
      [6, 25, 4, 'string', '', '"BR"'],
      [6, 30, 4, 'string', '', '"CU"'],
      [6, 36, 3, 'keyword', '', 'and'],
      [6, 40, 3, 'keyword', '', 'not'],
      [6, 44, 12, 'property', '', 'cf.colo.name'],
      [6, 57, 2, 'operator', '', '=='],
      [6, 60, 6, 'string', '', '"it\'s"'],
      [6, 67, 2, 'keyword', '', 'or'],
      [6, 70, 6, 'property', '', 'ip.dst'],
      [6, 77, 2, 'keyword', '', 'in'],
      [6, 80, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
    ],
    'yaml-folded': [
      [6, 6, 14, 'property', '', 'ip.src.country'],
      [6, 21, 2, 'keyword', '', 'in'],
      [6, 25, 4, 'string', '', '"BR"'],
      [6, 30, 4, 'string', '', '"CU"'],
      [6, 36, 3, 'keyword', '', 'and'],
      [6, 40, 3, 'keyword', '', 'not'],
      [6, 44, 12, 'property', '', 'cf.colo.name'],
      [6, 57, 2, 'operator', '', '=='],
      [6, 60, 6, 'string', '', '"it\'s"'],
      [6, 67, 2, 'keyword', '', 'or'],
      [6, 70, 6, 'property', '', 'ip.dst'],
      [6, 77, 2, 'keyword', '', 'in'],
      [6, 80, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
    ],
  };
  for (const host of HOSTS) {
    it(`${host}: exact tokens`, () => {
      assert.deepEqual(tokensIn(host, expression), expected[host]);
    });
  }
});

describe('semantic tokens: expressions over several lines', () => {
  // Each style's line breaks read differently (kept, folded to a space, joined by `\`), but
  // a token never crosses a line: a token whose source does is split, one part a line.
  const text = [
    'name: multi-line', // 0
    'kind: root', // 1
    'phase: magic_transit', // 2
    'rules:', // 3
    '  - action: block', // 4
    '    expression: |', // 5
    '      cf.colo.name == "a', // 6
    '      b" and', // 7
    '      ip.src in {10.0.0.0/8', // 8
    '        192.0.2.1}', // 9
    '  - action: block', // 10
    '    expression: >-', // 11
    '      ip.proto in {"tcp"', // 12
    '      "udp"} and', // 13
    '        tcp.dstport == 22', // 14
    '  - action: block', // 15
    '    expression: ip.src.country in {"BR"', // 16
    '      "CU"} and sip', // 17
    '  - action: block', // 18
    '    expression: "cf.colo.name == \\"a', // 19
    '      b\\" or ip.s\\', // 20
    '      rc in $svc.vpn"', // 21
    '  - action: block', // 22
    "    expression: 'ip.proto ==", // 23
    "      \"it''s\" and sip'", // 24
    '',
  ].join('\n');

  it('literal, folded, plain, double- and single-quoted scalars', () => {
    assert.deepEqual(tokensOf(text, 'yaml'), [
      // literal block: the string "a\nb" holds a line break, so it is two tokens
      [6, 6, 12, 'property', '', 'cf.colo.name'],
      [6, 19, 2, 'operator', '', '=='],
      [6, 22, 2, 'string', '', '"a'],
      [7, 6, 2, 'string', '', 'b"'],
      [7, 9, 3, 'keyword', '', 'and'],
      [8, 6, 6, 'property', '', 'ip.src'],
      [8, 13, 2, 'keyword', '', 'in'],
      [8, 17, 10, 'number', 'ip', '10.0.0.0/8'],
      [9, 8, 9, 'number', 'ip', '192.0.2.1'],
      // folded block, with a more-indented line
      [12, 6, 8, 'property', '', 'ip.proto'],
      [12, 15, 2, 'keyword', '', 'in'],
      [12, 19, 5, 'string', '', '"tcp"'],
      [13, 6, 5, 'string', '', '"udp"'],
      [13, 13, 3, 'keyword', '', 'and'],
      [14, 8, 11, 'property', '', 'tcp.dstport'],
      [14, 20, 2, 'operator', '', '=='],
      [14, 23, 2, 'number', '', '22'],
      // plain scalar over two lines
      [16, 16, 14, 'property', '', 'ip.src.country'],
      [16, 31, 2, 'keyword', '', 'in'],
      [16, 35, 4, 'string', '', '"BR"'],
      [17, 6, 4, 'string', '', '"CU"'],
      [17, 12, 3, 'keyword', '', 'and'],
      [17, 16, 3, 'property', '', 'sip'],
      // double-quoted: a folded line break inside a string, and `ip.s\` + `rc`, one field
      // joined by an escaped line break
      [19, 17, 12, 'property', '', 'cf.colo.name'],
      [19, 30, 2, 'operator', '', '=='],
      [19, 33, 3, 'string', '', '\\"a'],
      [20, 6, 3, 'string', '', 'b\\"'],
      [20, 10, 2, 'keyword', '', 'or'],
      [20, 13, 4, 'property', '', 'ip.s'],
      [21, 6, 2, 'property', '', 'rc'],
      [21, 9, 2, 'keyword', '', 'in'],
      [21, 12, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
      // single-quoted over two lines, with a doubled quote
      [23, 17, 8, 'property', '', 'ip.proto'],
      [23, 26, 2, 'operator', '', '=='],
      [24, 6, 7, 'string', '', '"it\'\'s"'],
      [24, 14, 3, 'keyword', '', 'and'],
      [24, 18, 3, 'property', '', 'sip'],
    ]);
  });

  it('CRLF line breaks are no part of any token', () => {
    const crlf = ['name: crlf', 'kind: root', 'phase: magic_transit', 'rules:', '  - action: block', '    expression: >-', '      ip.src in', '      $svc.vpn or cf.colo.name == "a', '      b"', ''].join('\r\n');
    assert.deepEqual(tokensOf(crlf, 'yaml'), [
      [6, 6, 6, 'property', '', 'ip.src'],
      [6, 13, 2, 'keyword', '', 'in'],
      [7, 6, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
      [7, 15, 2, 'keyword', '', 'or'],
      [7, 18, 12, 'property', '', 'cf.colo.name'],
      [7, 31, 2, 'operator', '', '=='],
      [7, 34, 2, 'string', '', '"a'],
      [8, 6, 2, 'string', '', 'b"'],
    ]);
  });

  it('the example files with folded and literal blocks', () => {
    const country = readFileSync(join(EXAMPLES, 'block-country.ruleset.yaml'), 'utf8');
    assert.deepEqual(tokensOf(country, 'yaml'), [
      [6, 16, 16, 'property', '', 'ip.geoip.country'],
      [6, 33, 2, 'operator', '', '=='],
      [6, 36, 4, 'string', '', '"KP"'],
      [12, 6, 14, 'property', '', 'ip.src.country'],
      [12, 21, 2, 'keyword', '', 'in'],
      [12, 25, 4, 'string', '', '"CU"'],
      [12, 30, 4, 'string', '', '"IR"'],
      [12, 35, 4, 'string', '', '"SY"'],
      [13, 6, 3, 'keyword', '', 'and'],
      [13, 10, 3, 'keyword', '', 'not'],
      [13, 14, 6, 'property', '', 'ip.dst'],
      [13, 21, 2, 'keyword', '', 'in'],
      [13, 25, 12, 'number', 'ip', '192.0.2.0/24'],
    ]);
    const lists = readFileSync(join(EXAMPLES, 'block-threat-lists.ruleset.yaml'), 'utf8');
    assert.deepEqual(tokensOf(lists, 'yaml').slice(14), [
      [16, 7, 6, 'property', '', 'ip.src'],
      [16, 14, 2, 'keyword', '', 'in'],
      [16, 17, 17, 'variable', 'readonly,defaultLibrary', '$svc.open_proxies'],
      [16, 35, 2, 'keyword', '', 'or'],
      [16, 38, 6, 'property', '', 'ip.src'],
      [16, 45, 2, 'keyword', '', 'in'],
      [16, 48, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
      [17, 6, 3, 'keyword', '', 'and'],
      [17, 10, 11, 'property', '', 'tcp.dstport'],
      [17, 22, 2, 'keyword', '', 'in'],
      [17, 26, 2, 'number', '', '22'],
      [17, 29, 4, 'number', '', '3389'],
    ]);
  });
});

describe('semantic tokens: mistakes and syntax errors', () => {
  it('values wrong for their place are coloured as what they are', () => {
    const text = readFileSync(join(EXAMPLES, 'mistakes.ruleset.yaml'), 'utf8');
    assert.deepEqual(tokensOf(text, 'yaml'), [
      [7, 16, 11, 'property', '', 'tcp.dstport'],
      [7, 28, 2, 'keyword', '', 'in'],
      [7, 32, 2, 'number', '', '22'],
      [7, 36, 3, 'number', '', '443'],
      [10, 16, 10, 'property', '', 'tcp.dstprt'],
      [10, 27, 2, 'operator', '', '=='],
      [10, 30, 2, 'number', '', '22'],
      [13, 17, 14, 'property', '', 'ip.src.country'],
      [13, 32, 2, 'keyword', '', 'in'],
      [13, 36, 4, 'string', '', '"br"'],
      [13, 41, 4, 'string', '', '"UK"'],
      [16, 16, 6, 'property', '', 'ip.src'],
      [16, 23, 2, 'keyword', '', 'in'],
      [16, 26, 10, 'number', 'ip', '10.0.0.0/8'],
      [19, 17, 8, 'property', '', 'ip.proto'],
      [19, 26, 2, 'operator', '', '=='],
      [19, 29, 5, 'string', '', '"tpc"'],
      [19, 35, 3, 'keyword', '', 'and'],
      [19, 39, 11, 'property', '', 'udp.dstport'],
      [19, 51, 2, 'operator', '', '=='],
      [19, 54, 5, 'number', '', '70000'],
      [22, 16, 13, 'property', '', 'tcp.flags.syn'],
      [22, 30, 2, 'operator', '', '=='],
      [22, 33, 4, 'keyword', '', 'true'],
      [22, 38, 3, 'keyword', '', 'and'],
      [22, 42, 6, 'property', '', 'ip.src'],
      [22, 49, 2, 'keyword', '', 'in'],
      [22, 52, 11, 'variable', 'readonly,defaultLibrary', '$svc.malwre'],
    ]);
  });

  it('an address after a port field is an address; a bare word after a string field is nothing', () => {
    assert.deepEqual(tokensIn('yaml-plain', 'tcp.dstport == 1.2.3.4 or ip.proto == tcp'), [
      [5, 16, 11, 'property', '', 'tcp.dstport'],
      [5, 28, 2, 'operator', '', '=='],
      [5, 31, 7, 'number', 'ip', '1.2.3.4'],
      [5, 39, 2, 'keyword', '', 'or'],
      [5, 42, 8, 'property', '', 'ip.proto'],
      [5, 51, 2, 'operator', '', '=='],
    ]);
  });

  /** The tokens of one expression as `text:type[.modifiers]`, for the expression-level tests. */
  function brief(expression: string, phase = 'magic_transit'): string[] {
    const { ast } = checkExpression(expression, { phase });
    return expressionTokens(expression, ast, catalogueFor(phase)).map((t) => `${expression.slice(t.start, t.end)}:${t.type}${t.modifiers.length > 0 ? `.${t.modifiers.join(',')}` : ''}`);
  }

  it('colours the tokens before a syntax error, and those after it the scan can read', () => {
    const cases: [string, string[]][] = [
      ['ip.src in {1.2.3.4', ['ip.src:property', 'in:keyword', '1.2.3.4:number.ip']],
      ['ip.src == and tcp.dstport == 22', ['ip.src:property', '==:operator', 'and:keyword', 'tcp.dstport:property', '==:operator', '22:number']],
      ['ip.src.country in {"CU" "IR', ['ip.src.country:property', 'in:keyword', '"CU":string', '"IR:string']],
      ['tcp.flags & 0x12 == 0x12', ['tcp.flags:property', '&:operator', '0x12:number', '==:operator', '0x12:number']],
      ['bit_slice(udp, 64', ['bit_slice:function.defaultLibrary', 'udp:property', '64:number']],
      ['(ip.src in $svc.vpn', ['ip.src:property', 'in:keyword', '$svc.vpn:variable.readonly,defaultLibrary']],
      ['ip.src in {1.2.3.4} and', ['ip.src:property', 'in:keyword', '1.2.3.4:number.ip', 'and:keyword']],
      ['ip.src in ', ['ip.src:property', 'in:keyword']],
      // A miscased keyword is neither a keyword nor (what the parser reads) a field.
      ['tcp.dstport in {22} AND sip', ['tcp.dstport:property', 'in:keyword', '22:number', 'sip:property']],
      // No comments in the language: nothing after `#` is read.
      ['sip # no comments', ['sip:property']],
      ['r#"abc', ['r#"abc:string']],
      ['not', ['not:keyword']],
      ['{{{', []],
    ];
    for (const [expression, expected] of cases) {
      assert.equal(checkExpression(expression).ast, undefined, `${expression} does not parse`);
      assert.deepEqual(brief(expression), expected, expression);
    }
  });

  it('calls, nested calls, index steps and quantifiers of the HTTP phases', () => {
    const phase = 'http_request_firewall_custom';
    assert.deepEqual(brief('any(lower(http.request.headers["x-api-key"][*]) == "k") and len(http.request.uri.args.names) > 2', phase), [
      'any:keyword',
      'lower:function.defaultLibrary',
      'http.request.headers:property',
      '"x-api-key":string',
      '*:operator',
      '==:operator',
      '"k":string',
      'and:keyword',
      'len:function.defaultLibrary',
      'http.request.uri.args.names:property',
      '>:operator',
      '2:number',
    ]);
    assert.deepEqual(brief('starts_with(concat(http.host, "/"), "www.") or split(http.host, ".", 3)[0] == "a"', phase), [
      'starts_with:function.defaultLibrary',
      'concat:function.defaultLibrary',
      'http.host:property',
      '"/":string',
      '"www.":string',
      'or:keyword',
      'split:function.defaultLibrary',
      'http.host:property',
      '".":string',
      '3:number',
      '0:number',
      '==:operator',
      '"a":string',
    ]);
    // A function of no catalogue is still a function; a function of another phase is not the phase's library.
    assert.deepEqual(brief('lowr(http.host) == "a"', phase), ['lowr:function', 'http.host:property', '==:operator', '"a":string']);
    assert.deepEqual(brief('lower(http.host) == "a"', 'magic_transit'), ['lower:function', 'http.host:property', '==:operator', '"a":string']);
    // Calls inside calls, from the tree (within the nesting limit) and from the scan (past it).
    for (const depth of [100, 5000]) {
      const deep = `${'lower('.repeat(depth)}http.host${')'.repeat(depth)} == "a"`;
      assert.equal(checkExpression(deep, { phase }).ast !== undefined, depth === 100);
      assert.equal(brief(deep, phase).filter((t) => t === 'lower:function.defaultLibrary').length, depth);
    }
  });

  it('an expression with a syntax error: the scan reads calls, index steps and quantifiers too', () => {
    const phase = 'http_request_firewall_custom';
    const cases: [string, string[]][] = [
      ['any(http.request.headers["a"][*] == ', ['any:keyword', 'http.request.headers:property', '"a":string', '*:operator', '==:operator']],
      ['lower(http.request.headers.names[0]', ['lower:function.defaultLibrary', 'http.request.headers.names:property', '0:number']],
      ['http.request.uri.args["q"', ['http.request.uri.args:property', '"q":string']],
    ];
    for (const [expression, expected] of cases) {
      assert.equal(checkExpression(expression, { phase }).ast, undefined, `${expression} does not parse`);
      assert.deepEqual(brief(expression, phase), expected, expression);
    }
  });

  for (const host of HOSTS) {
    it(`${host}: an HTTP expression's tokens land on its characters in the document`, () => {
      const expression = 'any(http.request.headers["x"][*] contains "a")';
      const { text } = rulesetWith(host, expression, { phase: 'http_request_firewall_custom' });
      const tokens = tokensOf(text, formatOf(host));
      const quote = host === 'json' || host === 'yaml-double' ? '\\"' : '"';
      assert.deepEqual(
        tokens.map((t) => `${t[5]}:${t[3]}`),
        ['any:keyword', 'http.request.headers:property', `${quote}x${quote}:string`, '*:operator', 'contains:keyword', `${quote}a${quote}:string`],
      );
    });
  }

  it('the scan agrees with the syntax tree on expressions that parse', () => {
    const expressions = [
      'ip.src in {10.0.0.1..10.0.0.9 2001:db8::/32} xor !(tcp.dstport in {1..1024 8080}) ^^ sip && true',
      'bit_slice(udp, 64, 72) == 0x45 and bit_slice("tcp", 0, 8) == 2',
      'ip.proto eq "tcp" and cf.colo.name matches "^a\\"" and ip.src == ::ffff:1.2.3.4',
      'ip.dst ne 1.2.3.4 or ip.len gt 100 or ip.ttl bitwise_and 3 or ip.len lt 2 or ip.len le 3',
      'ip contains 10:20:30 and cf.colo.region strict   wildcard r##"a"#b"## and cf.colo.name ~ "x"',
      'foo.bar == 1.2.3.4 and tcp.dstport == 1.2.3.4 and ip.proto == tcp and tcp.dstport == 080',
      'tcp.dstport in {22, 443} and tcp.dstport = 22 and ip.src in {$svc.vpn} and tcp.flags.syn == true',
    ];
    for (const expression of expressions) {
      const { ast } = checkExpression(expression, { phase: 'magic_transit' });
      assert.ok(ast, `${expression} parses`);
      assert.deepEqual(expressionTokens(expression, undefined), expressionTokens(expression, ast), expression);
    }
    const http = catalogueFor('http_request_firewall_custom');
    for (const expression of [
      'any(lower(http.request.headers["x-api-key"][*]) == "k") and all(http.request.headers.names[*] != "x")',
      'split(http.host, ".", 3)[0] == "a" or http.request.uri.args["q"][0] in {"a" "b"} or len(http.host) > 1',
      'ip.src in {10.0.0.0/8} and cidr(ip.src, 24, 64) == 10.0.0.0 and http.request.headers["a"][1] matches "x"',
    ]) {
      const { ast } = checkExpression(expression, { phase: 'http_request_firewall_custom' });
      assert.ok(ast, `${expression} parses`);
      assert.deepEqual(expressionTokens(expression, undefined, http), expressionTokens(expression, ast, http), expression);
    }
  });

  it('a broken host document still colours the expressions it can read', () => {
    const text = '{\n  "phase": "magic_transit",\n  "rules": [\n    { "action": "block", "expression": "ip.src in $svc.vpn" },\n    { "action": "skip", "expression": "tcp.dstport in {22';
    assert.deepEqual(tokensOf(text, 'json', 'file:///broken.ruleset.json'), [
      [3, 40, 6, 'property', '', 'ip.src'],
      [3, 47, 2, 'keyword', '', 'in'],
      [3, 50, 8, 'variable', 'readonly,defaultLibrary', '$svc.vpn'],
      [4, 39, 11, 'property', '', 'tcp.dstport'],
      [4, 51, 2, 'keyword', '', 'in'],
      [4, 55, 2, 'number', '', '22'],
    ]);
  });

  it('any expression in any host gives well-formed tokens inside the expression, and never throws', () => {
    const pieces = ['ip.src', 'tcp.dstport', 'ip.proto', 'sip', 'bit_slice', '(', ')', '{', '}', ',', ' ', '  ', '\n', '\t', 'and', 'or', 'not', '!', '&&', '==', 'in', 'strict wildcard', '"BR"', '"', '\\', "'", 'r#"x"#', 'r#', '$svc.vpn', '$', '10.0.0.0/8', '1..9', '::1', 'aa:bb', '0x1f', '#', 'é', '😀', 'x'];
    fc.assert(
      fc.property(fc.constantFrom(...HOSTS), fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (host, parts) => {
        const expression = parts.join('');
        const { text } = rulesetWith(host, expression.replace(/\|/g, ''));
        const model = modelOf(text, formatOf(host));
        const tokens = decode(text, semanticTokens(model, settings()).data);
        assertWellFormed(text, tokens);
        const site = model.ruleset.expressions[0];
        for (const [line, character, length] of tokens) {
          const start = model.offsetAt({ line, character });
          if (site) assert.ok(start >= site.node.start && start + length <= site.node.end, `token inside the expression in ${JSON.stringify(text)}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('semantic tokens: documents that are not rulesets', () => {
  it('answers empty data for a JSON file that is not a ruleset', () => {
    const text = '{ "rules": [{ "expression": "ip.src in $svc.vpn" }] }';
    assert.deepEqual(semanticTokens(modelOf(text, 'json', 'file:///work/package.json'), settings()).data, []);
  });

  it('colours a file that is a ruleset by its content, whatever its name', () => {
    const text = '{ "phase": "magic_transit", "rules": [{ "expression": "sip" }] }';
    assert.deepEqual(tokensOf(text, 'json', 'file:///work/firewall.json'), [[0, 55, 3, 'property', '', 'sip']]);
  });

  it('answers empty data for an empty document or one without expressions', () => {
    assert.deepEqual(semanticTokens(modelOf('', 'yaml'), settings()).data, []);
    assert.deepEqual(semanticTokens(modelOf('name: x\nrules: []\n', 'yaml'), settings()).data, []);
  });
});
