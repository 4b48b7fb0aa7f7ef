/**
 * The actions' data: generated/action-parameters.ts is what `npm run catalogue:actions` writes
 * from the API's types at the pinned commit (checked when the git mirror is here), the generator
 * reads TypeScript types as the API writes them, and actions.ts's facts fit those types: every
 * path exists, an expression mark is on a string, a range on a number, and every phase's actions
 * are actions the API knows.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ACTIONS_OUTPUT, ACTIONS_SOURCE, generateActionParameters, mirrorReader, readActionParameters } from '../../scripts/catalogue/actions-generate';
import { RULE_OBJECT_KEYS, type ParameterType } from '../../server/src/language/catalogue/action-schema';
import {
  ACTION_SOURCES,
  actionSchema,
  actionsOfPhase,
  appliedSchemas,
  PARAMETER_FACTS,
  parameterAt,
  parameterNote,
  PHASE_ACTIONS,
  RULE_OBJECT_SCOPES,
  ruleObjectSchema,
  type ParameterFact,
} from '../../server/src/language/catalogue/actions';
import { ACTION_PARAMETERS } from '../../server/src/language/catalogue/generated/action-parameters';
import { ACTION_SUMMARIES, KNOWN_ACTIONS, KNOWN_PHASES } from '../../server/src/language/catalogue/phases';

const root = join(__dirname, '..', '..');

/** The root a fact's path starts from, after every fact is applied. */
function factRoot(fact: ParameterFact): ParameterType | undefined {
  return (RULE_OBJECT_KEYS as readonly string[]).includes(fact.target) ? ruleObjectSchema(fact.target as 'ratelimit') : actionSchema(fact.target)?.parameters;
}

const kindsOf = (type: ParameterType) => (type.kind === 'union' ? type.types.map((t) => t.kind) : [type.kind]);
const expressionOf = (type: ParameterType | undefined) => (type?.kind === 'string' ? type.expression : undefined);

/** Rules in the API's own style, small: what the generator must read, and how it must fail. */
function syntheticRules(ratelimitOfSecond = 'period: number;'): Map<string, string> {
  return new Map([
    [
      'src/resources/rulesets/rules.ts',
      `import * as RulesAPI from './rules';
import * as RulesetsAPI from './rulesets';
export interface AlphaRule { action?: 'alpha'; action_parameters?: AlphaRule.ActionParameters; exposed_credential_check?: AlphaRule.Ecc; logging?: Logging; ratelimit?: AlphaRule.Ratelimit; }
export namespace AlphaRule {
  export interface ActionParameters {
    target: ActionParameters.Target;
    codes?: Array<301 | 302>;
    phases?: RulesetsAPI.Phase[];
    headers?: { [key: string]: ActionParameters.SetHeader | ActionParameters.RemoveHeader };
    limits?: Record<string, number | null>;
    anything?: unknown;
    only_true?: true;
  }
  export namespace ActionParameters {
    export interface Target { value?: string; 'odd-key': boolean; }
    export interface SetHeader { operation: 'set'; value: string; }
    export interface RemoveHeader { operation: 'remove'; }
  }
  export interface Ecc { username_expression: string; }
  export interface Ratelimit { period: number; }
}
export interface BetaRule { action?: 'beta'; action_parameters?: unknown; exposed_credential_check?: BetaRule.Ecc; logging?: Logging; ratelimit?: BetaRule.Ratelimit; }
export namespace BetaRule {
  export interface Ecc { username_expression: string; }
  export interface Ratelimit { ${ratelimitOfSecond} }
}
export interface Logging { enabled: boolean; }
export namespace RuleCreateResponse {
  export interface Ruleset { rules: Array<RulesAPI.BetaRule | RulesAPI.AlphaRule | Ruleset.GammaRule>; }
  export namespace Ruleset {
    export interface GammaRule { action?: 'gamma'; action_parameters?: GammaRule.Values | GammaRule.Expression; }
    export namespace GammaRule {
      export interface Values { operation: 'add' | 'set'; values: Array<string>; }
      export interface Expression { operation: 'add' | 'set'; expression: string; }
    }
  }
}
`,
    ],
    ['src/resources/rulesets/rulesets.ts', `export type Phase = 'one' | 'two';`],
  ]);
}

const reader = (files: Map<string, string>) => (path: string) => files.get(path) ?? assert.fail(`the generator asked for ${path}`);

