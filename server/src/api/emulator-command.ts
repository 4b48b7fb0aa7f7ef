/**
 * `rulesets emulator [--port N] [--data FILE] [--fault N[:drop][:after]]`: runs the local Rulesets API emulator until
 * SIGINT, SIGTERM or SIGHUP, or until the process that started it ends, after printing its base URL, the credentials it accepts and the
 * environment variables that point the tools at it.
 */
import { parseArgs } from 'node:util';
import { ADMIN_PREFIX, EMULATOR_ACCOUNT_ID, EMULATOR_EMAIL, EMULATOR_KEY, EMULATOR_TOKEN, startEmulator, type Emulator, type RequestFault } from './emulator';

export const EMULATOR_USAGE = `Usage: rulesets emulator [--port N] [--data FILE] [--fault N[:drop][:after]]

Runs a local emulator of the Rulesets API on 127.0.0.1, for trying the commands
without an account. It stops on Ctrl+C.

Options:
  --port N      the port to listen on (default 8787; 0 picks a free one)
  --data FILE   keep the rulesets in FILE (JSON) between runs; in memory otherwise;
                its "zones" ([{"name": "example.com"}, …]) are the zones known by name
  --fault N     the N-th request answers 500 (:drop closes the connection instead;
                :after stores its change first); POST ${ADMIN_PREFIX}/faults arms one later
  -h, --help    show this help`;

/** What `rulesets emulator` takes; each is in EMULATOR_USAGE (test/cli/help.test.ts). */
export const EMULATOR_OPTIONS = { port: { type: 'string' }, data: { type: 'string' }, fault: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** `--fault N[:drop][:after]` (or `:500`, another status) as a RequestFault. */
export function parseFaultOption(text: string): RequestFault {
  const [count, ...parts] = text.split(':');
  if (!/^[1-9]\d*$/.test(count)) throw new Error(`--fault expects the number of the request to fail (from 1), then :drop, :after or a status, e.g. --fault 3:drop:after; found "${text}"`);
  let respond: number | 'drop' | undefined;
  let after = false;
  for (const part of parts) {
    if (part === 'drop') respond = 'drop';
    else if (part === 'after') after = true;
    else if (/^[45]\d\d$/.test(part)) respond = Number(part);
    else throw new Error(`--fault: unknown "${part}" in "${text}"; after the number come :drop, :after or a status (400 to 599)`);
  }
  return { failRequest: Number(count), ...(respond !== undefined ? { respond } : {}), ...(after ? { after } : {}) };
}

export const DEFAULT_EMULATOR_PORT = 8787;

type Signal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** Why it stopped: a signal, or its parent process ended. */
type Stop = Signal | 'parent ended';

export interface EmulatorCommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Where SIGINT and SIGTERM come from: `process` unless a test passes its own emitter. */
  readonly signals?: {
    once(event: Signal, listener: () => void): unknown;
    off(event: Signal, listener: () => void): unknown;
  };
  /**
   * Calls back once the process that started this one has ended (by default: this process's
   * parent changes, as an orphan is adopted by init); returns how to stop watching.
   */
  readonly parentEnded?: (listener: () => void) => () => void;
  /** Called once the emulator listens. */
  readonly onListening?: (emulator: Emulator) => void;
}

const processIo: EmulatorCommandIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** How often an emulator looks whether its parent has ended. */
const PARENT_POLL_MS = 500;

/**
 * Watches this process's parent: it ended when this process has another parent (an orphan is
 * adopted by init or a subreaper), or when the IPC channel to it closed. `npx rulesets
 * emulator` runs the CLI under `sh -c`, and npm passes a SIGTERM to that shell only: the shell
 * dies of it, and without this the emulator went on listening, an orphan. Standard input is
 * not watched: an emulator started in the background (`&`, stdin /dev/null) must run on.
 */
function watchParentProcess(listener: () => void): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) listener();
  }, PARENT_POLL_MS);
  timer.unref();
  process.once('disconnect', listener);
  return () => {
    clearInterval(timer);
    process.off('disconnect', listener);
  };
}

