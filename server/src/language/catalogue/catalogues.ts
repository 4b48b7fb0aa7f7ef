import type { Catalogue, FieldInfo, FunctionInfo, PhaseFamily } from './entries';
import { phaseFamily } from './families';
import { ALL_FUNCTIONS } from './generated/functions';
import { HTTP_FIELDS, HTTP_FUNCTION_NAMES } from './generated/http';
import { MAGIC_FIELDS, MAGIC_FUNCTION_NAMES } from './generated/magic';

export type { Catalogue, ExpressionKind, FieldInfo, FieldValueKind, FunctionInfo, ParameterInfo, PhaseFamily, Plan } from './entries';
export { PLANS } from './plans';
export { MAGIC_PHASES, phaseFamily } from './families';
export { CATALOGUE_SOURCES, DOCUMENTED_PHASES, OPERATOR_PLANS } from './generated/sources';

const FUNCTION_BY_NAME = new Map(ALL_FUNCTIONS.map((f) => [f.name, f]));

function family(name: PhaseFamily, fields: readonly FieldInfo[], functionNames: readonly string[]): Catalogue {
  return {
    family: name,
    complete: true,
    fields: new Map(fields.map((f) => [f.name, f])),
    functions: new Map(functionNames.map((n) => [n, FUNCTION_BY_NAME.get(n)!])),
  };
}

const CATALOGUES: Readonly<Record<PhaseFamily, Catalogue>> = {
  magic: family('magic', MAGIC_FIELDS, MAGIC_FUNCTION_NAMES),
  http: family('http', HTTP_FIELDS, HTTP_FUNCTION_NAMES),
};

function sameFunctionTypes(a: FunctionInfo, b: FunctionInfo): boolean {
  const shape = (f: FunctionInfo) => JSON.stringify([f.result, f.minArgs, f.maxArgs ?? null, f.parameters.map((p) => [p.kind, p.types, p.repeats ?? false])]);
  return a === b || shape(a) === shape(b);
}

/**
 * For a phase we do not know: every field and function of both families, so that what is known
 * is still type-checked and described; a name whose families disagree on its type is left out
 * (no guess). HTTP first: most rules are HTTP rules, so its description of a shared name wins.
 */
function union(): Catalogue {
  const fields = new Map<string, FieldInfo>();
  const clashingFields = new Set<string>();
  const functions = new Map<string, FunctionInfo>();
  const clashingFunctions = new Set<string>();
  for (const catalogue of [CATALOGUES.http, CATALOGUES.magic]) {
    for (const field of catalogue.fields.values()) {
      const seen = fields.get(field.name);
      if (!seen) fields.set(field.name, field);
      else if (seen.type !== field.type) clashingFields.add(field.name);
    }
    for (const fn of catalogue.functions.values()) {
      const seen = functions.get(fn.name);
      if (!seen) functions.set(fn.name, fn);
      else if (!sameFunctionTypes(seen, fn)) clashingFunctions.add(fn.name);
    }
  }
  for (const name of clashingFields) fields.delete(name);
  for (const name of clashingFunctions) functions.delete(name);
  return { family: undefined, complete: false, fields, functions };
}

const UNKNOWN_PHASE: Catalogue = union();

/** Every field and function name of some phase, those whose families disagree on their type too. */
const NAMES_OF_SOME_PHASE: ReadonlySet<string> = new Set([...HTTP_FIELDS, ...MAGIC_FIELDS, ...ALL_FUNCTIONS].map((entry) => entry.name));

/**
 * Whether some phase has a field or function of this name. Where no phase is given, a name no
 * phase has is wrong in whichever phase the ruleset goes to; any other may be right there.
 */
export function isNameOfSomePhase(name: string): boolean {
  return NAMES_OF_SOME_PHASE.has(name);
}

/**
 * The fields and functions of a phase: the same object for every phase of a family, and one
 * incomplete union for a phase of neither family (or none given), where an unknown name may exist.
 */
export function catalogueFor(phase: string | undefined): Catalogue {
  const name = phaseFamily(phase);
  return name === undefined ? UNKNOWN_PHASE : CATALOGUES[name];
}
