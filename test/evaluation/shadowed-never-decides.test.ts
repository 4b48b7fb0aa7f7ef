/**
 * The analysis and the evaluator agree: a rule reported as shadowed is never the rule that
 * decides a packet, and a part reported always false (always true) is false (true) for every
 * packet, whatever the packet. Random rulesets over a few fields, with the transport fields
 * next to `ip.proto`; random packets as real ones are: a TCP packet has the TCP fields and
 * no others, a UDP packet the UDP ones, and so on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluate } from '../../server/src/evaluation/evaluate';
import { parsePacket, type Packet } from '../../server/src/evaluation/packet';
import { evaluateRuleset } from '../../server/src/evaluation/ruleset-eval';
import { checkParsedRuleset } from '../../server/src/documents/ruleset';
import { parseRuleset } from '../../server/src/documents/parsed-ruleset';
import { checkExpression } from '../../server/src/language/checker';

const port = fc.constantFrom(22, 53, 80, 443, 8080);
const network = fc.constantFrom('10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '192.0.2.0/24');

const portTests = (field: string) =>
  fc.oneof(
    port.map((p) => `${field} == ${p}`),
    fc.tuple(port, port).map(([a, b]) => `${field} in {${Math.min(a, b)}..${Math.max(a, b)}}`),
    fc.tuple(port, port).map(([a, b]) => (a === b ? `${field} in {${a}}` : `${field} in {${a} ${b}}`)),
  );

const comparison = fc.oneof(
  { weight: 3, arbitrary: portTests('tcp.dstport') },
  { weight: 2, arbitrary: portTests('udp.dstport') },
  port.map((p) => `not tcp.dstport == ${p}`),
  port.map((p) => `tcp.dstport != ${p}`),
  port.map((p) => `bit_slice(tcp, 16, 32) == ${p}`),
  fc.constantFrom('tcp.flags.syn', 'not tcp.flags.syn', 'tcp.flags & 0x10', 'sip', 'not sip', 'icmp.type == 8', 'icmp.type in {0 8}'),
  { weight: 2, arbitrary: network.map((n) => `ip.src in {${n}}`) },
  { weight: 3, arbitrary: fc.constantFrom('ip.proto == "tcp"', 'ip.proto == "udp"', 'ip.proto == "icmp"', 'ip.proto in {"tcp" "udp"}', 'ip.proto != "udp"') },
);

const expression = fc.oneof(
  { weight: 1, arbitrary: fc.constant('true') },
  { weight: 6, arbitrary: comparison },
  { weight: 4, arbitrary: fc.tuple(comparison, comparison).map(([a, b]) => `${a} and ${b}`) },
  { weight: 1, arbitrary: fc.tuple(comparison, comparison).map(([a, b]) => `(${a}) or (${b})`) },
  { weight: 1, arbitrary: fc.tuple(comparison, comparison, comparison).map(([a, b, c]) => `${a} and (${b} or ${c})`) },
  { weight: 1, arbitrary: fc.tuple(comparison, comparison, comparison, comparison).map(([a, b, c, d]) => `(${a} or ${b}) and (${c} or ${d})`) },
);

const rule = fc.tuple(fc.constantFrom('block', 'skip'), expression).map(([action, text]) =>
  action === 'skip' ? `  - action: skip\n    action_parameters: {ruleset: current}\n    expression: '${text}'\n` : `  - action: block\n    expression: '${text}'\n`,
);

const hex = (n: number) => n.toString(16).padStart(4, '0');

/** A packet as the service sees one: the fields of its one transport header, given in full. */
const packet = fc
  .record({
    proto: fc.constantFrom('tcp', 'udp', 'icmp', 'gre'),
    src: fc.constantFrom('10.1.2.3', '10.1.9.9', '10.9.9.9', '192.0.2.7', '198.51.100.1'),
    port: fc.constantFrom(22, 53, 80, 443, 1000, 8080),
    flags: fc.constantFrom(0x02, 0x10, 0x12),
    sip: fc.boolean(),
    icmpType: fc.constantFrom(0, 3, 8),
  })
  .map(({ proto, src, port, flags, sip, icmpType }) => {
    const common = { 'ip.proto': proto, 'ip.src': src };
    if (proto === 'tcp') return { ...common, 'tcp.dstport': port, 'tcp.flags': flags, tcp: `c0 00 ${hex(port)}` };
    if (proto === 'udp') return { ...common, 'udp.dstport': port, sip };
    if (proto === 'icmp') return { ...common, 'icmp.type': icmpType };
    return common;
  });

test('a rule reported as shadowed is never the deciding rule, for random rulesets and packets', () => {
  let shadowedSeen = 0;
  // Shadowings that only the transport implications find: the earlier rule tests `ip.proto`, the later does not.
  let byProtocol = 0;
  fc.assert(
    fc.property(fc.array(rule, { minLength: 2, maxLength: 6 }), fc.array(packet, { minLength: 1, maxLength: 10 }), (rules, packets) => {
      const model = parseRuleset(`name: t\nkind: root\nphase: magic_transit\nrules:\n${rules.join('')}`, 'yaml');
      const found = checkParsedRuleset(model).filter((p) => p.code === 'shadowed-rule');
      const ruleAt = (offset: number) => model.rules.findIndex((r) => r.start <= offset && offset <= r.end);
      const shadowed = new Set(found.map((p) => ruleAt(p.start)));
      shadowedSeen += shadowed.size;
      for (const p of found) if (rules[ruleAt(p.related![0].start)].includes('ip.proto') && !rules[ruleAt(p.start)].includes('ip.proto')) byProtocol++;
      for (const fields of packets) {
        const decided = evaluateRuleset(model, parsePacket(fields)).rule?.index;
        assert.ok(decided === undefined || !shadowed.has(decided), `rule ${decided} decided ${JSON.stringify(fields)} but is reported as shadowed`);
      }
    }),
    { numRuns: 300 },
  );
  // The property says something only if the generator makes shadowed rules, of both kinds.
  assert.ok(shadowedSeen > 20, `only ${shadowedSeen} shadowed rules in 300 runs`);
  assert.ok(byProtocol > 5, `only ${byProtocol} rules shadowed by a rule on \`ip.proto\` in 300 runs`);
});

test('a part reported always false matches no packet, and one reported always true every packet', () => {
  const samples = fc.sample(packet, { numRuns: 200, seed: 14 }).map((fields): [object, Packet] => [fields, parsePacket(fields)]);
  let reported = 0;
  fc.assert(
    fc.property(expression, fc.boolean(), (text, negated) => {
      const whole = negated ? `not (${text})` : text;
      for (const p of checkExpression(whole, { phase: 'magic_transit' }).problems) {
        if (p.code !== 'always-false' && p.code !== 'always-true') continue;
        reported++;
        const part = whole.slice(p.span.start, p.span.end);
        const ast = checkExpression(part, { phase: 'magic_transit' }).ast!;
        for (const [fields, parsed] of samples) {
          assert.equal(evaluate(ast, parsed), p.code === 'always-true', `${p.code} on \`${part}\` in \`${whole}\`, but not for ${JSON.stringify(fields)}`);
        }
      }
    }),
    { numRuns: 400 },
  );
  assert.ok(reported > 20, `only ${reported} findings in 400 runs`);
});
