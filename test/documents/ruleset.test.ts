import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as YAML from 'yaml';

import { classifyFile, isRulesetFileName, looksLikeRuleset } from '../../server/src/documents/classify';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { LineTable, positionsIn, toPositions } from '../../server/src/documents/positions';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { parseRuleset } from '../../server/src/documents/parsed-ruleset';
import type { HostFormat } from '../../server/src/documents/host/host';
import { MAX_NESTING } from '../../server/src/documents/host/nesting';
import { KNOWN_ACTIONS } from '../../server/src/language/catalogue/phases';
import { at, check, checkProblems, codes, fixed, located, one, withCode } from './check-helpers';
import { loadTerraformParser } from '../../server/src/documents/terraform';

// Every expected line and character in this file is counted by hand from the literal
// document (0-based, UTF-16 code units); the comments show the count.

// ------------------------------------------------------------------ JSON positions

// Lines 0-4 are the header; the rule under test is line 5. Its prefix
// `    {"action": "block", "expression": "` is 4 + 1 + 8 + 2 + 7 + 2 + 12 + 2 + 1 = 39
// characters, so the expression's first source character is at character 39.
const JSON_HEAD = ['{', '  "name": "positions",', '  "kind": "root",', '  "phase": "magic_transit",', '  "rules": ['];
const JSON_RULE = '    {"action": "block", "expression": "';

function jsonDoc(rules: string[], eol = '\n'): string {
  return [...JSON_HEAD, ...rules, '  ]', '}', ''].join(eol);
}

describe('checkRuleset: expression positions in JSON', () => {
  it('counts \\" as two source characters', () => {
    const text = jsonDoc([JSON_RULE + 'ip.proto == \\"tpc\\" or tcp.dstprt == 1"}']);
    // Source after the 39-character prefix: i39 p40 .41 p42 r43 o44 t45 o46 ' '47 =48 =49 ' '50
    // \51 "52 t53 p54 c55 \56 "57 ' '58 o59 r60 ' '61 t62 ... tcp.dstprt is 62..71, end 72.
    assert.deepEqual(located(check(text, 'json')), [
      ['unknown-protocol', 5, 51, 5, 58],
      ['unknown-field', 5, 62, 5, 72],
    ]);
  });

  it('counts \\\\ as two source characters, and maps a span that starts on one', () => {
    // cf.colo.name(0-11) ' '(12) ==(13-14) ' '(15) \"(16-17) \\(18-19) x41(20-22) \"(23-24) ' '(25)
    // and(26-28) ' '(29) tcp.dstprt(30-39): +39 -> 69..79
    const text = jsonDoc([
      JSON_RULE + 'cf.colo.name == \\"\\\\x41\\" and tcp.dstprt == 1"},',
      // cf.colo.name == \"\\n\": \\(18-19) n(20): the expression escape `\n` is 18..21 -> 57..60
      JSON_RULE + 'cf.colo.name == \\"\\\\n\\""}',
    ]);
    assert.deepEqual(located(check(text, 'json')), [
      ['unknown-field', 5, 69, 5, 79],
      ['invalid-escape', 6, 57, 6, 60],
    ]);
  });

  it('counts \\/ as two source characters', () => {
    // ip.src(0-5) ' '(6) in(7-8) ' '(9) {(10) 192.0.2.0(11-19) \/(20-21) 24(22-23) }(24) ' '(25)
    // and(26-28) ' '(29) tcp.dstprt(30-39): +39 -> 69..79
    const text = jsonDoc([JSON_RULE + 'ip.src in {192.0.2.0\\/24} and tcp.dstprt == 1"}']);
    assert.deepEqual(located(check(text, 'json')), [['unknown-field', 5, 69, 5, 79]]);
  });

  it('counts \\u00e9 as six source characters', () => {
    const text = jsonDoc([
      // \"(16-17) caf(18-20) \u00e9(21-26) \"(27-28) ' '(29) and(30-32) ' '(33) tcp.dstprt(34-43): -> 73..83
      JSON_RULE + 'cf.colo.name == \\"caf\\u00e9\\" and tcp.dstprt == 1"},',
      // ip.geoip.country(0-15) ' '(16) ==(17-18) ' '(19) \"(20-21) \u00e9(22-27) \"(28-29): -> 59..69
      JSON_RULE + 'ip.geoip.country == \\"\\u00e9\\""}',
    ]);
    assert.deepEqual(located(check(text, 'json')), [
      ['unknown-field', 5, 73, 5, 83],
      ['deprecated-field', 6, 39, 6, 55],
      ['unknown-country-code', 6, 59, 6, 69],
    ]);
  });

  it('counts an escaped surrogate pair as twelve source characters', () => {
    const text = jsonDoc([
      // \"(16-17) \ud83d(18-23) \ude00(24-29) \"(30-31) ' '(32) and(33-35) ' '(36) tcp.dstprt(37-46): -> 76..86
      JSON_RULE + 'cf.colo.name == \\"\\ud83d\\ude00\\" and tcp.dstprt == 1"},',
      // \"(20-21) \ud83d\ude00(22-33) \"(34-35): -> 59..75
      JSON_RULE + 'ip.geoip.country == \\"\\ud83d\\ude00\\""}',
    ]);
    assert.deepEqual(located(check(text, 'json')), [
      ['unknown-field', 5, 76, 5, 86],
      ['deprecated-field', 6, 39, 6, 55],
      ['unknown-country-code', 6, 59, 6, 75],
    ]);
  });

  it('counts a raw emoji earlier on the line as two UTF-16 units', () => {
    const text = jsonDoc([
      // '    '(0-3) {(4) "description"(5-17) :(18) ' '(19) "(20) 😀(21-22) "(23) ,(24) ' '(25)
      // "action"(26-33) :(34) ' '(35) "block"(36-42) ,(43) ' '(44) "expression"(45-56) :(57) ' '(58)
      // "(59) tcp.dstprt(60-69)
      '    {"description": "😀", "action": "block", "expression": "tcp.dstprt == 1"},',
      // Inside the expression: \"(16-17) 😀(18-19) \"(20-21) ' '(22) and(23-25) ' '(26) tcp.dstprt(27-36): -> 66..76
      JSON_RULE + 'cf.colo.name == \\"😀\\" and tcp.dstprt == 1"}',
    ]);
    assert.deepEqual(located(check(text, 'json')), [
      ['unknown-field', 5, 60, 5, 70],
      ['unknown-field', 6, 66, 6, 76],
    ]);
  });

  it('gives the same lines and characters with CRLF line ends', () => {
    const rules = [JSON_RULE + 'ip.proto == \\"tpc\\" or tcp.dstprt == 1"},', JSON_RULE + 'cf.colo.name == \\"caf\\u00e9\\" and tcp.dstprt == 1"}'];
    const text = jsonDoc(rules, '\r\n');
    assert.ok(text.includes('\r\n') && !/[^\r]\n/.test(text));
    assert.deepEqual(located(check(text, 'json')), [
      ['unknown-protocol', 5, 51, 5, 58],
      ['unknown-field', 5, 62, 5, 72],
      ['unknown-field', 6, 73, 6, 83],
    ]);
  });
});

