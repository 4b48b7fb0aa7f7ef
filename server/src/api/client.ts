/**
 * A client of the Rulesets HTTP API (`shared/spec/API.md`), for the CLI, the VS Code extension
 * and the tests. It writes nothing to the console and imports nothing from VS Code: what
 * happens goes to the optional `log` callback, one redacted line per request and response.
 *
 * Every failure is an `ApiError` with one readable message that never holds a credential.
 * Requests that are safe to repeat (GET, and `dry_run` writes, which store nothing) are retried
 * on 429, 5xx and network errors; a real write is retried only when the service cannot have
 * acted on it (a 429, a connection that never opened), so a deploy never runs twice.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { version as toolVersion } from '../version';
import { MAX_NESTING, nestsDeeperThan } from '../documents/host/index';
import type {
  ApiMessage,
  CreateRulesetBody,
  Position,
  RuleInput,
  Ruleset,
  RulesetSummary,
  UpdateRulesetBody,
  VersionListItem,
  WireMessage,
} from './types';

/** HTTP's name for a status, for messages: node:http on first use, since loading it is ~7 ms of every start of a check. */
function statusText(status: number): string | undefined {
  return (require('node:http') as typeof import('node:http')).STATUS_CODES[status];
}

export type * from './types';
export { ruleDefinition } from './types';

export type Credentials = { readonly token: string } | { readonly email: string; readonly key: string };
/** The account or the zone whose rulesets a client works on. */
export type Scope = { readonly kind: 'account' | 'zone'; readonly id: string };

export interface ClientOptions {
  /** The API's base URL, ending in `/client/v4`. `https:` unless the host is this machine. */
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly scope: Scope;
  /** Per attempt, from sending the request to the end of the response body. Default 30 s. */
  readonly timeoutMs?: number;
  /** Further attempts after the first, for failures worth another try. Default 3. */
  readonly retries?: number;
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** One line per request, response and retry; credentials never appear in it. */
  readonly log?: (line: string) => void;
  /** Waits between attempts (tests make it instant). Rejects when `signal` aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /**
   * The longest `Retry-After` the client waits for before trying again (default 60 s). When
   * the service asks for more, the call fails at once with a message that says how long.
   */
  readonly maxRetryAfterMs?: number;
  /**
   * The service's `messages` (warnings) of a successful answer, dry runs included, with the
   * request that got them. The service answers an operation and still warns: show them.
   */
  readonly onMessages?: (messages: readonly ApiMessage[], request: string) => void;
  /**
   * What a person waiting should know, one line each: an answer slower than a moment, a retry
   * and its wait, a wait the service asked for. The CLI shows them on a terminal.
   */
  readonly onWait?: (line: string) => void;
  /** How long an answer may take before `onWait` hears of it. Default 2 s. */
  readonly slowAnswerMs?: number;
}

/** A zone as List Zones gives it: what a target needs of it. */
export interface ZoneSummary {
  readonly id: string;
  readonly name: string;
  readonly account?: { readonly id: string };
}

function isZoneSummary(value: unknown): value is { id: string; name: string; account?: { id?: unknown } } {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string' && typeof (value as { name?: unknown }).name === 'string';
}

export interface CallOptions {
  /** Cancels the call, including any wait before a retry. */
  readonly signal?: AbortSignal;
}

export interface RuleWriteOptions extends CallOptions {
  readonly position?: Position;
}

/**
 * A dry run's answer. The service runs the same authorization and checks as the real call and
 * stores nothing; a success says nothing more than that (`"result": null`, or 204), so a dry
 * run never gives a ruleset back. Its warnings are here (and go to `onMessages` too).
 */
export interface DryRunAnswer {
  readonly messages: readonly ApiMessage[];
}

/** The write operations as dry runs (`?dry_run=true`): checked by the service, nothing stored. */
export interface DryRuns {
  createRuleset(body: CreateRulesetBody, options?: CallOptions): Promise<DryRunAnswer>;
  updateRuleset(ruleset: RulesetRef, body: UpdateRulesetBody, options?: CallOptions): Promise<DryRunAnswer>;
  addRule(id: string, rule: RuleInput, options?: RuleWriteOptions): Promise<DryRunAnswer>;
  updateRule(id: string, ruleId: string, rule: RuleInput, options?: RuleWriteOptions): Promise<DryRunAnswer>;
  deleteRule(id: string, ruleId: string, options?: CallOptions): Promise<DryRunAnswer>;
  deleteRuleset(id: string, options?: CallOptions): Promise<DryRunAnswer>;
  deleteVersion(id: string, version: string | number, options?: CallOptions): Promise<DryRunAnswer>;
}

