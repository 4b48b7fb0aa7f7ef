/**
 * A request field a test case leaves out takes a neutral value, and the outcome names the ones
 * it depended on: a case says what matters to it (the URL, a header, the score a rule reads),
 * not every field any rule of the ruleset reads. Before, a case that left out `cf.zone.name`,
 * read only by an `execute` rule that does not match it anyway, ended as bad input.
 *
 * Which fields are assumed, and which are named:
 * - Only the fields a rule's result was unknown without (evaluate.ts's three-valued logic): a
 *   rule that does not match by what the case gives (`false and unknown`) needs nothing, and
 *   nothing is assumed for it.
 * - The outcome names those a rule that can change it read: in a phase whose rules decide
 *   (`block`, `pass`, …), a rule whose action ends the evaluation or skips; in a phase whose
 *   actions only match, or when the case says what the rules do (a redirect, a header), every
 *   rule looked at. An `execute` rule of WAF custom rules that an assumed `cf.zone.name = ""`
 *   keeps from matching changes no verdict, and is not named.
 * - A String is "" (a header the request does not send reads as ""), an Integer 0, a Boolean
 *   false, an array or a map empty; `http.request.method` is "GET", what a request that states
 *   no method is (a browser's navigation, curl without -X).
 * - Never assumed, so the case still has to give them (and is bad input without, as before):
 *   an IP address (every request comes from one, and no address is neutral: any falls in
 *   `0.0.0.0/0` or outside someone's list, so an assumed one would decide an allow-list
 *   silently); a String of a closed set of values (`ip.src.continent`, whose "" never arrives);
 *   an Integer whose documented bounds exclude 0; a field the case's URL or headers could not
 *   derive (request.ts says why: a URL that normalization would change, a port in the host),
 *   since "" would contradict what the case gave — but a header field whose header `headers`
 *   does not send (`http.user_agent` without User-Agent) is left out, and assumed; lists and calls, which are stated, not
 *   fields; and every field of a packet, which has a protocol, addresses and ports as a request
 *   has no header.
 */
import type { FieldInfo } from '../language/catalogue/catalogues';
import { isArrayType, isMapType } from '../language/types';
import { evaluatePartial, type Subject } from './evaluate';
import type { Lists } from './packet';
import type { Request } from './request';
import { evaluateRuleset, RuleEvaluationError, UndecidedRuleError, type PreparedRuleset, type RuleInfo, type RulesetVerdict } from './ruleset-eval';
import { arrayValue, booleanValue, bytesValue, mapValue, type Value } from './value';

/** A field the case left out, and the value it was given. */
export interface AssumedField {
  readonly name: string;
  /** The value as a case would write it: `""`, `0`, `false`, `[]`, `{}`, `"GET"`. */
  readonly shown: string;
}

export interface AssumingVerdict {
  readonly verdict: RulesetVerdict;
  /** The subject the verdict was reached on: the case's, with the assumed fields. */
  readonly subject: Subject;
  /** The fields left out that a rule able to change the outcome read (`decides`), in the order the rules needed them. */
  readonly assumed: readonly AssumedField[];
}

/** Whether a rule's match can change the case's outcome: see the module's comment. */
export type RuleDecides = (rule: RuleInfo) => boolean;

/** RuleDecides for a phase: its terminating actions and `skip`, or every rule where matches (or effects) are the outcome. */
export function rulesThatDecide(outcomes: { readonly kind: 'decide' | 'match'; readonly terminating: readonly string[] }, effectsJudged: boolean): RuleDecides {
  if (outcomes.kind === 'match' || effectsJudged) return () => true;
  return (rule) => rule.action === 'skip' || outcomes.terminating.includes(rule.action);
}

/**
 * The ruleset's verdict on the subject, each request field a rule needs and the case leaves out
 * taking its neutral value. Throws as evaluateRuleset does when what is missing is not a field
 * that is assumed (an address, a list, a call, a packet's field), with why an address is not.
 */
