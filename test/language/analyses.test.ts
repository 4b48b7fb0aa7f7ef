/**
 * The static analyses (server/src/language/analyses.ts): always-true / always-false,
 * redundant-set-member, skip-skips-nothing and shadowed-rule. Rows mark every expected span
 * ⟦like this⟧, in order, with one code per marker; a row without markers expects no problem at
 * all. Sound only: the negative rows matter as much as the positive ones.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

import { STYLE_CODES } from './table';
import { checkExpression } from '../../server/src/language/checker';
import { FIELDS } from '../../server/src/language/catalogue/fields';
import { transportFieldOf } from '../../server/src/language/catalogue/transport';
import type { Expression } from '../../server/src/language/ast';
import type { Problem } from '../../server/src/language/problem';
import { formatOfPath } from '../../server/src/documents/classify';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { checkRuleset } from '../../server/src/documents/ruleset';
import type { DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { DiagnosticTag } from 'vscode-languageserver';
import { diagnostics } from '../../server/src/features/diagnostics';
import { modelOf, settings, textOf } from '../features/harness';

const NEW_CODES = ['always-true', 'always-false', 'redundant-set-member', 'skip-skips-nothing', 'shadowed-rule'];

// ---------------------------------------------------------------- rows

/** The input without markers, and the marked spans in the order their markers open (they nest). */
function unmark(marked: string): { input: string; spans: { start: number; end: number }[] } {
  let input = '';
  const spans: { start: number; end: number }[] = [];
  const open: number[] = [];
  for (const c of marked) {
    if (c === '⟦') {
      open.push(spans.length);
      spans.push({ start: input.length, end: -1 });
    } else if (c === '⟧') spans[open.pop()!].end = input.length;
    else input += c;
  }
  assert.equal(open.length, 0, `unclosed marker in ${marked}`);
  return { input, spans };
}

function shown(input: string, p: { code: string; span: { start: number; end: number } }): string {
  return `${p.code} ${input.slice(0, p.span.start)}⟦${input.slice(p.span.start, p.span.end)}⟧${input.slice(p.span.end)}`;
}

function check(text: string, phase = 'magic_transit'): Problem[] {
  // The style lints (`a and b or c`) are lints.test.ts's.
  return checkExpression(text, { phase }).problems.filter((p) => !STYLE_CODES.has(p.code));
}

/** A row: the marked expression and the code of each marker, in order of the markers. */
function row(marked: string, ...codes: string[]): void {
  rowIn('magic_transit', marked, ...codes);
}

/** A row of a phase. */
function rowIn(phase: string, marked: string, ...codes: string[]): void {
  it(`${marked}${codes.length > 0 ? ` → ${codes.join(', ')}` : ''}`, () => {
    const { input, spans } = unmark(marked);
    assert.equal(spans.length, codes.length, 'one code per marker');
    const actual = check(input, phase).map((p) => shown(input, p)).sort();
    const expected = spans.map((span, i) => shown(input, { code: codes[i], span })).sort();
    assert.deepEqual(actual, expected);
    for (const p of check(input, phase)) if (NEW_CODES.includes(p.code)) assert.equal(p.severity, 'warning');
  });
}

function applyEdits(text: string, edits: readonly { span: { start: number; end: number }; newText: string }[]): string {
  for (const e of [...edits].sort((a, b) => b.span.start - a.span.start)) text = text.slice(0, e.span.start) + e.newText + text.slice(e.span.end);
  return text;
}

describe('always-true and always-false: one comparison', () => {
  row('⟦ip.len in {0..65535}⟧', 'always-true');
  row('⟦ip.len >= 0⟧', 'always-true');
  row('⟦ip.len <= 65535⟧', 'always-true');
  row('⟦tcp.dstport > 65535⟧', 'always-false');
  row('⟦tcp.dstport < 0⟧', 'always-false');
  row('⟦ip.ttl ge 0⟧', 'always-true');
  row('⟦ip.ttl > 255⟧', 'always-false');
  row('⟦ip.ttl in {0..100 101..255}⟧', 'always-true');
  row('⟦ip.src in {0.0.0.0/0 ::/0}⟧', 'always-true');
  row('⟦ip.src.asnum >= 0⟧', 'always-true');
  row('sip and ⟦ip.len >= 0⟧', 'always-true');
  row('⟦not ⟦ip.len >= 0⟧⟧', 'always-false', 'always-true');
  // A packet without a TCP header (a UDP one) has no `tcp.dstport`: every port is not every packet.
  row('tcp.dstport in {0..65535}');
  row('tcp.dstport >= 0');
  row('not tcp.dstport >= 0');
  row('icmp.type in {0..100 101..255}');
  // Narrower than the type: TTL is a byte, AS numbers are 32-bit.
  row('ip.ttl < 255');
  row('ip.src.asnum < 4294967295');
  row('tcp.dstport in {0..1023}');
  row('tcp.dstport > 0');
  row('tcp.dstport >= 1');
  row('tcp.dstport < 65535');
  row('ip.src in {0.0.0.0/0}', );
  row('ip.src in {::/0}');
  row('ip.src in {0.0.0.0/1 128.0.0.0/1}');
  row('true');
  // The analyses leave a literal `false` alone; the lints say it once, under their own code.
  row('⟦false⟧', 'literal-false');
  row('not true');
  // Already value-out-of-range: not repeated.
  row('udp.dstport == ⟦70000⟧', 'value-out-of-range');
  row('tcp.dstport > ⟦70000⟧', 'value-out-of-range');
});

