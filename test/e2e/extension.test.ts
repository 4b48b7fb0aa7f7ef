/**
 * The extension as a person meets it: the .vsix that `npm run package` builds, installed in a
 * real VS Code (code-server) in Chromium, driven with the keyboard and the mouse. What is
 * asserted is what is on screen; each step leaves a screenshot in test-artifacts/e2e/extension/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { toPositions } from '../../server/src/documents/positions';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { plainText } from '../../server/src/language/problem';
import { filesOf, makeWorkspace, startWorkbench, type Problem, type Workbench } from './workbench';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const MISTAKES = 'mistakes.ruleset.yaml';
const BROKEN_JSON = '{\n  "name": "edge",\n  "kind": "root",\n  "phase": "magic_transit",\n  "rules": [\n    {"action": "block", "expression": "ip.src.country in {\\"BR\\" \\"CU\\"}"}\n    {"action": "block", "expression": "tcp.dstport == 23"}\n  ]\n}\n';

/**
 * A WAF custom ruleset (an HTTP phase) with the mistakes a new user makes: a misspelt field
 * (`http.hots`) and a misspelt function (`lowr`).
 */
const WAF = 'waf.ruleset.yaml';
const WAF_TEXT = [
  'name: WAF custom rules',
  'kind: zone',
  'phase: http_request_firewall_custom',
  'rules:',
  '  - action: block',
  '    expression: http.hots eq "example.com" and lowr(http.request.uri.path) contains "/admin"',
  '    description: A misspelt field and a misspelt function',
  '  - action: block',
  '    expression: http.request.method == "POST" and starts_with(http.request.uri.path, "/login")',
  '    description: Logins',
  '',
].join('\n');

/** Files no test opens: only "Rulesets: Check Workspace" lists their problems (one is a ruleset by its content; one is a dependency's). */
const NEVER_OPENED: Record<string, string> = {
  'firewall/edge.ruleset.yaml': 'name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 22\n',
  'firewall/office.yaml': 'name: office\nkind: custom\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in {10.0.0.1/8}\n',
  'node_modules/some-package/fixture.ruleset.yaml': 'name: fixture\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 1\n',
};

/** What `rulesets check` finds in a file, as the Problems panel shows it (1-based). */
function expectedProblems(file: string, text: string): Problem[] {
  const severity = { error: 'error', warning: 'warning', information: 'info', hint: 'info' } as const;
  return toPositions(text, checkRuleset(text, 'yaml')).map((p) => ({
    file,
    line: p.range.start.line + 1,
    column: p.range.start.character + 1,
    severity: severity[p.severity],
    // Plain text, code quoted ‘…’: the panel shows no Markdown.
    message: plainText(p.message),
    source: 'rulesets',
    code: p.code,
  }));
}

const byPlace = (a: Problem, b: Problem) => a.line - b.line || a.column - b.column || a.message.localeCompare(b.message);

