/**
 * The Test Explorer without VS Code: the item each case of a test file gets (label, place,
 * stable id), what a run reports for it (pass, failure with expected and actual, error at the
 * place at fault), which files a save makes run again, and that such files activate the extension.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minimatch } from 'minimatch';
import { TextDocument } from 'vscode-languageserver-textdocument';

import type { RulesetRead, TestFile } from '../../server/src/core';
import { caseItems, parseTestFile, runTestFile, TEST_FILE_GLOB, testFilesAffected, type CaseResult } from '../../client/src/test-cases';
import { EDGE_RULESET, EDGE_TESTS } from '../fixtures/rulesets';

const ROOT = join(__dirname, '..', '..');

const TESTS = `${EDGE_TESTS}- packet: {ip.proto: udp, udp.dstport: 53}
  expect: pass
`;

const TEST_PATH = '/w/edge.ruleset.test.yaml';

function parse(text: string, path = TEST_PATH): TestFile {
  const file = parseTestFile(path, text);
  assert.ok(file, 'a YAML test file');
  return file;
}

/** The workspace's files by path, as the editor or the disk has them. */
function workspace(files: Record<string, string>): (path: string) => RulesetRead {
  return (path) => (path in files ? { text: files[path], display: path.slice('/w/'.length) } : undefined);
}

