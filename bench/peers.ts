/**
 * Our language server beside its peers, measured in the same run on the same files: an
 * independent LSP client over stdio (nothing here assumes our server), the same generated
 * 1,000-rule files, fresh server processes, medians of three.
 *
 * The peers: yaml-language-server on YAML and vscode-json-language-server (from
 * vscode-langservers-extracted) on JSON. They check only the shape of the file against a JSON
 * schema; we check every expression as well.
 *
 * The schema. schemas/ruleset.schema.json is deliberately empty (it only stops VS Code's JSON
 * support from guessing), so a peer given it checks nothing and the comparison would be
 * meaningless. The peers get instead a shape schema written by this benchmark from the same
 * catalogue our own shape check uses (keys, types, kinds, phases, actions, the `skip`
 * parameters): the checks we make minus the expressions. A throwaway file with one planted
 * schema error proves, before anything is timed, that each peer publishes its diagnostic.
 *
 * Diagnostics: each server is driven the way VS Code's language client drives it. That
 * client announces pull diagnostics, so our server and vscode-json-language-server are pulled
 * (textDocument/diagnostic), which neither delays; both push only to a client without pull,
 * after a debounce (ours 150 ms, vscode-json-language-server 500 ms). yaml-language-server
 * only pushes, and debounces each validation by a fixed 200 ms (validationDelayMs): its wall
 * times include that idle wait. The targets are therefore judged on server CPU time, which no timer
 * inflates; wall times are printed beside them, with the peer's fixed delay subtracted too.
 *
 * Open and RSS: the median of three fresh servers. The open is measured twice: at start, as an
 * editor opening the file that started the server does (the server's whole CPU up to the first
 * diagnostics), and without start (JSON, beside vscode-json-language-server): a fresh server
 * is initialised, given its settings and left until idle (under 1 ms of CPU in 300 ms), then
 * its CPU from didOpen to the first diagnostics is counted. Edits, completions and hovers: a third of
 * them on each of the three, the percentiles over all of them together (102 samples).
 *
 * CPU time: utime + stime of the server process from /proc/<pid>/stat (clock ticks, 10 ms
 * apart) for the open at start; for the open without start and for a single edit, which take
 * a few to a hundred ms, the sum of every thread's run time in /proc/<pid>/task/<tid>/schedstat (ns).
 *
 * Run with `node --import tsx bench/peers.ts` (the last step of `npm run bench`), several
 * minutes; `RULESETS_BENCH_PEERS=open node --import tsx bench/peers.ts` runs only the rows of the
 * open without start.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CompletionRequest,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LSPErrorCodes,
  PublishDiagnosticsNotification,
  ResponseError,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type DocumentDiagnosticReport,
  type Position,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import * as YAML from 'yaml';
import { KNOWN_ACTIONS, KNOWN_PHASES, RULE_KEYS, RULESET_KEYS, RULESET_KINDS } from '../server/src/language/catalogue/phases';
import { expression, httpRulesetObject, rulesetObject } from './inputs';
import { median } from './measure';
import { mark, printTable } from './table';

const ROOT = resolve(__dirname, '..');
const RULES = 1000;
const RUNS = 3;
/** Edits, completions and hovers in all: a third on each fresh server, percentiles over the lot. */
const EDITS = 102;
const REQUESTS = 102;
const DOCUMENTS = 6000;
const CHECKPOINT = 1000;
/** Documents open at once in the memory run: a push server with a debounce validates them together. */
const BATCH = 100;
const TIMEOUT_MS = 60_000;
/** `RULESETS_BENCH_PEERS=open` runs only the rows of a JSON file opened on an idle server (a minute, not several). */
const ONLY_OPEN = process.env.RULESETS_BENCH_PEERS === 'open';

type Format = 'json' | 'yaml';
type Mode = 'pull' | 'push';

interface ServerSpec {
  readonly name: string;
  readonly script: string;
  readonly mode: Mode;
  /** A fixed wait between a change and its validation (a debounce), 0 if none. */
  readonly fixedDelayMs: number;
  /** Settings by section, answered to workspace/configuration and sent in didChangeConfiguration. */
  readonly settings: Record<string, unknown>;
}

