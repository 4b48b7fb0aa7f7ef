/**
 * What each function of the HTTP phases returns, for `rulesets test`.
 *
 * Only `concat` is implemented inside wirefilter (engine/src/functions/concat.rs); the others
 * are Cloudflare's own, and their semantics come from the Cloudflare docs:
 * `cloudflare/cloudflare-docs`, src/content/docs/ruleset-engine/rules-language/functions.mdx at
 * 12cd7d04ee8fc78422ffcb0a63ed83f5c2ce8475 (the commit the catalogue reads, "functions.mdx"
 * below), and the pages named at each function. Each entry says what its source says; where
 * the source does not say enough to compute a value (an input it does not cover), the call is
 * *refused*: its value is unknown, with the reason, and a verdict that depends on it is an error
 * that says so. Nothing is guessed.
 *
 * Three rules hold for every function:
 * - an argument the test case does not give makes the call unknown;
 * - a *missing* argument (a header the request does not send, `[5]` of a shorter array): the docs
 *   say a call on a missing value returns a missing value "in most cases, but the exact behavior
 *   can vary per function" (src/content/partials/ruleset-engine/rules-language-missing-value-behavior.mdx
 *   at 3e5c0a75),
 *   so a call is missing only where its own docs say so (`join`, `split`, `len`), `concat`
 *   skips it (its wirefilter source), and every other function is refused;
 * - a function can only give a value or none: wirefilter's function interface returns an
 *   `Option` (engine/src/functions/mod.rs; a `None` is a missing value to the comparison, and
 *   ast/function_expr.rs drops it from a mapped call's array). So where a lookup finds no value
 *   (`lookup_json_*`), the call is missing.
 *
 * The functions the docs allow only in value expressions (rewrites, redirect targets, header
 * values: `regex_replace`, `wildcard_replace`, `to_string`, `remove_query_args`) are evaluated
 * from their docs too; wirefilter has them in its tests only as stubs that return their first
 * argument (engine/src/ast/function_expr.rs), and the pinned Python engine registers their
 * signatures with no implementation, so the docs are the only source of what they return.
 * `uuidv4` is random. It and the functions the pinned functions.mdx does not describe (they are
 * in the engine's scheme only: `coalesce`, `contains`, `encode_base64`, `has_key`, `has_value`,
 * `hash_in_range`, `hmac`, `ip_in_range`, `is_jwt_present`, `is_jwt_valid`, `sha256`, `sha512`,
 * `trim`, `trim_end`, `trim_start`, `wildcard`) are evaluated only from a value the test case
 * gives for the call (request.ts: `'is_jwt_valid("…")': true`).
 */
import { DuplicateMember, lookupJson, readJson, type JsonKey } from './json-lookup';
import { compileRegex, fromLatin1, latin1 } from './regex-match';
import { foldAscii, lazyWildcardMatch, wildcardTokens } from './wildcard';
import { arrayValue, bytesValue, booleanValue, describeValue, MISSING, type FieldValue, type Item, type Read, type Value } from './value';

/** An argument or a result that cannot be known, with the reason (said when the verdict needs it). */
export interface Refusal {
  readonly refused: string;
}

export type CallResult = Read | Refusal;

export function isRefusal(result: unknown): result is Refusal {
  return typeof result === 'object' && result !== null && 'refused' in result;
}

/** A function whose arguments are wrong in a way the checker reports (until it does, an error here). */
export class CallError extends Error {}

interface Implemented {
  readonly kind: 'implemented';
  /** What a missing argument makes of the call. */
  readonly onMissing: 'propagate' | 'skip' | 'refuse';
  /** Gets the arguments with the missing ones dropped when `onMissing` is `skip`. */
  readonly apply: (args: readonly Value[], name: string) => CallResult;
}

/** `undocumented`: the docs do not say what it returns; `random`: a new value on every request. */
interface NotEvaluated {
  readonly kind: 'undocumented' | 'random';
}

export type FunctionSemantics = Implemented | NotEvaluated;

const UTF8 = new TextEncoder();

function refuse(reason: string): Refusal {
  return { refused: reason };
}

