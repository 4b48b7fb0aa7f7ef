/**
 * What every API command shares: the settings and credentials turned into a client, the log,
 * progress that can be cancelled, one way to report a failure, the service's problems as
 * diagnostics, and the documents the commands read and write.
 */
import * as vscode from 'vscode';
import { type ApiMessage, describeMessage, redact, RulesetsClient, type ServiceProblem } from '../../../server/src/core';
import { CredentialStore } from './credentials';
import { failureMessage, isCancellation } from './messages';
import { connectionOf, type ApiSettings, type LastDeploy, type Scope } from './scope';

/** The `rulesets-service` diagnostics' source. */
export const SERVICE_SOURCE = 'rulesets service';

/**
 * The API lines of the "Rulesets" log channel: every line redacted with the stored secrets
 * (the client redacts its own already), and each handed to test listeners as written.
 */
export class ApiLog implements vscode.Disposable {
  private readonly written = new vscode.EventEmitter<string>();
  /** Each line as it went to the channel. */
  readonly onDidWrite = this.written.event;

  constructor(
    private readonly channel: vscode.LogOutputChannel,
    private readonly secrets: () => readonly string[],
  ) {}

  info(line: string): void {
    const safe = redact(line, this.secrets());
    this.channel.info(safe);
    this.written.fire(safe);
  }

  warn(line: string): void {
    const safe = redact(line, this.secrets());
    this.channel.warn(safe);
    this.written.fire(safe);
  }

  error(line: string): void {
    const safe = redact(line, this.secrets());
    this.channel.error(safe);
    this.written.fire(safe);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.written.dispose();
  }
}

export function readSettings(): ApiSettings {
  const config = vscode.workspace.getConfiguration('rulesets.api');
  return { baseUrl: config.get<string>('baseUrl', ''), accountId: config.get<string>('accountId', ''), zoneId: config.get<string>('zoneId', '') };
}

export interface Connected {
  readonly client: RulesetsClient;
  readonly scope: Scope;
}

/** Arguments every command takes: `yes` answers its confirmation (tests, automation). */
export interface CommandArgs {
  readonly uri?: vscode.Uri | string;
  readonly yes?: boolean;
}

/** What a command did, for its caller (tests read it; the palette ignores it). */
export type Outcome<T extends object = object> = ({ readonly done: true } & T) | { readonly done: false; readonly reason: string; readonly message?: string };

export function refused(reason: string, message?: string): Outcome<never> {
  return { done: false, reason, ...(message !== undefined ? { message } : {}) };
}

const FIXES = {
  baseUrl: { action: 'Open Settings', run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'rulesets.api') },
  scope: { action: 'Choose Account or Zone', run: () => vscode.commands.executeCommand('rulesets.chooseTarget') },
  credentials: { action: 'Set API Token', run: () => vscode.commands.executeCommand('rulesets.setApiToken') },
} as const;

