/**
 * The commands that talk to the Rulesets API: pull, deploy, create, list, versions, show,
 * delete, rule add/update/move/delete and tags. The deploy workflow itself lives in
 * `../api/workflow.ts` (shared with the VS Code extension); this is its command-line face:
 * flags, output, confirmation, and the local file's update.
 *
 * Results go to stdout; problems, notes and questions to stderr. A command that stops
 * throws `CommandFailure` with the exit status (see `main.ts`).
 */
import { parseCommandArgs } from './args';
import { usageBlock } from './synopsis';
import {
  ApiError,
  applyCreate,
  applyDeploy,
  checkExpression,
  checkRuleset,
  conflictMessage,
  describeMessage,
  DeployOutcomeUnknownError,
  describeDestination,
  hasErrors,
  linePosition,
  MAX_NESTING,
  nestsDeeperThan,
  parseRuleset,
  planCreate,
  planDeploy,
  readLocalRuleset,
  rulesetFormatOfPath,
  ruleDefinition,
  octorulesOfRuleset,
  octorulesSectionOfPhase,
  serializeRuleset,
  terraformOfRuleset,
  toPositions,
  WorkflowError,
  type ApiMessage,
  type HostFormat,
  type LocalRuleset,
  type Position,
  type PositionedProblem,
  type Rule,
  type RuleInput,
  type Ruleset,
  type RulesetRef,
  type RulesetChoice,
  type RulesetsClient,
  type Scope,
  type ServiceProblem,
  includeReader,
} from '../core';
import { prepareReaders, UsageError } from './check';
import { CONNECTION_HELP, CONNECTION_OPTIONS, ENV, makeClient, type ConnectionFlags } from './config';
import { currentText, readTextFile, writeFileAtomic, type Io } from './io';
import { excerpt, findingLines, splitLines, textReport } from './report';

/** Stops a command: `rulesets: <message>` on stderr (nothing when empty) and this exit status. */
export class CommandFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------- usage texts

export const USAGES: Record<string, string> = {
  pull: `${usageBlock(['pull'])}

Writes the latest version of a ruleset (or of a phase's entry point) as a file that
\`rulesets deploy\` takes back: stable key order, the ruleset's id and the version it is
based on, none of the service's timestamps. Pulling an unchanged ruleset twice gives the
same bytes.

--format terraform writes it as a \`cloudflare_ruleset\` resource of the Cloudflare
provider v5, with the \`import\` block that adopts the live ruleset into Terraform's state;
--format octorules as the section of its phase in an octorules rules file. Every rule keeps
its \`ref\`, by which a deploy of the file updates the rule in place.

Options:
  --phase NAME        the phase's entry point instead of a ruleset id
  -o, --output FILE   write FILE (JSON, YAML or, .tf, Terraform by its extension) instead
                      of stdout; a FILE whose content differs is not overwritten without
                      --force (or a "y" to the question, on a terminal)
  --force             overwrite FILE even when it differs
  --format F          yaml (default), json, terraform or octorules (a .yaml FILE)`,
  deploy: `${usageBlock(['deploy'])}

Deploys a ruleset file to the ruleset of its \`id\` (or, for kind root or zone without an
id, to its phase's entry point), safely:
  1. the file is checked as \`rulesets check\` does; an error stops here, before any request;
  2. the live version is read: when it is not the file's \`version\` (someone else deployed
     since you pulled), it stops and shows what deploying would undo, unless --force;
  3. the service checks the file (a dry run); a rejection is shown on the file's lines;
  4. the diff (live → file) is shown, and you confirm;
  5. right before the write the live version is read again: if it moved, nothing is written;
  6. the file gets the new version (and the ids of new rules) written into it.

A Terraform file (.tf) deploys one \`cloudflare_ruleset\` resource, and an octorules rules
file one section (the entry point of its phase); a rule whose \`ref\` is a live rule's
updates that rule. Neither file records a version, so step 2 does not apply, and the file
is never changed.

Options:
  --resource NAME   the resource of a .tf file with several (cloudflare_ruleset.NAME or NAME)
  --section NAME    the section of an octorules file with several (waf_custom_rules, ...)
  --dry-run         stop after the diff: nothing is deployed, the file is not changed
  --force           deploy even over a version the file is not based on
  -y, --yes         do not ask (required when stdin is not a terminal)`,
  create: `${usageBlock(['create'])}

Creates a new ruleset from FILE (a file without \`id\`): checked, then dry-run by the service,
then created. FILE gets the new ruleset's id, its version and its rules' ids written into it,
so that \`rulesets deploy FILE\` updates it from then on.

Options:
  --dry-run   stop after the service's check: nothing is created
  -y, --yes   do not ask (required when stdin is not a terminal)`,
  list: `${usageBlock(['list'])}

Lists the rulesets of the account or zone (id, kind, phase, version, name).`,
  versions: `${usageBlock(['versions'])}

Lists the versions a ruleset (or a phase's entry point) still has, oldest first.`,
  show: `${usageBlock(['show'])}

Prints a ruleset (its latest version, or version N) as \`rulesets pull\` writes it.`,
  delete: `${usageBlock(['delete'])}

Deletes a ruleset with all its versions, or only its version N (never the latest).

Options:
  --version N   delete only this version
  -y, --yes     do not ask (required when stdin is not a terminal)`,
  rule: `${usageBlock(['rule'])}

Changes one rule of a ruleset in place (each change makes a new version). An expression is
checked before any request, with a caret under the mistake; then against the ruleset's
phase before the change is sent.

Options:
  --before ID, --after ID   next to that rule (--before "" is first, --after "" is last)
  --index N                 at position N (1 is first)
  --dry-run                 let the service check the change, and store nothing
  -y, --yes                 rule delete: do not ask (required when not interactive)`,
  tags: `${usageBlock(['tags'])}

Prints the rules of one version of a (managed) ruleset that carry a tag.`,
};

