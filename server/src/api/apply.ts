/**
 * `rulesets apply`: writing exactly a saved plan. A plan (`plan -o FILE`) is a versioned JSON
 * document, checksummed, with each ruleset's destination, the live version it was made against
 * and the exact body to write; never a credential. An apply refuses, before any write, a plan
 * whose checksum does not match, a ruleset whose live version moved since the plan, and a mass
 * change past the thresholds. Each ruleset is one PUT (custom rulesets before the entry points
 * that execute them), a few at once; the first failure stops new writes, and each ruleset's
 * outcome is then known (read back when the answer was lost). Applying the same plan again
 * finishes the rest: a ruleset already as the plan leaves it counts as done.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ApplyConfig } from '../documents/project-config';
import { ApiError, type RulesetsClient, type Scope } from './client';
import { describeDestination, type Destination } from './deploy';
import { WorkflowError } from './local-ruleset';
import { lockEntryOf, type LockedRule, type LockEntry } from './lock';
import { diffHasChanges, diffRuleset, type EstatePlan, type RuleCounts } from './plan';
import type { Ruleset, UpdateRulesetBody } from './types';

/** What a plan file says it is; another document (a ruleset file) is not taken for one. */
export const PLAN_FILE_FORMAT = 'rulesets-plan';
/** The plan file's shape: a newer one is refused by an older apply rather than misread. */
export const PLAN_FILE_VERSION = 1;

/** One ruleset of a saved plan. */
export interface SavedRuleset {
  readonly file: string;
  readonly label?: string;
  readonly destination: Destination;
  readonly phase: string;
  /** The live version the plan was made against; absent: the entry point did not exist. */
  readonly liveVersion?: string;
  readonly rulesOnly: boolean;
  /** How many rules were live (for the share removed). */
  readonly liveRules: number;
  readonly counts: RuleCounts;
  /** Something to write: the ruleset is written only then. */
  readonly changes: boolean;
  /** The exact body of the PUT. */
  readonly body: UpdateRulesetBody;
  /** The digest of what the files asked (plan.ts localDigest), which the lock file records. */
  readonly localDigest?: string;
  /** Where the plan changes nothing: the live ruleset's digest and rules as planned, for the lock file (apply writes nothing to learn them). */
  readonly live?: { readonly digest: string; readonly rules: readonly LockedRule[] };
}

export interface SavedTarget {
  readonly scope: Scope;
  readonly label: string;
  readonly rulesets: readonly SavedRuleset[];
}

export interface SavedPlan {
  readonly format: typeof PLAN_FILE_FORMAT;
  readonly version: typeof PLAN_FILE_VERSION;
  /** When the plan was made (ISO 8601). */
  readonly created: string;
  /** The API the plan was read from (scheme, host and path: never a user or password); apply refuses another. */
  readonly service?: string;
  readonly targets: readonly SavedTarget[];
  /** `sha256:` and the hex digest of the canonical JSON of everything else. */
  readonly checksum: string;
}

/** The API's address as a plan records it: scheme, host and path, without a user, password, query or fragment. */
export function serviceOf(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl.replace(/\/\/[^/@]*@/, '//');
  }
}

