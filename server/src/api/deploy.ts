/**
 * Deploying a local ruleset file safely, for the CLI and the VS Code extension alike: a plan
 * (our own check, what is live, a version conflict, the service's dry run, a diff) and its
 * application, which never overwrites a change someone else deployed in the meantime and
 * never half-happens. No VS Code, no console.
 */
import { linePosition, toPositions, type PositionedProblem } from '../documents/positions';
import { hasError } from '../language/problem';
import { checkRuleset } from '../documents/ruleset';
import { parseRuleset } from '../documents/parsed-ruleset';
import { ApiError, type RulesetsClient, type Scope } from './client';
import { unifiedDiff } from './diff';
import { placeOwnRules, WorkflowError, type LocalRuleset } from './local-ruleset';
import { pointerToRange } from './pointer';
import { localAsDeployed, recordDeployed, serializeRuleset } from './ruleset-file';
import type { Ruleset, UpdateRulesetBody } from './types';

/**
 * The real write failed in a way that leaves open whether it reached the service (a 5xx, a
 * timeout, a dropped connection). `live` is the version found live right after, when it could
 * be read; `landed` says whether that looks like the change went through. The local file is
 * never updated after this error.
 */
export class DeployOutcomeUnknownError extends WorkflowError {
  override readonly name = 'DeployOutcomeUnknownError';
  constructor(
    message: string,
    readonly apiError: ApiError,
    readonly live?: string,
    readonly landed?: boolean,
  ) {
    super(message, { cause: apiError });
  }
}

export type Destination = { kind: 'ruleset'; id: string } | { kind: 'entrypoint'; phase: string };

/**
 * Where a file deploys to: the ruleset of its `id`, else (for kind `root` or `zone`, or no
 * kind: an entry point's is the account's or zone's it is in) its phase's entry point. A custom
 * ruleset without an id has to be created first.
 */
export function destinationOf(local: LocalRuleset): Destination {
  if (local.id) return { kind: 'ruleset', id: local.id };
  if (local.body.kind === undefined || local.body.kind === 'root' || local.body.kind === 'zone') return { kind: 'entrypoint', phase: local.body.phase };
  if (local.layout === 'terraform') {
    throw new WorkflowError(`${local.path}: ${local.label ?? 'the resource'} is a \`${local.body.kind}\` ruleset, whose id Terraform keeps in its state, not in the file: deploy it with \`terraform apply\`, or pull it as YAML (\`rulesets pull <ruleset-id> -o FILE.yaml\`) to deploy it from here`);
  }
  throw new WorkflowError(
    `${local.path}: a \`${local.body.kind}\` ruleset without an \`id\` has nowhere to deploy to; create it first (\`rulesets create ${local.path}\`), or add the \`id\` of the ruleset it is`,
  );
}

/**
 * Stops, before any request, a file whose `kind` belongs to the other level: an entry point of
 * kind `zone` lives in a zone and one of kind `root` in an account (API.md, "Objects as
 * returned"; the emulator's entry points). Sent anyway, it would be refused as a change of kind,
 * or, with an `id`, not found: neither says that the account or zone is what to change.
 */
export function refuseOtherLevel(local: LocalRuleset, scope: Scope): void {
  // A file without a `kind` is an entry point of the level it is sent to.
  const kind = local.body.kind ?? entryPointKind(scope);
  const level = kind === 'zone' ? 'zone' : kind === 'root' ? 'account' : undefined;
  if (level === undefined || level === scope.kind) return;
  const choose = level === 'zone' ? 'a zone (--zone ID or RULESETS_ZONE_ID' : 'an account (--account ID or RULESETS_ACCOUNT_ID';
  const kindHere = scope.kind === 'zone' ? 'zone' : 'root';
  throw new WorkflowError(
    `${local.path}:${linePosition(local.text, valueOffset(local, 'kind'))}: \`kind: ${local.body.kind}\` is ${level === 'zone' ? 'a zone' : 'an account'}'s entry point, but the API commands work on ${scope.kind} ${scope.id}: choose ${choose}; in VS Code, Rulesets: Choose Account or Zone), or make the file \`kind: ${kindHere}\` to deploy it to this ${scope.kind}; nothing was sent`,
  );
}

/** The kind of an entry point in an account (`root`) or a zone (`zone`). */
function entryPointKind(scope: Scope): 'root' | 'zone' {
  return scope.kind === 'zone' ? 'zone' : 'root';
}

export function describeDestination(destination: Destination): string {
  return destination.kind === 'ruleset' ? `ruleset ${destination.id}` : `the ${destination.phase} entry point`;
}

