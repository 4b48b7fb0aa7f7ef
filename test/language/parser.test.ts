/**
 * The trees the parser builds for calls, quantifiers and index steps, the types it reads the
 * values after them by, and the value-expression entry point. (Verdicts and problems of the
 * same forms, as a user sees them, are table rows in expressions.test.ts; the fast parser is
 * held to Ohm in fast-parser.test.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { walkExpression, type Argument, type Comparison, type Expression, type Operand, type ValueType } from '../../server/src/language/ast';
import { FIELDS } from '../../server/src/language/catalogue/fields';
import { operandTypesOfFields } from '../../server/src/language/parse-semantics';
import { parseExpression, parseExpressionWithOhm, parseValueExpression, parseValueExpressionWithOhm, type ParseOptions } from '../../server/src/language/parser';

const UNKNOWN: ParseOptions = { fieldType: () => undefined };
const CATALOGUE: ParseOptions = { fieldType: (name) => FIELDS.get(name)?.type };

/** The tree of `text`, the same from the fast path and from Ohm. */
function tree(text: string, options: ParseOptions = UNKNOWN): Expression {
  const fast = parseExpression(text, options);
  assert.deepStrictEqual(fast, parseExpressionWithOhm(text, options));
  assert.ok(fast.ast, `${text} parses`);
  return fast.ast;
}

function comparison(text: string, options: ParseOptions = UNKNOWN): Comparison {
  const ast = tree(text, options);
  assert.equal(ast.kind, 'comparison');
  return ast as Comparison;
}

/** An S-expression of an argument or operand, literals by kind: what stands where. */
function shape(node: Argument): string {
  switch (node.kind) {
    case 'field':
      return node.name;
    case 'call':
      return `(${node.name.text} ${node.args.map(shape).join(' ')})`.replace(' )', ')');
    case 'index':
      return `${shape(node.target)}${node.steps.map((s) => (s.kind === 'key' ? `[${JSON.stringify(s.key)}]` : s.kind === 'element' ? `[${s.index}]` : '[*]')).join('')}`;
    case 'comparison':
      return node.operator ? `(${node.operator.text} ${shape(node.lhs)} ${node.rhs!.kind})` : shape(node.lhs);
    case 'quantifier':
      return `(${node.name.text} ${shape(node.argument)})`;
    case 'not':
      return `(not ${shape(node.operand)})`;
    case 'group':
      return `(group ${shape(node.inner)})`;
    case 'logical':
      return `(${node.operator} ${node.operands.map(shape).join(' ')})`;
    default:
      return node.kind;
  }
}

describe('parser: index steps', () => {
  it('a key, then an index: the nodes and their spans', () => {
    const { lhs } = comparison('http.request.headers["x-api-key"][0] == "a"');
    assert.deepEqual(lhs, {
      kind: 'index',
      span: { start: 0, end: 36 },
      target: { kind: 'field', span: { start: 0, end: 20 }, name: 'http.request.headers' },
      steps: [
        { kind: 'key', span: { start: 20, end: 33 }, key: 'x-api-key', keySpan: { start: 21, end: 32 } },
        { kind: 'element', span: { start: 33, end: 36 }, index: 0, indexSpan: { start: 34, end: 35 } },
      ],
    });
  });
  it('spaces inside the brackets are inside the step, not the key', () => {
    const { lhs } = comparison('x[ * ][\n"a"\n][ 0x1f ] == 1');
    assert.equal(lhs.kind, 'index');
    if (lhs.kind !== 'index') return;
    assert.deepEqual(
      lhs.steps.map((s) => [s.kind, s.span]),
      [
        ['each', { start: 1, end: 6 }],
        ['key', { start: 6, end: 13 }],
        ['element', { start: 13, end: 21 }],
      ],
    );
    assert.deepEqual(lhs.steps[2], { kind: 'element', span: { start: 13, end: 21 }, index: 31, indexSpan: { start: 15, end: 19 } });
  });
  it('a key is the string after its escapes, read as UTF-8', () => {
    const { lhs } = comparison('x["\\x41\\"\\xc3\\xa9"] == 1');
    assert.equal(lhs.kind === 'index' && lhs.steps[0].kind === 'key' && lhs.steps[0].key, 'A"é');
  });
  it('octal, hex and `-0` indexes, and one out of range kept as written', () => {
    const text = 'x[010][0xff][-0][4294967296] == 1';
    assert.equal(shape(comparison(text).lhs), 'x[8][255][0][4294967296]');
    assert.deepEqual(
      parseExpression(text, UNKNOWN).problems.map((p) => p.code),
      ['invalid-index'],
    );
  });
  it('after a call', () => {
    assert.equal(shape(comparison('split(http.host, ".", 3)[0] == "a"').lhs), '(split http.host string integer)[0]');
  });
});

