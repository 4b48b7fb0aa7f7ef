import { plainText, PROBLEM_CODES } from '../core';
import type { FileResult } from './check';
import { version } from '../version';
import { hasControls, visibleText } from './visible';

export type ReportFormat = 'text' | 'json' | 'sarif';

/** `path:line:col: severity code message`, the source line, and carets under the span. */
export function textReport(results: readonly FileResult[], options: TextReportOptions = {}): string {
  const chunks: string[] = [];
  writeTextReport(results, (chunk) => chunks.push(chunk), options);
  return chunks.join('');
}

export interface TextReportOptions {
  /** ANSI colours, for a terminal: the severity in red or yellow, the carets in the same colour. */
  readonly colour?: boolean;
  /** The last line's start, before its counts: by default how many files were checked (`3 files checked`). */
  readonly checked?: string;
}

const ANSI = { error: '\u001b[31m', warning: '\u001b[33m', bold: '\u001b[1m', reset: '\u001b[0m' } as const;

/**
 * Whether a report to this stream is coloured: on a terminal, unless NO_COLOR is set
 * (no-color.org) or the terminal says it is dumb; FORCE_COLOR colours any stream.
 */
export function wantsColour(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return isTTY === true && env.TERM !== 'dumb';
}

/** The characters of report written out at a time by writeTextReport. */
const CHUNK_LENGTH = 64 * 1024;

/**
 * textReport, written out in chunks of some 64 kB as it is made: a report of tens of thousands
 * of findings is never one string (with the lines it is joined from) in memory.
 */