function help(command: string): string {
  return `${USAGES[command]}\n\n${CONNECTION_HELP}\n`;
}

// ---------------------------------------------------------------- helpers

interface Context {
  readonly io: Io;
  readonly client: RulesetsClient;
}

function connect(io: Io, flags: ConnectionFlags): Context {
  const log = flags.verbose ? (line: string) => io.err(`${line}\n`) : undefined;
  // Waits are said on a terminal, where a person would otherwise look at nothing for minutes;
  // in a pipe or a CI log only with -v.
  const onWait = io.watched || flags.verbose ? (line: string) => io.err(`rulesets: ${line}\n`) : undefined;
  // A dry run and the write that follows often carry the same warning: it is said once.
  const said = new Set<string>();
  const onMessages = (messages: readonly ApiMessage[]) => {
    for (const message of messages) {
      const line = `rulesets: the service warns: ${describeMessage(message)}\n`;
      if (said.has(line)) continue;
      said.add(line);
      io.err(line);
    }
  };
  return { io, client: makeClient(flags, io.env, { log, onWait, onMessages }) };
}

/** `<id>` or `--phase NAME`: exactly one. */
function rulesetRef(positional: string | undefined, phase: string | undefined, command: string): RulesetRef {
  if (positional !== undefined && phase !== undefined) throw new UsageError(`give a ruleset id or --phase NAME, not both: rulesets ${command} <ruleset-id> | --phase NAME`);
  if (positional !== undefined) return nonEmpty(positional, 'the ruleset id');
  if (phase !== undefined) return { phase: nonEmpty(phase, '--phase') };
  throw new UsageError(`no ruleset given: rulesets ${command} <ruleset-id> | --phase NAME`);
}

function nonEmpty(value: string, what: string): string {
  if (value.trim() === '') throw new UsageError(`${what} is empty`);
  return value;
}

function describeRef(ref: RulesetRef): string {
  return typeof ref === 'string' ? `ruleset ${ref}` : `the ${ref.phase} entry point`;
}

function expectPositionals(positionals: readonly string[], count: number, usage: string): void {
  atMostPositionals(positionals, count, usage);
  if (positionals.length < count) throw new UsageError(`missing arguments: ${usage}`);
}

function atMostPositionals(positionals: readonly string[], count: number, usage: string): void {
  if (positionals.length > count) throw new UsageError(`unexpected argument "${positionals[count]}": ${usage}`);
}

function outputFormat(value: string | undefined, allowed: readonly string[], fallback: string): string {
  const format = value ?? fallback;
  if (!allowed.includes(format)) throw new UsageError(`unknown --format "${format}": expected ${allowed.join(' or ')}`);
  return format;
}

function boolFlag(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`${flag} expects true or false, found "${value}"`);
}

function versionFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--version expects a version number such as 3, found "${value}"`);
  return value;
}

/** Asks before a change; `--yes` answers for the user, and without a terminal it is required. */
async function confirm(io: Io, yes: boolean | undefined, question: string, what: string): Promise<void> {
  if (yes) return;
  if (!io.interactive) throw new CommandFailure(`refusing to ${what} without --yes when not interactive`, 2);
  const answer = await io.ask(`${question} [y/N] `);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CommandFailure(`not confirmed: nothing was changed`, 1);
}

/** A local ruleset file; one it cannot read as a ruleset is a file problem (exit 2). */
function readLocal(path: string, choice: RulesetChoice & { readonly create?: boolean }, scope: Scope): { local: LocalRuleset; bom: boolean } {
  const file = readTextFile(path);
  try {
    return { local: readLocalRuleset(path, file.text, { ...choice, include: includeReader(path), scope: scope.kind }), bom: file.bom };
  } catch (error) {
    if (error instanceof WorkflowError) throw new UsageError(error.message);
    throw error;
  }
}

/** Our check's problems in the `rulesets check` text format, on stderr. */
function printLocalProblems(io: Io, local: LocalRuleset, problems: readonly PositionedProblem[]): void {
  if (problems.length > 0) io.err(textReport([{ path: local.path, text: local.text, diagnostics: problems }]));
}

/** The service's problems as `file:line:col: error message`, the line and a caret under the place. */
function printServiceProblems(io: Io, local: LocalRuleset, problems: readonly ServiceProblem[]): void {
  const lines = splitLines(local.text);
  const positioned = toPositions(local.text, problems.map((p) => ({ code: 'service', severity: 'error' as const, message: p.message, start: p.start, end: p.end })));
  problems.forEach((p, i) => {
    const message = p.message.split('\n')[0].trim();
    io.err(`${local.path}:${linePosition(local.text, p.start)}: error ${message}\n`);
    io.err(`${excerpt(lines, positioned[i].range).join('\n')}\n`);
  });
}

/**
 * Writes the local file's new text after a change went through — unless the file changed
 * while we worked (an editor saved it): then it is left alone and the user is told what to record.
 */
function updateLocalFile(io: Io, local: LocalRuleset, bom: boolean, newText: string, version: string): void {
  if (currentText(local.path) !== local.text) {
    io.err(`rulesets: warning: ${local.path} changed while deploying, so it was not updated; set \`version: "${version}"\` in it yourself\n`);
    return;
  }
  writeFileAtomic(local.path, newText, bom);
}

// ---------------------------------------------------------------- pull, show, tags

export async function pull(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('pull', {
    args,
    allowPositionals: true,
    options: API_OPTIONS.pull,
  });
  if (values.help) return (io.out(help('pull')), 0);
  atMostPositionals(positionals, 1, 'rulesets pull <ruleset-id> | --phase NAME [-o FILE]');
  const ref = rulesetRef(positionals[0], values.phase, 'pull');
  const format = pullFormat(values.format, values.output);
  const { client } = connect(io, values);
  const ruleset = typeof ref === 'string' ? await client.getRuleset(ref) : await client.getEntryPoint(ref.phase);
  const text = pulledText(io, ruleset, format, client.scope);
  if (values.output === undefined) {
    io.out(text);
    return 0;
  }
  const path = values.output;
  const existing = currentText(path);
  if (existing === text) {
    io.out(`${path} is unchanged (${ruleset.name}, version ${ruleset.version})\n`);
    return 0;
  }
  if (existing !== undefined && !values.force) {
    const what = `${path} differs from version ${ruleset.version} of ${describeRef(ref)}`;
    if (!io.interactive) throw new CommandFailure(`${what}; not overwritten (changes in it would be lost): pull into another file, or pass --force to overwrite it`, 1);
    const answer = await io.ask(`${what}; overwrite it (changes in it will be lost)? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new CommandFailure(`${path} was not overwritten`, 1);
  }
  writeFileAtomic(path, text);
  io.out(`pulled ${ruleset.name} version ${ruleset.version} into ${path}\n`);
  return 0;
}

type PullFormat = 'yaml' | 'json' | 'terraform' | 'octorules';

/** The format of a pull: --format, else the output file's extension (`.tf` is Terraform; `.yaml` is octorules only when asked). */
function pullFormat(flag: string | undefined, output: string | undefined): PullFormat {
  const format = flag === undefined ? undefined : (outputFormat(flag, ['yaml', 'json', 'terraform', 'octorules'], 'yaml') as PullFormat);
  if (output === undefined) return format ?? 'yaml';
  const byName = rulesetFormatOfPath(output);
  if (!byName) throw new UsageError(`${output}: the output file must end in .json, .yaml, .yml or .tf`);
  if (format === undefined) return byName === 'hcl' ? 'terraform' : byName;
  const fits = format === 'octorules' ? byName === 'yaml' : format === 'terraform' ? byName === 'hcl' : format === byName;
  if (!fits) throw new UsageError(`--format ${format} does not match ${output}; ${format === 'terraform' ? 'a Terraform file ends in .tf' : format === 'octorules' ? 'an octorules file ends in .yaml or .yml' : "the file's extension decides its format"}`);
  return format;
}

/** The text a pull writes, in its format; a phase octorules keeps no section for is a usage error. */
function pulledText(io: Io, ruleset: Ruleset, format: PullFormat, scope: Scope): string {
  if (format === 'yaml' || format === 'json') return serializeRuleset(ruleset, format);
  if (format === 'terraform') {
    const file = terraformOfRuleset(ruleset, scope);
    if (file.leftOut.length > 0) io.err(`rulesets: warning: the provider's cloudflare_ruleset has no place for ${file.leftOut.join(', ')}: left out\n`);
    return file.text;
  }
  // octorules keeps a zone's or account's entry points as sections of its rules file; its
  // `custom_rulesets` list is not written here.
  if (ruleset.kind !== 'zone' && ruleset.kind !== 'root') throw new UsageError(`${ruleset.name} is a ${ruleset.kind} ruleset, and an octorules section holds a phase's entry point (kind zone or root): pull it as yaml, json or terraform`);
  const section = octorulesSectionOfPhase(ruleset.phase);
  if (!section) throw new UsageError(`octorules has no section for phase ${ruleset.phase}: pull it as yaml, json or terraform`);
  return octorulesOfRuleset(ruleset, section);
}

export async function show(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('show', {
    args,
    allowPositionals: true,
    options: API_OPTIONS.show,
  });
  if (values.help) return (io.out(help('show')), 0);
  atMostPositionals(positionals, 1, 'rulesets show <ruleset-id> | --phase NAME [--version N]');
  const ref = rulesetRef(positionals[0], values.phase, 'show');
  const version = versionFlag(values.version);
  const format = outputFormat(values.format, ['yaml', 'json'], 'yaml') as HostFormat;
  const { client } = connect(io, values);
  const ruleset = version !== undefined ? await client.getVersion(ref, version) : typeof ref === 'string' ? await client.getRuleset(ref) : await client.getEntryPoint(ref.phase);
  io.out(serializeRuleset(ruleset, format));
  return 0;
}

export async function tags(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('tags', { args, allowPositionals: true, options: API_OPTIONS.tags });
  if (values.help) return (io.out(help('tags')), 0);
  expectPositionals(positionals, 3, 'rulesets tags <ruleset-id> <version> <tag>');
  const [id, version, tag] = positionals;
  const format = outputFormat(values.format, ['yaml', 'json'], 'yaml') as HostFormat;
  const { client } = connect(io, values);
  io.out(serializeRuleset(await client.rulesByTag(nonEmpty(id, 'the ruleset id'), versionFlag(version)!, nonEmpty(tag, 'the tag')), format));
  return 0;
}

// ---------------------------------------------------------------- list, versions

export async function list(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('list', { args, allowPositionals: true, options: API_OPTIONS.list });
  if (values.help) return (io.out(help('list')), 0);
  expectPositionals(positionals, 0, 'rulesets list');
  const format = outputFormat(values.format, ['text', 'json'], 'text');
  const { client } = connect(io, values);
  const rulesets = await client.listRulesets();
  if (format === 'json') io.out(`${JSON.stringify(rulesets, null, 2)}\n`);
  else io.out(table(['ID', 'KIND', 'PHASE', 'VERSION', 'NAME'], rulesets.map((r) => [r.id, r.kind, r.phase, r.version, r.name])));
  return 0;
}

export async function versions(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('versions', { args, allowPositionals: true, options: API_OPTIONS.versions });
  if (values.help) return (io.out(help('versions')), 0);
  atMostPositionals(positionals, 1, 'rulesets versions <ruleset-id> | --phase NAME');
  const ref = rulesetRef(positionals[0], values.phase, 'versions');
  const format = outputFormat(values.format, ['text', 'json'], 'text');
  const { client } = connect(io, values);
  const items = await client.listVersions(ref);
  if (format === 'json') io.out(`${JSON.stringify(items, null, 2)}\n`);
  else io.out(table(['VERSION', 'LAST UPDATED', 'NAME'], items.map((v) => [v.version, v.last_updated, v.name])));
  return 0;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows].map((row) => row.map((cell) => String(cell ?? '').replace(/\s+/g, ' ')));
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  return all.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}

