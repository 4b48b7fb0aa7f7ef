/**
 * A packet given as field values, for evaluating expressions (`rulesets test`), and the
 * contents of lists.
 *
 * A packet is a JSON object from field name to value, read by the field's type in the
 * catalogue:
 * - Integer fields: a whole number, or a string in the language's integer syntax
 *   (`"0x12"`, `"022"` octal); it must lie within the field's values (a port 0–65535).
 * - IP fields: an IPv4 or IPv6 address as a string.
 * - String fields: a string, compared as its UTF-8 bytes. `ip.proto` also takes a protocol
 *   number (`6` is `"tcp"`), and must be a known protocol name. The raw headers `ip`, `tcp`, `udp`, `icmp` (for `bit_slice`)
 *   take hex bytes: `"45 00 00 54"`, `"4500:0054"` or `"45000054"`.
 * - Boolean fields: `true` or `false`. The `tcp.flags.*` flags are derived from `tcp.flags`
 *   when only the byte is given (and must agree with it when both are).
 * - A packet has one transport header (language/catalogue/transport.ts): fields of two
 *   headers (`tcp.dstport` and `udp.srcport`) are an error, and so is a field of a header
 *   that the packet's `ip.proto` does not have (`"ip.proto": "udp"` with `tcp.dstport`);
 *   `"sip": false` fits any packet. A packet that gives no `ip.proto` is not given one from
 *   its fields: a rule that tests it says the packet has no value for it.
 * - `"$lists"`: which lists the packet's addresses are in, by list name (`$` optional):
 *   `true` (both `ip.src` and `ip.dst` are in it), `false` (neither), or the list's
 *   contents, an array of addresses, CIDR blocks and `a..b` ranges.
 *
 * Unknown field names are errors (with a suggestion), so that a typo cannot make a test
 * pass by leaving a field out.
 */
import type { IpFamily } from '../language/ast';
import { FIELDS } from '../language/catalogue/fields';
import { IP_PROTOCOLS } from '../language/catalogue/protocols';
import { transportFieldOf, type TransportField, type TransportHeader } from '../language/catalogue/transport';
import { readBareValue, readInteger } from '../language/literals';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import type { FieldValue } from './value';

export type { FieldValue } from './value';

/** One item of a list: an address range (a single address is a range of one). */
export interface IpRange {
  readonly family: IpFamily;
  readonly first: bigint;
  readonly last: bigint;
}

/** What is known of one list: its contents, or the packet's stated membership. */
export type ListContents = readonly IpRange[] | { readonly membership: boolean };

/** Lists by name, without `$` (`svc.anonymizer`, `my_list`). */
export type Lists = ReadonlyMap<string, ListContents>;

export interface Packet {
  readonly fields: ReadonlyMap<string, FieldValue>;
  /** Lists given in the packet's `"$lists"`; they win over lists given elsewhere. */
  readonly lists: Lists;
}

/** A packet or list that cannot be read: the message says why, `key` which key of the packet. */
export class PacketError extends Error {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
  }
}

/** The `tcp.flags.*` Boolean fields and the bit of `tcp.flags` each is (LANGUAGE.md §5). */
const FLAG_FIELDS: ReadonlyMap<string, number> = new Map([
  ['tcp.flags.fin', 0x01],
  ['tcp.flags.syn', 0x02],
  ['tcp.flags.reset', 0x04],
  ['tcp.flags.push', 0x08],
  ['tcp.flags.ack', 0x10],
  ['tcp.flags.urg', 0x20],
  ['tcp.flags.ecn', 0x40],
  ['tcp.flags.cwr', 0x80],
]);

export const LISTS_KEY = '$lists';

/** Reads a packet from parsed JSON/YAML. Throws PacketError. */
export function parsePacket(input: unknown): Packet {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PacketError(`expected the packet as an object of field values, e.g. {"ip.src": "192.0.2.7", "tcp.dstport": 22}, found ${describeJson(input)}`);
  }
  const fields = new Map<string, FieldValue>();
  let lists: Lists = new Map();
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    try {
      if (key === LISTS_KEY) lists = parsePacketLists(raw);
      else fields.set(key, parseFieldValue(key, raw));
    } catch (error) {
      throw error instanceof PacketError && error.key === undefined ? new PacketError(error.message, key) : error;
    }
  }
  checkTransport(fields);
  deriveFlags(fields);
  return { fields, lists };
}

