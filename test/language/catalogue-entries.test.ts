import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { CATALOGUE_SOURCES, catalogueFor, DOCUMENTED_PHASES, OPERATOR_PLANS, phaseFamily, PLANS, type PhaseFamily } from '../../server/src/language/catalogue/catalogues';
import { elementType, isScalarType } from '../../server/src/language/types';

const FAMILIES: readonly [PhaseFamily, string][] = [
  ['magic', 'magic_transit'],
  ['http', 'http_request_firewall_custom'],
];

const oneLine = (text: string) => text.length > 0 && text === text.trim() && !text.includes('\n');

describe('the generated catalogue: fields', () => {
  for (const [family, phase] of FAMILIES) {
    const { fields } = catalogueFor(phase);

    it(`${family}: every field has a group, a one-line doc and an example that uses it`, () => {
      for (const field of fields.values()) {
        assert.ok(oneLine(field.doc), field.name);
        assert.ok(oneLine(field.example), field.name);
        assert.ok(field.example.includes(field.name), `${field.name}: ${field.example}`);
        assert.ok(field.group.length > 0, field.name);
      }
    });

    it(`${family}: plans, replacements, availability, ranges and value sets are well formed`, () => {
      for (const field of fields.values()) {
        if (field.plan !== undefined) assert.ok(PLANS.includes(field.plan), `${field.name}: ${field.plan}`);
        for (const replacement of field.deprecated?.replacements ?? []) {
          const target = fields.get(replacement);
          assert.ok(target, `${field.name} -> ${replacement}`);
          assert.equal(target.deprecated, undefined, `${field.name} -> ${replacement} is itself deprecated`);
          assert.equal(target.type, field.type, `${field.name} -> ${replacement}`);
        }
        if (field.only) {
          assert.ok(field.only.why.length > 0, field.name);
          for (const p of field.only.phases ?? []) assert.equal(phaseFamily(p), family, `${field.name}: ${p}`);
        }
        if (field.range) {
          assert.ok(field.range[0] <= field.range[1], field.name);
          const scalar = isScalarType(field.type) ? field.type : elementType(field.type);
          assert.equal(scalar, 'Integer', `${field.name} has a range but holds ${field.type}`);
        }
        assert.equal(field.oneOf !== undefined, field.values === 'one-of' || field.values === 'continent', field.name);
      }
    });
  }

  it('marks the geoip names deprecated, for their ip.src replacement in the HTTP phases', () => {
    const http = catalogueFor('http_request_firewall_custom').fields;
    for (const suffix of ['asnum', 'continent', 'country', 'subdivision_1_iso_code', 'subdivision_2_iso_code', 'is_in_european_union']) {
      assert.deepEqual(http.get(`ip.geoip.${suffix}`)?.deprecated, { replacements: [`ip.src.${suffix}`] }, suffix);
      assert.equal(http.get(`ip.geoip.${suffix}`)?.plan, http.get(`ip.src.${suffix}`)?.plan, suffix);
    }
  });

  it('keeps what the docs say of the fields that checks need', () => {
    const http = catalogueFor('http_request_firewall_custom').fields;
    assert.equal(http.get('http.request.method')?.values, 'method');
    assert.equal(http.get('http.request.uri.path.extension')?.values, 'lowercase');
    assert.equal(http.get('raw.http.request.uri.path.extension')?.values, undefined);
    assert.equal(http.get('ip.src.country')?.values, 'country');
    assert.deepEqual(http.get('cf.bot_management.score')?.range, [1n, 99n]);
    assert.equal(http.get('cf.bot_management.score')?.plan, 'enterprise');
    assert.equal(http.get('http.request.cookies')?.plan, 'pro');
    assert.equal(http.get('http.request.body.raw')?.plan, 'enterprise');
    assert.equal(http.get('http.host')?.plan, undefined);
    assert.equal(http.get('http.request.headers')?.keys, 'lowercase');
    assert.deepEqual(http.get('http.response.code')?.only?.phases, DOCUMENTED_PHASES.response);
    assert.deepEqual(http.get('cf.response.error_type')?.only?.phases, ['http_response_headers_transform', 'http_custom_errors']);
    assert.equal(http.get('ip.src.timezone.name')?.only?.expressions, 'value');
    assert.equal(http.get('http.request.uri.path')?.inEngine, true);
    assert.equal(http.get('cf.schema_validation.learned.violated')?.inEngine, false);
    const magic = catalogueFor('magic_transit').fields;
    assert.deepEqual(magic.get('tcp.dstport')?.range, [0n, 65535n]);
    assert.equal(magic.get('tcp.dstport')?.values, 'port');
    assert.equal(magic.get('ip.geoip.country')?.inEngine, false);
  });
});

