import { checkExpression, type CheckOptions, type CheckResult } from '../language/checker';
import { findShadowedRules } from '../language/analyses';
import { printExpression } from '../language/format';
import { KNOWN_ACTIONS, KNOWN_PHASES, RULE_KEYS, RULESET_KEYS, RULESET_KINDS } from '../language/catalogue/phases';
import type { Severity } from '../language/problem';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { encodeForScalar, isBlockScalar, parseHost, property, type HostFormat, type HostNode, type HostObject, type HostScalar } from './host';
import { addPropertyEdit, renameKeyEdit, replaceScalarEdit, type DocumentEdit } from './host-edits';
import { coarseDecodedString, mapRange, type DecodedString } from './offset-map';

/** An edit in document offsets. */
export interface DocumentFix {
  readonly title: string;
  /** Edits of the document; text inserted into a string is already escaped for it. */
  readonly edits: readonly DocumentEdit[];
}

/** Another place in the document that explains a problem (the rule it repeats). */
export interface RelatedPlace {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** A problem anywhere in a ruleset file, in document offsets. */
export interface DocumentProblem {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
  readonly fixes?: readonly DocumentFix[];
  readonly related?: readonly RelatedPlace[];
}

export interface ExpressionSite {
  /** Index of the rule in `rules`. */
  readonly ruleIndex: number;
  readonly node: HostScalar;
  /** The expression as the service receives it (escapes and YAML quoting undone). */
  readonly text: string;
  /**
   * The string is inside a YAML flow collection (`- {action: block, expression: …}`), where
   * a plain scalar cannot hold `{`, `}`, `[`, `]` or `,`.
   */
  readonly inFlow?: boolean;
  /**
   * The text with its offset map into the document, built on first use: most expressions
   * have no problems, and a re-check after one edit should cost about one expression.
   */
  decoded(): DecodedString;
}

export interface RulesetModel {
  readonly format: HostFormat;
  readonly text: string;
  readonly root?: HostNode;
  readonly phase?: string;
  readonly rules: readonly HostNode[];
  readonly expressions: readonly ExpressionSite[];
  /** JSON or YAML syntax errors of the host document. */
  readonly syntaxProblems: readonly DocumentProblem[];
}

const RULESET_KEY_NAMES = RULESET_KEYS.map((k) => k.key);
const RULE_KEY_NAMES = RULE_KEYS.map((k) => k.key);

export function parseRuleset(text: string, format: HostFormat): RulesetModel {
  const host = parseHost(text, format);
  const root = host.root;
  const phaseNode = property(root, 'phase')?.value;
  const rulesNode = property(root, 'rules')?.value;
  const rules = rulesNode?.kind === 'array' ? rulesNode.items : [];
  const expressions: ExpressionSite[] = [];
  rules.forEach((rule, ruleIndex) => {
    const node = property(rule, 'expression')?.value;
    if (node?.kind !== 'string') return;
    let decoded: DecodedString | undefined;
    expressions.push({
      ruleIndex,
      node,
      text: String(node.value),
      inFlow: format === 'yaml' && rule.kind === 'object' && !rule.block,
      decoded: () => (decoded ??= node.decode?.() ?? coarseDecodedString(String(node.value), node.start, node.end)),
    });
  });
  const syntaxProblems = host.syntaxErrors.map((e) => ({
    code: format === 'json' ? 'json-syntax' : 'yaml-syntax',
    severity: 'error' as const,
    message: e.message,
    start: e.start,
    end: Math.min(e.end, text.length),
  }));
  return { format, text, root, phase: phaseNode?.kind === 'string' ? String(phaseNode.value) : undefined, rules, expressions, syntaxProblems };
}

/**
 * Results of checking expression texts, shared by every document: an expression that did
 * not change is not parsed again (re-checking a file after one edit costs one expression).
 */
export class ExpressionCache {
  // Options first, then the text itself as the key: no key string is built per lookup, and
  // V8 hashes each text once.
  private readonly byOptions = new Map<string, Map<string, CheckResult>>();
  private readonly normalized = new Map<string, string>();
  private entries = 0;

  constructor(private readonly capacity = 50_000) {}

  check(text: string, options: CheckOptions): CheckResult {
    const optionsKey = `${options.phase ?? ''}\u0000${options.knownLists?.join(',') ?? '*'}`;
    let results = this.byOptions.get(optionsKey);
    if (!results) this.byOptions.set(optionsKey, (results = new Map()));
    const cached = results.get(text);
    if (cached) return cached;
    if (this.entries >= this.capacity) this.clear();
    const result = checkExpression(text, options);
    results.set(text, result);
    this.entries++;
    return result;
  }

