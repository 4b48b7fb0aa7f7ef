/**
 * How each command of `rulesets` is called: one table, which `rulesets --help` and each
 * `rulesets <command> --help` print, and which README's synopsis blocks hold line for line, each
 * usage in one block at least (test/cli/help.test.ts). A usage that no longer fits one line goes on over lines that start
 * with spaces, as README shows it.
 */

export interface CommandSynopsis {
  /** The command, as typed after `rulesets`. */
  readonly name: string;
  /** Its usages, each a line starting `rulesets NAME`, with continuation lines indented under it. */
  readonly usages: readonly string[];
  /** What it does, in one line of `rulesets --help`. */
  readonly summary: string;
}

export const COMMANDS: readonly CommandSynopsis[] = [
  {
    name: 'check',
    usages: [
      'rulesets check <files or folders...> [--format text|json|sarif] [--phase NAME] [--quiet] [--max-warnings N]\n               [--config FILE | --no-config] [--cache [--cache-location FILE]]',
      'rulesets check --expression EXPR [--kind KIND] [--phase NAME] [--format text|json|sarif]',
      'rulesets check --stdin [--kind KIND] [--phase NAME] [--format text|json|sarif]',
    ],
    summary: 'check ruleset, Terraform and octorules files, or bare expressions (no account needed)',
  },
  {
    name: 'test',
    usages: [
      'rulesets test FILE --packet JSON|@FILE [--lists FILE] [--trace] [--resource NAME | --section NAME]',
      'rulesets test FILE --request JSON|@FILE [--lists FILE] [--trace] [--resource NAME | --section NAME]',
      'rulesets test <test files, rulesets or folders...> [--lists FILE]',
    ],
    summary: 'what a ruleset does with a packet or a request; run *.ruleset.test.yaml files (no account needed)',
  },
  {
    name: 'pull',
    usages: ['rulesets pull <ruleset-id> | --phase NAME [-o FILE] [--force] [--format yaml|json|terraform|octorules]'],
    summary: 'write a ruleset (or a phase\'s entry point) as a file, or to stdout',
  },
  {
    name: 'deploy',
    usages: ['rulesets deploy FILE [--resource NAME | --section NAME] [--dry-run] [--force] [--yes]'],
    summary: 'check, dry-run and diff a file against what is live, confirm, deploy',
  },
  {
    name: 'plan',
    usages: ['rulesets plan [PATH...] [--format text|json|markdown] [--owns-phase PHASE] [--terraform-plan FILE] [--detailed-exitcode] [-o PLAN]'],
    summary: 'what deploying every ruleset file would change, rule by rule (writes nothing)',
  },
  {
    name: 'apply',
    usages: ['rulesets apply PLAN | [PATH...] [--owns-phase PHASE] [--yes] [--allow-mass-change]'],
    summary: 'apply a saved plan exactly (or plan, confirm and apply), with an audit log',
  },
  { name: 'create', usages: ['rulesets create FILE [--dry-run] [--yes]'], summary: 'create a new ruleset from a file' },
  { name: 'list', usages: ['rulesets list [--format text|json]'], summary: 'list the rulesets of the account or zone' },
  { name: 'versions', usages: ['rulesets versions <ruleset-id> | --phase NAME [--format text|json]'], summary: "list a ruleset's versions" },
  { name: 'show', usages: ['rulesets show <ruleset-id> | --phase NAME [--version N] [--format yaml|json]'], summary: 'print a ruleset, or one version of it' },
  { name: 'delete', usages: ['rulesets delete <ruleset-id> [--version N] [--yes]'], summary: 'delete a ruleset, or one version of it' },
  {
    name: 'rule',
    usages: [
      'rulesets rule add <ruleset-id> --action A --expression E [--description D] [--action-parameters JSON]\n                  [--enabled true|false] [--logging true|false] [--before RULE-ID | --after RULE-ID | --index N] [--dry-run]',
      'rulesets rule update <ruleset-id> <rule-id> [--action A] [--expression E] [--description D] [--action-parameters JSON]\n                  [--enabled true|false] [--logging true|false] [--dry-run]',
      'rulesets rule move <ruleset-id> <rule-id> (--before RULE-ID | --after RULE-ID | --index N) [--dry-run]',
      'rulesets rule delete <ruleset-id> <rule-id> [--yes] [--dry-run]',
    ],
    summary: 'add, change, move or delete one rule in place',
  },
  { name: 'tags', usages: ['rulesets tags <ruleset-id> <version> <tag> [--format yaml|json]'], summary: "the rules of a managed ruleset's version that carry a tag" },
  { name: 'emulator', usages: ['rulesets emulator [--port N] [--data FILE] [--fault N[:drop][:after]]'], summary: 'run a local emulator of the Rulesets API' },
  {
    name: 'migrate-firewall-rules',
    usages: ['rulesets migrate-firewall-rules FILE.tf [--write]'],
    summary: "the cloudflare_ruleset that takes over a .tf file's firewall rules (no account needed)",
  },
];

const PREFIX = 'Usage: ';

/** A command's entry of the table. */
export function synopsisOf(name: string): CommandSynopsis {
  const found = COMMANDS.find((c) => c.name === name);
  if (!found) throw new Error(`no command ${name} in the synopsis table`);
  return found;
}

/** `Usage: rulesets NAME …`, each usage of the command under the one before, as `<command> --help` starts. */
export function usageBlock(names: readonly string[]): string {
  const usages = names.flatMap((name) => synopsisOf(name).usages);
  return usages.map((usage, i) => `${i === 0 ? PREFIX : ' '.repeat(PREFIX.length)}${usage.replace(/\n/g, `\n${' '.repeat(PREFIX.length)}`)}`).join('\n');
}

/** The list of commands with what each does, as `rulesets --help` shows it. */
export function commandList(): string {
  return COMMANDS.map((c) => (c.name.length < 10 ? `  ${c.name.padEnd(11)}${c.summary}` : `  ${c.name}\n${' '.repeat(13)}${c.summary}`)).join('\n');
}
