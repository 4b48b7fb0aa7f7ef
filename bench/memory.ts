/**
 * Language server memory over a long session: the bundled server, spoken to over stdio, opens
 * and closes 6,000 different rulesets one after another (5 to 20 rules each, JSON and YAML,
 * no expression twice), waiting for each one's diagnostics, and its RSS is read from
 * /proc/<pid>/status every 1,000 documents.
 *
 * A second run measures what the heap holds once garbage is collected: the same bundle,
 * started by a few lines that add `--expose-gc` and a request that collects and answers
 * process.memoryUsage() (test/server/instrumented-server.ts; the server as shipped has
 * neither). RSS alone cannot tell garbage not yet collected from what the server keeps.
 *
 * Last, the heap one result of the expression cache keeps, by shape of expression, beside the
 * estimate the cache's byte budget is counted in.
 *
 *   node --import tsx bench/memory.ts [documents]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DocumentDiagnosticRequest, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol/node';
import { ExpressionCache } from '../server/src/documents/expression-cache';
import { checkRuleset } from '../server/src/documents/ruleset';
import { ROOT } from '../test/server/lsp-client';
import { startServerProcess, type ServerProcess } from '../test/server/instrumented-server';
import { expression } from './inputs';
import { printTable } from './table';

const DOCUMENTS = Number(process.argv[2] ?? 6000);
const EVERY = Math.max(1, Math.floor(DOCUMENTS / 6));
const TARGET_MIB = 300;

/** Document `n`: a ruleset of 5 to 20 rules, JSON or YAML, whose expressions no other document has. */
function* documents(count: number): Generator<{ uri: string; languageId: string; text: string }> {
  let next = 0;
  // Some of expression(i)'s shapes vary with i % 256 only: a suffix keeps every text new.
  const seen = new Set<string>();
  for (let n = 0; n < count; n++) {
    const expressions = Array.from({ length: 5 + (n % 16) }, () => {
      const i = next++;
      const e = expression(i);
      const text = seen.has(e) ? `${e} and ip.len != ${i}` : e;
      seen.add(text);
      return text;
    });
    if (n % 2 === 0) {
      const rules = expressions.map((e, i) => ({ action: 'block', description: `rule ${i}`, expression: e, enabled: true }));
      const text = JSON.stringify({ name: `doc ${n}`, kind: 'root', phase: 'magic_transit', rules }, null, 2);
      yield { uri: `file:///bench/memory/doc-${n}.ruleset.json`, languageId: 'json', text };
    } else {
      const rules = expressions.map((e, i) => `  - action: block\n    description: rule ${i}\n    expression: '${e.replace(/'/g, "''")}'\n`);
      yield { uri: `file:///bench/memory/doc-${n}.ruleset.yaml`, languageId: 'yaml', text: `name: doc ${n}\nkind: root\nphase: magic_transit\nrules:\n${rules.join('')}` };
    }
  }
}

/** Opens, pulls diagnostics for and closes every document, calling `sample` every EVERY documents (and before the first). */
async function session(server: ServerProcess, sample: (documents: number) => Promise<void>): Promise<void> {
  await sample(0);
  let n = 0;
  let diagnostics = 0;
  for (const document of documents(DOCUMENTS)) {
    await server.open(document.uri, document.languageId, document.text);
    const report = (await server.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: document.uri } })) as FullDocumentDiagnosticReport;
    diagnostics += report.items.length;
    await server.close(document.uri);
    if (++n % EVERY === 0) await sample(n);
  }
  // Some expressions draw warnings (a port range, say); none may fail to be checked.
  if (diagnostics === 0) throw new Error('no diagnostics at all: were the documents checked?');
}

/** Expressions of one shape each, from short comparisons to large sets: what the cache's estimate is measured on. */
const SHAPES: [string, (i: number) => string][] = [
  ['one comparison', (i) => `tcp.dstport == ${i}`],
  ['bench/inputs.ts', (i) => `${expression(i)} and ip.len != ${i}`],
  ['with mistakes', (i) => `ip.sorc in {10.0.${i % 256}.${(i >> 8) % 256}} and tcp.dstprt == ${i} and ip.src.country == "ZZ"`],
  ['20 `not (…)`', (i) => Array.from({ length: 20 }, (_, k) => `not (tcp.dstport == ${i}${k})`).join(' and ')],
  ['30 `or`', (i) => Array.from({ length: 30 }, (_, k) => `ip.ttl == ${i * 30 + k}`).join(' or ')],
  ['12 nested', (i) => Array.from({ length: 12 }, (_, k) => `(ip.src in {192.0.2.${k}/32} and tcp.dstport == ${i + k} and not tcp.flags.syn)`).join(' or ')],
  ['20 addresses', (i) => `ip.src in {${Array.from({ length: 20 }, (_, k) => `10.${k}.${i % 256}.${(i >> 8) % 256}`).join(' ')}} and tcp.dstport == ${i}`],
  ['200 addresses', (i) => `ip.src in {${Array.from({ length: 200 }, (_, k) => `10.${k % 256}.${i % 256}.${(i >> 8) % 256}`).join(' ')}} or udp.dstport in {${i} ${i + 1}}`],
];

/**
 * The heap one cached result keeps, by shape of expression, beside the cache's estimate: 3,000
 * expressions checked as the rules of ruleset documents (every analysis runs) into one cache
 * without a budget; the heap used after a full collection, less before, over the results.
 */
function heapPerResult(): string[][] {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const rows: string[][] = [];
  for (const [shape, make] of SHAPES) {
    const cache = new ExpressionCache(Infinity);
    gc();
    const before = process.memoryUsage().heapUsed;
    let characters = 0;
    for (let d = 0; d < 300; d++) {
      const rules = Array.from({ length: 10 }, (_, k) => {
        const text = make(d * 10 + k);
        characters += text.length;
        return { action: 'block', description: `rule ${k}`, expression: text };
      });
      checkRuleset(JSON.stringify({ name: `doc ${d}`, kind: 'root', phase: 'magic_transit', rules }, null, 2), 'json', { cache });
    }
    gc();
    const measured = (process.memoryUsage().heapUsed - before) / cache.size;
    const estimated = cache.bytes / cache.size;
    rows.push([shape, (characters / 3000).toFixed(0), `${(measured / 1000).toFixed(1)} kB`, `${(estimated / 1000).toFixed(1)} kB`, `${(estimated / measured).toFixed(2)}`]);
  }
  return rows;
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  const resident = new Map<number, { rss: number; peak: number }>();
  const shipped = await startServerProcess({ pull: true, instrumented: false });
  await session(shipped, async (n) => void resident.set(n, shipped.residentMemory()));
  await shipped.stop();

  const collected = new Map<number, NodeJS.MemoryUsage>();
  const instrumented = await startServerProcess({ pull: true, instrumented: true });
  await session(instrumented, async (n) => void collected.set(n, await instrumented.memoryUsage()));
  await instrumented.stop();

  const rows = [...resident].map(([n, { rss, peak }]) => [n.toLocaleString('en'), mib(rss), mib(peak), mib(collected.get(n)!.heapUsed), `≤ ${TARGET_MIB} MB`]);
  printTable(['documents opened and closed', 'server RSS', 'highest RSS so far', 'heap used after GC (2nd run)', 'target (RSS)'], rows);
  console.log();
  printTable(['expression cache: shape', 'characters', 'heap per result', 'estimated', 'estimate / heap'], heapPerResult());
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
