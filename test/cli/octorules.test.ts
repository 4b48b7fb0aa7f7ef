/**
 * `rulesets check` on octorules projects: the folder search finds the rules files (and not
 * octorules' configuration, nor the files that `!include`s read), and every mistake is printed
 * on its line and column, in text and in JSON.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { OCTORULES_FOLDER, OCTORULES_MISTAKES, OCTORULES_MISTAKES_FILE, OCTORULES_MISTAKES_FOLDER } from '../fixtures/octorules';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function check(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Each finding of a text report as [path, line, col, severity, code, the characters under its carets]; its source line is the file's. */
function findings(stdout: string, cwd: string): [string, number, number, string, string, string][] {
  const lines = stdout.split('\n');
  const found: [string, number, number, string, string, string][] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(.+?):(\d+):(\d+): (error|warning|information|hint) (\S+) /.exec(lines[i]);
    if (!m) continue;
    const source = lines[i + 1].slice(2);
    const carets = lines[i + 2].slice(2);
    assert.equal(source, readFileSync(join(cwd, m[1]), 'utf8').split('\n')[Number(m[2]) - 1]);
    assert.match(carets, /^ *\^+$/);
    found.push([m[1], Number(m[2]), Number(m[3]), m[4], m[5], source.slice(carets.indexOf('^'), carets.length)]);
  }
  return found;
}

// Two zones and an account, as octorules lays a project out: config.yaml names the zones, and
// rules/<name>.yaml holds each one's sections.
const PROJECT: Record<string, string> = {
  'config.yaml': 'providers:\n  cloudflare:\n    token: env/CLOUDFLARE_API_TOKEN\n  rules:\n    directory: ./rules\nzones:\n  one.example:\n    sources: [rules]\n  two.example:\n    sources: [rules]\n',
  'rules/one.example.yaml': [
    'cloudflare:',
    '  waf_custom_rules:',
    '    - ref: office-only',
    '      expression: not ip.src in {203.0.113.0/24} and http.request.uri.path contains "/admin"',
    '      action: blok',
    '  redirect_rules: !include redirects/one.yaml',
    '',
  ].join('\n'),
  'rules/redirects/one.yaml': ['- ref: moved', '  expression: http.request.uri.path eq "/old"', '  action_parameters:', '    from_value:', '      target_url:', '        value: https://one.example/new', '      status_code: 399', ''].join('\n'),
  'rules/two.example.yaml': [
    '# The second zone',
    'cloudflare:',
    '  cache_rules:',
    '    - ref: static',
    '      expression: http.request.uri.path.extension in {"css", "js"}',
    '      action_parameters:',
    '        cache: true',
    '    - ref: static',
    '      expression: http.host eq "static.two.example"',
    '      action_parameters:',
    '        cache: true',
    '  bot_management:',
    '    fight_mode: true',
    '',
  ].join('\n'),
  'rules/my-account.yaml': 'cloudflare:\n  bulk_redirect_rules:\n    - ref: all\n      expression: http.request.full_uri in $redirects\n      action_parameters:\n        from_list:\n          name: redirects\n          key: http.request.full_uri\n',
};

let project: string;

before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  project = mkdtempSync(join(tmpdir(), 'rulesets-octorules-'));
  for (const [name, text] of Object.entries(PROJECT)) {
    mkdirSync(dirname(join(project, name)), { recursive: true });
    writeFileSync(join(project, name), text);
  }
});

after(() => rmSync(project, { recursive: true, force: true }));