// ------------------------------------------------------------------ YAML positions

// Lines 0-4 are the header; `    expression: ` is 16 characters, so a plain scalar starts at
// character 16 and a quoted one has its opening quote there and its content from 17.
const YAML_HEAD = ['name: positions', 'kind: root', 'phase: magic_transit', 'rules:', '  - action: block'];

function yamlDoc(lines: string[], eol = '\n'): string {
  return [...YAML_HEAD, ...lines, ''].join(eol);
}

describe('checkRuleset: expression positions in YAML', () => {
  it('maps a plain scalar, on one line and folded over two', () => {
    const text = yamlDoc([
      // ip.proto == (0-11) "tpc"(12-16) ' or '(17-20) tcp.dstprt(21-30): +16 -> 28..33, 37..47
      '    expression: ip.proto == "tpc" or tcp.dstprt == 1',
      '  - action: block',
      '    expression: ip.proto == "tcp"',
      // '      '(0-5) and(6-8) ' '(9) udp.dstprt(10-19)
      '      and udp.dstprt == 2',
    ]);
    assert.deepEqual(located(check(text, 'yaml')), [
      ['unknown-protocol', 5, 28, 5, 33],
      ['unknown-field', 5, 37, 5, 47],
      ['unknown-field', 8, 10, 8, 20],
    ]);
  });

  it("maps a single-quoted scalar with '' as two source characters", () => {
    const text = yamlDoc([
      // '(16) then content from 17: cf.colo.name == (0-15) "(16) it(17-18) ''(19-20) s(21) "(22) ' '(23)
      // and(24-26) ' '(27) tcp.dstprt(28-37): -> 45..55
      "    expression: 'cf.colo.name == \"it''s\" and tcp.dstprt == 1'",
      '  - action: block',
      // content from 17: ip.proto == (0-11) "(12) t(13) p(14) ''(15-16) c(17) "(18): the string "tp'c" is 12..19 -> 29..36
      "    expression: 'ip.proto == \"tp''c\"'",
    ]);
    assert.deepEqual(located(check(text, 'yaml')), [
      ['unknown-field', 5, 45, 5, 55],
      ['unknown-protocol', 7, 29, 7, 36],
    ]);
  });

  it('maps a double-quoted scalar through its escapes', () => {
    const text = yamlDoc([
      // content from 17: ip.proto == (0-11) \"(12-13) tpc(14-16) \"(17-18) ' and '(19-23)
      // cf.colo.name == (24-39) \"(40-41) caf(42-44) \u00e9(45-50) \"(51-52) ' and '(53-57) tcp.dstprt(58-67)
      // -> "tpc" 29..36, tcp.dstprt 75..85
      '    expression: "ip.proto == \\"tpc\\" and cf.colo.name == \\"caf\\u00e9\\" and tcp.dstprt == 1"',
      '  - action: block',
      // content from 17: ip.geoip.country == (0-19) \"(20-21) \x41\x42(22-29) \"(30-31)
      // "\x41\x42" reads "AB", not assigned: the string literal is 20..32 -> 37..49
      '    expression: "ip.geoip.country == \\"\\x41\\x42\\""',
    ]);
    assert.deepEqual(located(check(text, 'yaml')), [
      ['unknown-protocol', 5, 29, 5, 36],
      ['unknown-field', 5, 75, 5, 85],
      ['deprecated-field', 7, 17, 7, 33],
      ['unknown-country-code', 7, 37, 7, 49],
    ]);
  });

  it('maps a literal block scalar, diagnostic on its second line', () => {
    const text = yamlDoc([
      '    expression: |',
      '      ip.proto == "tcp"',
      // '      '(0-5) and(6-8) ' '(9) tcp.dstprt(10-19)
      '      and tcp.dstprt == 1',
    ]);
    assert.deepEqual(located(check(text, 'yaml')), [['unknown-field', 7, 10, 7, 20]]);
  });

  it('maps a folded block scalar, diagnostic on its second line', () => {
    for (const header of ['>', '>-', '>+', '|-']) {
      const text = yamlDoc([
        `    expression: ${header}`,
        '      ip.proto == "tcp"',
        // '      '(0-5) and(6-8) ' '(9) tcp.dstprt(10-19)
        '      and tcp.dstprt == 1',
        '    description: after the block',
      ]);
      assert.deepEqual(located(check(text, 'yaml')), [['unknown-field', 7, 10, 7, 20]], header);
    }
  });

  it('puts an error at the end of a block scalar on its last line, not on the next rule', () => {
    for (const eol of ['\n', '\r\n']) {
      for (const header of ['|', '|-', '|+', '>', '>-', '>+', '|2']) {
        const text = yamlDoc(
          [
            `    expression: ${header}`,
            '      ip.proto == "tcp"',
            // '      '(0-5) and(6-8): the expression ends at character 9 of line 7
            '      and',
            '',
            '  - action: block',
            '    expression: sip',
          ],
          eol,
        );
        assert.deepEqual(located(check(text, 'yaml')), [['syntax-error', 7, 9, 7, 9]], `${header} ${JSON.stringify(eol)}`);
      }
    }
  });

  it('ends an unterminated string of a block scalar on its last character', () => {
    for (const header of ['|', '|-', '|+', '>', '>-', '>+']) {
      const text = yamlDoc([
        `    expression: ${header}`,
        // '      '(0-5) cf.colo.name(6-17) ' '(18) ==(19-20) ' '(21) "(22) ams(23-25)
        '      cf.colo.name == "ams',
        '',
        '  - action: block',
        '    expression: sip',
      ]);
      assert.deepEqual(located(check(text, 'yaml')), [['unterminated-string', 6, 22, 6, 26]], header);
    }
  });

  it('gives the same lines and characters with CRLF line ends in every style', () => {
    const text = yamlDoc(
      [
        // line 5: content from 17: ip.proto == (0-11) \"tpc\"(12-18) -> 29..36
        '    expression: "ip.proto == \\"tpc\\"',
        // line 6: '      '(0-5) and(6-8) ' '(9) tcp.dstprt(10-19)
        '      and tcp.dstprt == 1"',
        '  - action: block',
        '    expression: >',
        '      ip.proto == "tcp"',
        // line 10: udp.dstprt(10-19)
        '      and udp.dstprt == 2',
        '  - action: block',
        "    expression: 'ip.src in {10.0.0.0/8}",
        '',
        // line 14: '      '(0-5) or(6-7) ' '(8) ip.dstprt(9-17)
        "      or ip.dstprt == 3'",
        '  - action: block',
        // line 16: plain, then line 17: udp.srcprt(10-19)
        '    expression: ip.proto == "udp"',
        '      and udp.srcprt == 4',
        '  - action: block',
        '    expression: |',
        '      ip.proto == "udp"',
        // line 21: tcp.srcprt(10-19)
        '      and tcp.srcprt == 5',
      ],
      '\r\n',
    );
    assert.ok(!/[^\r]\n/.test(text));
    assert.deepEqual(located(check(text, 'yaml')), [
      ['unknown-protocol', 5, 29, 5, 36],
      ['unknown-field', 6, 10, 6, 20],
      ['unknown-field', 10, 10, 10, 20],
      ['unknown-field', 14, 9, 14, 18],
      ['unknown-field', 17, 10, 17, 20],
      ['unknown-field', 21, 10, 21, 20],
    ]);
  });

  it('counts a raw emoji earlier on the line as two UTF-16 units', () => {
    const text = ['name: positions', 'kind: root', 'phase: magic_transit', 'rules:', '  - {action: block, description: 😀, expression: tcp.dstprt == 1}', ''].join('\n');
    // '  - '(0-3) {(4) action:(5-11) ' '(12) block(13-17) ,(18) ' '(19) description:(20-31) ' '(32)
    // 😀(33-34) ,(35) ' '(36) expression:(37-47) ' '(48) tcp.dstprt(49-58)
    assert.deepEqual(located(check(text, 'yaml')), [['unknown-field', 4, 49, 4, 59]]);
  });
});

