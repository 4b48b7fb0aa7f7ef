/**
 * The API commands of the built CLI (`node dist/cli.js`) against the emulator over loopback.
 * The CLI runs as a child process (spawned asynchronously: the emulator answers from this
 * process's event loop), pointed at the emulator by environment variables.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { RuleInput, Ruleset } from '../../server/src/api/client';
import type { Emulator } from '../../server/src/api/emulator';
import { readLocalRuleset, serializeRuleset } from '../../server/src/core';
import { makeClient, SECRETS, startTestEmulator, type TestClient } from '../api/harness';
import { REDIRECTS_YAML as REDIRECTS } from '../api/phase-families';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

let emulator: Emulator;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Every output of every run, for the credential check. */
const outputs: string[] = [];

/** The environment without the developer's own RULESETS_* settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('RULESETS_')) env[key] = value;
  return env;
}

let accounts = 0;

/** An account of its own for each test, so that entry points do not meet. */
function account(): string {
  return `cli-${process.pid}-${++accounts}`;
}

interface RunOptions {
  readonly cwd?: string;
  /** Replaces the emulator settings (RULESETS_*) given by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly account?: string;
  readonly input?: string;
}

function apiEnv(options: RunOptions): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(),
    ...(options.env ?? { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: options.account ?? account() }),
  };
}

function run(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env: apiEnv(options), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.stdin.end(options.input ?? '');
    child.on('close', (status) => {
      outputs.push(stdout, stderr);
      done({ status, stdout, stderr });
    });
  });
}

const temps: string[] = [];

function tempFolder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-api-cli-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

before(async () => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
  emulator = await startTestEmulator();
});

after(async () => {
  await emulator.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const SKIP_SSH: RuleInput = { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'tcp.dstport in {22}', description: 'ssh' };
const BLOCK_TCP: RuleInput = { action: 'block', expression: 'ip.proto == "tcp"', description: 'block tcp' };
const BLOCK_UDP: RuleInput = { action: 'block', expression: 'ip.proto == "udp"', description: 'block udp' };

function clientFor(accountId: string): TestClient {
  return makeClient(emulator.baseUrl, { scope: { kind: 'account', id: accountId } });
}

async function customRuleset(accountId: string, rules: readonly RuleInput[] = [SKIP_SSH, BLOCK_TCP]): Promise<Ruleset> {
  return clientFor(accountId).createRuleset({ name: 'edge', kind: 'custom', phase: 'magic_transit', description: 'from the tests', rules });
}

/** Requests that change something (dry runs excepted), from `since` on. */
function writesSince(since: number): string[] {
  return emulator.requests
    .slice(since)
    .filter((r) => r.method !== 'GET' && !r.path.includes('dry_run=true'))
    .map((r) => `${r.method} ${r.path}`);
}

function state(id: string): string {
  return JSON.stringify(emulator.state.latest(id));
}

/** A ruleset pulled into a folder as `name` by the CLI itself. */
async function pulledInto(accountId: string, id: string, name = 'edge.ruleset.yaml'): Promise<{ dir: string; file: string }> {
  const dir = tempFolder();
  const result = await run(['pull', id, '-o', name], { cwd: dir, account: accountId });
  assert.equal(result.status, 0, result.stderr);
  return { dir, file: join(dir, name) };
}

describe('configuration', () => {
  const base = () => ({ RULESETS_BASE_URL: emulator.baseUrl, RULESETS_ACCOUNT_ID: 'a' });
  const cases: [name: string, env: () => Record<string, string>, args: string[], message: RegExp][] = [
    ['no credentials', base, ['list'], /^rulesets: no credentials: set RULESETS_API_TOKEN \(an API token\), or RULESETS_EMAIL and RULESETS_API_KEY/],
    ['an email without a key', () => ({ ...base(), RULESETS_EMAIL: SECRETS.email }), ['list'], /^rulesets: RULESETS_EMAIL is set but RULESETS_API_KEY is not: set RULESETS_API_KEY too/],
    ['a key without an email', () => ({ ...base(), RULESETS_API_KEY: SECRETS.key }), ['list'], /^rulesets: RULESETS_API_KEY is set but RULESETS_EMAIL is not/],
    ['no base URL', () => ({ RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: 'a' }), ['list'], /^rulesets: no API base URL: set RULESETS_BASE_URL \(or pass --base-url URL\)/],
    ['no account or zone', () => ({ RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token }), ['list'], /^rulesets: no account or zone: set RULESETS_ACCOUNT_ID \(or pass --account ID\), or RULESETS_ZONE_ID/],
    ['both an account and a zone', () => ({ ...base(), RULESETS_API_TOKEN: SECRETS.token, RULESETS_ZONE_ID: 'z' }), ['list'], /^rulesets: both RULESETS_ACCOUNT_ID and RULESETS_ZONE_ID are set/],
    ['a bad timeout', () => ({ ...base(), RULESETS_API_TOKEN: SECRETS.token, RULESETS_TIMEOUT_MS: 'soon' }), ['list'], /^rulesets: RULESETS_TIMEOUT_MS must be a number of milliseconds/],
    ['plain http to another host', () => ({ ...base(), RULESETS_API_TOKEN: SECRETS.token, RULESETS_BASE_URL: 'http://api.example.com/client/v4' }), ['list'], /^rulesets: refusing to send credentials over plain http:\/\/ to api\.example\.com/],
    ['a token given as a flag', () => ({ ...base(), RULESETS_API_TOKEN: SECRETS.token }), ['list', `--token=${SECRETS.token}`], /^rulesets: credentials are read from the environment only, never from flags .* instead of --token$/m],
    ['a key given as a flag', () => ({ ...base(), RULESETS_API_TOKEN: SECRETS.token }), ['deploy', 'x.yaml', '--api-key', SECRETS.key], /^rulesets: credentials are read from the environment only/],
    ['an unknown option', () => ({ ...base(), RULESETS_API_TOKEN: SECRETS.token }), ['list', '--all'], /^rulesets: unknown option `--all` for `rulesets list`; see `rulesets list --help`$/m],
    ['an unknown rule command', () => ({ ...base(), RULESETS_API_TOKEN: SECRETS.token }), ['rule', 'rename'], /^rulesets: unknown rule command "rename"/],
  ];
  for (const [name, env, args, message] of cases) {
    it(`exits 2 with one line for ${name}, before any request`, async () => {
      const requests = emulator.requests.length;
      const result = await run(args, { env: env() });
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /^rulesets: [^\n]+\n$/, 'one line');
      assert.equal(result.stdout, '');
      assert.equal(emulator.requests.length, requests, 'no request');
    });
  }

  it('reads the email and key, a zone, and --base-url / --account flags', async () => {
    const email = await run(['list'], { env: { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_EMAIL: SECRETS.email, RULESETS_API_KEY: SECRETS.key, RULESETS_ZONE_ID: 'zone-1' } });
    assert.equal(email.status, 0, email.stderr);
    assert.equal(email.stdout, 'ID  KIND  PHASE  VERSION  NAME\n');
    const flags = await run(['list', '--base-url', emulator.baseUrl, '--account', 'acc-flags'], { env: { RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: 'ignored', RULESETS_ZONE_ID: 'ignored' } });
    assert.equal(flags.status, 0, flags.stderr);
    assert.ok(emulator.requests.some((r) => r.path === '/accounts/acc-flags/rulesets'));
  });

  it('says which credentials to check when the service refuses them', async () => {
    const result = await run(['list'], { env: { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: `${SECRETS.token}-wrong`, RULESETS_ACCOUNT_ID: 'a' } });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^rulesets: 403 Forbidden from GET \/accounts\/a\/rulesets: Authentication error: invalid API token \(check the credentials in RULESETS_API_TOKEN/);
  });

  it('prints help for every command, and the global usage', async () => {
    const commands = ['pull', 'deploy', 'create', 'list', 'versions', 'show', 'delete', 'rule', 'tags'];
    const results = await Promise.all(commands.map((command) => run([command, '--help'], { env: {} })));
    commands.forEach((command, i) => {
      assert.equal(results[i].status, 0, command);
      assert.match(results[i].stdout, new RegExp(`^Usage: rulesets ${command}\\b`), command);
      assert.match(results[i].stdout, /RULESETS_API_TOKEN/, command);
    });
    assert.match((await run(['rule', 'add', '--help'], { env: {} })).stdout, /^Usage: rulesets rule add/);
    assert.match((await run(['emulator', '--help'], { env: {} })).stdout, /^Usage: rulesets emulator/);
    const global = await run(['--help'], { env: {} });
    assert.match(global.stdout, /^Usage: rulesets check .*\n(?: {7}.*\n)* {7}rulesets pull /);
    assert.match(global.stdout, /Exit status: 0 done; 1 .*\n.*2 a usage, configuration or file problem; 3 the service failed/);
  });
});

