import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ACTION_MISTAKES_FILES, ACTION_MISTAKES } from '../fixtures/action-mistakes';
import { WAF_MISTAKES, WAF_MISTAKES_FILE } from '../fixtures/waf-mistakes';
import { OCTORULES_MISTAKES, OCTORULES_MISTAKES_FILE, OCTORULES_OTHER_FILES } from '../fixtures/octorules';
import { LEGACY_FILE, LEGACY_MISTAKES, MODULE_MISTAKES, TERRAFORM_MISTAKES, TERRAFORM_MISTAKES_FILE } from '../fixtures/terraform-mistakes';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const EXAMPLES = join(ROOT, 'examples');
const MISTAKES = 'examples/mistakes.ruleset.yaml';
// The other example of mistakes, with its own test (waf-mistakes.test.ts): here it is counted.
const WAF = `examples/${WAF_MISTAKES_FILE}`;
// And the mistakes in actions, one file per phase family (action-mistakes.test.ts): counted here too.
const ACTIONS = ACTION_MISTAKES_FILES.map((f) => `examples/${f}`);
// And an octorules zone with mistakes (octorules.test.ts): counted here too.
const OCTORULES = `examples/${OCTORULES_MISTAKES_FILE}`;
// And Terraform resources with mistakes (terraform-mistakes.test.ts): counted here too.
const TERRAFORM = `examples/${TERRAFORM_MISTAKES_FILE}`;
const LEGACY = `examples/${LEGACY_FILE}`;
// And the module's values beside them, found where they are written (locals.tf, terraform.tfvars).
const MODULE = [...new Set(MODULE_MISTAKES.map((m) => `examples/${m.file}`))];
/** Every example that holds mistakes on purpose; the others check clean. */
const WITH_MISTAKES = [...ACTIONS, MISTAKES, WAF, OCTORULES, LEGACY, TERRAFORM, ...MODULE].sort(inFolderOrder);

/** The order the folder search gives (files.ts): by name in each folder, so `octorules/…` before `octorules-mistakes/…`. */
function inFolderOrder(a: string, b: string): number {
  const [x, y] = [a.split('/'), b.split('/')];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i].localeCompare(y[i]);
  return x.length - y.length;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], cwd: string, options: SpawnSyncOptions = {}): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', ...options });
  if (result.error) throw result.error;
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const temps: string[] = [];

function tempFolder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-cli-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function exampleFiles(): string[] {
  // Subfolders too, as the search finds them (`/` between names, as the report prints them
  // here). Test files (`*.ruleset.test.yaml`, for `rulesets test`) and a folder's project
  // configuration (`.rulesets.yaml`) are not rulesets; nor are octorules' configuration and a
  // file of rules that an `!include` reads.
  return readdirSync(EXAMPLES, { recursive: true, encoding: 'utf8' })
    .filter((n) => /\.(json|ya?ml|tf|tfvars)$/.test(n) && !/\.test\.(json|ya?ml)$/.test(n) && !/(^|\/)\.rulesets\.yaml$/.test(n) && !OCTORULES_OTHER_FILES.includes(n))
    .sort(inFolderOrder);
}

interface TextDiagnostic {
  readonly path: string;
  readonly line: number;
  readonly col: number;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
  readonly source: string;
  readonly carets: string;
}

const HEADER = /^(.+?):(\d+):(\d+): (error|warning|information|hint) (\S+) (.+)$/;

/** The text report as diagnostics, each with the two lines printed after its header. */
function parseText(stdout: string): { diagnostics: TextDiagnostic[]; summary: string } {
  const lines = stdout.split('\n');
  assert.equal(lines.pop(), '', 'the report ends with a line break');
  const summary = lines.pop()!;
  const diagnostics: TextDiagnostic[] = [];
  for (let i = 0; i < lines.length; i += 3) {
    const m = HEADER.exec(lines[i]);
    assert.ok(m, `not a diagnostic header: ${JSON.stringify(lines[i])}`);
    assert.ok(i + 2 < lines.length, `no source and caret lines after ${lines[i]}`);
    diagnostics.push({
      path: m[1],
      line: Number(m[2]),
      col: Number(m[3]),
      severity: m[4],
      code: m[5],
      message: m[6],
      source: lines[i + 1],
      carets: lines[i + 2],
    });
  }
  return { diagnostics, summary };
}

before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
});

