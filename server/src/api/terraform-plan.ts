/**
 * `rulesets plan --terraform-plan FILE`: Terraform's own plan of its `cloudflare_ruleset`
 * resources (`terraform show -json PLANFILE`, or OpenTofu's `tofu show -json`), read rule by rule
 * with the diff `rulesets plan` uses (`diffRuleset`): the state's rules (`change.before`) are the
 * live side, the planned ones (`change.after`) the local side, matched by `ref`, then id, then
 * content, so that a reorder reads as moves, not as the whole list replaced.
 *
 * The file's shape is HashiCorp's "JSON Output Format" (developer.hashicorp.com/terraform/
 * internals/json-format): `resource_changes[]` with `address`, `mode`, `type` and `change`
 * (`actions`, `before`, `after`, `after_unknown`, `replace_paths`).
 *
 * What the provider does with rule ids, from its source (cloudflare/terraform-provider-cloudflare
 * v5.22.0, a2efdc5786ae9726d56928dbfe91933bd92404ca): `ModifyPlan` in
 * internal/services/ruleset/resource.go gives a planned rule the id of the state's rule with the
 * same `ref`; any other rule's id is unknown in the plan, and model.go marks a rule's `id` as
 * computed (`json:"id,computed"`), so it is not sent on update: that rule gets a new id. This
 * module reads the plan's own `after_unknown` for it rather than guessing from positions.
 * Nothing here makes a request.
 */
import { PROVIDER_V4, PROVIDER_V5 } from '../language/catalogue/generated/provider-schema';
import { providerAttribute, type ProviderAttribute } from '../language/catalogue/provider-schema';
import type { Scope } from './client';
import type { Destination } from './deploy';
import { diffRuleset, type EstatePlan, type FieldChange, type PlanSkip, type RuleCounts, type RulePlan, type RulesetPlan, type TargetPlan } from './plan';
import type { Rule, RuleInput, Ruleset } from './types';

/** A Terraform plan file that cannot be read: not JSON, not a plan, a format this version does not know. */
export class TerraformPlanError extends Error {}

const RESOURCE_TYPE = 'cloudflare_ruleset';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The plan's `cloudflare_ruleset` changes, each a ruleset of the estate plan (label: the
 * resource's address; target: its zone or account, as far as the plan knows it), so that the
 * renderers of `rulesets plan` print it. Resources Terraform leaves as they are (`no-op`) are
 * planned too, with nothing to do, so that they are counted. `file` is how the plan file is shown.
 */
