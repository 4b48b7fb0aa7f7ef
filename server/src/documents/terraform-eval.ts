/**
 * An evaluator of Terraform's expression language over tree-sitter-hcl's nodes, for the values a
 * module knows in itself: literals, templates (`${…}`, `%{if}`, `%{for}`, heredocs), `var.*`,
 * `local.*`, `each.*`, `count.index`, a `dynamic` block's iterator, `for` expressions, operators,
 * conditionals, attribute and index access, splats, and the functions rule files use
 * (terraform-functions.ts). Semantics as hashicorp/hcl's hclsyntax (expression.go,
 * expression_template.go) and go-cty's stdlib, read in opentofu/opentofu and zclconf/go-cty.
 *
 * What cannot be known (a resource's attribute, a data source, a variable without a value, a
 * function not here) is `unknown`, and unknown is contagious; nothing is guessed and nothing is
 * an error to the user. The work is bounded (depth, steps, sizes): past the bounds, unknown.
 */
import { decodeHclTemplate, type Range } from './host/index';
import type { HclNode } from './host/index';
import { callFunction, stringOf } from './terraform-functions';
import {
  bool,
  computed,
  concatStrings,
  ERROR,
  isUnsure,
  MAX_STRING,
  TooLarge,
  list,
  NULL,
  num,
  numberText,
  object,
  produced,
  sliceString,
  through,
  UNKNOWN,
  valuesEqual,
  written,
  type EvalFile,
  type ListValue,
  type ObjectValue,
  type Place,
  type StringValue,
  type Value,
} from './terraform-values';

export type { EvalFile } from './terraform-values';

/** What an expression's names mean where it is (`each`, `count`, a `for`'s or a `dynamic` block's names). */
export interface Scope {
  readonly file: EvalFile;
  readonly names: ReadonlyMap<string, Value>;
}

/** What the evaluator asks of the module it evaluates in. */
export interface ModuleContext {
  variable(name: string): Value;
  local(name: string): Value;
  /** A file relative to the module's folder (`file`, `templatefile`), with its name as pieces give it. */
  readFile(path: string): EvalFile | undefined;
  /** Parses a template file's text into a template node (templatefile); the caller deletes nothing. */
  parseTemplate?(text: string): { node: HclNode; text: string; offset: number; release(): void } | undefined;
}

/** The bounds of one module's evaluation, shared by every expression in it. */
export class Budget {
  steps = 0;
  constructor(readonly maxSteps = 100_000) {}
  spend(): boolean {
    return ++this.steps <= this.maxSteps;
  }
}

export const MAX_DEPTH = 64;
export const MAX_ITEMS = 10_000;

export class Evaluator {
  constructor(
    readonly context: ModuleContext,
    readonly budget: Budget,
  ) {}

  /** The value of an `expression` node (or any expression-like node). */
  evaluate(node: HclNode | null | undefined, scope: Scope, depth = 0): Value {
    if (depth === 0) {
      // The outermost call: a value grown past the bounds anywhere in it is unknown.
      try {
        return this.evaluate(node, scope, 1);
      } catch (error) {
        if (error instanceof TooLarge) return UNKNOWN;
        throw error;
      }
    }
    if (!node || node.hasError || depth > MAX_DEPTH || !this.budget.spend()) return UNKNOWN;
    if (node.type !== 'expression') return this.primary(node, scope, depth);
    const children = node.namedChildren.filter((c): c is HclNode => c !== null && c.type !== 'comment');
    if (children.length === 0) return UNKNOWN;
    let value = this.primary(children[0], scope, depth + 1);
    for (let i = 1; i < children.length; i++) value = this.postfix(value, children[i], scope, depth + 1);
    return value;
  }

  private place(node: HclNode, scope: Scope): Place {
    return { file: scope.file.path, start: node.startIndex, end: node.endIndex };
  }

