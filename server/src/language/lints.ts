/**
 * Lints: what the service accepts but can never match, or is almost surely a mistake. The
 * checker (checker.ts) says what the service rejects; this module runs after it, on the same
 * tree, and reads the left side of each comparison itself from the phase's catalogue, so that
 * the two can change apart.
 *
 * Every finding here is one we can prove from a documented fact or from the meaning of the
 * language; where unsure, nothing is said (a false warning is worse than a missed one). The
 * facts come from the Cloudflare docs, cited beside each one (repository cloudflare/cloudflare-docs,
 * path @ commit).
 *
 * No recursion: the depth of the tree is the user's (atomsOf and an explicit stack).
 */
import type { Comparison, ComparisonOperator, Expression, FieldReference, FunctionCall, GroupExpression, IndexedOperand, Literal, LogicalExpression, Operand, Span, StringLiteral, Token, Value, ValueType } from './ast';
import { isOperand } from './ast';
import { atomsOf, pushInnerExpressions } from './atoms';
import type { Catalogue, FieldInfo } from './catalogue/catalogues';
import { COUNTRIES, countryValueName, GEOLOCATION_ONLY_CODES, RESERVED_COUNTRY_HINTS, RESERVED_COUNTRY_REPLACEMENTS } from './catalogue/countries';
import { WHOLE_VALUE_OPERATORS } from './catalogue/operators';
import { wildcardProblem } from './patterns';
import { problem, replaceFix, type Fix, type Problem } from './problem';
import { closestMatches, quoteAlternatives } from './suggest';
import { isScalarType, typeAfterStep } from './types';

export interface LintOptions {
  /** The ruleset's phase; undefined or unknown: the catalogue is the union of both families. */
  readonly phase?: string;
  /** The lints off by default to look for too (`expression-builder`): the configuration turned them on. */
  readonly lints?: readonly string[];
}

/**
 * Every code the lints report. Some are the checker's codes too (the same finding, made on a
 * field the checker does not read yet): a finding the checker already made is not made twice.
 */
export const LINT_CODES: ReadonlySet<string> = new Set([
  'method-case',
  'value-case',
  'extension-dot',
  'header-name-case',
  'unknown-value',
  'country-code-case',
  'unknown-country-code',
  'value-out-of-range',
  'deprecated-field',
  'literal-false',
  'pattern-matches-all',
  'regex-literal',
  'regex-in-literal',
  'wildcard-in-literal',
  'too-many-regexes',
  'mixed-logical-operators',
  'edge-whitespace',
  'expression-builder',
]);

/**
 * The most regular expressions one rule's expression may hold: "Maximum regular expressions
 * per rule" on the docs' Expressions page (https://developers.cloudflare.com/ruleset-engine/rules-language/expressions/,
 * source src/content/docs/ruleset-engine/rules-language/expressions/index.mdx; the page as
 * published on 2026-06-26; the copies of that file in our index, bbfe9a8f6b66249fd19138bf0e660eb3a2bad17d
 * and 327093676fd1bc579510b1edd4208448d044cc6d, predate the section). A rule over it cannot be
 * created or updated, so it is an error.
 */
export const MAX_REGEXES_PER_RULE = 64;

/** Runs every lint over a parsed expression and adds what it finds to `problems`. */
export function lint(ast: Expression, text: string, catalogue: Catalogue, options: LintOptions, problems: Problem[]): void {
  new Linter(text, catalogue, options, problems).run(ast);
}

class Linter {
  /** The keys of the problems found so far, made at the first finding (most expressions have none). */
  declare private said?: Set<string>;
  /** The spans of the regexes, made at the first (most expressions have none). */
  declare private regexes?: Span[];
  /** Whether the text holds a `*`, a `^` or an escape: asked at the first string compared as a literal. */
  declare private patternSyntax?: boolean;

  constructor(
    private readonly text: string,
    private readonly catalogue: Catalogue,
    private readonly options: LintOptions,
    private readonly problems: Problem[],
  ) {}

  run(root: Expression): void {
    this.checkLiteralFalse(root);
    const atoms = atomsOf(root);
    for (let i = 0; i < atoms.length; i++) {
      const atom = atoms[i];
      if (atom.kind === 'comparison') this.checkComparison(atom);
      else if (isOperand(atom.argument)) this.checkOperands(atom.argument);
    }
    this.checkRegexCount();
    this.checkEdgeWhitespace();
    this.checkLogicalStructure(root);
  }

  private report(found: Problem): void {
    // Every problem is pushed here once it has its key: the set holds the keys of all of them.
    this.said ??= new Set(this.problems.map(key));
    const foundKey = key(found);
    if (this.said.has(foundKey)) return;
    this.said.add(foundKey);
    this.problems.push(found);
  }

  private source(span: Span): string {
    return this.text.slice(span.start, span.end);
  }

  // ------------------------------------------------------------ operands anywhere

  /**
   * An operand that is not a lone field (checkComparison reads those), and every operand inside
   * its calls' arguments: deprecated names and map keys are wrong wherever they stand. The
   * logical expressions among the arguments are atomsOf's.
   */
  private checkOperands(root: Operand): void {
    if (root.kind === 'field') return this.checkDeprecated(root, this.catalogue.fields.get(root.name), undefined);
    const stack: Operand[] = [root];
    while (stack.length > 0) {
      const operand = stack.pop()!;
      const target = operand.kind === 'index' ? operand.target : operand;
      if (target.kind === 'call') {
        // The regex of regex_replace counts toward the limit like that of `matches`.
        if (target.name.text === 'regex_replace' && target.args[1]?.kind === 'string') (this.regexes ??= []).push(target.args[1].span);
        for (let i = 0; i < target.args.length; i++) {
          const argument = target.args[i];
          if (isOperand(argument)) stack.push(argument);
        }
        continue;
      }
      const field = this.catalogue.fields.get(target.name);
      if (operand.kind === 'index') this.checkMapKey(operand, field);
      this.checkDeprecated(target, field, undefined);
    }
  }

  // ------------------------------------------------------------ map keys

