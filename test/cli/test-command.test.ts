import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SSH_TCP_BAD_RULESET } from '../fixtures/rulesets';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], cwd = ROOT): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const temps: string[] = [];

function tempFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-test-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
});

after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A stack trace has lines like `    at fn (file:1:2)`. */
function assertNoStack(text: string): void {
  assert.doesNotMatch(text, /^\s+at .+:\d+:\d+\)?$/m);
  assert.doesNotMatch(text, /internal error/);
}

describe('rulesets test FILE --packet JSON', () => {
  it('prints the verdict and the deciding rule with its place', () => {
    const result = run(['test', 'examples/allow-ssh-only.ruleset.yaml', '--packet', '{"ip.src": "192.0.2.7", "ip.proto": "tcp", "tcp.dstport": 443}']);
    assert.equal(result.stderr, '');
    assert.equal(result.status, 0);
    assert.equal(result.stdout, 'block by rule 2 (Block every other TCP destination port) at examples/allow-ssh-only.ruleset.yaml:16:5\n');
  });

  it('a skip rule passes the packet', () => {
    const result = run(['test', 'examples/allow-ssh-only.ruleset.json', '--packet', '{"ip.proto": "tcp", "tcp.dstport": 22}']);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^pass by rule 1 \(Let SSH through\) at examples\/allow-ssh-only\.ruleset\.json:\d+:\d+ \(a skip rule: the rest of the ruleset is skipped\)\n$/);
  });

  it('no match passes; --trace shows each rule', () => {
    const result = run(['test', 'examples/allow-ssh-only.ruleset.yaml', '--packet', '{"ip.proto": "udp"}', '--trace']);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, '  rule 1 (Let SSH through) [skip]: no match\n  rule 2 (Block every other TCP destination port) [block]: no match\npass: no rule matched\n');
  });

  it('reads lists from --lists FILE', () => {
    const dir = tempFolder({ 'a.ruleset.yaml': SSH_TCP_BAD_RULESET, 'lists.json': '{"$bad": ["10.0.0.0/8"]}' });
    const packet = '{"ip.src": "10.1.2.3", "ip.proto": "udp"}';
    const result = run(['test', 'a.ruleset.yaml', '--packet', packet, '--lists', 'lists.json'], dir);
    assert.equal(result.stdout, 'block by rule 3 (Bad sources) at a.ruleset.yaml:13:5\n');
  });

  it('reads the packet from @FILE (JSON or YAML)', () => {
    const dir = tempFolder({ 'a.ruleset.yaml': SSH_TCP_BAD_RULESET, 'p.yaml': 'ip.proto: tcp\ntcp.dstport: 22\n', 'bad.yaml': 'a: [\n' });
    assert.equal(run(['test', 'a.ruleset.yaml', '--packet', '@p.yaml'], dir).stdout, 'pass by rule 1 (Let SSH through) at a.ruleset.yaml:5:5 (a skip rule: the rest of the ruleset is skipped)\n');
    const bad = run(['test', 'a.ruleset.yaml', '--packet', '@bad.yaml'], dir);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^rulesets: bad\.yaml:\d+:\d+: /);
  });

  const bad: readonly [string, string[], RegExp][] = [
    ['a packet that is not JSON', ['--packet', '{ip.src'], /^rulesets: --packet: not JSON/],
    ['an unknown field', ['--packet', '{"tcp.dstprt": 22}'], /^rulesets: --packet: unknown field `tcp\.dstprt` in the packet; did you mean `tcp\.dstport`/],
    ['a value out of range', ['--packet', '{"tcp.dstport": 99999}'], /outside the values of `tcp\.dstport`/],
    ['a packet lacking a value the verdict needs', ['--packet', '{"ip.src": "192.0.2.7"}'], /^rulesets: examples\/allow-ssh-only\.ruleset\.yaml:8:5: rule 1 \(Let SSH through\): the packet has no value for `tcp\.dstport`/],
    ['a missing lists file', ['--packet', '{}', '--lists', 'nope.json'], /nope\.json: no such file/],
  ];
  for (const [what, args, message] of bad) {
    it(`exits 2 on ${what}, in one line and without a stack trace`, () => {
      const result = run(['test', 'examples/allow-ssh-only.ruleset.yaml', ...args]);
      assert.equal(result.status, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, message);
      assert.equal(result.stderr.split('\n').length, 2, result.stderr);
      assertNoStack(result.stderr);
    });
  }

  it('exits 2 on a ruleset with an expression error, at the error', () => {
    const dir = tempFolder({ 'b.ruleset.yaml': 'name: b\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport in {22, 23}\n' });
    const result = run(['test', 'b.ruleset.yaml', '--packet', '{}'], dir);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^rulesets: b\.ruleset\.yaml:6:35: rule 1's expression has errors/);
    assertNoStack(result.stderr);
  });
});

