/**
 * Table tests of the lints (server/src/language/lints.ts): what the service accepts but can
 * never match, or is almost surely a mistake. They run through checkExpression, so they also
 * test the one call that wires the lints into the checker.
 *
 * Each row is an expression with the span of every expected finding marked ⟦like this⟧, all
 * with the row's code and severity; `also` lists further expected findings of other codes,
 * written as `code (severity) marked input`. Only the codes the lints report are compared
 * (LINT_CODES): the checker's own errors are its tests' business, and a row written for a
 * phase the checker is still learning must not break when it learns more. A row without
 * markers expects no lint finding at all.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { checkExpression } from '../../server/src/language/checker';
import { countryCodeProblem, LINT_CODES, MAX_REGEXES_PER_RULE, matchesEveryString, readRegex } from '../../server/src/language/lints';
import type { Comparison, StringLiteral } from '../../server/src/language/ast';
import type { Problem, Severity } from '../../server/src/language/problem';
import { applyEdits, mark, unmark } from './table';
import { PROBLEM_CODES } from '../../server/src/language/problem-codes';

const HTTP = 'http_request_firewall_custom';
const RESPONSE = 'http_response_headers_transform';
const MAGIC = 'magic_transit';

interface Row {
  readonly text: string;
  /** Default HTTP (a WAF custom rule); null: no phase. */
  readonly phase?: string | null;
  readonly code?: string;
  readonly severity?: Severity;
  /** Every finding of the row's code matches each of these. */
  readonly message?: RegExp | readonly RegExp[];
  /** The input after the first fix of the first finding of the row's code; null: it offers none. */
  readonly fixed?: string | null;
  readonly also?: readonly string[];
  /** The lints off by default to turn on (CheckOptions.lints). */
  readonly lints?: readonly string[];
  readonly name?: string;
}

type Options = Omit<Row, 'text' | 'code' | 'severity'>;

const silent = (text: string, options: Options = {}): Row => ({ text, ...options });
const warning = (text: string, code: string, options: Options = {}): Row => ({ text, code, severity: 'warning', ...options });
const information = (text: string, code: string, options: Options = {}): Row => ({ text, code, severity: 'information', ...options });

function lintProblems(input: string, phase: string | null | undefined, lints?: readonly string[]): Problem[] {
  const result = checkExpression(input, { phase: phase === null ? undefined : (phase ?? HTTP), ...(lints ? { lints } : {}) });
  return result.problems.filter((p) => LINT_CODES.has(p.code));
}

function checkRow(row: Row): void {
  const { input, spans } = unmark(row.text);
  assert.ok((row.code === undefined) === (spans.length === 0), 'a row has markers exactly when it has a code');
  const found = lintProblems(input, row.phase, row.lints);
  const shown = found.map((p) => `${p.code} (${p.severity}) ${mark(input, p.span)}`).sort();
  const expected = [...spans.map((span) => `${row.code} (${row.severity}) ${mark(input, span)}`), ...(row.also ?? [])].sort();
  assert.deepEqual(shown, expected);
  for (const p of found.filter((p) => p.code === row.code)) {
    for (const pattern of [row.message ?? []].flat()) assert.match(p.message, pattern);
  }
  if (row.fixed !== undefined) {
    const first = found.find((p) => p.code === row.code)!;
    if (row.fixed === null) assert.equal(first.fixes, undefined, 'no fix');
    else {
      assert.ok(first.fixes && first.fixes.length > 0, `${row.code} offers a fix`);
      const fixed = applyEdits(input, first.fixes[0].edits);
      assert.equal(fixed, row.fixed);
      // A fix never leaves an error behind, and the finding it fixes is gone.
      const after = checkExpression(fixed, { phase: row.phase === null ? undefined : (row.phase ?? HTTP), ...(row.lints ? { lints: row.lints } : {}) }).problems;
      assert.deepEqual(after.filter((p) => p.severity === 'error').map((p) => p.message), []);
      assert.ok(!after.some((p) => p.code === row.code && p.span.start === first.span.start && p.message === first.message), 'the fix removes the finding');
    }
  }
}

function table(title: string, rows: readonly Row[]): void {
  describe(title, () => {
    for (const row of rows) it(row.name ?? `${row.text}${row.phase === undefined ? '' : ` (${row.phase ?? 'no phase'})`}`, () => checkRow(row));
  });
}

// ---------------------------------------------------------------- 1. values that never match

