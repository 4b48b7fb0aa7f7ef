/**
 * The canonical printer: exact output for each construct, and the properties that make it
 * safe to offer as an editor action: the formatted text parses to the same tree as the
 * source (spans aside), and formatting it again changes nothing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import type { Operand } from '../../server/src/language/ast';
import { FIELDS } from '../../server/src/language/catalogue/fields';
import { formatExpression, printExpression } from '../../server/src/language/format';
import { parseExpression, type ParseOptions } from '../../server/src/language/parser';

const OPTIONS: ParseOptions = { fieldType: (name) => FIELDS.get(name)?.type };

function parse(text: string) {
  return parseExpression(text, OPTIONS);
}

/**
 * The tree without its spans (those of index keys too): what the expression means and how its tokens are spelled.
 * The one token with whitespace inside, `strict wildcard`, is compared with its gap closed
 * to one space, the only change the printer makes to a token.
 */
function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'span' || key.endsWith('Span')) continue;
    out[key] = key === 'text' && typeof value === 'string' && /^strict\s/.test(value) ? value.replace(/\s+/g, ' ') : strip(value);
  }
  return out;
}

function formatted(source: string): string {
  const result = formatExpression(source);
  assert.ok(result, `formats ${JSON.stringify(source)}`);
  return result.text;
}

