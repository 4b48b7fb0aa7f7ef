/**
 * `Rulesets: Deploy` and `Rulesets: Create` from the active file, done safely: only a saved
 * file is sent; our own check, then the service's dry run, each shown where it points; a version
 * someone else deployed is never replaced without saying so; the diff and a modal confirm come
 * before the write; the file records the new version afterwards.
 */
import * as vscode from 'vscode';
import { applyCreate, applyDeploy, type LocalRuleset, planCreate, planDeploy, readLocalRuleset, type Ruleset, type ServiceProblem } from '../../../server/src/core';
import { conflictQuestion, deployQuestion, localProblemsMessage, quoted, serviceProblemsMessage } from './messages';
import { commandDocument, ensureSaved, fileName, refused, replaceText, type ApiSession, type CommandArgs, type Connected, type Outcome } from './session';
import { describeScope } from './scope';
import type { VersionDocuments } from './versions';

export interface DeployArgs extends CommandArgs {
  /** Replace a version someone else deployed (answers the conflict warning's "Deploy Anyway"). */
  readonly force?: boolean;
}

export type DeployOutcome = Outcome<{ id: string; version: string }>;

/**
 * Our own check's errors (how many, and the Problems panel opened) or the service's dry-run
 * rejection (its problems on the file's characters): either stops the command.
 */
function stopOnProblems(session: ApiSession, document: vscode.TextDocument, file: string, plan: { localProblems: readonly { severity: string }[]; serviceProblems: readonly ServiceProblem[] }): DeployOutcome | undefined {
  const errors = plan.localProblems.filter((p) => p.severity === 'error').length;
  if (errors > 0) {
    const message = localProblemsMessage(errors, file);
    void vscode.window.showErrorMessage(`Rulesets: ${message}`);
    void vscode.commands.executeCommand('workbench.actions.view.problems');
    return refused('local-problems', message);
  }
  const problems = plan.serviceProblems;
  if (problems.length === 0) return undefined;
  session.showServiceProblems(document, problems);
  const message = serviceProblemsMessage(problems.length, file, problems[0].message.split('\n')[0]);
  session.log.error(message);
  void vscode.window.showErrorMessage(`Rulesets: ${message}`, 'Show Problems').then((choice) => (choice ? vscode.commands.executeCommand('workbench.actions.view.problems') : undefined));
  return refused('service-problems', message);
}

interface Prepared extends Connected {
  readonly document: vscode.TextDocument;
  readonly file: string;
  readonly local: LocalRuleset;
}

/** The saved file, read as a ruleset, and a client; or why the command stops there. */
async function prepare(session: ApiSession, args: CommandArgs, verb: string): Promise<Prepared | DeployOutcome> {
  const document = await commandDocument(args);
  if (!document) return refused('no-document');
  if (!(await ensureSaved(session, document, `${verb} it`, args))) return refused('unsaved', `${fileName(document)} has unsaved changes`);
  const connected = await session.connect();
  if (!connected) return refused('not-connected');
  const file = fileName(document);
  try {
    const local = readLocalRuleset(file, document.getText(), { create: verb === 'create' });
    session.diagnostics.delete(document.uri);
    return { ...connected, document, file, local };
  } catch (error) {
    return refused('error', session.report(error));
  }
}

/** After the write: the file records what the service answered (unless it changed meanwhile), and the status bar the deploy. */
async function finish(session: ApiSession, prepared: Prepared, ruleset: Ruleset, newText: string, said: string): Promise<DeployOutcome> {
  const { document, local, file, scope } = prepared;
  session.log.info(`${said} (${file}, ${describeScope(scope)})`);
  if (document.getText() === local.text) await replaceText(document, newText);
  else void vscode.window.showWarningMessage(`Rulesets: ${said}, but ${file} changed meanwhile and was left as it is: pull it to record the new version.`);
  await session.recordDeploy(scope, { name: ruleset.name, version: ruleset.version, at: new Date().toISOString() });
  return { done: true, id: ruleset.id, version: ruleset.version };
}

export async function deploy(session: ApiSession, documents: VersionDocuments, args: DeployArgs = {}): Promise<DeployOutcome> {
  const prepared = await prepare(session, args, 'deploy');
  if (!('local' in prepared)) return prepared;
  const { client, scope, document, file, local } = prepared;
  try {
    const plan = await session.progress(`Checking ${file} for ${describeScope(scope)}`, (signal) => planDeploy(client, local, { signal }));
    const stop = stopOnProblems(session, document, file, plan);
    if (stop) return stop;
    // A file written for an entry point may give no name: the live one's, else the file's.
    const name = local.body.name ?? plan.deployed?.name ?? file;
    let force = false;
    if (plan.conflict) {
      const question = conflictQuestion(name, plan.conflict, scope);
      const interactive = args.yes === undefined && args.force === undefined;
      const answer = interactive ? await session.ask(question.message, question.detail, 'Show Diff', 'Deploy Anyway') : args.force ? 'Deploy Anyway' : undefined;
      if (answer === 'Show Diff') await documents.showDeployDiff(document, local, plan, scope);
      if (answer !== 'Deploy Anyway') return refused('conflict', question.message);
      force = true;
    } else {
      await documents.showDeployDiff(document, local, plan, scope);
      const question = deployQuestion(name, plan, scope);
      const confirmed = args.yes ?? (await session.ask(question.message, question.detail, 'Deploy')) === 'Deploy';
      if (!confirmed) return refused('declined');
    }
    const { ruleset, newText } = await session.progress(`Deploying ${name} to ${describeScope(scope)}`, (signal) => applyDeploy(client, local, plan, { force, signal }));
    const outcome = await finish(session, prepared, ruleset, newText, `deployed ${quoted(ruleset.name)} as version ${ruleset.version}`);
    void vscode.window.showInformationMessage(`Rulesets: Deployed ${quoted(ruleset.name)} as version ${ruleset.version}.`);
    return outcome;
  } catch (error) {
    return refused('error', session.report(error));
  }
}

export async function create(session: ApiSession, args: CommandArgs = {}): Promise<DeployOutcome> {
  const prepared = await prepare(session, args, 'create');
  if (!('local' in prepared)) return prepared;
  const { client, scope, document, file, local } = prepared;
  try {
    const plan = await session.progress(`Checking ${file} for ${describeScope(scope)}`, (signal) => planCreate(client, local, { signal }));
    const stop = stopOnProblems(session, document, file, plan);
    if (stop) return stop;
    // A create's file gives all three (readLocalRuleset's `create`).
    const { name = file, kind, phase } = local.body;
    const confirmed =
      args.yes ??
      (await session.ask(`Create ${quoted(name)} in ${describeScope(scope)}?`, `A new ${kind} ruleset in phase ${phase}, with ${local.body.rules.length} rules, in ${scope.kind} ${scope.id}. The file then records its id and version.`, 'Create')) === 'Create';
    if (!confirmed) return refused('declined');
    const { ruleset, newText } = await session.progress(`Creating ${name} in ${describeScope(scope)}`, (signal) => applyCreate(client, local, plan, { signal }));
    const outcome = await finish(session, prepared, ruleset, newText, `created ${quoted(ruleset.name)} as ruleset ${ruleset.id}, version ${ruleset.version}`);
    void vscode.window.showInformationMessage(`Rulesets: Created ${quoted(ruleset.name)} (version ${ruleset.version}).`);
    return outcome;
  } catch (error) {
    return refused('error', session.report(error));
  }
}
