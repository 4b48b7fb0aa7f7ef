/**
 * The shapes of the catalogue's entries: what the generated data (generated/*.ts, written by
 * `npm run catalogue`) holds and catalogues.ts serves per phase. A module of its own so that the
 * generated data and the code that indexes it both depend on it and not on each other.
 */

import type { ValueType } from '../ast';
import type { Plan } from './plans';

export type { Plan } from './plans';

export type PhaseFamily = 'magic' | 'http';
export type ExpressionKind = 'filter' | 'value';

/**
 * What a field's values are, beyond their type: drives value checks, hover and completion.
 * `method`: never holds a lowercase letter; `lowercase`: never holds an uppercase letter; `continent` and
 * `one-of`: exactly one of FieldInfo.oneOf.
 */
export type FieldValueKind =
  | 'country'
  | 'protocol'
  | 'port'
  | 'tcp-flags'
  | 'icmp-type'
  | 'icmp-code'
  | 'raw-header'
  | 'method'
  | 'lowercase'
  | 'continent'
  | 'one-of';

export interface FieldInfo {
  readonly name: string;
  /** From the engine; from the docs for a field the engine lacks (inEngine false). */
  readonly type: ValueType;
  /** One line, in our words. */
  readonly doc: string;
  /** An expression that uses the field; the engine accepts it (a value expression where the field is value-only). */
  readonly example: string;
  /** Completion group: 'URI', 'Headers', 'Body', 'Response', 'Geolocation', 'Packet', … */
  readonly group: string;
  /** Inclusive documented bounds of the Integer values it holds (of its elements, for an array or map). */
  readonly range?: readonly [bigint, bigint];
  readonly values?: FieldValueKind;
  /** The documented closed set of its values (of its elements, for an array), for `continent` and `one-of`. */
  readonly oneOf?: readonly string[];
  /** Its map keys are lowercase (header names), so an index with a capital letter never matches. */
  readonly keys?: 'lowercase';
  /** Least plan the docs name; absent = every plan. */
  readonly plan?: Plan;
  /** What else it needs, e.g. 'Enterprise add-on: Bot Management'. */
  readonly planNote?: string;
  readonly deprecated?: { readonly replacements: readonly string[] };
  /** Where the docs limit it; absent = every phase of its family, filter and value alike. */
  readonly only?: { readonly phases?: readonly string[]; readonly expressions?: ExpressionKind; readonly why: string };
  /** false: documented but not in the engine's scheme (each such field is a row of docs/engine.md's table). */
  readonly inEngine: boolean;
}

export interface ParameterInfo {
  readonly name: string;
  readonly doc: string;
  /** Accepted types (any of). */
  readonly types: readonly ValueType[];
  /** The engine's argument kind: a field/call/index (a "variable"), a literal, or either. */
  readonly kind: 'field' | 'literal' | 'both';
  readonly optional?: boolean;
  /** Stands for one or more arguments (concat, coalesce, remove_query_args, lookup_json_*). */
  readonly repeats?: boolean;
  /** Documented bounds of an Integer literal argument. */
  readonly range?: readonly [bigint, bigint];
  /** The letters a literal String argument of options is made of, when the docs list them all (`url_decode`'s `r` and `u`). */
  readonly letters?: string;
}

export interface FunctionInfo {
  readonly name: string;
  /** As shown to users: `lower(source: String): String`. */
  readonly signature: string;
  /** One line, in our words. */
  readonly doc: string;
  readonly example: string;
  readonly parameters: readonly ParameterInfo[];
  readonly minArgs: number;
  /** undefined: no upper bound. */
  readonly maxArgs?: number;
  /** concat and coalesce return their first argument's type, and take only arguments of that type. */
  readonly result: ValueType | 'first-argument';
  /** Where the docs allow it. */
  readonly expressions: readonly ExpressionKind[];
  /** Only these phases, when the docs say so. */
  readonly phases?: readonly string[];
  readonly plan?: Plan;
  readonly planNote?: string;
  /** The docs allow it once in an expression (regex_replace, wildcard_replace). */
  readonly oncePerExpression?: boolean;
  /** The functions the docs say it cannot be nested with, either inside the other (regex_replace and wildcard_replace). */
  readonly notNestedWith?: readonly string[];
  /** any / all: logical terms, not calls. */
  readonly quantifier?: boolean;
  /** false: documented but not in the engine's scheme. */
  readonly inEngine: boolean;
}

export interface Catalogue {
  /** undefined for a phase we do not know. */
  readonly family?: PhaseFamily;
  /** An unknown field or function is an error only when true. */
  readonly complete: boolean;
  readonly fields: ReadonlyMap<string, FieldInfo>;
  readonly functions: ReadonlyMap<string, FunctionInfo>;
}
