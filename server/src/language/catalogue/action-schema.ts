/**
 * The shape of what a rule may carry beside its expression: the `action_parameters` of each
 * action and the rule-level objects (`ratelimit`, `exposed_credential_check`, `logging`), as
 * data. The types come from the API's own types (generated/action-parameters.ts, made by
 * `npm run catalogue:actions`); what those types cannot say (which phases allow an action, which
 * strings are expressions, documented ranges and exclusive members) is in actions.ts, each fact
 * with its source.
 */

/** What an expression-bearing string is: a filter (returns a Boolean) or a value expression. */
export type ParameterExpressionKind = 'filter' | 'value';

/**
 * An older form of a value that the service still takes (and gives back), though the API's
 * types have only today's: a union member marked with it is accepted with a note naming
 * today's form, never in a Terraform file (whose v5 provider takes only today's form).
 */
export interface LegacyForm {
  /** How the older form is named in the note: `` `include` as a bare list ``; `KEY` stands for the key it is under. */
  readonly described: string;
  /** Today's form as the note and the fix's title write it: `{"all": true}`. */
  readonly current: string;
  /** How the fix writes today's form: the whole text, or an object holding the value as written under this key. */
  readonly rewrite: { readonly text: string } | { readonly wrapIn: string };
}

export type ParameterType =
  | {
      readonly kind: 'string';
      /** The only strings allowed (a string-literal union in the API's types). */
      readonly values?: readonly string[];
      /** The string is an expression of this kind, checked as one on its own characters. */
      readonly expression?: ParameterExpressionKind;
      /** An empty string stands for a default (a `counting_expression` of `""` is the rule's own expression): no expression to check. */
      readonly emptyMeansDefault?: boolean;
      /** Documented most characters. */
      readonly maxLength?: number;
      readonly legacy?: LegacyForm;
    }
  | {
      readonly kind: 'number';
      /** The only numbers allowed (a number-literal union, e.g. redirect status codes). */
      readonly values?: readonly number[];
      /** Documented bounds, inclusive. */
      readonly min?: number;
      readonly max?: number;
      readonly integer?: boolean;
    }
  | {
      readonly kind: 'boolean';
      /** The only value allowed, when the API's types name one (`disable_apps?: true`). */
      readonly values?: readonly boolean[];
    }
  | {
      readonly kind: 'array';
      readonly items: ParameterType;
      /** Documented fewest items (`algorithms` needs one). */
      readonly minItems?: number;
      /** Documented most items. */
      readonly maxItems?: number;
      readonly legacy?: LegacyForm;
    }
  | {
      readonly kind: 'object';
      readonly keys: readonly ParameterKey[];
      /** Groups of keys of which at most one may be given (`from_list` / `from_value`). */
      readonly exclusive?: readonly (readonly string[])[];
      /** Groups of keys of which exactly one must be given. */
      readonly oneRequired?: readonly (readonly string[])[];
      /** Groups of keys of which at least one must be given (a rewrite's `path`, `query` or both). */
      readonly anyRequired?: readonly (readonly string[])[];
      /** A map: any key is allowed, each value of this type (`headers: {Name: …}`). */
      readonly values?: ParameterType;
    }
  /** One of several shapes (a header operation: set, add or remove). */
  | { readonly kind: 'union'; readonly types: readonly ParameterType[] }
  /** The API's types say nothing more (`unknown`): anything is accepted. */
  | { readonly kind: 'any' };

export interface ParameterKey {
  readonly key: string;
  readonly type: ParameterType;
  /** Not optional in the API's types (or documented as required). */
  readonly required: boolean;
}

export interface ActionSchema {
  readonly action: string;
  /** The type of `action_parameters`; undefined when the action takes none. */
  readonly parameters?: ParameterType & { readonly kind: 'object' };
}

/** An object type: what `action_parameters` and the rule-level objects are. */
export type ObjectParameterType = ParameterType & { readonly kind: 'object' };

/** The rule-level objects beside `action_parameters`, the same in every rule of the API's types. */
export const RULE_OBJECT_KEYS = ['ratelimit', 'exposed_credential_check', 'logging'] as const;
export type RuleObjectKey = (typeof RULE_OBJECT_KEYS)[number];
