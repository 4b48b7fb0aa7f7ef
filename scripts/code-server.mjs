// Installs code-server (VS Code for the browser, from npm) for the end-to-end tests in test/e2e,
// following /work/shared/notes/REAL-VSCODE.md: its own postinstall downloads ripgrep from GitHub,
// which these machines cannot reach, so its steps are done here by hand.
//
//   node scripts/code-server.mjs        install (or reuse) and print where it is
//
// The install goes to .cache/code-server-<version>/ in the repo (.gitignore names .cache/), or to
// $RULESETS_E2E_CACHE/code-server-<version>/ when that is set. A marker file is written only after
// every step succeeded; anything else found there is a half-finished install and is redone.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
export const CHROMIUM = '/usr/bin/chromium';
const RIPGREP = '/usr/bin/rg';
const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'ripgrep'];
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MARKER = '.install-complete.json';

/** The folder code-server is (or will be) installed in. */
export function codeServerDir() {
  const cache = process.env.RULESETS_E2E_CACHE ? resolve(process.env.RULESETS_E2E_CACHE) : join(ROOT, '.cache');
  return join(cache, `code-server-${CODE_SERVER_VERSION}`);
}

function say(line) {
  process.stderr.write(`code-server: ${line}\n`);
}

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

class StepError extends Error {}

function fail(step, byHand, detail) {
  const output = detail ? `\n--- output (last lines) ---\n${detail}` : '';
  return new StepError(`code-server install failed at step "${step}".\nTo do it by hand: ${byHand}${output}`);
}

function quote(arg) {
  return /^[\w@./:=+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Runs one command, keeping its output quiet unless it fails. */
function run(step, cmd, args, { cwd, env = {} } = {}) {
  const envText = Object.entries(env).map(([k, v]) => `${k}=${quote(v)} `).join('');
  const byHand = `cd ${quote(cwd)} && ${envText}${[cmd, ...args].map(quote).join(' ')}`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => reject(fail(step, byHand, String(error))));
    child.on('close', (code, signal) => {
      if (code === 0) resolvePromise(output);
      else reject(fail(step, byHand, `${output.split('\n').slice(-25).join('\n')}\n(exit ${code ?? signal})`));
    });
  });
}

/** One command as one step: its line, and its name in a failure. */
function runStep(name, cmd, args, options) {
  return step(name, () => run(name, cmd, args, options));
}

async function step(name, action) {
  const started = Date.now();
  try {
    await action();
  } catch (error) {
    say(`${name} ... FAILED after ${seconds(started)}`);
    throw error;
  }
  say(`${name} ... ok ${seconds(started)}`);
}

