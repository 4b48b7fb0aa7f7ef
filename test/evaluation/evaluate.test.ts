import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

import { bitSlice, evaluate, evaluateExpression, evaluatePartial, EvaluationError, MissingValuesError } from '../../server/src/evaluation/evaluate';
import { wildcardMatches } from '../../server/src/evaluation/wildcard';
import { PacketError, parseLists, parsePacket, type Lists } from '../../server/src/evaluation/packet';
import { checkExpression } from '../../server/src/language/checker';

/** A full TCP packet over IPv4: every field the table below reads. */
const TCP_PACKET = {
  'ip.src': '192.0.2.7',
  'ip.dst': '198.51.100.20',
  'ip.proto': 'tcp',
  'ip.src.country': 'BR',
  'ip.dst.country': 'US',
  'ip.geoip.country': 'BR',
  'ip.src.asnum': 64496,
  'ip.len': 1500,
  'ip.ttl': 64,
  'tcp.srcport': 51515,
  'tcp.dstport': 22,
  'tcp.flags': 0x12, // SYN + ACK
  'cf.colo.name': 'ams01',
  'cf.colo.region': 'WEUR',
  sip: false,
  // Source port 53, destination port 22, sequence number 0x45000000…
  tcp: '00 35 00 16 45 00 00 00 00 00 00 00 50 12 fa f0',
  $lists: { '$svc.anonymizer': true, 'svc.vpn': false, '$svc.malware': ['192.0.2.0/28'] },
};

const V6_PACKET = {
  'ip.src': '2001:db8::7',
  'ip.dst': '::ffff:198.51.100.20',
  'ip.proto': 'udp',
  'udp.dstport': 53,
  udp: '00 35 00 35 00 1c 00 00 45',
};

const FILE_LISTS: Lists = parseLists({ my_list: ['10.0.0.0/8', '192.0.2.7'], $blocked_v6: ['2001:db8::/32'], ranged: ['192.0.2.1..192.0.2.9'] });

type Case = readonly [expression: string, expected: boolean, packet?: object];

