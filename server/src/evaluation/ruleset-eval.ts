/**
 * What a ruleset does with a packet (LANGUAGE.md §8) or an HTTP request:
 * - rules are evaluated in order; a rule with `enabled: false` is skipped;
 * - the first matching rule whose action ends the evaluation in the ruleset's phase decides
 *   (outcomes.ts: `block` for packets; `block`, the challenges, `redirect`, … for requests, as the
 *   docs' actions reference marks them terminating): the verdict is that action;
 * - a matching `skip` rule with `action_parameters.ruleset: "current"` exempts the packet or
 *   request from the rest of the ruleset: the verdict is `pass`, decided by the skip rule;
 * - a matching `execute` rule, `skip` with other parameters, `log`, or any other action does not
 *   decide here (what it runs or changes is not at hand): the trace says it matched, and
 *   evaluation goes on with the next rule;
 * - when no rule decides, the verdict is `pass` with no deciding rule.
 * A rule whose result depends on a field, list or call the test case does not give stops the
 * evaluation with a RuleEvaluationError naming the rule and the values.
 */
import { isTerraformTemplate, plain, property, type HostNode, type HostProperty } from '../documents/host/index';

export { plain };
import { mapRange } from '../documents/host/index';
import { checkSite, type RulesetCheckOptions } from '../documents/ruleset';
import type { ExpressionSite, ParsedRuleset } from '../documents/parsed-ruleset';
import { convertPrimitive } from '../documents/terraform-types';
import type { Expression } from '../language/ast';
import { EvaluationError, evaluatePartial, explainMissing, subjectName, type Subject } from './evaluate';
import { phaseOutcomes } from './outcomes';
import type { Lists, Packet } from './packet';

export interface RuleInfo {
  /** Position in `rules`, from 0. */
  readonly index: number;
  /** Position as people count it, from 1: what messages and test files say. */
  readonly number: number;
  readonly action: string;
  readonly description?: string;
  readonly id?: string;
  readonly ref?: string;
  /** Offsets of the rule in the file. */
  readonly start: number;
  readonly end: number;
  /**
   * What Terraform fills in that the rule's outcome depends on, as messages say it: `its
   * expression is filled in by Terraform (\`${var.path}\`)`. Undefined for a rule all written out.
   */
  readonly unknown?: string;
}

export interface TraceEntry {
  readonly rule: RuleInfo;
  /**
   * `disabled`: skipped unevaluated; `match` / `no-match`: its expression's value; `unknown`: a
   * rule that may match, whose matching depends on what Terraform fills in, and whose action
   * does not decide here (RuleInfo.unknown says what it needs).
   */
  readonly outcome: 'disabled' | 'match' | 'no-match' | 'unknown';
  /**
   * For a match: what it did. `block`, or `terminate` for another action that ends the
   * evaluation (a challenge, a redirect); `continue` for an action that does not decide here.
   */
  readonly effect?: 'block' | 'terminate' | 'skip-rest' | 'continue';
}

/** What a ruleset does: `pass`, or the terminating action that decided (`block`, `managed_challenge`, …). */
export interface RulesetVerdict<V extends string = string> {
  readonly verdict: V;
  /** The rule that decided; none when no rule did (`pass`). */
  readonly rule?: RuleInfo;
  /** Every rule looked at, in order, up to the deciding one. */
  readonly trace: readonly TraceEntry[];
}

/** The ruleset cannot be evaluated; `start`/`end` are offsets of the cause in the file. */
export class RulesetError extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
    /** No mistake of the file: its rules are Terraform's to make, and no verdict can be known here. */
    readonly undecided = false,
  ) {
    super(message);
  }
}

/** How a reason says a value is Terraform's to fill in (test-file-run.ts counts a case so stopped as undecided, not as bad input). */
export const FILLED_IN_BY_TERRAFORM = 'filled in by Terraform';

