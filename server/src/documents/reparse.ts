/**
 * Typing in a string re-reads that string, not the file: the ruleset of a document's new
 * version, made from its previous version's when the two differ only inside one string
 * scalar (an expression, a description). The host tree is reused: the nodes before the edit
 * as they are, the nodes after it moved by the change in length, and the edited string read
 * again on its own. A YAML file of 1,000 rules takes the `yaml` library about 40 ms to parse;
 * this takes about a millisecond.
 *
 * Whenever the edit could change more than that string's value (it touches a quote, a key, a
 * line break, the text between nodes, or turns the string into something else), or the
 * previous version had syntax errors, the answer is undefined and the caller parses the whole
 * text. A property test (test/documents/reparse.test.ts) holds the result to the full parse's.
 */
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { detached, lastStartingBy, shiftedNode, stringScalar, YAML_STYLES, type HostNode, type HostProperty, type HostScalar } from './host/index';
import { rulesetOfHost, type ParsedRuleset } from './parsed-ruleset';

interface Edit {
  /** The new text. */
  readonly text: string;
  /** The changed part: [start, end) of the previous text became [start, end + delta) of the new one. */
  readonly start: number;
  readonly end: number;
  readonly delta: number;
  /**
   * Whether the edit stays within the text of one line: it removes and inserts no line break,
   * and has text before it on its line, so that no line's indentation changes.
   */
  readonly inOneLine: boolean;
}

/** Characters compared at once in finding where two versions of a text differ. */
const BLOCK = 256;

/** The ruleset of `text`, read from `previous` (an earlier version of the same document), or undefined. */
export function reparseAfterEdit(previous: ParsedRuleset, text: string): ParsedRuleset | undefined {
  if (previous.syntaxProblems.length > 0 || !previous.root) return undefined;
  const old = previous.text;
  if (old === text) return previous;
  const limit = Math.min(old.length, text.length);
  // Compared a block at a time first (a block's comparison is native), then a character at a
  // time in the block that differs: a file of 1,000 rules is some 180,000 characters, which
  // compared one by one at every keystroke were a tenth of an edit's cost.
  let start = 0;
  while (start + BLOCK <= limit && old.slice(start, start + BLOCK) === text.slice(start, start + BLOCK)) start += BLOCK;
  while (start < limit && old.charCodeAt(start) === text.charCodeAt(start)) start++;
  let same = 0;
  while (same + BLOCK <= limit - start && old.slice(old.length - same - BLOCK, old.length - same) === text.slice(text.length - same - BLOCK, text.length - same)) same += BLOCK;
  while (same < limit - start && old.charCodeAt(old.length - 1 - same) === text.charCodeAt(text.length - 1 - same)) same++;
  const end = old.length - same;
  const delta = text.length - old.length;
  const edit: Edit = { text, start, end, delta, inOneLine: withinOneLine(old, text, start, end, delta) };
  const root = rebuilt(previous.root, edit, previous, false);
  return root && rulesetOfHost(text, { format: previous.format, root, syntaxErrors: [] });
}

function withinOneLine(old: string, text: string, start: number, end: number, delta: number): boolean {
  if (/[\r\n]/.test(old.slice(start, end)) || /[\r\n]/.test(text.slice(start, end + delta))) return false;
  for (let i = start - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return false;
    if (c !== 32 && c !== 9) return true;
  }
  return false;
}

/**
 * Whether the edit lies within the node. For a string, the re-read then decides whether the
 * new text is still one string of the same style there (a first character changed to `-`, `&`,
 * `#` or a quote is not).
 */
function holds(node: HostNode, edit: Edit): boolean {
  return node.start <= edit.start && edit.end <= node.end;
}