// ---------------------------------------------------------------- argument readers

function bytesOf(value: Value | undefined, name: string, position: number): Uint8Array {
  if (value?.type !== 'Bytes') throw new CallError(`\`${name}\` takes a String as argument ${position}, found ${value ? describeValue(value) : 'nothing'}`);
  return value.bytes;
}

function integerOf(value: Value | undefined, name: string, position: number): bigint {
  if (value?.type !== 'Integer') throw new CallError(`\`${name}\` takes an Integer as argument ${position}, found ${value ? describeValue(value) : 'nothing'}`);
  return value.value;
}

function ipOf(value: Value | undefined, name: string, position: number): FieldValue & { type: 'Ip' } {
  if (value?.type !== 'Ip') throw new CallError(`\`${name}\` takes an IP address as argument ${position}, found ${value ? describeValue(value) : 'nothing'}`);
  return value;
}

function arity(args: readonly Value[], name: string, min: number, max: number): void {
  if (args.length < min || args.length > max) {
    throw new CallError(`\`${name}\` takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}, found ${args.length}`);
  }
}

function bytes(value: Uint8Array): FieldValue {
  return { type: 'Bytes', bytes: value };
}

function startsWith(value: Uint8Array, prefix: Uint8Array, at = 0): boolean {
  if (at < 0 || at + prefix.length > value.length) return false;
  for (let i = 0; i < prefix.length; i++) if (value[at + i] !== prefix[i]) return false;
  return true;
}

/** `"x"` as messages quote a value; bytes that are not printable ASCII as `\xHH`. */
export function quoteBytes(value: Uint8Array): string {
  let out = '';
  for (const b of value) out += b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  return `"${out}"`;
}

// ---------------------------------------------------------------- the functions

/** functions.mdx, `lower` / `upper`: "Only uppercase [lowercase] ASCII bytes are converted. All other bytes are unaffected." */
function caseMap(from: number, to: number): Implemented['apply'] {
  return (args, name) => {
    arity(args, name, 1, 1);
    const source = bytesOf(args[0], name, 1);
    return bytes(source.map((b) => (b >= from && b <= to ? b ^ 0x20 : b)));
  };
}

/** functions.mdx, `starts_with` / `ends_with`: true when the source begins (ends) with the substring. */
function affix(atEnd: boolean): Implemented['apply'] {
  return (args, name) => {
    arity(args, name, 2, 2);
    const source = bytesOf(args[0], name, 1);
    const part = bytesOf(args[1], name, 2);
    return booleanValue(startsWith(source, part, atEnd ? source.length - part.length : 0));
  };
}

/**
 * functions.mdx, `len`: "the byte length of a String or Bytes value, or the number of elements
 * in an array". A missing argument gives a missing value: values.mdx at 146311af (Maps) shows
 * `not len(http.request.uri.args["order"]) >= 0` true for a key the request does not have.
 */
const len: Implemented['apply'] = (args, name) => {
  arity(args, name, 1, 1);
  const value = args[0];
  if (value.type === 'Bytes') return { type: 'Integer', value: BigInt(value.bytes.length) };
  if (value.type === 'Array') return { type: 'Integer', value: BigInt(value.items.length) };
  throw new CallError(`\`len\` takes a String or an array, found ${describeValue(value)}`);
};

/**
 * `concat`, as wirefilter implements it (engine/src/functions/concat.rs): strings end to end,
 * or arrays end to end, the first argument deciding which; a missing argument is skipped, and
 * with every argument missing the call is missing. The docs agree for a missing value: the
 * `http.request.accepted_languages` entry of src/content/fields/index.yaml says concat handles
 * it "as an empty string".
 */
const concat: Implemented['apply'] = (args, name) => {
  if (args.length === 0) return MISSING;
  const first = args[0];
  if (first.type === 'Bytes') {
    const parts = args.map((a, i) => bytesOf(a, name, i + 1));
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return bytes(out);
  }
  if (first.type === 'Array') {
    const items: Item[] = [];
    for (const a of args) {
      if (a.type !== 'Array') throw new CallError(`\`concat\` joins values of one type: an array, then ${describeValue(a)}`);
      items.push(...a.items);
    }
    return arrayValue(items);
  }
  throw new CallError(`\`concat\` takes Strings or arrays, found ${describeValue(first)}`);
};

