import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { readBlockYaml } from './block-yaml';
import { MAX_JSON_DEPTH, readStrictJson } from './strict-json';
import { stringScalar, type HostNode, type HostProperty, type ScalarStyle } from './host-node';

export * from './host-node';

/**
 * A JSON or YAML document reduced to what ruleset checks need: values with their document
 * offsets, object keys with theirs, and strings that can be decoded with an offset map.
 * JSON and YAML produce the same tree, so every check is written once.
 */
export type HostFormat = 'json' | 'yaml';

/** The node `by` characters later in the document (an edit before it changed the length of the text). */
export function shiftedNode<T extends HostNode>(node: T, by: number): T {
  switch (node.kind) {
    case 'object':
      return {
        ...node,
        start: node.start + by,
        end: node.end + by,
        properties: node.properties.map((p) => ({ key: p.key, keyStart: p.keyStart + by, keyEnd: p.keyEnd + by, value: p.value && shiftedNode(p.value, by) })),
      };
    case 'array':
      return { ...node, start: node.start + by, end: node.end + by, items: node.items.map((item) => shiftedNode(item, by)) };
    default:
      if (node.source) return stringScalar(node.value as string, node.style!, { ...node.source, shift: node.source.shift + by }) as T;
      return { ...node, start: node.start + by, end: node.end + by };
  }
}

/**
 * The text in memory of its own. A string cut from a document is, in V8, a view of the
 * document's whole text: kept, it keeps that whole text alive. Joined to another string and
 * cut again, it is copied.
 */
export function detached(text: string): string {
  return (' ' + text).slice(1);
}

