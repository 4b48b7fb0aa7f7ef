/**
 * `rulesets plan` against the emulator: the CLI's whole process for one target of 1,000 rules
 * (10 changed, 10 moved, 10 added), beside `rulesets deploy --dry-run` of the same file; and the
 * plan of 1 and of 200 zones in one process (planTargets, the engine the CLI runs), against the
 * emulator in the same process. The emulator of today keeps each zone id's rulesets apart but
 * knows no zone names: the 200 zones are ids, and the CLI plans one target (from
 * --account/--zone) until `.rulesets.yaml` names targets. Then plan and apply together (applyPlan
 * of the saved plan: each live version read again, then one write per zone, 4 at a time) of 1
 * and of 200 zones, each run against an emulator of its own, since an apply changes the zones.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as YAML from 'yaml';
import { RulesetsClient, type Scope } from '../server/src/api/client';
import { startEmulator } from '../server/src/api/emulator';
import { applyPlan, savedPlanOf } from '../server/src/api/apply';
import { planTargets } from '../server/src/api/plan';
import type { Target } from '../server/src/api/targets';
import { httpRulesetObject } from './inputs';
import { median } from './measure';
import { medianRun, runNode } from './process';
import { printTable } from './table';

const ROOT = join(__dirname, '..');
execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
const CLI = join(ROOT, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'rulesets-bench-plan-'));
const TOKEN = 'emulator-token';
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** A ruleset of `count` rules, each with a ref (as pulled files and octorules have them). */
function ruleset(count: number) {
  const object = httpRulesetObject(count);
  return { ...object, kind: 'zone' as const, name: 'default', rules: object.rules.map((rule, i) => ({ ref: `r${i}`, ...rule })) };
}

/** The file's edit: 10 rules changed, the last 10 moved to the front, 10 added. */
function edited(object: ReturnType<typeof ruleset>) {
  const rules = object.rules.map((rule, i) => (i % 100 === 1 ? { ...rule, description: `${rule.description}, changed` } : rule));
  const moved = [...rules.slice(-10), ...rules.slice(0, -10)];
  const added = Array.from({ length: 10 }, (_, i) => ({ ref: `new${i}`, action: 'log', expression: `http.host eq "new${i}.example.com"`, description: `New ${i}`, enabled: true }));
  return { ...object, rules: [...moved, ...added] };
}

/** The emulator as a process of its own: the CLI's measured runs are synchronous. */
async function emulatorProcess(): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = /listening on (\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    child.on('exit', () => reject(new Error(`the emulator stopped: ${out}`)));
  });
  return { baseUrl, stop: () => child.kill() };
}

const rows: string[][] = [];

async function cliRow(): Promise<void> {
  const emulator = await emulatorProcess();
  try {
    const zone = '0123456789abcdef0123456789abcdef';
    const client = new RulesetsClient({ baseUrl: emulator.baseUrl, credentials: { token: TOKEN }, scope: { kind: 'zone', id: zone } });
    const object = ruleset(1000);
    await client.updateRuleset({ phase: object.phase }, object);
    const folder = join(dir, 'one');
    mkdirSync(folder);
    const file = join(folder, 'waf.yaml');
    writeFileSync(file, YAML.stringify(edited(object)));
    Object.assign(process.env, { RULESETS_BASE_URL: emulator.baseUrl, RULESETS_API_TOKEN: TOKEN, RULESETS_ZONE_ID: zone });
    const wall = (run: () => ReturnType<typeof runNode>) => {
      const times: number[] = [];
      const usage = medianRun(5, () => {
        const started = performance.now();
        const result = run();
        times.push(performance.now() - started);
        return result;
      });
      return { usage, wallMs: median(times.slice(1)) };
    };
    const plan = wall(() => runNode([CLI, 'plan', folder]));
    if (!/^Plan: 10 to add, 10 to change, 10 to move, 0 to remove; 0 unmanaged kept\.$/m.test(plan.usage.stdout)) throw new Error(`unexpected plan:\n${plan.usage.stdout.slice(-2000)}`);
    const dryRun = wall(() => runNode([CLI, 'deploy', file, '--dry-run']));
    rows.push(['`rulesets plan` of 1 target, 1,000 rules (10 changed, 10 moved, 10 added)', `${ms(plan.usage.cpuMs)} CPU, ${ms(plan.wallMs)} wall`, `${ms(dryRun.usage.cpuMs)} CPU, ${ms(dryRun.wallMs)} wall (\`deploy --dry-run\`, same file)`, `${(plan.wallMs / dryRun.wallMs).toFixed(2)}×`, '≤ 1× (no dry run, no text diff)']);
  } finally {
    emulator.stop();
  }
}