/**
 * functions.mdx, `remove_bytes`: "all the occurrences of the given bytes removed"; its example
 * (`remove_bytes(http.host, "\x2e\x77")` of "www.cloudflare.com" is "cloudflarecom") removes each
 * byte of the set wherever it stands, not the sequence.
 */
const removeBytes: Implemented['apply'] = (args, name) => {
  arity(args, name, 2, 2);
  const source = bytesOf(args[0], name, 1);
  const set = new Set(bytesOf(args[1], name, 2));
  return bytes(source.filter((b) => !set.has(b)));
};

/**
 * functions.mdx, `substring`: bytes from `start` up to (excluding) `end`, the end optional;
 * negative positions count from the end. Its examples stay inside the value; what a position
 * outside it gives (clamped, or nothing) is not said, so that is refused.
 */
const substring: Implemented['apply'] = (args, name) => {
  arity(args, name, 2, 3);
  const source = bytesOf(args[0], name, 1);
  const n = BigInt(source.length);
  const resolve = (p: bigint) => (p < 0n ? n + p : p);
  const start = resolve(integerOf(args[1], name, 2));
  const end = args.length === 3 ? resolve(integerOf(args[2], name, 3)) : n;
  if (start < 0n || end > n || start > end) {
    return refuse(`\`substring\` of a value of ${source.length} bytes from ${integerOf(args[1], name, 2)}${args.length === 3 ? ` to ${integerOf(args[2], name, 3)}` : ''} reaches outside it, and the docs do not say what it returns then`);
  }
  return bytes(source.slice(Number(start), Number(end)));
};

/**
 * functions.mdx, `split`: the input broken at every occurrence of the separator, at most `limit`
 * elements, the last one holding the rest; the separator is a non-empty literal and the limit an
 * integer from 1 to 128; "If `input` is nil, the returned value will be nil."
 */
const split: Implemented['apply'] = (args, name) => {
  arity(args, name, 3, 3);
  const input = bytesOf(args[0], name, 1);
  const separator = bytesOf(args[1], name, 2);
  const limit = integerOf(args[2], name, 3);
  if (separator.length === 0) return refuse('`split` needs a non-empty separator (functions.mdx)');
  if (limit < 1n || limit > 128n) return refuse(`\`split\` takes a limit from 1 to 128 (functions.mdx), found ${limit}`);
  const parts: Item[] = [];
  let from = 0;
  for (let i = 0; i + separator.length <= input.length && BigInt(parts.length) < limit - 1n; ) {
    if (startsWith(input, separator, i)) {
      parts.push(bytes(input.slice(from, i)));
      i += separator.length;
      from = i;
    } else i++;
  }
  parts.push(bytes(input.slice(from)));
  return arrayValue(parts);
};

/**
 * functions.mdx, `join`: the strings of `items` with the separator between them; "If any of the
 * arguments is nil, the returned value will be nil", an empty array gives "", one item is
 * returned as it is.
 */
const join: Implemented['apply'] = (args, name) => {
  arity(args, name, 2, 2);
  const items = args[0];
  if (items.type !== 'Array') throw new CallError(`\`join\` takes an array of Strings as argument 1, found ${describeValue(items)}`);
  const separator = bytesOf(args[1], name, 2);
  const parts: Uint8Array[] = [];
  for (const item of items.items) {
    if (item === undefined) return undefined;
    parts.push(bytesOf(item, name, 1));
  }
  const out: number[] = [];
  parts.forEach((p, i) => {
    if (i > 0) out.push(...separator);
    out.push(...p);
  });
  return bytes(Uint8Array.from(out));
};

const HEX = /^[0-9a-fA-F]{2}$/;

/**
 * functions.mdx, `url_decode`: `%XX` becomes that byte and `+` a space (`%E4%BD` gives those two
 * bytes); option `r` decodes again until nothing changes (`%2520` becomes a space), option `u`
 * also reads `%uXXXX` as that character in UTF-8. A `%` that starts none of these, and any
 * other option, are not described: refused.
 */