/** A ruleset by id, or a phase's entry point ruleset. */
export type RulesetRef = string | { readonly phase: string };

/**
 * - `api`: the service answered with an error (or `success: false`); `errors` says what.
 * - `invalid-response`: the answer is not the API's JSON envelope (a proxy's HTML page, say).
 * - `network`: the service could not be reached, or the connection dropped.
 * - `timeout`: no complete answer within `timeoutMs`.
 * - `cancelled`: the caller's signal aborted.
 * - `config`: the client was given something it cannot use (an `http:` URL, an empty id).
 */
export type ApiErrorKind = 'api' | 'invalid-response' | 'network' | 'timeout' | 'cancelled' | 'config';

export interface ApiErrorDetails {
  readonly status?: number;
  readonly errors?: readonly ApiMessage[];
  /** The request, as `PUT /accounts/…/rulesets/abc?dry_run=true`. */
  readonly request?: string;
  /** How many attempts were made. */
  readonly attempts?: number;
  /** What a 429 or 503 asked to wait, in milliseconds. */
  readonly retryAfterMs?: number;
  /** A timeout's limit per attempt, in milliseconds. */
  readonly timeoutMs?: number;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status?: number;
  readonly errors: readonly ApiMessage[];
  readonly request?: string;
  readonly attempts: number;
  readonly retryAfterMs?: number;
  readonly timeoutMs?: number;

  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.status = details.status;
    this.errors = details.errors ?? [];
    this.request = details.request;
    this.attempts = details.attempts ?? 0;
    this.retryAfterMs = details.retryAfterMs;
    this.timeoutMs = details.timeoutMs;
  }
}

const REDACTED = '[redacted]';

/**
 * Characters a credential is made of: a secret found next to one of them is part of a longer
 * word, not the secret itself (a one-letter token must not turn every `x` into `[redacted]`).
 */
const CREDENTIAL_CHARACTER = '[A-Za-z0-9_\\-]';

/**
 * `text` with every secret replaced by `[redacted]` wherever it stands as a whole value, also
 * URL-encoded or JSON-escaped (an email's `@` is `%40` in a URL). Every message and log line
 * goes through it.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first: a form that contains another is replaced whole.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (!form || !text.includes(form)) continue;
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    text = text.replace(new RegExp(`(?<!${CREDENTIAL_CHARACTER})${escaped}(?!${CREDENTIAL_CHARACTER})`, 'g'), REDACTED);
  }
  return text;
}

/** Whether `hostname` (as `URL` gives it) is this machine: `localhost`, 127.0.0.0/8 or `::1`. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 3;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;
const SNIPPET_LENGTH = 200;
/** More errors than this in one answer are counted, not listed, in the message. */
const LISTED_ERRORS = 5;

/** Header values: printable ASCII without spaces, as tokens, keys and emails are. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** What one attempt came to, when it did not succeed. */
interface Failure {
  readonly kind: Exclude<ApiErrorKind, 'config' | 'cancelled'>;
  readonly status?: number;
  readonly errors?: readonly ApiMessage[];
  readonly detail: string;
  /** Another attempt might succeed (429, 5xx, a network error, a timeout). */
  readonly transient: boolean;
  /** The request may have reached the service (false only when the connection never opened). */
  readonly mayHaveArrived: boolean;
  readonly retryAfterMs?: number;
}

/** What a successful answer held: its result, where the next page is, and the service's warnings. */
interface Answer {
  readonly result: unknown;
  /** `result_info.cursor`: the next page of a list, when there is one. */
  readonly cursor?: string;
  readonly messages: readonly ApiMessage[];
}

type Outcome = { readonly ok: true; readonly answer: Answer } | { readonly ok: false; readonly failure: Failure };

interface RequestSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the scope: `/rulesets/abc`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
  /**
   * What a successful answer holds: a JSON result, or nothing (204). A dry run expects
   * nothing whatever it is given: the service answers it with `"result": null` or 204.
   */
  readonly expect: 'object' | 'array' | 'none';
  /** The path is from the base URL (`/zones`), not below the account or zone. */
  readonly unscoped?: boolean;
}

/** More pages than this in one list: the service is answering in a circle, or the list is not one a person can use. */
const MAX_PAGES = 1000;
/** An answer slower than this gets a line on `onWait`, so that a person knows what is being waited for. */
const DEFAULT_SLOW_ANSWER_MS = 2000;

