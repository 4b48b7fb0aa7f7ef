/**
 * README's terminal session of `rulesets plan` and `rulesets apply` across two zones, run for real:
 * the built CLI against the emulator, in a repository whose `.rulesets.yaml` is the one the
 * session shows. Before the session (as its prose says) both zones' WAF rules were applied once;
 * since, example.com's file moved `bad-bots` up and widened the office range, and someone
 * edited `bad-bots` of example.net in the dashboard. Each command's output (stdout and stderr in
 * the order written, as a terminal shows them) must be what README shows.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Emulator } from '../../server/src/api/emulator';
import { cliEnvironment, makeClient, startTestEmulator } from '../api/harness';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const PHASE = 'http_request_firewall_custom';
const ZONES = { 'example.com': '023e105f4ecef8ad9ca31a8372d0c353', 'example.net': '9a7806061c88ada191ed06f989cc3dac' } as const;

let emulator: Emulator;
let repo: string;

before(async () => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
  emulator = await startTestEmulator();
  for (const [name, id] of Object.entries(ZONES)) emulator.state.addZone({ name, id });
  repo = mkdtempSync(join(tmpdir(), 'rulesets-readme-estate-'));
});

after(async () => {
  await emulator.close();
  rmSync(repo, { recursive: true, force: true });
});

/** The session in README: each `$ command` with the lines it printed. */
function session(): { command: string; output: string }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Every zone at once: `plan` and `apply`'));
  const block = /```console\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, "README's session");
  const steps: { command: string; output: string }[] = [];
  for (const line of block.split('\n').slice(0, -1)) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: '' });
    else steps[steps.length - 1].output += `${line}\n`;
  }
  return steps;
}

/** The CLI as a terminal runs it: stdout and stderr into one file, in the order written. */
async function rulesets(args: readonly string[]): Promise<{ status: number | null; output: string }> {
  const file = join(repo, '..', `${repo.split('/').pop()}.out`);
  const fd = openSync(file, 'w');
  const env = cliEnvironment(emulator.baseUrl, { USER: 'alice' });
  try {
    const status = await new Promise<number | null>((done, fail) => {
      const child = spawn(process.execPath, [CLI, ...args], { cwd: repo, env, stdio: ['ignore', fd, fd] });
      child.on('error', fail);
      child.on('close', done);
    });
    return { status, output: readFileSync(file, 'utf8') };
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}

const waf = (rules: string) => `name: default\nkind: zone\nphase: ${PHASE}\nrules:\n${rules}`;
const OFFICE = (range: string) => `  - ref: office-only\n    description: Only the office\n    action: block\n    expression: not ip.src in {${range}}\n`;
const BOTS = '  - ref: bad-bots\n    action: managed_challenge\n    expression: cf.client.bot and not cf.verified_bot_category in {"Search Engine Crawler"}\n';

describe("README's session: every zone at once", () => {
  it('prints what README shows, command by command', async () => {
    const steps = session();
    assert.equal(steps[0].command, 'cat .rulesets.yaml');
    writeFileSync(join(repo, '.rulesets.yaml'), steps[0].output);
    for (const zone of Object.keys(ZONES)) {
      mkdirSync(join(repo, 'zones', zone), { recursive: true });
      writeFileSync(join(repo, 'zones', zone, 'waf.yaml'), waf(OFFICE('192.0.2.0/24') + BOTS));
    }
    // What happened before the session: the first apply, a dashboard edit, an edit of a file.
    const first = await rulesets(['plan', '-o', 'first.json']);
    assert.equal(first.status, 0, first.output);
    const applied = await rulesets(['apply', 'first.json']);
    assert.equal(applied.status, 0, applied.output);
    rmSync(join(repo, 'first.json'));
    const net = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: ZONES['example.net'] } });
    const live = await net.getEntryPoint(PHASE);
    const bots = live.rules.find((r) => r.ref === 'bad-bots')!;
    await net.updateRule(live.id, bots.id!, { ref: 'bad-bots', action: 'block', expression: bots.expression });
    writeFileSync(join(repo, 'zones', 'example.com', 'waf.yaml'), waf(BOTS + OFFICE('192.0.2.0/24 198.51.100.0/24')));

    // RULESETS_README_SESSION=print prints the session as it runs now, to paste into README.
    let printed = `$ ${steps[0].command}\n${steps[0].output}`;
    for (const { command, output } of steps.slice(1)) {
      const [, args, echo] = /^rulesets (.*?)(; echo "exit \$\?")?$/.exec(command) ?? [];
      assert.ok(args, `a command the test runs: ${command}`);
      const run = await rulesets(args.split(' '));
      const shown = run.output + (echo ? `exit ${run.status}\n` : '');
      printed += `$ ${command}\n${shown}`;
      if (process.env.RULESETS_README_SESSION !== 'print') assert.equal(shown, output, `$ ${command}`);
    }
    if (process.env.RULESETS_README_SESSION === 'print') process.stdout.write(`\n${printed}`);
    // The audit log has a line for each write of the session's apply, and of the first.
    assert.equal(readFileSync(join(repo, '.rulesets', 'audit.log'), 'utf8').trim().split('\n').length, 4);
  });
});
