/**
 * Every feature on documents nested thousands of levels deep: it answers, and says where the
 * document goes too deep, instead of running out of stack (completion at the end of 7,000 `[`
 * in a ruleset did: jsonc-parser's getLocation recursed once per level). Rulesets, test files
 * and `.rulesets.yaml`, in JSON and in YAML's block and flow styles; and expressions nested as
 * deep in every way the language nests.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic, Position } from 'vscode-languageserver';
import { MAX_NESTING } from '../../server/src/documents/host/nesting';
import { codeActions } from '../../server/src/features/code-actions';
import { completion } from '../../server/src/features/completion';
import { diagnostics } from '../../server/src/features/diagnostics';
import { hover } from '../../server/src/features/hover';
import { DocumentModel } from '../../server/src/features/model';
import { projectConfigCodeActions, projectConfigCompletion, projectConfigDiagnostics, projectConfigHover } from '../../server/src/features/project-config';
import { semanticTokens } from '../../server/src/features/semantic-tokens';
import { signatureHelp } from '../../server/src/features/signature-help';
import { documentSymbols } from '../../server/src/features/symbols';
import { testFileCompletion, testFileDiagnostics, type RulesetReader } from '../../server/src/features/test-file';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { modelOf, settings } from './harness';

const DEPTHS = [7_000, 100_000];

const arrays = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);
const objects = (n: number) => '{"a": '.repeat(n) + '1' + '}'.repeat(n);
const flowMappings = (n: number) => '{a: '.repeat(n) + '1' + '}'.repeat(n);

interface Deep {
  readonly name: string;
  readonly uri: string;
  readonly format: 'json' | 'yaml';
  readonly text: string;
  /** The rest of the document is still read (YAML): the expression's field has a hover. */
  readonly restRead?: boolean;
}

const JSON_HEAD = '{"name": "deep", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": "tcp.dstprt == 22", "extra": ';
const YAML_HEAD = 'name: deep\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 22\n    extra: ';

function rulesets(n: number): Deep[] {
  return [
    { name: 'JSON arrays', uri: 'file:///w/deep.ruleset.json', format: 'json', text: `${JSON_HEAD}${arrays(n)}}]}\n` },
    { name: 'JSON arrays being typed (unclosed)', uri: 'file:///w/deep.ruleset.json', format: 'json', text: JSON_HEAD + '['.repeat(n) },
    { name: 'JSON objects', uri: 'file:///w/deep.ruleset.json', format: 'json', text: `${JSON_HEAD}${objects(n)}}]}\n` },
    { name: 'YAML flow sequences', uri: 'file:///w/deep.ruleset.yaml', format: 'yaml', text: `${YAML_HEAD}${arrays(n)}\n`, restRead: true },
    { name: 'YAML flow sequences being typed', uri: 'file:///w/deep.ruleset.yaml', format: 'yaml', text: YAML_HEAD + '['.repeat(n), restRead: true },
    { name: 'YAML block sequences', uri: 'file:///w/deep.ruleset.yml', format: 'yaml', text: `${YAML_HEAD}\n      ${'- '.repeat(n)}1\n`, restRead: true },
    {
      name: 'YAML in flow style throughout',
      uri: 'file:///w/deep.ruleset.yaml',
      format: 'yaml',
      text: `{name: deep, kind: root, phase: magic_transit, rules: [{action: block, expression: "tcp.dstprt == 22", extra: ${flowMappings(n)}}]}\n`,
      restRead: true,
    },
    // A ruleset by its content, not its name: the deep tree is looked at to decide.
    { name: 'YAML ruleset by content', uri: 'file:///w/firewall.yaml', format: 'yaml', text: `${YAML_HEAD}${arrays(n)}\n`, restRead: true },
  ];
}

function testFiles(n: number): Deep[] {
  return [
    { name: 'test file, YAML flow packet', uri: 'file:///w/ssh.ruleset.test.yaml', format: 'yaml', text: `- name: deep\n  packet: {ip.proto: tcp, tcp.dstport: ${arrays(n)}}\n  expect: pass\n` },
    { name: 'test file, YAML block cases', uri: 'file:///w/ssh.ruleset.test.yml', format: 'yaml', text: `- packet: {ip.proto: tcp}\n  expect:\n    ${'- '.repeat(n)}pass\n` },
    { name: 'test file, JSON', uri: 'file:///w/ssh.ruleset.test.json', format: 'json', text: `[{"packet": {"tcp.dstport": ${arrays(n)}}, "expect": "pass"}]` },
    { name: 'test file, object form with deep lists', uri: 'file:///w/ssh.ruleset.test.yaml', format: 'yaml', text: `lists: {office: ${arrays(n)}}\ncases:\n  - packet: {ip.proto: tcp}\n    expect: pass\n` },
  ];
}

