/**
 * The extension-host suite (suite/) in VS Code desktop, as extension authors run it with
 * @vscode/test-electron. It needs VS Code: VSCODE_EXECUTABLE names an installed one, or it is
 * downloaded. Where neither works (these build machines reach no Microsoft server) it says so
 * in one line and skips; test/e2e runs the same suite in code-server instead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { buildSuite, ROOT, scratchWorkspace } from './suite-setup';

test('the extension in VS Code desktop (@vscode/test-electron)', async (t) => {
  let executable = process.env.VSCODE_EXECUTABLE;
  if (!executable) {
    try {
      executable = await downloadAndUnzipVSCode({ version: 'stable', timeout: 15_000, cachePath: join(ROOT, '.cache', 'vscode-test') });
    } catch (error) {
      const reason = String(error instanceof Error ? error.message : error).split('\n')[0].replace(/-\s*Resolving version.*$/, '').trim();
      t.skip(`VS Code could not be downloaded (${reason}); set VSCODE_EXECUTABLE to run it. The same suite runs in code-server (test/vscode/code-server.test.ts).`);
      return;
    }
  }
  const extensionTestsPath = buildSuite();
  const result = join(ROOT, '.cache', 'vscode-suite', 'result-desktop.json');
  await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath,
    extensionTestsEnv: { RULESETS_SUITE_RESULT: result },
    launchArgs: [scratchWorkspace(), '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
  assert.ok(existsSync(result), 'the suite wrote its result');
  const { failures, passes } = JSON.parse(readFileSync(result, 'utf8')) as { failures: unknown[]; passes: string[] };
  assert.deepEqual(failures, []);
  assert.ok(passes.length >= 5, `passed: ${passes.join(', ')}`);
});
