// The library entry through the package's public path, as a user's project has it: the
// package as `npm pack` makes it, unpacked where `npm install` puts it (node_modules/rulesets-tools:
// no registry is asked, and the bundle needs none of its dependencies), then `require`, `import`,
// and TypeScript over its types, each from a project of its own outside this repository.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXPRESSION_KINDS } from '../../server/src/documents/bare-expression';
import { PLANS } from '../../server/src/language/catalogue/plans';
import { LIST_KINDS } from '../../server/src/language/catalogue/lists';

const ROOT = resolve(__dirname, '..', '..');
let project: string;
let installed: string;

/** Runs a file of the user's project with node, from the project's folder; its output as JSON when it prints some. */
function runInProject(name: string, text: string): string {
  writeFileSync(join(project, name), text);
  const result = spawnSync(process.execPath, [name], { cwd: project, encoding: 'utf8' });
  assert.equal(result.status, 0, `${name}: ${result.stderr}`);
  return result.stdout;
}

before(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `build failed: ${build.stderr}`);
  project = mkdtempSync(join(tmpdir(), 'rulesets-library-'));
  // Built above: the package's own `prepare` need not build it again.
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', project], { cwd: ROOT, stdio: 'pipe' });
  const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'))!;
  installed = join(project, 'node_modules', 'rulesets-tools');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(project, tarball), '-C', installed, '--strip-components=1']);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', version: '1.0.0', private: true, dependencies: { 'rulesets-tools': `file:${tarball}` } }));
});

after(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the package', () => {
  it('holds the library, its types and what it reads beside it; main stays the VS Code extension', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    assert.equal(manifest.main, './dist/extension.js');
    assert.deepEqual(manifest.exports['.'], { types: './dist/library.d.ts', default: './dist/library.js' });
    assert.equal(manifest.types, './dist/library.d.ts');
    const files = readdirSync(join(installed, 'dist'));
    for (const needed of ['library.js', 'library.d.ts', 'tree-sitter.wasm', 'tree-sitter-hcl.wasm', 'expression.ohm', 'expression.recipe.json', 'cli.js', 'rulesets-cli.js', 'server.js', 'rulesets-server.js']) assert.ok(files.includes(needed), needed);
    // The bins run from the package alone too.
    const version = spawnSync(process.execPath, [join(installed, manifest.bin.rulesets), '--version'], { cwd: project, encoding: 'utf8' });
    assert.equal(version.stdout, `${manifest.version}\n`);
  });
});

describe("README's install: the tarball as a dev dependency of another repository", () => {
  it('npm installs it with nothing from the registry (the bundles need no dependency), and `npx rulesets` runs there', () => {
    const repository = mkdtempSync(join(tmpdir(), 'rulesets-install-'));
    try {
      const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'))!;
      mkdirSync(join(repository, 'vendor'));
      copyFileSync(join(project, tarball), join(repository, 'vendor', tarball));
      writeFileSync(join(repository, 'package.json'), JSON.stringify({ name: 'your-repository', version: '1.0.0', private: true }));
      writeFileSync(join(repository, 'edge.ruleset.yaml'), 'name: edge\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.hots eq "a.example.com"\n');
      // --offline: a package that asked the registry for a dependency would fail here.
      execFileSync('npm', ['install', '--save-dev', '--offline', '--no-audit', '--no-fund', `./vendor/${tarball}`], { cwd: repository, stdio: 'pipe' });
      assert.ok(existsSync(join(repository, 'node_modules', '.bin', 'rulesets')));
      assert.ok(existsSync(join(repository, 'node_modules', '.bin', 'rulesets-language-server')));
      const check = spawnSync('npx', ['--no', 'rulesets', 'check', '.'], { cwd: repository, encoding: 'utf8' });
      assert.equal(check.status, 1, check.stderr);
      assert.match(check.stdout, /edge\.ruleset\.yaml:6:17: error unknown-field unknown field `http\.hots`/);
    } finally {
      rmSync(repository, { recursive: true, force: true });
    }
  });
});

