/**
 * Editor features on a large file with a mistake in every rule: the work of a request grows
 * with the rules, not with their square. Counted, not timed (bench/lsp.ts and bench/cli.ts
 * measure the time): here the reads of the fixes' edit offsets that "fix all" makes.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import type { DocumentEdit } from '../../server/src/documents/host/host-edits';
import { loadTerraformParser } from '../../server/src/documents/terraform';
import { codeActions } from '../../server/src/features/code-actions';
import { modelOf, settings } from './harness';

before(() => loadTerraformParser());

const RULES = 2_000;

/** A v4 resource of `RULES` rules, each with the misspelt field `http.hots` (one fix each: `http.host`). */
function terraformWithTypos(): string {
  const rules = Array.from({ length: RULES }, (_, i) => `  rules {\n    action     = "block"\n    expression = "http.hots eq \\"h${i}.example\\""\n  }\n`);
  return `resource "cloudflare_ruleset" "r" {\n  name  = "r"\n  kind  = "zone"\n  phase = "http_request_firewall_custom"\n${rules.join('')}}\n`;
}

/** The same rules as a YAML ruleset. */
function yamlWithTypos(): string {
  const rules = Array.from({ length: RULES }, (_, i) => `  - action: block\n    expression: http.hots eq "h${i}.example"\n`);
  return `name: r\nkind: zone\nphase: http_request_firewall_custom\nrules:\n${rules.join('')}`;
}

describe('fix all on a file with a mistake in each of 2,000 rules', () => {
  for (const [name, text, format] of [
    ['Terraform', terraformWithTypos(), 'hcl'],
    ['YAML', yamlWithTypos(), 'yaml'],
  ] as const) {
    it(`${name}: one action fixes all 2,000, reading each edit's offsets a bounded number of times`, () => {
      const model = modelOf(text, format);
      const s = settings();
      const problems = model.problems(s).filter((p) => p.code === 'unknown-field');
      assert.equal(problems.length, RULES);
      // Every read of an edit's offsets is counted: comparing each edit with every edit taken
      // before it read them 2,000² times.
      let reads = 0;
      for (const problem of problems) {
        for (const fix of problem.fixes ?? []) {
          (fix as { edits: readonly DocumentEdit[] }).edits = fix.edits.map(({ start, end, newText }) => ({
            get start() {
              reads++;
              return start;
            },
            get end() {
              reads++;
              return end;
            },
            newText,
          }));
        }
      }
      const at = model.positionAt(problems[RULES / 2].start);
      const actions = codeActions(model, { start: at, end: at }, { diagnostics: [] }, s);
      const all = actions.find((a) => a.title.startsWith('Fix all'));
      assert.equal(all?.title, `Fix all ${RULES} unknown-field problems in this file`);
      const edits = all.edit?.changes?.[model.uri] ?? [];
      assert.equal(edits.length, RULES);
      for (const e of edits) assert.equal(e.newText, 'http.host');
      assert.ok(reads < 100 * RULES, `${reads} reads of edit offsets for ${RULES} fixes`);
    });
  }
});