describe('action parameters: the generated data and the facts beside it', () => {
  it('the committed generated module is what the generator writes from the pinned API types', (t) => {
    const read = mirrorReader();
    // The mirror is a local copy of another repository that CI does not have: without it only this
    // comparison is skipped; every other test here still holds the committed data.
    if (typeof read === 'string') return t.skip(`${read} (only this re-run check is skipped)`);
    assert.equal(readFileSync(join(root, ACTIONS_OUTPUT), 'utf8'), generateActionParameters(read), `${ACTIONS_OUTPUT} differs from the generator's output: run \`npm run catalogue:actions\` and review the diff`);
  });

  it('the generator reads namespaces, imports, arrays, maps, literal unions and unions of objects', () => {
    const { actions, ruleObjects } = readActionParameters(reader(syntheticRules()));
    assert.deepEqual(actions.map((a) => a.action), ['alpha', 'beta', 'gamma']);
    const alpha = actions[0].parameters!;
    assert.deepEqual(parameterAt(alpha, ['target']), {
      kind: 'object',
      keys: [
        { key: 'odd-key', type: { kind: 'boolean' }, required: true },
        { key: 'value', type: { kind: 'string' }, required: false },
      ],
    });
    assert.equal(alpha.keys.find((k) => k.key === 'target')?.required, true);
    assert.deepEqual(parameterAt(alpha, ['codes']), { kind: 'array', items: { kind: 'number', values: [301, 302] } });
    assert.deepEqual(parameterAt(alpha, ['phases', 0]), { kind: 'string', values: ['one', 'two'] });
    assert.equal(parameterAt(alpha, ['headers', 'X-Any'])?.kind, 'union');
    assert.deepEqual(parameterAt(alpha, ['limits', 'a']), { kind: 'number' }, '`T | null` is T');
    assert.deepEqual(parameterAt(alpha, ['anything']), { kind: 'any' });
    assert.deepEqual(parameterAt(alpha, ['only_true']), { kind: 'boolean', values: [true] });
    assert.equal(actions[1].parameters, undefined, '`unknown` parameters are no schema');
    // A union of objects, each with a key of its own, becomes one object needing one of those keys.
    assert.deepEqual(actions[2].parameters?.oneRequired, [['expression', 'values']]);
    assert.deepEqual(actions[2].parameters?.keys.map((k) => [k.key, k.required]), [['expression', false], ['operation', true], ['values', false]]);
    assert.deepEqual(ruleObjects.logging, { kind: 'object', keys: [{ key: 'enabled', type: { kind: 'boolean' }, required: true }] });
  });

  it('the generator fails loudly when the rule-level objects differ between rules', () => {
    assert.throws(() => readActionParameters(reader(syntheticRules('period: number; extra?: string;'))), /ratelimit differs from .*ratelimit: the rule-level objects are no longer the same/);
  });

  it('the pinned API commit is the one the facts name and the generated module records', () => {
    assert.equal(ACTION_SOURCES.apiTypes.commit, ACTIONS_SOURCE.commit);
    assert.ok(readFileSync(join(root, ACTIONS_OUTPUT), 'utf8').includes(ACTIONS_SOURCE.commit));
  });

  it("the API's types define exactly the actions we know (KNOWN_ACTIONS, ACTION_SUMMARIES)", () => {
    const generated = ACTION_PARAMETERS.map((a) => a.action).sort();
    assert.deepEqual(generated, [...KNOWN_ACTIONS].sort());
    assert.deepEqual(generated, [...ACTION_SUMMARIES.keys()].sort());
  });

  it("every fact lands on a path of the API's types, with a kind it fits, and names its source", () => {
    assert.doesNotThrow(() => appliedSchemas());
    // A fact that misses the types must fail the build of the schemas, not pass unseen.
    assert.throws(() => appliedSchemas([{ target: 'route', path: ['host_headr'], expression: 'value', sources: ['apiTypes'] }]), /no key host_headr/);
    assert.throws(() => appliedSchemas([{ target: 'route', path: ['origin', 'port'], expression: 'value', sources: ['apiTypes'] }]), /expression mark or length on a number/);
    assert.throws(() => appliedSchemas([{ target: 'route', path: ['host_header'], min: 1, sources: ['apiTypes'] }]), /range on a string/);
    assert.throws(() => appliedSchemas([{ target: 'no_such_action', path: [], min: 1, sources: ['apiTypes'] }]), /no such action/);
    for (const fact of PARAMETER_FACTS) {
      const where = `${fact.target} ${fact.path.join('.')}`;
      const type = parameterAt(factRoot(fact), fact.path);
      assert.ok(type, where);
      const kinds = kindsOf(type);
      if (fact.expression) assert.deepEqual(expressionOf(type), fact.expression, where);
      if (fact.min !== undefined || fact.max !== undefined || fact.integer) assert.ok(kinds.includes('number'), `${where} is a number`);
      if (fact.minItems !== undefined || fact.maxItems !== undefined) assert.deepEqual(kinds, ['array'], where);
      if (fact.oneRequired || fact.anyRequired || fact.exclusive || fact.required || fact.optional || fact.mergeUnion) assert.deepEqual(kinds, ['object'], where);
      assert.ok(fact.sources.length > 0 && fact.sources.every((s) => s in ACTION_SOURCES), `${where} names its source`);
    }
  });

  it('every docs source names the file and the commit it was read at', () => {
    for (const [id, source] of Object.entries(ACTION_SOURCES)) {
      if (source.repository === 'this project') continue;
      assert.match(source.commit, /^[0-9a-f]{40}$/, id);
      // The docs' pages and the API's types are under src/; the provider's code under internal/,
      // cloudflare-go v0's at its root, cf-terraforming's recorded responses under testdata/.
      const root: Readonly<Record<string, RegExp>> = {
        'cloudflare/terraform-provider-cloudflare': /^internal\//,
        'cloudflare/cloudflare-go': /^[a-z_]+\.go /,
        'cloudflare/cf-terraforming': /^testdata\//,
      };
      assert.match(source.path, root[source.repository] ?? /^src\//, id);
    }
  });

  it('every phase we know has a row, and every action a row names is one the API knows', () => {
    const apiPhases = parameterAt(actionSchema('skip')?.parameters, ['phases', 0]);
    const known = new Set([...KNOWN_PHASES, ...(apiPhases?.kind === 'string' ? (apiPhases.values ?? []) : [])]);
    for (const phase of KNOWN_PHASES) assert.ok(PHASE_ACTIONS.some((row) => row.phase === phase), `${phase} has a row (actions, or undefined with a reason)`);
    assert.equal(new Set(PHASE_ACTIONS.map((row) => row.phase)).size, PHASE_ACTIONS.length, 'one row a phase');
    for (const row of PHASE_ACTIONS) {
      assert.ok(known.has(row.phase), `${row.phase} is a phase we or the API know`);
      assert.ok(row.sources.length > 0 && row.why.length > 0, `${row.phase} says where its list comes from`);
      for (const action of row.actions ?? []) assert.ok(KNOWN_ACTIONS.includes(action), `${row.phase}: ${action}`);
    }
    for (const scope of RULE_OBJECT_SCOPES) {
      for (const action of scope.actions ?? []) assert.ok(KNOWN_ACTIONS.includes(action), `${scope.key}: ${action}`);
      for (const phase of scope.phases ?? []) assert.ok(known.has(phase), `${scope.key}: ${phase}`);
    }
    assert.equal(actionsOfPhase('http_no_such_phase'), undefined);
    assert.equal(actionsOfPhase('http_request_sanitize'), undefined);
  });

  it('the facts a user relies on', () => {
    const redirect = actionSchema('redirect')?.parameters;
    assert.deepEqual(parameterAt(redirect, ['from_value', 'status_code']), { kind: 'number', values: [301, 302, 303, 307, 308] });
    assert.deepEqual(redirect?.oneRequired, [['from_list', 'from_value']]);
    assert.deepEqual(parameterAt(redirect, ['from_value', 'target_url']), {
      kind: 'object',
      keys: [
        { key: 'expression', type: { kind: 'string', expression: 'value' }, required: false },
        { key: 'value', type: { kind: 'string' }, required: false },
      ],
      oneRequired: [['value', 'expression']],
    });
    assert.ok(parameterAt(actionSchema('set_cache_settings')?.parameters, ['edge_ttl']));
    const route = actionSchema('route')?.parameters?.keys.map((k) => k.key);
    for (const key of ['host_header', 'origin', 'sni']) assert.ok(route?.includes(key), key);
    assert.deepEqual(parameterAt(actionSchema('route')?.parameters, ['origin', 'port']), { kind: 'number', min: 1, max: 65535, integer: true });
    assert.equal(expressionOf(parameterAt(ruleObjectSchema('ratelimit'), ['counting_expression'])), 'filter');
    assert.deepEqual(parameterAt(ruleObjectSchema('ratelimit'), ['period']), { kind: 'number', values: [10, 60, 120, 300, 600, 3600] });
    assert.equal(expressionOf(parameterAt(ruleObjectSchema('exposed_credential_check'), ['username_expression'])), 'value');
    const rewrite = actionSchema('rewrite')?.parameters;
    assert.equal(expressionOf(parameterAt(rewrite, ['uri', 'path', 'expression'])), 'value');
    assert.equal(expressionOf(parameterAt(rewrite, ['uri', 'query', 'expression'])), 'value');
    assert.equal(expressionOf(parameterAt(rewrite, ['headers', 'X-Anything', 'expression'])), 'value');
    // One rule may rewrite both the path and the query (the API's types have a union of the two).
    assert.equal(parameterAt(rewrite, ['uri'])?.kind, 'object');
    assert.ok(parameterAt(rewrite, ['uri', 'path']) && parameterAt(rewrite, ['uri', 'query']));
    const uri = parameterAt(rewrite, ['uri']);
    assert.deepEqual(uri?.kind === 'object' ? [uri.anyRequired, uri.keys.map((k) => [k.key, k.required])] : uri, [[['path', 'query']], [['origin', false], ['path', false], ['query', false]]]);
    // The block response's members are optional in the docs, required in the API's types.
    assert.ok(actionSchema('block')?.parameters?.keys.every((k) => !k.required));
    const response = parameterAt(actionSchema('block')?.parameters, ['response']);
    assert.ok(response?.kind === 'object' && response.keys.every((k) => !k.required));
    assert.deepEqual(parameterAt(actionSchema('compress_response')?.parameters, ['algorithms']), {
      kind: 'array',
      items: { kind: 'object', keys: [{ key: 'name', type: { kind: 'string', values: ['none', 'auto', 'default', 'gzip', 'brotli', 'zstd'] }, required: false }] },
      minItems: 1,
    });
    // A duration directive needs a value when set; a plain one takes none.
    const control = actionSchema('set_cache_control')?.parameters;
    assert.equal(parameterAt(control, ['max-age'])?.kind, 'union');
    assert.deepEqual(parameterAt(control, ['immutable', 'value']), undefined);
    assert.deepEqual(actionsOfPhase('http_request_origin'), ['route']);
    assert.ok(actionsOfPhase('http_request_firewall_custom')?.includes('skip'));
    assert.ok(!actionsOfPhase('http_request_firewall_custom')?.includes('redirect'));
    assert.deepEqual(actionsOfPhase('magic_transit'), ['block', 'skip', 'execute']);
  });

  it('parameterAt walks objects, maps, arrays and unions', () => {
    const log = actionSchema('log_custom_field')?.parameters;
    assert.deepEqual(parameterAt(log, ['request_fields', 0, 'name']), { kind: 'string' });
    assert.deepEqual(parameterAt(log, ['request_fields', '[]', 'name']), { kind: 'string' });
    assert.equal(parameterAt(log, ['request_fields', 'name']), undefined);
    assert.equal(parameterAt(log, ['no_such_key']), undefined);
    const skip = actionSchema('skip')?.parameters;
    assert.deepEqual(parameterAt(skip, ['rules', 'some-ruleset-id', 3]), { kind: 'string' });
    assert.deepEqual(parameterAt(actionSchema('transform_response_html')?.parameters, ['link_maze', 'a', 1]), { kind: 'any' });
    // A header operation: `operation` is in every member, `value` only in some.
    assert.deepEqual(parameterAt(actionSchema('rewrite')?.parameters, ['headers', 'X-A', 'operation'])?.kind, 'union');
    assert.deepEqual(parameterAt(actionSchema('rewrite')?.parameters, ['headers', 'X-A', 'value']), { kind: 'string' });
    assert.equal(actionSchema('no_such_action'), undefined);
    assert.equal(parameterAt(undefined, ['a']), undefined);
  });

  it('parameterNote reads array indexes and map keys of the path', () => {
    assert.match(parameterNote('redirect', ['from_value', 'status_code']) ?? '', /301, 302, 303, 307, 308/);
    assert.match(parameterNote('set_cache_settings', ['edge_ttl', 'status_code_ttl']) ?? '', /no-store/);
    assert.match(parameterNote('ratelimit', ['counting_expression']) ?? '', /filter/);
    assert.match(parameterNote('redirect', []) ?? '', /from_list/);
    assert.match(parameterNote('log_custom_field', ['request_fields']) ?? '', /lower case/);
    assert.match(parameterNote('rewrite', ['headers']) ?? '', /remove/);
    assert.equal(parameterNote('redirect', ['from_value', 'no_such_key']), undefined);
    assert.equal(parameterNote('no_such_action', ['a']), undefined);
  });
});