/** The plan as a document to save. A plan with errors cannot be saved: applying it would leave rulesets out. */
export function savedPlanOf(plan: EstatePlan, options: { readonly created?: Date; readonly baseUrl?: string } = {}): SavedPlan {
  const created = options.created ?? new Date();
  if (plan.errors > 0)
    throw new WorkflowError(
      `the plan has ${plan.errors} error${plan.errors === 1 ? '' : 's'}: it is not saved, since applying it would leave ${plan.errors === 1 ? 'that ruleset' : 'those rulesets'} out; fix ${plan.errors === 1 ? 'it' : 'them'} and plan again`,
    );
  const targets: SavedTarget[] = plan.targets.map((t) => ({
    scope: { kind: t.target.scope.kind, id: t.target.scope.id },
    label: t.target.label,
    rulesets: t.rulesets.map((r) => {
      if (!r.body) throw new Error(`${r.file}: a planned ruleset without the body to write`);
      return {
        file: r.file,
        ...(r.label !== undefined ? { label: r.label } : {}),
        destination: r.destination,
        phase: r.phase,
        ...(r.liveVersion !== undefined ? { liveVersion: r.liveVersion } : {}),
        rulesOnly: r.rulesOnly === true,
        liveRules: r.rules.filter((rule) => rule.from !== undefined).length,
        counts: r.counts,
        changes: diffHasChanges(r),
        body: r.body,
        ...(r.localDigest !== undefined ? { localDigest: r.localDigest } : {}),
        ...(!diffHasChanges(r) && r.liveDigest !== undefined ? { live: { digest: r.liveDigest, rules: r.rules.flatMap((rule) => (rule.id !== undefined && rule.liveDigest !== undefined ? [{ id: rule.id, ...(rule.ref !== undefined ? { ref: rule.ref } : {}), digest: rule.liveDigest }] : [])) } } : {}),
      };
    }),
  }));
  const content = {
    format: PLAN_FILE_FORMAT,
    version: PLAN_FILE_VERSION,
    created: created.toISOString(),
    ...(options.baseUrl !== undefined ? { service: serviceOf(options.baseUrl) } : {}),
    targets,
  } as const;
  return { ...content, checksum: checksumOf(content) };
}

/** The plan file's text: JSON, two-space indented, ending with a line break. */
export function planFileText(plan: SavedPlan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

/** Whether a text is a saved plan (and not, say, a JSON ruleset file): its `format` says so. */
export function isPlanFileText(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === PLAN_FILE_FORMAT;
  } catch {
    return false;
  }
}

/** A plan file that cannot be applied: not one, of a newer version, or altered since it was written. */
export class PlanFileError extends WorkflowError {
  override readonly name = 'PlanFileError';
}

/** Reads a plan file, refusing one altered since it was written (its checksum). */
export function readSavedPlan(text: string, path: string): SavedPlan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PlanFileError(`${path}: not a plan file: ${(error as Error).message}; write one with \`rulesets plan -o ${path}\``);
  }
  const plan = value as Partial<SavedPlan> & Record<string, unknown>;
  if (typeof plan !== 'object' || plan === null || plan.format !== PLAN_FILE_FORMAT)
    throw new PlanFileError(`${path}: not a plan file (no \`"format": "${PLAN_FILE_FORMAT}"\`); write one with \`rulesets plan -o ${path}\``);
  if (plan.version !== PLAN_FILE_VERSION)
    throw new PlanFileError(
      `${path}: a plan file of version ${JSON.stringify(plan.version)}, which this version of rulesets cannot apply (it applies version ${PLAN_FILE_VERSION}); plan again with this version`,
    );
  const { checksum, ...content } = plan;
  if (typeof checksum !== 'string' || checksum !== checksumOf(content)) {
    throw new PlanFileError(`${path}: the plan was altered since it was written (its checksum does not match its content); nothing was applied: make a new plan with \`rulesets plan -o ${path}\``);
  }
  const shape = shapeProblem(plan);
  if (shape) throw new PlanFileError(`${path}: not a plan this version can apply: ${shape}; plan again with \`rulesets plan -o ${path}\``);
  return plan as SavedPlan;
}

/** What is wrong with a plan's shape (its checksum matched: made by hand or by another version), or undefined. */
function shapeProblem(plan: Record<string, unknown>): string | undefined {
  if (!Array.isArray(plan.targets)) return 'no `targets` list';
  for (const [t, target] of (plan.targets as unknown[]).entries()) {
    const { scope, rulesets } = (target ?? {}) as Partial<SavedTarget>;
    if (!scope || (scope.kind !== 'zone' && scope.kind !== 'account') || typeof scope.id !== 'string' || !Array.isArray(rulesets)) return `targets[${t}] needs \`scope\` (kind zone or account, and id) and \`rulesets\``;
    for (const [r, ruleset] of (rulesets as unknown[]).entries()) {
      const { destination, body, counts } = (ruleset ?? {}) as Partial<SavedRuleset>;
      const where = `targets[${t}].rulesets[${r}]`;
      if (!destination || !((destination.kind === 'ruleset' && typeof destination.id === 'string') || (destination.kind === 'entrypoint' && typeof destination.phase === 'string'))) return `${where} has no destination`;
      if (!body || !Array.isArray(body.rules) || !counts || typeof counts.remove !== 'number' || typeof counts.change !== 'number') return `${where} has no \`body\` with \`rules\`, or no \`counts\``;
    }
  }
  return undefined;
}

