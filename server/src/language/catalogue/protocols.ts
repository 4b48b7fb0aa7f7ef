/**
 * IP protocol keywords for `ip.proto` (the IPv4 Protocol / IPv6 Next Header field).
 *
 * Source: IANA "Assigned Internet Protocol Numbers" registry
 * (https://www.iana.org/assignments/protocol-numbers/), as copied in
 * 7RU7H/Archive Networks/Network-Theory/IANA-Assigned-Internet-Protocol-Numbers.md
 * (registry state with 144 AGGFRAG and 145 NSH; 146–252 unassigned), numbers
 * cross-checked against netbase 6.4 /etc/protocols.
 *
 * Naming followed: the IANA *Keyword* column, lowercased — the convention of packet filters
 * and /etc/protocols ("tcp", "ipv6-icmp", "ospfigp", "ipv4", "ipip"). Mechanical
 * normalisations only:
 *   - a trailing " (deprecated)" is dropped from the keyword and kept in the description
 *     (13 argus, 53 swipe, 95 micp, 122 sm);
 *   - the two keywords containing spaces get hyphens: 124 "ISIS over IPv4" →
 *     "isis-over-ipv4", 135 "Mobility Header" → "mobility-header".
 * Numbers without a keyword are absent: 61 (any host internal protocol), 63 (any local
 * network), 68 (any distributed file system), 99 (any private encryption scheme),
 * 114 (any 0-hop protocol), 146–252 (unassigned), 253–254 (experimentation), and 255,
 * whose keyword "Reserved" names no protocol. There are no keywords above 145.
 *
 * Names that /etc/protocols (netbase) uses instead of the IANA keyword are listed in
 * `IP_PROTOCOL_ALIASES`, for "did you mean" suggestions.
 */
export interface IpProtocol {
  /** The protocol number (0–255). */
  readonly number: number;
  /** A short description, based on the registry's Protocol column. */
  readonly description: string;
}