/** Fields of one transport header at most, and of one that `ip.proto` has. */
function checkTransport(fields: Map<string, FieldValue>): void {
  let header: TransportHeader | undefined;
  let by = '';
  for (const [name, value] of fields) {
    const transport = transportFieldOf(name);
    if (!transport || (transport.verdict && value.type === 'Boolean' && !value.value)) continue;
    if (!header) {
      header = transport.header;
      by = name;
    } else if (transport.header !== header) {
      throw new PacketError(`${needs(by, transportFieldOf(by)!)}, and ${needs(name, transport)}, but a packet has one transport header: give the fields of one only`, name);
    }
  }
  const proto = fields.get('ip.proto');
  if (!header || proto?.type !== 'Bytes') return;
  const given = new TextDecoder().decode(proto.bytes);
  if (header.protocols.includes(given)) return;
  const protocols = header.protocols.map((p) => `"${p}"`).join(' or ');
  const fix = transportFieldOf(by)!.verdict ? `give \`${by}\` as false, or \`ip.proto\` as ${protocols}` : `remove \`${by}\`, or give \`ip.proto\` as ${protocols}`;
  throw new PacketError(`${needs(by, transportFieldOf(by)!)}, but \`ip.proto\` is "${given}": ${fix}`, by);
}

/** `\`tcp.dstport\` is a field of the TCP header`: what a field needs of the packet. */
function needs(name: string, transport: TransportField): string {
  return transport.verdict ? `\`${name}\` is true only for ${transport.header.label} packets` : `\`${name}\` is a field of the ${transport.header.label} header`;
}

/** Reads one field's value by the field's type. Throws PacketError. */
export function parseFieldValue(name: string, raw: unknown): FieldValue {
  const field = FIELDS.get(name);
  if (!field) {
    const suggestions = closestMatches(name, [...FIELDS.keys(), LISTS_KEY]);
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : '';
    throw new PacketError(`unknown field \`${name}\` in the packet${hint}`);
  }
  const bad = (expected: string) => new PacketError(`expected ${expected} for \`${name}\`, found ${describeJson(raw)}`);
  switch (field.type) {
    case 'Integer': {
      let value: bigint;
      if (typeof raw === 'number' && Number.isSafeInteger(raw)) value = BigInt(raw);
      else if (typeof raw === 'string') {
        const read = readInteger(raw.trim(), 0);
        if (!read.ok) throw bad('an integer');
        value = read.value;
      } else throw bad('an integer');
      if (field.range && (value < field.range[0] || value > field.range[1])) {
        throw new PacketError(`${value} is outside the values of \`${name}\` (${field.range[0]}–${field.range[1]})`);
      }
      return { type: 'Integer', value };
    }
    case 'Ip': {
      if (typeof raw !== 'string') throw bad('an IP address as a string');
      const { literal } = readBareValue(raw.trim(), { start: 0, end: raw.length }, 'Ip');
      if (literal.kind !== 'ip') throw bad('one IPv4 or IPv6 address');
      return { type: 'Ip', family: literal.family, value: literal.value };
    }
    case 'Bytes': {
      if (field.values === 'raw-header') {
        if (typeof raw !== 'string') throw bad('the header as hex bytes, e.g. "45 00 00 54"');
        const bytes = parseHex(raw);
        if (!bytes) throw bad('the header as hex bytes, e.g. "45 00 00 54"');
        return { type: 'Bytes', bytes };
      }
      if (field.values === 'protocol' && typeof raw === 'number') {
        const protocol = [...IP_PROTOCOLS].find(([, p]) => p.number === raw)?.[0];
        if (!protocol) throw new PacketError(`protocol number ${raw} of \`${name}\` has no IANA keyword; give the name as a string`);
        return { type: 'Bytes', bytes: utf8(protocol) };
      }
      if (typeof raw !== 'string') throw bad('a string');
      if (field.values === 'protocol' && !IP_PROTOCOLS.has(raw)) {
        // A typo here would make every `ip.proto == …` quietly false.
        const suggestions = closestMatches(raw.toLowerCase(), IP_PROTOCOLS.keys());
        const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions.map((p) => `"${p}"`))}?` : '';
        throw new PacketError(`\`"${raw}"\` is not a protocol name (lowercase IANA keyword, e.g. "tcp") for \`${name}\`${hint}`);
      }
      return { type: 'Bytes', bytes: utf8(raw) };
    }
    case 'Boolean':
      if (typeof raw !== 'boolean') throw bad('true or false');
      return { type: 'Boolean', value: raw };
  }
}

