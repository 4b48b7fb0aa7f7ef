/**
 * Quick fixes: applying a problem's fix must make that problem go away, and should leave an
 * expression with no problems at all. Each row gives the expression before, the code of
 * the problem whose first fix is applied, and the expected text after.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { checkExpression, type CheckOptions } from '../../server/src/language/checker';
import type { ExpressionEdit, Problem } from '../../server/src/language/problem';

/** Applies edits given in the coordinates of the original text (non-overlapping). */
function applyEdits(text: string, edits: readonly ExpressionEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start);
  for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i - 1].span.end <= sorted[i].span.start, 'edits do not overlap');
  let result = text;
  for (const edit of sorted.reverse()) {
    assert.ok(edit.span.start >= 0 && edit.span.start <= edit.span.end && edit.span.end <= text.length, 'edit inside the text');
    result = result.slice(0, edit.span.start) + edit.newText + result.slice(edit.span.end);
  }
  return result;
}

const MAGIC_TRANSIT: CheckOptions = { phase: 'magic_transit' };

interface Row {
  readonly before: string;
  readonly code: string;
  readonly after: string;
  readonly options?: CheckOptions;
  /** Codes still expected after the fix (the fix addresses one problem at a time). */
  readonly remaining?: readonly string[];
}

const ROWS: readonly Row[] = [
  // §9 decisions
  { before: 'tcp.dstport in {22, 443}', code: 'comma-in-set', after: 'tcp.dstport in {22 443}' },
  { before: 'tcp.dstport in {22,443}', code: 'comma-in-set', after: 'tcp.dstport in {22 443}' },
  { before: 'tcp.dstport in {22 ,443}', code: 'comma-in-set', after: 'tcp.dstport in {22  443}' },
  { before: 'tcp.flags.ack\tand tcp.flags.syn', code: 'tab-whitespace', after: 'tcp.flags.ack and tcp.flags.syn' },
  { before: 'ip.src in 10.0.0.0/8', code: 'set-required', after: 'ip.src in {10.0.0.0/8}' },
  { before: 'ip.src == 10.0.0.0/8', code: 'set-required', after: 'ip.src in {10.0.0.0/8}' },
  { before: 'tcp.dstport == 22..80', code: 'set-required', after: 'tcp.dstport in {22..80}' },
  { before: 'tcp.dstport in 22', code: 'set-required', after: 'tcp.dstport in {22}' },
  { before: 'ip.src.country in "BR"', code: 'set-required', after: 'ip.src.country in {"BR"}' },
  // operators
  { before: 'ip.src = 192.0.2.1', code: 'single-equals', after: 'ip.src == 192.0.2.1' },
  { before: 'ip.src == $svc.vpn', code: 'set-requires-in', after: 'ip.src in $svc.vpn' },
  { before: 'tcp.dstport == {22 443}', code: 'set-requires-in', after: 'tcp.dstport in {22 443}' },
  { before: 'udp.dstport == 5060 AND sip', code: 'syntax-error', after: 'udp.dstport == 5060 and sip' },
  { before: 'tcp.dstport IN {22}', code: 'syntax-error', after: 'tcp.dstport in {22}' },
  { before: 'NOT sip', code: 'syntax-error', after: 'not sip' },
  { before: 'cf.colo.name strict  wildcard "a*"', code: 'strict-wildcard-spacing', after: 'cf.colo.name strict wildcard "a*"' },
  { before: 'cf.colo.name strict\r\n  wildcard "a*"', code: 'strict-wildcard-spacing', after: 'cf.colo.name strict wildcard "a*"' },
  // Boolean fields
  { before: 'tcp.flags.syn == true', code: 'boolean-comparison', after: 'tcp.flags.syn' },
  { before: 'tcp.flags.syn == false', code: 'boolean-comparison', after: 'not tcp.flags.syn' },
  { before: 'tcp.flags.syn != false', code: 'boolean-comparison', after: 'tcp.flags.syn' },
  { before: 'tcp.flags.syn and tcp.flags.ack == 0', code: 'boolean-comparison', after: 'tcp.flags.syn and not tcp.flags.ack' },
  // values
  { before: 'tcp.dstport == "22"', code: 'type-mismatch', after: 'tcp.dstport == 22' },
  { before: 'ip.src == "192.0.2.1"', code: 'type-mismatch', after: 'ip.src == 192.0.2.1' },
  { before: 'ip.src in {"10.0.0.0/8"}', code: 'type-mismatch', after: 'ip.src in {10.0.0.0/8}' },
  { before: 'cf.colo.name == ams01', code: 'type-mismatch', after: 'cf.colo.name == "ams01"' },
  { before: 'cf.colo.name == 12', code: 'type-mismatch', after: 'cf.colo.name == "12"' },
  { before: 'ip.proto == 6', code: 'type-mismatch', after: 'ip.proto == "tcp"' },
  { before: 'ip.proto in {"udp" 1}', code: 'type-mismatch', after: 'ip.proto in {"udp" "icmp"}' },
  { before: 'ip.src in {10.0.0.1/8}', code: 'invalid-cidr', after: 'ip.src in {10.0.0.0/8}' },
  { before: 'ip.src in {2001:db8::1/32}', code: 'invalid-cidr', after: 'ip.src in {2001:db8::/32}' },
  { before: 'tcp.flags & -0x10', code: 'invalid-integer', after: 'tcp.flags & -16' },
  { before: 'tcp.dstport == 0X50', code: 'invalid-integer', after: 'tcp.dstport == 0x50' },
  { before: 'tcp.dstport == 0o17', code: 'invalid-integer', after: 'tcp.dstport == 017' },
  { before: 'tcp.dstport == 0b101', code: 'invalid-integer', after: 'tcp.dstport == 5' },
  // Ranges written as other tools write them (issue 14).
  { before: 'tcp.dstport in {80-90}', code: 'invalid-integer', after: 'tcp.dstport in {80..90}' },
  { before: 'tcp.dstport in {80:90 443}', code: 'invalid-integer', after: 'tcp.dstport in {80..90 443}' },
  { before: 'ip.src in {10.0.0.0-10.0.0.255}', code: 'invalid-ip', after: 'ip.src in {10.0.0.0..10.0.0.255}' },
  { before: 'tcp.dstport in {80 - 90}', code: 'invalid-integer', after: 'tcp.dstport in {80..90}' },
  { before: 'tcp.dstport in {22 80 - 90 443}', code: 'invalid-integer', after: 'tcp.dstport in {22 80..90 443}' },
  { before: 'ip.src in {10.0.0.0 - 10.0.0.255}', code: 'invalid-ip', after: 'ip.src in {10.0.0.0..10.0.0.255}' },
  { before: 'ip.src in {2001:db8::1-2001:db8::ff}', code: 'invalid-ip', after: 'ip.src in {2001:db8::1..2001:db8::ff}' },
  { before: 'cf.colo.name matches 74:63:70', code: 'type-mismatch', after: 'cf.colo.name matches "tcp"' },
  { before: 'cf.colo.name wildcard 61:2e:62', code: 'type-mismatch', after: 'cf.colo.name wildcard "a.b"' },
  { before: 'cf.colo.name wildcard {"a*" "b*"}', code: 'type-mismatch', after: '(cf.colo.name wildcard "a*" or cf.colo.name wildcard "b*")' },
  { before: 'udp.dstport in {65000..70000}', code: 'value-out-of-range', after: 'udp.dstport in {65000..65535}' },
  { before: 'ip.ttl in {200..300}', code: 'value-out-of-range', after: 'ip.ttl in {200..255}' },
  // strings
  { before: 'cf.colo.name == "ams01', code: 'unterminated-string', after: 'cf.colo.name == "ams01"' },
  { before: 'cf.colo.name == "dir\\', code: 'unterminated-string', after: 'cf.colo.name == "dir\\\\"' },
  { before: 'cf.colo.name == r#"ams01', code: 'unterminated-string', after: 'cf.colo.name == r#"ams01"#' },
  { before: 'cf.colo.name == r##"a"#', code: 'unterminated-string', after: 'cf.colo.name == r##"a"#"##' },
  { before: 'cf.colo.name == "a\\nb"', code: 'invalid-escape', after: 'cf.colo.name == "a\\x0ab"' },
  { before: 'cf.colo.name == "a\\tb"', code: 'invalid-escape', after: 'cf.colo.name == "a\\x09b"' },
  { before: 'cf.colo.name == "a\\rb"', code: 'invalid-escape', after: 'cf.colo.name == "a\\x0db"' },
  { before: 'cf.colo.name == "a\\0"', code: 'invalid-escape', after: 'cf.colo.name == "a\\x00"' },
  // catalogues
  { before: 'ip.src.country == "br"', code: 'country-code-case', after: 'ip.src.country == "BR"' },
  { before: 'ip.src.country == "UK"', code: 'unknown-country-code', after: 'ip.src.country == "GB"' },
  { before: 'ip.src.country == "EL"', code: 'unknown-country-code', after: 'ip.src.country == "GR"' },
  { before: 'ip.dst.country == "Brazil"', code: 'unknown-country-code', after: 'ip.dst.country == "BR"' },
  { before: 'ip.proto == "tpc"', code: 'unknown-protocol', after: 'ip.proto == "tcp"' },
  { before: 'ip.proto == "icmpv6"', code: 'unknown-protocol', after: 'ip.proto == "ipv6-icmp"' },
  { before: 'ip.proto == "TCP"', code: 'protocol-case', after: 'ip.proto == "tcp"' },
  { before: 'tcp.dstprot == 22', code: 'unknown-field', after: 'tcp.dstport == 22' },
  { before: 'ip.scr == 192.0.2.1', code: 'unknown-field', after: 'ip.src == 192.0.2.1' },
  { before: 'bit_slce(ip, 0, 8) == 1', code: 'unknown-function', after: 'bit_slice(ip, 0, 8) == 1' },
  { before: 'bit_slice(TCP, 0, 8) == 1', code: 'bit-slice-arguments', after: 'bit_slice(tcp, 0, 8) == 1' },
  { before: 'bit_slice("udp", 64, 72) == 0x45', code: 'bit-slice-arguments', after: 'bit_slice(udp, 64, 72) == 0x45' },
  { before: 'bit_slice(udp, 0x40, 72) == 0x45', code: 'bit-slice-arguments', after: 'bit_slice(udp, 64, 72) == 0x45' },
  // lists
  { before: 'ip.src in $svc.malwre', code: 'unknown-list', after: 'ip.src in $svc.malware' },
  { before: 'ip.src in $my_lsit', code: 'unknown-list', after: 'ip.src in $my_list', options: { phase: 'magic_transit', knownLists: ['my_list'] } },
  { before: 'ip.src in $My_List', code: 'invalid-list-name', after: 'ip.src in $my_list' },
  { before: 'ip.src in $svc.VPN', code: 'invalid-list-name', after: 'ip.src in $svc.vpn' },
];