after(() => {
  for (const dir of temps) {
    chmodTree(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Makes a tree removable again after a test took permissions away. */
function chmodTree(path: string): void {
  try {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) chmodTree(join(path, entry.name));
      else chmodSync(join(path, entry.name), 0o644);
    }
  } catch {
    // not a folder, or already gone
  }
}

// The mistakes of examples/mistakes.ruleset.yaml, counted by hand from the file (1-based line
// and column, and the length of the span on that line).
const EXPECTED_MISTAKES: [line: number, col: number, severity: string, code: string, length: number][] = [
  // `  - action: ` is 12 characters: `skip` at column 13
  [7, 13, 'error', 'missing-action-parameters', 4],
  // `    expression: ` is 16 characters; `tcp.dstport in {22` is 18 more: `,` at column 35
  [8, 35, 'error', 'comma-in-set', 1],
  [11, 17, 'error', 'unknown-field', 10],
  // quoted: content from column 18; `ip.src.country in {` is 19: `"br"` at 37, `"UK"` at 42
  [14, 37, 'warning', 'country-code-case', 4],
  [14, 42, 'warning', 'unknown-country-code', 4],
  // `ip.src in ` is 10: the CIDR block at column 27
  [17, 27, 'error', 'set-required', 10],
  // content from column 18; `ip.proto == ` is 12: `"tpc"` at 30; `"tpc" and udp.dstport == ` is 25 more: 70000 at 55
  [20, 30, 'warning', 'unknown-protocol', 5],
  [20, 55, 'warning', 'value-out-of-range', 5],
  // `tcp.flags.syn ` is 14: `== true` at column 31; `== true and ip.src in ` is 22 more: `$svc.malwre` at 53
  [23, 31, 'error', 'boolean-comparison', 7],
  [23, 53, 'warning', 'unknown-list', 11],
];

describe("rulesets check: the printed runs of README and docs/", () => {
  // Each ```text block of README.md and docs/*.md that runs `npx rulesets check …` shows what it
  // prints: its lines, in order, where `…` stands for lines left out.
  const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const blocks = pages.flatMap((page) => [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```text\n\$ npx rulesets check ([^\n]+)\n([\s\S]*?)```/g)]);

  it('there are such blocks', () => assert.ok(blocks.length >= 2, `found ${blocks.length}`));

  for (const [, args, shown] of blocks) {
    it(`prints what the docs show for \`rulesets check ${args}\``, () => {
      const printed = run(['check', ...args.split(' ')], ROOT).stdout.split('\n');
      let at = 0;
      let gap = false;
      for (const line of shown.replace(/\n$/, '').split('\n')) {
        if (line === '…') {
          gap = true;
          continue;
        }
        const next = gap ? printed.indexOf(line, at) : printed[at] === line ? at : -1;
        assert.ok(next >= 0, `documented line not printed ${gap ? 'after' : 'right after'} line ${at} of the run: ${line}`);
        at = next + 1;
        gap = false;
      }
      // The block ends with the summary, the last line printed.
      assert.equal(at, printed.length - 1, 'the documented block ends where the run ends');
    });
  }
});

describe('rulesets check: text output', () => {
  it('prints every mistake of the example with its source line and carets under the span, and exits 1', () => {
    const result = run(['check', 'examples/'], ROOT);
    assert.equal(result.status, 1, result.stderr);
    assert.equal(result.stderr, '');
    const { diagnostics, summary } = parseText(result.stdout);
    const mistakes = diagnostics.filter((d) => d.path === MISTAKES);
    assert.deepEqual(
      mistakes.map((d) => [d.line, d.col, d.severity, d.code, d.carets.length - d.carets.indexOf('^')]),
      EXPECTED_MISTAKES,
    );
    const fileLines = readFileSync(join(ROOT, MISTAKES), 'utf8').split('\n');
    for (const d of mistakes) {
      assert.equal(d.source, `  ${fileLines[d.line - 1]}`, `source line of ${d.code}`);
      assert.match(d.carets, /^ *\^+$/, `caret line of ${d.code}`);
      // Two spaces of indentation, then the carets start under column `col`.
      assert.equal(d.carets.indexOf('^'), 2 + d.col - 1, `carets of ${d.code}`);
      assert.ok(d.message.length > 10, `message of ${d.code}`);
    }
    const others = [...WAF_MISTAKES, ...ACTION_MISTAKES, ...OCTORULES_MISTAKES, ...TERRAFORM_MISTAKES, ...LEGACY_MISTAKES, ...MODULE_MISTAKES];
    const errors = EXPECTED_MISTAKES.filter((m) => m[2] === 'error').length + others.filter((m) => m.severity === 'error').length;
    const warnings = EXPECTED_MISTAKES.length - EXPECTED_MISTAKES.filter((m) => m[2] === 'error').length + others.filter((m) => m.severity === 'warning').length;
    assert.equal(summary, `${exampleFiles().length} files checked: ${errors} errors, ${warnings} warnings`);
  });

  it("the README's first command: every example but those of mistakes checks clean", () => {
    const result = run(['check', 'examples/'], ROOT);
    const { diagnostics, summary } = parseText(result.stdout);
    // Clean is no error and no warning: block-country keeps the seed's `ip.geoip.country`, which
    // has a deprecation hint (information) in magic_transit.
    // Nor are hints: an interpolation in a Terraform example is said once, and is no mistake.
    const problems = diagnostics.filter((d) => d.severity !== 'information' && d.severity !== 'hint');
    assert.deepEqual([...new Set(problems.map((d) => d.path))], WITH_MISTAKES);
    assert.match(summary, new RegExp(`^${exampleFiles().length} files checked`));
    const json = JSON.parse(run(['check', 'examples/', '--format', 'json'], ROOT).stdout) as JsonReport;
    assert.deepEqual(json.files.map((f) => f.path), exampleFiles().map((n) => `examples/${n}`));
    for (const file of json.files) {
      if (!WITH_MISTAKES.includes(file.path)) assert.deepEqual(file.diagnostics.filter((d) => d.severity !== 'information' && d.severity !== 'hint'), [], file.path);
    }
    // The plan of examples/waf-mistakes/.rulesets.yaml is that folder's: no other example is held to it.
    assert.deepEqual([...new Set(diagnostics.filter((d) => d.code === 'plan-required').map((d) => d.path))], [WAF]);
  });

  it('exits 0 on a folder of clean rulesets', () => {
    const dir = tempFolder();
    const clean = exampleFiles().filter((n) => !WITH_MISTAKES.includes(`examples/${n}`));
    // With the files beside them that are no ruleset: octorules' configuration, and what its rules include.
    for (const name of [...clean, ...OCTORULES_OTHER_FILES]) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      copyFileSync(join(EXAMPLES, name), join(dir, name));
    }
    const result = run(['check', '.'], dir);
    assert.equal(result.status, 0, result.stdout);
    assert.equal(result.stderr, '');
    // Hints (block-country's deprecated `ip.geoip.country`) are printed, and are no problem.
    const { diagnostics, summary } = parseText(result.stdout);
    assert.deepEqual(diagnostics.filter((d) => d.severity !== 'information' && d.severity !== 'hint'), []);
    assert.equal(summary, `${clean.length} files checked, no problems`);
  });

  it('exits 0 when there are warnings only', () => {
    const dir = tempFolder({
      'w.ruleset.yaml': 'name: w\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport == 70000\n',
    });
    const result = run(['check', 'w.ruleset.yaml'], dir);
    assert.equal(result.status, 0);
    const { diagnostics, summary } = parseText(result.stdout);
    assert.deepEqual(diagnostics.map((d) => [d.path, d.line, d.col, d.severity, d.code]), [['w.ruleset.yaml', 6, 32, 'warning', 'value-out-of-range']]);
    assert.equal(summary, '1 file checked: 0 errors, 1 warning');
  });

  it('loads neither node:http nor node:crypto to check the examples (each is milliseconds of every start)', () => {
    const dir = tempFolder({ 'record.cjs': "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_LIST, process.moduleLoadList.join('\\n')));\n" });
    const listed = join(dir, 'loaded.txt');
    const result = run(['check', EXAMPLES], dir, { env: { ...process.env, LOADED_LIST: listed, NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}` } });
    assert.equal(result.status, 1, result.stderr);
    const builtins = readFileSync(listed, 'utf8').split('\n').filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
    assert.ok(builtins.includes('fs'), `the list holds the builtins loaded: ${builtins.join(', ')}`);
    assert.deepEqual(builtins.filter((m) => m === 'http' || m === 'crypto'), []);
  });

  it('prints the right source line for CRLF and lone-CR line ends', () => {
    for (const eol of ['\r\n', '\r']) {
      const text = ['{', '  "name": "x",', '  "kind": "root",', '  "phase": "magic_transit",', '  "rules": [{"action": "block", "expression": "tcp.dstprt == 1"}]', '}', ''].join(eol);
      const dir = tempFolder({ 'a.ruleset.json': text });
      const { diagnostics } = parseText(run(['check', 'a.ruleset.json'], dir).stdout);
      // `  "rules": [{"action": "block", "expression": "` is 47 characters: the field at column 48.
      assert.deepEqual(diagnostics.map((d) => [d.line, d.col, d.code]), [[5, 48, 'unknown-field']], JSON.stringify(eol));
      assert.equal(diagnostics[0].source, '    "rules": [{"action": "block", "expression": "tcp.dstprt == 1"}]', JSON.stringify(eol));
      assert.equal(diagnostics[0].carets, `  ${' '.repeat(47)}${'^'.repeat(10)}`);
    }
  });
});

interface JsonPosition {
  line: number;
  character: number;
}

interface JsonReport {
  files: { path: string; diagnostics: { range: { start: JsonPosition; end: JsonPosition }; severity: string; code: string; message: string }[] }[];
}

function assertPosition(p: unknown, label: string): asserts p is JsonPosition {
  assert.ok(p && typeof p === 'object', label);
  assert.deepEqual(Object.keys(p).sort(), ['character', 'line'], label);
  const { line, character } = p as JsonPosition;
  assert.ok(Number.isInteger(line) && line >= 0, label);
  assert.ok(Number.isInteger(character) && character >= 0, label);
}

describe('rulesets check --format json', () => {
  it('prints the documented shape with 0-based LSP positions', () => {
    const result = run(['check', 'examples/', '--format', 'json'], ROOT);
    assert.equal(result.status, 1);
    const report = JSON.parse(result.stdout) as unknown;
    assert.ok(report && typeof report === 'object');
    assert.deepEqual(Object.keys(report), ['files']);
    const { files } = report as JsonReport;
    assert.ok(Array.isArray(files));
    for (const file of files) {
      assert.deepEqual(Object.keys(file).sort(), ['diagnostics', 'path']);
      assert.equal(typeof file.path, 'string');
      assert.ok(Array.isArray(file.diagnostics));
      for (const d of file.diagnostics) {
        assert.deepEqual(Object.keys(d).sort(), ['code', 'message', 'range', 'severity']);
        assert.deepEqual(Object.keys(d.range).sort(), ['end', 'start']);
        assertPosition(d.range.start, `${file.path} start`);
        assertPosition(d.range.end, `${file.path} end`);
        assert.ok(['error', 'warning', 'information', 'hint'].includes(d.severity));
        assert.equal(typeof d.code, 'string');
        assert.equal(typeof d.message, 'string');
      }
    }
    const mistakes = files.find((f) => f.path === MISTAKES)!;
    assert.deepEqual(
      mistakes.diagnostics.map((d) => [d.range.start.line + 1, d.range.start.character + 1, d.severity, d.code, d.range.end.character - d.range.start.character]),
      EXPECTED_MISTAKES,
    );
    assert.ok(mistakes.diagnostics.every((d) => d.range.start.line === d.range.end.line));
  });
});

describe('rulesets check --format sarif', () => {
  it('prints SARIF 2.1.0 with a rule for every result', () => {
    const result = run(['check', 'examples/', '--format', 'sarif'], ROOT);
    assert.equal(result.status, 1);
    const log = JSON.parse(result.stdout);
    assert.equal(log.version, '2.1.0');
    assert.match(log.$schema, /sarif-2\.1\.0(-rtm\.\d+)?\.json$/);
    assert.equal(log.runs.length, 1);
    const [run0] = log.runs;
    assert.equal(run0.tool.driver.name, 'rulesets');
    const rules = run0.tool.driver.rules as { id: string }[];
    assert.ok(Array.isArray(rules) && rules.length > 0);
    const ids = rules.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length, 'rule ids are unique');
    const all = run0.results as {
      ruleId: string;
      ruleIndex?: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }[];
    }[];
    // Besides the mistakes, notes (hints): the deprecated `ip.geoip.country` of block-country and of the WAF example.
    // And the Terraform example's resources whose rules have no `ref` (one note each).
    assert.deepEqual([...new Set(all.filter((r) => r.level === 'note').map((r) => r.ruleId))].sort(), ['deprecated-field', 'terraform-rules-without-ref']);
    const uriOf = (r: (typeof all)[number]) => r.locations[0].physicalLocation.artifactLocation.uri;
    // The WAF example's, in its order (its places are waf-mistakes.test.ts's business).
    assert.deepEqual(
      all.filter((r) => uriOf(r) === WAF).map((r) => [r.level, r.ruleId]),
      WAF_MISTAKES.map((m) => [m.severity === 'information' ? 'note' : m.severity, m.code]),
    );
    // The mistakes in actions, in their order (their places are action-mistakes.test.ts's business).
    assert.deepEqual(
      all.filter((r) => ACTIONS.includes(uriOf(r))).map((r) => [r.level, r.ruleId]),
      ACTION_MISTAKES.map((m) => [m.severity === 'information' ? 'note' : m.severity, m.code]),
    );
    const results = all.filter((r) => r.level !== 'note' && uriOf(r) === MISTAKES);
    assert.equal(results.length, EXPECTED_MISTAKES.length);
    for (const r of results) {
      assert.ok(ids.includes(r.ruleId), `${r.ruleId} is in driver.rules`);
      if (r.ruleIndex !== undefined) assert.equal(ids[r.ruleIndex], r.ruleId);
      assert.ok(['error', 'warning', 'note', 'none'].includes(r.level));
      assert.equal(typeof r.message.text, 'string');
      assert.ok(r.message.text.length > 0);
      const { artifactLocation, region } = r.locations[0].physicalLocation;
      assert.equal(artifactLocation.uri, MISTAKES);
      for (const n of [region.startLine, region.startColumn, region.endLine, region.endColumn]) assert.ok(Number.isInteger(n) && n >= 1);
    }
    assert.deepEqual(
      results.map((r) => {
        const { region } = r.locations[0].physicalLocation;
        return [region.startLine, region.startColumn, r.level, r.ruleId, region.endColumn - region.startColumn];
      }),
      EXPECTED_MISTAKES,
    );
  });

  it('gives plain text as SARIF asks, the backticked form as its markdown, and what each rule means', () => {
    const dir = tempFolder({ 'a.ruleset.yaml': 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 22\n' });
    const run0 = JSON.parse(run(['check', '.', '--format', 'sarif'], dir).stdout).runs[0];
    assert.deepEqual(run0.results[0].message, {
      text: 'unknown field ‘tcp.dstprt’ in phase ‘magic_transit’; did you mean ‘tcp.dstport’ or ‘udp.dstport’?',
      markdown: 'unknown field `tcp.dstprt` in phase `magic_transit`; did you mean `tcp.dstport` or `udp.dstport`?',
    });
    assert.deepEqual(run0.tool.driver.rules, [{ id: 'unknown-field', name: 'unknown-field', shortDescription: { text: 'A field the phase does not have.' } }]);
  });

  it('prints a valid log with no results for clean files', () => {
    const dir = tempFolder();
    // Not block-country: its `ip.geoip.country` has a hint, a note in SARIF.
    copyFileSync(join(EXAMPLES, 'allow-ssh-only.ruleset.yaml'), join(dir, 'a.ruleset.yaml'));
    const result = run(['check', '.', '--format', 'sarif'], dir);
    assert.equal(result.status, 0);
    const log = JSON.parse(result.stdout);
    assert.equal(log.version, '2.1.0');
    assert.deepEqual(log.runs[0].results, []);
    assert.deepEqual(log.runs[0].tool.driver.rules, []);
  });
});

describe('rulesets check --phase', () => {
  // `http.host` is a field of the HTTP phases, which magic_transit does not have.
  const noPhase = 'name: x\nkind: root\nrules:\n  - action: block\n    expression: http.host == "a"\n';
  const codesOf = (r: Run) => (JSON.parse(r.stdout) as JsonReport).files[0].diagnostics.map((d) => d.code);

  it('applies to a file without a phase, and counts as its phase: no note that the phase is not given', () => {
    const dir = tempFolder({ 'a.ruleset.yaml': noPhase });
    assert.deepEqual(codesOf(run(['check', 'a.ruleset.yaml', '--format', 'json'], dir)), ['phase-not-given']);
    const withPhase = JSON.parse(run(['check', 'a.ruleset.yaml', '--format', 'json', '--phase', 'magic_transit'], dir).stdout) as JsonReport;
    // `    expression: ` is 16 characters.
    assert.deepEqual(
      withPhase.files[0].diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]),
      [['unknown-field', 4, 16, 25]],
    );
  });

  it('takes a file of rules alone, as an entry point\'s PUT does: no missing `name` or `kind`', () => {
    const dir = tempFolder({ 'ep.json': '{"rules":[{"expression":"true","action":"set_cache_settings","action_parameters":{"cache":false}}]}\n' });
    const phaseless = run(['check', 'ep.json'], dir);
    assert.equal(phaseless.status, 0, phaseless.stdout);
    assert.match(phaseless.stdout, /^ep\.json:1:1: information phase-not-given this ruleset names no phase, so its expressions and actions are checked only for what holds in every phase: give it with `phase:` in this file, `--phase` on the command line, `phase:` in \.rulesets\.yaml/);
    assert.match(phaseless.stdout, /\n1 file checked, no problems\n$/);
    const phased = run(['check', '--phase', 'http_request_cache_settings', 'ep.json'], dir);
    assert.equal(phased.status, 0, phased.stdout);
    assert.equal(phased.stdout, '1 file checked, no problems\n');
  });

  it('a misspelt phase is a usage error that names the phase meant', () => {
    const dir = tempFolder({ 'a.ruleset.yaml': noPhase });
    const result = run(['check', 'a.ruleset.yaml', '--phase', 'magic_transitt'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stderr, 'rulesets: unknown phase `magic_transitt` for --phase; did you mean `magic_transit`?\n');
  });

  it('a phase this version does not know, and nothing like one it does, is used with a word on stderr', () => {
    const dir = tempFolder({ 'a.ruleset.yaml': noPhase });
    const result = run(['check', 'a.ruleset.yaml', '--phase', 'http_future_phase_2027'], dir);
    assert.equal(result.stderr, 'rulesets: --phase http_future_phase_2027 is not a phase this version knows; checking with it anyway\n');
    assert.match(result.stdout, /1 file checked/);
  });

  it('does not override the phase a file names', () => {
    // `http.host` is a field of the file's phase, and unknown in the one --phase names.
    const dir = tempFolder({ 'a.ruleset.yaml': noPhase.replace('rules:', 'phase: http_request_firewall_custom\nrules:').replace('tcp.dstprt == 1', 'http.host == "a"') });
    const result = run(['check', 'a.ruleset.yaml', '--format', 'json', '--phase', 'magic_transit'], dir);
    assert.equal(result.status, 0);
    assert.deepEqual(codesOf(result), []);
  });
});

describe('rulesets check: --quiet, --max-warnings, colour', () => {
  // One error (unknown field) and one warning (a lowercase country code).
  const mixed = { 'a.ruleset.yaml': 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 22\n  - action: block\n    expression: ip.src.country == "br"\n' };
  const warningOnly = { 'a.ruleset.yaml': 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src.country == "br"\n' };

  it('--quiet reports errors only', () => {
    const result = run(['check', 'a.ruleset.yaml', '--quiet'], tempFolder(mixed));
    assert.equal(result.status, 1);
    assert.match(result.stdout, /error unknown-field/);
    assert.doesNotMatch(result.stdout, /: warning /);
    assert.match(result.stdout, /1 file checked: 1 error, 0 warnings\n$/);
  });

  it('--max-warnings N fails the run when there are more warnings than N, and says so', () => {
    const dir = tempFolder(warningOnly);
    assert.equal(run(['check', 'a.ruleset.yaml', '--max-warnings', '1'], dir).status, 0);
    const over = run(['check', 'a.ruleset.yaml', '--max-warnings', '0'], dir);
    assert.equal(over.status, 1);
    assert.equal(over.stderr, 'rulesets: 1 warning, more than --max-warnings 0 allows\n');
    const bad = run(['check', 'a.ruleset.yaml', '--max-warnings', 'few'], dir);
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, 'rulesets: --max-warnings takes a whole number of warnings (0 or more), not "few"\n');
  });

  it('is plain text in a pipe, coloured with FORCE_COLOR, and plain again with NO_COLOR', () => {
    const dir = tempFolder(mixed);
    const env = (extra: Record<string, string>) => ({ env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...extra } });
    assert.doesNotMatch(run(['check', 'a.ruleset.yaml'], dir, env({})).stdout, /\x1B\[/);
    const coloured = run(['check', 'a.ruleset.yaml'], dir, env({ FORCE_COLOR: '1' })).stdout;
    assert.match(coloured, /\x1B\[31merror\x1B\[0m unknown-field/);
    assert.match(coloured, /\x1B\[33mwarning\x1B\[0m/);
    assert.equal(coloured.replace(/\x1B\[[0-9;]*m/g, ''), run(['check', 'a.ruleset.yaml'], dir, env({})).stdout, 'the same report, with colour');
    assert.doesNotMatch(run(['check', 'a.ruleset.yaml'], dir, env({ FORCE_COLOR: '1', NO_COLOR: '1' })).stdout, /\x1B\[/);
  });

  it('is coloured on a terminal, unless NO_COLOR is set', (t) => {
    const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) return t.skip('`script` (util-linux) is not installed');
    const dir = tempFolder(mixed);
    const inTerminal = (env: Record<string, string>) =>
      spawnSync('script', ['-qec', `'${process.execPath}' '${CLI}' check a.ruleset.yaml`, '/dev/null'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', TERM: 'xterm', ...env } }).stdout;
    assert.match(inTerminal({}), /\x1B\[31merror/);
    assert.doesNotMatch(inTerminal({ NO_COLOR: '1' }), /\x1B\[3[13]m/);
  });
});

describe('rulesets: a CLI that guides', () => {
  const file = { 'a.ruleset.yaml': 'name: x\nkind: root\nphase: magic_transit\nrules: []\n' };
  for (const [args, message] of [
    [['check', 'a.ruleset.yaml', '--fromat', 'json'], 'rulesets: unknown option `--fromat` for `rulesets check`; did you mean `--format`?\n'],
    [['check', 'a.ruleset.yaml', '--fromat=json'], 'rulesets: unknown option `--fromat` for `rulesets check`; did you mean `--format`?\n'],
    [['check', 'a.ruleset.yaml', '--strict'], 'rulesets: unknown option `--strict` for `rulesets check`; see `rulesets check --help`\n'],
    [['check', 'a.ruleset.yaml', '--format'], 'rulesets: `--format` needs a value; see `rulesets check --help`\n'],
    [['deploy', 'a.ruleset.yaml', '--forse'], 'rulesets: unknown option `--forse` for `rulesets deploy`; did you mean `--force`?\n'],
    [['test', 'a.ruleset.yaml', '--pakcet', '{}'], 'rulesets: unknown option `--pakcet` for `rulesets test`; did you mean `--packet`?\n'],
  ] as const) {
    it(`answers \`rulesets ${args.join(' ')}\` in its own words`, () => {
      const result = run(args, tempFolder(file));
      assert.equal(result.status, 2);
      assert.equal(result.stderr, message);
    });
  }

  it('`-v` prints the version, as `--version` does', () => {
    const version = run(['--version'], ROOT);
    assert.equal(run(['-v'], ROOT).stdout, version.stdout);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  });

  it('`check -` reads a ruleset from standard input, YAML or JSON', () => {
    const yaml = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 22\n';
    const fromYaml = run(['check', '-'], ROOT, { input: yaml });
    assert.equal(fromYaml.status, 1);
    assert.match(fromYaml.stdout, /^<stdin>:6:17: error unknown-field unknown field `tcp\.dstprt`/);
    const json = JSON.stringify({ name: 'x', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'tcp.dstport == 22' }] });
    const fromJson = run(['check', '-', '--format', 'json'], ROOT, { input: json });
    assert.equal(fromJson.status, 0);
    assert.deepEqual((JSON.parse(fromJson.stdout) as JsonReport).files.map((f) => [f.path, f.diagnostics.length]), [['<stdin>', 0]]);
  });
});

describe('rulesets: usage errors', () => {
  const cases: [string, string[]][] = [
    ['no arguments', []],
    ['an unknown command', ['lint', 'examples/']],
    ['check without paths', ['check']],
    ['an unknown --format', ['check', 'a.ruleset.yaml', '--format', 'xml']],
    ['an unknown option', ['check', 'a.ruleset.yaml', '--strict']],
    ['--phase without a value', ['check', 'a.ruleset.yaml', '--phase']],
    ['a missing path', ['check', 'missing.ruleset.yaml']],
    ['a .txt file', ['check', 'notes.txt']],
  ];
  for (const [name, args] of cases) {
    it(`exits 2 with one line on stderr for ${name}`, () => {
      const dir = tempFolder({ 'a.ruleset.yaml': 'name: x\nkind: root\nphase: magic_transit\nrules: []\n', 'notes.txt': 'hello\n' });
      const result = run(args, dir);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, /^rulesets: [^\n]+\n$/, `one line: ${JSON.stringify(result.stderr)}`);
      assert.doesNotMatch(result.stderr, /\bat .*:\d+:\d+|Error:/, 'no stack trace');
      assert.equal(result.stdout, '');
    });
  }

  it('names the path in the message', () => {
    const dir = tempFolder({ 'notes.txt': 'hello\n' });
    assert.match(run(['check', 'missing.ruleset.yaml'], dir).stderr, /missing\.ruleset\.yaml: no such file or folder/);
    assert.match(run(['check', 'notes.txt'], dir).stderr, /notes\.txt: not a ruleset file \(expected \.json, \.yaml, \.yml or \.tf\)/);
  });

  it('--version prints the version of package.json', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = run(['--version'], ROOT);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, `${version}\n`);
  });

  it('--help prints the usage and exits 0', () => {
    const result = run(['--help'], ROOT);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^Usage: rulesets check/);
  });
});

describe('rulesets check: folder search', () => {
  it('searches dist/ and out/ folders and follows symlinked files, as the README says', () => {
    const yaml = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 1\n';
    const dir = tempFolder({ 'dist/a.ruleset.yaml': yaml, 'out/b.ruleset.yaml': yaml, 'src/c.yaml': yaml });
    symlinkSync(join(dir, 'src', 'c.yaml'), join(dir, 'linked.ruleset.yaml'));
    const result = run(['check', '.', '--format', 'json'], dir);
    const report = JSON.parse(result.stdout) as JsonReport;
    assert.deepEqual(report.files.map((f) => f.path).sort(), [join('dist', 'a.ruleset.yaml'), 'linked.ruleset.yaml', join('out', 'b.ruleset.yaml'), join('src', 'c.yaml')]);
  });

  it('exits 2 when a search finds no ruleset file at all, so CI does not pass having checked nothing', () => {
    const dir = tempFolder({ 'package.json': '{"name": "x"}', 'notes.md': '# rules\n' });
    const result = run(['check', '.'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stderr, 'rulesets: no ruleset files found in .\n');
  });

  it('finds ruleset files by name and by content, and skips node_modules', () => {
    const ruleset = { name: 'x', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src in $svc.vpn' }] };
    const json = JSON.stringify(ruleset, null, 2);
    const yaml = 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in $svc.vpn\n';
    const dir = tempFolder({
      'a.ruleset.json': json,
      'b.ruleset.yaml': yaml,
      'c.ruleset.yml': yaml,
      'x.yaml': 'phase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in $svc.vpn\n',
      'y.json': JSON.stringify({ kind: 'custom', rules: [{ action: 'block', expression: 'true' }] }),
      'sub/deeper/d.ruleset.json': json,
      'package.json': JSON.stringify({ name: 'pkg', version: '1.0.0', scripts: { test: 'node' }, dependencies: {} }, null, 2),
      'tsconfig.json': '{"compilerOptions": {"strict": true}}',
      'rules-only.json': '{"rules": [{"a": 1}]}',
      'config.yaml': 'rules:\n  - not an object\nphase: x\n',
      'docker-compose.yml': 'services:\n  web:\n    image: nginx\n',
      'notes.txt': 'rules phase\n',
      'node_modules/pkg/e.ruleset.json': json,
      'node_modules/f.ruleset.yaml': yaml,
      '.git/g.ruleset.json': json,
    });
    const result = run(['check', '.', '--format', 'json'], dir);
    // x.yaml and y.json have no `name` (nor y.json a `phase`): an entry point's PUT takes them as they are.
    assert.equal(result.status, 0, result.stderr);
    const report = JSON.parse(result.stdout) as JsonReport;
    assert.deepEqual(report.files.map((f) => f.path).sort(), [
      'a.ruleset.json',
      'b.ruleset.yaml',
      'c.ruleset.yml',
      join('sub', 'deeper', 'd.ruleset.json'),
      'x.yaml',
      'y.json',
    ]);
    const clean = report.files.filter((f) => f.diagnostics.length === 0).map((f) => f.path).sort();
    assert.deepEqual(clean, ['a.ruleset.json', 'b.ruleset.yaml', 'c.ruleset.yml', join('sub', 'deeper', 'd.ruleset.json'), 'x.yaml']);
    assert.deepEqual(report.files.find((f) => f.path === 'y.json')?.diagnostics.map((d) => d.code), ['phase-not-given']);
  });

  it('checks a file named on the command line whatever its name', () => {
    const dir = tempFolder({ 'plain.yaml': 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 1\n' });
    const result = run(['check', 'plain.yaml'], dir);
    assert.equal(result.status, 1);
    assert.match(result.stdout, /^plain\.yaml:6:17: error unknown-field /);
  });
});

describe('rulesets check: output plumbing', () => {
  it('checks a file named twice, or beside its folder, once', () => {
    const dir = tempFolder({ 'a.ruleset.yaml': 'name: x\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 1\n' });
    const result = run(['check', 'a.ruleset.yaml', './a.ruleset.yaml', '.', '--format', 'json'], dir);
    assert.equal(result.status, 1);
    assert.deepEqual((JSON.parse(result.stdout) as JsonReport).files.map((f) => f.path), ['a.ruleset.yaml']);
  });

  it('stops quietly, with its exit status, when the reader closes the pipe early', async () => {
    const dir = tempFolder();
    const mistakes = readFileSync(join(ROOT, MISTAKES), 'utf8');
    // Far more output than a pipe buffer holds.
    for (let i = 0; i < 300; i++) writeFileSync(join(dir, `m${i}.ruleset.yaml`), mistakes);
    const child = spawn(process.execPath, [CLI, 'check', '.'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    assert.equal(stderr, '');
    assert.equal(status, 1);
  });
});

/**
 * The bundle copied where `nobody` can read it: the checkout may sit in a folder only its
 * owner can enter (a fresh `mktemp -d` clone in CI does).
 */
function cliReadableByAnyone(): string {
  const dir = tempFolder();
  chmodSync(dir, 0o755);
  for (const file of ['cli.js', 'rulesets-cli.js', 'expression.ohm', 'expression.recipe.json']) {
    copyFileSync(join(ROOT, 'dist', file), join(dir, file));
    chmodSync(join(dir, file), 0o644);
  }
  return join(dir, 'cli.js');
}

/**
 * Runs the CLI where a file or folder made unreadable really is unreadable: as root, as the
 * unprivileged `nobody` when the platform allows it. Skips when neither is possible.
 */
function runWithoutPrivileges(t: TestContext, args: readonly string[], cwd: string, probe: () => void): Run | undefined {
  const root = process.getuid?.() === 0;
  if (!root) {
    try {
      probe();
    } catch {
      return run(args, cwd);
    }
    t.skip('this user can read a chmod 000 path');
    return undefined;
  }
  try {
    chmodSync(cwd, 0o755); // mkdtemp makes 0700 folders
    const result = spawnSync(process.execPath, [cliReadableByAnyone(), ...args], { cwd, encoding: 'utf8', uid: 65534, gid: 65534 });
    if (result.error) throw result.error;
    return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
  } catch {
    t.skip('running as root and cannot drop privileges');
    return undefined;
  }
}

describe('rulesets check: unreadable files', () => {
  it('exits 2 with one line for an unreadable file', (t) => {
    const dir = tempFolder({ 'a.ruleset.yaml': 'name: x\n' });
    const file = join(dir, 'a.ruleset.yaml');
    chmodSync(file, 0o000);
    const result = runWithoutPrivileges(t, ['check', 'a.ruleset.yaml'], dir, () => readFileSync(file));
    if (!result) return;
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.equal(result.stderr, 'rulesets: a.ruleset.yaml: cannot read the file (EACCES)\n');
  });

  it('exits 2 with one line for an unreadable folder met in the search', (t) => {
    const dir = tempFolder({ 'a.ruleset.yaml': 'name: x\n', 'locked/b.ruleset.yaml': 'name: x\n' });
    const locked = join(dir, 'locked');
    chmodSync(locked, 0o000);
    const result = runWithoutPrivileges(t, ['check', '.'], dir, () => readdirSync(locked));
    if (!result) return;
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.equal(result.stderr, 'rulesets: locked: cannot read the folder (EACCES)\n');
  });

  it('does not call a path it may not enter missing', (t) => {
    const dir = tempFolder({ 'locked/b.ruleset.yaml': 'name: x\n' });
    const locked = join(dir, 'locked');
    chmodSync(locked, 0o000);
    const result = runWithoutPrivileges(t, ['check', join('locked', 'b.ruleset.yaml')], dir, () => readdirSync(locked));
    if (!result) return;
    assert.equal(result.status, 2, result.stdout + result.stderr);
    assert.equal(result.stderr, `rulesets: ${join('locked', 'b.ruleset.yaml')}: cannot access it (EACCES)\n`);
  });
});

describe('rulesets check: the project configuration, .rulesets.yaml', () => {
  // No phase of its own, and a lowercase country code (a warning).
  const EDGE = 'name: edge\nkind: root\nrules:\n  - action: block\n    expression: ip.src.country == "br"\n';
  /** A repository: `.git` ends the search for `.rulesets.yaml`, as it would in a real one. */
  const repository = (files: Record<string, string>) => tempFolder({ '.git/HEAD': 'ref: refs/heads/main\n', ...files });
  const found = (r: Run) => parseText(r.stdout).diagnostics.map((d) => [d.path, d.line, d.col, d.severity, d.code]);

  it('gives files without a phase its phase, and makes a warning an error that fails the run', () => {
    const phaseOnly = run(['check', '.'], repository({ '.rulesets.yaml': 'phase: magic_transit\n', 'edge.ruleset.yaml': EDGE }));
    assert.equal(phaseOnly.status, 0, phaseOnly.stderr);
    assert.equal(phaseOnly.stderr, '');
    assert.deepEqual(found(phaseOnly), [['edge.ruleset.yaml', 5, 35, 'warning', 'country-code-case']]);

    const strict = run(['check', '.'], repository({ '.rulesets.yaml': 'phase: magic_transit\nrules:\n  country-code-case: error\n', 'edge.ruleset.yaml': EDGE }));
    assert.equal(strict.status, 1);
    assert.deepEqual(found(strict), [['edge.ruleset.yaml', 5, 35, 'error', 'country-code-case']]);
    assert.match(strict.stdout, /1 file checked: 1 error, 0 warnings\n$/);
  });

  it('without it, the same file has no phase', () => {
    const result = run(['check', '.'], repository({ 'edge.ruleset.yaml': EDGE }));
    assert.deepEqual(found(result).map((d) => d[4]), ['phase-not-given', 'country-code-case']);
  });

  it('turns a code off, so that --max-warnings no longer counts it, and --quiet shows a warning made an error', () => {
    const files = { 'edge.ruleset.yaml': EDGE.replace('kind: root', 'kind: root\nphase: magic_transit') };
    const off = run(['check', '.', '--max-warnings', '0'], repository({ ...files, '.rulesets.yaml': 'rules:\n  country-code-case: off\n' }));
    assert.equal(off.status, 0, off.stdout + off.stderr);
    assert.equal(off.stdout, '1 file checked, no problems\n');
    const quiet = run(['check', '.', '--quiet'], repository({ ...files, '.rulesets.yaml': 'rules:\n  country-code-case: error\n' }));
    assert.equal(quiet.status, 1);
    assert.deepEqual(found(quiet).map((d) => [d[3], d[4]]), [['error', 'country-code-case']]);
  });

  it('is found in a parent folder, up to the folder that holds `.git`', () => {
    const dir = repository({ '.rulesets.yaml': 'phase: magic_transit\n', 'firewall/edge.ruleset.yaml': EDGE });
    const inside = run(['check', '.'], join(dir, 'firewall'));
    assert.deepEqual(found(inside).map((d) => d[4]), ['country-code-case']);
    // Above the repository's root it is someone else's.
    const outer = tempFolder({ '.rulesets.yaml': 'phase: magic_transit\n', 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'repo/edge.ruleset.yaml': EDGE });
    assert.deepEqual(found(run(['check', '.'], join(outer, 'repo'))).map((d) => d[4]), ['phase-not-given', 'country-code-case']);
  });

  it('applies to the files of its folder and the folders below it, also when the check starts above it', () => {
    const dir = repository({ 'edge/.rulesets.yaml': 'phase: magic_transit\n', 'edge/a.ruleset.yaml': EDGE, 'edge/deep/b.ruleset.yaml': EDGE, 'other/c.ruleset.yaml': EDGE });
    for (const paths of [['.'], ['edge/', 'other/'], [join('edge', 'a.ruleset.yaml'), join('edge', 'deep', 'b.ruleset.yaml'), join('other', 'c.ruleset.yaml')]]) {
      const result = run(['check', ...paths], dir);
      assert.equal(result.stderr, '', paths.join(' '));
      assert.deepEqual(
        found(result).map((d) => [d[0], d[4]]),
        [
          [join('edge', 'a.ruleset.yaml'), 'country-code-case'],
          [join('edge', 'deep', 'b.ruleset.yaml'), 'country-code-case'],
          // Beside the folder, not in it: no phase.
          [join('other', 'c.ruleset.yaml'), 'phase-not-given'],
          [join('other', 'c.ruleset.yaml'), 'country-code-case'],
        ],
        paths.join(' '),
      );
    }
  });

  it('the nearest one wins, whole: a file below two has the inner one\'s settings only', () => {
    const dir = repository({
      '.rulesets.yaml': 'phase: magic_transit\nrules:\n  country-code-case: error\n',
      'a.ruleset.yaml': EDGE,
      'team/.rulesets.yaml': 'rules:\n  always-true: off\n',
      'team/b.ruleset.yaml': EDGE,
    });
    assert.deepEqual(found(run(['check', '.'], dir)).map((d) => [d[0], d[3], d[4]]), [
      ['a.ruleset.yaml', 'error', 'country-code-case'],
      // The inner file sets no phase, and its folder takes none from the outer one.
      [join('team', 'b.ruleset.yaml'), 'information', 'phase-not-given'],
      [join('team', 'b.ruleset.yaml'), 'warning', 'country-code-case'],
    ]);
  });

  it('each one with a mistake stops the run, named by its path; a sound one beside it does not', () => {
    const dir = repository({ '.rulesets.yaml': 'phase: magic_transit\n', 'a.ruleset.yaml': EDGE, 'team/.rulesets.yaml': 'plan: fre\n', 'team/b.ruleset.yaml': EDGE });
    const result = run(['check', '.'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    const shown = join('team', '.rulesets.yaml');
    assert.match(result.stderr, new RegExp(`^${shown.replace(/\./g, '\\.')}:1:7: error invalid-plan .*\\n  plan: fre\\n        \\^\\^\\^\\nrulesets: ${shown.replace(/\./g, '\\.')} has 1 error: fix it, or pass --no-config to check without it\\n$`));
  });

  it('finds more ruleset files by the patterns of the one whose folder they are in', () => {
    const bare = 'rules:\n  - action: block\n    expression: ip.src.country == "br"\n';
    const dir = repository({ 'team/.rulesets.yaml': 'phase: magic_transit\nfiles: ["firewall/*.yaml"]\n', 'team/firewall/edge.yaml': bare, 'firewall/edge.yaml': bare });
    assert.deepEqual([...new Set(found(run(['check', '.'], dir)).map((d) => d[0]))], [join('team', 'firewall', 'edge.yaml')]);
  });

  it('standard input has the one of the current folder', () => {
    const dir = repository({ 'team/.rulesets.yaml': 'phase: magic_transit\n' });
    const result = run(['check', '-'], join(dir, 'team'), { input: EDGE });
    assert.deepEqual(found(result), [['<stdin>', 5, 35, 'warning', 'country-code-case']]);
    assert.deepEqual(found(run(['check', '-'], dir, { input: EDGE })).map((d) => d[4]), ['phase-not-given', 'country-code-case']);
  });

  it('takes the account\'s list names from `lists`', () => {
    const dir = repository({
      '.rulesets.yaml': 'phase: magic_transit\nlists: [office_networks]\n',
      'a.ruleset.yaml': 'name: a\nkind: root\nrules:\n  - action: block\n    expression: ip.src in $office_network\n',
    });
    const result = run(['check', '.'], dir);
    assert.deepEqual(found(result).map((d) => d[4]), ['unknown-list']);
    assert.match(result.stdout, /did you mean `\$office_networks`\?/);
  });

  it('finds more ruleset files by the patterns of `files`, relative to its folder', () => {
    // Without `kind` or `phase`, nothing but a pattern makes the file a ruleset.
    const bare = 'rules:\n  - action: block\n    expression: ip.src.country == "br"\n';
    const dir = repository({ '.rulesets.yaml': 'phase: magic_transit\nfiles: ["firewall/*.yaml"]\n', 'firewall/edge.yaml': bare, 'other/edge.yaml': bare });
    assert.deepEqual([...new Set(found(run(['check', '.'], dir)).map((d) => d[0]))], [join('firewall', 'edge.yaml')]);
  });

  it('--config names the file to use, wherever it is; --no-config uses none', () => {
    const dir = repository({ 'ci/strict.yaml': 'phase: magic_transit\nrules:\n  country-code-case: error\n', '.rulesets.yaml': 'phase: magic_transit\n', 'edge.ruleset.yaml': EDGE });
    assert.deepEqual(found(run(['check', '.', '--config', 'ci/strict.yaml'], dir)).map((d) => [d[3], d[4]]), [['error', 'country-code-case']]);
    assert.deepEqual(found(run(['check', '.', '--no-config'], dir)).map((d) => d[4]), ['phase-not-given', 'country-code-case']);
    const both = run(['check', '.', '--config', 'ci/strict.yaml', '--no-config'], dir);
    assert.equal(both.status, 2);
    assert.equal(both.stderr, 'rulesets: --config and --no-config were both given: pass one\n');
    const missing = run(['check', '.', '--config', 'ci/lax.yaml'], dir);
    assert.equal(missing.status, 2);
    assert.equal(missing.stderr, 'rulesets: ci/lax.yaml: no such file or folder\n');
  });

  it('--phase wins over the phase of the file', () => {
    const dir = repository({ '.rulesets.yaml': 'phase: http_request_firewall_custom\n', 'edge.ruleset.yaml': EDGE });
    const report = JSON.parse(run(['check', '.', '--format', 'json', '--phase', 'magic_transit'], dir).stdout) as JsonReport;
    assert.deepEqual(report.files[0].diagnostics.map((d) => d.code), ['country-code-case']);
  });

  it('a broken configuration exits 2, with each mistake at its file:line:col and the fix, before checking anything', () => {
    const dir = repository({ '.rulesets.yaml': 'phase: magic_transit\nrulse:\n  always-true: off\n', 'edge.ruleset.yaml': EDGE });
    const result = run(['check', '.'], dir);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.equal(
      result.stderr,
      [
        '.rulesets.yaml:2:1: error unknown-key unknown key `rulse` in `.rulesets.yaml`; did you mean `rules`?',
        '  rulse:',
        '  ^^^^^',
        'rulesets: .rulesets.yaml has 1 error: fix it, or pass --no-config to check without it',
        '',
      ].join('\n'),
    );
  });

  it('says that an error the service would reject cannot be turned off', () => {
    const dir = repository({ '.rulesets.yaml': 'rules:\n  unknown-field: off\n', 'edge.ruleset.yaml': EDGE });
    const result = run(['check', '.'], dir);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^\.rulesets\.yaml:2:18: error error-not-configurable `unknown-field` is a mistake the service rejects, so it stays an error: fix the rule instead of turning it off\n/);
  });

  it('a configuration with warnings only is used, with the warnings on stderr', () => {
    const dir = repository({ '.rulesets.yaml': 'phase: magic_transit\nrules:\n  rule-from-the-future: off\n', 'edge.ruleset.yaml': EDGE });
    const result = run(['check', '.'], dir);
    assert.equal(result.status, 0);
    assert.match(result.stderr, /^\.rulesets\.yaml:3:3: warning unknown-code `rule-from-the-future` is not a code this version reports, so this line does nothing\n {4}rule-from-the-future: off\n {4}\^+\n$/);
    assert.deepEqual(found(result).map((d) => d[4]), ['country-code-case']);
  });

  it('is not itself checked as a ruleset', () => {
    const dir = repository({ '.rulesets.yaml': 'phase: magic_transit\nfiles: ["*.yaml"]\n', 'edge.ruleset.yaml': EDGE });
    assert.deepEqual(parseText(run(['check', '.'], dir).stdout).summary, '1 file checked: 0 errors, 1 warning');
  });
});

describe('rulesets check: # rulesets-disable comments in YAML', () => {
  // Rule 2 and rule 3 are shadowed by rule 1; rule 2 is meant to be (the directive says so).
  // The second directive names a code its rule does not have.
  const TELNET = [
    'name: edge',
    'kind: root',
    'phase: magic_transit',
    'rules:',
    '  - action: block',
    '    expression: ip.proto == "tcp"',
    '  # rulesets-disable-next-line shadowed-rule -- telnet is counted apart',
    '  - action: block',
    '    expression: tcp.dstport == 23',
    '  # rulesets-disable-next-line always-true',
    '  - action: block',
    '    expression: tcp.dstport == 25',
    '',
  ].join('\n');
  const found = (r: Run) => parseText(r.stdout).diagnostics.map((d) => [d.line, d.col, d.severity, d.code]);

  it('text: a silenced finding is not printed; a directive that silences nothing is, on its code', () => {
    const result = run(['check', 'telnet.ruleset.yaml'], tempFolder({ 'telnet.ruleset.yaml': TELNET }));
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(found(result), [
      // `  # rulesets-disable-next-line ` is 31 characters: the code at column 32
      [10, 32, 'warning', 'unused-disable'],
      [12, 17, 'warning', 'shadowed-rule'],
    ]);
    const unused = parseText(result.stdout).diagnostics[0];
    assert.equal(unused.message, 'no `always-true` on the next line, so the directive has nothing to silence');
    assert.equal(unused.carets, `${' '.repeat(33)}${'^'.repeat('always-true'.length)}`);
    assert.equal(parseText(result.stdout).summary, '1 file checked: 0 errors, 2 warnings');
  });

  it('json and sarif report the same', () => {
    const dir = tempFolder({ 'telnet.ruleset.yaml': TELNET });
    const json = JSON.parse(run(['check', 'telnet.ruleset.yaml', '--format', 'json'], dir).stdout) as JsonReport;
    assert.deepEqual(json.files[0].diagnostics.map((d) => [d.range.start.line + 1, d.range.start.character + 1, d.code]), [
      [10, 32, 'unused-disable'],
      [12, 17, 'shadowed-rule'],
    ]);
    const sarif = JSON.parse(run(['check', 'telnet.ruleset.yaml', '--format', 'sarif'], dir).stdout);
    const results = sarif.runs[0].results as { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[];
    assert.deepEqual(results.map((r) => [r.locations[0].physicalLocation.region.startLine, r.ruleId]), [
      [10, 'unused-disable'],
      [12, 'shadowed-rule'],
    ]);
  });

  it('--max-warnings counts what is left after silencing, and --quiet hides the directive warnings', () => {
    const meant = TELNET.replace('always-true', 'shadowed-rule');
    const dir = tempFolder({ 'telnet.ruleset.yaml': meant });
    const clean = run(['check', 'telnet.ruleset.yaml', '--max-warnings', '0'], dir);
    assert.equal(clean.status, 0, clean.stdout);
    assert.equal(clean.stdout, '1 file checked, no problems\n');
    const unusedDir = tempFolder({ 'telnet.ruleset.yaml': TELNET });
    const over = run(['check', 'telnet.ruleset.yaml', '--max-warnings', '1'], unusedDir);
    assert.equal(over.status, 1);
    assert.equal(over.stderr, 'rulesets: 2 warnings, more than --max-warnings 1 allows\n');
    assert.equal(run(['check', 'telnet.ruleset.yaml', '--quiet'], unusedDir).stdout, '1 file checked, no problems\n');
  });

  it('an error cannot be silenced: it still fails the run, and the directive says why', () => {
    const text = TELNET.replace('tcp.dstport == 23', 'tcp.dstprt == 23').replace('shadowed-rule -- telnet is counted apart', 'unknown-field');
    const result = run(['check', 'telnet.ruleset.yaml'], tempFolder({ 'telnet.ruleset.yaml': text }));
    assert.equal(result.status, 1);
    const diagnostics = parseText(result.stdout).diagnostics;
    assert.deepEqual(diagnostics.map((d) => [d.line, d.severity, d.code]).slice(0, 2), [
      [7, 'warning', 'unused-disable'],
      [9, 'error', 'unknown-field'],
    ]);
    assert.equal(diagnostics[0].message, '`unknown-field` here is an error, and an error cannot be silenced: the service rejects this rule, so fix it instead');
  });
});

describe('rulesets check --cache', () => {
  const EDGE = 'name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src.country == "br"\n';
  const messages = (r: Run) => parseText(r.stdout).diagnostics.map((d) => `${d.code} ${d.message}`);
  /** What the cache holds for the one file in it, changed as a person (or a bug) might: proof of whether a run read it. */
  function markCachedFindings(location: string): void {
    const stored = JSON.parse(readFileSync(location, 'utf8'));
    for (const entry of Object.values(stored.files) as { diagnostics: { message: string }[] }[]) for (const d of entry.diagnostics) d.message = 'from the cache';
    writeFileSync(location, JSON.stringify(stored));
  }

  it('keeps the findings in .rulesets-cache and gives them back while the file is unchanged', () => {
    const dir = tempFolder({ 'edge.ruleset.yaml': EDGE });
    const first = run(['check', '--cache', '.'], dir);
    assert.equal(first.status, 0, first.stderr);
    assert.match(messages(first)[0], /^country-code-case country codes are uppercase/);
    markCachedFindings(join(dir, '.rulesets-cache'));
    const second = run(['check', '--cache', '.'], dir);
    assert.deepEqual(messages(second), ['country-code-case from the cache']);
    assert.equal(second.status, 0);
    assert.match(second.stdout, /1 file checked: 0 errors, 1 warning\n$/);
  });

  it('checks a file again when its text or the options change, and never without --cache', () => {
    const dir = tempFolder({ 'edge.ruleset.yaml': EDGE });
    run(['check', '--cache', '.'], dir);
    markCachedFindings(join(dir, '.rulesets-cache'));
    assert.match(messages(run(['check', '.'], dir))[0], /^country-code-case country codes are uppercase/);
    assert.match(messages(run(['check', '--cache', '--phase', 'magic_transit_managed', '.'], dir))[0], /^country-code-case country codes are uppercase/);
    markCachedFindings(join(dir, '.rulesets-cache'));
    writeFileSync(join(dir, 'edge.ruleset.yaml'), EDGE.replace('"br"', '"cn"'));
    const changed = run(['check', '--cache', '.'], dir);
    assert.match(messages(changed)[0], /^country-code-case country codes are uppercase: `"cn"`/);
  });

  it('--cache-location puts it elsewhere, and means nothing without --cache', () => {
    const dir = tempFolder({ 'edge.ruleset.yaml': EDGE, 'build/.keep': '' });
    assert.equal(run(['check', '--cache', '--cache-location', 'build/findings', '.'], dir).status, 0);
    assert.ok(JSON.parse(readFileSync(join(dir, 'build/findings'), 'utf8')).files);
    const alone = run(['check', '--cache-location', 'build/findings', '.'], dir);
    assert.equal(alone.status, 2);
    assert.equal(alone.stderr, 'rulesets: --cache-location names where --cache keeps its findings: add --cache\n');
  });

  it('a cache it cannot write is one line on stderr; the check and its exit status stand', () => {
    const dir = tempFolder({ 'edge.ruleset.yaml': EDGE.replace('ip.src.country', 'ip.src.contry') });
    const result = run(['check', '--cache', '--cache-location', 'missing/findings', '.'], dir);
    assert.equal(result.status, 1);
    assert.deepEqual(parseText(result.stdout).diagnostics.map((d) => d.code), ['unknown-field']);
    assert.equal(result.stderr, 'rulesets: could not write the cache missing/findings (ENOENT); the next run checks every file again\n');
  });
});

describe('rulesets check on Terraform files (issue 23)', () => {
  // A mistake in the second resource, after a line whose escapes shift every column: the
  // report must count the file's own characters.
  const MAIN_TF = [
    'resource "cloudflare_ruleset" "redirects" {',
    '  zone_id = var.zone_id',
    '  name    = "redirects"',
    '  kind    = "zone"',
    '  phase   = "http_request_dynamic_redirect"',
    '  rules = [{',
    '    action     = "redirect"',
    '    expression = "http.request.uri.path eq \\"/old\\""',
    '    action_parameters = { from_value = { target_url = { value = "https://example.com/" } } }',
    '  }]',
    '}',
    '',
    'resource "cloudflare_ruleset" "waf" {',
    '  zone_id = var.zone_id',
    '  name    = "waf"',
    '  kind    = "zone"',
    '  phase   = "http_request_firewall_custom"',
    '  rules = [{',
    '    action     = "block"',
    '    expression = "http.host eq \\"a\\" and http.request.uri.pth eq \\"/\\""',
    '  }]',
    '}',
    '',
  ].join('\n');

  it('finds .tf files with a cloudflare_ruleset in a folder search, skipping .terraform/ and other Terraform files', () => {
    const dir = tempFolder({
      'infra/main.tf': MAIN_TF,
      'infra/variables.tf': 'variable "zone_id" {\n  type = string\n}\n',
      'infra/.terraform/modules/copy/main.tf': MAIN_TF,
    });
    const result = run(['check', '.'], dir);
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /^infra\/main\.tf:20:42: error unknown-field unknown field `http\.request\.uri\.pth`/m);
    assert.match(result.stdout, /1 file checked: 1 error/);
    assert.doesNotMatch(result.stdout, /\.terraform|variables\.tf/);
  });

  it('reports a mistake in SARIF and JSON on the line and column of the .tf file', () => {
    const dir = tempFolder({ 'main.tf': MAIN_TF });
    // Errors only: its rules have no `ref`, which is a note of its own.
    const sarif = run(['check', 'main.tf', '--format', 'sarif', '--quiet'], dir);
    assert.equal(sarif.status, 1);
    const results = JSON.parse(sarif.stdout).runs[0].results as { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number; endColumn: number } } }[] }[];
    assert.deepEqual(
      results.map((r) => [r.ruleId, r.locations[0].physicalLocation.artifactLocation.uri, r.locations[0].physicalLocation.region.startLine, r.locations[0].physicalLocation.region.startColumn, r.locations[0].physicalLocation.region.endColumn]),
      [['unknown-field', 'main.tf', 20, 42, 62]],
    );
    const json = JSON.parse(run(['check', 'main.tf', '--format', 'json', '--quiet'], dir).stdout) as { files: { diagnostics: { code: string; range: { start: { line: number; character: number } } }[] }[] };
    assert.deepEqual(json.files[0].diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['unknown-field', 19, 41]]);
  });
});
