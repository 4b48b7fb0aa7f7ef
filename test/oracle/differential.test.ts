/**
 * Differential test: our checker against Cloudflare's own engine (`wirefilter`, through the
 * `octorules-wirefilter` bindings; see oracle.py and engine.ts), in two runs with the same
 * comparison, report and shrinking:
 *   - magic_transit against the engine's `magic_firewall` scheme (expressions of generate.ts);
 *   - http_request_firewall_custom against its default (HTTP) scheme (generate-http.ts, with the
 *     catalogue's fields and functions of that phase).
 *
 * Generates expressions from the grammar, asks both for a verdict, and compares:
 *   - the verdict: we reject iff we report a problem of severity `error`;
 *   - when both reject, the place: the engine's error must start on a token of our first error's
 *     span, or on the token just before or after it (the engine stops at its first error).
 * Every disagreement must be explained by an entry of the run's known disagreements
 * (KNOWN_DISAGREEMENTS, httpKnownDisagreements(): deliberate per LANGUAGE.md §9, or a bug with
 * its status); anything else fails the test, with the first failing expression shrunk by
 * fast-check and printed with both verdicts.
 *
 *   node scripts/test.mjs test/oracle/differential.test.ts
 *   ORACLE_SEED=123 ORACLE_RUNS=1000000 node scripts/test.mjs test/oracle/differential.test.ts
 *   ORACLE_SEED=random …                          a new seed (printed)
 *   ORACLE_REPORT=/tmp/report.txt …               the report, unescaped, in a file too (the HTTP
 *                                                 run's in /tmp/report.http.txt)
 *   ORACLE_VERBOSE=1 …                            an example per entry, several per unexplained class
 *
 * The default seed is fixed so that CI is deterministic; long runs with other seeds find more.
 * Without the engine installed it skips with one line; with CI=true (or ORACLE_REQUIRED=1, as
 * .ci/run sets) it fails instead.
 */
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';

import { checkExpression } from '../../server/src/language/checker';
import { catalogueFor } from '../../server/src/language/catalogue/catalogues';
import { FIELDS } from '../../server/src/language/catalogue/fields';
import { HTTP_SCHEME, missingOracle, ORACLE_SCHEME, ORACLE_VERSION, startOracle, type EngineScheme, type Oracle, type OracleResult, type Started } from './engine';
import { generatedExpression, OPERATOR_SPELLINGS, tokenSpans, type Arb } from './generate';
import { DECIDED_DIFFERENCES } from '../../scripts/catalogue/overlay';
import { httpExpressions, type GenField, type GenFunction } from './generate-http';

const PHASE = 'magic_transit';
const HTTP_PHASE = 'http_request_firewall_custom';
/**
 * The HTTP run's fields and functions: the catalogue's (which catalogue.test.ts holds to the
 * engine, both schemes), the docs' fields the engine lacks and the signatures where it follows
 * the docs included: the known disagreements below explain what the engine says of them.
 */
const HTTP_CATALOGUE = catalogueFor(HTTP_PHASE);
const HTTP_FIELDS: readonly GenField[] = [...HTTP_CATALOGUE.fields.values()];
const HTTP_FUNCTIONS: readonly GenFunction[] = [...HTTP_CATALOGUE.functions.values()].map((fn) =>
  // `concat` joins arrays of any element type (the engine's parameter is `Bytes or Array<_>`, and
  // the checker takes any array there): arrays of Booleans too, which the catalogue does not list.
  fn.name === 'concat' ? { ...fn, parameters: fn.parameters.map((p) => ({ ...p, types: [...p.types, 'Array<Boolean>' as const] })) } : fn,
);
/** Every function of the engine's schemes (both have the same; catalogue.test.ts says so). */
const ENGINE_FUNCTION_NAMES: readonly string[] = HTTP_FUNCTIONS.map((f) => f.name);
const DEFAULT_SEED = 20261123;
const DEFAULT_RUNS = 20_000;
/** Expressions per fast-check run: chunk k uses seed + k, so memory stays flat in long runs. */
const CHUNK = 10_000;

/** What the generators must write on the right of comparisons, each seen in a sample (both runs). */
const LITERAL_FORMS: readonly [string, RegExp][] = [
  ['decimal integer', /[=<> ]\d+(?:[ )]|$)/m],
  ['negative integer', /[ {]-\d/],
  ['hex integer', /0x[0-9a-f]/],
  ['octal integer', /[ {]0[0-7]+(?:[ )}]|$)/m],
  ['integer range', /\{[^}]*\d\.\.\d/],
  ['IPv4 address', /\b\d+\.\d+\.\d+\.\d+\b/],
  ['IPv6 address', /[0-9a-f]*::[0-9a-f]/],
  ['CIDR block', /\d\/\d+/],
  ['address range', /\d\.\d+\.\.\d/],
  ['string with an \\xHH escape', /"[^"]*\\x[0-9a-f]{2}/],
  ['string with an \\OOO escape', /"[^"]*\\[0-3][0-7]{2}/],
  ['raw string r"…"', /r"[^"]*"/],
  ['raw string r#"…"#', /r#"[^"]*"#/],
  ['hex bytes', /[ {=][0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}/],
  ['managed list', /\$svc\.[a-z]/],
  ['account list', /\$my_list/],
];

function seedFromEnv(): number {
  const raw = process.env.ORACLE_SEED;
  if (raw === undefined || raw === '') return DEFAULT_SEED;
  if (raw === 'random') return (Math.random() * 0x7fffffff) | 0;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`ORACLE_SEED must be an integer or "random", found ${raw}`);
  return seed;
}
const SEED = seedFromEnv();
const RUNS = Number(process.env.ORACLE_RUNS ?? DEFAULT_RUNS);

// ------------------------------------------------------------------ verdicts

interface OurError {
  readonly code: string;
  readonly message: string;
  readonly start: number;
  readonly end: number;
}
interface OurVerdict {
  readonly rejected: boolean;
  /** Errors only, by position. */
  readonly errors: readonly OurError[];
}

function ourVerdict(expr: string, phase: string): OurVerdict {
  const errors = checkExpression(expr, { phase })
    .problems.filter((p) => p.severity === 'error')
    .map((p) => ({ code: p.code, message: p.message, start: p.span.start, end: p.span.end }));
  return { rejected: errors.length > 0, errors };
}

/**
 * we-accept: the engine rejects what we accept; we-reject: the reverse. When both reject but at
 * places more than one token apart: engine-earlier (the engine objects to something before our
 * first error, which we accept there) or we-earlier (the reverse).
 */
type Kind = 'we-accept' | 'we-reject' | 'engine-earlier' | 'we-earlier';

interface Disagreement {
  readonly expr: string;
  readonly kind: Kind;
  readonly ours: OurVerdict;
  readonly oracle: OracleResult;
}

/** Index of the token at `offset` (or of the next one after it; tokens.length at the end). */
function tokenIndex(tokens: readonly [number, number][], offset: number): number {
  const i = tokens.findIndex(([, end]) => end > offset);
  return i === -1 ? tokens.length : i;
}

function compare(expr: string, ours: OurVerdict, oracle: OracleResult): Disagreement | undefined {
  if (oracle.ok && !ours.rejected) return undefined;
  if (oracle.ok) return { expr, kind: 'we-reject', ours, oracle };
  if (!ours.rejected) return { expr, kind: 'we-accept', ours, oracle };
  if (oracle.start === undefined) return undefined; // the engine's position could not be read: nothing to compare
  const place = placeOf(expr, ours.errors[0], oracle.start);
  return place === 0 ? undefined : { expr, kind: place < 0 ? 'engine-earlier' : 'we-earlier', ours, oracle };
}

/**
 * Where the engine's error starts against one of ours: 0 the same place (on a token of our
 * error's span, or on the token just before or just after it), < 0 before it, > 0 after it.
 */
function placeOf(expr: string, ours: OurError, engineStart: number): number {
  const tokens = tokenSpans(expr);
  const from = tokenIndex(tokens, ours.start);
  const to = Math.max(from, tokenIndex(tokens, Math.max(ours.start, ours.end - 1)));
  const theirs = tokenIndex(tokens, engineStart);
  if (theirs >= from - 1 && theirs <= to + 1) return 0;
  return theirs < from ? -1 : 1;
}

const samePlace = (expr: string, ours: OurError, engineStart: number) => placeOf(expr, ours, engineStart) === 0;

// ------------------------------------------------------------------ what is explained

/** Rust's char::is_whitespace, which the engine trims the expression with. */
const RUST_WHITESPACE = '\t\n\u000b\u000c\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
function trimRust(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && RUST_WHITESPACE.includes(text[start])) start++;
  while (end > start && RUST_WHITESPACE.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

/** The bare word (field, number, address, bytes) around an offset. */
function wordAt(expr: string, offset: number): string {
  if (offset < 0) return '';
  const isWordChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_.:/-]/.test(c);
  let start = offset;
  let end = offset;
  while (isWordChar(expr[start - 1])) start--;
  while (isWordChar(expr[end])) end++;
  return expr.slice(start, end);
}

