/**
 * The Plan view (issue 37): `Rulesets: Plan` plans every target of the workspace's
 * `.rulesets.yaml` files, as `rulesets plan` does (targetsOf, resolveTargets, planTargets), and
 * shows target → ruleset → changed rule; a ruleset or rule opens the diff editor, live against
 * what would be written; `Rulesets: Apply Plan` applies exactly the plan shown (applyPlan
 * refuses it when a live version moved since) after a modal confirm with the counts.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import * as vscode from 'vscode';
import {
  applyLimitsOf,
  applyPlan,
  auditLogWriter,
  driftLine,
  emptyLock,
  lockFileText,
  lockKey,
  loadTerraformParser,
  readLockFile,
  withDrift,
  withLockEntry,
  planTargets,
  RulesetsClient,
  rulesetFormatOfPath,
  rulesetName,
  savedPlanOf,
  summaryLine,
  TargetResolutionError,
  TargetsError,
  type EstatePlan,
  type LockFile,
  type ProjectConfig,
  type RulesetPlan,
  type Target,
} from '../../../server/src/core';
import { planFileReader, workspaceEstate, WorkspaceConfigs } from './plan-files';
import type { ApiSession } from './session';
import { readSettings, type CommandArgs, type Outcome } from './session';
import { scopeOfSettings } from './scope';
import type { Scope } from './scope';

/** The view's id (package.json `views.explorer`). */
export const PLAN_VIEW = 'rulesetsPlan';
/** The documents of the diff editor: `rulesets-plan:/<plan>/<ruleset>/<live|written>/<name>.json`. */
export const PLAN_SCHEME = 'rulesets-plan';


type RulePlan = RulesetPlan['rules'][number];
type Node =
  | { readonly kind: 'target'; readonly index: number }
  | { readonly kind: 'ruleset'; readonly target: number; readonly index: number }
  | { readonly kind: 'rule'; readonly target: number; readonly ruleset: number; readonly rule: RulePlan }
  | { readonly kind: 'message'; readonly text: string; readonly tooltip?: string };

const RULE_ICONS: Record<string, [string, string]> = {
  add: ['add', 'gitDecoration.addedResourceForeground'],
  remove: ['remove', 'gitDecoration.deletedResourceForeground'],
  change: ['edit', 'gitDecoration.modifiedResourceForeground'],
  move: ['arrow-swap', 'gitDecoration.renamedResourceForeground'],
  unmanaged: ['question', 'descriptionForeground'],
};