export class RulesetsClient {
  private readonly base: URL;
  private readonly scopePath: string;
  private readonly headers: Record<string, string>;
  private readonly secrets: readonly string[];
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly maxRetryAfterMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly logLine?: (line: string) => void;
  private readonly messagesLine?: (messages: readonly ApiMessage[], request: string) => void;
  private readonly waitLine?: (line: string) => void;
  private readonly slowAnswerMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  /** The account or zone this client works on. */
  readonly scope: Scope;

  /** The write operations as dry runs: the service checks, nothing is stored, no ruleset comes back. */
  readonly dryRun: DryRuns;

  constructor(options: ClientOptions) {
    const credentials = options.credentials;
    this.secrets = 'token' in credentials ? [credentials.token] : [credentials.email, credentials.key];
    this.base = parseBaseUrl(options.baseUrl, (text) => this.scrub(text));
    this.scope = options.scope;
    this.scopePath = `/${options.scope.kind}s/${segment(options.scope.id, `${options.scope.kind} id`)}`;
    this.headers = { accept: 'application/json', 'user-agent': `rulesets-tools/${toolVersion}`, ...authHeaders(credentials) };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retries = Math.max(0, Math.floor(options.retries ?? DEFAULT_RETRIES));
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.fetchImpl = options.fetch ?? fetch;
    this.logLine = options.log;
    this.messagesLine = options.onMessages;
    this.waitLine = options.onWait;
    this.slowAnswerMs = options.slowAnswerMs ?? DEFAULT_SLOW_ANSWER_MS;
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.random = options.random ?? Math.random;
    const check = async (spec: Omit<RequestSpec, 'expect' | 'dryRun'>): Promise<DryRunAnswer> => ({ messages: (await this.request({ ...spec, expect: 'none', dryRun: true })).messages });
    this.dryRun = {
      createRuleset: (body, options = {}) => check(createRulesetSpec(body, options)),
      updateRuleset: (ruleset, body, options = {}) => check(updateRulesetSpec(ruleset, body, options)),
      addRule: (id, rule, options = {}) => check(addRuleSpec(id, rule, options)),
      updateRule: (id, ruleId, rule, options = {}) => check(updateRuleSpec(id, ruleId, rule, options)),
      deleteRule: (id, ruleId, options = {}) => check(deleteRuleSpec(id, ruleId, options)),
      deleteRuleset: (id, options = {}) => check(deleteRulesetSpec(id, options)),
      deleteVersion: (id, version, options = {}) => check(deleteVersionSpec(id, version, options)),
    };
  }

  /** The base URL's host (`api.example.com`), as messages name it. */
  get host(): string {
    return this.base.host;
  }

  // ------------------------------------------------------------ reading

  /** 1. Every ruleset of the account or zone, without rules: every page, following `result_info.cursor`. */
  async listRulesets(options: CallOptions = {}): Promise<RulesetSummary[]> {
    const all: RulesetSummary[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      const answer = await this.request({ method: 'GET', path: '/rulesets', ...(cursor !== undefined ? { query: { cursor } } : {}), expect: 'array', signal: options.signal });
      all.push(...(answer.result as RulesetSummary[]).map(withStringVersion));
      cursor = answer.cursor;
      if (cursor === undefined) return all;
      if (seen.has(cursor)) {
        throw new ApiError(this.scrub(`GET ${this.scopePath}/rulesets: the service answered page ${page} with a cursor it had already given (${this.snippet(cursor)}); stopped rather than go round in circles: try again later`), 'invalid-response', { attempts: page });
      }
      if (page >= MAX_PAGES) {
        throw new ApiError(`GET ${this.scopePath}/rulesets: more than ${MAX_PAGES} pages of rulesets, and the service still gives a next one; stopped`, 'invalid-response', { attempts: page });
      }
      seen.add(cursor);
    }
  }

  /**
   * The zones of a name these credentials can see (the API's List Zones, `GET /zones?name=`),
   * whatever account or zone the client works on: none, one, or (a name in several accounts) more.
   */
  async findZones(name: string, options: CallOptions = {}): Promise<ZoneSummary[]> {
    const answer = await this.request({ method: 'GET', path: '/zones', query: { name, per_page: '50' }, expect: 'array', unscoped: true, signal: options.signal });
    return (answer.result as unknown[]).filter(isZoneSummary).map((z) => ({ id: z.id, name: z.name, ...(typeof z.account?.id === 'string' ? { account: { id: z.account.id } } : {}) }));
  }