describe('rulesets test <test files>', () => {
  it('runs the examples, found beside the rulesets and in folders', () => {
    // The folder also holds waf-custom.ruleset.test.yaml, of requests: 8 cases more.
    for (const [args, summary] of [
      [['examples/'], '30 cases in 6 files: 30 passed, 0 failed'],
      [['examples/allow-ssh-only.ruleset.yaml', 'examples/block-country.ruleset.yaml'], '7 cases in 2 files: 7 passed, 0 failed'],
      [['examples/allow-ssh-only.ruleset.test.yaml', 'examples/block-country.ruleset.test.yaml'], '7 cases in 2 files: 7 passed, 0 failed'],
    ] as const) {
      const result = run(['test', ...args]);
      assert.equal(result.stderr, '');
      assert.equal(result.status, 0, result.stdout);
      assert.match(result.stdout, /^ok {4}examples\/allow-ssh-only\.ruleset\.test\.yaml:4:3 SSH gets through: pass by rule 1 \(Let SSH through\)/);
      assert.ok(result.stdout.endsWith(`\n${summary}\n`), result.stdout);
    }
  });

  it('a failing case exits 1 and says what was expected and what happened', () => {
    const dir = tempFolder({
      'a.ruleset.yaml': SSH_TCP_BAD_RULESET,
      'a.ruleset.test.yaml': `- name: ssh
  packet: {ip.proto: tcp, tcp.dstport: 22}
  expect: pass
  rule: Let SSH through
- name: wrong on purpose
  packet: {ip.proto: tcp, tcp.dstport: 80}
  expect: pass
- name: wrong rule
  packet: {ip.proto: tcp, tcp.dstport: 80}
  expect: block
  rule: 3
`,
    });
    const result = run(['test', 'a.ruleset.yaml'], dir);
    assert.equal(result.status, 1, result.stdout);
    assert.equal(
      result.stdout,
      [
        'ok    a.ruleset.test.yaml:1:3 ssh: pass by rule 1 (Let SSH through) at a.ruleset.yaml:5:5 (a skip rule: the rest of the ruleset is skipped)',
        'FAIL  a.ruleset.test.yaml:5:3 wrong on purpose: expected pass, got block by rule 2 (Block TCP) at a.ruleset.yaml:10:5',
        '  rule 1 (Let SSH through) [skip]: no match',
        '  rule 2 (Block TCP) [block]: match',
        'FAIL  a.ruleset.test.yaml:8:3 wrong rule: expected block by rule 3 (Bad sources), got block by rule 2 (Block TCP) at a.ruleset.yaml:10:5',
        '  rule 1 (Let SSH through) [skip]: no match',
        '  rule 2 (Block TCP) [block]: match',
        '3 cases in 1 file: 1 passed, 2 failed',
        '',
      ].join('\n'),
    );
  });

  it('--request prints what the matching rules do below the verdict', () => {
    const redirect = run(['test', 'examples/redirects.ruleset.yaml', '--request', '{"url": "https://example.com/pricing?plan=team"}']);
    assert.equal(redirect.status, 0, redirect.stderr);
    assert.equal(
      redirect.stdout,
      'redirect by rule 3 (The bare domain goes to www, keeping the path and query) at examples/redirects.ruleset.yaml:26:5\n  redirect to https://www.example.com/pricing?plan=team, status 301\n',
    );
    const rewrite = run(['test', 'examples/url-rewrite.ruleset.yaml', '--request', '{"url": "https://api.example.com/v1/orders?utm_medium=mail&page=3"}']);
    assert.deepEqual(rewrite.stdout.split('\n').slice(1), ['  path /v2/orders by rule 1 (API v1 is served by v2)', '  query page=3 by rule 2 (Tracking arguments never reach the origin)', '']);
    const headers = run(['test', 'examples/security-headers.ruleset.yaml', '--request', '{"url": "https://www.example.com/widget/", "http.response.code": 200}']);
    assert.match(headers.stdout, /\n {2}header X-Frame-Options removed by rule 2 \(The embeddable widget may be framed by partners\)\n/);
  });

  it('a case that states what the rules do fails on the effect, with what it got and how', () => {
    const dir = tempFolder({
      'a.ruleset.yaml': readFileSync(join(ROOT, 'examples', 'url-rewrite.ruleset.yaml'), 'utf8'),
      'a.ruleset.test.yaml': `- name: v1 to v2
  request: {url: "https://api.example.com/v1/users?id=1"}
  expect: match
  rewrite: {path: /v2/users}
- name: the query is not touched, on purpose wrong
  request: {url: "https://api.example.com/v1/users?utm_source=x&id=1"}
  expect: match
  rewrite: {path: /v2/users, query: null}
`,
    });
    const result = run(['test', 'a.ruleset.test.yaml'], dir);
    assert.equal(result.status, 1, result.stdout);
    assert.equal(
      result.stdout,
      [
        'ok    a.ruleset.test.yaml:1:3 v1 to v2: match: rule 1 (API v1 is served by v2) at a.ruleset.yaml:10:5; the path rewritten to /v2/users',
        'FAIL  a.ruleset.test.yaml:5:3 the query is not touched, on purpose wrong: expected the query not rewritten, got the query rewritten to id=1 by rule 2 (Tracking arguments never reach the origin)',
        '  rule 1 (API v1 is served by v2) [rewrite]: match; `rewrite` does not decide here, next rule',
        '  rule 2 (Tracking arguments never reach the origin) [rewrite]: match; `rewrite` does not decide here, next rule',
        '  rule 3 (Campaign pages are one template with the campaign as an argument) [rewrite]: no match',
        '2 cases in 1 file: 1 passed, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('bad input exits 2 with the place of the bad case, and runs the other cases', () => {
    const dir = tempFolder({
      'a.ruleset.yaml': SSH_TCP_BAD_RULESET,
      'a.ruleset.test.yaml': `- packet: {ip.proto: tcp, tcp.dstport: 22}
  expect: pass
- packet: {ip.proto: tcp, tcp.dstport: 99999}
  expect: block
- packet: {ip.proto: tcp}
  expect: block
- packet: {ip.proto: tcp, tcp.dstport: 22}
  expect: drop
- packet: {ip.proto: tcp, tcp.dstport: 22}
  expect: pass
  rule: 9
- packet: {ip.proto: tcp, tcp.dstport: 22}
  expect: pass
  rules: 1
`,
    });
    const result = run(['test', 'a.ruleset.test.yaml'], dir);
    assert.equal(result.status, 2, result.stdout);
    assertNoStack(result.stdout + result.stderr);
    const lines = result.stdout.split('\n');
    assert.match(lines[0], /^ok {4}a\.ruleset\.test\.yaml:1:3: pass by rule 1/);
    assert.equal(lines[1], 'ERROR a.ruleset.test.yaml:3:40: packet: 99999 is outside the values of `tcp.dstport` (0–65535)');
    assert.equal(lines[2], 'ERROR a.ruleset.test.yaml:5:11: rule 1 (Let SSH through): the packet has no value for `tcp.dstport`, which this rule needs');
    assert.equal(lines[3], 'ERROR a.ruleset.test.yaml:8:11: expected `expect: block` or `expect: pass`');
    assert.equal(lines[4], 'ERROR a.ruleset.test.yaml:11:9: no rule 9: the ruleset has 3 rules, numbered from 1');
    assert.equal(lines[5], 'ERROR a.ruleset.test.yaml:14:3: unknown key `rules`; did you mean `rule`? a case has `name`, `packet`, `expect`, `rule`');
    assert.equal(lines[6], '6 cases in 1 file: 1 passed, 0 failed, 5 with bad input');
  });

  it('the object form names the ruleset and holds lists', () => {
    const dir = tempFolder({
      'rules/main.yaml': SSH_TCP_BAD_RULESET,
      'main.test.yaml': `ruleset: rules/main.yaml
lists:
  bad: [10.0.0.0/8]
cases:
  - packet: {ip.src: 10.9.9.9, ip.proto: udp}
    expect: block
    rule: Bad sources
  - packet: {ip.src: 11.9.9.9, ip.proto: udp}
    expect: pass
`,
    });
    const result = run(['test', '.'], dir);
    assert.equal(result.status, 0, result.stdout);
    assert.match(result.stdout, /2 cases in 1 file: 2 passed, 0 failed\n$/);
  });

  it('a test file that is not a list of cases, or has no ruleset, is bad input', () => {
    const dir = tempFolder({ 'a.ruleset.test.yaml': 'packet: {}\n', 'lone.ruleset.test.yaml': '- packet: {}\n  expect: pass\n', 'c.ruleset.test.yaml': '- [\n' });
    for (const [file, message] of [
      ['a.ruleset.test.yaml', /^ERROR a\.ruleset\.test\.yaml:1:1: expected a list of cases/],
      ['lone.ruleset.test.yaml', /^ERROR lone\.ruleset\.test\.yaml:1:1: no ruleset beside this test file: expected lone\.ruleset\.yaml/],
      ['c.ruleset.test.yaml', /^ERROR c\.ruleset\.test\.yaml:\d+:\d+: /],
    ] as const) {
      const result = run(['test', file], dir);
      assert.equal(result.status, 2, result.stdout);
      assert.match(result.stdout, message);
      assertNoStack(result.stdout + result.stderr);
    }
  });

  it('lists every problem of the test file itself, each at its place, and its cases count as bad input', () => {
    const dir = tempFolder({ 'a.ruleset.yaml': SSH_TCP_BAD_RULESET, 'a.ruleset.test.yaml': 'ruleset: a.ruleset.yaml\nlist: {}\nresource: [waf]\ncases:\n  - packet: {ip.proto: tcp}\n    expect: pass\n  - packet: {ip.proto: udp}\n    expect: pass\n' });
    const result = run(['test', 'a.ruleset.test.yaml'], dir);
    assert.equal(result.status, 2, result.stdout);
    assert.deepEqual(result.stdout.split('\n').filter((line) => line.startsWith('ERROR')).map((line) => line.replace(/: .*/, '')), ['ERROR a.ruleset.test.yaml:2:1', 'ERROR a.ruleset.test.yaml:3:11']);
    assert.match(result.stdout, /2 cases in 1 file: 0 passed, 0 failed, 2 with bad input\n$/);
  });

  it('prints a case\'s place as the editor counts it, in a file whose lines end in a lone CR', () => {
    const text = '[\r  {"packet": {"ip.proto": "tcp", "tcp.dstport": 99999},\r   "expect": "pass"}\r]\r';
    const dir = tempFolder({ 'a.ruleset.yaml': SSH_TCP_BAD_RULESET, 'a.ruleset.test.json': text });
    const result = run(['test', 'a.ruleset.test.json'], dir);
    const editor = TextDocument.create('file:///a.ruleset.test.json', 'json', 1, text).positionAt(text.indexOf('99999'));
    assert.equal(editor.line, 1, 'the editor ends a line at a lone CR');
    assert.match(result.stdout, new RegExp(`^ERROR a\\.ruleset\\.test\\.json:${editor.line + 1}:${editor.character + 1}: packet: 99999 is outside`, 'm'));
  });

  it('usage problems exit 2 in one line', () => {
    const dir = tempFolder({ 'x.ruleset.yaml': SSH_TCP_BAD_RULESET, 'empty/readme.txt': '' });
    for (const [args, message] of [
      [[], /^rulesets: nothing to test/],
      [['x.ruleset.yaml'], /^rulesets: x\.ruleset\.yaml: no test file beside it: expected x\.ruleset\.test\.yaml/],
      [['empty'], /^rulesets: empty: no test files/],
      [['missing.yaml'], /^rulesets: missing\.yaml: no such file or folder/],
      [['x.ruleset.yaml', 'y', '--packet', '{}'], /^rulesets: --packet tests one ruleset/],
      [['--bogus'], /^rulesets: /],
    ] as const) {
      const result = run(['test', ...args], dir);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stdout}`);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.split('\n').length, 2, result.stderr);
    }
  });

  it('--help shows the usage', () => {
    const result = run(['test', '--help']);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^Usage: rulesets test FILE --packet JSON/);
    assert.match(run(['--help']).stdout, /rulesets test FILE --packet JSON/);
  });
});

describe('rulesets test: a request field a case leaves out (issue 36)', () => {
  it("a field only a rule that decides nothing reads is not asked for; one the outcome read is named", () => {
    const dir = tempFolder({
      'zone.ruleset.yaml': `name: zone
kind: zone
phase: http_request_firewall_managed
rules:
  - action: execute
    action_parameters: {id: efb7b8c949ac4650a09736fc376e9aee}
    expression: cf.zone.name eq "example.com"
    description: Managed rules of example.com
  - action: block
    expression: http.request.uri.path eq "/admin" and not http.cookie contains "admin="
    description: Only admins at /admin
`,
      'zone.ruleset.test.yaml': `- name: the home page
  request: {url: "https://example.com/"}
  expect: pass
- name: the admin without its cookie
  request: {url: "https://example.com/admin"}
  expect: block
`,
    });
    const result = run(['test', 'zone.ruleset.test.yaml'], dir);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual(result.stdout.split('\n'), [
      'ok    zone.ruleset.test.yaml:1:3 the home page: pass: no rule matched',
      'ok    zone.ruleset.test.yaml:4:3 the admin without its cookie: block by rule 2 (Only admins at /admin) at zone.ruleset.yaml:9:5; assumed (not given): http.cookie = ""',
      '2 cases in 1 file: 2 passed, 0 failed',
      '',
    ]);
  });
});

describe('rulesets test FILE --request JSON', () => {
  it('prints the verdict of a ruleset of an HTTP phase, and each rule looked at with --trace', () => {
    const request = '{"url": "https://www.example.com/wp-login.php", "method": "POST", "ip.src": "203.0.113.9", "ip.src.country": "US", "headers": {"User-Agent": "Mozilla/5.0"}}';
    const result = run(['test', 'examples/waf-custom.ruleset.yaml', '--request', request, '--trace']);
    assert.equal(result.stderr, '');
    assert.equal(result.status, 0);
    assert.equal(
      result.stdout,
      [
        '  rule 1 (The office network skips the custom rules) [skip]: no match',
        '  rule 2 (Block known attack tools) [block]: no match',
        '  rule 3 (Block files that are never public) [block]: no match',
        '  rule 4 (Block SQL injection in query arguments) [block]: no match',
        '  rule 5 (Block logins from outside the countries of our users) [block]: match',
        'block by rule 5 (Block logins from outside the countries of our users) at examples/waf-custom.ruleset.yaml:34:5',
        '',
      ].join('\n'),
    );
  });

  it('reads the request from a YAML file, and prints the matches of a phase whose actions only match', () => {
    const dir = tempFolder({
      't.ruleset.yaml': 'name: t\nkind: zone\nphase: http_request_late_transform\nrules:\n  - action: rewrite\n    expression: http.request.uri.path eq "/old"\n    description: Rewrite old\n',
      'request.yaml': 'url: https://a.example/old\n',
    });
    const result = run(['test', 't.ruleset.yaml', '--request', '@request.yaml'], dir);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'match: rule 1 (Rewrite old) at t.ruleset.yaml:5:5\n');
  });

  it('a request field left out is assumed neutral, and the ones the outcome read are named', () => {
    // No headers: rule 2 reads http.request.headers, which is then an empty map.
    const result = run(['test', 'examples/waf-custom.ruleset.yaml', '--request', '{"url": "https://a.example/", "ip.src": "203.0.113.9"}']);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'pass: no rule matched\n  assumed (not given): http.request.headers = {}\n');
  });

  it('bad input exits 2 with what is wrong and where, never a stack', () => {
    const cases: readonly [readonly string[], RegExp][] = [
      [['--request', '{"http.hots": "a"}'], /^rulesets: --request: unknown field `http\.hots` in the request; did you mean `http\.host`\?\n$/],
      [['--request', '{"url": "https://a.example/"'], /^rulesets: --request: not JSON/],
      [['--request', '{"url": "https://a.example/"}'], /^rulesets: examples\/waf-custom\.ruleset\.yaml:9:5: rule 1 \(The office network skips the custom rules\): the request has no value for `ip\.src`, which this rule needs \(not assumed: an address is never neutral, .*\)\n$/],
      [['--packet', '{"ip.src": "203.0.113.9"}'], /its phase `http_request_firewall_custom` runs on HTTP requests: give --request/],
      [['--packet', '{}', '--request', '{}'], /give --packet or --request, not both/],
    ];
    for (const [options, message] of cases) {
      const result = run(['test', 'examples/waf-custom.ruleset.yaml', ...options]);
      assert.equal(result.status, 2, options.join(' '));
      assert.match(result.stderr, message);
      assertNoStack(result.stderr);
    }
    const packetRuleset = run(['test', 'examples/allow-ssh-only.ruleset.yaml', '--request', '{}']);
    assert.equal(packetRuleset.status, 2);
    assert.match(packetRuleset.stderr, /its phase `magic_transit` runs on packets: give --packet/);
  });
});

describe('rulesets test on Terraform and octorules files (issue 23)', () => {
  const TWO_RESOURCES = [
    'resource "cloudflare_ruleset" "waf" {',
    '  name  = "waf"',
    '  kind  = "zone"',
    '  phase = "http_request_firewall_custom"',
    '  rules = [{',
    '    action     = "block"',
    '    expression = "http.request.uri.path eq \\"/admin\\""',
    '  }]',
    '}',
    'resource "cloudflare_ruleset" "late" {',
    '  name  = "late"',
    '  kind  = "zone"',
    '  phase = "http_request_firewall_custom"',
    '  rules = [{',
    '    action     = "managed_challenge"',
    '    expression = "true"',
    '  }]',
    '}',
    '',
  ].join('\n');
  const OCTORULES = [
    'cloudflare:',
    '  waf_custom_rules:',
    '    - ref: admin',
    '      action: block',
    '      expression: http.request.uri.path eq "/admin"',
    '  redirect_rules:',
    '    - ref: old',
    '      expression: http.request.uri.path eq "/old"',
    '      action_parameters:',
    '        from_value:',
    '          target_url:',
    '            value: https://example.com/new',
    '',
  ].join('\n');
  const ADMIN_BLOCKED = ['  - request: {url: "https://example.com/admin"}', '    expect: block', ''].join('\n');

  it('runs the cases against the resource or section the test file names', () => {
    const dir = tempFolder({
      'main.tf': TWO_RESOURCES,
      'waf.test.yaml': `ruleset: main.tf\nresource: cloudflare_ruleset.waf\ncases:\n${ADMIN_BLOCKED}`,
      'late.test.yaml': `ruleset: main.tf\nresource: late\ncases:\n  - request: {url: "https://example.com/"}\n    expect: managed_challenge\n`,
      'rules/example.com.yaml': OCTORULES,
      'rules/example.com.test.yaml': `section: waf_custom_rules\ncases:\n${ADMIN_BLOCKED}`,
      // A rule without `action` has its section's: redirect_rules redirect.
      'rules/redirects.test.yaml': `ruleset: example.com.yaml\nsection: redirect_rules\ncases:\n  - request: {url: "https://example.com/old"}\n    expect: redirect\n    redirect: {url: https://example.com/new}\n`,
    });
    const result = run(['test', '.'], dir);
    assert.equal(result.stdout.split('\n').at(-2), '4 cases in 4 files: 4 passed, 0 failed');
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  it('says which resources or sections there are when the test file names none, or one that is not there', () => {
    const dir = tempFolder({
      'main.tf': TWO_RESOURCES,
      'main.test.yaml': `cases:\n${ADMIN_BLOCKED}`,
      'other.test.yaml': `ruleset: main.tf\nresource: nope\ncases:\n${ADMIN_BLOCKED}`,
      'example.com.yaml': OCTORULES,
      'example.com.test.yaml': `resource: waf\ncases:\n${ADMIN_BLOCKED}`,
    });
    const result = run(['test', '.'], dir);
    assert.equal(result.status, 2);
    assertNoStack(result.stdout + result.stderr);
    assert.match(result.stdout, /main\.test\.yaml:1:1: the file has 2 `cloudflare_ruleset` resources \(cloudflare_ruleset\.waf, cloudflare_ruleset\.late\): name one with `resource: NAME` in the test file/);
    assert.match(result.stdout, /other\.test\.yaml:1:1: no `cloudflare_ruleset` resource "nope" in the file; it has cloudflare_ruleset\.waf, cloudflare_ruleset\.late/);
    assert.match(result.stdout, /example\.com\.test\.yaml:1:1: `resource: NAME` in the test file names a Terraform resource; this is an octorules file: name one of its rulesets with `section: NAME` in the test file/);
  });

  it('tests one request against a resource named with --resource', () => {
    const dir = tempFolder({ 'main.tf': TWO_RESOURCES });
    const one = run(['test', 'main.tf', '--resource', 'waf', '--request', '{"url": "https://example.com/admin"}'], dir);
    assert.equal(one.status, 0, one.stderr);
    assert.match(one.stdout, /^block by rule 1 at main\.tf:5:12/);
    const none = run(['test', 'main.tf', '--request', '{"url": "https://example.com/admin"}'], dir);
    assert.equal(none.status, 2);
    assert.equal(none.stderr, 'rulesets: main.tf: the file has 2 `cloudflare_ruleset` resources (cloudflare_ruleset.waf, cloudflare_ruleset.late): name one with --resource NAME\n');
  });
});
