/**
 * fast-check arbitraries of rule expressions, from the grammar of LANGUAGE.md §2–§7: mostly
 * well-formed, typed by the field on the left, and some mutated (a character or a token
 * deleted, inserted or swapped). Used by the differential test against the reference engine.
 * The literal, whitespace and mutation arbitraries are exported for generate-http.ts, which writes
 * the same literals for the HTTP phases.
 */
import fc from 'fast-check';

import { FIELDS } from '../../server/src/language/catalogue/fields';
import type { ScalarType } from '../../server/src/language/ast';

export type Arb = fc.Arbitrary<string>;

export const join = (...parts: Arb[]): Arb => fc.tuple(...parts).map((p) => p.join(''));
export const weighted = (...pairs: [number, Arb][]): Arb => fc.oneof(...pairs.map(([weight, arbitrary]) => ({ weight, arbitrary })));
export const pick = (...values: string[]): Arb => fc.constantFrom(...values);

// ------------------------------------------------------------------ whitespace

/** Between two tokens that need a separator. */
export const sp: Arb = weighted([300, fc.constant(' ')], [20, pick('  ', '\n', '\r\n', ' \n  ', '\r', ' \r\n\n ')], [1, fc.constant('\t')], [2, fc.constant('')]);
/** Around a symbol or a bracket: often nothing. */
export const osp: Arb = weighted([100, fc.constant('')], [100, fc.constant(' ')], [10, pick('  ', '\n', '\r\n')], [1, fc.constant('\t')]);
/** Around the whole expression. */
export const edge: Arb = weighted([40, fc.constant('')], [2, pick(' ', '\n', '  ', '\r\n')], [1, pick('\t', '\u00a0')]);

// ------------------------------------------------------------------ integers

const decimal: Arb = weighted(
  [6, fc.integer({ min: 0, max: 300 }).map(String)],
  [4, fc.integer({ min: 0, max: 70000 }).map(String)],
  [2, fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }).map(String)],
  [1, pick('9223372036854775807', '9223372036854775808', '18446744073709551615', '18446744073709551616', '4294967295', '4294967296', '99999999999999999999999')],
  [1, fc.integer({ min: 0, max: 300 }).map((n) => `00${n}`)],
);
const hexDigits = (upper: boolean) => fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }).map((n) => (upper ? n.toString(16).toUpperCase() : n.toString(16)));
const hex: Arb = weighted(
  [8, join(fc.constant('0x'), fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16)))],
  [2, join(fc.constant('0x'), hexDigits(false))],
  [2, join(fc.constant('0x'), hexDigits(true))],
  [1, join(pick('0X', '0x', '0x0'), fc.integer({ min: 0, max: 0xfff }).map((n) => n.toString(16)))],
  [1, pick('0x', '0xg', '0x8000000000000000', '0xffffffffffffffff', '0x10000000000000000')],
);
const octal: Arb = weighted(
  [20, fc.integer({ min: 0, max: 0o777777 }).map((n) => `0${n.toString(8)}`)],
  [1, pick('08', '080', '0789', '00', '0777777777777777777777', '01777777777777777777777', '02000000000000000000000')],
);
const negative: Arb = weighted([20, join(fc.constant('-'), decimal)], [1, join(fc.constant('-'), pick('0x10', '010', '0X10', ''))], [1, pick('--1', '-', '+1')]);
export const integer: Arb = weighted([10, decimal], [4, hex], [3, octal], [2, negative]);
export const integerRange: Arb = weighted(
  [20, fc.tuple(fc.integer({ min: 0, max: 70000 }), fc.integer({ min: 0, max: 70000 })).map(([a, b]) => `${Math.min(a, b)}..${Math.max(a, b)}`)],
  [1, join(integer, fc.constant('..'), integer)],
  [1, join(integer, pick('..', '...', '.', '..-'), integer)],
);

// ------------------------------------------------------------------ IP addresses

