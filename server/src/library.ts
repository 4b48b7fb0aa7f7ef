/**
 * rulesets-tools as a library: `require('rulesets-tools')` or `import { checkExpression,
 * checkRuleset } from 'rulesets-tools'`. Pure functions over text, with no editor, no file and no
 * network access: what `rulesets check` reports, as objects.
 *
 * The public types are written out here, not imported, so that the declaration file made from
 * this one alone (scripts/build.mjs, dist/library.d.ts) is whole. The functions below assign
 * them to the core's types, so that the compiler says when those change; the kinds are compared
 * with the core's EXPRESSION_KINDS by test/library/library.test.ts.
 */
import {
  checkBareExpression,
  checkRuleset as checkRulesetText,
  closestMatches,
  expressionKind,
  kindOutOfPhase,
  KNOWN_PHASES,
  loadTerraformParser,
  positionsIn,
  quoteAlternatives,
  rulesetFormatOfPath,
  unknownKindMessage,
  type DocumentProblem,
  type HostFormat,
  type ListKind as CoreListKind,
  type Plan as CorePlan,
  type RuleSeverity,
} from './core';

/** How much a finding matters: `error` is what the service would refuse. */
export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A place in the text: 0-based line, and character in UTF-16 code units (as LSP and `--format json` count). */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/** From `start` up to (not including) `end`. */
export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** Replace the text of `range` with `newText`. */
export interface TextEdit {
  readonly range: Range;
  readonly newText: string;
}

/** A quick fix: edits of the text checked that make the finding go away. */
export interface Fix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
}

/** One mistake, or a word about the text, as `rulesets check` reports it. */
export interface Finding {
  /** Stable name of the check (`unknown-field`, `comma-in-set`, …), as `.rulesets.yaml`'s `rules:` names it. */
  readonly code: string;
  readonly severity: Severity;
  /** What was expected, what was found, and how to fix it. Code is in backticks. */
  readonly message: string;
  readonly range: Range;
  /** Edits that fix it, best first, where one is sure. */
  readonly fixes?: readonly Fix[];
}

/**
 * What an expression is, by where it is written: a filter (a rule's `expression`, a rate
 * limit's `counting_expression`) or a value expression of one of the actions.
 */
export type ExpressionKind = 'filter' | 'rewrite' | 'request-header' | 'response-header' | 'redirect-target' | 'cache-tags';

/** The account's plan. */
export type Plan = 'free' | 'pro' | 'business' | 'enterprise';

/** What an account list holds. */
export type ListKind = 'ip' | 'asn' | 'hostname' | 'redirect';

/** What both functions take: the account's facts, as `.rulesets.yaml` gives them to `rulesets check`. */
export interface CommonOptions {
  /** The account's plan: a field, operator or function that needs a higher plan is reported. Default: none assumed. */
  readonly plan?: Plan;
  /**
   * The account's list names (without `$`), or each name with what the list holds. Default:
   * any well-formed list name is accepted.
   */
  readonly lists?: readonly string[] | Readonly<Record<string, ListKind>>;
  /** Severities by code, as `.rulesets.yaml`'s `rules:`: `off` drops a code's findings; an error stays an error. */
  readonly rules?: Readonly<Record<string, 'off' | 'error' | 'warning' | 'information'>>;
}

export interface ExpressionOptions extends CommonOptions {
  /** Default `filter`. */
  readonly kind?: ExpressionKind;
  /**
   * The phase, which decides the fields and functions there are. Default: the kind's most
   * usual phase: `http_request_firewall_custom` (WAF custom rules) for a filter,
   * `http_request_transform` for `rewrite`, `http_request_late_transform` for `request-header`,
   * `http_response_headers_transform` for `response-header`, `http_request_dynamic_redirect` for
   * `redirect-target`, `http_response_cache_settings` for `cache-tags`.
   */
  readonly phase?: string;
}

/** The formats of ruleset files. An octorules file is YAML: `yaml` and `octorules` read the same. */
export type RulesetFormat = 'json' | 'yaml' | 'terraform' | 'octorules';

export interface RulesetOptions extends CommonOptions {
  /** Default: by `fileName`'s extension, else JSON when the text starts with `{` or `[`, else YAML. */
  readonly format?: RulesetFormat;
  /** The file's name, only to tell its format by its extension (`.json`, `.yaml`, `.yml`, `.tf`); never read. */
  readonly fileName?: string;
  /** The phase of a ruleset that names none (`--phase` of `rulesets check`). */
  readonly phase?: string;
}

/**
 * Checks one expression: every mistake the service would refuse, and what it would accept but
 * never match, on offsets of `text` (line 0 unless the expression has line breaks).
 * Throws a RangeError for a kind that does not exist, a misspelt phase, or a value kind in a
 * phase whose rules cannot hold it (a phase newer than this version is used as given), and a
 * TypeError for text that is not a string.
 */
