import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnostics } from '../../server/src/features/diagnostics';
import { plainText } from '../../server/src/language/problem';
import { readSettings } from '../../server/src/documents/settings';
import { modelOf, settings, textOf } from './harness';

const RULESET_YAML = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in {10.0.0.1/8}\n';

describe('diagnostics feature', () => {
  it('maps severities, codes and ranges, with source `rulesets`', () => {
    const model = modelOf('{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": "tcp.dstprt == 1 and udp.dstport == 70000"}]}', 'json');
    const found = diagnostics(model, settings());
    assert.deepEqual(
      found.map((d) => [d.code, d.severity, textOf(model.text, d.range), d.source]),
      [
        ['unknown-field', DiagnosticSeverity.Error, 'tcp.dstprt', 'rulesets'],
        ['value-out-of-range', DiagnosticSeverity.Warning, '70000', 'rulesets'],
      ],
    );
  });

  it('places ranges where the client does in a file whose lines end in CR LF, LF and CR alike', () => {
    const text = '{"name": "x", "kind": "root", "phase": "magic_transit",\r\n"rules": [\r{"action": "block",\n "expression": "tcp.dstprt == 1"},\r\n{"action": "block", "expression": "udp.dstport == 70000"}]}\r\n';
    const model = modelOf(text, 'json');
    const client = TextDocument.create(model.uri, 'json', 1, text);
    const found = diagnostics(model, settings());
    assert.deepEqual(
      found.map((d) => [d.code, d.range]),
      [
        ['unknown-field', { start: client.positionAt(text.indexOf('tcp.dstprt')), end: client.positionAt(text.indexOf(' == 1')) }],
        ['value-out-of-range', { start: client.positionAt(text.indexOf('70000')), end: client.positionAt(text.indexOf('70000') + 5) }],
      ],
    );
  });

  it('points a repeated rule at the rule it repeats, and fades it', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in $svc.vpn\n  - action: block\n    expression: ip.src  in  $svc.vpn\n';
    const model = modelOf(text, 'yaml');
    const [repeated] = diagnostics(model, settings());
    assert.equal(repeated.code, 'duplicate-rule');
    assert.equal(repeated.severity, DiagnosticSeverity.Warning);
    assert.deepEqual(repeated.tags, [DiagnosticTag.Unnecessary]);
    assert.equal(textOf(text, repeated.range), 'ip.src  in  $svc.vpn');
    assert.equal(repeated.relatedInformation?.length, 1);
    assert.equal(repeated.relatedInformation![0].location.uri, model.uri);
    assert.equal(textOf(text, repeated.relatedInformation![0].location.range), 'ip.src in $svc.vpn');
  });

  it('reports a CIDR block with host bits set as an error, which the old `cidr-host-bits` hint setting does not hide', () => {
    // It was an optional hint until the reference was found to reject it.
    const model = modelOf(RULESET_YAML, 'yaml');
    const expected = [['invalid-cidr', DiagnosticSeverity.Error, '10.0.0.1']];
    const shown = (s: ReturnType<typeof settings>) => diagnostics(model, s).map((d) => [d.code, d.severity, textOf(model.text, d.range)]);
    assert.deepEqual(shown(settings()), expected);
    assert.deepEqual(shown(settings({ hints: { 'cidr-host-bits': false } })), expected);
  });

  it('checks account lists against knownLists when given', () => {
    const text = RULESET_YAML.replace('ip.src in {10.0.0.1/8}', 'ip.src in $office');
    assert.deepEqual(diagnostics(modelOf(text, 'yaml'), settings()), []);
    const found = diagnostics(modelOf(text, 'yaml'), settings({ knownLists: ['offices'] }));
    assert.deepEqual(found.map((d) => d.code), ['unknown-list']);
    assert.match(found[0].message, /did you mean ‘\$offices’/);
  });

  it('uses defaultPhase for a file without a phase', () => {
    // `http.host` is a field of the HTTP phases, not of magic_transit.
    const text = 'name: x\nkind: root\nrules:\n  - action: block\n    expression: http.host == "a"\n';
    const codes = (s: ReturnType<typeof settings>) => diagnostics(modelOf(text, 'yaml'), s).map((d) => d.code);
    assert.deepEqual(codes(settings()), ['phase-not-given'], 'no phase: a field of some phase is not reported');
    assert.deepEqual(codes(settings({ defaultPhase: 'magic_transit' })), ['unknown-field']);
  });

  it('treats a file as a ruleset by name, by rulesets.files pattern, or by content', () => {
    const notByContent = '{"rules": "none here"}';
    assert.ok(diagnostics(modelOf(notByContent, 'json', 'file:///w/a.ruleset.json'), settings()).length > 0, 'by name');
    assert.deepEqual(diagnostics(modelOf(notByContent, 'json', 'file:///w/policy/a.json'), settings()), [], 'not a ruleset');
    const byPattern = settings({ files: ['**/policy/*.json'] });
    assert.ok(diagnostics(modelOf(notByContent, 'json', 'file:///w/policy/a.json'), byPattern).length > 0, 'by pattern');
    assert.ok(diagnostics(modelOf(notByContent, 'json', 'file:///w/other/a.json'), settings({ files: ['a.json'] })).length > 0, 'a bare name matches in any folder');
    const byContent = '{"phase": "magic_transit", "rules": [{"action": "block", "expression": "tcp.dstprt == 1"}]}';
    assert.ok(diagnostics(modelOf(byContent, 'json', 'file:///w/anything.json'), settings()).length > 0, 'by content');
  });

  it('reads settings defensively', () => {
    assert.deepEqual(readSettings(undefined), { files: [], knownLists: [], defaultPhase: undefined, plan: undefined, hints: {} });
    assert.deepEqual(readSettings({ files: ['x', 3], knownLists: ['$a', 'b', null], defaultPhase: '', plan: 'gold', hints: { 'cidr-host-bits': false, other: 'yes' } }), {
      files: ['x'],
      knownLists: ['a', 'b'],
      defaultPhase: undefined,
      plan: undefined,
      hints: { 'cidr-host-bits': false },
    });
    assert.equal(readSettings({ plan: 'pro' }).plan, 'pro');
  });

  it('reads knownLists as a mapping of names to kinds too', () => {
    const read = readSettings({ knownLists: { office: 'ip', $hosts: 'hostname', other: 'nothing', plain: null } });
    assert.deepEqual(read.knownLists, ['office', 'hosts', 'other', 'plain']);
    assert.deepEqual(read.listKinds, { office: 'ip', hosts: 'hostname' });
  });
});

