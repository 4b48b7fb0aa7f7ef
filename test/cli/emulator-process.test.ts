/**
 * `rulesets emulator` ends with the command that started it: however it is stopped — Ctrl+C at
 * a terminal (SIGINT to the whole process group), SIGINT or SIGTERM to the process, or the
 * death of a parent that does not pass signals on (`npx` starts the CLI under `sh -c`, and npm
 * forwards a SIGTERM to that shell only) — nothing is left listening on the port. Run as
 * processes against dist/ (npm run build first).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('RULESETS_')) env[key] = value;
  return env;
}

/** The port the emulator printed, once it listens. */
function listeningPort(child: ChildProcess): Promise<number> {
  let stdout = '';
  child.stdout!.setEncoding('utf8');
  return new Promise((done, fail) => {
    child.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      const m = /export RULESETS_BASE_URL=http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout);
      if (m && stdout.includes('Ctrl+C')) done(Number(m[1]));
    });
    child.on('exit', () => fail(new Error(`the emulator did not start: ${stdout}`)));
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

/** Polls until nothing listens on the port, or the time is up. */
async function freed(port: number, withinMs: number): Promise<boolean> {
  const end = Date.now() + withinMs;
  for (;;) {
    if (!(await listening(port))) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Ends a process of this test that a failed assertion left behind. */
function cleanUp(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

describe('rulesets emulator ends with the command that started it', () => {
  for (const [signal, target] of [
    ['SIGINT', 'group'],
    ['SIGINT', 'process'],
    ['SIGTERM', 'process'],
    ['SIGHUP', 'process'],
  ] as const) {
    it(`${signal} to the ${target === 'group' ? 'process group, as Ctrl+C at a terminal' : 'process'}: the port is free`, async () => {
      // detached: a process group of its own, as a terminal's foreground job has.
      const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      try {
        const port = await listeningPort(child);
        assert.equal(await listening(port), true);
        process.kill(target === 'group' ? -child.pid! : child.pid!, signal);
        const exit = await new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
        assert.equal(exit, 0);
        assert.equal(await listening(port), false, `still listening on ${port} after ${signal}`);
      } finally {
        cleanUp(child.pid);
      }
    });
  }

  it('SIGTERM to a parent shell that does not pass it on, as under npx: the orphaned emulator stops', async () => {
    // `npx rulesets emulator`: npm runs `sh -c 'rulesets' emulator …` and forwards a SIGTERM to
    // that shell only; the shell dies of it, and the CLI under it never hears of it.
    const parent = spawn('sh', ['-c', `'${process.execPath}' '${CLI}' emulator --port 0; :`], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let emulatorPid: number | undefined;
    try {
      const port = await listeningPort(parent);
      emulatorPid = Number(/^\s*(\d+)/.exec(await childrenOf(parent.pid!))?.[1]);
      assert.ok(emulatorPid > 0, 'the emulator runs under the shell');
      process.kill(parent.pid!, 'SIGTERM');
      assert.equal(await freed(port, 5_000), true, `the emulator still listens on ${port} after its parent died`);
    } finally {
      cleanUp(emulatorPid);
      cleanUp(parent.pid);
    }
  });
});

/** The pids of a process's children (`ps`), one a line. */
function childrenOf(pid: number): Promise<string> {
  return new Promise((done) => {
    const ps = spawn('ps', ['-o', 'pid=', '--ppid', String(pid)], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    ps.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    ps.on('close', () => done(out));
  });
}
