/** The forms a check computes, kept on its result and reused by the ruleset's shadowing search. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkExpression } from '../../server/src/language/checker';
import { findShadowedRules, type RuleForAnalysis } from '../../server/src/language/analyses';

const PHASE = { phase: 'magic_transit' };

describe('CheckResult forms', () => {
  it('are there when the analyses ran (no errors), and not otherwise', () => {
    assert.ok(checkExpression('tcp.dstport in {22 80}', PHASE).forms);
    assert.equal(checkExpression('tcp.dstport in', PHASE).forms, undefined);
    assert.equal(checkExpression('tcp.dstprt == 22', PHASE).forms, undefined);
  });

  it('give findShadowedRules the same answers as forms it computes itself', () => {
    const texts = [
      'tcp.dstport in {22 80 443}',
      'tcp.dstport == 22 and ip.src in {10.0.0.0/8}',
      'ip.src in {10.0.0.0/8} or ip.src.country in {"BR" "CN"}',
      'ip.src in {10.1.0.0/16} and ip.len > 100',
      'not ip.src in {10.0.0.0/8} and tcp.dstport == 80',
      '(tcp.dstport == 443 and ip.src.country == "BR")',
      'tcp.flags.syn and not tcp.flags.ack',
      'tcp.flags.syn and not tcp.flags.ack and ip.ttl < 5',
      'ip.src in $svc.anonymizer',
      'ip.src in $svc.anonymizer and udp.dstport == 53',
    ];
    const results = texts.map((text) => checkExpression(text, PHASE));
    const rules = (withForms: boolean): RuleForAnalysis[] =>
      results.map((r, i) => ({ ast: r.ast, text: r.text, clean: !r.problems.some((p) => p.severity === 'error'), enabled: true, decides: i % 2 === 0 ? 'block' : undefined, forms: withForms ? r.forms : undefined }));
    const expected = findShadowedRules(rules(false));
    assert.ok(expected.length >= 3, JSON.stringify(expected));
    assert.deepEqual(findShadowedRules(rules(true)), expected);
    // Asked again (as the language server does at each keystroke), the kept forms answer the same.
    assert.deepEqual(findShadowedRules(rules(true)), expected);
  });

  it('do not repeat the expression’s findings when the search computes more of them', () => {
    const result = checkExpression('tcp.dstport == 22 and tcp.dstport == 23', PHASE);
    assert.deepEqual(result.problems.map((p) => p.code), ['always-false']);
    const rules: RuleForAnalysis[] = [{ ast: result.ast, text: result.text, clean: true, enabled: true, decides: 'block', forms: result.forms }];
    assert.deepEqual(findShadowedRules(rules), []);
    assert.deepEqual(result.forms!.findings, []);
  });
});
