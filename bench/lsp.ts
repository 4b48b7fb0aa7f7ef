/**
 * Language server latencies, measured as an editor sees them: the bundled server in its own
 * process, spoken to over stdio, with a 1,000-rule ruleset open. Each latency is printed
 * beside the round trip of a request the server answers without work (the baseline), so
 * the cost of the protocol and of this machine can be told from the server's own.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeActionRequest, CompletionRequest, DocumentDiagnosticRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import * as YAML from 'yaml';
import { ROOT, startClient, type TestClient } from '../test/server/lsp-client';
import { httpRulesetObject, terraformOfObject, withMistakes } from './inputs';
import { printTable } from './table';

execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });

const RULES = 1000;
const SAMPLES = 200;

function ruleExpression(i: number): string {
  return `ip.src in {192.0.2.${i % 256} 198.51.100.0/24} and tcp.dstport in {${1 + (i % 60000)} 443} and not ip.src.country in {"BR" "CN"}`;
}

function rulesetText(): string {
  const rules = Array.from({ length: RULES }, (_, i) => `    {"action": "block", "description": "rule ${i}", "expression": ${JSON.stringify(ruleExpression(i))}}`);
  return `{\n  "name": "bench",\n  "kind": "root",\n  "phase": "magic_transit",\n  "rules": [\n${rules.join(',\n')}\n  ]\n}\n`;
}

const TEXT = rulesetText();

/** The same file in an HTTP phase: the largest completion list (every field and function of the phase) and its hovers. */
function httpExpression(i: number): string {
  return `http.request.method == "POST" and starts_with(http.request.uri.path, "/api/${i}") and not ip.src in {192.0.2.${i % 256}}`;
}
let httpRule = 0;
const HTTP_TEXT = rulesetText()
  .replace('"phase": "magic_transit"', '"phase": "http_request_firewall_custom"')
  .replace(/"expression": "(?:[^"\\]|\\.)*"/g, () => `"expression": ${JSON.stringify(httpExpression(httpRule++))}`);
const URI_HTTP = 'file:///bench/http.ruleset.json';
const URI = 'file:///bench/large.ruleset.json';
const URI_2 = 'file:///bench/other.ruleset.json';
const LINE_OF_RULE = (i: number) => 5 + i;
const RULE_PREFIX = `    {"action": "block", "description": "rule `;

/** Where in rule `i`'s line the expression starts. */
function expressionColumn(i: number): number {
  return `${RULE_PREFIX}${i}", "expression": "`.length;
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function stats(values: number[]): { p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const rows: string[][] = [];
/** `--terraform`: only the rows of Terraform beside YAML (a mistake in each of 10,000 rules). */
const onlyTerraform = process.argv.includes('--terraform');
const fmt = (s: { p50: number; p95: number; max: number }) => `${s.p50.toFixed(1)} / ${s.p95.toFixed(1)} / ${s.max.toFixed(1)} ms`;

async function main(): Promise<void> {
  const startedAt = process.hrtime.bigint();
  // Completion as VS Code's client asks for it: documentation on resolve, item defaults read.
  const client: TestClient = await startClient({ pull: true, resolveDocumentation: true, itemDefaults: true });
  const startup = Number(process.hrtime.bigint() - startedAt) / 1e6;
  const pull = () => client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: URI } });

  // Baseline: a request the server answers at once (hover in a document it does not have).
  const noop = () => client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: 'file:///bench/none.json' }, position: { line: 0, character: 0 } });
  for (let i = 0; i < 20; i++) await noop();
  const baseline: number[] = [];
  for (let i = 0; i < SAMPLES; i++) baseline.push(await time(noop));
  const base = stats(baseline);

  if (!onlyTerraform) await jsonRows(client, base, startup, pull);
  await mistakesRows(client, base);
  rows.push(['server memory (RSS) with the files open', `${rssMiB(client.child.pid!).toFixed(0)} MiB`, `${rssMiB(process.pid).toFixed(0)} MiB (this bench process)`, '']);
  await client.stop();

  const header = ['language server (p50 / p95 / max)', 'result', 'baseline (same run)', 'target'];
  printTable(header, rows);
}

/**
 * Terraform beside YAML (issue 34): the same 10,000 HTTP rules with a mistake in each, as a YAML
 * ruleset and as a `.tf` resource (provider v4 blocks); the time to the first diagnostics, and
 * of a code action request on one mistake (its fix, and "fix all" of the 10,000).
 */