export function terraformPlanOf(text: string, file: string): EstatePlan {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new TerraformPlanError(`${file}: not JSON (${(error as Error).message}); write it with \`terraform show -json PLANFILE > ${file}\``);
  }
  if (!isObject(parsed) || typeof parsed.format_version !== 'string' || (!('resource_changes' in parsed) && !('planned_values' in parsed))) {
    throw new TerraformPlanError(`${file}: not a Terraform plan in JSON: it has no \`format_version\` and \`resource_changes\`; write it with \`terraform show -json PLANFILE > ${file}\` (a saved plan, \`terraform plan -out PLANFILE\`, not the state)`);
  }
  const major = parsed.format_version.split('.')[0];
  if (major !== '0' && major !== '1') throw new TerraformPlanError(`${file}: Terraform's JSON plan format ${parsed.format_version} is newer than this version reads (1.x)`);
  const changes = Array.isArray(parsed.resource_changes) ? parsed.resource_changes : [];
  const targets = new Map<string, { target: TargetPlan['target']; rulesets: RulesetPlan[]; errors: never[]; skipped: PlanSkip[] }>();
  const targetOf = (scope: Scope, label: string) => {
    const key = `${scope.kind}:${scope.id}`;
    let t = targets.get(key);
    if (!t) targets.set(key, (t = { target: { scope, label }, rulesets: [], errors: [], skipped: [] }));
    return t;
  };
  for (const change of changes) {
    if (!isObject(change) || change.type !== RESOURCE_TYPE || change.mode === 'data' || !isObject(change.change)) continue;
    // A deposed object (left by a create-before-destroy that failed) has the address of the resource it was.
    const address = `${typeof change.address === 'string' ? change.address : RESOURCE_TYPE}${typeof change.deposed === 'string' ? ` (deposed object ${change.deposed})` : ''}`;
    const c = change.change;
    const actions = Array.isArray(c.actions) ? c.actions.filter((a): a is string => typeof a === 'string') : [];
    const before = isObject(c.before) ? c.before : undefined;
    const after = isObject(c.after) ? c.after : undefined;
    const unknown = isObject(c.after_unknown) ? c.after_unknown : {};
    const { scope, label } = scopeOf(after ?? before ?? {}, unknown);
    const t = targetOf(scope, label);
    if (actions.includes('read') || actions.includes('forget') || actions.length === 0) {
      t.skipped.push({ file, label: address, reason: `Terraform plans to ${actions.join(' and ') || 'do nothing it names'} here, which changes no rule` });
      continue;
    }
    const phase = String((after ?? before)?.phase ?? '');
    if (after && unknown.rules === true) {
      t.skipped.push({ file, label: address, reason: 'its rules are known only after apply (they come from values Terraform has yet to learn), so they cannot be compared rule by rule' });
      continue;
    }
    const creates = actions.includes('create');
    const deletes = actions.includes('delete');
    const replaced = creates && deletes;
    const liveRules = before && !(creates && !deletes) ? (arrayOf(before.rules).map((r) => normaliseRule(r, {})) as Rule[]) : undefined;
    const localRules = after && !(deletes && !creates) ? arrayOf(after.rules).map((r, i) => ({ rule: normaliseRule(r, unknownAt(unknown.rules, i)), unknown: unknownFields(unknownAt(unknown.rules, i)) })) : [];
    const live: Ruleset | undefined = liveRules ? ({ id: String(before?.id ?? ''), name: String(before?.name ?? ''), kind: String(before?.kind ?? ''), phase, version: String(before?.version ?? ''), description: typeof before?.description === 'string' ? before.description : undefined, rules: liveRules } as unknown as Ruleset) : undefined;
    matchUnnamedByContent(localRules, liveRules ?? []);
    // A description Terraform plans as null is cleared (diffRuleset reads one left out as kept).
    const plannedDescription = typeof after?.description === 'string' ? after.description : unknown.description === true ? undefined : '';
    const local = { description: deletes && !creates ? live?.description : plannedDescription, rules: localRules.map((r) => r.rule as RuleInput) };
    const diff = diffRuleset(local, live, { owned: true });
    const rules = withUnknowns(diff.rules, localRules, liveRules ?? [], replaced);
    const settings: FieldChange[] = [...diff.settings];
    if (live && after && !deletes && typeof after.name === 'string' && after.name !== before?.name) settings.push({ path: 'name', old: before?.name, new: after.name });
    if (live && after && unknown.description === true) {
      // Left out of the planned side, the description would read as cleared: it is unknown instead.
      const at = settings.findIndex((s) => s.path === 'description');
      const known = { path: 'description', old: live.description ?? '', unknown: true as const };
      if (at === -1) settings.push(known);
      else settings[at] = known;
    }
    const destination: Destination = before?.kind === 'custom' || after?.kind === 'custom' ? { kind: 'ruleset', id: typeof before?.id === 'string' && !replaced ? before.id : '(known after apply)' } : { kind: 'entrypoint', phase };
    const note = noteOf(actions, c.replace_paths, typeof change.action_reason === 'string' ? change.action_reason : undefined, phase);
    t.rulesets.push({
      file,
      label: address,
      destination,
      phase,
      ...(live && !(creates && !deletes) && before?.version !== undefined ? { liveVersion: String(before.version) } : {}),
      // The resource holds every rule of its ruleset (the diff removes what it leaves out); no --owns-phase is involved.
      owned: false,
      warnings: [],
      ...(note ? { note } : {}),
      rules,
      settings,
      counts: countsOf(rules),
      written: diff.written,
    });
  }
  const targetPlans = [...targets.values()];
  const counts = { add: 0, change: 0, move: 0, remove: 0, unmanaged: 0, unchanged: 0, settings: 0 };
  for (const t of targetPlans) {
    for (const r of t.rulesets) {
      for (const key of Object.keys(r.counts) as (keyof RuleCounts)[]) counts[key] += r.counts[key];
      counts.settings += r.settings.length;
    }
  }
  const replacements = targetPlans.some((t) => t.rulesets.some((r) => r.note !== undefined));
  return { targets: targetPlans, counts, changes: replacements || counts.add + counts.change + counts.move + counts.remove + counts.settings > 0, errors: 0 };
}

/** The zone or account of a resource, as far as the plan knows it (an id from another resource is known only after apply). */
function scopeOf(values: Json, unknown: Json): { scope: Scope; label: string } {
  for (const kind of ['zone', 'account'] as const) {
    const id = values[`${kind}_id`];
    if (typeof id === 'string' && id !== '') return { scope: { kind, id }, label: id };
    if (unknown[`${kind}_id`] === true) return { scope: { kind, id: '(known after apply)' }, label: '(known after apply)' };
  }
  return { scope: { kind: 'zone', id: '(unknown)' }, label: '(no zone_id or account_id in the plan)' };
}

/**
 * Terraform's `action_reason` values (its JSON Output Format) worth a word, as a clause; those
 * not named here (new ones may come) say nothing rather than a guess.
 */
