/**
 * The syntax tree of a Terraform file written the way ruleset files are written (blocks with
 * labels, attributes, nested blocks, and as values quoted strings, heredocs, numbers, bools,
 * null, tuples and objects, with anything else as one opaque expression), read without
 * tree-sitter; or undefined for anything else, which tree-sitter then reads.
 *
 * Why: tree-sitter's HCL grammar runs in WebAssembly, and on a 10,000-rule file parsing takes
 * about 2 s and moving its nodes out of WebAssembly another 0.7 s, against under 1 s for the
 * whole check of the same rules in YAML. This reader builds, in one pass over the text, the few
 * nodes terraform.ts's Reader looks at, with tree-sitter's types, children and offsets
 * (`config_file` > `body` > `block` > `identifier`, `string_lit`, `body`; `attribute` >
 * `identifier`, `expression`; `expression` > `literal_value` > `string_lit`, `numeric_lit`,
 * `bool_lit`, `null_lit`; `template_expr` > `quoted_template` | `heredoc_template` >
 * `template_interpolation`; `collection_value` > `tuple` | `object` > `object_elem`).
 * Comments and punctuation, which the Reader skips, are left out.
 *
 * What it must give: for every text it accepts, the same ParsedDocument as tree-sitter's tree
 * (test/documents/hcl-fast-reader.test.ts holds the two to each other on the examples, the
 * fixtures, generated rulesets and mutated ones). So it is strict: a syntax error, a template
 * directive (`%{…}`), a strip marker (`${~`), an escape HCL has not, a comment inside an
 * expression or holding `<<`, a character outside ASCII outside a string or comment, a line that goes on with
 * an operator, or nesting deeper than a ruleset's sends the whole file to tree-sitter.
 */

/** The members of a syntax node that terraform.ts's Reader uses: tree-sitter's nodes have them, and so do this reader's. */
export interface HclSyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly namedChildren: readonly (HclSyntaxNode | null)[];
  readonly namedChildCount: number;
  readonly hasError: boolean;
}

/** The children of a leaf: one array for all (a 10,000-rule file has hundreds of thousands of nodes). */
const NO_CHILDREN: readonly HclSyntaxNode[] = Object.freeze([]);

class SubsetNode implements HclSyntaxNode {
  constructor(
    private readonly source: string,
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly namedChildren: readonly HclSyntaxNode[] = NO_CHILDREN,
  ) {}

  /** This reader builds no node around an error: it gives the file to tree-sitter instead. */
  get hasError(): boolean {
    return false;
  }

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }
}

/** The literal a value is when it is one: what `expression` > `literal_value` holds. */
type LiteralType = 'string_lit' | 'numeric_lit' | 'bool_lit' | 'null_lit';

/**
 * An expression that is one literal (most values of a ruleset), or an object's key that is one
 * name: one node, whose children (`literal_value` > `string_lit`, or `variable_expr` >
 * `identifier`) are made when the Reader asks for them. The tree lives while the file is read,
 * and the garbage collector copies every node of it each time it runs: a 10,000-rule file holds
 * some 100,000 such values, whose children would be twice as many nodes again.
 */
class ShortExpression implements HclSyntaxNode {
  readonly type = 'expression';
  readonly namedChildCount = 1;
  readonly hasError = false;

  constructor(
    private readonly source: string,
    /** The literal's type, or undefined for a key that is a name. */
    private readonly literal: LiteralType | undefined,
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): readonly HclSyntaxNode[] {
    const { source, startIndex: start, endIndex: end } = this;
    const inner = new SubsetNode(source, this.literal ?? 'identifier', start, end);
    return [new SubsetNode(source, this.literal ? 'literal_value' : 'variable_expr', start, end, [inner])];
  }
}

/** Deeper than a ruleset nests; tree-sitter reads (and reports) what is deeper. */
const MAX_DEPTH = 48;

