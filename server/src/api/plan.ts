/**
 * `rulesets plan`: what deploying every file of every target would change, rule by rule. The
 * live ruleset (a phase's entry point, or a custom ruleset by its id) is read as `planDeploy`
 * reads it; each local rule is matched to a live one by `ref`, then by id, then by its content;
 * a matched rule is unchanged, changed (field by field), moved, or both; a reorder is moves
 * (the fewest: the rules off a longest increasing subsequence), never a removal and an
 * addition. Live rules no file holds are unmanaged: kept where they are, and removed only in a
 * phase the repository owns. Read-only: nothing here writes.
 */
import { parseDocument } from '../documents/parsed-document';
import { rulesetFormatOfPath } from '../documents/classify';
import { includeReader } from '../documents/include-files';
import { toPositions, type PositionedProblem } from '../documents/positions';
import { contributionOf, mergeContributions, placesRules } from '../documents/entry-point';
import { parseRuleset, type ParsedRuleset } from '../documents/parsed-ruleset';
import { ApiError, type RulesetsClient, type Scope } from './client';
import { checkLocal, describeDestination, destinationOf, hasErrors, refuseOtherLevel, type Destination } from './deploy';
import { readLocalRuleset, WorkflowError, type LocalRuleset } from './local-ruleset';
import type { Target } from './targets';
import type { Rule, RuleInput, Ruleset, UpdateRulesetBody } from './types';

/** A SHA-256 hash; node:crypto is loaded on the first, as a check of files (which never hashes) should not pay for it at start. */
const createHash = (algorithm: 'sha256') => (require('node:crypto') as typeof import('node:crypto')).createHash(algorithm);

/** One field of a rule (or of the ruleset) that differs: a dotted path, and each side's value (absent: not set). */
export interface FieldChange {
  /** `expression`, `enabled`, `action_parameters.uri.path.value`, … */
  readonly path: string;
  readonly old?: unknown;
  readonly new?: unknown;
  /** The new value is known only after apply (a Terraform plan's `after_unknown`). */
  readonly unknown?: true;
}

/**
 * What happens to one rule. `change` and `move` can meet: a changed rule that also moved has
 * `change` and `moved: true`.
 */
export type RuleAction = 'add' | 'remove' | 'change' | 'move' | 'unchanged' | 'unmanaged';

export interface RulePlan {
  readonly action: RuleAction;
  /** How the rule is named in the plan: its ref, else its id, else its description, else its position. */
  readonly name: string;
  /** The live rule's id (absent for a rule to add). */
  readonly id?: string;
  readonly ref?: string;
  readonly description?: string;
  /** 1-based position among the live rules (absent for a rule to add). */
  readonly from?: number;
  /** 1-based position in the ruleset as it would be written (absent for a rule to remove). */
  readonly to?: number;
  /** Its place among the matched rules changed. */
  readonly moved: boolean;
  /** How it was matched to its live rule. */
  readonly matchedBy?: 'ref' | 'id' | 'content';
  /** For `change`: the fields that differ; for `add`: every field of the new rule (old absent); for `remove`: the live rule's. */
  readonly fields: readonly FieldChange[];
  /** The digest of the live rule's content (ruleDigest), for drift against the lock file. */
  readonly liveDigest?: string;
  /** Since the last apply (the lock file), the rule was edited or added live: a dashboard edit. */
  readonly drift?: 'edited-live' | 'added-live';
  /** An apply would undo that live edit (it changes the rule back or removes it). */
  readonly undone?: boolean;
}

export interface RuleCounts {
  readonly add: number;
  readonly change: number;
  readonly move: number;
  readonly remove: number;
  readonly unmanaged: number;
  readonly unchanged: number;
}

/** The diff of one local ruleset against its live one. */
export interface RulesetDiff {
  /** Each rule, in the order of the ruleset as it would be written, removed rules where they were. */
  readonly rules: readonly RulePlan[];
  /** Fields of the ruleset itself that would change (its description). */
  readonly settings: readonly FieldChange[];
  readonly counts: RuleCounts;
  /** The rules as deploying would send them: matched rules keep their live ids, unmanaged ones are kept unless removed. */
  readonly written: readonly RuleInput[];
}

