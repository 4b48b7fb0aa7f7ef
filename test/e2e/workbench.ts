/**
 * End-to-end harness: a real VS Code (code-server, installed by scripts/code-server.mjs) in
 * Debian's Chromium, driven by playwright-core the way a person would drive it: Quick Open,
 * the command palette, typing, Ctrl+Space, the mouse over a word, Ctrl+., the Problems panel.
 *
 *   const wb = await startWorkbench({ workspace, vsix: 'rulesets.vsix' });   // in before()
 *   await wb.openFile('edge.ruleset.yaml');
 *   const problems = await wb.problems({ until: (rows) => rows.length > 0 });
 *   await wb.close();                                                        // in after()
 *
 * Every wait is on something on screen (or reported by the control extension) and ends with a
 * message naming what it waited for, what it saw last and a screenshot of that moment. What a
 * reader of the UI cannot know exactly (the editor's whole text, the cursor, running a command
 * by id) comes from a small extension placed next to the one under test (control-extension.js).
 * Artifacts (screenshots, code-server's output, the browser console, VS Code's logs) go to
 * test-artifacts/e2e/<name>/, <name> being the test file's name unless given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync, type WriteStream } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { chromium, type Browser, type BrowserServer, type Page } from 'playwright-core';
import { ensureCodeServer } from '../../scripts/code-server.mjs';

const ROOT = resolve(__dirname, '..', '..');
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');
const IN_PAGE = join(__dirname, 'in-page.js');
const CONTROL_EXTENSION = join(__dirname, 'control-extension.js');

/** The note's arguments for Debian's Chromium on these machines. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** User settings every workbench starts with; the caller's `settings` are laid over them. */
export const DEFAULT_SETTINGS: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'problems.defaultViewMode': 'tree',
  // VS Code in the browser saves after a delay by default; desktop does not, and a test that
  // edits a file then reverts it needs the edit to stay unsaved.
  'files.autoSave': 'off',
  // The control extension listens on a loopback port: not a port to offer forwarding for.
  'remote.autoForwardPorts': false,
};

export interface WorkbenchOptions {
  /** The folder to open. */
  workspace: string;
  /** A .vsix to install with code-server's --install-extension before it starts. */
  vsix?: string;
  /** Unpacked extension folders (each with its package.json) to place in the extensions folder. */
  extensionDir?: string | readonly string[];
  /** User settings, over DEFAULT_SETTINGS. */
  settings?: Record<string, unknown>;
  /**
   * An extension loaded from its folder, as in an Extension Development Host, and an
   * extension-host test suite (`extensionTestsPath`, a module exporting `run()`) that the
   * editor runs once it has started.
   */
  development?: { extensionPath: string; testsPath: string };
  /** More environment for code-server and so for its extension host. */
  env?: Record<string, string>;
  /** Names the artifacts folder test-artifacts/e2e/<name>; default: the test file's name. */
  name?: string;
  /** Default time limit of each wait, in ms (default 20 000; start-up has its own 120 000). */
  timeout?: number;
  viewport?: { width: number; height: number };
}

export interface Problem {
  /** Workspace-relative path with forward slashes. */
  file: string;
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
  source: string;
  code: string;
}

export interface SuggestItem {
  label: string;
  /** The detail shown right of the label (often empty until the item is focused). */
  detail: string;
  /** From the item's icon: 'property', 'keyword', 'function', 'value', … */
  kind: string;
  focused: boolean;
}

export interface ActiveEditor {
  uri: string;
  fsPath: string;
  languageId: string;
  version: number;
  isDirty: boolean;
  text: string;
  /** The cursor, 1-based. */
  line: number;
  column: number;
  selectedText: string;
}

/**
 * What a reader waits for, and how long. Without `until`: problems() and editorText() return
 * what they see (once settled), suggest() and quickFixes() wait for at least one item, hover()
 * for some text. With it, the reader retries (re-triggering suggest, the hover, the menu) until
 * `until` holds, and fails after `timeout` ms saying what it saw last.
 */
export interface WaitOptions<T> {
  until?: (value: T) => boolean;
  timeout?: number;
}

