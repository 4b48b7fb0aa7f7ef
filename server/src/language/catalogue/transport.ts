/**
 * The transport headers and the fields read from them (LANGUAGE.md §5). A packet has at most
 * one transport header, so a field of one has a value only in a packet whose `ip.proto` is one
 * of that header's protocols; in any other packet the field is absent. The static analyses
 * (language/analyses.ts), the evaluator (evaluation/evaluate.ts) and the packet reader
 * (evaluation/packet.ts) all take this table.
 *
 * Only that direction holds: a TCP header means `ip.proto == "tcp"`, but `ip.proto == "tcp"`
 * does not mean the fields have values (a fragment after the first carries no TCP header).
 */

export interface TransportHeader {
  /** The header's raw field, for `bit_slice`: `tcp`. */
  readonly name: 'tcp' | 'udp' | 'icmp';
  /** How messages call its packets: `TCP`. */
  readonly label: string;
  /** The `ip.proto` values of the packets that have it. */
  readonly protocols: readonly string[];
}

const TCP: TransportHeader = { name: 'tcp', label: 'TCP', protocols: ['tcp'] };
const UDP: TransportHeader = { name: 'udp', label: 'UDP', protocols: ['udp'] };
/**
 * ICMP covers ICMPv6 (`ipv6-icmp`) too. LANGUAGE.md §5 calls `icmp.type` / `icmp.code` the
 * "ICMP type / code" with ICMPv4 numbers as examples, and neither it nor the service's field
 * reference says whether an ICMPv6 packet fills them; the language has no `icmpv6.*` fields
 * (Wireshark, whose field names it copies, has). With both readings possible the wider one is
 * taken: the analyses then never call `ip.proto == "ipv6-icmp" and icmp.type == 128` a
 * contradiction that only the narrower reading makes, and `rulesets test` reads `icmp.*` of an
 * ICMPv6 packet as given.
 */
const ICMP: TransportHeader = { name: 'icmp', label: 'ICMP', protocols: ['icmp', 'ipv6-icmp'] };

export const TRANSPORT_HEADERS: readonly TransportHeader[] = [TCP, UDP, ICMP];

export interface TransportField {
  readonly header: TransportHeader;
  /**
   * The field is the service's verdict on the packet rather than a value read from the header
   * (`sip`, "the packet is valid SIP (UDP)"): `true` needs the header, `false` is also what
   * any packet without it has, so a packet may give `false` whatever its protocol.
   */
  readonly verdict?: boolean;
}

const FIELDS_OF_HEADERS: ReadonlyMap<string, TransportField> = new Map<string, TransportField>([
  ...['tcp', 'tcp.srcport', 'tcp.dstport', 'tcp.flags', 'tcp.flags.ack', 'tcp.flags.cwr', 'tcp.flags.ecn', 'tcp.flags.fin', 'tcp.flags.push', 'tcp.flags.reset', 'tcp.flags.syn', 'tcp.flags.urg'].map(
    (name): [string, TransportField] => [name, { header: TCP }],
  ),
  ...['udp', 'udp.srcport', 'udp.dstport'].map((name): [string, TransportField] => [name, { header: UDP }]),
  ['sip', { header: UDP, verdict: true }],
  ...['icmp', 'icmp.type', 'icmp.code'].map((name): [string, TransportField] => [name, { header: ICMP }]),
]);

/** The transport header a field needs, when it is one's (`tcp.dstport`, `tcp`, `sip`). */
export function transportFieldOf(name: string): TransportField | undefined {
  return FIELDS_OF_HEADERS.get(name);
}

/** The header of a raw header field (`tcp`, as `bit_slice`'s first argument). */
export function transportHeaderNamed(name: string): TransportHeader | undefined {
  return TRANSPORT_HEADERS.find((header) => header.name === name);
}
