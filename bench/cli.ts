/**
 * The CLI as a user runs it: whole processes, their CPU time and peak memory, each beside a
 * floor measured in the same run (`node -e 0` for start-up, a bare tokenizer pass over the
 * same text for throughput).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as YAML from 'yaml';
import { ExpressionCache } from '../server/src/documents/expression-cache';
import { checkRuleset } from '../server/src/documents/ruleset';
import { httpRulesetObject, rulesetObject, terraformOfObject, withMistakes } from './inputs';
import { repeat } from './measure';
import { medianRun, runNode } from './process';
import { printTable } from './table';

const ROOT = join(__dirname, '..');
execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
const CLI = join(ROOT, 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'rulesets-bench-'));

/**
 * The floor for throughput: a hand-written tokenizer's pass over the text (words, numbers,
 * strings and punctuation, with their offsets), the least work any checker must do.
 */
const WORD_CHARACTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:/$-';
const WORD = new Uint8Array(128);
for (const c of WORD_CHARACTERS) WORD[c.charCodeAt(0)] = 1;

function tokenize(text: string): number {
  let tokens = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const start = i;
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      i++;
      continue;
    }
    if (c === 34) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
      i++;
    } else if (WORD[c] === 1) {
      while (i < text.length && WORD[text.charCodeAt(i)] === 1) i++;
    } else i++;
    if (i > start) tokens++;
  }
  return tokens;
}

function tokenizeMs(text: string): number {
  return repeat(7, () => tokenize(text));
}

/** The tokenizer as a script, for a process that only starts, reads the file and tokenizes it. */
const tokenizerScript = join(dir, 'tokenize.cjs');
writeFileSync(
  tokenizerScript,
  `const WORD = new Uint8Array(128);
for (const c of ${JSON.stringify(WORD_CHARACTERS)}) WORD[c.charCodeAt(0)] = 1;
${tokenize.toString()}
console.log(tokenize(require('node:fs').readFileSync(process.argv[2], 'utf8')));
`,
);

/** checkRuleset over `text` in this process, after two runs have warmed V8: median of five. */
function warmCheckMs(text: string, format: 'json' | 'yaml'): number {
  const once = () => checkRuleset(text, format, { cache: new ExpressionCache() });
  once();
  return repeat(5, once);
}

const rows: string[][] = [];
/** `--terraform`: only the rows of Terraform beside YAML (at the end). */
const onlyTerraform = process.argv.includes('--terraform');
const ms = (v: number) => `${Math.round(v).toLocaleString('en-US')} ms`;
const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`;

if (!onlyTerraform) {
  const file = join(dir, 'small.ruleset.json');
  writeFileSync(file, JSON.stringify(rulesetObject(5), null, 2));
  const ours = medianRun(7, () => runNode([CLI, 'check', file]));
  const node = medianRun(7, () => runNode(['-e', '0']));
  rows.push(['`rulesets check` of a 5-rule file', ms(ours.cpuMs), `${ms(node.cpuMs)} (\`node -e 0\`)`, `${(ours.cpuMs / node.cpuMs).toFixed(1)}×`, '≤ 2×']);
}

