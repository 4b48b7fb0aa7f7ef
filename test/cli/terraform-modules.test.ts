/**
 * Issue 34's fixtures (test/fixtures/terraform-modules/, one folder an idiom): `rulesets check` on
 * each `planted/` module reports exactly the mistake its expected.json names, on the characters
 * of the literal where it is written (a variable's default, a `.tfvars` line, a local, a module
 * argument, a file read by `file()`), naming the resource that uses it; on the `clean/` twin it
 * reports nothing. The values themselves are held to OpenTofu's in test/oracle/tofu-values.test.ts.
 *
 * Todo until the Terraform evaluator (server/src/documents/terraform-module.ts) is in the tree.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'terraform-modules');
const EVALUATOR = join(ROOT, 'server', 'src', 'documents', 'terraform-module.ts');

interface Expected {
  /** `covers`: the characters the finding covers where they are not `text` (a file `file()` reads is placed on the call). */
  readonly findings: readonly { readonly file: string; readonly line: number; readonly column: number; readonly code: string; readonly text: string; readonly covers?: string; readonly resource: string }[];
}

interface JsonReport {
  readonly files: readonly {
    readonly path: string;
    readonly diagnostics: readonly { readonly code: string; readonly message: string; readonly range: { readonly start: { readonly line: number; readonly character: number }; readonly end: { readonly line: number; readonly character: number } } }[];
  }[];
}

/** `rulesets check --format json` run in `cwd`: each finding as `file:line:column code`, with its message. */
function check(cwd: string, target: string): { line: string; message: string; length: number }[] {
  const result = spawnSync(process.execPath, [CLI, 'check', '--format', 'json', target], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.error) throw result.error;
  assert.ok(result.status === 0 || result.status === 1, `check ${target} in ${cwd}: status ${result.status}\n${result.stderr}`);
  const report = JSON.parse(result.stdout) as JsonReport;
  return report.files.flatMap((file) =>
    file.diagnostics.map((d) => ({
      line: `${file.path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`,
      message: d.message,
      length: d.range.end.line === d.range.start.line ? d.range.end.character - d.range.start.character : -1,
    })),
  );
}

const idioms = readdirSync(FIXTURES).sort();
const ready = existsSync(EVALUATOR);

describe('rulesets check on the Terraform module fixtures', () => {
  before(() => {
    if (!ready) return;
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
  });

  for (const idiom of idioms) {
    const expected = JSON.parse(readFileSync(join(FIXTURES, idiom, 'expected.json'), 'utf8')) as Expected;
    const name = `${idiom}: the planted mistake on its literal (${expected.findings.map((f) => `${f.file}:${f.line}:${f.column}`).join(', ')}), nothing in the clean twin`;
    if (!ready) {
      it.todo(`${name} (no evaluator yet: ${EVALUATOR})`);
      continue;
    }
    it(name, () => {
      const cwd = join(FIXTURES, idiom);
      const planted = check(cwd, 'planted');
      assert.deepEqual(
        planted.map((finding) => finding.line),
        expected.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.code}`),
      );
      planted.forEach((finding, index) => {
        const wanted = expected.findings[index];
        const covered = wanted.covers ?? wanted.text;
        assert.equal(finding.length, covered.length, `${finding.line} covers ${covered}`);
        assert.ok(finding.message.includes(wanted.resource), `${finding.line} names ${wanted.resource}: ${finding.message}`);
      });
      assert.deepEqual(check(cwd, 'clean'), []);
    });
  }
});
