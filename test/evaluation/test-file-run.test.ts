/**
 * Running a test file as `rulesets test` and the VS Code Test Explorer both do: the cases and
 * their places, the ruleset found beside the file or named by it, and each case's outcome.
 * The files are given as text: the reader stands for the disk or an editor's unsaved text.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  isTestProblem,
  listsOfTestFile,
  loadTestRuleset,
  readTestFile,
  runTestCase,
  traceLines,
  type RulesetRead,
  type TestFile,
  type TestRuleset,
} from '../../server/src/evaluation/test-file-run';
import { lineAndCharacter, linePosition } from '../../server/src/documents/positions';
import { parseLists } from '../../server/src/evaluation/packet';
import { SSH_TCP_BAD_RULESET } from '../fixtures/rulesets';

const CASES = `- name: ssh
  packet: {ip.proto: tcp, tcp.dstport: 22}
  expect: pass
  rule: Let SSH through
- name: wrong on purpose
  packet: {ip.proto: tcp, tcp.dstport: 80}
  expect: pass
- packet: {ip.proto: tcp, tcp.dstport: 99999}
  expect: block
`;

/** A folder of files by path; `/w/` stands for the workspace. */
function files(contents: Record<string, string>): (path: string) => RulesetRead {
  return (path) => (path in contents ? { text: contents[path], display: path.replace('/w/', '') } : undefined);
}

function read(text: string, path = '/w/a.ruleset.test.yaml'): TestFile {
  return readTestFile(text, 'yaml', { path, resolve: (named) => `/w/${named}` });
}

function load(file: TestFile, reader: (path: string) => RulesetRead): TestRuleset {
  const loaded = loadTestRuleset(file, reader);
  assert.ok(!isTestProblem(loaded), isTestProblem(loaded) ? loaded.message : '');
  return loaded;
}

/** `line:col` of a needle in the text, as the CLI prints places. */
function at(text: string, needle: string): string {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, needle);
  return linePosition(text, offset);
}

describe('a test file: its cases and their places', () => {
  it('lists each case with its name and where it starts and ends', () => {
    const file = read(CASES);
    assert.equal(file.problem, undefined);
    assert.deepEqual(
      file.cases.map((c) => [c.name, linePosition(CASES, c.start), linePosition(CASES, c.end)]),
      [
        ['ssh', '1:3', '4:24'],
        ['wrong on purpose', '5:3', '7:15'],
        [undefined, '8:3', '9:16'],
      ],
    );
  });

  it('looks for NAME.ruleset.yaml, .yml, .json beside it, or the file `ruleset:` names', () => {
    assert.deepEqual(read(CASES).rulesetPaths, ['/w/a.ruleset.yaml', '/w/a.ruleset.yml', '/w/a.ruleset.json', '/w/a.ruleset.tf']);
    const named = read('ruleset: rules/main.yaml\ncases:\n  - packet: {}\n    expect: pass\n', '/w/main.test.yaml');
    assert.deepEqual([named.rulesetPaths, named.rulesetNamed, named.cases.length], [['/w/rules/main.yaml'], true, 1]);
  });

  it('keeps its cases when the file as a whole is wrong, with the problem at its place', () => {
    const text = 'ruleset: a.ruleset.yaml\nlist: {}\ncases:\n  - packet: {}\n    expect: pass\n';
    const file = read(text);
    assert.equal(file.cases.length, 1);
    assert.equal(file.problem?.message, "unknown key `list`; did you mean `lists`? a test file has `ruleset`, `resource` or `section` (which ruleset of a Terraform or octorules file), `variables` (a Terraform module's), `lists` and `cases`");
    assert.equal(linePosition(text, file.problem.offset), '2:1');
  });

  it('gives every problem of the file itself, in the order of their places, each from its start to its end', () => {
    const text = 'section: 7\nlist: {}\nruleset: [a]\nlists: {bad: [not-an-ip]}\ncases:\n  - packet: {}\n    expect: pass\n';
    const file = read(text);
    assert.deepEqual(
      file.problems.map((p) => [linePosition(text, p.offset), text.slice(p.offset, p.end)]),
      [['1:10', '7'], ['2:1', 'list'], ['3:10', '[a]'], ['4:8', '{bad: [not-an-ip]}']],
    );
    assert.equal(file.problem, file.problems[0], 'the first is what stops every case');
    assert.equal(file.cases.length, 1);
  });

  it('a file that is not a list of cases, or does not parse, is one problem with no cases', () => {
    assert.match(read('packet: {}\n').problem?.message ?? '', /^expected a list of cases/);
    const broken = read('- packet: {ip.proto: tcp\n  expect: pass\n');
    assert.ok(broken.problem, 'a syntax error');
  });
});