/** A rule's result depended on missing values, or could not be computed. */
export class RuleEvaluationError extends EvaluationError {
  constructor(
    readonly rule: RuleInfo,
    readonly reason: string,
    readonly missing: readonly string[] = [],
  ) {
    super(`rule ${describeRule(rule)}: ${reason}`);
  }
}

/**
 * A rule that decides the verdict depends on what Terraform fills in (RuleInfo.unknown): the
 * case cannot be decided until that is given, which is no fault of the rule. A
 * RuleEvaluationError, so that every caller that reports those reports it too (`--packet`,
 * VS Code's packet test).
 */
export class UndecidedRuleError extends RuleEvaluationError {
  constructor(rule: RuleInfo) {
    super(rule, `${rule.unknown}, and the verdict depends on it: not decided`);
  }
}

interface PreparedRule {
  readonly info: RuleInfo;
  readonly enabled: boolean;
  readonly skipsRest: boolean;
  readonly ast?: Expression;
  /** Its `action_parameters`, for what it does when it matches (effects.ts). */
  readonly parameters?: HostNode;
  /** What it does when it matches is Terraform's to fill in (its action, or what its `skip` skips): it may end the evaluation. */
  readonly mayDecide?: boolean;
}

export interface PreparedRuleset {
  readonly model: ParsedRuleset;
  /** The phase its expressions were checked for: the file's, else the default given. */
  readonly phase?: string;
  readonly rules: readonly PreparedRule[];
}

/**
 * Reads the rules and checks the expressions of the enabled ones. Throws RulesetError on
 * the first thing that stops evaluation: a JSON/YAML syntax error, a rule that is not an
 * object or has no string `action`/`expression`, an expression with errors.
 */
export function prepareRuleset(model: ParsedRuleset, options: RulesetCheckOptions = {}): PreparedRuleset {
  const syntax = model.syntaxProblems[0];
  if (syntax) throw new RulesetError(syntax.message, syntax.start, syntax.end);
  const rulesProperty = property(model.root, 'rules');
  const rulesNode = rulesProperty?.value;
  // Rules Terraform makes (`rules = local.rules`, a `dynamic "rules"` block, a list item it
  // computes) are not all in the file, nor is their order: no case can be decided.
  const made = rulesProperty?.filledIn ?? (model.rulesComputed ? model.root : undefined);
  if (made) {
    const what = rulesProperty?.filledIn ? `\`rules\` is ${FILLED_IN_BY_TERRAFORM} (\`${model.text.slice(made.start, made.end).replace(/\s+/g, ' ').slice(0, 60)}\`)` : `some of its rules are Terraform's to make (a \`dynamic "rules"\` block, or a list item Terraform computes)`;
    throw new RulesetError(`${model.label ?? 'the ruleset'}: ${what}, so no case can be decided here`, made.start, Math.min(made.start + 1, made.end), true);
  }
  if (rulesNode?.kind !== 'array') {
    const at = model.root ?? { start: 0, end: 0 };
    throw new RulesetError('the file has no `rules` array', at.start, Math.min(at.start + 1, at.end));
  }
  const rules = model.rules.map((node, index) => prepareRule(model, node, index, options));
  const phase = model.phase ?? options.defaultPhase;
  return phase === undefined ? { model, rules } : { model, phase, rules };
}

