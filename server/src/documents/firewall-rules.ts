/**
 * The legacy Firewall Rules resources of a Terraform file (`cloudflare_filter`, and the
 * `cloudflare_firewall_rule` that uses one by `filter_id`): a warning on each that they have
 * ended, and the `cloudflare_ruleset` of WAF custom rules that takes them over, which the
 * warning's quick fix and `rulesets migrate-firewall-rules` both write.
 *
 * Facts, from their sources:
 * - Cloudflare's docs (cloudflare/cloudflare-docs at 0570ec1,
 *   src/content/docs/waf/reference/legacy/firewall-rules-upgrade.mdx): the Firewall Rules and
 *   Filters APIs, and the `cloudflare_firewall_rule` and `cloudflare_filter` resources, "are no
 *   longer supported since 2025-06-15"; firewall rules became custom rules of the
 *   `http_request_firewall_custom` phase, kept in their order; the Skip action replaces Allow
 *   (stop running the remaining custom rules: `ruleset = "current"`) and Bypass (do not run the
 *   other security products it names: `products`).
 * - The provider (cloudflare/terraform-provider-cloudflare v4.52.8, docs/resources/filter.md
 *   and firewall_rule.md): a filter has `zone_id`, `expression`, `description`, `paused`,
 *   `ref`; a firewall rule `zone_id`, `filter_id`, `action` (`block`, `challenge`,
 *   `js_challenge`, `managed_challenge`, `allow`, `log`, `bypass`), `priority` (a lower number
 *   first, rules without one after those with one), `products` (what `bypass` bypasses),
 *   `paused` and `description`.
 */
import { property } from './host/index';
import type { DocumentEdit } from './host/index';
import type { DocumentProblem, ParsedRuleset } from './parsed-ruleset';

export const FILTER_TYPE = 'cloudflare_filter';
export const FIREWALL_RULE_TYPE = 'cloudflare_firewall_rule';
/** The phase firewall rules were upgraded into: WAF custom rules. */
export const CUSTOM_RULES_PHASE = 'http_request_firewall_custom';

/** An attribute of a legacy resource: its value's characters, and the value where it is a literal. */
export interface LegacyAttribute {
  readonly start: number;
  readonly end: number;
  /** The value as written (`"block"`, `var.zone_id`, a heredoc). */
  readonly text: string;
  readonly string?: string;
  readonly boolean?: boolean;
  readonly number?: number;
}

/** A `cloudflare_filter` or `cloudflare_firewall_rule` resource as written. */
export interface LegacyResource {
  readonly type: string;
  /** The resource's name label. */
  readonly name: string;
  readonly start: number;
  readonly end: number;
  /** `resource "cloudflare_filter" "x"`: where the note is shown. */
  readonly header: { readonly start: number; readonly end: number };
  readonly attributes: ReadonlyMap<string, LegacyAttribute>;
}

/** What takes a file's firewall rules over. */
export interface FirewallRulesMigration {
  /** The `cloudflare_ruleset` resources (one a zone), as HCL. */
  readonly text: string;
  /** The edit that appends them to the file. */
  readonly edit: DocumentEdit;
  /** The firewall rules written as rules, by address. */
  readonly migrated: readonly string[];
  /** Firewall rules left out, each with why (`cloudflare_firewall_rule.x: its filter is not in this file`). */
  readonly leftOut: readonly string[];
}

/** The warning on each legacy resource, with the fix that writes the `cloudflare_ruleset` where there is one to write. */
export function firewallRulesProblems(text: string, resources: readonly LegacyResource[], rulesets: readonly ParsedRuleset[]): DocumentProblem[] {
  if (resources.length === 0) return [];
  const migration = firewallRulesMigration(text, resources, rulesets);
  const fixes = migration && migration.migrated.length > 0 ? [{ title: `Write the equivalent \`cloudflare_ruleset\` (${migration.migrated.length} rule${migration.migrated.length === 1 ? '' : 's'})`, edits: [migration.edit] }] : undefined;
  return resources.map((resource) => ({
    code: 'firewall-rules-ended',
    severity: 'warning' as const,
    message: `\`${resource.type}\` is a resource of Firewall Rules, which ended on 2025-06-15: Cloudflare keeps its rules as WAF custom rules, which Terraform manages as a \`cloudflare_ruleset\` of the phase \`${CUSTOM_RULES_PHASE}\``,
    start: resource.header.start,
    end: resource.header.end,
    ...(fixes ? { fixes } : {}),
  }));
}

/** One firewall rule with its filter, ready to write. */
interface Migrated {
  readonly rule: LegacyResource;
  readonly filter: LegacyResource;
  readonly index: number;
}

