import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DiagnosticSeverity, type CompletionList } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnostics } from '../../server/src/features/diagnostics';
import { rulesetCandidates, testFileCompletion, testFileDiagnostics, type RulesetReader } from '../../server/src/features/test-file';
import { modelOf, settings, takeCursor, textOf } from './harness';

const TEST_URI = 'file:///work/ssh.ruleset.test.yaml';
const RULESET_URI = 'file:///work/ssh.ruleset.yaml';
const RULESET = [
  'name: ssh',
  'kind: root',
  'phase: magic_transit',
  'rules:',
  '  - action: skip',
  '    action_parameters: {ruleset: current}',
  '    expression: tcp.dstport in {22}',
  '    description: Let SSH through',
  '  - action: block',
  '    expression: ip.proto == "tcp"',
  '    description: Block other TCP',
  '',
].join('\n');

/** A reader that knows only the given files. */
function reader(files: Record<string, string>): RulesetReader {
  return (uri) => (uri in files ? { text: files[uri], format: uri.endsWith('.json') ? 'json' : 'yaml' } : undefined);
}

function check(text: string, files: Record<string, string> = { [RULESET_URI]: RULESET }, uri = TEST_URI) {
  const model = modelOf(text, uri.endsWith('.json') ? 'json' : 'yaml', uri);
  return testFileDiagnostics(model, reader(files)).map((d) => ({ text: textOf(text, d.range), message: d.message, severity: d.severity }));
}

describe('test files: recognised by name, not as rulesets', () => {
  it('is a test file and not a ruleset, whatever the settings patterns say', () => {
    for (const uri of [TEST_URI, 'file:///w/a.ruleset.test.yml', 'file:///w/a.ruleset.test.json']) {
      const model = modelOf('- packet: {}\n  expect: pass\n', 'yaml', uri);
      assert.equal(model.isRulesetTest(), true, uri);
      assert.equal(model.isRuleset(settings({ files: ['**/*.yaml', '*.json', '*.yml'] })), false, uri);
      assert.deepEqual(diagnostics(model, settings()), []);
    }
    assert.equal(modelOf(RULESET, 'yaml', RULESET_URI).isRulesetTest(), false);
  });

  it('looks for the ruleset beside it, or where `ruleset:` says', () => {
    assert.deepEqual(rulesetCandidates(modelOf('[]', 'yaml', TEST_URI)), ['file:///work/ssh.ruleset.yaml', 'file:///work/ssh.ruleset.yml', 'file:///work/ssh.ruleset.json', 'file:///work/ssh.ruleset.tf']);
    assert.deepEqual(rulesetCandidates(modelOf('ruleset: ../other/x.ruleset.json\ncases: []\n', 'yaml', 'file:///work/t/a.ruleset.test.yaml')), ['file:///work/other/x.ruleset.json']);
  });
});