table('a method is uppercase', [
  warning('http.request.method == ⟦"get"⟧', 'method-case', { message: [/uppercase/, /`"get"`/, /`"GET"`/], fixed: 'http.request.method == "GET"' }),
  warning('http.request.method in {"GET" ⟦"post"⟧ ⟦"Put"⟧}', 'method-case', { fixed: 'http.request.method in {"GET" "POST" "Put"}' }),
  warning('http.request.method ne ⟦"delete"⟧', 'method-case', { fixed: 'http.request.method ne "DELETE"' }),
  warning('http.request.method == ⟦r"get"⟧', 'method-case', { fixed: 'http.request.method == "GET"', name: 'a raw string is fixed to a quoted one' }),
  silent('http.request.method == "GET"'),
  silent('http.request.method in {"GET" "HEAD" "M-SEARCH"}'),
  silent('http.request.method contains "e"', { name: 'a pattern operator compares no whole value' }),
  silent('lower(http.request.method) == "get"', { name: 'a call changes the value: only a field has its documented form' }),
  silent('http.request.method == "get"', { phase: MAGIC, name: 'not a field of the packet phases' }),
]);

table('a path extension is lowercase, without the dot', [
  warning('http.request.uri.path.extension == ⟦".PDF"⟧', 'extension-dot', { message: [/without the dot/, /`"pdf"`/], fixed: 'http.request.uri.path.extension == "pdf"' }),
  warning('http.request.uri.path.extension in {"php" ⟦".asp"⟧}', 'extension-dot', { fixed: 'http.request.uri.path.extension in {"php" "asp"}' }),
  warning('http.request.uri.path.extension == ⟦"tar.gz"⟧', 'extension-dot', { message: [/after the last dot/, /`\.tar\.gz` it holds `"gz"`/], fixed: null }),
  warning('http.request.uri.path.extension == ⟦"."⟧', 'extension-dot', { fixed: null }),
  warning('http.request.uri.path.extension == ⟦"PDF"⟧', 'value-case', { message: [/lowercase/, /`"pdf"`/], fixed: 'http.request.uri.path.extension == "pdf"' }),
  silent('http.request.uri.path.extension in {"pdf" "tar" ""}'),
  silent('raw.http.request.uri.path.extension == "PDF"', { name: 'the raw field keeps the case' }),
  silent('http.request.uri.path.extension contains "P"'),
  warning('http.response.content_type.media_type == ⟦"text/HTML"⟧', 'value-case', { phase: RESPONSE, fixed: 'http.response.content_type.media_type == "text/html"' }),
]);

table('what lower(…), upper(…) and len(…) never give (octorules CF535, CF536)', [
  warning('lower(http.host) == ⟦"WWW.Example.com"⟧', 'value-case', { message: [/`lower\(…\)` turns every ASCII capital/, /`"www\.example\.com"`/], fixed: 'lower(http.host) == "www.example.com"' }),
  warning('lower(http.request.uri.path) in {"/admin" ⟦"/Login"⟧}', 'value-case', { fixed: 'lower(http.request.uri.path) in {"/admin" "/login"}' }),
  warning('upper(http.request.method) != ⟦"get"⟧', 'value-case', { message: /small ASCII letter into a capital/, fixed: 'upper(http.request.method) != "GET"' }),
  silent('lower(http.host) == "www.example.com"', { name: 'the clean twin' }),
  silent('upper(http.request.method) in {"GET" "POST" "É"}', { name: 'only ASCII letters change case' }),
  silent('lower(http.host) contains "Ab"', { name: 'only whole values (==, !=, in)' }),
  silent('lower(http.host) == "\\xc3\\x89"', { name: 'bytes beyond ASCII stay as they are' }),
  warning('len(http.request.uri.query) < ⟦-1⟧', 'value-out-of-range', { message: /never negative, so this comparison never matches/ }),
  warning('len(http.request.uri.query) != ⟦-1⟧', 'value-out-of-range', { message: /always holds/ }),
  warning('len(http.request.headers.names) in {0 ⟦-3⟧}', 'value-out-of-range'),
  silent('len(http.request.uri.query) > 0', { name: 'the clean twin of len' }),
]);

table('header names are lowercase map keys', [
  warning('any(http.request.headers[⟦"X-Api-Key"⟧][*] == "secret")', 'header-name-case', {
    message: [/lowercase/, /`"X-Api-Key"`/, /`\["x-api-key"\]`/],
    fixed: 'any(http.request.headers["x-api-key"][*] == "secret")',
  }),
  warning('http.request.headers[⟦"Content-Type"⟧][0] == "application/json"', 'header-name-case', { fixed: 'http.request.headers["content-type"][0] == "application/json"' }),
  warning('len(http.request.headers[⟦"X-Forwarded-For"⟧]) > 0', 'header-name-case', { fixed: 'len(http.request.headers["x-forwarded-for"]) > 0', name: 'inside a call argument' }),
  warning('any(http.response.headers[⟦"Server"⟧][*] == "nginx")', 'header-name-case', { phase: RESPONSE, fixed: 'any(http.response.headers["server"][*] == "nginx")' }),
  silent('any(http.request.headers["x-api-key"][*] == "Secret")'),
  silent('any(http.request.headers.names[*] == "X-Api-Key")', { name: 'the names array keeps the case' }),
  silent('any(http.request.uri.args["Q"][*] == "1")', { name: 'argument names keep their case' }),
  silent('any(http.request.cookies["SessionId"][*] == "x")', { name: 'cookie names keep their case' }),
]);

