import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { catalogueFor, DOCUMENTED_PHASES, MAGIC_PHASES, phaseFamily } from '../../server/src/language/catalogue/catalogues';
import { FIELDS } from '../../server/src/language/catalogue/fields';
import { FUNCTIONS } from '../../server/src/language/catalogue/functions';
import { KNOWN_PHASES } from '../../server/src/language/catalogue/phases';

/** The magic_transit table as it was before the catalogue was generated (LANGUAGE.md §5). */
const MAGIC_TRANSIT_FIELDS = [
  'ip.src', 'ip.dst', 'ip.src.country', 'ip.dst.country', 'ip.geoip.country', 'ip.src.asnum', 'ip.dst.asnum', 'ip.proto',
  'ip.len', 'ip.hdr_len', 'ip.ttl', 'ip.opt.type', 'tcp.srcport', 'tcp.dstport', 'udp.srcport', 'udp.dstport', 'tcp.flags',
  'tcp.flags.ack', 'tcp.flags.cwr', 'tcp.flags.ecn', 'tcp.flags.fin', 'tcp.flags.push', 'tcp.flags.reset', 'tcp.flags.syn',
  'tcp.flags.urg', 'icmp.type', 'icmp.code', 'sip', 'cf.colo.name', 'cf.colo.region', 'ip', 'tcp', 'udp', 'icmp',
];

describe('phaseFamily', () => {
  it('puts the packet phases in the magic family', () => {
    for (const phase of ['magic_transit', 'magic_transit_managed', 'magic_transit_ids_managed', 'magic_transit_ratelimit', 'ddos_l4']) assert.equal(phaseFamily(phase), 'magic', phase);
  });

  it('puts ddos_l7 and every http_* phase, known or not, in the http family', () => {
    for (const phase of ['ddos_l7', 'http_request_firewall_custom', 'http_response_headers_transform', 'http_request_snippets', 'http_something_new']) assert.equal(phaseFamily(phase), 'http', phase);
  });

  it('knows no family for other phases, or for none', () => {
    for (const phase of [undefined, '', 'magic', 'ddos_l3', 'HTTP_REQUEST_FIREWALL_CUSTOM', 'http', 'xhttp_request']) assert.equal(phaseFamily(phase), undefined, String(phase));
  });

  it('gives a family to every phase we know and every phase the docs list, and the packet phases are the docs’ network phases', () => {
    for (const phase of [...KNOWN_PHASES, ...DOCUMENTED_PHASES.request, ...DOCUMENTED_PHASES.response]) assert.notEqual(phaseFamily(phase), undefined, phase);
    assert.deepEqual([...MAGIC_PHASES].sort(), [...DOCUMENTED_PHASES.network].sort());
    for (const phase of [...DOCUMENTED_PHASES.request, ...DOCUMENTED_PHASES.response]) assert.equal(phaseFamily(phase), 'http', phase);
  });
});

describe('catalogueFor', () => {
  it('gives one complete catalogue per family, the same object for each of its phases', () => {
    const magic = catalogueFor('magic_transit');
    assert.equal(magic.family, 'magic');
    assert.equal(magic.complete, true);
    for (const phase of MAGIC_PHASES) assert.equal(catalogueFor(phase), magic, phase);
    const http = catalogueFor('http_request_firewall_custom');
    assert.equal(http.family, 'http');
    assert.equal(http.complete, true);
    for (const phase of ['ddos_l7', 'http_ratelimit', 'http_request_transform', 'http_custom_errors']) assert.equal(catalogueFor(phase), http, phase);
    assert.notEqual(magic, http);
  });

  it('keeps the magic family exactly the magic_transit table of before: the same fields, and bit_slice only', () => {
    const magic = catalogueFor('magic_transit');
    assert.deepEqual([...magic.fields.keys()], MAGIC_TRANSIT_FIELDS);
    assert.deepEqual([...FIELDS.keys()], MAGIC_TRANSIT_FIELDS);
    for (const [name, field] of FIELDS) assert.equal(magic.fields.get(name), field, name);
    assert.deepEqual([...magic.functions.keys()], ['bit_slice']);
    assert.deepEqual([...FUNCTIONS.keys()], ['bit_slice']);
    assert.deepEqual(magic.fields.get('ip.geoip.country')?.deprecated, { replacements: ['ip.src.country', 'ip.dst.country'] });
  });

  it('gives the HTTP phases the request and response fields and every function, and no packet field', () => {
    const http = catalogueFor('http_request_firewall_custom');
    for (const name of ['http.host', 'http.request.uri.path', 'http.request.headers', 'http.response.code', 'cf.zone.plan', 'ip.geoip.country']) assert.ok(http.fields.has(name), name);
    for (const name of ['tcp.flags', 'ip.proto', 'ip.dst', 'sip', 'udp']) assert.ok(!http.fields.has(name), name);
    for (const name of ['lower', 'concat', 'regex_replace', 'bit_slice', 'any', 'all']) assert.ok(http.functions.has(name), name);
    assert.equal(http.functions.get('any')?.quantifier, true);
    assert.equal(http.fields.get('http.request.headers')?.type, 'Map<Array<Bytes>>');
  });

  it('gives an unknown phase, or none, an incomplete union of both families', () => {
    for (const phase of [undefined, 'some_new_phase']) {
      const union = catalogueFor(phase);
      assert.equal(union.family, undefined);
      assert.equal(union.complete, false);
      assert.ok(union.fields.has('http.host') && union.fields.has('tcp.flags') && union.fields.has('ip.src'));
      assert.ok(union.functions.has('lower') && union.functions.has('bit_slice'));
    }
    assert.equal(catalogueFor(undefined), catalogueFor('some_new_phase'));
  });

  it('leaves out of the union only names whose families disagree on the type, and prefers the HTTP entry', () => {
    const union = catalogueFor(undefined);
    const magic = catalogueFor('magic_transit');
    const http = catalogueFor('http_request_firewall_custom');
    for (const name of new Set([...magic.fields.keys(), ...http.fields.keys()])) {
      const types = new Set([magic.fields.get(name)?.type, http.fields.get(name)?.type].filter((t) => t !== undefined));
      assert.equal(union.fields.has(name), types.size === 1, name);
      if (union.fields.has(name)) assert.equal(union.fields.get(name), http.fields.get(name) ?? magic.fields.get(name), name);
    }
    assert.equal(union.fields.get('ip.geoip.country'), http.fields.get('ip.geoip.country'));
    assert.equal(union.fields.size, new Set([...magic.fields.keys(), ...http.fields.keys()]).size);
  });
});
