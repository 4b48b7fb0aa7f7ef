/**
 * One rule at a time on the service, from the rule under the cursor (or a code lens over it):
 * Add, Update, Move and Delete. The file follows: a new rule records its id, a moved rule
 * moves, a deleted one goes; and the file records the new version only when it was in step
 * with the service before, so that a later deploy still notices what others changed.
 */
import * as vscode from 'vscode';
import { ApiError, type LocalRuleset, pointerToRange, type Position, readLocalRuleset, type Rule, ruleDefinition, type RuleInput, type Ruleset, WorkflowError } from '../../../server/src/core';
import { quoted } from './messages';
import { addPosition, moveChoices, movedIndex, moveRuleText, recordRuleChange, removeRuleText, ruleAt, rulesetSites, type RuleSite, type RulesetSites } from './rules';
import { commandDocument, ensureSaved, fileName, refused, replaceText, type ApiSession, type CommandArgs, type Connected, type Outcome } from './session';
import { describeScope } from './scope';
import { DOCUMENT_SELECTOR, rulesetFileFormatOf } from '../documents';

export interface RuleArgs extends CommandArgs {
  /** The rule's index in the file (0-based); default: the rule under the cursor. */
  readonly index?: number;
  /** For Move: where the rule goes. */
  readonly position?: Position;
}

export type RuleOutcome = Outcome<{ version: string }>;

interface RuleContext {
  readonly document: vscode.TextDocument;
  readonly file: string;
  readonly local: LocalRuleset & { readonly id: string };
  readonly sites: RulesetSites;
  readonly rule: RuleSite;
  readonly connected: Connected;
}

/** The saved file, its ruleset id and the rule a command is about; or why the command stops. */
async function ruleContext(session: ApiSession, args: RuleArgs, verb: string, onService: boolean): Promise<RuleContext | RuleOutcome> {
  const document = await commandDocument(args);
  if (!document) return refused('no-document');
  const format = rulesetFileFormatOf(document);
  const file = fileName(document);
  if (!format) return refused('not-a-ruleset', warn(`${file} is not a JSON or YAML ruleset file.`));
  if (!(await ensureSaved(session, document, `${verb} the rule`, args))) return refused('unsaved', `${file} has unsaved changes`);
  const local = readLocalRuleset(file, document.getText());
  if (!local.id) return refused('no-id', warn(`${file} records no ruleset id: create or pull the ruleset first, then ${verb} its rules one by one.`));
  const sites = rulesetSites(local.text, format);
  const editor = vscode.window.activeTextEditor;
  const index = args.index ?? (editor?.document === document ? ruleAt(sites, document.offsetAt(editor.selection.active))?.index : undefined);
  const rule = index === undefined ? undefined : sites.rules[index];
  if (!rule) return refused('no-rule', warn(`Put the cursor in a rule of ${file} to ${verb} it.`));
  if (onService && !rule.id) return refused('not-on-service', warn(`Rule ${rule.label} has no id, so the service does not have it yet: add it first.`));
  if (!onService && rule.id) return refused('on-service', warn(`Rule ${rule.label} is on the service already (id ${rule.id}): update it instead.`));
  const connected = await session.connect();
  if (!connected) return refused('not-connected');
  return { document, file, local: { ...local, id: local.id }, sites, rule, connected };
}

function warn(message: string): string {
  void vscode.window.showWarningMessage(`Rulesets: ${message}`);
  return message;
}

/** The rule as the file has it, as "add rule" or "update rule" sends it (without its id). */
function ruleFields(local: LocalRuleset, index: number): RuleInput {
  const { id: _id, ...fields } = local.body.rules[index];
  return fields as RuleInput;
}

/** The live rule of the command, by the id the file records; a clear error when the service no longer has it. */
function liveRule(before: Ruleset, context: RuleContext): Rule {
  const found = before.rules.find((r) => r.id === context.rule.id);
  if (!found) throw new WorkflowError(`${context.file}: rule ${context.rule.label} (id ${context.rule.id}) is not in version ${before.version} of ${quoted(before.name)} on the service: someone deleted it; pull the ruleset to see what is live`);
  return found;
}

/**
 * Runs a rule command: reads the live version first (is the file in step?), calls `change`,
 * and writes the file `update` makes of the answer. The service's objections to the rule are
 * shown on the rule's characters.
 */
async function runRuleCommand(
  session: ApiSession,
  context: RuleContext,
  title: string,
  change: (signal: AbortSignal, before: Ruleset) => Promise<Ruleset>,
  update: (answer: Ruleset, inSync: boolean, before: Ruleset) => string,
  said: (answer: Ruleset) => string,
): Promise<RuleOutcome> {
  const { document, local, connected } = context;
  try {
    session.diagnostics.delete(document.uri);
    const { answer, before } = await session.progress(title, async (signal) => {
      const before = await connected.client.getRuleset(local.id, { signal });
      return { before, answer: await change(signal, before) };
    });
    const inSync = before.version === local.version;
    const newText = update(answer, inSync, before);
    const text = said(answer);
    session.log.info(`${text} (${context.file}, ${describeScope(connected.scope)})`);
    if (document.getText() === local.text) await replaceText(document, newText);
    const behind = inSync || local.version === undefined ? '' : ` ${context.file} stays at version ${local.version}: version ${before.version} was live before, so it has changes from elsewhere; pull to bring them here.`;
    void vscode.window.showInformationMessage(`Rulesets: ${text}.${behind}`);
    return { done: true, version: answer.version };
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'api' && error.errors.some((e) => e.pointer !== undefined)) {
      session.showServiceProblems(
        document,
        error.errors.map((e) => {
          const range = e.pointer !== undefined ? pointerToRange(local.text, local.format, e.pointer, { message: e.message, base: `/rules/${context.rule.index}` }) : undefined;
          return { message: e.message, start: range?.start ?? context.rule.start, end: range?.end ?? context.rule.end };
        }),
      );
    }
    return refused('error', session.report(error));
  }
}