function destinationRef(destination: Destination): string | { phase: string } {
  return destination.kind === 'ruleset' ? destination.id : { phase: destination.phase };
}

export interface ServiceProblem {
  readonly message: string;
  /** Offsets in the local file (UTF-16 code units), end exclusive. */
  readonly start: number;
  readonly end: number;
}

export interface DeployPlan {
  readonly destination: Destination;
  /**
   * Our own check of the file: errors and warnings. Any error stops the plan before a request
   * is made (then `deployed` and `diff` say nothing), and `applyDeploy` refuses.
   */
  readonly localProblems: PositionedProblem[];
  /** What is live now; undefined when the entry point does not exist yet (or nothing was asked). */
  readonly deployed?: Ruleset;
  /** The version the file is based on (its `version`). */
  readonly baseVersion?: string;
  /** The live version moved on since the file's version (`current` is `none` when it is gone). */
  readonly conflict?: { base: string; current: string };
  /** Unified diff, live → local, of both as pull writes them in the file's format; '' when equal. */
  readonly diff: string;
  /** The service's dry run rejected the file. */
  readonly dryRunError?: ApiError;
  /** `dryRunError`'s errors placed in the local file. */
  readonly serviceProblems: ServiceProblem[];
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** Errors and warnings of our own check, with LSP positions. */
export function checkLocal(local: LocalRuleset): PositionedProblem[] {
  const problems = checkRuleset(local.text, local.format).filter((p) => p.severity === 'error' || p.severity === 'warning');
  return toPositions(local.text, problems);
}

export function hasErrors(problems: readonly PositionedProblem[]): boolean {
  return hasError(problems);
}

/**
 * Everything a deploy of `local` would do, without doing it: our check (when it finds an
 * error, nothing is asked of the service), what is live (a missing entry point is new), a
 * version conflict, the service's dry run, and the diff.
 */
export async function planDeploy(client: RulesetsClient, file: LocalRuleset, options: CallOptions = {}): Promise<DeployPlan> {
  // A file deployed alone is its entry point's only file: its `before:`/`after:` order its rules.
  const placed = placeOwnRules(file);
  const given = placed.local;
  const destination = destinationOf(given);
  refuseOtherLevel(given, client.scope);
  const localProblems = [...checkLocal(given), ...toPositions(given.text, placed.problems)];
  const baseVersion = given.version;
  if (hasErrors(localProblems)) return { destination, localProblems, baseVersion, diff: '', serviceProblems: [] };
  const deployed = await readDeployed(client, given, destination, options.signal);
  const local = asDeployedOver(given, deployed);
  if (deployed) refuseIdentityChange(local, deployed, destination);
  const conflict = findConflict(baseVersion, deployed);
  let dryRunError: ApiError | undefined;
  try {
    await client.dryRun.updateRuleset(destinationRef(destination), updateBody(local, deployed), { signal: options.signal });
  } catch (error) {
    dryRunError = rejection(error);
  }
  const diff = unifiedDiff(deployed ? serializeRuleset(deployed, local.format) : '', localAsDeployed(local, deployed), {
    from: deployed ? `${describeDestination(destination)} (version ${deployed.version}, live)` : `${describeDestination(destination)} (does not exist yet)`,
    to: local.path,
  });
  return {
    destination,
    localProblems,
    ...(deployed ? { deployed } : {}),
    ...(baseVersion !== undefined ? { baseVersion } : {}),
    ...(conflict ? { conflict } : {}),
    diff,
    ...(dryRunError ? { dryRunError } : {}),
    serviceProblems: dryRunError ? mapServiceProblems(dryRunError, local) : [],
  };
}

/** One line about a conflict: what the file is based on, what is live, and what to do. */
export function conflictMessage(local: LocalRuleset, plan: Pick<DeployPlan, 'destination' | 'conflict'>): string {
  const conflict = plan.conflict;
  if (!conflict) return '';
  const what = describeDestination(plan.destination);
  if (conflict.current === 'none') {
    return `${local.path} is based on version ${conflict.base} of ${what}, which no longer exists; deploying would create it anew (--force), or remove \`version\` from the file`;
  }
  return `${local.path} is based on version ${conflict.base} of ${what}, but version ${conflict.current} is live: someone else deployed since; pull it and merge your change (the diff shows what deploying would undo), or deploy with --force to replace it`;
}

/**
 * Deploys a plan: refuses (`WorkflowError`) when the plan has local errors, a dry-run
 * rejection, or a conflict (unless `force`); reads the live version again right before the
 * write and refuses when it moved since the plan (unless `force`); then writes. Returns the
 * new version and the local file's new text (the version recorded). When the write fails in a
 * way that may or may not have reached the service, throws `DeployOutcomeUnknownError`
 * after looking at what is live.
 */
export async function applyDeploy(
  client: RulesetsClient,
  local: LocalRuleset,
  plan: DeployPlan,
  options: { force?: boolean; signal?: AbortSignal } = {},
): Promise<{ ruleset: Ruleset; newText: string }> {
  if (hasErrors(plan.localProblems)) throw new WorkflowError(`${local.path}: not deployed: the check found errors; fix them first (\`rulesets check ${local.path}\`)`);
  if (plan.dryRunError) throw new WorkflowError(`${local.path}: not deployed: the service rejected it: ${plan.dryRunError.message}`);
  if (plan.conflict && !options.force) throw new WorkflowError(`not deployed: ${conflictMessage(local, plan)}`);
  const destination = plan.destination;
  const before = await readDeployed(client, local, destination, options.signal, true);
  if (before?.version !== plan.deployed?.version && !options.force) {
    const was = plan.deployed ? `version ${plan.deployed.version}` : 'nothing';
    const now = before ? `version ${before.version}` : 'nothing';
    throw new WorkflowError(`${local.path}: not deployed: ${describeDestination(destination)} changed since the plan (${was} then, ${now} now); plan again to see what deploying would change`);
  }
  // Sent in the order its `before:`/`after:` give, as planned.
  const sent = asDeployedOver(placeOwnRules(local).local, before);
  if (before) refuseIdentityChange(sent, before, destination);
  let ruleset: Ruleset;
  try {
    ruleset = await client.updateRuleset(destinationRef(destination), updateBody(sent, before), { signal: options.signal });
  } catch (error) {
    throw await uncertain(error, client, local, destination, before?.version, options.signal);
  }
  return { ruleset, newText: recordDeployed(sent, ruleset) };
}

/** The live version of the destination; undefined for an entry point that does not exist. */
async function readDeployed(client: RulesetsClient, local: LocalRuleset, destination: Destination, signal?: AbortSignal, missingIdIsNone = false): Promise<Ruleset | undefined> {
  try {
    return destination.kind === 'ruleset' ? await client.getRuleset(destination.id, { signal }) : await client.getEntryPoint(destination.phase, { signal });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    if (destination.kind === 'entrypoint' || missingIdIsNone) return undefined;
    throw new WorkflowError(
      `${local.path}: ruleset ${destination.id} (the file's \`id\`) was not found at ${client.host}; it may have been deleted or belong to another account or zone: check --account/--zone, or remove \`id\` and \`version\` and run \`rulesets create ${local.path}\``,
      { cause: error },
    );
  }
}

function findConflict(base: string | undefined, deployed: Ruleset | undefined): { base: string; current: string } | undefined {
  if (base === undefined) return undefined;
  if (!deployed) return { base, current: 'none' };
  return deployed.version !== base ? { base, current: deployed.version } : undefined;
}

/**
 * The file's ruleset as it would be deployed over `deployed`: a rule without an `id` whose
 * `ref` is a live rule's gets that rule's id, so that it is updated in place (as the Terraform
 * provider does: resource.go, ModifyPlan, at terraform-provider-cloudflare a2efdc5), and a
 * file that gives only rules (an octorules section) keeps the live ruleset's name.
 */
export function asDeployedOver(local: LocalRuleset, deployed: Ruleset | undefined): LocalRuleset {
  if (!deployed) return local;
  const claimed = new Set(local.body.rules.map((r) => r.id).filter((id) => id !== undefined));
  const byRef = new Map(deployed.rules.filter((r) => !claimed.has(r.id)).map((r) => [r.ref, r.id]));
  let matched = false;
  const rules = local.body.rules.map((rule) => {
    const id = rule.id === undefined && rule.ref !== undefined ? byRef.get(rule.ref) : undefined;
    if (id === undefined) return rule;
    byRef.delete(rule.ref!);
    matched = true;
    // The ref is the id's own when the service gave it: the id alone says it, as pull writes it.
    const { ref, ...rest } = rule;
    return { id, ...(ref === id ? {} : { ref }), ...rest };
  });
  if (!matched && !local.rulesOnly) return local;
  return { ...local, body: { ...local.body, ...(local.rulesOnly ? { name: deployed.name } : {}), rules } };
}

/**
 * The body of "update or deploy" for the file: the rules and the description. Name, kind and
 * phase cannot change on the service, so they go only where the PUT creates the ruleset (a
 * phase's entry point that does not exist yet), and only those the file gives (the service names
 * a new entry point itself, of its level's kind); `refuseIdentityChange` has made sure they match.
 */
function updateBody(local: LocalRuleset, deployed: Ruleset | undefined): UpdateRulesetBody {
  if (!deployed && local.rulesOnly) {
    const { name: _name, ...rest } = local.body;
    return rest;
  }
  if (!deployed) return local.body;
  const { name: _name, kind: _kind, phase: _phase, ...rest } = local.body;
  return rest;
}

/**
 * Stops a deploy, before any write, when the file's `name`, `kind` or `phase` is not the live
 * ruleset's: the service cannot rename a ruleset or move it to another kind or phase, so the
 * deploy would fail or silently keep the live one. One the file does not give is never sent.
 */
function refuseIdentityChange(local: LocalRuleset, deployed: Ruleset, destination: Destination): void {
  for (const field of ['name', 'kind', 'phase'] as const) {
    const mine = local.body[field];
    const live = deployed[field];
    if (mine === undefined || mine === live) continue;
    // A phase has one entry point: there is no new one to create under another name.
    const anew = destination.kind === 'ruleset' ? `; for a new ${field}, create a new ruleset (remove \`id\` and \`version\`, then \`rulesets create ${local.path}\`)` : '';
    // Written as the file writes it: `name = "…"` in Terraform.
    const set = local.layout === 'terraform' ? `${field} = ${JSON.stringify(live)}` : field === 'name' ? `name: ${JSON.stringify(live)}` : `${field}: ${live}`;
    const fix = field === 'name' ? `the service cannot rename a ruleset: set \`${set}\` in the file to deploy${anew}` : `a ruleset's ${field} cannot change: set \`${set}\` back${anew}`;
    throw new WorkflowError(`${local.path}:${linePosition(local.text, valueOffset(local, field))}: not deployed: \`${field}\` is ${JSON.stringify(mine)} in the file but ${JSON.stringify(live)} on ${describeDestination(destination)}; ${fix}`);
  }
}

/** Where the top-level `key`'s value starts in the file (the file's start when it has none). */
function valueOffset(local: LocalRuleset, key: string): number {
  const found = (local.ruleset ?? parseRuleset(local.text, local.format)).root;
  const property = found?.kind === 'object' ? found.properties.find((p) => p.key === key) : undefined;
  return property?.value?.start ?? property?.keyStart ?? 0;
}

/** A dry run's refusal (a 4xx with the service's reasons); anything else is thrown. */
export function rejection(error: unknown): ApiError {
  if (error instanceof ApiError && error.kind === 'api' && error.status !== undefined && error.status >= 400 && error.status < 500 && ![401, 403, 404, 429].includes(error.status)) return error;
  throw error;
}

/** After a failed write: what is live now says whether it landed. */
async function uncertain(error: unknown, client: RulesetsClient, local: LocalRuleset, destination: Destination, before: string | undefined, signal?: AbortSignal): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  const mayHaveArrived = error.kind === 'timeout' || error.kind === 'invalid-response' || error.kind === 'network' || (error.status !== undefined && error.status >= 500);
  if (!mayHaveArrived) return error;
  let live: Ruleset | undefined;
  try {
    live = await readDeployed(client, local, destination, signal, true);
  } catch {
    return new DeployOutcomeUnknownError(
      `${error.message}; whether the change reached the service is unknown, and reading ${describeDestination(destination)} back failed too; ${local.path} was not changed: check with \`rulesets versions\` before deploying again`,
      error,
    );
  }
  const landed = live !== undefined && live.version !== before;
  const liveText = live ? `version ${live.version}` : 'nothing';
  const verdict = landed
    ? `yet ${liveText} is live now (it was ${before === undefined ? 'nothing' : `version ${before}`}): the change most likely went through; ${local.path} was not changed: pull it to record the new version`
    : `${describeDestination(destination)} is still at ${liveText}: nothing was deployed; ${local.path} was not changed; try again`;
  return new DeployOutcomeUnknownError(`${error.message}; ${verdict}`, error, live?.version, landed);
}

/** The service's errors placed in the local file (an error without a pointer: the file's start). */
export function mapServiceProblems(error: ApiError, local: LocalRuleset): ServiceProblem[] {
  const errors = error.errors.length > 0 ? error.errors : [{ message: error.message }];
  return errors.map((e) => {
    const range = 'pointer' in e && e.pointer !== undefined ? pointerToRange(local.text, local.format, e.pointer, { message: e.message, ruleset: local.ruleset }) : undefined;
    return { message: e.message, start: range?.start ?? 0, end: range?.end ?? 0 };
  });
}
