/**
 * Where the API commands send their requests, read from the `rulesets.api.*` settings, and
 * what the status bar says about it. Plain data and functions: tested without VS Code.
 */
import type { Credentials, Scope } from '../../../server/src/core';

export type { Scope };

/** The `rulesets.api` settings, as read (empty strings when unset). */
export interface ApiSettings {
  readonly baseUrl: string;
  readonly accountId: string;
  readonly zoneId: string;
}

/** What a command needs before it can call the API, or what is missing and which command fixes it. */
export type Connection =
  | { readonly ok: true; readonly baseUrl: string; readonly scope: Scope; readonly credentials: Credentials }
  | { readonly ok: false; readonly problem: string; readonly fix: 'baseUrl' | 'scope' | 'credentials' };

/** The account or zone the settings name: undefined when none (or both) are set. */
export function scopeOfSettings(settings: ApiSettings): Scope | undefined {
  const account = settings.accountId.trim();
  const zone = settings.zoneId.trim();
  if (account && zone) return undefined;
  if (account) return { kind: 'account', id: account };
  if (zone) return { kind: 'zone', id: zone };
  return undefined;
}

/** `0123…` for a long id, the id itself when it is short. */
export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 4)}…` : id;
}

/** `account 0123…` or `zone fedc…`. */
export function describeScope(scope: Scope): string {
  return `${scope.kind} ${shortId(scope.id)}`;
}

/** Checks the settings and the stored credentials, in the order a person would fix them. */
export function connectionOf(settings: ApiSettings, credentials: Credentials | undefined): Connection {
  const baseUrl = settings.baseUrl.trim();
  if (!baseUrl) {
    return {
      ok: false,
      fix: 'baseUrl',
      problem: 'Set rulesets.api.baseUrl to the API\'s base URL (it ends in /client/v4; `rulesets emulator` prints one for a local emulator).',
    };
  }
  if (settings.accountId.trim() && settings.zoneId.trim()) {
    return { ok: false, fix: 'scope', problem: 'Both rulesets.api.accountId and rulesets.api.zoneId are set: keep one (Rulesets: Choose Account or Zone).' };
  }
  const scope = scopeOfSettings(settings);
  if (!scope) return { ok: false, fix: 'scope', problem: 'No account or zone to work on: run Rulesets: Choose Account or Zone.' };
  if (!credentials) return { ok: false, fix: 'credentials', problem: 'No API credentials stored: run Rulesets: Set API Token (or Set API Email and Key).' };
  return { ok: true, baseUrl, scope, credentials };
}

/** The last deploy the status bar remembers for a scope. */
export interface LastDeploy {
  readonly name: string;
  readonly version: string;
  /** ISO 8601. */
  readonly at: string;
}

export interface ScopeStatusView {
  readonly text: string;
  readonly tooltip: string;
}

/** `12:03` for a time today, `2024-03-04 12:03` otherwise (local time). */
export function formatTime(at: Date, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  const sameDay = at.getFullYear() === now.getFullYear() && at.getMonth() === now.getMonth() && at.getDate() === now.getDate();
  return sameDay ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/** The status bar item: `$(cloud-upload) acct 1a2b… · v7 deployed 12:03`. */
export function describeScopeStatus(scope: Scope | undefined, last: LastDeploy | undefined, now = new Date()): ScopeStatusView {
  if (!scope) return { text: '$(cloud-upload) Rulesets: no scope', tooltip: 'No account or zone to deploy to: click to choose one' };
  const where = `${scope.kind === 'account' ? 'acct' : 'zone'} ${shortId(scope.id)}`;
  const full = `${scope.kind} ${scope.id}`;
  if (!last) return { text: `$(cloud-upload) ${where}`, tooltip: `Rulesets deploy to ${full}; nothing deployed from this window yet. Click to change.` };
  const when = formatTime(new Date(last.at), now);
  return {
    text: `$(cloud-upload) ${where} · v${last.version} deployed ${when}`,
    tooltip: `Rulesets deploy to ${full}. Last deploy: ${last.name}, version ${last.version}, at ${when}. Click to change the scope.`,
  };
}