export interface DiffOptions {
  /** The repository owns this phase: live rules no file holds are removed instead of kept. */
  readonly owned?: boolean;
  /** The file gives only rules (an octorules section): the live description stays. */
  readonly rulesOnly?: boolean;
}

/** The local side of a diff: the file's ruleset as the API takes it. */
export interface LocalSide {
  readonly description?: string;
  readonly rules: readonly RuleInput[];
}

/** The fields of a rule that a deploy sets, with the service's defaults filled in. */
const RULE_FIELDS = ['ref', 'action', 'expression', 'description', 'enabled', 'action_parameters', 'logging', 'ratelimit', 'exposed_credential_check', 'categories'] as const;

/**
 * The rule-by-rule diff of `local` against `live` (undefined: the entry point does not exist
 * yet, every rule is added). Linear in the rules but for the moves (n log n) and field diffs.
 */
export function diffRuleset(local: LocalSide, live: Ruleset | undefined, options: DiffOptions = {}): RulesetDiff {
  const liveRules = live?.rules ?? [];
  const match = matchRules(local.rules, liveRules);
  const moved = movedRules(match.liveOf);
  // The result: local rules in order, each unmatched live rule after the unmoved live rule it followed.
  const unmatchedLive: number[] = [];
  const matchedLive = new Set(match.liveOf.filter((i): i is number => i !== undefined));
  for (let j = 0; j < liveRules.length; j++) if (!matchedLive.has(j)) unmatchedLive.push(j);
  const after = new Map<number, number[]>(); // local index (-1: first) → unmatched live rules after it
  const localOfLive = new Map<number, number>();
  match.liveOf.forEach((j, i) => j !== undefined && localOfLive.set(j, i));
  for (const j of unmatchedLive) {
    let anchor = -1;
    for (let k = j - 1; k >= 0; k--) {
      const i = localOfLive.get(k);
      // A moved rule is no landmark: the rule stays by those that keep their order.
      if (i !== undefined && !moved.has(i)) {
        anchor = i;
        break;
      }
    }
    const list = after.get(anchor) ?? [];
    list.push(j);
    after.set(anchor, list);
  }
  const rules: RulePlan[] = [];
  const written: RuleInput[] = [];
  const counts = { add: 0, change: 0, move: 0, remove: 0, unmanaged: 0, unchanged: 0 };
  const placeUnmatched = (anchor: number) => {
    for (const j of after.get(anchor) ?? []) {
      const rule = liveRules[j];
      if (options.owned) {
        rules.push({ action: 'remove', name: ruleName(rule, j), id: rule.id, ...refOf(rule), ...describedAs(rule.description), from: j + 1, moved: false, liveDigest: ruleDigest(rule), fields: fieldsOf(liveFields(rule)).map((f) => ({ path: f.path, old: f.value })) });
        counts.remove++;
      } else {
        written.push(liveAsInput(rule));
        rules.push({ action: 'unmanaged', name: ruleName(rule, j), id: rule.id, ...refOf(rule), ...describedAs(rule.description), from: j + 1, to: written.length, moved: false, liveDigest: ruleDigest(rule), fields: [] });
        counts.unmanaged++;
      }
    }
  };
  placeUnmatched(-1);
  local.rules.forEach((rule, i) => {
    const j = match.liveOf[i];
    if (j === undefined) {
      written.push(rule);
      rules.push({ action: 'add', name: ruleName(rule, i), ...refOf(rule), ...describedAs(rule.description), to: written.length, moved: false, fields: fieldsOf(localFields(rule)).map((f) => ({ path: f.path, new: f.value })) });
      counts.add++;
    } else {
      const liveRule = liveRules[j];
      const { id: _id, ...rest } = rule;
      written.push({ id: liveRule.id, ...rest });
      const fields = fieldChanges(liveFields(liveRule), localFields(rule, liveRule));
      const isMoved = moved.has(i);
      const action: RuleAction = fields.length > 0 ? 'change' : isMoved ? 'move' : 'unchanged';
      if (fields.length > 0) counts.change++;
      if (isMoved) counts.move++;
      if (action === 'unchanged') counts.unchanged++;
      rules.push({ action, name: ruleName(liveRule, j), id: liveRule.id, ...refOf(liveRule), ...describedAs(rule.description ?? liveRule.description), from: j + 1, to: written.length, moved: isMoved, matchedBy: match.by[i], liveDigest: ruleDigest(liveRule), fields });
    }
    placeUnmatched(i);
  });
  const settings: FieldChange[] = [];
  // A file that gives no description keeps the live one: the PUT leaves it out.
  if (live && !options.rulesOnly && local.description !== undefined && local.description !== (live.description ?? '')) settings.push({ path: 'description', old: live.description ?? '', new: local.description });
  return { rules, settings, counts, written };
}

