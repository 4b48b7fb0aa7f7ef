/**
 * The Plan view as a person uses it, end to end: the packaged .vsix in a real VS Code
 * (code-server), a workspace whose `.rulesets.yaml` sends two ruleset files to two zones of the
 * Rulesets API emulator (by their names), "Rulesets: Plan" from the command palette, the tree
 * (target → ruleset → changed rule), a ruleset's diff, "Rulesets: Apply Plan" with its modal
 * confirm clicked; what the emulator then holds, and a second plan with nothing to do, are the
 * proof. Screenshots go to test-artifacts/e2e/plan-view/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../server/src/api/emulator';
import { RulesetsClient } from '../../server/src/core';
import { makeWorkspace, startWorkbench, type Workbench } from './workbench';

const ROOT = join(__dirname, '..', '..');
const TOKEN = 'e2e-plan-token-7c1d';
const PHASE = 'http_request_firewall_custom';
const ALPHA = { name: 'alpha.example', id: 'a'.repeat(32) };
const BETA = { name: 'beta.example', id: 'b'.repeat(32) };

const rule = (ref: string, path: string) => `  - ref: ${ref}\n    action: block\n    expression: http.request.uri.path eq "${path}"\n`;
const ruleset = (...rules: string[]) => `name: default\nkind: zone\nphase: ${PHASE}\nrules:\n${rules.join('')}`;

/** Polls `probe` until `done` holds (`ms` at most), saying what it saw last. */
async function poll<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(value)?.slice(0, 800)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the Plan view in VS Code (code-server) against the Rulesets API emulator', () => {
  let workspace = '';
  let wb: Workbench | undefined;
  let emulator: Emulator | undefined;

  before(async () => {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'pipe' });
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    emulator = await startEmulator({ credentials: { token: TOKEN } });
    emulator.state.addZone(ALPHA);
    emulator.state.addZone(BETA);
    // Live in alpha: the rule `admin` on /admin-old and the rule `old`; beta has no entry point yet.
    const live = new RulesetsClient({ baseUrl: emulator.baseUrl, credentials: { token: TOKEN }, scope: { kind: 'zone', id: ALPHA.id } });
    await live.updateRuleset({ phase: PHASE }, { rules: [{ ref: 'admin', action: 'block', expression: 'http.request.uri.path eq "/admin-old"' }, { ref: 'old', action: 'block', expression: 'http.request.uri.path eq "/old"' }] });
    workspace = makeWorkspace({
      '.rulesets.yaml': `targets:\n  - files: waf/alpha.yaml\n    zone: ${ALPHA.name}\n  - files: waf/beta.yaml\n    zone: ${BETA.name}\n`,
      'waf/alpha.yaml': ruleset(rule('admin', '/admin'), rule('old', '/old')),
      'waf/beta.yaml': ruleset(rule('bots', '/wp-login.php')),
    });
    wb = await startWorkbench({ workspace, vsix: join(ROOT, `${name}-${version}.vsix`), name: 'plan-view', settings: { 'rulesets.api.baseUrl': emulator.baseUrl } });
    await wb.executeCommand('rulesets.setApiToken', { token: TOKEN });
  });

  after(async () => {
    await wb?.close();
    await emulator?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  /** The Plan view's rows as shown (label and description), once they satisfy `done`. */
  const planRows = (done: (rows: string[]) => boolean) =>
    poll(
      'the Plan view to show its rows',
      () => wb!.page.locator('.pane', { has: wb!.page.locator('.pane-header', { hasText: /Rulesets Plan/i }) }).locator('.monaco-list-row').evaluateAll((rows) => rows.map((row) => [row.querySelector('.label-name'), row.querySelector('.label-description')].map((e) => e?.textContent?.trim() ?? '').join(' ').trim())),
      done,
      60_000,
    );

  it('"Rulesets: Plan" shows each target, its ruleset with its counts, and the changed rule', async () => {
    await wb!.runCommand('Rulesets: Plan');
    const rows = await planRows((r) => r.some((x) => x.startsWith('beta.example')) && r.some((x) => x.startsWith('admin')));
    await wb!.screenshot('1-plan');
    assert.deepEqual(rows, [
      `alpha.example zone ${ALPHA.id}`,
      `waf/alpha.yaml ${PHASE} · 1 to change`,
      'admin changed: expression',
      `beta.example zone ${BETA.id}`,
      `waf/beta.yaml ${PHASE} · 1 to add · new`,
      'bots added',
    ]);
    assert.equal(emulator!.requests.filter((r) => r.method !== 'GET').length, 1, 'planning wrote nothing (the one write is the seed)');
  });

  it("a changed ruleset opens the diff editor: live on the left, what the apply would write on the right", async () => {
    await wb!.page.locator('.pane .monaco-list-row', { hasText: `${PHASE} · 1 to change` }).first().click();
    const diff = wb!.page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 30_000 });
    const sides = await poll(
      'both sides of the diff',
      () => diff.locator('.view-lines').allInnerTexts(),
      (texts) => texts.length === 2 && texts[0].includes('/admin-old') && texts[1].includes('/admin\\"'),
    );
    assert.ok(!sides[1].includes('/admin-old'));
    // Only the changed expression differs: the service's defaults (enabled, an empty description) are not shown as changes.
    assert.equal(await wb!.page.locator('.monaco-diff-editor .line-delete').count(), 1);
    assert.equal(await wb!.page.locator('.monaco-diff-editor .line-insert').count(), 1);
    await wb!.screenshot('2-diff');
  });

  it('"Rulesets: Apply Plan" asks with the counts, applies with progress; the emulator holds the plan', async () => {
    await wb!.runCommand('Rulesets: Apply Plan');
    const dialog = wb!.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const question = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert.match(question, /Apply the plan to 2 targets\?/);
    assert.match(question, /1 to add, 1 to change, in 2 rulesets/);
    await wb!.screenshot('3-apply-confirm');
    await dialog.locator('.monaco-button', { hasText: /^Apply$/ }).click();
    await wb!.page.locator('.notifications-toasts').getByText(/Applied the plan \(2 rulesets written\)/).first().waitFor({ timeout: 60_000 });
    const live = (zone: string) => new RulesetsClient({ baseUrl: emulator!.baseUrl, credentials: { token: TOKEN }, scope: { kind: 'zone', id: zone } }).getEntryPoint(PHASE);
    assert.deepEqual((await live(ALPHA.id)).rules.map((r) => [r.ref, r.expression]), [['admin', 'http.request.uri.path eq "/admin"'], ['old', 'http.request.uri.path eq "/old"']]);
    assert.deepEqual((await live(BETA.id)).rules.map((r) => [r.ref, r.expression]), [['bots', 'http.request.uri.path eq "/wp-login.php"']]);
    // As `rulesets apply`: one audit line per write, and the lock file that plan's drift reads.
    const audit = readFileSync(join(workspace, '.rulesets', 'audit.log'), 'utf8').trim().split('\n');
    assert.equal(audit.length, 2, audit.join('\n'));
    assert.ok(existsSync(join(workspace, '.rulesets', 'lock.json')));
    await wb!.screenshot('4-applied');
  });

  it('"Rulesets: Plan" again has nothing to do', async () => {
    await wb!.runCommand('Rulesets: Plan');
    const rows = await planRows((r) => r.filter((x) => x.includes('no changes')).length === 2);
    assert.deepEqual(rows, [`alpha.example zone ${ALPHA.id}`, `waf/alpha.yaml ${PHASE} · no changes`, `beta.example zone ${BETA.id}`, `waf/beta.yaml ${PHASE} · no changes`]);
    await wb!.screenshot('5-nothing-to-do');
  });

  it('a dashboard edit since the apply is marked as drift, on the ruleset and on the rule the apply would change back', async () => {
    const live = new RulesetsClient({ baseUrl: emulator!.baseUrl, credentials: { token: TOKEN }, scope: { kind: 'zone', id: ALPHA.id } });
    const now = await live.getEntryPoint(PHASE);
    await live.updateRuleset({ phase: PHASE }, { rules: now.rules.map(({ id, ref, action, expression }) => ({ id, ref, action, expression: ref === 'old' ? 'http.request.uri.path eq "/older"' : expression })) });
    await wb!.runCommand('Rulesets: Plan');
    const rows = await planRows((r) => r.some((x) => x.includes('drift')));
    await wb!.screenshot('6-drift');
    assert.deepEqual(rows, [
      `alpha.example zone ${ALPHA.id}`,
      `waf/alpha.yaml ${PHASE} · 1 to change · drift: changed live`,
      'old changed: expression · drift: edited live since the last apply, the apply undoes it',
      `beta.example zone ${BETA.id}`,
      `waf/beta.yaml ${PHASE} · no changes`,
    ]);
  });

  it('refuses to apply a plan older than the live version, and writes nothing', async () => {
    // The plan shown is that of the test before; another dashboard edit lands after it.
    const live = new RulesetsClient({ baseUrl: emulator!.baseUrl, credentials: { token: TOKEN }, scope: { kind: 'zone', id: ALPHA.id } });
    const now = await live.getEntryPoint(PHASE);
    const edited = await live.updateRuleset({ phase: PHASE }, { rules: now.rules.map(({ id, ref, action, expression }) => ({ id, ref, action, expression: ref === 'old' ? 'http.request.uri.path eq "/oldest"' : expression })) });
    const writes = emulator!.requests.filter((r) => r.method !== 'GET').length;
    await wb!.runCommand('Rulesets: Apply Plan');
    const dialog = wb!.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await dialog.locator('.monaco-button', { hasText: /^Apply$/ }).click();
    await wb!.page.locator('.notifications-toasts').getByText(/not applied: live rulesets changed since the plan/).first().waitFor({ timeout: 30_000 });
    await wb!.screenshot('7-refused-stale');
    assert.equal(emulator!.requests.filter((r) => r.method !== 'GET').length, writes, 'no write');
    assert.equal((await live.getEntryPoint(PHASE)).version, edited.version);
  });
});