/** The 0-based line holding `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  assert.ok(index >= 0, needle);
  return index;
}

function byId(results: readonly CaseResult[], id: string): CaseResult {
  const found = results.find((r) => r.id === id);
  assert.ok(found, `a result for ${id}: ${results.map((r) => r.id).join(', ')}`);
  return found;
}

describe('Test Explorer: the cases of a test file', () => {
  it('one item per case, labelled by its name, or by its packet when it has none', () => {
    const items = caseItems(parse(TESTS));
    assert.deepEqual(
      items.map((item) => item.label),
      ['SSH gets through', 'web gets through', 'ip.proto: udp, udp.dstport: 53'],
    );
  });

  it('places a case where the editor does in a file whose lines end in a lone CR', () => {
    const text = '[\r  {"packet": {"ip.proto": "tcp"}, "expect": "pass"},\r  {"packet": {"ip.proto": "udp"}, "expect": "pass"}\r]\r';
    const editor = TextDocument.create('file:///w/edge.ruleset.test.json', 'json', 1, text);
    const items = caseItems(parse(text, '/w/edge.ruleset.test.json'));
    assert.deepEqual(
      items.map((item) => ({ line: item.start.line, character: item.start.character })),
      [editor.positionAt(text.indexOf('{"packet"')), editor.positionAt(text.lastIndexOf('{"packet"'))],
    );
  });

  it('each item spans its case, so the gutter shows its run button on the case\'s first line', () => {
    const items = caseItems(parse(TESTS));
    assert.deepEqual(
      items.map((item) => [item.start.line, item.start.character, item.end.line]),
      [
        [lineOf(TESTS, 'SSH gets through'), 2, lineOf(TESTS, 'rule: Let SSH through')],
        [lineOf(TESTS, 'web gets through'), 2, lineOf(TESTS, 'tcp.dstport: 443') + 1],
        [lineOf(TESTS, 'udp.dstport: 53'), 2, lineOf(TESTS, 'udp.dstport: 53') + 1],
      ],
    );
    assert.equal(items[0].start.path, TEST_PATH);
  });

  it('a named case keeps its id when cases are added above it; a name used twice falls back to the position', () => {
    const before = caseItems(parse(TESTS));
    const after = caseItems(parse(`- packet: {ip.proto: icmp}\n  expect: pass\n${TESTS}`));
    assert.equal(after.find((item) => item.label === 'web gets through')?.id, before.find((item) => item.label === 'web gets through')?.id);
    const twice = caseItems(parse('- name: same\n  packet: {}\n  expect: pass\n- name: same\n  packet: {}\n  expect: block\n'));
    assert.deepEqual(twice.map((item) => item.id), ['case:1', 'case:2']);
  });

  it('reads JSON test files, and leaves other files alone', () => {
    const json = parse('[\n  {"name": "ssh", "packet": {"tcp.dstport": 22}, "expect": "pass"}\n]\n', '/w/edge.ruleset.test.json');
    assert.deepEqual(caseItems(json).map((item) => [item.label, item.start.line]), [['ssh', 1]]);
    assert.equal(parseTestFile('/w/notes.txt', '- packet: {}\n'), undefined);
  });
});

describe('Test Explorer: a run', () => {
  const run = (files: Record<string, string>, only?: Set<string>) => runTestFile(parse(files[TEST_PATH]), workspace(files), 'edge.ruleset.test.yaml', only);

  it('a case the ruleset decides as expected passes', () => {
    const result = byId(run({ [TEST_PATH]: TESTS, '/w/edge.ruleset.yaml': EDGE_RULESET }).results, 'name:SSH gets through');
    assert.equal(result.outcome, 'passed');
    assert.equal(result.message, 'pass by rule 1 (Let SSH through) at edge.ruleset.yaml:5:5 (a skip rule: the rest of the ruleset is skipped)');
  });

  it('a case decided otherwise fails at its first line, with expected and actual, and the rules looked at', () => {
    const result = byId(run({ [TEST_PATH]: TESTS, '/w/edge.ruleset.yaml': EDGE_RULESET }).results, 'name:web gets through');
    assert.ok(result.outcome === 'failed', result.outcome);
    assert.equal(result.message, 'expected pass, got block by rule 2 (Block TCP) at edge.ruleset.yaml:9:5');
    assert.deepEqual([result.expected, result.actual], ['pass', 'block by rule 2 (Block TCP)']);
    assert.deepEqual(result.place, { path: TEST_PATH, line: lineOf(TESTS, 'web gets through'), character: 2 });
    assert.equal(
      result.output,
      'FAIL  edge.ruleset.test.yaml:6:3 web gets through: expected pass, got block by rule 2 (Block TCP) at edge.ruleset.yaml:9:5\n' +
        '  rule 1 (Let SSH through) [skip]: no match\n  rule 2 (Block TCP) [block]: match\n',
    );
  });

  it('runs only the cases asked for', () => {
    const { results } = run({ [TEST_PATH]: TESTS, '/w/edge.ruleset.yaml': EDGE_RULESET }, new Set(['case:3']));
    assert.deepEqual(results.map((r) => [r.id, r.outcome]), [['case:3', 'passed']]);
  });

  it('runs against the ruleset as given (the editor\'s unsaved text): fixing it makes the case pass', () => {
    const fixed = EDGE_RULESET.replace('tcp.dstport == 22', 'tcp.dstport in {22 443}');
    assert.equal(byId(run({ [TEST_PATH]: TESTS, '/w/edge.ruleset.yaml': fixed }).results, 'name:web gets through').outcome, 'passed');
  });

  it('bad input in a case is an error at the value at fault', () => {
    const text = '- name: bad port\n  packet: {ip.proto: tcp, tcp.dstport: 99999}\n  expect: block\n';
    const result = byId(run({ [TEST_PATH]: text, '/w/edge.ruleset.yaml': EDGE_RULESET }).results, 'name:bad port');
    assert.ok(result.outcome === 'errored', result.outcome);
    assert.match(result.message, /99999 is outside the values of `tcp\.dstport`/);
    assert.deepEqual(result.place, { path: TEST_PATH, line: 1, character: text.split('\n')[1].indexOf('99999') });
  });

  it('no ruleset beside the file: every case errors with what was looked for, at the top of the file', () => {
    const { problem, results } = run({ [TEST_PATH]: TESTS });
    assert.equal(problem?.message, 'no ruleset beside this test file: expected edge.ruleset.yaml (or name it with `ruleset:`)');
    assert.deepEqual(problem.place, { path: TEST_PATH, line: 0, character: 0 });
    assert.deepEqual(results.map((r) => r.outcome), ['errored', 'errored', 'errored']);
  });

  it('a ruleset that cannot run: the error is in the ruleset, at the expression with errors', () => {
    const broken = EDGE_RULESET.replace('tcp.dstport == 22', 'tcp.dstport in {22, 443}');
    const { problem } = run({ [TEST_PATH]: TESTS, '/w/edge.ruleset.yaml': broken });
    assert.match(problem?.message ?? '', /^edge\.ruleset\.yaml: rule 1's expression has errors/);
    assert.deepEqual(problem?.place, { path: '/w/edge.ruleset.yaml', line: lineOf(broken, '{22, 443}'), character: broken.split('\n')[lineOf(broken, '{22, 443}')].indexOf(', 443') });
  });

  it('a test file that is not a list of cases is one problem at its place, with no cases', () => {
    const { problem, results } = run({ [TEST_PATH]: 'packet: {}\n', '/w/edge.ruleset.yaml': EDGE_RULESET });
    assert.match(problem?.message ?? '', /^expected a list of cases/);
    assert.deepEqual(results, []);
  });

  it('a `ruleset:` path is read relative to the test file', () => {
    const text = 'ruleset: ../rules/edge.yaml\ncases:\n  - name: ssh\n    packet: {ip.proto: tcp, tcp.dstport: 22}\n    expect: pass\n';
    const file = parseTestFile('/w/tests/edge.test.yaml', text)!;
    assert.deepEqual(file.rulesetPaths, ['/w/rules/edge.yaml']);
    const { results } = runTestFile(file, workspace({ '/w/rules/edge.yaml': EDGE_RULESET }), 'tests/edge.test.yaml');
    assert.deepEqual(results.map((r) => r.outcome), ['passed']);
  });
});

describe('Test Explorer: running again on save', () => {
  const known = new Map([
    ['/w/edge.ruleset.test.yaml', ['/w/edge.ruleset.yaml', '/w/edge.ruleset.yml', '/w/edge.ruleset.json']],
    ['/w/other.ruleset.test.yaml', ['/w/other.ruleset.yaml', '/w/other.ruleset.yml', '/w/other.ruleset.json']],
    ['/w/tests/main.test.yaml', ['/w/rules/main.yaml']],
  ]);

  it('a saved test file runs again, and so does every test file of a saved ruleset; nothing else', () => {
    assert.deepEqual([...testFilesAffected(['/w/edge.ruleset.test.yaml'], known)], ['/w/edge.ruleset.test.yaml']);
    assert.deepEqual([...testFilesAffected(['/w/rules/main.yaml', '/w/other.ruleset.json'], known)].sort(), ['/w/other.ruleset.test.yaml', '/w/tests/main.test.yaml']);
    assert.deepEqual([...testFilesAffected(['/w/package.json'], known)], []);
  });

  it("a Terraform ruleset's test file runs again when a file of its module is saved", () => {
    const terraform = new Map([['/w/tf/main.test.yaml', ['/w/tf/main.tf']], ['/w/edge.ruleset.test.yaml', ['/w/edge.ruleset.yaml']]]);
    for (const saved of ['/w/tf/variables.tf', '/w/tf/terraform.tfvars', '/w/tf/prod.auto.tfvars.json']) assert.deepEqual([...testFilesAffected([saved], terraform)], ['/w/tf/main.test.yaml'], saved);
    assert.deepEqual([...testFilesAffected(['/w/tf/sub/variables.tf', '/w/tf/README.md'], terraform)], []);
  });
});

describe('Test Explorer: discovery and activation', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { activationEvents: string[] };

  it('finds test files in YAML and JSON, in any folder', () => {
    for (const path of ['edge.ruleset.test.yaml', 'a/b/edge.ruleset.test.yml', 'edge.ruleset.test.json']) assert.ok(minimatch(path, TEST_FILE_GLOB), path);
    for (const path of ['edge.ruleset.yaml', 'edge.test.yaml']) assert.ok(!minimatch(path, TEST_FILE_GLOB), path);
  });

  it('the extension activates in a folder that holds only test files', () => {
    const globs = manifest.activationEvents.filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));
    for (const path of ['tests/edge.ruleset.test.yaml', 'edge.ruleset.test.json']) assert.ok(globs.some((glob) => minimatch(path, glob)), path);
  });
});

describe('Test Explorer: request cases of a ruleset in an HTTP phase', () => {
  const RULESET = [
    'name: waf',
    'kind: zone',
    'phase: http_request_firewall_custom',
    'rules:',
    '  - action: managed_challenge',
    '    expression: http.request.uri.path eq "/login" and cf.bot_management.score lt 30',
    '    description: Challenge bots at the login',
    '',
  ].join('\n');
  const CASES = [
    '- name: a bot at the login',
    '  request: {url: "https://a.example/login", cf.bot_management.score: 3}',
    '  expect: managed_challenge',
    '- request: {url: "https://a.example/login", method: POST}',
    '  expect: pass',
    '- name: human',
    '  request: {url: "https://a.example/login", cf.bot_management.score: 90}',
    '  expect: managed_challenge',
    '- name: typo',
    '  request: {url: "https://a.example/", http.hots: a.example}',
    '  expect: pass',
    '',
  ].join('\n');
  const PATH = '/w/waf.ruleset.test.yaml';
  const run = () => runTestFile(parse(CASES, PATH), workspace({ '/w/waf.ruleset.yaml': RULESET }), 'waf.ruleset.test.yaml');

  it('labels a case without a name by its request', () => {
    assert.deepEqual(
      caseItems(parse(CASES, PATH)).map((item) => item.label),
      ['a bot at the login', 'url: https://a.example/login, method: POST', 'human', 'typo'],
    );
  });

  it('runs them as `rulesets test` does: passed, failed with expected and actual, errored at the key at fault', () => {
    const { results } = run();
    const [bot, post, human, typo] = results;
    assert.deepEqual([bot.outcome, bot.message], ['passed', 'managed_challenge by rule 1 (Challenge bots at the login) at waf.ruleset.yaml:5:5']);
    assert.ok(post.outcome === 'errored', post.outcome);
    // The same words as `rulesets test`: a score of 1–99 has no neutral value to assume.
    assert.equal(post.message, 'rule 1 (Challenge bots at the login): the request has no value for `cf.bot_management.score`, which this rule needs (not assumed: `cf.bot_management.score` holds 1–99, none of them neutral; give it)');
    assert.ok(human.outcome === 'failed', human.outcome);
    assert.deepEqual([human.expected, human.actual], ['managed_challenge', 'pass: no rule matched']);
    assert.ok(typo.outcome === 'errored', typo.outcome);
    assert.match(typo.message, /^request: unknown field `http\.hots` in the request; did you mean `http\.host`/);
    assert.deepEqual(typo.place, { path: PATH, line: lineOf(CASES, 'http.hots'), character: CASES.split('\n')[lineOf(CASES, 'http.hots')].indexOf('http.hots') });
  });
});

describe('Test Explorer: a Terraform resource with its module', () => {
  it('runs the rules as the module gives them and names what a rule still needs, as `rulesets test` does', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { diskModuleReader } = await import('../../server/src/documents/include-files');
    const { loadTerraformParser } = await import('../../server/src/documents/terraform');
    await loadTerraformParser();
    const folder = mkdtempSync(join(tmpdir(), 'explorer-tf-'));
    const main = 'resource "cloudflare_ruleset" "waf" {\n  phase = "http_request_firewall_custom"\n  rules {\n    action     = "block"\n    expression = "starts_with(http.request.uri.path, \\"${var.blocked_path}\\")"\n  }\n}\n';
    writeFileSync(join(folder, 'main.tf'), main);
    writeFileSync(join(folder, 'variables.tf'), 'variable "blocked_path" {}\n');
    const cases = 'cases:\n  - request: {url: "https://a.example/admin/"}\n    expect: block\n';
    const read = (path: string): RulesetRead => (path === join(folder, 'main.tf') ? { text: main, display: 'main.tf', module: diskModuleReader() } : undefined);
    const unknown = runTestFile(parse(`ruleset: main.tf\n${cases}`, join(folder, 'main.test.yaml')), read, 'main.test.yaml');
    assert.equal(unknown.results[0].outcome, 'errored');
    assert.match(unknown.results[0].outcome === 'errored' ? unknown.results[0].message : '', /it needs `var\.blocked_path` \(a variable without a value\): give it under `variables:`/);
    const given = runTestFile(parse(`ruleset: main.tf\nvariables: {blocked_path: /admin}\n${cases}`, join(folder, 'main.test.yaml')), read, 'main.test.yaml');
    assert.equal(given.results[0].outcome, 'passed');
  });
});