const urlDecode: Implemented['apply'] = (args, name) => {
  arity(args, name, 1, 2);
  let value = bytesOf(args[0], name, 1);
  const options = args.length === 2 ? new TextDecoder().decode(bytesOf(args[1], name, 2)) : '';
  if (!/^[ru]*$/.test(options) || new Set(options).size !== options.length) return refuse(`\`url_decode\` options are "r" and "u" (functions.mdx), found "${options}"`);
  const unicode = options.includes('u');
  for (;;) {
    const decoded = decodeOnce(value, unicode);
    if (isRefusal(decoded)) return decoded;
    const changed = decoded.length !== value.length || decoded.some((b, i) => b !== value[i]);
    value = decoded;
    if (!options.includes('r') || !changed) return bytes(value);
  }
};

function decodeOnce(value: Uint8Array, unicode: boolean): Uint8Array | Refusal {
  const out: number[] = [];
  const text = (from: number, to: number) => String.fromCharCode(...value.slice(from, to));
  for (let i = 0; i < value.length; i++) {
    const b = value[i];
    if (b === 0x2b) out.push(0x20);
    else if (b !== 0x25) out.push(b);
    else if (HEX.test(text(i + 1, i + 3))) {
      out.push(parseInt(text(i + 1, i + 3), 16));
      i += 2;
    } else if (unicode && value[i + 1] === 0x75 && /^[0-9a-fA-F]{4}$/.test(text(i + 2, i + 6))) {
      const code = parseInt(text(i + 2, i + 6), 16);
      if (code >= 0xd800 && code <= 0xdfff) return refuse(`\`url_decode\` of ${quoteBytes(value)}: \`%u${text(i + 2, i + 6)}\` is half of a UTF-16 pair, which the docs do not say how to decode`);
      out.push(...UTF8.encode(String.fromCharCode(code)));
      i += 5;
    } else {
      return refuse(`\`url_decode\` of ${quoteBytes(value)}: the \`%\` at byte ${i} starts no escape the docs describe (\`%XX\`${unicode ? ', `%uXXXX`' : ''}), and they do not say what becomes of it`);
    }
  }
  return Uint8Array.from(out);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** RFC 4648 decoding in the given alphabet, padded or not; undefined unless the text is exactly that (canonical: no stray bits). */
export function decodeBase64(text: Uint8Array, alphabet: string, padded: boolean): Uint8Array | undefined {
  let body = text;
  if (padded) {
    if (text.length % 4 !== 0) return undefined;
    let pad = 0;
    while (pad < 2 && body.length > 0 && body[body.length - 1] === 0x3d) {
      body = body.slice(0, -1);
      pad++;
    }
  } else if (text.length % 4 === 1) return undefined;
  const out: number[] = [];
  let bits = 0;
  let count = 0;
  for (const b of body) {
    const v = alphabet.indexOf(String.fromCharCode(b));
    if (v < 0) return undefined;
    bits = (bits << 6) | v;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push((bits >> count) & 0xff);
    }
  }
  // Leftover bits must be zero: otherwise two texts would decode alike.
  if (count > 0 && (bits & ((1 << count) - 1)) !== 0) return undefined;
  return Uint8Array.from(out);
}

/**
 * functions.mdx, `decode_base64`: "Decodes a Base64-encoded String"; its example decodes
 * "MTIzYWJj" to "123abc". Read as RFC 4648 §4 Base64 (the standard alphabet, padded); text that
 * is not — the URL-safe alphabet, missing padding, stray characters — is not described: refused.
 */
const decodeBase64Function: Implemented['apply'] = (args, name) => {
  arity(args, name, 1, 1);
  const source = bytesOf(args[0], name, 1);
  const decoded = decodeBase64(source, BASE64, true);
  if (!decoded) return refuse(`\`decode_base64\` of ${quoteBytes(source)}, which is not standard padded Base64; the docs do not say what it returns then`);
  return bytes(decoded);
};