describe('always-true and always-false: combinations on one field', () => {
  row('⟦tcp.dstport == 80 and tcp.dstport == 443⟧', 'always-false');
  row('⟦ip.len == 1 or ip.len != 1⟧', 'always-true');
  row('⟦tcp.dstport == 1 or not tcp.dstport == 1⟧', 'always-true');
  row('⟦tcp.dstport in {80} and not tcp.dstport in {80}⟧', 'always-false');
  row('⟦tcp.dstport > 100 && tcp.dstport < 50⟧', 'always-false');
  row('⟦ip.len < 1024 or ip.len >= 1000⟧', 'always-true');
  row('⟦tcp.flags.syn and not tcp.flags.syn⟧', 'always-false');
  row('⟦sip or !sip⟧', 'always-true');
  row('⟦ip.src.country == "BR" and ip.src.country == "DE"⟧', 'always-false');
  row('⟦ip.src in {10.0.0.0/8} and ip.src in {192.168.0.0/16}⟧', 'always-false');
  row('⟦ip.src == 10.0.0.1 xor ip.src != 10.0.0.1⟧', 'always-true');
  row('⟦tcp.dstport in {1..10} and (tcp.dstport == 20 or tcp.dstport == 30)⟧', 'always-false');
  // A run inside a longer chain: the run, and the whole expression it collapses.
  row('⟦ip.ttl > 3 and ⟦tcp.dstport == 80 and tcp.dstport == 443⟧⟧', 'always-false', 'always-false');
  row('⟦⟦tcp.dstport == 80 and ip.ttl > 3 and tcp.dstport == 443⟧ and ip.len > 4⟧', 'always-false', 'always-false');
  row('⟦ip.ttl > 3 or ⟦ip.len < 10 or ip.len > 5⟧⟧', 'always-true', 'always-true');
  row('ip.ttl > 3 or (⟦tcp.dstport == 1 and tcp.dstport == 2⟧)', 'always-false');
  row('⟦not (⟦ip.len == 1 or ip.len != 1⟧)⟧', 'always-false', 'always-true');

  row('tcp.dstport == 80 or tcp.dstport == 443');
  // Both false for a UDP packet, and `!=` of a field the packet lacks may be false (see the transport rows).
  row('tcp.dstport == 1 or tcp.dstport != 1');
  row('tcp.dstport < 1024 or tcp.dstport >= 1000');
  row('tcp.dstport >= 80 and tcp.dstport <= 80');
  row('tcp.dstport in {80 443} and not tcp.dstport in {80}');
  row('tcp.dstport != 80 and tcp.dstport != 443');
  row('tcp.dstport < 1024 or tcp.dstport > 1024');
  row('tcp.flags.syn and not tcp.flags.ack');
  row('tcp.flags & 0x02 and not tcp.flags & 0x10');
  row('ip.src in $svc.vpn and not ip.src in $svc.malware');
  row('ip.src in {10.0.0.0/8} and ip.src in {10.1.0.0/16}');
  row('ip.src in {10.0.0.0/8} and ip.dst in {192.168.0.0/16}');
  row('ip.src.country == "BR" or ip.src.country != "DE"');
  row('cf.colo.name contains "ams" and not cf.colo.name contains "ams0"');
  row('bit_slice(udp, 0, 8) == 1 and bit_slice(udp, 8, 16) == 2');
  row('ip.proto == "tcp" and tcp.dstport == 22 or ip.proto == "udp" and udp.dstport == 53');
  row('(tcp.dstport == 80 and ip.ttl > 3) or (tcp.dstport == 443 and ip.ttl < 3)');
  row('tcp.dstport == 80 xor ip.ttl == 3');
  row('sip and false');
  row('sip or true');
});

describe('always-true and always-false in the HTTP phases: a field has one value, or none', () => {
  const http = (marked: string, ...codes: string[]) => rowIn('http_request_firewall_custom', marked, ...codes);
  http('⟦http.host == "a" and http.host == "b"⟧', 'always-false');
  http('⟦http.host in {"a" "b"} and not http.host in {"a" "b"}⟧', 'always-false');
  http('⟦cf.bot_management.score < 10 and cf.bot_management.score in {20 30}⟧', 'always-false');
  http('⟦ip.src in {10.0.0.0/8} and ip.src in {11.0.0.0/8}⟧', 'always-false');
  http('⟦ssl or not ssl⟧', 'always-true');
  http('⟦http.host != "a" or not http.host != "a"⟧', 'always-true');
  http('⟦http.host == "a" or not http.host == "a"⟧', 'always-true');
  // A request may lack the field (no bot score without Bot Management), and `!=` of nothing may
  // be false: neither holds of every request.
  http('http.host == "a" or http.host != "a"');
  http('cf.bot_management.score == 1 or cf.bot_management.score != 1');
  // No documented range is taken as a bound: `score >= 1` may not hold of a request without a score.
  http('cf.bot_management.score >= 1');
  http('cf.bot_management.score < 1 or cf.bot_management.score >= 1');
  // Index expressions and calls are opaque: two different ones say nothing of each other.
  http('http.request.headers["a"][0] == "x" and http.request.headers["a"][0] == "y"');
  http('lower(http.host) == "x" and lower(http.host) == "y"');
  http('⟦lower(http.host) == "x" or not lower(http.host) == "x"⟧', 'always-true');
  http('any(http.request.headers.names[*] == "a") and not any(http.request.headers.names[*] == "b")');
  http('⟦any(http.request.headers.names[*] == "a") and not any(http.request.headers.names[*] == "a")⟧', 'always-false');
  http('⟦the whole⟧'.replace('⟦the whole⟧', 'http.host contains "a"'));
  it('says "request" where the packet phases say "packet"', () => {
    const [p] = check('http.host == "a" and http.host == "b"', 'http_request_firewall_custom');
    assert.match(p.message, /so no request satisfies them all$/);
  });
});

