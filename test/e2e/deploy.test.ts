/**
 * Deploying from the editor as a person does it, end to end: the packaged .vsix in a real VS Code
 * (code-server), settings pointing at the Rulesets API emulator, the token typed into the input
 * box of "Rulesets: Set API Token", an example edited, "Rulesets: Deploy" from the command
 * palette, the diff and the modal confirm on screen, the confirm's button clicked. What the
 * emulator then holds is the proof. Screenshots go to test-artifacts/e2e/deploy/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EMULATOR_ACCOUNT_ID, EMULATOR_ZONE_ID, startEmulator, type Emulator } from '../../server/src/api/emulator';
import { REDIRECTS_YAML as REDIRECTS } from '../api/phase-families';
import { filesOf, makeWorkspace, startWorkbench, type Workbench } from './workbench';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const FILE = 'allow-ssh-only.ruleset.yaml';
/** An HTTP phase entry point of a zone (issue 22): redirects with their parameters. */
const ZONE_FILE = 'zone/redirects.ruleset.yaml';
/** The same file with a misspelt field: the check finds it, so nothing may be sent. */
const ZONE_MISTAKE = 'zone/mistake.ruleset.yaml';
/** Easy to spot in a log file, where it must never be. */
const TOKEN = 'e2e-S3cret-token-51f0';

type QuickInput = { visible: boolean; value: string; inputFocused: boolean };

/** Polls `probe` until `done` holds (30 s at most). */
async function poll<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every file below `dir`, recursively. */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
  });
}

