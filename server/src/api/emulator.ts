/**
 * A local stand-in for the Rulesets HTTP API (`shared/spec/API.md`): a real HTTP server on the
 * loopback interface that answers every operation at `/client/v4/accounts/{a}/…` and
 * `/client/v4/zones/{z}/…` with the service's semantics, for tests and for trying the editor
 * commands without an account. It answers as API.md's "How the real service answers" says
 * the service does, never as our client would like: `test/api/contract.test.ts` holds one row
 * per fact of that section.
 *
 * - **Credentials** it accepts (unless `credentials` says otherwise): the API token
 *   `emulator-token` (`Authorization: Bearer emulator-token`), or the email `dev@example.com`
 *   with the key `emulator-key` (`X-Auth-Email` / `X-Auth-Key`). None: 401; wrong ones: 403.
 *   Any account or zone id is accepted; each has its own rulesets.
 * - **Rulesets** get 32-hex-digit ids; every change makes a new version (`"1"`, `"2"`, …, never
 *   reused, not even after a version is deleted), kept as a full snapshot with its rules. A
 *   rule that a change leaves as it was keeps its `version` and `last_updated`.
 * - **Entry points**: a phase's entry point is its ruleset of kind `root` (accounts) or `zone`
 *   (zones); `PUT …/rulesets/phases/{phase}/entrypoint` creates it when missing.
 * - **Checks**: a ruleset or rule sent is checked by this project's own checker, so every phase
 *   and action it accepts is accepted, at account and zone level alike: an error in an
 *   expression answers 400 with `source.pointer` `/rules/{i}/expression` and the message
 *   `Filter parsing error (line:col): …` (1-based; the column in UTF-8 bytes, as the service
 *   counts); other mistakes carry the pointer of the key at fault, however deep in
 *   `action_parameters` or `ratelimit` (`/rules/0/action_parameters/from_value/status_code`).
 *   Warnings are accepted.
 * - **`?dry_run=true`** on POST, PUT, PATCH and DELETE checks everything and stores nothing;
 *   a success answers `"result": null` (or 204 where the real call does). `dry_run` other than
 *   `true` or `false`: 400.
 * - **PATCH a rule replaces it** with the body: a field left out is gone. Rule fields it does
 *   not use (`ratelimit`, `categories`, …) are kept as sent. Name, kind and phase never change.
 * - **Lists of rulesets are paged** by cursor (`per_page`, `cursor`, `result_info.cursor`),
 *   `pageSize` to a page by default.
 * - **Rate limit**: `rateLimit.requests` per `rateLimit.windowMs` for each credential (1,200 per
 *   5 minutes by default); past it, 429 with `Retry-After` until a window has passed.
 * - **Storage**: in memory, or in `dataFile` (JSON, rewritten atomically after each change and
 *   read on start).
 * - **Zones** with names: `GET /zones?name=` answers as the API's List Zones (`result: [{id,
 *   name, account: {id}}]`, paged by `page` and `per_page`). They come from `dataFile`'s
 *   `zones`, `state.addZone`, or `POST /__emulator/zones` (a running emulator). Rulesets are
 *   kept per account and zone, each with its versions, whether or not a zone has a name.
 * - **Faults** for tests: `emulator.faults.push({method, path, respond})`, consumed in order;
 *   `emulator.failRequest({failRequest: n, …})` (or `POST /__emulator/faults`, or the option
 *   `faults`) makes the n-th request from then on fail (500, or a dropped connection) before
 *   or after its write is stored; `emulator.notices.push({method, path, message})` adds a
 *   warning to the `messages` of the next successful matching answer.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unmapOffset } from '../documents/host/index';
import { ExpressionCache } from '../documents/expression-cache';
import { checkParsedRuleset } from '../documents/ruleset';
import { parseRuleset } from '../documents/parsed-ruleset';
import { MAX_NESTING, nestsDeeperThan } from '../documents/host/index';
import { lineColumnOf, pointerAtOffset, sitePointer } from './pointer';
import { SERVICE_SET_RULE_FIELDS, type ApiMessage, type Rule, type Ruleset, type RulesetKind, type RulesetSummary, type WireMessage } from './types';

// node:http and node:crypto on first use: this module is in the CLI's bundle, and a check that
// never starts the emulator should not pay for loading them (~10 ms of every start).
const http = (): typeof import('node:http') => require('node:http');
const crypto = (): typeof import('node:crypto') => require('node:crypto');

export const EMULATOR_TOKEN = 'emulator-token';
export const EMULATOR_EMAIL = 'dev@example.com';
export const EMULATOR_KEY = 'emulator-key';
/** An account id to use with the emulator (any other works as well). */
export const EMULATOR_ACCOUNT_ID = '0123456789abcdef0123456789abcdef';
export const EMULATOR_ZONE_ID = 'fedcba9876543210fedcba9876543210';

export interface EmulatorCredentials {
  readonly token?: string;
  readonly email?: string;
  readonly key?: string;
}

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Where state is kept between runs; in memory only when left out. */
  readonly dataFile?: string;
  /** The accepted credentials; each left out takes its default (`emulator-token`, …). */
  readonly credentials?: EmulatorCredentials;
  /** The clock, for `last_updated` and the rate limit. */
  readonly now?: () => Date;
  /** Rulesets on one page of the list when the request does not say (`per_page`). Default 20. */
  readonly pageSize?: number;
  /** Requests each credential may make in a window; past it, 429 until the window has passed. */
  readonly rateLimit?: { readonly requests: number; readonly windowMs: number };
  /** A fault armed from the start (as `Emulator.failRequest`): the n-th request fails. */
  readonly faults?: RequestFault;
}

/**
 * A fault at the n-th request from when it is armed (1: the next), counting only requests that
 * match `method` and `path`: it answers 500 (or `respond`), or drops the connection, without
 * storing the request's change, or (`after`) once the change is stored. A test arms it at each
 * request in turn to see that a failure anywhere leaves every ruleset whole.
 */
export interface RequestFault {
  readonly failRequest: number;
  /** `500` (the default), another status, or `'drop'`: the connection closes without an answer. */
  readonly respond?: number | 'drop';
  /** Store the request's change first: it reached the service, although the client saw a failure. */
  readonly after?: boolean;
  readonly method?: string;
  readonly path?: RegExp;
}

/** A zone the emulator knows by name, as List Zones answers it. */
export interface EmulatorZone {
  readonly id: string;
  readonly name: string;
  readonly account: { readonly id: string };
}

/** The service's documented rate limit: 1,200 requests per 5 minutes per user. */
export const SERVICE_RATE_LIMIT = { requests: 1200, windowMs: 5 * 60_000 } as const;
/** The most rulesets one page holds, whatever `per_page` asks. */
const MAX_PAGE_SIZE = 50;

/** What a fault answers instead of the emulator. */
export type FaultResponse =
  | { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: unknown }
  /** Never answers; the connection stays open until the client gives up. */
  | 'hang'
  /** Closes the connection without an answer. */
  | 'drop'
  /** A proxy's 502 page in HTML. */
  | 'html';