  private primary(node: HclNode, scope: Scope, depth: number): Value {
    switch (node.type) {
      case 'expression':
        return this.evaluate(node, scope, depth);
      case 'literal_value':
        return this.literal(node.namedChildren[0], scope);
      case 'template_expr':
        return this.template(node.namedChildren[0], scope, depth);
      case 'collection_value':
        return this.collection(node.namedChildren[0], scope, depth);
      case 'variable_expr':
        return this.variable(node, scope);
      case 'function_call':
        return this.call(node, scope, depth);
      case 'for_expr':
        return this.forExpression(node.namedChildren[0], scope, depth);
      case 'conditional':
        return this.conditional(node, scope, depth);
      case 'operation':
        return this.operation(node.namedChildren[0], scope, depth);
      default:
        return UNKNOWN;
    }
  }

  private literal(node: HclNode | null | undefined, scope: Scope): Value {
    switch (node?.type) {
      case 'numeric_lit':
        return num(scope.file.numbers?.get(node.startIndex) ?? Number(node.text));
      case 'bool_lit':
        return bool(node.text === 'true');
      case 'null_lit':
        return NULL;
      case 'string_lit':
        return this.template(node, scope, 0);
      default:
        return UNKNOWN;
    }
  }

  /** A bare name: `var`, `local`, `each`, … are read by the traversal after them (postfix). */
  private variable(node: HclNode, scope: Scope): Value {
    const name = node.text;
    const bound = scope.names.get(name);
    if (bound) return bound;
    return ROOTS.has(name) ? { kind: 'object', entries: new Map(), [ROOT]: name } as RootValue : UNKNOWN;
  }

  private postfix(value: Value, node: HclNode, scope: Scope, depth: number): Value {
    switch (node.type) {
      case 'get_attr': {
        const name = node.namedChildren.find((c) => c?.type === 'identifier')?.text;
        return name === undefined ? UNKNOWN : this.attribute(value, name);
      }
      case 'index': {
        const inner = node.namedChildren[0];
        if (inner?.type === 'legacy_index') {
          const digits = /^\.(\d+)$/.exec(inner.text.trim());
          return digits ? this.index(value, num(Number(digits[1]))) : UNKNOWN;
        }
        const key = this.evaluate(inner?.namedChildren.find((c) => c?.type === 'expression'), scope, depth + 1);
        return this.index(value, key);
      }
      case 'splat': {
        const splat = node.namedChildren[0];
        if (!splat) return UNKNOWN;
        if (isUnsure(value) || isRoot(value)) return UNKNOWN;
        const items = value.kind === 'null' ? [] : value.kind === 'list' ? value.items : [value];
        const steps = splat.namedChildren.filter((c): c is HclNode => c !== null && (c.type === 'get_attr' || c.type === 'index'));
        const results = items.map((item) => steps.reduce((v, step) => this.postfix(v, step, scope, depth + 1), item));
        // `x.*` on a value that is not a list gives a one-item tuple (hclsyntax SplatExpr).
        return list(results);
      }
      default:
        return UNKNOWN;
    }
  }

  /** `value.name`: a module's `var.x` and `local.x`, an object's attribute. */
  private attribute(value: Value, name: string): Value {
    if (isRoot(value)) {
      switch (value[ROOT]) {
        case 'var':
          return this.context.variable(name);
        case 'local':
          return this.context.local(name);
        case 'path':
          return name === 'module' || name === 'root' ? { kind: 'string', value: '.', pieces: [] } : UNKNOWN;
        default:
          return UNKNOWN;
      }
    }
    if (isUnsure(value)) return value;
    if (value.kind === 'object') return value.entries.get(name) ?? (value.open ? UNKNOWN : ERROR);
    return ERROR;
  }

  private index(value: Value, key: Value): Value {
    if (isRoot(value)) return key.kind === 'string' ? this.attribute(value, key.value) : UNKNOWN;
    if (isUnsure(value)) return value;
    if (isUnsure(key)) return UNKNOWN;
    if (value.kind === 'list') {
      // Sets cannot be indexed.
      if (value.set) return ERROR;
      const i = key.kind === 'number' ? key.value : key.kind === 'string' && /^-?\d+$/.test(key.value) ? Number(key.value) : NaN;
      if (!Number.isInteger(i)) return ERROR;
      return value.items[i] ?? ERROR;
    }
    if (value.kind === 'object') {
      const name = stringOf(key);
      if (name === undefined) return ERROR;
      return value.entries.get(name) ?? (value.open ? UNKNOWN : ERROR);
    }
    return ERROR;
  }