function maskAddress(address: FieldValue & { type: 'Ip' }, bits: bigint): FieldValue {
  const width = address.family === 4 ? 32n : 128n;
  const host = (1n << (width - bits)) - 1n;
  return { type: 'Ip', family: address.family, value: address.value & ~host & ((1n << width) - 1n) };
}

/**
 * functions.mdx, `cidr`: the network address of an IPv4 address with its first
 * `ipv4_network_bits` bits kept, of an IPv6 one with `ipv6_network_bits`; the bits "must be
 * between 1 and 32" and "between 1 and 128" (others: refused).
 */
const cidr: Implemented['apply'] = (args, name) => {
  arity(args, name, 3, 3);
  const address = ipOf(args[0], name, 1);
  const v4 = integerOf(args[1], name, 2);
  const v6 = integerOf(args[2], name, 3);
  if (v4 < 1n || v4 > 32n) return refuse(`\`cidr\` takes IPv4 network bits from 1 to 32 (functions.mdx), found ${v4}`);
  if (v6 < 1n || v6 > 128n) return refuse(`\`cidr\` takes IPv6 network bits from 1 to 128 (functions.mdx), found ${v6}`);
  return maskAddress(address, address.family === 4 ? v4 : v6);
};

/** functions.mdx, `cidr6`: an IPv6 address to its first `ipv6_network_bits` bits (1 to 128); an IPv4 address "will be returned unchanged". */
const cidr6: Implemented['apply'] = (args, name) => {
  arity(args, name, 2, 2);
  const address = ipOf(args[0], name, 1);
  const v6 = integerOf(args[1], name, 2);
  if (v6 < 1n || v6 > 128n) return refuse(`\`cidr6\` takes IPv6 network bits from 1 to 128 (functions.mdx), found ${v6}`);
  return address.family === 4 ? address : maskAddress(address, v6);
};

/**
 * functions.mdx, `lookup_json_string` / `lookup_json_integer`: the value in the JSON document at
 * the keys, each a member name (a String) or a zero-based array position (an Integer);
 * `lookup_json_integer` "only works for plain integers" (not `42.0`). Where the document has no
 * such value — no member, a position past the end, a value of another type, a float, no JSON
 * document at all — the function has nothing to return: a missing value. A member named twice
 * in an object on the path is not described: refused.
 */
function lookupJsonFunction(integer: boolean): Implemented['apply'] {
  return (args, name) => {
    if (args.length < 2) throw new CallError(`\`${name}\` takes a JSON document and at least one key, found ${args.length} argument${args.length === 1 ? '' : 's'}`);
    const source = bytesOf(args[0], name, 1);
    const keys: JsonKey[] = [];
    for (let i = 1; i < args.length; i++) {
      const key = args[i];
      if (key.type === 'Bytes') keys.push({ member: new TextDecoder().decode(key.bytes) });
      else if (key.type === 'Integer') keys.push({ index: key.value });
      else throw new CallError(`\`${name}\` takes Strings and Integers as keys, found ${describeValue(key)} as argument ${i + 1}`);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(source);
    } catch {
      return MISSING;
    }
    const document = readJson(text);
    if (!document) return MISSING;
    let found;
    try {
      found = lookupJson(document, keys);
    } catch (error) {
      if (error instanceof DuplicateMember) return refuse(`\`${name}\`: ${error.message}, and the docs do not say which one counts`);
      throw error;
    }
    if (!integer) return found?.kind === 'string' ? bytesValue(found.value) : MISSING;
    if (found?.kind !== 'number' || !/^-?(0|[1-9][0-9]*)$/.test(found.text)) return MISSING;
    const value = BigInt(found.text);
    // The Integer type is a signed 64-bit integer (engine/src/types.rs: `Int(i64)`).
    if (value < -(1n << 63n) || value >= 1n << 63n) return MISSING;
    return { type: 'Integer', value };
  };
}

