/**
 * The extension's manifest and the `.vsix` that `npm run package` builds: what a person who
 * installs it gets (settings, commands, activation, grammars) and nothing they should not.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { LANGUAGES } from '../../client/src/documents';
import { KNOWN_PHASES } from '../../server/src/language/catalogue/phases';
import { PLANS } from '../../server/src/language/catalogue/plans';
import { DEFAULT_SETTINGS } from '../../server/src/documents/settings';
import { LIST_KINDS } from '../../server/src/language/catalogue/lists';

const ROOT = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const settings = manifest.contributes.configuration.properties as Record<string, { enum?: string[]; properties?: object }>;

describe('extension manifest', () => {
  it('offers every setting the server reads, and the trace setting', () => {
    const read = Object.keys(DEFAULT_SETTINGS).concat('defaultPhase', 'plan', 'terraform.enable').map((key) => `rulesets.${key}`);
    const server = Object.keys(settings).filter((key) => !key.startsWith('rulesets.api.'));
    assert.deepEqual(server.sort(), [...new Set([...read, 'rulesets.trace.server'])].sort());
  });

  it('offers the API target as settings, never a credential; the base URL from the user alone', () => {
    const api = Object.keys(settings).filter((key) => key.startsWith('rulesets.api.'));
    assert.deepEqual(api.sort(), ['rulesets.api.accountId', 'rulesets.api.baseUrl', 'rulesets.api.zoneId']);
    for (const key of api) assert.doesNotMatch(key, /token|key$|email|secret|password/i, key);
    // A workspace's settings could otherwise send the stored token to a server of its choosing.
    assert.equal((settings['rulesets.api.baseUrl'] as { scope?: string }).scope, 'application');
  });

  it('lists the phases the checker knows for rulesets.defaultPhase', () => {
    assert.deepEqual(settings['rulesets.defaultPhase'].enum, [...KNOWN_PHASES]);
  });

  it('lists the plans the checker knows for rulesets.plan', () => {
    assert.deepEqual(settings['rulesets.plan'].enum, [...PLANS]);
  });

  it('takes rulesets.knownLists as names, or as names with the kinds the checker knows', () => {
    const lists = settings['rulesets.knownLists'] as { type: string[]; additionalProperties: { enum: (string | null)[] } };
    assert.deepEqual(lists.type, ['array', 'object']);
    assert.deepEqual(lists.additionalProperties.enum, [...LIST_KINDS, null]);
  });

  it('activates lazily: on the languages it serves and in folders with ruleset files, never on start-up', () => {
    const events: string[] = manifest.activationEvents;
    for (const language of LANGUAGES) assert.ok(events.includes(`onLanguage:${language}`), language);
    assert.ok(events.some((e) => e.startsWith('workspaceContains:') && e.includes('*.ruleset.')));
    // Terraform files, whether HashiCorp's extension gives them the `terraform` language or not.
    assert.ok(events.includes('onLanguage:terraform'));
    assert.ok(events.includes('workspaceContains:**/*.tf'));
    assert.ok(!events.includes('*') && !events.includes('onStartupFinished'));
  });

  it('adds to Terraform files without taking them over: no language of its own, no grammar for .tf, a setting to turn it off', () => {
    const languages = (manifest.contributes.languages ?? []) as { id: string; extensions?: string[] }[];
    assert.deepEqual(languages.filter((l) => l.id === 'terraform' || l.extensions?.includes('.tf')), []);
    const grammars = manifest.contributes.grammars as { language?: string; scopeName: string }[];
    assert.deepEqual(grammars.filter((g) => g.language === 'terraform' || g.scopeName === 'source.hcl.terraform'), []);
    const enable = settings['rulesets.terraform.enable'] as { type: string; default: unknown };
    assert.equal(enable.type, 'boolean');
    assert.equal(enable.default, true);
  });

  it('contributes exactly the commands the extension registers', () => {
    const sources = readdirSync(join(ROOT, 'client', 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const source = sources.map((file) => readFileSync(join(ROOT, 'client', 'src', file), 'utf8')).join('\n');
    const registered = [...source.matchAll(/registerCommand\('([^']+)'/g)].map((m) => m[1]).sort();
    const contributed = (manifest.contributes.commands as { command: string }[]).map((c) => c.command).sort();
    assert.deepEqual(contributed, registered);
  });

  it('associates ruleset JSON files with a schema that claims nothing, so the JSON support adds no guesses', () => {
    const [association] = manifest.contributes.jsonValidation as { fileMatch: string[]; url: string }[];
    // VS Code prefixes a pattern without a folder with "/", which then matches only at the root.
    assert.deepEqual(association.fileMatch, ['**/*.ruleset.json']);
    const schema = JSON.parse(readFileSync(join(ROOT, association.url), 'utf8'));
    assert.deepEqual(Object.keys(schema).filter((key) => !key.startsWith('$')), [], 'no properties, types or constraints: nothing to report twice');
  });

  it('points at grammar files that exist', () => {
    const grammars = manifest.contributes.grammars as { path: string; scopeName: string }[];
    assert.ok(grammars.length > 0, 'grammars are contributed');
    for (const grammar of grammars) {
      const path = join(ROOT, grammar.path);
      assert.ok(existsSync(path), grammar.path);
      assert.equal(JSON.parse(readFileSync(path, 'utf8')).scopeName, grammar.scopeName, grammar.path);
    }
  });
});

/** The names and contents of a zip archive's entries (stored or deflated; all a .vsix uses). */
function readZip(archive: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = archive.readUInt32LE(end + 16);
  const count = archive.readUInt16LE(end + 10);
  for (let i = 0; i < count; i++) {
    const method = archive.readUInt16LE(at + 10);
    const size = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.toString('utf8', at + 46, at + 46 + nameLength);
    const dataStart = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(dataStart, dataStart + size);
    entries.set(name, method === 8 ? inflateRawSync(data) : data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

describe('npm run package', () => {
  let vsix: string;
  let files: Map<string, Buffer>;
  before(() => {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'pipe' });
    vsix = join(ROOT, `${manifest.name}-${manifest.version}.vsix`);
    files = readZip(readFileSync(vsix));
  });

  it('builds a small .vsix of bundled code: no node_modules, no sources, no source maps', () => {
    assert.ok(statSync(vsix).size < 1024 * 1024, `${statSync(vsix).size} bytes`);
    const names = [...files.keys()];
    for (const name of names) assert.doesNotMatch(name, /node_modules|\.ts$|\.map$|^extension\/(test|server\/src|client\/src|examples)\//, name);
    for (const needed of ['extension/dist/extension.js', 'extension/dist/server.js', 'extension/dist/rulesets-server.js', 'extension/dist/expression.ohm', 'extension/dist/expression.recipe.json', 'extension/dist/tree-sitter.wasm', 'extension/dist/tree-sitter-hcl.wasm', 'extension/images/icon.png', 'extension/schemas/ruleset.schema.json'])
      assert.ok(files.has(needed), needed);
    for (const grammar of manifest.contributes.grammars as { path: string }[]) assert.ok(files.has(`extension/${grammar.path.replace(/^\.\//, '')}`), grammar.path);
  });

  it('carries the extension README, the changelog, the licence, an icon, categories and keywords', () => {
    assert.match(files.get('extension/readme.md')!.toString(), /^# Rulesets for VS Code/);
    // The changelog a user reads on the extension's page starts with the release they install.
    const newestRelease = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(files.get('extension/changelog.md')!.toString());
    assert.equal(newestRelease?.[1], manifest.version);
    assert.match(files.get('extension/LICENSE.txt')!.toString(), /MIT License/);
    const packed = JSON.parse(files.get('extension/package.json')!.toString());
    assert.equal(packed.version, manifest.version);
    assert.equal(packed.icon, 'images/icon.png');
    assert.ok(packed.categories.includes('Programming Languages') && packed.categories.includes('Linters'));
    assert.ok(packed.keywords.includes('rulesets'));
    const vsixManifest = files.get('extension.vsixmanifest')!.toString();
    assert.match(vsixManifest, /<DisplayName>Rulesets<\/DisplayName>/);
  });

  it('starts the bundled server from the package alone', () => {
    const server = files.get('extension/dist/rulesets-server.js')!.toString();
    assert.doesNotMatch(server, /require\("(ohm-js|yaml|jsonc-parser|vscode-languageserver|web-tree-sitter)/, 'dependencies are bundled in');
    const extension = files.get('extension/dist/extension.js')!.toString();
    assert.doesNotMatch(extension, /require\("vscode-languageclient/, 'the client library is bundled in');
  });
});
