/**
 * The analysis and the evaluator agree: a rule reported as shadowed is never the rule that
 * decides a packet, whatever the packet. Random rulesets over a few fields, random packets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parsePacket } from '../../server/src/evaluation/packet';
import { evaluateRuleset } from '../../server/src/evaluation/ruleset-eval';
import { checkParsedRuleset } from '../../server/src/documents/ruleset';
import { parseRuleset } from '../../server/src/documents/parsed-ruleset';

const port = fc.constantFrom(22, 53, 80, 443, 8080);
const network = fc.constantFrom('10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '192.0.2.0/24');

const comparison = fc.oneof(
  port.map((p) => `tcp.dstport == ${p}`),
  fc.tuple(port, port).map(([a, b]) => `tcp.dstport in {${Math.min(a, b)}..${Math.max(a, b)}}`),
  fc.tuple(port, port).map(([a, b]) => (a === b ? `tcp.dstport in {${a}}` : `tcp.dstport in {${a} ${b}}`)),
  network.map((n) => `ip.src in {${n}}`),
  fc.constantFrom('ip.proto == "tcp"', 'ip.proto == "udp"'),
);

const expression = fc.oneof(
  { weight: 1, arbitrary: fc.constant('true') },
  { weight: 6, arbitrary: comparison },
  { weight: 4, arbitrary: fc.tuple(comparison, comparison).map(([a, b]) => `${a} and ${b}`) },
);

const rule = fc.tuple(fc.constantFrom('block', 'skip'), expression).map(([action, text]) =>
  action === 'skip' ? `  - action: skip\n    action_parameters: {ruleset: current}\n    expression: '${text}'\n` : `  - action: block\n    expression: '${text}'\n`,
);

const packet = fc.record({
  'ip.proto': fc.constantFrom('tcp', 'udp'),
  'ip.src': fc.constantFrom('10.1.2.3', '10.1.9.9', '10.9.9.9', '192.0.2.7', '198.51.100.1'),
  port: fc.constantFrom(22, 53, 80, 443, 1000, 8080),
});

test('a rule reported as shadowed is never the deciding rule, for random rulesets and packets', () => {
  let shadowedSeen = 0;
  fc.assert(
    fc.property(fc.array(rule, { minLength: 2, maxLength: 6 }), fc.array(packet, { minLength: 1, maxLength: 10 }), (rules, packets) => {
      const model = parseRuleset(`name: t\nkind: root\nphase: magic_transit\nrules:\n${rules.join('')}`, 'yaml');
      const shadowed = new Set(
        checkParsedRuleset(model)
          .filter((p) => p.code === 'shadowed-rule')
          .map((p) => model.rules.findIndex((r) => r.start <= p.start && p.end <= r.end)),
      );
      shadowedSeen += shadowed.size;
      for (const values of packets) {
        const fields = values['ip.proto'] === 'tcp' ? { 'ip.proto': 'tcp', 'ip.src': values['ip.src'], 'tcp.dstport': values.port } : { 'ip.proto': 'udp', 'ip.src': values['ip.src'] };
        const decided = evaluateRuleset(model, parsePacket(fields)).rule?.index;
        assert.ok(decided === undefined || !shadowed.has(decided), `rule ${decided} decided ${JSON.stringify(fields)} but is reported as shadowed`);
      }
    }),
    { numRuns: 300 },
  );
  // The property says something only if the generator makes shadowed rules.
  assert.ok(shadowedSeen > 20, `only ${shadowedSeen} shadowed rules in 300 runs`);
});