  /**
   * `http.request.headers["X-Api-Key"]`: the docs give the header maps' keys as the header
   * names converted to lowercase (src/content/fields/index.yaml @ 0026d94e5cfaf580bdb1871f5dc1380029fd9c28,
   * `http.request.headers` and `http.response.headers`; the catalogue marks them `keys: 'lowercase'`),
   * so a key with a capital letter is never present.
   */
  private checkMapKey(operand: IndexedOperand, field: FieldInfo | undefined): void {
    const step = operand.steps[0];
    if (field?.keys !== 'lowercase' || step.kind !== 'key' || !/[A-Z]/.test(step.key)) return;
    const lower = asciiLower(step.key);
    const quoted = quote(lower);
    const fixes = quoted === undefined ? [] : [replaceFix(`Change to \`[${quoted}]\``, step.keySpan, quoted)];
    const suggestion = quoted === undefined ? 'write the key in lowercase' : `write \`[${quoted}]\``;
    this.report(
      problem(
        'header-name-case',
        'warning',
        step.keySpan,
        `the keys of \`${field.name}\` are header names in lowercase, so \`${this.source(step.keySpan)}\` is never one of them and this lookup never finds a value; ${suggestion}`,
        fixes,
      ),
    );
  }

  // ------------------------------------------------------------ deprecated fields

  /**
   * A deprecated field, as a hint with the rewrite that keeps what the rule matches. In the
   * HTTP phases each `ip.geoip.*` field has the same value as its `ip.src.*` replacement
   * (src/content/fields/index.yaml @ 0026d94e5cfaf580bdb1871f5dc1380029fd9c28, the `ip.src.*`
   * entries), so the name alone changes, wherever it stands. In Magic Firewall
   * `ip.geoip.country` matches on the source or the destination address
   * (src/content/docs/ruleset-engine/rules-language/fields/magic-firewall.mdx @ abe3a22c94adc7c15c2efd5c300c37817893b300):
   * the catalogue gives it both replacements, and only a positive comparison of a whole value
   * (`==`, `in`) has a certain rewrite, one comparison per replacement joined with `or`.
   */
  private checkDeprecated(reference: FieldReference, field: FieldInfo | undefined, comparison: Comparison | undefined): void {
    const replacements = field?.deprecated?.replacements;
    if (!field || !replacements || replacements.length === 0) return;
    // In a phase we do not know, what the name means there is unknown too.
    if (this.catalogue.family === undefined) return;
    const span = reference.span;
    if (replacements.length === 1) {
      const [to] = replacements;
      this.report(problem('deprecated-field', 'information', span, `\`${field.name}\` is deprecated: \`${to}\` has the same value; write \`${to}\``, [replaceFix(`Change to \`${to}\``, span, to)]));
      return;
    }
    // Several replacements: `ip.geoip.country` of the packet phases, the only such field (the docs above).
    const names = replacements.map((name) => `\`${name}\``).join(' and/or ');
    const meaning = `\`${field.name}\` is deprecated: in this phase it tests the country of the source or of the destination address; write ${names}`;
    const operator = comparison?.operator;
    const rhs = comparison?.rhs;
    if (comparison && operator && rhs && (operator.operator === 'eq' || (operator.operator === 'in' && rhs.kind === 'set'))) {
      const rest = this.text.slice(operator.span.start, rhs.span.end);
      const rewritten = `(${replacements.map((name) => `${name} ${rest}`).join(' or ')})`;
      this.report(problem('deprecated-field', 'information', span, `${meaning}: \`${rewritten}\` matches the same packets`, [replaceFix(`Change to \`${rewritten}\``, comparison.span, rewritten)]));
      return;
    }
    const why = operator
      ? `\`${operator.text}\` on either address has no rewrite that surely matches the same packets`
      : 'where it stands here, no rewrite surely matches the same packets';
    this.report(problem('deprecated-field', 'information', span, `${meaning}; ${why}, so rewrite it as you mean it`));
  }

  // ------------------------------------------------------------ a rule that is `false`

  /** The whole expression is `false` (in parentheses or not): the rule never matches. */
  private checkLiteralFalse(root: Expression): void {
    let node = root;
    while (node.kind === 'group') node = node.inner;
    if (node.kind !== 'boolean' || node.value) return;
    this.report(problem('literal-false', 'warning', node.span, 'the expression is the literal `false`, so the rule never matches; to switch a rule off, set `enabled: false` on it instead'));
  }

  // ------------------------------------------------------------ comparisons

  /**
   * A comparison and its left side. The field the left side is, or reads through index steps,
   * is looked up once for all the lints.
   */
  private checkComparison(comparison: Comparison): void {
    const { lhs, operator, rhs } = comparison;
    const target = lhs.kind === 'index' ? lhs.target : lhs;
    const field = target.kind === 'field' ? this.catalogue.fields.get(target.name) : undefined;
    if (operator && rhs) this.checkOperation(comparison, operator.operator, rhs, field);
    // Only a field that is the whole operand may be rewritten with its comparison; it is also the common case.
    if (lhs.kind === 'field') this.checkDeprecated(lhs, field, comparison);
    else this.checkOperands(lhs);
  }

  /** What the operator and the value say of the left side, `field` the field it reads (if any). */
  private checkOperation(comparison: Comparison, operator: ComparisonOperator, rhs: Value, field: FieldInfo | undefined): void {
    if (operator === 'matches' && rhs.kind === 'string') (this.regexes ??= []).push(rhs.span);
    const reached = field && this.reachedType(comparison.lhs, field);
    // Only a String or an Integer is compared with what follows; anything else is the checker's.
    const type = reached ?? this.stringCall(comparison.lhs);
    const reachedField = reached === undefined ? undefined : field;
    if (type === 'Bytes') this.checkPatterns(comparison, operator, rhs, reachedField);
    if (comparison.lhs.kind === 'call') this.checkCallResult(comparison.lhs, operator, rhs);
    // Only fields with documented values (Strings) or bounds (Integers, outside the packet
    // phases, whose bounds are the checker's: checkIntegerRange) have whole values to check.
    if (!reachedField || !this.hasWholeValues(reached!, reachedField) || !WHOLE_VALUE_OPERATORS.includes(operator)) return;
    if (rhs.kind === 'set') for (let i = 0; i < rhs.items.length; i++) this.checkWholeValue(rhs.items[i], reached!, reachedField, operator);
    else if (rhs.kind !== 'list') this.checkWholeValue(rhs, reached!, reachedField, operator);
  }

  /** Whether checkWholeValue can find anything in a value of `field`, read as `type`. */
  private hasWholeValues(type: ValueType, field: FieldInfo): boolean {
    if (type === 'Integer') return field.range !== undefined && this.catalogue.family !== 'magic';
    return type === 'Bytes' && field.values !== undefined;
  }

  private checkWholeValue(literal: Literal, type: ValueType, field: FieldInfo, operator: ComparisonOperator): void {
    if (type === 'Integer' && (literal.kind === 'integer' || literal.kind === 'integer-range')) this.checkIntegerRange(literal, field, operator === 'ne');
    else if (type === 'Bytes' && literal.kind === 'string' && literal.bytes === undefined) this.checkStringValue(literal, field);
  }

