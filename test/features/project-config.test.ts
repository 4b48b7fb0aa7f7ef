/**
 * `.rulesets.yaml` in the editor: its mistakes as the Problems panel shows them, completion
 * where the cursor `|` is, hovers, quick fixes; and the settings a ruleset file of the folder
 * is then checked with.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity, type CompletionItem } from 'vscode-languageserver';
import { diagnostics } from '../../server/src/features/diagnostics';
import { isProjectConfigDocument, projectConfigCodeActions, projectConfigCompletion, projectConfigDiagnostics, projectConfigHover } from '../../server/src/features/project-config';
import { folderOf, projectConfigOf, settingsForDocument } from '../../server/src/server/project-configuration';
import { KNOWN_PHASES } from '../../server/src/language/catalogue/phases';
import { applyEdits, modelOf, settings, takeCursor, textOf } from './harness';

const CONFIG_URI = 'file:///work/repo/.rulesets.yaml';

function configModel(text: string) {
  return modelOf(text, 'yaml', CONFIG_URI);
}

function itemsAt(marked: string): CompletionItem[] {
  const { text, offset } = takeCursor(marked);
  const model = configModel(text);
  return projectConfigCompletion(model, model.positionAt(offset)).items;
}

function labels(items: readonly CompletionItem[]): string[] {
  return items.map((i) => i.label);
}

/** The text after choosing the item (its snippet's tab stops left empty). */
function chosen(marked: string, label: string): string {
  const { text } = takeCursor(marked);
  const item = itemsAt(marked).find((i) => i.label === label);
  assert.ok(item?.textEdit && 'range' in item.textEdit, `an item ${label} with a text edit`);
  return applyEdits(text, [{ ...item.textEdit, newText: item.textEdit.newText.replace(/\$\d/g, '') }]);
}

describe('.rulesets.yaml diagnostics', () => {
  it('shows each mistake on its text, as plain text, with its severity', () => {
    const text = 'phase: magic_transitt\nrulse:\n  always-true: off\nlists: [Office-Networks]\n';
    const model = configModel(text);
    const found = projectConfigDiagnostics(model);
    assert.deepEqual(
      found.map((d) => [d.code, d.severity, textOf(text, d.range), d.source]),
      [
        ['unknown-phase', DiagnosticSeverity.Error, 'magic_transitt', 'rulesets'],
        ['unknown-key', DiagnosticSeverity.Error, 'rulse', 'rulesets'],
        ['invalid-list-name', DiagnosticSeverity.Error, 'Office-Networks', 'rulesets'],
      ],
    );
    assert.equal(found[1].message, 'unknown key ‘rulse’ in ‘.rulesets.yaml’; did you mean ‘rules’?');
  });

  it('says that an error cannot be turned off, on the severity', () => {
    const text = 'rules:\n  unknown-field: off\n';
    const [found] = projectConfigDiagnostics(configModel(text));
    assert.equal(found.code, 'error-not-configurable');
    assert.equal(textOf(text, found.range), 'off');
    assert.match(found.message, /stays an error/);
  });

  it('has nothing to say about a correct file', () => {
    assert.deepEqual(projectConfigDiagnostics(configModel('phase: magic_transit\nrules:\n  shadowed-rule: error\n')), []);
  });

  it('offers the fix of a misspelt code', () => {
    const text = 'rules:\n  shadowed-rules: off\n';
    const model = configModel(text);
    const [action] = projectConfigCodeActions(model, model.range(12, 12));
    assert.equal(action.title, 'Change to ‘shadowed-rule’');
    assert.equal(action.isPreferred, true);
    assert.equal(applyEdits(text, action.edit!.changes![CONFIG_URI]), 'rules:\n  shadowed-rule: off\n');
  });

  it('knows the file by its name', () => {
    assert.ok(isProjectConfigDocument(CONFIG_URI));
    assert.ok(!isProjectConfigDocument('file:///work/repo/firewall.ruleset.yaml'));
  });
});