export interface Fault {
  /** Only requests with this method (any when left out). */
  readonly method?: string;
  /** Only requests whose path (from `/client/v4`, with the query) matches. */
  readonly path?: RegExp;
  readonly respond: FaultResponse;
  /**
   * Run the request first (storing what it changes), then answer with the fault: a change
   * that reached the service although the client saw an error.
   */
  readonly after?: boolean;
}

/** A warning the next successful matching answer carries in its `messages`. */
export interface Notice {
  readonly method?: string;
  readonly path?: RegExp;
  readonly message: WireMessage;
}

export interface RecordedRequest {
  readonly method: string;
  /** From `/client/v4`, with the query. */
  readonly path: string;
}

export interface Emulator {
  /** `http://127.0.0.1:PORT/client/v4` */
  readonly baseUrl: string;
  readonly port: number;
  readonly state: EmulatorState;
  /** Faults to answer with, first match first; each is used once. */
  readonly faults: Fault[];
  /** Warnings to add to answers, first match first; each is used once. */
  readonly notices: Notice[];
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Arms a fault at the n-th request from now (replacing one armed before); `undefined` disarms. */
  failRequest(fault: RequestFault | undefined): void;
  /** The fault still armed, with the requests left before it fires. */
  readonly armedFault: (RequestFault & { readonly remaining: number }) | undefined;
  close(): Promise<void>;
}

// ---------------------------------------------------------------- state

type Scope = 'accounts' | 'zones';
type Owner = { readonly scope: Scope; readonly id: string };

interface StoredRuleset {
  readonly id: string;
  /** `managed` rulesets are the service's own: every account and zone sees them, none may change them. */
  readonly scope: Scope | 'managed';
  readonly owner: string;
  nextVersion: number;
  /** Every version not deleted, oldest first; the last is the latest. */
  versions: Ruleset[];
}

/** The emulator's data as stored in `dataFile`. */
export interface EmulatorData {
  readonly format: 1;
  readonly rulesets: readonly StoredRuleset[];
  /** The zones known by name (optional: files written before zones had names hold none). */
  readonly zones?: readonly EmulatorZone[];
}

/** Input of `addManagedRuleset`. */
export interface ManagedRulesetInput {
  readonly name: string;
  readonly phase: string;
  readonly description?: string;
  readonly rules: readonly (Partial<Omit<Rule, 'id' | 'version' | 'last_updated'>> & { readonly expression: string; readonly action: string })[];
}

export class EmulatorState {
  private rulesets = new Map<string, StoredRuleset>();
  private zoneList = new Map<string, EmulatorZone>();
  /** In a copy (clone), the rulesets still shared with the state it was copied from: each is copied when first taken to change (stored). */
  private shared: Set<string> | undefined;

  constructor(data?: EmulatorData) {
    for (const stored of data?.rulesets ?? []) this.rulesets.set(stored.id, stored);
    for (const zone of data?.zones ?? []) this.zoneList.set(zone.id, zone);
  }

  toJSON(): EmulatorData {
    return { format: 1, rulesets: [...this.rulesets.values()], ...(this.zoneList.size > 0 ? { zones: [...this.zoneList.values()] } : {}) };
  }

  /**
   * Adds a zone with a name (or renames the zone of that id), in an account (the emulator's
   * by default); a new id when none is given. The same name may be in several accounts, as
   * on the service.
   */
  addZone(input: { readonly name: string; readonly id?: string; readonly account?: string }): EmulatorZone {
    const problem = zoneInputProblem(input);
    if (problem) throw new Error(problem);
    const zone: EmulatorZone = { id: input.id ?? newId(), name: input.name.toLowerCase(), account: { id: input.account ?? EMULATOR_ACCOUNT_ID } };
    this.zoneList.set(zone.id, zone);
    return zone;
  }

  /** Every zone with a name, in the order they were added. */
  zones(): EmulatorZone[] {
    return [...this.zoneList.values()];
  }

  /**
   * A copy, which a request changes and which replaces the state only when it succeeds. Its
   * rulesets are copied one by one as a request takes them to change (stored): copying them all
   * for every write made the emulator slower with each ruleset it held (a plan of 200 zones
   * into one holding 600 took six times as long).
   */
  clone(): EmulatorState {
    const copy = new EmulatorState();
    copy.rulesets = new Map(this.rulesets);
    copy.zoneList = new Map(this.zoneList);
    copy.shared = new Set(this.rulesets.keys());
    return copy;
  }

  adopt(other: EmulatorState): void {
    this.rulesets = other.rulesets;
    this.zoneList = other.zoneList;
  }

  /** The latest version of a ruleset, or undefined when there is none. */
  latest(id: string): Ruleset | undefined {
    return this.rulesets.get(id)?.versions.at(-1);
  }

  /** The versions a ruleset still has, oldest first. */
  versions(id: string): string[] {
    return this.rulesets.get(id)?.versions.map((v) => v.version) ?? [];
  }

  /** Every ruleset's latest version. */
  all(): Ruleset[] {
    return [...this.rulesets.values()].map((r) => r.versions.at(-1)!);
  }

  /**
   * Adds a managed ruleset (as the service publishes them), seen by every account and zone
   * and read-only through the API; rules may carry `categories` for `by_tag`.
   */
  addManagedRuleset(input: ManagedRulesetInput, now = new Date()): Ruleset {
    const stored: StoredRuleset = { id: newId(), scope: 'managed', owner: '', nextVersion: 1, versions: [] };
    this.rulesets.set(stored.id, stored);
    const drafts = input.rules.map((rule) => ({ input: rule as Record<string, unknown> }));
    return commitVersion(stored, { name: input.name, description: input.description ?? '', kind: 'managed', phase: input.phase }, drafts, now.toISOString());
  }

  /** @internal A ruleset as a request may change it (in a copy, its own copy of it). */
  stored(id: string): StoredRuleset | undefined {
    const stored = this.rulesets.get(id);
    if (!stored || !this.shared?.has(id)) return stored;
    const own = structuredClone(stored);
    this.rulesets.set(id, own);
    this.shared.delete(id);
    return own;
  }

  /** @internal Every ruleset, to read only: one to change is taken with stored(id). */
  storedAll(): readonly StoredRuleset[] {
    return [...this.rulesets.values()];
  }

  /** @internal */
  add(stored: StoredRuleset): void {
    this.rulesets.set(stored.id, stored);
  }

  /** @internal */
  remove(id: string): void {
    this.rulesets.delete(id);
    this.shared?.delete(id);
  }
}

const HEX_ID = /^[0-9a-f]{32}$/;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** What is wrong with a zone to add, or undefined. */
function zoneInputProblem(input: unknown): string | undefined {
  if (!isObject(input)) return 'a zone is an object: {"name": "example.com", "id"?: "<32 hex digits>", "account"?: "<32 hex digits>"}';
  if (typeof input.name !== 'string' || !DOMAIN.test(input.name)) return `a zone's name is a domain like "example.com", found ${JSON.stringify(input.name)}`;
  if (input.id !== undefined && (typeof input.id !== 'string' || !HEX_ID.test(input.id))) return `a zone's id is 32 lowercase hex digits, found ${JSON.stringify(input.id)}`;
  if (input.account !== undefined && (typeof input.account !== 'string' || !HEX_ID.test(input.account))) return `an account id is 32 lowercase hex digits, found ${JSON.stringify(input.account)}`;
  return undefined;
}

