/**
 * Test files (`NAME.ruleset.test.yaml`, `.yml`, `.json`) in VS Code's Test Explorer: a
 * "Rulesets" test controller with one item per file and one per case (run buttons in the gutter
 * at each case), a Run profile that evaluates as `rulesets test` does, and continuous runs that
 * run a test file again when it or its ruleset is saved.
 *
 * A file open in an editor is run as the editor has it, saved or not, as the test-file
 * diagnostics and "Test a packet" do: what the run says and what the squiggles say agree.
 * What a run finds is computed in test-cases.ts; this file only shows it.
 */
import * as vscode from 'vscode';
import { diskModuleReader, isRulesetTestFileName, type RulesetRead, type TerraformModuleReader, type TestFile } from '../../server/src/core';
import { caseItems, parseTestFile, runTestFile, TEST_FILE_GLOB, testFilesAffected, type CaseResult, type Place } from './test-cases';

const CONTROLLER_ID = 'rulesets';
/** Typing pauses this long before an open test file's cases are read again. */
const REPARSE_DELAY_MS = 300;
/** Saves this close together (a Save All) start one continuous run. */
const RERUN_DELAY_MS = 200;

export function registerTestExplorer(context: vscode.ExtensionContext): vscode.TestController {
  const explorer = new TestExplorer();
  context.subscriptions.push(explorer);
  return explorer.controller;
}

