/**
 * Terraform's own evaluation of a module's locals and variables, as the oracle of our evaluator:
 * OpenTofu's `tofu console` (built by scripts/build-tofu.sh) run on a copy of the module that keeps
 * only what evaluates without providers or state.
 *
 * The copy keeps every file (tfvars, the files `file()`/`templatefile()` read) but cuts from each
 * `.tf` file every top-level block other than `variable`, `locals` and a `module` whose `source` is
 * a local folder (`./…`, `../…`): `terraform`, `provider`, `resource`, `data`, `output`, `check`,
 * `import`, `moved`, `removed`, remote modules. The cut is made on the tree-sitter tree the project
 * parses `.tf` files with (server/src/documents/host/hcl-parser.ts), so braces inside strings and
 * heredocs cannot mislead it. A local whose value refers to something cut (a resource, a data
 * source, a remote module's output) becomes an unknown value in the copy, as it is for Terraform
 * before apply. A local module's locals and variables come out through outputs added to its copy.
 *
 * One `tofu console` process a module (it takes a noticeable fraction of a second to start): its
 * standard input holds two lines a value, whether `jsonencode(X)` is sensitive and its base64 (no
 * quoting or heredoc form to read back), each inside `try(…)` so that one failing value does not
 * end the others. An unknown value prints `(known after apply)`; a variable no file sets is one.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';

import { hclParser, loadTerraformParser, type HclNode, type HclTree } from '../../server/src/documents/host/hcl-parser';

/** What tofu says of one local or variable. */
export type TofuValue =
  | { readonly known: true; readonly value: unknown; readonly sensitive: boolean }
  | { readonly known: false; readonly reason: 'unknown' | 'error'; readonly detail?: string };

export interface TofuResult {
  /** By name as written in the root module: `local.rules`, `var.zone_id`, `module.waf.var.rules`. */
  readonly values: ReadonlyMap<string, TofuValue>;
  /** Wall-clock seconds of the whole run (copy, `tofu init` when there are local modules, `tofu console`). */
  readonly seconds: number;
}

/** The top-level blocks a copy keeps: the ones that evaluate without providers or state. */
const KEPT_BLOCKS = new Set(['variable', 'locals', 'module']);
/** Outputs of ours added to each local module's copy (names of Terraform's own never start so). */
const OUTPUT_PREFIX = 'rulesets_oracle_';
/** What the console prints for a value of a failed `try`. */
const FAILED = 'rulesets-oracle-failed';

/** The path of `tofu`: `$TOFU`, else the one scripts/build-tofu.sh builds, else undefined. */
export function findTofu(): string | undefined {
  if (process.env.TOFU) return existsSync(process.env.TOFU) ? process.env.TOFU : undefined;
  const cache = process.env.RULESETS_TOOLS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? tmpdir(), '.cache'), 'rulesets-tools');
  const built = join(cache, 'tofu-1.10.6', 'tofu');
  return existsSync(built) ? built : undefined;
}

let saidMissing = false;

/**
 * What a test does without tofu: skip with one line, except when `TOFU_REQUIRED=1` (as .ci/run
 * sets after building it) or CI=true, where its absence is a failure.
 */
export function missingTofu(skip: (message: string) => void): void {
  const message = 'OpenTofu (`tofu`) not available: build it with `TOFU=$(scripts/build-tofu.sh)` and set TOFU';
  if (process.env.CI === 'true' || process.env.TOFU_REQUIRED === '1') throw new Error(`${message} (required when CI=true or TOFU_REQUIRED=1)`);
  if (!saidMissing) console.log(`${message} — skipped`);
  saidMissing = true;
  skip(message);
}

/** One module of the copy, with the names it declares and the local modules it calls. */
interface ModuleCopy {
  readonly dir: string;
  readonly locals: string[];
  readonly variables: string[];
  /** Local module calls without count/for_each: name → folder of the copy. */
  readonly calls: Map<string, ModuleCopy>;
}