/** The text with the contents of its `"…"` strings removed. */
function withoutStrings(text: string): string {
  return text.replace(/"(?:\\[\s\S]|[^"\\])*"/g, '""');
}

/** Whether an offset is inside a `{…}` set (not counting braces inside strings). */
function insideSet(expr: string, offset: number): boolean {
  return /\{[^{}]*$/.test(withoutStrings(expr.slice(0, offset)));
}

/** Functions of the engine's magic_firewall scheme that we do not know (catalogue.test.ts prints all). */
const ENGINE_ONLY_FUNCTIONS = new Set(['len', 'lower', 'upper', 'starts_with', 'ends_with', 'concat', 'substring', 'cidr', 'cidr6', 'any', 'all', 'to_string', 'wildcard', 'contains']);

/** Our codes of an expression the grammar did not match: only these are reported then. */
/**
 * What we say of a name without a tree: no field or function (of this phase), or a function
 * written as a field. Reported before a syntax error, as the engine would stop at the name.
 */
const NAME_CODES = new Set(['unknown-field', 'unknown-function', 'field-not-available', 'function-not-available', 'missing-arguments']);
const PARSE_FAILURE_CODES = new Set(['syntax-error', 'unterminated-string', 'tab-whitespace', 'expression-too-long', 'nesting-too-deep', 'field-on-right']);

/** The engine objects to something we accept (there). */
const engineObjects = (d: Disagreement): boolean => d.kind === 'we-accept' || d.kind === 'engine-earlier';
/** We object to something the engine accepts (there). */
const weObject = (d: Disagreement): boolean => d.kind === 'we-reject' || d.kind === 'we-earlier';
/** The engine's message, when it rejected. */
const engineSays = (d: Disagreement): string => (d.oracle.ok ? '' : d.oracle.message);
/** The text under the engine's caret. */
const engineAt = (d: Disagreement): string => (d.oracle.ok || d.oracle.start === undefined ? '' : d.expr.slice(d.oracle.start, d.oracle.end));
/** Whether `text` holds `name` as a whole name (not part of a longer one). */
function holdsName(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (!/[A-Za-z0-9_.]/.test(text[at - 1] ?? '') && !/[A-Za-z0-9_.]/.test(text[at + name.length] ?? '')) return true;
  }
  return false;
}
/** Our first error. */
const first = (d: Disagreement): OurError | undefined => d.ours.errors[0];
/** Text of our first error's span. */
const oursAt = (d: Disagreement): string => (first(d) ? d.expr.slice(first(d)!.start, first(d)!.end) : '');

/**
 * A keyword glued to a word (`nottcp.flags.syn`, `ip.ttl lt5`): decided in issue 11 for every
 * phase. What counts as a name (field or function) depends on the phase's scheme.
 */