  /**
   * The type of what the left side compares, `field` alone or with the index steps that lead to
   * one of its values, as the catalogue of the phase gives it; undefined for a call (a function
   * changes the value, so the field's documented form no longer holds) or steps that reach no
   * single value.
   */
  private reachedType(lhs: Operand, field: FieldInfo): ValueType | undefined {
    if (lhs.kind !== 'index') return field.type;
    let type: ValueType | undefined = field.type;
    for (let i = 0; i < lhs.steps.length; i++) type = type && typeAfterStep(type, lhs.steps[i].kind);
    return type && isScalarType(type) ? type : undefined;
  }

  /** The String a call or an indexed call gives, when the catalogue says so (for the pattern lints). */
  private stringCall(lhs: Operand): ValueType | undefined {
    if (lhs.kind !== 'call') return undefined;
    const result = this.catalogue.functions.get(lhs.name.text)?.result;
    return result === 'Bytes' ? 'Bytes' : undefined;
  }

  // ------------------------------------------------------------ what a call gives

  /**
   * Values a call never gives, by the functions page (src/content/docs/ruleset-engine/rules-language/functions.mdx
   * @ 12cd7d04ee8fc78422ffcb0a63ed83f5c2ce8475): `lower(…)` turns every ASCII capital into a
   * small letter and `upper(…)` the reverse, so a whole value with the other case never matches;
   * `len(…)` counts bytes or elements, so it is never negative.
   */
  private checkCallResult(call: FunctionCall, operator: ComparisonOperator, rhs: Value): void {
    const name = call.name.text;
    if ((name === 'lower' || name === 'upper') && WHOLE_VALUE_OPERATORS.includes(operator)) {
      const items = rhs.kind === 'set' ? rhs.items : [rhs];
      for (let i = 0; i < items.length; i++) {
        const literal = items[i];
        if (literal.kind === 'string' && literal.bytes === undefined) this.checkCaseOfCall(name, literal);
      }
    } else if (name === 'len') {
      const items = rhs.kind === 'set' ? rhs.items : [rhs];
      for (let i = 0; i < items.length; i++) {
        const literal = items[i];
        if (literal.kind === 'integer' && literal.value < 0n) this.reportNegativeLength(literal, operator);
      }
    }
  }

  private checkCaseOfCall(name: 'lower' | 'upper', literal: StringLiteral): void {
    const value = literal.value;
    const converted = name === 'lower' ? asciiLower(value) : value.replace(/[a-z]+/g, (run) => run.toUpperCase());
    if (converted === value) return;
    const quoted = quote(converted);
    const write = quoted === undefined ? `write it in ${name}case` : `write \`${quoted}\``;
    const gives = name === 'lower' ? 'turns every ASCII capital into a small letter' : 'turns every small ASCII letter into a capital';
    this.report(
      problem('value-case', 'warning', literal.span, `\`${name}(…)\` ${gives}, so \`${this.source(literal.span)}\` is never its value; ${write}`, quoted === undefined ? [] : [replaceFix(`Change to \`${quoted}\``, literal.span, quoted)]),
    );
  }

  private reportNegativeLength(literal: Literal, operator: ComparisonOperator): void {
    const always = operator === 'ne' || operator === 'gt' || operator === 'ge';
    const outcome = always ? 'so this comparison always holds' : 'so this comparison never matches';
    this.report(problem('value-out-of-range', 'warning', literal.span, `\`len(…)\` counts bytes or elements and is never negative, ${outcome}`));
  }

  // ------------------------------------------------------------ values by the field's form

  private checkStringValue(literal: StringLiteral, field: FieldInfo): void {
    switch (field.values) {
      case 'method':
        return this.checkMethod(literal, field);
      case 'lowercase':
        return this.checkLowercase(literal, field);
      case 'continent':
      case 'one-of':
        return this.checkOneOf(literal, field);
      case 'country': {
        const found = countryCodeProblem(literal);
        if (found) this.report(found);
        return;
      }
      default:
        return;
    }
  }

  /**
   * The method is a string of uppercase characters (src/content/fields/index.yaml @
   * 0026d94e5cfaf580bdb1871f5dc1380029fd9c28, `http.request.method`), and values compare
   * byte for byte (operators.mdx @ 38b341dd91824bf2fb5d0f9dd02257a3b12fd64b: string comparison is
   * case sensitive), so a lowercase letter never matches.
   */
  private checkMethod(literal: StringLiteral, field: FieldInfo): void {
    if (!/[a-z]/.test(literal.value)) return;
    const upper = literal.value.replace(/[a-z]+/g, (run) => run.toUpperCase());
    const quoted = quote(upper);
    const write = quoted === undefined ? 'write it in uppercase' : `write \`${quoted}\``;
    this.report(
      problem('method-case', 'warning', literal.span, `\`${field.name}\` holds the method in uppercase, so \`${this.source(literal.span)}\` is never its value; ${write}`, quoted === undefined ? [] : [replaceFix(`Change to \`${quoted}\``, literal.span, quoted)]),
    );
  }

  /**
   * A field the docs give in lowercase: the path extension, lowercased and without the dot
   * (src/content/fields/index.yaml @ 0026d94e5cfaf580bdb1871f5dc1380029fd9c28,
   * `http.request.uri.path.extension`: the text after the last dot of the path), and the
   * response's media type (same file, `http.response.content_type.media_type`).
   */
  private checkLowercase(literal: StringLiteral, field: FieldInfo): void {
    const value = literal.value;
    const lower = asciiLower(value);
    if (field.name === PATH_EXTENSION && value.includes('.')) {
      // The extension is what follows the path's last dot: it never holds a dot itself.
      const bare = lower.replace(/^\.+/, '');
      const quoted = bare.length > 0 && !bare.includes('.') ? quote(bare) : undefined;
      const fix = quoted === undefined ? '' : `; write \`${quoted}\``;
      const last = lower.slice(lower.lastIndexOf('.') + 1);
      const hint = quoted === undefined && bare.includes('.') && last !== '' ? ` (for a path ending in \`.${lower}\` it holds \`${quote(last) ?? last}\`, as for any path ending in \`.${last}\`)` : '';
      this.report(
        problem(
          'extension-dot',
          'warning',
          literal.span,
          `\`${field.name}\` holds the text after the last dot of the path, lowercase and without the dot${hint}, so \`${this.source(literal.span)}\` is never its value${fix}`,
          quoted === undefined ? [] : [replaceFix(`Change to \`${quoted}\``, literal.span, quoted)],
        ),
      );
      return;
    }
    if (lower === value) return;
    const quoted = quote(lower);
    const write = quoted === undefined ? 'write it in lowercase' : `write \`${quoted}\``;
    this.report(
      problem('value-case', 'warning', literal.span, `\`${field.name}\` is always lowercase, so \`${this.source(literal.span)}\` is never its value; ${write}`, quoted === undefined ? [] : [replaceFix(`Change to \`${quoted}\``, literal.span, quoted)]),
    );
  }

