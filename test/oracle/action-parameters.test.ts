/**
 * The actions' data: generated/action-parameters.ts is what `npm run catalogue:actions` writes
 * from the API's types at the pinned commit (when the git mirror is here), and actions.ts's facts
 * fit those types: every path exists, an expression mark is on a string, a range on a number, and
 * every phase's actions are actions the API knows.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ACTIONS_OUTPUT, ACTIONS_SOURCE, generateActionParameters, mirrorReader } from '../../scripts/catalogue-actions-generate';
import type { ParameterType } from '../../server/src/language/catalogue/action-schema';
import { ACTION_SOURCES, actionSchema, actionsOfPhase, appliedSchemas, PARAMETER_FACTS, PHASE_ACTIONS, parameterAt, ruleObjectSchema } from '../../server/src/language/catalogue/actions';
import { ACTION_PARAMETERS } from '../../server/src/language/catalogue/generated/action-parameters';
import { ACTION_SUMMARIES, KNOWN_ACTIONS, KNOWN_PHASES } from '../../server/src/language/catalogue/phases';

const root = join(__dirname, '..', '..');

describe('action parameters: the generated data and the facts beside it', () => {
  it('the committed generated module is what the generator writes from the pinned API types', (t) => {
    const read = mirrorReader();
    // The mirror is a local copy of another repository, not something CI installs: without it only
    // this comparison is skipped; every test below still holds the committed data.
    if (typeof read === 'string') return t.skip(`${read} (only this re-run check is skipped)`);
    assert.equal(readFileSync(join(root, ACTIONS_OUTPUT), 'utf8'), generateActionParameters(read), `${ACTIONS_OUTPUT} differs from the generator's output: run \`npm run catalogue:actions\` and review the diff`);
  });

  it('the pinned API commit is the one the facts name', () => {
    assert.equal(ACTION_SOURCES.apiTypes.commit, ACTIONS_SOURCE.commit);
    assert.ok(readFileSync(join(root, ACTIONS_OUTPUT), 'utf8').includes(ACTIONS_SOURCE.commit));
  });

  it('the API\'s types define exactly the actions we know (KNOWN_ACTIONS, ACTION_SUMMARIES)', () => {
    const generated = ACTION_PARAMETERS.map((a) => a.action).sort();
    assert.deepEqual(generated, [...KNOWN_ACTIONS].sort());
    assert.deepEqual(generated, [...ACTION_SUMMARIES.keys()].sort());
  });

  it('every fact lands on a path of the API\'s types, with a kind it fits', () => {
    // appliedSchemas throws on a missing path or a mark on the wrong kind; a bad fact must fail it.
    assert.doesNotThrow(() => appliedSchemas());
    assert.throws(() => appliedSchemas([{ target: 'route', path: ['host_headr'], expression: 'value', sources: ['apiTypes'] }]), /no key host_headr/);
    assert.throws(() => appliedSchemas([{ target: 'route', path: ['origin', 'port'], expression: 'value', sources: ['apiTypes'] }]), /expression mark on a number/);
    assert.throws(() => appliedSchemas([{ target: 'route', path: ['host_header'], min: 1, sources: ['apiTypes'] }]), /range on a string/);
    for (const fact of PARAMETER_FACTS) {
      const type = fact.target in { ratelimit: 1, exposed_credential_check: 1, logging: 1 }
        ? parameterAt(ruleObjectSchema(fact.target as 'ratelimit'), fact.path)
        : parameterAt(actionSchema(fact.target)?.parameters, fact.path);
      assert.ok(type, `${fact.target} ${fact.path.join('.')}`);
      const kinds = type.kind === 'union' ? type.types.map((t) => t.kind) : [type.kind];
      if (fact.expression) assert.ok(kinds.every((k) => k === 'string'), `${fact.path.join('.')} is a string`);
      if (fact.min !== undefined || fact.max !== undefined) assert.ok(kinds.every((k) => k === 'number'), `${fact.path.join('.')} is a number`);
      assert.ok(fact.sources.length > 0, 'every fact names its source');
    }
  });

  it('every phase we know has a row, and every action a row names is one the API knows', () => {
    assert.deepEqual(PHASE_ACTIONS.map((row) => row.phase).sort(), [...KNOWN_PHASES].sort());
    for (const row of PHASE_ACTIONS) {
      assert.ok(row.sources.length > 0 && row.why.length > 0, `${row.phase} says where its list comes from`);
      for (const action of row.actions ?? []) assert.ok(KNOWN_ACTIONS.includes(action), `${row.phase}: ${action}`);
    }
    assert.equal(actionsOfPhase('http_no_such_phase'), undefined);
  });

  it('the facts a user relies on', () => {
    assert.deepEqual(parameterAt(actionSchema('redirect')?.parameters, ['from_value', 'status_code']), { kind: 'number', values: [301, 302, 303, 307, 308] });
    assert.ok(parameterAt(actionSchema('set_cache_settings')?.parameters, ['edge_ttl']));
    const route = actionSchema('route')?.parameters?.keys.map((k) => k.key);
    for (const key of ['host_header', 'origin', 'sni']) assert.ok(route?.includes(key), key);
    const expression = (type: ParameterType | undefined) => (type?.kind === 'string' ? type.expression : undefined);
    assert.equal(expression(parameterAt(ruleObjectSchema('ratelimit'), ['counting_expression'])), 'filter');
    assert.equal(expression(parameterAt(actionSchema('redirect')?.parameters, ['from_value', 'target_url', 'expression'])), 'value');
    assert.equal(expression(parameterAt(actionSchema('rewrite')?.parameters, ['uri', 'path', 'expression'])), 'value');
    assert.equal(expression(parameterAt(actionSchema('rewrite')?.parameters, ['headers', 'X-Anything', 'expression'])), 'value');
    assert.deepEqual(actionsOfPhase('http_request_origin'), ['route']);
    assert.ok(actionsOfPhase('http_request_firewall_custom')?.includes('skip'));
  });

  it('parameterAt walks objects, maps, arrays and unions', () => {
    const log = actionSchema('log_custom_field')?.parameters;
    assert.deepEqual(parameterAt(log, ['request_fields', 0, 'name']), { kind: 'string' });
    assert.equal(parameterAt(log, ['request_fields', 'name']), undefined);
    assert.equal(parameterAt(log, ['no_such_key']), undefined);
    const skip = actionSchema('skip')?.parameters;
    assert.deepEqual(parameterAt(skip, ['rules', 'some-ruleset-id', 3]), { kind: 'string' });
    assert.deepEqual(parameterAt(actionSchema('transform_response_html')?.parameters, ['link_maze', 'a', 1]), { kind: 'any' });
    assert.equal(actionSchema('no_such_action'), undefined);
  });
});
