import { analyzeInto, type Forms } from './analyses';
import type { Argument, Comparison, ComparisonOperator, Expression, FieldReference, FunctionCall, IndexedOperand, IndexStep, Literal, Operand, QuantifierExpression, ScalarType, Span, Value, ValueType } from './ast';
import { isExpression, isOperand } from './ast';
import { atomsOf } from './atoms';
import { catalogueFor, isNameOfSomePhase, OPERATOR_PLANS, type Catalogue, type ExpressionKind, type FieldInfo, type FunctionInfo, type ParameterInfo, type PhaseFamily } from './catalogue/catalogues';
import { FUNCTIONS as PACKET_FUNCTIONS } from './catalogue/functions';
import { COMPARISON_OPERATORS, OPERATORS_BY_TYPE, ORDERING_OPERATORS, WHOLE_VALUE_OPERATORS } from './catalogue/operators';
import { HTTP_MANAGED_LISTS, isWellFormedListName, LIST_KIND_INFO, LIST_KINDS, managedListsOf, MANAGED_LISTS, type ListKind } from './catalogue/lists';
import { fieldAddon, PLAN_GATES } from './catalogue/plan-quotas';
import { addonName, describePlan, planIncludes, planName, type Addon, type Plan } from './catalogue/plans';
import { IP_PROTOCOL_ALIASES, IP_PROTOCOLS } from './catalogue/protocols';
import { isKeyword, scanTokens } from './lex';
import { BOOLEAN_ARRAY, callResult, literalType, parseOptionsFor } from './operand-types';
import { MAX_NESTING_DEPTH, nestingTooDeep, parseExpression, parseValueExpression } from './parser';
import { mayHoldOpeners } from './scan';
import { regexProblem } from './patterns';
import { hasError, problem, replaceFix, type Fix, type Problem } from './problem';
import { closestMatches, quoteAlternatives } from './suggest';
// Lints (lints.ts): one call, after the checker's pass.
import { lint } from './lints';
import { describeValueType, elementType, isArrayType, isMapType, isScalarType } from './types';

export type { ListKind } from './catalogue/lists';

export interface CheckOptions {
  /** The ruleset's phase: which fields and functions exist (catalogueFor), and what is checked. */
  readonly phase?: string;
  /**
   * Names of the account's own lists (without `$`). When given, other names are reported;
   * when not, any well-formed account list name is accepted.
   */
  readonly knownLists?: readonly string[];
  /**
   * What the account's lists hold, by name (without `$`), where the configuration says
   * (`.rulesets.yaml` `lists: {office_networks: ip}`): a list after a field its kind does not
   * fit is then an error rather than a warning (LANGUAGE.md §6).
   */
  readonly listKinds?: Readonly<Record<string, ListKind>>;
  /** The account's plan: what needs a higher plan is reported. Undefined: no plan is assumed. */
  readonly plan?: Plan;
  /**
   * The account's paid add-ons (`.rulesets.yaml` `addons`), with `plan`: a field an add-on gives
   * (Bot Management's) is reported when its add-on is not here. Undefined: not said, so nothing
   * that needs an add-on is reported.
   */
  readonly addons?: readonly Addon[];
  /**
   * The lints that are off by default (PROBLEM_CODES' `off`) to look for: the codes the project
   * configuration's `rules` turns on (lints.ts, LintOptions.lints).
   */
  readonly lints?: readonly string[];
}

export interface CheckResult {
  readonly ast?: Expression;
  /**
   * The text the tree was read from, whose spans it indexes: passes over the tree (the ruleset's
   * analyses) use this string and not the caller's, which may be a view of a whole document.
   */
  readonly text: string;
  /** Sorted by position. */
  readonly problems: readonly Problem[];
  /**
   * The static analyses' forms of the tree's nodes, when they ran (the expression has no
   * errors): the ruleset's analyses reuse them rather than compute them again.
   */
  readonly forms?: Forms;
}

/** Parses and checks one expression: every problem the service would reject, and more. */
export function checkExpression(text: string, options: CheckOptions = {}): CheckResult {
  const source = withoutEdgeWhitespace(text);
  const catalogue = catalogueFor(options.phase);
  const parseOptions = parseOptionsFor(catalogue);
  let parsed = parseExpression(source, parseOptions);
  // Calls and index expressions on the right of a comparison do not parse (the grammar reads
  // values there), and a field whose name the value reader stops in: each is reported as what
  // it is, and the rest is read with a placeholder in its place, the same length, so that every
  // other mistake is found too. Such a tree is not the source's, so it is not handed on.
  let placeholders: Problem[] | undefined;
  if (!parsed.ast && catalogue.family !== 'magic') {
    let patched = source;
    for (let i = 0; i < MAX_RIGHT_OPERANDS && !parsed.ast; i++) {
      const syntax = parsed.problems.find((p) => p.code === 'syntax-error');
      const right = syntax && operandOnTheRight(patched, syntax);
      if (!right || right.span.end - right.span.start < 2) break;
      (placeholders ??= []).push(right);
      // A string: it reads after every operator, and ends where the operand did (`x[0]and y`).
      patched = `${patched.slice(0, right.span.start)}"${'x'.repeat(right.span.end - right.span.start - 2)}"${patched.slice(right.span.end)}`;
      parsed = parseExpression(patched, parseOptions);
    }
  }
  // A spaced range always leaves a problem on its `-`: most expressions have none, and no walk.
  const problems = parsed.ast && parsed.problems.length > 0 ? joinSpacedRanges(source, parsed.ast, parsed.problems) : parsed.problems.slice();
  if (placeholders) problems.push(...placeholders);
  if (parsed.ast) new Checker(source, options, catalogue, 'filter', problems, placeholders).check(parsed.ast);
  // What the operands on the right hold is checked as a value expression is (their own mistakes).
  if (placeholders) for (const right of placeholders) {
    const alone = `${' '.repeat(right.span.start)}${source.slice(right.span.start, right.span.end)}${' '.repeat(source.length - right.span.end)}`;
    const operand = parseValueExpression(alone, parseOptions);
    for (const p of operand.problems) if (p.span.start >= right.span.start && p.span.end <= right.span.end) problems.push(p);
    if (operand.ast) new Checker(source, options, catalogue, 'filter', problems).checkOperand(operand.ast);
  }
  // Lints (lints.ts): what the service accepts but never matches, or is almost surely a mistake.
  // Not over a tree with placeholders: it is not the source's.
  if (parsed.ast && !placeholders) lint(parsed.ast, source, catalogue, options, problems);
  // The reference reads left to right and stops at its first error: a field it does not know
  // before the place the parse failed is what it reports. Both are worth a word.
  const syntax = parsed.ast ? undefined : parsed.problems.find((p) => p.code === 'syntax-error');
  if (syntax) new Checker(source, options, catalogue, 'filter', problems).checkFieldNamesBefore(syntax.span.start);
  // The static analyses reason about what the expression means: only when it surely means it.
  let forms: Forms | undefined;
  if (parsed.ast && !hasError(problems)) {
    forms = analyzeInto(parsed.ast, text, catalogue, problems);
  }
  if (problems.length > 1) problems.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  if (!parsed.ast || placeholders) return { text: source, problems };
  return forms ? { ast: parsed.ast, text: source, problems, forms } : { ast: parsed.ast, text: source, problems };
}

/** The most calls or index expressions on the right of comparisons read past in one expression (each costs a parse). */
const MAX_RIGHT_OPERANDS = 8;

export interface ValueCheckOptions extends CheckOptions {
  /**
   * The types the place of the value takes (`['Bytes']` for a header value, `['Bytes',
   * 'Integer']` for a rewrite that takes either); any type when undefined.
   */
  readonly expect?: readonly ValueType[];
}

export interface ValueCheckResult {
  /** The value expression's operand, when it parsed. */
  readonly ast?: Operand;
  /** The text the tree was read from (see CheckResult). */
  readonly text: string;
  /** Sorted by position. */
  readonly problems: readonly Problem[];
  /** The value's type, when it is known. */
  readonly type?: ValueType;
}

/**
 * Parses and checks a value expression (a rewrite, a redirect target, a header value): one
 * field, call or index expression of a type the place takes, with no `[*]` (the reference's
 * value parser refuses one), where the functions and fields documented for value expressions
 * only are allowed and those documented for filters only are not.
 */
export function checkValueExpression(text: string, options: ValueCheckOptions = {}): ValueCheckResult {
  const source = withoutEdgeWhitespace(text);
  const catalogue = catalogueFor(options.phase);
  const parsed = parseValueExpression(source, parseOptionsFor(catalogue));
  const problems = [...parsed.problems];
  let type: ValueType | undefined;
  if (parsed.ast) type = new Checker(source, options, catalogue, 'value', problems).checkValue(parsed.ast, options.expect);
  const syntax = parsed.ast ? undefined : parsed.problems.find((p) => p.code === 'syntax-error');
  if (syntax) new Checker(source, options, catalogue, 'value', problems).checkFieldNamesBefore(syntax.span.start);
  if (problems.length > 1) problems.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  if (!parsed.ast) return { text: source, problems };
  return type === undefined ? { ast: parsed.ast, text: source, problems } : { ast: parsed.ast, text: source, problems, type };
}

/**
 * A range written with spaces (`{80 - 90}`, `{10.0.0.0 - 10.0.0.255}`) reads as three members,
 * the middle one a lone `-` or `:` with its own error: one mistake, said once, on the three,
 * with the fix.
 */
function joinSpacedRanges(text: string, ast: Expression, problems: readonly Problem[]): Problem[] {
  let result = [...problems];
  const atoms = atomsOf(ast);
  for (let a = 0; a < atoms.length; a++) {
    const node = atoms[a];
    if (node.kind !== 'comparison' || node.rhs?.kind !== 'set') continue;
    const items = node.rhs.items;
    for (let i = 0; i + 2 < items.length; i++) {
      const dash = items[i + 1];
      if (dash.kind !== 'invalid' || (dash.text !== '-' && dash.text !== ':')) continue;
      const from = items[i];
      const to = items[i + 2];
      const family = from.kind === 'integer' && to.kind === 'integer' ? 'integer' : from.kind === 'ip' && to.kind === 'ip' ? 'ip' : undefined;
      if (!family) continue;
      const span: Span = { start: from.span.start, end: to.span.end };
      const range = `${text.slice(from.span.start, from.span.end)}..${text.slice(to.span.start, to.span.end)}`;
      const joined = problem(family === 'integer' ? 'invalid-integer' : 'invalid-ip', 'error', span, `\`${text.slice(span.start, span.end)}\` is not a range: a range is written \`${range}\`, without spaces`, [replaceFix(`Change to \`${range}\``, span, range)]);
      result = [...result.filter((p) => p.span.start < dash.span.start || p.span.end > dash.span.end), joined];
    }
  }
  return result;
}

/** Rust's `char::is_whitespace` (Unicode White_Space): what the reference trims from both ends before it parses. */
const RUST_WHITESPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const EDGE_WHITESPACE = new RegExp(`^${RUST_WHITESPACE}+|${RUST_WHITESPACE}+$`, 'g');

/**
 * The text with the whitespace at its ends, which the reference trims (a TAB, a no-break
 * space), written as spaces: every offset stays where it was.
 */
