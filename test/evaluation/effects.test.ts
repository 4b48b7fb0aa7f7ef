/**
 * What the matching rules do to a request (effects.ts), action by action, and a test case's
 * expected effects (expected-effects.ts) as `rulesets test` and the Test Explorer judge them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { parseRuleset } from '../../server/src/documents/parsed-ruleset';
import { rulesetEffects, type Effects } from '../../server/src/evaluation/effects';
import { parseRequest } from '../../server/src/evaluation/request';
import { evaluateRuleset, prepareRuleset } from '../../server/src/evaluation/ruleset-eval';
import { caseOutput, loadTestRuleset, readTestFile, runTestCase, isTestProblem, type CaseOutcome } from '../../server/src/evaluation/test-file-run';
import { linePosition } from '../../server/src/documents/positions';

function effects(ruleset: string, request: Record<string, unknown>): Effects {
  const prepared = prepareRuleset(parseRuleset(ruleset, 'yaml'));
  const subject = parseRequest(request, { phase: prepared.phase });
  return rulesetEffects(prepared, evaluateRuleset(prepared, subject), subject);
}

const REDIRECTS = `phase: http_request_dynamic_redirect
rules:
  - action: redirect
    expression: http.request.uri.path eq "/a"
    action_parameters:
      from_value:
        target_url: {value: "https://example.com/b"}
  - action: redirect
    expression: http.request.uri.path eq "/keep"
    action_parameters:
      from_value:
        target_url: {expression: 'concat("https://", http.host, "/kept")'}
        status_code: 307
        preserve_query_string: true
  - action: redirect
    expression: http.request.uri.path eq "/both"
    action_parameters:
      from_value:
        target_url: {value: "https://example.com/?x=1"}
        preserve_query_string: true
  - action: redirect
    expression: http.request.uri.path eq "/list"
    action_parameters:
      from_list: {name: moved_pages, key: http.request.full_uri}
  - action: redirect
    expression: http.request.uri.path eq "/ua"
    action_parameters:
      from_value:
        target_url: {expression: 'concat("https://example.com/", http.user_agent)'}
`;

describe('effects: redirect', () => {
  it('a static target, with the documented default status 301', () => {
    const r = effects(REDIRECTS, { url: 'https://example.com/a?q=1' }).redirect;
    assert.deepEqual([r?.url, r?.status, r?.rule.number], [{ ok: true, value: 'https://example.com/b' }, { ok: true, value: 301 }, 1]);
  });

  it('an evaluated target, its status, and the query kept', () => {
    const r = effects(REDIRECTS, { url: 'https://www.example.org/keep?a=1&b=2' }).redirect;
    assert.deepEqual([r?.url, r?.status], [{ ok: true, value: 'https://www.example.org/kept?a=1&b=2' }, { ok: true, value: 307 }]);
    assert.deepEqual(effects(REDIRECTS, { url: 'https://www.example.org/keep' }).redirect?.url, { ok: true, value: 'https://www.example.org/kept' });
  });

  it('not evaluated: a kept query beside a target with one, a bulk list, a field the request lacks', () => {
    const both = effects(REDIRECTS, { url: 'https://example.com/both?y=2' }).redirect?.url;
    assert.ok(both && !both.ok && /has a query of its own: the docs do not say how the two combine/.test(both.reason), JSON.stringify(both));
    const list = effects(REDIRECTS, { url: 'https://example.com/list' }).redirect?.url;
    assert.ok(list && !list.ok && /bulk redirect list `moved_pages`, whose entries are not in the ruleset file/.test(list.reason), JSON.stringify(list));
    const ua = effects(REDIRECTS, { url: 'https://example.com/ua', headers: { 'User-Agent': 'a', 'user-agent': 'b' } }).redirect?.url;
    assert.ok(ua && !ua.ok && /the target URL of rule 5 is unknown: .*http\.user_agent/.test(ua.reason), JSON.stringify(ua));
  });

  it('no redirect when no rule matches', () => {
    assert.equal(effects(REDIRECTS, { url: 'https://example.com/' }).redirect, undefined);
  });
});

const TRANSFORMS = `phase: http_request_transform
rules:
  - action: rewrite
    expression: starts_with(http.request.uri.path, "/v1/")
    action_parameters:
      uri:
        path: {expression: 'regex_replace(http.request.uri.path, "^/v1/", "/v2/")'}
  - action: rewrite
    expression: starts_with(http.request.uri.path, "/v1/")
    action_parameters:
      uri:
        query: {value: "from=v1"}
  - action: rewrite
    description: Later rules see the original path
    expression: http.request.uri.path eq "/v1/users"
    action_parameters:
      uri:
        path: {value: "/users"}
`;

describe('effects: rewrite of the URL', () => {
  it('every matching rule applies; the last one to rewrite the path wins; each sees the original request', () => {
    const e = effects(TRANSFORMS, { url: 'https://example.com/v1/users?id=1' });
    assert.deepEqual([e.path?.value, e.path?.rule.number], [{ ok: true, value: '/users' }, 3]);
    assert.deepEqual([e.query?.value, e.query?.rule.number], [{ ok: true, value: 'from=v1' }, 2]);
    const other = effects(TRANSFORMS, { url: 'https://example.com/v1/orders' });
    assert.deepEqual(other.path?.value, { ok: true, value: '/v2/orders' });
  });
});

const HEADERS = `phase: http_response_headers_transform
rules:
  - action: rewrite
    expression: "true"
    action_parameters:
      headers:
        X-Frame-Options: {operation: set, value: DENY}
        Server: {operation: remove}
        Vary: {operation: add, value: Accept}
  - action: rewrite
    expression: http.response.code eq 200
    action_parameters:
      headers:
        x-frame-options: {operation: remove}
        server: {operation: add, value: edge}
        VARY: {operation: add, expression: 'concat("X-", "Tenant")'}
  - action: rewrite
    expression: http.response.code eq 200
    action_parameters:
      headers:
        Link: {operation: set, expression: 'http.request.headers["x-none"][0]'}
`;

describe('effects: headers', () => {
  it('set, add and remove, in order, names without regard to case', () => {
    const e = effects(HEADERS, { url: 'https://example.com/', 'http.response.code': 404, headers: {} });
    assert.deepEqual(
      [...e.headers.values()].map((h) => [h.name, h.state, h.values]),
      [
        ['X-Frame-Options', 'set', [{ ok: true, value: 'DENY' }]],
        ['Server', 'remove', []],
        ['Vary', 'add', [{ ok: true, value: 'Accept' }]],
      ],
    );
    const later = effects(HEADERS, { url: 'https://example.com/', 'http.response.code': 200, headers: {} });
    assert.deepEqual(
      [...later.headers.values()].map((h) => [h.name, h.state, h.values.map((v) => (v.ok ? v.value : '?')), h.rules.map((r) => r.number)]),
      [
        ['x-frame-options', 'remove', [], [1, 2]],
        // An add after a removal: the header holds only what was added.
        ['server', 'set', ['edge'], [1, 2]],
        ['VARY', 'add', ['Accept', 'X-Tenant'], [1, 2]],
        ['Link', 'set', ['?'], [3]],
      ],
    );
    const link = later.headers.get('link')?.values[0];
    assert.ok(link && !link.ok && /is a missing value/.test(link.reason));
  });
});

describe('effects: route, cache and configuration settings, error pages', () => {
  it('route: host header, origin and SNI, the last rule to set each winning', () => {
    const e = effects(
      `phase: http_request_origin
rules:
  - action: route
    expression: "true"
    action_parameters: {host_header: a.example.net, origin: {host: a.example.net, port: 8443}}
  - action: route
    expression: starts_with(http.request.uri.path, "/eu/")
    action_parameters: {origin: {host: eu.example.net}, sni: {value: eu.example.net}}
`,
      { url: 'https://example.com/eu/x' },
    );
    assert.deepEqual(
      [...e.origin].map(([k, g]) => [k, g.value, g.rule.number]),
      [
        ['host_header', 'a.example.net', 1],
        ['host', 'eu.example.net', 2],
        ['port', 8443, 1],
        ['sni', 'eu.example.net', 2],
      ],
    );
  });

  it('cache settings combine setting by setting, the last matching rule winning', () => {
    const e = effects(
      `phase: http_request_cache_settings
rules:
  - action: set_cache_settings
    expression: "true"
    action_parameters: {cache: true, edge_ttl: {mode: respect_origin}}
  - action: set_cache_settings
    expression: http.request.uri.path.extension eq "css"
    action_parameters: {edge_ttl: {mode: override_origin, default: 86400}}
`,
      { url: 'https://example.com/site.css' },
    );
    assert.deepEqual(Object.fromEntries([...e.cache].map(([k, g]) => [k, g.value])), { cache: true, edge_ttl: { mode: 'override_origin', default: 86400 } });
  });

  it('serve_error: the parameters of the rule that decides', () => {
    const e = effects(
      `phase: http_custom_errors
rules:
  - action: serve_error
    expression: http.response.code eq 503
    action_parameters: {content: "<p>Back soon</p>", content_type: text/html, status_code: 503}
`,
      { url: 'https://example.com/', 'http.response.code': 503 },
    );
    assert.deepEqual(e.serveError?.parameters, { content: '<p>Back soon</p>', content_type: 'text/html', status_code: 503 });
  });
});

/** Runs the cases of a test file against a ruleset given as text. */
function runCases(ruleset: string, cases: string): { outcomes: CaseOutcome[]; output: string[] } {
  const file = readTestFile(cases, 'yaml', { path: '/w/a.ruleset.test.yaml', resolve: (p) => `/w/${p}` });
  const loaded = loadTestRuleset(file, (path) => (path === '/w/a.ruleset.yaml' ? { text: ruleset, display: 'a.ruleset.yaml' } : undefined));
  assert.ok(!isTestProblem(loaded), isTestProblem(loaded) ? loaded.message : '');
  const outcomes = file.cases.map((c) => runTestCase(c, loaded, file.lists));
  const at = (offset: number) => `a.ruleset.test.yaml:${linePosition(cases, offset)}`;
  return { outcomes, output: file.cases.map((c, i) => caseOutput(at, c, outcomes[i])) };
}