export class ApiSession implements vscode.Disposable {
  readonly credentials: CredentialStore;
  readonly log: ApiLog;
  /** The service's dry-run rejections, by file, on the characters at fault. */
  readonly diagnostics = vscode.languages.createDiagnosticCollection('rulesets-service');
  private readonly deployed = new vscode.EventEmitter<void>();
  readonly onDidDeploy = this.deployed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The service's warnings shown so far, so that one is not shown twice. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    channel: vscode.LogOutputChannel,
  ) {
    this.credentials = new CredentialStore(context.secrets);
    this.log = new ApiLog(channel, () => this.credentials.secretsToRedact());
    this.subscriptions.push(
      this.credentials,
      this.log,
      this.diagnostics,
      this.deployed,
      // The service's ranges are those of the text it saw: an edit makes them wrong.
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.diagnostics.delete(event.document.uri);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.diagnostics.delete(document.uri)),
    );
  }

  /**
   * A client for the configured scope (or for `scope`, which a document names), or undefined
   * after saying what is missing and offering the fix.
   */
  async connect(scope?: Scope): Promise<Connected | undefined> {
    const settings = readSettings();
    const chosen = scope ? { ...settings, accountId: scope.kind === 'account' ? scope.id : '', zoneId: scope.kind === 'zone' ? scope.id : '' } : settings;
    const connection = connectionOf(chosen, await this.credentials.get());
    if (!connection.ok) {
      const fix = FIXES[connection.fix];
      void vscode.window.showWarningMessage(`Rulesets: ${connection.problem}`, fix.action).then((choice) => (choice ? fix.run() : undefined));
      return undefined;
    }
    try {
      const client = new RulesetsClient({
        baseUrl: connection.baseUrl,
        credentials: connection.credentials,
        scope: connection.scope,
        log: (line) => this.log.info(line),
        onMessages: (messages, request) => this.warn(messages, request),
      });
      return { client, scope: connection.scope };
    } catch (error) {
      this.report(error);
      return undefined;
    }
  }

  /**
   * The service's warnings on an answer that succeeded: each in the log, and a notification
   * (one per answer) with "Show Log". A dry run and the write after it often say the same:
   * a message already shown is logged again but not shown twice.
   */
  private warn(messages: readonly ApiMessage[], request: string): void {
    const fresh: string[] = [];
    for (const message of messages) {
      const text = redact(describeMessage(message), this.credentials.secretsToRedact());
      this.log.warn(`the service warns (${request}): ${text}`);
      if (!this.warned.has(text)) fresh.push(text);
      this.warned.add(text);
    }
    if (fresh.length === 0) return;
    void vscode.window.showWarningMessage(`Rulesets: the service warns: ${fresh.join('; ')}`, 'Show Log').then((choice) => (choice ? this.log.show() : undefined));
  }

  /** Says why a command failed, once, with "Show Log"; returns the (redacted) message. */
  report(error: unknown): string {
    if (isCancellation(error)) return 'cancelled';
    const message = failureMessage(error, this.credentials.secretsToRedact());
    this.log.error(message);
    void vscode.window.showErrorMessage(`Rulesets: ${message}`, 'Show Log').then((choice) => (choice ? this.log.show() : undefined));
    return message;
  }

  /** Runs `task` in a cancellable progress notification; Cancel aborts its requests. */
  progress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Thenable<T> {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Rulesets: ${title}`, cancellable: true }, (_progress, token) => {
      const abort = new AbortController();
      const subscription = token.onCancellationRequested(() => abort.abort());
      return task(abort.signal).finally(() => subscription.dispose());
    });
  }

  /** A modal question; resolves with the action chosen, undefined for Cancel. */
  async ask(message: string, detail: string, ...actions: string[]): Promise<string | undefined> {
    return vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions);
  }

  /** The service's problems as diagnostics of `document` (whose text they were found in). */
  showServiceProblems(document: vscode.TextDocument, problems: readonly ServiceProblem[]): void {
    this.diagnostics.set(
      document.uri,
      problems.map((problem) => {
        const diagnostic = new vscode.Diagnostic(new vscode.Range(document.positionAt(problem.start), document.positionAt(problem.end)), problem.message, vscode.DiagnosticSeverity.Error);
        diagnostic.source = SERVICE_SOURCE;
        return diagnostic;
      }),
    );
  }

  lastDeploy(scope: Scope): LastDeploy | undefined {
    return this.context.workspaceState.get<LastDeploy>(lastDeployKey(scope));
  }

  async recordDeploy(scope: Scope, last: LastDeploy): Promise<void> {
    await this.context.workspaceState.update(lastDeployKey(scope), last);
    this.deployed.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

function lastDeployKey(scope: Scope): string {
  return `rulesets.api.lastDeploy:${scope.kind}:${scope.id}`;
}

// ---------------------------------------------------------------- documents

/** The document a command works on: the one its arguments name, else the active editor's. */
export async function commandDocument(args: CommandArgs | vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  const named = args instanceof vscode.Uri ? args : args?.uri;
  if (named) return vscode.workspace.openTextDocument(typeof named === 'string' ? vscode.Uri.parse(named) : named);
  const document = vscode.window.activeTextEditor?.document;
  if (!document) void vscode.window.showWarningMessage('Rulesets: open a ruleset file first.');
  return document;
}

/**
 * Whether `document` is saved, as a command that sends the file needs: a dirty file is saved
 * first when the person agrees (or `args.yes` says so), else the command stops; a new
 * (untitled) one must be saved under a name first.
 */
export async function ensureSaved(session: ApiSession, document: vscode.TextDocument, what: string, args: CommandArgs): Promise<boolean> {
  if (document.isUntitled) {
    void vscode.window.showWarningMessage('Rulesets: save the file first (as *.ruleset.yaml or *.ruleset.json): the file records the ruleset\'s id and version.');
    return false;
  }
  if (!document.isDirty) return true;
  const save = 'Save';
  const answer = args.yes !== undefined ? (args.yes ? save : undefined) : await session.ask(`${fileName(document)} has unsaved changes. Save it and ${what}?`, `Only the saved file is sent, and the file records the version afterwards.`, save);
  if (answer !== save) return false;
  return (await document.save()) && !document.isDirty;
}

/** Replaces a document's whole text (one undo step) and saves it. */
export async function replaceText(document: vscode.TextDocument, text: string, save = true): Promise<boolean> {
  if (document.getText() !== text) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
    if (!(await vscode.workspace.applyEdit(edit))) return false;
  }
  return save ? document.save() : true;
}

export function fileName(document: vscode.TextDocument): string {
  return document.isUntitled ? document.uri.path : vscode.workspace.asRelativePath(document.uri, false);
}
