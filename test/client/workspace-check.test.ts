/**
 * "Rulesets: Check Workspace": where its search for files does not look, and the sentence
 * the notification says when the check is done.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeCheck, searchExclude } from '../../client/src/workspace-check';
import type { CheckFilesResult } from '../../server/src/protocol';

const run = (counts: Partial<CheckFilesResult>): CheckFilesResult => ({ rulesets: 0, withProblems: 0, errors: 0, warnings: 0, others: 0, unreadable: [], cancelled: false, ...counts });

describe('Check Workspace: the search', () => {
  it('skips dependencies and hidden folders, as rulesets check does in a folder', () => {
    assert.equal(searchExclude(), '{**/node_modules/**,**/.*/**}');
  });

  it("keeps out what files.exclude and search.exclude keep out, since an exclude pattern turns off findFiles' own", () => {
    const files = { '**/.git': true, '**/build': true, '**/*.log': false };
    const search = { '**/node_modules': true, '**/dist/**': true, '**/*.js': { when: '$(basename).ts' } };
    assert.equal(searchExclude(files, search), '{**/node_modules/**,**/.*/**,**/.git,**/build,**/node_modules,**/dist/**}');
  });

  it('passes over a pattern with braces of its own, which VS Code cannot nest', () => {
    assert.equal(searchExclude({ '**/*.{tmp,bak}': true, 'out,old': true }), '{**/node_modules/**,**/.*/**}');
  });
});

describe('Check Workspace: what it says when done', () => {
  it('counts the rulesets and the problems in them', () => {
    assert.deepEqual(describeCheck(run({ rulesets: 12, withProblems: 4, errors: 3, warnings: 2 })), { message: '12 rulesets checked: 3 errors and 2 warnings in 4 files.', problems: true });
    assert.equal(describeCheck(run({ rulesets: 1, withProblems: 1, warnings: 1 })).message, '1 ruleset checked: 1 warning in 1 file.');
    assert.equal(describeCheck(run({ rulesets: 2, withProblems: 1, errors: 1, warnings: 1, others: 2 })).message, '2 rulesets checked: 1 error, 1 warning and 2 notes in 1 file.');
  });

  it('says when there is nothing to fix', () => {
    assert.deepEqual(describeCheck(run({ rulesets: 3 })), { message: '3 rulesets checked: no problems.', problems: false });
  });

  it('says what makes a file a ruleset when it found none', () => {
    const { message, problems } = describeCheck(run({}));
    assert.equal(problems, false);
    assert.match(message, /^No ruleset in the workspace: a ruleset file is named \*\.ruleset\.json, \.yaml or \.yml, matches a rulesets\.files pattern/);
  });

  it('says a cancelled run stopped, with what it found so far', () => {
    assert.equal(describeCheck(run({ rulesets: 5, withProblems: 2, errors: 3, cancelled: true })).message, 'Check stopped: 5 rulesets checked so far, 3 errors in 2 files.');
    assert.equal(describeCheck(run({ cancelled: true })).message, 'Check stopped: 0 rulesets checked so far, no problems.');
  });

  it('says how many files could not be read', () => {
    assert.equal(describeCheck(run({ rulesets: 1, unreadable: ['file:///w/a.ruleset.yaml', 'file:///w/b.ruleset.yaml'] })).message, '1 ruleset checked: no problems. 2 files could not be read.');
  });
});
