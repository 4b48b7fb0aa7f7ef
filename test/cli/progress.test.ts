/**
 * A check longer than two seconds on a terminal says how far it is, on one line of stderr that
 * it overwrites and clears before the report (cli/progress.ts); never in a pipe, never on stdout.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Progress, PROGRESS_AFTER_MS } from '../../server/src/cli/progress';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

/** A Progress on a clock the test moves, and what it wrote. */
function progress(terminal: boolean, env: NodeJS.ProcessEnv = {}) {
  let time = 1_000_000;
  const written: string[] = [];
  const shown = new Progress((t) => written.push(t), { terminal, env, now: () => time });
  return { shown, written, advance: (ms: number) => void (time += ms) };
}

describe('progress of a long check', () => {
  it('on a terminal: nothing for two seconds, then files done of the total and the expressions of the file, then the line is cleared', () => {
    const { shown, written, advance } = progress(true);
    shown.file(0, 3, 'a.ruleset.yaml');
    shown.expression(500, 50_000);
    advance(PROGRESS_AFTER_MS - 1);
    shown.expression(1000, 50_000);
    assert.deepEqual(written, [], 'a check that ends within two seconds shows nothing');
    advance(1);
    shown.expression(1001, 50_000);
    assert.deepEqual(written, ['\r\x1b[Krulesets: 0/3 files checked; checking a.ruleset.yaml: 1,001/50,000 expressions']);
    shown.expression(1002, 50_000);
    assert.equal(written.length, 1, 'redrawn at most every 100 ms');
    advance(100);
    shown.file(1, 3, 'b.ruleset.yaml');
    assert.equal(written[1], '\r\x1b[Krulesets: 1/3 files checked; checking b.ruleset.yaml');
    shown.end();
    assert.equal(written[2], '\r\x1b[K', 'cleared before the report');
  });

  it('one file: its expressions only', () => {
    const { shown, written, advance } = progress(true);
    shown.file(0, 1, 'big.ruleset.json');
    advance(PROGRESS_AFTER_MS);
    shown.expression(20_000, 50_000);
    assert.deepEqual(written, ['\r\x1b[Krulesets: checking big.ruleset.json: 20,000/50,000 expressions']);
  });

  it('never when stderr is not a terminal, nor with RULESETS_PROGRESS=0; from the start with RULESETS_PROGRESS=1', () => {
    for (const [terminal, env] of [[false, {}], [true, { RULESETS_PROGRESS: '0' }]] as const) {
      const { shown, written, advance } = progress(terminal, env);
      shown.file(0, 2, 'a.ruleset.yaml');
      advance(60_000);
      shown.expression(1, 2);
      shown.end();
      assert.deepEqual(written, [], JSON.stringify({ terminal, env }));
    }
    const forced = progress(false, { RULESETS_PROGRESS: '1' });
    forced.shown.file(0, 2, 'a.ruleset.yaml');
    assert.deepEqual(forced.written, ['\r\x1b[Krulesets: 0/2 files checked; checking a.ruleset.yaml']);
  });
});

describe('rulesets check, as a process (npm run build first)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-progress-'));
  const rule = (i: number) => `  - {action: block, expression: "ip.src eq 192.0.2.${i % 250}"}\n`;
  for (const name of ['a', 'b']) writeFileSync(join(dir, `${name}.ruleset.yaml`), `name: ${name}\nkind: root\nphase: magic_transit\nrules:\n${Array.from({ length: 50 }, (_, i) => rule(i)).join('')}`);

  it('RULESETS_PROGRESS=1: the progress goes to stderr and is cleared; stdout holds the JSON report alone', () => {
    const result = spawnSync(process.execPath, [CLI, 'check', dir, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, RULESETS_PROGRESS: '1' } });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /^\r\x1b\[Krulesets: 0\/2 files checked; checking .*a\.ruleset\.yaml/);
    assert.ok(result.stderr.endsWith('\r\x1b[K'), JSON.stringify(result.stderr.slice(-40)));
    assert.equal(JSON.parse(result.stdout).files.length, 2);
  });

  // `script` gives the CLI a terminal (util-linux); with no wait, the terminal shows the
  // progress line, and the report follows on a line of its own.
  const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
  it('on a terminal (a pseudo-terminal), by default: the line is drawn and cleared', { skip: script.error || script.status !== 0 ? '`script` (util-linux) is not installed' : false }, () => {
    const command = [process.execPath, CLI, 'check', dir].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const env: NodeJS.ProcessEnv = { ...process.env, RULESETS_PROGRESS_AFTER_MS: '0' };
    delete env.RULESETS_PROGRESS;
    const result = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env });
    assert.equal(result.status, 0, result.stdout);
    assert.match(result.stdout, /\r\x1b\[Krulesets: 0\/2 files checked; checking /);
    assert.match(result.stdout, /\r\x1b\[K(\x1b\[[0-9;]*m)*2 files checked/, 'cleared before the report');
  });

  it('in a pipe, by default: nothing on stderr', () => {
    // Without a terminal, even with no wait.
    const env: NodeJS.ProcessEnv = { ...process.env, RULESETS_PROGRESS_AFTER_MS: '0' };
    delete env.RULESETS_PROGRESS;
    const result = spawnSync(process.execPath, [CLI, 'check', dir], { encoding: 'utf8', env });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
  });
});
