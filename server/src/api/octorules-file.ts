/**
 * A live ruleset written as an octorules rules file: the section of its phase under the
 * `cloudflare:` block, as `octorules dump` writes a zone's file, each rule with `ref` and
 * `description` first and the API's own fields after, without what the service sets, and
 * without `action` where it is the section's default (octorules adds it back when it syncs).
 *
 * Facts from octorules 0.37.0 (dumper.py: `_clean_rule`, `_nest_output`, literal block style
 * for strings with line breaks) and octorules-cloudflare 0.18.1 (linter/__init__.py: the
 * fields a rule or its action parameters get from the API, `id`, `version`, `last_updated`,
 * `categories`, and `version`, `disable_railgun`).
 */
import * as YAML from 'yaml';
import { OCTORULES_NAMESPACE, OCTORULES_SECTIONS, type OctorulesSection } from '../language/catalogue/generated/octorules-sections';
import type { Ruleset } from './types';

/** What the service sets on a rule (octorules-cloudflare's API fields of a rule), never written. */
const API_RULE_FIELDS = new Set(['id', 'version', 'last_updated', 'categories']);
/** What the service sets in a rule's action parameters. */
const API_PARAMETER_FIELDS = new Set(['version', 'disable_railgun']);
const RULE_ORDER = ['ref', 'description', 'expression', 'action', 'action_parameters'];

/** The section octorules keeps a phase's rules in; undefined for a phase it has none for. */
export function octorulesSectionOfPhase(phase: string): OctorulesSection | undefined {
  return OCTORULES_SECTIONS.find((s) => s.phase === phase);
}

/** The ruleset as an octorules rules file of one section. The caller makes sure the phase has one. */
export function octorulesOfRuleset(ruleset: Ruleset, section: OctorulesSection): string {
  const rules = ruleset.rules.map((rule) => {
    const record = rule as unknown as Readonly<Record<string, unknown>>;
    const cleaned: Record<string, unknown> = {};
    // A rule the API gives without a ref of its own has its id as ref; octorules requires one.
    cleaned.ref = typeof record.ref === 'string' && record.ref !== '' ? record.ref : record.id;
    for (const key of [...RULE_ORDER, ...Object.keys(record).sort()]) {
      const value = record[key];
      if (key in cleaned || value === undefined || API_RULE_FIELDS.has(key)) continue;
      if (key === 'action' && value === section.defaultAction) continue;
      if (key === 'action_parameters' && typeof value === 'object' && value !== null) {
        cleaned[key] = Object.fromEntries(Object.entries(value).filter(([k]) => !API_PARAMETER_FIELDS.has(k)));
      } else cleaned[key] = value;
    }
    return cleaned;
  });
  const document = new YAML.Document({ [OCTORULES_NAMESPACE]: { [section.section]: rules } });
  // lineWidth 0: an expression stays on its line; one with line breaks becomes a block scalar.
  return `---\n${document.toString({ lineWidth: 0, minContentWidth: 0 })}`;
}
