/**
 * The octorules sections' data: generated/octorules-sections.ts is what `npm run
 * catalogue:octorules` writes from the wheels of the pinned octorules versions (checked when the
 * wheels are here, or can be downloaded), and its facts fit ours: every section's phase is a
 * phase we know, and its default action is an action of that phase.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { actionsOfPhase } from '../../server/src/language/catalogue/actions';
import { OCTORULES_NAMESPACE_KEYS, OCTORULES_SECTIONS, OCTORULES_VERSIONS } from '../../server/src/language/catalogue/generated/octorules-sections';
import { KNOWN_PHASES } from '../../server/src/language/catalogue/phases';

const root = join(__dirname, '..', '..');
const OUTPUT = 'server/src/language/catalogue/generated/octorules-sections.ts';
const WHEELS = process.env.OCTORULES_WHEELS ?? '/tmp/octo';
const WHEEL_FILES = [`octorules-${OCTORULES_VERSIONS.octorules}-py3-none-any.whl`, `octorules_cloudflare-${OCTORULES_VERSIONS['octorules-cloudflare']}-py3-none-any.whl`];

/** The wheels, downloaded with pip when they are not here yet; a reason when they cannot be had. */
function wheels(): string | undefined {
  if (WHEEL_FILES.every((f) => existsSync(join(WHEELS, f)))) return undefined;
  const wanted = [`octorules==${OCTORULES_VERSIONS.octorules}`, `octorules-cloudflare==${OCTORULES_VERSIONS['octorules-cloudflare']}`];
  const pip = spawnSync('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', '--retries', '1', '--timeout', '15', ...wanted, '-d', WHEELS], { encoding: 'utf8', timeout: 120_000 });
  if (WHEEL_FILES.every((f) => existsSync(join(WHEELS, f)))) return undefined;
  return `the wheels of ${wanted.join(' and ')} are not in ${WHEELS} and pip could not download them (${(pip.stderr || String(pip.error ?? '')).trim().split('\n').pop() || `exit ${pip.status}`})`;
}

describe('octorules sections (generated from octorules-cloudflare)', () => {
  it('is what the generator writes from the pinned wheels', (t) => {
    const missing = wheels();
    // Without the wheels (no network), only this comparison is skipped; the facts below still hold the committed data.
    if (missing) return t.skip(`${missing} (only this re-run check is skipped)`);
    const run = spawnSync('python3', [join(root, 'scripts', 'catalogue', 'octorules.py'), '--print'], { encoding: 'utf8', env: { ...process.env, OCTORULES_WHEELS: WHEELS } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(join(root, OUTPUT), 'utf8'), run.stdout, `${OUTPUT} differs from the generator's output: run \`npm run catalogue:octorules\` and review the diff`);
  });

  it("names phases we know, and default actions of their phase", () => {
    assert.ok(OCTORULES_SECTIONS.length >= 20);
    for (const section of OCTORULES_SECTIONS) {
      assert.ok(KNOWN_PHASES.includes(section.phase), `${section.section}: ${section.phase}`);
      if (section.defaultAction) assert.ok(actionsOfPhase(section.phase)?.includes(section.defaultAction), `${section.section}: ${section.defaultAction}`);
      assert.ok(OCTORULES_NAMESPACE_KEYS.includes(section.section), section.section);
    }
    // One section a phase: a phase's ruleset is written in one place.
    assert.equal(new Set(OCTORULES_SECTIONS.map((s) => s.phase)).size, OCTORULES_SECTIONS.length);
    // Settings sections and octorules' core sections are known keys too, not sections.
    for (const key of ['bot_management', 'lists', 'custom_rulesets']) assert.ok(OCTORULES_NAMESPACE_KEYS.includes(key) && !OCTORULES_SECTIONS.some((s) => s.section === key), key);
  });
});
