/**
 * OpenTofu as the oracle of Terraform evaluation (issue 34, item 3): for every module of
 * test/fixtures/terraform-modules/ (one folder an idiom, each with a `planted/` module holding one
 * expression mistake and its `clean/` twin), tofu's value of every local and variable.
 *
 * - tofu's values hold the planted mistake where expected.json says (its `value`), the clean twin's
 *   are the same values with the mistake fixed, and nothing but the variables left unset is unknown;
 * - the strings of tofu's value that hold the mistake, checked as rules of the phase, get the code
 *   expected.json names, and none once fixed (the mistake is one our checker flags, the twin clean);
 * - test/fixtures/terraform-values/ holds modules of values whose Terraform semantics are easy to
 *   get wrong (number formatting, regex `replace`, YAML's booleans, template strip markers,
 *   heredoc indentation, optional attributes…): tofu knows each of them;
 * - the project's evaluator (server/src/documents/terraform-module.ts, `moduleNames`) gives every
 *   local and variable tofu gives, deep-equal on JSON, and unknown where tofu cannot know it
 *   (compareValues); a todo until that module exists.
 *
 * Skips with one line without `tofu`, and fails then when TOFU_REQUIRED=1 or CI=true (.ci/run
 * builds it with scripts/build-tofu.sh).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { checkRuleset } from '../../server/src/core';
import { loadTerraformParser } from '../../server/src/documents/host/hcl-parser';
import { findTofu, missingTofu, tofuValues, type TofuResult, type TofuValue } from './tofu';

const FIXTURES = join(__dirname, '..', 'fixtures', 'terraform-modules');

interface Expected {
  readonly idiom: string;
  readonly findings: readonly {
    readonly file: string;
    readonly line: number;
    readonly column: number;
    readonly code: string;
    readonly text: string;
    /**
     * The characters the finding covers at file:line:column, where they are not `text` itself: a
     * file read by `file()` is no document of its own, so what it holds is placed on the call.
     */
    readonly covers?: string;
    readonly fixed: string;
    readonly resource: string;
    readonly phase: string;
  }[];
  /** The local or variable (as named from the root module) whose value holds the planted text. */
  readonly value: string;
}

const idioms = readdirSync(FIXTURES).sort();

/** Modules of values whose Terraform semantics are easy to get wrong (functions, templates), no rules in them. */
const VALUE_FIXTURES = join(__dirname, '..', 'fixtures', 'terraform-values');
const valueModules = readdirSync(VALUE_FIXTURES).sort();

/** Every module the evaluator is held to tofu on: each idiom's twins, then the value modules. */
const comparedFolders = [
  ...idioms.flatMap((idiom) => ['planted', 'clean'].map((twin) => ({ name: `${idiom}/${twin}`, folder: join(FIXTURES, idiom, twin) }))),
  ...valueModules.map((name) => ({ name: `terraform-values/${name}`, folder: join(VALUE_FIXTURES, name) })),
];

function expectedOf(idiom: string): Expected {
  return JSON.parse(readFileSync(join(FIXTURES, idiom, 'expected.json'), 'utf8')) as Expected;
}

/** An evaluator's value of one name: a JSON value, or unknown (Terraform fills it in later, or it cannot be known here). */
export type EvaluatedValue = { readonly known: true; readonly value: unknown } | { readonly known: false };

/**
 * How an evaluator's values differ from tofu's, one line a name: every name tofu knows must be
 * there with a deep-equal JSON value, every name tofu cannot know must be unknown (never guessed).
 */
export function compareValues(tofu: TofuResult, ours: ReadonlyMap<string, EvaluatedValue>): string[] {
  const differences: string[] = [];
  for (const [name, theirs] of tofu.values) {
    const mine = ours.get(name);
    if (!mine) differences.push(`${name}: missing (tofu: ${shown(theirs)})`);
    else if (!theirs.known && mine.known) differences.push(`${name}: ours ${JSON.stringify(mine.value)}, tofu cannot know it (${theirs.reason})`);
    else if (theirs.known && !mine.known) differences.push(`${name}: ours unknown, tofu ${JSON.stringify(theirs.value)}`);
    else if (theirs.known && mine.known && !isDeepStrictEqual(mine.value, theirs.value)) {
      differences.push(`${name}: ours ${JSON.stringify(mine.value)}\n  tofu ${JSON.stringify(theirs.value)}`);
    }
  }
  return differences;
}

