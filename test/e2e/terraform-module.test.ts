/**
 * A Terraform module in a real VS Code (code-server): rule expressions written in a `locals`
 * block, a variable's default and a `terraform.tfvars` line, used by `cloudflare_ruleset`
 * resources in main.tf. What a person sees as they type in those files: each finding on the
 * characters where the value is written, naming the resource that uses it, appearing and going
 * away without a save; and main.tf's findings following an edit of a local it uses. Each step
 * leaves a screenshot in test-artifacts/e2e/terraform-module/ (images/terraform-locals.png is
 * 2-typed-mistake-in-local.png of a run).
 *
 * As in terraform.test.ts, test/e2e/terraform-stand-in/ gives the `terraform` and
 * `terraform-vars` languages as HashiCorp's extension declares them (it cannot be installed
 * here); a second workbench without it shows a `.tfvars` file served by its name alone.
 *
 * What each file should show is asked of the checker too (the module read from the texts the
 * editor holds, saved or not), and the places of the planted and typed mistakes are found in the
 * fixture by hand, so neither the editor nor the checker is its own oracle.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { toPositions } from '../../server/src/documents/positions';
import { checkRuleset } from '../../server/src/documents/ruleset';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import type { TerraformModuleReader } from '../../server/src/documents/terraform-module';
import { plainText } from '../../server/src/language/problem';
import { filesOf, makeWorkspace, startWorkbench, type Problem, type Workbench } from './workbench';

const ROOT = join(__dirname, '..', '..');
const STAND_IN = join(__dirname, 'terraform-stand-in');
const MODULE = 'zone';
const FIXTURE = filesOf(join(__dirname, 'fixtures', 'terraform-module'));
const LOCALS = `${MODULE}/locals.tf`;
const VARIABLES = `${MODULE}/variables.tf`;
const TFVARS = `${MODULE}/terraform.tfvars`;
const MAIN = `${MODULE}/main.tf`;
const FILES = [MAIN, LOCALS, VARIABLES, TFVARS];

/** The workspace's files by their path in it. */
const initialTexts = (): Record<string, string> => Object.fromEntries(Object.entries(FIXTURE).map(([name, text]) => [`${MODULE}/${name}`, text]));

