import type { ScalarType } from '../ast';

import type { FieldValueKind } from './entries';
import { TCP_FLAG_BITS, hexByte } from './tcp-flags';

export type { FieldValueKind } from './entries';
export { TCP_FLAG_BITS, hexByte } from './tcp-flags';

export interface FieldInfo {
  readonly name: string;
  readonly type: ScalarType;
  /** One line: what the field is. */
  readonly doc: string;
  readonly example: string;
  /** Inclusive bounds of the values the field can hold (Integer fields). */
  readonly range?: readonly [bigint, bigint];
  readonly values?: FieldValueKind;
}

const PORT: readonly [bigint, bigint] = [0n, 65535n];
const BYTE: readonly [bigint, bigint] = [0n, 255n];
const AS_NUMBER: readonly [bigint, bigint] = [0n, 4294967295n];

function field(name: string, type: ScalarType, doc: string, example: string, extra: Partial<FieldInfo> = {}): FieldInfo {
  return { name, type, doc, example, ...extra };
}

/** Fields of the `magic_transit` phase (LANGUAGE.md §5). */
const MAGIC_TRANSIT_FIELDS: readonly FieldInfo[] = [
  field('ip.src', 'Ip', 'Source IP address of the packet.', 'ip.src in {192.0.2.0/24}'),
  field('ip.dst', 'Ip', 'Destination IP address of the packet.', 'ip.dst == 203.0.113.7'),
  field('ip.src.country', 'Bytes', 'ISO 3166-1 alpha-2 country code of the source address.', 'ip.src.country == "BR"', { values: 'country' }),
  field('ip.dst.country', 'Bytes', 'ISO 3166-1 alpha-2 country code of the destination address.', 'ip.dst.country in {"DE" "FR"}', { values: 'country' }),
  field('ip.geoip.country', 'Bytes', 'ISO 3166-1 alpha-2 country code of the source or the destination address.', 'ip.geoip.country == "CN"', { values: 'country' }),
  field('ip.src.asnum', 'Integer', 'Autonomous system number of the source address.', 'ip.src.asnum == 64496', { range: AS_NUMBER }),
  field('ip.dst.asnum', 'Integer', 'Autonomous system number of the destination address.', 'ip.dst.asnum in {64496 64511}', { range: AS_NUMBER }),
  field('ip.proto', 'Bytes', 'Transport protocol name, lowercase (IANA keyword: "tcp", "udp", "icmp", "gre", …).', 'ip.proto == "udp"', { values: 'protocol' }),
  field('ip.len', 'Integer', 'Length of the packet in bytes, header included.', 'ip.len > 1400', { range: PORT }),
  field('ip.hdr_len', 'Integer', 'Length of the IPv4 header.', 'ip.hdr_len > 20', { range: BYTE }),
  field('ip.ttl', 'Integer', 'Time to live of the packet.', 'ip.ttl < 10', { range: BYTE }),
  field('ip.opt.type', 'Integer', 'First byte of the IPv4 options.', 'ip.opt.type == 7', { range: BYTE }),
  field('tcp.srcport', 'Integer', 'TCP source port.', 'tcp.srcport == 53', { range: PORT, values: 'port' }),
  field('tcp.dstport', 'Integer', 'TCP destination port.', 'tcp.dstport in {80 443}', { range: PORT, values: 'port' }),
  field('udp.srcport', 'Integer', 'UDP source port.', 'udp.srcport == 123', { range: PORT, values: 'port' }),
  field('udp.dstport', 'Integer', 'UDP destination port.', 'udp.dstport in {1024..65535}', { range: PORT, values: 'port' }),
  field('tcp.flags', 'Integer', `The TCP flags byte (${TCP_FLAG_BITS.map((bit) => `${bit.name} ${hexByte(bit.value)}`).join(', ')}).`, 'tcp.flags & 0x02', { range: BYTE, values: 'tcp-flags' }),
  field('tcp.flags.ack', 'Boolean', 'The TCP ACK flag is set.', 'tcp.flags.ack'),
  field('tcp.flags.cwr', 'Boolean', 'The TCP CWR (congestion window reduced) flag is set.', 'tcp.flags.cwr'),
  field('tcp.flags.ecn', 'Boolean', 'The TCP ECE (ECN echo) flag is set.', 'tcp.flags.ecn'),
  field('tcp.flags.fin', 'Boolean', 'The TCP FIN flag is set.', 'tcp.flags.fin'),
  field('tcp.flags.push', 'Boolean', 'The TCP PSH flag is set.', 'tcp.flags.push'),
  field('tcp.flags.reset', 'Boolean', 'The TCP RST flag is set.', 'tcp.flags.reset'),
  field('tcp.flags.syn', 'Boolean', 'The TCP SYN flag is set.', 'tcp.flags.syn and not tcp.flags.ack'),
  field('tcp.flags.urg', 'Boolean', 'The TCP URG flag is set.', 'tcp.flags.urg'),
  field('icmp.type', 'Integer', 'ICMP type (0 echo reply, 3 destination unreachable, 8 echo request, 11 time exceeded).', 'icmp.type == 8', { range: BYTE, values: 'icmp-type' }),
  field('icmp.code', 'Integer', 'ICMP code.', 'icmp.type == 3 and icmp.code == 4', { range: BYTE, values: 'icmp-code' }),
  field('sip', 'Boolean', 'The packet is a valid SIP message (UDP).', 'sip and udp.dstport == 5060'),
  field('cf.colo.name', 'Bytes', 'Name of the data centre handling the packet.', 'cf.colo.name == "ams01"'),
  field('cf.colo.region', 'Bytes', 'Region of the data centre handling the packet.', 'cf.colo.region == "WNAM"'),
  field('ip', 'Bytes', 'The raw IP packet, for use with bit_slice.', 'bit_slice(ip, 72, 80) == 6', { values: 'raw-header' }),
  field('tcp', 'Bytes', 'The raw TCP header, for use with bit_slice.', 'bit_slice(tcp, 0, 16) == 53', { values: 'raw-header' }),
  field('udp', 'Bytes', 'The raw UDP header, for use with bit_slice.', 'bit_slice(udp, 64, 72) == 0x45', { values: 'raw-header' }),
  field('icmp', 'Bytes', 'The raw ICMP header, for use with bit_slice.', 'bit_slice(icmp, 0, 8) == 8', { values: 'raw-header' }),
];

export const FIELDS: ReadonlyMap<string, FieldInfo> = new Map(MAGIC_TRANSIT_FIELDS.map((f) => [f.name, f]));

/**
 * Phases whose field table is complete: only there is an unknown field reported. Elsewhere
 * the known fields are still type-checked, but a field we have no entry for may well exist.
 */
const PHASES_WITH_COMPLETE_FIELD_TABLE: ReadonlySet<string> = new Set(['magic_transit']);

export function hasCompleteFieldTable(phase: string | undefined): boolean {
  return phase !== undefined && PHASES_WITH_COMPLETE_FIELD_TABLE.has(phase);
}

export function describeType(type: ScalarType): string {
  switch (type) {
    case 'Integer':
      return 'Integer';
    case 'Ip':
      return 'IP address';
    case 'Bytes':
      return 'String';
    case 'Boolean':
      return 'Boolean';
  }
}