async function manyZones(): Promise<void> {
  const emulator = await startEmulator({ credentials: { token: TOKEN }, rateLimit: { requests: 1_000_000, windowMs: 60_000 } });
  try {
    const object = ruleset(20);
    const zones = (n: number) => Array.from({ length: n }, (_, i) => `${String(i).padStart(4, '0')}${'f'.repeat(28)}`);
    const folder = join(dir, 'many');
    mkdirSync(folder);
    const targets: Target[] = [];
    for (const id of zones(200)) {
      const scope: Scope = { kind: 'zone', id };
      await new RulesetsClient({ baseUrl: emulator.baseUrl, credentials: { token: TOKEN }, scope }).updateRuleset({ phase: object.phase }, object);
      const file = join(folder, `${id}.yaml`);
      writeFileSync(file, YAML.stringify(edited(object)));
      targets.push({ scope, label: id, files: [file] });
    }
    const clientFor = (scope: Scope) => new RulesetsClient({ baseUrl: emulator.baseUrl, credentials: { token: TOKEN }, scope });
    const time = async (n: number) => {
      const times: number[] = [];
      for (let run = 0; run < 4; run++) {
        const started = performance.now();
        const plan = await planTargets(targets.slice(0, n), { clientFor, read: (path) => readFileSync(path, 'utf8') });
        if (plan.errors > 0 || plan.counts.add !== 10 * n) throw new Error(`unexpected plan of ${n} zones: ${JSON.stringify(plan.counts)}`);
        times.push(performance.now() - started);
      }
      return median(times.slice(1));
    };
    const one = await time(1);
    const many = await time(200);
    rows.push(['plan of 1 zone, 20 rules (planTargets in process, emulator in process)', ms(one), '', '', 'the peer of the row below']);
    rows.push(['plan of 200 zones, 20 rules each (8 reads at a time)', ms(many), `${ms(one)} (1 zone)`, `${(many / one).toFixed(0)}×`, 'seconds, not minutes']);
  } finally {
    await emulator.close();
  }
}

async function planAndApply(): Promise<void> {
  const object = ruleset(20);
  const folder = join(dir, 'apply');
  mkdirSync(folder);
  /** One run: an emulator of its own (it slows as it holds more zones), its zones seeded, then plan and apply timed. */
  const once = async (n: number): Promise<number> => {
    const emulator = await startEmulator({ credentials: { token: TOKEN }, rateLimit: { requests: 1_000_000, windowMs: 60_000 } });
    try {
      const clientFor = (scope: Scope) => new RulesetsClient({ baseUrl: emulator.baseUrl, credentials: { token: TOKEN }, scope });
      const targets: Target[] = [];
      for (let i = 0; i < n; i++) {
        const scope: Scope = { kind: 'zone', id: `${i.toString(16).padStart(4, '0')}${'e'.repeat(28)}` };
        await clientFor(scope).updateRuleset({ phase: object.phase }, object);
        const file = join(folder, `${scope.id}.yaml`);
        writeFileSync(file, YAML.stringify(edited(object)));
        targets.push({ scope, label: scope.id, files: [file] });
      }
      const started = performance.now();
      const plan = await planTargets(targets, { clientFor, read: (path) => readFileSync(path, 'utf8') });
      const result = await applyPlan(savedPlanOf(plan), { clientFor, allowMassChange: true });
      if (!result.complete || result.rulesets.filter((r) => r.outcome.state === 'applied').length !== n) throw new Error(`unexpected apply of ${n} zones`);
      return performance.now() - started;
    } finally {
      await emulator.close();
    }
  };
  const time = async (n: number) => {
    const times: number[] = [];
    for (let run = 0; run < 4; run++) times.push(await once(n));
    return median(times.slice(1));
  };
  const one = await time(1);
  const many = await time(200);
  rows.push(['plan + apply of 1 zone, 20 rules (planTargets, applyPlan in process)', ms(one), '', '', 'the peer of the row below']);
  rows.push(['plan + apply of 200 zones (8 reads, then 4 writes at a time)', ms(many), `${ms(one)} (1 zone)`, `${(many / one).toFixed(0)}×`, 'seconds, not minutes']);
}

async function main(): Promise<void> {
  await cliRow();
  await manyZones();
  await planAndApply();
  rmSync(dir, { recursive: true, force: true });
  printTable(['plan (against the emulator)', 'ours', 'beside', 'ratio', 'target'], rows);
}

void main();
