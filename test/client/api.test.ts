/**
 * The logic of the extension's API commands that needs no VS Code: the scope and its status
 * text, the addresses of version documents, the rules of a file and what rule commands do to
 * it, and what the commands ask and say.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../server/src/api/client';
import type { Ruleset } from '../../server/src/api/types';
import { readLocalRuleset, WorkflowError } from '../../server/src/core';
import { conflictQuestion, deployQuestion, failureMessage, isCancellation, localProblemsMessage, pullDecision } from '../../client/src/api/messages';
import { addPosition, moveChoices, movedIndex, moveRuleText, recordRuleChange, removeRuleText, ruleAt, rulesetSites } from '../../client/src/api/rules';
import { connectionOf, describeScope, describeScopeStatus, formatTime, shortId, scopeOfSettings } from '../../client/src/api/scope';
import { parseVersionAddress, versionAddress, type VersionRef } from '../../client/src/api/version-uri';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const ACCOUNT = '0123456789abcdef0123456789abcdef';
const settings = { baseUrl: 'https://api.example.com/client/v4', accountId: ACCOUNT, zoneId: '' };

describe('API scope', () => {
  it('is the account or the zone the settings name, and nothing when both are set', () => {
    assert.deepEqual(scopeOfSettings(settings), { kind: 'account', id: ACCOUNT });
    assert.deepEqual(scopeOfSettings({ ...settings, accountId: '', zoneId: ' z1 ' }), { kind: 'zone', id: 'z1' });
    assert.equal(scopeOfSettings({ ...settings, zoneId: 'z1' }), undefined);
    assert.equal(scopeOfSettings({ ...settings, accountId: '' }), undefined);
  });

  it('says what is missing before a command can call the API, in the order to fix it', () => {
    const token = { token: 't' };
    const missing = (s: typeof settings, c: typeof token | undefined) => {
      const connection = connectionOf(s, c);
      return connection.ok ? 'ok' : connection.fix;
    };
    assert.equal(missing({ ...settings, baseUrl: ' ' }, undefined), 'baseUrl');
    assert.equal(missing({ ...settings, accountId: '' }, undefined), 'scope');
    assert.equal(missing({ ...settings, zoneId: 'z' }, token), 'scope');
    assert.equal(missing(settings, undefined), 'credentials');
    assert.equal(missing(settings, token), 'ok');
    const baseUrl = connectionOf({ ...settings, baseUrl: '' }, token);
    assert.ok(!baseUrl.ok && /rulesets\.api\.baseUrl.*\/client\/v4/.test(baseUrl.problem));
  });

  it('shortens ids in the status bar and says the last deploy', () => {
    assert.equal(shortId(ACCOUNT), '0123…');
    assert.equal(shortId('abc'), 'abc');
    assert.equal(describeScope({ kind: 'zone', id: ACCOUNT }), 'zone 0123…');
    const now = new Date(2024, 2, 4, 18, 0);
    const at = new Date(2024, 2, 4, 12, 3).toISOString();
    const view = describeScopeStatus({ kind: 'account', id: '1a2b3c4d5e6f' }, { name: 'Edge', version: '7', at }, now);
    assert.equal(view.text, '$(cloud-upload) acct 1a2b… · v7 deployed 12:03');
    assert.match(view.tooltip, /account 1a2b3c4d5e6f.*Edge, version 7/);
    assert.equal(describeScopeStatus({ kind: 'zone', id: ACCOUNT }, undefined).text, '$(cloud-upload) zone 0123…');
    assert.match(describeScopeStatus(undefined, undefined).text, /no scope/);
    assert.equal(formatTime(new Date(2024, 0, 2, 9, 5), now), '2024-01-02 09:05');
  });
});

describe('version documents', () => {
  const ref: VersionRef = {
    scope: { kind: 'account', id: ACCOUNT },
    rulesetId: 'r1',
    version: '7',
    name: 'Edge: SSH/22 only?',
    format: 'json',
    local: 'file:///w/edge%20x.ruleset.json',
  };

  it('round-trip through their path and query, with a file name any system takes', () => {
    const { path, query } = versionAddress(ref);
    assert.equal(path, `/account/${ACCOUNT}/r1/v7/Edge  SSH 22 only v7.ruleset.json`);
    assert.deepEqual(parseVersionAddress(path, query), ref);
    const tagged = { ...ref, format: 'yaml' as const, tag: 'wordpress', snapshot: '3', local: undefined };
    const address = versionAddress(tagged);
    assert.match(address.path, /v7 tag wordpress\.ruleset\.yaml$/);
    const { local: _local, ...expected } = tagged;
    assert.deepEqual(parseVersionAddress(address.path, address.query), expected);
  });

  it('are not confused with other paths', () => {
    assert.equal(parseVersionAddress('/account/a/r1/7/x.ruleset.json', ''), undefined);
    assert.equal(parseVersionAddress('/galaxy/a/r1/v7/x.ruleset.json', ''), undefined);
  });
});

const YAML_FILE = `id: rs1
name: Edge
kind: root
phase: magic_transit
version: "3"
rules:
  - id: a
    action: skip
    action_parameters:
      ruleset: current
    expression: tcp.dstport in {22}
  # the block rule
  - action: block
    expression: ip.proto == "tcp"
    description: Block TCP
  - id: c
    action: block
    expression: udp.dstport == 53
`;

const answer = (version: string): Ruleset => ({ id: 'rs1', name: 'Edge', description: '', kind: 'root', phase: 'magic_transit', version, last_updated: '', rules: [] });

describe('rules of a file', () => {
  it('are found with their ids, places and a short label; the cursor picks one', () => {
    const sites = rulesetSites(YAML_FILE, 'yaml');
    assert.equal(sites.id, 'rs1');
    assert.equal(sites.name, 'Edge');
    assert.deepEqual(sites.rules.map((r) => [r.index, r.id, r.label]), [
      [0, 'a', '#1 skip: tcp.dstport in {22}'],
      [1, undefined, '#2 block: Block TCP'],
      [2, 'c', '#3 block: udp.dstport == 53'],
    ]);
    assert.equal(ruleAt(sites, YAML_FILE.indexOf('ip.proto'))?.index, 1);
    assert.equal(ruleAt(sites, YAML_FILE.indexOf('phase')), undefined);
    assert.equal(rulesetSites('{"name": "x", "kind": "root", "phase": "magic_transit", "rules": []}', 'json').id, undefined);
  });

  it('say where "add rule" puts a rule: after the closest earlier rule the service has', () => {
    const sites = rulesetSites(YAML_FILE, 'yaml');
    assert.deepEqual(addPosition(sites, 1), { after: 'a' });
    assert.deepEqual(addPosition(sites, 0), { before: '' });
  });

  it('offer the places a rule can move to, and where it then stands in the file', () => {
    const sites = rulesetSites(YAML_FILE, 'yaml');
    assert.deepEqual(moveChoices(sites, 0).map((c) => c.label), ['To the top', 'To the bottom', 'After #3 block: udp.dstport == 53']);
    assert.equal(movedIndex(sites, 0, { after: '' }), 2);
    assert.equal(movedIndex(sites, 2, { before: '' }), 0);
    assert.equal(movedIndex(sites, 0, { after: 'c' }), 2);
    assert.equal(movedIndex(sites, 2, { before: 'a' }), 0);
    assert.equal(movedIndex(sites, 2, { index: 2 }), 1);
  });

  it('move in YAML: each rule takes another one\'s place with its comments, the layout stays', () => {
    const moved = moveRuleText(YAML_FILE, rulesetSites(YAML_FILE, 'yaml'), 0, 2);
    const local = readLocalRuleset('edge.ruleset.yaml', moved);
    assert.deepEqual(local.body.rules.map((r) => r.expression), ['ip.proto == "tcp"', 'udp.dstport == 53', 'tcp.dstport in {22}']);
    assert.match(moved, /^rules:\n  # the block rule\n  - action: block\n    expression: ip\.proto/m);
    assert.ok(moved.endsWith('\n  - id: a\n    action: skip\n    action_parameters:\n      ruleset: current\n    expression: tcp.dstport in {22}\n'));
    assert.equal(moved.length, YAML_FILE.length);
  });

  it('move in JSON, commas and indentation kept', () => {
    const text = readFileSync(join(EXAMPLES, 'allow-ssh-only.ruleset.json'), 'utf8');
    const moved = moveRuleText(text, rulesetSites(text, 'json'), 1, 0);
    assert.deepEqual(JSON.parse(moved).rules.map((r: { action: string }) => r.action), ['block', 'skip']);
    assert.equal(moved.length, text.length);
  });

  it('are removed whole: YAML lines, a JSON item and its comma; the last one leaves an empty list', () => {
    const yaml = removeRuleText(YAML_FILE, 'yaml', 1);
    assert.equal(yaml, YAML_FILE.replace(/  # the block rule\n  - action: block\n    expression: ip\.proto == "tcp"\n    description: Block TCP\n/, ''));
    assert.ok(removeRuleText(YAML_FILE, 'yaml', 2).endsWith('    description: Block TCP\n'));
    const json = readFileSync(join(EXAMPLES, 'allow-ssh-only.ruleset.json'), 'utf8');
    assert.deepEqual(JSON.parse(removeRuleText(json, 'json', 0)).rules.map((r: { action: string }) => r.action), ['block']);
    const only = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: "true"\n';
    assert.deepEqual(readLocalRuleset('x.yaml', removeRuleText(only, 'yaml', 0)).body.rules, []);
  });

  it('record a rule command: the new id, and the new version only when the file was in step', () => {
    const local = readLocalRuleset('edge.ruleset.yaml', YAML_FILE);
    const inStep = readLocalRuleset('edge.ruleset.yaml', recordRuleChange(local, answer('4'), true, new Map([[1, 'b']])));
    assert.equal(inStep.version, '4');
    assert.deepEqual(inStep.body.rules.map((r) => r.id), ['a', 'b', 'c']);
    assert.match(recordRuleChange(local, answer('4'), true), /  # the block rule\n/);
    const behind = readLocalRuleset('edge.ruleset.yaml', recordRuleChange(local, answer('9'), false, new Map([[1, 'b']])));
    assert.equal(behind.version, '3');
    assert.equal(behind.body.rules[1].id, 'b');
    const unversioned = readLocalRuleset('x.yaml', YAML_FILE.replace('version: "3"\n', ''));
    assert.equal(readLocalRuleset('x.yaml', recordRuleChange(unversioned, answer('9'), false)).version, '9');
  });
});

describe('what the API commands ask and say', () => {
  const scope = { kind: 'account' as const, id: ACCOUNT };

  it('asks before a deploy, naming the ruleset, the scope and what it replaces', () => {
    const question = deployQuestion('Edge', { destination: { kind: 'entrypoint', phase: 'magic_transit' }, deployed: answer('6'), diff: '@@' }, scope);
    assert.equal(question.message, 'Deploy “Edge” to account 0123…?');
    assert.equal(question.detail, `To the magic_transit entry point of account ${ACCOUNT}, replacing version 6 (live now). The diff editor shows what changes.`);
    assert.match(deployQuestion('Edge', { destination: { kind: 'ruleset', id: 'r' }, diff: '' }, scope).detail, /^To ruleset r of account \w+, which does not exist yet: this creates it\. The rules are/);
  });

  it('warns of a conflict with what is live, or of a ruleset that is gone', () => {
    assert.match(conflictQuestion('Edge', { base: '3', current: '5' }, scope).message, /version 5 is live, the file is based on version 3/);
    assert.match(conflictQuestion('Edge', { base: '3', current: 'none' }, scope).message, /no longer exists/);
    assert.equal(localProblemsMessage(1, 'a.yaml'), 'Fix 1 problem first: a.yaml is not deployed while the check finds an error (see the Problems panel).');
    assert.match(localProblemsMessage(3, 'a.yaml'), /^Fix 3 problems first/);
  });

  it('reports failures in one line without a secret', () => {
    const secret = 'tok-S3cret';
    assert.equal(failureMessage(new ApiError(`denied for ${secret}`, 'api', { status: 403 }), [secret]), 'denied for [redacted]');
    assert.equal(failureMessage(new WorkflowError('x.yaml: no name'), []), 'x.yaml: no name');
    assert.equal(failureMessage(new Error(`boom ${encodeURIComponent('a@b')}`), ['a@b']), 'unexpected error: boom [redacted]');
    assert.ok(isCancellation(new ApiError('cancelled', 'cancelled')));
    assert.ok(!isCancellation(new ApiError('timeout', 'timeout')));
  });

  it('pulls into a document at once only when it is empty, and asks when it has unsaved or other content', () => {
    const pulled = { text: 'id: r\n', id: 'r', name: 'Edge', version: '7' };
    assert.deepEqual(pullDecision({ text: 'id: r\n', isDirty: false, name: 'a.yaml', id: 'r' }, pulled), { kind: 'same' });
    assert.deepEqual(pullDecision({ text: ' \n', isDirty: true, name: 'a.yaml' }, pulled), { kind: 'write' });
    const dirty = pullDecision({ text: 'id: r\nname: old\n', isDirty: true, name: 'a.yaml', id: 'r' }, pulled);
    assert.ok(dirty.kind === 'confirm' && /unsaved changes/.test(dirty.message) && /version 7 of “Edge”/.test(dirty.message));
    const other = pullDecision({ text: 'id: q\n', isDirty: false, name: 'a.yaml', id: 'q' }, pulled);
    assert.ok(other.kind === 'confirm' && /another ruleset \(id q\)/.test(other.detail));
    const older = pullDecision({ text: 'id: r\nversion: "6"\n', isDirty: false, name: 'a.yaml', id: 'r' }, pulled);
    assert.equal(older.kind, 'confirm');
  });
});