  /**
   * The expression in canonical spacing (whitespace inside strings kept), or as written when
   * it does not parse: what two rules are compared by.
   */
  normalize(text: string, checked: CheckResult): string {
    let result = this.normalized.get(text);
    if (result === undefined) {
      // Printed from the tree the check already built: parsing again would double the cost
      // of opening a file. Errors may have dropped text from the tree (a comma in a set).
      const clean = checked.ast && !checked.problems.some((p) => p.severity === 'error');
      result = clean ? printExpression(checked.ast!, text) : text.trim();
      if (this.normalized.size >= this.capacity) this.normalized.clear();
      this.normalized.set(text, result);
    }
    return result;
  }

  private clear(): void {
    // Dropping everything at once is simpler than LRU order, and at this size it happens
    // only in a long session that has seen tens of thousands of distinct expressions.
    this.byOptions.clear();
    this.entries = 0;
  }

  get size(): number {
    return this.entries;
  }
}

export interface RulesetCheckOptions {
  /** Phase to assume when the file names none. */
  readonly defaultPhase?: string;
  readonly knownLists?: readonly string[];
  /**
   * Results of expressions already checked, kept by the caller: the language server's lives as
   * long as it does, the CLI's for one run. Without one, a check starts afresh.
   */
  readonly cache?: ExpressionCache;
}

/** Every problem of one ruleset file: host syntax, ruleset shape, and each expression. */
export function checkRuleset(text: string, format: HostFormat, options: RulesetCheckOptions = {}): DocumentProblem[] {
  return checkRulesetModel(parseRuleset(text, format), options);
}

/** The check options an expression of this ruleset is checked with. */
export function expressionOptions(model: RulesetModel, options: RulesetCheckOptions): CheckOptions {
  return { phase: model.phase ?? options.defaultPhase, knownLists: options.knownLists };
}

/** The result for one expression site, from the cache when its text was checked before. */
export function checkSite(site: ExpressionSite, model: RulesetModel, options: RulesetCheckOptions): CheckResult {
  return (options.cache ?? new ExpressionCache()).check(site.text, expressionOptions(model, options));
}

/** Like checkRuleset, for a document already parsed (the language server keeps one a version). */
export function checkRulesetModel(model: RulesetModel, given: RulesetCheckOptions = {}): DocumentProblem[] {
  const cache = given.cache ?? new ExpressionCache();
  const options = { ...given, cache };
  const problems: DocumentProblem[] = [...model.syntaxProblems];
  checkShape(model, problems);
  const results = model.expressions.map((site) => checkSite(site, model, options));
  model.expressions.forEach((site, i) => {
    for (const p of results[i].problems) problems.push(mapExpressionProblem(site, p));
  });
  const repeats = checkRepeatedRules(model, results, cache, problems);
  checkRuleOrder(model, results, repeats, problems);
  problems.sort((a, b) => a.start - b.start || a.end - b.end);
  return problems;
}

function mapExpressionProblem(site: ExpressionSite, p: CheckResult['problems'][number]): DocumentProblem {
  // Through expressionRange, like the edits: in a block scalar the end of the expression (a
  // syntax error's "found the end", an unterminated string) then lands after its last
  // character, not on the next line past the chomped line breaks.
  const { start, end } = expressionRange(site, p.span);
  let mapped: DocumentProblem = { code: p.code, severity: p.severity, message: p.message, start, end };
  if (p.related) mapped = { ...mapped, related: p.related.map((r) => ({ ...expressionRange(site, r.span), message: r.message })) };
  if (!p.fixes) return mapped;
  return { ...mapped, fixes: p.fixes.map((f) => ({ title: f.title, edits: f.edits.map((e) => expressionEdit(site, e.span, e.newText)) })) };
}

/** An edit of the expression (decoded offsets, plain text) as an edit of the document. */
export function expressionEdit(site: ExpressionSite, span: { start: number; end: number }, newText: string): DocumentEdit {
  // A line break written into a plain, single-quoted or block scalar would be folded or
  // need re-indenting; a double-quoted string holds it as `\n`, so the scalar becomes one.
  if (/[\r\n]/.test(newText) && site.node.style !== 'json' && site.node.style !== 'double-quoted') {
    const value = site.text.slice(0, span.start) + newText + site.text.slice(span.end);
    // A block scalar's range runs past its last line break: it ends at its content there, so
    // the next key keeps its line; a quoted one ends after its closing quote.
    return { start: site.node.start, end: isBlockScalar(site.node.style) ? contentExtent(site).end : site.node.end, newText: JSON.stringify(value) };
  }
  if (site.node.style === 'plain') {
    // Text that a plain YAML scalar cannot hold (a `{…}` set inside a flow mapping, say)
    // would break the document: the whole scalar is rewritten double-quoted instead.
    const value = site.text.slice(0, span.start) + newText + site.text.slice(span.end);
    if (!fitsPlainScalar(value, site.inFlow === true)) return { start: site.node.start, end: site.node.end, newText: JSON.stringify(value) };
  }
  return { ...expressionRange(site, span), newText: encodeForScalar(site.node.style, newText) };
}

/**
 * Whether `value` reads back as itself written as a plain YAML scalar on one line: no
 * indicator first, no `: ` or ` #`, no surrounding whitespace (it would be trimmed), no line
 * break, and in a flow collection none of `{}[],`.
 */
function fitsPlainScalar(value: string, inFlow: boolean): boolean {
  if (value === '' || value !== value.trim() || /[\n\r]/.test(value)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value)) return false;
  if (/:(?: |$)| #/.test(value)) return false;
  return !(inFlow && /[{}[\],]/.test(value));
}

/**
 * Where an expression's own text ends. In a YAML block scalar (`|`, `>`) the value's final
 * line breaks are chomping's business and map past the scalar's last line break, to the
 * start of the next line, which is not in the expression: text inserted there would land at
 * column 0 and break the YAML, and a cursor there is on the next key.
 */
export function contentExtent(site: ExpressionSite): { length: number; end: number } {
  const decoded = site.decoded();
  let length = decoded.value.length;
  if (!isBlockScalar(site.node.style)) return { length, end: decoded.contentEnd };
  while (length > 0 && decoded.value[length - 1] === '\n') length--;
  return { length, end: length > 0 ? decoded.ends[length - 1] : decoded.contentStart };
}

/** The document range of a span of the expression; edits never reach past its own text. */
export function expressionRange(site: ExpressionSite, span: { start: number; end: number }): { start: number; end: number } {
  const { length, end } = contentExtent(site);
  if (span.start >= length) return { start: end, end };
  return mapRange(site.decoded(), span.start, Math.min(span.end, length));
}

/**
 * A rule whose action and expression repeat an earlier rule's can never decide anything the
 * earlier one did not: it is dead weight, or a copy that was meant to be edited.
 */
function checkRepeatedRules(model: RulesetModel, results: readonly CheckResult[], cache: ExpressionCache, problems: DocumentProblem[]): Set<number> {
  const repeats = new Set<number>();
  const firstByDecision = new Map<string, Map<string, ExpressionSite>>();
  for (const [index, site] of model.expressions.entries()) {
    const rule = model.rules[site.ruleIndex];
    // A disabled rule decides nothing, so it neither repeats nor is repeated.
    const enabled = property(rule, 'enabled')?.value;
    if (enabled?.kind === 'boolean' && enabled.value === false) continue;
    const action = property(rule, 'action')?.value;
    // Two `execute` rules of `true` run different rulesets unless their parameters agree.
    const decision = `${action?.kind === 'string' ? String(action.value) : ''}\u0000${canonicalValue(property(rule, 'action_parameters')?.value)}`;
    let first = firstByDecision.get(decision);
    if (!first) firstByDecision.set(decision, (first = new Map()));
    const key = cache.normalize(site.text, results[index]);
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, site);
      continue;
    }
    repeats.add(index);
    problems.push({
      code: 'duplicate-rule',
      severity: 'warning',
      message: `rule ${site.ruleIndex + 1} repeats rule ${earlier.ruleIndex + 1} (same action and expression), so it never decides anything`,
      start: site.node.start,
      end: site.node.end,
      related: [{ start: earlier.node.start, end: earlier.node.end, message: `rule ${earlier.ruleIndex + 1}, which it repeats` }],
    });
  }
  return repeats;
}