/** The flag fields from the `tcp.flags` byte; a flag given both ways must agree. */
function deriveFlags(fields: Map<string, FieldValue>): void {
  const byte = fields.get('tcp.flags');
  if (byte?.type !== 'Integer') return;
  for (const [name, bit] of FLAG_FIELDS) {
    const set = (byte.value & BigInt(bit)) !== 0n;
    const given = fields.get(name);
    if (given?.type === 'Boolean' && given.value !== set) {
      throw new PacketError(`\`${name}\` is ${given.value} but \`tcp.flags\` (0x${byte.value.toString(16).padStart(2, '0')}) has that bit ${set ? 'set' : 'clear'}`, name);
    }
    if (!given) fields.set(name, { type: 'Boolean', value: set });
  }
}

/** The `"$lists"` of a packet or a request: list name to true, false or the list's addresses. */
export function parsePacketLists(raw: unknown): Lists {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new PacketError(`expected \`${LISTS_KEY}\` as an object from list name to true, false or the list's addresses, e.g. {"$svc.anonymizer": true}, found ${describeJson(raw)}`);
  }
  const lists = new Map<string, ListContents>();
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const name = listName(key);
    lists.set(name, typeof value === 'boolean' ? { membership: value } : parseListItems(name, value));
  }
  return lists;
}

/**
 * Reads list contents from parsed JSON/YAML (a `--lists` file): an object from list name
 * (`$` optional) to an array of addresses, CIDR blocks and `a..b` ranges. Throws PacketError.
 */
export function parseLists(input: unknown): Lists {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PacketError(`expected lists as an object from list name to addresses, e.g. {"my_list": ["10.0.0.0/8", "192.0.2.7"]}, found ${describeJson(input)}`);
  }
  const lists = new Map<string, ListContents>();
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const name = listName(key);
    lists.set(name, parseListItems(name, value));
  }
  return lists;
}

function listName(key: string): string {
  const name = key.startsWith('$') ? key.slice(1) : key;
  if (!/^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(name)) throw new PacketError(`\`${key}\` is not a list name: lowercase letters, digits and \`_\`, e.g. \`$svc.anonymizer\` or \`$my_list\``);
  return name;
}

function parseListItems(name: string, value: unknown): IpRange[] {
  if (!Array.isArray(value)) throw new PacketError(`expected the list \`$${name}\` as an array of addresses, CIDR blocks or ranges, found ${describeJson(value)}`);
  return value.map((item) => {
    if (typeof item !== 'string') throw new PacketError(`expected an address, CIDR block or range in the list \`$${name}\`, found ${describeJson(item)}`);
    const { literal } = readBareValue(item.trim(), { start: 0, end: item.length }, 'Ip');
    if (literal.kind === 'ip') return { family: literal.family, first: literal.value, last: literal.value };
    if (literal.kind === 'ip-range') return { family: literal.family, first: literal.first, last: literal.last };
    throw new PacketError(`\`${item}\` in the list \`$${name}\` is not an address, CIDR block or range`);
  });
}

/** `"45 00 00 54"`, `"45:00:00:54"`, `"4500-0054"`, `"45000054"`: undefined when not hex bytes. */
export function parseHex(text: string): Uint8Array | undefined {
  const digits = text.replace(/[\s:.\-]/g, '').replace(/^0x/i, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(digits)) return undefined;
  const bytes = new Uint8Array(digits.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = jsonStart(value, 61);
  return `\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\``;
}

/**
 * The first `limit` characters (or a few more) of the value's JSON, bigints as strings. Not
 * JSON.stringify: a packet from `--packet` may nest as deep as its text (JSON.parse reads any
 * depth, JSON.stringify runs out of stack past about 4,000 levels), and only its start is shown.
 */
function jsonStart(value: unknown, limit: number): string {
  let out = '';
  // Values still to write, last first; a string is text to write as it is.
  const todo: ({ readonly value: unknown } | string)[] = [{ value }];
  while (todo.length > 0 && out.length < limit) {
    const next = todo.pop()!;
    if (typeof next === 'string') {
      out += next;
      continue;
    }
    const v = next.value;
    if (Array.isArray(v)) {
      out += '[';
      todo.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] ?? null });
        if (i > 0) todo.push(',');
      }
    } else if (typeof v === 'object' && v !== null) {
      out += '{';
      todo.push('}');
      const entries = Object.entries(v).filter(([, item]) => item !== undefined);
      for (let i = entries.length - 1; i >= 0; i--) {
        todo.push({ value: entries[i][1] }, `${JSON.stringify(entries[i][0])}:`);
        if (i > 0) todo.push(',');
      }
    } else {
      out += JSON.stringify(typeof v === 'bigint' ? v.toString() : v) ?? 'null';
    }
  }
  return out;
}
