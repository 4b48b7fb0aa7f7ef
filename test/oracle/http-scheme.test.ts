/**
 * http-scheme.ts against the engine: the fields it adds to `get_schema_info()` exist with their
 * types, and every function's parameters (kind, type, count) and result are what the engine
 * reads. The HTTP generator is only as right as this table.
 *
 * Skips with one line when the oracle is not installed, and fails then when CI=true or
 * ORACLE_REQUIRED=1 (see engine.ts and .ci/run).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import type { ValueType } from '../../server/src/language/ast';
import { elementType } from '../../server/src/language/types';
import { HTTP_SCHEME, missingOracle, ORACLE_SCHEME, startOracle, type Oracle, type OracleResult } from './engine';
import { ENGINE_FUNCTIONS, HIDDEN_HTTP_FIELDS, httpFieldsFromSchema, type GenField, type GenFunction } from './http-scheme';

/** An expression the engine accepts after a field of this scalar type and after no other. */
function typeProbe(name: string, type: ValueType): string {
  switch (type) {
    case 'Bytes':
      return `${name} contains "a"`;
    case 'Integer':
      return `${name} & 1`;
    case 'Ip':
      return `${name} == 1.2.3.4`;
    case 'Boolean':
      return name;
    default:
      throw new Error(`no probe for ${type}`);
  }
}

/** A literal of each type that has one. */
const LITERAL: Partial<Record<ValueType, string>> = { Bytes: '"ab"', Integer: '1', Ip: '1.2.3.4' };

/** A test (a whole filter) on a value of this type: the value alone when it is Boolean, else a comparison. */
function test(value: string, type: ValueType): string {
  if (type === 'Boolean') return value;
  if (type === 'Bytes') return `${value} == "a"`;
  if (type === 'Integer') return `${value} == 1`;
  if (type === 'Ip') return `${value} == 1.2.3.4`;
  // An array: its first element; a map: a key.
  const element = elementType(type)!;
  return test(`${value}${type.startsWith('Array<') ? '[0]' : '["a"]'}`, element);
}