  /**
   * A closed set of values the docs list (FieldInfo.oneOf): continent codes (index.yaml,
   * `ip.src.continent`), the WAF score class, content scan results, LLM prompt categories, the
   * error type of a response (index.yaml @ 0026d94e5cfaf580bdb1871f5dc1380029fd9c28, each field's
   * description).
   */
  private checkOneOf(literal: StringLiteral, field: FieldInfo): void {
    const values = field.oneOf;
    if (!values || values.includes(literal.value)) return;
    const sameLetters = values.filter((v) => v.toLowerCase() === literal.value.toLowerCase());
    const suggestions = sameLetters.length > 0 ? sameLetters : closestMatches(literal.value, values);
    const quoted = suggestions.map((s) => quote(s)!);
    const hint = quoted.length > 0 ? `; did you mean ${quoteAlternatives(quoted)}?` : '';
    const all = values.map((v) => `\`${quote(v)}\``).join(', ');
    this.report(
      problem(
        'unknown-value',
        'warning',
        literal.span,
        `expected one of the values of \`${field.name}\` (${all}), found \`${this.source(literal.span)}\`, which it never holds${hint}`,
        quoted.map((q) => replaceFix(`Change to \`${q}\``, literal.span, q)),
      ),
    );
  }

  /**
   * An integer outside the field's documented bounds (FieldInfo.range, each with its source in
   * the catalogue), as the checker's value-out-of-range says it for the packet fields, here for
   * whole values only: `==` and `in` never match it, `!=` always does.
   */
  private checkIntegerRange(literal: Literal & { kind: 'integer' | 'integer-range' }, field: FieldInfo, negated: boolean): void {
    // The packet phases' fields: the checker's (checkIntegerRange there).
    if (!field.range || this.catalogue.family === 'magic') return;
    const [min, max] = field.range;
    const from = literal.kind === 'integer' ? literal.value : literal.from;
    const to = literal.kind === 'integer' ? literal.value : literal.to;
    if (from >= min && to <= max) return;
    const bounds = `\`${field.name}\` (${min}–${max})`;
    if (to < min || from > max) {
      const what = literal.kind === 'integer' ? `${literal.value} is` : `range ${from}..${to} is`;
      const outcome = negated ? 'so `!=` is always true' : 'so it can never match';
      this.report(problem('value-out-of-range', 'warning', literal.span, `${what} outside the values of ${bounds}, ${outcome}`));
      return;
    }
    const clamped = `${from < min ? min : from}..${to > max ? max : to}`;
    this.report(problem('value-out-of-range', 'warning', literal.span, `range ${from}..${to} reaches past the values of ${bounds}; write \`${clamped}\``, [replaceFix(`Change to \`${clamped}\``, literal.span, clamped)]));
  }

  // ------------------------------------------------------------ patterns

  /** A String compared (`field`: the field it is, or reads through index steps) by a pattern or a literal. */
  private checkPatterns(comparison: Comparison, operator: ComparisonOperator, rhs: Value, field: FieldInfo | undefined): void {
    switch (operator) {
      case 'matches':
        if (rhs.kind === 'string') this.checkRegex(comparison, rhs);
        return;
      case 'wildcard':
      case 'strict_wildcard':
        // `*` matches any run of characters, the empty one too, and the whole value must match
        // (operators.mdx @ 38b341dd91824bf2fb5d0f9dd02257a3b12fd64b, "Wildcard matching").
        if (rhs.kind === 'string' && rhs.value === '*') this.reportMatchesAll(comparison, rhs);
        return;
      case 'contains':
        if (rhs.kind === 'string' && rhs.value === '' && rhs.bytes === undefined) this.reportMatchesAll(comparison, rhs);
        else if (rhs.kind === 'string' && this.mayHoldPatternSyntax()) this.checkLiteralPattern(comparison, rhs, field);
        return;
      case 'eq':
      case 'ne':
      case 'in':
        if (!this.mayHoldPatternSyntax()) return;
        if (rhs.kind === 'string') this.checkLiteralPattern(comparison, rhs, field);
        else if (rhs.kind === 'set') for (const literal of rhs.items) if (literal.kind === 'string') this.checkLiteralPattern(comparison, literal, field);
        return;
      default:
        return;
    }
  }

  private reportMatchesAll(comparison: Comparison, pattern: StringLiteral): void {
    const subject = this.source(comparison.lhs.span);
    this.report(
      problem(
        'pattern-matches-all',
        'warning',
        pattern.span,
        `\`${this.source(pattern.span)}\` after \`${comparison.operator!.text}\` matches every string, so this comparison holds whenever \`${subject}\` has a value and tells nothing about it; write the pattern you meant, or remove the comparison`,
      ),
    );
  }

  /** The regex of `matches`: one that matches every string, or one that is only a literal. */
  private checkRegex(comparison: Comparison, pattern: StringLiteral): void {
    // An invalid pattern is an error, which the parser reports inside the pattern (parse-semantics.ts,
    // regexLiteral and rawRegexCheck): its meaning is not ours to read. (Checking it again here
    // would cost as much as all the other lints.)
    if (pattern.bytes !== undefined || this.problems.some((p) => p.code === 'invalid-regex' && p.span.start >= pattern.span.start && p.span.end <= pattern.span.end)) return;
    const shape = readRegex(pattern.value);
    if (!shape) return;
    if (matchesEveryString(shape)) {
      this.reportMatchesAll(comparison, pattern);
      return;
    }
    const literal = anchoredLiteral(shape);
    if (literal) this.suggestWithoutRegex(comparison, pattern, literal);
  }