  /** 2. The latest version of a ruleset. */
  async getRuleset(id: string, options: CallOptions = {}): Promise<Ruleset> {
    return this.rulesetRequest({ method: 'GET', path: rulesetPath(id), signal: options.signal });
  }

  /** 2b. The latest version of a phase's entry point ruleset. */
  async getEntryPoint(phase: string, options: CallOptions = {}): Promise<Ruleset> {
    return this.rulesetRequest({ method: 'GET', path: rulesetPath({ phase }), signal: options.signal });
  }

  /** 3. The versions of a ruleset (or of a phase's entry point), without rules; `[]` for a phase without one. */
  async listVersions(ruleset: RulesetRef, options: CallOptions = {}): Promise<VersionListItem[]> {
    const answer = await this.request({ method: 'GET', path: `${rulesetPath(ruleset)}/versions`, expect: 'array', signal: options.signal });
    return (answer.result as VersionListItem[]).map(withStringVersion);
  }

  /** 4. One version of a ruleset (or of a phase's entry point), with its rules. */
  async getVersion(ruleset: RulesetRef, version: string | number, options: CallOptions = {}): Promise<Ruleset> {
    return this.rulesetRequest({ method: 'GET', path: `${rulesetPath(ruleset)}/versions/${segment(String(version), 'version')}`, signal: options.signal });
  }

  /** 5. The rules of one version of a (managed) ruleset that carry a tag; an account-level operation. */
  async rulesByTag(id: string, version: string | number, tag: string, options: CallOptions = {}): Promise<Ruleset> {
    if (this.scope.kind !== 'account') {
      throw new ApiError('rules by tag is an account-level operation of the API (there is no zone form): give an account (--account ID or RULESETS_ACCOUNT_ID) instead of a zone', 'config');
    }
    const path = `${rulesetPath(id)}/versions/${segment(String(version), 'version')}/by_tag/${segment(tag, 'tag')}`;
    return this.rulesetRequest({ method: 'GET', path, signal: options.signal });
  }

  // ------------------------------------------------------------ writing

  /** 6. Creates a ruleset (a phase entry point when `kind` is `root` or `zone`). */
  async createRuleset(body: CreateRulesetBody, options: CallOptions = {}): Promise<Ruleset> {
    return this.rulesetRequest(createRulesetSpec(body, options));
  }

  /** 7. Replaces a ruleset's rules (a deploy); an entry point is created if the phase has none. */
  async updateRuleset(ruleset: RulesetRef, body: UpdateRulesetBody, options: CallOptions = {}): Promise<Ruleset> {
    return this.rulesetRequest(updateRulesetSpec(ruleset, body, options));
  }

  /** 8. Adds one rule (last unless `position` says otherwise); answers the whole ruleset. */
  async addRule(id: string, rule: RuleInput, options: RuleWriteOptions = {}): Promise<Ruleset> {
    return this.rulesetRequest(addRuleSpec(id, rule, options));
  }

  /**
   * 9. Replaces one rule with `rule`, its whole new definition (a field left out is gone on
   * the service: see `ruleDefinition` to start from the live rule), and/or moves it.
   */
  async updateRule(id: string, ruleId: string, rule: RuleInput, options: RuleWriteOptions = {}): Promise<Ruleset> {
    return this.rulesetRequest(updateRuleSpec(id, ruleId, rule, options));
  }

  /** 10. Deletes one rule; answers the whole ruleset. */
  async deleteRule(id: string, ruleId: string, options: CallOptions = {}): Promise<Ruleset> {
    return this.rulesetRequest(deleteRuleSpec(id, ruleId, options));
  }

  /** 11. Deletes a ruleset with all its versions. */
  async deleteRuleset(id: string, options: CallOptions = {}): Promise<void> {
    await this.request({ ...deleteRulesetSpec(id, options), expect: 'none' });
  }

  /** 12. Deletes one version of a ruleset (not its latest). */
  async deleteVersion(id: string, version: string | number, options: CallOptions = {}): Promise<void> {
    await this.request({ ...deleteVersionSpec(id, version, options), expect: 'none' });
  }

  // ------------------------------------------------------------ the exchange

  private async rulesetRequest(spec: Omit<RequestSpec, 'expect'>): Promise<Ruleset> {
    return withStringVersion((await this.request({ ...spec, expect: 'object' })).result as Ruleset);
  }

  private scrub(text: string): string {
    return redact(text, this.secrets);
  }