export function writeTextReport(results: readonly FileResult[], write: (chunk: string) => void, options: TextReportOptions = {}): void {
  let pending: string[] = [];
  let length = 0;
  const line = (text: string) => {
    pending.push(text);
    length += text.length + 1;
    if (length < CHUNK_LENGTH) return;
    write(pending.join('\n') + '\n');
    pending = [];
    length = 0;
  };
  let errors = 0;
  let warnings = 0;
  for (const file of results) {
    // Split on first use: most files of a run have no findings.
    let lines: string[] | undefined;
    for (const d of file.diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      for (const text of findingLines(file.path, d, (lines ??= splitLines(file.text)), options)) line(text);
    }
  }
  const checked = options.checked ?? `${results.length} file${results.length === 1 ? '' : 's'} checked`;
  line(errors + warnings === 0 ? `${checked}, no problems` : `${checked}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  if (pending.length > 0) write(pending.join('\n') + '\n');
}

/** One finding as the report prints it: `path:line:col: severity code message`, the source line, and the carets. */
export function findingLines(path: string, d: FileResult['diagnostics'][number], lines: readonly string[], options: TextReportOptions = {}): string[] {
  const paint = (colour: string, text: string) => (options.colour ? `${colour}${text}${ANSI.reset}` : text);
  const { start } = d.range;
  const colour = d.severity === 'error' ? ANSI.error : ANSI.warning;
  const [source, carets] = excerpt(lines, d.range);
  // A message may quote the file's characters: a control character among them is escaped too.
  return [`${paint(ANSI.bold, `${path}:${start.line + 1}:${start.character + 1}:`)} ${paint(colour, d.severity)} ${d.code} ${visibleText(d.message)}`, source, paint(colour, carets)];
}

/**
 * The source line a range starts on and a caret line under the range (to the line's end when
 * it runs on), both indented by two spaces. `lines` split as LSP counts lines.
 */
/** The most of a source line a report quotes; a longer line is shown as a window around the span. */
export const EXCERPT_WIDTH = 160;
/** Characters of context kept before the span in a window. */
const CONTEXT_BEFORE = 40;

/**
 * The source line of a range and a caret line under it. A line longer than `EXCERPT_WIDTH` (a
 * ruleset saved as one line of JSON) is quoted as a window around the span, cut with `…`, as
 * compilers do: a report grows with its findings, not with the length of the lines.
 */
export function excerpt(lines: readonly string[], range: { readonly start: { line: number; character: number }; readonly end: { line: number; character: number } }): string[] {
  const { start, end } = range;
  const line = lines[start.line] ?? '';
  const caretEnd = end.line === start.line ? Math.max(end.character, start.character + 1) : Math.max(line.length, start.character + 1);
  let from = 0;
  let to = line.length;
  if (line.length > EXCERPT_WIDTH) {
    from = Math.max(0, Math.min(start.character - CONTEXT_BEFORE, line.length - EXCERPT_WIDTH));
    to = Math.min(line.length, from + EXCERPT_WIDTH);
  }
  const before = from > 0 ? '…' : '';
  const after = to < line.length ? '…' : '';
  const shown = line.slice(from, to);
  if (hasControls(shown)) {
    // A control character of the file is printed as its escape, never raw: the carets go under the escapes.
    const lead = (before ? ' ' : '') + visibleText(line.slice(from, Math.max(from, start.character))).replace(/[^\t]/g, ' ');
    const carets = Math.max(1, visibleText(line.slice(start.character, Math.min(caretEnd, to))).length);
    return [`  ${before}${visibleText(shown)}${after}`, `  ${lead}${'^'.repeat(carets)}`];
  }
  // Keep TABs in the lead so the carets line up under the same characters.
  const lead = (before ? ' ' : '') + blanked(line, from, start.character);
  const carets = Math.max(1, Math.min(caretEnd, to) - start.character);
  return [`  ${before}${shown}${after}`, `  ${lead}${'^'.repeat(carets)}`];
}

/** `line` from `from` to `to` with every character but a TAB made a space. */
function blanked(line: string, from: number, to: number): string {
  const tab = line.indexOf('\t', from);
  // Most lines have no TAB before the span: spaces alone, without a pattern run over the text.
  if (tab === -1 || tab >= to) return ' '.repeat(Math.max(0, Math.min(to, line.length) - from));
  return line.slice(from, to).replace(/[^\t]/g, ' ');
}

/** The lines of a text as LSP positions count them, a lone CR included. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export function jsonReport(results: readonly FileResult[]): string {
  return JSON.stringify({ files: results.map((f) => ({ path: f.path, diagnostics: f.diagnostics })) }, null, 2) + '\n';
}

const SARIF_LEVEL = { error: 'error', warning: 'warning', information: 'note', hint: 'note' } as const;

/** SARIF 2.1.0, as code-scanning tools take it: one run, one rule per diagnostic code. */
export function sarifReport(results: readonly FileResult[]): string {
  const codes = [...new Set(results.flatMap((f) => f.diagnostics.map((d) => d.code)))].sort();
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'rulesets',
            version,
            rules: codes.map((id) => ({ id, name: id, shortDescription: sarifMessage(PROBLEM_CODES.get(id)?.description ?? id.replace(/-/g, ' ')) })),
          },
        },
        columnKind: 'utf16CodeUnits',
        artifacts: results.map((f) => ({ location: { uri: toUri(f.path) } })),
        results: results.flatMap((f, artifactIndex) =>
          f.diagnostics.map((d) => ({
            ruleId: d.code,
            ruleIndex: codes.indexOf(d.code),
            level: SARIF_LEVEL[d.severity],
            message: sarifMessage(d.message),
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: toUri(f.path), index: artifactIndex },
                  region: {
                    startLine: d.range.start.line + 1,
                    startColumn: d.range.start.character + 1,
                    endLine: d.range.end.line + 1,
                    endColumn: d.range.end.character + 1,
                  },
                },
              },
            ],
          })),
        ),
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

function toUri(path: string): string {
  return path.split(/[\\/]/).map(encodeURIComponent).join('/');
}

/** SARIF's `text` is plain text; its `markdown` (GitHub Flavored) keeps the backticks around code. */
function sarifMessage(message: string): { text: string; markdown?: string } {
  const text = plainText(message);
  return text === message ? { text } : { text, markdown: message };
}
