/**
 * Checking a ruleset document: its shape, every expression (each checked once per text, from
 * the cache), the rules against each other; and where an expression's problems and edits land
 * in the host text.
 */
import type { CheckOptions, CheckResult, ListKind, ValueCheckOptions, ValueCheckResult } from '../language/checker';
import type { ValueType } from '../language/ast';
import type { Addon, Plan } from '../language/catalogue/plans';
import { PROBLEM_CODES } from '../language/problem-codes';
import { applyDisableDirectives } from './directives';
import { ExpressionCache } from './expression-cache';
import { encodeForScalar, isBlockScalar, type HostFormat } from './host/index';
import { lineIndent, type DocumentEdit } from './host/index';
import { mapRange, unmapOffset, type DecodedString } from './host/index';
import { ruleOrderCheck } from './rule-order';
import { placesRules } from './entry-point';
import { accountExecuteProblems } from './rule-limits';
import { parseDocument, type ParseDocumentOptions, type ParsedDocument } from './parsed-document';
import { isRuleExpression, type DocumentProblem, type ExpressionSite, type FilterSite, type IncludedFile, type ParsedRuleset, type ValueSite } from './parsed-ruleset';
import { linePosition } from './positions';
import { applyRuleSeverities, type RuleSeverity } from './project-config';
import { checkCustomRulesets, checkPlanLimits } from './plan-limits';
import { checkShape } from './ruleset-shape';
import { unescapedQuotes } from './unescaped-quotes';
import { onWholeCharacters } from './host/index';

export interface RulesetCheckOptions {
  /** Phase to assume when the file names none. */
  readonly defaultPhase?: string;
  readonly knownLists?: readonly string[];
  /** What the account's lists hold, by name (CheckOptions.listKinds). */
  readonly listKinds?: Readonly<Record<string, ListKind>>;
  /** The account's plan (CheckOptions.plan). */
  readonly plan?: Plan;
  /** The account's add-ons (CheckOptions.addons); undefined: not said. */
  readonly addons?: readonly Addon[];
  /**
   * Results of expressions already checked, kept by the caller: the language server's lives as
   * long as it does, the CLI's for one run. Without one, a check starts afresh.
   */
  readonly cache?: ExpressionCache;
  /** Severities by code, from the project's `.rulesets.yaml`: `off` drops a code's findings; an error stays an error. */
  readonly severities?: Readonly<Record<string, RuleSeverity>>;
  /** Told after each expression of a ruleset is checked, and how many it has: the CLI's progress on a terminal. */
  readonly onExpression?: (checked: number, total: number) => void;
}

/** Every problem of a file of rulesets: host syntax, each ruleset's shape, and each expression. */
export function checkRuleset(text: string, format: HostFormat, options: RulesetCheckOptions & ParseDocumentOptions = {}): DocumentProblem[] {
  return checkDocument(parseDocument(text, format, options), options);
}

/** Like checkRuleset, for a file already parsed: the file's own problems and those of each of its rulesets, in document order. */
export function checkDocument(document: ParsedDocument, options: RulesetCheckOptions = {}): DocumentProblem[] {
  if (document.layout === 'api') return checkParsedRuleset(document.rulesets[0], options);
  // Quotes inside a Terraform string that end it early: one problem that says so, as in JSON and YAML.
  const quotes = document.format === 'hcl' ? unescapedQuotes({ text: document.text, format: 'hcl', syntaxProblems: document.problems }) : undefined;
  if (quotes) return quotes;
  const cache = options.cache ?? new ExpressionCache();
  // The file's own findings (a Terraform resource's notes) answer to the configuration's severities too.
  const own = [...document.problems];
  if (options.severities) applyRuleSeverities(own, options.severities);
  const problems = [...own, ...document.rulesets.flatMap((ruleset) => (ruleset.usedBy ? [] : checkParsedRuleset(ruleset, { ...options, cache }, false)))];
  problems.push(...usedValueProblems(document.rulesets, { ...options, cache }));
  problems.push(...checkCustomRulesets(document.rulesets, options));
  for (const file of document.included ?? []) problems.push(...includedProblems(file, { ...options, cache }));
  problems.sort((a, b) => a.start - b.start || a.end - b.end);
  // Once for the file, not once a ruleset: a directive one ruleset does not need is not unused
  // when another's finding is what it silences.
  applyDisableDirectives(document, problems, options.severities);
  return problems;
}