export function evaluateAssuming(prepared: PreparedRuleset, subject: Subject, lists: Lists, decides: RuleDecides): AssumingVerdict {
  let current = subject;
  const assumed: AssumedField[] = [];
  // Each round adds at least one field the subject lacked: at most as many rounds as the catalogue has fields.
  for (;;) {
    let verdict: RulesetVerdict;
    try {
      verdict = evaluateRuleset(prepared, current, lists);
    } catch (error) {
      if (!(error instanceof RuleEvaluationError) || error instanceof UndecidedRuleError || !isRequest(current)) throw error;
      const request: Request = current;
      const neutral = error.missing.flatMap((name) => {
        const value = neutralValue(request, name);
        return value ? [{ name, ...value }] : [];
      });
      if (neutral.length === 0) {
        const why = error.missing.map((name) => notAssumed(request, name)).filter((w) => w !== undefined);
        if (why.length === 0) throw error;
        throw new RuleEvaluationError(error.rule, `${error.reason} (not assumed: ${why.join('; ')}; give ${why.length === 1 ? 'it' : 'them'})`, error.missing);
      }
      const fields = new Map(request.fields);
      for (const { name, value, shown } of neutral) {
        fields.set(name, value);
        assumed.push({ name, shown });
      }
      current = { ...request, fields };
      continue;
    }
    return { verdict, subject: current, assumed: assumed.length === 0 ? [] : dependedOn(prepared, verdict, subject, lists, assumed, decides) };
  }
}

/**
 * The assumed fields that a rule able to change the outcome read: those its expression is
 * unknown without, over the case as given (a rule the case decides without them is not asked). A field assumed for one rule may be read by a later
 * one too, so each rule looked at is asked, not only the one that first needed it.
 */
function dependedOn(prepared: PreparedRuleset, verdict: RulesetVerdict, given: Subject, lists: Lists, assumed: readonly AssumedField[], decides: RuleDecides): readonly AssumedField[] {
  const read = new Set<string>();
  for (const entry of verdict.trace) {
    const ast = prepared.rules[entry.rule.index]?.ast;
    if (!ast || entry.outcome === 'disabled' || !decides(entry.rule)) continue;
    // A rule whose result the case decides without them (`false and …`) read them in vain.
    const result = evaluatePartial(ast, given, lists);
    if (result.value === undefined) for (const name of result.missing) read.add(name);
  }
  return assumed.filter((a) => read.has(a.name));
}

/** Why a field the request leaves out is not assumed, when it is for the field's own sake (not a URL's or a list's). */
function notAssumed(request: Request, name: string): string | undefined {
  const field = request.catalogue.fields.get(name);
  if (!field || request.fields.has(name) || request.underivable.has(name)) return undefined;
  if (field.type === 'Ip') return 'an address is never neutral, as every request comes from one and any address would decide an address rule by chance';
  if (field.type === 'Integer' && field.range) return `\`${name}\` holds ${field.range[0]}–${field.range[1]}, none of them neutral`;
  if (field.type === 'Bytes' && field.oneOf) return `\`${name}\` is one of a closed set of values, none of them neutral`;
  return undefined;
}

/** `assumed (not given): cf.zone.name = "", cf.bot_management.score = 0`; empty when nothing was. */
export function describeAssumed(assumed: readonly AssumedField[]): string {
  return assumed.length === 0 ? '' : `assumed (not given): ${assumed.map((a) => `${a.name} = ${a.shown}`).join(', ')}`;
}

function isRequest(subject: Subject): subject is Request {
  return 'kind' in subject && subject.kind === 'request';
}

/** The neutral value of a field the request leaves out, or undefined when none is assumed. */
function neutralValue(request: Request, name: string): { value: Value; shown: string } | undefined {
  if (request.fields.has(name) || (request.underivable.has(name) && !request.notSent.has(name))) return undefined;
  const field = request.catalogue.fields.get(name);
  if (!field) return undefined;
  if (name === 'http.request.method') return { value: bytesValue('GET'), shown: '"GET"' };
  return neutralOfType(field);
}

function neutralOfType(field: FieldInfo): { value: Value; shown: string } | undefined {
  const { type } = field;
  if (isArrayType(type)) return { value: arrayValue([]), shown: '[]' };
  if (isMapType(type)) return { value: mapValue([]), shown: '{}' };
  switch (type) {
    case 'Bytes':
      return field.oneOf ? undefined : { value: bytesValue(''), shown: '""' };
    case 'Integer':
      return field.range && (field.range[0] > 0n || field.range[1] < 0n) ? undefined : { value: { type: 'Integer', value: 0n }, shown: '0' };
    case 'Boolean':
      return { value: booleanValue(false), shown: 'false' };
    default:
      return undefined;
  }
}