  /**
   * A regex that is only an anchored literal says what `==`, `starts_with` or `ends_with` say
   * without a regex: `matches` needs a Business plan
   * (operators.mdx @ 38b341dd91824bf2fb5d0f9dd02257a3b12fd64b) and counts toward the regexes a
   * rule may hold. `$` ends the text only (the Rust regex crate, without `(?m)`), and the
   * comparison is case sensitive either way.
   */
  private suggestWithoutRegex(comparison: Comparison, pattern: StringLiteral, literal: { start: boolean; end: boolean; text: string }): void {
    const quoted = quote(literal.text);
    if (quoted === undefined) return;
    const operator = comparison.operator!;
    const lhs = this.source(comparison.lhs.span);
    const written = this.source(pattern.span);
    const why = 'without a regular expression (which needs a Business plan and counts toward the 64 a rule may hold)';
    if (!(literal.start && literal.end)) {
      // starts_with / ends_with take the field itself; over `[*]` their result is an array, which
      // `any(…)` would need differently: not rewritten there.
      const name = literal.start ? 'starts_with' : 'ends_with';
      if (comparison.lhs.kind === 'index' && comparison.lhs.steps.some((s) => s.kind === 'each')) return;
      if (!this.functionAvailable(name)) return;
      const call = `${name}(${lhs}, ${quoted})`;
      this.report(
        problem('regex-literal', 'information', pattern.span, `\`${written}\` only tests that \`${lhs}\` ${literal.start ? 'starts' : 'ends'} with \`${quoted}\`: \`${name}(…)\` says the same ${why}`, [
          replaceFix(`Change to \`${call}\``, comparison.span, call),
        ]),
      );
      return;
    }
    // The operator and the pattern become `== "…"`: what stands around the comparison stays.
    const replacement = `== ${quoted}`;
    const span: Span = { start: operator.span.start, end: pattern.span.end };
    this.report(problem('regex-literal', 'information', pattern.span, `\`${written}\` only tests that \`${lhs}\` equals \`${quoted}\`: \`${replacement}\` says the same ${why}`, [replaceFix(`Change to \`${replacement}\``, span, replacement)]));
  }

  /**
   * `== "^/admin"`: where the pattern is only an anchored literal, what it says is known without
   * a regex, and on every plan: `starts_with(…)` (or `ends_with(…)`), or `==` of the literal
   * when it is anchored at both ends, as suggestWithoutRegex rewrites `matches`. Only after
   * `==`, whose right side is the whole value (`!=` and `in` are left as written), and not over
   * `[*]`, where the call would be an array.
   */
  private regexInLiteralFixes(comparison: Comparison, literal: StringLiteral): Fix[] {
    if (comparison.operator!.operator !== 'eq' || comparison.rhs !== literal) return [];
    const shape = readRegex(literal.value);
    const anchored = shape && anchoredLiteral(shape);
    const quoted = anchored && quote(anchored.text);
    if (!anchored || quoted === undefined) return [];
    if (anchored.start && anchored.end) return [replaceFix(`Change to \`${quoted}\``, literal.span, quoted)];
    const lhs = this.source(comparison.lhs.span);
    const name = anchored.start ? 'starts_with' : 'ends_with';
    if (lhs.includes('[*]') || !this.functionAvailable(name)) return [];
    const call = `${name}(${lhs}, ${quoted})`;
    return [replaceFix(`Change to \`${call}\``, comparison.span, call)];
  }

  /** A function of the phase that a filter may call (the catalogue's functions, and their phases). */
  private functionAvailable(name: string): boolean {
    if (this.catalogue.family === undefined) return false;
    const fn = this.catalogue.functions.get(name);
    if (!fn || !fn.expressions.includes('filter')) return false;
    return fn.phases === undefined || (this.options.phase !== undefined && fn.phases.includes(this.options.phase));
  }

  /**
   * Whether a string of the expression may hold a `*` or a `^`, which every sign of a pattern
   * in a literal needs (checkLiteralPattern): its characters are the text's, or escapes. One
   * search of the text spares most expressions the look at each of their strings.
   */
  private mayHoldPatternSyntax(): boolean {
    this.patternSyntax ??= this.text.includes('*') || this.text.includes('^') || this.text.includes('\\');
    return this.patternSyntax;
  }

  /**
   * Pattern syntax where a literal is compared: `==`, `!=`, `in` and `contains` compare the
   * bytes as written; a wildcard works only after `wildcard` / `strict wildcard` and a regex only
   * after `matches` (operators.mdx @ 38b341dd91824bf2fb5d0f9dd02257a3b12fd64b, "Comparing string
   * values").
   */
  private checkLiteralPattern(comparison: Comparison, literal: StringLiteral, field: FieldInfo | undefined): void {
    if (literal.bytes !== undefined) return;
    const operator = comparison.operator!;
    if (looksLikeRegex(literal.value)) {
      const written = this.source(literal.span);
      this.report(
        problem(
          'regex-in-literal',
          'warning',
          literal.span,
          `\`${operator.text}\` compares \`${written}\` as literal text, but it is written as a regular expression (\`^\` and \`.*\` mean nothing here), so it matches only a value holding those very characters; to match a pattern, use \`matches\` (Business plan and above), \`wildcard\`, or a function such as \`starts_with(…)\``,
          this.regexInLiteralFixes(comparison, literal),
        ),
      );
      return;
    }
    // Where a field may well hold a `*` (a header value `*/*`), a star is no sign of a wildcard:
    // only the fields of the URI, which the user does not quote with stars.
    if (operator.operator === 'contains' || !field || field.group !== 'URI' || comparison.lhs.kind !== 'field' || !literal.value.includes('*')) return;
    const written = this.source(literal.span);
    const fixes: Fix[] = [];
    if (operator.operator === 'eq' && comparison.rhs === literal && wildcardProblem(literal, this.text) === undefined) {
      fixes.push(
        replaceFix(`Change \`${operator.text}\` to \`wildcard\` (ignores case)`, operator.span, 'wildcard'),
        replaceFix(`Change \`${operator.text}\` to \`strict wildcard\` (case sensitive)`, operator.span, 'strict wildcard'),
      );
    }
    this.report(
      problem(
        'wildcard-in-literal',
        'warning',
        literal.span,
        `\`${operator.text}\` compares \`${written}\` as literal text, so its \`*\` matches only a star; a \`*\` matches any run of characters only after \`wildcard\` (which ignores case) or \`strict wildcard\` (which does not)`,
        fixes,
      ),
    );
  }

  // ------------------------------------------------------------ the regex count

  private checkRegexCount(): void {
    if (!this.regexes || this.regexes.length <= MAX_REGEXES_PER_RULE) return;
    const sorted = [...this.regexes].sort((a, b) => a.start - b.start);
    const first = sorted[MAX_REGEXES_PER_RULE];
    this.report(
      problem(
        'too-many-regexes',
        'error',
        first,
        `this rule has ${sorted.length} regular expressions and the service takes at most ${MAX_REGEXES_PER_RULE} in one rule; this is number ${MAX_REGEXES_PER_RULE + 1}: use \`contains\`, \`wildcard\`, \`starts_with(…)\` or \`in {…}\` where a pattern is not needed, join patterns with \`|\`, or split the rule`,
      ),
    );
  }

  // ------------------------------------------------------------ style and clarity (issue 35)

