/**
 * The entry point VS Code's extension host calls (`extensionTestsPath`): runs the mocha suite
 * and, when RULESETS_SUITE_RESULT names a file, writes the outcome there too, so a runner
 * outside the editor reads it without parsing logs. RULESETS_SUITE_GREP narrows the run.
 */
import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';
import { registerActionMistakesTests } from './action-mistakes.spec';
import { registerApiTests } from './api.spec';
import { registerExtensionTests } from './extension.spec';
import { registerPacketTests } from './packet.spec';
import { registerWafMistakesTests } from './waf-mistakes.spec';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false });
  // RULESETS_SUITE_GREP runs only the tests whose full title holds it (one spec, while working on it).
  const grep = process.env.RULESETS_SUITE_GREP;
  if (grep) mocha.grep(grep);
  registerExtensionTests(mocha.suite);
  registerApiTests(mocha.suite);
  registerPacketTests(mocha.suite);
  registerWafMistakesTests(mocha.suite);
  registerActionMistakesTests(mocha.suite);
  return new Promise((resolve, reject) => {
    const failures: { title: string; error: string }[] = [];
    const passes: string[] = [];
    const runner = mocha.run((failed) => {
      const result = process.env.RULESETS_SUITE_RESULT;
      if (result) writeFileSync(result, JSON.stringify({ passes, failures }, null, 2));
      if (failed > 0) reject(new Error(`${failed} extension test(s) failed`));
      else resolve();
    });
    runner.on('pass', (test) => passes.push(test.fullTitle()));
    runner.on('fail', (test, error: Error) => failures.push({ title: test.fullTitle(), error: String(error?.stack ?? error) }));
  });
}
