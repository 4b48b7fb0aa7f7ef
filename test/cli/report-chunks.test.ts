/** The text report written in chunks as it is made: the same text as textReport, in pieces of bounded size. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textReport, writeTextReport } from '../../server/src/cli/report';
import type { FileResult } from '../../server/src/cli/check';

const at = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

function file(path: string, findings: number): FileResult {
  const text = Array.from({ length: findings }, (_, i) => `  - expression: tcp.dstport == ${i}`).join('\n');
  return {
    path,
    text,
    diagnostics: Array.from({ length: findings }, (_, i) => ({ code: 'always-false', severity: i % 3 === 0 ? ('error' as const) : ('warning' as const), message: `finding ${i}`, range: at(i, 16, 32) })),
  };
}

describe('writeTextReport', () => {
  it('writes what textReport returns, in chunks of about 64 kB that end at line ends', () => {
    const results = [file('a.ruleset.yaml', 3000), file('b.ruleset.yaml', 0), file('c.ruleset.yaml', 2)];
    const chunks: string[] = [];
    writeTextReport(results, (chunk) => chunks.push(chunk));
    assert.ok(chunks.length > 1, `${chunks.length} chunk`);
    assert.equal(chunks.join(''), textReport(results));
    for (const chunk of chunks) {
      assert.ok(chunk.endsWith('\n'));
      assert.ok(chunk.length < 70 * 1024, `${chunk.length} characters`);
    }
    assert.match(chunks[chunks.length - 1], /3 files checked: 1001 errors, 2001 warnings\n$/);
  });

  it('writes one chunk, the summary, when there is nothing to report', () => {
    const chunks: string[] = [];
    writeTextReport([file('a.ruleset.yaml', 0)], (chunk) => chunks.push(chunk));
    assert.deepEqual(chunks, ['1 file checked, no problems\n']);
  });
});