/**
 * The evaluator's answer as compareValues reads it, from the plain data of every variable and local
 * of a module (undefined where a value is not known anywhere inside it) and of the local modules
 * it calls, keyed as tofu's are: `var.x`, `local.x`, `module.NAME.var.x`.
 */
export function evaluatedValues(names: { readonly variables: Readonly<Record<string, unknown>>; readonly locals: Readonly<Record<string, unknown>>; readonly modules?: Readonly<Record<string, unknown>> }): Map<string, EvaluatedValue> {
  const values = new Map<string, EvaluatedValue>();
  const add = (name: string, value: unknown) => values.set(name, value === undefined ? { known: false } : { known: true, value });
  for (const [name, value] of Object.entries(names.locals)) add(`local.${name}`, value);
  for (const [name, value] of Object.entries(names.variables)) add(`var.${name}`, value);
  for (const [name, value] of Object.entries(names.modules ?? {})) add(name, value);
  return values;
}

/** Where the evaluator lives (issue 34): until it is there, the comparison with it is a todo. */
const EVALUATOR = join(__dirname, '..', '..', 'server', 'src', 'documents', 'terraform-module.ts');

/** What the comparison needs of the evaluator's module (read by `require`, so that this file compiles without it). */
interface EvaluatorModule {
  /**
   * Every variable and local of the module in `folder`, as plain data (undefined where not known
   * anywhere inside), and those of the local modules it calls, keyed `module.NAME.var.x` and
   * `module.NAME.local.x`; undefined when the module cannot be read.
   */
  moduleNames(folder: string, reader: typeof DISK): { variables: Record<string, unknown>; locals: Record<string, unknown>; modules?: Record<string, unknown> } | undefined;
}

/** The project's evaluator on a module folder, as evaluatedValues reads it; undefined before it exists. */
const EVALUATE: ((folder: string) => ReadonlyMap<string, EvaluatedValue>) | undefined = existsSync(EVALUATOR)
  ? (folder) => {
      const names = (require(EVALUATOR) as EvaluatorModule).moduleNames(folder, DISK);
      assert.ok(names, `the evaluator reads ${folder}`);
      return evaluatedValues(names);
    }
  : undefined;

/** Reads a module from the disk, as the CLI does. */
export const DISK = {
  listFiles: (folder: string): readonly string[] | undefined => {
    try {
      return readdirSync(folder);
    } catch {
      return undefined;
    }
  },
  readFile: (path: string): string | undefined => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
};

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

function shown(value: TofuValue): string {
  return value.known ? JSON.stringify(value.value) : value.reason;
}

/** Names whose value is unknown or failed, each with why. */
function unsure(result: TofuResult): string[] {
  return [...result.values].filter(([, value]) => !value.known).map(([name, value]) => `${name}: ${shown(value)}`);
}

const runs = new Map<string, Promise<TofuResult>>();

/** tofu's values of a fixture folder, run once for every test that asks. */
function tofuOf(tofu: string, folder: string): Promise<TofuResult> {
  let run = runs.get(folder);
  if (!run) runs.set(folder, (run = tofuValues(tofu, folder)));
  return run;
}

/** Every string inside a JSON value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The codes our checker gives an expression as the one rule of a ruleset of `phase`. */
function codesOf(expression: string, phase: string): string[] {
  const ruleset = { name: 'fixture', kind: 'zone', phase, rules: [{ action: 'block', expression }] };
  // A heredoc's value ends with its line break, which in a JSON ruleset is whitespace around the
  // expression: a style finding of its own (edge-whitespace), not what the fixture plants.
  return checkRuleset(JSON.stringify(ruleset), 'json').map((problem) => problem.code).filter((code) => code !== 'edge-whitespace');
}

/** The variables of a module folder (and its local modules) that no file sets: tofu leaves them unknown. */
const UNSET = new Set(['var.zone_id', 'var.account_id', 'module.waf.var.zone_id']);

