import type * as YAML from 'yaml';
import { decodeHclTemplate } from './decode-hcl';
import { decodeJsonString } from './decode-json';
import { decodeBlockScalarExact, decodeFlowScalar, decodeYamlScalar, type BlockScalarLayout, type FlowScalarStyle } from './decode-yaml';
import type { DecodedString } from './offset-map';

/**
 * The nodes of the host tree that host.ts reads JSON and YAML into, kept apart from the
 * readers so that each of them (host.ts, block-yaml.ts, strict-json.ts) builds them without
 * importing another.
 *
 * No tree is more than MAX_NESTING (nesting.ts) objects and arrays deep: every reader stops
 * there and reports where. A walk of a host tree may recurse on that bound, and only on it.
 */
export type HostNode = HostObject | HostArray | HostScalar;

interface HostNodeBase {
  readonly start: number;
  readonly end: number;
}

export interface HostObject extends HostNodeBase {
  readonly kind: 'object';
  readonly properties: readonly HostProperty[];
  /** A YAML block mapping (one key a line), as opposed to JSON or a YAML `{…}` mapping. */
  readonly block: boolean;
}

export interface HostProperty {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value?: HostNode;
  /**
   * A Terraform value the file does not fix (a reference, a function call, a conditional, a
   * `for`, a splat; terraform.ts): its characters. It has no `value`, and is an unknown of the
   * attribute's type: there, not missing, and of no wrong type.
   */
  readonly filledIn?: { readonly start: number; readonly end: number };
}

export interface HostArray extends HostNodeBase {
  readonly kind: 'array';
  readonly items: readonly HostNode[];
}

/**
 * How a string is written: it decides how text inserted into it must be escaped. `hcl-quoted`
 * and `hcl-heredoc` are a Terraform file's `"…"` and `<<EOT` strings.
 */
export type ScalarStyle = 'json' | 'plain' | 'single-quoted' | 'double-quoted' | 'block-literal' | 'block-folded' | 'hcl-quoted' | 'hcl-heredoc';

/** `|` and `>` scalars: their value's final line breaks belong to chomping, not to the text. */
export function isBlockScalar(style: ScalarStyle | undefined): boolean {
  return style === 'block-literal' || style === 'block-folded';
}

export interface HostScalar extends HostNodeBase {
  readonly kind: 'string' | 'number' | 'boolean' | 'null';
  readonly value: string | number | boolean | null;
  readonly style?: ScalarStyle;
  /** For strings: the value with an offset map into the document (computed on demand). */
  readonly decode?: () => DecodedString | undefined;
  /** For strings: what `decode` reads, kept as data so that a re-parse after an edit can move it. */
  readonly source?: ScalarSource;
}

/**
 * Where a string scalar is decoded from: `text` (the document, or a copy of the scalar alone)
 * holds it at [start, end), and `shift` is added to every offset decoded, so that a scalar
 * after an edit keeps decoding from the text it was parsed in.
 */
export interface ScalarSource {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly shift: number;
  /** The YAML library's node of the scalar, in `text`; undefined for JSON. */
  readonly yaml?: YAML.Scalar;
  /** A YAML scalar read without the library (documents/host/block-yaml.ts): its style, or where its block (`|`, `>`) stands. */
  readonly flow?: FlowScalarStyle;
  readonly block?: BlockScalarLayout;
  /** An HCL string template: its `${…}` and `%{…}` parts, as ranges of `text`. */
  readonly hcl?: { readonly holes: readonly { readonly start: number; readonly end: number }[] };
}

/**
 * A string node's `decode`: one function for every node, reading the node it is called on,
 * rather than a closure made for each string of a document (a 10,000-rule file has some
 * 30,000), which the garbage collector then copies with the tree.
 */
function decodeOwnSource(this: HostScalar): DecodedString | undefined {
  const source = this.source!;
  const decoded = source.hcl
    ? decodeHclTemplate(source.text, source.start, source.end, source.hcl.holes)?.decoded
    : source.yaml
      ? decodeYamlScalar(source.text, source.yaml)
      : source.flow
        ? decodeFlowScalar(source.text, source.start, source.end, source.flow)
        : source.block
          ? decodeBlockScalarExact(source.text, source.block)
          : decodeJsonString(source.text, source.start, source.end);
  return decoded && source.shift !== 0 ? shiftDecoded(decoded, source.shift) : decoded;
}

function shiftDecoded(decoded: DecodedString, by: number): DecodedString {
  return {
    ...decoded,
    starts: decoded.starts.map((o) => o + by),
    ends: decoded.ends.map((o) => o + by),
    contentStart: decoded.contentStart + by,
    contentEnd: decoded.contentEnd + by,
  };
}

/**
 * A JSON string's node as a reader of the whole document makes it: one object, which keeps the
 * document's text (a field of its own, not copied by a spread, as no other node has it) and
 * gives `source` and `decode` from it on demand, where a node from stringScalar carries a
 * source object and a function of its own. A 10,000-rule file has some 30,000 of them, which
 * the garbage collector copies as often as it runs while the tree is read.
 */
class JsonString implements HostScalar {
  // In the order of a node from stringScalar, which a tree compared as text (JSON.stringify) shows.
  readonly kind = 'string';
  readonly start: number;
  readonly end: number;
  readonly value: string;
  readonly style = 'json';
  readonly #text: string;

  constructor(text: string, start: number, end: number, value: string) {
    this.start = start;
    this.end = end;
    this.value = value;
    this.#text = text;
  }

  get source(): ScalarSource {
    return { text: this.#text, start: this.start, end: this.end, shift: 0 };
  }

  decode(): DecodedString | undefined {
    return decodeJsonString(this.#text, this.start, this.end);
  }
}

/** The node of the JSON string `value` at [start, end) of the document `text` (quotes included). */
export function jsonString(text: string, start: number, end: number, value: string): HostScalar {
  return new JsonString(text, start, end, value);
}

/**
 * A string Terraform fills in part of: an HCL template with a `${…}` or `%{…}`. Where the
 * string is an expression, its holes are read as such (ExpressionSite.holes); anywhere else
 * its value is not known, and nothing is claimed about it.
 */
export function isTerraformTemplate(node: HostNode | undefined): boolean {
  return node?.kind === 'string' && node.source?.hcl !== undefined && node.source.hcl.holes.length > 0;
}

/** A string scalar read from `source`, at its place in the document. */
export function stringScalar(value: string, style: ScalarStyle, source: ScalarSource): HostScalar {
  return { kind: 'string', start: source.start + source.shift, end: source.end + source.shift, value, style, source, decode: decodeOwnSource };
}