function newId(): string {
  return crypto().randomBytes(16).toString('hex');
}

interface RuleDraft {
  /** The rule's fields as sent (or merged with the rule it updates). */
  readonly input: Readonly<Record<string, unknown>>;
  /** The rule it updates, whose id and ref it keeps. */
  readonly previous?: Rule;
}

interface RulesetFields {
  readonly name: string;
  readonly description: string;
  readonly kind: RulesetKind;
  readonly phase: string;
}

/** Makes the next version of a ruleset from its fields and rules. */
function commitVersion(stored: StoredRuleset, fields: RulesetFields, drafts: readonly RuleDraft[], now: string): Ruleset {
  const version = String(stored.nextVersion++);
  const rules = drafts.map((draft) => buildRule(draft, version, now));
  const ruleset: Ruleset = { id: stored.id, name: fields.name, description: fields.description, kind: fields.kind, version, last_updated: now, phase: fields.phase, rules };
  stored.versions.push(ruleset);
  return ruleset;
}

function buildRule(draft: RuleDraft, version: string, now: string): Rule {
  const { input, previous } = draft;
  const id = previous?.id ?? newId();
  const rule = {
    // Fields the emulator does not use (`ratelimit`, `categories`, …) are kept as sent.
    ...input,
    id,
    version,
    action: String(input.action),
    expression: String(input.expression),
    description: typeof input.description === 'string' ? input.description : '',
    last_updated: now,
    ref: typeof input.ref === 'string' && input.ref !== '' ? input.ref : (previous?.ref ?? id),
    enabled: typeof input.enabled === 'boolean' ? input.enabled : true,
  } as Rule;
  // A rule the change left as it was keeps the version and time it last changed in.
  if (previous && sameRule(previous, rule)) return previous;
  return rule;
}

function sameRule(a: Rule, b: Rule): boolean {
  return JSON.stringify(sortedDefinition(a)) === JSON.stringify(sortedDefinition(b));
}

function sortedDefinition(rule: Rule): unknown {
  const definition = ruleFields(rule);
  return Object.keys(definition)
    .sort()
    .map((key) => [key, definition[key]]);
}

function summary(ruleset: Ruleset): RulesetSummary {
  const { rules: _rules, ...rest } = ruleset;
  return rest;
}

// ---------------------------------------------------------------- errors

const CODE = {
  auth: 10000,
  noRoute: 7000,
  method: 7001,
  badJson: 10014,
  notFound: 10007,
  invalid: 20021,
  position: 20022,
  conflict: 20023,
  tooLarge: 10013,
  rateLimited: 971,
} as const;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errors: readonly ApiMessage[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(errors.map((e) => e.message).join('; '));
  }
}

function fail(status: number, code: number, message: string, pointer?: string): HttpError {
  return new HttpError(status, [{ code, message, ...(pointer !== undefined ? { pointer } : {}) }]);
}

function toWire(message: ApiMessage): WireMessage {
  return { ...(message.code !== undefined ? { code: message.code } : {}), message: message.message, ...(message.pointer !== undefined ? { source: { pointer: message.pointer } } : {}) };
}

// ---------------------------------------------------------------- checks

/**
 * The errors our checker finds in a ruleset as the service would report them: expression
 * errors as `Filter parsing error (line:col): …` at the expression's pointer (`/rules/{i}/expression`,
 * or a nested one such as `/rules/{i}/action_parameters/uri/path/expression`), the others at
 * the pointer of the key at fault. `pointer` maps the checked object's pointers to the
 * request body's.
 */
/**
 * The service's check of a ruleset body, remembered by the body's text: a check is a function of
 * the body alone, and a deploy, a plan's apply or a retry sends the same body again and again
 * (checking it was half the time of a write). Bounded by the characters of the bodies kept.
 */
export class RulesetValidator {
  private readonly verdicts = new Map<string, readonly ApiMessage[]>();
  private keptCharacters = 0;

  constructor(
    readonly cache: ExpressionCache = new ExpressionCache(),
    private readonly budgetCharacters = 8_000_000,
  ) {}

  /** The body's errors, each `pointer` mapped by `pointer` (a rule checked alone is checked as rule 0 of a ruleset). */
  validate(candidate: Record<string, unknown>, pointer: (p: string) => string = (p) => p): ApiMessage[] {
    const text = JSON.stringify(candidate, null, 1);
    let verdict = this.verdicts.get(text);
    if (verdict) {
      // Least recently used goes first.
      this.verdicts.delete(text);
      this.verdicts.set(text, verdict);
    } else {
      verdict = checkBody(text, this.cache);
      this.keep(text, verdict);
    }
    return verdict.map((m) => (m.pointer === undefined ? m : { ...m, pointer: pointer(m.pointer) }));
  }

  private keep(text: string, verdict: readonly ApiMessage[]): void {
    if (text.length > this.budgetCharacters) return;
    this.verdicts.set(text, verdict);
    this.keptCharacters += text.length;
    for (const oldest of this.verdicts.keys()) {
      if (this.keptCharacters <= this.budgetCharacters) break;
      this.verdicts.delete(oldest);
      this.keptCharacters -= oldest.length;
    }
  }
}

function checkBody(text: string, cache: ExpressionCache): ApiMessage[] {
  const model = parseRuleset(text, 'json');
  const errors: ApiMessage[] = [];
  for (const problem of checkParsedRuleset(model, { cache })) {
    if (problem.severity !== 'error') continue;
    const site = model.sites.find((s) => problem.start >= s.node.start && problem.start < s.node.end);
    if (site) {
      const decoded = site.decoded();
      const index = Math.min(unmapOffset(decoded, problem.start), decoded.value.length);
      const { line, column } = lineColumnOf(decoded.value, index);
      errors.push({ code: CODE.invalid, message: `Filter parsing error (${line}:${column}): ${problem.message}`, pointer: sitePointer(site) });
    } else {
      errors.push({ code: CODE.invalid, message: problem.message, pointer: model.root ? pointerAtOffset(model.root, problem.start) : '' });
    }
  }
  return errors;
}

function throwIfInvalid(errors: readonly ApiMessage[]): void {
  if (errors.length > 0) throw new HttpError(400, errors);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A rule's definition in a body: every field but those the service sets, its id and a
 * `position`: what the service stores, unused fields included.
 */
function ruleInput(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'id' || key === 'position' || SERVICE_SET_RULE_FIELDS.includes(key) || value === undefined) continue;
    input[key] = value;
  }
  return input;
}

function ruleFields(rule: Rule): Record<string, unknown> {
  return ruleInput(rule as unknown as Record<string, unknown>);
}

