/**
 * Whole processes, each measured by its CPU time (user + system) and peak RSS.
 *
 * A node process reports its own at exit (bench/usage.cjs, preloaded): process.resourceUsage().
 * Any other program (the Python anchors) is run by a Python parent that waits for it and reads
 * getrusage(RUSAGE_CHILDREN): the kernel's exact account of the waited-for child and all of its
 * threads and own children, and nothing of the parent. Node offers no such figure for a child
 * (spawnSync's result has none, and process.resourceUsage() is the caller's own), and a
 * shell's `times` prints it only to the millisecond and without the peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './measure';

export interface Usage {
  readonly cpuMs: number;
  readonly maxRssKiB: number;
  readonly stdout: string;
}

const reportDir = mkdtempSync(join(tmpdir(), 'rulesets-bench-usage-'));
process.on('exit', () => rmSync(reportDir, { recursive: true, force: true }));

/** `node …args` (its exit status 0 or 1, as the CLI's): its own CPU time and peak RSS. */
export function runNode(args: readonly string[]): Usage {
  const report = join(reportDir, 'usage.json');
  const result = spawnSync(process.execPath, ['-r', join(__dirname, 'usage.cjs'), ...args], {
    env: { ...process.env, RULESETS_BENCH_USAGE: report },
    maxBuffer: 1024 * 1024 * 1024,
    encoding: 'utf8',
  });
  if (result.status !== 0 && result.status !== 1) throw new Error(`${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
  const usage = JSON.parse(readFileSync(report, 'utf8')) as Omit<Usage, 'stdout'>;
  return { ...usage, stdout: result.stdout };
}

/** One unmeasured run (the file system cache and the CPU's clock, warmed), then the medians of `runs`. */
export function medianRun(runs: number, measure: () => Usage): Usage {
  measure();
  return medianOf(Array.from({ length: runs }, measure));
}

export function medianOf(usages: readonly Usage[]): Usage {
  return { cpuMs: median(usages.map((u) => u.cpuMs)), maxRssKiB: median(usages.map((u) => u.maxRssKiB)), stdout: usages[0].stdout };
}

const RUSAGE_PARENT = `
import json, resource, subprocess, sys
child = subprocess.run(sys.argv[1:], capture_output=True, text=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"status": child.returncode, "cpuMs": (usage.ru_utime + usage.ru_stime) * 1000, "maxRssKiB": usage.ru_maxrss, "stdout": child.stdout, "stderr": child.stderr[-4000:]}))
`;

/**
 * `command` (exit status 0) run by `python` as its parent: the child's CPU time, exact, and its
 * peak RSS, which cannot read below the parent's own (the child counts its pre-exec copy).
 */
export function runUnderPython(python: string, command: readonly string[]): Usage {
  const result = spawnSync(python, ['-c', RUSAGE_PARENT, ...command], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${python} (measuring ${command.join(' ')}): exit ${result.status}\n${result.stderr}`);
  const report = JSON.parse(result.stdout) as Usage & { status: number; stderr: string };
  if (report.status !== 0) throw new Error(`${command.join(' ')}: exit ${report.status}\n${report.stderr}`);
  return { cpuMs: report.cpuMs, maxRssKiB: report.maxRssKiB, stdout: report.stdout };
}
