/**
 * The status bar item of the API commands: the account or zone they work on and the last
 * deploy to it (`$(cloud-upload) acct 1a2b… · v7 deployed 12:03`). Clicking it chooses the
 * account or zone.
 */
import * as vscode from 'vscode';
import { readSettings, type ApiSession } from './session';
import { describeScopeStatus, scopeOfSettings } from './scope';

export class ScopeStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('rulesets.api.target', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly session: ApiSession) {
    this.item.name = 'Rulesets: deploy target';
    this.item.command = 'rulesets.chooseTarget';
    this.subscriptions.push(
      session.onDidDeploy(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('rulesets.api')) this.refresh();
      }),
    );
    this.refresh();
  }

  /** What the item shows now (tests read it). */
  get text(): string {
    return this.item.text;
  }

  /** Shown once the API is set up at all (a base URL or a scope), so that it is no noise before. */
  refresh(): void {
    const settings = readSettings();
    const scope = scopeOfSettings(settings);
    const view = describeScopeStatus(scope, scope && this.session.lastDeploy(scope));
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    if (scope || settings.baseUrl.trim()) this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
