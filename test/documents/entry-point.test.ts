import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contributionOf, entryPointProblems, mergeContributions, type Contribution } from '../../server/src/documents/entry-point';
import { parseDocument } from '../../server/src/documents/parsed-document';
import { parseRuleset } from '../../server/src/documents/parsed-ruleset';
import { lineNumber } from '../../server/src/documents/positions';

/** A YAML ruleset file of rules, each given as `ref` and optional `before`/`after`. */
function file(name: string, rules: readonly { ref?: string; before?: string; after?: string }[]): Contribution {
  const lines = ['name: zone', 'kind: zone', 'phase: http_request_firewall_custom', 'rules:'];
  for (const r of rules) {
    lines.push('  - action: block', '    expression: "true"');
    if (r.ref) lines.push(`    ref: ${r.ref}`);
    if (r.before) lines.push(`    before: ${r.before}`);
    if (r.after) lines.push(`    after: ${r.after}`);
  }
  return contributionOf(name, parseRuleset(lines.join('\n') + '\n', 'yaml'));
}

function orderOf(contributions: readonly Contribution[]): string[] {
  const merged = mergeContributions(contributions);
  assert.deepEqual(merged.problems, []);
  return merged.order.map((p) => contributions[p.contribution].rules[p.rule].ref?.value ?? '?');
}

/** Each problem as `file:line code`, and its message. */
function problemsOf(contributions: readonly Contribution[]): { at: string; code: string; message: string }[] {
  return mergeContributions(contributions).problems.map((p) => ({ at: `${contributions[p.contribution].file}:${lineNumber(contributions[p.contribution].text, p.start)}`, code: p.code, message: p.message }));
}

describe('several files, one entry point', () => {
  it('keeps the files in the order given and each file\'s rules in theirs', () => {
    assert.deepEqual(orderOf([file('a.yaml', [{ ref: 'a1' }, { ref: 'a2' }]), file('b.yaml', [{ ref: 'b1' }, { ref: 'b2' }])]), ['a1', 'a2', 'b1', 'b2']);
  });

  it('places a rule just before or just after the rule it names, in another file too, the others keeping their place', () => {
    const a = file('a.yaml', [{ ref: 'a1' }, { ref: 'a2' }, { ref: 'a3' }]);
    const b = file('b.yaml', [{ ref: 'b1', before: 'a2' }, { ref: 'b2' }, { ref: 'b3', after: 'a1' }]);
    assert.deepEqual(orderOf([a, b]), ['a1', 'b3', 'b1', 'a2', 'a3', 'b2']);
  });

  it('keeps rules placed beside the same rule in file order, and follows chains', () => {
    const a = file('a.yaml', [{ ref: 'x' }, { ref: 'y' }]);
    const b = file('b.yaml', [{ ref: 'p', after: 'x' }, { ref: 'q', after: 'x' }, { ref: 'r', after: 'p' }, { ref: 's', before: 'x' }]);
    assert.deepEqual(orderOf([a, b]), ['s', 'x', 'p', 'r', 'q', 'y']);
  });

  it('honours a rule that gives both before and after when they agree', () => {
    const a = file('a.yaml', [{ ref: 'a1' }, { ref: 'a2' }, { ref: 'a3' }]);
    const b = file('b.yaml', [{ ref: 'm', after: 'a1', before: 'a2' }]);
    assert.deepEqual(orderOf([a, b]), ['a1', 'm', 'a2', 'a3']);
  });

  it('says a ref given in two files on the second, naming the first\'s file and line', () => {
    const problems = problemsOf([file('a.yaml', [{ ref: 'one' }, { ref: 'shared' }]), file('b.yaml', [{ ref: 'shared' }])]);
    assert.deepEqual(problems.map((p) => `${p.at} ${p.code}`), ['b.yaml:7 ref-shared']);
    assert.match(problems[0].message, /already the ref of a rule at a\.yaml:10/);
  });

  it('leaves a ref repeated within one file to that file\'s own checks', () => {
    assert.deepEqual(problemsOf([file('a.yaml', [{ ref: 'same' }, { ref: 'same' }])]), []);
  });

  it('says a before/after that names no rule, with the ref it may have meant', () => {
    const problems = problemsOf([file('a.yaml', [{ ref: 'block-bots' }]), file('b.yaml', [{ ref: 'b1', after: 'block-bot' }])]);
    assert.deepEqual(problems.map((p) => `${p.at} ${p.code}`), ['b.yaml:8 unknown-rule-ref']);
    assert.match(problems[0].message, /did you mean `block-bots`\?/);
  });

  it('says a cycle on each of its rules, naming it', () => {
    const problems = problemsOf([file('a.yaml', [{ ref: 'a', after: 'b' }, { ref: 'c' }]), file('b.yaml', [{ ref: 'b', after: 'a' }])]);
    assert.deepEqual(problems.map((p) => `${p.at} ${p.code}`), ['a.yaml:8 rule-order-cycle', 'b.yaml:8 rule-order-cycle']);
    assert.match(problems[0].message, /a → b → a|b → a → b/);
  });

  it('says a rule naming itself is a cycle', () => {
    const problems = problemsOf([file('a.yaml', [{ ref: 'a', before: 'a' }])]);
    assert.deepEqual(problems.map((p) => p.code), ['rule-order-cycle']);
  });

  it('says a rule whose place hangs on a cycle cannot be placed, and one whose before and after contradict', () => {
    const hanging = problemsOf([file('a.yaml', [{ ref: 'a', after: 'b' }, { ref: 'b', after: 'a' }, { ref: 'c', after: 'a' }])]);
    assert.deepEqual(hanging.map((p) => `${p.at} ${p.code}`), ['a.yaml:8 rule-order-cycle', 'a.yaml:12 rule-order-cycle', 'a.yaml:16 rule-unplaceable']);
    assert.match(hanging[2].message, /after "a", which cannot be placed/);
    // m after a2 (itself after a1) and before a1: a cycle through all three.
    const contradicting = problemsOf([file('a.yaml', [{ ref: 'a1' }, { ref: 'a2', after: 'a1' }, { ref: 'm', after: 'a2', before: 'a1' }])]);
    assert.deepEqual(contradicting.map((p) => p.code), ['rule-order-cycle', 'rule-order-cycle', 'rule-order-cycle']);
  });

  it('orders a long chain of afters without recursion or quadratic time', () => {
    const n = 20000;
    const rules = Array.from({ length: n }, (_, i) => ({ ref: `r${i}`, ...(i > 0 ? { after: `r${i - 1}` } : {}) })).reverse();
    const started = performance.now();
    const order = orderOf([file('a.yaml', rules)]);
    assert.equal(order[0], 'r0');
    assert.equal(order[n - 1], `r${n - 1}`);
    assert.ok(performance.now() - started < 5000);
  });
});

