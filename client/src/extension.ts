/**
 * The VS Code extension: starts the bundled rulesets language server over IPC for JSON, YAML
 * and Terraform documents and adds what only VS Code has (a language status item, a log channel), and
 * the API commands (api/). Everything about rulesets lives in the server; this file only wires.
 */
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type Middleware,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { PROJECT_CONFIG_FILE_NAME } from '../../server/src/core';
import { DIAGNOSTIC_SOURCE, DOCUMENT_STATUS_REQUEST, type DocumentStatus, type DocumentStatusParams } from '../../server/src/protocol';
import { registerApiCommands, type ApiTestHooks } from './api/commands';
import { registerCheckWorkspace } from './check-workspace-command';
import { DOCUMENT_SELECTOR } from './documents';
import { registerPacketTesting } from './packet-commands';
import { codeOf, codesReportedElsewhere, symbolsProvidedElsewhere, type OtherSupport } from './overlap';
import { describeStatus, type ProblemCounts } from './status-text';
import { loadTerraformParserWhenNeeded } from './terraform-parser';
import { registerTestExplorer } from './test-explorer';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<ApiTestHooks> {
  const log = vscode.window.createOutputChannel('Rulesets', { log: true });
  context.subscriptions.push(log);
  const api = registerApiCommands(context, log);
  const packetLenses = registerPacketTesting(context);
  loadTerraformParserWhenNeeded(context, () => packetLenses.refresh(), log);
  registerTestExplorer(context);

  client = createClient(context, log);
  registerCheckWorkspace(context, () => client, log);
  const status = new RulesetStatusItem(() => client);
  context.subscriptions.push(
    status,
    vscode.commands.registerCommand('rulesets.showOutput', () => log.show(true)),
    vscode.commands.registerCommand('rulesets.restartServer', async () => {
      log.info('restarting the language server');
      await client?.restart();
      status.refresh();
    }),
  );
  // Not awaited: the editor is usable at once, and features arrive when the server is up.
  client.start().then(
    () => status.refresh(),
    (error: unknown) => {
      log.error(`the rulesets language server did not start: ${String(error)}`);
      status.refresh();
    },
  );
  return api;
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

function createClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    // The server reads the `.rulesets.yaml` files of the workspace from disk: it must hear when one is saved.
    synchronize: { configurationSection: 'rulesets', fileEvents: projectConfigWatcher(context) },
    outputChannel: log,
    middleware: withoutDuplicates(),
  };
  return new LanguageClient('rulesets', 'Rulesets', serverOptions, clientOptions);
}

function projectConfigWatcher(context: vscode.ExtensionContext): vscode.FileSystemWatcher {
  const watcher = vscode.workspace.createFileSystemWatcher(`**/${PROJECT_CONFIG_FILE_NAME}`);
  context.subscriptions.push(watcher);
  return watcher;
}

/** What the other JSON, YAML and Terraform support in this VS Code does, read when it is needed. */
function otherSupport(): OtherSupport {
  const json = vscode.extensions.getExtension('vscode.json-language-features') !== undefined;
  const yaml = vscode.extensions.getExtension('redhat.vscode-yaml') !== undefined;
  return {
    jsonValidates: json && vscode.workspace.getConfiguration('json').get<boolean>('validate.enable', true),
    jsonSymbols: json,
    yamlValidates: yaml && vscode.workspace.getConfiguration('yaml').get<boolean>('validate', true),
    yamlSymbols: yaml,
    terraformValidates: vscode.extensions.getExtension('hashicorp.terraform') !== undefined && vscode.workspace.getConfiguration('terraform').get<boolean>('languageServer.enable', true),
  };
}

/** Leaves out what VS Code's JSON support, the YAML extension or the Terraform extension already shows. */
function withoutDuplicates(): Middleware {
  const keep = (document: vscode.TextDocument | undefined, diagnostics: readonly vscode.Diagnostic[]) => {
    if (!document) return [...diagnostics];
    const elsewhere = codesReportedElsewhere(document.languageId, otherSupport());
    return diagnostics.filter((d) => !elsewhere.has(codeOf(d) ?? ''));
  };
  const documentOf = (uri: vscode.Uri) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return {
    handleDiagnostics: (uri, diagnostics, next) => next(uri, keep(documentOf(uri), diagnostics)),
    provideDiagnostics: async (document, previousResultId, token, next) => {
      const report = await next(document, previousResultId, token);
      if (!report || report.kind !== 'full') return report;
      const textDocument = document instanceof vscode.Uri ? documentOf(document) : document;
      return { ...report, items: keep(textDocument, report.items) };
    },
    provideDocumentSymbols: (document, token, next) =>
      symbolsProvidedElsewhere(document.languageId, otherSupport()) ? undefined : next(document, token),
  };
}

/**
 * The language status item of JSON, YAML and Terraform editors: whether the file is treated as a
 * ruleset (and why), and how its check went.
 */
class RulesetStatusItem implements vscode.Disposable {
  private readonly item = vscode.languages.createLanguageStatusItem('rulesets.status', DOCUMENT_SELECTOR);
  private readonly subscriptions: vscode.Disposable[] = [];
  private pending?: NodeJS.Timeout;
  private generation = 0;

  constructor(private readonly clientOf: () => LanguageClient | undefined) {
    this.item.name = 'Rulesets';
    this.item.command = { title: 'Show log', command: 'rulesets.showOutput' };
    this.show(describeStatus(undefined, { errors: 0, warnings: 0, others: 0 }));
    const active = () => vscode.window.activeTextEditor?.document.uri.toString();
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((uri) => uri.toString() === active())) this.refresh();
      }),
      // An edit can make a file a ruleset or not (by its content); ask once typing pauses.
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() === active()) this.refresh(300);
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('rulesets')) this.refresh(300);
      }),
    );
  }

  refresh(delayMs = 0): void {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => void this.update(), delayMs);
  }

  private async update(): Promise<void> {
    const generation = ++this.generation;
    const document = vscode.window.activeTextEditor?.document;
    const client = this.clientOf();
    if (!document || !client?.isRunning()) return;
    let status: DocumentStatus | undefined;
    try {
      const params: DocumentStatusParams = { uri: client.code2ProtocolConverter.asUri(document.uri) };
      status = await client.sendRequest<DocumentStatus>(DOCUMENT_STATUS_REQUEST, params);
    } catch {
      return; // the server is restarting; the next event asks again
    }
    if (generation !== this.generation) return;
    this.show(describeStatus(status, countProblems(document.uri)));
  }

  private show(view: ReturnType<typeof describeStatus>): void {
    this.item.text = view.text;
    this.item.detail = view.detail;
    this.item.busy = view.busy;
    this.item.severity =
      view.severity === 'error'
        ? vscode.LanguageStatusSeverity.Error
        : view.severity === 'warning'
          ? vscode.LanguageStatusSeverity.Warning
          : vscode.LanguageStatusSeverity.Information;
  }

  dispose(): void {
    clearTimeout(this.pending);
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function countProblems(uri: vscode.Uri): ProblemCounts {
  let errors = 0;
  let warnings = 0;
  let others = 0;
  for (const d of vscode.languages.getDiagnostics(uri)) {
    if (d.source !== DIAGNOSTIC_SOURCE) continue;
    if (d.severity === vscode.DiagnosticSeverity.Error) errors++;
    else if (d.severity === vscode.DiagnosticSeverity.Warning) warnings++;
    else others++;
  }
  return { errors, warnings, others };
}
