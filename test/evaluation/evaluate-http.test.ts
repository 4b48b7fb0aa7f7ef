/**
 * Evaluation over HTTP requests: arrays, maps, index steps, `[*]` and mapped calls, any/all,
 * logic over Boolean arrays, missing values against unknown ones, lists, and the functions,
 * each with the semantics evaluate.ts and functions.ts cite.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';

import { evaluate, evaluatePartial, EvaluationError, MissingValuesError } from '../../server/src/evaluation/evaluate';
import { parseLists } from '../../server/src/evaluation/packet';
import { parseRequest } from '../../server/src/evaluation/request';
import type { Argument, Operand, ValueType } from '../../server/src/language/ast';
import { isExpression, isOperand } from '../../server/src/language/ast';
import { catalogueFor } from '../../server/src/language/catalogue/catalogues';
import { parseExpression } from '../../server/src/language/parser';
import { arrayOf, typeAfterStep } from '../../server/src/language/types';
import { HTTP_SCHEME, missingOracle, startOracle } from '../oracle/engine';

const PHASE = 'http_request_firewall_custom';

const REQUEST = {
  url: 'https://www.example.com/wp-login.php?user=admin&tag=a&tag=bb&redirect_to=%2Fwp-admin',
  method: 'POST',
  headers: {
    'User-Agent': 'Mozilla/5.0 sqlmap/1.7',
    Accept: ['text/html', 'application/json'],
    Cookie: 'session=abc123; theme=dark',
    'X-Client-Id': 'MTIzYWJj',
    'X-Categories': 'groceries,electronics,diy,auto',
  },
  'ip.src': '203.0.113.7',
  'ip.src.asnum': 64496,
  'ip.src.country': 'BR',
  'cf.bot_management.score': 12,
  'cf.bot_management.detection_ids': [33554817, 1],
  'http.request.body.raw': '{"user": {"role": "admin", "id": 42, "ratio": 42.0}, "tags": ["x", "y"]}',
  'http.request.timestamp.sec': 1484071925,
  'http.request.jwt.claims.iat.sec': { tok: [1700000000, 1700000001] },
  'is_jwt_valid("6f4a2d1c")': false,
  $lists: { known_bots: false, office: ['198.51.100.0/24'] },
};

const CATALOGUE = catalogueFor(PHASE);

/**
 * An operand's type from the catalogue, which the literals on its right are read by, as the
 * engine reads them. (Until the checker types calls and index expressions of the HTTP phases,
 * it reads the right side of `cidr(…) == 192.0.2.0` as an Integer; these tests parse as the
 * engine does, and the engine itself judges every expression below.)
 */
function operandType(operand: Operand): ValueType | undefined {
  if (operand.kind === 'field') return CATALOGUE.fields.get(operand.name)?.type;
  if (operand.kind === 'call') {
    const fn = CATALOGUE.functions.get(operand.name.text);
    const first: Argument | undefined = operand.args[0];
    const firstType = first === undefined || isExpression(first) ? undefined : isOperand(first) ? operandType(first) : first.kind === 'ip' ? 'Ip' : first.kind === 'integer' ? 'Integer' : 'Bytes';
    const result = fn?.result === 'first-argument' ? firstType : fn?.result;
    const mapped = first?.kind === 'index' && first.steps.some((s) => s.kind === 'each');
    return result && mapped ? arrayOf(result) : result;
  }
  let type = operandType(operand.target);
  for (const step of operand.steps) type = type && typeAfterStep(type, step.kind);
  return type;
}

function parse(expression: string) {
  const parsed = parseExpression(expression, { operandType });
  assert.ok(parsed.ast && parsed.problems.length === 0, `${expression}: ${parsed.problems.map((p) => p.message).join('; ')}`);
  return parsed.ast;
}

function run(expression: string, request: object = REQUEST): boolean {
  return evaluate(parse(expression), parseRequest(request, { phase: PHASE }));
}