describe('rulesets pull, show, list, versions, tags', () => {
  it('pulls the same bytes twice, to stdout and into a file, and says when the file is unchanged', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const first = await run(['pull', r.id], { account: acc });
    const second = await run(['pull', r.id], { account: acc });
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stdout, second.stdout);
    assert.equal(first.stdout, serializeRuleset(r, 'yaml'));
    const json = await run(['pull', r.id, '--format', 'json'], { account: acc });
    assert.equal(json.stdout, serializeRuleset(r, 'json'));

    const { dir, file } = await pulledInto(acc, r.id, 'edge.json');
    const bytes = readFileSync(file, 'utf8');
    assert.equal(bytes, serializeRuleset(r, 'json'), 'the extension decides the format');
    const again = await run(['pull', r.id, '-o', 'edge.json'], { cwd: dir, account: acc });
    assert.equal(again.status, 0);
    assert.equal(again.stdout, `edge.json is unchanged (edge, version 1)\n`);
    assert.equal(readFileSync(file, 'utf8'), bytes);
  });

  it('pulls an entry point by phase', async () => {
    const acc = account();
    await clientFor(acc).updateRuleset({ phase: 'magic_transit' }, { name: 'entry', rules: [BLOCK_TCP] });
    const result = await run(['pull', '--phase', 'magic_transit'], { account: acc });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^id: \w+\nname: entry\ndescription: ""\nkind: root\nphase: magic_transit\nversion: "1"\nrules:\n/);
    const missing = await run(['pull', '--phase', 'magic_transit_managed'], { account: acc });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^rulesets: 404 Not Found from GET .*no entry point ruleset for phase magic_transit_managed/);
  });

  it('never overwrites a file that differs without --force', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const { dir, file } = await pulledInto(acc, r.id);
    const edited = readFileSync(file, 'utf8').replace('description: ssh', 'description: my local change');
    writeFileSync(file, edited);
    const refused = await run(['pull', r.id, '-o', 'edge.ruleset.yaml'], { cwd: dir, account: acc });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^rulesets: edge\.ruleset\.yaml differs from version 1 of ruleset \w+; not overwritten \(changes in it would be lost\): pull into another file, or pass --force/);
    assert.equal(readFileSync(file, 'utf8'), edited, 'the file is untouched');
    const forced = await run(['pull', r.id, '-o', 'edge.ruleset.yaml', '--force'], { cwd: dir, account: acc });
    assert.equal(forced.status, 0, forced.stderr);
    assert.equal(forced.stdout, 'pulled edge version 1 into edge.ruleset.yaml\n');
    assert.equal(readFileSync(file, 'utf8'), serializeRuleset(r, 'yaml'));
  });

  it('lists every ruleset, page after page', async () => {
    const acc = account();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await customRuleset(acc)).id);
    const list = await run(['list'], { account: acc });
    assert.equal(list.status, 0, list.stderr);
    const listed = list.stdout.trim().split('\n').slice(1);
    assert.equal(listed.length, 5, list.stdout);
    assert.deepEqual(new Set(listed.map((line) => line.split(/ +/)[0])), new Set(ids));
  });

  it('refuses rules by tag for a zone before any request: the operation is account-level', async () => {
    const requests = emulator.requests.length;
    const result = await run(['tags', 'f'.repeat(32), '1', 'legacy'], { env: { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ZONE_ID: 'z1' } });
    assert.equal(result.status, 2);
    assert.equal(result.stderr, 'rulesets: rules by tag is an account-level operation of the API (there is no zone form): give an account (--account ID or RULESETS_ACCOUNT_ID) instead of a zone\n');
    assert.equal(emulator.requests.length, requests);
  });

  it('says what is missing when the base URL lacks /client/v4', async () => {
    const result = await run(['list'], { env: { RULESETS_BASE_URL: emulator.baseUrl.replace('/client/v4', ''), RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: 'a' } });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^rulesets: 404 Not Found from GET \/accounts\/a\/rulesets: .*; the base URL http:\/\/127\.0\.0\.1:\d+\/ does not end in \/client\/v4, which the API's paths start with: try http:\/\/127\.0\.0\.1:\d+\/client\/v4\n$/);
  });

  it('shows a ruleset or one version of it, lists rulesets and versions, and rules by tag', async () => {
    const acc = account();
    const c = clientFor(acc);
    const r = await customRuleset(acc);
    await c.updateRuleset(r.id, { rules: [BLOCK_UDP] });
    const latest = await run(['show', r.id, '--format', 'json'], { account: acc });
    assert.equal(JSON.parse(latest.stdout).version, '2');
    const one = await run(['show', r.id, '--version', '1'], { account: acc });
    assert.equal(one.stdout, serializeRuleset(await c.getVersion(r.id, 1), 'yaml'));
    const list = await run(['list'], { account: acc });
    assert.match(list.stdout, new RegExp(`^ID +KIND +PHASE +VERSION +NAME\\n${r.id} +custom +magic_transit +2 +edge\\n`));
    const listJson = JSON.parse((await run(['list', '--format', 'json'], { account: acc })).stdout) as { id: string }[];
    assert.ok(listJson.some((x) => x.id === r.id));
    const versions = await run(['versions', r.id], { account: acc });
    assert.match(versions.stdout, /^VERSION +LAST UPDATED +NAME\n1 +\S+ +edge\n2 +\S+ +edge\n$/);
    const managed = emulator.state.addManagedRuleset({
      name: 'Managed',
      phase: 'magic_transit_managed',
      rules: [
        { action: 'block', expression: 'tcp.dstport == 23', description: 'telnet', categories: ['legacy'] },
        { action: 'block', expression: 'tcp.dstport == 445', description: 'smb', categories: ['smb'] },
      ],
    });
    const tagged = await run(['tags', managed.id, '1', 'legacy'], { account: acc });
    assert.equal(tagged.status, 0, tagged.stderr);
    assert.deepEqual(
      readLocalRuleset('t.yaml', tagged.stdout).body.rules.map((x) => x.description),
      ['telnet'],
    );
    const usage = await run(['show', r.id, '--phase', 'magic_transit'], { account: acc });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /give a ruleset id or --phase NAME, not both/);
  });
});

