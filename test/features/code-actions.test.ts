/**
 * Code actions on real ruleset documents, in JSON and in every YAML quoting style: each quick
 * fix is applied and the document must then be clean; "Format expression" must leave exactly
 * the canonical text in the document's string, escaped for it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, CodeActionContext, Diagnostic, Range, TextEdit } from 'vscode-languageserver';

import { codeActions, FORMAT_EXPRESSION_TITLE } from '../../server/src/features/code-actions';
import { diagnostics } from '../../server/src/features/diagnostics';
import type { DocumentModel } from '../../server/src/features/model';
import { applyEdits, at, HOSTS, modelOf, settings, textOf, type Host } from './harness';

const NO_DIAGNOSTICS: CodeActionContext = { diagnostics: [] };

function cursorRange(model: DocumentModel, offset: number): Range {
  const position = model.positionAt(offset);
  return { start: position, end: position };
}

/** The actions at the cursor, asked for as a client that sends no diagnostics. */
function actionsAt(host: Host, marked: string, context: CodeActionContext = NO_DIAGNOSTICS): { model: DocumentModel; actions: CodeAction[] } {
  const { model, offset } = at(host, marked);
  return { model, actions: codeActions(model, cursorRange(model, offset), context, settings()) };
}

/** The actions at the cursor, asked for as VS Code does: with the diagnostics under the cursor. */
function actionsWithDiagnostics(model: DocumentModel, range: Range): CodeAction[] {
  const overlapping = diagnostics(model, settings()).filter((d) => !before(d.range.end, range.start) && !before(range.end, d.range.start));
  return codeActions(model, range, { diagnostics: overlapping }, settings());
}

function before(a: Range['start'], b: Range['start']): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

function editsOf(model: DocumentModel, action: CodeAction): TextEdit[] {
  assert.ok(action.edit?.changes, `${action.title} has changes`);
  assert.deepEqual(Object.keys(action.edit.changes), [model.uri]);
  return action.edit.changes[model.uri];
}

function apply(model: DocumentModel, action: CodeAction): DocumentModel {
  return modelOf(applyEdits(model.text, editsOf(model, action)), model.format, model.uri);
}

function problemCodes(model: DocumentModel): string[] {
  return model.problems(settings()).map((p) => p.code);
}

function expressionText(model: DocumentModel, rule = 0): string {
  const site = model.ruleset.expressions.find((e) => e.ruleIndex === rule);
  assert.ok(site, `rule ${rule} has an expression`);
  return site.text;
}

function titled(actions: readonly CodeAction[], title: string): CodeAction {
  const found = actions.find((a) => a.title === title);
  assert.ok(found, `an action titled ${JSON.stringify(title)} among ${JSON.stringify(actions.map((a) => a.title))}`);
  return found;
}

interface FixRow {
  readonly name: string;
  /** The expression, with the cursor marker on the problem. */
  readonly before: string;
  readonly code: string;
  readonly title: string;
  readonly after: string;
}

