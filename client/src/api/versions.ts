/**
 * Versions on the service, read-only in the editor: documents of scheme `rulesets-version`
 * (filled by the API, or with a text at hand), Show Versions, Compare with Local, Delete
 * Version, Delete Ruleset and Rules by Tag.
 */
import * as vscode from 'vscode';
import { type DeployPlan, type LocalRuleset, type Ruleset, serializeRuleset, type VersionListItem } from '../../../server/src/core';
import { quoted } from './messages';
import { chooseRuleset, pickRuleset, type RulesetArgs } from './pickers';
import { rulesetFileFormatOf } from '../documents';
import { refused, type ApiSession, type Outcome } from './session';
import { describeScope, type Scope } from './scope';
import { parseVersionAddress, VERSION_SCHEME, versionAddress, type VersionRef } from './version-uri';

export class VersionDocuments implements vscode.TextDocumentContentProvider {
  private readonly snapshots = new Map<string, string>();
  private next = 0;

  constructor(private readonly session: ApiSession) {}

  uri(ref: VersionRef): vscode.Uri {
    const { path, query } = versionAddress(ref);
    return vscode.Uri.from({ scheme: VERSION_SCHEME, path, query });
  }

  /** The address of a document showing `text` (a version the extension has read already). */
  withText(ref: Omit<VersionRef, 'snapshot'>, text: string): vscode.Uri {
    const key = String(++this.next);
    this.snapshots.set(key, text);
    return this.uri({ ...ref, snapshot: key });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const ref = parseVersionAddress(uri.path, uri.query);
    if (!ref) throw new Error(`not a ruleset version: ${uri.toString()}`);
    const held = ref.snapshot !== undefined ? this.snapshots.get(ref.snapshot) : undefined;
    if (held !== undefined) return held;
    const connected = await this.session.connect(ref.scope);
    if (!connected) throw new Error('Rulesets: cannot read the version: the API is not set up');
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    try {
      const { client } = connected;
      const ruleset = ref.tag
        ? await client.rulesByTag(ref.rulesetId, ref.version, ref.tag, { signal: abort.signal })
        : await client.getVersion(ref.rulesetId, ref.version, { signal: abort.signal });
      return serializeRuleset(ruleset, ref.format);
    } catch (error) {
      throw new Error(this.session.report(error));
    } finally {
      subscription.dispose();
    }
  }

  /**
   * The diff editor of a deploy: the live version (read-only, as pull writes it in the file's
   * format) on the left, the local file on the right.
   */
  async showDeployDiff(document: vscode.TextDocument, local: LocalRuleset, plan: DeployPlan, scope: Scope): Promise<void> {
    const live = plan.deployed;
    const left = this.withText(
      {
        scope,
        rulesetId: live?.id ?? local.id ?? 'new',
        version: live?.version ?? 'none',
        name: live?.name ?? local.body.name ?? `the ${local.body.phase} entry point`,
        format: local.format,
        local: document.uri.toString(),
      },
      live ? serializeRuleset(live, local.format) : '',
    );
    const title = `${local.body.name ?? live?.name ?? `the ${local.body.phase} entry point`}: ${live ? `version ${live.version} (live)` : 'not deployed yet'} ↔ ${vscode.workspace.asRelativePath(document.uri, false)}`;
    await vscode.commands.executeCommand('vscode.diff', left, document.uri, title, { preview: true });
  }
}

export interface VersionArgs extends RulesetArgs {
  readonly version?: string;
}

function newestFirst(versions: readonly VersionListItem[]): VersionListItem[] {
  return [...versions].sort((a, b) => Number(b.version) - Number(a.version));
}

function describeVersion(item: VersionListItem, latest: boolean): vscode.QuickPickItem & { version: string } {
  const when = item.last_updated ? new Date(item.last_updated).toLocaleString() : '';
  return { label: `Version ${item.version}`, description: latest ? 'latest' : '', detail: when, version: item.version };
}

/** The versions of the chosen ruleset, newest first, with the ruleset's id and name. */
async function versionsOf(session: ApiSession, args: VersionArgs, purpose: string) {
  const connected = await session.connect();
  if (!connected) return undefined;
  const chosen = await chooseRuleset(session, connected, args, purpose);
  if (!chosen) return undefined;
  const versions = newestFirst(await session.progress(`Listing the versions of ${chosen.label}`, (signal) => connected.client.listVersions(chosen.ref, { signal })));
  return { connected, chosen, versions };
}

