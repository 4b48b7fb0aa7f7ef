/**
 * locate / locateInText / callAt: what is at an offset of an expression. Each row is an
 * expression with a cursor `|`; the target's span is checked as the text it covers, and a
 * few rows check the numbers themselves.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import type { Span } from '../../server/src/language/ast';
import { FIELDS } from '../../server/src/language/catalogue/fields';
import { checkExpression } from '../../server/src/language/checker';
import { scanTokens } from '../../server/src/language/lex';
import { callAt, locate, locateInText, type Target } from '../../server/src/language/locate';

function cursor(marked: string): { text: string; offset: number } {
  for (let i = 0; i < marked.length; i++) {
    if (marked[i] === '|' && marked[i - 1] !== '|' && marked[i + 1] !== '|') return { text: marked.slice(0, i) + marked.slice(i + 1), offset: i };
  }
  throw new Error(`no cursor in ${marked}`);
}

const fieldType = (name: string) => FIELDS.get(name)?.type;

function parsed(marked: string): { text: string; target: Target | undefined } {
  const { text, offset } = cursor(marked);
  const { ast } = checkExpression(text, { phase: 'magic_transit' });
  assert.ok(ast, `${text} parses`);
  return { text, target: locate(ast, offset) };
}

function unparsed(marked: string): { text: string; target: Target | undefined } {
  const { text, offset } = cursor(marked);
  assert.equal(checkExpression(text).ast, undefined, `${text} does not parse`);
  return { text, target: locateInText(text, offset, { fieldType }) };
}

function covered(text: string, span: Span): string {
  return text.slice(span.start, span.end);
}

/** [marked expression, target kind, the text the target's span covers, literal kind] */
type Row = readonly [string, Target['kind'], string, string?];

const PARSED: readonly Row[] = [
  ['ip.sr|c == 10.0.0.1', 'field', 'ip.src'],
  ['|ip.src == 10.0.0.1', 'field', 'ip.src'],
  ['ip.src| == 10.0.0.1', 'field', 'ip.src'], // at the end of the token
  ['ip.src =|= 10.0.0.1', 'operator', '=='],
  ['ip.src e|q 10.0.0.1', 'operator', 'eq'],
  ['cf.colo.name stri|ct wildcard "a*"', 'operator', 'strict wildcard'],
  ['cf.colo.name strict  wild|card "a*"', 'operator', 'strict  wildcard'],
  ['tcp.dstport i|n {80}', 'operator', 'in'],
  ['tcp.flags &| 0x02', 'operator', '&'],
  ['sip a|nd tcp.flags.syn', 'logical', 'and'],
  ['sip |&& tcp.flags.syn', 'logical', '&&'],
  ['sip or tcp.flags.syn x|or tcp.flags.ack', 'logical', 'xor'],
  ['n|ot sip', 'not', 'not'],
  ['|!sip', 'not', '!'],
  ['not not s|ip', 'field', 'sip'],
  ['tr|ue', 'boolean', 'true'],
  ['tcp.dstport == 4|43', 'literal', '443', 'integer'],
  ['tcp.dstport == 0x1|f', 'literal', '0x1f', 'integer'],
  ['tcp.dstport in {80 1024..6553|5}', 'literal', '1024..65535', 'integer-range'],
  ['ip.src.country == "B|R"', 'literal', '"BR"', 'string'],
  ['ip.src.country == r#"B|R"#', 'literal', 'r#"BR"#', 'string'],
  ['cf.colo.name == a|a:bb:cc', 'literal', 'aa:bb:cc', 'bytes'],
  ['ip.src == 192.0.|2.1', 'literal', '192.0.2.1', 'ip'],
  ['ip.src in {10.0.0.0/|8}', 'literal', '10.0.0.0/8', 'ip-range'],
  ['ip.src in {10.0.0.1..10.0.0.|9}', 'literal', '10.0.0.1..10.0.0.9', 'ip-range'],
  ['ip.src in {2001:db8::/3|2}', 'literal', '2001:db8::/32', 'ip-range'],
  ['tcp.dstport == 0|80', 'literal', '080', 'invalid'],
  ['tcp.dstport in |{80 443}', 'set', '{80 443}'],
  ['tcp.dstport in {80 443|}', 'set', '{80 443}'],
  ['tcp.dstport in {80 | 443}', 'set', '{80  443}'],
  ['ip.src in $svc.anon|ymizer', 'list', '$svc.anonymizer'],
  ['bit_sl|ice(udp, 64, 72) == 0x45', 'function', 'bit_slice'],
  ['bit_slice(u|dp, 64, 72) == 0x45', 'field', 'udp'],
  ['bit_slice(udp, 6|4, 72) == 0x45', 'literal', '64', 'integer'],
  ['bit_slice(udp,| 64, 72) == 0x45', 'call', 'bit_slice(udp, 64, 72)'],
  ['bit_slice(udp, 64, 72) == 0x4|5', 'literal', '0x45', 'integer'],
];