// ------------------------------------------------------------------ shape

describe('checkRuleset: ruleset shape', () => {
  it('reports a missing `rules` on the object and missing rule keys on the rule', () => {
    const text = '{\n  "rules": [\n    {"description": "nothing"}\n  ]\n}\n';
    const problems = check(text, 'json', { defaultPhase: 'magic_transit' });
    assert.deepEqual(located(problems), [['missing-key', 2, 4, 2, 5]]);
    assert.equal(problems[0].severity, 'error');
    assert.match(problems[0].message, /`action`/);
    assert.match(problems[0].message, /`expression`/);
    const noRules = one(check('name: x\nkind: root\nphase: magic_transit\n', 'yaml'), 'missing-key');
    assert.equal(noRules.message, 'this ruleset has no `rules`, which is required');
    assert.equal(noRules.severity, 'error');
  });

  it('takes a file of rules alone, as `PUT …/phases/{phase}/entrypoint` does: no `name` or `kind` is missing', () => {
    const rules = '{"rules":[{"expression":"true","action":"set_cache_settings","action_parameters":{"cache":false}}]}';
    assert.deepEqual(check(rules, 'json', { defaultPhase: 'http_request_cache_settings' }), []);
    assert.deepEqual(check(rules.replace('{', '{"phase":"http_request_cache_settings",'), 'json'), []);
    // Without a phase: one note on the first character, which says how to give one.
    const phaseless = check(rules, 'json');
    assert.deepEqual(located(phaseless), [['phase-not-given', 0, 0, 0, 1]]);
    assert.equal(phaseless[0].severity, 'information');
    assert.match(phaseless[0].message, /checked only for what holds in every phase/);
    for (const way of ['`phase:` in this file', '`--phase`', '`phase:` in .rulesets.yaml', '`rulesets.defaultPhase`']) assert.ok(phaseless[0].message.includes(way), way);
    assert.deepEqual(codes(check('rules: []\n', 'yaml', { defaultPhase: 'magic_transit' })), []);
    assert.deepEqual(codes(check('name: n\nkind: zone\nrules: []\n', 'yaml')), ['information phase-not-given']);
  });

  it('without a phase, reports a field no phase has, and nothing that holds in some phase only', () => {
    const rules = (expression: string, action = 'block') => `rules:\n  - action: ${action}\n    expression: ${JSON.stringify(expression)}\n`;
    // '    expression: "'(0-16) cf.threatScore(17-30)
    const typo = check(rules('cf.threatScore > 10'), 'yaml');
    assert.deepEqual(located(typo), [
      ['phase-not-given', 0, 0, 0, 1],
      ['unknown-field', 2, 17, 2, 31],
    ]);
    assert.equal(typo[1].severity, 'error');
    assert.equal(typo[1].message, 'unknown field `cf.threatScore`: no phase has it; did you mean `cf.threat_score`?');
    // An HTTP field, a packet field, one of a few HTTP phases, and an action of one phase only.
    for (const expression of ['cf.threat_score > 10', 'tcp.dstport == 22', 'http.request.accepted_languages[0] == "fr"', 'sip and udp.dstport == 5060']) {
      assert.deepEqual(codes(check(rules(expression), 'yaml')), ['information phase-not-given'], expression);
    }
    assert.deepEqual(codes(check(rules('http.host == "a"', 'set_cache_settings'), 'yaml')), ['information phase-not-given']);
    // Where the tree cannot be built, the same: a field no phase has, not one some phase has.
    assert.deepEqual(located(check(rules('cf.threatScore > 10 and'), 'yaml')).filter(([code]) => code === 'unknown-field'), [['unknown-field', 2, 17, 2, 31]]);
    assert.deepEqual(codes(check(rules('tcp.dstport == 22 and'), 'yaml')).filter((c) => c.includes('unknown-field')), []);
    // In a phase, the same typo is reported as before.
    assert.match(one(check(rules('cf.threatScore > 10'), 'yaml', { defaultPhase: 'http_request_firewall_custom' }), 'unknown-field').message, /in phase `http_request_firewall_custom`/);
  });

  it('without a phase, reports a function no phase has, and none that some phase has', () => {
    const rules = (expression: string) => `rules:
  - action: block
    expression: ${JSON.stringify(expression)}
`;
    // '    expression: "'(0-16) lowr(17-21)
    const typo = check(rules('lowr(http.host) == "a"'), 'yaml');
    assert.deepEqual(located(typo), [
      ['phase-not-given', 0, 0, 0, 1],
      ['unknown-function', 2, 17, 2, 21],
    ]);
    assert.equal(typo[1].severity, 'error');
    assert.equal(typo[1].message, 'unknown function `lowr`: no phase has it; did you mean `lower`?');
    // An HTTP function and a packet function.
    for (const expression of ['lower(http.host) == "a"', 'bit_slice(tcp, 0, 8) == 1']) {
      assert.deepEqual(codes(check(rules(expression), 'yaml')), ['information phase-not-given'], expression);
    }
  });

  it('reports values of the wrong type', () => {
    const text = [
      '{',
      '  "name": 5,',
      '  "kind": "root",',
      '  "phase": "magic_transit",',
      '  "version": 3,',
      '  "rules": [',
      '    {"action": "block", "expression": "true", "enabled": "yes", "action_parameters": [], "logging": true, "description": 1},',
      '    "not a rule"',
      '  ]',
      '}',
      '',
    ].join('\n');
    const problems = check(text, 'json');
    const types = withCode(problems, 'invalid-type');
    // Line 6: '    '(0-3) {(4) "action"(5-12) :(13) ' '(14) "block"(15-21) ,(22) ' '(23) "expression"(24-35)
    // :(36) ' '(37) "true"(38-43) ,(44) ' '(45) "enabled"(46-54) :(55) ' '(56) "yes"(57-61) ,(62) ' '(63)
    // "action_parameters"(64-82) :(83) ' '(84) [](85-86) ,(87) ' '(88) "logging"(89-97) :(98) ' '(99)
    // true(100-103) ,(104) ' '(105) "description"(106-118) :(119) ' '(120) 1(121).
    // Line 7: the string that should be a rule, "not a rule"(4-15).
    assert.deepEqual(
      types.map((p) => [p.severity, ...at(p)]),
      [
        ['error', 1, 10, 1, 11],
        ['warning', 4, 13, 4, 14],
        ['error', 6, 57, 6, 62],
        ['error', 6, 85, 6, 87],
        ['error', 6, 100, 6, 104],
        ['error', 6, 121, 6, 122],
        ['error', 7, 4, 7, 16],
      ],
    );
    assert.match(types[0].message, /expected `name` to be a string, found `5`/);
    assert.equal(withCode(problems, 'logging-not-allowed').length, 1);
    const rulesNotArray = check('{"name": "x", "kind": "root", "phase": "magic_transit", "rules": {}}', 'json');
    assert.deepEqual(codes(rulesNotArray), ['error invalid-type']);
    assert.match(rulesNotArray[0].message, /`rules` to be an array/);
    assert.deepEqual(codes(check('[1, 2]', 'json')), ['error invalid-type']);
    // A number where `kind` or `phase` belongs is not a kind or phase either.
    const numbers = check('name: x\nkind: 5\nphase: 7\nrules: []\n', 'yaml');
    assert.deepEqual(located(numbers), [
      ['invalid-type', 1, 6, 1, 7],
      ['invalid-type', 2, 7, 2, 8],
    ]);
    assert.ok(numbers.every((p) => p.severity === 'error'));
    assert.match(numbers[0].message, /expected `kind` to be a string, found `5`/);
  });

  it('rejects an unknown kind, with a suggestion', () => {
    const problems = check('name: x\nkind: rooot\nphase: magic_transit\nrules: []\n', 'yaml');
    const kind = one(problems, 'unknown-kind');
    assert.equal(kind.severity, 'error');
    assert.deepEqual(at(kind), [1, 6, 1, 11]);
    assert.match(kind.message, /did you mean `root`/);
    assert.deepEqual(codes(problems), ['error unknown-kind']);
    for (const k of ['root', 'custom', 'managed', 'zone']) assert.deepEqual(check(`name: x\nkind: ${k}\nphase: magic_transit\nrules: []\n`, 'yaml'), []);
  });

  it('warns about an unknown phase, with a suggestion', () => {
    const problems = check('name: x\nkind: root\nphase: magic_transt\nrules: []\n', 'yaml');
    assert.deepEqual(codes(problems), ['warning unknown-phase']);
    assert.deepEqual(at(problems[0]), [2, 7, 2, 19]);
    assert.match(problems[0].message, /did you mean `magic_transit`/);
  });

  it('an unknown action is an error (the service refuses it), with the action meant', () => {
    const problems = check('name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: blok\n    expression: "true"\n', 'yaml');
    assert.deepEqual(codes(problems), ['error unknown-action']);
    assert.match(problems[0].message, /^unknown action `blok` \(the service refuses a rule whose action it does not define\); /);
    assert.deepEqual(at(problems[0]), [4, 12, 4, 16]);
    assert.match(problems[0].message, /did you mean `block`/);
  });

  it('knows every action the API defines by name, in a phase whose actions no source lists', () => {
    for (const action of KNOWN_ACTIONS) {
      const problems = check(`name: x\nkind: zone\nphase: http_request_sbfm\nrules:\n  - action: ${action}\n    expression: http.host eq "a"\n`, 'yaml');
      assert.deepEqual(withCode(problems, 'unknown-action'), [], action);
      assert.deepEqual(withCode(problems, 'action-not-allowed'), [], action);
    }
  });

  it('asks for `ruleset: current` on a skip in the packet phases only: elsewhere a skip names phases, products or rulesets', () => {
    const waf = 'name: x\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: skip\n    expression: http.host eq "a"\n    action_parameters:\n      phases: [http_ratelimit]\n';
    assert.deepEqual(check(waf, 'yaml'), []);
    assert.deepEqual(check(waf.replace(/    action_parameters:[\s\S]*/, ''), 'yaml'), []);
  });

  it('requires action_parameters.ruleset "current" on skip', () => {
    const head = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: skip\n    expression: "true"\n';
    const none = check(head, 'yaml');
    assert.deepEqual(codes(none), ['error missing-action-parameters']);
    assert.deepEqual(at(none[0]), [4, 12, 4, 16]);
    const empty = check(head + '    action_parameters: {}\n', 'yaml');
    assert.deepEqual(codes(empty), ['error missing-action-parameters']);
    assert.deepEqual(at(empty[0]), [6, 4, 6, 21]);
    const other = check(head + '    action_parameters:\n      ruleset: other\n', 'yaml');
    assert.deepEqual(codes(other), ['error invalid-action-parameters']);
    assert.deepEqual(at(other[0]), [7, 15, 7, 20]);
    assert.match(other[0].message, /`"current"`.*found `"other"`/);
    assert.deepEqual(check(head + '    action_parameters:\n      ruleset: current\n', 'yaml'), []);
  });

  it('requires action_parameters.id on execute', () => {
    const head = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: execute\n    expression: "true"\n';
    assert.deepEqual(codes(check(head, 'yaml')), ['error missing-action-parameters']);
    const noId = check(head + '    action_parameters:\n      version: latest\n', 'yaml');
    assert.deepEqual(codes(noId), ['error missing-action-parameters']);
    assert.deepEqual(at(noId[0]), [6, 4, 6, 21]);
    assert.deepEqual(codes(check(head + '    action_parameters:\n      id: 42\n', 'yaml')), ['error invalid-action-parameters']);
    assert.deepEqual(check(head + '    action_parameters:\n      id: 4814384a9e5d4991b9815dcfc25d2f1f\n', 'yaml'), []);
  });

  it('warns about unknown keys, suggesting the closest', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nnotes: hi\nrules:\n  - action: block\n    expresion: "true"\n';
    const problems = check(text, 'yaml');
    assert.deepEqual(located(problems), [
      ['unknown-key', 3, 0, 3, 5],
      ['missing-key', 5, 4, 5, 5],
      ['unknown-key', 6, 4, 6, 13],
    ]);
    assert.equal(problems[0].severity, 'warning');
    assert.equal(problems[2].severity, 'warning');
    assert.match(problems[2].message, /did you mean `expression`/);
  });

  it('knows the ruleset field `source` the API returns (a zone entry point exported as it is), a string', () => {
    const text = '{"name":"t","kind":"zone","phase":"http_request_firewall_custom","source":"firewall_custom","rules":[{"expression":"true","action":"block"}]}';
    assert.deepEqual(check(text, 'json'), []);
    const wrong = check('name: t\nkind: zone\nphase: http_request_firewall_custom\nsource: 3\nrules: []\n', 'yaml');
    assert.deepEqual(located(wrong), [['invalid-type', 3, 8, 3, 9]]);
  });

  it('knows every rule field the API defines, used by block and skip or not, and their types', () => {
    const rule = `  - action: block\n    expression: "true"\n    id: 4814384a9e5d4991b9815dcfc25d2f1f\n    ref: my-ref\n    version: "3"\n    last_updated: "2026-11-01T00:00:00Z"\n    categories: [a]\n`;
    const ratelimit = '    ratelimit: {characteristics: [cf.colo.id, ip.src], period: 60, requests_per_period: 100, mitigation_timeout: 600}\n';
    const credentials = '    exposed_credential_check: {username_expression: \'url_decode(http.request.body.form["user"][0])\', password_expression: \'url_decode(http.request.body.form["pass"][0])\'}\n';
    assert.deepEqual(check(`name: x\nkind: root\nphase: http_ratelimit\nrules:\n${rule}${ratelimit}`, 'yaml'), []);
    assert.deepEqual(check(`name: x\nkind: root\nphase: http_request_firewall_custom\nrules:\n${rule}${credentials}`, 'yaml'), []);
    const wrong = check(`name: x\nkind: root\nphase: magic_transit\nrules:\n${rule}    ratelimit: 60\n`, 'yaml');
    assert.deepEqual(located(wrong), [['invalid-type', 11, 15, 11, 17]]);
  });

  it('rejects logging on a block rule', () => {
    const text = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n  {"action": "block", "expression": "true", "logging": {"enabled": true}}\n]}';
    const problems = check(text, 'json');
    assert.deepEqual(codes(problems), ['error logging-not-allowed']);
    // '  '(0-1) {(2) "action"(3-10) :(11) ' '(12) "block"(13-19) ,(20) ' '(21) "expression"(22-33) :(34) ' '(35)
    // "true"(36-41) ,(42) ' '(43) "logging"(44-52)
    assert.deepEqual(at(problems[0]), [1, 44, 1, 53]);
  });

  it('rejects `expression: true`, which YAML reads as a Boolean', () => {
    const problems = check('name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: true\n', 'yaml');
    assert.deepEqual(codes(problems), ['error invalid-type']);
    assert.deepEqual(at(problems[0]), [5, 16, 5, 20]);
    assert.match(problems[0].message, /write `"true"`/);
  });

  // The service returns `action_parameters.version` on `execute` rules (cloudflare/cf-terraforming's
  // recorded exports, testdata/terraform/cloudflare_ruleset_zone_ddos_l7/test.tf at 4a6b3197), which
  // the API's types lack: the schema data (catalogue/actions.ts) needs the key for this to pass.
  it('checks a pulled ruleset with every field the API returns clean', () => {
    const pulled = {
      id: '2f2feab2026849078ba485f918791bdc',
      name: 'Magic Transit entry point',
      description: '',
      kind: 'root',
      version: '3',
      phase: 'magic_transit',
      last_updated: '2024-05-01T10:20:30.123456Z',
      rules: [
        {
          id: '3a03d665bac047339bb530ecb439a90d',
          version: '1',
          action: 'skip',
          action_parameters: { ruleset: 'current' },
          expression: 'tcp.dstport in {22}',
          description: 'Let SSH through',
          last_updated: '2024-05-01T10:20:30.123456Z',
          ref: '3a03d665bac047339bb530ecb439a90d',
          enabled: true,
          logging: { enabled: true },
        },
        {
          id: '1fc3e8d3e3c14dd4a6dbd38cbe7e1e2a',
          version: '2',
          action: 'block',
          expression: 'ip.proto == "tcp"',
          description: 'Block other TCP',
          last_updated: '2024-05-01T10:20:30.123456Z',
          ref: 'block-tcp',
          enabled: false,
          categories: [],
        },
        {
          id: '8c6b3b5d1f0f4c1ea3e8a0b7d7c4b0e1',
          version: '1',
          action: 'execute',
          action_parameters: { id: '4814384a9e5d4991b9815dcfc25d2f1f', version: 'latest' },
          expression: 'true',
          last_updated: '2024-05-01T10:20:30.123456Z',
          ref: '8c6b3b5d1f0f4c1ea3e8a0b7d7c4b0e1',
          enabled: true,
          categories: ['managed'],
        },
      ],
    };
    assert.deepEqual(check(JSON.stringify(pulled, null, 2), 'json'), []);
    assert.deepEqual(check(YAML.stringify(pulled), 'yaml'), []);
  });
});

