/**
 * The README's Neovim configuration, exactly as written there, in a headless Neovim: the
 * server starts from it, diagnostics arrive on the right lines, and its `knownLists`
 * setting reaches the server. CI installs Neovim (Debian's package) so this runs there.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ROOT } from '../server/lsp-client';

function readmeNeovimConfig(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- neovim-config:start -->\s*```lua\n([\s\S]*?)```\s*<!-- neovim-config:end -->/.exec(readme);
  assert.ok(block, 'the README has the marked Neovim configuration');
  return block[1];
}

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const nvimMissing = nvim.error ? 'nvim is not installed (CI installs Debian\'s neovim package)' : false;

describe('Neovim with the README configuration', { skip: nvimMissing }, () => {
  before(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  });

  it('shows the server\'s diagnostics, with the configured knownLists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-nvim-'));
    // `rulesets-language-server` on PATH, as `npm install -g .` would put it.
    const bin = join(dir, 'bin');
    execFileSync('mkdir', ['-p', bin]);
    writeFileSync(join(bin, 'rulesets-language-server'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist', 'server.js')}" "$@"\n`);
    chmodSync(join(bin, 'rulesets-language-server'), 0o755);
    writeFileSync(join(dir, 'init.lua'), readmeNeovimConfig());
    const file = join(dir, 'edge.ruleset.yaml');
    writeFileSync(file, 'name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in $office_netwroks\n  - action: block\n    expression: tcp.dstprt == 22\n');
    const out = join(dir, 'diagnostics.json');
    const report = join(dir, 'report.lua');
    writeFileSync(
      report,
      `local ok = vim.wait(15000, function() return #vim.diagnostic.get(0) >= 2 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { line = d.lnum, col = d.col, message = d.message })
end
table.sort(found, function(a, b) return a.line < b.line end)
vim.fn.writefile({ vim.fn.json_encode({ ok = ok, diagnostics = found }) }, ${JSON.stringify(out)})
vim.cmd('qa!')
`,
    );
    const result = spawnSync('nvim', ['--headless', '-u', join(dir, 'init.lua'), '-c', `luafile ${report}`, file], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    });
    assert.equal(result.status, 0, `nvim exited: ${result.stderr}`);
    const { ok, diagnostics } = JSON.parse(readFileSync(out, 'utf8')) as { ok: boolean; diagnostics: { line: number; col: number; message: string }[] };
    assert.ok(ok, `diagnostics arrived: ${JSON.stringify(diagnostics)}`);
    assert.equal(diagnostics.length, 2);
    assert.deepEqual([diagnostics[0].line, diagnostics[0].col], [5, 26]);
    assert.match(diagnostics[0].message, /did you mean ‘\$office_networks’/, 'the knownLists setting reached the server');
    assert.deepEqual([diagnostics[1].line, diagnostics[1].col], [7, 16]);
    assert.match(diagnostics[1].message, /unknown field ‘tcp\.dstprt’/);
  });
});
