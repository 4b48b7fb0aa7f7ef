/**
 * The server never crashes or hangs on any document: every feature, on random edits of real
 * ruleset files, at random positions, answers without throwing, in bounded time, with every
 * range inside the document.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Range } from 'vscode-languageserver';
import { codeActions } from '../../server/src/features/code-actions';
import { completion } from '../../server/src/features/completion';
import { diagnostics } from '../../server/src/features/diagnostics';
import { hover } from '../../server/src/features/hover';
import { semanticTokens } from '../../server/src/features/semantic-tokens';
import { signatureHelp } from '../../server/src/features/signature-help';
import { documentSymbols } from '../../server/src/features/symbols';
import { projectConfigCodeActions, projectConfigCompletion, projectConfigDiagnostics, projectConfigHover } from '../../server/src/features/project-config';
import { modelOf, settings } from './harness';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
// Subfolders too; a folder's `.rulesets.yaml` is no ruleset.
const documents = readdirSync(EXAMPLES, { recursive: true, encoding: 'utf8' })
  .filter((name) => /\.(json|ya?ml)$/.test(name) && !name.endsWith('.rulesets.yaml'))
  .map((name) => ({ name, text: readFileSync(join(EXAMPLES, name), 'utf8'), format: name.endsWith('.json') ? ('json' as const) : ('yaml' as const) }))
  .concat({
    // Disable directives, right and wrong, which the checks and the quick fixes read.
    name: 'directives.ruleset.yaml',
    format: 'yaml',
    text: '# rulesets-disable redundant-set-member\nname: d\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.proto == "tcp"\n  # rulesets-disable-next-line shadowed-rule, always-tru -- why\n  - action: block\n    expression: |\n      tcp.dstport in {22 22}\n  - action: block # rulesets-disable-next-line\n    expression: udp.dstport == 53 and tcp.dstport == 1\n',
  })
  .concat(
    // Actions with parameters, and expressions inside them, which completion, hover and colouring read by their schema.
    {
      name: 'parameters.ruleset.yaml',
      format: 'yaml',
      text: 'name: p\nkind: zone\nphase: http_request_transform\nrules:\n  - action: rewrite\n    expression: starts_with(http.request.uri.path, "/v1/")\n    action_parameters:\n      uri:\n        path:\n          expression: regex_replace(http.request.uri.path, "^/v1/", "/v2/")\n      headers:\n        X-Source: {operation: set, expression: to_string(ip.src)}\n        X-Powered-By:\n          operation: remove\n  - action: block\n    expression: "true"\n    ratelimit:\n      characteristics: [ip.src, cf.colo.id]\n      period: 60\n      counting_expression: |\n        http.response.code in {401 403}\n',
    },
    {
      name: 'parameters.ruleset.json',
      format: 'json',
      text: '{"name": "p", "kind": "zone", "phase": "http_request_dynamic_redirect", "rules": [{"action": "redirect", "expression": "true", "action_parameters": {"from_value": {"status_code": 301, "target_url": {"expression": "concat(\\"https://\\", http.host, http.request.uri.path)"}}}}, {"action": "skip", "expression": "true", "action_parameters": {"phases": ["http_ratelimit"]}}]}\n',
    },
  );

/** Project configurations, as the editor holds `.rulesets.yaml` while it is typed. */
const CONFIGS = [
  'phase: magic_transit\nlists: [office_networks, $bad, Bad-Name]\nfiles: ["firewall/*.yaml"]\nrules:\n  shadowed-rule: error\n  always-true: off\n  unknown-field: off\n  country-code-case: warn\n',
  'phse: magic_transitt\nrules: [a, b]\nlists: {a: 1}\n',
];

/** Characters that matter to the host formats and to the expression language. */
const INTERESTING = ['"', "'", '\\', '{', '}', '[', ']', '(', ')', '$', ',', ':', '#', '\t', '\n', '\r\n', ' ', '|', '>', '-', '!', '=', '&', 'é', '😀', 'r#"', '\\u00e9', 'and ', 'in ', '# rulesets-disable-next-line ', '# rulesets-disable ', 'shadowed-rule', 'off'];