// ------------------------------------------------------------------ broken documents

describe('checkRuleset: broken documents', () => {
  const rule1 = JSON_RULE + 'tcp.dstprt == 1"}';
  const rule2 = JSON_RULE + 'udp.dstprt == 2"}';

  it('JSON with a missing comma still checks both expressions', () => {
    const problems = check(jsonDoc([rule1, rule2]), 'json');
    assert.deepEqual(located(problems), [
      ['unknown-field', 5, 39, 5, 49],
      ['json-syntax', 6, 4, 6, 5],
      ['unknown-field', 6, 39, 6, 49],
    ]);
    assert.match(problems[1].message, /expected `,`/);
  });

  it('JSON with a trailing comma still checks both expressions', () => {
    const problems = check(jsonDoc([rule1 + ',', rule2 + ',']), 'json');
    assert.deepEqual(located(problems), [
      ['unknown-field', 5, 39, 5, 49],
      ['unknown-field', 6, 39, 6, 49],
      ['json-syntax', 7, 2, 7, 3],
    ]);
  });

  it('JSON with an unterminated object still checks both expressions', () => {
    const text = [...JSON_HEAD, rule1 + ',', JSON_RULE + 'udp.dstprt == 2"'].join('\n');
    const problems = check(text, 'json');
    assert.deepEqual(located(withCode(problems, 'unknown-field')), [
      ['unknown-field', 5, 39, 5, 49],
      ['unknown-field', 6, 39, 6, 49],
    ]);
    const syntax = withCode(problems, 'json-syntax');
    assert.ok(syntax.length >= 1);
    // At the end of the text: line 6 has 39 + 16 = 55 characters.
    for (const p of syntax) assert.deepEqual(at(p), [6, 55, 6, 55]);
    assert.ok(syntax.some((p) => /`}`/.test(p.message)));
  });

  it('JSON with an unterminated string still checks the expressions before it', () => {
    const text = [...JSON_HEAD, rule1 + ',', JSON_RULE + 'udp.dstprt == 2', '  ]', '}'].join('\n');
    const problems = check(text, 'json');
    assert.deepEqual(located(withCode(problems, 'unknown-field')), [
      ['unknown-field', 5, 39, 5, 49],
      ['unknown-field', 6, 39, 6, 49],
    ]);
    assert.ok(withCode(problems, 'json-syntax').length >= 1);
  });

  it('JSON nested thousands of levels deep is a syntax error at the bracket past MAX_NESTING, not a crash', () => {
    for (const [text, at] of [
      ['['.repeat(100_000), MAX_NESTING],
      ['['.repeat(3_000) + ']'.repeat(3_000), MAX_NESTING],
      ['{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000), 5 * MAX_NESTING],
    ] as const) {
      const problems = check(text, 'json');
      assert.deepEqual(located(problems), [['json-syntax', 0, at, 0, at + 1]], text.slice(0, 10));
      assert.match(problems[0].message, /nested too deeply/);
    }
    for (const text of ['rules: ' + '['.repeat(10_000) + ']'.repeat(10_000), Array.from({ length: 3_000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')]) {
      assert.doesNotThrow(() => check(text, 'yaml'));
    }
  });

  it('YAML with a bad indentation still checks the expressions around it', () => {
    const text = yamlDoc([
      '    expression: tcp.dstprt == 1',
      '  - action: block',
      '   expression: udp.dstprt == 2',
      '  - action: block',
      '    expression: ip.dstprt == 3',
    ]);
    const problems = check(text, 'yaml');
    assert.deepEqual(located(withCode(problems, 'unknown-field')), [
      ['unknown-field', 5, 16, 5, 26],
      // '   expression: '(0-14) udp.dstprt(15-24)
      ['unknown-field', 7, 15, 7, 25],
      ['unknown-field', 9, 16, 9, 25],
    ]);
    assert.equal(withCode(problems, 'yaml-syntax').length, 1);
  });

  it('YAML with an unclosed quote still checks the expressions before it', () => {
    const text = yamlDoc(['    expression: tcp.dstprt == 1', '  - action: block', '    expression: "udp.dstprt == 2']);
    const problems = check(text, 'yaml');
    assert.deepEqual(located(withCode(problems, 'unknown-field')), [
      ['unknown-field', 5, 16, 5, 26],
      ['unknown-field', 7, 17, 7, 27],
    ]);
    assert.equal(withCode(problems, 'yaml-syntax').length, 1);
  });
});

// ------------------------------------------------------------------ detection

describe('ruleset file detection', () => {
  it('isRulesetFileName', () => {
    for (const yes of ['a.ruleset.json', 'a.ruleset.yaml', 'a.ruleset.yml', 'dir/My.Ruleset.JSON', 'C:\\x\\b.ruleset.YML', 'a.b.ruleset.json']) {
      assert.equal(isRulesetFileName(yes), true, yes);
    }
    for (const no of ['a.json', 'a.yaml', 'ruleset.json', 'a.ruleset', 'a.ruleset.json.bak', 'a.ruleset.toml', 'a-ruleset.json', 'a.rulesets.json']) {
      assert.equal(isRulesetFileName(no), false, no);
    }
  });

  it('the project configuration is never a ruleset, whatever the patterns of ruleset files say', () => {
    const root = () => parseRuleset('phase: magic_transit\nrules:\n  - action: block\n', 'yaml').root;
    for (const path of ['/w/.rulesets.yaml', 'C:\\w\\.rulesets.yaml', '.rulesets.yaml']) {
      assert.equal(classifyFile(path, { patterns: ['*.yaml', '**/*'], root }).role, 'other', path);
    }
    assert.equal(classifyFile('/w/rulesets.yaml', { patterns: ['*.yaml'] }).role, 'ruleset');
  });

  it('looksLikeRuleset', () => {
    const looks = (text: string, format: HostFormat) => looksLikeRuleset(parseRuleset(text, format).root);
    assert.equal(looks('{"phase": "magic_transit", "rules": [{"action": "block"}]}', 'json'), true);
    assert.equal(looks('{"kind": "root", "rules": []}', 'json'), true);
    assert.equal(looks('phase: magic_transit\nrules:\n  - expression: "true"\n', 'yaml'), true);
    assert.equal(looks('{"rules": [{"action": "block"}]}', 'json'), false);
    assert.equal(looks('{"phase": "x", "rules": ["a"]}', 'json'), false);
    assert.equal(looks('{"phase": "x", "rules": {"a": {}}}', 'json'), false);
    assert.equal(looks('{"name": "pkg", "version": "1.0.0", "scripts": {"test": "node"}}', 'json'), false);
    assert.equal(looks('[{"phase": "x", "rules": []}]', 'json'), false);
    assert.equal(looks('', 'yaml'), false);
    assert.equal(looks('{', 'json'), false);
  });
});

// ------------------------------------------------------------------ phases

describe('checkRuleset: phases', () => {
  const doc = (phase?: string) =>
    `name: x\nkind: root\n${phase ? `phase: ${phase}\n` : ''}rules:\n  - action: block\n    expression: foo.bar == 1\n`;

  it('reports an unknown field in magic_transit', () => {
    const problems = check(doc('magic_transit'), 'yaml');
    assert.deepEqual(located(problems), [['unknown-field', 5, 16, 5, 23]]);
    assert.equal(problems[0].severity, 'error');
  });

  it('reports an unknown field in the sister phases, which share the table of magic_transit', () => {
    assert.deepEqual(located(check(doc('magic_transit_managed'), 'yaml')), [['unknown-field', 5, 16, 5, 23]]);
  });

  it('does not report fields it cannot know in an unknown phase', () => {
    assert.deepEqual(codes(check(doc('my_new_phase'), 'yaml')), ['warning unknown-phase']);
  });

  it('applies defaultPhase only when the file has no phase', () => {
    // Without a phase line the expression is on line 4: '    expression: '(0-15) foo.bar(16-22)
    // The default phase is the file's phase: it is not missing.
    const noPhase = check(doc(), 'yaml', { defaultPhase: 'magic_transit' });
    assert.deepEqual(located(noPhase), [['unknown-field', 4, 16, 4, 23]]);
    // Without one, `foo.bar` is a field no phase has, and the file says that nothing more was checked.
    assert.deepEqual(codes(check(doc(), 'yaml')), ['information phase-not-given', 'error unknown-field']);
    assert.deepEqual(codes(check(doc('my_new_phase'), 'yaml', { defaultPhase: 'magic_transit' })), ['warning unknown-phase']);
  });
});

// ------------------------------------------------------------------ cache

describe('checkRuleset: expression cache', () => {
  it('re-checking a file reuses results; one edited expression costs one entry', () => {
    const cache = new ExpressionCache();
    const text = yamlDoc([
      '    expression: tcp.dstport == 1',
      '  - action: block',
      '    expression: tcp.dstprt == 2',
      '  - action: block',
      '    expression: udp.dstport == 3',
    ]);
    const first = checkRuleset(text, 'yaml', { cache });
    assert.equal(cache.size, 3);
    const second = checkRuleset(text, 'yaml', { cache });
    assert.equal(cache.size, 3);
    assert.deepEqual(second, first);
    const edited = text.replace('udp.dstport == 3', 'udp.dstport == 4');
    checkRuleset(edited, 'yaml', { cache });
    assert.equal(cache.size, 4);
    // The same expression in another phase is a different result.
    checkRuleset(edited.replace('magic_transit', 'magic_transit_managed'), 'yaml', { cache });
    assert.equal(cache.size, 7);
  });
});

describe('checkRuleset: one report per mistake', () => {
  it('an empty ruleset file is an error, not a silent pass', () => {
    for (const format of ['json', 'yaml'] as const) {
      const problems = check('\n  \n', format);
      assert.deepEqual(problems.map((p) => [p.code, p.severity]), [['empty-document', 'error']], format);
    }
  });

  it('a duplicate YAML key is reported once, as in JSON', () => {
    const yaml = ['name: a', 'name: b', 'kind: root', 'phase: magic_transit', 'rules: []'].join('\n');
    assert.deepEqual(located(check(yaml, 'yaml')), [['duplicate-key', 1, 0, 1, 4]]);
    const json = '{"name": "a", "name": "b", "kind": "root", "phase": "magic_transit", "rules": []}';
    assert.deepEqual(located(check(json, 'json')), [['duplicate-key', 0, 14, 0, 20]]);
  });

  it('a key repeated in a rule of many keys is reported at each later copy', () => {
    const keys = ['action', 'expression', ...Array.from({ length: 20 }, (_, i) => `x${i % 12}`), 'action'];
    const rule = `{${keys.map((k) => `"${k}": ${k === 'action' ? '"block"' : k === 'expression' ? '"tcp"' : '1'}`).join(', ')}}`;
    const json = `{"name": "a", "kind": "root", "phase": "magic_transit", "rules": [${rule}]}`;
    const repeated = checkProblems(json, 'json').filter((p) => p.code === 'duplicate-key');
    assert.deepEqual(
      repeated.map((p) => json.slice(p.start, p.end)),
      [...Array.from({ length: 8 }, (_, i) => `"x${i}"`), '"action"'],
    );
  });

  it('a trailing comma in an object is one syntax error (on the `}` after it)', () => {
    const json = '{"name": "a", "kind": "root", "phase": "magic_transit", "rules": [],}';
    assert.deepEqual(located(check(json, 'json')), [['json-syntax', 0, 68, 0, 69]]);
  });
});

describe('checkRuleset: documents nested too deeply', () => {
  it('say so in words for YAML too, not with the library\'s stack message', () => {
    const problems = check(`rules: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`, 'yaml');
    const syntax = problems.filter((p) => p.code === 'yaml-syntax');
    assert.ok(syntax.length > 0);
    assert.ok(syntax.every((p) => !/call stack/i.test(p.message)), JSON.stringify(syntax));
    assert.ok(syntax.some((p) => /nested too deeply/.test(p.message)));
  });
});

describe('positionsIn', () => {
  it('gives the positions an LSP client computes: lines end at CR LF, LF or CR; characters in UTF-16', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '\r', '\n', '\r\n', 'é', '😀')).map((parts) => parts.join('')), fc.nat(), (text, n) => {
        const offset = n % (text.length + 1);
        assert.deepEqual(positionsIn(text)(offset), TextDocument.create('file:///t', 'plaintext', 0, text).positionAt(offset));
      }),
      { numRuns: 500 },
    );
  });

  it('and reads positions back to the offsets an LSP client does, lines and characters out of range included', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '\r', '\n', '\r\n', 'é', '😀')).map((parts) => parts.join('')), fc.integer({ min: -2, max: 12 }), fc.integer({ min: -2, max: 12 }), (text, line, character) => {
        assert.equal(new LineTable(text).offsetAt({ line, character }), TextDocument.create('file:///t', 'plaintext', 0, text).offsetAt({ line, character }));
      }),
      { numRuns: 1000 },
    );
  });
});