table('closed sets of values', [
  warning('ip.src.continent == ⟦"eu"⟧', 'unknown-value', { message: [/`"EU"`/, /`"AF"`/, /`ip\.src\.continent`/], fixed: 'ip.src.continent == "EU"' }),
  warning('ip.src.continent in {"EU" ⟦"XX"⟧}', 'unknown-value', { message: /`"T1"`/, fixed: null }),
  warning('ip.src.continent != ⟦"Europe"⟧', 'unknown-value'),
  silent('ip.src.continent in {"AF" "AN" "AS" "EU" "NA" "OC" "SA" "T1"}'),
  warning('cf.waf.score.class == ⟦"Attack"⟧', 'unknown-value', { fixed: 'cf.waf.score.class == "attack"' }),
  warning('cf.waf.score.class == ⟦"likely-attack"⟧', 'unknown-value', { fixed: 'cf.waf.score.class == "likely_attack"' }),
  warning('any(cf.waf.content_scan.obj_results[*] == ⟦"Infected"⟧)', 'unknown-value', { fixed: 'any(cf.waf.content_scan.obj_results[*] == "infected")', name: 'an element reached by [*]' }),
  warning('cf.waf.content_scan.obj_results[0] == ⟦"malicious"⟧', 'unknown-value', { fixed: null }),
  silent('any(cf.waf.content_scan.obj_results[*] in {"suspicious" "not scanned"})'),
  warning('any(cf.llm.prompt.pii_categories[*] in {⟦"credit_card"⟧ "US_SSN"})', 'unknown-value', { fixed: 'any(cf.llm.prompt.pii_categories[*] in {"CREDIT_CARD" "US_SSN"})' }),
  silent('cf.response.error_type in {"" "waf"}', { phase: 'http_custom_errors' }),
  silent('lower(ip.src.continent) == "eu"'),
  silent('ip.src.continent contains "E"'),
]);

table('country codes on the HTTP country fields', [
  warning('ip.src.country == ⟦"uk"⟧', 'unknown-country-code', { message: /GB/, fixed: 'ip.src.country == "GB"' }),
  warning('ip.src.country in {⟦"br"⟧ "DE"}', 'country-code-case', { fixed: 'ip.src.country in {"BR" "DE"}' }),
  silent('ip.src.country in {"BR" "GB"}'),
  warning('ip.src.country == ⟦"uk"⟧', 'unknown-country-code', { phase: MAGIC, name: 'in the packet phases too' }),
  // Values of Cloudflare's country data outside ISO 3166-1, which it documents: T1 for Tor
  // (support "Understanding Cloudflare Tor support"), XX for no country information
  // (developers.cloudflare.com/fundamentals/reference/http-headers/#cf-ipcountry).
  silent('ip.src.country in {"T1" "XX"}', { name: 'Cloudflare’s T1 (Tor) and XX (no country information)' }),
  silent('ip.src.country == "T1"', { phase: MAGIC }),
  silent('ip.dst.country != "XX"', { phase: MAGIC }),
  warning('ip.src.country in {"T1" ⟦"XK"⟧}', 'unknown-country-code', { message: /Kosovo/, name: 'XK is still a warning' }),
  warning('ip.src.country == ⟦"t1"⟧', 'country-code-case', { fixed: 'ip.src.country == "T1"' }),
]);

table('integers outside a field’s documented range', [
  warning('http.request.timestamp.msec == ⟦1000⟧', 'value-out-of-range', { message: /0–999/ }),
  warning('cf.edge.server_port != ⟦0⟧', 'value-out-of-range', { message: [/1–65535/, /always true/] }),
  warning('cf.waf.score in {⟦90..200⟧}', 'value-out-of-range', { message: /1–100/, fixed: 'cf.waf.score in {90..100}' }),
  warning('cf.llm.prompt.custom_topic_categories["competitors"] == ⟦0⟧', 'value-out-of-range', { message: /1–99/, name: 'a map value reached by its key' }),
  silent('cf.waf.score in {1..100}'),
  silent('cf.waf.score < 1000', { name: 'an ordering bound is not a value of the field' }),
  silent('cf.waf.score & 1024', { name: '`&` tests bits, not a value' }),
  silent('len(http.request.uri.path) == 100000'),
]);

