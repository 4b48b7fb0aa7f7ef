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
import { ExpressionCache } from '../server/src/documents/expression-cache';
import { checkParsedRuleset, checkRuleset } from '../server/src/documents/ruleset';
import { parseRuleset } from '../server/src/documents/parsed-ruleset';
import { reparseAfterEdit } from '../server/src/documents/reparse';
import { expression, rulesetObject } from './inputs';
import { repeat, time } from './measure';
import { printTable } from './table';

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
    for (const t of texts) grammar().match(t);
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
      // One edited expression with every other expression already cached, the file re-read
      // from its previous version as the language server does (documents/reparse.ts).
      const cache = new ExpressionCache();
      const previous = parseRuleset(text, format);
      checkParsedRuleset(previous, { cache });
      let edit = 0;
      const recheck = repeat(runs, () => {
        edit++;
        const edited = text.replace(expression(500), `tcp.dstport == ${edit}`);
        checkParsedRuleset(reparseAfterEdit(previous, edited) ?? parseRuleset(edited, format), { cache });
      });
      row(`${rules.toLocaleString('en-US')}-rule ${format.toUpperCase()}: re-check after one edit`, ms(recheck), `${ms(bare)} (bare parse of the file)`, '≤ the bare parse');
    }
  }
}
for (const format of ['json', 'yaml'] as const) {
  const [small, large] = growth[format];
  row(`growth 1,000 → 10,000 rules (${format.toUpperCase()})`, `${(large / small).toFixed(1)}×`, '10.0× (linear)', 'linear');
}

// ---------------------------------------------------------------- table

const header: [string, string, string, string] = ['metric', 'result (median CPU time)', 'baseline (same run)', 'target'];
process.stderr.write('\n');
console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}`);
printTable(header, rows);