class TestExplorer implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController(CONTROLLER_ID, 'Rulesets');
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Where each test file's ruleset may be (file system paths), from its last reading. */
  private readonly rulesetPaths = new Map<string, readonly string[]>();
  /** Items (or every test, 'all') under a continuous run, with the profile to run them with. */
  private readonly watching = new Map<vscode.TestItem | 'all', vscode.TestRunProfile>();
  private readonly pendingReparse = new Map<string, NodeJS.Timeout>();
  private readonly saved = new Set<string>();
  private pendingRerun?: NodeJS.Timeout;
  private discovery?: Promise<void>;

  constructor() {
    const { controller } = this;
    controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    controller.refreshHandler = async () => {
      this.discovery = undefined;
      await this.discover();
    };
    controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.handleRun(request, token), true, undefined, true);

    const watcher = vscode.workspace.createFileSystemWatcher(TEST_FILE_GLOB);
    this.subscriptions.push(
      controller,
      watcher,
      watcher.onDidCreate((uri) => void this.readFromDisk(uri)),
      watcher.onDidChange((uri) => {
        if (!openDocument(uri)) void this.readFromDisk(uri);
      }),
      watcher.onDidDelete((uri) => this.forget(uri)),
      vscode.workspace.onDidOpenTextDocument((document) => this.readDocument(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.readDocumentSoon(event.document)),
      // Closed without saving: the file is what the disk holds again.
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (isTestFile(document.uri) && this.controller.items.get(document.uri.toString())) void this.readFromDisk(document.uri);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => this.rerunSoon(document.uri)),
    );
    // Run buttons in the gutter of test files already open, before the Testing view is.
    for (const document of vscode.workspace.textDocuments) this.readDocument(document);
  }

  // ---- discovery ----------------------------------------------------------------------------

  /** Every test file of the workspace, once (and again on Refresh Tests). */
  private discover(): Promise<void> {
    this.discovery ??= (async () => {
      const found = await vscode.workspace.findFiles(TEST_FILE_GLOB, '**/node_modules/**');
      await Promise.all(found.map((uri) => (openDocument(uri) ? this.readDocument(openDocument(uri)!) : this.readFromDisk(uri))));
    })();
    return this.discovery;
  }

  private async readFromDisk(uri: vscode.Uri): Promise<void> {
    const text = await readText(uri).catch(() => undefined);
    if (text === undefined) this.forget(uri);
    else this.update(uri, text, '');
  }

  private readDocument(document: vscode.TextDocument): void {
    if (isTestFile(document.uri)) this.update(document.uri, document.getText(), document.languageId);
  }

  private readDocumentSoon(document: vscode.TextDocument): void {
    if (!isTestFile(document.uri)) return;
    const key = document.uri.toString();
    clearTimeout(this.pendingReparse.get(key));
    this.pendingReparse.set(
      key,
      setTimeout(() => {
        this.pendingReparse.delete(key);
        this.readDocument(document);
      }, REPARSE_DELAY_MS),
    );
  }

  /** The file's item and one child per case, as the text has them now; returns the file as read. */
  private update(uri: vscode.Uri, text: string, languageId: string): TestFile | undefined {
    const file = parseTestFile(uri.fsPath, text, languageId);
    if (!file) return undefined;
    this.rulesetPaths.set(uri.fsPath, file.rulesetPaths);
    let item = this.controller.items.get(uri.toString());
    if (!item) {
      item = this.controller.createTestItem(uri.toString(), vscode.workspace.asRelativePath(uri, false), uri);
      this.controller.items.add(item);
    }
    const fileItem = item;
    fileItem.children.replace(
      caseItems(file).map((c, index) => {
        const child = fileItem.children.get(c.id) ?? this.controller.createTestItem(c.id, c.label, uri);
        child.label = c.label;
        child.range = new vscode.Range(c.start.line, c.start.character, c.end.line, c.end.character);
        child.sortText = String(index).padStart(6, '0');
        return child;
      }),
    );
    return file;
  }

  private forget(uri: vscode.Uri): void {
    this.controller.items.delete(uri.toString());
    this.rulesetPaths.delete(uri.fsPath);
  }

  // ---- runs ---------------------------------------------------------------------------------

  private async handleRun(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (!request.continuous) return this.run(request, token);
    // A continuous run: nothing now; the items run again whenever a save concerns them.
    const watched = request.include ?? ['all' as const];
    const profile = request.profile;
    if (!profile) return;
    for (const item of watched) this.watching.set(item, profile);
    token.onCancellationRequested(() => {
      for (const item of watched) this.watching.delete(item);
    });
  }

  /** The test files among `saved` and those whose ruleset was saved run again, for each continuous run. */
  private rerunSoon(uri: vscode.Uri): void {
    if (this.watching.size === 0 || uri.scheme !== 'file') return;
    this.saved.add(uri.fsPath);
    clearTimeout(this.pendingRerun);
    this.pendingRerun = setTimeout(() => {
      const affected = testFilesAffected(this.saved, this.rulesetPaths);
      this.saved.clear();
      const byProfile = new Map<vscode.TestRunProfile, vscode.TestItem[]>();
      for (const [watched, profile] of this.watching) {
        const items = watched === 'all' ? this.fileItems() : [watched];
        const stale = items.filter((item) => item.uri && affected.has(item.uri.fsPath));
        byProfile.set(profile, [...(byProfile.get(profile) ?? []), ...stale]);
      }
      for (const [profile, items] of byProfile) {
        if (items.length > 0) void this.run(new vscode.TestRunRequest(items, undefined, profile, true), new vscode.CancellationTokenSource().token);
      }
    }, RERUN_DELAY_MS);
  }

  private fileItems(): vscode.TestItem[] {
    const items: vscode.TestItem[] = [];
    this.controller.items.forEach((item) => items.push(item));
    return items;
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (!request.include) await this.discover();
    const run = this.controller.createTestRun(request);
    try {
      const excluded = new Set(request.exclude ?? []);
      // Each file once, with the cases asked for (undefined: all of them).
      const byFile = new Map<vscode.TestItem, Set<string> | undefined>();
      for (const item of request.include ?? this.fileItems()) {
        if (excluded.has(item)) continue;
        const fileItem = item.parent ?? item;
        if (excluded.has(fileItem)) continue;
        if (item === fileItem) byFile.set(fileItem, undefined);
        else if (!byFile.has(fileItem) || byFile.get(fileItem)) byFile.set(fileItem, new Set([...(byFile.get(fileItem) ?? []), item.id]));
      }
      for (const [fileItem, only] of byFile) {
        if (token.isCancellationRequested) break;
        await this.runFile(run, fileItem, only, excluded);
      }
    } finally {
      run.end();
    }
  }

  private async runFile(run: vscode.TestRun, fileItem: vscode.TestItem, only: Set<string> | undefined, excluded: ReadonlySet<vscode.TestItem>): Promise<void> {
    const uri = fileItem.uri!;
    const display = vscode.workspace.asRelativePath(uri, false);
    const document = openDocument(uri);
    let text: string | undefined;
    try {
      text = document?.getText() ?? (await readText(uri));
    } catch (error) {
      run.errored(fileItem, new vscode.TestMessage(`${display}: cannot read the file (${errorCode(error)})`));
      return;
    }
    if (text === undefined) {
      run.errored(fileItem, new vscode.TestMessage(`${display}: no such file; it was deleted or renamed`));
      this.forget(uri);
      return;
    }
    // The cases as the text has them now: the tree follows before they run.
    const file = this.update(uri, text, document?.languageId ?? '');
    if (!file) return;
    const wanted = new Set<string>();
    fileItem.children.forEach((child) => {
      if ((!only || only.has(child.id)) && !excluded.has(child)) wanted.add(child.id);
    });
    for (const id of wanted) run.enqueued(fileItem.children.get(id)!);
    const rulesets = await readRulesets(file.rulesetPaths);
    const result = runTestFile(file, (path) => rulesets.get(path), display, wanted);
    // A problem of the whole file is said once in the output; each case (or the file, without cases) errors with it.
    if (result.problem) run.appendOutput(crlf(result.problem.output), undefined, fileItem);
    if (result.problem && file.cases.length === 0) {
      run.errored(fileItem, messageAt(new vscode.TestMessage(result.problem.message), result.problem.place));
      return;
    }
    for (const caseResult of result.results) {
      const item = fileItem.children.get(caseResult.id);
      if (!item) continue;
      run.started(item);
      // No location: VS Code would write the output over the failure's own mark on that line.
      if (!result.problem) run.appendOutput(crlf(caseResult.output), undefined, item);
      report(run, item, caseResult);
    }
  }

  dispose(): void {
    clearTimeout(this.pendingRerun);
    for (const timer of this.pendingReparse.values()) clearTimeout(timer);
    for (const s of this.subscriptions) s.dispose();
  }
}

