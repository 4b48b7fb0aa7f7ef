/**
 * A file that is not UTF-8 text, or a binary file, as the built CLI meets it (issue 35): one
 * line naming the file and its first bad byte, with the fix, exit status 2, and nothing sent;
 * no control character of a file ever reaches the terminal raw. Run as a process, the API
 * commands against the emulator over loopback.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Emulator } from '../../server/src/api/emulator';
import { SECRETS, startTestEmulator } from '../api/harness';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
/** What a terminal would act on: C0 controls but TAB and LF, DEL, C1. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const LATIN1 = Buffer.concat([Buffer.from('name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    description: caf'), Buffer.from([0xe9]), Buffer.from('\n    expression: ip.src eq 192.0.2.1\n')]);
// `…description: caf` is 88 bytes: the é is byte 88, on line 6 after `    description: caf` (20 characters).
const LATIN1_AT = 'byte 88 (line 6, column 21) is not UTF-8 (0xE9); save the file as UTF-8';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x1b, 0x5b, 0x32, 0x4a, 0x07]);

let emulator: Emulator;
const temps: string[] = [];

function folder(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-bytes-'));
  temps.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI as a child process, pointed at the emulator (asynchronously: the emulator answers from this process). */
function run(args: readonly string[], cwd: string, input: Buffer | string = ''): Promise<Run> {
  return new Promise((done, fail) => {
    const env: NodeJS.ProcessEnv = { NO_COLOR: '1', PATH: process.env.PATH, RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ACCOUNT_ID: `bytes-${process.pid}` };
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.stdin.end(input);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

before(async () => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  emulator = await startTestEmulator();
});

after(async () => {
  await emulator.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('a file that is not UTF-8 text', () => {
  it('check: one line naming the file, the byte, its line and column and the fix; exit 2, no report', async () => {
    const dir = folder({ 'edge.ruleset.yaml': LATIN1 });
    const result = await run(['check', 'edge.ruleset.yaml'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^rulesets: edge\\.ruleset\\.yaml: ${LATIN1_AT.replace(/[()]/g, '\\$&')} \\(.*\\)\\n$`));
    // The same file saved as UTF-8 checks clean: the byte, not the rule, was the mistake.
    const fixed = folder({ 'edge.ruleset.yaml': Buffer.from(LATIN1.toString('latin1'), 'utf8') });
    const clean = await run(['check', 'edge.ruleset.yaml'], fixed);
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  });

  it('check -: standard input is named as such', async () => {
    const result = await run(['check', '-'], ROOT, LATIN1);
    assert.equal(result.status, 2);
    assert.ok(result.stderr.startsWith(`rulesets: <stdin>: ${LATIN1_AT}`), result.stderr);
  });

  it('deploy and create refuse it before any request', async () => {
    const dir = folder({ 'edge.ruleset.yaml': LATIN1 });
    const requests = emulator.requests.length;
    for (const command of [
      ['deploy', 'edge.ruleset.yaml', '--yes'],
      ['create', 'edge.ruleset.yaml', '--yes'],
    ]) {
      const result = await run(command, dir);
      assert.equal(result.status, 2, `${command[0]}: ${result.stdout}${result.stderr}`);
      assert.ok(result.stderr.startsWith(`rulesets: edge.ruleset.yaml: ${LATIN1_AT}`), result.stderr);
    }
    assert.equal(emulator.requests.length, requests, 'the emulator saw no request at all');
  });

  it('test refuses a test file that is not UTF-8, naming it', async () => {
    const test = Buffer.concat([Buffer.from('ruleset: edge.ruleset.yaml\ncases:\n  - name: caf'), Buffer.from([0xe9]), Buffer.from('\n    packet: {ip.src: 192.0.2.1}\n    expect: block\n')]);
    const dir = folder({ 'edge.ruleset.yaml': Buffer.from(LATIN1.toString('latin1'), 'utf8'), 'edge.ruleset.test.yaml': test });
    const result = await run(['test', 'edge.ruleset.test.yaml'], dir);
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /edge\.ruleset\.test\.yaml: byte 47 \(line 3, column 14\) is not UTF-8 \(0xE9\); save the file as UTF-8/);
  });
});

describe('a binary file', () => {
  it('is named binary at its first bad byte, and none of its bytes reaches the terminal', async () => {
    const dir = folder({ 'image.ruleset.yaml': PNG });
    const result = await run(['check', 'image.ruleset.yaml'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stderr, 'rulesets: image.ruleset.yaml: byte 0 (line 1, column 1) is not UTF-8 (0x89) and the file has NUL bytes: this is a binary file, not text; a ruleset file is text saved as UTF-8\n');
    assert.doesNotMatch(result.stdout + result.stderr, RAW_CONTROL);
  });

  it('a file of NUL bytes that is valid UTF-8 is binary too', async () => {
    const dir = folder({ 'zeros.ruleset.json': Buffer.from('{"name": "x"\u0000\u0000}') });
    const result = await run(['check', 'zeros.ruleset.json'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stderr, 'rulesets: zeros.ruleset.json: byte 12 (line 1, column 13) is a NUL byte (0x00): this is a binary file, not text; a ruleset file is text saved as UTF-8\n');
  });

  it('a folder search passes over binary and non-UTF-8 files that are no rulesets, and checks the rest', async () => {
    const dir = folder({ 'logo.json': PNG, 'notes.yaml': Buffer.from([0x6e, 0x6f, 0x74, 0x65, 0x3a, 0x20, 0xe9, 0x0a]), 'edge.ruleset.yaml': 'name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src eq 192.0.2.1\n' });
    const result = await run(['check', '.'], dir);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.equal(result.stdout, '1 file checked, no problems\n');
  });

  it('an octorules file found by its content that is not UTF-8 is refused, not checked with U+FFFD', async () => {
    const zone = Buffer.concat([Buffer.from('cloudflare:\n  waf_custom_rules:\n    - ref: caf'), Buffer.from([0xe9]), Buffer.from('\n      expression: ip.src eq 192.0.2.1\n      action: block\n')]);
    const dir = folder({ 'rules/zone.yaml': zone });
    const result = await run(['check', '.'], dir);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^rulesets: rules\/zone\.yaml: byte 46 \(line 3, column 15\) is not UTF-8 \(0xE9\)/);
  });
});

describe('an included file that is not UTF-8 text', () => {
  it('is an error on the `!include` that names it, saying which byte, and its rules are not checked with U+FFFD', async () => {
    const waf = Buffer.concat([Buffer.from('- ref: caf'), Buffer.from([0xe9]), Buffer.from('\n  expression: ip.src eq 192.0.2.1\n  action: block\n')]);
    const dir = folder({ 'zone.yaml': 'cloudflare:\n  waf_custom_rules: !include waf.yaml\n', 'waf.yaml': waf });
    const result = await run(['check', 'zone.yaml'], dir);
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /^zone\.yaml:2:21: error include-unreadable cannot read `waf\.yaml` \(relative to this file\), which this `!include` names: byte 10 \(line 1, column 11\) is not UTF-8 \(0xE9\); save the file as UTF-8/);
  });
});

describe('control characters of a file in a report', () => {
  it('are printed as escapes, in the message and the source line, with the carets under the escape', async () => {
    const dir = folder({ 'edge.ruleset.yaml': 'name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport eq \u001b[2J22\u0007\n' });
    const result = await run(['check', 'edge.ruleset.yaml'], dir);
    assert.equal(result.status, 1);
    assert.doesNotMatch(result.stdout + result.stderr, RAW_CONTROL);
    const lines = result.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('edge.ruleset.yaml:6:'));
    assert.match(lines[at], /found `\\x1b`/);
    assert.equal(lines[at + 1], '      expression: tcp.dstport eq \\x1b[2J22\\x07');
    assert.equal(lines[at + 2], `  ${' '.repeat('    expression: tcp.dstport eq '.length)}^^^^`);
  });
});
