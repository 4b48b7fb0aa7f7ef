/**
 * The bundled language server in a child process, with what a test or a benchmark of its
 * memory needs and the shipped server has not: a garbage collector to call (`--expose-gc`)
 * and two requests, one that collects and answers process.memoryUsage(), one that writes a
 * heap snapshot. They are added by a few lines that start the bundle's own startServer, so
 * the production code carries no hook for them.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  createProtocolConnection,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { ROOT, SERVER, SERVER_BUNDLE } from './lsp-client';

const MEMORY_REQUEST = 'test/memoryUsage';
const SNAPSHOT_REQUEST = 'test/writeHeapSnapshot';

const STARTER = `
const { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } = require('vscode-languageserver/node');
const { writeHeapSnapshot } = require('node:v8');
const { startServer } = require(${JSON.stringify(SERVER_BUNDLE)});
const connection = createConnection(ProposedFeatures.all, new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
connection.onRequest(${JSON.stringify(MEMORY_REQUEST)}, () => { gc(); return process.memoryUsage(); });
connection.onRequest(${JSON.stringify(SNAPSHOT_REQUEST)}, (path) => writeHeapSnapshot(path));
startServer(connection);
`;

export interface ServerProcess {
  readonly connection: ProtocolConnection;
  readonly pid: number;
  open(uri: string, languageId: string, text: string): Promise<void>;
  close(uri: string): Promise<void>;
  /** Resolves with the next diagnostics published for `uri` (push clients). */
  nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams>;
  /** The server process's resident memory now (VmRSS) and at its highest so far (VmHWM), in bytes. */
  residentMemory(): { rss: number; peak: number };
  /** After a full garbage collection (instrumented servers only). */
  memoryUsage(): Promise<NodeJS.MemoryUsage>;
  /** Writes a heap snapshot to `path` (a full collection first): instrumented servers only. */
  writeHeapSnapshot(path: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Pull diagnostics (textDocument/diagnostic) rather than pushed ones. */
  readonly pull: boolean;
  /** The bundle with the two requests above and `--expose-gc`; false runs dist/server.js as shipped. */
  readonly instrumented: boolean;
}

export async function startServerProcess(options: ServerOptions): Promise<ServerProcess> {
  // Optimizing compilation on the main thread: a background compile job holds the closure it
  // optimizes, context and all, as a GC root for as long as it runs, so a heap snapshot taken
  // then can show a closed document's text still held, by nothing the server keeps.
  const args = options.instrumented ? ['--expose-gc', '--no-concurrent-recompilation', '-e', STARTER] : [SERVER, '--stdio'];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map<string, (params: PublishDiagnosticsParams) => void>();
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    waiting.get(params.uri)?.(params);
    waiting.delete(params.uri);
  });
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.onRequest('workspace/diagnostic/refresh', () => null);
  connection.onNotification('window/logMessage', () => undefined);
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: null,
    capabilities: {
      workspace: { configuration: true, diagnostics: { refreshSupport: true } },
      textDocument: {
        synchronization: { dynamicRegistration: false },
        publishDiagnostics: { versionSupport: true },
        ...(options.pull ? { diagnostic: { dynamicRegistration: false } } : {}),
      },
    },
  });
  await connection.sendNotification(InitializedNotification.type, {});
  return {
    connection,
    pid: child.pid!,
    open: (uri, languageId, text) => connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } }),
    close: (uri) => connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } }),
    nextDiagnostics: (uri) => new Promise((resolve) => waiting.set(uri, resolve)),
    residentMemory: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kB = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) * 1024;
      return { rss: kB('VmRSS'), peak: kB('VmHWM') };
    },
    memoryUsage: () => connection.sendRequest<NodeJS.MemoryUsage>(MEMORY_REQUEST),
    writeHeapSnapshot: async (path) => void (await connection.sendRequest<string>(SNAPSHOT_REQUEST, path)),
    stop: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      await exited;
      connection.dispose();
    },
  };
}
