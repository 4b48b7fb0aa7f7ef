/**
 * What the reference engine says about fields and functions, learnt by asking it: its schema
 * (`get_schema_info`) and, for what the schema does not tell (the types of fields it does not
 * list, function signatures), by probing `parse_expression` with expressions of every shape.
 * Used by the catalogue generator (scripts/catalogue/fields.ts) and by the oracle's catalogue test.
 *
 * Nothing here knows a field or function by name: everything comes back from the engine, so
 * that a new engine version regenerates the catalogue instead of silently disagreeing with it.
 */
import { ORACLE_PACKAGE, startOracle, type EngineScheme as OracleScheme, type Oracle, type OracleResult, type SchemaInfo } from '../../test/oracle/engine';
import type { ScalarType, ValueType } from '../../server/src/language/ast';
import { arrayOf, elementType, isArrayType, mapOf, typeFromEngineName } from '../../server/src/language/types';

/** The engine's two schemes: the default (HTTP) one and `magic_firewall`. */
export type EngineScheme = 'http' | 'magic';
export const ENGINE_SCHEME_NAME: Record<EngineScheme, string | null> = { http: null, magic: 'magic_firewall' };

export const ENGINE_PACKAGE = ORACLE_PACKAGE;

export interface Verdict {
  /** The text after the engine's caret line, e.g. `invalid number of arguments`. */
  readonly message: string;
  /** Offset of the caret span in the expression; -1 when the text could not be read. */
  readonly start: number;
  readonly length: number;
}

/** The engine's schema: its fields with their types, and its functions. */
export type EngineSchema = SchemaInfo;

/** The oracle's name for each scheme. */
const ORACLE_SCHEME: Record<EngineScheme, OracleScheme> = { http: 'http', magic: 'magic_firewall' };

/**
 * The reference engine as the generator asks it. The process and its protocol are the oracle's
 * (test/oracle/engine.ts with oracle.py), the one bridge to the engine that the tests use too;
 * this reads its verdicts as the probes below want them.
 */
export class Engine {
  private constructor(private readonly oracle: Oracle) {}

  /** The engine package's version, as the engine process reports it. */
  get version(): string {
    return this.oracle.version;
  }

  /** Starts the engine with `python3` (or `$ORACLE_PYTHON`, as the oracle tests do). */
  static async start(): Promise<{ readonly engine: Engine } | { readonly missing: string }> {
    const started = await startOracle();
    return started.oracle ? { engine: new Engine(started.oracle) } : { missing: started.missing };
  }

  /** The engine's verdict on each expression, in order: null = accepted. */
  async check(scheme: EngineScheme, exprs: readonly string[]): Promise<(Verdict | null)[]> {
    if (exprs.length === 0) return [];
    return (await this.oracle.check(exprs, ORACLE_SCHEME[scheme])).map(verdictOf);
  }

  async schema(scheme: EngineScheme): Promise<EngineSchema> {
    return this.oracle.schema(ORACLE_SCHEME[scheme]);
  }

  close(): void {
    this.oracle.close();
  }
}

/** A verdict of the oracle as a probe reads it; the bindings throwing is no verdict on the expression. */
function verdictOf(result: OracleResult): Verdict | null {
  if (result.ok) return null;
  if (result.exception) throw new Error(`engine: ${result.message}`);
  if (result.start === undefined) return { message: result.message, start: -1, length: 0 };
  return { message: result.message, start: result.start, length: (result.end ?? result.start) - result.start };
}

/** The type an engine type name stands for; throws on a name we cannot read (a new engine type). */
export function engineType(name: string): ValueType {
  const type = typeFromEngineName(name);
  if (type === undefined) throw new Error(`the engine reports a type we cannot read: ${name}`);
  return type;
}

/** An expression accepted up to `end`: what follows (e.g. "expected ComparisonOp") is not its fault. */
function acceptedUpTo(verdict: Verdict | null, end: number): boolean {
  return verdict === null || verdict.start >= end;
}

const MAX_TYPE_DEPTH = 3;

/**
 * The type of each expression (a field name, a call, …) as the engine sees it, from what it
 * accepts: alone as a condition (Boolean), compared with `"a"` (String), `1` (Integer) or
 * `1.2.3.4` (IP), or indexed with `[0]` (an array) or `["k"]` (a map), whose element is probed
 * the same way. undefined: the engine accepts none of these (e.g. an unknown name).
 */