describe('parser: calls and their arguments', () => {
  const args = (text: string) => {
    const { lhs } = comparison(text);
    assert.equal(lhs.kind, 'call');
    return lhs.kind === 'call' ? lhs.args.map(shape) : [];
  };
  it('calls in calls, and each kind of literal', () => {
    assert.deepEqual(args('f(lower(g(x)), "a", r#"b"#, 1, 1.2.3.4, aa:bb, fe80::1) == 1'), ['(lower (g x))', 'string', 'string', 'integer', 'ip', 'bytes', 'ip']);
  });
  it('as the reference reads a bare argument: an address, then an integer, then bytes', () => {
    // Eight pairs of hex digits are an address; bytes that start with a letter are bytes.
    assert.deepEqual(args('f(10:20:30:40:50:60:70:80, 1a-2b, c0:ff:ee) == 1'), ['ip', 'bytes', 'bytes']);
    // Text that starts with an integer is that integer, and what follows it is reported.
    const text = 'f(61:62, 1..5, 0x10) == 1';
    assert.deepEqual(args(text), ['integer', 'integer', 'integer']);
    assert.deepEqual(
      parseExpression(text, UNKNOWN).problems.map((p) => [p.code, text.slice(p.span.start, p.span.end), p.fixes?.[0]?.edits[0].newText]),
      [
        ['invalid-value', ':62', '"\\x61\\x62"'],
        ['invalid-value', '..5', undefined],
      ],
    );
  });
  it('an operand stands for itself; with a comparison after it, the comparison is the argument', () => {
    assert.deepEqual(args('f(x, x[0], x == 1, x[*] ~ "a", y in {1 2}) == 1'), ['x', 'x[0]', '(== x integer)', '(~ x[*] string)', '(in y set)']);
  });
  it('logical expressions led by `(`, `not`, `!` or a quantifier, all of them', () => {
    assert.deepEqual(args('f((a) and b, not c or d, !e, any(z[*]) xor y) == 1'), ['(and (group a) b)', '(or (not c) d)', '(not e)', '(xor (any z[*]) y)']);
  });
  it('no arguments', () => {
    assert.deepEqual(args('f() == 1'), []);
  });
  it('`contains` and `wildcard` before `(` are calls', () => {
    assert.equal(shape(tree('contains(http.host, "a")')), '(contains http.host string)');
  });
  it('the function name is a token with its span', () => {
    const { lhs } = comparison(' lower (x) == "a"');
    assert.deepEqual(lhs.kind === 'call' && [lhs.name, lhs.span], [{ text: 'lower', span: { start: 1, end: 6 } }, { start: 1, end: 10 }]);
  });
});

describe('parser: any() and all()', () => {
  it('a logical term with one argument', () => {
    const ast = tree('any (z[*] == 1) and all(y[*] != 1.2.3.4)');
    assert.equal(shape(ast), '(and (any (== z[*] integer)) (all (!= y[*] ip)))');
    assert.ok(ast.kind === 'logical' && ast.operands[0].kind === 'quantifier');
    if (ast.kind === 'logical' && ast.operands[0].kind === 'quantifier') {
      assert.deepEqual(ast.operands[0].name, { text: 'any', span: { start: 0, end: 3 } });
      assert.deepEqual(ast.operands[0].span, { start: 0, end: 15 });
    }
  });
  it('only before `(`: `any` alone is a field, `anyx(…)` a call', () => {
    assert.equal(shape(tree('any == 1 and anyx(1) == 1')), '(and (== any integer) (== (anyx integer) integer))');
  });
  it('walkExpression visits the expressions in quantifiers and in call arguments, parents first', () => {
    const kinds: string[] = [];
    walkExpression(tree('not any(not f(x == 1, (y)) and z)'), (node) => kinds.push(shape(node)));
    assert.deepEqual(kinds, [
      '(not (any (and (not (f (== x integer) (group y))) z)))',
      '(any (and (not (f (== x integer) (group y))) z))',
      '(and (not (f (== x integer) (group y))) z)',
      '(not (f (== x integer) (group y)))',
      '(f (== x integer) (group y))',
      '(== x integer)',
      '(group y)',
      'y',
      'z',
    ]);
  });
});

