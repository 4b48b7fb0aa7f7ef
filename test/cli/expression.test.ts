// `rulesets check --expression EXPR` and `--stdin`: bare expressions, checked as a process, the
// way a script, a pre-commit hook or a chat bot calls it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const temps: string[] = [];

/** A folder that is a repository's root (so no `.rulesets.yaml` above it applies), with these files. */
function repository(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-expression-'));
  temps.push(dir);
  mkdirSync(join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function check(args: readonly string[], options: { input?: string; cwd?: string } = {}): Run {
  const result = spawnSync(process.execPath, [CLI, 'check', ...args], { cwd: options.cwd ?? repository(), input: options.input ?? '', encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
});

after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('rulesets check --expression', () => {
  it('reports each mistake at its column of the expression, with carets, and exits 1', () => {
    const result = check(['--expression', 'http.hots eq "a" and ip.src in {1.2.3.4, 5.6.7.8}']);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, '');
    assert.equal(
      result.stdout,
      [
        '--expression:1:1: error unknown-field unknown field `http.hots` in phase `http_request_firewall_custom`; did you mean `http.host`?',
        '  http.hots eq "a" and ip.src in {1.2.3.4, 5.6.7.8}',
        '  ^^^^^^^^^',
        '--expression:1:40: error comma-in-set expected whitespace between set items, found `,`; items of a `{…}` set are separated by spaces only',
        '  http.hots eq "a" and ip.src in {1.2.3.4, 5.6.7.8}',
        '                                         ^',
        '1 expression checked in phase http_request_firewall_custom: 2 errors, 0 warnings',
        '',
      ].join('\n'),
    );
  });

  it('exits 0 on a clean expression, and says the phase it assumed', () => {
    const result = check(['-e', 'http.host eq "example.com" and not ip.src in $office']);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.equal(result.stdout, '1 expression checked in phase http_request_firewall_custom, no problems\n');
  });

  it('checks in the phase --phase (or -p) names: what exists there and nowhere else', () => {
    // A response field: not in WAF custom rules, the default; in the response header phase.
    const byDefault = check(['-e', 'http.response.code eq 404']);
    assert.equal(byDefault.status, 1);
    assert.match(byDefault.stdout, /^--expression:1:1: error field-not-available `http\.response\.code` does not exist in phase `http_request_firewall_custom`/);
    const inResponse = check(['-e', 'http.response.code eq 404', '--phase', 'http_response_headers_transform']);
    assert.equal(inResponse.status, 0, inResponse.stdout);
    assert.equal(inResponse.stdout, '1 expression checked in phase http_response_headers_transform, no problems\n');
    const packet = check(['-e', 'tcp.dstport == 22', '-p', 'magic_transit']);
    assert.equal(packet.status, 0, packet.stdout);
  });

  it('reads the expression as the --kind says: a value expression is one field, call or index expression of its type', () => {
    const rewrite = check(['-e', 'concat("/new", http.request.uri.path)', '--kind', 'rewrite']);
    assert.equal(rewrite.status, 0, rewrite.stdout);
    assert.equal(rewrite.stdout, '1 rewrite expression checked in phase http_request_transform, no problems\n');
    // The same text as a filter compares nothing: not a condition.
    const asFilter = check(['-e', 'concat("/new", http.request.uri.path)']);
    assert.equal(asFilter.status, 1);
    // A comparison is no value.
    const comparison = check(['-e', 'http.request.uri.path eq "/x"', '--kind', 'rewrite']);
    assert.equal(comparison.status, 1);
    assert.match(comparison.stdout, /^--expression:1:23: error syntax-error /);
    // A header's value is a string: a number is not, and the fix is said.
    const header = check(['-e', 'cf.edge.server_port', '--kind', 'request-header', '--format', 'json']);
    assert.equal(header.status, 1);
    assert.deepEqual(JSON.parse(header.stdout), {
      files: [
        {
          path: '--expression',
          diagnostics: [{ code: 'type-mismatch', severity: 'error', message: 'expected a value of type String here, found `cf.edge.server_port`, an Integer', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 19 } } }],
        },
      ],
    });
    // Cache tags are a list of strings.
    const tags = check(['-e', 'http.request.uri.path', '--kind', 'cache-tags']);
    assert.equal(tags.status, 1);
    assert.match(tags.stdout, /type-mismatch expected a value of type Array<String> here/);
    const target = check(['-e', 'concat("https://example.com", http.request.uri.path)', '--kind', 'redirect-target']);
    assert.equal(target.status, 0, target.stdout);
    assert.match(target.stdout, /in phase http_request_dynamic_redirect, no problems\n$/);
  });

  it('takes an expression over several lines, each finding on its line', () => {
    const result = check(['-e', 'http.host eq "a"\n  and lowr(http.request.uri.path) eq "/"']);
    assert.equal(result.status, 1);
    assert.match(result.stdout, /^--expression:2:7: error unknown-function unknown function `lowr`; did you mean `lower`\?\n {2}\s{2}and lowr\(http\.request\.uri\.path\) eq "\/"\n {2}\s{6}\^{4}\n/);
  });

  it('counts warnings for --max-warnings and leaves them out with --quiet', () => {
    const expression = 'ip.src.country in {"br"}';
    const plain = check(['-e', expression]);
    assert.equal(plain.status, 0);
    assert.match(plain.stdout, /^--expression:1:20: warning country-code-case /);
    const strict = check(['-e', expression, '--max-warnings', '0']);
    assert.equal(strict.status, 1);
    assert.match(strict.stderr, /1 warning, more than --max-warnings 0 allows/);
    const quiet = check(['-e', expression, '--quiet']);
    assert.equal(quiet.stdout, '1 expression checked in phase http_request_firewall_custom, no problems\n');
  });
});

