/**
 * An estate for the apply tests: zones, each with a WAF entry point live and three files, planned
 * as `rulesets plan -o` saves a plan and `rulesets apply` reads it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scope } from '../../server/src/api/client';
import type { Emulator } from '../../server/src/api/emulator';
import { planFileText, readSavedPlan, savedPlanOf, type SavedPlan } from '../../server/src/api/apply';
import { planTargets } from '../../server/src/api/plan';
import type { Target } from '../../server/src/api/targets';
import { makeClient } from './harness';

export const WAF = 'http_request_firewall_custom';
export const TRANSFORM = 'http_request_late_transform';
export const REDIRECT = 'http_request_dynamic_redirect';
/** No rate limit in the way: these tests count requests, not time. */
export const UNLIMITED = { requests: 1_000_000, windowMs: 60_000 };

export function zoneId(prefix: string, i: number): string {
  return `${prefix}${i.toString(16).padStart(4, '0')}`.padEnd(32, '0');
}

/**
 * `count` zones, each with a WAF entry point live (two rules) and its three files: waf.json
 * (keeps one rule, changes one, adds one), transform.yaml and an octorules file of redirects
 * (both new). The targets are built here as `targets:` would resolve them.
 */
export async function estate(emulator: Emulator, count: number, prefix: string, temps: string[]): Promise<Target[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-apply-'));
  temps.push(dir);
  const targets: Target[] = [];
  for (let i = 0; i < count; i++) {
    const scope: Scope = { kind: 'zone', id: zoneId(prefix, i) };
    await makeClient(emulator.baseUrl, { scope }).updateRuleset(
      { phase: WAF },
      { name: 'default', kind: 'zone', phase: WAF, rules: [{ ref: 'office', action: 'block', expression: 'not ip.src in {203.0.113.0/24}' }, { ref: 'bots', action: 'block', expression: 'http.user_agent contains "BadBot"' }] },
    );
    const folder = join(dir, `z${i}`);
    mkdirSync(folder);
    const waf = join(folder, 'waf.json');
    writeFileSync(
      waf,
      JSON.stringify({
        name: 'default',
        kind: 'zone',
        phase: WAF,
        rules: [
          { ref: 'office', action: 'block', expression: 'not ip.src in {203.0.113.0/24}' },
          { ref: 'bots', action: 'block', expression: `http.user_agent contains "BadBot${i}"` },
          { ref: 'admin', action: 'managed_challenge', expression: 'http.request.uri.path eq "/admin"' },
        ],
      }),
    );
    const transform = join(folder, 'transform.yaml');
    writeFileSync(transform, `name: default\nkind: zone\nphase: ${TRANSFORM}\nrules:\n  - ref: tag\n    action: rewrite\n    expression: "true"\n    action_parameters:\n      headers:\n        x-zone:\n          operation: set\n          value: "z${i}"\n`);
    const octorules = join(folder, `z${i}.example.yaml`);
    writeFileSync(octorules, `cloudflare:\n  redirect_rules:\n    - ref: old\n      expression: http.request.uri.path eq "/old${i}"\n      action_parameters:\n        from_value:\n          target_url:\n            value: https://z${i}.example/new\n          status_code: 301\n`);
    targets.push({ scope, label: `z${i}.example`, files: [waf, transform, octorules] });
  }
  return targets;
}

export async function planOf(emulator: Emulator, targets: Target[], ownedPhases: string[] = []): Promise<SavedPlan> {
  const plan = await planTargets(targets, { clientFor: (scope) => makeClient(emulator.baseUrl, { scope }), read: (path) => readFileSync(path, 'utf8'), ownedPhases });
  assert.equal(plan.errors, 0, JSON.stringify(plan.targets.flatMap((t) => t.errors.map((e) => e.message))));
  // Through its file, as `plan -o` writes it and `apply` reads it.
  return readSavedPlan(planFileText(savedPlanOf(plan)), 'plan.json');
}
