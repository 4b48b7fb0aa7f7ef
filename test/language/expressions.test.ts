/**
 * Table tests of the expression language against LANGUAGE.md, one table per section.
 *
 * Each row is an expression as a user writes it, with the span of every expected problem
 * marked ⟦like this⟧ (⟦⟧ marks an empty span, e.g. at the end of the expression). Strip the
 * markers to get the input. A row without markers expects no problems at all; a row with
 * markers expects exactly those problems, all with the row's code and severity.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { checkExpression, type CheckOptions } from '../../server/src/language/checker';
import type { Comparison, Expression, Literal } from '../../server/src/language/ast';
import { error, information, ok, shown, table, warning } from './table';

const CHECKER = join(__dirname, '..', '..', 'server', 'src', 'language', 'checker.ts');

// ---------------------------------------------------------------- table machinery (table.ts)

function check(text: string, options: CheckOptions = { phase: 'magic_transit' }) {
  return checkExpression(text, options);
}

/** The tree as an S-expression; comparisons as their source text. */
function shape(text: string): string {
  const result = check(text);
  assert.ok(result.ast, `${text} parses`);
  // The precedence is what `and`/`or` mixed without parentheses says (lints.test.ts): nothing else.
  assert.deepEqual(result.problems.filter((p) => p.code !== 'mixed-logical-operators'), []);
  const show = (e: Expression): string => {
    switch (e.kind) {
      case 'logical':
        return `(${e.operator} ${e.operands.map(show).join(' ')})`;
      case 'not':
        return `(not ${show(e.operand)})`;
      case 'group':
        return `(group ${show(e.inner)})`;
      case 'boolean':
        return String(e.value);
      case 'comparison':
      case 'quantifier':
        return text.slice(e.span.start, e.span.end);
    }
  };
  return show(result.ast);
}

/** The right-hand side of a lone comparison. */
function rhsOf(text: string): Literal {
  const result = check(text);
  assert.deepEqual(result.problems.map((p) => shown(text, p)), []);
  const comparison = result.ast as Comparison;
  assert.equal(comparison.kind, 'comparison');
  const rhs = comparison.rhs;
  assert.ok(rhs && rhs.kind !== 'set' && rhs.kind !== 'list', 'a single literal');
  return rhs;
}

// ---------------------------------------------------------------- §1 tokens and whitespace

table('§1 tokens and whitespace', [
  ok('tcp.flags.syn and tcp.flags.ack'),
  ok('tcp.flags.ack\r\nand\ntcp.flags.syn', { name: 'CR and LF separate tokens' }),
  ok('   sip   ', { name: 'leading and trailing spaces are trimmed' }),
  ok('\tsip\t', { name: 'leading and trailing TABs are trimmed like any whitespace' }),
  ok('cf.colo.name == "a\tb"', { name: 'a TAB inside a string is content' }),
  error('sip⟦\t⟧and tcp.flags.syn', 'tab-whitespace', { message: /TAB/, fixed: 'sip and tcp.flags.syn', name: 'TAB between tokens' }),
  error('tcp.dstport⟦\t⟧==⟦\t⟧22', 'tab-whitespace', { name: 'every TAB is reported' }),
  error('tcp.dstport == 22 ⟦AND⟧ sip', 'syntax-error', { message: /keywords are lowercase: `and`/, fixed: 'tcp.dstport == 22 and sip' }),
  error('tcp.dstport == 22 ⟦Or⟧ sip', 'syntax-error', { fixed: 'tcp.dstport == 22 or sip' }),
  error('tcp.dstport ⟦IN⟧ {22}', 'syntax-error', { fixed: 'tcp.dstport in {22}' }),
  error('tcp.dstport ⟦EQ⟧ 22', 'syntax-error', { fixed: 'tcp.dstport eq 22' }),
  // What users type from other tools (issue 14).
  error('ip.src.country == ⟦“BR”⟧', 'syntax-error', { message: /typographic quotes .* straight double quotes: `"BR"`/, fixed: 'ip.src.country == "BR"' }),
  error('ip.src.country in {"CN" ⟦‘BR’⟧}', 'syntax-error', { message: /typographic quotes/, fixed: 'ip.src.country in {"CN" "BR"}' }),
  error("ip.src.country == ⟦'BR'⟧", 'syntax-error', { message: /strings are written in double quotes: `"BR"`/, fixed: 'ip.src.country == "BR"' }),
  error('ip.src in ⟦$office-networks⟧', 'syntax-error', { message: /list names use `_`, not `-`: `\$office_networks`/, fixed: 'ip.src in $office_networks' }),
  error('⟦NOT⟧ sip', 'syntax-error', { message: /`NOT`.*keywords are lowercase: `not`/, fixed: 'not sip', name: 'a capitalised `not` reads as a field; the error is on it, not on what follows' }),
  error('sip and ⟦Not⟧ tcp.flags.syn', 'syntax-error', { fixed: 'sip and not tcp.flags.syn' }),
  error('⟦tcp.dstprot⟧ == 22', 'unknown-field', { message: /unknown field `tcp\.dstprot`.*did you mean `tcp\.dstport`/ }),
  error('⟦tcp.port⟧ == 22', 'unknown-field', { message: /tcp\.port/ }),
  error('⟦foo⟧', 'unknown-field'),
  error('tcp.dstport == 22 ⟦# ssh only⟧', 'syntax-error', { message: [/found `#`/, /no comments/] }),
  error('sip ⟦# x⟧', 'syntax-error', { message: /no comments/, name: 'sip # x: from `#` to the end, the span of the reference parser' }),
]);

// ---------------------------------------------------------------- §2 grammar

table('§2 grammar: logical operators in both spellings', [
  ok('sip or tcp.flags.syn'),
  ok('sip || tcp.flags.syn'),
  ok('sip xor tcp.flags.syn'),
  ok('sip ^^ tcp.flags.syn'),
  ok('tcp.flags.ack and tcp.flags.syn'),
  ok('tcp.flags.ack && tcp.flags.syn'),
  ok('not sip'),
  ok('!sip'),
  ok('! sip'),
  ok('not(sip)'),
  ok('not not sip'),
  ok('tcp.flags.cwr and tcp.flags.syn or tcp.flags.ack xor tcp.flags.fin && tcp.flags.urg || tcp.flags.push ^^ tcp.flags.reset'),
]);

table('§2 grammar: comparison operators in both spellings', [
  ok('tcp.dstport == 22'),
  ok('tcp.dstport eq 22'),
  ok('tcp.dstport != 22'),
  ok('tcp.dstport ne 22'),
  ok('tcp.dstport < 22'),
  ok('tcp.dstport lt 22'),
  ok('tcp.dstport <= 22'),
  ok('tcp.dstport le 22'),
  ok('tcp.dstport > 22'),
  ok('tcp.dstport gt 22'),
  ok('tcp.dstport >= 22'),
  ok('tcp.dstport ge 22'),
  ok('tcp.dstport==22', { name: 'symbol operators need no spaces' }),
  ok('tcp.dstport in {22 443}'),
  ok('tcp.flags & 0x02'),
  ok('tcp.flags bitwise_and 0x02'),
  ok('cf.colo.name contains "ams"'),
  ok('cf.colo.name ~ "^ams[0-9]+$"'),
  ok('cf.colo.name matches "^ams[0-9]+$"'),
  ok('cf.colo.name wildcard "ams*"'),
  ok('cf.colo.name strict wildcard "ams*"'),
  ok('cf.colo.name strict wildcard\n"ams*"'),
  error('cf.colo.name ⟦strict  wildcard⟧ "ams*"', 'strict-wildcard-spacing', { message: /exactly one space/, fixed: 'cf.colo.name strict wildcard "ams*"' }),
  error('cf.colo.name ⟦strict\nwildcard⟧ "ams*"', 'strict-wildcard-spacing', { fixed: 'cf.colo.name strict wildcard "ams*"' }),
  error('cf.colo.name ⟦strict\r\nwildcard⟧ "ams*"', 'strict-wildcard-spacing'),
  error('ip.src ⟦=⟧ 192.0.2.1', 'single-equals', { message: /found `=`.*`==`/, fixed: 'ip.src == 192.0.2.1' }),
  error('tcp.dstport ==⟦=⟧ 22', 'syntax-error', { message: /expected a value/ }),
]);

describe('§2 grammar: what the reference reports first when the parse fails', () => {
  // It reads left to right and stops at the first error: a name that is no field, before the
  // place the parse fails, comes first. We report both, each on its own characters.
  const found = (text: string) => check(text).problems.map((p) => `${p.code} ${text.slice(p.span.start, p.span.end)}`);
  it('a field name before the syntax error', () => assert.deepEqual(found('ud~a"'), ['unknown-field ud', 'syntax-error "']));
  it('after `and`, `not` and `(`', () => assert.deepEqual(found('sip and (not tcp.dstprt == 1 ==)'), ['unknown-field tcp.dstprt', 'syntax-error ==']));
  it('not a value on the right, a function or a keyword', () => assert.deepEqual(found('cf.colo.name == abc and len(cf.colo.name) =='), ['syntax-error ']));
  it('not a word the failure is in', () => assert.deepEqual(found('tcp.dstpor'), ['unknown-field tcp.dstpor']));
});

describe('§1 whitespace the reference trims from both ends', () => {
  for (const [name, text, edges] of [
    ['a no-break space before', '\u00a0sip', 1],
    ['an ideographic space after', 'sip\u3000', 1],
    ['a vertical tab and a next line', '\u000bsip\u0085', 2],
  ] as const) {
    // Accepted: only the style lint says that whitespace is there, once an end (lints.test.ts).
    it(name, () => assert.deepEqual(check(text).problems.map((p) => `${p.code} ${p.severity}`), Array(edges).fill('edge-whitespace information')));
  }
  it('inside, a no-break space is still no whitespace', () => assert.deepEqual(check('sip\u00a0and tcp.flags.syn').problems.map((p) => p.code), ['syntax-error']));
});

