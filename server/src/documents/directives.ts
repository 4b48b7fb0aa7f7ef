/**
 * Disable directives: YAML comments with which the author of a ruleset says "I meant that",
 * as ESLint's `eslint-disable-next-line` and `eslint-disable` comments do.
 *
 *     # rulesets-disable redundant-set-member
 *     phase: magic_transit
 *     rules:
 *       # rulesets-disable-next-line shadowed-rule -- telnet gets its own counter
 *       - action: block
 *         expression: tcp.dstport == 23
 *
 * JSON has no comments (a `//` there is a syntax error the service rejects too), so a JSON
 * ruleset has no directives.
 *
 * What they do, and why:
 * - `rulesets-disable-next-line CODE[, CODE…]` silences findings of those codes that start on
 *   the next line that is neither blank nor a comment, or inside a YAML node that starts on
 *   that line: a mapping pair, a sequence item or a scalar. In YAML one rule spans several
 *   lines (`- action: block` with its `expression:` below, `expression: |` with the text below),
 *   and the directive above its first line is meant for all of it.
 * - `rulesets-disable CODE[, CODE…]` silences those codes in the whole file. It goes among the
 *   comments at the top, before the first key (ESLint asks the same of its file form): the
 *   whole file is then its evident reach. Written further down it is reported, with the fix to
 *   make it a `rulesets-disable-next-line`.
 * - Codes are separated by commas or spaces; ` -- ` starts a reason, which is not read.
 * - Codes must be named. ESLint takes a directive without codes as "everything"; here it is
 *   reported: everything would include findings that a later edit of the rule brings, which
 *   the author never saw, and "I meant that" is about what was seen.
 * - An error the service rejects cannot be silenced: the promise is that no mistake is learned
 *   of from the API. A directive naming one is reported, saying so. A warning that the project
 *   configuration makes an error (to fail a CI run) can still be silenced where it is meant.
 * - A directive, or one code of it, that silences nothing is reported as `unused-disable`, as
 *   ESLint's reportUnusedDisableDirectives does, with the fix that removes it; an unknown code
 *   is `unknown-disable-code`, with the codes it may have meant; a directive written wrong
 *   (no codes, not on a line of its own, the file form further down, a misspelt name) is
 *   `invalid-disable`. Directives cannot silence these three, which are about directives.
 *
 * Directives are read from the text and the host tree each time a document is checked, not
 * kept in the parsed model: a re-read after typing in a string (reparse.ts) then needs nothing
 * of them, and a file without `rulesets-` pays one regular expression scan.
 */
import { PROBLEM_CODES } from '../language/problem';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import type { HostNode, HostScalar } from './host/index';
import { isBlockScalar, lastStartingBy } from './host/index';
import { eolOf, lineIndent, type DocumentEdit } from './host/index';
import type { DocumentFix, DocumentProblem, ParsedRuleset } from './parsed-ruleset';

/** What directives are read from: a file's text, its format and its host tree (a ruleset's, or a whole octorules file's). */
type DirectiveSource = Pick<ParsedRuleset, 'format' | 'text' | 'root'>;
import { applyRuleSeverities, type RuleSeverity } from './project-config';

export const NEXT_LINE_DIRECTIVE = 'rulesets-disable-next-line';
export const FILE_DIRECTIVE = 'rulesets-disable';

/** The findings about directives themselves, which no directive silences. */
export const DIRECTIVE_PROBLEM_CODES: ReadonlySet<string> = new Set(['unused-disable', 'unknown-disable-code', 'invalid-disable']);

interface Span {
  readonly start: number;
  readonly end: number;
}

interface NamedCode extends Span {
  readonly code: string;
}

interface Directive {
  readonly kind: 'next-line' | 'file';
  /** The directive's line with its line break: what removing the directive removes. */
  readonly line: Span;
  readonly word: Span;
  readonly codes: readonly NamedCode[];
  /** For `next-line`: where a finding must start to be silenced (undefined when no line follows). */
  readonly target?: Span;
}

interface Reading {
  readonly directives: readonly Directive[];
  /** Directives written wrong, reported as they are read. */
  readonly problems: readonly DocumentProblem[];
}

/** A `#` comment that starts with a directive's name, or with something close to one. */
const CANDIDATE = /#[ \t]*(rulesets-(?:disable|enable)\S*)/g;
/** The same, without the state of a global expression, to find whether a text has any. */
const ANY_CANDIDATE = new RegExp(CANDIDATE.source);

