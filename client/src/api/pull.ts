/**
 * `Rulesets: Pull`: the latest version of a ruleset (by id, or a phase's entry point) as the file
 * `rulesets pull` writes, into a new document or into the active one. Unsaved or different
 * content is replaced only after a modal confirm.
 */
import * as vscode from 'vscode';
import { type HostFormat, type Ruleset, serializeRuleset } from '../../../server/src/core';
import { pullDecision, quoted } from './messages';
import { fileRuleset, namedOrActiveDocument, namedRuleset, pickRuleset, tryLocal, type RulesetArgs } from './pickers';
import { rulesetFileFormatOf } from '../documents';
import { fileName, refused, replaceText, type ApiSession, type Outcome } from './session';

export interface PullArgs extends RulesetArgs {
  /** `new`: an untitled document; `active`: the active editor's (or `uri`'s) document. */
  readonly into?: 'new' | 'active';
  /** The new document's format (default: the active file's, else YAML). */
  readonly format?: HostFormat;
}

export async function pull(session: ApiSession, args: PullArgs = {}): Promise<Outcome<{ uri: string; version: string }>> {
  try {
    const connected = await session.connect();
    if (!connected) return refused('not-connected');
    const active = await namedOrActiveDocument(args);
    // What to pull is asked for (the active file's own ruleset first): the file is where it goes.
    const chosen = namedRuleset(args) ?? (await pickRuleset(session, connected, 'Pull', { first: active && fileRuleset(active) }));
    if (!chosen) return refused('cancelled');
    const { client } = connected;
    const ruleset: Ruleset = await session.progress(`Reading ${chosen.label}`, (signal) =>
      typeof chosen.ref === 'string' ? client.getRuleset(chosen.ref, { signal }) : client.getEntryPoint(chosen.ref.phase, { signal }),
    );
    const into = args.into ?? (active ? await askWhere(active) : 'new');
    if (!into) return refused('cancelled');
    if (into === 'new' || !active) {
      const format = args.format ?? (active && rulesetFileFormatOf(active)) ?? 'yaml';
      const document = await vscode.workspace.openTextDocument({ language: format, content: serializeRuleset(ruleset, format) });
      await vscode.window.showTextDocument(document);
      void vscode.window.showInformationMessage(`Rulesets: pulled ${quoted(ruleset.name)} version ${ruleset.version} into a new file; save it as *.ruleset.${format}.`);
      return { done: true, uri: document.uri.toString(), version: ruleset.version };
    }
    const text = serializeRuleset(ruleset, rulesetFileFormatOf(active) ?? 'yaml');
    const decision = pullDecision({ text: active.getText(), isDirty: active.isDirty, name: fileName(active), id: tryLocal(active)?.id }, { text, id: ruleset.id, name: ruleset.name, version: ruleset.version });
    if (decision.kind === 'same') {
      void vscode.window.showInformationMessage(`Rulesets: ${fileName(active)} already holds version ${ruleset.version} of ${quoted(ruleset.name)}.`);
      return { done: true, uri: active.uri.toString(), version: ruleset.version };
    }
    if (decision.kind === 'confirm') {
      const answer = args.yes !== undefined ? (args.yes ? decision.action : undefined) : await session.ask(decision.message, decision.detail, decision.action);
      if (answer !== decision.action) return refused('declined');
    }
    await vscode.window.showTextDocument(active);
    await replaceText(active, text, !active.isUntitled);
    void vscode.window.showInformationMessage(`Rulesets: pulled ${quoted(ruleset.name)} version ${ruleset.version} into ${fileName(active)}.`);
    return { done: true, uri: active.uri.toString(), version: ruleset.version };
  } catch (error) {
    return refused('error', session.report(error));
  }
}

async function askWhere(active: vscode.TextDocument): Promise<'new' | 'active' | undefined> {
  const items = [
    { label: `Into ${fileName(active)}`, detail: 'Replaces its content (asks first if it has unsaved or other content)', into: 'active' as const },
    { label: 'Into a new file', detail: 'An unsaved document; save it where you like', into: 'new' as const },
  ];
  return (await vscode.window.showQuickPick(items, { title: 'Rulesets: Pull', placeHolder: 'Where the pulled ruleset goes' }))?.into;
}
