/**
 * Test files in VS Code's Test Explorer, as a person uses it: the packaged .vsix in a real VS Code
 * (code-server) in Chromium, a workspace with a ruleset and its test file (one case passes, one
 * fails), the Testing view opened and every test run from the command palette, the pass and
 * fail states and the failure message read off the screen; then one case run from the editor,
 * and a continuous run that runs the file again when the fixed ruleset is saved; last, request
 * cases of a ruleset in an HTTP phase, added to the workspace. Screenshots go to
 * test-artifacts/e2e/test-explorer/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWorkspace, startWorkbench, type Workbench } from './workbench';
import { EDGE_RULESET, EDGE_TESTS } from '../fixtures/rulesets';

const ROOT = join(__dirname, '..', '..');
const RULESET_FILE = 'edge.ruleset.yaml';
const TEST_FILE = 'edge.ruleset.test.yaml';
const TESTS = EDGE_TESTS;
const FAILURE = 'expected pass, got block by rule 2 (Block TCP) at edge.ruleset.yaml:9:5';

interface Row {
  /** `SSH gets through (Passed)`: the tree says each item's state in its accessible name. */
  label: string;
  /** 1 for a test file, 2 for its cases. */
  level: number;
  text: string;
}

/** The rows of a tree in the page, by the CSS selector of its container. */
function rowsOf(container: string): string {
  return `[...document.querySelectorAll(${JSON.stringify(`${container} .monaco-list-row`)})].map((row) => ({
    label: row.getAttribute('aria-label') || '',
    level: Number(row.getAttribute('aria-level')),
    text: row.textContent.replace(/\\u00a0/g, ' ').trim(),
  }))`;
}

