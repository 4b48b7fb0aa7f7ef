import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { readBlockYaml } from './block-yaml';
import { MAX_NESTING, NESTED_TOO_DEEPLY } from './nesting';
import { onWholeCharacters } from './whole-characters';
import { readStrictJson } from './strict-json';
import { jsonString, stringScalar, type HostArray, type HostNode, type HostObject, type HostProperty, type ScalarStyle } from './host-node';

export * from './host-node';

/**
 * A JSON or YAML document reduced to what ruleset checks need: values with their document
 * offsets, object keys with theirs, and strings that can be decoded with an offset map.
 * JSON and YAML produce the same tree, so every check is written once.
 */
export type HostFormat = 'json' | 'yaml' | 'hcl';

/**
 * The node `by` characters later in the document (an edit before it changed the length of the
 * text). Recursive: a host tree nests MAX_NESTING levels at most.
 */
export function shiftedNode<T extends HostNode>(node: T, by: number): T {
  switch (node.kind) {
    case 'object':
      return {
        ...node,
        start: node.start + by,
        end: node.end + by,
        properties: node.properties.map((p) => ({ key: p.key, keyStart: p.keyStart + by, keyEnd: p.keyEnd + by, value: p.value && shiftedNode(p.value, by), ...(p.filledIn ? { filledIn: { start: p.filledIn.start + by, end: p.filledIn.end + by } } : {}) })),
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

/**
 * A host value as plain JSON-like data (a packet, a lists object, a ruleset to send); a
 * property without a value node (a YAML alias) is undefined. Recursive: a host tree nests
 * MAX_NESTING levels at most.
 */
export function plain(node: HostNode | undefined): unknown {
  if (!node) return undefined;
  if (node.kind === 'object') return Object.fromEntries(node.properties.map((p) => [p.key, plain(p.value)]));
  if (node.kind === 'array') return node.items.map(plain);
  return node.value;
}

export function property(node: HostNode | undefined, key: string): HostProperty | undefined {
  if (node?.kind !== 'object') return undefined;
  // A loop, not `find`: every check of every rule asks this several times, and no closure is made per question.
  for (const p of node.properties) if (p.key === key) return p;
  return undefined;
}

export function parseHost(text: string, format: HostFormat): HostDocument {
  const host = readHost(text, format);
  // The parsers count UTF-16 units: an error on an emoji can end after its first half.
  return host.syntaxErrors.length === 0 ? host : { ...host, syntaxErrors: host.syntaxErrors.map((e) => onWholeCharacters(text, e)) };
}

function readHost(text: string, format: HostFormat): HostDocument {
  try {
    return format === 'json' ? parseJson(text) : parseYaml(text);
  } catch (error) {
    // Every reader stops at MAX_NESTING and says where, so nothing below should run out of
    // stack; should it still (a stack already nearly used up by the caller), the document is
    // reported rather than the checker crashed, and with it the CLI run or the language server.
    if (!(error instanceof RangeError && /call stack/i.test(error.message))) throw error;
    return {
      format,
      syntaxErrors: [{ start: 0, end: 1, message: NESTED_TOO_DEEPLY }],
    };
  }
}

// ---------------------------------------------------------------- JSON

/** Thrown from jsonc-parser's visitor to stop it at the bracket that opens level MAX_NESTING + 1. */
class TooDeep extends Error {
  constructor(readonly offset: number) {
    super(NESTED_TOO_DEEPLY);
  }
}

function parseJson(text: string): HostDocument {
  const strict = readStrictJson(text);
  if (strict) return { format: 'json', root: strict, syntaxErrors: [] };
  const errors: jsonc.ParseError[] = [];
  let root: HostNode | undefined;
  try {
    root = readJson(text, errors);
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    // Not read at all: jsonc-parser recurses once per level and cannot be told to skip what is
    // too deep. The one error says where; other mistakes can wait until that one is fixed.
    return { format: 'json', syntaxErrors: [{ start: error.offset, end: error.offset + 1, message: NESTED_TOO_DEEPLY }] };
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
  const deeper = (offset: number) => {
    if (++depth > MAX_NESTING) throw new TooDeep(offset);
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
        deeper(offset);
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
        deeper(offset);
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
        if (typeof value === 'string') add(jsonString(text, start, end, value));
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
  let doc: YAML.Document.Parsed;
  try {
    // Duplicate keys are left to the shape checks, which report them the same way for JSON.
    doc = YAML.parseDocument(text, { keepSourceTokens: true, prettyErrors: false, uniqueKeys: false });
  } catch (error) {
    // The library's parser (before it composes, where it catches its own stack running out)
    // closes the block collections a line leaves one call inside the other: a line less
    // indented after about 2,000 of them exhausts the stack. Such a document is not read.
    if (!(error instanceof RangeError && /call stack/i.test(error.message))) throw error;
    const start = tooDeepInLibraryParser(text) ?? 0;
    return { format: 'yaml', syntaxErrors: [{ start, end: start + 1, message: NESTED_TOO_DEEPLY }] };
  }
  const { root, tooDeep } = doc.contents ? fromYaml(text, doc.contents as YAML.Node) : { root: undefined, tooDeep: undefined };
  const syntaxErrors: HostSyntaxError[] = [];
  for (const e of doc.errors) {
    // The library catches its own stack running out (past about 800 levels) and reports it as
    // an error of the document. When the tree was cut shallower than that, the cut says it,
    // at the collection that went too deep; otherwise this says it, in words.
    const stack = /call stack/i.test(e.message);
    if (stack && tooDeep !== undefined) continue;
    syntaxErrors.push({ start: e.pos[0], end: Math.max(e.pos[1], e.pos[0] + 1), message: stack ? NESTED_TOO_DEEPLY : e.message.split('\n')[0] });
  }
  if (tooDeep !== undefined) {
    syntaxErrors.push({ start: tooDeep, end: tooDeep + 1, message: NESTED_TOO_DEEPLY });
    syntaxErrors.sort((a, b) => a.start - b.start);
  }
  return { format: 'yaml', root, syntaxErrors };
}

/**
 * Where the collection that opens level MAX_NESTING + 1 starts, found by running the library's
 * lexer and parser one token at a time and stopping there, before a deep stack of open
 * collections can be closed at once. Undefined if the text never nests that deep.
 */
function tooDeepInLibraryParser(text: string): number | undefined {
  const parser = new YAML.Parser();
  for (const lexeme of new YAML.Lexer().lex(text)) {
    // Only the parser's stack is of interest here, not the documents it yields.
    for (const _document of parser.next(lexeme)) continue;
    // The stack holds the document, the open collections, and a scalar or two being read.
    if (parser.stack.length <= MAX_NESTING) continue;
    const collections = parser.stack.filter((t) => t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection');
    if (collections.length > MAX_NESTING) return collections[MAX_NESTING].offset;
  }
  return undefined;
}

/** Where a converted node goes: into its array's items, or as its property's value. */
type Slot = { readonly items: HostNode[] } | { readonly property: { value?: HostNode } };

/**
 * The host tree of the library's tree, without recursion (the library's tree is as deep as it
 * could compose), cut at MAX_NESTING levels: a collection deeper than that is left out, and
 * `tooDeep` is where the first one starts. What is not too deep is read as usual, so the rules
 * of a file with one odd value are still checked.
 */
function fromYaml(text: string, contents: YAML.Node): { root: HostNode | undefined; tooDeep: number | undefined } {
  let root: HostNode | undefined;
  let tooDeep: number | undefined;
  // The collections made, each before its own: widened last, children first (encloseChildren).
  const collections: Mutable<HostObject | HostArray>[] = [];
  const work: { node: YAML.Node; depth: number; slot?: Slot }[] = [{ node: contents, depth: 1 }];
  while (work.length > 0) {
    const { node, depth, slot } = work.pop()!;
    const isMap = YAML.isMap(node);
    if ((isMap || YAML.isSeq(node)) && depth > MAX_NESTING) {
      tooDeep ??= node.range?.[0] ?? 0;
      continue;
    }
    let host: HostNode | undefined;
    // Children are pushed last first, so that they are converted, and land, in document order.
    if (isMap) {
      const properties: HostProperty[] = [];
      const children: { node: YAML.Node; depth: number; slot: Slot }[] = [];
      for (const pair of node.items) {
        const key = pair.key as YAML.Node | null;
        if (!YAML.isScalar(key) || !key.range) continue;
        const property: { key: string; keyStart: number; keyEnd: number; value?: HostNode } = { key: String(key.value), keyStart: key.range[0], keyEnd: key.range[1], value: undefined };
        properties.push(property);
        if (pair.value) children.push({ node: pair.value as YAML.Node, depth: depth + 1, slot: { property } });
      }
      for (let i = children.length - 1; i >= 0; i--) work.push(children[i]);
      const object: Mutable<HostObject> = { kind: 'object', start: node.range?.[0] ?? 0, end: yamlValueEnd(node), properties, block: !node.flow };
      collections.push(object);
      host = object;
    } else if (YAML.isSeq(node)) {
      const items: HostNode[] = [];
      for (let i = node.items.length - 1; i >= 0; i--) work.push({ node: node.items[i] as YAML.Node, depth: depth + 1, slot: { items } });
      const array: Mutable<HostArray> = { kind: 'array', start: node.range?.[0] ?? 0, end: yamlValueEnd(node), items };
      collections.push(array);
      host = array;
    } else if (YAML.isScalar(node)) {
      host = fromYamlScalar(text, node);
    }
    // An alias (or anything else the library gives) is no node of ours.
    if (!host) continue;
    if (!slot) root = host;
    else if ('items' in slot) slot.items.push(host);
    else slot.property.value = host;
  }
  for (let i = collections.length - 1; i >= 0; i--) encloseChildren(collections[i]);
  return { root, tooDeep };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Widens a collection to span its keys and values. The library may end a block sequence before
 * its last item does, when the item runs on over a line it cannot read (`  - action: block` then
 * `    {1.2.3.4 …} wildcard andexpression: >-`, a fuzzed ruleset of issue 35): every node of ours
 * spans its children, which the features that nest them (the outline) rely on.
 */
function encloseChildren(collection: Mutable<HostObject | HostArray>): void {
  const widen = (start: number, end: number) => {
    if (start < collection.start) collection.start = start;
    if (end > collection.end) collection.end = end;
  };
  if (collection.kind === 'array') for (const item of collection.items) widen(item.start, item.end);
  else {
    for (const p of collection.properties) {
      widen(p.keyStart, p.keyEnd);
      if (p.value) widen(p.value.start, p.value.end);
    }
  }
}

function fromYamlScalar(text: string, node: YAML.Scalar): HostNode {
  const [start, , end] = node.range ?? [0, 0, 0];
  const value = node.value;
  const valueEnd = node.range ? node.range[1] : end;
  if (typeof value === 'string') {
    return stringScalar(value, YAML_STYLES[node.type ?? 'PLAIN'] ?? 'plain', { text, start, end: valueEnd, shift: 0, yaml: node });
  }
  if (typeof value === 'number') return { kind: 'number', start, end: valueEnd, value };
  if (typeof value === 'boolean') return { kind: 'boolean', start, end: valueEnd, value };
  return { kind: 'null', start, end: valueEnd, value: null };
}

export const YAML_STYLES: Partial<Record<string, ScalarStyle>> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single-quoted',
  QUOTE_DOUBLE: 'double-quoted',
  BLOCK_LITERAL: 'block-literal',
  BLOCK_FOLDED: 'block-folded',
};

const HCL_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * HCL's escapes, and `$${`/`%%{` for a `${`/`%{`, so that Terraform reads no interpolation into
 * the text. A `$` just before `${` is written `\u0024` (a `%` before `%{`, `\u0025`): `$$${`
 * is what Terraform reads as `$${`, but the tree-sitter grammar reads an interpolation there.
 */
function encodeForHclQuoted(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const introducer = c === '$' || c === '%';
    if (HCL_ESCAPES[c]) out += HCL_ESCAPES[c];
    else if (introducer && text[i + 1] === '{') out += c + c;
    else if (introducer && text[i + 1] === c && text[i + 2] === '{') out += c === '$' ? '\\u0024' : '\\u0025';
    else out += c;
  }
  return out;
}

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
    case 'hcl-quoted':
      return encodeForHclQuoted(text);
    case 'hcl-heredoc':
      // Without escapes, `$` just before `${` cannot be written so that the tree-sitter grammar
      // reads it as Terraform does; expressions have no `$${`.
      return text.replace(/[$%]\{/g, (c) => `${c[0]}${c}`);
    default:
      // Plain and block scalars take expression text as it is: it has no line breaks, and
      // within a line neither `"` nor `'` is special after the first character.
      return text;
  }
}

function yamlValueEnd(node: YAML.Node): number {
  return node.range ? node.range[1] : 0;
}
