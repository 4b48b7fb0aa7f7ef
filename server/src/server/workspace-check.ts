/**
 * "Check Workspace" (rulesets/checkFiles, protocol.ts): checks ruleset files from disk and
 * publishes their diagnostics, with work-done progress, until cancelled. A file checked this
 * way is remembered: its diagnostics stay when the editor closes it (read from disk again),
 * they follow the file on disk while the editor reports its changes, and they are checked
 * again when the settings change. Nothing else is kept of it: not its text, not a model.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  CancellationTokenSource,
  DidChangeWatchedFilesNotification,
  DiagnosticSeverity,
  FileChangeType,
  type CancellationToken,
  type Connection,
  type Diagnostic,
  type FileEvent,
  type WorkDoneProgressReporter,
} from 'vscode-languageserver/node';
import { decodeFileBytes, diskModuleReader, type DecodedFile, type ExpressionCache, type Settings } from '../core';
import { fileDiagnostics } from '../features/workspace-check';
import { CHECK_FILES_GLOB, type CheckFilesParams, type CheckFilesResult } from '../protocol';
import { guarded } from './guard';

export interface WorkspaceCheckHost {
  readonly connection: Connection;
  readonly cache: ExpressionCache;
  /** The settings a file is checked with. */
  settingsFor(uri: string): Settings;
  /** Open documents are the editor's: their diagnostics come from its text, not the file's. */
  isOpen(uri: string): boolean;
  /**
   * The editor pulls the diagnostics of open documents. It lists those beside the pushed ones,
   * so an opened file's pushed diagnostics are taken back.
   */
  pullsDiagnostics(): boolean;
  /** The editor lets the server register file watchers (workspace/didChangeWatchedFiles). */
  watchesFiles(): boolean;
}

/** The progress notification is updated at most this often: a run over thousands of files sends tens of reports, not thousands. */
const REPORT_EVERY_MS = 100;
/** A file changed on disk is read again once writes to it pause (a save, a `git checkout` writes many). */
const DISK_DEBOUNCE_MS = 100;