/**
 * functions.mdx, "HMAC validation", and src/content/docs/waf/custom-rules/use-cases/configure-token-authentication.mdx
 * at 00cd75ee:
 * the MessageMAC is `message`, a separator of `lengthOfSeparator` bytes, a 10-digit Unix
 * `timestamp`, `-`, and the Base64 `mac` (the whole value matching `(.+)(.*)(\d{10})-(.{43,})`, the
 * greedy first group putting the timestamp as far right as it can stand); the MAC is HMAC-SHA256
 * with the key over `message` followed by `timestamp` (the token-generation examples); without
 * the `s` flag it is URL-encoded standard Base64, with it URL-safe Base64 without padding; the
 * token is valid when the MACs match and `currentTimeStamp < timestamp + ttl`. Anything else is
 * not a valid token: false. A raw `+` in a URL-encoded MAC (space or plus?) is not described: refused.
 */
const isTimedHmacValid: Implemented['apply'] = (args, name) => {
  arity(args, name, 4, 6);
  const key = bytesOf(args[0], name, 1);
  const messageMac = bytesOf(args[1], name, 2);
  const ttl = integerOf(args[2], name, 3);
  const now = integerOf(args[3], name, 4);
  const separatorLength = args.length >= 5 ? integerOf(args[4], name, 5) : 0n;
  const flags = args.length === 6 ? new TextDecoder().decode(bytesOf(args[5], name, 6)) : '';
  if (flags !== '' && flags !== 's') return refuse(`\`is_timed_hmac_valid_v0\` knows the flag "s" only (functions.mdx), found "${flags}"`);
  const invalid = booleanValue(false);
  if (messageMac.includes(0x0a)) return invalid; // `.` of the regex does not match a line break
  let at = -1;
  for (let i = messageMac.length - 54; i >= 1; i--) {
    if (messageMac[i + 10] !== 0x2d) continue;
    if (messageMac.slice(i, i + 10).every((b) => b >= 0x30 && b <= 0x39)) {
      at = i;
      break;
    }
  }
  if (at < 0 || BigInt(at) - separatorLength < 1n) return invalid;
  const message = messageMac.slice(0, at - Number(separatorLength));
  const timestamp = messageMac.slice(at, at + 10);
  const macText = messageMac.slice(at + 11);
  let mac: Uint8Array | undefined;
  if (flags === 's') mac = decodeBase64(macText, BASE64URL, false);
  else {
    if (macText.includes(0x2b)) return refuse('`is_timed_hmac_valid_v0`: the MAC holds a raw `+`, which URL encoding would have written `%2B`; the docs do not say whether it stands for a space or a plus');
    const unescaped: number[] = [];
    const text = String.fromCharCode(...macText);
    for (let i = 0; i < text.length; i++) {
      if (text[i] === '%' && HEX.test(text.slice(i + 1, i + 3))) {
        unescaped.push(parseInt(text.slice(i + 1, i + 3), 16));
        i += 2;
      } else unescaped.push(text.charCodeAt(i));
    }
    mac = decodeBase64(Uint8Array.from(unescaped), BASE64, true);
  }
  // node:crypto on first use: only this function needs it, and loading it is ~7 ms of every start.
  const { createHmac, timingSafeEqual } = require('node:crypto') as typeof import('node:crypto');
  const expected = createHmac('sha256', key).update(message).update(timestamp).digest();
  if (!mac || mac.length !== expected.length || !timingSafeEqual(mac, expected)) return invalid;
  const issued = BigInt(String.fromCharCode(...timestamp));
  return booleanValue(now < issued + ttl);
};

// ---------------------------------------------------------------- value expressions only

/**
 * A replacement string of `regex_replace` / `wildcard_replace` (functions.mdx): `${N}` inserts
 * capture N, `$$` writes one `$`. The docs describe nothing else after a `$` (a bare `$1`, a
 * name), nor a reference to a capture the pattern does not have: refused. `groups` gives capture
 * N's bytes, undefined when the pattern has no capture N.
 */
