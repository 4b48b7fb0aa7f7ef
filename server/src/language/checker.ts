import { analyze, type Forms } from './analyses';
import type { Argument, Comparison, ComparisonOperator, Expression, FieldReference, FunctionCall, IndexedOperand, Literal, QuantifierExpression, ScalarType, Span, Value } from './ast';
import { walkExpression } from './ast';
import { COUNTRIES, GEOLOCATION_ONLY_CODES, RESERVED_COUNTRY_HINTS, RESERVED_COUNTRY_REPLACEMENTS } from './catalogue/countries';
import { describeType, FIELDS, hasCompleteFieldTable, type FieldInfo } from './catalogue/fields';
import { FUNCTIONS } from './catalogue/functions';
import { COMPARISON_OPERATORS, OPERATORS_BY_TYPE, ORDERING_OPERATORS, WHOLE_VALUE_OPERATORS } from './catalogue/operators';
import { isWellFormedListName, MANAGED_LIST_NAMESPACE, MANAGED_LISTS } from './catalogue/lists';
import { IP_PROTOCOL_ALIASES, IP_PROTOCOLS } from './catalogue/protocols';
import { isKeyword, scanTokens } from './lex';
import { MAX_NESTING_DEPTH, nestingTooDeep, parseExpression } from './parser';
import type { Plan } from './catalogue/plans';
import { problem, replaceFix, type Fix, type Problem } from './problem';
import { closestMatches, quoteAlternatives } from './suggest';
// Lints (lints.ts): one call, after the checker's pass.
import { catalogueFor } from './catalogue/catalogues';
import { lint } from './lints';

export interface CheckOptions {
  /** The ruleset's phase; decides whether an unknown field is reported. */
  readonly phase?: string;
  /**
   * Names of the account's own lists (without `$`). When given, other names are reported;
   * when not, any well-formed account list name is accepted.
   */
  readonly knownLists?: readonly string[];
  /** The account's plan: what needs a higher plan is reported. Undefined: no plan is assumed. */
  readonly plan?: Plan;
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
  const parsed = parseExpression(source, { fieldType: (name) => FIELDS.get(name)?.type });
  // A spaced range always leaves a problem on its `-`: most expressions have none, and no walk.
  const problems = parsed.ast && parsed.problems.length > 0 ? joinSpacedRanges(source, parsed.ast, parsed.problems) : [...parsed.problems];
  if (parsed.ast) new Checker(source, options, problems).check(parsed.ast);
  // Lints (lints.ts): what the service accepts but never matches, or is almost surely a mistake.
  if (parsed.ast) lint(parsed.ast, source, catalogueFor(options.phase), options, problems);
  // The reference reads left to right and stops at its first error: a field it does not know
  // before the place the parse failed is what it reports. Both are worth a word.
  const syntax = parsed.ast ? undefined : parsed.problems.find((p) => p.code === 'syntax-error');
  if (syntax) new Checker(source, options, problems).checkFieldNamesBefore(syntax.span.start);
  // The static analyses reason about what the expression means: only when it surely means it.
  let forms: Forms | undefined;
  if (parsed.ast && !problems.some((p) => p.severity === 'error')) {
    const analysis = analyze(parsed.ast, text);
    for (const p of analysis.problems) problems.push(p);
    forms = analysis.forms;
  }
  if (problems.length > 1) problems.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  if (!parsed.ast) return { text: source, problems };
  return forms ? { ast: parsed.ast, text: source, problems, forms } : { ast: parsed.ast, text: source, problems };
}

/**
 * A range written with spaces (`{80 - 90}`, `{10.0.0.0 - 10.0.0.255}`) reads as three members,
 * the middle one a lone `-` or `:` with its own error: one mistake, said once, on the three,
 * with the fix.
 */
