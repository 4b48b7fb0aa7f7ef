/**
 * What completion-context.ts says at a cursor inside calls, quantifiers and index steps: the
 * ground the editor's completion of the HTTP phases is built on. (The packet phases' contexts
 * are tested with the completion feature, in test/features/completion.test.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { completionContext } from '../../server/src/language/completion-context';
import { catalogueFor } from '../../server/src/language/catalogue/catalogues';

function at(marked: string) {
  const offset = marked.indexOf('|');
  return completionContext(marked.slice(0, offset) + marked.slice(offset + 1), offset);
}

describe('completion context: calls, quantifiers and index steps', () => {
  it('an argument of a call, also of a call inside a call, and of `contains`', () => {
    assert.deepEqual(at('lower(|').argument, { functionName: 'lower', index: 0 });
    assert.deepEqual(at('concat(http.host, lower(|').argument, { functionName: 'lower', index: 0 });
    assert.deepEqual(at('concat(http.host, lower(x), |').argument, { functionName: 'concat', index: 2 });
    assert.deepEqual(at('contains(http.host, |').argument, { functionName: 'contains', index: 1 });
  });
  it('the argument of a quantifier', () => {
    assert.deepEqual(at('sip and any(|').argument, { functionName: 'any', index: 0 });
  });
  it('quantifiers where a test may start', () => {
    assert.equal(at('|').operand?.quantifiers, true);
    assert.equal(at('sip and not |').operand?.quantifiers, true);
  });
  it('an operator after a comparison inside an argument, and after an index expression', () => {
    assert.equal(at('any(http.request.headers.names[*] |').operator?.lhs?.name, 'http.request.headers.names');
    const indexed = at('http.request.headers["x"][0] |').operator?.lhs;
    assert.deepEqual([indexed?.kind, indexed?.name, indexed?.indexed, indexed?.steps], ['field', 'http.request.headers', true, ['key', 'element']]);
    const call = at('lower(http.host)[0] |').operator?.lhs;
    assert.deepEqual([call?.kind, call?.name, call?.indexed, call?.steps], ['call', 'lower', true, ['element']]);
  });
  it('the left side typed by the catalogue, through its index steps and calls', () => {
    const http = catalogueFor('http_request_firewall_custom');
    const typed = (marked: string, catalogue = http) => {
      const offset = marked.indexOf('|');
      return completionContext(marked.slice(0, offset) + marked.slice(offset + 1), offset, catalogue).operator?.lhs?.type;
    };
    assert.equal(typed('http.request.headers |'), 'Map<Array<Bytes>>');
    assert.equal(typed('http.request.headers["x"] |'), 'Array<Bytes>');
    assert.equal(typed('http.request.headers["x"][0] |'), 'Bytes');
    assert.equal(typed('http.request.headers[*][*] |'), 'Bytes');
    assert.equal(typed('http.request.headers[0] |'), undefined, 'a map takes no index');
    assert.equal(typed('http.host[0] |'), undefined, 'a string takes no step');
    assert.equal(typed('len(http.host) |'), 'Integer');
    assert.equal(typed('concat(http.host, "/") |'), 'Bytes', 'concat: the type of its first argument');
    assert.equal(typed('concat("/", http.host) |'), undefined, 'a first argument that is no field: not known');
    assert.equal(typed('lower(http.host)[0] |'), undefined);
    assert.equal(typed('unknown.field |'), undefined);
    assert.equal(typed('tcp.dstport |', catalogueFor('magic_transit')), 'Integer');
    assert.equal(typed('http.host |', catalogueFor('magic_transit')), undefined, 'not a field of the packet phases');
    const index = (marked: string) => {
      const offset = marked.indexOf('|');
      return completionContext(marked.slice(0, offset) + marked.slice(offset + 1), offset, http).index?.indexes?.type;
    };
    assert.equal(index('http.request.headers[|'), 'Map<Array<Bytes>>');
    assert.equal(index('http.request.headers["a"][|'), 'Array<Bytes>');
  });

  it('a value after the operator of an index expression', () => {
    const value = at('http.request.headers["x"][0] == |').value;
    assert.equal(value?.operator, 'eq');
    assert.equal(value?.lhs?.indexed, true);
  });
  it('a key or index inside `[…]`, with what it indexes', () => {
    const target = (marked: string) => at(marked).index?.target;
    assert.equal(target('http.request.headers[|'), 'http.request.headers');
    assert.equal(target('http.request.headers["x-a|'), 'http.request.headers');
    assert.equal(target('split(http.host, ".")[|'), 'split');
    assert.equal(target('x["a"][|'), 'x');
  });
  it('a logical operator or `)` after a quantifier, and after an argument that is a whole test', () => {
    assert.deepEqual(at('any(x[*] == 1) |').connective, { closeGroup: false });
    assert.deepEqual(at('f((sip) |').connective, { closeGroup: true });
  });
  it('never throws at any offset of the new forms, also 100,000 levels deep', () => {
    for (const text of ['http.request.headers["x"][0] == "a" and any(lower(x[*])[0] == "b")', 'f(g(h(x, "a"), [', 'x[[[[', 'any(any(any(', `${'lower('.repeat(100_000)}x`, `${'any('.repeat(100_000)}x`, `x${'['.repeat(100_000)}`]) {
      const offsets = text.length > 1000 ? [0, 1, 500, text.length] : Array.from({ length: text.length + 1 }, (_, i) => i);
      for (const offset of offsets) {
        const context = completionContext(text, offset);
        assert.ok(context.replace.start <= offset && offset <= context.replace.end);
      }
    }
  });
});
