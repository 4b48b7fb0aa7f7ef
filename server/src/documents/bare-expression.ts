/**
 * One expression on its own, outside any ruleset file: what `rulesets check --expression` and
 * `--stdin` check, and the library's `checkExpression`. The kind of expression says which
 * checker reads it (a filter, or a value expression and the type its place takes) and which
 * phase is assumed when none is given: the phase such an expression is most often written for.
 */
import type { ValueType } from '../language/ast';
import { PHASE_ACTIONS } from '../language/catalogue/actions';
import { checkExpression, checkValueExpression, type CheckOptions } from '../language/checker';
import type { Problem } from '../language/problem';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import type { DocumentProblem } from './parsed-ruleset';
import { applyRuleSeverities, type RuleSeverity } from './project-config';

/** A kind of expression site, as `--kind` names it. */
export interface ExpressionKindInfo {
  readonly name: string;
  /** Read as a filter (a condition) or as a value expression (one field, call or index expression). */
  readonly reads: 'filter' | 'value';
  /** A value expression's types: what its place takes (parsed-ruleset.ts valueTypesOf). */
  readonly expect?: readonly ValueType[];
  /** The action whose parameters hold a value expression of the kind: the phase must allow it. */
  readonly action?: string;
  /** The phase assumed when none is given. */
  readonly phase: string;
  /** Where such an expression is written in a rule, for the help. */
  readonly where: string;
}

const STRING: readonly ValueType[] = ['Bytes'];

/**
 * The kinds of expression site the ruleset reader knows (actions.ts PARAMETER_FACTS marks them
 * `filter` or `value`), by the place they are written in. The value kinds differ in the type
 * their place takes and in the phase they are assumed to be in, which decides the fields there are.
 */
export const EXPRESSION_KINDS: readonly ExpressionKindInfo[] = [
  { name: 'filter', reads: 'filter', phase: 'http_request_firewall_custom', where: "a rule's `expression`, a rate limit's `counting_expression`" },
  { name: 'rewrite', reads: 'value', expect: STRING, action: 'rewrite', phase: 'http_request_transform', where: "a URL rewrite's `uri.path.expression` or `uri.query.expression`" },
  { name: 'request-header', reads: 'value', expect: STRING, action: 'rewrite', phase: 'http_request_late_transform', where: "a request header's `headers.NAME.expression`" },
  { name: 'response-header', reads: 'value', expect: STRING, action: 'rewrite', phase: 'http_response_headers_transform', where: "a response header's `headers.NAME.expression`" },
  { name: 'redirect-target', reads: 'value', expect: STRING, action: 'redirect', phase: 'http_request_dynamic_redirect', where: "a single redirect's `from_value.target_url.expression`" },
  { name: 'cache-tags', reads: 'value', expect: ['Array<Bytes>'], action: 'set_cache_tags', phase: 'http_response_cache_settings', where: "`set_cache_tags`' `expression` (a list of tags)" },
];

/** The names `--kind` takes. */
export const EXPRESSION_KIND_NAMES: readonly string[] = EXPRESSION_KINDS.map((k) => k.name);

/** The kind of that name, or undefined. */
export function expressionKind(name: string): ExpressionKindInfo | undefined {
  return EXPRESSION_KINDS.find((k) => k.name === name);
}

/** What is wrong with a kind's name (given as `where` says, e.g. ` for --kind`): that it is none, with the names meant or the names there are. */
export function unknownKindMessage(name: string, where = ''): string {
  const meant = closestMatches(name, EXPRESSION_KIND_NAMES);
  return meant.length > 0 ? `unknown kind of expression \`${name}\`${where}; did you mean ${quoteAlternatives(meant)}?` : `unknown kind of expression \`${name}\`${where}; expected one of ${EXPRESSION_KIND_NAMES.map((n) => `\`${n}\``).join(', ')}`;
}

/**
 * Why a value expression of the kind has no place in the phase: its action is not one the phase
 * allows (actions.ts PHASE_ACTIONS); undefined when it has, or when no source says.
 */
export function kindOutOfPhase(kind: ExpressionKindInfo, phase: string): string | undefined {
  if (!kind.action) return undefined;
  const row = PHASE_ACTIONS.find((r) => r.phase === phase);
  if (!row?.actions || row.actions.includes(kind.action)) return undefined;
  const homes = PHASE_ACTIONS.filter((r) => r.actions?.includes(kind.action!)).map((r) => r.phase);
  return `a \`${kind.name}\` expression has no place in phase \`${phase}\`: its rules take no \`${kind.action}\` action; \`${kind.action}\` rules are in ${quoteAlternatives(homes)}`;
}

export interface BareExpressionOptions extends Omit<CheckOptions, 'phase'> {
  /** The kind (EXPRESSION_KINDS); the default is a filter. */
  readonly kind?: ExpressionKindInfo;
  /** The phase; the default is the kind's. */
  readonly phase?: string;
  /** Severities by code, as `.rulesets.yaml` sets them: `off` drops a code's findings; an error stays an error. */
  readonly severities?: Readonly<Record<string, RuleSeverity>>;
}

/** The problems of one expression, on offsets of its text, with their fixes as edits of it. */
export function checkBareExpression(text: string, options: BareExpressionOptions = {}): DocumentProblem[] {
  const kind = options.kind ?? EXPRESSION_KINDS[0];
  const checkOptions: CheckOptions = { phase: options.phase ?? kind.phase, knownLists: options.knownLists, listKinds: options.listKinds, plan: options.plan };
  const found = kind.reads === 'filter' ? checkExpression(text, checkOptions).problems : checkValueExpression(text, { ...checkOptions, expect: kind.expect }).problems;
  const problems = found.map(onText);
  if (options.severities) applyRuleSeverities(problems, options.severities);
  return problems;
}

function onText(p: Problem): DocumentProblem {
  const problem: DocumentProblem = { code: p.code, severity: p.severity, message: p.message, start: p.span.start, end: p.span.end };
  const withFixes = p.fixes ? { ...problem, fixes: p.fixes.map((f) => ({ title: f.title, edits: f.edits.map((e) => ({ start: e.span.start, end: e.span.end, newText: e.newText })) })) } : problem;
  return p.related ? { ...withFixes, related: p.related.map((r) => ({ start: r.span.start, end: r.span.end, message: r.message })) } : withFixes;
}