  /**
   * Whitespace before or after the expression. The engine trims it before it reads the
   * expression (checker.ts wrote it as spaces, each where it was), so it changes nothing the rule
   * does; the lint is for the reader and for diffs. A YAML block scalar's or a heredoc's own line
   * breaks are the host's form, not the author's: documents/ruleset.ts keeps this off them.
   */
  private checkEdgeWhitespace(): void {
    const text = this.text;
    let start = 0;
    while (start < text.length && text.charCodeAt(start) === 0x20) start++;
    if (start === text.length) return;
    let end = text.length;
    while (text.charCodeAt(end - 1) === 0x20) end--;
    if (start > 0) {
      const span = { start: 0, end: start };
      this.report(problem('edge-whitespace', 'information', span, 'the expression starts with whitespace, which the service ignores when it reads it: remove it', [replaceFix('Remove the whitespace', span, '')]));
    }
    if (end < text.length) {
      const span = { start: end, end: text.length };
      this.report(problem('edge-whitespace', 'information', span, 'the expression ends with whitespace, which the service ignores when it reads it: remove it', [replaceFix('Remove the whitespace', span, '')]));
    }
  }

  /**
   * The logical structure, in one walk of every logical expression (those inside calls'
   * arguments too): `and`/`xor`/`or` mixed without parentheses, and, when the configuration
   * turns it on, what the Expression Builder cannot show.
   */
  private checkLogicalStructure(root: Expression): void {
    const builder = this.options.lints?.includes('expression-builder') === true;
    let firstCall: Token | undefined;
    let nestedGroup: GroupExpression | undefined;
    // Each node with the number of groups holding a logical expression around it (for the
    // builder only). A comparison of a field, the common leaf, holds nothing to look at: not pushed.
    const stack: Expression[] = [root];
    const depths: number[] | undefined = builder ? [0] : undefined;
    let inner: Expression[] | undefined;
    while (stack.length > 0) {
      const node = stack.pop()!;
      const around = depths ? depths.pop()! : 0;
      switch (node.kind) {
        case 'logical':
          for (let i = 0; i < node.operands.length; i++) {
            const operand: Expression = node.operands[i];
            if (operand.kind === 'logical' && operand.operator !== node.operator) this.reportMixed(node, operand);
            if (operand.kind === 'comparison' && operand.lhs.kind === 'field') continue;
            stack.push(operand);
            depths?.push(around);
          }
          break;
        case 'not':
          stack.push(node.operand);
          depths?.push(around);
          break;
        case 'group': {
          // `((a or b))`: one group of two pairs of parentheses, counted at the innermost.
          const logical = node.inner.kind === 'logical';
          if (builder && logical && around > 0 && (!nestedGroup || node.span.start < nestedGroup.span.start)) nestedGroup = node;
          stack.push(node.inner);
          depths?.push(logical ? around + 1 : around);
          break;
        }
        case 'comparison': {
          if (node.lhs.kind === 'field') break;
          const target = node.lhs.kind === 'index' ? node.lhs.target : node.lhs;
          if (target.kind !== 'call') break;
          if (builder && (!firstCall || target.name.span.start < firstCall.span.start)) firstCall = target.name;
          pushInnerExpressions(node.lhs, (inner ??= []));
          break;
        }
        case 'quantifier':
          if (builder && (!firstCall || node.name.span.start < firstCall.span.start)) firstCall = node.name;
          if (isOperand(node.argument)) pushInnerExpressions(node.argument, (inner ??= []));
          else if (isExpressionNode(node.argument)) (inner ??= []).push(node.argument);
          break;
        default:
          break;
      }
      // What stands inside a call's arguments starts anew: the call already puts it past the builder.
      while (inner && inner.length > 0) {
        stack.push(inner.pop()!);
        depths?.push(0);
      }
    }
    if (firstCall) {
      this.report(
        problem(
          'expression-builder',
          'information',
          firstCall.span,
          `the dashboard's Expression Builder cannot show this expression, as it calls functions (\`${firstCall.text}(…)\` here): the docs say the builder does not support function calls, so whoever opens the rule in the dashboard can only keep to the Expression Editor or discard the expression`,
        ),
      );
    }
    if (nestedGroup) {
      this.report(
        problem(
          'expression-builder',
          'information',
          nestedGroup.span,
          'the dashboard\'s Expression Builder cannot show this expression, as it nests this group in parentheses inside another: the docs say the builder does not support nested expressions, so whoever opens the rule in the dashboard can only keep to the Expression Editor or discard the expression',
        ),
      );
    }
  }

  /**
   * `a and b or c`: `inner` binds first (the grammar's precedence: not, and, xor, or), so it is
   * one side of `outer`; a reader who takes the operators in the order written would read it
   * otherwise. The fix writes the parentheses where the operators already bind: the rule does
   * what it did.
   */
  private reportMixed(outer: LogicalExpression, inner: LogicalExpression): void {
    const innerOperator = inner.operatorTokens[0].text;
    const outerOperator = outer.operatorTokens[0].text;
    const written = this.source(inner.span);
    const shown = written.length <= 80 && !/[\r\n]/.test(written) ? `\`${written}\`` : `the \`${innerOperator}\` part here`;
    this.report(
      problem(
        'mixed-logical-operators',
        'information',
        inner.span,
        `\`${innerOperator}\` binds before \`${outerOperator}\`, so ${shown} is one side of the \`${outerOperator}\`: parentheses say so to a reader who may take the operators in the order written`,
        [{ title: `Add parentheses around the \`${innerOperator}\``, edits: [{ span: { start: inner.span.start, end: inner.span.start }, newText: '(' }, { span: { start: inner.span.end, end: inner.span.end }, newText: ')' }] }],
      ),
    );
  }
}

function isExpressionNode(argument: object & { kind: string }): argument is Expression {
  const kind = argument.kind;
  return kind === 'comparison' || kind === 'logical' || kind === 'not' || kind === 'group' || kind === 'quantifier' || kind === 'boolean';
}

const PATH_EXTENSION = 'http.request.uri.path.extension';

function key(p: Problem): string {
  return `${p.code}@${p.span.start}-${p.span.end}`;
}

function asciiLower(text: string): string {
  // Most values have no capital letter: those are returned as they are, without a replace.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x41 && code <= 0x5a) return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
  }
  return text;
}