/** The fixes LANGUAGE.md and the issue promise, one or more rows each. */
const FIX_ROWS: readonly FixRow[] = [
  { name: 'unknown field → the closest field', before: 'ip.sc|r == 192.0.2.1', code: 'unknown-field', title: 'Change to ‘ip.src’', after: 'ip.src == 192.0.2.1' },
  { name: 'unknown field in a longer expression', before: 'sip and udp.dstprot| in {5060}', code: 'unknown-field', title: 'Change to ‘udp.dstport’', after: 'sip and udp.dstport in {5060}' },
  { name: 'comma in a set → space', before: 'tcp.dstport in {22,| 443}', code: 'comma-in-set', title: 'Separate set items with spaces', after: 'tcp.dstport in {22 443}' },
  { name: 'comma without a space → space', before: 'tcp.dstport in {22|,443}', code: 'comma-in-set', title: 'Separate set items with spaces', after: 'tcp.dstport in {22 443}' },
  { name: 'CIDR outside {} → set', before: 'ip.src in 10.0.0.0|/8', code: 'set-required', title: 'Wrap in a set: ‘{10.0.0.0/8}’', after: 'ip.src in {10.0.0.0/8}' },
  { name: 'CIDR compared with == → in a set', before: 'ip.src == 10.0.0.0|/8', code: 'set-required', title: 'Change to ‘in {10.0.0.0/8}’', after: 'ip.src in {10.0.0.0/8}' },
  { name: 'range outside {} → set', before: 'tcp.dstport == 22..|80', code: 'set-required', title: 'Change to ‘in {22..80}’', after: 'tcp.dstport in {22..80}' },
  { name: 'address range outside {} → set', before: 'ip.dst in 192.0.2.1..|192.0.2.9', code: 'set-required', title: 'Wrap in a set: ‘{192.0.2.1..192.0.2.9}’', after: 'ip.dst in {192.0.2.1..192.0.2.9}' },
  { name: 'lowercase country code → uppercase', before: 'ip.src.country == "b|r"', code: 'country-code-case', title: 'Change to ‘"BR"’ (Brazil)', after: 'ip.src.country == "BR"' },
  { name: 'lowercase country code in a set', before: 'ip.src.country in {"DE" "f|r"}', code: 'country-code-case', title: 'Change to ‘"FR"’ (France)', after: 'ip.src.country in {"DE" "FR"}' },
  { name: 'wrong country code → the right one', before: 'ip.dst.country == "U|K"', code: 'unknown-country-code', title: 'Change to ‘"GB"’ (United Kingdom)', after: 'ip.dst.country == "GB"' },
  { name: 'TAB → space', before: 'tcp.flags.ack|\tand tcp.flags.syn', code: 'tab-whitespace', title: 'Replace the TAB with a space', after: 'tcp.flags.ack and tcp.flags.syn' },
  { name: 'field == true on a Boolean field → field', before: 'tcp.flags.syn =|= true', code: 'boolean-comparison', title: 'Change to ‘tcp.flags.syn’', after: 'tcp.flags.syn' },
  { name: 'field == false on a Boolean field → not field', before: 'tcp.flags.syn and tcp.flags.ack == fal|se', code: 'boolean-comparison', title: 'Change to ‘not tcp.flags.ack’', after: 'tcp.flags.syn and not tcp.flags.ack' },
  // Text with characters each host escapes differently: `"` and `\`.
  { name: 'unterminated string ending in a backslash', before: 'cf.colo.name == "dir\\|', code: 'unterminated-string', title: 'Close the string with ‘\\"’', after: 'cf.colo.name == "dir\\\\"' },
];

describe('quick fixes: each fix applied leaves a clean document', () => {
  for (const row of FIX_ROWS) {
    for (const host of HOSTS) {
      it(`${row.name} (${host})`, () => {
        const { model, actions } = actionsAt(host, row.before);
        assert.ok(problemCodes(model).includes(row.code), `the document has ${row.code}: ${problemCodes(model)}`);
        const action = actions[0];
        assert.ok(action, 'an action is offered');
        assert.equal(action.title, row.title);
        assert.equal(action.kind, 'quickfix');
        assert.equal(action.isPreferred, true);
        assert.equal(action.diagnostics?.length, 1);
        assert.equal(action.diagnostics![0].code, row.code);
        const fixed = apply(model, action);
        assert.equal(expressionText(fixed), row.after);
        assert.deepEqual(problemCodes(fixed), [], fixed.text);
      });
    }
  }

  it('escapes the inserted text for the host string', () => {
    const expected: Record<Host, string> = {
      json: '\\"BR\\"',
      'yaml-plain': '"BR"',
      'yaml-single': '"BR"',
      'yaml-double': '\\"BR\\"',
      'yaml-literal': '"BR"',
      'yaml-folded': '"BR"',
    };
    for (const host of HOSTS) {
      const { model, actions } = actionsAt(host, 'ip.src.country == "b|r"');
      const [edit] = editsOf(model, actions[0]);
      assert.equal(edit.newText, expected[host], host);
      assert.equal(textOf(model.text, edit.range), expected[host].replace('BR', 'br'), host);
    }
  });

  it('writes a backslash and a quote as each host string needs them', () => {
    const expected: Record<Host, string> = {
      json: '\\\\\\"',
      'yaml-plain': '\\"',
      'yaml-single': '\\"',
      'yaml-double': '\\\\\\"',
      'yaml-literal': '\\"',
      'yaml-folded': '\\"',
    };
    for (const host of HOSTS) {
      const { model, actions } = actionsAt(host, 'cf.colo.name == "dir\\|');
      assert.equal(editsOf(model, actions[0])[0].newText, expected[host], host);
    }
  });
});