function isContext(value: RuleContext | RuleOutcome): value is RuleContext {
  return 'document' in value;
}

export async function addRule(session: ApiSession, args: RuleArgs = {}): Promise<RuleOutcome> {
  const context = await ruleContext(session, args, 'add', false).catch((error: unknown) => refused('error', session.report(error)));
  if (!isContext(context)) return context;
  const { local, sites, rule } = context;
  return runRuleCommand(
    session,
    context,
    `Adding rule ${rule.label}`,
    (signal) => context.connected.client.addRule(local.id, ruleFields(local, rule.index), { position: addPosition(sites, rule.index), signal }),
    (answer, inSync, before) => {
      const added = answer.rules.find((r) => !before.rules.some((b) => b.id === r.id));
      return recordRuleChange(local, answer, inSync, new Map(added ? [[rule.index, added.id]] : []));
    },
    (answer) => `added rule ${rule.label} to ${quoted(answer.name)} (version ${answer.version})`,
  );
}

export async function updateRule(session: ApiSession, args: RuleArgs = {}): Promise<RuleOutcome> {
  const context = await ruleContext(session, args, 'update', true).catch((error: unknown) => refused('error', session.report(error)));
  if (!isContext(context)) return context;
  const { local, rule } = context;
  return runRuleCommand(
    session,
    context,
    `Updating rule ${rule.label}`,
    // The service replaces the rule with what it is sent: the file's rule, whole, keeping the
    // live `ref` that pull leaves out of the file when it is the id.
    (signal, before) => {
      const fields = ruleFields(local, rule.index);
      return context.connected.client.updateRule(local.id, rule.id!, { ...fields, ref: fields.ref ?? liveRule(before, context).ref }, { signal });
    },
    (answer, inSync) => recordRuleChange(local, answer, inSync),
    (answer) => `updated rule ${rule.label} of ${quoted(answer.name)} (version ${answer.version})`,
  );
}

export async function moveRule(session: ApiSession, args: RuleArgs = {}): Promise<RuleOutcome> {
  const context = await ruleContext(session, args, 'move', true).catch((error: unknown) => refused('error', session.report(error)));
  if (!isContext(context)) return context;
  const { local, sites, rule, file } = context;
  const position =
    args.position ??
    (await vscode.window.showQuickPick(moveChoices(sites, rule.index), { title: `Rulesets: move rule ${rule.label}`, placeHolder: 'Where the rule goes, on the service and in the file' }))?.position;
  if (!position) return refused('cancelled');
  return runRuleCommand(
    session,
    context,
    `Moving rule ${rule.label}`,
    // A move sends the rule as it is live (whole, or the service would empty it) with its new place.
    (signal, before) => context.connected.client.updateRule(local.id, rule.id!, ruleDefinition(liveRule(before, context)), { position, signal }),
    (answer, inSync) => recordRuleChange(readLocalRuleset(file, moveRuleText(local.text, sites, rule.index, movedIndex(sites, rule.index, position))), answer, inSync),
    (answer) => `moved rule ${rule.label} of ${quoted(answer.name)} (version ${answer.version})`,
  );
}

export async function deleteRule(session: ApiSession, args: RuleArgs = {}): Promise<RuleOutcome> {
  const context = await ruleContext(session, args, 'delete', true).catch((error: unknown) => refused('error', session.report(error)));
  if (!isContext(context)) return context;
  const { local, rule, file } = context;
  const action = 'Delete Rule';
  const answer =
    args.yes !== undefined
      ? args.yes
        ? action
        : undefined
      : await session.ask(`Delete rule ${rule.label} from ${quoted(local.body.name ?? file)} on the service?`, `In ${describeScope(context.connected.scope)}; the rule is removed from ${file} too (Undo brings it back into the file, not onto the service).`, action);
  if (answer !== action) return refused('declined');
  return runRuleCommand(
    session,
    context,
    `Deleting rule ${rule.label}`,
    (signal) => context.connected.client.deleteRule(local.id, rule.id!, { signal }),
    (result, inSync) => recordRuleChange(readLocalRuleset(file, removeRuleText(local.text, local.format, rule.index)), result, inSync),
    (result) => `deleted rule ${rule.label} from ${quoted(result.name)} (version ${result.version})`,
  );
}

/** Over each rule of a ruleset file that records its id: what can be done to that rule on the service. */
export class RuleCodeLenses implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const format = rulesetFileFormatOf(document);
    if (!format) return [];
    const sites = rulesetSites(document.getText(), format);
    if (!sites.id) return [];
    return sites.rules.flatMap((rule) => {
      const start = document.positionAt(rule.start);
      const range = new vscode.Range(start, start);
      const lens = (title: string, command: string, tooltip: string) => new vscode.CodeLens(range, { title, command, tooltip, arguments: [{ uri: document.uri, index: rule.index }] });
      if (!rule.id) return [lens('Add rule to service', 'rulesets.addRule', 'Add this rule to the ruleset on the service (it gets an id)')];
      return [
        lens('Update rule on service', 'rulesets.updateRule', 'Send this rule as the file has it'),
        lens('Move…', 'rulesets.moveRule', 'Move this rule, on the service and in the file'),
        lens('Delete rule on service', 'rulesets.deleteRule', 'Delete this rule on the service and from the file'),
      ];
    });
  }
}

/** The files code lenses are offered in: saved JSON and YAML files (not the read-only versions). */
export const CODE_LENS_SELECTOR = DOCUMENT_SELECTOR.filter((selector) => selector.scheme === 'file');
