/** How the text report quotes a source line: whole when it is short, a window when it is long. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EXCERPT_WIDTH, excerpt, findingLines, splitLines, textReport } from '../../server/src/cli/report';

const at = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

describe('excerpt', () => {
  it('quotes a short line whole, with carets under the span', () => {
    assert.deepEqual(excerpt(['  expression: tcp.dstprt == 22'], at(0, 14, 24)), ['    expression: tcp.dstprt == 22', `  ${' '.repeat(14)}${'^'.repeat(10)}`]);
  });

  it('keeps TABs before the span, so the carets stand under the same characters', () => {
    assert.deepEqual(excerpt(['\tx == 1'], at(0, 1, 2)), ['  \tx == 1', '  \t^']);
  });

  it('quotes a window of a long line (a ruleset saved as one line of JSON), its carets under the span', () => {
    const line = `${'{"rules":[{"a":1},'.repeat(5000)}{"expression": "tcp.dstprt == 22"}]}`;
    const start = line.indexOf('tcp.dstprt');
    const [source, carets] = excerpt([line], at(0, start, start + 10));
    assert.ok(source.length <= EXCERPT_WIDTH + 4, `${source.length} characters`);
    assert.ok(source.startsWith('  …') && source.includes('tcp.dstprt == 22'));
    assert.equal(source.indexOf('tcp.dstprt'), carets.indexOf('^'), 'the carets start under the span');
    assert.equal(carets.trim(), '^'.repeat(10));
  });

  it('cuts at both ends of a window in the middle of a long line, and at the start only when the span is near it', () => {
    const line = 'x'.repeat(10_000);
    const [middle] = excerpt([line], at(0, 5000, 5001));
    assert.ok(middle.startsWith('  …') && middle.endsWith('…'));
    const [head, carets] = excerpt([line], at(0, 3, 4));
    assert.ok(head.startsWith('  x') && head.endsWith('…'));
    assert.equal(carets, `  ${' '.repeat(3)}^`);
  });
});

describe('textReport', () => {
  it('quotes the line each finding starts on, as splitLines cuts the text, whatever its line breaks', () => {
    const finding = (line: number) => ({ code: 'c', severity: 'warning' as const, message: 'm', range: at(line, 0, 1) });
    for (const text of ['a\r\nb\rc\nd', 'a\nb\nc\nd\n', 'a\r\rc\r\n\nd\r', 'abcd', '']) {
      const lines = splitLines(text);
      // Out of order, repeated and past the last line: the report asks in any order.
      const diagnostics = [3, 0, 2, 2, 1, lines.length, 1].map(finding);
      const expected = diagnostics.flatMap((d) => findingLines('f', d, lines)).join('\n');
      assert.equal(textReport([{ path: 'f', text, diagnostics }]), `${expected}\n1 file checked: 0 errors, 7 warnings\n`);
    }
  });
});