// ---------------------------------------------------------------- positions

/**
 * Where `position` puts a rule in `rules` (which does not hold the rule being moved): an index
 * to insert at. Undefined position: at the end (add) or where it was (`current`, move).
 */
function positionIndex(position: unknown, rules: readonly Rule[], current: number | undefined, ruleId?: string): number {
  if (position === undefined) return current ?? rules.length;
  const keys = isObject(position) ? Object.keys(position) : [];
  if (!isObject(position) || keys.length !== 1 || !['before', 'after', 'index'].includes(keys[0])) {
    throw fail(400, CODE.position, 'expected `position` to be exactly one of {"before": "<rule id>"}, {"after": "<rule id>"} or {"index": n}', '/position');
  }
  const [key] = keys;
  const value = position[key];
  if (key === 'index') {
    const last = rules.length + 1;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw fail(400, CODE.position, `expected \`position.index\` to be a whole number from 1 to ${last}`, '/position/index');
    if (value < 1 || value > last) throw fail(400, CODE.position, `position index ${value} is out of range: expected 1 to ${last}`, '/position/index');
    return value - 1;
  }
  if (typeof value !== 'string') throw fail(400, CODE.position, `expected \`position.${key}\` to be a rule id, or "" for ${key === 'before' ? 'the first place' : 'the last place'}`, `/position/${key}`);
  if (value === '') return key === 'before' ? 0 : rules.length;
  if (value === ruleId && current !== undefined) return current;
  const at = rules.findIndex((r) => r.id === value);
  if (at === -1) throw fail(400, CODE.position, `no rule with id ${value} in this ruleset to put the rule ${key}`, `/position/${key}`);
  return key === 'before' ? at : at + 1;
}

// ---------------------------------------------------------------- operations

interface Context {
  readonly state: EmulatorState;
  readonly owner: Owner;
  readonly params: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly now: string;
  readonly validator: RulesetValidator;
  readonly query: URLSearchParams;
  readonly pageSize: number;
}

interface Reply {
  readonly status: 200 | 204;
  readonly result?: unknown;
  readonly resultInfo?: Readonly<Record<string, unknown>>;
}

type Operation = (ctx: Context) => Reply;

const ENTRY_KIND: Record<Scope, RulesetKind> = { accounts: 'root', zones: 'zone' };
const CREATABLE_KINDS: Record<Scope, readonly string[]> = { accounts: ['root', 'custom'], zones: ['zone', 'custom'] };

function visible(stored: StoredRuleset, owner: Owner): boolean {
  return stored.scope === 'managed' || (stored.scope === owner.scope && stored.owner === owner.id);
}

function findRuleset(ctx: Context): StoredRuleset {
  const { id, phase } = ctx.params;
  if (phase !== undefined) {
    const entry = findEntryPoint(ctx.state, ctx.owner, phase);
    if (!entry) throw fail(404, CODE.notFound, `no entry point ruleset for phase ${phase}; deploy one with PUT …/rulesets/phases/${phase}/entrypoint`);
    return entry;
  }
  const stored = ctx.state.stored(id);
  if (!stored || !visible(stored, ctx.owner)) throw fail(404, CODE.notFound, `could not find ruleset ${id}`);
  return stored;
}

function findEntryPoint(state: EmulatorState, owner: Owner, phase: string): StoredRuleset | undefined {
  const found = state.storedAll().find((r) => r.scope === owner.scope && r.owner === owner.id && r.versions.at(-1)!.kind === ENTRY_KIND[owner.scope] && r.versions.at(-1)!.phase === phase);
  return found && state.stored(found.id);
}

/** A ruleset that the caller may change. */
function findWritable(ctx: Context): StoredRuleset {
  const stored = findRuleset(ctx);
  if (stored.scope === 'managed') throw fail(400, CODE.conflict, `ruleset ${stored.id} is a managed ruleset and cannot be changed; configure it with an \`execute\` rule in a phase entry point`);
  return stored;
}

function findVersion(ctx: Context, stored: StoredRuleset): Ruleset {
  const found = stored.versions.find((v) => v.version === ctx.params.version);
  if (!found) throw fail(404, CODE.notFound, `ruleset ${stored.id} has no version ${ctx.params.version}`);
  return found;
}

function findRule(stored: StoredRuleset, ruleId: string): { latest: Ruleset; index: number } {
  const latest = stored.versions.at(-1)!;
  const index = latest.rules.findIndex((r) => r.id === ruleId);
  if (index === -1) throw fail(404, CODE.notFound, `could not find rule ${ruleId} in ruleset ${stored.id}`);
  return { latest, index };
}

function bodyObject(ctx: Context): Record<string, unknown> {
  if (!isObject(ctx.body)) throw fail(400, CODE.badJson, 'expected the request body to be a JSON object');
  return ctx.body;
}

function fieldsOf(ruleset: Ruleset): RulesetFields {
  return { name: ruleset.name, description: ruleset.description, kind: ruleset.kind, phase: ruleset.phase };
}

/** Checks one rule in the context of its ruleset; pointers come back relative to the rule. */
function validateRule(rule: Record<string, unknown>, ruleset: RulesetFields, validator: RulesetValidator): void {
  const candidate = { name: ruleset.name, kind: ruleset.kind, phase: ruleset.phase, rules: [rule] };
  throwIfInvalid(validator.validate(candidate, (p) => (p.startsWith('/rules/0') ? p.slice('/rules/0'.length) : p)));
}

/** The rules of a PUT body as drafts: a rule that names an id of this ruleset updates that rule. */
function ruleDrafts(rules: readonly unknown[], previous: readonly Rule[]): RuleDraft[] {
  const seen = new Set<string>();
  return rules.map((rule, i) => {
    const body = rule as Record<string, unknown>;
    if (body.id === undefined) return { input: ruleInput(body) };
    const id = String(body.id);
    const match = previous.find((r) => r.id === id);
    if (!match) throw fail(400, CODE.invalid, `no rule with id ${id} in this ruleset; leave \`id\` out to add a new rule`, `/rules/${i}/id`);
    if (seen.has(id)) throw fail(400, CODE.invalid, `rule id ${id} is given twice`, `/rules/${i}/id`);
    seen.add(id);
    return { input: ruleInput(body), previous: match };
  });
}

/** A page's cursor: where the next page starts, opaque to the client. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  let offset: unknown;
  try {
    offset = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown }).o;
  } catch {
    offset = undefined;
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw fail(400, CODE.invalid, `invalid cursor ${JSON.stringify(cursor)}: use the one result_info.cursor gave`);
  return offset;
}

/**
 * List Zones (`GET /zones`): the zones with names, filtered by `name` (the whole name, any case)
 * and `account.id`, paged by `page` and `per_page` (5 to 50, 20 by default) as the API does.
 */
