/** `describeExpression`: an expression in words, one row per construct. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { describeExpression } from '../../server/src/language/describe';
import { checkExpression } from '../../server/src/language/checker';

const ROWS: readonly (readonly [string, string])[] = [
  // booleans and Boolean fields alone
  ['true', 'every packet'],
  ['false', 'no packet'],
  ['tcp.flags.syn', 'packets with the SYN flag set'],
  ['not tcp.flags.ack', 'packets with the ACK flag not set'],
  ['sip', 'packets that are SIP messages'],
  // the protocol as an adjective
  ['ip.proto == "tcp"', 'TCP packets'],
  ['ip.proto == "tcp" and tcp.dstport != 22', 'TCP packets whose destination port is not 22'],
  ['tcp.dstport != 22 and ip.proto eq "tcp"', 'TCP packets whose destination port is not 22'],
  ['(ip.proto == "udp") && udp.dstport == 53', 'UDP packets whose destination port is 53'],
  ['ip.proto in {"tcp" "udp"}', 'packets over TCP or UDP'],
  ['ip.proto != "icmp"', 'packets not over ICMP'],
  // comparisons
  ['tcp.dstport == 22', 'packets whose TCP destination port is 22'],
  ['ip.ttl < 10', 'packets whose TTL is less than 10'],
  ['ip.ttl <= 10', 'packets whose TTL is at most 10'],
  ['ip.len > 1400', 'packets whose length is more than 1400'],
  ['ip.len ge 1400', 'packets whose length is at least 1400'],
  ['not ip.len >= 1400', 'packets whose length is less than 1400'],
  ['udp.dstport in {53 1024..65535}', 'packets whose UDP destination port is 53 or 1024–65535'],
  ['not tcp.dstport in {80 443}', 'packets whose TCP destination port is not 80 or 443'],
  ['cf.colo.name contains "ams"', 'packets whose data centre contains "ams"'],
  ['cf.colo.name matches "^ams"', 'packets whose data centre matches the regular expression "^ams"'],
  ['cf.colo.name wildcard "ams*"', 'packets whose data centre matches the wildcard pattern "ams*" (case-insensitive)'],
  ['not cf.colo.name strict wildcard "AMS*"', 'packets whose data centre does not match the wildcard pattern "AMS*" (case-sensitive)'],
  ['tcp.flags & 0x02', 'packets with the SYN flag set'],
  ['tcp.flags & 0x12', 'packets with any of the SYN or ACK flags set'],
  ['not tcp.flags & 0x12', 'packets with none of the SYN or ACK flags set'],
  ['ip.src.asnum & 1', 'packets whose source AS number has any of the bits 1 set'],
  // addresses, countries, lists
  ['ip.src == 192.0.2.7', 'packets from 192.0.2.7'],
  ['ip.dst in {192.0.2.0/24 2001:db8::/32}', 'packets to 192.0.2.0/24 or 2001:db8::/32'],
  ['ip.src in {10.0.0.1..10.0.0.9}', 'packets from 10.0.0.1–10.0.0.9'],
  ['ip.dst != 10.0.0.1', 'packets not to 10.0.0.1'],
  ['ip.src.country == "BR"', 'packets from Brazil'],
  ['ip.geoip.country in {"BR" "CU"}', 'packets from or to Brazil or Cuba'],
  ['ip.src in $svc.anonymizer', 'packets from an address on the list `$svc.anonymizer` (anonymizer proxies: open SOCKS proxies, VPNs and TOR nodes)'],
  ['not ip.dst in $my_list', 'packets not to an address on the list `$my_list`'],
  // logic
  ['ip.src.country in {"BR" "CU"} and not ip.dst in {192.0.2.0/24}', 'packets from Brazil or Cuba and not to 192.0.2.0/24'],
  ['ip.src.country == "BR" or ip.ttl < 10', 'packets from Brazil or whose TTL is less than 10'],
  ['(ip.src == 10.0.0.1 or ip.dst == 10.0.0.2) and tcp.flags.syn', 'packets (from 10.0.0.1 or to 10.0.0.2) and with the SYN flag set'],
  ['sip or tcp.flags.ack and tcp.flags.fin', 'packets that are SIP messages or (with the ACK flag set and with the FIN flag set)'],
  ['not (ip.src.country == "BR" or sip)', 'packets not (from Brazil or that are SIP messages)'],
  ['not not sip', 'packets that are SIP messages'],
  ['sip xor tcp.flags.syn', 'packets either that are SIP messages or with the SYN flag set, but not both'],
  ['sip ^^ tcp.flags.syn ^^ tcp.flags.ack', 'packets for which an odd number of these hold: that are SIP messages; with the SYN flag set; with the ACK flag set'],
  // bit_slice
  ['bit_slice(tcp, 0, 16) == 53', 'packets where the value of bits 0–15 of the TCP header is 53'],
  ['bit_slice(ip, 72, 73) == 1', 'packets where the value of bit 72 of the IP packet is 1'],
];

describe('describeExpression', () => {
  for (const [expression, words] of ROWS) {
    it(expression, () => {
      const result = checkExpression(expression, { phase: 'magic_transit' });
      assert.ok(result.ast, `${expression} parses: ${result.problems.map((p) => p.message).join('; ')}`);
      assert.equal(describeExpression(result.ast), words);
    });
  }
});