  private log(line: string): void {
    this.logLine?.(this.scrub(line));
  }

  private wait(line: string): void {
    this.waitLine?.(this.scrub(line));
  }

  private async request(spec: RequestSpec): Promise<Answer> {
    const request = `${spec.method} ${spec.unscoped ? '' : this.scopePath}${spec.path}${queryString(spec)}`;
    // A GET changes nothing and a dry run stores nothing: both may be sent again. A real write
    // may be repeated only if it cannot have reached the service (see `attempt`).
    const repeatable = spec.method === 'GET' || spec.dryRun === true;
    const attempts = this.retries + 1;
    for (let attempt = 1; ; attempt++) {
      this.throwIfCancelled(spec.signal, request, attempt - 1);
      const outcome = await this.attempt(spec, request, attempt - 1);
      if (outcome.ok) {
        if (outcome.answer.messages.length > 0) {
          for (const message of outcome.answer.messages) this.log(`  service message: ${message.message}`);
          this.messagesLine?.(outcome.answer.messages.map((m) => ({ ...m, message: this.scrub(m.message) })), request);
        }
        return outcome.answer;
      }
      const failure = outcome.failure;
      const worthRetrying = failure.transient && (repeatable || !failure.mayHaveArrived) && attempt < attempts;
      if (!worthRetrying) throw this.error(failure, request, attempt);
      const wait = failure.retryAfterMs ?? this.backoff(attempt);
      if (wait > this.maxRetryAfterMs) throw this.error(failure, request, attempt);
      this.log(`retrying ${request} in ${wait} ms (attempt ${attempt + 1} of ${attempts})`);
      const why = failure.status !== undefined ? `${failure.status} ${statusText(failure.status) ?? ''}`.trim() : failure.kind === 'timeout' ? `no answer within ${seconds(this.timeoutMs)}` : 'network error';
      this.wait(
        failure.retryAfterMs !== undefined
          ? `${why}: waiting ${seconds(wait)} as the service asked, then trying again (${attempt + 1}/${attempts}): ${request}`
          : `${why}: retrying ${attempt + 1}/${attempts} in ${seconds(wait)}: ${request}`,
      );
      try {
        await this.sleep(wait, spec.signal);
      } catch (error) {
        if (spec.signal?.aborted) throw this.cancelled(request, attempt);
        throw error;
      }
    }
  }

