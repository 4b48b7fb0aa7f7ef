import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SymbolKind, type DocumentSymbol, type Range } from 'vscode-languageserver';

import { documentSymbols, oneLine } from '../../server/src/features/symbols';
import { modelOf, settings, textOf } from './harness';

// A symbol is written as [name, kind, detail, range, selectionRange, children], ranges as
// [startLine, startCharacter, endLine, endCharacter] (0-based, UTF-16), counted by hand
// from the documents.

type At = [number, number, number, number];
type Sym = [name: string, kind: SymbolKind, detail: string | undefined, range: At, selection: At, children?: Sym[]];

const EXAMPLES = join(__dirname, '..', '..', 'examples');

function at(range: Range): At {
  return [range.start.line, range.start.character, range.end.line, range.end.character];
}

function brief(symbol: DocumentSymbol): Sym {
  const entry: Sym = [symbol.name, symbol.kind, symbol.detail, at(symbol.range), at(symbol.selectionRange)];
  if (symbol.children) entry.push(symbol.children.map(brief));
  return entry;
}

function symbolsOf(text: string, format: 'json' | 'yaml', uri?: string): DocumentSymbol[] {
  return documentSymbols(modelOf(text, format, uri), settings());
}

function example(name: string): { text: string; symbols: DocumentSymbol[] } {
  const text = readFileSync(join(EXAMPLES, name), 'utf8');
  return { text, symbols: symbolsOf(text, name.endsWith('.json') ? 'json' : 'yaml', `file:///examples/${name}`) };
}

/** LSP requires every selectionRange inside its range, and children inside their parent. */
function assertNested(symbols: readonly DocumentSymbol[], parent?: Range): void {
  const before = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  const inside = (inner: Range, outer: Range) => before(outer.start, inner.start) && before(inner.end, outer.end);
  for (const symbol of symbols) {
    assert.ok(symbol.name.length > 0 && !/\n/.test(symbol.name), `name ${JSON.stringify(symbol.name)}`);
    assert.ok(inside(symbol.selectionRange, symbol.range), `selectionRange of ${symbol.name} inside its range`);
    if (parent) assert.ok(inside(symbol.range, parent), `${symbol.name} inside its parent`);
    assertNested(symbol.children ?? [], symbol.range);
  }
}

const { Module, Function } = SymbolKind;

describe('document symbols: examples', () => {
  it('JSON: the ruleset and its rules, with exact ranges', () => {
    const { text, symbols } = example('allow-ssh-only.ruleset.json');
    assert.deepEqual(symbols.map(brief), [
      ['Allow SSH only', Module, 'magic_transit', [0, 0, 21, 1], [1, 10, 1, 26], [
        ['Let SSH through', Function, 'skip the rest of this ruleset', [6, 4, 13, 5], [9, 20, 9, 41]],
        ['Block every other TCP destination port', Function, 'block', [14, 4, 19, 5], [16, 20, 16, 41]],
      ]],
    ]);
    assertNested(symbols);
    assert.equal(textOf(text, symbols[0].selectionRange), '"Allow SSH only"');
    assert.equal(textOf(text, symbols[0].children![1].selectionRange), '"ip.proto == \\"tcp\\""');
    assert.ok(textOf(text, symbols[0].children![0].range).startsWith('{\n      "action": "skip"'));
  });

  it('JSON: three rules', () => {
    const { symbols } = example('block-threat-lists.ruleset.json');
    assert.deepEqual(symbols.map(brief), [
      ['Block managed threat lists', Module, 'magic_transit', [0, 0, 25, 1], [1, 10, 1, 38], [
        ['Botnet command-and-control, both directions', Function, 'block', [6, 4, 11, 5], [8, 20, 8, 72]],
        ['Malware sources and anonymizers', Function, 'block', [12, 4, 17, 5], [14, 20, 14, 73]],
        ['No remote administration through proxies or VPNs', Function, 'block', [18, 4, 23, 5], [20, 20, 20, 102]],
      ]],
    ]);
  });

  it('YAML: ranges end at the last character, not on the next line', () => {
    const { text, symbols } = example('allow-ssh-only.ruleset.yaml');
    assert.deepEqual(symbols.map(brief), [
      // The root mapping starts after the leading comments.
      ['Allow SSH only', Module, 'magic_transit', [2, 0, 18, 17], [2, 6, 2, 20], [
        ['Let SSH through', Function, 'skip the rest of this ruleset', [7, 4, 14, 19], [10, 16, 10, 35]],
        ['Block every other TCP destination port', Function, 'block', [15, 4, 18, 17], [16, 16, 16, 35]],
      ]],
    ]);
    assertNested(symbols);
    assert.equal(textOf(text, symbols[0].children![1].selectionRange), `'ip.proto == "tcp"'`);
  });

  it('YAML: a folded and a literal block expression select the whole block', () => {
    const country = example('block-country.ruleset.yaml');
    assert.deepEqual(country.symbols.map(brief), [
      ['Block traffic from embargoed countries', Module, 'magic_transit', [0, 0, 15, 17], [0, 6, 0, 44], [
        ['Block North Korea', Function, 'block', [5, 4, 8, 17], [6, 16, 6, 40]],
        ['Block sources in these countries, except towards the public status page', Function, 'block', [9, 4, 15, 17], [11, 16, 13, 38]],
      ]],
    ]);
    assert.equal(textOf(country.text, country.symbols[0].children![1].selectionRange), '>-\n      ip.src.country in {"CU" "IR" "SY"}\n      and not ip.dst in {192.0.2.0/24}');
    const lists = example('block-threat-lists.ruleset.yaml');
    assert.deepEqual(lists.symbols.map(brief), [
      ['Block managed threat lists', Module, 'magic_transit', [0, 0, 19, 17], [0, 6, 0, 32], [
        ['Botnet command-and-control, both directions', Function, 'block', [5, 4, 8, 17], [6, 16, 6, 66]],
        ['Malware sources and anonymizers', Function, 'block', [9, 4, 12, 17], [10, 16, 10, 67]],
        ['No remote administration through proxies or VPNs', Function, 'block', [13, 4, 19, 17], [15, 16, 17, 34]],
      ]],
    ]);
  });

  it('every example file has well-nested symbols', () => {
    for (const name of ['allow-ssh-only', 'block-country', 'block-threat-lists']) {
      for (const ext of ['json', 'yaml']) assertNested(example(`${name}.ruleset.${ext}`).symbols);
    }
    assertNested(example('mistakes.ruleset.yaml').symbols);
  });
});

