/**
 * Creating a new ruleset from a local file: our check, the service's dry run, then the
 * create; the file records the new ruleset's id, version and rule ids.
 */
import type { ApiError, RulesetsClient } from './client';
import { checkLocal, hasErrors, mapServiceProblems, refuseOtherLevel, rejection, type CallOptions, type ServiceProblem } from './deploy';
import { unifiedDiff } from './diff';
import { WorkflowError, type LocalRuleset } from './local-ruleset';
import { localAsDeployed, recordDeployed } from './ruleset-file';
import type { PositionedProblem } from '../documents/positions';
import type { CreateRulesetBody, RuleInput, Ruleset } from './types';

export interface CreatePlan {
  readonly localProblems: PositionedProblem[];
  /** Unified diff from nothing to the file as pull would write it once created. */
  readonly diff: string;
  readonly dryRunError?: ApiError;
  readonly serviceProblems: ServiceProblem[];
}

/**
 * A create of `local` (POST), without doing it: our check, then the service's dry run. A file
 * that has an `id` is deployed already and is refused. Rule ids in the file (copied from another
 * ruleset) are not sent: the service gives the new rules their own.
 */
export async function planCreate(client: RulesetsClient, local: LocalRuleset, options: CallOptions = {}): Promise<CreatePlan> {
  refuseIfDeployed(local);
  refuseOtherLevel(local, client.scope);
  const localProblems = checkLocal(local);
  if (hasErrors(localProblems)) return { localProblems, diff: '', serviceProblems: [] };
  let dryRunError: ApiError | undefined;
  try {
    await client.dryRun.createRuleset(createBody(local), { signal: options.signal });
  } catch (error) {
    dryRunError = rejection(error);
  }
  const diff = unifiedDiff('', localAsDeployed({ ...local, body: createBody(local) }, undefined), { from: '(nothing)', to: local.path });
  return { localProblems, diff, ...(dryRunError ? { dryRunError } : {}), serviceProblems: dryRunError ? mapServiceProblems(dryRunError, local) : [] };
}

/** Creates the ruleset of a plan; the new file text records its `id`, `version` and rule ids. */
export async function applyCreate(client: RulesetsClient, local: LocalRuleset, plan: CreatePlan, options: CallOptions = {}): Promise<{ ruleset: Ruleset; newText: string }> {
  refuseIfDeployed(local);
  if (hasErrors(plan.localProblems)) throw new WorkflowError(`${local.path}: not created: the check found errors; fix them first (\`rulesets check ${local.path}\`)`);
  if (plan.dryRunError) throw new WorkflowError(`${local.path}: not created: the service rejected it: ${plan.dryRunError.message}`);
  const body = createBody(local);
  const ruleset = await client.createRuleset(body, { signal: options.signal });
  // The file's own rule ids (if any) were not sent: the service's replace them.
  const text = recordDeployed({ ...local, body }, ruleset, { recordId: true });
  return { ruleset, newText: text };
}

function refuseIfDeployed(local: LocalRuleset): void {
  if (local.id) {
    throw new WorkflowError(`${local.path}: the file has \`id: ${local.id}\`, so it is deployed already: use \`rulesets deploy ${local.path}\`, or remove \`id\` and \`version\` to create a new ruleset from it`);
  }
}

function createBody(local: LocalRuleset): CreateRulesetBody {
  const { name, kind } = local.body;
  // readLocalRuleset's `create` refuses a file without them; a caller that did not ask for it is told the same.
  if (name === undefined || kind === undefined) throw new WorkflowError(`${local.path}: a new ruleset needs \`name\`, \`kind\` and \`phase\` (\`POST …/rulesets\` requires them); nothing was sent`);
  return { ...local.body, name, kind, rules: local.body.rules.map(({ id: _id, ...rule }) => rule as RuleInput) };
}