  private collection(node: HclNode | null | undefined, scope: Scope, depth: number): Value {
    if (!node) return UNKNOWN;
    if (node.type === 'tuple') {
      const items: Value[] = [];
      for (const child of node.namedChildren) {
        if (child?.type !== 'expression') continue;
        if (items.length >= MAX_ITEMS) return UNKNOWN;
        items.push(this.evaluate(child, scope, depth + 1));
      }
      return list(items);
    }
    if (node.type !== 'object') return UNKNOWN;
    const entries: [string, Value][] = [];
    for (const element of node.namedChildren) {
      if (element?.type !== 'object_elem') continue;
      const keyNode = element.namedChildren[0];
      const key = this.objectKey(keyNode, scope, depth);
      if (key === undefined) return UNKNOWN;
      const value = this.evaluate(element.namedChildren.filter((c) => c?.type === 'expression')[1], scope, depth + 1);
      // A key given twice is an error to Terraform.
      if (entries.some(([k]) => k === key)) return ERROR;
      entries.push([key, value]);
    }
    return object(entries);
  }

  /** An object's key: a bare name is itself; anything else is evaluated, as HCL does. */
  private objectKey(node: HclNode | null | undefined, scope: Scope, depth: number): string | undefined {
    if (node?.type !== 'expression') return undefined;
    const only = node.namedChildren.length === 1 ? node.namedChildren[0] : undefined;
    if (only?.type === 'variable_expr') return only.text;
    const key = this.evaluate(node, scope, depth + 1);
    return stringOf(key);
  }

  private conditional(node: HclNode, scope: Scope, depth: number): Value {
    const [condition, whenTrue, whenFalse] = node.namedChildren.filter((c): c is HclNode => c?.type === 'expression');
    const test = toBool(this.evaluate(condition, scope, depth + 1));
    if (test === undefined) return UNKNOWN;
    return this.evaluate(test ? whenTrue : whenFalse, scope, depth + 1);
  }

  private operation(node: HclNode | null | undefined, scope: Scope, depth: number): Value {
    if (!node) return UNKNOWN;
    const isParenthesis = (type: string) => type === '(' || type === ')';
    const operator = node.children.find((c) => c !== null && !c.isNamed && !isParenthesis(c.type))?.type;
    // tree-sitter-hcl writes an operand as its primary followed by its traversals (`var.a[0]`
    // is variable_expr, get_attr, index): each operand is read up to the operator.
    const sides: HclNode[][] = [[]];
    for (const child of node.children) {
      if (!child || child.type === 'comment' || isParenthesis(child.type)) continue;
      if (!child.isNamed) {
        if (sides[sides.length - 1].length > 0) sides.push([]);
        continue;
      }
      sides[sides.length - 1].push(child);
    }
    const operand = (nodes: readonly HclNode[] | undefined): Value => {
      if (!nodes || nodes.length === 0) return UNKNOWN;
      let value = this.primary(nodes[0], scope, depth + 1);
      for (let i = 1; i < nodes.length; i++) value = this.postfix(value, nodes[i], scope, depth + 1);
      return value;
    };
    if (node.type === 'unary_operation') {
      const operand0 = operand(sides[0]);
      if (isUnsure(operand0)) return operand0.kind === 'error' ? ERROR : UNKNOWN;
      if (operator === '!') {
        const b = toBool(operand0);
        return b === undefined ? UNKNOWN : bool(!b);
      }
      if (operator === '-') {
        const n = toNumber(operand0);
        return n === undefined ? UNKNOWN : num(-n);
      }
      return UNKNOWN;
    }
    if (sides.length !== 2) return UNKNOWN;
    const left = operand(sides[0]);
    const right = operand(sides[1]);
    if (left.kind === 'error' || right.kind === 'error') return ERROR;
    if (isUnsure(left) || isUnsure(right)) return UNKNOWN;
    switch (operator) {
      case '==':
      case '!=': {
        const equal = valuesEqual(left, right);
        return equal === undefined ? UNKNOWN : bool(operator === '==' ? equal : !equal);
      }
      case '&&':
      case '||': {
        const a = toBool(left);
        const b = toBool(right);
        if (a === undefined || b === undefined) return UNKNOWN;
        return bool(operator === '&&' ? a && b : a || b);
      }
    }
    const a = toNumber(left);
    const b = toNumber(right);
    if (a === undefined || b === undefined) return UNKNOWN;
    switch (operator) {
      case '+':
        return computed(a + b);
      case '-':
        return computed(a - b);
      case '*':
        return computed(a * b);
      case '/':
        return b === 0 ? ERROR : computed(a / b);
      case '%':
        // cty's Modulo: the sign of the dividend, as Go's math.Mod.
        return b === 0 ? ERROR : num(a % b);
      case '<':
        return bool(a < b);
      case '>':
        return bool(a > b);
      case '<=':
        return bool(a <= b);
      case '>=':
        return bool(a >= b);
      default:
        return UNKNOWN;
    }
  }

