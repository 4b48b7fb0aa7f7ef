/**
 * Fixes of whole documents: the edits that DocumentProblem.fixes carry, applied to the file,
 * must leave a document that reads as intended and checks clean. Also the duplicate-rule
 * warning, which has no fix but points at the rule it repeats.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';

import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { checkRuleset, expressionEdit } from '../../server/src/documents/ruleset';
import { parseRuleset, type DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import type { HostFormat } from '../../server/src/documents/host/host';
import { applyDocumentEdits, fixed } from './check-helpers';

function check(text: string, format: HostFormat): DocumentProblem[] {
  return checkRuleset(text, format, { cache: new ExpressionCache() });
}

function parse(text: string, format: HostFormat): unknown {
  return format === 'json' ? JSON.parse(text) : YAML.parse(text);
}

function codes(text: string, format: HostFormat): string[] {
  return check(text, format).map((p) => p.code);
}

// ------------------------------------------------------------------ skip without action_parameters

describe('fix: a skip rule without action_parameters', () => {
  const CASES: readonly { name: string; format: HostFormat; text: string; after?: string }[] = [
    {
      name: 'JSON, one key a line',
      format: 'json',
      text: '{\n  "name": "x",\n  "kind": "root",\n  "phase": "magic_transit",\n  "rules": [\n    {\n      "action": "skip",\n      "expression": "tcp.dstport in {22}"\n    }\n  ]\n}\n',
      after: '{\n  "name": "x",\n  "kind": "root",\n  "phase": "magic_transit",\n  "rules": [\n    {\n      "action": "skip", "action_parameters": { "ruleset": "current" },\n      "expression": "tcp.dstport in {22}"\n    }\n  ]\n}\n',
    },
    {
      name: 'JSON, action the last key',
      format: 'json',
      text: '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [{"expression": "sip", "action": "skip"}]}',
      after: '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [{"expression": "sip", "action": "skip", "action_parameters": { "ruleset": "current" }}]}',
    },
    {
      name: 'YAML block mapping',
      format: 'yaml',
      text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: skip\n    expression: tcp.dstport in {22}\n',
      after: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: skip\n    action_parameters:\n      ruleset: current\n    expression: tcp.dstport in {22}\n',
    },
    {
      name: 'YAML block mapping, action last, quoted, no final line break',
      format: 'yaml',
      text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - expression: sip\n    action: "skip"',
      after: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - expression: sip\n    action: "skip"\n    action_parameters:\n      ruleset: current',
    },
    {
      name: 'YAML block mapping with CRLF line breaks and a comment',
      format: 'yaml',
      text: 'name: x\r\nkind: root\r\nphase: magic_transit\r\nrules:\r\n  - action: skip # let SSH in\r\n    expression: tcp.dstport in {22}\r\n',
    },
    {
      name: 'YAML block mapping, rules indented deeper',
      format: 'yaml',
      text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n    -   description: ssh\n        action: skip\n        expression: tcp.dstport in {22}\n',
    },
    {
      name: 'YAML flow mapping',
      format: 'yaml',
      text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - {action: skip, expression: "tcp.dstport in {22}"}\n',
      after: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - {action: skip, action_parameters: {ruleset: current}, expression: "tcp.dstport in {22}"}\n',
    },
    {
      name: 'YAML flow mapping in a flow sequence, action last',
      format: 'yaml',
      text: 'name: x\nkind: root\nphase: magic_transit\nrules: [{expression: sip, action: skip}]\n',
    },
  ];
  for (const c of CASES) {
    it(`adds {"ruleset": "current"} (${c.name})`, () => {
      const problems = check(c.text, c.format);
      assert.deepEqual(problems.map((p) => p.code), ['missing-action-parameters']);
      assert.deepEqual(problems[0].fixes?.map((f) => f.title), ['Add `action_parameters: {"ruleset": "current"}`']);
      const after = fixed(c.text, c.format, 'missing-action-parameters');
      if (c.after !== undefined) assert.equal(after, c.after);
      assert.deepEqual(codes(after, c.format), [], after);
      const rule = (parse(after, c.format) as { rules: Record<string, unknown>[] }).rules[0];
      assert.deepEqual(rule.action_parameters, { ruleset: 'current' });
      assert.equal(rule.action, 'skip');
    });
  }

  it('has no fix where action_parameters exists but lacks ruleset', () => {
    const problems = check('name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: skip\n    action_parameters: {}\n    expression: sip\n', 'yaml');
    assert.deepEqual(problems.map((p) => [p.code, p.fixes]), [['missing-action-parameters', undefined]]);
  });
});

// ------------------------------------------------------------------ other shape fixes

describe('fix: unknown keys, actions, phases and kinds', () => {
  it('renames a misspelt rule key, keeping JSON quotes', () => {
    const json = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expresion": "sip"}]}';
    const after = fixed(json, 'json', 'unknown-key');
    assert.equal(after, json.replace('"expresion"', '"expression"'));
    assert.deepEqual(codes(after, 'json'), []);
    for (const key of ['expresion', '"expresion"', "'expresion'"]) {
      const yaml = `name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    ${key}: sip\n`;
      const afterYaml = fixed(yaml, 'yaml', 'unknown-key');
      assert.deepEqual(codes(afterYaml, 'yaml'), [], afterYaml);
      assert.equal(parseRuleset(afterYaml, 'yaml').expressions[0]?.text, 'sip');
    }
  });

  it('replaces a misspelt action in each string style', () => {
    const cases: readonly [HostFormat, string][] = [
      ['json', '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [{"action": "blok", "expression": "sip"}]}'],
      ['yaml', 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: blok\n    expression: sip\n'],
      ['yaml', "name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: 'blok'\n    expression: sip\n"],
      ['yaml', 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: "blok"\n    expression: sip\n'],
    ];
    for (const [format, text] of cases) {
      const after = fixed(text, format, 'unknown-action');
      assert.deepEqual(codes(after, format), [], after);
      assert.equal((parse(after, format) as { rules: { action: string }[] }).rules[0].action, 'block');
    }
  });

  it('replaces a misspelt phase and kind', () => {
    const text = 'name: x\nkind: roto\nphase: magic_transt\nrules: []\n';
    const phaseFixed = fixed(text, 'yaml', 'unknown-phase');
    const bothFixed = fixed(phaseFixed, 'yaml', 'unknown-kind');
    assert.equal(bothFixed, 'name: x\nkind: root\nphase: magic_transit\nrules: []\n');
    assert.deepEqual(codes(bothFixed, 'yaml'), []);
  });
});

// ------------------------------------------------------------------ expression fixes in block scalars

describe('fix: edits at the end of an expression in a YAML block scalar', () => {
  // The end of a block scalar's value maps past its last line break; an insertion there used
  // to land at column 0 of the next line, outside the scalar.
  for (const header of ['|', '|-', '|+', '>', '>-', '>+']) {
    it(`closes an unterminated string inside the scalar (${header})`, () => {
      const text = `name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ${header}\n      cf.colo.name == "ams01\n    description: keep me\n`;
      const after = fixed(text, 'yaml', 'unterminated-string');
      assert.ok(after.includes('      cf.colo.name == "ams01"\n    description: keep me\n'), after);
      assert.deepEqual(codes(after, 'yaml'), [], after);
      const rule = (YAML.parse(after) as { rules: Record<string, string>[] }).rules[0];
      assert.equal(rule.expression.trim(), 'cf.colo.name == "ams01"');
      assert.equal(rule.description, 'keep me');
    });
  }

  it('closes an unterminated string in a block scalar that ends the document', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: >-\n      cf.colo.name == r#"ams01';
    const after = fixed(text, 'yaml', 'unterminated-string');
    assert.equal(after, `${text}"#`);
    assert.deepEqual(codes(after, 'yaml'), []);
  });
});

// ------------------------------------------------------------------ plain scalars in flow collections

describe('fix: text a plain YAML scalar cannot hold', () => {
  it('rewrites the scalar double-quoted when a fix brings `{…}` into a flow mapping', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - {action: block, expression: ip.src in 10.0.0.0/8}\n';
    const after = fixed(text, 'yaml', 'set-required');
    assert.equal(after, 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - {action: block, expression: "ip.src in {10.0.0.0/8}"}\n');
    assert.deepEqual(codes(after, 'yaml'), []);
  });

  it('does the same in a flow sequence, keeping the other rules', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules: [{action: block, expression: udp.dstport == 22..80 and sip}, {action: block, expression: sip}]\n';
    const after = fixed(text, 'yaml', 'set-required');
    assert.deepEqual(codes(after, 'yaml'), []);
    assert.deepEqual(parseRuleset(after, 'yaml').expressions.map((e) => e.text), ['udp.dstport in {22..80} and sip', 'sip']);
  });

  it('keeps a plain scalar plain where the fixed text fits', () => {
    const flow = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - {action: block, expression: ip.src.country == "br"}\n';
    assert.equal(fixed(flow, 'yaml', 'country-code-case'), flow.replace('"br"', '"BR"'));
    const block = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in 10.0.0.0/8\n';
    assert.equal(fixed(block, 'yaml', 'set-required'), block.replace('10.0.0.0/8', '{10.0.0.0/8}'));
    const tabs = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: sip\tand\ttcp.flags.syn\n';
    const problems = check(tabs, 'yaml');
    assert.deepEqual(problems.map((p) => p.code), ['tab-whitespace', 'tab-whitespace']);
    assert.equal(applyDocumentEdits(tabs, problems[0].fixes![0].edits), tabs.replace('sip\t', 'sip '));
  });
});

// ------------------------------------------------------------------ duplicate rules

describe('duplicate-rule', () => {
  it('warns on a rule that repeats an earlier one, pointing at it (JSON)', () => {
    const text = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n  {"action": "block", "expression": "sip"},\n  {"action": "block", "expression": "sip"}\n]}';
    const problems = check(text, 'json');
    assert.deepEqual(problems.map((p) => p.code), ['duplicate-rule']);
    const [p] = problems;
    assert.equal(p.severity, 'warning');
    assert.equal(p.fixes, undefined);
    assert.match(p.message, /rule 2 repeats rule 1/);
    const second = text.lastIndexOf('"sip"');
    assert.deepEqual([p.start, p.end], [second, second + 5]);
    const first = text.indexOf('"sip"');
    assert.deepEqual(p.related, [{ start: first, end: first + 5, message: 'rule 1, which it repeats' }]);
  });

  it('sees through whitespace and YAML quoting, and reports each later copy against the first', () => {
    const text = [
      'name: x',
      'kind: root',
      'phase: magic_transit',
      'rules:',
      '  - action: block',
      '    expression: ip.src in {10.0.0.0/8}',
      '  - action: block',
      "    expression: '  ip.src   in {10.0.0.0/8} '",
      '  - action: skip',
      '    action_parameters: {ruleset: current}',
      '    expression: ip.src in {10.0.0.0/8}',
      '  - action: block',
      '    expression: >-',
      '      ip.src in',
      '      {10.0.0.0/8}',
      '',
    ].join('\n');
    const all = check(text, 'yaml');
    // Rule 3 (a skip of the same packets) is not a repeat, but rule 1 decides them first; the
    // quoted copy's spaces at its ends are said too (information), each on its own.
    assert.deepEqual(all.map((p) => p.code), ['duplicate-rule', 'edge-whitespace', 'edge-whitespace', 'shadowed-rule', 'duplicate-rule']);
    const problems = all.filter((p) => p.code === 'duplicate-rule');
    assert.match(problems[0].message, /rule 2 repeats rule 1/);
    assert.match(problems[1].message, /rule 4 repeats rule 1/);
    const first = text.indexOf('ip.src');
    for (const p of problems) assert.equal(p.related?.[0].start, first);
  });

  it('tells apart expressions that differ only in whitespace inside a string, and finds the first of each form', () => {
    const rule = (expression: string) => `{"action": "block", "expression": ${JSON.stringify(expression)}}`;
    const expressions = [
      'ip.src.country in {"D E"}',
      'ip.src.country in {"DE"}',
      'ip.src.country in {"D E"}',
      'ip.src.country  in  {"DE"}',
      'ip.src.country in {"DE"}',
      ' ip.src.country in {"D E"} ',
    ];
    const text = `{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n${expressions.map(rule).join(',\n')}\n]}`;
    const problems = check(text, 'json').filter((p) => p.code === 'duplicate-rule');
    assert.deepEqual(
      problems.map((p) => p.message.replace(/ \(.*/, '')),
      ['rule 3 repeats rule 1', 'rule 4 repeats rule 2', 'rule 5 repeats rule 2', 'rule 6 repeats rule 1'],
    );
  });

  it('compares expressions that do not parse as written, less the whitespace around them', () => {
    const rule = (expression: string) => `{"action": "block", "expression": ${JSON.stringify(expression)}}`;
    const text = `{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n${['ip.src in {1, 2}', '\u00a0ip.src in {1, 2}\t', 'ip.src in {1,2}'].map(rule).join(',\n')}\n]}`;
    const problems = check(text, 'json').filter((p) => p.code === 'duplicate-rule');
    assert.deepEqual(problems.map((p) => p.message.replace(/ \(.*/, '')), ['rule 2 repeats rule 1']);
  });

  it('does not count rules that differ in action or in expression', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: sip\n  - action: skip\n    action_parameters: {ruleset: current}\n    expression: sip\n  - action: block\n    expression: not sip\n';
    // Rule 2 is no repeat of rule 1, though rule 1 blocks every packet it would skip.
    assert.deepEqual(codes(text, 'yaml'), ['shadowed-rule']);
  });
});

