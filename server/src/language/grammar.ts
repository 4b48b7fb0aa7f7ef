import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ohm from 'ohm-js';

/** The longest raw-string fence the reference parser accepts (`r###"…"###`). */
export const MAX_RAW_STRING_HASHES = 255;

function loadGrammarSource(): string {
  // Beside this module in the source tree, beside the bundle in dist/ (copied by the build).
  for (const dir of [__dirname, join(__dirname, '..', '..', '..', 'server', 'src', 'language')]) {
    try {
      return readFileSync(join(dir, 'expression.ohm'), 'utf8');
    } catch {
      // try the next place
    }
  }
  throw new Error(`expression.ohm not found beside ${__dirname}`);
}

function buildGrammar(): ohm.Grammar {
  const fences = Array.from({ length: MAX_RAW_STRING_HASHES + 1 }, (_, n) => `rawStringFenced<"${'#'.repeat(n)}">`);
  const source = `${loadGrammarSource()}
ExpressionWithRawFences <: Expression {
  rawStringClosed := ${fences.join(' | ')}
}`;
  const grammars = ohm.grammars(source);
  return grammars['ExpressionWithRawFences'];
}

let built: ohm.Grammar | undefined;

/**
 * The compiled grammar, built on first use: compiling it takes a few hundred milliseconds, which
 * a module that merely imports the language core (the VS Code extension at activation, a CLI
 * command that makes no check) should not pay.
 */
export function grammar(): ohm.Grammar {
  return (built ??= buildGrammar());
}
