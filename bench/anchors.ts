/**
 * `rulesets check` of 10,000 rules beside two real programs doing the same job on the same
 * expressions, in the same run (issue 24's anchors):
 *
 * - the reference engine as a process: the virtual environment's own `python` (the
 *   interpreter itself, not a shell shim) runs a script that imports `octorules_wirefilter`,
 *   reads the 10,000 expressions and calls `parse_expression` on each (scheme
 *   `magic_firewall` for magic_transit, the default scheme for the HTTP phase);
 * - `octorules lint` of the same expressions in its YAML (a `cloudflare:` document of
 *   `network_firewall_rules` or `waf_custom_rules`, each rule a `ref`, `action: block` and the
 *   expression), `--format summary`.
 *
 * Ours is `node dist/cli.js check` of the JSON ruleset the expressions come from
 * (bench/inputs.ts). Every figure is the whole process's CPU time, user + system (how each is
 * read: bench/process.ts). One unmeasured round warms the file system cache and the CPU's
 * clock, then ANCHOR_RUNS rounds (3 unless set) each run every program once, interleaved so
 * that a slow stretch of the machine falls on all alike; the rows are medians.
 *
 * The anchors live in a virtual environment this benchmark makes in .cache/bench-venv (git
 * ignores .cache/) with the pinned versions below, and reuses while it holds exactly those. If
 * Python or PyPI is unavailable, the anchor rows say why and ours are measured all the same.
 *
 * Beside them, in the same rounds, three floors of our own: what a Node process costs before it
 * checks anything. `node -e 0` (start alone); our parser alone as a process (bench/parser-alone.ts,
 * bundled as the CLI is: read, JSON.parse, parse every expression, stop); and a minimal parser as
 * a process (bench/floor-parser.cjs: one pass over character codes, names looked up in the
 * fields and functions of the engine's scheme, nothing checked beyond what its parse checks). The
 * ratios of these to the engine say how much of the target is left for the checks.
 *
 * A file of its own rather than rows of bench/cli.ts: it needs the environment made first,
 * takes minutes (`octorules lint` spends about 13 s of CPU per run), and can then be run alone
 * (`node --import tsx bench/anchors.ts`); `npm run bench` runs it after bench/cli.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import * as YAML from 'yaml';
import { catalogueFor } from '../server/src/language/catalogue/catalogues';
import { httpRulesetObject, rulesetObject } from './inputs';
import { medianOf, runNode, runUnderPython, type Usage } from './process';
import { mark, printTable } from './table';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const RULES = 10_000;
const RUNS = Number(process.env.ANCHOR_RUNS ?? 3);
const PINNED: Record<string, string> = { octorules: '0.37.0', 'octorules-cloudflare': '0.18.1', 'octorules-wirefilter': '0.7.0' };
const VENV = join(ROOT, '.cache', 'bench-venv');
const VENV_PYTHON = join(VENV, 'bin', 'python');
const OCTORULES = join(VENV, 'bin', 'octorules');

// ---------------------------------------------------------------- the environment

/** The pinned packages' installed versions in the environment, or why they cannot be read. */
function installedVersions(): Record<string, string> | string {
  if (!existsSync(VENV_PYTHON)) return 'no environment';
  const script = `import importlib.metadata as m, json, sys
def version(name):
    try:
        return m.version(name)
    except m.PackageNotFoundError:
        return None
print(json.dumps({name: version(name) for name in sys.argv[1:]}))`;
  const result = spawnSync(VENV_PYTHON, ['-c', script, ...Object.keys(PINNED)], { encoding: 'utf8' });
  return result.status === 0 ? (JSON.parse(result.stdout) as Record<string, string>) : `its python fails: ${lastLine(result.stderr || String(result.error))}`;
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
const pinnedIn = (versions: Record<string, string> | string) => typeof versions !== 'string' && Object.entries(PINNED).every(([name, version]) => versions[name] === version);

/** Makes (or reuses) the environment: the path of its python, or why there is none. */
function environment(): { python: string } | { unavailable: string } {
  if (pinnedIn(installedVersions())) return { python: VENV_PYTHON };
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const steps: [string, string, string[]][] = [
    ['python3 -m venv', 'python3', ['-m', 'venv', VENV]],
    ['pip install', VENV_PYTHON, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', ...Object.entries(PINNED).map(([name, version]) => `${name}==${version}`)]],
  ];
  for (const [what, command, args] of steps) {
    process.stderr.write(`anchors: ${what} …\n`);
    const result = spawnSync(command, args, { encoding: 'utf8', timeout: 600_000 });
    if (result.error) return { unavailable: `${what}: ${(result.error as NodeJS.ErrnoException).code === 'ENOENT' ? `${command} not found` : result.error.message}` };
    if (result.status !== 0) return { unavailable: `${what} failed: ${lastLine(result.stderr)}` };
  }
  const versions = installedVersions();
  if (!pinnedIn(versions)) return { unavailable: `installed ${JSON.stringify(versions)}, not the pinned ${JSON.stringify(PINNED)}` };
  return { python: VENV_PYTHON };
}

// ---------------------------------------------------------------- the inputs

/**
 * Parses every expression of the JSON array in argv[1] (scheme argv[2], if any); prints how
 * many the engine accepted and the first error it returned (it returns errors, never raises).
 */
const ENGINE_SCRIPT = `import json, sys
import octorules_wirefilter
expressions = json.load(open(sys.argv[1]))
scheme = sys.argv[2] if len(sys.argv) > 2 else None
errors = [r["error"] for r in (octorules_wirefilter.parse_expression(e, scheme) for e in expressions) if "error" in r]
print(json.dumps({"accepted": len(expressions) - len(errors), "firstError": errors[0] if errors else None}))`;

interface Family {
  readonly name: string;
  /** Names its files (and octorules' summary line). */
  readonly slug: string;
  readonly rulesetFile: string;
  readonly expressionsFile: string;
  readonly octorulesFile: string;
  /** The phase's field and function names, with their types, for bench/floor-parser.cjs. */
  readonly namesFile: string;
  /** parse_expression's scheme; none for the default (HTTP) scheme. */
  readonly scheme: string | undefined;
}

const dir = mkdtempSync(join(tmpdir(), 'rulesets-anchors-'));

function family(name: string, slug: string, object: ReturnType<typeof rulesetObject>, section: string, scheme: string | undefined): Family {
  const expressions = object.rules.map((rule) => rule.expression);
  const file = (suffix: string, text: string) => {
    const path = join(dir, `${slug}.${suffix}`);
    writeFileSync(path, text);
    return path;
  };
  const catalogue = catalogueFor(object.phase);
  // The names the engine's scheme has, as its parse looks them up.
  const names = {
    fields: Object.fromEntries([...catalogue.fields.values()].filter((field) => field.inEngine).map((field) => [field.name, field.type])),
    functions: Object.fromEntries([...catalogue.functions.values()].filter((fn) => fn.inEngine).map((fn) => [fn.name, fn.result])),
  };
  const octorules = { cloudflare: { [section]: expressions.map((expression, i) => ({ ref: `r${i}`, action: 'block', expression })) } };
  return {
    name,
    slug,
    rulesetFile: file('ruleset.json', JSON.stringify(object, null, 2)),
    expressionsFile: file('expressions.json', JSON.stringify(expressions)),
    octorulesFile: file('octorules.yaml', YAML.stringify(octorules, { lineWidth: 0 })),
    namesFile: file('names.json', JSON.stringify(names)),
    scheme,
  };
}

// ---------------------------------------------------------------- the runs

const FIGURES = ['ours', 'engine', 'lint', 'start', 'parser', 'floor'] as const;
type Figure = (typeof FIGURES)[number];

/** Our parser alone, bundled as the CLI is (minified, one file). */
const PARSER_ALONE = join(dir, 'parser-alone.cjs');
const FLOOR_PARSER = join(__dirname, 'floor-parser.cjs');

function measure(figure: Figure, f: Family, python: string | undefined): Usage | undefined {
  if (figure === 'ours') return runNode([CLI, 'check', f.rulesetFile]);
  if (figure === 'start') return runNode(['-e', '0']);
  if (figure === 'parser') return runNode([PARSER_ALONE, f.rulesetFile]);
  if (figure === 'floor') return runNode([FLOOR_PARSER, f.rulesetFile, f.namesFile]);
  if (python === undefined) return undefined;
  if (figure === 'engine') return runUnderPython(python, [python, '-c', ENGINE_SCRIPT, f.expressionsFile, ...(f.scheme ? [f.scheme] : [])]);
  return runUnderPython(python, [OCTORULES, 'lint', '--format', 'summary', f.octorulesFile]);
}

function engineNote({ accepted, firstError }: { accepted: number; firstError: string | null }): string {
  // The engine's message is a position, the expression and a caret line ending in the reason.
  const lines = firstError?.trim().split('\n') ?? [];
  const error = lines.length === 0 ? '' : `; the first error: ${lines[0]} ${lines.at(-1)!.replace(/^[\s^]+/, '')} in \`${lines[1] ?? ''}\``;
  return `the engine accepted ${accepted.toLocaleString('en-US')} of ${RULES.toLocaleString('en-US')} expressions${error}`;
}

function main(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  buildSync({ entryPoints: [join(__dirname, 'parser-alone.ts')], outfile: PARSER_ALONE, bundle: true, platform: 'node', mainFields: ['module', 'main'], target: 'node20', format: 'cjs', minify: true, logLevel: 'warning' });
  const env = environment();
  const [python, unavailable] = 'python' in env ? [env.python, undefined] : [undefined, env.unavailable];
  const families = [
    family('magic_transit', 'magic', rulesetObject(RULES), 'network_firewall_rules', 'magic_firewall'),
    family('HTTP (http_request_firewall_custom)', 'http', httpRulesetObject(RULES), 'waf_custom_rules', undefined),
  ];
  const usages = new Map<string, Usage[]>();
  for (let round = 0; round <= RUNS; round++) {
    for (const f of families) {
      for (const figure of FIGURES) {
        const usage = measure(figure, f, python);
        // Round 0 warms up and is not counted.
        if (usage && round > 0) usages.set(`${f.name}/${figure}`, [...(usages.get(`${f.name}/${figure}`) ?? []), usage]);
      }
    }
    process.stderr.write(`anchors: round ${round} of ${RUNS} done\n`);
  }

  const ms = (v: number) => `${Math.round(v).toLocaleString('en-US')} ms`;
  const rows: string[][] = [];
  const floorRows: string[][] = [];
  const notes: string[] = [];
  for (const f of families) {
    const get = (figure: Figure) => {
      const all = usages.get(`${f.name}/${figure}`);
      return all && medianOf(all);
    };
    const ours = get('ours')!;
    const what = `${f.name}, ${RULES.toLocaleString('en-US')} rules: \`rulesets check\` (JSON)`;
    for (const [figure, anchor, target] of [
      ['engine', `the engine as a process (parse_expression, ${f.scheme ? `scheme ${f.scheme}` : 'default scheme'})`, 4],
      ['lint', '`octorules lint` of the same expressions (YAML)', 0.05],
    ] as const) {
      const theirs = get(figure);
      if (!theirs) {
        rows.push([`${what} ÷ ${anchor}`, ms(ours.cpuMs), `not measured: ${unavailable}`, '', `≤ ${target}× — not measured`]);
        continue;
      }
      const ratio = ours.cpuMs / theirs.cpuMs;
      rows.push([`${what} ÷ ${anchor}`, ms(ours.cpuMs), ms(theirs.cpuMs), `${ratio.toFixed(target < 1 ? 2 : 1)}×`, `≤ ${target}× ${mark(ratio <= target)}`]);
      notes.push(`${f.name}: ${figure === 'engine' ? engineNote(JSON.parse(theirs.stdout)) : `octorules lint --format summary: ${theirs.stdout.trim()}`}`);
    }
    const engine = get('engine');
    const floors = [
      ['start', 'Node\'s start alone (`node -e 0`)'],
      ['parser', 'our parser alone as a process (read, parse; no checks)'],
      ['floor', 'a minimal parser as a process (bench/floor-parser.cjs)'],
    ] as const;
    for (const [figure, what] of floors) {
      const floor = get(figure)!;
      floorRows.push([`${f.name}: ${what}`, ms(floor.cpuMs), engine ? ms(engine.cpuMs) : `not measured: ${unavailable}`, engine ? `${(floor.cpuMs / engine.cpuMs).toFixed(1)}×` : '', 'context']);
    }
    const accepted = (JSON.parse(get('floor')!.stdout) as { accepted: number }).accepted;
    const parsed = (JSON.parse(get('parser')!.stdout) as { parsed: number }).parsed;
    const engineAccepted = engine && (JSON.parse(engine.stdout) as { accepted: number }).accepted;
    notes.push(
      `${f.name}: the minimal parser accepted ${accepted.toLocaleString('en-US')} expressions${engineAccepted === undefined ? '' : accepted === engineAccepted ? ', as the engine did' : `, the engine ${engineAccepted.toLocaleString('en-US')}: not the same job, so its row says less`}; our parser alone parsed ${parsed.toLocaleString('en-US')} (names are the checker's)`,
    );
  }

  console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}; medians of ${RUNS} interleaved rounds after one warm-up`);
  console.log(python ? `anchors: ${VENV} (${Object.entries(PINNED).map(([name, version]) => `${name}==${version}`).join(', ')})` : `anchors not measured: ${unavailable}`);
  for (const note of notes) console.log(note);
  printTable(['figure (whole process, CPU user + sys)', 'ours', 'anchor (same run)', 'ratio', 'target'], rows);
  printTable(['floor (whole process, CPU user + sys)', 'floor', 'the engine (same run)', 'ratio', 'target'], floorRows);
}

try {
  main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