  /** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, … up to 8 s, each 50–100 %. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    return Math.round(ceiling * (0.5 + this.random() * 0.5));
  }

  private throwIfCancelled(signal: AbortSignal | undefined, request: string, attempts: number): void {
    if (signal?.aborted) throw this.cancelled(request, attempts);
  }

  private cancelled(request: string, attempts: number): ApiError {
    return new ApiError(`${request}: cancelled`, 'cancelled', { request, attempts });
  }

  private async attempt(spec: RequestSpec, request: string, attemptsBefore: number): Promise<Outcome> {
    const url = `${this.base.href.replace(/\/$/, '')}${spec.unscoped ? '' : this.scopePath}${spec.path}${queryString(spec)}`;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = spec.signal ? anySignal([spec.signal, timeout]) : timeout;
    const headers = spec.body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' };
    const started = Date.now();
    this.log(`→ ${request}`);
    const slow = this.waitLine ? setTimeout(() => this.wait(`waiting for ${this.base.host} to answer ${request} (gives up after ${seconds(this.timeoutMs)})`), this.slowAnswerMs) : undefined;
    let status: number;
    let retryAfter: string | null;
    let contentType: string;
    let text: string;
    try {
      const response = await this.fetchImpl(url, { method: spec.method, headers, body: spec.body === undefined ? undefined : JSON.stringify(spec.body), signal, redirect: 'error' });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      contentType = response.headers.get('content-type') ?? '';
      text = await response.text();
    } catch (error) {
      const elapsed = Date.now() - started;
      if (spec.signal?.aborted) {
        this.log(`← cancelled ${request} (${elapsed} ms)`);
        throw this.cancelled(request, attemptsBefore + 1);
      }
      if (timeout.aborted) {
        this.log(`← timeout ${request} (${elapsed} ms)`);
        // A request that timed out may well have been received and acted on.
        return { ok: false, failure: { kind: 'timeout', detail: `no response from ${this.base.host} within ${seconds(this.timeoutMs)}`, transient: true, mayHaveArrived: true } };
      }
      const network = describeNetworkError(error);
      this.log(`← network error ${request}: ${network.reason} (${elapsed} ms)`);
      return {
        ok: false,
        failure: { kind: 'network', detail: `could not ${network.connected ? 'complete the request to' : 'reach'} ${this.base.host}: ${network.reason}`, transient: network.transient, mayHaveArrived: network.connected },
      };
    } finally {
      clearTimeout(slow);
    }
    this.log(`← ${status} ${request} (${Date.now() - started} ms)`);
    return this.interpret(spec, status, retryAfter, contentType, text);
  }

  /** An HTTP answer as a result or a failure. */
  private interpret(spec: RequestSpec, status: number, retryAfter: string | null, contentType: string, text: string): Outcome {
    const success = status >= 200 && status < 300;
    // 429 and 5xx: the service is busy or broken now, and may not be in a moment.
    const transient = status === 429 || status >= 500;
    const retryAfterMs = (status === 429 || status === 503) && retryAfter !== null ? parseRetryAfter(retryAfter) : undefined;
    const fail = (kind: Failure['kind'], detail: string, errors?: readonly ApiMessage[]): Outcome => ({
      ok: false,
      // A 429 is the rate limit refusing the request before anything is done with it: even a
      // real write may be sent again (the service's official SDK retries it too).
      failure: { kind, status, errors, detail: status === 404 ? detail + this.baseUrlHint() : detail, transient, mayHaveArrived: status !== 429, retryAfterMs },
    });
    const nothing: Outcome = { ok: true, answer: { result: undefined, messages: [] } };
    if (text.trim() === '') {
      if (success && (spec.expect === 'none' || spec.dryRun)) return nothing;
      return fail('invalid-response', 'the response has no body, where the API sends a JSON envelope');
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      const type = contentType ? ` (${contentType.split(';')[0].trim()})` : '';
      return fail('invalid-response', `the response is not JSON${type}, so it did not come from the API (a proxy or gateway?): ${this.snippet(text)}`);
    }
    // JSON.parse reads any depth, but what reads the answer next (the key sort of a pull, the
    // YAML writer, JSON.stringify) recurses once per level: an answer nested deeper than a
    // ruleset may be is refused here, as a proxy's page would be.
    if (nestsDeeperThan(body)) return fail('invalid-response', `the response nests deeper than ${MAX_NESTING} levels of objects and lists, which no answer of the API does: ${this.snippet(text)}`);
    if (!isEnvelope(body)) return fail('invalid-response', `the response is JSON but not the API's envelope: ${this.snippet(text)}`);
    if (!success || !body.success) {
      const errors = (body.errors ?? []).map(toApiMessage);
      return fail('api', errors.length > 0 ? describeErrors(errors) : success ? 'the API answered `success: false` without saying why' : 'the API gave no reason', errors);
    }
    const messages = Array.isArray(body.messages) ? body.messages.map(toApiMessage) : [];
    if (spec.expect === 'none' || spec.dryRun) return { ok: true, answer: { result: undefined, messages } };
    const result = body.result;
    const shapeOk = spec.expect === 'array' ? Array.isArray(result) : typeof result === 'object' && result !== null && !Array.isArray(result);
    if (!shapeOk) return fail('invalid-response', `expected ${spec.expect === 'array' ? 'a list' : 'a ruleset'} as the result, found ${this.snippet(JSON.stringify(result) ?? 'nothing')}`);
    const cursor = body.result_info?.cursor;
    return { ok: true, answer: { result, messages, ...(typeof cursor === 'string' && cursor !== '' ? { cursor } : {}) } };
  }

  /** Said with a 404 when the base URL does not end in `/client/v4`: the usual cause. */
  private baseUrlHint(): string {
    const path = this.base.pathname.replace(/\/+$/, '');
    if (path.endsWith('/client/v4')) return '';
    return `; the base URL ${this.base.origin}${path || '/'} does not end in /client/v4, which the API's paths start with: try ${this.base.origin}${path}/client/v4`;
  }

