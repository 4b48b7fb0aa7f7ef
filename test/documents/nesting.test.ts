/**
 * How deep a document may nest. Every reader (strict-json.ts, jsonc-parser's visitor in host.ts,
 * block-yaml.ts, the `yaml` library) gives a host tree at most MAX_NESTING levels deep, and
 * says where a document goes deeper, so that every walk of a host tree, and every library
 * handed the text again (jsonc-parser's getLocation and modify, the `yaml` library's toString),
 * stays far from the end of the stack. Depths of 7,000 and 100,000 are where the old code
 * overflowed (jsonc-parser at about 5,000 levels, the `yaml` library at about 800).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { parseHost, parseYamlWithLibrary, type HostFormat, type HostNode } from '../../server/src/documents/host/host';
import { MAX_NESTING, nestsDeeperThan } from '../../server/src/documents/host/nesting';
import { parseRuleset } from '../../server/src/documents/parsed-ruleset';
import { reparseAfterEdit } from '../../server/src/documents/reparse';
import { checkParsedRuleset, checkRuleset } from '../../server/src/documents/ruleset';

/** The number of nested objects and arrays on the longest path of a host tree, counted without recursion. */
function depthOf(root: HostNode | undefined): number {
  let deepest = 0;
  const stack: [HostNode, number][] = root ? [[root, 1]] : [];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node.kind !== 'object' && node.kind !== 'array') continue;
    deepest = Math.max(deepest, depth);
    const children = node.kind === 'object' ? node.properties.flatMap((p) => (p.value ? [p.value] : [])) : node.items;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return deepest;
}

const DEPTHS = [7_000, 100_000];

/** A ruleset whose one rule has `extra: <value>`, in JSON. */
function jsonRuleset(value: string, expression = 'tcp.dstprt == 22'): string {
  return `{"name": "deep", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": ${JSON.stringify(expression)}, "extra": ${value}}]}`;
}

/** The same in YAML block style, the value written after `extra:` on the rule's last line. */
function yamlRuleset(value: string, expression = 'tcp.dstprt == 22'): string {
  return `name: deep\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ${expression}\n    extra: ${value}\n`;
}

function tooDeep(format: HostFormat, text: string) {
  const host = parseHost(text, format);
  return { host, errors: host.syntaxErrors.filter((e) => /nested too deeply/.test(e.message)) };
}

describe('MAX_NESTING: how deep a document is read', () => {
  it('is far below where the libraries that read and write host text run out of stack', () => {
    // Measured with node 20's default stack in a fresh process (the `yaml` library's flow
    // collections are the first to go, at about 800 levels): a third of that leaves room for
    // the stack a request already uses.
    assert.ok(MAX_NESTING >= 64 && MAX_NESTING <= 800 / 3, String(MAX_NESTING));
  });
});

describe('JSON nested deeper than MAX_NESTING', () => {
  const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

  it('is read up to MAX_NESTING levels, well-formed or not', () => {
    for (const text of [arrays(MAX_NESTING), objects(MAX_NESTING), arrays(MAX_NESTING).replace(/\]$/, ',]')]) {
      const host = parseHost(text, 'json');
      assert.equal(depthOf(host.root), MAX_NESTING);
      assert.ok(host.syntaxErrors.every((e) => !/nested too deeply/.test(e.message)), JSON.stringify(host.syntaxErrors));
    }
  });

  it('is one syntax error at the bracket that opens the level past it, which names the limit', () => {
    for (const n of [MAX_NESTING + 1, ...DEPTHS]) {
      for (const [text, place] of [
        [arrays(n), MAX_NESTING],
        ['['.repeat(n), MAX_NESTING],
        [objects(n), 5 * MAX_NESTING],
        [`${arrays(n)},`, MAX_NESTING],
        [` // a comment\n${objects(n)}`, 14 + 5 * MAX_NESTING],
      ] as const) {
        const host = parseHost(text, 'json');
        assert.equal(host.root, undefined, 'a document nested too deeply is not read');
        assert.deepEqual(
          host.syntaxErrors.map((e) => [e.start, e.end]),
          [[place, place + 1]],
          `${n}: ${text.slice(0, 20)}`,
        );
        assert.match(host.syntaxErrors[0].message, new RegExp(`nested too deeply.*${MAX_NESTING} levels`));
      }
    }
  });

  it('in a ruleset, is the one problem of the file, on the line and column of that bracket', () => {
    for (const n of DEPTHS) {
      const text = jsonRuleset(arrays(n));
      const problems = checkRuleset(text, 'json', { cache: new ExpressionCache() });
      // The root object, `rules` and the rule are three levels: `extra`'s value opens the fourth.
      const at = text.indexOf('[[') + MAX_NESTING - 3;
      assert.deepEqual(
        problems.map((p) => [p.code, p.start, p.end]),
        [['json-syntax', at, at + 1]],
      );
    }
  });
});