  private call(node: HclNode, scope: Scope, depth: number): Value {
    const name = node.namedChildren[0]?.text ?? '';
    const argumentsNode = node.namedChildren.find((c) => c?.type === 'function_arguments');
    const argumentNodes = argumentsNode?.namedChildren.filter((c): c is HclNode => c?.type === 'expression') ?? [];
    const expand = argumentsNode?.namedChildren.some((c) => c?.type === 'ellipsis') === true;
    if (name === 'try' || name === 'can') {
      if (expand) return UNKNOWN;
      for (const argument of argumentNodes) {
        const value = this.evaluate(argument, scope, depth + 1);
        if (value.kind === 'error') {
          if (name === 'can') return bool(false);
          continue;
        }
        // An unknown may be an error Terraform finds: what try gives is not known.
        if (value.kind === 'unknown') return UNKNOWN;
        return name === 'can' ? bool(true) : value;
      }
      return name === 'can' ? UNKNOWN : ERROR;
    }
    let args = argumentNodes.map((a) => this.evaluate(a, scope, depth + 1));
    if (expand) {
      const last = args.at(-1);
      if (!last || last.kind !== 'list') return UNKNOWN;
      args = [...args.slice(0, -1), ...last.items];
    }
    if (name === 'templatefile') return this.templateFile(args, this.place(node, scope), depth);
    return callFunction(name, args, this.place(node, scope), this.context);
  }

  private templateFile(args: readonly Value[], place: Place, depth: number): Value {
    if (args.length !== 2) return UNKNOWN;
    const [path, vars] = args;
    if (path.kind !== 'string' || vars.kind !== 'object' || !this.context.parseTemplate) return UNKNOWN;
    const file = this.context.readFile(path.value);
    if (!file) return UNKNOWN;
    const parsed = this.context.parseTemplate(file.text);
    if (!parsed) return UNKNOWN;
    try {
      const names = new Map(vars.entries);
      const value = this.template(parsed.node, { file: { path: file.path, text: parsed.text }, names }, depth + 1);
      if (value.kind !== 'string') return value;
      // The line break the wrapping added taken off; the template file is no document of its
      // own, so what it writes maps to the call.
      const content = value.value.endsWith('\n') ? sliceString(value, 0, value.value.length - 1) : value;
      return { ...content, pieces: content.pieces.map((p) => (p.file === file.path ? { file: place.file, starts: p.starts.map(() => place.start), ends: p.ends.map(() => place.end), produced: true } : p)) };
    } finally {
      parsed.release();
    }
  }