/**
 * The problems of a Terraform file's characters that the module's resources use (a local, a
 * variable's value), each naming the resources that use it; one found the same through several
 * resources is one problem naming them all.
 */
function usedValueProblems(rulesets: readonly ParsedRuleset[], options: RulesetCheckOptions): DocumentProblem[] {
  const byKey = new Map<string, { problem: DocumentProblem; users: string[] }>();
  for (const ruleset of rulesets) {
    if (!ruleset.usedBy) continue;
    for (const problem of checkParsedRuleset(ruleset, options, false)) {
      const key = `${problem.code}\u0000${problem.start}\u0000${problem.end}\u0000${problem.message}`;
      const known = byKey.get(key);
      if (!known) byKey.set(key, { problem, users: [ruleset.usedBy] });
      else if (!known.users.includes(ruleset.usedBy)) known.users.push(ruleset.usedBy);
    }
  }
  return [...byKey.values()].map(({ problem, users }) => ({ ...problem, message: `${problem.message} (${users.slice(0, 3).join('; ')}${users.length > 3 ? `; and ${users.length - 3} more` : ''})` }));
}

/**
 * The problems of a file an octorules `!include` reads, shown where the document reads it: on
 * the `!include`, each naming its place in that file. Their fixes are edits of that file, and
 * are left to it.
 */
function includedProblems(file: IncludedFile, options: RulesetCheckOptions): DocumentProblem[] {
  const found = [...file.problems, ...(file.ruleset ? checkParsedRuleset(file.ruleset, options) : [])].sort((a, b) => a.start - b.start || a.end - b.end);
  return found.map(({ code, severity, message, start }) => ({ code, severity, message: `${file.path}:${linePosition(file.text, start)}: ${message}`, start: file.start, end: file.end }));
}

/** The check options an expression of this ruleset is checked with. */
export function expressionOptions(model: ParsedRuleset, options: RulesetCheckOptions): CheckOptions {
  const lints = options.severities && lintsTurnedOn(options.severities);
  const checkOptions = { phase: model.phase ?? options.defaultPhase, knownLists: options.knownLists, listKinds: options.listKinds, plan: options.plan, ...(options.addons ? { addons: options.addons } : {}) };
  return lints ? { ...checkOptions, lints } : checkOptions;
}

/** The lints off by default that the configuration's severities turn on, one array a configuration (the cache's key holds it). */
const turnedOn = new WeakMap<object, readonly string[] | undefined>();
function lintsTurnedOn(severities: Readonly<Record<string, RuleSeverity>>): readonly string[] | undefined {
  if (turnedOn.has(severities)) return turnedOn.get(severities);
  const codes = Object.keys(severities).filter((code) => PROBLEM_CODES.get(code)?.off && severities[code] !== 'off').sort();
  const lints = codes.length > 0 ? codes : undefined;
  turnedOn.set(severities, lints);
  return lints;
}

/** What checking a site gives: a filter's result or a value expression's, by the site's kind. */
export type SiteResult = CheckResult | ValueCheckResult;

/** The result for one expression site, from the cache when its text was checked before as the same kind. */
export function checkSite(site: FilterSite, model: ParsedRuleset, options: RulesetCheckOptions): CheckResult;
export function checkSite(site: ValueSite, model: ParsedRuleset, options: RulesetCheckOptions): ValueCheckResult;
export function checkSite(site: ExpressionSite, model: ParsedRuleset, options: RulesetCheckOptions): SiteResult;
export function checkSite(site: ExpressionSite, model: ParsedRuleset, options: RulesetCheckOptions): SiteResult {
  return new SiteChecker(model, options).check(site);
}

/**
 * Checks the sites of one ruleset with the options made once for it: each object of options is
 * the cache's key once (expression-cache.ts), not joined again for every expression.
 */
export class SiteChecker {
  readonly cache: ExpressionCache;
  private readonly options: CheckOptions;
  /** A value site's options, by the types it expects (a few shared arrays). */
  private readonly valueOptions = new Map<readonly ValueType[] | undefined, ValueCheckOptions>();

  constructor(model: ParsedRuleset, options: RulesetCheckOptions) {
    this.cache = options.cache ?? new ExpressionCache();
    this.options = expressionOptions(model, options);
  }