/** A ruleset's counts in words, the changes only: `1 to add, 2 to change`. */
function countsText(counts: RulesetPlan['counts'], settings = 0): string {
  const parts = [
    counts.add && `${counts.add} to add`,
    counts.change && `${counts.change} to change`,
    counts.move && `${counts.move} to move`,
    counts.remove && `${counts.remove} to remove`,
    settings && `${settings} setting${settings === 1 ? '' : 's'} to change`,
    counts.unmanaged && `${counts.unmanaged} unmanaged`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'no changes';
}

/** The rules as a person compares them: the fields in one order on both sides, the service's bookkeeping and defaults left out. */
function comparable(body: { description?: string; rules?: readonly object[] }): string {
  const FIRST = ['id', 'ref', 'description', 'expression', 'action', 'action_parameters', 'enabled', 'logging', 'ratelimit', 'exposed_credential_check', 'categories'];
  const rules = (body.rules ?? []).map((rule) => {
    // The service's defaults (an empty description, enabled) are left out on both sides, as the plan's diff fills them in.
    const entries = Object.entries(rule).filter(([key, value]) => key !== 'version' && key !== 'last_updated' && !(key === 'description' && value === '') && !(key === 'enabled' && value === true));
    entries.sort(([a], [b]) => (FIRST.indexOf(a) === -1 ? 99 : FIRST.indexOf(a)) - (FIRST.indexOf(b) === -1 ? 99 : FIRST.indexOf(b)) || a.localeCompare(b));
    return Object.fromEntries(entries);
  });
  return `${JSON.stringify({ description: body.description ?? '', rules }, null, 2)}\n`;
}

/** What the Plan command gives its callers (tests): the plan's summary line, or why there is none. */
export type PlanOutcome = Outcome<{ summary: string; changes: boolean; errors: number }>;
export type ApplyOutcome = Outcome<{ complete: boolean; applied: number }>;

export class PlanView implements vscode.TreeDataProvider<Node>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private plan: EstatePlan | undefined;
  /** Files the plan leaves out (no target names them), shown below the targets as `rulesets plan` warns of them. */
  private notPlanned: Node[] = [];
  private config: ProjectConfig | undefined;
  /** The folder of the `.rulesets.yaml` whose `apply:`, lock file and audit log the plan and apply use (the first with targets, as the CLI's current folder has one). */
  private folder: string | undefined;
  private baseUrl = '';
  private message: Node | undefined = { kind: 'message', text: 'Run Rulesets: Plan to see what applying the workspace would change.' };
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly clients = new Map<string, RulesetsClient>();

  constructor(private readonly session: ApiSession) {}

  dispose(): void {
    this.changed.dispose();
  }

  getChildren(node?: Node): Node[] {
    const plan = this.plan;
    if (!node) {
      if (!plan || this.message) return this.message ? [this.message] : [];
      return [...plan.targets.map((_, index): Node => ({ kind: 'target', index })), ...this.notPlanned];
    }
    if (!plan) return [];
    if (node.kind === 'target') {
      const target = plan.targets[node.index];
      const errors: Node[] = target.errors.map((e) => ({ kind: 'message', text: `${e.file}${e.label ? ` (${e.label})` : ''}: ${e.message.split('\n')[0]}`, tooltip: e.message }));
      return [...target.rulesets.map((_, index): Node => ({ kind: 'ruleset', target: node.index, index })), ...errors];
    }
    if (node.kind === 'ruleset') return plan.targets[node.target].rulesets[node.index].rules.filter((r) => r.action !== 'unchanged' || r.drift).map((rule) => ({ kind: 'rule', target: node.target, ruleset: node.index, rule }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text);
      item.tooltip = node.tooltip ?? node.text;
      return item;
    }
    const plan = this.plan!;
    if (node.kind === 'target') {
      const target = plan.targets[node.index];
      const item = new vscode.TreeItem(target.target.label, vscode.TreeItemCollapsibleState.Expanded);
      // Ids of this plan only: a ruleset that had nothing to do last time is expanded now that it has.
      item.id = `${this.generation}/${node.index}`;
      item.description = `${target.target.scope.kind} ${target.target.scope.id}`;
      item.iconPath = new vscode.ThemeIcon(target.errors.length > 0 ? 'error' : target.target.scope.kind === 'zone' ? 'globe' : 'organization');
      return item;
    }
    if (node.kind === 'ruleset') {
      const ruleset = plan.targets[node.target].rulesets[node.index];
      const changes = ruleset.rules.some((r) => r.action !== 'unchanged' && r.action !== 'unmanaged') || ruleset.settings.length > 0;
      const item = new vscode.TreeItem(`${ruleset.file}${ruleset.label !== undefined ? ` ${ruleset.label}` : ''}`, changes ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.id = `${this.generation}/${node.target}/${node.index}`;
      item.description = `${ruleset.phase} · ${countsText(ruleset.counts, ruleset.settings.length)}${ruleset.liveVersion ? '' : ' · new'}`;
      item.tooltip = `${ruleset.file} → ${ruleset.destination.kind === 'entrypoint' ? `the ${ruleset.destination.phase} entry point` : `ruleset ${ruleset.destination.id}`}${ruleset.liveVersion ? `, live version ${ruleset.liveVersion}` : ' (created by the apply)'}`;
      const drift = driftLine(ruleset);
      if (ruleset.drift?.changedLive) item.description += ' · drift: changed live';
      if (drift) item.tooltip += `\n${drift}`;
      item.iconPath = ruleset.drift?.changedLive ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')) : new vscode.ThemeIcon(changes ? 'diff' : 'check');
      item.contextValue = 'rulesetPlan';
      item.command = { command: 'rulesets.showPlanDiff', title: 'Show Diff', arguments: [{ target: node.target, ruleset: node.index }] };
      return item;
    }
    const rule = node.rule;
    const action = rule.action === 'change' && rule.moved ? 'change' : rule.action;
    const item = new vscode.TreeItem(rule.name);
    const words: Record<string, string> = { add: 'added', remove: 'removed', change: rule.moved ? 'changed and moved' : 'changed', move: 'moved', unmanaged: 'unmanaged (kept)', unchanged: 'unchanged' };
    const where = rule.action === 'move' || rule.moved ? ` (${rule.from} → ${rule.to})` : '';
    const drift = rule.drift ? ` · drift: ${rule.drift === 'edited-live' ? 'edited' : 'added'} live since the last apply${rule.undone ? ', the apply undoes it' : ''}` : '';
    item.description = `${words[action] ?? action}${where}${rule.action === 'change' ? `: ${rule.fields.map((f) => f.path).join(', ')}` : ''}${drift}`;
    const [icon, colour] = RULE_ICONS[action] ?? ['circle-outline', 'descriptionForeground'];
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(colour));
    item.command = { command: 'rulesets.showPlanDiff', title: 'Show Diff', arguments: [{ target: node.target, ruleset: node.ruleset }] };
    return item;
  }

  /** `Rulesets: Plan`: the workspace's targets planned against what is live. */
  async runPlan(): Promise<PlanOutcome> {
    if (!(await this.connection())) return { done: false, reason: 'not-connected' };
    try {
      const result = await this.session.progress('Planning the workspace', async (signal) => {
        const found = await this.findTargets(signal);
        if (typeof found === 'string') return found;
        // As the CLI does before it plans: the Terraform parser (WebAssembly) for .tf files.
        if (found.targets.some((t) => t.files.some((f) => rulesetFormatOfPath(f) === 'hcl'))) await loadTerraformParser();
        const planned = await planTargets(found.targets, {
          clientFor: (scope) => this.clientFor(scope),
          read: found.read,
          shownPath: (path) => shown(path),
          signal,
        });
        // Drift, as `rulesets plan` tells it: against what the last apply recorded in the lock file.
        const lock = readLock(found.folder);
        return { plan: lock ? withDrift(planned, lock) : planned, config: found.config, folder: found.folder, notPlanned: found.notPlanned };
      });
      if (typeof result === 'string') {
        this.show(undefined, result);
        void vscode.window.showWarningMessage(`Rulesets: ${result}`);
        return { done: false, reason: 'no-targets', message: result };
      }
      this.config = result.config;
      this.folder = result.folder;
      this.notPlanned = result.notPlanned;
      this.show(result.plan, result.plan.targets.length === 0 ? 'No ruleset files to plan.' : undefined);
      void vscode.commands.executeCommand(`${PLAN_VIEW}.focus`);
      const summary = summaryLine(result.plan);
      this.session.log.info(`plan: ${summary}`);
      return { done: true, summary, changes: result.plan.changes, errors: result.plan.errors };
    } catch (error) {
      const message = this.session.report(error);
      this.show(undefined, `The plan failed: ${message}`);
      return { done: false, reason: 'error', message };
    }
  }

  /** `Rulesets: Apply Plan`: exactly the plan shown, after a modal confirm; the service refuses nothing silently. */
  async runApply(args: CommandArgs = {}): Promise<ApplyOutcome> {
    const plan = this.plan;
    if (!plan) {
      void vscode.window.showWarningMessage('Rulesets: there is no plan to apply: run Rulesets: Plan first.');
      return { done: false, reason: 'no-plan' };
    }
    if (plan.errors > 0) {
      void vscode.window.showErrorMessage('Rulesets: the plan has errors, so it is not applied: fix them and plan again.');
      return { done: false, reason: 'plan-errors' };
    }
    if (!plan.changes) {
      void vscode.window.showInformationMessage('Rulesets: the plan has nothing to do.');
      return { done: false, reason: 'no-changes' };
    }
    const rulesets = plan.targets.reduce((n, t) => n + t.rulesets.filter((r) => r.rules.some((x) => x.action !== 'unchanged' && x.action !== 'unmanaged') || r.settings.length > 0).length, 0);
    const question = `Apply the plan to ${plan.targets.length} target${plan.targets.length === 1 ? '' : 's'}?`;
    const detail = `${countsText(plan.counts, plan.counts.settings)}, in ${rulesets} ruleset${rulesets === 1 ? '' : 's'}. Refused if a live version moved since the plan.`;
    const confirmed = args.yes ?? (await this.session.ask(question, detail, 'Apply')) === 'Apply';
    if (!confirmed) return { done: false, reason: 'declined' };
    const generation = this.generation;
    try {
      const saved = savedPlanOf(plan, { baseUrl: this.baseUrl });
      const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Rulesets: Applying the plan', cancellable: true }, async (progress, token) => {
        const abort = new AbortController();
        const subscription = token.onCancellationRequested(() => abort.abort());
        let done = 0;
        try {
          return await applyPlan(saved, {
            clientFor: (scope) => this.clientFor(scope),
            limits: applyLimitsOf(this.config?.apply),
            audit: this.folder ? auditLogWriter(resolve(this.folder, this.config?.apply?.audit_log ?? '.rulesets/audit.log')) : undefined,
            who: `${process.env.USER || userInfo().username} (VS Code)`,
            onLocked: this.folder ? lockRecorder(join(this.folder, '.rulesets', 'lock.json')) : undefined,
            signal: abort.signal,
            onOutcome: (applied) => {
              done += 1;
              progress.report({ message: `${rulesetName(applied.ruleset)} (${applied.target.label}): ${applied.outcome.state}`, increment: 100 / Math.max(1, saved.targets.reduce((n, t) => n + t.rulesets.length, 0)) });
              this.session.log.info(`apply: ${rulesetName(applied.ruleset)} of ${applied.target.label}: ${applied.outcome.state} (${done})`);
            },
          });
        } finally {
          subscription.dispose();
        }
      });
      const applied = result.rulesets.filter((r) => r.outcome.state === 'applied').length;
      if (generation === this.generation) this.show(undefined, result.complete ? 'Applied: run Rulesets: Plan to see the workspace against what is live now.' : 'Partly applied: run Rulesets: Plan, then apply again to finish.');
      if (result.complete) void vscode.window.showInformationMessage(`Rulesets: Applied the plan (${applied} ruleset${applied === 1 ? '' : 's'} written).`);
      else {
        const failed = result.rulesets.filter((r) => r.outcome.state === 'not-applied' || r.outcome.state === 'unknown').map((r) => `${rulesetName(r.ruleset)} (${r.target.label}): ${'reason' in r.outcome ? r.outcome.reason : ''}`);
        void vscode.window.showErrorMessage(`Rulesets: the plan was applied in part: ${failed.join('; ')}. Plan and apply again to finish.`);
      }
      return { done: true, complete: result.complete, applied };
    } catch (error) {
      const message = this.session.report(error);
      return { done: false, reason: 'error', message };
    }
  }

  /** The diff editor of a ruleset: live (as read now) on the left, what the apply would write on the right. */
  async showDiff(args: { target?: number; ruleset?: number } = {}): Promise<boolean> {
    const ruleset = this.plan?.targets[args.target ?? -1]?.rulesets[args.ruleset ?? -1];
    if (!ruleset) return false;
    const name = `${rulesetName(ruleset).replace(/[^\w.-]+/g, '_')}.json`;
    const base = `/${this.generation}/${args.target}/${args.ruleset}`;
    const live = vscode.Uri.from({ scheme: PLAN_SCHEME, path: `${base}/live/${name}` });
    const written = vscode.Uri.from({ scheme: PLAN_SCHEME, path: `${base}/written/${name}` });
    const target = this.plan!.targets[args.target!].target;
    await vscode.commands.executeCommand('vscode.diff', live, written, `${rulesetName(ruleset)} (${target.label}): live v${ruleset.liveVersion ?? '—'} ↔ planned`, { preview: true });
    return true;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const m = /^\/(\d+)\/(\d+)\/(\d+)\/(live|written)\//.exec(uri.path);
    if (!m || Number(m[1]) !== this.generation) return '// This plan is no longer shown: run Rulesets: Plan again.\n';
    const target = this.plan?.targets[Number(m[2])];
    const ruleset = target?.rulesets[Number(m[3])];
    if (!target || !ruleset) return '';
    if (m[4] === 'written') return comparable({ description: ruleset.body?.description ?? ruleset.settings.find((s) => s.path === 'description')?.new as string | undefined, rules: ruleset.written as readonly object[] });
    if (!ruleset.liveVersion) return comparable({ rules: [] });
    const client = this.clientFor(target.target.scope);
    const live = ruleset.destination.kind === 'entrypoint' ? await client.getEntryPoint(ruleset.destination.phase) : await client.getRuleset(ruleset.destination.id);
    return comparable(live);
  }

  private show(plan: EstatePlan | undefined, message: string | undefined): void {
    this.plan = plan;
    this.generation += 1;
    this.message = message ? { kind: 'message', text: message } : undefined;
    this.changed.fire(undefined);
  }

  private async connection(): Promise<{ baseUrl: string; credentials: NonNullable<Awaited<ReturnType<ApiSession['credentials']['get']>>> } | undefined> {
    const baseUrl = readSettings().baseUrl.trim();
    if (!baseUrl) {
      void vscode.window.showWarningMessage("Rulesets: Set rulesets.api.baseUrl to the API's base URL to plan (it ends in /client/v4).");
      return undefined;
    }
    const credentials = await this.session.credentials.get();
    if (!credentials) {
      void vscode.window.showWarningMessage('Rulesets: No API credentials stored: run Rulesets: Set API Token (or Set API Email and Key).');
      return undefined;
    }
    if (baseUrl !== this.baseUrl) this.clients.clear();
    this.baseUrl = baseUrl;
    this.credentials = credentials;
    return { baseUrl, credentials };
  }

  private credentials: Awaited<ReturnType<ApiSession['credentials']['get']>>;

  private clientFor(scope: Scope): RulesetsClient {
    const key = `${scope.kind}:${scope.id}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new RulesetsClient({ baseUrl: this.baseUrl, credentials: this.credentials!, scope, log: (line) => this.session.log.info(line) });
      this.clients.set(key, client);
    }
    return client;
  }

  /**
   * The workspace's targets as `rulesets plan` at its root finds them (workspaceEstate: the same
   * ruleset files, the same `targets:`, zone names looked up); files no `targets:` governs go to
   * the account or zone of the settings, as Deploy's do. Or why nothing can be planned.
   */
  private async findTargets(signal: AbortSignal): Promise<{ targets: Target[]; notPlanned: Node[]; read: (path: string) => string; config: ProjectConfig | undefined; folder: string | undefined } | string> {
    // As `rulesets plan` searches a folder: node_modules and hidden folders (.git, .terraform, .rulesets) are skipped.
    const found = await vscode.workspace.findFiles('**/*.{json,yaml,yml,tf}', '{**/node_modules/**,**/.*/**}');
    const configs = new WorkspaceConfigs();
    const read = planFileReader();
    const settingsScope = scopeOfSettings(readSettings());
    let estate: Awaited<ReturnType<typeof workspaceEstate>>;
    try {
      estate = await workspaceEstate(
        found.map((f) => f.fsPath),
        {
          configs,
          read,
          zoneFinder: () => this.clientFor(settingsScope ?? { kind: 'zone', id: 'zone-lookup' }),
          defaultScope: () => settingsScope,
          shown,
          signal,
        },
      );
    } catch (error) {
      if (error instanceof TargetsError) return error.problems.join('; ');
      if (error instanceof TargetResolutionError) return `${error.message}: give the zone's id in targets: instead`;
      throw error;
    }
    if (estate.files.length === 0) return 'No ruleset files in the workspace to plan.';
    const notPlanned: Node[] = [
      ...estate.unplaced.map(({ file, config }): Node => ({ kind: 'message', text: `${shown(file)}: not planned`, tooltip: `No target of ${shown(config)} names it, so it is not planned.` })),
      ...estate.unscoped.map((file): Node => ({ kind: 'message', text: `${shown(file)}: not planned`, tooltip: 'No targets: of a .rulesets.yaml names it, and no account or zone is chosen (Rulesets: Choose Account or Zone), so it is not planned.' })),
    ];
    if (estate.targets.length === 0) return `No ruleset file of the workspace has a target: add targets: to .rulesets.yaml, or choose an account or zone (Rulesets: Choose Account or Zone). ${estate.files.length} file${estate.files.length === 1 ? '' : 's'} not planned.`;
    // The first configuration with targets: its `apply:` limits, its lock file and its audit log (the CLI uses its current folder's).
    const first = configs.withTargets()[0];
    const folder = first?.folder ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return { targets: [...estate.targets], notPlanned, read, config: first?.config, folder };
  }
}

/** The lock file beside `.rulesets.yaml` (what the last apply wrote), or undefined when there is none yet. */
function readLock(folder: string | undefined): LockFile | undefined {
  const path = folder && join(folder, '.rulesets', 'lock.json');
  if (!path || !existsSync(path)) return undefined;
  return readLockFile(readFileSync(path, 'utf8'), path);
}

/** Records each ruleset the apply leaves as planned in the lock file, rewritten whole (through a rename) so a stopped apply keeps what landed; as `rulesets apply` does. */
function lockRecorder(path: string): (target: { scope: Scope }, ruleset: { destination: RulesetPlan['destination'] }, entry: Parameters<typeof withLockEntry>[2]) => void {
  let lock = readLock(dirname(dirname(path))) ?? emptyLock();
  return (target, ruleset, entry) => {
    const key = lockKey(target.scope, ruleset.destination);
    if (JSON.stringify(lock.rulesets[key]) === JSON.stringify(entry)) return;
    lock = withLockEntry(lock, key, entry);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, lockFileText(lock));
    renameSync(`${path}.tmp`, path);
  };
}

/** A path as the workspace shows it. */
function shown(path: string): string {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(path));
  return folder ? relative(folder.uri.fsPath, path) : path;
}
