import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  COUNTRIES,
  RESERVED_COUNTRY_HINTS,
  RESERVED_COUNTRY_REPLACEMENTS,
} from '../../server/src/language/catalogue/countries';
import { IP_PROTOCOLS, IP_PROTOCOL_ALIASES } from '../../server/src/language/catalogue/protocols';
import { WELL_KNOWN_PORTS } from '../../server/src/language/catalogue/ports';
import {
  DEPRECATED_ICMP_TYPES,
  ICMP_TYPES,
  ICMP_UNREACHABLE_CODES,
} from '../../server/src/language/catalogue/icmp';

describe('COUNTRIES', () => {
  it('holds exactly the 249 officially assigned ISO 3166-1 alpha-2 codes', () => {
    assert.equal(COUNTRIES.size, 249);
    for (const code of COUNTRIES.keys()) assert.match(code, /^[A-Z]{2}$/);
  });

  it('contains the codes users write', () => {
    assert.equal(COUNTRIES.get('BR'), 'Brazil');
    assert.equal(COUNTRIES.get('GB'), 'United Kingdom');
    assert.equal(COUNTRIES.get('US'), 'United States');
    assert.equal(COUNTRIES.get('DE'), 'Germany');
    assert.equal(COUNTRIES.get('SS'), 'South Sudan');
    assert.equal(COUNTRIES.get('NA'), 'Namibia'); // "NA" is easily lost as a null/NaN marker
    for (const code of ['BQ', 'CW', 'SX', 'AX', 'ME', 'RS', 'TL', 'PS', 'TW', 'KR', 'KP']) {
      assert.ok(COUNTRIES.has(code), code);
    }
  });

  it('leaves out reserved and user-assigned codes', () => {
    for (const code of ['UK', 'EU', 'EZ', 'UN', 'XK', 'AC', 'TA', 'IC', 'EA', 'DG', 'CP', 'FX', 'SU', 'AN', 'YU', 'CS', 'EL', 'XX', 'T1']) {
      assert.ok(!COUNTRIES.has(code), code);
    }
  });

  it('has a non-empty, trimmed name for every code', () => {
    for (const [code, name] of COUNTRIES) {
      assert.ok(name.length > 0 && name === name.trim(), code);
    }
  });
});

describe('RESERVED_COUNTRY_HINTS', () => {
  it('hints only at codes that are not assigned', () => {
    for (const [code, reason] of RESERVED_COUNTRY_HINTS) {
      assert.ok(!COUNTRIES.has(code), code);
      assert.ok(reason.length > 0, code);
      assert.ok(!reason.includes('\n'), code);
    }
  });

  it('points UK to GB and EL to GR', () => {
    assert.equal(RESERVED_COUNTRY_REPLACEMENTS.get('UK'), 'GB');
    assert.equal(RESERVED_COUNTRY_REPLACEMENTS.get('EL'), 'GR');
    assert.match(RESERVED_COUNTRY_HINTS.get('UK') ?? '', /\bGB\b/);
    assert.match(RESERVED_COUNTRY_HINTS.get('EL') ?? '', /\bGR\b/);
    assert.ok(RESERVED_COUNTRY_HINTS.has('EU'));
    assert.ok(!RESERVED_COUNTRY_REPLACEMENTS.has('EU'));
    assert.match(RESERVED_COUNTRY_HINTS.get('XK') ?? '', /Kosovo/);
  });

  it('only suggests assigned codes, each named in its hint', () => {
    for (const [code, replacement] of RESERVED_COUNTRY_REPLACEMENTS) {
      assert.ok(COUNTRIES.has(replacement), `${code} -> ${replacement}`);
      assert.match(RESERVED_COUNTRY_HINTS.get(code) ?? '', new RegExp(`\\b${replacement}\\b`), code);
    }
  });
});