  check(site: FilterSite): CheckResult;
  check(site: ExpressionSite): SiteResult;
  check(site: ExpressionSite): SiteResult {
    if (site.kind !== 'value') return this.cache.check(site.text, this.options);
    let options = this.valueOptions.get(site.expect);
    if (!options) this.valueOptions.set(site.expect, (options = { ...this.options, expect: site.expect }));
    return this.cache.checkValue(site.text, options);
  }
}

/**
 * The site of `sites` (a model's `sites` or `expressions`) a document offset is in, and where
 * in the site's decoded text. The
 * offsets just inside the quotes count as inside: a cursor at the end of `"ip.src in |"` is in
 * the expression.
 */
export function siteAt<S extends ExpressionSite>(sites: readonly S[], offset: number): { site: S; offset: number } | undefined {
  for (const site of sites) {
    // The node's range first, so that only the expression under the cursor is decoded.
    if (offset < site.node.start || offset > site.node.end) continue;
    const decoded = site.decoded();
    const { length, end } = contentExtent(site);
    if (offset < decoded.contentStart || offset > end) continue;
    // A Terraform value composed of several strings spans the text between them: only its own characters are in it.
    if ((site.seams || site.elsewhere) && !writtenAt(decoded, offset)) continue;
    // Inside a `${…}` is Terraform's, not the expression's: no completion or hover there,
    // whose edits would replace the interpolation with the stand-in's text.
    if (site.holes?.some((h) => inside(mapRange(decoded, h.start, h.end), offset))) return undefined;
    return { site, offset: offset >= end ? length : unmapOffset(decoded, offset) };
  }
  return undefined;
}

/** Whether a character of the decoded text is written at (or just after) the offset. */
function writtenAt(decoded: DecodedString, offset: number): boolean {
  for (let k = 0; k < decoded.value.length; k++) if (decoded.starts[k] < decoded.ends[k] && offset >= decoded.starts[k] && offset <= decoded.ends[k]) return true;
  return false;
}

function inside(range: { start: number; end: number }, offset: number): boolean {
  return offset > range.start && offset < range.end;
}

/** Like checkRuleset, for a document already parsed (the language server keeps one a version). */
export function checkParsedRuleset(model: ParsedRuleset, given: RulesetCheckOptions = {}, directives = true): DocumentProblem[] {
  // Quotes inside a string that end it early: one problem that says so, not the parser's many.
  const quotes = unescapedQuotes(model);
  if (quotes) return quotes;
  const options = { ...given, cache: given.cache ?? new ExpressionCache() };
  const checker = new SiteChecker(model, options);
  const cache = checker.cache;
  const problems: DocumentProblem[] = [...model.syntaxProblems];
  checkShape(model, problems, options.defaultPhase);
  checkPlanLimits(model, problems, options);
  const phase = model.phase ?? options.defaultPhase;
  // Where some rules are Terraform's to make, the rules read are not compared with each other.
  // Rules placed by `before:`/`after:` (entry-point.ts) run in another order than written, which
  // may hang on other files: nothing is said of which comes first rather than something false.
  const order = model.rulesComputed || (model.layout !== 'terraform' && placesRules(model)) ? undefined : ruleOrderCheck(model, cache, phase);
  // The checks in a loop of their own: interleaved with what follows, the cold run of a
  // 10,000-rule file took some 15% more instructions (V8 optimized and deoptimized more).
  const { onExpression } = options;
  const total = model.expressions.length;
  const results = onExpression
    ? model.expressions.map((site, i) => {
        const result = checker.check(site);
        onExpression(i + 1, total);
        return result;
      })
    : model.expressions.map((site) => checker.check(site));
  for (let i = 0; i < results.length; i++) {
    const site = model.expressions[i];
    pushSiteProblems(site, results[i].problems, problems);
    order?.add(site, results[i]);
  }
  // Most rulesets have no expression but their rules' own.
  if (model.sites.length > model.expressions.length) {
    for (const site of model.sites) {
      if (isRuleExpression(site)) continue;
      pushSiteProblems(site, checker.check(site).problems, problems);
    }
  }
  order?.finish(problems);
  problems.push(...accountExecuteProblems(model, phase, results, expressionEdit));
  problems.sort((a, b) => a.start - b.start || a.end - b.end);
  if (options.severities) applyRuleSeverities(problems, options.severities);
  // Last: a directive that silences nothing must see what the configuration left.
  if (directives) applyDisableDirectives(model, problems, options.severities);
  return problems;
}