describe('quick fixes: which are offered', () => {
  it('offers the same fixes with and without the client sending the diagnostics, attaching the sent one', () => {
    const { model, offset } = at('json', 'ip.src.country == "b|r"');
    const range = cursorRange(model, offset);
    const withOut = codeActions(model, range, NO_DIAGNOSTICS, settings());
    const sent = diagnostics(model, settings());
    assert.equal(sent.length, 1);
    const withDiagnostics = codeActions(model, range, { diagnostics: sent }, settings());
    assert.deepEqual(withDiagnostics.map((a) => a.title), withOut.map((a) => a.title));
    assert.equal(withDiagnostics[0].diagnostics![0], sent[0]);
    assert.deepEqual(withOut[0].diagnostics![0], sent[0]);
  });

  it('offers the fix of a diagnostic the client names even when the range is elsewhere', () => {
    const { model } = at('json', 'ip.src.country == "b|r"');
    const sent = diagnostics(model, settings());
    const start = { line: 0, character: 0 };
    const actions = codeActions(model, { start, end: start }, { diagnostics: sent }, settings());
    assert.deepEqual(actions.map((a) => a.title), ['Change to ‘"BR"’ (Brazil)']);
  });

  it('ignores diagnostics of other sources, and offers nothing away from a problem', () => {
    const { model } = at('yaml-plain', 'ip.src.country == "b|r"');
    const foreign: Diagnostic = { ...diagnostics(model, settings())[0], source: 'other-linter' };
    const start = { line: 0, character: 0 };
    assert.deepEqual(codeActions(model, { start, end: start }, { diagnostics: [foreign] }, settings()), []);
  });

  it('offers every fix of a problem with several, only the first preferred', () => {
    const { model, actions } = actionsAt('json', 'ip.src.country == "Br|az"');
    assert.deepEqual(problemCodes(model), ['unknown-country-code']);
    assert.ok(actions.length >= 1);
    assert.equal(actions[0].isPreferred, true);
    for (const action of actions.slice(1)) assert.equal(action.isPreferred, undefined);
    // `ip.country`: three fields end in `.country`.
    const several = actionsAt('yaml-single', 'ip.coun|try == "BR"');
    assert.ok(several.actions.length > 1, JSON.stringify(several.actions.map((a) => a.title)));
    assert.deepEqual(several.actions.map((a) => a.isPreferred), [true, ...several.actions.slice(1).map(() => undefined)]);
    // One of them is the deprecated `ip.geoip.country`, which keeps its hint (deprecated-field).
    for (const action of several.actions) assert.deepEqual(problemCodes(apply(several.model, action)).filter((c) => c !== 'deprecated-field'), [], action.title);
  });

  it('offers nothing for a problem without fixes, nor in a file that is not a ruleset', () => {
    assert.deepEqual(actionsAt('json', 'ip.src == |').actions, []);
    const text = '{"rules": [{"action": "block", "expression": "ip.src.country == \\"br\\""}]}';
    const model = modelOf(text, 'json', 'file:///work/package.json');
    assert.deepEqual(codeActions(model, { start: { line: 0, character: 0 }, end: { line: 0, character: text.length } }, NO_DIAGNOSTICS, settings()), []);
  });

  it('honours `only`', () => {
    const { model, offset } = at('json', 'ip.src.country  ==  "b|r"');
    const range = cursorRange(model, offset);
    const kinds = (only?: string[]) => codeActions(model, range, { diagnostics: [], only }, settings()).map((a) => a.kind);
    // A lowercase code parses without errors, so formatting is offered too.
    assert.deepEqual(kinds(), ['quickfix', 'refactor.rewrite']);
    assert.deepEqual(kinds(['quickfix']), ['quickfix']);
    assert.deepEqual(kinds(['refactor']), ['refactor.rewrite']);
    assert.deepEqual(kinds(['refactor.rewrite']), ['refactor.rewrite']);
    assert.deepEqual(kinds(['source']), []);
  });
});

