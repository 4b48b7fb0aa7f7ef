import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

import { parsePacket, parseLists } from '../../server/src/evaluation/packet';
import { evaluateRuleset, prepareRuleset, RuleEvaluationError, RulesetError } from '../../server/src/evaluation/ruleset-eval';
import { parseRuleset } from '../../server/src/documents/parsed-ruleset';

function ruleset(rules: string): ReturnType<typeof parseRuleset> {
  return parseRuleset(`name: t\nkind: root\nphase: magic_transit\nrules:\n${rules}`, 'yaml');
}

function verdict(rules: string, packet: object, lists: object = {}) {
  return evaluateRuleset(ruleset(rules), parsePacket(packet), parseLists(lists));
}

const SKIP_SSH = `  - action: skip
    action_parameters: {ruleset: current}
    expression: tcp.dstport == 22
    description: Let SSH through
`;
const BLOCK_TCP = `  - action: block
    expression: ip.proto == "tcp"
    description: Block TCP
    id: r-block-tcp
`;

describe('evaluateRuleset', () => {
  it('a matching skip exempts the packet from the block after it', () => {
    const result = verdict(SKIP_SSH + BLOCK_TCP, { 'ip.proto': 'tcp', 'tcp.dstport': 22 });
    assert.equal(result.verdict, 'pass');
    assert.equal(result.rule?.number, 1);
    assert.equal(result.rule?.description, 'Let SSH through');
    assert.deepEqual(
      result.trace.map((t) => [t.rule.index, t.outcome, t.effect]),
      [[0, 'match', 'skip-rest']],
    );
  });

  it('the block decides when the skip does not match', () => {
    const result = verdict(SKIP_SSH + BLOCK_TCP, { 'ip.proto': 'tcp', 'tcp.dstport': 443 });
    assert.equal(result.verdict, 'block');
    assert.equal(result.rule?.index, 1);
    assert.equal(result.rule?.id, 'r-block-tcp');
    assert.deepEqual(
      result.trace.map((t) => [t.rule.number, t.outcome, t.effect]),
      [
        [1, 'no-match', undefined],
        [2, 'match', 'block'],
      ],
    );
  });

  it('a skip after the block comes too late', () => {
    const result = verdict(BLOCK_TCP + SKIP_SSH, { 'ip.proto': 'tcp', 'tcp.dstport': 22 });
    assert.equal(result.verdict, 'block');
    assert.equal(result.rule?.number, 1);
  });

  it('the first matching block decides', () => {
    const rules = `  - {action: block, expression: tcp.dstport == 22, description: first}\n  - {action: block, expression: ip.proto == "tcp", description: second}\n`;
    assert.equal(verdict(rules, { 'ip.proto': 'tcp', 'tcp.dstport': 22 }).rule?.description, 'first');
    assert.equal(verdict(rules, { 'ip.proto': 'tcp', 'tcp.dstport': 80 }).rule?.description, 'second');
  });

  it('disabled rules are skipped, even with a broken expression', () => {
    const rules = `  - action: block\n    enabled: false\n    expression: tcp.dstport in {22, 23}\n${BLOCK_TCP}`;
    const result = verdict(rules, { 'ip.proto': 'tcp', 'tcp.dstport': 22 });
    assert.equal(result.rule?.number, 2);
    assert.equal(result.trace[0].outcome, 'disabled');
  });

  it('no match is a pass with no deciding rule', () => {
    const result = verdict(SKIP_SSH + BLOCK_TCP, { 'ip.proto': 'udp', 'udp.dstport': 53 });
    assert.deepEqual([result.verdict, result.rule], ['pass', undefined]);
    assert.equal(result.trace.length, 2);
  });

  it('execute, and skip of anything but the current ruleset, match without deciding', () => {
    const rules = `  - action: execute\n    action_parameters: {id: abc}\n    expression: "true"\n  - action: skip\n    action_parameters: {ruleset: other}\n    expression: "true"\n${BLOCK_TCP}`;
    const result = verdict(rules, { 'ip.proto': 'tcp' });
    assert.equal(result.verdict, 'block');
    assert.deepEqual(
      result.trace.map((t) => t.effect),
      ['continue', 'continue', 'block'],
    );
  });

  it('lists come from the lists given', () => {
    const rules = `  - {action: block, expression: ip.src in $bad}\n`;
    assert.equal(verdict(rules, { 'ip.src': '10.1.2.3' }, { bad: ['10.0.0.0/8'] }).verdict, 'block');
    assert.equal(verdict(rules, { 'ip.src': '11.1.2.3' }, { bad: ['10.0.0.0/8'] }).verdict, 'pass');
  });

  it('a rule that needs a value the packet lacks stops with the rule and the values', () => {
    assert.throws(
      () => verdict(SKIP_SSH + BLOCK_TCP, { 'ip.src': '192.0.2.1' }),
      (error: unknown) =>
        error instanceof RuleEvaluationError &&
        error.rule.number === 1 &&
        error.missing.join() === 'tcp.dstport' &&
        /^rule 1 \(Let SSH through\): the packet has no value for `tcp\.dstport`/.test(error.message),
    );
  });

  it('a rule later than the deciding one may need values the packet lacks', () => {
    const rules = `${BLOCK_TCP}  - {action: block, expression: ip.src.country == "BR"}\n`;
    assert.equal(verdict(rules, { 'ip.proto': 'tcp' }).verdict, 'block');
  });

  it('refuses an enabled rule with an expression error, at the error', () => {
    const model = ruleset(`  - action: block\n    expression: tcp.dstport in {22, 23}\n`);
    assert.throws(
      () => prepareRuleset(model),
      (error: unknown) => error instanceof RulesetError && model.text.slice(error.start, error.end) === ',' && /rule 1's expression has errors/.test(error.message),
    );
  });

  it('refuses a file without rules, and rules without an action or expression', () => {
    assert.throws(() => prepareRuleset(parseRuleset('name: x\n', 'yaml')), /no `rules` array/);
    assert.throws(() => prepareRuleset(ruleset('  - expression: "true"\n')), /rule 1 has no `action`/);
    assert.throws(() => prepareRuleset(ruleset('  - action: block\n')), /rule 1 has no `expression` string/);
    assert.throws(() => prepareRuleset(ruleset('  - 3\n')), /rule 1 is not an object/);
    assert.throws(() => prepareRuleset(parseRuleset('{"rules": [', 'json')), RulesetError);
  });

  it('works on the examples', () => {
    const examples = join(__dirname, '..', '..', 'examples');
    const threat = parseRuleset(readFileSync(join(examples, 'block-threat-lists.ruleset.yaml'), 'utf8'), 'yaml');
    const lists = { 'svc.botnetcc': false, 'svc.malware': false, 'svc.anonymizer': false, 'svc.open_proxies': false, 'svc.vpn': true };
    const ssh = evaluateRuleset(threat, parsePacket({ 'ip.proto': 'tcp', 'tcp.dstport': 22, $lists: lists }));
    assert.equal(ssh.rule?.number, 3);
    const web = evaluateRuleset(threat, parsePacket({ 'ip.proto': 'tcp', 'tcp.dstport': 443, $lists: lists }));
    assert.equal(web.verdict, 'pass');
  });
});