describe('test cases: expected effects', () => {
  it('a redirect: passes with what it checked, fails with the URL or status it got', () => {
    const { outcomes, output } = runCases(
      REDIRECTS,
      `- request: {url: "https://www.example.org/keep?a=1"}
  expect: redirect
  redirect: {url: "https://www.example.org/kept?a=1", status: 307}
- name: wrong target and status
  request: {url: "https://example.com/a"}
  expect: redirect
  redirect: {url: "https://example.com/c", status: 308}
- request: {url: "https://example.com/"}
  expect: pass
  redirect: {url: "https://example.com/c"}
`,
    );
    assert.deepEqual(
      outcomes.map((o) => [o.kind, o.message]),
      [
        ['pass', 'redirect by rule 2 at a.ruleset.yaml:8:5; a redirect to https://www.example.org/kept?a=1, redirect status 307'],
        ['fail', 'expected a redirect to https://example.com/c, got a redirect to https://example.com/b by rule 1; expected redirect status 308, got status 301 by rule 1'],
        ['fail', 'expected a redirect to https://example.com/c, got no redirect'],
      ],
    );
    assert.match(output[1], /^FAIL  a\.ruleset\.test\.yaml:4:3 wrong target and status: expected a redirect to https:\/\/example\.com\/c, got a redirect to https:\/\/example\.com\/b by rule 1; /);
  });

  it('a rewrite and headers: the last change wins; null says not rewritten, or removed', () => {
    const rewrite = runCases(
      TRANSFORMS,
      `- request: {url: "https://example.com/v1/users?id=1"}
  expect: match
  rewrite: {path: /users, query: from=v1}
- request: {url: "https://example.com/v1/orders"}
  expect: match
  rewrite: {path: /v1/orders, query: null}
`,
    ).outcomes;
    assert.deepEqual(rewrite[0].kind, 'pass', rewrite[0].message);
    assert.equal(rewrite[1].message, 'expected the path rewritten to /v1/orders, got the path rewritten to /v2/orders by rule 1; expected the query not rewritten, got the query rewritten to from=v1 by rule 2');
    const headers = runCases(
      HEADERS,
      `- request: {url: "https://example.com/", http.response.code: 200, headers: {}}
  expect: match
  headers: {X-Frame-Options: null, Server: edge, vary: [Accept, X-Tenant]}
- request: {url: "https://example.com/", http.response.code: 404, headers: {}}
  expect: match
  headers: {X-Frame-Options: SAMEORIGIN, Server: edge, Content-Type: null}
`,
    ).outcomes;
    assert.equal(headers[0].kind, 'pass', headers[0].message);
    assert.equal(
      headers[1].message,
      'expected header `X-Frame-Options` "SAMEORIGIN", got set to "DENY" by rule 1; expected header `Server` "edge", got it removed by rule 1; expected header `Content-Type` removed, got no rule changing it',
    );
  });

  it('an effect that cannot be known, or a key that is wrong, is bad input at its place', () => {
    const cases = `- request: {url: "https://example.com/both?y=2"}
  expect: redirect
  redirect: {url: "https://example.com/?x=1&y=2"}
- request: {url: "https://example.com/a"}
  expect: redirect
  redirect: {uri: "https://example.com/b"}
- request: {url: "https://example.com/a"}
  expect: redirect
  redirct: {url: "https://example.com/b"}
`;
    const { outcomes } = runCases(REDIRECTS, cases);
    assert.deepEqual(
      outcomes.map((o) => [o.kind, o.message, o.offset === undefined ? undefined : linePosition(cases, o.offset)]),
      [
        ['error', 'rule 3 keeps the request\'s query string, and its target `https://example.com/?x=1` has a query of its own: the docs do not say how the two combine', '3:19'],
        ['error', 'unknown key `uri` in `redirect`; did you mean `url`? (`redirect` has `url`, `status`)', '6:14'],
        ['error', 'unknown key `redirct`; did you mean `redirect`? a case has `name`, `request`, `expect`, `rule`, and what the rules do: `redirect`, `rewrite`, `headers`, `origin`, `cache`, `config`, `serve_error`, `compression`', '9:3'],
      ],
    );
  });

  it('settings compare by value, only those the case names', () => {
    const { outcomes } = runCases(
      `phase: http_request_cache_settings
rules:
  - action: set_cache_settings
    expression: "true"
    action_parameters: {cache: true, edge_ttl: {mode: override_origin, default: 60}}
`,
      `- request: {url: "https://example.com/"}
  expect: match
  cache: {edge_ttl: {default: 60, mode: override_origin}}
- request: {url: "https://example.com/"}
  expect: match
  cache: {cache: false}
`,
    );
    assert.deepEqual(
      outcomes.map((o) => [o.kind, o.message.replace(/^match: rule 1 at a\.ruleset\.yaml:3:5; /, '')]),
      [
        ['pass', 'the cache setting `edge_ttl` {"default":60,"mode":"override_origin"}'],
        ['fail', 'expected the cache setting `cache` false, got true by rule 1'],
      ],
    );
  });
});

