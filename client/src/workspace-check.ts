/**
 * "Rulesets: Check Workspace" without VS Code: where the search for files does not look, and
 * what to say when the check is done. The command is check-workspace-command.ts.
 */
import type { CheckFilesResult } from '../../server/src/protocol';

/** Never searched, as `rulesets check` skips them in a folder: dependencies, and hidden folders (`.git` among them). */
const ALWAYS_EXCLUDED = ['**/node_modules/**', '**/.*/**'];

/**
 * The search's exclude pattern: those folders, and what the `files.exclude` and
 * `search.exclude` settings leave out. Passing any exclude pattern to `workspace.findFiles`
 * turns off its own use of `files.exclude`, so both are added here: the patterns set to true
 * (one with a `when` clause depends on a sibling file, which a pattern cannot say). VS Code's
 * globs do not nest `{…}`, so a pattern with braces or commas of its own is passed over.
 */
export function searchExclude(...settings: readonly (Readonly<Record<string, unknown>> | undefined)[]): string {
  const patterns = new Set(ALWAYS_EXCLUDED);
  for (const setting of settings) {
    for (const [pattern, excluded] of Object.entries(setting ?? {})) {
      if (excluded === true && !/[{},]/.test(pattern)) patterns.add(pattern);
    }
  }
  return `{${[...patterns].join(',')}}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export interface CheckSummary {
  /** What the notification says when the check is done: VS Code shows it as plain text. */
  readonly message: string;
  /** Whether the Problems panel has something of it to show. */
  readonly problems: boolean;
}

/** The outcome of a run in one sentence: how many rulesets, and the problems in them. */
export function describeCheck(result: CheckFilesResult): CheckSummary {
  const problems = result.errors + result.warnings + result.others;
  const unreadable = result.unreadable.length > 0 ? ` ${plural(result.unreadable.length, 'file')} could not be read.` : '';
  if (result.rulesets === 0 && !result.cancelled) {
    return {
      message: `No ruleset in the workspace: a ruleset file is named *.ruleset.json, .yaml or .yml, matches a rulesets.files pattern, or has a top-level rules list and a phase or kind; a Terraform file declares a cloudflare_ruleset resource.${unreadable}`,
      problems: false,
    };
  }
  const found: string[] = [];
  if (result.errors > 0) found.push(plural(result.errors, 'error'));
  if (result.warnings > 0) found.push(plural(result.warnings, 'warning'));
  if (result.others > 0) found.push(plural(result.others, 'note'));
  const listed = found.length > 1 ? `${found.slice(0, -1).join(', ')} and ${found[found.length - 1]}` : found[0];
  const outcome = problems > 0 ? `${listed} in ${plural(result.withProblems, 'file')}` : 'no problems';
  const checked = `${plural(result.rulesets, 'ruleset')} checked`;
  const message = result.cancelled ? `Check stopped: ${checked} so far, ${outcome}.` : `${checked}: ${outcome}.`;
  return { message: `${message}${unreadable}`, problems: problems > 0 };
}
