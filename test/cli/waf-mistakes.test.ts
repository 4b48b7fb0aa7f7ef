/**
 * Issue 21's first "done when": `rulesets check examples/waf-mistakes/`, 20 WAF custom rules on
 * the Pro plan (its `.rulesets.yaml`, which takes 20), prints its ten mistakes, each on the exact characters,
 * and nothing else; each quick fix the editor offers for one of them takes it away without
 * bringing another. (The editor's side: test/vscode/suite/waf-mistakes.spec.ts.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkRuleset, readProjectConfig } from '../../server/src/core';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { placeOf, WAF_MISTAKES, WAF_MISTAKES_FILE, WAF_MISTAKES_FOLDER } from '../fixtures/waf-mistakes';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const FILE = `examples/${WAF_MISTAKES_FILE}`;
const TEXT = readFileSync(join(ROOT, FILE), 'utf8');

function check(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `path:line:col: severity code message`, the source line, the carets: each finding as [line, col, severity, code, the characters under the carets]. */
function findings(stdout: string, path: string, text = TEXT): [number, number, string, string, string][] {
  const lines = stdout.split('\n');
  const found: [number, number, string, string, string][] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(.+?):(\d+):(\d+): (error|warning|information|hint) (\S+) /.exec(lines[i]);
    if (!m) continue;
    assert.equal(m[1], path);
    const source = lines[i + 1].slice(2);
    const carets = lines[i + 2].slice(2);
    const start = carets.indexOf('^');
    assert.match(carets, /^ *\^+$/);
    // The source line is printed as it is in the file (after two spaces).
    assert.equal(source, text.split('\n')[Number(m[2]) - 1]);
    found.push([Number(m[2]), Number(m[3]), m[4], m[5], source.slice(start, carets.length)]);
  }
  return found;
}

const expected = WAF_MISTAKES.map((m) => {
  const { line, col } = placeOf(TEXT, m);
  return [line, col, m.severity, m.code, m.text] as [number, number, string, string, string];
});

before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
});

describe('rulesets check examples/waf-mistakes/', () => {
  it('prints the ten mistakes, each at its line:column on its exact characters, with its code, and nothing else', () => {
    const result = check([`examples/${WAF_MISTAKES_FOLDER}/`], ROOT);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, '');
    assert.deepEqual(findings(result.stdout, FILE), expected);
    const errors = WAF_MISTAKES.filter((m) => m.severity === 'error').length;
    const warnings = WAF_MISTAKES.filter((m) => m.severity === 'warning').length;
    assert.match(result.stdout, new RegExp(`\\n1 file checked: ${errors} errors, ${warnings} warnings\\n$`));
  });

  it('has one mistake in each rule whose description says so, and every other rule is clean', () => {
    const described = TEXT.split('\n').filter((l) => l.includes('description: "Mistake:')).length;
    assert.equal(described, 10);
    assert.equal(new Set(expected.map(([line]) => line)).size, 10);
    assert.equal((TEXT.match(/^ {2}- action: /gm) ?? []).length, 20);
  });

  it('prints the same from the folder itself and from the file, and the plan is the folder\'s only', () => {
    const folder = join(ROOT, 'examples', WAF_MISTAKES_FOLDER);
    assert.deepEqual(findings(check(['.'], folder).stdout, 'waf-custom.ruleset.yaml'), expected);
    assert.deepEqual(findings(check([FILE], ROOT).stdout, FILE), expected);
    // Without its `.rulesets.yaml` no plan is assumed: `matches` is then no mistake.
    assert.deepEqual(
      findings(check([FILE, '--no-config'], ROOT).stdout, FILE),
      expected.filter(([, , , code]) => code !== 'plan-required'),
    );
  });
});

describe("examples/waf-mistakes/ and the Pro plan's quota of WAF custom rules", () => {
  it('holds as many rules as Pro takes, 20: a 21st is an error on it, naming the plan, its limit and the fix', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-waf-quota-'));
    try {
      cpSync(join(ROOT, 'examples', WAF_MISTAKES_FOLDER), dir, { recursive: true });
      const more = `${TEXT}  - action: block\n    expression: http.request.uri.path eq "/old-admin/"\n    description: Block the retired admin pages\n`;
      writeFileSync(join(dir, 'waf-custom.ruleset.yaml'), more);
      const result = check(['waf-custom.ruleset.yaml'], dir);
      // The 21st rule's `- action:` line: three lines and the final newline from the end.
      const line = more.split('\n').length - 3;
      assert.ok(
        result.stdout.includes(
          `waf-custom.ruleset.yaml:${line}:5: error rule-quota this is rule 21 of the 21 enabled WAF custom rules of this ruleset, and the Pro plan allows 20 in \`http_request_firewall_custom\` (\`plan\` in .rulesets.yaml), so the service refuses the ruleset: remove or disable a rule, or move to a higher plan (Business allows 100)\n`,
        ),
        result.stdout,
      );
      assert.deepEqual(findings(result.stdout, 'waf-custom.ruleset.yaml', more).filter(([, , , code]) => code !== 'rule-quota'), expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the quick fixes of examples/waf-mistakes/', () => {
  const plan = readProjectConfig(readFileSync(join(ROOT, 'examples', WAF_MISTAKES_FOLDER, '.rulesets.yaml'), 'utf8')).config.plan;
  const problems = checkRuleset(TEXT, 'yaml', { plan });
  let scratch = '';
  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** The file with the fix's edits made, as the editor makes them. */
  function applied(problem: DocumentProblem): string {
    let text = TEXT;
    for (const edit of [...problem.fixes![0].edits].sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
    return text;
  }

  for (const mistake of WAF_MISTAKES) {
    it(`${mistake.code} on \`${mistake.text}\`: ${mistake.fix ? mistake.fix.title : 'no fix'}`, () => {
      const problem = problems.find((p) => p.code === mistake.code && TEXT.slice(p.start, p.end) === mistake.text);
      assert.ok(problem, `${mistake.code} on ${mistake.text}`);
      if (!mistake.fix) {
        assert.equal(problem.fixes, undefined);
        return;
      }
      assert.equal(problem.fixes?.[0]?.title, mistake.fix.title);
      const fixed = applied(problem);
      const { line } = placeOf(TEXT, mistake);
      assert.equal(fixed.split('\n')[line - 1], `    expression: ${mistake.fix.expression}`);
      // Checked again as `rulesets check` checks it, beside the same `.rulesets.yaml`: that
      // mistake is gone, and the fix brought no other.
      scratch ||= mkdtempSync(join(tmpdir(), 'rulesets-waf-'));
      cpSync(join(ROOT, 'examples', WAF_MISTAKES_FOLDER), scratch, { recursive: true });
      writeFileSync(join(scratch, 'waf-custom.ruleset.yaml'), fixed);
      const rest = findings(check(['waf-custom.ruleset.yaml'], scratch).stdout, 'waf-custom.ruleset.yaml', fixed).map(([, , , code, text]) => [code, text]);
      assert.deepEqual(
        rest,
        expected.filter(([, , , code, text]) => !(code === mistake.code && text === mistake.text)).map(([, , , code, text]) => [code, text]),
      );
    });
  }
});