/** Whether a rule is switched off (`enabled: false`). */
function isDisabled(rule: HostNode | undefined): boolean {
  const enabled = property(rule, 'enabled')?.value;
  return enabled?.kind === 'boolean' && enabled.value === false;
}

/** `block`, or `skip` of the rest of the current ruleset: how a rule ends evaluation, if it does. */
function decisionOf(rule: HostNode | undefined): 'block' | 'skip' | undefined {
  const action = property(rule, 'action')?.value;
  if (action?.kind !== 'string') return undefined;
  if (action.value === 'block') return 'block';
  const ruleset = property(property(rule, 'action_parameters')?.value, 'ruleset')?.value;
  return action.value === 'skip' && ruleset?.kind === 'string' && ruleset.value === 'current' ? 'skip' : undefined;
}

/**
 * Rules that the order of the ruleset makes useless: a last `skip` of the current ruleset (there
 * is nothing after it to skip), and rules every packet of which an earlier rule decides first.
 */
function checkRuleOrder(model: RulesetModel, results: readonly CheckResult[], repeats: ReadonlySet<number>, problems: DocumentProblem[]): void {
  const enabledRules = model.rules.map((rule, i) => ({ rule, i })).filter(({ rule }) => rule.kind === 'object' && !isDisabled(rule));
  const last = enabledRules[enabledRules.length - 1];
  // A ruleset of one skip rule is being written; after other rules, the order is the mistake.
  if (enabledRules.length > 1 && decisionOf(last.rule) === 'skip') {
    const parameters = property(last.rule, 'action_parameters')?.value;
    const logging = property(property(last.rule, 'logging')?.value, 'enabled')?.value;
    const action = property(last.rule, 'action')!.value!;
    // Other parameters (`phases`, `products`) skip more than this ruleset, and a logged skip
    // records the packets it matches: either is a reason to be last.
    const onlyRuleset = parameters?.kind === 'object' && parameters.properties.every((p) => p.key === 'ruleset');
    if (onlyRuleset && !(logging?.kind === 'boolean' && logging.value === true)) {
      problems.push({
        code: 'skip-skips-nothing',
        severity: 'warning',
        message: `this \`skip\` of the current ruleset comes after every other enabled rule: there is no later rule for it to skip, so it does nothing; move it before the rules it should exempt packets from`,
        start: action.start,
        end: action.end,
      });
    }
  }
  const sites = model.expressions;
  const shadowed = findShadowedRules(
    sites.map((site, i) => {
      const rule = model.rules[site.ruleIndex];
      return {
        ast: results[i].ast,
        text: site.text,
        clean: !results[i].problems.some((p) => p.severity === 'error'),
        enabled: rule.kind === 'object' && !isDisabled(rule),
        decides: decisionOf(rule),
        duplicate: repeats.has(i),
      };
    }),
  );
  for (const { later, earlier } of shadowed) {
    const site = sites[later];
    const by = sites[earlier];
    const how = decisionOf(model.rules[by.ruleIndex]) === 'block' ? 'blocked' : 'skipped (with the rest of the ruleset)';
    problems.push({
      code: 'shadowed-rule',
      severity: 'warning',
      message: `rule ${site.ruleIndex + 1} never decides anything: every packet it matches is already ${how} by rule ${by.ruleIndex + 1}, which comes first`,
      start: site.node.start,
      end: site.node.end,
      related: [{ start: by.node.start, end: by.node.end, message: `rule ${by.ruleIndex + 1}, which matches every packet rule ${site.ruleIndex + 1} matches` }],
    });
  }
}

