/**
 * Tokenizes text with the TextMate grammars the way VS Code does (vscode-textmate and
 * vscode-oniguruma): the host grammars VS Code ships (test/syntaxes/hosts/), with or without
 * our injections, and our grammars from syntaxes/. Also reads fixtures with
 * vscode-tmgrammar-test style assertions, and compares a tokenization with the host's own
 * outside the embedded expressions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

const ROOT = join(__dirname, '..', '..');
const HOSTS = join(__dirname, 'hosts');
const SYNTAXES = join(ROOT, 'syntaxes');

/** The scope over the text of every embedded expression. */
export const EMBEDDED = 'meta.embedded.expression.rulesets';

/** Every grammar by scope name, as VS Code registers them (the YAML ones include each other). */
const GRAMMAR_FILES: Readonly<Record<string, string>> = {
  'source.json': join(HOSTS, 'JSON.tmLanguage.json'),
  'source.json.comments': join(HOSTS, 'JSONC.tmLanguage.json'),
  'source.yaml': join(HOSTS, 'yaml.tmLanguage.json'),
  'source.yaml.1.0': join(HOSTS, 'yaml-1.0.tmLanguage.json'),
  'source.yaml.1.1': join(HOSTS, 'yaml-1.1.tmLanguage.json'),
  'source.yaml.1.2': join(HOSTS, 'yaml-1.2.tmLanguage.json'),
  'source.yaml.1.3': join(HOSTS, 'yaml-1.3.tmLanguage.json'),
  'source.yaml.embedded': join(HOSTS, 'yaml-embedded.tmLanguage.json'),
  'source.rulesets-expression': join(SYNTAXES, 'rulesets-expression.tmLanguage.json'),
  'rulesets.injection.json': join(SYNTAXES, 'rulesets-json.injection.tmLanguage.json'),
  'rulesets.injection.yaml': join(SYNTAXES, 'rulesets-yaml.injection.tmLanguage.json'),
};

/** What `contributes.grammars[].injectTo` says: the injections of each host scope. */
const INJECTIONS: Readonly<Record<string, readonly string[]>> = {
  'source.json': ['rulesets.injection.json'],
  'source.json.comments': ['rulesets.injection.json'],
  'source.yaml': ['rulesets.injection.yaml'],
};

let onigLib: Promise<vsctm.IOnigLib> | undefined;

function loadOniguruma(): Promise<vsctm.IOnigLib> {
  onigLib ??= (async () => {
    const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    return {
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    };
  })();
  return onigLib;
}

const registries = new Map<boolean, vsctm.Registry>();

/** A registry of every grammar; `injections: false` is VS Code without this extension. */
function registry(injections: boolean): vsctm.Registry {
  let found = registries.get(injections);
  if (!found) {
    found = new vsctm.Registry({
      onigLib: loadOniguruma(),
      loadGrammar: async (scopeName) => {
        const path = GRAMMAR_FILES[scopeName];
        return path ? vsctm.parseRawGrammar(readFileSync(path, 'utf8'), path) : null;
      },
      getInjections: (scopeName) => (injections ? [...(INJECTIONS[scopeName] ?? [])] : undefined),
    });
    registries.set(injections, found);
  }
  return found;
}

export interface Token {
  readonly start: number;
  readonly end: number;
  readonly scopes: readonly string[];
}

/** The tokens of each line (split at `\n`). */
export type Tokenized = readonly (readonly Token[])[];

/**
 * Tokenizes `text` line by line, as an editor does. Fails on what vscode-textmate reports
 * on the console (a grammar in an endless loop) and on a line it gave up on.
 */
