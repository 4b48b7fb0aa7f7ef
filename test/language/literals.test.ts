/**
 * The in-place readers of the common bare values (readPlainBareValue, readPlainInteger in
 * server/src/language/literals.ts) against readBareValue, which reads every value: where the
 * in-place reader gives a literal, it is readBareValue's, and readBareValue reports no problem
 * on it. Values are generated near the edges the readers decide on (leading zeros, 255, 2⁵³,
 * `::`, host bits, prefix lengths), and read inside a longer text, as the parser reads them.
 *
 * LITERALS_RUNS sets the number of generated values per property (default 3,000).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import type { ScalarType, Span } from '../../server/src/language/ast';
import { readBareValue, readPlainBareValue, readPlainInteger } from '../../server/src/language/literals';

const RUNS = Number(process.env.LITERALS_RUNS ?? 3_000);

const digits = fc.stringMatching(/^-?(?:0|[1-9][0-9]{0,16}|0[0-9]{1,3})$/);
const part = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom('00', '01', '007', '255', '256', '', '1000'));
const ipv4 = fc.array(part, { minLength: 2, maxLength: 5 }).map((parts) => parts.join('.'));
const group = fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16)), fc.constantFrom('0', 'FFFF', 'db8', '00000', '1g', ''));
const ipv6 = fc.array(group, { minLength: 1, maxLength: 9 }).chain((groups) =>
  fc.integer({ min: -1, max: groups.length }).map((gap) => (gap < 0 ? groups.join(':') : `${groups.slice(0, gap).join(':')}::${groups.slice(gap).join(':')}`)),
);
const prefix = fc.oneof(fc.integer({ min: 0, max: 130 }).map(String), fc.constantFrom('', '08', '0032', 'x'));
const value = fc.oneof(
  digits,
  fc.tuple(digits, digits).map(([a, b]) => `${a}..${b}`),
  ipv4,
  fc.tuple(ipv4, prefix).map(([a, p]) => `${a}/${p}`),
  ipv6,
  fc.tuple(ipv6, prefix).map(([a, p]) => `${a}/${p}`),
  fc.constantFrom('10.20.30.40', '1.2.3.4..1.2.3.5', '80-90', '0x10', '1.5..3', '::', '::ffff:1.2.3.4', '10:20:30:40:50:60:70:80'),
);
const type = fc.constantFrom<ScalarType | undefined>('Integer', 'Ip', 'Bytes', 'Boolean', undefined);
const context = fc.constantFrom(['', ''], ['ip.src in {', ' 1.2.3.4}'], ['x == ', ' and y..z'], ['{1.2 ', '/8 ..}']);

describe('the in-place literal readers', () => {
  it('read what readBareValue reads, where they read anything', () => {
    fc.assert(
      fc.property(value, type, context, (text, scalar, [before, after]) => {
        const source = `${before}${text}${after}`;
        const span: Span = { start: before.length, end: before.length + text.length };
        const plain = readPlainBareValue(source, span, scalar);
        if (plain === undefined) return;
        assert.deepEqual(readBareValue(text, span, scalar), { literal: plain, problems: [] });
      }),
      { numRuns: RUNS },
    );
  });

  it('read an argument integer as a value of an unknown field', () => {
    fc.assert(
      fc.property(digits, (text) => {
        const span: Span = { start: 2, end: 2 + text.length };
        const plain = readPlainInteger(`f(${text})`, span);
        if (plain === undefined) return;
        assert.deepEqual(readBareValue(text, span, undefined), { literal: plain, problems: [] });
      }),
      { numRuns: RUNS },
    );
  });

  it('read the common values (not only leave them to readBareValue)', () => {
    const cases: [string, ScalarType | undefined][] = [
      ['8080', 'Integer'],
      ['-12', undefined],
      ['8000..8100', 'Integer'],
      ['192.0.2.1', 'Ip'],
      ['198.51.100.0/24', undefined],
      ['2001:db8::/32', 'Ip'],
      ['::/0', 'Ip'],
      ['1:2:3:4:5:6:7:8/128', 'Ip'],
    ];
    for (const [text, scalar] of cases) {
      const span: Span = { start: 0, end: text.length };
      assert.deepEqual(readPlainBareValue(text, span, scalar), readBareValue(text, span, scalar).literal, text);
    }
  });
});