describe('evaluateRuleset: property', () => {
  // Atoms whose value over PACKET is known here.
  const PACKET = { 'ip.proto': 'tcp', 'tcp.dstport': 22, 'ip.src': '192.0.2.7' };
  const ATOMS = [
    { text: 'tcp.dstport == 22', value: true },
    { text: 'tcp.dstport in {80 443}', value: false },
    { text: 'ip.src in {192.0.2.0/24}', value: true },
    { text: 'ip.proto == \\"udp\\"', value: false },
    { text: 'not ip.proto == \\"udp\\"', value: true },
  ];
  const rule = fc.record({
    action: fc.constantFrom('block', 'skip', 'skip-other', 'execute'),
    enabled: fc.boolean(),
    atom: fc.constantFrom(...ATOMS),
  });

  it('the verdict is that of the first enabled, matching block or skip-current rule', () => {
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 8 }), (rules) => {
        const yaml = rules
          .map((r) => {
            const action = r.action === 'skip-other' ? 'skip' : r.action;
            const parameters = r.action === 'skip' ? '{ruleset: current}' : r.action === 'skip-other' ? '{phases: [x]}' : r.action === 'execute' ? '{id: abc}' : undefined;
            return `  - action: ${action}\n    enabled: ${r.enabled}\n    expression: "${r.atom.text}"\n${parameters ? `    action_parameters: ${parameters}\n` : ''}`;
          })
          .join('');
        const result = verdict(yaml || '  []\n', PACKET);
        const decider = rules.findIndex((r) => r.enabled && r.atom.value && (r.action === 'block' || r.action === 'skip'));
        assert.equal(result.rule?.index, decider < 0 ? undefined : decider);
        assert.equal(result.verdict, decider >= 0 && rules[decider].action === 'block' ? 'block' : 'pass');
        assert.equal(result.trace.length, decider < 0 ? rules.length : decider + 1);
      }),
      { numRuns: 200 },
    );
  });
});