describe('rulesets deploy', () => {
  it('deploys a pulled, edited file and records the new version in it', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const { dir, file } = await pulledInto(acc, r.id);
    writeFileSync(file, `# edited by hand\n${readFileSync(file, 'utf8').replace('description: block tcp', 'description: block all tcp')}`);
    const result = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^--- ruleset ${r.id} \\(version 1, live\\)\\n\\+\\+\\+ edge\\.ruleset\\.yaml\\n@@ .* @@\\n`));
    assert.ok(result.stdout.includes('-    description: block tcp\n+    description: block all tcp\n'), result.stdout);
    assert.match(result.stdout, /\ndeployed edge as version 2\n$/);
    assert.equal(result.stderr, '');
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith('# edited by hand\n'), 'the comment is kept');
    assert.equal(readLocalRuleset(file, text).version, '2');
    assert.equal(emulator.state.latest(r.id)!.rules[1].description, 'block all tcp');
    const again = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(again.stdout, `nothing to deploy: edge.ruleset.yaml is the same as version 2 of ruleset ${r.id}\n`);
  });

  it('deploys a new entry point and records its version', async () => {
    const acc = account();
    const dir = tempFolder({ 'entry.json': '{\n  "name": "entry",\n  "kind": "root",\n  "phase": "magic_transit",\n  "rules": [\n    {"action": "block", "expression": "ip.proto == \\"tcp\\""}\n  ]\n}\n' });
    const result = await run(['deploy', 'entry.json', '-y'], { cwd: dir, account: acc });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^--- the magic_transit entry point \(does not exist yet\)\n/);
    const local = readLocalRuleset('entry.json', readFileSync(join(dir, 'entry.json'), 'utf8'));
    assert.equal(local.version, '1');
    assert.equal(local.id, undefined);
    assert.match(readFileSync(join(dir, 'entry.json'), 'utf8'), /^ {2}"phase": "magic_transit",\n {2}"version": "1",\n/m);
  });

  it('stops at a local error before any request', async () => {
    const dir = tempFolder({ 'bad.yaml': 'name: entry\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport in {22, 443}\n' });
    const before = readFileSync(join(dir, 'bad.yaml'), 'utf8');
    const requests = emulator.requests.length;
    const result = await run(['deploy', 'bad.yaml', '--yes'], { cwd: dir });
    assert.equal(result.status, 1);
    assert.equal(emulator.requests.length, requests, 'the emulator saw no request at all');
    assert.equal(
      result.stderr,
      [
        // `    expression: ` is 16 characters and `tcp.dstport in {22` 18 more: the comma is at column 35.
        'bad.yaml:6:35: error comma-in-set expected whitespace between set items, found `,`; items of a `{…}` set are separated by spaces only',
        '      expression: tcp.dstport in {22, 443}',
        `  ${' '.repeat(34)}^`,
        '1 file checked: 1 error, 0 warnings',
        'rulesets: bad.yaml: not deployed: fix the errors above first (nothing was sent)',
        '',
      ].join('\n'),
    );
    assert.equal(result.stdout, '');
    assert.equal(readFileSync(join(dir, 'bad.yaml'), 'utf8'), before);
  });

  it('refuses a file that is not a ruleset with exit 2, saying where', async () => {
    const dir = tempFolder({ 'broken.json': '{"name": "x", "kind": "root",\n  "phase": "magic_transit", "rules": [}\n' });
    const result = await run(['deploy', 'broken.json', '--yes'], { cwd: dir });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^rulesets: broken\.json:2:\d+: .*\(`rulesets check broken\.json` lists every problem\)\n$/);
    const missing = await run(['deploy', 'missing.yaml', '--yes'], { cwd: dir });
    assert.equal(missing.status, 2);
    assert.equal(missing.stderr, 'rulesets: missing.yaml: no such file\n');
    const custom = tempFolder({ 'c.yaml': 'name: c\nkind: custom\nphase: magic_transit\nrules: []\n' });
    const noId = await run(['deploy', 'c.yaml', '--yes'], { cwd: custom });
    assert.equal(noId.status, 1);
    assert.match(noId.stderr, /^rulesets: c\.yaml: a `custom` ruleset without an `id` has nowhere to deploy to; create it first \(`rulesets create c\.yaml`\)/);
  });

  it('shows a service rejection on the file\'s line and column', async () => {
    const acc = account();
    const r = await customRuleset(acc, [BLOCK_TCP]);
    const { dir, file } = await pulledInto(acc, r.id);
    // A rule id the ruleset does not have: our check cannot know, the service's dry run does.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/ {2}- id: \w+/, '  - id: 0123456789abcdef0123456789abcdef'));
    const before = state(r.id);
    const result = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^edge\.ruleset\.yaml:8:9: error no rule with id 0123456789abcdef0123456789abcdef in this ruleset; leave `id` out to add a new rule\n {4}- id: 0123456789abcdef0123456789abcdef\n {10}\^{32}\nrulesets: edge\.ruleset\.yaml: not deployed: the service rejected it \(400 from its dry run\)\n$/);
    assert.equal(state(r.id), before);
  });

  it('stops at a conflict when someone else deployed since the pull, showing what would be undone; --force deploys', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const { dir, file } = await pulledInto(acc, r.id);
    // Someone else adds a rule.
    await clientFor(acc).updateRuleset(r.id, { rules: [...r.rules.map((x) => ({ id: x.id, action: x.action, expression: x.expression, description: x.description, ...(x.action_parameters ? { action_parameters: x.action_parameters } : {}) })), BLOCK_UDP] });
    const mine = readFileSync(file, 'utf8').replace('description: ssh', 'description: ssh only');
    writeFileSync(file, mine);
    const remote = state(r.id);
    const since = emulator.requests.length;
    const result = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(result.status, 1);
    assert.match(result.stderr, new RegExp(`^rulesets: not deployed: edge\\.ruleset\\.yaml is based on version 1 of ruleset ${r.id}, but version 2 is live: someone else deployed since; pull it and merge your change \\(the diff shows what deploying would undo\\), or deploy with --force to replace it\\n$`));
    assert.ok(result.stdout.includes('-    description: block udp\n'), `the diff shows the other change being undone:\n${result.stdout}`);
    assert.ok(result.stdout.includes('+    description: ssh only\n'));
    assert.equal(state(r.id), remote, 'the remote is untouched');
    assert.deepEqual(writesSince(since), [], 'nothing was written');
    assert.equal(readFileSync(file, 'utf8'), mine, 'the local file is untouched');

    const forced = await run(['deploy', 'edge.ruleset.yaml', '--yes', '--force'], { cwd: dir, account: acc });
    assert.equal(forced.status, 0, forced.stderr);
    assert.match(forced.stderr, /^rulesets: warning: edge\.ruleset\.yaml is based on version 1 .*; deploying anyway \(--force\)\n$/);
    assert.match(forced.stdout, /deployed edge as version 3\n$/);
    assert.deepEqual(
      emulator.state.latest(r.id)!.rules.map((x) => x.description),
      ['ssh only', 'block tcp'],
    );
    assert.equal(readLocalRuleset(file, readFileSync(file, 'utf8')).version, '3');
  });

  it("shows the service's warnings on stderr, each once, and deploys", async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const { dir, file } = await pulledInto(acc, r.id);
    writeFileSync(file, readFileSync(file, 'utf8').replace('description: ssh', 'description: changed'));
    const close = { code: 20100, message: 'the ruleset is close to the complexity limit' };
    emulator.notices.push({ method: 'PUT', path: /dry_run=true/, message: close });
    emulator.notices.push({ method: 'PUT', path: new RegExp(`${r.id}$`), message: close }, { method: 'PUT', path: new RegExp(`${r.id}$`), message: { message: 'deployed during maintenance' } });
    const result = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, 'rulesets: the service warns: the ruleset is close to the complexity limit (code 20100)\nrulesets: the service warns: deployed during maintenance\n');
    assert.match(result.stdout, /deployed edge as version 2\n$/);
  });

  it('refuses a file whose name is not the live ruleset\'s, naming the field and the fix, before any write', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const { dir, file } = await pulledInto(acc, r.id);
    writeFileSync(file, readFileSync(file, 'utf8').replace('name: edge', 'name: edge renamed'));
    const since = emulator.requests.length;
    const result = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^rulesets: edge\.ruleset\.yaml:2:7: not deployed: `name` is "edge renamed" in the file but "edge" on ruleset \w+; the service cannot rename a ruleset: set `name: "edge"` in the file to deploy/);
    assert.deepEqual(writesSince(since), []);
    assert.ok(!emulator.requests.slice(since).some((q) => q.path.includes('dry_run')), 'not even a dry run');
  });

  it('keeps rule fields it does not use through pull, check and deploy', async () => {
    const acc = account();
    const ratelimit = { characteristics: ['ip.src'], period: 60, requests_per_period: 100 };
    const r = await customRuleset(acc, [{ ...BLOCK_TCP, ratelimit } as RuleInput]);
    const { dir, file } = await pulledInto(acc, r.id);
    assert.match(readFileSync(file, 'utf8'), /ratelimit:/);
    const check = await run(['check', 'edge.ruleset.yaml'], { cwd: dir });
    assert.equal(check.status, 0, check.stdout);
    assert.doesNotMatch(check.stdout, /unknown/);
    writeFileSync(file, readFileSync(file, 'utf8').replace('description: block tcp', 'description: all tcp'));
    const result = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(emulator.state.latest(r.id)!.rules[0].ratelimit, ratelimit);
  });

  it('changes nothing with --dry-run', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const { dir, file } = await pulledInto(acc, r.id);
    const edited = readFileSync(file, 'utf8').replace('description: ssh', 'description: changed');
    writeFileSync(file, edited);
    const remote = state(r.id);
    const since = emulator.requests.length;
    const result = await run(['deploy', 'edge.ruleset.yaml', '--dry-run'], { cwd: dir, account: acc });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(result.stdout.includes('-    description: ssh\n+    description: changed\n'));
    assert.match(result.stdout, /\ndry run: the service accepted edge\.ruleset\.yaml; nothing was deployed\n$/);
    assert.equal(state(r.id), remote);
    assert.deepEqual(writesSince(since), []);
    assert.ok(emulator.requests.slice(since).some((x) => x.method === 'PUT' && x.path.endsWith('?dry_run=true')), 'the service checked it');
    assert.equal(readFileSync(file, 'utf8'), edited);
  });

  it('refuses to deploy without --yes when not interactive', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const { dir, file } = await pulledInto(acc, r.id);
    const edited = readFileSync(file, 'utf8').replace('description: ssh', 'description: changed');
    writeFileSync(file, edited);
    const remote = state(r.id);
    const result = await run(['deploy', 'edge.ruleset.yaml'], { cwd: dir, account: acc, input: 'y\n' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^rulesets: refusing to deploy without --yes when not interactive\n$/);
    assert.equal(state(r.id), remote);
    assert.equal(readFileSync(file, 'utf8'), edited);
  });

  describe('when the service fails during the real write', () => {
    const faults: [name: string, respond: 'hang' | 'html' | { status: number }, env: Record<string, string>, message: RegExp][] = [
      ['a 500', { status: 500 }, {}, /^rulesets: 500 Internal Server Error from PUT \/accounts\/[\w-]+\/rulesets\/\w+: Internal Server Error \(emulated fault\); ruleset \w+ is still at version 1: nothing was deployed; edge\.ruleset\.yaml was not changed; try again\n$/],
      ['no answer within RULESETS_TIMEOUT_MS', 'hang', { RULESETS_TIMEOUT_MS: '400' }, /^rulesets: PUT \/accounts\/[\w-]+\/rulesets\/\w+: no response from 127\.0\.0\.1:\d+ within 400 ms; ruleset \w+ is still at version 1: nothing was deployed; edge\.ruleset\.yaml was not changed/],
      ['a proxy page that is not JSON', 'html', {}, /^rulesets: 502 Bad Gateway from PUT .*: the response is not JSON \(text\/html\), so it did not come from the API \(a proxy or gateway\?\): .*; ruleset \w+ is still at version 1: nothing was deployed/],
    ];
    for (const [name, respond, extra, message] of faults) {
      it(`leaves the remote and the file as they were on ${name}, and says so`, async () => {
        const acc = account();
        const r = await customRuleset(acc);
        const { dir, file } = await pulledInto(acc, r.id);
        const edited = readFileSync(file, 'utf8').replace('description: ssh', 'description: changed');
        writeFileSync(file, edited);
        const remote = state(r.id);
        emulator.faults.push({ method: 'PUT', path: new RegExp(`^/accounts/${acc}/rulesets/${r.id}$`), respond });
        const env = { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: acc, ...extra };
        const result = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, env });
        assert.equal(result.status, 3, result.stderr);
        assert.match(result.stderr, message);
        assert.doesNotMatch(result.stderr, /\bat .*:\d+:\d+/, 'no stack trace');
        assert.equal(state(r.id), remote, 'the remote is as it was');
        assert.equal(readFileSync(file, 'utf8'), edited, 'the file is untouched');
      });
    }

    it('says the change most likely went through when it landed despite the 500, and leaves the file', async () => {
      const acc = account();
      const r = await customRuleset(acc);
      const { dir, file } = await pulledInto(acc, r.id);
      const edited = readFileSync(file, 'utf8').replace('description: ssh', 'description: changed');
      writeFileSync(file, edited);
      emulator.faults.push({ method: 'PUT', path: new RegExp(`^/accounts/${acc}/rulesets/${r.id}$`), respond: { status: 500 }, after: true });
      const result = await run(['deploy', 'edge.ruleset.yaml', '--yes'], { cwd: dir, account: acc });
      assert.equal(result.status, 3);
      assert.match(result.stderr, /; yet version 2 is live now \(it was version 1\): the change most likely went through; edge\.ruleset\.yaml was not changed: pull it to record the new version\n$/);
      assert.equal(emulator.state.latest(r.id)!.rules[0].description, 'changed', 'the remote is as asked');
      assert.equal(readFileSync(file, 'utf8'), edited);
    });

    it('says what it waits for with -v, and nothing extra without it when not at a terminal', async () => {
      const acc = account();
      emulator.faults.push({ method: 'GET', respond: { status: 503 } });
      const quiet = await run(['list'], { account: acc });
      assert.equal(quiet.status, 0, quiet.stderr);
      assert.equal(quiet.stderr, '');
      emulator.faults.push({ method: 'GET', respond: { status: 503 } });
      const verbose = await run(['list', '-v'], { account: acc });
      assert.equal(verbose.status, 0, verbose.stderr);
      assert.match(verbose.stderr, new RegExp(`\\nrulesets: 503 Service Unavailable: retrying 2/4 in \\d+ ms: GET /accounts/${acc}/rulesets\\n`));
    });

    it('says how to wait longer when it gives up on a service that never answers', async () => {
      const acc = account();
      for (let i = 0; i < 4; i++) emulator.faults.push({ method: 'GET', respond: 'hang' });
      const result = await run(['list'], { env: { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: acc, RULESETS_TIMEOUT_MS: '200' } });
      assert.equal(result.status, 3);
      assert.equal(result.stderr, `rulesets: GET /accounts/${acc}/rulesets: no response from 127.0.0.1:${emulator.port} within 200 ms (gave up after 4 attempts); RULESETS_TIMEOUT_MS sets how long one request may take (now 200 ms)\n`);
    });

    it('exits 3 when the service cannot be reached at all', async () => {
      const dir = tempFolder({ 'entry.yaml': 'name: e\nkind: root\nphase: magic_transit\nrules: []\n' });
      // A port nothing listens on: the emulator's, once closed.
      const closed = await startTestEmulator();
      const url = closed.baseUrl;
      await closed.close();
      const result = await run(['deploy', 'entry.yaml', '--yes'], { cwd: dir, env: { RULESETS_BASE_URL: url, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: 'a', RULESETS_TIMEOUT_MS: '2000' } });
      assert.equal(result.status, 3);
      assert.match(result.stderr, /^rulesets: GET \/accounts\/a\/rulesets\/phases\/magic_transit\/entrypoint: could not reach 127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\) \(gave up after 4 attempts\)\n$/);
    });
  });
});

describe('rulesets deploy: an HTTP phase entry point in a zone (issue 22)', () => {
  let zones = 0;
  const zoneEnv = (zone: string) => ({ RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ZONE_ID: zone });

  it('checks, dry-runs with the diff, deploys, and pulls back the same rules with their parameters', async () => {
    const zone = `cli-zone-${process.pid}-${++zones}`;
    const env = zoneEnv(zone);
    const dir = tempFolder({ 'redirects.yaml': REDIRECTS });
    const file = join(dir, 'redirects.yaml');

    const check = await run(['check', 'redirects.yaml'], { cwd: dir, env });
    assert.equal(check.status, 0, check.stdout + check.stderr);

    const since = emulator.requests.length;
    const dry = await run(['deploy', 'redirects.yaml', '--dry-run'], { cwd: dir, env });
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /^--- the http_request_dynamic_redirect entry point \(does not exist yet\)\n\+\+\+ redirects\.yaml\n/);
    assert.ok(dry.stdout.includes('+          expression: concat("https://www.example.com", http.request.uri.path)\n'), dry.stdout);
    assert.match(dry.stdout, /dry run: the service accepted redirects\.yaml; nothing was deployed\n$/);
    assert.deepEqual(writesSince(since), [], 'a dry run writes nothing');
    assert.ok(emulator.requests.slice(since).some((r) => r.method === 'PUT' && r.path === `/zones/${zone}/rulesets/phases/http_request_dynamic_redirect/entrypoint?dry_run=true`), 'the service was asked, at zone level');
    assert.equal(readFileSync(file, 'utf8'), REDIRECTS, 'the file is unchanged');

    const deployed = await run(['deploy', 'redirects.yaml', '--yes'], { cwd: dir, env });
    assert.equal(deployed.status, 0, deployed.stderr);
    assert.match(deployed.stdout, /deployed redirects as version 1\n$/);
    assert.deepEqual(writesSince(since), [`PUT /zones/${zone}/rulesets/phases/http_request_dynamic_redirect/entrypoint`]);
    const recorded = readFileSync(file, 'utf8');
    assert.ok(recorded.startsWith('# Redirects of www.example.com\n'), 'comments kept');
    const local = readLocalRuleset('redirects.yaml', recorded);
    assert.equal(local.version, '1');

    const pulled = await run(['pull', '--phase', 'http_request_dynamic_redirect', '-o', 'pulled.yaml'], { cwd: dir, env });
    assert.equal(pulled.status, 0, pulled.stderr);
    const live = readLocalRuleset('pulled.yaml', readFileSync(join(dir, 'pulled.yaml'), 'utf8'));
    assert.deepEqual([live.body.kind, live.body.phase, live.version], ['zone', 'http_request_dynamic_redirect', '1']);
    // The service fills in `enabled`; every other field, the parameters above all, is the file's.
    assert.deepEqual(live.body.rules, local.body.rules.map((rule) => ({ ...rule, enabled: true })));
    assert.deepEqual(live.body.rules[1].action_parameters, { from_value: { status_code: 302, target_url: { value: 'https://www.example.com/about#contact' } } });

    const again = await run(['deploy', 'redirects.yaml', '--dry-run'], { cwd: dir, env });
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stdout, 'nothing to deploy: redirects.yaml is the same as version 1 of the http_request_dynamic_redirect entry point\n');
  });

  it('stops before overwriting a change someone else deployed to the zone since the file\'s version', async () => {
    const zone = `cli-zone-${process.pid}-${++zones}`;
    const env = zoneEnv(zone);
    const dir = tempFolder({ 'redirects.yaml': REDIRECTS });
    assert.equal((await run(['deploy', 'redirects.yaml', '--yes'], { cwd: dir, env })).status, 0);
    // Someone else pulls the entry point, changes a redirect and deploys it.
    const other = tempFolder();
    assert.equal((await run(['pull', '--phase', 'http_request_dynamic_redirect', '-o', 'theirs.yaml'], { cwd: other, env })).status, 0);
    const theirs = join(other, 'theirs.yaml');
    writeFileSync(theirs, readFileSync(theirs, 'utf8').replace('status_code: 302', 'status_code: 307'));
    assert.equal((await run(['deploy', 'theirs.yaml', '--yes'], { cwd: other, env })).status, 0);
    const file = join(dir, 'redirects.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('status_code: 301', 'status_code: 308'));
    const since = emulator.requests.length;
    const result = await run(['deploy', 'redirects.yaml', '--yes'], { cwd: dir, env });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /not deployed: redirects\.yaml is based on version 1 of the http_request_dynamic_redirect entry point, but version 2 is live: someone else deployed since/);
    assert.match(result.stdout, /^- +status_code: 307\n\+ +status_code: 302$/m, 'the diff shows their change being undone');
    assert.deepEqual(writesSince(since), []);
  });

  it('names the conflict beside the rejection when someone else deployed other rules from their own file', async () => {
    const zone = `cli-zone-${process.pid}-${++zones}`;
    const env = zoneEnv(zone);
    const dir = tempFolder({ 'redirects.yaml': REDIRECTS });
    assert.equal((await run(['deploy', 'redirects.yaml', '--yes'], { cwd: dir, env })).status, 0);
    // Their file has no rule ids: its deploy replaces the rules ours names by id.
    const other = tempFolder({ 'theirs.yaml': REDIRECTS.replace('status_code: 302', 'status_code: 307') });
    assert.equal((await run(['deploy', 'theirs.yaml', '--yes', '--force'], { cwd: other, env })).status, 0);
    const since = emulator.requests.length;
    const result = await run(['deploy', 'redirects.yaml', '--yes'], { cwd: dir, env });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^redirects\.yaml:\d+:\d+: error no rule with id \w+ in this ruleset/);
    assert.match(result.stderr, /rulesets: redirects\.yaml: not deployed: the service rejected it \(400 from its dry run\); besides, redirects\.yaml is based on version 1 of the http_request_dynamic_redirect entry point, but version 2 is live: someone else deployed since/);
    assert.deepEqual(writesSince(since), []);
  });

  it('refuses a file with a mistake before any request: the emulator sees none', async () => {
    const dir = tempFolder({ 'bad.yaml': REDIRECTS.replace('"/contact"', '"/contact" and http.request.uri.pth eq "/"') });
    const requests = emulator.requests.length;
    const result = await run(['deploy', 'bad.yaml', '--yes'], { cwd: dir, env: zoneEnv('cli-zone-mistake') });
    assert.equal(result.status, 1);
    assert.equal(emulator.requests.length, requests, 'the emulator saw no request at all');
    assert.match(result.stderr, /^bad\.yaml:16:57: error unknown-field unknown field `http\.request\.uri\.pth` in phase `http_request_dynamic_redirect`; did you mean `http\.request\.uri\.path`/);
    assert.match(result.stderr, /rulesets: bad\.yaml: not deployed: fix the errors above first \(nothing was sent\)\n$/);
  });

  it('refuses a zone file when the commands work on an account, before any request, saying what to set', async () => {
    const dir = tempFolder({ 'redirects.yaml': REDIRECTS });
    const requests = emulator.requests.length;
    for (const command of ['deploy', 'create']) {
      const result = await run([command, 'redirects.yaml', '--yes'], { cwd: dir });
      assert.equal(result.status, 1, command);
      assert.match(result.stderr, /^rulesets: redirects\.yaml:3:7: `kind: zone` is a zone's entry point, but the API commands work on account cli-[\d-]+: choose a zone \(--zone ID or RULESETS_ZONE_ID; .*nothing was sent\n$/);
    }
    assert.equal(emulator.requests.length, requests, 'no request');
  });

  it('deploys a file of `phase` and `rules` alone to its phase\'s entry point, new and existing, keeping the live name; then nothing to deploy', async () => {
    const zone = `cli-zone-${process.pid}-${++zones}`;
    const env = zoneEnv(zone);
    const text = 'phase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.request.uri.path eq "/admin"\n';
    const dir = tempFolder({ 'waf.yaml': text });
    const since = emulator.requests.length;
    const created = await run(['deploy', 'waf.yaml', '--yes'], { cwd: dir, env });
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, /^--- the http_request_firewall_custom entry point \(does not exist yet\)\n\+\+\+ waf\.yaml\n/);
    assert.doesNotMatch(created.stdout, /name:|kind:/);
    assert.match(created.stdout, /deployed default as version 1\n$/);
    assert.deepEqual(writesSince(since), [`PUT /zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`]);
    const recorded = readFileSync(join(dir, 'waf.yaml'), 'utf8');
    assert.equal(recorded, `phase: http_request_firewall_custom\nversion: "1"\nrules:\n  - id: ${/id: (\w+)/.exec(recorded)?.[1]}\n    action: block\n    expression: http.request.uri.path eq "/admin"\n`, 'the file records the version and rule id, and still gives no name or kind');
    const again = await run(['deploy', 'waf.yaml', '--yes'], { cwd: dir, env });
    assert.equal(again.stdout, 'nothing to deploy: waf.yaml is the same as version 1 of the http_request_firewall_custom entry point\n');

    // An entry point someone named: the file's rules land, the name stays.
    const named = `cli-zone-${process.pid}-${++zones}`;
    const zoneClient = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: named } });
    await zoneClient.updateRuleset({ phase: 'http_request_firewall_custom' }, { name: 'zone firewall', rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.1' }] });
    const other = tempFolder({ 'waf.yaml': text });
    const replaced = await run(['deploy', 'waf.yaml', '--yes'], { cwd: other, env: zoneEnv(named) });
    assert.equal(replaced.status, 0, replaced.stderr);
    assert.doesNotMatch(replaced.stdout, /^[-+]name:/m);
    assert.match(replaced.stdout, /deployed zone firewall as version 2\n$/);
    const live = await zoneClient.getEntryPoint('http_request_firewall_custom');
    assert.deepEqual([live.name, live.rules.map((r) => r.expression)], ['zone firewall', ['http.request.uri.path eq "/admin"']]);
  });
});

describe('rulesets pull --format terraform|octorules: the round trip (issue 23)', () => {
  let zones = 0;
  const zoneEnv = () => ({ RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ZONE_ID: `cli-formats-${process.pid}-${++zones}` });
  // Strings that need escaping in HCL and YAML alike: quotes, a backslash, a `${` that Terraform
  // would read as an interpolation, a line break; header names that are no HCL identifiers; and
  // actions that are the octorules section's default (rewrite) and one that is not.
  const HEADERS = [
    'name: headers',
    'kind: zone',
    'phase: http_request_late_transform',
    'rules:',
    '  - action: rewrite',
    '    ref: tag_source',
    '    description: say "where" from',
    '    expression: http.request.uri.path contains "${x}" or http.host eq "a\\\\b"',
    '    action_parameters:',
    '      headers:',
    '        X-Source:',
    '          operation: set',
    '          expression: http.host',
    '        X-Old:',
    '          operation: remove',
    '  - action: rewrite',
    '    expression: |-',
    '      http.request.uri.path eq "/a"',
    '      or http.request.uri.path eq "/b"',
    '    action_parameters:',
    '      headers:',
    '        X-Ab:',
    '          operation: set',
    '          value: "%{yes}"',
    '    enabled: false',
    '',
  ].join('\n');

  for (const [format, name, edit] of [
    ['terraform', 'main.tf', (text: string) => text.replace('expression = "http.host"', 'expression = "http.request.uri.path"')],
    ['octorules', 'example.com.yaml', (text: string) => text.replace('expression: http.host\n', 'expression: http.request.uri.path\n')],
  ] as const) {
    it(`--format ${format}: what pull writes checks clean, deploys as "no changes", and a change to it updates the rules in place`, async () => {
      const env = zoneEnv();
      const dir = tempFolder({ 'headers.yaml': HEADERS });
      assert.equal((await run(['deploy', 'headers.yaml', '--yes'], { cwd: dir, env })).status, 0);
      const pulled = await run(['pull', '--phase', 'http_request_late_transform', '--format', format, '-o', name], { cwd: dir, env });
      assert.equal(pulled.status, 0, pulled.stderr);
      assert.equal(pulled.stderr, '');

      for (const report of ['text', 'json', 'sarif']) {
        const check = await run(['check', name, '--format', report], { cwd: dir, env });
        assert.equal(check.status, 0, `${report}: ${check.stdout}${check.stderr}`);
        if (report === 'text') assert.equal(check.stdout, '1 file checked, no problems\n');
        if (report === 'json') assert.deepEqual((JSON.parse(check.stdout) as { files: unknown[] }).files, [{ path: name, diagnostics: [] }]);
        if (report === 'sarif') assert.deepEqual((JSON.parse(check.stdout) as { runs: { results: unknown[] }[] }).runs[0].results, []);
      }

      const live = await makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: env.RULESETS_ZONE_ID } }).getEntryPoint('http_request_late_transform');
      const before = state(live.id);
      const since = emulator.requests.length;
      const dry = await run(['deploy', name, '--dry-run'], { cwd: dir, env });
      assert.equal(dry.status, 0, dry.stderr);
      assert.equal(dry.stdout, `nothing to deploy: ${name} is the same as version ${live.version} of the http_request_late_transform entry point\n`);
      const again = await run(['deploy', name, '--yes'], { cwd: dir, env });
      assert.equal(again.status, 0, again.stderr);
      assert.deepEqual(writesSince(since), [], 'nothing written');
      assert.equal(state(live.id), before, 'the ruleset and its version are as they were');

      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, edit(text));
      const changed = await run(['deploy', name, '--yes'], { cwd: dir, env });
      assert.equal(changed.status, 0, changed.stderr);
      assert.match(changed.stdout, /^-\s+expression: http\.host\n\+\s+expression: http\.request\.uri\.path$/m, 'the diff shows the one change');
      const after = JSON.parse(state(live.id)) as Ruleset;
      assert.equal(after.version, String(Number(live.version) + 1));
      assert.deepEqual(after.rules.map((r) => [r.id, r.ref]), live.rules.map((r) => [r.id, r.ref]), 'each rule updated in place, matched by its ref');
      assert.equal(readFileSync(file, 'utf8'), edit(text), 'the file is left as it is: it records no version');
    });
  }

  it('says why it cannot write a ruleset in a format: a phase octorules has no section for, a format the file name contradicts', async () => {
    const env = zoneEnv();
    const dir = tempFolder({ 'cache.yaml': 'name: c\nkind: zone\nphase: http_response_cache_settings\nrules: []\n' });
    assert.equal((await run(['deploy', 'cache.yaml', '--yes'], { cwd: dir, env })).status, 0);
    const noSection = await run(['pull', '--phase', 'http_response_cache_settings', '--format', 'octorules'], { cwd: dir, env });
    assert.equal(noSection.status, 2);
    assert.equal(noSection.stderr, 'rulesets: octorules has no section for phase http_response_cache_settings: pull it as yaml, json or terraform\n');
    const mismatch = await run(['pull', '--phase', 'http_response_cache_settings', '--format', 'terraform', '-o', 'x.yaml'], { cwd: dir, env });
    assert.equal(mismatch.status, 2);
    assert.match(mismatch.stderr, /--format terraform does not match x\.yaml; a Terraform file ends in \.tf/);
    const byName = await run(['pull', '--phase', 'http_response_cache_settings', '-o', 'cache.tf'], { cwd: dir, env });
    assert.equal(byName.status, 0, byName.stderr);
    assert.match(readFileSync(join(dir, 'cache.tf'), 'utf8'), /^resource "cloudflare_ruleset" "c" \{$/m, '.tf is Terraform by its name');
  });
});

describe('rulesets create and delete', () => {
  it('creates a ruleset from a file, recording its id and version, then deploys it by id', async () => {
    const acc = account();
    const dir = tempFolder({ 'new.yaml': '# mine\nname: created\nkind: custom\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.proto == "tcp"\n' });
    const refused = await run(['create', 'new.yaml'], { cwd: dir, account: acc });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /refusing to create without --yes when not interactive/);
    const dry = await run(['create', 'new.yaml', '--dry-run'], { cwd: dir, account: acc });
    assert.equal(dry.stdout, 'dry run: the service accepted a custom ruleset "created" in phase magic_transit with 1 rule; nothing was created\n');
    const own = async () => (await clientFor(acc).listRulesets()).filter((x) => x.kind !== 'managed');
    assert.deepEqual(await own(), []);
    const result = await run(['create', 'new.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(result.status, 0, result.stderr);
    const [created] = await own();
    assert.equal(result.stdout, `created created (id ${created.id}) as version 1\n`);
    const text = readFileSync(join(dir, 'new.yaml'), 'utf8');
    assert.ok(text.startsWith(`# mine\nid: ${created.id}\nname: created\n`), text);
    assert.equal(readLocalRuleset('new.yaml', text).version, '1');
    const twice = await run(['create', 'new.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(twice.status, 1);
    assert.match(twice.stderr, /so it is deployed already: use `rulesets deploy new\.yaml`/);
    writeFileSync(join(dir, 'new.yaml'), text.replace('ip.proto == "tcp"', 'ip.proto == "udp"'));
    const deployed = await run(['deploy', 'new.yaml', '--yes'], { cwd: dir, account: acc });
    assert.equal(deployed.status, 0, deployed.stderr);
    assert.match(deployed.stdout, /deployed created as version 2\n$/);
  });

  it('refuses, before any request, to create from a file of rules alone or to deploy it without an `id` or a `phase`, saying what to add', async () => {
    const acc = account();
    // What `rulesets check` takes, and an entry point's PUT too: the phase would be in the path.
    const dir = tempFolder({ 'ep.json': '{"rules":[{"expression":"true","action":"set_cache_settings","action_parameters":{"cache":false}}]}\n' });
    const requests = emulator.requests.length;
    const created = await run(['create', 'ep.json', '--yes'], { cwd: dir, account: acc });
    assert.equal(created.status, 2, created.stderr);
    assert.equal(created.stderr, 'rulesets: ep.json:1:1: a new ruleset needs `name`, `kind` and `phase` (`POST …/rulesets` requires them), and the file has no `name`, `kind` or `phase`: add `name: …`, `kind: …`, `phase: …` at the top level; nothing was sent\n');
    const deployed = await run(['deploy', 'ep.json', '--yes'], { cwd: dir, account: acc });
    assert.equal(deployed.status, 2, deployed.stderr);
    assert.match(deployed.stderr, /^rulesets: ep\.json:1:1: cannot tell where this ruleset goes: it has no `id` \(the ruleset to update\) and no `phase` \(the entry point to deploy to\); add `phase: …` or the `id` of the ruleset it is at the top level/);
    assert.equal(emulator.requests.length, requests, 'no request');
    assert.deepEqual((await clientFor(acc).listRulesets()).filter((x) => x.kind !== 'managed'), []);
  });

  it('deletes a version, then the ruleset, only when confirmed', async () => {
    const acc = account();
    const c = clientFor(acc);
    const r = await customRuleset(acc);
    await c.updateRuleset(r.id, { rules: [BLOCK_UDP] });
    const refused = await run(['delete', r.id], { account: acc });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /^rulesets: refusing to delete without --yes when not interactive\n$/);
    const version = await run(['delete', r.id, '--version', '1', '--yes'], { account: acc });
    assert.equal(version.stdout, `deleted version 1 of ruleset ${r.id} (edge)\n`);
    assert.deepEqual(emulator.state.versions(r.id), ['2']);
    const latest = await run(['delete', r.id, '--version', '2', '--yes'], { account: acc });
    assert.equal(latest.status, 1);
    assert.match(latest.stderr, /version 2 is the latest version/);
    const whole = await run(['delete', r.id, '--yes'], { account: acc });
    assert.equal(whole.stdout, `deleted ruleset ${r.id} (edge)\n`);
    assert.equal(emulator.state.latest(r.id), undefined);
  });
});

describe('rulesets rule', () => {
  it('adds, updates, moves and deletes a rule', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const add = await run(['rule', 'add', r.id, '--action', 'block', '--expression', 'ip.proto == "udp"', '--description', 'udp', '--index', '1'], { account: acc });
    assert.equal(add.status, 0, add.stderr);
    let latest = emulator.state.latest(r.id)!;
    const udp = latest.rules[0];
    assert.equal(add.stdout, `added rule ${udp.id} (udp) to edge at position 1: version 2\n`);
    assert.deepEqual(
      latest.rules.map((x) => x.description),
      ['udp', 'ssh', 'block tcp'],
    );
    const update = await run(['rule', 'update', r.id, udp.id, '--enabled', 'false', '--expression', 'ip.proto == "icmp"'], { account: acc });
    assert.equal(update.status, 0, update.stderr);
    assert.equal(update.stdout, `updated rule ${udp.id} (udp) of edge: version 3\n`);
    latest = emulator.state.latest(r.id)!;
    assert.equal(latest.rules[0].enabled, false);
    assert.equal(latest.rules[0].expression, 'ip.proto == "icmp"');
    const move = await run(['rule', 'move', r.id, udp.id, '--after', ''], { account: acc });
    assert.equal(move.stdout, `moved rule ${udp.id} (udp) of edge to position 3: version 4\n`);
    const refused = await run(['rule', 'delete', r.id, udp.id], { account: acc });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /refusing to delete the rule without --yes when not interactive/);
    const removed = await run(['rule', 'delete', r.id, udp.id, '--yes'], { account: acc });
    assert.equal(removed.stdout, `deleted rule ${udp.id} (udp) from edge: version 5\n`);
    assert.deepEqual(
      emulator.state.latest(r.id)!.rules.map((x) => x.description),
      ['ssh', 'block tcp'],
    );
    const dry = await run(['rule', 'add', r.id, '--action', 'block', '--expression', 'ip.proto == "udp"', '--dry-run'], { account: acc });
    assert.equal(dry.stdout, 'dry run: the service accepted the rule; nothing was added to edge\n');
    assert.equal(emulator.state.latest(r.id)!.version, '5');
  });

  it('changes only what the flags name: update and move keep every other field of the live rule', async () => {
    const acc = account();
    const rich = {
      action: 'skip',
      action_parameters: { ruleset: 'current' },
      expression: 'tcp.dstport == 22',
      description: 'ssh from the office',
      logging: { enabled: true },
      ref: 'office-ssh',
      ratelimit: { period: 60, requests_per_period: 10 },
    } as RuleInput;
    const r = await customRuleset(acc, [rich, BLOCK_TCP]);
    const before = r.rules[0];
    const update = await run(['rule', 'update', r.id, before.id, '--enabled', 'false'], { account: acc });
    assert.equal(update.status, 0, update.stderr);
    const { version: _v, last_updated: _l, ...kept } = before;
    const updated = emulator.state.latest(r.id)!.rules[0];
    assert.deepEqual({ ...updated, version: undefined, last_updated: undefined }, { ...kept, enabled: false, version: undefined, last_updated: undefined });
    const move = await run(['rule', 'move', r.id, before.id, '--after', ''], { account: acc });
    assert.equal(move.status, 0, move.stderr);
    const moved = emulator.state.latest(r.id)!.rules;
    assert.deepEqual(
      moved.map((x) => x.description),
      ['block tcp', 'ssh from the office'],
    );
    assert.deepEqual(moved[1], updated, 'moved whole, untouched');
    const dry = await run(['rule', 'update', r.id, before.id, '--description', 'x', '--dry-run'], { account: acc });
    assert.equal(dry.status, 0, dry.stderr);
    assert.deepEqual(emulator.state.latest(r.id)!.rules[1], updated, 'a dry run changes nothing');
  });

  it('checks an expression before any request, with a caret under the mistake', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const requests = emulator.requests.length;
    const result = await run(['rule', 'add', r.id, '--action', 'block', '--expression', 'tcp.dstport in {22, 443}'], { account: acc });
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr,
      [
        '--expression:1:19: error comma-in-set expected whitespace between set items, found `,`; items of a `{…}` set are separated by spaces only',
        '  tcp.dstport in {22, 443}',
        `  ${' '.repeat(18)}^`,
        'rulesets: --expression has errors; nothing was sent',
        '',
      ].join('\n'),
    );
    assert.equal(emulator.requests.length, requests, 'no request');
    const update = await run(['rule', 'update', r.id, r.rules[0].id, '--expression', 'ip.src = 1.2.3.4'], { account: acc });
    assert.equal(update.status, 1);
    assert.match(update.stderr, /^--expression:1:8: error single-equals /);
    assert.equal(emulator.requests.length, requests, 'still no request');
  });

  it('checks the phase\'s fields and the rule\'s shape before the change is sent', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const since = emulator.requests.length;
    // A field of the HTTP phases, which the ruleset's phase does not have.
    const field = await run(['rule', 'add', r.id, '--action', 'block', '--expression', 'http.host == "a"'], { account: acc });
    assert.equal(field.status, 1);
    assert.match(field.stderr, /^--expression:1:1: error unknown-field unknown field `http\.host` in phase `magic_transit`.*\n {2}http\.host == "a"\n {2}\^{9}\nrulesets: --expression has errors in phase magic_transit; nothing was sent\n$/);
    // A field no phase has: said before the ruleset is even read.
    const reads = emulator.requests.length;
    const typo = await run(['rule', 'add', r.id, '--action', 'block', '--expression', 'tcp.dstprt == 22'], { account: acc });
    assert.equal(typo.status, 1);
    assert.match(typo.stderr, /^--expression:1:1: error unknown-field unknown field `tcp\.dstprt`: no phase has it; did you mean `tcp\.dstport`.*\n {2}tcp\.dstprt == 22\n {2}\^{10}\nrulesets: --expression has errors; nothing was sent\n$/);
    assert.equal(emulator.requests.length, reads, 'no request');
    const skip = await run(['rule', 'add', r.id, '--action', 'skip', '--expression', 'tcp.dstport == 22'], { account: acc });
    assert.equal(skip.status, 1);
    assert.match(skip.stderr, /^rulesets: the rule is not valid: a `skip` rule needs `action_parameters: \{"ruleset": "current"\}`/);
    assert.deepEqual(writesSince(since), []);
    const warned = await run(['rule', 'add', r.id, '--action', 'block', '--expression', 'ip.src in $svc.malwre'], { account: acc });
    assert.equal(warned.status, 0, 'a warning does not stop it');
    assert.equal(warned.stderr.match(/warning unknown-list/g)?.length, 1, `the warning once: ${warned.stderr}`);
    assert.match(warned.stderr, /^--expression:1:11: warning unknown-list .*did you mean `\$svc\.malware`\?\n {2}ip\.src in \$svc\.malwre\n {12}\^{11}\n$/);
    const missing = await run(['rule', 'update', r.id, 'nope', '--description', 'x'], { account: acc });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, new RegExp(`^rulesets: ruleset ${r.id} \\(edge\\) has no rule nope; its rules are `));
    const position = await run(['rule', 'move', r.id, r.rules[0].id, '--before', 'a', '--index', '2'], { account: acc });
    assert.equal(position.status, 2);
    assert.match(position.stderr, /give one of --before, --after and --index, not --before and --index/);
  });
});