describe('always-false: a packet has one transport header', () => {
  row('⟦ip.proto == "udp" and tcp.dstport == 22⟧', 'always-false');
  row('⟦tcp.dstport == 22 and udp.srcport == 53⟧', 'always-false');
  row('⟦sip and ip.proto == "tcp"⟧', 'always-false');
  row('⟦icmp.type == 8 and tcp.dstport == 22⟧', 'always-false');
  row('⟦tcp.flags.syn and ip.proto != "tcp"⟧', 'always-false');
  row('⟦tcp.flags & 0x02 and udp.dstport == 53⟧', 'always-false');
  row('⟦bit_slice(tcp, 0, 16) == 53 and ip.proto == "udp"⟧', 'always-false');
  row('⟦ip.proto in {"udp" "gre"} and tcp.dstport in {22 80}⟧', 'always-false');
  row('⟦ip.proto == "udp" and (tcp.dstport == 22 or tcp.dstport == 23)⟧', 'always-false');
  // A group every alternative of which needs the header needs it too; one that needs it in one part of an `and`.
  row('⟦ip.proto == "udp" and (tcp.dstport == 22 or tcp.srcport == 22)⟧', 'always-false');
  row('⟦(tcp.dstport == 22 or tcp.srcport == 22) and (udp.dstport == 53 or udp.srcport == 53)⟧', 'always-false');
  row('⟦sip and (tcp.flags.syn or tcp.dstport == 22)⟧', 'always-false');
  row('⟦ip.proto == "udp" and (tcp.dstport == 22 and ip.ttl > 3 or tcp.srcport == 22)⟧', 'always-false');
  // `tcp.dstport >= 0` tests only that the packet has a TCP header.
  row('⟦sip and tcp.dstport >= 0⟧', 'always-false');
  row('⟦ip.ttl > 3 and ⟦ip.proto == "udp" and tcp.dstport == 22⟧⟧', 'always-false', 'always-false');
  row('ip.proto == "tcp" and tcp.dstport == 22 or ⟦ip.proto == "udp" and tcp.dstport == 53⟧', 'always-false');

  row('ip.proto == "tcp" and tcp.dstport == 22');
  row('ip.proto in {"tcp" "udp"} and tcp.dstport == 22');
  row('ip.proto == "icmp" and icmp.type == 8');
  // `icmp.*` is taken to cover ICMPv6 too (catalogue/transport.ts says why).
  row('ip.proto == "ipv6-icmp" and icmp.type == 128');
  row('tcp.dstport == 22 or udp.dstport == 53');
  row('ip.proto == "udp" and (tcp.dstport == 22 or udp.srcport == 22)');
  row('ip.proto == "udp" and (tcp.dstport == 22 or ip.ttl > 3)');
  row('ip.proto == "udp" and not (tcp.dstport == 22 or tcp.srcport == 22)');
  row('ip.proto == "udp" and (tcp.dstport == 22 or tcp.srcport == 22 xor ip.ttl > 3)');
  row('sip or ip.proto == "tcp"');
  // A packet without the header satisfies the negation.
  row('not tcp.dstport == 22 and ip.proto == "udp"');
  row('not tcp.flags.syn and udp.dstport == 53');
  row('not sip and ip.proto == "tcp"');
  // The reference engine takes `!=` of a field the packet lacks as true, unless configured otherwise.
  row('tcp.dstport != 22 and ip.proto == "udp"');
  row('bit_slice(tcp, 0, 8) != 0 and ip.proto == "udp"');
  // A TCP packet need not carry its TCP header (a fragment after the first does not).
  row('ip.proto == "tcp" and not tcp.dstport >= 0');
  // A mistake that has its own warning is not made to contradict `ip.proto` too.
  row('ip.proto == "udp" and tcp.dstport == ⟦70000⟧', 'value-out-of-range');

  it('names the parts that contradict each other, as related information', () => {
    const cases: [string, string, [string, string][]][] = [
      [
        'ip.proto == "udp" and tcp.dstport == 22',
        '`ip.proto == "udp" and tcp.dstport == 22` is always false: `tcp.dstport == 22` holds only for TCP packets, which `ip.proto == "udp"` rules out, so no packet satisfies them all',
        [['tcp.dstport == 22', '`tcp.dstport == 22`, which holds only for TCP packets'], ['ip.proto == "udp"', '`ip.proto == "udp"`, which rules out TCP packets']],
      ],
      [
        'tcp.dstport == 22 and ip.ttl < 5 and udp.srcport == 53',
        '`tcp.dstport == 22 and ip.ttl < 5 and udp.srcport == 53` is always false: `tcp.dstport == 22` holds only for TCP packets and `udp.srcport == 53` only for UDP ones, and no packet is both',
        [['tcp.dstport == 22', '`tcp.dstport == 22`, which holds only for TCP packets'], ['udp.srcport == 53', '`udp.srcport == 53`, which holds only for UDP packets']],
      ],
      [
        'ip.proto == "udp" and (tcp.dstport == 22 or tcp.srcport == 22)',
        '`ip.proto == "udp" and (tcp.dstport == 22 or tcp.srcport == 22)` is always false: `tcp.dstport == 22 or tcp.srcport == 22` holds only for TCP packets, which `ip.proto == "udp"` rules out, so no packet satisfies them all',
        [['tcp.dstport == 22 or tcp.srcport == 22', '`tcp.dstport == 22 or tcp.srcport == 22`, which holds only for TCP packets'], ['ip.proto == "udp"', '`ip.proto == "udp"`, which rules out TCP packets']],
      ],
      [
        // Each allows one of ICMP's two protocols; together, neither.
        'ip.proto in {"icmp" "tcp"} and ip.proto in {"ipv6-icmp" "tcp"} and icmp.type == 8',
        '`ip.proto in {"icmp" "tcp"} and ip.proto in {"ipv6-icmp" "tcp"} and icmp.type == 8` is always false: `icmp.type == 8` holds only for ICMP packets, which `ip.proto in {"icmp" "tcp"}` and `ip.proto in {"ipv6-icmp" "tcp"}` together rule out, so no packet satisfies them all',
        [
          ['icmp.type == 8', '`icmp.type == 8`, which holds only for ICMP packets'],
          ['ip.proto in {"icmp" "tcp"}', '`ip.proto in {"icmp" "tcp"}`, one of 2 parts that together rule out ICMP packets'],
          ['ip.proto in {"ipv6-icmp" "tcp"}', '`ip.proto in {"ipv6-icmp" "tcp"}`, one of 2 parts that together rule out ICMP packets'],
        ],
      ],
    ];
    for (const [input, message, related] of cases) {
      const found = check(input).filter((p) => p.code === 'always-false');
      assert.equal(found.length, 1, input);
      assert.equal(found[0].message, message);
      assert.deepEqual(found[0].related?.map((r) => [input.slice(r.span.start, r.span.end), r.message]), related);
    }
  });

  it('in a file, the related places are the parts', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: sip and ip.proto == "tcp"\n';
    const problems = checkRuleset(text, 'yaml', { cache: new ExpressionCache() });
    assert.deepEqual(problems.map((p) => p.code), ['always-false']);
    assert.equal(text.slice(problems[0].start, problems[0].end), 'sip and ip.proto == "tcp"');
    assert.deepEqual(problems[0].related?.map((r) => text.slice(r.start, r.end)), ['sip', 'ip.proto == "tcp"']);
  });

  it('every field of a transport header is in the table the analyses and the evaluator read', () => {
    for (const name of FIELDS.keys()) {
      const header = /^(tcp|udp|icmp)(\.|$)/.exec(name)?.[1];
      assert.equal(transportFieldOf(name)?.header.name, header ?? (name === 'sip' ? 'udp' : undefined), name);
    }
  });
});