  private snippet(text: string): string {
    // Scrubbed before it is cut, so a secret at the cut cannot leave a readable prefix.
    const flat = this.scrub(text).replace(/\s+/g, ' ').trim();
    return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH)}…` : flat;
  }

  private error(failure: Failure, request: string, attempts: number): ApiError {
    const head = failure.status !== undefined ? `${failure.status} ${statusText(failure.status) ?? 'HTTP status'} from ${request}` : request;
    let message = `${head}: ${failure.detail}`;
    if (failure.retryAfterMs !== undefined) message += ` (the service asks to wait ${seconds(failure.retryAfterMs)} before trying again)`;
    if (attempts > 1) message += ` (gave up after ${attempts} attempts)`;
    return new ApiError(this.scrub(message), failure.kind, {
      status: failure.status,
      errors: failure.errors?.map((e) => ({ ...e, message: this.scrub(e.message) })),
      request,
      attempts,
      retryAfterMs: failure.retryAfterMs,
      ...(failure.kind === 'timeout' ? { timeoutMs: this.timeoutMs } : {}),
    });
  }
}

// ---------------------------------------------------------------- the operations' requests

function createRulesetSpec(body: CreateRulesetBody, options: CallOptions): Omit<RequestSpec, 'expect'> {
  return { method: 'POST', path: '/rulesets', body, signal: options.signal };
}

function updateRulesetSpec(ruleset: RulesetRef, body: UpdateRulesetBody, options: CallOptions): Omit<RequestSpec, 'expect'> {
  return { method: 'PUT', path: rulesetPath(ruleset), body, signal: options.signal };
}

function addRuleSpec(id: string, rule: RuleInput, options: RuleWriteOptions): Omit<RequestSpec, 'expect'> {
  const body = options.position ? { ...rule, position: options.position } : rule;
  return { method: 'POST', path: `${rulesetPath(id)}/rules`, body, signal: options.signal };
}

function updateRuleSpec(id: string, ruleId: string, rule: RuleInput, options: RuleWriteOptions): Omit<RequestSpec, 'expect'> {
  const body = options.position ? { ...rule, position: options.position } : rule;
  return { method: 'PATCH', path: `${rulesetPath(id)}/rules/${segment(ruleId, 'rule id')}`, body, signal: options.signal };
}

function deleteRuleSpec(id: string, ruleId: string, options: CallOptions): Omit<RequestSpec, 'expect'> {
  return { method: 'DELETE', path: `${rulesetPath(id)}/rules/${segment(ruleId, 'rule id')}`, signal: options.signal };
}

function deleteRulesetSpec(id: string, options: CallOptions): Omit<RequestSpec, 'expect'> {
  return { method: 'DELETE', path: rulesetPath(id), signal: options.signal };
}

function deleteVersionSpec(id: string, version: string | number, options: CallOptions): Omit<RequestSpec, 'expect'> {
  return { method: 'DELETE', path: `${rulesetPath(id)}/versions/${segment(String(version), 'version')}`, signal: options.signal };
}

/** `?cursor=…&dry_run=true`, or ''. */
function queryString(spec: Pick<RequestSpec, 'query' | 'dryRun'>): string {
  const params = new URLSearchParams(spec.query);
  if (spec.dryRun) params.set('dry_run', 'true');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The object with `version` as a string, and its rules' too: the service's examples send
 * `"5"`, and a number must compare equal to it. Recursive, on an answer refused past
 * MAX_NESTING levels.
 */
function withStringVersion<T extends { version?: unknown; rules?: readonly unknown[] }>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = { ...value };
  if (typeof out.version === 'number') out.version = String(out.version);
  if (Array.isArray(out.rules)) out.rules = out.rules.map((rule) => withStringVersion(rule as { version?: unknown }));
  return out as T;
}

// ---------------------------------------------------------------- helpers

function parseBaseUrl(baseUrl: string, scrub: (text: string) => string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ApiError(scrub(`the API base URL "${baseUrl}" is not a URL; expected one like https://api.example.com/client/v4`), 'config');
  }
  if (url.username || url.password) throw new ApiError('the API base URL must not hold a user name or password; give credentials separately', 'config');
  if (url.search || url.hash) throw new ApiError(scrub(`the API base URL ${url.origin}${url.pathname} must not have a query or fragment`), 'config');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLocalHost(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new ApiError(`refusing to send credentials over plain http:// to ${url.host}: use https:// (http:// is allowed only for this machine, such as the local emulator)`, 'config');
  }
  throw new ApiError(`the API base URL must start with https:// (found ${url.protocol}//)`, 'config');
}

function authHeaders(credentials: Credentials): Record<string, string> {
  if ('token' in credentials) {
    if (!HEADER_SAFE.test(credentials.token)) throw new ApiError('the API token is empty or has characters a header cannot carry (spaces, line breaks, non-ASCII)', 'config');
    return { authorization: `Bearer ${credentials.token}` };
  }
  if (!HEADER_SAFE.test(credentials.email)) throw new ApiError('the account email is empty or has characters a header cannot carry', 'config');
  if (!HEADER_SAFE.test(credentials.key)) throw new ApiError('the API key is empty or has characters a header cannot carry (spaces, line breaks, non-ASCII)', 'config');
  return { 'x-auth-email': credentials.email, 'x-auth-key': credentials.key };
}