const byte = fc.integer({ min: 0, max: 255 });
const v4Int = fc.integer({ min: 0, max: 0xffffffff });
const v4 = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
const mask4 = (n: number, prefix: number) => (prefix === 0 ? 0 : (n & (~0 << (32 - prefix))) >>> 0);
export const ipv4: Arb = weighted(
  [40, v4Int.map(v4)],
  [1, fc.tuple(byte, byte, byte, fc.integer({ min: 250, max: 300 })).map((p) => p.join('.'))],
  [1, fc.ipV4Extended()],
  [1, pick('1.2.3', '1.2.3.4.5', '01.2.3.4', '1..2.3', '1.2.3.4.')],
);
export const ipv6: Arb = weighted([40, fc.ipV6()], [1, pick('::', '::1', '::ffff:1.2.3.4', '2001:db8::1::2', '2001:db8:::1', 'fe80::1%eth0', '2001:DB8::A', ':1', '1:2:3:4:5:6:7:8:9')]);
const group16 = fc.integer({ min: 0, max: 0xffff });
const v6Groups = fc.array(group16, { minLength: 8, maxLength: 8 });
const v6 = (g: number[]) => g.map((x) => x.toString(16)).join(':');
const mask6 = (g: number[], prefix: number) => g.map((x, i) => (prefix >= (i + 1) * 16 ? x : prefix <= i * 16 ? 0 : x & (0xffff << (16 - (prefix - i * 16))) & 0xffff));
export const cidr: Arb = weighted(
  [30, fc.tuple(v4Int, fc.integer({ min: 0, max: 32 })).map(([n, p]) => `${v4(mask4(n, p))}/${p}`)],
  [15, fc.tuple(v6Groups, fc.integer({ min: 0, max: 128 })).map(([g, p]) => `${v6(mask6(g, p))}/${p}`)],
  [1, fc.tuple(v4Int, fc.integer({ min: 0, max: 32 })).map(([n, p]) => `${v4(n)}/${p}`)],
  [1, fc.tuple(v6Groups, fc.integer({ min: 0, max: 128 })).map(([g, p]) => `${v6(g)}/${p}`)],
  [1, join(ipv4, pick('/33', '/-1', '/', '/08', '/ 8'))],
  [1, join(ipv6, pick('/129', '/200', '/'))],
);
export const ipRange: Arb = weighted(
  [20, fc.tuple(v4Int, v4Int).map(([a, b]) => `${v4(Math.min(a, b))}..${v4(Math.max(a, b))}`)],
  [8, fc.tuple(v6Groups, v6Groups).map(([a, b]) => (a.join(',') < b.join(',') || a.map((x) => x.toString(16).padStart(4, '0')).join('') <= b.map((x) => x.toString(16).padStart(4, '0')).join('') ? `${v6(a)}..${v6(b)}` : `${v6(b)}..${v6(a)}`))],
  [1, fc.tuple(v4Int, v4Int).map(([a, b]) => `${v4(a)}..${v4(b)}`)],
  [1, join(ipv4, fc.constant('..'), ipv6)],
);
export const ip: Arb = weighted([3, ipv4], [2, ipv6]);

// ------------------------------------------------------------------ strings