  private forExpression(node: HclNode | null | undefined, scope: Scope, depth: number): Value {
    if (!node) return UNKNOWN;
    const intro = node.namedChildren.find((c) => c?.type === 'for_intro');
    const condition = node.namedChildren.find((c) => c?.type === 'for_cond')?.namedChildren.find((c) => c?.type === 'expression');
    if (!intro) return UNKNOWN;
    const names = intro.namedChildren.filter((c): c is HclNode => c?.type === 'identifier').map((c) => c.text);
    const collection = this.evaluate(intro.namedChildren.find((c) => c?.type === 'expression'), scope, depth + 1);
    const pairs = iterate(collection);
    if (!pairs) return collection.kind === 'error' ? ERROR : UNKNOWN;
    const bodies = node.namedChildren.filter((c): c is HclNode => c?.type === 'expression');
    const grouping = node.namedChildren.some((c) => c?.type === 'ellipsis');
    const isObject = node.type === 'for_object_expr';
    const items: Value[] = [];
    const groups = new Map<string, Value[]>();
    const entries = new Map<string, Value>();
    for (const [key, value] of pairs) {
      const inner: Scope = { file: scope.file, names: bindIteration(scope, names, key, value) };
      if (condition) {
        const keep = toBool(this.evaluate(condition, inner, depth + 1));
        if (keep === undefined) return UNKNOWN;
        if (!keep) continue;
      }
      if (!isObject) {
        items.push(this.evaluate(bodies[0], inner, depth + 1));
        continue;
      }
      const k = this.evaluate(bodies[0], inner, depth + 1);
      const name = stringOf(k);
      if (name === undefined) return isUnsure(k) ? UNKNOWN : ERROR;
      const v = this.evaluate(bodies[1], inner, depth + 1);
      if (grouping) groups.set(name, [...(groups.get(name) ?? []), v]);
      else if (entries.has(name)) return ERROR;
      else entries.set(name, v);
    }
    if (!isObject) return list(items);
    return object(grouping ? [...groups].map(([k, v]) => [k, list(v)] as const) : entries);
  }

  /**
   * A quoted string or heredoc. Its literal parts are decoded once (decode-hcl.ts), with every
   * `${…}` and every directive's marker (`%{if …}`, `%{else}`, `%{endif}`, `%{for …}`,
   * `%{endfor}`) as a hole; the parts between the holes keep where their characters are.
   */
  template(node: HclNode | null | undefined, scope: Scope, depth: number): Value {
    if (!node || node.hasError) return UNKNOWN;
    const holes: { node: HclNode; kind: string; stripBefore: boolean; stripAfter: boolean }[] = [];
    const hole = (child: HclNode, kind: string) => {
      const markers = child.namedChildren.filter((c) => c?.type === 'strip_marker');
      // `${~` / `%{~` strip before the hole, `~}` after it.
      holes.push({ node: child, kind, stripBefore: markers.some((m) => m!.startIndex <= child.startIndex + 2), stripAfter: markers.some((m) => m!.endIndex >= child.endIndex - 1) });
    };
    let tooDeep = false;
    const collect = (parent: HclNode, level: number) => {
      // Directives nested past the bounds (thousands of `%{if}` in one another): not followed, and no stack spent on them.
      if (level > MAX_DEPTH) {
        tooDeep = true;
        return;
      }
      for (const child of parent.namedChildren) {
        if (!child) continue;
        switch (child.type) {
          case 'template_interpolation':
            hole(child, 'interpolation');
            break;
          case 'template_directive':
          case 'template_if':
          case 'template_for':
            collect(child, level + 1);
            break;
          case 'template_if_intro':
          case 'template_else_intro':
          case 'template_if_end':
          case 'template_for_start':
          case 'template_for_end':
            hole(child, child.type);
            break;
        }
      }
    };
    collect(node, 0);
    if (tooDeep) return UNKNOWN;
    const ranges: Range[] = holes.map((h) => ({ start: h.node.startIndex, end: h.node.endIndex }));
    const heredoc = node.type === 'heredoc_template';
    const decoded = decodeHclTemplate(scope.file.text, node.startIndex, node.endIndex, ranges, new Set(holes.filter((h) => h.stripBefore).map((h) => h.node.startIndex)));
    if (!decoded) return UNKNOWN;
    const decodedText = decoded.decoded.value;
    const source = scope.file.text;
    // HCL's scanner cuts a template's literal text into tokens before each `$` and `%` and after
    // it, and in a heredoc after each line break; a strip marker trims the one token beside it
    // (hclsyntax parser_template.go parseTemplateParts, scan_tokens.rl).
    const boundary = (k: number) => {
      const here = source[decoded.decoded.starts[k]];
      const before = source[decoded.decoded.starts[k - 1]];
      return here === '$' || here === '%' || before === '$' || before === '%' || (heredoc && decodedText[k - 1] === '\n');
    };
    const literal = (i: number): StringValue => {
      let from = i === 0 ? 0 : decoded.holes[i - 1].end;
      let to = i < decoded.holes.length ? decoded.holes[i].start : decodedText.length;
      if (i > 0 && holes[i - 1].stripAfter) {
        let tokenEnd = from + 1;
        while (tokenEnd < to && !boundary(tokenEnd)) tokenEnd++;
        while (from < Math.min(tokenEnd, to) && GO_SPACE.test(decodedText[from])) from++;
      }
      if (i < holes.length && holes[i].stripBefore && to > from) {
        let tokenStart = to - 1;
        while (tokenStart > from && !boundary(tokenStart)) tokenStart--;
        while (to > tokenStart && GO_SPACE.test(decodedText[to - 1])) to--;
      }
      const text = written(decodedText.slice(from, to), scope.file.path, decoded.decoded.starts, decoded.decoded.ends, from);
      return heredoc ? { ...text, pieces: text.pieces.map((p) => ({ ...p, heredoc })) } : text;
    };
    if (holes.length === 0) return literal(0);
    // A template that is one interpolation alone is its value, of whatever type (hclsyntax TemplateWrapExpr).
    if (holes.length === 1 && holes[0].kind === 'interpolation' && decoded.holes[0].start === 0 && decoded.holes[0].end === decodedText.length) {
      return this.evaluate(holes[0].node.namedChildren.find((c) => c?.type === 'expression'), scope, depth + 1);
    }
    const parts: StringValue[] = [];
    const result = this.templateParts(holes, literal, 0, holes.length, scope, depth, parts);
    if (result !== undefined) return result;
    const value = concatStrings(parts);
    return value.value.length > MAX_STRING ? UNKNOWN : value;
  }

