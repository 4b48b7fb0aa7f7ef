/**
 * "Rulesets: Check Workspace" (rulesets.checkWorkspace): finds the workspace's JSON and YAML
 * files and has the language server check them from disk (rulesets/checkFiles), so that the
 * Problems panel lists the problems of every ruleset, open or not, as ESLint's and TypeScript's
 * whole-project checks do. The server decides which files are rulesets, as it does for open
 * documents. Progress is a notification fed by the server's work-done progress; cancelling it
 * cancels the request, which stops the run.
 */
import * as vscode from 'vscode';
import { WorkDoneProgress, type LanguageClient } from 'vscode-languageclient/node';
import { CHECK_FILES_GLOB, CHECK_FILES_REQUEST, type CheckFilesParams, type CheckFilesResult } from '../../server/src/protocol';
import { describeCheck, searchExclude } from './workspace-check';

const SHOW_PROBLEMS = 'Show Problems';

/** The command; it answers the run's counts (undefined when there was no run), for tests and other extensions. */
export function registerCheckWorkspace(context: vscode.ExtensionContext, clientOf: () => LanguageClient | undefined, log: vscode.LogOutputChannel): void {
  let runs = 0;
  context.subscriptions.push(
    vscode.commands.registerCommand('rulesets.checkWorkspace', async (): Promise<CheckFilesResult | undefined> => {
      const client = clientOf();
      if (!vscode.workspace.workspaceFolders?.length) {
        void vscode.window.showInformationMessage('Rulesets: open a folder to check the rulesets in it.');
        return undefined;
      }
      return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Rulesets', cancellable: true }, async (progress, token) => {
        progress.report({ message: 'finding JSON and YAML files…' });
        try {
          // Run from the command palette right after activation, the server may still be starting.
          if (!client) throw new Error('the language server is not running');
          await client.start();
          const exclude = (section: string) => vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude');
          const files = await vscode.workspace.findFiles(CHECK_FILES_GLOB, searchExclude(exclude('files'), exclude('search')), undefined, token);
          if (token.isCancellationRequested) return undefined;
          return await checkFiles(client, files, `rulesets.checkWorkspace.${Date.now()}.${++runs}`, progress, token);
        } catch (error) {
          if (token.isCancellationRequested) return undefined;
          const reason = error instanceof Error ? error.message : String(error);
          log.error(`Check Workspace failed: ${reason}`);
          void vscode.window.showErrorMessage(`Rulesets: Check Workspace failed: ${reason}. The log (Rulesets: Show Log) has more.`);
          return undefined;
        }
      });
    }),
  );
}

async function checkFiles(
  client: LanguageClient,
  files: readonly vscode.Uri[],
  workDoneToken: string,
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  token: vscode.CancellationToken,
): Promise<CheckFilesResult> {
  // VS Code's progress counts increments; the server reports where it is.
  let shown = 0;
  const listening = client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
    if (value.kind === 'end') return;
    const percentage = value.percentage ?? shown;
    progress.report({ message: value.message ? `checking ${value.message}` : undefined, increment: Math.max(0, percentage - shown) });
    shown = Math.max(shown, percentage);
  });
  try {
    const params: CheckFilesParams = { uris: files.map((uri) => client.code2ProtocolConverter.asUri(uri)), workDoneToken };
    const result = await client.sendRequest<CheckFilesResult>(CHECK_FILES_REQUEST, params, token);
    const summary = describeCheck(result);
    // Not awaited: the progress notification closes now, and this one waits for the person.
    void vscode.window.showInformationMessage(`Rulesets: ${summary.message}`, ...(summary.problems ? [SHOW_PROBLEMS] : [])).then((choice) => {
      if (choice === SHOW_PROBLEMS) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
    return result;
  } finally {
    listening.dispose();
  }
}
