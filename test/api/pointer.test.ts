import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';
import type { CreateRulesetBody } from '../../server/src/api/client';
import type { Emulator } from '../../server/src/api/emulator';
import { indexOfLineColumn, lineColumnOf, messageLocation, pointerToRange, type PointerRange } from '../../server/src/api/pointer';
import type { HostFormat } from '../../server/src/documents/host/host';
import { assertNoSecrets, failure, makeClient, startTestEmulator } from './harness';

const JSON_FILE = `{
  "name": "pointers",
  "kind": "custom",
  "phase": "magic_transit",
  "rules": [
    { "action": "block", "expression": "ip.proto == \\"udp\\"" },
    { "action": "block", "expression": "ip.proto == \\"tcp\\" and tcp.dstprt == 22", "enabled": true },
    { "action": "block", "expression": "ip.geoip.country == \\"\\u00e9\\" or tcp.dstprt == 1" }
  ]
}
`;

const YAML_FILE = `name: pointers
kind: custom
phase: magic_transit
rules:
  - action: block
    expression: tcp.dstport == 80 and tcp.dstprt == 22
  - action: block
    expression: 'ip.proto == "tcp" and tcp.dstprt == 22'
  - action: block
    expression: "ip.proto == \\"tcp\\" and tcp.dstprt == 22"
  - action: block
    expression: |-
      ip.proto == "tcp"
      and tcp.dstprt == 22
  - action: block
    expression: >-
      ip.proto == "tcp"
      and tcp.dstprt == 22
`;

function textOf(text: string, range: PointerRange | undefined): string {
  assert.ok(range, 'a range');
  return text.slice(range.start, range.end);
}

/** Offsets of every `tcp.dstprt` in the file, in order. */
function typos(text: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf('tcp.dstprt'); i !== -1; i = text.indexOf('tcp.dstprt', i + 1)) found.push(i);
  return found;
}