describe('quick fixes: Silence `code` on this line (YAML)', () => {
  const YAML_HOSTS = HOSTS.filter((h) => h !== 'json');

  for (const host of YAML_HOSTS) {
    it(`comes after the fix of a warning, not preferred, and leaves the warning silenced (${host})`, () => {
      const { model, actions } = actionsAt(host, 'ip.src.country == "b|r"');
      assert.deepEqual(actions.map((a) => a.title), ['Change to ‘"BR"’ (Brazil)', 'Silence ‘country-code-case’ on this line']);
      const silence = actions[1];
      assert.equal(silence.kind, 'quickfix');
      assert.equal(silence.isPreferred, undefined);
      assert.equal(silence.diagnostics?.[0].code, 'country-code-case');
      const silenced = apply(model, silence);
      assert.deepEqual(problemCodes(silenced), [], silenced.text);
      assert.equal(expressionText(silenced), 'ip.src.country == "br"');
      // Above the line where the expression starts, indented like it: in a `|` or `>` block
      // the line of the finding is the block's text.
      assert.match(silenced.text, /\n {4}# rulesets-disable-next-line country-code-case\n {4}expression: /);
    });
  }

  it('is offered with the diagnostics VS Code sends, for a finding without a fix too', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.proto == "tcp"\n  - action: block\n    expression: tcp.dstport == 23\n';
    const model = modelOf(text, 'yaml');
    const offset = text.indexOf('tcp.dstport');
    const actions = actionsWithDiagnostics(model, cursorRange(model, offset));
    assert.deepEqual(actions.map((a) => a.title), ['Silence ‘shadowed-rule’ on this line']);
    const silenced = apply(model, actions[0]);
    assert.equal(silenced.text, text.replace('    expression: tcp.dstport', '    # rulesets-disable-next-line shadowed-rule\n    expression: tcp.dstport'));
    assert.deepEqual(problemCodes(silenced), []);
  });

  it('is not offered in JSON, which has no comments, nor for an error the service would reject', () => {
    assert.deepEqual(actionsAt('json', 'ip.src.country == "b|r"').actions.map((a) => a.title), ['Change to ‘"BR"’ (Brazil)']);
    assert.deepEqual(actionsAt('yaml-plain', 'ip.sc|r == 192.0.2.1').actions.map((a) => a.title), ['Change to ‘ip.src’']);
  });

  it('is not offered for a directive that silences nothing, whose fix removes it', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  # rulesets-disable-next-line shadowed-rule\n  - action: block\n    expression: tcp.dstport == 23\n';
    const model = modelOf(text, 'yaml');
    const actions = codeActions(model, cursorRange(model, text.indexOf('shadowed-rule')), NO_DIAGNOSTICS, settings());
    assert.deepEqual(actions.map((a) => a.title), ['Remove the directive']);
    assert.equal(apply(model, actions[0]).text, text.replace('  # rulesets-disable-next-line shadowed-rule\n', ''));
  });
});

