/**
 * The provider's schema: generated/provider-schema.ts is what `npm run catalogue:provider` writes
 * from the provider's Go schema at the pinned tags (checked when the git mirror is here), and it
 * says what the `.tf` checks rely on: v4 takes `rules` as blocks, v5 as a list; v5's names that
 * differ from the API's keys are the Cache-Control directives; every v5 name of
 * `action_parameters` is, by its API name, a key some action's API parameters know.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { generateProviderSchema, PROVIDER_OUTPUT, PROVIDER_SOURCES, providerMirrorReader } from '../../scripts/catalogue/provider-generate';
import { ACTION_PARAMETERS } from '../../server/src/language/catalogue/generated/action-parameters';
import { PROVIDER_V4, PROVIDER_V5 } from '../../server/src/language/catalogue/generated/provider-schema';
import { providerAttribute, type ProviderAttribute } from '../../server/src/language/catalogue/provider-schema';

const root = join(__dirname, '..', '..');

function walk(attributes: readonly ProviderAttribute[], visit: (a: ProviderAttribute, path: string) => void, path = ''): void {
  for (const a of attributes) {
    visit(a, `${path}${a.name}`);
    if (a.attributes) walk(a.attributes, visit, `${path}${a.name}.`);
  }
}

describe("the provider's schema of cloudflare_ruleset", () => {
  it('the committed generated module is what the generator writes from the pinned provider tags', (t) => {
    const read = providerMirrorReader();
    // The mirror is a local copy of another repository that CI does not have: without it only this
    // comparison is skipped; every other test here still holds the committed data.
    if (typeof read === 'string') return t.skip(`${read} (only this re-run check is skipped)`);
    assert.equal(readFileSync(join(root, PROVIDER_OUTPUT), 'utf8'), generateProviderSchema(read), `${PROVIDER_OUTPUT} differs from the generator's output: run \`npm run catalogue:provider\` and review the diff`);
  });

  it('records the tags and commits it was read from', () => {
    const text = readFileSync(join(root, PROVIDER_OUTPUT), 'utf8');
    for (const source of Object.values(PROVIDER_SOURCES)) assert.ok(text.includes(source.commit) && text.includes(source.tag));
  });

  it('v4 writes rules and their parameters as blocks, v5 as a list of objects', () => {
    const rules4 = providerAttribute(PROVIDER_V4.attributes, 'rules')!;
    assert.deepEqual([rules4.block, rules4.nesting], [true, 'list']);
    const parameters4 = providerAttribute(rules4.attributes, 'action_parameters')!;
    assert.deepEqual([parameters4.block, parameters4.maxOne], [true, true]);
    const rules5 = providerAttribute(PROVIDER_V5.attributes, 'rules')!;
    assert.deepEqual([rules5.block, rules5.nesting], [undefined, 'list']);
    const parameters5 = providerAttribute(rules5.attributes, 'action_parameters')!;
    assert.deepEqual([parameters5.block, parameters5.nesting], [undefined, 'single']);
    assert.equal(providerAttribute(parameters5.attributes, 'headers')?.nesting, 'map');
    assert.equal(providerAttribute(parameters4.attributes, 'headers')?.nesting, 'list');
  });

  it("v5's names that differ from the API's keys are the Cache-Control directives, snake_case for the API's hyphens", () => {
    const renamed: [string, string][] = [];
    walk(PROVIDER_V5.attributes, (a) => {
      if (a.apiName) renamed.push([a.name, a.apiName]);
    });
    assert.ok(renamed.some(([name, api]) => name === 'stale_if_error' && api === 'stale-if-error'));
    for (const [name, api] of renamed) assert.equal(api.replace(/-/g, '_'), name);
    walk(PROVIDER_V4.attributes, (a) => assert.equal(a.apiName, undefined, `v4's ${a.name} has no JSON name of its own`));
  });

  it("every v5 name of action_parameters is, by its API name, a key of some action's API parameters", () => {
    const apiKeys = new Set<string>();
    const collect = (type: unknown): void => {
      if (!type || typeof type !== 'object') return;
      const t = type as { kind?: string; keys?: { key: string; type: unknown }[]; types?: unknown[]; items?: unknown; values?: unknown };
      for (const k of t.keys ?? []) {
        apiKeys.add(k.key);
        collect(k.type);
      }
      for (const member of t.types ?? []) collect(member);
      collect(t.items);
      if (t.kind === 'object') collect(t.values);
    };
    for (const action of ACTION_PARAMETERS) collect(action.parameters);
    const parameters = providerAttribute(providerAttribute(PROVIDER_V5.attributes, 'rules')!.attributes, 'action_parameters')!;
    const unknown: string[] = [];
    walk(parameters.attributes!, (a, path) => {
      if (!apiKeys.has(a.apiName ?? a.name)) unknown.push(path);
    });
    assert.deepEqual(unknown, []);
  });
});