/** The directives of a YAML ruleset, and problems with how they are written. */
function readDirectives(model: DirectiveSource): Reading {
  const directives: Directive[] = [];
  const problems: DocumentProblem[] = [];
  if (model.format !== 'yaml') return { directives, problems };
  const text = model.text;
  const eol = eolOf(text);
  for (const m of text.matchAll(CANDIDATE)) {
    const hash = m.index!;
    if (!isComment(model, hash)) continue;
    const lineStart = text.lastIndexOf('\n', hash - 1) + 1;
    const lineBreak = indexOrEnd(text, '\n', hash);
    const contentEnd = lineBreak > hash && text[lineBreak - 1] === '\r' ? lineBreak - 1 : lineBreak;
    const name = m[1];
    const word = { start: hash + m[0].length - name.length, end: hash + m[0].length };
    const kind = name === NEXT_LINE_DIRECTIVE ? 'next-line' : name === FILE_DIRECTIVE ? 'file' : undefined;
    if (!kind) {
      problems.push(misspeltDirective(name, word));
      continue;
    }
    const indent = text.slice(lineStart, hash);
    if (!/^[ \t]*$/.test(indent)) {
      // Moved as it is, above the line it trails, where it is read.
      const blanksBefore = hash - /[ \t]*$/.exec(indent)![0].length;
      const move: DocumentFix = {
        title: 'Move the directive above this line',
        edits: [
          { start: lineStart, end: lineStart, newText: `${lineIndent(text, hash)}${text.slice(hash, contentEnd)}${eol}` },
          { start: blanksBefore, end: contentEnd, newText: '' },
        ],
      };
      problems.push(invalid(word, `a \`${name}\` comment goes on a line of its own, above the line it silences`, [move]));
      continue;
    }
    const line = { start: lineStart, end: lineBreak < text.length ? lineBreak + 1 : lineBreak };
    // Removing the last line of a file without a final line break takes the break before it.
    const breakBefore = lineStart > 1 && text[lineStart - 2] === '\r' ? lineStart - 2 : lineStart - 1;
    const removable = lineBreak === text.length && lineStart > 0 ? { start: breakBefore, end: text.length } : line;
    const codes = namedCodes(text, word.end, contentEnd);
    if (kind === 'file' && model.root && hash > model.root.start) {
      problems.push(
        invalid(word, `\`${FILE_DIRECTIVE}\` silences the whole file, so it goes among the comments at the top, before the first key; to silence the next line, write \`${NEXT_LINE_DIRECTIVE}\``, [
          { title: `Change to \`${NEXT_LINE_DIRECTIVE}\``, edits: [{ ...word, newText: NEXT_LINE_DIRECTIVE }] },
        ]),
      );
      continue;
    }
    directives.push({ kind, line: removable, word, codes, target: kind === 'next-line' ? targetAfter(model, line.end) : undefined });
  }
  return { directives, problems };
}

function misspeltDirective(name: string, word: Span): DocumentProblem {
  const meant = closestMatches(name, [NEXT_LINE_DIRECTIVE, FILE_DIRECTIVE], 1);
  const known = `\`${NEXT_LINE_DIRECTIVE} CODE\` silences the next line, \`${FILE_DIRECTIVE} CODE\` at the top of the file the whole file`;
  if (meant.length === 0) return invalid(word, `\`${name}\` is not a directive: ${known}`, []);
  return invalid(word, `\`${name}\` is not a directive; did you mean \`${meant[0]}\`?`, [{ title: `Change to \`${meant[0]}\``, edits: [{ ...word, newText: meant[0] }] }]);
}

function invalid(span: Span, message: string, fixes: readonly DocumentFix[]): DocumentProblem {
  return withFixes({ code: 'invalid-disable', severity: 'warning', message, start: span.start, end: span.end }, fixes);
}

function withFixes(problem: DocumentProblem, fixes: readonly DocumentFix[]): DocumentProblem {
  return fixes.length > 0 ? { ...problem, fixes } : problem;
}

/** The codes written after the directive's name, up to ` -- ` (a reason) or the end of the comment. */
function namedCodes(text: string, from: number, to: number): NamedCode[] {
  const rest = text.slice(from, to);
  const reason = /(?:^|[ \t])--(?:[ \t]|$)/.exec(rest);
  const list = reason ? rest.slice(0, reason.index) : rest;
  return [...list.matchAll(/[^\s,]+/g)].map((c) => ({ code: c[0], start: from + c.index!, end: from + c.index! + c[0].length }));
}

function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? text.length : at;
}

