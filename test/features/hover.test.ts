/**
 * Hover, with a cursor marker in a real ruleset document, in JSON and in every YAML style:
 * the contents (key phrases) and the exact range, which must cover the hovered token as it
 * is written in the document (`"BR"` is `\"BR\"` inside a JSON string).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Hover, MarkupContent } from 'vscode-languageserver';

import { hover } from '../../server/src/features/hover';
import { FIELDS } from '../../server/src/language/catalogue/fields';
import { at, HOSTS, modelOf, rulesetWith, settings, textOf, type Host } from './harness';

/** `token` (decoded expression text) as it is written inside the host's string. */
function written(host: Host, token: string): string {
  switch (host) {
    case 'json':
    case 'yaml-double':
      return JSON.stringify(token).slice(1, -1);
    case 'yaml-single':
      return token.replace(/'/g, "''");
    default:
      return token;
  }
}

function contents(h: Hover): string {
  const value = h.contents as MarkupContent;
  assert.equal(value.kind, 'markdown');
  return value.value;
}

interface Row {
  /** The expression with the cursor `|`. */
  readonly expression: string;
  /** The hovered token, as in the decoded expression. */
  readonly token: string;
  /** Phrases the hover must contain. */
  readonly says: readonly string[];
  readonly phase?: string;
  /** Hosts to leave out: a plain YAML scalar cannot start with `!` or be `true`. */
  readonly skip?: readonly Host[];
}

const HTTP = 'http_request_firewall_custom';

const ROWS: readonly Row[] = [
  // fields
  {
    expression: 'ip.src.coun|try == "BR"',
    token: 'ip.src.country',
    says: ['(field) `ip.src.country`: String', 'country code of the source address', 'Example: `ip.src.country == "BR"`', '`==`/`eq`', '`!=`/`ne`', '`contains`', '`~`/`matches`', '`strict wildcard`', '`in`'],
  },
  { expression: 'tcp.dst|port in {80 443}', token: 'tcp.dstport', says: ['Integer', 'TCP destination port', 'Values: ports 0–65535', '`&`/`bitwise_and`', '`<`/`lt`'] },
  { expression: 'ip.s|rc in {10.0.0.0/8}', token: 'ip.src', says: ['IP address', 'Source IP address', '`==`/`eq`, `!=`/`ne`, `in`', 'does not support it', '$svc.anonymizer'] },
  { expression: 'tcp.flags.s|yn', token: 'tcp.flags.syn', says: ['Boolean', 'SYN flag', 'Operators: none', '`not`'] },
  { expression: 'ip.t|tl < 10', token: 'ip.ttl', says: ['Values: 0–255', 'Time to live'] },
  { expression: 'my.fie|ld == "a"', token: 'my.field', says: ['Not in the field tables', 'phase `my_future_phase`', 'not checked'], phase: 'my_future_phase' },
  // comparison operators, logical operators, not
  { expression: 'ip.src.country =|= "BR"', token: '==', says: ['(operator) `==` (also `eq`): equal', 'equals the value'] },
  { expression: 'ip.src.country e|q "BR"', token: 'eq', says: ['(also `==`)'] },
  { expression: 'tcp.dstport i|n {80 443}', token: 'in', says: ['is one of', 'set of integers and `a..b` ranges'] },
  { expression: 'ip.src i|n {10.0.0.0/8}', token: 'in', says: ['CIDR blocks', '`$list`'] },
  { expression: 'tcp.flags &| 0x02', token: '&', says: ['bitwise and', '(also `bitwise_and`)', '(left & value) != 0'] },
  { expression: 'cf.colo.name ~| "^ams"', token: '~', says: ['(also `matches`)', 'regular expression'] },
  { expression: 'cf.colo.name strict wild|card "AMS*"', token: 'strict wildcard', says: ['strict wildcard match', 'case-sensitive'] },
  { expression: 'sip =|= true', token: '==', says: ['`sip` is a Boolean field'] },
  { expression: 'sip == tr|ue', token: 'true', says: ['`sip` is a Boolean field'] },
  { expression: 'sip a|nd tcp.flags.syn', token: 'and', says: ['(operator) `and` (also `&&`): logical and', 'both sides', 'Precedence'] },
  { expression: 'sip |&& tcp.flags.syn', token: '&&', says: ['(also `and`)'] },
  { expression: 'sip o|r tcp.flags.syn', token: 'or', says: ['(also `||`)', 'either side'] },
  { expression: 'sip x|or tcp.flags.syn', token: 'xor', says: ['(also `^^`)', 'exactly one'] },
  { expression: 'no|t sip', token: 'not', says: ['(operator) `not` (also `!`): negation', '`not a and b` means `(not a) and b`'] },
  { expression: 'tcp.flags.syn and |!sip', token: '!', says: ['(also `not`)'] },
  { expression: 'tr|ue and sip', token: 'true', says: ['(Boolean) `true`', 'Matches every packet', '`execute`'] },
  // lists
  { expression: 'ip.src in $svc.anon|ymizer', token: '$svc.anonymizer', says: ['managed IP list', 'open SOCKS proxies, VPNs and TOR nodes', '`ip.src in $svc.anonymizer`'] },
  { expression: 'ip.dst in $svc.botn|etcc', token: '$svc.botnetcc', says: ['command-and-control', '`ip.dst in $svc.botnetcc`'] },
  { expression: 'ip.src in $my_bl|ocklist', token: '$my_blocklist', says: ['account list', 'not configured (`rulesets.knownLists`)'] },
  // functions
  {
    expression: 'bit_sl|ice(udp, 64, 72) == 0x45',
    token: 'bit_slice',
    says: ['bit_slice(protocol: String, offset_start: Integer, offset_end: Integer): Integer', 'Contiguous bits of a header', '`offset_start`: First bit of the slice', 'Example: `bit_slice(udp, 64, 72) == 0x45`'],
  },
  { expression: 'bit_slice(u|dp, 64, 72) == 0x45', token: 'udp', says: ['(field) `udp`', 'raw UDP header', 'Argument `protocol` of `bit_slice`'] },
  { expression: 'bit_slice(udp, 6|4, 72) == 0x45', token: '64', says: ['Bit 64 (byte 8)', 'Argument `offset_start` of `bit_slice`'] },
  { expression: 'bit_slice(udp, 64, 72) == 0x4|5', token: '0x45', says: ['`0x45` = 69'] },
  // country codes
  { expression: 'ip.src.country == "B|R"', token: '"BR"', says: ['**Brazil**', 'ISO 3166-1 alpha-2 code `BR`'] },
  { expression: 'ip.dst.country in {"DE" "F|R"}', token: '"FR"', says: ['**France**'] },
  { expression: 'ip.src.country in {"T|1" "XX"}', token: '"T1"', says: ['**Tor exit nodes**', "Cloudflare's value `T1`"] },
  { expression: 'ip.src.country in {"T1" "X|X"}', token: '"XX"', says: ['**no country information**'] },
  // ports, ICMP types, protocol names, TCP flags
  { expression: 'tcp.dstport == 4|43', token: '443', says: ['Port 443: **https**', 'HTTPS'] },
  { expression: 'udp.dstport in {5|3 123}', token: '53', says: ['Port 53: **domain**', 'DNS'] },
  { expression: 'tcp.dstport == 12|3', token: '123', says: ['**ntp**', 'usually over UDP, not TCP'] },
  { expression: 'tcp.dstport == 844|4', token: '8444', says: ['Port 8444: no well-known service', 'registered port'] },
  { expression: 'icmp.type == |8', token: '8', says: ['ICMP type 8: **Echo**'] },
  { expression: 'icmp.type in {0 1|1}', token: '11', says: ['**Time Exceeded**'] },
  { expression: 'icmp.type == 3 and icmp.code == |4', token: '4', says: ['type 3 (Destination Unreachable)', 'Fragmentation Needed'] },
  { expression: 'ip.proto == "u|dp"', token: '"udp"', says: ['**udp** — User Datagram Protocol (IP protocol number 17)'] },
  { expression: 'ip.proto in {"tcp" "g|re"}', token: '"gre"', says: ['**gre**', 'IP protocol number 47'] },
  { expression: 'tcp.flags & 0x1|2', token: '0x12', says: ['= 18', '**SYN | ACK**'] },
  { expression: 'ip.src.asnum == 6449|6', token: '64496', says: ['AS64496', 'documentation'] },
  // integer ranges
  { expression: 'tcp.dstport in {0..6553|5}', token: '0..65535', says: ['**all ports**', '0–65535'] },
  { expression: 'udp.srcport in {1024..6553|5}', token: '1024..65535', says: ['**64,512 ports**', '1024 to 65535'] },
  { expression: 'ip.ttl in {|1..10}', token: '1..10', says: ['**10 values**'] },
  { expression: 'ip.ttl in {0..25|5}', token: '0..255', says: ['**all values** of `ip.ttl`'] },
  // CIDR blocks, address ranges, addresses
  { expression: 'ip.src in {10.0.0.0/|8}', token: '10.0.0.0/8', says: ['IPv4 CIDR block', 'First address: `10.0.0.0`', 'Last address: `10.255.255.255`', '2^24 = 16,777,216'] },
  { expression: 'ip.dst in {192.0.2.0/2|4 198.51.100.7}', token: '192.0.2.0/24', says: ['`192.0.2.255`', '2^8 = 256'] },
  { expression: 'ip.src in {192.0.2.7/3|2}', token: '192.0.2.7/32', says: ['a single address'] },
  { expression: 'ip.src in {2001:db8::/3|2}', token: '2001:db8::/32', says: ['IPv6 CIDR block', '`2001:db8:ffff:ffff:ffff:ffff:ffff:ffff`', '2^96 = 79,228,162,514,264,337,593,543,950,336'] },
  { expression: 'ip.src in {10.0.0.1..10.0.0.|9}', token: '10.0.0.1..10.0.0.9', says: ['IPv4 address range', 'Addresses: 9'] },
  { expression: 'ip.src in {10.0.0.0..10.0.0.25|5}', token: '10.0.0.0..10.0.0.255', says: ['Addresses: 256', 'the CIDR block `10.0.0.0/24`'] },
  { expression: 'ip.src == 2001:db8:0:0:0:0:0:|1', token: '2001:db8:0:0:0:0:0:1', says: ['IPv6 address', 'Also written `2001:db8::1`'] },
  // other values and sets
  { expression: 'cf.colo.name == "a|ms01"', token: '"ams01"', says: ['(string)', '5 bytes'] },
  { expression: 'cf.colo.name == "\\x4|1"', token: '"\\x41"', says: ['reads as `A`'] },
  { expression: 'cf.colo.name == 61:6|2', token: '61:62', says: ['2 bytes', 'the text `ab`'] },
  { expression: 'tcp.dstport in {80 443|}', token: '{80 443}', says: ['(set) 2 items', '`tcp.dstport in {…}`'] },
  // the HTTP phases: fields (type, group, plan, deprecation, availability), functions, any/all, index steps, operators
  { phase: HTTP, expression: 'http.ho|st == "a"', token: 'http.host', says: ['(field) `http.host`: String', 'Host name the client asked for', 'Group: URI.', '`contains`', 'Example: `http.host == "www.example.com"`'] },
  { phase: HTTP, expression: 'http.request.meth|od == "GET"', token: 'http.request.method', says: ['Group: Request.', 'request methods in capitals'] },
  { phase: HTTP, expression: 'ip.src.subdivision_1_iso_co|de == "GB-ENG"', token: 'ip.src.subdivision_1_iso_code', says: ['Plan: Business or above.'] },
  { phase: HTTP, expression: 'ip.geoip.coun|try == "GB"', token: 'ip.geoip.country', says: ['Deprecated: use `ip.src.country` instead.'] },
  { phase: 'http_response_headers_transform', expression: 'http.response.co|de == 404', token: 'http.response.code', says: ['(field) `http.response.code`: Integer', 'Only in the phases `http_custom_errors`', 'a response field'] },
  { phase: HTTP, expression: 'any(http.request.head|ers["accept"][*] == "x")', token: 'http.request.headers', says: ['Map<Array<String>>', 'Operators: none on the whole map', '`[*]`'] },
  { phase: HTTP, expression: 'cf.bot_management.sco|re < 30', token: 'cf.bot_management.score', says: ['Plan: Enterprise'] },
  { phase: HTTP, expression: 'low|er(http.host) == "a"', token: 'lower', says: ['lower(source: String): String', 'ASCII capitals', '- `source`: ', 'Usable in filter and value expressions.', 'Example: `lower(http.host) == "www.example.com"`'] },
  { phase: 'http_request_transform', expression: 'http.host == "a" and cid|r(ip.src, 24, 24) == 10.0.0.0', token: 'cidr', says: ['Usable in filter and value expressions; only in the phases `http_request_firewall_custom`, `http_ratelimit`.'] },
  { phase: HTTP, expression: 'is_timed_hmac_vali|d_v0("k", http.request.uri, 10, http.request.timestamp.sec, 0)', token: 'is_timed_hmac_valid_v0', says: ['Plan: Pro or above.'] },
  { phase: HTTP, expression: 'lower(http.ho|st) == "a"', token: 'http.host', says: ['(field) `http.host`', 'Argument `source` of `lower`'] },
  { phase: HTTP, expression: 'an|y(http.request.headers.names[*] == "x")', token: 'any', says: ['any(condition: Array<Boolean>): Boolean', 'at least one element', 'A logical term, not a call'] },
  { phase: HTTP, expression: 'al|l(http.request.headers["accept"][*] contains "json")', token: 'all', says: ['every element'] },
  { phase: HTTP, expression: 'any(http.request.headers.names[|*] == "x")', token: '[*]', says: ['(index) `[*]`: every element', 'Every element of `http.request.headers.names`', '`any(…)`', 'Each is a String.'] },
  { phase: HTTP, expression: 'http.request.headers["user-ag|ent"][0] == "x"', token: '"user-agent"', says: ['(key) `"user-agent"`', 'The values of `http.request.headers` under the key', 'Each is an Array<String>', 'A request header (RFC 9110 §10.1.5).'] },
  { phase: HTTP, expression: 'http.request.headers["a"][|0] == "x"', token: '0', says: ['(index) `[0]`: the first element', 'Element 0 of `http.request.headers`', 'Each is a String.'] },
  { phase: HTTP, expression: 'any(http.request.uri.args[*|] == "x")', token: '[*]', says: ['Every value of `http.request.uri.args`'] },
  { phase: HTTP, expression: 'http.host matc|hes "^a"', token: 'matches', says: ['(operator) `matches` (also `~`)', 'Plan: Business or above.'] },
  { phase: HTTP, expression: 'http.request.headers["a"][0] i|n {"x"}', token: 'in', says: ['For a String: a set of quoted strings.'] },
  { phase: HTTP, expression: 'http.request.method == "P|OST"', token: '"POST"', says: ['(string) `"POST"`', '4 bytes'] },
  { phase: HTTP, expression: 'ip.src.country == "B|R"', token: '"BR"', says: ['**Brazil**'] },
  { phase: HTTP, expression: 'ip.src in $svc.anon|ymizer', token: '$svc.anonymizer', says: ['managed IP list'] },
  { phase: 'my_future_phase', expression: 'http.ho|st == "a"', token: 'http.host', says: ['(field) `http.host`: String', 'Unverified: this tool has no field table for phase `my_future_phase`'] },
];

describe('hover in expressions', () => {
  for (const row of ROWS) {
    for (const host of HOSTS) {
      if (row.skip?.includes(host)) continue;
      it(`${host}: ${row.expression}`, () => {
        const { model, position } = at(host, row.expression, { phase: row.phase });
        const h = hover(model, position, settings());
        assert.ok(h, 'a hover');
        assert.ok(h.range, 'with a range');
        assert.equal(textOf(model.text, h.range), written(host, row.token));
        const text = contents(h);
        for (const phrase of row.says) assert.ok(text.includes(phrase), `"${phrase}" in:\n${text}`);
      });
    }
  }

  it('lists the account lists a configuration knows', () => {
    const { model, position } = at('json', 'ip.src in $my_bl|ocklist');
    const h = hover(model, position, settings({ knownLists: ['my_blocklist'] }));
    assert.ok(h && contents(h).includes('configured in `rulesets.knownLists`'));
    const other = at('json', 'ip.src in $my_blo|k');
    const unknown = hover(other.model, other.position, settings({ knownLists: ['my_blocklist'] }));
    assert.ok(unknown, 'a hover on an unknown list');
    // The problem is the editor's to show: the hover says what the token is.
    assert.ok(contents(unknown).includes('(list) `$my_blok`: account list'), contents(unknown));
    assert.ok(!contents(unknown).includes('configured in `rulesets.knownLists`'), contents(unknown));
  });

  it('shows every field of the magic_transit table in some hover without a crash', () => {
    for (const name of FIELDS.keys()) {
      const { model, position } = at('json', `${name}| `);
      const h = hover(model, position, settings());
      assert.ok(h && contents(h).includes(`\`${name}\``), name);
    }
  });

  it('answers null on a space between comparisons and outside any ruleset', () => {
    const { model, position } = at('json', 'sip and  | tcp.flags.syn');
    assert.equal(hover(model, position, settings()), null);
    const text = '{ "rules": "not a ruleset", "x": "ip.src == 1.2.3.4" }';
    const plain = modelOf(text, 'json', 'file:///work/package.json');
    assert.equal(hover(plain, plain.positionAt(text.indexOf('ip.src') + 2), settings()), null);
  });
});

/**
 * A token with a problem: the hover says what the token is, and leaves the problem's message
 * to the editor, which shows it beside the hover itself (VS Code's marker hover, Neovim's
 * vim.diagnostic). Both would say it otherwise: the message twice in one popup.
 */
const ON_PROBLEMS: readonly (Row & { readonly problem: string })[] = [
  { expression: 'tcp.dstp|rt == 22', token: 'tcp.dstprt', says: ['(field) `tcp.dstprt`'], problem: 'unknown field `tcp.dstprt`' },
  { expression: 'foo.b|ar == 1', token: 'foo.bar', says: ['(field) `foo.bar`'], problem: 'unknown field `foo.bar` in phase `magic_transit`' },
  { expression: 'ip.src >|= 10.0.0.1', token: '>=', says: ['(operator) `>=` (also `ge`): greater than or equal', 'greater than or equal to the value'], problem: 'the service does not support ordering IP addresses' },
  { expression: 'ip.src in $svc.nope|x', token: '$svc.nopex', says: ['(list) `$svc.nopex`', 'Not one of the managed lists'], problem: 'unknown managed list' },
  { expression: 'ip.geoip.country == "U|K"', token: '"UK"', says: ['(string) `"UK"`'], problem: 'the United Kingdom is GB' },
  { expression: 'ip.src.country == "b|r"', token: '"br"', says: ['(string) `"br"`'], problem: 'country codes are uppercase' },
  { expression: 'ip.src.country == "Z|Q"', token: '"ZQ"', says: ['(string) `"ZQ"`'], problem: 'not assigned' },
  { expression: 'tcp.dstport == 7000|0', token: '70000', says: ['(integer) `70000`', 'Port numbers are 0–65535'], problem: 'outside the values of `tcp.dstport` (0–65535)' },
  { expression: 'ip.proto == "TC|P"', token: '"TCP"', says: ['(string) `"TCP"`'], problem: 'protocol names are lowercase' },
  { expression: 'ip.src in {10.1.2.3/1|6}', token: '10.1.2.3/16', says: ['IPv4 CIDR block', 'First address: `10.1.0.0`', '2^16 = 65,536'], problem: 'host bits set' },
  { expression: 'tcp.dstport in {|}', token: '{}', says: ['(set) 0 items', '`tcp.dstport in {…}`'], problem: 'never matches' },
  { expression: 'tcp.dstport == 0|80', token: '080', says: ['(value) `080`'], problem: 'not an octal digit' },
];

describe('hover over a problem: what the token is, without the problem\'s message', () => {
  for (const row of ON_PROBLEMS) {
    for (const host of HOSTS) {
      it(`${host}: ${row.expression}`, () => {
        const { model, position } = at(host, row.expression);
        const messages = model.problems(settings()).map((p) => p.message);
        assert.ok(messages.some((m) => m.includes(row.problem)), `the problem "${row.problem}" among ${JSON.stringify(messages)}`);
        const h = hover(model, position, settings());
        assert.ok(h?.range, 'a hover with a range');
        assert.equal(textOf(model.text, h.range), written(host, row.token));
        const text = contents(h);
        for (const phrase of row.says) assert.ok(text.includes(phrase), `"${phrase}" in:\n${text}`);
        assert.ok(!text.includes(row.problem), `the message is not repeated in:\n${text}`);
        assert.doesNotMatch(text, /\*\*(Error|Warning|Note|Hint):\*\*/);
      });
    }
  }
});

const UNPARSABLE: readonly Row[] = [
  { expression: 'ip.src.coun|try == "BR" and', token: 'ip.src.country', says: ['(field) `ip.src.country`: String', 'Example'] },
  { expression: 'ip.src.country == "B|R" and', token: '"BR"', says: ['**Brazil**'] },
  { expression: 'ip.src.country == "U|K" or (', token: '"UK"', says: ['the United Kingdom is GB'] },
  { expression: 'ip.src.country =|= "BR" and', token: '==', says: ['(also `eq`)'] },
  { expression: 'ip.src.country == "BR" o|r', token: 'or', says: ['logical or'] },
  { expression: 'tcp.dstport in {80 4|43', token: '443', says: ['**https**'] },
  { expression: 'tcp.dstport in {0..6553|5', token: '0..65535', says: ['**all ports**'] },
  { expression: 'ip.src in {10.0.0.0/|8', token: '10.0.0.0/8', says: ['2^24 = 16,777,216'] },
  { expression: 'ip.src in $svc.v|pn or', token: '$svc.vpn', says: ['VPN servers'] },
  { expression: 'bit_sl|ice(udp, 64', token: 'bit_slice', says: ['offset_end: Integer): Integer'] },
  { expression: 'bit_slice(udp, 64, 7|2', token: '72', says: ['Argument `offset_end` of `bit_slice`'] },
  { expression: 'sip and n|ot', token: 'not', says: ['negation'] },
];

describe('hover in an expression that does not parse', () => {
  for (const row of UNPARSABLE) {
    for (const host of HOSTS) {
      it(`${host}: ${row.expression}`, () => {
        const { model, position } = at(host, row.expression);
        const h = hover(model, position, settings());
        assert.ok(h?.range, 'a hover with a range');
        assert.equal(textOf(model.text, h.range), written(host, row.token));
        const text = contents(h);
        for (const phrase of row.says) assert.ok(text.includes(phrase), `"${phrase}" in:\n${text}`);
      });
    }
  }

  it('answers null where nothing is known, without throwing', () => {
    for (const expression of ['(((|', 'ip.src == |', '"unterminated |', '{|', '$|', '#|', 'r#"|']) {
      for (const host of HOSTS) {
        const { model, position } = at(host, expression);
        assert.doesNotThrow(() => hover(model, position, settings()), `${host}: ${expression}`);
      }
    }
  });
});

// ---------------------------------------------------------------- the ruleset structure

/** A document of the host style whose `old` text is replaced by `value`, and the offset inside it. */
function structure(host: Host, old: string, value: string, expression = 'sip'): { model: ReturnType<typeof modelOf>; offset: number } {
  const base = rulesetWith(host, expression).text;
  const index = base.indexOf(old);
  assert.ok(index >= 0, `${old} in the document`);
  const text = base.slice(0, index) + value + base.slice(index + old.length);
  return { model: modelOf(text, host === 'json' ? 'json' : 'yaml'), offset: index + 1 };
}

function structureHover(host: Host, old: string, value: string): { text: string; range: string } {
  const { model, offset } = structure(host, old, value);
  const h = hover(model, model.positionAt(offset), settings());
  assert.ok(h?.range, `a hover on ${value}`);
  return { text: contents(h), range: textOf(model.text, h.range) };
}

describe('hover in the ruleset structure', () => {
  for (const host of HOSTS) {
    const quoted = (s: string) => (host === 'json' ? `"${s}"` : s);
    it(`${host}: action values`, () => {
      const block = structureHover(host, 'block', 'block');
      assert.equal(block.range, quoted('block'));
      assert.ok(block.text.includes('(action) `block`') && block.text.includes('Drops the packets') && block.text.includes('no `action_parameters`'));
      const skip = structureHover(host, 'block', 'skip');
      assert.equal(skip.range, quoted('skip'));
      assert.ok(skip.text.includes('skip the rules that follow') && skip.text.includes('{"ruleset": "current"}'));
      const execute = structureHover(host, 'block', 'execute');
      assert.ok(execute.text.includes('Runs another ruleset') && execute.text.includes('"action_parameters": {"id": "…"}'));
      const log = structureHover(host, 'block', 'log');
      // Not one of the packet phases' actions: said so, with the phases that take it.
      assert.ok(log.text.includes('Records the match') && log.text.includes('Not an action of `magic_transit`, which takes `block`, `skip`, `execute`'), log.text);
      assert.ok(log.text.includes('`http_request_firewall_custom`') && log.text.includes('Takes no `action_parameters`'), log.text);
      const other = structureHover(host, 'block', 'blok');
      assert.ok(other.text.includes('Not an action the API defines') && other.text.includes('`block`, `challenge`'));
    });

    it(`${host}: an action of an HTTP phase, in that phase's words`, () => {
      const { model } = structure(host, 'block', 'managed_challenge');
      const text = model.text.replace('magic_transit', 'http_request_firewall_custom');
      const http = modelOf(text, host === 'json' ? 'json' : 'yaml');
      const h = hover(http, http.positionAt(text.indexOf('managed_challenge') + 1), settings());
      assert.ok(h);
      assert.ok(contents(h).includes('(action) `managed_challenge`') && contents(h).includes('A challenge the service chooses'), contents(h));
      assert.ok(!contents(h).split('---')[0].includes('packets'), contents(h));
    });

    it(`${host}: phase values`, () => {
      const phase = structureHover(host, 'magic_transit', 'magic_transit');
      assert.equal(phase.range, quoted('magic_transit'));
      assert.ok(phase.text.includes('(phase) `magic_transit`') && phase.text.includes('Magic Firewall custom rules'));
      // The complete field table.
      assert.ok(phase.text.includes('| Field | Type | Meaning |'));
      for (const name of FIELDS.keys()) assert.ok(phase.text.includes(`| \`${name}\` |`), name);
      const other = structureHover(host, 'magic_transit', 'http_request_firewall_custom');
      assert.ok(other.text.includes('WAF custom rules') && /Fields: \d+, in \d+ groups \(URI, Request, /.test(other.text), other.text);
      const cacheResponse = structureHover(host, 'magic_transit', 'http_response_cache_settings');
      assert.ok(cacheResponse.text.includes('Cache response rules') && cacheResponse.text.includes('origin response'), cacheResponse.text);
      const unknown = structureHover(host, 'magic_transit', 'made_up_phase');
      assert.ok(unknown.text.includes('Not a phase this tool knows'));
    });

    it(`${host}: kind values`, () => {
      const kind = structureHover(host, 'root', 'root');
      assert.equal(kind.range, quoted('root'));
      assert.ok(kind.text.includes('(kind) `root`') && kind.text.includes('entry point'));
      assert.ok(structureHover(host, 'root', 'custom').text.includes('your own rules'));
      assert.ok(structureHover(host, 'root', 'zone').text.includes('one zone'));
      assert.ok(structureHover(host, 'root', 'global').text.includes('Not a ruleset kind'));
    });

    it(`${host}: other structure has no hover`, () => {
      const { model, offset } = structure(host, 'test', 'test');
      assert.equal(hover(model, model.positionAt(offset), settings()), null, 'the name');
      const key = model.text.indexOf('action');
      assert.equal(hover(model, model.positionAt(key + 1), settings()), null, 'a key');
    });
  }
});

// ---------------------------------------------------------------- what a rule matches, in words

describe('hover on a rule: what it matches, in words', () => {
  const EXPRESSION = 'ip.proto == "tcp" and tcp.dstport != 22';
  for (const host of HOSTS) {
    const quoted = (s: string) => (host === 'json' ? `"${s}"` : s);
    it(`${host}: on the action value`, () => {
      const { model, offset } = structure(host, 'block', 'block', EXPRESSION);
      const h = hover(model, model.positionAt(offset), settings());
      assert.ok(h?.range);
      assert.equal(textOf(model.text, h.range), quoted('block'));
      const text = contents(h);
      assert.ok(text.includes('(action) `block`'), text);
      assert.ok(text.includes('**Blocks** TCP packets whose destination port is not 22.'), text);
    });

    it(`${host}: on the expression key`, () => {
      const { model } = structure(host, 'block', 'skip', 'ip.src.country in {"BR" "CU"} and not ip.dst in {192.0.2.0/24}');
      const key = model.text.indexOf('expression');
      const h = hover(model, model.positionAt(key + 2), settings());
      assert.ok(h?.range, 'a hover on the key');
      assert.equal(textOf(model.text, h.range), quoted('expression'));
      assert.equal(contents(h), '**Skips the rest of the ruleset for** packets from Brazil or Cuba and not to 192.0.2.0/24.');
    });

    it(`${host}: inside the expression the tokens are explained, not the rule`, () => {
      const { model, position } = at(host, 'ip.proto == "tcp" and tcp.dst|port != 22');
      const text = contents(hover(model, position, settings())!);
      assert.ok(text.includes('(field) `tcp.dstport`') && !text.includes('**Blocks**'), text);
    });

    it(`${host}: no summary for an expression that does not parse`, () => {
      const { model, offset } = structure(host, 'block', 'block', 'tcp.dstport ==');
      const text = contents(hover(model, model.positionAt(offset), settings())!);
      assert.ok(text.includes('(action) `block`') && !text.includes('**Blocks**'), text);
      const key = model.text.indexOf('expression');
      assert.equal(hover(model, model.positionAt(key + 2), settings()), null);
    });
  }
});
