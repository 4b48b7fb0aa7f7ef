/**
 * Signature help for `bit_slice(`, with a cursor marker in JSON and every YAML style: the
 * signature, each parameter's documentation, and the active parameter counted by the commas
 * before the cursor, also in a call that is not finished (and so does not parse).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver';

import { signatureHelp } from '../../server/src/features/signature-help';
import { FUNCTIONS } from '../../server/src/language/catalogue/functions';
import { at, HOSTS, modelOf, settings } from './harness';

const BIT_SLICE = FUNCTIONS.get('bit_slice')!;

const ACTIVE: readonly (readonly [string, number])[] = [
  ['bit_slice(|udp, 64, 72) == 0x45', 0],
  ['bit_slice(ud|p, 64, 72) == 0x45', 0],
  ['bit_slice(udp|, 64, 72) == 0x45', 0],
  ['bit_slice(udp,| 64, 72) == 0x45', 1],
  ['bit_slice(udp, 6|4, 72) == 0x45', 1],
  ['bit_slice(udp, 64, |72) == 0x45', 2],
  ['bit_slice(udp, 64, 72|) == 0x45', 2],
  // Unfinished calls do not parse; the commas still tell.
  ['bit_slice(|', 0],
  ['bit_slice(udp, 64|', 1],
  ['bit_slice(udp, 64, |', 2],
  ['sip and bit_slice(udp, |', 1],
  ['bit_slice("udp", |', 1],
  ['(bit_slice(tcp, 0, 1|6) == 53)', 2],
];

describe('signature help for bit_slice', () => {
  for (const host of HOSTS) {
    for (const [expression, active] of ACTIVE) {
      it(`${host}: ${expression} → parameter ${active}`, () => {
        const { model, position } = at(host, expression);
        const help = signatureHelp(model, position, settings());
        assert.ok(help, 'signature help');
        assert.equal(help.activeSignature, 0);
        assert.equal(help.activeParameter, active);
        const [signature] = help.signatures;
        assert.equal(signature.label, BIT_SLICE.signature);
        assert.equal(signature.activeParameter, active);
        assert.ok((signature.documentation as MarkupContent).value.includes(BIT_SLICE.doc));
        // Each parameter: its name in the label, and its documentation from the catalogue.
        assert.deepEqual(
          signature.parameters?.map((p) => {
            const [start, end] = p.label as [number, number];
            return [signature.label.slice(start, end), (p.documentation as MarkupContent).value];
          }),
          BIT_SLICE.parameters.map((p) => [p.name, p.doc]),
        );
      });
    }

    it(`${host}: no signature help outside a call`, () => {
      for (const expression of ['bit_slice|(udp, 64, 72) == 0x45', 'bit_slice(udp, 64, 72)| == 0x45', 'bit_slice(udp, 64, 72) == 0x4|5', '(sip or |tcp.flags.syn)', 'ip.src.country == "bit_slice(a, |"']) {
        const { model, position } = at(host, expression);
        assert.equal(signatureHelp(model, position, settings()), null, expression);
      }
    });
  }

  it('knows only the catalogue functions', () => {
    const { model, position } = at('json', 'bit_slise(udp, |');
    assert.equal(signatureHelp(model, position, settings()), null);
  });

  it('answers null outside expressions and outside rulesets', () => {
    const { model } = at('json', 'bit_slice(udp, 64|');
    assert.equal(signatureHelp(model, model.positionAt(model.text.indexOf('"name"') + 2), settings()), null);
    const text = '{ "x": "bit_slice(udp, 64" }';
    const plain = modelOf(text, 'json', 'file:///work/other.json');
    assert.equal(signatureHelp(plain, plain.positionAt(text.indexOf('64')), settings()), null);
  });
});