/** The top-level blocks of a file (its body may follow comments). */
function topBlocks(tree: HclTree | undefined): HclNode[] {
  const body = tree?.rootNode.namedChildren.find((child) => child?.type === 'body');
  return (body?.namedChildren ?? []).filter((child): child is HclNode => child?.type === 'block');
}

function identifierOf(block: HclNode): string | undefined {
  return block.namedChildren.find((child) => child?.type === 'identifier')?.text;
}

function labelsOf(block: HclNode): string[] {
  return block.namedChildren.filter((child) => child?.type === 'string_lit').map((label) => label!.text.slice(1, -1));
}

function bodyOf(block: HclNode): HclNode | undefined {
  return block.namedChildren.find((child) => child?.type === 'body') ?? undefined;
}

function attributesOf(body: HclNode | undefined): Map<string, HclNode> {
  const attributes = new Map<string, HclNode>();
  for (const child of body?.namedChildren ?? []) {
    if (child?.type !== 'attribute') continue;
    const name = child.namedChildren.find((c) => c?.type === 'identifier')?.text;
    const expression = child.namedChildren.find((c) => c?.type === 'expression');
    if (name && expression) attributes.set(name, expression);
  }
  return attributes;
}

/** A literal string's text, or undefined for anything else. */
function literalString(expression: HclNode | undefined): string | undefined {
  const text = expression?.text.trim();
  return text && /^"[^"\\$%]*"$/.test(text) ? text.slice(1, -1) : undefined;
}

/** Whether an expression refers to a resource, a data source or one of the given module calls. */
function refersToCut(expression: HclNode, keptCalls: ReadonlySet<string>): boolean {
  const pending: HclNode[] = [expression];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.type === 'variable_expr') {
      const root = node.text;
      const next = node.nextNamedSibling;
      const attribute = next?.type === 'get_attr' ? next.namedChildren[0]?.text : undefined;
      if (root === 'data') return true;
      if (root === 'module' && attribute !== undefined && !keptCalls.has(attribute)) return true;
      // A resource type: provider name, underscore, type (`cloudflare_ruleset.x`); iterator names of
      // for expressions are rarely so named, and a wrong guess only makes a value unknown.
      if (/^[a-z][a-z0-9]*_[a-z0-9_]+$/.test(root) && attribute !== undefined) return true;
    }
    for (const child of node.namedChildren) if (child) pending.push(child);
  }
  return false;
}

function isLocalSource(source: string | undefined): source is string {
  return source !== undefined && (source.startsWith('./') || source.startsWith('../'));
}