function missingAptPackages() {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\\n', ...APT_PACKAGES], { encoding: 'utf8' });
  if (result.error) {
    // Not a dpkg system: judge by the files the install needs.
    return [
      ...(existsSync(CHROMIUM) ? [] : ['chromium']),
      ...(existsSync('/usr/include/krb5.h') || existsSync('/usr/include/gssapi/gssapi.h') ? [] : ['libkrb5-dev']),
      ...(existsSync(RIPGREP) ? [] : ['ripgrep']),
    ];
  }
  const installed = new Set(result.stdout.split('\n').filter((line) => line.endsWith(' installed')).map((line) => line.split(' ')[0]));
  return APT_PACKAGES.filter((name) => !installed.has(name));
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const aptCommand = (missing) => `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing.join(' ')}`;

/** Not root: says which command installs what is missing. */
function checkAptPackagesAsUser(missing) {
  if (missing.length > 0 && !isRoot()) {
    throw new StepError(`code-server needs the Debian packages ${missing.join(', ')}; install them as root:\n  sudo sh -c '${aptCommand(missing)}'`);
  }
}

/** Root: installs what is missing. */
async function ensureAptPackages() {
  const missing = missingAptPackages();
  if (missing.length === 0) return;
  checkAptPackagesAsUser(missing);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  await runStep('apt-get update', 'apt-get', ['update'], { cwd: '/', env });
  await runStep(`apt-get install ${missing.join(' ')}`, 'apt-get', ['install', '-y', ...missing], { cwd: '/', env });
  const still = missingAptPackages();
  if (still.length > 0) throw new StepError(`apt-get did not install ${still.join(', ')}; run by hand:\n  ${aptCommand(missing)}`);
}

function readMarker(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, MARKER), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Why the install in `dir` cannot be reused, or undefined when it can. */
function unusable(dir) {
  if (!existsSync(dir)) return 'not installed';
  const marker = readMarker(dir);
  if (!marker) return 'half-finished install';
  if (marker.version !== CODE_SERVER_VERSION) return `marker names version ${marker.version}`;
  // Native modules are built for one Node ABI.
  if (marker.nodeModules !== process.versions.modules) return `built for Node ABI ${marker.nodeModules}, this Node is ${process.versions.modules}`;
  if (!existsSync(entryOf(dir))) return 'entry.js is missing';
  return undefined;
}

function entryOf(dir) {
  return join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

function link(target, path) {
  try {
    lstatSync(path);
    unlinkSync(path);
  } catch {
    // absent
  }
  symlinkSync(target, path);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** One install at a time per folder, across processes (test files may run in parallel). */
async function withLock(dir, action) {
  const lock = `${dir}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  const waitedFrom = Date.now();
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8')) || 0;
      } catch {
        // just released, or its owner has not written the pid yet
      }
      if (owner && !pidAlive(owner)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!owner && Date.now() - waitedFrom > 10_000) {
        rmSync(lock, { recursive: true, force: true }); // a lock whose owner never wrote its pid
        continue;
      }
      if (!told) say(`waiting for another install (pid ${owner || '?'}, lock ${lock})`);
      told = true;
      if (Date.now() - waitedFrom > 20 * 60_000) throw new StepError(`gave up waiting for the install lock ${lock}; remove it if no install is running`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await action();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes sure code-server is installed and usable, installing it if needed.
 * @returns {Promise<{ dir: string, entry: string, chromium: string, version: string }>}
 */
export async function ensureCodeServer() {
  const dir = codeServerDir();
  const result = { dir, entry: entryOf(dir), chromium: CHROMIUM, version: CODE_SERVER_VERSION };
  const missing = missingAptPackages();
  if (!unusable(dir) && missing.length === 0) {
    say(`reusing ${dir}`);
    return result;
  }
  checkAptPackagesAsUser(missing);
  return withLock(dir, async () => {
    await ensureAptPackages();
    const why = unusable(dir);
    if (!why) {
      say(`reusing ${dir}`);
      return result;
    }
    const started = Date.now();
    say(`installing ${CODE_SERVER_VERSION} into ${dir} (${why}); this takes a few minutes`);
    if (existsSync(dir)) await step('remove the unfinished install', async () => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(dir, { recursive: true });
    // Its own package.json, so that npm does not walk up and install into the repo.
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'rulesets-e2e-tools', private: true }, null, 2)}\n`);
    const vscode = join(dir, 'node_modules', 'code-server', 'lib', 'vscode');
    const npmQuiet = ['--no-audit', '--no-fund', '--loglevel=error'];

    await runStep(`npm install code-server@${CODE_SERVER_VERSION}`, 'npm', ['install', '--ignore-scripts', ...npmQuiet, `code-server@${CODE_SERVER_VERSION}`], { cwd: dir });
    await runStep('npm install in lib/vscode', 'npm', ['install', '--omit=dev', '--ignore-scripts', ...npmQuiet], { cwd: vscode });
    await runStep('npm rebuild native modules of lib/vscode', 'npm', ['rebuild', 'kerberos', '@parcel/watcher', '@vscode/deviceid', '@vscode/spdlog', 'native-watchdog'], { cwd: vscode });
    await runStep('npm rebuild node-pty', 'npm', ['rebuild', 'node-pty'], { cwd: vscode, env: { npm_config_yes: 'true' } });
    await step('ripgrep, links and helpers', async () => {
      const rgDir = join(vscode, 'node_modules', '@vscode', 'ripgrep', 'bin');
      try {
        mkdirSync(rgDir, { recursive: true });
        copyFileSync(RIPGREP, join(rgDir, 'rg'));
        chmodSync(join(rgDir, 'rg'), 0o755);
        link('node_modules', join(vscode, 'node_modules.asar'));
        link('code-linux.sh', join(vscode, 'bin', 'remote-cli', 'code-server'));
        link('browser-linux.sh', join(vscode, 'bin', 'helpers', 'browser.sh'));
      } catch (error) {
        throw fail(
          'ripgrep, links and helpers',
          `cp ${RIPGREP} ${rgDir}/rg && cd ${vscode} && ln -s node_modules node_modules.asar && ` +
            `(cd bin/remote-cli && ln -s code-linux.sh code-server) && (cd bin/helpers && ln -s browser-linux.sh browser.sh)`,
          String(error),
        );
      }
    });
    await runStep('npm install in lib/vscode/extensions', 'npm', ['install', '--omit=dev', '--ignore-scripts', ...npmQuiet], { cwd: join(vscode, 'extensions') });
    await runStep('npm rebuild argon2', 'npm', ['rebuild', 'argon2'], { cwd: dir });
    await step('check: code-server --version', async () => {
      const out = await run('code-server --version', process.execPath, [entryOf(dir), '--version'], { cwd: dir });
      if (!out.includes(CODE_SERVER_VERSION)) throw fail('code-server --version', `node ${entryOf(dir)} --version`, out);
    });
    writeFileSync(
      join(dir, MARKER),
      `${JSON.stringify({ version: CODE_SERVER_VERSION, node: process.version, nodeModules: process.versions.modules, finishedAt: new Date().toISOString() }, null, 2)}\n`,
    );
    say(`installed in ${seconds(started)}`);
    return result;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  ensureCodeServer().then(
    (found) => {
      say(`ready in ${seconds(started)}`);
      console.log(found.entry);
    },
    (error) => {
      console.error(error instanceof StepError ? error.message : error);
      process.exit(1);
    },
  );
}
