/**
 * Issue 22's first "done when", on the command line: `rulesets check examples/action-mistakes/`,
 * one ruleset per phase family with typical mistakes in the rules' actions (an action the phase
 * does not allow, a missing or misspelt parameter, a wrong type or value, a bad expression inside
 * a parameter), prints each on its exact characters, and nothing else; each quick fix takes its
 * mistake away without bringing another. The clean rulesets of the same families are in
 * examples/ and check clean (test/cli/cli.test.ts). (The editor's side:
 * test/vscode/suite/action-mistakes.spec.ts.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkRuleset } from '../../server/src/core';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { ACTION_MISTAKES, ACTION_MISTAKES_FILES, ACTION_MISTAKES_FOLDER, placeOf, type ActionMistake } from '../fixtures/action-mistakes';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const textOf = (file: string) => readFileSync(join(ROOT, 'examples', file), 'utf8');

type Finding = [path: string, line: number, col: number, severity: string, code: string, text: string];

function check(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `path:line:col: severity code message`, the source line, the carets: each finding with the
 * characters under the carets. `texts` gives each path's text, to hold the printed source line to it.
 */
function findings(stdout: string, texts: (path: string) => string): Finding[] {
  const lines = stdout.split('\n');
  const found: Finding[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(.+?):(\d+):(\d+): (error|warning|information|hint) (\S+) /.exec(lines[i]);
    if (!m) continue;
    const source = lines[i + 1].slice(2);
    const carets = lines[i + 2].slice(2);
    const start = carets.indexOf('^');
    assert.match(carets, /^ *\^+$/);
    // The source line is printed as it is in the file (after two spaces), the carets from the column on.
    assert.equal(source, texts(m[1]).split('\n')[Number(m[2]) - 1], `${m[1]}:${m[2]}`);
    assert.equal(start, Number(m[3]) - 1, `${m[1]}:${m[2]}:${m[3]}`);
    found.push([m[1], Number(m[2]), Number(m[3]), m[4], m[5], source.slice(start, carets.length)]);
  }
  return found;
}

function expectedOf(mistake: ActionMistake, text = textOf(mistake.file)): Finding {
  const { line, col } = placeOf(text, mistake);
  return [`examples/${mistake.file}`, line, col, mistake.severity, mistake.code, mistake.text];
}

const expected = ACTION_MISTAKES.map((m) => expectedOf(m));
const fromRoot = (path: string) => readFileSync(join(ROOT, path), 'utf8');
/** A ruleset's `phase` (its first `phase` key, in YAML or JSON, which comes before its rules). */
const phaseOf = (text: string) => /^\s*"?phase"?: "?([a-z_]+)/m.exec(text)?.[1];

before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
});

describe(`rulesets check examples/${ACTION_MISTAKES_FOLDER}/`, () => {
  it('prints each mistake, at its line:column on its exact characters, with its code, and nothing else', () => {
    const result = check([`examples/${ACTION_MISTAKES_FOLDER}/`], ROOT);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, '');
    assert.deepEqual(findings(result.stdout, fromRoot), expected);
    const errors = ACTION_MISTAKES.filter((m) => m.severity === 'error').length;
    const warnings = ACTION_MISTAKES.filter((m) => m.severity === 'warning').length;
    assert.match(result.stdout, new RegExp(`\\n${ACTION_MISTAKES_FILES.length} files checked: ${errors} errors, ${warnings} warnings\\n$`));
  });

  for (const file of ACTION_MISTAKES_FILES) {
    it(`${file}: one mistake in each rule whose description says so, and every other rule is clean`, () => {
      const text = textOf(file);
      const all = ACTION_MISTAKES.filter((m) => m.file === file);
      const described = text.split('\n').filter((l) => /^ {4,}"?description"?: "?Mistake:/.test(l)).length;
      assert.equal(described, all.length);
      assert.equal(new Set(all.map((m) => m.description)).size, all.length);
      const mine = ACTION_MISTAKES.filter((m) => m.file === file);
      // Alone, from its own folder, the file says the same.
      const alone = check([file.split('/').pop()!], join(ROOT, 'examples', ACTION_MISTAKES_FOLDER));
      const name = file.split('/').pop()!;
      assert.deepEqual(
        findings(alone.stdout, () => text),
        mine.map((m) => expectedOf(m, text)).map(([, ...rest]) => [name, ...rest] as Finding),
      );
    });
  }

  it('covers every phase family, each with an action its phase does not allow, and every kind of mistake of issue 22', () => {
    const phases = ACTION_MISTAKES_FILES.map((f) => phaseOf(textOf(f)));
    assert.deepEqual(phases.sort(), [
      'http_config_settings',
      'http_custom_errors',
      'http_ratelimit',
      'http_request_cache_settings',
      'http_request_dynamic_redirect',
      'http_request_firewall_custom',
      'http_request_origin',
      'http_request_transform',
      'http_response_compression',
      'magic_transit',
    ]);
    for (const file of ACTION_MISTAKES_FILES) {
      assert.ok(ACTION_MISTAKES.some((m) => m.file === file && m.code === 'action-not-allowed'), `${file}: an action the phase does not allow`);
    }
    // A missing parameter, a misspelt one, a wrong type, a wrong value, a bad nested expression.
    const codes = new Set(ACTION_MISTAKES.map((m) => m.code));
    for (const code of ['missing-key', 'missing-action-parameters', 'unknown-key', 'invalid-type', 'invalid-action-parameters', 'unknown-field']) assert.ok(codes.has(code), code);
    // The misspelt fields are inside parameters (indented below a rule's own keys, at four spaces), not in a rule's expression.
    for (const m of ACTION_MISTAKES.filter((m) => m.code === 'unknown-field')) {
      const line = textOf(m.file).split('\n')[placeOf(textOf(m.file), m).line - 1];
      assert.ok(/^ {6,}\S/.test(line), `${m.description}: ${line}`);
    }
  });
});

