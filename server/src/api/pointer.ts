/**
 * From the service's answer back to the file: a `source.pointer` such as `/rules/3/expression`
 * names a part of the request body, which was read from a local ruleset file; this finds that
 * part in the file's text, and, when the message says `Filter parsing error (1:15)`, the very
 * character inside the expression, through JSON escapes and every YAML style.
 */
import type { HostFormat, HostNode } from '../documents/host/index';
import { mapRange, type DecodedString } from '../documents/host/index';
import { parseRuleset, type ExpressionSite, type ParsedRuleset } from '../documents/parsed-ruleset';

export interface PointerRange {
  /** Document offsets (UTF-16 code units), end exclusive. */
  readonly start: number;
  readonly end: number;
  /** The part of the pointer found in the file: the pointer itself, or its closest existing ancestor. */
  readonly pointer: string;
  /** Whether the whole pointer was found. */
  readonly exact: boolean;
  /** Whether the range was narrowed to the `(line:col)` of the message, inside the string. */
  readonly narrowed: boolean;
}

export interface PointerOptions {
  /** The message that came with the pointer: `(line:col)` in it narrows the range. */
  readonly message?: string;
  /**
   * Where the request body sits in the file, as a pointer: `/rules/2` for "add rule" or
   * "update rule", whose body is one rule (its pointers read `/expression`).
   */
  readonly base?: string;
  /** The ruleset the body was read from, when the file holds several (a Terraform resource, an octorules section). */
  readonly ruleset?: ParsedRuleset;
}

/**
 * The range in a local ruleset file (`text`, in `format`) of the part a `source.pointer` names:
 * the node itself (an expression string, a rule, …) or, when the file has no such part, its
 * closest existing ancestor. Undefined when the file has no readable top-level value.
 */
export function pointerToRange(text: string, format: HostFormat, pointer: string, options: PointerOptions = {}): PointerRange | undefined {
  const model = options.ruleset ?? parseRuleset(text, format);
  if (!model.root) return undefined;
  const segments = parsePointer(`${options.base ?? ''}${pointer === '/' ? '' : pointer}`);
  let node: HostNode = model.root;
  let range = { start: node.start, end: node.end };
  const found: string[] = [];
  for (const segment of segments) {
    let next: HostNode | undefined;
    if (node.kind === 'object') {
      // JSON.parse, as the body was sent, keeps the last of keys given twice.
      const property = node.properties.filter((p) => p.key === segment).pop();
      if (property && !property.value) {
        // `key:` with nothing after it in YAML: the key is what exists.
        found.push(segment);
        range = { start: property.keyStart, end: property.keyEnd };
        return { ...range, pointer: formatPointer(found), exact: found.length === segments.length, narrowed: false };
      }
      next = property?.value;
    } else if (node.kind === 'array' && /^(0|[1-9]\d*)$/.test(segment)) {
      next = node.items[Number(segment)];
    }
    if (!next) break;
    node = next;
    found.push(segment);
    range = { start: node.start, end: node.end };
  }
  const exact = found.length === segments.length;
  const result = { ...range, pointer: formatPointer(found), exact, narrowed: false };
  if (!exact || node.kind !== 'string' || !options.message) return result;
  const at = messageLocation(options.message);
  if (!at) return result;
  const decoded = model.sites.find((site) => site.node === node)?.decoded() ?? node.decode?.();
  if (!decoded) return result;
  const narrowed = narrow(decoded, at);
  return narrowed ? { ...narrowed, pointer: result.pointer, exact, narrowed: true } : result;
}

/** The `(line:col)` of a message such as `Filter parsing error (1:15): …`, and a caret run's length. */
export function messageLocation(message: string): { line: number; column: number; length: number } | undefined {
  const m = /\((\d+):(\d+)\)/.exec(message);
  if (!m) return undefined;
  // The service's long form draws the span under the expression: `    ^^^^ unknown identifier`.
  const carets = /\n *(\^+)/.exec(message.slice(m.index));
  return { line: Number(m[1]), column: Number(m[2]), length: carets ? carets[1].length : 1 };
}

function narrow(decoded: DecodedString, at: { line: number; column: number; length: number }): { start: number; end: number } | undefined {
  const start = indexOfLineColumn(decoded.value, at.line, at.column);
  if (start === undefined) return undefined;
  const end = indexOfLineColumn(decoded.value, at.line, at.column + at.length) ?? start + 1;
  return mapRange(decoded, start, Math.max(end, start + 1));
}

/**
 * The service's `(line:col)` for an offset of an expression: both 1-based, the column counted
 * in UTF-8 bytes from the start of the line, as the service's (Rust) parser counts. Not an
 * editor's place (documents/positions.ts): the engine ends a line at LF alone, a lone CR is a
 * character of its line (wirefilter engine/src/ast/parse.rs, `ParseError::new`, at
 * af1a1e960a8fdc44a1a154553470dfbb286afbe8), so the emulator says what the service would.
 */
export function lineColumnOf(expression: string, index: number): { line: number; column: number } {
  const before = expression.slice(0, index);
  const lineStart = before.lastIndexOf('\n') + 1;
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++;
  return { line, column: Buffer.byteLength(before.slice(lineStart), 'utf8') + 1 };
}

/**
 * The offset in an expression of the service's `(line:col)` (see `lineColumnOf`); a column past
 * the line's end gives the line's end. Undefined when the expression has no such line.
 */
export function indexOfLineColumn(expression: string, line: number, column: number): number | undefined {
  if (line < 1 || column < 1) return undefined;
  let lineStart = 0;
  for (let l = 1; l < line; l++) {
    const next = expression.indexOf('\n', lineStart);
    if (next === -1) return undefined;
    lineStart = next + 1;
  }
  const lineEnd = expression.indexOf('\n', lineStart) === -1 ? expression.length : expression.indexOf('\n', lineStart);
  let bytes = 0;
  let i = lineStart;
  while (i < lineEnd && bytes < column - 1) {
    const codePoint = expression.codePointAt(i)!;
    bytes += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    i += codePoint >= 0x10000 ? 2 : 1;
  }
  return i;
}

/** The pointer of the deepest node (or key) of a host tree at a document offset. */
export function pointerAtOffset(root: HostNode, offset: number): string {
  const path: string[] = [];
  let node: HostNode | undefined = root;
  while (node) {
    let next: HostNode | undefined;
    if (node.kind === 'object') {
      for (const p of node.properties) {
        const inKey = offset >= p.keyStart && offset < p.keyEnd;
        const inValue = p.value !== undefined && offset >= p.value.start && offset < p.value.end;
        if (!inKey && !inValue) continue;
        path.push(p.key);
        next = inValue ? p.value : undefined;
        break;
      }
    } else if (node.kind === 'array') {
      const index = node.items.findIndex((item) => offset >= item.start && offset < item.end);
      if (index !== -1) {
        path.push(String(index));
        next = node.items[index];
      }
    }
    node = next;
  }
  return formatPointer(path);
}

/** The pointer of an expression site in its ruleset: `/rules/0/action_parameters/uri/path/expression`. */
export function sitePointer(site: ExpressionSite): string {
  return formatPointer(['rules', String(site.ruleIndex), ...site.path]);
}

/** RFC 6901: `/a~1b/0` is [`a/b`, `0`]; `` is the whole document. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  const body = pointer.startsWith('/') ? pointer.slice(1) : pointer;
  return body.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function formatPointer(segments: readonly string[]): string {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