/**
 * The `cloudflare_ruleset` resources that take over the file's firewall rules whose filter is
 * in the file, one for each zone (a zone has one entry point ruleset of a phase), their rules
 * in the order Firewall Rules ran them: by `priority`, then as written. Undefined when the file
 * has no firewall rule; with none `migrated` (and no text) when none could be taken over.
 */
export function firewallRulesMigration(text: string, resources: readonly LegacyResource[], rulesets: readonly ParsedRuleset[]): FirewallRulesMigration | undefined {
  const filters = new Map(resources.filter((r) => r.type === FILTER_TYPE).map((r) => [r.name, r]));
  const migrated: Migrated[] = [];
  const leftOut: string[] = [];
  const takenOver = refsTakenOver(rulesets);
  resources.forEach((rule, index) => {
    if (rule.type !== FIREWALL_RULE_TYPE) return;
    const by = takenOver.get(rule.name);
    if (by) {
      leftOut.push(`${FIREWALL_RULE_TYPE}.${rule.name}: ${by} has a rule with its name as \`ref\` already`);
      return;
    }
    const filterId = rule.attributes.get('filter_id')?.text.trim();
    const named = filterId && /^cloudflare_filter\.([A-Za-z_][\w-]*)\.id$/.exec(filterId)?.[1];
    const filter = named ? filters.get(named) : undefined;
    if (!filter && rule.attributes.has('filter')) {
      leftOut.push(`${FIREWALL_RULE_TYPE}.${rule.name}: its \`filter\` and \`action\` are provider v5 objects, not taken over here`);
      return;
    }
    if (!filter || !filter.attributes.has('expression')) {
      leftOut.push(`${FIREWALL_RULE_TYPE}.${rule.name}: its filter is not a \`cloudflare_filter\` of this file with an \`expression\``);
      return;
    }
    migrated.push({ rule, filter, index });
  });
  if (migrated.length === 0) return leftOut.length === 0 ? undefined : { text: '', edit: { start: text.length, end: text.length, newText: '' }, migrated: [], leftOut };
  migrated.sort((a, b) => priorityOf(a.rule) - priorityOf(b.rule) || a.index - b.index);
  // A zone's rules together, zones in the order of their first rule.
  const zones = new Map<string, Migrated[]>();
  for (const m of migrated) {
    const zone = (m.rule.attributes.get('zone_id') ?? m.filter.attributes.get('zone_id'))?.text ?? '';
    const rules = zones.get(zone);
    if (rules) rules.push(m);
    else zones.set(zone, [m]);
  }
  const blocks = providerUsesBlocks(resources, rulesets);
  const taken = new Set(resourceNames(text));
  const written: string[] = [];
  for (const [zone, rules] of zones) {
    const name = freeName('firewall_rules', taken);
    taken.add(name);
    written.push(rulesetText(name, zone, rules, blocks));
  }
  const newText = written.join('\n');
  const lead = text.length === 0 ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return {
    text: newText,
    edit: { start: text.length, end: text.length, newText: lead + newText },
    migrated: migrated.map((m) => `${FIREWALL_RULE_TYPE}.${m.rule.name}`),
    leftOut,
  };
}

/**
 * The refs of the file's custom rules, each with its resource: a firewall rule taken over
 * (a fix applied, this command run) is a rule whose `ref` is its name, and is not written twice.
 */
function refsTakenOver(rulesets: readonly ParsedRuleset[]): Map<string, string> {
  const refs = new Map<string, string>();
  for (const ruleset of rulesets) {
    if (ruleset.legacyFilter || ruleset.phase !== CUSTOM_RULES_PHASE) continue;
    for (const rule of ruleset.rules) {
      const ref = property(rule, 'ref')?.value;
      if (ref?.kind === 'string') refs.set(String(ref.value), ruleset.label ?? 'a cloudflare_ruleset');
    }
  }
  return refs;
}

/** Firewall Rules ran a rule with a `priority` before one without, a lower one first. */
function priorityOf(rule: LegacyResource): number {
  return rule.attributes.get('priority')?.number ?? Number.POSITIVE_INFINITY;
}

/**
 * Whether to write provider v4 blocks: as the file's `cloudflare_ruleset` resources are
 * written, and without any, as its firewall rules are: `filter_id` is the v4 provider's (v5's
 * firewall rule takes a `filter` object), and the provider a file is written for is the one
 * that reads the new resource.
 */