describe('locate on the AST', () => {
  for (const [marked, kind, text, literalKind] of PARSED) {
    it(`${marked} → ${kind} ${text}`, () => {
      const { text: expression, target } = parsed(marked);
      assert.ok(target, 'a target');
      assert.equal(target.kind, kind);
      assert.equal(covered(expression, target.span), text);
      if (literalKind) assert.equal(target.kind === 'literal' && target.literal.kind, literalKind);
    });
  }

  it('gives spans in expression offsets', () => {
    const { target } = parsed('ip.src.country == "B|R" and tcp.dstport in {80 443}');
    assert.deepEqual(target?.span, { start: 18, end: 22 });
    const port = parsed('ip.src.country == "BR" and tcp.dstport in {80 4|43}').target;
    assert.deepEqual(port?.span, { start: 46, end: 49 });
  });

  it('knows the comparison a value stands in', () => {
    const { target } = parsed('ip.src.country == "BR" and tcp.dstport in {80 4|43}');
    assert.equal(target?.kind, 'literal');
    if (target?.kind !== 'literal') return;
    assert.equal(target.context.lhs?.kind === 'field' && target.context.lhs.name, 'tcp.dstport');
    assert.equal(target.context.operator?.operator, 'in');
    assert.equal(target.set?.items.length, 2);
    assert.ok(target.context.comparison);
  });

  it('knows which argument of a call a literal is', () => {
    const { target } = parsed('bit_slice(udp, 64, 7|2) == 1');
    assert.ok(target?.kind === 'literal' && target.call);
    assert.equal(target.call.name.text, 'bit_slice');
    assert.equal(target.call.argumentIndex, 2);
    const field = parsed('bit_slice(u|dp, 64, 72) == 1').target;
    assert.ok(field?.kind === 'field' && field.call?.argumentIndex === 0);
  });

  it('finds the logical operator the parser read, with its precedence level', () => {
    const { target } = parsed('sip or tcp.flags.syn |and tcp.flags.ack');
    assert.ok(target?.kind === 'logical');
    assert.equal(target.operator, 'and');
    assert.deepEqual(target.span, { start: 21, end: 24 });
  });

  it('finds nothing on a parenthesis or between comparisons', () => {
    assert.equal(parsed('|(sip)').target, undefined);
    assert.equal(parsed('(sip) or  | tcp.flags.syn').target, undefined);
  });

  it('walks 128 levels of nesting without recursion', () => {
    const depth = 128;
    const marked = `${'('.repeat(depth - 1)}s|ip${')'.repeat(depth - 1)}`;
    const { target } = parsed(marked);
    assert.equal(target?.kind, 'field');
  });
});

const UNPARSED: readonly Row[] = [
  ['ip.src.coun|try == "BR" and', 'field', 'ip.src.country'],
  ['ip.src.country =|= "BR" and', 'operator', '=='],
  ['ip.src.country == "B|R" and', 'literal', '"BR"', 'string'],
  ['ip.src.country == "BR" a|nd', 'logical', 'and'],
  ['tcp.dstport in {80 4|43', 'literal', '443', 'integer'],
  ['tcp.dstport in {80 0..6553|5', 'literal', '0..65535', 'integer-range'],
  ['ip.src in {10.0.0.0/|8', 'literal', '10.0.0.0/8', 'ip-range'],
  ['ip.src in {10.0.0.0/8 }| and', 'set', '{10.0.0.0/8 }'],
  ['ip.src in $svc.v|pn or', 'list', '$svc.vpn'],
  ['no|t sip and (', 'not', 'not'],
  ['|!sip or', 'not', '!'],
  ['sip |&& (', 'logical', '&&'],
  ['bit_sl|ice(udp, 64', 'function', 'bit_slice'],
  ['bit_slice(u|dp, 64', 'field', 'udp'],
  ['bit_slice(udp, 6|4', 'literal', '64', 'integer'],
  ['bit_slice(udp,| 64', 'call', 'bit_slice(udp, 64'],
  ['bit_slice(udp, 64, 72) == 0x4|5 or', 'literal', '0x45', 'integer'],
  ['cf.colo.name strict wild|card "a*" or', 'operator', 'strict wildcard'],
  ['tr|ue or', 'boolean', 'true'],
  ['tcp.dstport == 08|0 and', 'literal', '080', 'invalid'],
  ['ip.src.country == "\\|q" or', 'literal', '"\\q"', 'invalid'],
];