describe('§2 grammar: `strict wildcard` is one operator written with one space', () => {
  const problemsOf = (text: string) => check(text).problems.map((p) => `${p.code} ${JSON.stringify(text.slice(p.span.start, p.span.end))}`);
  it('two spaces, on an IP field: the spacing first, as the reference, then the operator', () => {
    assert.deepEqual(problemsOf('tcp.dstport == 22 and ip.src strict  wildcard "x"'), ['strict-wildcard-spacing "strict  wildcard"', 'invalid-operator "strict  wildcard"']);
  });
  it('a TAB between the words: one problem, whose fix also removes the TAB', () => {
    assert.deepEqual(problemsOf('cf.colo.name strict\twildcard "x"'), ['strict-wildcard-spacing "strict\\twildcard"']);
    assert.match(check('cf.colo.name strict\twildcard "x"').problems[0].message, /found a TAB/);
  });
});

table('§2 grammar: structure and syntax errors', [
  error('sip and⟦tcp.flags.syn⟧', 'syntax-error', { message: [/a space after `and`/, /^(?!.*identChar)/], name: 'a keyword glued to the next word asks for a space, in words' }),
  error('sip ⟦😀⟧', 'syntax-error', { message: /found `😀`/, name: 'an emoji is found whole, not half a surrogate pair' }),
  ok('(sip or tcp.flags.syn) and tcp.flags.ack'),
  ok('((((sip))))'),
  ok('bit_slice(udp, 64, 72) == 0x45'),
  ok('tcp.dstport in {22 443 8000..8080}'),
  ok('ip.src in $svc.anonymizer'),
  error('ip.src == ⟦⟧', 'syntax-error', { message: [/expected a value/, /found the end of the expression/], name: '`ip.src == `: an empty span at the end' }),
  error('ip.src ==⟦⟧', 'syntax-error', { message: /found the end of the expression/ }),
  error('sip and⟦⟧', 'syntax-error', { message: [/expected a field name, `not` or `\(`/, /found the end of the expression/] }),
  error('sip and not⟦⟧', 'syntax-error', { message: /expected a field name/, name: '`not` is a keyword, not a field' }),
  error('sip and not⟦⟧', 'syntax-error', { phase: 'magic_transit_managed', name: '`not` is a keyword, not a field, in any phase' }),
  error('⟦and⟧', 'syntax-error', { phase: 'magic_transit_managed', message: /found `and`/ }),
  error('sip and ⟦and⟧ tcp.flags.syn', 'syntax-error', { message: /found `and`/ }),
  error('(sip or tcp.flags.syn⟦⟧', 'syntax-error', { message: [/`\)`/, /found the end of the expression/] }),
  error('sip⟦)⟧', 'syntax-error', { message: /found `\)`/ }),
  error('sip and tcp.flags.syn⟦)⟧', 'syntax-error', { message: /expected .*`and`\/`or`\/`xor` or the end of the expression, found `\)`/ }),
  error('sip and tcp.flags.syn ⟦)⟧', 'syntax-error', { message: /expected .*`and`\/`or`\/`xor` or the end of the expression, found `\)`/, name: 'what is expected does not depend on a space before the error' }),
  error('tcp.dstport in {22 443⟦⟧', 'syntax-error', { message: [/`}`/, /found the end of the expression/] }),
  error('tcp.dstport in 22 ⟦443⟧}', 'syntax-error', { message: /found `443`/ }),
  error('ip.src in {192.0.2.1⟦;⟧192.0.2.2}', 'syntax-error', { message: /found `;`/ }),
  error('true ⟦==⟧ sip', 'syntax-error'),
  error('ip.ttl == 1 ⟦AND⟧ sip', 'syntax-error', { message: [/found `AND`/, /`and`/], fixed: 'ip.ttl == 1 and sip', name: '`ip.ttl == 1 AND sip`: on `AND`, with a fix' }),
  error('⟦tcp.dstport⟧', 'missing-operator', { message: /expected a comparison after `tcp\.dstport`, which is an Integer/ }),
  error('⟦tcp.dstport⟧ and sip', 'missing-operator', { name: 'operands of `and` must be Boolean' }),
  error('sip or ⟦ip.src⟧', 'missing-operator'),
  error('⟦bit_slice(ip, 0, 8)⟧', 'missing-operator', { message: /after the call of `bit_slice`/ }),
]);

/**
 * A phase we do not know: unknown fields and functions are not reported, so what is shown
 * below is what the parser says (the fields and functions it knows are typed all the same:
 * `x`, `z` and `f` are names no phase has).
 */
const HTTP_PHASE = { phase: 'a_phase_added_later' } as const;

table('§2 grammar: calls, quantifiers and index steps', [
  ok('http.request.headers["x-api-key"][0] == "secret"', HTTP_PHASE),
  ok('any(http.request.uri.args["q"][*] == "a") or f(http.host)[0] == "a"', { ...HTTP_PHASE, name: 'index steps after a field and after a call' }),
  ok('any(http.request.headers.names[*] == "x") and not all(http.request.headers["a"][*] contains "b")', HTTP_PHASE),
  ok('f(lower(http.host), "x", r"y", 1, 10.0.0.1, aa:bb) == "z"', { ...HTTP_PHASE, name: 'nested calls and every kind of literal argument' }),
  ok('f(http.host == "a", (sip or x), not y, any(z[*]))', { ...HTTP_PHASE, name: 'comparisons and logical expressions as arguments' }),
  ok('contains(http.host, "a") and wildcard(http.host, "*.a")', { ...HTTP_PHASE, name: '`contains` and `wildcard` name functions too' }),
  ok('f()', { ...HTTP_PHASE, name: 'a call without arguments (its arity is the checker\'s)' }),
  error('http.request.headers ⟦[⟧"x"] == "a"', 'syntax-error', {
    ...HTTP_PHASE,
    message: /found `\[`; an index follows its field or call with no space before the `\[`/,
    fixed: 'http.request.headers["x"] == "a"',
    name: 'a space before `[`: on the `[`, the fix removes the space',
  }),
  error('split(http.host, ".", 3) ⟦[⟧0] == "a"', 'syntax-error', { ...HTTP_PHASE, fixed: 'split(http.host, ".", 3)[0] == "a"', name: 'a space before the `[` after a call' }),
  error('http.request.headers["x"⟦⟧', 'syntax-error', { ...HTTP_PHASE, message: /^expected `\]`, found the end of the expression$/ }),
  error('http.request.headers["x" ⟦0⟧] == "a"', 'syntax-error', { ...HTTP_PHASE, message: /^expected `\]`, found `0`$/ }),
  error('http.request.headers[⟦x-api-key⟧] == "a"', 'syntax-error', {
    ...HTTP_PHASE,
    message: /^expected a key such as `"x-api-key"`, an index such as `0`, or `\*`, found `x-api-key`; map keys are quoted: `\["x-api-key"\]`$/,
    fixed: 'http.request.headers["x-api-key"] == "a"',
  }),
  error('http.request.headers[⟦r#"x"#⟧] == "a"', 'syntax-error', { ...HTTP_PHASE, message: /a map key is a quoted string, never a raw one/, fixed: 'http.request.headers["x"] == "a"' }),
  error('http.request.headers[⟦]⟧ == "a"', 'syntax-error', { ...HTTP_PHASE, message: /^expected a key such as .*, found `\]`$/ }),
  error('http.request.headers["x"][⟦1a⟧] == "a"', 'syntax-error', { ...HTTP_PHASE, message: /found `1a`$/ }),
  error('http.request.headers["x"][1⟦.5⟧] == "a"', 'syntax-error', { ...HTTP_PHASE, message: /^expected `\]`, found `\.5`$/ }),
  error('http.request.headers["x"][⟦-1⟧] == "a"', 'invalid-index', { ...HTTP_PHASE, message: /^expected an array index from 0 to 4294967295, found `-1`; the first element is `\[0\]`$/ }),
  error('http.request.headers["x"][⟦4294967296⟧] == "a"', 'invalid-index', HTTP_PHASE),
  ok('x["x"][4294967295][0x1f][010][-0] == "a"', { ...HTTP_PHASE, name: 'the largest index, hex, octal and -0' }),
  error('http.request.headers["x"][⟦08⟧] == "a"', 'invalid-integer', { ...HTTP_PHASE, message: /octal/, name: 'an octal index with an 8: on the whole index, as the reference says' }),
  error('http.request.headers[⟦"\\xff"⟧][0] == "a"', 'invalid-index', { ...HTTP_PHASE, message: /UTF-8/ }),
  ok('http.request.headers["\\xc3\\xa9"][0] == "a"', { ...HTTP_PHASE, name: 'escaped UTF-8 is a key' }),
  error('http.request.headers["⟦\\n⟧"][0] == "a"', 'invalid-escape', HTTP_PHASE),
  error('lower(http.host⟦⟧', 'syntax-error', { ...HTTP_PHASE, message: /^expected a comparison operator, `\)` or `,`, found the end of the expression$/, name: 'an unclosed call' }),
  error('lower(lower(http.host) == "a"⟦⟧', 'syntax-error', { ...HTTP_PHASE, message: /^expected `\)` or `,`, found the end of the expression$/, name: 'an unclosed outer call: the comparison is its argument' }),
  error('f(a,⟦)⟧', 'syntax-error', { ...HTTP_PHASE, message: /^expected a field name or a value .*, found `\)`$/, name: 'a trailing comma' }),
  error('lower(http.host == "a" ⟦and⟧ sip)', 'syntax-error', {
    ...HTTP_PHASE,
    message: /^expected `\)` or `,`, found `and`; an argument of `lower\(…\)` is at most one comparison: to combine tests in one argument, put them in parentheses$/,
  }),
  ok('f((http.host == "a") and sip)', { ...HTTP_PHASE, name: '… which a logical argument led by `(` may' }),
  error('any(z[*] == 1⟦,⟧ y)', 'syntax-error', { ...HTTP_PHASE, message: /^expected `\)`, found `,`; `any\(…\)` takes one argument$/ }),
  error('any(z[*] == 1) ⟦==⟧ 1', 'syntax-error', { ...HTTP_PHASE, message: /`any\(…\)` is already a complete test .* so it cannot be compared$/ }),
  error('any(⟦)⟧', 'syntax-error', HTTP_PHASE),
  error('not any(z⟦⟧', 'syntax-error', { ...HTTP_PHASE, message: /found the end of the expression/ }),
  error('⟦matches⟧(http.host) == 1', 'syntax-error', { ...HTTP_PHASE, name: 'keywords other than `contains` and `wildcard` name no function' }),
]);

