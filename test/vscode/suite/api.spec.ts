/**
 * The API commands in a real VS Code extension host, against the Rulesets API emulator that the
 * runner (test/vscode/code-server.test.ts) starts and names in the environment:
 * RULESETS_SUITE_API_URL, RULESETS_SUITE_API_TOKEN, RULESETS_SUITE_ACCOUNT and
 * RULESETS_SUITE_MANAGED_ID (a managed ruleset it published). Without them these tests skip.
 *
 * The commands are driven by their arguments (`{ uri, yes: true }` answers a confirmation), as
 * automation would; what is asserted is what the service then holds, what the file says, the
 * diagnostics, and the log.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import type { Ruleset } from '../../../server/src/api/types';
import type { ApiTestHooks } from '../../../client/src/api/commands';

const env = {
  url: process.env.RULESETS_SUITE_API_URL ?? '',
  token: process.env.RULESETS_SUITE_API_TOKEN ?? '',
  account: process.env.RULESETS_SUITE_ACCOUNT ?? '',
  managed: process.env.RULESETS_SUITE_MANAGED_ID ?? '',
};

const EXTENSION_ID = 'rulesets.rulesets-tools';
const DEPLOY_FILE = 'api-deploy.ruleset.yaml';

type Outcome = { done: boolean; reason?: string; message?: string; version?: string; id?: string; uri?: string; rules?: number };

function run(command: string, args?: object): Promise<Outcome> {
  return vscode.commands.executeCommand<Outcome>(command, args) as Promise<Outcome>;
}

/** The emulator's answer to a GET (below the account), read with the token as any client would. */
async function service<T = Ruleset>(path: string, init: RequestInit = {}): Promise<{ status: number; result: T }> {
  const response = await fetch(`${env.url}/accounts/${env.account}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${env.token}`, 'content-type': 'application/json' },
  });
  const body = response.status === 204 ? { result: undefined } : ((await response.json()) as { result: T });
  return { status: response.status, result: body.result as T };
}

const entryPoint = () => service('/rulesets/phases/magic_transit/entrypoint');

function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests run in a workspace folder');
  return vscode.Uri.joinPath(folder.uri, name);
}

async function writeFile(name: string, text: string): Promise<vscode.TextDocument> {
  const uri = workspaceFile(name);
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text));
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  return document;
}

/** Replaces the first `from` in the document with `to` and saves it. */
async function edit(document: vscode.TextDocument, from: string, to: string): Promise<void> {
  const offset = document.getText().indexOf(from);
  assert.ok(offset >= 0, `${from} is in ${document.uri.path}`);
  const change = new vscode.WorkspaceEdit();
  change.replace(document.uri, new vscode.Range(document.positionAt(offset), document.positionAt(offset + from.length)), to);
  assert.ok(await vscode.workspace.applyEdit(change));
  assert.ok(await document.save());
}

function recordedVersion(document: vscode.TextDocument): string | undefined {
  return /^version: "?(\d+)"?$/m.exec(document.getText())?.[1];
}