describe('pointerToRange in JSON', () => {
  it('finds the expression string, the rule, a key, and the closest existing ancestor', () => {
    const expression = pointerToRange(JSON_FILE, 'json', '/rules/1/expression');
    assert.equal(textOf(JSON_FILE, expression), '"ip.proto == \\"tcp\\" and tcp.dstprt == 22"');
    assert.deepEqual({ ...expression, start: 0, end: 0 }, { start: 0, end: 0, pointer: '/rules/1/expression', exact: true, narrowed: false });
    assert.match(textOf(JSON_FILE, pointerToRange(JSON_FILE, 'json', '/rules/1')), /^\{ "action": "block", .* "enabled": true \}$/);
    assert.equal(textOf(JSON_FILE, pointerToRange(JSON_FILE, 'json', '/rules/1/enabled')), 'true');
    assert.equal(textOf(JSON_FILE, pointerToRange(JSON_FILE, 'json', '/phase')), '"magic_transit"');
    const missing = pointerToRange(JSON_FILE, 'json', '/rules/7/expression')!;
    assert.equal(missing.pointer, '/rules');
    assert.equal(missing.exact, false);
    assert.match(textOf(JSON_FILE, missing), /^\[\n/);
    const missingKey = pointerToRange(JSON_FILE, 'json', '/rules/0/action_parameters')!;
    assert.equal(missingKey.pointer, '/rules/0');
    assert.equal(pointerToRange(JSON_FILE, 'json', '')!.start, 0);
    assert.equal(pointerToRange('', 'json', '/rules'), undefined);
  });

  it('narrows to the (line:col) character through escaped quotes', () => {
    const range = pointerToRange(JSON_FILE, 'json', '/rules/1/expression', { message: 'Filter parsing error (1:23): unknown identifier' })!;
    assert.equal(range.narrowed, true);
    assert.equal(range.start, typos(JSON_FILE)[0]);
    assert.equal(textOf(JSON_FILE, range), 't');
  });

  it('narrows to the span the caret line draws', () => {
    const message = 'Filter parsing error (1:23):\nip.proto == "tcp" and tcp.dstprt == 22\n                      ^^^^^^^^^^ unknown identifier\n';
    assert.equal(textOf(JSON_FILE, pointerToRange(JSON_FILE, 'json', '/rules/1/expression', { message })), 'tcp.dstprt');
  });

  it('counts the column in UTF-8 bytes, through a \\u escape', () => {
    // `ip.geoip.country == "é" or ` is 27 characters and 28 bytes: the typo is at column 29.
    const range = pointerToRange(JSON_FILE, 'json', '/rules/2/expression', { message: 'Filter parsing error (1:29): unknown identifier' })!;
    assert.equal(range.start, typos(JSON_FILE)[1]);
  });

  it('resolves a single rule body pointer against the rule it came from', () => {
    const range = pointerToRange(JSON_FILE, 'json', '/expression', { base: '/rules/1', message: 'Filter parsing error (1:23): x' })!;
    assert.equal(range.pointer, '/rules/1/expression');
    assert.equal(range.start, typos(JSON_FILE)[0]);
  });

  it('keeps the whole string when the (line:col) is not in it', () => {
    const range = pointerToRange(JSON_FILE, 'json', '/rules/1/expression', { message: 'Filter parsing error (3:1): x' })!;
    assert.equal(range.narrowed, false);
    assert.equal(textOf(JSON_FILE, range)[0], '"');
  });
});

describe('pointerToRange in YAML', () => {
  it('narrows in plain, single-quoted, double-quoted, literal and folded scalars', () => {
    const at = typos(YAML_FILE);
    const cases: [index: number, message: string][] = [
      [0, 'Filter parsing error (1:23): x'],
      [1, 'Filter parsing error (1:23): x'],
      [2, 'Filter parsing error (1:23): x'],
      [3, 'Filter parsing error (2:5): x'],
      // A folded line break is a space: one line.
      [4, 'Filter parsing error (1:23): x'],
    ];
    for (const [index, message] of cases) {
      const range = pointerToRange(YAML_FILE, 'yaml', `/rules/${index}/expression`, { message })!;
      assert.equal(range.narrowed, true, `rule ${index}`);
      assert.equal(range.start, at[index], `rule ${index}`);
      assert.equal(textOf(YAML_FILE, range), 't', `rule ${index}`);
    }
    assert.equal(textOf(YAML_FILE, pointerToRange(YAML_FILE, 'yaml', '/rules/1/expression')), `'ip.proto == "tcp" and tcp.dstprt == 22'`);
    assert.match(textOf(YAML_FILE, pointerToRange(YAML_FILE, 'yaml', '/rules/0')), /^action: block\n {4}expression: tcp\.dstport == 80 and tcp\.dstprt == 22/);
  });
});

describe('line and column', () => {
  it('reads (line:col) from a message', () => {
    assert.deepEqual(messageLocation('Filter parsing error (1:15): unknown identifier'), { line: 1, column: 15, length: 1 });
    assert.deepEqual(messageLocation('Filter parsing error (2:3):\nab\n  ^^^ x'), { line: 2, column: 3, length: 3 });
    assert.equal(messageLocation('ruleset exceeds complexity constraints'), undefined);
  });

  it('round-trips every offset, in bytes, across lines and astral characters', () => {
    const expression = 'a == "é😀"\nand b in {1 2}\n\nc';
    for (let i = 0; i <= expression.length; i++) {
      if (i > 0 && /[\udc00-\udfff]/.test(expression[i])) continue; // inside a surrogate pair
      const { line, column } = lineColumnOf(expression, i);
      assert.equal(indexOfLineColumn(expression, line, column), i, `offset ${i} (${line}:${column})`);
    }
    assert.deepEqual(lineColumnOf(expression, expression.indexOf('and')), { line: 2, column: 1 });
    assert.deepEqual(lineColumnOf('a == "é" or', 9), { line: 1, column: 11 });
    assert.equal(indexOfLineColumn(expression, 9, 1), undefined);
    assert.equal(indexOfLineColumn('ab', 1, 99), 2, 'a column past the end is the end');
  });
});

// ------------------------------------------------------------------ from the emulator's answer to the file

describe('an emulator 400 mapped back to the file', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startTestEmulator();
  });
  after(() => emulator.close());

  async function mapped(text: string, format: HostFormat): Promise<string[]> {
    const body = (format === 'json' ? JSON.parse(text) : YAML.parse(text)) as CreateRulesetBody;
    const error = await failure(makeClient(emulator.baseUrl).dryRun.createRuleset(body));
    assert.equal(error.status, 400);
    return error.errors.map((e) => {
      const range = pointerToRange(text, format, e.pointer!, { message: e.message })!;
      assert.equal(range.narrowed, true, e.message);
      return `${range.start}:${textOf(text, range)}`;
    });
  }

  it('lands on the typo in every rule of a JSON file', async () => {
    assert.deepEqual(
      await mapped(JSON_FILE, 'json'),
      typos(JSON_FILE).map((at) => `${at}:t`),
    );
  });

  it('lands on the typo in every rule of a YAML file', async () => {
    assert.deepEqual(
      await mapped(YAML_FILE, 'yaml'),
      typos(YAML_FILE).map((at) => `${at}:t`),
    );
  });

  it('lands on a value inside action_parameters of a zone entry point, in JSON and YAML', async () => {
    const files: Record<'json' | 'yaml', string> = {
      json: `{"name": "waf", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [\n  {"action": "block", "expression": "true"},\n  {"action": "execute", "expression": "true", "action_parameters": {"id": 42}}\n]}\n`,
      yaml: `name: waf\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: "true"\n  - action: execute\n    expression: "true"\n    action_parameters:\n      id: 42\n`,
    };
    const zone = makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: 'pointer-zone' } });
    for (const [format, text] of Object.entries(files) as [HostFormat, string][]) {
      const body = (format === 'json' ? JSON.parse(text) : YAML.parse(text)) as CreateRulesetBody;
      const error = await failure(zone.dryRun.updateRuleset({ phase: 'http_request_firewall_custom' }, body));
      assert.equal(error.status, 400);
      assert.equal(error.errors[0].pointer, '/rules/1/action_parameters/id');
      const range = pointerToRange(text, format, error.errors[0].pointer!, { message: error.errors[0].message })!;
      assert.equal(range.exact, true);
      assert.equal(textOf(text, range), '42', format);
    }
  });

  it('lands on the typo of a rule sent alone', async () => {
    const body = JSON.parse(JSON_FILE) as CreateRulesetBody;
    const c = makeClient(emulator.baseUrl);
    const created = await c.createRuleset({ ...body, rules: [body.rules[0]] });
    const error = await failure(c.addRule(created.id, body.rules[1]));
    assert.equal(error.errors[0].pointer, '/expression');
    const range = pointerToRange(JSON_FILE, 'json', error.errors[0].pointer!, { base: '/rules/1', message: error.errors[0].message })!;
    assert.equal(range.start, typos(JSON_FILE)[0]);
  });

  it('lands on the typo inside a nested expression: the pointer names the parameter, the column its own text', async () => {
    const rule = { action: 'rewrite', expression: 'true', action_parameters: { uri: { path: { expression: 'concat("/v2", http.request.uri.pth)' } } } };
    const json = JSON.stringify({ name: 'nested', kind: 'zone', phase: 'http_request_transform', rules: [rule] }, null, 2);
    const yaml = 'name: nested\nkind: zone\nphase: http_request_transform\nrules:\n  - action: rewrite\n    expression: "true"\n    action_parameters:\n      uri:\n        path:\n          expression: |\n            concat("/v2",\n              http.request.uri.pth)\n';
    for (const [text, format] of [[json, 'json'], [yaml, 'yaml']] as const) {
      const body = (format === 'json' ? JSON.parse(text) : YAML.parse(text)) as CreateRulesetBody;
      const error = await failure(makeClient(emulator.baseUrl).dryRun.createRuleset(body));
      assert.equal(error.status, 400);
      assert.deepEqual(
        error.errors.map((e) => e.pointer),
        ['/rules/0/action_parameters/uri/path/expression'],
      );
      const range = pointerToRange(text, format, error.errors[0].pointer!, { message: error.errors[0].message })!;
      assert.equal(range.narrowed, true, error.errors[0].message);
      assert.equal(range.start, text.indexOf('http.request.uri.pth'), format);
    }
  });

  it('leaks no credential', () => {
    assertNoSecrets();
  });
});