function partial(expression: string, request: object = REQUEST) {
  return evaluatePartial(parse(expression), parseRequest(request, { phase: PHASE }));
}

type Case = readonly [expression: string, expected: boolean];

const CASES: readonly Case[] = [
  // Scalars, derived from the conveniences
  ['http.host == "www.example.com"', true],
  ['ssl and http.request.method eq "POST"', true],
  ['http.request.uri.path == "/wp-login.php"', true],
  ['http.request.uri.path.extension in {"php" "asp"}', true],
  ['http.user_agent contains "sqlmap"', true],
  ['http.user_agent matches "(?i)SQLMAP/\\d"', true],
  ['http.request.full_uri wildcard "https://WWW.example.com/wp-*"', true],
  ['http.request.full_uri strict wildcard "https://WWW.example.com/wp-*"', false],
  ['cf.bot_management.score lt 30', true],
  ['ip.src in {203.0.113.0/24}', true],
  ['ip.src.asnum in {64496..64511}', true],
  // Maps and arrays: a key, an index
  ['http.request.headers["accept"][1] == "application/json"', true],
  ['http.request.headers["Accept"][0] == "text/html"', false], // keys are lowercase
  ['http.request.uri.args["tag"][1] == "bb"', true],
  ['http.request.uri.args["redirect_to"][0] == "%2Fwp-admin"', true], // no decoding
  ['http.request.cookies["session"][0] == "abc123"', true],
  ['cf.bot_management.detection_ids[0] == 33554817', true],
  ['http.request.jwt.claims.iat.sec["tok"][1] > 1700000000', true],
  ['http.request.headers.names[0] == "User-Agent"', true],
  // Missing values: every comparison is false, `!=` too
  ['http.request.headers["x-api-key"][0] == "secret"', false],
  ['http.request.headers["x-api-key"][0] != "secret"', false],
  ['not http.request.headers["x-api-key"][0] == "secret"', true],
  ['http.request.uri.args["tag"][5] == "x"', false],
  ['http.request.headers["x-api-key"][0] in {"a" "b"}', false],
  // [*] with any / all
  ['any(http.request.headers["accept"][*] == "application/json")', true],
  ['all(http.request.headers["accept"][*] == "application/json")', false],
  ['all(http.request.headers["accept"][*] contains "/")', true],
  ['any(http.request.headers["x-none"][*] == "a")', false],
  ['all(http.request.headers["x-none"][*] == "a")', true], // no elements: all holds (logical_expr.rs)
  ['any(http.request.headers[*][0] == "MTIzYWJj")', true],
  ['any(http.request.headers[*][*] == "application/json")', true],
  ['any(cf.bot_management.detection_ids[*] == 1)', true],
  ['any(http.request.jwt.claims.iat.sec[*][*] == 1700000001)', true],
  ['any(http.request.uri.args.names[*] == "user")', true],
  // not / and / or / xor over Boolean arrays
  ['any(not http.request.headers["accept"][*] == "text/html")', true],
  ['all(not http.request.headers["accept"][*] == "text/plain")', true],
  ['any((http.request.uri.args.names[*] == "tag" and http.request.uri.args.values[*] == "bb"))', true],
  ['any((http.request.uri.args.names[*] == "tag" and http.request.uri.args.values[*] == "admin"))', false],
  ['any((http.request.uri.args.names[*] == "user" xor http.request.uri.args.values[*] == "admin"))', false],
  ['all((http.request.uri.args.names[*] == "user" or http.request.uri.args.names[*] == "tag"))', false],
  // Mapped calls
  ['any(lower(http.request.headers.names[*])[*] == "user-agent")', true],
  ['any(starts_with(http.request.headers.names[*], "X-"))', true],
  ['any(len(http.request.uri.args["tag"][*])[*] in {2})', true],
  ['all(len(http.request.uri.args["tag"][*])[*] in {1 2})', true],
  ['any(decode_base64(http.request.headers["x-client-id"][*])[*] eq "123abc")', true], // the docs' example
  ['starts_with(http.request.headers.names[*], "X-")[1]', false],
  ['lower(http.request.headers.names[*])[0] == "user-agent"', true],
  // Calls
  ['lower(http.host) == "www.example.com"', true],
  ['upper(http.request.uri.path.extension) == "PHP"', true],
  ['ends_with(http.request.uri.path, ".php")', true],
  ['starts_with(http.request.uri.path, http.request.uri.path)', true],
  ['len(http.host) == 15', true],
  ['len(http.request.headers["accept"]) == 2', true],
  ['not len(http.request.uri.args["order"]) >= 0', true], // values.mdx: a missing key has no length
  ['len(http.request.uri.args["user"]) >= 0', true],
  ['concat(http.host, http.request.uri.path) == "www.example.com/wp-login.php"', true],
  ['concat("/", http.request.headers["x-none"][0], http.request.uri.path) == "//wp-login.php"', true], // missing skipped
  ['concat(http.request.headers["accept"], http.request.uri.args["tag"])[3] == "bb"', true],
  ['split(http.request.headers["x-categories"][0], ",", 3)[2] == "diy,auto"', true],
  ['len(split(http.request.headers["x-categories"][0], ",", 64)) == 4', true],
  ['join(http.request.headers["accept"], ", ") == "text/html, application/json"', true],
  ['substring(http.request.uri.path, 1, 3) == "wp"', true],
  ['substring(http.request.uri.path, -3) == "php"', true],
  ['remove_bytes(http.host, "\\x2e\\x77") == "examplecom"', true],
  ['url_decode(http.request.uri.args["redirect_to"][0]) == "/wp-admin"', true],
  ['lookup_json_string(http.request.body.raw, "user", "role") == "admin"', true],
  ['lookup_json_integer(http.request.body.raw, "user", "id") == 42', true],
  ['lookup_json_string(http.request.body.raw, "tags", 1) == "y"', true],
  ['lookup_json_integer(http.request.body.raw, "user", "ratio") == 42', false], // "only works for plain integers"
  ['lookup_json_string(http.request.body.raw, "user", "nope") != "x"', false], // nothing there: missing
  ['cidr(ip.src, 24, 64) == 203.0.113.0', true],
  ['cidr6(ip.src, 64) == 203.0.113.7', true],
  ['any(split(http.request.headers["x-categories"][0], ",", 64)[*] == "diy")', true],
  // A stated call value, and a stated list membership
  ['is_jwt_valid( "6f4a2d1c" )', false],
  ['not is_jwt_valid("6f4a2d1c") and http.request.uri.path eq "/wp-login.php"', true],
  ['ip.src in $known_bots', false],
  ['ip.src in $office', false],
];