describe('test files in the Test Explorer of a real VS Code (code-server)', () => {
  let workspace = '';
  let packaged = '';
  let wb: Workbench | undefined;

  /** Polls the page until `done` holds on what `probe` (a script) returns. */
  async function until<T>(what: string, probe: string, done: (value: T) => boolean, timeout = 30_000): Promise<T> {
    const deadline = Date.now() + timeout;
    let last: T | undefined;
    for (;;) {
      last = (await wb!.page.evaluate(probe)) as T;
      if (done(last)) return last;
      if (Date.now() > deadline) {
        const picture = await wb!.screenshot(`failure-${what.replace(/\W+/g, '-').slice(0, 40)}`);
        throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 1500)}\n${picture}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const explorerRows = () => rowsOf('.test-explorer');
  const hasRow = (rows: Row[], label: string) => rows.some((row) => row.label === label);

  before(async () => {
    // Packaged into a folder of its own: other end-to-end files package the same .vsix name.
    packaged = mkdtempSync(join(tmpdir(), 'rulesets-vsix-'));
    const vsix = join(packaged, 'rulesets.vsix');
    execFileSync('npm', ['run', 'package', '--silent', '--', '-o', vsix], { cwd: ROOT, stdio: 'pipe' });
    workspace = makeWorkspace({ [RULESET_FILE]: EDGE_RULESET, [TEST_FILE]: TESTS });
    wb = await startWorkbench({ workspace, vsix, name: 'test-explorer' });
  });

  after(async () => {
    await wb?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
    if (packaged) rmSync(packaged, { recursive: true, force: true });
  });

  it('lists the test file and its cases in the Testing view, by their names', async () => {
    await wb!.runCommand('Testing: Focus on Test Explorer View');
    await until<Row[]>('the test file in the Test Explorer', explorerRows(), (rows) => rows.some((row) => row.label.startsWith(TEST_FILE)));
    // Open the file's row to show its cases.
    await wb!.page.locator(`.test-explorer .monaco-list-row[aria-label^="${TEST_FILE}"] .monaco-tl-twistie`).click();
    const rows = await until<Row[]>('the cases under the test file', explorerRows(), (all) => all.some((row) => row.label.startsWith('SSH gets through')) && all.some((row) => row.label.startsWith('web gets through')));
    await wb!.screenshot('1-test-explorer');
    assert.deepEqual(
      rows.map((row) => [row.label.replace(/ \(.*\)$/, ''), row.level]),
      [
        [TEST_FILE, 1],
        ['SSH gets through', 2],
        ['web gets through', 2],
      ],
    );
  });

  it('runs every test: the passing case passes, the failing one fails with expected and actual', async () => {
    await wb!.runCommand('Test: Run All Tests');
    const rows = await until<Row[]>('the run\'s states in the Test Explorer', explorerRows(), (all) => hasRow(all, 'SSH gets through (Passed)') && hasRow(all, 'web gets through (Failed)'));
    assert.ok(hasRow(rows, `${TEST_FILE} (Failed)`), JSON.stringify(rows));
    // The Test Results panel lists each case with its message.
    const results = await until<Row[]>('the failure in the Test Results panel', rowsOf('.test-output-peek-tree'), (all) => all.some((row) => row.text.includes(FAILURE)));
    await wb!.screenshot('2-run-all');
    assert.ok(results.some((row) => row.text.startsWith('web gets through') && row.text.includes(FAILURE)), JSON.stringify(results));
  });

  it('runs one case from the editor: its failure opens at the case, expected beside actual', async () => {
    await wb!.openFile(TEST_FILE);
    const lines = (await wb!.editorText()).split('\n');
    const caseLine = lines.findIndex((l) => l.includes('name: web gets through')) + 1;
    await wb!.goTo(caseLine + 1, 3);
    await wb!.runCommand('Test: Run Test at Cursor');
    // The failure's mark at the case: actual != expected, on the line the case starts on.
    const mark = await until<{ text: string; line: string }>(
      'the failure\'s mark at the case',
      `(() => {
        const widget = document.querySelector('.monaco-editor .test-error-content-widget');
        if (!widget) return { text: '', line: '' };
        const middle = (el) => { const box = el.getBoundingClientRect(); return box.top + box.height / 2; };
        const line = [...document.querySelectorAll('.monaco-editor .view-line')].find((el) => Math.abs(middle(el) - middle(widget)) < el.getBoundingClientRect().height / 2);
        return { text: widget.textContent.replace(/\\u00a0/g, ' '), line: line ? line.textContent.replace(/\\u00a0/g, ' ') : '' };
      })()`,
      (found) => found.text !== '',
    );
    assert.equal(mark.text, 'block by rule 2 (Block TCP) != pass');
    assert.equal(mark.line.trim(), '- name: web gets through');
    // Clicked, it opens the failure: the message, and expected beside actual.
    await wb!.page.locator('.monaco-editor .test-error-content-widget').first().click();
    const peek = await until<string>('the failure to open', `document.querySelector('.monaco-editor .peekview-widget')?.textContent.replace(/\\u00a0/g, ' ') ?? ''`, (text) => text.includes(FAILURE));
    await wb!.screenshot('3-run-one-case-failure-at-the-case');
    assert.ok(peek.startsWith(FAILURE), peek.slice(0, 300));
    const sides = (await wb!.page.evaluate(`['original', 'modified'].map((side) => document.querySelector('.peekview-widget .monaco-diff-editor .editor.' + side + ' .view-lines')?.textContent.replace(/\\u00a0/g, ' ') ?? '')`)) as string[];
    assert.deepEqual(sides, ['pass', 'block by rule 2 (Block TCP)'], 'expected, then actual');
    // Only that case ran: the newest results list it alone.
    const results = await until<Row[]>('the newest results', rowsOf('.test-output-peek-tree'), (all) => all.length > 0);
    assert.ok(!results.some((row) => row.text.startsWith('SSH gets through')), JSON.stringify(results));
    await wb!.closeWidgets();
    await wb!.press('Escape');
  });

  it('a continuous run runs the file again when its ruleset is saved: the fixed rule makes the case pass', async () => {
    await wb!.runCommand('Testing: Focus on Test Explorer View');
    await wb!.page.locator('.codicon-testing-turn-continuous-run-on').first().click();
    await until<boolean>('continuous run to be on', `!!document.querySelector('.codicon-testing-turn-continuous-run-off, .codicon-testing-continuous-is-on')`, (on) => on);
    await wb!.openFile(RULESET_FILE);
    const text = await wb!.editorText();
    const line = text.split('\n').findIndex((l) => l.includes('tcp.dstport == 22')) + 1;
    await wb!.goTo(line, text.split('\n')[line - 1].indexOf('tcp.dstport') + 1);
    await wb!.press('Shift+End');
    await wb!.type('tcp.dstport in {22 443}');
    await wb!.press('Control+S');
    await wb!.runCommand('Testing: Focus on Test Explorer View');
    await until<Row[]>('the case to pass after the save', explorerRows(), (all) => hasRow(all, 'web gets through (Passed)') && hasRow(all, `${TEST_FILE} (Passed)`), 30_000);
    await wb!.screenshot('4-continuous-run-after-save');
  });

  it('runs against the ruleset as the editor has it, unsaved edits included', async () => {
    await wb!.openFile(RULESET_FILE);
    const text = await wb!.editorText();
    const line = text.split('\n').findIndex((l) => l.includes('tcp.dstport in {22 443}')) + 1;
    assert.ok(line > 0, 'the ruleset as the previous test saved it');
    await wb!.goTo(line, text.split('\n')[line - 1].indexOf('tcp.dstport') + 1);
    await wb!.press('Shift+End');
    await wb!.type('tcp.dstport in {22}');
    assert.ok((await wb!.activeEditor())?.isDirty, 'the edit is not saved');
    await wb!.runCommand('Test: Run All Tests');
    await wb!.runCommand('Testing: Focus on Test Explorer View');
    await until<Row[]>('the case to fail on the unsaved ruleset', explorerRows(), (all) => hasRow(all, 'web gets through (Failed)') && hasRow(all, 'SSH gets through (Passed)'));
    await wb!.screenshot('5-unsaved-ruleset');
    await wb!.openFile(RULESET_FILE);
    await wb!.runCommand('File: Revert File');
  });

  it('runs the request cases of a ruleset in an HTTP phase, as `rulesets test` does', async () => {
    const waf = 'name: waf\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: starts_with(http.request.uri.path, "/admin")\n    description: Block admin\n';
    const cases = '- name: admin is blocked\n  request: {url: "https://a.example/admin"}\n  expect: block\n- name: home is blocked\n  request: {url: "https://a.example/"}\n  expect: block\n';
    writeFileSync(join(workspace, 'waf.ruleset.yaml'), waf);
    writeFileSync(join(workspace, 'waf.ruleset.test.yaml'), cases);
    await wb!.runCommand('Testing: Focus on Test Explorer View');
    await until<Row[]>('the new test file in the Test Explorer', explorerRows(), (rows) => rows.some((row) => row.label.startsWith('waf.ruleset.test.yaml')));
    await wb!.runCommand('Test: Run All Tests');
    const failure = 'expected block, got pass: no rule matched';
    await until<Row[]>('the request cases\' results', explorerRows(), (all) => hasRow(all, 'waf.ruleset.test.yaml (Failed)'));
    const results = await until<Row[]>('the request failure in the Test Results panel', rowsOf('.test-output-peek-tree'), (all) => all.some((row) => row.text.includes(failure)));
    await wb!.screenshot('6-request-cases');
    assert.ok(results.some((row) => row.text.startsWith('home is blocked') && row.text.includes(failure)), JSON.stringify(results));
  });
});