table('§5 calls, quantifiers and index steps in magic_transit, whose fields are single values', [
  error('ip.proto⟦[0]⟧ == "t"', 'invalid-index', { message: /^`ip\.proto` is a String, not an array or a map, so it takes no index step: `\[0\]` cannot follow it$/, name: 'an index of a String field, on the step, as the reference says' }),
  error('ip.src⟦["a"]⟧[*] == 1.2.3.4', 'invalid-index', { name: 'on the first step' }),
  error('bit_slice(udp, 0, 8)⟦[*]⟧ == 1', 'invalid-index', { message: /`bit_slice\(…\)` is an Integer/ }),
  error('⟦ip.porto⟧[0] == "t"', 'unknown-field', { message: /did you mean `ip\.proto`/, name: 'what the steps index is checked as a field is' }),
  error('any(⟦tcp.dstport == 22⟧)', 'type-mismatch', { message: /^`any\(…\)` reduces an array of Booleans, .* no field of phase `magic_transit` is an array$/, name: 'a quantifier: on its argument, as the reference says' }),
  error('any(⟦tcp.dstport == 22⟧)', 'type-mismatch', { phase: 'a_phase_added_later', message: /takes an array of Booleans/, name: 'also in a phase we do not know: the field it knows is a single value' }),
  ok('any(x[*] == 22)', { phase: 'a_phase_added_later', name: 'an unknown field there may be an array' }),
]);

describe('§2 grammar: precedence (not > and > xor > or) and the tree', () => {
  it('and binds tighter than or', () => {
    assert.equal(shape('sip or tcp.flags.syn and tcp.flags.ack'), '(or sip (and tcp.flags.syn tcp.flags.ack))');
    assert.equal(shape('tcp.flags.cwr and tcp.flags.syn or tcp.flags.ack'), '(or (and tcp.flags.cwr tcp.flags.syn) tcp.flags.ack)');
  });
  it('and binds tighter than xor, xor tighter than or', () => {
    assert.equal(shape('sip xor tcp.flags.syn and tcp.flags.ack'), '(xor sip (and tcp.flags.syn tcp.flags.ack))');
    assert.equal(shape('sip or tcp.flags.syn xor tcp.flags.ack'), '(or sip (xor tcp.flags.syn tcp.flags.ack))');
    assert.equal(shape('sip xor tcp.flags.syn or tcp.flags.ack xor tcp.flags.fin'), '(or (xor sip tcp.flags.syn) (xor tcp.flags.ack tcp.flags.fin))');
  });
  it('spellings mix freely and keep their precedence', () => {
    assert.equal(shape('sip || tcp.flags.syn && tcp.flags.ack ^^ tcp.flags.fin'), '(or sip (xor (and tcp.flags.syn tcp.flags.ack) tcp.flags.fin))');
  });
  it('runs of one operator stay flat', () => {
    assert.equal(shape('tcp.flags.cwr and tcp.flags.syn && tcp.flags.ack'), '(and tcp.flags.cwr tcp.flags.syn tcp.flags.ack)');
  });
  it('not binds to one simple expression', () => {
    assert.equal(shape('not sip and tcp.flags.syn'), '(and (not sip) tcp.flags.syn)');
    assert.equal(shape('not ip.proto in {"tcp"}'), '(not ip.proto in {"tcp"})');
    assert.equal(shape('! tcp.dstport == 22 or sip'), '(or (not tcp.dstport == 22) sip)');
    assert.equal(shape('not not sip'), '(not (not sip))');
  });
  it('parentheses group', () => {
    assert.equal(shape('not (sip or tcp.flags.syn)'), '(not (group (or sip tcp.flags.syn)))');
    assert.equal(shape('(sip or tcp.flags.syn) and tcp.flags.ack'), '(and (group (or sip tcp.flags.syn)) tcp.flags.ack)');
  });
  it('operators as written, with their spans', () => {
    const text = ' sip && tcp.flags.syn and tcp.flags.ack ';
    const ast = check(text).ast!;
    assert.equal(ast.kind, 'logical');
    if (ast.kind !== 'logical') return;
    assert.deepEqual(ast.span, { start: 1, end: 39 });
    assert.deepEqual(ast.operatorTokens, [
      { text: '&&', span: { start: 5, end: 7 } },
      { text: 'and', span: { start: 22, end: 25 } },
    ]);
  });
});

// ---------------------------------------------------------------- §3 types and operators

table('§3 Boolean fields: no operator', [
  ok('tcp.flags.syn'),
  ok('not tcp.flags.syn'),
  ok('!tcp.flags.syn'),
  error('tcp.flags.syn ⟦== true⟧', 'boolean-comparison', { message: /Boolean/, fixed: 'tcp.flags.syn' }),
  error('tcp.flags.syn ⟦== false⟧', 'boolean-comparison', { fixed: 'not tcp.flags.syn' }),
  error('tcp.flags.syn ⟦!= true⟧', 'boolean-comparison', { fixed: 'not tcp.flags.syn' }),
  error('sip ⟦eq 1⟧', 'boolean-comparison', { fixed: 'sip' }),
  error('sip ⟦in {1}⟧', 'boolean-comparison'),
]);

table('§3 Integer fields', [
  ok('tcp.dstport in {22 80..89}'),
  ok('tcp.dstport <= 1024'),
  error('tcp.dstport ⟦contains⟧ 22', 'invalid-operator', { message: [/`contains`/, /`tcp\.dstport`/, /Integer/] }),
  error('tcp.dstport ⟦~⟧ "22"', 'invalid-operator'),
  error('tcp.dstport ⟦wildcard⟧ "2*"', 'invalid-operator'),
  error('tcp.dstport == ⟦"22"⟧', 'type-mismatch', { message: [/expected an integer/, /found the string/], fixed: 'tcp.dstport == 22' }),
  error('tcp.dstport == ⟦192.0.2.1⟧', 'type-mismatch', { message: /expected an integer/ }),
  error('tcp.dstport ⟦==⟧ {22}', 'set-requires-in', { fixed: 'tcp.dstport in {22}' }),
]);

table('§3 IP fields', [
  ok('ip.src == 192.0.2.1'),
  ok('ip.src eq 192.0.2.1'),
  ok('ip.dst != 192.0.2.1'),
  ok('ip.dst ne 2001:db8::1'),
  ok('ip.src in {192.0.2.0/24 198.51.100.1 203.0.113.1..203.0.113.9}'),
  ok('ip.src in $svc.vpn'),
  warning('ip.src ⟦<⟧ 192.0.2.1', 'ip-ordering', { message: /not support/ }),
  warning('ip.src ⟦ge⟧ 192.0.2.1', 'ip-ordering'),
  error('ip.src ⟦contains⟧ "192"', 'invalid-operator', { message: [/`contains`/, /IP address/] }),
  error('ip.dst ⟦wildcard⟧ "10.*"', 'invalid-operator'),
  error('ip.src == ⟦"192.0.2.1"⟧', 'type-mismatch', { message: /expected an IP address/, fixed: 'ip.src == 192.0.2.1' }),
  error('ip.src == ⟦1⟧', 'type-mismatch', { message: /expected an IP address, found the integer `1`/ }),
]);

table('§3 String fields', [
  ok('cf.colo.name == "ams01"'),
  ok('cf.colo.name != "ams01"'),
  ok('cf.colo.name < "b"'),
  ok('cf.colo.name ge "b"'),
  ok('cf.colo.name in {"ams01" "fra02"}'),
  ok('cf.colo.name == r"ams01"'),
  ok('cf.colo.name == 61:6d:73'),
  ok('ip.src.country contains "B"', { name: 'a pattern is not a country code: no country warning' }),
  ok('ip.src.country matches "^B"'),
  ok('ip.proto wildcard "t*"', { name: 'a pattern is not a protocol name: no protocol warning' }),
  ok('ip.proto ~ "^tc"'),
  error('cf.colo.name ⟦&⟧ "a"', 'invalid-operator', { message: /String/ }),
  error('ip.src.country ⟦bitwise_and⟧ "a"', 'invalid-operator'),
  error('cf.colo.name == ⟦ams01⟧', 'type-mismatch', { message: /quoted string/, fixed: 'cf.colo.name == "ams01"' }),
  error('cf.colo.name == ⟦12⟧', 'type-mismatch', { message: /expected a quoted string for `cf\.colo\.name`, found the integer `12`/, fixed: 'cf.colo.name == "12"' }),
  error('ip.proto == ⟦6⟧', 'type-mismatch', { message: /protocol 6 is `"tcp"`/, fixed: 'ip.proto == "tcp"' }),
  error('cf.colo.name contains ⟦1⟧', 'type-mismatch', { message: /`contains` expects a quoted string/ }),
  // The reference reads only a `"…"` or `r"…"` pattern after these operators (LANGUAGE.md §7b).
  ok('cf.colo.name contains 74:63', { name: 'bytes after `contains` are fine' }),
  error('cf.colo.name matches ⟦74:63:70⟧', 'type-mismatch', { message: [/`matches` expects a pattern in a quoted string/, /found hex bytes `74:63:70`/], fixed: 'cf.colo.name matches "tcp"' }),
  error('cf.colo.name ~ ⟦61:2e:62⟧', 'type-mismatch', { fixed: String.raw`cf.colo.name ~ "a\.b"`, name: 'bytes as a regex: its metacharacters are escaped' }),
  error('cf.colo.name wildcard ⟦61-62⟧', 'type-mismatch', { fixed: 'cf.colo.name wildcard "ab"' }),
  error('cf.colo.name strict wildcard ⟦61.2a⟧', 'type-mismatch', { name: 'no fix when a byte would mean something else in the pattern' }),
  error('cf.colo.name wildcard ⟦aa-bb⟧', 'type-mismatch', { name: 'no fix for bytes that are not printable ASCII' }),
  error('cf.colo.name matches ⟦74:63:70⟧ and sip', 'type-mismatch'),
  // A set or a list is no pattern either; `in` would compare whole values, so it is no fix.
  error('cf.colo.name wildcard ⟦{"ams*" "fra*"}⟧', 'type-mismatch', { message: [/takes one pattern in a quoted string, found a `\{…\}` set/, /`or`/], fixed: '(cf.colo.name wildcard "ams*" or cf.colo.name wildcard "fra*")' }),
  error('not cf.colo.name matches ⟦{"^a"}⟧', 'type-mismatch', { fixed: 'not cf.colo.name matches "^a"' }),
  error('cf.colo.name contains ⟦{"a" 62:63}⟧', 'type-mismatch', { fixed: '(cf.colo.name contains "a" or cf.colo.name contains 62:63)' }),
  error('cf.colo.name strict wildcard ⟦$my_list⟧', 'type-mismatch', { message: /found the list `\$my_list`/, name: 'a list after a pattern operator: one problem, on the list' }),
  error('cf.colo.name matches ⟦{}⟧', 'type-mismatch'),
]);

