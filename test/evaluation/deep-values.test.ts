/**
 * Packets and lists as `--packet JSON` gives them (JSON.parse reads any depth): a value nested
 * thousands of levels deep is a PacketError that shows the start of what was found, not a
 * RangeError from printing all of it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PacketError, parseLists, parsePacket } from '../../server/src/evaluation/packet';

const deep = (n: number) => JSON.parse('['.repeat(n) + '1' + ']'.repeat(n)) as unknown;

describe('packets and lists nested 7,000 and 100,000 levels deep', () => {
  for (const n of [7_000, 100_000]) {
    it(`${n} levels: a PacketError showing the first characters`, () => {
      for (const [read, value] of [
        [parsePacket, deep(n)],
        [parsePacket, { 'tcp.dstport': deep(n) }],
        [parsePacket, { 'ip.src': { a: deep(n) } }],
        [parsePacket, { $lists: deep(n) }],
        [parseLists, deep(n)],
        [parseLists, { office: [deep(n)] }],
      ] as const) {
        assert.throws(
          () => read(value),
          (error: unknown) => error instanceof PacketError && /found `[[{].{0,60}`$/.test(error.message) && error.message.length < 300,
        );
      }
    });
  }

  it('shows a short value whole, and cuts a long one after 60 characters, as before', () => {
    assert.throws(() => parsePacket({ 'tcp.dstport': [1, 'a', null, { b: true }] }), /found `\[1,"a",null,\{"b":true\}\]`$/);
    assert.throws(() => parsePacket({ 'tcp.dstport': 'x'.repeat(100) }), new RegExp(`found \`"${'x'.repeat(56)}\\.\\.\\.\`$`));
    assert.throws(() => parsePacket({ 'tcp.dstport': { big: 10n } }), /found `\{"big":"10"\}`$/);
  });
});