// ---------------------------------------------------------------- 2. deprecated fields

table('deprecated fields in the HTTP phases: the same value under its new name', [
  information('⟦ip.geoip.country⟧ == "CN"', 'deprecated-field', { message: [/deprecated/, /`ip\.src\.country`/, /same value/], fixed: 'ip.src.country == "CN"' }),
  information('⟦ip.geoip.country⟧ != "CN"', 'deprecated-field', { fixed: 'ip.src.country != "CN"' }),
  information('⟦ip.geoip.is_in_european_union⟧', 'deprecated-field', { fixed: 'ip.src.is_in_european_union' }),
  information('⟦ip.geoip.asnum⟧ in {13335} or ⟦ip.geoip.continent⟧ == "EU"', 'deprecated-field', { fixed: 'ip.src.asnum in {13335} or ip.geoip.continent == "EU"' }),
  information('⟦ip.geoip.subdivision_1_iso_code⟧ == "GB-SCT"', 'deprecated-field', { fixed: 'ip.src.subdivision_1_iso_code == "GB-SCT"' }),
  information('lower(⟦ip.geoip.country⟧) == "cn"', 'deprecated-field', { fixed: 'lower(ip.src.country) == "cn"', name: 'in a call argument' }),
  information('⟦ip.geoip.country⟧ == "br"', 'deprecated-field', { also: ['country-code-case (warning) ip.geoip.country == ⟦"br"⟧'] }),
  information('⟦ip.geoip.continent⟧ == "eu"', 'deprecated-field', { also: ['unknown-value (warning) ip.geoip.continent == ⟦"eu"⟧'] }),
  silent('ip.src.country == "CN"'),
  silent('ip.geoip.country == "CN"', { phase: null, name: 'a phase we do not know: what the name means there is unknown' }),
  silent('ip.geoip.country == "CN"', { phase: 'some_new_phase' }),
]);

table('`ip.geoip.country` in the packet phases: the source or the destination country', [
  information('⟦ip.geoip.country⟧ == "CN"', 'deprecated-field', {
    phase: MAGIC,
    message: [/the source or of the destination address/, /`ip\.src\.country`/, /`ip\.dst\.country`/],
    fixed: '(ip.src.country == "CN" or ip.dst.country == "CN")',
  }),
  information('⟦ip.geoip.country⟧ in {"CN" "RU"}', 'deprecated-field', { phase: MAGIC, fixed: '(ip.src.country in {"CN" "RU"} or ip.dst.country in {"CN" "RU"})' }),
  information('not ⟦ip.geoip.country⟧ eq "CN" and tcp.dstport == 22', 'deprecated-field', { phase: MAGIC, fixed: 'not (ip.src.country eq "CN" or ip.dst.country eq "CN") and tcp.dstport == 22' }),
  information('⟦ip.geoip.country⟧ == "CN"', 'deprecated-field', { phase: 'magic_transit_managed', fixed: '(ip.src.country == "CN" or ip.dst.country == "CN")' }),
  information('⟦ip.geoip.country⟧ != "CN"', 'deprecated-field', { phase: MAGIC, message: /no rewrite/, fixed: null }),
  information('⟦ip.geoip.country⟧ matches "^C"', 'deprecated-field', { phase: MAGIC, fixed: null }),
  information('⟦ip.geoip.country⟧ in {"de"}', 'deprecated-field', {
    phase: MAGIC,
    also: ['country-code-case (warning) ip.geoip.country in {⟦"de"⟧}'],
    fixed: '(ip.src.country in {"de"} or ip.dst.country in {"de"})',
    name: 'with a lowercase code, said apart',
  }),
  silent('ip.src.country == "CN" or ip.dst.country == "CN"', { phase: MAGIC }),
]);

// ---------------------------------------------------------------- 3. the cheap lints

table('a rule that is the literal `false`', [
  warning('⟦false⟧', 'literal-false', { message: [/never matches/, /`enabled: false`/] }),
  warning('⟦false⟧', 'literal-false', { phase: MAGIC }),
  warning('(⟦false⟧)', 'literal-false'),
  silent('true'),
  silent('not false'),
  silent('false or ssl', { name: 'only the whole expression' }),
]);