describe('rulesets emulator', () => {
  it('runs until SIGTERM and prints how to point the tools at it', async () => {
    const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((done, fail) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        const m = /export RULESETS_BASE_URL=(\S+)/.exec(stdout);
        if (m && stdout.includes('Ctrl+C')) done(m[1]);
      });
      child.on('exit', () => fail(new Error(`the emulator stopped: ${stdout}`)));
    });
    const listed = await run(['list'], { env: { RULESETS_BASE_URL: url, RULESETS_API_TOKEN: 'emulator-token', RULESETS_ACCOUNT_ID: '0123456789abcdef0123456789abcdef' } });
    assert.equal(listed.status, 0, listed.stderr);
    child.kill('SIGTERM');
    const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    assert.equal(status, 0);
    assert.match(stdout, /Emulator stopped \(SIGTERM\)\.\n$/);
  });
});

describe('a person at a terminal', () => {
  // `script` gives the CLI a terminal; our stdin goes to it as typed.
  const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
  const skip = script.error || script.status !== 0 ? '`script` (util-linux) is not installed' : false;

  function runInTerminal(args: readonly string[], cwd: string, acc: string, answer: string): Promise<Run> {
    const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    // What the terminal shows, without readline's cursor movements.
    const shown = (text: string) => text.replace(/\x1B\[[0-9;?]*[A-Za-z]/g, '').replace(/\r+\n/g, '\n');
    return new Promise((done) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd,
        env: { ...cleanEnv(), RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: acc },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let answered = false;
      // Never wait forever for a question that does not come.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        // Answer once the question is on the screen.
        if (!answered && /\[y\/N\] *$/.test(shown(stdout))) {
          answered = true;
          child.stdin.write(answer);
        }
      });
      child.on('close', (status) => {
        clearTimeout(timer);
        outputs.push(stdout);
        done({ status, stdout: shown(stdout), stderr: '' });
      });
    });
  }

  it('says on the terminal what it waits for: a retry, a wait the service asked for', { skip }, async () => {
    const acc = account();
    const dir = tempFolder();
    emulator.faults.push({ method: 'GET', respond: { status: 503 } }, { method: 'GET', respond: { status: 429, headers: { 'retry-after': '1' } } });
    const result = await runInTerminal(['list'], dir, acc, '');
    assert.equal(result.status, 0, result.stdout);
    assert.match(result.stdout, new RegExp(`^rulesets: 503 Service Unavailable: retrying 2/4 in \\d+ ms: GET /accounts/${acc}/rulesets\\nrulesets: 429 Too Many Requests: waiting 1 s as the service asked, then trying again \\(3/4\\): GET /accounts/${acc}/rulesets\\nID `));
  });

  it('asks before deploying, and deploys on "y" only', { skip }, async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const { dir, file } = await pulledInto(acc, r.id);
    writeFileSync(file, readFileSync(file, 'utf8').replace('description: ssh', 'description: changed'));
    const no = await runInTerminal(['deploy', 'edge.ruleset.yaml'], dir, acc, 'n\r');
    assert.equal(no.status, 1, no.stdout);
    assert.match(no.stdout, new RegExp(`Deploy edge\\.ruleset\\.yaml to ruleset ${r.id}\\? \\[y/N\\] n\\n`));
    assert.match(no.stdout, /rulesets: not confirmed: nothing was changed/);
    assert.equal(emulator.state.latest(r.id)!.version, '1');
    const yes = await runInTerminal(['deploy', 'edge.ruleset.yaml'], dir, acc, 'y\r');
    assert.equal(yes.status, 0, yes.stdout);
    assert.match(yes.stdout, /deployed edge as version 2\n$/);
    assert.equal(emulator.state.latest(r.id)!.version, '2');
  });
});

