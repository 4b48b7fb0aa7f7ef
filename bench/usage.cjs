// Preloaded into a process the CLI benchmark runs (`node -r bench/usage.cjs …`): at exit, writes
// the process's own CPU time and peak memory to the file named by RULESETS_BENCH_USAGE.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const usage = process.resourceUsage();
  writeFileSync(process.env.RULESETS_BENCH_USAGE, JSON.stringify({ cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssKiB: usage.maxRSS }));
});