export async function probeTypes(engine: Engine, scheme: EngineScheme, exprs: readonly string[]): Promise<(ValueType | undefined)[]> {
  const scalars: [string, ScalarType][] = [
    ['', 'Boolean'],
    [' == "a"', 'Bytes'],
    [' == 1', 'Integer'],
    [' == 1.2.3.4', 'Ip'],
  ];
  const result: (ValueType | undefined)[] = exprs.map(() => undefined);
  // Each pending probe: the expression, and how to wrap the element type it finds.
  let pending = exprs.map((expr, index) => ({ expr, index, wrap: (t: ValueType) => t, depth: 0 }));
  while (pending.length > 0) {
    const asked = pending.flatMap((p) => [...scalars.map(([suffix]) => p.expr + suffix), `${p.expr}[0]`, `${p.expr}["k"]`]);
    const verdicts = await engine.check(scheme, asked);
    const next: typeof pending = [];
    pending.forEach((p, i) => {
      const answers = verdicts.slice(i * (scalars.length + 2), (i + 1) * (scalars.length + 2));
      const found = scalars.filter((_, k) => answers[k] === null).map(([, type]) => type);
      const indexable = [`${p.expr}[0]`, `${p.expr}["k"]`].map((text, k) => acceptedUpTo(answers[scalars.length + k], text.length));
      const kinds = found.length + indexable.filter(Boolean).length;
      if (kinds > 1) throw new Error(`the engine accepts \`${p.expr}\` as more than one type (${found.join(', ')}${indexable[0] ? ', array' : ''}${indexable[1] ? ', map' : ''})`);
      if (found.length === 1) result[p.index] = p.wrap(found[0]);
      else if (kinds === 1 && p.depth < MAX_TYPE_DEPTH) {
        const [suffix, wrapOne] = indexable[0] ? (['[0]', arrayOf] as const) : (['["k"]', mapOf] as const);
        next.push({ expr: p.expr + suffix, index: p.index, wrap: (t) => p.wrap(wrapOne(t)), depth: p.depth + 1 });
      }
    });
    pending = next;
  }
  return result;
}

/** An argument the probes try: a field (the engine's "Field" kind: any variable) or a literal. */
export interface Candidate {
  readonly kind: 'field' | 'literal';
  readonly type: ValueType;
  readonly text: string;
}

