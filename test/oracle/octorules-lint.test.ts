/**
 * octorules' lint catalogue beside ours: docs/octorules-lint.json answers every rule of the
 * pinned octorules wheels with our codes or a decided difference (nothing is left pending);
 * docs/octorules-lint.md is the table made from it. The data is what
 * `npm run compare:octorules-lint` writes from the wheels (checked when they are here or can be
 * downloaded), and every code it names is one of ours.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROBLEM_CODES } from '../../server/src/language/problem-codes';

const root = join(__dirname, '..', '..');
const SCRIPT = join(root, 'scripts', 'compare-octorules-lint.py');

interface Row {
  readonly id: string;
  readonly package: string;
  readonly category: string;
  readonly severity: string;
  readonly what?: string;
  readonly ours?: readonly string[];
  readonly note?: string;
  readonly decided?: string;
}
interface Data {
  readonly source: { readonly packages: Record<string, string>; readonly wheels: Record<string, string> };
  readonly rules: readonly Row[];
}

const data = JSON.parse(readFileSync(join(root, 'docs', 'octorules-lint.json'), 'utf8')) as Data;
const WHEELS = process.env.OCTORULES_WHEELS ?? '/tmp/octo';
const WHEEL_FILES = Object.keys(data.source.wheels);

/** The wheels, downloaded with pip when they are not here yet; a reason when they cannot be had. */
function wheels(): string | undefined {
  if (WHEEL_FILES.every((f) => existsSync(join(WHEELS, f)))) return undefined;
  const wanted = Object.entries(data.source.packages).map(([name, version]) => `${name}==${version}`);
  const pip = spawnSync('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', '--retries', '1', '--timeout', '15', ...wanted, '-d', WHEELS], { encoding: 'utf8', timeout: 120_000 });
  if (WHEEL_FILES.every((f) => existsSync(join(WHEELS, f)))) return undefined;
  return `the wheels of ${wanted.join(' and ')} are not in ${WHEELS} and pip could not download them (${(pip.stderr || String(pip.error ?? '')).trim().split('\n').pop() || `exit ${pip.status}`})`;
}

describe("octorules' lint rules beside ours (docs/octorules-lint.json)", () => {
  it('is what the script reads from the pinned wheels, and the table is made from it', (t) => {
    const missing = wheels();
    // Without the wheels only the extraction is not re-run; the table is still checked against the data.
    const run = spawnSync('python3', [SCRIPT, '--check', ...(missing ? ['--table'] : [])], { encoding: 'utf8', env: { ...process.env, OCTORULES_WHEELS: WHEELS } });
    assert.equal(run.status, 0, run.stderr);
    if (missing) t.skip(`${missing} (only the table was checked)`);
  });

  it('answers every rule once: our codes or a decided difference, never left pending', () => {
    // 171 rules of octorules-cloudflare 0.18.1 and 11 of octorules' core 0.37.0.
    assert.equal(data.rules.length, 182);
    assert.equal(new Set(data.rules.map((r) => r.id)).size, data.rules.length);
    assert.equal(data.rules.filter((r) => r.package === 'octorules-cloudflare').length, 171);
    for (const row of data.rules) {
      // Every key a row may have: an answer still to be made (`pending`, say) is none of them.
      const unknown = Object.keys(row).filter((k) => !['id', 'package', 'category', 'severity', 'sets', 'suppressible', 'what', 'ours', 'note', 'decided'].includes(k));
      assert.deepEqual(unknown, [], `${row.id}: ${unknown.join(', ')} is no answer; give \`ours\` or \`decided\``);
      const answers = (['ours', 'decided'] as const).filter((k) => row[k] !== undefined);
      assert.equal(answers.length, 1, `${row.id}: ${answers.join(', ') || 'no answer'}`);
      assert.ok(row.what && row.what.length > 0, `${row.id}: no \`what\``);
      if (row.ours) {
        assert.ok(row.ours.length > 0, `${row.id}: \`ours\` names no code`);
        for (const code of row.ours) assert.ok(PROBLEM_CODES.has(code), `${row.id}: \`${code}\` is not one of our codes`);
      } else {
        assert.equal(row.note, undefined, `${row.id}: a note belongs to \`ours\``);
        assert.ok(row.decided!.length > 20, `${row.id}: the reason says too little`);
      }
    }
  });

  it('keeps their descriptions out: each `what` is in our words', (t) => {
    // The wheels' own descriptions are not stored; this reads them from the pinned module, when it is here.
    const module = join(WHEELS, WHEEL_FILES.find((f) => f.startsWith('octorules_cloudflare-'))!);
    if (!existsSync(module)) return t.skip(`no ${module}`);
    const run = spawnSync('python3', ['-c', [
      'import ast, json, sys, zipfile',
      'tree = ast.parse(zipfile.ZipFile(sys.argv[1]).read("octorules_cloudflare/linter/_rules.py"))',
      'print(json.dumps({n.args[0].value: n.args[2].value for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "RuleMeta"}))',
    ].join('\n'), module], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const theirs = JSON.parse(run.stdout) as Record<string, string>;
    for (const row of data.rules) {
      if (theirs[row.id] === undefined) continue;
      assert.notEqual(row.what!.replace(/\.$/, '').toLowerCase(), theirs[row.id].toLowerCase(), `${row.id}: \`what\` repeats octorules' description`);
    }
  });
});