export const plainChar = pick('a', 'b', 'z', 'A', 'Z', '0', '9', ' ', '.', '-', '_', '*', '/', '#', "'", '{', '}', '$', ':', 'é', '😀', 'ü', '\u00a0');
export const escape = weighted(
  [4, pick('\\"', '\\\\')],
  [3, byte.map((b) => `\\x${b.toString(16).padStart(2, '0')}`)],
  [1, byte.map((b) => `\\x${b.toString(16).padStart(2, '0').toUpperCase()}`)],
  [3, fc.integer({ min: 0, max: 0o377 }).map((n) => `\\${n.toString(8).padStart(3, '0')}`)],
  [1, pick('\\n', '\\t', '\\x', '\\x4', '\\xgg', '\\4', '\\41', '\\400', '\\777', '\\8', '\\ ', '\\u0041', '\\')],
);
const stringBody = fc.array(weighted([30, plainChar], [3, escape], [1, pick('\n', '\t', '\r')]), { maxLength: 8 }).map((c) => c.join(''));
export const quoted: Arb = weighted([40, stringBody.map((s) => `"${s}"`)], [1, stringBody.map((s) => `"${s}`)], [1, stringBody.map((s) => `"${s}\\"`)]);
const rawBody = fc.array(weighted([12, plainChar], [2, pick('\\', '\\n', '"', '#', '"#', '\\"')]), { maxLength: 8 }).map((c) => c.join(''));
export const rawString: Arb = weighted(
  [6, rawBody.map((s) => `r"${s.replace(/"/g, '')}"`)],
  [4, fc.tuple(fc.integer({ min: 1, max: 3 }), rawBody).map(([n, s]) => `r${'#'.repeat(n)}"${s.split(`"${'#'.repeat(n)}`).join('')}"${'#'.repeat(n)}`)],
  [1, fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), rawBody).map(([a, b, s]) => `r${'#'.repeat(a)}"${s}"${'#'.repeat(b)}`)],
  [1, pick('r"', 'r#"a"', 'r#a#', 'R"a"', 'r "a"', `r${'#'.repeat(255)}"a"${'#'.repeat(255)}`, `r${'#'.repeat(256)}"a"${'#'.repeat(256)}`)],
);
const hexPair = byte.map((b) => b.toString(16).padStart(2, '0'));
export const bytes: Arb = weighted(
  [12, fc.array(hexPair, { minLength: 2, maxLength: 6 }).map((p) => p.join(':'))],
  [2, fc.tuple(fc.array(hexPair, { minLength: 2, maxLength: 6 }), pick('-', '.')).map(([p, s]) => p.join(s))],
  [1, fc.array(hexPair, { minLength: 2, maxLength: 4 }).map((p) => p.join(':').toUpperCase())],
  [1, pick('aa', 'aa:', 'aa:b', 'aa:bb-cc', 'a:b:c', 'gg:hh', 'aa::bb')],
);
export const stringLiteral: Arb = weighted([8, quoted], [3, rawString], [2, bytes]);

// Regular expressions (Rust `regex` syntax) and wildcard patterns.
const regexPiece = weighted(
  [30, pick('a', 'tcp', '^', '$', '.', '.*', '\\d', '\\d+', '\\w', '\\s', '\\.', '\\\\', '[a-z]', '[^0-9]', '(a|b)', '(?i)', 'x{2,3}', 'x?', '\\x41', '\\p{L}', '(?<n>a)', '\\b', '\\z', '\\"', '\\n', '\\t', 'é')],
  [1, pick('(', ')', '((', '[', 'a{2,1}', '*', '+', '?', '\\', '(?=a)', '\\1', '\\101', '"')],
);
const regex = fc.array(regexPiece, { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
export const regexLiteral: Arb = weighted([12, regex.map((r) => `"${r}"`)], [2, regex.map((r) => `r#"${r}"#`)], [1, regex.map((r) => `r"${r.replace(/"/g, '')}"`)], [1, bytes]);
const wildcardPiece = weighted([30, pick('a', 'b', 'Z', '.', '/', '*', '\\*', '\\\\', '?', 'é', ' ')], [1, pick('**', '\\', '\\a')]);
const wildcard = fc.array(wildcardPiece, { maxLength: 5 }).map((p) => p.join(''));
// In a `"…"` string the pattern's backslashes are string escapes first: `\*` is written `"\\*"`.
export const wildcardLiteral: Arb = weighted([12, wildcard.map((w) => `"${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)], [1, wildcard.map((w) => `"${w}"`)], [2, wildcard.map((w) => `r#"${w}"#`)], [1, bytes]);

// ------------------------------------------------------------------ values, sets, lists

export const LIST_NAMES = ['svc.anonymizer', 'svc.botnetcc', 'svc.malware', 'svc.open_proxies', 'svc.vpn', 'my_list', 'blocked_ips_2', 'svc.unknown', 'a.b', 'Foo', 'foo.', '.foo', 'foo..bar', '', 'foo-bar'];
export const listRef: Arb = weighted([20, pick(...LIST_NAMES.slice(0, 7)).map((n) => `$${n}`)], [2, pick(...LIST_NAMES.slice(7)).map((n) => `$${n}`)]);

export function set(item: Arb): Arb {
  const sep = weighted([60, fc.constant(' ')], [4, pick('  ', '\n', '')], [1, pick(',', ', ', '\t')]);
  return fc.array(fc.tuple(item, sep), { maxLength: 5 }).chain((items) =>
    join(fc.constant('{'), osp, fc.constant(items.map(([v, s], i) => (i === items.length - 1 ? v : v + s)).join('')), osp, fc.constant('}')),
  );
}

/** A right-hand side that fits a field of this type (and, rarely, one that does not). */
export function valueFor(type: ScalarType): Arb {
  switch (type) {
    case 'Integer':
      return integer;
    case 'Ip':
      return weighted([10, ip], [1, cidr], [1, ipRange]);
    case 'Bytes':
      return stringLiteral;
    case 'Boolean':
      return pick('true', 'false', '1', '0');
  }
}
export function setItemFor(type: ScalarType): Arb {
  switch (type) {
    case 'Integer':
      return weighted([3, integer], [2, integerRange]);
    case 'Ip':
      return weighted([3, ip], [3, cidr], [2, ipRange]);
    case 'Bytes':
      return stringLiteral;
    case 'Boolean':
      return pick('true', '1');
  }
}

export const anyValue: Arb = weighted([2, integer], [2, ip], [2, stringLiteral], [1, cidr], [1, integerRange], [1, listRef], [1, pick('true', 'tcp', 'ip.src', '{}', '()')]);

// ------------------------------------------------------------------ comparisons

const FIELD_LIST = [...FIELDS.values()];
const fieldsOf = (type: ScalarType) => FIELD_LIST.filter((f) => f.type === type).map((f) => f.name);

export const EQUALITY = ['==', 'eq', '!=', 'ne'];
export const ORDERING = ['<', 'lt', '<=', 'le', '>', 'gt', '>=', 'ge'];
export const BITWISE = ['&', 'bitwise_and'];
export const MATCHES = ['matches', '~'];
export const WILDCARD = ['wildcard', 'strict wildcard'];
export const OPERATOR_SPELLINGS = [...EQUALITY, ...ORDERING, ...BITWISE, 'in', 'contains', ...MATCHES, ...WILDCARD];
export const isWord = (op: string) => /^[a-z]/.test(op);

/** `field op value`, with spaces that a word operator needs and a symbol does not. */
export function comparison(lhs: Arb, op: Arb, rhs: Arb): Arb {
  return fc.tuple(lhs, op, rhs, sp, sp, osp, osp).map(([l, o, r, s1, s2, o1, o2]) => (isWord(o) ? `${l}${s1}${o}${s2}${r}` : `${l}${o1}${o}${o2}${r}`));
}

const intLhs: Arb = weighted([10, pick(...fieldsOf('Integer'))], [2, fc.constant('BITSLICE')]);

const bitSliceCall: Arb = fc
  .tuple(
    weighted([10, pick('ip', 'tcp', 'udp', 'icmp')], [1, pick('"udp"', 'r"udp"', 'UDP', 'ip.src', 'sip', 'foo', 'ip.ttl')]),
    weighted([10, fc.integer({ min: 0, max: 200 }).map(String)], [1, pick('2040', '2041', '4000', '0x10', '-1', '010', '99999999999999999999')]),
    weighted([10, fc.integer({ min: 0, max: 40 }).map(String)], [1, pick('64', '2048', '0', '0x08')]),
    osp,
    osp,
    osp,
    fc.oneof({ weight: 20, arbitrary: fc.constant(3) }, { weight: 1, arbitrary: fc.constantFrom(2, 4) }),
  )
  .map(([proto, start, width, a, b, c, arity]) => {
    const end = /^[0-9]+$/.test(start) && /^[0-9]+$/.test(width) && !start.startsWith('0') ? String(Number(start) + Number(width)) : width;
    const args = [proto, start, end, '8'].slice(0, arity);
    return `bit_slice${a}(${b}${args.join(`,${c}`)}${b})`;
  });

const integerComparison: Arb = weighted(
  [6, comparison(intLhs, pick(...EQUALITY, ...ORDERING), integer)],
  [2, comparison(intLhs, pick(...BITWISE), integer)],
  [4, comparison(intLhs, fc.constant('in'), set(setItemFor('Integer')))],
  [1, comparison(intLhs, fc.constant('in'), listRef)],
  [1, comparison(intLhs, pick(...OPERATOR_SPELLINGS), anyValue)],
).chain((text) => (text.includes('BITSLICE') ? bitSliceCall.map((call) => text.replace('BITSLICE', call)) : fc.constant(text)));

const ipFields = pick(...fieldsOf('Ip'));
const ipComparison: Arb = weighted(
  [5, comparison(ipFields, pick(...EQUALITY), ip)],
  [1, comparison(ipFields, pick(...ORDERING), ip)],
  [5, comparison(ipFields, fc.constant('in'), set(setItemFor('Ip')))],
  [3, comparison(ipFields, fc.constant('in'), listRef)],
  [1, comparison(ipFields, pick(...EQUALITY, 'in'), weighted([1, cidr], [1, ipRange]))],
  [1, comparison(ipFields, pick(...OPERATOR_SPELLINGS), anyValue)],
);

const stringFields = pick(...fieldsOf('Bytes'));
const stringComparison: Arb = weighted(
  [5, comparison(stringFields, pick(...EQUALITY), stringLiteral)],
  [1, comparison(stringFields, pick(...ORDERING), stringLiteral)],
  [2, comparison(stringFields, fc.constant('contains'), stringLiteral)],
  [4, comparison(stringFields, pick(...MATCHES), regexLiteral)],
  [3, comparison(stringFields, weighted([6, pick(...WILDCARD)], [1, pick('strict  wildcard', 'strict\nwildcard', 'strictwildcard', 'Wildcard', 'strict')]), wildcardLiteral)],
  [3, comparison(stringFields, fc.constant('in'), set(setItemFor('Bytes')))],
  [1, comparison(stringFields, fc.constant('in'), listRef)],
  [1, comparison(stringFields, pick(...OPERATOR_SPELLINGS), anyValue)],
);

const booleanFields = pick(...fieldsOf('Boolean'));
const booleanTest: Arb = weighted([20, booleanFields], [1, comparison(booleanFields, pick(...EQUALITY, 'in'), valueFor('Boolean'))]);

/** A left side the magic_firewall scheme does not have, or another function. */
const oddComparison: Arb = weighted(
  [3, comparison(pick('foo', 'ip.source', 'tcp.port', 'ip.src.foo', 'IP.SRC', 'ip.', 'ip..src', '_', '1ip'), pick('==', 'in'), anyValue)],
  [2, pick('true', 'false', 'TRUE', 'True')],
  [1, pick('lower(ip.proto) == "tcp"', 'len(cf.colo.name) > 3', 'starts_with(ip.proto, "t")', 'foo(ip.src) == 1', 'bit_slice == 1', 'bit_slice()', 'ip.proto[0] == "t"')],
);

/** One comparison of any type. */
export const comparisonExpression: Arb = weighted([6, integerComparison], [5, ipComparison], [6, stringComparison], [3, booleanTest], [1, oddComparison]);

// ------------------------------------------------------------------ logic

export const NOT = ['not', '!'];
export const LOGICAL = ['and', '&&', 'or', '||', 'xor', '^^'];

/** Terms joined by `not`/`!`, groups and the logical operators, in every spelling and spacing. */
export function logicOver(term: Arb): Arb {
  return fc.letrec<{ expression: string; unary: string }>((tie) => ({
    unary: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 12, arbitrary: term },
      { weight: 2, arbitrary: fc.tuple(pick(...NOT), sp, osp, tie('unary')).map(([n, s, o, u]) => (n === 'not' ? `not${s}${u}` : `!${o}${u}`)) },
      { weight: 3, arbitrary: fc.tuple(osp, tie('expression'), osp).map(([a, e, b]) => `(${a}${e}${b})`) },
    ),
    expression: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: tie('unary') },
      { weight: 3, arbitrary: fc.tuple(tie('unary'), pick(...LOGICAL), sp, sp, osp, osp, tie('expression')).map(([l, op, s1, s2, o1, o2, r]) => (isWord(op) ? `${l}${s1}${op}${s2}${r}` : `${l}${o1}${op}${o2}${r}`)) },
    ),
  })).expression;
}

const expression = logicOver(comparisonExpression);

/** Deep nesting and long expressions: the limits of §2 (128 levels) and §8 (4,096 characters). */
const limits: Arb = weighted(
  [2, fc.tuple(fc.integer({ min: 120, max: 135 }), pick('(', 'not ', '!')).map(([n, open]) => `${open.repeat(n)}sip${open === '(' ? ')'.repeat(n) : ''}`)],
  [1, fc.integer({ min: 4080, max: 4110 }).map((n) => `tcp.dstport in {${'1 '.repeat(Math.floor((n - 17) / 2))}}`.slice(0, n - 1) + '}')],
);

// ------------------------------------------------------------------ mutations

export const MUTATION_CHARS = ['"', '\\', '{', '}', '(', ')', '$', '\t', ' ', '\n', '#', ',', '.', ':', '/', '&', '!', '=', '<', '~', 'r', '0', 'x', '-', '^', '|', 'a', '😀'];
const TOKEN = /r(#*)"[\s\S]*?"\1|r#*"|"(?:\\[\s\S]|[^"\\])*"?|[A-Za-z0-9_.:/-]+|\$[A-Za-z0-9_.]*|==|!=|<=|>=|&&|\|\||\^\^|\S/gu;

export function tokenSpans(text: string): [number, number][] {
  return [...text.matchAll(TOKEN)].map((m) => [m.index!, m.index! + m[0].length]);
}

export type Mutation = { kind: 'delete-char' | 'insert-char' | 'swap-chars' | 'delete-token' | 'duplicate-token' | 'swap-tokens'; at: number; char: string };
export const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: pick('delete-char', 'insert-char', 'swap-chars', 'delete-token', 'duplicate-token', 'swap-tokens') as fc.Arbitrary<Mutation['kind']>,
  at: fc.nat({ max: 1 << 20 }),
  char: pick(...MUTATION_CHARS),
});

export function mutate(text: string, m: Mutation): string {
  const chars = [...text];
  if (m.kind === 'delete-char' || m.kind === 'insert-char' || m.kind === 'swap-chars') {
    const i = m.at % (chars.length + 1);
    if (m.kind === 'delete-char') chars.splice(i, 1);
    else if (m.kind === 'insert-char') chars.splice(i, 0, m.char);
    else if (i + 1 < chars.length) [chars[i], chars[i + 1]] = [chars[i + 1], chars[i]];
    return chars.join('');
  }
  const tokens = tokenSpans(text);
  if (tokens.length === 0) return text;
  const i = m.at % tokens.length;
  const [s, e] = tokens[i];
  if (m.kind === 'delete-token') return text.slice(0, s) + text.slice(e);
  if (m.kind === 'duplicate-token') return `${text.slice(0, e)} ${text.slice(s, e)}${text.slice(e)}`;
  if (i + 1 >= tokens.length) return text;
  const [s2, e2] = tokens[i + 1];
  return text.slice(0, s) + text.slice(s2, e2) + text.slice(e, s2) + text.slice(s, e) + text.slice(e2);
}

const wellFormed: Arb = fc.tuple(edge, expression, edge).map(([a, e, b]) => a + e + b);

/** The expressions of the differential test: about 3 in 4 from the grammar, 1 in 4 mutated. */
export const generatedExpression: Arb = weighted(
  [300, wellFormed],
  [100, fc.tuple(expression, fc.array(mutation, { minLength: 1, maxLength: 2 })).map(([e, ms]) => ms.reduce(mutate, e))],
  [1, limits],
);