// Positions are integers taken modulo the length: fast-check's doubles favour 0 and 1, which
// would put nearly every cursor and edit at the ends of the file.
const edit = fc.record({
  at: fc.nat({ max: 1_000_000 }),
  remove: fc.nat({ max: 12 }),
  insert: fc.oneof(fc.constantFrom(...INTERESTING), fc.string({ maxLength: 6 })),
});

function applyRandomEdits(text: string, edits: readonly { at: number; remove: number; insert: string }[]): string {
  let result = text;
  for (const e of edits) {
    const at = e.at % (result.length + 1);
    result = result.slice(0, at) + e.insert + result.slice(at + e.remove);
  }
  return result;
}

function assertRangeInside(lines: readonly string[], range: Range, what: string): void {
  for (const p of [range.start, range.end]) {
    assert.ok(p.line >= 0 && p.line < lines.length, `${what}: line ${p.line} inside the document`);
    assert.ok(p.character >= 0 && p.character <= lines[p.line].length, `${what}: character ${p.character} inside line ${p.line}`);
  }
  assert.ok(range.start.line < range.end.line || (range.start.line === range.end.line && range.start.character <= range.end.character), `${what}: start before end`);
}

describe('every feature, on random edits of real rulesets', () => {
  it('never throws and keeps every range inside the document', () => {
    fc.assert(
      fc.property(fc.constantFrom(...documents), fc.array(edit, { minLength: 1, maxLength: 4 }), fc.array(fc.nat({ max: 1_000_000 }), { minLength: 1, maxLength: 6 }), (doc, edits, cursors) => {
        const text = applyRandomEdits(doc.text, edits);
        const model = modelOf(text, doc.format, `file:///work/examples/${doc.name}`);
        const lines = text.split(/\r\n|\r|\n/);
        const s = settings();
        for (const d of diagnostics(model, s)) {
          assertRangeInside(lines, d.range, `diagnostic ${d.code}`);
          for (const r of d.relatedInformation ?? []) assertRangeInside(lines, r.location.range, 'related information');
        }
        const tokens = semanticTokens(model, s).data;
        assert.equal(tokens.length % 5, 0);
        for (const symbol of documentSymbols(model, s)) assertRangeInside(lines, symbol.range, 'symbol');
        for (const c of cursors) {
          const position = model.positionAt(c % (text.length + 1));
          const list = completion(model, position, s);
          for (const item of list?.items ?? []) {
            if (item.textEdit && 'range' in item.textEdit) assertRangeInside(lines, item.textEdit.range, `completion ${item.label}`);
          }
          const h = hover(model, position, s);
          if (h?.range) assertRangeInside(lines, h.range, 'hover');
          signatureHelp(model, position, s);
          const range = { start: position, end: position };
          for (const action of codeActions(model, range, { diagnostics: [] }, s)) {
            for (const e of action.edit?.changes?.[model.uri] ?? []) assertRangeInside(lines, e.range, `code action ${action.title}`);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on a project configuration being typed, and keeps every range inside it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CONFIGS), fc.array(edit, { minLength: 1, maxLength: 4 }), fc.array(fc.nat({ max: 1_000_000 }), { minLength: 1, maxLength: 6 }), (config, edits, cursors) => {
        const text = applyRandomEdits(config, edits);
        const model = modelOf(text, 'yaml', 'file:///work/.rulesets.yaml');
        const lines = text.split(/\r\n|\r|\n/);
        for (const d of projectConfigDiagnostics(model)) assertRangeInside(lines, d.range, `diagnostic ${d.code}`);
        for (const c of cursors) {
          const position = model.positionAt(c % (text.length + 1));
          for (const item of projectConfigCompletion(model, position).items) {
            if (item.textEdit && 'range' in item.textEdit) assertRangeInside(lines, item.textEdit.range, `completion ${item.label}`);
          }
          const h = projectConfigHover(model, position);
          if (h?.range) assertRangeInside(lines, h.range, 'hover');
          for (const action of projectConfigCodeActions(model, { start: position, end: position })) {
            for (const e of action.edit?.changes?.[model.uri] ?? []) assertRangeInside(lines, e.range, `code action ${action.title}`);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
