/** "Test a packet" without VS Code: the lens position, the packet as typed, the verdict's words. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS, isRulesetTestFileName, readSettings } from '../../server/src/core';
import { isFailure, normalPacketText, packetLensOffsets, rememberPacket, testPacket, type PacketFailure, type PacketVerdict } from '../../client/src/packet-test';

const ROOT = join(__dirname, '..', '..');
const SSH_ONLY = readFileSync(join(ROOT, 'examples', 'allow-ssh-only.ruleset.yaml'), 'utf8');

function verdict(result: PacketVerdict | PacketFailure): PacketVerdict {
  assert.ok(!isFailure(result), isFailure(result) ? result.error : '');
  return result;
}

function failure(result: PacketVerdict | PacketFailure): PacketFailure {
  assert.ok(isFailure(result), 'a failure');
  return result;
}

describe('test a packet: the code lens', () => {
  it('sits on the top-level rules key of a ruleset', () => {
    const [offset] = packetLensOffsets(SSH_ONLY, 'yaml', '/w/allow-ssh-only.ruleset.yaml');
    assert.equal(offset, SSH_ONLY.indexOf('rules:'));
    const json = '{\n  "phase": "magic_transit",\n  "rules": []\n}\n';
    assert.deepEqual(packetLensOffsets(json, 'json', '/w/a.ruleset.json'), [json.indexOf('"rules"')]);
  });

  it('sits on the first line of a ruleset file without rules', () => {
    assert.deepEqual(packetLensOffsets('name: x\n', 'yaml', '/w/a.ruleset.yaml'), [0]);
  });

  it('is not offered on a ruleset of an HTTP phase, which reads requests, not packets', () => {
    const redirects = 'name: r\nkind: zone\nphase: http_request_dynamic_redirect\nrules: []\n';
    assert.deepEqual(packetLensOffsets(redirects, 'yaml', '/w/redirects.ruleset.yaml'), []);
    // A file without a phase, where the settings give an HTTP one.
    assert.deepEqual(packetLensOffsets('name: x\nrules: []\n', 'yaml', '/w/a.ruleset.yaml', { ...DEFAULT_SETTINGS, defaultPhase: 'http_request_firewall_custom' }), []);
    assert.deepEqual(packetLensOffsets('name: x\nrules: []\n', 'yaml', '/w/a.ruleset.yaml', { ...DEFAULT_SETTINGS, defaultPhase: 'magic_transit' }), ['name: x\n'.length]);
  });

  it('is not offered in test files or in other JSON and YAML files', () => {
    assert.ok(isRulesetTestFileName('/w/a.ruleset.test.yaml') && isRulesetTestFileName('/w/a.ruleset.test.json') && !isRulesetTestFileName('/w/a.ruleset.yaml'));
    assert.deepEqual(packetLensOffsets('- packet: {}\n', 'yaml', '/w/a.ruleset.test.yaml'), []);
    assert.deepEqual(packetLensOffsets(SSH_ONLY, 'yaml', '/w/a.ruleset.test.yaml'), []);
    assert.deepEqual(packetLensOffsets('{"name": "package"}', 'json', '/w/package.json'), []);
    // Any other file whose top level is a ruleset is one.
    assert.deepEqual(packetLensOffsets(SSH_ONLY, 'yaml', '/w/firewall.yaml'), [SSH_ONLY.indexOf('rules:')]);
  });
});

describe('test a packet: the same settings as the language server', () => {
  it('is offered in a file that only a rulesets.files pattern makes a ruleset', () => {
    const rules = 'rules:\n  - action: block\n    expression: ip.src in $office\n';
    assert.deepEqual(packetLensOffsets(rules, 'yaml', '/w/firewall/edge.yaml'), [], 'no name, no phase or kind: not a ruleset');
    const settings = readSettings({ files: ['**/firewall/*.yaml'] });
    assert.deepEqual(packetLensOffsets(rules, 'yaml', '/w/firewall/edge.yaml', settings), [0]);
  });
});

describe('test a packet: the verdict', () => {
  it('a port-22 TCP packet passes: the skip rule decides', () => {
    const result = verdict(testPacket(SSH_ONLY, 'yaml', '{"ip.src": "192.0.2.7", "ip.proto": "tcp", "tcp.dstport": 22}'));
    assert.equal(result.verdict, 'pass');
    assert.equal(result.rule?.number, 1);
    assert.equal(result.message, 'Passed: skipped by rule 1 (Let SSH through)');
    assert.deepEqual(result.note, { offset: result.rule!.start, text: '← passes: skipped from here' });
    assert.ok(SSH_ONLY.slice(result.note.offset).startsWith('action: skip'));
  });

  it('a port-80 TCP packet is blocked by rule 2', () => {
    const result = verdict(testPacket(SSH_ONLY, 'yaml', { 'ip.proto': 'tcp', 'tcp.dstport': 80 }));
    assert.equal(result.verdict, 'block');
    assert.equal(result.message, 'Blocked by rule 2 (Block every other TCP destination port)');
    assert.equal(result.note?.text, '← blocks this packet');
    assert.ok(SSH_ONLY.slice(result.note!.offset).startsWith('action: block'));
  });

  it('a UDP packet passes: no rule matched', () => {
    const result = verdict(testPacket(SSH_ONLY, 'yaml', '{"ip.proto": "udp", "udp.dstport": 53}'));
    assert.deepEqual(result, { verdict: 'pass', message: 'Passed: no rule matched' });
  });

  it('bad input: the problem with the packet, as the evaluator words it', () => {
    assert.match(failure(testPacket(SSH_ONLY, 'yaml', '{"tcp.dstport": ')).error, /^the packet is not JSON \(.+\); write it like \{"ip.src"/);
    assert.match(failure(testPacket(SSH_ONLY, 'yaml', '[1]')).error, /expected the packet as an object of field values/);
    const unknown = failure(testPacket(SSH_ONLY, 'yaml', '{"tcp.dstprt": 22}'));
    assert.equal(unknown.cause, 'packet');
    assert.match(unknown.error, /unknown field `tcp.dstprt`/);
    assert.match(failure(testPacket(SSH_ONLY, 'yaml', '{"tcp.dstport": 70000}')).error, /outside the values of `tcp.dstport`/);
  });

  it('a verdict that needs a field the packet does not give names it and the rule', () => {
    const result = failure(testPacket(SSH_ONLY, 'yaml', '{"tcp.dstport": 80}'));
    assert.equal(result.cause, 'ruleset');
    assert.match(result.error, /rule 2 .*ip\.proto/);
    assert.equal(SSH_ONLY.slice(result.start).startsWith('action: block'), true);
  });

  it('a ruleset with an error in an expression says so', () => {
    const broken = SSH_ONLY.replace('tcp.dstport in {22}', 'tcp.dstport in {22, 23}');
    const result = failure(testPacket(broken, 'yaml', '{"ip.proto": "tcp", "tcp.dstport": 80}'));
    assert.match(result.error, /rule 1's expression has errors/);
  });

  it('evaluates the text as given (unsaved edits included)', () => {
    const edited = SSH_ONLY.replace('tcp.dstport in {22}', 'tcp.dstport in {22 80}');
    assert.equal(verdict(testPacket(edited, 'yaml', { 'ip.proto': 'tcp', 'tcp.dstport': 80 })).verdict, 'pass');
  });
});

describe('test a packet: the recent packets', () => {
  it('newest first, one spelling each, at most ten', () => {
    assert.equal(normalPacketText(' {"tcp.dstport":22,"ip.proto":"tcp"} '), '{"tcp.dstport": 22, "ip.proto": "tcp"}');
    assert.equal(normalPacketText('not json'), 'not json');
    let recent: string[] = [];
    recent = rememberPacket(recent, '{"tcp.dstport":22}');
    recent = rememberPacket(recent, '{"tcp.dstport": 80}');
    recent = rememberPacket(recent, '{"tcp.dstport": 22}');
    assert.deepEqual(recent, ['{"tcp.dstport": 22}', '{"tcp.dstport": 80}']);
    for (let port = 0; port < 20; port++) recent = rememberPacket(recent, `{"tcp.dstport": ${port}}`);
    assert.equal(recent.length, 10);
    assert.equal(recent[0], '{"tcp.dstport": 19}');
  });
});
