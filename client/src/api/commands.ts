/**
 * The API commands (issue 5): credentials, the scope, create, deploy, pull, versions, rules
 * one by one, rules by tag; the `rulesets-version` documents, the rule code lenses and the
 * scope's status bar item. Every command takes optional arguments, so that tests and other
 * extensions drive it without its input boxes and confirmations (`{ yes: true }` answers them).
 */
import * as vscode from 'vscode';
import { clearCredentials, setApiEmailAndKey, setApiToken } from './credentials';
import { create, deploy } from './deploy';
import { PLAN_SCHEME, PLAN_VIEW, PlanView } from './plan-view';
import { pull } from './pull';
import { addRule, CODE_LENS_SELECTOR, deleteRule, moveRule, RuleCodeLenses, updateRule } from './rule-commands';
import { ApiSession, readSettings, type Outcome } from './session';
import { ScopeStatusItem } from './status';
import { describeScope, scopeOfSettings, type Scope } from './scope';
import { VERSION_SCHEME } from './version-uri';
import { compareWithLocal, deleteRuleset, deleteVersion, rulesByTag, showVersions, VersionDocuments } from './versions';

/** What the extension gives its tests (`extension.exports`): the API log lines as written. */
export interface ApiTestHooks {
  readonly onDidWriteApiLog: vscode.Event<string>;
  readonly statusText: () => string;
}

/** A command's arguments: an object, or the Uri a menu passes. */
function argsOf<T extends object>(arg: unknown): T {
  if (arg instanceof vscode.Uri) return { uri: arg } as T;
  return (typeof arg === 'object' && arg !== null ? arg : {}) as T;
}

export function registerApiCommands(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel): ApiTestHooks {
  const session = new ApiSession(context, channel);
  const documents = new VersionDocuments(session);
  const status = new ScopeStatusItem(session);
  const planView = new PlanView(session);
  context.subscriptions.push(
    planView,
    vscode.window.registerTreeDataProvider(PLAN_VIEW, planView),
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, planView),
    vscode.commands.registerCommand('rulesets.plan', () => planView.runPlan()),
    vscode.commands.registerCommand('rulesets.applyPlan', (arg) => planView.runApply(argsOf(arg))),
    vscode.commands.registerCommand('rulesets.showPlanDiff', (arg) => planView.showDiff(argsOf(arg))),
    session,
    status,
    vscode.workspace.registerTextDocumentContentProvider(VERSION_SCHEME, documents),
    vscode.languages.registerCodeLensProvider(CODE_LENS_SELECTOR, new RuleCodeLenses()),
    vscode.commands.registerCommand('rulesets.setApiToken', (arg) => setApiToken(session.credentials, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.setApiEmailKey', (arg) => setApiEmailAndKey(session.credentials, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.clearCredentials', () => clearCredentials(session.credentials)),
    vscode.commands.registerCommand('rulesets.chooseTarget', (arg) => chooseScope(argsOf(arg))),
    vscode.commands.registerCommand('rulesets.create', (arg) => create(session, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.deploy', (arg) => deploy(session, documents, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.pull', (arg) => pull(session, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.showVersions', (arg) => showVersions(session, documents, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.compareWithLocal', (arg) => compareWithLocal(arg instanceof vscode.Uri ? arg : undefined)),
    vscode.commands.registerCommand('rulesets.deleteVersion', (arg) => deleteVersion(session, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.deleteRuleset', (arg) => deleteRuleset(session, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.addRule', (arg) => addRule(session, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.updateRule', (arg) => updateRule(session, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.moveRule', (arg) => moveRule(session, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.deleteRule', (arg) => deleteRule(session, argsOf(arg))),
    vscode.commands.registerCommand('rulesets.rulesByTag', (arg) => rulesByTag(session, documents, argsOf(arg))),
  );
  return { onDidWriteApiLog: session.log.onDidWrite, statusText: () => status.text };
}

/** An account or zone id as the API takes it in a path. */
const ID = /^[A-Za-z0-9_-]+$/;

/**
 * `Rulesets: Choose Account or Zone`; `{accountId}` or `{zoneId}` sets it without asking. It is
 * written where the current choice is (the workspace's settings if they have one, else the
 * user's), and the other kind is cleared there, so one scope is in effect.
 */
async function chooseScope(args: { accountId?: string; zoneId?: string }): Promise<Outcome<{ scope: Scope }>> {
  const given: Scope | undefined = args.accountId ? { kind: 'account', id: args.accountId } : args.zoneId ? { kind: 'zone', id: args.zoneId } : undefined;
  const scope = given ?? (await askScope(scopeOfSettings(readSettings())));
  if (!scope) return { done: false, reason: 'cancelled' };
  if (!ID.test(scope.id)) throw new Error(`Rulesets: "${scope.id}" is not an ${scope.kind} id`);
  const config = vscode.workspace.getConfiguration('rulesets.api');
  const inWorkspace = ['accountId', 'zoneId'].some((key) => config.inspect<string>(key)?.workspaceValue !== undefined);
  const where = inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const [chosen, other] = scope.kind === 'account' ? ['accountId', 'zoneId'] : ['zoneId', 'accountId'];
  await config.update(chosen, scope.id, where);
  // In the workspace, an empty value hides a user-level one; in the user's settings, remove it.
  await config.update(other, where === vscode.ConfigurationTarget.Workspace ? '' : undefined, where);
  void vscode.window.showInformationMessage(`Rulesets: the API commands now work on ${scope.kind} ${scope.id}.`);
  return { done: true, scope };
}

/** The quick pick (account or zone) and the input box (its id). */
async function askScope(current: Scope | undefined): Promise<Scope | undefined> {
  const kinds = [
    { label: 'Account', description: current?.kind === 'account' ? `now ${current.id}` : '', detail: 'Rulesets at account level (/accounts/{id}/rulesets)', targetKind: 'account' as const },
    { label: 'Zone', description: current?.kind === 'zone' ? `now ${current.id}` : '', detail: 'Rulesets at zone level (/zones/{id}/rulesets)', targetKind: 'zone' as const },
  ];
  const kind = (await vscode.window.showQuickPick(kinds, { title: 'Rulesets: Choose Account or Zone', placeHolder: current ? `Now: ${describeScope(current)}` : 'Where the API commands work' }))?.targetKind;
  if (!kind) return undefined;
  const id = await vscode.window.showInputBox({
    title: `Rulesets: the ${kind} id`,
    prompt: `The ${kind}'s id (32 hexadecimal digits on the service)`,
    value: current?.kind === kind ? current.id : '',
    ignoreFocusOut: true,
    validateInput: (value) => (ID.test(value.trim()) ? undefined : `Enter the ${kind} id: letters, digits, - and _ only`),
  });
  return id === undefined ? undefined : { kind, id: id.trim() };
}
