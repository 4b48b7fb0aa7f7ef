/**
 * Table tests of the checks that read a phase's catalogue (issue 21): the HTTP phases' fields,
 * arrays, maps, index steps, `[*]`, `any`/`all`, calls and their arguments, where fields and
 * functions may be used, plans, lists by kind, a field or call on the right, value expressions;
 * with the same checks in a phase we do not know (which says less) and in the packet phases
 * (which say what they always have). Rows as in expressions.test.ts (table.ts): the expected
 * problems' spans marked ⟦like this⟧, all of the row's code.
 *
 * What the engine says of the same expressions is in /work/notes/engine-http.md; the
 * differential test (test/oracle) holds the checker to it over generated expressions.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { checkExpression, checkValueExpression } from '../../server/src/language/checker';
import { error, ok, table, warning, type RowOptions } from './table';

const WAF: RowOptions = { phase: 'http_request_firewall_custom' };
const TRANSFORM: RowOptions = { phase: 'http_request_transform' };
const RESPONSE: RowOptions = { phase: 'http_response_headers_transform' };
const UNKNOWN: RowOptions = { phase: 'a_phase_added_later' };

table('HTTP: fields and functions of the phase', [
  ok('http.host eq "example.com" and lower(http.request.uri.path) contains "/admin"', WAF),
  error('⟦http.hots⟧ eq "example.com"', 'unknown-field', { ...WAF, message: /^unknown field `http\.hots` in phase `http_request_firewall_custom`; did you mean `http\.host`/, fixed: 'http.host eq "example.com"' }),
  error('⟦lowr⟧(http.request.uri.path) contains "/admin"', 'unknown-function', { ...WAF, message: /^unknown function `lowr`; did you mean `lower`\?$/, fixed: 'lower(http.request.uri.path) contains "/admin"' }),
  error('⟦ssl⟧(http.host)', 'unknown-function', { ...WAF, message: /`ssl` is a field \(Boolean\), used without parentheses/, name: 'a field called as a function' }),
  error('⟦tcp.dstport⟧ == 22', 'unknown-field', { ...WAF, message: /`tcp\.dstport` is a field of the packet \(Magic Transit\) phases/, name: 'a field of the packet phases' }),
  error('⟦lower⟧ == "a"', 'missing-arguments', { ...WAF, message: /`lower` is a function: call it with its arguments/ }),
  error('⟦any⟧ and ssl', 'missing-arguments', { ...WAF, message: /`any` is written with its argument, a comparison over `\[\*\]`/ }),
  ok('cf.zone.name == "example.com" and cf.zone.plan == "ENT" and http.request.uri.path == "/"', { ...WAF, name: 'fields the engine hides from its field list' }),
  ok('cf.bot_management.signed_agent', { ...WAF, name: 'a field the docs list and the engine lacks (a decided difference)' }),
]);

const LATE_TRANSFORM: RowOptions = { phase: 'http_request_late_transform' };
const BULK_REDIRECTS: RowOptions = { phase: 'http_request_redirect' };
const RATE_LIMIT: RowOptions = { phase: 'http_ratelimit' };

// Issue 34: fields the docs give to some phases and the engine's scheme lacks, as real rule files use them.
table('HTTP: fields the docs list for some phases and the engine lacks', [
  ok('cf.sequence.current_op eq "36074bb2" and not any(cf.sequence.previous_ops[*] == "dbab25d2")', { ...WAF, name: 'sequence fields in custom rules' }),
  ok('cf.sequence.current_op eq "965a3361" and not cf.sequence.msec_since_op["6ef5fb59"] ge 10000', { ...WAF, name: 'cf.sequence.msec_since_op: a map of numbers' }),
  ok('cf.sequence.previous_ops[0] == "aaaaaaaa"', RATE_LIMIT),
  ok('cf.sequence.current_op eq "bbbbbbbb"', BULK_REDIRECTS),
  ok('cf.sequence.current_op eq "bbbbbbbb"', LATE_TRANSFORM),
  ok('cf.sequence.current_op', { ...LATE_TRANSFORM, value: ['Bytes'], name: 'a sequence field as a request header\'s value' }),
  error('cf.sequence.msec_since_op["a"] eq ⟦"x"⟧', 'type-mismatch', { ...WAF, name: "the docs' type holds: a number, not a string" }),
  error('cf.sequence.current_op == ⟦1⟧', 'type-mismatch', { ...WAF, name: "the docs' type holds: a string, not a number" }),
  error('⟦cf.sequence.current_op⟧ eq "a"', 'field-not-available', { phase: 'http_request_transform', message: /^`cf\.sequence\.current_op` does not exist in phase `http_request_transform`: .*`http_request_firewall_custom`/, name: 'not in a phase the docs do not give' }),
  error('⟦cf.sequence.current_op⟧ eq "a"', 'field-not-available', { ...RESPONSE, name: '… nor in a response phase' }),
  ok('cf.metal.id', { ...RESPONSE, value: ['Bytes'], name: "cf.metal.id as a response header's value" }),
  ok('cf.metal.id', { ...LATE_TRANSFORM, value: ['Bytes'], name: "cf.metal.id as a request header's value" }),
  error('⟦cf.metal.id⟧ == "a"', 'field-not-available', { ...RESPONSE, message: /cannot be used in a filter/, name: 'cf.metal.id: the docs give it to header values only' }),
  error('⟦cf.metal.id⟧', 'field-not-available', { ...TRANSFORM, value: ['Bytes'], name: '… of the two header Transform Rules' }),
  error('⟦cf.metal.id⟧ == "a"', 'field-not-available', { ...WAF, name: '… and not to custom rules' }),
]);

table('HTTP: where a field or a function may be used', [
  error('⟦http.response.code⟧ == 404', 'field-not-available', { ...WAF, message: /^`http\.response\.code` does not exist in phase `http_request_firewall_custom`: a response field: the docs give it to the response phases only \(.*`http_response_headers_transform`/ }),
  ok('http.response.code == 404', RESPONSE),
  error('⟦ip.src.timezone.name⟧ == "Europe/Lisbon"', 'field-not-available', { ...TRANSFORM, message: /cannot be used in a filter/, name: 'a field the docs give to value expressions only' }),
  ok('ip.src.timezone.name', { ...TRANSFORM, value: ['Bytes'], name: '… which a value expression may read' }),
  error('⟦regex_replace⟧(http.host, "a", "b") == "b"', 'function-not-available', { ...TRANSFORM, message: /^`regex_replace\(…\)` cannot be used in a filter \(a rule's `expression`\): the docs give it to value expressions/ }),
  error('⟦split⟧(http.host, ".", 2)[0] == "www"', 'function-not-available', { ...WAF, message: /^`split\(…\)` cannot be used in phase `http_request_firewall_custom`: the docs give it to `http_response_headers_transform`, `http_custom_errors` or `http_response_cache_settings` only$/ }),
  ok('split(http.host, ".", 2)[0] == "www"', RESPONSE),
  error('⟦bit_slice⟧(http.host, 0, 8) == 1', 'function-not-available', { ...WAF, message: /`magic_transit`/, name: 'bit_slice: the packet phases only' }),
  ok('cidr(ip.src, 24, 64) == 192.0.2.0', WAF),
  ok('split(http.host, ".", 2)[0] == "www" and http.response.code == 404', { ...UNKNOWN, name: 'a phase we do not know: no availability by phase' }),
  error('⟦regex_replace⟧(http.host, "a", "b") == "b"', 'function-not-available', { ...UNKNOWN, name: 'a value-only function in a filter, whatever the phase' }),
]);

table('HTTP: plans, only when the account\'s plan is configured', [
  ok('http.host matches "^www\\\\."', WAF),
  error('http.host ⟦matches⟧ "^www\\\\."', 'plan-required', { ...WAF, plan: 'free', message: /^`matches` needs the Business or above plan; the account's plan is Free/ }),
  ok('http.host matches "^www\\\\."', { ...WAF, plan: 'business' }),
  error('⟦cf.bot_management.score⟧ < 30', 'plan-required', { ...WAF, plan: 'business', message: /^`cf\.bot_management\.score` needs the Enterprise \(.+\) plan/ }),
  ok('cf.bot_management.score < 30', { ...WAF, plan: 'enterprise' }),
  ok('cf.bot_management.score < 30', WAF),
  ok('ip.src in $svc.vpn and tcp.dstport == 22', { plan: 'free', name: 'the packet phases have no plans' }),
]);

table('HTTP: index steps', [
  ok('http.request.headers["x-api-key"][0] == "secret"', WAF),
  ok('http.request.body.multipart.content_dispositions[0][1] == "a"', WAF),
  ok('cf.llm.prompt.custom_topic_categories["violence"] > 50', WAF),
  error('http.request.headers⟦[0]⟧[0] == "a"', 'invalid-index', { ...WAF, message: /^`http\.request\.headers` is a Map<Array<String>>, indexed by key: expected a quoted key such as `\["name"\]`/, fixed: 'http.request.headers[*][0] == "a"' }),
  error('http.request.headers.names⟦["a"]⟧ == "a"', 'invalid-index', { ...WAF, message: /^`http\.request\.headers\.names` is an Array<String>, indexed by position: expected a number such as `\[0\]`/ }),
  error('http.request.headers["a"]⟦["b"]⟧ == "a"', 'invalid-index', { ...WAF, message: /^`http\.request\.headers\["a"\]` is an Array<String>/, name: 'the step after a step' }),
  error('http.host⟦[0]⟧ == "a"', 'invalid-index', { ...WAF, message: /^`http\.host` is a String, not an array or a map, so it takes no index step: `\[0\]` cannot follow it$/ }),
  error('lower(http.host)⟦[*]⟧ == "a"', 'invalid-index', { ...WAF, message: /^`lower\(…\)` is a String/ }),
  error('ssl⟦[0]⟧', 'invalid-index', WAF),
]);

table('HTTP: arrays and maps compared, or alone', [
  error('http.request.headers.names ⟦==⟧ "content-type"', 'invalid-operator', {
    ...WAF,
    message: /^`http\.request\.headers\.names` is an Array<String>, which `==` cannot compare as a whole: compare one element, such as `http\.request\.headers\.names\[0\]`, or each with `any\(http\.request\.headers\.names\[\*\] == …\)`$/,
    fixed: 'any(http.request.headers.names[*] == "content-type")',
  }),
  error('http.request.headers ⟦contains⟧ "a"', 'invalid-operator', { ...WAF, message: /Map<Array<String>>/, fixed: 'any(http.request.headers[*][*] contains "a")' }),
  error('⟦http.request.headers.names⟧', 'missing-operator', { ...WAF, message: /is an Array<String>, not a Boolean/ }),
  error('⟦http.request.headers["a"][0]⟧', 'missing-operator', { ...WAF, message: /^expected a comparison after `http\.request\.headers\["a"\]\[0\]`, which is a String, not a Boolean/ }),
  error('⟦lower(http.host)⟧', 'missing-operator', { ...WAF, message: /^expected a comparison after the call of `lower`, which is a String/ }),
  error('starts_with(http.host, "a") ⟦== 1⟧', 'boolean-comparison', { ...WAF, message: /^`starts_with\(…\)` is a Boolean: it takes no operator or value; write `starts_with\(http\.host, "a"\)`/, fixed: 'starts_with(http.host, "a")' }),
  ok('starts_with(http.host, "a") and ends_with(http.host, ".com")', WAF),
]);

table('HTTP: literals read by the type of what stands on the left', [
  error('len(http.host) == ⟦"3"⟧', 'type-mismatch', { ...WAF, message: /^expected an integer for `len\(…\)`/, fixed: 'len(http.host) == 3' }),
  error('lower(http.host) == ⟦1⟧', 'type-mismatch', WAF),
  error('http.request.headers["a"][0] == ⟦1⟧', 'type-mismatch', { ...WAF, message: /for `http\.request\.headers\["a"\]\[0\]`/ }),
  ok('cidr(ip.src, 24, 64) in {192.0.2.0/24}', WAF),
  ok('concat(http.host, ".") == 61:62', { ...WAF, name: 'concat has its first argument\'s type' }),
  error('coalesce(cf.bot_management.score, 1) == ⟦"a"⟧', 'type-mismatch', WAF),
  warning('cf.llm.prompt.custom_topic_categories["violence"] == ⟦100⟧', 'value-out-of-range', { ...WAF, name: 'a map\'s documented values' }),
  ok('cf.llm.prompt.custom_topic_categories["violence"] > 100', { ...WAF, name: 'an ordering bound is not a value (the analyses take no documented range as a bound here)' }),
]);

table('HTTP: [*] and arrays of Booleans', [
  ok('any(http.request.headers.names[*] == "x-api-key")', WAF),
  ok('all(http.request.headers["accept"][*] contains "json")', WAF),
  ok('any(http.request.headers[*][*] contains "a") and not all(http.request.uri.args.values[*] == "")', WAF),
  ok('any((http.request.headers.names[*] == "a" and http.request.headers.values[*] == "b"))', WAF),
  ok('any(not http.request.headers.names[*] == "a")', WAF),
  ok('any(starts_with(http.request.headers.names[*], "x-"))', WAF),
  ok('starts_with(http.request.headers.names[*], "x-")[0]', { ...WAF, name: 'an array of Booleans indexed back to one' }),
  ok('any(lower(http.request.headers.names[*])[*] == "a")', { ...WAF, name: 'a call over [*] is an array, mapped again' }),
  ok('any(concat(http.request.headers.names[*] == "a", http.request.headers.values[*] == "b"))', WAF),
  error('⟦http.request.headers.names[*] == "x-api-key"⟧', 'boolean-array', {
    ...WAF,
    message: /^`http\.request\.headers\.names\[\*\] == "x-api-key"` is an array of Booleans, one per element of what `\[\*\]` steps over, and a filter needs one Boolean: wrap it in `any\(…\)`/,
    fixed: 'any(http.request.headers.names[*] == "x-api-key")',
  }),
  error('⟦not http.request.headers.names[*] == "a"⟧', 'boolean-array', { ...WAF, fixed: 'any(not http.request.headers.names[*] == "a")' }),
  error('⟦(http.request.headers.names[*] == "a")⟧', 'boolean-array', WAF),
  error('⟦http.request.headers.names[*] == "a" and http.request.headers.values[*] == "b"⟧', 'boolean-array', { ...WAF, fixed: 'any((http.request.headers.names[*] == "a" and http.request.headers.values[*] == "b"))' }),
  error('ssl and ⟦http.request.headers.names[*] == "a"⟧', 'boolean-array', { ...WAF, message: /`and` needs one Boolean on each side/, fixed: 'ssl and any(http.request.headers.names[*] == "a")' }),
  error('⟦starts_with(http.request.headers.names[*], "x-")⟧', 'boolean-array', WAF),
  error('any(⟦http.host == "a"⟧)', 'type-mismatch', { ...WAF, message: /^`any\(…\)` takes an array of Booleans, one per element: a comparison over `\[\*\]`.*; found `http\.host == "a"`, one Boolean$/, fixed: 'http.host == "a"' }),
  error('any(⟦http.request.headers.names[*]⟧)', 'type-mismatch', { ...WAF, message: /a String$/ }),
  error('any(⟦"a"⟧)', 'type-mismatch', WAF),
  error('any(⟦any(http.request.headers.names[*] == "a")⟧)', 'type-mismatch', WAF),
  error('any(lower(http.request.headers.names[*]) ⟦==⟧ "a")', 'invalid-operator', { ...WAF, fixed: 'any(any(lower(http.request.headers.names[*])[*] == "a"))', name: 'a call over [*] is an array: compared as a whole' }),
  error('concat("a", ⟦http.request.headers.names[*]⟧) == "a"', 'invalid-each', { ...WAF, message: /^`\[\*\]` may stand in the first argument of a call only/ }),
  error('upper(⟦lower(http.request.headers.names[*])⟧) == "A"', 'argument-type', { ...WAF, message: /found `lower\(http\.request\.headers\.names\[\*\]\)`, an Array<String>$/, name: 'a call over [*] is an array, not a string' }),
]);

table('HTTP: arguments', [
  error('⟦lower()⟧ == "a"', 'argument-count', { ...WAF, message: /^`lower\(…\)` takes 1 argument \(lower\(source: String\): String\), found none: e\.g\. `/ }),
  error('lower(http.host, ⟦"a"⟧) == "a"', 'argument-count', { ...WAF, message: /takes 1 argument .*, found 2: remove this one$/, fixed: 'lower(http.host) == "a"' }),
  error('lower(http.host, ⟦"a", "b"⟧) == "a"', 'argument-count', { ...WAF, fixed: 'lower(http.host) == "a"' }),
  error('⟦concat(http.host)⟧ == "a"', 'argument-count', { ...WAF, message: /takes at least 2 arguments/ }),
  error('lower(⟦"A"⟧) == "a"', 'argument-kind', { ...WAF, message: /^expected a field, a call or an index expression as the first argument \(`source`\) of `lower\(…\)`, found the literal `"A"`/ }),
  error('substring(http.host, ⟦len(http.host)⟧, 10) == "a"', 'argument-kind', { ...WAF, message: /^expected a literal number as the second argument \(`start`\) of `substring\(…\)`/ }),
  error('is_jwt_valid(⟦not ssl⟧)', 'argument-kind', WAF),
  error('lower(⟦ip.src⟧) == "a"', 'argument-type', { ...WAF, message: /^expected String as the first argument \(`source`\) of `lower\(…\)`, found `ip\.src`, an IP address$/ }),
  error('starts_with(http.host, ⟦1⟧)', 'argument-type', { ...WAF, fixed: 'starts_with(http.host, "1")' }),
  error('substring(http.host, ⟦"1"⟧, 3) == "a"', 'argument-type', { ...WAF, fixed: 'substring(http.host, 1, 3) == "a"' }),
  error('lower(⟦http.request.headers["user-agent"]⟧) contains "curl"', 'argument-type', {
    ...WAF,
    message: /^expected String as the first argument \(`source`\) of `lower\(…\)`, found `http\.request\.headers\["user-agent"\]`, an Array<String>: the values of one key; index one, such as `\[0\]` \(the first\)$/,
    fixed: 'lower(http.request.headers["user-agent"][0]) contains "curl"',
    name: 'the values of one header where one value is wanted: take the first',
  }),
  error('starts_with(http.request.uri.path, ⟦http.request.uri.args["next"]⟧)', 'argument-type', { ...WAF, fixed: 'starts_with(http.request.uri.path, http.request.uri.args["next"][0])', name: '… in any argument' }),
  error('join(⟦cf.bot_management.detection_ids⟧, ",") == "a"', 'argument-type', { ...WAF, message: /found `cf\.bot_management\.detection_ids`, an Array<Integer>/ }),
  error('concat(http.host, ⟦1⟧) == "a"', 'argument-type', { ...WAF, message: /^expected String \(the type of the first argument\) as the second argument/ }),
  error('concat(http.request.headers.names, ⟦cf.bot_management.detection_ids⟧)[0] == "a"', 'argument-type', { ...WAF, name: 'concat\'s later arrays have the first\'s type' }),
  error('coalesce(⟦http.request.headers.names⟧, ⟦http.request.headers.names⟧)[0] == "a"', 'argument-type', WAF),
  error('coalesce(⟦http.request.headers.names[*] == "a"⟧, ssl)', 'argument-type', { ...WAF, message: /an Array<Boolean>$/ }),
  ok('coalesce(not ssl or ssl, ssl)', { ...WAF, name: 'a logical expression as an argument' }),
  ok('len(http.request.headers.names) > 2', { ...WAF, name: 'len of an array (the docs count its elements; a decided difference)' }),
  error('substring(http.host, ⟦0x1⟧, 3) == "a"', 'invalid-integer', { ...WAF, message: /^expected a decimal number as an argument, found the hex `0x1`/, fixed: 'substring(http.host, 1, 3) == "a"' }),
  error('coalesce(⟦::1/128⟧, ip.src) == ::1', 'invalid-value', { ...WAF, message: /^expected one value as an argument, found the CIDR block `::1\/128`/ }),
  error('coalesce(⟦::1..::2⟧, ip.src) == ::1', 'invalid-value', WAF),
]);

table('HTTP: literal arguments the service refuses', [
  ok('hash_in_range(0, 100, cf.random_seed) < 10', WAF),
  error('hash_in_range(100, ⟦0⟧, cf.random_seed) < 10', 'invalid-argument', { ...WAF, message: /^`hash_in_range\(…\)` needs its maximum above its minimum, found 100 then 0/, fixed: 'hash_in_range(0, 100, cf.random_seed) < 10' }),
  error('hash_in_range(5, ⟦5⟧, cf.random_seed) < 10', 'invalid-argument', WAF),
  ok('trim(http.host, "aA./") == "a"', WAF),
  error('trim(http.host, ⟦"aa"⟧) == "a"', 'invalid-argument', { ...WAF, message: /^the bytes to trim are a set, and the service refuses one given twice: `a` is repeated in `"aa"`$/, fixed: 'trim(http.host, "a") == "a"' }),
  error('trim_end(http.host, ⟦"éé"⟧) == "a"', 'invalid-argument', { ...WAF, message: /0xc3, 0xa9 are repeated/ }),
  error('trim_start(http.host, ⟦"\\x61a"⟧) == "a"', 'invalid-argument', WAF),
  error('trim_end(http.host, ⟦d1:d1⟧) == "a"', 'invalid-argument', { ...WAF, message: /0xd1 is repeated/, name: 'a byte set written as hex bytes' }),
  warning('cidr(ip.src, ⟦33⟧, 64) == 192.0.2.0', 'value-out-of-range', { ...WAF, message: /^`ipv4_network_bits` of `cidr\(…\)` is documented from 1 to 32, found 33$/ }),
]);

table('HTTP: a field, call or index expression on the right of a comparison', [
  error('http.host == ⟦cf.zone.name⟧', 'field-on-right', { ...WAF, message: /^expected a value \(a number, an address or a `"string"`\) after `==`, found the field `cf\.zone\.name`: the service compares/ }),
  error('ip.src < ⟦cf.edge.server_ip⟧', 'field-on-right', { ...WAF, message: /found the field `cf\.edge\.server_ip`/, name: 'a name the value reader stops in (at its `_`)' }),
  error('http.host == ⟦lower(http.host)⟧', 'field-on-right', { ...WAF, message: /found the call `lower\(http\.host\)`/ }),
  error('http.host == ⟦http.request.headers["host"][0]⟧ and ssl', 'field-on-right', { ...WAF, message: /found the index expression `http\.request\.headers\["host"\]\[0\]`/ }),
  error('http.host in ⟦lower(http.host)⟧', 'field-on-right', { ...WAF, message: /^expected a `\{…\}` set or a `\$list` after `in`/ }),
  error('http.host == ⟦lower (http.host)⟧ or lower(http.host) == ⟦upper(http.host)⟧', 'field-on-right', { ...WAF, name: 'one after the other, with a space before the `(`' }),
]);

describe('HTTP: an array argument where one value is wanted', () => {
  it('offers `[0]` only for the values of one key: not for an array of its own, nor for an element type not wanted', () => {
    for (const input of ['lower(http.request.headers.names) == "a"', 'len(http.request.headers["a"]) > 1 and lower(ip.src) == "a"', 'upper(lower(http.request.headers.names[*])) == "A"', 'lower(http.request.jwt.claims.iat.sec["a"]) == "1"']) {
      const found = checkExpression(input, { phase: 'http_request_firewall_custom' }).problems.filter((p) => p.code === 'argument-type');
      assert.ok(found.length > 0, input);
      assert.deepEqual(found.map((p) => p.fixes ?? []), found.map(() => []), input);
    }
  });
});

describe('HTTP: a field or call on the right, with what else the comparison has', () => {
  const found = (text: string) => checkExpression(text, { phase: 'http_request_firewall_custom' }).problems.map((p) => `${p.code} ${text.slice(p.span.start, p.span.end)}`);
  it('an operator the left side does not take, first, as the reference reads them', () => {
    assert.deepEqual(found('cf.edge.server_ip strict wildcard ip.src'), ['invalid-operator strict wildcard', 'field-on-right ip.src']);
  });
  it('a call on the right left open: all that follows', () => {
    // And the `)` it lacks, which reading it on its own finds.
    assert.deepEqual(found('ip.src != cidr6(cf.edge.server_ip, 27'), ['field-on-right cidr6(cf.edge.server_ip, 27', 'syntax-error ']);
    assert.deepEqual(found('ip.src != cidr6(cf.edge.server_ip, "27)'), ['field-on-right cidr6(cf.edge.server_ip, "27)', 'syntax-error ']);
  });
  it('a call on the right whose arguments hold raw strings, brackets and quotes in them: the whole call', () => {
    assert.deepEqual(found('http.host == lookup_json_string(http.host, r#"a")"#, "(")[0] and ssl'), [
      'field-on-right lookup_json_string(http.host, r#"a")"#, "(")[0]',
      'invalid-index [0]',
    ]);
  });
});

describe('HTTP: what stands on the right is checked too', () => {
  it('the expression after it, and the call\'s own arguments', () => {
    const result = checkExpression('http.host == lower(ip.src) or http.hots == "a"', { phase: 'http_request_firewall_custom' });
    assert.deepEqual(
      result.problems.map((p) => `${p.code} ${p.span.start}..${p.span.end}`),
      ['field-on-right 13..26', 'argument-type 19..25', 'unknown-field 30..39'],
    );
    assert.equal(result.ast, undefined, 'no tree: the tree read has a placeholder where the call stands');
  });
});

table('HTTP: lists by kind', [
  ok('ip.src in $cf.vpn and cf.edge.server_ip in $office', WAF),
  ok('ip.src.asnum in $bad_asns and http.host in $hosts', WAF),
  error('http.host in ⟦$cf.vpn⟧', 'list-not-allowed', { ...WAF, message: /^`\$cf\.vpn` is an IP list, of IP address values, and `http\.host` is a String: IP lists go with the fields of type IP address/ }),
  warning('ip.src in ⟦$svc.vpn⟧', 'unknown-list', { ...WAF, message: /managed lists are `\$cf\.…`.*; did you mean `\$cf\.vpn`\?$/, fixed: 'ip.src in $cf.vpn', name: 'the packet phases\' managed list, in an HTTP phase' }),
  warning('ip.src in ⟦$cf.vnp⟧', 'unknown-list', { ...WAF, fixed: 'ip.src in $cf.vpn' }),
  error('http.host in ⟦$office⟧', 'list-not-allowed', { ...WAF, listKinds: { office: 'ip' }, message: /^`\$office` is an IP list/ }),
  ok('cf.edge.server_ip in $office', { ...WAF, listKinds: { office: 'ip' } }),
  warning('http.request.uri.path in ⟦$hosts⟧', 'list-kind', { ...WAF, listKinds: { hosts: 'hostname' }, message: /^`\$hosts` is a hostname list, made for `http\.host`, not for `http\.request\.uri\.path`$/ }),
  warning('http.request.uri.path in ⟦$paths⟧', 'list-kind', { ...WAF, message: /^no kind of list is made for `http\.request\.uri\.path`: .*say its kind in \.rulesets\.yaml \(`lists: \{paths: …\}`\)$/ }),
  warning('cf.bot_management.score in ⟦$scores⟧', 'list-kind', WAF),
  ok('http.request.full_uri in $redirects', { ...WAF, listKinds: { redirects: 'redirect' } }),
  error('ip.src.asnum in ⟦$redirects⟧', 'list-not-allowed', { ...WAF, listKinds: { redirects: 'redirect' } }),
  warning('ip.src in ⟦$offce⟧', 'unknown-list', { ...WAF, knownLists: ['office'], listKinds: { office: 'ip' }, fixed: 'ip.src in $office' }),
  // A phase we do not know: only what a configured kind says of the field's type.
  ok('http.request.uri.path in $paths and tcp.dstport in $ports', UNKNOWN),
  error('tcp.dstport in ⟦$office⟧', 'list-not-allowed', { ...UNKNOWN, listKinds: { office: 'ip' } }),
  // The packet phases: their lists hold IP addresses, whatever the configuration says.
  error('tcp.dstport in ⟦$ports⟧', 'list-not-allowed', { listKinds: { ports: 'asn' }, message: /^lists hold IP addresses and can only be used with `ip\.src` or `ip\.dst`/ }),
]);

describe('HTTP: where the parse fails', () => {
  const found = (text: string, phase = 'http_request_firewall_custom') => checkExpression(text, { phase }).problems.map((p) => `${p.code} ${text.slice(p.span.start, p.span.end)}`);
  it('an unknown function before the syntax error, as an unknown field is', () => {
    assert.deepEqual(found('lookup_json_integerh(http.host, "a") > 1 and ('), ['unknown-function lookup_json_integerh', 'syntax-error ']);
    assert.deepEqual(found('lowr(x) > 1 and (', 'magic_transit'), ['unknown-field x', 'syntax-error '], 'the packet phases say what they always have');
  });
  it('a raw string\'s broken fence: its `r` is no unknown field', () => {
    assert.deepEqual(found('lower(r#a#) == "a"'), ['syntax-error a']);
  });
});

table('wildcard patterns: at most 10 `*`, in every phase', [
  ok('http.host wildcard "*.*.*.*.*.*.*.*.*.*"', WAF),
  error('http.host wildcard ⟦"*.*.*.*.*.*.*.*.*.*.*"⟧', 'invalid-wildcard', { ...WAF, message: /^a wildcard pattern may hold at most 10 `\*`, found 11/ }),
  error('ip.proto strict wildcard ⟦"*.*.*.*.*.*.*.*.*.*.*"⟧', 'invalid-wildcard', { name: 'in the packet phases too' }),
  ok('http.host wildcard r"a\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*\\*"', { ...WAF, name: 'escaped stars are no metacharacters' }),
  ok('wildcard(http.host, "*.*.*.*.*.*.*.*.*.*.*")', { ...WAF, name: 'the function has no limit' }),
]);

table('a phase we do not know: types where they are known, no unknown names', [
  ok('some.field[0] == 1 and f(x) == "a" and any(y[*] == 2)', UNKNOWN),
  error('lower(⟦ip.src⟧) == "a"', 'argument-type', UNKNOWN),
  error('http.host⟦[0]⟧ == "a"', 'invalid-index', UNKNOWN),
  ok('bit_slice(udp, 64, 72) == 0x45', UNKNOWN),
]);

table('value expressions', [
  ok('lower(http.request.uri.path)', { ...TRANSFORM, value: ['Bytes'] }),
  ok('regex_replace(http.request.uri.path, "^/old/(.*)$", "/new/${1}")', { ...TRANSFORM, value: ['Bytes'], name: 'a function the docs give to value expressions' }),
  ok('http.request.headers["x-forwarded-for"][0]', { ...TRANSFORM, value: ['Bytes'] }),
  ok('to_string(cf.bot_management.score)', { ...TRANSFORM, value: ['Bytes'] }),
  ok('cf.bot_management.score', { ...TRANSFORM, value: ['Bytes', 'Integer'] }),
  error('⟦cf.bot_management.score⟧', 'type-mismatch', { ...TRANSFORM, value: ['Bytes'], message: /^expected a value of type String here, found `cf\.bot_management\.score`, an Integer$/, fixed: 'to_string(cf.bot_management.score)' }),
  error('⟦ssl⟧', 'type-mismatch', { ...TRANSFORM, value: ['Bytes', 'Integer'], message: /String or Integer/ }),
  error('⟦lower(http.request.headers.names[*])⟧', 'invalid-each', { ...TRANSFORM, value: ['Bytes'], message: /^a value expression is one value, and `\[\*\]` makes each element/ }),
  error('⟦http.request.headers.names[*]⟧', 'invalid-each', { ...TRANSFORM, value: true }),
  error('regex_replace(http.request.uri.path, "⟦(⟧", "")', 'invalid-regex', { ...TRANSFORM, value: ['Bytes'], name: 'a pattern that does not compile' }),
  error('⟦split⟧(http.host, ".", 2)[0]', 'function-not-available', { ...TRANSFORM, value: ['Bytes'], name: 'a function of other phases' }),
  error('⟦uuidv4⟧(cf.random_seed)', 'function-not-available', { ...WAF, value: ['Bytes'], name: '… uuidv4 is for the Transform Rules phases' }),
  error('⟦lowr⟧(http.host)', 'unknown-function', { ...TRANSFORM, value: ['Bytes'] }),
  error('http.host ⟦==⟧ "a"', 'syntax-error', { ...TRANSFORM, value: ['Bytes'], message: /a value expression is one field, call or index expression/ }),
  ok('ip.src.timezone.name', { ...TRANSFORM, value: ['Bytes'] }),
]);

const DYNAMIC_REDIRECT: RowOptions = { phase: 'http_request_dynamic_redirect' };
const WILDCARD_EXAMPLE = 'wildcard_replace(http.request.full_uri, "https://*.example.com/*/*", "https://example.com/${1}/${2}/${3}")';
const REGEX_EXAMPLE = 'regex_replace(http.request.uri.path, "^/foo/([^/]*)/(.*)$", "/bar/${2}/${1}")';