export interface Workbench {
  readonly page: Page;
  readonly url: string;
  readonly workspace: string;
  readonly artifacts: string;
  /** Milliseconds: code-server start to listening, and start to the workbench being ready. */
  readonly timings: { codeServer: number; workbench: number };
  /** Opens a workspace file through Quick Open (Ctrl+P) and waits until it is the active editor. */
  openFile(relativePath: string): Promise<void>;
  /** Runs a command by its title in the command palette (F1), e.g. 'View: Toggle Problems'. */
  runCommand(title: string): Promise<void>;
  /** Runs a command by its id, through the control extension; returns its (JSON) result. */
  executeCommand(id: string, ...args: unknown[]): Promise<unknown>;
  /** Sets a user setting (as the Settings editor would), through the control extension. */
  setSetting(key: string, value: unknown): Promise<void>;
  /** The Problems panel's rows, once they have settled (and satisfy `until`). */
  problems(options?: WaitOptions<Problem[]>): Promise<Problem[]>;
  /** Saves test-artifacts/e2e/<name>/<screenshot>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  /** Focuses the active editor. */
  focusEditor(): Promise<void>;
  /** Puts the cursor at a 1-based line and column (Ctrl+G line:column). */
  goTo(line: number, column?: number): Promise<void>;
  /** Types into the focused editor, key by key (auto-closing and auto-indent apply). */
  type(text: string): Promise<void>;
  /** Presses a key or chord, e.g. 'Enter', 'Control+S'. */
  press(key: string): Promise<void>;
  /** Triggers suggest (Ctrl+Space) at the cursor and returns the widget's items. */
  suggest(options?: WaitOptions<SuggestItem[]>): Promise<SuggestItem[]>;
  /** Accepts the suggest item with this label (opening suggest first if needed). */
  acceptSuggestion(label: string, options?: { timeout?: number }): Promise<void>;
  /** Moves the mouse over the character at line:column and returns the hover's text. */
  hover(line: number, column: number, options?: WaitOptions<string>): Promise<string>;
  /** Opens the quick fix menu (Ctrl+.) at the cursor and returns its items' titles (it stays open). */
  quickFixes(options?: WaitOptions<string[]>): Promise<string[]>;
  /** Opens the quick fix menu at the cursor and applies the item with this title. */
  applyQuickFix(title: string, options?: { timeout?: number }): Promise<void>;
  /** The active editor's whole text, exactly (unsaved changes included). */
  editorText(options?: WaitOptions<string>): Promise<string>;
  /** The active editor: document, text and cursor. */
  activeEditor(): Promise<ActiveEditor | null>;
  /** Presses Escape until no suggest widget, quick fix menu or quick input is open. */
  closeWidgets(): Promise<void>;
  /** Closes Chromium and code-server (their process groups too); safe to call more than once. */
  close(): Promise<void>;
}

/** Artifacts folders emptied by this process: a second workbench of the same name adds to it. */
const emptied = new Set<string>();

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const delay = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function describe(value: unknown): string {
  const text = JSON.stringify(value, null, 1)?.replace(/\n\s*/g, ' ') ?? String(value);
  return text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]);
}

function testFileName(): string {
  const file = basename(process.argv[1] ?? 'workbench');
  return file.replace(/\.test\.[cm]?[jt]s$|\.[cm]?[jt]s$/, '') || 'workbench';
}

/** Environment for code-server: nothing of a surrounding VS Code, test runner or $PORT. */
function codeServerEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VSCODE_|ELECTRON_|NODE_OPTIONS$|NODE_TEST_CONTEXT$|PORT$|PASSWORD$|HASHED_PASSWORD$|GITHUB_TOKEN$)/.test(key)) continue;
    env[key] = value;
  }
  // code-server writes its config.yaml and state under these; keep them out of ~.
  env.XDG_CONFIG_HOME = join(home, 'config');
  env.XDG_DATA_HOME = join(home, 'data');
  return env;
}

function tail(path: string, lines = 30): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

/** Runs code-server's CLI once (e.g. --install-extension) and resolves with its output. */
function runCli(entry: string, args: string[], env: NodeJS.ProcessEnv, log: WriteStream, timeout: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [entry, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
      log.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) done(output);
      else fail(new Error(`code-server ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

/** Copies an unpacked extension into the extensions folder as publisher.name-version. */
function placeExtension(from: string, extensions: string): string {
  const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { publisher?: string; name?: string; version?: string };
  if (!manifest.publisher || !manifest.name || !manifest.version) {
    throw new Error(`${from}/package.json needs publisher, name and version to be placed as an extension`);
  }
  const to = join(extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`.toLowerCase());
  cpSync(from, to, { recursive: true, dereference: true, filter: (source) => basename(source) !== '.git' });
  return to;
}

function writeControlExtension(extensions: string, portFile: string, token: string): void {
  const dir = join(extensions, 'rulesets-e2e.control-0.0.1');
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'control',
    publisher: 'rulesets-e2e',
    displayName: 'End-to-end test control',
    version: '0.0.1',
    engines: { vscode: '^1.75.0' },
    main: './extension.js',
    activationEvents: ['onStartupFinished'],
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'extension.js'), readFileSync(CONTROL_EXTENSION));
  writeFileSync(join(dir, 'control.json'), JSON.stringify({ portFile, token }));
}