/** A short digest of a live rule's content (what a deploy sets, the service's defaults filled in; not its id or version): equal content, equal digest. */
export function ruleDigest(rule: Rule): string {
  return createHash('sha256').update(stableJson(liveFields(rule))).digest('hex').slice(0, 16);
}

/** The digest of a live ruleset as the service holds it: its description and each rule's id and content, in order (not its version or times). */
export function rulesetDigest(live: Pick<Ruleset, 'description' | 'rules'>): string {
  return `sha256:${createHash('sha256').update(stableJson({ description: live.description ?? '', rules: (live.rules ?? []).map((r) => [r.id, ruleDigest(r)]) })).digest('hex')}`;
}

/** The digest of what a file asks of a ruleset: its description (unless it gives only rules) and its rules' content in order, without ids. */
export function localDigest(local: LocalSide, rulesOnly = false): string {
  return `sha256:${createHash('sha256').update(stableJson({ ...(rulesOnly ? {} : { description: local.description ?? '' }), rules: local.rules.map((r) => localFields(r)) })).digest('hex')}`;
}

/** Whether a diff has anything to do (unmanaged rules kept are nothing to do). */
export function diffHasChanges(diff: Pick<RulesetDiff, 'counts' | 'settings'>): boolean {
  const c = diff.counts;
  return c.add + c.change + c.move + c.remove > 0 || diff.settings.length > 0;
}

interface Match {
  /** For each local rule, the index of its live rule. */
  readonly liveOf: (number | undefined)[];
  readonly by: ('ref' | 'id' | 'content' | undefined)[];
}

/** Local rules to live ones: by `ref` first, then by id, then by equal content (first with first). */
function matchRules(local: readonly RuleInput[], live: readonly Rule[]): Match {
  const liveOf: (number | undefined)[] = local.map(() => undefined);
  const by: Match['by'] = local.map(() => undefined);
  const taken = new Set<number>();
  const claim = (key: (rule: Rule) => string | undefined, want: (rule: RuleInput) => string | undefined, how: 'ref' | 'id' | 'content') => {
    const index = new Map<string, number[]>();
    live.forEach((rule, j) => {
      if (taken.has(j)) return;
      const k = key(rule);
      if (k === undefined) return;
      const list = index.get(k);
      if (list) list.push(j);
      else index.set(k, [j]);
    });
    local.forEach((rule, i) => {
      if (liveOf[i] !== undefined) return;
      const k = want(rule);
      const list = k === undefined ? undefined : index.get(k);
      const j = list?.shift();
      if (j === undefined) return;
      liveOf[i] = j;
      by[i] = how;
      taken.add(j);
    });
  };
  // A live rule's ref is its id unless its author set one; a local rule names one only when written.
  claim((r) => r.ref, (r) => r.ref, 'ref');
  claim((r) => r.id, (r) => r.id, 'id');
  claim((r) => contentKey(liveFields(r)), (r) => (r.id === undefined && r.ref === undefined ? contentKey(localFields(r)) : undefined), 'content');
  return { liveOf, by };
}

/**
 * The local rules that moved: among the matched ones, in local order, those off a longest
 * increasing subsequence of their live positions (patience sorting, n log n), so that the
 * fewest rules count as moved.
 */