describe('redundant-set-member', () => {
  row('tcp.dstport in {80 ⟦80⟧}', 'redundant-set-member');
  row('tcp.dstport in {⟦80⟧ 70..90}', 'redundant-set-member');
  row('tcp.dstport in {70..90 ⟦80⟧}', 'redundant-set-member');
  row('tcp.dstport in {80 ⟦0x50⟧}', 'redundant-set-member');
  row('tcp.dstport in {1..5 6..10 ⟦3..7⟧}', 'redundant-set-member');
  row('ip.src in {10.0.0.0/8 ⟦10.1.0.0/16⟧}', 'redundant-set-member');
  row('ip.src in {⟦10.1.2.3⟧ 10.0.0.0/8}', 'redundant-set-member');
  row('ip.src in {2001:db8::/32 ⟦2001:db8::1⟧ 192.0.2.1}', 'redundant-set-member');
  row('ip.src.country in {"BR" ⟦"BR"⟧}', 'redundant-set-member');
  row('cf.colo.name in {"ams01" ⟦r"ams01"⟧}', 'redundant-set-member');
  row('tcp.dstport in {80 81}');
  row('tcp.dstport in {1..5 6..10}');
  row('tcp.dstport in {1..5 3..8}');
  row('ip.src in {10.0.0.0/8 11.0.0.0/8}');
  row('ip.src in {10.0.0.0/8 ::ffff:10.0.0.1}');
  row('ip.src.country in {"BR" ⟦"br"⟧}', 'country-code-case');

  it('names the member that covers it, as related information, and removes the member with its space', () => {
    const cases: [string, string, string][] = [
      ['tcp.dstport in {80 80}', 'tcp.dstport in {80}', '80'],
      ['tcp.dstport in {80 70..90}', 'tcp.dstport in {70..90}', '70..90'],
      ['ip.src in {10.0.0.0/8 10.1.0.0/16}', 'ip.src in {10.0.0.0/8}', '10.0.0.0/8'],
      ['ip.src.country in {"BR"   "BR" "DE"}', 'ip.src.country in {"BR" "DE"}', '"BR"'],
    ];
    for (const [input, fixed, coverer] of cases) {
      const problems = check(input).filter((p) => p.code === 'redundant-set-member');
      assert.equal(problems.length, 1, input);
      const [p] = problems;
      assert.ok(p.message.includes(coverer), p.message);
      assert.deepEqual(p.related?.map((r) => input.slice(r.span.start, r.span.end)), [coverer]);
      assert.equal(applyEdits(input, p.fixes![0].edits), fixed);
      assert.deepEqual(check(fixed), [], fixed);
    }
  });

  it('removals never overlap: all of them at once leave the set that was meant', () => {
    for (const [input, fixed] of [
      ['tcp.dstport in {80 80 70..90}', 'tcp.dstport in {70..90}'],
      ['tcp.dstport in {1 1 2 2 1..2 3}', 'tcp.dstport in {1 2 3}'],
      ['ip.src in {10.1.0.0/16 10.2.0.0/16 10.0.0.0/8 10.3.0.0/16}', 'ip.src in {10.0.0.0/8}'],
    ]) {
      const edits = check(input).filter((p) => p.code === 'redundant-set-member').flatMap((p) => p.fixes![0].edits);
      const sorted = [...edits].sort((a, b) => a.span.start - b.span.start);
      for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i - 1].span.end <= sorted[i].span.start, `${input}: overlapping removals`);
      assert.equal(applyEdits(input, edits), fixed);
      assert.deepEqual(check(fixed), []);
    }
  });

  it('in a file, the related place is the covering member', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport in {22 70..90 80}\n';
    const problems = checkRuleset(text, 'yaml', { cache: new ExpressionCache() });
    assert.deepEqual(problems.map((p) => p.code), ['redundant-set-member']);
    const [p] = problems;
    assert.equal(text.slice(p.start, p.end), '80');
    assert.equal(text.slice(p.related![0].start, p.related![0].end), '70..90');
  });
});

