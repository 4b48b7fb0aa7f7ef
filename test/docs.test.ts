/**
 * README is the users' page and docs/ holds the rest: README stays short enough to read (at most
 * 450 lines), every page of docs/ is linked from it, and every relative link of README and docs/
 * names a file that exists (a page moved without its links is found here).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pages = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));

/** The relative links of a Markdown text (`[…](path#anchor)`), without their anchors. */
function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1];
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
    links.push(target.replace(/#.*$/, ''));
  }
  return links;
}

describe('README and docs/', () => {
  it('README is at most 450 lines', () => {
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 450, `README.md has ${lines} lines`);
  });

  it('README links every page of docs/', () => {
    const linked = new Set(relativeLinks(readme).map((link) => link.replace(/^\.\//, '')));
    assert.deepEqual(pages.filter((page) => !linked.has(`docs/${page}`)), []);
  });

  it('every relative link of README and docs/ names a file that exists', () => {
    const broken: string[] = [];
    for (const [file, text] of [['README.md', readme] as const, ...pages.map((page) => [join('docs', page), readFileSync(join(ROOT, 'docs', page), 'utf8')] as const)]) {
      for (const link of relativeLinks(text)) if (!existsSync(join(ROOT, dirname(file), decodeURI(link)))) broken.push(`${file}: ${link}`);
    }
    assert.deepEqual(broken, []);
  });
});