describe('http-scheme.ts against the reference engine', () => {
  let oracle: Oracle | undefined;
  let missing: string | undefined;
  let fields: GenField[] = [];
  let listed = new Set<string>();
  let functionNames: { http: string[]; magic: string[] } = { http: [], magic: [] };

  before(async () => {
    const started = await startOracle();
    if (!started.oracle) {
      missing = started.missing;
      return;
    }
    oracle = started.oracle;
    const schema = await oracle.schema(HTTP_SCHEME);
    listed = new Set(schema.fields.map((f) => f.name));
    fields = httpFieldsFromSchema(schema);
    functionNames = { http: [...schema.functions], magic: [...(await oracle.schema(ORACLE_SCHEME)).functions] };
  });
  after(() => oracle?.close());

  /** The engine's verdicts, by expression. */
  async function verdicts(exprs: readonly string[]): Promise<Map<string, OracleResult>> {
    const results = await oracle!.check(exprs, HTTP_SCHEME);
    return new Map(exprs.map((e, i) => [e, results[i]]));
  }
  /** A field of the type, for arguments. */
  const fieldOf = (type: ValueType) => fields.find((f) => f.type === type)?.name;

  it('the hidden fields are not in get_schema_info() and have their types', async (t) => {
    if (!oracle) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    assert.deepEqual(HIDDEN_HTTP_FIELDS.filter((f) => listed.has(f.name)).map((f) => f.name), [], 'listed by the engine now: drop them from HIDDEN_HTTP_FIELDS');
    const probes = HIDDEN_HTTP_FIELDS.flatMap((f) => (['Bytes', 'Integer', 'Ip', 'Boolean'] as const).map((type) => ({ f, type, expr: typeProbe(f.name, type) })));
    const results = await verdicts(probes.map((p) => p.expr));
    // Accepted with its own type's probe, refused with every other type's.
    const wrong = probes.filter((p) => results.get(p.expr)!.ok !== (p.type === p.f.type)).map((p) => `${p.expr}: ${results.get(p.expr)!.ok ? 'accepted' : 'refused'}`);
    assert.deepEqual(wrong, []);
  });

  it('names the engine\'s functions, the same in both schemes', (t) => {
    if (!oracle) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    const ours = ENGINE_FUNCTIONS.map((f) => f.name).sort();
    assert.deepEqual([...functionNames.http].sort(), ours);
    assert.deepEqual([...functionNames.magic].sort(), ours);
  });

  /** The arguments of a call the engine accepts: every parameter with its first type. */
  function goodArguments(f: GenFunction, count: number, firstType?: ValueType): string[] {
    if (f.name === 'hash_in_range') return ['0', '100', 'http.host'];
    return Array.from({ length: count }, (_, i) => {
      const p = f.parameters[Math.min(i, f.parameters.length - 1)];
      const type = f.result === 'first-argument' ? (firstType ?? p.types[0]) : p.types[0];
      // A literal where the engine wants one or takes either (except where none exists).
      const value = p.kind === 'field' || LITERAL[type] === undefined ? fieldOf(type) : LITERAL[type];
      if (value === undefined) throw new Error(`no argument of type ${type} for ${f.name}`);
      // `trim`'s set may not name a byte twice, and each call of `concat` needs the same type.
      return value;
    });
  }
  const callText = (f: GenFunction, args: readonly string[]) => `${f.name}(${args.join(', ')})`;
  const resultType = (f: GenFunction, firstType: ValueType) => (f.result === 'first-argument' ? firstType : f.result);
  const calls = () => ENGINE_FUNCTIONS.filter((f) => !f.quantifier);

  it('accepts a call of every function with its parameters, and with its optional ones too', async (t) => {
    if (!oracle) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    const cases: string[] = [];
    for (const f of calls()) {
      const firstTypes = f.result === 'first-argument' ? f.parameters[0].types.filter((type) => fieldOf(type) !== undefined || LITERAL[type] !== undefined) : [f.parameters[0].types[0]];
      for (const first of firstTypes) {
        for (const count of new Set([f.minArgs, f.maxArgs ?? f.minArgs + 2])) cases.push(test(callText(f, goodArguments(f, count, first)), resultType(f, first)));
      }
    }
    const results = await verdicts(cases);
    assert.deepEqual(cases.filter((e) => !results.get(e)!.ok).map((e) => `${e}: ${(results.get(e) as { message: string }).message}`), []);
    for (const f of ENGINE_FUNCTIONS.filter((q) => q.quantifier)) assert.ok((await verdicts([`${f.name}(http.request.headers.names[*] == "a")`])).values().next().value!.ok, f.name);
  });

  it('refuses a call with an argument of the wrong kind or type, or too few or too many, with the engine\'s message', async (t) => {
    if (!oracle) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    const cases: { expr: string; message: RegExp }[] = [];
    for (const f of calls()) {
      const result = resultType(f, f.parameters[0].types[0]);
      const count = f.maxArgs ?? f.minArgs + 1;
      const good = goodArguments(f, count);
      f.parameters.forEach((p, i) => {
        if (i >= count) return;
        const type = f.result === 'first-argument' ? f.parameters[0].types[0] : p.types[0];
        const at = (value: string) => test(callText(f, good.map((g, j) => (j === i ? value : g))), result);
        // The other kind.
        if (p.kind === 'field' && LITERAL[type]) cases.push({ expr: at(LITERAL[type]!), message: new RegExp(`^invalid kind of argument #${i}: expected argument of kind Field, but got Literal`) });
        if (p.kind === 'literal') cases.push({ expr: at(fieldOf(type)!), message: new RegExp(`^invalid kind of argument #${i}: expected argument of kind Literal, but got Field`) });
        // A type it does not take, of a kind it does. (hash_in_range's bounds are read as Integers first.)
        const other = (['Bytes', 'Integer', 'Ip', 'Boolean', 'Array<Bytes>'] as ValueType[]).find((o) => !p.types.includes(o) && (p.kind === 'literal' ? LITERAL[o] : fieldOf(o)) !== undefined);
        if (other && !(f.result === 'first-argument' && i > 0)) cases.push({ expr: at((p.kind === 'literal' ? LITERAL[other] : fieldOf(other))!), message: new RegExp(`^invalid type of argument #${i}: expected value of type`) });
      });
      if (f.minArgs > 0) cases.push({ expr: test(callText(f, good.slice(0, f.minArgs - 1)), result), message: /^invalid number of arguments$/ });
      if (f.maxArgs !== undefined) cases.push({ expr: test(callText(f, [...goodArguments(f, f.maxArgs), good[good.length - 1]]), result), message: /^invalid number of arguments$/ });
    }
    const results = await verdicts(cases.map((c) => c.expr));
    const wrong = cases.filter((c) => {
      const r = results.get(c.expr)!;
      return r.ok || !c.message.test(r.message);
    });
    assert.deepEqual(
      wrong.map((c) => `${c.expr}: ${results.get(c.expr)!.ok ? 'accepted' : (results.get(c.expr) as { message: string }).message}`),
      [],
    );
  });
});