table('patterns that match every string', [
  warning('http.host matches ⟦".*"⟧', 'pattern-matches-all', { message: [/every string/, /`http\.host`/] }),
  warning('http.host ~ ⟦""⟧', 'pattern-matches-all'),
  warning('http.host matches ⟦"^"⟧', 'pattern-matches-all'),
  warning('http.host matches ⟦"$"⟧', 'pattern-matches-all'),
  warning('http.host matches ⟦"^.*"⟧', 'pattern-matches-all'),
  warning('http.host matches ⟦".*$"⟧', 'pattern-matches-all'),
  warning('http.host matches ⟦".*?"⟧', 'pattern-matches-all'),
  warning('http.host matches ⟦"x*"⟧', 'pattern-matches-all'),
  warning('http.host matches ⟦"(?i)(abc)?"⟧', 'pattern-matches-all'),
  warning('http.host matches ⟦r"(?s)^.*$"⟧', 'pattern-matches-all', { name: 'with (?s) a dot takes line breaks too' }),
  warning('http.host matches ⟦"(?m)^.*$"⟧', 'pattern-matches-all', { name: 'with (?m) `$` matches before a line break' }),
  warning('any(http.request.headers.names[*] matches ⟦".*"⟧)', 'pattern-matches-all'),
  warning('http.host wildcard ⟦"*"⟧', 'pattern-matches-all'),
  warning('http.host strict wildcard ⟦"*"⟧', 'pattern-matches-all'),
  warning('http.host contains ⟦""⟧', 'pattern-matches-all'),
  warning('cf.colo.name matches ⟦".*"⟧', 'pattern-matches-all', { phase: MAGIC }),
  silent('http.host matches "^.*$"', { name: '^.*$: a dot stops at a line break, so not every string' }),
  silent('http.host matches ".+"'),
  silent('http.host matches "(?m)^.*\\z"'),
  silent('http.host matches "a|.*"', { name: 'alternation is not read: nothing is said' }),
  silent('http.host matches "(.*)"', { name: 'a group is not read: nothing is said' }),
  silent('http.host matches "(?x) .* "', { name: 'verbose mode is not read' }),
  silent('http.host matches "\\b"'),
  silent('http.host wildcard "*.example.com"'),
  silent('http.host matches "(("', { name: 'an invalid pattern is the checker’s' }),
  silent('http.host matches r"(.*"', { name: 'an invalid raw pattern too' }),
  silent('cf.colo.name matches "(.*"', { phase: MAGIC }),
]);

table('a regex that is only a literal', [
  information('http.request.uri.path matches ⟦"^/admin$"⟧', 'regex-literal', { message: [/equals `"\/admin"`/, /`== "\/admin"`/, /Business/], fixed: 'http.request.uri.path == "/admin"' }),
  information('http.request.uri.path ~ ⟦r"^/a\\.b$"⟧', 'regex-literal', { fixed: 'http.request.uri.path == "/a.b"' }),
  information('http.request.uri.path matches ⟦"\\A/admin\\z"⟧', 'regex-literal', { fixed: 'http.request.uri.path == "/admin"' }),
  information('http.request.uri.path matches ⟦"^/say\\"hi$"⟧', 'regex-literal', { fixed: 'http.request.uri.path == "/say\\"hi"' }),
  information('http.request.uri.path matches ⟦"^$"⟧', 'regex-literal', { fixed: 'http.request.uri.path == ""' }),
  information('http.request.uri.path matches ⟦"^/admin"⟧', 'regex-literal', { message: /`starts_with\(…\)`/, fixed: 'starts_with(http.request.uri.path, "/admin")' }),
  information('http.request.uri.path matches ⟦"\\.php$"⟧', 'regex-literal', { fixed: 'ends_with(http.request.uri.path, ".php")' }),
  silent('http.request.uri.path matches "wp-login"', { name: 'an unanchored literal (`contains`) is left alone' }),
  information('not http.host matches ⟦"^www\\."⟧ and ssl', 'regex-literal', { fixed: 'not starts_with(http.host, "www.") and ssl' }),
  information('lower(http.host) matches ⟦"^www\\."⟧', 'regex-literal', { fixed: 'starts_with(lower(http.host), "www.")' }),
  information('any(http.request.headers.names[*] matches ⟦"^X-Api-Key$"⟧)', 'regex-literal', { fixed: 'any(http.request.headers.names[*] == "X-Api-Key")' }),
  silent('any(http.request.headers.names[*] matches "^x-")', { name: 'no starts_with over [*]: nothing is said' }),
  silent('http.request.uri.path matches "(?i)^/admin$"'),
  silent('http.request.uri.path matches "^/admin/.*"'),
  silent('http.request.uri.path matches "^/ad[m]in$"'),
  silent('http.request.uri.path matches "^/ad+min$"'),
  silent('http.request.uri.path matches "^/é$"', { name: 'non-ASCII is left alone' }),
  information('cf.colo.name matches ⟦"^sfo06$"⟧', 'regex-literal', { phase: MAGIC, fixed: 'cf.colo.name == "sfo06"' }),
  silent('cf.colo.name matches "sfo"', { phase: MAGIC }),
  silent(String.raw`cf.colo.name matches "say \"hi\""`, { phase: MAGIC }),
  silent('cf.colo.name matches "^sfo"', { phase: MAGIC, name: 'starts_with is not a function of the packet phases' }),
  silent('cf.colo.name matches "^ams[0-9]+$"', { phase: MAGIC }),
]);