describe('the extension in a real VS Code (code-server)', () => {
  let workspace = '';
  let wb: Workbench | undefined;

  before(async () => {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'pipe' });
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const files = filesOf(EXAMPLES);
    workspace = makeWorkspace({ ...files, ...NEVER_OPENED, [WAF]: WAF_TEXT, 'broken.ruleset.json': BROKEN_JSON, 'notes.json': '{\n  "rules": "none yet",\n  "expression": "tcp.dstprt == 22"\n}\n' });
    wb = await startWorkbench({ workspace, vsix: join(ROOT, `${name}-${version}.vsix`), name: 'extension' });
  });

  after(async () => {
    await wb?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('lists the mistakes of the broken example in the Problems panel, where `rulesets check` finds them', async () => {
    const expected = expectedProblems(MISTAKES, readFileSync(join(EXAMPLES, MISTAKES), 'utf8')).sort(byPlace);
    assert.ok(expected.length >= 8, 'the example has its mistakes');
    await wb!.openFile(MISTAKES);
    const rows = await wb!.problems({ until: (all) => all.filter((row) => row.file === MISTAKES).length >= expected.length });
    await wb!.screenshot('1-problems');
    assert.deepEqual(rows.filter((row) => row.file === MISTAKES).sort(byPlace), expected);
  });

  it('shows $svc.anonymizer in the suggest widget after typing `ip.src in `', async () => {
    await wb!.openFile(MISTAKES);
    const text = await wb!.editorText();
    const line = text.split('\n').findIndex((l) => l.includes('expression: ip.src in 10.0.0.0/8')) + 1;
    assert.ok(line > 0);
    // Replace the expression's value with what the person types.
    await wb!.goTo(line, text.split('\n')[line - 1].indexOf('ip.src') + 1);
    await wb!.press('Shift+End');
    await wb!.type('ip.src in ');
    const items = await wb!.suggest({ until: (list) => list.some((item) => item.label === '$svc.anonymizer') });
    await wb!.screenshot('2-completion');
    assert.ok(items.some((item) => item.label === '$svc.anonymizer'));
    await wb!.closeWidgets();
    await wb!.runCommand('File: Revert File');
    await wb!.editorText({ until: (t) => t.includes('ip.src in 10.0.0.0/8') });
  });

  it('inside a JSON expression, offers only what the language allows: no guesses from the JSON support', async () => {
    await wb!.openFile('block-country.ruleset.json');
    const lines = (await wb!.editorText()).split('\n');
    const line = lines.findIndex((l) => l.includes('"expression": "ip.geoip.country')) + 1;
    await wb!.goTo(line, lines[line - 1].indexOf('ip.geoip') + 3);
    // Without the extension's schema association, VS Code offers the other rule's whole
    // expression here. Right after start-up it can still do so once: the JSON support applies
    // associations when its server has loaded them, so the list is asked again until it settles
    // (without the association it never does: this test then fails).
    const guess = (item: { label: string }) => item.label.startsWith('"');
    const items = await wb!.suggest({ until: (list) => list.some((item) => item.label === 'ip.src') && !list.some(guess) });
    await wb!.screenshot('3-completion-json');
    assert.deepEqual(items.filter(guess), []);
    assert.ok(items.every((item) => /^[a-z][a-z0-9_.]*$/.test(item.label)), `fields only: ${JSON.stringify(items.map((item) => item.label))}`);
    await wb!.closeWidgets();
  });

  it('shows Brazil when hovering "BR"', async () => {
    await wb!.openFile('broken.ruleset.json');
    const text = await wb!.hover(6, BROKEN_JSON.split('\n')[5].indexOf('BR') + 1, { until: (t) => t.includes('Brazil') });
    await wb!.screenshot('4-hover');
    assert.match(text, /Brazil/);
  });

  it('applies a quick fix: the text changes and the problem disappears', async () => {
    await wb!.openFile(MISTAKES);
    const lines = (await wb!.editorText()).split('\n');
    const line = lines.findIndex((l) => l.includes('tcp.dstprt')) + 1;
    await wb!.goTo(line, lines[line - 1].indexOf('tcp.dstprt') + 1);
    const titles = await wb!.quickFixes({ until: (list) => list.some((title) => title.includes('tcp.dstport')) });
    await wb!.screenshot('5-quick-fix-menu');
    const fix = titles.find((title) => title.includes('tcp.dstport'))!;
    await wb!.applyQuickFix(fix);
    const fixed = await wb!.editorText({ until: (t) => t.includes('expression: tcp.dstport == 22') });
    assert.ok(!fixed.includes('tcp.dstprt'));
    const rows = await wb!.problems({ until: (all) => all.some((row) => row.file === MISTAKES) && !all.some((row) => row.message.includes('tcp.dstprt')) });
    await wb!.screenshot('6-fixed');
    assert.ok(rows.some((row) => row.file === MISTAKES && row.code === 'comma-in-set'), 'the other problems stay');
    await wb!.runCommand('File: Revert File');
  });

  it('colours the expression inside the YAML string: TextMate scopes refined by semantic tokens', async () => {
    await wb!.openFile(MISTAKES);
    const lines = (await wb!.editorText()).split('\n');
    const line = lines.findIndex((l) => l.includes('tcp.flags.syn == true')) + 1;
    await wb!.goTo(line, lines[line - 1].indexOf('ip.src in $svc') + 2);
    await wb!.runCommand('Developer: Inspect Editor Tokens and Scopes');
    // Strings, not functions: tsx would rewrite a function passed into the page.
    await wb!.page.waitForFunction(`document.querySelector('.token-inspect-widget')?.textContent?.includes('textmate scopes')`, undefined, { timeout: 20_000 });
    const inspected = await wb!.page.locator('.token-inspect-widget').innerText();
    await wb!.screenshot('7-colours');
    await wb!.closeWidgets();
    assert.match(inspected, /textmate scopes\s+variable\.other\.field\.rulesets/);
    assert.match(inspected, /meta\.embedded\.expression\.rulesets\s+string\.unquoted\.plain\.out\.yaml/);
    assert.match(inspected, /semantic token type\s+property/);
    // The colours themselves: the field, the operator and the list are not coloured as the
    // plain YAML string they are in (the description value on the next line is one).
    const colours = (await wb!.page.evaluate(`(() => {
      const text = (el) => el.textContent.replace(/\\u00a0/g, ' ');
      const lines = [...document.querySelectorAll('.monaco-editor .view-line')];
      const colourOf = (lineText, token) => {
        const row = lines.find((el) => text(el).includes(lineText));
        const spans = row ? [...row.querySelectorAll('span > span')] : [];
        const span = spans.find((s) => text(s).trim().startsWith(token));
        if (!span) throw new Error('no token ' + token + ' on the line ' + lineText + ': ' + JSON.stringify(spans.map(text)));
        return getComputedStyle(span).color;
      };
      const line = 'tcp.flags.syn == true';
      return {
        string: colourOf('a Boolean field compared', 'a Boolean'),
        field: colourOf(line, 'tcp.flags.syn'),
        operator: colourOf(line, '=='),
        list: colourOf(line, '$svc.malwre'),
      };
    })()`)) as Record<string, string>;
    const described = JSON.stringify(colours);
    for (const part of ['field', 'operator', 'list']) assert.notEqual(colours[part], colours.string, `${part}: ${described}`);
    assert.notEqual(colours.field, colours.operator, described);
  });

  it('an HTTP ruleset: completes the phase\'s fields with their types, and its functions as snippets', async () => {
    await wb!.openFile(WAF);
    const lines = (await wb!.editorText()).split('\n');
    const line = lines.findIndex((l) => l.includes('http.request.method == "POST"')) + 1;
    await wb!.goTo(line, lines[line - 1].indexOf('http.request.method') + 1);
    await wb!.press('Shift+End');
    await wb!.type('http.request.');
    const fields = await wb!.suggest({ until: (list) => list.some((item) => item.label === 'http.request.method') && list.some((item) => item.label === 'http.request.headers') });
    // Ctrl+Space again opens the focused item's details (type, group, documentation) for the picture.
    await wb!.press('Control+Space');
    await wb!.page.waitForSelector('.suggest-details-container .docs', { timeout: 5_000 }).catch(() => undefined);
    await wb!.screenshot('17-http-completion');
    await wb!.press('Control+Space');
    assert.ok(!fields.some((item) => item.label.startsWith('tcp.')), `no packet field in an HTTP phase: ${JSON.stringify(fields.map((item) => item.label))}`);
    await wb!.acceptSuggestion('http.request.method');
    await wb!.type(' == "GET" and lo');
    await wb!.acceptSuggestion('lower');
    // The snippet: its parameter is a placeholder, typed over.
    await wb!.type('http.host');
    const text = await wb!.editorText({ until: (t) => t.includes('http.request.method == "GET" and lower(http.host)') });
    await wb!.screenshot('18-http-function-snippet');
    assert.ok(text.includes('expression: http.request.method == "GET" and lower(http.host)'), text.split('\n')[line - 1]);
    await wb!.closeWidgets();
    await wb!.runCommand('File: Revert File');
    await wb!.editorText({ until: (t) => t === WAF_TEXT });
  });

  it('an HTTP ruleset: hovers on a field and on a function say what they are', async () => {
    await wb!.openFile(WAF);
    const lines = WAF_TEXT.split('\n');
    const line = lines.findIndex((l) => l.includes('http.request.method == "POST"')) + 1;
    const field = await wb!.hover(line, lines[line - 1].indexOf('http.request.method') + 6, { until: (t) => t.includes('http.request.method') && t.includes('Group: Request') });
    await wb!.screenshot('19-http-hover-field');
    assert.match(field, /HTTP method of the request/);
    const fn = await wb!.hover(line, lines[line - 1].indexOf('starts_with') + 3, { until: (t) => t.includes('starts_with(source: String, prefix: String): Boolean') });
    await wb!.screenshot('20-http-hover-function');
    assert.match(fn, /Usable in filter and value expressions/);
    await wb!.closeWidgets();
  });

  it('an HTTP ruleset: the Problems panel shows what `rulesets check` finds in it', async () => {
    const expected = expectedProblems(WAF, WAF_TEXT).sort(byPlace);
    await wb!.openFile(WAF);
    const rows = await wb!.problems({ until: (all) => all.filter((row) => row.file === WAF).length >= expected.length && all.some((row) => row.file === MISTAKES) });
    await wb!.screenshot('21-http-problems');
    assert.deepEqual(rows.filter((row) => row.file === WAF).sort(byPlace), expected);
  });

  it('lists a JSON syntax error once (VS Code reports it), beside the ruleset checks', async () => {
    await wb!.openFile('broken.ruleset.json');
    const rows = await wb!.problems({ until: (all) => all.some((row) => row.file === 'broken.ruleset.json' && row.source === 'json') });
    await wb!.screenshot('8-json-syntax-once');
    const json = rows.filter((row) => row.file === 'broken.ruleset.json');
    const syntax = json.filter((row) => row.line === 7 && row.column === 5);
    assert.deepEqual(
      syntax.map((row) => `${row.source}: ${row.message}`),
      ['json: Expected comma'],
      'the missing comma is reported by VS Code alone',
    );
  });

  it('says in the language status whether the file is a ruleset, why, and how its check went', async () => {
    await wb!.openFile(MISTAKES);
    await wb!.problems({ until: (all) => all.some((row) => row.file === MISTAKES) });
    await wb!.page.locator('#status\\.languageStatus').hover();
    const hover = wb!.page.locator('.monaco-hover:not(.hidden)').filter({ hasText: 'Ruleset' });
    await hover.first().waitFor({ timeout: 20_000 });
    const text = await hover.first().innerText();
    await wb!.screenshot('10-language-status');
    assert.match(text, /Ruleset: 5 errors, 5 warnings/);
    assert.match(text, /a ruleset by its file name; phase magic_transit/);
    await wb!.closeWidgets();
  });

  it('shows in Running Extensions with its activation time (measured, reported, not asserted)', async (t) => {
    await wb!.runCommand('Developer: Show Running Extensions');
    const rows = wb!.page.locator('.runtime-extensions-editor .monaco-list-row');
    await rows.filter({ hasText: 'Rulesets' }).first().waitFor({ timeout: 20_000 });
    const ours = (await rows.allInnerTexts()).find((row) => row.startsWith('Rulesets'))!;
    await wb!.screenshot('11-running-extensions');
    const activation = /Activation: (\d+)ms/.exec(ours);
    assert.ok(activation, `the row says how long activation took: ${JSON.stringify(ours)}`);
    t.diagnostic(`extension activation: ${activation[1]} ms (${/Startup/.test(ours) ? 'at start-up, by workspaceContains' : 'on demand'})`);
    await wb!.runCommand('View: Close Editor');
  });

  it('leaves a JSON file that is not a ruleset alone', async () => {
    await wb!.openFile('notes.json');
    const rows = await wb!.problems();
    await wb!.screenshot('9-not-a-ruleset');
    assert.deepEqual(rows.filter((row) => row.file === 'notes.json'), []);
  });

  it('shows a problem\'s message once in the hover: VS Code\'s marker, then what the field is', async () => {
    await wb!.openFile(MISTAKES);
    const lines = (await wb!.editorText()).split('\n');
    const line = lines.findIndex((l) => l.includes('tcp.dstprt')) + 1;
    const text = await wb!.hover(line, lines[line - 1].indexOf('tcp.dstprt') + 3, { until: (t) => t.includes('unknown field') && t.includes('(field)') });
    await wb!.screenshot('12-hover-on-a-problem');
    assert.equal(text.split('unknown field').length - 1, 1, `the message once in:\n${text}`);
    assert.doesNotMatch(text, /Error:/, text);
    await wb!.closeWidgets();
  });

  it('writes messages and quick fix titles as plain text: code in ‘…’, no Markdown backticks', async () => {
    await wb!.openFile(MISTAKES);
    const rows = (await wb!.problems({ until: (all) => all.some((row) => row.file === MISTAKES && row.code === 'unknown-field') })).filter((row) => row.file === MISTAKES);
    await wb!.screenshot('13-problems-plain-text');
    assert.deepEqual(rows.filter((row) => row.message.includes('`')).map((row) => row.message), []);
    assert.ok(rows.some((row) => row.message.includes('unknown field ‘tcp.dstprt’')), JSON.stringify(rows.map((row) => row.message)));
    const lines = (await wb!.editorText()).split('\n');
    const line = lines.findIndex((l) => l.includes('tcp.dstprt')) + 1;
    await wb!.goTo(line, lines[line - 1].indexOf('tcp.dstprt') + 1);
    const titles = await wb!.quickFixes({ until: (list) => list.some((title) => title.includes('tcp.dstport')) });
    await wb!.screenshot('14-quick-fix-titles-plain-text');
    await wb!.closeWidgets();
    assert.ok(titles.includes('Change to ‘tcp.dstport’'), JSON.stringify(titles));
    assert.deepEqual(titles.filter((title) => title.includes('`')), []);
  });

  it('"Rulesets: Check Workspace" lists the problems of rulesets no editor has opened', async () => {
    await wb!.runCommand('Rulesets: Check Workspace');
    const rows = await wb!.problems({ until: (all) => all.some((row) => row.file === 'firewall/edge.ruleset.yaml') && all.some((row) => row.file === 'firewall/office.yaml') });
    await wb!.screenshot('15-check-workspace');
    const codesIn = (file: string) => rows.filter((row) => row.file === file).map((row) => row.code);
    assert.deepEqual(codesIn('firewall/edge.ruleset.yaml'), ['unknown-field']);
    assert.deepEqual(codesIn('firewall/office.yaml'), ['invalid-cidr'], 'a ruleset by its content');
    assert.deepEqual(codesIn('node_modules/some-package/fixture.ruleset.yaml'), [], 'dependencies are not searched');
    assert.deepEqual(codesIn('notes.json'), [], 'not a ruleset');
    // The summary the command leaves when it is done.
    const summary = wb!.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'rulesets checked' });
    await summary.first().waitFor({ timeout: 20_000 });
    await wb!.screenshot('16-check-workspace-summary');
    assert.match(await summary.first().innerText(), /Rulesets: \d+ rulesets checked: \d+ errors?, \d+ warnings? and \d+ notes? in \d+ files/);
  });
});