describe('deploying from VS Code (code-server) to the Rulesets API emulator', () => {
  let workspace = '';
  let wb: Workbench | undefined;
  let emulator: Emulator | undefined;

  before(async () => {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'pipe' });
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    emulator = await startEmulator({ credentials: { token: TOKEN } });
    const files = { ...filesOf(EXAMPLES), [ZONE_FILE]: REDIRECTS, [ZONE_MISTAKE]: REDIRECTS.replace('"/old/")', '"/old/") and http.request.uri.pth ne "/"') };
    workspace = makeWorkspace(files);
    wb = await startWorkbench({
      workspace,
      vsix: join(ROOT, `${name}-${version}.vsix`),
      name: 'deploy',
      settings: { 'rulesets.api.baseUrl': emulator.baseUrl, 'rulesets.api.accountId': EMULATOR_ACCOUNT_ID },
    });
  });

  after(async () => {
    await wb?.close();
    await emulator?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('stores the token typed into "Rulesets: Set API Token" (a password box), not in the settings', async () => {
    await wb!.runCommand('Rulesets: Set API Token');
    const input = () => wb!.page.evaluate<QuickInput>('__e2e.quickInput()');
    await wb!.page.waitForFunction(`(() => { const s = __e2e.quickInput(); return s.visible && s.inputFocused; })()`, undefined, { timeout: 20_000 });
    assert.equal(await wb!.page.locator('.quick-input-widget .quick-input-box input').getAttribute('type'), 'password');
    await wb!.page.keyboard.type(TOKEN);
    await wb!.screenshot('1-set-token');
    await wb!.press('Enter');
    await wb!.page.waitForFunction(`!__e2e.quickInput().visible`, undefined, { timeout: 20_000 });
    assert.equal((await input()).visible, false);
    const settings = JSON.stringify(await wb!.executeCommand('workbench.action.openSettingsJson').then(() => wb!.editorText()));
    assert.ok(!settings.includes(TOKEN), 'the user settings do not hold the token');
    assert.match(settings, /rulesets\.api\.baseUrl/);
    await wb!.executeCommand('workbench.action.closeActiveEditor');
  });

  it('deploys an edited example after the diff and the modal confirm; the emulator holds the new version', async () => {
    await wb!.openFile(FILE);
    const lines = (await wb!.editorText()).split('\n');
    const line = lines.findIndex((l) => l.includes('expression: tcp.dstport in {22}')) + 1;
    assert.ok(line > 0);
    // The person changes the port: 22 becomes 2222, then saves.
    await wb!.goTo(line, lines[line - 1].indexOf('{22}') + 2);
    await wb!.type('22');
    await wb!.editorText({ until: (text) => text.includes('tcp.dstport in {2222}') });
    await wb!.press('Control+S');
    await poll('the file to be saved', () => wb!.activeEditor(), (editor) => editor?.isDirty === false);
    await wb!.runCommand('Rulesets: Deploy');

    const dialog = wb!.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const question = await dialog.innerText();
    assert.match(question, /Deploy “Allow SSH only” to account 0123…\?/);
    assert.match(question, new RegExp(`To the magic_transit entry point of account ${EMULATOR_ACCOUNT_ID}, which does not exist yet: this creates it`));
    // Behind the dialog: the diff editor, live (nothing yet) on the left, the file on the right.
    assert.ok(await wb!.page.locator('.monaco-diff-editor').first().isVisible(), 'the diff editor is open');
    await wb!.screenshot('2-diff-and-confirm');
    await dialog.locator('.monaco-button', { hasText: /^Deploy$/ }).click();

    const live = await poll('the emulator to have the entry point', async () => emulator!.state.all().find((r) => r.kind === 'root' && r.phase === 'magic_transit'), (found) => !!found);
    assert.ok(live);
    assert.equal(live.version, '1');
    assert.deepEqual(live.rules.map((r) => r.expression), ['tcp.dstport in {2222}', 'ip.proto == "tcp"']);
    // The file records the version it is now based on (and the rules' ids), saved.
    const recorded = await poll(
      'the file to record version 1',
      () => wb!.activeEditor(),
      (editor) => !!editor && /^version: "1"$/m.test(editor.text) && !editor.isDirty,
    );
    assert.match(recorded!.text, new RegExp(`id: "?${live.rules[0].id}"?`));
    await wb!.page.locator('.notifications-toasts').getByText(/Deployed “Allow SSH only” as version 1/).first().waitFor({ timeout: 20_000 });
    const status = wb!.page.locator('.statusbar-item', { hasText: /acct 0123… · v1 deployed/ });
    await status.first().waitFor({ timeout: 20_000 });
    await wb!.screenshot('3-deployed');
  });

  it('with a zone chosen, refuses an HTTP zone file with a mistake before any request', async () => {
    await wb!.executeCommand('rulesets.chooseTarget', { zoneId: EMULATOR_ZONE_ID });
    await wb!.page.locator('.statusbar-item', { hasText: /zone fedc…/ }).first().waitFor({ timeout: 20_000 });
    await wb!.openFile(ZONE_MISTAKE);
    const requests = emulator!.requests.length;
    await wb!.runCommand('Rulesets: Deploy');
    await wb!.page.locator('.notifications-toasts').getByText(/Fix 1 problem first: zone\/mistake\.ruleset\.yaml is not deployed/).first().waitFor({ timeout: 30_000 });
    await wb!.screenshot('4-zone-mistake-refused');
    assert.equal(emulator!.requests.length, requests, 'the emulator saw no request');
    const problems = await wb!.problems({ until: (rows) => rows.some((p) => p.file === ZONE_MISTAKE) });
    const problem = problems.find((p) => p.file === ZONE_MISTAKE)!;
    // `    expression: starts_with(…) and `: the misspelt field from column 65 of line 8.
    assert.deepEqual([problem.line, problem.column, problem.code, problem.severity], [8, 65, 'unknown-field', 'error']);
    assert.ok(problem.message.includes('http.request.uri.pth'), problem.message);
  });

  it("shows the service's rejection of a parameter on that parameter's value, and sends no write", async () => {
    await wb!.openFile(ZONE_FILE);
    const message = 'status_code: 301 is refused for this zone';
    emulator!.faults.push({ method: 'PUT', path: /dry_run=true/, respond: { status: 400, body: { result: null, success: false, errors: [{ code: 20021, message, source: { pointer: '/rules/0/action_parameters/from_value/status_code' } }], messages: [] } } });
    const requests = emulator!.requests.length;
    await wb!.runCommand('Rulesets: Deploy');
    await wb!.page.locator('.notifications-toasts').getByText(/The service rejects zone\/redirects\.ruleset\.yaml/).first().waitFor({ timeout: 30_000 });
    const problems = await wb!.problems({ until: (rows) => rows.some((p) => p.message.includes(message)) });
    const problem = problems.find((p) => p.message.includes(message))!;
    // `        status_code: 301`: line 11, the value from column 22.
    assert.deepEqual([problem.file, problem.line, problem.column, problem.severity], [ZONE_FILE, 11, 22, 'error']);
    await wb!.screenshot('5-zone-service-rejection');
    assert.deepEqual(
      emulator!.requests.slice(requests).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
      [`PUT /zones/${EMULATOR_ZONE_ID}/rulesets/phases/http_request_dynamic_redirect/entrypoint?dry_run=true`],
      'only the dry run',
    );
  });

  it("deploys the HTTP zone file after the diff and the confirm; the zone's entry point holds the redirect with its parameters", async () => {
    await wb!.openFile(ZONE_FILE);
    await wb!.runCommand('Rulesets: Deploy');
    const dialog = wb!.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const question = await dialog.innerText();
    assert.match(question, /Deploy “redirects” to zone fedc…\?/);
    assert.match(question, new RegExp(`To the http_request_dynamic_redirect entry point of zone ${EMULATOR_ZONE_ID}, which does not exist yet: this creates it`));
    await wb!.screenshot('6-zone-diff-and-confirm');
    await dialog.locator('.monaco-button', { hasText: /^Deploy$/ }).click();

    const live = await poll('the zone entry point', async () => emulator!.state.all().find((r) => r.kind === 'zone' && r.phase === 'http_request_dynamic_redirect'), (found) => !!found);
    assert.equal(live!.version, '1');
    assert.deepEqual(live!.rules[0].action_parameters, { from_value: { status_code: 301, target_url: { expression: 'concat("https://www.example.com", http.request.uri.path)' }, preserve_query_string: true } });
    assert.ok(emulator!.requests.some((r) => r.method === 'PUT' && r.path === `/zones/${EMULATOR_ZONE_ID}/rulesets/phases/http_request_dynamic_redirect/entrypoint`));
    await poll('the file to record version 1', () => wb!.activeEditor(), (editor) => !!editor && /^version: "1"$/m.test(editor.text) && !editor.isDirty);
    await wb!.page.locator('.statusbar-item', { hasText: /zone fedc… · v1 deployed/ }).first().waitFor({ timeout: 20_000 });
    await wb!.screenshot('7-zone-deployed');
  });

  it('wrote the API requests to the Rulesets log, and the token to no log at all', async () => {
    await wb!.close();
    const logs = filesBelow(join(wb!.artifacts, 'vscode-logs'));
    assert.ok(logs.length > 0, 'VS Code wrote logs');
    const texts = logs.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    assert.ok(
      texts.some(({ text }) => /PUT \/accounts\/\w+\/rulesets\/phases\/magic_transit\/entrypoint/.test(text)),
      `a log has the deploy request: ${logs.join(', ')}`,
    );
    for (const { file, text } of texts) assert.ok(!text.includes(TOKEN), `${file} holds the token`);
  });
});
