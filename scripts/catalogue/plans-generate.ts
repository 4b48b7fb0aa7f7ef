/**
 * Builds server/src/language/catalogue/generated/plans-limits.ts from cloudflare-docs' table of
 * what each plan has (src/content/plans/index.json, the data behind the docs' "Availability"
 * tables): the rules a ruleset of a phase may hold on each plan, and the features the checks
 * gate by plan (the `log` action, regular expressions, hostname and ASN lists, Bot Management's
 * fields, zone custom rulesets). Only the numbers and Yes/No cells are read, never the prose.
 *
 * Which phase a product's rules live in is ours (the phases list of the docs): PRODUCTS below.
 * A cell this reader does not expect (a number written otherwise, a new wording) fails the run
 * loudly rather than guess.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

import { PLANS, type Addon, type Plan, type PlanGate, type RuleQuota } from '../../server/src/language/catalogue/plans';
import { source } from '../typescript-source';

export const PLANS_SOURCE = {
  repository: 'cloudflare/cloudflare-docs',
  path: 'src/content/plans/index.json',
  commit: '0188ca2f50e3f50c3cc67cbc095989ebabe9e062',
} as const;

export const PLANS_OUTPUT = 'server/src/language/catalogue/generated/plans-limits.ts';

/** The fetch tool's mirror of the docs, where one could be had (the whole repository is over its size limit). */
const PLANS_MIRROR = '/work/.mirror/cloudflare+cloudflare-docs/repo';

/**
 * The table's text at the pinned commit, or why there is none: `PLANS_JSON` names a copy of the
 * file at that commit (the search tool's `read_file` of it), else the git mirror is read.
 */
