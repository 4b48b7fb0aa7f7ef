/**
 * No control character of a user's file reaches a terminal raw (issue 35): the report escapes
 * them in its messages and source lines, and what the commands write to a terminal is escaped
 * but for the colours the tool adds and CRLF line ends.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { terminalSafe, visibleText } from '../../server/src/cli/visible';

describe('text of a file on a terminal', () => {
  it('escapes C0 (but TAB and LF), DEL, C1 and bidi controls in a message or a source line', () => {
    assert.equal(visibleText('a\u0000b\u0007c\u001b[2Jd\u007f\u0085\u202eé\t😀\n'), 'a\\x00b\\x07c\\x1b[2Jd\\x7f\\x85\\u{202e}é\t😀\n');
    assert.equal(visibleText('plain text'), 'plain text');
  });

  it('keeps the colours the tool adds and CRLF line ends, and escapes every other control', () => {
    assert.equal(terminalSafe('\u001b[31merror\u001b[0m x\r\n'), '\u001b[31merror\u001b[0m x\r\n');
    assert.equal(terminalSafe('-    description: \u001b]0;title\u0007 \u001b[2J\rover'), '-    description: \\x1b]0;title\\x07 \\x1b[2J\\x0dover');
  });
});