describe('credentials', () => {
  it('never appear in any output, through a series of commands that succeed and fail', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const dir = tempFolder({ 'bad.yaml': 'name: e\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 1\n' });
    const token = { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: acc };
    const emailKey = { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_EMAIL: SECRETS.email, RULESETS_API_KEY: SECRETS.key, RULESETS_ACCOUNT_ID: acc };
    const wrong = { ...emailKey, RULESETS_API_KEY: `${SECRETS.key}x` };
    await Promise.all(
      [token, emailKey].flatMap((env) => [
        run(['list', '-v'], { env }),
        run(['pull', r.id, '-v'], { env }),
        run(['show', 'nope', '-v'], { env }),
        run(['deploy', 'bad.yaml', '--yes', '-v'], { cwd: dir, env }),
        run(['pull', '--phase', 'magic_transit', '--verbose'], { env }),
        run(['rule', 'add', r.id, '--action', 'block', '--expression', 'ip.proto == "udp"', '-v'], { env }),
      ]),
    );
    const refused = await run(['list', '-v'], { env: wrong });
    assert.equal(refused.status, 2);
    await run(['list', `--token=${SECRETS.token}`], { env: token });
    emulator.faults.push({ method: 'GET', path: new RegExp(`^/accounts/${acc}/rulesets$`), respond: { status: 400, body: { result: null, success: false, errors: [{ message: `echoed ${SECRETS.token} ${SECRETS.key} ${encodeURIComponent(SECRETS.email)}` }], messages: [] } } });
    const echoed = await run(['list', '-v'], { env: { ...token, RULESETS_EMAIL: SECRETS.email, RULESETS_API_KEY: SECRETS.key } });
    assert.equal(echoed.status, 1);
    assert.match(echoed.stderr, /echoed \[redacted\] \[redacted\] \[redacted\]/);
    assert.ok(outputs.join('').includes('→ GET'), 'the verbose log was written');
    const forms = Object.values(SECRETS).flatMap((s) => [s, encodeURIComponent(s), 'S3cret']);
    for (const text of outputs) {
      for (const form of forms) assert.ok(!text.includes(form), `a credential appears in: ${text}`);
    }
  });
});