async function mistakesRows(client: TestClient, base: { p50: number }): Promise<void> {
  const object = withMistakes(httpRulesetObject(10_000));
  // The same rules for the `.tf` file, each expression in parentheses: opened second in the same
  // server, it would otherwise find every expression's result in the cache the YAML file filled.
  const other = { ...object, rules: object.rules.map((rule) => ({ ...rule, expression: `(${rule.expression})` })) };
  const files = [
    { uri: 'file:///bench/mistakes.ruleset.yaml', language: 'yaml', text: YAML.stringify(object), what: 'YAML ruleset' },
    { uri: 'file:///bench/mistakes/main.tf', language: 'terraform', text: terraformOfObject(other, 'v4'), what: '`.tf` resource (v4 blocks)' },
  ];
  const measured: { open: number; action: number }[] = [];
  for (const file of files) {
    const open = await time(async () => {
      client.open(file.uri, file.language, file.text);
      await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: file.uri } });
    });
    const lines = file.text.split('\n');
    const line = lines.findIndex((l, i) => i > lines.length / 2 && /https\.host/.test(l));
    const character = lines[line].indexOf('https.host') + 2;
    const actions: number[] = [];
    for (let k = 0; k < 5; k++) {
      actions.push(await time(() => client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri: file.uri }, range: { start: { line, character }, end: { line, character } }, context: { diagnostics: [] } })));
    }
    measured.push({ open, action: stats(actions).p50 });
    const yaml = measured[0];
    const beside = (value: number, peer: number) => (file === files[0] ? `${base.p50.toFixed(1)} ms (no-op round trip)` : `${peer.toFixed(1)} ms (the YAML ruleset), ${(value / peer).toFixed(2)}×`);
    rows.push([`open of 10,000 HTTP rules, a mistake in each, ${file.what} → first diagnostics`, `${open.toFixed(1)} ms`, beside(open, yaml.open), file === files[0] ? '' : '≤ 1.3× YAML']);
    rows.push([`code action on one mistake of the 10,000 (its fix, fix all), ${file.what}, p50 of 5`, `${stats(actions).p50.toFixed(1)} ms`, beside(stats(actions).p50, yaml.action), file === files[0] ? '' : '≤ 1.3× YAML']);
  }
}

async function jsonRows(client: TestClient, base: { p50: number; p95: number; max: number }, startup: number, pull: () => Promise<unknown>): Promise<void> {
  // The editor opens the file that started the server at once: the server is still cold.
  const openAtStart = await time(async () => {
    client.open(URI, 'json', TEXT);
    await pull();
  });
  rows.push(['server start to initialized', `${startup.toFixed(1)} ms`, '', '']);
  rows.push(['open of a 1,000-rule file at server start → first diagnostics', `${openAtStart.toFixed(1)} ms`, `${base.p50.toFixed(1)} ms (no-op round trip)`, '≤ 250 ms']);
  // Another 1,000-rule file (different expressions, nothing cached) once the server is idle.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const other = TEXT.replace(/192\.0\.2\./g, '203.0.113.');
  const openLater = await time(async () => {
    client.open(URI_2, 'json', other);
    await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: URI_2 } });
  });
  rows.push(['open of another 1,000-rule file → first diagnostics', `${openLater.toFixed(1)} ms`, `${base.p50.toFixed(1)} ms (no-op round trip)`, '≤ 250 ms']);

  // didChange of one expression (a new port each time) to its diagnostics.
  const changes: number[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const rule = (k * 37) % RULES;
    const column = expressionColumn(rule) + 'ip.src in {192.0.2.'.length;
    const octet = String(rule % 256);
    const version = k + 2;
    changes.push(
      await time(async () => {
        client.change(URI, version, [
          { range: { start: { line: LINE_OF_RULE(rule), character: column }, end: { line: LINE_OF_RULE(rule), character: column + octet.length } }, text: String((k * 7) % 256) },
        ]);
        await pull();
      }),
    );
  }
  rows.push(['didChange of one expression → its diagnostics (pull)', fmt(stats(changes)), fmt(base), 'p95 ≤ 20 ms']);

  const completions: number[] = [];
  const hovers: number[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const rule = (k * 53) % RULES;
    const line = LINE_OF_RULE(rule);
    const afterIn = expressionColumn(rule) + 'ip.src in '.length;
    completions.push(await time(() => client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: URI }, position: { line, character: afterIn } })));
    hovers.push(await time(() => client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: URI }, position: { line, character: expressionColumn(rule) + 2 } })));
  }
  rows.push(['completion in a 1,000-rule file', fmt(stats(completions)), fmt(base), 'p95 ≤ 10 ms']);
  rows.push(['hover in a 1,000-rule file', fmt(stats(hovers)), fmt(base), 'p95 ≤ 10 ms']);

  // HTTP: completion where a test starts (every field and function of the phase), hover on a field and a function.
  client.open(URI_HTTP, 'json', HTTP_TEXT);
  await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: URI_HTTP } });
  const httpLines = HTTP_TEXT.split('\n');
  const httpCompletions: number[] = [];
  const httpHovers: number[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const line = LINE_OF_RULE((k * 53) % RULES);
    const text = httpLines[line];
    const start = text.indexOf('"expression": "') + '"expression": "'.length;
    const afterAnd = text.indexOf(' and ', start) + ' and '.length;
    httpCompletions.push(await time(() => client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: URI_HTTP }, position: { line, character: afterAnd } })));
    const at = k % 2 === 0 ? start + 2 : text.indexOf('starts_with') + 2;
    httpHovers.push(await time(() => client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: URI_HTTP }, position: { line, character: at } })));
  }
  rows.push(['completion of a test in a 1,000-rule HTTP file (every field and function)', fmt(stats(httpCompletions)), fmt(base), 'p95 ≤ 10 ms']);
  rows.push(['hover in a 1,000-rule HTTP file (a field, a function)', fmt(stats(httpHovers)), fmt(base), 'p95 ≤ 10 ms']);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