function configs(n: number): Deep[] {
  return [
    { name: '.rulesets.yaml, flow lists', uri: 'file:///w/.rulesets.yaml', format: 'yaml', text: `phase: magic_transit\nlists: ${arrays(n)}\n` },
    { name: '.rulesets.yaml, block rules', uri: 'file:///w/.rulesets.yaml', format: 'yaml', text: `phase: magic_transit\nrules:\n  ${'- '.repeat(n)}x\n` },
  ];
}

const RULESET = 'name: ssh\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstport == 22\n';
const read: RulesetReader = (uri) => (/\/ssh\.ruleset\.(yaml|yml|json)$/.test(uri) ? { text: RULESET, format: 'yaml' } : undefined);

/** Positions to ask at: the start, inside the expression, inside the deep part, the end. */
function cursors(model: DocumentModel): Position[] {
  const text = model.text;
  const offsets = [0, text.indexOf('dstprt') + 3, Math.floor(text.length / 2), text.length];
  return offsets.filter((o) => o >= 0).map((o) => model.positionAt(o));
}

function assertTooDeepReported(found: readonly Diagnostic[], what: string): void {
  const deep = found.filter((d) => /nested too deeply/.test(d.message));
  assert.equal(deep.length, 1, `${what}: one diagnostic says the document nests too deeply: ${JSON.stringify(found.slice(0, 3))}`);
  assert.match(deep[0].message, new RegExp(`${MAX_NESTING} levels`));
  // At the place the nesting goes too deep, not at the start of the file.
  assert.notDeepEqual(deep[0].range.start, { line: 0, character: 0 }, what);
}

describe('every feature, on a ruleset nested 7,000 and 100,000 levels deep', () => {
  for (const n of DEPTHS) {
    for (const deep of rulesets(n)) {
      it(`${deep.name}, ${n} levels`, () => {
        const model = modelOf(deep.text, deep.format, deep.uri);
        const s = settings();
        assertTooDeepReported(diagnostics(model, s), deep.name);
        assert.equal(semanticTokens(model, s).data.length % 5, 0);
        documentSymbols(model, s);
        for (const position of cursors(model)) {
          const list = completion(model, position, s);
          assert.ok(list === null || Array.isArray(list.items));
          hover(model, position, s);
          signatureHelp(model, position, s);
          const diagnosticsThere = diagnostics(model, s);
          // The quick fixes of every diagnostic, and "Format expression".
          codeActions(model, { start: position, end: position }, { diagnostics: diagnosticsThere }, s);
        }
        if (deep.restRead) {
          // YAML: what is not too deep is still read: the rule is checked and its field explained.
          const offset = deep.text.indexOf('dstprt');
          assert.ok(diagnostics(model, s).some((d) => d.code === 'unknown-field'), 'the expression is still checked');
          assert.ok(hover(model, model.positionAt(offset), s), 'a hover on the field');
          assert.ok(completion(model, model.positionAt(offset + 6), s)!.items.length > 0, 'completion in the expression');
        }
      });
    }
  }

  it('the completion the bug report names: at the end of 7,000 `[` in a JSON ruleset', () => {
    const text = `${JSON_HEAD}${'['.repeat(7_000)}`;
    const model = modelOf(text, 'json', 'file:///w/deep.ruleset.json');
    assert.deepEqual(completion(model, model.positionAt(text.length), settings()), { isIncomplete: false, items: [] });
  });

  it('a document exactly MAX_NESTING levels deep keeps every feature, completion of its keys included', () => {
    // The root object, `rules` and the rule are three levels.
    const text = `{"name": "deep", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": "tcp.dstport == 22", "extra": ${arrays(MAX_NESTING - 3)}, }]}`;
    const model = modelOf(text, 'json', 'file:///w/deep.ruleset.json');
    const s = settings();
    assert.ok(diagnostics(model, s).every((d) => !/nested too deeply/.test(d.message)));
    const keys = completion(model, model.positionAt(text.lastIndexOf(', ') + 2), s);
    assert.ok(keys?.items.some((i) => i.label === 'description'), JSON.stringify(keys?.items.map((i) => i.label)));
  });
});

