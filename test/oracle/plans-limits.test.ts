/**
 * The plans table: generated/plans-limits.ts is what `npm run catalogue:plans` writes from
 * cloudflare-docs' src/content/plans/index.json at the pinned commit (checked when a copy of
 * the file is here: PLANS_JSON), the numbers the checks rely on are pinned here as the table
 * gave them, the generator refuses a table it does not understand, and the older catalogue's
 * plan facts (`matches`, Bot Management's fields) agree with the table's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { generatePlansLimits, PLANS_OUTPUT, PLANS_SOURCE, plansSourceReader, readPlansTable } from '../../scripts/catalogue/plans-generate';
import { HTTP_FIELDS } from '../../server/src/language/catalogue/generated/http';
import { OPERATOR_PLANS } from '../../server/src/language/catalogue/catalogues';
import { fieldAddon, PLAN_GATES, RULE_QUOTAS, ZONE_CUSTOM_RULESETS } from '../../server/src/language/catalogue/plan-quotas';

const root = join(__dirname, '..', '..');

/** A table in the file's shape with only what the generator reads, to see it refuse what it does not expect. */
function smallTable(change: (table: Record<string, any>) => void = () => {}): string {
  const row = (free: unknown, pro: unknown, biz: unknown, ent: unknown) => ({ title: 'Number of rules', free, pro, biz, ent });
  const yesNo = (...cells: string[]) => ({ free: cells[0], pro: cells[1], biz: cells[2], ent: cells[3] });
  const product = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ title: 'x', ...extra, properties });
  const table: Record<string, any> = {
    cache: { cache_rules: product({ rules: row(10, 25, 50, 300) }) },
    global_configurations: { lists: product({ e_other_lists: yesNo('No', 'No', 'No', 'Yes') }) },
    rules: Object.fromEntries(['bulk_redirects', 'cloud_connector', 'config_rules', 'compression_rules', 'custom_errors', 'origin_rules', 'single_redirects', 'transform_rules'].map((p) => [p, product({ num_rules: row(10, 25, 50, 300) })])),
    security: {
      bots: product({ firewall_variables: yesNo('No', 'No', 'No', 'Paid add-on') }),
      waf_c_custom_rules: product({
        b_custom_rules: row('5', '20', '100', '1,000'),
        d_supported_actions: yesNo('All except Log', 'All except Log', 'All except Log', 'All'),
        f_regex_support: yesNo('No', 'No', 'Yes', 'Yes'),
        x_custom_rulesets_zone: row('1', '2', '5', '10'),
        z_custom_rulesets_account: yesNo('No', 'No', 'No', 'Yes'),
      }),
      rate_limiting: product({ rules: { ...row(1, 2, 5, 5), ent_plus: 100 } }, { ent_plus: 'Enterprise with add-on' }),
    },
  };
  change(table);
  return JSON.stringify(table);
}

