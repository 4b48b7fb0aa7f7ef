import { parseCommandArgs } from './args';
import { commandList, COMMANDS, usageBlock } from './synopsis';
import { Progress } from './progress';
import { closestMatches, EXPRESSION_KINDS, expressionKind, kindOutOfPhase, KNOWN_PHASES, quoteAlternatives, redact, runEmulatorCommand, targetOfFile, unknownKindMessage } from '../core';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { create, deploy, exitStatus, list, pull, remove, rule, show, tags, versions } from './api-commands';
import { withEntryPointProblems, checkExpressionText, checkFiles, collectFiles, prepareReaders, ProjectConfigs, readStdin, STDIN, UsageError, type FileResult } from './check';
import { ENV, refuseCredentialFlags } from './config';
import { processIo, type Io } from './io';
import { DEFAULT_CACHE_LOCATION, ResultCache } from './result-cache';
import { findingLines, jsonReport, sarifReport, splitLines, wantsColour, writeTextReport, type ReportFormat } from './report';
import { test } from './test-command';
import { plan } from './plan-command';
import { apply } from './apply-command';
import { migrateFirewallRulesCommand } from './migrate-command';
import { version } from '../version';
import { optimiseOnlyWhatRunsLong } from '../launch/tiering';
import { visibleText } from './visible';

const CHECK_USAGE = `${usageBlock(['check'])}

Checks ruleset files and the rule expressions in them: JSON or YAML rulesets, the
cloudflare_ruleset resources of Terraform files and the sections of octorules files.
Folders are searched (skipping node_modules, .git and hidden folders) for
*.ruleset.json, *.ruleset.yaml, *.ruleset.yml, any JSON/YAML file whose top level has
"rules" and "phase" or "kind", octorules rules files, and Terraform files (*.tf) with a
resource "cloudflare_ruleset"; each finding is on the file's own line and column.
\`-\` reads one ruleset from standard input (JSON or YAML).

Options:
  --format text|json|sarif   output format (default: text)
  -p, --phase NAME           the phase of files that name none (magic_transit, …)
  -q, --quiet                report errors only
  --max-warnings N           exit 1 when there are more than N warnings
  --config FILE              the project configuration of every file (default: each
                             file's nearest .rulesets.yaml, in its folder or a parent, up
                             to the one with .git)
  --no-config                use no project configuration
  --cache                    keep each file's findings in .rulesets-cache and re-check
                             only files that changed (or the options, or this tool)
  --cache-location FILE      where --cache keeps them
  -h, --help                 show this help

Bare expressions, outside any file:
  -e, --expression EXPR      check one expression, reported as \`--expression\`
  --stdin                    check the expressions on standard input, one a line
                             (blank lines skipped), reported as \`<stdin>:LINE\`
  --kind KIND                what the expressions are, each with the phase assumed
                             without --phase or a configuration's phase:
${EXPRESSION_KINDS.map((k, i) => `                               ${k.name.padEnd(16)} ${k.phase}${i === 0 ? ' (default)' : ''}`).join('\n')}

The project configuration sets the phase of files that name none (phase:), the
account's list names (lists:), more ruleset file patterns (files:) and severities by
code (rules:, e.g. shadowed-rule: error); --phase wins over its phase. Errors the
service would reject stay errors.

The text report is coloured on a terminal; NO_COLOR=1 turns colour off, FORCE_COLOR=1 on.

Exit status: 0 no errors, 1 errors found, 2 usage or file problems.`;

const USAGE = `${usageBlock(COMMANDS.map((c) => c.name))}

${commandList()}

Every command but check, test, migrate-firewall-rules and emulator talks to the API:
  ${ENV.baseUrl} (or --base-url URL)   the API, ending in /client/v4
  ${ENV.token}                      an API token, or
  ${ENV.email} and ${ENV.key}     an email and API key (environment only)
  ${ENV.account} (or --account ID)   the account, or
  ${ENV.zone} (or --zone ID)         the zone
  ${ENV.timeout}                     per request, in milliseconds (default 30000)

\`rulesets <command> --help\` shows a command's options; \`rulesets -v\` (or \`--version\`) the version.

Exit status: 0 done; 1 errors found, the service refused, a version conflict, or not
confirmed; 2 a usage, configuration or file problem; 3 the service failed or could not be
reached (a failed deploy says whether it landed).`;

/**
 * The exit status of a `check` whose report is being written, decided before the first line
 * of it: a reader that closes the pipe early stops the report, not the status.
 */
let decidedStatus: number | undefined;