/** Rewrites the `.tf` files of one folder of the copy; returns its module. */
function cutModule(dir: string, copyRoot: string, seen: Map<string, ModuleCopy>): ModuleCopy {
  const existing = seen.get(dir);
  if (existing) return existing;
  const module: ModuleCopy = { dir, locals: [], variables: [], calls: new Map() };
  seen.set(dir, module);
  const parser = hclParser();
  if (!parser) throw new Error('the HCL parser is not loaded');
  const files = readdirSync(dir).filter((name) => name.endsWith('.tf') || name.endsWith('.tf.json'));
  // First the names of the local module calls kept, since a local may refer to their outputs.
  const parsed = files.map((name) => {
    const path = join(dir, name);
    if (name.endsWith('.tf.json')) return { path, text: '', tree: undefined };
    const text = readFileSync(path, 'utf8');
    return { path, text, tree: parser.parse(text) ?? undefined };
  });
  const keptCalls = new Set<string>();
  for (const { tree } of parsed) {
    for (const block of topBlocks(tree)) {
      if (identifierOf(block) !== 'module') continue;
      const attributes = attributesOf(bodyOf(block));
      const source = literalString(attributes.get('source'));
      const target = isLocalSource(source) ? resolve(dir, source) : undefined;
      const inside = target !== undefined && (target === copyRoot || target.startsWith(copyRoot + sep)) && existsSync(target);
      if (inside && !attributes.has('count') && !attributes.has('for_each')) keptCalls.add(labelsOf(block)[0]);
    }
  }
  const unknowns: string[] = [];
  for (const { path, text, tree } of parsed) {
    if (!tree) {
      // JSON syntax is not cut here: left out, its names are not compared.
      rmSync(path);
      continue;
    }
    const kept: string[] = [];
    for (const block of topBlocks(tree)) {
      const type = identifierOf(block);
      if (!type || !KEPT_BLOCKS.has(type)) continue;
      const labels = labelsOf(block);
      if (type === 'module') {
        if (!keptCalls.has(labels[0])) continue;
        const source = literalString(attributesOf(bodyOf(block)).get('source'))!;
        module.calls.set(labels[0], cutModule(resolve(dir, source), copyRoot, seen));
        kept.push(text.slice(block.startIndex, block.endIndex));
      } else if (type === 'variable') {
        module.variables.push(labels[0]);
        kept.push(text.slice(block.startIndex, block.endIndex));
      } else {
        // locals: each attribute kept, or made unknown when it refers to something cut.
        const lines: string[] = [];
        for (const [name, expression] of attributesOf(bodyOf(block))) {
          module.locals.push(name);
          if (refersToCut(expression, keptCalls)) {
            unknowns.push(name);
            lines.push(`  ${name} = var.${OUTPUT_PREFIX}unknown_${name}`);
          } else {
            lines.push(`  ${name} = ${text.slice(expression.startIndex, expression.endIndex)}`);
          }
        }
        kept.push(`locals {\n${lines.join('\n')}\n}`);
      }
    }
    writeFileSync(path, `${kept.join('\n\n')}\n`);
  }
  // An unknown of any type: a variable the console is given no value for (see UNSET_VARIABLES).
  const extra = unknowns.map((name) => `variable "${OUTPUT_PREFIX}unknown_${name}" {\n  type = any\n}\n`);
  writeFileSync(join(dir, `${OUTPUT_PREFIX}extra.tf`), extra.join('\n'));
  return module;
}

/** Every name a module shows, with the expression that reads it from that module. */
function namesOf(module: ModuleCopy): { name: string; expression: string }[] {
  const names = [
    ...module.locals.map((name) => ({ name: `local.${name}`, expression: `local.${name}` })),
    ...module.variables.filter((name) => !name.startsWith(OUTPUT_PREFIX)).map((name) => ({ name: `var.${name}`, expression: `var.${name}` })),
  ];
  for (const [call, child] of module.calls) {
    namesOf(child).forEach((inner, index) => names.push({ name: `module.${call}.${inner.name}`, expression: `module.${call}.${OUTPUT_PREFIX}${index}` }));
  }
  return names;
}

/**
 * Adds to each called module an output for every name it shows: whether the value is sensitive, and
 * its JSON text; marked sensitive, since an output of a sensitive value must say so.
 */
function addOutputs(module: ModuleCopy, done: Set<ModuleCopy>): void {
  for (const child of module.calls.values()) {
    if (done.has(child)) continue;
    done.add(child);
    addOutputs(child, done);
    const outputs = namesOf(child).map(
      ({ expression }, index) => `output "${OUTPUT_PREFIX}${index}" {\n  value     = { sensitive = issensitive(jsonencode(${expression})), json = nonsensitive(jsonencode(${expression})) }\n  sensitive = true\n}\n`,
    );
    writeFileSync(join(child.dir, `${OUTPUT_PREFIX}outputs.tf`), outputs.join('\n'));
  }
}