// ---------------------------------------------------------------- rulesets

type Rule = { action: string; expression: string; ruleset?: boolean; enabled?: boolean; logging?: boolean; parameters?: string };

function yamlOf(rules: readonly Rule[]): string {
  const lines = ['name: x', 'kind: root', 'phase: magic_transit', 'rules:'];
  for (const r of rules) {
    lines.push(`  - action: ${r.action}`);
    if (r.ruleset) lines.push('    action_parameters: {ruleset: current}');
    if (r.parameters) lines.push(`    action_parameters: ${r.parameters}`);
    lines.push(`    expression: ${JSON.stringify(r.expression)}`);
    if (r.enabled !== undefined) lines.push(`    enabled: ${r.enabled}`);
    if (r.logging !== undefined) lines.push(`    logging: {enabled: ${r.logging}}`);
  }
  return `${lines.join('\n')}\n`;
}

function rulesetProblems(rules: readonly Rule[], phase = 'magic_transit'): { text: string; problems: DocumentProblem[] } {
  const text = yamlOf(rules).replace('phase: magic_transit', `phase: ${phase}`);
  return { text, problems: checkRuleset(text, 'yaml', { cache: new ExpressionCache() }) };
}

const block = (expression: string, extra: Partial<Rule> = {}): Rule => ({ action: 'block', expression, ...extra });
const skip = (expression: string, extra: Partial<Rule> = {}): Rule => ({ action: 'skip', expression, ruleset: true, ...extra });

describe('skip-skips-nothing', () => {
  it('warns on the action of a skip that comes after every other enabled rule', () => {
    const { text, problems } = rulesetProblems([block('tcp.dstport == 23'), skip('tcp.dstport == 22')]);
    assert.deepEqual(problems.map((p) => p.code), ['skip-skips-nothing']);
    const [p] = problems;
    assert.equal(p.severity, 'warning');
    assert.equal(p.start, text.lastIndexOf('skip'));
    assert.equal(p.end, text.lastIndexOf('skip') + 4);
    assert.match(p.message, /no later rule/);
    assert.match(p.message, /exempt packets from/);
  });

  it('warns in the packet phases whether logging is off or not said', () => {
    const { problems } = rulesetProblems([block('tcp.dstport == 23'), skip('tcp.dstport == 22', { logging: false })]);
    assert.deepEqual(problems.map((p) => p.code), ['skip-skips-nothing']);
  });

  it('counts only enabled rules after it', () => {
    const { problems } = rulesetProblems([block('tcp.dstport == 23'), skip('tcp.dstport == 22'), block('ip.ttl < 5', { enabled: false })]);
    assert.deepEqual(problems.map((p) => p.code), ['skip-skips-nothing']);
  });

  const quiet: [string, Rule[]][] = [
    ['a skip followed by a block', [skip('tcp.dstport == 22'), block('ip.proto == "tcp"')]],
    ['a ruleset of one skip rule', [skip('tcp.dstport == 22')]],
    ['a disabled last skip', [block('tcp.dstport == 23'), skip('tcp.dstport == 22', { enabled: false })]],
    ['a last skip that logs what it matches', [block('tcp.dstport == 23'), skip('tcp.dstport == 22', { logging: true })]],
    ['a last skip of more than this ruleset', [block('tcp.dstport == 23'), { action: 'skip', expression: 'sip', parameters: '{ruleset: current, phases: [magic_transit_managed]}' }]],
    ['a last block', [skip('tcp.dstport == 22'), block('tcp.dstport == 23')]],
  ];
  for (const [name, rules] of quiet) {
    it(`says nothing of ${name}`, () => {
      assert.deepEqual(rulesetProblems(rules).problems.map((p) => p.code), []);
    });
  }
});

