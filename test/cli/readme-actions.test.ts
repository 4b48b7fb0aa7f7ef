/**
 * The table "Actions per phase" of docs/checks.md says what the data says: each row's phase and actions are those
 * of PHASE_ACTIONS (server/src/language/catalogue/actions.ts), in its order, every phase once; a
 * phase no source lists actions for says so with "—". The example column is free text.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PHASE_ACTIONS } from '../../server/src/language/catalogue/actions';

const README = readFileSync(join(__dirname, '..', '..', 'docs', 'checks.md'), 'utf8');

/** The rows of the first table after the heading `## Actions per phase`, up to the next heading, as cells. */
function tableRows(): string[][] {
  const start = README.indexOf('\n## Actions per phase\n');
  assert.ok(start >= 0, 'docs/checks.md has a section "Actions per phase"');
  const next = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, next < 0 ? undefined : next);
  const lines = section.split('\n').filter((l) => l.startsWith('|'));
  assert.ok(lines.length > 2, 'the section has a table');
  assert.match(lines[1], /^\|(\s*-+\s*\|)+$/, 'the second line of the table is its rule');
  return lines.slice(2).map((l) => l.slice(1, -1).split('|').map((c) => c.trim()));
}

/** `` `a`, `b` `` → ['a', 'b']; the dash (no source) → undefined. */
function actionsCell(cell: string): string[] | undefined {
  if (cell.startsWith('—')) return undefined;
  const names = cell.split(',').map((c) => c.trim());
  for (const name of names) assert.match(name, /^`[a-z_]+`$/, `an action in backticks: ${name}`);
  return names.map((n) => n.slice(1, -1));
}

describe('docs/checks.md: the table of actions per phase', () => {
  it('has every phase of the data once, in its order, with the actions the data allows', () => {
    const rows = tableRows();
    assert.deepEqual(
      rows.map(([phase, actions]) => [phase, actionsCell(actions)]),
      PHASE_ACTIONS.map((row) => [`\`${row.phase}\``, row.actions ? [...row.actions] : undefined]),
    );
  });
});
