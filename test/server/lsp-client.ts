/**
 * A minimal LSP client for tests and the benchmark: starts the bundled server as a child
 * process over stdio and speaks JSON-RPC to it with the protocol library.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join, resolve } from 'node:path';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';

export const ROOT = resolve(__dirname, '..', '..');
export const SERVER = join(ROOT, 'dist', 'server.js');
/** The server bundle itself, which dist/server.js starts: what a program embedding the server requires. */
export const SERVER_BUNDLE = join(ROOT, 'dist', 'rulesets-server.js');

export interface TestClient {
  readonly connection: ProtocolConnection;
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: () => string;
  /** Every log message the server sent (window/logMessage). */
  readonly logs: string[];
  /** Every publishDiagnostics notification, in order (a connection has one handler a method). */
  readonly published: PublishDiagnosticsParams[];
  /** Resolves with the next diagnostics published for `uri` (optionally for a version). */
  nextDiagnostics(uri: string, version?: number): Promise<PublishDiagnosticsParams>;
  open(uri: string, languageId: string, text: string, version?: number): void;
  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): void;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Advertise pull diagnostics (textDocument/diagnostic). */
  readonly pull?: boolean;
  /** Settings answered to workspace/configuration (section `rulesets`). */
  readonly settings?: unknown;
  /** Do not advertise workspace/configuration (as editors that cannot answer it). */
  readonly noConfiguration?: boolean;
  /** Answer workspace/configuration with null, as Neovim does for a section it lacks. */
  readonly configurationAnswersNull?: boolean;
  /** Pull diagnostics without refresh support, and no handler for the refresh request. */
  readonly noRefresh?: boolean;
  readonly initializationOptions?: unknown;
  /** Let the server register file watchers (workspace/didChangeWatchedFiles), as VS Code and Neovim do. */
  readonly watchedFiles?: boolean;
  /** Show progress the server creates (window/workDoneProgress/create). */
  readonly workDoneProgress?: boolean;
  /** The workspace folders opened, by URI (none by default). */
  readonly workspaceFolders?: readonly string[];
  /** Ask for a completion item's documentation when showing it (completionItem/resolve), as VS Code does. */
  readonly resolveDocumentation?: boolean;
  /** Declares completionList.itemDefaults as VS Code's client does. */
  readonly itemDefaults?: boolean;
}

export async function startClient(options: StartOptions = {}): Promise<TestClient> {
  const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting: { uri: string; version?: number; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  const logs: string[] = [];
  const published: PublishDiagnosticsParams[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    published.push(params);
    const index = waiting.findIndex((w) => w.uri === params.uri && (w.version === undefined || w.version === params.version));
    if (index >= 0) waiting.splice(index, 1)[0].resolve(params);
  });
  connection.onNotification('window/logMessage', (params: { message: string }) => logs.push(params.message));
  connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
    params.items.map((item) => (item.section === 'rulesets' && !options.configurationAnswersNull ? (options.settings ?? {}) : null)),
  );
  if (!options.noRefresh) connection.onRequest('workspace/diagnostic/refresh', () => null);
  connection.listen();

  const capabilities: ClientCapabilities = {
    workspace: {
      configuration: !options.noConfiguration,
      diagnostics: { refreshSupport: !options.noRefresh },
      ...(options.watchedFiles ? { didChangeWatchedFiles: { dynamicRegistration: true } } : {}),
      ...(options.workspaceFolders ? { workspaceFolders: true } : {}),
    },
    ...(options.workDoneProgress ? { window: { workDoneProgress: true } } : {}),
    textDocument: {
      synchronization: { dynamicRegistration: false },
      completion: {
        completionItem: {
          snippetSupport: true,
          documentationFormat: ['markdown', 'plaintext'],
          ...(options.resolveDocumentation ? { resolveSupport: { properties: ['documentation', 'detail'] } } : {}),
        },
        ...(options.itemDefaults ? { completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] } } : {}),
      },
      hover: { contentFormat: ['markdown', 'plaintext'] },
      codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor.rewrite'] } } },
      publishDiagnostics: { relatedInformation: true, versionSupport: true },
      ...(options.pull ? { diagnostic: { dynamicRegistration: false } } : {}),
    },
  };
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities,
    workspaceFolders: options.workspaceFolders?.map((uri) => ({ uri, name: uri.slice(uri.lastIndexOf('/') + 1) })) ?? null,
    initializationOptions: options.initializationOptions,
  });
  await connection.sendNotification(InitializedNotification.type, {});

  return {
    connection,
    child,
    stderr: () => stderr,
    logs,
    published,
    nextDiagnostics: (uri, version) => new Promise((resolve) => waiting.push({ uri, version, resolve })),
    open: (uri, languageId, text, version = 1) => {
      void connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
    },
    change: (uri, version, changes) => {
      void connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: changes });
    },
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      await exited;
      connection.dispose();
    },
  };
}

/** The LSP position of the first occurrence of `needle` in `text`, plus `delta` characters. */
export function positionOf(text: string, needle: string, delta = 0): { line: number; character: number } {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, offset + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

export function codesOf(diagnostics: readonly Pick<Diagnostic, 'code'>[]): string[] {
  return diagnostics.map((d) => String(d.code));
}
