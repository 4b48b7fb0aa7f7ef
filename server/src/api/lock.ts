/**
 * Drift: the lock file (`.rulesets/lock.json`, committed) records, per target and ruleset, the
 * version and digests of what this repository last applied, as the service returned it after
 * the write. `plan` then tells a ruleset changed here (the files ask something else than what
 * was last applied) from one changed live since (a dashboard edit), and names the live edits an
 * apply would undo. Digests cover content only (never a version, a time or a credential), so
 * an unchanged live ruleset matches its entry. Pure: the CLI reads and writes the file.
 */
import type { Scope } from './client';
import { describeDestination, type Destination } from './deploy';
import { WorkflowError } from './local-ruleset';
import { ruleDigest, rulesetDigest, type EstatePlan, type RulePlan, type RulesetDrift, type RulesetPlan } from './plan';
import type { Ruleset } from './types';

/** What a lock file says it is. */
export const LOCK_FILE_FORMAT = 'rulesets-lock';
/** The lock file's shape: a newer one is not misread by an older version. */
export const LOCK_FILE_VERSION = 1;

/** One rule as last applied: its id, its ref where its author set one, and its content's digest (ruleDigest). */
export interface LockedRule {
  readonly id: string;
  readonly ref?: string;
  readonly digest: string;
}

/** One ruleset as last applied. */
export interface LockEntry {
  /** The live version the write left. */
  readonly version: string;
  /** rulesetDigest of the ruleset the service returned. */
  readonly digest: string;
  /** localDigest of what the files asked (absent when the plan did not record it). */
  readonly file_digest?: string;
  /** Each rule, in order. */
  readonly rules: readonly LockedRule[];
}

export interface LockFile {
  readonly format: typeof LOCK_FILE_FORMAT;
  readonly version: typeof LOCK_FILE_VERSION;
  /** Keyed by lockKey (target, then ruleset): sorted when written, so that a diff shows only what moved. */
  readonly rulesets: Readonly<Record<string, LockEntry>>;
}

export function emptyLock(): LockFile {
  return { format: LOCK_FILE_FORMAT, version: LOCK_FILE_VERSION, rulesets: {} };
}

/** The key of a ruleset in the lock: `zone ID: the PHASE entry point` or `account ID: ruleset ID`. */
export function lockKey(scope: Pick<Scope, 'kind' | 'id'>, destination: Destination): string {
  return `${scope.kind} ${scope.id}: ${describeDestination(destination)}`;
}

/** The entry for a ruleset as the service returned it after a write (`fileDigest`: what the files asked). */
export function lockEntryOf(live: Ruleset, fileDigest: string | undefined): LockEntry {
  return {
    version: live.version,
    digest: rulesetDigest(live),
    ...(fileDigest !== undefined ? { file_digest: fileDigest } : {}),
    rules: (live.rules ?? []).map((r) => ({ id: r.id, ...(r.ref !== undefined && r.ref !== r.id ? { ref: r.ref } : {}), digest: ruleDigest(r) })),
  };
}

/** The lock with one entry set. */
export function withLockEntry(lock: LockFile, key: string, entry: LockEntry): LockFile {
  return { ...lock, rulesets: { ...lock.rulesets, [key]: entry } };
}

/** The lock file's text: keys sorted, two-space indented, ending with a line break. */
export function lockFileText(lock: LockFile): string {
  const rulesets: Record<string, LockEntry> = {};
  for (const key of Object.keys(lock.rulesets).sort()) {
    const e = lock.rulesets[key];
    rulesets[key] = { version: e.version, digest: e.digest, ...(e.file_digest !== undefined ? { file_digest: e.file_digest } : {}), rules: e.rules.map((r) => ({ id: r.id, ...(r.ref !== undefined ? { ref: r.ref } : {}), digest: r.digest })) };
  }
  return `${JSON.stringify({ format: LOCK_FILE_FORMAT, version: LOCK_FILE_VERSION, rulesets }, null, 2)}\n`;
}

/** Reads a lock file; one that is not one, or of a newer version, is an error naming the file and the fix. */
export function readLockFile(text: string, path: string): LockFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WorkflowError(`${path}: not a lock file: ${(error as Error).message}; restore it from version control, or delete it (the next apply writes it again)`);
  }
  const lock = value as Partial<LockFile>;
  if (typeof lock !== 'object' || lock === null || lock.format !== LOCK_FILE_FORMAT || typeof lock.rulesets !== 'object' || lock.rulesets === null)
    throw new WorkflowError(`${path}: not a lock file (no \`"format": "${LOCK_FILE_FORMAT}"\` and \`rulesets\`); restore it from version control, or delete it (the next apply writes it again)`);
  if (lock.version !== LOCK_FILE_VERSION) throw new WorkflowError(`${path}: a lock file of version ${JSON.stringify(lock.version)}, which this version of rulesets cannot read (it reads version ${LOCK_FILE_VERSION}); update rulesets`);
  for (const [key, entry] of Object.entries(lock.rulesets)) {
    if (typeof entry?.version !== 'string' || typeof entry.digest !== 'string' || !Array.isArray(entry.rules)) throw new WorkflowError(`${path}: the entry "${key}" needs \`version\`, \`digest\` and \`rules\`; restore the file from version control, or delete the entry`);
  }
  return lock as LockFile;
}

/**
 * The plan with drift against the lock: each ruleset with a lock entry gets `drift`, and each
 * rule edited or added live since then is marked, with whether the apply would undo it. A
 * ruleset without an entry (never applied from here) says nothing of drift.
 */
export function withDrift(plan: EstatePlan, lock: LockFile): EstatePlan {
  return {
    ...plan,
    targets: plan.targets.map((t) => ({
      ...t,
      rulesets: t.rulesets.map((r) => {
        const entry = lock.rulesets[lockKey(t.target.scope, r.destination)];
        return entry ? rulesetWithDrift(r, entry) : r;
      }),
    })),
  };
}

function rulesetWithDrift(r: RulesetPlan, entry: LockEntry): RulesetPlan {
  // The same version is the same content; another version with the same content is no edit either.
  const changedLive = r.liveVersion !== entry.version && r.liveDigest !== entry.digest;
  const locked = new Map(entry.rules.map((rule) => [rule.id, rule.digest]));
  const liveIds = new Set<string>();
  const undone: string[] = [];
  const rules = r.rules.map((rule): RulePlan => {
    if (rule.id === undefined || rule.liveDigest === undefined) return rule;
    liveIds.add(rule.id);
    if (!changedLive) return rule;
    const was = locked.get(rule.id);
    const drift = was === undefined ? 'added-live' : was !== rule.liveDigest ? 'edited-live' : undefined;
    if (!drift) return rule;
    const isUndone = rule.action === 'change' || rule.action === 'remove';
    if (isUndone) undone.push(rule.name);
    return { ...rule, drift, undone: isUndone };
  });
  const removedLive = changedLive ? entry.rules.filter((rule) => !liveIds.has(rule.id)).map((rule) => rule.ref ?? rule.id) : [];
  const drift: RulesetDrift = {
    lockedVersion: entry.version,
    ...(entry.file_digest !== undefined && r.localDigest !== undefined ? { changedHere: r.localDigest !== entry.file_digest } : {}),
    changedLive,
    undone,
    removedLive,
  };
  return { ...r, rules, drift };
}
