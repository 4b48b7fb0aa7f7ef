/**
 * The list of codes is what `.rulesets.yaml` checks its `rules` against: a code the checks
 * report but the list lacks could not be configured (the file would call it unknown), and a
 * listed severity that is wrong would let an error be turned off. So the list is held to the
 * checks' own sources, and to what they report for real mistakes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEM_CODES } from '../../server/src/language/problem';
import { checkRuleset } from '../../server/src/documents/ruleset';

const SOURCES = [join(__dirname, '..', '..', 'server', 'src', 'language'), join(__dirname, '..', '..', 'server', 'src', 'documents')];

/** Where a code is written in a check: `problem('code', …`, `report('code', …`, `fail('code', …`, `code: 'code'`, either branch of a `? 'a' : 'b'` there, or `'severity', 'code'` (expectOneOf). */
const CALL = String.raw`(?:\b(?:problem|report|fail|rangeWrittenOtherwise)\(|\bcode:)`;
const CODE_PLACES = [
  new RegExp(`${CALL}\\s*'([a-z]+(?:-[a-z0-9]+)+)'`, 'g'),
  new RegExp(`${CALL}[^,;()']*(?:'[a-z]+'[^,;()']*)?\\?\\s*'([a-z]+(?:-[a-z0-9]+)+)'`, 'g'),
  new RegExp(`${CALL}[^,;()']*(?:'[a-z]+'[^,;()']*)?\\?\\s*'[a-z-]+'\\s*:\\s*'([a-z]+(?:-[a-z0-9]+)+)'`, 'g'),
  /'(?:error|warning|information|hint)',\s*'([a-z]+(?:-[a-z0-9]+)+)'/g,
];
/** `problem('code', 'severity'` and `report('code', 'severity'`: the severity written beside the code. */
const WITH_SEVERITY = /\b(?:problem|report)\(\s*'([a-z]+(?:-[a-z0-9]+)+)',\s*'(error|warning|information|hint)'/g;

function sources(): { path: string; text: string }[] {
  return SOURCES.flatMap((folder) =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      // The project configuration's own findings are about that file, not a ruleset: they
      // cannot be configured, so they are not in the list.
      .filter((name) => name.endsWith('.ts') && !/(^|\/)(problem-codes|project-config)\.ts$/.test(name))
      .map((name) => ({ path: join(folder, name), text: readFileSync(join(folder, name), 'utf8').replace(/\s+/g, ' ') })),
  );
}

function codesInSources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const { path, text } of sources()) {
    for (const pattern of CODE_PLACES) for (const m of text.matchAll(pattern)) found.set(m[1], path);
  }
  return found;
}

describe('the list of problem codes', () => {
  it('holds every code the checks of a ruleset file report', () => {
    const missing = [...codesInSources()].filter(([code]) => !PROBLEM_CODES.has(code)).map(([code, path]) => `${code} (${path})`);
    assert.deepEqual(missing, [], 'add these to PROBLEM_CODES in server/src/language/problem-codes.ts');
  });

  it('holds no code that nothing reports', () => {
    const found = codesInSources();
    assert.deepEqual([...PROBLEM_CODES.keys()].filter((code) => !found.has(code)), []);
  });

  it('gives each code the severity the checks report it at', () => {
    const wrong: string[] = [];
    for (const { text } of sources()) {
      for (const [, code, severity] of text.matchAll(WITH_SEVERITY)) {
        if (PROBLEM_CODES.get(code)?.severity !== severity) wrong.push(`${code} is reported as ${severity}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('agrees with what the checks report for real mistakes', () => {
    const text = [
      'name: x',
      'kind: root',
      'phase: magic_transit',
      'colour: red',
      'rules:',
      '  - action: block',
      '    expression: tcp.dstprt == 22',
      '  - action: block',
      '    expression: ip.geoip.country == "br"',
      '  - action: block',
      '    expression: ip.src in {10.0.0.0/8 10.1.0.0/16}',
      '',
    ].join('\n');
    const found = checkRuleset(text, 'yaml').map((p) => [p.code, p.severity]);
    assert.deepEqual(found, [
      ['unknown-key', 'warning'],
      ['unknown-field', 'error'],
      ['deprecated-field', 'information'],
      ['country-code-case', 'warning'],
      ['redundant-set-member', 'warning'],
    ]);
    for (const [code, severity] of found) assert.equal(PROBLEM_CODES.get(code)?.severity, severity, code);
  });

  it('describes each code in one line', () => {
    for (const [code, info] of PROBLEM_CODES) {
      assert.match(info.description, /^[A-Z`].*\.$/, code);
      assert.ok(!info.description.includes('\n'), code);
    }
  });
});
