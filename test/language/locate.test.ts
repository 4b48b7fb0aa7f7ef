/**
 * locate / locateInText / callAt: what is at an offset of an expression. Each row is an
 * expression with a cursor `|`; the target's span is checked as the text it covers, and a
 * few rows check the numbers themselves.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { walkExpression, type Expression, type FieldReference, type Operand, type Span } from '../../server/src/language/ast';
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

/** Rows in a phase without a complete table, where calls of any name, arrays and maps are no mistake. */
const HTTP_PARSED: readonly Row[] = [
  ['http.request.headers["x-a|pi-key"][0] == "a"', 'index', '"x-api-key"'],
  ['http.request.headers["x"][|0] == "a"', 'index', '0'],
  ['http.request.headers["x"]|[0] == "a"', 'index', '[0]'],
  ['x[|*] == 1', 'index', '[*]'],
  ['http.request.he|aders["x"][0] == "a"', 'field', 'http.request.headers'],
  ['http.request.headers["x"][0] =|= "a"', 'operator', '=='],
  ['http.request.headers["x"][0] == "|a"', 'literal', '"a"', 'string'],
  ['split(http.host, ".", 3)[|0] == "a"', 'index', '0'],
  ['lower(lo|wer(x)) == "a"', 'function', 'lower'],
  ['lower(lower(|x)) == "a"', 'field', 'x'],
  ['f(x, g(1, "|a")) == 1', 'literal', '"a"', 'string'],
  ['f(x, g(1, "a")|) == 1', 'call', 'f(x, g(1, "a"))'],
  ['f(x =|= "a") == 1', 'operator', '=='],
  ['f(x == "|a") == 1', 'literal', '"a"', 'string'],
  ['f((s|ip) and not y) == 1', 'field', 'sip'],
  ['f((sip) and n|ot y) == 1', 'not', 'not'],
  ['f(x[|0]) == 1', 'index', '0'],
  ['an|y(x[*] == 1)', 'quantifier', 'any'],
  ['any(x[*] == "|a")', 'literal', '"a"', 'string'],
  ['any(x[|*] == 1) or sip', 'index', '[*]'],
  ['any(lower(|x)[*] == "a")', 'field', 'x'],
  ['contains(http.host, "|a")', 'literal', '"a"', 'string'],
];

describe('locate on the AST: calls, quantifiers and index steps', () => {
  const inHttp = (marked: string) => {
    const { text, offset } = cursor(marked);
    const { ast } = checkExpression(text, { phase: 'http_request_firewall_custom' });
    assert.ok(ast, `${text} parses`);
    return { text, target: locate(ast, offset) };
  };
  for (const [marked, kind, text, literalKind] of HTTP_PARSED) {
    it(`${marked} → ${kind} ${text}`, () => {
      const { text: expression, target } = inHttp(marked);
      assert.ok(target, 'a target');
      assert.equal(target.kind, kind);
      assert.equal(covered(expression, target.span), text);
      if (literalKind) assert.equal(target.kind === 'literal' && target.literal.kind, literalKind);
    });
  }

  it('knows the call and argument a target is in, however deep', () => {
    const { target } = inHttp('f(x, g(1, "|a")) == 1');
    assert.ok(target?.kind === 'literal' && target.call);
    assert.equal(target.call.name.text, 'g');
    assert.equal(target.call.argumentIndex, 1);
    const field = inHttp('f(x, lower(|y)[0]) == 1').target;
    assert.ok(field?.kind === 'field' && field.call);
    assert.equal(field.call.name.text, 'lower');
  });

  it('knows the comparison a value inside an argument stands in', () => {
    const { target } = inHttp('f(x == "|a") == 1');
    assert.ok(target?.kind === 'literal');
    assert.equal(target.context.lhs?.kind === 'field' && target.context.lhs.name, 'x');
    assert.equal(target.context.operator?.operator, 'eq');
  });

  it('an index step says which step of which operand', () => {
    const { target } = inHttp('http.request.headers["x-a|pi-key"][0] == "a"');
    assert.ok(target?.kind === 'index');
    assert.equal(target.step.kind === 'key' && target.step.key, 'x-api-key');
    assert.equal(target.target?.kind === 'field' && target.target.name, 'http.request.headers');
    assert.equal(target.operand?.steps.length, 2);
  });

  it('walks a tree of 100,000 levels (however it was built) without recursion', () => {
    // The parser stops at 128 levels; locate and walkExpression do not rely on that.
    const depth = 100_000;
    const field: FieldReference = { kind: 'field', span: { start: 2 * depth, end: 2 * depth + 1 }, name: 'x' };
    let operand: Operand = field;
    for (let level = depth - 1; level >= 0; level--) {
      const name = { text: 'f', span: { start: 2 * level, end: 2 * level + 1 } };
      operand = { kind: 'call', span: { start: 2 * level, end: 4 * depth + 1 - 2 * level }, name, args: [operand] };
    }
    let root: Expression = { kind: 'comparison', span: operand.span, lhs: operand };
    const bang = { text: '!', span: { start: 0, end: 0 } };
    for (let level = 0; level < depth; level++) root = { kind: 'not', span: root.span, operatorToken: bang, operand: root };
    const target = locate(root, 2 * depth);
    assert.ok(target?.kind === 'field' && target.call?.name.span.start === 2 * (depth - 1));
    let visited = 0;
    walkExpression(root, () => visited++);
    assert.equal(visited, depth + 1);
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

  it('calls, quantifiers and index steps while they are typed', () => {
    for (const [marked, kind, text] of [
      ['http.request.headers["x-a|pi', 'index', '"x-api'],
      ['lower(http.host)[|0', 'index', '0'],
      ['x[0][|* ==', 'index', '[*'],
      ['any(x[*] == "|a"', 'literal', '"a"'],
      ['an|y(x', 'quantifier', 'any'],
      ['f(g(x|', 'field', 'x'],
      ['contains(x, "|a"', 'literal', '"a"'],
    ] as const) {
      const { text: expression, target } = unparsed(marked);
      assert.equal(target?.kind, kind, marked);
      assert.equal(target && covered(expression, target.span), text, marked);
    }
    const nested = unparsed('f(g(1, x|').target;
    assert.ok(nested?.kind === 'field' && nested.call?.name.text === 'g' && nested.call.argumentIndex === 1);
    const key = unparsed('http.request.headers["x-a|pi').target;
    assert.ok(key?.kind === 'index' && key.step.kind === 'key' && key.target?.kind === 'field' && key.target.name === 'http.request.headers');
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
      'http.request.headers["x"][0] == "a" and any(x[*] == 1) or lower(http.host)[0] == "b"',
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
    for (const text of ['', '"', 'r#"', '$', '{{{', ')))', '(((', 'a(b(c', ',,,', '== == ==', '\\', '#', 'strict', 'bit_slice(', 'in in', '}{', 'x[', 'x[[[', ']]]', 'x["', 'x[*][', 'any(', 'any(any(', '[0]', 'f(x)[', 'x[0 == 1']) {
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
    ['any(bit_slice(udp, |', 1],
    ['bit_slice(any(|', undefined],
  ];
  for (const [marked, index] of cases) {
    it(`${marked} → ${index ?? 'no call'}`, () => {
      const { text, offset } = cursor(marked);
      const site = callAt(text, offset);
      assert.equal(site?.argumentIndex, index);
      if (site) {
        // `any(…)` is no call: its parentheses hold a test, as a group's do.
        assert.equal(site.name.text, 'bit_slice');
        assert.equal(covered(text, site.name.span), 'bit_slice');
        assert.equal(text[site.open], '(');
      }
    });
  }
});