function codes(problems: readonly Problem[]): string[] {
  return problems.map((p) => p.code);
}

describe('the first fix of each problem makes it go away', () => {
  for (const row of ROWS) {
    it(`${row.code}: ${JSON.stringify(row.before)}`, () => {
      const options = row.options ?? MAGIC_TRANSIT;
      const before = checkExpression(row.before, options);
      const target = before.problems.find((p) => p.code === row.code);
      assert.ok(target, `${JSON.stringify(row.before)} has a ${row.code} problem (found: ${codes(before.problems).join(', ') || 'none'})`);
      assert.ok(target.fixes && target.fixes.length > 0, `${row.code} offers a fix`);
      const after = applyEdits(row.before, target.fixes[0].edits);
      assert.equal(after, row.after);
      const rechecked = checkExpression(after, options);
      assert.ok(!codes(rechecked.problems).includes(row.code), `no ${row.code} left in ${JSON.stringify(after)}`);
      assert.deepEqual(codes(rechecked.problems), [...(row.remaining ?? [])], `no problems left in ${JSON.stringify(after)}`);
    });
  }
});

describe('fixes in context', () => {
  it('every TAB between tokens has its own fix; applying all of them leaves none', () => {
    const text = 'udp.dstport\t==\t5060\tand\tsip';
    const problems = checkExpression(text, MAGIC_TRANSIT).problems;
    assert.deepEqual(codes(problems), ['tab-whitespace', 'tab-whitespace', 'tab-whitespace', 'tab-whitespace']);
    const fixed = applyEdits(text, problems.flatMap((p) => p.fixes![0].edits));
    assert.equal(fixed, 'udp.dstport == 5060 and sip');
    assert.deepEqual(checkExpression(fixed, MAGIC_TRANSIT).problems, []);
  });

  it('every comma of a set; applying all of them leaves none', () => {
    const text = 'ip.src in {192.0.2.1, 192.0.2.2,192.0.2.3}';
    const problems = checkExpression(text, MAGIC_TRANSIT).problems;
    assert.deepEqual(codes(problems), ['comma-in-set', 'comma-in-set']);
    const fixed = applyEdits(text, problems.flatMap((p) => p.fixes![0].edits));
    assert.equal(fixed, 'ip.src in {192.0.2.1 192.0.2.2 192.0.2.3}');
    assert.deepEqual(checkExpression(fixed, MAGIC_TRANSIT).problems, []);
  });

  it('a Boolean comparison under `not` keeps the `not`', () => {
    const text = 'not tcp.flags.syn == false';
    const [problem] = checkExpression(text, MAGIC_TRANSIT).problems;
    const fixed = applyEdits(text, problem.fixes![0].edits);
    assert.equal(fixed, 'not not tcp.flags.syn');
    assert.deepEqual(checkExpression(fixed, MAGIC_TRANSIT).problems, []);
  });

  it('fixes one problem of several, leaving the others where they were', () => {
    const text = 'ip.src.country == "br" and ip.proto == "tpc"';
    const problems = checkExpression(text, MAGIC_TRANSIT).problems;
    assert.deepEqual(codes(problems), ['country-code-case', 'unknown-protocol']);
    const fixed = applyEdits(text, problems[0].fixes![0].edits);
    assert.equal(fixed, 'ip.src.country == "BR" and ip.proto == "tpc"');
    assert.deepEqual(codes(checkExpression(fixed, MAGIC_TRANSIT).problems), ['unknown-protocol']);
  });
});