table('regex syntax where a literal is compared', [
  warning('http.request.uri.path == ⟦"^/admin"⟧', 'regex-in-literal', { message: [/`==`/, /literal/, /`matches`/], fixed: 'starts_with(http.request.uri.path, "/admin")' }),
  warning('http.request.uri.path eq ⟦"^/admin$"⟧ and ssl', 'regex-in-literal', { fixed: 'http.request.uri.path eq "/admin" and ssl', name: 'an anchored literal after `eq`: the literal' }),
  warning('lower(http.request.uri.path) == ⟦"^/admin"⟧', 'regex-in-literal', { fixed: 'starts_with(lower(http.request.uri.path), "/admin")' }),
  warning('http.request.uri.path == ⟦"^/admin.*"⟧', 'regex-in-literal', { fixed: null, name: 'a pattern that is more than a literal: no fix' }),
  warning('http.request.uri.path != ⟦"^/admin"⟧', 'regex-in-literal', { fixed: null, name: 'not after `!=`' }),
  warning('any(http.request.headers["x"][*] == ⟦"^a"⟧)', 'regex-in-literal', { fixed: null, name: 'not over `[*]`' }),
  warning('http.request.uri.path contains ⟦"/admin.*"⟧', 'regex-in-literal', { message: /`contains`/ }),
  warning('http.request.uri.path in {"/a" ⟦"/b.*"⟧}', 'regex-in-literal'),
  silent('http.request.uri.query contains "hello.+world"', { name: '`.+` is no sign: `+` is a space in a query' }),
  silent(String.raw`http.request.uri.path == "C:\\dir"`, { name: 'a backslash is no sign: a Windows path' }),
  silent('http.user_agent contains r"bot\\d+"', { name: 'nor in a raw string' }),
  warning('http.host == ⟦"www.example.*"⟧', 'regex-in-literal'),
  silent('http.request.uri.path == "/admin"'),
  silent('http.request.uri.query contains "price=$"', { name: 'a lone `$` at the end is not enough' }),
  silent('http.request.uri.path == "^"'),
  silent('http.request.uri.path contains "."'),
]);

table('wildcard syntax where a literal is compared', [
  warning('http.host == ⟦"*.example.com"⟧', 'wildcard-in-literal', { message: [/`wildcard`/, /`strict wildcard`/], fixed: 'http.host wildcard "*.example.com"' }),
  warning('http.request.uri.path eq ⟦"/admin/*"⟧', 'wildcard-in-literal', { fixed: 'http.request.uri.path wildcard "/admin/*"' }),
  warning('http.request.uri.path eq ⟦"/admin/*"⟧', 'wildcard-in-literal', { message: /`eq`/, name: 'the message and the fixes name the operator as written' }),
  warning('http.request.uri.path != ⟦"/admin/*"⟧', 'wildcard-in-literal', { fixed: null }),
  warning('http.host in {⟦"*.example.com"⟧ "example.com"}', 'wildcard-in-literal', { fixed: null }),
  warning('http.host == ⟦"a**"⟧', 'wildcard-in-literal', { fixed: null, name: 'no fix to a wildcard the service rejects' }),
  silent('any(http.request.headers["accept"][*] == "*/*")', { name: 'a header value may hold a star' }),
  silent('http.user_agent == "*"'),
  silent('cf.colo.name == "sfo*"', { phase: MAGIC }),
]);

describe('more regular expressions than a rule may hold', () => {
  const rule = (n: number) => Array.from({ length: n }, (_, i) => `http.host matches "^a${i}[0-9]"`).join(' or ');

  it(`takes ${MAX_REGEXES_PER_RULE}`, () => assert.deepEqual(lintProblems(rule(MAX_REGEXES_PER_RULE), HTTP), []));

  it(`reports the ${MAX_REGEXES_PER_RULE + 1}th, on its pattern`, () => {
    const text = rule(MAX_REGEXES_PER_RULE + 2);
    const found = lintProblems(text, HTTP);
    assert.deepEqual(found.map((p) => [p.code, p.severity, text.slice(p.span.start, p.span.end)]), [['too-many-regexes', 'error', `"^a${MAX_REGEXES_PER_RULE}[0-9]"`]]);
    assert.match(found[0].message, /66 regular expressions/);
    assert.match(found[0].message, /at most 64/);
  });

  it('counts the patterns inside any(…) and in the packet phases too', () => {
    const text = Array.from({ length: MAX_REGEXES_PER_RULE + 1 }, (_, i) => `cf.colo.name matches "^s${i}[0-9]"`).join(' or ');
    assert.deepEqual(lintProblems(text, MAGIC).map((p) => p.code), ['too-many-regexes']);
    const quantified = Array.from({ length: MAX_REGEXES_PER_RULE + 1 }, (_, i) => `any(http.request.headers.names[*] matches "^x${i}[0-9]")`).join(' or ');
    assert.deepEqual(lintProblems(quantified, HTTP).map((p) => p.code), ['too-many-regexes']);
  });
});