// ---------------------------------------------------------------- the files

const workDir = mkdtempSync(join(tmpdir(), 'rulesets-peers-'));
/** The packet phase's file and a WAF custom rules file (an HTTP phase) of the same size and shape. */
type Family = 'magic' | 'http';
const OBJECTS: Record<Family, ReturnType<typeof rulesetObject>> = { magic: rulesetObject(RULES), http: httpRulesetObject(RULES) };
const TEXTS: Record<Family, Record<Format, string>> = { magic: { json: '', yaml: '' }, http: { json: '', yaml: '' } };
const URIS: Record<Family, Record<Format, string>> = { magic: { json: '', yaml: '' }, http: { json: '', yaml: '' } };
for (const family of ['magic', 'http'] as const) {
  for (const format of ['json', 'yaml'] as const) {
    TEXTS[family][format] = format === 'json' ? JSON.stringify(OBJECTS[family], null, 2) : YAML.stringify(OBJECTS[family]);
    const path = join(workDir, `large-${family}.ruleset.${format}`);
    writeFileSync(path, TEXTS[family][format]);
    URIS[family][format] = pathToFileURL(path).href;
  }
}

/** The shape our own shape check enforces (documents/ruleset-shape.ts), as a JSON schema. */
function shapeSchema(): object {
  const types: Record<string, object> = {
    rules: { type: 'array', items: { $ref: '#/definitions/rule' } },
    kind: { type: 'string', enum: RULESET_KINDS },
    phase: { type: 'string', enum: KNOWN_PHASES },
    action: { type: 'string', enum: KNOWN_ACTIONS },
    expression: { type: 'string', minLength: 1 },
    enabled: { type: 'boolean' },
    action_parameters: { type: 'object' },
    logging: { type: 'object', properties: { enabled: { type: 'boolean' } } },
    categories: { type: 'array', items: { type: 'string' } },
    ratelimit: { type: 'object' },
    exposed_credential_check: { type: 'object' },
  };
  const properties = (keys: readonly { key: string; doc: string }[]) => Object.fromEntries(keys.map(({ key, doc }) => [key, { ...(types[key] ?? { type: 'string' }), description: doc }]));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Ruleset (shape only, written by bench/peers.ts)',
    type: 'object',
    required: ['name', 'kind', 'phase', 'rules'],
    additionalProperties: false,
    properties: properties(RULESET_KEYS),
    definitions: {
      rule: {
        type: 'object',
        required: ['action', 'expression'],
        additionalProperties: false,
        properties: properties(RULE_KEYS),
        allOf: [
          {
            if: { properties: { action: { const: 'skip' } }, required: ['action'] },
            then: { required: ['action_parameters'], properties: { action_parameters: { required: ['ruleset'], properties: { ruleset: { const: 'current' } } } } },
          },
        ],
      },
    },
  };
}

const repoSchema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'ruleset.schema.json'), 'utf8')) as Record<string, unknown>;
const repoSchemaIsEmpty = !['type', 'properties', 'required', '$ref', 'allOf', 'anyOf', 'oneOf'].some((k) => k in repoSchema);
const schemaPath = join(workDir, 'ruleset-shape.schema.json');
writeFileSync(schemaPath, JSON.stringify(shapeSchema(), null, 2));
const SCHEMA_URI = pathToFileURL(schemaPath).href;

// ---------------------------------------------------------------- the servers

