/**
 * Well-known TCP/UDP ports for `tcp.dstport`, `tcp.srcport`, `udp.dstport`, `udp.srcport`:
 * the services a network firewall is usually written about, including the UDP services
 * abused for reflection/amplification DDoS attacks (marked "amplification vector").
 *
 * `service` is the name in the IANA Service Name and Transport Protocol Port Number Registry
 * (https://www.iana.org/assignments/service-names-port-numbers/), e.g. "domain" rather than
 * "dns" and "ms-wbt-server" rather than "rdp"; the common name is in `description`. The one
 * port without an IANA registration (51820, WireGuard) says so in its description.
 *
 * `protocols` lists the transports the service is actually used over in practice, which can
 * be narrower than the registry (IANA registers most ports for both TCP and UDP).
 */
export interface WellKnownPort {
  readonly service: string;
  readonly description: string;
  readonly protocols: readonly ('tcp' | 'udp')[];
}

const TCP: readonly ('tcp' | 'udp')[] = ['tcp'];
const UDP: readonly ('tcp' | 'udp')[] = ['udp'];
const BOTH: readonly ('tcp' | 'udp')[] = ['tcp', 'udp'];

export const WELL_KNOWN_PORTS: ReadonlyMap<number, WellKnownPort> = new Map<number, WellKnownPort>([
  [7, { service: 'echo', description: 'Echo Protocol; UDP amplification vector', protocols: BOTH }],
  [9, { service: 'discard', description: 'Discard Protocol (also used for Wake-on-LAN)', protocols: BOTH }],
  [17, { service: 'qotd', description: 'Quote of the Day; UDP amplification vector', protocols: BOTH }],
  [19, { service: 'chargen', description: 'Character Generator; UDP amplification vector', protocols: BOTH }],
  [20, { service: 'ftp-data', description: 'FTP data channel (active mode)', protocols: TCP }],
  [21, { service: 'ftp', description: 'FTP control channel', protocols: TCP }],
  [22, { service: 'ssh', description: 'Secure Shell (SSH, SFTP, SCP)', protocols: TCP }],
  [23, { service: 'telnet', description: 'Telnet (cleartext remote login)', protocols: TCP }],
  [25, { service: 'smtp', description: 'SMTP mail transfer between servers', protocols: TCP }],
  [43, { service: 'nicname', description: 'WHOIS', protocols: TCP }],
  [49, { service: 'tacacs', description: 'TACACS+ device administration (AAA)', protocols: TCP }],
  [53, { service: 'domain', description: 'DNS; UDP amplification vector', protocols: BOTH }],
  [67, { service: 'bootps', description: 'DHCP/BOOTP server', protocols: UDP }],
  [68, { service: 'bootpc', description: 'DHCP/BOOTP client', protocols: UDP }],
  [69, { service: 'tftp', description: 'Trivial File Transfer Protocol; UDP amplification vector', protocols: UDP }],
  [80, { service: 'http', description: 'HTTP', protocols: TCP }],
  [88, { service: 'kerberos', description: 'Kerberos authentication', protocols: BOTH }],
  [102, { service: 'iso-tsap', description: 'ISO-TSAP (Siemens S7 and other industrial control over TCP)', protocols: TCP }],
  [110, { service: 'pop3', description: 'POP3 mail retrieval', protocols: TCP }],
  [111, { service: 'sunrpc', description: 'ONC RPC portmapper (rpcbind); UDP amplification vector', protocols: BOTH }],
  [123, { service: 'ntp', description: 'Network Time Protocol; UDP amplification vector (monlist)', protocols: UDP }],
  [135, { service: 'epmap', description: 'Microsoft RPC endpoint mapper (DCE/RPC)', protocols: BOTH }],
  [137, { service: 'netbios-ns', description: 'NetBIOS Name Service; UDP amplification vector', protocols: UDP }],
  [138, { service: 'netbios-dgm', description: 'NetBIOS Datagram Service', protocols: UDP }],
  [139, { service: 'netbios-ssn', description: 'NetBIOS Session Service (SMB over NetBIOS)', protocols: TCP }],
  [143, { service: 'imap', description: 'IMAP mail access', protocols: TCP }],
  [161, { service: 'snmp', description: 'SNMP agent; UDP amplification vector', protocols: UDP }],
  [162, { service: 'snmptrap', description: 'SNMP traps', protocols: UDP }],
  [179, { service: 'bgp', description: 'Border Gateway Protocol', protocols: TCP }],
  [389, { service: 'ldap', description: 'LDAP; connectionless LDAP (CLDAP) over UDP is an amplification vector', protocols: BOTH }],
  [427, { service: 'svrloc', description: 'Service Location Protocol (SLP); UDP amplification vector', protocols: BOTH }],
  [443, { service: 'https', description: 'HTTPS over TCP; HTTP/3 (QUIC) over UDP', protocols: BOTH }],
  [445, { service: 'microsoft-ds', description: 'SMB over TCP (Windows file sharing)', protocols: TCP }],
  [464, { service: 'kpasswd', description: 'Kerberos password change', protocols: BOTH }],
  [465, { service: 'submissions', description: 'Mail submission over implicit TLS (SMTPS)', protocols: TCP }],
  [500, { service: 'isakmp', description: 'IKE/ISAKMP (IPsec key exchange)', protocols: UDP }],
  [502, { service: 'mbap', description: 'Modbus/TCP (industrial control)', protocols: TCP }],
  [514, { service: 'syslog', description: 'Syslog over UDP (TCP 514 is rsh, "shell")', protocols: UDP }],
  [520, { service: 'router', description: 'RIP (Routing Information Protocol); UDP amplification vector', protocols: UDP }],
  [521, { service: 'ripng', description: 'RIPng (RIP for IPv6)', protocols: UDP }],
  [546, { service: 'dhcpv6-client', description: 'DHCPv6 client', protocols: UDP }],
  [547, { service: 'dhcpv6-server', description: 'DHCPv6 server', protocols: UDP }],
  [554, { service: 'rtsp', description: 'Real Time Streaming Protocol', protocols: BOTH }],
  [587, { service: 'submission', description: 'Mail message submission (STARTTLS)', protocols: TCP }],
  [623, { service: 'asf-rmcp', description: 'IPMI/ASF remote management (RMCP); UDP amplification vector', protocols: UDP }],
  [631, { service: 'ipp', description: 'Internet Printing Protocol (CUPS); UDP browsing is an amplification vector', protocols: BOTH }],
  [636, { service: 'ldaps', description: 'LDAP over TLS', protocols: TCP }],
  [646, { service: 'ldp', description: 'MPLS Label Distribution Protocol', protocols: BOTH }],
  [853, { service: 'domain-s', description: 'DNS over TLS (TCP) and DNS over QUIC (UDP)', protocols: BOTH }],
  [873, { service: 'rsync', description: 'rsync daemon', protocols: TCP }],
  [993, { service: 'imaps', description: 'IMAP over TLS', protocols: TCP }],
  [995, { service: 'pop3s', description: 'POP3 over TLS', protocols: TCP }],
  [1080, { service: 'socks', description: 'SOCKS proxy', protocols: TCP }],
  [1194, { service: 'openvpn', description: 'OpenVPN', protocols: BOTH }],
  [1433, { service: 'ms-sql-s', description: 'Microsoft SQL Server', protocols: TCP }],
  [1434, { service: 'ms-sql-m', description: 'Microsoft SQL Server Browser; UDP amplification vector', protocols: UDP }],
  [1701, { service: 'l2tp', description: 'L2TP (L2TP/IPsec VPN)', protocols: UDP }],
  [1723, { service: 'pptp', description: 'PPTP VPN control channel (data is GRE, IP protocol 47)', protocols: TCP }],
  [1812, { service: 'radius', description: 'RADIUS authentication', protocols: UDP }],
  [1813, { service: 'radius-acct', description: 'RADIUS accounting', protocols: UDP }],
  [1883, { service: 'mqtt', description: 'MQTT (IoT messaging)', protocols: TCP }],
  [1900, { service: 'ssdp', description: 'SSDP/UPnP discovery; UDP amplification vector', protocols: UDP }],
  [1985, { service: 'hsrp', description: 'Hot Standby Router Protocol', protocols: UDP }],
  [2049, { service: 'nfs', description: 'Network File System', protocols: BOTH }],
  [2375, { service: 'docker', description: 'Docker REST API, unencrypted', protocols: TCP }],
  [2376, { service: 'docker-s', description: 'Docker REST API over TLS', protocols: TCP }],
  [2379, { service: 'etcd-client', description: 'etcd client API (Kubernetes control plane)', protocols: TCP }],
  [3283, { service: 'net-assistant', description: 'Apple Remote Desktop; UDP amplification vector', protocols: BOTH }],
  [3306, { service: 'mysql', description: 'MySQL/MariaDB', protocols: TCP }],
  [3389, { service: 'ms-wbt-server', description: 'Remote Desktop Protocol (RDP); its UDP transport is also an amplification vector', protocols: BOTH }],
  [3478, { service: 'stun', description: 'STUN/TURN NAT traversal; UDP reflection vector', protocols: BOTH }],
  [3544, { service: 'teredo', description: 'Teredo IPv6-over-UDP tunnelling', protocols: UDP }],
  [3702, { service: 'ws-discovery', description: 'Web Services Dynamic Discovery; UDP amplification vector', protocols: UDP }],
  [3784, { service: 'bfd-control', description: 'Bidirectional Forwarding Detection (single hop)', protocols: UDP }],
  [4500, { service: 'ipsec-nat-t', description: 'IPsec NAT traversal (IKE and ESP in UDP)', protocols: UDP }],
  [4789, { service: 'vxlan', description: 'VXLAN overlay network', protocols: UDP }],
  [5060, { service: 'sip', description: 'SIP VoIP signalling', protocols: BOTH }],
  [5061, { service: 'sips', description: 'SIP over TLS', protocols: TCP }],
  [5349, { service: 'stuns', description: 'STUN/TURN over TLS or DTLS', protocols: BOTH }],
  [5351, { service: 'nat-pmp', description: 'NAT-PMP / Port Control Protocol on routers; UDP reflection vector', protocols: UDP }],
  [5353, { service: 'mdns', description: 'Multicast DNS; UDP amplification vector when reachable from the Internet', protocols: UDP }],
  [5355, { service: 'llmnr', description: 'Link-Local Multicast Name Resolution', protocols: UDP }],
  [5432, { service: 'postgresql', description: 'PostgreSQL', protocols: TCP }],
  [5672, { service: 'amqp', description: 'AMQP (e.g. RabbitMQ)', protocols: TCP }],
  [5683, { service: 'coap', description: 'Constrained Application Protocol (IoT); UDP amplification vector', protocols: UDP }],
  [5900, { service: 'rfb', description: 'VNC (Remote Framebuffer)', protocols: TCP }],
  [5985, { service: 'wsman', description: 'WinRM / WS-Management over HTTP', protocols: TCP }],
  [5986, { service: 'wsmans', description: 'WinRM / WS-Management over HTTPS', protocols: TCP }],
  [6081, { service: 'geneve', description: 'Geneve overlay network', protocols: UDP }],
  [6379, { service: 'redis', description: 'Redis', protocols: TCP }],
  [7547, { service: 'cwmp', description: 'TR-069 CPE WAN management (ISP router management)', protocols: TCP }],
  [8080, { service: 'http-alt', description: 'Alternative HTTP port (proxies, application servers)', protocols: TCP }],
  [8443, { service: 'pcsync-https', description: 'Alternative HTTPS port (IANA name pcsync-https)', protocols: TCP }],
  [8883, { service: 'secure-mqtt', description: 'MQTT over TLS', protocols: TCP }],
  [9100, { service: 'pdl-datastream', description: 'Raw printing (HP JetDirect)', protocols: TCP }],
  [11211, { service: 'memcache', description: 'Memcached; UDP amplification vector', protocols: BOTH }],
  [20000, { service: 'dnp', description: 'DNP3 (industrial control / SCADA)', protocols: BOTH }],
  [27017, { service: 'mongodb', description: 'MongoDB', protocols: TCP }],
  [47808, { service: 'bacnet', description: 'BACnet/IP building automation; UDP amplification vector', protocols: UDP }],
  [51820, { service: 'wireguard', description: 'WireGuard default port (not IANA-registered)', protocols: UDP }],
]);