  /**
   * Appends to `parts` the template's text from hole `from` to hole `to` (exclusive, with the
   * literal before `from`'s… after each hole); a value returned instead is the template's
   * (unknown, an error).
   */
  private templateParts(
    holes: readonly { node: HclNode; kind: string }[],
    literal: (i: number) => StringValue,
    from: number,
    to: number,
    scope: Scope,
    depth: number,
    parts: StringValue[],
  ): Value | undefined {
    // The literal before hole `from` belongs to the caller when from > 0 … so literal(i+1) after each hole.
    if (from === 0) parts.push(literal(0));
    let i = from;
    while (i < to) {
      if (!this.budget.spend()) return UNKNOWN;
      const hole = holes[i];
      if (hole.kind === 'interpolation') {
        const value = this.evaluate(hole.node.namedChildren.find((c) => c?.type === 'expression'), scope, depth + 1);
        const text = templateString(value, { file: scope.file.path, start: hole.node.startIndex, end: hole.node.endIndex });
        if (text.kind !== 'string') return text;
        parts.push(through(text, { file: scope.file.path, start: hole.node.startIndex, end: hole.node.endIndex }));
        parts.push(literal(i + 1));
        i++;
        continue;
      }
      if (hole.kind === 'template_if_intro') {
        const end = matching(holes, i, 'template_if_intro', 'template_if_end', to);
        if (end < 0) return UNKNOWN;
        const elseAt = findAtLevel(holes, i, end, 'template_else_intro');
        const test = toBool(this.evaluate(hole.node.namedChildren.find((c) => c?.type === 'expression'), scope, depth + 1));
        if (test === undefined) return UNKNOWN;
        if (test) {
          parts.push(literal(i + 1));
          const r = this.templateParts(holes, literal, i + 1, elseAt >= 0 ? elseAt : end, scope, depth + 1, parts);
          if (r !== undefined) return r;
        } else if (elseAt >= 0) {
          parts.push(literal(elseAt + 1));
          const r = this.templateParts(holes, literal, elseAt + 1, end, scope, depth + 1, parts);
          if (r !== undefined) return r;
        }
        parts.push(literal(end + 1));
        i = end + 1;
        continue;
      }
      if (hole.kind === 'template_for_start') {
        const end = matching(holes, i, 'template_for_start', 'template_for_end', to);
        if (end < 0) return UNKNOWN;
        const names = hole.node.namedChildren.filter((c): c is HclNode => c?.type === 'identifier').map((c) => c.text);
        const collection = this.evaluate(hole.node.namedChildren.find((c) => c?.type === 'expression'), scope, depth + 1);
        const pairs = iterate(collection);
        if (!pairs) return collection.kind === 'error' ? ERROR : UNKNOWN;
        for (const [key, value] of pairs) {
          parts.push(literal(i + 1));
          const r = this.templateParts(holes, literal, i + 1, end, { file: scope.file, names: bindIteration(scope, names, key, value) }, depth + 1, parts);
          if (r !== undefined) return r;
        }
        parts.push(literal(end + 1));
        i = end + 1;
        continue;
      }
      return UNKNOWN;
    }
    return undefined;
  }
}