/** `Rulesets: Show Versions`: pick a version (or `args.version`) and open it read-only. */
export async function showVersions(session: ApiSession, documents: VersionDocuments, args: VersionArgs = {}): Promise<Outcome<{ uri: string }>> {
  try {
    const found = await versionsOf(session, args, 'Show Versions');
    if (!found) return refused('cancelled');
    const { connected, chosen, versions } = found;
    if (versions.length === 0) return refused('no-versions');
    const version =
      args.version ??
      (
        await vscode.window.showQuickPick(
          versions.map((v, i) => describeVersion(v, i === 0)),
          { title: `Rulesets: versions of ${chosen.label} (${describeScope(connected.scope)})`, placeHolder: 'Open a version (read-only); then "Compare with Local" in its title bar' },
        )
      )?.version;
    if (!version) return refused('cancelled');
    const item = versions.find((v) => v.version === version) ?? versions[0];
    const uri = documents.uri({
      scope: connected.scope,
      rulesetId: item.id,
      version,
      name: item.name,
      format: (chosen.document && rulesetFileFormatOf(chosen.document)) ?? 'yaml',
      ...(chosen.document ? { local: chosen.document.uri.toString() } : {}),
    });
    await vscode.window.showTextDocument(uri, { preview: true });
    return { done: true, uri: uri.toString() };
  } catch (error) {
    return refused('error', session.report(error));
  }
}

/** `Compare with Local`: the version's document beside the file it was opened from. */
export async function compareWithLocal(uri?: vscode.Uri): Promise<Outcome> {
  const scope = uri ?? vscode.window.activeTextEditor?.document.uri;
  const ref = scope?.scheme === VERSION_SCHEME ? parseVersionAddress(scope.path, scope.query) : undefined;
  if (!scope || !ref) {
    void vscode.window.showWarningMessage('Rulesets: Compare with Local works on a version opened with Rulesets: Show Versions.');
    return refused('not-a-version');
  }
  if (!ref.local) {
    void vscode.window.showWarningMessage('Rulesets: this version was not opened from a local file; run Show Versions in the file to compare with it.');
    return refused('no-local-file');
  }
  const local = vscode.Uri.parse(ref.local);
  await vscode.commands.executeCommand('vscode.diff', scope, local, `${ref.name} v${ref.version} ↔ ${vscode.workspace.asRelativePath(local, false)}`);
  return { done: true };
}

/** `Rulesets: Delete Version`: one version that is not the latest, after a modal confirm. */
export async function deleteVersion(session: ApiSession, args: VersionArgs = {}): Promise<Outcome<{ id: string; version: string }>> {
  try {
    const found = await versionsOf(session, args, 'Delete Version');
    if (!found) return refused('cancelled');
    const { connected, chosen, versions } = found;
    const older = versions.slice(1);
    if (older.length === 0) {
      void vscode.window.showInformationMessage(`Rulesets: ${chosen.label} has only its latest version, which cannot be deleted on its own (Delete Ruleset deletes it all).`);
      return refused('only-latest');
    }
    const version =
      args.version ??
      (await vscode.window.showQuickPick(older.map((v) => describeVersion(v, false)), { title: `Rulesets: delete a version of ${chosen.label}`, placeHolder: `The latest, version ${versions[0].version}, stays` }))?.version;
    if (!version) return refused('cancelled');
    const item = versions.find((v) => v.version === version) ?? versions[0];
    const action = 'Delete Version';
    const answer = args.yes !== undefined ? (args.yes ? action : undefined) : await session.ask(`Delete version ${version} of ${quoted(item.name)}?`, `From ${describeScope(connected.scope)}. This cannot be undone; version numbers are never reused.`, action);
    if (answer !== action) return refused('declined');
    await session.progress(`Deleting version ${version} of ${item.name}`, (signal) => connected.client.deleteVersion(item.id, version, { signal }));
    void vscode.window.showInformationMessage(`Rulesets: deleted version ${version} of ${quoted(item.name)}.`);
    return { done: true, id: item.id, version };
  } catch (error) {
    return refused('error', session.report(error));
  }
}