table('§3 `&` on integers is a whole test', [
  ok('tcp.flags & 0x02'),
  ok('tcp.flags & 0x12 and tcp.dstport == 22'),
  ok('tcp.flags bitwise_and 0x12 && tcp.flags.cwr'),
  ok('not tcp.flags & 0x04'),
  error('tcp.flags & 0x12 ⟦==⟧ 0x12', 'syntax-error', { message: [/found `==`/, /`tcp\.flags & 0x12` is already a complete test/] }),
  error('sip and tcp.flags bitwise_and 0x12 ⟦!=⟧ 0', 'syntax-error', { message: /already a complete test/ }),
]);

describe('§3 a bare literal is read by the type of the left side', () => {
  it('10:20:30:40:50:60:70:80 is an IPv6 address after ip.src', () => {
    const rhs = rhsOf('ip.src == 10:20:30:40:50:60:70:80');
    assert.equal(rhs.kind, 'ip');
    if (rhs.kind === 'ip') {
      assert.equal(rhs.family, 6);
      assert.equal(rhs.value, 0x0010_0020_0030_0040_0050_0060_0070_0080n);
    }
  });
  it('10:20:30:40:50:60:70:80 is eight bytes after a String field', () => {
    const rhs = rhsOf('cf.colo.name == 10:20:30:40:50:60:70:80');
    assert.equal(rhs.kind, 'bytes');
    if (rhs.kind === 'bytes') assert.deepEqual(rhs.bytes, [0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80]);
  });
});

// ---------------------------------------------------------------- §4 literals

table('§4 integers', [
  ok('tcp.dstport == 22'),
  ok('tcp.dstport == 0x16'),
  ok('tcp.dstport == 026'),
  ok('tcp.dstport == 0'),
  error('tcp.dstport == 0⟦8⟧0', 'invalid-integer', { message: /octal/, name: '080: the error is on the 8' }),
  error('tcp.dstport == 01⟦9⟧', 'invalid-integer'),
  error('tcp.dstport == 12⟦abc⟧', 'invalid-integer', { message: /expected an integer/ }),
  error('ip.src.asnum == ⟦9223372036854775808⟧', 'integer-overflow', { message: /64-bit/ }),
  error('ip.src.asnum == ⟦-9223372036854775809⟧', 'integer-overflow'),
  error('ip.src.asnum == ⟦0x8000000000000000⟧', 'integer-overflow'),
  warning('ip.src.asnum == ⟦9223372036854775807⟧', 'value-out-of-range', { name: 'the largest 64-bit integer is read (and is no AS number)' }),
  // Forms the reference rejects, each on the span it marks (see LANGUAGE.md §4).
  error('tcp.dstport == -0⟦x10⟧', 'invalid-integer', { message: [/hex integers take no minus sign/, /`-16`/], fixed: 'tcp.dstport == -16' }),
  error('tcp.flags & -0⟦x10⟧', 'invalid-integer', { name: '-0x10 after `&`, where no range is checked' }),
  error('tcp.dstport in {-0⟦x1⟧..5}', 'invalid-integer', { fixed: 'tcp.dstport in {-1..5}' }),
  error('tcp.dstport == 0⟦X50⟧', 'invalid-integer', { message: /lowercase `0x`/, fixed: 'tcp.dstport == 0x50' }),
  error('tcp.dstport in {1..0⟦X5⟧}', 'invalid-integer', { fixed: 'tcp.dstport in {1..0x5}' }),
  error('tcp.dstport == 0⟦x⟧', 'invalid-integer', { message: /hex digits after `0x`/ }),
  error('tcp.dstport == 0⟦o17⟧', 'invalid-integer', { message: /no `0o`/, fixed: 'tcp.dstport == 017' }),
  error('tcp.dstport == 0⟦b101⟧', 'invalid-integer', { message: /no `0b`/, fixed: 'tcp.dstport == 5' }),
  error('tcp.dstport == ⟦+⟧5', 'syntax-error', { name: 'no plus sign' }),
  error('tcp.dstport == 5⟦_000⟧', 'syntax-error', { name: 'no digit separators' }),
  error('tcp.dstport == 1⟦e3⟧', 'invalid-integer'),
  // Only an unsigned literal with a leading 0 is octal: the reference reads `-010` as -10.
  ok('tcp.flags & -08'),
  ok('tcp.flags & -0'),
  ok('tcp.dstport in {00 0777 0x7fff}'),
  warning('ip.src.asnum == ⟦-9223372036854775808⟧', 'value-out-of-range', { name: 'the smallest 64-bit integer is read' }),
  error('ip.src.asnum == ⟦01777777777777777777777⟧', 'integer-overflow', { name: 'an octal 2^64 - 1 overflows' }),
]);

describe('§4 integer values', () => {
  for (const [text, value] of [['22', 22n], ['0x16', 22n], ['0x1F', 31n], ['026', 22n], ['0123', 83n], ['00', 0n], ['0777', 511n]] as const) {
    it(`${text} = ${value}`, () => {
      const rhs = rhsOf(`tcp.dstport == ${text}`);
      assert.equal(rhs.kind, 'integer');
      if (rhs.kind === 'integer') assert.equal(rhs.value, value);
    });
  }
  for (const [text, value] of [['-010', -10n], ['-08', -8n], ['-0', 0n], ['-9223372036854775808', -(2n ** 63n)]] as const) {
    it(`${text} = ${value}: a negative literal is decimal`, () => {
      const rhs = rhsOf(`tcp.flags & ${text}`);
      assert.equal(rhs.kind, 'integer');
      if (rhs.kind === 'integer') assert.equal(rhs.value, value);
    });
  }
});

table('§4 integer ranges', [
  ok('tcp.dstport in {0..1023}'),
  ok('tcp.dstport in {22..22}'),
  ok('tcp.dstport in {0x10..0x20 1..2}'),
  error('tcp.dstport in {⟦10..0⟧}', 'range-order', { message: /starts after it ends/ }),
  error('tcp.dstport in {⟦80-90⟧}', 'invalid-integer', { message: /^`80-90` is not an integer; a range is written `80\.\.90`$/ }),
  error('tcp.dstport in {⟦80 - 90⟧}', 'invalid-integer', { message: /^`80 - 90` is not a range: a range is written `80\.\.90`, without spaces$/ }),
  error('tcp.dstport in {⟦80:90⟧}', 'invalid-integer', { message: /^`80:90` is not an integer; a range is written `80\.\.90`$/ }),
  error('tcp.dstport in {22⟦..⟧}', 'invalid-integer', { message: /range `22\.\.`/ }),
  error('tcp.dstport in {⟦..⟧22}', 'invalid-integer', { message: /range `\.\.22`/ }),
  error('tcp.dstport == ⟦22..80⟧', 'set-required', { message: /only be used inside a `\{…\}` set/, fixed: 'tcp.dstport in {22..80}' }),
  error('tcp.dstport != ⟦22..80⟧', 'set-required'),
]);

table('§4 strings', [
  ok(String.raw`cf.colo.name == "say \"hi\""`),
  ok(String.raw`cf.colo.name == "C:\\dir"`),
  ok(String.raw`cf.colo.name == "\x41\x7e"`),
  ok(String.raw`cf.colo.name == "\101\377"`),
  ok('cf.colo.name == ""'),
  error(String.raw`ip.src.country == "⟦\n⟧"`, 'invalid-escape', { message: [/found `\\n`/, /\\xHH/], fixed: String.raw`ip.src.country == "\x0a"`, name: '"\\n": on the escape, and the value is not checked further' }),
  error(String.raw`cf.colo.name == "a⟦\q⟧"`, 'invalid-escape'),
  error(String.raw`cf.colo.name == "⟦\x4⟧"`, 'invalid-escape'),
  error(String.raw`cf.colo.name == "⟦\x4g⟧"`, 'invalid-escape'),
  error(String.raw`cf.colo.name == "⟦\400⟧"`, 'invalid-escape', { message: /one byte/ }),
  error('cf.colo.name == ⟦"ams01⟧', 'unterminated-string', { message: /closing `"`/, fixed: 'cf.colo.name == "ams01"' }),
  error('cf.colo.name == "a" or cf.colo.name == ⟦"b or sip⟧', 'unterminated-string'),
  error(String.raw`cf.colo.name == ⟦"dir\⟧`, 'unterminated-string', { fixed: String.raw`cf.colo.name == "dir\\"`, name: 'an unterminated string ending in a backslash is closed after escaping it' }),
  // After `matches` the reference hands every backslash but `\"` to the regex engine.
  ok(String.raw`cf.colo.name matches "^sfo\d+$"`),
  ok(String.raw`cf.colo.name ~ "a\.b\n\t"`),
  ok(String.raw`cf.colo.name matches "say \"hi\""`),
  ok(String.raw`cf.colo.name matches "^\"[^"]*\"$" and sip`, { name: 'a quote inside a class does not end the pattern' }),
  error(String.raw`cf.colo.name matches ⟦"[a" or sip⟧`, 'unterminated-string', { message: /inside a `\[…\]` class/, name: 'a pattern whose class is never closed runs to the end' }),
  error(String.raw`cf.colo.name == "^sfo⟦\d⟧+$"`, 'invalid-escape', { name: 'elsewhere `\\d` is still a bad string escape' }),
  error(String.raw`cf.colo.name wildcard "a⟦\*⟧"`, 'invalid-escape', { name: 'a wildcard is a string: its string escapes are read first' }),
]);

