/**
 * fast-check arbitraries of rule expressions for the HTTP phases, in the style of generate.ts:
 * mostly well-formed and typed by the left side, some mutated (a character or a token deleted,
 * inserted or swapped). What the engine reads in these phases (see /work/notes/engine-http.md)
 * beyond the packet phases: fields of every type (String, Integer, Boolean, IP, arrays, maps);
 * index access (`["key"]`, `[0]`, `[*]`), on fields and on call results; `any(…)` / `all(…)`;
 * calls of the functions wherever a value may stand, nested, with arguments of the right and
 * the wrong type, kind and number.
 *
 * The fields and functions are parameters, not imports: the differential test passes the
 * catalogue's (catalogueFor('http_request_firewall_custom'), whose FieldInfo and FunctionInfo
 * have these members), which catalogue.test.ts holds to the engine. Where the catalogue follows
 * the docs rather than the engine (its decided rows: `substring` without `end`, `len` of an
 * array, fields the engine lacks, …) the calls it writes as right are not all right to the
 * engine, and the differential test's known disagreements say why.
 */
import fc from 'fast-check';

import type { ValueType } from '../../server/src/language/ast';
import { arrayOf, elementType, isArrayType, isMapType } from '../../server/src/language/types';
import {
  anyValue,
  type Arb,
  BITWISE,
  bytes,
  cidr,
  edge,
  EQUALITY,
  escape,
  integer,
  integerRange,
  ip,
  ipRange,
  isWord,
  join,
  listRef,
  LOGICAL,
  MATCHES,
  mutate,
  logicOver,
  mutation,
  NOT,
  ORDERING,
  osp,
  pick,
  plainChar,
  quoted,
  rawString,
  regexLiteral,
  set,
  sp,
  stringLiteral,
  weighted,
  WILDCARD,
  wildcardLiteral,
} from './generate';

/** A field, as the generator reads the catalogue's FieldInfo. */
export interface GenField {
  readonly name: string;
  readonly type: ValueType;
}

/** A parameter, as the generator reads the catalogue's ParameterInfo. */
export interface GenParameter {
  /** The types it takes (any of them). */
  readonly types: readonly ValueType[];
  /**
   * The engine's argument kind: `field` = a field, a call, an index or a logical expression (a
   * "variable"); `literal` = a string, number or address written out; `both` = either.
   */
  readonly kind: 'field' | 'literal' | 'both';
  readonly optional?: boolean;
  /** May be given again and again (up to the function's maxArgs). */
  readonly repeats?: boolean;
}

/** A function, as the generator reads the catalogue's FunctionInfo. */
export interface GenFunction {
  readonly name: string;
  readonly parameters: readonly GenParameter[];
  readonly minArgs: number;
  /** undefined: no upper bound. */
  readonly maxArgs?: number;
  /** `first-argument`: the type of the call's first argument (concat, coalesce). */
  readonly result: ValueType | 'first-argument';
  /** any / all: logical quantifiers, not calls; the generator writes them itself. */
  readonly quantifier?: boolean;
}

export interface HttpExpressions {
  /** What the differential test samples: about 3 in 4 from the grammar, 1 in 4 mutated, a few at the limits. */
  readonly expression: Arb;
  /** From the grammar only (mostly valid; some deliberate type, kind and arity mistakes). */
  readonly wellFormed: Arb;
}

// ------------------------------------------------------------------ small pieces

/** Keys of `http.request.headers[…]`, `…uri.args[…]`, `…cookies[…]`: the common ones and some odd ones. */
const MAP_KEYS = ['x-api-key', 'cookie', 'user-agent', 'host', 'content-type', 'x-forwarded-for', 'q', 'id', 'session', 'Accept', 'a b', ''];

/**
 * Between `[` and `]`. A key is a `"…"` string and nothing else (no raw string, no bytes); an
 * index a non-negative integer that fits 32 bits, in any integer spelling the engine reads
 * (`0x1`, `01` too); `*` either. The odd ones are what people get wrong.
 */