export class WorkspaceCheck {
  /** The files checked from disk that were rulesets, by URI. */
  private readonly checked = new Set<string>();
  private running?: CancellationTokenSource;
  private watcherRegistered = false;
  private readonly diskTimers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly host: WorkspaceCheckHost) {}

  async run(params: CheckFilesParams, token: CancellationToken): Promise<CheckFilesResult> {
    // One run at a time: a new one (the command run again) replaces the one under way.
    this.running?.cancel();
    const run = new CancellationTokenSource();
    this.running = run;
    const progress = await this.progressFor(params);
    const stopped = () => token.isCancellationRequested || run.token.isCancellationRequested || progress.token?.isCancellationRequested === true;
    const uris = [...new Set(Array.isArray(params?.uris) ? params.uris.filter((uri): uri is string => typeof uri === 'string') : [])];
    const counts = { rulesets: 0, withProblems: 0, errors: 0, warnings: 0, others: 0 };
    const unreadable: string[] = [];
    this.registerWatcher();
    progress.reporter.begin('Checking rulesets', 0, `0/${uris.length} files`, true);
    let lastReport = Date.now();
    let done = 0;
    try {
      for (const uri of uris) {
        if (stopped()) break;
        const found = await this.check(uri);
        done++;
        if (found === 'unreadable') unreadable.push(uri);
        else if (found) {
          counts.rulesets++;
          if (found.length > 0) counts.withProblems++;
          for (const d of found) {
            if (d.severity === DiagnosticSeverity.Error) counts.errors++;
            else if (d.severity === DiagnosticSeverity.Warning) counts.warnings++;
            else counts.others++;
          }
        }
        if (done === uris.length || Date.now() - lastReport >= REPORT_EVERY_MS) {
          lastReport = Date.now();
          progress.reporter.report(Math.floor((done / uris.length) * 100), `${done}/${uris.length} files`);
        }
        // Between files: other requests (and the cancellation) are read.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      progress.reporter.done();
      if (this.running === run) this.running = undefined;
    }
    return { ...counts, unreadable, cancelled: done < uris.length };
  }

  /** In an editor that pulls diagnostics, an opened file's are pulled: the pushed ones would be listed twice. */
  opened(uri: string): void {
    clearTimeout(this.diskTimers.get(uri));
    this.diskTimers.delete(uri);
    if (this.checked.has(uri) && this.host.pullsDiagnostics()) this.host.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /**
   * A checked file the editor closes keeps its diagnostics, from the file on disk now (its
   * unsaved edits are gone). False for other files: their diagnostics go with the document.
   */
  closed(uri: string): boolean {
    if (!this.checked.has(uri)) return false;
    this.recheck(uri);
    return true;
  }

  /** Changes the editor's watcher reports: a checked file is read again, or forgotten when deleted. */
  filesChanged(changes: readonly FileEvent[]): void {
    for (const change of changes) {
      if (!this.checked.has(change.uri) || this.host.isOpen(change.uri)) continue;
      if (change.type === FileChangeType.Deleted) this.forget(change.uri);
      else this.recheck(change.uri, DISK_DEBOUNCE_MS);
    }
  }

  /** The settings decide what a file is and what is wrong in it: every checked file that is not open is checked again. */
  settingsChanged(): void {
    for (const uri of this.checked) if (!this.host.isOpen(uri)) this.recheck(uri);
  }

  private recheck(uri: string, delayMs = 0): void {
    clearTimeout(this.diskTimers.get(uri));
    this.diskTimers.set(
      uri,
      setTimeout(() => {
        this.diskTimers.delete(uri);
        this.check(uri).catch((error) => this.host.connection.console.error(`checking ${uri}: ${String(error)}`));
      }, delayMs),
    );
  }

  /**
   * Reads and checks one file, publishes its diagnostics and remembers it; undefined when it
   * is not a ruleset (and then forgotten), 'unreadable' when it cannot be read. An open
   * document's diagnostics are the editor's, from its text: the file's are counted, not published.
   */
  private async check(uri: string): Promise<Diagnostic[] | undefined | 'unreadable'> {
    let file: DecodedFile;
    try {
      if (!uri.startsWith('file:')) return 'unreadable';
      // Bytes, not 'utf8': a file that is not UTF-8 text is said so, on its first such byte.
      file = decodeFileBytes(await readFile(fileURLToPath(uri)));
    } catch {
      this.forget(uri);
      return 'unreadable';
    }
    // A file the checker fails on is logged and passed over; the run goes on.
    const found = guarded(`checking ${uri}`, undefined, () => fileDiagnostics(uri, file.text, this.host.settingsFor(uri), this.host.cache, diskModuleReader(), file.bad), (message) => this.host.connection.console.error(message));
    if (!found) {
      this.forget(uri);
      return undefined;
    }
    this.checked.add(uri);
    // Opened while it was read: the editor's text decides.
    if (!this.host.isOpen(uri)) this.host.connection.sendDiagnostics({ uri, diagnostics: found });
    return found;
  }

  /** No longer a ruleset, or gone: its diagnostics go too. An open document's are the editor's. */
  private forget(uri: string): void {
    if (!this.checked.delete(uri)) return;
    if (!this.host.isOpen(uri)) this.host.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  private async progressFor(params: CheckFilesParams): Promise<{ reporter: WorkDoneProgressReporter; token?: CancellationToken }> {
    const window = this.host.connection.window;
    if (params?.workDoneToken !== undefined) return { reporter: window.attachWorkDoneProgress(params.workDoneToken) };
    // An editor that gave no token shows the server's own progress, if it can (Neovim does).
    try {
      const reporter = await window.createWorkDoneProgress();
      return { reporter, token: reporter.token };
    } catch {
      return { reporter: window.attachWorkDoneProgress(undefined) };
    }
  }

  /** Once, at the first run: the editor then reports changes to the files on disk. */
  private registerWatcher(): void {
    if (this.watcherRegistered || !this.host.watchesFiles()) return;
    this.watcherRegistered = true;
    this.host.connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: CHECK_FILES_GLOB }] })
      .catch((error: unknown) => this.host.connection.console.error(`watching ruleset files: ${String(error)}`));
  }
}