describe('shadowed-rule', () => {
  function shadowed(rules: Rule[], later: number, earlier: number): void {
    const { text, problems } = rulesetProblems(rules);
    const found = problems.filter((p) => p.code === 'shadowed-rule');
    assert.equal(found.length, 1, JSON.stringify(problems.map((p) => p.message)));
    const [p] = found;
    assert.equal(p.severity, 'warning');
    const expressionAt = (i: number) => {
      const quoted = JSON.stringify(rules[i].expression);
      let at = -1;
      for (let k = 0; k <= i; k++) at = text.indexOf(`expression: ${JSON.stringify(rules[k].expression)}`, at + 1);
      return { start: at + 'expression: '.length, end: at + 'expression: '.length + quoted.length };
    };
    assert.deepEqual({ start: p.start, end: p.end }, expressionAt(later));
    assert.deepEqual({ start: p.related![0].start, end: p.related![0].end }, expressionAt(earlier));
    assert.match(p.message, new RegExp(`rule ${later + 1} .*rule ${earlier + 1}`));
  }

  it('CIDR containment and a conjunction of more', () => shadowed([block('ip.src in {10.0.0.0/8}'), block('ip.src in {10.1.0.0/16} and tcp.dstport == 22')], 1, 0));
  it('an earlier `true` shadows everything after it', () => shadowed([block('true'), block('tcp.dstport == 22')], 1, 0));
  it('set and range containment', () => shadowed([block('tcp.dstport in {20..25 80}'), block('tcp.dstport in {22 80}')], 1, 0));
  it('interval reasoning', () => shadowed([block('tcp.dstport < 1024'), block('tcp.dstport >= 10 and tcp.dstport <= 20')], 1, 0));
  it('a conjunction superset', () => shadowed([block('ip.proto == "tcp" and tcp.flags.syn'), block('tcp.flags.syn and ip.proto == "tcp" and ip.ttl < 5')], 1, 0));
  it('one side of an earlier `or`', () => shadowed([block('ip.src in {10.0.0.0/8} or tcp.dstport == 22'), block('tcp.dstport == 22 and ip.ttl < 3')], 1, 0));
  it('the same expression after a skip (the packets are skipped)', () => shadowed([skip('tcp.dstport == 22'), block('tcp.dstport == 22')], 1, 0));
  it('the same expression after a block, with another action', () => shadowed([block('sip'), skip('sip'), block('ip.ttl < 3')], 1, 0));
  it('an earlier rule that is not the one before', () => shadowed([block('ip.src in {10.0.0.0/8}'), block('ip.ttl < 5'), block('ip.src == 10.1.2.3')], 2, 0));
  it('negations: not a superset implies not the subset', () => shadowed([block('not ip.src in {10.1.0.0/16}'), block('not ip.src in {10.0.0.0/8}')], 1, 0));
  it('a TCP field after its protocol', () => shadowed([block('ip.proto == "tcp"'), block('tcp.dstport == 23')], 1, 0));
  it('a UDP verdict after a set of protocols', () => shadowed([block('ip.proto in {"udp" "gre"}'), block('sip and ip.ttl < 5')], 1, 0));
  it('TCP flags after a skip of every protocol but UDP', () => shadowed([skip('ip.proto != "udp"'), block('tcp.flags.syn and not tcp.flags.ack')], 1, 0));
  it('ICMP types after both ICMP protocols', () => shadowed([block('ip.proto == "icmp" or ip.proto == "ipv6-icmp"'), block('icmp.type == 8')], 1, 0));
  it('either header after both protocols', () => shadowed([block('ip.proto in {"tcp" "udp"}'), block('tcp.dstport == 22 or udp.dstport == 53')], 1, 0));

  const quiet: [string, Rule[]][] = [
    ['a later rule on a different field', [block('tcp.dstport == 22'), block('udp.dstport == 22')]],
    ['a disjoint CIDR block', [block('ip.src in {10.0.0.0/8}'), block('ip.src in {11.0.0.0/16}')]],
    ['a wider later rule', [block('ip.src in {10.1.0.0/16}'), block('ip.src in {10.0.0.0/8}')]],
    ['an overlapping set', [block('tcp.dstport in {22 80}'), block('tcp.dstport in {22 443}')]],
    ['a later rule with an `or`', [block('tcp.dstport == 22'), block('tcp.dstport == 22 or ip.ttl < 5')]],
    ['an earlier execute', [{ action: 'execute', expression: 'true', parameters: '{id: abc}' }, block('tcp.dstport == 22')]],
    ['an earlier skip of other phases only', [{ action: 'skip', expression: 'true', parameters: '{phases: [magic_transit_managed]}' }, block('tcp.dstport == 22')]],
    ['an earlier disabled rule', [block('true', { enabled: false }), block('tcp.dstport == 22')]],
    ['a repeat (duplicate-rule says it)', [block('tcp.dstport == 22'), block('tcp.dstport  ==  22')]],
    ['a skip followed by a block of something else', [skip('tcp.dstport in {22}'), block('ip.proto == "tcp"')]],
    ['an earlier rule with an error', [block('tcp.dstprt == 22'), block('tcp.dstport == 22')]],
    ['a later rule that never matches', [block('tcp.dstport == 22'), block('tcp.dstport == 22 and tcp.dstport == 23')]],
    ['opaque tests that differ', [block('ip.src in $svc.vpn'), block('ip.src in $svc.malware')]],
    ['string patterns', [block('cf.colo.name contains "ams"'), block('cf.colo.name contains "ams0"')]],
    ['an earlier rule true of every TCP packet, and a later UDP rule', [block('tcp.dstport >= 0'), block('udp.dstport == 53')]],
    ['a protocol after a field of its header', [block('tcp.dstport == 23'), block('ip.proto == "tcp"')]],
    ['a protocol after every value of its field (a fragment has no header)', [block('tcp.dstport >= 0'), block('ip.proto == "tcp"')]],
    ['a negated TCP field after TCP', [block('ip.proto == "tcp"'), block('not tcp.dstport == 23')]],
    ['a TCP `!=` after TCP (it may hold without the header)', [block('ip.proto == "tcp"'), block('tcp.dstport != 23')]],
    ['ICMP types after ICMPv4 only', [block('ip.proto == "icmp"'), block('icmp.type == 8')]],
    ['not SIP after UDP', [block('ip.proto == "udp"'), block('not sip')]],
    ['an earlier `false`', [block('false'), block('tcp.dstport == 22')]],
    ['a later rule on another address field', [block('ip.src in {10.0.0.0/8}'), block('ip.dst in {10.1.0.0/16}')]],
    ['an earlier country that differs', [block('ip.src.country == "BR"'), block('ip.src.country in {"BR" "AR"}')]],
  ];
  for (const [name, rules] of quiet) {
    it(`says nothing of ${name}`, () => {
      const codes = rulesetProblems(rules).problems.map((p) => p.code);
      assert.ok(!codes.includes('shadowed-rule'), codes.join(', '));
    });
  }

  it('is no duplicate-rule too, and the repeat no shadowed-rule', () => {
    const { problems } = rulesetProblems([block('tcp.dstport == 22'), block('tcp.dstport == 22'), block('tcp.dstport == 22 and ip.ttl < 5')]);
    assert.deepEqual(problems.map((p) => p.code), ['duplicate-rule', 'shadowed-rule']);
  });
});