/** A path segment, percent-encoded; an empty one would silently name another resource. */
function segment(value: string, what: string): string {
  if (typeof value !== 'string' || value === '') throw new ApiError(`the ${what} is empty`, 'config');
  return encodeURIComponent(value);
}

function rulesetPath(ruleset: RulesetRef): string {
  return typeof ruleset === 'string' ? `/rulesets/${segment(ruleset, 'ruleset id')}` : `/rulesets/phases/${segment(ruleset.phase, 'phase')}/entrypoint`;
}

/** The caller's signal and the timeout as one; `AbortSignal.any` is missing before Node 20.3 (VS Code's Electron). */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const native = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (native) return native.call(AbortSignal, signals);
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true, signal: controller.signal });
  }
  return controller.signal;
}

function seconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms < 10_000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms / 1000)} s`;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP-date; undefined when unreadable. */
export function parseRetryAfter(value: string, now = Date.now()): number | undefined {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function isEnvelope(body: unknown): body is { result: unknown; success: boolean; errors?: WireMessage[]; messages?: unknown; result_info?: { cursor?: unknown } } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const envelope = body as Record<string, unknown>;
  return typeof envelope.success === 'boolean' && (envelope.errors === undefined || Array.isArray(envelope.errors));
}

function toApiMessage(wire: unknown): ApiMessage {
  if (typeof wire !== 'object' || wire === null) return { message: String(wire) };
  const w = wire as Partial<WireMessage>;
  const message = typeof w.message === 'string' ? w.message : JSON.stringify(wire);
  const pointer = typeof w.source?.pointer === 'string' ? w.source.pointer : undefined;
  return { ...(typeof w.code === 'number' ? { code: w.code } : {}), message, ...(pointer !== undefined ? { pointer } : {}) };
}

/** A warning of the service on one line: `the text (code 20100) at /rules/3/expression`. */
export function describeMessage(message: ApiMessage): string {
  const text = message.message.replace(/\s*\n\s*/g, ' ').trim();
  return `${text}${message.code !== undefined ? ` (code ${message.code})` : ''}${message.pointer ? ` at ${message.pointer}` : ''}`;
}

/** `rules/3/expression: Filter parsing error (1:15): …; name: …`, on one line. */
function describeErrors(errors: readonly ApiMessage[]): string {
  const shown = errors.slice(0, LISTED_ERRORS).map((e) => {
    const message = e.message.replace(/\s*\n\s*/g, ' ').trim();
    const where = e.pointer ? e.pointer.replace(/^\//, '') : '';
    return where ? `${where}: ${message}` : message;
  });
  const more = errors.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

interface NetworkProblem {
  readonly reason: string;
  /** The connection was open, so the request may have been received. */
  readonly connected: boolean;
  readonly transient: boolean;
}

/**
 * Codes that mean the connection never opened, so not one byte of the request left: even a
 * real write may be sent again after them, because the service cannot have seen the first.
 */
const NOT_CONNECTED: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found (DNS)',
  EAI_AGAIN: 'host name lookup failed for now (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
};

const CONNECTED: Record<string, string> = {
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  UND_ERR_SOCKET: 'the connection was closed before the response was complete',
  UND_ERR_CLOSED: 'the connection was closed',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the response body stalled',
};

function describeNetworkError(error: unknown): NetworkProblem {
  const codes: string[] = [];
  let message = '';
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (e instanceof Error && e.message && e.message !== 'fetch failed') message ||= e.message;
  }
  for (const code of codes) {
    if (NOT_CONNECTED[code]) return { reason: `${NOT_CONNECTED[code]} (${code})`, connected: false, transient: true };
  }
  for (const code of codes) {
    if (CONNECTED[code]) return { reason: `${CONNECTED[code]} (${code})`, connected: true, transient: true };
  }
  if (/redirect/i.test(message)) {
    // Following it would send the credentials wherever it points.
    return { reason: 'the service answered with a redirect, which is not followed (credentials would go with it); check the base URL', connected: true, transient: false };
  }
  const code = codes[0];
  // A certificate that does not verify will not verify on a second try either.
  const tls = code !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code);
  return { reason: tls ? `TLS failed (${code}): check the URL and the certificate` : message || code || 'the request failed', connected: true, transient: !tls };
}
