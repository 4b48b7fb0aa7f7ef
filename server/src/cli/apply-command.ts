/**
 * `rulesets apply [PLAN | PATH…]`: applies exactly a saved plan (`rulesets plan -o FILE`), or,
 * given ruleset files or folders (or nothing), makes a plan, shows it, asks, and applies it, as
 * `terraform apply` does. The engine is `../api/apply.ts`; this is its command-line face: the
 * configuration's thresholds and audit log, the confirmation, the report and the exit status.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { parseCommandArgs } from './args';
import { usageBlock } from './synopsis';
import {
  applyLimitsOf,
  applyPlan,
  auditLogWriter,
  isPlanFileText,
  planTargets,
  planText,
  readSavedPlan,
  rulesetName,
  RulesetsClient,
  savedPlanOf,
  serviceOf,
  type AppliedRuleset,
  type SavedPlan,
  type Scope,
  withDrift,
} from '../core';
import { prepareReaders, ProjectConfigs, STDIN, UsageError } from './check';
import { CONNECTION_HELP, CONNECTION_OPTIONS, clientsByScope, refuseCredentialFlags } from './config';
import { readTextFile, type Io } from './io';
import { wantsColour } from './report';
import { CommandFailure } from './api-commands';
import { planFileReader, targetsForPlan } from './plan-command';
import { loadLock, lockPath, lockRecorder } from './lock-file';

/** What `rulesets apply` takes; each is in its help (test/cli/help.test.ts). */
export const APPLY_OPTIONS = {
  ...CONNECTION_OPTIONS,
  yes: { type: 'boolean', short: 'y' },
  'allow-mass-change': { type: 'boolean' },
  'owns-phase': { type: 'string', multiple: true },
} as const;

export const APPLY_USAGE = `${usageBlock(['apply'])}

Applies a plan saved by \`rulesets plan -o PLAN\`, exactly as it was shown: each ruleset it
changes is written once (custom rulesets before the entry points that execute them), a few
at once. Nothing is written when the plan file was altered since it was saved (its
checksum), when any ruleset's live version moved since the plan (a dashboard edit or
another apply: plan again), or when the plan passes the mass-change thresholds
(\`apply:\` in .rulesets.yaml). A failed write stops new ones; each ruleset is then told
applied, not applied or unknown (read back to find out), and applying the same plan again
finishes the rest. Each write is a line of the audit log (.rulesets/audit.log beside
.rulesets.yaml, or \`apply: {audit_log: PATH}\`): time, who (USER and git's user.email),
target, ruleset, versions and the plan's checksum. Each ruleset that lands is recorded in
the lock file .rulesets/lock.json beside .rulesets.yaml (commit it): its version and
digests, which \`rulesets plan\` compares with what is live to show drift.

Given PATHs (or nothing: the current folder) instead of a plan file, it plans them as
\`rulesets plan\` does, shows the plan, asks, and applies it.

Options:
  --allow-mass-change   apply a plan past the thresholds (defaults: 10 rules removed or
                        100 changed per target, 50 removed or 1000 changed in all, more
                        than half of a ruleset's rules removed where 3 or more go)
  --owns-phase PHASE    with PATHs: as for \`rulesets plan\`
  -y, --yes             with PATHs: apply without asking (needed without a terminal)

Exit status: 0 applied (or nothing to do); 1 refused (altered plan, moved versions, mass
change, errors in a file, not confirmed); 2 a usage or configuration problem; 3 the service
failed part-way: what landed is listed; apply again to finish.`;