const mapKey: Arb = weighted(
  [40, pick(...MAP_KEYS).map((k) => `"${k}"`)],
  [3, fc.array(weighted([10, plainChar], [2, escape]), { maxLength: 4 }).map((c) => `"${c.join('')}"`)],
  [2, pick('r"q"', 'r#"q"#', "'q'", 'q', '"\\xff"', '"\\377"', '"é"', '"a\\"b"', '"\\x41"', '61:62', '0', '"q', '"\\n"')],
);
const arrayIndex: Arb = weighted(
  [40, fc.integer({ min: 0, max: 3 }).map(String)],
  [2, pick('4294967295', '4294967296', '-1', '-0', '0x1', '0xFFFFFFFF', '0x100000000', '01', '08', '0777', '9223372036854775808', '+1', '1.2', '"0"', '', '1 2')],
);
/** Inside brackets the engine skips spaces and line breaks (a TAB is an error). */
const bracket = (inner: Arb): Arb => fc.tuple(osp, inner, osp).map(([a, i, b]) => `[${a}${i}${b}]`);
/** Before `[`: nothing. `x ["k"]` is no index to the engine, it ends the operand there. */
const beforeBracket: Arb = weighted([80, fc.constant('')], [1, pick(' ', '\n')]);
/** Between a function's name and `(`: the engine skips spaces and line breaks there. */
const beforeParen: Arb = weighted([60, fc.constant('')], [2, fc.constant(' ')], [1, pick('\n', '\t')]);
const afterComma: Arb = weighted([60, fc.constant(' ')], [30, fc.constant('')], [4, pick('\n', '  ', '\r\n')], [1, fc.constant('\t')]);
const beforeComma: Arb = weighted([60, fc.constant('')], [2, fc.constant(' ')], [1, pick('\n', '\t')]);

/** `a, b, c` with the whitespace people write around commas. */
function commaList(args: readonly string[]): Arb {
  if (args.length === 0) return fc.constant('');
  return fc.array(fc.tuple(beforeComma, afterComma), { minLength: args.length - 1, maxLength: args.length - 1 }).map((seps) => args.reduce((out, arg, i) => (i === 0 ? arg : `${out}${seps[i - 1][0]},${seps[i - 1][1]}${arg}`), ''));
}

/** `name(args)` with the whitespace around its parentheses. */
function callText(name: string, args: Arb): Arb {
  return fc.tuple(beforeParen, osp, args, osp).map(([b, o1, a, o2]) => `${name}${b}(${o1}${a}${o2})`);
}

/** `lhs op rhs`, spaced as the operator needs (a word needs a separator, a symbol does not). */
function comparison(lhs: Arb, op: Arb, rhs: Arb): Arb {
  return fc.tuple(lhs, op, rhs, sp, sp, osp, osp).map(([l, o, r, s1, s2, o1, o2]) => (isWord(o) ? `${l}${s1}${o}${s2}${r}` : `${l}${o1}${o}${o2}${r}`));
}

// ------------------------------------------------------------------ index paths

type Step = 'key' | 'index' | 'each';

/** Where one index step leads from a type: undefined when the engine refuses it. */
function stepType(type: ValueType, step: Step): ValueType | undefined {
  if (step === 'index') return isArrayType(type) ? elementType(type) : undefined;
  if (step === 'key') return isMapType(type) ? elementType(type) : undefined;
  return elementType(type);
}

interface Path {
  readonly steps: readonly Step[];
  readonly to: ValueType;
  readonly mapped: boolean;
}

/** Every index path of up to three steps from a container type. */
function pathsFrom(type: ValueType): Path[] {
  const out: Path[] = [];
  const walk = (current: ValueType, steps: Step[]) => {
    if (steps.length > 0) out.push({ steps: [...steps], to: current, mapped: steps.includes('each') });
    if (steps.length === 3) return;
    for (const step of ['key', 'index', 'each'] as const) {
      const next = stepType(current, step);
      if (next !== undefined) walk(next, [...steps, step]);
    }
  };
  walk(type, []);
  return out;
}

function pathText(steps: readonly Step[]): Arb {
  if (steps.length === 0) return fc.constant('');
  const one = (step: Step) => join(beforeBracket, bracket(step === 'key' ? mapKey : step === 'index' ? arrayIndex : fc.constant('*')));
  return fc.tuple(...steps.map(one)).map((parts) => parts.join(''));
}

/** A step the engine refuses on this type (an index on a String, a key on an array, …), for the odd cases. */
function wrongStep(type: ValueType): Arb {
  const steps = (['key', 'index', 'each'] as const).filter((s) => stepType(type, s) === undefined);
  return pick(...steps).chain((s) => pathText([s as Step]));
}