/** Starts code-server with a fresh profile on `options.workspace` and opens it in Chromium. */
export async function startWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  const started = Date.now();
  const install = await ensureCodeServer();
  const workspace = realpathSync(options.workspace);
  const artifacts = join(ARTIFACTS, options.name ?? testFileName());
  if (!emptied.has(artifacts)) rmSync(artifacts, { recursive: true, force: true });
  emptied.add(artifacts);
  mkdirSync(artifacts, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'rulesets-e2e-'));
  const userData = join(home, 'user-data');
  const extensions = join(home, 'extensions');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(extensions, { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, ...options.settings }, null, 2));

  const session = new Session(workspace, artifacts, home, options.timeout ?? 20_000);
  try {
    const env = { ...codeServerEnv(home), ...options.env };
    const log = session.log('code-server.log');
    const portFile = join(home, 'control-port');
    const token = Math.random().toString(36).slice(2) + Date.now().toString(36);
    writeControlExtension(extensions, portFile, token);
    for (const dir of [options.extensionDir ?? []].flat()) placeExtension(resolve(dir), extensions);
    if (options.vsix) {
      const vsix = resolve(options.vsix);
      if (!existsSync(vsix)) throw new Error(`no such .vsix: ${vsix}`);
      log.write(`--- code-server --install-extension ${vsix}\n`);
      await runCli(install.entry, ['--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', vsix, '--force'], env, log, 120_000);
    }

    log.write('--- code-server\n');
    const serverStarted = Date.now();
    const child = spawn(
      process.execPath,
      [
        install.entry,
        '--auth', 'none',
        '--bind-addr', '127.0.0.1:0',
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        '--ignore-last-opened',
        '--user-data-dir', userData,
        '--extensions-dir', extensions,
        workspace,
      ],
      { cwd: home, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    session.codeServer = child;
    child.on('exit', (code, signal) => log.write(`--- code-server exited (${code ?? signal})\n`));
    const base = await new Promise<string>((done, fail) => {
      let seen = '';
      let found = false;
      const timer = setTimeout(() => fail(new Error(`code-server did not say where it listens within 60 s; its output:\n${seen}`)), 60_000);
      const watch = (chunk: Buffer) => {
        log.write(chunk);
        if (found) return; // from here on, only to the log
        seen += chunk.toString();
        const listening = /HTTP server listening on (http:\/\/\S+?)\/?\s/.exec(seen);
        if (listening) {
          found = true;
          clearTimeout(timer);
          done(listening[1]);
        }
      };
      child.stdout!.on('data', watch);
      child.stderr!.on('data', watch);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        fail(new Error(`code-server exited (${code ?? signal}) before listening; its output:\n${seen}`));
      });
    });
    await session.until('code-server to answer /healthz', async () => (await fetch(`${base}/healthz`)).ok, (ok) => ok, 30_000);
    session.timings.codeServer = Date.now() - serverStarted;

    session.browserServer = await chromium.launchServer({ executablePath: install.chromium, args: CHROMIUM_ARGS, timeout: 60_000 });
    session.browser = await chromium.connect(session.browserServer.wsEndpoint());
    const context = await session.browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    await context.addInitScript({ path: IN_PAGE });
    const page = await context.newPage();
    session.page = page;
    const consoleLog = session.log('browser-console.log');
    page.on('console', (message) => consoleLog.write(`[${message.type()}] ${message.text()}\n`));
    page.on('pageerror', (error) => consoleLog.write(`[pageerror] ${error.stack ?? error}\n`));
    page.on('crash', () => consoleLog.write('[crash] the page crashed\n'));
    session.url = `${base}/?folder=${encodeURIComponent(workspace)}`;
    if (options.development) {
      // The browser workbench takes what `code --extensionDevelopmentPath … --extensionTestsPath …`
      // would, as a payload of remote URIs (what "Run Extension" in a remote window does).
      const remote = (path: string) => `vscode-remote://${new URL(base).host}${path}`;
      const payload = [
        ['extensionDevelopmentPath', remote(options.development.extensionPath)],
        ['extensionTestsPath', remote(options.development.testsPath)],
      ];
      session.url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    }
    await page.goto(session.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 60_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await session.failureScreenshot('no-workbench')}\ncode-server said:\n${tail(join(artifacts, 'code-server.log'))}`);
    });
    // The control extension answers once the extension host has started (onStartupFinished).
    const port = await session.until(
      'the control extension to start (it activates on onStartupFinished)',
      async () => (existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : 0),
      (value) => value > 0,
      90_000,
    );
    session.control = `http://127.0.0.1:${port}/${token}`;
    session.timings.workbench = Date.now() - serverStarted;
    process.stderr.write(
      `e2e: workbench ready in ${(session.timings.workbench / 1000).toFixed(1)} s ` +
        `(code-server ${(session.timings.codeServer / 1000).toFixed(1)} s; ${((Date.now() - started) / 1000).toFixed(1)} s with setup)\n`,
    );
    return session;
  } catch (error) {
    await session.close();
    throw error;
  }
}