describe("the plans table (cloudflare-docs' plans/index.json)", () => {
  it('the committed generated module is what the generator writes from the pinned commit', (t) => {
    const read = plansSourceReader();
    // A copy of another repository's file that CI does not have: without it only this
    // comparison is skipped; every other test here still holds the committed data.
    if (typeof read === 'string') return t.skip(`${read} (only this re-run check is skipped)`);
    assert.equal(readFileSync(join(root, PLANS_OUTPUT), 'utf8'), generatePlansLimits(read()), `${PLANS_OUTPUT} differs from the generator's output: run \`npm run catalogue:plans\` and review the diff`);
  });

  it('records the repository, file and commit it was read from', () => {
    const text = readFileSync(join(root, PLANS_OUTPUT), 'utf8');
    assert.ok(text.includes(PLANS_SOURCE.commit) && text.includes(PLANS_SOURCE.path) && text.includes(PLANS_SOURCE.repository));
  });

  it('pins the quotas of rules as the table gives them', () => {
    const byPhase = Object.fromEntries(RULE_QUOTAS.map((q) => [q.phase, [q.kinds.join(), q.limits.free, q.limits.pro, q.limits.business, q.limits.enterprise]]));
    assert.deepEqual(byPhase, {
      http_request_firewall_custom: ['zone', 5, 20, 100, 1000],
      http_ratelimit: ['zone', 1, 2, 5, 5],
      http_request_dynamic_redirect: ['zone', 10, 25, 50, 300],
      http_request_redirect: ['root', 15, 15, 15, 50],
      http_request_transform: ['zone', 10, 25, 50, 300],
      http_request_late_transform: ['zone', 10, 25, 50, 300],
      http_response_headers_transform: ['zone', 10, 25, 50, 300],
      http_request_origin: ['zone', 10, 25, 50, 300],
      http_config_settings: ['zone', 10, 25, 50, 300],
      http_response_compression: ['zone', 10, 25, 50, 300],
      http_request_cache_settings: ['zone', 10, 25, 50, 300],
      http_custom_errors: ['zone', 0, 25, 50, 300],
      http_request_cloud_connector: ['zone', 10, 25, 50, 300],
    });
    assert.deepEqual(RULE_QUOTAS.find((q) => q.phase === 'http_ratelimit')!.withAddon, { addon: 'advanced_rate_limiting', plan: 'enterprise', limit: 100 });
    assert.deepEqual(ZONE_CUSTOM_RULESETS, { free: 1, pro: 2, business: 5, enterprise: 10 });
  });

  it('pins what needs a plan or an add-on', () => {
    assert.deepEqual(
      Object.fromEntries(Object.entries(PLAN_GATES).map(([name, gate]) => [name, 'addon' in gate ? `${gate.plan}+${gate.addon}` : gate.plan])),
      { logAction: 'enterprise', regularExpressions: 'business', hostnameAndAsnLists: 'enterprise', botManagementFields: 'enterprise+bot_management', accountCustomRulesets: 'enterprise' },
    );
  });

  it("agrees with the older catalogue's plan of `matches` and of Bot Management's fields", () => {
    assert.equal(OPERATOR_PLANS.matches, PLAN_GATES.regularExpressions.plan);
    const bot = HTTP_FIELDS.filter((f) => fieldAddon(f.name) !== undefined);
    assert.ok(bot.length > 5);
    for (const field of bot) {
      assert.equal(field.plan, PLAN_GATES.botManagementFields.plan, field.name);
      assert.match(field.planNote ?? '', /Bot Management/, field.name);
    }
    // Every field the catalogue gives to the add-on is one fieldAddon knows.
    for (const field of HTTP_FIELDS.filter((f) => /Bot Management/.test(f.planNote ?? ''))) assert.equal(fieldAddon(field.name), 'bot_management', field.name);
  });

  it('reads a table in the shape of the file, and refuses cells it does not understand', () => {
    assert.equal(readPlansTable(smallTable()).quotas.find((q) => q.phase === 'http_request_firewall_custom')!.limits.enterprise, 1000);
    assert.throws(() => readPlansTable(smallTable((t) => (t.security.waf_c_custom_rules.properties.b_custom_rules.ent = 'Unlimited'))), /b_custom_rules\.ent is "Unlimited", not a count/);
    assert.throws(() => readPlansTable(smallTable((t) => delete t.rules.origin_rules)), /no rules\.origin_rules\.num_rules in the table/);
    assert.throws(() => readPlansTable(smallTable((t) => (t.security.waf_c_custom_rules.properties.d_supported_actions.biz = 'All except Log and Skip'))), /d_supported_actions\.biz is "All except Log and Skip"/);
    assert.throws(() => readPlansTable(smallTable((t) => (t.global_configurations.lists.properties.e_other_lists.ent = 'No'))), /no plan has it/);
    assert.throws(() => readPlansTable(smallTable((t) => (t.security.rate_limiting.ent_plus = 'Advanced'))), /expected "Enterprise with add-on"/);
  });
});
