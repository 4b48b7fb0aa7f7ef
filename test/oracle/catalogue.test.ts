/**
 * The catalogue (server/src/language/catalogue/generated/, read through catalogueFor) against the
 * reference engine, for both of its schemes: the packet phases against `magic_firewall`, the HTTP
 * phases against the default scheme. Every field and function the engine has is in the family's
 * catalogue with the engine's type and signature, and everything the catalogue has the engine
 * lacks or takes differently is a decided difference (scripts/catalogue/overlay.ts, docs/engine.md's
 * table). The generated files are what the generator writes from the pinned engine today.
 *
 * Skips with one line when the engine is not installed, and fails then when CI=true or
 * ORACLE_REQUIRED=1 (see engine.ts and .ci/run).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  Engine,
  engineType,
  PROBE_LIMIT,
  probeFunctions,
  probeQuantifiers,
  probeTypes,
  type EngineScheme,
  type ProbedFunction,
} from '../../scripts/catalogue/engine';
import { generateCatalogue } from '../../scripts/catalogue/fields-generate';
import { DECIDED_DIFFERENCES } from '../../scripts/catalogue/overlay';
import { catalogueFor, phaseFamily, type Catalogue, type FunctionInfo, type PhaseFamily } from '../../server/src/language/catalogue/catalogues';
import type { ValueType } from '../../server/src/language/ast';
import { missingOracle } from './engine';

const FAMILIES: readonly { readonly family: PhaseFamily; readonly phase: string; readonly scheme: EngineScheme }[] = [
  { family: 'magic', phase: 'magic_transit', scheme: 'magic' },
  { family: 'http', phase: 'http_request_firewall_custom', scheme: 'http' },
];

const sorted = (types: readonly ValueType[]) => [...types].sort().join(' | ');

/** The catalogue's parameter that stands at argument `position` (a repeating one stands for the rest). */
function parameterAt(fn: FunctionInfo, position: number): number {
  return Math.min(position, fn.parameters.length - 1);
}

/** How a catalogue function differs from what the engine accepts, one aspect a line. */
function functionAspects(fn: FunctionInfo, probed: ProbedFunction): string[] {
  const aspects = new Set<string>();
  if (fn.minArgs !== probed.minArgs) aspects.add('minArgs');
  if (fn.maxArgs !== probed.maxArgs) aspects.add('maxArgs');
  if (fn.result !== probed.result) aspects.add('result');
  const positions = Math.min(fn.maxArgs ?? PROBE_LIMIT, probed.maxArgs ?? PROBE_LIMIT);
  for (let position = 0; position < positions; position++) {
    const ours = fn.parameters[parameterAt(fn, position)];
    const theirs = probed.parameters[Math.min(position, probed.parameters.length - 1)];
    if (ours.kind !== theirs.kind) aspects.add(`parameter ${parameterAt(fn, position)} kind`);
    if (sorted(ours.types) !== sorted(theirs.types)) aspects.add(`parameter ${parameterAt(fn, position)} types`);
  }
  return [...aspects].map((aspect) => `function ${fn.name}: ${aspect}`);
}