const ACTION_REASONS: Readonly<Record<string, string>> = {
  replace_because_tainted: 'because it is tainted',
  replace_by_request: 'because `-replace` asked for it',
  delete_because_no_resource_config: 'because the configuration no longer has it',
  delete_because_no_module: 'because the configuration no longer has its module',
  delete_because_count_index: 'because its `count` index is gone',
  delete_because_each_key: 'because its `for_each` key is gone',
};

/** Why a resource is replaced, or what creating or destroying it does to its rules; undefined for an update. */
function noteOf(actions: readonly string[], replacePaths: unknown, reason: string | undefined, phase: string): string | undefined {
  const creates = actions.includes('create');
  const deletes = actions.includes('delete');
  const because = reason !== undefined ? ACTION_REASONS[reason] : undefined;
  if (creates && deletes) {
    const paths = arrayOf(replacePaths).map((p) => (Array.isArray(p) ? p.map(String).join('.') : String(p))).filter((p) => p !== '');
    const order = actions[0] === 'create' ? 'a new ruleset is created, then the old one destroyed' : 'the ruleset is destroyed, then created anew';
    const why = paths.length > 0 ? `because ${paths.map((p) => `\`${p}\``).join(', ')} ${paths.length === 1 ? 'changes' : 'change'}` : because;
    return `replaced (${order}${why ? `, ${why}` : ''}): every rule gets a new id`;
  }
  if (deletes) return `destroyed${because ? ` ${because}` : ''}: every rule of ${phase || 'the ruleset'} goes`;
  if (creates) return 'created';
  return undefined;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The `after_unknown` of the i-th rule: an object of the rule's unknown leaves (`true`), or {}. */
function unknownAt(rules: unknown, i: number): Json {
  const item = Array.isArray(rules) ? rules[i] : undefined;
  return isObject(item) ? item : {};
}

/** The rule's fields whose value (or part of it) only apply will know, as dotted paths. */
function unknownFields(unknown: Json): string[] {
  const out: string[] = [];
  const walk = (path: string, value: unknown) => {
    if (value === true) out.push(path);
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(path ? `${path}.${k}` : k, v);
    else if (Array.isArray(value) && value.some((v) => v === true || isObject(v) || Array.isArray(v))) {
      // An unknown inside a list: the list as a whole is not known.
      if (JSON.stringify(value).includes('true')) out.push(path);
    }
  };
  walk('', unknown);
  return out;
}

const V4_RULE = providerAttribute(PROVIDER_V4.attributes, 'rules')?.attributes ?? [];
const V5_RULE = providerAttribute(PROVIDER_V5.attributes, 'rules')?.attributes ?? [];

/**
 * A rule of the plan in the API's shape: nulls (Terraform's unset) left out, unknown values
 * left out, v4's one-item block lists (`action_parameters = [{ … }]`) as objects and its
 * `headers` blocks a map by name, v5's names where the API's key differs (`stale_if_error` →
 * `stale-if-error`).
 */
function normaliseRule(rule: unknown, unknown: Json): RuleInput {
  if (!isObject(rule)) return {} as RuleInput;
  const v4 = isV4Rule(rule);
  return normaliseObject(rule, unknown, v4 ? V4_RULE : V5_RULE, v4) as unknown as RuleInput;
}

/** v4 writes `action_parameters` and `logging` as lists of blocks; v5 as objects. */
function isV4Rule(rule: Json): boolean {
  return ['action_parameters', 'logging', 'ratelimit', 'exposed_credential_check'].some((key) => Array.isArray(rule[key]));
}

function normaliseObject(value: Json, unknown: Json, schema: readonly ProviderAttribute[], v4: boolean): Json | undefined {
  const out: Json = {};
  for (const [key, raw] of Object.entries(value)) {
    if (unknown[key] === true) continue;
    const attribute = providerAttribute(schema, key);
    const name = attribute?.apiName ?? key;
    const item = normaliseValue(raw, unknown[key], attribute, v4);
    if (item !== undefined) out[name] = item;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function normaliseValue(raw: unknown, unknown: unknown, attribute: ProviderAttribute | undefined, v4: boolean): unknown {
  if (raw === null || raw === undefined) return undefined;
  const inner = attribute?.attributes ?? [];
  if (Array.isArray(raw)) {
    const items = raw.map((v, i) => (isObject(v) ? normaliseObject(v, unknownAt(unknown, i), inner, v4) : v)).filter((v) => v !== undefined);
    if (v4 && attribute?.block && attribute.name === 'headers') {
      const headers: Json = {};
      for (const h of items as Json[]) {
        const { name, ...rest } = h;
        if (typeof name === 'string') headers[name] = rest;
      }
      return Object.keys(headers).length > 0 ? headers : undefined;
    }
    if (v4 && attribute?.block && attribute.maxOne) return items[0];
    return items.length > 0 ? items : undefined;
  }
  if (isObject(raw)) return normaliseObject(raw, isObject(unknown) ? unknown : {}, inner, v4);
  return raw;
}

/**
 * A planned rule with neither ref nor id known (a rule without `ref` in a resource that
 * changes) is matched to a state rule of the same content, its unknown fields left out of
 * the comparison; the match is carried as the state rule's ref (its id when no ref was set).
 */
function matchUnnamedByContent(local: { rule: RuleInput; unknown: string[] }[], live: readonly Rule[]): void {
  const named = new Set(local.map((r) => r.rule.ref).filter((ref) => ref !== undefined));
  const ids = new Set(local.map((r) => r.rule.id).filter((id) => id !== undefined));
  const free = live.filter((r) => !named.has(r.ref ?? r.id) && !ids.has(r.id));
  const bySignature = new Map<string, Map<string, Rule[]>>();
  const taken = new Set<Rule>();
  for (const item of local) {
    if (item.rule.ref !== undefined || item.rule.id !== undefined) continue;
    const skipped = new Set(item.unknown.map((p) => p.split('.')[0]));
    const signature = [...skipped].sort().join(',');
    let index = bySignature.get(signature);
    if (!index) {
      index = new Map();
      for (const rule of free) {
        const key = contentKey(rule as unknown as Json, skipped);
        index.set(key, [...(index.get(key) ?? []), rule]);
      }
      bySignature.set(signature, index);
    }
    const candidates = index.get(contentKey(item.rule as unknown as Json, skipped)) ?? [];
    // A rule taken through another signature's index is passed over: linear overall, not a search of every list.
    while (candidates.length > 0 && taken.has(candidates[0])) candidates.shift();
    const found = candidates.shift();
    if (!found) continue;
    taken.add(found);
    (item.rule as { ref?: string }).ref = found.ref ?? found.id;
    matchedByContent.add(item.rule);
  }
}

const matchedByContent = new WeakSet<object>();

function contentKey(rule: Json, skipped: ReadonlySet<string>): string {
  const fields: Json = { description: '', enabled: true };
  for (const [k, v] of Object.entries(rule)) if (k !== 'id' && k !== 'ref' && k !== 'version' && k !== 'last_updated' && !skipped.has(k)) fields[k] = v;
  for (const k of skipped) delete fields[k];
  return stableJson(fields);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The diff's rules with what only apply will know: each unknown field of a planned rule (but its
 * ref, which only names it) is a change to "known after apply", and a matched rule whose id is
 * unknown is re-id'd by the provider (`id` to "known after apply"); in a replacement every rule is.
 */
function withUnknowns(rules: readonly RulePlan[], local: readonly { rule: RuleInput; unknown: string[] }[], live: readonly Rule[], replaced: boolean): RulePlan[] {
  let i = 0;
  return rules.map((plan) => {
    if (plan.action === 'remove' || plan.action === 'unmanaged') return plan;
    const item = local[i++];
    // An added rule's unknown values are shown as such, not left out as if unset.
    if (plan.action === 'add') return { ...plan, fields: [...plan.fields, ...item.unknown.filter((p) => p !== 'ref' && p !== 'id').map((p) => ({ path: p, unknown: true as const }))] };
    const liveRule = plan.from !== undefined ? (live[plan.from - 1] as unknown as Json) : undefined;
    const paths = item.unknown.filter((p) => p !== 'ref' && p !== 'id' && !p.startsWith('ref.'));
    const extra: FieldChange[] = paths.map((p) => ({ path: p, ...(valueAt(liveRule, p) !== undefined ? { old: valueAt(liveRule, p) } : {}), unknown: true }));
    const reId = (replaced || item.unknown.includes('id')) && liveRule?.id !== undefined;
    if (reId) extra.unshift({ path: 'id', old: liveRule?.id, unknown: true });
    const kept = plan.fields.filter((f) => !paths.some((p) => f.path === p || f.path.startsWith(`${p}.`)));
    const fields = [...extra, ...kept];
    const action = fields.length > 0 ? 'change' : plan.action;
    return { ...plan, action, fields, ...(matchedByContent.has(item.rule) ? { matchedBy: 'content' as const } : {}) };
  });
}

function valueAt(value: Json | undefined, path: string): unknown {
  let current: unknown = value;
  for (const step of path.split('.')) current = isObject(current) ? current[step] : undefined;
  return current;
}

function countsOf(rules: readonly RulePlan[]): RuleCounts {
  const counts = { add: 0, change: 0, move: 0, remove: 0, unmanaged: 0, unchanged: 0 };
  for (const r of rules) {
    if (r.action === 'change') counts.change++;
    else if (r.action !== 'move') counts[r.action]++;
    if (r.moved) counts.move++;
  }
  return counts;
}