function withoutEdgeWhitespace(text: string): string {
  // Every such character is a control character, a space, or past U+0084.
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  if (first > 0x20 && first < 0x85 && last > 0x20 && last < 0x85) return text;
  return text.replace(EDGE_WHITESPACE, (run) => ' '.repeat(run.length));
}

/** `"ru"` as `` `r` and `u` ``. */
function quoteLetters(letters: string): string {
  const quoted = [...letters].map((l) => `\`${l}\``);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

/** A word that can only be meant as a field name: letters, digits and `_`, in parts joined by dots. */
const FIELD_NAME_SHAPE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;
/** What a field name follows at the start of a comparison. */
const BEFORE_AN_OPERAND: ReadonlySet<string> = new Set(['(', 'not', 'and', 'or', 'xor', '!', '&&', '||', '^^']);

const STRING_PATTERN_OPERATORS: readonly ComparisonOperator[] = ['contains', 'matches', 'wildcard', 'strict_wildcard'];
/** The operators whose right side is a pattern, which only a `"…"` or `r"…"` string can hold. */
const PATTERN_OPERATORS: readonly ComparisonOperator[] = ['matches', 'wildcard', 'strict_wildcard'];

/**
 * Hex bytes spelled as the quoted pattern that matches exactly them, for a fix; undefined when
 * a byte is not printable ASCII (a regex reads `\xE9` as a character, not a byte) or would be
 * read as a quote, an escape or, in a wildcard, a star.
 */
function patternOfBytes(bytes: readonly number[], operator: ComparisonOperator): string | undefined {
  let pattern = '';
  for (const byte of bytes) {
    const c = String.fromCharCode(byte);
    if (byte < 0x20 || byte > 0x7e || c === '"' || c === '\\' || (operator !== 'matches' && c === '*')) return undefined;
    // After `matches` a backslash reaches the regex engine unchanged (LANGUAGE.md §4).
    pattern += operator === 'matches' && /[.+*?()|[\]{}^$]/.test(c) ? `\\${c}` : c;
  }
  return `"${pattern}"`;
}

/** What the left side of a comparison is, as far as the checker knows. */
interface LeftSide {
  readonly type: ScalarType;
  /** The operand it is, which messages name (Checker.nameOf). */
  readonly operand: Operand;
  /** The field it is, or whose elements it reads through index steps. */
  readonly field?: FieldInfo;
  /** Inclusive bounds of the values it can take (Integer). */
  readonly range?: readonly [bigint, bigint];
}

/** The kinds of argument the reference calls literals: everything else is a "field". */
const LITERAL_KINDS: ReadonlySet<string> = new Set(['string', 'integer', 'integer-range', 'bytes', 'ip', 'ip-range', 'invalid']);

function isLiteral(argument: Argument): argument is Literal {
  return LITERAL_KINDS.has(argument.kind);
}

/** Functions whose literal byte set may not hold a byte twice (the reference refuses it). */
const BYTE_SET_FUNCTIONS: ReadonlySet<string> = new Set(['trim', 'trim_start', 'trim_end']);
/** Functions whose second argument is a regular expression the service compiles. */
const REGEX_FUNCTIONS: ReadonlySet<string> = new Set(['regex_replace']);

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
function ordinal(index: number): string {
  return ORDINALS[index] ?? `${index + 1}th`;
}

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

/**
 * The checks of one expression by the catalogue of its phase. One pass over the tree, children
 * before parents, in a loop (the nesting is the user's): each node's type goes on a stack of
 * values, which its parent takes off. A value is a type (`undefined`: not known, or already
 * reported) and whether it is mapped (`[*]` in its chain: one element at a time).
 */
class Checker {
  private readonly family: PhaseFamily | undefined;
  private readonly complete: boolean;
  /**
   * No phase was given: the ruleset may go to any, so only a field no phase has is reported
   * unknown (a false error is worse than a missed one; `cf.threatScore` is wrong everywhere).
   */
  private readonly anyPhase: boolean;
  /** The phase's name where its catalogue is known, for availability; undefined for a phase we do not know. */
  private readonly knownPhase: string | undefined;
  private readonly types: (ValueType | undefined)[] = [];
  private readonly mapped: boolean[] = [];
  /**
   * A call's argument that is a field or call in parentheses, `concat((http.host), "a")`, by the
   * comparison it holds: the reference reads an argument that starts with `(` as a logical
   * expression, so what is in them must be a Boolean (missing-operator says why, with the fix).
   */
  private argumentGroups: Map<Comparison, Argument> | undefined;
  /** The ranges of the values of `bit_slice` calls (the one function with a range), made when one has. */
  declare private callRanges?: Map<FunctionCall, readonly [bigint, bigint]>;
  /** The first and the last finished call of each function the docs limit (checkOnceAndNesting), made at the first. */
  declare private limitedCalls?: Map<string, { first: FunctionCall; last: FunctionCall }>;
  /** A `[*]` stands somewhere in the tree (a value expression takes none). */
  private sawEach = false;
  /**
   * The did-you-means of the unknown field names met so far: an expression that repeats one
   * (a Terraform string's 17,320 `${…}`, each read as a field) looks through the fields once.
   */
  declare private fieldSuggestions?: Map<string, string[]>;

  constructor(
    private readonly text: string,
    private readonly options: CheckOptions,
    private readonly catalogue: Catalogue,
    private readonly kind: ExpressionKind,
    private readonly problems: Problem[],
    /** The findings of operands on the right that the tree holds a placeholder for (checkExpression). */
    private readonly placeholders?: readonly Problem[],
  ) {
    this.family = catalogue.family;
    this.complete = catalogue.complete;
    this.anyPhase = options.phase === undefined && !catalogue.complete;
    this.knownPhase = catalogue.family === undefined ? undefined : options.phase;
  }

  check(root: Expression): void {
    this.checkDepth(root);
    this.evaluate(root);
    const type = this.types.pop();
    if (type === BOOLEAN_ARRAY) this.reportBooleanArray(root, 'a filter needs one Boolean');
  }

  /** The checks of an operand standing where no value of it is used (one on the right of a comparison). */
  checkOperand(root: Operand): void {
    this.evaluate(root);
    this.dropValues(1);
  }

  /** The checks of a value expression; its type, when known. */
  checkValue(root: Operand, expect: readonly ValueType[] | undefined): ValueType | undefined {
    this.checkDepth(root);
    this.evaluate(root);
    const type = this.types.pop();
    const mapped = this.mapped.pop();
    if (mapped || this.sawEach) {
      const each = type === undefined ? 'each element' : `each element (${describeValueType(type)})`;
      this.report('invalid-each', 'error', root.span, `a value expression is one value, and \`[*]\` makes ${each} a value of its own: pick one element with an index such as \`[0]\`, or use \`join(…)\` to make one string of an array`);
      return undefined;
    }
    if (type === undefined || !expect || expect.includes(type)) return type;
    const wanted = quoteAlternatives(expect.map(describeValueType)).replace(/`/g, '');
    const fixes: Fix[] = [];
    const written = this.source(root.span);
    if (expect.includes('Bytes') && type === 'Integer' && this.catalogue.functions.has('to_string')) fixes.push(replaceFix(`Change to \`to_string(${written})\``, root.span, `to_string(${written})`));
    this.report('type-mismatch', 'error', root.span, `expected a value of type ${wanted} here, found \`${written}\`, ${article(type)} ${describeValueType(type)}`, fixes);
    return undefined;
  }

  private report(code: string, severity: Problem['severity'], span: Span, message: string, fixes?: readonly Fix[]): void {
    this.problems.push(problem(code, severity, span, message, fixes));
  }

  private checkDepth(root: Argument): void {
    // Each level opens with characters of its own (a `(`, `!` or `not`): a text with fewer cannot nest past the limit.
    if (this.text.length <= MAX_NESTING_DEPTH || !mayHoldOpeners(this.text, MAX_NESTING_DEPTH)) return;
    // Every `(`, `not`, call and quantifier is a level, as the reference counts them, also
    // inside the arguments of calls and quantifiers.
    const nodes: Argument[] = [root];
    const depths: number[] = [0];
    while (nodes.length > 0) {
      const node = nodes.pop()!;
      const depth = depths.pop()!;
      // Reported on the token that opens the level past the limit, as the scan does.
      const opening = depth >= MAX_NESTING_DEPTH ? this.levelOpening(node) : undefined;
      if (opening) {
        this.problems.push(nestingTooDeep(opening));
        return;
      }
      if (node.kind === 'group') push(node.inner, depth + 1);
      else if (node.kind === 'not') push(node.operand, depth + 1);
      else if (node.kind === 'logical') for (const operand of node.operands) push(operand, depth);
      else if (node.kind === 'quantifier') push(node.argument, depth + 1);
      else if (node.kind === 'comparison') push(node.lhs, depth);
      else if (node.kind === 'index') push(node.target, depth);
      else if (node.kind === 'call') for (const argument of node.args) push(argument, depth + 1);
    }
    function push(node: Argument, depth: number): void {
      nodes.push(node);
      depths.push(depth);
    }
  }

  /** The token that opens a level of nesting: a group's `(`, a `not`, the `(` of a call or quantifier. */
  private levelOpening(node: Argument): Span | undefined {
    if (node.kind === 'group') return { start: node.span.start, end: node.span.start + 1 };
    if (node.kind === 'not') return node.operatorToken.span;
    if (node.kind !== 'call' && node.kind !== 'quantifier') return undefined;
    const open = this.text.indexOf('(', node.name.span.end);
    return { start: open, end: open + 1 };
  }

  // ------------------------------------------------------------ the walk

  private push(type: ValueType | undefined, mapped: boolean): void {
    this.types.push(type);
    this.mapped.push(mapped);
  }

  /** Checks `root` and everything below it, and pushes its value. */
  private evaluate(root: Argument): void {
    // Nodes waiting for their children, and whether their children are on the stack yet.
    const nodes: Argument[] = [root];
    const open: boolean[] = [false];
    while (nodes.length > 0) {
      const last = nodes.length - 1;
      const node = nodes[last];
      if (!open[last]) {
        const before = nodes.length;
        this.pushChildren(node, nodes);
        // A node with no children to wait for is finished at once.
        if (nodes.length > before) {
          open[last] = true;
          for (let i = before; i < nodes.length; i++) open.push(false);
          continue;
        }
      }
      nodes.pop();
      open.pop();
      this.finish(node);
    }
  }

  /** The children whose values `finish` takes, last first (so the first is evaluated first). */
  private pushChildren(node: Argument, nodes: Argument[]): void {
    switch (node.kind) {
      case 'logical':
        for (let i = node.operands.length - 1; i >= 0; i--) nodes.push(node.operands[i]);
        return;
      case 'not':
        nodes.push(node.operand);
        return;
      case 'group':
        nodes.push(node.inner);
        return;
      case 'quantifier':
        if (!this.quantifierIsLeaf(node)) nodes.push(node.argument);
        return;
      case 'comparison':
        // A field, the common left side, is finished with its comparison (finish).
        if (node.lhs.kind !== 'field') nodes.push(node.lhs);
        return;
      case 'index':
        nodes.push(node.target);
        return;
      case 'call':
        if (this.callIsLeaf(node)) {
          for (let i = node.args.length - 1; i >= 0; i--) {
            const inner = innerOfLeafArgument(node.args[i]);
            if (inner) nodes.push(inner);
          }
          return;
        }
        for (let i = node.args.length - 1; i >= 0; i--) {
          const argument = node.args[i];
          nodes.push(argument);
          if (argument.kind !== 'group') continue;
          let inner: Expression = argument.inner;
          while (inner.kind === 'group') inner = inner.inner;
          if (inner.kind === 'comparison' && !inner.operator) (this.argumentGroups ??= new Map()).set(inner, argument);
        }
        return;
      default:
        return;
    }
  }

  /**
   * A call whose arguments are not checked as arguments: an unknown function in a complete
   * table (reported on its name; the reference stops there too), and `bit_slice` where the
   * packet phases' own check reads its arguments (a header's name, two decimal offsets). The
   * comparisons and calls inside them are checked all the same (innerOfLeafArgument).
   */
  private callIsLeaf(call: FunctionCall): boolean {
    const fn = this.catalogue.functions.get(call.name.text);
    if (!fn) return this.complete;
    return this.isPacketBitSlice(fn);
  }

  private isPacketBitSlice(fn: FunctionInfo): boolean {
    return fn.name === 'bit_slice' && this.family !== 'http';
  }

  /**
   * In the packet phases no field is an array, so `any(…)`/`all(…)` has nothing to reduce: said
   * once, on the argument, whose fields are not looked at when it is a lone operand.
   */
  private quantifierIsLeaf(node: QuantifierExpression): boolean {
    return this.family === 'magic' && isOperand(node.argument);
  }

  private finish(node: Argument): void {
    switch (node.kind) {
      case 'field':
        this.push(this.fieldValue(node), false);
        return;
      case 'call':
        this.finishCall(node);
        return;
      case 'index':
        this.finishIndex(node);
        return;
      case 'comparison': {
        if (node.lhs.kind === 'field') {
          const field = this.catalogue.fields.get(node.lhs.name);
          this.push(this.checkComparison(node, this.fieldValue(node.lhs, field), false, field), false);
          return;
        }
        const type = this.types.pop();
        const mapped = this.mapped.pop()!;
        this.push(this.checkComparison(node, type, mapped), false);
        return;
      }
      case 'quantifier':
        this.finishQuantifier(node);
        return;
      case 'logical':
        this.finishLogical(node.operands, node.operator);
        return;
      case 'not':
      case 'group':
        // `not` keeps its operand's type: the negation of an array of Booleans is one.
        this.mapped[this.mapped.length - 1] = false;
        return;
      case 'boolean':
        this.push('Boolean', false);
        return;
      default:
        this.push(literalType(node), false);
        return;
    }
  }

  // ------------------------------------------------------------ fields

  private fieldValue(node: FieldReference, field = this.catalogue.fields.get(node.name)): ValueType | undefined {
    if (field) {
      this.checkFieldAvailable(field, node.span);
      return field.type;
    }
    const fn = this.catalogue.functions.get(node.name);
    if (fn) {
      const message = fn.quantifier
        ? `\`${node.name}\` is written with its argument, a comparison over \`[*]\`: e.g. \`${fn.example}\``
        : `\`${node.name}\` is a function: call it with its arguments, e.g. \`${(this.isPacketBitSlice(fn) ? PACKET_FUNCTIONS.get(fn.name)?.example : undefined) ?? fn.example}\``;
      this.report('missing-arguments', 'error', node.span, message);
      return undefined;
    }
    if (this.complete || (this.anyPhase && !isNameOfSomePhase(node.name))) this.reportUnknownField(node.name, node.span);
    return undefined;
  }

  /** A field that exists, used where the docs do not give it: another phase, a value expression only, a higher plan. */
  private checkFieldAvailable(field: FieldInfo, span: Span): void {
    const only = field.only;
    if (only?.expressions && only.expressions !== this.kind) {
      this.report('field-not-available', 'error', span, `\`${field.name}\` cannot be used in ${describeKind(this.kind)}: ${only.why}${only.phases ? ` (${quoteAlternatives(only.phases)})` : ''}`);
      return;
    }
    if (only?.phases && this.knownPhase !== undefined && !only.phases.includes(this.knownPhase)) {
      this.report('field-not-available', 'error', span, `\`${field.name}\` does not exist in phase \`${this.knownPhase}\`: ${only.why} (${quoteAlternatives(only.phases)})`);
      return;
    }
    if (field.plan) this.checkPlan(field.plan, field.planNote, `\`${field.name}\``, span);
    const addon = fieldAddon(field.name);
    if (addon) this.checkAddon(addon, field.plan, `\`${field.name}\``, span);
  }

  /**
   * Something an add-on gives, on a plan that has the add-on (a lower one is checkPlan's to
   * report): only where the configuration lists the add-ons, in the HTTP phases.
   */
  private checkAddon(addon: Addon, required: Plan | undefined, what: string, span: Span): void {
    const { plan, addons } = this.options;
    if (!plan || !addons || this.family !== 'http' || addons.includes(addon) || (required && !planIncludes(plan, required))) return;
    this.report('addon-required', 'error', span, `${what} needs the ${addonName(addon)} add-on, which \`addons\` in .rulesets.yaml does not list, so the service refuses it; add \`${addon}\` there if the account has it`);
  }

  /** Something that needs `required`, where the configured plan is lower (only with a plan configured, in the HTTP phases). */
  private checkPlan(required: Plan, note: string | undefined, what: string, span: Span): void {
    const plan = this.options.plan;
    if (!plan || this.family !== 'http' || planIncludes(plan, required)) return;
    const needs = note ? `${describePlan(required)} (${note})` : describePlan(required);
    this.report('plan-required', 'error', span, `${what} needs the ${needs} plan; the account's plan is ${planName(plan)} (\`plan\` in .rulesets.yaml), so the service refuses it`);
  }

  /**
   * Where no tree could be built: the words before `end` that stand where a field name does
   * (at the start, or after `(`, `not`, `and`, `or`, `xor`) but name no field or function.
   */
  checkFieldNamesBefore(end: number): void {
    if (!this.complete && !this.anyPhase) return;
    const tokens = scanTokens(this.text, { limit: end });
    tokens.forEach((token, i) => {
      if (token.kind !== 'word' || token.span.end > end || !FIELD_NAME_SHAPE.test(token.text) || isKeyword(token.text)) return;
      const before = tokens[i - 1];
      if (before && !BEFORE_AN_OPERAND.has(before.text)) return;
      if (this.catalogue.fields.has(token.text) || this.catalogue.functions.has(token.text)) return;
      // Without a phase only a field no phase has is said; a call is left to the phase's check.
      if (this.anyPhase && (isNameOfSomePhase(token.text) || tokens[i + 1]?.kind === '(')) return;
      // `r#a#`, `r#"…`: a raw string written wrong, whose own error follows; not a field `r`.
      if (token.text === 'r' && this.family !== 'magic' && /^[#"]/.test(this.text.slice(token.span.end))) return;
      if (tokens[i + 1]?.kind !== '(') this.reportUnknownField(token.text, token.span);
      // A call of a function the phase does not have (the packet phases have said nothing of it here).
      else if (this.family !== 'magic' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(token.text) && token.text !== 'any' && token.text !== 'all') this.reportUnknownFunctionName(token.text, token.span);
    });
  }

  private reportUnknownField(name: string, span: Span): void {
    this.fieldSuggestions ??= new Map();
    let suggestions = this.fieldSuggestions.get(name);
    if (!suggestions) {
      const fieldNames: string[] = [];
      for (const field of this.catalogue.fields.values()) if (this.availableHere(field)) fieldNames.push(field.name);
      const lastPart = name.slice(name.lastIndexOf('.') + 1);
      const sameLastPart = fieldNames.filter((f) => f.endsWith(`.${lastPart}`) && f !== name);
      suggestions = [...new Set([...closestMatches(name, fieldNames), ...sameLastPart])].slice(0, 3);
      this.fieldSuggestions.set(name, suggestions);
    }
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : '';
    const elsewhere = this.family === 'http' ? otherFamilyNote(name, 'magic', 'field') : '';
    this.report(
      'unknown-field',
      'error',
      span,
      this.anyPhase ? `unknown field \`${name}\`: no phase has it${hint}` : `unknown field \`${name}\` in phase \`${this.options.phase}\`${elsewhere}${hint}`,
      suggestions.map((s) => replaceFix(`Change to \`${s}\``, span, s)),
    );
  }

  /** Whether a field may stand in this phase and kind of expression (for suggestions). */
  private availableHere(field: FieldInfo): boolean {
    const only = field.only;
    if (!only) return true;
    if (only.expressions && only.expressions !== this.kind) return false;
    return !only.phases || this.knownPhase === undefined || only.phases.includes(this.knownPhase);
  }

  // ------------------------------------------------------------ index steps

  private finishIndex(node: IndexedOperand): void {
    let type = this.types.pop();
    this.mapped.pop();
    let mapped = false;
    for (let i = 0; i < node.steps.length && type !== undefined; i++) {
      const step = node.steps[i];
      if (step.kind === 'each') this.sawEach = true;
      const next = stepType(type, step);
      if (next === undefined) {
        this.reportStep(node, i, type);
        type = undefined;
        break;
      }
      type = next;
      if (step.kind === 'each') mapped = true;
    }
    if (type === undefined) for (const step of node.steps) if (step.kind === 'each') this.sawEach = true;
    this.push(type, mapped);
  }

  /** An index step the type before it does not take, on the step. */
  private reportStep(node: IndexedOperand, index: number, type: ValueType): void {
    const step = node.steps[index];
    const target = node.target;
    const written = this.source(step.span);
    const name = `${target.kind === 'field' ? target.name : `${target.name.text}(…)`}${this.text.slice(target.span.end, step.span.start)}`;
    if (isScalarType(type)) {
      this.report('invalid-index', 'error', step.span, `\`${name}\` is ${article(type)} ${describeValueType(type)}, not an array or a map, so it takes no index step: \`${written}\` cannot follow it`);
      return;
    }
    if (isArrayType(type)) {
      const fixes = step.kind === 'key' ? [replaceFix('Change to `[*]`', step.span, '[*]')] : [];
      this.report('invalid-index', 'error', step.span, `\`${name}\` is an ${describeValueType(type)}, indexed by position: expected a number such as \`[0]\`, or \`[*]\` for each element, found the key \`${written}\`; keys index maps`, fixes);
      return;
    }
    this.report('invalid-index', 'error', step.span, `\`${name}\` is a ${describeValueType(type)}, indexed by key: expected a quoted key such as \`["name"]\`, or \`[*]\` for each value, found the position \`${written}\`; positions index arrays`, [replaceFix('Change to `[*]`', step.span, '[*]')]);
  }

  // ------------------------------------------------------------ calls

  private finishCall(call: FunctionCall): void {
    const name = call.name.text;
    const fn = this.catalogue.functions.get(name);
    if (!fn || fn.quantifier) {
      // Without a phase, as with fields: a function no phase has is wrong in whichever it goes to.
      if (this.complete || (this.anyPhase && !fn && !isNameOfSomePhase(name))) {
        this.reportUnknownFunction(call);
        this.dropLeafArguments(call);
        this.push(undefined, false);
        return;
      }
      this.dropValues(call.args.length);
      this.push(undefined, false);
      return;
    }
    if (this.checkFunctionAvailable(fn, call) && (fn.oncePerExpression || fn.notNestedWith)) this.checkOnceAndNesting(fn, call);
    if (this.isPacketBitSlice(fn)) {
      this.dropLeafArguments(call);
      const found = PACKET_FUNCTIONS.get(fn.name)!.check(call, this.text);
      for (const p of found.problems) this.problems.push(p);
      if (found.resultRange) (this.callRanges ??= new Map()).set(call, found.resultRange);
      this.push('Integer', false);
      return;
    }
    const base = this.types.length - call.args.length;
    const result = this.checkArguments(fn, call, base);
    this.dropValues(call.args.length);
    this.push(result, false);
  }

  /** The values of what pushChildren walked of a leaf call's arguments. */
  private dropLeafArguments(call: FunctionCall): void {
    let count = 0;
    for (let i = 0; i < call.args.length; i++) if (innerOfLeafArgument(call.args[i])) count++;
    this.dropValues(count);
  }

  private dropValues(count: number): void {
    this.types.length -= count;
    this.mapped.length -= count;
  }

  private reportUnknownFunction(call: FunctionCall): void {
    this.reportUnknownFunctionName(call.name.text, call.name.span);
  }

  private reportUnknownFunctionName(name: string, span: Span): void {
    const candidates: string[] = [];
    for (const fn of this.catalogue.functions.values()) if (!fn.quantifier) candidates.push(fn.name);
    const suggestions = closestMatches(name, candidates);
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : '';
    let note = '';
    if (this.family === 'http') {
      const field = this.catalogue.fields.get(name);
      if (field) note = `: \`${name}\` is a field (${describeValueType(field.type)}), used without parentheses`;
      else note = otherFamilyNote(name, 'magic', 'function');
    }
    if (this.anyPhase) note = ': no phase has it';
    this.report('unknown-function', 'error', span, `unknown function \`${name}\`${note}${hint}`, suggestions.map((s) => replaceFix(`Change to \`${s}\``, span, s)));
  }

  /**
   * A function used where the docs do not give it: another kind of expression, another phase, a
   * higher plan. Whether it may stand here at all (a plan is the account's business, not the
   * expression's).
   */
  private checkFunctionAvailable(fn: FunctionInfo, call: FunctionCall): boolean {
    const span = call.name.span;
    if (!fn.expressions.includes(this.kind)) {
      const where = fn.phases ? ` of ${quoteAlternatives(fn.phases)}` : '';
      this.report('function-not-available', 'error', span, `\`${fn.name}(…)\` cannot be used in ${describeKind(this.kind)}: the docs give it to ${describeKinds(fn.expressions)}${where} only`);
      return false;
    }
    if (fn.phases && this.knownPhase !== undefined && !fn.phases.includes(this.knownPhase)) {
      this.report('function-not-available', 'error', span, `\`${fn.name}(…)\` cannot be used in phase \`${this.knownPhase}\`: the docs give it to ${quoteAlternatives(fn.phases)} only`);
      return false;
    }
    if (fn.plan) this.checkPlan(fn.plan, fn.planNote, `\`${fn.name}(…)\``, span);
    return true;
  }

  /**
   * `regex_replace` and `wildcard_replace`: "once in an expression", and neither nested with the
   * other (the functions page, catalogue `oncePerExpression` and `notNestedWith`). The engine
   * takes both (README's table of differences); the service refuses them. Calls finish children
   * first, so the calls inside this one finished just before it: the last call of a function
   * to finish is inside this one if any is, and one look at it answers.
   */
  private checkOnceAndNesting(fn: FunctionInfo, call: FunctionCall): void {
    const finished = (this.limitedCalls ??= new Map());
    for (const other of fn.notNestedWith ?? []) {
      const inner = finished.get(other)?.last;
      if (inner && inner.span.start >= call.span.start && inner.span.end <= call.span.end) {
        this.report(
          'replace-nesting',
          'error',
          inner.name.span,
          `\`${other}(…)\` cannot stand inside \`${fn.name}(…)\`: the docs forbid nesting one of these two in the other, and the service refuses the rule; rewrite with one of them alone (a regular expression's groups \`(…)\` can capture what a wildcard's \`*\` does)`,
        );
      }
    }
    const known = finished.get(fn.name);
    if (!known) {
      finished.set(fn.name, { first: call, last: call });
      return;
    }
    // The one written later is the second (a call inside another finishes first).
    const [first, second] = known.first.name.span.start < call.name.span.start ? [known.first, call] : [call, known.first];
    finished.set(fn.name, { first, last: call });
    if (!fn.oncePerExpression) return;
    const how = fn.name === 'wildcard_replace' ? 'one pattern with several `*` captures several parts (`${1}`, `${2}`, …)' : 'one regular expression with several groups captures several parts (`${1}`, `${2}`, …)';
    this.problems.push({
      ...problem(
        'once-per-expression',
        'error',
        second.name.span,
        `\`${fn.name}(…)\` may be used once in an expression, and this is a second call: the service refuses the rule (the docs' functions page); do the rewrite with one call, where ${how}`,
      ),
      related: [{ span: first.name.span, message: `the first \`${fn.name}(…)\`` }],
    });
  }

  /**
   * The arguments of a call of `fn`, whose values are on the stack from `base`: their number,
   * kinds (literal or not), types, `[*]` and the literal values the service refuses; the
   * call's value.
   */
  private checkArguments(fn: FunctionInfo, call: FunctionCall, base: number): ValueType | undefined {
    const args = call.args;
    const count = args.length;
    const signature = `\`${fn.name}(…)\``;
    if (count < fn.minArgs) {
      const takes = fn.maxArgs === fn.minArgs ? plural(fn.minArgs, 'argument') : `at least ${plural(fn.minArgs, 'argument')}`;
      this.report('argument-count', 'error', call.span, `${signature} takes ${takes} (${fn.signature}), found ${count === 0 ? 'none' : count}: e.g. \`${fn.example}\``);
    } else if (fn.maxArgs !== undefined && count > fn.maxArgs) {
      const extra: Span = { start: args[fn.maxArgs].span.start, end: args[count - 1].span.end };
      const removal: Span = { start: fn.maxArgs === 0 ? extra.start : args[fn.maxArgs - 1].span.end, end: extra.end };
      const takes = fn.maxArgs === fn.minArgs ? plural(fn.maxArgs, 'argument') : `at most ${plural(fn.maxArgs, 'argument')}`;
      this.report('argument-count', 'error', extra, `${signature} takes ${takes} (${fn.signature}), found ${count}: remove ${count - fn.maxArgs === 1 ? 'this one' : 'these'}`, [
        replaceFix(count - fn.maxArgs === 1 ? 'Remove the extra argument' : 'Remove the extra arguments', removal, ''),
      ]);
    }
    const parameters = fn.parameters;
    const repeating = parameters.length > 0 && parameters[parameters.length - 1].repeats ? parameters[parameters.length - 1] : undefined;
    const firstArgument = fn.result === 'first-argument';
    let first: ValueType | undefined;
    let firstValid = false;
    for (let i = 0; i < count; i++) {
      const parameter = i < parameters.length ? parameters[i] : repeating;
      if (!parameter || (fn.maxArgs !== undefined && i >= fn.maxArgs)) break;
      const argument = args[i];
      const type = this.types[base + i];
      const mapped = this.mapped[base + i];
      if (mapped && i > 0) {
        this.report('invalid-each', 'error', argument.span, `\`[*]\` may stand in the first argument of a call only (the call is then made once per element); in the ${ordinal(i)} argument of ${signature} the service refuses it: index one element, such as \`[0]\``);
        continue;
      }
      if (argument.kind === 'integer' && this.hexArgument(argument)) continue;
      if (argument.kind === 'ip-range' || argument.kind === 'integer-range') {
        // The reference reads one value as an argument (an address, then a number, then bytes).
        this.report('invalid-value', 'error', argument.span, `expected one value as an argument, found ${describeLiteral(argument)} \`${this.source(argument.span)}\`: blocks and ranges stand only in a \`{…}\` set, after \`in\``);
        continue;
      }
      if (!this.checkArgumentKind(fn, parameter, argument, i)) continue;
      if (type === undefined) continue;
      const accepted = firstArgument && i > 0 && firstValid ? [first!] : parameter.types;
      if (!(accepted === parameter.types ? acceptsType(fn, accepted, type) : accepted.includes(type))) {
        this.reportArgumentType(fn, parameter, argument, i, type, accepted);
        continue;
      }
      if (i === 0) {
        first = type;
        firstValid = true;
      }
      if (isLiteral(argument)) this.checkLiteralArgument(fn, parameter, argument, i, args);
    }
    if (firstArgument) return firstValid ? callResult(fn, first, this.mapped[base]) : undefined;
    return callResult(fn, undefined, count > 0 && this.mapped[base]);
  }

  /**
   * A hex integer as an argument: the reference reads an argument whose first characters hold a
   * letter past `f` as a name (`0x10`: "unknown identifier"), so only decimal and octal integers
   * are arguments. Reported with the decimal to write.
   */
  private hexArgument(argument: Literal & { kind: 'integer' }): boolean {
    const written = this.source(argument.span);
    if (!/^-?0[xX]/.test(written)) return false;
    const decimal = String(argument.value);
    this.report('invalid-integer', 'error', argument.span, `expected a decimal number as an argument, found the hex \`${written}\`: the service reads an argument that starts so as a name; write \`${decimal}\``, [
      replaceFix(`Change to \`${decimal}\``, argument.span, decimal),
    ]);
    return true;
  }

  /** The argument's kind against the parameter's: whether the type is worth checking after it. */
  private checkArgumentKind(fn: FunctionInfo, parameter: ParameterInfo, argument: Argument, index: number): boolean {
    const literal = isLiteral(argument);
    if (parameter.kind === 'field' && literal) {
      if (argument.kind === 'invalid') return false;
      this.report(
        'argument-kind',
        'error',
        argument.span,
        `expected a field, a call or an index expression as the ${ordinal(index)} argument (\`${parameter.name}\`) of \`${fn.name}(…)\`, found the literal \`${this.source(argument.span)}\`: the function reads a value of the request, such as \`${exampleOperand(parameter)}\``,
      );
      return false;
    }
    if (parameter.kind === 'literal' && !literal) {
      const wanted = parameter.types.includes('Bytes') ? 'a literal string (`"…"`)' : parameter.types.includes('Integer') ? 'a literal number' : 'a literal';
      this.report(
        'argument-kind',
        'error',
        argument.span,
        `expected ${wanted} as the ${ordinal(index)} argument (\`${parameter.name}\`) of \`${fn.name}(…)\`, found \`${this.source(argument.span)}\`: the service needs this value when the rule is saved, so it cannot come from the request`,
      );
      return false;
    }
    return true;
  }

  private reportArgumentType(fn: FunctionInfo, parameter: ParameterInfo, argument: Argument, index: number, type: ValueType, accepted: readonly ValueType[]): void {
    const wanted = accepted.map(describeValueType).join(' or ');
    const sameAsFirst = fn.result === 'first-argument' && index > 0 ? ' (the type of the first argument)' : '';
    const fixes: Fix[] = [];
    const written = this.source(argument.span);
    if (isLiteral(argument) && argument.kind === 'integer' && accepted.includes('Bytes')) fixes.push(replaceFix(`Quote it: \`"${written}"\``, argument.span, `"${written}"`));
    if (argument.kind === 'string' && accepted.includes('Integer') && /^-?[0-9]+$/.test(argument.value)) fixes.push(replaceFix(`Remove the quotes: \`${argument.value}\``, argument.span, argument.value));
    // The values of one key (`http.request.headers["user-agent"]`, an array because a header
    // may be sent twice) where one value is wanted: the first is what is almost always meant.
    // Not an array of its own (`http.request.headers.names`), whose first element is no one
    // value the rule is about.
    let oneValue = '';
    const element = isArrayType(type) ? elementType(type) : undefined;
    if (argument.kind === 'index' && argument.steps[argument.steps.length - 1].kind === 'key' && element !== undefined && accepted.includes(element)) {
      oneValue = ': the values of one key; index one, such as `[0]` (the first)';
      fixes.push({ title: `Take the first value: \`${written}[0]\``, edits: [{ span: { start: argument.span.end, end: argument.span.end }, newText: '[0]' }] });
    }
    this.report(
      'argument-type',
      'error',
      argument.span,
      `expected ${wanted}${sameAsFirst} as the ${ordinal(index)} argument (\`${parameter.name}\`) of \`${fn.name}(…)\`, found \`${written}\`, ${article(type)} ${describeValueType(type)}${oneValue}`,
      fixes,
    );
  }

  /** The values of literal arguments that the service refuses, or that the docs bound. */
  private checkLiteralArgument(fn: FunctionInfo, parameter: ParameterInfo, argument: Literal, index: number, args: readonly Argument[]): void {
    if (argument.kind === 'integer' && parameter.range) {
      const [min, max] = parameter.range;
      if (argument.value < min || argument.value > max) {
        this.report('value-out-of-range', 'warning', argument.span, `\`${parameter.name}\` of \`${fn.name}(…)\` is documented from ${min} to ${max}, found ${argument.value}`);
      }
    }
    if (fn.name === 'hash_in_range' && index === 1) {
      const min = args[0];
      if (argument.kind === 'integer' && min.kind === 'integer' && argument.value <= min.value) {
        this.report('invalid-argument', 'error', argument.span, `\`hash_in_range(…)\` needs its maximum above its minimum, found ${min.value} then ${argument.value}: the service refuses an empty or reversed range`, [
          { title: 'Swap the bounds', edits: [{ span: min.span, newText: this.source(argument.span) }, { span: argument.span, newText: this.source(min.span) }] },
        ]);
      }
    }
    if (BYTE_SET_FUNCTIONS.has(fn.name) && index === 1 && (argument.kind === 'string' || argument.kind === 'bytes')) {
      const bytes = argument.kind === 'bytes' ? argument.bytes : (argument.bytes ?? [...new TextEncoder().encode(argument.value)]);
      const seen = new Set<number>();
      const repeated: number[] = [];
      for (const byte of bytes) {
        if (seen.has(byte) && !repeated.includes(byte)) repeated.push(byte);
        seen.add(byte);
      }
      if (repeated.length > 0) {
        const shown = repeated.map((b) => (b >= 0x20 && b < 0x7f ? `\`${String.fromCharCode(b)}\`` : `0x${b.toString(16).padStart(2, '0')}`)).join(', ');
        const unique = argument.kind === 'bytes' || argument.raw || argument.bytes ? undefined : [...new Set(argument.value)].join('');
        const fixes = unique !== undefined && !/["\\]/.test(unique) && new TextEncoder().encode(unique).length === seen.size ? [replaceFix(`Change to \`"${unique}"\``, argument.span, `"${unique}"`)] : [];
        this.report('invalid-argument', 'error', argument.span, `the bytes to trim are a set, and the service refuses one given twice: ${shown} ${repeated.length === 1 ? 'is' : 'are'} repeated in \`${this.source(argument.span)}\``, fixes);
      }
    }
    if (REGEX_FUNCTIONS.has(fn.name) && index === 1 && argument.kind === 'string') this.checkRegexArgument(argument);
    if (parameter.letters !== undefined && argument.kind === 'string') this.checkLetters(fn, parameter, parameter.letters, argument, args[index - 1]);
  }

  /**
   * A literal of options made of letters the docs list (`url_decode`'s `"r"`, `"u"`, `"ur"`):
   * each other character is an error on that character where the string is written as it reads,
   * or on the string. The fix keeps the letters meant: a capital of one in lowercase, others out.
   */
  private checkLetters(fn: FunctionInfo, parameter: ParameterInfo, letters: string, argument: Literal & { kind: 'string' }, before: Argument | undefined): void {
    const characters = argument.bytes ? undefined : [...argument.value];
    if (!characters) {
      // Bytes past ASCII, written as escapes: none is a letter of the list.
      this.report('invalid-argument', 'error', argument.span, `\`${parameter.name}\` of \`${fn.name}(…)\` is made of the letters ${quoteLetters(letters)} only, found \`${this.source(argument.span)}\`: the service refuses the rule`);
      return;
    }
    if (characters.every((c) => letters.includes(c))) return;
    const open = this.text.indexOf('"', argument.span.start) + 1;
    const body = this.text.slice(open, argument.raw ? open + argument.value.length : argument.span.end - 1);
    const direct = argument.raw || body === argument.value;
    let kept = '';
    for (const c of characters) {
      const meant = letters.includes(c) ? c : letters.includes(c.toLowerCase()) ? c.toLowerCase() : '';
      if (meant !== '' && !kept.includes(meant)) kept += meant;
    }
    const fixes: Fix[] =
      kept !== ''
        ? [replaceFix(`Change to \`"${kept}"\``, argument.span, `"${kept}"`)]
        : before
          ? [replaceFix(`Remove the ${parameter.name}`, { start: before.span.end, end: argument.span.end }, '')]
          : [];
    const meaning = fn.name === 'url_decode' ? ' (`r` decodes again until nothing is left to decode, `u` also decodes `%uXXXX`)' : '';
    let offset = 0;
    for (const c of characters) {
      const at = offset;
      offset += c.length;
      if (letters.includes(c)) continue;
      const span = direct ? { start: open + at, end: open + at + c.length } : argument.span;
      this.report('invalid-argument', 'error', span, `\`${parameter.name}\` of \`${fn.name}(…)\` is made of the letters ${quoteLetters(letters)}${meaning}, and \`${c}\` is none of them: the service refuses the rule (the docs' functions page)`, fixes);
      // Written with escapes, the string is one place: said once.
      if (!direct) return;
    }
  }

  /** A regex argument, compiled as the service compiles it; on its characters where they map one to one. */
  private checkRegexArgument(argument: Literal & { kind: 'string' }): void {
    const open = this.text.indexOf('"', argument.span.start) + 1;
    const body = this.text.slice(open, argument.raw ? open + argument.value.length : argument.span.end - 1);
    const direct = argument.raw || body === argument.value;
    const found = regexProblem(argument.value, (i) => (direct ? open + i : argument.span.start));
    if (!found) return;
    this.problems.push(direct ? found : { ...found, span: argument.span });
  }

  // ------------------------------------------------------------ Booleans and arrays of them

  private finishQuantifier(node: QuantifierExpression): void {
    if (this.family === 'magic') {
      if (!this.quantifierIsLeaf(node)) this.dropValues(1);
      this.report('type-mismatch', 'error', node.argument.span, `\`${node.name.text}(…)\` reduces an array of Booleans, such as \`http.request.headers.names[*] == "x"\` in the HTTP phases, and no field of phase \`${this.options.phase}\` is an array`);
      this.push('Boolean', false);
      return;
    }
    const type = this.types.pop();
    this.mapped.pop();
    if (type !== undefined && type !== BOOLEAN_ARRAY) {
      const argument = node.argument;
      const fixes: Fix[] = [];
      if (type === 'Boolean' && (argument.kind === 'comparison' || argument.kind === 'group' || argument.kind === 'not')) {
        fixes.push(replaceFix(`Remove \`${node.name.text}(…)\``, node.span, this.source(argument.span)));
      }
      const found = type === 'Boolean' ? 'one Boolean' : `${article(type)} ${describeValueType(type)}`;
      this.report(
        'type-mismatch',
        'error',
        argument.span,
        `\`${node.name.text}(…)\` takes an array of Booleans, one per element: a comparison over \`[*]\` such as \`${node.name.text}(http.request.headers.names[*] == "x")\`; found \`${this.source(argument.span)}\`, ${found}`,
        fixes,
      );
    }
    this.push('Boolean', false);
  }

  /** `and`/`or`/`xor`: both sides one Boolean each, or both arrays of Booleans (element by element). */
  private finishLogical(operands: readonly Expression[], operator: string): void {
    const base = this.types.length - operands.length;
    let booleans = 0;
    let arrays = 0;
    for (let i = 0; i < operands.length; i++) {
      const type = this.types[base + i];
      if (type === 'Boolean') booleans++;
      else if (type === BOOLEAN_ARRAY) arrays++;
    }
    let result: ValueType | undefined;
    if (booleans > 0 && arrays > 0) {
      for (let i = 0; i < operands.length; i++) if (this.types[base + i] === BOOLEAN_ARRAY) this.reportBooleanArray(operands[i], `\`${operator}\` needs one Boolean on each side`);
      result = 'Boolean';
    } else if (arrays === operands.length) {
      result = BOOLEAN_ARRAY;
    } else if (arrays === 0 && booleans > 0) {
      result = 'Boolean';
    }
    this.dropValues(operands.length);
    this.push(result, false);
  }

  /** An array of Booleans (a comparison over `[*]`) where one Boolean is needed; fixes: `any(…)`, `all(…)`. */
  private reportBooleanArray(node: Expression, why: string): void {
    const written = this.source(node.span);
    const inner = node.kind === 'logical' ? `(${written})` : written;
    this.report(
      'boolean-array',
      'error',
      node.span,
      `\`${written}\` is an array of Booleans, one per element of what \`[*]\` steps over, and ${why}: wrap it in \`any(…)\` (true when one element matches) or \`all(…)\` (when every one does)`,
      [replaceFix(`Wrap in \`any(…)\``, node.span, `any(${inner})`), replaceFix(`Wrap in \`all(…)\``, node.span, `all(${inner})`)],
    );
  }

  // ------------------------------------------------------------ comparisons

  /** A comparison, its left side's value given; its own value (a Boolean, or an array of them over `[*]`). */
  private checkComparison(comparison: Comparison, type: ValueType | undefined, mapped: boolean, field?: FieldInfo): ValueType | undefined {
    const { operator, rhs, lhs } = comparison;
    let left: LeftSide | undefined;
    if (type !== undefined && !isScalarType(type)) {
      // An array or a map as a whole: only an array of Booleans stands alone (a call over `[*]`).
      if (!operator && type === BOOLEAN_ARRAY && !mapped) return BOOLEAN_ARRAY;
      this.reportContainer(comparison, type);
      return undefined;
    }
    if (type !== undefined) left = this.leftSide(lhs, type, field);
    if (!operator || !rhs) {
      if (left && left.type !== 'Boolean') {
        const example = left.field?.example ?? `${this.nameOf(left)} == ${EXAMPLE_VALUE[left.type]}`;
        const subject = lhs.kind === 'call' ? `the call of \`${lhs.name.text}\`` : `\`${this.nameOf(left)}\``;
        const message = `expected a comparison after ${subject}, which is ${article(left.type)} ${describeValueType(left.type)}, not a Boolean`;
        const group = this.argumentGroups?.get(comparison);
        if (group) {
          const removal: Fix = { title: 'Remove the parentheses', edits: [{ span: { start: group.span.start, end: lhs.span.start }, newText: '' }, { span: { start: lhs.span.end, end: group.span.end }, newText: '' }] };
          this.report('missing-operator', 'error', lhs.span, `${message}; in a call's argument, parentheses make a test (a filter), not a value: remove them`, [removal]);
          return undefined;
        }
        this.report('missing-operator', 'error', lhs.span, `${message}: e.g. \`${example}\``);
        return undefined;
      }
      return left ? (mapped ? BOOLEAN_ARRAY : 'Boolean') : undefined;
    }
    if (operator.operator === 'strict_wildcard' && operator.text !== 'strict wildcard') {
      // Reported first: the reference stops there, before it looks at the field's type.
      this.report('strict-wildcard-spacing', 'error', operator.span, `expected \`strict wildcard\` with exactly one space between the words, found ${describeGap(operator.text)}; the service reads no operator there`, [
        replaceFix('Write `strict wildcard` with one space', operator.span, 'strict wildcard'),
      ]);
    }
    if (operator.operator === 'matches' && OPERATOR_PLANS.matches) this.checkPlan(OPERATOR_PLANS.matches, undefined, '`matches`', operator.span);
    // A field or call on the right: said once, in place of what its text is as a value.
    const operandOnRight = this.family !== 'magic' && ((this.placeholders !== undefined && this.isPlaceholder(rhs)) || this.fieldOnTheRight(comparison));
    // After a pattern operator a list is no pattern, whatever it holds: checkShape says so.
    if (rhs.kind === 'list' && !operandOnRight && !STRING_PATTERN_OPERATORS.includes(operator.operator)) this.checkListReferences(rhs, left);
    if (!left) return undefined;
    const result: ValueType = mapped ? BOOLEAN_ARRAY : 'Boolean';
    if (left.type === 'Boolean') {
      if (!operandOnRight) this.reportBooleanComparison(comparison, this.nameOf(left));
      return result;
    }
    // The operator before what follows it, as the reference reads them.
    const allowed = OPERATORS_BY_TYPE[left.type];
    if (!allowed.includes(operator.operator)) {
      this.report('invalid-operator', 'error', operator.span, `\`${operator.text}\` cannot be used with \`${this.nameOf(left)}\` (${describeValueType(left.type)}); use one of ${allowed.map((o) => `\`${COMPARISON_OPERATORS.get(o)!.usual}\``).join(', ')}`);
      return result;
    }
    if (operandOnRight) return result;
    if (left.type === 'Ip' && ORDERING_OPERATORS.includes(operator.operator)) {
      this.report('ip-ordering', 'warning', operator.span, `the service does not support ordering IP addresses with \`${operator.text}\`; use \`in {start..end}\` or a CIDR block`);
    }
    if (!this.checkShape(comparison, left)) return result;
    if (rhs.kind === 'set') for (let i = 0; i < rhs.items.length; i++) this.checkLiteral(rhs.items[i], left, operator.operator);
    else if (rhs.kind !== 'list') this.checkLiteral(rhs, left, operator.operator);
    if (rhs.kind === 'set' && rhs.items.length === 0) {
      this.report('empty-set', 'warning', rhs.span, `\`${this.nameOf(left)} in {}\` never matches: the set is empty`);
    }
    return result;
  }

  /**
   * A field on the right of a comparison (`http.host == cf.zone.name`), which the parser read
   * as a literal of the left side's type: one finding instead of the literal's (LANGUAGE.md §9:
   * the service documents a field compared with a value). Calls and index expressions there do
   * not parse; fieldOrCallOnTheRight says so for them. The packet phases say it as they always
   * have, through the literal.
   */
  private fieldOnTheRight(comparison: Comparison): boolean {
    const rhs = comparison.rhs!;
    if (rhs.kind === 'set' || rhs.kind === 'list' || !startsLikeAName(this.text.charCodeAt(rhs.span.start))) return false;
    const written = this.source(rhs.span);
    const field = this.catalogue.fields.get(written);
    if (!field) return false;
    for (let i = this.problems.length - 1; i >= 0; i--) {
      const p = this.problems[i];
      if (p.span.start >= rhs.span.start && p.span.end <= rhs.span.end) this.problems.splice(i, 1);
    }
    this.report('field-on-right', 'error', rhs.span, rightSideMessage(comparison.operator!.text, `the field \`${written}\``));
    return true;
  }

  /** Whether the right side is the placeholder of an operand reported there (checkExpression). */
  private isPlaceholder(rhs: Value): boolean {
    if (!this.placeholders || rhs.kind !== 'string') return false;
    for (const p of this.placeholders) if (p.span.start === rhs.span.start && p.span.end === rhs.span.end) return true;
    return false;
  }

  /** What the left side of a comparison is: the operand, and the field whose values it reads (`field`: a lone field's, looked up by finish). */
  private leftSide(lhs: Operand, type: ScalarType, field: FieldInfo | undefined): LeftSide {
    if (lhs.kind === 'field') return field ? { type, operand: lhs, field, range: field.range } : { type, operand: lhs };
    if (lhs.kind === 'call') {
      const range = this.callRanges?.get(lhs);
      return range ? { type, operand: lhs, range } : { type, operand: lhs };
    }
    // Through index steps a field's documented values are those of its elements.
    const target = lhs.target.kind === 'field' ? this.catalogue.fields.get(lhs.target.name) : undefined;
    if (!target) return { type, operand: lhs };
    return target.range && type === 'Integer' ? { type, operand: lhs, field: target, range: target.range } : { type, operand: lhs, field: target };
  }

  /** How messages name the left side: the field, `lower(…)`, or the index expression as written (made only for a finding). */
  private nameOf(left: LeftSide): string {
    const operand = left.operand;
    if (operand.kind === 'field') return operand.name;
    if (operand.kind === 'call') return `${operand.name.text}(…)`;
    return this.source(operand.span);
  }

  /** An array or a map compared, or standing alone, as a whole. */
  private reportContainer(comparison: Comparison, type: ValueType): void {
    const { lhs, operator, rhs } = comparison;
    const written = this.source(lhs.span);
    // `[*]` as often as it takes to reach single values: each element, compared by the operator.
    let steps = '';
    let element: ValueType | undefined = type;
    while (element !== undefined && !isScalarType(element)) {
      steps += '[*]';
      element = elementType(element);
    }
    const one = isMapType(type) ? `one value, such as \`${written}["name"]${isArrayType(elementType(type)!) ? '[0]' : ''}\`` : `one element, such as \`${written}[0]\``;
    const what = `\`${written}\` is ${article(type)} ${describeValueType(type)}`;
    if (!operator || !rhs) {
      this.report('missing-operator', 'error', lhs.span, `${what}, not a Boolean: compare ${one}, or each with \`any(${written}${steps} == …)\``);
      return;
    }
    const fixes: Fix[] = [];
    const scalar = element !== undefined && OPERATORS_BY_TYPE[element as ScalarType].includes(operator.operator);
    if (scalar) {
      const each = `any(${written}${steps} ${this.source({ start: operator.span.start, end: comparison.span.end })})`;
      fixes.push(replaceFix(`Change to \`${each}\``, comparison.span, each));
    }
    this.report('invalid-operator', 'error', operator.span, `${what}, which \`${operator.text}\` cannot compare as a whole: compare ${one}, or each with \`any(${written}${steps} ${operator.text} …)\``, fixes);
  }

  private reportBooleanComparison(comparison: Comparison, name: string): void {
    const { operator, rhs } = comparison;
    if (!operator || !rhs) return;
    const span: Span = { start: operator.span.start, end: rhs.span.end };
    const value = rhs.kind === 'invalid' ? rhs.text : undefined;
    const negated = operator.operator === 'ne';
    const fixes: Fix[] = [];
    if (value === 'true' || value === 'false' || value === '1' || value === '0') {
      const truthy = (value === 'true' || value === '1') !== negated;
      const written = this.source(comparison.lhs.span);
      const newText = truthy ? written : `not ${written}`;
      fixes.push(replaceFix(`Change to \`${newText}\``, comparison.span, newText));
    }
    const what = comparison.lhs.kind === 'field' ? 'a Boolean field' : 'a Boolean';
    const written = this.source(comparison.lhs.span);
    this.report('boolean-comparison', 'error', span, `\`${name}\` is ${what}: it takes no operator or value; write \`${written}\` or \`not ${written}\``, fixes);
  }

  /** The right side's shape against the operator: sets and lists need `in`, and only they do. */
  private checkShape(comparison: Comparison, left: LeftSide): boolean {
    const operator = comparison.operator!;
    const rhs = comparison.rhs!;
    if (operator.operator === 'in') {
      if (rhs.kind === 'set' || rhs.kind === 'list') return true;
      if (rhs.kind === 'invalid') return false;
      const written = this.source(rhs.span);
      this.report('set-required', 'error', rhs.span, `expected a \`{…}\` set or a \`$list\` after \`in\`, found ${describeLiteral(rhs)}`, [replaceFix(`Wrap in a set: \`{${written}}\``, rhs.span, `{${written}}`)]);
      return false;
    }
    if ((rhs.kind === 'set' || rhs.kind === 'list') && STRING_PATTERN_OPERATORS.includes(operator.operator)) {
      this.reportPatternSet(comparison, rhs);
      return false;
    }
    if (rhs.kind === 'set' || rhs.kind === 'list') {
      const what = rhs.kind === 'set' ? 'a `{…}` set' : `the list \`$${rhs.name}\``;
      this.report('set-requires-in', 'error', operator.span, `\`${operator.text}\` compares with one value, found ${what}; use \`in\``, [replaceFix('Change the operator to `in`', operator.span, 'in')]);
      return false;
    }
    if (rhs.kind === 'integer-range' || rhs.kind === 'ip-range') {
      const span: Span = { start: operator.span.start, end: rhs.span.end };
      const message = `${describeLiteral(rhs)} can only be used inside a \`{…}\` set, with \`in\`: \`${this.nameOf(left)} in {…}\``;
      if (operator.operator === 'eq') {
        const newText = `in {${this.source(rhs.span)}}`;
        this.report('set-required', 'error', rhs.span, message, [replaceFix(`Change to \`${newText}\``, span, newText)]);
      } else {
        this.report('set-required', 'error', rhs.span, message);
      }
      return false;
    }
    if (STRING_PATTERN_OPERATORS.includes(operator.operator) && rhs.kind !== 'string' && rhs.kind !== 'bytes' && rhs.kind !== 'invalid') {
      this.report('type-mismatch', 'error', rhs.span, `\`${operator.text}\` expects a quoted string, found ${describeLiteral(rhs)}`);
      return false;
    }
    if (rhs.kind === 'bytes' && PATTERN_OPERATORS.includes(operator.operator)) {
      // The reference reads only a `"…"` or `r"…"` pattern after these (LANGUAGE.md §7b).
      const pattern = patternOfBytes(rhs.bytes, operator.operator);
      const spelled = pattern === undefined ? '' : `; these bytes as a pattern: \`${pattern}\``;
      this.report(
        'type-mismatch',
        'error',
        rhs.span,
        `\`${operator.text}\` expects a pattern in a quoted string (\`"…"\` or \`r"…"\`), found hex bytes \`${this.source(rhs.span)}\`; hex bytes go with \`==\`, \`contains\` or \`in\` only${spelled}`,
        pattern === undefined ? [] : [replaceFix(`Change to \`${pattern}\``, rhs.span, pattern)],
      );
      return false;
    }
    return true;
  }

  /**
   * A set or a list after `contains`, `matches`, `wildcard` or `strict wildcard`: the reference
   * reads one pattern there and rejects the set on its `{`. `in` would be no fix, as it compares
   * whole values; one comparison per pattern, joined with `or`, is what such a set means.
   */
  private reportPatternSet(comparison: Comparison, rhs: Value & { kind: 'set' | 'list' }): void {
    const operator = comparison.operator!;
    const one = operator.operator === 'contains' ? 'one quoted string or hex bytes' : 'one pattern in a quoted string';
    const found = rhs.kind === 'set' ? 'a `{…}` set' : `the list \`$${rhs.name}\``;
    const fixes: Fix[] = [];
    if (rhs.kind === 'set' && rhs.items.length > 0 && rhs.items.every((item) => item.kind === 'string' || item.kind === 'bytes')) {
      const left = this.source(comparison.lhs.span);
      const each = rhs.items.map((item) => `${left} ${operator.text} ${this.source(item.span)}`);
      const newText = each.length === 1 ? each[0] : `(${each.join(' or ')})`;
      fixes.push(replaceFix(`Change to \`${newText}\``, comparison.span, newText));
    }
    const hint = rhs.kind === 'set' ? '; to test several, join one comparison per value with `or`' : '';
    this.report('type-mismatch', 'error', rhs.span, `\`${operator.text}\` takes ${one}, found ${found}${hint}`, fixes);
  }

  private source(span: Span): string {
    return this.text.slice(span.start, span.end);
  }

  // ------------------------------------------------------------ values

  private checkLiteral(literal: Literal, left: LeftSide, operator: ComparisonOperator): void {
    if (literal.kind === 'invalid') return; // already reported where it was read
    const expected = left.type;
    const fits =
      (expected === 'Integer' && (literal.kind === 'integer' || literal.kind === 'integer-range')) ||
      (expected === 'Ip' && (literal.kind === 'ip' || literal.kind === 'ip-range')) ||
      (expected === 'Bytes' && (literal.kind === 'string' || literal.kind === 'bytes'));
    if (!fits) {
      this.reportTypeMismatch(literal, left);
      return;
    }
    if (literal.kind === 'integer' || literal.kind === 'integer-range') {
      // Only the packet phases' fields with a range have values to hold it to (checkIntegerRange).
      if (operator !== 'bitwise_and' && left.range && this.family === 'magic') this.checkIntegerRange(literal, left, operator);
      return;
    }
    // A pattern (`contains "B"`, `matches "^t"`) or an ordering bound is not a value the
    // field takes, so only equality and membership are held against the catalogues.
    if (literal.kind !== 'string' || !WHOLE_VALUE_OPERATORS.includes(operator)) return;
    // A country code is the lints' (countryCodeProblem): the service takes any string.
    if (left.field?.values === 'protocol') this.checkProtocol(literal);
  }

  private reportTypeMismatch(literal: Literal, left: LeftSide): void {
    const expected = EXPECTED_LITERAL[left.type];
    const fixes: Fix[] = [];
    if (literal.kind === 'string') {
      const unquoted = literal.value;
      const unquotedFits =
        (left.type === 'Integer' && /^(-?[0-9]+|0x[0-9a-fA-F]+)$/.test(unquoted)) ||
        (left.type === 'Ip' && /^[0-9a-fA-F:.]+(\/[0-9]+)?$/.test(unquoted));
      if (unquotedFits) fixes.push(replaceFix(`Remove the quotes: \`${unquoted}\``, literal.span, unquoted));
    }
    let hint = '';
    if (left.field?.values === 'protocol' && literal.kind === 'integer') {
      const name = [...IP_PROTOCOLS].find(([, p]) => BigInt(p.number) === literal.value)?.[0];
      if (name) {
        hint = `; protocol ${literal.value} is \`"${name}"\``;
        fixes.push(replaceFix(`Change to \`"${name}"\``, literal.span, `"${name}"`));
      }
    }
    if (left.type === 'Bytes' && literal.kind === 'integer' && fixes.length === 0) {
      const written = this.source(literal.span);
      fixes.push(replaceFix(`Quote it: \`"${written}"\``, literal.span, `"${written}"`));
    }
    this.report('type-mismatch', 'error', literal.span, `expected ${expected} for \`${this.nameOf(left)}\`, found ${describeLiteral(literal)}${hint}`, fixes);
  }

  /**
   * An integer outside a packet field's values (its header's width, or a documented range).
   * What that means depends on the operator: `==` and `in` never match it, and `!=` is true
   * whenever the field has a value; an ordering bound past the values on the side that leaves
   * none (`ip.ttl > 300`) never matches, and one on the other side (`ip.ttl < 300`) holds for
   * every value, which is no mistake about the field's values, so it is not said here. In the
   * other phases a documented range says which values a field holds, and lints.ts reads whole
   * values only.
   */
  private checkIntegerRange(literal: Literal & { kind: 'integer' | 'integer-range' }, left: LeftSide, operator: ComparisonOperator): void {
    if (!left.range || this.catalogue.family !== 'magic') return;
    const [min, max] = left.range;
    const from = literal.kind === 'integer' ? literal.value : literal.from;
    const to = literal.kind === 'integer' ? literal.value : literal.to;
    if (from >= min && to <= max) return;
    const bounds = `\`${this.nameOf(left)}\` (${min}–${max})`;
    if (ORDERING_OPERATORS.includes(operator)) {
      const none = operator === 'gt' || operator === 'ge' ? from > max : to < min;
      if (none) this.report('value-out-of-range', 'warning', literal.span, `${from} is outside the values of ${bounds}, so it can never match`);
      return;
    }
    if (to < min || from > max) {
      const what = literal.kind === 'integer' ? `${literal.value} is` : `range ${from}..${to} is`;
      this.report('value-out-of-range', 'warning', literal.span, `${what} outside the values of ${bounds}, ${operator === 'ne' ? 'so `!=` is always true where it has a value' : 'so it can never match'}`);
      return;
    }
    const clamped = `${from < min ? min : from}..${to > max ? max : to}`;
    this.report('value-out-of-range', 'warning', literal.span, `range ${from}..${to} reaches past the values of ${bounds}; write \`${clamped}\``, [replaceFix(`Change to \`${clamped}\``, literal.span, clamped)]);
  }

  private checkProtocol(literal: Literal & { kind: 'string' }): void {
    const name = literal.value;
    if (IP_PROTOCOLS.has(name)) return;
    const lower = name.toLowerCase();
    const fix = (p: string) => replaceFix(`Change to \`"${p}"\``, literal.span, `"${p}"`);
    if (IP_PROTOCOLS.has(lower)) {
      this.report('protocol-case', 'warning', literal.span, `protocol names are lowercase: \`"${name}"\` never matches; write \`"${lower}"\``, [fix(lower)]);
      return;
    }
    const alias = IP_PROTOCOL_ALIASES.get(lower);
    // Common protocols first, so `"tpc"` suggests `"tcp"` rather than the rare `"3pc"`.
    const common = closestMatches(lower, COMMON_PROTOCOLS);
    const suggestions = alias ? [alias] : common.length > 0 ? common : closestMatches(lower, IP_PROTOCOLS.keys());
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions.map((s) => `"${s}"`))}?` : '';
    this.report('unknown-protocol', 'warning', literal.span, `\`"${name}"\` is not a protocol name, so it never matches${hint}`, suggestions.map(fix));
  }

  // ------------------------------------------------------------ lists

  private checkListReferences(rhs: Value, left: LeftSide | undefined): void {
    // A malformed name has its error from the parser; looking it up would only add noise.
    if (rhs.kind !== 'list' || !isWellFormedListName(rhs.name)) return;
    if (left && !this.checkListKind(rhs, left)) return;
    const name = rhs.name;
    const nameSpan: Span = { start: rhs.span.start + 1, end: rhs.span.end };
    const managed = this.managedLists();
    const namespace = managed.find(({ namespace }) => name.startsWith(`${namespace}.`));
    if (namespace) {
      if (namespace.lists.has(name)) return;
      const suggestions = closestMatches(name, namespace.lists.keys());
      const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions.map((s) => `$${s}`))}?` : `; the managed lists are ${quoteAlternatives([...namespace.lists.keys()].map((s) => `$${s}`))}`;
      this.report('unknown-list', 'warning', rhs.span, `unknown managed list \`$${name}\`, which matches nothing${hint}`, suggestions.map((s) => replaceFix(`Change to \`$${s}\``, nameSpan, s)));
      return;
    }
    if (name.includes('.')) {
      // The other family's managed list (`$svc.vpn` in an HTTP phase): its name here.
      const here = managed.length === 1 ? sameListElsewhere(name, managed[0]) : undefined;
      const namespaces = managed.map(({ namespace }) => `\`$${namespace}.…\``).join(' and ');
      this.report(
        'unknown-list',
        'warning',
        rhs.span,
        `unknown list namespace in \`$${name}\`: managed lists are ${namespaces} and account lists have no dots${here ? `; did you mean \`$${here}\`?` : ''}`,
        here ? [replaceFix(`Change to \`$${here}\``, nameSpan, here)] : [],
      );
      return;
    }
    const known = this.options.knownLists;
    if (known && !known.includes(name)) {
      const suggestions = closestMatches(name, [...known, ...managed.flatMap(({ lists }) => [...lists.keys()])]);
      const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions.map((s) => `$${s}`))}?` : '';
      this.report('unknown-list', 'warning', rhs.span, `the account has no list named \`$${name}\`${hint}`, suggestions.map((s) => replaceFix(`Change to \`$${s}\``, nameSpan, s)));
    }
  }

  /** The managed lists of the phase: `svc.…` in the packet phases, `cf.…` in the HTTP ones, both where the phase is not known. */
  private managedLists(): readonly { readonly namespace: string; readonly lists: ReadonlyMap<string, unknown> }[] {
    if (this.family === undefined) return [managedListsOf('magic'), managedListsOf('http')];
    return [managedListsOf(this.family)];
  }

  /**
   * Whether the list may follow the left side, by its kind (LANGUAGE.md §6); reported when not.
   * The packet phases' lists hold IP addresses. In the HTTP phases a list is an IP list (for
   * the fields of type IP address), an ASN list (`ip.src.asnum`), a hostname list
   * (`http.host`) or a redirect list (`http.request.full_uri`): a kind the configuration gives
   * (or a managed list's, which are IP lists) that does not fit is an error; a list of unknown
   * kind after a field no kind is made for, a warning. Where the phase is not known, only a
   * configured kind's type is held to the field's.
   */
  private checkListKind(rhs: Value & { kind: 'list' }, left: LeftSide): boolean {
    if (this.family === 'magic') {
      if (left.type === 'Ip') return true;
      this.report('list-not-allowed', 'error', rhs.span, `lists hold IP addresses and can only be used with \`ip.src\` or \`ip.dst\`, not with \`${this.nameOf(left)}\` (${describeValueType(left.type)})`);
      return false;
    }
    const kind = this.listKind(rhs.name);
    const fieldName = left.field?.name;
    const fitting = LIST_KINDS.filter((k) => LIST_KIND_INFO[k].type === left.type && (!LIST_KIND_INFO[k].fields || (fieldName !== undefined && LIST_KIND_INFO[k].fields!.includes(fieldName))));
    // The kind the list must be, where it is of the field's type: the configuration's, else the only one made for the field.
    const gated = kind ? (LIST_KIND_INFO[kind].type === left.type ? kind : undefined) : fitting.length === 1 ? fitting[0] : undefined;
    if (this.family === 'http' && (gated === 'hostname' || gated === 'asn')) {
      this.checkPlan(PLAN_GATES.hostnameAndAsnLists.plan, undefined, `\`$${rhs.name}\`, ${LIST_KIND_INFO[gated].label}${kind ? '' : ` (the only kind of list made for \`${this.nameOf(left)}\`)`},`, rhs.span);
    }
    if (kind) {
      const info = LIST_KIND_INFO[kind];
      if (info.type !== left.type) {
        this.report('list-not-allowed', 'error', rhs.span, `\`$${rhs.name}\` is ${info.label}, of ${describeValueType(info.type)} values, and \`${this.nameOf(left)}\` is ${article(left.type)} ${describeValueType(left.type)}: ${describeListUse(kind)}`);
        return false;
      }
      if (this.family === 'http' && !fitting.includes(kind)) {
        this.report('list-kind', 'warning', rhs.span, `\`$${rhs.name}\` is ${info.label}, made for ${describeListUse(kind, true)}, not for \`${this.nameOf(left)}\``);
      }
      return true;
    }
    if (this.family !== 'http' || fitting.length > 0) return true;
    this.report(
      'list-kind',
      'warning',
      rhs.span,
      `no kind of list is made for \`${this.nameOf(left)}\`: IP lists go with the fields of type IP address, ASN lists with \`ip.src.asnum\`, hostname lists with \`http.host\`, redirect lists with \`http.request.full_uri\`; if \`$${rhs.name}\` is one that fits, say its kind in .rulesets.yaml (\`lists: {${rhs.name}: …}\`)`,
    );
    return true;
  }

  /** A list's kind: the configuration's, or IP for a managed list. */
  private listKind(name: string): ListKind | undefined {
    const kinds = this.options.listKinds;
    if (kinds && Object.hasOwn(kinds, name)) return kinds[name];
    if (MANAGED_LISTS.has(name) || HTTP_MANAGED_LISTS.has(name)) return 'ip';
    return undefined;
  }

}