// The functions page of the docs: each of regex_replace and wildcard_replace "once in an
// expression", and "you cannot nest it with" the other. The engine takes all of these
// (README's table of differences); the service refuses them.
table('value expressions: regex_replace and wildcard_replace once, and not one inside the other', [
  ok(WILDCARD_EXAMPLE, { ...DYNAMIC_REDIRECT, value: ['Bytes'], name: "the docs' wildcard_replace example, once" }),
  ok(REGEX_EXAMPLE, { ...TRANSFORM, value: ['Bytes'], name: "the docs' capture-group example, once" }),
  ok(`concat(${REGEX_EXAMPLE}, ${WILDCARD_EXAMPLE})`, { ...DYNAMIC_REDIRECT, value: ['Bytes'], name: 'one of each, side by side: the docs limit each once and forbid nesting only' }),
  error(`concat(${REGEX_EXAMPLE}, "?", ⟦regex_replace⟧(http.request.uri.query, "^a=(.*)$", "b=\${1}"))`, 'once-per-expression', {
    ...TRANSFORM,
    value: ['Bytes'],
    message: /^`regex_replace\(…\)` may be used once in an expression, and this is a second call: the service refuses the rule/,
    name: 'a second regex_replace, on the second',
  }),
  error(`concat(${WILDCARD_EXAMPLE}, ⟦wildcard_replace⟧(http.request.uri.path, "/*", "/apps/\${1}"))`, 'once-per-expression', { ...DYNAMIC_REDIRECT, value: ['Bytes'], name: 'a second wildcard_replace' }),
  error('regex_replace(⟦regex_replace⟧(http.request.uri.path, "^/a", "/b"), "^/b", "/c")', 'once-per-expression', { ...TRANSFORM, value: ['Bytes'], name: 'one inside another of its own: the inner one is written second' }),
  error('wildcard_replace(⟦regex_replace⟧(http.request.uri.path, "^/a", "/b"), "/*", "/apps/${1}")', 'replace-nesting', {
    ...DYNAMIC_REDIRECT,
    value: ['Bytes'],
    message: /^`regex_replace\(…\)` cannot stand inside `wildcard_replace\(…\)`: .*the service refuses the rule; rewrite with one of them alone/,
    name: 'regex_replace inside wildcard_replace, on the inner call',
  }),
  error('regex_replace(lower(⟦wildcard_replace⟧(http.request.uri.path, "/*", "/apps/${1}")), "^/a", "/b")', 'replace-nesting', { ...DYNAMIC_REDIRECT, value: ['Bytes'], name: 'wildcard_replace inside regex_replace, through another call' }),
  error('⟦regex_replace⟧(http.host, "a", "b") == "b" and ⟦regex_replace⟧(http.host, "c", "d") == "d"', 'function-not-available', { ...TRANSFORM, name: 'in a filter, where neither may stand, said once a call' }),
]);