describe('which files give one entry point its rules', () => {
  const ruleset = (kind: string, refs: string, phase = 'http_request_firewall_custom') => `name: t\nkind: ${kind}\nphase: ${phase}\nrules:\n${refs.split(' ').map((r) => `  - ref: ${r}\n    action: block\n    expression: "true"\n`).join('')}`;
  const source = (file: string, text: string, target?: string) => ({ file, document: parseDocument(text, 'yaml'), ...(target ? { target } : {}) });
  const codesOf = (sources: ReturnType<typeof source>[]) => entryPointProblems(sources).map((ps) => ps.map((p) => p.code));

  it('files of one target and phase: a ref in both is a conflict, on the second by path', () => {
    assert.deepEqual(codesOf([source('b.yaml', ruleset('zone', 'x'), 'z1'), source('a.yaml', ruleset('zone', 'x'), 'z1')]), [['ref-shared'], []]);
  });

  it('no conflict between files of different targets, different phases, no target, or custom rulesets', () => {
    assert.deepEqual(codesOf([source('a.yaml', ruleset('zone', 'x'), 'z1'), source('b.yaml', ruleset('zone', 'x'), 'z2')]), [[], []]);
    assert.deepEqual(codesOf([source('a.yaml', ruleset('zone', 'x'), 'z1'), source('b.yaml', ruleset('zone', 'x', 'http_request_redirect'), 'z1')]), [[], []]);
    assert.deepEqual(codesOf([source('a.yaml', ruleset('zone', 'x')), source('b.yaml', ruleset('zone', 'x'))]), [[], []]);
    assert.deepEqual(codesOf([source('a.yaml', ruleset('custom', 'x'), 'z1'), source('b.yaml', ruleset('custom', 'x'), 'z1')]), [[], []]);
  });

  it('an octorules section gives its phase\'s entry point rules beside a ruleset file of the target', () => {
    const octorules = 'waf_custom_rules:\n  - ref: x\n    action: block\n    expression: "true"\n';
    assert.deepEqual(codesOf([source('a.yaml', ruleset('zone', 'x'), 'z1'), source('z1.yaml', octorules, 'z1')]), [[], ['ref-shared']]);
  });
});
