/**
 * What the TextMate injection grammars cost VS Code when it colours a ruleset file: tokenizing
 * the whole file with our injections, beside the host grammar alone (the baseline, same run).
 * VS Code tokenizes in the background, visible lines first; this is the whole-file cost.
 */
import { cpus } from 'node:os';
import * as YAML from 'yaml';
import { tokenize } from '../test/syntaxes/textmate';
import { rulesetObject } from './inputs';
import { cpuMs, median } from './measure';
import { printTable } from './table';

/** The median CPU time of `runs` runs, after one that loads the grammars and warms the JIT. */
async function repeat(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = cpuMs();
    await fn();
    times.push(cpuMs() - start);
  }
  return median(times);
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const object = rulesetObject(1000);
  const files = { json: ['source.json', JSON.stringify(object, null, 2)], yaml: ['source.yaml', YAML.stringify(object)] } as const;
  for (const [format, [scope, text]] of Object.entries(files)) {
    const lines = text.split('\n').length;
    const withInjection = await repeat(5, () => tokenize(scope, text, { injections: true }));
    const hostOnly = await repeat(5, () => tokenize(scope, text, { injections: false }));
    rows.push([
      `1,000-rule ${format.toUpperCase()} (${lines.toLocaleString('en-US')} lines): tokenize, expressions coloured`,
      `${withInjection.toFixed(0)} ms (${(withInjection / hostOnly).toFixed(1)}×)`,
      `${hostOnly.toFixed(0)} ms (${scope} alone)`,
      'a small multiple of the host grammar',
    ]);
  }
  console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}`);
  printTable(['TextMate colouring (median CPU time)', 'result', 'baseline (same run)', 'target'], rows);
}

void main();