// ------------------------------------------------------------------ rule counts

describe('checkRuleset: more rules than the service allows in the phase', () => {
  const ruleset = (phase: string, kind: string, rules: number) =>
    JSON.stringify({ name: 'x', kind, phase, rules: Array.from({ length: rules }, (_, i) => ({ action: 'block', expression: `tcp.dstport == ${i + 1}` })) }, null, 2);
  const tooMany = (text: string) => check(text, 'json').filter((p) => p.code === 'too-many-rules');

  it('warns on `rules` past 200 rules in magic_transit, with the number', () => {
    assert.deepEqual(tooMany(ruleset('magic_transit', 'root', 200)), []);
    const over = tooMany(ruleset('magic_transit', 'root', 201));
    assert.equal(over.length, 1);
    assert.equal(over[0].severity, 'warning');
    assert.equal(over[0].message, 'this ruleset has 201 rules; the service takes at most 200 in the `magic_transit` phase, unless your account team has raised the limit');
    // On the `rules` key: line 4 is `  "rules": [`.
    assert.deepEqual([over[0].range.start.line, over[0].range.start.character, over[0].range.end.character], [4, 2, 9]);
  });

  it('warns past one rule in the root ruleset of magic_transit_managed', () => {
    assert.deepEqual(tooMany(ruleset('magic_transit_managed', 'root', 1)), []);
    assert.equal(tooMany(ruleset('magic_transit_managed', 'root', 2))[0]?.message, 'this ruleset has 2 rules; a root ruleset of the `magic_transit_managed` phase holds one rule, whose overrides enable the managed rules');
    assert.deepEqual(tooMany(ruleset('magic_transit_managed', 'managed', 5)), [], 'a managed ruleset is the service’s own');
  });

  it('counts the phase given by defaultPhase', () => {
    const text = JSON.stringify({ name: 'x', kind: 'root', rules: Array.from({ length: 201 }, () => ({ action: 'block', expression: 'tcp' })) });
    assert.equal(toPositions(text, checkRuleset(text, 'json', { cache: new ExpressionCache(), defaultPhase: 'magic_transit' })).filter((p) => p.code === 'too-many-rules').length, 1);
  });
});