/** `sha256:` and the digest of the canonical JSON (keys sorted) of the content. */
function checksumOf(content: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(content)).digest('hex')}`;
}

/** JSON with object keys sorted, undefined left out: equal content, equal text. Plan bodies nest a few levels only. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

// ---------------------------------------------------------------- thresholds

/** The mass-change thresholds (`apply:` in `.rulesets.yaml`); past any, apply refuses without --allow-mass-change. */
export interface ApplyLimits {
  /** Most rules removed in one target. */
  readonly maxRemoved: number;
  /** Most rules changed in one target. */
  readonly maxChanged: number;
  /** Most rules removed in all. */
  readonly maxRemovedTotal: number;
  /** Most rules changed in all. */
  readonly maxChangedTotal: number;
  /** Largest share (percent) of one ruleset's live rules removed, where it removes 3 or more. */
  readonly maxRemovedPercent: number;
}

export const DEFAULT_APPLY_LIMITS: ApplyLimits = {
  maxRemoved: 10,
  maxChanged: 100,
  maxRemovedTotal: 50,
  maxChangedTotal: 1000,
  maxRemovedPercent: 50,
};

/** The thresholds of `apply:` in `.rulesets.yaml`, the defaults where it says nothing. */
export function applyLimitsOf(config: ApplyConfig | undefined): ApplyLimits {
  const d = DEFAULT_APPLY_LIMITS;
  return {
    maxRemoved: config?.max_removed ?? d.maxRemoved,
    maxChanged: config?.max_changed ?? d.maxChanged,
    maxRemovedTotal: config?.max_removed_total ?? d.maxRemovedTotal,
    maxChangedTotal: config?.max_changed_total ?? d.maxChangedTotal,
    maxRemovedPercent: config?.max_removed_percent ?? d.maxRemovedPercent,
  };
}

/** A removal of a couple of rules is no mass deletion, whatever share of a small ruleset it is. */
const SHARE_FLOOR = 3;

/** Each threshold the plan passes, as a sentence; empty when none. */
export function massChanges(plan: SavedPlan, limits: ApplyLimits = DEFAULT_APPLY_LIMITS): string[] {
  const out: string[] = [];
  let removedAll = 0;
  let changedAll = 0;
  for (const target of plan.targets) {
    let removed = 0;
    let changed = 0;
    for (const r of target.rulesets) {
      removed += r.counts.remove;
      changed += r.counts.change;
      const share = r.liveRules > 0 ? (100 * r.counts.remove) / r.liveRules : 0;
      if (r.counts.remove >= SHARE_FLOOR && share > limits.maxRemovedPercent) {
        out.push(
          `${target.scope.kind} ${target.label}: ${rulesetName(r)} would lose ${r.counts.remove} of its ${r.liveRules} rules (${Math.round(share)}%, more than max_removed_percent ${limits.maxRemovedPercent}%)`,
        );
      }
    }
    if (removed > limits.maxRemoved) out.push(`${target.scope.kind} ${target.label}: ${removed} rules would be removed (more than max_removed ${limits.maxRemoved})`);
    if (changed > limits.maxChanged) out.push(`${target.scope.kind} ${target.label}: ${changed} rules would be changed (more than max_changed ${limits.maxChanged})`);
    removedAll += removed;
    changedAll += changed;
  }
  if (removedAll > limits.maxRemovedTotal) out.push(`${removedAll} rules would be removed in all (more than max_removed_total ${limits.maxRemovedTotal})`);
  if (changedAll > limits.maxChangedTotal) out.push(`${changedAll} rules would be changed in all (more than max_changed_total ${limits.maxChangedTotal})`);
  return out;
}

/** How a ruleset is named in apply's messages: its destination and its file. */
export function rulesetName(r: Pick<SavedRuleset, 'destination' | 'file' | 'label'>): string {
  return `${describeDestination(r.destination)} (${r.file}${r.label !== undefined ? ` ${r.label}` : ''})`;
}

// ---------------------------------------------------------------- apply

/** What became of one ruleset. */
export type ApplyOutcome =
  | { readonly state: 'applied'; readonly from?: string; readonly to: string }
  /** Already as the plan leaves it (an earlier apply of this plan wrote it). */
  | { readonly state: 'done'; readonly version: string }
  /** The plan changes nothing in it. */
  | { readonly state: 'unchanged' }
  | { readonly state: 'not-applied'; readonly reason: string }
  /** Whether the write landed could not be found out. */
  | { readonly state: 'unknown'; readonly reason: string };

export interface AppliedRuleset {
  readonly target: SavedTarget;
  readonly ruleset: SavedRuleset;
  readonly outcome: ApplyOutcome;
}

export interface ApplyResult {
  readonly rulesets: readonly AppliedRuleset[];
  /** Every ruleset is as the plan leaves it. */
  readonly complete: boolean;
}

/** One line of the audit log: one write. */
export interface AuditEntry {
  readonly time: string;
  /** `USER`, and `git config user.email` where set; never a credential. */
  readonly who: string;
  readonly target: {
    readonly kind: Scope['kind'];
    readonly id: string;
    readonly label: string;
  };
  readonly ruleset: string;
  readonly file: string;
  readonly label?: string;
  readonly from: string | null;
  /** The version written; null when not known. */
  readonly to: string | null;
  readonly outcome: 'applied' | 'failed' | 'unknown';
  readonly plan: string;
}

/** An apply refused before any write: the plan's versions moved, or a mass change. */
export class ApplyRefusedError extends WorkflowError {
  override readonly name = 'ApplyRefusedError';
  constructor(
    message: string,
    readonly reasons: readonly string[],
  ) {
    super(message);
  }
}

export interface ApplyOptions {
  readonly clientFor: (scope: Scope) => RulesetsClient;
  readonly limits?: ApplyLimits;
  readonly allowMassChange?: boolean;
  /** Writes at once (default 4): within the API's rate limit. */
  readonly concurrency?: number;
  /** Called once per write sent, when its outcome is known. */
  readonly audit?: (entry: AuditEntry) => void;
  readonly who?: string;
  /**
   * Called with the lock file's entry of each ruleset as this apply leaves it: as the service
   * returned it once its write landed (or had landed before), or, where the plan changes
   * nothing, as planned. Not called for a ruleset not applied or unknown.
   */
  readonly onLocked?: (target: SavedTarget, ruleset: SavedRuleset, entry: LockEntry) => void;
  /** Called as each ruleset's outcome is known. */
  readonly onOutcome?: (applied: AppliedRuleset) => void;
  readonly signal?: AbortSignal;
  readonly now?: () => Date;
}

/**
 * Applies a saved plan: the thresholds and every live version are checked before any write
 * (ApplyRefusedError), then each ruleset with changes is written once, custom rulesets first.
 * A failed write stops new ones; those in flight finish; the result says what landed.
 */
export async function applyPlan(plan: SavedPlan, options: ApplyOptions): Promise<ApplyResult> {
  if (!options.allowMassChange) {
    const mass = massChanges(plan, options.limits ?? DEFAULT_APPLY_LIMITS);
    if (mass.length > 0)
      throw new ApplyRefusedError(
        `not applied: the plan passes the mass-change thresholds (\`apply:\` in .rulesets.yaml): ${mass.join('; ')}; check the plan, then apply with --allow-mass-change if it is meant`,
        mass,
      );
  }
  const items = plan.targets.flatMap((target) => target.rulesets.map((ruleset) => ({ target, ruleset })));
  const outcomes = new Map<SavedRuleset, ApplyOutcome>();
  const settle = (target: SavedTarget, ruleset: SavedRuleset, outcome: ApplyOutcome) => {
    outcomes.set(ruleset, outcome);
    options.onOutcome?.({ target, ruleset, outcome });
  };
  // Every live version first: a moved one refuses the whole plan before anything is written.
  const pending: { target: SavedTarget; ruleset: SavedRuleset }[] = [];
  const moved: string[] = [];
  const toRead = items.filter((i) => i.ruleset.changes);
  const unreadable: { what: string; error: ApiError }[] = [];
  await runPool(
    toRead.map(({ target, ruleset }) => async () => {
      let live: Ruleset | undefined;
      try {
        live = await readLive(options.clientFor(target.scope), ruleset.destination, options.signal);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        unreadable.push({ what: `${target.scope.kind} ${target.label}: ${rulesetName(ruleset)}`, error });
        return;
      }
      if (live?.version === ruleset.liveVersion) pending.push({ target, ruleset });
      else if (live && atPlannedContent(live, ruleset)) {
        outcomes.set(ruleset, { state: 'done', version: live.version });
        options.onLocked?.(target, ruleset, lockEntryOf(live, ruleset.localDigest));
      }
      else moved.push(`${target.scope.kind} ${target.label}: ${rulesetName(ruleset)} was at ${versionText(ruleset.liveVersion)} when planned, ${versionText(live?.version)} now`);
    }),
    options.concurrency ?? 4,
    () => false,
  );
  if (unreadable.length > 0) {
    // Before any write: the plan cannot be checked against what is live, so nothing is sent.
    const first = unreadable[0];
    throw new WorkflowError(`not applied: ${unreadable.length} live ruleset${unreadable.length === 1 ? '' : 's'} could not be read, so nothing was written: ${first.what}: ${first.error.message}${unreadable.length > 1 ? ` (and ${unreadable.length - 1} more)` : ''}; apply again`, { cause: first.error });
  }
  if (moved.length > 0) {
    moved.sort();
    throw new ApplyRefusedError(`not applied: live rulesets changed since the plan (a dashboard edit or another apply): ${moved.join('; ')}; plan again`, moved);
  }
  for (const { target, ruleset } of items) {
    if (!ruleset.changes) {
      settle(target, ruleset, { state: 'unchanged' });
      if (ruleset.live && ruleset.liveVersion !== undefined)
        options.onLocked?.(target, ruleset, { version: ruleset.liveVersion, digest: ruleset.live.digest, ...(ruleset.localDigest !== undefined ? { file_digest: ruleset.localDigest } : {}), rules: ruleset.live.rules });
    }
    else if (outcomes.has(ruleset)) settle(target, ruleset, outcomes.get(ruleset)!);
  }
  // Custom rulesets first: an entry point may execute them.
  const order = (r: SavedRuleset) => (r.destination.kind === 'ruleset' ? 0 : 1);
  const waves = [0, 1].map((wave) =>
    pending.filter((p) => order(p.ruleset) === wave).sort((a, b) => items.findIndex((i) => i.ruleset === a.ruleset) - items.findIndex((i) => i.ruleset === b.ruleset)),
  );
  let stopped = false;
  const digest = plan.checksum;
  const now = options.now ?? (() => new Date());
  const audit = (target: SavedTarget, ruleset: SavedRuleset, outcome: AuditEntry['outcome'], to: string | undefined) =>
    options.audit?.({
      time: now().toISOString(),
      who: options.who ?? 'unknown',
      target: {
        kind: target.scope.kind,
        id: target.scope.id,
        label: target.label,
      },
      ruleset: describeDestination(ruleset.destination),
      file: ruleset.file,
      ...(ruleset.label !== undefined ? { label: ruleset.label } : {}),
      from: ruleset.liveVersion ?? null,
      to: to ?? null,
      outcome,
      plan: digest,
    });
  for (const wave of waves) {
    await runPool(
      wave.map(({ target, ruleset }) => async () => {
        const { outcome, live } = await writeOne(options.clientFor(target.scope), ruleset, options.signal);
        if (live) options.onLocked?.(target, ruleset, lockEntryOf(live, ruleset.localDigest));
        if (outcome.state !== 'applied') stopped = true;
        audit(target, ruleset, outcome.state === 'applied' ? 'applied' : outcome.state === 'unknown' ? 'unknown' : 'failed', outcome.state === 'applied' ? outcome.to : undefined);
        settle(target, ruleset, outcome);
      }),
      options.concurrency ?? 4,
      () => stopped,
    );
  }
  for (const { target, ruleset } of items) {
    if (!outcomes.has(ruleset))
      settle(target, ruleset, {
        state: 'not-applied',
        reason: 'not sent: an earlier write failed',
      });
  }
  const rulesets = items.map(({ target, ruleset }) => ({
    target,
    ruleset,
    outcome: outcomes.get(ruleset)!,
  }));
  return {
    rulesets,
    complete: rulesets.every((r) => r.outcome.state === 'applied' || r.outcome.state === 'done' || r.outcome.state === 'unchanged'),
  };
}