const COMMON_PROTOCOLS = ['tcp', 'udp', 'icmp', 'ipv6-icmp', 'gre', 'esp', 'ah', 'sctp', 'igmp', 'ipv6', 'ipv4', 'ospfigp', 'pim', 'vrrp', 'l2tp'];

const EXPECTED_LITERAL: Record<ScalarType, string> = {
  Integer: 'an integer',
  Ip: 'an IP address',
  Bytes: 'a quoted string',
  Boolean: 'no value',
};

/** The whitespace inside a `strict…wildcard` as written, in words. */
function describeGap(text: string): string {
  const gap = text.slice('strict'.length, text.length - 'wildcard'.length);
  if (/^ +$/.test(gap)) return `${gap.length} spaces`;
  const names: Record<string, string> = { ' ': 'a space', '\t': 'a TAB', '\r': 'a carriage return', '\n': 'a line break' };
  return [...gap.replace(/\r\n/g, '\n')].map((c) => names[c]).join(', ');
}

function describeLiteral(value: Value): string {
  switch (value.kind) {
    case 'integer':
      return `the integer \`${value.value}\``;
    case 'integer-range':
      return `the range \`${value.from}..${value.to}\``;
    case 'string':
      return `the string \`"${value.value}"\``;
    case 'bytes':
      return 'hex bytes';
    case 'ip':
      return 'an IP address';
    case 'ip-range':
      return value.prefixLength !== undefined ? 'the CIDR block' : 'the address range';
    case 'set':
      return 'a `{…}` set';
    case 'list':
      return `the list \`$${value.name}\``;
    case 'invalid':
      return `\`${value.text}\``;
  }
}