describe('require("rulesets-tools")', () => {
  it('checks an expression: each finding with its code, severity, message, 0-based range and fixes', () => {
    const out = runInProject(
      'expression.cjs',
      `const { checkExpression } = require('rulesets-tools');
console.log(JSON.stringify({
  typo: checkExpression('http.hots eq "a" and ip.src in {1.2.3.4,}'),
  clean: checkExpression('http.host eq "example.com"'),
  packet: checkExpression('tcp.dstport == 22', { phase: 'magic_transit' }),
  response: checkExpression('http.response.code eq 404').map((f) => f.code),
  rewrite: checkExpression('concat("/v2", http.request.uri.path)', { kind: 'rewrite' }),
  header: checkExpression('cf.edge.server_port', { kind: 'request-header' }).map((f) => [f.code, f.fixes[0].edits[0].newText]),
  lists: checkExpression('ip.src in $office and ip.src in $ofice', { lists: ['office'] }).map((f) => [f.code, f.range.start.character]),
  quiet: checkExpression('ip.src.country in {"br"}', { rules: { 'country-code-case': 'off' } }),
  lines: checkExpression('http.host eq "a"\\n  and lowr(http.host) eq "b"').map((f) => f.range.start),
}));`,
    );
    const result = JSON.parse(out);
    assert.deepEqual(result.typo, [
      {
        code: 'unknown-field',
        severity: 'error',
        message: 'unknown field `http.hots` in phase `http_request_firewall_custom`; did you mean `http.host`?',
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } },
        fixes: [{ title: 'Change to `http.host`', edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } }, newText: 'http.host' }] }],
      },
      {
        code: 'comma-in-set',
        severity: 'error',
        message: 'expected whitespace between set items, found `,`; items of a `{…}` set are separated by spaces only',
        range: { start: { line: 0, character: 39 }, end: { line: 0, character: 40 } },
        fixes: [{ title: 'Separate set items with spaces', edits: [{ range: { start: { line: 0, character: 39 }, end: { line: 0, character: 40 } }, newText: ' ' }] }],
      },
    ]);
    assert.deepEqual(result.clean, []);
    assert.deepEqual(result.packet, []);
    assert.deepEqual(result.response, ['field-not-available']);
    assert.deepEqual(result.rewrite, []);
    assert.deepEqual(result.header, [['type-mismatch', 'to_string(cf.edge.server_port)']]);
    assert.deepEqual(result.lists, [['unknown-list', 32]]);
    assert.deepEqual(result.quiet, []);
    assert.deepEqual(result.lines, [{ line: 1, character: 6 }]);
  });

  it('throws a RangeError with the name meant for a misspelt kind, phase or format, and a TypeError for no text', () => {
    const out = runInProject(
      'mistakes.cjs',
      `const { checkExpression, checkRuleset } = require('rulesets-tools');
const caught = (f) => { try { f(); return 'no error'; } catch (e) { return [e.constructor.name, e.message]; } };
checkRuleset('{}', { format: 'jsn' }).catch((e) => console.log(JSON.stringify({
  kind: caught(() => checkExpression('x', { kind: 'rewite' })),
  phase: caught(() => checkExpression('x', { phase: 'http_request_firewall_custon' })),
  place: caught(() => checkExpression('x', { kind: 'rewrite', phase: 'magic_transit' })),
  format: [e.constructor.name, e.message],
  text: caught(() => checkExpression(undefined)),
})));`,
    );
    const result = JSON.parse(out);
    assert.deepEqual(result.kind, ['RangeError', 'unknown kind of expression `rewite` (options.kind); did you mean `rewrite`?']);
    assert.equal(result.phase[0], 'RangeError');
    assert.match(result.phase[1], /^unknown phase `http_request_firewall_custon` \(options\.phase\); did you mean `http_request_firewall_custom`/);
    assert.equal(result.place[0], 'RangeError');
    assert.match(result.place[1], /^a `rewrite` expression has no place in phase `magic_transit`/);
    assert.deepEqual(result.format, ['RangeError', 'unknown format `jsn` (options.format); did you mean `json`?']);
    assert.deepEqual(result.text, ['TypeError', 'expected the text to check as a string, found undefined']);
  });

  it('checks a ruleset in each format, every finding on its place in the text, a Terraform one with the parser beside the library', () => {
    const out = runInProject(
      'rulesets.cjs',
      `const { checkRuleset } = require('rulesets-tools');
const at = (findings) => findings.filter((f) => f.severity === 'error').map((f) => [f.code, f.range.start.line, f.range.start.character]);
const json = '{"name": "x", "kind": "root", "phase": "magic_transit", "rules": [\\n  {"action": "block", "expression": "tcp.dstprt == 22"}\\n]}\\n';
const yaml = 'name: x\\nkind: root\\nphase: magic_transit\\nrules:\\n  - action: block\\n    expression: tcp.dstport in {22, 23}\\n';
const noPhase = 'name: x\\nkind: root\\nrules:\\n  - action: block\\n    expression: tcp.dstport == 22\\n';
const octorules = 'waf_custom_rules:\\n  - ref: one\\n    action: block\\n    expression: http.hots eq "a"\\n';
const terraform = 'resource "cloudflare_ruleset" "waf" {\\n  zone_id = "x"\\n  name    = "waf"\\n  kind    = "zone"\\n  phase   = "http_request_firewall_custom"\\n  rules = [{\\n    ref        = "one"\\n    action     = "block"\\n    expression = "lowr(http.host) eq \\\\"a\\\\""\\n  }]\\n}\\n';
(async () => console.log(JSON.stringify({
  json: at(await checkRuleset(json, { format: 'json' })),
  jsonByText: at(await checkRuleset(json)),
  yaml: at(await checkRuleset(yaml, { fileName: 'edge.ruleset.yaml' })),
  noPhase: at(await checkRuleset(noPhase, { format: 'yaml' })).map(([code]) => code),
  phaseGiven: at(await checkRuleset(noPhase, { format: 'yaml', phase: 'magic_transit' })),
  octorules: at(await checkRuleset(octorules, { format: 'octorules' })),
  terraform: at(await checkRuleset(terraform, { format: 'terraform' })),
  terraformByName: at(await checkRuleset(terraform, { fileName: 'waf.tf' })),
})))();`,
    );
    const result = JSON.parse(out);
    assert.deepEqual(result.json, [['unknown-field', 1, 37]]);
    assert.deepEqual(result.jsonByText, result.json);
    assert.deepEqual(result.yaml, [['comma-in-set', 5, 34]]);
    assert.deepEqual(result.noPhase, [], 'a ruleset that names no phase is no error: its rules are checked for what holds in every phase');
    assert.deepEqual(result.phaseGiven, []);
    assert.deepEqual(result.octorules, [['unknown-field', 3, 16]]);
    assert.deepEqual(result.terraform, [['unknown-function', 8, 18]]);
    assert.deepEqual(result.terraformByName, result.terraform);
  });
});