// ------------------------------------------------------------------ the generator

/**
 * The arbitraries for a field list and a function table. Call once per field list: the
 * arbitraries are built eagerly (memoised by type and depth), which takes a few milliseconds.
 */
export function httpExpressions(fields: readonly GenField[], functions: readonly GenFunction[]): HttpExpressions {
  const calls = functions.filter((f) => !f.quantifier);
  const fieldsOf = (type: ValueType) => fields.filter((f) => f.type === type).map((f) => f.name);
  const containerFields = fields.filter((f) => elementType(f.type) !== undefined);

  /** Every type that can occur: of the fields, the parameters and results, and what indexes give. */
  const types = new Set<ValueType>(['Bytes', 'Integer', 'Ip', 'Boolean']);
  const addType = (t: ValueType) => {
    for (let u: ValueType | undefined = t; u !== undefined; u = elementType(u)) types.add(u);
  };
  for (const f of fields) addType(f.type);
  for (const f of calls) {
    for (const p of f.parameters) p.types.forEach(addType);
    if (f.result !== 'first-argument') {
      addType(f.result);
      addType(arrayOf(f.result)); // a call whose first argument maps (`lower(x[*])`) gives an array
    }
  }
  const containerTypes = [...types].filter((t) => elementType(t) !== undefined);

  /** A function's possible result types (for `first-argument`: its first parameter's). */
  const resultsOf = (f: GenFunction): ValueType[] => (f.result === 'first-argument' ? [...f.parameters[0].types] : [f.result]);
  /** A first parameter that a mapped value may fill (`lower(names[*])`): a field-kind scalar. */
  const mapsFirst = (f: GenFunction) => f.parameters.length > 0 && f.parameters[0].kind !== 'literal' && f.result !== 'first-argument';

  const memo = new Map<string, Arb | undefined>();
  const memoised = (key: string, build: () => Arb | undefined): Arb | undefined => {
    if (!memo.has(key)) {
      memo.set(key, undefined); // a cycle sees "nothing here" instead of recursing
      memo.set(key, build());
    }
    return memo.get(key);
  };
  const options = (...pairs: [number, Arb | undefined][]): Arb | undefined => {
    const present = pairs.filter((p): p is [number, Arb] => p[1] !== undefined && p[0] > 0);
    return present.length === 0 ? undefined : weighted(...present);
  };

  // ---------------------------------------------------------------- literals

  /** A literal of a type, as an argument: the spellings the engine reads there, and some it does not. */
  function literalOf(type: ValueType): Arb {
    switch (type) {
      case 'Bytes':
        // `12:34` is the integer 12 to the engine's argument reader, 8-group bytes an IPv6 address.
        return weighted([30, quoted], [6, rawString], [3, bytes], [1, pick('12:34', 'aa:bb:cc:dd:ee:ff:00:11', 'c0:ff:ee', '61')]);
      case 'Integer':
        // Hex is not an argument (`0x10` reads as an unknown name); octal and negative are.
        return weighted([30, fc.integer({ min: -5, max: 300 }).map(String)], [6, integer]);
      case 'Ip':
        return weighted([10, ip], [1, pick('1.2.3.0/24', '1.2.3', '::1/128')]);
      default:
        // No literal of a Boolean, an array or a map exists: what people try instead.
        return pick('true', 'false', '"x"', '{}', '[]');
    }
  }

  /** Literals some functions constrain (`hash_in_range` bounds, `trim` sets, patterns), mostly kept to. */
  function literalFor(fn: string, index: number, type: ValueType): Arb {
    if (fn === 'trim' || fn === 'trim_start' || fn === 'trim_end')
      if (index === 1) return weighted([10, fc.subarray(['/', ' ', 'a', '.', '-', '\\\\', 'é']).map((s) => `"${s.join('')}"`)], [2, pick('"//"', '"aa"', '"\\x61a"', '"éé"', '""')], [1, literalOf(type)]);
    if (fn === 'substring' && index > 0) return weighted([10, fc.integer({ min: -10, max: 20 }).map(String)], [1, literalOf(type)]);
    if ((fn === 'cidr' || fn === 'cidr6') && index > 0) return weighted([10, fc.integer({ min: 0, max: 128 }).map(String)], [1, pick('-1', '129', '0x18')]);
    if (fn === 'bit_slice' && index > 0) return weighted([10, fc.integer({ min: 0, max: 64 }).map(String)], [1, pick('2041', '0x8', '-1')]);
    if (fn === 'split' && index === 2) return weighted([10, fc.integer({ min: 1, max: 10 }).map(String)], [1, literalOf(type)]);
    if (fn === 'wildcard' || fn === 'wildcard_replace') if (index === 1) return wildcardLiteral;
    if (fn === 'regex_replace' && index === 1) return weighted([10, quoted], [3, regexLiteral]);
    return literalOf(type);
  }

  /** hash_in_range's two bounds, chosen together so that they can be ordered (max > min), as mostly written. */
  const hashBounds: fc.Arbitrary<[string, string]> = fc.oneof(
    { weight: 10, arbitrary: fc.tuple(fc.integer({ min: -100, max: 1000 }), fc.integer({ min: 1, max: 1000 })).map(([a, d]): [string, string] => [String(a), String(a + d)]) },
    { weight: 2, arbitrary: fc.tuple(fc.integer({ min: -100, max: 1000 }), fc.integer({ min: -100, max: 1000 })).map(([a, b]): [string, string] => [String(a), String(b)]) },
  );

  // ---------------------------------------------------------------- operands

  /** A field, call or index whose value has this type and maps nothing. */
  function variable(type: ValueType, depth: number): Arb | undefined {
    return memoised(`v|${type}|${depth}`, () => {
      const names = fieldsOf(type);
      const indexed = containerFields.flatMap((f) => pathsFrom(f.type).filter((p) => !p.mapped && p.to === type).map((p) => [f.name, p] as const));
      return options(
        [names.length > 0 ? 12 : 0, names.length > 0 ? pick(...names) : undefined],
        [indexed.length > 0 ? 5 : 0, indexed.length > 0 ? fc.constantFrom(...indexed).chain(([name, p]) => pathText(p.steps).map((s) => name + s)) : undefined],
        // Calls as often as the functions that give this type are many (some twenty give a String).
        [depth > 0 ? Math.min(12, 2 + Math.floor(calls.filter((f) => resultsOf(f).includes(type)).length / 2)) : 0, depth > 0 ? call(type, depth) : undefined],
        [depth > 0 ? 1 : 0, depth > 0 ? indexedCall(type, depth, false) : undefined],
      );
    });
  }

  /** An operand with `[*]` in it whose elements have this type (the comparison then gives an array). */
  function mapped(type: ValueType, depth: number): Arb | undefined {
    return memoised(`m|${type}|${depth}`, () => {
      const indexed = containerFields.flatMap((f) => pathsFrom(f.type).filter((p) => p.mapped && p.to === type).map((p) => [f.name, p] as const));
      return options(
        [indexed.length > 0 ? 6 : 0, indexed.length > 0 ? fc.constantFrom(...indexed).chain(([name, p]) => pathText(p.steps).map((s) => name + s)) : undefined],
        [depth > 0 ? 2 : 0, depth > 0 ? indexedCall(type, depth, true) : undefined],
      );
    });
  }

  /** A call whose value has a container type, then a path into it: `split(…)[0]`, `lower(x[*])[*]`. */
  function indexedCall(type: ValueType, depth: number, wantMapped: boolean): Arb | undefined {
    return memoised(`i|${type}|${depth}|${wantMapped}`, () => {
      const routes = containerTypes.flatMap((c) => pathsFrom(c).filter((p) => p.to === type && p.mapped === wantMapped && p.steps.length <= 2).map((p) => [c, p] as const));
      const usable = routes.filter(([c]) => call(c, depth) !== undefined);
      if (usable.length === 0) return undefined;
      return fc.constantFrom(...usable).chain(([c, p]) => join(call(c, depth)!, pathText(p.steps)));
    });
  }

  /** A call whose value has this type: any function that returns it, or maps its first argument to an array of it. */
  function call(type: ValueType, depth: number): Arb | undefined {
    return memoised(`c|${type}|${depth}`, () => {
      const direct = calls.filter((f) => resultsOf(f).includes(type));
      const element = isArrayType(type) ? elementType(type)! : undefined;
      const mapping = element === undefined ? [] : calls.filter((f) => mapsFirst(f) && f.result === element);
      const choices: Arb[] = [
        ...direct.map((f) => callOf(f, type, depth, false)),
        ...mapping.map((f) => callOf(f, element!, depth, true)),
      ].filter((a): a is Arb => a !== undefined);
      return choices.length === 0 ? undefined : fc.oneof(...choices);
    });
  }

  /** An argument of a type: a variable, a literal or (for Booleans and Boolean arrays) a logical expression. */
  function argument(param: GenParameter, type: ValueType, depth: number, fn: string, index: number): Arb {
    const asVariable = variable(type, depth - 1) ?? literalOf(type);
    // Only Strings, Integers and IP addresses have literals; for the others `both` means a variable.
    const asLiteral = type === 'Bytes' || type === 'Integer' || type === 'Ip' ? literalFor(fn, index, type) : asVariable;
    const logical = type === 'Boolean' ? booleanArgument(depth - 1) : type === 'Array<Boolean>' ? mappedComparison(depth - 1) : undefined;
    if (param.kind === 'literal') return asLiteral;
    if (param.kind === 'field') return options([8, asVariable], [logical ? 3 : 0, logical])!;
    return options([5, asVariable], [4, asLiteral], [logical ? 2 : 0, logical])!;
  }

  /** Arguments of the wrong kind, type or number, and `[*]` where it may not stand. */
  function wrongArgument(param: GenParameter, depth: number): Arb {
    const others = [...types].filter((t) => !param.types.includes(t));
    return weighted(
      [4, param.kind === 'literal' ? (variable(param.types[0], Math.max(0, depth - 1)) ?? fc.constant('http.host')) : literalOf(param.types[0])],
      [4, fc.constantFrom(...others).chain((t) => variable(t, 0) ?? literalOf(t))],
      [2, fc.constantFrom(...others).chain((t) => literalOf(t))],
      [1, mapped(param.types[0], 0) ?? fc.constant('http.request.headers.names[*]')],
      [1, pick('foo', 'cf.foo', 'http.hots', 'ab', 'deadbeef', '1a', '0x10', '$x', '{1}', '- 1')],
    );
  }

  /**
   * A call of `f` whose value has type `type` (for a mapped call, its first argument is
   * `type`-valued with `[*]` in it, and the call is an array of `f`'s result). Mostly right;
   * about one call in six has a wrong argument, one too few or one too many.
   */
  function callOf(f: GenFunction, type: ValueType, depth: number, mapsFirstArgument: boolean): Arb | undefined {
    const firstType = f.result === 'first-argument' ? type : (mapsFirstArgument ? f.parameters[0].types[0] : undefined);
    if (mapsFirstArgument && mapped(firstType!, depth - 1) === undefined) return undefined;
    const maxArgs = Math.min(f.maxArgs ?? f.minArgs + 3, f.minArgs + 3);
    const paramAt = (i: number): GenParameter => f.parameters[Math.min(i, f.parameters.length - 1)];
    const typeAt = (i: number): fc.Arbitrary<ValueType> =>
      f.result === 'first-argument' || (i === 0 && firstType !== undefined) ? fc.constant(firstType ?? type) : fc.constantFrom(...paramAt(i).types);
    const right = (count: number): fc.Arbitrary<string[]> =>
      fc.tuple(
        ...Array.from({ length: count }, (_, i) =>
          i === 0 && mapsFirstArgument ? mapped(firstType!, depth - 1)! : typeAt(i).chain((t) => argument(paramAt(i), t, depth, f.name, i)),
        ),
      );
    const countArb = fc.integer({ min: f.minArgs, max: Math.max(f.minArgs, maxArgs) });
    let args: fc.Arbitrary<string[]> = countArb.chain(right);
    if (f.name === 'hash_in_range') args = fc.tuple(right(3), hashBounds).map(([a, [min, max]]) => [min, max, a[2]]);
    const broken: fc.Arbitrary<string[]> = fc.tuple(args, fc.nat(), fc.constantFrom('wrong', 'wrong', 'fewer', 'more', 'mapped-later')).chain(([a, at, how]) => {
      if (how === 'fewer' || a.length === 0) return fc.constant(a.slice(0, Math.max(0, Math.min(a.length, f.minArgs) - 1)));
      if (how === 'more') return fc.oneof(literalOf('Bytes'), variable('Bytes', 0)!).map((extra) => [...a, ...Array.from({ length: Math.max(1, (f.maxArgs ?? a.length) + 1 - a.length) }, () => extra)]);
      const i = at % a.length;
      // Only a call's first argument may map; the engine says so before it counts arguments.
      if (how === 'mapped-later') return (mapped(paramAt(Math.max(1, i)).types[0], 0) ?? fc.constant('http.request.headers.names[*]')).map((m) => (a.length < 2 ? [...a, m] : a.map((x, j) => (j === Math.max(1, i) ? m : x))));
      return wrongArgument(paramAt(i), depth).map((w) => a.map((x, j) => (j === i ? w : x)));
    });
    return callText(f.name, fc.oneof({ weight: 5, arbitrary: args }, { weight: 1, arbitrary: broken }).chain(commaList));
  }

  // ---------------------------------------------------------------- comparisons

  const INTEGER_OPS = [...EQUALITY, ...ORDERING];
  /** The right-hand sides a left side of this scalar type takes, and rarely one it does not. */
  function rhsComparison(lhs: Arb, type: ValueType): Arb {
    // A field or call on the right (`http.host == cf.zone.name`): the engine takes it after the
    // ordering operators and `&`, if its type is the left side's.
    const variableRhs = variable(type, 1);
    const wrongOp = comparison(lhs, pick(...INTEGER_OPS, ...BITWISE, 'in', 'contains', ...MATCHES, ...WILDCARD), anyValue);
    switch (type) {
      case 'Integer':
        return weighted(
          [6, comparison(lhs, pick(...INTEGER_OPS), integer)],
          [2, comparison(lhs, pick(...BITWISE), integer)],
          [4, comparison(lhs, fc.constant('in'), set(weighted([3, integer], [2, integerRange])))],
          [1, comparison(lhs, fc.constant('in'), listRef)],
          [1, comparison(lhs, pick(...INTEGER_OPS, ...BITWISE), variableRhs ?? integer)],
          [1, wrongOp],
        );
      case 'Ip':
        return weighted(
          [5, comparison(lhs, pick(...EQUALITY), ip)],
          [1, comparison(lhs, pick(...ORDERING), ip)],
          [5, comparison(lhs, fc.constant('in'), set(weighted([3, ip], [3, cidr], [2, ipRange])))],
          [3, comparison(lhs, fc.constant('in'), listRef)],
          [1, comparison(lhs, pick(...EQUALITY, 'in'), weighted([1, cidr], [1, ipRange]))],
          [1, comparison(lhs, pick(...EQUALITY, ...ORDERING), variableRhs ?? ip)],
          [1, wrongOp],
        );
      case 'Bytes':
        return weighted(
          [6, comparison(lhs, pick(...EQUALITY), stringLiteral)],
          [1, comparison(lhs, pick(...ORDERING), stringLiteral)],
          [3, comparison(lhs, fc.constant('contains'), stringLiteral)],
          [3, comparison(lhs, pick(...MATCHES), regexLiteral)],
          [3, comparison(lhs, weighted([6, pick(...WILDCARD)], [1, pick('strict  wildcard', 'strictwildcard', 'strict')]), wildcardLiteral)],
          [3, comparison(lhs, fc.constant('in'), set(stringLiteral))],
          [2, comparison(lhs, fc.constant('in'), listRef)],
          [1, comparison(lhs, pick(...EQUALITY, ...ORDERING), variableRhs ?? stringLiteral)],
          [1, comparison(lhs, pick('contains', 'in', ...MATCHES), weighted([1, variableRhs ?? stringLiteral], [1, set(variableRhs ?? stringLiteral)]))],
          [1, wrongOp],
        );
      case 'Boolean':
        // A Boolean is the test itself; an operator after it is left over to the engine.
        return weighted([20, lhs], [1, comparison(lhs, pick(...EQUALITY, 'in'), pick('true', 'false', '1'))]);
      default:
        // An array or a map compared as a whole: no operator applies.
        return weighted([3, comparison(lhs, pick(...INTEGER_OPS, 'in', 'contains', ...MATCHES), anyValue)], [1, lhs]);
    }
  }

  const scalarTypes = [...types].filter((t) => elementType(t) === undefined);
  const fieldTypesWithContainers = [...new Set(containerFields.map((f) => f.type))];
  const DEPTH = 2;

  /** `lhs op rhs` with a left side of one type, or a Boolean alone. */
  const scalarComparison: Arb = fc.oneof(
    ...scalarTypes.map((t) => ({ weight: t === 'Boolean' ? 3 : 6, arbitrary: rhsComparison(variable(t, DEPTH)!, t) })),
    { weight: 1, arbitrary: fc.constantFrom(...containerTypes.filter((t) => variable(t, 1) !== undefined)).chain((t) => rhsComparison(variable(t, 1)!, t)) },
  );

  /** A comparison whose left side maps (`x[*] == "a"`): an `Array<Boolean>`, for `any`/`all`. */
  function mappedComparison(depth: number): Arb {
    return memoised(`mc|${depth}`, () => {
      // Not Booleans: `any(f(x[*])[*])` maps an Array<Boolean> back to Booleans, which `any` refuses.
      const mappedTypes = scalarTypes.filter((t) => t !== 'Boolean' && mapped(t, depth) !== undefined);
      const boolCalls = variable('Array<Boolean>', depth); // `starts_with(names[*], "a")`, itself an Array<Boolean>
      return options(
        // Mostly strings (headers, arguments, cookies), as rules are written.
        [8, fc.oneof(...mappedTypes.map((t) => ({ weight: t === 'Bytes' ? 6 : t === 'Integer' ? 2 : 1, arbitrary: rhsComparison(mapped(t, depth)!, t) })))],
        [boolCalls ? 2 : 0, boolCalls],
      );
    })!;
  }

  const quantifier = pick('any', 'all');
  /** `any(…)` / `all(…)`: over a mapped comparison, a logical expression of several, a Boolean array; and misuses. */
  const quantified: Arb = fc.letrec<{ arrays: string; q: string }>((tie) => ({
    // Logical expressions of Boolean arrays: only in parentheses or after `not` inside `any(`.
    arrays: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 6, arbitrary: mappedComparison(DEPTH) },
      { weight: 1, arbitrary: fc.tuple(pick(...NOT), sp, osp, tie('arrays')).map(([n, s, o, a]) => (n === 'not' ? `not${s}${a}` : `!${o}${a}`)) },
      { weight: 1, arbitrary: fc.tuple(tie('arrays'), pick(...LOGICAL), sp, sp, tie('arrays')).map(([l, op, s1, s2, r]) => `(${l}${s1}${op}${s2}${r})`) },
    ),
    q: weighted(
      [40, fc.tuple(quantifier, beforeParen, osp, tie('arrays'), osp).map(([q, b, o1, a, o2]) => `${q}${b}(${o1}${a}${o2})`)],
      // Unparenthesised `and` inside `any(`: the engine ends the argument at the first comparison.
      [1, fc.tuple(quantifier, tie('arrays'), pick(...LOGICAL), tie('arrays')).map(([q, a, op, b]) => `${q}(${a} ${op} ${b})`)],
      [1, fc.tuple(quantifier, weighted([2, variable('Boolean', 1)!], [2, scalarComparison], [1, pick('true', '1', '"a"', '')], [1, fc.constantFrom(...fieldTypesWithContainers).chain((t) => variable(t, 0)!)])).map(([q, a]) => `${q}(${a})`)],
      [1, fc.tuple(quantifier, tie('q')).map(([q, inner]) => `${q}(${inner})`)],
      [1, pick('any', 'all', 'any()', 'anyx(http.request.headers.names[*] == "a")', 'any\t(http.request.headers.names[*] == "a")')],
    ),
  })).q;

  /** A Boolean test: a Boolean field or call alone, `call(x[*], …)[0]`, a comparison. */
  const booleanValue = variable('Boolean', DEPTH)!;

  /** A Boolean argument (coalesce): a Boolean value, a comparison, `not …`, `(… and …)`, a quantifier. */
  function booleanArgument(depth: number): Arb {
    return memoised(`ba|${depth}`, () =>
      weighted(
        [6, variable('Boolean', Math.max(0, depth))!],
        [3, rhsComparison(variable('Bytes', 0)!, 'Bytes')],
        [1, fc.tuple(pick(...NOT), sp, variable('Boolean', 0)!).map(([n, s, b]) => (n === 'not' ? `not${s}${b}` : `!${b}`))],
        [1, fc.tuple(variable('Boolean', 0)!, pick(...LOGICAL), variable('Boolean', 0)!, fc.boolean()).map(([a, op, b, paren]) => (paren ? `(${a} ${op} ${b})` : `not ${a} ${op} ${b}`))],
        // Unparenthesised `and` after a field: the engine ends the argument at the first test.
        [1, fc.tuple(variable('Boolean', 0)!, pick(...LOGICAL), variable('Boolean', 0)!).map(([a, op, b]) => `${a} ${op} ${b}`)],
        [1, quantified],
      ),
    )!;
  }

  /** Names that are no field or function, or a field in the wrong place. */
  const typo = (name: string) => fc.nat({ max: name.length - 1 }).map((i) => name.slice(0, i) + name.slice(i + 1));
  const odd: Arb = weighted(
    [3, comparison(pick(...fields.map((f) => f.name)).chain(typo), pick('==', 'eq', 'in', 'contains'), anyValue)],
    [2, fc.constantFrom(...calls.map((f) => f.name)).chain((n) => typo(n).map((t) => `${t}(http.host) == "a"`))],
    [2, pick('true', 'false', 'TRUE')],
    [2, pick('ip.proto == "tcp"', 'tcp.flags.syn', 'sip', 'ip.dst == 1.2.3.4', 'bit_slice(ip, 0, 8) == 1', 'cf.colo.name == "a"', 'Lower(http.host) == "a"', 'HTTP.HOST == "a"')],
    [2, fc.constantFrom(...fields.map((f) => f.name)).chain((n) => fc.tuple(wrongStep(fields.find((f) => f.name === n)!.type), pick(' == "a"', ' == 1', '', ' in {1}')).map(([s, r]) => `${n}${s}${r}`))],
    // A misspelt name that starts with hex digits (`cf.…`) inside a call: the engine's argument
    // reader tries it as a literal too and says "unrecognised input" there.
    [1, fc.constantFrom(...fields.map((f) => f.name).filter((n) => /^[a-f0-9]{2}\./.test(n)), 'cf.foo').map((n) => `lower(${n}x) == "a"`)],
  );

  /** One comparison or test. */
  const term: Arb = weighted([14, scalarComparison], [3, booleanValue], [5, quantified], [1, mappedComparison(DEPTH)], [1, odd]);

  const expression = logicOver(term);

  /**
   * The nesting limit (128 levels): `(`, `not`/`!`, a call and a quantifier each open one, an
   * index does not; and the documented length limit (4,096 characters).
   */
  const opener = pick('(', 'not ', '!', 'coalesce(');
  const limits: Arb = weighted(
    [2, fc.tuple(fc.integer({ min: 120, max: 135 }), pick('(', 'not ', '!')).map(([n, open]) => `${open.repeat(n)}ssl${open === '(' ? ')'.repeat(n) : ''}`)],
    [3, fc.integer({ min: 124, max: 133 }).map((n) => `${'lower('.repeat(n)}http.host${')'.repeat(n)} == "a"`)],
    // Levels of every kind around a quantifier (one level more): `coalesce(` keeps a Boolean inside.
    [2, fc.array(opener, { minLength: 118, maxLength: 132 }).map((levels) =>
      levels.reduceRight((inner, o) => (o === '(' ? `(${inner})` : o === 'coalesce(' ? `coalesce(${inner}, ssl)` : `${o}${inner}`), 'any(http.request.headers.names[*] == "a")'),
    )],
    [1, fc.integer({ min: 4080, max: 4110 }).map((n) => `http.host in {${'"a" '.repeat(Math.floor((n - 14) / 4))}}`.slice(0, n - 1) + '}')],
  );

  const wellFormed: Arb = fc.tuple(edge, expression, edge).map(([a, e, b]) => a + e + b);
  return {
    wellFormed,
    expression: weighted(
      [300, wellFormed],
      [100, fc.tuple(expression, fc.array(mutation, { minLength: 1, maxLength: 2 })).map(([e, ms]) => ms.reduce(mutate, e))],
      [3, limits],
    ),
  };
}