/** What a field, call or index expression on the right of a comparison is told. */
function rightSideMessage(operator: string, found: string): string {
  const values = operator === 'in' ? 'a `{…}` set or a `$list`' : 'a value (a number, an address or a `"string"`)';
  return `expected ${values} after \`${operator}\`, found ${found}: the service compares a field, call or index expression on the left with a value on the right`;
}

/** Whether a character may begin a field's name (a letter or `_`): a literal that starts otherwise is none. */
function startsLikeAName(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
}

const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;
const OPERATOR_BEFORE = /(?:==|!=|<=|>=|<|>|&|~|(?:^|[^A-Za-z0-9_.])(?:eq|ne|lt|le|gt|ge|bitwise_and|in|contains|matches|wildcard))$/;

/**
 * A syntax error where a call or an index expression (or a field with a name the value
 * reader stops inside, `cf.edge.server_ip`) stands on the right of a comparison: the parse
 * fails at its `(`, `[` or `_`. Said as what it is, over the whole of it, rather than as the
 * character the parse stopped at; undefined for any other syntax error.
 */
function operandOnTheRight(text: string, syntax: Problem): Problem | undefined {
  const at = syntax.span.start;
  const char = text[at];
  if (char !== '(' && char !== '[' && char !== '_') return undefined;
  // The name the failure is in or right after (a call's `(` may follow spaces and line breaks).
  let nameEnd = at;
  if (char === '(') while (nameEnd > 0 && /[ \r\n]/.test(text[nameEnd - 1])) nameEnd--;
  let start = nameEnd;
  while (start > 0 && (IDENTIFIER_CHAR.test(text[start - 1]) || text[start - 1] === '.')) start--;
  let end = at;
  while (end < text.length && (IDENTIFIER_CHAR.test(text[end]) || text[end] === '.')) end++;
  if (start === nameEnd && char !== '_') return undefined;
  if (!/^[A-Za-z_]/.test(text[start]) || !/[A-Za-z_]/.test(text.slice(start, Math.max(end, nameEnd)))) return undefined;
  let before = start;
  while (before > 0 && /[ \r\n]/.test(text[before - 1])) before--;
  const operator = OPERATOR_BEFORE.exec(text.slice(Math.max(0, before - 12), before));
  if (!operator) return undefined;
  // Its arguments and index steps, by the brackets of its tokens (strings and raw strings are tokens).
  let from = end;
  while (from < text.length && /[ \r\n]/.test(text[from])) from++;
  if (text[from] !== '(') from = end;
  let i = from;
  let depth = 0;
  for (const token of scanTokens(text.slice(from))) {
    const at = from + token.span.start;
    if (depth === 0 && (at !== i || !(token.text === '[' || (token.text === '(' && at === from)))) break;
    if (token.text === '(' || token.text === '[') depth++;
    else if ((token.text === ')' || token.text === ']') && --depth === 0) i = from + token.span.end;
  }
  // A call or step left open runs to the end: its arguments are all of what follows.
  if (depth > 0) i = text.length;
  const span: Span = { start, end: Math.max(i, end) };
  const written = text.slice(span.start, span.end);
  const what = written.includes('(') ? `the call \`${written}\`` : written.includes('[') ? `the index expression \`${written}\`` : `the field \`${written}\``;
  return problem('field-on-right', 'error', span, rightSideMessage(operator[0].replace(/^[^A-Za-z=!<>&~]/, ''), what));
}