function report(run: vscode.TestRun, item: vscode.TestItem, result: CaseResult): void {
  switch (result.outcome) {
    case 'passed':
      return run.passed(item);
    case 'failed':
      return run.failed(item, messageAt(vscode.TestMessage.diff(result.message, result.expected, result.actual), result.place));
    case 'errored':
      return run.errored(item, messageAt(new vscode.TestMessage(result.message), result.place));
  }
}

function messageAt(message: vscode.TestMessage, place: Place): vscode.TestMessage {
  message.location = locationOf(place);
  return message;
}

function locationOf(place: Place): vscode.Location {
  return new vscode.Location(vscode.Uri.file(place.path), new vscode.Position(place.line, place.character));
}

/** The test output is shown in a terminal: lines end in CR LF. */
function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function isTestFile(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && isRulesetTestFileName(uri.path);
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
}

/** A file's text on disk; undefined when there is no such file. */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}

/** The ruleset files a test file may use, each as the editor has it if open, else from disk. */
async function readRulesets(paths: readonly string[]): Promise<Map<string, RulesetRead>> {
  const read = new Map<string, RulesetRead>();
  for (const path of paths) {
    const uri = vscode.Uri.file(path);
    const display = vscode.workspace.asRelativePath(uri, false);
    const document = openDocument(uri);
    // A Terraform file's rules are evaluated with its module, as `rulesets test` evaluates them.
    const module = /\.tf$/i.test(path) ? { module: openFirstModuleReader() } : {};
    if (document) {
      read.set(path, { text: document.getText(), display, ...module });
      continue;
    }
    try {
      const text = await readText(uri);
      read.set(path, text === undefined ? undefined : { text, display, ...module });
    } catch (error) {
      read.set(path, { problem: `${display}: cannot read the file (${errorCode(error)})` });
    }
    // The first one found is the one used.
    if (read.get(path)) break;
  }
  return read;
}

/** A Terraform module's files as the editor has them if open, else from disk (the language server's reader does the same). */
function openFirstModuleReader(): TerraformModuleReader {
  const disk = diskModuleReader();
  return {
    listFiles: (folder) => disk.listFiles(folder),
    readFile: (path) => openDocument(vscode.Uri.file(path))?.getText() ?? disk.readFile(path),
  };
}

function errorCode(error: unknown): string {
  return error instanceof vscode.FileSystemError ? error.code : error instanceof Error ? error.message : String(error);
}