describe('IP_PROTOCOLS', () => {
  it('uses lowercase keywords without spaces, with distinct numbers in 0-255', () => {
    const numbers = new Set<number>();
    for (const [keyword, { number, description }] of IP_PROTOCOLS) {
      assert.equal(keyword, keyword.toLowerCase());
      assert.doesNotMatch(keyword, /\s/);
      assert.ok(Number.isInteger(number) && number >= 0 && number <= 255, keyword);
      assert.ok(!numbers.has(number), `number ${number} appears twice`);
      numbers.add(number);
      assert.ok(description.length > 0, keyword);
    }
  });

  it('covers every IANA keyword from 0 to 145', () => {
    // 61, 63, 68, 99 and 114 are "any ..." entries without a keyword.
    assert.equal(IP_PROTOCOLS.size, 146 - 5);
  });

  it('has the protocols firewall rules use, with the right numbers', () => {
    const expected: [string, number][] = [
      ['hopopt', 0], ['icmp', 1], ['igmp', 2], ['ipv4', 4], ['tcp', 6], ['udp', 17],
      ['ipv6', 41], ['gre', 47], ['esp', 50], ['ah', 51], ['ipv6-icmp', 58], ['eigrp', 88],
      ['ospfigp', 89], ['ipip', 94], ['pim', 103], ['vrrp', 112], ['l2tp', 115], ['sctp', 132],
      ['udplite', 136], ['ethernet', 143], ['nsh', 145],
    ];
    for (const [keyword, number] of expected) assert.equal(IP_PROTOCOLS.get(keyword)?.number, number, keyword);
  });

  it('aliases point at real keywords and are not keywords themselves', () => {
    for (const [alias, keyword] of IP_PROTOCOL_ALIASES) {
      assert.ok(IP_PROTOCOLS.has(keyword), alias);
      assert.ok(!IP_PROTOCOLS.has(alias), alias);
    }
  });
});

describe('WELL_KNOWN_PORTS', () => {
  it('has 60 to 100 valid entries', () => {
    assert.ok(WELL_KNOWN_PORTS.size >= 60 && WELL_KNOWN_PORTS.size <= 100, String(WELL_KNOWN_PORTS.size));
    for (const [port, { service, description, protocols }] of WELL_KNOWN_PORTS) {
      assert.ok(Number.isInteger(port) && port >= 1 && port <= 65535, String(port));
      assert.match(service, /^[a-z0-9-]+$/, String(port));
      assert.ok(description.length > 0, String(port));
      assert.ok(protocols.length > 0 && protocols.every((p) => p === 'tcp' || p === 'udp'), String(port));
      assert.equal(new Set(protocols).size, protocols.length, String(port));
    }
  });

  it('names the common services', () => {
    const expected: [number, string][] = [
      [19, 'chargen'], [22, 'ssh'], [53, 'domain'], [80, 'http'], [123, 'ntp'], [161, 'snmp'],
      [179, 'bgp'], [389, 'ldap'], [443, 'https'], [500, 'isakmp'], [1900, 'ssdp'],
      [3306, 'mysql'], [3389, 'ms-wbt-server'], [4500, 'ipsec-nat-t'], [5432, 'postgresql'],
      [6379, 'redis'], [11211, 'memcache'],
    ];
    for (const [port, service] of expected) assert.equal(WELL_KNOWN_PORTS.get(port)?.service, service, String(port));
  });

  it('knows which transport a service uses', () => {
    assert.deepEqual(WELL_KNOWN_PORTS.get(22)?.protocols, ['tcp']);
    assert.deepEqual(WELL_KNOWN_PORTS.get(123)?.protocols, ['udp']);
    assert.deepEqual(WELL_KNOWN_PORTS.get(53)?.protocols, ['tcp', 'udp']);
  });
});

describe('ICMP', () => {
  it('names the common ICMPv4 types', () => {
    const expected: [number, string][] = [
      [0, 'Echo Reply'], [3, 'Destination Unreachable'], [5, 'Redirect'], [8, 'Echo'],
      [9, 'Router Advertisement'], [10, 'Router Solicitation'], [11, 'Time Exceeded'],
      [12, 'Parameter Problem'], [13, 'Timestamp'], [14, 'Timestamp Reply'],
    ];
    for (const [type, name] of expected) assert.equal(ICMP_TYPES.get(type), name, String(type));
    for (const type of [1, 2, 7, 19, 25, 128, 255]) assert.ok(!ICMP_TYPES.has(type), String(type));
    for (const type of ICMP_TYPES.keys()) assert.ok(type >= 0 && type <= 255);
  });

  it('marks only listed types as deprecated', () => {
    for (const type of DEPRECATED_ICMP_TYPES) assert.ok(ICMP_TYPES.has(type), String(type));
    assert.ok(DEPRECATED_ICMP_TYPES.has(4));
    assert.ok(!DEPRECATED_ICMP_TYPES.has(8));
  });

  it('has Destination Unreachable codes 0 to 15', () => {
    assert.deepEqual([...ICMP_UNREACHABLE_CODES.keys()], Array.from({ length: 16 }, (_, i) => i));
    assert.equal(ICMP_UNREACHABLE_CODES.get(3), 'Port Unreachable');
    assert.equal(ICMP_UNREACHABLE_CODES.get(4), "Fragmentation Needed and Don't Fragment was Set");
    assert.equal(ICMP_UNREACHABLE_CODES.get(13), 'Communication Administratively Prohibited');
  });
});