describe('the order of the rules in the HTTP phases', () => {
  const codes = (rules: Rule[], phase: string) => rulesetProblems(rules, phase).problems.map((p) => p.code);
  it('WAF custom rules: `block` and `skip` of the current ruleset end what they match, as in the packet phases', () => {
    const waf = 'http_request_firewall_custom';
    const { problems } = rulesetProblems([block('http.host == "a"'), block('http.host == "a" and ssl')], waf);
    assert.deepEqual(problems.map((p) => p.code), ['shadowed-rule']);
    assert.match(problems[0].message, /every request it matches is already blocked by rule 1/);
    assert.deepEqual(codes([block('ip.src in {10.0.0.0/8}'), block('ip.src in {10.1.0.0/16} and ssl')], waf), ['shadowed-rule']);
    assert.deepEqual(codes([skip('http.host == "a"'), block('http.host == "a"')], waf), ['shadowed-rule']);
    assert.deepEqual(codes([block('http.host == "a"'), block('http.host == "a"')], waf), ['duplicate-rule']);
  });
  it('WAF custom rules: a last `skip` logs what it matches unless its logging is off, so only then does it do nothing', () => {
    const waf = 'http_request_firewall_custom';
    // A skip rule's `logging.enabled` defaults to true: its matches show in Security Events, a
    // stand-in for the Enterprise-only `log` action.
    assert.deepEqual(codes([block('http.host == "b"'), skip('http.host == "a"')], waf), []);
    assert.deepEqual(codes([block('http.host == "b"'), skip('http.host == "a"', { logging: true })], waf), []);
    const { problems } = rulesetProblems([block('http.host == "b"'), skip('http.host == "a"', { logging: false })], waf);
    assert.deepEqual(problems.map((p) => p.code), ['skip-skips-nothing']);
    assert.match(problems[0].message, /exempt requests from/);
    assert.doesNotMatch(problems[0].message, /packet/);
  });
  it('WAF custom rules: a field that may be absent shadows nothing it does not cover', () => {
    const waf = 'http_request_firewall_custom';
    assert.deepEqual(codes([block('http.host != "a"'), block('not http.host == "a"')], waf), []);
    assert.deepEqual(codes([block('cf.bot_management.score >= 1'), block('cf.bot_management.score == 5')], waf), ['shadowed-rule']);
    assert.deepEqual(codes([block('cf.bot_management.score == 5'), block('cf.bot_management.score >= 1')], waf), []);
  });
  for (const phase of ['http_ratelimit', 'http_request_transform', 'http_response_headers_transform', 'http_request_dynamic_redirect']) {
    it(`${phase}: rules that count, rewrite or redirect: nothing is said of their order or repeats`, () => {
      // `block` and `skip` stand for any action here; whether the phase allows them is another check's.
      const orderCodes = (rules: Rule[]) => codes(rules, phase).filter((c) => c !== 'action-not-allowed');
      assert.deepEqual(orderCodes([block('http.host == "a"'), block('http.host == "a" and ssl'), block('http.host == "a" and ssl')]), []);
      assert.deepEqual(orderCodes([block('http.host == "b"'), skip('http.host == "a"')]), []);
    });
  }
});

describe('in the editor', () => {
  it('fades a redundant member and a shadowed rule, and points each at what covers it', () => {
    const text = yamlOf([block('ip.src in {10.0.0.0/8 10.1.0.0/16}'), block('ip.src in {10.2.0.0/16} and tcp.dstport == 22')]);
    const model = modelOf(text, 'yaml');
    const found = diagnostics(model, settings()).map((d) => [d.code, textOf(text, d.range), d.tags, d.relatedInformation?.map((r) => textOf(text, r.location.range))]);
    assert.deepEqual(found, [
      ['redundant-set-member', '10.1.0.0/16', [DiagnosticTag.Unnecessary], ['10.0.0.0/8']],
      ['shadowed-rule', '"ip.src in {10.2.0.0/16} and tcp.dstport == 22"', [DiagnosticTag.Unnecessary], ['"ip.src in {10.0.0.0/8 10.1.0.0/16}"']],
    ]);
  });
});

// ---------------------------------------------------------------- the examples

describe('the examples', () => {
  const examples = join(__dirname, '..', '..', 'examples');
  for (const name of readdirSync(examples).filter((n) => /\.ruleset\.(json|ya?ml)$/.test(n))) {
    it(`${name} gets none of the new warnings`, () => {
      const problems = checkRuleset(readFileSync(join(examples, name), 'utf8'), formatOfPath(name)!, { cache: new ExpressionCache() });
      assert.deepEqual(problems.filter((p) => NEW_CODES.includes(p.code)).map((p) => p.message), []);
    });
  }
});

// ---------------------------------------------------------------- property: no false positive

type Node =
  | { kind: 'cmp'; op: '==' | '!=' | '<' | '<=' | '>' | '>='; value: number }
  | { kind: 'in'; items: readonly (number | readonly [number, number])[] }
  | { kind: 'not'; operand: Node }
  | { kind: 'and' | 'or' | 'xor'; operands: readonly Node[] };

/**
 * A packet without the field's transport header: every comparison of the field is false, but
 * `!=`, which is false as the evaluator takes it (`ne-false`) and true as the reference engine
 * does by default (`ne-true`).
 */
type Absent = 'absent, ne-false' | 'absent, ne-true';