/** Anywhere in the text, something this reader leaves to tree-sitter: a template directive, a strip marker, a carriage return not before a line feed, a byte order mark, a control character. */
const UNSUPPORTED = /%\{|\$\{~|~\}|\r(?!\n)|\ufeff|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

class Unsupported extends Error {}

const isIdentifierStart = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
const isIdentifierPart = (c: number) => isIdentifierStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** Characters that may go on an expression on the next line (an operator, an index, a call): such a file is left to tree-sitter. */
const CONTINUATION = new Set([...'+-*/%&|<>=!?:.[(,'].map((c) => c.charCodeAt(0)));
/** Operator characters inside an opaque expression. */
const OPERATOR = new Set([...'+-*/%&|<>=!?:.'].map((c) => c.charCodeAt(0)));
/** A number as tree-sitter's grammar reads it: an exponent only after a fraction. */
const NUMBER = /[0-9]+(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?)?/y;
/** An operator, longest first. */
const OPERATOR_TOKEN = /==|!=|<=|>=|&&|\|\||=>|[-+*\/%<>!?:.=]/y;
/** Words an object's key may not be without parentheses. */
const KEYWORDS = ['true', 'false', 'null', 'for', 'in', 'if'];
const CLOSING: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/** The tree of `text`, or undefined when it holds anything outside the subset. */
export function readHclSubset(text: string): HclSyntaxNode | undefined {
  if (UNSUPPORTED.test(text)) return undefined;
  try {
    return new SubsetReader(text).file();
  } catch (error) {
    if (error instanceof Unsupported || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Where an expression stands, which decides what ends it. */
type Context = 'body' | 'object' | 'tuple' | 'hole' | ForContext;
/** The parts of a `for` expression: what follows `in`, an object's key and value (or a tuple's item), the condition after `if`. */
type ForContext = 'for-in' | 'for-key' | 'for-value' | 'for-if';

class SubsetReader {
  private pos = 0;
  /** Where the opaque expression's last name or number began. */
  private wordStart = 0;

  constructor(private readonly text: string) {}

  file(): HclSyntaxNode {
    const items = this.items(0);
    if (this.pos < this.text.length) throw new Unsupported();
    const body = items.length > 0 ? [this.node('body', items[0].startIndex, items.at(-1)!.endIndex, items)] : [];
    return this.node('config_file', 0, this.text.length, body);
  }

  private node(type: string, start: number, end: number, children: readonly HclSyntaxNode[] = NO_CHILDREN): HclSyntaxNode {
    return new SubsetNode(this.text, type, start, end, children);
  }

  private code(at = this.pos): number {
    return at < this.text.length ? this.text.charCodeAt(at) : -1;
  }

  /** Skips blanks and comments; line feeds too when `lines`. A block comment over lines counts as a line feed. */
  private skip(lines: boolean): void {
    const text = this.text;
    for (;;) {
      const c = this.code();
      if (c === 0x20 || c === 0x09) this.pos++;
      else if (lines && (c === 0x0a || (c === 0x0d && this.code(this.pos + 1) === 0x0a))) this.pos++;
      else if (c === 0x23 || (c === 0x2f && this.code(this.pos + 1) === 0x2f)) {
        const end = text.indexOf('\n', this.pos);
        const lineEnd = end === -1 ? text.length : text[end - 1] === '\r' ? end - 1 : end;
        // tree-sitter's heredoc scanner is led astray by `<<` even in a comment.
        if (text.slice(this.pos, lineEnd).includes('<<')) throw new Unsupported();
        this.pos = lineEnd;
      } else if (c === 0x2f && this.code(this.pos + 1) === 0x2a) {
        const end = text.indexOf('*/', this.pos + 2);
        if (end === -1) throw new Unsupported();
        const comment = text.slice(this.pos, end);
        if ((!lines && comment.includes('\n')) || comment.includes('<<')) throw new Unsupported();
        this.pos = end + 2;
      } else return;
    }
  }

  /** At the end of a line (or of the file), past blanks and a comment. */
  private atLineEnd(): boolean {
    this.skip(false);
    const c = this.code();
    return c === -1 || c === 0x0a || c === 0x0d;
  }

  private identifier(): HclSyntaxNode {
    const start = this.pos;
    this.skipIdentifier();
    return this.node('identifier', start, this.pos);
  }

  private skipIdentifier(): void {
    if (!isIdentifierStart(this.code())) throw new Unsupported();
    this.pos++;
    while (isIdentifierPart(this.code())) this.pos++;
  }

  /** Whether the characters from `start` to the position are `word`. */
  private isWord(start: number, word: string): boolean {
    return this.pos - start === word.length && this.text.startsWith(word, start);
  }

  /** A body's attributes and blocks, up to its closing `}` (not read) or the end of the file. */
  private items(depth: number): HclSyntaxNode[] {
    if (depth > MAX_DEPTH) throw new Unsupported();
    const items: HclSyntaxNode[] = [];
    for (;;) {
      this.skip(true);
      const c = this.code();
      if (c === -1 || c === 0x7d) return items;
      const name = this.identifier();
      this.skip(false);
      if (this.code() === 0x3d && this.code(this.pos + 1) !== 0x3d) {
        this.pos++;
        this.skip(false);
        const value = this.expression('body', depth + 1);
        items.push(this.node('attribute', name.startIndex, value.endIndex, [name, value]));
      } else {
        const children = [name];
        while (this.code() !== 0x7b) {
          if (this.code() === 0x22) children.push(this.label());
          else children.push(this.identifier());
          this.skip(false);
        }
        this.pos++;
        this.skip(false);
        if (this.code() !== 0x7d && !this.atLineEnd()) throw new Unsupported();
        const inner = this.items(depth + 1);
        if (this.code() !== 0x7d) throw new Unsupported();
        this.pos++;
        if (inner.length > 0) children.push(this.node('body', inner[0].startIndex, inner.at(-1)!.endIndex, inner));
        items.push(this.node('block', name.startIndex, this.pos, children));
      }
      if (!this.atLineEnd()) throw new Unsupported();
    }
  }

  /** A block's quoted label: plain characters only. */
  private label(): HclSyntaxNode {
    const start = this.pos;
    const end = this.text.indexOf('"', start + 1);
    if (end === -1 || /[\\$%\n]/.test(this.text.slice(start + 1, end))) throw new Unsupported();
    this.pos = end + 1;
    return this.node('string_lit', start, this.pos);
  }

  /**
   * An attribute's, element's or item's value: a literal, template or collection as tree-sitter
   * types it, else (a reference, a call, an operation, a `for`) one opaque node over its characters.
   */
  private expression(context: Context, depth: number): HclSyntaxNode {
    if (depth > MAX_DEPTH) throw new Unsupported();
    const start = this.pos;
    const primary = this.primary(depth);
    if (primary) {
      const end = this.pos;
      if (this.ends(context)) {
        this.pos = end;
        return typeof primary === 'string' ? new ShortExpression(this.text, primary, start, end) : this.node('expression', start, end, [primary]);
      }
    }
    this.pos = start;
    const end = this.opaque(context, depth);
    if ((context === 'body' || context === 'object') && this.atLineEnd()) {
      this.skip(true);
      if (CONTINUATION.has(this.code())) throw new Unsupported();
    }
    this.pos = end;
    return this.node('expression', start, end, [this.node('opaque', start, end)]);
  }

  /** Whether what follows ends an expression in `context` (the position is left past blanks). */
  private ends(context: Context): boolean {
    if (context === 'tuple' || context === 'hole') {
      this.skip(true);
      const c = this.code();
      return c === 0x2c || (context === 'tuple' ? c === 0x5d : c === 0x7d);
    }
    if (this.atLineEnd()) {
      const save = this.pos;
      this.skip(true);
      const next = this.code();
      this.pos = save;
      if (CONTINUATION.has(next)) throw new Unsupported();
      return true;
    }
    const c = this.code();
    return context === 'object' && (c === 0x2c || c === 0x7d);
  }

  /** A literal's type (its characters up to the position), a template or collection, or undefined for anything else. */
  private primary(depth: number): HclSyntaxNode | LiteralType | undefined {
    const start = this.pos;
    const c = this.code();
    if (c === 0x22) return this.quoted();
    if (c === 0x3c && this.code(this.pos + 1) === 0x3c) return this.heredoc();
    if (isDigit(c)) {
      NUMBER.lastIndex = start;
      this.pos = start + NUMBER.exec(this.text)![0].length;
      // `1e2` (an exponent without a fraction), `1.`, `1x`: tree-sitter reads these its own way.
      if (isIdentifierPart(this.code()) || this.code() === 0x2e) throw new Unsupported();
      return 'numeric_lit';
    }
    if (isIdentifierStart(c)) {
      this.skipIdentifier();
      if (this.isWord(start, 'true') || this.isWord(start, 'false')) return 'bool_lit';
      if (this.isWord(start, 'null')) return 'null_lit';
      return undefined;
    }
    if (c === 0x5b) return this.tuple(depth);
    if (c === 0x7b) return this.object(depth);
    return undefined;
  }

  /** Whether the collection opening here is a `for` expression. */
  private isFor(): boolean {
    const save = this.pos;
    this.pos++;
    this.skip(true);
    const isFor = this.text.startsWith('for', this.pos) && !isIdentifierPart(this.code(this.pos + 3));
    this.pos = save;
    return isFor;
  }

  private tuple(depth: number): HclSyntaxNode | undefined {
    if (this.isFor()) return undefined;
    const start = this.pos++;
    const items: HclSyntaxNode[] = [];
    for (;;) {
      this.skip(true);
      if (this.code() === 0x5d) break;
      items.push(this.expression('tuple', depth + 1));
      this.skip(true);
      if (this.code() === 0x2c) this.pos++;
      else if (this.code() !== 0x5d) throw new Unsupported();
    }
    this.pos++;
    return this.node('collection_value', start, this.pos, [this.node('tuple', start, this.pos, items)]);
  }

  private object(depth: number): HclSyntaxNode | undefined {
    if (this.isFor()) return undefined;
    const start = this.pos++;
    const elements: HclSyntaxNode[] = [];
    for (;;) {
      this.skip(true);
      if (this.code() === 0x7d) break;
      const key = this.objectKey();
      this.skip(false);
      if (this.code() !== 0x3d || this.code(this.pos + 1) === 0x3d || this.code(this.pos + 1) === 0x3e) throw new Unsupported();
      this.pos++;
      this.skip(false);
      const value = this.expression('object', depth + 1);
      elements.push(this.node('object_elem', key.startIndex, value.endIndex, [key, value]));
      this.skip(false);
      if (this.code() === 0x2c) this.pos++;
      else if (this.code() !== 0x7d && !this.atLineEnd()) throw new Unsupported();
    }
    this.pos++;
    return this.node('collection_value', start, this.pos, [this.node('object', start, this.pos, elements)]);
  }

  /** `name` or `"name"`: nothing else (a keyword, a template, an expression in parentheses) is read here. */
  private objectKey(): HclSyntaxNode {
    const start = this.pos;
    if (this.code() === 0x22) {
      if (this.quoted() !== 'string_lit') throw new Unsupported();
      return new ShortExpression(this.text, 'string_lit', start, this.pos);
    }
    this.skipIdentifier();
    if (KEYWORDS.some((keyword) => this.isWord(start, keyword))) throw new Unsupported();
    return new ShortExpression(this.text, undefined, start, this.pos);
  }

  /** A quoted string: `string_lit` (its characters up to the position) without holes, `template_expr` > `quoted_template` with them. */
  private quoted(): HclSyntaxNode | 'string_lit' {
    const start = this.pos++;
    let holes: HclSyntaxNode[] | undefined;
    const text = this.text;
    for (;;) {
      const c = this.code();
      if (c === -1 || c === 0x0a || c === 0x0d) throw new Unsupported();
      if (c === 0x22) break;
      if (c === 0x5c) {
        const e = text[this.pos + 1];
        if (e === 'u' || e === 'U') {
          const digits = e === 'u' ? 4 : 8;
          if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(text.slice(this.pos + 2, this.pos + 2 + digits))) throw new Unsupported();
          this.pos += 2 + digits;
        } else if (e === 'n' || e === 'r' || e === 't' || e === '"' || e === '\\') this.pos += 2;
        else throw new Unsupported();
      } else if (c === 0x24 && this.code(this.pos + 1) === 0x24) this.pos += 2;
      else if (c === 0x24 && this.code(this.pos + 1) === 0x7b) (holes ??= []).push(this.hole());
      else this.pos++;
    }
    this.pos++;
    if (!holes) return 'string_lit';
    return this.node('template_expr', start, this.pos, [this.node('quoted_template', start, this.pos, holes)]);
  }

  /** `${…}`: its expression, read as an opaque one. */
  private hole(): HclSyntaxNode {
    const start = this.pos;
    this.pos += 2;
    this.skip(true);
    this.opaque('hole', 1);
    this.skip(true);
    if (this.code() !== 0x7d) throw new Unsupported();
    this.pos++;
    return this.node('template_interpolation', start, this.pos);
  }

  /** `<<EOT` or `<<-EOT`, its lines, and the marker alone on its line (indented or not). */
  private heredoc(): HclSyntaxNode {
    const start = this.pos;
    const indented = this.code(this.pos + 2) === 0x2d;
    this.pos += indented ? 3 : 2;
    const marker = this.identifier().text;
    if (this.code() === 0x0d) this.pos++;
    if (this.code() !== 0x0a) throw new Unsupported();
    this.pos++;
    const holes: HclSyntaxNode[] = [];
    for (;;) {
      if (this.pos >= this.text.length) throw new Unsupported();
      const lineEnd = this.text.indexOf('\n', this.pos);
      const line = this.text.slice(this.pos, lineEnd === -1 ? this.text.length : lineEnd).replace(/\r$/, '');
      if (line.trim() === marker && (indented || line.startsWith(marker))) {
        this.pos += line.length - line.trimStart().length + marker.length;
        break;
      }
      if (line.trimStart().startsWith(marker)) throw new Unsupported();
      const end = this.pos + line.length;
      while (this.pos < end) {
        const c = this.code();
        if (c === 0x24 && this.code(this.pos + 1) === 0x24) this.pos += 2;
        else if (c === 0x24 && this.code(this.pos + 1) === 0x7b) {
          holes.push(this.hole());
          if (this.pos > end) throw new Unsupported();
        } else this.pos++;
      }
      this.pos = lineEnd === -1 ? this.text.length : lineEnd + 1;
    }
    return this.node('template_expr', start, this.pos, [this.node('heredoc_template', start, this.pos, holes)]);
  }

  /** `[for k, v in x : v if c]` or `{for k, v in x : k => v... if c}`, each part read as an opaque expression. */
  private forExpression(depth: number): void {
    if (depth > MAX_DEPTH) throw new Unsupported();
    const close = this.text[this.pos] === '[' ? 0x5d : 0x7d;
    this.pos++;
    this.skip(true);
    this.pos += 3;
    this.skip(true);
    this.identifier();
    this.skip(true);
    if (this.code() === 0x2c) {
      this.pos++;
      this.skip(true);
      this.identifier();
      this.skip(true);
    }
    if (!this.text.startsWith('in', this.pos) || isIdentifierPart(this.code(this.pos + 2))) throw new Unsupported();
    this.pos += 2;
    this.part('for-in', depth, ':');
    if (close === 0x7d) this.part('for-key', depth, '=>');
    this.skip(true);
    this.opaque('for-value', depth);
    this.skip(true);
    if (close === 0x7d && this.text.startsWith('...', this.pos)) {
      this.pos += 3;
      this.skip(true);
    }
    if (this.text.startsWith('if', this.pos) && !isIdentifierPart(this.code(this.pos + 2))) {
      this.pos += 2;
      this.skip(true);
      this.opaque('for-if', depth);
      this.skip(true);
    }
    if (this.code() !== close) throw new Unsupported();
    this.pos++;
  }

  /** A part of a `for` expression and the token that ends it. */
  private part(context: ForContext, depth: number, end: string): void {
    this.skip(true);
    this.opaque(context, depth);
    this.skip(true);
    if (!this.text.startsWith(end, this.pos)) throw new Unsupported();
    this.pos += end.length;
  }

  /**
   * An expression read as a span: operands (names, numbers, strings, bracketed groups) and
   * operators in turn, brackets balanced; ends where `context` ends it. Returns the end of its
   * last character.
   */
  private opaque(context: Context, depth: number): number {
    let lastEnd = -1;
    let expectOperand = true;
    /** What the last token was: a name or number, a `,`, an opening bracket, a `.`. */
    let last: 'word' | 'comma' | 'open' | 'dot' | 'other' = 'other';
    /** Whether the last name followed a `.` (an attribute, which cannot be called). */
    let attribute = false;
    /** The open brackets: a call's (which takes commas), an index's or a parenthesis's. */
    const stack: { close: string; commas: boolean; questions: number }[] = [];
    /** The conditionals (`?`) still waiting for their `:`, outside brackets. */
    let questions = 0;
    const text = this.text;
    for (;;) {
      const c = this.code();
      const inside = stack.length > 0;
      if (c === -1) {
        if (inside) throw new Unsupported();
        break;
      }
      if (c === 0x20 || c === 0x09) {
        this.pos++;
        continue;
      }
      if (c === 0x0a || c === 0x0d) {
        if (!inside && (context === 'body' || context === 'object')) break;
        this.pos++;
        continue;
      }
      if (c === 0x23 || (c === 0x2f && (this.code(this.pos + 1) === 0x2f || this.code(this.pos + 1) === 0x2a))) {
        if (inside || (context !== 'body' && context !== 'object')) throw new Unsupported();
        break;
      }
      // After `.` only a name, an index's digits or a splat's `*` (`var.-x` is HCL's error).
      if (last === 'dot' && !isIdentifierStart(c) && !isDigit(c) && c !== 0x2a) throw new Unsupported();
      if (!inside && (c === 0x2c || c === 0x5d || c === 0x7d || c === 0x29)) break;
      const ch = text[this.pos];
      if (ch === '(' || ch === '[' || ch === '{') {
        // A tuple, an object or a `for` where an operand goes is read as one.
        if (expectOperand && ch !== '(') {
          if (this.isFor()) this.forExpression(depth + 1);
          else if (!(ch === '[' ? this.tuple(depth + 1) : this.object(depth + 1))) throw new Unsupported();
          lastEnd = this.pos;
          expectOperand = false;
          last = 'other';
          continue;
        }
        // `(` right after a name is a call, `[` after an operand an index; after an operator `(` opens a group.
        const call = ch === '(' && last === 'word' && !attribute && lastEnd === this.pos && isIdentifierStart(text.charCodeAt(this.wordStart));
        if (!expectOperand && (ch === '{' || (ch === '(' && !call))) throw new Unsupported();
        this.pos++;
        stack.push({ close: CLOSING[ch], commas: call, questions: 0 });
        expectOperand = true;
        last = 'open';
        if (stack.length + depth > MAX_DEPTH) throw new Unsupported();
        continue;
      }
      if (ch === ')' || ch === ']' || ch === '}') {
        const closed = stack.pop();
        if (closed?.close !== ch || closed.questions > 0) throw new Unsupported();
        // An empty group, or a list ending on a comma; not an operator left without its operand.
        if (expectOperand && last !== 'open' && !(last === 'comma' && ch !== ')')) throw new Unsupported();
        this.pos++;
        lastEnd = this.pos;
        expectOperand = false;
        last = 'other';
        continue;
      }
      if (ch === ',') {
        if (!inside || expectOperand || !stack.at(-1)!.commas) throw new Unsupported();
        this.pos++;
        expectOperand = true;
        last = 'comma';
        continue;
      }
      if (c === 0x22) {
        if (!expectOperand) throw new Unsupported();
        this.quoted();
        lastEnd = this.pos;
        expectOperand = false;
        last = 'other';
        continue;
      }
      if (isIdentifierStart(c) || isDigit(c)) {
        const start = this.pos;
        while (isIdentifierPart(this.code()) || (isDigit(c) && this.code() === 0x2e && isDigit(this.code(this.pos + 1)))) this.pos++;
        const word = text.slice(start, this.pos);
        if (isDigit(c) && !/^[0-9]+(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?)?$/.test(word)) throw new Unsupported();
        // `if` ends a `for`'s value.
        if (!inside && context === 'for-value' && word === 'if' && !expectOperand) {
          this.pos = start;
          break;
        }
        // Two operands in a row are a syntax error.
        if (!expectOperand) throw new Unsupported();
        this.wordStart = start;
        attribute = last === 'dot';
        lastEnd = this.pos;
        expectOperand = false;
        last = 'word';
        continue;
      }
      if (c === 0x3c && this.code(this.pos + 1) === 0x3c) throw new Unsupported();
      if (OPERATOR.has(c)) {
        OPERATOR_TOKEN.lastIndex = this.pos;
        const op = OPERATOR_TOKEN.exec(text)?.[0];
        if (!op) throw new Unsupported();
        if (!inside && !expectOperand && ((context === 'for-in' && op === ':' && questions === 0) || (context === 'for-key' && op === '=>') || (context === 'for-value' && op === '.' && text.startsWith('...', this.pos)))) break;
        const splat = op === '*' && (last === 'dot' || (last === 'open' && stack.at(-1)?.close === ']' && this.text[this.pos - 1] === '['));
        this.pos += op.length;
        last = op === '.' ? 'dot' : 'other';
        if (splat) {
          // A splat: `a.*.b`, `a[*]`.
          lastEnd = this.pos;
          expectOperand = false;
        } else if (expectOperand) {
          // Only a unary operator stands before an operand.
          if (op !== '-' && op !== '!') throw new Unsupported();
        } else {
          // A lone `=` belongs to an object, read above; anywhere else it is a mistake. A `:` ends a
          // conditional's `?` (or a `for`'s head); `=>` stands in a `for`.
          const level = stack.at(-1);
          if (op === '=' || op === '!') throw new Unsupported();
          if (op === '=>') throw new Unsupported();
          if (op === '?') {
            if (level) level.questions++;
            else questions++;
          }
          if (op === ':') {
            if (level && level.questions > 0) level.questions--;
            else if (!level && questions > 0) questions--;
            else throw new Unsupported();
          }
          expectOperand = true;
        }
        continue;
      }
      throw new Unsupported();
    }
    if (lastEnd === -1 || expectOperand || questions > 0) throw new Unsupported();
    this.pos = lastEnd;
    return lastEnd;
  }
}