describe('YAML nested deeper than MAX_NESTING', () => {
  // The root mapping and the rule list and the rule are three levels: `extra`'s value is the fourth.
  const flowSequences = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);
  const flowMappings = (n: number) => '{a: '.repeat(n) + '1' + '}'.repeat(n);
  const blockSequences = (n: number) => `\n      ${'- '.repeat(n)}1`;
  /** Block mappings one space deeper each, as YAML allows: `a:` on every line. */
  const blockMappings = (n: number) => Array.from({ length: n }, (_, i) => `\n${' '.repeat(6 + i)}a:`).join('') + ' 1';

  /** Where the collection that opens level MAX_NESTING + 1 starts: the (MAX_NESTING - 3)th of `extra`'s own. */
  const levelPastTheLimit = (opener: string) => (text: string) => {
    let at = text.indexOf('extra:') + 'extra'.length;
    for (let i = 0; i <= MAX_NESTING - 3; i++) at = text.indexOf(opener, at + 1);
    return at;
  };
  const styles: [string, (n: number) => string, (text: string) => number][] = [
    ['flow sequences', flowSequences, levelPastTheLimit('[')],
    ['flow mappings', flowMappings, levelPastTheLimit('{')],
    ['block sequences', blockSequences, levelPastTheLimit('- ')],
    ['block mappings', blockMappings, levelPastTheLimit('a:')],
  ];

  for (const [style, value, place] of styles) {
    it(`${style}: read up to MAX_NESTING levels, and past it one error at the place, the rest of the file still read`, () => {
      const fits = yamlRuleset(value(MAX_NESTING - 3));
      const read = parseHost(fits, 'yaml');
      assert.deepEqual(read.syntaxErrors, []);
      assert.equal(depthOf(read.root), MAX_NESTING);
      // Block mappings take a line a level: 100,000 of them would be 5 GB of indentation.
      for (const n of style === 'block mappings' ? [MAX_NESTING - 2, 1_200] : [MAX_NESTING - 2, ...DEPTHS]) {
        const text = yamlRuleset(value(n));
        const { host, errors } = tooDeep('yaml', text);
        assert.deepEqual(
          errors.map((e) => e.start),
          [place(text)],
          `${style} ${n}: one error, at the collection that opens level ${MAX_NESTING + 1}`,
        );
        assert.ok(host.syntaxErrors.every((e) => !/call stack/i.test(e.message)), JSON.stringify(host.syntaxErrors.slice(0, 3)));
        assert.equal(depthOf(host.root), MAX_NESTING, 'the tree stops at MAX_NESTING');
        // The expression before it is still read and checked.
        const problems = checkParsedRuleset(parseRuleset(text, 'yaml'), { cache: new ExpressionCache() });
        assert.ok(problems.some((p) => p.code === 'unknown-field'), `${style} ${n}: the rule is still checked`);
      }
    });
  }

  it('block collections closed all at once by a line less indented: not read, one error at the place', () => {
    // The library's parser closes them one call inside the other and runs out of stack past
    // about 2,000; a document that deep is not read, as JSON is not.
    for (const [style, value, n] of [
      ['block sequences', blockSequences, 7_000],
      ['block sequences', blockSequences, 100_000],
      ['block mappings', blockMappings, 2_500],
    ] as const) {
      const text = `${yamlRuleset(value(n))}  - action: block\n    expression: ip.src == 1.1.1.1\n`;
      const host = parseHost(text, 'yaml');
      const place = styles.find(([name]) => name === style)![2](text);
      assert.deepEqual(
        host.syntaxErrors.map((e) => [e.start, e.message]),
        [[place, host.syntaxErrors[0]?.message]],
        `${style} ${n}`,
      );
      assert.match(host.syntaxErrors[0].message, /nested too deeply/);
      assert.equal(host.root, undefined);
    }
  });

  it('the library path alone keeps the bound too (block-yaml.ts hands deep documents to it)', () => {
    const host = parseYamlWithLibrary(`a: ${flowSequences(5_000)}\n`);
    assert.ok(depthOf(host.root) <= MAX_NESTING);
    assert.equal(host.syntaxErrors.length, 1, JSON.stringify(host.syntaxErrors));
  });
});

