/**
 * The regex validator against the reference engine: each row is a pattern after `matches`,
 * with what wirefilter 0.7 (octorules-wirefilter, its Rust `regex` crate) says of it: valid,
 * or its message and the characters its caret marks (an empty span is marked as the one
 * character at its position). Taken from the engine, not from our output.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { checkRegex, regexError, regexFromQuoted } from '../../server/src/language/regex';
import { scanTokens } from '../../server/src/language/lex';
import { checkExpression } from '../../server/src/language/checker';

type Row = [pattern: string] | [pattern: string, message: string, start: number, end: number];

const ROWS: readonly Row[] = [
  [String.raw`^sfo\d+$`],
  [String.raw`((`, "unclosed group", 1, 2],
  [String.raw`a)`, "unopened group", 1, 2],
  [String.raw`a{2,1}`, "invalid repetition count range, the start must be <= the end", 1, 6],
  [String.raw`a{,5}`, "repetition quantifier expects a valid decimal", 2, 3],
  [String.raw`a{5`, "unclosed counted repetition", 1, 3],
  [String.raw`a{ 1 , 2 }`],
  [String.raw`a{4294967296}`, "decimal literal invalid", 2, 12],
  [String.raw`\101`, "backreferences are not supported", 0, 2],
  [String.raw`\0`, "backreferences are not supported", 0, 2],
  [String.raw`\8`, "backreferences are not supported", 0, 2],
  [String.raw`\e`, "unrecognized escape sequence", 0, 2],
  [String.raw`\Z`, "unrecognized escape sequence", 0, 2],
  [String.raw`\z`],
  ['\\', "incomplete escape sequence, reached end of pattern prematurely", 0, 1],
  [String.raw`\x`, "incomplete escape sequence, reached end of pattern prematurely", 2, 3],
  [String.raw`\xZ1`, "invalid hexadecimal digit", 2, 3],
  [String.raw`\x{}`, "hexadecimal literal empty", 2, 4],
  [String.raw`\x{110000}`, "hexadecimal literal is not a Unicode scalar value", 3, 9],
  [String.raw`\u{41}`],
  [String.raw`\pL`, "Unicode not allowed here", 0, 3],
  [String.raw`(?u)\pL`],
  [String.raw`\p{`, "incomplete escape sequence, reached end of pattern prematurely", 3, 4],
  [String.raw`[é]`, "Unicode not allowed here", 1, 2],
  [String.raw`(?i)é`],
  [String.raw`[a-é]`, "Unicode not allowed here", 3, 4],
  [String.raw`[\xFF]`],
  [String.raw`[\x{FF}]`, "Unicode not allowed here", 1, 7],
  [String.raw`[\x{0}-\x{7F}]`],
  [String.raw`[z-a]`, "invalid character class range, the start must be <= the end", 1, 4],
  [String.raw`[a-\d]`, "invalid range boundary, must be a literal", 3, 5],
  [String.raw`[\b]`, "invalid escape sequence found in character class", 1, 3],
  [String.raw`[]`, "unclosed character class", 0, 2],
  [String.raw`[^]`, "unclosed character class", 0, 3],
  [String.raw`[]a]`],
  [String.raw`[a`, "unclosed character class", 0, 1],
  [String.raw`[[:alpha:]]`],
  [String.raw`[[:foo:]]`],
  [String.raw`[a&&b]`],
  [String.raw`[a--b]`],
  [String.raw`[a~~b]`],
  [String.raw`\b{start}`],
  [String.raw`\b{foo}`, "unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half", 3, 6],
  [String.raw`\b{start`, "special word boundary assertion is either unclosed or contains an invalid character", 2, 8],
  [String.raw`\b{2}`],
  [String.raw`\<a\>`],
  [String.raw`*a`, "repetition operator missing expression", 0, 1],
  [String.raw`a|*b`, "repetition operator missing expression", 2, 3],
  [String.raw`(?)`, "repetition operator missing expression", 1, 2],
  [String.raw`(?i)*`, "repetition operator missing expression", 4, 5],
  [String.raw`(?i`, "expected flag but got end of regex", 3, 4],
  [String.raw`(?z)`, "unrecognized flag", 2, 3],
  [String.raw`(?i-)`, "dangling flag negation operator", 3, 4],
  [String.raw`(?--i)`, "flag negation operator repeated", 3, 4],
  [String.raw`(?ii)`, "duplicate flag", 3, 4],
  [String.raw`(?P<>a)`, "empty capture group name", 4, 5],
  [String.raw`(?P<1a>a)`, "invalid capture group character", 4, 5],
  [String.raw`(?P<a`, "unclosed capture group name", 5, 6],
  [String.raw`(?P<a>a)(?<a>b)`, "duplicate capture group name", 11, 12],
  [String.raw`(?=a)`, "look-around, including look-ahead and look-behind, is not supported", 0, 3],
  [String.raw`(?<!a)`, "look-around, including look-ahead and look-behind, is not supported", 0, 4],
  [String.raw`a**`],
  [String.raw`a++`],
  [String.raw`(?x) a # c`],
  [String.raw`\/`],
  [String.raw`\"`],
  [String.raw`\pL\1`, "backreferences are not supported", 3, 5],
  [String.raw`(\pL`, "unclosed group", 0, 1],
];

describe('regex validity and error spans as the reference reports them', () => {
  for (const [pattern, message, start, end] of ROWS) {
    it(`${pattern} → ${message ?? 'valid'}`, () => {
      const result = checkRegex(pattern);
      if (message === undefined) {
        assert.ok(result.ok, result.ok ? '' : result.error.message);
        return;
      }
      assert.ok(!result.ok, 'expected an error');
      assert.equal(result.error.message, message);
      assert.deepEqual([result.error.start, Math.max(result.error.end, result.error.start + 1)], [start, end]);
    });
  }
  it('regexError, which does not translate, finds the same error as checkRegex for every row', () => {
    for (const [pattern] of ROWS) {
      const result = checkRegex(pattern);
      assert.deepEqual(regexError(pattern), result.ok ? undefined : result.error, pattern);
    }
  });
  it('regexError takes patterns of literals and plain groups without a parse only where the parse takes them', () => {
    const plain = ['^/wp-(admin|login)/', '()', '(|a)b|', '((a)(b))$', 'é(.)]}', ')(', '(a', 'a)b(', `${'('.repeat(101)}${')'.repeat(101)}`, `${'('.repeat(251)}${')'.repeat(251)}`];
    for (const pattern of plain) {
      const result = checkRegex(pattern);
      assert.deepEqual(regexError(pattern), result.ok ? undefined : result.error, pattern);
    }
  });
});

describe('the regex source of a quoted pattern (wirefilter lex_regex_from_literal)', () => {
  it('keeps every backslash but the one of `\\"` outside a class', () => {
    assert.equal(regexFromQuoted(String.raw`\d\"[\"]\\`).source, String.raw`\d"[\"]\\`);
  });
  it('maps each character of the source back to the body', () => {
    assert.deepEqual(regexFromQuoted(String.raw`a\"(`).offsets, [0, 2, 3, 4]);
  });
});

describe('a quote inside a class of a `matches` pattern', () => {
  it('is one string token, as the reference lexes it', () => {
    const strings = scanTokens('cf.colo.name matches "[^"]+" and cf.colo.name == "a[b"').filter((t) => t.kind === 'string');
    assert.deepEqual(strings.map((t) => t.text), ['"[^"]+"', '"a[b"']);
  });
  it('holds a TAB as content, not as a TAB between tokens', () => {
    assert.deepEqual(checkExpression('cf.colo.name matches "[^"\t]"', { phase: 'magic_transit' }).problems, []);
  });
});