export function registerApiTests(root: Mocha.Suite): void {
  const suite = Mocha.Suite.create(root, 'Rulesets API commands');
  const logged: string[] = [];
  let hooks: ApiTestHooks;
  const test = (title: string, body: () => Promise<void>) =>
    suite.addTest(
      new Mocha.Test(title, async function (this: Mocha.Context) {
        if (!env.url) this.skip();
        await body();
      }),
    );

  suite.beforeAll(async () => {
    if (!env.url) return;
    const extension = vscode.extensions.getExtension<ApiTestHooks>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    hooks = await extension.activate();
    hooks.onDidWriteApiLog((line) => logged.push(line));
    await vscode.workspace.getConfiguration('rulesets.api').update('baseUrl', env.url, vscode.ConfigurationTarget.Global);
    const example = await vscode.workspace.fs.readFile(workspaceFile('allow-ssh-only.ruleset.yaml'));
    await vscode.workspace.fs.writeFile(workspaceFile(DEPLOY_FILE), example);
  });

  test('keeps the API token in secret storage, never in settings', async () => {
    const chosen = await run('rulesets.chooseTarget', { accountId: env.account });
    assert.equal(chosen.done, true);
    await vscode.commands.executeCommand('rulesets.clearCredentials');
    const document = await vscode.workspace.openTextDocument(workspaceFile(DEPLOY_FILE));
    const without = await run('rulesets.deploy', { uri: document.uri, yes: true });
    assert.deepEqual(without, { done: false, reason: 'not-connected' });

    assert.equal(await vscode.commands.executeCommand('rulesets.setApiToken', { token: env.token }), true);
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { configuration: { properties: Record<string, unknown> } } };
    for (const key of Object.keys(manifest.contributes.configuration.properties)) {
      const values = vscode.workspace.getConfiguration().inspect(key);
      assert.ok(!JSON.stringify(values ?? {}).includes(env.token), `${key} holds no token`);
    }
    assert.equal(vscode.workspace.getConfiguration('rulesets.api').get('accountId'), env.account);
    // The workspace's files (its .vscode/settings.json included) hold it nowhere either.
    for (const file of await vscode.workspace.findFiles('**/*')) {
      const text = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');
      assert.ok(!text.includes(env.token), `${file.path} holds no token`);
    }
  });

  test('deploys the active file after the confirm: the service has the new version and the file records it', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile(DEPLOY_FILE));
    await vscode.window.showTextDocument(document);
    const first = await run('rulesets.deploy', { uri: document.uri, yes: true });
    assert.equal(first.done, true, JSON.stringify(first));
    const live = (await entryPoint()).result;
    assert.equal(live.version, first.version);
    assert.deepEqual(live.rules.map((r) => r.expression), ['tcp.dstport in {22}', 'ip.proto == "tcp"']);
    assert.equal(recordedVersion(document), live.version);
    assert.ok(!document.isDirty, 'the file is saved');
    assert.match(document.getText(), /^# Drop every TCP packet/, 'the comments stay');

    await edit(document, 'tcp.dstport in {22}', 'tcp.dstport in {2222}');
    const second = await run('rulesets.deploy', { yes: true });
    assert.equal(second.done, true, JSON.stringify(second));
    const after = (await entryPoint()).result;
    assert.equal(after.version, second.version);
    assert.notEqual(after.version, live.version);
    assert.equal(after.rules[0].expression, 'tcp.dstport in {2222}');
    assert.equal(recordedVersion(document), after.version);
    assert.match(hooks.statusText(), new RegExp(`acct ${env.account.slice(0, 4)}… · v${after.version} deployed \\d\\d:\\d\\d`));
  });

  test('refuses a deploy over a version someone else deployed, and leaves the service as it was', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile(DEPLOY_FILE));
    const base = recordedVersion(document);
    const theirs = (await entryPoint()).result;
    const { result: replaced } = await service('/rulesets/phases/magic_transit/entrypoint', {
      method: 'PUT',
      body: JSON.stringify({ rules: [...theirs.rules.map(({ id, action, expression, action_parameters, logging }) => ({ id, action, expression, action_parameters, logging })), { action: 'block', expression: 'udp.dstport == 53' }] }),
    });
    await edit(document, 'Let SSH through', 'Let SSH on 2222 through');
    const refused = await run('rulesets.deploy', { uri: document.uri, yes: true });
    assert.equal(refused.done, false);
    assert.equal(refused.reason, 'conflict');
    assert.match(refused.message ?? '', new RegExp(`version ${replaced.version} is live, the file is based on version ${base}`));
    const live = (await entryPoint()).result;
    assert.equal(live.version, replaced.version, 'nothing was deployed');
    assert.equal(live.rules.length, 3);
    assert.equal(recordedVersion(document), base, 'the file still records its version');

    const forced = await run('rulesets.deploy', { uri: document.uri, yes: true, force: true });
    assert.equal(forced.done, true, JSON.stringify(forced));
    const now = (await entryPoint()).result;
    assert.equal(now.rules.length, 2);
    assert.equal(now.rules[0].description, 'Let SSH on 2222 through');
  });

  test("shows the service's rejection as a diagnostic on the characters at fault", async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile(DEPLOY_FILE));
    const live = (await entryPoint()).result;
    const before = live.version;
    // Our own check cannot know the service's rule ids; the service's dry run can.
    const ruleId = live.rules[1].id;
    assert.match(document.getText(), new RegExp(`id: "?${ruleId}"?\n`), 'the deploy recorded the rule ids');
    await edit(document, ruleId, 'no-such-rule');
    const outcome = await run('rulesets.deploy', { uri: document.uri, yes: true });
    assert.equal(outcome.reason, 'service-problems', JSON.stringify(outcome));
    const diagnostics = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'rulesets service');
    assert.equal(diagnostics.length, 1);
    // The rule's `id` value (with its quotes, if any): where the pointer /rules/1/id leads.
    const start = document.positionAt(document.getText().indexOf('no-such-rule'));
    assert.match(document.getText(diagnostics[0].range), /^"?no-such-rule"?$/);
    assert.equal(diagnostics[0].range.start.line, start.line);
    assert.match(diagnostics[0].message, /no rule with id no-such-rule/);
    assert.equal((await entryPoint()).result.version, before, 'nothing was deployed');
    await edit(document, 'no-such-rule', ruleId);
    assert.deepEqual(vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'rulesets service'), [], 'an edit clears them');
  });

  test('sends nothing while the file has unsaved changes (unless saved first) or errors of our own check', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile(DEPLOY_FILE));
    await vscode.window.showTextDocument(document);
    const before = (await entryPoint()).result.version;
    const change = new vscode.WorkspaceEdit();
    change.insert(document.uri, new vscode.Position(0, 0), '# unsaved\n');
    assert.ok(await vscode.workspace.applyEdit(change));
    assert.deepEqual(await run('rulesets.deploy', { uri: document.uri, yes: false }), { done: false, reason: 'unsaved', message: `${DEPLOY_FILE} has unsaved changes` });
    assert.ok(document.isDirty, 'still unsaved');
    await edit(document, 'tcp.dstport in {2222}', 'tcp.dstprt in {2222}');
    const outcome = await run('rulesets.deploy', { uri: document.uri, yes: true });
    assert.equal(outcome.reason, 'local-problems', JSON.stringify(outcome));
    assert.match(outcome.message ?? '', /^Fix 1 problem first/);
    assert.equal((await entryPoint()).result.version, before, 'nothing was deployed');
    await edit(document, '# unsaved\n', '');
    await edit(document, 'tcp.dstprt', 'tcp.dstport');
  });

  test('opens a version read-only, compares it with the file, and deletes an old one', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile(DEPLOY_FILE));
    await vscode.window.showTextDocument(document);
    const shown = await run('rulesets.showVersions', { uri: document.uri, version: '1' });
    assert.equal(shown.done, true, JSON.stringify(shown));
    const version = await vscode.workspace.openTextDocument(vscode.Uri.parse(shown.uri!));
    assert.equal(version.uri.scheme, 'rulesets-version');
    assert.match(version.getText(), /^version: "1"$/m);
    assert.match(version.getText(), /expression: tcp\.dstport in \{22\}/);
    assert.equal((await run('rulesets.compareWithLocal', version.uri)).done, true);

    const deleted = await run('rulesets.deleteVersion', { uri: document.uri, version: '1', yes: true });
    assert.equal(deleted.done, true, JSON.stringify(deleted));
    const versions = (await service<{ version: string }[]>('/rulesets/phases/magic_transit/entrypoint/versions')).result.map((v) => v.version);
    assert.ok(!versions.includes('1') && versions.length > 0, JSON.stringify(versions));
  });

  test('adds, moves and deletes one rule from the code lenses over it; the file follows', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceFile(DEPLOY_FILE));
    await vscode.window.showTextDocument(document);
    // A pulled file records the ruleset's id: then the rules get their code lenses.
    const pulled = await run('rulesets.pull', { phase: 'magic_transit', uri: document.uri, into: 'active', yes: true });
    assert.equal(pulled.done, true, JSON.stringify(pulled));
    assert.match(document.getText(), /^id: /m);
    await edit(document, document.getText(), `${document.getText()}  - action: block\n    expression: udp.dstport == 53\n`);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    const titles = lenses.map((lens) => lens.command?.title);
    assert.deepEqual(titles.filter((t) => t === 'Add rule to service'), ['Add rule to service']);
    assert.ok(titles.includes('Update rule on service') && titles.includes('Move…') && titles.includes('Delete rule on service'), JSON.stringify(titles));
    const add = lenses.find((lens) => lens.command?.title === 'Add rule to service')!.command!;
    const added = await run(add.command, { ...add.arguments![0], yes: true });
    assert.equal(added.done, true, JSON.stringify(added));
    let live = (await entryPoint()).result;
    assert.deepEqual(live.rules.map((r) => r.expression), ['tcp.dstport in {2222}', 'ip.proto == "tcp"', 'udp.dstport == 53']);
    assert.equal(recordedVersion(document), live.version, 'the file was in step: it records the new version');
    assert.match(document.getText(), new RegExp(`id: "?${live.rules[2].id}"?\n`), 'the new rule records its id');

    const whole = ({ version: _v, last_updated: _l, ...rule }: Ruleset['rules'][number]) => rule;
    const beforeMove = whole(live.rules[2]);
    const moved = await run('rulesets.moveRule', { uri: document.uri, index: 2, position: { before: '' } });
    assert.equal(moved.done, true, JSON.stringify(moved));
    live = (await entryPoint()).result;
    assert.equal(live.rules[0].expression, 'udp.dstport == 53');
    assert.deepEqual(whole(live.rules[0]), beforeMove, 'moved whole: the service replaces a rule with what it is sent');
    assert.ok(document.getText().indexOf('udp.dstport == 53') < document.getText().indexOf('tcp.dstport in {2222}'), 'moved in the file too');

    await edit(document, 'expression: udp.dstport == 53\n', 'expression: udp.dstport == 53\n    description: dns\n');
    const updated = await run('rulesets.updateRule', { uri: document.uri, index: 0, yes: true });
    assert.equal(updated.done, true, JSON.stringify(updated));
    live = (await entryPoint()).result;
    assert.deepEqual(whole(live.rules[0]), { ...beforeMove, description: 'dns' }, 'the file\'s rule, whole, with the live ref');

    const deleted = await run('rulesets.deleteRule', { uri: document.uri, index: 0, yes: true });
    assert.equal(deleted.done, true, JSON.stringify(deleted));
    live = (await entryPoint()).result;
    assert.equal(live.rules.length, 2);
    assert.ok(!document.getText().includes('udp.dstport == 53'), 'deleted from the file too');
    assert.equal(recordedVersion(document), live.version);
  });

  test('creates a custom ruleset from a file, then deletes it', async () => {
    const document = await writeFile('api-custom.ruleset.yaml', 'name: Custom blocks\nkind: custom\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport == 23\n');
    const created = await run('rulesets.create', { uri: document.uri, yes: true });
    assert.equal(created.done, true, JSON.stringify(created));
    // The runner has the service warn on this dry run: the warning is shown and logged.
    assert.ok(logged.some((line) => /^the service warns \(POST \/accounts\/\S+\/rulesets\?dry_run=true\): custom rulesets run only when an execute rule refers to them \(code 20100\)$/.test(line)), logged.join('\n'));
    assert.match(document.getText(), new RegExp(`^id: "?${created.id}"?$`, 'm'));
    assert.equal((await service(`/rulesets/${created.id}`)).result.name, 'Custom blocks');
    const deleted = await run('rulesets.deleteRuleset', { id: created.id, yes: true });
    assert.equal(deleted.done, true, JSON.stringify(deleted));
    assert.equal((await service(`/rulesets/${created.id}`)).status, 404);
  });

  test('deploys a file of `phase` and `rules` alone to its phase\'s entry point: the service names it, the file records the version and still names nothing', async () => {
    const document = await writeFile('api-entry-rules.ruleset.yaml', 'phase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.request.uri.path eq "/admin"\n');
    const first = await run('rulesets.deploy', { uri: document.uri, yes: true });
    assert.equal(first.done, true, JSON.stringify(first));
    const live = (await service('/rulesets/phases/http_request_firewall_custom/entrypoint')).result;
    assert.deepEqual([live.name, live.kind, live.version, live.rules.map((r) => r.expression)], ['default', 'root', first.version, ['http.request.uri.path eq "/admin"']]);
    assert.equal(recordedVersion(document), live.version);
    assert.doesNotMatch(document.getText(), /^(name|kind):/m);
    await edit(document, '"/admin"', '"/admin/"');
    const second = await run('rulesets.deploy', { uri: document.uri, yes: true });
    assert.equal(second.done, true, JSON.stringify(second));
    const after = (await service('/rulesets/phases/http_request_firewall_custom/entrypoint')).result;
    assert.deepEqual([after.name, after.rules.map((r) => r.expression)], ['default', ['http.request.uri.path eq "/admin/"']]);
  });

  test('pulls into a new document, and shows a managed ruleset\'s rules by tag', async () => {
    const pulled = await run('rulesets.pull', { phase: 'magic_transit', into: 'new', format: 'json' });
    assert.equal(pulled.done, true, JSON.stringify(pulled));
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(pulled.uri!));
    assert.equal(JSON.parse(document.getText()).version, pulled.version);
    const tagged = await run('rulesets.rulesByTag', { id: env.managed, tag: 'wordpress' });
    assert.equal(tagged.done, true, JSON.stringify(tagged));
    assert.equal(tagged.rules, 1);
    const shown = await vscode.workspace.openTextDocument(vscode.Uri.parse(tagged.uri!));
    assert.match(shown.getText(), /wordpress/);
  });

  test('logs each request, and never the token', async () => {
    assert.ok(logged.some((line) => /PUT \/accounts\/\S+\/rulesets\/phases\/magic_transit\/entrypoint/.test(line)), logged.slice(0, 5).join('\n'));
    assert.ok(logged.some((line) => /\?dry_run=true/.test(line)));
    for (const line of logged) assert.ok(!line.includes(env.token), `a log line holds the token: ${line}`);
  });
}