export function plansSourceReader(file = process.env.PLANS_JSON, mirror = process.env.PLANS_MIRROR ?? PLANS_MIRROR): (() => string) | string {
  if (file !== undefined) return existsSync(file) ? () => readFileSync(file, 'utf8') : `PLANS_JSON names ${file}, which does not exist`;
  const how = `set PLANS_JSON to a copy of ${PLANS_SOURCE.repository} ${PLANS_SOURCE.path} at ${PLANS_SOURCE.commit}, or PLANS_MIRROR to a git directory of the repository`;
  if (!existsSync(mirror)) return `no git mirror of ${PLANS_SOURCE.repository} at ${mirror}: ${how}`;
  return () => execFileSync('git', ['-C', mirror, 'show', `${PLANS_SOURCE.commit}:${PLANS_SOURCE.path}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function fail(message: string): never {
  throw new Error(`catalogue:plans: ${message}`);
}

/** The table's plan columns by our plan names (the table has more: `lite`, `pro_plus`, `ent_plus`, …, read where named). */
const COLUMNS: Readonly<Record<Plan, string>> = { free: 'free', pro: 'pro', business: 'biz', enterprise: 'ent' };

/**
 * The products whose "Number of rules" is a quota on the rules of a phase's ruleset, with the
 * phase (and the kinds of ruleset) their rules are in: zone entry points, but Bulk Redirects,
 * which are an account's.
 */
const PRODUCTS: readonly { readonly entry: string; readonly product: string; readonly phases: readonly string[]; readonly kinds: readonly string[]; readonly addon?: { readonly column: string; readonly addon: Addon; readonly plan: Plan } }[] = [
  { entry: 'security.waf_c_custom_rules.b_custom_rules', product: 'WAF custom rules', phases: ['http_request_firewall_custom'], kinds: ['zone'] },
  { entry: 'security.rate_limiting.rules', product: 'rate limiting rules', phases: ['http_ratelimit'], kinds: ['zone'], addon: { column: 'ent_plus', addon: 'advanced_rate_limiting', plan: 'enterprise' } },
  { entry: 'rules.single_redirects.num_rules', product: 'Single Redirects', phases: ['http_request_dynamic_redirect'], kinds: ['zone'] },
  { entry: 'rules.bulk_redirects.num_rules', product: 'Bulk Redirect Rules', phases: ['http_request_redirect'], kinds: ['root'] },
  { entry: 'rules.transform_rules.num_rules', product: 'Transform Rules', phases: ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform'], kinds: ['zone'] },
  { entry: 'rules.origin_rules.num_rules', product: 'Origin Rules', phases: ['http_request_origin'], kinds: ['zone'] },
  { entry: 'rules.config_rules.num_rules', product: 'Configuration Rules', phases: ['http_config_settings'], kinds: ['zone'] },
  { entry: 'rules.compression_rules.num_rules', product: 'Compression Rules', phases: ['http_response_compression'], kinds: ['zone'] },
  { entry: 'cache.cache_rules.rules', product: 'Cache Rules', phases: ['http_request_cache_settings'], kinds: ['zone'] },
  { entry: 'rules.custom_errors.num_rules', product: 'Custom Errors rules', phases: ['http_custom_errors'], kinds: ['zone'] },
  { entry: 'rules.cloud_connector.num_rules', product: 'Cloud Connector rules', phases: ['http_request_cloud_connector'], kinds: ['zone'] },
];

/** The table as JSON.parse gives it: sections of products of properties of cells by plan column. */
type Table = Record<string, unknown>;

/** A property of a product: `section.product.property`. */
function cells(table: Table, entry: string): Record<string, unknown> {
  const [section, product, name] = entry.split('.');
  const sectionNode = table[section] as Record<string, unknown> | undefined;
  const productNode = sectionNode?.[product] as { properties?: Record<string, unknown> } | undefined;
  const cell = productNode?.properties?.[name];
  if (!cell || typeof cell !== 'object') fail(`no ${entry} in the table: see where it went and update PRODUCTS or the gates`);
  return cell as Record<string, unknown>;
}

/** A count as the table writes it: a number, or a string of digits with thousands commas (`"1,000"`). */
function count(value: unknown, where: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,3}(,\d{3})*$|^\d+$/.test(value)) return Number(value.replace(/,/g, ''));
  fail(`${where} is ${JSON.stringify(value)}, not a count`);
}

function limitsOf(table: Table, entry: string): Record<Plan, number> {
  const row = cells(table, entry);
  return Object.fromEntries(PLANS.map((plan) => [plan, count(row[COLUMNS[plan]], `${entry}.${COLUMNS[plan]}`)])) as Record<Plan, number>;
}

/**
 * The lowest plan whose cell is `yes` (and every plan after it too), from a row of
 * `yes`/`no` cells; `addon` when the cell says the plan has it as a paid add-on.
 */
function gate(table: Table, entry: string, yes: string, no: string, addon?: Addon): PlanGate {
  const row = cells(table, entry);
  let from: Plan | undefined;
  let needsAddon = false;
  for (const plan of PLANS) {
    const value = row[COLUMNS[plan]];
    const has = value === yes || (addon !== undefined && value === 'Paid add-on');
    if (!has && value !== no) fail(`${entry}.${COLUMNS[plan]} is ${JSON.stringify(value)}: expected ${JSON.stringify(yes)}${addon ? ' or "Paid add-on"' : ''} or ${JSON.stringify(no)}`);
    if (has && from === undefined) {
      from = plan;
      needsAddon = value === 'Paid add-on';
    } else if (!has && from !== undefined) fail(`${entry}: ${plan} lacks what a lower plan has; a gate is a plan and every plan after it`);
  }
  if (from === undefined) fail(`${entry}: no plan has it`);
  return needsAddon ? { plan: from, addon: addon!, entry } : { plan: from, entry };
}

/** What the generated module holds, read from the table's text. */
export function readPlansTable(text: string): { quotas: RuleQuota[]; zoneCustomRulesets: Record<Plan, number>; gates: Record<string, PlanGate> } {
  const table = JSON.parse(text) as Table;
  const quotas: RuleQuota[] = [];
  for (const p of PRODUCTS) {
    const limits = limitsOf(table, p.entry);
    let withAddon: RuleQuota['withAddon'];
    if (p.addon) {
      const row = cells(table, p.entry);
      withAddon = { addon: p.addon.addon, plan: p.addon.plan, limit: count(row[p.addon.column], `${p.entry}.${p.addon.column}`) };
      const [section, product] = p.entry.split('.');
      // The column's meaning is the product's own label of it ("Enterprise with add-on").
      const label = ((table[section] as Record<string, Record<string, unknown>>)[product] as Record<string, unknown>)[p.addon.column];
      if (label !== 'Enterprise with add-on') fail(`${section}.${product}.${p.addon.column} is ${JSON.stringify(label)}: expected "Enterprise with add-on"`);
    }
    for (const phase of p.phases) quotas.push({ product: p.product, phase, kinds: p.kinds, limits, ...(withAddon ? { withAddon } : {}), entry: p.entry });
  }
  const gates: Record<string, PlanGate> = {
    logAction: gate(table, 'security.waf_c_custom_rules.d_supported_actions', 'All', 'All except Log'),
    regularExpressions: gate(table, 'security.waf_c_custom_rules.f_regex_support', 'Yes', 'No'),
    hostnameAndAsnLists: gate(table, 'global_configurations.lists.e_other_lists', 'Yes', 'No'),
    botManagementFields: gate(table, 'security.bots.firewall_variables', 'Yes', 'No', 'bot_management'),
    accountCustomRulesets: gate(table, 'security.waf_c_custom_rules.z_custom_rulesets_account', 'Yes', 'No'),
  };
  const zoneCustomRulesets = limitsOf(table, 'security.waf_c_custom_rules.x_custom_rulesets_zone');
  return { quotas, zoneCustomRulesets, gates };
}

/** The generated module's text. */
export function generatePlansLimits(text: string): string {
  const { quotas, zoneCustomRulesets, gates } = readPlansTable(text);
  const header = [
    'Generated by `npm run catalogue:plans` (scripts/catalogue/plans-generate.ts): do not edit.',
    `Source: ${PLANS_SOURCE.repository} ${PLANS_SOURCE.path} @ ${PLANS_SOURCE.commit}`,
    "(the docs' table of what each plan has; each entry names its place there as `section.product.property`).",
  ];
  return [
    `/**\n${header.map((line) => ` * ${line}`).join('\n')}\n */\n`,
    "import type { Plan, PlanGate, RuleQuota } from '../plans';\n",
    `export const PLANS_SOURCE = ${source(PLANS_SOURCE, '', true)} as const;\n`,
    '/** The most rules a ruleset of a phase holds, by plan. */',
    `export const RULE_QUOTAS: readonly RuleQuota[] = ${source(quotas, '', true)};\n`,
    "/** The most custom rulesets a zone has, by plan (the table's \"Number of custom rulesets (zone)\"). */",
    `export const ZONE_CUSTOM_RULESETS: Readonly<Record<Plan, number>> = ${source(zoneCustomRulesets, '', true)};\n`,
    '/** What needs a plan (and perhaps an add-on there): the lowest plan that has it. */',
    `export const PLAN_GATES = ${source(gates, '', true)} as const satisfies Readonly<Record<string, PlanGate>>;\n`,
  ].join('\n');
}