/**
 * Whether the `#` at `offset` starts a YAML comment: it follows whitespace (in `a#b` it is
 * part of the scalar) and is not inside a scalar, where it is text, as in a quoted string or
 * the lines of a `|` block. The header line of a block scalar may end in a comment.
 */
function isComment(model: DirectiveSource, offset: number): boolean {
  if (offset > 0 && !/[ \t\r\n]/.test(model.text[offset - 1])) return false;
  const scalar = scalarAt(model.root, offset, (s) => s.start <= offset && offset < s.end);
  if (!scalar) return true;
  return isBlockScalar(scalar.style) && model.text.indexOf('\n', scalar.start) >= offset;
}

/** The innermost scalar (a value or a key) that holds `offset` by `inside`, if any. */
function scalarAt(root: HostNode | undefined, offset: number, inside: (s: Span) => boolean): (Span & { style?: HostScalar['style'] }) | undefined {
  for (let node = root; node; ) {
    if (node.kind === 'object') {
      // Only the last key at or before the offset, or its value, can hold it.
      const p = node.properties[lastStartingBy(node.properties, (q) => q.keyStart, offset)];
      if (!p) return undefined;
      if (inside({ start: p.keyStart, end: p.keyEnd })) return { start: p.keyStart, end: p.keyEnd };
      node = p.value && p.value.start <= offset && offset <= p.value.end ? p.value : undefined;
    } else if (node.kind === 'array') {
      const item: HostNode | undefined = node.items[lastStartingBy(node.items, (i) => i.start, offset)];
      node = item && offset <= item.end ? item : undefined;
    } else {
      return inside(node) ? node : undefined;
    }
  }
  return undefined;
}

/**
 * Where a `rulesets-disable-next-line` on the line ending at `from` reaches: the next line
 * that is neither blank nor a comment, and every mapping pair, sequence item and scalar that
 * starts on it, to its end. Not a mapping or sequence that starts there: above the first
 * key of a file, or the first item of a list, the directive is meant for that key or item.
 */
function targetAfter(model: DirectiveSource, from: number): Span | undefined {
  const text = model.text;
  for (let start = from; start < text.length; ) {
    const end = indexOrEnd(text, '\n', start);
    const first = /[^ \t\r]/.exec(text.slice(start, end));
    if (first && first[0] !== '#') return { start, end: extentOfLine(model.root, start, end) };
    start = end + 1;
  }
  return undefined;
}

/** The end of the pairs, items and scalars that start on the line [from, to], at least the line's own end (with its line break). */
function extentOfLine(root: HostNode | undefined, from: number, to: number): number {
  let end = to + 1;
  const startsOnLine = (offset: number) => from <= offset && offset <= to;
  // Recursive: a host tree nests MAX_NESTING levels at most.
  const visit = (node: HostNode): void => {
    if (node.end < from || node.start > to) return;
    // Of the children that start before the line, only the last can reach into it.
    if (node.kind === 'object') {
      const { properties } = node;
      for (let i = Math.max(0, lastStartingBy(properties, (p) => p.keyStart, from)); i < properties.length && properties[i].keyStart <= to; i++) {
        const p = properties[i];
        if (startsOnLine(p.keyStart)) end = Math.max(end, p.value?.end ?? p.keyEnd);
        if (p.value) visit(p.value);
      }
    } else if (node.kind === 'array') {
      const { items } = node;
      for (let i = Math.max(0, lastStartingBy(items, (item) => item.start, from)); i < items.length && items[i].start <= to; i++) {
        if (startsOnLine(items[i].start)) end = Math.max(end, items[i].end);
        visit(items[i]);
      }
    } else if (startsOnLine(node.start)) {
      end = Math.max(end, node.end);
    }
  };
  if (root) visit(root);
  return end;
}

/**
 * A finding the service would reject: an error of a code that is an error by nature. A
 * warning the project configuration makes an error is still the author's call.
 */
function rejectedByService(problem: DocumentProblem): boolean {
  return problem.severity === 'error' && PROBLEM_CODES.get(problem.code)?.severity !== 'warning';
}

/** Whether a directive may silence this finding (it is not an error the service rejects, nor about directives). */
export function isSilenceable(problem: DocumentProblem): boolean {
  return !rejectedByService(problem) && !DIRECTIVE_PROBLEM_CODES.has(problem.code);
}

function reaches(directive: Directive, offset: number): boolean {
  if (directive.kind === 'file') return true;
  return directive.target !== undefined && directive.target.start <= offset && offset < directive.target.end;
}

/**
 * The last step of a check: drops, in place, the findings the directives of a YAML ruleset
 * silence, and adds the problems of the directives themselves, in document order, under the
 * project configuration's `severities` (`unused-disable: off` turns those off, as ESLint's
 * reportUnusedDisableDirectives setting does).
 */
