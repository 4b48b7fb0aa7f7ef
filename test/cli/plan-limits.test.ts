/**
 * `rulesets check` with a plan and add-ons in `.rulesets.yaml`, as a process (needs `npm run
 * build`): a ruleset past its phase's quota fails the run, on the rule past it; the add-ons reach
 * the checks; a misspelt add-on is the configuration's error.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = join(resolve(__dirname, '..', '..'), 'dist', 'cli.js');
const temps: string[] = [];

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rulesets-plan-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function check(dir: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, 'check', '.'], { cwd: dir, encoding: 'utf8' });
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const waf = (n: number, expression = (i: number) => `http.host eq "a${i}.example.com"`) =>
  `name: waf\nkind: zone\nphase: http_request_firewall_custom\nrules:\n${Array.from({ length: n }, (_, i) => `  - action: block\n    expression: '${expression(i)}'\n`).join('')}`;

after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('rulesets check: the plan and add-ons of .rulesets.yaml', () => {
  it('fails on the sixth WAF custom rule of a Free zone, and passes five', () => {
    const over = check(folder({ '.rulesets.yaml': 'plan: free\n', 'waf.ruleset.yaml': waf(6) }));
    assert.equal(over.status, 1);
    // The sixth rule's `- action:` is on line 15.
    assert.match(over.stdout, /waf\.ruleset\.yaml:15:5: error rule-quota this is rule 6 of the 6 enabled WAF custom rules of this ruleset, and the Free plan allows 5/);
    const clean = check(folder({ '.rulesets.yaml': 'plan: free\n', 'waf.ruleset.yaml': waf(5) }));
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  });

  it("passes `addons` to the checks: Bot Management's fields on Enterprise", () => {
    const bot = waf(1, () => 'cf.bot_management.score lt 30');
    const without = check(folder({ '.rulesets.yaml': 'plan: enterprise\naddons: []\n', 'waf.ruleset.yaml': bot }));
    assert.equal(without.status, 1);
    assert.match(without.stdout, /error addon-required `cf\.bot_management\.score` needs the Bot Management add-on/);
    const withIt = check(folder({ '.rulesets.yaml': 'plan: enterprise\naddons: [bot_management]\n', 'waf.ruleset.yaml': bot }));
    assert.equal(withIt.status, 0, withIt.stdout + withIt.stderr);
  });

  it("checks a target's files with that target's plan, and the other files with the top-level one", () => {
    const dir = folder({ '.rulesets.yaml': 'plan: enterprise\ntargets:\n  - files: "small-*.ruleset.yaml"\n    zone: small.example\n    plan: free\n', 'small-waf.ruleset.yaml': waf(6), 'big-waf.ruleset.yaml': waf(6) });
    const run = check(dir);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /small-waf\.ruleset\.yaml:15:5: error rule-quota this is rule 6 of the 6 enabled WAF custom rules of this ruleset, and the Free plan allows 5/);
    assert.doesNotMatch(run.stdout, /big-waf/);
  });

  it('reports a misspelt add-on as the configuration file\'s error', () => {
    const run = check(folder({ '.rulesets.yaml': 'plan: enterprise\naddons: [bot_managment]\n', 'waf.ruleset.yaml': waf(1) }));
    assert.notEqual(run.status, 0);
    assert.match(run.stderr + run.stdout, /\.rulesets\.yaml:2:10: error unknown-addon unknown add-on `bot_managment` in `addons`; did you mean `bot_management`\?/);
  });
});