describe('DocumentModel.expressionAt', () => {
  it('ends a block scalar expression at its last character, not at the next line', () => {
    for (const indicator of ['|', '>', '|-', '>+']) {
      const text = `name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ${indicator}\n      ip.src in $svc.vpn\n    description: after\n`;
      const model = modelOf(text, 'yaml');
      const lastChar = text.indexOf('$svc.vpn') + '$svc.vpn'.length;
      assert.equal(model.expressionAt(lastChar)?.offset, 'ip.src in $svc.vpn'.length, `${indicator}: the end of the content is in the expression`);
      assert.equal(model.expressionAt(text.indexOf('    description')), undefined, `${indicator}: the next line is not`);
    }
  });
});

/**
 * The Problems panel, the marker hover and the quick fix menu show an LSP message as plain
 * text: the Markdown backticks the CLI prints around code would show as they are. Code is
 * quoted ‘…’ there, which no expression uses, so an expression's own quotes stay readable.
 */
describe('diagnostic messages are plain text', () => {
  const ruleset = (expression: string) => modelOf(JSON.stringify({ name: 'x', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression }] }), 'json');
  const messagesOf = (expression: string) => diagnostics(ruleset(expression), settings()).map((d) => d.message);

  it('quotes names in ‘…’, not in backticks', () => {
    assert.deepEqual(messagesOf('tcp.dstprt == 22'), ["unknown field ‘tcp.dstprt’ in phase ‘magic_transit’; did you mean ‘tcp.dstport’ or ‘udp.dstport’?"]);
    assert.deepEqual(messagesOf('tcp.dstport in {80-90}'), ['‘80-90’ is not an integer; a range is written ‘80..90’']);
  });

  it("keeps the expression's own quotes inside the quoted code", () => {
    assert.deepEqual(messagesOf('ip.src.country == "br"'), ['country codes are uppercase: ‘"br"’ never matches; write ‘"BR"’ (Brazil)']);
    assert.deepEqual(messagesOf("ip.proto == 'tcp'"), [
      'expected a value (a number, an address, a ‘"string"’, a ‘{…}’ set or a ‘$list’), found ‘\'tcp\'’; strings are written in double quotes: ‘"tcp"’',
    ]);
  });

  it('writes the related information as plain text too', () => {
    const [repeated] = diagnostics(ruleset('tcp.dstport in {22 22}'), settings());
    assert.equal(repeated.code, 'redundant-set-member');
    assert.deepEqual(
      repeated.relatedInformation?.map((r) => r.message),
      ['‘22’, which it repeats'],
    );
  });

  it('quotes a backtick the expression holds as code, and leaves a lone backtick', () => {
    assert.match(messagesOf('ip.src == `')[0], /found ‘`’$/);
    assert.equal(plainText('`cf.colo.name == "a`b"` never matches'), '‘cf.colo.name == "a`b"’ never matches');
    assert.equal(plainText('`and`/`or`/`xor`'), '‘and’/‘or’/‘xor’');
    assert.equal(plainText('a ` alone, and `paired`.'), 'a ` alone, and ‘paired’.');
  });

  it('leaves no backtick in any message of the mistakes example', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'examples', 'mistakes.ruleset.yaml'), 'utf8');
    const found = diagnostics(modelOf(text, 'yaml', 'file:///work/examples/mistakes.ruleset.yaml'), settings());
    assert.ok(found.length > 5, `the example has mistakes: ${found.length}`);
    const texts = found.flatMap((d) => [d.message, ...(d.relatedInformation ?? []).map((r) => r.message)]);
    assert.deepEqual(texts.filter((m) => m.includes('`')), []);
    assert.ok(texts.some((m) => m.includes('‘')), 'code is quoted');
  });
});