// ---------------------------------------------------------------- shape

type Report = (code: string, severity: Severity, start: number, end: number, message: string, fixes?: readonly DocumentFix[]) => void;

function checkShape(model: RulesetModel, problems: DocumentProblem[]): void {
  const report: Report = (code, severity, start, end, message, fixes) =>
    problems.push(fixes && fixes.length > 0 ? { code, severity, start, end, message, fixes } : { code, severity, start, end, message });
  const root = model.root;
  if (!root) {
    // An unreadable document has syntax errors that say why; an empty one says nothing itself.
    if (model.syntaxProblems.length === 0) report('empty-document', 'error', 0, model.text.length, 'the file has no ruleset in it: expected one with `name`, `kind`, `phase` and `rules`');
    return;
  }
  if (root.kind !== 'object') {
    report('invalid-type', 'error', root.start, root.end, 'expected a ruleset object with `name`, `kind`, `phase` and `rules`');
    return;
  }
  checkKeys(root, RULESET_KEY_NAMES, 'ruleset', report);
  requireKeys(root, ['name', 'kind', 'phase', 'rules'], 'ruleset', report);
  // `kind` and `phase` too: the enum checks below look at strings only, so without this a
  // number there would pass unreported.
  for (const key of ['id', 'name', 'description', 'kind', 'phase', 'last_updated']) expectType(root, key, 'string', report);
  expectType(root, 'version', 'string', report);
  expectType(root, 'rules', 'array', report);
  expectOneOf(root, 'kind', RULESET_KINDS, 'error', 'unknown-kind', report);
  expectOneOf(root, 'phase', KNOWN_PHASES, 'warning', 'unknown-phase', report);
  const rules = property(root, 'rules')?.value;
  if (rules?.kind === 'array') {
    for (const rule of rules.items) checkRule(model, rule, report);
  }
}