describe('quick fixes: a skip rule without action_parameters', () => {
  const DOCUMENTS: readonly { name: string; format: 'json' | 'yaml'; text: string }[] = [
    {
      name: 'JSON',
      format: 'json',
      text: '{\n  "name": "x",\n  "kind": "root",\n  "phase": "magic_transit",\n  "rules": [\n    {\n      "action": "skip",\n      "expression": "tcp.dstport in {22}"\n    }\n  ]\n}\n',
    },
    {
      name: 'YAML block mapping',
      format: 'yaml',
      text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: skip\n    expression: tcp.dstport in {22}\n',
    },
    {
      name: 'YAML flow mapping',
      format: 'yaml',
      text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - {action: skip, expression: "tcp.dstport in {22}"}\n',
    },
  ];
  for (const document of DOCUMENTS) {
    it(`adds {"ruleset": "current"} (${document.name})`, () => {
      const model = modelOf(document.text, document.format);
      assert.deepEqual(problemCodes(model), ['missing-action-parameters']);
      const offset = document.text.indexOf('skip') + 2;
      const actions = codeActions(model, cursorRange(model, offset), NO_DIAGNOSTICS, settings());
      assert.deepEqual(actions.map((a) => a.title), ['Add ‘action_parameters: {"ruleset": "current"}’']);
      assert.equal(actions[0].isPreferred, true);
      const fixed = apply(model, actions[0]);
      assert.deepEqual(problemCodes(fixed), [], fixed.text);
      assert.equal(expressionText(fixed), 'tcp.dstport in {22}');
      assert.equal(actionsWithDiagnostics(fixed, cursorRange(fixed, offset)).length, 0);
    });
  }
});

describe('quick fixes: in a YAML flow mapping', () => {
  it('a fix that brings `{…}` into a plain scalar rewrites it double-quoted', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - {action: block, expression: ip.src in 10.0.0.0/8}\n';
    const model = modelOf(text, 'yaml');
    const actions = codeActions(model, cursorRange(model, text.indexOf('/8')), NO_DIAGNOSTICS, settings());
    const fixed = apply(model, titled(actions, 'Wrap in a set: ‘{10.0.0.0/8}’'));
    assert.equal(fixed.text, text.replace('ip.src in 10.0.0.0/8', '"ip.src in {10.0.0.0/8}"'));
    assert.deepEqual(problemCodes(fixed), []);
  });

  it('formats a plain scalar in a flow mapping in place', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - {action: block, expression: ip.src==192.0.2.1  and   sip}\n';
    const model = modelOf(text, 'yaml');
    const actions = codeActions(model, cursorRange(model, text.indexOf('sip')), NO_DIAGNOSTICS, settings());
    const formatted = apply(model, titled(actions, FORMAT_EXPRESSION_TITLE));
    assert.equal(formatted.text, text.replace('ip.src==192.0.2.1  and   sip', 'ip.src == 192.0.2.1 and sip'));
  });
});