/**
 * The expression's `edge-whitespace` findings as the host writes the expression. A YAML block
 * scalar (`|`, `>`, `|+`) and a Terraform heredoc end their value with line breaks of their own
 * form, and a heredoc's lines may keep their indentation (`<<EOT`); a Terraform value made of
 * other strings (a `file(…)` or `templatefile(…)` whose file ends with a line break, as most
 * files do) ends as they do: writing so is ordinary, so only the spaces or TABs on the
 * expression's own last line are said there, and nothing of the start. Quoted strings (`"… "`,
 * `"…\n"` in JSON) hold what their author wrote: said as found.
 */
function edgeWhitespaceOfHost(site: ExpressionSite, found: CheckResult['problems']): CheckResult['problems'] {
  const style = site.node.style;
  if (style !== 'hcl-heredoc' && !isBlockScalar(style) && !site.elsewhere && !site.brought && !site.seams) return found;
  let kept: CheckResult['problems'][number][] | undefined;
  for (let i = 0; i < found.length; i++) {
    const p = found[i];
    if (p.code !== 'edge-whitespace') {
      kept?.push(p);
      continue;
    }
    kept ??= found.slice(0, i);
    if (p.span.start === 0) continue;
    // On the last line: what comes before the run's first line break.
    const run = site.text.slice(p.span.start, p.span.end);
    const lineEnd = run.search(/[\r\n\u0085\u2028\u2029]/);
    const end = lineEnd < 0 ? p.span.end : p.span.start + lineEnd;
    if (end === p.span.start) continue;
    const span = { start: p.span.start, end };
    kept.push({ ...p, span, fixes: p.fixes?.map((f) => ({ ...f, edits: [{ span, newText: '' }] })) });
  }
  return kept ?? found;
}

/**
 * Problems a stand-in for an interpolation may cause away from it: the parser's, which can
 * no longer read what follows, and a value or operator that the stand-in leaves unmatched.
 */
const CAUSED_BY_A_HOLE = new Set(['syntax-error', 'unterminated-string', 'invalid-value', 'missing-operator', 'set-required']);

/**
 * An expression's problems in the document. Where Terraform fills in part of it (`${…}`),
 * nothing on or touching that part is reported, nor what the stand-in may have caused after
 * it; one hint on the first interpolation says the expression was not checked there.
 */
function pushSiteProblems(site: ExpressionSite, all: CheckResult['problems'], problems: DocumentProblem[]): void {
  const found = edgeWhitespaceOfHost(site, all);
  const holes = site.holes;
  if (site.elsewhere || site.brought || site.seams) {
    pushComposedProblems(site, found, problems);
    return;
  }
  if (!holes) {
    for (const p of found) problems.push(mapExpressionProblem(site, p));
    return;
  }
  const touches = (span: { start: number; end: number }) => touchesAny(holes, span);
  for (const p of found) {
    if (touches(p.span) || (CAUSED_BY_A_HOLE.has(p.code) && p.span.end >= holes[0].start)) continue;
    const fixes = p.fixes?.filter((f) => !f.edits.some((e) => touches(e.span)));
    problems.push(mapExpressionProblem(site, fixes && fixes.length > 0 ? { ...p, fixes } : { ...p, fixes: undefined }));
  }
  const at = mapRange(site.decoded(), holes[0].start, holes[0].end);
  const parts = holes.length === 1 ? 'this `${…}` part is' : `its ${holes.length} \`\${…}\` parts are`;
  problems.push({
    code: 'terraform-interpolation',
    severity: 'hint',
    message: `${parts} Terraform's to fill in, so the expression was not checked there`,
    start: at.start,
    end: at.end,
  });
}

/**
 * The problems of a Terraform value composed of several strings (terraform-sites.ts): what lies
 * wholly in characters written in another file is that file's; a fix that would edit characters
 * not written here as they are, or span two strings, is left out.
 */