/**
 * Every fix offered for any expression below (not only the first) removes one problem of
 * its code; and every code seen offering a fix has a row in the table above.
 */
const CORPUS: readonly string[] = [
  ...ROWS.map((row) => row.before),
  'ip.src.country == "united"',
  'ip.src.country in {"de" "fr" "UK"}',
  'tcp.flags.sin or tcp.flags.ak',
  'udp.dstport in {60000..70000 0..10}',
  'tcp.dstport in {22,,443}',
  'ip.proto in {6 17 "ICMP"}',
  'ip.src == "2001:db8::1" or ip.dst in 2001:db8::/32',
  'sip == 1 or tcp.flags.fin != 0',
  'cf.colo.name == "\\r\\n"',
  'ip.dst in {10.1.2.3/16 2001:db8::1/64}',
  'tcp.dstport == 22 OR tcp.dstport == 23',
  'tcp.dstport in {-0x1..0X5 0o7}',
  'cf.colo.name ~ 28:2e:2a:29 or cf.colo.name strict   wildcard 2a:61',
];

describe('every offered fix removes its problem', () => {
  const codesWithFixes = new Set<string>();
  for (const text of CORPUS) {
    it(JSON.stringify(text), () => {
      const problems = checkExpression(text, MAGIC_TRANSIT).problems;
      for (const p of problems) {
        for (const fix of p.fixes ?? []) {
          codesWithFixes.add(p.code);
          const count = (t: string) => checkExpression(t, MAGIC_TRANSIT).problems.filter((q) => q.code === p.code).length;
          const fixed = applyEdits(text, fix.edits);
          assert.ok(count(fixed) < count(text), `${fix.title} on ${JSON.stringify(text)} gives ${JSON.stringify(fixed)}, which still has as many ${p.code} problems`);
        }
      }
    });
  }
  it('the table covers every code that offers a fix', () => {
    const covered = new Set(ROWS.map((row) => row.code));
    assert.ok(codesWithFixes.size > 10);
    assert.deepEqual([...codesWithFixes].filter((code) => !covered.has(code)), []);
  });
});