describe('quick fixes: fix all in this file', () => {
  const TEXT = [
    'name: x',
    'kind: root',
    'phase: magic_transit',
    'rules:',
    '  - action: block',
    '    expression: "tcp.dstport in {22, 80,443}"',
    '  - action: block',
    "    expression: 'udp.dstport in {53,\t5353}'",
    '  - action: skip',
    '    expression: ip.src.country == "br"',
    '  - action: skip',
    '    action_parameters: {ruleset: current}',
    '    expression: ip.src.country == "de"',
    '',
  ].join('\n');

  it('fixes every comma in every rule at once, in JSON-escaped and YAML strings', () => {
    const model = modelOf(TEXT, 'yaml');
    const offset = TEXT.indexOf('22,') + 2;
    const actions = actionsWithDiagnostics(model, cursorRange(model, offset));
    assert.deepEqual(actions.map((a) => a.title), ['Separate set items with spaces', 'Fix all 3 comma-in-set problems in this file']);
    const all = actions[1];
    assert.equal(all.kind, 'quickfix');
    assert.equal(all.isPreferred, undefined);
    assert.deepEqual(all.diagnostics!.map((d) => d.code), ['comma-in-set', 'comma-in-set', 'comma-in-set']);
    const fixed = apply(model, all);
    assert.equal(expressionText(fixed, 0), 'tcp.dstport in {22 80 443}');
    assert.equal(expressionText(fixed, 1), 'udp.dstport in {53\t5353}');
    // The last rule skips the rest of the ruleset, of which there is none (skip-skips-nothing).
    assert.deepEqual(problemCodes(fixed), ['tab-whitespace', 'missing-action-parameters', 'country-code-case', 'skip-skips-nothing', 'country-code-case']);
  });

  it('fixes every lowercase country code at once', () => {
    const model = modelOf(TEXT, 'yaml');
    const offset = TEXT.indexOf('"br"') + 1;
    const actions = codeActions(model, cursorRange(model, offset), NO_DIAGNOSTICS, settings());
    const fixed = apply(model, titled(actions, 'Fix all 2 country-code-case problems in this file'));
    assert.equal(expressionText(fixed, 2), 'ip.src.country == "BR"');
    assert.equal(expressionText(fixed, 3), 'ip.src.country == "DE"');
  });

  it('is not offered for a single problem, nor for problems whose fix is a choice', () => {
    const single = actionsAt('json', 'ip.src.country == "b|r"').actions;
    assert.ok(!single.some((a) => a.title.startsWith('Fix all')));
    const text = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\n  {"action": "block", "expression": "ip.country == \\"BR\\""},\n  {"action": "block", "expression": "ip.country == \\"DE\\""}\n]}';
    const model = modelOf(text, 'json');
    const actions = codeActions(model, cursorRange(model, text.indexOf('country') + 1), NO_DIAGNOSTICS, settings());
    assert.ok(actions.length > 1);
    assert.ok(!actions.some((a) => a.title.startsWith('Fix all')), JSON.stringify(actions.map((a) => a.title)));
  });

  it('fixes adjacent TABs and every skip rule without parameters', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: skip\n    expression: "tcp.flags.ack\\t\\tand\\ttcp.flags.syn"\n  - action: skip\n    expression: sip\n';
    const model = modelOf(text, 'yaml');
    const tabs = codeActions(model, cursorRange(model, text.indexOf('\\t')), NO_DIAGNOSTICS, settings());
    const fixedTabs = apply(model, titled(tabs, 'Fix all 3 tab-whitespace problems in this file'));
    assert.equal(expressionText(fixedTabs), 'tcp.flags.ack  and tcp.flags.syn');
    const skips = codeActions(fixedTabs, cursorRange(fixedTabs, fixedTabs.text.indexOf('skip')), NO_DIAGNOSTICS, settings());
    const fixed = apply(fixedTabs, titled(skips, 'Fix all 2 missing-action-parameters problems in this file'));
    // Only the order is left: the last rule is a skip with nothing after it to skip.
    assert.deepEqual(problemCodes(fixed), ['skip-skips-nothing'], fixed.text);
  });
});

