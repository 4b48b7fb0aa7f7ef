/**
 * Limits the service sets on a rule beyond its expression's language, each from the docs page
 * that states it (catalogue/actions.ts names the pages): the closed list of actions, the
 * request headers a Request Header Transform Rule cannot touch, what a rate limiting rule must
 * count by and up to, and the Enterprise zones an account-level `execute` rule must be limited
 * to. Each fires on the docs' own example of the limit and stays silent on its clean twin.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import type { HostFormat } from '../../server/src/documents/host/host';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { at, check, fixedClean, jsonRuleset, where, yamlRuleset } from './check-helpers';

/** Each problem as [code, severity, the text it is on]. */
function found(text: string, format: HostFormat): [string, string, string][] {
  const lines = text.split('\n');
  return check(text, format).map((p) => {
    const [line, character, endLine, endCharacter] = at(p);
    const on = line === endLine ? lines[line].slice(character, endCharacter) : `${lines[line].slice(character)}…`;
    return [p.code, p.severity, on];
  });
}

/** A Terraform file's problems as [code, severity, text], without the note on rules without a `ref`. */
function tfFound(text: string): [string, string, string][] {
  return found(text, 'hcl').filter(([code]) => code !== 'terraform-rules-without-ref');
}

// ------------------------------------------------------------------ actions

describe('the action: one of the actions the service defines', () => {
  it('`action: blokc` is an error with the fix to `block`, in JSON, YAML and Terraform; an action Terraform fills in stays unknown', () => {
    const yaml = yamlRuleset('http_request_firewall_custom', '  - action: blokc\n    expression: http.request.uri.path eq "/admin"\n');
    assert.deepEqual(found(yaml, 'yaml'), [['unknown-action', 'error', 'blokc']]);
    assert.match(fixedClean(yaml, 'yaml', 'Change to `block`'), /action: block\n/);
    const json = jsonRuleset('http_request_firewall_custom', [{ action: 'blokc', expression: 'true' }]);
    assert.deepEqual(found(json, 'json'), [['unknown-action', 'error', '"blokc"']]);
    const tf = (action: string) => `resource "cloudflare_ruleset" "waf" {\n  zone_id = var.zone\n  name = "waf"\n  kind = "zone"\n  phase = "http_request_firewall_custom"\n  rules = [{\n    ref = "admin"\n    action = ${action}\n    expression = "true"\n  }]\n}\n`;
    assert.deepEqual(tfFound(tf('"blokc"')), [['unknown-action', 'error', '"blokc"']]);
    for (const unknown of ['var.action', '"${var.action}"', 'local.actions["admin"]']) {
      assert.deepEqual(tfFound(tf(unknown)).filter(([, severity]) => severity !== 'hint'), [], unknown);
    }
  });
});

// ------------------------------------------------------------------ rate limiting

describe('rate limiting rules (http_ratelimit): what `ratelimit` must hold', () => {
  const LOGIN = '  - action: block\n    expression: http.request.uri.path eq "/login"\n    ratelimit:\n';

  it('`counting_expression: ""` is the rule\'s own expression (the docs: an empty string applies the default), not an empty expression', () => {
    for (const written of ['""', "''"]) {
      const text = yamlRuleset('http_ratelimit', `${LOGIN}      characteristics: [cf.colo.id, ip.src]\n      period: 60\n      requests_per_period: 10\n      counting_expression: ${written}\n`);
      assert.deepEqual(check(text, 'yaml'), [], text);
    }
    const json = jsonRuleset('http_ratelimit', [{ action: 'block', expression: 'true', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 10, counting_expression: '' } }]);
    assert.deepEqual(check(json, 'json'), []);
    const tf = 'resource "cloudflare_ruleset" "limits" {\n  zone_id = var.zone\n  name = "limits"\n  kind = "zone"\n  phase = "http_ratelimit"\n  rules = [{\n    ref = "login"\n    action = "block"\n    expression = "true"\n    ratelimit = {\n      characteristics = ["cf.colo.id", "ip.src"]\n      period = 60\n      requests_per_period = 10\n      counting_expression = ""\n    }\n  }]\n}\n';
    // …but the v5 provider's schema asks for one character at least: Terraform refuses it before the API sees it.
    assert.deepEqual(tfFound(tf), [['invalid-action-parameters', 'error', '""']]);
    assert.match(check(tf, 'hcl').find((p) => p.code === 'invalid-action-parameters')!.message, /^the provider \(v5\) refuses an empty `counting_expression` \(its length must be at least 1\), though the API reads `""` as the rule's own expression: leave `counting_expression` out$/);
    const v4 = tf.replace('  rules = [{\n', '  rules {\n').replace('  }]\n}\n', '  }\n}\n').replace('    ratelimit = {\n', '    ratelimit {\n');
    assert.deepEqual(tfFound(v4), []);
    // Blanks are not the empty string: still an expression with nothing in it.
    const blank = yamlRuleset('http_ratelimit', `${LOGIN}      characteristics: [cf.colo.id, ip.src]\n      period: 60\n      requests_per_period: 10\n      counting_expression: "  "\n`);
    assert.deepEqual(found(blank, 'yaml').map(([code]) => code), ['empty-expression']);
  });
});

