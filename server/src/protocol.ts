/**
 * What the rulesets language server answers beyond LSP. Plain LSP clients need none of it;
 * the VS Code extension uses it for its language status item and "Check Workspace".
 */
import type { RulesetEvidence } from './documents/classify';
import type { HostFormat } from './documents/host/index';
import type { RulesetLayout } from './documents/parsed-ruleset';

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
  /** The phase the file names, if any (a file of one ruleset). */
  readonly phase?: string;
  /** The document's format as the server reads it; undefined for a document it does not read. */
  readonly format?: HostFormat;
  /** How the file writes its rulesets, when not as a ruleset file of its own (`api`). */
  readonly layout?: Exclude<RulesetLayout, 'api'>;
  /** How many rulesets such a file holds: a Terraform file's `cloudflare_ruleset` resources, an octorules file's sections. */
  readonly rulesets?: number;
  /** Why a document the server could read is left alone: `terraform` when `rulesets.terraform.enable` is false. */
  readonly disabled?: 'terraform';
}

/**
 * "Check Workspace": the server reads these files from disk, open in the editor or not, checks
 * those that are rulesets (by name, `rulesets.files` or content, as an open document) and
 * publishes their diagnostics (textDocument/publishDiagnostics); other files are skipped. The
 * diagnostics of a file checked this way stay when it is closed (then from the file on disk),
 * and follow the file while the editor reports its changes (workspace/didChangeWatchedFiles,
 * registered by the server). Progress goes to the request's `workDoneToken`, or to one the
 * server creates when the editor supports that; cancelling the request stops the run.
 */
export const CHECK_FILES_REQUEST = 'rulesets/checkFiles';

/**
 * The files a workspace check reads: every JSON and YAML file, since a ruleset may be one by its
 * content or a `rulesets.files` pattern as well as by its name, and every Terraform file, which
 * holds rulesets when it declares a `cloudflare_ruleset`. The server decides which are.
 */
export const CHECK_FILES_GLOB = '**/*.{json,yaml,yml,tf,tfvars}';

export interface CheckFilesParams {
  /** `file:` URIs of JSON and YAML files: the workspace's, for the whole workspace. */
  readonly uris: readonly string[];
  /** LSP work-done progress (WorkDoneProgressParams). */
  readonly workDoneToken?: string | number;
}

export interface CheckFilesResult {
  /** How many of the files were rulesets, and checked. */
  readonly rulesets: number;
  /** How many of those have at least one problem. */
  readonly withProblems: number;
  readonly errors: number;
  readonly warnings: number;
  /** Information and hints. */
  readonly others: number;
  /** Files that could not be read (gone, or not readable), by URI. */
  readonly unreadable: readonly string[];
  /** The run stopped early: cancelled, or replaced by a newer run. */
  readonly cancelled: boolean;
}
