/**
 * The file `rulesets pull` writes, and the minimal edits `deploy`, `create` and the rule
 * commands make to a local file afterwards (its version, its id, new rules' ids), which keep
 * its comments, quoting and layout.
 */
import * as YAML from 'yaml';
import type { HostFormat } from '../documents/host/index';
import { setValues, type ValueEdit } from '../documents/host/index';
import { readLocalRuleset, type LocalRuleset, type RulesetBody } from './local-ruleset';
import { SERVICE_SET_RULE_FIELDS, SERVICE_SET_RULESET_FIELDS, type Ruleset } from './types';

/** Keys of a rule that the service sets and that a pull leaves out. */
const SERVER_RULE_KEYS = new Set(SERVICE_SET_RULE_FIELDS);
const RULESET_ORDER = ['id', 'name', 'description', 'kind', 'phase', 'version', 'rules'];
const RULE_ORDER = ['id', 'ref', 'action', 'action_parameters', 'expression', 'description', 'enabled', 'logging', 'categories'];

/**
 * The file `rulesets pull` writes: keys in a stable order (`id`, `name`, `description`, `kind`,
 * `phase`, `version`, `rules`; in a rule `id`, `ref` unless it is the id, `action`,
 * `action_parameters`, `expression`, `description` unless empty, `enabled`, `logging`, then
 * any other key by name), nested objects by key, without what changes when the ruleset does
 * not (`last_updated`, a rule's `version`) nor the ruleset's `source`, which only the service
 * sets, but with the ruleset's `id` and the `version` the file is based on. JSON with two-space
 * indentation, or YAML; both end with a line break.
 */
export function serializeRuleset(ruleset: Ruleset, format: HostFormat): string {
  return serializeValue(canonicalRuleset(ruleset as unknown as Record<string, unknown>), format);
}

function serializeValue(value: unknown, format: HostFormat): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  // lineWidth 0: an expression stays on its line, so a diff shows what changed in it.
  return new YAML.Document(value).toString({ lineWidth: 0, minContentWidth: 0 });
}

function canonicalRuleset(ruleset: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of RULESET_ORDER) {
    if (key === 'rules') out.rules = ((ruleset.rules as unknown[] | undefined) ?? []).map((r) => canonicalRule(r as Record<string, unknown>));
    else if (key === 'description') out.description = typeof ruleset.description === 'string' ? ruleset.description : '';
    else if (ruleset[key] !== undefined && ruleset[key] !== '') out[key] = ruleset[key];
  }
  for (const key of Object.keys(ruleset).sort()) {
    if (!(key in out) && !SERVICE_SET_RULESET_FIELDS.includes(key) && ruleset[key] !== undefined) out[key] = sortKeys(ruleset[key]);
  }
  return out;
}

function canonicalRule(rule: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of RULE_ORDER) {
    const value = rule[key];
    if (value === undefined) continue;
    if (key === 'ref' && value === rule.id) continue;
    if (key === 'description' && value === '') continue;
    out[key] = sortKeys(value);
  }
  if (out.enabled === undefined) out.enabled = true;
  // `enabled` keeps its place before `logging` when it was filled in.
  const ordered: Record<string, unknown> = {};
  for (const key of RULE_ORDER) if (out[key] !== undefined) ordered[key] = out[key];
  for (const key of Object.keys(rule).sort()) {
    if (!(key in ordered) && !SERVER_RULE_KEYS.has(key) && !RULE_ORDER.includes(key) && rule[key] !== undefined) ordered[key] = sortKeys(rule[key]);
  }
  return ordered;
}

/**
 * Recursive: values come from an answer of the API or a local file, both refused past
 * MAX_NESTING levels (client.ts, local-ruleset.ts).
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/**
 * The local file as a pull of it would look once deployed on top of `deployed`: what the
 * diff compares with the live version, so that only what the deploy changes shows.
 */
export function localAsDeployed(local: LocalRuleset, deployed: Ruleset | undefined): string {
  const body = local.body;
  const merged: Record<string, unknown> = {
    id: deployed?.id ?? local.id,
    // An octorules section or a file without a `name` names no ruleset: a new entry point
    // gets the service's name, an existing one keeps its own; so with `kind`.
    name: local.rulesOnly && !deployed ? undefined : (body.name ?? deployed?.name),
    // An update without `description` keeps the live one.
    description: body.description ?? deployed?.description ?? '',
    kind: body.kind ?? deployed?.kind,
    phase: body.phase,
    version: deployed?.version,
    rules: body.rules,
  };
  return serializeValue(canonicalRuleset(merged), local.format);
}

/** The body a ruleset as returned comes to when pulled into a file and read back. */
export function rulesetToBody(ruleset: Ruleset): RulesetBody {
  return readLocalRuleset('ruleset.json', serializeRuleset(ruleset, 'json')).body;
}

/** The local file's text with its top-level `version` set: a minimal edit that keeps comments and layout. */
export function withVersion(local: LocalRuleset, version: string): string {
  return setValues(local.text, local.format, [{ path: ['version'], value: version }]);
}

/**
 * The local file's text after a deploy or create of it answered `ruleset`: `version` set, and
 * with `recordId`, the ruleset's `id` too; rules the file lists without an `id` get the one
 * the service gave them (the answer lists the rules in the file's order), so that the next
 * deploy updates them instead of replacing them with new ones.
 */
export function recordDeployed(local: LocalRuleset, ruleset: Ruleset, options: { recordId?: boolean } = {}): string {
  // A Terraform resource or octorules section has no place for an id or a version (Terraform
  // keeps them in its state); its rules are matched to the live ones by `ref`.
  if ((local.layout ?? 'api') !== 'api') return local.text;
  const edits: ValueEdit[] = [];
  if (options.recordId) edits.push({ path: ['id'], value: ruleset.id });
  edits.push({ path: ['version'], value: ruleset.version });
  if (ruleset.rules.length === local.body.rules.length) {
    local.body.rules.forEach((rule, i) => {
      if (rule.id === undefined && ruleset.rules[i]?.id) edits.push({ path: ['rules', i, 'id'], value: ruleset.rules[i].id });
    });
  }
  return setValues(local.text, local.format, edits);
}