/** The 1-based line and column of `needle` in `text`, `delta` characters in. */
function place(text: string, needle: string, delta = 0): { line: number; column: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} is in the text`);
  return { line: line + 1, column: lines[line].indexOf(needle) + 1 + delta };
}

/**
 * What the checker finds in `file` with its module read from `texts` (what the editor holds),
 * as the Problems panel shows it. Hints are not listed there.
 */
function checkerRows(workspace: string, texts: Record<string, string>, file: string): Problem[] {
  const byPath = new Map(Object.entries(texts).map(([path, text]) => [join(workspace, path), text]));
  const reader: TerraformModuleReader = {
    listFiles: (folder) => {
      const names = [...byPath.keys()].filter((path) => path.startsWith(`${folder}/`) && !path.slice(folder.length + 1).includes('/')).map((path) => path.slice(folder.length + 1));
      return names.length > 0 ? names : undefined;
    },
    readFile: (path) => byPath.get(path),
  };
  const severity = { error: 'error', warning: 'warning', information: 'info' } as const;
  const text = texts[file];
  // The provider's version comes from the module's other `.tf` files (main.tf's required_providers).
  const tfFiles = Object.entries(texts).filter(([path]) => path !== file && path.endsWith('.tf')).map(([, other]) => other);
  return toPositions(text, checkRuleset(text, 'hcl', { providerVersionInputs: { tfFiles }, module: { path: join(workspace, file), reader } }))
    .filter((p) => p.severity !== 'hint')
    .map((p) => ({
      file,
      line: p.range.start.line + 1,
      column: p.range.start.character + 1,
      severity: severity[p.severity as keyof typeof severity],
      message: plainText(p.message),
      source: 'rulesets',
      code: p.code,
    }));
}

const byPlace = (a: Problem, b: Problem) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.message.localeCompare(b.message);
const rowsOf = (rows: Problem[], file: string) => rows.filter((row) => row.file === file).sort(byPlace);
const same = (a: Problem[], b: Problem[]) => JSON.stringify(a) === JSON.stringify(b);
const vsix = () => {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return join(ROOT, `${name}-${version}.vsix`);
};

before(async () => {
  execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'pipe' });
  await loadTerraformParser();
});

describe('a Terraform module in VS Code: findings in locals.tf, variables.tf and terraform.tfvars as they are typed', () => {
  let workspace = '';
  let wb: Workbench | undefined;
  /** What the editor holds: the files as saved, with the edits typed so far. */
  const texts = initialTexts();

  before(async () => {
    workspace = makeWorkspace(texts);
    wb = await startWorkbench({ workspace, vsix: vsix(), extensionDir: STAND_IN, name: 'terraform-module', viewport: { width: 1500, height: 900 } });
  });

  after(async () => {
    await wb?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  /** The Problems panel's rows of the open module files, once they are what the checker finds for the editor's texts. */
  async function problemsAsChecked(open: string[]): Promise<Problem[]> {
    const expected = open.flatMap((file) => checkerRows(workspace, texts, file)).sort(byPlace);
    const rows = await wb!.problems({ until: (all) => same(all.filter((row) => FILES.includes(row.file)).sort(byPlace), expected), timeout: 30_000 });
    return rows.filter((row) => FILES.includes(row.file)).sort(byPlace);
  }

  /**
   * Types `replacement` over `length` characters at `needle` (+`delta`) of the open `file`, as a
   * person would (Shift+Right to select, then the keys), and keeps `texts` in step.
   */
  async function typeOver(file: string, needle: string, delta: number, length: number, replacement: string): Promise<void> {
    const at = place(texts[file], needle, delta);
    await wb!.goTo(at.line, at.column);
    for (let i = 0; i < length; i++) await wb!.press('Shift+ArrowRight');
    await wb!.type(replacement);
    await wb!.closeWidgets();
    const lines = texts[file].split('\n');
    const line = lines[at.line - 1];
    lines[at.line - 1] = line.slice(0, at.column - 1) + replacement + line.slice(at.column - 1 + length);
    texts[file] = lines.join('\n');
    const editor = await wb!.editorText({ until: (text) => text === texts[file] });
    assert.equal(editor, texts[file]);
  }

  it('opens locals.tf: the planted mistake on its characters in the local, naming the resource that uses it', async () => {
    await wb!.openFile(LOCALS);
    assert.equal((await wb!.activeEditor())?.languageId, 'terraform');
    const rows = await problemsAsChecked([LOCALS]);
    await wb!.screenshot('1-locals-planted-mistake');
    const at = place(texts[LOCALS], 'http.request.methd');
    assert.deepEqual(rows.map((row) => [row.file, row.line, row.column, row.code]), [[LOCALS, at.line, at.column, 'unknown-field']]);
    assert.match(rows[0].message, /unknown field ‘http\.request\.methd’ in phase ‘http_request_firewall_custom’; did you mean ‘http\.request\.method’/);
    assert.match(rows[0].message, /in ‘cloudflare_ruleset\.waf’/);
  });

  it('a mistake typed into a local\'s string appears without a save, and goes when it is typed right', async () => {
    await wb!.openFile(LOCALS);
    // `http.host` → `http.hots`: the two last letters typed over.
    await typeOver(LOCALS, 'http.host eq', 7, 2, 'ts');
    assert.equal((await wb!.activeEditor())?.isDirty, true, 'not saved');
    const rows = await problemsAsChecked([LOCALS]);
    await wb!.goTo(place(texts[LOCALS], 'http.hots').line);
    await wb!.screenshot('2-typed-mistake-in-local');
    const at = place(texts[LOCALS], 'http.hots');
    const typed = rows.filter((row) => row.line === at.line);
    assert.deepEqual(typed.map((row) => [row.column, row.code]), [[at.column, 'unknown-field']]);
    assert.match(typed[0].message, /unknown field ‘http\.hots’.*did you mean ‘http\.host’.*in ‘cloudflare_ruleset\.waf’/);
    assert.equal(rows.length, 2, 'the planted one stays');

    await typeOver(LOCALS, 'http.hots', 7, 2, 'st');
    const fixed = await problemsAsChecked([LOCALS]);
    await wb!.screenshot('3-typed-right');
    assert.deepEqual(fixed.map((row) => row.line), [place(texts[LOCALS], 'http.request.methd').line], 'only the planted one is left');
    assert.equal((await wb!.activeEditor())?.isDirty, true, 'still not saved');
  });

  it('opens terraform.tfvars and variables.tf: the value that overrides a variable, and a variable\'s default, each with its finding', async () => {
    await wb!.openFile(TFVARS);
    assert.equal((await wb!.activeEditor())?.languageId, 'terraform-vars', 'the language HashiCorp\'s extension gives .tfvars');
    await wb!.openFile(VARIABLES);
    const rows = await problemsAsChecked([LOCALS, TFVARS, VARIABLES]);
    await wb!.screenshot('4-tfvars-and-variables');
    const tfvars = place(texts[TFVARS], 'http.user_agnet');
    const variable = place(texts[VARIABLES], 'ip.src.contry');
    assert.deepEqual(rowsOf(rows, TFVARS).map((row) => [row.line, row.column, row.code]), [[tfvars.line, tfvars.column, 'unknown-field']]);
    assert.match(rowsOf(rows, TFVARS)[0].message, /unknown field ‘http\.user_agnet’ in phase ‘http_request_cache_settings’.*in ‘cloudflare_ruleset\.cache’/);
    assert.deepEqual(rowsOf(rows, VARIABLES).map((row) => [row.line, row.column, row.code]), [[variable.line, variable.column, 'unknown-field']]);
    assert.match(rowsOf(rows, VARIABLES)[0].message, /unknown field ‘ip\.src\.contry’ in phase ‘http_request_cache_settings’.*in ‘cloudflare_ruleset\.cache’/);
  });

  it('typing into the .tfvars value updates its finding', async () => {
    await wb!.openFile(TFVARS);
    // `http.user_agnet` → `http.user_agent`.
    await typeOver(TFVARS, 'http.user_agnet', 12, 2, 'en');
    const rows = await problemsAsChecked([LOCALS, TFVARS, VARIABLES]);
    await wb!.screenshot('5-tfvars-typed-right');
    assert.deepEqual(rowsOf(rows, TFVARS), [], 'the value typed right');
    // And wrong again: `http.user_agent` → `http.usr_agent`.
    await typeOver(TFVARS, 'http.user_agent', 5, 5, 'usr_');
    const again = await problemsAsChecked([LOCALS, TFVARS, VARIABLES]);
    await wb!.screenshot('6-tfvars-typed-wrong');
    const at = place(texts[TFVARS], 'http.usr_agent');
    assert.deepEqual(rowsOf(again, TFVARS).map((row) => [row.line, row.column, row.code]), [[at.line, at.column, 'unknown-field']]);
    assert.match(rowsOf(again, TFVARS)[0].message, /‘http\.usr_agent’.*in ‘cloudflare_ruleset\.cache’/);
  });

  it('hovers and completes inside a local\'s string, in the phase of the resource that uses it', async () => {
    await wb!.openFile(LOCALS);
    const field = place(texts[LOCALS], 'http.request.uri.path eq', 6);
    const hover = await wb!.hover(field.line, field.column, { until: (t) => t.includes('http.request.uri.path') });
    await wb!.screenshot('7-hover-in-local');
    assert.match(hover, /path/i);
    await wb!.closeWidgets();
    // Just inside the closing quote of the first rule's expression.
    const line = place(texts[LOCALS], 'block_admin').line + 2;
    const lineText = texts[LOCALS].split('\n')[line - 1];
    assert.match(lineText, /expression = "http\.host/);
    await wb!.goTo(line, lineText.lastIndexOf('"') + 1);
    await wb!.type(' and http.request.');
    const items = await wb!.suggest({ until: (list) => list.some((item) => item.label === 'http.request.method') });
    await wb!.screenshot('8-completion-in-local');
    assert.ok(!items.some((item) => item.label.startsWith('http.response.')), `an HTTP request phase: no response fields: ${JSON.stringify(items.map((item) => item.label))}`);
    await wb!.closeWidgets();
    // Back as it was, by undoing the typing.
    const typedAt = texts[LOCALS];
    for (let i = 0; i < 40 && (await wb!.editorText()) !== typedAt; i++) await wb!.press('Control+Z');
    assert.equal(await wb!.editorText(), typedAt);
  });

  it('an edit of a local that main.tf uses changes main.tf\'s findings while it is open', async () => {
    await wb!.openFile(MAIN);
    const before = await problemsAsChecked([LOCALS, TFVARS, VARIABLES, MAIN]);
    assert.deepEqual(rowsOf(before, MAIN), [], 'a response field in a response phase');
    await wb!.openFile(LOCALS);
    // headers_phase: `http_response_headers_transform` → `http_request_late_transform`.
    await typeOver(LOCALS, 'response_headers', 0, 'response_headers'.length, 'request_late');
    const rows = await problemsAsChecked([LOCALS, TFVARS, VARIABLES, MAIN]);
    await wb!.openFile(MAIN);
    await wb!.goTo(place(texts[MAIN], 'http.response.code').line);
    await wb!.screenshot('9-main-after-local-edit');
    const at = place(texts[MAIN], 'http.response.code');
    assert.deepEqual(rowsOf(rows, MAIN).map((row) => [row.line, row.column, row.code]), [[at.line, at.column, 'field-not-available']]);
    assert.match(rowsOf(rows, MAIN)[0].message, /‘http\.response\.code’ does not exist in phase ‘http_request_late_transform’.*in ‘cloudflare_ruleset\.headers’/);

    await wb!.openFile(LOCALS);
    await typeOver(LOCALS, 'request_late', 0, 'request_late'.length, 'response_headers');
    const back = await problemsAsChecked([LOCALS, TFVARS, VARIABLES, MAIN]);
    await wb!.screenshot('10-local-edit-undone');
    assert.deepEqual(rowsOf(back, MAIN), []);
  });
});

describe('a .tfvars file in VS Code with no Terraform extension at all', () => {
  let workspace = '';
  let wb: Workbench | undefined;

  before(async () => {
    workspace = makeWorkspace(initialTexts());
    wb = await startWorkbench({ workspace, vsix: vsix(), name: 'terraform-module-alone' });
  });

  after(async () => {
    await wb?.close();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('serves terraform.tfvars by its name: its finding on its characters, naming the resource', async () => {
    await wb!.openFile(TFVARS);
    assert.notEqual((await wb!.activeEditor())?.languageId, 'terraform-vars', 'the extension contributes no terraform-vars language');
    const expected = checkerRows(workspace, initialTexts(), TFVARS).sort(byPlace);
    const rows = await wb!.problems({ until: (all) => same(rowsOf(all, TFVARS), expected), timeout: 30_000 });
    await wb!.screenshot('1-tfvars-without-terraform-extension');
    const at = place(initialTexts()[TFVARS], 'http.user_agnet');
    assert.deepEqual(rowsOf(rows, TFVARS).map((row) => [row.line, row.column, row.code]), [[at.line, at.column, 'unknown-field']]);
    assert.match(rowsOf(rows, TFVARS)[0].message, /in ‘cloudflare_ruleset\.cache’/);
  });
});
