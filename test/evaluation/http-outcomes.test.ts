/**
 * What a ruleset of an HTTP phase does with a request (ruleset-eval.ts, outcomes.ts), and test
 * files of request cases (test-file-run.ts): the outcomes a case may expect by phase, the
 * places of bad input, and the cases of a phase whose actions only match.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { parseRuleset } from '../../server/src/documents/parsed-ruleset';
import { phaseOutcomes } from '../../server/src/evaluation/outcomes';
import { parseRequest } from '../../server/src/evaluation/request';
import { evaluateRuleset, prepareRuleset, RuleEvaluationError } from '../../server/src/evaluation/ruleset-eval';
import { caseOutput, isTestProblem, loadTestRuleset, readTestFile, runTestCase, type RulesetRead, type TestFile, type TestRuleset } from '../../server/src/evaluation/test-file-run';
import { linePosition } from '../../server/src/documents/positions';

const WAF = `name: waf
kind: zone
phase: http_request_firewall_custom
rules:
  - action: skip
    action_parameters: {ruleset: current}
    expression: ip.src in {192.0.2.0/24}
    description: Office
  - action: log
    expression: any(http.request.uri.args.names[*] == "debug")
    description: Log debug
  - action: managed_challenge
    expression: http.request.uri.path eq "/login" and cf.bot_management.score lt 30
    description: Challenge bots at the login
  - action: block
    expression: starts_with(http.request.uri.path, "/admin")
    description: Block admin
  - action: js_challenge
    expression: http.request.uri.path eq "/js"
    description: JS
`;

const TRANSFORM = `name: t
kind: zone
phase: http_request_late_transform
rules:
  - action: rewrite
    expression: http.request.uri.path eq "/old"
    description: Rewrite old
  - action: rewrite
    expression: starts_with(http.request.uri.path, "/o")
    description: Rewrite o
`;

function verdict(text: string, request: object) {
  const prepared = prepareRuleset(parseRuleset(text, 'yaml'));
  return evaluateRuleset(prepared, parseRequest(request, { phase: prepared.phase }));
}

describe('a ruleset of an HTTP phase over a request', () => {
  it('the first matching rule with a terminating action decides, with that action', () => {
    const challenged = verdict(WAF, { url: 'https://a.example/login?debug=1', 'ip.src': '203.0.113.1', 'cf.bot_management.score': 5 });
    assert.equal(challenged.verdict, 'managed_challenge');
    assert.equal(challenged.rule?.number, 3);
    assert.deepEqual(
      challenged.trace.map((t) => [t.rule.number, t.outcome, t.effect]),
      [
        [1, 'no-match', undefined],
        [2, 'match', 'continue'],
        [3, 'match', 'terminate'],
      ],
    );
    const blocked = verdict(WAF, { url: 'https://a.example/admin/x', 'ip.src': '203.0.113.1' });
    assert.deepEqual([blocked.verdict, blocked.rule?.number, blocked.trace.at(-1)?.effect], ['block', 4, 'block']);
    assert.equal(verdict(WAF, { url: 'https://a.example/js', 'ip.src': '203.0.113.1' }).verdict, 'js_challenge');
  });

  it('a skip of the current ruleset passes; no decision passes', () => {
    const office = verdict(WAF, { url: 'https://a.example/admin', 'ip.src': '192.0.2.9' });
    assert.deepEqual([office.verdict, office.rule?.number], ['pass', 1]);
    const plain = verdict(WAF, { url: 'https://a.example/?debug=1', 'ip.src': '203.0.113.1' });
    assert.deepEqual([plain.verdict, plain.rule], ['pass', undefined]);
    assert.equal(plain.trace[1].outcome, 'match', 'the log rule matched, and did not decide');
  });

  it('a rule that needs a value the request does not give stops with the rule and the request\'s fields named', () => {
    assert.throws(
      () => verdict(WAF, { url: 'https://a.example/login', 'ip.src': '203.0.113.1' }),
      (error: unknown) => error instanceof RuleEvaluationError && error.message === 'rule 3 (Challenge bots at the login): the request has no value for `cf.bot_management.score`, which this rule needs',
    );
  });

  it('in a phase whose actions do not terminate, every rule runs and the matches are traced', () => {
    const result = verdict(TRANSFORM, { url: 'https://a.example/old' });
    assert.equal(result.verdict, 'pass');
    assert.deepEqual(
      result.trace.map((t) => [t.rule.number, t.outcome]),
      [
        [1, 'match'],
        [2, 'match'],
      ],
    );
  });

  it('knows the outcomes of each phase, as the docs\' actions reference marks them', () => {
    assert.deepEqual(phaseOutcomes('magic_transit', 'packet').expectations, ['block', 'pass']);
    assert.deepEqual(phaseOutcomes('http_request_firewall_custom', 'request').expectations, ['block', 'challenge', 'js_challenge', 'managed_challenge', 'pass']);
    assert.deepEqual(phaseOutcomes('http_ratelimit', 'request').expectations, ['block', 'challenge', 'js_challenge', 'managed_challenge', 'pass']);
    assert.deepEqual(phaseOutcomes('http_request_dynamic_redirect', 'request').expectations, ['redirect', 'pass']);
    assert.deepEqual(phaseOutcomes('http_custom_errors', 'request').expectations, ['serve_error', 'pass']);
    for (const phase of ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform', 'http_request_origin', 'http_config_settings', 'http_request_cache_settings', 'http_response_cache_settings', 'http_response_compression']) {
      assert.deepEqual(phaseOutcomes(phase, 'request'), { kind: 'match', terminating: [], expectations: ['match', 'no-match'] }, phase);
    }
    assert.deepEqual(phaseOutcomes(undefined, 'request').expectations, ['block', 'challenge', 'js_challenge', 'managed_challenge', 'redirect', 'serve_error', 'log_custom_field', 'pass']);
  });
});

function files(contents: Record<string, string>): (path: string) => RulesetRead {
  return (path) => (path in contents ? { text: contents[path], display: path.replace('/w/', '') } : undefined);
}

function read(text: string): TestFile {
  return readTestFile(text, 'yaml', { path: '/w/a.ruleset.test.yaml', resolve: (named) => `/w/${named}` });
}

function load(file: TestFile, ruleset: string): TestRuleset {
  const loaded = loadTestRuleset(file, files({ '/w/a.ruleset.yaml': ruleset }));
  assert.ok(!isTestProblem(loaded), isTestProblem(loaded) ? loaded.message : '');
  return loaded;
}

function outcomes(text: string, ruleset = WAF) {
  const file = read(text);
  const loaded = load(file, ruleset);
  return file.cases.map((c) => {
    const outcome = runTestCase(c, loaded, file.lists);
    return { ...outcome, at: outcome.offset === undefined ? undefined : linePosition(text, outcome.offset), output: caseOutput((o) => `a.ruleset.test.yaml:${linePosition(text, o)}`, c, outcome) };
  });
}

describe('test files of requests', () => {
  it('a case passes, or fails with what was expected and what the ruleset did', () => {
    const text = `- name: bot at the login
  request: {url: "https://a.example/login", ip.src: 203.0.113.1, cf.bot_management.score: 5}
  expect: managed_challenge
  rule: Challenge bots at the login
- request: {url: "https://a.example/admin", ip.src: 203.0.113.1}
  expect: managed_challenge
- request: {url: "https://a.example/", ip.src: 203.0.113.1}
  expect: pass
`;
    const [bot, admin, home] = outcomes(text);
    assert.equal(bot.kind, 'pass');
    assert.equal(bot.message, 'managed_challenge by rule 3 (Challenge bots at the login) at a.ruleset.yaml:12:5');
    assert.equal(admin.kind, 'fail');
    assert.equal(admin.message, 'expected managed_challenge, got block by rule 4 (Block admin) at a.ruleset.yaml:15:5');
    assert.deepEqual([admin.expected, admin.actual], ['managed_challenge', 'block by rule 4 (Block admin)']);
    assert.match(admin.output, /^FAIL  a\.ruleset\.test\.yaml:5:3: expected managed_challenge.*\n {2}rule 1 \(Office\) \[skip\]: no match\n/);
    assert.equal(home.kind, 'pass');
  });

  it('`expect` takes the outcomes of the ruleset\'s phase', () => {
    const [drop] = outcomes('- request: {url: "https://a.example/"}\n  expect: drop\n');
    assert.equal(drop.kind, 'error');
    assert.equal(drop.message, 'expected `expect:` `block`, `challenge`, `js_challenge`, `managed_challenge` or `pass` (what the rules of phase `http_request_firewall_custom` can do)');
    assert.equal(drop.at, '2:11');
  });

  it('bad request input is an error at the key or value at fault, with the fix', () => {
    const text = `- request: {url: "https://a.example/", http.hots: a.example}
  expect: pass
- request:
    headers: {X-Length: 12}
  expect: pass
- request: {http.request.method: get}
  expect: pass
`;
    const [typo, number, lower] = outcomes(text);
    const place = (needle: string) => linePosition(text, text.indexOf(needle));
    assert.deepEqual([typo.kind, typo.message, typo.at], ['error', 'request: unknown field `http.hots` in the request; did you mean `http.host`?', place('http.hots')]);
    assert.deepEqual([number.kind, number.at], ['error', place('12}')]);
    assert.match(number.message, /quote it: "12"/);
    assert.deepEqual([lower.kind, lower.at], ['error', place('get}')]);
  });

  it('a case gives what its ruleset\'s phase runs on', () => {
    const [packet, both, none] = outcomes('- packet: {ip.src: 192.0.2.1}\n  expect: pass\n- packet: {}\n  request: {}\n  expect: pass\n- expect: pass\n');
    assert.match(packet.message, /^the ruleset's phase `http_request_firewall_custom` runs on HTTP requests: give the case a `request`/);
    assert.equal(packet.at, '1:3');
    assert.equal(both.message, 'a case has a `packet` or a `request`, not both');
    assert.equal(none.message, 'the case has no `request`');
    const magic = 'name: m\nkind: root\nphase: magic_transit\nrules:\n  - {action: block, expression: "ip.src in {10.0.0.0/8}"}\n';
    const [request] = outcomes('- request: {ip.src: 10.0.0.1}\n  expect: block\n', magic);
    assert.equal(request.message, "the ruleset's phase `magic_transit` runs on packets: give the case a `packet`");
    const [unknownKey] = outcomes('- request: {}\n  expect: pass\n  verdict: pass\n');
    assert.equal(unknownKey.message, 'unknown key `verdict`; a case has `name`, `request`, `expect`, `rule`, and what the rules do: `redirect`, `rewrite`, `headers`, `origin`, `cache`, `config`, `serve_error`, `compression`');
  });

  it('a case that lacks a deciding value is an error on the request, naming the rule and the field', () => {
    const [missing] = outcomes('- request: {url: "https://a.example/login", ip.src: 203.0.113.1}\n  expect: block\n');
    assert.equal(missing.kind, 'error');
    // A score of 1–99 has no neutral value to assume (assumed-fields.ts).
    assert.equal(missing.message, 'rule 3 (Challenge bots at the login): the request has no value for `cf.bot_management.score`, which this rule needs (not assumed: `cf.bot_management.score` holds 1–99, none of them neutral; give it)');
    assert.equal(missing.at, '1:12');
  });

  it('in a phase whose actions only match, a case expects a match (of a rule) or none', () => {
    const text = `- request: {url: "https://a.example/old"}
  expect: match
  rule: Rewrite o
- request: {url: "https://a.example/new"}
  expect: no-match
- request: {url: "https://a.example/other"}
  expect: match
  rule: 1
- request: {url: "https://a.example/x"}
  expect: match
- request: {url: "https://a.example/x"}
  expect: no-match
  rule: 1
- request: {url: "https://a.example/old"}
  expect: pass
`;
    const [old, fresh, other, none, withRule, pass] = outcomes(text, TRANSFORM);
    assert.deepEqual([old.kind, old.message], ['pass', 'match: rule 1 (Rewrite old) at a.ruleset.yaml:5:5, rule 2 (Rewrite o) at a.ruleset.yaml:8:5']);
    assert.deepEqual([fresh.kind, fresh.message], ['pass', 'no-match: no rule matched']);
    assert.deepEqual([other.kind, other.message], ['fail', 'expected match by rule 1 (Rewrite old), got match: rule 2 (Rewrite o) at a.ruleset.yaml:8:5']);
    assert.deepEqual([none.kind, none.actual], ['fail', 'no-match: no rule matched']);
    assert.deepEqual([withRule.kind, withRule.message], ['error', '`rule` names the rule that matches; with `expect: no-match` no rule does: leave `rule` out']);
    assert.deepEqual([pass.kind, pass.message], ['error', 'expected `expect: match` or `expect: no-match`']);
  });
});
