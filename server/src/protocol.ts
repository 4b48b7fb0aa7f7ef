/**
 * What the rulesets language server answers beyond LSP. Plain LSP clients need none of it;
 * the VS Code extension uses it for its language status item.
 */
import type { RulesetEvidence } from './documents/classify';

/** The `source` of every diagnostic the server publishes: what the editor filters and counts by. */
export const DIAGNOSTIC_SOURCE = 'rulesets';

export type { RulesetEvidence };

export const DOCUMENT_STATUS_REQUEST = 'rulesets/documentStatus';

export interface DocumentStatusParams {
  readonly uri: string;
}

export interface DocumentStatus {
  /** Undefined when the document is not treated as a ruleset (or is not open). */
  readonly ruleset?: RulesetEvidence;
  /** The phase the file names, if any. */
  readonly phase?: string;
}