function movedRules(liveOf: readonly (number | undefined)[]): Set<number> {
  const locals: number[] = [];
  liveOf.forEach((j, i) => j !== undefined && locals.push(i));
  const tails: number[] = []; // index into locals of the smallest tail of each length
  const previous: number[] = new Array(locals.length).fill(-1);
  locals.forEach((i, k) => {
    const value = liveOf[i]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (liveOf[locals[tails[mid]]]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[k] = tails[lo - 1];
    tails[lo] = k;
  });
  const staying = new Set<number>();
  for (let k = tails.length > 0 ? tails[tails.length - 1] : -1; k >= 0; k = previous[k]) staying.add(locals[k]);
  return new Set(locals.filter((i) => !staying.has(i)));
}

type Fields = Partial<Record<(typeof RULE_FIELDS)[number], unknown>>;

/** A live rule's fields that a deploy sets (its ref only when its author set one). */
function liveFields(rule: Rule): Fields {
  const out: Fields = {};
  for (const key of RULE_FIELDS) {
    const value = (rule as unknown as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (key === 'ref' && value === rule.id) continue;
    out[key] = value;
  }
  out.description ??= '';
  out.enabled ??= true;
  return out;
}

/**
 * A local rule's fields, with the service's defaults for what it leaves out; a ref the file
 * does not write is the live rule's (a rule matched by id keeps its ref).
 */
function localFields(rule: RuleInput, live?: Rule): Fields {
  const out: Fields = {};
  for (const key of RULE_FIELDS) {
    const value = (rule as unknown as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  if (out.ref === undefined && live && live.ref !== live.id) out.ref = live.ref;
  if (out.ref !== undefined && live && out.ref === live.id) delete out.ref;
  out.description ??= '';
  out.enabled ??= true;
  return out;
}

function contentKey(fields: Fields): string {
  const { ref: _ref, ...rest } = fields;
  return stableJson(rest);
}

/** JSON with object keys sorted: equal values give equal text. Recursive: rule values nest MAX_NESTING levels at most (local-ruleset.ts). */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Leaves of the fields, objects walked into (dotted paths), arrays and scalars whole. */
function fieldsOf(fields: Fields): { path: string; value: unknown }[] {
  const out: { path: string; value: unknown }[] = [];
  const walk = (path: string, value: unknown) => {
    if (isObject(value) && Object.keys(value).length > 0) for (const [k, v] of Object.entries(value)) walk(`${path}.${k}`, v);
    else out.push({ path, value });
  };
  for (const key of RULE_FIELDS) if (fields[key] !== undefined) walk(key, fields[key]);
  return out;
}

/** The fields that differ, objects compared key by key (dotted paths), in the order of RULE_FIELDS. */
function fieldChanges(old: Fields, next: Fields): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (path: string, a: unknown, b: unknown) => {
    if (isObject(a) && isObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
      for (const k of keys) walk(`${path}.${k}`, a[k], b[k]);
      return;
    }
    if (a === undefined && b === undefined) return;
    if (stableJson(a) === stableJson(b)) return;
    out.push({ path, ...(a !== undefined ? { old: a } : {}), ...(b !== undefined ? { new: b } : {}) });
  };
  for (const key of RULE_FIELDS) walk(key, old[key], next[key]);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function ruleName(rule: Pick<RuleInput, 'ref' | 'id' | 'description'>, index: number): string {
  return rule.ref ?? rule.id ?? (rule.description ? JSON.stringify(rule.description) : `rule ${index + 1}`);
}

function refOf(rule: Pick<RuleInput, 'ref' | 'id'>): { ref?: string } {
  return rule.ref !== undefined && rule.ref !== rule.id ? { ref: rule.ref } : {};
}

function describedAs(description: string | undefined): { description?: string } {
  return description ? { description } : {};
}

/** A live rule as a deploy sends it back: what the service sets left out. */
function liveAsInput(rule: Rule): RuleInput {
  const { version: _v, last_updated: _l, ...rest } = rule as Rule & Record<string, unknown>;
  return rest as unknown as RuleInput;
}

// ---------------------------------------------------------------- targets

/** One ruleset of a file planned against its live ruleset. */
export interface RulesetPlan extends RulesetDiff {
  readonly file: string;
  /** The Terraform resource or octorules section, for a file with rulesets of its own. */
  readonly label?: string;
  /** Every file that gives the entry point its rules, when there are several, `file` first. */
  readonly files?: readonly string[];
  readonly destination: Destination;
  readonly phase: string;
  /** The live version; absent when the entry point does not exist yet (it would be created). */
  readonly liveVersion?: string;
  /** Live rules no file holds are removed (the repository owns the phase). */
  readonly owned: boolean;
  /** Warnings of our check, which do not stop the plan. */
  readonly warnings: readonly PositionedProblem[];
  /** The file's text, for placing `warnings` (set when there are some). */
  readonly text?: string;
  /** What happens to the ruleset as a whole, where not an update (a Terraform plan's replacement, creation, destruction). */
  readonly note?: string;
  /** The file gives only rules (an octorules section): the live description stays. */
  readonly rulesOnly?: boolean;
  /** The exact body an apply writes (PUT): `written` with the description; name, kind and phase only where the PUT creates the entry point. */
  readonly body?: UpdateRulesetBody;
  /** The live ruleset's digest (rulesetDigest); absent when it does not exist. */
  readonly liveDigest?: string;
  /** The digest of what the files ask (localDigest), which the lock file records at apply. */
  readonly localDigest?: string;
  /** Drift against the lock file: set only where the lock has an entry for this ruleset. */
  readonly drift?: RulesetDrift;
}

/** How a ruleset moved since this repository last applied it (the lock file). */
export interface RulesetDrift {
  /** The version the lock records. */
  readonly lockedVersion: string;
  /** The files ask something else than what was last applied; undefined when the lock does not say. */
  readonly changedHere?: boolean;
  /** The live ruleset is not what was last applied (a dashboard edit, another tool): version and content differ. */
  readonly changedLive: boolean;
  /** Rules edited or added live that an apply would change back or remove. */
  readonly undone: readonly string[];
  /** Rules last applied that are live no more (removed live). */
  readonly removedLive: readonly string[];
}

/** A ruleset that could not be planned: its file's errors, a live ruleset that is gone, a failed request. */
export interface PlanError {
  readonly file: string;
  readonly label?: string;
  readonly message: string;
  /** Our check's errors (and warnings), when they stopped it. */
  readonly problems?: readonly PositionedProblem[];
  /** The file's text, for placing `problems`. */
  readonly text?: string;
}

/** A ruleset this command leaves to another tool (a Terraform resource whose values only Terraform knows). */
export interface PlanSkip {
  readonly file: string;
  readonly label?: string;
  readonly reason: string;
}

export interface TargetPlan {
  readonly target: Pick<Target, 'scope' | 'label'>;
  readonly rulesets: readonly RulesetPlan[];
  readonly errors: readonly PlanError[];
  readonly skipped: readonly PlanSkip[];
}

export interface EstatePlan {
  readonly targets: readonly TargetPlan[];
  readonly counts: RuleCounts & { readonly settings: number };
  /** Something would change: a rule added, changed, moved or removed, or a ruleset's description. */
  readonly changes: boolean;
  readonly errors: number;
}

export interface PlanOptions {
  /** Phases the repository owns: their live rules that no file holds are removed. */
  readonly ownedPhases?: readonly string[];
  /** Reads a file's text (the CLI's reader keeps a BOM out). */
  readonly read: (path: string) => string;
  /** A client for a target's account or zone. */
  readonly clientFor: (scope: Scope) => RulesetsClient;
  /** How a file's path is shown in messages (default: as the target has it, absolute). */
  readonly shownPath?: (path: string) => string;
  /** How many rulesets are read at once (default 8): requests are the slow part. */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
}

/** Every ruleset of every file of every target, planned. Never writes. */
export async function planTargets(targets: readonly Target[], options: PlanOptions): Promise<EstatePlan> {
  const jobs: (() => Promise<void>)[] = [];
  // A file of several rulesets (octorules sections, Terraform resources) is checked once, not once a ruleset.
  const checks = new Map<string, PositionedProblem[]>();
  const checkOf: CheckOf = (local) => {
    let problems = checks.get(local.path);
    if (!problems) checks.set(local.path, (problems = checkLocal(local)));
    return problems;
  };
  const results = targets.map((target) => ({ target: { scope: target.scope, label: target.label }, rulesets: [] as RulesetPlan[], errors: [] as PlanError[], skipped: [] as PlanSkip[] }));
  targets.forEach((target, t) => {
    const out = results[t];
    const client = options.clientFor(target.scope);
    // The rulesets of one destination: several files may give one entry point its rules (entry-point.ts).
    const groups = new Map<string, { destination: Destination; locals: LocalRuleset[] }>();
    for (const absolute of target.files) {
      const file = options.shownPath?.(absolute) ?? absolute;
      for (const item of localRulesetsOf(absolute, file, target.scope, options.read)) {
        if ('skip' in item) out.skipped.push(item.skip);
        else if ('error' in item) out.errors.push(item.error);
        else {
          const local = item.local;
          let destination: Destination;
          try {
            refuseOtherLevel(local, target.scope);
            destination = destinationOf(local);
          } catch (error) {
            if (!(error instanceof WorkflowError)) throw error;
            if (local.layout === 'terraform') out.skipped.push({ file, ...labelOf(local), reason: skipReason(error.message, file) });
            else out.errors.push({ file, ...labelOf(local), message: error.message });
            continue;
          }
          const key = describeDestination(destination);
          const group = groups.get(key);
          if (group) group.locals.push(local);
          else groups.set(key, { destination, locals: [local] });
        }
      }
    }
    for (const { destination, locals } of groups.values()) {
      const index = out.rulesets.length;
      out.rulesets.push(undefined as unknown as RulesetPlan); // its place, filled in when read
      const owned = (options.ownedPhases ?? []).includes(locals[0].body.phase);
      jobs.push(async () => {
        try {
          const planned = locals.length === 1 && !mayPlaceRules(locals[0]) ? await planRuleset(client, locals[0], destination, owned, checkOf, options.signal) : await planEntryPoint(client, locals, destination, owned, checkOf, options.signal);
          if (Array.isArray(planned)) out.errors.push(...planned);
          else if ('message' in planned) out.errors.push(planned);
          else out.rulesets[index] = planned;
        } catch (error) {
          if (!(error instanceof WorkflowError) && !(error instanceof ApiError)) throw error;
          out.errors.push({ file: locals[0].path, ...labelOf(locals[0]), message: error.message });
        }
      });
    }
  });
  await runAll(jobs, options.concurrency ?? 8);
  const targetPlans = results.map((r) => ({ ...r, rulesets: r.rulesets.filter((p) => p !== undefined) }));
  const counts = { add: 0, change: 0, move: 0, remove: 0, unmanaged: 0, unchanged: 0, settings: 0 };
  let errors = 0;
  for (const t of targetPlans) {
    errors += t.errors.length;
    for (const r of t.rulesets) {
      for (const key of Object.keys(r.counts) as (keyof RuleCounts)[]) counts[key] += r.counts[key];
      counts.settings += r.settings.length;
    }
  }
  const changes = counts.add + counts.change + counts.move + counts.remove + counts.settings > 0;
  return { targets: targetPlans, counts, changes, errors };
}

/** Runs the jobs, at most `limit` at a time; the first that throws (a bug, not a service's refusal) stops the rest. */
async function runAll(jobs: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}

function labelOf(local: LocalRuleset): { label?: string } {
  return local.label !== undefined && local.layout !== 'api' ? { label: local.label } : {};
}

function where(local: LocalRuleset): string {
  return local.label !== undefined && local.layout !== 'api' ? `${local.path} (${local.label})` : local.path;
}

/** Why a Terraform resource is skipped: deploy's message, without the file's name before it (the plan names it) or deploy's "nothing was sent". */
function skipReason(message: string, file: string): string {
  return message.replace(`${file}: `, '').replace(/; nothing was sent$/, '');
}

type LocalItem = { local: LocalRuleset } | { error: PlanError } | { skip: PlanSkip };

/**
 * The rulesets of one file, as deploy reads each: a ruleset file's one, each `cloudflare_ruleset`
 * of a Terraform file, each section of an octorules file. A Terraform resource whose values
 * only Terraform knows is skipped, with why.
 */
function localRulesetsOf(absolute: string, file: string, scope: Scope, read: (path: string) => string): LocalItem[] {
  let text: string;
  try {
    text = read(absolute);
  } catch (error) {
    return [{ error: { file, message: `${file}: cannot be read: ${(error as Error).message}` } }];
  }
  const format = rulesetFormatOfPath(file);
  if (!format) return [{ error: { file, message: `${file}: not a ruleset file; name it *.json, *.yaml, *.yml or, for Terraform, *.tf` } }];
  const include = includeReader(absolute);
  const readOne = (choice: { resource?: string; section?: string }): LocalItem => {
    try {
      return { local: readLocalRuleset(file, text, { ...choice, include, scope: scope.kind }) };
    } catch (error) {
      if (!(error instanceof WorkflowError)) throw error;
      const label = choice.resource ?? choice.section;
      if (format === 'hcl') return { skip: { file, ...(label ? { label } : {}), reason: skipReason(error.message, file) } };
      return { error: { file, ...(label ? { label } : {}), message: error.message } };
    }
  };
  // A ruleset file is one ruleset; the others name each of theirs.
  if (format === 'json') return [readOne({})];
  const document = parseDocument(text, format, { include });
  if (document.layout === 'api') return [readOne({})];
  const labels = document.rulesets.filter((r) => !r.legacyFilter).map((r) => r.label);
  // A Terraform module's other files (variables, providers) have nothing to plan.
  if (labels.length === 0 && format === 'hcl') return [];
  if (labels.length === 0) return [{ error: { file, message: `${file}: no rules section in the file` } }];
  return labels.map((label) => readOne(document.layout === 'terraform' ? { resource: label } : { section: label }));
}

/** One local ruleset against what is live: our check first (its errors stop it, as deploy's do), then the read, then the diff. */
async function planRuleset(client: RulesetsClient, local: LocalRuleset, destination: Destination, owned: boolean, checkOf: CheckOf, signal?: AbortSignal): Promise<RulesetPlan | PlanError> {
  const problems = problemsOfRuleset(local, checkOf);
  if (hasErrors(problems)) {
    const errors = problems.filter((p) => p.severity === 'error').length;
    return { file: local.path, ...labelOf(local), message: `${where(local)}: not planned: the check found ${errors} error${errors === 1 ? '' : 's'}; fix ${errors === 1 ? 'it' : 'them'} first (\`rulesets check ${local.path}\`)`, problems, text: local.text };
  }
  const live = await readLive(client, local, destination, signal);
  const diff = diffRuleset(local.body, live, { owned, rulesOnly: local.rulesOnly });
  const body = putBody(local.body, live, diff.written, local.rulesOnly === true);
  return {
    file: local.path,
    ...labelOf(local),
    destination,
    phase: local.body.phase,
    ...(live ? { liveVersion: live.version } : {}),
    owned,
    warnings: problems,
    ...(problems.length > 0 ? { text: local.text } : {}),
    rulesOnly: local.rulesOnly === true,
    body,
    ...(live ? { liveDigest: rulesetDigest(live) } : {}),
    localDigest: localDigest(local.body, local.rulesOnly === true),
    ...diff,
  };
}

/**
 * What an apply writes (PUT), as deploy's updateBody: name, kind and phase cannot change, so they
 * go only where the PUT creates the ruleset, and only those the files give (the service names a
 * new entry point itself, of its level's kind).
 */
function putBody(local: LocalRuleset['body'], live: Ruleset | undefined, written: RulesetDiff['written'], rulesOnly: boolean): UpdateRulesetBody {
  const { name, kind, phase, description } = local;
  if (live) return { ...(description !== undefined ? { description } : {}), rules: written };
  return { ...(rulesOnly || name === undefined ? {} : { name }), ...(kind !== undefined ? { kind } : {}), phase, ...(description !== undefined ? { description } : {}), rules: written };
}

/**
 * Several rulesets for one entry point (or one file whose rules say where they go): merged in
 * the order of their files' paths, each file's rules in theirs, then placed by their
 * `before:`/`after:` (entry-point.ts). The first file's name and description are the entry
 * point's. Each file's check errors, and each conflict of the merge, stop it, on their lines.
 */
async function planEntryPoint(client: RulesetsClient, given: readonly LocalRuleset[], destination: Destination, owned: boolean, checkOf: CheckOf, signal?: AbortSignal): Promise<RulesetPlan | PlanError[]> {
  const locals = [...given].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const first = locals[0];
  const terraform = locals.find((l) => l.layout === 'terraform');
  if (terraform) {
    // A `cloudflare_ruleset` is the whole entry point: Terraform would replace the others' rules.
    return locals.filter((l) => l !== terraform).map((l) => ({ file: l.path, ...labelOf(l), message: `${where(l)} deploys to ${describeDestination(destination)}, as ${where(terraform)} does, a Terraform resource that is the whole entry point: keep these rules in one of them` }));
  }
  const errors: PlanError[] = [];
  const warnings: PositionedProblem[] = [];
  for (const local of locals) {
    const problems = problemsOfRuleset(local, checkOf);
    if (hasErrors(problems)) {
      const count = problems.filter((p) => p.severity === 'error').length;
      errors.push({ file: local.path, ...labelOf(local), message: `${where(local)}: not planned: the check found ${count} error${count === 1 ? '' : 's'}; fix ${count === 1 ? 'it' : 'them'} first (\`rulesets check ${local.path}\`)`, problems, text: local.text });
    } else if (local === first) warnings.push(...problems);
  }
  if (errors.length > 0) return errors;
  const merged = mergeContributions(locals.map((l) => contributionOf(l.path, parsedOf(l))));
  if (merged.problems.length > 0) {
    return locals.flatMap((local, i) => {
      const own = merged.problems.filter((p) => p.contribution === i);
      if (own.length === 0) return [];
      const problems = toPositions(local.text, own.map((p) => ({ ...p, severity: 'error' as const })).sort((a, b) => a.start - b.start));
      const count = own.length;
      return [{ file: local.path, ...labelOf(local), message: `${where(local)}: not planned: ${count === 1 ? 'a rule' : `${count} rules`} of ${describeDestination(destination)} cannot be put in order with the other file${locals.length === 2 ? '' : 's'} of it`, problems, text: local.text }];
    });
  }
  const body = { ...first.body, rules: merged.order.map((p) => locals[p.contribution].body.rules[p.rule]) };
  const live = await readLive(client, first, destination, signal);
  const diff = diffRuleset(body, live, { owned, rulesOnly: first.rulesOnly });
  return {
    file: first.path,
    ...labelOf(first),
    ...(locals.length > 1 ? { files: locals.map((l) => l.path) } : {}),
    rulesOnly: first.rulesOnly === true,
    body: putBody(body, live, diff.written, first.rulesOnly === true),
    destination,
    phase: first.body.phase,
    ...(live ? { liveVersion: live.version } : {}),
    owned,
    warnings,
    ...(warnings.length > 0 ? { text: first.text } : {}),
    ...(live ? { liveDigest: rulesetDigest(live) } : {}),
    localDigest: localDigest(body, first.rulesOnly === true),
    ...diff,
  };
}

/** Whether a rule of the file says where it goes (the words first: most files have neither, and are not parsed again). */
function mayPlaceRules(local: LocalRuleset): boolean {
  return local.layout !== 'terraform' && /\b(?:before|after)\b/.test(local.text) && placesRules(parsedOf(local));
}

/** A ruleset's rules as read, with where each is (a ruleset file's one ruleset is parsed again here). */
function parsedOf(local: LocalRuleset): Pick<ParsedRuleset, 'text' | 'rules'> {
  if (local.layout === 'terraform') return { text: local.text, rules: [] };
  return local.ruleset ?? parseRuleset(local.text, local.format);
}

/** Our check of a ruleset's whole file (checkLocal), each file's once in a plan. */
type CheckOf = (local: LocalRuleset) => readonly PositionedProblem[];

/** Our check's problems of this ruleset: in a file of several, those within its resource or section (and the file's own). */
function problemsOfRuleset(local: LocalRuleset, checkOf: CheckOf): PositionedProblem[] {
  const problems = [...checkOf(local)];
  const root = local.layout !== 'api' ? local.ruleset?.root : undefined;
  if (!root) return problems;
  const first = offsetLine(local.text, root.start);
  const last = offsetLine(local.text, root.end);
  return problems.filter((p) => p.range.start.line >= first && p.range.start.line <= last);
}

/** 0-based line of an offset. */
function offsetLine(text: string, offset: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The live ruleset (undefined for an entry point that does not exist yet), as planDeploy reads it. */
async function readLive(client: RulesetsClient, local: LocalRuleset, destination: Destination, signal?: AbortSignal): Promise<Ruleset | undefined> {
  try {
    return destination.kind === 'ruleset' ? await client.getRuleset(destination.id, { signal }) : await client.getEntryPoint(destination.phase, { signal });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    if (destination.kind === 'entrypoint') return undefined;
    throw new WorkflowError(`${where(local)}: ruleset ${destination.id} (the file's \`id\`) was not found at ${client.host}; it may have been deleted or belong to another account or zone: check --account/--zone, or remove \`id\` and \`version\` and run \`rulesets create ${local.path}\``, { cause: error });
  }
}