/** Every difference between a family's catalogue and the engine's scheme. */
async function differences(engine: Engine, catalogue: Catalogue, scheme: EngineScheme): Promise<string[]> {
  const found: string[] = [];
  const schema = await engine.schema(scheme);
  const listed = schema.fields.map((f) => ({ name: f.name, type: engineType(f.type) }));
  for (const field of listed) {
    const ours = catalogue.fields.get(field.name);
    if (!ours) found.push(`field ${field.name}: missing`);
    else if (ours.type !== field.type) found.push(`field ${field.name}: type`);
  }
  // The names the engine does not list: asked one by one, as the generator does.
  const unlisted = [...catalogue.fields.values()].filter((f) => !listed.some((l) => l.name === f.name));
  const types = await probeTypes(engine, scheme, unlisted.map((f) => f.name));
  unlisted.forEach((field, i) => {
    if (types[i] === undefined) found.push(`field ${field.name}: not in the engine`);
    else if (types[i] !== field.type) found.push(`field ${field.name}: type`);
    if (field.inEngine !== (types[i] !== undefined)) found.push(`field ${field.name}: inEngine says ${field.inEngine}`);
  });
  for (const field of catalogue.fields.values()) if (!field.inEngine && listed.some((l) => l.name === field.name)) found.push(`field ${field.name}: inEngine says false`);

  for (const name of schema.functions) if (!catalogue.functions.has(name)) found.push(`function ${name}: missing`);
  const ours = [...catalogue.functions.values()];
  for (const fn of ours) if (!schema.functions.includes(fn.name)) found.push(`function ${fn.name}: not in the engine`);
  const known = ours.filter((fn) => schema.functions.includes(fn.name));
  const quantifiers = await probeQuantifiers(engine, scheme, known.map((fn) => fn.name), listed);
  for (const fn of known) if ((fn.quantifier ?? false) !== quantifiers.includes(fn.name)) found.push(`function ${fn.name}: quantifier`);
  const probed = await probeFunctions(engine, scheme, known.filter((fn) => !fn.quantifier).map((fn) => fn.name), listed);
  for (const p of probed) found.push(...functionAspects(catalogue.functions.get(p.name)!, p));
  return found.sort();
}

