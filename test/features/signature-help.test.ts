/**
 * Signature help, with a cursor marker in JSON and every YAML style: the catalogue's signature
 * of the document's phase, each parameter's documentation, and the active parameter counted by
 * the commas before the cursor, also in a call that is not finished (and so does not parse),
 * inside another call, and across the line breaks of a block scalar.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent, SignatureHelp } from 'vscode-languageserver';

import { signatureHelp } from '../../server/src/features/signature-help';
import { catalogueFor, type FunctionInfo } from '../../server/src/language/catalogue/catalogues';
import { at, HOSTS, modelOf, settings } from './harness';

const BIT_SLICE = catalogueFor('magic_transit').functions.get('bit_slice')!;
const HTTP_PHASE = 'http_request_firewall_custom';
const HTTP = catalogueFor(HTTP_PHASE);

/** The signature's parameters as [name in the label, documentation]. */
function parametersOf(help: SignatureHelp): [string, string][] {
  const [signature] = help.signatures;
  return (signature.parameters ?? []).map((p) => {
    const [start, end] = p.label as [number, number];
    return [signature.label.slice(start, end), (p.documentation as MarkupContent).value];
  });
}

function assertSignature(help: SignatureHelp | null, fn: FunctionInfo, active: number, what: string): void {
  assert.ok(help, `signature help: ${what}`);
  assert.equal(help.activeSignature, 0);
  assert.equal(help.activeParameter, active, what);
  const [signature] = help.signatures;
  assert.equal(signature.label, fn.signature, what);
  assert.equal(signature.activeParameter, active, what);
  assert.ok((signature.documentation as MarkupContent).value.includes(fn.doc), what);
  assert.deepEqual(parametersOf(help), fn.parameters.map((p) => [p.name, p.doc]), what);
}

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
        assertSignature(signatureHelp(model, position, settings()), BIT_SLICE, active, expression);
      });
    }

    it(`${host}: no signature help outside a call`, () => {
      for (const expression of ['bit_slice|(udp, 64, 72) == 0x45', 'bit_slice(udp, 64, 72)| == 0x45', 'bit_slice(udp, 64, 72) == 0x4|5', '(sip or |tcp.flags.syn)', 'ip.src.country == "bit_slice(a, |"']) {
        const { model, position } = at(host, expression);
        assert.equal(signatureHelp(model, position, settings()), null, expression);
      }
    });
  }

  it('knows only the functions of the phase\'s catalogue', () => {
    const { model, position } = at('json', 'bit_slise(udp, |');
    assert.equal(signatureHelp(model, position, settings()), null);
    const other = at('json', 'lower(|');
    assert.equal(signatureHelp(other.model, other.position, settings()), null, 'lower is no function of magic_transit');
  });

  it('answers null outside expressions and outside rulesets', () => {
    const { model } = at('json', 'bit_slice(udp, 64|');
    assert.equal(signatureHelp(model, model.positionAt(model.text.indexOf('"name"') + 2), settings()), null);
    const text = '{ "x": "bit_slice(udp, 64" }';
    const plain = modelOf(text, 'json', 'file:///work/other.json');
    assert.equal(signatureHelp(plain, plain.positionAt(text.indexOf('64')), settings()), null);
  });
});

describe('signature help for every function of the HTTP phases', () => {
  const functions = [...HTTP.functions.values()].filter((fn) => !fn.quantifier);

  it('every function of the catalogue, every parameter: its name found in the signature, the active one by the commas', () => {
    assert.ok(functions.length >= 35, `${functions.length} functions`);
    for (const fn of functions) {
      for (let i = 0; i < fn.parameters.length; i++) {
        const commas = ', '.repeat(i);
        const expression = `${fn.name}(${commas}|`;
        const { model, position } = at('json', expression, { phase: HTTP_PHASE });
        const help = signatureHelp(model, position, settings());
        assertSignature(help, fn, i, expression);
        // Each parameter's label is its own name, at its own place: no two overlap.
        const ranges = help!.signatures[0].parameters!.map((p) => p.label as [number, number]);
        for (let k = 1; k < ranges.length; k++) assert.ok(ranges[k][0] >= ranges[k - 1][1], `${fn.name}: parameters in order`);
      }
    }
  });

  for (const host of HOSTS) {
    it(`${host}: nested calls: the innermost call at the cursor; a repeated parameter stays active`, () => {
      const phase = { phase: HTTP_PHASE };
      const lower = HTTP.functions.get('lower')!;
      const concat = HTTP.functions.get('concat')!;
      const startsWith = HTTP.functions.get('starts_with')!;
      let { model, position } = at(host, 'starts_with(lower(|', phase);
      assertSignature(signatureHelp(model, position, settings()), lower, 0, 'lower inside starts_with');
      ({ model, position } = at(host, 'starts_with(lower(http.host), |', phase));
      assertSignature(signatureHelp(model, position, settings()), startsWith, 1, 'back in starts_with');
      ({ model, position } = at(host, 'any(concat(http.request.headers.names[*], "a", "b", |) == "x")', phase));
      assertSignature(signatureHelp(model, position, settings()), concat, 1, 'the fourth argument of concat is `more`');
      ({ model, position } = at(host, 'starts_with(http.request.headers["a,b"][0], |', phase));
      assertSignature(signatureHelp(model, position, settings()), startsWith, 1, 'a comma inside a key is no separator');
    });
  }

  it('across line breaks: a call written over several lines of a YAML block scalar', () => {
    for (const indicator of ['|', '>']) {
      const text = `name: t\nkind: root\nphase: ${HTTP_PHASE}\nrules:\n  - action: block\n    expression: ${indicator}\n      starts_with(\n        lower(http.host),\n        "www."\n      )\n`;
      const model = modelOf(text, 'yaml');
      const offset = text.indexOf('"www."') + 2;
      assertSignature(signatureHelp(model, model.positionAt(offset), settings()), HTTP.functions.get('starts_with')!, 1, `${indicator} block`);
      const inner = text.indexOf('http.host');
      assertSignature(signatureHelp(model, model.positionAt(inner), settings()), HTTP.functions.get('lower')!, 0, `${indicator} block, inner call`);
    }
  });

  it('documentation: where the function may be used, and its plan', () => {
    const { model, position } = at('json', 'is_timed_hmac_valid_v0(|', { phase: HTTP_PHASE });
    const doc = (signatureHelp(model, position, settings())!.signatures[0].documentation as MarkupContent).value;
    assert.match(doc, /Usable in filter and value expressions\./);
    assert.match(doc, /Plan: Pro or above\./);
  });

  it('no signature help for any()/all(): they hold a test, not arguments', () => {
    const { model, position } = at('json', 'any(|', { phase: HTTP_PHASE });
    assert.equal(signatureHelp(model, position, settings()), null);
  });
});