function gluedKeyword(isName: (name: string) => boolean, isField: (name: string) => boolean): (d: Disagreement) => boolean {
  return (d) => {
    const e = first(d);
    if (!weObject(d) || !e) return false;
    const before = d.expr.slice(0, e.start);
    // `nottcp.flags.syn`, `notbit_slice(…)`: one unknown field or function to us.
    const known = (name: string) => isName(name) || name === 'not';
    // `notnotany(…)`: keywords glued one to the next.
    let word = wordAt(d.expr, e.start);
    let glued = false;
    for (let m = /^(?:not|and|x?or)([A-Za-z0-9_.]+)$/.exec(word); m !== null; m = /^(?:not|and|x?or)([A-Za-z0-9_.]+)$/.exec(word)) {
      word = m[1];
      if (known(word)) glued = true;
    }
    if (['unknown-field', 'unknown-function', 'syntax-error'].includes(e.code) && glued) return true;
    if (e.code !== 'syntax-error') return false;
    // `notnot sip`: a field named `notnot` to us, so the error comes after it.
    if (/(?:^|[^A-Za-z0-9_.])not(?:not|and|x?or)[ \r\n]*$/.test(before)) return true;
    // `notnot (a lt b)`: a call of `notnot` to us, whose argument cannot hold a comparison.
    if (/^expected `\)` or `,`/.test(e.message) && /(?:^|[^A-Za-z0-9_.])not(?:not|and|x?or)[ \r\n]*\([^()]*$/.test(before)) return true;
    // A number, address or bytes glued to the keyword after it: `6xor`, `0d:31or`, `1.2.3.4and`.
    // Also after hex letters (`bf:abor`, `0x1eornot`, `0::fxorip.src`): the engine ends the literal where its digits end.
    if (/(?:^|[ \r\n{(=<>!~&])(?:[-0-9A-Fa-fx:.]*[0-9A-Fa-f][-0-9A-Fa-fx:.]*|::)(?:and|x?or)(?:not|and|x?or)*(?:[A-Za-z_][A-Za-z0-9_.]*)?[ \r\n]*$/.test(before)) return true;
    // A word operator glued to a value or a field: `lt5`, `ne8ab1::1`, `matchesr"…"`, `letcp`.
    const operator = /^(?:strict )?(?:eq|ne|lt|le|gt|ge|bitwise_and|contains|matches|wildcard)([A-Za-z0-9_.]*)/.exec(d.expr.slice(e.start));
    if (operator && (isField(operator[1]) || isName(operator[1]))) return true;
    return /^expected a space after `(?:not|and|x?or)`/.test(e.message) || /^(?:strict )?(?:eq|ne|lt|le|gt|ge|bitwise_and|contains|matches|wildcard)(?:[0-9A-Fa-f:]|r[#" ])/.test(d.expr.slice(e.start));
  };
}

/** `{1.2.3}`, `{01.2.3.4}` after one of these IP fields: decided in issue 11 for every phase. */
function shortAddressInSet(ipFields: readonly string[]): (d: Disagreement) => boolean {
  const setAfterField = new RegExp(`\\b(?:${ipFields.map((f) => f.replace(/\./g, '\\.')).join('|')})[ \r\n]*in[ \r\n]*\\{[^{}]*$`);
  return (d) =>
    weObject(d) &&
    (first(d)?.code === 'invalid-ip' || first(d)?.code === 'type-mismatch') &&
    /^[0-9]+(?:\.[0-9]+){0,3}$/.test(oursAt(d)) &&
    setAfterField.test(withoutStrings(d.expr.slice(0, first(d)!.start)));
}

/** `ip.src.country == ip.dst.country`: decided in issue 11 for every phase. */
function fieldOnTheRight(isField: (name: string) => boolean): (d: Disagreement) => boolean {
  return (d) => weObject(d) && ['type-mismatch', 'invalid-ip', 'invalid-integer'].includes(first(d)?.code ?? '') && isField(oursAt(d));
}

/**
 * `deliberate (LANGUAGE.md §9)`: a row of the spec's table. `deliberate (decided in issue 11)`:
 * found by this test and decided, with the reason, in docs/engine.md "Where we differ from the
 * reference engine" (for LANGUAGE.md §9). `deliberate (decided in issue 21)`: a decided row of
 * the catalogue (scripts/catalogue/overlay.ts). A bug is never an entry: it is fixed, test first.
 */
type Status = 'deliberate (LANGUAGE.md §9)' | 'deliberate (decided in issue 11)' | 'deliberate (decided in issue 21)' | 'position only (both reject)' | 'oracle artefact';

interface KnownDisagreement {
  readonly name: string;
  readonly status: Status;
  readonly reason: string;
  readonly example: string;
  /** `run`: the run it is asked in, for a row that explains its part and leaves the rest to the others (decidedErrors). */
  readonly when: (d: Disagreement, run: Run) => boolean;
}

/**
 * Every disagreement must match one of these. Keep them narrow: each names the kind of
 * disagreement, the engine's message and our code where it can. An entry for a bug that gets
 * fixed simply stops matching (and is printed with a count of 0).
 */
const KNOWN_DISAGREEMENTS: readonly KnownDisagreement[] = [
  // ---- deliberate (LANGUAGE.md §9, §5)
  {
    name: '`true` / `false` as Boolean literals',
    status: 'deliberate (LANGUAGE.md §9)',
    reason: 'the engine has no Boolean literals; the service uses `"expression": "true"` for execute rules',
    example: 'true',
    when: (d) => engineObjects(d) && engineSays(d) === 'unknown identifier' && (engineAt(d) === 'true' || engineAt(d) === 'false'),
  },
  {
    name: 'expression longer than 4,096 characters',
    status: 'deliberate (LANGUAGE.md §9)',
    reason: 'documented limit of the service; the engine has none',
    example: `tcp.dstport in {${'1 '.repeat(2045)}}`,
    when: (d) => weObject(d) && first(d)?.code === 'expression-too-long' && d.expr.length > 4096,
  },
  {
    name: 'bit_slice width and offset limits',
    status: 'deliberate (LANGUAGE.md §9)',
    reason: 'documented limits (at most 32 bits, offsets up to 2,040, end after start); a bare scheme does not check them',
    example: 'bit_slice(tcp, 0, 64) == 1',
    when: (d) => weObject(d) && first(d)?.code === 'bit-slice-range',
  },
  {
    name: '`ip.geoip.country`',
    status: 'deliberate (LANGUAGE.md §9)',
    reason: 'LANGUAGE.md §5 lists the field the service documents; the engine\'s magic_firewall scheme lacks it (see catalogue.test.ts)',
    example: 'ip.geoip.country == "BR"',
    when: (d) => engineObjects(d) && engineSays(d) === 'unknown identifier' && engineAt(d) === 'ip.geoip.country',
  },
  // ---- artefacts of the bindings
  {
    name: 'empty or whitespace-only expression',
    status: 'oracle artefact',
    reason: 'the bindings return success for an empty expression without parsing it; the service has no empty expression',
    example: ' ',
    when: (d) => d.kind === 'we-reject' && first(d)?.code === 'empty-expression' && trimRust(d.expr) === '',
  },
  // ---- first, because it decides which error we show at all
  {
    name: 'a syntax error: an earlier literal or type the engine stops at first',
    status: 'deliberate (decided in issue 11)',
    reason:
      'when the grammar fails there is no tree: we report the syntax error and, before it, every name that is no field (what the engine most often stops at); ' +
      'a literal or a type before the failure (`0X0`, `"x"` after an Integer field) is checked once the syntax is fixed. Both reject',
    example: 'ip.src.asnum in {0x0..0X0} and )',
    when: (d) => {
      if (d.kind !== 'engine-earlier' || !d.ours.errors.some((e) => e.code === 'syntax-error')) return false;
      // What a call or index expression on the right holds is checked on its own (checkExpression).
      const right = d.ours.errors.filter((e) => e.code === 'field-on-right');
      const inRight = (e: OurError) => right.some((r) => r !== e && e.start >= r.start && e.end <= r.end);
      return d.ours.errors.every((e) => PARSE_FAILURE_CODES.has(e.code) || NAME_CODES.has(e.code) || inRight(e));
    },
  },
  // ---- found by this test, decided in issue 11 (docs/engine.md "Where we differ from the reference engine")
  {
    name: 'lists with a non-IP field',
    status: 'deliberate (decided in issue 11)',
    reason: 'the engine accepts `$list` after any field, not knowing which lists exist; we follow LANGUAGE.md §6: the lists of this phase hold IP addresses and apply to `ip.src` and `ip.dst` only',
    example: 'tcp.dstport in $my_list',
    when: (d) => weObject(d) && first(d)?.code === 'list-not-allowed',
  },
  {
    name: 'list names with `..`',
    status: 'deliberate (decided in issue 11)',
    reason: 'the engine\'s lexer takes `$foo..bar`; no list can be named so (LANGUAGE.md §6: lowercase letters, digits and `_`, parts joined by single dots), so we say so',
    example: 'ip.src in $foo..bar',
    when: (d) => weObject(d) && first(d)?.code === 'invalid-list-name' && oursAt(d).includes('..'),
  },
  {
    name: 'functions of the engine\'s scheme other than bit_slice',
    status: 'deliberate (decided in issue 11)',
    reason: 'the engine\'s magic_firewall scheme registers the HTTP functions too (`len`, `lower`, …; see catalogue.test.ts); LANGUAGE.md §7 documents `bit_slice` only for this phase, so we report the others',
    example: 'len(cf.colo.name) > 3',
    when: (d) =>
      weObject(d) &&
      (first(d)?.code === 'unknown-function' ||
        // `wildcard(…)`, `contains(…)`: functions to the engine, operators to us.
        (first(d)?.code === 'syntax-error' && /^[ \r\n]*\(/.test(d.expr.slice(first(d)!.end)))) &&
      ENGINE_ONLY_FUNCTIONS.has(oursAt(d)),
  },
  {
    name: 'hex bytes separated by `-` or `.`',
    status: 'deliberate (decided in issue 11)',
    reason: 'LANGUAGE.md §4 documents `:`, `-` and `.` between bytes; this engine build (0.7.0) reads `:` only (`61-62`: "expected byte separator"); we follow the documentation',
    example: 'ip.proto == 61-62',
    when: (d) => engineObjects(d) && /^[0-9A-Fa-f]{2}(?:[:.-][0-9A-Fa-f]{2})+$/.test(wordAt(d.expr, (d.oracle as { start: number }).start)) && /[-.]/.test(wordAt(d.expr, (d.oracle as { start: number }).start)),
  },
  {
    name: 'short or zero-padded IPv4 addresses inside a set',
    status: 'deliberate (decided in issue 11)',
    reason: 'inside `{…}` the engine reads `0`, `1.2`, `1.2.3` as network prefixes and accepts `01.2.3.4`; after `==` it rejects them. We read an IPv4 address in its dotted-quad form only, everywhere: `1.2.3` is not what a person means by 1.2.3.0',
    example: 'ip.src in {1.2.3}',
    when: shortAddressInSet(['ip.src', 'ip.dst']),
  },
  {
    name: 'keyword glued to a word (`nottcp.flags.syn`, `sip orlower(…)`, `ip.ttl lt5`, `tcp.flags & 6xor sip`)',
    status: 'deliberate (decided in issue 11)',
    reason: 'the engine needs no space around a keyword (`nottcp.flags.syn`, `ip.ttl lt5`); a person reads `nottcp.flags.syn` as one unknown name, so we ask for the space (with a fix where we can tell)',
    example: 'ip.ttl lt5',
    when: gluedKeyword((name) => FIELDS.has(name) || name === 'bit_slice' || ENGINE_ONLY_FUNCTIONS.has(name), (name) => FIELDS.has(name)),
  },
  {
    name: 'set items without whitespace between them (`{1-2}`)',
    status: 'deliberate (decided in issue 11)',
    reason: 'in a set the engine ends a value where it stops being valid and reads on (`{87-181}` is `{87 -181}`); LANGUAGE.md §4 separates set items by whitespace, and `{1-2}` is more likely a range written wrong, so we report it',
    example: 'tcp.dstport in {0x4-234}',
    when: (d) => {
      const e = first(d);
      if (!weObject(d) || !e || !insideSet(d.expr, e.start)) return false;
      const word = wordAt(d.expr, e.start);
      return (
        (e.code === 'invalid-integer' && /^[-0-9A-Fa-fx.]*[0-9A-Fa-f]-[0-9]/.test(word)) ||
        (e.code === 'type-mismatch' && /^(?:[0-9A-Fa-f]{2}:)+(?:[0-9A-Fa-f]{3,}|[0-9A-Fa-f]{2}r$)/.test(word)) ||
        // Bytes glued to a raw string: `{74:27:1cr##"…"##}`.
        (e.code === 'syntax-error' && /(?:[0-9A-Fa-f]{2}:)+[0-9A-Fa-f]{2}r$/.test(d.expr.slice(0, e.start)))
      );
    },
  },
  {
    name: 'a field on the right of a comparison',
    status: 'deliberate (decided in issue 11)',
    reason: 'the engine compares a field with another of the same type (`ip.src.country == ip.dst.country`); the service documents comparisons of a field with a value only, so we expect a value',
    example: 'ip.src < ip.dst',
    when: fieldOnTheRight((name) => FIELDS.has(name)),
  },
  {
    name: '`+` before a number',
    status: 'position only (both reject)',
    reason: 'both reject `+1`; we mark the `+`, the engine the token after the number',
    example: 'ip.src.country <= +1 or sip',
    when: (d) => d.kind === 'we-earlier' && first(d)?.code === 'syntax-error' && oursAt(d) === '+',
  },
  {
    name: '`[…]` after a field',
    status: 'position only (both reject)',
    reason: 'both reject `ip.proto[0 == "t"`; the engine parses an index (`ip.proto[0]`, an error on this scheme\'s fields) and fails inside it, we mark the `[`',
    example: 'ip.proto[0 == "t"',
    when: (d) => d.kind === 'we-earlier' && first(d)?.code === 'syntax-error' && oursAt(d) === '[',
  },
  {
    name: '`(`, `!` or `not` among the arguments of a call',
    status: 'position only (both reject)',
    reason: 'both reject `bit_slice((ip, …)` and `bit_slice(!ip, …)`; the engine reads an expression as an argument and fails after it, we mark the `(` or `!`',
    example: 'bit_slice( (ip,0, ,8) == 1',
    when: (d) => d.kind === 'we-earlier' && first(d)?.code === 'syntax-error' && ['(', '!', 'not'].includes(oursAt(d)) && /[A-Za-z_]+[ \r\n]*\([^)]*$/.test(d.expr.slice(0, first(d)!.start)),
  },
];

// ------------------------------------------------------------------ the test

/** JSON, with the invisible characters (NBSP, …) escaped too. */
function show(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u00a0\u00ad\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function describeVerdicts(d: Disagreement): string {
  const oracle = d.oracle.ok
    ? 'engine: accepts'
    : `engine: rejects at ${d.oracle.start ?? '?'}–${d.oracle.end ?? '?'} ${show(engineAt(d))}: ${d.oracle.message.split('\n')[0]}`;
  const ours = d.ours.rejected ? `ours:   rejects at ${first(d)!.start}–${first(d)!.end} ${show(oursAt(d))}: [${first(d)!.code}] ${first(d)!.message}` : 'ours:   accepts';
  return `${show(d.expr)} (${d.kind})\n    ${oracle}\n    ${ours}`;
}

/** Words that say what kind of mistake a message is about: kept in class keys. */
const KEYWORDS = new Set(['and', 'or', 'xor', 'not', 'in', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'strict', 'bitwise_and', 'any', 'all', 'true', 'false']);

/** `name` is one of `names` with a character left out (the generator's misspellings). */
function misspelt(name: string, names: ReadonlySet<string>): boolean {
  for (const known of names) {
    if (known.length !== name.length + 1) continue;
    let i = 0;
    while (i < name.length && name[i] === known[i]) i++;
    if (name.slice(i) === known.slice(i + 1)) return true;
  }
  return false;
}

/**
 * A key that groups unexplained disagreements into classes for the report: the kind, and the
 * engine's message or our code and message, with the parts that vary blanked (strings, numbers,
 * names; a misspelt name of the run's scheme as "(misspelt)").
 */
function classOf(d: Disagreement, names: ReadonlySet<string>): string {
  const message = engineSays(d)
    .split('\n')[0]
    .replace(/"[^"]*"/g, '"…"')
    .replace(/[0-9]+/g, 'N');
  if (engineObjects(d)) {
    if (message !== 'unknown identifier') return `${d.kind} | engine: ${message}`;
    const name = engineAt(d);
    return `${d.kind} | engine: ${message} ${misspelt(name, names) ? '(misspelt)' : name}`;
  }
  // Our message too: one code (`syntax-error`) covers many mistakes.
  const ours = first(d)!
    .message.replace(/"[^"]*"/g, '"…"')
    .replace(/`([^`\s]+)`/g, (whole, inside: string) => (KEYWORDS.has(inside) || !/[A-Za-z0-9]/.test(inside) ? whole : '`…`'))
    .replace(/[0-9]+/g, 'N')
    .slice(0, 110);
  return `${d.kind} | ours: ${first(d)!.code}: ${ours}`;
}

/**
 * The known disagreements of the HTTP run: the decided rows that hold in every phase, taken over
 * from the packet run or, where they name fields, made for the HTTP scheme's. The rows of the
 * packet run that are about that scheme (`ip.geoip.country`, lists on non-IP fields, the HTTP
 * functions, `[…]` and logical arguments our packet parser refuses) do not apply here. Then the
 * catalogue's decisions (scripts/catalogue/overlay.ts): fields and signatures where it follows
 * the docs. Other decisions of issue 21 (functions outside their phases, lists by kind, …) become
 * rows here as the checker learns them.
 */
function httpKnownDisagreements(fields: readonly GenField[]): KnownDisagreement[] {
  const fieldNames = new Set(fields.map((f) => f.name));
  const functionNames = new Set(ENGINE_FUNCTION_NAMES);
  const docsOnlyFields = new Set([...catalogueFor(HTTP_PHASE).fields.values()].filter((f) => !f.inEngine).map((f) => f.name));
  const carried = (name: string): KnownDisagreement => {
    const row = KNOWN_DISAGREEMENTS.find((k) => k.name === name);
    if (!row) throw new Error(`no known disagreement named ${name}`);
    return row;
  };
  // The catalogue's decided signatures of value-only functions (`to_string` of a Boolean,
  // `remove_query_args` past nine arguments) have no row: in a filter such a call is already an
  // error of ours (a function for value expressions only), and the engine's bindings read filters only.
  return [
    carried('`true` / `false` as Boolean literals'),
    { ...carried('expression longer than 4,096 characters'), example: `http.host in {${'"a" '.repeat(1100)}}` },
    carried('empty or whitespace-only expression'),
    { ...carried('a syntax error: an earlier literal or type the engine stops at first'), example: 'ip.src.asnum in {0x0..0X0} and )' },
    carried('list names with `..`'),
    { ...carried('hex bytes separated by `-` or `.`'), example: 'http.host == 61-62' },
    {
      ...carried('short or zero-padded IPv4 addresses inside a set'),
      example: 'ip.src in {1.2.3}',
      // After any left side (`cidr(…) in {1.2.3}`): where the engine takes the prefix, it is an address.
      when: decided((e, d) => (e.code === 'invalid-ip' || e.code === 'type-mismatch') && /^[0-9]+(?:\.[0-9]+){0,3}$/.test(d.expr.slice(e.start, e.end)) && /(?:^|[^A-Za-z0-9_])in[ \r\n]*\{[^{}]*$/.test(withoutStrings(d.expr.slice(0, e.start)))),
    },
    {
      ...carried('keyword glued to a word (`nottcp.flags.syn`, `sip orlower(…)`, `ip.ttl lt5`, `tcp.flags & 6xor sip`)'),
      example: 'ip.src.asnum lt5',
      when: gluedKeyword((name) => fieldNames.has(name) || functionNames.has(name), (name) => fieldNames.has(name)),
    },
    { ...carried('set items without whitespace between them (`{1-2}`)'), example: 'ip.src.asnum in {0x4-234}' },
    { ...carried('`+` before a number'), example: 'ip.src.country <= +1 or ssl' },
    // ---- decided in issue 21 (docs/engine.md "Where we differ from the reference engine")
    {
      name: 'a field, call or index expression on the right of a comparison',
      status: 'deliberate (decided in issue 21)',
      reason:
        'the engine compares a field, a call or an index expression with another of its type (`http.host == lower(http.host)`, `ip.src < cf.edge.server_ip`); the service documents `<field> <operator> <value>`, so we expect a value (the row of issue 11, grown to calls and index expressions by the lead)',
      example: 'http.host == lower(http.host)',
      when: decidedErrors(new Set(['field-on-right'])),
    },
    {
      name: '`to_string` of a Boolean or an IP address',
      status: 'deliberate (decided in issue 21)',
      reason: 'the docs list Integer, Boolean and IP address; the engine takes an Integer only. `to_string` is for value expressions: in a filter it is already an error of ours',
      example: 'to_string(ssl) == "1"',
      when: (d) => {
        const types = /^invalid type of argument #0: expected value of type Int, but got (?:Bool|Ip)$/;
        if (docsSignature('to_string', (message) => types.test(message))(d)) return true;
        return weObject(d) && first(d)?.code === 'function-not-available' && oursAt(d) === 'to_string' && !d.oracle.ok && d.oracle.start !== undefined && callAround(d.expr, d.oracle.start)?.name === 'to_string' && types.test(d.oracle.message);
      },
    },
    {
      name: '`remove_query_args` with more than 8 names',
      status: 'deliberate (decided in issue 21)',
      reason: 'the docs take any number of names; the engine\'s binding stops at nine arguments. `remove_query_args` is for value expressions: in a filter it is already an error of ours',
      example: 'remove_query_args(http.request.uri.query, "a", "b", "c", "d", "e", "f", "g", "h", "i") == "a"',
      when: (d) => {
        const tooMany = (message: string, args: readonly string[]) => message === 'invalid number of arguments' && args.length > 9;
        if (docsSignature('remove_query_args', tooMany)(d)) return true;
        const call = !d.oracle.ok && d.oracle.start !== undefined ? callAround(d.expr, d.oracle.start) : undefined;
        return weObject(d) && first(d)?.code === 'function-not-available' && oursAt(d) === 'remove_query_args' && call?.name === 'remove_query_args' && tooMany((d.oracle as { message: string }).message, call.args);
      },
    },
    {
      name: '`regex_replace` with a pattern that does not compile',
      status: 'deliberate (decided in issue 21)',
      reason:
        'the engine does not compile `regex_replace`\'s pattern when it reads the rule; the service has to compile it to rewrite anything, so we check it as `matches` is checked (Rust `regex` syntax). `regex_replace` is for value expressions: in a filter it is already an error of ours',
      example: 'regex_replace(http.host, "((", "x") == "a"',
      when: (d, run) => {
        const inRegexReplace = (e: OurError) => e.code === 'invalid-regex' && callAround(d.expr, e.start)?.name === 'regex_replace';
        if (!d.ours.errors.some(inRegexReplace)) return false;
        return decided((e) => inRegexReplace(e) || (e.code === 'function-not-available' && d.expr.slice(e.start, e.end) === 'regex_replace'))(d, run);
      },
    },
    {
      name: 'fields outside their documented phases or kind of expression',
      status: 'deliberate (LANGUAGE.md §9)',
      reason: 'the engine has one scheme for every HTTP phase; the docs give response fields to the response phases, and some fields to Transform Rules or to value expressions only (the catalogue\'s `only`)',
      example: 'http.response.code == 404',
      when: decidedErrors(new Set(['field-not-available'])),
    },
    {
      name: 'functions outside their documented phases or kind of expression',
      status: 'deliberate (LANGUAGE.md §9)',
      reason: 'the engine registers every function for every expression; the docs give `regex_replace`, `to_string`, `uuidv4`, `wildcard_replace`, `remove_query_args` to value expressions only, `split`, `cidr`, `join`, … to some phases, `bit_slice` to the packet phases',
      example: 'lower(regex_replace(http.host, "a", "b")) == "a"',
      when: decidedErrors(new Set(['function-not-available'])),
    },
    {
      name: 'a managed IP list after a field that is no IP address',
      status: 'deliberate (LANGUAGE.md §9)',
      reason: 'the engine takes `$list` after any field, not knowing what lists hold; the managed lists hold IP addresses (LANGUAGE.md §6: a list whose kind does not fit the field is an error once its kind is known)',
      example: 'http.host in $cf.vpn',
      when: decidedErrors(new Set(['list-not-allowed'])),
    },
    {
      name: 'a TAB, a misspaced `strict wildcard` or `=` inside the argument of a call or quantifier',
      status: 'position only (both reject)',
      reason:
        'both reject a TAB, `strict  wildcard` and `=`; inside a call\'s or a quantifier\'s argument the engine gives up on the argument and says so at its start (or type-checks the operand it read before it), we mark the TAB or the operator',
      example: 'any(http.request.headers.names[*]\t== "a")',
      // Our first such error, after decided ones only (a function of other phases inside the argument).
      when: (d) => {
        if (d.kind !== 'engine-earlier' || d.oracle.ok || d.oracle.start === undefined) return false;
        const at = d.ours.errors.findIndex((e) => ['tab-whitespace', 'strict-wildcard-spacing', 'single-equals'].includes(e.code));
        return at >= 0 && d.ours.errors.slice(0, at).every((e) => DECIDED_CODES.has(e.code)) && sameArgument(d.expr, d.oracle.start, d.ours.errors[at].start);
      },
    },
    {
      name: 'a mistake inside an argument that starts like hex digits',
      status: 'position only (both reject)',
      reason:
        'the engine reads an argument whose first characters are hex digits (`decode_base64(…)`, `cf.…`) as a literal when it cannot read it whole, and says "unrecognised input" at the argument\'s start; we mark the mistake inside it (an unknown field, a wrong argument)',
      example: 'lower(decode_base64(http.referr)) == "a"',
      when: (d) => {
        const e = first(d);
        if (d.kind !== 'engine-earlier' || !e || engineSays(d) !== 'unrecognised input' || d.oracle.ok || d.oracle.start === undefined) return false;
        const at = d.oracle.start;
        const argument = callAround(d.expr, at)?.args.find((arg) => arg !== '' && d.expr.startsWith(arg, at));
        return argument !== undefined && /^[0-9a-fA-F]{1,3}(?![0-9A-Za-z_])|^[0-9a-fA-F]{3}/.test(argument) && e.start >= at && e.start < at + argument.length;
      },
    },
    {
      name: 'an array of Booleans beside a Boolean in `and`/`or`/`xor`',
      status: 'position only (both reject)',
      reason: 'both reject `x[*] == "a" and ssl`; the engine checks the operands\' types once it has read the right one and points after it, we mark the operand that is an array (and offer `any(…)`)',
      example: 'http.request.headers.names[*] == "a" and ssl',
      when: (d, run) =>
        (d.kind === 'we-earlier' && first(d)?.code === 'boolean-array' && /^expected value of type (?:Array<Bool>|Bool), but got (?:Bool|Array<Bool>)$/.test(engineSays(d))) ||
        // The engine checks the operands' types after the right one is read: what it finds before that comes first.
        decidedErrors(new Set(['boolean-array']))(d, run),
    },
    // ---- the catalogue's decisions (issue 21): where it follows the docs, not the engine
    {
      name: 'fields the docs list and the engine lacks',
      status: 'deliberate (decided in issue 21)',
      reason: 'the catalogue has the fields of the docs\' field list that the engine\'s scheme does not have yet (scripts/catalogue/overlay.ts)',
      example: [...docsOnlyFields][0] ?? 'cf.bot_management.signed_agent',
      // Inside a call, a name that starts like hex digits (`cf.…`) is "unrecognised input" to the engine,
      // and inside a call inside a call the engine marks the whole outer argument that holds it.
      when: (d) =>
        engineObjects(d) &&
        ((engineSays(d) === 'unknown identifier' && docsOnlyFields.has(engineAt(d))) ||
          (engineSays(d) === 'unrecognised input' && [...docsOnlyFields].some((f) => holdsName(engineAt(d), f)))),
    },
    {
      name: '`substring(field, start)` without `end`',
      status: 'deliberate (decided in issue 21)',
      reason: 'the docs make `end` optional; the engine wants three arguments',
      example: 'substring(http.host, 1) == "a"',
      when: docsSignature('substring', (message, args) => message === 'invalid number of arguments' && args.length === 2),
    },
    {
      name: '`len` of an array',
      status: 'deliberate (decided in issue 21)',
      reason: 'the docs count an array\'s elements; the engine takes a String only',
      example: 'len(http.request.headers.names) > 1',
      when: docsSignature('len', (message) => /^invalid type of argument #0: expected value of type Bytes, but got Array<(?:Bytes|Int|Array<Bytes>)>$/.test(message)),
    },
    {
      name: '`url_decode(field, options)`',
      status: 'deliberate (decided in issue 21)',
      reason: 'the docs document the options `r` and `u`; the engine takes one argument',
      example: 'url_decode(http.request.uri.query, "r") == "a"',
      // The engine stops at the second argument, whatever follows it.
      when: docsSignature('url_decode', (message, args, at) => message === 'invalid number of arguments' && args.length >= 2 && isLiteralArgument(args[1]) && at.startsWith(args[1])),
    },
    {
      name: '`lookup_json_string` / `lookup_json_integer` with integer or several keys',
      status: 'deliberate (decided in issue 21)',
      reason: 'the docs walk nested objects and arrays with several keys and positions; the engine takes one String key',
      example: 'lookup_json_string(http.request.body.raw, "a", 0) == "a"',
      when: (d) =>
        ['lookup_json_string', 'lookup_json_integer'].some((name) =>
          docsSignature(name, (message, args, at) => (message === 'invalid number of arguments' && args.length > 2 && isLiteralArgument(at.split(/[ \r\n]*[,)]/)[0])) || /^invalid type of argument #1: expected value of type Bytes, but got Int$/.test(message))(d),
        ),
    },
    {
      name: '`is_timed_hmac_valid_v0` with the documented arguments',
      status: 'deliberate (decided in issue 21)',
      reason: 'the docs put a literal key first; the engine\'s binding wants a field first (and refuses any literal there)',
      example: 'is_timed_hmac_valid_v0("secret", http.request.uri, 100000, http.request.timestamp.sec)',
      // The signatures differ from the first argument on: where either of us stops inside such a call, so may the other.
      // And an argument of ours the engine takes (a call as the key) is a decided error like any
      // other: what the engine refuses after it must still be ours too, or explained.
      when: (d, run) => {
        const inCall = (offset: number) => callAround(d.expr, offset)?.name === 'is_timed_hmac_valid_v0';
        if (decided((e) => /^argument-/.test(e.code) && inCall(e.start))(d, run)) return true;
        if (d.oracle.ok || d.oracle.start === undefined || !inCall(d.oracle.start) || !/^invalid (?:kind|type|number)/.test(d.oracle.message)) return false;
        return engineObjects(d) || (first(d) !== undefined && inCall(first(d)!.start) && /^argument-/.test(first(d)!.code));
      },
    },
  ];
}

/**
 * The innermost call whose parentheses hold this offset: its name and its arguments' texts
 * (split at the commas of its own level). By tokens, so a `(` or `,` in a string is no bracket.
 */
function callAround(expr: string, offset: number): { readonly name: string; readonly args: readonly string[] } | undefined {
  const spans = tokenSpans(expr);
  const text = ([start, end]: [number, number]) => expr.slice(start, end);
  const open: number[] = [];
  spans.forEach((span, i) => {
    if (span[0] >= offset) return;
    if (text(span) === '(') open.push(i);
    else if (text(span) === ')') open.pop();
  });
  const at = open.pop();
  if (at === undefined || at === 0 || !/^[a-z_0-9]+$/.test(text(spans[at - 1]))) return undefined;
  const args: string[] = [];
  let depth = 0;
  let from = spans[at][1];
  for (let i = at + 1; i < spans.length; i++) {
    const token = text(spans[i]);
    if (token === '(' || token === '[' || token === '{') depth++;
    else if ((token === ')' || token === ']' || token === '}') && depth > 0) depth--;
    else if ((token === ')' && depth === 0) || (token === ',' && depth === 0)) {
      args.push(expr.slice(from, spans[i][0]).trim());
      if (token === ')') return { name: text(spans[at - 1]), args };
      from = spans[i][1];
    }
  }
  args.push(expr.slice(from).trim());
  return { name: text(spans[at - 1]), args };
}

/**
 * A function signature where the catalogue follows the docs rather than the engine (decided in
 * issue 21, scripts/catalogue/overlay.ts DECIDED_DIFFERENCES): the engine refuses, inside a call
 * of `name`, with a message `test` accepts.
 */
function docsSignature(name: string, test: (message: string, args: readonly string[], at: string) => boolean): (d: Disagreement) => boolean {
  return (d) => {
    if (!engineObjects(d) || d.oracle.ok || d.oracle.start === undefined) return false;
    const call = callAround(d.expr, d.oracle.start);
    return call?.name === name && test(d.oracle.message, call.args, d.expr.slice(d.oracle.start));
  };
}

/**
 * Whether `from` and `to` (`from` first) lie in one argument of one call or quantifier: inside
 * its parentheses, with no `,` or `)` of its level between them.
 */
function sameArgument(expr: string, from: number, to: number): boolean {
  if (from >= to) return false;
  const spans = tokenSpans(expr);
  let depth = 0;
  for (const [start, end] of spans) {
    if (start < from) continue;
    if (start >= to) break;
    const token = expr.slice(start, end);
    if (token === '(' || token === '[' || token === '{') depth++;
    else if (token === ')' || token === ']' || token === '}') {
      if (depth === 0) return false;
      depth--;
    } else if (token === ',' && depth === 0) return false;
  }
  return callAround(expr, from) !== undefined;
}

/** A string literal (`"…"`, `r"…"`, `r#"…"#`), an integer or hex bytes, as an argument. */
const isLiteralArgument = (arg: string) => /^(?:r#*)?"/.test(arg) || /^-?[0-9]+$/.test(arg) || /^[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2})+$/.test(arg);

/** One differential run: a phase of ours, a scheme of the engine, a generator and what explains their differences. */
interface Run {
  readonly phase: string;
  readonly scheme: EngineScheme;
  readonly generator: Arb;
  readonly known: readonly KnownDisagreement[];
  /** The scheme's field and function names (to tell a misspelt one in the report). */
  readonly names: ReadonlySet<string>;
  /** Where the report goes besides the console, if anywhere. */
  readonly reportFile?: string;
}

const explain = (run: Run, d: Disagreement): KnownDisagreement | undefined => run.known.find((k) => k.when(d, run));

/**
 * The codes of our errors that are decided differences wherever they stand (the HTTP run's rows
 * of issue 21): what comes before the engine's error may be any of them.
 */
const DECIDED_CODES: ReadonlySet<string> = new Set(['field-on-right', 'field-not-available', 'function-not-available', 'list-not-allowed', 'boolean-array']);

/**
 * A decided error of ours (its code one of `codes`) comes first, and what is left once our
 * errors of those codes are set aside agrees with the engine, or is a disagreement another
 * row explains: a decided error does not hide a mistake of ours elsewhere in the expression.
 */
function decidedErrors(codes: ReadonlySet<string>): (d: Disagreement, run: Run) => boolean {
  return decided((e) => codes.has(e.code));
}

/** decidedErrors, for the errors of ours `isDecided` says are decided. */
function decided(isDecided: (e: OurError, d: Disagreement) => boolean): (d: Disagreement, run: Run) => boolean {
  return (d, run) => {
    if (!weObject(d) || !first(d) || !isDecided(first(d)!, d)) return false;
    // An error of ours where the engine's is, after decided ones only.
    if (!d.oracle.ok && d.oracle.start !== undefined) {
      for (const e of d.ours.errors) {
        if (samePlace(d.expr, e, d.oracle.start)) return true;
        if (!isDecided(e, d) && !DECIDED_CODES.has(e.code)) break;
      }
    }
    const rest = d.ours.errors.filter((e) => !isDecided(e, d));
    const again = compare(d.expr, { rejected: rest.length > 0, errors: rest }, d.oracle);
    return again === undefined || explain(run, again) !== undefined;
  };
}

/** Each entry's example must be a disagreement that this very entry explains (or, for a bug, agree). */
async function checkExamples(engine: Oracle, run: Run): Promise<void> {
  const verdicts = await engine.check(run.known.map((k) => k.example), run.scheme);
  run.known.forEach((k, i) => {
    const d = compare(k.example, ourVerdict(k.example, run.phase), verdicts[i]);
    if (d) assert.equal(explain(run, d)?.name, k.name, `example of "${k.name}" is explained by another entry: ${describeVerdicts(d)}`);
    // A deliberate difference is a decision: when it stops differing, the entry is stale.
    // A bug's example agrees once the bug is fixed, which is the point; say so.
    else if (k.status === 'deliberate (LANGUAGE.md §9)' || k.status === 'oracle artefact') assert.fail(`example of "${k.name}" (${k.status}) no longer disagrees: ${show(k.example)}`);
    else console.log(`"${k.name}" (${k.status}): its example now agrees with the engine; remove the entry once it matches nothing`);
  });
}

/**
 * Compares `RUNS` generated expressions; prints the count of each known disagreement and each
 * class of unexplained ones (with its shortest example); fails, with a shrunk example, when any
 * is unexplained.
 */
async function agreement(t: TestContext, engine: Oracle, run: Run): Promise<void> {
  // Printed, and written to the run's report file too when set (the test runner escapes `\` and `#`).
  const lines: string[] = [];
  const log = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  t.after(() => {
    if (run.reportFile) writeFileSync(run.reportFile, `${lines.join('\n')}\n`);
  });
  log(`seed ${SEED}, ${RUNS} expressions (reproduce: ORACLE_SEED=${SEED} ORACLE_RUNS=${RUNS}); engine ${ORACLE_VERSION === engine.version ? '' : 'UNPINNED '}octorules-wirefilter ${engine.version}`);

  const counts = new Map<string, { count: number; shortest?: Disagreement }>(run.known.map((k) => [k.name, { count: 0 }]));
  const unexplained = new Map<string, { count: number; shortest: Disagreement; chunk: number; some: Disagreement[] }>();
  let oursMs = 0;
  let oracleMs = 0;
  let engineRejected = 0;
  let disagreements = 0;
  /** Engine errors whose place could not be read back from its message (their place is not compared). */
  let unplaced = 0;
  const long = RUNS > 100_000;

  for (let chunk = 0; chunk * CHUNK < RUNS; chunk++) {
    const size = Math.min(CHUNK, RUNS - chunk * CHUNK);
    const exprs = fc.sample(run.generator, { seed: SEED + chunk, numRuns: size });
    let start = performance.now();
    const verdicts = await engine.check(exprs, run.scheme);
    oracleMs += performance.now() - start;
    start = performance.now();
    const ours = exprs.map((expr) => ourVerdict(expr, run.phase));
    oursMs += performance.now() - start;
    exprs.forEach((expr, i) => {
      const verdict = verdicts[i];
      if (!verdict.ok) engineRejected++;
      if (!verdict.ok && verdict.start === undefined) unplaced++;
      const d = compare(expr, ours[i], verdicts[i]);
      if (!d) return;
      disagreements++;
      const known = explain(run, d);
      if (known) {
        const c = counts.get(known.name)!;
        c.count++;
        if (!c.shortest || d.expr.length < c.shortest.expr.length) c.shortest = d;
        return;
      }
      const key = classOf(d, run.names);
      const u = unexplained.get(key);
      if (!u) unexplained.set(key, { count: 1, shortest: d, chunk, some: [d] });
      else {
        u.count++;
        if (u.some.length < 8) u.some.push(d);
        if (d.expr.length < u.shortest.expr.length) u.shortest = d;
      }
    });
    if (long && (chunk + 1) % 10 === 0) log(`… ${(chunk + 1) * CHUNK} expressions, ${disagreements} disagreements, ${[...unexplained.values()].reduce((n, u) => n + u.count, 0)} unexplained`);
  }

  log(
    `${RUNS} expressions: the engine rejected ${engineRejected} (${((100 * engineRejected) / RUNS).toFixed(1)}%); ` +
      `${disagreements} disagreements (${((100 * disagreements) / RUNS).toFixed(2)}%); ${unplaced} engine errors without a readable place. ` +
      `Time: ours ${(oursMs / 1000).toFixed(1)} s, oracle ${(oracleMs / 1000).toFixed(1)} s (engine alone ${engine.engineSeconds.toFixed(1)} s)`,
  );
  for (const k of run.known) {
    const c = counts.get(k.name)!;
    log(`  ${String(c.count).padStart(7)}  ${k.name} — ${k.status}${c.count === 0 ? ' (matched nothing in this run)' : ''}`);
    if (c.shortest && process.env.ORACLE_VERBOSE) log(`           e.g. ${describeVerdicts(c.shortest).replace(/\n/g, '\n           ')}`);
  }
  if (unexplained.size === 0) return;

  const classes = [...unexplained].sort((a, b) => b[1].count - a[1].count);
  log(`UNEXPLAINED disagreements, ${classes.length} classes:`);
  for (const [key, u] of classes) {
    log(`  ${String(u.count).padStart(7)}  ${key}\n           e.g. ${describeVerdicts(u.shortest).replace(/\n/g, '\n           ')}`);
    if (process.env.ORACLE_VERBOSE) for (const d of u.some) log(`           ${describeVerdicts(d).replace(/\n/g, '\n           ')}`);
  }

  // Shrink the first unexplained disagreement of the first chunk that has one, with fast-check.
  const chunk = Math.min(...classes.map(([, u]) => u.chunk));
  const size = Math.min(CHUNK, RUNS - chunk * CHUNK);
  const again = fc.sample(run.generator, { seed: SEED + chunk, numRuns: size });
  const cache = new Map<string, OracleResult>();
  (await engine.check(again, run.scheme)).forEach((verdict, i) => cache.set(again[i], verdict));
  let shrunk: Disagreement | undefined;
  const outcome = await fc.check(
    fc.asyncProperty(run.generator, async (expr) => {
      const verdict = cache.get(expr) ?? (await engine.check([expr], run.scheme))[0];
      cache.set(expr, verdict);
      const d = compare(expr, ourVerdict(expr, run.phase), verdict);
      if (d && !explain(run, d)) {
        shrunk = d;
        return false;
      }
      return true;
    }),
    { seed: SEED + chunk, numRuns: size },
  );
  if (outcome.failed && outcome.counterexample) {
    const d = compare(outcome.counterexample[0], ourVerdict(outcome.counterexample[0], run.phase), (await engine.check([outcome.counterexample[0]], run.scheme))[0])!;
    shrunk = d;
  }
  assert.fail(
    `${classes.reduce((n, [, u]) => n + u.count, 0)} disagreements with the reference engine are not explained by the known disagreements` +
      (shrunk ? `; shrunk: ${describeVerdicts(shrunk)}` : '') +
      ` (seed ${SEED})`,
  );
}

/** The regular expression of a word (`xor`, a field name) standing alone. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const word = (w: string) => new RegExp(`(?:^|[^A-Za-z0-9_.])${escapeRegExp(w)}(?:$|[^A-Za-z0-9_.])`);
/** Each operator spelling, spaced as a word operator must be or glued as a symbol may be. */
const operatorForms = (): [string, RegExp][] =>
  OPERATOR_SPELLINGS.map((op): [string, RegExp] => [`operator ${op}`, /^[a-z]/.test(op) ? new RegExp(`[ \r\n]${escapeRegExp(op)}[ \r\n]`) : new RegExp(`[A-Za-z0-9_.)\\]] ?${escapeRegExp(op)}(?![=&~])`)]);
const logicalForms = (): [string, RegExp][] => [
  ...['and', 'or', 'xor', 'not'].map((op): [string, RegExp] => [`logical ${op}`, new RegExp(`[ \r\n]${op}[ \r\n]`)]),
  ...['&&', '||', '^^', '!', '('].map((op): [string, RegExp] => [`logical ${op}`, new RegExp(escapeRegExp(op))]),
];

// One engine process for the file; both runs ask it, each with its scheme.
let started: Promise<Started> | undefined;
const oracleStarted = () => (started ??= startOracle());
after(async () => (await started)?.oracle?.close());

const MAGIC: Run = {
  phase: PHASE,
  scheme: ORACLE_SCHEME,
  generator: generatedExpression,
  known: KNOWN_DISAGREEMENTS,
  names: new Set([...FIELDS.keys(), ...ENGINE_FUNCTION_NAMES]),
  reportFile: process.env.ORACLE_REPORT,
};

describe(`differential: checker (phase ${PHASE}) against the reference engine (scheme ${ORACLE_SCHEME})`, () => {
  let oracle: Oracle | undefined;
  let missing: string | undefined;

  before(async () => {
    const result = await oracleStarted();
    if (result.oracle) oracle = result.oracle;
    else missing = result.missing;
  });

  it('generates every field, operator spelling and literal form', () => {
    // The generator, not the engine: a run that never writes `xor` or `r#"…"#` compares nothing there.
    const sample = fc.sample(generatedExpression, { seed: SEED, numRuns: 5000 }).join('\n');
    const wanted: [string, RegExp][] = [
      ...[...FIELDS.keys()].map((f): [string, RegExp] => [`field ${f}`, word(f)]),
      ...operatorForms(),
      ...logicalForms(),
      ...LITERAL_FORMS,
      ['bit_slice call', /bit_slice ?\((?:ip|tcp|udp|icmp), ?\d+, ?\d+\)/],
      ['line break between tokens', /[^\s]\r?\n[^\s]/],
      ['nesting', /\( ?\( ?\(/],
    ];
    const missing = wanted.filter(([, pattern]) => !pattern.test(sample)).map(([what]) => what);
    assert.deepEqual(missing, [], 'forms the generator never wrote in 5,000 expressions');
  });

  it('each KNOWN_DISAGREEMENTS example is a disagreement its own entry explains', async (t) => {
    if (!oracle) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    await checkExamples(oracle, MAGIC);
  });

  it(`agrees with the engine on ${RUNS} generated expressions (seed ${SEED})`, { timeout: 24 * 3600 * 1000 }, async (t) => {
    if (!oracle) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    await agreement(t, oracle, MAGIC);
  });
});

describe(`differential: checker (phase ${HTTP_PHASE}) against the reference engine (scheme ${HTTP_SCHEME})`, () => {
  let oracle: Oracle | undefined;
  let missing: string | undefined;
  let run: Run | undefined;
  let fields: GenField[] = [];

  before(async () => {
    const result = await oracleStarted();
    if (!result.oracle) {
      missing = result.missing;
      return;
    }
    oracle = result.oracle;
    // The engine's own field list (and the fields it leaves out of it), not the catalogue's: the
    // catalogue adds fields of the docs and follows the docs on some signatures (its decided
    // rows, below), and catalogue.test.ts holds it to the engine.
    fields = [...HTTP_FIELDS];
    const report = process.env.ORACLE_REPORT?.replace(/(\.[^./]*)?$/, (ext) => `.http${ext}`);
    run = {
      phase: HTTP_PHASE,
      scheme: HTTP_SCHEME,
      generator: httpExpressions(fields, HTTP_FUNCTIONS).expression,
      known: httpKnownDisagreements(fields),
      names: new Set([...fields.map((f) => f.name), ...ENGINE_FUNCTION_NAMES]),
      reportFile: report,
    };
  });

  it('generates every field type, field, function, index form, operator spelling and literal form', (t) => {
    if (!run) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    const sample = fc.sample(run.generator, { seed: SEED, numRuns: 5000 }).join('\n');
    const call = (name: string) => new RegExp(`(?:^|[^A-Za-z0-9_.])${escapeRegExp(name)}[ \n\t]?\\(`);
    const quantifiers = new Set(HTTP_FUNCTIONS.filter((f) => f.quantifier).map((f) => f.name));
    const wanted: [string, RegExp][] = [
      ...fields.map((f): [string, RegExp] => [`field ${f.name}`, word(f.name)]),
      ...HTTP_FUNCTIONS.filter((f) => !quantifiers.has(f.name)).map((f): [string, RegExp] => [`call of ${f.name}`, call(f.name)]),
      ...operatorForms(),
      ...logicalForms(),
      // Index access of every kind, on fields and on call results.
      ['map key ["…"]', /[a-z]\["[a-z-]+"\]/],
      ['array index [0]', /[a-z\]]\[ ?[0-3] ?\]/],
      ['[*] on a field', /[a-z]\[ ?\* ?\]/],
      ['[*] twice', /\[ ?\* ?\] ?\[ ?\* ?\]/],
      ['an index on a call result', /\) ?\[ ?(?:[0-9]|"|\*)/],
      ['a key of the wrong kind (raw string, bare word, bytes)', /\[ ?(?:r#?"|'|q ?\]|61:62)/],
      ['an index that does not fit 32 bits', /\[ ?(?:4294967296|0x100000000|9223372036854775808) ?\]/],
      ['a negative index', /\[ ?-[01] ?\]/],
      ['a hex index', /\[ ?0x/],
      ['a space before [', /[a-z)\]] \[/],
      ['an index on a String or Integer (wrong step)', /(?:http\.host|ip\.src\.[a-z_]+|cf\.[a-z_.]+score)\[/],
      // `[*]` with and without a quantifier; quantifiers over logical expressions and Boolean arrays.
      ['any(…[*] …)', /any ?\( ?[^()]*\[ ?\* ?\]/],
      ['all(…[*] …)', /all ?\( ?[^()]*\[ ?\* ?\]/],
      ['[*] outside a quantifier', /(?:^|and |or |\( ?)[a-z._]+\[ ?\* ?\][^()\n]*(?:==|eq|contains)/m],
      ['a quantifier over a parenthesised logical expression', /(?:any|all) ?\( ?\(/],
      ['a quantifier over `not`', /(?:any|all) ?\( ?(?:not |!)/],
      ['a quantifier over a Boolean array call', /(?:any|all) ?\( ?[a-z_]+\([a-z._]+\[ ?\* ?\]/],
      ['a bare quantifier name', /(?:^|[ (])(?:any|all)(?:$|[ )])/m],
      ['a nested quantifier', /(?:any|all)\((?:any|all)\(/],
      // Calls: nested, indexed, mapped, with arguments of every kind and wrong ones.
      ['a call inside a call', /[a-z_]+ ?\( ?[a-z_0-9]+ ?\(/],
      ['a call with a mapped first argument', /[a-z_]+ ?\( ?[a-z._]+(?:\[[^\]]*\])*\[ ?\* ?\]/],
      ['[*] in a later argument', /, ?[a-z._]+(?:\[[^\]\n]*\])*\[ ?\* ?\][^\n]*\)/],
      ['a logical expression as an argument', /\((?:not |!|\()[a-z._]+/],
      ['a comparison as an argument', /(?:coalesce|concat) ?\( ?[^()]*(?:==|eq|!=|ne|contains|matches|<|>) /],
      ['a literal where a field is expected', /(?:lower|upper|len|trim|sha256) ?\( ?(?:"|r"|r#"|[0-9])/],
      ['a field where a literal is expected', /(?:substring|split|regex_replace|remove_bytes|lookup_json_string) ?\( ?[a-z._]+(?:\[[^\]]*\])*, ?[a-z]+\.[a-z]/],
      ['an argument of the wrong type', /(?:lower|upper|len) ?\( ?(?:ip\.src|ssl|cf\.bot_management\.score)\b/],
      ['too few arguments (none)', new RegExp(`(?:^|[^a-z_.])(?:${HTTP_FUNCTIONS.filter((f) => !f.quantifier).map((f) => f.name).join('|')}) ?\\( ?\\)`)],
      ['too many arguments', /(?:lower|upper|len|sha256) ?\( ?[a-z._]+[^(),\n]*, ?[^\s)]/],
      ['concat of arrays', /concat ?\( ?(?:http\.request\.headers\.names|http\.request\.uri\.args\.values|cf\.bot_management\.detection_ids)\b/],
      ['coalesce of Booleans', /coalesce ?\( ?(?:ssl|cf\.[a-z_.]+|not |!)/],
      ['hash_in_range with bounds in the wrong order', /hash_in_range ?\( ?(-?\d+), ?(-?\d+),/],
      ['a trim set with a byte twice', /trim(?:_start|_end)? ?\([^,()]+, ?"(?:\/\/|aa|éé)"/],
      ['a call on the right of a comparison', /(?:==|eq|<|gt) ?[a-z_]+ ?\(/],
      ['a field on the right of a comparison', /(?:==|eq|!=|ne) ?(?:http|cf|ip|raw)\.[a-z]/],
      ['hex integer as an argument', /, ?0x[0-9a-f]/],
      ['bytes as an argument', /[(,] ?[0-9a-f]{2}:[0-9a-f]{2}/],
      ['IP address as an argument', /[(,] ?\d+\.\d+\.\d+\.\d+ ?[,)]/],
      ['raw string as an argument', /[(,] ?r#?"/],
      // Literals and lists on the right, as in the packet phases.
      ...LITERAL_FORMS,
      ['line break between tokens', /[^\s]\r?\n[^\s]/],
      ['nesting', /\( ?\( ?\(/],
      ['nesting beyond 128 levels of calls', /(?:lower\(){129}/],
    ];
    const absent = wanted.filter(([, pattern]) => !pattern.test(sample)).map(([what]) => what);
    // Names one character short of a field's or a function's (the generator's misspellings).
    const words = [...sample.matchAll(/[A-Za-z_][A-Za-z0-9_.]*/g)].map((m) => m[0]);
    if (!words.some((w) => misspelt(w, new Set(fields.map((f) => f.name))))) absent.push('a misspelt field');
    if (!words.some((w) => misspelt(w, new Set(ENGINE_FUNCTION_NAMES)))) absent.push('a misspelt function');
    assert.deepEqual(absent, [], 'forms the generator never wrote in 5,000 expressions');
    // Every type of the scheme's fields is on some left side (the field list above holds them all).
    const types = new Set(fields.map((f) => f.type));
    assert.ok(['Bytes', 'Integer', 'Boolean', 'Ip', 'Array<Bytes>', 'Array<Integer>', 'Array<Array<Bytes>>', 'Map<Array<Bytes>>', 'Map<Array<Integer>>', 'Map<Integer>'].every((type) => types.has(type as GenField['type'])), `field types: ${[...types].join(' ')}`);
  });

  it('writes a call of every function with a wrong argument and with a wrong number of them (by the engine\'s verdicts)', async (t) => {
    if (!oracle || !run) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    // Which mistakes reach the engine as such is the engine's to say: a wrong argument elsewhere
    // may stop it first. So count its messages, each by the call around the place it names.
    // The expressions of a default run (chunks of CHUNK, seed + k): a rare mistake needs them all.
    const sample = Array.from({ length: DEFAULT_RUNS / CHUNK }, (_, k) => fc.sample(run!.generator, { seed: SEED + k, numRuns: CHUNK })).flat();
    const verdicts = await oracle.check(sample, HTTP_SCHEME);
    const seen = new Map<string, Set<string>>();
    sample.forEach((expr, i) => {
      const v = verdicts[i];
      if (v.ok || v.start === undefined) return;
      const what = /^invalid (?:kind|type) of argument/.test(v.message) ? 'a wrong argument' : /^invalid number of arguments/.test(v.message) ? 'a wrong number of arguments' : undefined;
      const callee = what && callAround(expr, v.start)?.name;
      if (!what || !callee) return;
      if (!seen.has(callee)) seen.set(callee, new Set());
      seen.get(callee)!.add(what);
    });
    // Where the catalogue follows the docs in a function's first argument's kind (a decided row),
    // the engine refuses every call the generator writes at that argument, before it counts them.
    const refusedFirst = new Set(DECIDED_DIFFERENCES.flatMap((d) => d.aspects.map((a) => /^function (\S+): parameter 0 kind$/.exec(a)?.[1]).filter((n): n is string => n !== undefined)));
    const absent = HTTP_FUNCTIONS.filter((f) => !f.quantifier).flatMap((f) =>
      ['a wrong argument', 'a wrong number of arguments']
        .filter((what) => !seen.get(f.name)?.has(what) && !(what === 'a wrong number of arguments' && refusedFirst.has(f.name)))
        .map((what) => `${f.name}: ${what}`),
    );
    assert.deepEqual(absent, [], `calls the engine never refused so in ${sample.length} expressions`);
  });

  it('each example of httpKnownDisagreements() is a disagreement its own entry explains', async (t) => {
    if (!oracle || !run) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    await checkExamples(oracle, run);
  });

  it(`agrees with the engine on ${RUNS} generated expressions (seed ${SEED})`, { timeout: 24 * 3600 * 1000 }, async (t) => {
    if (!oracle || !run) return missingOracle(missing ?? 'not started', (m) => t.skip(m));
    await agreement(t, oracle, run);
  });
});