// The functions page of the docs: url_decode's options are `r` and `u`, as "a single string", such as "r" or "ur".
table('url_decode: options are the letters r and u', [
  ok('any(url_decode(http.request.body.form.values[*])[*] contains "an xss attack")', { ...WAF, name: "the docs' example, without options" }),
  ok('url_decode(http.request.uri.query, "r") contains "<script"', WAF),
  ok('url_decode(http.request.uri.query, "ur") contains "<script"', { ...WAF, name: 'both, as the docs write them' }),
  ok('url_decode(http.request.uri.query, "") contains "<script"', { ...WAF, name: 'no letter: nothing the docs forbid' }),
  error('url_decode(http.request.uri.query, "⟦x⟧") contains "<script"', 'invalid-argument', {
    ...WAF,
    message: /^`options` of `url_decode\(…\)` is made of the letters `r` and `u` .*, and `x` is none of them: the service refuses the rule/,
    fixed: 'url_decode(http.request.uri.query) contains "<script"',
  }),
  error('url_decode(http.request.uri.query, "⟦R⟧") contains "<script"', 'invalid-argument', { ...WAF, fixed: 'url_decode(http.request.uri.query, "r") contains "<script"', name: 'a capital: the fix writes the letter meant' }),
  error('url_decode(http.request.uri.query, "r⟦x⟧u⟦,⟧") contains "<script"', 'invalid-argument', { ...WAF, fixed: 'url_decode(http.request.uri.query, "ru") contains "<script"', name: 'each character that is no option, on it' }),
  error('url_decode(http.request.uri.query, ⟦"\\x72q"⟧) contains "<script"', 'invalid-argument', { ...WAF, name: 'written with escapes: on the string' }),
  error('url_decode(http.request.uri.path, "⟦s⟧")', 'invalid-argument', { ...TRANSFORM, value: ['Bytes'], name: 'in a value expression too' }),
]);