describe('test cases: a failed effect as the Test Explorer diffs it', () => {
  it('expected and actual hold the effects, one a line', () => {
    const [outcome] = runCases(
      REDIRECTS,
      `- request: {url: "https://example.com/a"}
  expect: redirect
  redirect: {url: "https://example.com/c", status: 308}
`,
    ).outcomes;
    assert.deepEqual([outcome.expected, outcome.actual], ['a redirect to https://example.com/c\nredirect status 308', 'a redirect to https://example.com/b by rule 1\nstatus 301 by rule 1']);
  });
});

describe('effects: parameters of any shape', () => {
  it('never throws; what cannot be read is left out or unknown with why', () => {
    const e = effects(
      `phase: http_request_transform
rules:
  - action: rewrite
    expression: "true"
    action_parameters:
      uri: /v2
      headers: [X-A]
  - action: rewrite
    expression: "true"
    action_parameters:
      uri: {path: {value: 7}, query: "x"}
      headers: {X-B: {operation: set}, X-C: {operation: drop, value: a}, X-D: 3}
  - action: route
    expression: "true"
    action_parameters: {origin: eu, sni: [1]}
  - action: redirect
    expression: "true"
    action_parameters: {from_value: {target_url: 5, status_code: "301"}}
  - action: serve_error
    expression: "true"
    action_parameters: [1]
`,
      { url: 'https://example.com/' },
    );
    assert.deepEqual(e.path?.value, { ok: false, reason: 'rule 2 gives the path rewrite neither a `value` nor an `expression` string' });
    assert.equal(e.query?.value.ok, false);
    assert.deepEqual([...e.headers.keys()], ['x-b']);
    assert.deepEqual(Object.fromEntries([...e.origin].map(([k, g]) => [k, g.value])), { origin: 'eu', sni: undefined });
    assert.deepEqual([e.redirect?.url.ok, e.redirect?.status], [false, { ok: false, reason: 'rule 4 gives `status_code` as the string "301", not a number: the API refuses it' }]);
  });
});

describe('effects: compression', () => {
  it('the last matching rule wins; a case names the algorithms in order', () => {
    const ruleset = `phase: http_response_compression
rules:
  - action: compress_response
    expression: "true"
    action_parameters: {algorithms: [{name: brotli}, {name: gzip}]}
  - action: compress_response
    expression: http.response.content_type.media_type eq "text/csv"
    action_parameters: {algorithms: [{name: gzip}]}
`;
    const { outcomes } = runCases(
      ruleset,
      `- request: {url: "https://example.com/a.csv", http.response.content_type.media_type: text/csv}
  expect: match
  compression: [gzip]
- request: {url: "https://example.com/", http.response.content_type.media_type: text/html}
  expect: match
  compression: [gzip, brotli]
`,
    );
    assert.deepEqual(
      outcomes.map((o) => [o.kind, o.message.replace(/^match: .*?; (?=compression)/, '')]),
      [
        ['pass', 'compression by gzip'],
        ['fail', 'expected compression by gzip, brotli, got compression by brotli, gzip by rule 1'],
      ],
    );
  });
});