function listZones(state: EmulatorState, query: URLSearchParams): Reply {
  const name = query.get('name')?.toLowerCase();
  const account = query.get('account.id');
  const all = state.zones().filter((z) => (name === undefined || z.name === name) && (account === null || z.account.id === account));
  const perPageText = query.get('per_page') ?? '20';
  const pageText = query.get('page') ?? '1';
  if (!/^[1-9]\d*$/.test(perPageText) || Number(perPageText) < 5 || Number(perPageText) > 50) throw fail(400, CODE.invalid, `per_page must be a whole number from 5 to 50, found ${JSON.stringify(perPageText)}`);
  if (!/^[1-9]\d*$/.test(pageText)) throw fail(400, CODE.invalid, `page must be a whole number from 1, found ${JSON.stringify(pageText)}`);
  const perPage = Number(perPageText);
  const page = Number(pageText);
  const result = all.slice((page - 1) * perPage, page * perPage).map((z) => ({ id: z.id, name: z.name, status: 'active', account: { id: z.account.id, name: `account ${z.account.id.slice(0, 8)}` } }));
  return { status: 200, result, resultInfo: { page, per_page: perPage, count: result.length, total_count: all.length, total_pages: Math.max(1, Math.ceil(all.length / perPage)) } };
}

const listRulesets: Operation = (ctx) => {
  const all = ctx.state
    .storedAll()
    .filter((r) => visible(r, ctx.owner))
    .map((r) => summary(r.versions.at(-1)!));
  const perPageText = ctx.query.get('per_page');
  if (perPageText !== null && !/^[1-9]\d*$/.test(perPageText)) throw fail(400, CODE.invalid, `per_page must be a whole number from 1 to ${MAX_PAGE_SIZE}, found ${JSON.stringify(perPageText)}`);
  const perPage = Math.min(MAX_PAGE_SIZE, perPageText !== null ? Number(perPageText) : ctx.pageSize);
  const cursor = ctx.query.get('cursor');
  const offset = cursor !== null && cursor !== '' ? decodeCursor(cursor) : 0;
  const page = all.slice(offset, offset + perPage);
  const next = offset + perPage < all.length ? encodeCursor(offset + perPage) : undefined;
  return { status: 200, result: page, resultInfo: { count: page.length, per_page: perPage, ...(next !== undefined ? { cursor: next } : {}) } };
};

const getRuleset: Operation = (ctx) => ({ status: 200, result: findRuleset(ctx).versions.at(-1) });

const listVersions: Operation = (ctx) => {
  // A phase without an entry point has no versions: an empty list, not a 404.
  if (ctx.params.phase !== undefined && !findEntryPoint(ctx.state, ctx.owner, ctx.params.phase)) return { status: 200, result: [] };
  return { status: 200, result: findRuleset(ctx).versions.map(summary) };
};

const getVersion: Operation = (ctx) => ({ status: 200, result: findVersion(ctx, findRuleset(ctx)) });

const rulesByTag: Operation = (ctx) => {
  const version = findVersion(ctx, findRuleset(ctx));
  return { status: 200, result: { ...version, rules: version.rules.filter((r) => r.categories?.includes(ctx.params.tag)) } };
};

const createRuleset: Operation = (ctx) => {
  const body = bodyObject(ctx);
  // API.md, op 6: the create's body is `{name, kind, phase, description?, rules}`. The check
  // below asks only for `rules`, which is all an entry point's PUT needs (op 7).
  const missing = ['name', 'kind', 'phase'].filter((key) => body[key] === undefined);
  if (missing.length > 0) throw new HttpError(400, missing.map((key) => ({ code: CODE.invalid, message: `\`${key}\` is required to create a ruleset`, pointer: `/${key}` })));
  throwIfInvalid(ctx.validator.validate(body));
  const kind = body.kind as RulesetKind;
  const phase = String(body.phase);
  if (!CREATABLE_KINDS[ctx.owner.scope].includes(kind)) {
    const allowed = CREATABLE_KINDS[ctx.owner.scope].map((k) => `\`${k}\``).join(' or ');
    throw fail(400, CODE.invalid, `a ruleset of kind \`${kind}\` cannot be created in ${ctx.owner.scope === 'accounts' ? 'an account' : 'a zone'}; expected ${allowed}`, '/kind');
  }
  if (kind === ENTRY_KIND[ctx.owner.scope] && findEntryPoint(ctx.state, ctx.owner, phase)) {
    throw fail(400, CODE.conflict, `phase ${phase} already has an entry point ruleset; update it with PUT …/rulesets/phases/${phase}/entrypoint`, '/phase');
  }
  const stored: StoredRuleset = { id: newId(), scope: ctx.owner.scope, owner: ctx.owner.id, nextVersion: 1, versions: [] };
  ctx.state.add(stored);
  const fields = { name: String(body.name), description: typeof body.description === 'string' ? body.description : '', kind, phase };
  const drafts = ruleDrafts(body.rules as unknown[], []);
  return { status: 200, result: commitVersion(stored, fields, drafts, ctx.now) };
};

const updateRuleset: Operation = (ctx) => {
  const body = bodyObject(ctx);
  let stored: StoredRuleset;
  let current: RulesetFields;
  const phase = ctx.params.phase;
  const entry = phase !== undefined ? findEntryPoint(ctx.state, ctx.owner, phase) : undefined;
  if (phase !== undefined && !entry) {
    // Deploying to a phase that has no entry point yet creates it.
    stored = { id: newId(), scope: ctx.owner.scope, owner: ctx.owner.id, nextVersion: 1, versions: [] };
    current = { name: 'default', description: '', kind: ENTRY_KIND[ctx.owner.scope], phase };
  } else {
    stored = entry ?? findWritable(ctx);
    current = fieldsOf(stored.versions.at(-1)!);
  }
  const candidate = { ...body, name: body.name ?? current.name, kind: body.kind ?? current.kind, phase: body.phase ?? current.phase };
  throwIfInvalid(ctx.validator.validate(candidate));
  if (candidate.name !== current.name && stored.versions.length > 0) throw fail(400, CODE.invalid, `the name of a ruleset cannot change (it is \`${current.name}\`); leave \`name\` out or send it unchanged`, '/name');
  if (candidate.kind !== current.kind) throw fail(400, CODE.invalid, kindMismatch(ctx.owner.scope, phase, candidate.kind, current.kind), '/kind');
  if (candidate.phase !== current.phase) throw fail(400, CODE.invalid, `the phase of a ruleset cannot change (it is \`${current.phase}\`)`, '/phase');
  const previousRules = stored.versions.at(-1)?.rules ?? [];
  const drafts = ruleDrafts(body.rules as unknown[], previousRules);
  if (stored.versions.length === 0) ctx.state.add(stored);
  const fields = { ...current, name: String(candidate.name), description: typeof body.description === 'string' ? body.description : current.description };
  return { status: 200, result: commitVersion(stored, fields, drafts, ctx.now) };
};