/** The truth of a parsed expression for one value of its only field (comparisons on it only). */
function evaluate(node: Expression, v: bigint | Absent): boolean {
  switch (node.kind) {
    case 'group':
      return evaluate(node.inner, v);
    case 'not':
      return !evaluate(node.operand, v);
    case 'boolean':
      return node.value;
    case 'logical': {
      const values = node.operands.map((o) => evaluate(o, v));
      if (node.operator === 'and') return values.every(Boolean);
      if (node.operator === 'or') return values.some(Boolean);
      return values.reduce((a, b) => a !== b);
    }
    case 'quantifier':
      throw new Error('no quantifier in these tests');
    case 'comparison': {
      const rhs = node.rhs!;
      if (typeof v === 'string') return node.operator!.operator === 'ne' && v === 'absent, ne-true';
      switch (node.operator!.operator) {
        case 'in':
          assert.equal(rhs.kind, 'set');
          return (rhs as { items: readonly { kind: string; value?: bigint; from?: bigint; to?: bigint }[] }).items.some((i) => (i.kind === 'integer' ? i.value === v : i.from! <= v && v <= i.to!));
        default: {
          assert.equal(rhs.kind, 'integer');
          const n = (rhs as { value: bigint }).value;
          const op = node.operator!.operator;
          return op === 'eq' ? v === n : op === 'ne' ? v !== n : op === 'lt' ? v < n : op === 'le' ? v <= n : op === 'gt' ? v > n : v >= n;
        }
      }
    }
  }
}

function print(node: Node, field: string): string {
  switch (node.kind) {
    case 'cmp':
      return `${field} ${node.op} ${node.value}`;
    case 'in':
      return `${field} in {${node.items.map((i) => (typeof i === 'number' ? `${i}` : `${Math.min(i[0], i[1])}..${Math.max(i[0], i[1])}`)).join(' ')}}`;
    case 'not':
      return `not (${print(node.operand, field)})`;
    default:
      return node.operands.map((o) => (o.kind === 'cmp' || o.kind === 'in' ? print(o, field) : `(${print(o, field)})`)).join(` ${node.kind} `);
  }
}

function nodes(max: number): fc.Arbitrary<Node> {
  const value = fc.oneof(fc.integer({ min: -2, max: 12 }), fc.integer({ min: max - 3, max: max + 2 }), fc.integer({ min: 0, max }));
  const { node } = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ kind: fc.constant('cmp' as const), op: fc.constantFrom('==' as const, '!=' as const, '<' as const, '<=' as const, '>' as const, '>=' as const), value }),
      fc.record({ kind: fc.constant('in' as const), items: fc.array(fc.oneof(value, fc.tuple(value, value)), { minLength: 1, maxLength: 4 }) }),
      fc.record({ kind: fc.constant('not' as const), operand: tie('node') }),
      fc.record({ kind: fc.constantFrom('and' as const, 'or' as const, 'xor' as const), operands: fc.array(tie('node'), { minLength: 2, maxLength: 4 }) }),
    ),
  }));
  return node;
}

/**
 * Every value at which the truth of comparisons with these constants can change: checking
 * them checks the whole range, since the truth is constant between them.
 */
function criticalValues(text: string, min: number, max: number): bigint[] {
  const values = new Set<number>([min, max]);
  for (const m of text.matchAll(/-?\d+/g)) for (const d of [-1, 0, 1]) values.add(Number(m[0]) + d);
  return [...values].filter((v) => v >= min && v <= max).map(BigInt);
}

describe('property: always-false and always-true are never wrong', () => {
  for (const [field, max, absent] of [['ip.ttl', 255, []], ['tcp.dstport', 65535, ['absent, ne-false', 'absent, ne-true']]] as const) {
    it(`on random expressions over ${field}${absent.length > 0 ? ', in packets without its header too' : ''}`, () => {
      fc.assert(
        fc.property(nodes(max), (tree) => {
          const text = print(tree, field);
          const result = checkExpression(text, { phase: 'magic_transit' });
          if (result.problems.some((p) => p.severity === 'error')) return;
          const values: (bigint | Absent)[] = [...criticalValues(text, 0, max), ...absent];
          for (const p of result.problems) {
            if (p.code !== 'always-false' && p.code !== 'always-true') continue;
            const part = text.slice(p.span.start, p.span.end);
            const parsed = checkExpression(part, { phase: 'magic_transit' });
            assert.ok(parsed.ast, `the reported span \`${part}\` is an expression`);
            const expected = p.code === 'always-true';
            for (const v of values) assert.equal(evaluate(parsed.ast!, v), expected, `${p.code} on \`${part}\` in \`${text}\`, but ${field} = ${v} gives ${!expected}`);
          }
        }),
        { numRuns: 400 },
      );
    });
  }

  it('and a shadowed rule matches nothing the earlier rule does not', () => {
    fc.assert(
      fc.property(nodes(255), nodes(255), fc.constantFrom('block', 'skip'), (a, b, action) => {
        const [ea, eb] = [print(a, 'ip.ttl'), print(b, 'ip.ttl')];
        const rules = [action === 'block' ? block(ea) : skip(ea), block(eb)];
        const found = rulesetProblems(rules).problems.filter((p) => p.code === 'shadowed-rule');
        if (found.length === 0) return;
        const [ta, tb] = [checkExpression(ea).ast!, checkExpression(eb).ast!];
        for (const v of criticalValues(`${ea} ${eb}`, 0, 255)) if (evaluate(tb, v)) assert.ok(evaluate(ta, v), `ip.ttl = ${v} matches \`${eb}\` but not \`${ea}\``);
      }),
      { numRuns: 300 },
    );
  });

  it('and removing a redundant member never changes the set', () => {
    const member = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 })));
    fc.assert(
      fc.property(fc.array(member, { minLength: 2, maxLength: 6 }), (items) => {
        const text = print({ kind: 'in', items }, 'ip.ttl');
        const before = checkExpression(text).ast!;
        for (const p of checkExpression(text).problems.filter((q) => q.code === 'redundant-set-member')) {
          const after = checkExpression(applyEdits(text, p.fixes![0].edits)).ast!;
          for (let v = 0n; v <= 41n; v++) assert.equal(evaluate(after, v), evaluate(before, v), `${text} at ${v}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