/** Resolves with the first of SIGINT, SIGTERM, SIGHUP (a closed terminal) or the parent's end. */
function stopSignal(io: EmulatorCommandIo): Promise<Stop> {
  const signals = io.signals ?? process;
  const parentEnded = io.parentEnded ?? (io.signals ? undefined : watchParentProcess);
  return new Promise<Stop>((resolve) => {
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    const onHup = () => done('SIGHUP');
    const unwatch = parentEnded?.(() => done('parent ended'));
    function done(why: Stop): void {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
      signals.off('SIGHUP', onHup);
      unwatch?.();
      resolve(why);
    }
    signals.once('SIGINT', onInt);
    signals.once('SIGTERM', onTerm);
    signals.once('SIGHUP', onHup);
  });
}

/** Runs until a signal stops it; resolves with the exit status (2 for a usage or file problem). */
export async function runEmulatorCommand(args: readonly string[], io: EmulatorCommandIo = processIo): Promise<number> {
  let port: number;
  let dataFile: string | undefined;
  let fault: RequestFault | undefined;
  try {
    const { values } = parseArgs({
      args: [...args],
      options: EMULATOR_OPTIONS,
    });
    if (values.help) {
      io.out(`${EMULATOR_USAGE}\n`);
      return 0;
    }
    port = values.port === undefined ? DEFAULT_EMULATOR_PORT : Number(values.port);
    if (!/^\d+$/.test(values.port ?? '0') || !Number.isInteger(port) || port > 65535) throw new Error(`--port expects a number from 0 to 65535, found "${values.port}"`);
    dataFile = values.data;
    fault = values.fault === undefined ? undefined : parseFaultOption(values.fault);
  } catch (error) {
    // One line: node's parseArgs explains some mistakes over three.
    io.err(`rulesets: ${(error as Error).message.split('\n')[0]}\n`);
    return 2;
  }

  let emulator: Emulator;
  try {
    emulator = await startEmulator({ port, host: '127.0.0.1', dataFile, ...(fault ? { faults: fault } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'EADDRINUSE'
        ? `port ${port} is already in use; pick another with --port N (--port 0 picks a free one)`
        : code === 'EACCES'
          ? `not allowed to listen on port ${port}; pick one above 1023 with --port N`
          : (error as Error).message;
    io.err(`rulesets: ${message}\n`);
    return 2;
  }

  // Listening for the signals before the banner says how to stop it: a signal that came
  // between the two (a script that waits for the banner, then stops it) would otherwise meet
  // Node's default and kill the process, the --data file unsaved.
  const stopped = stopSignal(io);
  io.out(
    [
      `Rulesets API emulator listening on ${emulator.baseUrl}`,
      dataFile ? `Rulesets are kept in ${dataFile}.` : 'Rulesets are kept in memory and lost when it stops (--data FILE keeps them).',
      `It accepts the API token ${EMULATOR_TOKEN}, or the email ${EMULATOR_EMAIL} with the API key ${EMULATOR_KEY}, and any account or zone id.`,
      ...(emulator.state.zones().length > 0 ? [`Zones by name: ${emulator.state.zones().length} (GET /zones?name=).`] : []),
      ...(fault ? [`Request ${fault.failRequest} will fail (${fault.respond === 'drop' ? 'connection dropped' : (fault.respond ?? 500)}${fault.after ? ', after its change is stored' : ''}).`] : []),
      'Point the tools at it with:',
      `  export RULESETS_BASE_URL=${emulator.baseUrl}`,
      `  export RULESETS_API_TOKEN=${EMULATOR_TOKEN}`,
      `  export RULESETS_ACCOUNT_ID=${EMULATOR_ACCOUNT_ID}`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  io.onListening?.(emulator);
  const signal = await stopped;
  await emulator.close();
  io.out(`Emulator stopped (${signal}).\n`);
  return 0;
}