describe('a test file: its ruleset', () => {
  it('is read through the reader, so an editor can give its unsaved text', () => {
    const edited = SSH_TCP_BAD_RULESET.replace('tcp.dstport in {22}', 'tcp.dstport in {80}');
    const file = read(CASES);
    const ruleset = load(file, files({ '/w/a.ruleset.yaml': edited }));
    assert.equal(ruleset.path, '/w/a.ruleset.yaml');
    assert.equal(runTestCase(file.cases[1], ruleset, file.lists).kind, 'pass', 'port 80 is let through by the edited skip rule');
  });

  it('the first of NAME.ruleset.yaml, .yml, .json that exists', () => {
    const ruleset = load(read(CASES), files({ '/w/a.ruleset.json': '{"rules": []}', '/w/a.ruleset.yml': SSH_TCP_BAD_RULESET }));
    assert.equal(ruleset.path, '/w/a.ruleset.yml');
  });

  it('none beside the file: says which name it looked for, and how to name another', () => {
    const problem = loadTestRuleset(read(CASES), files({}));
    assert.ok(isTestProblem(problem));
    assert.deepEqual([problem.message, problem.offset, problem.ruleset], ['no ruleset beside this test file: expected a.ruleset.yaml (or name it with `ruleset:`)', 0, undefined]);
  });

  it('a named file that is missing, unreadable or not JSON or YAML is named in the problem', () => {
    const named = (path: string) => read(`ruleset: ${path}\ncases: []\n`, '/w/main.test.yaml');
    const message = (file: TestFile, reader: (path: string) => RulesetRead) => {
      const loaded = loadTestRuleset(file, reader);
      return isTestProblem(loaded) ? loaded.message : 'loaded';
    };
    assert.equal(message(named('nope.yaml'), files({})), '/w/nope.yaml: no such file');
    assert.equal(message(named('rules.txt'), files({ '/w/rules.txt': SSH_TCP_BAD_RULESET })), '/w/rules.txt: not a ruleset file (expected .json, .yaml, .yml or .tf)');
    assert.equal(message(named('locked.yaml'), () => ({ problem: '/w/locked.yaml: cannot read the file (EACCES)' })), '/w/locked.yaml: cannot read the file (EACCES)');
  });

  it('a ruleset that cannot run is a problem in the ruleset, at the expression with errors', () => {
    const broken = SSH_TCP_BAD_RULESET.replace('tcp.dstport in {22}', 'tcp.dstport in {22, 23}');
    const problem = loadTestRuleset(read(CASES), files({ '/w/a.ruleset.yaml': broken }));
    assert.ok(isTestProblem(problem));
    assert.match(problem.message, /^rule 1's expression has errors \(expected whitespace between set items/);
    assert.equal(problem.ruleset?.path, '/w/a.ruleset.yaml');
    assert.equal(linePosition(broken, problem.offset), at(broken, ', 23}'));
  });
});

describe('a test case: its outcome', () => {
  const file = read(CASES);
  const ruleset = load(file, files({ '/w/a.ruleset.yaml': SSH_TCP_BAD_RULESET }));
  const [ssh, wrong, badPort] = file.cases.map((c) => runTestCase(c, ruleset, listsOfTestFile(file)));

  it('passes when the ruleset decides as expected, by the rule expected', () => {
    assert.equal(ssh.kind, 'pass');
    assert.equal(ssh.message, 'pass by rule 1 (Let SSH through) at a.ruleset.yaml:5:5 (a skip rule: the rest of the ruleset is skipped)');
  });

  it('fails with what was expected and what the ruleset did, and how it came to it', () => {
    assert.equal(wrong.kind, 'fail');
    assert.equal(wrong.message, 'expected pass, got block by rule 2 (Block TCP) at a.ruleset.yaml:10:5');
    assert.deepEqual([wrong.expected, wrong.actual], ['pass', 'block by rule 2 (Block TCP)']);
    assert.equal(traceLines(wrong.verdict!), '  rule 1 (Let SSH through) [skip]: no match\n  rule 2 (Block TCP) [block]: match\n');
  });

  it('a wrong deciding rule fails too, naming both rules', () => {
    const text = '- packet: {ip.proto: tcp, tcp.dstport: 80}\n  expect: block\n  rule: 3\n';
    const one = read(text);
    const outcome = runTestCase(one.cases[0], ruleset, one.lists);
    assert.deepEqual([outcome.kind, outcome.expected, outcome.actual], ['fail', 'block by rule 3 (Bad sources)', 'block by rule 2 (Block TCP)']);
  });

  it('bad input is an error at the value at fault', () => {
    assert.equal(badPort.kind, 'error');
    assert.equal(badPort.message, 'packet: 99999 is outside the values of `tcp.dstport` (0–65535)');
    assert.equal(linePosition(CASES, badPort.offset!), at(CASES, '99999'));
  });

  it('a packet whose fields its protocol does not have is an error at the field', () => {
    const text = '- packet: {ip.proto: udp, tcp.dstport: 22}\n  expect: pass\n';
    const one = read(text);
    const outcome = runTestCase(one.cases[0], ruleset, one.lists);
    assert.equal(outcome.kind, 'error');
    assert.equal(outcome.message, 'packet: `tcp.dstport` is a field of the TCP header, but `ip.proto` is "udp": remove `tcp.dstport`, or give `ip.proto` as "tcp"');
    assert.equal(linePosition(text, outcome.offset!), at(text, '22}'));
  });

  it('the file\'s own lists, over those given from outside, decide list membership', () => {
    const text = 'ruleset: a.ruleset.yaml\nlists:\n  bad: [10.0.0.0/8]\ncases:\n  - packet: {ip.src: 10.9.9.9, ip.proto: udp}\n    expect: block\n    rule: Bad sources\n';
    const withLists = read(text, '/w/main.test.yaml');
    const outside = parseLists({ bad: ['192.0.2.0/24'], other: ['10.0.0.1'] });
    const lists = listsOfTestFile(withLists, outside);
    assert.deepEqual([...lists.keys()].sort(), ['bad', 'other']);
    assert.equal(runTestCase(withLists.cases[0], load(withLists, files({ '/w/a.ruleset.yaml': SSH_TCP_BAD_RULESET })), lists).kind, 'pass');
  });
});

describe('places', () => {
  it('line and column as editors count them (0-based) and as the CLI prints them (1-based)', () => {
    const text = 'a\nbc\n  d';
    assert.deepEqual(lineAndCharacter(text, text.indexOf('d')), { line: 2, character: 2 });
    assert.equal(linePosition(text, text.indexOf('d')), '3:3');
  });
});
