// The kinds of bare expression (`--kind`, the library's `kind`) against the catalogue they stand for.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkBareExpression, EXPRESSION_KINDS, kindOutOfPhase } from '../../server/src/documents/bare-expression';
import { PARAMETER_FACTS } from '../../server/src/language/catalogue/actions';
import { KNOWN_PHASES } from '../../server/src/language/catalogue/phases';

describe('EXPRESSION_KINDS', () => {
  it('each value kind is a place the actions catalogue marks as a value expression, and the filter a filter', () => {
    for (const kind of EXPRESSION_KINDS) {
      if (kind.reads === 'filter') {
        assert.equal(kind.action, undefined, kind.name);
        continue;
      }
      const facts = PARAMETER_FACTS.filter((f) => f.target === kind.action && f.expression === 'value');
      assert.ok(facts.length > 0, `${kind.name}: \`${kind.action}\` has a value expression`);
    }
    // Every action with a value expression that a user writes in a rule has a kind (a Bulk Redirect's key and the exposed-credential expressions are left to files).
    const covered = new Set(EXPRESSION_KINDS.map((k) => k.action));
    assert.deepEqual([...new Set(PARAMETER_FACTS.filter((f) => f.expression === 'value').map((f) => f.target))].filter((t) => !covered.has(t)).sort(), ['exposed_credential_check']);
  });

  it("each kind's own phase is a phase, and one whose rules hold it", () => {
    for (const kind of EXPRESSION_KINDS) {
      assert.ok(KNOWN_PHASES.includes(kind.phase), kind.phase);
      assert.equal(kindOutOfPhase(kind, kind.phase), undefined, kind.name);
    }
  });

  it('a problem keeps its place and its fix on the text, and the severities apply', () => {
    // The leading spaces are a finding of their own (edge-whitespace), on their characters.
    const problems = checkBareExpression('  http.hots eq "a"');
    assert.deepEqual(problems.map((p) => [p.code, p.start, p.end]), [['edge-whitespace', 0, 2], ['unknown-field', 2, 11]]);
    const problem = problems[1];
    assert.deepEqual([problem.code, problem.start, problem.end, problem.fixes?.[0].edits], ['unknown-field', 2, 11, [{ start: 2, end: 11, newText: 'http.host' }]]);
    assert.deepEqual(checkBareExpression('ip.src.country in {"br"}', { severities: { 'country-code-case': 'off' } }), []);
    // An error stays an error whatever the configuration says.
    assert.equal(checkBareExpression('http.hots eq "a"', { severities: { 'unknown-field': 'off' } }).length, 1);
  });
});