/** Go's unicode.IsSpace, with which HCL trims beside a strip marker. */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

const ROOT = Symbol('root');
/** `var`, `local`, `path`, … before their attribute is read. */
type RootValue = ObjectValue & { readonly [ROOT]: string };
const ROOTS = new Set(['var', 'local', 'path']);

function isRoot(value: Value): value is RootValue {
  return value.kind === 'object' && ROOT in value;
}

/** The closing hole of the opener at `at`, nested ones skipped; -1 when there is none before `to`. */
function matching(holes: readonly { kind: string }[], at: number, open: string, close: string, to: number): number {
  let level = 0;
  const other = open === 'template_if_intro' ? ['template_for_start', 'template_for_end'] : ['template_if_intro', 'template_if_end'];
  let otherLevel = 0;
  for (let i = at; i < to; i++) {
    const kind = holes[i].kind;
    if (kind === other[0]) otherLevel++;
    else if (kind === other[1]) otherLevel--;
    else if (kind === open) level++;
    else if (kind === close && --level === 0 && otherLevel === 0) return i;
  }
  return -1;
}

/** An `%{else}` of the `%{if}` at `at` (not of one nested in it). */
function findAtLevel(holes: readonly { kind: string }[], at: number, end: number, kind: string): number {
  let level = 0;
  for (let i = at + 1; i < end; i++) {
    const k = holes[i].kind;
    if (k === 'template_if_intro' || k === 'template_for_start') level++;
    else if (k === 'template_if_end' || k === 'template_for_end') level--;
    else if (k === kind && level === 0) return i;
  }
  return -1;
}

/** A value in a template: a string, or a number or bool turned to one; anything else Terraform refuses. */
function templateString(value: Value, place: Place): Value {
  switch (value.kind) {
    case 'string':
      return value;
    case 'number': {
      const text = numberText(value.value);
      return text === undefined ? UNKNOWN : produced(text, place);
    }
    case 'bool':
      return produced(String(value.value), place);
    case 'unknown':
      return UNKNOWN;
    default:
      return ERROR;
  }
}

/** What a `for` or `for_each` walks: a list's (index, item), a set's (item, item), a map's (key, value) in key order. */
/** The names of a scope with a `for`'s one or two names (`for v in …`, `for k, v in …`) bound to an item. */
function bindIteration(scope: Scope, names: readonly string[], key: Value, value: Value): Map<string, Value> {
  const bound = new Map(scope.names);
  if (names.length === 2) {
    bound.set(names[0], key);
    bound.set(names[1], value);
  } else bound.set(names[0], value);
  return bound;
}

export function iterate(collection: Value): [Value, Value][] | undefined {
  if (collection.kind === 'list') {
    if (collection.items.length > MAX_ITEMS) return undefined;
    return collection.items.map((item, i) => [collection.set ? item : num(i), item]);
  }
  if (collection.kind === 'object') {
    if (collection.entries.size > MAX_ITEMS) return undefined;
    return [...collection.entries].map(([k, v]) => [{ kind: 'string', value: k, pieces: [] } as StringValue, v]);
  }
  return undefined;
}

/** A bool, or a string Terraform converts to one. */
export function toBool(value: Value): boolean | undefined {
  if (value.kind === 'bool') return value.value;
  // go-cty's conversion of a string to bool: "true" and "1", "false" and "0".
  if (value.kind === 'string' && (value.value === 'true' || value.value === 'false' || value.value === '1' || value.value === '0')) return value.value === 'true' || value.value === '1';
  return undefined;
}

/** A number, or a string Terraform converts to one. */
export function toNumber(value: Value): number | undefined {
  if (value.kind === 'number') return value.value;
  if (value.kind === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value.value)) return Number(value.value);
  return undefined;
}

export type { ListValue, ObjectValue, StringValue, Value };