// ------------------------------------------------------------------ quotes inside a string

describe('checkRuleset: a `"` inside a string that ends it early', () => {
  /** The text after the first fix of the document's first problem. */
  const fixedBy = (text: string, format: HostFormat) => {
    const [first] = checkRuleset(text, format, { cache: new ExpressionCache() });
    const edits = [...first.fixes![0].edits].sort((a, b) => b.start - a.start);
    return edits.reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
  };

  it('JSON: one diagnostic on the expression that says to escape the quotes, with the fix', () => {
    const text = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n  {"action": "block", "expression": "ip.proto == "tcp""}\n]}\n';
    const problems = check(text, 'json');
    // `  {"action": "block", "expression": ` is 36 characters; the string runs to column 55.
    assert.deepEqual(located(problems), [['unescaped-quote', 1, 36, 1, 55]]);
    assert.equal(problems[0].message, 'this string has `"` inside it, which ends it early: write them as `\\"`');
    const fixed = fixedBy(text, 'json');
    assert.equal(fixed, '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n  {"action": "block", "expression": "ip.proto == \\"tcp\\""}\n]}\n');
    assert.deepEqual(check(fixed, 'json'), []);
  });

  it('YAML: one diagnostic, and the fix puts the expression in single quotes', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: "ip.proto == "tcp""\n';
    const problems = check(text, 'yaml');
    assert.deepEqual(located(problems), [['unescaped-quote', 5, 16, 5, 35]]);
    assert.equal(problems[0].message, 'this string has `"` inside it, which ends it early: put the expression in single quotes, or write them as `\\"`');
    const fixed = fixedBy(text, 'yaml');
    assert.equal(fixed, 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: \'ip.proto == "tcp"\'\n');
    assert.deepEqual(check(fixed, 'yaml'), []);
  });

  it('leaves other syntax errors as they are', () => {
    const text = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n  {"action": "block" "expression": "tcp"}\n]}\n';
    const codes = check(text, 'json').map((p) => p.code);
    assert.ok(codes.includes('json-syntax'));
    assert.ok(!codes.includes('unescaped-quote'));
  });
});

