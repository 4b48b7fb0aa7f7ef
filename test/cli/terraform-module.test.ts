/**
 * `rulesets check` on a Terraform module folder: the mistakes written in its locals, its
 * `.tfvars` and a module argument found there, each naming the resource that uses it, and the
 * files that feed no ruleset left out; the clean twin checks clean. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'terraform-eval');

function check(folder: string): { status: number | null; stdout: string } {
  const result = spawnSync(process.execPath, [CLI, 'check', folder, '--format', 'json'], { cwd: FIXTURES, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.error) throw result.error;
  assert.equal(result.stderr, '');
  return { status: result.status, stdout: result.stdout };
}

interface Report {
  files: { path: string; diagnostics: { code: string; severity: string; message: string; range: { start: { line: number; character: number } } }[] }[];
}

describe('rulesets check on a Terraform module folder', () => {
  it('finds each mistake on the literal where it is written, naming the resource that uses it', () => {
    const { status, stdout } = check('mistakes');
    assert.equal(status, 1);
    const report = JSON.parse(stdout) as Report;
    // Hints aside: the child module checked alone says its `var.expression` is not known there.
    const found = report.files.flatMap((f) => f.diagnostics.filter((d) => d.severity !== 'hint').map((d) => [f.path, d.range.start.line + 1, d.code, /\(in `([^`]+)`/.exec(d.message)?.[1]]));
    assert.deepEqual(found, [
      ['mistakes/locals.tf', 12, 'unknown-field', 'cloudflare_ruleset.waf'],
      ['mistakes/main.tf', 41, 'invalid-ip', 'module.edge.cloudflare_ruleset.edge'],
      ['mistakes/terraform.tfvars', 3, 'syntax-error', 'cloudflare_ruleset.rate'],
    ]);
    // variables.tf's default is overridden by terraform.tfvars: it feeds no ruleset, and is not a file checked.
    assert.deepEqual(report.files.map((f) => f.path).sort(), ['mistakes/edge/main.tf', 'mistakes/locals.tf', 'mistakes/main.tf', 'mistakes/terraform.tfvars']);
  });

  it('checks the clean twin clean', () => {
    const { status, stdout } = check('clean');
    assert.equal(status, 0, stdout);
    assert.deepEqual((JSON.parse(stdout) as Report).files.flatMap((f) => f.diagnostics.filter((d) => d.severity !== 'hint')), []);
  });
});
