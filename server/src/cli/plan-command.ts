/**
 * `rulesets plan [PATH…]`: what deploying every ruleset file under the paths would change,
 * rule by rule, against what is live; read-only. The engine is `../api/plan.ts`; this is its
 * command-line face: the targets, the flags, the output and the exit status.
 */
import { writeFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { parseCommandArgs } from './args';
import { usageBlock } from './synopsis';
import { closestMatches, estateTargets, KNOWN_PHASES, planFileText, planJson, planMarkdown, planTargets, planText, quoteAlternatives, withDrift, RulesetsClient, savedPlanOf, TargetResolutionError, TargetsError, TerraformPlanError, terraformPlanOf, type ClientOptions, type EstatePlan, type Target } from '../core';
import { collectFiles, prepareReaders, ProjectConfigs, STDIN, UsageError } from './check';
import { CONNECTION_HELP, CONNECTION_OPTIONS, clientOptions, clientsByScope, connectionOptions, refuseCredentialFlags, type ConnectionFlags } from './config';
import { readTextFile, type Io } from './io';
import { textReport, wantsColour } from './report';
import { exitStatus } from './api-commands';
import { loadLock, lockPath } from './lock-file';

/** What `rulesets plan` takes; each is in its help (test/cli/help.test.ts). */
export const PLAN_OPTIONS = {
  ...CONNECTION_OPTIONS,
  format: { type: 'string', default: 'text' },
  'detailed-exitcode': { type: 'boolean' },
  'owns-phase': { type: 'string', multiple: true },
  'terraform-plan': { type: 'string' },
  output: { type: 'string', short: 'o' },
} as const;

export const PLAN_USAGE = `${usageBlock(['plan'])}

Shows what deploying every ruleset file under the PATHs (default: the current folder;
found as \`rulesets check\` finds them) would change, rule by rule, against what is live;
writes nothing. Each rule of a file is matched to a live rule by its \`ref\`, else its id,
else its content, and is shown as added (+), removed (-), changed (~, field by field, old
and new) or moved (↕); a reorder is moves of the fewest rules, never a removal and an
addition. A file with several rulesets (Terraform resources, octorules sections) is
planned ruleset by ruleset. Each is checked first, as deploy does: a ruleset with errors
is not planned. A Terraform resource whose values only Terraform knows is skipped, with why.

With --terraform-plan FILE, reads Terraform's own plan instead (\`terraform show -json
PLANFILE > FILE\`, or \`tofu show -json\`) and shows each \`cloudflare_ruleset\` change
rule by rule the same way: what really changes, what only moves, which rules the provider
gives a new id, and values known only after apply; no request is made.

Drift: where \`rulesets apply\` recorded a ruleset in the lock file (.rulesets/lock.json
beside .rulesets.yaml), a \`drift:\` line tells whether it changed here (the files) and
live (a dashboard edit) since, and which live edits an apply would undo; those rules are
marked.

Live rules that no file holds are unmanaged: kept where they are and listed, unless the
repository owns their phase (--owns-phase), where they are removed.

Options:
  --format text|json|markdown   text like \`terraform plan\` (default; coloured on a
                                terminal, NO_COLOR=1 off, FORCE_COLOR=1 on), JSON (its
                                shape is in docs/api.md), or Markdown for a pull request
  --owns-phase PHASE            the files hold every rule of PHASE: live rules no file
                                holds are removed (repeat for several phases)
  --terraform-plan FILE         read \`terraform show -json\` output, not ruleset files
  --detailed-exitcode           0 nothing to do, 2 changes to make, 1 any error (usage
                                errors too)
  -o, --output PLAN             also save the plan to the file PLAN (JSON, checksummed,
                                no credentials), for \`rulesets apply PLAN\`

Exit status: 0 planned (with --detailed-exitcode: nothing to do); 1 a ruleset could not
be planned (errors in its file, the service refused, failed or could not be reached);
2 a usage or configuration problem (with --detailed-exitcode: 1), or, with
--detailed-exitcode only, changes to make.`;

const FORMATS = ['text', 'json', 'markdown'] as const;

/**
 * Where each file found under `paths` goes (estateTargets, as the editor's Plan view has it):
 * by the `targets:` of its `.rulesets.yaml`, else to the account or zone of the environment or
 * the flags, as `deploy`'s do. A mistake of `targets:` (a file in two targets, a target with no
 * file) is a usage error before any request; so is a zone name no zone has.
 */
export async function targetsForPlan(paths: readonly string[], flags: ConnectionFlags, env: NodeJS.ProcessEnv, io: Io, read: (path: string) => string): Promise<Target[]> {
  if (paths.includes(STDIN)) throw new UsageError('plan reads ruleset files, not standard input: name the files or folders');
  const configs = new ProjectConfigs({});
  const files = collectFiles(paths, (path) => configs.of(path)?.patterns ?? []).map((f) => resolve(f));
  if (files.length === 0) throw new UsageError(`no ruleset files found in ${paths.join(', ')}`);
  const shown = (path: string) => relative(process.cwd(), path) || path;
  let estate;
  try {
    estate = await estateTargets(files, {
      configOf: (file) => configs.of(file),
      read,
      // List Zones is asked of no account or zone: the client's own scope is not used by it.
      zoneFinder: () => new RulesetsClient({ ...connectionOptions(flags, env), scope: { kind: 'zone', id: 'zone-lookup' } } as ClientOptions),
      // Throws the usage error that names what to set when the environment names no account or zone.
      defaultScope: () => clientOptions(flags, env).scope,
      shown,
    });
  } catch (error) {
    if (error instanceof TargetsError) throw new UsageError(error.message);
    if (error instanceof TargetResolutionError) throw new UsageError(`${error.message}: give the zone's id in targets: instead`);
    throw error;
  }
  for (const { file, config } of estate.unplaced) io.err(`rulesets: ${shown(file)}: no target of ${config} names it, so it is not planned\n`);
  return [...estate.targets];
}

/**
 * A reader of the files a plan reads, each read once: whether a file is an octorules file (for
 * its target) and its rulesets (for the plan) are asked of the same text.
 */
export function planFileReader(): (path: string) => string {
  const texts = new Map<string, string>();
  return (path) => {
    let text = texts.get(path);
    if (text === undefined) texts.set(path, (text = readTextFile(path).text));
    return text;
  };
}

export async function plan(args: string[], io: Io): Promise<number> {
  // With --detailed-exitcode, 2 means changes and nothing else: every failure is 1.
  const options = args.indexOf('--') === -1 ? args : args.slice(0, args.indexOf('--'));
  const detailed = options.some((arg) => arg === '--detailed-exitcode' || arg.startsWith('--detailed-exitcode='));
  try {
    return await planCommand(args, io);
  } catch (error) {
    const status = exitStatus(error);
    if (!detailed || !status) throw error;
    if (status.message) io.err(`rulesets: ${status.message}\n`);
    return status.code === 0 ? 0 : 1;
  }
}

async function planCommand(args: string[], io: Io): Promise<number> {
  refuseCredentialFlags(args);
  const { values, positionals } = parseCommandArgs('plan', { args, allowPositionals: true, options: PLAN_OPTIONS });
  if (values.help) {
    io.out(`${PLAN_USAGE}\n\n${CONNECTION_HELP}\n`);
    return 0;
  }
  const format = values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new UsageError(`unknown --format "${values.format}": expected text, json or markdown`);
  const owned = values['owns-phase'] ?? [];
  if (values['terraform-plan'] !== undefined && values.output !== undefined) throw new UsageError('-o saves a plan for `rulesets apply`; Terraform applies its own plan (`terraform apply PLANFILE`): leave out -o with --terraform-plan');
  if (values['terraform-plan'] !== undefined) return terraformPlanCommand(values['terraform-plan'], positionals, owned, format, values['detailed-exitcode'] === true, io);
  for (const phase of owned) checkOwnedPhase(phase, io);
  const read = planFileReader();
  const targets = await targetsForPlan(positionals.length > 0 ? positionals : ['.'], values, io.env, io, read);
  await prepareReaders(targets.flatMap((t) => t.files));
  const { baseUrl, clientFor } = clientsByScope(values, io);
  const relativeTo = process.cwd();
  const shownPath = (path: string) => {
    const shown = relative(relativeTo, path);
    return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? path : shown;
  };
  const lock = loadLock(lockPath());
  const planned = await planTargets(targets, { ownedPhases: owned, clientFor, shownPath, read });
  const result = lock ? withDrift(planned, lock) : planned;
  reportProblems(result, io);
  if (format === 'json') io.out(planJson(result, { relativeTo }));
  else if (format === 'markdown') io.out(planMarkdown(result, { relativeTo }));
  else io.out(planText(result, { relativeTo, colour: wantsColour(io.outIsTerminal, io.env) }));
  if (values.output !== undefined) savePlan(result, values.output, baseUrl, io);
  if (result.errors > 0) return 1;
  return values['detailed-exitcode'] && result.changes ? 2 : 0;
}

/** `plan --terraform-plan FILE`: Terraform's plan of its rulesets, read rule by rule; no request, so no credentials. */
function terraformPlanCommand(file: string, positionals: readonly string[], owned: readonly string[], format: (typeof FORMATS)[number], detailed: boolean, io: Io): number {
  if (positionals.length > 0) throw new UsageError(`--terraform-plan reads Terraform's plan, not ruleset files: leave out ${positionals.join(', ')}, or plan them without --terraform-plan`);
  if (owned.length > 0) throw new UsageError('--owns-phase does not apply to --terraform-plan: a Terraform resource already holds every rule of its ruleset');
  if (file === '' || file === STDIN) throw new UsageError('--terraform-plan needs a file: `terraform show -json PLANFILE > plan.json`, then `rulesets plan --terraform-plan plan.json`');
  let text: string;
  try {
    text = readTextFile(file).text;
  } catch (error) {
    throw new UsageError(`${file}: cannot be read: ${(error as Error).message}`);
  }
  let result: EstatePlan;
  try {
    result = terraformPlanOf(text, file);
  } catch (error) {
    if (error instanceof TerraformPlanError) throw new UsageError(error.message);
    throw error;
  }
  if (format === 'json') io.out(planJson(result));
  else if (format === 'markdown') io.out(planMarkdown(result));
  else io.out(planText(result, { colour: wantsColour(io.outIsTerminal, io.env) }));
  return detailed && result.changes ? 2 : 0;
}

/** `-o PLAN`: the plan as `rulesets apply` takes it; a plan with errors is not saved (applying it would leave rulesets out). */
function savePlan(result: EstatePlan, path: string, baseUrl: string, io: Io): void {
  if (result.errors > 0) {
    io.err(`rulesets: the plan has errors, so it is not saved to ${path}\n`);
    return;
  }
  writeFileSync(path, planFileText(savedPlanOf(result, { baseUrl })));
  io.err(`rulesets: plan saved to ${path}; apply exactly it with \`rulesets apply ${path}\`\n`);
}

/**
 * A phase of --owns-phase: a misspelt one would silently keep the rules it was meant to remove,
 * so it is a usage error with the phase meant; one merely unknown here (newer than this
 * version) is taken, with a word on stderr.
 */
function checkOwnedPhase(phase: string, io: Io): void {
  if (phase.trim() === '') throw new UsageError('--owns-phase needs a phase, such as http_request_firewall_custom');
  if (KNOWN_PHASES.includes(phase)) return;
  const meant = closestMatches(phase, KNOWN_PHASES);
  if (meant.length > 0) throw new UsageError(`unknown phase \`${phase}\` for --owns-phase; did you mean ${quoteAlternatives(meant)}?`);
  io.err(`rulesets: --owns-phase ${phase} is not a phase this version knows; taking it as given\n`);
}

/**
 * Our check's findings, as `rulesets check` writes them, on stderr: the errors that stopped a
 * ruleset, and the warnings of those planned (as deploy shows them).
 */
function reportProblems(result: EstatePlan, io: Io): void {
  for (const t of result.targets) {
    for (const e of t.errors) {
      if (e.problems && e.text !== undefined) io.err(textReport([{ path: e.file, text: e.text, diagnostics: [...e.problems] }]));
    }
    for (const r of t.rulesets) {
      if (r.warnings.length > 0 && r.text !== undefined) io.err(textReport([{ path: r.file, text: r.text, diagnostics: [...r.warnings] }]));
    }
  }
}
