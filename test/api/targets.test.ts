/**
 * Targets: which files go to which account or zone (targetsOf, pure), and zone names turned
 * into ids through the API (resolveTargets, against the emulator).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readProjectConfig } from '../../server/src/documents/project-config';
import { resolveTargets, TargetResolutionError, targetsOf, type UnresolvedTarget } from '../../server/src/api/targets';
import { makeClient, startTestEmulator } from './harness';

const ROOT = '/repo';
const ZONE_ID = '0123456789abcdef0123456789abcdef';
const ACCOUNT_ID = 'fedcba9876543210fedcba9876543210';

function config(yaml: string) {
  const { config, problems } = readProjectConfig(yaml);
  assert.deepEqual(problems, []);
  return config;
}

describe('targetsOf: files grouped by target', () => {
  it('sends each file to the target whose globs match it, relative to the folder of .rulesets.yaml, with its plan and add-ons', () => {
    const c = config(`plan: pro
targets:
  - files: zones/example.com/*.yaml
    zone: example.com
    plan: business
    addons: [bot_management]
  - files: [account/*.json, account/**/*.tf]
    account: ${ACCOUNT_ID}
  - files: zones/by-id/*.json
    zone: ${ZONE_ID}
`);
    const files = ['/repo/zones/example.com/waf.yaml', '/repo/zones/example.com/cache.yaml', '/repo/account/root.json', '/repo/account/tf/main.tf', '/repo/zones/by-id/a.json', '/repo/other/x.json'];
    const { targets, unplaced, problems } = targetsOf(c, ROOT, files);
    assert.deepEqual(problems, []);
    assert.deepEqual(targets, [
      { scope: { kind: 'zone', name: 'example.com' }, label: 'example.com', files: ['/repo/zones/example.com/waf.yaml', '/repo/zones/example.com/cache.yaml'], plan: 'business', addons: ['bot_management'] },
      { scope: { kind: 'account', id: ACCOUNT_ID }, label: ACCOUNT_ID, files: ['/repo/account/root.json', '/repo/account/tf/main.tf'], plan: 'pro' },
      { scope: { kind: 'zone', id: ZONE_ID }, label: ZONE_ID, files: ['/repo/zones/by-id/a.json'], plan: 'pro' },
    ]);
    assert.deepEqual(unplaced, ['/repo/other/x.json']);
  });

  it("does not match a glob outside the configuration's folder, nor a bare name in a subfolder; a file given twice is one", () => {
    const c = config('targets:\n  - files: waf.yaml\n    zone: example.com\n');
    const { targets, unplaced, problems } = targetsOf(c, ROOT, ['/repo/sub/waf.yaml', '/elsewhere/waf.yaml', '/repo/waf.yaml', '/repo/waf.yaml']);
    assert.deepEqual(targets.map((t) => t.files), [['/repo/waf.yaml']]);
    assert.deepEqual(unplaced, ['/repo/sub/waf.yaml', '/elsewhere/waf.yaml']);
    assert.deepEqual(problems, []);
  });

  it('sends an octorules file no target names to the zone of its file name, as octorules does', () => {
    const c = config('targets:\n  - files: rules/special.yaml\n    zone: example.org\n');
    const files = [
      { path: '/repo/rules/example.com.yaml', octorules: true },
      { path: '/repo/rules/special.yaml', octorules: true },
      { path: `/repo/rules/${ZONE_ID}.yml`, octorules: true },
      { path: '/repo/rules/README_zone.yaml', octorules: true },
    ];
    const { targets, problems } = targetsOf(c, ROOT, files);
    assert.deepEqual(
      targets.map((t) => [t.scope, t.files]),
      [
        [{ kind: 'zone', name: 'example.org' }, ['/repo/rules/special.yaml']],
        [{ kind: 'zone', name: 'example.com' }, ['/repo/rules/example.com.yaml']],
        [{ kind: 'zone', id: ZONE_ID }, [`/repo/rules/${ZONE_ID}.yml`]],
      ],
    );
    assert.deepEqual(problems.map((p) => p.message), ["/repo/rules/README_zone.yaml: an octorules file's zone is its file name, and `README_zone` is no zone name; name it like the zone (`example.com.yaml`) or give it a target in `.rulesets.yaml`"]);
  });

  it('merges targets that name one place, and an octorules file of that zone into it', () => {
    const c = config('targets:\n  - files: team-a/*.json\n    zone: example.com\n  - files: team-b/*.json\n    zone: Example.com\n');
    const { targets, problems } = targetsOf(c, ROOT, ['/repo/team-a/1.json', '/repo/team-b/2.json', { path: '/repo/rules/example.com.yaml', octorules: true }]);
    assert.deepEqual(problems, []);
    assert.deepEqual(targets.map((t) => t.files), [['/repo/team-a/1.json', '/repo/team-b/2.json', '/repo/rules/example.com.yaml']]);
  });

  it('says so when a file is in two targets (it stays with the first), when a target matches no file, and when two targets of one zone disagree on its plan', () => {
    const c = config('targets:\n  - files: "*.json"\n    zone: example.com\n  - files: waf.json\n    zone: example.net\n  - files: none/*.json\n    account: ' + ACCOUNT_ID + '\n  - files: b/*.yaml\n    zone: example.com\n    plan: enterprise\n');
    const { targets, problems } = targetsOf(c, ROOT, ['/repo/waf.json', '/repo/b/x.yaml']);
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        '/repo/waf.json is in two targets, `example.com` and `example.net`: a file goes to one place; narrow one of the `files` globs',
        'the target `example.net` matches no file: `waf.json` (relative to /repo)',
        `the target \`${ACCOUNT_ID}\` matches no file: \`none/*.json\` (relative to /repo)`,
        'two targets send files to `example.com` with different `plan` or `addons`: a zone has one plan; say it once',
      ],
    );
    assert.equal(problems[0].file, '/repo/waf.json');
    assert.equal(problems[1].target?.zone, 'example.net', 'the item at fault comes with the problem, to place it in .rulesets.yaml');
    assert.deepEqual(targets.map((t) => t.files), [['/repo/waf.json', '/repo/b/x.yaml']]);
  });

  it('refuses an id that is no id when the configuration did not come through readProjectConfig', () => {
    const { problems } = targetsOf({ targets: [{ files: ['*.json'], account: 'acme', start: 0, end: 0 }] }, ROOT, ['/repo/a.json']);
    assert.deepEqual(problems.map((p) => p.message), ['`acme` is not an account id (32 hex digits)']);
  });

  it('groups 200 zones of 3 files each at once', () => {
    const items = Array.from({ length: 200 }, (_, i) => `  - files: zones/z${i}.example/*.yaml\n    zone: z${i}.example\n`).join('');
    const c = config(`targets:\n${items}`);
    const files = Array.from({ length: 600 }, (_, i) => `/repo/zones/z${i % 200}.example/p${i}.yaml`);
    const started = performance.now();
    const { targets, problems } = targetsOf(c, ROOT, files);
    const took = performance.now() - started;
    assert.deepEqual(problems, []);
    assert.equal(targets.length, 200);
    assert.ok(targets.every((t) => t.files.length === 3));
    assert.ok(took < 2000, `took ${took} ms`);
  });
});

describe('resolveTargets: zone names to ids, through the API', () => {
  it('looks each name up once (GET /zones?name=), merges a zone named by name and by id, and keeps ids as they are', async () => {
    const emulator = await startTestEmulator();
    try {
      const a = emulator.state.addZone({ name: 'example.com' });
      emulator.state.addZone({ name: 'example.net' });
      const targets: UnresolvedTarget[] = [
        { scope: { kind: 'zone', name: 'example.com' }, label: 'example.com', files: ['/r/1.json'], plan: 'business' },
        { scope: { kind: 'account', id: ACCOUNT_ID }, label: ACCOUNT_ID, files: ['/r/acct.json'] },
        { scope: { kind: 'zone', id: a.id }, label: a.id, files: ['/r/2.json'] },
        { scope: { kind: 'zone', name: 'EXAMPLE.com' }, label: 'EXAMPLE.com', files: ['/r/3.json'] },
      ];
      const resolved = await resolveTargets(makeClient(emulator.baseUrl), targets);
      assert.deepEqual(resolved, [
        { scope: { kind: 'zone', id: a.id }, label: 'example.com', files: ['/r/1.json', '/r/2.json', '/r/3.json'], plan: 'business' },
        { scope: { kind: 'account', id: ACCOUNT_ID }, label: ACCOUNT_ID, files: ['/r/acct.json'] },
      ]);
      assert.deepEqual(emulator.requests.map((r) => `${r.method} ${r.path}`), ['GET /zones?name=example.com&per_page=50']);
    } finally {
      await emulator.close();
    }
  });

  it('names every zone that matches none, or several, in one error', async () => {
    const emulator = await startTestEmulator();
    try {
      const first = emulator.state.addZone({ name: 'shared.example', account: 'a'.repeat(32) });
      const second = emulator.state.addZone({ name: 'shared.example', account: 'b'.repeat(32) });
      const targets: UnresolvedTarget[] = [
        { scope: { kind: 'zone', name: 'missing.example' }, label: 'missing.example', files: ['/r/1.json'] },
        { scope: { kind: 'zone', name: 'shared.example' }, label: 'shared.example', files: ['/r/2.json'] },
      ];
      const error = await resolveTargets(makeClient(emulator.baseUrl), targets).then(
        () => assert.fail('expected an error'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof TargetResolutionError);
      assert.deepEqual(error.problems, [
        'zone `missing.example`: no zone of that name is visible with these credentials; check the name, or give the zone\'s id',
        `zone \`shared.example\`: 2 zones have that name (${first.id} in account ${'a'.repeat(32)}, ${second.id} in account ${'b'.repeat(32)}); give the id of the one meant`,
      ]);
      assert.match(error.message, /^2 zones could not be found:\n {2}zone `missing\.example`/);
    } finally {
      await emulator.close();
    }
  });

  it('passes an error of the API itself on (here: wrong credentials)', async () => {
    const emulator = await startTestEmulator();
    try {
      const client = makeClient(emulator.baseUrl, { credentials: { token: 'wrong' } });
      await assert.rejects(resolveTargets(client, [{ scope: { kind: 'zone', name: 'example.com' }, label: 'example.com', files: ['/r/1.json'] }]), /403/);
    } finally {
      await emulator.close();
    }
  });

  it('resolves 200 zone names in a few round trips of the emulator', async () => {
    const emulator = await startTestEmulator();
    try {
      for (let i = 0; i < 200; i++) emulator.state.addZone({ name: `z${i}.example` });
      const targets: UnresolvedTarget[] = Array.from({ length: 200 }, (_, i) => ({ scope: { kind: 'zone', name: `z${i}.example` }, label: `z${i}.example`, files: [`/r/${i}.json`] }));
      const started = performance.now();
      const resolved = await resolveTargets(makeClient(emulator.baseUrl), targets);
      const took = performance.now() - started;
      assert.equal(new Set(resolved.map((t) => t.scope.id)).size, 200);
      assert.ok(took < 10_000, `took ${took} ms`);
    } finally {
      await emulator.close();
    }
  });
});