describe('the catalogue against the reference engine (both schemes)', () => {
  let engine: Engine | undefined;
  let missing = 'not started';

  before(async () => {
    const started = await Engine.start();
    if ('engine' in started) engine = started.engine;
    else missing = started.missing;
  });
  after(() => engine?.close());

  for (const { family, phase, scheme } of FAMILIES) {
    it(`${family}: every field and function of the engine's ${scheme} scheme, with its type and signature, and no difference that is not decided`, async (t) => {
      if (!engine) return missingOracle(missing, (m) => t.skip(m));
      const catalogue = catalogueFor(phase);
      assert.equal(catalogue.family, family);
      const found = await differences(engine, catalogue, scheme);
      const decided = DECIDED_DIFFERENCES.filter((d) => d.family === family).flatMap((d) => d.aspects);
      assert.deepEqual(found.filter((aspect) => !decided.includes(aspect)), [], 'differences from the engine that DECIDED_DIFFERENCES (scripts/catalogue/overlay.ts) does not name');
      assert.deepEqual(decided.filter((aspect) => !found.includes(aspect)).sort(), [], 'DECIDED_DIFFERENCES rows whose difference is gone: remove them');
    });

    it(`${family}: the engine accepts every example, except those of a decided difference`, async (t) => {
      if (!engine) return missingOracle(missing, (m) => t.skip(m));
      const catalogue = catalogueFor(phase);
      const decidedNames = new Set(
        DECIDED_DIFFERENCES.filter((d) => d.family === family).flatMap((d) => d.aspects.map((aspect) => /^(?:field|function) (\S+):/.exec(aspect)![1])),
      );
      const valueOnly = [
        ...[...catalogue.fields.values()].filter((f) => f.only?.expressions === 'value').map((f) => f.name),
        ...[...catalogue.functions.values()].filter((f) => !f.expressions.includes('filter')).map((f) => `${f.name}(`),
      ];
      // A function the docs give to the other family's phases only (bit_slice) is shown there.
      const here = [...catalogue.functions.values()].filter((f) => !f.phases || f.phases.some((p) => phaseFamily(p) === family));
      const entries = [...catalogue.fields.values(), ...here];
      // A value expression is a filter once compared with a string: the engine checks the rest.
      const asked = entries.map((e) => (valueOnly.some((name) => e.example.includes(name)) ? `${e.example} == ""` : e.example));
      const verdicts = await engine.check(scheme, asked);
      const refused = entries.flatMap((e, i) => (verdicts[i] !== null && !decidedNames.has(e.name) ? [`${e.name}: ${asked[i]} — ${verdicts[i]!.message}`] : []));
      assert.deepEqual(refused, []);
    });
  }

  it('both schemes register the same functions (the packet phases\' catalogue keeps bit_slice of them, a decided difference)', async (t) => {
    if (!engine) return missingOracle(missing, (m) => t.skip(m));
    const http = [...(await engine.schema('http')).functions].sort();
    assert.deepEqual([...(await engine.schema('magic')).functions].sort(), http);
    assert.deepEqual([...catalogueFor('http_request_firewall_custom').functions.keys()].sort(), http);
  });

  it('the shortest call each undecided function describes is accepted, and one argument fewer is not', async (t) => {
    if (!engine) return missingOracle(missing, (m) => t.skip(m));
    // Built from the catalogue alone, beside the probe the generator and the check above share.
    const catalogue = catalogueFor('http_request_firewall_custom');
    const decided = new Set(DECIDED_DIFFERENCES.flatMap((d) => d.aspects.map((aspect) => /^function (\S+):/.exec(aspect)?.[1])));
    const fieldOf = (type: ValueType) => [...catalogue.fields.values()].filter((f) => f.inEngine && f.type === type).map((f) => f.name).sort()[0];
    const literalOf: Partial<Record<ValueType, (i: number) => string>> = { Bytes: () => '"a"', Integer: (i) => String(i + 1), Ip: () => '1.2.3.4' };
    const calls = [...catalogue.functions.values()]
      .filter((fn) => !fn.quantifier && !decided.has(fn.name))
      .map((fn) => {
        const args = Array.from({ length: fn.minArgs }, (_, i) => {
          const p = fn.parameters[parameterAt(fn, i)];
          return p.kind === 'literal' ? literalOf[p.types[0]]!(i) : fieldOf(p.types[0]);
        });
        return { fn, full: `${fn.name}(${args.join(', ')})`, short: `${fn.name}(${args.slice(0, -1).join(', ')})` };
      });
    const verdicts = await engine.check('http', calls.flatMap((c) => [c.full, c.short]));
    const wrong = calls.flatMap((c, i) => {
      const full = verdicts[2 * i];
      const short = verdicts[2 * i + 1];
      return [
        ...(full === null || full.start >= c.full.length ? [] : [`${c.full}: ${full.message}`]),
        ...(short?.message === 'invalid number of arguments' ? [] : [`${c.short} is accepted`]),
      ];
    });
    assert.deepEqual(wrong, []);
  });

  it('the probe reads signatures the engine is known to have', async (t) => {
    if (!engine) return missingOracle(missing, (m) => t.skip(m));
    const fields = (await engine.schema('http')).fields.map((f) => ({ name: f.name, type: engineType(f.type) }));
    const [lower, hash, concat, trim] = await probeFunctions(engine, 'http', ['lower', 'hash_in_range', 'concat', 'trim'], fields);
    assert.deepEqual(lower, { name: 'lower', parameters: [{ kind: 'field', types: ['Bytes'] }], minArgs: 1, maxArgs: 1, result: 'Bytes', sameTypeAsFirst: false });
    assert.deepEqual(hash.parameters, [
      { kind: 'literal', types: ['Integer'] },
      { kind: 'literal', types: ['Integer'] },
      { kind: 'field', types: ['Bytes', 'Integer', 'Ip'] },
    ]);
    assert.equal(hash.result, 'Integer');
    assert.equal(concat.result, 'first-argument');
    assert.equal(concat.minArgs, 2);
    assert.equal(concat.maxArgs, undefined);
    assert.ok(concat.sameTypeAsFirst);
    assert.ok(concat.parameters[0].types.includes('Array<Bytes>') && concat.parameters[0].types.includes('Bytes'));
    assert.deepEqual([trim.minArgs, trim.maxArgs, trim.parameters[1].kind], [1, 2, 'literal']);
    assert.deepEqual(await probeTypes(engine, 'http', ['http.request.headers', 'cf.llm.prompt.custom_topic_categories', 'ip.geoip.asnum', 'no.such.field']), [
      'Map<Array<Bytes>>',
      'Map<Integer>',
      'Integer',
      undefined,
    ]);
  });

  it('the committed generated files are what the generator writes from the pinned engine', async (t) => {
    if (!engine) return missingOracle(missing, (m) => t.skip(m));
    const files = await generateCatalogue(engine);
    assert.ok(files.size > 0);
    for (const [path, text] of files) assert.equal(readFileSync(join(__dirname, '..', '..', path), 'utf8'), text, `${path} differs from the generator's output: run \`npm run catalogue\` and review the diff`);
  });
});
