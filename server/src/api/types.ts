/**
 * The objects of the Rulesets HTTP API (`shared/spec/API.md`), as the service returns them
 * and as requests send them. Shared by the client and the emulator. Field lists follow the
 * service's official TypeScript SDK (`src/resources/rulesets/rules.ts`).
 */

export type RulesetKind = 'root' | 'custom' | 'managed' | 'zone';

/** A rule as the service returns it. */
export interface Rule {
  readonly id: string;
  /** The ruleset version in which this rule last changed. */
  readonly version: string;
  /** A stable reference of the rule; the rule id unless the author set one. */
  readonly ref: string;
  readonly action: string;
  readonly action_parameters?: Readonly<Record<string, unknown>>;
  readonly expression: string;
  readonly description: string;
  readonly enabled: boolean;
  /** Allowed on `skip` rules only. */
  readonly logging?: { readonly enabled: boolean };
  /** Managed rulesets only: the tags `rulesByTag` selects by. */
  readonly categories?: readonly string[];
  /** Rate limiting rules; kept as they are on a round trip. */
  readonly ratelimit?: Readonly<Record<string, unknown>>;
  /** Kept as it is on a round trip. */
  readonly exposed_credential_check?: Readonly<Record<string, unknown>>;
  /** ISO 8601. */
  readonly last_updated: string;
}

/** A rule as a request sends it: the service fills in the rest. */
export interface RuleInput {
  /** Sent when updating a whole ruleset: the rule keeps its id (and `ref`). */
  readonly id?: string;
  readonly ref?: string;
  readonly action: string;
  readonly action_parameters?: Readonly<Record<string, unknown>>;
  readonly expression: string;
  readonly description?: string;
  readonly enabled?: boolean;
  readonly logging?: { readonly enabled: boolean };
  readonly categories?: readonly string[];
  readonly ratelimit?: Readonly<Record<string, unknown>>;
  readonly exposed_credential_check?: Readonly<Record<string, unknown>>;
}

/** One version of a ruleset, with its rules. */
export interface Ruleset {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly kind: RulesetKind;
  readonly phase: string;
  /** A string such as `"5"`. */
  readonly version: string;
  /** ISO 8601. */
  readonly last_updated: string;
  /** What the ruleset is for, set by the service: `firewall_custom` on a zone's custom rules entry point. */
  readonly source?: string;
  readonly rules: readonly Rule[];
}

/** An item of the list of rulesets: a ruleset without its rules. */
export type RulesetSummary = Omit<Ruleset, 'rules'>;

/** An item of the list of a ruleset's versions: the version without its rules. */
export type VersionListItem = Omit<Ruleset, 'rules'>;

/** The body of "create ruleset". */
export interface CreateRulesetBody {
  readonly name: string;
  readonly kind: RulesetKind;
  readonly phase: string;
  readonly description?: string;
  readonly rules: readonly RuleInput[];
}

/** The body of "update or deploy": the complete list of rules; the rest may be left out. */
export interface UpdateRulesetBody {
  readonly name?: string;
  readonly kind?: RulesetKind;
  readonly phase?: string;
  readonly description?: string;
  readonly rules: readonly RuleInput[];
}

/**
 * Where "add rule" puts a rule, or where "update rule" moves it: exactly one of these.
 * `before: ""` is first, `after: ""` is last, `index` counts from 1.
 */
export type Position = { readonly before: string } | { readonly after: string } | { readonly index: number };

/** An error or message of the envelope. */
export interface ApiMessage {
  readonly code?: number;
  readonly message: string;
  /** The part of the request body at fault, a JSON pointer such as `/rules/3/expression`. */
  readonly pointer?: string;
}

/** The envelope of every JSON response, as the wire has it. */
export interface Envelope<T = unknown> {
  readonly result: T;
  readonly success: boolean;
  readonly errors: readonly WireMessage[];
  readonly messages: readonly WireMessage[];
}

export interface WireMessage {
  readonly code?: number;
  readonly message: string;
  readonly source?: { readonly pointer?: string };
}

/**
 * Fields of a rule that the service sets itself: never part of what a request sends as the
 * rule's definition (its `id` is, when a deploy updates the rule in place).
 */
export const SERVICE_SET_RULE_FIELDS: readonly string[] = ['version', 'last_updated'];

/**
 * Fields of a ruleset that the service sets and that a pulled file leaves out (its `id` and
 * `version` stay: a deploy reads them). A request never sends them: its body is built from the
 * file's name, kind, phase, description and rules alone (local-ruleset.ts).
 */
export const SERVICE_SET_RULESET_FIELDS: readonly string[] = ['last_updated', 'source'];

/**
 * The whole definition of a live rule, as "update rule" (PATCH) takes it: every field the
 * rule has, unused ones (`ratelimit`, `categories`, …) included, without those the service sets
 * and the id (the request's path names it). Change fields of this and send it: the service
 * replaces the rule with what it is sent, so a field left out would be lost.
 */
export function ruleDefinition(rule: Rule): RuleInput {
  const definition: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rule)) {
    if (key === 'id' || SERVICE_SET_RULE_FIELDS.includes(key) || value === undefined) continue;
    definition[key] = value;
  }
  return definition as unknown as RuleInput;
}