for (const [rules, format, layout, family] of (onlyTerraform ? [] : [
  [10_000, 'json', 'pretty', 'magic'],
  [10_000, 'yaml', 'pretty', 'magic'],
  [50_000, 'json', 'pretty', 'magic'],
  [50_000, 'yaml', 'pretty', 'magic'],
  [50_000, 'json', 'one line', 'magic'],
  // WAF custom rules (an HTTP phase): the same rows for its catalogue, calls, maps and [*].
  [10_000, 'json', 'pretty', 'http'],
  [10_000, 'yaml', 'pretty', 'http'],
] as const)) {
  const object = family === 'http' ? httpRulesetObject(rules) : rulesetObject(rules);
  const text = format === 'yaml' ? YAML.stringify(object) : layout === 'one line' ? JSON.stringify(object) : JSON.stringify(object, null, 2);
  const file = join(dir, `large-${family}-${rules}-${layout.replace(' ', '-')}.ruleset.${format}`);
  writeFileSync(file, text);
  const ours = medianRun(rules >= 50_000 ? 1 : 3, () => runNode([CLI, 'check', file]));
  const floor = tokenizeMs(text);
  const name = `\`rulesets check\` of ${rules.toLocaleString('en-US')} ${family === 'http' ? 'HTTP ' : ''}rules, ${format.toUpperCase()} ${layout} (${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB)`;
  const target = rules === 10_000 ? '≤ 20× the tokenizer' : '≤ 5 s CPU, ≤ 400 MiB';
  rows.push([name, `${ms(ours.cpuMs)}, ${mib(ours.maxRssKiB)}, report ${(Buffer.byteLength(ours.stdout) / 1024).toFixed(0)} KiB`, `${ms(floor)} (tokenizer over the file)`, `${Math.round(ours.cpuMs / floor)}×`, target]);
  if (rules === 10_000) {
    // The same tokenizer as a process of its own (start, read, tokenize), for context: the
    // floor above is a warmed loop inside a running process, which no process can approach.
    const alone = medianRun(3, () => runNode([tokenizerScript, file]));
    rows.push([`the same, beside the tokenizer as a process of its own`, ms(ours.cpuMs), `${ms(alone.cpuMs)} (node, read, tokenize)`, `${(ours.cpuMs / alone.cpuMs).toFixed(1)}×`, 'context']);
    // The check alone, inside this process once V8 has optimised it (no start, no load, no
    // first-run compiling): what no process can go below without a faster checker.
    const warm = warmCheckMs(text, format);
    rows.push([`the same check inside a running process, every function already optimised`, ms(warm), `${ms(floor)} (tokenizer over the file)`, `${Math.round(warm / floor)}×`, 'context']);
  }
  if (rules === 10_000 && format === 'json' && family === 'magic') {
    // The run a CI job repeats on an unchanged file: `--cache` answers from the last run
    // (medianRun's unmeasured first run is the one that fills it).
    const location = join(dir, 'findings.cache');
    const cached = medianRun(3, () => runNode([CLI, 'check', '--cache', '--cache-location', location, file]));
    rows.push([`the same, again with \`--cache\` (file unchanged)`, `${ms(cached.cpuMs)}, ${mib(cached.maxRssKiB)}`, `${ms(floor)} (tokenizer over the file)`, `${Math.round(cached.cpuMs / floor)}×`, 'context']);
  }
}

// Terraform beside YAML (issue 34): the same HTTP rules as a `cloudflare_ruleset` resource, in
// the provider's v4 blocks and its v5 list, each row's ratio to the YAML ruleset's run measured
// just before it; then the same with a mistake in every rule, whose did-you-means both pay.
for (const [rules, mistakes] of [
  [1_000, false],
  [10_000, false],
  [10_000, true],
] as const) {
  const object = mistakes ? withMistakes(httpRulesetObject(rules)) : httpRulesetObject(rules);
  const what = `${rules.toLocaleString('en-US')} HTTP rules${mistakes ? ', a mistake in each' : ''}`;
  const yamlFile = join(dir, `terraform-beside-${rules}${mistakes ? '-mistakes' : ''}.ruleset.yaml`);
  writeFileSync(yamlFile, YAML.stringify(object));
  const yaml = medianRun(3, () => runNode([CLI, 'check', yamlFile]));
  rows.push([`\`rulesets check\` of ${what}, YAML ruleset`, `${ms(yaml.cpuMs)}, ${mib(yaml.maxRssKiB)}`, '', '', 'the peer of the rows below']);
  for (const shape of ['v4', 'v5'] as const) {
    const file = join(dir, `terraform-beside-${rules}${mistakes ? '-mistakes' : ''}-${shape}.tf`);
    writeFileSync(file, terraformOfObject(object, shape));
    const tf = medianRun(3, () => runNode([CLI, 'check', file]));
    rows.push([`the same rules as a \`.tf\` resource, provider ${shape} ${shape === 'v4' ? 'blocks' : 'list'}`, `${ms(tf.cpuMs)}, ${mib(tf.maxRssKiB)}`, `${ms(yaml.cpuMs)} (the YAML ruleset)`, `${(tf.cpuMs / yaml.cpuMs).toFixed(2)}×`, '≤ 1.3× YAML']);
  }
}
rmSync(dir, { recursive: true, force: true });

console.log(`machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}`);
printTable(['CLI (whole process: CPU time, peak RSS)', 'ours', 'floor (same run)', 'ratio', 'target'], rows);