// ---------------------------------------------------------------- deploy, create

export async function deploy(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('deploy', {
    args,
    allowPositionals: true,
    options: API_OPTIONS.deploy,
  });
  if (values.help) return (io.out(help('deploy')), 0);
  expectPositionals(positionals, 1, 'rulesets deploy FILE [--resource NAME | --section NAME] [--dry-run] [--force] [--yes]');
  if (values.resource !== undefined && values.section !== undefined) throw new UsageError('give --resource (a Terraform file) or --section (an octorules file), not both');
  const { client } = connect(io, values);
  await prepareReaders(positionals);
  const { local, bom } = readLocal(positionals[0], { resource: values.resource, section: values.section }, client.scope);
  const embedded = (local.layout ?? 'api') !== 'api';
  const plan = await planDeploy(client, local);
  printLocalProblems(io, local, plan.localProblems);
  if (hasErrors(plan.localProblems)) {
    throw new CommandFailure(`${local.path}: not deployed: fix the errors above first (nothing was sent)`, 1);
  }
  if (plan.dryRunError) {
    printServiceProblems(io, local, plan.serviceProblems);
    // A deploy from another file replaces the rules the file names by id: the rejection's cause is then the conflict.
    const conflict = plan.conflict ? `; besides, ${conflictMessage(local, plan)}` : '';
    throw new CommandFailure(`${local.path}: not deployed: the service rejected it (${plan.dryRunError.status} from its dry run)${conflict}`, 1);
  }
  const target = describeDestination(plan.destination);
  if (plan.diff === '') {
    const live = plan.deployed!.version;
    const stale = plan.baseVersion !== live && !embedded ? `; the file records ${plan.baseVersion === undefined ? 'no version' : `version ${plan.baseVersion}`}: \`rulesets pull\` updates it` : '';
    io.out(`nothing to deploy: ${local.path} is the same as version ${live} of ${target}${stale}\n`);
    return 0;
  }
  if (plan.conflict) {
    io.out(plan.diff);
    if (!values.force) throw new CommandFailure(`not deployed: ${conflictMessage(local, plan)}`, 1);
    io.err(`rulesets: warning: ${conflictMessage(local, plan)}; deploying anyway (--force)\n`);
  } else {
    io.out(plan.diff);
  }
  if (plan.deployed && plan.baseVersion === undefined && !embedded) {
    io.err(`rulesets: note: ${local.path} records no version it is based on; deploying replaces version ${plan.deployed.version} of ${target} as the diff shows\n`);
  }
  if (values['dry-run']) {
    io.out(`dry run: the service accepted ${local.path}; nothing was deployed\n`);
    return 0;
  }
  await confirm(io, values.yes, `Deploy ${local.path} to ${target}?`, 'deploy');
  const { ruleset, newText } = await applyDeploy(client, local, plan, { force: values.force });
  if (newText !== local.text) updateLocalFile(io, local, bom, newText, ruleset.version);
  io.out(`deployed ${ruleset.name} as version ${ruleset.version}\n`);
  return 0;
}

