/**
 * A floor for bench/anchors.ts: our parser alone as a process. Reads the JSON ruleset in argv[2]
 * with JSON.parse and parses every rule's expression with the parser `rulesets check` uses
 * (parseExpression, the phase's parse options), then stops: no checks, no analyses, no
 * positions in the file, no report. anchors.ts bundles it as the CLI is bundled.
 */
import { readFileSync } from 'node:fs';
import { catalogueFor } from '../server/src/language/catalogue/catalogues';
import { parseOptionsFor } from '../server/src/language/operand-types';
import { parseExpression } from '../server/src/language/parser';

const ruleset = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { phase: string; rules: { expression: string }[] };
const options = parseOptionsFor(catalogueFor(ruleset.phase));
const trees = [];
for (const rule of ruleset.rules) {
  const tree = parseExpression(rule.expression, options).ast;
  if (tree) trees.push(tree);
}
console.log(JSON.stringify({ parsed: trees.length }));
