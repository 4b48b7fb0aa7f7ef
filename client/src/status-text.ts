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
  terraform: 'a Terraform file with cloudflare_ruleset resources',
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The status of the active JSON, YAML or Terraform document: whether it is treated as a ruleset, and how
 * its check went. `status` is undefined while the server has not answered yet.
 */
export function describeStatus(status: DocumentStatus | undefined, counts: ProblemCounts): StatusView {
  if (status === undefined) return { text: 'Rulesets', detail: 'starting the checker', severity: 'information', busy: true };
  if (status.disabled === 'terraform') {
    return { text: 'Rulesets: off', detail: 'Terraform files are not checked (rulesets.terraform.enable is false)', severity: 'information', busy: false };
  }
  if (status.ruleset === undefined) {
    if (status.format === 'hcl') return { text: 'No ruleset', detail: 'a Terraform file without a cloudflare_ruleset resource', severity: 'information', busy: false };
    return {
      text: 'Not a ruleset',
      detail: 'name it *.ruleset.json or *.ruleset.yaml, or add a rulesets.files pattern',
      severity: 'information',
      busy: false,
    };
  }
  const many = status.rulesets !== undefined && status.rulesets !== 1;
  const what =
    status.layout === 'terraform' && status.rulesets !== undefined
      ? `a Terraform file with ${plural(status.rulesets, 'cloudflare_ruleset resource')}`
      : status.layout === 'octorules' && status.rulesets !== undefined
        ? `an octorules rules file with ${plural(status.rulesets, 'section')}`
        : EVIDENCE[status.ruleset];
  const phase = status.phase && !many ? `; phase ${status.phase}` : '';
  const detail = `${what}${phase}`;
  const noun = many ? 'Rulesets' : 'Ruleset';
  if (counts.errors > 0) {
    const warnings = counts.warnings > 0 ? `, ${plural(counts.warnings, 'warning')}` : '';
    // The item's severity adds the error or warning icon itself.
    return { text: `${noun}: ${plural(counts.errors, 'error')}${warnings}`, detail, severity: 'error', busy: false };
  }
  if (counts.warnings > 0) return { text: `${noun}: ${plural(counts.warnings, 'warning')}`, detail, severity: 'warning', busy: false };
  return { text: `$(check) ${noun}`, detail: `${detail}; the service would accept ${many ? 'them' : 'it'}`, severity: 'information', busy: false };
}
