/**
 * A rule beyond its expression: the actions a phase allows, each action's parameters against
 * its schema (keys, types, values, ranges, required and exclusive keys), the rule-level objects,
 * and the expressions inside parameters, each on its own characters in JSON and YAML.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import type { HostFormat } from '../../server/src/documents/host/host';
import { parseRuleset } from '../../server/src/documents/parsed-ruleset';
import { sitePointer } from '../../server/src/api/pointer';
import { at, check, checkProblems, fixedClean, jsonRuleset, where, yamlRuleset, type At } from './check-helpers';

/** The first character of the `occurrence`-th `needle`: where a missing key is reported, on its object's `{`. */
function firstOf(text: string, needle: string, occurrence = 1): At {
  const [line, character] = where(text, needle, occurrence);
  return [line, character, line, character + 1];
}

/** The one problem of the document (a test names the one mistake it is about). */
function only(text: string, format: HostFormat) {
  const problems = check(text, format);
  assert.equal(problems.length, 1, JSON.stringify(problems, null, 1));
  return problems[0];
}

// ------------------------------------------------------------------ actions per phase

describe('actions per phase', () => {
  it('a redirect rule in WAF custom rules: an error on the action, naming the phase and its actions, with no fix', () => {
    const rule = { action: 'redirect', expression: 'http.host eq "a.example"', action_parameters: { from_value: { target_url: { value: 'https://b.example/' } } } };
    const json = jsonRuleset('http_request_firewall_custom', [rule]);
    const yaml = yamlRuleset('http_request_firewall_custom', '  - action: redirect\n    expression: http.host eq "a.example"\n    action_parameters:\n      from_value:\n        target_url:\n          value: https://b.example/\n');
    for (const [text, format, needle] of [[json, 'json', '"redirect"'], [yaml, 'yaml', 'redirect']] as const) {
      const p = only(text, format);
      assert.equal(p.code, 'action-not-allowed');
      assert.equal(p.severity, 'error');
      assert.deepEqual(at(p), where(text, needle));
      assert.match(p.message, /`redirect` is not an action of the phase `http_request_firewall_custom`, which allows `block`, .*`skip`, `execute` or `rewrite`/);
      assert.equal(checkProblems(text, format)[0].fixes, undefined);
    }
  });

  it('an action close to one the phase allows gets the fix to it', () => {
    const text = yamlRuleset('ddos_l7', '  - action: js_challenge\n    expression: "true"\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'action-not-allowed');
    assert.deepEqual(at(p), where(text, 'js_challenge'));
    assert.match(fixedClean(text, 'yaml', 'Change to `challenge`'), /action: challenge\n/);
  });

  it('says nothing of the action in a phase no source lists actions for, or one we do not know', () => {
    assert.deepEqual(check(yamlRuleset('http_request_sbfm', '  - action: block\n    expression: "true"\n'), 'yaml'), []);
    assert.deepEqual(check(yamlRuleset('http_request_future', '  - action: block\n    expression: "true"\n'), 'yaml').map((p) => p.code), ['unknown-phase']);
  });

  it('an unknown action is the unknown-action error alone, not also not allowed', () => {
    const text = yamlRuleset('http_request_firewall_custom', '  - action: blok\n    expression: "true"\n');
    assert.deepEqual(check(text, 'yaml').map((p) => p.code), ['unknown-action']);
  });
});

// ------------------------------------------------------------------ parameters

describe('action_parameters against the action schema', () => {
  it('a redirect status code given as the string "301": the type error, and the fix writes the number', () => {
    const rule = { action: 'redirect', expression: 'true', action_parameters: { from_value: { status_code: '301', target_url: { value: 'https://b.example/' } } } };
    const json = jsonRuleset('http_request_dynamic_redirect', [rule]);
    const yaml = yamlRuleset('http_request_dynamic_redirect', "  - action: redirect\n    expression: 'true'\n    action_parameters:\n      from_value:\n        status_code: '301'\n        target_url: {value: https://b.example/}\n");
    for (const [text, format, needle] of [[json, 'json', '"301"'], [yaml, 'yaml', "'301'"]] as const) {
      const p = only(text, format);
      assert.equal(p.code, 'invalid-type');
      assert.equal(p.severity, 'error');
      assert.deepEqual(at(p), where(text, needle));
      assert.equal(p.message, 'expected `status_code` to be a number, found `"301"`');
      assert.match(fixedClean(text, format, 'Change to the number `301`'), /"?status_code"?: 301\b/);
    }
  });

  it('a status code the redirect does not take: the closest ones as fixes', () => {
    const text = yamlRuleset('http_request_dynamic_redirect', '  - action: redirect\n    expression: "true"\n    action_parameters:\n      from_value:\n        status_code: 300\n        target_url: {value: https://b.example/}\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'invalid-action-parameters');
    assert.deepEqual(at(p), where(text, '300'));
    assert.match(p.message, /expected `status_code` to be one of `301`, `302`, `303`, `307` or `308`, found `300`; did you mean `301`\?/);
    fixedClean(text, 'yaml', 'Change to `301`');
  });

  it('"true" for a Boolean: the fix writes true', () => {
    const text = yamlRuleset('http_request_dynamic_redirect', '  - action: redirect\n    expression: "true"\n    action_parameters:\n      from_value:\n        preserve_query_string: "true"\n        target_url: {value: https://b.example/}\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'invalid-type');
    assert.deepEqual(at(p), where(text, '"true"', 2));
    assert.match(fixedClean(text, 'yaml', 'Change to the Boolean `true`'), /preserve_query_string: true\n/);
  });

  it('a route rule with a misspelt host_headr: a warning on the key, and the fix renames it', () => {
    const json = jsonRuleset('http_request_origin', [{ action: 'route', expression: 'true', action_parameters: { host_headr: 'origin.example' } }]);
    const yaml = yamlRuleset('http_request_origin', '  - action: route\n    expression: "true"\n    action_parameters:\n      host_headr: origin.example\n');
    for (const [text, format, needle] of [[json, 'json', '"host_headr"'], [yaml, 'yaml', 'host_headr']] as const) {
      const p = only(text, format);
      assert.equal(p.code, 'unknown-key');
      assert.equal(p.severity, 'warning');
      assert.deepEqual(at(p), where(text, needle));
      assert.equal(p.message, 'unknown key `host_headr` in `action_parameters`; did you mean `host_header`?');
      assert.match(fixedClean(text, format, 'Change to `host_header`'), /"?host_header"?: "?origin\.example/);
    }
  });

  it('a compression algorithm misspelt: the value error with the fix', () => {
    const text = yamlRuleset('http_response_compression', '  - action: compress_response\n    expression: "true"\n    action_parameters:\n      algorithms:\n        - name: gzp\n        - name: default\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'invalid-action-parameters');
    assert.deepEqual(at(p), where(text, 'gzp'));
    assert.match(p.message, /did you mean `"gzip"`\?$/);
    fixedClean(text, 'yaml', 'Change to `"gzip"`');
  });

  it('a number outside its documented range: the error names the range', () => {
    const text = yamlRuleset('http_request_origin', '  - action: route\n    expression: "true"\n    action_parameters:\n      origin:\n        port: 70000\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'invalid-action-parameters');
    assert.deepEqual(at(p), where(text, '70000'));
    assert.equal(p.message, 'expected `port` to be between 1 and 65535, found `70000`');
  });

  it('a missing required key: on the first character of its object', () => {
    const json = jsonRuleset('http_request_redirect', [{ action: 'redirect', expression: 'http.request.full_uri in $redirects', action_parameters: { from_list: { name: 'redirects' } } }]);
    const p = only(json, 'json');
    assert.equal(p.code, 'missing-key');
    // The objects: the ruleset, the rule, action_parameters, from_list.
    assert.deepEqual(at(p), firstOf(json, '{', 4));
    assert.equal(p.message, '`from_list` has no `key`, which is required');
  });

  it('both of two exclusive keys: the error on the second; neither: on the object', () => {
    const both = yamlRuleset(
      'http_request_dynamic_redirect',
      '  - action: redirect\n    expression: "true"\n    action_parameters:\n      from_value: {target_url: {value: https://b.example/}}\n      from_list: {name: redirects, key: http.request.full_uri}\n',
    );
    const p = only(both, 'yaml');
    assert.equal(p.code, 'invalid-action-parameters');
    assert.deepEqual(at(p), where(both, 'from_list'));
    assert.match(p.message, /`from_list` cannot be given with `from_value`/);
    const neither = yamlRuleset('http_request_dynamic_redirect', '  - action: redirect\n    expression: "true"\n    action_parameters: {}\n');
    const q = only(neither, 'yaml');
    assert.equal(q.code, 'missing-key');
    assert.deepEqual(at(q), firstOf(neither, '{}'));
    assert.match(q.message, /needs one of `from_list` or `from_value`/);
  });

  it('a rewrite of both the path and the query is one uri; a header operation is checked against its own shape', () => {
    const text = yamlRuleset(
      'http_request_late_transform',
      '  - action: rewrite\n    expression: "true"\n    action_parameters:\n      headers:\n        X-Source: {operation: set, value: edge}\n        X-Colo: {operation: set, expresion: cf.colo.name}\n        X-Old: {operation: remove}\n',
    );
    const problems = check(text, 'yaml');
    assert.deepEqual(
      problems.map((p) => [p.code, ...at(p)]),
      [
        ['missing-key', ...firstOf(text, '{', 2)],
        ['unknown-key', ...where(text, 'expresion')],
      ],
    );
    assert.match(problems[1].message, /did you mean `expression`\?/);
    const uri = yamlRuleset('http_request_transform', '  - action: rewrite\n    expression: "true"\n    action_parameters:\n      uri:\n        path: {value: /new}\n        query: {expression: http.request.uri.query}\n');
    assert.deepEqual(check(uri, 'yaml'), []);
  });

  it('an action that takes no parameters, given some: a warning on the key', () => {
    const text = yamlRuleset('http_request_firewall_custom', '  - action: managed_challenge\n    expression: "true"\n    action_parameters: {response: {status_code: 403}}\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'unknown-key');
    assert.equal(p.severity, 'warning');
    assert.equal(p.message, '`managed_challenge` takes no `action_parameters`; the service ignores or refuses them');
    assert.deepEqual(at(p), where(text, 'action_parameters'));
  });

  it('an action with required parameters and none given', () => {
    const text = yamlRuleset('http_response_compression', '  - action: compress_response\n    expression: "true"\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'missing-action-parameters');
    assert.deepEqual(at(p), where(text, 'compress_response'));
    assert.equal(p.message, 'a `compress_response` rule needs `action_parameters` with `algorithms`');
    const redirect = jsonRuleset('http_request_dynamic_redirect', [{ action: 'redirect', expression: 'true' }]);
    const q = only(redirect, 'json');
    assert.equal(q.code, 'missing-action-parameters');
    assert.deepEqual(at(q), where(redirect, '"redirect"'));
    assert.equal(q.message, 'a `redirect` rule needs `action_parameters` with `from_list` or `from_value`');
  });

  it('keeps the packet-phase messages of skip and execute, said once', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: execute\n    expression: "true"\n    action_parameters: {id: 42}\n';
    const p = only(text, 'yaml');
    assert.equal(p.code, 'invalid-action-parameters');
    assert.match(p.message, /the id of the ruleset to execute as a string/);
  });
});

// ------------------------------------------------------------------ older forms the service still takes

describe("a cache key's query string in its older forms (cloudflare-go v0, Terraform provider v4)", () => {
  const cacheRule = (queryString: object) => ({ action: 'set_cache_settings', expression: 'true', action_parameters: { cache: true, cache_key: { custom_key: { query_string: queryString } } } });
  const yamlCache = (queryString: string) => yamlRuleset('http_request_cache_settings', `  - action: set_cache_settings\n    expression: "true"\n    action_parameters:\n      cache: true\n      cache_key:\n        custom_key:\n          query_string:\n${queryString}`);

  it('`"exclude": "*"` and `"include": "*"`: information naming `{"all": true}`, never an error; the fix writes it', () => {
    for (const key of ['exclude', 'include']) {
      const json = jsonRuleset('http_request_cache_settings', [cacheRule({ [key]: '*' })]);
      const p = only(json, 'json');
      assert.equal(p.code, 'legacy-parameter-form');
      assert.equal(p.severity, 'information');
      assert.deepEqual(at(p), where(json, '"*"'));
      assert.equal(p.message, `\`${key}: "*"\` is an older form the service still takes; today's form is \`{"all": true}\``);
      assert.match(fixedClean(json, 'json', 'Change to `{"all": true}`'), new RegExp(`"${key}": \\{"all": true\\}`));
    }
    const yaml = yamlCache('            exclude: "*"\n');
    assert.equal(only(yaml, 'yaml').code, 'legacy-parameter-form');
    assert.match(fixedClean(yaml, 'yaml', 'Change to `{"all": true}`'), /exclude: \{"all": true\}\n/);
  });

  it('a bare list of names: information naming `{"list": […]}`; the fix wraps the list as written', () => {
    const json = jsonRuleset('http_request_cache_settings', [cacheRule({ include: ['a', 'b'] })]);
    const p = only(json, 'json');
    assert.equal(p.code, 'legacy-parameter-form');
    assert.equal(p.severity, 'information');
    const [placed] = checkProblems(json, 'json');
    assert.equal(json.slice(placed.start, placed.end).replace(/\s+/g, ''), '["a","b"]');
    assert.equal(p.message, '`include` as a bare list is an older form the service still takes; today\'s form is `{"list": […]}`');
    const after = fixedClean(json, 'json', 'Change to `{"list": […]}`');
    assert.deepEqual(JSON.parse(after).rules[0].action_parameters.cache_key.custom_key.query_string, { include: { list: ['a', 'b'] } });
    const flow = yamlCache('            include: [a, b]\n');
    assert.match(fixedClean(flow, 'yaml', 'Change to `{"list": […]}`'), /include: \{"list": \[a, b\]\}\n/);
  });

  it('a YAML block list: the same information, and no fix (wrapping it would need its lines rewritten)', () => {
    const text = yamlCache('            include:\n              - a\n              - b\n');
    const [p] = checkProblems(text, 'yaml');
    assert.equal(checkProblems(text, 'yaml').length, 1);
    assert.equal(p.code, 'legacy-parameter-form');
    assert.equal(p.fixes, undefined);
  });

  it("today's forms say nothing, and a value neither form takes keeps today's error", () => {
    assert.deepEqual(check(jsonRuleset('http_request_cache_settings', [cacheRule({ exclude: { all: true } }), cacheRule({ include: { list: ['a'] } })]), 'json'), []);
    const json = jsonRuleset('http_request_cache_settings', [cacheRule({ include: 'a' })]);
    const p = only(json, 'json');
    assert.equal(p.code, 'invalid-type');
    assert.equal(p.message, 'expected `include` to be an object, found `"a"`');
    const numbers = only(jsonRuleset('http_request_cache_settings', [cacheRule({ include: [1] })]), 'json');
    assert.equal(numbers.code, 'invalid-type');
    assert.equal(numbers.severity, 'error');
  });
});

// ------------------------------------------------------------------ rule-level objects

describe('ratelimit, exposed_credential_check and logging against their schemas', () => {
  it('a rate-limit period the service does not take: the closest as the fix', () => {
    const text = yamlRuleset('http_ratelimit', '  - action: block\n    expression: "true"\n    ratelimit:\n      characteristics: [cf.colo.id, ip.src]\n      period: 61\n      requests_per_period: 100\n      mitigation_timeout: 600\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'invalid-action-parameters');
    assert.deepEqual(at(p), where(text, '61'));
    fixedClean(text, 'yaml', 'Change to `60`');
  });

  it('a misspelt ratelimit key keeps its did-you-mean', () => {
    const text = yamlRuleset('http_ratelimit', '  - action: block\n    expression: "true"\n    ratelimit:\n      characteristics: [cf.colo.id, ip.src]\n      period: 60\n      requests_per_period: 100\n      mitigation_timout: 600\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'unknown-key');
    assert.deepEqual(at(p), where(text, 'mitigation_timout'));
    fixedClean(text, 'yaml', 'Change to `mitigation_timeout`');
  });

  it('logging is still refused on any action but skip, and checked on skip', () => {
    const block = yamlRuleset('http_request_firewall_custom', '  - action: block\n    expression: "true"\n    logging: {enabled: false}\n');
    assert.deepEqual(check(block, 'yaml').map((p) => p.code), ['logging-not-allowed']);
    const skip = yamlRuleset('http_request_firewall_custom', '  - action: skip\n    expression: "true"\n    action_parameters: {ruleset: current}\n    logging: {enabled: "no"}\n');
    const p = only(skip, 'yaml');
    assert.equal(p.code, 'invalid-type');
    assert.deepEqual(at(p), where(skip, '"no"'));
  });
});

// ------------------------------------------------------------------ expressions inside parameters

const REWRITE_STYLES: readonly { name: string; text: string }[] = [
  {
    name: 'JSON',
    text: jsonRuleset('http_request_transform', [{ action: 'rewrite', expression: 'true', action_parameters: { uri: { path: { expression: 'concat("/v2", http.request.uri.pth)' } } } }]),
  },
  { name: 'YAML plain', text: yamlRuleset('http_request_transform', '  - action: rewrite\n    expression: "true"\n    action_parameters:\n      uri:\n        path:\n          expression: concat("/v2", http.request.uri.pth)\n') },
  { name: 'YAML single-quoted', text: yamlRuleset('http_request_transform', "  - action: rewrite\n    expression: 'true'\n    action_parameters:\n      uri:\n        path:\n          expression: 'concat(\"/v2\", http.request.uri.pth)'\n") },
  { name: 'YAML double-quoted', text: yamlRuleset('http_request_transform', '  - action: rewrite\n    expression: "true"\n    action_parameters:\n      uri:\n        path:\n          expression: "concat(\\"/v2\\", http.request.uri.pth)"\n') },
  { name: 'YAML literal block', text: yamlRuleset('http_request_transform', '  - action: rewrite\n    expression: "true"\n    action_parameters:\n      uri:\n        path:\n          expression: |\n            concat("/v2",\n              http.request.uri.pth)\n') },
  { name: 'YAML flow mapping', text: yamlRuleset('http_request_transform', '  - {action: rewrite, expression: "true", action_parameters: {uri: {path: {expression: \'concat("/v2", http.request.uri.pth)\'}}}}\n') },
];

describe('expressions inside parameters, on their own characters', () => {
  for (const { name, text } of REWRITE_STYLES) {
    const format: HostFormat = name === 'JSON' ? 'json' : 'yaml';
    it(`${name}: a misspelt field in uri.path.expression, with the fix to http.request.uri.path`, () => {
      const p = only(text, format);
      assert.equal(p.code, 'unknown-field');
      assert.deepEqual(at(p), where(text, 'http.request.uri.pth'));
      const after = fixedClean(text, format, 'Change to `http.request.uri.path`');
      const site = parseRuleset(after, format).sites.find((s) => s.kind === 'value')!;
      assert.match(site.text, /^concat\("\/v2",\s+http\.request\.uri\.path\)\n?$/);
    });
  }

  it('a header value in parentheses: the error on its `(`, and the fix removes them inside the JSON or YAML string', () => {
    const json = jsonRuleset('http_request_late_transform', [{ action: 'rewrite', expression: 'true', action_parameters: { headers: { 'x-host': { operation: 'set', expression: '(http.host)' } } } }]);
    const yaml = yamlRuleset('http_request_late_transform', '  - action: rewrite\n    expression: "true"\n    action_parameters:\n      headers:\n        x-host: {operation: set, expression: "(http.host)"}\n');
    for (const [text, format] of [[json, 'json'], [yaml, 'yaml']] as const) {
      const p = only(text, format);
      assert.equal(p.code, 'syntax-error');
      assert.deepEqual(at(p), where(text, '(', text.split('(').length - 1));
      assert.match(p.message, /a value expression cannot be in parentheses: write `http\.host`$/);
      assert.match(fixedClean(text, format, 'Remove the parentheses'), /"?expression"?: "http\.host"/);
    }
  });

  it('the sites: the rule expression in rules order, the nested ones beside it, with kind, path and pointer', () => {
    const text = yamlRuleset(
      'http_ratelimit',
      '  - action: block\n    expression: http.host eq "a"\n    ratelimit:\n      characteristics: [cf.colo.id, ip.src]\n      period: 60\n      requests_per_period: 10\n      mitigation_timeout: 600\n      counting_expression: http.response.code eq 429\n',
    );
    const model = parseRuleset(text, 'yaml');
    assert.deepEqual(model.expressions.map((s) => s.path), [['expression']]);
    assert.deepEqual(
      model.sites.map((s) => [s.kind, sitePointer(s), s.text]),
      [
        ['filter', '/rules/0/expression', 'http.host eq "a"'],
        ['filter', '/rules/0/ratelimit/counting_expression', 'http.response.code eq 429'],
      ],
    );
    assert.deepEqual(check(text, 'yaml'), []);
  });

  it('a counting_expression is a filter: a value there is refused as one', () => {
    const text = yamlRuleset('http_ratelimit', '  - action: block\n    expression: "true"\n    ratelimit:\n      characteristics: [cf.colo.id, ip.src]\n      period: 60\n      requests_per_period: 10\n      mitigation_timeout: 600\n      counting_expression: http.response.cod eq 429\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'unknown-field');
    assert.deepEqual(at(p), where(text, 'http.response.cod'));
  });

  it('`rulesets-disable-next-line` silences a finding inside a nested expression and on a parameter key', () => {
    const rules = (directive: string) =>
      `  - action: block\n    expression: "true"\n    ratelimit:\n      characteristics: [cf.colo.id, ip.src]\n      period: 60\n      requests_per_period: 10\n      mitigation_timeout: 600\n${directive ? '      # rulesets-disable-next-line redundant-set-member\n' : ''}      counting_expression: ip.src in {10.0.0.0/8 10.1.0.0/16}\n${directive ? '      # rulesets-disable-next-line unknown-key\n' : ''}      extra: 1\n`;
    const loud = yamlRuleset('http_ratelimit', rules(''));
    assert.deepEqual(
      check(loud, 'yaml').map((p) => [p.code, ...at(p)]),
      [
        ['redundant-set-member', ...where(loud, '10.1.0.0/16')],
        ['unknown-key', ...where(loud, 'extra')],
      ],
    );
    assert.deepEqual(check(yamlRuleset('http_ratelimit', rules('#')), 'yaml'), []);
  });

  it('a header value expression must give a string; a redirect target expression is checked too', () => {
    const header = yamlRuleset('http_request_late_transform', '  - action: rewrite\n    expression: "true"\n    action_parameters:\n      headers:\n        X-Port: {operation: set, expression: cf.edge.server_port}\n');
    const p = only(header, 'yaml');
    assert.deepEqual(at(p), where(header, 'cf.edge.server_port'));
    const target = jsonRuleset('http_request_dynamic_redirect', [
      { action: 'redirect', expression: 'true', action_parameters: { from_value: { status_code: 301, target_url: { expression: 'concat("https://b.example", http.request.uri.pth)' } } } },
    ]);
    const q = only(target, 'json');
    assert.equal(q.code, 'unknown-field');
    assert.deepEqual(at(q), where(target, 'http.request.uri.pth'));
  });

  it('one text as a filter and as a value: each checked as its kind, from one cache', () => {
    const text = jsonRuleset('http_request_transform', [{ action: 'rewrite', expression: 'http.request.uri.path', action_parameters: { uri: { path: { expression: 'http.request.uri.path' } } } }]);
    const problems = check(text, 'json');
    // As a filter, a lone string field is not a condition; as a value, it is what the path becomes.
    assert.ok(problems.length > 0 && problems.every((p) => p.range.start.line === where(text, 'http.request.uri.path')[0]), JSON.stringify(problems));
  });
});

// ------------------------------------------------------------------ clean rules

// ------------------------------------------------------------------ octorules' checks we share (docs/octorules-lint.md)

describe("what octorules' linter checks of parameters, from the docs (CF209, CF217, CF226)", () => {
  it('a custom error content over 10 KB: an error on the content; 10,240 characters check clean', () => {
    const rule = (length: number) => ({ action: 'serve_error', expression: 'http.response.code eq 503', action_parameters: { content: 'x'.repeat(length), content_type: 'text/plain' } });
    const over = jsonRuleset('http_custom_errors', [rule(10241)]);
    const p = only(over, 'json');
    assert.equal(p.code, 'invalid-action-parameters');
    assert.equal(p.severity, 'error');
    assert.deepEqual(at(p), where(over, `"${'x'.repeat(10241)}"`));
    assert.match(p.message, /10241 characters long; the service takes at most 10240/);
    assert.deepEqual(check(jsonRuleset('http_custom_errors', [rule(10240)]), 'json'), []);
  });

  it('`none`, `default` or `auto` before another compression algorithm: an error on it; last, clean', () => {
    const text = yamlRuleset('http_response_compression', '  - action: compress_response\n    expression: "true"\n    action_parameters:\n      algorithms:\n        - name: none\n        - name: gzip\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'invalid-action-parameters');
    assert.equal(p.severity, 'error');
    assert.deepEqual(at(p), where(text, 'none'));
    assert.match(p.message, /`none` must be the last of `algorithms`/);
    const json = jsonRuleset('http_response_compression', [{ action: 'compress_response', expression: 'true', action_parameters: { algorithms: [{ name: 'zstd' }, { name: 'auto' }, { name: 'brotli' }] } }]);
    assert.deepEqual(at(only(json, 'json')), where(json, '"auto"'));
    // The clean twin: the same algorithms with the fallback last.
    assert.deepEqual(check(yamlRuleset('http_response_compression', '  - action: compress_response\n    expression: "true"\n    action_parameters:\n      algorithms:\n        - name: gzip\n        - name: none\n'), 'yaml'), []);
  });

  it('`rulesets` or `rules` in a skip of WAF custom rules: a warning on the key; in the managed phase, clean', () => {
    const text = yamlRuleset('http_request_firewall_custom', '  - action: skip\n    expression: ip.src in {192.0.2.1}\n    action_parameters:\n      rulesets:\n        - efb7b8c949ac4650a09736fc376e9aee\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'unknown-key');
    assert.equal(p.severity, 'warning');
    assert.deepEqual(at(p), where(text, 'rulesets'));
    assert.match(p.message, /`rulesets` is not a skip option of WAF custom rules, which skip with `ruleset`, `phase`, `phases` or `products`/);
    assert.deepEqual(check(text.replace('http_request_firewall_custom', 'http_request_firewall_managed'), 'yaml'), []);
  });
});

describe('realistic rules of every action check clean', () => {
  const RULES: readonly { phase: string; rule: object }[] = [
    { phase: 'http_request_firewall_custom', rule: { action: 'block', expression: 'ip.src in {192.0.2.0/24}', action_parameters: { response: { status_code: 403, content: 'denied', content_type: 'text/plain' } } } },
    { phase: 'http_request_firewall_custom', rule: { action: 'challenge', expression: 'http.request.uri.path eq "/login"' } },
    { phase: 'http_request_firewall_custom', rule: { action: 'js_challenge', expression: 'http.request.uri.path eq "/login"' } },
    { phase: 'http_request_firewall_custom', rule: { action: 'managed_challenge', expression: 'ip.src.country eq "FR"' } },
    { phase: 'http_request_firewall_custom', rule: { action: 'log', expression: 'http.host eq "a.example"' } },
    { phase: 'http_request_firewall_custom', rule: { action: 'skip', expression: 'ip.src in {192.0.2.1}', action_parameters: { phases: ['http_ratelimit', 'http_request_firewall_managed'], products: ['waf', 'zoneLockdown'] }, logging: { enabled: true } } },
    { phase: 'http_request_firewall_custom', rule: { action: 'skip', expression: 'ip.src in {192.0.2.1}', action_parameters: { ruleset: 'current' } } },
    {
      phase: 'http_request_firewall_managed',
      rule: { action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee', overrides: { categories: [{ category: 'wordpress', action: 'block', enabled: true }], rules: [{ id: '5de7edfa648c4d6891dc3e7f84534ffa', action: 'log' }] } } },
    },
    { phase: 'http_request_transform', rule: { action: 'rewrite', expression: 'starts_with(http.request.uri.path, "/v1/")', action_parameters: { uri: { path: { expression: 'regex_replace(http.request.uri.path, "^/v1/", "/v2/")' }, query: { value: 'from=v1' } } } } },
    { phase: 'http_request_late_transform', rule: { action: 'rewrite', expression: 'true', action_parameters: { headers: { 'X-Country': { operation: 'set', expression: 'ip.src.country' }, 'X-Source': { operation: 'set', value: 'edge' }, Cookie: { operation: 'remove' } } } } },
    { phase: 'http_request_dynamic_redirect', rule: { action: 'redirect', expression: 'http.host eq "old.example"', action_parameters: { from_value: { status_code: 301, target_url: { expression: 'concat("https://new.example", http.request.uri.path)' }, preserve_query_string: true } } } },
    { phase: 'http_request_redirect', rule: { action: 'redirect', expression: 'http.request.full_uri in $redirects', action_parameters: { from_list: { name: 'redirects', key: 'http.request.full_uri' } } } },
    { phase: 'http_request_origin', rule: { action: 'route', expression: 'starts_with(http.request.uri.path, "/api/")', action_parameters: { host_header: 'api.example', origin: { host: 'api.example', port: 8443 }, sni: { value: 'api.example' } } } },
    { phase: 'http_config_settings', rule: { action: 'set_config', expression: 'true', action_parameters: { ssl: 'strict', automatic_https_rewrites: true, security_level: 'high', autominify: { css: true, html: false, js: true } } } },
    { phase: 'http_response_compression', rule: { action: 'compress_response', expression: 'true', action_parameters: { algorithms: [{ name: 'brotli' }, { name: 'gzip' }, { name: 'default' }] } } },
    {
      phase: 'http_request_cache_settings',
      rule: { action: 'set_cache_settings', expression: 'starts_with(http.request.uri.path, "/static/")', action_parameters: { cache: true, edge_ttl: { mode: 'override_origin', default: 86400, status_code_ttl: [{ status_code: 404, value: 60 }, { status_code_range: { from: 500, to: 599 }, value: 'no-store' }] }, browser_ttl: { mode: 'respect_origin' } } },
    },
    { phase: 'http_response_cache_settings', rule: { action: 'set_cache_tags', expression: 'true', action_parameters: { operation: 'add', values: ['static', 'v2'] } } },
    { phase: 'http_response_cache_settings', rule: { action: 'set_cache_control', expression: 'true', action_parameters: { 'max-age': { operation: 'set', value: 3600 }, private: { operation: 'remove' } } } },
    { phase: 'http_custom_errors', rule: { action: 'serve_error', expression: 'http.response.code eq 503', action_parameters: { content: '<p>Back soon</p>', content_type: 'text/html', status_code: 503 } } },
    { phase: 'http_log_custom_fields', rule: { action: 'log_custom_field', expression: 'true', action_parameters: { request_fields: [{ name: 'x-request-id' }], cookie_fields: [{ name: 'session' }] } } },
    { phase: 'http_ratelimit', rule: { action: 'block', expression: 'http.request.uri.path eq "/login"', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 10, mitigation_timeout: 600, counting_expression: 'http.response.code eq 401' } } },
    { phase: 'ddos_l7', rule: { action: 'execute', expression: 'true', action_parameters: { id: '4d21379b4f9f4bb088e0729962c8b3cf', overrides: { sensitivity_level: 'low' } } } },
    { phase: 'ddos_l7', rule: { action: 'force_connection_close', expression: 'true' } },
    { phase: 'ddos_l4', rule: { action: 'ddos_dynamic', expression: 'true' } },
    { phase: 'http_request_sbfm', rule: { action: 'score', expression: 'true', action_parameters: { increment: 3 } } },
  ];
  for (const { phase, rule } of RULES) {
    const { action } = rule as { action: string };
    it(`${action} in ${phase}, in JSON and YAML`, () => {
      const json = jsonRuleset(phase, [rule]);
      assert.deepEqual(check(json, 'json'), [], json);
      const yaml = yamlRuleset(phase, `  - ${JSON.stringify(rule)}\n`);
      assert.deepEqual(check(yaml, 'yaml'), [], yaml);
    });
  }
});

// ------------------------------------------------------------------ Cache Response Rules

describe('Cache Response Rules (http_response_cache_settings): the fields and functions its docs give it', () => {
  it('a rule on the origin response code and Cache-Control header, tagging and setting Cache-Control, checks clean', () => {
    const tags = {
      action: 'set_cache_tags',
      expression: 'http.response.code eq 200 and any(http.response.headers["cache-control"][*] contains "public")',
      action_parameters: { operation: 'add', expression: 'http.response.headers["surrogate-key"]' },
    };
    const control = {
      action: 'set_cache_control',
      expression: 'http.response.code in {200 301} and not starts_with(http.response.headers["cache-control"][0], "no-store")',
      action_parameters: { 's-maxage': { operation: 'set', value: 3600, cloudflare_only: true }, 'no-cache': { operation: 'remove' } },
    };
    const json = jsonRuleset('http_response_cache_settings', [tags, control]);
    assert.deepEqual(check(json, 'json'), [], json);
    const yaml = yamlRuleset('http_response_cache_settings', `  - ${JSON.stringify(tags)}\n  - ${JSON.stringify(control)}\n`);
    assert.deepEqual(check(yaml, 'yaml'), [], yaml);
  });

  it('the functions and request fields the Cache Response Rules docs list: split over a response header for the tags, accepted languages', () => {
    const rule = {
      action: 'set_cache_tags',
      expression: 'any(http.request.accepted_languages[*] == "fr") and decode_base64(http.request.uri.query) ne ""',
      action_parameters: { operation: 'set', expression: 'split(regex_replace(http.response.headers["surrogate-keys"][0], " ", ""), ",", 8)' },
    };
    const json = jsonRuleset('http_response_cache_settings', [rule]);
    assert.deepEqual(check(json, 'json'), [], json);
    const yaml = yamlRuleset('http_response_cache_settings', `  - ${JSON.stringify(rule)}\n`);
    assert.deepEqual(check(yaml, 'yaml'), [], yaml);
    // Not in Cache Rules, which the docs do not give split.
    const request = yamlRuleset('http_request_cache_settings', '  - action: set_cache_settings\n    expression: split(http.host, ".", 2)[0] == "www"\n    action_parameters:\n      cache: true\n');
    const p = only(request, 'yaml');
    assert.equal(p.code, 'function-not-available');
    assert.deepEqual(at(p), where(request, 'split'));
  });

  it('http.response.code in Cache Rules (http_request_cache_settings), which run on the request, is still an error', () => {
    const text = yamlRuleset('http_request_cache_settings', '  - action: set_cache_settings\n    expression: http.response.code eq 200\n    action_parameters:\n      cache: true\n');
    const p = only(text, 'yaml');
    assert.equal(p.code, 'field-not-available');
    assert.equal(p.severity, 'error');
    assert.deepEqual(at(p), where(text, 'http.response.code'));
    assert.match(p.message, /`http\.response\.code` does not exist in phase `http_request_cache_settings`: a response field: the docs give it to the response phases only \(.*`http_response_cache_settings`/);
  });
});