describe('parser: values are read by the type of the operand on their left', () => {
  const TEN_TWENTY = '10:20:30:40:50:60:70:80';
  const typed = (types: Record<string, ValueType>): ParseOptions => ({
    operandType: (operand: Operand) => types[operand.kind === 'field' ? operand.name : operand.kind === 'call' ? `${operand.name.text}()` : `${shape(operand)}`],
  });
  it('an index expression by the type its steps leave', () => {
    assert.equal(comparison(`x[0] == ${TEN_TWENTY}`, typed({ 'x[0]': 'Ip' })).rhs?.kind, 'ip');
    assert.equal(comparison(`x[0] == ${TEN_TWENTY}`, typed({ 'x[0]': 'Bytes' })).rhs?.kind, 'bytes');
  });
  it('a call by its result', () => {
    assert.equal(comparison(`lower(x) == ${TEN_TWENTY}`, typed({ 'lower()': 'Bytes' })).rhs?.kind, 'bytes');
    assert.equal(comparison(`f(x) == ${TEN_TWENTY}`, typed({ 'f()': 'Ip' })).rhs?.kind, 'ip');
  });
  it('by shape when the type is an array or a map, or unknown', () => {
    assert.equal(comparison(`x == ${TEN_TWENTY}`, typed({ x: 'Array<Ip>' })).rhs?.kind, 'bytes');
    assert.equal(comparison('x == 1', typed({})).rhs?.kind, 'integer');
  });
  it('also in the comparisons inside arguments and quantifiers', () => {
    const asked: string[] = [];
    const options: ParseOptions = {
      operandType: (operand) => {
        asked.push(shape(operand));
        return 'Ip';
      },
    };
    const text = `f(x == ${TEN_TWENTY}) == 1 and any(y[*] == ${TEN_TWENTY})`;
    tree(text, options);
    // Once per comparison from each parser (the fast path, then Ohm, in tree()).
    assert.deepEqual(asked.sort(), ['(f (== x ip))', '(f (== x ip))', 'x', 'x', 'y[*]', 'y[*]']);
  });
  it('with field types only, as the packet phases read: calls return Integer, index expressions follow their steps', () => {
    assert.equal(comparison('bit_slice(udp, 0, 8) == 0x45', CATALOGUE).rhs?.kind, 'integer');
    const fields: ParseOptions = { fieldType: (name) => (name === 'x' ? 'Map<Array<Ip>>' : undefined) };
    assert.equal(comparison(`x["a"][0] == ${TEN_TWENTY}`, fields).rhs?.kind, 'ip');
    // `[0]` of a map does not fit: no type, so the value is read by its shape.
    assert.equal(comparison(`x[0] == ${TEN_TWENTY}`, fields).rhs?.kind, 'bytes');
    const types = operandTypesOfFields((name) => (name === 'x' ? 'Map<Array<Ip>>' : undefined));
    const { lhs } = comparison('x[*][*] == 1');
    assert.equal(types(lhs), 'Ip');
  });
});

describe('parser: value expressions', () => {
  const value = (text: string) => {
    const fast = parseValueExpression(text, UNKNOWN);
    assert.deepStrictEqual(fast, parseValueExpressionWithOhm(text, UNKNOWN));
    return fast;
  };
  it('one field, call or index expression, with its span', () => {
    const { ast, problems } = value(' concat(http.host, "x")[0] ');
    assert.deepEqual(problems, []);
    assert.equal(ast && shape(ast), '(concat http.host string)[0]');
    assert.deepEqual(ast?.span, { start: 1, end: 26 });
  });
  it('nothing else', () => {
    for (const text of ['x == 1', 'not x', '(x)', '"a"', 'any(z)', 'x y']) {
      const { ast, problems } = value(text);
      assert.equal(ast, undefined, text);
      assert.deepEqual(
        problems.map((p) => p.code),
        ['syntax-error'],
        text,
      );
    }
  });
  it('in parentheses: the reference reads no group there (wirefilter: a field or a call), so the error says so and the fix removes them', () => {
    const removed = (text: string) => {
      const [p] = value(text).problems;
      const fix = p.fixes?.find((f) => f.title === 'Remove the parentheses');
      assert.ok(fix, `${text}: a fix among ${JSON.stringify(p.fixes)}`);
      let after = text;
      for (const e of [...fix.edits].sort((a, b) => b.span.start - a.span.start)) after = after.slice(0, e.span.start) + e.newText + after.slice(e.span.end);
      assert.deepEqual(value(after).problems, [], after);
      return { p, after };
    };
    const { p, after } = removed('(http.host)');
    assert.equal(p.code, 'syntax-error');
    assert.equal(p.severity, 'error');
    assert.deepEqual(p.span, { start: 0, end: 1 });
    assert.equal(p.message, 'expected a field name, found `(`; a value expression cannot be in parentheses: write `http.host`');
    assert.equal(after, 'http.host');
    assert.equal(removed(' (( lower(http.host) )) ').after, ' lower(http.host) ');
    assert.equal(removed('(concat("/a", http.request.uri.path))').after, 'concat("/a", http.request.uri.path)');
  });
  it('in parentheses around what is no value expression either: the same words, and no fix', () => {
    for (const text of ['(http.host eq "a")', '(x y)']) {
      const [p, ...others] = value(text).problems;
      assert.deepEqual(others, [], text);
      assert.deepEqual(p.span, { start: 0, end: 1 }, text);
      assert.match(p.message, /^expected a field name, found `\(`; a value expression cannot be in parentheses: it is one field, call or index expression, such as `lower\(http\.host\)`$/, text);
      assert.equal(p.fixes, undefined, text);
    }
    // A group that ends before the expression does: not the whole value in parentheses.
    assert.doesNotMatch(value('(x)[0]').problems[0].message, /cannot be in parentheses: write/);
  });
  it('empty, too long, with a TAB', () => {
    assert.match(value('  ').problems[0].message, /^expected a value expression/);
    assert.deepEqual(
      value(`concat(x,\t"${'a'.repeat(5000)}")`).problems.map((p) => p.code),
      ['expression-too-long', 'tab-whitespace'],
    );
  });
});