describe('§4 string values', () => {
  const value = (text: string) => {
    const rhs = rhsOf(text);
    assert.equal(rhs.kind, 'string');
    return rhs.kind === 'string' ? rhs.value : undefined;
  };
  it('escapes', () => assert.equal(value(String.raw`cf.colo.name == "\"\\\x41\101"`), '"\\AA'));
  it('raw strings have no escapes', () => assert.equal(value(String.raw`cf.colo.name == r"a\nb"`), String.raw`a\nb`));
  it('an escape is one byte, from 0x80 too; a character is its UTF-8 bytes', () => {
    const rhs = rhsOf(String.raw`cf.colo.name == "a\xe9\351é"`);
    assert.deepEqual(rhs.kind === 'string' ? rhs.bytes : undefined, [0x61, 0xe9, 0xe9, 0xc3, 0xa9]);
  });
  it('after `matches` the value is the regex source, backslashes kept but before a quote', () => assert.equal(value(String.raw`cf.colo.name matches "\d\"[\"]\\"`), String.raw`\d"[\"]\\`));
  it('r#"…"# holds a quote', () => assert.equal(value('cf.colo.name == r#"say "hi""#'), 'say "hi"'));
  it('r##"…"## holds "#', () => assert.equal(value('cf.colo.name == r##"a"#b"##'), 'a"#b'));
  it('a fence of 255 #', () => {
    const fence = '#'.repeat(255);
    assert.equal(value(`cf.colo.name == r${fence}"x"${fence}`), 'x');
  });
});

table('§4 raw strings', [
  ok('cf.colo.name == r"ams01"'),
  ok('cf.colo.name == r#"a"b"#'),
  ok('cf.colo.name == r##"a"#b"##'),
  ok('cf.colo.name in {r"a" r#"b"# "c"}'),
  error('cf.colo.name == ⟦r##"abc"#⟧', 'unterminated-string', { message: /closing `"##`/, fixed: 'cf.colo.name == r##"abc"#"##', name: 'closing fence too short' }),
  error('cf.colo.name == r#"abc"#⟦#⟧', 'syntax-error', { message: /raw string/, name: 'closing fence too long: the extra # is left over' }),
  error('cf.colo.name == r"a"⟦b⟧"', 'syntax-error', { message: /found `b`/, name: 'r"…" ends at the first quote' }),
  error('cf.colo.name == ⟦r"abc⟧', 'unterminated-string', { fixed: 'cf.colo.name == r"abc"' }),
]);

table('§4 bytes', [
  ok('cf.colo.name == aa:bb:cc'),
  ok('cf.colo.name == aa-bb-cc'),
  ok('cf.colo.name == aa.bb.cc'),
  ok('cf.colo.name in {aa:bb "x"}'),
  error('ip.src == ⟦aa:bb:cc⟧', 'invalid-ip', { message: /IPv6/, name: 'bytes are for String fields only' }),
  error('tcp.dstport == ⟦aa:bb⟧', 'invalid-integer'),
]);

table('§7b patterns: regexes as the Rust regex crate reads them', [
  ok(String.raw`cf.colo.name matches "\<ams\d{2,}\b"`),
  ok(String.raw`cf.colo.name matches "a++b**"`, { name: 'nested repetitions, never possessive' }),
  ok(String.raw`cf.colo.name matches "(?P<site>[a-z]+)(?<n>\d+)"`),
  ok(String.raw`cf.colo.name matches "[a-z&&[^aeiou]]\z"`),
  ok(String.raw`cf.colo.name matches "(?u)\pL\x{10FFFF}"`),
  ok(String.raw`cf.colo.name matches "(?i)é[[:alpha:]]\b{start}a{ 1 , 2 }\/"`),
  ok(String.raw`cf.colo.name matches "(?x) a b # comment"`),
  ok(String.raw`cf.colo.name matches "[]a]x{1001}"`),
  ok(String.raw`cf.colo.name matches "\\"`),
  error(String.raw`cf.colo.name matches "(⟦(⟧"`, 'invalid-regex', { message: /unclosed group/ }),
  error(String.raw`cf.colo.name matches "a⟦{2,1}⟧"`, 'invalid-regex', { message: /the start must be <= the end/ }),
  error(String.raw`cf.colo.name matches "⟦\1⟧01"`, 'invalid-regex', { message: /backreferences are not supported/, name: '"\\101": octal is a backreference to the regex engine' }),
  error(String.raw`cf.colo.name matches "⟦\e⟧"`, 'invalid-regex', { message: /unrecognized escape/ }),
  error(String.raw`cf.colo.name matches "⟦\Z⟧"`, 'invalid-regex', { message: /unrecognized escape/ }),
  error(String.raw`cf.colo.name matches r"a⟦\⟧"`, 'invalid-regex', { message: /incomplete escape/, name: 'a trailing backslash in a raw string' }),
  error(String.raw`cf.colo.name matches "⟦*⟧a"`, 'invalid-regex', { message: /repetition operator missing expression/ }),
  error(String.raw`cf.colo.name matches "⟦(?=⟧a)"`, 'invalid-regex', { message: /look-around/ }),
  error(String.raw`cf.colo.name matches "⟦\pL⟧"`, 'invalid-regex', { message: /Unicode not allowed/, name: 'Unicode classes need (?u)' }),
  error(String.raw`cf.colo.name matches "[⟦é⟧]"`, 'invalid-regex', { message: /Unicode not allowed/ }),
  error(String.raw`cf.colo.name matches r"⟦[⟧a"`, 'invalid-regex', { message: /unclosed character class/ }),
  error(String.raw`cf.colo.name matches "a\"⟦(⟧"`, 'invalid-regex', { name: 'the span counts `\\"` as two characters' }),
  error(String.raw`cf.colo.name matches "\\⟦\q⟧"`, 'invalid-regex', { name: '`\\\\` is an escaped backslash to the regex engine' }),
  error(String.raw`cf.colo.name ~ r#"(?P<a>x)(?P<⟦a⟧>y)"#`, 'invalid-regex', { message: /duplicate capture group name/ }),
]);

table('§7b patterns: wildcards', [
  ok('cf.colo.name wildcard "*a*b*"'),
  ok(String.raw`cf.colo.name wildcard r"a\*b\\"`),
  ok(String.raw`cf.colo.name strict wildcard "a\\*b\\\\"`),
  error('cf.colo.name wildcard "sfo⟦**⟧"', 'invalid-wildcard', { message: /`\*\*`/, fixed: 'cf.colo.name wildcard "sfo*"' }),
  error(String.raw`cf.colo.name strict wildcard r"⟦**⟧a"`, 'invalid-wildcard'),
  error(String.raw`cf.colo.name wildcard r"x⟦\y⟧"`, 'invalid-wildcard', { message: /found `y`/ }),
  error(String.raw`cf.colo.name wildcard "x⟦\\⟧"`, 'invalid-wildcard', { message: /found its end/ }),
  error(String.raw`cf.colo.name wildcard "x⟦\x5c⟧"`, 'invalid-wildcard', { message: /found its end/, name: 'a backslash written \\x5c is a wildcard escape too' }),
  error(String.raw`cf.colo.name wildcard r"**⟦\q⟧"`, 'invalid-wildcard', { name: 'a bad escape is reported before `**`, as the reference does' }),
]);

table('§4 IP addresses', [
  ok('ip.src == 192.0.2.1'),
  ok('ip.src == 0.0.0.0'),
  ok('ip.src == 255.255.255.255'),
  ok('ip.src == 2001:db8::1'),
  ok('ip.src == ::'),
  ok('ip.src == ::1'),
  ok('ip.src == ::ffff:1.2.3.4'),
  ok('ip.src == 10:20:30:40:50:60:70:80'),
  error('ip.src == 192.0.2.⟦256⟧', 'invalid-ip', { message: /0 to 255/ }),
  error('ip.src == ⟦192.0.2⟧', 'invalid-ip', { message: /four numbers/ }),
  error('ip.src == ⟦01⟧.2.3.4', 'invalid-ip', { message: /leading zero/ }),
  // Found by the property tests: the missing last part lies past the text; the dot is marked.
  error('ip.src in {10.0.0⟦.⟧}', 'invalid-ip', { message: /expected a number after the last dot/ }),
  error('ip.src == 2001:db8⟦:⟧', 'invalid-ip', { message: /IPv6/ }),
  error('ip.src == 2001:db8:⟦::⟧1', 'invalid-ip', { message: /`::` may appear only once/ }),
  error('ip.src == 2001:db8::⟦g⟧', 'invalid-ip'),
]);

describe('§4 IP address values', () => {
  it('::ffff:1.2.3.4 embeds IPv4', () => {
    const rhs = rhsOf('ip.src == ::ffff:1.2.3.4');
    assert.equal(rhs.kind, 'ip');
    if (rhs.kind === 'ip') assert.deepEqual([rhs.family, rhs.value], [6, 0xffff_0102_0304n]);
  });
  it('IPv4', () => {
    const rhs = rhsOf('ip.src == 192.0.2.1');
    assert.equal(rhs.kind, 'ip');
    if (rhs.kind === 'ip') assert.deepEqual([rhs.family, rhs.value], [4, 0xc000_0201n]);
  });
});