describe('import from "rulesets-tools" (ES module)', () => {
  it('gives the same named functions', () => {
    const out = runInProject(
      'esm.mjs',
      `import { checkExpression, checkRuleset } from 'rulesets-tools';
import * as library from 'rulesets-tools';
console.log(JSON.stringify({ names: Object.keys(library).filter((k) => k !== 'default' && k !== 'module.exports').sort(), codes: checkExpression('http.hots eq "a"').map((f) => f.code), ruleset: typeof checkRuleset }));`,
    );
    assert.deepEqual(JSON.parse(out), { names: ['checkExpression', 'checkRuleset'], codes: ['unknown-field'], ruleset: 'function' });
  });

  it("runs docs/library.md's example and prints what it shows", () => {
    const section = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');
    const [, code, printed] = /```js\n([\s\S]*?)```\n\nprints\n\n```text\n([\s\S]*?)```/.exec(section) ?? [];
    assert.ok(code && printed, "docs/library.md's example and its output");
    assert.equal(runInProject('readme.mjs', code), printed);
  });
});

describe('the types (dist/library.d.ts)', () => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

  /** Type-checks a file of the user's project with these module options; the compiler's messages, empty when it passes. */
  function typeCheck(moduleOptions: Record<string, unknown>, text: string): string {
    writeFileSync(join(project, 'use.ts'), text);
    // No types of node: the user's code reaches the package's types alone.
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { noEmit: true, strict: true, types: [], lib: ['es2022'], ...moduleOptions }, files: ['use.ts'] }));
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    return result.stdout + result.stderr;
  }

  const USE = `import { checkExpression, checkRuleset, type ExpressionKind, type Finding, type RulesetOptions } from 'rulesets-tools';
const kinds: ExpressionKind[] = ${JSON.stringify(EXPRESSION_KINDS.map((k) => k.name))};
const found: Finding[] = kinds.flatMap((kind) => checkExpression('http.host', { kind, plan: 'business', lists: { office: 'ip' }, rules: { 'country-code-case': 'off' } }));
const line: number = found[0].range.start.line;
const options: RulesetOptions = { format: 'terraform', fileName: 'main.tf', phase: 'magic_transit', plan: 'enterprise', lists: ['office'] };
const later: Promise<Finding[]> = checkRuleset('', options);
// @ts-expect-error: not a kind
checkExpression('x', { kind: 'rewrites' });
// @ts-expect-error: not a format
void checkRuleset('', { format: 'hcl' });
// @ts-expect-error: findings are read-only
found[0].code = 'x';
export { line, later };
`;

  it('type-check a user\'s use of both functions, and refuse what the functions refuse', () => {
    assert.equal(typeCheck({ module: 'nodenext', moduleResolution: 'nodenext' }, USE), '');
    // An older resolution, which reads package.json's `types` and not `exports`.
    assert.equal(typeCheck({ module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true }, USE), '');
    // Not `any`: a wrong use is an error.
    assert.match(typeCheck({ module: 'nodenext', moduleResolution: 'nodenext' }, `import { checkExpression } from 'rulesets-tools';\nconst n: number = checkExpression('x');\nexport { n };\n`), /TS2322/);
  });

  it("name every kind, plan and list kind the core knows, and no other", () => {
    const declarations = readFileSync(join(installed, 'dist', 'library.d.ts'), 'utf8');
    const union = (name: string) => [.../'([^']+)'/g[Symbol.matchAll](new RegExp(`export type ${name} = ([^;]+);`).exec(declarations)?.[1] ?? '')].map((m) => m[1]);
    assert.deepEqual(union('ExpressionKind'), EXPRESSION_KINDS.map((k) => k.name));
    assert.deepEqual(union('Plan'), [...PLANS]);
    assert.deepEqual(union('ListKind'), [...LIST_KINDS]);
  });
});