describe('.rulesets.yaml completion', () => {
  it('offers the keys at the top, without those already set', () => {
    assert.deepEqual(labels(itemsAt('|')), ['phase', 'plan', 'addons', 'lists', 'files', 'rules', 'terraform', 'targets', 'apply']);
    assert.deepEqual(labels(itemsAt('phase: magic_transit\nru|')), ['plan', 'addons', 'lists', 'files', 'rules', 'terraform', 'targets', 'apply']);
  });

  it('writes the key with the start of its value', () => {
    assert.equal(chosen('phase: magic_transit\nru|', 'rules'), 'phase: magic_transit\nrules:\n  ');
    assert.equal(chosen('li|', 'lists'), 'lists: []');
  });

  it('describes each key', () => {
    const phase = itemsAt('|').find((i) => i.label === 'phase')!;
    assert.match(JSON.stringify(phase.documentation), /phase of a ruleset file that names none/);
  });

  it('offers the phases after `phase:`', () => {
    assert.deepEqual(labels(itemsAt('phase: |')), [...KNOWN_PHASES]);
    assert.equal(chosen('phase: magic_tr|', 'magic_transit'), 'phase: magic_transit');
  });

  it('offers the plans after `plan:`, from the least', () => {
    assert.deepEqual(labels(itemsAt('plan: |')), ['free', 'pro', 'business', 'enterprise']);
    assert.equal(chosen('plan: bus|', 'business'), 'plan: business');
  });

  it('offers the add-ons in `addons`, in a flow list and in a block list', () => {
    assert.deepEqual(labels(itemsAt('addons: [|]')), ['bot_management', 'advanced_rate_limiting']);
    assert.deepEqual(labels(itemsAt('addons: [bot_management, adv|]')), ['bot_management', 'advanced_rate_limiting']);
    assert.equal(chosen('addons: [bot_management, adv|]', 'advanced_rate_limiting'), 'addons: [bot_management, advanced_rate_limiting]');
    assert.deepEqual(labels(itemsAt('plan: enterprise\naddons:\n  - |')), ['bot_management', 'advanced_rate_limiting']);
    assert.equal(itemsAt('addons: [|]').find((i) => i.label === 'bot_management')!.detail, 'Bot Management');
    assert.equal(chosen('ad|', 'addons'), 'addons: []');
  });

  it('offers the codes that can be changed under `rules`, with what each means', () => {
    const items = itemsAt('rules:\n  always-true: off\n  |');
    const codes = labels(items);
    assert.ok(codes.includes('shadowed-rule') && codes.includes('country-code-case'));
    assert.ok(!codes.includes('always-true'), 'a code already set is not offered again');
    assert.ok(!codes.includes('syntax-error'), 'an error cannot be changed, so it is not offered');
    assert.equal(items.find((i) => i.label === 'shadowed-rule')!.detail, 'Every packet a rule matches is decided by an earlier rule.');
    assert.equal(chosen('rules:\n  shad|', 'shadowed-rule'), 'rules:\n  shadowed-rule: ');
  });

  it('offers the severities after a code', () => {
    assert.deepEqual(labels(itemsAt('rules:\n  shadowed-rule: |')), ['off', 'error', 'warning', 'information']);
    assert.equal(chosen('rules:\n  shadowed-rule: of|\nphase: magic_transit\n', 'off'), 'rules:\n  shadowed-rule: off\nphase: magic_transit\n');
  });

  it('offers only `error` after an error code', () => {
    assert.deepEqual(labels(itemsAt('rules:\n  unknown-field: |')), ['error']);
  });

  it('offers nothing inside the lists, which only the account knows', () => {
    assert.deepEqual(itemsAt('lists:\n  - |'), []);
    assert.deepEqual(itemsAt('lists: [|]'), []);
  });

  it("offers a target's keys in an item of `targets`, and the plans and add-ons in it", () => {
    const keys = ['files', 'zone', 'account', 'plan', 'addons'];
    assert.deepEqual(labels(itemsAt('targets:\n  - |')), keys);
    assert.deepEqual(labels(itemsAt('targets:\n  - files: a/*.json\n    |')), keys);
    assert.deepEqual(labels(itemsAt('targets:\n  - files: a/*.json\n    zone: example.com\n    |')), keys, 'under a key of the item as well as under its dash');
    assert.equal(chosen('targets:\n  - files: a/*.json\n    zo|', 'zone'), 'targets:\n  - files: a/*.json\n    zone: ');
    assert.deepEqual(labels(itemsAt('targets:\n  - files: a/*.json\n    plan: |')), ['free', 'pro', 'business', 'enterprise']);
    assert.deepEqual(labels(itemsAt('targets:\n  - plan: |')), ['free', 'pro', 'business', 'enterprise']);
    assert.deepEqual(labels(itemsAt('targets:\n  - files: a/*.json\n    addons: [|]')), ['bot_management', 'advanced_rate_limiting']);
    assert.deepEqual(labels(itemsAt('targets:\n  - files: a/*.json\n    addons:\n      - |')), ['bot_management', 'advanced_rate_limiting']);
    assert.deepEqual(itemsAt('terraform:\n  var_files:\n    plan: |'), [], 'a `plan:` elsewhere than in a target is not one');
    assert.equal(chosen('tar|', 'targets'), 'targets:\n  - files: \n    zone: ');
  });

  it('offers nothing under a key that is not `rules`', () => {
    assert.deepEqual(itemsAt('files:\n  |'), []);
  });
});

