/**
 * Our own words for every field and function of the catalogue: a one-line doc and an example
 * expression that uses it. Written for this project (paraphrase, never the docs' sentences);
 * the generator (scripts/catalogue/fields.ts) merges them with the engine's and the docs' facts.
 *
 * An example is a filter the engine accepts (the oracle's catalogue test parses each one),
 * except for what the docs allow only in value expressions: there the example is a value
 * expression, and the test parses it compared with a string.
 */
import { TCP_FLAG_BITS, hexByte } from '../../server/src/language/catalogue/tcp-flags';

/** doc, example. */
type Prose = readonly [doc: string, example: string];

/** The magic_transit fields, as the catalogue has always described them. */
export const MAGIC_FIELD_PROSE: Readonly<Record<string, Prose>> = {
  'ip.src': ['Source IP address of the packet.', 'ip.src in {192.0.2.0/24}'],
  'ip.dst': ['Destination IP address of the packet.', 'ip.dst == 203.0.113.7'],
  'ip.src.country': ['ISO 3166-1 alpha-2 country code of the source address.', 'ip.src.country == "BR"'],
  'ip.dst.country': ['ISO 3166-1 alpha-2 country code of the destination address.', 'ip.dst.country in {"DE" "FR"}'],
  'ip.geoip.country': ['ISO 3166-1 alpha-2 country code of the source or the destination address.', 'ip.geoip.country == "CN"'],
  'ip.src.asnum': ['Autonomous system number of the source address.', 'ip.src.asnum == 64496'],
  'ip.dst.asnum': ['Autonomous system number of the destination address.', 'ip.dst.asnum in {64496 64511}'],
  'ip.proto': ['Transport protocol name, lowercase (IANA keyword: "tcp", "udp", "icmp", "gre", …).', 'ip.proto == "udp"'],
  'ip.len': ['Length of the packet in bytes, header included.', 'ip.len > 1400'],
  'ip.hdr_len': ['Length of the IPv4 header.', 'ip.hdr_len > 20'],
  'ip.ttl': ['Time to live of the packet.', 'ip.ttl < 10'],
  'ip.opt.type': ['First byte of the IPv4 options.', 'ip.opt.type == 7'],
  'tcp.srcport': ['TCP source port.', 'tcp.srcport == 53'],
  'tcp.dstport': ['TCP destination port.', 'tcp.dstport in {80 443}'],
  'udp.srcport': ['UDP source port.', 'udp.srcport == 123'],
  'udp.dstport': ['UDP destination port.', 'udp.dstport in {1024..65535}'],
  'tcp.flags': [`The TCP flags byte (${TCP_FLAG_BITS.map((bit) => `${bit.name} ${hexByte(bit.value)}`).join(', ')}).`, 'tcp.flags & 0x02'],
  'tcp.flags.ack': ['The TCP ACK flag is set.', 'tcp.flags.ack'],
  'tcp.flags.cwr': ['The TCP CWR (congestion window reduced) flag is set.', 'tcp.flags.cwr'],
  'tcp.flags.ecn': ['The TCP ECE (ECN echo) flag is set.', 'tcp.flags.ecn'],
  'tcp.flags.fin': ['The TCP FIN flag is set.', 'tcp.flags.fin'],
  'tcp.flags.push': ['The TCP PSH flag is set.', 'tcp.flags.push'],
  'tcp.flags.reset': ['The TCP RST flag is set.', 'tcp.flags.reset'],
  'tcp.flags.syn': ['The TCP SYN flag is set.', 'tcp.flags.syn and not tcp.flags.ack'],
  'tcp.flags.urg': ['The TCP URG flag is set.', 'tcp.flags.urg'],
  'icmp.type': ['ICMP type (0 echo reply, 3 destination unreachable, 8 echo request, 11 time exceeded).', 'icmp.type == 8'],
  'icmp.code': ['ICMP code.', 'icmp.type == 3 and icmp.code == 4'],
  sip: ['The packet is a valid SIP message (UDP).', 'sip and udp.dstport == 5060'],
  'cf.colo.name': ['Name of the data centre handling the packet.', 'cf.colo.name == "ams01"'],
  'cf.colo.region': ['Region of the data centre handling the packet.', 'cf.colo.region == "WNAM"'],
  ip: ['The raw IP packet, for use with bit_slice.', 'bit_slice(ip, 72, 80) == 6'],
  tcp: ['The raw TCP header, for use with bit_slice.', 'bit_slice(tcp, 0, 16) == 53'],
  udp: ['The raw UDP header, for use with bit_slice.', 'bit_slice(udp, 64, 72) == 0x45'],
  icmp: ['The raw ICMP header, for use with bit_slice.', 'bit_slice(icmp, 0, 8) == 8'],
};