function pushComposedProblems(site: ExpressionSite, found: CheckResult['problems'], problems: DocumentProblem[]): void {
  const elsewhere = site.elsewhere ?? [];
  const untouchable = [...elsewhere, ...(site.brought ?? [])];
  const seams = site.seams ?? [];
  const within = (span: { start: number; end: number }) => elsewhere.some((r) => span.start >= r.start && span.end <= r.end && (span.end > span.start || (span.start > r.start && span.start < r.end)));
  const editable = (span: { start: number; end: number }) => !untouchable.some((r) => span.start < r.end && span.end > r.start) && !untouchable.some((r) => span.start === span.end && span.start > r.start && span.start < r.end) && !seams.some((s) => span.start < s && span.end > s);
  for (const p of found) {
    if (within(p.span)) continue;
    const fixes = p.fixes?.filter((f) => f.edits.every((e) => editable(e.span)));
    problems.push(mapExpressionProblem(site, fixes && fixes.length > 0 ? { ...p, fixes } : { ...p, fixes: undefined }));
  }
}

/**
 * Whether `span` touches one of `holes` (in order, apart): by binary search, as a string with
 * thousands of holes can have a problem on each.
 */
function touchesAny(holes: readonly { start: number; end: number }[], span: { start: number; end: number }): boolean {
  // The first hole that does not end before the span starts; it touches the span unless it starts after the span ends.
  let low = 0;
  let high = holes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holes[middle].end < span.start) low = middle + 1;
    else high = middle;
  }
  return low < holes.length && holes[low].start <= span.end;
}

function mapExpressionProblem(site: ExpressionSite, p: CheckResult['problems'][number]): DocumentProblem {
  // Through expressionRange, like the edits: in a block scalar the end of the expression (a
  // syntax error's "found the end", an unterminated string) then lands after its last
  // character, not on the next line past the chomped line breaks.
  let { start, end } = expressionRange(site, p.span);
  // A unit of the value may come from half of a character written in the file (an escape before
  // an emoji): the problem takes the whole character.
  const source = site.node.source;
  if (source) ({ start, end } = shifted(onWholeCharacters(source.text, { start: start - source.shift, end: end - source.shift }), source.shift));
  let mapped: DocumentProblem = { code: p.code, severity: p.severity, message: p.message, start, end };
  if (p.related) mapped = { ...mapped, related: p.related.map((r) => ({ ...expressionRange(site, r.span), message: r.message })) };
  if (!p.fixes) return mapped;
  return { ...mapped, fixes: p.fixes.map((f) => ({ title: f.title, edits: f.edits.map((e) => expressionEdit(site, e.span, e.newText)) })) };
}

function shifted(range: { start: number; end: number }, by: number): { start: number; end: number } {
  return { start: range.start + by, end: range.end + by };
}

/** An edit of the expression (decoded offsets, plain text) as an edit of the document. */
export function expressionEdit(site: ExpressionSite, span: { start: number; end: number }, newText: string): DocumentEdit {
  if (site.node.style === 'hcl-heredoc' && /[\r\n]/.test(newText)) {
    // A new line of a heredoc starts at the indentation of the line it breaks, which keeps
    // `<<-EOT`'s common indentation, and with it the value of every other line, as it was.
    const range = expressionRange(site, span);
    const source = site.node.source;
    const indent = source ? lineIndent(source.text, range.start - source.shift) : '';
    return { ...range, newText: encodeForScalar('hcl-heredoc', newText).replace(/\r?\n/g, (eol) => eol + indent) };
  }
  // A line break written into a plain, single-quoted or block scalar would be folded or
  // need re-indenting; a double-quoted string holds it as `\n`, so the scalar becomes one.
  if (/[\r\n]/.test(newText) && site.node.style !== 'json' && site.node.style !== 'double-quoted' && site.node.style !== 'hcl-quoted') {
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
  if (!isBlockScalar(site.node.style) && site.node.style !== 'hcl-heredoc') return { length, end: decoded.contentEnd };
  while (length > 0 && decoded.value[length - 1] === '\n') length--;
  return { length, end: length > 0 ? decoded.ends[length - 1] : decoded.contentStart };
}

/** The document range of a span of the expression; edits never reach past its own text. */
export function expressionRange(site: ExpressionSite, span: { start: number; end: number }): { start: number; end: number } {
  const { length, end } = contentExtent(site);
  if (span.start >= length) return { start: end, end };
  return mapRange(site.decoded(), span.start, Math.min(span.end, length));
}