function checkRule(model: RulesetModel, rule: HostNode, report: Report): void {
  if (rule.kind !== 'object') {
    report('invalid-type', 'error', rule.start, rule.end, 'expected a rule object with `action` and `expression`');
    return;
  }
  checkKeys(rule, RULE_KEY_NAMES, 'rule', report);
  requireKeys(rule, ['action', 'expression'], 'rule', report);
  for (const key of ['id', 'version', 'ref', 'action', 'description', 'last_updated']) expectType(rule, key, 'string', report);
  expectType(rule, 'action_parameters', 'object', report);
  expectType(rule, 'enabled', 'boolean', report);
  expectType(rule, 'logging', 'object', report);
  expectType(rule, 'categories', 'array', report);
  expectType(rule, 'ratelimit', 'object', report);
  expectType(rule, 'exposed_credential_check', 'object', report);
  const expression = property(rule, 'expression')?.value;
  if (expression && expression.kind !== 'string') {
    const hint = expression.kind === 'boolean' ? `; in YAML, \`${expression.value}\` unquoted is a Boolean: write \`"${expression.value}"\`` : '';
    report('invalid-type', 'error', expression.start, expression.end, `expected the expression as a string${hint}`);
  }
  expectOneOf(rule, 'action', KNOWN_ACTIONS, 'warning', 'unknown-action', report);
  const action = property(rule, 'action')?.value;
  const actionName = action?.kind === 'string' ? action.value : undefined;
  const parametersProperty = property(rule, 'action_parameters');
  const parameters = parametersProperty?.value;
  if (actionName === 'skip') {
    const ruleset = property(parameters, 'ruleset')?.value;
    if (!parameters) {
      report('missing-action-parameters', 'error', action!.start, action!.end, 'a `skip` rule needs `action_parameters: {"ruleset": "current"}` to say what it skips', [
        { title: 'Add `action_parameters: {"ruleset": "current"}`', edits: [addPropertyEdit(model.text, model.format, rule, property(rule, 'action')!, 'action_parameters', { ruleset: 'current' })] },
      ]);
    } else if (parameters.kind === 'object' && !ruleset) {
      report('missing-action-parameters', 'error', parametersProperty!.keyStart, parametersProperty!.keyEnd, 'a `skip` rule needs `"ruleset": "current"` in its `action_parameters`');
    } else if (ruleset && (ruleset.kind !== 'string' || ruleset.value !== 'current')) {
      report('invalid-action-parameters', 'error', ruleset.start, ruleset.end, `expected \`"current"\` (the only value \`skip\` accepts for \`ruleset\`), found ${describe(ruleset)}`);
    }
  } else if (actionName === 'execute') {
    const id = property(parameters, 'id')?.value;
    if (!parameters || (parameters.kind === 'object' && !id)) {
      const at = parametersProperty ?? { keyStart: action!.start, keyEnd: action!.end };
      report('missing-action-parameters', 'error', at.keyStart, at.keyEnd, 'an `execute` rule needs `action_parameters.id`: the id of the ruleset to execute');
    } else if (id && id.kind !== 'string') {
      report('invalid-action-parameters', 'error', id.start, id.end, `expected the id of the ruleset to execute as a string, found ${describe(id)}`);
    }
  }
  const logging = property(rule, 'logging');
  if (logging && actionName !== undefined && actionName !== 'skip') {
    report('logging-not-allowed', 'error', logging.keyStart, logging.keyEnd, `\`logging\` is only allowed on \`skip\` rules, not on \`${actionName}\``);
  }
  if (logging?.value?.kind === 'object') expectType(logging.value, 'enabled', 'boolean', report);
}

function describe(node: HostNode): string {
  if (node.kind === 'string') return `\`"${node.value}"\``;
  if (node.kind === 'object' || node.kind === 'array') return `an ${node.kind}`;
  return `\`${String(node.value)}\``;
}