export async function tokenize(scopeName: string, text: string, options: { injections?: boolean } = {}): Promise<Tokenized> {
  const grammar = await registry(options.injections ?? true).loadGrammar(scopeName);
  if (!grammar) throw new Error(`no grammar for ${scopeName}`);
  const complaints: string[] = [];
  const { error, warn } = console;
  console.error = console.warn = (...args: unknown[]) => complaints.push(args.map(String).join(' '));
  try {
    let stack = vsctm.INITIAL;
    return text.split('\n').map((line, index) => {
      const result = grammar.tokenizeLine(line, stack, 10_000);
      if (result.stoppedEarly) throw new Error(`${scopeName}: tokenizing line ${index + 1} stopped early: ${line}`);
      stack = result.ruleStack;
      return result.tokens.map((t) => ({ start: t.startIndex, end: Math.min(t.endIndex, line.length), scopes: t.scopes }));
    });
  } finally {
    console.error = error;
    console.warn = warn;
    if (complaints.length > 0) throw new Error(`${scopeName}: vscode-textmate complained: ${complaints.join('; ')}`);
  }
}

/** The scopes on the character at `column` of a line (the root scope included). */
export function scopesAt(line: readonly Token[], column: number): readonly string[] | undefined {
  return line.find((t) => t.start <= column && column < t.end)?.scopes;
}

// ---------------------------------------------------------------- fixtures

export interface Assertion {
  /** 1-based line of the assertion in the fixture file, for messages. */
  readonly fixtureLine: number;
  /** 0-based line, in the tokenized source, of the line the assertion is about. */
  readonly line: number;
  readonly columns: readonly number[];
  /** Scopes that must be on each of those characters, in this order (others may come between). */
  readonly scopes: readonly string[];
  /** Scopes that must not be on any of them. */
  readonly absent: readonly string[];
}

export interface Fixture {
  readonly scopeName: string;
  /** The fixture without its header and assertion lines: what is tokenized. */
  readonly source: string;
  readonly assertions: readonly Assertion[];
}

/**
 * Reads a fixture in the style of vscode-tmgrammar-test. The first line is the header,
 * `<comment> SYNTAX TEST "<scope name>"`; its comment token (`#`, `//`) starts every
 * assertion line. An assertion line is the comment token, then `^` under each character
 * to check of the nearest source line above (or `<--`: the first characters, one per `-`),
 * then the scopes those characters must have, then optionally `-` and scopes they must not
 * have:
 *
 *       expression: ip.src in {10.0.0.0/8}
 *     #             ^^^^^^ variable.other.field.rulesets
 *     #                       ^^^^^^^^^^ constant.numeric.ip.rulesets - variable.other.field.rulesets
 *
 * Unlike vscode-tmgrammar-test, the header and the assertion lines are removed before the
 * fixture is tokenized, so that an assertion can sit between the lines of a multi-line YAML
 * value (where a comment line would end the value) and JSON fixtures need no comments.
 */