/** What `rulesets check` takes; each is in CHECK_USAGE (test/cli/help.test.ts). */
export const CHECK_OPTIONS = {
  format: { type: 'string', default: 'text' },
  phase: { type: 'string', short: 'p' },
  expression: { type: 'string', short: 'e', multiple: true },
  stdin: { type: 'boolean' },
  kind: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  'max-warnings': { type: 'string' },
  config: { type: 'string' },
  'no-config': { type: 'boolean' },
  cache: { type: 'boolean' },
  'cache-location': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function check(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('check', {
    args,
    allowPositionals: true,
    options: CHECK_OPTIONS,
  });
  if (values.help) {
    io.out(`${CHECK_USAGE}\n`);
    return 0;
  }
  const format = values.format as ReportFormat;
  if (!['text', 'json', 'sarif'].includes(format)) throw new UsageError(`unknown --format "${values.format}": expected text, json or sarif`);
  const maxWarnings = values['max-warnings'] === undefined ? undefined : Number(values['max-warnings']);
  if (maxWarnings !== undefined && !(Number.isInteger(maxWarnings) && maxWarnings >= 0)) throw new UsageError(`--max-warnings takes a whole number of warnings (0 or more), not "${values['max-warnings']}"`);
  if (values.config !== undefined && values['no-config']) throw new UsageError('--config and --no-config were both given: pass one');
  const reportOptions = { format, quiet: values.quiet === true, maxWarnings };
  if (values.expression !== undefined || values.stdin) return checkBareExpressions({ ...values, expressions: values.expression ?? [] }, positionals, reportOptions, io);
  if (values.kind !== undefined) throw new UsageError('--kind says what kind of expression --expression or --stdin holds: add one of them, or leave --kind out to check files');
  if (positionals.length === 0) throw new UsageError('no files or folders to check: rulesets check <files or folders...> (or --expression EXPR, or --stdin)');
  if (values.phase !== undefined) checkPhaseOption(values.phase, io);
  const configs = new ProjectConfigs({ named: values.config, none: values['no-config'] === true });
  const files = collectFiles(positionals, (path) => configs.of(path)?.patterns ?? []);
  // Checking nothing is more likely a wrong path than a clean project: a CI step must not
  // pass on it.
  if (files.length === 0) throw new UsageError(`no ruleset files found in ${positionals.join(', ')}`);
  if (values['cache-location'] !== undefined && !values.cache) throw new UsageError('--cache-location names where --cache keeps its findings: add --cache');
  for (const file of files) configs.of(file);
  reportProjectConfigs(configs, io);
  // A run over a few MiB ends before V8's eager optimisation pays for itself (launch/tiering.ts:
  // 1,000 rules of YAML 620 → 440 ms, 10,000 of JSON 1.34 → 1.0 s); a larger one gains from it
  // (50,000 rules of YAML took 6 s with it, 8 s without).
  if (totalBytes(files) < SHORT_RUN_BYTES) optimiseOnlyWhatRunsLong();
  await prepareReaders(files);
  const kept = values.cache ? ResultCache.open(values['cache-location'] ?? DEFAULT_CACHE_LOCATION) : undefined;
  // A check that runs long says how far it is, on a terminal's stderr (cli/progress.ts).
  const progress = new Progress(io.status ?? io.err, { terminal: io.watched === true, env: io.env });
  const checked = checkFiles(
    files,
    (file) => {
      const loaded = configs.of(file);
      const config = loaded?.config;
      // A target's plan and add-ons are those of the zone its files go to: they win for them.
      const target = loaded && file !== STDIN ? targetOfFile(loaded.config, loaded.folder, resolve(file)) : undefined;
      return { phase: values.phase ?? config?.phase, plan: target?.plan ?? config?.plan, addons: target?.addons ?? config?.addons, knownLists: config?.lists, listKinds: config?.listKinds, severities: config?.rules, terraformVarFiles: config?.terraformVarFiles };
    },
    kept,
    progress.active ? progress : undefined,
  );
  progress.end();
  const unsaved = kept?.save();
  if (unsaved) io.err(`rulesets: ${unsaved}\n`);
  // Files of one target's phase give one entry point its rules: their conflicts are said on their lines.
  const merged = withEntryPointProblems(files, checked, (file) => {
    const loaded = configs.of(file);
    const target = loaded ? targetOfFile(loaded.config, loaded.folder, resolve(file)) : undefined;
    return target && loaded ? `${loaded.folder}\0${(target.zone ?? target.account ?? '').toLowerCase()}` : undefined;
  });
  return writeReport(merged, reportOptions, io);
}

interface ReportOptions {
  readonly format: ReportFormat;
  readonly quiet: boolean;
  readonly maxWarnings: number | undefined;
  /** The text report's last line, before its counts (default: how many files were checked). */
  readonly checked?: string;
}

/** Writes the report of a check in its format and returns the exit status: 1 for errors or more warnings than --max-warnings allows. */
function writeReport(checked: readonly FileResult[], options: ReportOptions, io: Io): number {
  const { format, maxWarnings } = options;
  const errors = checked.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === 'error').length, 0);
  const warnings = checked.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === 'warning').length, 0);
  const tooManyWarnings = maxWarnings !== undefined && warnings > maxWarnings;
  const status = errors > 0 || tooManyWarnings ? 1 : 0;
  decidedStatus = status;
  // --quiet: errors only, as linters have it; the warnings still count for --max-warnings.
  const results = options.quiet ? checked.map((r) => ({ ...r, diagnostics: r.diagnostics.filter((d) => d.severity === 'error') })) : checked;
  // The text report is written as it is made, in chunks: it can run to megabytes.
  if (format === 'text') writeTextReport(results, io.out, { colour: wantsColour(io.outIsTerminal, io.env), checked: options.checked });
  else io.out(format === 'json' ? jsonReport(results) : sarifReport(results));
  if (tooManyWarnings) io.err(`rulesets: ${warnings} warning${warnings === 1 ? '' : 's'}, more than --max-warnings ${maxWarnings} allows\n`);
  return status;
}

