/**
 * A request field a test case leaves out takes a neutral value, and the outcome names the ones
 * it depended on (evaluation/assumed-fields.ts), through the runner that `rulesets test`, the
 * Test Explorer and the test file's diagnostics share.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { testFileDiagnostics } from '../../server/src/features/test-file';
import { modelOf, textOf } from '../features/harness';
import { isTestProblem, loadTestRuleset, readTestFile, runTestCase, type CaseOutcome, type TestRuleset } from '../../server/src/evaluation/test-file-run';

/** Managed rules of a zone: an `execute` that decides nothing, then rules that do. */
const MANAGED = `phase: http_request_firewall_managed
rules:
  - description: Managed rules of example.com
    action: execute
    action_parameters: {id: efb7b8c949ac4650a09736fc376e9aee}
    expression: cf.zone.name eq "example.com"
  - description: Block the admin
    action: block
    expression: starts_with(http.request.uri.path, "/admin")
  - description: Challenge the login without a session
    action: managed_challenge
    expression: http.request.uri.path eq "/login" and not http.cookie contains "session="
  - description: Block bots
    action: block
    expression: cf.bot_management.score lt 30
  - description: Only these addresses at the office
    action: block
    expression: http.host eq "office.example.com" and not ip.src in {192.0.2.0/24}
`;

function run(cases: string, ruleset = MANAGED): CaseOutcome[] {
  const file = readTestFile(cases, 'yaml', { path: '/w/a.ruleset.test.yaml', resolve: (p) => `/w/${p}` });
  const loaded = loadTestRuleset(file, (path) => (path === '/w/a.ruleset.yaml' ? { text: ruleset, display: 'a.ruleset.yaml' } : undefined));
  assert.ok(!isTestProblem(loaded), isTestProblem(loaded) ? loaded.message : '');
  return file.cases.map((c) => runTestCase(c, loaded as TestRuleset, new Map()));
}

describe('a request field a case leaves out', () => {
  it('of a rule that does not decide the case: the case passes, and the field is not named', () => {
    // cf.zone.name is read by the execute rule only, which decides no verdict here.
    const [outcome] = run('- request: {url: "https://example.com/admin/users"}\n  expect: block\n  rule: 2\n');
    assert.equal(outcome.kind, 'pass', outcome.message);
    assert.equal(outcome.message, 'block by rule 2 (Block the admin) at a.ruleset.yaml:7:5');
  });

  it('that the outcome depends on: assumed neutral, and named with the value taken', () => {
    const [outcome] = run('- request: {url: "https://example.com/login"}\n  expect: managed_challenge\n');
    assert.equal(outcome.kind, 'pass', outcome.message);
    assert.equal(outcome.message, 'managed_challenge by rule 3 (Challenge the login without a session) at a.ruleset.yaml:10:5; assumed (not given): http.cookie = ""');
  });

  it('a failure says what was assumed, so the fix is plain', () => {
    const [outcome] = run('- request: {url: "https://example.com/login"}\n  expect: pass\n');
    assert.equal(outcome.kind, 'fail');
    assert.match(outcome.message, /^expected pass, got managed_challenge by rule 3 .*; assumed \(not given\): http\.cookie = ""$/);
  });

  it('given, is not assumed', () => {
    const [outcome] = run('- request: {url: "https://example.com/", cf.bot_management.score: 90, cf.zone.name: example.com}\n  expect: pass\n');
    assert.equal(outcome.kind, 'pass', outcome.message);
    assert.equal(outcome.message, 'pass: no rule decided');
  });

  it('a header the request does not send reads as "", and is named', () => {
    const ruleset = 'phase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.user_agent eq ""\n';
    const [outcome] = run('- request: {url: "https://example.com/", headers: {Accept: "*/*"}}\n  expect: block\n', ruleset);
    assert.equal(outcome.kind, 'pass', outcome.message);
    assert.match(outcome.message, /; assumed \(not given\): http\.user_agent = ""$/);
  });

  it('a method not given is GET', () => {
    const ruleset = 'phase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.request.method ne "GET"\n';
    const [outcome] = run('- request: {url: "https://example.com/"}\n  expect: pass\n', ruleset);
    assert.equal(outcome.kind, 'pass', outcome.message);
    assert.equal(outcome.message, 'pass: no rule matched; assumed (not given): http.request.method = "GET"');
  });

  it('an address is never assumed: the case is bad input, and says why', () => {
    const [outcome] = run('- request: {url: "https://office.example.com/", cf.bot_management.score: 90}\n  expect: pass\n');
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.message, /^rule 5 \(Only these addresses at the office\): the request has no value for `ip\.src`, which this rule needs \(not assumed: an address is never neutral, .*; give it\)$/);
  });

  it('a number whose values leave out 0 is not assumed either, and says why', () => {
    const [outcome] = run('- request: {url: "https://example.com/"}\n  expect: pass\n');
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.message, /^rule 4 \(Block bots\): the request has no value for `cf\.bot_management\.score`, which this rule needs \(not assumed: `cf\.bot_management\.score` holds 1–99, none of them neutral; give it\)$/);
  });

  it('a field the URL could not give is not assumed: "" would contradict the URL', () => {
    const ruleset = 'phase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.host eq "a.example"\n';
    const [outcome] = run('- request: {url: "https://a.example:8443/"}\n  expect: block\n', ruleset);
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.message, /the URL gives a port/);
  });

  it('a phase whose actions only match names what any rule looked at read', () => {
    const ruleset = 'phase: http_request_transform\nrules:\n  - description: Old\n    action: rewrite\n    action_parameters: {uri: {path: {value: /new}}}\n    expression: http.referer eq ""\n';
    const [outcome] = run('- request: {url: "https://a.example/old"}\n  expect: match\n', ruleset);
    assert.equal(outcome.kind, 'pass', outcome.message);
    assert.match(outcome.message, /; assumed \(not given\): http\.referer = ""$/);
  });
});

describe('the test file\'s diagnostics judge a case as the runner does', () => {
  function diagnostics(cases: string): { text: string; message: string }[] {
    const model = modelOf(cases, 'yaml', 'file:///w/a.ruleset.test.yaml');
    return testFileDiagnostics(model, (uri) => (uri === 'file:///w/a.ruleset.yaml' ? { text: MANAGED, format: 'yaml' } : undefined)).map((d) => ({ text: textOf(cases, d.range), message: d.message }));
  }

  it('nothing on a case that leaves out a field of a rule that does not decide it', () => {
    assert.deepEqual(diagnostics('- request: {url: "https://example.com/admin/users"}\n  expect: block\n  rule: 2\n'), []);
  });

  it('a failure names what was assumed, as `rulesets test` does', () => {
    const cases = '- request: {url: "https://example.com/login"}\n  expect: pass\n';
    const [runner] = run(cases);
    assert.deepEqual(diagnostics(cases), [{ text: 'pass', message: 'expected pass, got managed_challenge by rule 3 (Challenge the login without a session); assumed (not given): http.cookie = ""' }]);
    assert.match(runner.message, /; assumed \(not given\): http\.cookie = ""$/);
  });
});