// ------------------------------------------------------------------ style lints as the host writes the expression (issue 35)

describe('checkRuleset: whitespace around an expression, as the host writes it', () => {
  const yaml = (expression: string) => ['name: x', 'kind: zone', 'phase: http_request_firewall_custom', 'rules:', '  - action: block', `    expression: ${expression}`, ''].join('\n');
  const edges = (text: string, format: HostFormat) => withCode(check(text, format), 'edge-whitespace');

  it('says nothing of the line breaks a YAML block scalar ends with, whatever its chomping', () => {
    for (const header of ['|', '|-', '>', '>-', '|+', '>+']) {
      const text = yaml(`${header}\n      http.host eq "example.com"\n      and ssl\n\n`);
      assert.deepEqual(edges(text, 'yaml'), [], header);
    }
  });

  it('says the spaces at the end of a block scalar\'s last line, and the fix removes only them', () => {
    const text = yaml('|\n      http.host eq "example.com"   \n');
    // `      http.host eq "example.com"` is line 6, characters 6..32; the three spaces 32..35.
    assert.deepEqual(located(edges(text, 'yaml')), [['edge-whitespace', 6, 32, 6, 35]]);
    const after = fixed(text, 'yaml', 'edge-whitespace');
    assert.equal(after, yaml('|\n      http.host eq "example.com"\n'));
    assert.deepEqual(edges(after, 'yaml'), []);
  });

  it('says what a quoted string holds at either end, escapes and all', () => {
    // `    expression: "` is 17 characters: the space at 17, `http.host eq ` 18..31, `\"a\"` 31..36, `\n` 36..38.
    const text = yaml('" http.host eq \\"a\\"\\n"');
    assert.deepEqual(located(edges(text, 'yaml')), [
      ['edge-whitespace', 5, 17, 5, 18],
      ['edge-whitespace', 5, 36, 5, 38],
    ]);
    const json = '{"name": "x", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "block", "expression": "ssl "}]}';
    assert.equal(fixed(json, 'json', 'edge-whitespace'), json.replace('"ssl "', '"ssl"'));
  });

  describe('in Terraform', () => {
    before(() => loadTerraformParser());
    const tf = (expression: string) =>
      ['resource "cloudflare_ruleset" "waf" {', '  zone_id = "z"', '  name    = "waf"', '  kind    = "zone"', '  phase   = "http_request_firewall_custom"', '  rules = [{', '    ref        = "a"', '    action     = "block"', `    expression = ${expression}`, '  }]', '}', ''].join('\n');

    it('says nothing of a heredoc\'s last line break or its lines\' indentation', () => {
      assert.deepEqual(edges(tf('<<EOT\n      http.host eq "example.com"\n    EOT'), 'hcl'), []);
      assert.deepEqual(edges(tf('<<-EOT\n      http.host eq "example.com"\n    EOT'), 'hcl'), []);
    });

    it('says a quoted string\'s space, in the file\'s own characters', () => {
      // `    expression = "` is 18 characters: `ssl` 18..21, the space 21..22.
      assert.deepEqual(located(edges(tf('"ssl "'), 'hcl')), [['edge-whitespace', 8, 21, 8, 22]]);
    });
  });
});