describe('rulesets check --stdin', () => {
  it('checks one expression a line, each finding at <stdin>:LINE:COL, blank lines skipped, CR LF or LF', () => {
    const input = 'http.host eq "a"\n\nlowr(http.host) eq "x"\r\ntcp.dstport == 22\n';
    const result = check(['--stdin'], { input });
    assert.equal(result.status, 1);
    assert.equal(
      result.stdout,
      [
        '<stdin>:3:1: error unknown-function unknown function `lowr`; did you mean `lower`?',
        '  lowr(http.host) eq "x"',
        '  ^^^^',
        '<stdin>:4:1: error unknown-field unknown field `tcp.dstport` in phase `http_request_firewall_custom`: `tcp.dstport` is a field of the packet (Magic Transit) phases',
        '  tcp.dstport == 22',
        '  ^^^^^^^^^^^',
        '3 expressions checked in phase http_request_firewall_custom: 2 errors, 0 warnings',
        '',
      ].join('\n'),
    );
  });

  it('gives the same places in JSON (0-based) and in valid SARIF (1-based, one rule a code)', () => {
    const input = 'ip.src in {10.0.0.0/8,}\nhttp.host eq "ok"\nhttp.hots eq "a"\n';
    const json = JSON.parse(check(['--stdin', '--format', 'json'], { input }).stdout);
    assert.deepEqual(
      json.files.map((f: { path: string; diagnostics: { code: string; range: { start: { line: number; character: number } } }[] }) => [f.path, f.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character])]),
      [['<stdin>', [['comma-in-set', 0, 21], ['unknown-field', 2, 0]]]],
    );
    const result = check(['--stdin', '--format', 'sarif'], { input });
    assert.equal(result.status, 1);
    const log = JSON.parse(result.stdout);
    assert.equal(log.version, '2.1.0');
    assert.match(log.$schema, /sarif-2\.1\.0\.json$/);
    const [run0] = log.runs;
    const ids = (run0.tool.driver.rules as { id: string; shortDescription: { text: string } }[]).map((r) => r.id);
    assert.deepEqual(ids, ['comma-in-set', 'unknown-field']);
    assert.deepEqual(run0.artifacts, [{ location: { uri: '%3Cstdin%3E' } }]);
    // An artifact's uri is a URI reference: `<` and `>` are not allowed in one.
    assert.doesNotThrow(() => new URL(run0.artifacts[0].location.uri, 'file:///repo/'));
    const results = run0.results as { ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string; index: number }; region: Record<string, number> } }[] }[];
    assert.deepEqual(
      results.map((r) => [r.ruleId, ids[r.ruleIndex], r.level, r.locations[0].physicalLocation.artifactLocation.index, r.locations[0].physicalLocation.region]),
      [
        ['comma-in-set', 'comma-in-set', 'error', 0, { startLine: 1, startColumn: 22, endLine: 1, endColumn: 23 }],
        ['unknown-field', 'unknown-field', 'error', 0, { startLine: 3, startColumn: 1, endLine: 3, endColumn: 10 }],
      ],
    );
    for (const r of results) assert.ok(r.message.text.length > 0);
    // And --expression's artifact is named so too.
    const one = JSON.parse(check(['-e', 'http.hots eq "a"', '--format', 'sarif']).stdout);
    assert.deepEqual(one.runs[0].artifacts, [{ location: { uri: '--expression' } }]);
    assert.equal(one.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, '--expression');
  });

  it('exits 2 when standard input holds no expression', () => {
    const result = check(['--stdin'], { input: '\n  \n' });
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'rulesets: no expression on standard input: --stdin reads one expression a line\n');
  });
});