function providerUsesBlocks(resources: readonly LegacyResource[], rulesets: readonly ParsedRuleset[]): boolean {
  const own = rulesets.filter((r) => !r.legacyFilter && r.rules.length > 0);
  if (own.length > 0) return own.some((r) => r.parametersInProviderShape === true);
  return resources.some((r) => r.type === FIREWALL_RULE_TYPE && r.attributes.has('filter_id'));
}

function resourceNames(text: string): string[] {
  return [...text.matchAll(/^[ \t]*resource[ \t]+"?cloudflare_ruleset"?[ \t]+"?([\w-]+)/gm)].map((m) => m[1]);
}

function freeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** `key = value` lines, the `=` of a run of one-line values aligned as `terraform fmt` aligns them. */
function attributeLines(entries: readonly (readonly [string, string])[], indent: string): string[] {
  const lines: string[] = [];
  let i = 0;
  while (i < entries.length) {
    let j = i;
    while (j < entries.length && !entries[j][1].includes('\n')) j++;
    if (j === i) {
      lines.push(`${indent}${entries[i][0]} = ${entries[i][1]}`);
      i++;
      continue;
    }
    const width = Math.max(...entries.slice(i, j).map(([key]) => key.length));
    for (; i < j; i++) lines.push(`${indent}${entries[i][0].padEnd(width)} = ${entries[i][1]}`);
  }
  return lines;
}

/** What a firewall rule's action becomes in a custom rule: its name, and the skip's parameters for `allow` and `bypass`. */
function customAction(rule: LegacyResource): { action: string; parameters?: readonly (readonly [string, string])[] } {
  const action = rule.attributes.get('action');
  switch (action?.string) {
    case 'allow':
      return { action: '"skip"', parameters: [['ruleset', '"current"']] };
    case 'bypass': {
      const products = rule.attributes.get('products');
      return { action: '"skip"', parameters: [['products', products ? products.text : '[]']] };
    }
    default:
      return { action: action ? action.text : '"block"' };
  }
}

/** `enabled`: true unless the rule or its filter is paused; `!(…)` of what Terraform computes. */
function enabledOf(rule: LegacyResource, filter: LegacyResource): string {
  const paused = [rule.attributes.get('paused'), filter.attributes.get('paused')].filter((p): p is LegacyAttribute => p !== undefined && p.boolean !== false);
  if (paused.length === 0) return 'true';
  if (paused.some((p) => p.boolean === true)) return 'false';
  return `!(${paused.map((p) => p.text).join(' || ')})`;
}

function ruleEntries(m: Migrated): { entries: [string, string][]; parameters?: readonly (readonly [string, string])[] } {
  const { rule, filter } = m;
  const description = rule.attributes.get('description') ?? filter.attributes.get('description');
  const { action, parameters } = customAction(rule);
  const entries: [string, string][] = [['ref', `"${rule.name}"`]];
  if (description) entries.push(['description', description.text]);
  entries.push(['expression', filter.attributes.get('expression')!.text]);
  entries.push(['action', action]);
  return { entries: [...entries, ['enabled', enabledOf(rule, filter)]], parameters };
}

function rulesetText(name: string, zone: string, rules: readonly Migrated[], blocks: boolean): string {
  const sources = rules.map((m) => `${FIREWALL_RULE_TYPE}.${m.rule.name}`).join(', ');
  const lines = [
    `# WAF custom rules that take over ${sources} (Firewall Rules ended on 2025-06-15).`,
    '# Cloudflare already holds them as custom rules in the zone\'s entry point ruleset: import it',
    `# (terraform import cloudflare_ruleset.${name} zone/<zone_id>/<ruleset_id>), then remove the`,
    '# old resources from the state (terraform state rm …) and from this file.',
    `resource "cloudflare_ruleset" "${name}" {`,
    ...attributeLines([...(zone ? [['zone_id', zone] as const] : []), ['name', '"default"'], ['kind', '"zone"'], ['phase', `"${CUSTOM_RULES_PHASE}"`]], '  '),
    '',
  ];
  if (blocks) {
    rules.forEach((m, i) => {
      const { entries, parameters } = ruleEntries(m);
      if (i > 0) lines.push('');
      lines.push('  rules {', ...attributeLines(entries, '    '));
      if (parameters) lines.push('    action_parameters {', ...attributeLines(parameters, '      '), '    }');
      lines.push('  }');
    });
  } else {
    lines.push('  rules = [');
    for (const m of rules) {
      const { entries, parameters } = ruleEntries(m);
      const all: [string, string][] = parameters ? [...entries.slice(0, -1), ['action_parameters', `{\n${attributeLines(parameters, '        ').join('\n')}\n      }`], entries.at(-1)!] : entries;
      lines.push('    {', ...attributeLines(all, '      '), '    },');
    }
    lines.push('  ]');
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