/**
 * `--expression EXPR` and `--stdin`: bare expressions, outside any file, of the kind `--kind`
 * names (a filter by default), in the phase `--phase` names, else the project configuration's
 * (when the kind has a place there), else the kind's own (EXPRESSION_KINDS: a filter's is
 * `http_request_firewall_custom`, WAF custom rules). Reported as a file named `--expression` or
 * `<stdin>`, each finding at its line and column there.
 */
function checkBareExpressions(
  values: { readonly expressions: readonly string[]; readonly stdin?: boolean; readonly kind?: string; readonly phase?: string; readonly config?: string; readonly 'no-config'?: boolean; readonly cache?: boolean; readonly 'cache-location'?: string },
  positionals: readonly string[],
  reportOptions: ReportOptions,
  io: Io,
): number {
  if (values.expressions.length > 0 && values.stdin) throw new UsageError('--expression and --stdin were both given: pass one (--stdin reads one expression a line)');
  if (values.expressions.length > 1) throw new UsageError('--expression was given more than once: check several expressions with --stdin, one a line');
  if (positionals.length > 0) throw new UsageError(`${values.stdin ? '--stdin' : '--expression'} checks bare expressions, not files: leave out \`${positionals[0]}\`, or check the files without it`);
  if (values.cache || values['cache-location'] !== undefined) throw new UsageError(`--cache keeps the findings of files; ${values.stdin ? '--stdin' : '--expression'} checks its expressions afresh: leave --cache out`);
  const kind = values.kind === undefined ? EXPRESSION_KINDS[0] : expressionKind(values.kind);
  if (!kind) throw new UsageError(unknownKindMessage(values.kind!, ' for --kind'));
  if (values.phase !== undefined) checkPhaseOption(values.phase, io);
  const configs = new ProjectConfigs({ named: values.config, none: values['no-config'] === true });
  const config = configs.of(STDIN)?.config;
  reportProjectConfigs(configs, io);
  const configured = config?.phase !== undefined && !kindOutOfPhase(kind, config.phase) ? config.phase : undefined;
  const phase = values.phase ?? configured ?? kind.phase;
  const outOfPhase = kindOutOfPhase(kind, phase);
  if (outOfPhase) throw new UsageError(`${outOfPhase}: pass another --phase, or another --kind`);
  const options = { kind, phase, plan: config?.plan, knownLists: config?.lists && config.lists.length > 0 ? config.lists : undefined, listKinds: config?.listKinds, severities: config?.rules };
  const checked = values.stdin ? checkExpressionText(readStdin(), '<stdin>', true, options) : checkExpressionText(values.expressions[0], '--expression', false, options);
  if (checked.count === 0) throw new UsageError('no expression on standard input: --stdin reads one expression a line');
  const what = kind.name === 'filter' ? (checked.count === 1 ? 'expression' : 'expressions') : `${kind.name} expression${checked.count === 1 ? '' : 's'}`;
  return writeReport([checked], { ...reportOptions, checked: `${checked.count} ${what} checked in phase ${phase}` }, io);
}

const SHORT_RUN_BYTES = 4 * 1024 * 1024;

