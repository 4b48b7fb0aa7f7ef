/**
 * Test a packet reads `.tf` files in the extension host (its lenses and its verdicts), so the
 * HCL parser must be loaded here too, as the language server loads its own. It is loaded the
 * first time a Terraform document is open: a workspace of JSON and YAML never pays for it.
 */
import * as vscode from 'vscode';
import { formatOfDocument, loadTerraformParser } from '../../server/src/core';


/** Loads the parser once a Terraform document is open; `loaded` runs when `.tf` files can be read. */
export function loadTerraformParserWhenNeeded(context: vscode.ExtensionContext, loaded: () => void, log: vscode.LogOutputChannel): void {
  let started = false;
  const start = (document: vscode.TextDocument) => {
    if (started || formatOfDocument(document.languageId, document.uri.path) !== 'hcl') return;
    started = true;
    loadTerraformParser().then(loaded, (error: unknown) => log.error(`the Terraform parser did not load, so Test a packet does not read .tf files: ${String(error)}`));
  };
  for (const document of vscode.workspace.textDocuments) start(document);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(start));
}