describe('duplicate-rule: only real repeats', () => {
  const yaml = (rules: string) => `name: x\nkind: root\nphase: magic_transit\nrules:\n${rules}`;

  it('execute rules with `true` but different rulesets are not repeats', () => {
    const text = yaml('  - action: execute\n    action_parameters: {id: aaa}\n    expression: "true"\n  - action: execute\n    action_parameters: {id: bbb}\n    expression: "true"\n');
    assert.deepEqual(codes(text, 'yaml'), []);
    const same = yaml('  - action: execute\n    action_parameters: {id: aaa}\n    expression: "true"\n  - action: execute\n    action_parameters:\n      id: aaa\n    expression: "true"\n');
    assert.deepEqual(codes(same, 'yaml'), ['duplicate-rule'], 'the same parameters, written differently, are a repeat');
  });

  it('a disabled rule repeats nothing and is repeated by nothing', () => {
    const text = yaml('  - action: block\n    enabled: false\n    expression: sip\n  - action: block\n    expression: sip\n  - action: block\n    enabled: false\n    expression: sip\n');
    assert.deepEqual(codes(text, 'yaml'), []);
  });

  it('whitespace inside strings matters; between tokens it does not', () => {
    assert.deepEqual(codes(yaml('  - action: block\n    expression: \'ip.proto == "a  b"\'\n  - action: block\n    expression: \'ip.proto == "a b"\'\n'), 'yaml').filter((c) => c === 'duplicate-rule'), []);
    assert.deepEqual(codes(yaml('  - action: block\n    expression: ip.src in {1.2.3.4  5.6.7.8}\n  - action: block\n    expression: ip.src  in {1.2.3.4 5.6.7.8}\n'), 'yaml'), ['duplicate-rule']);
  });
});

describe('empty documents', () => {
  it('a YAML file with only comments is empty, as an empty file is', () => {
    assert.deepEqual(codes('# TODO: write the rules\n', 'yaml'), ['empty-document']);
  });
});

describe('edits whose new text has a line break', () => {
  it('rewrite the scalar double-quoted where its style cannot hold the break as written', () => {
    const expression = 'ip.proto == r"a\nb"';
    for (const value of ['|-\n      ip.proto  ==  r"a\n      b"', '>-\n      ip.proto  ==  r"a\n\n      b"', '\'ip.proto  ==  r"a\n\n      b"\'']) {
      const text = `name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ${value}\n    description: after\n`;
      const model = parseRuleset(text, 'yaml');
      const site = model.expressions[0];
      assert.equal(site.text, 'ip.proto  ==  r"a\nb"', value);
      const edited = applyDocumentEdits(text, [expressionEdit(site, { start: 0, end: site.text.length }, expression)]);
      const after = parseRuleset(edited, 'yaml');
      assert.deepEqual(after.syntaxProblems, [], `${value} → ${edited}`);
      assert.equal(after.expressions[0].text, expression, value);
      assert.match(edited, /\n    description: after\n$/, 'the next key keeps its line');
    }
  });
});
