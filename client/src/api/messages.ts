/**
 * What the API commands ask and say, and the decisions that need no VS Code: plain functions,
 * tested without it.
 */
import { ApiError, type DeployPlan, type Destination, redact, WorkflowError } from '../../../server/src/core';
import { describeScope, type Scope } from './scope';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `“Allow SSH only”` */
export function quoted(name: string): string {
  return `“${name}”`;
}

/** `the magic_transit entry point of account 0123…cdef` or `ruleset 9f3c… of zone fedc…cdef`, ids in full. */
export function describeDestinationIn(where: Destination, scope: Scope): string {
  const what = where.kind === 'entrypoint' ? `the ${where.phase} entry point` : `ruleset ${where.id}`;
  return `${what} of ${scope.kind} ${scope.id}`;
}

/** The modal question before a deploy, and its detail. */
export function deployQuestion(name: string, plan: Pick<DeployPlan, 'destination' | 'deployed' | 'diff'>, scope: Scope): { message: string; detail: string } {
  const message = `Deploy ${quoted(name)} to ${describeScope(scope)}?`;
  const to = `To ${describeDestinationIn(plan.destination, scope)}`;
  const what = plan.deployed ? `${to}, replacing version ${plan.deployed.version} (live now).` : `${to}, which does not exist yet: this creates it.`;
  const same = plan.diff === '' ? " The rules are the live version's: the service still makes a new version." : ' The diff editor shows what changes.';
  return { message, detail: `${what}${same}` };
}

/** The modal warning when the live version moved on since the file's. */
export function conflictQuestion(name: string, conflict: { base: string; current: string }, scope: Scope): { message: string; detail: string } {
  if (conflict.current === 'none') {
    return {
      message: `${quoted(name)} no longer exists in ${describeScope(scope)}.`,
      detail: `The file is based on version ${conflict.base}, which is gone. Deploy Anyway creates it anew.`,
    };
  }
  return {
    message: `Someone else deployed ${quoted(name)}: version ${conflict.current} is live, the file is based on version ${conflict.base}.`,
    detail: 'Deploying would undo their change. Show Diff compares what is live with the file; pull it and merge, or Deploy Anyway to replace it.',
  };
}

/** `Fix 2 problems first: …` for our own check's errors. */
export function localProblemsMessage(errors: number, file: string): string {
  return `Fix ${plural(errors, 'problem')} first: ${file} is not deployed while the check finds ${errors === 1 ? 'an error' : 'errors'} (see the Problems panel).`;
}

/** What the service's dry run rejected, as one message. */
export function serviceProblemsMessage(count: number, file: string, first: string): string {
  return `The service rejects ${file} (${plural(count, 'problem')}, marked in the file): ${first}`;
}

/** One message for a failed command: its own words for ours and the API's errors, redacted. */
export function failureMessage(error: unknown, secrets: readonly (string | undefined)[]): string {
  const text = error instanceof ApiError || error instanceof WorkflowError ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return redact(text, secrets);
}

/** Whether an error is the caller's own cancellation (nothing to report). */
export function isCancellation(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'cancelled';
}

export interface OpenDocument {
  readonly text: string;
  readonly isDirty: boolean;
  /** The file's name, as messages say it. */
  readonly name: string;
  /** The ruleset id the file records. */
  readonly id?: string;
}

export type PullDecision = { readonly kind: 'same' } | { readonly kind: 'write' } | { readonly kind: 'confirm'; readonly message: string; readonly detail: string; readonly action: string };

/**
 * Whether a pull may write into an open document: at once when it is empty, not at all when it
 * already holds exactly that text, and only after a modal confirm when it has unsaved changes
 * or other content.
 */
export function pullDecision(into: OpenDocument, pulled: { readonly text: string; readonly id: string; readonly name: string; readonly version: string }): PullDecision {
  if (into.text === pulled.text) return { kind: 'same' };
  if (into.text.trim() === '') return { kind: 'write' };
  const what = `version ${pulled.version} of ${quoted(pulled.name)}`;
  const action = 'Replace';
  if (into.isDirty) {
    return { kind: 'confirm', message: `${into.name} has unsaved changes. Replace them with ${what}?`, detail: 'Your unsaved changes are lost (Undo brings them back).', action };
  }
  const other = into.id && into.id !== pulled.id ? ` It holds another ruleset (id ${into.id}).` : into.id ? '' : ' It records no ruleset id.';
  return { kind: 'confirm', message: `Replace the content of ${into.name} with ${what}?`, detail: `The file's content differs from it.${other} Undo brings it back.`, action };
}