interface ListRow {
  index: number;
  last: boolean;
}

interface PanelRow extends ListRow {
  level: number;
  kind: 'file' | 'marker' | 'other';
  path?: string;
  name?: string;
  description?: string;
  severity?: Problem['severity'];
  message?: string;
  source?: string;
  code?: string;
  line?: number;
  column?: number;
}

interface QuickInputState {
  visible: boolean;
  value: string;
  inputFocused: boolean;
  message: string;
  rows: { index: number; label: string; description: string; ariaLabel: string; focused: boolean }[];
}

interface SuggestState {
  visible: boolean;
  message: string;
  total: number;
  items: (SuggestItem & ListRow)[];
}

interface ActionState {
  visible: boolean;
  /** The editor's overlay message instead of a menu, e.g. 'No code actions available'. */
  message: string;
  items: { index: number; title: string; focused: boolean; disabled: boolean }[];
}

class Session implements Workbench {
  page!: Page;
  url = '';
  readonly timings = { codeServer: 0, workbench: 0 };
  codeServer?: ChildProcess;
  browserServer?: BrowserServer;
  browser?: Browser;
  control = '';
  private readonly logs: WriteStream[] = [];
  private failures = 0;
  /** Inside retry(): an inner wait that times out is part of the retrying, not worth a picture. */
  private retrying = 0;
  private closed = false;
  private readonly killOnExit = () => {
    this.killCodeServer('SIGKILL');
    if (!process.env.RULESETS_E2E_KEEP) rmSync(this.home, { recursive: true, force: true });
  };
  /**
   * Ctrl+C or a runner's SIGTERM: code-server goes, then the process ends as the signal meant
   * (a listener for it would otherwise keep the process alive; Chromium goes with playwright's
   * own 'exit' handler).
   */
  private readonly killOnSignal = (signal: NodeJS.Signals) => {
    this.killOnExit();
    this.removeExitHandlers();
    process.exit(128 + (constants.signals[signal] ?? 15));
  };

  constructor(
    readonly workspace: string,
    readonly artifacts: string,
    private readonly home: string,
    private readonly timeout: number,
  ) {
    process.on('exit', this.killOnExit);
    for (const signal of SIGNALS) process.on(signal, this.killOnSignal);
  }

  private removeExitHandlers(): void {
    process.removeListener('exit', this.killOnExit);
    for (const signal of SIGNALS) process.removeListener(signal, this.killOnSignal);
  }

  log(name: string): WriteStream {
    const stream = createWriteStream(join(this.artifacts, name), { flags: 'a' });
    stream.on('error', () => {}); // a line arriving after close() is not worth a crash
    this.logs.push(stream);
    return stream;
  }

  // ---- waiting -----------------------------------------------------------------------------

  async failureScreenshot(label = 'timeout'): Promise<string> {
    if (!this.page || this.page.isClosed()) return '(no page to take a screenshot of)';
    const path = join(this.artifacts, `failure-${++this.failures}-${label.replace(/[^\w.-]+/g, '-').slice(0, 60)}.png`);
    try {
      await this.page.screenshot({ path, timeout: 10_000 });
      return `Screenshot: ${path}`;
    } catch (error) {
      return `(screenshot failed: ${error})`;
    }
  }