describe("OpenTofu's values of the fixture modules", () => {
  for (const idiom of idioms) {
    it(`${idiom}: the planted mistake is in tofu's value of ${expectedOf(idiom).value}, and the clean twin is the same values fixed`, async (t) => {
      const tofu = findTofu();
      if (!tofu) return missingTofu((message) => t.skip(message));
      const expected = expectedOf(idiom);
      const planted = await tofuOf(tofu, join(FIXTURES, idiom, 'planted'));
      const clean = await tofuOf(tofu, join(FIXTURES, idiom, 'clean'));
      t.diagnostic(`tofu: ${planted.seconds.toFixed(2)} s (planted), ${clean.seconds.toFixed(2)} s (clean)`);

      assert.deepEqual(
        unsure(planted).filter((line) => !UNSET.has(line.split(':')[0])),
        [],
        'only the variables no file sets are unknown',
      );
      for (const name of UNSET) if (planted.values.has(name)) assert.equal(planted.values.get(name)!.known, false, `${name} is set nowhere`);

      const holder = planted.values.get(expected.value);
      assert.ok(holder?.known, `${expected.value} is known to tofu`);
      const [finding] = expected.findings;
      const json = JSON.stringify(holder.value);
      // The planted text as it stands inside a JSON string.
      const inJson = (text: string) => JSON.stringify(text).slice(1, -1);
      assert.ok(json.includes(inJson(finding.text)), `${expected.value} holds ${finding.text}: ${json}`);

      assert.deepEqual([...clean.values.keys()], [...planted.values.keys()], 'the twins declare the same names');
      for (const [name, value] of planted.values) {
        const twin = clean.values.get(name)!;
        if (!value.known) {
          assert.equal(twin.known, false, `${name} is unknown in both`);
          continue;
        }
        assert.ok(twin.known, `${name} is known in both`);
        const fixed = JSON.stringify(value.value).replaceAll(inJson(finding.text), inJson(finding.fixed));
        assert.equal(JSON.stringify(twin.value), fixed, `${name}: the clean twin's value is the planted one with ${finding.text} fixed`);
      }
      // What the checker says of tofu's strings that hold the mistake, each as a rule of the phase:
      // the planted code, and nothing once fixed.
      const holding = stringsIn(holder.value).filter((text) => text.includes(finding.text));
      assert.ok(holding.length > 0);
      for (const expression of holding) {
        assert.ok(codesOf(expression, finding.phase).includes(finding.code), `${finding.code} in ${codesOf(expression, finding.phase).join(', ')} for ${expression}`);
        assert.deepEqual(codesOf(expression.replaceAll(finding.text, finding.fixed), finding.phase), [], 'the clean twin\'s expression has no finding');
      }
      const written = readFileSync(join(FIXTURES, idiom, finding.file), 'utf8').split('\n')[finding.line - 1];
      const covered = finding.covers ?? finding.text;
      assert.equal(written.slice(finding.column - 1, finding.column - 1 + covered.length), covered, 'expected.json places the mistake on its characters (or the call that reads them)');
    });
  }
});

describe("OpenTofu's values of the value modules", () => {
  for (const name of valueModules) {
    it(`${name}: every local and variable is known to tofu, but the variables no file sets`, async (t) => {
      const tofu = findTofu();
      if (!tofu) return missingTofu((message) => t.skip(message));
      const result = await tofuOf(tofu, join(VALUE_FIXTURES, name));
      assert.ok(result.values.size > 0);
      assert.deepEqual(unsure(result).filter((line) => !UNSET.has(line.split(':')[0])), []);
    });
  }
});

describe("the evaluator's values of the fixture modules are OpenTofu's", () => {
  for (const { name: folderName, folder } of comparedFolders) {
    const name = `${folderName}: every local and variable as tofu evaluates it`;
    if (!EVALUATE) {
      it.todo(`${name} (no evaluator yet: ${EVALUATOR})`);
      continue;
    }
    const evaluate = EVALUATE;
    it(name, async (t) => {
      const tofu = findTofu();
      if (!tofu) return missingTofu((message) => t.skip(message));
      const theirs = await tofuOf(tofu, folder);
      await loadTerraformParser();
      const ours = evaluate(folder);
      assert.deepEqual(compareValues(theirs, ours), []);
    });
  }
});