export async function create(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('create', {
    args,
    allowPositionals: true,
    options: API_OPTIONS.create,
  });
  if (values.help) return (io.out(help('create')), 0);
  expectPositionals(positionals, 1, 'rulesets create FILE [--dry-run] [--yes]');
  const { client } = connect(io, values);
  await prepareReaders(positionals);
  const { local, bom } = readLocal(positionals[0], { create: true }, client.scope);
  // The new ruleset's id would have nowhere to go: Terraform keeps it in its state, and an
  // octorules section is the entry point of its phase, which `deploy` creates when missing.
  if (local.layout === 'terraform') throw new UsageError(`${local.path}: a Terraform resource is created by \`terraform apply\`, which keeps its id in the state`);
  if (local.layout === 'octorules') throw new UsageError(`${local.path}: an octorules section is the entry point of its phase: \`rulesets deploy ${local.path}\` creates it when it is missing`);
  const plan = await planCreate(client, local);
  printLocalProblems(io, local, plan.localProblems);
  if (hasErrors(plan.localProblems)) throw new CommandFailure(`${local.path}: not created: fix the errors above first (nothing was sent)`, 1);
  if (plan.dryRunError) {
    printServiceProblems(io, local, plan.serviceProblems);
    throw new CommandFailure(`${local.path}: not created: the service rejected it (${plan.dryRunError.status} from its dry run)`, 1);
  }
  const { name, kind, phase, rules } = local.body;
  const summary = `a ${kind} ruleset "${name}" in phase ${phase} with ${rules.length} rule${rules.length === 1 ? '' : 's'}`;
  if (values['dry-run']) {
    io.out(`dry run: the service accepted ${summary}; nothing was created\n`);
    return 0;
  }
  await confirm(io, values.yes, `Create ${summary} from ${local.path}?`, 'create');
  const { ruleset, newText } = await applyCreate(client, local, plan);
  updateLocalFile(io, local, bom, newText, ruleset.version);
  io.out(`created ${ruleset.name} (id ${ruleset.id}) as version ${ruleset.version}\n`);
  return 0;
}

// ---------------------------------------------------------------- delete

export async function remove(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('delete', {
    args,
    allowPositionals: true,
    options: API_OPTIONS.delete,
  });
  if (values.help) return (io.out(help('delete')), 0);
  expectPositionals(positionals, 1, 'rulesets delete <ruleset-id> [--version N] [--yes]');
  const id = nonEmpty(positionals[0], 'the ruleset id');
  const version = versionFlag(values.version);
  const { client } = connect(io, values);
  const latest = await client.getRuleset(id);
  if (version === undefined) {
    await confirm(io, values.yes, `Delete ruleset ${id} (${latest.name}) with all its versions?`, 'delete');
    await client.deleteRuleset(id);
    io.out(`deleted ruleset ${id} (${latest.name})\n`);
  } else {
    await confirm(io, values.yes, `Delete version ${version} of ruleset ${id} (${latest.name})?`, 'delete');
    await client.deleteVersion(id, version);
    io.out(`deleted version ${version} of ruleset ${id} (${latest.name})\n`);
  }
  return 0;
}

// ---------------------------------------------------------------- rules

const RULE_FIELD_OPTIONS = {
  action: { type: 'string' },
  expression: { type: 'string' },
  description: { type: 'string' },
  'action-parameters': { type: 'string' },
  enabled: { type: 'string' },
  logging: { type: 'string' },
} as const;