/** The fields of the HTTP phases. */
export const HTTP_FIELD_PROSE: Readonly<Record<string, Prose>> = {
  // Request line, host and URI
  'http.host': ['Host name the client asked for (the Host header as it arrived, before any Origin Rule changed it).', 'http.host == "www.example.com"'],
  'http.request.method': ['HTTP method of the request, in capitals ("GET", "POST", …).', 'http.request.method in {"PUT" "DELETE"}'],
  'http.request.version': ['HTTP version the client spoke, e.g. "HTTP/1.1" or "HTTP/3".', 'http.request.version == "HTTP/1.0"'],
  'http.request.full_uri': ['Whole URI of the request: scheme, host, path and query (never the #fragment).', 'http.request.full_uri wildcard "https://example.com/shop/*"'],
  'http.request.uri': ['Path and query string of the request.', 'http.request.uri contains "?debug="'],
  'http.request.uri.path': ['Path of the request, without the query string.', 'starts_with(http.request.uri.path, "/admin/")'],
  'http.request.uri.path.extension': ['File extension at the end of the path, lowercase and without the dot ("" when there is none).', 'http.request.uri.path.extension in {"php" "asp"}'],
  'http.request.uri.query': ['Query string of the request, without the leading "?".', 'http.request.uri.query contains "utm_source="'],
  'http.request.uri.args': ['Query string arguments by name; each name maps to its values in order of appearance, undecoded.', 'any(http.request.uri.args["id"][*] == "0")'],
  'http.request.uri.args.names': ['Names of the query string arguments, repeats included, undecoded.', 'any(http.request.uri.args.names[*] == "redirect_to")'],
  'http.request.uri.args.values': ['Values of the query string arguments, in request order, undecoded.', 'any(http.request.uri.args.values[*] contains "<script")'],
  'http.request.timestamp.sec': ['When Cloudflare received the request, in seconds of Unix time.', 'http.request.timestamp.sec < 1767225600'],
  'http.request.timestamp.msec': ['Millisecond part (0 to 999) of the time Cloudflare received the request.', 'http.request.timestamp.msec < 100'],
  ssl: ['The connection from the client is encrypted (HTTPS).', 'not ssl'],
  // Untransformed copies
  'raw.http.request.full_uri': ['Whole URI of the request as received, untouched by earlier rules.', 'raw.http.request.full_uri contains "%2e%2e"'],
  'raw.http.request.uri': ['Path and query string as received, untouched by earlier rules.', 'raw.http.request.uri contains "//"'],
  'raw.http.request.uri.path': ['Path as received, untouched by earlier rules.', 'raw.http.request.uri.path ne http.request.uri.path'],
  'raw.http.request.uri.path.extension': ['File extension of the path as received, not lowercased and untouched by earlier rules.', 'raw.http.request.uri.path.extension == "PHP"'],
  'raw.http.request.uri.query': ['Query string as received, untouched by earlier rules.', 'raw.http.request.uri.query contains "%00"'],
  'raw.http.request.uri.args': ['Query string arguments by name as received, untouched by earlier rules.', 'any(raw.http.request.uri.args["page"][*] == "1")'],
  'raw.http.request.uri.args.names': ['Names of the query string arguments as received, untouched by earlier rules.', 'any(raw.http.request.uri.args.names[*] == "token")'],
  'raw.http.request.uri.args.values': ['Values of the query string arguments as received, untouched by earlier rules.', 'any(raw.http.request.uri.args.values[*] == "true")'],
  // Headers
  'http.request.headers': ['Request headers by name: names are lowercase, each maps to its values in order, undecoded.', 'any(http.request.headers["x-api-key"][*] == "secret")'],
  'http.request.headers.names': ['Names of the request headers as sent (case kept), repeats included.', 'any(lower(http.request.headers.names[*])[*] == "x-forwarded-host")'],
  'http.request.headers.values': ['Values of the request headers, repeats included, in the same order as the names.', 'any(len(http.request.headers.values[*])[*] > 4096)'],
  'http.request.headers.truncated': ['The request had more headers than the header fields could hold.', 'http.request.headers.truncated'],
  'http.request.accepted_languages': ['Language tags of the Accept-Language header, highest weight first ("*" left out).', 'http.request.accepted_languages[0] == "fr-CH"'],
  'http.cookie': ['The whole Cookie header as one string.', 'http.cookie contains "session="'],
  'http.request.cookies': ['Cookies by name (names URL-decoded, values as sent); a repeated name gathers all its values.', 'any(http.request.cookies["session"][*] == "")'],
  'http.referer': ['The Referer header: the page that linked to this one.', 'not http.referer contains "example.com"'],
  'http.user_agent': ['The User-Agent header the client sent.', 'http.user_agent contains "curl/"'],
  'http.x_forwarded_for': ['The X-Forwarded-For header, as one string.', 'http.x_forwarded_for != ""'],
  // Body
  'http.request.body.raw': ['Request body as received, possibly cut short (see http.request.body.truncated).', 'http.request.body.raw contains "<?php"'],
  'http.request.body.truncated': ['The request body was longer than the body fields could hold.', 'http.request.body.truncated'],
  'http.request.body.size': ['Size of the whole request body in bytes, even when the body fields are truncated.', 'http.request.body.size > 1048576'],
  'http.request.body.mime': ['MIME type guessed from the content of the request body.', 'http.request.body.mime == "application/x-msdownload"'],
  'http.request.body.form': ['Fields of a URL-encoded form body by name, each with its values in order.', 'any(http.request.body.form["username"][*] == "admin")'],
  'http.request.body.form.names': ['Names of the fields of a URL-encoded form body, repeats included.', 'any(http.request.body.form.names[*] == "password")'],
  'http.request.body.form.values': ['Values of the fields of a URL-encoded form body, in order.', 'any(http.request.body.form.values[*] contains "<script")'],
  'http.request.body.multipart': ['Parts of a multipart body by part name, each with its values.', 'any(http.request.body.multipart["role"][*] == "admin")'],
  'http.request.body.multipart.names': ['For each part of a multipart body, the names it carries.', 'any(http.request.body.multipart.names[*][0] == "upload")'],
  'http.request.body.multipart.values': ['Value of each part of a multipart body.', 'any(http.request.body.multipart.values[*] contains "<?php")'],
  'http.request.body.multipart.content_types': ['For each part of a multipart body, its Content-Type headers.', 'any(http.request.body.multipart.content_types[*][0] == "application/x-php")'],
  'http.request.body.multipart.content_dispositions': ['For each part of a multipart body, its Content-Disposition headers.', 'any(http.request.body.multipart.content_dispositions[*][0] contains "filename=")'],
  'http.request.body.multipart.content_transfer_encodings': ['For each part of a multipart body, its Content-Transfer-Encoding headers.', 'any(http.request.body.multipart.content_transfer_encodings[*][0] == "base64")'],
  'http.request.body.multipart.filenames': ['For each part of a multipart body, the file names it gives.', 'any(http.request.body.multipart.filenames[*][0] wildcard "*.php")'],
  // Client address and geolocation
  'ip.src': ['IP address of the client (it may come from a header such as X-Forwarded-For).', 'ip.src in {198.51.100.0/24}'],
  'ip.src.asnum': ['Autonomous system number of the client address.', 'ip.src.asnum in {64496 64511}'],
  'ip.src.country': ['ISO 3166-1 alpha-2 country code of the client address.', 'ip.src.country in {"KP" "IR"}'],
  'ip.src.continent': ['Continent code of the client address ("AF", "AN", "AS", "EU", "NA", "OC", "SA", or "T1" for Tor).', 'ip.src.continent == "T1"'],
  'ip.src.is_in_european_union': ['The client address is located in a country of the European Union.', 'ip.src.is_in_european_union'],
  'ip.src.subdivision_1_iso_code': ['ISO 3166-2 code of the first-level region of the client address ("" when unknown).', 'ip.src.subdivision_1_iso_code == "GB-SCT"'],
  'ip.src.subdivision_2_iso_code': ['ISO 3166-2 code of the second-level region of the client address ("" when unknown).', 'ip.src.subdivision_2_iso_code == "GB-EDH"'],
  'ip.src.region': ['Name of the region of the client address.', 'ip.src.region == "Bavaria"'],
  'ip.src.region_code': ['Code of the region of the client address.', 'ip.src.region_code == "BY"'],
  'ip.src.city': ['City of the client address.', 'ip.src.city == "Lisbon"'],
  'ip.src.postal_code': ['Postal code of the client address.', 'ip.src.postal_code == "10115"'],
  'ip.src.metro_code': ['Metro (DMA) code of the client address.', 'ip.src.metro_code == "501"'],
  'ip.src.lat': ['Latitude of the client address, as a string.', 'ip.src.lat != ""'],
  'ip.src.lon': ['Longitude of the client address, as a string.', 'ip.src.lon != ""'],
  'ip.src.timezone.name': ['Time zone name of the client address, e.g. "Europe/Paris" (rewrite expressions of Transform Rules only).', 'concat("tz=", ip.src.timezone.name)'],
  'ip.geoip.asnum': ['Deprecated name of ip.src.asnum: the autonomous system number of the client address.', 'ip.geoip.asnum == 64496'],
  'ip.geoip.continent': ['Deprecated name of ip.src.continent: the continent code of the client address.', 'ip.geoip.continent == "EU"'],
  'ip.geoip.country': ['Deprecated name of ip.src.country: the country code of the client address.', 'ip.geoip.country == "CN"'],
  'ip.geoip.subdivision_1_iso_code': ['Deprecated name of ip.src.subdivision_1_iso_code.', 'ip.geoip.subdivision_1_iso_code == "US-CA"'],
  'ip.geoip.subdivision_2_iso_code': ['Deprecated name of ip.src.subdivision_2_iso_code.', 'ip.geoip.subdivision_2_iso_code == "GB-EDH"'],
  'ip.geoip.is_in_european_union': ['Deprecated name of ip.src.is_in_european_union.', 'ip.geoip.is_in_european_union'],
  // Bots
  'cf.client.bot': ['The request comes from a known good bot or crawler (same answer as cf.bot_management.verified_bot).', 'not cf.client.bot'],
  'cf.verified_bot_category': ['Kind of verified bot the request comes from (search engine, monitoring, …).', 'cf.verified_bot_category == "Search Engine Crawler"'],
  'cf.bot_management.score': ['Bot score from 1 (surely automated) to 99 (surely human).', 'cf.bot_management.score lt 30'],
  'cf.bot_management.verified_bot': ['The request comes from a known good bot or crawler.', 'not cf.bot_management.verified_bot and cf.bot_management.score < 30'],
  'cf.bot_management.static_resource': ['The request is for a static resource, which bot rules often leave out.', 'not cf.bot_management.static_resource and cf.bot_management.score < 30'],
  'cf.bot_management.ja3_hash': ['JA3 fingerprint of the client TLS handshake.', 'cf.bot_management.ja3_hash == "e7d705a3286e19ea42f587b344ee6865"'],
  'cf.bot_management.ja4': ['JA4 fingerprint of the client TLS handshake.', 'cf.bot_management.ja4 == "t13d1516h2_8daaf6152771_b0da82dd1658"'],
  'cf.bot_management.js_detection.passed': ['The client has passed a JavaScript detection before.', 'not cf.bot_management.js_detection.passed'],
  'cf.bot_management.detection_ids': ['IDs of the bot heuristics that fired on the request.', 'any(cf.bot_management.detection_ids[*] == 33554817)'],
  'cf.bot_management.corporate_proxy': ['The request comes through a recognised corporate proxy or secure web gateway.', 'cf.bot_management.corporate_proxy'],
  'cf.bot_management.signed_agent': ['The request comes from a known agent that signs its requests (Web Bot Auth).', 'cf.bot_management.signed_agent'],
  // Cloudflare
  'cf.edge.server_ip': ['Cloudflare address the request arrived at (of use with BYOIP).', 'cf.edge.server_ip == 203.0.113.10'],
  'cf.edge.server_port': ['Port the request arrived at on Cloudflare (1 to 65535).', 'cf.edge.server_port != 443'],
  'cf.edge.client_tcp': ['The client connected over TCP.', 'not cf.edge.client_tcp'],
  'cf.edge.l4.delivery_rate': ['Latest estimate of the rate data reaches the client, in bytes per second (0 when unknown).', 'cf.edge.l4.delivery_rate < 100000'],
  'cf.hostname.metadata': ['Custom metadata of the hostname (SSL for SaaS), as a JSON string.', 'lookup_json_string(cf.hostname.metadata, "tier") == "gold"'],
  'cf.random_seed': ['Random bytes, fresh for each request, to feed uuidv4().', 'uuidv4(cf.random_seed)'],
  'cf.ray_id': ['Ray ID that identifies the request at Cloudflare.', 'cf.ray_id == "8c5b2f1e9a3d4b7c"'],
  'cf.threat_score': ['Former threat score; the docs say it is always 0 now, so a test above 0 never matches.', 'cf.threat_score gt 10'],
  'cf.worker.upstream_zone': ['Zone of the Worker that sent the request ("" when no Worker did).', 'cf.worker.upstream_zone != ""'],
  'cf.zone.name': ['Name of the zone the request is for; used to scope rules deployed at the account level.', 'cf.zone.name in {"example.com" "example.net"}'],
  'cf.zone.plan': ['Plan of the zone the request is for (e.g. "ENT"); account-level rulesets end with a test of it.', 'cf.zone.name eq "example.com" and cf.zone.plan eq "ENT"'],
  'cf.sequence.current_op': ['ID of the API Shield operation (saved endpoint) the request matches, "" when none; for sequence rules.', 'cf.sequence.current_op eq "c821cc00"'],
  'cf.sequence.previous_ops': ['IDs of the operations the same session requested before this one, most recent first.', 'any(cf.sequence.previous_ops[*] == "c821cc00")'],
  'cf.sequence.msec_since_op': ['Milliseconds since the session last requested each earlier operation, by operation ID.', 'cf.sequence.msec_since_op["c821cc00"] ge 2000'],
  'cf.metal.id': ['Listed by the docs among the fields a header value may use, without a description or a type (read as a String).', 'cf.metal.id'],
  // Timings
  'cf.timings.client_tcp_rtt_msec': ['Smoothed TCP round-trip time to the client in milliseconds (0 over QUIC).', 'cf.timings.client_tcp_rtt_msec > 300'],
  'cf.timings.client_quic_rtt_msec': ['Smoothed QUIC round-trip time to the client in milliseconds (0 over TCP).', 'cf.timings.client_quic_rtt_msec > 300'],
  'cf.timings.edge_msec': ['Milliseconds Cloudflare spent on the request, origin and transfer to the client left out.', 'cf.timings.edge_msec > 500'],
  'cf.timings.origin_ttfb_msec': ['Milliseconds until the first byte from the origin (0 when served from cache).', 'cf.timings.origin_ttfb_msec > 2000'],
  'cf.timings.worker_msec': ['Milliseconds a Worker spent on the request (0 when none ran).', 'cf.timings.worker_msec > 50'],
  // TLS
  'cf.tls_cipher': ['Cipher suite of the TLS connection to Cloudflare.', 'cf.tls_cipher == "ECDHE-RSA-AES128-GCM-SHA256"'],
  'cf.tls_version': ['TLS version of the connection to Cloudflare, e.g. "TLSv1.3".', 'cf.tls_version in {"TLSv1" "TLSv1.1"}'],
  'cf.tls_ciphers_sha1': ['SHA-1 of the cipher list the client offered, in its order, as Base64.', 'cf.tls_ciphers_sha1 == "GXSPDLP4G3X+prK73a4wBuOaHRc="'],
  'cf.tls_client_extensions_sha1': ['SHA-1 of the TLS extensions the client sent, as Base64 (big-endian).', 'cf.tls_client_extensions_sha1 == "OWFiM2I5ZDc0YWI0YWYzZmFkMGU0ZjhlYjhiYmVkMjgxNTU5YTU2Mg=="'],
  'cf.tls_client_extensions_sha1_le': ['SHA-1 of the TLS extensions the client sent, as Base64 (little-endian).', 'cf.tls_client_extensions_sha1_le == "7zIpdDU5pvFPPBI2/PCzqbaXnRA="'],
  'cf.tls_client_hello_length': ['Length in bytes of the client hello of the TLS handshake.', 'cf.tls_client_hello_length > 1500'],
  'cf.tls_client_random': ['The 32 random bytes of the client hello, as Base64.', 'cf.tls_client_random != ""'],
  // Client certificates (mTLS)
  'cf.tls_client_auth.cert_presented': ['The client presented a certificate (valid or not).', 'not cf.tls_client_auth.cert_presented'],
  'cf.tls_client_auth.cert_verified': ['The client presented a valid certificate (also when it has been revoked).', 'not cf.tls_client_auth.cert_verified'],
  'cf.tls_client_auth.cert_revoked': ['The client certificate is valid but revoked.', 'cf.tls_client_auth.cert_revoked'],
  'cf.tls_client_auth.cert_issuer_dn': ['Distinguished name of the authority that issued the client certificate ("" without mTLS).', 'cf.tls_client_auth.cert_issuer_dn contains "O=Example"'],
  'cf.tls_client_auth.cert_subject_dn': ['Distinguished name of the client certificate subject ("" without mTLS).', 'cf.tls_client_auth.cert_subject_dn contains "CN=device-42"'],
  'cf.tls_client_auth.cert_issuer_dn_rfc2253': ['Issuer distinguished name of the client certificate in RFC 2253 form.', 'cf.tls_client_auth.cert_issuer_dn_rfc2253 contains "O=Example"'],
  'cf.tls_client_auth.cert_subject_dn_rfc2253': ['Subject distinguished name of the client certificate in RFC 2253 form.', 'cf.tls_client_auth.cert_subject_dn_rfc2253 contains "CN=device-42"'],
  'cf.tls_client_auth.cert_issuer_dn_legacy': ['Issuer distinguished name of the client certificate in the older slash-separated form.', 'cf.tls_client_auth.cert_issuer_dn_legacy contains "/O=Example"'],
  'cf.tls_client_auth.cert_subject_dn_legacy': ['Subject distinguished name of the client certificate in the older slash-separated form.', 'cf.tls_client_auth.cert_subject_dn_legacy contains "/CN=device-42"'],
  'cf.tls_client_auth.cert_serial': ['Serial number of the client certificate.', 'cf.tls_client_auth.cert_serial == "527E0F20A20EA2A4146C78390F34CE7AF0878CA4"'],
  'cf.tls_client_auth.cert_issuer_serial': ['Serial number of the certificate that directly issued the client certificate.', 'cf.tls_client_auth.cert_issuer_serial != ""'],
  'cf.tls_client_auth.cert_fingerprint_sha256': ['SHA-256 fingerprint of the client certificate.', 'cf.tls_client_auth.cert_fingerprint_sha256 in {"af363dc85bc942a892d3cee9796190fdb36d89cd588a4f1cb17c74a943439714"}'],
  'cf.tls_client_auth.cert_fingerprint_sha1': ['SHA-1 fingerprint of the client certificate.', 'cf.tls_client_auth.cert_fingerprint_sha1 == "933ad5282c560ae3f482a43ecd73bc9de878a190"'],
  'cf.tls_client_auth.cert_not_before': ['Start of the validity of the client certificate, as a date string.', 'cf.tls_client_auth.cert_not_before != ""'],
  'cf.tls_client_auth.cert_not_after': ['End of the validity of the client certificate, as a date string.', 'cf.tls_client_auth.cert_not_after contains "2025"'],
  'cf.tls_client_auth.cert_ski': ['Subject key identifier of the client certificate.', 'cf.tls_client_auth.cert_ski != ""'],
  'cf.tls_client_auth.cert_issuer_ski': ['Subject key identifier of the certificate that directly issued the client certificate.', 'cf.tls_client_auth.cert_issuer_ski != ""'],
  'cf.tls_client_auth.cert_rfc9440': ['The client leaf certificate as an RFC 9440 Client-Cert header value ("" when absent or over 10 KiB).', 'cf.tls_client_auth.cert_rfc9440 != ""'],
  'cf.tls_client_auth.cert_rfc9440_too_large': ['The RFC 9440 form of the client certificate was over 10 KiB, so cf.tls_client_auth.cert_rfc9440 is empty.', 'cf.tls_client_auth.cert_rfc9440_too_large'],
  'cf.tls_client_auth.cert_chain_rfc9440': ['The intermediate certificates the client sent, as an RFC 9440 Client-Cert-Chain header value.', 'cf.tls_client_auth.cert_chain_rfc9440 != ""'],
  'cf.tls_client_auth.cert_chain_rfc9440_too_large': ['The RFC 9440 form of the client certificate chain was over 16 KiB, so the chain field is empty.', 'cf.tls_client_auth.cert_chain_rfc9440_too_large'],
  // API Shield and JWT validation
  'cf.api_gateway.auth_id_present': ['The request carries an API session identifier as configured in API Shield.', 'not cf.api_gateway.auth_id_present'],
  'cf.api_gateway.request_violates_schema': ['The request does not follow the schema of its saved endpoint (API Shield).', 'cf.api_gateway.request_violates_schema'],
  'cf.api_gateway.fallthrough_detected': ['The request matched no saved endpoint of Endpoint Management.', 'cf.api_gateway.fallthrough_detected'],
  'cf.schema_validation.learned.violated': ['The request breaks the learned profile of its endpoint (schema validation).', 'cf.schema_validation.learned.violated'],
  'cf.schema_validation.uploaded.violated': ['The request breaks the schema you uploaded (schema validation).', 'cf.schema_validation.uploaded.violated'],
  'http.request.jwt.claims.aud': ['Audience (aud) claims of the validated JSON Web Tokens, as a map of arrays.', 'any(http.request.jwt.claims.aud[*][*] == "api")'],
  'http.request.jwt.claims.aud.names': ['Keys of the map of audience (aud) claims.', 'any(http.request.jwt.claims.aud.names[*] != "")'],
  'http.request.jwt.claims.aud.values': ['Audience (aud) claims of the validated JSON Web Tokens.', 'any(http.request.jwt.claims.aud.values[*] == "api")'],
  'http.request.jwt.claims.iat.sec': ['Issued-at (iat) times in Unix seconds of the validated JSON Web Tokens, as a map of arrays.', 'any(http.request.jwt.claims.iat.sec[*][*] < 1704067200)'],
  'http.request.jwt.claims.iat.sec.names': ['Keys of the map of issued-at (iat) times in Unix seconds.', 'any(http.request.jwt.claims.iat.sec.names[*] != "")'],
  'http.request.jwt.claims.iat.sec.values': ['Issued-at (iat) times of the validated JSON Web Tokens in Unix seconds.', 'any(http.request.jwt.claims.iat.sec.values[*] < 1704067200)'],
  'http.request.jwt.claims.iss': ['Issuer (iss) claims of the validated JSON Web Tokens, as a map of arrays.', 'any(http.request.jwt.claims.iss[*][*] == "https://auth.example.com")'],
  'http.request.jwt.claims.iss.names': ['Keys of the map of issuer (iss) claims.', 'any(http.request.jwt.claims.iss.names[*] != "")'],
  'http.request.jwt.claims.iss.values': ['Issuer (iss) claims of the validated JSON Web Tokens.', 'any(http.request.jwt.claims.iss.values[*] == "https://auth.example.com")'],
  'http.request.jwt.claims.jti': ['Token ID (jti) claims of the validated JSON Web Tokens, as a map of arrays.', 'any(http.request.jwt.claims.jti[*][*] == "revoked-1")'],
  'http.request.jwt.claims.jti.names': ['Keys of the map of token ID (jti) claims.', 'any(http.request.jwt.claims.jti.names[*] != "")'],
  'http.request.jwt.claims.jti.values': ['Token ID (jti) claims of the validated JSON Web Tokens.', 'any(http.request.jwt.claims.jti.values[*] in {"revoked-1" "revoked-2"})'],
  'http.request.jwt.claims.nbf.sec': ['Not-before (nbf) times in Unix seconds of the validated JSON Web Tokens, as a map of arrays.', 'any(http.request.jwt.claims.nbf.sec[*][*] > 1767225600)'],
  'http.request.jwt.claims.nbf.sec.names': ['Keys of the map of not-before (nbf) times in Unix seconds.', 'any(http.request.jwt.claims.nbf.sec.names[*] != "")'],
  'http.request.jwt.claims.nbf.sec.values': ['Not-before (nbf) times of the validated JSON Web Tokens in Unix seconds.', 'any(http.request.jwt.claims.nbf.sec.values[*] > 1767225600)'],
  'http.request.jwt.claims.sub': ['Subject (sub) claims of the validated JSON Web Tokens, as a map of arrays.', 'any(http.request.jwt.claims.sub[*][*] == "user-1")'],
  'http.request.jwt.claims.sub.names': ['Keys of the map of subject (sub) claims.', 'any(http.request.jwt.claims.sub.names[*] != "")'],
  'http.request.jwt.claims.sub.values': ['Subject (sub) claims of the validated JSON Web Tokens.', 'any(http.request.jwt.claims.sub.values[*] == "user-1")'],
  // WAF detections
  'cf.waf.score': ['WAF attack score from 1 (surely an attack) to 99 (surely clean); 100 when the request was not scored.', 'cf.waf.score le 20'],
  'cf.waf.score.sqli': ['WAF attack score for SQL injection, 1 (surely an attack) to 99.', 'cf.waf.score.sqli le 20'],
  'cf.waf.score.xss': ['WAF attack score for cross-site scripting, 1 (surely an attack) to 99.', 'cf.waf.score.xss le 20'],
  'cf.waf.score.rce': ['WAF attack score for command injection / remote code execution, 1 (surely an attack) to 99.', 'cf.waf.score.rce le 20'],
  'cf.waf.score.class': ['Class of the WAF attack score: "attack", "likely_attack", "likely_clean" or "clean".', 'cf.waf.score.class in {"attack" "likely_attack"}'],
  'cf.waf.auth_detected': ['The WAF found login credentials in the request.', 'cf.waf.auth_detected and http.request.method == "POST"'],
  'cf.waf.credential_check.password_leaked': ['The password found in the request is known to have leaked.', 'cf.waf.credential_check.password_leaked'],
  'cf.waf.credential_check.username_leaked': ['The user name found in the request is known to have leaked.', 'cf.waf.credential_check.username_leaked'],
  'cf.waf.credential_check.username_and_password_leaked': ['The user name and password pair found in the request is known to have leaked.', 'cf.waf.credential_check.username_and_password_leaked'],
  'cf.waf.credential_check.username_password_similar': ['Credentials close to the ones found in the request are known to have leaked.', 'cf.waf.credential_check.username_password_similar'],
  'cf.waf.content_scan.has_obj': ['The request holds at least one content object (uploaded file) to scan.', `cf.waf.content_scan.has_obj and http.request.uri.path eq "/upload"`],
  'cf.waf.content_scan.has_malicious_obj': ['At least one content object of the request was found malicious.', 'cf.waf.content_scan.has_malicious_obj'],
  'cf.waf.content_scan.has_failed': ['The scanner could not scan some content object of the request.', 'cf.waf.content_scan.has_failed'],
  'cf.waf.content_scan.num_obj': ['Number of content objects found in the request.', 'cf.waf.content_scan.num_obj > 5'],
  'cf.waf.content_scan.num_malicious_obj': ['Number of malicious content objects found in the request.', 'cf.waf.content_scan.num_malicious_obj > 0'],
  'cf.waf.content_scan.obj_sizes': ['Size in bytes of each content object, in the order found.', 'any(cf.waf.content_scan.obj_sizes[*] > 10485760)'],
  'cf.waf.content_scan.obj_types': ['File type of each content object, in the order found.', 'any(cf.waf.content_scan.obj_types[*] == "application/x-msdownload")'],
  'cf.waf.content_scan.obj_results': ['Scan result of each content object: "clean", "suspicious", "infected" or "not scanned".', 'any(cf.waf.content_scan.obj_results[*] in {"suspicious" "infected"})'],
  // AI Security for Apps
  'cf.llm.prompt.detected': ['The request carries a prompt for a large language model.', 'cf.llm.prompt.detected and http.host == "api.example.com"'],
  'cf.llm.prompt.pii_detected': ['Personal data was found in the LLM prompt of the request.', 'cf.llm.prompt.pii_detected'],
  'cf.llm.prompt.pii_categories': ['Categories of personal data found in the LLM prompt (e.g. "EMAIL_ADDRESS", "CREDIT_CARD").', 'any(cf.llm.prompt.pii_categories[*] in {"CREDIT_CARD" "US_SSN"})'],
  'cf.llm.prompt.unsafe_topic_detected': ['An unsafe topic was found in the LLM prompt of the request.', 'cf.llm.prompt.unsafe_topic_detected'],
  'cf.llm.prompt.unsafe_topic_categories': ['Unsafe topic categories found in the LLM prompt, "S1" to "S14".', 'any(cf.llm.prompt.unsafe_topic_categories[*] in {"S1" "S9"})'],
  'cf.llm.prompt.injection_score': ['Prompt injection score from 1 (surely an injection) to 99; 100 when not scored.', 'cf.llm.prompt.injection_score < 20'],
  'cf.llm.prompt.token_count': ['Estimated number of tokens in the LLM prompt.', 'cf.llm.prompt.token_count > 4000'],
  'cf.llm.prompt.custom_topic_categories': ['Relevance score (1 to 99, lower is more relevant) of the prompt to each custom topic you defined.', 'cf.llm.prompt.custom_topic_categories["competitors"] < 30'],
  // Response
  'http.response.code': ['HTTP status code of the response.', 'http.response.code in {500..599}'],
  'http.response.headers': ['Response headers by lowercase name, each with its values in order.', 'any(http.response.headers["server"][*] == "nginx")'],
  'http.response.headers.names': ['Names of the response headers as sent, repeats included.', 'any(http.response.headers.names[*] == "x-powered-by")'],
  'http.response.headers.values': ['Values of the response headers, in the same order as the names.', 'any(http.response.headers.values[*] contains "PHP/5")'],
  'http.response.content_type.media_type': ['Media type of the response from its Content-Type, lowercase and without parameters.', 'http.response.content_type.media_type == "text/html"'],
  'raw.http.response.headers': ['Response headers by name as received, untouched by earlier rules.', 'any(raw.http.response.headers["server"][*] == "nginx")'],
  'raw.http.response.headers.names': ['Names of the response headers as received, untouched by earlier rules.', 'any(raw.http.response.headers.names[*] == "x-powered-by")'],
  'raw.http.response.headers.values': ['Values of the response headers as received, untouched by earlier rules.', 'any(raw.http.response.headers.values[*] contains "PHP/5")'],
  'cf.response.1xxx_code': ['Code of the Cloudflare 1xxx error being returned (0 when none).', 'cf.response.1xxx_code == 1020'],
  'cf.response.error_type': ['Kind of Cloudflare error being returned ("waf", "ratelimit", "1xxx", …; "" when none).', 'cf.response.error_type in {"waf" "ratelimit"}'],
};