  /** Polls `probe` until `done` holds; on timeout, says what it waited for and saw last. */
  async until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeout = this.timeout, interval = 100): Promise<T> {
    const deadline = Date.now() + timeout;
    let last: T | undefined;
    let failure: unknown;
    for (;;) {
      try {
        last = await probe();
        failure = undefined;
        if (done(last)) return last;
      } catch (error) {
        failure = error;
      }
      if (Date.now() >= deadline) break;
      await delay(interval);
    }
    const problem = failure ? `\nLast error: ${failure instanceof Error ? failure.message : failure}` : '';
    const picture = this.retrying > 0 ? '' : `\n${await this.failureScreenshot(what)}`;
    throw new Error(`Timed out after ${timeout} ms waiting for ${what}.\nLast seen: ${describe(last)}${problem}${picture}`);
  }

  /** Like until(), but also waits for the value to stay the same for `quiet` ms. */
  async settled<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeout = this.timeout, quiet = 400): Promise<T> {
    let previous = '';
    let since = Date.now();
    const result = await this.until(
      what,
      async () => {
        const value = await probe();
        const key = JSON.stringify(value);
        if (key !== previous) {
          previous = key;
          since = Date.now();
        }
        return { value, stable: Date.now() - since >= quiet };
      },
      ({ value, stable }) => stable && done(value),
      timeout,
    );
    return result.value;
  }

  /** Repeats `attempt` (which acts, then reads) until `done` holds on what it read. */
  async retry<T>(what: string, attempt: (remaining: number) => Promise<T>, done: (value: T) => boolean, timeout = this.timeout): Promise<T> {
    const deadline = Date.now() + timeout;
    let last: T | undefined;
    let failure: unknown;
    for (;;) {
      this.retrying++;
      try {
        last = await attempt(Math.max(1000, deadline - Date.now()));
        failure = undefined;
        if (done(last)) return last;
      } catch (error) {
        failure = error;
      } finally {
        this.retrying--;
      }
      if (Date.now() >= deadline) break;
      await delay(250);
    }
    const problem = failure ? `\nLast error: ${failure instanceof Error ? failure.message : failure}` : '';
    throw new Error(`Gave up after ${timeout} ms on ${what}.\nLast seen: ${describe(last)}${problem}\n${await this.failureScreenshot(what)}`);
  }

  private inPage<T>(call: string): Promise<T> {
    return this.page.evaluate<T>(`__e2e.${call}`);
  }

  // ---- the control extension ---------------------------------------------------------------

  private async controlRequest(body: object): Promise<unknown> {
    let answer: { result?: unknown; error?: string };
    try {
      const response = await fetch(this.control, { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(this.timeout) });
      answer = (await response.json()) as typeof answer;
    } catch (error) {
      throw new Error(`the control extension did not answer ${JSON.stringify(body).slice(0, 200)} within ${this.timeout} ms (a modal dialog?): ${error}`);
    }
    if (answer.error) throw new Error(`control extension, ${JSON.stringify(body).slice(0, 200)}: ${answer.error}`);
    return answer.result;
  }

  executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    return this.controlRequest({ op: 'command', id, args });
  }

  async activeEditor(): Promise<ActiveEditor | null> {
    return (await this.controlRequest({ op: 'activeEditor' })) as ActiveEditor | null;
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    await this.controlRequest({ op: 'setSetting', key, value });
  }

  async editorText(options: WaitOptions<string> = {}): Promise<string> {
    const { until = () => true, timeout } = options;
    return this.until(
      'the active editor\'s text',
      async () => {
        const editor = await this.activeEditor();
        if (!editor) throw new Error('no active text editor');
        return editor.text;
      },
      until,
      timeout,
    );
  }

  // ---- the UI ------------------------------------------------------------------------------

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  async type(text: string): Promise<void> {
    await this.focusEditor();
    await this.page.keyboard.type(text);
  }

  async screenshot(name: string): Promise<string> {
    const path = join(this.artifacts, `${name.replace(/[^\w.-]+/g, '-')}.png`);
    await delay(150); // let fade-in animations finish: for the picture only
    await this.page.screenshot({ path });
    return path;
  }

  async focusEditor(): Promise<void> {
    if (await this.inPage<boolean>('editorFocused()')) return;
    await this.executeCommand('workbench.action.focusActiveEditorGroup');
    await this.until('the active editor to have focus', () => this.inPage<boolean>('editorFocused()'), (focused) => focused);
  }

  /** Opens a quick input with `key` and waits for its text box to take focus with `prefix`. */
  private async openQuickInput(key: string, prefix: string, value: string): Promise<void> {
    await this.closeWidgets();
    await this.press(key);
    await this.until(
      `the quick input (${key}) to open`,
      () => this.inPage<QuickInputState>('quickInput()'),
      (s) => s.visible && s.inputFocused && s.value.startsWith(prefix),
    );
    await this.page.locator('.quick-input-widget .quick-input-box input').fill(value);
  }

  /** Chooses a quick input row: Enter when it is the focused one, else a click on it. */
  private async chooseQuickInputRow(row: QuickInputState['rows'][number]): Promise<void> {
    if (row.focused) await this.press('Enter');
    else await this.page.locator(`.quick-input-widget .quick-input-list .monaco-list-row[data-index="${row.index}"]`).click();
  }

  async openFile(relativePath: string): Promise<void> {
    const path = relativePath.split(sep).join('/');
    const name = posix.basename(path);
    const folder = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    const wanted = join(this.workspace, ...path.split('/'));
    await this.openQuickInput('Control+P', '', path);
    const pick = (s: QuickInputState) => {
      const named = s.rows.filter((row) => row.label === name);
      const inFolder = (description: string) => (folder === '' ? description === '' : description === folder || description.endsWith(`/${folder}`) || description.endsWith(` ${folder}`));
      return named.find((row) => inFolder(row.description)) ?? (named.length === 1 ? named[0] : undefined);
    };
    const state = await this.settled(`Quick Open to list ${path}`, () => this.inPage<QuickInputState>('quickInput()'), (s) => s.value === path && !!pick(s), undefined, 200);
    await this.chooseQuickInputRow(pick(state)!);
    await this.until(
      `${path} to be the active editor`,
      async () => ({ editor: (await this.activeEditor())?.fsPath, tab: await this.inPage<unknown>('activeTab()'), focused: await this.inPage<boolean>('editorFocused()') }),
      (s) => s.editor === wanted && s.focused,
    );
  }

  async runCommand(title: string): Promise<void> {
    await this.openQuickInput('F1', '>', `>${title}`);
    const matches = (label: string) => label === title;
    const state = await this.settled(
      `the command palette to list "${title}"`,
      () => this.inPage<QuickInputState>('quickInput()'),
      (s) => s.value === `>${title}` && s.rows.some((row) => matches(row.label)),
      undefined,
      200,
    );
    await this.chooseQuickInputRow(state.rows.find((row) => matches(row.label))!);
    // Done when the palette closed, or turned into the command's own picker.
    await this.until(`the command palette to run "${title}"`, () => this.inPage<QuickInputState>('quickInput()'), (s) => !s.visible || s.value !== `>${title}`);
  }

  async goTo(line: number, column = 1): Promise<void> {
    await this.focusEditor();
    await this.openQuickInput('Control+G', ':', `:${line}:${column}`);
    await this.press('Enter');
    await this.until(
      `the cursor to reach ${line}:${column}`,
      async () => {
        const editor = await this.activeEditor();
        return { line: editor?.line, column: editor?.column, quickInput: (await this.inPage<QuickInputState>('quickInput()')).visible, focused: await this.inPage<boolean>('editorFocused()') };
      },
      (s) => s.line === line && s.column === column && !s.quickInput && s.focused,
    );
  }

  /**
   * All rows of a virtualized list (only the rows in view are in the DOM): scrolls it with the
   * mouse wheel from the top to the last row, then back to the top. Each wheel notch moves the
   * list a little, so it goes notch by notch, reading the rows after each.
   */
  private async collectRows<R extends ListRow>(listSelector: string, read: () => Promise<R[]>): Promise<R[]> {
    let current = await read();
    const complete = (rows: R[]) => rows.length === 0 || (rows.some((row) => row.index === 0) && rows.some((row) => row.last));
    if (complete(current)) return current;
    const box = await this.page.locator(listSelector).first().boundingBox();
    if (!box) return current;
    const notch = async (deltaY: number) => {
      await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await this.page.mouse.wheel(0, deltaY);
      await delay(30);
      current = await read();
    };
    const toTop = async () => {
      for (let i = 0; i < 1000 && current.length > 0 && !current.some((row) => row.index === 0); i++) await notch(-120);
    };
    await toTop();
    const rows = new Map<number, R>();
    let stuck = 0;
    for (let i = 0; i < 5000 && stuck < 20; i++) {
      const before = rows.size;
      for (const row of current) rows.set(row.index, row);
      if (current.length === 0 || current.some((row) => row.last)) break;
      stuck = rows.size === before ? stuck + 1 : 0;
      await notch(120);
    }
    await toTop(); // as a person would find it
    await this.parkMouse();
    return [...rows.values()].sort((a, b) => a.index - b.index);
  }

  /** The mouse to a spot where it hovers nothing (the middle of the status bar). */
  private async parkMouse(): Promise<void> {
    const viewport = this.page.viewportSize() ?? { width: 1400, height: 900 };
    await this.page.mouse.move(viewport.width / 2, viewport.height - 2);
  }

  /** Escape until no suggest widget, quick fix menu or quick input is open (left by a failed test, say). */
  async closeWidgets(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      const open = await this.page.evaluate<boolean>('__e2e.suggestWidget().visible || __e2e.actionWidget().visible || __e2e.quickInput().visible');
      if (!open) return;
      await this.press('Escape');
      await delay(100);
    }
  }

  private async readProblems(): Promise<{ visible: boolean; message: string; problems: Problem[] }> {
    let panel = await this.inPage<{ visible: boolean; message: string; rows: PanelRow[] }>('problemsPanel()');
    const rows = await this.collectRows('.markers-panel .tree-container .monaco-list', async () => {
      panel = await this.inPage<{ visible: boolean; message: string; rows: PanelRow[] }>('problemsPanel()');
      return panel.rows;
    });
    const problems: Problem[] = [];
    let file = '';
    for (const row of rows) {
      if (row.kind === 'file') {
        const path = row.path ?? '';
        file = isAbsolute(path) ? relative(this.workspace, path).split(sep).join('/') : [row.description, row.name].filter(Boolean).join('/');
      } else if (row.kind === 'marker' && row.level === 2) {
        problems.push({ file, line: row.line ?? 0, column: row.column ?? 0, severity: row.severity as Problem['severity'], message: row.message ?? '', source: row.source ?? '', code: row.code ?? '' });
      }
    }
    return { visible: panel.visible, message: panel.message, problems };
  }

  async problems(options: WaitOptions<Problem[]> = {}): Promise<Problem[]> {
    const { until = () => true, timeout } = options;
    const editorHadFocus = await this.inPage<boolean>('editorFocused()');
    const panel = await this.inPage<{ visible: boolean }>('problemsPanel()');
    if (!panel.visible) {
      await this.executeCommand('workbench.actions.view.problems');
      await this.until('the Problems panel to open', () => this.inPage<{ visible: boolean }>('problemsPanel()'), (p) => p.visible);
    }
    // Settled on what is in view (and the panel's count), then read whole: scrolling is slow.
    const seen = await this.retry(
      'the Problems panel',
      async (remaining) => {
        await this.settled('the Problems panel to settle', () => this.inPage<unknown>('problemsPanel()'), () => true, Math.min(remaining, 10_000), 500);
        return this.readProblems();
      },
      (s) => until(s.problems),
      timeout,
    );
    if (editorHadFocus) await this.focusEditor();
    return seen.problems;
  }

  private async readSuggest(): Promise<SuggestState> {
    const state = await this.inPage<SuggestState>('suggestWidget()');
    if (!state.visible || state.items.length === 0 || state.items.length >= state.total) return state;
    const items = await this.collectRows('.suggest-widget.visible .monaco-list', async () => (await this.inPage<SuggestState>('suggestWidget()')).items);
    return { ...state, items };
  }

  /** Closes the widget if it is open (Escape), presses `key` and waits for the widget to settle. */
  private async trigger<S extends { visible: boolean }>(name: string, probe: string, key: string, ready: (state: S) => boolean, timeout: number): Promise<S> {
    const read = () => this.inPage<S>(probe);
    if ((await read()).visible) {
      await this.press('Escape');
      await this.until(`${name} to close`, read, (state) => !state.visible);
    }
    await this.press(key);
    return this.settled(`${name} to show`, read, ready, timeout, 300);
  }

  async suggest(options: WaitOptions<SuggestItem[]> = {}): Promise<SuggestItem[]> {
    const { until = () => true, timeout } = options;
    // "No suggestions." is an answer too: `until` may expect an empty list.
    await this.focusEditor();
    const state = await this.retry(
      'suggest (Ctrl+Space)',
      async (remaining) => {
        const ready = (s: SuggestState) => s.visible && !/loading/i.test(s.message) && (s.items.length > 0 || s.message !== '');
        await this.trigger('the suggest widget', 'suggestWidget()', 'Control+Space', ready, Math.min(remaining, 5000));
        return this.readSuggest();
      },
      (s) => (options.until ? until(s.items.map(publicItem)) : s.items.length > 0),
      timeout,
    );
    return state.items.map(publicItem);
  }

  async acceptSuggestion(label: string, options: { timeout?: number } = {}): Promise<void> {
    let state = await this.readSuggest();
    if (!state.visible || !state.items.some((item) => item.label === label)) {
      await this.suggest({ until: (items) => items.some((item) => item.label === label), timeout: options.timeout });
      state = await this.readSuggest();
    }
    const target = state.items.find((item) => item.label === label)!;
    const focused = state.items.find((item) => item.focused);
    const steps = target.index - (focused?.index ?? 0);
    for (let i = 0; i < Math.abs(steps); i++) await this.press(steps > 0 ? 'ArrowDown' : 'ArrowUp');
    await this.until(`the suggest item "${label}" to be focused`, () => this.inPage<SuggestState>('suggestWidget()'), (s) => s.items.some((item) => item.focused && item.label === label));
    await this.press('Enter');
    await this.until('the suggest widget to close', () => this.inPage<SuggestState>('suggestWidget()'), (s) => !s.visible);
  }

  async hover(line: number, column: number, options: WaitOptions<string> = {}): Promise<string> {
    const { until = () => true, timeout } = options;
    await this.goTo(line, column);
    const box = await this.inPage<{ x: number; y: number; width: number; height: number; char: string; error?: string }>('charBoxAtCursor()');
    if (box.error) throw new Error(`cannot hover at ${line}:${column}: ${box.error}\n${await this.failureScreenshot('hover')}`);
    const result = await this.retry(
      `a hover at ${line}:${column} ("${box.char}")`,
      async (remaining) => {
        // Away first (over nothing that hovers), so that coming back is a fresh hover.
        await this.parkMouse();
        await this.until('the previous hover to hide', () => this.inPage<{ visible: boolean }>('hover()'), (h) => !h.visible, 3000).catch(() => this.press('Escape'));
        await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
        return this.settled('the hover to show', () => this.inPage<{ visible: boolean; text: string }>('hover()'), (h) => h.visible && h.text !== '' && !/^Loading\.\.\.$/.test(h.text), Math.min(remaining, 5000), 300);
      },
      (h) => until(h.text),
      timeout,
    );
    return result.text;
  }

  private async openQuickFixes(until: (titles: string[]) => boolean, timeout?: number): Promise<ActionState> {
    await this.focusEditor();
    return this.retry(
      'the quick fix menu (Ctrl+.)',
      async (remaining) => {
        const ready = (s: ActionState) => (s.visible && s.items.length > 0) || s.message !== '';
        return this.trigger('the quick fix menu', 'actionWidget()', 'Control+.', ready, Math.min(remaining, 3000));
      },
      (s) => until(s.items.map((item) => item.title)),
      timeout,
    );
  }

  async quickFixes(options: WaitOptions<string[]> = {}): Promise<string[]> {
    const state = await this.openQuickFixes(options.until ?? ((titles) => titles.length > 0), options.timeout);
    return state.items.map((item) => item.title);
  }

  async applyQuickFix(title: string, options: { timeout?: number } = {}): Promise<void> {
    const state = await this.openQuickFixes((titles) => titles.includes(title), options.timeout);
    const target = state.items.find((item) => item.title === title)!;
    if (target.disabled) throw new Error(`the quick fix "${title}" is disabled\n${await this.failureScreenshot('quick-fix-disabled')}`);
    // The keyboard: while the menu is up, a pointer block covers the page until the mouse moves.
    // ArrowDown walks the enabled items only, and wraps around: step until it is the focused one.
    let seen = state;
    for (let step = 0; !seen.items.some((item) => item.focused && item.title === title); step++) {
      if (step > 2 * seen.items.length) {
        throw new Error(`ArrowDown never focused the quick fix "${title}"; seen: ${describe(seen)}\n${await this.failureScreenshot('quick-fix-focus')}`);
      }
      await this.press('ArrowDown');
      seen = await this.inPage<ActionState>('actionWidget()');
    }
    await this.press('Enter');
    await this.until('the quick fix menu to close', () => this.inPage<ActionState>('actionWidget()'), (s) => !s.visible);
  }

  // ---- the end -----------------------------------------------------------------------------

  private killCodeServer(signal: NodeJS.Signals): void {
    const pid = this.codeServer?.pid;
    if (!pid || this.codeServer?.exitCode !== null || this.codeServer?.signalCode !== null) return;
    try {
      process.kill(-pid, signal); // the whole group: code-server, its extension hosts, pty host, watchers
    } catch {
      // already gone
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const problems: string[] = [];
    if (this.browser) await withTimeout(this.browser.close(), 10_000, 'closing the browser').catch((error) => problems.push(String(error)));
    if (this.browserServer) {
      await withTimeout(this.browserServer.close(), 10_000, 'closing Chromium').catch(async () => {
        await this.browserServer?.kill().catch((error: unknown) => problems.push(String(error)));
      });
    }
    if (this.codeServer) {
      const child = this.codeServer;
      const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((done) => child.once('exit', () => done()));
      this.killCodeServer('SIGTERM');
      await withTimeout(exited, 5_000, 'code-server stopping').catch(() => this.killCodeServer('SIGKILL'));
      // What is left of its group (children that outlive it) goes too.
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is empty
      }
    }
    this.removeExitHandlers();
    try {
      const logs = join(this.home, 'user-data', 'logs');
      if (existsSync(logs)) cpSync(logs, join(this.artifacts, 'vscode-logs'), { recursive: true });
    } catch (error) {
      problems.push(`copying VS Code's logs: ${error}`);
    }
    await Promise.all(this.logs.map((stream) => new Promise<void>((done) => stream.end(() => done()))));
    if (process.env.RULESETS_E2E_KEEP) process.stderr.write(`e2e: kept ${this.home}\n`);
    else rmSync(this.home, { recursive: true, force: true, maxRetries: 3 });
    if (problems.length > 0) process.stderr.write(`e2e: while closing: ${problems.join('; ')}\n`);
  }
}

function publicItem({ label, detail, kind, focused }: SuggestItem): SuggestItem {
  return { label, detail, kind, focused };
}

/** A fresh temporary folder with these files (paths with '/'), for a test workspace. */
/** Every file below `folder` (subfolders too, as examples/waf-mistakes/), by its path with `/`, with its text: what makeWorkspace takes. */
export function filesOf(folder: string): Record<string, string> {
  const names = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(folder, name)).isFile());
  return Object.fromEntries(names.map((name) => [name.split(sep).join('/'), readFileSync(join(folder, name), 'utf8')]));
}

export function makeWorkspace(files: Record<string, string>, prefix = 'rulesets-e2e-ws-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return realpathSync(dir);
}
