// Runs every test/**/*.test.ts with node's built-in runner (TypeScript through tsx).
// Node 20's runner does not expand globs itself, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : find(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

// Arguments narrow the run to some files or folders (a folder means every test file below it).
const only = process.argv.slice(2);
const files = (only.length > 0 ? only.flatMap((path) => (statSync(path).isDirectory() ? find(path) : [path])) : find('test')).sort();
// One file at a time, as on a 2-core machine anyway: several files build dist/ or the .vsix, and
// the end-to-end files each start a VS Code; on a bigger machine they would race.
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