function peerScript(pkg: string, bin: string): string {
  const path = join(ROOT, 'node_modules', pkg, 'bin', bin);
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm install (${pkg} is a devDependency of the benchmark)`);
  return path;
}

const OURS: ServerSpec = { name: 'ours', script: join(ROOT, 'dist', 'server.js'), mode: 'pull', fixedDelayMs: 0, settings: { rulesets: {} } };
const YAML_LS: ServerSpec = {
  name: 'yaml-language-server',
  script: peerScript('yaml-language-server', 'yaml-language-server'),
  mode: 'push',
  // yamlSettings.validationDelayMs in yaml-language-server: every validation waits this long.
  fixedDelayMs: 200,
  settings: {
    yaml: {
      validate: true,
      hover: true,
      completion: true,
      format: { enable: false },
      schemas: { [SCHEMA_URI]: '*.ruleset.yaml' },
      // Else it downloads the SchemaStore catalogue at start.
      schemaStore: { enable: false },
      kubernetesCRDStore: { enable: false },
    },
    http: { proxy: '', proxyStrictSSL: false },
    '[yaml]': {},
    editor: {},
  },
};
const JSON_LS: ServerSpec = {
  name: 'vscode-json-language-server',
  script: peerScript('vscode-langservers-extracted', 'vscode-json-language-server'),
  mode: 'pull',
  fixedDelayMs: 0,
  settings: {
    json: { validate: { enable: true }, schemas: [{ url: SCHEMA_URI, fileMatch: ['*.ruleset.json'] }] },
    http: { proxy: '', proxyStrictSSL: false },
  },
};

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const live = new Set<ChildProcessWithoutNullStreams>();
process.on('exit', () => live.forEach((child) => child.kill()));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => Number(process.hrtime.bigint()) / 1e6;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms: ${what}`)), TIMEOUT_MS);
    promise.then(
      (value) => (clearTimeout(timer), resolvePromise(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}

/** A generic LSP client of one server process. */
class Server {
  private readonly waiters = new Map<string, { version?: number; resolve: (p: PublishDiagnosticsParams) => void }[]>();
  private stderr = '';

  private constructor(
    readonly spec: ServerSpec,
    readonly child: ChildProcessWithoutNullStreams,
    readonly connection: ProtocolConnection,
  ) {}

  get pid(): number {
    return this.child.pid!;
  }

  /** Spawns a fresh process and completes the handshake as an editor does: initialize, initialized, settings. */
  static async start(spec: ServerSpec): Promise<Server> {
    const child = spawn(process.execPath, [spec.script, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], cwd: workDir });
    live.add(child);
    child.once('exit', () => live.delete(child));
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const server = new Server(spec, child, connection);
    child.stderr.on('data', (chunk) => (server.stderr = (server.stderr + String(chunk)).slice(-4000)));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => server.published(params));
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map((item) => (item.section !== undefined ? (spec.settings[item.section] ?? null) : null)),
    );
    // vscode-json-language-server asks for schemas it cannot read itself (it reads file: URIs).
    connection.onRequest('vscode/content', (uri: string) => readFileSync(fileURLToPath(uri), 'utf8'));
    for (const method of ['client/registerCapability', 'client/unregisterCapability', 'window/workDoneProgress/create', 'window/showMessageRequest', 'workspace/diagnostic/refresh']) {
      connection.onRequest(method, () => null);
    }
    connection.listen();

    const capabilities: ClientCapabilities = {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false }, diagnostics: { refreshSupport: false } },
      textDocument: {
        synchronization: { dynamicRegistration: false, didSave: false },
        // As VS Code's language client announces it: documentation may come when an item is
        // shown, and what the items share may be said once (itemDefaults).
        completion: {
          completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'], resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] } },
          completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] },
        },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        ...(spec.mode === 'pull' ? { diagnostic: { dynamicRegistration: false } } : {}),
      },
    };
    await withTimeout(
      connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(workDir).href, capabilities, workspaceFolders: null }),
      `${spec.name}: initialize`,
    );
    await connection.sendNotification(InitializedNotification.type, {});
    await connection.sendNotification(DidChangeConfigurationNotification.type, { settings: spec.settings });
    return server;
  }

  private published(params: PublishDiagnosticsParams): void {
    const list = this.waiters.get(params.uri);
    if (!list) return;
    // A publish with a version answers the waiter of that version (or a later one); one
    // without (the peers) answers the oldest waiter, registered before its change was sent.
    const index = list.findIndex((w) => w.version === undefined || params.version === undefined || params.version >= w.version);
    if (index < 0) return;
    list.splice(index, 1)[0].resolve(params);
    if (list.length === 0) this.waiters.delete(params.uri);
  }

  /** Sends `send` (an open or a change) and resolves with the diagnostics of that version. */
  async diagnosticsAfter(uri: string, version: number, send: () => void): Promise<Diagnostic[]> {
    if (this.spec.mode === 'push') {
      const published = new Promise<PublishDiagnosticsParams>((resolvePromise) => {
        const list = this.waiters.get(uri) ?? [];
        list.push({ version, resolve: resolvePromise });
        this.waiters.set(uri, list);
      });
      send();
      return (await withTimeout(published, `${this.spec.name}: diagnostics of ${uri} v${version}\n${this.stderr}`)).diagnostics;
    }
    send();
    for (;;) {
      try {
        const report: DocumentDiagnosticReport = await withTimeout(
          this.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } }),
          `${this.spec.name}: pull diagnostics of ${uri}\n${this.stderr}`,
        );
        return report.kind === 'full' ? report.items : [];
      } catch (error) {
        // Cancelled because the document moved on: an editor asks again.
        if (error instanceof ResponseError && error.code === LSPErrorCodes.ServerCancelled) continue;
        throw error;
      }
    }
  }

  open(uri: string, format: Format, text: string): void {
    void this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: format, version: 1, text } });
  }

  change(uri: string, version: number, at: Position, length: number, text: string): void {
    const range = { start: at, end: { line: at.line, character: at.character + length } };
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
  }

  close(uri: string): void {
    void this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** utime + stime of the process (every thread, live or gone), in ms: clock-tick resolution. */
  cpuTicksMs(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5); the slice starts at field 3.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  }

  /** The run time of every live thread of the process, in ms at ns resolution (schedstat). */
  cpuPreciseMs(): number {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${this.pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${this.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that ended meanwhile
      }
    }
    return ns / 1e6;
  }

  /**
   * Resolves once the process has spent under 1 ms of CPU in 300 ms: its start-up work (our
   * warm-up, a peer's schema loading) is over.
   */
  async idle(): Promise<void> {
    const deadline = now() + TIMEOUT_MS;
    for (let before = this.cpuPreciseMs(); now() < deadline; ) {
      await sleep(300);
      const after = this.cpuPreciseMs();
      if (after - before < 1) return;
      before = after;
    }
    throw new Error(`${this.spec.name} still busy after ${TIMEOUT_MS} ms`);
  }

  rssMB(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    return (Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024) / 1e6;
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolvePromise) => (this.child.exitCode !== null ? resolvePromise() : this.child.once('exit', () => resolvePromise())));
    try {
      await withTimeout(this.connection.sendRequest(ShutdownRequest.type), `${this.spec.name}: shutdown`);
      await this.connection.sendNotification(ExitNotification.type);
      await Promise.race([exited, sleep(2000)]);
    } finally {
      if (this.child.exitCode === null) this.child.kill();
      this.connection.dispose();
    }
  }
}

