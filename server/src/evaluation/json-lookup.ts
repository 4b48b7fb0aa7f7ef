/**
 * The JSON reading of `lookup_json_string` / `lookup_json_integer`: a document (RFC 8259) read
 * without recursion (the nesting is the request's, so the caller controls it) and with each
 * number kept as written, because the docs tell `42` from `42.0` (only the first is an integer
 * to `lookup_json_integer`), which a JavaScript number cannot.
 */

export type Json =
  | { readonly kind: 'object'; readonly members: readonly (readonly [string, Json])[] }
  | { readonly kind: 'array'; readonly items: readonly Json[] }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly text: string }
  | { readonly kind: 'literal'; readonly value: true | false | null };

type Open = { kind: 'object'; members: [string, Json][]; key?: string } | { kind: 'array'; items: Json[] };

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const STRING_CHARS = /[^"\\\u0000-\u001f]*/y;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The document, or undefined when the text is not one JSON value. */
export function readJson(text: string): Json | undefined {
  let i = 0;
  const skip = () => {
    WHITESPACE.lastIndex = i;
    WHITESPACE.exec(text);
    i = WHITESPACE.lastIndex;
  };
  const string = (): string | undefined => {
    i++; // the opening quote
    let out = '';
    for (;;) {
      STRING_CHARS.lastIndex = i;
      out += STRING_CHARS.exec(text)![0];
      i = STRING_CHARS.lastIndex;
      const c = text[i];
      if (c === '"') {
        i++;
        // A lone surrogate (`"\ud800"`) is no Unicode text, which RFC 8259 leaves open: refused.
        return LONE_SURROGATE.test(out) ? undefined : out;
      }
      if (c !== '\\') return undefined; // end of text, or a control character
      const e = text[i + 1];
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (e in simple) {
        out += simple[e];
        i += 2;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else return undefined;
    }
  };
  const stack: Open[] = [];
  let result: Json | undefined;
  // Each turn reads one value (or closes a container) and hands it to the container it is in.
  for (;;) {
    skip();
    let value: Json | undefined;
    const c = text[i];
    const top = stack[stack.length - 1];
    if (top && ((top.kind === 'object' && top.members.length === 0 && top.key === undefined && c === '}') || (top.kind === 'array' && top.items.length === 0 && c === ']'))) {
      i++;
      stack.pop();
      value = top.kind === 'object' ? { kind: 'object', members: top.members } : { kind: 'array', items: top.items };
    } else if (top?.kind === 'object' && top.key === undefined) {
      if (c !== '"') return undefined;
      const key = string();
      if (key === undefined) return undefined;
      skip();
      if (text[i] !== ':') return undefined;
      i++;
      top.key = key;
      continue;
    } else if (c === '{') {
      i++;
      stack.push({ kind: 'object', members: [] });
      continue;
    } else if (c === '[') {
      i++;
      stack.push({ kind: 'array', items: [] });
      continue;
    } else if (c === '"') {
      const s = string();
      if (s === undefined) return undefined;
      value = { kind: 'string', value: s };
    } else if (text.startsWith('true', i) || text.startsWith('false', i) || text.startsWith('null', i)) {
      const word = text.startsWith('true', i) ? 'true' : text.startsWith('false', i) ? 'false' : 'null';
      i += word.length;
      value = { kind: 'literal', value: word === 'null' ? null : word === 'true' };
    } else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m || m[0] === '' ) return undefined;
      i = NUMBER.lastIndex;
      value = { kind: 'number', text: m[0] };
    }
    // Hand the value up, closing every container that ends after it.
    for (;;) {
      const open = stack[stack.length - 1];
      if (!open) {
        result = value;
        break;
      }
      if (open.kind === 'object') {
        open.members.push([open.key!, value]);
        open.key = undefined;
      } else open.items.push(value);
      skip();
      const next = text[i];
      if (next === ',') {
        i++;
        break;
      }
      if ((open.kind === 'object' && next === '}') || (open.kind === 'array' && next === ']')) {
        i++;
        stack.pop();
        value = open.kind === 'object' ? { kind: 'object', members: open.members } : { kind: 'array', items: open.items };
        continue;
      }
      return undefined;
    }
    if (result !== undefined) break;
    // After a comma: an object needs a key next, which the loop reads; `[1,]` and `{"a":1,}` are not JSON.
    skip();
    if (text[i] === ']' || text[i] === '}') return undefined;
  }
  skip();
  return i === text.length ? result : undefined;
}

/** A step of a lookup: a member name (from a String key) or an array position (from an Integer key). */
export type JsonKey = { readonly member: string } | { readonly index: bigint };

/**
 * The value at the end of the keys; undefined when a key leads nowhere (no such member, a
 * position past the end, a key of the other kind). Throws `DuplicateMember` when a member on
 * the path is named twice in its object: JSON leaves that open, and so do the docs.
 */
export function lookupJson(document: Json, keys: readonly JsonKey[]): Json | undefined {
  let at: Json = document;
  for (const key of keys) {
    if ('member' in key) {
      if (at.kind !== 'object') return undefined;
      const found = at.members.filter(([name]) => name === key.member);
      if (found.length > 1) throw new DuplicateMember(key.member);
      if (found.length === 0) return undefined;
      at = found[0][1];
    } else {
      if (at.kind !== 'array' || key.index < 0n || key.index >= BigInt(at.items.length)) return undefined;
      at = at.items[Number(key.index)];
    }
  }
  return at;
}

export class DuplicateMember extends Error {
  constructor(readonly member: string) {
    super(`the JSON document has the member "${member}" twice`);
  }
}