export function applyDisableDirectives(model: DirectiveSource, problems: DocumentProblem[], severities?: Readonly<Record<string, RuleSeverity>>): void {
  if (model.format !== 'yaml') return;
  if (!ANY_CANDIDATE.test(model.text)) return;
  const { directives, problems: malformed } = readDirectives(model);
  // What each named code did: silenced a finding, or met an error it cannot silence.
  const silenced = directives.map((d) => d.codes.map(() => false));
  const metError = directives.map((d) => d.codes.map(() => false));
  const metSilenced = directives.map((d) => d.codes.map(() => false));
  const fileWide = directives.flatMap((d, i) => (d.kind === 'file' ? [i] : []));
  // The findings are in document order, and so are the lines the next-line directives reach:
  // one sweep keeps the directives that reach the current finding.
  const nextLine = directives.flatMap((d, i) => (d.kind === 'next-line' && d.target ? [i] : []));
  let reached: number[] = [];
  let upcoming = 0;
  problems.sort((a, b) => a.start - b.start || a.end - b.end);
  let kept = 0;
  for (const p of problems) {
    while (upcoming < nextLine.length && directives[nextLine[upcoming]].target!.start <= p.start) reached.push(nextLine[upcoming++]);
    reached = reached.filter((i) => p.start < directives[i].target!.end);
    const silenceable = !rejectedByService(p);
    // The nearest directive is the one used: the last next-line one above, then the file's.
    let used: [number, number] | undefined;
    for (const i of [...reached].reverse().concat(fileWide)) {
      const c = directives[i].codes.findIndex((named) => named.code === p.code);
      if (c < 0) continue;
      if (!silenceable) metError[i][c] = true;
      else if (used) metSilenced[i][c] = true;
      else used = [i, c];
    }
    if (used) silenced[used[0]][used[1]] = true;
    else problems[kept++] = p;
  }
  problems.length = kept;
  const own = [...malformed];
  // A directive without codes is offered the codes still shown where it reaches.
  directives.forEach((d, i) => own.push(...problemsOf(d, { silenced: silenced[i], metError: metError[i], metSilenced: metSilenced[i] }, problems)));
  if (severities) applyRuleSeverities(own, severities);
  problems.push(...own);
  problems.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** What each code of a directive met where it reaches, by the code's index in the directive. */
interface Outcome {
  /** It silenced a finding. */
  readonly silenced: readonly boolean[];
  /** It met an error, which it cannot silence. */
  readonly metError: readonly boolean[];
  /** It met a finding that a directive nearer to it silenced. */
  readonly metSilenced: readonly boolean[];
}

/** What is wrong with one directive, given what each of its codes did. */
function problemsOf(d: Directive, { silenced, metError, metSilenced }: Outcome, shown: readonly DocumentProblem[]): DocumentProblem[] {
  const name = d.kind === 'next-line' ? NEXT_LINE_DIRECTIVE : FILE_DIRECTIVE;
  if (d.codes.length === 0) {
    const there = [...new Set(shown.filter((p) => isSilenceable(p) && reaches(d, p.start)).map((p) => p.code))];
    const fixes: DocumentFix[] = there.length > 0 ? [{ title: `Silence ${there.map((code) => `\`${code}\``).join(', ')}`, edits: [{ start: d.word.end, end: d.word.end, newText: ` ${there.join(', ')}` }] }] : [];
    return [invalid(d.word, `\`${name}\` names no code: name the codes it silences (\`# ${name} shadowed-rule\`), so that it does not hide findings that later edits bring`, fixes)];
  }
  const anyUsed = silenced.some(Boolean);
  const removeDirective: DocumentFix = { title: 'Remove the directive', edits: [{ ...d.line, newText: '' }] };
  // When no code of the directive silences anything, the whole directive goes.
  const removeCode = (c: number): DocumentFix => (anyUsed ? { title: `Remove \`${d.codes[c].code}\` from the directive`, edits: [removeEntry(d.codes, c)] } : removeDirective);
  const problems: DocumentProblem[] = [];
  d.codes.forEach((named, c) => {
    const { code } = named;
    const at = { start: named.start, end: named.end };
    const unused = (message: string) => problems.push(withFixes({ code: 'unused-disable', severity: 'warning', message, ...at }, [removeCode(c)]));
    if (!PROBLEM_CODES.has(code)) {
      const meant = closestMatches(code, PROBLEM_CODES.keys());
      const message =
        meant.length > 0
          ? `unknown code \`${code}\`; did you mean ${quoteAlternatives(meant)}?`
          : `unknown code \`${code}\`: a directive names the codes of findings, such as \`shadowed-rule\`; a reason goes after \` -- \``;
      const fixes = meant.length > 0 ? meant.map((m) => ({ title: `Change to \`${m}\``, edits: [{ ...at, newText: m }] })) : [removeCode(c)];
      problems.push({ code: 'unknown-disable-code', severity: 'warning', message, ...at, fixes });
    } else if (DIRECTIVE_PROBLEM_CODES.has(code)) {
      unused(`\`${code}\` is about directives, and a directive cannot silence it`);
    } else if (d.codes.findIndex((other) => other.code === code) < c) {
      unused(`\`${code}\` is named twice in this directive`);
    } else if (!silenced[c]) {
      unused(
        metSilenced[c]
          ? `\`${code}\` there is silenced already, by the directive nearer to it`
          : metError[c]
            ? `\`${code}\` here is an error, and an error cannot be silenced: the service rejects this rule, so fix it instead`
            : d.kind === 'next-line' && !d.target
              ? 'no line follows this directive, so it has nothing to silence'
              : `no \`${code}\` ${d.kind === 'file' ? 'in this file' : 'on the next line'}, so the directive has nothing to silence`,
      );
    }
  });
  return problems;
}