describe('rate limiting rules (http_ratelimit): threshold and characteristics', () => {
  // The docs' rate limiting rule (waf/account/rate-limiting-rulesets/create-api): the clean twin.
  const DOCS = { characteristics: ['ip.src', 'cf.colo.id'], requests_to_origin: false, requests_per_period: 30, period: 60, mitigation_timeout: 120 };
  const rule = (ratelimit: object) => ({ description: 'Rate limit API requests', expression: '(starts_with(http.request.uri.path, "/my-api/"))', action: 'block', ratelimit });

  it("the docs' rule checks clean, in JSON and YAML; so do a custom expression and a field the list does not name", () => {
    for (const ratelimit of [DOCS, { ...DOCS, characteristics: ['cf.colo.id', 'lower(http.request.headers["x-key"][0])'] }, { ...DOCS, characteristics: ['cf.colo.id', 'http.user_agent'] }, { ...DOCS, requests_per_period: undefined, score_per_period: 400, score_response_header_name: 'my-score' }]) {
      const json = jsonRuleset('http_ratelimit', [rule(ratelimit)]);
      assert.deepEqual(check(json, 'json'), [], json);
      const yaml = yamlRuleset('http_ratelimit', `  - ${JSON.stringify(rule(ratelimit))}\n`);
      assert.deepEqual(check(yaml, 'yaml'), [], yaml);
    }
  });

  it('without requests_per_period (nor score_per_period): an error on `ratelimit` that says what to add', () => {
    const { requests_per_period: _, ...noThreshold } = DOCS;
    const json = jsonRuleset('http_ratelimit', [rule(noThreshold)]);
    const [p] = check(json, 'json');
    assert.deepEqual([p.code, p.severity, at(p)], ['ratelimit-without-threshold', 'error', where(json, '"ratelimit"')]);
    assert.match(p.message, /^the service refuses a rate limiting rule without its threshold: give `requests_per_period` \(.*`"?requests_per_period"?: 100`\), or `score_per_period` for complexity-based rate limiting$/);
    assert.equal(check(json, 'json').length, 1);
  });

  it('`requests_per_period: 0`: out of range (the API takes 1 or more)', () => {
    const json = jsonRuleset('http_ratelimit', [rule({ ...DOCS, requests_per_period: 0 })]);
    assert.deepEqual(found(json, 'json'), [['invalid-action-parameters', 'error', '0']]);
    assert.match(check(json, 'json')[0].message, /^expected `requests_per_period` to be at least 1, found `0`$/);
  });

  it('characteristics without cf.colo.id: an error on the key, and the fix adds it (a YAML block sequence, a flow one, JSON)', () => {
    const block = yamlRuleset('http_ratelimit', '  - action: block\n    expression: "true"\n    ratelimit:\n      characteristics:\n        - ip.src\n      period: 60\n      requests_per_period: 30\n');
    assert.deepEqual(found(block, 'yaml'), [['ratelimit-without-colo', 'error', 'characteristics']]);
    assert.match(fixedClean(block, 'yaml', 'Add `cf.colo.id`'), /characteristics:\n {8}- cf\.colo\.id\n {8}- ip\.src\n/);
    const flow = yamlRuleset('http_ratelimit', '  - action: block\n    expression: "true"\n    ratelimit: {characteristics: [ip.src], period: 60, requests_per_period: 30}\n');
    assert.match(fixedClean(flow, 'yaml', 'Add `cf.colo.id`'), /characteristics: \["cf\.colo\.id", ip\.src\]/);
    const json = jsonRuleset('http_ratelimit', [rule({ ...DOCS, characteristics: ['ip.src'] })]);
    assert.match(check(json, 'json')[0].message, /^the service refuses rate limiting `characteristics` without `cf\.colo\.id` \(the data centre, which every rate limiting rule counts by\): add it to the list$/);
    fixedClean(json, 'json', 'Add `cf.colo.id`');
  });

  it('a bare name that is neither a listed characteristic nor a field: an error with the one meant', () => {
    const yaml = yamlRuleset('http_ratelimit', '  - action: block\n    expression: "true"\n    ratelimit:\n      characteristics: [cf.colo.id, ip.scr]\n      period: 60\n      requests_per_period: 30\n');
    assert.deepEqual(found(yaml, 'yaml'), [['unknown-characteristic', 'error', 'ip.scr']]);
    assert.match(fixedClean(yaml, 'yaml', 'Change to `ip.src`'), /\[cf\.colo\.id, ip\.src\]/);
  });

  it('IP and IP with NAT support together: an error on the second', () => {
    const json = jsonRuleset('http_ratelimit', [rule({ ...DOCS, characteristics: ['cf.colo.id', 'cf.unique_visitor_id', 'ip.src'] })]);
    const problems = check(json, 'json');
    assert.deepEqual(found(json, 'json'), [['incompatible-characteristics', 'error', '"ip.src"']]);
    assert.match(problems[0].message, /refuses `cf\.unique_visitor_id` and `ip\.src` together/);
  });

  it('in Terraform (v5 attributes and v4 blocks) and octorules too; a list Terraform fills in says nothing', () => {
    const v5 = (characteristics: string, threshold = '      requests_per_period = 30\n') =>
      `resource "cloudflare_ruleset" "limits" {\n  zone_id = var.zone\n  name = "limits"\n  kind = "zone"\n  phase = "http_ratelimit"\n  rules = [{\n    ref = "api"\n    action = "block"\n    expression = "true"\n    ratelimit = {\n      characteristics = ${characteristics}\n      period = 60\n${threshold}    }\n  }]\n}\n`;
    assert.deepEqual(tfFound(v5('["ip.src", "cf.colo.id"]')), []);
    assert.deepEqual(tfFound(v5('["ip.src"]')), [['ratelimit-without-colo', 'error', 'characteristics']]);
    assert.deepEqual(tfFound(v5('var.characteristics')), [['terraform-unknown', 'hint', 'var.characteristics']]);
    assert.deepEqual(tfFound(v5('["ip.src", var.key]')), [['terraform-unknown', 'hint', '["ip.src", var.key]']]);
    const noThreshold = tfFound(v5('["ip.src", "cf.colo.id"]', ''));
    assert.deepEqual(noThreshold, [['ratelimit-without-threshold', 'error', 'ratelimit']]);
    assert.match(check(v5('["ip.src", "cf.colo.id"]', ''), 'hcl').find((p) => p.code === 'ratelimit-without-threshold')!.message, /`requests_per_period = 100`/);
    const v4 = 'resource "cloudflare_ruleset" "limits" {\n  zone_id = var.zone\n  name = "limits"\n  kind = "zone"\n  phase = "http_ratelimit"\n  rules {\n    ref = "api"\n    action = "block"\n    expression = "true"\n    ratelimit {\n      characteristics = ["ip.src"]\n      period = 60\n    }\n  }\n}\n';
    assert.deepEqual(tfFound(v4), [
      ['ratelimit-without-threshold', 'error', 'ratelimit'],
      ['ratelimit-without-colo', 'error', 'characteristics'],
    ]);
    const octorules = 'cloudflare:\n  rate_limiting_rules:\n    - ref: api\n      action: block\n      expression: "true"\n      ratelimit:\n        characteristics: [ip.src]\n        period: 60\n        requests_per_period: 30\n';
    assert.deepEqual(found(octorules, 'yaml'), [['ratelimit-without-colo', 'error', 'characteristics']]);
  });
});