/** `Rulesets: Delete Ruleset`: all its versions, after a modal confirm that names it. */
export async function deleteRuleset(session: ApiSession, args: RulesetArgs = {}): Promise<Outcome<{ id: string }>> {
  try {
    const connected = await session.connect();
    if (!connected) return refused('not-connected');
    const chosen = await chooseRuleset(session, connected, args, 'Delete Ruleset');
    if (!chosen) return refused('cancelled');
    const { client, scope } = connected;
    const ruleset: Ruleset = await session.progress(`Reading ${chosen.label}`, (signal) =>
      typeof chosen.ref === 'string' ? client.getRuleset(chosen.ref, { signal }) : client.getEntryPoint(chosen.ref.phase, { signal }),
    );
    const action = 'Delete Ruleset';
    const answer =
      args.yes !== undefined
        ? args.yes
          ? action
          : undefined
        : await session.ask(
            `Delete the ruleset ${quoted(ruleset.name)} with all its versions?`,
            `Ruleset ${ruleset.id} (${ruleset.kind}, phase ${ruleset.phase}, version ${ruleset.version}) in ${describeScope(scope)}. This cannot be undone.`,
            action,
          );
    if (answer !== action) return refused('declined');
    await session.progress(`Deleting ${ruleset.name}`, (signal) => client.deleteRuleset(ruleset.id, { signal }));
    const stale = chosen.local?.id === ruleset.id ? ` ${vscode.workspace.asRelativePath(chosen.document!.uri, false)} still records its id: remove \`id\` and \`version\` to create it anew.` : '';
    void vscode.window.showInformationMessage(`Rulesets: deleted ${quoted(ruleset.name)} (${ruleset.id}).${stale}`);
    return { done: true, id: ruleset.id };
  } catch (error) {
    return refused('error', session.report(error));
  }
}

export interface TagArgs {
  readonly id?: string;
  readonly version?: string;
  readonly tag?: string;
}

/** `Rulesets: Rules by Tag`: the rules of a managed ruleset's version that carry a tag, in a read-only document. */
export async function rulesByTag(session: ApiSession, documents: VersionDocuments, args: TagArgs = {}): Promise<Outcome<{ uri: string; rules: number }>> {
  try {
    const connected = await session.connect();
    if (!connected) return refused('not-connected');
    const { client, scope } = connected;
    const id = args.id ?? (await pickRuleset(session, connected, 'Rules by Tag', { managed: true }))?.ref;
    if (typeof id !== 'string') return refused('cancelled');
    // Given a tag, a caller that names no version means the latest.
    const version =
      args.version ??
      (args.tag !== undefined
        ? ''
        : await vscode.window.showInputBox({ title: 'Rulesets: Rules by Tag', prompt: 'The version (empty: the latest)', validateInput: (v) => (v === '' || /^\d+$/.test(v) ? undefined : 'A version number, such as 3') }));
    if (version === undefined) return refused('cancelled');
    const tag = args.tag ?? (await vscode.window.showInputBox({ title: 'Rulesets: Rules by Tag', prompt: 'The tag (a category of the managed rules, such as wordpress)', validateInput: (v) => (v.trim() ? undefined : 'Enter a tag') }));
    if (!tag) return refused('cancelled');
    const result = await session.progress(`Reading the rules tagged ${tag}`, async (signal) => {
      const exact = version || (await client.getRuleset(id, { signal })).version;
      return client.rulesByTag(id, exact, tag.trim(), { signal });
    });
    const uri = documents.withText({ scope, rulesetId: id, version: result.version, name: result.name, format: 'yaml', tag: tag.trim() }, serializeRuleset(result, 'yaml'));
    await vscode.window.showTextDocument(uri, { preview: true });
    if (result.rules.length === 0) void vscode.window.showInformationMessage(`Rulesets: no rule of ${quoted(result.name)} version ${result.version} carries the tag ${tag.trim()}.`);
    return { done: true, uri: uri.toString(), rules: result.rules.length };
  } catch (error) {
    return refused('error', session.report(error));
  }
}