/** Why a PUT's `kind` is refused: an entry point of the other level says where it belongs. */
function kindMismatch(scope: Scope, phase: string | undefined, sent: unknown, kind: RulesetKind): string {
  const otherScope = (Object.keys(ENTRY_KIND) as Scope[]).find((s) => s !== scope)!;
  if (phase !== undefined && sent === ENTRY_KIND[otherScope]) {
    const here = scope === 'accounts' ? 'an account' : 'a zone';
    return `the entry point of phase ${phase} in ${here} is of kind \`${kind}\`; kind \`${sent}\` is the entry point of ${otherScope === 'accounts' ? 'an account' : 'a zone'} (/${otherScope}/{id}/rulesets/phases/${phase}/entrypoint)`;
  }
  return `the kind of a ruleset cannot change (it is \`${kind}\`)`;
}

const addRule: Operation = (ctx) => {
  const body = bodyObject(ctx);
  const stored = findWritable(ctx);
  const latest = stored.versions.at(-1)!;
  const { position, ...rule } = body;
  validateRule(rule, latest, ctx.validator);
  if (rule.id !== undefined) throw fail(400, CODE.invalid, 'a new rule gets its id from the service; leave `id` out', '/id');
  const drafts: RuleDraft[] = latest.rules.map((r) => ({ input: ruleFields(r), previous: r }));
  drafts.splice(positionIndex(position, latest.rules, undefined), 0, { input: ruleInput(rule) });
  return { status: 200, result: commitVersion(stored, fieldsOf(latest), drafts, ctx.now) };
};

const updateRule: Operation = (ctx) => {
  const body = bodyObject(ctx);
  const stored = findWritable(ctx);
  const { latest, index } = findRule(stored, ctx.params.ruleId);
  const { position, ...fields } = body;
  if (fields.id !== undefined && fields.id !== ctx.params.ruleId) throw fail(400, CODE.invalid, `the rule id cannot change (it is ${ctx.params.ruleId})`, '/id');
  const previous = latest.rules[index];
  // The body is the rule's whole new definition: what it leaves out is gone.
  const definition = ruleInput(fields);
  validateRule(definition, latest, ctx.validator);
  const others = latest.rules.filter((_, i) => i !== index);
  const drafts: RuleDraft[] = others.map((r) => ({ input: ruleFields(r), previous: r }));
  drafts.splice(positionIndex(position, others, index, previous.id), 0, { input: definition, previous });
  return { status: 200, result: commitVersion(stored, fieldsOf(latest), drafts, ctx.now) };
};

const deleteRule: Operation = (ctx) => {
  const stored = findWritable(ctx);
  const { latest, index } = findRule(stored, ctx.params.ruleId);
  const drafts = latest.rules.filter((_, i) => i !== index).map((r) => ({ input: ruleFields(r), previous: r }));
  return { status: 200, result: commitVersion(stored, fieldsOf(latest), drafts, ctx.now) };
};

const deleteRuleset: Operation = (ctx) => {
  ctx.state.remove(findWritable(ctx).id);
  return { status: 204 };
};

const deleteVersion: Operation = (ctx) => {
  const stored = findWritable(ctx);
  const version = findVersion(ctx, stored);
  if (version === stored.versions.at(-1)) {
    throw fail(400, CODE.conflict, `version ${version.version} is the latest version of ruleset ${stored.id} and cannot be deleted; deploy a new version first, or delete the ruleset`);
  }
  stored.versions = stored.versions.filter((v) => v !== version);
  return { status: 204 };
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Route {
  /** Segments after `rulesets`; `:name` is a parameter. */
  readonly pattern: readonly string[];
  readonly methods: Partial<Record<Method, Operation>>;
  /** Documented at account level only: zones have no such path. */
  readonly accountsOnly?: boolean;
}

const ROUTES: readonly Route[] = [
  { pattern: [], methods: { GET: listRulesets, POST: createRuleset } },
  { pattern: ['phases', ':phase', 'entrypoint'], methods: { GET: getRuleset, PUT: updateRuleset } },
  { pattern: ['phases', ':phase', 'entrypoint', 'versions'], methods: { GET: listVersions } },
  { pattern: ['phases', ':phase', 'entrypoint', 'versions', ':version'], methods: { GET: getVersion } },
  { pattern: [':id'], methods: { GET: getRuleset, PUT: updateRuleset, DELETE: deleteRuleset } },
  { pattern: [':id', 'versions'], methods: { GET: listVersions } },
  { pattern: [':id', 'versions', ':version'], methods: { GET: getVersion, DELETE: deleteVersion } },
  { pattern: [':id', 'versions', ':version', 'by_tag', ':tag'], methods: { GET: rulesByTag }, accountsOnly: true },
  { pattern: [':id', 'rules'], methods: { POST: addRule } },
  { pattern: [':id', 'rules', ':ruleId'], methods: { PATCH: updateRule, DELETE: deleteRule } },
];

function matchRoute(segments: readonly string[]): { route: Route; params: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    if (route.pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = route.pattern.every((part, i) => {
      if (part.startsWith(':')) {
        params[part.slice(1)] = segments[i];
        return segments[i] !== '';
      }
      return part === segments[i];
    });
    if (fits) return { route, params };
  }
  return undefined;
}

// ---------------------------------------------------------------- HTTP

const PREFIX = '/client/v4';
/** The emulator's own endpoints (seeding zones, arming faults), outside the API's paths. */
export const ADMIN_PREFIX = '/__emulator';

/** What is wrong with a fault to arm, or undefined. */
function requestFaultProblem(fault: RequestFault): string | undefined {
  if (!Number.isInteger(fault.failRequest) || fault.failRequest < 1) return `failRequest is the number of the request to fail, from 1 (the next), found ${JSON.stringify(fault.failRequest)}`;
  if (fault.respond !== undefined && fault.respond !== 'drop' && !(Number.isInteger(fault.respond) && fault.respond >= 400 && fault.respond <= 599)) return `respond is an HTTP status from 400 to 599, or "drop", found ${JSON.stringify(fault.respond)}`;
  if (fault.after !== undefined && typeof fault.after !== 'boolean') return `after is true or false, found ${JSON.stringify(fault.after)}`;
  return undefined;
}
const MAX_BODY = 5 * 1024 * 1024;

const PROXY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>emulated proxy</center>\r\n</body>\r\n</html>\r\n';

function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendEnvelope(res: ServerResponse, reply: Reply, messages: readonly WireMessage[]): void {
  if (reply.status === 204) {
    res.writeHead(204);
    res.end();
    return;
  }
  sendJson(res, reply.status, { result: reply.result ?? null, success: true, errors: [], messages, ...(reply.resultInfo ? { result_info: reply.resultInfo } : {}) });
}

function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, { result: null, success: false, errors: error.errors.map(toWire), messages: [] }, error.headers);
}