describe('answers and flags nested thousands of levels deep', () => {
  const deep = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);

  it('pull and show say the answer nests too deep, exit 3, no stack trace', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    for (const command of [['pull', r.id], ['show', r.id, '--format', 'yaml']]) {
      const result = `{"id": "${r.id}", "name": "n", "kind": "custom", "phase": "magic_transit", "version": "1", "rules": [{"id": "x", "action": "block", "expression": "tcp.dstport == 22", "action_parameters": ${deep(7_000)}}]}`;
      emulator.faults.push({ method: 'GET', respond: { status: 200, body: `{"success": true, "errors": [], "messages": [], "result": ${result}}` } });
      const answer = await run(command, { account: acc });
      assert.equal(answer.status, 3, answer.stderr.slice(0, 300));
      assert.match(answer.stderr, /^rulesets: .*the response nests deeper than \d+ levels/);
      assert.doesNotMatch(answer.stderr, /internal error|\bat .*:\d+:\d+/);
    }
  });

  it('rule add refuses --action-parameters nested too deep before any request, exit 2', async () => {
    const acc = account();
    const r = await customRuleset(acc);
    const requests = emulator.requests.length;
    const result = await run(['rule', 'add', r.id, '--action', 'block', '--expression', 'tcp.dstport == 1', '--action-parameters', `{"a": ${deep(7_000)}}`], { account: acc });
    assert.equal(result.status, 2, result.stderr.slice(0, 300));
    assert.match(result.stderr, /^rulesets: --action-parameters nests deeper than \d+ levels/);
    assert.equal(emulator.requests.length, requests, 'no request');
  });
});
