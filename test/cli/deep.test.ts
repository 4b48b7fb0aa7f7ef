/**
 * The CLI on input nested thousands of levels deep: documents, packets, lists and folders. A
 * user's mistake, however odd, is a message at its place and the documented exit status, never
 * "internal error" with a stack trace.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MAX_NESTING } from '../../server/src/documents/host/nesting';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function run(args: readonly string[], cwd: string, input?: string) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** No stack trace, no "internal error": what the user sees is about their input. */
function assertNoCrash(result: { stdout: string; stderr: string }): void {
  assert.doesNotMatch(result.stderr + result.stdout, /internal error|RangeError|call stack|\n\s+at /);
}

let dir: string;
before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  dir = mkdtempSync(join(tmpdir(), 'rulesets-deep-'));
});
// Not rmSync: node's own recursive removal runs out of stack in the folders 2,000 levels deep below.
after(() => spawnSync('rm', ['-rf', dir]));

const arrays = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);
const RULESET = 'name: ssh\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport == 22\n';
const TOO_DEEP = new RegExp(`nested too deeply.*${MAX_NESTING} levels`);

describe('rulesets check: documents nested 7,000 and 100,000 levels deep', () => {
  for (const n of [7_000, 100_000]) {
    it(`a syntax error at the place, exit 1, in JSON and YAML, ${n} levels`, () => {
      const files: Record<string, [string, string]> = {
        'arrays.ruleset.json': [`{"name": "d", "kind": "root", "phase": "magic_transit", "rules": ${arrays(n)}}\n`, `arrays.ruleset.json:1:${65 + MAX_NESTING}:`],
        'typed.ruleset.json': [`{"rules": ${'['.repeat(n)}`, `typed.ruleset.json:1:${10 + MAX_NESTING}:`],
        'flow.ruleset.yaml': [`name: d\nkind: root\nphase: magic_transit\nrules: []\nextra: ${arrays(n)}\n`, `flow.ruleset.yaml:5:${8 + MAX_NESTING - 1}:`],
        'block.ruleset.yml': [`name: d\nkind: root\nphase: magic_transit\nrules: []\nextra:\n  ${'- '.repeat(n)}1\n`, `block.ruleset.yml:6:${3 + 2 * (MAX_NESTING - 1)}:`],
      };
      for (const [name, [text]] of Object.entries(files)) writeFileSync(join(dir, name), text);
      for (const [name, [, place]] of Object.entries(files)) {
        const result = run(['check', name], dir);
        assertNoCrash(result);
        assert.equal(result.status, 1, `${name}: ${result.stderr}`);
        const lines = result.stdout.split('\n');
        // YAML goes on reading what is not too deep: the unknown key `extra` is a warning too.
        const header = lines.findIndex((line) => TOO_DEEP.test(line));
        assert.ok(lines[header]?.startsWith(`${place} error `), `${name}: ${result.stdout.slice(0, 300)}`);
        // The source line is long: a window around the place is printed, not the whole line.
        assert.ok(lines[header + 1].length < 200);
      }
      const stdin = run(['check', '-'], dir, files['arrays.ruleset.json'][0]);
      assertNoCrash(stdin);
      assert.equal(stdin.status, 1);
      assert.match(stdin.stdout, TOO_DEEP);
    });
  }

  it('a deep project configuration stops the run with its place, exit 2', () => {
    const project = join(dir, 'project');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, '.rulesets.yaml'), `phase: magic_transit\nlists: ${arrays(100_000)}\n`);
    writeFileSync(join(project, 'a.ruleset.yaml'), RULESET);
    const result = run(['check', 'a.ruleset.yaml'], project);
    assertNoCrash(result);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /\.rulesets\.yaml:2:\d+: error yaml-syntax nested too deeply/);
  });
});

describe('rulesets test: packets, lists and test files nested 7,000 and 100,000 levels deep', () => {
  before(() => writeFileSync(join(dir, 'ssh.ruleset.yaml'), RULESET));

  it('--packet JSON nested deep is a usage error that says what was found, exit 2', () => {
    // 100,000 levels do not fit in one argument (the system allows 128 KiB): @FILE below.
    for (const packet of [`{"tcp.dstport": ${arrays(7_000)}}`, arrays(7_000), `{"$lists": ${arrays(7_000)}}`]) {
      const result = run(['test', 'ssh.ruleset.yaml', '--packet', packet], dir);
      assertNoCrash(result);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /^rulesets: --packet: expected .*found `\[\[\[.{0,60}`\n$/);
    }
  });

  for (const n of [7_000, 100_000]) {
    it(`--packet @FILE, --lists FILE and a test file, ${n} levels: the place and exit 2`, () => {
      writeFileSync(join(dir, 'packet.json'), `{"tcp.dstport": ${arrays(n)}}`);
      writeFileSync(join(dir, 'lists.yaml'), `office: ${arrays(n)}\n`);
      writeFileSync(join(dir, 'ssh.ruleset.test.yaml'), `- packet: {tcp.dstport: ${arrays(n)}}\n  expect: pass\n`);
      const packet = run(['test', 'ssh.ruleset.yaml', '--packet', '@packet.json'], dir);
      assertNoCrash(packet);
      assert.equal(packet.status, 2);
      assert.match(packet.stderr, new RegExp(`packet\\.json:1:${16 + MAX_NESTING}: nested too deeply`));
      const lists = run(['test', 'ssh.ruleset.yaml', '--packet', '{"tcp.dstport": 22}', '--lists', 'lists.yaml'], dir);
      assertNoCrash(lists);
      assert.equal(lists.status, 2);
      assert.match(lists.stderr, /lists\.yaml:1:\d+: nested too deeply/);
      const cases = run(['test', 'ssh.ruleset.test.yaml'], dir);
      assertNoCrash(cases);
      assert.equal(cases.status, 2);
      assert.match(cases.stdout, /ssh\.ruleset\.test\.yaml:1:\d+: .*nested too deeply/);
    });
  }
});

describe('folders nested as deep as paths go', () => {
  /** Folders `a/a/a/…` under `base`, as many as a path of 4,096 bytes (Linux's PATH_MAX) holds with room for a file name. */
  function deepFolders(base: string, room: number): string {
    const levels = Math.floor((4_090 - room - base.length) / 2);
    const deepest = join(base, ...Array.from({ length: levels }, () => 'a'));
    mkdirSync(deepest, { recursive: true });
    return deepest;
  }

  it('rulesets test searches them without running out of stack (it did at about 1,900 levels)', () => {
    const base = join(dir, 't');
    deepFolders(base, 0);
    const result = run(['test', base], dir);
    assertNoCrash(result);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /no test files/);
  });

  it('rulesets check finds and checks a ruleset at the bottom', () => {
    const base = join(dir, 'c');
    const deepest = deepFolders(base, 'x.ruleset.yaml'.length + 1);
    writeFileSync(join(deepest, 'x.ruleset.yaml'), RULESET);
    const result = run(['check', base], dir);
    assertNoCrash(result);
    assert.equal(result.status, 0, result.stderr.slice(0, 300));
    assert.match(result.stdout, /1 file checked/);
  });
});
