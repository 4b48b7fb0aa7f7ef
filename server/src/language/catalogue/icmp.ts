/**
 * ICMPv4 message types and Destination Unreachable codes, for `icmp.type` and `icmp.code`.
 *
 * Source: IANA "Internet Control Message Protocol (ICMP) Parameters" registry
 * (https://www.iana.org/assignments/icmp-parameters/), cross-checked against copies of it in
 * public code. Only assigned message types are listed; unassigned (1, 2, 7, 44–252) and
 * reserved numbers (19 "Reserved (for Security)", 20–29 "Reserved (for Robustness
 * Experiment)", 255) are absent. Names are the registry's, without its "(Deprecated)"
 * suffix; the types the registry marks deprecated (RFC 6918 and others) are in
 * `DEPRECATED_ICMP_TYPES`.
 *
 * These are ICMPv4 numbers. ICMPv6 (IP protocol 58, "ipv6-icmp") numbers its types
 * differently: for example Echo Request is 128 there, not 8.
 */
export const ICMP_TYPES: ReadonlyMap<number, string> = new Map<number, string>([
  [0, 'Echo Reply'],
  [3, 'Destination Unreachable'],
  [4, 'Source Quench'],
  [5, 'Redirect'],
  [6, 'Alternate Host Address'],
  [8, 'Echo'],
  [9, 'Router Advertisement'],
  [10, 'Router Solicitation'],
  [11, 'Time Exceeded'],
  [12, 'Parameter Problem'],
  [13, 'Timestamp'],
  [14, 'Timestamp Reply'],
  [15, 'Information Request'],
  [16, 'Information Reply'],
  [17, 'Address Mask Request'],
  [18, 'Address Mask Reply'],
  [30, 'Traceroute'],
  [31, 'Datagram Conversion Error'],
  [32, 'Mobile Host Redirect'],
  [33, 'IPv6 Where-Are-You'],
  [34, 'IPv6 I-Am-Here'],
  [35, 'Mobile Registration Request'],
  [36, 'Mobile Registration Reply'],
  [37, 'Domain Name Request'],
  [38, 'Domain Name Reply'],
  [39, 'SKIP'],
  [40, 'Photuris'],
  [41, 'ICMP messages utilized by experimental mobility protocols such as Seamoby'],
  [42, 'Extended Echo Request'],
  [43, 'Extended Echo Reply'],
  [253, 'RFC3692-style Experiment 1'],
  [254, 'RFC3692-style Experiment 2'],
]);

/** Types the IANA registry marks "(Deprecated)". */
export const DEPRECATED_ICMP_TYPES: ReadonlySet<number> = new Set<number>([
  4, 6, 15, 16, 17, 18, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
]);

/** Codes of type 3, Destination Unreachable (RFC 792, RFC 1191, RFC 1812). */
export const ICMP_UNREACHABLE_CODES: ReadonlyMap<number, string> = new Map<number, string>([
  [0, 'Net Unreachable'],
  [1, 'Host Unreachable'],
  [2, 'Protocol Unreachable'],
  [3, 'Port Unreachable'],
  [4, "Fragmentation Needed and Don't Fragment was Set"],
  [5, 'Source Route Failed'],
  [6, 'Destination Network Unknown'],
  [7, 'Destination Host Unknown'],
  [8, 'Source Host Isolated'],
  [9, 'Communication with Destination Network is Administratively Prohibited'],
  [10, 'Communication with Destination Host is Administratively Prohibited'],
  [11, 'Destination Network Unreachable for Type of Service'],
  [12, 'Destination Host Unreachable for Type of Service'],
  [13, 'Communication Administratively Prohibited'],
  [14, 'Host Precedence Violation'],
  [15, 'Precedence cutoff in effect'],
]);