describe('format expression', () => {
  const SOURCE = 'ip.src.country  in{"BR"   "GB"}&&(  tcp.dstport==0x1F or not  sip )';
  const CANONICAL = 'ip.src.country in {"BR" "GB"} && (tcp.dstport == 0x1F or not sip)';

  for (const host of HOSTS) {
    it(`rewrites the expression under the cursor in canonical spacing (${host})`, () => {
      const { model, actions } = actionsAt(host, SOURCE.replace('0x1F', '0x|1F'));
      const action = titled(actions, FORMAT_EXPRESSION_TITLE);
      assert.equal(action.kind, 'refactor.rewrite');
      assert.equal(action.diagnostics, undefined);
      assert.equal(editsOf(model, action).length, 1);
      const formatted = apply(model, action);
      assert.equal(expressionText(formatted), CANONICAL);
      assert.deepEqual(problemCodes(formatted), []);
      // Done once, it is not offered again.
      const cursor = formatted.text.indexOf('0x1F');
      const again = codeActions(formatted, cursorRange(formatted, cursor), NO_DIAGNOSTICS, settings());
      assert.deepEqual(again, []);
    });
  }

  it('writes the quotes of the formatted text as the host string needs them', () => {
    const { model, actions } = actionsAt('json', 'ip.src.country=="B|R"');
    const [edit] = editsOf(model, titled(actions, FORMAT_EXPRESSION_TITLE));
    assert.equal(edit.newText, 'ip.src.country == \\"BR\\"');
    const single = actionsAt('yaml-single', "cf.colo.name==r\"it's|\"");
    const [singleEdit] = editsOf(single.model, titled(single.actions, FORMAT_EXPRESSION_TITLE));
    assert.equal(singleEdit.newText, "cf.colo.name == r\"it''s\"");
    assert.equal(expressionText(apply(single.model, titled(single.actions, FORMAT_EXPRESSION_TITLE))), "cf.colo.name == r\"it's\"");
  });

  it('is offered with the cursor just inside either quote', () => {
    for (const marked of ['|tcp.flags.ack  and tcp.flags.syn', 'tcp.flags.ack  and tcp.flags.syn|']) {
      for (const host of HOSTS) {
        const { actions } = actionsAt(host, marked);
        assert.deepEqual(actions.map((a) => a.title), [FORMAT_EXPRESSION_TITLE], `${host} ${marked}`);
      }
    }
  });

  it('is not offered for a canonical expression, one with a syntax error, or outside expressions', () => {
    for (const host of HOSTS) {
      assert.deepEqual(actionsAt(host, 'tcp.flags.ack and |tcp.flags.syn').actions, [], host);
      assert.deepEqual(actionsAt(host, 'tcp.flags.ack  and  |').actions, [], host);
    }
    const { model } = at('json', 'tcp.flags.ack  and  tcp.flags.syn|');
    const start = { line: 1, character: 2 };
    assert.deepEqual(codeActions(model, { start, end: start }, NO_DIAGNOSTICS, settings()), []);
  });

  it('is offered for an expression with a comma-free semantic problem, and keeps the problem', () => {
    const { model, actions } = actionsAt('yaml-double', 'ip.scr==192.0.2.|1');
    const formatted = apply(model, titled(actions, FORMAT_EXPRESSION_TITLE));
    assert.equal(expressionText(formatted), 'ip.scr == 192.0.2.1');
    assert.deepEqual(problemCodes(formatted), ['unknown-field']);
  });

  it('drops whitespace around the expression inside a quoted string, and joins lines', () => {
    const cases: readonly { text: string; format: 'json' | 'yaml' }[] = [
      { format: 'json', text: '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": "  tcp.flags.ack\\n and  tcp.flags.syn \\r\\n"}]}' },
      { format: 'yaml', text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: " tcp.flags.ack\n      and\n\n      tcp.flags.syn  "\n' },
      { format: 'yaml', text: "name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: 'tcp.flags.ack  and\n      tcp.flags.syn '\n" },
      { format: 'yaml', text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.flags.ack\n      and   tcp.flags.syn\n' },
      { format: 'yaml', text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: |\n      tcp.flags.ack\n        and tcp.flags.syn\n    description: keeps the final line break\n' },
      { format: 'yaml', text: 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: >\n      tcp.flags.ack   and\n      tcp.flags.syn\n' },
    ];
    for (const { text, format } of cases) {
      const model = modelOf(text, format);
      const offset = text.indexOf('tcp.flags.ack') + 1;
      const actions = codeActions(model, cursorRange(model, offset), NO_DIAGNOSTICS, settings());
      const formatted = apply(model, titled(actions, FORMAT_EXPRESSION_TITLE));
      assert.equal(expressionText(formatted).trim(), 'tcp.flags.ack and tcp.flags.syn', formatted.text);
      assert.deepEqual(problemCodes(formatted), [], formatted.text);
      if (text.includes('"  tcp.flags.ack') || text.includes('" tcp.flags.ack') || text.includes("'tcp.flags.ack")) assert.equal(expressionText(formatted), 'tcp.flags.ack and tcp.flags.syn');
      if (text.includes('description')) {
        assert.equal(expressionText(formatted), 'tcp.flags.ack and tcp.flags.syn\n');
        assert.equal(formatted.ruleset.rules.length, 1);
      }
    }
  });

  it('formats in a file with several rules only the rule under the cursor', () => {
    const text = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.flags.ack  and  tcp.flags.syn\n  - action: block\n    expression: ip.ttl<5\n';
    const model = modelOf(text, 'yaml');
    const formatted = apply(model, titled(codeActions(model, cursorRange(model, text.indexOf('ip.ttl')), NO_DIAGNOSTICS, settings()), FORMAT_EXPRESSION_TITLE));
    assert.equal(expressionText(formatted, 0), 'tcp.flags.ack  and  tcp.flags.syn');
    assert.equal(expressionText(formatted, 1), 'ip.ttl < 5');
  });
});