/** One PUT; after a failure, what is live says whether it landed. `live`: the ruleset as the service holds it, when it landed. */
async function writeOne(client: RulesetsClient, ruleset: SavedRuleset, signal?: AbortSignal): Promise<{ outcome: ApplyOutcome; live?: Ruleset }> {
  const ref = ruleset.destination.kind === 'ruleset' ? ruleset.destination.id : { phase: ruleset.destination.phase };
  try {
    const written = await client.updateRuleset(ref, ruleset.body, { signal });
    return { outcome: { state: 'applied', ...(ruleset.liveVersion !== undefined ? { from: ruleset.liveVersion } : {}), to: written.version }, live: written };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    let live: Ruleset | undefined;
    try {
      live = await readLive(client, ruleset.destination, signal);
    } catch (readError) {
      return { outcome: { state: 'unknown', reason: `${error.message}; reading it back failed too (${(readError as Error).message}): check with \`rulesets versions\`, then apply the plan again` } };
    }
    if (live && live.version !== ruleset.liveVersion && atPlannedContent(live, ruleset)) return { outcome: { state: 'applied', ...(ruleset.liveVersion !== undefined ? { from: ruleset.liveVersion } : {}), to: live.version }, live };
    if (live?.version === ruleset.liveVersion) return { outcome: { state: 'not-applied', reason: error.message } };
    return { outcome: { state: 'unknown', reason: `${error.message}; ${versionText(live?.version)} is live, neither the plan's starting point nor its result` } };
  }
}

