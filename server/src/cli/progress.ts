/**
 * What a long `rulesets check` is doing, on one line of stderr that it overwrites: a 5 MB
 * ruleset takes seconds, and a terminal that shows nothing for that long looks hung. Shown only
 * when the check has run longer than PROGRESS_AFTER_MS and stderr is a terminal (never in a
 * pipe or a CI log, and never on stdout, where a JSON or SARIF report goes); the line is cleared
 * before the report. RULESETS_PROGRESS=1 shows it from the start wherever stderr goes (how it is
 * tested), RULESETS_PROGRESS=0 never; RULESETS_PROGRESS_AFTER_MS sets the wait.
 */
import { terminalSafe } from './visible';

/** How long a check runs before it says how far it is. */
export const PROGRESS_AFTER_MS = 2000;

/** At most one redraw in this many milliseconds: a terminal is not made to draw 50,000 lines. */
const REDRAW_MS = 100;

export interface ProgressOptions {
  /** stderr is a terminal. */
  readonly terminal: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** The clock, in milliseconds. */
  readonly now?: () => number;
}

export class Progress {
  private readonly now: () => number;
  private readonly showFrom: number | undefined;
  private lastDrawn = -Infinity;
  private shown = false;
  private files = { done: 0, total: 0, current: '' };

  constructor(
    private readonly write: (text: string) => void,
    options: ProgressOptions,
  ) {
    this.now = options.now ?? Date.now;
    const setting = options.env.RULESETS_PROGRESS;
    const start = this.now();
    // RULESETS_PROGRESS_AFTER_MS: another wait than two seconds (a test on a terminal uses 0).
    const after = /^\d+$/.test(options.env.RULESETS_PROGRESS_AFTER_MS ?? '') ? Number(options.env.RULESETS_PROGRESS_AFTER_MS) : PROGRESS_AFTER_MS;
    this.showFrom = setting === '1' ? start : setting === '0' || !options.terminal ? undefined : start + after;
  }

  /** Whether it may show anything: checks without it keep the checker's loops as they are. */
  get active(): boolean {
    return this.showFrom !== undefined;
  }

  /** A file is about to be checked: `index` from 0, of `total`. */
  file(index: number, total: number, shown: string): void {
    this.files = { done: index, total, current: shown };
    this.draw(undefined);
  }

  /** An expression of the current file's ruleset was checked. */
  expression(checked: number, total: number): void {
    this.draw({ checked, total });
  }

  /** Clears the line, before the report is written. */
  end(): void {
    if (this.shown) this.write('\r\x1b[K');
    this.shown = false;
  }

  private draw(expressions: { checked: number; total: number } | undefined): void {
    if (this.showFrom === undefined) return;
    const now = this.now();
    if (now < this.showFrom || now - this.lastDrawn < REDRAW_MS) return;
    this.lastDrawn = now;
    const { done, total, current } = this.files;
    const files = total > 1 ? `${done}/${total} files checked; ` : '';
    const within = expressions ? `: ${expressions.checked.toLocaleString('en-US')}/${expressions.total.toLocaleString('en-US')} expressions` : '';
    // The line's own controls are written as they are; the file's name, which is the user's, never raw.
    this.write(`\r\x1b[Krulesets: ${files}checking ${terminalSafe(current)}${within}`);
    this.shown = true;
  }
}
