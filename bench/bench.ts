/**
 * `npm run bench`: how fast checking is, each figure beside a baseline measured in the same
 * run on the same machine (these machines are noisy: compare within a run, not across).
 *
 * Times are CPU time of this process (user + system), not wall time: on these shared VMs,
 * wall time of the same run swings by 30% from one run to the next, CPU time by a few
 * percent. Everything measured is synchronous work on one core, so the two agree when the
 * machine is quiet.
 */
import * as jsonc from 'jsonc-parser';
import { cpus } from 'node:os';
import * as YAML from 'yaml';
import { checkExpression } from '../server/src/language/checker';
import { grammar } from '../server/src/language/grammar';
import { checkRuleset, ExpressionCache } from '../server/src/documents/ruleset';

// ---------------------------------------------------------------- inputs

const COUNTRIES = ['BR', 'CN', 'RU', 'KP', 'IR', 'DE', 'FR', 'GB', 'US', 'IN'];

/** Realistic expressions, varied by `i` so that no two are the same text. */
function expression(i: number): string {
  const port = 1 + (i % 65000);
  const octet = i % 256;
  const templates = [
    () => `tcp.dstport in {${port} ${port + 1} 8000..8100}`,
    () => `ip.src in {192.0.2.${octet} 198.51.100.0/24} and tcp.dstport == ${port}`,
    () => `ip.src.country in {"${COUNTRIES[i % 10]}" "${COUNTRIES[(i + 3) % 10]}"} and not ip.dst in {203.0.113.${octet}}`,
    () => `ip.src in $svc.anonymizer or ip.src in $svc.malware or udp.dstport == ${port}`,
    () => `ip.proto == "udp" and udp.srcport in {53 123 1900 11211} and ip.len > ${500 + (i % 1000)}`,
    () => `tcp.flags.syn and not tcp.flags.ack and tcp.dstport in {${port}} and ip.ttl < ${1 + (i % 200)}`,
    () => `(ip.dst in {2001:db8::${(i % 65535).toString(16)}/128} or ip.src.asnum == ${64496 + i}) and icmp.type == 8`,
    () => `bit_slice(udp, 64, 72) == ${i % 256} and ip.geoip.country == "${COUNTRIES[i % 10]}"`,
  ];
  return templates[i % templates.length]();
}

function rulesetObject(rules: number) {
  return {
    name: `Generated ${rules}`,
    kind: 'root',
    phase: 'magic_transit',
    description: 'Generated for the benchmark',
    rules: Array.from({ length: rules }, (_, i) => ({
      action: i % 10 === 0 ? 'skip' : 'block',
      ...(i % 10 === 0 ? { action_parameters: { ruleset: 'current' } } : {}),
      expression: expression(i),
      description: `Rule ${i}`,
      enabled: true,
    })),
  };
}

// ---------------------------------------------------------------- timing

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function time(fn: () => void): number {
  const start = cpuMs();
  fn();
  return cpuMs() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function repeat(runs: number, fn: () => void): number {
  fn(); // warm the JIT: we measure steady-state cost, and report the first run separately
  return median(Array.from({ length: runs }, () => time(fn)));
}

const rows: [string, string, string, string][] = [];
function row(metric: string, result: string, baseline: string, target: string): void {
  rows.push([metric, result, baseline, target]);
  process.stderr.write('.');
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

// ---------------------------------------------------------------- measurements

{
  const texts = Array.from({ length: 4000 }, (_, i) => expression(i));
  const checkMs = repeat(5, () => {
    for (const t of texts) checkExpression(t, { phase: 'magic_transit' });
  });
  const matchMs = repeat(5, () => {
    for (const t of texts) grammar.match(t);
  });
  const perSecond = (n: number, msTaken: number) => `${Math.round((n / msTaken) * 1000).toLocaleString('en-US')} expr/s`;
  row('check throughput (parse + AST + checks, one core)', perSecond(texts.length, checkMs), `${perSecond(texts.length, matchMs)} (bare Ohm match)`, '≥ 10,000 expr/s');
}

const growth: Record<string, number[]> = { json: [], yaml: [] };
for (const rules of [1000, 10000]) {
  const object = rulesetObject(rules);
  const files = { json: JSON.stringify(object, null, 2), yaml: YAML.stringify(object) };
  for (const format of ['json', 'yaml'] as const) {
    const text = files[format];
    const runs = rules >= 10000 ? 3 : 7;
    const first = time(() => checkRuleset(text, format, { cache: new ExpressionCache() }));
    const cold = repeat(runs, () => checkRuleset(text, format, { cache: new ExpressionCache() }));
    const bare = repeat(runs, () => {
      if (format === 'json') jsonc.parseTree(text);
      else YAML.parseDocument(text, { keepSourceTokens: true });
    });
    growth[format].push(cold);
    row(
      `${rules.toLocaleString('en-US')}-rule ${format.toUpperCase()} (${(text.length / 1024).toFixed(0)} KiB): cold check`,
      `${ms(cold)} (first run ${ms(first)})`,
      `${ms(bare)} (bare ${format === 'json' ? 'jsonc-parser parseTree' : 'yaml parseDocument'})`,
      rules === 1000 ? '≤ 250 ms' : 'linear: ≈ 10× the 1,000-rule time',
    );
    if (rules === 1000) {
      // One edited expression with every other expression already cached.
      const cache = new ExpressionCache();
      checkRuleset(text, format, { cache });
      let edit = 0;
      const recheck = repeat(runs, () => {
        edit++;
        const edited = text.replace(expression(500), `tcp.dstport == ${edit}`);
        checkRuleset(edited, format, { cache });
      });
      row(`${rules.toLocaleString('en-US')}-rule ${format.toUpperCase()}: re-check after one edit`, ms(recheck), `${ms(bare)} (bare parse of the file)`, '≈ bare parse + one expression');
    }
  }
}
for (const format of ['json', 'yaml'] as const) {
  const [small, large] = growth[format];
  row(`growth 1,000 → 10,000 rules (${format.toUpperCase()})`, `${(large / small).toFixed(1)}×`, '10.0× (linear)', 'linear');
}

// ---------------------------------------------------------------- table

const header: [string, string, string, string] = ['metric', 'result (median CPU time)', 'baseline (same run)', 'target'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
process.stderr.write('\n');
console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}`);
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