table('§4 IP ranges', [
  ok('ip.src in {192.0.2.0/24}'),
  warning('⟦ip.src in {0.0.0.0/0 ::/0}⟧', 'always-true'),
  warning('ip.src in {192.0.2.1/32 2001:db8::/32 ⟦2001:db8::1/128⟧}', 'redundant-set-member'),
  ok('ip.src in {192.0.2.1..192.0.2.9}'),
  ok('ip.src in {2001:db8::1..2001:db8::9}'),
  error('ip.src in {192.0.2.0/⟦33⟧}', 'invalid-cidr', { message: /33/, name: '/33: on the prefix' }),
  error('ip.src in {2001:db8::/⟦129⟧}', 'invalid-cidr', { message: /129/, name: '/129: on the prefix' }),
  error('ip.src in {192.0.2.0/⟦x⟧}', 'invalid-cidr'),
  error('ip.src in {192.0.2.0⟦/⟧}', 'invalid-cidr', { message: /found nothing/ }),
  error('ip.src in {⟦192.0.2.1..2001:db8::1⟧}', 'range-family', { message: /IPv4 and IPv6/ }),
  error('ip.src in {⟦192.0.2.9..192.0.2.1⟧}', 'range-order'),
  error('ip.src in {⟦10.0.0.0-10.0.0.255⟧}', 'invalid-ip', { message: /^`10\.0\.0\.0-10\.0\.0\.255` is not an address; a range of addresses is written `10\.0\.0\.0\.\.10\.0\.0\.255`$/ }),
  error('ip.src in {⟦192.0.2.1⟧/24}', 'invalid-cidr', { message: [/host bits set/, /`192\.0\.2\.0\/24`/], fixed: 'ip.src in {192.0.2.0/24}' }),
  error('ip.src in {⟦10.0.0.1⟧/8}', 'invalid-cidr', { fixed: 'ip.src in {10.0.0.0/8}' }),
  error('ip.src in {⟦2001:db8::1⟧/32}', 'invalid-cidr', { fixed: 'ip.src in {2001:db8::/32}' }),
  error('ip.src in {⟦::ffff:1.2.3.4⟧/96}', 'invalid-cidr', { fixed: 'ip.src in {::ffff:0:0/96}' }),
  error('ip.src in {⟦1.2.3.4⟧/0}', 'invalid-cidr', { fixed: 'ip.src in {0.0.0.0/0}' }),
  ok('ip.src in {192.0.2.1/32}'),
  ok('ip.src in {10.0.0.0/08}', { name: 'a prefix length with leading zeros' }),
  ok('ip.src in {10.0.0.0/0008}'),
  error('ip.src in {10.0.0.0/⟦256⟧}', 'invalid-cidr', { message: /prefix length 256 is longer/ }),
  error('ip.src in {10.0.0.0/⟦000000000000000000033⟧}', 'invalid-cidr', { message: /prefix length 33 is longer/ }),
  error('ip.src == ⟦192.0.2.0/24⟧', 'set-required', { message: /CIDR/, fixed: 'ip.src in {192.0.2.0/24}', name: 'CIDR after ==' }),
  error('ip.src in ⟦10.0.0.0/8⟧', 'set-required', { message: /expected a `\{…\}` set or a `\$list` after `in`/, fixed: 'ip.src in {10.0.0.0/8}', name: 'CIDR outside {}' }),
  error('ip.src == ⟦192.0.2.1..192.0.2.9⟧', 'set-required', { fixed: 'ip.src in {192.0.2.1..192.0.2.9}' }),
]);

describe('§4 a CIDR block with host bits set', () => {
  it('after `==`: both what is wrong with the block and that it needs `in {…}`', () => {
    const text = 'ip.src == 10.0.0.1/8';
    const problems = check(text).problems.map((p) => `${p.code} ${text.slice(p.span.start, p.span.end)}`);
    assert.deepEqual(problems.sort(), ['invalid-cidr 10.0.0.1', 'set-required 10.0.0.1/8']);
  });
});

// ---------------------------------------------------------------- §5 fields

table('§5 every field of magic_transit, in a sensible comparison', [
  ok('ip.src == 192.0.2.1'),
  ok('ip.dst in {203.0.113.0/24}'),
  ok('ip.src.country == "BR"'),
  ok('ip.dst.country in {"DE" "FR"}'),
  // Accepted, with a hint: deprecated, the source or the destination country (§9; lints.test.ts has the rest).
  information('⟦ip.geoip.country⟧ == "CN"', 'deprecated-field', { fixed: '(ip.src.country == "CN" or ip.dst.country == "CN")' }),
  ok('ip.src.asnum == 13335'),
  ok('ip.dst.asnum in {64496..64511}'),
  ok('ip.proto == "tcp"'),
  ok('ip.proto in {"udp" "icmp" "esp" "gre" "hopopt"}'),
  ok('ip.len > 1400'),
  ok('ip.hdr_len > 20'),
  ok('ip.ttl < 10'),
  ok('ip.opt.type == 7'),
  ok('tcp.srcport == 53'),
  ok('tcp.dstport in {80 443}'),
  ok('udp.srcport == 123'),
  ok('udp.dstport in {1024..65535}'),
  ok('tcp.flags & 0x02'),
  ok('tcp.flags == 0x12'),
  ok('tcp.flags.ack'),
  ok('tcp.flags.cwr'),
  ok('tcp.flags.ecn'),
  ok('tcp.flags.fin'),
  ok('tcp.flags.push'),
  ok('tcp.flags.reset'),
  ok('tcp.flags.syn'),
  ok('tcp.flags.urg'),
  ok('icmp.type == 8'),
  ok('icmp.code == 4'),
  ok('sip'),
  ok('cf.colo.name == "ams01"'),
  ok('cf.colo.region == "WNAM"'),
  ok('bit_slice(ip, 72, 80) == 6'),
  ok('bit_slice(tcp, 0, 16) == 53'),
  ok('bit_slice(udp, 64, 72) == 0x45'),
  ok('bit_slice(icmp, 0, 8) == 8'),
  ok('ip contains 45:00'),
  ok('tcp contains "GET"'),
  ok('udp == "x"'),
  ok('icmp != "x"'),
]);

describe('§5 the sister network phases have the table of magic_transit', () => {
  for (const phase of ['magic_transit_managed', 'magic_transit_ids_managed', 'magic_transit_ratelimit', 'ddos_l4']) {
    table(`phase ${phase}`, [
      error('⟦http.request.uri.path⟧ contains "/admin"', 'unknown-field', { phase, message: new RegExp(`^unknown field \`http\\.request\\.uri\\.path\` in phase \`${phase}\``) }),
      error('⟦tcp.dstprt⟧ == 22', 'unknown-field', { phase, message: /did you mean `tcp\.dstport`/, fixed: 'tcp.dstport == 22' }),
      ok('tcp.dstport == 22 and ip.src in $svc.vpn', { phase }),
      error('tcp.dstport in ⟦$my_list⟧', 'list-not-allowed', { phase }),
      error('any(⟦tcp.dstport == 22⟧)', 'type-mismatch', { phase }),
    ]);
  }
});

describe('§5 other phases: a phase we do not know has no complete table', () => {
  for (const phase of ['a_phase_added_later', null]) {
    // Without a phase, the ruleset may go to any: a name no phase has is wrong in each of them,
    // but a phase added later may have names this version does not know.
    const someField = phase === null ? [error('⟦some.field⟧ == 1 and ip.src in $svc.vpn', 'unknown-field', { phase, message: /^unknown field `some\.field`: no phase has it/ }), error('⟦foo⟧', 'unknown-field', { phase })] : [ok('some.field == 1 and ip.src in $svc.vpn', { phase }), ok('foo', { phase })];
    table(`phase ${phase ?? '(none)'}`, [
      ok('http.request.uri.path contains "/admin"', { phase }),
      ...someField,
      ok('tcp.dstport == 22', { phase }),
      error('tcp.dstport == ⟦"x"⟧', 'type-mismatch', { phase }),
      error('tcp.flags.syn ⟦== true⟧', 'boolean-comparison', { phase }),
      warning('ip.src.country == ⟦"br"⟧', 'country-code-case', { phase }),
      error('tcp.dstport ⟦contains⟧ "x"', 'invalid-operator', { phase }),
      error('⟦tcp.dstport⟧', 'missing-operator', { phase }),
      // An unknown field's values are read by their shape; a bare word fits no type.
      ...(phase === null
        ? []
        : [
            error('some.field == ⟦abc⟧', 'invalid-value', { phase, message: /expected a number, an IP address or CIDR, a quoted string/ }),
            error('some.field == 1.2.3.⟦256⟧', 'invalid-ip', { phase }),
            ok('some.field in {10.0.0.0/8 aa:bb:cc 1..5 "x"}', { phase }),
          ]),
    ]);
  }
});

// ---------------------------------------------------------------- §6 lists