/** Recursive, down to the edited string: a host tree nests MAX_NESTING levels at most. */
function rebuilt(node: HostNode, edit: Edit, previous: ParsedRuleset, inFlow: boolean): HostNode | undefined {
  switch (node.kind) {
    case 'object': {
      const index = node.properties.findIndex((p) => p.value !== undefined && holds(p.value, edit));
      if (index < 0) return undefined;
      const value = rebuilt(node.properties[index].value!, edit, previous, inFlow || !node.block);
      if (!value) return undefined;
      const properties = node.properties.map((p, i): HostProperty => (i < index ? p : i === index ? { ...p, value } : shiftedProperty(p, edit.delta)));
      return { ...node, end: node.end + edit.delta, properties };
    }
    case 'array': {
      const index = itemHolding(node.items, edit);
      if (index < 0) return undefined;
      const flow = inFlow || (previous.format === 'yaml' && previous.text[node.start] === '[');
      const item = rebuilt(node.items[index], edit, previous, flow);
      if (!item) return undefined;
      const items = node.items.map((n, i) => (i < index ? n : i === index ? item : shiftedNode(n, edit.delta)));
      return { ...node, end: node.end + edit.delta, items };
    }
    default:
      return node.kind === 'string' && holds(node, edit) ? reread(node, edit, inFlow) : undefined;
  }
}

/** The index of the item the edit lies in (items are in document order), or -1. */
function itemHolding(items: readonly HostNode[], edit: Edit): number {
  // The last item starting at or before the edit is the only one that can hold it.
  const last = lastStartingBy(items, (item) => item.start, edit.start);
  return last >= 0 && holds(items[last], edit) ? last : -1;
}

function shiftedProperty(property: HostProperty, by: number): HostProperty {
  return { key: property.key, keyStart: property.keyStart + by, keyEnd: property.keyEnd + by, value: property.value && shiftedNode(property.value, by) };
}

/**
 * The edited string, read on its own: it must still be one string of the same style that
 * ends where the previous one ended (moved by the edit), or the edit changed more than it.
 */
function reread(node: HostScalar, edit: Edit, inFlow: boolean): HostScalar | undefined {
  const start = node.start;
  const end = node.end + edit.delta;
  const own = detached(edit.text.slice(start, end));
  if (node.style === 'json') {
    const scanner = jsonc.createScanner(own, true);
    const token = scanner.scan();
    if (token !== jsonc.SyntaxKind.StringLiteral || scanner.getTokenLength() !== own.length || scanner.getTokenError() !== jsonc.ScanError.None) return undefined;
    return stringScalar(scanner.getTokenValue(), 'json', { text: own, start: 0, end: own.length, shift: start });
  }
  // Not a plain scalar in a `{…}` or `[…]`, whose end depends on where it stands. A string
  // over several lines (a long expression that an editor or YAML.stringify folded) only when
  // the edit stays within one line: the line breaks and indentation then are the ones the
  // full parse accepted, and folding the lines alone gives the value they give in place.
  const rereadable = node.style === 'double-quoted' || node.style === 'single-quoted' || (node.style === 'plain' && !inFlow);
  if (!rereadable || (!edit.inOneLine && /[\r\n]/.test(own)) || !closedAtItsEnd(own, node.style)) return undefined;
  const document = YAML.parseDocument(own, { keepSourceTokens: true, prettyErrors: false, uniqueKeys: false });
  const scalar = document.contents;
  if (document.errors.length > 0 || !YAML.isScalar(scalar) || typeof scalar.value !== 'string') return undefined;
  if (!scalar.range || scalar.range[0] !== 0 || scalar.range[1] !== own.length || YAML_STYLES[scalar.type ?? 'PLAIN'] !== node.style) return undefined;
  return stringScalar(scalar.value, node.style, { text: own, start: 0, end: own.length, shift: start, yaml: scalar });
}

/**
 * Whether a quoted scalar's last character is its closing quote (the `yaml` library, reading a
 * scalar alone, accepts `"a\"` at the end of its input as closed, where in the document it is not).
 */
function closedAtItsEnd(own: string, style: string): boolean {
  if (style === 'double-quoted') {
    if (own.length < 2 || !own.endsWith('"')) return false;
    let escapes = 0;
    while (own[own.length - 2 - escapes] === '\\') escapes++;
    return escapes % 2 === 0;
  }
  if (style === 'single-quoted') {
    let quotes = 0;
    while (own[own.length - 1 - quotes] === "'") quotes++;
    // The closing quote after pairs of quotes (`''` is one quote), or, if the run reaches the
    // opening quote, an even run (`''` is the empty string).
    return quotes === own.length ? quotes % 2 === 0 : quotes % 2 === 1;
  }
  return true;
}