export function parseFixture(text: string): Fixture {
  const lines = text.split('\n');
  const header = /^(#|\/\/) SYNTAX TEST "([^"]+)"/.exec(lines[0]);
  if (!header) throw new Error(`a fixture starts with <comment> SYNTAX TEST "<scope name>", not: ${lines[0]}`);
  const comment = header[1];
  const source: string[] = [];
  const assertions: Assertion[] = [];
  lines.slice(1).forEach((text, index) => {
    const fixtureLine = index + 2;
    if (!text.startsWith(comment)) {
      source.push(text);
      return;
    }
    const marks = /^((?:\s*\^+)+|\s*<(-+))\s+(.*)$/.exec(text.slice(comment.length));
    if (!marks) {
      source.push(text);
      return;
    }
    if (source.length === 0) throw new Error(`line ${fixtureLine}: an assertion before any source line`);
    const columns = marks[2]
      ? Array.from({ length: marks[2].length }, (_, i) => i)
      : [...marks[1].matchAll(/\^/g)].map((m) => comment.length + m.index!);
    const words = marks[3].trim().split(/\s+/);
    const dash = words.indexOf('-');
    const scopes = dash < 0 ? words : words.slice(0, dash);
    const absent = dash < 0 ? [] : words.slice(dash + 1);
    if (scopes.length + absent.length === 0) throw new Error(`line ${fixtureLine}: an assertion without scopes`);
    assertions.push({ fixtureLine, line: source.length - 1, columns, scopes, absent });
  });
  return { scopeName: header[2], source: source.join('\n'), assertions };
}

/** Whether `wanted` appear in `scopes` in this order. */
function inOrder(scopes: readonly string[], wanted: readonly string[]): boolean {
  let at = 0;
  for (const scope of scopes) if (scope === wanted[at]) at++;
  return at === wanted.length;
}

/** The assertions that do not hold, one message each. */
export function failedAssertions(fixture: Fixture, tokens: Tokenized): string[] {
  const sourceLines = fixture.source.split('\n');
  const failures: string[] = [];
  for (const assertion of fixture.assertions) {
    const lineText = sourceLines[assertion.line];
    for (const column of assertion.columns) {
      const scopes = scopesAt(tokens[assertion.line], column);
      const where = `line ${assertion.fixtureLine}, column ${column} (${JSON.stringify(lineText.slice(column, column + 12))} of ${JSON.stringify(lineText.trim())})`;
      if (!scopes) {
        failures.push(`${where}: no such character`);
        continue;
      }
      const missing = !inOrder(scopes, assertion.scopes);
      const unwanted = assertion.absent.filter((s) => scopes.includes(s));
      if (missing || unwanted.length > 0) {
        const wanted = [...assertion.scopes, ...assertion.absent.map((s) => `-${s}`)].join(' ');
        failures.push(`${where}: expected ${wanted}, got ${scopes.slice(1).join(' ')}`);
      }
    }
  }
  return failures;
}

// ---------------------------------------------------------------- comparing with the host

/**
 * The differences between a tokenization with our injection and the host's own, outside
 * the embedded expressions: everything but the characters from the first to the last one
 * with the embedded scope of each expression, and the blanks just before its first (the
 * indentation of a block scalar's first line). `normalise` maps each scope before the
 * comparison.
 */
export function differencesOutsideExpressions(
  text: string,
  injected: Tokenized,
  host: Tokenized,
  normalise: (scope: string) => string = (scope) => scope,
): string[] {
  const lines = text.split('\n');
  // Every character in document order; line breaks count as blanks.
  const chars: { line: number; column: number; kind: 'embedded' | 'blank' | 'other' }[] = [];
  lines.forEach((lineText, line) => {
    for (let column = 0; column <= lineText.length; column++) {
      const blank = column === lineText.length || lineText[column] === ' ' || lineText[column] === '\t';
      const scopes = column < lineText.length ? scopesAt(injected[line], column) : undefined;
      chars.push({ line, column, kind: scopes?.includes(EMBEDDED) ? 'embedded' : blank ? 'blank' : 'other' });
    }
  });
  const inside = new Array<boolean>(chars.length).fill(false);
  let lastOther = -1;
  let lastEmbedded = -1;
  chars.forEach((c, i) => {
    if (c.kind === 'other') lastOther = i;
    if (c.kind !== 'embedded') return;
    // From the previous embedded character of the same expression, or from the blanks
    // before the first one.
    const from = lastEmbedded > lastOther ? lastEmbedded : lastOther + 1;
    for (let j = from; j <= i; j++) inside[j] = true;
    lastEmbedded = i;
  });
  const differences: string[] = [];
  chars.forEach((c, i) => {
    if (inside[i] || c.column >= lines[c.line].length) return;
    const ours = (scopesAt(injected[c.line], c.column) ?? []).map(normalise).join(' ');
    const theirs = (scopesAt(host[c.line], c.column) ?? []).map(normalise).join(' ');
    if (ours !== theirs) {
      differences.push(`line ${c.line + 1}, column ${c.column} (${JSON.stringify(lines[c.line].slice(c.column, c.column + 12))}): ${ours} instead of ${theirs}`);
    }
  });
  return differences;
}

/** Every scope used anywhere in a tokenization. */
export function allScopes(tokens: Tokenized): Set<string> {
  return new Set(tokens.flatMap((line) => line.flatMap((t) => t.scopes)));
}