/** An edit that removes one code of a directive's list with the separator before or after it. */
function removeEntry(codes: readonly NamedCode[], c: number): DocumentEdit {
  if (c + 1 < codes.length) return { start: codes[c].start, end: codes[c + 1].start, newText: '' };
  return { start: codes[c - 1].end, end: codes[c].end, newText: '' };
}

/**
 * The quick fix "Silence `code` on this line" for a finding of a YAML ruleset: a
 * `# rulesets-disable-next-line code` above the line, indented like it, or the code added to
 * such a directive already there. Inside a scalar of several lines (a `|` block, a quoted
 * string broken over lines) a comment line would be text: the directive goes above the line
 * where the scalar starts, and reaches all of it.
 */
export function silenceFix(model: DirectiveSource, problem: DocumentProblem): DocumentFix | undefined {
  if (model.format !== 'yaml' || !isSilenceable(problem)) return undefined;
  const text = model.text;
  let lineStart = text.lastIndexOf('\n', problem.start - 1) + 1;
  for (let around = scalarOverLines(model.root, lineStart); around; around = scalarOverLines(model.root, lineStart)) {
    lineStart = text.lastIndexOf('\n', around.start - 1) + 1;
  }
  const title = `Silence \`${problem.code}\` on this line`;
  // A directive already above the line, or above the rule (the list item) the finding is in,
  // takes one code more; one above the whole `rules:` would silence the code in every rule.
  const item = innermostItem(model.root, problem.start);
  const lines = new Set([lineStart, item ? text.lastIndexOf('\n', item.start - 1) + 1 : lineStart]);
  const existing = readDirectives(model).directives.find((d) => d.kind === 'next-line' && d.target && lines.has(d.target.start) && reaches(d, problem.start));
  if (existing) {
    if (existing.codes.some((c) => c.code === problem.code)) return undefined;
    const last = existing.codes[existing.codes.length - 1];
    return { title, edits: [{ start: last?.end ?? existing.word.end, end: last?.end ?? existing.word.end, newText: last ? `, ${problem.code}` : ` ${problem.code}` }] };
  }
  const indent = /^[ \t]*/.exec(text.slice(lineStart, lineStart + 200))![0];
  return { title, edits: [{ start: lineStart, end: lineStart, newText: `${indent}# ${NEXT_LINE_DIRECTIVE} ${problem.code}${eolOf(text)}` }] };
}

/** The innermost sequence item that holds `offset`. */
function innermostItem(root: HostNode | undefined, offset: number): HostNode | undefined {
  let item: HostNode | undefined;
  for (let node = root; node; ) {
    if (node.kind === 'object') {
      node = node.properties.find((p) => p.value && p.value.start <= offset && offset <= p.value.end)?.value;
    } else if (node.kind === 'array') {
      node = node.items.find((i) => i.start <= offset && offset <= i.end);
      item = node ?? item;
    } else {
      break;
    }
  }
  return item;
}

/** A scalar that starts before the line at `lineStart` and goes on past its start. */
function scalarOverLines(root: HostNode | undefined, lineStart: number): Span | undefined {
  return scalarAt(root, lineStart, (s) => s.start < lineStart && lineStart < s.end);
}