const POSITION_OPTIONS = { before: { type: 'string' }, after: { type: 'string' }, index: { type: 'string' } } as const;

/**
 * The options each API command's parser takes, by the command as typed (`rule add`): the
 * test of the help texts holds each of them to its command's `--help` (test/cli/help.test.ts).
 */
export const API_OPTIONS = {
  pull: { ...CONNECTION_OPTIONS, phase: { type: 'string' }, output: { type: 'string', short: 'o' }, force: { type: 'boolean' }, format: { type: 'string' } },
  deploy: { ...CONNECTION_OPTIONS, 'dry-run': { type: 'boolean' }, force: { type: 'boolean' }, yes: { type: 'boolean', short: 'y' }, resource: { type: 'string' }, section: { type: 'string' } },
  create: { ...CONNECTION_OPTIONS, 'dry-run': { type: 'boolean' }, yes: { type: 'boolean', short: 'y' } },
  list: { ...CONNECTION_OPTIONS, format: { type: 'string' } },
  versions: { ...CONNECTION_OPTIONS, phase: { type: 'string' }, format: { type: 'string' } },
  show: { ...CONNECTION_OPTIONS, phase: { type: 'string' }, version: { type: 'string' }, format: { type: 'string' } },
  delete: { ...CONNECTION_OPTIONS, version: { type: 'string' }, yes: { type: 'boolean', short: 'y' } },
  'rule add': { ...CONNECTION_OPTIONS, ...RULE_FIELD_OPTIONS, ...POSITION_OPTIONS, 'dry-run': { type: 'boolean' } },
  'rule update': { ...CONNECTION_OPTIONS, ...RULE_FIELD_OPTIONS, 'dry-run': { type: 'boolean' } },
  'rule move': { ...CONNECTION_OPTIONS, ...POSITION_OPTIONS, 'dry-run': { type: 'boolean' } },
  'rule delete': { ...CONNECTION_OPTIONS, yes: { type: 'boolean', short: 'y' }, 'dry-run': { type: 'boolean' } },
  tags: { ...CONNECTION_OPTIONS, format: { type: 'string' } },
} as const;

export async function rule(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'add':
      return ruleAdd(rest, io);
    case 'update':
      return ruleUpdate(rest, io);
    case 'move':
      return ruleMove(rest, io);
    case 'delete':
      return ruleDelete(rest, io);
    case '-h':
    case '--help':
    case 'help':
      io.out(help('rule'));
      return 0;
    case undefined:
      throw new UsageError('no rule command given: rulesets rule add|update|move|delete … (rulesets rule --help)');
    default:
      throw new UsageError(`unknown rule command "${sub}": expected add, update, move or delete`);
  }
}

interface RuleFieldValues {
  readonly action?: string;
  readonly expression?: string;
  readonly description?: string;
  readonly 'action-parameters'?: string;
  readonly enabled?: string;
  readonly logging?: string;
}

function ruleFields(values: RuleFieldValues): Partial<RuleInput> {
  let parameters: Record<string, unknown> | undefined;
  if (values['action-parameters'] !== undefined) {
    try {
      parameters = JSON.parse(values['action-parameters']) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`--action-parameters expects a JSON object such as '{"ruleset": "current"}': ${(error as Error).message}`);
    }
    if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) throw new UsageError(`--action-parameters expects a JSON object such as '{"ruleset": "current"}'`);
    // JSON.parse reads any depth; the check of the rule and the request body write it out again.
    if (nestsDeeperThan(parameters)) throw new UsageError(`--action-parameters nests deeper than ${MAX_NESTING} levels of objects and lists; action parameters need a few`);
  }
  const enabled = boolFlag(values.enabled, '--enabled');
  const logging = boolFlag(values.logging, '--logging');
  return {
    ...(values.action !== undefined ? { action: nonEmpty(values.action, '--action') } : {}),
    ...(values.expression !== undefined ? { expression: values.expression } : {}),
    ...(values.description !== undefined ? { description: values.description } : {}),
    ...(parameters !== undefined ? { action_parameters: parameters } : {}),
    ...(enabled !== undefined ? { enabled } : {}),
    ...(logging !== undefined ? { logging: { enabled: logging } } : {}),
  };
}

function position(values: { before?: string; after?: string; index?: string }): Position | undefined {
  const given = (['before', 'after', 'index'] as const).filter((k) => values[k] !== undefined);
  if (given.length > 1) throw new UsageError(`give one of --before, --after and --index, not ${given.map((k) => `--${k}`).join(' and ')}`);
  if (values.before !== undefined) return { before: values.before };
  if (values.after !== undefined) return { after: values.after };
  if (values.index !== undefined) {
    if (!/^[1-9]\d*$/.test(values.index)) throw new UsageError(`--index expects a position from 1, found "${values.index}"`);
    return { index: Number(values.index) };
  }
  return undefined;
}