export function checkExpression(text: string, options: ExpressionOptions = {}): Finding[] {
  checkText(text);
  const kind = expressionKind(options.kind ?? 'filter');
  if (!kind) throw new RangeError(unknownKindMessage(String(options.kind), ' (options.kind)'));
  if (options.phase !== undefined) checkPhase(options.phase);
  const phase = options.phase ?? kind.phase;
  const outOfPhase = kindOutOfPhase(kind, phase);
  if (outOfPhase) throw new RangeError(outOfPhase);
  return findings(text, checkBareExpression(text, { kind, phase, ...accountOptions(options) }));
}

/**
 * Checks a ruleset file's text: a ruleset in the API's shape (JSON or YAML), a Terraform file's
 * `cloudflare_ruleset` resources, or an octorules rules file; every finding on its place in
 * `text`. Asynchronous because the Terraform parser is WebAssembly, loaded on the first call
 * for a Terraform file (from beside this module); an octorules `!include` is not read. Rejects
 * as checkExpression throws, for a misspelt phase or format, or text that is not a string.
 */
export async function checkRuleset(text: string, options: RulesetOptions = {}): Promise<Finding[]> {
  checkText(text);
  if (options.phase !== undefined) checkPhase(options.phase);
  const format = hostFormat(text, options);
  if (format === 'hcl') await loadTerraformParser();
  const account = accountOptions(options);
  return findings(text, checkRulesetText(text, format, { defaultPhase: options.phase, plan: account.plan, knownLists: account.knownLists, listKinds: account.listKinds, severities: account.severities }));
}

/** A caller from JavaScript may pass anything: what is not text is said so, not met deep inside as a crash. */
function checkText(text: unknown): void {
  if (typeof text !== 'string') throw new TypeError(`expected the text to check as a string, found ${text === null ? 'null' : typeof text}`);
}

const FORMATS: Readonly<Record<RulesetFormat, HostFormat>> = { json: 'json', yaml: 'yaml', octorules: 'yaml', terraform: 'hcl' };

function hostFormat(text: string, options: RulesetOptions): HostFormat {
  if (options.format !== undefined) {
    if (!Object.hasOwn(FORMATS, options.format)) {
      const meant = closestMatches(String(options.format), Object.keys(FORMATS));
      throw new RangeError(`unknown format \`${options.format}\` (options.format); ${meant.length > 0 ? `did you mean ${quoteAlternatives(meant)}?` : `expected one of ${Object.keys(FORMATS).join(', ')}`}`);
    }
    return FORMATS[options.format];
  }
  const byName = options.fileName !== undefined ? rulesetFormatOfPath(options.fileName) : undefined;
  return byName ?? (/^\s*[{[]/.test(text) ? 'json' : 'yaml');
}

/** A misspelt phase is a mistake of the caller's; one merely unknown here (newer than this version) is used. */
function checkPhase(phase: string): void {
  if (KNOWN_PHASES.includes(phase)) return;
  const meant = closestMatches(phase, KNOWN_PHASES);
  if (meant.length > 0) throw new RangeError(`unknown phase \`${phase}\` (options.phase); did you mean ${quoteAlternatives(meant)}?`);
}

function accountOptions(options: CommonOptions): { plan?: CorePlan; knownLists?: readonly string[]; listKinds?: Readonly<Record<string, CoreListKind>>; severities?: Readonly<Record<string, RuleSeverity>> } {
  const lists = options.lists;
  const names = lists === undefined ? undefined : isNameList(lists) ? lists : Object.keys(lists);
  return {
    plan: options.plan,
    // No names means any account list is accepted, as in `rulesets check`.
    knownLists: names && names.length > 0 ? names : undefined,
    listKinds: lists !== undefined && !isNameList(lists) ? lists : undefined,
    severities: options.rules,
  };
}

function isNameList(lists: NonNullable<CommonOptions['lists']>): lists is readonly string[] {
  return Array.isArray(lists);
}

function findings(text: string, problems: readonly DocumentProblem[]): Finding[] {
  const positionAt = positionsIn(text);
  const range = (start: number, end: number): Range => ({ start: positionAt(start), end: positionAt(end) });
  return problems.map((p) => {
    const finding: Finding = { code: p.code, severity: p.severity, message: p.message, range: range(p.start, p.end) };
    return p.fixes && p.fixes.length > 0 ? { ...finding, fixes: p.fixes.map((f) => ({ title: f.title, edits: f.edits.map((e) => ({ range: range(e.start, e.end), newText: e.newText })) })) } : finding;
  });
}