describe('compareValues', () => {
  const tofu: TofuResult = {
    seconds: 0,
    values: new Map<string, TofuValue>([
      ['local.rules', { known: true, value: [{ action: 'block', expression: 'http.host eq "a"' }], sensitive: false }],
      ['var.zone_id', { known: false, reason: 'unknown' }],
    ]),
  };
  it('is empty when every value is deep-equal and the unknowns are unknown', () => {
    const ours = evaluatedValues({ locals: { rules: [{ expression: 'http.host eq "a"', action: 'block' }] }, variables: { zone_id: undefined } });
    assert.deepEqual(compareValues(tofu, ours), []);
  });
  it('names a value that differs, one that is missing, and one guessed where tofu cannot know it', () => {
    const ours = evaluatedValues({ locals: {}, variables: { zone_id: 'guessed' } });
    assert.deepEqual(compareValues(tofu, ours), ['local.rules: missing (tofu: [{"action":"block","expression":"http.host eq \\"a\\""}])', 'var.zone_id: ours "guessed", tofu cannot know it (unknown)']);
    const wrong = evaluatedValues({ locals: { rules: [{ action: 'block', expression: 'http.host eq "b"' }] }, variables: {} });
    assert.match(compareValues(tofu, wrong)[0], /^local\.rules: ours .*eq \\"b\\".*\n  tofu .*eq \\"a\\"/);
  });
});

describe('tofuValues: what the copy keeps and cuts', () => {
  it('cuts providers, resources, data sources, outputs and remote modules; a local that refers to them is unknown; sensitive values are marked; given values win', async (t) => {
    const tofu = findTofu();
    if (!tofu) return missingTofu((message) => t.skip(message));
    const dir = mkdtempSync(join(tmpdir(), 'rulesets-tofu-test-'));
    try {
      const files: Record<string, string> = {
        'main.tf': [
          'terraform {\n  required_providers {\n    cloudflare = { source = "cloudflare/cloudflare", version = "~> 5.0" }\n  }\n}',
          'provider "cloudflare" {\n  api_token = var.token\n}',
          'variable "token" {\n  type      = string\n  sensitive = true\n  default   = "secret"\n}',
          'variable "region" {\n  default = "eu"\n}',
          'data "cloudflare_rulesets" "all" {\n  zone_id = "z"\n}',
          // Braces and block keywords inside a heredoc must not fool the cut.
          'locals {\n  text = <<-EOT\n    resource "x" "y" { }\n    }\n  EOT\n  managed_id = data.cloudflare_rulesets.all.rulesets[0].id\n  custom_id  = cloudflare_ruleset.custom.id\n  from_remote = module.remote.id\n  uses_id    = "execute ${local.custom_id}"\n  token_copy = var.token\n  n          = 1 + 2\n}',
          'resource "cloudflare_ruleset" "custom" {\n  zone_id = "z"\n  name    = "n"\n  kind    = "zone"\n  phase   = "http_request_firewall_custom"\n}',
          'module "remote" {\n  source = "example/thing/cloudflare"\n}',
          'output "id" {\n  value = cloudflare_ruleset.custom.id\n}',
        ].join('\n\n'),
        'terraform.tfvars': 'region = "us"',
      };
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), `${text}\n`);
      }
      const result = await tofuValues(tofu, dir, { region: 'ap' });
      const value = (name: string) => result.values.get(name);
      assert.deepEqual(value('local.text'), { known: true, value: 'resource "x" "y" { }\n}\n', sensitive: false });
      assert.deepEqual(value('local.n'), { known: true, value: 3, sensitive: false });
      for (const name of ['local.managed_id', 'local.custom_id', 'local.from_remote', 'local.uses_id']) assert.equal(value(name)?.known, false, `${name} is unknown`);
      assert.deepEqual(value('var.token'), { known: true, value: 'secret', sensitive: true });
      assert.deepEqual(value('local.token_copy'), { known: true, value: 'secret', sensitive: true });
      assert.deepEqual(value('var.region'), { known: true, value: 'ap', sensitive: false }, 'a given value wins over terraform.tfvars');
      assert.deepEqual([...result.values.keys()].sort(), ['local.custom_id', 'local.from_remote', 'local.managed_id', 'local.n', 'local.text', 'local.token_copy', 'local.uses_id', 'var.region', 'var.token']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