table('§6 lists', [
  ok('ip.src in $svc.anonymizer'),
  ok('ip.src in $svc.botnetcc'),
  ok('ip.dst in $svc.malware'),
  ok('ip.src in $svc.open_proxies'),
  ok('ip.dst in $svc.vpn'),
  ok('not ip.src in $svc.vpn'),
  warning('ip.src in ⟦$svc.malwre⟧', 'unknown-list', { message: /did you mean `\$svc\.malware`/, fixed: 'ip.src in $svc.malware' }),
  warning('ip.src in ⟦$svc.tor⟧', 'unknown-list', { message: /`\$svc\.anonymizer`/ }),
  ok('ip.src in $my_list', { name: 'an account list is accepted when the account\'s lists are not known' }),
  ok('ip.src in $blocked_2024', { knownLists: ['blocked_2024'] }),
  ok('ip.src in $svc.vpn', { knownLists: [] }),
  warning('ip.src in ⟦$my_list⟧', 'unknown-list', { knownLists: ['other_list'], message: /no list named `\$my_list`/ }),
  warning('ip.src in ⟦$my_lsit⟧', 'unknown-list', { knownLists: ['my_list'], message: /did you mean `\$my_list`/, fixed: 'ip.src in $my_list' }),
  warning('ip.src in ⟦$other.list⟧', 'unknown-list'),
  error('tcp.dstport in ⟦$my_list⟧', 'list-not-allowed', { message: /`ip\.src` or `ip\.dst`/ }),
  error('ip.src.country in ⟦$svc.vpn⟧', 'list-not-allowed'),
  error('ip.src in ⟦$⟧', 'invalid-list-name', { message: /expected a list name/ }),
  error('ip.src in $⟦My_List⟧', 'invalid-list-name', { message: /lowercase/, fixed: 'ip.src in $my_list' }),
  error('ip.src in $⟦svc.VPN⟧', 'invalid-list-name', { fixed: 'ip.src in $svc.vpn', name: 'a miscased list has one problem, not two' }),
  error('ip.src in $⟦.foo⟧', 'invalid-list-name'),
  error('ip.src in $⟦foo.⟧', 'invalid-list-name'),
  error('ip.src in $⟦a..b⟧', 'invalid-list-name'),
  error('ip.src in {⟦$svc.vpn⟧}', 'list-in-set', { message: /in \$svc\.vpn/, name: 'a list is no set item (and the set is not called empty)' }),
  error('ip.src ⟦==⟧ $svc.vpn', 'set-requires-in', { fixed: 'ip.src in $svc.vpn' }),
]);

// ---------------------------------------------------------------- §7 functions

table('§7 bit_slice', [
  ok('bit_slice(udp, 64, 72) == 0x45'),
  error('bit_slice(⟦"tcp"⟧, 0, 16) == 53', 'bit-slice-arguments', { message: [/the field `tcp`/, /found the string `"tcp"`/], fixed: 'bit_slice(tcp, 0, 16) == 53' }),
  error('bit_slice(⟦r"udp"⟧, 64, 72) == 1', 'bit-slice-arguments', { fixed: 'bit_slice(udp, 64, 72) == 1' }),
  error('bit_slice(⟦"UDP"⟧, 64, 72) == 1', 'bit-slice-arguments', { fixed: 'bit_slice(udp, 64, 72) == 1' }),
  ok('bit_slice(ip, 0, 32) == 1', { name: '32 bits' }),
  ok('bit_slice(ip, 2008, 2040) == 1', { name: 'offsets up to 2040' }),
  ok('bit_slice(ip,0,8) in {1 2}'),
  error('bit_slice(ip, ⟦0, 33⟧) == 1', 'bit-slice-range', { message: /33 bits/ }),
  error('bit_slice(ip, 2032, ⟦2041⟧) == 1', 'bit-slice-range', { message: /2041/ }),
  error('bit_slice(ip, ⟦2048⟧, ⟦2056⟧) == 1', 'bit-slice-range'),
  error('bit_slice(ip, ⟦16, 8⟧) == 1', 'bit-slice-range', { message: /not after its start/ }),
  error('bit_slice(ip, ⟦8, 8⟧) == 1', 'bit-slice-range'),
  error('bit_slice(⟦eth⟧, 0, 8) == 1', 'bit-slice-arguments', { message: /`ip`, `tcp`, `udp`, `icmp`/ }),
  error('bit_slice(⟦"eth"⟧, 0, 8) == 1', 'bit-slice-arguments'),
  error('bit_slice(⟦TCP⟧, 0, 8) == 1', 'bit-slice-arguments', { fixed: 'bit_slice(tcp, 0, 8) == 1' }),
  error('⟦bit_slice(ip, 0)⟧ == 1', 'bit-slice-arguments', { message: /3 arguments/ }),
  error('bit_slice(ip, ⟦"a"⟧, 8) == 1', 'bit-slice-arguments'),
  // Offsets are decimal literals: the reference reads `0x10` there as an unknown name.
  error('bit_slice(ip, ⟦0x10⟧, 24) == 1', 'bit-slice-arguments', { message: /decimal/, fixed: 'bit_slice(ip, 16, 24) == 1' }),
  error('bit_slice(ip, 8, ⟦0x18⟧) == 1', 'bit-slice-arguments', { fixed: 'bit_slice(ip, 8, 24) == 1' }),
  ok('bit_slice(ip, 010, 24) == 1', { name: 'an octal offset is read (8)' }),
  warning('bit_slice(ip, 0, 8) == ⟦256⟧', 'value-out-of-range'),
  error('⟦bit_slce⟧(ip, 0, 8) == 1', 'unknown-function', { message: /did you mean `bit_slice`/, fixed: 'bit_slice(ip, 0, 8) == 1' }),
  // Other phases have functions we have no entry for, as they have fields.
  ok('lower(http.host) == "x"', { phase: 'http_request_firewall_custom' }),
  ok('len(http.host) > 3', { phase: null }),
  error('⟦bit_slice⟧ == 1', 'missing-arguments'),
]);

// ---------------------------------------------------------------- §8 limits and values

/** `tcp.dstport in {1 1 … 1}`, exactly `length` characters long. */
function ofLength(length: number): string {
  const head = 'tcp.dstport in {';
  const body = length - head.length - 1;
  // Distinct members (1000 1001 …), padded with spaces: a repeated one would be redundant.
  const members = Array.from({ length: Math.floor(body / 5) }, (_, i) => `${1000 + i} `).join('');
  const text = `${head}${members.padEnd(body, ' ')}}`;
  assert.equal(text.length, length);
  return text;
}

table('§8 limits', [
  ok(ofLength(4096), { name: '4,096 characters' }),
  error(`${ofLength(4097).slice(0, 4096)}⟦}⟧`, 'expression-too-long', { message: /4097.*4096/, name: '4,097 characters: the part past the limit' }),
]);

table('§8 values worth checking', [
  ok('tcp.dstport == 65535'),
  ok('udp.srcport == 0'),
  warning('tcp.dstport == ⟦70000⟧', 'value-out-of-range', { message: /0–65535/ }),
  warning('udp.dstport in {⟦65000..70000⟧}', 'value-out-of-range', { fixed: 'udp.dstport in {65000..65535}' }),
  warning('tcp.srcport == ⟦-1⟧', 'value-out-of-range'),
  ok('ip.ttl == 255'),
  warning('ip.ttl == ⟦256⟧', 'value-out-of-range', { message: /0–255/ }),
  warning('icmp.type == ⟦256⟧', 'value-out-of-range'),
  warning('icmp.code > ⟦300⟧', 'value-out-of-range', { message: /can never match$/ }),
  warning('ip.ttl <= ⟦-1⟧', 'value-out-of-range', { message: /can never match$/ }),
  ok('ip.ttl < 300', { name: 'an ordering bound past the values on the side that leaves them all: never "can never match"' }),
  warning('tcp.dstport != ⟦70000⟧', 'value-out-of-range', { message: /so `!=` is always true where it has a value$/, name: '`!=` a value the field never has: true, not "never matches"' }),
  warning('tcp.flags == ⟦0x100⟧', 'value-out-of-range'),
  ok('tcp.flags & 0xff'),
  ok('ip.src.asnum == 4294967295'),
  ok('ip.dst.asnum == 0'),
  warning('ip.src.asnum == ⟦4294967296⟧', 'value-out-of-range'),
  warning('ip.dst.asnum == ⟦-1⟧', 'value-out-of-range'),
  ok('ip.src.country == "BR"'),
  ok('ip.dst.country in {"GB" "NA" "SS"}'),
  warning('ip.src.country == ⟦"br"⟧', 'country-code-case', { message: /`"BR"`/, fixed: 'ip.src.country == "BR"' }),
  warning('ip.dst.country in {⟦"de"⟧ "FR" ⟦"gb"⟧}', 'country-code-case'),
  warning('ip.src.country == ⟦"UK"⟧', 'unknown-country-code', { message: /GB/, fixed: 'ip.src.country == "GB"' }),
  warning('ip.src.country == ⟦"XK"⟧', 'unknown-country-code', { message: [/Kosovo/, /^(?!.*never matches)/] }),
  warning('ip.src.country == ⟦"UK"⟧', 'unknown-country-code', { message: /never matches/, fixed: 'ip.src.country == "GB"' }),
  warning('ip.src.country == ⟦"EU"⟧', 'unknown-country-code', { message: /European Union/ }),
  warning('ip.dst.country == ⟦"Brazil"⟧', 'unknown-country-code', { message: /did you mean `"BR"`/, fixed: 'ip.dst.country == "BR"' }),
  warning('ip.src.country == ⟦"ZZ"⟧', 'unknown-country-code'),
  warning('ip.proto == ⟦"TCP"⟧', 'protocol-case', { fixed: 'ip.proto == "tcp"' }),
  warning('ip.proto == ⟦"tpc"⟧', 'unknown-protocol', { message: /did you mean `"tcp"`/, fixed: 'ip.proto == "tcp"' }),
]);

// ---------------------------------------------------------------- §9 decisions

table('§9 where sources disagree', [
  ok('true', { name: '`true` as the whole expression' }),
  warning('⟦false⟧', 'literal-false', { name: '`false` as the whole expression: accepted, and the rule never matches' }),
  ok('not false'),
  ok('true and sip'),
  ok('true', { phase: 'magic_transit_managed' }),
  warning('ip.dst ⟦>⟧ 192.0.2.1', 'ip-ordering'),
  warning('ip.dst ⟦lt⟧ 2001:db8::1', 'ip-ordering'),
  ok('tcp.flags & 0x02', { name: '`&` is accepted' }),
  error('tcp.dstport ==⟦\t⟧22', 'tab-whitespace', { fixed: 'tcp.dstport == 22', name: 'TAB: error with a fix' }),
  error('ip.src in ⟦192.0.2.0/24⟧', 'set-required', { fixed: 'ip.src in {192.0.2.0/24}', name: 'CIDR outside {}: error with a fix' }),
  error('tcp.dstport in {22⟦,⟧ 443}', 'comma-in-set', { message: /found `,`/, fixed: 'tcp.dstport in {22 443}', name: 'commas in sets: error with a fix' }),
  error('tcp.dstport in {22⟦,⟧443⟦,⟧8080}', 'comma-in-set', { fixed: 'tcp.dstport in {22 443,8080}' }),
]);

