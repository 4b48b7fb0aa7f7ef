/**
 * The extension-host suite (suite/), the one @vscode/test-electron runs in VS Code desktop,
 * run here in code-server: the extension loaded from this folder as in an Extension
 * Development Host, the suite started by the editor itself, its outcome read from a file.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorkbench, type Workbench } from '../e2e/workbench';
import { buildSuite, ROOT, scratchWorkspace } from './suite-setup';

let workbench: Workbench | undefined;
let workspace = '';

after(async () => {
  await workbench?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

test('the extension-host suite passes in VS Code (code-server)', async () => {
  const testsPath = buildSuite();
  const result = join(ROOT, '.cache', 'vscode-suite', 'result-code-server.json');
  rmSync(result, { force: true });
  workspace = scratchWorkspace();
  workbench = await startWorkbench({
    workspace,
    name: 'extension-host-suite',
    development: { extensionPath: ROOT, testsPath },
    env: { RULESETS_SUITE_RESULT: result },
  });
  const deadline = Date.now() + 180_000;
  while (!existsSync(result) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  assert.ok(existsSync(result), `the suite did not finish within 3 minutes; see ${workbench.artifacts}`);
  const { failures, passes } = JSON.parse(readFileSync(result, 'utf8')) as { failures: { title: string; error: string }[]; passes: string[] };
  assert.deepEqual(failures, []);
  assert.equal(passes.length, 5, `passed: ${passes.join('; ')}`);
});