export interface FunctionProse {
  readonly doc: string;
  readonly example: string;
  /** Name and doc of each parameter, in order, as the catalogue lists them. */
  readonly parameters: readonly (readonly [name: string, doc: string])[];
}

export const FUNCTION_PROSE: Readonly<Record<string, FunctionProse>> = {
  any: {
    doc: 'True when the condition holds for at least one element of the array it is written over (with [*]).',
    example: 'any(http.request.headers["accept"][*] contains "json")',
    parameters: [['condition', 'A comparison over the elements of an array, written with [*].']],
  },
  all: {
    doc: 'True when the condition holds for every element of the array it is written over (with [*]).',
    example: 'all(http.request.headers["content-type"][*] == "application/json")',
    parameters: [['condition', 'A comparison over the elements of an array, written with [*].']],
  },
  concat: {
    doc: 'Joins its arguments end to end: strings into one string, or arrays into one array; all of one type.',
    example: 'concat(http.request.uri.path, "/") == "/login/"',
    parameters: [
      ['first', 'A string, or an array; the other arguments must have its type.'],
      ['more', 'One or more further values of the same type.'],
    ],
  },
  lower: {
    doc: 'The string with its ASCII capitals turned into small letters; other bytes stay as they are.',
    example: 'lower(http.host) == "www.example.com"',
    parameters: [['source', 'A field or value, not a literal.']],
  },
  upper: {
    doc: 'The string with its small ASCII letters turned into capitals; other bytes stay as they are.',
    example: 'upper(http.request.uri.path.extension) == "PHP"',
    parameters: [['source', 'A field or value, not a literal.']],
  },
  url_decode: {
    doc: 'The string with URL escapes decoded (%20 and + become a space); options "r" (repeat) and "u" (%uXXXX).',
    example: 'any(url_decode(http.request.uri.args.values[*])[*] contains "<script")',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['options', 'Optional literal: "r" decodes until nothing is left to decode, "u" also decodes %uXXXX as UTF-8.'],
    ],
  },
  uuidv4: {
    doc: 'A random version 4 UUID made from the random bytes given (use cf.random_seed).',
    example: 'uuidv4(cf.random_seed)',
    parameters: [['source', 'Random bytes: cf.random_seed.']],
  },
  starts_with: {
    doc: 'True when the string begins with the given text.',
    example: 'starts_with(http.request.uri.path, "/wp-admin")',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['prefix', 'The text it should begin with.'],
    ],
  },
  ends_with: {
    doc: 'True when the string finishes with the given text.',
    example: 'ends_with(http.request.uri.path, ".env")',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['suffix', 'The text it should finish with.'],
    ],
  },
  contains: {
    doc: 'True when the given text occurs anywhere in the string (the function form of the contains operator).',
    example: 'contains(http.user_agent, "sqlmap")',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['substring', 'The text to look for.'],
    ],
  },
  len: {
    doc: 'Number of bytes in a string, or of elements in an array.',
    example: 'len(http.request.uri.query) > 2048',
    parameters: [['value', 'A string field or value, or an array.']],
  },
  substring: {
    doc: 'Bytes of the string from start up to (not including) end; negative positions count from the end.',
    example: 'substring(http.request.uri.path, 0, 5) == "/api/"',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['start', 'Literal byte position of the first byte kept (0 is the first byte).'],
      ['end', 'Optional literal byte position where the kept part stops; without it, to the end.'],
    ],
  },
  regex_replace: {
    doc: 'The string with the first match of a regular expression replaced (${1}… name capture groups); once per expression.',
    example: 'regex_replace(http.request.uri.path, "^/old/(.*)$", "/new/${1}")',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['pattern', 'Literal regular expression.'],
      ['replacement', 'Literal replacement; ${1} to ${8} insert capture groups, $$ writes a dollar sign.'],
    ],
  },
  remove_bytes: {
    doc: 'The string with every occurrence of the given bytes taken out.',
    example: 'remove_bytes(http.host, "-") == "myexample.com"',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['bytes', 'Literal: each byte in it is removed from source.'],
    ],
  },
  to_string: {
    doc: 'The text form of an Integer, Boolean or IP address value.',
    example: 'concat("score=", to_string(cf.bot_management.score))',
    parameters: [['value', 'An Integer, Boolean or IP address field or value.']],
  },
  lookup_json_string: {
    doc: 'The string found in a JSON document by following keys (object member names or array positions).',
    example: 'lookup_json_string(http.request.body.raw, "user", "role") == "admin"',
    parameters: [
      ['json', 'A field or value holding a JSON document.'],
      ['key', 'A member name or an array position (from 0); more keys go deeper.'],
    ],
  },
  lookup_json_integer: {
    doc: 'The integer found in a JSON document by following keys (object member names or array positions).',
    example: 'lookup_json_integer(http.request.body.raw, "quantity") > 100',
    parameters: [
      ['json', 'A field or value holding a JSON document.'],
      ['key', 'A member name or an array position (from 0); more keys go deeper.'],
    ],
  },
  sha256: {
    doc: 'SHA-256 digest of the value, as bytes (wrap it in encode_base64 for text).',
    example: 'encode_base64(sha256(http.request.headers["x-token"][0])) == "K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols="',
    parameters: [['source', 'A field or value, not a literal.']],
  },
  sha512: {
    doc: 'SHA-512 digest of the value, as bytes.',
    example: 'len(sha512(http.request.uri.path)) == 64',
    parameters: [['source', 'A field or value, not a literal.']],
  },
  hmac: {
    doc: 'HMAC of a value; the engine takes two more literal arguments, which the pinned docs do not describe.',
    example: 'hmac(http.request.uri.path, "x", "y") != ""',
    parameters: [
      ['message', 'A field or value, not a literal.'],
      ['literal1', 'A literal string.'],
      ['literal2', 'A literal string.'],
    ],
  },
  is_timed_hmac_valid_v0: {
    doc: 'True when a message carries a valid, unexpired HMAC token made with the given key.',
    example: 'not is_timed_hmac_valid_v0("mysecretkey", http.request.uri, 10800, http.request.timestamp.sec, 8)',
    parameters: [
      ['key', 'Literal secret key the token was made with.'],
      ['message_mac', 'The value holding message, separator, timestamp and MAC, e.g. http.request.uri or a concat().'],
      ['ttl', 'Literal number of seconds a token stays valid after it was issued.'],
      ['current_timestamp', 'The time now in Unix seconds: http.request.timestamp.sec.'],
      ['separator_length', 'Optional literal length in bytes of the separator before the timestamp (0 when absent).'],
      ['flags', 'Optional literal "s": the MAC is URL-safe Base64 without padding.'],
    ],
  },
  ip_in_range: {
    doc: 'True when the address lies in the range given as text (undocumented in the pinned docs).',
    example: 'ip_in_range(ip.src, "192.0.2.0/24")',
    parameters: [
      ['address', 'An IP address field or value.'],
      ['range', 'Literal address range, e.g. "192.0.2.0/24".'],
    ],
  },
  wildcard: {
    doc: 'True when the whole string matches a pattern where * stands for any run of characters (undocumented in the pinned docs).',
    example: 'wildcard(http.host, "*.example.com")',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['pattern', 'Literal pattern; * matches any run of characters.'],
    ],
  },
  encode_base64: {
    doc: 'Base64 encoding of the value, with optional literal flags (undocumented in the pinned docs).',
    example: 'encode_base64(http.request.uri.path) != ""',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['flags', 'Optional literal flags.'],
    ],
  },
  decode_base64: {
    doc: 'The value decoded from Base64.',
    example: 'any(decode_base64(http.request.headers["x-client-id"][*])[*] == "internal")',
    parameters: [['source', 'A field or value, not a literal.']],
  },
  cidr: {
    doc: 'Network address of an IP address: IPv4 kept to the first ipv4_network_bits bits, IPv6 to ipv6_network_bits.',
    example: 'cidr(ip.src, 24, 48) == 192.0.2.0',
    parameters: [
      ['address', 'An IP address field, not a literal.'],
      ['ipv4_network_bits', 'Literal prefix length for IPv4 addresses, 1 to 32.'],
      ['ipv6_network_bits', 'Literal prefix length for IPv6 addresses, 1 to 128.'],
    ],
  },
  cidr6: {
    doc: 'Network address of an IPv6 address kept to the given prefix length; an IPv4 address comes back unchanged.',
    example: 'cidr6(ip.src, 64) == 2001:db8::',
    parameters: [
      ['address', 'An IP address field, not a literal.'],
      ['ipv6_network_bits', 'Literal prefix length, 1 to 128.'],
    ],
  },
  join: {
    doc: 'The strings of an array joined into one, with the separator between them.',
    example: 'join(http.request.headers.names, ",") contains "x-debug"',
    parameters: [
      ['items', 'An array of strings.'],
      ['separator', 'Literal text put between two items.'],
    ],
  },
  split: {
    doc: 'The string cut at each separator into an array of at most limit parts (the last keeps the rest).',
    example: 'any(split(http.request.headers["x-tags"][0], ",", 16)[*] == "beta")',
    parameters: [
      ['input', 'A field or value, not a literal.'],
      ['separator', 'Literal, non-empty text to cut at.'],
      ['limit', 'Literal most parts to return, 1 to 128.'],
    ],
  },
  has_key: {
    doc: 'True when the map has the given key (undocumented in the pinned docs).',
    example: 'has_key(http.request.cookies, "session")',
    parameters: [
      ['map', 'A map field, e.g. http.request.headers.'],
      ['key', 'Literal key to look for.'],
    ],
  },
  has_value: {
    doc: 'True when the array holds the given value (undocumented in the pinned docs).',
    example: 'has_value(http.request.headers.names, "x-debug")',
    parameters: [
      ['array', 'An array of strings.'],
      ['value', 'Literal value to look for.'],
    ],
  },
  remove_query_args: {
    doc: 'The query string without the named arguments (every occurrence); the others keep their order.',
    example: 'remove_query_args(http.request.uri.query, "utm_source", "utm_medium")',
    parameters: [
      ['query', 'http.request.uri.query or raw.http.request.uri.query.'],
      ['name', 'One or more literal argument names to remove.'],
    ],
  },
  bit_slice: {
    doc: 'Contiguous bits of a header, counted from the start of the named protocol header (ip, tcp, udp, icmp). At most 32 bits; offsets at most 2040.',
    example: 'bit_slice(udp, 64, 72) == 0x45',
    parameters: [
      ['protocol', 'The header to read from: ip, tcp, udp, icmp.'],
      ['offset_start', 'First bit of the slice, counted from the start of the header.'],
      ['offset_end', 'Bit just after the slice; at most 32 bits after offset_start.'],
    ],
  },
  wildcard_replace: {
    doc: 'The string rewritten when all of it matches a wildcard pattern (${1}… insert what each * matched); once per expression.',
    example: 'wildcard_replace(http.request.uri.path, "/shop/*", "/store/${1}")',
    parameters: [
      ['source', 'A field, not a literal.'],
      ['pattern', 'Literal pattern that must match the whole value; * matches any run, \\* a star.'],
      ['replacement', 'Literal replacement; ${1} to ${8} insert what the stars matched, $$ writes a dollar sign.'],
      ['flags', 'Optional literal "s" to match case-sensitively.'],
    ],
  },
  is_jwt_valid: {
    doc: 'True when the request carries a valid JSON Web Token for the given token configuration (undocumented in the pinned docs).',
    example: 'not is_jwt_valid("6f4a2d1c-1c2b-4d1e-9f3a-0a1b2c3d4e5f")',
    parameters: [['configuration_id', 'Literal ID of a JWT validation token configuration.']],
  },
  is_jwt_present: {
    doc: 'True when the request carries a JSON Web Token for the given token configuration (undocumented in the pinned docs).',
    example: 'is_jwt_present("6f4a2d1c-1c2b-4d1e-9f3a-0a1b2c3d4e5f")',
    parameters: [['configuration_id', 'Literal ID of a JWT validation token configuration.']],
  },
  coalesce: {
    doc: 'The first of its arguments that has a value; all of one type (undocumented in the pinned docs).',
    example: 'coalesce(http.request.headers["x-real-host"][0], http.host) == "example.com"',
    parameters: [
      ['first', 'A String, Integer, IP address or Boolean value; the others must have its type.'],
      ['more', 'One or more further values of the same type.'],
    ],
  },
  hash_in_range: {
    doc: 'An integer from min to max picked by hashing the seed: the same seed always gives the same number (undocumented in the pinned docs).',
    example: 'hash_in_range(1, 100, ip.src) <= 10',
    parameters: [
      ['min', 'Literal smallest result.'],
      ['max', 'Literal largest result, above min.'],
      ['seed', 'A String, Integer or IP address field or value to hash.'],
    ],
  },
  trim: {
    doc: 'The string with bytes of the given set stripped from both ends (undocumented in the pinned docs).',
    example: 'trim(http.request.uri.path, "/") == "admin"',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['bytes', 'Optional literal set of bytes to strip, each at most once.'],
    ],
  },
  trim_start: {
    doc: 'The string with bytes of the given set stripped from its start (undocumented in the pinned docs).',
    example: 'trim_start(http.request.uri.path, "/") == "admin"',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['bytes', 'Optional literal set of bytes to strip, each at most once.'],
    ],
  },
  trim_end: {
    doc: 'The string with bytes of the given set stripped from its end (undocumented in the pinned docs).',
    example: 'trim_end(http.request.uri.path, "/") == "/admin"',
    parameters: [
      ['source', 'A field or value, not a literal.'],
      ['bytes', 'Optional literal set of bytes to strip, each at most once.'],
    ],
  },
};
