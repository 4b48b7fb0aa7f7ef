/**
 * How completion and hover say what the catalogue knows of a field or a function: its type,
 * the plan it needs, its deprecation, where it may be used. One module, so that a completion
 * item's detail and the hover over the same name cannot disagree.
 */
import { catalogueFor, type Catalogue, type ExpressionKind, type FieldInfo, type FunctionInfo } from '../language/catalogue/catalogues';
import { describePlan } from '../language/catalogue/plans';
import { describeValueType } from '../language/types';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';

/** The phase a document's expressions are read in, its catalogue, and the kind of the expression at hand. */
export interface PhaseScope {
  readonly phase: string | undefined;
  readonly catalogue: Catalogue;
  /** A filter (a rule's `expression`, the default) or a value expression (inside the rule's parameters). */
  readonly kind?: ExpressionKind;
}

/** The phase of the ruleset at `offset` (a Terraform or octorules file has one a resource or section), else the default phase. */
export function phaseScope(model: DocumentModel, settings: Settings, offset: number, kind: ExpressionKind = 'filter'): PhaseScope {
  const phase = model.rulesetAt(offset)?.phase ?? settings.defaultPhase;
  return { phase, catalogue: catalogueFor(phase), kind };
}

/** `Business or above`, or what the catalogue says more (`Enterprise add-on: Bot Management`). */
export function planText(entry: { readonly plan?: FieldInfo['plan']; readonly planNote?: string }): string | undefined {
  if (entry.planNote) return entry.planNote;
  return entry.plan ? describePlan(entry.plan) : undefined;
}

/** `deprecated: use ip.src.country or ip.dst.country`. */
export function deprecationText(field: FieldInfo): string | undefined {
  const replacements = field.deprecated?.replacements;
  if (!replacements) return undefined;
  return replacements.length > 0 ? `deprecated: use ${replacements.join(' or ')}` : 'deprecated';
}

/** One line: the type, the plan, the deprecation (a completion item's detail). */
export function fieldDetail(field: FieldInfo): string {
  return [describeValueType(field.type), planText(field), deprecationText(field)].filter((part) => part !== undefined).join(' · ');
}

/** Where the docs limit a field, in words: `Only in http_request_transform, …: why`. */
export function fieldAvailability(field: FieldInfo): string | undefined {
  const only = field.only;
  if (!only) return undefined;
  const where = [only.phases ? `the phases ${only.phases.map((p) => `\`${p}\``).join(', ')}` : undefined, only.expressions ? `${only.expressions} expressions` : undefined]
    .filter((part) => part !== undefined)
    .join(', in ');
  return `Only in ${where} (${only.why}).`;
}

/** Whether a field may be offered in an expression of the scope's kind and phase (an unknown phase offers all). */
export function fieldUsable(field: FieldInfo, scope: PhaseScope): boolean {
  const only = field.only;
  if (!only) return true;
  if (only.expressions !== undefined && only.expressions !== (scope.kind ?? 'filter')) return false;
  return !only.phases || !scope.catalogue.complete || scope.phase === undefined || only.phases.includes(scope.phase);
}

/** Whether a function may be offered in an expression of the scope's kind and phase (an unknown phase offers all). */
export function functionUsable(fn: FunctionInfo, scope: PhaseScope): boolean {
  if (!fn.expressions.includes(scope.kind ?? 'filter')) return false;
  return !fn.phases || !scope.catalogue.complete || scope.phase === undefined || fn.phases.includes(scope.phase);
}

/** Where a function may be used: `filter and value expressions; only in …`. */
export function functionAvailability(fn: FunctionInfo): string {
  const kinds = fn.expressions.length === 2 ? 'filter and value expressions' : `${fn.expressions[0]} expressions only`;
  const phases = fn.phases ? `; only in the phases ${fn.phases.map((p) => `\`${p}\``).join(', ')}` : '';
  return `Usable in ${kinds}${phases}.`;
}

/** Said of every name offered or described in a phase this tool has no table for. */
export function unverifiedNote(scope: PhaseScope): string | undefined {
  if (scope.catalogue.complete) return undefined;
  const phase = scope.phase ? `phase \`${scope.phase}\`` : 'a ruleset without a phase';
  return `Unverified: this tool has no field table for ${phase}, so this comes from the tables of every phase and is not checked here.`;
}
