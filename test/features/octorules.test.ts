/**
 * The editor's features in an octorules rules file, where each section is the ruleset of its
 * phase: the phase that completion and hover use is the section's under the cursor, the
 * parameters of a rule without `action` are its section's default action's, the outline has a
 * ruleset per section, and a quick fix lands in the right section.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { codeActions } from '../../server/src/features/code-actions';
import { completeAt } from '../../server/src/features/completion';
import { hover } from '../../server/src/features/hover';
import { documentSymbols } from '../../server/src/features/symbols';
import { applyEdits, modelOf, settings } from './harness';

const FILE = [
  'cloudflare:',
  '  network_firewall_rules:',
  '    - ref: ssh',
  '      expression: tcp.dstport == 22',
  '      action: block',
  '  redirect_rules:',
  '    - ref: moved',
  '      expression: http.request.uri.path eq "/old"',
  '      action_parameters:',
  '        from_value:',
  '          target_url:',
  '            expression: concat("https://example.com", http.request.uri.pth)',
  '          status_code: 301',
  '',
].join('\n');
const URI = 'file:///work/rules/example.com.yaml';

describe('features in an octorules rules file', () => {
  it('completes the fields of the section under the cursor: packet fields in one, HTTP fields in the other', () => {
    const model = modelOf(FILE, 'yaml', URI);
    const labels = (after: string) => completeAt(model, FILE.indexOf(after) + after.length, settings())?.items.map((i) => i.label) ?? [];
    const packet = labels('expression: tcp.');
    assert.ok(packet.includes('tcp.dstport') && !packet.some((l) => l.startsWith('http.')), JSON.stringify(packet.slice(0, 8)));
    const http = labels('expression: http.request.');
    assert.ok(http.includes('http.request.uri.path') && !http.some((l) => l.startsWith('tcp.')), JSON.stringify(http.slice(0, 8)));
  });

  it('hovers a parameter key of a rule without `action` as a parameter of its section\'s default action', () => {
    const model = modelOf(FILE, 'yaml', URI);
    const found = hover(model, model.positionAt(FILE.indexOf('target_url') + 2), settings());
    assert.match(JSON.stringify(found?.contents), /redirect/);
  });

  it('reports the misspelt field in the value expression of the default action\'s parameters, with a fix in place', () => {
    const model = modelOf(FILE, 'yaml', URI);
    const problem = model.problems(settings()).find((p) => p.code === 'unknown-field');
    assert.ok(problem, JSON.stringify(model.problems(settings())));
    assert.equal(FILE.slice(problem.start, problem.end), 'http.request.uri.pth');
    const position = model.positionAt(problem.start);
    const fix = codeActions(model, { start: position, end: position }, { diagnostics: [] }, settings()).find((a) => a.title.includes('http.request.uri.path'));
    assert.ok(fix?.edit?.changes);
    const fixed = applyEdits(FILE, fix.edit.changes[URI]);
    assert.deepEqual(modelOf(fixed, 'yaml', URI).problems(settings()), []);
  });

  it('outlines one ruleset per section, named by the section', () => {
    const model = modelOf(FILE, 'yaml', URI);
    const symbols = documentSymbols(model, settings());
    assert.deepEqual(symbols.map((s) => [s.name, s.detail, s.children?.length]), [
      ['network_firewall_rules', 'magic_transit', 1],
      ['redirect_rules', 'http_request_dynamic_redirect', 1],
    ]);
  });
});
