/**
 * Test files of rulesets in HTTP phases, in the editor (features/test-file.ts): request cases
 * checked as `rulesets test` reads them, each mistake on its key or value, outcomes judged by
 * the ruleset's phase; and completion of request keys (with types) and of `expect` by phase.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity, type CompletionList } from 'vscode-languageserver';
import { testFileCompletion, testFileDiagnostics, type RulesetReader } from '../../server/src/features/test-file';
import { modelOf, takeCursor, textOf } from './harness';

const TEST_URI = 'file:///work/waf.ruleset.test.yaml';
const RULESET_URI = 'file:///work/waf.ruleset.yaml';
const WAF = [
  'name: waf',
  'kind: zone',
  'phase: http_request_firewall_custom',
  'rules:',
  '  - action: managed_challenge',
  '    expression: http.request.uri.path eq "/login" and cf.bot_management.score lt 30',
  '    description: Challenge bots at the login',
  '  - action: block',
  '    expression: starts_with(http.request.uri.path, "/admin")',
  '    description: Block admin',
  '',
].join('\n');
const TRANSFORM = 'name: t\nkind: zone\nphase: http_request_transform\nrules:\n  - action: rewrite\n    expression: http.request.uri.path eq "/old"\n    description: Old\n';

function reader(files: Record<string, string>): RulesetReader {
  return (uri) => (uri in files ? { text: files[uri], format: 'yaml' } : undefined);
}

function check(text: string, ruleset = WAF) {
  const model = modelOf(text, 'yaml', TEST_URI);
  return testFileDiagnostics(model, reader({ [RULESET_URI]: ruleset })).map((d) => ({ text: textOf(text, d.range), message: d.message, severity: d.severity, code: d.code }));
}

describe('test files of requests: diagnostics', () => {
  it('says nothing of passing cases', () => {
    const text = [
      '- request: {url: "https://a.example/login", cf.bot_management.score: 5}',
      '  expect: managed_challenge',
      '  rule: Challenge bots at the login',
      '- request:',
      '    url: https://a.example/admin/users',
      '  expect: block',
      '- request: {url: "https://a.example/"}',
      '  expect: pass',
      '',
    ].join('\n');
    assert.deepEqual(check(text), []);
  });

  it('puts a wrong outcome on `expect`, and a wrong deciding rule on `rule`', () => {
    const text = [
      '- request: {url: "https://a.example/admin"}',
      '  expect: managed_challenge',
      '- request: {url: "https://a.example/admin"}',
      '  expect: block',
      '  rule: 1',
      '',
    ].join('\n');
    assert.deepEqual(check(text), [
      { text: 'managed_challenge', message: 'expected managed_challenge, got block by rule 2 (Block admin)', severity: DiagnosticSeverity.Error, code: 'test-failed' },
      { text: '1', message: 'expected block by rule 1 (Challenge bots at the login), got block by rule 2 (Block admin)', severity: DiagnosticSeverity.Error, code: 'test-failed' },
    ]);
  });

  it('puts each request mistake on the key or inside the value', () => {
    const text = ['- request:', '    http.hots: a.example', '    headers: {X-Length: 12}', '    http.request.method: get', '    url: ftp://a.example/', '  expect: pass', ''].join('\n');
    const found = check(text);
    assert.deepEqual(
      found.map((d) => d.text),
      ['http.hots', '12', 'get', 'ftp://a.example/'],
    );
    assert.match(found[0].message, /^unknown field `http\.hots` in the request; did you mean `http\.host`/);
    assert.match(found[1].message, /quote it: "12"/);
    assert.match(found[2].message, /write "GET"/);
    assert.match(found[3].message, /the scheme `ftp`/);
  });

  it('puts a packet in an HTTP ruleset on its key, and a bad `expect` with the phase\'s outcomes', () => {
    const found = check('- packet: {ip.src: 192.0.2.1}\n  expect: drop\n');
    assert.deepEqual(
      found.map((d) => [d.text, d.message]),
      [
        ['packet', 'the ruleset\'s phase `http_request_firewall_custom` runs on HTTP requests: give the case a `request` (e.g. `request: {url: "https://example.com/", ip.src: 192.0.2.7}`)'],
        ['drop', 'expected `block`, `challenge`, `js_challenge`, `managed_challenge` or `pass`, found `drop`'],
      ],
    );
  });

  it('puts a request that lacks a deciding value on the request', () => {
    const found = check('- request: {url: "https://a.example/login"}\n  expect: block\n');
    assert.deepEqual(found.map((d) => d.text), ['{url: "https://a.example/login"}']);
    assert.match(found[0].message, /the request has no value for `cf\.bot_management\.score`/);
  });

  it('judges a phase whose actions only match by its matches', () => {
    const text = '- request: {url: "https://a.example/old"}\n  expect: no-match\n- request: {url: "https://a.example/new"}\n  expect: match\n  rule: Old\n- request: {url: "https://a.example/old"}\n  expect: match\n  rule: Old\n';
    assert.deepEqual(
      check(text, TRANSFORM).map((d) => [d.text, d.message]),
      [
        ['no-match', 'expected no-match, got match: rule 1 (Old)'],
        ['match', 'expected match by rule 1 (Old), got no-match: no rule matched'],
      ],
    );
  });
});

function complete(marked: string, ruleset: string | undefined = WAF): CompletionList | null {
  const { text, offset } = takeCursor(marked);
  const model = modelOf(text, 'yaml', TEST_URI);
  return testFileCompletion(model, model.positionAt(offset), reader(ruleset ? { [RULESET_URI]: ruleset } : {}));
}

function labels(marked: string, ruleset?: string): string[] {
  return complete(marked, ruleset)?.items.map((i) => i.label) ?? [];
}

describe('test files of requests: completion', () => {
  it('completes `expect` with the outcomes of the ruleset\'s phase', () => {
    assert.deepEqual(labels('- request: {}\n  expect: |\n'), ['block', 'challenge', 'js_challenge', 'managed_challenge', 'pass']);
    assert.deepEqual(labels('- request: {}\n  expect: |\n', TRANSFORM), ['match', 'no-match']);
    assert.deepEqual(labels('- packet: {}\n  expect: |\n', undefined), ['block', 'pass']);
  });

  it('completes the conveniences first, then the fields of the phase with their types, leaving out those given', () => {
    const items = complete('- request:\n    url: https://a.example/\n    |\n  expect: pass\n')!.items;
    const names = items.map((i) => i.label);
    assert.deepEqual(names.slice(0, 3), ['method', 'headers', '$lists']);
    assert.ok(!names.includes('url'));
    assert.equal(items.find((i) => i.label === 'http.request.headers')?.detail, 'Map<Array<String>>');
    assert.equal(items.find((i) => i.label === 'cf.bot_management.score')?.detail, 'Integer');
    assert.ok(!names.includes('http.response.code'), 'a response field is no field of this phase');
    assert.ok(labels('- request: {http.ho|}\n  expect: pass\n').includes('http.host'));
  });

  it('completes documented values and Booleans of a request field', () => {
    assert.deepEqual(labels('- request: {ssl: |}\n'), ['true', 'false']);
    assert.ok(labels('- request:\n    ip.src.continent: |\n').includes('EU'));
  });
});
