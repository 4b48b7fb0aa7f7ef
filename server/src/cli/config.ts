/**
 * Where the API commands connect, and as whom: the base URL and the account or zone from a
 * flag or the environment, the credentials from the environment only (a flag would leave
 * them in the shell's history and in `ps`).
 */
import { RulesetsClient, type ClientOptions, type Credentials, type Scope } from '../core';
import { UsageError } from './check';

/** Configuration that is missing or contradicts itself: exit 2, one line naming what to set. */
export class ConfigError extends UsageError {}

export interface ConnectionFlags {
  readonly 'base-url'?: string;
  readonly account?: string;
  readonly zone?: string;
  readonly verbose?: boolean;
}

export const ENV = {
  baseUrl: 'RULESETS_BASE_URL',
  token: 'RULESETS_API_TOKEN',
  email: 'RULESETS_EMAIL',
  key: 'RULESETS_API_KEY',
  account: 'RULESETS_ACCOUNT_ID',
  zone: 'RULESETS_ZONE_ID',
  timeout: 'RULESETS_TIMEOUT_MS',
} as const;

/** Options every API command takes (parseArgs form). */
export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  account: { type: 'string' },
  zone: { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const CONNECTION_HELP = `Connection (flags win over the environment):
  --base-url URL   the API, ending in /client/v4 (or RULESETS_BASE_URL)
  --account ID     the account (or RULESETS_ACCOUNT_ID)
  --zone ID        the zone instead (or RULESETS_ZONE_ID)
  -v, --verbose    log each request and response to stderr (credentials never appear)
  -h, --help       show this help
Credentials, from the environment only: RULESETS_API_TOKEN, or RULESETS_EMAIL and
RULESETS_API_KEY. RULESETS_TIMEOUT_MS: per request (default 30000).`;

/** Flags that would carry a credential: refused with a pointer to the variable instead. */
const CREDENTIAL_FLAG = /^--(api-?token|token|api-?key|key|email|password|secret)(=|$)/i;

/**
 * Refuses credentials on the command line before anything parses (or echoes) them.
 * The value is never repeated in the message.
 */
export function refuseCredentialFlags(args: readonly string[]): void {
  for (const arg of args) {
    if (arg === '--') return;
    const m = CREDENTIAL_FLAG.exec(arg);
    if (m) {
      throw new ConfigError(`credentials are read from the environment only, never from flags (they would stay in your shell history): set ${ENV.token}, or ${ENV.email} and ${ENV.key}, instead of --${m[1]}`);
    }
  }
}

/** Where the client's lines go: the log (-v), waits and the service's warnings. */
export type ClientReporting = Pick<ClientOptions, 'log' | 'onWait' | 'onMessages'>;

export function clientOptions(flags: ConnectionFlags, env: NodeJS.ProcessEnv, reporting: ClientReporting = {}): ClientOptions {
  return { ...connectionOptions(flags, env, reporting), scope: scope(flags, env) };
}

/** The client's options but its account or zone: the base URL, the credentials, the timeout and the reporting. */
export function connectionOptions(flags: ConnectionFlags, env: NodeJS.ProcessEnv, reporting: ClientReporting = {}): Omit<ClientOptions, 'scope'> {
  const baseUrl = flags['base-url'] ?? nonEmpty(env[ENV.baseUrl]);
  if (!baseUrl) throw new ConfigError(`no API base URL: set ${ENV.baseUrl} (or pass --base-url URL), e.g. https://api.example.com/client/v4; \`rulesets emulator\` runs a local one`);
  const defined = Object.fromEntries(Object.entries(reporting).filter(([, value]) => value !== undefined));
  return { baseUrl, credentials: credentials(env), ...timeout(env), ...defined };
}

export function makeClient(flags: ConnectionFlags, env: NodeJS.ProcessEnv, reporting: ClientReporting = {}): RulesetsClient {
  return new RulesetsClient(clientOptions(flags, env, reporting));
}

function credentials(env: NodeJS.ProcessEnv): Credentials {
  const token = nonEmpty(env[ENV.token]);
  if (token) return { token };
  const email = nonEmpty(env[ENV.email]);
  const key = nonEmpty(env[ENV.key]);
  if (email && key) return { email, key };
  if (email) throw new ConfigError(`${ENV.email} is set but ${ENV.key} is not: set ${ENV.key} too (or use ${ENV.token} instead)`);
  if (key) throw new ConfigError(`${ENV.key} is set but ${ENV.email} is not: set ${ENV.email} too (or use ${ENV.token} instead)`);
  throw new ConfigError(`no credentials: set ${ENV.token} (an API token), or ${ENV.email} and ${ENV.key}; they are read from the environment only`);
}

function scope(flags: ConnectionFlags, env: NodeJS.ProcessEnv): Scope {
  if (flags.account !== undefined && flags.zone !== undefined) throw new ConfigError('--account and --zone were both given: rulesets live in one or the other; pass one');
  if (flags.account !== undefined) return { kind: 'account', id: required(flags.account, '--account') };
  if (flags.zone !== undefined) return { kind: 'zone', id: required(flags.zone, '--zone') };
  const account = nonEmpty(env[ENV.account]);
  const zone = nonEmpty(env[ENV.zone]);
  if (account && zone) throw new ConfigError(`both ${ENV.account} and ${ENV.zone} are set: pick one with --account ID or --zone ID, or unset the other`);
  if (account) return { kind: 'account', id: account };
  if (zone) return { kind: 'zone', id: zone };
  throw new ConfigError(`no account or zone: set ${ENV.account} (or pass --account ID), or ${ENV.zone} (or --zone ID)`);
}

function timeout(env: NodeJS.ProcessEnv): { timeoutMs?: number } {
  const text = nonEmpty(env[ENV.timeout]);
  if (text === undefined) return {};
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new ConfigError(`${ENV.timeout} must be a number of milliseconds above 0, found "${text}"`);
  return { timeoutMs: Number(text) };
}

function required(value: string, flag: string): string {
  if (value.trim() === '') throw new ConfigError(`${flag} needs an id`);
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * A client for each account or zone a command of many targets talks to (plan, apply), made on
 * first use and kept: the base URL and credentials of the environment, its log with `--verbose`,
 * and a word on stderr about what it waits for when a person watches.
 */
export function clientsByScope(flags: ConnectionFlags & { readonly verbose?: boolean }, io: { readonly err: (text: string) => void; readonly env: NodeJS.ProcessEnv; readonly watched?: boolean }): { readonly baseUrl: string; readonly clientFor: (scope: Scope) => RulesetsClient } {
  const log = flags.verbose ? (line: string) => io.err(`${line}\n`) : undefined;
  const onWait = io.watched || flags.verbose ? (line: string) => io.err(`rulesets: ${line}\n`) : undefined;
  const base = connectionOptions(flags, io.env, { log, onWait });
  const clients = new Map<string, RulesetsClient>();
  const clientFor = (scope: Scope): RulesetsClient => {
    const key = `${scope.kind}:${scope.id}`;
    let client = clients.get(key);
    if (!client) clients.set(key, (client = new RulesetsClient({ ...base, scope })));
    return client;
  };
  return { baseUrl: base.baseUrl, clientFor };
}
