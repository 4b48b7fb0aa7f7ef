/**
 * The Plan view plans what `rulesets plan` at the workspace's root plans: on one repository, the
 * view's discovery (client/src/api/plan-files.ts, over the files VS Code's search gives) and the
 * CLI's (targetsForPlan) come to the same targets and the same files left out. The repository
 * has what tells them apart: files named by targets (a zone by name, a zone by id), an octorules
 * file (its zone is its name), a file no target names, a file under a `.rulesets.yaml` without
 * targets (the default account or zone), JSON and YAML files that are no rulesets, a test file,
 * a Terraform file, and ruleset files in `node_modules` and a hidden folder.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Emulator } from '../../server/src/api/emulator';
import type { Target } from '../../server/src/api/targets';
import { planFileReader as cliReader, targetsForPlan } from '../../server/src/cli/plan-command';
import { planFileReader, workspaceEstate, WorkspaceConfigs } from '../../client/src/api/plan-files';
import { makeClient, SECRETS, startTestEmulator } from '../api/harness';

const PHASE = 'http_request_firewall_custom';
const ALPHA = { name: 'alpha.example', id: 'a1'.repeat(16) };
const GAMMA = { name: 'gamma.example', id: 'c3'.repeat(16) };
const BETA = 'b2'.repeat(16);
const DEFAULT_ZONE = 'd4'.repeat(16);

let emulator: Emulator;
let repo: string;

const ruleset = (ref: string) => `name: default\nkind: zone\nphase: ${PHASE}\nrules:\n  - ref: ${ref}\n    action: block\n    expression: http.request.uri.path eq "/${ref}"\n`;

before(async () => {
  emulator = await startTestEmulator();
  emulator.state.addZone(ALPHA);
  emulator.state.addZone(GAMMA);
  repo = mkdtempSync(join(tmpdir(), 'rulesets-plan-files-'));
  const files: Record<string, string> = {
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.rulesets.yaml': `files: ["custom/*.yaml"]\ntargets:\n  - files: zones/alpha/**\n    zone: ${ALPHA.name}\n  - files: [zones/beta/**, custom/*.yaml]\n    zone: "${BETA}"\n`,
    'zones/alpha/waf.yaml': ruleset('alpha'),
    'zones/alpha/notes.json': '{"owner": "team-a"}\n',
    'zones/alpha/waf.ruleset.test.yaml': 'ruleset: waf.yaml\ncases: []\n',
    'zones/beta/main.tf': `resource "cloudflare_ruleset" "waf" {\n  zone_id = "${BETA}"\n  name    = "default"\n  kind    = "zone"\n  phase   = "${PHASE}"\n  rules = [{\n    ref        = "beta"\n    action     = "block"\n    expression = "http.request.uri.path eq \\"/beta\\""\n  }]\n}\n`,
    // By the configuration's `files:` pattern only: its content has no `phase` or `kind`.
    'custom/extra.yaml': 'rules:\n  - ref: extra\n    action: block\n    expression: http.request.uri.path eq "/extra"\n',
    [`${GAMMA.name}.yaml`]: 'cloudflare:\n  waf_custom_rules:\n    - ref: gamma\n      action: block\n      expression: http.request.uri.path eq "/gamma"\n',
    'stray/waf.yaml': ruleset('stray'),
    'package.json': '{"name": "estate", "version": "1.0.0"}\n',
    'sub/.rulesets.yaml': 'plan: pro\n',
    'sub/other.ruleset.yaml': ruleset('other'),
    'node_modules/pkg/waf.ruleset.yaml': ruleset('dependency'),
    '.hidden/waf.ruleset.yaml': ruleset('hidden'),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
});

after(async () => {
  await emulator.close();
  rmSync(repo, { recursive: true, force: true });
});

/** What VS Code's `findFiles('**\/*.{json,yaml,yml,tf}', '{**\/node_modules/**,**\/.*\/**}')` gives. */
function searched(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : searched(path);
    return /\.(json|ya?ml|tf)$/.test(entry.name) ? [path] : [];
  });
}

/** Targets as compared: where, as labelled, which files (relative), in order. */
const comparable = (targets: readonly Target[]) => targets.map((t) => ({ scope: t.scope, label: t.label, files: t.files.map((f) => f.slice(repo.length + 1)).sort(), plan: t.plan }));

describe("the Plan view's files and targets", () => {
  it("are the CLI's: the same targets, the same files, the same files left out", async () => {
    const warnings: string[] = [];
    const env = { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: SECRETS.token, RULESETS_ZONE_ID: DEFAULT_ZONE };
    const io = { out: () => {}, err: (text: string) => warnings.push(text), env, interactive: false, ask: async () => '' };
    const cli = await targetsForPlan([repo], {}, env, io, cliReader());

    const view = await workspaceEstate(searched(repo), {
      configs: new WorkspaceConfigs(),
      read: planFileReader(),
      zoneFinder: () => makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: DEFAULT_ZONE } }),
      defaultScope: () => ({ kind: 'zone', id: DEFAULT_ZONE }),
    });

    const expected = [
      { scope: { kind: 'zone', id: ALPHA.id }, label: ALPHA.name, files: ['zones/alpha/waf.yaml'], plan: undefined },
      { scope: { kind: 'zone', id: BETA }, label: BETA, files: ['custom/extra.yaml', 'zones/beta/main.tf'], plan: undefined },
      { scope: { kind: 'zone', id: GAMMA.id }, label: GAMMA.name, files: [`${GAMMA.name}.yaml`], plan: undefined },
      { scope: { kind: 'zone', id: DEFAULT_ZONE }, label: DEFAULT_ZONE, files: ['sub/other.ruleset.yaml'], plan: undefined },
    ];
    assert.deepEqual(comparable(cli), expected);
    assert.deepEqual(comparable(view.targets), expected);
    assert.deepEqual(view.unplaced.map((u) => u.file.slice(repo.length + 1)), ['stray/waf.yaml']);
    assert.deepEqual(warnings.map((w) => /rulesets: (\S+): no target of/.exec(w)?.[1]?.split('/').slice(-2).join('/')), ['stray/waf.yaml']);
    assert.deepEqual(view.unscoped, []);
  });

  it('without an account or zone chosen, the files no target governs are left out, named, and the rest is planned', async () => {
    const view = await workspaceEstate(searched(repo), {
      configs: new WorkspaceConfigs(),
      read: planFileReader(),
      zoneFinder: () => makeClient(emulator.baseUrl, { scope: { kind: 'zone', id: DEFAULT_ZONE } }),
      defaultScope: () => undefined,
    });
    assert.deepEqual(view.targets.map((t) => t.label), [ALPHA.name, BETA, GAMMA.name]);
    assert.deepEqual(view.unscoped.map((f) => f.slice(repo.length + 1)), ['sub/other.ruleset.yaml']);
  });
});
