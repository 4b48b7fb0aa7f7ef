import type { DocumentStatus, RulesetEvidence } from '../../server/src/protocol';

/** How many of our diagnostics a document has, by severity. */
export interface ProblemCounts {
  readonly errors: number;
  readonly warnings: number;
  readonly others: number;
}

/** What the language status item shows: plain data, so it is tested without VS Code. */
export interface StatusView {
  readonly text: string;
  readonly detail: string;
  readonly severity: 'information' | 'warning' | 'error';
  readonly busy: boolean;
}

const EVIDENCE: Record<RulesetEvidence, string> = {
  name: 'a ruleset by its file name',
  pattern: 'a ruleset by a rulesets.files pattern',
  content: 'a ruleset by its content (rules plus phase or kind)',
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The status of the active JSON or YAML document: whether it is treated as a ruleset, and how
 * its check went. `status` is undefined while the server has not answered yet.
 */
export function describeStatus(status: DocumentStatus | undefined, counts: ProblemCounts): StatusView {
  if (status === undefined) return { text: 'Rulesets', detail: 'starting the checker', severity: 'information', busy: true };
  if (status.ruleset === undefined) {
    return {
      text: 'Not a ruleset',
      detail: 'name it *.ruleset.json or *.ruleset.yaml, or add a rulesets.files pattern',
      severity: 'information',
      busy: false,
    };
  }
  const phase = status.phase ? `; phase ${status.phase}` : '';
  const detail = `${EVIDENCE[status.ruleset]}${phase}`;
  if (counts.errors > 0) {
    const warnings = counts.warnings > 0 ? `, ${plural(counts.warnings, 'warning')}` : '';
    // The item's severity adds the error or warning icon itself.
    return { text: `Ruleset: ${plural(counts.errors, 'error')}${warnings}`, detail, severity: 'error', busy: false };
  }
  if (counts.warnings > 0) return { text: `Ruleset: ${plural(counts.warnings, 'warning')}`, detail, severity: 'warning', busy: false };
  return { text: '$(check) Ruleset', detail: `${detail}; the service would accept it`, severity: 'information', busy: false };
}
