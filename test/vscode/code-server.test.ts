/**
 * The extension-host suite (suite/), the one @vscode/test-electron runs in VS Code desktop,
 * run here in code-server: the extension loaded from this folder as in an Extension
 * Development Host, the suite started by the editor itself, its outcome read from a file.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EMULATOR_ACCOUNT_ID, startEmulator, type Emulator } from '../../server/src/api/emulator';
import { startWorkbench, type Workbench } from '../e2e/workbench';
import { buildSuite, ROOT, scratchWorkspace } from './suite-setup';

let workbench: Workbench | undefined;
let workspace = '';
let emulator: Emulator | undefined;

/** Runs only the suite's tests whose full title holds it (one spec while working on it), when set. */
const GREP = process.env.RULESETS_SUITE_GREP;

/** A token easy to spot, so that the suite can tell it never reached a log line. */
const TOKEN = 'suite-S3cret-token-7c1d';

after(async () => {
  await workbench?.close();
  await emulator?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

test('the extension-host suite passes in VS Code (code-server)', async () => {
  const testsPath = buildSuite();
  const result = join(ROOT, '.cache', 'vscode-suite', 'result-code-server.json');
  rmSync(result, { force: true });
  workspace = scratchWorkspace();
  // The API commands' tests (suite/api.spec.ts) deploy to it; the service publishes one managed ruleset.
  emulator = await startEmulator({ credentials: { token: TOKEN } });
  const managed = emulator.state.addManagedRuleset({
    name: 'Managed web rules',
    phase: 'http_request_firewall_managed',
    rules: [
      { action: 'block', expression: 'http.request.uri.path contains "/wp-login.php"', categories: ['wordpress'] },
      { action: 'block', expression: 'http.request.uri.path contains "/xmlrpc.php"', categories: ['php'] },
    ],
  });
  // The service warns on a create's dry run; suite/api.spec.ts looks for it in the log.
  emulator.notices.push({ method: 'POST', path: /\/rulesets\?dry_run=true$/, message: { code: 20100, message: 'custom rulesets run only when an execute rule refers to them' } });
  workbench = await startWorkbench({
    workspace,
    name: 'extension-host-suite',
    development: { extensionPath: ROOT, testsPath },
    env: {
      RULESETS_SUITE_RESULT: result,
      RULESETS_SUITE_API_URL: emulator.baseUrl,
      RULESETS_SUITE_API_TOKEN: TOKEN,
      RULESETS_SUITE_ACCOUNT: EMULATOR_ACCOUNT_ID,
      RULESETS_SUITE_MANAGED_ID: managed.id,
      // RULESETS_SUITE_GREP=action-mistakes runs one spec (suite/index.ts); the counts below are then not held.
      ...(GREP ? { RULESETS_SUITE_GREP: GREP } : {}),
    },
  });
  const deadline = Date.now() + 180_000;
  while (!existsSync(result) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  assert.ok(existsSync(result), `the suite did not finish within 3 minutes; see ${workbench.artifacts}`);
  const { failures, passes } = JSON.parse(readFileSync(result, 'utf8')) as { failures: { title: string; error: string }[]; passes: string[] };
  assert.deepEqual(failures, []);
  if (GREP) {
    assert.ok(passes.length > 0, `no test of the suite matches ${GREP}`);
    return;
  }
  // 18; examples/waf-mistakes: its ten diagnostics, and each of its eight quick fixes; and
  // examples/action-mistakes: the diagnostics of each of its ten files, and two quick fixes.
  assert.equal(passes.length, 28 + 10 + 2, `passed: ${passes.join('; ')}`);
  // What the suite deployed is on the service: the entry point it deployed, edited and changed rule by rule.
  const deployed = emulator.state.all().find((r) => r.kind === 'root' && r.phase === 'magic_transit');
  assert.ok(deployed && Number(deployed.version) > 3, JSON.stringify(deployed));
});
