/**
 * Which ruleset a command is about: the one its arguments name, the one the active file records,
 * or one picked from the account's or zone's list.
 */
import * as vscode from 'vscode';
import { KNOWN_PHASES, type LocalRuleset, readLocalRuleset, type RulesetRef, type RulesetSummary } from '../../../server/src/core';
import { LANGUAGES } from '../documents';
import { commandDocument, fileName, type ApiSession, type CommandArgs, type Connected } from './session';
import { describeScope } from './scope';

/** A ruleset named by id or by its phase (an entry point), with the file it came from, if any. */
export interface ChosenRuleset {
  readonly ref: RulesetRef;
  /** A name to show until the service has said it. */
  readonly label: string;
  readonly document?: vscode.TextDocument;
  readonly local?: LocalRuleset;
}

export interface RulesetArgs extends CommandArgs {
  readonly id?: string;
  readonly phase?: string;
}

/** The document `args.uri` names, else the active editor's if it is JSON or YAML. */
export async function namedOrActiveDocument(args: CommandArgs): Promise<vscode.TextDocument | undefined> {
  if (args.uri) return commandDocument(args);
  const document = vscode.window.activeTextEditor?.document;
  return document && (LANGUAGES as readonly string[]).includes(document.languageId) ? document : undefined;
}

/** A document read as a local ruleset, or undefined when it is not one (no message: the caller decides). */
export function tryLocal(document: vscode.TextDocument): LocalRuleset | undefined {
  try {
    return readLocalRuleset(fileName(document), document.getText());
  } catch {
    return undefined;
  }
}

/**
 * The ruleset a command is about: `args.id` or `args.phase`; else the ruleset the given or
 * active file records (its `id`, or for a `root` or `zone` file its phase's entry point); else
 * one the person picks. Undefined when they cancel.
 */
export async function chooseRuleset(session: ApiSession, connected: Connected, args: RulesetArgs, purpose: string): Promise<ChosenRuleset | undefined> {
  const given = namedRuleset(args);
  if (given) return given;
  const document = await namedOrActiveDocument(args);
  return (document && fileRuleset(document)) ?? pickRuleset(session, connected, purpose);
}

/** The ruleset `args.id` or `args.phase` names. */
export function namedRuleset(args: RulesetArgs): ChosenRuleset | undefined {
  if (args.id) return { ref: args.id, label: args.id };
  if (args.phase) return { ref: { phase: args.phase }, label: `the ${args.phase} entry point` };
  return undefined;
}

/** The ruleset a file records: its `id`, or for a `root` or `zone` ruleset its phase's entry point. */
export function fileRuleset(document: vscode.TextDocument): ChosenRuleset | undefined {
  const local = tryLocal(document);
  if (!local) return undefined;
  if (local.id) return { ref: local.id, label: local.body.name ?? local.id, document, local };
  // A file without a `kind` is written for its phase's entry point.
  if (local.body.kind === undefined || local.body.kind === 'root' || local.body.kind === 'zone') return { ref: { phase: local.body.phase }, label: local.body.name ?? `the ${local.body.phase} entry point`, document, local };
  return undefined;
}

type RulesetItem = vscode.QuickPickItem & { readonly ref?: RulesetRef; readonly entryPoint?: boolean };

/**
 * A quick pick of the scope's rulesets (and "a phase's entry point…"); `managed` lists only
 * those; `first` (the active file's ruleset) comes first.
 */
export async function pickRuleset(session: ApiSession, connected: Connected, purpose: string, options: { managed?: boolean; first?: ChosenRuleset } = {}): Promise<ChosenRuleset | undefined> {
  const list = await session.progress(`Listing the rulesets of ${describeScope(connected.scope)}`, (signal) => connected.client.listRulesets({ signal }));
  const shown = list.filter((r) => (options.managed ? r.kind === 'managed' : true));
  const first = options.first?.ref;
  const isFirst = (r: RulesetSummary) => (typeof first === 'string' ? r.id === first : first !== undefined && r.phase === first.phase && (r.kind === 'root' || r.kind === 'zone'));
  const items: RulesetItem[] = [...shown.filter(isFirst), ...shown.filter((r) => !isFirst(r))].map((r) => ({
    label: r.name || r.id,
    description: `${isFirst(r) ? "this file's ruleset · " : ''}${r.kind} · ${r.phase} · v${r.version}`,
    detail: r.id,
    ref: r.id,
  }));
  if (!options.managed) items.push({ label: "$(symbol-event) A phase's entry point…", entryPoint: true, alwaysShow: true });
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`Rulesets: ${describeScope(connected.scope)} has no ${options.managed ? 'managed ' : ''}rulesets.`);
    return undefined;
  }
  const chosen = await vscode.window.showQuickPick(items, { title: `Rulesets: ${purpose}`, placeHolder: `A ruleset of ${describeScope(connected.scope)}`, matchOnDetail: true, matchOnDescription: true });
  if (!chosen) return undefined;
  if (chosen.ref) return { ref: chosen.ref, label: chosen.label };
  const phase = await vscode.window.showQuickPick([...KNOWN_PHASES], { title: `Rulesets: ${purpose}`, placeHolder: "The phase whose entry point it is" });
  return phase ? { ref: { phase }, label: `the ${phase} entry point` } : undefined;
}