describe('the generated catalogue: functions', () => {
  for (const [family, phase] of FAMILIES) {
    const { functions } = catalogueFor(phase);

    it(`${family}: every function has a signature, a doc, an example that calls it, and named parameters`, () => {
      for (const fn of functions.values()) {
        assert.ok(fn.signature.startsWith(`${fn.name}(`), fn.name);
        assert.ok(oneLine(fn.doc), fn.name);
        assert.ok(oneLine(fn.example) && fn.example.includes(`${fn.name}(`), `${fn.name}: ${fn.example}`);
        for (const p of fn.parameters) {
          assert.ok(/^[a-z][a-z0-9_]*$/.test(p.name) && oneLine(p.doc), `${fn.name}: ${p.name}`);
          assert.ok(p.types.length > 0, `${fn.name}: ${p.name}`);
        }
      }
    });

    it(`${family}: arity, optional and repeating parameters agree`, () => {
      for (const fn of functions.values()) {
        const last = fn.parameters.length - 1;
        fn.parameters.forEach((p, i) => {
          assert.equal(p.optional ?? false, i >= fn.minArgs, `${fn.name}: ${p.name} optional`);
          assert.equal(p.repeats ?? false, fn.maxArgs === undefined && i === last, `${fn.name}: ${p.name} repeats`);
          if (p.range) assert.ok(p.range[0] <= p.range[1] && p.types.includes('Integer'), `${fn.name}: ${p.name}`);
        });
        if (fn.maxArgs !== undefined) assert.equal(fn.maxArgs, fn.parameters.length, fn.name);
        assert.ok(fn.minArgs <= fn.parameters.length, fn.name);
        if (fn.result === 'first-argument') assert.ok(fn.parameters.every((p) => p.types.join() === fn.parameters[0].types.join()), fn.name);
      }
    });

    it(`${family}: plans, phases and expression kinds are well formed`, () => {
      for (const fn of functions.values()) {
        if (fn.plan !== undefined) assert.ok(PLANS.includes(fn.plan), fn.name);
        assert.ok(fn.expressions.length > 0 && fn.expressions.every((e) => e === 'filter' || e === 'value'), fn.name);
        for (const p of fn.phases ?? []) assert.notEqual(phaseFamily(p), undefined, `${fn.name}: ${p}`);
      }
    });
  }

  it('keeps what the docs say of the functions that checks need', () => {
    const http = catalogueFor('http_request_firewall_custom').functions;
    assert.deepEqual(http.get('regex_replace')?.expressions, ['value']);
    assert.equal(http.get('regex_replace')?.oncePerExpression, true);
    assert.deepEqual(http.get('cidr')?.phases, ['http_request_firewall_custom', 'http_ratelimit']);
    assert.deepEqual(http.get('cidr')?.parameters[1].range, [1n, 32n]);
    assert.equal(http.get('is_timed_hmac_valid_v0')?.plan, 'pro');
    assert.equal(http.get('concat')?.result, 'first-argument');
    assert.equal(http.get('concat')?.maxArgs, undefined);
    assert.equal(http.get('lower')?.parameters[0].kind, 'field');
    assert.equal(http.get('bit_slice')?.phases?.every((p) => phaseFamily(p) === 'magic'), true);
  });
});

describe('the generated catalogue: sources', () => {
  it('records the pinned engine and a commit for every docs file', () => {
    assert.equal(CATALOGUE_SOURCES.engine.package, 'octorules-wirefilter');
    assert.equal(CATALOGUE_SOURCES.engine.version, '0.7.0');
    assert.match(CATALOGUE_SOURCES.engine.wirefilter.commit, /^[0-9a-f]{40}$/);
    assert.ok(CATALOGUE_SOURCES.docs.files.length > 0);
    for (const file of CATALOGUE_SOURCES.docs.files) assert.match(file.commit, /^[0-9a-f]{40}$/, file.path);
  });

  it('knows that matches needs a Business plan', () => {
    assert.equal(OPERATOR_PLANS.matches, 'business');
  });
});