/**
 * What is checked inside an argument of a call whose arguments are not (Checker.callIsLeaf): a
 * comparison or a logical expression, and a call (the one an index expression indexes), which
 * may hold some; a field or a literal is the call's own business.
 */
function innerOfLeafArgument(argument: Argument): Argument | undefined {
  if (argument.kind === 'call') return argument;
  if (argument.kind === 'index') return argument.target.kind === 'call' ? argument.target : undefined;
  return isExpression(argument) ? argument : undefined;
}

const EXAMPLE_VALUE: Record<ScalarType, string> = { Integer: '1', Ip: '192.0.2.1', Bytes: '"…"', Boolean: 'true' };

function article(type: ValueType): string {
  return type === 'Integer' || type === 'Ip' || type.startsWith('Array<') ? 'an' : 'a';
}

/** The type of a value after one index step; undefined when the step does not fit the type. */
function stepType(type: ValueType, step: IndexStep): ValueType | undefined {
  if (step.kind === 'key') return isMapType(type) ? elementType(type) : undefined;
  if (step.kind === 'element') return isArrayType(type) ? elementType(type) : undefined;
  return elementType(type);
}

/**
 * Whether an argument's type is one the parameter takes. `concat` joins arrays of any element
 * type (the reference's parameter is `Bytes or Array<_>`: `concat(a[*] == "x", b[*] == "y")`
 * is an array of Booleans), where the catalogue lists the element types the docs name.
 */