describe('the clean ruleset of each phase family', () => {
  // examples/*.ruleset.{yaml,json} but mistakes.ruleset.yaml (and not the folders of mistakes), by phase.
  const clean = readdirSync(join(ROOT, 'examples'))
    .filter((n) => /\.ruleset\.(json|ya?ml)$/.test(n) && n !== 'mistakes.ruleset.yaml')
    .map((n) => ({ name: n, phase: phaseOf(textOf(n)) }));
  for (const file of ACTION_MISTAKES_FILES) {
    const phase = phaseOf(textOf(file));
    const mine = clean.filter((c) => c.phase === phase);
    it(`${phase}: ${mine.map((c) => c.name).join(', ') || 'none'} ${mine.length === 1 ? 'checks' : 'check'} clean`, () => {
      assert.ok(mine.length > 0, `a clean example of ${phase}`);
      for (const { name } of mine) {
        const result = check([`examples/${name}`], ROOT);
        // magic_transit's block-country keeps the seed's deprecated field, a hint (information); the others say nothing at all.
        if (name.startsWith('block-country.')) assert.match(result.stdout, /\n1 file checked, no problems\n$/, name);
        else assert.equal(result.stdout, '1 file checked, no problems\n', name);
      }
    });
  }
});

describe(`the quick fixes of examples/${ACTION_MISTAKES_FOLDER}/`, () => {
  let scratch = '';
  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** The text with the fix's edits made, as the editor makes them. */
  function applied(text: string, problem: DocumentProblem): string {
    for (const edit of [...problem.fixes![0].edits].sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
    return text;
  }

  for (const mistake of ACTION_MISTAKES) {
    it(`${mistake.file}: ${mistake.code} on \`${mistake.text}\`: ${mistake.fix ? mistake.fix.title : 'no fix'}`, () => {
      const text = textOf(mistake.file);
      const problems = checkRuleset(text, mistake.file.endsWith('.json') ? 'json' : 'yaml');
      const { line, col } = placeOf(text, mistake);
      const offset = text.split('\n').slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0) + col - 1;
      // Of a finding over several lines, its first line's characters (as the CLI's carets show them).
      const on = (p: DocumentProblem) => text.slice(p.start, p.end).split('\n')[0];
      const problem = problems.find((p) => p.code === mistake.code && p.start === offset && on(p) === mistake.text);
      assert.ok(problem, `${mistake.code} on ${mistake.text} at ${line}:${col}; found ${JSON.stringify(problems.map((p) => [p.code, on(p)]))}`);
      if (!mistake.fix) {
        assert.equal(problem.fixes, undefined, `no quick fix is offered for ${mistake.code} on ${mistake.text}`);
        return;
      }
      assert.equal(problem.fixes?.[0]?.title, mistake.fix.title);
      const fixed = applied(text, problem);
      // The fix changes those characters, and no others.
      const lines = text.split('\n');
      lines[line - 1] = lines[line - 1].slice(0, col - 1) + mistake.fix.replacement + lines[line - 1].slice(col - 1 + mistake.text.length);
      assert.equal(fixed, lines.join('\n'));
      // Checked again as `rulesets check` checks it: that mistake is gone, and the fix brought no other.
      scratch ||= mkdtempSync(join(tmpdir(), 'rulesets-actions-'));
      cpSync(join(ROOT, 'examples', ACTION_MISTAKES_FOLDER), scratch, { recursive: true });
      const name = mistake.file.split('/').pop()!;
      writeFileSync(join(scratch, name), fixed);
      const rest = findings(check([name], scratch).stdout, () => fixed).map(([, , , , code, chars]) => [code, chars]);
      assert.deepEqual(
        rest,
        ACTION_MISTAKES.filter((m) => m.file === mistake.file && m !== mistake).map((m) => [m.code, m.text]),
      );
    });
  }
});