describe('checkRuleset: the style lints and `.rulesets.yaml` `rules:`', () => {
  const text = ['name: x', 'kind: zone', 'phase: http_request_firewall_custom', 'rules:', '  - action: block', '    expression: lower(http.host) eq "a" and ssl or http.host eq "b"', ''].join('\n');

  it('reports `and`/`or` mixed as information, and nothing of the Expression Builder, by default', () => {
    assert.deepEqual(codes(check(text, 'yaml')), ['information mixed-logical-operators']);
  });

  it('looks for what the Expression Builder cannot show once `rules` gives it a severity, and drops what `off` turns off', () => {
    const severities = { 'expression-builder': 'warning', 'mixed-logical-operators': 'off' } as const;
    assert.deepEqual(codes(check(text, 'yaml', { severities })), ['warning expression-builder']);
    assert.deepEqual(codes(check(text, 'yaml', { severities: { 'expression-builder': 'off' } })), ['information mixed-logical-operators']);
  });

  it('keeps the results with and without it apart in one cache', () => {
    const cache = new ExpressionCache();
    assert.deepEqual(codes(check(text, 'yaml', { cache, severities: { 'expression-builder': 'information' } })), ['information expression-builder', 'information mixed-logical-operators']);
    assert.deepEqual(codes(check(text, 'yaml', { cache })), ['information mixed-logical-operators']);
  });
});

describe('checkRuleset: regex_replace once in a rewrite, where the file writes it', () => {
  it('says the second call of a URL rewrite\'s path expression, on its name', () => {
    const expression = 'concat(regex_replace(http.request.uri.path, "^/a", "/b"), regex_replace(http.request.uri.path, "^/c", "/d"))';
    const text = ['name: x', 'kind: zone', 'phase: http_request_transform', 'rules:', '  - action: rewrite', '    expression: "true"', '    action_parameters:', '      uri:', '        path:', `          expression: '${expression}'`, ''].join('\n');
    const found = checkProblems(text, 'yaml').filter((p) => p.code === 'once-per-expression');
    assert.equal(found.length, 1);
    assert.equal(text.slice(found[0].start, found[0].end), 'regex_replace');
    assert.equal(found[0].start, text.lastIndexOf('regex_replace'));
    assert.equal(found[0].severity, 'error');
  });
});
