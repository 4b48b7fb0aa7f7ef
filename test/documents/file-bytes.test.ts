/**
 * A file's bytes as text (issue 35): the first byte that is not UTF-8, as the Encoding
 * Standard's decoder refuses it, found in one pass; a NUL byte is a binary file; each said with
 * its line and column and the fix.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { badBytesMessage, decodeFileBytes, firstInvalidUtf8 } from '../../server/src/documents/file-bytes';

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

describe('the first byte that is not UTF-8', () => {
  it('is found exactly where the strict decoder stops, for any bytes (overlongs, surrogates, past U+10FFFF, cut short)', () => {
    // Bytes biased to the ones that start or continue sequences, where the mistakes are.
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0x80, max: 0xbf }), fc.constantFrom(0xc0, 0xc1, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 12 }), (list) => {
        const bytes = Uint8Array.from(list);
        const at = firstInvalidUtf8(bytes);
        let valid = true;
        try {
          strictDecoder.decode(bytes);
        } catch {
          valid = false;
        }
        assert.equal(at < 0, valid);
        if (at >= 0) {
          // Everything before it is UTF-8, and it starts no well-formed sequence.
          strictDecoder.decode(bytes.subarray(0, at));
          for (let end = at + 1; end <= Math.min(bytes.length, at + 4); end++) assert.throws(() => strictDecoder.decode(bytes.subarray(at, end)));
        }
      }),
      { numRuns: 20_000 },
    );
  });

  it('says the file, the byte, its line and column (after a byte order mark, in characters) and the fix', () => {
    const bytes = Buffer.concat([Buffer.from('\uFEFFphase: magic_transit\r\nrules: [] # ü '), Buffer.from([0xe2, 0x28, 0xa1])]);
    const decoded = decodeFileBytes(bytes);
    assert.equal(decoded.bom, true);
    assert.ok(decoded.text.startsWith('phase'));
    assert.deepEqual({ ...decoded.bad, message: badBytesMessage('zone.yaml', decoded.bad!) }, {
      offset: 40,
      bytes: [0xe2],
      nul: false,
      binary: false,
      line: 2,
      column: 15,
      textOffset: decoded.text.indexOf('\uFFFD'),
      message: 'zone.yaml: byte 40 (line 2, column 15) is not UTF-8 (0xE2); save the file as UTF-8 (the API reads rulesets as UTF-8, and a byte that is not would be sent as U+FFFD)',
    });
  });

  it('takes a NUL byte for a binary file, and text in UTF-8 (a BOM, any script) for text', () => {
    assert.deepEqual(decodeFileBytes(Buffer.from('{"a": 1}\u0000')).bad?.nul, true);
    assert.deepEqual(decodeFileBytes(Buffer.from('\uFEFFname: "日本語 ✓ 😀"\n')), { text: 'name: "日本語 ✓ 😀"\n', bom: true });
  });
});