/**
 * Checks an expression given on the command line with our language core: problems are shown
 * with a caret under the expression; an error stops the command (exit 1). Called once
 * without the phase before any request, and once with the ruleset's phase before the write.
 */
function checkCommandLineExpression(io: Io, expression: string, phase: string | undefined): void {
  const problems = checkExpression(expression, { phase }).problems.filter((p) => p.severity === 'error' || p.severity === 'warning');
  // Without the phase (before any request) only errors are worth a word: the check with the
  // phase, which follows, shows the warnings once.
  if (!problems.some((p) => p.severity === 'error') && (problems.length === 0 || phase === undefined)) return;
  const lines = splitLines(expression);
  const positioned = toPositions(
    expression,
    problems.map((p) => ({ code: p.code, severity: p.severity, message: p.message, start: p.span.start, end: p.span.end })),
  );
  for (const p of positioned) io.err(`${findingLines('--expression', p, lines).join('\n')}\n`);
  if (positioned.some((p) => p.severity === 'error')) throw new CommandFailure(`--expression has ${phase ? `errors in phase ${phase}` : 'errors'}; nothing was sent`, 1);
}

/** The rule's other mistakes (an action's parameters, …), checked as a one-rule ruleset of the phase. */
function checkRuleShape(rule: Readonly<Record<string, unknown>>, ruleset: Ruleset): void {
  const text = JSON.stringify({ name: ruleset.name, kind: ruleset.kind, phase: ruleset.phase, rules: [rule] }, null, 1);
  const model = parseRuleset(text, 'json');
  const expression = model.expressions[0]?.node;
  const errors = checkRuleset(text, 'json').filter((p) => p.severity === 'error' && !(expression && p.start >= expression.start && p.end <= expression.end));
  if (errors.length > 0) throw new CommandFailure(`the rule is not valid: ${errors.map((e) => e.message).join('; ')}; nothing was sent`, 1);
}

function ruleLabel(rule: Pick<Rule, 'id' | 'description'>): string {
  return rule.description ? `${rule.id} (${rule.description})` : rule.id;
}

async function ruleAdd(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('rule add', { args, allowPositionals: true, options: API_OPTIONS['rule add'] });
  if (values.help) return (io.out(help('rule')), 0);
  expectPositionals(positionals, 1, 'rulesets rule add <ruleset-id> --action A --expression E');
  const id = nonEmpty(positionals[0], 'the ruleset id');
  if (values.action === undefined || values.expression === undefined) throw new UsageError('rulesets rule add needs --action and --expression');
  const fields = ruleFields(values);
  const at = position(values);
  const { client } = connect(io, values);
  checkCommandLineExpression(io, values.expression, undefined);
  const before = await client.getRuleset(id);
  checkCommandLineExpression(io, values.expression, before.phase);
  checkRuleShape(fields, before);
  if (values['dry-run']) {
    await client.dryRun.addRule(id, fields as RuleInput, { position: at });
    io.out(`dry run: the service accepted the rule; nothing was added to ${before.name}\n`);
    return 0;
  }
  const after = await client.addRule(id, fields as RuleInput, { position: at });
  const known = new Set(before.rules.map((r) => r.id));
  const index = after.rules.findIndex((r) => !known.has(r.id));
  const added = after.rules[index];
  io.out(`added rule ${added ? ruleLabel(added) : ''} to ${after.name} at position ${index + 1}: version ${after.version}\n`);
  return 0;
}

async function ruleUpdate(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('rule update', { args, allowPositionals: true, options: API_OPTIONS['rule update'] });
  if (values.help) return (io.out(help('rule')), 0);
  const [id, ruleId] = ruleArguments(positionals, 'rulesets rule update <ruleset-id> <rule-id> [--action A] [--expression E] …');
  const fields = ruleFields(values);
  if (Object.keys(fields).length === 0) throw new UsageError('nothing to update: give --action, --expression, --description, --action-parameters, --enabled or --logging');
  const { client } = connect(io, values);
  if (values.expression !== undefined) checkCommandLineExpression(io, values.expression, undefined);
  const before = await client.getRuleset(id);
  const current = findRule(before, ruleId);
  if (values.expression !== undefined) checkCommandLineExpression(io, values.expression, before.phase);
  // The service replaces the rule with what it is sent: the live rule with the flags applied,
  // so that nothing the command line did not name changes.
  const rule: RuleInput = { ...ruleDefinition(current), ...fields };
  const { id: _id, version: _v, last_updated: _l, ref: _r, categories: _c, ...editable } = current;
  checkRuleShape({ ...editable, ...fields }, before);
  if (values['dry-run']) {
    await client.dryRun.updateRule(id, ruleId, rule);
    io.out(`dry run: the service accepted the change; rule ${ruleId} of ${before.name} is unchanged\n`);
    return 0;
  }
  const after = await client.updateRule(id, ruleId, rule);
  io.out(`updated rule ${ruleLabel(findRule(after, ruleId))} of ${after.name}: version ${after.version}\n`);
  return 0;
}