describe('document symbols: names', () => {
  it('a rule without a description is named by its action and a short expression', () => {
    const text = [
      'name: Rules', // 0
      'kind: root', // 1
      'phase: magic_transit', // 2
      'rules:', // 3
      '  - action: block', // 4
      '    expression: ip.src in $svc.anonymizer or ip.src in $svc.malware or ip.src in $svc.vpn', // 5
      '  - action: skip', // 6
      '    expression: |', // 7
      '      tcp.dstport in {22}', // 8
      '        and sip', // 9
      '    enabled: false', // 10
      '  - expression: sip', // 11
      '  - action: block', // 12
      '  - {}', // 13
      '  - description: "  Spread\\n  over lines "', // 14
      '    action: block', // 15
      '',
    ].join('\n');
    const symbols = symbolsOf(text, 'yaml');
    assert.deepEqual(symbols.map(brief), [
      ['Rules', Module, 'magic_transit', [0, 0, 15, 17], [0, 6, 0, 11], [
        // Cut at 40 characters of the expression, with `…`.
        ['block: ip.src in $svc.anonymizer or ip.src in…', Function, 'block', [4, 4, 5, 89], [5, 16, 5, 89]],
        // Line breaks and runs of spaces read as one space; a disabled rule says so.
        ['skip: tcp.dstport in {22} and sip', Function, 'skip (disabled)', [6, 4, 10, 18], [7, 16, 9, 15]],
        ['sip', Function, undefined, [11, 4, 11, 19], [11, 16, 11, 19]],
        // No expression: selected at the rule's start.
        ['block', Function, 'block', [12, 4, 12, 17], [12, 4, 12, 4]],
        ['rule 5', Function, undefined, [13, 4, 13, 6], [13, 4, 13, 4]],
        ['Spread over lines', Function, 'block', [14, 4, 15, 17], [14, 4, 14, 4]],
      ]],
    ]);
    assertNested(symbols);
  });

  it('a rule is named by what its action does, its description first; the effect is its detail', () => {
    const text = [
      'name: Actions', // 0
      'kind: zone', // 1
      'phase: http_request_dynamic_redirect', // 2
      'rules:', // 3
      '  - action: redirect', // 4
      '    expression: http.request.uri.path eq "/old"', // 5
      '    action_parameters:', // 6
      '      from_value: {status_code: 301, target_url: {value: "https://example.com/new"}}', // 7
      '  - action: rewrite', // 8
      '    expression: "true"', // 9
      '    action_parameters:', // 10
      '      uri: {path: {expression: \'concat("/v2", http.request.uri.path)\'}}', // 11
      '  - action: rewrite', // 12
      '    expression: "true"', // 13
      '    action_parameters:', // 14
      '      headers:', // 15
      '        X-Frame-Options: {operation: set, value: DENY}', // 16
      '        X-Powered-By: {operation: remove}', // 17
      '  - action: route', // 18
      '    expression: "true"', // 19
      '    description: Send the API to its own origin', // 20
      '    action_parameters: {origin: {host: origin.example.com, port: 8443}}', // 21
      '  - action: skip', // 22
      '    expression: "true"', // 23
      '    action_parameters: {phases: [http_ratelimit, http_request_sbfm], products: [waf]}', // 24
      '  - action: block', // 25
      '    expression: ip.src in $bad', // 26
      '    description: Bad sources', // 27
      '  - action: redirect', // 28
      '    expression: "true"', // 29
      '    action_parameters: {from_value: {status_code: "301"}}', // 30
      '',
    ].join('\n');
    const symbols = symbolsOf(text, 'yaml');
    assert.deepEqual(
      symbols[0].children!.map((s) => [s.name, s.detail]),
      [
        ['redirect → https://example.com/new (301)', 'redirect'],
        // Values and expressions are cut short: the outline is a list of names.
        ['rewrite path → concat("/v2", http.request.uri.…', 'rewrite'],
        ['set headers X-Frame-Options, X-Powered-By (removed)', 'rewrite'],
        // The description stays the name, as before; what the rule does is its detail.
        ['Send the API to its own origin', 'route → origin.example.com:8443'],
        ['skip phases http_ratelimit, http_request_sbfm; products waf', 'skip'],
        ['Bad sources', 'block'],
        // Nothing to say without a target: named as a rule without parameters is.
        ['redirect: true', 'redirect'],
      ],
    );
    assertNested(symbols);
  });

  it('oneLine collapses whitespace and cuts long text with an ellipsis', () => {
    assert.equal(oneLine('  a\n\t b  ', 40), 'a b');
    assert.equal(oneLine('x'.repeat(40), 40), 'x'.repeat(40));
    assert.equal(oneLine('x'.repeat(41), 40), `${'x'.repeat(39)}…`);
    assert.equal(oneLine(`${'x'.repeat(38)}😀yz`, 40), `${'x'.repeat(38)}…`, 'never half a surrogate pair');
  });

  it('a ruleset without a name is still a symbol, selected at its start', () => {
    const text = '{ "phase": "magic_transit", "rules": [] }';
    assert.deepEqual(symbolsOf(text, 'json', 'file:///x.ruleset.json').map(brief), [['ruleset', Module, 'magic_transit', [0, 0, 0, 41], [0, 0, 0, 0], []]]);
  });
});

