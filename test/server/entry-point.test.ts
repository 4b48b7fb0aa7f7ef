/**
 * The bundled server over stdio, as an editor: files that one item of `targets:` sends to one
 * zone give the phase's entry point their rules together; each conflict of their merge is a
 * diagnostic on its line of the file that has it, the other files read as saved or as open.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { ROOT, startClient, type TestClient } from './lsp-client';

before(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
});

/** A zone's WAF ruleset with these rules: a `ref` and, after a space, what places it. */
const rulesetOf = (rules: readonly string[]) =>
  `name: default\nkind: zone\nphase: http_request_firewall_custom\nrules:\n${rules.map((r) => `  - ref: ${r.split(' ')[0]}\n    action: block\n    expression: http.request.uri.path eq "/${r.split(' ')[0]}"\n${r.includes(' ') ? `    ${r.split(' ').slice(1).join(' ')}\n` : ''}`).join('')}`;

function shown(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.range.start.line + 1} ${d.code}`);
}

describe('server: several files giving one entry point its rules', () => {
  let folder: string;
  let client: TestClient;
  const uriOf = (name: string) => pathToFileURL(join(folder, name)).href;

  before(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'rulesets-entry-')));
    writeFileSync(join(folder, '.rulesets.yaml'), 'targets:\n  - files: "waf/*.yaml"\n    zone: "0123456789abcdef0123456789abcdef"\n');
    mkdirSync(join(folder, 'waf'));
    mkdirSync(join(folder, 'other'));
    writeFileSync(join(folder, 'waf', 'a.yaml'), rulesetOf(['admin', 'login after: bots']));
    // Not in the target: its refs are its own entry point's.
    writeFileSync(join(folder, 'other', 'c.yaml'), rulesetOf(['edge']));
    client = await startClient({ workspaceFolders: [pathToFileURL(folder).href] });
  });
  after(async () => {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows a ref another file of the target has, a before/after naming no rule, and a cycle, each on its line', async () => {
    const uri = uriOf('waf/b.yaml');
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'yaml', rulesetOf(['admin', 'bots after: login', 'tarpit before: edge']));
    const { diagnostics } = await published;
    assert.deepEqual(shown(diagnostics), ['5 ref-shared', '11 rule-order-cycle', '15 unknown-rule-ref']);
    assert.match(diagnostics[0].message, /already the ref of a rule at waf\/a\.yaml:5/);
    assert.match(diagnostics[1].message, /login → bots → login|bots → login → bots/);
  });

  it('accepts a file whose rules are placed by refs of the target\'s other files', async () => {
    const uri = uriOf('waf/d.yaml');
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'yaml', rulesetOf(['late after: login', 'early before: admin']));
    assert.deepEqual(shown((await published).diagnostics), []);
  });

  it('leaves files no target names alone: the same refs are no conflict, a misspelt ref in the file is', async () => {
    const uri = uriOf('other/e.yaml');
    const published = client.nextDiagnostics(uri, 1);
    client.open(uri, 'yaml', rulesetOf(['admin', 'x after: admn']));
    const { diagnostics } = await published;
    assert.deepEqual(shown(diagnostics), ['11 unknown-rule-ref']);
    assert.match(diagnostics[0].message, /did you mean .admin./);
  });


  it('checks the other open files of the target again when one of them is edited', async () => {
    const a = uriOf('waf/a.yaml');
    const g = uriOf('waf/g.yaml');
    const first = client.nextDiagnostics(g, 1);
    client.open(g, 'yaml', rulesetOf(['gate before: login']));
    assert.deepEqual(shown((await first).diagnostics), []);
    const opened = client.nextDiagnostics(a, 1);
    // Opening a peer checks g.yaml again too.
    const rechecked = client.nextDiagnostics(g);
    client.open(a, 'yaml', rulesetOf(['admin', 'login after: bots']));
    await opened;
    assert.deepEqual(shown((await rechecked).diagnostics), []);
    // The rule g.yaml places itself by is renamed, unsaved: g.yaml's `before` names no rule now.
    const again = client.nextDiagnostics(g);
    client.change(a, 2, [{ text: rulesetOf(['admin', 'signin after: bots']) }]);
    assert.deepEqual(shown((await again).diagnostics), ['8 unknown-rule-ref']);
  });
});