// ---------------------------------------------------------------- 4. style and clarity (issue 35)

// The docs' operators page (operators.mdx @ 38b341dd91824bf2fb5d0f9dd02257a3b12fd64b, "Order of
// precedence"): `Expression1 and Expression2 or Expression3` reads as `(1 and 2) or 3`, and "to
// avoid ambiguity … use grouping symbols so that the order of evaluation is explicit".
table('`and`, `xor` and `or` mixed without parentheses', [
  information('⟦http.host eq "www.example.com" and ip.src in {203.0.113.0/24}⟧ or http.request.uri.path eq "/admin"', 'mixed-logical-operators', {
    message: /^`and` binds before `or`, so `http\.host eq "www\.example\.com" and ip\.src in \{203\.0\.113\.0\/24\}` is one side of the `or`/,
    fixed: '(http.host eq "www.example.com" and ip.src in {203.0.113.0/24}) or http.request.uri.path eq "/admin"',
    name: "the docs' `Expression1 and Expression2 or Expression3`",
  }),
  silent('(http.host eq "www.example.com" and ip.src in {203.0.113.0/24}) or http.request.uri.path eq "/admin"', { name: "the docs' grouped twin" }),
  silent('http.host eq "www.example.com" and (ip.src in {203.0.113.0/24} or http.request.uri.path eq "/admin")', { name: "the docs' `Expression1 and (Expression2 or Expression3)`" }),
  silent('http.host eq "a" and ssl and not http.request.uri.path eq "/"', { name: 'one operator throughout, with `not`' }),
  information('ssl or ⟦http.host eq "a" && http.request.uri.path eq "/"⟧', 'mixed-logical-operators', { message: /^`&&` binds before `or`/, fixed: 'ssl or (http.host eq "a" && http.request.uri.path eq "/")', name: 'symbols and words alike' }),
  information('⟦ssl and http.host eq "a"⟧ xor ⟦ssl and http.host eq "b"⟧', 'mixed-logical-operators', { message: /^`and` binds before `xor`/ }),
  information('ssl or ⟦http.host eq "a" ^^ http.host eq "b"⟧', 'mixed-logical-operators', { message: /^`\^\^` binds before `or`/, fixed: 'ssl or (http.host eq "a" ^^ http.host eq "b")' }),
  information('ssl or ⟦http.host eq "a" and ssl xor http.host eq "b"⟧', 'mixed-logical-operators', {
    also: ['mixed-logical-operators (information) ssl or ⟦http.host eq "a" and ssl⟧ xor http.host eq "b"'],
    name: 'three levels: each said where it binds',
  }),
  information('any(http.request.headers.names[*] == "x") and (ssl or ⟦http.host eq "a" and ssl⟧)', 'mixed-logical-operators', { name: 'inside a group' }),
  information('tcp.dstport == 22 or ⟦ip.src in {10.0.0.0/8} and tcp.dstport == 80⟧', 'mixed-logical-operators', { phase: MAGIC }),
]);

// The engine trims whitespace around the expression (Rust's trim; checker.ts): it changes
// nothing the rule does, so a hint, with the fix. YAML block scalars and heredocs are
// documents/ruleset.ts's (test/documents/ruleset.test.ts).
table('whitespace around the expression', [
  information('⟦  ⟧http.host eq "example.com"', 'edge-whitespace', { message: /^the expression starts with whitespace/, fixed: 'http.host eq "example.com"' }),
  information('http.host eq "example.com"⟦\n⟧', 'edge-whitespace', { message: /^the expression ends with whitespace/, fixed: 'http.host eq "example.com"' }),
  information('⟦\t⟧http.host eq "example.com"⟦ \u00a0⟧', 'edge-whitespace', { name: 'a TAB and a no-break space, which the engine trims too' }),
  silent('http.host eq "example.com"'),
  silent('http.host eq "example.com"\n  and ssl', { name: 'line breaks inside are no edge' }),
  silent('http.host eq " example.com "', { name: 'spaces inside a string are the value' }),
]);