describe('document symbols: broken documents and other files', () => {
  it('JSON cut off in the middle of a rule: what can be read', () => {
    const text = [
      '{', // 0
      '  "name": "Broken",', // 1
      '  "phase": "magic_transit",', // 2
      '  "rules": [', // 3
      '    { "action": "block", "expression": "ip.src in $svc.vpn" },', // 4
      '    { "action": "skip", "expression": "ip.src in {10.0.0.0/8', // 5
    ].join('\n');
    const symbols = symbolsOf(text, 'json', 'file:///broken.ruleset.json');
    assert.deepEqual(symbols.map(brief), [
      ['Broken', Module, 'magic_transit', [0, 0, 5, 60], [1, 10, 1, 18], [
        ['block: ip.src in $svc.vpn', Function, 'block', [4, 4, 4, 61], [4, 39, 4, 59]],
        // The string runs to the end of the document; so do the rule and the ruleset.
        ['skip: ip.src in {10.0.0.0/8', Function, 'skip', [5, 4, 5, 60], [5, 38, 5, 60]],
      ]],
    ]);
    assertNested(symbols);
  });

  it('YAML with a syntax error and a rule that is no object', () => {
    const text = [
      'phase: magic_transit', // 0
      'rules:', // 1
      '  - action: block', // 2
      '    expression: ip.src in $svc.vpn', // 3
      '  - 42', // 4
      '  - action: skip', // 5
      '    expression: "tcp.dstport in {22}', // 6
      '',
    ].join('\n');
    const symbols = symbolsOf(text, 'yaml', 'file:///broken.ruleset.yaml');
    assert.deepEqual(symbols.map(brief), [
      ['ruleset', Module, 'magic_transit', [0, 0, 6, 36], [0, 0, 0, 0], [
        ['block: ip.src in $svc.vpn', Function, 'block', [2, 4, 3, 34], [3, 16, 3, 34]],
        ['skip: tcp.dstport in {22}', Function, 'skip', [5, 4, 6, 36], [6, 16, 6, 36]],
      ]],
    ]);
    assertNested(symbols);
  });

  it('a rule whose broken line the YAML library counts into the rule but not into the list above it: the rule stays inside its ruleset (the fuzzed ruleset of issue 35)', () => {
    for (const text of [
      'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    {1.2.3.4 10.0.0.0/8 ::1} wildcard andexpression: >-\n',
      'phase: http_request_firewall_custom\nrules:\n  - action: block\n    {1.2.3.4 10.0.0.0/8 ::1} wildcard andexpression: >-\n\n',
    ]) {
      const symbols = symbolsOf(text, 'yaml');
      assertNested(symbols);
      // The rule is there, and its range is the broken line's too: the outline shows what is written.
      const [rule] = symbols[0].children!;
      assert.equal(rule.name, 'block');
      assert.equal(rule.range.end.line, text.split('\n').findIndex((l) => l.includes('wildcard andexpression')));
    }
  });

  it('no symbols for a file that is not a ruleset, an empty one, or one whose top level is not an object', () => {
    assert.deepEqual(symbolsOf('{ "name": "pkg", "version": "1.0.0" }', 'json', 'file:///work/package.json'), []);
    assert.deepEqual(symbolsOf('', 'yaml'), []);
    assert.deepEqual(symbolsOf('[1, 2]', 'json'), []);
    // A ruleset by its file name, cut off before anything but its start.
    assert.deepEqual(symbolsOf('{ "name": ', 'json').map(brief), [['ruleset', Module, undefined, [0, 0, 0, 9], [0, 0, 0, 0], []]]);
  });
});