function expandReplacement(replacement: Uint8Array, groups: (n: number) => Uint8Array | undefined, name: string): Uint8Array | Refusal {
  const out: number[] = [];
  for (let i = 0; i < replacement.length; i++) {
    const b = replacement[i];
    if (b !== 0x24) {
      out.push(b);
      continue;
    }
    if (replacement[i + 1] === 0x24) {
      out.push(0x24);
      i++;
      continue;
    }
    const reference = /^\{([0-9]+)\}/.exec(String.fromCharCode(...replacement.slice(i + 1, i + 8)));
    if (!reference) return refuse(`\`${name}\`: the replacement ${quoteBytes(replacement)} has a \`$\` at byte ${i} that is neither \`\${N}\` nor \`$$\`, the two forms the docs describe`);
    const group = groups(Number(reference[1]));
    if (group === undefined) return refuse(`\`${name}\`: the replacement refers to \`\${${reference[1]}}\`, and the pattern has no capture ${reference[1]}`);
    out.push(...group);
    i += reference[0].length;
  }
  return Uint8Array.from(out);
}

/**
 * functions.mdx, `regex_replace`: the first match of the regex in the source replaced (no match:
 * the source unchanged), matching case-sensitive by default; the regex has the syntax and
 * byte-oriented reading of `matches` (regex-match.ts). A capture that took no part in the match
 * inserts nothing, as the Rust `regex` crate's replacement expansion does.
 */
const regexReplace: Implemented['apply'] = (args, name) => {
  arity(args, name, 3, 3);
  const source = bytesOf(args[0], name, 1);
  const pattern = bytesOf(args[1], name, 2);
  const replacement = bytesOf(args[2], name, 3);
  const compiled = compileRegex(new TextDecoder().decode(pattern));
  if ('problem' in compiled) throw new CallError(compiled.problem);
  const matcher = compiled.matcher(latin1(source));
  if (!matcher.find()) return bytes(source);
  const expanded = expandReplacement(replacement, (n) => (n > matcher.groupCount() ? undefined : fromLatin1(matcher.group(n) ?? '')), name);
  if (isRefusal(expanded)) return expanded;
  const start = matcher.start();
  const end = matcher.end();
  return bytes(Uint8Array.from([...source.slice(0, start), ...expanded, ...source.slice(end)]));
};

/** The most cells the lazy wildcard match may fill (pattern tokens × value bytes): beyond, refused rather than slow. */
const WILDCARD_CELLS = 16_000_000;

/**
 * functions.mdx, `wildcard_replace`: the whole source must match the pattern (else the source is
 * returned unchanged); `*` matches any run of bytes, as short as it can ("lazy matching"), `\*`
 * and `\\` are a literal star and backslash, `**` is invalid; case-insensitive unless the flags
 * are "s" — ASCII letters only, as the `wildcard` operator folds them (evaluate.ts). `${N}` in
 * the replacement is what the Nth star matched.
 */
const wildcardReplace: Implemented['apply'] = (args, name) => {
  arity(args, name, 3, 4);
  const source = bytesOf(args[0], name, 1);
  const pattern = bytesOf(args[1], name, 2);
  const replacement = bytesOf(args[2], name, 3);
  const flags = args.length === 4 ? new TextDecoder().decode(bytesOf(args[3], name, 4)) : '';
  if (flags !== '' && flags !== 's') return refuse(`\`wildcard_replace\` knows the flag "s" only (functions.mdx), found "${flags}"`);
  const { tokens, doubleStar } = wildcardTokens(pattern);
  if (doubleStar) return refuse(`\`wildcard_replace\`: the pattern ${quoteBytes(pattern)} has \`**\`, which the docs call invalid`);
  if ((tokens.length + 1) * (source.length + 1) > WILDCARD_CELLS) return refuse(`\`wildcard_replace\` of ${source.length} bytes against a pattern of ${tokens.length} parts is more than \`rulesets test\` matches`);
  const fold = flags === 's' ? (b: number) => b : foldAscii;
  const captures = lazyWildcardMatch(tokens, source, fold);
  if (!captures) return bytes(source);
  const expanded = expandReplacement(replacement, (n) => (n >= 1 && n <= captures.length ? captures[n - 1] : undefined), name);
  return isRefusal(expanded) ? expanded : bytes(expanded);
};

/**
 * functions.mdx, `to_string`: the text of an Integer (decimal) or a Boolean (`true`, `false`; the
 * docs' example), and of an IP address. The docs do not say how an IPv6 address is written
 * (compressed or not, letter case): refused; IPv4 is the dotted quad.
 */
