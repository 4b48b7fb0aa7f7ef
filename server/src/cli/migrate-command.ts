/**
 * `rulesets migrate-firewall-rules FILE.tf`: the `cloudflare_ruleset` that takes over a
 * Terraform file's firewall rules (`cloudflare_firewall_rule` with its `cloudflare_filter`),
 * printed, or appended to the file with `--write`. The same resource as the editor's quick fix
 * on the `firewall-rules-ended` warning writes (documents/firewall-rules.ts).
 */
import { loadTerraformParser, migrateFirewallRules } from '../core';
import { parseCommandArgs } from './args';
import { usageBlock } from './synopsis';
import { UsageError } from './check';
import { replaceFile } from './files';
import { readTextFile, type Io } from './io';

export const MIGRATE_USAGE = `${usageBlock(['migrate-firewall-rules'])}

Writes the cloudflare_ruleset of WAF custom rules (phase http_request_firewall_custom) that
takes over the file's cloudflare_firewall_rule resources and their cloudflare_filter: Firewall
Rules ended on 2025-06-15. Each rule keeps its filter's expression, its description, its order
(priority, then as written) and enabled = !paused; allow becomes skip of the remaining custom
rules, bypass a skip of its products. Written in the file's provider shape (v4 blocks or a v5
list). A firewall rule whose filter is not in the file is left out, and named on stderr.

Options:
  --write      append the resource to FILE.tf instead of printing it
  -h, --help   show this help

Then import the zone's custom rules ruleset into the new resource, and remove the old
resources from the state and the file, as the comment above it says.

Exit status: 0 written; 2 a usage or file problem, or no firewall rule to take over.`;

/** What `rulesets migrate-firewall-rules` takes; each is in MIGRATE_USAGE (test/cli/help.test.ts). */
export const MIGRATE_OPTIONS = { write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export async function migrateFirewallRulesCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('migrate-firewall-rules', {
    args,
    allowPositionals: true,
    options: MIGRATE_OPTIONS,
  });
  if (values.help) {
    io.out(`${MIGRATE_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`${positionals.length === 0 ? 'no file given' : `one file at a time, ${positionals.length} given`}: rulesets migrate-firewall-rules FILE.tf [--write]`);
  const [path] = positionals;
  if (!/\.tf$/i.test(path)) throw new UsageError(`${path}: expected a Terraform file (.tf) with cloudflare_firewall_rule resources`);
  const { text } = readTextFile(path);
  await loadTerraformParser();
  const migration = migrateFirewallRules(text);
  if (!migration) throw new UsageError(`${path}: no cloudflare_firewall_rule in the file: nothing to take over`);
  if (migration.migrated.length === 0) throw new UsageError(`${path}: no firewall rule to take over: ${migration.leftOut.join('; ')}`);
  for (const left of migration.leftOut) io.err(`rulesets: ${path}: left out ${left}\n`);
  if (!values.write) {
    io.out(migration.text);
    return 0;
  }
  const { start, end, newText } = migration.edit;
  try {
    replaceFile(path, text.slice(0, start) + newText + text.slice(end));
  } catch (error) {
    throw new UsageError(`${path}: cannot write the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  io.out(`${path}: wrote the cloudflare_ruleset of ${migration.migrated.length} rule${migration.migrated.length === 1 ? '' : 's'} (${migration.migrated.join(', ')})\n`);
  return 0;
}
