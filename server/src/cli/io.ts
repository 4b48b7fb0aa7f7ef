/**
 * What the API commands need of the terminal and the file system: output, a y/N question
 * when a person is there to answer it, and files read and written whole (a write goes to a
 * temporary file beside the target and is renamed over it, so no reader ever sees half).
 */
import { readFileSync } from 'node:fs';
import { badBytesMessage, decodeFileBytes } from '../core';
import { UsageError } from './check';
import { replaceFile } from './files';
import { terminalSafe } from './visible';

export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** A status line on stderr that the tool draws itself (progress): its own control characters written as they are. */
  readonly status?: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** A person can answer questions: stdin and stderr are terminals. */
  readonly interactive: boolean;
  /** stderr is a terminal: a person is watching, so say what a wait is for. */
  readonly watched?: boolean;
  /** stdout is a terminal (the report may be coloured). */
  readonly outIsTerminal?: boolean;
  /** Asks on stderr, answers from stdin (only when `interactive`). */
  readonly ask: (question: string) => Promise<string>;
}

export function processIo(): Io {
  return {
    // On a terminal no control character of a file is written raw (a diff, a test's case); a
    // pipe gets the bytes as they are (`pull > file` is data).
    out: (text) => process.stdout.write(process.stdout.isTTY ? terminalSafe(text) : text),
    err: (text) => process.stderr.write(process.stderr.isTTY ? terminalSafe(text) : text),
    status: (text) => process.stderr.write(text),
    env: process.env,
    // Asked only by commands that talk to the API: process.stdin is made on first use, and
    // making it cost a check 5 ms.
    get interactive() {
      return process.stdin.isTTY === true && process.stderr.isTTY === true;
    },
    get watched() {
      return process.stderr.isTTY === true;
    },
    outIsTerminal: process.stdout.isTTY === true,
    ask: (question) => {
      // Loaded when a question is asked: no check needs it. (Not import(): the bundle runs in
      // a vm.Script, which has no loader for it.)
      const { createInterface } = require('node:readline') as typeof import('node:readline');
      return new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        let answered = false;
        rl.question(question, (answer) => {
          answered = true;
          rl.close();
          resolve(answer);
        });
        // Ctrl+D or Ctrl+C: no answer, which is "no".
        rl.on('close', () => {
          if (!answered) {
            process.stderr.write('\n');
            resolve('');
          }
        });
      });
    },
  };
}

/** A user's file as text (a byte order mark kept apart, so that a rewrite can put it back). */
export interface TextFile {
  readonly path: string;
  readonly text: string;
  readonly bom: boolean;
}

/** A user's file as text; one that is not UTF-8 text (or is binary) is refused, naming the first such byte: nothing is sent of it. */
export function readTextFile(path: string): TextFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`${path}: no such file`);
    if (code === 'EISDIR') throw new UsageError(`${path}: is a folder; name a ruleset file`);
    throw new UsageError(`${path}: cannot read the file (${code ?? 'error'})`);
  }
  const decoded = decodeFileBytes(bytes);
  if (decoded.bad) throw new UsageError(badBytesMessage(path, decoded.bad));
  return { path, text: decoded.text, bom: decoded.bom };
}

/** The file's text now, or undefined when there is none. */
export function currentText(path: string): string | undefined {
  try {
    return readTextFile(path).text;
  } catch {
    return undefined;
  }
}

/** Writes `text` to `path` through a temporary file and a rename (replaceFile); the file keeps its mode. */
export function writeFileAtomic(path: string, text: string, bom = false): void {
  try {
    replaceFile(path, bom ? `\uFEFF${text}` : text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${path}: cannot write the file (${code ?? (error as Error).message})`);
  }
}
