/**
 * The Neovim configuration of docs/editors.md, exactly as written there, in a headless Neovim: the
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
  const readme = readFileSync(join(ROOT, 'docs', 'editors.md'), 'utf8');
  const block = /<!-- neovim-config:start -->\s*```lua\n([\s\S]*?)```\s*<!-- neovim-config:end -->/.exec(readme);
  assert.ok(block, 'docs/editors.md has the marked Neovim configuration');
  return block[1];
}

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const nvimMissing = nvim.error ? 'nvim is not installed (CI installs Debian\'s neovim package)' : false;

describe('Neovim with the configuration of docs/editors.md', { skip: nvimMissing }, () => {
  before(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT });
  });

  /** Opens `name` with `text` in a headless Neovim with the configuration of docs/editors.md; the diagnostics that arrive (at least `count`) and the buffer's filetype. */
  function diagnosticsIn(name: string, text: string, count: number): { ok: boolean; filetype: string; diagnostics: { line: number; col: number; message: string }[] } {
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-nvim-'));
    // `rulesets-language-server` on PATH, as `npm install -g .` would put it.
    const bin = join(dir, 'bin');
    execFileSync('mkdir', ['-p', bin]);
    writeFileSync(join(bin, 'rulesets-language-server'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist', 'server.js')}" "$@"\n`);
    chmodSync(join(bin, 'rulesets-language-server'), 0o755);
    writeFileSync(join(dir, 'init.lua'), readmeNeovimConfig());
    const file = join(dir, name);
    writeFileSync(file, text);
    const out = join(dir, 'diagnostics.json');
    const report = join(dir, 'report.lua');
    writeFileSync(
      report,
      `local ok = vim.wait(15000, function() return #vim.diagnostic.get(0) >= ${count} end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { line = d.lnum, col = d.col, message = d.message })
end
table.sort(found, function(a, b) return a.line < b.line end)
vim.fn.writefile({ vim.fn.json_encode({ ok = ok, filetype = vim.bo.filetype, diagnostics = found }) }, ${JSON.stringify(out)})
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
    return JSON.parse(readFileSync(out, 'utf8'));
  }

  it('shows the server\'s diagnostics, with the configured knownLists', () => {
    const { ok, diagnostics } = diagnosticsIn('edge.ruleset.yaml', 'name: edge\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ip.src in $office_netwroks\n  - action: block\n    expression: tcp.dstprt == 22\n', 2);
    assert.ok(ok, `diagnostics arrived: ${JSON.stringify(diagnostics)}`);
    assert.equal(diagnostics.length, 2);
    assert.deepEqual([diagnostics[0].line, diagnostics[0].col], [5, 26]);
    assert.match(diagnostics[0].message, /did you mean ‘\$office_networks’/, 'the knownLists setting reached the server');
    assert.deepEqual([diagnostics[1].line, diagnostics[1].col], [7, 16]);
    assert.match(diagnostics[1].message, /unknown field ‘tcp\.dstprt’/);
  });

  it('serves a Terraform file (filetype terraform) on the characters of its expressions', () => {
    const text = 'resource "cloudflare_ruleset" "edge" {\n  name  = "edge"\n  kind  = "root"\n  phase = "magic_transit"\n  rules {\n    action     = "block"\n    expression = "tcp.dstprt == 22"\n    ref        = "no_ssh"\n  }\n}\n';
    const { ok, filetype, diagnostics } = diagnosticsIn('edge.tf', text, 1);
    assert.equal(filetype, 'terraform');
    assert.ok(ok, `diagnostics arrived: ${JSON.stringify(diagnostics)}`);
    assert.deepEqual(diagnostics.map((d) => [d.line, d.col]), [[6, 18]]);
    assert.match(diagnostics[0].message, /unknown field ‘tcp\.dstprt’/);
  });
});
