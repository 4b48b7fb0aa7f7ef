// The extension test/e2e/workbench.ts places (unpacked) in every test workbench's extensions
// folder. It answers the harness on a loopback HTTP port with what the UI cannot tell reliably:
// the active editor's exact text and cursor, and running a command by its id. The harness writes
// the port file path and a secret into control.json next to this file before code-server starts.
const vscode = require('vscode');
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

const { portFile, token } = JSON.parse(fs.readFileSync(path.join(__dirname, 'control.json'), 'utf8'));

// Command results can be anything: keep what JSON can carry, name the rest.
function plain(value) {
  const seen = new WeakSet();
  return JSON.parse(
    JSON.stringify(value === undefined ? null : value, (_key, item) => {
      if (item instanceof vscode.Uri) return item.toString();
      if (typeof item === 'object' && item !== null) {
        if (seen.has(item)) return '[circular]';
        seen.add(item);
      }
      return typeof item === 'function' ? '[function]' : item;
    }),
  );
}

// `{ "$uri": "file:///…" }` in command arguments stands for a vscode.Uri.
function revive(arg) {
  if (arg && typeof arg === 'object' && typeof arg.$uri === 'string') return vscode.Uri.parse(arg.$uri);
  if (Array.isArray(arg)) return arg.map(revive);
  return arg;
}

const operations = {
  async command({ id, args = [] }) {
    return plain(await vscode.commands.executeCommand(id, ...args.map(revive)));
  },
  async setSetting({ key, value }) {
    await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
    return null;
  },
  async activeEditor() {
    // A round trip to the window first: the document changes it sent before are then applied here.
    await vscode.commands.getCommands(true);
    const editor = vscode.window.activeTextEditor;
    if (!editor) return null;
    const { document, selection } = editor;
    return {
      uri: document.uri.toString(),
      fsPath: document.uri.fsPath,
      languageId: document.languageId,
      version: document.version,
      isDirty: document.isDirty,
      text: document.getText(),
      line: selection.active.line + 1,
      column: selection.active.character + 1,
      selectedText: document.getText(selection),
    };
  },
};

function activate(context) {
  const server = http.createServer((request, response) => {
    const reply = (status, body) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || request.url !== `/${token}`) return reply(404, { error: 'not found' });
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', async () => {
      try {
        const { op, ...params } = JSON.parse(body);
        if (!operations[op]) return reply(400, { error: `unknown operation ${op}` });
        reply(200, { result: await operations[op](params) });
      } catch (error) {
        reply(200, { error: String((error && error.stack) || error) });
      }
    });
  });
  server.listen(0, '127.0.0.1', () => {
    fs.writeFileSync(`${portFile}.tmp`, String(server.address().port));
    fs.renameSync(`${portFile}.tmp`, portFile);
  });
  context.subscriptions.push({ dispose: () => server.close() });
}

module.exports = { activate, deactivate() {} };