describe('the incremental re-read, typing in documents nested too deep', () => {
  for (const n of DEPTHS) {
    for (const deep of rulesets(n)) {
      it(`${deep.name}, ${n} levels: a keystroke in the expression and one at the end`, () => {
        const cache = new ExpressionCache();
        let previous = new DocumentModel(deep.uri, 1, deep.text, deep.format, cache);
        previous.ruleset;
        const at = deep.text.indexOf('22');
        for (const [version, text] of [
          [2, deep.text.slice(0, at) + '3' + deep.text.slice(at)],
          [3, deep.text.slice(0, at) + '3' + deep.text.slice(at) + '['],
        ] as const) {
          const model = new DocumentModel(deep.uri, version, text, deep.format, cache, previous.ruleset);
          assertTooDeepReported(diagnostics(model, settings()), `${deep.name} v${version}`);
          completion(model, model.positionAt(text.length), settings());
          previous = model;
        }
      });
    }
  }
});

describe('test files and .rulesets.yaml nested 7,000 and 100,000 levels deep', () => {
  for (const n of DEPTHS) {
    for (const deep of testFiles(n)) {
      it(`${deep.name}, ${n} levels`, () => {
        const model = modelOf(deep.text, deep.format, deep.uri);
        assert.equal(model.isRulesetTest(), true);
        const found = testFileDiagnostics(model, read);
        assert.ok(found.some((d) => /nested too deeply/.test(d.message)), JSON.stringify(found.slice(0, 3)));
        for (const position of cursors(model)) testFileCompletion(model, position);
        // What a ruleset's features make of it (the server asks them of every document).
        diagnostics(model, settings());
        semanticTokens(model, settings());
        documentSymbols(model, settings());
      });
    }
    for (const deep of configs(n)) {
      it(`${deep.name}, ${n} levels`, () => {
        const model = modelOf(deep.text, deep.format, deep.uri);
        assertTooDeepReported(projectConfigDiagnostics(model), deep.name);
        for (const position of cursors(model)) {
          projectConfigCompletion(model, position);
          projectConfigHover(model, position);
          projectConfigCodeActions(model, { start: position, end: position });
        }
      });
    }
  }
});

describe('expressions nested 7,000 and 100,000 levels deep, in every way the language nests', () => {
  // The parser refuses nesting past its limit (nesting-too-deep); every feature still answers.
  const nestings: [string, (n: number) => string][] = [
    ['parentheses', (n) => '('.repeat(n) + 'tcp.dstport == 1' + ')'.repeat(n)],
    ['not', (n) => 'not '.repeat(n) + 'sip'],
    ['!', (n) => '!'.repeat(n) + 'sip'],
    ['calls', (n) => 'lower('.repeat(n) + 'http.host' + ')'.repeat(n) + ' == "a"'],
    ['bit_slice calls', (n) => 'bit_slice('.repeat(n) + 'tcp, 0, 8' + ', 0, 8)'.repeat(n) + ' == 1'],
    ['any()', (n) => 'any('.repeat(n) + 'http.request.headers.names[*] == "a"' + ')'.repeat(n)],
    ['index steps', (n) => 'http.request.headers' + '["a"]'.repeat(n) + ' == "x"'],
    ['unclosed parentheses', (n) => '('.repeat(n)],
    ['unclosed calls', (n) => 'lower('.repeat(n)],
  ];
  for (const n of DEPTHS) {
    for (const [name, expression] of nestings) {
      for (const format of ['json', 'yaml'] as const) {
        it(`${name}, ${n} levels, ${format}`, () => {
          const text =
            format === 'json'
              ? JSON.stringify({ name: 'deep', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: expression(n) }] })
              : `name: deep\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: '${expression(n).replace(/'/g, "''")}'\n`;
          const model = modelOf(text, format, `file:///w/deep.ruleset.${format}`);
          const s = settings();
          const found = diagnostics(model, s);
          assert.ok(found.length > 0);
          semanticTokens(model, s);
          documentSymbols(model, s);
          const start = text.indexOf('expression') + 14;
          for (const offset of [start, start + Math.floor(expression(n).length / 2), start + expression(n).length]) {
            const position = model.positionAt(offset);
            completion(model, position, s);
            hover(model, position, s);
            signatureHelp(model, position, s);
            codeActions(model, { start: position, end: position }, { diagnostics: found }, s);
          }
        });
      }
    }
  }
});
