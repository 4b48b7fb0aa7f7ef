/**
 * CHANGELOG.md is what a user reads before updating (and what VS Code shows on the extension's
 * page): releases in the Keep a Changelog 1.1.0 shape, the newest one the version package.json
 * (and so the `.vsix`) carries, each entry one change in users' words. The checks run on planted
 * texts too, so that they cannot pass by checking nothing. Fast: reads two files, builds nothing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/** The section names Keep a Changelog 1.1.0 allows under a release. */
const SECTIONS = new Set(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']);
/** An entry says one thing: it may wrap, but not run on into a paragraph. */
const MAX_ENTRY_LINES = 4;

/** The releases of a changelog, newest first, as its `## [x.y.z] - YYYY-MM-DD` headings give them. */
function releases(text: string): { version: string; date: string }[] {
  return [...text.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((match) => ({ version: match[1], date: match[2] }));
}

/** `a` after `b` in SemVer's order of x.y.z (no pre-release parts here). */
function newer(a: string, b: string): boolean {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}

function isCalendarDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date);
}

/** What in `text` breaks the Keep a Changelog shape or our rules for it, one message a problem with its line. */
function changelogProblems(text: string, packageVersion: string): string[] {
  // Comments (the note on link references) are for maintainers: blank them, keeping line numbers.
  const lines = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, '')).split('\n');
  const problems: string[] = [];
  if (lines[0] !== '# Changelog') problems.push('line 1: the title is not "# Changelog"');
  if (!text.includes('https://keepachangelog.com/en/1.1.0/') || !text.includes('https://semver.org/')) problems.push('the header paragraph does not link Keep a Changelog 1.1.0 and Semantic Versioning');
  let release: string | undefined; // the `##` heading we are under
  let section: string | undefined; // the `###` heading we are under
  let seenSections = new Set<string>();
  let entriesInRelease = 0;
  let entryStart = 0;
  let entryLines = 0;
  const endRelease = () => {
    if (release !== undefined && release !== 'Unreleased' && entriesInRelease === 0) problems.push(`release ${release} has no entry`);
  };
  lines.forEach((line, index) => {
    const at = `line ${index + 1}`;
    if (/\bissues?\s*#?\d+/i.test(line)) problems.push(`${at}: names an internal issue number: ${line.trim()}`);
    if (/^#{4,}\s/.test(line)) problems.push(`${at}: a heading below a section: ${line}`);
    if (line.startsWith('## ')) {
      endRelease();
      const heading = /^## \[(Unreleased|\d+\.\d+\.\d+)\](?: - (\d{4}-\d{2}-\d{2}))?$/.exec(line);
      if (!heading || (heading[1] === 'Unreleased') !== (heading[2] === undefined)) problems.push(`${at}: not "## [Unreleased]" nor "## [x.y.z] - YYYY-MM-DD": ${line}`);
      else if (heading[2] !== undefined && !isCalendarDate(heading[2])) problems.push(`${at}: no such date: ${heading[2]}`);
      if (heading?.[1] === 'Unreleased' && release !== undefined) problems.push(`${at}: "## [Unreleased]" is not the first release heading`);
      if (release === undefined && heading?.[1] !== 'Unreleased') problems.push(`${at}: the first release heading is not "## [Unreleased]"`);
      release = heading?.[1] ?? line;
      section = undefined;
      seenSections = new Set();
      entriesInRelease = 0;
      entryLines = 0;
      return;
    }
    if (line.startsWith('### ')) {
      const name = line.slice(4);
      if (release === undefined) problems.push(`${at}: a section outside any release: ${line}`);
      if (!SECTIONS.has(name)) problems.push(`${at}: a section Keep a Changelog does not name (${[...SECTIONS].join(', ')}): ${line}`);
      else if (seenSections.has(name)) problems.push(`${at}: a second "${name}" in release ${release}`);
      seenSections.add(name);
      section = name;
      entryLines = 0;
      return;
    }
    if (section === undefined) return; // the header paragraph, a release's summary
    if (line.startsWith('- ')) {
      entriesInRelease++;
      entryStart = index + 1;
      entryLines = 1;
    } else if (line.startsWith('  ') && entryLines > 0) {
      entryLines++;
      if (entryLines === MAX_ENTRY_LINES + 1) problems.push(`line ${entryStart}: an entry of more than ${MAX_ENTRY_LINES} lines (one change a line, wrapped at most)`);
    } else if (line.trim() === '') {
      entryLines = 0;
    } else problems.push(`${at}: neither an entry ("- …") nor its continuation: ${line}`);
  });
  endRelease();
  const found = releases(text);
  for (let i = 1; i < found.length; i++) {
    if (!newer(found[i - 1].version, found[i].version)) problems.push(`release ${found[i - 1].version} is listed above ${found[i].version}, which is not older`);
    if (found[i - 1].date < found[i].date) problems.push(`release ${found[i - 1].version} is dated before the older ${found[i].version}`);
  }
  if (found.length === 0) problems.push('no release heading "## [x.y.z] - YYYY-MM-DD"');
  else if (found[0].version !== packageVersion) problems.push(`the newest release is ${found[0].version}, package.json's version ${packageVersion}`);
  return problems;
}

const GOOD = `# Changelog

The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),
and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).

## [Unreleased]

## [0.2.0] - 2026-12-20

### Fixed

- A fix that wraps
  over two lines.

## [0.1.0] - 2026-12-07

### Added

- Something.
`;

describe('CHANGELOG.md', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');

  it('is in the Keep a Changelog shape, its newest release the version package.json and the .vsix carry', () => {
    assert.deepEqual(changelogProblems(changelog, manifest.version), []);
    assert.equal(releases(changelog)[0]?.version, manifest.version);
  });

  it('names no internal issue numbers', () => {
    assert.deepEqual(changelog.split('\n').filter((line) => /\bissue\s+\d+/i.test(line)), []);
  });

  it('accepts a well-formed changelog, and refuses each way of breaking it', () => {
    assert.deepEqual(changelogProblems(GOOD, '0.2.0'), []);
    const broken: [string, string, RegExp][] = [
      ['version behind package.json', GOOD, /newest release is 0\.2\.0, package\.json's version 0\.3\.0/],
      ['issue number', GOOD.replace('- Something.', '- Something (issue 34).'), /internal issue number/],
      ['section with an issue', GOOD.replace('### Added', '### Added (issue 35: a library)'), /does not name/],
      ['section not allowed', GOOD.replace('### Fixed', '### Faster'), /does not name/],
      ['no Unreleased', GOOD.replace('## [Unreleased]\n', ''), /first release heading is not "## \[Unreleased\]"/],
      ['Unreleased without brackets', GOOD.replace('## [Unreleased]', '## Unreleased'), /not "## \[Unreleased\]"/],
      ['release without a date', GOOD.replace('## [0.1.0] - 2026-12-07', '## [0.1.0]'), /not "## \[Unreleased\]" nor/],
      ['impossible date', GOOD.replace('2026-12-07', '2026-02-30'), /no such date/],
      ['releases out of order', GOOD.replace('[0.2.0]', '[0.0.9]'), /listed above/],
      ['empty release', GOOD.replace('### Added\n\n- Something.\n', ''), /release 0\.1\.0 has no entry/],
      ['paragraph entry', GOOD.replace('- Something.', '- Something\n  that\n  runs\n  on and\n  on.'), /more than 4 lines/],
      ['prose in a section', GOOD.replace('- Something.', 'Something.'), /neither an entry/],
      ['sub-heading', GOOD.replace('- Something.', '#### CLI\n- Something.'), /heading below a section/],
    ];
    for (const [name, text, expected] of broken) {
      const problems = changelogProblems(text, name === 'version behind package.json' ? '0.3.0' : '0.2.0');
      assert.ok(problems.some((problem) => expected.test(problem)), `${name}: ${JSON.stringify(problems)}`);
    }
  });
});
