/**
 * The help a newcomer reads says what the commands take: `rulesets --help` and every
 * `rulesets <command> --help` print the usages of one table (cli/synopsis.ts), README's synopsis
 * blocks hold the same lines, and every option a command's parser takes is in its help.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHECK_OPTIONS, main } from '../../server/src/cli/main';
import { API_OPTIONS } from '../../server/src/cli/api-commands';
import { TEST_OPTIONS } from '../../server/src/cli/test-command';
import { MIGRATE_OPTIONS } from '../../server/src/cli/migrate-command';
import { EMULATOR_OPTIONS } from '../../server/src/api/emulator-command';
import { PLAN_OPTIONS } from '../../server/src/cli/plan-command';
import { APPLY_OPTIONS } from '../../server/src/cli/apply-command';
import { COMMANDS, usageBlock } from '../../server/src/cli/synopsis';

const ROOT = resolve(__dirname, '..', '..');

/** What `rulesets ARGS` prints on stdout, and its exit status. */
async function run(args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await main([...args], { out: (t) => void (stdout += t), err: (t) => void (stderr += t), env: {}, interactive: false, ask: async () => '' });
  return { status, stdout, stderr };
}

/**
 * README's synopses: in its ```text blocks, each line that starts `rulesets ` (not a `$ ` prompt,
 * not a message `rulesets: …`) with the indented lines that go on from it.
 */
function readmeSynopses(readme: string): string[] {
  const found: string[] = [];
  for (const block of readme.matchAll(/^```text\n([\s\S]*?)^```/gm)) {
    let current: string[] | undefined;
    for (const line of block[1].split('\n')) {
      if (/^rulesets [a-z]/.test(line)) {
        current = [line];
        found.push('');
      } else if (current && /^ +\S/.test(line)) current.push(line);
      else current = undefined;
      if (current) found[found.length - 1] = current.join('\n');
    }
  }
  return found;
}

/** Whether the help names the option as a word: `--format`, not `--format-x` or `x--format`. */
function names(help: string, option: string): boolean {
  const escaped = option.replace(/[-]/g, '\\-');
  return new RegExp(`(^|[^\\w-])${escaped}(?![\\w-])`, 'm').test(help);
}

/** Each parser's options, by the command line whose `--help` lists them. */
const PARSERS: readonly (readonly [readonly string[], object])[] = [
  [['check'], CHECK_OPTIONS],
  [['test'], TEST_OPTIONS],
  [['migrate-firewall-rules'], MIGRATE_OPTIONS],
  [['emulator'], EMULATOR_OPTIONS],
  [['plan'], PLAN_OPTIONS],
  [['apply'], APPLY_OPTIONS],
  ...Object.entries(API_OPTIONS).map(([command, options]) => [command.split(' '), options] as const),
];

describe('the help says what the commands take', () => {
  it("README's synopsis blocks hold the table's usages, every one and nothing else", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = COMMANDS.flatMap((c) => c.usages);
    // A usage may be shown again where its section is (`--expression` has one of its own).
    assert.deepEqual([...new Set(readmeSynopses(readme))].sort(), [...table].sort());
  });

  it('`rulesets --help` lists every usage of every command, and each command with what it does', async () => {
    const { status, stdout } = await run(['--help']);
    assert.equal(status, 0);
    assert.ok(stdout.startsWith(`${usageBlock(COMMANDS.map((c) => c.name))}\n`), stdout.slice(0, 400));
    for (const c of COMMANDS) assert.match(stdout, new RegExp(`^  ${c.name}\\s+${c.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'), c.name);
    // What issue 36 found missing from it.
    for (const usage of ['--format yaml|json|terraform|octorules', 'rulesets deploy FILE [--resource NAME | --section NAME]', 'rulesets test FILE --request JSON']) assert.ok(stdout.includes(usage), usage);
  });

  for (const c of COMMANDS) {
    it(`\`rulesets ${c.name} --help\` starts with its usages from the table`, async () => {
      const { status, stdout } = await run([c.name, '--help']);
      assert.equal(status, 0);
      assert.ok(stdout.startsWith(`${usageBlock([c.name])}\n`), stdout.slice(0, 400));
    });
  }

  for (const [command, options] of PARSERS) {
    it(`every option \`rulesets ${command.join(' ')}\` takes is in its help`, async () => {
      const { stdout } = await run([...command, '--help']);
      for (const [name, option] of Object.entries(options as Record<string, { readonly short?: string }>)) {
        assert.ok(names(stdout, `--${name}`), `--${name} is not in \`rulesets ${command.join(' ')} --help\``);
        if (option.short) assert.ok(names(stdout, `-${option.short}`), `-${option.short} (--${name}) is not in \`rulesets ${command.join(' ')} --help\``);
      }
    });
  }

  it('`rulesets check --help` says which files a folder is searched for, Terraform and octorules included', async () => {
    const { stdout } = await run(['check', '--help']);
    assert.match(stdout, /\*\.tf/);
    assert.match(stdout, /octorules/);
    assert.match(stdout, /\*\.ruleset\.json, \*\.ruleset\.yaml, \*\.ruleset\.yml/);
  });
});