export const IP_PROTOCOLS: ReadonlyMap<string, IpProtocol> = new Map<string, IpProtocol>([
  ['hopopt', { number: 0, description: 'IPv6 Hop-by-Hop Option (IPv6 extension header)' }],
  ['icmp', { number: 1, description: 'Internet Control Message Protocol' }],
  ['igmp', { number: 2, description: 'Internet Group Management Protocol' }],
  ['ggp', { number: 3, description: 'Gateway-to-Gateway Protocol' }],
  ['ipv4', { number: 4, description: 'IPv4 encapsulation (IP-in-IP)' }],
  ['st', { number: 5, description: 'Internet Stream Protocol' }],
  ['tcp', { number: 6, description: 'Transmission Control Protocol' }],
  ['cbt', { number: 7, description: 'Core Based Trees' }],
  ['egp', { number: 8, description: 'Exterior Gateway Protocol' }],
  ['igp', { number: 9, description: 'Any private interior gateway (used by Cisco for IGRP)' }],
  ['bbn-rcc-mon', { number: 10, description: 'BBN RCC Monitoring' }],
  ['nvp-ii', { number: 11, description: 'Network Voice Protocol' }],
  ['pup', { number: 12, description: 'PARC Universal Packet' }],
  ['argus', { number: 13, description: 'ARGUS (deprecated)' }],
  ['emcon', { number: 14, description: 'EMCON' }],
  ['xnet', { number: 15, description: 'Cross Net Debugger' }],
  ['chaos', { number: 16, description: 'Chaos' }],
  ['udp', { number: 17, description: 'User Datagram Protocol' }],
  ['mux', { number: 18, description: 'Multiplexing' }],
  ['dcn-meas', { number: 19, description: 'DCN Measurement Subsystems' }],
  ['hmp', { number: 20, description: 'Host Monitoring' }],
  ['prm', { number: 21, description: 'Packet Radio Measurement' }],
  ['xns-idp', { number: 22, description: 'XEROX NS IDP' }],
  ['trunk-1', { number: 23, description: 'Trunk-1' }],
  ['trunk-2', { number: 24, description: 'Trunk-2' }],
  ['leaf-1', { number: 25, description: 'Leaf-1' }],
  ['leaf-2', { number: 26, description: 'Leaf-2' }],
  ['rdp', { number: 27, description: 'Reliable Data Protocol' }],
  ['irtp', { number: 28, description: 'Internet Reliable Transaction' }],
  ['iso-tp4', { number: 29, description: 'ISO Transport Protocol Class 4' }],
  ['netblt', { number: 30, description: 'Bulk Data Transfer Protocol' }],
  ['mfe-nsp', { number: 31, description: 'MFE Network Services Protocol' }],
  ['merit-inp', { number: 32, description: 'MERIT Internodal Protocol' }],
  ['dccp', { number: 33, description: 'Datagram Congestion Control Protocol' }],
  ['3pc', { number: 34, description: 'Third Party Connect Protocol' }],
  ['idpr', { number: 35, description: 'Inter-Domain Policy Routing Protocol' }],
  ['xtp', { number: 36, description: 'XTP' }],
  ['ddp', { number: 37, description: 'Datagram Delivery Protocol' }],
  ['idpr-cmtp', { number: 38, description: 'IDPR Control Message Transport Protocol' }],
  ['tp++', { number: 39, description: 'TP++ Transport Protocol' }],
  ['il', { number: 40, description: 'IL Transport Protocol' }],
  ['ipv6', { number: 41, description: 'IPv6 encapsulation (6in4)' }],
  ['sdrp', { number: 42, description: 'Source Demand Routing Protocol' }],
  ['ipv6-route', { number: 43, description: 'Routing Header for IPv6 (IPv6 extension header)' }],
  ['ipv6-frag', { number: 44, description: 'Fragment Header for IPv6 (IPv6 extension header)' }],
  ['idrp', { number: 45, description: 'Inter-Domain Routing Protocol' }],
  ['rsvp', { number: 46, description: 'Reservation Protocol' }],
  ['gre', { number: 47, description: 'Generic Routing Encapsulation' }],
  ['dsr', { number: 48, description: 'Dynamic Source Routing Protocol' }],
  ['bna', { number: 49, description: 'BNA' }],
  ['esp', { number: 50, description: 'IPsec Encapsulating Security Payload' }],
  ['ah', { number: 51, description: 'IPsec Authentication Header' }],
  ['i-nlsp', { number: 52, description: 'Integrated Net Layer Security TUBA' }],
  ['swipe', { number: 53, description: 'IP with Encryption (deprecated)' }],
  ['narp', { number: 54, description: 'NBMA Address Resolution Protocol' }],
  ['min-ipv4', { number: 55, description: 'Minimal IPv4 Encapsulation' }],
  ['tlsp', { number: 56, description: 'Transport Layer Security Protocol using Kryptonet key management' }],
  ['skip', { number: 57, description: 'SKIP' }],
  ['ipv6-icmp', { number: 58, description: 'ICMP for IPv6 (ICMPv6)' }],
  ['ipv6-nonxt', { number: 59, description: 'No Next Header for IPv6' }],
  ['ipv6-opts', { number: 60, description: 'Destination Options for IPv6 (IPv6 extension header)' }],
  ['cftp', { number: 62, description: 'CFTP' }],
  ['sat-expak', { number: 64, description: 'SATNET and Backroom EXPAK' }],
  ['kryptolan', { number: 65, description: 'Kryptolan' }],
  ['rvd', { number: 66, description: 'MIT Remote Virtual Disk Protocol' }],
  ['ippc', { number: 67, description: 'Internet Pluribus Packet Core' }],
  ['sat-mon', { number: 69, description: 'SATNET Monitoring' }],
  ['visa', { number: 70, description: 'VISA Protocol' }],
  ['ipcv', { number: 71, description: 'Internet Packet Core Utility' }],
  ['cpnx', { number: 72, description: 'Computer Protocol Network Executive' }],
  ['cphb', { number: 73, description: 'Computer Protocol Heart Beat' }],
  ['wsn', { number: 74, description: 'Wang Span Network' }],
  ['pvp', { number: 75, description: 'Packet Video Protocol' }],
  ['br-sat-mon', { number: 76, description: 'Backroom SATNET Monitoring' }],
  ['sun-nd', { number: 77, description: 'SUN ND PROTOCOL-Temporary' }],
  ['wb-mon', { number: 78, description: 'WIDEBAND Monitoring' }],
  ['wb-expak', { number: 79, description: 'WIDEBAND EXPAK' }],
  ['iso-ip', { number: 80, description: 'ISO Internet Protocol' }],
  ['vmtp', { number: 81, description: 'VMTP' }],
  ['secure-vmtp', { number: 82, description: 'SECURE-VMTP' }],
  ['vines', { number: 83, description: 'VINES' }],
  ['iptm', { number: 84, description: 'Internet Protocol Traffic Manager' }],
  ['nsfnet-igp', { number: 85, description: 'NSFNET-IGP' }],
  ['dgp', { number: 86, description: 'Dissimilar Gateway Protocol' }],
  ['tcf', { number: 87, description: 'TCF' }],
  ['eigrp', { number: 88, description: 'Enhanced Interior Gateway Routing Protocol' }],
  ['ospfigp', { number: 89, description: 'Open Shortest Path First (OSPF)' }],
  ['sprite-rpc', { number: 90, description: 'Sprite RPC Protocol' }],
  ['larp', { number: 91, description: 'Locus Address Resolution Protocol' }],
  ['mtp', { number: 92, description: 'Multicast Transport Protocol' }],
  ['ax.25', { number: 93, description: 'AX.25 Frames' }],
  ['ipip', { number: 94, description: 'IP-within-IP Encapsulation Protocol' }],
  ['micp', { number: 95, description: 'Mobile Internetworking Control Protocol (deprecated)' }],
  ['scc-sp', { number: 96, description: 'Semaphore Communications Sec. Pro.' }],
  ['etherip', { number: 97, description: 'Ethernet-within-IP Encapsulation' }],
  ['encap', { number: 98, description: 'Encapsulation Header' }],
  ['gmtp', { number: 100, description: 'GMTP' }],
  ['ifmp', { number: 101, description: 'Ipsilon Flow Management Protocol' }],
  ['pnni', { number: 102, description: 'PNNI over IP' }],
  ['pim', { number: 103, description: 'Protocol Independent Multicast' }],
  ['aris', { number: 104, description: 'ARIS' }],
  ['scps', { number: 105, description: 'SCPS' }],
  ['qnx', { number: 106, description: 'QNX' }],
  ['a/n', { number: 107, description: 'Active Networks' }],
  ['ipcomp', { number: 108, description: 'IP Payload Compression Protocol' }],
  ['snp', { number: 109, description: 'Sitara Networks Protocol' }],
  ['compaq-peer', { number: 110, description: 'Compaq Peer Protocol' }],
  ['ipx-in-ip', { number: 111, description: 'IPX in IP' }],
  ['vrrp', { number: 112, description: 'Virtual Router Redundancy Protocol' }],
  ['pgm', { number: 113, description: 'PGM Reliable Transport Protocol' }],
  ['l2tp', { number: 115, description: 'Layer Two Tunneling Protocol (version 3)' }],
  ['ddx', { number: 116, description: 'D-II Data Exchange (DDX)' }],
  ['iatp', { number: 117, description: 'Interactive Agent Transfer Protocol' }],
  ['stp', { number: 118, description: 'Schedule Transfer Protocol' }],
  ['srp', { number: 119, description: 'SpectraLink Radio Protocol' }],
  ['uti', { number: 120, description: 'UTI' }],
  ['smp', { number: 121, description: 'Simple Message Protocol' }],
  ['sm', { number: 122, description: 'Simple Multicast Protocol (deprecated)' }],
  ['ptp', { number: 123, description: 'Performance Transparency Protocol' }],
  ['isis-over-ipv4', { number: 124, description: 'IS-IS over IPv4' }],
  ['fire', { number: 125, description: 'FIRE' }],
  ['crtp', { number: 126, description: 'Combat Radio Transport Protocol' }],
  ['crudp', { number: 127, description: 'Combat Radio User Datagram' }],
  ['sscopmce', { number: 128, description: 'SSCOPMCE' }],
  ['iplt', { number: 129, description: 'IPLT' }],
  ['sps', { number: 130, description: 'Secure Packet Shield' }],
  ['pipe', { number: 131, description: 'Private IP Encapsulation within IP' }],
  ['sctp', { number: 132, description: 'Stream Control Transmission Protocol' }],
  ['fc', { number: 133, description: 'Fibre Channel' }],
  ['rsvp-e2e-ignore', { number: 134, description: 'RSVP end-to-end messages to be ignored by aggregating routers' }],
  ['mobility-header', { number: 135, description: 'Mobility Header for Mobile IPv6 (IPv6 extension header)' }],
  ['udplite', { number: 136, description: 'Lightweight User Datagram Protocol (UDP-Lite)' }],
  ['mpls-in-ip', { number: 137, description: 'MPLS encapsulated in IP' }],
  ['manet', { number: 138, description: 'MANET Protocols' }],
  ['hip', { number: 139, description: 'Host Identity Protocol' }],
  ['shim6', { number: 140, description: 'Shim6 Protocol' }],
  ['wesp', { number: 141, description: 'Wrapped Encapsulating Security Payload' }],
  ['rohc', { number: 142, description: 'Robust Header Compression' }],
  ['ethernet', { number: 143, description: 'Ethernet (encapsulation for SRv6)' }],
  ['aggfrag', { number: 144, description: 'AGGFRAG encapsulation payload for ESP' }],
  ['nsh', { number: 145, description: 'Network Service Header' }],
]);

/**
 * Non-IANA names for protocols in `IP_PROTOCOLS` (from netbase /etc/protocols and common
 * usage), mapped to the IANA keyword. Not valid keywords themselves; for suggestions only.
 */
export const IP_PROTOCOL_ALIASES: ReadonlyMap<string, string> = new Map<string, string>([
  ['ipencap', 'ipv4'],
  ['ospf', 'ospfigp'],
  ['isis', 'isis-over-ipv4'],
  ['rspf', 'cphb'],
  ['icmpv6', 'ipv6-icmp'],
  ['icmp6', 'ipv6-icmp'],
  ['ipsec-esp', 'esp'],
  ['ipsec-ah', 'ah'],
  ['udp-lite', 'udplite'],
  ['ipv6-nonext', 'ipv6-nonxt'],
]);
