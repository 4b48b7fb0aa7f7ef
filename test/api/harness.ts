/**
 * Shared by the API tests: an emulator with credentials that are easy to spot, clients that
 * log into one list and never really wait, and a check that no credential ever appeared in a
 * log line or an error message.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { ApiError, RulesetsClient, type ClientOptions, type Credentials, type Scope } from '../../server/src/api/client';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../server/src/api/emulator';

export const SECRETS = {
  token: 'tok-S3cret-9f8e7d6c5b4a',
  email: 'ops+S3cret@example.net',
  key: 'key-S3cret-0a1b2c3d4e5f',
} as const;

export const TOKEN: Credentials = { token: SECRETS.token };
export const EMAIL_KEY: Credentials = { email: SECRETS.email, key: SECRETS.key };

export const ACCOUNT: Scope = { kind: 'account', id: 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1' };
export const ZONE: Scope = { kind: 'zone', id: 'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2' };

/** Every log line and error message the tests of one file produced. */
export const seen = { lines: [] as string[], messages: [] as string[] };

/** Rulesets on a page of the test emulator's list: small, so that every list in the tests has pages. */
export const TEST_PAGE_SIZE = 2;

export function startTestEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ credentials: SECRETS, pageSize: TEST_PAGE_SIZE, ...options });
}

export interface TestClient extends RulesetsClient {
  /** What the client waited before each retry, in milliseconds. */
  readonly waits: number[];
}

export function makeClient(baseUrl: string, options: Partial<ClientOptions> = {}): TestClient {
  const waits: number[] = [];
  const client = new RulesetsClient({
    baseUrl,
    credentials: TOKEN,
    scope: ACCOUNT,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
    log: (line) => {
      seen.lines.push(line);
      options.log?.(line);
    },
  });
  return Object.assign(client, { waits });
}

/** The ApiError a call fails with (its message is kept for the credential check). */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    seen.messages.push(error.message, ...error.errors.map((e) => e.message));
    return error;
  }
  assert.fail('expected the call to fail');
}

/** Records a message produced outside `failure` (a constructor's error, say). */
export function record(error: unknown): ApiError {
  assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
  seen.messages.push(error.message);
  return error;
}

export function assertNoSecrets(): void {
  assert.ok(seen.lines.length > 0 && seen.messages.length > 0, 'nothing was collected');
  const forms = Object.values(SECRETS).flatMap((s) => [s, encodeURIComponent(s), 'S3cret']);
  for (const text of [...seen.lines, ...seen.messages]) {
    for (const form of forms) assert.ok(!text.includes(form), `a credential appears in: ${text}`);
  }
}

/** What the built CLI did: its exit status and its two outputs. */
export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI's environment for a test: this process's, without its own settings and colour, pointed at the emulator with the test token. */
export function cliEnvironment(baseUrl: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('RULESETS_') && key !== 'FORCE_COLOR' && key !== 'NO_COLOR') childEnv[key] = value;
  return Object.assign(childEnv, { RULESETS_BASE_URL: baseUrl, RULESETS_API_TOKEN: SECRETS.token, ...env });
}

/**
 * The built CLI (`dist/cli.js`, `npm run build` first) run in `cwd` against the emulator at
 * `baseUrl` with the test token and `env` (the zone, …): none of the caller's own `RULESETS_*`
 * or colour settings leak in.
 */
export function runCli(cli: string, args: readonly string[], cwd: string, baseUrl: string, env: Record<string, string> = {}): Promise<CliRun> {
  const childEnv = cliEnvironment(baseUrl, env);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}