/** The size of the files to check (standard input counts as small: it is read later). */
function totalBytes(files: readonly string[]): number {
  let total = 0;
  for (const file of files) {
    try {
      if (file !== STDIN) total += statSync(file).size;
    } catch {
      // checkFiles says what is wrong with it
    }
  }
  return total;
}

/**
 * `--phase` names a phase: a misspelt one is a usage error with the phase meant; one that is
 * merely unknown here (a phase newer than this version) is used, with a word on stderr.
 */
function checkPhaseOption(phase: string, io: Io): void {
  if (KNOWN_PHASES.includes(phase)) return;
  const meant = closestMatches(phase, KNOWN_PHASES);
  if (meant.length > 0) throw new UsageError(`unknown phase \`${phase}\` for --phase; did you mean ${quoteAlternatives(meant)}?`);
  io.err(`rulesets: --phase ${phase} is not a phase this version knows; checking with it anyway\n`);
}

/**
 * The project configurations the files are checked with (each file's nearest `.rulesets.yaml`,
 * or the one `--config` names). Their warnings go to stderr and the check goes on; an error in
 * any stops the run before any file is checked (exit 2), each mistake at its place, as the
 * report shows one.
 */
function reportProjectConfigs(configs: ProjectConfigs, io: Io): void {
  const broken: { path: string; errors: number }[] = [];
  for (const loaded of configs.used()) {
    const lines = loaded.problems.length > 0 ? splitLines(loaded.text) : [];
    for (const p of loaded.problems) io.err(`${findingLines(loaded.path, p, lines).join('\n')}\n`);
    const errors = loaded.problems.filter((p) => p.severity === 'error').length;
    if (errors > 0) broken.push({ path: loaded.path, errors });
  }
  if (broken.length === 1) {
    const [{ path, errors }] = broken;
    throw new UsageError(`${path} has ${errors} error${errors === 1 ? '' : 's'}: fix ${errors === 1 ? 'it' : 'them'}, or pass --no-config to check without it`);
  }
  if (broken.length > 1) throw new UsageError(`${broken.map((b) => b.path).join(', ')} have errors: fix them, or pass --no-config to check without them`);
}

const API_COMMANDS: Record<string, (args: string[], io: Io) => Promise<number>> = {
  pull,
  deploy,
  create,
  list,
  versions,
  show,
  delete: remove,
  rule,
  tags,
};

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'check':
        return await check(rest, io);
      case 'test':
        return await test(rest, io);
      case 'migrate-firewall-rules':
        return await migrateFirewallRulesCommand(rest, io);
      case 'plan':
        // Its own credential check: with --detailed-exitcode a usage error exits 1, not 2.
        return await plan(rest, io);
      case 'apply':
        return await apply(rest, io);
      case 'emulator':
        return await runEmulatorCommand(rest, { out: io.out, err: io.err });
      case '-v':
      case '--version':
        io.out(`${version}\n`);
        return 0;
      case undefined:
        // A usage error like any other: one line on stderr, so scripts see why it exited 2.
        throw new UsageError('no command given; try: rulesets check <files or folders...> (or rulesets --help)');
      case '-h':
      case '--help':
      case 'help':
        io.out(`${USAGE}\n`);
        return 0;
      default: {
        const run = Object.hasOwn(API_COMMANDS, command) ? API_COMMANDS[command] : undefined;
        if (!run) throw new UsageError(`unknown command "${command}"; try: rulesets check <files or folders...> (or rulesets --help)`);
        refuseCredentialFlags(rest);
        return await run(rest, io);
      }
    }
  } catch (error) {
    // A user's mistake or a service's failure gets one line; anything else is our bug and
    // keeps its stack (with any credential of the environment taken out).
    const status = exitStatus(error);
    if (status) {
      if (status.message) io.err(`rulesets: ${scrub(status.message, io)}\n`);
      return status.code;
    }
    io.err(`rulesets: internal error (please report it): ${scrub((error as Error)?.stack ?? String(error), io)}\n`);
    return 70;
  }
}

/** Belt and braces: no credential of the environment leaves in a message. */
function scrub(text: string, io: Io): string {
  // Nor a control character of a file a message quotes (they are escaped).
  return visibleText(redact(text, [io.env[ENV.token], io.env[ENV.key], io.env[ENV.email]]));
}

if (require.main === module) {
  // A reader that stops early (`rulesets check . | head`) closes the pipe: stop quietly, as
  // Unix tools do, with the exit status already decided, instead of an EPIPE stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    // A check's report is written in several pieces: the pipe may close before main returns.
    process.exit(decidedStatus);
  });
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