function joinSpacedRanges(text: string, ast: Expression, problems: readonly Problem[]): Problem[] {
  let result = [...problems];
  walkExpression(ast, (node) => {
    if (node.kind !== 'comparison' || node.rhs?.kind !== 'set') return;
    const items = node.rhs.items;
    for (let i = 0; i + 2 < items.length; i++) {
      const [from, dash, to] = [items[i], items[i + 1], items[i + 2]];
      if (dash.kind !== 'invalid' || (dash.text !== '-' && dash.text !== ':')) continue;
      const family = from.kind === 'integer' && to.kind === 'integer' ? 'integer' : from.kind === 'ip' && to.kind === 'ip' ? 'ip' : undefined;
      if (!family) continue;
      const span: Span = { start: from.span.start, end: to.span.end };
      const range = `${text.slice(from.span.start, from.span.end)}..${text.slice(to.span.start, to.span.end)}`;
      const joined = problem(family === 'integer' ? 'invalid-integer' : 'invalid-ip', 'error', span, `\`${text.slice(span.start, span.end)}\` is not a range: a range is written \`${range}\`, without spaces`, [replaceFix(`Change to \`${range}\``, span, range)]);
      result = [...result.filter((p) => p.span.start < dash.span.start || p.span.end > dash.span.end), joined];
    }
  });
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
  return text.replace(EDGE_WHITESPACE, (run) => ' '.repeat(run.length));
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
  readonly name: string;
  readonly field?: FieldInfo;
  /** Inclusive bounds of the values it can take (Integer). */
  readonly range?: readonly [bigint, bigint];
}

class Checker {
  private readonly completeFieldTable: boolean;

  constructor(
    private readonly text: string,
    private readonly options: CheckOptions,
    private readonly problems: Problem[],
  ) {
    this.completeFieldTable = hasCompleteFieldTable(options.phase);
  }

  check(root: Expression): void {
    this.checkDepth(root);
    walkExpression(root, (node) => {
      if (node.kind === 'comparison') this.checkComparison(node);
      else if (node.kind === 'quantifier') this.checkQuantifier(node);
    });
  }

  private report(code: string, severity: Problem['severity'], span: Span, message: string, fixes?: readonly Fix[]): void {
    this.problems.push(problem(code, severity, span, message, fixes));
  }