// ---------------------------------------------------------------- positions in the files

function positionAt(text: string, offset: number): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}

const parsed = new Map<string, YAML.Document>();

/**
 * Where character `at` of rule `i`'s expression is in the file. The scalar as written may
 * differ from its value: JSON escapes quotes, and YAML folds a long plain scalar onto the
 * next line (a space of the value is a line break and indentation in the file).
 */
function offsetInExpression(family: Family, format: Format, i: number, at: number): number {
  const key = `${family}/${format}`;
  const document = parsed.get(key) ?? YAML.parseDocument(TEXTS[family][format]);
  parsed.set(key, document);
  const node = document.getIn(['rules', i, 'expression'], true);
  if (!YAML.isScalar(node) || !node.range) throw new Error(`rule ${i}'s expression not found in the ${format.toUpperCase()} file`);
  const source = TEXTS[family][format].slice(node.range[0], node.range[1]);
  const value = OBJECTS[family].rules[i].expression;
  let s = source.startsWith('"') || source.startsWith("'") ? 1 : 0;
  for (let v = 0; v < at; v++) {
    if (source[s] === '\\') s++;
    if (value[v] === ' ' && /\s/.test(source[s])) while (/\s/.test(source[s])) s++;
    else if (source[s] === value[v]) s++;
    else throw new Error(`rule ${i}'s expression is written in a way this benchmark cannot follow: ${source}`);
  }
  if (at < value.length && source[s] !== value[at]) throw new Error(`rule ${i}: character ${at} of the expression not found in ${source}`);
  return node.range[0] + s;
}

