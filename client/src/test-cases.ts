/**
 * The Test Explorer's view of test files (`NAME.ruleset.test.yaml`) without VS Code: the item of
 * each case (id, label, place), the results of a run, and which files a saved file makes stale.
 * The run is the one `rulesets test` does (server/src/evaluation/test-file-run.ts);
 * test-explorer.ts only turns these into TestItems and TestMessages, and tests call these directly.
 */
import { dirname, join } from 'node:path';
import {
  caseOutput,
  fileProblemOutput,
  formatOfDocument,
  isTestProblem,
  lineAndCharacter,
  linePosition,
  listsOfTestFile,
  loadTestRuleset,
  plain,
  property,
  readTestFile,
  runTestCase,
  type HostNode,
  type RulesetRead,
  type TestCase,
  type TestFile,
  type TestProblem,
} from '../../server/src/core';

/** The test files the explorer shows: what the language server checks as test files. */
export const TEST_FILE_GLOB = '**/*.ruleset.test.{yaml,yml,json}';

export interface Place {
  readonly path: string;
  /** 0-based, as editors count. */
  readonly line: number;
  readonly character: number;
}

export interface CaseItem {
  /** Stable while the file is edited: the case's name, else its position. */
  readonly id: string;
  readonly label: string;
  readonly start: Place;
  readonly end: Place;
}

/** A test file as the explorer reads it: `path` is a file system path, `languageId` the editor's (if open). */
export function parseTestFile(path: string, text: string, languageId = ''): TestFile | undefined {
  const format = formatOfDocument(languageId, path);
  if (!format) return undefined;
  // `ruleset:` is resolved as `rulesets test` resolves it.
  return readTestFile(text, format, { path, resolve: (named) => join(dirname(path), named) });
}

/** One item per case, in the file's order. */
export function caseItems(file: TestFile): CaseItem[] {
  const ids = caseIds(file.cases);
  return file.cases.map((testCase, i) => ({
    id: ids[i],
    label: caseLabel(testCase),
    start: place(file.path, file.text, testCase.start),
    end: place(file.path, file.text, testCase.end),
  }));
}

/** By name when the name is the file's only case of that name; else by position, from 1. */
function caseIds(cases: readonly TestCase[]): string[] {
  const count = new Map<string, number>();
  for (const c of cases) if (c.name !== undefined) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  return cases.map((c) => (c.name !== undefined && count.get(c.name) === 1 ? `name:${c.name}` : `case:${c.index + 1}`));
}

/**
 * The case's name; a case without one is shown by its packet's or request's keys and values,
 * `ip.proto: tcp, tcp.dstport: 80`, `url: https://example.com/login, method: POST`.
 */
export function caseLabel(testCase: TestCase): string {
  if (testCase.name !== undefined && testCase.name.trim() !== '') return testCase.name;
  const given = property(testCase.node, 'packet')?.value ?? property(testCase.node, 'request')?.value;
  if (given?.kind === 'object' && given.properties.length > 0) {
    return given.properties.map((p) => `${p.key}: ${valueText(p.value)}`).join(', ');
  }
  return `case ${testCase.index + 1}`;
}

function valueText(node: HostNode | undefined): string {
  const value = plain(node);
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

export function place(path: string, text: string, offset: number): Place {
  return { path, ...lineAndCharacter(text, offset) };
}

export type CaseResult =
  | { readonly id: string; readonly outcome: 'passed'; readonly message: string; readonly output: string }
  | {
      readonly id: string;
      readonly outcome: 'failed';
      /** `expected pass, got block by rule 2 (Block TCP) at a.ruleset.yaml:10:5` */
      readonly message: string;
      readonly expected: string;
      readonly actual: string;
      readonly place: Place;
      /** The CLI's lines for the case, with each rule looked at. */
      readonly output: string;
    }
  | { readonly id: string; readonly outcome: 'errored'; readonly message: string; readonly place: Place; readonly output: string };

export interface FileRun {
  /** What stopped every case, at its place (in the test file or in its ruleset). */
  readonly problem?: { readonly message: string; readonly place: Place; readonly output: string };
  readonly results: readonly CaseResult[];
}

/**
 * Runs the cases of `file` whose ids are in `only` (all when absent) against its ruleset, read
 * through `read`; `display` is the test file's path as the output shows it.
 */
export function runTestFile(file: TestFile, read: (path: string) => RulesetRead, display: string, only?: ReadonlySet<string>): FileRun {
  const ids = caseIds(file.cases);
  const selected = file.cases.map((testCase, i) => ({ testCase, id: ids[i] })).filter(({ id }) => !only || only.has(id));
  const at = (offset: number) => `${display}:${linePosition(file.text, offset)}`;
  const loaded = loadTestRuleset(file, read);
  if (isTestProblem(loaded)) {
    const problem = problemOf(file, loaded, at);
    return { problem, results: selected.map(({ id }) => ({ id, outcome: 'errored', message: problem.message, place: problem.place, output: problem.output })) };
  }
  const lists = listsOfTestFile(file);
  return {
    results: selected.map(({ testCase, id }): CaseResult => {
      const outcome = runTestCase(testCase, loaded, lists);
      const output = caseOutput(at, testCase, outcome);
      if (outcome.kind === 'pass') return { id, outcome: 'passed', message: outcome.message, output };
      const where = place(file.path, file.text, outcome.offset ?? testCase.start);
      if (outcome.kind === 'fail') return { id, outcome: 'failed', message: outcome.message, expected: outcome.expected ?? '', actual: outcome.actual ?? '', place: where, output };
      return { id, outcome: 'errored', message: outcome.message, place: where, output };
    }),
  };
}

function problemOf(file: TestFile, problem: TestProblem, at: (offset: number) => string): NonNullable<FileRun['problem']> {
  // The output says every problem of the file itself, as `rulesets test` does; the message, the first.
  const output = (file.problems.length > 0 ? file.problems : [problem]).map((p) => fileProblemOutput(at, p)).join('');
  if (problem.ruleset) {
    const { path, display, text } = problem.ruleset;
    return { message: `${display}: ${problem.message}`, place: place(path, text, problem.offset), output };
  }
  return { message: problem.message, place: place(file.path, file.text, problem.offset), output };
}

/**
 * The test files to run again when these files were saved: a test file itself, or one whose
 * ruleset (any path it may be read from) is among them, or whose Terraform ruleset's module
 * (a `.tf` or `.tfvars` file of its folder) is.
 */
export function testFilesAffected(saved: Iterable<string>, rulesetPathsByTestFile: ReadonlyMap<string, readonly string[]>): Set<string> {
  const changed = new Set(saved);
  // A Terraform ruleset's rules come from its module: a saved `.tf` or `.tfvars` file of its folder changes them.
  const moduleFolders = new Set([...changed].filter((path) => /\.(tf|tfvars|tfvars\.json)$/i.test(path)).map((path) => dirname(path)));
  const affected = new Set<string>();
  for (const [testFile, rulesets] of rulesetPathsByTestFile) {
    if (changed.has(testFile) || rulesets.some((path) => changed.has(path) || (/\.tf$/i.test(path) && moduleFolders.has(dirname(path))))) affected.add(testFile);
  }
  return affected;
}