describe('checkValueExpression', () => {
  it('gives the value\'s type', () => {
    assert.equal(checkValueExpression('len(http.host)', { phase: 'http_request_transform' }).type, 'Integer');
    assert.equal(checkValueExpression('concat(http.host, "/")', { phase: 'http_request_transform' }).type, 'Bytes');
    assert.equal(checkValueExpression('http.request.headers', { phase: 'http_request_transform' }).type, 'Map<Array<Bytes>>');
    assert.equal(checkValueExpression('foo', { phase: 'a_phase_added_later' }).type, undefined);
  });
  it('has the operand as its tree, and no tree when it does not parse', () => {
    assert.equal(checkValueExpression('lower(http.host)', { phase: 'http_request_transform' }).ast?.kind, 'call');
    assert.equal(checkValueExpression('lower(', { phase: 'http_request_transform' }).ast, undefined);
  });
});

describe('a value in parentheses as a call argument', () => {
  // wirefilter reads an argument that starts with `(` as a logical expression (a filter), so
  // `concat((http.host), "a")` asks `http.host` for a Boolean, as the installed engine says too.
  const PHASE = { phase: 'http_request_late_transform' };
  it('is the missing-operator error on the value, saying why, with the fix that removes the parentheses', () => {
    const text = 'concat((http.host), "/a")';
    const problems = checkValueExpression(text, PHASE).problems;
    assert.deepEqual(problems.map((p) => [p.code, p.severity, text.slice(p.span.start, p.span.end)]), [['missing-operator', 'error', 'http.host']]);
    assert.match(problems[0].message, /; in a call's argument, parentheses make a test \(a filter\), not a value: remove them$/);
    const fix = problems[0].fixes?.find((f) => f.title === 'Remove the parentheses');
    assert.ok(fix);
    let after = text;
    for (const e of [...fix.edits].sort((a, b) => b.span.start - a.span.start)) after = after.slice(0, e.span.start) + e.newText + after.slice(e.span.end);
    assert.equal(after, 'concat(http.host, "/a")');
    assert.deepEqual(checkValueExpression(after, PHASE).problems, []);
    // Two levels go together; a filter's Boolean test in parentheses stays as it was.
    const nested = checkValueExpression('lower(((http.host)))', PHASE).problems;
    assert.equal(nested.length, 1);
    assert.equal(nested[0].fixes?.[0].edits.length, 2);
    assert.deepEqual(checkExpression('starts_with((http.host), "a")', PHASE).problems.map((p) => p.code), ['missing-operator']);
  });
  it('a comparison in parentheses as an argument is not a value either: the error stays as it was', () => {
    const problems = checkValueExpression('concat((http.host eq "a"), "b")', PHASE).problems;
    assert.ok(problems.every((p) => !/parentheses make a test/.test(p.message)));
  });
});