interface Edit {
  readonly at: Position;
  readonly text: string;
}

/**
 * One edit of a number in an expression, a different rule each time: the last digit of the
 * expression's last number goes down by one (up from 0), which keeps every value in range.
 */
function edits(family: Family, format: Format): Edit[] {
  return Array.from({ length: EDITS }, (_, k) => {
    let rule = (k * 37 + 11) % RULES;
    // A few HTTP expressions have no number: the next rule's.
    while (!/\d/.test(OBJECTS[family].rules[rule].expression)) rule = (rule + 1) % RULES;
    const source = OBJECTS[family].rules[rule].expression;
    const digit = source.search(/\d(?=\D*$)/);
    const old = Number(source[digit]);
    return { at: positionAt(TEXTS[family][format], offsetInExpression(family, format, rule, digit)), text: String(old === 0 ? 1 : old - 1) };
  });
}

/** Where completion and hover are asked: in our server, inside an expression; in a peer, on the rule's `expression` key. */
function requestPositions(family: Family, format: Format, server: ServerSpec): { completion: Position; hover: Position }[] {
  const text = TEXTS[family][format];
  return Array.from({ length: REQUESTS }, (_, k) => {
    const rule = (k * 53 + 7) % RULES;
    const source = OBJECTS[family].rules[rule].expression;
    if (server === OURS) {
      // After the first field's dot (field completion); on the first name (a field's or a function's description).
      const dot = source.indexOf('.');
      return { completion: positionAt(text, offsetInExpression(family, format, rule, dot + 1)), hover: positionAt(text, offsetInExpression(family, format, rule, 2)) };
    }
    const key = text.lastIndexOf('expression', offsetInExpression(family, format, rule, 0));
    return { completion: positionAt(text, key + 2), hover: positionAt(text, key + 2) };
  });
}

// ---------------------------------------------------------------- measurements

interface RunResult {
  openWallMs: number;
  openCpuMs: number;
  openDiagnostics: string[];
  rssMB: number;
  editWall: number[];
  editCpu: number[];
  completion: number[];
  hover: number[];
}

function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Fresh server `index` of RUNS on the large file: open at start, its share of the edits, completion and hover, RSS. */
async function run(spec: ServerSpec, family: Family, format: Format, index: number): Promise<RunResult> {
  const share = <T>(all: T[]) => all.filter((_, k) => k % RUNS === index);
  const uri = URIS[family][format];
  const started = now();
  const server = await Server.start(spec);
  // The editor opens the file that started the server at once.
  const first = await server.diagnosticsAfter(uri, 1, () => server.open(uri, format, TEXTS[family][format]));
  const openWallMs = now() - started;
  const openCpuMs = server.cpuTicksMs();
  // Let start-up work finish (our warm-up; a peer's second validation after its settings).
  await sleep(500);
  const rssMB = server.rssMB();

  const editWall: number[] = [];
  const editCpu: number[] = [];
  let version = 1;
  for (const edit of share(edits(family, format))) {
    version++;
    const cpu = server.cpuPreciseMs();
    const start = now();
    await server.diagnosticsAfter(uri, version, () => server.change(uri, version, edit.at, 1, edit.text));
    editWall.push(now() - start);
    editCpu.push(server.cpuPreciseMs() - cpu);
  }

  const completion: number[] = [];
  const hover: number[] = [];
  for (const at of share(requestPositions(family, format, spec))) {
    let start = now();
    await server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: at.completion });
    completion.push(now() - start);
    start = now();
    await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: at.hover });
    hover.push(now() - start);
  }
  await server.stop();
  return { openWallMs, openCpuMs, openDiagnostics: first.map((d) => String(d.code ?? d.message)), rssMB, editWall, editCpu, completion, hover };
}

/**
 * A fresh server, started and idle, opens the file: the server's CPU from didOpen to its first
 * diagnostics (schedstat, ns resolution) and the wall time, neither counting the start.
 */