  private checkDepth(root: Expression): void {
    // Every `(`, `not`, call and quantifier is a level, as the reference counts them, also
    // inside the arguments of calls and quantifiers.
    const stack: { node: Argument; depth: number }[] = [{ node: root, depth: 0 }];
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      // Reported on the token that opens the level past the limit, as the scan does.
      const opening = this.levelOpening(node);
      if (opening && depth >= MAX_NESTING_DEPTH) {
        this.problems.push(nestingTooDeep(opening));
        return;
      }
      if (node.kind === 'group') stack.push({ node: node.inner, depth: depth + 1 });
      else if (node.kind === 'not') stack.push({ node: node.operand, depth: depth + 1 });
      else if (node.kind === 'logical') for (const operand of node.operands) stack.push({ node: operand, depth });
      else if (node.kind === 'quantifier') stack.push({ node: node.argument, depth: depth + 1 });
      else if (node.kind === 'comparison') stack.push({ node: node.lhs, depth });
      else if (node.kind === 'index') stack.push({ node: node.target, depth });
      else if (node.kind === 'call') for (const argument of node.args) stack.push({ node: argument, depth: depth + 1 });
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

  // ------------------------------------------------------------ left side

  private leftSide(comparison: Comparison): LeftSide | undefined {
    const { lhs } = comparison;
    if (lhs.kind === 'call') return this.checkCall(lhs);
    if (lhs.kind === 'index') {
      this.checkIndexed(lhs);
      return undefined;
    }
    return this.fieldSide(lhs);
  }

  /**
   * An index expression, until the checker reads the HTTP phases' catalogue: what it indexes
   * is checked as a left side is, and the fields and functions known here (those of the packet
   * phases) give single values, which take no index step (the reference refuses the step).
   */
  private checkIndexed(lhs: IndexedOperand): void {
    const target = lhs.target.kind === 'call' ? this.checkCall(lhs.target) : this.fieldSide(lhs.target);
    if (!target) return;
    const step = lhs.steps[0];
    const written = this.source(step.span);
    this.report('invalid-index', 'error', step.span, `\`${target.name}\` is ${article(target.type)} ${describeType(target.type)}, not an array or a map, so it takes no index step: \`${written}\` cannot follow it`);
  }

  /**
   * `any(…)`/`all(…)`, until the checker reads the HTTP phases' catalogue: they reduce an array
   * of Booleans, and no field of a phase with a complete table here (the packet phases) is
   * an array. Reported on the argument, as the reference does.
   */
  private checkQuantifier(node: QuantifierExpression): void {
    if (!this.completeFieldTable) return;
    this.report('type-mismatch', 'error', node.argument.span, `\`${node.name.text}(…)\` reduces an array of Booleans, such as \`http.request.headers.names[*] == "x"\` in the HTTP phases, and no field of phase \`${this.options.phase}\` is an array`);
  }

  private fieldSide(lhs: FieldReference): LeftSide | undefined {
    const field = FIELDS.get(lhs.name);
    if (field) return { type: field.type, name: field.name, field, range: field.range };
    if (FUNCTIONS.has(lhs.name)) {
      this.report('missing-arguments', 'error', lhs.span, `\`${lhs.name}\` is a function: call it with its arguments, e.g. \`${FUNCTIONS.get(lhs.name)!.example}\``);
      return undefined;
    }
    if (this.completeFieldTable) this.reportUnknownField(lhs.name, lhs.span);
    return undefined;
  }

  /**
   * Where no tree could be built: the words before `end` that stand where a field name does
   * (at the start, or after `(`, `not`, `and`, `or`, `xor`) but name no field or function.
   */
  checkFieldNamesBefore(end: number): void {
    if (!this.completeFieldTable) return;
    const tokens = scanTokens(this.text, { limit: end });
    tokens.forEach((token, i) => {
      if (token.kind !== 'word' || token.span.end > end || !FIELD_NAME_SHAPE.test(token.text) || isKeyword(token.text)) return;
      const before = tokens[i - 1];
      if (before && !BEFORE_AN_OPERAND.has(before.text)) return;
      if (FIELDS.has(token.text) || FUNCTIONS.has(token.text) || tokens[i + 1]?.kind === '(') return;
      this.reportUnknownField(token.text, token.span);
    });
  }

  private reportUnknownField(name: string, span: Span): void {
    const fieldNames = [...FIELDS.keys()];
    const lastPart = name.slice(name.lastIndexOf('.') + 1);
    const sameLastPart = fieldNames.filter((f) => f.endsWith(`.${lastPart}`) && f !== name);
    const suggestions = [...new Set([...closestMatches(name, fieldNames), ...sameLastPart])].slice(0, 3);
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : '';
    this.report(
      'unknown-field',
      'error',
      span,
      `unknown field \`${name}\` in phase \`${this.options.phase}\`${hint}`,
      suggestions.map((s) => replaceFix(`Change to \`${s}\``, span, s)),
    );
  }

  private checkCall(call: FunctionCall): LeftSide | undefined {
    const fn = FUNCTIONS.get(call.name.text);
    // Like fields: a phase without a complete table may well have functions we do not know.
    if (!fn && !this.completeFieldTable) return undefined;
    if (!fn) {
      const suggestions = closestMatches(call.name.text, FUNCTIONS.keys());
      const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : '';
      this.report('unknown-function', 'error', call.name.span, `unknown function \`${call.name.text}\`${hint}`, suggestions.map((s) => replaceFix(`Change to \`${s}\``, call.name.span, s)));
      return undefined;
    }
    const found = fn.check(call, this.text);
    for (const p of found.problems) this.problems.push(p);
    return { type: fn.resultType, name: `${call.name.text}(…)`, range: found.resultRange };
  }

  // ------------------------------------------------------------ comparisons

  private checkComparison(comparison: Comparison): void {
    const left = this.leftSide(comparison);
    const { operator, rhs } = comparison;
    if (!operator || !rhs) {
      if (left && left.type !== 'Boolean') {
        const example = left.field?.example ?? `${left.name} == 1`;
        const lhs = comparison.lhs;
        const subject = lhs.kind === 'call' ? `the call of \`${lhs.name.text}\`` : `\`${left.name}\``;
        this.report('missing-operator', 'error', comparison.lhs.span, `expected a comparison after ${subject}, which is ${article(left.type)} ${describeType(left.type)}, not a Boolean: e.g. \`${example}\``);
      }
      return;
    }
    if (operator.operator === 'strict_wildcard' && operator.text !== 'strict wildcard') {
      // Reported first: the reference stops there, before it looks at the field's type.
      this.report('strict-wildcard-spacing', 'error', operator.span, `expected \`strict wildcard\` with exactly one space between the words, found ${describeGap(operator.text)}; the service reads no operator there`, [
        replaceFix('Write `strict wildcard` with one space', operator.span, 'strict wildcard'),
      ]);
    }
    // After a pattern operator a list is no pattern, whatever it holds: checkShape says so.
    if (!STRING_PATTERN_OPERATORS.includes(operator.operator)) this.checkListReferences(rhs, left);
    if (!left) return;
    if (left.type === 'Boolean') {
      this.reportBooleanComparison(comparison, left.name);
      return;
    }
    const allowed = OPERATORS_BY_TYPE[left.type];
    if (!allowed.includes(operator.operator)) {
      this.report('invalid-operator', 'error', operator.span, `\`${operator.text}\` cannot be used with \`${left.name}\` (${describeType(left.type)}); use one of ${allowed.map((o) => `\`${COMPARISON_OPERATORS.get(o)!.usual}\``).join(', ')}`);
      return;
    }
    if (left.type === 'Ip' && ORDERING_OPERATORS.includes(operator.operator)) {
      this.report('ip-ordering', 'warning', operator.span, `the service does not support ordering IP addresses with \`${operator.text}\`; use \`in {start..end}\` or a CIDR block`);
    }
    if (!this.checkShape(comparison, left)) return;
    for (const literal of literalsOf(rhs)) this.checkLiteral(literal, left, operator.operator);
    if (rhs.kind === 'set' && rhs.items.length === 0) {
      this.report('empty-set', 'warning', rhs.span, `\`${left.name} in {}\` never matches: the set is empty`);
    }
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
      const newText = truthy ? name : `not ${name}`;
      fixes.push(replaceFix(`Change to \`${newText}\``, comparison.span, newText));
    }
    this.report('boolean-comparison', 'error', span, `\`${name}\` is a Boolean field: it takes no operator or value; write \`${name}\` or \`not ${name}\``, fixes);
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
      const message = `${describeLiteral(rhs)} can only be used inside a \`{…}\` set, with \`in\`: \`${left.name} in {…}\``;
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
      if (operator !== 'bitwise_and') this.checkIntegerRange(literal, left);
      return;
    }
    // A pattern (`contains "B"`, `matches "^t"`) or an ordering bound is not a value the
    // field takes, so only equality and membership are held against the catalogues.
    if (literal.kind !== 'string' || !WHOLE_VALUE_OPERATORS.includes(operator)) return;
    if (left.field?.values === 'country') this.checkCountry(literal);
    else if (left.field?.values === 'protocol') this.checkProtocol(literal);
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
    this.report('type-mismatch', 'error', literal.span, `expected ${expected} for \`${left.name}\`, found ${describeLiteral(literal)}${hint}`, fixes);
  }

  private checkIntegerRange(literal: Literal & { kind: 'integer' | 'integer-range' }, left: LeftSide): void {
    if (!left.range) return;
    const [min, max] = left.range;
    const from = literal.kind === 'integer' ? literal.value : literal.from;
    const to = literal.kind === 'integer' ? literal.value : literal.to;
    if (from >= min && to <= max) return;
    const bounds = `\`${left.name}\` (${min}–${max})`;
    if (to < min || from > max) {
      const what = literal.kind === 'integer' ? `${literal.value} is` : `range ${from}..${to} is`;
      this.report('value-out-of-range', 'warning', literal.span, `${what} outside the values of ${bounds}, so it can never match`);
      return;
    }
    const clamped = `${from < min ? min : from}..${to > max ? max : to}`;
    this.report('value-out-of-range', 'warning', literal.span, `range ${from}..${to} reaches past the values of ${bounds}; write \`${clamped}\``, [replaceFix(`Change to \`${clamped}\``, literal.span, clamped)]);
  }

  private checkCountry(literal: Literal & { kind: 'string' }): void {
    const code = literal.value;
    if (COUNTRIES.has(code)) return;
    const upper = code.toUpperCase();
    const quoteFix = (c: string) => replaceFix(`Change to \`"${c}"\` (${COUNTRIES.get(c)})`, literal.span, `"${c}"`);
    if (COUNTRIES.has(upper)) {
      this.report('country-code-case', 'warning', literal.span, `country codes are uppercase: \`"${code}"\` never matches; write \`"${upper}"\` (${COUNTRIES.get(upper)})`, [quoteFix(upper)]);
      return;
    }
    const replacement = RESERVED_COUNTRY_REPLACEMENTS.get(upper);
    const reason = RESERVED_COUNTRY_HINTS.get(upper);
    if (reason) {
      const outcome = GEOLOCATION_ONLY_CODES.has(upper) ? 'not an ISO 3166-1 country code' : 'not a country code, so it never matches';
      this.report('unknown-country-code', 'warning', literal.span, `\`"${code}"\` is ${outcome}: ${reason.replace(/\.$/, '')}`, replacement ? [quoteFix(replacement)] : []);
      return;
    }
    const byName = [...COUNTRIES].filter(([, name]) => name.toLowerCase() === code.toLowerCase() || (code.length > 3 && name.toLowerCase().startsWith(code.toLowerCase())));
    if (byName.length > 0) {
      const codes = byName.slice(0, 3).map(([c]) => c);
      this.report('unknown-country-code', 'warning', literal.span, `expected a two-letter ISO 3166-1 country code, found \`"${code}"\`; did you mean ${codes.map((c) => `\`"${c}"\` (${COUNTRIES.get(c)})`).join(' or ')}?`, codes.map(quoteFix));
      return;
    }
    this.report('unknown-country-code', 'warning', literal.span, `expected a two-letter ISO 3166-1 country code such as \`"BR"\` or \`"GB"\`, found \`"${code}"\`, which is not assigned`);
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
    if (left && left.type !== 'Ip') {
      this.report('list-not-allowed', 'error', rhs.span, `lists hold IP addresses and can only be used with \`ip.src\` or \`ip.dst\`, not with \`${left.name}\` (${describeType(left.type)})`);
      return;
    }
    const name = rhs.name;
    const nameSpan: Span = { start: rhs.span.start + 1, end: rhs.span.end };
    if (name.startsWith(`${MANAGED_LIST_NAMESPACE}.`)) {
      if (MANAGED_LISTS.has(name)) return;
      const suggestions = closestMatches(name, MANAGED_LISTS.keys());
      const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions.map((s) => `$${s}`))}?` : `; the managed lists are ${quoteAlternatives([...MANAGED_LISTS.keys()].map((s) => `$${s}`))}`;
      this.report('unknown-list', 'warning', rhs.span, `unknown managed list \`$${name}\`, which matches nothing${hint}`, suggestions.map((s) => replaceFix(`Change to \`$${s}\``, nameSpan, s)));
      return;
    }
    if (name.includes('.')) {
      this.report('unknown-list', 'warning', rhs.span, `unknown list namespace in \`$${name}\`: managed lists are \`$${MANAGED_LIST_NAMESPACE}.…\` and account lists have no dots`);
      return;
    }
    const known = this.options.knownLists;
    if (known && !known.includes(name)) {
      const suggestions = closestMatches(name, [...known, ...MANAGED_LISTS.keys()]);
      const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions.map((s) => `$${s}`))}?` : '';
      this.report('unknown-list', 'warning', rhs.span, `the account has no list named \`$${name}\`${hint}`, suggestions.map((s) => replaceFix(`Change to \`$${s}\``, nameSpan, s)));
    }
  }
}

const COMMON_PROTOCOLS = ['tcp', 'udp', 'icmp', 'ipv6-icmp', 'gre', 'esp', 'ah', 'sctp', 'igmp', 'ipv6', 'ipv4', 'ospfigp', 'pim', 'vrrp', 'l2tp'];

const EXPECTED_LITERAL: Record<ScalarType, string> = {
  Integer: 'an integer',
  Ip: 'an IP address',
  Bytes: 'a quoted string',
  Boolean: 'no value',
};

function article(type: ScalarType): string {
  return type === 'Integer' || type === 'Ip' ? 'an' : 'a';
}

/** The whitespace inside a `strict…wildcard` as written, in words. */
function describeGap(text: string): string {
  const gap = text.slice('strict'.length, text.length - 'wildcard'.length);
  if (/^ +$/.test(gap)) return `${gap.length} spaces`;
  const names: Record<string, string> = { ' ': 'a space', '\t': 'a TAB', '\r': 'a carriage return', '\n': 'a line break' };
  return [...gap.replace(/\r\n/g, '\n')].map((c) => names[c]).join(', ');
}

function literalsOf(value: Value): readonly Literal[] {
  if (value.kind === 'set') return value.items;
  if (value.kind === 'list') return [];
  return [value];
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