/**
 * Forms where the catalogue follows the docs and the engine differs (scripts/catalogue/overlay.ts
 * DECIDED_DIFFERENCES, docs/engine.md's table): `substring` without `end`, `len` of an array,
 * `lookup_json_*` with an Integer or several keys, `url_decode` with options.
 */
const DECIDED: readonly RegExp[] = [
  /\bsubstring\([^,()]*,[^,()]*\)/,
  /\blen\((split\(|[\w.]+\["[^"]*"\]\))/,
  /\blookup_json_(string|integer)\([^,]+,\s*(-?\d|[^,)]+,)/,
  /\burl_decode\([^,()]+,/,
];

describe('evaluate over requests: every construct', () => {
  for (const [expression, expected] of CASES) {
    it(`${expression} → ${expected}`, () => assert.equal(run(expression), expected));
  }

  it('the engine accepts every expression of the tables (no test of something the service rejects)', async (t) => {
    const started = await startOracle();
    if (!started.oracle) return missingOracle(started.missing, (m) => t.skip(m));
    try {
      const all = [...CASES.map(([e]) => e), ...DOCS_CASES.map(([e]) => e)].filter((e) => !DECIDED.some((d) => d.test(e)));
      const results = await started.oracle.check(all, HTTP_SCHEME);
      const refused = all.flatMap((e, i) => (results[i].ok ? [] : [`${e}: ${(results[i] as { message: string }).message}`]));
      assert.deepEqual(refused, []);
    } finally {
      started.oracle.close();
    }
  });
});

describe('evaluate over requests: unknown values', () => {
  it('names every field the result depends on, as the request\'s', () => {
    assert.throws(() => run('cf.threat_score > 10 or http.request.body.size > 100'), (error: unknown) => {
      assert.ok(error instanceof MissingValuesError);
      assert.match(error.message, /^the request has no value for `cf\.threat_score`, `http\.request\.body\.size`, which the result depends on$/);
      return true;
    });
  });

  it('is three-valued over arrays too', () => {
    assert.equal(run('any(http.request.headers["accept"][*] == "text/html") or cf.threat_score > 10'), true);
    assert.equal(partial('any(http.request.body.form.values[*] == "x")').value, undefined);
    assert.equal(partial('all(http.request.body.form.values[*] == "x") and ssl').value, undefined);
    assert.equal(run('not ssl and any(http.request.body.form.values[*] == "x")'), false);
  });

  it('a field a convenience could not derive is unknown, with the reason', () => {
    assert.throws(() => run('http.referer eq ""'), (error: unknown) => {
      assert.ok(error instanceof MissingValuesError);
      assert.match(error.message, /^`http\.referer` is unknown, and the result depends on it: `headers` has no referer header, and the docs do not say what `http\.referer` holds then/);
      return true;
    });
    assert.equal(run('http.referer eq "" or ssl'), true);
  });

  it('a function the docs do not describe is unknown unless the case gives its value', () => {
    assert.throws(() => run('sha256(http.host) == "x"'), /: `sha256\(http\.host\)` is unknown, and the result depends on it: the Cloudflare docs' functions reference does not describe `sha256`.*give its value in the request: `'sha256\(http\.host\)': …`$/);
    assert.throws(() => run('is_jwt_valid("other")'), /`is_jwt_valid\("other"\)` is unknown/);
    // Several unknowns: the plain ones first, then each with its reason.
    assert.throws(() => run('cf.threat_score > 1 or sha256(http.host) == "x"'), /: the request has no value for `cf\.threat_score`, which the result depends on; `sha256\(http\.host\)` is unknown, and the result depends on it: /);
    assert.equal(run('sha256(http.host) == "x"', { ...REQUEST, 'sha256(http.host)': 'x' }), true);
    assert.throws(() => run('any(sha256(http.request.headers.names[*])[*] == "x")'), /a call over `\[\*\]` cannot be given/);
  });

  it('uuidv4 is random: not computed, unless the request gives its value', () => {
    assert.throws(() => run('uuidv4(cf.random_seed) == "x"'), /`uuidv4` gives a new random value for every request; give its value in the request: `'uuidv4\(cf\.random_seed\)': …`/);
  });

  it('a call on a missing value is unknown where the docs leave it open, and decided where they say', () => {
    assert.throws(() => run('lower(http.request.headers["x-none"][0]) == "a"'), /an argument of `lower` is a missing value.*"in most cases", not for `lower`; write the rule with `\[\*\]` inside `any\(…\)`, or give its value in the request: `'lower\(http\.request\.headers\["x-none"\]\[0\]\)': …`$/);
    assert.equal(run('lower(http.request.headers["x-none"][0]) == "a"', { ...REQUEST, 'lower(http.request.headers["x-none"][0])': 'a' }), true);
    assert.equal(run('lower(http.request.headers["x-none"][0]) == "a" or ssl'), true);
    assert.equal(run('join(http.request.headers["x-none"], ",") == ""'), false);
    assert.equal(run('len(split(http.request.headers["x-none"][0], ",", 2)) >= 0'), false);
  });

  it('an input a documented function does not describe is unknown, with why', () => {
    assert.throws(() => run('substring(http.host, 2, 99) == "x"'), /reaches outside it, and the docs do not say what it returns then/);
    assert.throws(() => run('url_decode(http.request.uri.query, "x") == "x"'), /options are "r" and "u"/);
    assert.throws(() => run('decode_base64(http.host) == "x"'), /not standard padded Base64/);
    assert.throws(() => run('url_decode(http.host) == "x"', { 'http.host': '100%' }), /the `%` at byte 3 starts no escape the docs describe/);
    assert.throws(() => run('url_decode(http.host, "u") == "x"', { 'http.host': '%U2601' }), /starts no escape the docs describe \(`%XX`, `%uXXXX`\)/);
    assert.throws(() => run('split(http.host, ".", 200)[0] == "x"'), /limit from 1 to 128/);
    assert.throws(() => run('cidr(ip.src, 0, 64) == 0.0.0.0'), /IPv4 network bits from 1 to 32/);
  });

  it('a list the case does not describe is unknown', () => {
    assert.throws(() => run('ip.src in $nope'), /nothing says what `\$nope` holds \(give it in the request's "\$lists" or a lists file\)/);
    assert.equal(evaluate(parse('ip.src in $bad'), parseRequest(REQUEST, { phase: PHASE }), parseLists({ bad: ['203.0.113.0/24'] })), true);
    assert.equal(run('http.host in $hosts', { ...REQUEST, $lists: { hosts: true } }), true);
    assert.throws(() => run('lower(http.host) in $hosts', { ...REQUEST, $lists: { hosts: ['10.0.0.0/8'] } }), /lists hold IP addresses.*state whether the request is in it/);
  });
});

describe('evaluate over requests: errors the checker will report', () => {
  it('refuses an array or map compared as a whole, and an array of Booleans as the whole filter', () => {
    assert.throws(() => run('lower(http.request.headers.names[*]) == "a"'), (e: unknown) => e instanceof EvaluationError && /cannot compare an array/.test(e.message));
    assert.throws(() => run('http.request.headers.names[*] == "a"'), /an array of Booleans .*wrap it in `any\(…\)`/);
    assert.throws(() => run('any(ssl)'), /reduces an array of Booleans/);
  });

  it('refuses bit_slice, which reads packet headers, over a request', () => {
    assert.throws(() => run('bit_slice(http.host, 0, 8) == 1'), /`bit_slice` reads the raw headers of a packet, and an HTTP request has none/);
  });
});

const DOCS_CASES: readonly [string, object, boolean][] = [
    ['lower(http.host) == "www.cloudflare.com"', { 'http.host': 'WWW.cloudflare.com' }, true],
    ['upper(http.host) == "WWW.CLOUDFLARE.COM"', { 'http.host': 'www.cloudflare.com' }, true],
    ['ends_with(http.request.uri.path, ".html")', { 'http.request.uri.path': '/welcome.html' }, true],
    ['starts_with(http.request.uri.path, "/blog")', { 'http.request.uri.path': '/blog/first-post' }, true],
    ['len(http.host) == 11', { 'http.host': 'example.com' }, true],
    ['remove_bytes(http.host, "\\x2e\\x77") == "cloudflarecom"', { 'http.host': 'www.cloudflare.com' }, true],
    ['substring(http.request.body.raw, 2, 5) == "dfg"', { 'http.request.body.raw': 'asdfghjk' }, true],
    ['substring(http.request.body.raw, 2) == "dfghjk"', { 'http.request.body.raw': 'asdfghjk' }, true],
    ['substring(http.request.body.raw, -2) == "jk"', { 'http.request.body.raw': 'asdfghjk' }, true],
    ['substring(http.request.body.raw, 0, -2) == "asdfgh"', { 'http.request.body.raw': 'asdfghjk' }, true],
    ['len(split(http.request.headers["x-categories"][0], ",", 64)) == 4', { headers: { 'x-categories': 'groceries,electronics,diy,auto' } }, true],
    ['split(http.request.headers["x-categories"][0], ",", 3)[2] == "diy,auto"', { headers: { 'x-categories': 'groceries,electronics,diy,auto' } }, true],
    ['split(http.request.headers["x-categories"][0], ",", 64)[1] == ""', { headers: { 'x-categories': 'groceries,,electronics' } }, true],
    ['url_decode(http.host) == "John Doe"', { 'http.host': 'John%20Doe' }, true],
    ['url_decode(http.host) == "John Doe"', { 'http.host': 'John+Doe' }, true],
    ['url_decode(http.host) == "%20"', { 'http.host': '%2520' }, true],
    ['url_decode(http.host, "r") == " "', { 'http.host': '%2520' }, true],
    ['url_decode(http.host, "u") == "\\xe2\\x98\\x81"', { 'http.host': '%u2601' }, true],
    ['url_decode(http.host) == "\\xe4\\xbd"', { 'http.host': '%E4%BD' }, true],
    ['lookup_json_integer(http.request.body.raw, "version") == 2', { 'http.request.body.raw': '{ "record_id": "aed53a", "version": 2 }' }, true],
    ['lookup_json_integer(http.request.body.raw, "product", "id") == 356', { 'http.request.body.raw': '{ "product": { "id": 356 } }' }, true],
    ['lookup_json_integer(http.request.body.raw, 1) == -234', { 'http.request.body.raw': '["first_item", -234]' }, true],
    ['lookup_json_integer(http.request.body.raw, "network_ids", 0) == 123', { 'http.request.body.raw': '{ "network_ids": [123, 456] }' }, true],
    ['lookup_json_integer(http.request.body.raw, 1, "product_id") == 456', { 'http.request.body.raw': '[{ "product_id": 123 }, { "product_id": 456 }]' }, true],
    ['lookup_json_string(http.request.body.raw, "company") == "cloudflare"', { 'http.request.body.raw': '{ "company": "cloudflare", "product": "rulesets" }' }, true],
    ['lookup_json_string(http.request.body.raw, "network", "name") == "cloudflare"', { 'http.request.body.raw': '{ "network": { "name": "cloudflare" } }' }, true],
    ['lookup_json_string(http.request.body.raw, 1) == "cloudflare"', { 'http.request.body.raw': '["other_company", "cloudflare"]' }, true],
    ['lookup_json_string(http.request.body.raw, "networks", 1) == "cloudflare"', { 'http.request.body.raw': '{ "networks": ["other_company", "cloudflare"] }' }, true],
    ['lookup_json_string(http.request.body.raw, 1, "network") == "cloudflare"', { 'http.request.body.raw': '[{ "network": "other_company" }, { "network": "cloudflare" }]' }, true],
    ['lookup_json_string(http.request.body.raw, "a") == "b"', { 'http.request.body.raw': 'a=b&c=d' }, false], // no JSON document: nothing there
    ['cidr(ip.src, 24, 24) == 113.10.0.0', { 'ip.src': '113.10.0.2' }, true],
    ['cidr(ip.src, 24, 24) == 2001::', { 'ip.src': '2001:0000:130F:0000:0000:09C0:876A:130B' }, true],
    ['cidr6(ip.src, 24) == 2001::', { 'ip.src': '2001:0000:130F:0000:0000:09C0:876A:130B' }, true],
    ['cidr6(ip.src, 24) == 113.10.0.2', { 'ip.src': '113.10.0.2' }, true],
    ['concat(http.host, " ", http.request.uri.path) == "String1 String2"', { 'http.host': 'String1', 'http.request.uri.path': 'String2' }, true],
    ['join(http.request.headers.names, ",") == ""', { 'http.request.headers.names': [] }, true],
    ['join(http.request.headers.names, ",") == "only"', { 'http.request.headers.names': ['only'] }, true],
];

describe('evaluate over requests: functions from the docs\' own examples', () => {
  for (const [expression, request, expected] of DOCS_CASES) {
    it(`${expression} with ${JSON.stringify(request)} → ${expected}`, () => assert.equal(run(expression, request), expected));
  }

  it('a JSON member named twice on the path is not guessed at', () => {
    assert.throws(() => run('lookup_json_string(http.request.body.raw, "a") == "1"', { 'http.request.body.raw': '{"a": "1", "a": "2"}' }), /member "a" twice/);
    assert.equal(run('lookup_json_string(http.request.body.raw, "b") == "1"', { 'http.request.body.raw': '{"a": "1", "a": "2", "b": "1"}' }), true);
  });

  it('reads JSON nested a hundred thousand levels without recursion', () => {
    const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
    assert.equal(run('lookup_json_string(http.request.body.raw, 0, 0) == "x"', { 'http.request.body.raw': deep }), false);
    assert.equal(run('lookup_json_string(http.request.body.raw, 0) == "x"', { 'http.request.body.raw': '["x"]' }), true);
  });
});

describe('evaluate over requests: is_timed_hmac_valid_v0', () => {
  // A token made as the docs' Python example makes one (configure-token-authentication.mdx).
  function token(message: string, secret: string, timestamp: number, urlSafe = false): string {
    const mac = createHmac('sha256', secret).update(`${message}${timestamp}`).digest('base64');
    const encoded = urlSafe ? mac.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : encodeURIComponent(mac);
    return `${message}?verify=${timestamp}-${encoded}`;
  }
  const issued = 1484063787;
  const rule = (flags = '') => `is_timed_hmac_valid_v0("mysecrettoken", http.request.uri, 10800, http.request.timestamp.sec, 8${flags})`;

  it('is valid with the right key before the token expires', () => {
    const uri = token('/images/cat.jpg', 'mysecrettoken', issued);
    assert.equal(run(rule(), { 'http.request.uri': uri, 'http.request.timestamp.sec': issued + 100 }), true);
    assert.equal(run(rule(), { 'http.request.uri': uri, 'http.request.timestamp.sec': issued + 10800 }), false, 'expired: now < issued + ttl no longer holds');
    assert.equal(run(rule(), { 'http.request.uri': token('/images/cat.jpg', 'other', issued), 'http.request.timestamp.sec': issued + 100 }), false);
    assert.equal(run(rule(), { 'http.request.uri': token('/images/dog.jpg', 'mysecrettoken', issued).replace('dog', 'cat'), 'http.request.timestamp.sec': issued + 100 }), false);
    assert.equal(run(rule(), { 'http.request.uri': '/images/cat.jpg', 'http.request.timestamp.sec': issued }), false, 'no token at all');
  });

  it('reads the URL-safe MAC with the `s` flag', () => {
    const uri = token('/images/cat.jpg', 'mysecrettoken', issued, true);
    assert.equal(run(rule(', "s"'), { 'http.request.uri': uri, 'http.request.timestamp.sec': issued + 1 }), true);
  });

  it('needs the current time', () => {
    assert.throws(() => run(rule(), { 'http.request.uri': token('/a', 'mysecrettoken', issued) }), /no value for `http\.request\.timestamp\.sec`/);
  });
});

describe('evaluate over requests: linear-time matching', () => {
  it('a regex that makes a backtracking engine exponential answers over a long header', () => {
    const value = `${'a'.repeat(5_000)}!`;
    const started = Date.now();
    assert.equal(run('any(http.request.headers["x"][*] matches "^(a+)+$")', { headers: { X: value } }), false);
    assert.ok(Date.now() - started < 2_000);
  });
});