async function openWhenIdle(spec: ServerSpec, family: Family, format: Format): Promise<{ cpuMs: number; wallMs: number }> {
  const uri = URIS[family][format];
  const server = await Server.start(spec);
  await server.idle();
  const cpu = server.cpuPreciseMs();
  const start = now();
  await server.diagnosticsAfter(uri, 1, () => server.open(uri, format, TEXTS[family][format]));
  const result = { cpuMs: server.cpuPreciseMs() - cpu, wallMs: now() - start };
  await server.stop();
  return result;
}

/** A fresh server is handed a file with one planted schema error first: its first diagnostics must name it. */
async function verify(spec: ServerSpec, format: Format): Promise<string> {
  const broken = { ...rulesetObject(3) };
  broken.rules = broken.rules.map((rule, i) => (i === 1 ? { ...rule, action: 5 as unknown as string } : rule));
  const text = format === 'json' ? JSON.stringify(broken, null, 2) : YAML.stringify(broken);
  const path = join(workDir, `check.ruleset.${format}`);
  writeFileSync(path, text);
  const uri = pathToFileURL(path).href;
  const server = await Server.start(spec);
  const diagnostics = await server.diagnosticsAfter(uri, 1, () => server.open(uri, format, text));
  await server.stop();
  const line = text.split('\n').findIndex((l) => /action"?: 5/.test(l));
  const planted = diagnostics.find((d) => d.range.start.line === line);
  if (!planted) {
    const got = diagnostics.map((d) => `line ${d.range.start.line + 1}: ${d.message}`).join('; ') || 'nothing';
    throw new Error(`${spec.name} did not report the planted schema error (\`action: 5\`, line ${line + 1}) in ${format.toUpperCase()}; it reported ${got}. Without it the comparison is meaningless.`);
  }
  return `${spec.name} (${format.toUpperCase()}): first diagnostics name the planted \`action: 5\` on line ${line + 1}: "${planted.message.split('\n')[0]}"`;
}

/** A small ruleset, different for every document. */
function smallRuleset(document: number): string {
  return YAML.stringify({
    name: `document ${document}`,
    kind: 'root',
    phase: 'magic_transit',
    rules: Array.from({ length: 5 }, (_, j) => ({ action: 'block', expression: expression(document * 5 + j), description: `rule ${j}` })),
  });
}

/** RSS at every 1,000 of 6,000 different small YAML documents, each opened, diagnosed and closed. */
async function memory(spec: ServerSpec): Promise<number[]> {
  const server = await Server.start(spec);
  await sleep(500);
  const series = [server.rssMB()];
  for (let first = 0; first < DOCUMENTS; first += BATCH) {
    const uris = Array.from({ length: BATCH }, (_, k) => pathToFileURL(join(workDir, 'memory', `doc-${first + k}.ruleset.yaml`)).href);
    await Promise.all(uris.map((uri, k) => server.diagnosticsAfter(uri, 1, () => server.open(uri, 'yaml', smallRuleset(first + k)))));
    for (const uri of uris) server.close(uri);
    if ((first + BATCH) % CHECKPOINT === 0) {
      await sleep(100);
      series.push(server.rssMB());
    }
  }
  await server.stop();
  return series;
}

// ---------------------------------------------------------------- the report

const resultKey = (spec: ServerSpec, family: Family, format: Format) => `${spec.name}/${family}/${format}`;
const ms = (v: number) => `${v.toFixed(1)} ms`;
const mb = (v: number) => `${v.toFixed(0)} MB`;
const ratio = (ours: number, peer: number) => `${(ours / peer).toFixed(2)}×`;

async function main(): Promise<void> {
  const began = now();
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });

  if (repoSchemaIsEmpty) {
    console.log('schemas/ruleset.schema.json constrains nothing (it is deliberately empty): the peers get a shape schema written from our catalogue instead.');
  }
  for (const [spec, format] of [
    [YAML_LS, 'yaml'],
    [JSON_LS, 'json'],
    [OURS, 'yaml'],
    [OURS, 'json'],
  ] as const) {
    if (ONLY_OPEN && format === 'yaml') continue;
    console.log(`schema check: ${await verify(spec, format)}`);
  }

  const cases = (ONLY_OPEN ? [] : (['magic', 'http'] as const)).flatMap((family) =>
    [
      [OURS, 'yaml'],
      [YAML_LS, 'yaml'],
      [OURS, 'json'],
      [JSON_LS, 'json'],
    ].map(([spec, format]) => [spec, family, format] as const as readonly [ServerSpec, Family, Format]),
  );
  const idleCases = (['magic', 'http'] as const).flatMap((family) => [OURS, JSON_LS].map((spec) => [spec, family] as const));
  const results = new Map<string, RunResult[]>();
  const idleResults = new Map<string, { cpuMs: number; wallMs: number }[]>();
  // Interleaved, so that a slower stretch of the machine falls on every server alike.
  for (let i = 0; i < RUNS; i++) {
    for (const [spec, family, format] of cases) {
      const key = resultKey(spec, family, format);
      const start = now();
      results.set(key, [...(results.get(key) ?? []), await run(spec, family, format, i)]);
      process.stderr.write(`${key} ${((now() - start) / 1000).toFixed(1)} s; `);
    }
    for (const [spec, family] of idleCases) {
      const key = resultKey(spec, family, 'json');
      idleResults.set(key, [...(idleResults.get(key) ?? []), await openWhenIdle(spec, family, 'json')]);
      process.stderr.write(`${key} open when idle; `);
    }
  }
  /** A memory run, timed on stderr (none when only the open rows are asked for). */
  const timedMemory = async (spec: ServerSpec) => {
    if (ONLY_OPEN) return [];
    const start = now();
    const series = await memory(spec);
    process.stderr.write(`memory ${spec.name} ${((now() - start) / 1000).toFixed(1)} s; `);
    return series;
  };
  const ourMemory = await timedMemory(OURS);
  const peerMemory = await timedMemory(YAML_LS);
  process.stderr.write('\n');

  const rows: string[][] = [];
  for (const family of ['magic', 'http'] as const) {
    const get = (spec: ServerSpec, format: Format) => results.get(resultKey(spec, family, format))!;
    /** The median over the fresh servers of a per-server figure. */
    const med = (spec: ServerSpec, format: Format, of: (r: RunResult) => number) => median(get(spec, format).map(of));
    /** A percentile over the samples of every fresh server together. */
    const pooled = (spec: ServerSpec, format: Format, q: number, pick: (r: RunResult) => number[]) => percentile(get(spec, format).flatMap(pick), q);

    for (const [format, peer, factor] of ONLY_OPEN
      ? []
      : ([
          ['yaml', YAML_LS, 0.5],
          ['json', JSON_LS, 1],
        ] as const)) {
      const F = `${family === 'http' ? 'HTTP ' : ''}${format.toUpperCase()}`;
      const delay = peer.fixedDelayMs;
      const delayNote = delay > 0 ? ` (incl. its ${delay} ms debounce)` : '';
      const openCpu = [med(OURS, format, (r) => r.openCpuMs), med(peer, format, (r) => r.openCpuMs)];
      rows.push([
        `${F}: open → first diagnostics, start included, server CPU`,
        ms(openCpu[0]),
        `${ms(openCpu[1])} (${peer.name})`,
        ratio(openCpu[0], openCpu[1]),
        `≤ ${factor}× ${mark(openCpu[0] <= factor * openCpu[1])}`,
      ]);
      const openWall = [med(OURS, format, (r) => r.openWallMs), med(peer, format, (r) => r.openWallMs)];
      rows.push([`${F}: open → first diagnostics, start included, wall`, ms(openWall[0]), `${ms(openWall[1])}${delayNote}`, ratio(openWall[0], openWall[1]), 'context']);
      if (delay > 0) rows.push([`${F}: … wall without the peer's debounce`, ms(openWall[0]), ms(openWall[1] - delay), ratio(openWall[0], openWall[1] - delay), 'context']);

      const both = (spec: ServerSpec, pick: (r: RunResult) => number[], minus = 0) => `${ms(pooled(spec, format, 0.5, pick) - minus)} / ${ms(pooled(spec, format, 0.95, pick) - minus)}`;
      const cpuOf = (r: RunResult) => r.editCpu;
      const wallOf = (r: RunResult) => r.editWall;
      const editCpu = [pooled(OURS, format, 0.95, cpuOf), pooled(peer, format, 0.95, cpuOf)];
      rows.push([`${F}: edit → diagnostics p50 / p95, server CPU`, both(OURS, cpuOf), both(peer, cpuOf), ratio(editCpu[0], editCpu[1]), `≤ ${factor}× ${mark(editCpu[0] <= factor * editCpu[1])}`]);
      const editWall = [pooled(OURS, format, 0.95, wallOf), pooled(peer, format, 0.95, wallOf)];
      rows.push([`${F}: edit → diagnostics p50 / p95, wall`, both(OURS, wallOf), `${both(peer, wallOf)}${delayNote}`, ratio(editWall[0], editWall[1]), 'context']);
      if (delay > 0) rows.push([`${F}: … wall without the peer's debounce`, both(OURS, wallOf), both(peer, wallOf, delay), ratio(editWall[0], editWall[1] - delay), 'context']);

      for (const [what, pick] of [
        ['completion', (r: RunResult) => r.completion],
        ['hover', (r: RunResult) => r.hover],
      ] as const) {
        const ours = pooled(OURS, format, 0.95, pick);
        const theirs = pooled(peer, format, 0.95, pick);
        rows.push([`${F}: ${what} p95 (peer: on a rule's key)`, ms(ours), ms(theirs), '', `≤ 10 ms ${mark(ours <= 10)}`]);
      }
      const rss = [med(OURS, format, (r) => r.rssMB), med(peer, format, (r) => r.rssMB)];
      rows.push([`${F}: RSS with the file open and diagnosed`, mb(rss[0]), mb(rss[1]), ratio(rss[0], rss[1]), format === 'yaml' ? `≤ 1.5× ${mark(rss[0] <= 1.5 * rss[1])}` : 'context']);
    }

    const F = `${family === 'http' ? 'HTTP ' : ''}JSON`;
    const idle = (spec: ServerSpec, of: (r: { cpuMs: number; wallMs: number }) => number) => median(idleResults.get(resultKey(spec, family, 'json'))!.map(of));
    const openCpu = [idle(OURS, (r) => r.cpuMs), idle(JSON_LS, (r) => r.cpuMs)];
    rows.push([`${F}: open → first diagnostics, without start, server CPU`, ms(openCpu[0]), `${ms(openCpu[1])} (${JSON_LS.name})`, ratio(openCpu[0], openCpu[1]), `≤ 1× ${mark(openCpu[0] <= openCpu[1])}`]);
    const openWall = [idle(OURS, (r) => r.wallMs), idle(JSON_LS, (r) => r.wallMs)];
    rows.push([`${F}: open → first diagnostics, without start, wall`, ms(openWall[0]), ms(openWall[1]), ratio(openWall[0], openWall[1]), 'context']);
  }
  if (!ONLY_OPEN) {
    const series = (s: readonly number[]) => s.map((v) => v.toFixed(0)).join(' → ');
    const ourMax = Math.max(...ourMemory);
    rows.push([
      `RSS over ${DOCUMENTS.toLocaleString('en-US')} YAML documents (MB at every ${CHECKPOINT.toLocaleString('en-US')})`,
      series(ourMemory),
      series(peerMemory),
      ratio(ourMemory.at(-1)!, peerMemory.at(-1)!),
      `≤ 300 MB ${mark(ourMax <= 300)}`,
    ]);
  }

  console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}; ${RUNS} fresh servers each, medians; CLK_TCK ${CLK_TCK}`);
  for (const [spec, family, format] of cases) {
    const codes = results.get(resultKey(spec, family, format))![0].openDiagnostics;
    const counted = [...new Set(codes)].map((code) => `${codes.filter((c) => c === code).length}× ${code}`).join(', ');
    console.log(
      `${spec.name} on ${family === 'http' ? 'HTTP ' : ''}${format.toUpperCase()}: ${spec.mode} diagnostics; ${codes.length} diagnostics on the 1,000-rule file${counted ? ` (${counted})` : ''}`,
    );
  }
  printTable(['figure', 'ours', 'peer (same run)', 'ratio', 'target'], rows);
  console.log(`(${((now() - began) / 1000).toFixed(0)} s)`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    live.forEach((child) => child.kill());
    rmSync(workDir, { recursive: true, force: true });
  });