function acceptsType(fn: FunctionInfo, accepted: readonly ValueType[], type: ValueType): boolean {
  if (accepted.includes(type)) return true;
  return fn.name === 'concat' && isArrayType(type) && accepted.some((t) => isArrayType(t));
}

/** A field of a parameter's type, for a message's example. */
function exampleOperand(parameter: ParameterInfo): string {
  const examples: Partial<Record<string, string>> = {
    Bytes: 'http.request.uri.path',
    Ip: 'ip.src',
    Integer: 'http.request.timestamp.sec',
    Boolean: 'ssl',
    'Array<Bytes>': 'http.request.headers.names',
    'Map<Array<Bytes>>': 'http.request.headers',
  };
  for (const type of parameter.types) if (examples[type]) return examples[type]!;
  return 'http.host';
}

function describeKind(kind: ExpressionKind): string {
  return kind === 'filter' ? 'a filter (a rule\'s `expression`)' : 'a value expression';
}

function describeKinds(kinds: readonly ExpressionKind[]): string {
  const names = kinds.map((k) => (k === 'filter' ? 'filters' : 'value expressions (rewrites, redirect targets, header values)'));
  return names.join(' and ');
}

/** `: \`x\` is a field of the packet phases` when the other family has the name; else nothing. */
function otherFamilyNote(name: string, family: PhaseFamily, what: 'field' | 'function'): string {
  const other = catalogueFor(family === 'magic' ? 'magic_transit' : 'http_request_firewall_custom');
  const has = what === 'field' ? other.fields.has(name) : other.functions.has(name);
  return has ? `: \`${name}\` is a ${what} of the ${family === 'magic' ? 'packet (Magic Transit) phases' : 'HTTP phases'}` : '';
}

/** The name in this family's namespace of a managed list of the other's (`svc.vpn` → `cf.vpn`). */
function sameListElsewhere(name: string, managed: { readonly namespace: string; readonly lists: ReadonlyMap<string, unknown> }): string | undefined {
  const dot = name.indexOf('.');
  const here = `${managed.namespace}.${name.slice(dot + 1)}`;
  return (MANAGED_LISTS.has(name) || HTTP_MANAGED_LISTS.has(name)) && managed.lists.has(here) ? here : undefined;
}

/** Where a kind of list goes (LANGUAGE.md §6). */
function describeListUse(kind: ListKind, short = false): string {
  switch (kind) {
    case 'ip':
      return short ? 'the fields of type IP address' : 'IP lists go with the fields of type IP address, such as `ip.src`';
    case 'asn':
      return short ? '`ip.src.asnum`' : 'ASN lists go with `ip.src.asnum`';
    case 'hostname':
      return short ? '`http.host`' : 'hostname lists go with `http.host`';
    case 'redirect':
      return short ? '`http.request.full_uri` (Bulk Redirects)' : 'redirect lists go with `http.request.full_uri`, in Bulk Redirect rules';
  }
}
