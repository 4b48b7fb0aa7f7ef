/**
 * A `"` typed inside a string of a ruleset file ends the string early
 * (`"expression": "ip.proto == "tcp""`), and the JSON or YAML parser then reports several
 * errors around it, none of which says what happened. When escaping the inner quotes of such
 * strings (in YAML, putting the expression in single quotes) makes the whole file parse, that
 * is what the file meant: one problem per string, with that fix, stands for the parser's errors.
 */
import { parseHost, type HostFormat } from './host/index';
import type { DocumentProblem, ParsedRuleset } from './parsed-ruleset';
import { readTerraform } from './terraform';

interface Repair {
  /** The string's place, from its opening quote to its closing one. */
  readonly start: number;
  readonly end: number;
  readonly newText: string;
  readonly yamlSingleQuotes: boolean;
}

/**
 * The problems that say so, or undefined when the file's errors are something else. `model`:
 * a ruleset file's one ruleset, or a Terraform file (its text and its syntax problems).
 */
export function unescapedQuotes(model: Pick<ParsedRuleset, 'text' | 'format' | 'syntaxProblems'>): DocumentProblem[] | undefined {
  if (model.syntaxProblems.length === 0) return undefined;
  const repairs: Repair[] = [];
  let lineStart = 0;
  for (const line of model.text.split('\n')) {
    const repair = repairOf(line, model.format);
    if (repair) repairs.push({ ...repair, start: lineStart + repair.start, end: lineStart + repair.end });
    lineStart += line.length + 1;
  }
  if (repairs.length === 0) return undefined;
  let repaired = model.text;
  for (const r of [...repairs].reverse()) repaired = repaired.slice(0, r.start) + r.newText + repaired.slice(r.end);
  if (!readsWithoutErrors(repaired, model.format)) return undefined;
  return repairs.map((r) => ({
    code: 'unescaped-quote',
    severity: 'error' as const,
    start: r.start,
    end: r.end,
    message: r.yamlSingleQuotes
      ? 'this string has `"` inside it, which ends it early: put the expression in single quotes, or write them as `\\"`'
      : 'this string has `"` inside it, which ends it early: write them as `\\"`',
    fixes: [{ title: r.yamlSingleQuotes ? 'Put the expression in single quotes' : 'Escape the quotes', edits: [{ start: r.start, end: r.end, newText: r.newText }] }],
  }));
}

function readsWithoutErrors(text: string, format: HostFormat): boolean {
  if (format === 'hcl') return !readTerraform(text).problems.some((p) => p.severity === 'error');
  return parseHost(text, format).syntaxErrors.length === 0;
}

const JSON_EXPRESSION = /"expression"\s*:\s*"/;
const YAML_EXPRESSION = /^\s*(?:-\s+)?expression:\s+"/;
/** An attribute of a v4 `rules` block or of a v5 rule object (`{ expression = "…" }` too). */
const HCL_EXPRESSION = /^\s*(?:\{\s*)?expression\s*=\s*"/;
/** What may follow a string's closing quote on its line: the end of a value, or a comment. */
const AFTER_VALUE: Record<HostFormat, RegExp> = {
  json: /^\s*(?:[,}\]]|$)/,
  yaml: /^\s*(?:#.*)?$/,
  hcl: /^\s*(?:[,}\]]|#.*|\/\/.*|$)/,
};
const EXPRESSION_KEY: Record<HostFormat, RegExp> = { json: JSON_EXPRESSION, yaml: YAML_EXPRESSION, hcl: HCL_EXPRESSION };

/** The repair of an `expression` string on this line whose inner quotes are not escaped (offsets in the line). */
function repairOf(line: string, format: HostFormat): Repair | undefined {
  const opening = EXPRESSION_KEY[format].exec(line);
  if (!opening) return undefined;
  const start = opening.index + opening[0].length - 1;
  // The closing quote: the first `"` after which only the end of a value can follow.
  for (let end = line.indexOf('"', start + 1); end >= 0; end = line.indexOf('"', end + 1)) {
    const after = line.slice(end + 1);
    if (!AFTER_VALUE[format].test(after)) continue;
    const inner = line.slice(start + 1, end);
    if (!hasUnescapedQuote(inner)) return undefined;
    if (format === 'yaml' && !inner.includes("'") && !inner.includes('\\')) return { start, end: end + 1, newText: `'${inner}'`, yamlSingleQuotes: true };
    return { start, end: end + 1, newText: `"${escapeQuotes(inner)}"`, yamlSingleQuotes: format === 'yaml' };
  }
  return undefined;
}

function hasUnescapedQuote(text: string): boolean {
  return /(?:^|[^\\])(?:\\\\)*"/.test(text);
}

function escapeQuotes(text: string): string {
  let out = '';
  let backslashes = 0;
  for (const c of text) {
    out += c === '"' && backslashes % 2 === 0 ? '\\"' : c;
    backslashes = c === '\\' ? backslashes + 1 : 0;
  }
  return out;
}
