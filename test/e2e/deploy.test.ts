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
import { EMULATOR_ACCOUNT_ID, startEmulator, type Emulator } from '../../server/src/api/emulator';
import { filesOf, makeWorkspace, startWorkbench, type Workbench } from './workbench';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const FILE = 'allow-ssh-only.ruleset.yaml';
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
    const files = filesOf(EXAMPLES);
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