const TYPE_ORDER: readonly string[] = ['Bytes', 'Integer', 'Ip', 'Boolean'];
/** Scalars first, then arrays and maps, so that a probe's chosen argument is the plainest one. */
export function compareTypes(a: ValueType, b: ValueType): number {
  const rank = (t: ValueType) => (TYPE_ORDER.includes(t) ? TYPE_ORDER.indexOf(t) : TYPE_ORDER.length + (isArrayType(t) ? 0 : 1));
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * One field of each type the scheme has (the first by name), then one literal of each literal
 * type. A literal integer is the position plus one, so that increasing bounds (`hash_in_range`'s
 * min < max) hold; a value the engine refuses still proves the kind and type were accepted.
 */
export function candidates(fields: readonly { readonly name: string; readonly type: ValueType }[], position: number): Candidate[] {
  const byType = new Map<ValueType, string>();
  for (const field of [...fields].sort((a, b) => (a.name < b.name ? -1 : 1))) if (!byType.has(field.type)) byType.set(field.type, field.name);
  const types = [...byType.keys()].sort(compareTypes);
  return [
    ...types.map((type) => ({ kind: 'field' as const, type, text: byType.get(type)! })),
    { kind: 'literal', type: 'Bytes', text: '"a"' },
    { kind: 'literal', type: 'Integer', text: String(position + 1) },
    { kind: 'literal', type: 'Ip', text: '1.2.3.4' },
  ];
}

export interface ProbedParameter {
  readonly kind: 'field' | 'literal' | 'both';
  /** Sorted with compareTypes. */
  readonly types: readonly ValueType[];
}

export interface ProbedFunction {
  readonly name: string;
  /** One per position, up to maxArgs; for no upper bound, up to the first that repeats. */
  readonly parameters: readonly ProbedParameter[];
  readonly minArgs: number;
  /** undefined: the engine took PROBE_LIMIT arguments and still asked for none fewer. */
  readonly maxArgs?: number;
  readonly result: ValueType | 'first-argument';
  /** Every argument after the first must have the first's type (concat, coalesce). */
  readonly sameTypeAsFirst: boolean;
}

/** More arguments than any documented signature has: past this, a function takes any number. */
export const PROBE_LIMIT = 12;

/** `accepted-value`: kind and type accepted, the value refused (so no word on the count). */
type Classified = 'accepted-complete' | 'accepted-needs-more' | 'accepted-value' | 'rejected' | 'too-many';
const ACCEPTED: ReadonlySet<Classified> = new Set(['accepted-complete', 'accepted-needs-more', 'accepted-value']);

function call(name: string, args: readonly string[]): string {
  return `${name}(${args.join(', ')})`;
}

/** What the engine's verdict on `name(...prefix, candidate)` says about the candidate at `position`. */
function classify(verdict: Verdict | null, text: string, candidateStart: number, position: number): Classified {
  if (acceptedUpTo(verdict, text.length)) return 'accepted-complete';
  const message = verdict!.message;
  if (message === 'invalid number of arguments') {
    if (verdict!.start === candidateStart) return 'too-many';
    if (verdict!.start === text.length - 1) return 'accepted-needs-more';
  }
  const argument = /^invalid (kind|type|value) of argument #(\d+)/.exec(message);
  if (argument && Number(argument[2]) === position) return argument[1] === 'value' ? 'accepted-value' : 'rejected';
  throw new Error(`unexpected verdict on \`${text}\`: ${message} at ${verdict!.start}`);
}

function parameterOf(accepted: readonly Candidate[]): ProbedParameter {
  const fields = accepted.some((c) => c.kind === 'field');
  const literals = accepted.some((c) => c.kind === 'literal');
  return { kind: fields && literals ? 'both' : fields ? 'field' : 'literal', types: [...new Set(accepted.map((c) => c.type))].sort(compareTypes) };
}

const sameParameter = (a: ProbedParameter, b: ProbedParameter) => a.kind === b.kind && a.types.join() === b.types.join();

/**
 * The signature of each function, as the engine accepts it: position by position, every
 * candidate argument is tried after a prefix of accepted ones; the engine names the argument it
 * refuses (`invalid kind of argument #1`), says where the count goes wrong (at an extra argument:
 * too many; at the closing parenthesis: more needed), and accepts the rest.
 */
export async function probeFunctions(
  engine: Engine,
  scheme: EngineScheme,
  names: readonly string[],
  fields: readonly { readonly name: string; readonly type: ValueType }[],
): Promise<ProbedFunction[]> {
  interface State {
    name: string;
    prefix: Candidate[];
    positions: Candidate[][];
    minArgs?: number;
    maxArgs?: number;
    done: boolean;
  }
  const states: State[] = names.map((name) => ({ name, prefix: [], positions: [], done: false }));
  const none = await engine.check(scheme, names.map((name) => call(name, [])));
  states.forEach((s, i) => {
    if (acceptedUpTo(none[i], s.name.length + 2)) s.minArgs = 0;
    else if (none[i]!.message !== 'invalid number of arguments') throw new Error(`unexpected verdict on \`${s.name}()\`: ${none[i]!.message}`);
  });
  for (let position = 0; position < PROBE_LIMIT && states.some((s) => !s.done); position++) {
    const asked: { state: State; candidate: Candidate; text: string; start: number }[] = [];
    for (const state of states.filter((s) => !s.done)) {
      const head = state.prefix.map((c) => c.text);
      const start = call(state.name, head).length - 1 + (head.length > 0 ? 2 : 0);
      for (const candidate of candidates(fields, position)) asked.push({ state, candidate, text: call(state.name, [...head, candidate.text]), start });
    }
    const verdicts = await engine.check(scheme, asked.map((a) => a.text));
    const classified = asked.map((a, i) => ({ ...a, verdict: classify(verdicts[i], a.text, a.start, position) }));
    for (const state of states.filter((s) => !s.done)) {
      const mine = classified.filter((a) => a.state === state);
      if (mine.every((a) => a.verdict === 'too-many')) {
        state.maxArgs = position;
        state.done = true;
        continue;
      }
      const accepted = mine.filter((a) => ACCEPTED.has(a.verdict));
      // The next positions are probed after an argument the engine took whole, value included.
      const next = accepted.find((a) => a.verdict !== 'accepted-value');
      if (!next) throw new Error(`${state.name}: no argument is accepted at position ${position}`);
      if (state.minArgs === undefined && accepted.some((a) => a.verdict === 'accepted-complete')) state.minArgs = position + 1;
      state.positions.push(accepted.map((a) => a.candidate));
      state.prefix.push(next.candidate);
    }
  }

  // Whether what the second argument may be depends on the first.
  const sameTypeAsFirst = new Map<string, boolean>();
  const dependent = states.filter((s) => s.positions.length > 1 && new Set(s.positions[0].map((c) => c.type)).size > 1);
  const asked = dependent.flatMap((state) =>
    state.positions[0].flatMap((first) => candidates(fields, 1).map((candidate) => ({ state, first, candidate, text: call(state.name, [first.text, candidate.text]), start: state.name.length + 1 + first.text.length + 2 }))),
  );
  const verdicts = await engine.check(scheme, asked.map((a) => a.text));
  for (const state of dependent) {
    const typesAfter = new Map<ValueType, Set<ValueType>>();
    asked.forEach((a, i) => {
      if (a.state !== state) return;
      const set = typesAfter.get(a.first.type) ?? new Set<ValueType>();
      if (ACCEPTED.has(classify(verdicts[i], a.text, a.start, 1))) set.add(a.candidate.type);
      typesAfter.set(a.first.type, set);
    });
    const sets = [...typesAfter.values()].map((set) => [...set].sort(compareTypes).join());
    if (sets.every((set) => set === sets[0])) continue;
    if (![...typesAfter].every(([first, set]) => set.size === 1 && set.has(first))) throw new Error(`${state.name}: its second argument depends on its first in a way we cannot describe`);
    sameTypeAsFirst.set(state.name, true);
  }

  // Result types: of a shortest valid call, and for each first-argument type where it matters.
  const shortest = (state: State, first?: Candidate) =>
    call(state.name, state.prefix.slice(0, Math.max(state.minArgs!, 1)).map((c, i) => (first && (i === 0 || sameTypeAsFirst.get(state.name)) ? first : c).text));
  const calls = states.map((s) => shortest(s));
  const results = await probeTypes(engine, scheme, calls);
  const firstTypes = await Promise.all(
    states.map(async (s) => (sameTypeAsFirst.get(s.name) ? probeTypes(engine, scheme, s.positions[0].map((first) => shortest(s, first))) : [])),
  );

  return states.map((state, i) => {
    if (state.minArgs === undefined) throw new Error(`${state.name}: no call of up to ${PROBE_LIMIT} arguments is accepted`);
    const same = sameTypeAsFirst.get(state.name) ?? false;
    let parameters = state.positions.map(parameterOf);
    // Probed after a first argument of one type, a later position showed only that type.
    if (same) parameters = parameters.map((p, position) => (position === 0 ? p : { kind: p.kind, types: parameters[0].types }));
    if (state.maxArgs === undefined) {
      // No upper bound: the trailing positions repeat; keep one of them past the required ones.
      let keep = parameters.length;
      while (keep > Math.max(state.minArgs, 1) && sameParameter(parameters[keep - 1], parameters[keep - 2])) keep--;
      parameters = parameters.slice(0, keep);
    }
    let result: ValueType | 'first-argument' | undefined = results[i];
    if (same) {
      const firsts = state.positions[0];
      if (firstTypes[i].every((t, k) => t === firsts[k].type)) result = 'first-argument';
    }
    if (result === undefined) throw new Error(`${state.name}: the engine accepts \`${calls[i]}\` as no type we can probe`);
    return { name: state.name, parameters, minArgs: state.minArgs, maxArgs: state.maxArgs, result, sameTypeAsFirst: same };
  });
}

/**
 * The names the engine parses as quantifiers (`any`, `all`) rather than calls: alone they make a
 * condition of one comparison over an array's elements (`any(x[*] == "a")`), and of two they
 * make none. Needs an array-of-strings field: in a scheme without one, no name is found.
 */
export async function probeQuantifiers(engine: Engine, scheme: EngineScheme, names: readonly string[], fields: readonly { readonly name: string; readonly type: ValueType }[]): Promise<string[]> {
  const array = [...fields].sort((a, b) => (a.name < b.name ? -1 : 1)).find((f) => isArrayType(f.type) && elementType(f.type) === 'Bytes');
  if (!array) return [];
  const condition = `${array.name}[*] == "a"`;
  const verdicts = await engine.check(scheme, names.flatMap((name) => [`${name}(${condition})`, `${name}(${condition}, ${condition})`]));
  return names.filter((_, i) => verdicts[2 * i] === null && verdicts[2 * i + 1] !== null);
}
