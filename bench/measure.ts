/**
 * CPU time of this process (user + system), not wall time: on these shared VMs, wall time of
 * the same run swings by 30% from one run to the next, CPU time by a few percent.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** CPU time of one call of `fn`. */
export function time(fn: () => void): number {
  const start = cpuMs();
  fn();
  return cpuMs() - start;
}

/** The median CPU time of `runs` calls of `fn`, after one call that warms the JIT: steady-state cost. */
export function repeat(runs: number, fn: () => void): number {
  fn();
  return median(Array.from({ length: runs }, () => time(fn)));
}