describe('re-reading after an edit, in a document nested MAX_NESTING deep', () => {
  it('gives the tree a full parse gives: the deep value after the edit moved node for node', () => {
    for (const [format, text] of [
      ['json', jsonRuleset('['.repeat(MAX_NESTING - 3) + '1' + ']'.repeat(MAX_NESTING - 3), 'tcp.dstport == 22')],
      ['yaml', yamlRuleset('['.repeat(MAX_NESTING - 3) + '1' + ']'.repeat(MAX_NESTING - 3), 'tcp.dstport == 22')],
    ] as const) {
      const previous = parseRuleset(text, format);
      assert.deepEqual(previous.syntaxProblems, []);
      const at = text.indexOf('22');
      const edited = text.slice(0, at) + '443' + text.slice(at + 2);
      const reread = reparseAfterEdit(previous, edited);
      assert.ok(reread, `${format}: re-read, not parsed again`);
      const full = parseRuleset(edited, format);
      assert.equal(JSON.stringify(reread.root, dropFunctions), JSON.stringify(full.root, dropFunctions));
    }
  });
});

/** JSON.stringify's replacer: the tree's data without its decode functions and library nodes. */
function dropFunctions(key: string, value: unknown): unknown {
  return typeof value === 'function' || key === 'source' ? undefined : value;
}

describe('nestsDeeperThan: plain values from JSON.parse or the yaml library', () => {
  const nested = (n: number, wrap: (v: unknown) => unknown) => {
    let value: unknown = 1;
    for (let i = 0; i < n; i++) value = wrap(value);
    return value;
  };

  it('counts objects and arrays, without recursion', () => {
    assert.equal(nestsDeeperThan(1), false);
    assert.equal(nestsDeeperThan({}), false);
    assert.equal(nestsDeeperThan(nested(MAX_NESTING, (v) => [v])), false);
    assert.equal(nestsDeeperThan(nested(MAX_NESTING + 1, (v) => [v])), true);
    assert.equal(nestsDeeperThan(nested(MAX_NESTING + 1, (v) => ({ a: v }))), true);
    assert.equal(nestsDeeperThan(nested(100_000, (v) => ({ a: [v] }))), true);
    assert.equal(nestsDeeperThan(nested(3, (v) => [v]), 2), true);
    assert.equal(nestsDeeperThan(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000))), true);
  });

  it('reads a value that shares its parts (YAML aliases) once per part, and calls a cycle too deep', () => {
    // 2^60 paths through 60 shared levels: counted by part, this answers at once.
    const shared = nested(60, (v) => [v, v, { a: v }]);
    assert.equal(nestsDeeperThan(shared), false);
    assert.equal(nestsDeeperThan(nested(MAX_NESTING + 1, (v) => [v, v])), true);
    const cycle: unknown[] = [];
    cycle.push(cycle);
    assert.equal(nestsDeeperThan(cycle), true);
  });
});