/** A string as a `"…"` literal, escaping `"` and `\`; undefined when it holds more than printable ASCII. */
function quote(value: string): string | undefined {
  if (!/^[\x20-\x7e]*$/.test(value)) return undefined;
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * Signs of a regular expression that a literal value almost never holds: a leading `^`, and
 * `.*`. Not a `$` at the end alone (`price=$` is a fine query), nor a lone `^`, nor a backslash
 * (`"C:\\dir"` is a path, not `\d`), nor `.+` (in a query or a form `+` is a space:
 * `"hello.+world"`).
 */
function looksLikeRegex(value: string): boolean {
  if (value.length < 2) return false;
  return value.startsWith('^') || value.includes('.*');
}

// ---------------------------------------------------------------- country codes

/**
 * A value of a country field that it never holds, or may not: not an assigned ISO 3166-1
 * alpha-2 code nor one of Cloudflare's own (T1, XX: countries.ts). The one country check, for
 * the packet and the HTTP phases alike. Undefined for a value that is fine.
 */
export function countryCodeProblem(literal: StringLiteral): Problem | undefined {
  const code = literal.value;
  if (countryValueName(code) !== undefined) return undefined;
  const upper = code.toUpperCase();
  const quoteFix = (c: string) => replaceFix(`Change to \`"${c}"\` (${countryValueName(c)})`, literal.span, `"${c}"`);
  const upperName = countryValueName(upper);
  if (upperName !== undefined) {
    return problem('country-code-case', 'warning', literal.span, `country codes are uppercase: \`"${code}"\` never matches; write \`"${upper}"\` (${upperName})`, [quoteFix(upper)]);
  }
  const replacement = RESERVED_COUNTRY_REPLACEMENTS.get(upper);
  const reason = RESERVED_COUNTRY_HINTS.get(upper);
  if (reason) {
    const outcome = GEOLOCATION_ONLY_CODES.has(upper) ? 'not an ISO 3166-1 country code' : 'not a country code, so it never matches';
    return problem('unknown-country-code', 'warning', literal.span, `\`"${code}"\` is ${outcome}: ${reason.replace(/\.$/, '')}`, replacement ? [quoteFix(replacement)] : []);
  }
  const byName = [...COUNTRIES].filter(([, name]) => name.toLowerCase() === code.toLowerCase() || (code.length > 3 && name.toLowerCase().startsWith(code.toLowerCase())));
  if (byName.length > 0) {
    const codes = byName.slice(0, 3).map(([c]) => c);
    return problem('unknown-country-code', 'warning', literal.span, `expected a two-letter ISO 3166-1 country code, found \`"${code}"\`; did you mean ${codes.map((c) => `\`"${c}"\` (${COUNTRIES.get(c)})`).join(' or ')}?`, codes.map(quoteFix));
  }
  return problem('unknown-country-code', 'warning', literal.span, `expected a two-letter ISO 3166-1 country code such as \`"BR"\` or \`"GB"\`, found \`"${code}"\`, which is not assigned`);
}

// ---------------------------------------------------------------- reading a regex

/**
 * What the lints need of a regex: its top-level pieces, in order. A valid pattern of the Rust
 * `regex` crate (the parser has checked it: parse-semantics.ts) is read only as far as it is
 * simple; anything else makes readRegex give up (alternation, verbose mode, flags past the
 * start, counted repetitions it cannot read), and then nothing is said.
 */
export interface RegexShape {
  readonly pieces: readonly RegexPiece[];
  /** Flags set at the start, `(?s)`: `.` matches a line break too. */
  readonly dotAll: boolean;
  /** `(?m)`: `^` and `$` match at line breaks too. */
  readonly multiLine: boolean;
  /**
   * `(?u)` or `(?R)`: `.` matches whole UTF-8 characters only (the engine reads bytes, and a
   * value may hold any byte), or stops at a carriage return too.
   */
  readonly narrowDot: boolean;
  /** Whether the pattern starts with a flag group. */
  readonly flagged: boolean;
}

export type RegexPiece =
  /** `^` or `\A`. */
  | { readonly kind: 'start' }
  /** `$` (`dollar`) or `\z`. */
  | { readonly kind: 'end'; readonly dollar: boolean }
  /** One literal character, printable ASCII. */
  | { readonly kind: 'char'; readonly char: string }
  /** Something that can match the empty string wherever it is tried: `x*`, `x?`, `()`. */
  | { readonly kind: 'empty' }
  /** `.*` (lazy or not): the empty string, or a run of any characters but, without `(?s)`, a line break. */
  | { readonly kind: 'any' }
  /** Anything else: it may need at least one character, or assert something. */
  | { readonly kind: 'other' };

type Atom = RegexPiece | { readonly kind: 'dot' };

/** The pieces of `source`, or undefined when it is not simple enough to read. */
export function readRegex(source: string): RegexShape | undefined {
  let i = 0;
  let dotAll = false;
  let multiLine = false;
  let narrowDot = false;
  let flagged = false;
  const flags = /^\(\?([a-zA-Z-]*)\)/.exec(source);
  if (flags) {
    let on = true;
    for (const f of flags[1]) {
      if (f === '-') on = false;
      else if (f === 'x') return undefined; // verbose: spaces and `#` change meaning
      else if (f === 's') dotAll = on;
      else if (f === 'm') multiLine = on;
      else if ((f === 'u' || f === 'R') && on) narrowDot = true;
    }
    flagged = true;
    i = flags[0].length;
  }
  const pieces: RegexPiece[] = [];
  while (i < source.length) {
    const read = readAtom(source, i);
    if (!read) return undefined;
    let atom: Atom = read.atom;
    i = read.next;
    // Quantifiers, possibly several (`a**` is a repetition of a repetition) and lazy (`*?`).
    for (;;) {
      const q = readQuantifier(source, i);
      if (!q) break;
      if (q === 'unreadable' || atom.kind === 'start' || atom.kind === 'end') return undefined;
      i = q.next;
      if (atom.kind === 'empty' || (atom.kind === 'any' && q.min === 0)) continue;
      if (q.min === 0) atom = atom.kind === 'dot' && q.max === undefined ? { kind: 'any' } : { kind: 'empty' };
      else atom = { kind: 'other' };
    }
    pieces.push(atom.kind === 'dot' ? { kind: 'other' } : atom);
  }
  return { pieces, dotAll, multiLine, narrowDot, flagged };
}

function readAtom(s: string, i: number): { atom: Atom; next: number } | undefined {
  const c = s[i];
  switch (c) {
    case '^':
      return { atom: { kind: 'start' }, next: i + 1 };
    case '$':
      return { atom: { kind: 'end', dollar: true }, next: i + 1 };
    case '.':
      return { atom: { kind: 'dot' }, next: i + 1 };
    case '|':
    case ')':
    case '*':
    case '+':
    case '?':
    case '{':
    case '}':
      return undefined;
    case '[': {
      const end = classEnd(s, i);
      return end === undefined ? undefined : { atom: { kind: 'other' }, next: end };
    }
    case '(':
      return readGroup(s, i);
    case '\\':
      return readEscape(s, i);
    default: {
      const code = s.codePointAt(i)!;
      const width = code > 0xffff ? 2 : 1;
      return { atom: code >= 0x20 && code <= 0x7e ? { kind: 'char', char: c } : { kind: 'other' }, next: i + width };
    }
  }
}