const toString: Implemented['apply'] = (args, name) => {
  arity(args, name, 1, 1);
  const value = args[0];
  if (value.type === 'Integer') return bytesValue(value.value.toString());
  if (value.type === 'Boolean') return bytesValue(String(value.value));
  if (value.type === 'Ip') {
    if (value.family === 6) return refuse('`to_string` of an IPv6 address: the docs do not say how it is written (compressed or not, letter case)');
    return bytesValue([24n, 16n, 8n, 0n].map((shift) => String((value.value >> shift) & 0xffn)).join('.'));
  }
  throw new CallError(`\`to_string\` takes an Integer, a Boolean or an IP address, found ${describeValue(value)}`);
};

/**
 * functions.mdx, `remove_query_args`: the query without every argument named (repeated ones
 * too), the others in their order. An argument is split at `&` and named by what precedes its
 * first `=` (the whole argument without one), compared as written (no decoding, as the query
 * fields hold it). An empty argument (`a=1&&b=2`) is not described: refused.
 */
const removeQueryArgs: Implemented['apply'] = (args, name) => {
  if (args.length < 2) throw new CallError(`\`${name}\` takes a query and at least one argument name, found ${args.length} argument${args.length === 1 ? '' : 's'}`);
  const query = latin1(bytesOf(args[0], name, 1));
  const names = new Set(args.slice(1).map((a, i) => latin1(bytesOf(a, name, i + 2))));
  if (query === '') return bytes(new Uint8Array());
  const parts = query.split('&');
  if (parts.includes('')) return refuse(`\`remove_query_args\` of ${quoteBytes(fromLatin1(query))}: the query has an empty argument, and the docs do not say what becomes of it`);
  const kept = parts.filter((part) => !names.has(part.split('=', 1)[0]));
  return bytes(fromLatin1(kept.join('&')));
};

// ---------------------------------------------------------------- the table

function implemented(apply: Implemented['apply'], onMissing: Implemented['onMissing'] = 'refuse'): Implemented {
  return { kind: 'implemented', apply, onMissing };
}

const UNDOCUMENTED: NotEvaluated = { kind: 'undocumented' };
const RANDOM: NotEvaluated = { kind: 'random' };

/** Every function of the HTTP phases but `any` and `all` (quantifiers, evaluate.ts) and `bit_slice` (packets). */
export const FUNCTION_SEMANTICS: ReadonlyMap<string, FunctionSemantics> = new Map<string, FunctionSemantics>([
  ['lower', implemented(caseMap(0x41, 0x5a))],
  ['upper', implemented(caseMap(0x61, 0x7a))],
  ['starts_with', implemented(affix(false))],
  ['ends_with', implemented(affix(true))],
  ['len', implemented(len, 'propagate')],
  ['concat', implemented(concat, 'skip')],
  ['remove_bytes', implemented(removeBytes)],
  ['substring', implemented(substring)],
  ['split', implemented(split, 'propagate')],
  ['join', implemented(join, 'propagate')],
  ['url_decode', implemented(urlDecode)],
  ['decode_base64', implemented(decodeBase64Function)],
  ['cidr', implemented(cidr)],
  ['cidr6', implemented(cidr6)],
  ['lookup_json_string', implemented(lookupJsonFunction(false))],
  ['lookup_json_integer', implemented(lookupJsonFunction(true))],
  ['is_timed_hmac_valid_v0', implemented(isTimedHmacValid)],
  ...['coalesce', 'contains', 'encode_base64', 'has_key', 'has_value', 'hash_in_range', 'hmac', 'ip_in_range', 'is_jwt_present', 'is_jwt_valid', 'sha256', 'sha512', 'trim', 'trim_end', 'trim_start', 'wildcard'].map(
    (name) => [name, UNDOCUMENTED] as const,
  ),
  ['regex_replace', implemented(regexReplace)],
  ['wildcard_replace', implemented(wildcardReplace)],
  ['to_string', implemented(toString)],
  ['remove_query_args', implemented(removeQueryArgs)],
  ['uuidv4', RANDOM],
]);
