import {
  CodeActionKind,
  createConnection,
  DiagnosticRefreshRequest,
  DidChangeWatchedFilesNotification,
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type CompletionList,
  type Connection,
  type Diagnostic,
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
import { diagnostics, withPlainText } from '../features/diagnostics';
import { hover } from '../features/hover';
import { decodeFileBytes, DEFAULT_SETTINGS, diskModuleReader, ExpressionCache, formatOfDocument, includeReader, type TerraformModuleReader, isRulesetTestFileName, readSettings, type Settings } from '../core';
import { DocumentModel, pathOfUri } from '../features/model';
import {
  folderOf,
  foldersUpTo,
  isProjectConfigDocument,
  PROJECT_CONFIG_FILE_NAME,
  projectConfigCodeActions,
  projectConfigCompletion,
  projectConfigDiagnostics,
  projectConfigHover,
  projectConfigOf,
  projectConfigUriOf,
  settingsForDocument,
  type ProjectConfig,
} from '../features/project-config';
import { semanticTokens, SEMANTIC_TOKENS_LEGEND } from '../features/semantic-tokens';
import { signatureHelp } from '../features/signature-help';
import { documentSymbols } from '../features/symbols';
import { rulesetCandidates, testFileCompletion, testFileDiagnostics, type RulesetReader } from '../features/test-file';
import { CHECK_FILES_REQUEST, DOCUMENT_STATUS_REQUEST, type CheckFilesParams, type DocumentStatus, type DocumentStatusParams } from '../protocol';
import { version } from '../version';
import { guarded } from './guard';
import { TerraformParser } from './terraform-parser';
import { runInIdleTime, warmUpSteps } from './warm-up';
import { WorkspaceCheck } from './workspace-check';

/** How long push diagnostics wait for typing to pause. */
const PUSH_DEBOUNCE_MS = 150;
/** Diagnostics of a large document are computed in slices of this many ms, yielding between. */
const SLICE_MS = 8;

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const models = new Map<string, DocumentModel>();
  /** Every document's expressions, checked once per text: an open document's kept, others within a budget of bytes. */
  const expressionCache = new ExpressionCache();
  let settings: Settings = DEFAULT_SETTINGS;
  let pullDiagnostics = false;
  let refreshSupport = false;
  let semanticTokensRefreshSupport = false;
  let configurationRequests = false;
  let watchedFilesRegistration = false;
  let workspaceFolderChanges = false;
  /** The client asks for a completion item's documentation when it shows it (completionItem/resolve). */
  let deferDocumentation = false;
  const deferredDocumentation = new DeferredDocumentation();
  /** What the client reads of a completion list's item defaults. */
  let itemDefaults: ItemDefaultsSupport = itemDefaultsSupport(undefined);
  const pushTimers = new Map<string, NodeJS.Timeout>();
  /** The workspace folders, by URI: a `.rulesets.yaml` is looked for up to the one of a document. */
  let workspaceFolders: string[] = [];
  /**
   * The `.rulesets.yaml` of each folder read so far, as saved (undefined: none), by the folder's
   * URI: each workspace folder's, and those of the folders between it and the documents checked.
   */
  const projectConfigs = new Map<string, ProjectConfig | undefined>();
  /** The settings a document is checked with: the user's, and the nearest `.rulesets.yaml` over them. */
  const settingsOf = (uri: string): Settings => {
    for (const folder of foldersUpTo(uri, workspaceFolders)) if (!projectConfigs.has(folder)) loadProjectConfig(folder);
    return settingsForDocument(uri, settings, projectConfigs);
  };
  /** "Check Workspace": files checked from disk, whose diagnostics outlive their documents. */
  const workspaceCheck = new WorkspaceCheck({
    connection,
    cache: expressionCache,
    settingsFor: settingsOf,
    isOpen: (uri) => documents.get(uri) !== undefined,
    pullsDiagnostics: () => pullDiagnostics,
    watchesFiles: () => watchedFilesRegistration,
  });

  const log = (message: string) => connection.console.log(message);

  const guard = <T>(feature: string, empty: T, run: () => T): T => guarded(feature, empty, run, (message) => connection.console.error(message));

  const terraformParser = new TerraformParser((message) => connection.console.error(message));
  const isTerraform = (uri: string) => {
    const document = documents.get(uri);
    return document !== undefined && formatOfDocument(document.languageId, uri) === 'hcl';
  };
  /** Terraform documents opened before the parser was there get everything once it is. */
  function terraformParserLoaded(): void {
    const open = documents.all().filter((document) => isTerraform(document.uri));
    if (open.length === 0) return;
    if (pullDiagnostics) requestRefresh();
    else for (const document of open) schedulePush(document.uri);
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
    const folder = uri.slice(0, uri.lastIndexOf('/') + 1);
    return documents
      .all()
      .filter((d) => d.uri !== uri && d.uri.startsWith(folder) && !d.uri.slice(folder.length).includes('/') && formatOfDocument(d.languageId, d.uri) === 'hcl')
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

  /** The other open Terraform documents of an edited one's folder: their findings may come from its values. */
  function recheckModuleOf(uri: string): void {
    const document = documents.get(uri);
    if (!document || formatOfDocument(document.languageId, uri) !== 'hcl') return;
    const folder = uri.slice(0, uri.lastIndexOf('/') + 1);
    const others = documents.all().filter((d) => d.uri !== uri && d.uri.startsWith(folder) && !d.uri.slice(folder.length).includes('/') && formatOfDocument(d.languageId, d.uri) === 'hcl');
    if (others.length === 0) return;
    if (!pullDiagnostics) for (const other of others) schedulePush(other.uri);
    else {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(requestRefresh, PUSH_DEBOUNCE_MS);
    }
  }

  /**
   * Checks every expression of the model in slices, yielding to the event loop between them,
   * so that typing in a file with thousands of rules is never blocked; stops as soon as the
   * request is cancelled or the document has moved on. Undefined when it stopped.
   */
  async function computeDiagnostics(uri: string, token?: CancellationToken): Promise<Diagnostic[] | undefined> {
    if (isTerraform(uri) && !(await terraformParser.load())) return [];
    const model = modelOf(uri);
    if (!model) return [];
    if (isProjectConfigDocument(uri)) return projectConfigDiagnostics(model);
    const settings = settingsOf(uri);
    if (model.isRulesetTest()) return testFileDiagnostics(model, readRuleset).map(withPlainText);
    if (!model.isRuleset(settings)) {
      expressionCache.release(uri);
      return [];
    }
    const sites = model.sites;
    // Checked again at each keystroke: kept by the cache, whatever else passes through it.
    expressionCache.hold(uri, sites.map((site) => site.text));
    let sliceStart = Date.now();
    for (const site of sites) {
      model.check(site, settings);
      if (Date.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        if (token?.isCancellationRequested || modelOf(uri) !== model) return undefined;
        sliceStart = Date.now();
      }
    }
    return diagnostics(model, settings);
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

  /** Asks a pull client to pull every open document again. */
  function requestRefresh(): void {
    // Only clients that announce it take a refresh request; a refused one must not become
    // an unhandled rejection, which would end the process.
    if (refreshSupport) connection.sendRequest(DiagnosticRefreshRequest.type).catch((error: unknown) => connection.console.error(`diagnostic refresh: ${String(error)}`));
  }

  /** The open test files whose cases run against the document `uri`: checked again when it changes. */
  function recheckTestsOf(uri: string): void {
    // By name first: this runs on every keystroke in every document.
    const tests = documents.all().filter((d) => {
      if (d.uri === uri) return false;
      const model = isRulesetTestFileName(pathOfUri(d.uri)) ? modelOf(d.uri) : undefined;
      return model !== undefined && rulesetCandidates(model).includes(uri);
    });
    if (tests.length === 0) return;
    if (!pullDiagnostics) for (const test of tests) schedulePush(test.uri);
    else {
      // One refresh once typing pauses, not one a keystroke: it makes the editor pull every open document.
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(requestRefresh, PUSH_DEBOUNCE_MS);
    }
  }
  let refreshTimer: NodeJS.Timeout | undefined;

  function schedulePush(uri: string): void {
    clearTimeout(pushTimers.get(uri));
    pushTimers.set(
      uri,
      setTimeout(() => {
        pushTimers.delete(uri);
        const version = documents.get(uri)?.version;
        computeDiagnostics(uri)
          .then((items) => {
            if (items && documents.get(uri)?.version === version) connection.sendDiagnostics({ uri, version, diagnostics: items });
          })
          .catch((error) => connection.console.error(`diagnostics failed: ${String(error)}`));
      }, PUSH_DEBOUNCE_MS),
    );
  }

  async function refreshSettings(): Promise<void> {
    if (configurationRequests) {
      // An editor without a `rulesets` section answers null (Neovim): keep what
      // initializationOptions gave rather than falling back to defaults.
      const answer: unknown = await connection.workspace.getConfiguration('rulesets');
      if (answer && typeof answer === 'object') settings = readSettings(answer);
    }
    // Settings hold no secrets (credentials live elsewhere), and this line answers most
    // "why is my setting ignored" questions.
    log(`settings: ${JSON.stringify(settings)}`);
    workspaceCheck.settingsChanged();
    if (pullDiagnostics) {
      requestRefresh();
    } else {
      for (const document of documents.all()) schedulePush(document.uri);
    }
  }

  /** Reads the folder's `.rulesets.yaml` from disk (once a document below it is checked): the saved file is what `rulesets check` reads too. */
  function loadProjectConfig(folder: string): void {
    const uri = projectConfigUriOf(folder);
    let text: string | undefined;
    try {
      text = uri.startsWith('file:') ? readFileSync(fileURLToPath(uri), 'utf8').replace(/^\uFEFF/, '') : undefined;
    } catch {
      text = undefined; // no file: the user's settings alone
    }
    const config = projectConfigOf(text);
    projectConfigs.set(folder, config);
    if (config) log(`project configuration ${uri}: ${JSON.stringify(config)}`);
  }

  /** Editors other than VS Code (whose client watches it) learn of changes to the file this way; once there is a folder. */
  function watchProjectConfigs(): void {
    if (!watchedFilesRegistration || projectConfigWatched || workspaceFolders.length === 0) return;
    projectConfigWatched = true;
    connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: `**/${PROJECT_CONFIG_FILE_NAME}` }] })
      .catch((error: unknown) => connection.console.error(`watching ${PROJECT_CONFIG_FILE_NAME}: ${String(error)}`));
  }
  let projectConfigWatched = false;

  /** A `.rulesets.yaml` of a folder read so far was saved, created or deleted: read it again, check again. */
  function projectConfigsChanged(changes: readonly { uri: string }[]): void {
    const folders = [...projectConfigs.keys()].filter((folder) => changes.some((c) => c.uri === projectConfigUriOf(folder)));
    if (folders.length === 0) return;
    for (const folder of folders) loadProjectConfig(folder);
    refreshSettings().catch((error) => connection.console.error(`settings: ${String(error)}`));
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const capabilities = params.capabilities;
    workspaceFolders = (params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : [])).map(withoutSlash);
    for (const folder of workspaceFolders) loadProjectConfig(folder);
    pullDiagnostics = capabilities.textDocument?.diagnostic !== undefined;
    refreshSupport = capabilities.workspace?.diagnostics?.refreshSupport === true;
    semanticTokensRefreshSupport = capabilities.workspace?.semanticTokens?.refreshSupport === true;
    configurationRequests = capabilities.workspace?.configuration === true;
    watchedFilesRegistration = capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    workspaceFolderChanges = capabilities.workspace?.workspaceFolders === true;
    deferDocumentation = capabilities.textDocument?.completion?.completionItem?.resolveSupport?.properties.includes('documentation') === true;
    itemDefaults = itemDefaultsSupport(capabilities.textDocument?.completion?.completionList?.itemDefaults);
    // Editors that send their server config at start (Helix's `config`) pass it here, in the
    // shape of the `rulesets` settings section; workspace/configuration, if any, follows.
    const options = params.initializationOptions as { rulesets?: unknown } | undefined;
    if (options?.rulesets) settings = readSettings(options.rulesets);
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
        diagnosticProvider: pullDiagnostics ? { identifier: 'rulesets', interFileDependencies: false, workspaceDiagnostics: false } : undefined,
        // Folders added later bring their own `.rulesets.yaml`.
        ...(workspaceFolderChanges ? { workspace: { workspaceFolders: { supported: true, changeNotifications: true } } } : {}),
      },
    };
  });

  connection.onInitialized(() => {
    runInIdleTime(warmUpSteps(), (error) => connection.console.error(`warm-up failed: ${String(error)}`));
    if (configurationRequests) refreshSettings().catch((error) => connection.console.error(`settings: ${String(error)}`));
    watchProjectConfigs();
    if (workspaceFolderChanges) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        const removed = new Set(event.removed.map((folder) => withoutSlash(folder.uri)));
        const added = event.added.map((folder) => withoutSlash(folder.uri));
        workspaceFolders = [...workspaceFolders.filter((folder) => !removed.has(folder)), ...added];
        // What was read below a folder that left goes with it (unless another folder still holds it).
        for (const folder of projectConfigs.keys()) if (folderOf(`${folder}/`, workspaceFolders) === undefined) projectConfigs.delete(folder);
        for (const folder of added) loadProjectConfig(folder);
        watchProjectConfigs();
        refreshSettings().catch((error) => connection.console.error(`settings: ${String(error)}`));
      });
    }
    log(`rulesets-language-server ${version}: ${pullDiagnostics ? 'pull' : 'push'} diagnostics`);
  });

  connection.onDidChangeConfiguration((change) => {
    // Clients that push settings send them here; the others are asked.
    const pushed = (change.settings as { rulesets?: unknown } | undefined)?.rulesets;
    if (!configurationRequests && pushed !== undefined) settings = readSettings(pushed);
    refreshSettings().catch((error) => connection.console.error(`settings: ${String(error)}`));
  });

  documents.onDidChangeContent((change) => {
    if (!pullDiagnostics) schedulePush(change.document.uri);
    recheckTestsOf(change.document.uri);
    recheckModuleOf(change.document.uri);
  });

  documents.onDidOpen((event) => workspaceCheck.opened(event.document.uri));

  // Everything kept for a document goes with it: a long session opens thousands.
  documents.onDidClose((event) => {
    models.delete(event.document.uri);
    expressionCache.release(event.document.uri);
    clearTimeout(pushTimers.get(event.document.uri));
    pushTimers.delete(event.document.uri);
    // A file of "Check Workspace" keeps its diagnostics, from the file on disk.
    if (!workspaceCheck.closed(event.document.uri) && !pullDiagnostics) connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
    // A closed ruleset is read from disk from now on.
    recheckTestsOf(event.document.uri);
  });

  connection.languages.diagnostics.on(async (params, token) => {
    let items: Diagnostic[] | undefined;
    try {
      items = await computeDiagnostics(params.textDocument.uri, token);
    } catch (error) {
      connection.console.error(`diagnostics failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    }
    // Stopped for a newer version or a cancellation: an empty "full" report would clear the
    // editor's diagnostics until the next pull, so say it was cancelled and ask again.
    if (!items) throw new ResponseError(LSPErrorCodes.ServerCancelled, 'the document changed', { retriggerRequest: true });
    return { kind: DocumentDiagnosticReportKind.Full, items };
  });

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
    projectConfigsChanged(params.changes);
  });

  documents.listen(connection);
  connection.listen();
}

/** A folder's URI as the configurations are kept by: `file:///work/repo/` is `file:///work/repo`. */
function withoutSlash(uri: string): string {
  return uri.replace(/\/+$/, '');
}

if (require.main === module) {
  // `--stdio`, `--node-ipc` and `--socket=N` are read from the command line by createConnection.
  if (process.argv.includes('--version')) {
    process.stdout.write(`${version}\n`);
  } else {
    startServer(createConnection(ProposedFeatures.all));
  }
}