describe('test files: diagnostics', () => {
  it('finds nothing wrong in the examples, with their rulesets read from disk', () => {
    const folder = resolve(__dirname, '..', '..', 'examples');
    const files = readdirSync(folder).filter((name) => /\.ruleset\.test\.(json|ya?ml)$/.test(name));
    assert.ok(files.length > 0);
    const disk: RulesetReader = (uri) => {
      try {
        return { text: readFileSync(fileURLToPath(uri), 'utf8'), format: uri.endsWith('.json') ? 'json' : 'yaml' };
      } catch {
        return undefined;
      }
    };
    for (const name of files) {
      const path = join(folder, name);
      const model = modelOf(readFileSync(path, 'utf8'), 'yaml', pathToFileURL(path).href);
      assert.deepEqual(testFileDiagnostics(model, disk), [], name);
    }
  });

  it('says nothing of passing cases', () => {
    const text = [
      '- name: SSH',
      '  packet: {ip.src: 192.0.2.7, ip.proto: tcp, tcp.dstport: 22}',
      '  expect: pass',
      '  rule: Let SSH through',
      '- packet: {ip.proto: tcp, tcp.dstport: 443}',
      '  expect: block',
      '  rule: 2',
      '- packet: {ip.proto: udp}',
      '  expect: pass',
      '',
    ].join('\n');
    assert.deepEqual(check(text), []);
  });

  it('puts a wrong verdict on `expect`, and a wrong deciding rule on `rule`', () => {
    const text = [
      '- packet: {ip.proto: udp}',
      '  expect: block',
      '  rule: 2',
      '- packet: {ip.proto: tcp, tcp.dstport: 443}',
      '  expect: block',
      '  rule: 1',
      '- packet: {ip.proto: tcp, tcp.dstport: 22}',
      '  expect: block',
      '',
    ].join('\n');
    const model = modelOf(text, 'yaml', TEST_URI);
    assert.deepEqual(
      testFileDiagnostics(model, reader({ [RULESET_URI]: RULESET })).map((d) => d.code),
      ['test-failed', 'test-failed', 'test-failed'],
    );
    assert.deepEqual(check(text), [
      { text: 'block', message: 'expected block by rule 2 (Block other TCP), got pass (no rule matched)', severity: DiagnosticSeverity.Error },
      { text: '1', message: 'expected block by rule 1 (Let SSH through), got block by rule 2 (Block other TCP)', severity: DiagnosticSeverity.Error },
      { text: 'block', message: 'expected block, got pass by rule 1 (Let SSH through)', severity: DiagnosticSeverity.Error },
    ]);
  });

  it('puts packet mistakes on the key or the value, each one', () => {
    const text = ['- packet: {tcp.dstprt: 22, tcp.dstport: http, ip.proto: tpc}', '  expect: pass', ''].join('\n');
    const found = check(text);
    assert.deepEqual(
      found.map((d) => d.text),
      ['tcp.dstprt', 'http', 'tpc'],
    );
    assert.match(found[0].message, /unknown field `tcp\.dstprt` in the packet; did you mean `tcp\.dstport`/);
    assert.match(found[1].message, /expected an integer for `tcp\.dstport`/);
    assert.match(found[2].message, /did you mean .*"tcp"/);
  });

  it('reports a bad `expect`, a rule that names no rule, unknown keys and missing ones', () => {
    const text = [
      '- packet: {ip.proto: tcp}',
      '  expect: drop',
      '- packet: {ip.proto: tcp, tcp.dstport: 80}',
      '  expect: block',
      '  rule: 7',
      '- packet: {ip.proto: tcp, tcp.dstport: 80}',
      '  expect: block',
      '  rule: Nope',
      '  verdict: block',
      '- expect: pass',
      '',
    ].join('\n');
    const found = check(text);
    assert.deepEqual(
      found.map((d) => [d.text, d.message]),
      [
        ['drop', 'expected `block` or `pass`, found `drop`'],
        ['7', 'no rule 7: the ruleset has 2 rules, numbered from 1'],
        ['verdict', 'unknown key `verdict`; a case has `name`, `packet`, `expect`, `rule`'],
        ['Nope', 'no rule has the description, id or ref `Nope`'],
        ['e', 'the case has no `packet`'],
      ],
    );
  });

  it('puts a packet that lacks a deciding value on the packet', () => {
    const found = check('- packet: {ip.proto: tcp}\n  expect: block\n');
    assert.equal(found.length, 1);
    assert.equal(found[0].text, '{ip.proto: tcp}');
    assert.match(found[0].message, /tcp\.dstport/);
  });

  it('warns once at the top when the ruleset is missing, and still checks the cases', () => {
    const found = check('- packet: {ip.prot: tcp}\n  expect: pass\n', {});
    assert.equal(found[0].severity, DiagnosticSeverity.Warning);
    assert.equal(found[0].text, '');
    assert.match(found[0].message, /looked for ssh\.ruleset\.yaml, ssh\.ruleset\.yml, ssh\.ruleset\.json/);
    assert.equal(found[1].text, 'ip.prot');
    assert.equal(found.length, 2);
  });

  it('warns when the ruleset cannot run', () => {
    const found = check('- packet: {ip.proto: tcp}\n  expect: pass\n', { [RULESET_URI]: 'phase: magic_transit\nrules:\n  - action: block\n    expression: tcp.dstprt == 1\n' });
    assert.equal(found.length, 1);
    assert.equal(found[0].severity, DiagnosticSeverity.Warning);
    assert.match(found[0].message, /the ruleset ssh\.ruleset\.yaml cannot be run: rule 1's expression has errors/);
  });

  it('reads the object form and JSON test files', () => {
    const json = JSON.stringify({ ruleset: 'ssh.ruleset.yaml', lists: { bad: ['10.0.0.0/8'] }, cases: [{ packet: { 'ip.proto': 'udp' }, expect: 'block' }], extra: 1 }, null, 2);
    const found = check(json, { [RULESET_URI]: RULESET }, 'file:///work/other.ruleset.test.json');
    assert.deepEqual(
      found.map((d) => d.text),
      ['"extra"', '"block"'],
    );
  });

  it('places a diagnostic where the client does in a file whose lines end in a lone CR', () => {
    const uri = 'file:///work/ssh.ruleset.test.json';
    const text = '{"ruleset": "ssh.ruleset.yaml", "extra": 1,\r "cases": [\r  {"packet": {"ip.proto": "tcp", "tcp.dstport": 99999},\r   "expect": "pass"}]}\r';
    const model = modelOf(text, 'json', uri);
    const client = TextDocument.create(uri, 'json', 1, text);
    assert.deepEqual(
      testFileDiagnostics(model, reader({ [RULESET_URI]: RULESET })).map((d) => d.range.start),
      [client.positionAt(text.indexOf('"extra"')), client.positionAt(text.indexOf('99999'))],
    );
  });

  it('reports YAML syntax errors and a file that is not a list of cases', () => {
    assert.equal(check('- packet: {ip.proto: tcp\n').length > 0, true);
    assert.match(check('packet: {}\n')[0].message, /expected a list of cases/);
  });
});

function complete(marked: string, uri = TEST_URI): string[] {
  const { text, offset } = takeCursor(marked);
  const model = modelOf(text, uri.endsWith('.json') ? 'json' : 'yaml', uri);
  const result = testFileCompletion(model, model.positionAt(offset)) as CompletionList | null;
  return result ? result.items.map((i) => i.label) : [];
}

describe('test files: completion', () => {
  it('completes `expect` with block and pass', () => {
    assert.deepEqual(complete('- packet: {ip.proto: tcp}\n  expect: |\n'), ['block', 'pass']);
    assert.deepEqual(complete('- packet: {ip.proto: tcp}\n  expect: bl|\n'), ['block', 'pass']);
    assert.deepEqual(complete('[{"packet": {}, "expect": "|"}]', 'file:///w/a.ruleset.test.json'), ['block', 'pass']);
  });

  it('completes field names as keys of the packet, with their types, leaving out those given', () => {
    const { text, offset } = takeCursor('- packet:\n    ip.proto: tcp\n    |\n  expect: pass\n');
    const model = modelOf(text, 'yaml', TEST_URI);
    const items = testFileCompletion(model, model.positionAt(offset))!.items;
    assert.ok(items.some((i) => i.label === 'tcp.dstport' && i.detail === 'Integer'));
    assert.ok(items.some((i) => i.label === 'ip.src' && i.detail === 'Ip'));
    assert.ok(!items.some((i) => i.label === 'ip.proto'));
    assert.ok(complete('- packet: {ip.proto: tcp, |}\n  expect: pass\n').includes('tcp.dstport'));
    assert.ok(complete('- packet: {tcp.d|}\n  expect: pass\n').includes('tcp.dstport'));
    assert.ok(complete('- packet:\n    |\n').includes('ip.src'));
  });

  it('replaces the whole dotted word being typed, as a YAML key of its own line', () => {
    const { text, offset } = takeCursor('- packet:\n    tcp.d|\n  expect: pass\n');
    const model = modelOf(text, 'yaml', TEST_URI);
    const item = testFileCompletion(model, model.positionAt(offset))!.items.find((i) => i.label === 'tcp.dstport');
    assert.ok(item?.textEdit && 'range' in item.textEdit);
    assert.equal(textOf(text, item.textEdit.range), 'tcp.d');
  });

  it('completes protocol names and country codes as values', () => {
    const protocols = complete('- packet: {ip.proto: |}\n  expect: pass\n');
    assert.ok(protocols.includes('tcp') && protocols.includes('udp'));
    const countries = complete('- packet:\n    ip.src.country: |\n  expect: pass\n');
    assert.ok(countries.includes('BR') && countries.includes('DE'));
    assert.deepEqual(complete('- packet: {tcp.flags.syn: |}\n'), ['true', 'false']);
  });

  it('offers nothing elsewhere', () => {
    assert.deepEqual(complete('- name: |\n  packet: {}\n'), []);
    assert.deepEqual(complete('- packet: {tcp.dstport: |}\n'), []);
    assert.deepEqual(complete('- request: {}\n  redirect: {|}\n'), []);
  });

  it('completes the keys of a case on a line of their own, those of a request with what its rules do', () => {
    assert.deepEqual(complete('- packet: {}\n  expect: pass\n  |\n'), ['name', 'rule']);
    assert.deepEqual(complete('- request: {url: "https://e.com/"}\n  expect: match\n  re|\n'), ['name', 'rule', 'redirect', 'rewrite', 'headers', 'origin', 'cache', 'config', 'serve_error', 'compression']);
  });

  it('completes the keys inside `redirect`, `rewrite`, `origin` and `serve_error`, leaving out those given', () => {
    assert.deepEqual(complete('- request: {}\n  expect: redirect\n  redirect:\n    |\n'), ['url', 'status']);
    assert.deepEqual(complete('- request: {}\n  expect: match\n  rewrite:\n    path: /a\n    |\n'), ['query']);
    assert.deepEqual(complete('- request: {}\n  expect: match\n  headers:\n    |\n'), []);
  });
});

describe('test files: expected effects in the editor', () => {
  const REDIRECT_URI = 'file:///work/moved.ruleset.yaml';
  const REDIRECTS = [
    'phase: http_request_dynamic_redirect',
    'rules:',
    '  - action: redirect',
    '    expression: http.request.uri.path eq "/old"',
    '    action_parameters:',
    '      from_value:',
    '        target_url: {value: "https://example.com/new"}',
    '        status_code: 302',
    '',
  ].join('\n');
  const run = (cases: string) => check(cases, { [REDIRECT_URI]: REDIRECTS }, 'file:///work/moved.ruleset.test.yaml');

  it('a redirect that goes elsewhere is reported on the value expected, as the Test Explorer says it', () => {
    const found = run('- request: {url: "https://example.com/old"}\n  expect: redirect\n  redirect: {url: "https://example.com/elsewhere", status: 302}\n');
    assert.deepEqual(found, [
      { text: '"https://example.com/elsewhere"', message: 'expected a redirect to https://example.com/elsewhere, got a redirect to https://example.com/new by rule 1', severity: DiagnosticSeverity.Error },
    ]);
    assert.deepEqual(run('- request: {url: "https://example.com/old"}\n  expect: redirect\n  redirect: {url: "https://example.com/new", status: 302}\n'), []);
  });

  it('a misspelt key inside, a value of the wrong shape, an effect key in a packet case', () => {
    const found = run('- request: {url: "https://example.com/old"}\n  expect: redirect\n  redirect: {ulr: "https://example.com/new", status: "302"}\n');
    assert.deepEqual(
      found.map((d) => [d.text, d.message]),
      [
        ['ulr', 'unknown key `ulr` in `redirect`; did you mean `url`? (`redirect` has `url`, `status`)'],
        ['"302"', 'expected the status code of the redirect, a number (301, 302, 303, 307 or 308)'],
      ],
    );
    const packet = check('- packet: {ip.proto: tcp, tcp.dstport: 22}\n  expect: pass\n  headers: {X-A: b}\n');
    assert.deepEqual(packet.map((d) => [d.text, d.message]), [['headers', "`headers` says what rules do to an HTTP request; a packet's ruleset blocks or passes it"]]);
  });
});