describe('rulesets check --expression and --stdin: usage', () => {
  it('answers a misspelt kind or phase with the one meant (exit 2)', () => {
    const kind = check(['-e', 'x', '--kind', 'rewite']);
    assert.equal(kind.status, 2);
    assert.equal(kind.stderr, 'rulesets: unknown kind of expression `rewite` for --kind; did you mean `rewrite`?\n');
    const none = check(['-e', 'x', '--kind', 'zzzzzz']);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /unknown kind of expression `zzzzzz` for --kind; expected one of `filter`, `rewrite`, `request-header`, `response-header`, `redirect-target`, `cache-tags`\n$/);
    const phase = check(['-e', 'x', '--phase', 'http_request_firewall_custon']);
    assert.equal(phase.status, 2);
    assert.match(phase.stderr, /unknown phase `http_request_firewall_custon` for --phase; did you mean `http_request_firewall_custom`/);
  });

  it('refuses a value kind in a phase whose rules cannot hold it, naming where they can', () => {
    const result = check(['-e', 'http.request.uri.path', '--kind', 'rewrite', '--phase', 'magic_transit']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /a `rewrite` expression has no place in phase `magic_transit`: its rules take no `rewrite` action; `rewrite` rules are in `http_request_transform`, /);
  });

  it('refuses files beside them, both at once, twice --expression, --kind or --cache without them', () => {
    const cases: [string[], RegExp][] = [
      [['-e', 'x', 'rules.yaml'], /--expression checks bare expressions, not files: leave out `rules\.yaml`/],
      [['-e', 'x', '--stdin'], /--expression and --stdin were both given/],
      [['-e', 'x', '-e', 'y'], /--expression was given more than once: check several expressions with --stdin/],
      [['--kind', 'rewrite', 'rules.yaml'], /--kind says what kind of expression --expression or --stdin holds/],
      [['-e', 'x', '--cache'], /--cache keeps the findings of files/],
    ];
    for (const [args, message] of cases) {
      const result = check(args);
      assert.equal(result.status, 2, args.join(' '));
      assert.match(result.stderr, message);
    }
  });

  it("uses the project configuration: its phase where the kind fits it, its severities", () => {
    const cwd = repository({ '.rulesets.yaml': 'phase: magic_transit\nrules:\n  country-code-case: "off"\n' });
    const packet = check(['-e', 'tcp.dstport == 22 and ip.src.country in {"br"}'], { cwd });
    assert.equal(packet.status, 0, packet.stdout + packet.stderr);
    assert.equal(packet.stdout, '1 expression checked in phase magic_transit, no problems\n');
    // A rewrite has no place in the packet phase: the kind's own phase is taken.
    const rewrite = check(['-e', 'http.request.uri.path', '--kind', 'rewrite'], { cwd });
    assert.equal(rewrite.status, 0, rewrite.stdout + rewrite.stderr);
    assert.match(rewrite.stdout, /in phase http_request_transform, no problems/);
    // --phase wins over it; --no-config leaves it out.
    assert.equal(check(['-e', 'tcp.dstport == 22', '--phase', 'http_request_firewall_custom'], { cwd }).status, 1);
    assert.equal(check(['-e', 'tcp.dstport == 22', '--no-config'], { cwd }).status, 1);
  });

  it('is in the help of check and of rulesets', () => {
    const help = check(['--help']);
    assert.equal(help.status, 0);
    for (const words of ['rulesets check --expression EXPR', 'rulesets check --stdin', '--kind KIND', 'redirect-target', '`<stdin>:LINE`']) assert.ok(help.stdout.includes(words), words);
    const top = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    assert.match(top.stdout, /^Usage: rulesets check <files or folders\.\.\.> .*\n.*\n {7}rulesets check --expression EXPR .*\n {7}rulesets check --stdin /);
  });
});

describe("README's examples of --expression and --stdin", () => {
  it('print what README shows', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### One expression: `--expression` and `--stdin`'));
    // A `console` block: cli.test.ts runs the `text` ones, with arguments split on spaces.
    const block = /```console\n(\$ npx rulesets check -e [\s\S]*?)```/.exec(section)?.[1];
    assert.ok(block, "README's example of --expression");
    const [, expression, expressionOutput, input, stdinOutput] = /^\$ npx rulesets check -e '([^']*)'\n([\s\S]*?)\$ printf '([^']*)' \| npx rulesets check --stdin -p magic_transit\n([\s\S]*)$/.exec(block)!;
    const one = check(['-e', expression]);
    assert.equal(one.status, 1);
    assert.equal(one.stdout, expressionOutput);
    const lines = check(['--stdin', '-p', 'magic_transit'], { input: input.replace(/\\n/g, '\n') });
    assert.equal(lines.status, 0);
    assert.equal(lines.stdout, stdinOutput);
  });
});