function sendFault(res: ServerResponse, respond: FaultResponse): void {
  if (respond === 'hang') return;
  if (respond === 'drop') {
    res.socket?.destroy();
    return;
  }
  if (respond === 'html') {
    res.writeHead(502, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(PROXY_PAGE) });
    res.end(PROXY_PAGE);
    return;
  }
  const { status, headers = {}, body } = respond;
  if (typeof body === 'string') {
    res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body), ...headers });
    res.end(body);
    return;
  }
  const payload = body ?? { result: null, success: false, errors: [{ code: status, message: `${http().STATUS_CODES[status] ?? 'error'} (emulated fault)` }], messages: [] };
  sendJson(res, status, payload, headers);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the answer can still be sent.
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY) reject(fail(413, CODE.tooLarge, `the request body is larger than ${MAX_BODY} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto().timingSafeEqual(a, b);
}

function authenticate(req: IncomingMessage, accepted: Required<EmulatorCredentials>): void {
  const authorization = req.headers.authorization;
  const email = req.headers['x-auth-email'];
  const key = req.headers['x-auth-key'];
  if (authorization === undefined && email === undefined && key === undefined) {
    throw fail(401, CODE.auth, 'missing credentials: send `Authorization: Bearer <API token>`, or `X-Auth-Email` and `X-Auth-Key`');
  }
  if (authorization !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw fail(401, CODE.auth, 'malformed Authorization header: expected `Bearer <API token>`');
    if (!sameSecret(m[1], accepted.token)) throw fail(403, CODE.auth, 'Authentication error: invalid API token');
    return;
  }
  if (typeof email !== 'string' || typeof key !== 'string') throw fail(401, CODE.auth, 'missing credentials: `X-Auth-Email` and `X-Auth-Key` go together');
  if (!sameSecret(email, accepted.email) || !sameSecret(key, accepted.key)) throw fail(403, CODE.auth, 'Authentication error: unknown email or API key');
}

/** Starts the emulator; it answers at `baseUrl` until `close()`. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const accepted: Required<EmulatorCredentials> = { token: EMULATOR_TOKEN, email: EMULATOR_EMAIL, key: EMULATOR_KEY, ...options.credentials };
  const now = options.now ?? (() => new Date());
  const dataFile = options.dataFile;
  const state = dataFile ? loadState(dataFile) : new EmulatorState();
  const faults: Fault[] = [];
  const notices: Notice[] = [];
  const requests: RecordedRequest[] = [];
  const validator = new RulesetValidator();
  const pageSize = options.pageSize ?? 20;
  const rateLimit = options.rateLimit ?? SERVICE_RATE_LIMIT;
  /** Per credential: the times of its requests in the current window, and until when it is refused. */
  const usage = new Map<string, { times: number[]; blockedUntil: number }>();
  let armed: (RequestFault & { remaining: number }) | undefined;
  const failRequest = (fault: RequestFault | undefined): void => {
    const problem = fault === undefined ? undefined : requestFaultProblem(fault);
    if (problem) throw new Error(problem);
    armed = fault === undefined ? undefined : { ...fault, remaining: fault.failRequest };
  };
  failRequest(options.faults);

  /** The armed fault, when this request is the one it waits for. */
  function takeArmedFault(method: string, path: string): Fault | undefined {
    if (!armed || !isFor(armed, method, path)) return undefined;
    if (--armed.remaining > 0) return undefined;
    const fault = armed;
    armed = undefined;
    const respond: FaultResponse = fault.respond === 'drop' ? 'drop' : { status: fault.respond ?? 500 };
    return { respond, ...(fault.after ? { after: true } : {}) };
  }

  /** `/__emulator/…`: what a test of another process arms or seeds, with the emulator's credentials. */
  async function admin(req: IncomingMessage, method: string, url: URL): Promise<Reply> {
    authenticate(req, accepted);
    const what = url.pathname.slice(ADMIN_PREFIX.length);
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch (error) {
      throw fail(400, CODE.badJson, `the request body is not valid JSON: ${(error as Error).message}`);
    }
    if (what === '/zones' && method === 'GET') return { status: 200, result: state.zones() };
    if (what === '/zones' && method === 'POST') {
      const inputs = Array.isArray(body) ? body : [body];
      for (const input of inputs) {
        const problem = zoneInputProblem(input);
        if (problem) throw fail(400, CODE.invalid, problem);
      }
      const added = inputs.map((input) => state.addZone(input as { name: string; id?: string; account?: string }));
      if (dataFile) saveState(dataFile, state);
      return { status: 200, result: added };
    }
    if (what === '/faults' && method === 'POST') {
      const input = isObject(body) ? body : {};
      const fault: RequestFault = {
        failRequest: input.failRequest as number,
        ...(input.respond !== undefined ? { respond: input.respond as number | 'drop' } : {}),
        ...(input.after !== undefined ? { after: input.after as boolean } : {}),
        ...(typeof input.method === 'string' ? { method: input.method } : {}),
        ...(typeof input.path === 'string' ? { path: new RegExp(input.path) } : {}),
      };
      const problem = requestFaultProblem(fault);
      if (problem) throw fail(400, CODE.invalid, problem);
      failRequest(fault);
      return { status: 200, result: { failRequest: fault.failRequest } };
    }
    if (what === '/faults' && method === 'DELETE') {
      failRequest(undefined);
      return { status: 204 };
    }
    throw fail(404, CODE.noRoute, `No route for that URI: ${url.pathname} (the emulator's own: GET and POST ${ADMIN_PREFIX}/zones, POST and DELETE ${ADMIN_PREFIX}/faults)`);
  }

  function takeNotices(method: string, path: string): WireMessage[] {
    const taken: WireMessage[] = [];
    for (let i = 0; i < notices.length; i++) {
      if (isFor(notices[i], method, path)) {
        taken.push(notices[i].message);
        notices.splice(i--, 1);
      }
    }
    return taken;
  }

  /** Counts a request of the caller; past the limit, 429 until a whole window has passed. */
  function throttle(req: IncomingMessage): void {
    const who = String(req.headers.authorization ?? `${req.headers['x-auth-email']}:${req.headers['x-auth-key']}`);
    const at = now().getTime();
    const entry = usage.get(who) ?? { times: [], blockedUntil: 0 };
    usage.set(who, entry);
    if (at < entry.blockedUntil) throw rateLimited(entry.blockedUntil - at);
    entry.times = entry.times.filter((t) => t > at - rateLimit.windowMs);
    if (entry.times.length >= rateLimit.requests) {
      entry.blockedUntil = at + rateLimit.windowMs;
      throw rateLimited(rateLimit.windowMs);
    }
    entry.times.push(at);
  }

  function rateLimited(ms: number): HttpError {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    return new HttpError(429, [{ code: CODE.rateLimited, message: `rate limited: more than ${rateLimit.requests} requests in ${rateLimit.windowMs / 1000} s; try again in ${seconds} s` }], { 'retry-after': String(seconds) });
  }

  /** Whether a fault or a notice is for this request. */
  function isFor(filter: { readonly method?: string; readonly path?: RegExp }, method: string, path: string): boolean {
    return (!filter.method || filter.method.toUpperCase() === method) && (!filter.path || filter.path.test(path));
  }

  function takeFault(method: string, path: string): Fault | undefined {
    const index = faults.findIndex((f) => isFor(f, method, path));
    return index === -1 ? undefined : faults.splice(index, 1)[0];
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
      // Not an API request: neither recorded nor counted by a fault.
      try {
        sendEnvelope(res, await admin(req, method, url), []);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        sendError(res, error);
      }
      return;
    }
    const path = url.pathname.startsWith(PREFIX) ? `${url.pathname.slice(PREFIX.length)}${url.search}` : `${url.pathname}${url.search}`;
    requests.push({ method, path });
    const fault = takeFault(method, path) ?? takeArmedFault(method, path);
    if (fault && !fault.after) {
      // The body is read first, so the connection is in a clean state for what comes next.
      await readBody(req).catch(() => '');
      sendFault(res, fault.respond);
      return;
    }
    let reply: Reply;
    try {
      reply = await route(req, method, url);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      if (fault) sendFault(res, fault.respond);
      else sendError(res, error);
      return;
    }
    if (fault) sendFault(res, fault.respond);
    else sendEnvelope(res, reply, takeNotices(method, path));
  }

  async function route(req: IncomingMessage, method: string, url: URL): Promise<Reply> {
    let segments: string[];
    try {
      segments = url.pathname.split('/').slice(1).map(decodeURIComponent);
    } catch {
      throw fail(404, CODE.noRoute, `No route for that URI: ${url.pathname}`);
    }
    if (segments.at(-1) === '') segments.pop();
    if (segments.length === 3 && segments[0] === 'client' && segments[1] === 'v4' && segments[2] === 'zones') {
      if (method !== 'GET') throw new HttpError(405, [{ code: CODE.method, message: `method ${method} is not allowed here; allowed: GET` }], { allow: 'GET' });
      authenticate(req, accepted);
      throttle(req);
      await readBody(req);
      return listZones(state, url.searchParams);
    }
    const [client, v4, scope, owner, rulesets, ...rest] = segments;
    const found = client === 'client' && v4 === 'v4' && (scope === 'accounts' || scope === 'zones') && !!owner && rulesets === 'rulesets' ? matchRoute(rest) : undefined;
    if (!found) throw fail(404, CODE.noRoute, `No route for that URI: ${url.pathname}`);
    const operation = found.route.methods[method as Method];
    if (!operation) {
      const allow = Object.keys(found.route.methods).join(', ');
      throw new HttpError(405, [{ code: CODE.method, message: `method ${method} is not allowed here; allowed: ${allow}` }], { allow });
    }
    if (found.route.accountsOnly && scope !== 'accounts') throw fail(404, CODE.noRoute, `No route for that URI: ${url.pathname} (this operation is account-level only)`);
    authenticate(req, accepted);
    throttle(req);
    const text = await readBody(req);
    let body: unknown;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      if (text.trim() === '') throw fail(400, CODE.badJson, 'the request body is empty; expected JSON');
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw fail(400, CODE.badJson, `the request body is not valid JSON: ${(error as Error).message}`);
      }
      // JSON.parse reads any depth; the copy of the state, the checks and the answers write the
      // body out again, recursing once per level (JSON.stringify runs out of stack past about 4,000).
      if (nestsDeeperThan(body)) throw fail(400, CODE.badJson, `the request body nests deeper than ${MAX_NESTING} levels of objects and lists; a ruleset needs a few`);
    }
    const writes = method !== 'GET';
    const dryRunText = url.searchParams.get('dry_run');
    if (writes && dryRunText !== null && dryRunText !== 'true' && dryRunText !== 'false') {
      throw fail(400, CODE.invalid, `dry_run must be true or false, found ${JSON.stringify(dryRunText)}`);
    }
    const dryRun = writes && dryRunText === 'true';
    // A write runs on a copy that replaces the state only when it succeeds, so a failed
    // request leaves nothing half done, and a dry run's copy is dropped.
    const working = writes ? state.clone() : state;
    const ctx: Context = { state: working, owner: { scope: scope as Scope, id: owner }, params: found.params, body, now: now().toISOString(), validator, query: url.searchParams, pageSize };
    const reply = operation(ctx);
    // A dry run says only that the call would succeed: never what it would have made.
    if (dryRun) return reply.status === 204 ? reply : { status: 200, result: null };
    if (writes) {
      state.adopt(working);
      if (dataFile) saveState(dataFile, state);
    }
    return reply;
  }

  const server = http().createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        if (!res.headersSent) sendError(res, error);
        return;
      }
      if (!res.headersSent) sendJson(res, 500, { result: null, success: false, errors: [{ code: 500, message: `emulator bug: ${(error as Error)?.message ?? error}` }], messages: [] });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: `http://${urlHost}:${port}${PREFIX}`,
    port,
    state,
    faults,
    notices,
    requests,
    failRequest,
    get armedFault() {
      return armed;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Hanging faults and idle keep-alive connections would hold `close` open.
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------- persistence

function loadState(dataFile: string): EmulatorState {
  if (!existsSync(dataFile)) return new EmulatorState();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(dataFile, 'utf8'));
  } catch (error) {
    throw new Error(`${dataFile}: cannot read the emulator's data (${(error as Error).message})`);
  }
  if (!isObject(data) || data.format !== 1 || !Array.isArray(data.rulesets)) throw new Error(`${dataFile}: not an emulator data file (expected {"format": 1, "rulesets": [...]})`);
  // Zones may be written by hand to seed the emulator: `{"name": "example.com"}` is enough (an
  // id is made, and the account is the emulator's), `account` an id or `{"id": …}`.
  const zones: { name: string; id?: string; account?: string }[] = [];
  if (data.zones !== undefined) {
    if (!Array.isArray(data.zones)) throw new Error(`${dataFile}: "zones" is a list of {"name", "id"?, "account"?}`);
    for (const [i, zone] of data.zones.entries()) {
      const input = isObject(zone) ? { name: zone.name, id: zone.id, account: isObject(zone.account) ? zone.account.id : zone.account } : zone;
      const problem = zoneInputProblem(input);
      if (problem) throw new Error(`${dataFile}: zones[${i}]: ${problem}`);
      zones.push(input as { name: string; id?: string; account?: string });
    }
  }
  // Every write copies the state (structuredClone) and saves it (JSON.stringify), which recurse
  // once per level. A request nests MAX_NESTING levels at most, and the file holds a rule six
  // levels down (rulesets, a ruleset, versions, a version, rules, the rule).
  const deepest = MAX_NESTING + 6;
  if (nestsDeeperThan(data, deepest)) throw new Error(`${dataFile}: not an emulator data file (it nests deeper than ${deepest} levels)`);
  const state = new EmulatorState({ format: 1, rulesets: data.rulesets as StoredRuleset[] });
  for (const zone of zones) state.addZone(zone);
  // A zone given without its id gets one now: kept, so that it is the same the next time.
  if (zones.some((z) => z.id === undefined)) saveState(dataFile, state);
  return state;
}

let tempCounter = 0;

/** Written beside the file and renamed over it: a reader never sees half a file. */
function saveState(dataFile: string, state: EmulatorState): void {
  const temp = `${dataFile}.${process.pid}.${++tempCounter}.tmp`;
  writeFileSync(temp, `${JSON.stringify(state, null, 1)}\n`);
  renameSync(temp, dataFile);
}