/** A group: empty (`()`, `(?:)`, matching the empty string) or anything else; a flag switch inside the pattern gives up. */
function readGroup(s: string, i: number): { atom: Atom; next: number } | undefined {
  let depth = 0;
  let j = i;
  while (j < s.length) {
    const c = s[j];
    if (c === '\\') j += 2;
    else if (c === '[') {
      const end = classEnd(s, j);
      if (end === undefined) return undefined;
      j = end;
    } else {
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) break;
      j++;
    }
  }
  if (j >= s.length) return undefined;
  const inner = s.slice(i + 1, j);
  let body = inner;
  if (inner.startsWith('?')) {
    const prefix = /^\?(?::|P?<[A-Za-z0-9_.[\]]*>|[a-zA-Z-]*:)/.exec(inner);
    if (!prefix) return undefined; // `(?i)` past the start switches flags for the rest
    body = inner.slice(prefix[0].length);
  }
  return { atom: body === '' ? { kind: 'empty' } : { kind: 'other' }, next: j + 1 };
}

/** Past the `]` that closes the class opening at `i`: classes nest, and a `]` first is a literal. */
function classEnd(s: string, i: number): number | undefined {
  let depth = 0;
  let j = i;
  while (j < s.length) {
    const c = s[j];
    if (c === '[') {
      depth++;
      j++;
      if (s[j] === '^') j++;
      if (s[j] === ']') j++;
      continue;
    }
    if (c === '\\') {
      j += 2;
      continue;
    }
    j++;
    if (c === ']' && --depth === 0) return j;
  }
  return undefined;
}

function readEscape(s: string, i: number): { atom: Atom; next: number } | undefined {
  const d = s[i + 1];
  if (d === undefined) return undefined;
  if (d === 'A') return { atom: { kind: 'start' }, next: i + 2 };
  if (d === 'z') return { atom: { kind: 'end', dollar: false }, next: i + 2 };
  const code = d.codePointAt(0)!;
  // An escaped ASCII punctuation character is that character (regex-syntax's is_escapeable).
  if (code >= 0x20 && code <= 0x7e && !/[0-9A-Za-z<>]/.test(d)) return { atom: { kind: 'char', char: d }, next: i + 2 };
  if ('xuUpP'.includes(d)) {
    // `\x41`, `\x{41}`, `\u0041`, `\pL`, `\p{Greek}`: one character or class, read as such.
    if (s[i + 2] === '{') {
      const close = s.indexOf('}', i + 3);
      return close < 0 ? undefined : { atom: { kind: 'other' }, next: close + 1 };
    }
    const width = d === 'x' ? 2 : d === 'u' ? 4 : d === 'U' ? 8 : 1;
    return { atom: { kind: 'other' }, next: i + 2 + width };
  }
  // `\b{start}` and the like: not read.
  if (d === 'b' && s[i + 2] === '{') return undefined;
  // `\d`, `\w`, `\n`, `\b`, …: a class, a character or an assertion, never "any string".
  return { atom: { kind: 'other' }, next: i + 2 };
}

function readQuantifier(s: string, i: number): { min: number; max?: number; next: number } | 'unreadable' | undefined {
  const c = s[i];
  let min: number;
  let max: number | undefined;
  let next: number;
  if (c === '*') [min, max, next] = [0, undefined, i + 1];
  else if (c === '+') [min, max, next] = [1, undefined, i + 1];
  else if (c === '?') [min, max, next] = [0, 1, i + 1];
  else if (c === '{') {
    const m = /^\{\s*(\d+)\s*(?:(,)\s*(\d*)\s*)?\}/.exec(s.slice(i));
    if (!m) return 'unreadable';
    min = Number(m[1]);
    max = m[2] === undefined ? min : m[3] === '' ? undefined : Number(m[3]);
    next = i + m[0].length;
  } else return undefined;
  if (s[next] === '?') next++; // lazy
  return { min, max, next };
}

/**
 * Whether the regex matches every string, proved one of three ways: every piece can match the
 * empty string at the start of the text (`^`, `x*`, `.*`), or at its end (`$`, `x*`); or the
 * pattern is `^.*$` where `.` takes line breaks (`(?s)`) or `$` matches before one (`(?m)`), and
 * `.` takes every other byte (not with `(?u)` or `(?R)`). A regex is searched for anywhere in
 * the value, so matching at one place is matching.
 */
export function matchesEveryString(shape: RegexShape): boolean {
  const { pieces } = shape;
  const empty = (p: RegexPiece) => p.kind === 'empty' || p.kind === 'any';
  if (pieces.every((p) => p.kind === 'start' || empty(p))) return true;
  if (pieces.every((p) => p.kind === 'end' || empty(p))) return true;
  let first = 0;
  while (first < pieces.length && pieces[first].kind === 'start') first++;
  let last = pieces.length;
  while (last > first && pieces[last - 1].kind === 'end') last--;
  if (last - first !== 1 || pieces[first].kind !== 'any') return false;
  const ends = pieces.slice(last) as { kind: 'end'; dollar: boolean }[];
  return !shape.narrowDot && (shape.dotAll || (shape.multiLine && ends.every((e) => e.dollar)));
}

/**
 * The literal a regex is, anchored at the start, the end or both; undefined when it is more
 * than that, or anchored at neither end. Flags change what the characters match (`(?i)`) or where the
 * anchors hold (`(?m)`): a flagged pattern is none.
 */
export function anchoredLiteral(shape: RegexShape): { start: boolean; end: boolean; text: string } | undefined {
  if (shape.flagged) return undefined;
  let pieces = shape.pieces;
  const start = pieces[0]?.kind === 'start';
  if (start) pieces = pieces.slice(1);
  const end = pieces[pieces.length - 1]?.kind === 'end';
  if (end) pieces = pieces.slice(0, -1);
  let text = '';
  for (const p of pieces) {
    if (p.kind !== 'char') return undefined;
    text += p.char;
  }
  // Unanchored, a literal pattern is `contains`: true, but not said, as it would be said of
  // many a rule that is fine as it is (`matches "sfo"`).
  if (!start && !end) return undefined;
  if (text === '' && !(start && end)) return undefined;
  return { start, end, text };
}