function prepareRule(model: ParsedRuleset, node: HostNode, index: number, options: RulesetCheckOptions): PreparedRule {
  if (node.kind !== 'object') throw new RulesetError(`rule ${index + 1} is not an object`, node.start, node.end);
  const text = (key: string): string | undefined => {
    const value = property(node, key)?.value;
    return value?.kind === 'string' ? String(value.value) : undefined;
  };
  // What Terraform fills in: an action, `enabled`, a skip's `ruleset`, an expression.
  const filledIn = (key: string, of: HostNode | undefined = node): string | undefined => terraformText(model.text, property(of, key));
  const actionFilledIn = filledIn('action');
  // An octorules rule without `action` has its section's.
  const action = actionFilledIn ?? text('action') ?? model.defaultAction;
  if (action === undefined) throw new RulesetError(`rule ${index + 1} has no \`action\``, node.start, node.start + 1);
  const enabledNode = property(node, 'enabled')?.value;
  // In a Terraform file `enabled = "false"` is false too (Terraform converts it).
  const enabledValue = enabledNode && model.format === 'hcl' ? terraformBool(enabledNode) : enabledNode;
  const enabled = !(enabledValue?.kind === 'boolean' && enabledValue.value === false);
  const parameters = property(node, 'action_parameters')?.value;
  const ruleset = property(parameters, 'ruleset')?.value;
  const skipsRest = action === 'skip' && ruleset?.kind === 'string' && ruleset.value === 'current';
  const site = model.expressions.find((s) => s.ruleIndex === index);
  const wholeExpression = site ? undefined : filledIn('expression');
  const expressionFilledIn = site?.holes ? holesText(model.text, site) : wholeExpression !== undefined ? `\`${wholeExpression}\`` : undefined;
  const enabledFilledIn = filledIn('enabled');
  const rulesetFilledIn = action === 'skip' ? filledIn('ruleset', parameters) : undefined;
  const unknown = expressionFilledIn !== undefined
    ? `its expression is filled in by Terraform (${expressionFilledIn})`
    : actionFilledIn !== undefined
      ? `its action is filled in by Terraform (\`${actionFilledIn}\`)`
      : enabledFilledIn !== undefined
        ? `whether it is enabled is filled in by Terraform (\`${enabledFilledIn}\`)`
        : rulesetFilledIn !== undefined
          ? `what it skips is filled in by Terraform (\`${rulesetFilledIn}\`)`
          : undefined;
  const info: RuleInfo = { index, number: index + 1, action, description: text('description'), id: text('id'), ref: text('ref'), start: node.start, end: node.end, ...(unknown ? { unknown } : {}) };
  if (!enabled) return { info, enabled, skipsRest };
  const mayDecide = actionFilledIn !== undefined || rulesetFilledIn !== undefined ? { mayDecide: true } : {};
  // A rule whose expression Terraform fills in is never run with the stand-in of its holes.
  if (expressionFilledIn !== undefined) return { info, enabled, skipsRest, parameters, ...mayDecide };
  if (!site) throw new RulesetError(`rule ${index + 1} has no \`expression\` string`, node.start, node.start + 1);
  const checked = checkSite(site, model, options);
  const error = checked.problems.find((p) => p.severity === 'error');
  if (!checked.ast || error) {
    const at = error ? mapRange(site.decoded(), error.span.start, error.span.end) : site.node;
    throw new RulesetError(`rule ${index + 1}'s expression has errors (${error?.message ?? 'it does not parse'}); \`rulesets check\` lists them`, at.start, at.end);
  }
  return { info, enabled, skipsRest, ast: checked.ast, parameters, ...mayDecide };
}

/** A value of a Terraform file as the bool Terraform converts it to, where it does. */
function terraformBool(node: HostNode): HostNode {
  const conversion = convertPrimitive(node, 'boolean');
  return conversion && 'value' in conversion ? conversion.value : node;
}

/** The characters of a value Terraform fills in (`var.x`, a `"${…}"` template), else undefined. */
function terraformText(text: string, p: HostProperty | undefined): string | undefined {
  const at = p?.filledIn ?? (isTerraformTemplate(p?.value) ? p!.value : undefined);
  return at ? text.slice(at.start, at.end).replace(/\s+/g, ' ') : undefined;
}

/** The `${…}` parts of an expression, as written: `` `${var.a}` `` or `` `${var.a}`, `${var.b}` ``. */
function holesText(text: string, site: ExpressionSite): string {
  const decoded = site.decoded();
  const shown = site.holes!.slice(0, 3).map((h) => {
    const { start, end } = mapRange(decoded, h.start, h.end);
    return `\`${text.slice(start, end)}\``;
  });
  return `${shown.join(', ')}${site.holes!.length > 3 ? ', …' : ''}`;
}