/** Every operator, spelling and type; the packet is TCP_PACKET unless given. */
const CASES: readonly Case[] = [
  // Integers, in three bases
  ['tcp.dstport == 22', true],
  ['tcp.dstport eq 22', true],
  ['tcp.dstport == 0x16', true],
  ['tcp.dstport == 026', true],
  ['tcp.dstport == 23', false],
  ['tcp.dstport != 22', false],
  ['tcp.dstport ne 80', true],
  ['tcp.dstport < 23', true],
  ['tcp.dstport lt 22', false],
  ['tcp.dstport <= 22', true],
  ['tcp.dstport le 21', false],
  ['tcp.dstport > 21', true],
  ['tcp.dstport gt 22', false],
  ['tcp.dstport >= 22', true],
  ['tcp.dstport ge 23', false],
  ['tcp.dstport in {80 443}', false],
  ['tcp.dstport in {20..25}', true],
  ['tcp.dstport in {80 0x16}', true],
  ['tcp.srcport in {1024..65535}', true],
  ['ip.src.asnum == 64496', true],
  ['ip.ttl < 10', false],
  ['tcp.flags & 0x02', true],
  ['tcp.flags bitwise_and 0x01', false],
  ['tcp.flags & 0x11', true],
  ['tcp.flags == 0x12', true],
  // IPv4
  ['ip.src == 192.0.2.7', true],
  ['ip.src == 192.0.2.8', false],
  ['ip.src != 192.0.2.8', true],
  ['ip.src in {192.0.2.0/24}', true],
  ['ip.src in {192.0.2.0/30}', false],
  ['ip.src in {10.0.0.0/8 192.0.2.7}', true],
  ['ip.src in {192.0.2.1..192.0.2.9}', true],
  ['ip.src in {192.0.2.8..192.0.2.9}', false],
  ['ip.src in {0.0.0.0/0}', true],
  ['ip.src in {::/0}', false],
  ['ip.src < 192.0.2.8', true],
  ['ip.src >= 192.0.2.8', false],
  // IPv6
  ['ip.src == 2001:db8::7', true, V6_PACKET],
  ['ip.src == 2001:db8:0:0:0:0:0:7', true, V6_PACKET],
  ['ip.src in {2001:db8::/32}', true, V6_PACKET],
  ['ip.src in {2001:db9::/32}', false, V6_PACKET],
  ['ip.src in {2001:db8::1..2001:db8::ff}', true, V6_PACKET],
  ['ip.dst == ::ffff:198.51.100.20', true, V6_PACKET],
  // An IPv6 address is never an IPv4 one, nor in an IPv4 range
  ['ip.dst == 198.51.100.20', false, V6_PACKET],
  ['ip.dst != 198.51.100.20', true, V6_PACKET],
  ['ip.dst in {0.0.0.0/0}', false, V6_PACKET],
  ['ip.src > 1.2.3.4', false, V6_PACKET],
  // Strings
  ['ip.src.country == "BR"', true],
  ['ip.src.country == "br"', false],
  ['ip.src.country != "BR"', false],
  ['ip.src.country in {"BR" "AR"}', true],
  ['ip.src.country in {"AR" "CL"}', false],
  ['ip.src.country < "C"', true],
  ['ip.src.country > "BQ"', true],
  ['ip.src.country <= "BR"', true],
  ['ip.src.country ge "BS"', false],
  ['cf.colo.name contains "ms0"', true],
  ['cf.colo.name contains "xyz"', false],
  ['cf.colo.name matches "^ams[0-9]+$"', true],
  ['cf.colo.name ~ "^fra"', false],
  ['cf.colo.name wildcard "AMS*"', true],
  ['cf.colo.name wildcard "a*1"', true],
  ['cf.colo.name wildcard "a*2"', false],
  ['cf.colo.name strict wildcard "AMS*"', false],
  ['cf.colo.name strict wildcard "ams*"', true],
  ['cf.colo.name == r"ams01"', true],
  ['cf.colo.name == r#"ams01"#', true],
  ['cf.colo.name == "\\x61ms\\0601"', true],
  ['cf.colo.name == 61:6d:73:30:31', true],
  ['cf.colo.name == 61-6d-73-30-32', false],
  ['cf.colo.name contains 73.30', true],
  ['cf.colo.name == "São"', true, { 'cf.colo.name': 'São' }],
  ['cf.colo.name contains "ã"', true, { 'cf.colo.name': 'São' }],
  ['cf.colo.name contains "\\xc3\\xa3"', true, { 'cf.colo.name': 'São' }], // escapes are bytes: C3 A3 is ã in UTF-8
  ['cf.colo.name contains "\\xe3"', false, { 'cf.colo.name': 'São' }], // the byte E3, not the character U+00E3
  ['cf.colo.name == "S\\303\\243o"', true, { 'cf.colo.name': 'São' }],
  ['cf.colo.name wildcard "*\\xc3\\xa3*"', true, { 'cf.colo.name': 'São' }],
  ['cf.colo.name wildcard "S*O"', true, { 'cf.colo.name': 'São' }],
  // Regexes as the Rust `regex` crate reads them for wirefilter: bytes, ASCII classes.
  ['cf.colo.name matches "^ams\\d+$"', true],
  ['cf.colo.name matches "^ams\\d\\D"', false],
  ['cf.colo.name matches "^AMS"', false],
  ['cf.colo.name matches "(?i)^AMS"', true],
  ['cf.colo.name matches "a\\.m"', false],
  ['cf.colo.name matches "^am**s"', true],
  ['cf.colo.name matches "\\<ams"', true],
  ['cf.colo.name matches "s\\>"', false],
  ['cf.colo.name matches "01\\>"', true],
  ['cf.colo.name matches "\\b{start}ms"', false],
  ['cf.colo.name matches "[a-z--[aeiou]]s"', true],
  ['cf.colo.name matches "^[a-z&&[^aeiou]]"', false],
  ['cf.colo.name matches "(?P<site>ams)(?<n>\\d+)"', true],
  ['cf.colo.name matches r"^ams\\d+$"', true],
  ['cf.colo.name matches "^S.o$"', false, { 'cf.colo.name': 'São' }], // `.` is one byte, and ã is two
  ['cf.colo.name matches "^S..o$"', true, { 'cf.colo.name': 'São' }],
  ['cf.colo.name matches "(?u)^S.o$"', true, { 'cf.colo.name': 'São' }],
  ['cf.colo.name matches "^\\w+$"', false, { 'cf.colo.name': 'São' }],
  ['cf.colo.name matches "ã"', true, { 'cf.colo.name': 'São' }],
  ['cf.colo.name matches "\\xC3\\xA3"', true, { 'cf.colo.name': 'São' }],
  ['cf.colo.name matches "\\xE3"', false, { 'cf.colo.name': 'São' }], // a byte, not U+00E3
  ['cf.colo.name matches "\\x{E3}"', true, { 'cf.colo.name': 'São' }], // U+00E3, as UTF-8
  ['cf.colo.name matches "(?i)Ã"', false, { 'cf.colo.name': 'São' }], // ASCII case folding only
  ['cf.colo.name matches "ams$"', false, { 'cf.colo.name': 'ams\n' }],
  ['cf.colo.name matches "(?m)ams$"', true, { 'cf.colo.name': 'ams\n' }],
  ['ip.proto == "tcp"', true],
  ['ip.proto in {"udp" "icmp"}', false],
  // Booleans: alone, negated, derived from the flags byte
  ['tcp.flags.syn', true],
  ['tcp.flags.ack', true],
  ['tcp.flags.fin', false],
  ['not tcp.flags.fin', true],
  ['!tcp.flags.syn', false],
  ['sip', false],
  ['true', true],
  ['false', false],
  // Logic, both spellings, and precedence: not > and > xor > or
  ['tcp.flags.syn and tcp.flags.ack', true],
  ['tcp.flags.syn && tcp.flags.fin', false],
  ['tcp.flags.fin or tcp.flags.ack', true],
  ['tcp.flags.fin || sip', false],
  ['tcp.flags.syn xor tcp.flags.ack', false],
  ['tcp.flags.syn ^^ tcp.flags.fin', true],
  ['true or false and false', true],
  ['(true or false) and false', false],
  ['true xor true and false', true],
  ['(true xor true) and false', false],
  ['true or true xor true', true],
  ['(true or true) xor true', false],
  ['not false and false', false],
  ['not (false and false)', true],
  ['false xor false or true', true],
  ['not not true', true],
  ['not ip.proto in {"tcp"}', false],
  ['ip.src in {192.0.2.0/24} and tcp.dstport in {22 443} and not tcp.flags.fin', true],
  // Lists: stated membership, contents in the packet, contents from a file
  ['ip.src in $svc.anonymizer', true],
  ['ip.dst in $svc.anonymizer', true],
  ['ip.src in $svc.vpn', false],
  ['ip.src in $svc.malware', true],
  ['ip.dst in $svc.malware', false],
  ['ip.src in $my_list', true],
  ['ip.dst in $my_list', false],
  ['ip.src in $ranged', true],
  ['ip.src in $blocked_v6', true, V6_PACKET],
  ['ip.src in $my_list', false, V6_PACKET],
  // bit_slice over the raw header bytes
  ['bit_slice(tcp, 0, 16) == 53', true],
  ['bit_slice(tcp, 16, 32) == 22', true],
  ['bit_slice(tcp, 32, 40) == 0x45', true],
  ['bit_slice(tcp, 107, 112) == 0x12', true],
  ['bit_slice(tcp, 0, 4) == 0', true],
  ['bit_slice(udp, 64, 72) == 0x45', true, V6_PACKET],
  ['bit_slice(udp, 16, 32) in {53 5353}', true, V6_PACKET],
  ['bit_slice(udp, 0, 32) & 0x350035', true, V6_PACKET],
  // Headers of another protocol are absent: every comparison of them is false
  ['tcp.dstport == 22', false, V6_PACKET],
  ['tcp.dstport != 22', false, V6_PACKET],
  ['not tcp.dstport == 22', true, V6_PACKET],
  ['tcp.flags.syn', false, V6_PACKET],
  ['bit_slice(tcp, 0, 8) == 0', false, V6_PACKET],
  ['icmp.type == 8 or udp.dstport == 53', true, V6_PACKET],
  ['sip', false, { 'ip.proto': 'tcp' }],
  ['not sip', true, { 'ip.proto': 'icmp' }],
  ['icmp.type == 8', false, { 'ip.proto': 'gre' }],
];