describe('rulesets check on an octorules project', () => {
  it('finds the rules files of both zones and the account, and prints each mistake on its line and column', () => {
    const result = check(['.'], project);
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(findings(result.stdout, project), [
      ['rules/one.example.yaml', 5, 15, 'error', 'unknown-action', 'blok'],
      // The included file's mistake, on the include, naming its own place.
      ['rules/one.example.yaml', 6, 19, 'error', 'invalid-action-parameters', '!include redirects/one.yaml'],
      ['rules/two.example.yaml', 5, 60, 'error', 'comma-in-set', ','],
      ['rules/two.example.yaml', 8, 12, 'error', 'duplicate-ref', 'static'],
    ]);
    assert.match(result.stdout, /rules\/one\.example\.yaml:6:19: error invalid-action-parameters redirects\/one\.yaml:7:20: /);
    // The account file is checked too, and clean; config.yaml and the included file are not rulesets.
    assert.match(result.stdout, /\n3 files checked: 4 errors, 0 warnings\n$/);
  });

  it('gives the same places in JSON (0-based lines and characters)', () => {
    const result = check(['.', '--format', 'json'], project);
    const report = JSON.parse(result.stdout) as { files: { path: string; diagnostics: { code: string; range: { start: { line: number; character: number } } }[] }[] };
    assert.deepEqual(
      report.files.map((f) => [f.path, f.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character])]),
      [
        ['rules/my-account.yaml', []],
        [
          'rules/one.example.yaml',
          [
            ['unknown-action', 4, 14],
            ['invalid-action-parameters', 5, 18],
          ],
        ],
        [
          'rules/two.example.yaml',
          [
            ['comma-in-set', 4, 59],
            ['duplicate-ref', 7, 11],
          ],
        ],
      ],
    );
  });

  it('with --cache, checks a file that includes another again when only the included file changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-octorules-cache-'));
    try {
      writeFileSync(join(dir, 'zone.yaml'), 'cloudflare:\n  waf_custom_rules: !include waf.yaml\n');
      writeFileSync(join(dir, 'waf.yaml'), '- ref: a\n  expression: ip.src eq 192.0.2.1\n  action: block\n');
      assert.equal(check(['--cache', '.'], dir).status, 0);
      writeFileSync(join(dir, 'waf.yaml'), '- ref: a\n  expression: http.hots eq "x"\n  action: block\n');
      const again = check(['--cache', '.'], dir);
      assert.equal(again.status, 1, again.stdout);
      assert.match(again.stdout, /zone\.yaml:2:21: error unknown-field waf\.yaml:2:15: unknown field `http\.hots`/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds an account file of custom rulesets alone, refuses an empty ref, and reads a file of an unknown section as octorules (issue 35)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-octorules-35-'));
    try {
      mkdirSync(join(dir, 'rules'));
      writeFileSync(join(dir, 'rules', 'account.yaml'), 'custom_rulesets:\n  - id: f0000000000000000000000000000000\n    name: shared\n    phase: http_request_firewall_custom\n    rules:\n      - ref: a\n        expression: http.hots eq "x"\n        action: block\n');
      writeFileSync(join(dir, 'rules', 'zone.yaml'), 'cloudflare:\n  waf_custom_rules:\n    - ref: ""\n      expression: http.host eq "x"\n      action: block\n');
      writeFileSync(join(dir, 'rules', 'typo.yaml'), 'cloudflare:\n  waf_custom_rule:\n    - ref: a\n      expression: http.host eq "x"\n      action: block\n');
      const result = check(['.'], dir);
      assert.equal(result.status, 1, result.stdout + result.stderr);
      assert.deepEqual(findings(result.stdout, dir), [
        ['rules/account.yaml', 7, 21, 'error', 'unknown-field', 'http.hots'],
        ['rules/typo.yaml', 2, 3, 'warning', 'unknown-section', 'waf_custom_rule'],
        ['rules/zone.yaml', 3, 12, 'error', 'empty-ref', '""'],
      ]);
      // Named on the command line, the file of an unknown section is octorules', not a ruleset missing its keys.
      const named = check(['rules/typo.yaml'], dir);
      assert.doesNotMatch(named.stdout, /missing-key|unknown-key/);
      assert.match(named.stdout, /did you mean `waf_custom_rules`\?/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks the clean example project clean, and finds each mistake of the other on its characters', () => {
    const clean = check([`examples/${OCTORULES_FOLDER}/`], ROOT);
    assert.equal(clean.status, 0, clean.stdout);
    assert.equal(clean.stdout.trim(), '2 files checked, no problems');
    const mistakes = check([`examples/${OCTORULES_MISTAKES_FOLDER}/`], ROOT);
    assert.equal(mistakes.status, 1);
    assert.deepEqual(
      findings(mistakes.stdout, ROOT),
      OCTORULES_MISTAKES.map((m) => [`examples/${OCTORULES_MISTAKES_FILE}`, m.line, m.col, m.severity, m.code, m.text]),
    );
  });
});
