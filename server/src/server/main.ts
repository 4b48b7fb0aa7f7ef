import {
  CodeActionKind,
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CompletionList,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { basename, dirname } from 'node:path';
import { codeActions } from '../features/code-actions';
import { completion, COMPLETION_TRIGGER_CHARACTERS } from '../features/completion';
import { DeferredDocumentation } from './deferred-documentation';
import { itemDefaultsSupport, withItemDefaults, type ItemDefaultsSupport } from './completion-defaults';
import { hover } from '../features/hover';
import { decodeFileBytes, diskModuleReader, ExpressionCache, formatOfDocument, includeReader, type TerraformModuleReader } from '../core';
import { DocumentModel } from '../features/model';
import { entryPointDiagnostics, entryPointPeers } from './entry-point-files';
import { isProjectConfigDocument, projectConfigCodeActions, projectConfigCompletion, projectConfigHover } from '../features/project-config';
import { semanticTokens, SEMANTIC_TOKENS_LEGEND } from '../features/semantic-tokens';
import { signatureHelp } from '../features/signature-help';
import { documentSymbols } from '../features/symbols';
import { testFileCompletion, type RulesetReader } from '../features/test-file';
import { CHECK_FILES_REQUEST, DOCUMENT_STATUS_REQUEST, type CheckFilesParams, type DocumentStatus, type DocumentStatusParams } from '../protocol';
import { version } from '../version';
import { DiagnosticsScheduler, sameModule } from './diagnostics-scheduler';
import { guarded } from './guard';
import { ProjectConfiguration } from './project-configuration';
import { TerraformParser } from './terraform-parser';
import { runInIdleTime, warmUpSteps } from './warm-up';
import { WorkspaceCheck } from './workspace-check';

/**
 * The language server: the documents and their models, wired to the connection with the
 * diagnostics scheduler (when diagnostics are computed and sent) and the project configuration
 * (what each document is checked with); every other request goes to its feature.
 */
export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const models = new Map<string, DocumentModel>();
  /** Every document's expressions, checked once per text: an open document's kept, others within a budget of bytes. */
  const expressionCache = new ExpressionCache();
  let semanticTokensRefreshSupport = false;
  /** The client asks for a completion item's documentation when it shows it (completionItem/resolve). */
  let deferDocumentation = false;
  const deferredDocumentation = new DeferredDocumentation();
  /** What the client reads of a completion list's item defaults. */
  let itemDefaults: ItemDefaultsSupport = itemDefaultsSupport(undefined);

  const configuration = new ProjectConfiguration(connection, () => {
    workspaceCheck.settingsChanged();
    scheduler.recheckAll();
  });
  const settingsOf = (uri: string) => configuration.settingsOf(uri);
  const terraformParser = new TerraformParser((message) => connection.console.error(message));
  const scheduler = new DiagnosticsScheduler({ connection, documents, cache: expressionCache, terraformParser, modelOf, settingsOf, readRuleset: (uri) => readRuleset(uri), entryPoints: (model) => entryPointDiagnostics(model, { nearest: configuration.nearestOf(model.uri), openText: (uri) => documents.get(uri)?.getText() }),
    entryPointPeers: (uri) => entryPointPeers(uri, documents.all().map((d) => d.uri), (other) => configuration.nearestOf(other)),
  });
  /** "Check Workspace": files checked from disk, whose diagnostics outlive their documents. */
  const workspaceCheck = new WorkspaceCheck({
    connection,
    cache: expressionCache,
    settingsFor: settingsOf,
    isOpen: (uri) => documents.get(uri) !== undefined,
    pullsDiagnostics: () => scheduler.pulls,
    watchesFiles: () => configuration.watchesFiles,
  });

  const guard = <T>(feature: string, empty: T, run: () => T): T => guarded(feature, empty, run, (message) => connection.console.error(message));

  /** Terraform documents opened before the parser was there get everything once it is. */
  function terraformParserLoaded(): void {
    const open = documents.all().filter((document) => formatOfDocument(document.languageId, document.uri) === 'hcl');
    if (open.length === 0) return;
    scheduler.recheck(open.map((document) => document.uri));
    if (semanticTokensRefreshSupport) connection.languages.semanticTokens.refresh();
  }

  /** The model of the document's current version: one parse per version, shared by every feature. */
  function modelOf(uri: string): DocumentModel | undefined {
    const document = documents.get(uri);
    if (!document) return undefined;
    const cached = models.get(uri);
    const format = formatOfDocument(document.languageId, uri);
    const varFiles = format === 'hcl' ? settingsOf(uri).terraformVarFiles : undefined;
    const moduleStamp = format === 'hcl' && uri.startsWith('file:') ? `${moduleStampOf(uri)}|${(varFiles ?? []).join(' ')}` : '';
    if (cached && cached.version === document.version && cached.moduleStamp === moduleStamp) return cached;
    if (!format) return undefined;
    // Until the parser is loaded a Terraform document cannot be read; it is asked for again then.
    if (format === 'hcl' && !terraformParser.ready) return undefined;
    const include = uri.startsWith('file:') ? includeReader(fileURLToPath(uri)) : undefined;
    const module = format === 'hcl' && uri.startsWith('file:') ? { path: fileURLToPath(uri), reader: openModuleReader(), varFiles } : undefined;
    const model = new DocumentModel(uri, document.version, document.getText(), format, expressionCache, cached?.rulesetIfRead, include, module, moduleStamp);
    models.set(uri, model);
    return model;
  }

  /** The open Terraform documents of a document's folder, with their versions: its model is made again when they change. */
  function moduleStampOf(uri: string): string {
    return sameModule(documents, uri)
      .map((d) => `${d.uri}@${d.version}`)
      .join(' ');
  }

  /** A module's files as the editor has them: open documents first, else the disk. */
  function openModuleReader(): TerraformModuleReader {
    const disk = diskModuleReader();
    const open = new Map(documents.all().filter((d) => d.uri.startsWith('file:')).map((d) => [fileURLToPath(d.uri), d] as const));
    return {
      listFiles: (folder) => {
        const names = new Set(disk.listFiles(folder) ?? []);
        for (const path of open.keys()) if (dirname(path) === folder) names.add(basename(path));
        return names.size > 0 ? [...names] : undefined;
      },
      readFile: (path) => open.get(path)?.getText() ?? disk.readFile(path),
    };
  }

  /** A test file's ruleset: the open document's text when open, else the file on disk. */
  const readRuleset: RulesetReader = (uri) => {
    const open = documents.get(uri);
    const format = formatOfDocument(open?.languageId ?? '', uri);
    if (!format) return undefined;
    // A Terraform file's rules are evaluated with its module, as `rulesets test` evaluates them.
    const module = format === 'hcl' && uri.startsWith('file:') ? { module: { path: fileURLToPath(uri), reader: openModuleReader(), varFiles: settingsOf(uri).terraformVarFiles } } : {};
    if (open) return { text: open.getText(), format, ...module };
    if (!uri.startsWith('file:')) return undefined;
    try {
      // A file that is not UTF-8 text is not read (its cases would run on U+FFFD): Check Workspace says where it is not.
      const file = decodeFileBytes(readFileSync(fileURLToPath(uri)));
      return file.bad ? undefined : { text: file.text, format, ...module };
    } catch {
      return undefined;
    }
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const capabilities = params.capabilities;
    configuration.initialize(params);
    scheduler.initialize(capabilities);
    semanticTokensRefreshSupport = capabilities.workspace?.semanticTokens?.refreshSupport === true;
    deferDocumentation = capabilities.textDocument?.completion?.completionItem?.resolveSupport?.properties.includes('documentation') === true;
    itemDefaults = itemDefaultsSupport(capabilities.textDocument?.completion?.completionList?.itemDefaults);
    // Loaded while the editor starts; nothing but a Terraform document waits for it.
    void terraformParser.load().then((loaded) => loaded && terraformParserLoaded());
    return {
      serverInfo: { name: 'rulesets-language-server', version },
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS, resolveProvider: deferDocumentation },
        hoverProvider: true,
        signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: [' '] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
        semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true },
        documentSymbolProvider: { label: 'Rulesets' },
        diagnosticProvider: scheduler.pulls ? { identifier: 'rulesets', interFileDependencies: false, workspaceDiagnostics: false } : undefined,
        // Folders added later bring their own `.rulesets.yaml`.
        ...(configuration.followsWorkspaceFolders ? { workspace: { workspaceFolders: { supported: true, changeNotifications: true } } } : {}),
      },
    };
  });

  connection.onInitialized(() => {
    runInIdleTime(warmUpSteps(), (error) => connection.console.error(`warm-up failed: ${String(error)}`));
    configuration.initialized();
    connection.console.log(`rulesets-language-server ${version}: ${scheduler.pulls ? 'pull' : 'push'} diagnostics`);
  });

  connection.onDidChangeConfiguration((change) => configuration.configurationChanged(change.settings));

  documents.onDidChangeContent((change) => scheduler.changed(change.document.uri));

  documents.onDidOpen((event) => workspaceCheck.opened(event.document.uri));

  // Everything kept for a document goes with it: a long session opens thousands.
  documents.onDidClose((event) => {
    models.delete(event.document.uri);
    expressionCache.release(event.document.uri);
    // A file of "Check Workspace" keeps its diagnostics, from the file on disk.
    scheduler.closed(event.document.uri, workspaceCheck.closed(event.document.uri));
  });

  scheduler.listen();

  connection.onCompletion((params) =>
    guard('completion', null, () => {
      const model = modelOf(params.textDocument.uri);
      const answer = (): CompletionList | null => {
        if (model?.isRulesetTest()) return testFileCompletion(model, params.position, readRuleset);
        if (model && isProjectConfigDocument(model.uri)) return projectConfigCompletion(model, params.position);
        return model ? completion(model, params.position, settingsOf(params.textDocument.uri)) : null;
      };
      return withItemDefaults(deferDocumentation ? deferredDocumentation.defer(answer()) : answer(), itemDefaults);
    }),
  );

  connection.onCompletionResolve((item) => guard('completion resolve', item, () => deferredDocumentation.resolve(item)));

  connection.onHover((params) =>
    guard('hover', null, () => {
      const model = modelOf(params.textDocument.uri);
      if (model && isProjectConfigDocument(model.uri)) return projectConfigHover(model, params.position);
      return model ? hover(model, params.position, settingsOf(params.textDocument.uri)) : null;
    }),
  );

  connection.onSignatureHelp((params) =>
    guard('signature help', null, () => {
      const model = modelOf(params.textDocument.uri);
      return model ? signatureHelp(model, params.position, settingsOf(params.textDocument.uri)) : null;
    }),
  );

  connection.onCodeAction((params) =>
    guard('code actions', [], () => {
      const model = modelOf(params.textDocument.uri);
      if (model && isProjectConfigDocument(model.uri)) return projectConfigCodeActions(model, params.range);
      return model ? codeActions(model, params.range, params.context, settingsOf(params.textDocument.uri)) : [];
    }),
  );

  connection.languages.semanticTokens.on((params) =>
    guard('semantic tokens', { data: [] }, () => {
      const model = modelOf(params.textDocument.uri);
      return model ? semanticTokens(model, settingsOf(params.textDocument.uri)) : { data: [] };
    }),
  );

  connection.onDocumentSymbol((params) =>
    guard('document symbols', [], () => {
      const model = modelOf(params.textDocument.uri);
      return model ? documentSymbols(model, settingsOf(params.textDocument.uri)) : [];
    }),
  );

  connection.onRequest(DOCUMENT_STATUS_REQUEST, (params: DocumentStatusParams) =>
    guard('document status', {}, (): DocumentStatus => {
      const model = modelOf(params.uri);
      if (!model) return {};
      const settings = settingsOf(params.uri);
      const format = model.format;
      if (format === 'hcl' && settings.terraform?.enable === false) return { format, disabled: 'terraform' };
      const ruleset = model.rulesetBy(settings);
      if (!ruleset) return { format };
      // A Terraform or octorules file holds several rulesets, each with its own phase.
      const layout = model.parsedDocument.layout;
      // A `cloudflare_filter` is read as a ruleset for its expression; it is no `cloudflare_ruleset` to count.
      if (layout !== 'api') return { format, ruleset, layout, rulesets: model.rulesets.filter((r) => !r.legacyFilter).length };
      return { format, ruleset, phase: model.ruleset.phase };
    }),
  );

  connection.onRequest(CHECK_FILES_REQUEST, async (params: CheckFilesParams, token) => {
    // `.tf` files among them are read with the parser; should it have failed to load, their reader says so.
    await terraformParser.load();
    return workspaceCheck.run(params, token);
  });

  connection.onDidChangeWatchedFiles((params) => {
    workspaceCheck.filesChanged(params.changes);
    configuration.filesChanged(params.changes);
  });

  documents.listen(connection);
  connection.listen();
}

if (require.main === module) {
  // `--stdio`, `--node-ipc` and `--socket=N` are read from the command line by createConnection.
  if (process.argv.includes('--version')) {
    process.stdout.write(`${version}\n`);
  } else {
    startServer(createConnection(ProposedFeatures.all));
  }
}