function checkKeys(node: HostObject, known: readonly string[], what: string, report: Report): void {
  const seen = new Set<string>();
  for (const p of node.properties) {
    if (seen.has(p.key)) report('duplicate-key', 'error', p.keyStart, p.keyEnd, `\`${p.key}\` appears twice in this ${what}; only one is kept`);
    seen.add(p.key);
    if (known.includes(p.key)) continue;
    const suggestions = closestMatches(p.key, known).filter((k) => !node.properties.some((other) => other.key === k));
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : `; ${what} keys are ${quoteAlternatives(known)}`;
    report('unknown-key', 'warning', p.keyStart, p.keyEnd, `unknown ${what} key \`${p.key}\`${hint}`, suggestions.map((k) => ({ title: `Change to \`${k}\``, edits: [renameKeyEdit(p, k)] })));
  }
}

function requireKeys(node: HostObject, keys: readonly string[], what: string, report: Report): void {
  const missing = keys.filter((k) => !node.properties.some((p) => p.key === k));
  if (missing.length === 0) return;
  // On the object's first character, as the JSON language service reports missing properties.
  report('missing-key', 'error', node.start, node.start + 1, `this ${what} has no ${quoteAlternatives(missing)}, which ${missing.length > 1 ? 'are' : 'is'} required`);
}

function expectType(node: HostObject, key: string, type: 'string' | 'array' | 'object' | 'boolean', report: Report): void {
  const value = property(node, key)?.value;
  if (!value || value.kind === type) return;
  const severity = key === 'version' && value.kind === 'number' ? 'warning' : 'error';
  report('invalid-type', severity, value.start, value.end, `expected \`${key}\` to be ${type === 'array' || type === 'object' ? 'an' : 'a'} ${type}, found ${describe(value)}`);
}

function expectOneOf(node: HostObject, key: string, allowed: readonly string[], severity: Severity, code: string, report: Report): void {
  const value = property(node, key)?.value;
  if (value?.kind !== 'string' || allowed.includes(String(value.value))) return;
  const suggestions = closestMatches(String(value.value), allowed);
  const hint = suggestions.length > 0 ? `did you mean ${quoteAlternatives(suggestions)}?` : `expected one of ${quoteAlternatives(allowed.slice(0, 8))}${allowed.length > 8 ? ', …' : ''}`;
  report(code, severity, value.start, value.end, `unknown ${key} \`${value.value}\`; ${hint}`, suggestions.map((v) => ({ title: `Change to \`${v}\``, edits: [replaceScalarEdit(value, v)] })));
}

/** A host value as text that is the same however it was written (key order, quoting, style). */
function canonicalValue(node: HostNode | undefined): string {
  if (!node) return '';
  if (node.kind === 'object') {
    const entries = [...node.properties].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return `{${entries.map((p) => `${JSON.stringify(p.key)}:${canonicalValue(p.value)}`).join(',')}}`;
  }
  if (node.kind === 'array') return `[${node.items.map(canonicalValue).join(',')}]`;
  return JSON.stringify(node.value);
}

// ---------------------------------------------------------------- edits of the host document

// ---------------------------------------------------------------- positions

export interface Position {
  readonly line: number;
  readonly character: number;
}

/** A problem with LSP positions (0-based lines, UTF-16 characters). */
export interface PositionedProblem extends Omit<DocumentProblem, 'start' | 'end' | 'fixes'> {
  readonly range: { readonly start: Position; readonly end: Position };
}

export function toPositions(text: string, problems: readonly DocumentProblem[]): PositionedProblem[] {
  const positionAt = positionsIn(text);
  return problems.map(({ start, end, code, severity, message }) => ({ code, severity, message, range: { start: positionAt(start), end: positionAt(end) } }));
}

/**
 * Offsets of `text` as LSP positions: lines end at CR LF, LF or CR, characters count UTF-16
 * code units; an offset between the CR and the LF of a pair is the end of its line.
 */
export function positionsIn(text: string): (offset: number) => Position {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 13 || c === 10) lineStarts.push(i + 1);
  }
  return (offset) => {
    let at = Math.max(0, Math.min(offset, text.length));
    if (text.charCodeAt(at) === 10 && text.charCodeAt(at - 1) === 13) at--;
    let low = 0;
    let high = lineStarts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (lineStarts[mid] > at) high = mid;
      else low = mid + 1;
    }
    const line = low - 1;
    return { line, character: at - lineStarts[line] };
  };
}
