/**
 * "Test a packet" (issue 6): a code lens over each ruleset runs `rulesets.testPacket`, which asks
 * for a packet (recent ones first), evaluates the document's current text in the extension (no
 * server round trip) and shows the verdict: a note after the deciding rule's line and a message.
 * With `{ uri, packet }` the command asks nothing, so tests and other extensions can drive it.
 */
import * as vscode from 'vscode';
import { plainText, readSettings, type Settings } from '../../server/src/core';
import { DOCUMENT_SELECTOR, formatOf } from './documents';
import { isFailure, packetLensOffsets, rememberPacket, testPacket, type PacketVerdict } from './packet-test';

export interface TestPacketArgs {
  readonly uri?: vscode.Uri | string;
  /** The packet: an object of field values, or its JSON text. */
  readonly packet?: unknown;
  /** Where in the file the ruleset is (its lens): a Terraform or octorules file has several. */
  readonly offset?: number;
}

export type TestPacketResult =
  | { readonly verdict: PacketVerdict['verdict']; readonly rule?: PacketVerdict['rule']; readonly message: string }
  | { readonly error: string }
  | { readonly cancelled: true };

const RECENT_KEY = 'rulesets.recentPackets';
const EXAMPLE = '{"ip.src": "192.0.2.7", "ip.proto": "tcp", "tcp.dstport": 22}';

/** The `rulesets.*` settings for a document, read as the language server reads them. */
function settingsOf(document: vscode.TextDocument): Settings {
  return readSettings(vscode.workspace.getConfiguration('rulesets', document.uri));
}

export class PacketLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  /** Asks VS Code for the lenses again: a Terraform file has them once its parser is loaded. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const format = formatOf(document);
    if (!format) return [];
    return packetLensOffsets(document.getText(), format, document.uri.path, settingsOf(document)).map((offset) => {
      const start = document.positionAt(offset);
      return new vscode.CodeLens(new vscode.Range(start, start), {
        title: 'Test a packet',
        command: 'rulesets.testPacket',
        tooltip: 'What this ruleset, as the editor has it, does with a packet you describe',
        arguments: [{ uri: document.uri, offset }],
      });
    });
  }
}

/** Registers the lenses and the command; returns the lenses, to be refreshed when Terraform files can be read. */
export function registerPacketTesting(context: vscode.ExtensionContext): PacketLenses {
  const lenses = new PacketLenses();
  const decoration = vscode.window.createTextEditorDecorationType({
    after: { margin: '0 0 0 2em', color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic' },
  });
  /** The documents showing a verdict: it goes when the text changes. */
  const decorated = new Set<string>();
  const clear = (uri: vscode.Uri) => {
    if (!decorated.delete(uri.toString())) return;
    for (const editor of vscode.window.visibleTextEditors) if (editor.document.uri.toString() === uri.toString()) editor.setDecorations(decoration, []);
  };
  context.subscriptions.push(
    decoration,
    lenses,
    vscode.languages.registerCodeLensProvider(DOCUMENT_SELECTOR, lenses),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) clear(event.document.uri);
    }),
    vscode.commands.registerCommand('rulesets.testPacket', async (arg: unknown): Promise<TestPacketResult> => {
      const args = (arg instanceof vscode.Uri ? { uri: arg } : typeof arg === 'object' && arg !== null ? arg : {}) as TestPacketArgs;
      const document = await documentOf(args);
      const format = document && formatOf(document);
      if (!document || !format) {
        const error = 'Open a ruleset file (JSON, YAML or Terraform) to test a packet against it.';
        void vscode.window.showErrorMessage(`Rulesets: ${error}`);
        return { error };
      }
      const recent = context.workspaceState.get<string[]>(RECENT_KEY, []);
      const packet = args.packet !== undefined ? args.packet : await askPacket(recent);
      if (packet === undefined) return { cancelled: true };
      const result = testPacket(document.getText(), format, packet, settingsOf(document), args.offset);
      if (isFailure(result)) {
        const what = result.cause === 'packet' ? 'the packet' : 'the ruleset';
        // Notifications show plain text: code quoted as in the Problems panel.
        void vscode.window.showErrorMessage(`Rulesets: ${what}: ${plainText(result.error)}`);
        clear(document.uri);
        return { error: result.error };
      }
      if (typeof packet === 'string') await context.workspaceState.update(RECENT_KEY, rememberPacket(recent, packet));
      clear(document.uri);
      if (result.note) {
        const line = document.lineAt(document.positionAt(result.note.offset).line);
        const options: vscode.DecorationOptions = { range: new vscode.Range(line.range.end, line.range.end), renderOptions: { after: { contentText: result.note.text } } };
        decorated.add(document.uri.toString());
        for (const editor of vscode.window.visibleTextEditors) if (editor.document.uri.toString() === document.uri.toString()) editor.setDecorations(decoration, [options]);
      }
      void vscode.window.showInformationMessage(`Rulesets: ${plainText(result.message)}`);
      return { verdict: result.verdict, rule: result.rule, message: result.message };
    }),
  );
  return lenses;
}

async function documentOf(args: TestPacketArgs): Promise<vscode.TextDocument | undefined> {
  if (args.uri) return vscode.workspace.openTextDocument(typeof args.uri === 'string' ? vscode.Uri.parse(args.uri) : args.uri);
  return vscode.window.activeTextEditor?.document;
}

/** A recent packet from a quick pick, or a new one typed in an input box; undefined when cancelled. */
async function askPacket(recent: readonly string[]): Promise<string | undefined> {
  if (recent.length > 0) {
    const NEW = '$(add) New packet…';
    const picked = await vscode.window.showQuickPick([{ label: NEW, description: 'type the field values' }, ...recent.map((packet) => ({ label: packet }))], {
      title: 'Rulesets: test a packet',
      placeHolder: 'A recent packet, or a new one',
    });
    if (!picked) return undefined;
    if (picked.label !== NEW) return picked.label;
  }
  const typed = await vscode.window.showInputBox({
    title: 'Rulesets: test a packet',
    prompt: 'The packet\'s field values as JSON; fields it does not give are unknown',
    placeHolder: EXAMPLE,
    value: recent[0],
    ignoreFocusOut: true,
  });
  return typed?.trim() || undefined;
}