/** Whether the live ruleset is already as the plan leaves it (rules, their order and content, and the description). */
export function atPlannedContent(live: Ruleset, ruleset: SavedRuleset): boolean {
  const diff = diffRuleset(
    {
      ...(ruleset.body.description !== undefined ? { description: ruleset.body.description } : {}),
      rules: ruleset.body.rules,
    },
    live,
    { owned: true, rulesOnly: ruleset.rulesOnly },
  );
  return !diffHasChanges(diff);
}

async function readLive(client: RulesetsClient, destination: Destination, signal?: AbortSignal): Promise<Ruleset | undefined> {
  try {
    return destination.kind === 'ruleset' ? await client.getRuleset(destination.id, { signal }) : await client.getEntryPoint(destination.phase, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

function versionText(version: string | undefined): string {
  return version === undefined ? 'nothing (no ruleset)' : `version ${version}`;
}

/** Runs the jobs, at most `limit` at once; once `stop()` holds, no new job starts (those running finish). */
async function runPool(jobs: readonly (() => Promise<void>)[], limit: number, stop: () => boolean): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !stop()) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), jobs.length) }, worker));
}

/** Appends audit entries to a JSON-lines file (its folder made when missing). */
export function auditLogWriter(path: string): (entry: AuditEntry) => void {
  let made = false;
  return (entry) => {
    if (!made) {
      mkdirSync(dirname(path), { recursive: true });
      made = true;
    }
    appendFileSync(path, `${JSON.stringify(entry)}\n`);
  };
}
