import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as ohm from 'ohm-js';

/**
 * ohm-js, loaded on first use: its module builds its own grammars as it loads, which a process
 * whose expressions all take the fast path (fast-parser.ts) never needs.
 */
function ohmJs(): typeof ohm {
  return require('ohm-js') as typeof ohm;
}

/** The longest raw-string fence the reference parser accepts (`r###"…"###`). */
export const MAX_RAW_STRING_HASHES = 255;

/** Where the grammar's files are: beside this module in the source tree, beside the bundle in dist/. */
const SOURCE_DIRS = [__dirname, join(__dirname, '..', '..', '..', 'server', 'src', 'language')];
/** Where a compiled recipe may be: beside the bundle, or in dist/ when run from the sources. */
const RECIPE_DIRS = [__dirname, join(__dirname, '..', '..', '..', 'dist')];
export const RECIPE_FILE_NAME = 'expression.recipe.json';

function readFirst(dirs: readonly string[], name: string): string | undefined {
  for (const dir of dirs) {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      // try the next place
    }
  }
  return undefined;
}

/** expression.ohm completed with one alternative per raw-string fence length (see the grammar). */
export function grammarSource(): string {
  const source = readFirst(SOURCE_DIRS, 'expression.ohm');
  if (source === undefined) throw new Error(`expression.ohm not found beside ${__dirname}`);
  const fences = Array.from({ length: MAX_RAW_STRING_HASHES + 1 }, (_, n) => `rawStringFenced<"${'#'.repeat(n)}">`);
  return `${source}
ExpressionWithRawFences <: Expression {
  rawStringClosed := ${fences.join(' | ')}
}`;
}

function buildGrammar(source: string): ohm.Grammar {
  return ohmJs().grammars(source)['ExpressionWithRawFences'];
}

/** What a recipe was made from: the grammar's text and the Ohm that compiled it. */
function recipeKey(source: string): string {
  // node:crypto on first use: a process that reads its recipe from the bundle never hashes.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(`${ohmJs().version}\n${source}`).digest('hex');
}

interface RecipeFile {
  readonly key: string;
  readonly recipe: unknown;
}

/**
 * The compiled grammar as a file to ship beside the bundle (written at build time): compiling
 * the grammar takes most of a second, loading its recipe a few milliseconds.
 */
export function recipeFileText(source = grammarSource()): string {
  const file: RecipeFile = { key: recipeKey(source), recipe: JSON.parse(recipeOf(buildGrammar(source))) };
  return JSON.stringify(file);
}

/** The grammar from a recipe file, or undefined when the file was made from another grammar or Ohm. */
export function grammarFromRecipeFile(text: string, source: string): ohm.Grammar | undefined {
  let file: RecipeFile;
  try {
    file = JSON.parse(text) as RecipeFile;
  } catch {
    return undefined;
  }
  if (file.key !== recipeKey(source)) return undefined;
  return makeRecipe(file.recipe);
}

// Ohm's compiled-grammar format, which the bundles of `@ohm-js/cli generateBundles` use, is
// missing from ohm-js's type declarations.

/** A grammar as Ohm's recipe (JSON text). */
export function recipeOf(compiled: ohm.Grammar): string {
  return (compiled as unknown as { toRecipe(): string }).toRecipe();
}

function makeRecipe(recipe: unknown): ohm.Grammar {
  return (ohmJs() as unknown as { makeRecipe(recipe: unknown): ohm.Grammar }).makeRecipe(recipe);
}

let built: ohm.Grammar | undefined;

/**
 * The compiled grammar, loaded on first use from the recipe written at build time, or compiled
 * from expression.ohm when there is no recipe for this grammar (a changed grammar in
 * development): the recipe only saves time, it never decides what the grammar is.
 */
export function grammar(): ohm.Grammar {
  if (built) return built;
  const source = grammarSource();
  const recipe = readFirst(RECIPE_DIRS, RECIPE_FILE_NAME);
  built = (recipe !== undefined ? grammarFromRecipeFile(recipe, source) : undefined) ?? buildGrammar(source);
  return built;
}