describe('formatExpression: canonical spacing', () => {
  const ROWS: readonly [string, string][] = [
    // binary operators get one space on each side, spelled as written
    ['ip.src==192.0.2.1', 'ip.src == 192.0.2.1'],
    ['ip.src   eq   192.0.2.1', 'ip.src eq 192.0.2.1'],
    ['sip&&tcp.flags.syn', 'sip && tcp.flags.syn'],
    ['sip   and\n  tcp.flags.syn', 'sip and tcp.flags.syn'],
    ['sip||tcp.flags.ack^^tcp.flags.syn', 'sip || tcp.flags.ack ^^ tcp.flags.syn'],
    ['sip or  tcp.flags.ack xor tcp.flags.syn and tcp.flags.fin', 'sip or tcp.flags.ack xor tcp.flags.syn and tcp.flags.fin'],
    ['tcp.flags&0x02', 'tcp.flags & 0x02'],
    ['tcp.flags  bitwise_and  0x12', 'tcp.flags bitwise_and 0x12'],
    ['ip.ttl<=-1', 'ip.ttl <= -1'],
    ['cf.colo.name~"^ams"', 'cf.colo.name ~ "^ams"'],
    ['cf.colo.name strict   wildcard "ams*"', 'cf.colo.name strict wildcard "ams*"'],
    // sets: no padding inside the braces, one space between items
    ['tcp.dstport in{ 22   80\n443 }', 'tcp.dstport in {22 80 443}'],
    ['tcp.dstport in {  }', 'tcp.dstport in {}'],
    ['ip.src in {10.0.0.0/8 192.0.2.1..192.0.2.9   2001:db8::/32}', 'ip.src in {10.0.0.0/8 192.0.2.1..192.0.2.9 2001:db8::/32}'],
    ['ip.src in   $svc.anonymizer', 'ip.src in $svc.anonymizer'],
    // not, groups, calls
    ['not   sip', 'not sip'],
    ['not(sip)', 'not (sip)'],
    ['! sip', '!sip'],
    ['!  !sip', '!!sip'],
    ['( sip or tcp.flags.syn )', '(sip or tcp.flags.syn)'],
    ['((  sip ))', '((sip))'],
    ['bit_slice ( udp ,64,  72 )==0x45', 'bit_slice(udp, 64, 72) == 0x45'],
    ['bit_slice("tcp",0,8)>1', 'bit_slice("tcp", 0, 8) > 1'],
    ['  true  ', 'true'],
    // literals are copied exactly as written
    ['tcp.flags == 0x1F', 'tcp.flags == 0x1F'],
    ['ip.ttl == 017', 'ip.ttl == 017'],
    ['cf.colo.name  ==  "a  \\x41\\"b"', 'cf.colo.name == "a  \\x41\\"b"'],
    ['cf.colo.name == r#"a  "b"  c"#', 'cf.colo.name == r#"a  "b"  c"#'],
    ['cf.colo.name == "two\nlines"', 'cf.colo.name == "two\nlines"'],
    ['ip contains   01:02:ab', 'ip contains 01:02:ab'],
    ['ip.src == ::ffff:1.2.3.4', 'ip.src == ::ffff:1.2.3.4'],
    // index steps: no space inside or before the brackets; keys and indexes as written
    ['http.request.headers[ "x" ][ 0 ]==  "a"', 'http.request.headers["x"][0] == "a"'],
    ['x[\n*\n] == 1', 'x[*] == 1'],
    ['x["\\x41"][0x1F][010] == 1', 'x["\\x41"][0x1F][010] == 1'],
    // calls in calls, every kind of argument, quantifiers
    ['lower ( lower( http.host ) )[ 0 ]=="a"', 'lower(lower(http.host))[0] == "a"'],
    ['concat( x=="a" ,y  in{1 2}, (a)or b , not  c,!d, r#"e"# )', 'concat(x == "a", y in {1 2}, (a) or b, not c, !d, r#"e"#)'],
    ['f( ) == 1', 'f() == 1'],
    ['contains( http.host , "a" )', 'contains(http.host, "a")'],
    ['any (  x[*]==1 )and all(y[*] != 2)', 'any(x[*] == 1) and all(y[*] != 2)'],
    ['not any( ( x[*] == 1 ) or z )', 'not any((x[*] == 1) or z)'],
  ];
  for (const [source, expected] of ROWS) {
    it(`${JSON.stringify(source)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(formatted(source), expected);
      assert.deepEqual(strip(parse(expected).ast), strip(parse(source).ast));
    });
  }

  it('reports an already canonical expression as unchanged, and the span of the expression proper', () => {
    assert.deepEqual(formatExpression('sip and tcp.flags.syn'), { text: 'sip and tcp.flags.syn', span: { start: 0, end: 21 }, unchanged: true });
    assert.deepEqual(formatExpression('  sip and tcp.flags.syn '), { text: 'sip and tcp.flags.syn', span: { start: 2, end: 23 }, unchanged: false });
  });

  it('does not format what does not parse without errors', () => {
    for (const source of ['tcp.dstport in {22, 443}', 'ip.src ==', 'sip\tand tcp.flags.syn', 'ip.src = 192.0.2.1', 'cf.colo.name == "open', '', 'ip.src == 999.1.1.1']) {
      assert.equal(formatExpression(source), undefined, JSON.stringify(source));
    }
  });

  it('formats expressions with only semantic problems (an unknown field), as they parse', () => {
    assert.equal(formatted('ip.scr==192.0.2.1'), 'ip.scr == 192.0.2.1');
  });

  it('prints a tree given with its source', () => {
    const source = 'not(ip.src in{10.0.0.0/8})&&sip';
    assert.equal(printExpression(parse(source).ast!, source), 'not (ip.src in {10.0.0.0/8}) && sip');
  });

  it('prints a tree 100,000 levels deep (however it was built) without recursion', () => {
    const depth = 100_000;
    const source = `${'f('.repeat(depth)}x${')'.repeat(depth)}`;
    let operand: Operand = { kind: 'field', span: { start: 2 * depth, end: 2 * depth + 1 }, name: 'x' };
    for (let level = depth - 1; level >= 0; level--) {
      operand = { kind: 'call', span: { start: 2 * level, end: 4 * depth + 1 - 2 * level }, name: { text: 'f', span: { start: 2 * level, end: 2 * level + 1 } }, args: [operand] };
    }
    assert.equal(printExpression({ kind: 'comparison', span: operand.span, lhs: operand }, source), source);
  });

  it('formats the deepest nesting the parser accepts', () => {
    const source = `${'( '.repeat(127)}sip${' )'.repeat(127)}`;
    assert.equal(formatted(source), `${'('.repeat(127)}sip${')'.repeat(127)}`);
    const calls = `${'f ( '.repeat(64)}${'any ( '.repeat(64)}x[ * ]${' )'.repeat(128)}`;
    assert.equal(formatted(calls), `${'f('.repeat(64)}${'any('.repeat(64)}x[*]${')'.repeat(128)}`);
  });
});

// ------------------------------------------------------------------ property

/** Whitespace between tokens: none, spaces, line breaks. */
const gap = fc.constantFrom('', '', ' ', ' ', '  ', '\n', '\r\n', ' \n   ', '\r');
const requiredGap = fc.constantFrom(' ', ' ', '  ', '\n', '\r\n', ' \n   ', '\r');

/** Characters after which, or before which, a token runs into its neighbour without a space. */
const WORDISH = /[A-Za-z0-9_.:\-\/$"#']/;

type Tokens = readonly string[];

const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);

const intValue = oneOf('0', '22', '443', '-1', '0x1F', '0x1f', '017', '65535', '8');
const intItem = fc.oneof(intValue, oneOf('10..20', '0..65535', '0x10..0x20', '1..1'));
const ipValue = oneOf('192.0.2.1', '10.0.0.1', '2001:db8::1', '::1', '::ffff:1.2.3.4', 'fe80::1');
const ipItem = fc.oneof(ipValue, oneOf('10.0.0.0/8', '192.0.2.0/24', '2001:db8::/32', '192.0.2.1..192.0.2.9', '::1..::9'));
const stringValue = oneOf('"BR"', '"GB"', '""', '"a  b"', '"\\x41\\"q\\\\"', '"\\101"', 'r"x y"', 'r#"a "b" c"#', '"two\nlines"', '"tab\tinside"', '"{,}"');
// Valid as a regex and as a wildcard as well: there `"\\101"` is a backreference and `"{,}"` repeats nothing.
const patternValue = oneOf('"BR"', '""', '"a  b"', '"\\x41\\"q"', 'r"x y"', 'r#"a "b" c"#', '"two\nlines"', '"tab\tinside"');
const bytesValue = oneOf('aa:bb:cc', '01-02-03', '0a.0b');
const listValue = oneOf('$svc.anonymizer', '$svc.vpn', '$my_list', '$office_ips');
const strictWildcard = fc.integer({ min: 1, max: 3 }).map((n) => `strict${' '.repeat(n)}wildcard`);

function set(item: fc.Arbitrary<string>): fc.Arbitrary<Tokens> {
  return fc.array(item, { maxLength: 4 }).map((items) => ['{', ...items, '}']);
}

const FIELDS_OF = (type: string) => [...FIELDS.values()].filter((f) => f.type === type && !['ip', 'tcp', 'udp', 'icmp'].includes(f.name)).map((f) => f.name);

const comparison: fc.Arbitrary<Tokens> = fc.oneof(
  fc.constantFrom(...FIELDS_OF('Boolean')).map((f) => [f]),
  oneOf('true', 'false').map((b) => [b]),
  fc.tuple(fc.constantFrom(...FIELDS_OF('Integer')), oneOf('==', 'eq', '!=', 'ne', '<', 'lt', '<=', 'le', '>', 'gt', '>=', 'ge'), intValue).map((t) => t),
  fc.tuple(fc.constantFrom(...FIELDS_OF('Integer')), set(intItem)).map(([f, s]) => [f, 'in', ...s]),
  fc.tuple(oneOf('tcp.flags', 'ip.len'), oneOf('&', 'bitwise_and'), intValue).map((t) => t),
  fc.tuple(oneOf('ip.src', 'ip.dst'), oneOf('==', '!=', 'eq', 'ne'), ipValue).map((t) => t),
  fc.tuple(oneOf('ip.src', 'ip.dst'), set(ipItem)).map(([f, s]) => [f, 'in', ...s]),
  fc.tuple(oneOf('ip.src', 'ip.dst'), listValue).map(([f, l]) => [f, 'in', l]),
  fc.tuple(fc.constantFrom(...FIELDS_OF('Bytes')), oneOf('==', '!=', 'contains', 'lt', '>='), stringValue).map((t) => t),
  fc.tuple(fc.constantFrom(...FIELDS_OF('Bytes')), fc.oneof(oneOf('~', 'matches', 'wildcard'), strictWildcard), patternValue).map((t) => t),
  fc.tuple(fc.constantFrom(...FIELDS_OF('Bytes')), set(stringValue)).map(([f, s]) => [f, 'in', ...s]),
  fc.tuple(oneOf('ip', 'tcp', 'udp', 'icmp'), oneOf('contains', '==', '!='), fc.oneof(bytesValue, stringValue)).map((t) => t),
  fc
    .tuple(oneOf('ip', 'tcp', 'udp', 'icmp', '"udp"', 'r"tcp"'), oneOf('0', '8', '64'), oneOf('8', '16', '72'), oneOf('==', '>', 'in'), intValue)
    .map(([p, a, b, op, v]) => ['bit_slice', '(', p, ',', a, ',', b, ')', ...(op === 'in' ? ['in', '{', v, '}'] : [op, v])]),
);

const LOGICAL = ['and', 'or', 'xor', '&&', '||', '^^'];

/** A field with index steps, as one token: no space may come before a `[`, any may come inside. */
const indexed: fc.Arbitrary<string> = fc
  .tuple(oneOf('http.request.headers', 'http.request.uri.args', 'x'), fc.array(fc.tuple(gap, oneOf('"a"', '"x-api-key"', '"\\x41"', '0', '1', '0x1F', '010', '*'), gap), { minLength: 1, maxLength: 3 }))
  .map(([name, steps]) => `${name}${steps.map(([a, key, b]) => `[${a}${key}${b}]`).join('')}`);
/** Literals a call takes as arguments. */
const literalArgument = fc.oneof(intValue, stringValue, oneOf('10.0.0.1', 'aa:bb'));

const { expression } = fc.letrec<{ expression: Tokens; argument: Tokens; call: Tokens }>((tie) => ({
  call: fc
    .tuple(oneOf('lower', 'concat', 'f', 'contains'), fc.array(tie('argument'), { maxLength: 3 }), oneOf('', '[0]', '[*]'))
    .map(([name, args, step]) => [name, '(', ...args.flatMap((arg, i) => (i > 0 ? [',', ...arg] : arg)), `)${step}`]),
  argument: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literalArgument.map((l) => [l]),
    indexed.map((i) => [i]),
    tie('call'),
    fc.tuple(indexed, oneOf('==', 'contains', 'in'), stringValue).map(([i, op, v]) => (op === 'in' ? [i, op, '{', v, '}'] : [i, op, v])),
    tie('expression').map((e) => ['(', ...e, ')']),
    fc.tuple(oneOf('not', '!'), comparison).map(([op, c]) => [op, ...c]),
  ),
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.tuple(indexed, oneOf('==', '!=', 'contains', '~'), patternValue).map((t) => t),
    fc.tuple(tie('call'), oneOf('==', '>', 'contains'), intValue).map(([call, op, v]) => [...call, op, v]),
    fc.tuple(oneOf('any', 'all'), tie('argument')).map(([q, arg]) => [q, '(', ...arg, ')']),
    fc.tuple(oneOf('not', '!'), tie('expression')).map(([op, e]) => [op, ...e]),
    tie('expression').map((e) => ['(', ...e, ')']),
    fc
      .tuple(tie('expression'), fc.array(fc.tuple(fc.constantFrom(...LOGICAL), tie('expression')), { minLength: 1, maxLength: 3 }))
      .map(([first, rest]) => [...first, ...rest.flatMap(([op, e]) => [op, ...e])]),
  ),
}));

/** The tokens joined by random whitespace, with a space at least where two words would merge. */
const source: fc.Arbitrary<string> = expression.chain((tokens) =>
  fc.tuple(gap, fc.array(gap, { minLength: tokens.length, maxLength: tokens.length }), fc.array(requiredGap, { minLength: tokens.length, maxLength: tokens.length }), gap).map(([lead, gaps, required, trail]) => {
    let text = lead;
    tokens.forEach((token, i) => {
      if (i > 0) {
        const merge = WORDISH.test(tokens[i - 1][tokens[i - 1].length - 1]) && WORDISH.test(token[0]);
        text += merge || tokens[i - 1] === 'not' ? required[i] : gaps[i];
      }
      text += token;
    });
    return text + trail;
  }),
);

describe('formatExpression: properties', () => {
  it('the generator makes expressions that parse without errors', () => {
    fc.assert(
      fc.property(source, (text) => {
        const parsed = parse(text);
        assert.ok(parsed.ast, `parses: ${JSON.stringify(text)}`);
        assert.deepEqual(parsed.problems.filter((p) => p.severity === 'error'), [], JSON.stringify(text));
      }),
      { numRuns: 300 },
    );
  });

  it('never changes the tree (modulo spans), and is idempotent', () => {
    fc.assert(
      fc.property(source, (text) => {
        const before = parse(text);
        const result = formatExpression(text);
        assert.ok(result, `formats ${JSON.stringify(text)}`);
        const after = parse(result.text);
        assert.ok(after.ast, `the formatted text parses: ${JSON.stringify(result.text)}`);
        assert.deepEqual(strip(after.ast), strip(before.ast));
        assert.deepEqual(after.problems.map((p) => p.code), before.problems.map((p) => p.code));
        const again = formatExpression(result.text);
        assert.ok(again);
        assert.equal(again.text, result.text);
        assert.ok(again.unchanged);
        assert.equal(result.text, result.text.trim());
      }),
      { numRuns: 1000 },
    );
  });

  it('changes only whitespace outside string literals', () => {
    fc.assert(
      fc.property(source, (text) => {
        const result = formatExpression(text)!;
        // Outside strings, the non-space characters are the same, in the same order.
        const squeeze = (s: string) => s.replace(/r(#*)"[\s\S]*?"\1|"(?:\\[\s\S]|[^"\\])*"/g, '"…"').replace(/[ \r\n]+/g, '');
        assert.equal(squeeze(result.text), squeeze(text));
      }),
      { numRuns: 300 },
    );
  });
});