describe('.rulesets.yaml hover', () => {
  it('says what a key means', () => {
    const text = 'lists: [office]\n';
    const model = configModel(text);
    const hover = projectConfigHover(model, model.positionAt(2));
    assert.match(JSON.stringify(hover?.contents), /account's list names/);
    assert.equal(textOf(text, hover!.range!), 'lists');
  });

  it("says what a target's key means", () => {
    const text = 'targets:\n  - files: a/*.json\n    zone: example.com\n';
    const model = configModel(text);
    const hover = projectConfigHover(model, model.positionAt(text.indexOf('zone')));
    assert.match(JSON.stringify(hover?.contents), /The zone these files go to: its name/);
    assert.equal(textOf(text, hover!.range!), 'zone');
    assert.match(JSON.stringify(projectConfigHover(model, model.positionAt(1))?.contents), /Where the ruleset files go/);
  });

  it('says what a code means and whether it can be changed', () => {
    const text = 'rules:\n  empty-set: error\n  syntax-error: error\n';
    const model = configModel(text);
    assert.match(JSON.stringify(projectConfigHover(model, model.positionAt(12))?.contents), /never matches.*can be set to/);
    assert.match(JSON.stringify(projectConfigHover(model, model.positionAt(text.indexOf('syntax')))?.contents), /cannot be turned off/);
  });

  it('says of a lint off by default that a severity turns it on', () => {
    const text = 'rules:\n  expression-builder: information\n';
    const model = configModel(text);
    assert.match(JSON.stringify(projectConfigHover(model, model.positionAt(12))?.contents), /Expression Builder.*Off unless set here/);
  });
});

describe('the settings of a ruleset file under a .rulesets.yaml', () => {
  const RULESET = 'name: x\nkind: root\nrules:\n  - action: block\n    expression: ip.src.country == "br" or ip.src in $offices\n';
  const RULESET_URI = 'file:///work/repo/firewall/edge.ruleset.yaml';

  it('finds the innermost workspace folder of a document', () => {
    const folders = ['file:///work/repo', 'file:///work/repo/nested', 'file:///work/repository'];
    assert.equal(folderOf('file:///work/repo/nested/a.yaml', folders), 'file:///work/repo/nested');
    assert.equal(folderOf('file:///work/repository/a.yaml', folders), 'file:///work/repository');
    assert.equal(folderOf('file:///elsewhere/a.yaml', folders), undefined);
  });

  it('takes the phase, the lists and the severities from the file, over the user\'s settings', () => {
    const user = settings({ defaultPhase: 'http_request_firewall_custom', knownLists: ['mine'] });
    const configs = new Map([['file:///work/repo', projectConfigOf('phase: magic_transit\nlists: [office]\nrules:\n  country-code-case: error\n')]]);
    const model = modelOf(RULESET, 'yaml', RULESET_URI);
    const shown = (s: typeof user) => diagnostics(model, s).map((d) => [d.code, d.severity, d.message.replace(/;.*/, '')]);
    assert.deepEqual(shown(settingsForDocument(RULESET_URI, user, configs)), [
      ['country-code-case', DiagnosticSeverity.Error, 'country codes are uppercase: ‘"br"’ never matches'],
      ['unknown-list', DiagnosticSeverity.Warning, 'the account has no list named ‘$offices’'],
    ]);
    // Without the file, the user's settings: another phase and another list.
    assert.deepEqual(
      shown(settingsForDocument(RULESET_URI, user, new Map())).map(([code, severity]) => [code, severity]),
      [
        ['country-code-case', DiagnosticSeverity.Warning],
        ['unknown-list', DiagnosticSeverity.Warning],
      ],
    );
  });

  it('takes the nearest file: the innermost folder that has one, whole', () => {
    const user = settings({ defaultPhase: 'magic_transit' });
    const configs = new Map([
      ['file:///work/repo', projectConfigOf('rules:\n  country-code-case: error\n')],
      ['file:///work/repo/firewall', projectConfigOf('plan: free\n')],
      // Folders read on the way that have none.
      ['file:///work/repo/firewall/deep', undefined],
      ['file:///work/repo/other', undefined],
    ]);
    const codes = (uri: string) => diagnostics(modelOf(RULESET, 'yaml', uri), settingsForDocument(uri, user, configs)).map((d) => [d.code, d.severity]);
    // The inner file turns nothing up: the outer one's `rules` do not reach its folder.
    for (const uri of [RULESET_URI, 'file:///work/repo/firewall/deep/edge.ruleset.yaml']) assert.deepEqual(codes(uri), [['country-code-case', DiagnosticSeverity.Warning]], uri);
    for (const uri of ['file:///work/repo/edge.ruleset.yaml', 'file:///work/repo/other/edge.ruleset.yaml']) assert.deepEqual(codes(uri), [['country-code-case', DiagnosticSeverity.Error]], uri);
  });

  it("checks a target's files with the target's plan and add-ons, the others with the file's", () => {
    const configs = new Map([['file:///work/repo', projectConfigOf('plan: enterprise\naddons: [bot_management]\ntargets:\n  - files: firewall/*.yaml\n    zone: example.com\n    plan: free\n')]]);
    const inTarget = settingsForDocument(RULESET_URI, settings(), configs);
    assert.equal(inTarget.plan, 'free');
    assert.deepEqual(inTarget.addons, ['bot_management'], 'a target without `addons` keeps the top-level ones');
    const outside = settingsForDocument('file:///work/repo/other/edge.ruleset.yaml', settings(), configs);
    assert.equal(outside.plan, 'enterprise');
    // What the plan decides shows in the findings: `matches` needs Business.
    const regex = 'name: x\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.host matches "^a"\n';
    const codes = (uri: string) => diagnostics(modelOf(regex, 'yaml', uri), settingsForDocument(uri, settings(), configs)).map((d) => d.code);
    assert.ok(codes(RULESET_URI).includes('plan-required'), JSON.stringify(codes(RULESET_URI)));
    assert.ok(!codes('file:///work/repo/other/edge.ruleset.yaml').includes('plan-required'));
  });

  it('keeps the user\'s settings for the keys the file does not set', () => {
    const user = settings({ defaultPhase: 'magic_transit', knownLists: ['offices'] });
    const configs = new Map([['file:///work/repo', projectConfigOf('rules:\n  country-code-case: off\n')]]);
    assert.deepEqual(diagnostics(modelOf(RULESET, 'yaml', RULESET_URI), settingsForDocument(RULESET_URI, user, configs)), []);
  });

  it('reads the file\'s patterns from the file\'s folder', () => {
    const configs = new Map([['file:///work/repo', projectConfigOf('files: ["firewall/*.yaml"]\n')]]);
    const model = modelOf('rules:\n  - action: block\n    expression: ip.src in {10.0.0.1/8}\n', 'yaml', 'file:///work/repo/firewall/edge.yaml');
    assert.equal(model.rulesetBy(settingsForDocument(model.uri, settings(), configs)), 'pattern');
    const elsewhere = modelOf(model.text, 'yaml', 'file:///work/other/firewall/edge.yaml');
    assert.equal(elsewhere.rulesetBy(settingsForDocument(elsewhere.uri, settings(), configs)), undefined);
  });
});