// ---------------------------------------------------------------- nesting

describe('nesting depth', () => {
  const parens = (n: number) => `${'('.repeat(n)}sip${')'.repeat(n)}`;
  /** `n` calls, one in the other, compared. */
  const calls = (n: number) => `${'lower('.repeat(n)}http.host${')'.repeat(n)}`;
  /** A phase we do not know: unknown fields and functions are not reported, so only the nesting is. */
  const HTTP = 'a_phase_added_later';
  const problemsOf = (text: string, phase = 'magic_transit') => check(text, { phase }).problems.map((p) => `${p.code} ${p.severity} ${p.span.start}..${p.span.end}`);

  it('128 levels of parentheses are fine', () => assert.deepEqual(problemsOf(parens(128)), []));
  it('129 levels: on the 129th `(`', () => assert.deepEqual(problemsOf(parens(129)), ['nesting-too-deep error 128..129']));
  it('a field whose last part is `not` is no `not`', () => assert.deepEqual(problemsOf(`${'('.repeat(128)}sip.not${')'.repeat(128)}`), ['unknown-field error 128..135']));
  it('128 levels of `not` are fine', () => assert.deepEqual(problemsOf(`${'not '.repeat(128)}sip`), []));
  it('129 levels of `not`: on the 129th', () => assert.deepEqual(problemsOf(`${'not '.repeat(129)}sip`), [`nesting-too-deep error ${128 * 4}..${128 * 4 + 3}`]));
  it('129 levels of `!`: on the 129th', () => assert.deepEqual(problemsOf(`${'!'.repeat(129)}sip`), ['nesting-too-deep error 128..129']));
  it('`not` and parentheses count together', () => {
    assert.deepEqual(problemsOf(`${'not ('.repeat(64)}sip${')'.repeat(64)}`), []);
    assert.deepEqual(problemsOf(`${'not ('.repeat(64)}not sip${')'.repeat(64)}`), [`nesting-too-deep error ${64 * 5}..${64 * 5 + 3}`]);
  });
  it('levels separated by other tokens count too', () => {
    const text = (n: number) => `${'not (tcp.flags.cwr and '.repeat(n)}tcp.flags.syn${')'.repeat(n)}`;
    assert.deepEqual(problemsOf(text(64)), []);
    const deep = text(65);
    const last = deep.lastIndexOf('not');
    assert.deepEqual(problemsOf(deep), [`nesting-too-deep error ${last}..${last + 3}`]);
  });
  it('128 levels also on a cold start (a fresh process, before the JIT has warmed up)', () => {
    // Each case in its own process: Ohm recurses on the JS stack, and unoptimised frames are larger.
    // A syntax error at the innermost level makes Ohm read all of them.
    for (const [text, expected, phase] of [
      [parens(128), [], 'magic_transit'],
      [`${'('.repeat(128)}sip`, ['syntax-error'], 'magic_transit'],
      [`${'not ('.repeat(64)}sip${')'.repeat(64)}`, [], 'magic_transit'],
      [`${calls(128)} ==`, ['syntax-error'], HTTP],
      [`${'any('.repeat(128)}z[*] ==${')'.repeat(128)}`, ['syntax-error'], HTTP],
      [`${'f(('.repeat(64)}sip and${'))'.repeat(64)}`, ['syntax-error'], HTTP],
      [`${'f(not g('.repeat(42)}x[0] ==${'))'.repeat(42)}`, ['syntax-error'], HTTP],
      [`${'any(not ('.repeat(42)}z[*] ==${'))'.repeat(42)}`, ['syntax-error'], HTTP],
    ] as const) {
      const script = `const { checkExpression } = require(${JSON.stringify(CHECKER)});
        const result = checkExpression(${JSON.stringify(text)}, { phase: ${JSON.stringify(phase)} });
        process.stdout.write(JSON.stringify(result.problems.map((p) => p.code)));`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
      assert.equal(child.status, 0, child.stderr);
      assert.deepEqual(JSON.parse(child.stdout), expected, text.slice(0, 20));
    }
  });
  it('calls and quantifiers are levels too, as the reference counts them', () => {
    assert.deepEqual(problemsOf(`${calls(128)} == "a"`, HTTP), []);
    // On the `(` of the 129th call, as the reference reports it.
    assert.deepEqual(problemsOf(`${calls(129)} == "a"`, HTTP), [`nesting-too-deep error ${128 * 6 + 5}..${128 * 6 + 6}`]);
    // (`any(any(…))` is also a quantifier of one Boolean, reported on each argument: the levels are what is counted here.)
    const quantifiers = (n: number) => `${'any ('.repeat(n)}z[*] == 1${')'.repeat(n)}`;
    const levels = (text: string) => problemsOf(text, HTTP).filter((p) => p.startsWith('nesting-too-deep'));
    assert.deepEqual(levels(quantifiers(128)), []);
    assert.deepEqual(levels(quantifiers(129)), [`nesting-too-deep error ${128 * 5 + 4}..${128 * 5 + 5}`]);
    // Index steps are no level.
    assert.deepEqual(problemsOf(`${'f('.repeat(127)}x${')[0]'.repeat(127)} == "a"`, HTTP), []);
  });
  it('levels the scan before parsing undercounts, through calls: on the tree', () => {
    // `not` before a call and a group inside it: three levels for two parentheses.
    const text = (n: number) => `${'not f((sip and '.repeat(n)}sip${'))'.repeat(n)}`;
    assert.deepEqual(problemsOf(text(42), HTTP), []);
    const deep = text(43);
    // Past 128 levels the fast parser leaves the text to Ohm, whose tree the checker measures.
    const last = deep.lastIndexOf('((') + 1;
    assert.deepEqual(problemsOf(deep, HTTP), [`nesting-too-deep error ${last}..${last + 1}`]);
  });
  it('100,000 levels of calls, quantifiers, brackets and arguments in parentheses', () => {
    for (const [text, expected] of [
      [`${'lower('.repeat(100_000)}x`, `nesting-too-deep error ${128 * 6 + 5}..${128 * 6 + 6}`],
      [`${'any('.repeat(100_000)}x`, `nesting-too-deep error ${128 * 4 + 3}..${128 * 4 + 4}`],
      // The 129th level: the call of the 65th `f((` (each is two).
      [`${'f(('.repeat(100_000)}x`, `nesting-too-deep error ${64 * 3 + 1}..${64 * 3 + 2}`],
      // The scan counts a `not` only with the parentheses right after it (`f` comes between
      // here), so it finds the 129th level later, at the 128th `not`: still an error, never a
      // stack overflow.
      [`${'f(not '.repeat(100_000)}x`, `nesting-too-deep error ${127 * 6 + 2}..${127 * 6 + 5}`],
      // Index steps hold no level; past 65,536 characters an expression is not parsed at all.
      [`x${'['.repeat(60_000)}`, 'syntax-error error 2..3'],
      [`x${'['.repeat(100_000)}`, 'expression-too-long error 4096..100001'],
      [`x${'[0]'.repeat(20_000)} == 1`, 'expression-too-long error 4096..60006'],
    ] as const) {
      const start = performance.now();
      assert.ok(problemsOf(text, HTTP).includes(expected), `${text.slice(0, 12)}…: ${problemsOf(text, HTTP).join(', ')}`);
      assert.ok(performance.now() - start < 1500, `${text.slice(0, 12)}… took ${Math.round(performance.now() - start)} ms`);
    }
  });
  it('siblings do not add up', () => assert.deepEqual(problemsOf(`${parens(100)} and ${parens(100)}`), []));
  it('100,000 `(` do not exhaust the stack', () => {
    const text = '('.repeat(100_000);
    assert.deepEqual(problemsOf(text).sort(), ['expression-too-long error 4096..100000', 'nesting-too-deep error 128..129']);
  });
  it('deep nesting past the length limit', () => {
    assert.deepEqual(problemsOf(parens(50_000)).sort(), ['expression-too-long error 4096..100003', 'nesting-too-deep error 128..129']);
  });
  it('100,000 `!` and 100,000 `not`', () => {
    assert.ok(problemsOf('!'.repeat(100_000) + 'sip').includes('nesting-too-deep error 128..129'));
    assert.ok(problemsOf('not '.repeat(100_000) + 'sip').includes(`nesting-too-deep error ${128 * 4}..${128 * 4 + 3}`));
  });
});

describe('long input', () => {
  it('a syntax error after a 60,000-character token is found in linear time', () => {
    for (const [text, expected] of [
      [`${'a'.repeat(60_000)}1 == 2 == 3`, ['unknown-field', 'expression-too-long', 'syntax-error']],
      [`cf.colo.name == ${'a'.repeat(60_000)} x`, ['expression-too-long', 'syntax-error']],
    ] as const) {
      const start = performance.now();
      const codes = check(text).problems.map((p) => p.code);
      assert.deepEqual(codes, expected);
      assert.ok(performance.now() - start < 1500, `took ${Math.round(performance.now() - start)} ms`);
    }
  });
});

describe('empty expressions', () => {
  it('nothing', () => assert.deepEqual(check('').problems.map((p) => [p.code, p.severity]), [['empty-expression', 'error']]));
  it('only whitespace', () => assert.deepEqual(check(' \r\n ').problems.map((p) => [p.code, p.span]), [['empty-expression', { start: 0, end: 4 }]]));
});