function run(expression: string, packet: object = TCP_PACKET): boolean {
  return evaluateExpression(expression, parsePacket(packet), FILE_LISTS);
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

describe('evaluate: every operator and type', () => {
  for (const [expression, expected, packet] of CASES) {
    it(`${expression} → ${expected}${packet === V6_PACKET ? ' (IPv6/UDP packet)' : ''}`, () => {
      assert.equal(run(expression, packet), expected);
    });
  }

  it('the checker accepts every expression of the table (no test of something the service rejects)', () => {
    for (const [expression] of CASES) {
      const errors = checkExpression(expression, { phase: 'magic_transit' }).problems.filter((p) => p.severity === 'error');
      assert.deepEqual(errors, [], expression);
    }
  });
});

describe('evaluate: missing values', () => {
  const partial = { 'ip.proto': 'tcp', 'ip.src': '192.0.2.7' };

  it('names every missing field the result depends on', () => {
    const checked = checkExpression('tcp.dstport == 22 or ip.src.country == "BR"');
    assert.throws(() => evaluate(checked.ast!, parsePacket(partial)), (error: unknown) => {
      assert.ok(error instanceof MissingValuesError);
      assert.deepEqual(error.missing, ['ip.src.country', 'tcp.dstport']);
      assert.match(error.message, /no value for `ip\.src\.country`, `tcp\.dstport`/);
      return true;
    });
  });

  it('is three-valued: a known operand can decide alone', () => {
    assert.equal(run('ip.proto == "udp" and tcp.dstport == 22', partial), false);
    assert.equal(run('ip.proto == "tcp" or tcp.dstport == 22', partial), true);
    const unknown = evaluatePartial(checkExpression('not tcp.dstport == 22').ast!, parsePacket(partial));
    assert.deepEqual(unknown, { value: undefined, missing: ['tcp.dstport'] });
    const xor = evaluatePartial(checkExpression('true xor tcp.dstport == 22').ast!, parsePacket(partial));
    assert.equal(xor.value, undefined);
  });

  it('a header field is unknown, not absent, when the packet gives no ip.proto', () => {
    assert.throws(() => run('tcp.dstport != 22', { 'ip.src': '192.0.2.7' }), MissingValuesError);
  });

  it('names a list known neither to the packet nor to the lists file', () => {
    assert.throws(
      () => run('ip.src in $svc.botnetcc or tcp.srcport == 1', { 'ip.src': '192.0.2.7' }),
      (error: unknown) =>
        error instanceof MissingValuesError &&
        error.missing.join() === '$svc.botnetcc,tcp.srcport' &&
        error.message === 'the packet has no value for `tcp.srcport`, and nothing says what `$svc.botnetcc` holds (give it in the packet\'s "$lists" or a lists file), which the result depends on',
    );
  });

  it('a stated membership needs no address', () => {
    assert.equal(run('ip.src in $svc.vpn or ip.dst in $svc.vpn', { $lists: { 'svc.vpn': true } }), true);
    assert.equal(run('ip.dst in $svc.vpn', { $lists: { 'svc.vpn': false } }), false);
    assert.throws(() => run('ip.dst in $svc.vpn', { $lists: { 'svc.vpn': ['10.0.0.0/8'] } }), /no value for `ip\.dst`/);
  });

  it("the packet's list wins over the file's", () => {
    assert.equal(run('ip.src in $my_list', { ...partial, $lists: { my_list: false } }), false);
    assert.equal(run('ip.src in $my_list', { ...partial, $lists: { my_list: ['203.0.113.0/24'] } }), false);
  });
});

describe('evaluate: errors', () => {
  it('refuses an expression with errors', () => {
    assert.throws(() => run('tcp.dstport in {22, 443}'), EvaluationError);
    assert.throws(() => run('ip.proto == 6'), EvaluationError);
    assert.throws(() => run('tcp.dstport =='), EvaluationError);
  });

  it('refuses a bit_slice past the bytes given', () => {
    assert.throws(() => run('bit_slice(udp, 64, 80) == 1', V6_PACKET), /reads past the 9 bytes of `udp`/);
  });

  it('a regular expression of Unicode classes, which the evaluator does not match, is an evaluation error', () => {
    assert.throws(() => run('cf.colo.name matches "(?u)\\pL"'), /Unicode classes/);
  });
});

describe('packets', () => {
  it('reads values by the field type', () => {
    const packet = parsePacket({ 'tcp.dstport': '0x16', 'ip.proto': 6, 'tcp.flags': 2, 'ip.src': ' 10.0.0.1 ' });
    assert.deepEqual(packet.fields.get('tcp.dstport'), { type: 'Integer', value: 22n });
    assert.deepEqual(packet.fields.get('ip.proto'), { type: 'Bytes', bytes: new TextEncoder().encode('tcp') });
    assert.deepEqual(packet.fields.get('tcp.flags.syn'), { type: 'Boolean', value: true });
    assert.deepEqual(packet.fields.get('tcp.flags.ack'), { type: 'Boolean', value: false });
    assert.deepEqual(packet.fields.get('ip.src'), { type: 'Ip', family: 4, value: 0x0a000001n });
  });

  const bad: readonly [object | unknown, RegExp][] = [
    [{ 'tcp.dstprt': 22 }, /unknown field `tcp\.dstprt` in the packet; did you mean `tcp\.dstport`/],
    [{ 'tcp.dstport': 70000 }, /70000 is outside the values of `tcp\.dstport` \(0–65535\)/],
    [{ 'tcp.dstport': 22.5 }, /expected an integer for `tcp\.dstport`/],
    [{ 'ip.src': '192.0.2.0/24' }, /expected one IPv4 or IPv6 address for `ip\.src`/],
    [{ 'ip.src': '300.1.1.1' }, /expected one IPv4 or IPv6 address/],
    [{ 'tcp.flags.syn': 'yes' }, /expected true or false for `tcp\.flags\.syn`/],
    [{ 'tcp.flags': 0x02, 'tcp.flags.syn': false }, /`tcp\.flags\.syn` is false but `tcp\.flags` \(0x02\) has that bit set/],
    [{ udp: 'zz' }, /hex bytes/],
    [{ 'ip.proto': 253 }, /protocol number 253/],
    [{ 'ip.proto': 'TCP' }, /`"TCP"` is not a protocol name .*; did you mean `"tcp"`/],
    [{ $lists: ['svc.vpn'] }, /expected `\$lists` as an object/],
    [{ $lists: { 'Bad Name': true } }, /not a list name/],
    [{ $lists: { my_list: ['nope'] } }, /`nope` in the list `\$my_list`/],
    [[1, 2], /expected the packet as an object/],
  ];
  for (const [input, message] of bad) {
    it(`refuses ${JSON.stringify(input)}`, () => {
      assert.throws(() => parsePacket(input), (error: unknown) => error instanceof PacketError && message.test(error.message));
    });
  }

  it('says which key of the packet is wrong', () => {
    assert.throws(() => parsePacket({ 'ip.src': 'x' }), (error: unknown) => error instanceof PacketError && error.key === 'ip.src');
  });

  const contradictory: readonly [object, string, string][] = [
    [{ 'ip.proto': 'udp', 'tcp.dstport': 22 }, 'tcp.dstport', '`tcp.dstport` is a field of the TCP header, but `ip.proto` is "udp": remove `tcp.dstport`, or give `ip.proto` as "tcp"'],
    [{ 'tcp.dstport': 22, 'udp.srcport': 53 }, 'udp.srcport', '`tcp.dstport` is a field of the TCP header, and `udp.srcport` is a field of the UDP header, but a packet has one transport header: give the fields of one only'],
    [{ 'ip.proto': 'tcp', sip: true }, 'sip', '`sip` is true only for UDP packets, but `ip.proto` is "tcp": give `sip` as false, or `ip.proto` as "udp"'],
    [{ 'ip.proto': 'gre', 'icmp.type': 8 }, 'icmp.type', '`icmp.type` is a field of the ICMP header, but `ip.proto` is "gre": remove `icmp.type`, or give `ip.proto` as "icmp" or "ipv6-icmp"'],
    [{ 'ip.proto': 'udp', tcp: '00 35' }, 'tcp', '`tcp` is a field of the TCP header, but `ip.proto` is "udp": remove `tcp`, or give `ip.proto` as "tcp"'],
  ];
  for (const [input, key, message] of contradictory) {
    it(`refuses ${JSON.stringify(input)}: a packet has one transport header`, () => {
      assert.throws(() => parsePacket(input), (error: unknown) => error instanceof PacketError && error.key === key && error.message === message);
    });
  }

  it('is not given a protocol from its fields: a rule that tests it names it', () => {
    assert.throws(() => run('ip.proto == "udp" and tcp.dstport == 22', { 'tcp.dstport': 22 }), /no value for `ip\.proto`/);
  });

  it('`"sip": false` fits a packet of any protocol', () => {
    assert.equal(run('ip.proto == "tcp" and not sip', { 'ip.proto': 'tcp', sip: false }), true);
  });

  it('bit_slice counts from the most significant bit of the first byte', () => {
    const bytes = Uint8Array.from([0b1010_0000, 0xff]);
    assert.equal(bitSlice(bytes, 0, 1), 1n);
    assert.equal(bitSlice(bytes, 1, 3), 0b01n);
    assert.equal(bitSlice(bytes, 4, 12), 0x0fn);
    assert.equal(bitSlice(bytes, 8, 17), undefined);
  });

  it('wildcards: `*` any run, `\\*` a star, case folded only for wildcard', () => {
    const wildcard = (pattern: string, ignoreCase: boolean) => ({ test: (value: string) => wildcardMatches(bytes(pattern), bytes(value), ignoreCase) });
    assert.ok(wildcard('a\\*b', false).test('a*b'));
    assert.ok(!wildcard('a\\*b', false).test('axb'));
    assert.ok(wildcard('a.b', false).test('a.b'));
    assert.ok(!wildcard('a.b', false).test('axb'));
    assert.ok(wildcard('AB*', true).test('abc'));
    assert.ok(!wildcard('AB*', false).test('abc'));
    assert.ok(wildcard('a\\\\b', false).test('a\\b'));
    assert.ok(wildcard('*', false).test(''));
    assert.ok(!wildcard('a*', false).test(''));
    assert.ok(wildcard('*a*b*a*', false).test('xxaxxbxxbaxx'));
    assert.ok(!wildcard('*a*b*a*', false).test('xxaxxbxxbxx'));
    // The `wildcard` crate folds ASCII only: É (C3 89) and é (C3 A9) stay different.
    assert.ok(!wildcard('*É*', true).test('é'));
  });

  it('a regex that makes a backtracking engine exponential answers over a long value', () => {
    // JavaScript's RegExp did not finish `(a+)+$` over 28 characters in 20 s.
    const value = `${'a'.repeat(20000)}!`;
    assert.equal(run('cf.colo.name matches "(a+)+$"', { 'cf.colo.name': value }), false);
    assert.equal(run('cf.colo.name matches "^(a|aa)+$"', { 'cf.colo.name': value }), false);
    assert.equal(run('cf.colo.name matches "(a*)*b"', { 'cf.colo.name': value }), false);
    assert.equal(run('cf.colo.name matches "(a+)+!$"', { 'cf.colo.name': value }), true);
  });

  it('a wildcard with many stars answers over a long hostile value', () => {
    // A backtracking matcher tries every way to split the value among the stars: 12 stars
    // over 32 bytes already took seconds, 30 stars over 5,000 bytes would never finish.
    const pattern = `${'*a'.repeat(30)}*b`;
    assert.equal(wildcardMatches(bytes(pattern), bytes('a'.repeat(5000)), false), false);
    assert.equal(wildcardMatches(bytes(pattern), bytes(`${'a'.repeat(5000)}b`), false), true);
    // In a rule the service allows 10 stars: as many as a backtracking matcher never finishes with.
    const allowed = `${'*a'.repeat(9)}*b`;
    assert.equal(run(`cf.colo.name wildcard "${allowed}"`, { 'cf.colo.name': 'A'.repeat(5000) }), false);
    assert.equal(run(`cf.colo.name wildcard "${allowed}"`, { 'cf.colo.name': `${'A'.repeat(5000)}B` }), true);
  });
});

// ------------------------------------------------------------------ properties

/** An atomic test over TCP_PACKET with its value computed here, independently of the evaluator. */
const integerAtom = fc
  .tuple(fc.constantFrom(['==', 'eq'], ['!=', 'ne'], ['<', 'lt'], ['<=', 'le'], ['>', 'gt'], ['>=', 'ge']), fc.boolean(), fc.integer({ min: 0, max: 65535 }), fc.constantFrom('dec', 'hex', 'oct'))
  .map(([spellings, word, n, base]) => {
    const port = 22;
    const value = { '==': port === n, '!=': port !== n, '<': port < n, '<=': port <= n, '>': port > n, '>=': port >= n }[spellings[0]]!;
    const literal = base === 'hex' ? `0x${n.toString(16)}` : base === 'oct' && n > 0 ? `0${n.toString(8)}` : String(n);
    return { text: `tcp.dstport ${word ? spellings[1] : spellings[0]} ${literal}`, value };
  });

const cidrAtom = fc.integer({ min: 0, max: 32 }).chain((prefix) =>
  fc.nat({ max: 0xffffffff }).map((address) => {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    const network = (address & mask) >>> 0;
    const src = 0xc0000207; // 192.0.2.7
    const dotted = [24, 16, 8, 0].map((s) => (network >>> s) & 0xff).join('.');
    return { text: `ip.src in {${dotted}/${prefix}}`, value: ((src & mask) >>> 0) === network };
  }),
);

const booleanAtom = fc.constantFrom(
  { text: 'tcp.flags.syn', value: true },
  { text: 'tcp.flags.fin', value: false },
  { text: 'true', value: true },
  { text: 'false', value: false },
  { text: 'ip.src in $svc.anonymizer', value: true },
  { text: 'ip.src.country in {"AR" "BR"}', value: true },
);

interface Generated {
  readonly text: string;
  readonly value: boolean;
}

const { expression } = fc.letrec<{ expression: Generated }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    integerAtom,
    cidrAtom,
    booleanAtom,
    tie('expression').map((x) => ({ text: `not (${x.text})`, value: !x.value })),
    fc.tuple(tie('expression'), tie('expression'), fc.constantFrom('and', '&&')).map(([a, b, op]) => ({ text: `(${a.text}) ${op} (${b.text})`, value: a.value && b.value })),
    fc.tuple(tie('expression'), tie('expression'), fc.constantFrom('or', '||')).map(([a, b, op]) => ({ text: `(${a.text}) ${op} (${b.text})`, value: a.value || b.value })),
    fc.tuple(tie('expression'), tie('expression'), fc.constantFrom('xor', '^^')).map(([a, b, op]) => ({ text: `(${a.text}) ${op} (${b.text})`, value: a.value !== b.value })),
  ),
}));