/**
 * The verdict of the ruleset on the packet or request. Throws RulesetError or RuleEvaluationError,
 * or UndecidedRuleError where a rule Terraform fills in decides.
 * A packet's verdict is `block` or `pass`, as the packet phases have no other terminating action.
 */
export function evaluateRuleset(ruleset: ParsedRuleset | PreparedRuleset, packet: Packet, lists?: Lists): RulesetVerdict<'block' | 'pass'>;
export function evaluateRuleset(ruleset: ParsedRuleset | PreparedRuleset, subject: Subject, lists?: Lists): RulesetVerdict;
export function evaluateRuleset(ruleset: ParsedRuleset | PreparedRuleset, subject: Subject, lists: Lists = new Map()): RulesetVerdict {
  const prepared = 'model' in ruleset ? ruleset : prepareRuleset(ruleset);
  const terminating = phaseOutcomes(prepared.phase, subjectName(subject)).terminating;
  const trace: TraceEntry[] = [];
  for (const rule of prepared.rules) {
    if (!rule.enabled || (!rule.ast && !rule.info.unknown)) {
      trace.push({ rule: rule.info, outcome: 'disabled' });
      continue;
    }
    let result;
    try {
      result = rule.ast ? evaluatePartial(rule.ast, subject, lists) : undefined;
    } catch (error) {
      if (error instanceof EvaluationError) throw new RuleEvaluationError(rule.info, error.message);
      throw error;
    }
    if (result && result.value === undefined) {
      throw new RuleEvaluationError(rule.info, explainMissing(result.missing, result.reasons, subjectName(subject)), result.missing);
    }
    if (result && !result.value) {
      trace.push({ rule: rule.info, outcome: 'no-match' });
      continue;
    }
    if (rule.info.unknown) {
      // It may match (or its match is all that is known): where its action may end the
      // evaluation, the verdict is not known; elsewhere the rules after it still say theirs.
      if (terminating.includes(rule.info.action) || rule.skipsRest || rule.mayDecide) throw new UndecidedRuleError(rule.info);
      trace.push({ rule: rule.info, outcome: 'unknown' });
      continue;
    }
    if (terminating.includes(rule.info.action)) {
      trace.push({ rule: rule.info, outcome: 'match', effect: rule.info.action === 'block' ? 'block' : 'terminate' });
      return { verdict: rule.info.action, rule: rule.info, trace };
    }
    if (rule.skipsRest) {
      trace.push({ rule: rule.info, outcome: 'match', effect: 'skip-rest' });
      return { verdict: 'pass', rule: rule.info, trace };
    }
    trace.push({ rule: rule.info, outcome: 'match', effect: 'continue' });
  }
  return { verdict: 'pass', trace };
}

/** `2 (Block every other TCP destination port)`, or `2` for a rule with no description. */
export function describeRule(rule: RuleInfo): string {
  return rule.description ? `${rule.number} (${rule.description})` : `${rule.number}`;
}

/** The rule a test case names by `rule:`: a 1-based number, or a description, id or ref; else why not. */
export function findRule(ruleset: PreparedRuleset, node: HostNode): RuleInfo | string {
  const rules = ruleset.rules.map((r) => r.info);
  if (node.kind === 'number') {
    const rule = rules.find((r) => r.number === node.value);
    return rule ?? `no rule ${String(node.value)}: the ruleset has ${rules.length} rule${rules.length === 1 ? '' : 's'}, numbered from 1`;
  }
  if (node.kind === 'string') {
    const value = String(node.value);
    const matches = rules.filter((r) => r.description === value || r.id === value || r.ref === value);
    if (matches.length === 1) return matches[0];
    if (matches.length > 1) return `${matches.length} rules have the description or id \`${value}\`; name the rule by its number`;
    return `no rule has the description, id or ref \`${value}\``;
  }
  return "expected `rule` as a 1-based rule number, or a rule's description, id or ref";
}