export interface HostSyntaxError {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

export interface HostDocument {
  readonly format: HostFormat;
  readonly root?: HostNode;
  readonly syntaxErrors: readonly HostSyntaxError[];
}

/**
 * The index of the last of `nodes` (in document order) that starts at or before `offset`, or
 * -1, by binary search: a keystroke, or a directive, finds its place among a thousand rules
 * without walking them.
 */
export function lastStartingBy<T>(nodes: readonly T[], startOf: (node: T) => number, offset: number): number {
  let lo = 0;
  let hi = nodes.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (startOf(nodes[mid]) <= offset) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return last;
}

export function property(node: HostNode | undefined, key: string): HostProperty | undefined {
  return node?.kind === 'object' ? node.properties.find((p) => p.key === key) : undefined;
}

const TOO_DEEP = 'the document is nested too deeply to read; a ruleset needs only a few levels of `{}` and `[]`';

export function parseHost(text: string, format: HostFormat): HostDocument {
  try {
    return format === 'json' ? parseJson(text) : parseYaml(text);
  } catch (error) {
    // jsonc-parser and the tree conversion recurse once per nesting level, so a few thousand
    // `[` exhaust the stack. No ruleset nests like that: report it rather than crash the
    // checker (and with it the CLI run or the language server).
    if (!(error instanceof RangeError && /call stack/i.test(error.message))) throw error;
    return {
      format,
      syntaxErrors: [{ start: 0, end: 1, message: TOO_DEEP }],
    };
  }
}

// ---------------------------------------------------------------- JSON

class TooDeep extends Error {}

function parseJson(text: string): HostDocument {
  const strict = readStrictJson(text);
  if (strict) return { format: 'json', root: strict, syntaxErrors: [] };
  const errors: jsonc.ParseError[] = [];
  let root: HostNode | undefined;
  try {
    root = readJson(text, errors);
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    return { format: 'json', syntaxErrors: [{ start: 0, end: 1, message: TOO_DEEP }] };
  }
  return {
    format: 'json',
    root,
    // jsonc-parser often reports one mistake several times at one offset (a trailing comma, an
    // unterminated document); the first says it best.
    syntaxErrors: errors
      .filter((e, i) => i === 0 || e.offset !== errors[i - 1].offset)
      .map((e) => ({ start: e.offset, end: e.offset + Math.max(1, e.length), message: jsonErrorMessage(e.error) })),
  };
}

/** An object, array or property being read; `end` is set when it closes. */
interface OpenJson {
  readonly parent?: OpenJson;
  /** The node being built (undefined for a property, which becomes one of its object's properties). */
  readonly node?: { kind: 'object'; start: number; end: number; properties: HostProperty[]; block: false } | { kind: 'array'; start: number; end: number; items: HostNode[] };
  readonly property?: { key: string; keyStart: number; keyEnd: number; value?: HostNode };
}

/**
 * The host tree of a JSON text, built as jsonc-parser's visitor reads it: the same tree its
 * `parseTree` gives (with the same recovery from errors), without building that tree first,
 * which for a large file is a second copy of it in memory (test/documents/host-json.test.ts
 * holds the two to each other).
 */
function readJson(text: string, errors: jsonc.ParseError[]): HostNode | undefined {
  let root: HostNode | undefined;
  let open: OpenJson | undefined;
  let depth = 0;
  const deeper = () => {
    if (++depth > MAX_JSON_DEPTH) throw new TooDeep();
  };
  const add = (value: HostNode) => {
    if (!open) root ??= value;
    else if (open.property) open.property.value ??= value;
    else if (open.node?.kind === 'array') open.node.items.push(value);
  };
  // A property ends with its value, at a `,`, or when its object ends without one.
  const closeProperty = () => {
    if (open?.property) open = open.parent;
  };
  jsonc.visit(
    text,
    {
      onObjectBegin: (offset) => {
        deeper();
        const node = { kind: 'object' as const, start: offset, end: offset - 1, properties: [], block: false as const };
        add(node);
        open = { parent: open, node };
      },
      onObjectProperty: (key, offset, length) => {
        const property = { key, keyStart: offset, keyEnd: offset + length };
        if (open?.node?.kind === 'object') open.node.properties.push(property);
        open = { parent: open, property };
      },
      onObjectEnd: (offset, length) => {
        depth--;
        closeProperty();
        if (open?.node) open.node.end = offset + length;
        open = open?.parent;
        closeProperty();
      },
      onArrayBegin: (offset) => {
        deeper();
        const node = { kind: 'array' as const, start: offset, end: offset - 1, items: [] };
        add(node);
        open = { parent: open, node };
      },
      onArrayEnd: (offset, length) => {
        depth--;
        if (open?.node) open.node.end = offset + length;
        open = open?.parent;
        closeProperty();
      },
      onLiteralValue: (value: unknown, offset, length) => {
        const start = offset;
        const end = offset + length;
        if (typeof value === 'string') add(stringScalar(value, 'json', { text, start, end, shift: 0 }));
        else if (typeof value === 'number') add({ kind: 'number', start, end, value });
        else if (typeof value === 'boolean') add({ kind: 'boolean', start, end, value });
        else add({ kind: 'null', start, end, value: null });
        closeProperty();
      },
      onSeparator: (separator) => {
        if (separator === ',') closeProperty();
      },
      onError: (error, offset, length) => {
        errors.push({ error, offset, length });
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true },
  );
  return root;
}

function jsonErrorMessage(code: jsonc.ParseErrorCode): string {
  switch (code) {
    case jsonc.ParseErrorCode.InvalidCommentToken:
      return 'JSON does not allow comments; put notes in a `description`';
    case jsonc.ParseErrorCode.CommaExpected:
      return 'expected `,` between items';
    case jsonc.ParseErrorCode.ColonExpected:
      return 'expected `:` after the property name';
    case jsonc.ParseErrorCode.PropertyNameExpected:
      return 'expected a property name in double quotes (JSON allows no trailing comma)';
    case jsonc.ParseErrorCode.ValueExpected:
      return 'expected a value';
    case jsonc.ParseErrorCode.CloseBraceExpected:
      return 'expected `}` to close the object';
    case jsonc.ParseErrorCode.CloseBracketExpected:
      return 'expected `]` to close the array';
    case jsonc.ParseErrorCode.EndOfFileExpected:
      return 'expected the end of the file after the top-level value';
    case jsonc.ParseErrorCode.UnexpectedEndOfString:
      return 'expected a closing `"` for this string before the end of the line';
    case jsonc.ParseErrorCode.InvalidEscapeCharacter:
      return 'invalid escape in a JSON string: use `\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` or `\\uXXXX`';
    case jsonc.ParseErrorCode.InvalidCharacter:
      return 'invalid character in a JSON string (control characters must be escaped)';
    default:
      return `invalid JSON: ${jsonc.printParseErrorCode(code)}`;
  }
}

// ---------------------------------------------------------------- YAML

function parseYaml(text: string): HostDocument {
  const root = readBlockYaml(text);
  if (root) return { format: 'yaml', root, syntaxErrors: [] };
  return parseYamlWithLibrary(text);
}

/** The host tree of any YAML text, from the `yaml` library's parse (exported for the tests that hold block-yaml.ts to it). */
export function parseYamlWithLibrary(text: string): HostDocument {
  // Duplicate keys are left to the shape checks, which report them the same way for JSON.
  const doc = YAML.parseDocument(text, { keepSourceTokens: true, prettyErrors: false, uniqueKeys: false });
  const syntaxErrors = doc.errors.map((e) => ({
    start: e.pos[0],
    end: Math.max(e.pos[1], e.pos[0] + 1),
    // The yaml library reports its own stack running out as an error of the document.
    message: /call stack/i.test(e.message) ? TOO_DEEP : e.message.split('\n')[0],
  }));
  const root = doc.contents ? fromYaml(text, doc.contents as YAML.Node) : undefined;
  return { format: 'yaml', root, syntaxErrors };
}

function fromYaml(text: string, node: YAML.Node): HostNode | undefined {
  const [start, , end] = node.range ?? [0, 0, 0];
  if (YAML.isMap(node)) {
    const properties: HostProperty[] = [];
    for (const pair of node.items) {
      const key = pair.key as YAML.Node | null;
      if (!YAML.isScalar(key) || !key.range) continue;
      properties.push({
        key: String(key.value),
        keyStart: key.range[0],
        keyEnd: key.range[1],
        value: pair.value ? fromYaml(text, pair.value as YAML.Node) : undefined,
      });
    }
    return { kind: 'object', start, end: yamlValueEnd(node), properties, block: !node.flow };
  }
  if (YAML.isSeq(node)) {
    const items = node.items.flatMap((item) => {
      const host = fromYaml(text, item as YAML.Node);
      return host ? [host] : [];
    });
    return { kind: 'array', start, end: yamlValueEnd(node), items };
  }
  if (YAML.isScalar(node)) {
    const value = node.value;
    const valueEnd = node.range ? node.range[1] : end;
    if (typeof value === 'string') {
      return stringScalar(value, YAML_STYLES[node.type ?? 'PLAIN'] ?? 'plain', { text, start, end: valueEnd, shift: 0, yaml: node });
    }
    if (typeof value === 'number') return { kind: 'number', start, end: valueEnd, value };
    if (typeof value === 'boolean') return { kind: 'boolean', start, end: valueEnd, value };
    return { kind: 'null', start, end: valueEnd, value: null };
  }
  if (YAML.isAlias(node)) return undefined;
  return undefined;
}

export const YAML_STYLES: Partial<Record<string, ScalarStyle>> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single-quoted',
  QUOTE_DOUBLE: 'double-quoted',
  BLOCK_LITERAL: 'block-literal',
  BLOCK_FOLDED: 'block-folded',
};

/**
 * `text` written so that, inserted into a string of this style, it reads back as `text`:
 * `"BR"` goes into a JSON string as `\"BR\"` and into a single-quoted YAML one unchanged,
 * while a `'` there doubles.
 */
export function encodeForScalar(style: ScalarStyle | undefined, text: string): string {
  switch (style) {
    case 'json':
    case 'double-quoted':
      return JSON.stringify(text).slice(1, -1);
    case 'single-quoted':
      return text.replace(/'/g, "''");
    default:
      // Plain and block scalars take expression text as it is: it has no line breaks, and
      // within a line neither `"` nor `'` is special after the first character.
      return text;
  }
}

function yamlValueEnd(node: YAML.Node): number {
  return node.range ? node.range[1] : 0;
}