describe('evaluate: properties', () => {
  it('agrees with an independent computation on random expressions (not/and/or/xor, integers in three bases, CIDRs)', () => {
    fc.assert(
      fc.property(expression, (x) => {
        assert.equal(run(x.text), x.value, x.text);
      }),
      { numRuns: 300 },
    );
  });

  it('`not X` is the negation of X, `X and Y` both, `X or Y` either', () => {
    fc.assert(
      fc.property(expression, expression, (x, y) => {
        const a = run(x.text);
        const b = run(y.text);
        assert.equal(run(`not (${x.text})`), !a);
        assert.equal(run(`(${x.text}) and (${y.text})`), a && b);
        assert.equal(run(`(${x.text}) or (${y.text})`), a || b);
        assert.equal(run(`(${x.text}) xor (${y.text})`), a !== b);
      }),
      { numRuns: 150 },
    );
  });

  it('without parentheses, and binds tighter than xor, and xor than or', () => {
    const atom = fc.oneof(integerAtom, booleanAtom);
    fc.assert(
      fc.property(atom, atom, atom, fc.constantFrom('and', 'xor', 'or'), fc.constantFrom('and', 'xor', 'or'), (x, y, z, op1, op2) => {
        const rank = { or: 0, xor: 1, and: 2 } as const;
        const apply = (op: 'and' | 'xor' | 'or', a: boolean, b: boolean) => (op === 'and' ? a && b : op === 'or' ? a || b : a !== b);
        // Left-associative at equal rank; the tighter operator first otherwise.
        const expected = rank[op2] > rank[op1] ? apply(op1, x.value, apply(op2, y.value, z.value)) : apply(op2, apply(op1, x.value, y.value), z.value);
        assert.equal(run(`${x.text} ${op1} ${y.text} ${op2} ${z.text}`), expected);
      }),
      { numRuns: 200 },
    );
  });
});