function copyModule(moduleDir: string, into: string): void {
  cpSync(moduleDir, into, {
    recursive: true,
    filter: (source) => {
      const name = relative(moduleDir, source).split(sep).pop() ?? '';
      return name !== '.terraform' && name !== '.git' && !name.endsWith('.tfstate') && name !== '.terraform.lock.hcl';
    },
  });
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(tofu: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, stdin = ''): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tofu, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/**
 * Tofu's value of every local and variable of the module in `moduleDir` (and of the local modules
 * it calls, as `module.NAME.local.x`), with the module's own `terraform.tfvars` and `*.auto.tfvars`.
 * `variables` gives values as a `-var-file` does (JSON values; they win over the tfvars files).
 */
export async function tofuValues(tofu: string, moduleDir: string, variables: Readonly<Record<string, unknown>> = {}): Promise<TofuResult> {
  const started = process.hrtime.bigint();
  await loadTerraformParser();
  const work = mkdtempSync(join(tmpdir(), 'rulesets-tofu-'));
  try {
    const copy = join(work, 'module');
    copyModule(resolve(moduleDir), copy);
    const root = cutModule(copy, copy, new Map());
    addOutputs(root, new Set());
    const names = namesOf(root);
    // Given values win over the module's tfvars files, as `-var-file` does.
    const given = join(work, 'given.tfvars.json');
    writeFileSync(given, JSON.stringify(variables));
    const config = join(work, 'tofurc');
    writeFileSync(config, '');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: work,
      TMPDIR: process.env.TMPDIR ?? tmpdir(),
      TF_CLI_CONFIG_FILE: config,
      TF_DATA_DIR: join(work, 'data'),
      TF_IN_AUTOMATION: '1',
      TF_INPUT: '0',
      CHECKPOINT_DISABLE: '1',
    };
    if (root.calls.size > 0) {
      // Local modules must be installed (a manifest in TF_DATA_DIR); no provider is left to fetch.
      const init = await run(tofu, ['init', '-backend=false', '-input=false', '-no-color'], copy, env);
      if (init.code !== 0) throw new Error(`tofu init failed in a copy of ${moduleDir}:\n${init.stderr || init.stdout}`);
    }
    const lines = names.flatMap(({ name, expression }) => {
      // jsonencode is sensitive when any part of its argument is; nonsensitive then reads it.
      // A local module's value arrives already encoded, in a sensitive output (see addOutputs).
      if (name.startsWith('module.')) return [`try(nonsensitive(${expression}).sensitive, "${FAILED}")`, `try(base64encode(nonsensitive(${expression}).json), "${FAILED}")`];
      return [`try(issensitive(jsonencode(${expression})), "${FAILED}")`, `try(base64encode(nonsensitive(jsonencode(${expression}))), "${FAILED}")`];
    });
    const consoled = await run(tofu, ['console', '-no-color', `-var-file=${given}`], copy, env, `${lines.join('\n')}\n`);
    if (consoled.code !== 0) throw new Error(`tofu console failed in a copy of ${moduleDir}:\n${consoled.stderr || consoled.stdout}`);
    const printed = consoled.stdout.split('\n').filter((line) => line.trim() !== '');
    if (printed.length !== lines.length) throw new Error(`tofu console printed ${printed.length} lines for ${lines.length} in ${moduleDir}:\n${consoled.stdout}\n${consoled.stderr}`);
    const values = new Map<string, TofuValue>();
    names.forEach(({ name }, index) => values.set(name, readValue(printed[2 * index].trim(), printed[2 * index + 1].trim())));
    return { values, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One value from the console's two lines. */
function readValue(sensitiveLine: string, valueLine: string): TofuValue {
  if (valueLine === '(known after apply)') return { known: false, reason: 'unknown' };
  if (valueLine === `"${FAILED}"`) return { known: false, reason: 'error' };
  const base64 = /^"([A-Za-z0-9+/=]*)"$/.exec(valueLine);
  if (!base64) return { known: false, reason: 'error', detail: valueLine };
  return { known: true, value: JSON.parse(Buffer.from(base64[1], 'base64').toString('utf8')), sensitive: sensitiveLine === 'true' };
}

/** Every folder below `root` that holds a `.tf` file and is not itself a module called by another (no `modules/` folder). */
export function moduleFolders(root: string): string[] {
  const folders: string[] = [];
  const visit = (dir: string): void => {
    const entries = readdirSync(dir).sort();
    if (entries.some((name) => name.endsWith('.tf'))) folders.push(dir);
    for (const name of entries) {
      const path = join(dir, name);
      if (name !== 'modules' && statSync(path).isDirectory()) visit(path);
    }
  };
  visit(root);
  return folders;
}