const BUILDER = ['expression-builder'];
// The docs' "Edit expressions in the dashboard" (src/content/docs/ruleset-engine/rules-language/expressions/edit-expressions.mdx
// @ 20a026aeb4abfa43b22cc96fbc39faa8ad83c75f): the Expression Builder does not support nested
// expressions or function calls; the page's own nested example is the first row.
const NESTED_EXAMPLE =
  '((http.request.uri.path contains "/xmlrpc.php") or (http.request.uri.path contains "/wp-login.php") or ⟦(http.request.uri.path contains "/wp-admin/" and not http.request.uri.path contains "/wp-admin/admin-ajax.php" and not http.request.uri.path contains "/wp-admin/theme-editor.php")⟧) and ip.src.country ne "MY"';
table("what the dashboard's Expression Builder cannot show (off unless turned on)", [
  information(NESTED_EXAMPLE, 'expression-builder', { lints: BUILDER, message: /nests this group in parentheses inside another: the docs say the builder does not support nested expressions/, name: "the docs' nested example" }),
  silent(NESTED_EXAMPLE.replace(/[⟦⟧]/g, ''), { name: '… off unless the configuration turns it on' }),
  silent('(ip.src.country ne "GB")', { lints: BUILDER, name: "the docs' Expression Preview" }),
  silent('(http.host eq "a" and ssl) or (http.host eq "b")', { lints: BUILDER, name: 'groups side by side, none inside another' }),
  silent('((http.host eq "a" or ssl)) and ip.src.country ne "GB"', { lints: BUILDER, name: 'two pairs of parentheses around one group' }),
  information('⟦lower⟧(http.request.uri.path) contains "/wp-login.php"', 'expression-builder', { lints: BUILDER, message: /calls functions \(`lower\(…\)` here\): the docs say the builder does not support function calls/, name: "the docs' lower() example" }),
  information('ssl and ⟦any⟧(lower(http.request.headers.names[*])[*] == "x")', 'expression-builder', { lints: BUILDER, name: 'once, on the first call' }),
  silent('http.request.uri.path contains "/wp-login.php"', { lints: BUILDER, name: 'no call, no group' }),
]);

// ---------------------------------------------------------------- the pieces

describe('reading a regex for the lints', () => {
  it('says every string only for what it can prove', () => {
    const everything = ['', '^', '$', '.*', '^.*', '.*$', '(?s)^.*$', '(?m)^.*$', '(?s)\\A.*\\z', 'a*', 'a?', '[ab]*', '(?:)', '()', '(ab)*', '.{0,}', 'a{0}', '^a*', '(?u).*', '(?u)^'];
    for (const source of everything) assert.equal(matchesEveryString(readRegex(source)!), true, source);
    // With (?u) a dot takes whole UTF-8 characters only, and a value may hold any byte; (?R)
    // changes what `.` and `$` do at a carriage return: `^.*$` is not proved there.
    const not = ['^.*$', '.+', 'a', '^$', '\\A.*\\z', '(?m)^.*\\z', '.*a', '\\b', '^a*$', '(?su)^.*$', '(?msu)^.*$', '(?mR)^.*$'];
    for (const source of not) assert.equal(readRegex(source) === undefined || !matchesEveryString(readRegex(source)!), true, source);
  });

  it('leaves alone what it does not read', () => {
    for (const source of ['a|b', '(?x)a', 'a(?i)b', '\\b{start}x', 'a{,2}']) assert.equal(readRegex(source), undefined, source);
  });
});

describe('the country check', () => {
  it('is said once, as countryCodeProblem says it, in the packet and the HTTP phases', () => {
    for (const phase of [MAGIC, HTTP]) {
      for (const code of ['br', 'UK', 'EU', 'XK', 'Brazil', 'ZZ', 'Ger', 'uk', 't1']) {
        const text = `ip.src.country == "${code}"`;
        const result = checkExpression(text, { phase });
        const literal = (result.ast as Comparison).rhs as StringLiteral;
        assert.deepEqual(result.problems, [countryCodeProblem(literal)], `${phase} ${code}`);
      }
    }
  });
});

describe('the codes of the lints', () => {
  it('are listed with the severity they are reported at', () => {
    for (const code of LINT_CODES) assert.ok(PROBLEM_CODES.has(code), code);
    assert.equal(PROBLEM_CODES.get('deprecated-field')?.severity, 'information');
    assert.equal(PROBLEM_CODES.get('regex-literal')?.severity, 'information');
    assert.equal(PROBLEM_CODES.get('too-many-regexes')?.severity, 'error');
  });
});
