/**
 * Node's side of the reference-engine oracle (oracle.py): starts one long-lived `python3`
 * process and sends it batches of expressions as JSON lines. The one bridge to the engine: the
 * tests ask it, and so does the catalogue generator (scripts/catalogue/engine.ts).
 *
 * `startOracle()` resolves to `undefined` (with the reason) when the engine is not installed,
 * so that a test can skip; `requireOracleUnlessCi` turns that into a failure on CI.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const ORACLE_PACKAGE = 'octorules-wirefilter';
/** The version .ci/run installs; another one still runs, with a note. */
export const ORACLE_VERSION = '0.7.0';
/**
 * The engine's field sets: `magic_firewall` for the magic_transit phases, `http` for ddos_l7 and
 * the `http_*` phases (the bindings' default scheme, which has no name of its own; oracle.py
 * sends it as none).
 */
export type EngineScheme = 'magic_firewall' | 'http';
/** The engine's name for the field set of the magic_transit phases. */
export const ORACLE_SCHEME: EngineScheme = 'magic_firewall';
/** The field set of the HTTP phases. */
export const HTTP_SCHEME: EngineScheme = 'http';

export type OracleResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** What follows the caret line, e.g. `unknown identifier`. */
      readonly message: string;
      /** The engine's whole error text. */
      readonly error?: string;
      readonly line?: number;
      readonly col?: number;
      /** UTF-16 offsets into the expression, when the error text could be read back. */
      readonly start?: number;
      readonly end?: number;
      /** The bindings threw instead of answering. */
      readonly exception?: boolean;
    };

export interface SchemaInfo {
  readonly fields: readonly { readonly name: string; readonly type: string }[];
  readonly functions: readonly string[];
}

interface Response {
  readonly id: number;
  readonly results?: OracleResult[];
  readonly schema?: SchemaInfo;
  readonly seconds?: number;
  readonly error?: string;
}

const BATCH = 2000;

export class Oracle {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: Response) => void; reject: (e: Error) => void }>();
  private closed = false;
  /** Seconds the engine itself spent on the expressions checked so far (without the pipe). */
  engineSeconds = 0;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    lines: AsyncIterableIterator<string>,
    readonly version: string,
  ) {
    void (async () => {
      for await (const line of lines) {
        const response = JSON.parse(line) as Response;
        const waiting = this.pending.get(response.id);
        this.pending.delete(response.id);
        waiting?.resolve(response);
      }
      this.failAll(new Error('the oracle process ended'));
    })().catch((error: unknown) => this.failAll(error instanceof Error ? error : new Error(String(error))));
  }

  private failAll(error: Error): void {
    this.closed = true;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  private request(body: object): Promise<Response> {
    if (this.closed) return Promise.reject(new Error('the oracle process has ended'));
    const id = this.nextId++;
    return new Promise<Response>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, ...body })}\n`);
    }).then((response) => {
      if (response.error) throw new Error(`oracle: ${response.error}`);
      return response;
    });
  }

  /** The engine's verdict on each expression, in order. */
  async check(exprs: readonly string[], scheme: EngineScheme = ORACLE_SCHEME): Promise<OracleResult[]> {
    const batches: Promise<Response>[] = [];
    for (let i = 0; i < exprs.length; i += BATCH) batches.push(this.request({ scheme, exprs: exprs.slice(i, i + BATCH) }));
    const responses = await Promise.all(batches);
    for (const response of responses) this.engineSeconds += response.seconds ?? 0;
    return responses.flatMap((response) => response.results!);
  }

  async schema(scheme: EngineScheme = ORACLE_SCHEME): Promise<SchemaInfo> {
    return (await this.request({ schema: scheme })).schema!;
  }

  close(): void {
    this.closed = true;
    this.child.stdin.end();
  }
}

export type Started = { readonly oracle: Oracle } | { readonly oracle?: undefined; readonly missing: string };

/** Starts oracle.py with `python3` (or `$ORACLE_PYTHON`). */
export async function startOracle(): Promise<Started> {
  const python = process.env.ORACLE_PYTHON ?? 'python3';
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(python, [join(__dirname, 'oracle.py')], { stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    return { missing: `cannot start ${python}: ${String(error)}` };
  }
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const spawnError = new Promise<string>((resolve) => child.once('error', (error) => resolve(`cannot start ${python}: ${error.message}`)));
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const first = await Promise.race([lines.next().then((r) => (r.done ? `${python} ended: ${stderr.trim()}` : r.value)), spawnError]);
  let hello: { ready?: boolean; version?: string; error?: string };
  try {
    hello = JSON.parse(first) as typeof hello;
  } catch {
    child.kill();
    return { missing: first };
  }
  if (!hello.ready) {
    child.kill();
    return { missing: `${ORACLE_PACKAGE} is not installed for ${python} (${hello.error ?? 'unknown error'})` };
  }
  // Do not keep the test process alive for the child; close() ends it.
  child.unref();
  return { oracle: new Oracle(child, lines, hello.version ?? '?') };
}

let saidMissing = false;

/**
 * What a test does without the oracle: skip with one line, except on CI (`CI=true`, or
 * `ORACLE_REQUIRED=1` as .ci/run sets after installing it), where its absence is a failure.
 */
export function missingOracle(missing: string, skip: (message: string) => void): void {
  const message = `reference-engine oracle not available: ${missing}; install it with \`python3 -m pip install ${ORACLE_PACKAGE}==${ORACLE_VERSION}\``;
  if (process.env.CI === 'true' || process.env.ORACLE_REQUIRED === '1') throw new Error(`${message} (required when CI=true or ORACLE_REQUIRED=1)`);
  if (!saidMissing) console.log(`${message} — skipped`);
  saidMissing = true;
  skip(message);
}