async function ruleMove(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('rule move', { args, allowPositionals: true, options: API_OPTIONS['rule move'] });
  if (values.help) return (io.out(help('rule')), 0);
  const [id, ruleId] = ruleArguments(positionals, 'rulesets rule move <ruleset-id> <rule-id> (--before ID | --after ID | --index N)');
  const at = position(values);
  if (!at) throw new UsageError('where to? give --before RULE-ID, --after RULE-ID or --index N');
  const { client } = connect(io, values);
  // A move is an update of the rule: it is sent whole, as it is live, with the new position.
  const rule = ruleDefinition(findRule(await client.getRuleset(id), ruleId));
  if (values['dry-run']) {
    await client.dryRun.updateRule(id, ruleId, rule, { position: at });
    io.out(`dry run: the service accepted the move; nothing was changed\n`);
    return 0;
  }
  const after = await client.updateRule(id, ruleId, rule, { position: at });
  const index = after.rules.findIndex((r) => r.id === ruleId);
  io.out(`moved rule ${ruleLabel(after.rules[index])} of ${after.name} to position ${index + 1}: version ${after.version}\n`);
  return 0;
}

async function ruleDelete(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('rule delete', { args, allowPositionals: true, options: API_OPTIONS['rule delete'] });
  if (values.help) return (io.out(help('rule')), 0);
  const [id, ruleId] = ruleArguments(positionals, 'rulesets rule delete <ruleset-id> <rule-id> [--yes]');
  const { client } = connect(io, values);
  const before = await client.getRuleset(id);
  const current = findRule(before, ruleId);
  if (!values['dry-run']) await confirm(io, values.yes, `Delete rule ${ruleLabel(current)} (${current.action} when ${current.expression}) from ${before.name}?`, 'delete the rule');
  if (values['dry-run']) {
    await client.dryRun.deleteRule(id, ruleId);
    io.out(`dry run: the service accepted the deletion; nothing was changed\n`);
    return 0;
  }
  const after = await client.deleteRule(id, ruleId);
  io.out(`deleted rule ${ruleLabel(current)} from ${after.name}: version ${after.version}\n`);
  return 0;
}

/** `<ruleset-id> <rule-id>`, both non-empty. */
function ruleArguments(positionals: readonly string[], usage: string): [string, string] {
  expectPositionals(positionals, 2, usage);
  return [nonEmpty(positionals[0], 'the ruleset id'), nonEmpty(positionals[1], 'the rule id')];
}

function findRule(ruleset: Ruleset, ruleId: string): Rule {
  const found = ruleset.rules.find((r) => r.id === ruleId);
  if (!found) {
    const ids = ruleset.rules.map((r) => r.id);
    throw new CommandFailure(`ruleset ${ruleset.id} (${ruleset.name}) has no rule ${ruleId}${ids.length ? `; its rules are ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}` : ''}`, 1);
  }
  return found;
}

// ---------------------------------------------------------------- exit status

/**
 * The exit status of a failure, and its one line:
 * 0 done; 1 refused (check errors, the service said no, a conflict, not confirmed);
 * 2 usage, configuration or a file that cannot be read; 3 the service failed or could not be
 * reached (whether a write landed is then stated).
 */
export function exitStatus(error: unknown): { code: number; message: string } | undefined {
  if (error instanceof CommandFailure) return { code: error.exitCode, message: error.message };
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) return { code: 2, message: (error as Error).message.split('\n')[0] };
  if (error instanceof ApiError) return apiStatus(error);
  if (error instanceof WorkflowError) {
    // A failure of the service behind the workflow's own message (the write may or may not have landed).
    const cause = (error as { cause?: unknown }).cause;
    if (error instanceof DeployOutcomeUnknownError || (cause instanceof ApiError && apiStatus(cause).code === 3)) return { code: 3, message: error.message };
    return { code: 1, message: error.message };
  }
  return undefined;
}

function apiStatus(error: ApiError): { code: number; message: string } {
  switch (error.kind) {
    case 'config':
      return { code: 2, message: error.message };
    case 'cancelled':
      return { code: 130, message: error.message };
    case 'api':
      if (error.status === 401 || error.status === 403) {
        return { code: 2, message: `${error.message} (check the credentials in RULESETS_API_TOKEN, or RULESETS_EMAIL and RULESETS_API_KEY, and the account or zone)` };
      }
      if (error.status !== undefined && (error.status >= 500 || error.status === 429)) return { code: 3, message: error.message };
      return { code: 1, message: error.message };
    case 'timeout':
      return { code: 3, message: `${error.message}; ${ENV.timeout} sets how long one request may take${error.timeoutMs !== undefined ? ` (now ${error.timeoutMs} ms)` : ''}` };
    default:
      return { code: 3, message: error.message };
  }
}