// ------------------------------------------------------------------ request headers

describe('Request Header Transform Rules (http_request_late_transform): the headers the service will not touch', () => {
  /** A rule of the phase with these header changes. */
  const rewrite = (headers: object) => ({ ref: 'headers', expression: '(starts_with(http.request.uri.path, "/en/"))', action: 'rewrite', action_parameters: { headers } });

  it("the docs' rules check clean: setting X-Source, setting X-Bot-Score from an expression, removing cf-connecting-ip; removing cookie and x-forwarded-for too", () => {
    const json = jsonRuleset('http_request_late_transform', [
      rewrite({ 'X-Source': { operation: 'set', value: 'Cloudflare' } }),
      rewrite({ 'X-Bot-Score': { operation: 'set', expression: 'to_string(cf.bot_management.score)' } }),
      rewrite({ 'cf-connecting-ip': { operation: 'remove' }, Cookie: { operation: 'remove' }, 'X-Forwarded-For': { operation: 'remove' } }),
    ]);
    assert.deepEqual(check(json, 'json'), [], json);
  });

  it('cf- and x-cf- headers, set or removed (but cf-connecting-ip removed), cookie set, the IP headers set: an error on the name, whatever its case', () => {
    const json = jsonRuleset('http_request_late_transform', [
      rewrite({
        'CF-Connecting-IP': { operation: 'set', value: '192.0.2.1' },
        'cf-ray': { operation: 'remove' },
        'X-CF-Secret': { operation: 'set', value: 'a' },
        Cookie: { operation: 'set', value: 'a=1' },
        'X-Forwarded-For': { operation: 'set', value: '192.0.2.1' },
        'True-Client-IP': { operation: 'set', expression: 'to_string(ip.src)' },
        'x-real-ip': { operation: 'set', value: '192.0.2.1' },
        'X-Forwarded-Proto': { operation: 'set', value: 'https' },
        'X-Forwarded-Host': { operation: 'set', value: 'a.example' },
      }),
    ]);
    const problems = check(json, 'json');
    assert.deepEqual(found(json, 'json'), ['"CF-Connecting-IP"', '"cf-ray"', '"X-CF-Secret"', '"Cookie"', '"X-Forwarded-For"', '"True-Client-IP"', '"x-real-ip"', '"X-Forwarded-Proto"'].map((name) => ['request-header-not-modifiable', 'error', name]));
    assert.match(problems[0].message, /^`CF-Connecting-IP`: the service refuses to set a request header whose name starts with `cf-` or `x-cf-` \(Cloudflare's own headers\); `cf-connecting-ip` may only be removed \(`operation: remove`\)/);
    assert.match(problems[1].message, /refuses to remove a request header whose name starts with `cf-` or `x-cf-`.*except removing `cf-connecting-ip`/);
    assert.match(problems[3].message, /^`Cookie`: the service refuses to set the `cookie` request header; it can only be removed/);
    assert.match(problems[4].message, /refuses to change the value of this request header, which carries the visitor's IP address or protocol/);
  });

  it('`add` is an operation of response headers: an error on it, and the fix writes `set`; in the response phase it stays', () => {
    const text = yamlRuleset('http_request_late_transform', '  - action: rewrite\n    expression: "true"\n    action_parameters:\n      headers:\n        X-Source:\n          operation: add\n          value: edge\n');
    assert.deepEqual(found(text, 'yaml'), [['request-header-operation', 'error', 'add']]);
    assert.match(check(text, 'yaml')[0].message, /^`add` is no operation of a request header: the docs give it to response headers only/);
    assert.match(fixedClean(text, 'yaml', 'Change to `set`'), /operation: set\n/);
    assert.deepEqual(check(text.replace('http_request_late_transform', 'http_response_headers_transform'), 'yaml'), []);
  });

  it('a response header rule, or a rule of another phase, may set a cf- header as far as these checks go', () => {
    const headers = { 'cf-cache-tag': { operation: 'set', value: 'a' } };
    assert.deepEqual(check(jsonRuleset('http_response_headers_transform', [rewrite(headers)]), 'json'), []);
  });

  it('in Terraform, v5 (a map by name) and v4 (`headers` blocks with `name`), and in octorules, on the name as written', () => {
    const v5 = 'resource "cloudflare_ruleset" "headers" {\n  zone_id = var.zone\n  name = "headers"\n  kind = "zone"\n  phase = "http_request_late_transform"\n  rules = [{\n    ref = "h"\n    action = "rewrite"\n    expression = "true"\n    action_parameters = {\n      headers = {\n        "cookie" = { operation = "set", value = "a=1" }\n        "X-Source" = { operation = "set", value = "Cloudflare" }\n        "cf-connecting-ip" = { operation = "remove" }\n      }\n    }\n  }]\n}\n';
    assert.deepEqual(tfFound(v5), [['request-header-not-modifiable', 'error', '"cookie"']]);
    assert.match(check(v5, 'hcl').find((p) => p.code === 'request-header-not-modifiable')!.message, /\(`operation = "remove"`, which removes every `cookie` header\)/);
    const v4 = 'resource "cloudflare_ruleset" "headers" {\n  zone_id = var.zone\n  name = "headers"\n  kind = "zone"\n  phase = "http_request_late_transform"\n  rules {\n    ref = "h"\n    action = "rewrite"\n    expression = "true"\n    action_parameters {\n      headers {\n        name = "x-cf-debug"\n        operation = "remove"\n      }\n      headers {\n        name = "X-Source"\n        operation = "add"\n        value = "edge"\n      }\n    }\n  }\n}\n';
    assert.deepEqual(tfFound(v4), [
      ['request-header-not-modifiable', 'error', '"x-cf-debug"'],
      ['request-header-operation', 'error', '"add"'],
    ]);
    const unknown = v5.replace('"cookie" = { operation = "set"', '"cookie" = { operation = var.op');
    assert.deepEqual(tfFound(unknown).filter(([code]) => code !== 'terraform-unknown'), []);
    const octorules = 'cloudflare:\n  request_header_rules:\n    - ref: h\n      expression: "true"\n      action_parameters:\n        headers:\n          True-Client-IP: {operation: set, expression: to_string(ip.src)}\n';
    assert.deepEqual(found(octorules, 'yaml'), [['request-header-not-modifiable', 'error', 'True-Client-IP']]);
  });
});

describe("a header transform's header names: letters, digits, `-` and `_` (the docs' header format pages)", () => {
  const rewrite = (headers: object) => ({ ref: 'headers', expression: 'true', action: 'rewrite', action_parameters: { headers } });

  it('an empty name, or one with a space, a colon or a parenthesis: an error on the name, in the request and the response phase', () => {
    for (const phase of ['http_request_late_transform', 'http_response_headers_transform']) {
      const json = jsonRuleset(phase, [rewrite({ '': { operation: 'set', value: 'a' }, 'X Source': { operation: 'set', value: 'b' }, 'X-Source:': { operation: 'remove' }, 'X-(a)': { operation: 'set', value: 'c' } })]);
      assert.deepEqual(found(json, 'json'), ['""', '"X Source"', '"X-Source:"', '"X-(a)"'].map((name) => ['invalid-header-name', 'error', name]), phase);
      assert.match(check(json, 'json')[1].message, /^`X Source` is not a header name the service takes: the docs allow one or more letters, digits, `-` and `_` in the name of a header a Transform Rule sets or removes, here ` ` at character 2$/);
    }
  });

  it("a name HTTP could carry but the docs do not allow (a `.`, a `~`, a `'`): an error on its first such character, in both phases", () => {
    for (const phase of ['http_request_late_transform', 'http_response_headers_transform']) {
      const json = jsonRuleset(phase, [rewrite({ 'X-Bot-Score.v2': { operation: 'set', value: 'b' }, 'x~debug': { operation: 'remove' }, "it's": { operation: 'set', value: 'c' } })]);
      assert.deepEqual(found(json, 'json'), ['"X-Bot-Score.v2"', '"x~debug"', `"it's"`].map((name) => ['invalid-header-name', 'error', name]), phase);
      assert.match(check(json, 'json')[0].message, /here `\.` at character 12$/);
    }
  });

  it('letters, digits, `-` and `_` check clean: X-Source, x_debug, X-Bot-Score-v2, 0-RTT', () => {
    for (const phase of ['http_request_late_transform', 'http_response_headers_transform']) {
      const json = jsonRuleset(phase, [rewrite({ 'X-Source': { operation: 'set', value: 'a' }, x_debug: { operation: 'remove' }, 'X-Bot-Score-v2': { operation: 'set', value: 'b' }, '0-RTT': { operation: 'set', value: 'c' } })]);
      assert.deepEqual(check(json, 'json'), [], json);
    }
  });

  // A key with a `${…}` is read by tree-sitter's parser.
  before(() => loadTerraformParser());

  it('in Terraform on the name as written; a name Terraform fills in says nothing', () => {
    const v5 = 'resource "cloudflare_ruleset" "headers" {\n  zone_id = var.zone\n  name = "headers"\n  kind = "zone"\n  phase = "http_response_headers_transform"\n  rules = [{\n    ref = "h"\n    action = "rewrite"\n    expression = "true"\n    action_parameters = {\n      headers = {\n        "x source" = { operation = "set", value = "a" }\n        "X-Source" = { operation = "set", value = "b" }\n      }\n    }\n  }]\n}\n';
    assert.deepEqual(tfFound(v5), [['invalid-header-name', 'error', '"x source"']]);
    // A map with a key Terraform fills in may hold any key: none of its names is known.
    const computed = v5.replace('"X-Source" = {', '"${var.name}" = {');
    assert.deepEqual(tfFound(computed).filter(([code]) => code !== 'terraform-unknown'), []);
  });
});

// ------------------------------------------------------------------ account-level execute

describe("an account's execute rule (kind root) must be limited to Enterprise zones", () => {
  const DOCS_EXPRESSION = '(cf.zone.name == "example.com") and cf.zone.plan eq "ENT"';
  const execute = (expression: string) => ({ action: 'execute', description: 'Execute custom ruleset', expression, action_parameters: { id: '2f2feab2026849078ba485f918791bdc' } });

  it("the docs' rules check clean: the account's with cf.zone.plan, the zone's without", () => {
    for (const phase of ['http_request_firewall_custom', 'http_request_firewall_managed', 'http_ratelimit']) {
      assert.deepEqual(check(jsonRuleset(phase, [execute(DOCS_EXPRESSION)], 'root'), 'json'), [], phase);
      assert.deepEqual(check(jsonRuleset(phase, [execute('(cf.zone.plan eq "ENT")')], 'root'), 'json'), [], phase);
    }
    assert.deepEqual(check(jsonRuleset('http_request_firewall_custom', [execute('(http.request.uri.path eq "/login")')], 'zone'), 'json'), []);
  });

  it('without cf.zone.plan: an error on the expression, and the fix ends it with `and cf.zone.plan eq "ENT"`', () => {
    const json = jsonRuleset('http_request_firewall_custom', [execute('(cf.zone.name == "example.com")')], 'root');
    assert.deepEqual(found(json, 'json'), [['account-execute-not-enterprise', 'error', '"(cf.zone.name == \\"example.com\\")"']]);
    assert.match(check(json, 'json')[0].message, /^an account's `execute` rule runs its ruleset on Enterprise zones only, and the service refuses one whose expression does not say so: end it with `and cf\.zone\.plan eq "ENT"`/);
    const after = fixedClean(json, 'json', 'Limit to Enterprise zones: `(cf.zone.name == "example.com") and cf.zone.plan eq "ENT"`');
    assert.equal((JSON.parse(after) as { rules: { expression: string }[] }).rules[0].expression, DOCS_EXPRESSION);
    const yaml = yamlRuleset('http_request_firewall_managed', '  - action: execute\n    expression: cf.zone.name in {"example.com" "anotherexample.com"}\n    action_parameters: {id: efb7b8c949ac4650a09736fc376e9aee}\n', 'root');
    assert.match(fixedClean(yaml, 'yaml', 'Limit to Enterprise zones: `(cf.zone.name in {"example.com" "anotherexample.com"}) and cf.zone.plan eq "ENT"`'), /\n {4}expression: \(cf\.zone\.name in \{"example\.com" "anotherexample\.com"\}\) and cf\.zone\.plan eq "ENT"\n/);
    const always = yamlRuleset('http_ratelimit', '  - action: execute\n    expression: "true"\n    action_parameters: {id: efb7b8c949ac4650a09736fc376e9aee}\n', 'root');
    assert.match(fixedClean(always, 'yaml', 'Limit to Enterprise zones: `(cf.zone.plan eq "ENT")`'), /expression: "\(cf\.zone\.plan eq \\"ENT\\"\)"\n/);
  });

  it("with cf.zone.plan in another form than the docs' (no parentheses, the test first, `or`): an error, and the fix puts the conditions in parentheses where the test ends it", () => {
    const said = (expression: string) => found(jsonRuleset('http_request_firewall_custom', [execute(expression)], 'root'), 'json').map(([code]) => code);
    for (const expression of ['cf.zone.name == "example.com" and cf.zone.plan eq "ENT"', 'cf.zone.plan eq "ENT" and (cf.zone.name == "example.com")', '(cf.zone.name == "example.com") or cf.zone.plan eq "ENT"', 'not (cf.zone.name == "example.com") and cf.zone.plan eq "ENT"', '(http.host eq "a") and cf.zone.plan eq "ENT" and ssl']) {
      assert.deepEqual(said(expression), ['account-execute-not-enterprise'], expression);
    }
    const json = jsonRuleset('http_ratelimit', [execute('cf.zone.name == "example.com" and http.host eq "a" and cf.zone.plan eq "ENT"')], 'root');
    assert.match(check(json, 'json')[0].message, /in one form, which the docs give and the service holds to: the conditions in parentheses, then `and cf\.zone\.plan eq "ENT"` \(or that test alone\)/);
    const after = fixedClean(json, 'json', 'Put the conditions in parentheses: `(cf.zone.name == "example.com" and http.host eq "a") and …`');
    assert.equal((JSON.parse(after) as { rules: { expression: string }[] }).rules[0].expression, '(cf.zone.name == "example.com" and http.host eq "a") and cf.zone.plan eq "ENT"');
    // The clean twins: the docs' form, with `==` too, and the test alone.
    for (const expression of [DOCS_EXPRESSION, '(cf.zone.name == "example.com") and cf.zone.plan == "ENT"', 'cf.zone.plan eq "ENT"']) assert.deepEqual(said(expression), [], expression);
  });

  it('other actions, other phases, an expression with an error or one Terraform fills in: nothing said', () => {
    assert.deepEqual(check(jsonRuleset('http_request_firewall_custom', [{ action: 'block', expression: 'ip.src eq 192.0.2.1' }], 'root'), 'json'), []);
    assert.deepEqual(check(jsonRuleset('ddos_l7', [execute('true')], 'root'), 'json'), []);
    assert.deepEqual(found(jsonRuleset('http_request_firewall_custom', [execute('http.hots eq "a"')], 'root'), 'json').map(([code]) => code), ['unknown-field']);
    const tf = (expression: string) => `resource "cloudflare_ruleset" "account" {\n  account_id = var.account\n  name = "root"\n  kind = "root"\n  phase = "http_request_firewall_custom"\n  rules = [{\n    ref = "run"\n    action = "execute"\n    expression = ${expression}\n    action_parameters = { id = cloudflare_ruleset.custom.id }\n  }]\n}\n`;
    assert.deepEqual(tfFound(tf('"cf.zone.name eq \\"example.com\\""')).map(([code]) => code), ['account-execute-not-enterprise']);
    assert.deepEqual(tfFound(tf('"cf.zone.name eq \\"${var.zone}\\""')).map(([code]) => code).filter((c) => c !== 'terraform-interpolation'), []);
  });
});