describe('locateInText, for an expression that does not parse', () => {
  for (const [marked, kind, text, literalKind] of UNPARSED) {
    it(`${marked} → ${kind} ${text}`, () => {
      const { text: expression, target } = unparsed(marked);
      assert.ok(target, 'a target');
      assert.equal(target.kind, kind);
      assert.equal(covered(expression, target.span), text);
      if (literalKind) assert.equal(target.kind === 'literal' && target.literal.kind, literalKind);
    });
  }

  it('reads a value by the type of the field before the operator', () => {
    const { target } = unparsed('tcp.dstport in {80 4|43');
    assert.ok(target?.kind === 'literal');
    assert.equal(target.context.lhs?.kind === 'field' && target.context.lhs.name, 'tcp.dstport');
    assert.equal(target.literal.kind === 'integer' && target.literal.value, 443n);
    // After an IP field the same kind of text is an address.
    const ip = unparsed('ip.src == 10.0.0.|1 and').target;
    assert.equal(ip?.kind === 'literal' && ip.literal.kind, 'ip');
  });

  it('reads a word named like a member of every JS object as a field, not an operator', () => {
    for (const word of ['toString', 'constructor', 'valueOf', '__proto__']) {
      assert.equal(unparsed(`${word}| == 1 ==`).target?.kind, 'field', word);
    }
  });

  it('counts the arguments of an unfinished call', () => {
    const { target } = unparsed('bit_slice(udp, 64, 7|2');
    assert.ok(target?.kind === 'literal' && target.call);
    assert.equal(target.call.argumentIndex, 2);
  });

  it('finds the same targets as locate where the expression parses', () => {
    const expressions = [
      'ip.src.country == "BR" and tcp.dstport in {80 443 1024..65535}',
      'not ip.src in $svc.anonymizer or (ip.dst in {10.0.0.0/8 192.0.2.1..192.0.2.9} && !sip)',
      'bit_slice(udp, 64, 72) == 0x45 xor cf.colo.name strict wildcard r#"a*"#',
      'tcp.flags & 0x12 and ip.proto in {"tcp" "udp"} and cf.colo.name == aa:bb',
      'true',
    ];
    for (const text of expressions) {
      const { ast } = checkExpression(text);
      assert.ok(ast);
      for (let offset = 0; offset <= text.length; offset++) {
        const a = locate(ast, offset);
        const b = locateInText(text, offset, { fieldType });
        const describe = (t: Target | undefined) => (t ? `${t.kind} ${covered(text, t.span)}` : 'nothing');
        assert.equal(describe(b), describe(a), `${text} at ${offset}`);
      }
    }
  });

  it('never throws on odd input', () => {
    for (const text of ['', '"', 'r#"', '$', '{{{', ')))', '(((', 'a(b(c', ',,,', '== == ==', '\\', '#', 'strict', 'bit_slice(', 'in in', '}{']) {
      for (let offset = 0; offset <= text.length; offset++) locateInText(text, offset, { fieldType });
    }
  });
});

describe('scanTokens', () => {
  it('splits strings, raw strings, lists, words and symbols', () => {
    const tokens = scanTokens('a strict  wildcard r#"x" y"# "q\\"," $svc.x != !b, (1..5)');
    assert.deepEqual(
      tokens.map((t) => [t.kind, t.text]),
      [
        ['word', 'a'],
        ['word', 'strict  wildcard'],
        ['raw-string', 'r#"x" y"#'],
        ['string', '"q\\","'],
        ['list', '$svc.x'],
        ['symbol', '!='],
        ['symbol', '!'],
        ['word', 'b'],
        [',', ','],
        ['(', '('],
        ['word', '1..5'],
        [')', ')'],
      ],
    );
    assert.deepEqual(tokens[2].span, { start: 19, end: 28 });
  });

  it('reads an unterminated string to the end', () => {
    assert.deepEqual(scanTokens('x == "ab, c').map((t) => t.text), ['x', '==', '"ab, c']);
  });
});

describe('callAt', () => {
  const cases: readonly [string, number | undefined][] = [
    ['bit_slice(|udp, 64, 72) == 1', 0],
    ['bit_slice(udp|, 64, 72) == 1', 0],
    ['bit_slice(udp,| 64, 72) == 1', 1],
    ['bit_slice(udp, 64, |72) == 1', 2],
    ['bit_slice(udp, 64|', 1],
    ['bit_slice(|', 0],
    ['bit_slice (udp, |', 1],
    ['bit_slice("a,b", |', 1],
    ['sip and (bit_slice(udp, 1, |', 2],
    ['bit_slice|(udp, 64, 72) == 1', undefined],
    ['bit_slice(udp, 64, 72)| == 1', undefined],
    ['(sip or |tcp.flags.syn)', undefined],
    ['ip.src.country == "bit_slice(a, |"', undefined],
  ];
  for (const [marked, index] of cases) {
    it(`${marked} → ${index ?? 'no call'}`, () => {
      const { text, offset } = cursor(marked);
      const site = callAt(text, offset);
      assert.equal(site?.argumentIndex, index);
      if (site) {
        assert.equal(site.name.text, 'bit_slice');
        assert.equal(covered(text, site.name.span), 'bit_slice');
        assert.equal(text[site.open], '(');
      }
    });
  }
});
