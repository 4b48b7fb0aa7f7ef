/**
 * Where the API commands send their requests, read from the `rulesets.api.*` settings, and
 * what the status bar says about it. Plain data and functions: tested without VS Code.
 */
import type { Credentials, Scope } from '../../../server/src/core';

/** The `rulesets.api` settings, as read (empty strings when unset). */
export interface ApiSettings {
  readonly baseUrl: string;
  readonly accountId: string;
  readonly zoneId: string;
}

export type Target = { readonly kind: 'account'; readonly id: string } | { readonly kind: 'zone'; readonly id: string };

/** What a command needs before it can call the API, or what is missing and which command fixes it. */
export type Connection =
  | { readonly ok: true; readonly baseUrl: string; readonly target: Target; readonly credentials: Credentials }
  | { readonly ok: false; readonly problem: string; readonly fix: 'baseUrl' | 'target' | 'credentials' };

/** The account or zone the settings name: undefined when none (or both) are set. */
export function targetOf(settings: ApiSettings): Target | undefined {
  const account = settings.accountId.trim();
  const zone = settings.zoneId.trim();
  if (account && zone) return undefined;
  if (account) return { kind: 'account', id: account };
  if (zone) return { kind: 'zone', id: zone };
  return undefined;
}

export function scopeOf(target: Target): Scope {
  return target.kind === 'account' ? { accountId: target.id } : { zoneId: target.id };
}

/** `0123…` for a long id, the id itself when it is short. */
export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 4)}…` : id;
}

/** `account 0123…` or `zone fedc…`. */
export function describeTarget(target: Target): string {
  return `${target.kind} ${shortId(target.id)}`;
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
    return { ok: false, fix: 'target', problem: 'Both rulesets.api.accountId and rulesets.api.zoneId are set: keep one (Rulesets: Choose Account or Zone).' };
  }
  const target = targetOf(settings);
  if (!target) return { ok: false, fix: 'target', problem: 'No account or zone to work on: run Rulesets: Choose Account or Zone.' };
  if (!credentials) return { ok: false, fix: 'credentials', problem: 'No API credentials stored: run Rulesets: Set API Token (or Set API Email and Key).' };
  return { ok: true, baseUrl, target, credentials };
}

/** The last deploy the status bar remembers for a target. */
export interface LastDeploy {
  readonly name: string;
  readonly version: string;
  /** ISO 8601. */
  readonly at: string;
}

export interface TargetStatusView {
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
export function describeTargetStatus(target: Target | undefined, last: LastDeploy | undefined, now = new Date()): TargetStatusView {
  if (!target) return { text: '$(cloud-upload) Rulesets: no target', tooltip: 'No account or zone to deploy to: click to choose one' };
  const where = `${target.kind === 'account' ? 'acct' : 'zone'} ${shortId(target.id)}`;
  const full = `${target.kind} ${target.id}`;
  if (!last) return { text: `$(cloud-upload) ${where}`, tooltip: `Rulesets deploy to ${full}; nothing deployed from this window yet. Click to change.` };
  const when = formatTime(new Date(last.at), now);
  return {
    text: `$(cloud-upload) ${where} · v${last.version} deployed ${when}`,
    tooltip: `Rulesets deploy to ${full}. Last deploy: ${last.name}, version ${last.version}, at ${when}. Click to change the target.`,
  };
}