export async function apply(args: string[], io: Io): Promise<number> {
  refuseCredentialFlags(args);
  const { values, positionals } = parseCommandArgs('apply', {
    args,
    allowPositionals: true,
    options: APPLY_OPTIONS,
  });
  if (values.help) {
    io.out(`${APPLY_USAGE}\n\n${CONNECTION_HELP}\n`);
    return 0;
  }
  if (positionals.includes(STDIN)) throw new UsageError('apply reads a plan file or ruleset files, not standard input');
  const { baseUrl, clientFor } = clientsByScope(values, io);
  const planFile = positionals.length === 1 && isFile(positionals[0]) ? positionals[0] : undefined;
  const savedText = planFile !== undefined ? readTextFile(planFile).text : undefined;
  let plan: SavedPlan;
  let again: string;
  if (planFile !== undefined && savedText !== undefined && (isPlanFileText(savedText) || !/\.(json|ya?ml|tf)$/i.test(planFile))) {
    if (values['owns-phase'] || values.yes)
      throw new UsageError(`${values.yes ? '--yes' : '--owns-phase'} goes with PATHs, not a saved plan: the plan already says what to do, and applying it asks nothing`);
    plan = readSavedPlan(savedText, planFile);
    if (plan.service !== undefined && plan.service !== serviceOf(baseUrl)) {
      throw new CommandFailure(`${planFile} was planned against ${plan.service}, but the API now is ${serviceOf(baseUrl)} (RULESETS_BASE_URL or --base-url); nothing was applied: apply it where it was planned, or plan again`, 1);
    }
    again = `rulesets apply ${planFile}`;
  } else {
    const made = await planAndConfirm(positionals.length > 0 ? positionals : ['.'], values, io, clientFor, baseUrl);
    if (!made) return 0;
    plan = made;
    again = `rulesets apply${positionals.length > 0 ? ` ${positionals.join(' ')}` : ''}`;
  }
  const loaded = new ProjectConfigs({}).of(STDIN);
  const auditPath = resolve(loaded?.folder ?? process.cwd(), loaded?.config.apply?.audit_log ?? '.rulesets/audit.log');
  const recordLocked = lockRecorder(lockPath());
  const result = await applyPlan(plan, {
    clientFor,
    limits: applyLimitsOf(loaded?.config.apply),
    allowMassChange: values['allow-mass-change'],
    audit: auditLogWriter(auditPath),
    who: whoApplies(io.env),
    onLocked: (target, ruleset, entry) => recordLocked(target.scope, ruleset.destination, entry),
    // A ruleset the plan leaves as it is would only be noise in an estate of hundreds: it is counted below.
    onOutcome: (applied) => applied.outcome.state !== 'unchanged' && io.out(`${outcomeLine(applied)}\n`),
  });
  const count = (state: string) => result.rulesets.filter((r) => r.outcome.state === state).length;
  io.out(`\nApply: ${count('applied')} applied, ${count('done')} already applied, ${count('unchanged')} unchanged, ${count('not-applied')} not applied, ${count('unknown')} unknown.\n`);
  if (result.rulesets.some((r) => r.outcome.state === 'applied')) io.err(`rulesets: each write is in ${shown(auditPath)}\n`);
  if (result.complete) return 0;
  throw new CommandFailure(`the apply stopped part-way: the rulesets above not applied or unknown are not as the plan leaves them; run \`${again}\` to finish (what already landed counts as done)`, 3);
}

/** A plan of the PATHs, shown and confirmed; undefined when there is nothing to do. */
async function planAndConfirm(
  paths: readonly string[],
  values: { yes?: boolean; 'owns-phase'?: string[] } & Parameters<typeof targetsForPlan>[1],
  io: Io,
  clientFor: (scope: Scope) => RulesetsClient,
  baseUrl: string,
): Promise<SavedPlan | undefined> {
  const read = planFileReader();
  const targets = await targetsForPlan(paths, values, io.env, io, read);
  await prepareReaders(targets.flatMap((t) => t.files));
  const relativeTo = process.cwd();
  const planned = await planTargets(targets, {
    ownedPhases: values['owns-phase'] ?? [],
    clientFor,
    shownPath: (path) => shown(path, relativeTo),
    read,
  });
  const lock = loadLock(lockPath());
  const result = lock ? withDrift(planned, lock) : planned;
  io.out(
    planText(result, {
      relativeTo,
      colour: wantsColour(io.outIsTerminal, io.env),
    }),
  );
  if (result.errors > 0)
    throw new CommandFailure(`not applied: ${result.errors} ruleset${result.errors === 1 ? '' : 's'} could not be planned (above); fix ${result.errors === 1 ? 'it' : 'them'} and apply again`, 1);
  if (!result.changes) {
    io.out('\nNothing to apply.\n');
    return undefined;
  }
  if (!values.yes) {
    if (!io.interactive) throw new CommandFailure('refusing to apply without --yes when not interactive (or save the plan with `rulesets plan -o FILE` and apply that)', 2);
    const answer = await io.ask('\nApply this plan? [y/N] ');
    if (!/^y(es)?$/i.test(answer.trim())) throw new CommandFailure('not confirmed: nothing was changed', 1);
  }
  return savedPlanOf(result, { baseUrl });
}

function outcomeLine({ target, ruleset, outcome }: AppliedRuleset): string {
  const what = `${target.scope.kind} ${target.label}, ${rulesetName(ruleset)}`;
  switch (outcome.state) {
    case 'applied':
      return `${what}: applied, ${outcome.from !== undefined ? `version ${outcome.from} → ${outcome.to}` : `created at version ${outcome.to}`}`;
    case 'done':
      return `${what}: already applied (version ${outcome.version})`;
    case 'unchanged':
      return `${what}: unchanged`;
    case 'not-applied':
      return `${what}: not applied: ${outcome.reason}`;
    case 'unknown':
      return `${what}: unknown whether applied: ${outcome.reason}`;
  }
}

/** Who applies, for the audit log: the login name and git's user.email where set; never a credential. */
function whoApplies(env: NodeJS.ProcessEnv): string {
  const user = env.USER ?? env.USERNAME;
  let email: string | undefined;
  try {
    const git = spawnSync('git', ['config', 'user.email'], {
      encoding: 'utf8',
      timeout: 5000,
    });
    email = git.status === 0 ? git.stdout.trim() || undefined : undefined;
  } catch {
    email = undefined;
  }
  return [user, email && `<${email}>`].filter(Boolean).join(' ') || 'unknown';
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function shown(path: string, from = process.cwd()): string {
  const out = relative(from, path);
  return out === '' || out.startsWith('..') || isAbsolute(out) ? path : out;
}
