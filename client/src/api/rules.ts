/**
 * The rules of a ruleset file as the rule commands and code lenses need them: where each rule
 * is, its id on the service (if the file records one), and a short name. Plain functions over
 * the text: tested without VS Code.
 */
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { eolOf, type HostFormat, type HostNode, type LocalRuleset, parseRuleset, type Position, property, recordDeployed, type Rule, type Ruleset } from '../../../server/src/core';

export interface RuleSite {
  /** 0-based index in the file's `rules`. */
  readonly index: number;
  /** The rule's id, when the file records one. */
  readonly id?: string;
  /** Document offsets of the rule's value (UTF-16 code units), end exclusive. */
  readonly start: number;
  readonly end: number;
  /** `#2 block: Block every other TCP port` */
  readonly label: string;
}

export interface RulesetSites {
  /** The ruleset's id, when the file records one (it has been created or pulled). */
  readonly id?: string;
  readonly name?: string;
  readonly rules: readonly RuleSite[];
}

function stringValue(node: HostNode | undefined, key: string): string | undefined {
  const value = property(node, key)?.value;
  return value?.kind === 'string' && String(value.value) !== '' ? String(value.value) : undefined;
}

const LABEL_LENGTH = 60;

function labelOf(rule: HostNode, index: number): string {
  const action = stringValue(rule, 'action') ?? 'rule';
  const about = stringValue(rule, 'description') ?? stringValue(rule, 'expression') ?? '';
  const short = about.length > LABEL_LENGTH ? `${about.slice(0, LABEL_LENGTH - 1)}…` : about;
  return `#${index + 1} ${action}${short ? `: ${short}` : ''}`;
}

/** The ruleset's id and name and its rules' places, read from a file's text. */
export function rulesetSites(text: string, format: HostFormat): RulesetSites {
  const model = parseRuleset(text, format);
  const rules = model.rules.map((rule, index) => {
    const id = stringValue(rule, 'id');
    return { index, ...(id !== undefined ? { id } : {}), start: rule.start, end: rule.end, label: labelOf(rule, index) };
  });
  const id = stringValue(model.root, 'id');
  const name = stringValue(model.root, 'name');
  return { ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name } : {}), rules };
}

/** The rule whose text holds `offset` (a cursor at its very end counts as in it). */
export function ruleAt(sites: RulesetSites, offset: number): RuleSite | undefined {
  return sites.rules.find((rule) => offset >= rule.start && offset <= rule.end);
}

// ---------------------------------------------------------------- the file after a rule command

/**
 * The text that stands for a rule: the rule without the whitespace after it (a YAML block
 * mapping ends with its line break); for an item of a YAML block sequence, from its `- ` line,
 * with the comment lines right above it, which are about it.
 */
function slotOf(text: string, rule: RuleSite): { start: number; end: number } {
  let end = rule.end;
  while (end > rule.start && /\s/.test(text[end - 1])) end--;
  let start = rule.start;
  const lineStart = text.lastIndexOf('\n', rule.start - 1) + 1;
  if (/^[ \t]*-[ \t]+$/.test(text.slice(lineStart, rule.start))) {
    start = lineStart;
    for (;;) {
      const above = text.lastIndexOf('\n', start - 2) + 1;
      if (start === 0 || !/^[ \t]*#[^\n]*\n$/.test(text.slice(above, start))) break;
      start = above;
    }
  }
  return { start, end };
}

/**
 * The text with rule `from` moved to index `to` (0-based, in the new order). Each rule's text
 * (with its comments, in a YAML block sequence) goes into the place another rule's text was:
 * what stands between rules (commas, line breaks) stays, and so does the indentation.
 */
export function moveRuleText(text: string, sites: RulesetSites, from: number, to: number): string {
  const order = sites.rules.map((rule) => rule.index);
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved);
  const slots = sites.rules.map((rule) => slotOf(text, rule));
  let out = text;
  for (let k = slots.length - 1; k >= 0; k--) {
    const source = slots[order[k]];
    out = out.slice(0, slots[k].start) + text.slice(source.start, source.end) + out.slice(slots[k].end);
  }
  return out;
}

/** The text without rule `index`: its whole item (its lines and comments in YAML, the value and a comma in JSON). */
export function removeRuleText(text: string, format: HostFormat, index: number): string {
  if (format === 'json') {
    const eol = eolOf(text);
    return jsonc.applyEdits(text, jsonc.modify(text, ['rules', index], undefined, { formattingOptions: { insertSpaces: true, tabSize: 2, eol } }));
  }
  const sites = rulesetSites(text, format);
  const rule = sites.rules[index];
  const slot = slotOf(text, rule);
  // A block sequence item goes with its lines; the only rule would leave `rules:` empty (null).
  if (sites.rules.length > 1 && slot.start < rule.start) return text.slice(0, slot.start) + text.slice(lineEndAfter(text, slot.end));
  // A flow sequence, or the only rule: the library writes the document (comments survive).
  const doc = YAML.parseDocument(text, { keepSourceTokens: true, uniqueKeys: false });
  doc.deleteIn(['rules', index]);
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}

function lineEndAfter(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end + 1;
}

/**
 * Where "add rule" puts the rule at `index` on the service: after the closest rule before it
 * that the service has (an id in the file), else first.
 */
export function addPosition(sites: RulesetSites, index: number): Position {
  for (let k = index - 1; k >= 0; k--) {
    const id = sites.rules[k].id;
    if (id) return { after: id };
  }
  return { before: '' };
}

/** The places "Move…" offers for a rule: first, last, and after each other rule the service has. */
export function moveChoices(sites: RulesetSites, index: number): { label: string; position: Position }[] {
  const choices: { label: string; position: Position }[] = [
    { label: 'To the top', position: { before: '' } },
    { label: 'To the bottom', position: { after: '' } },
  ];
  for (const rule of sites.rules) {
    if (rule.index !== index && rule.id) choices.push({ label: `After ${rule.label}`, position: { after: rule.id } });
  }
  return choices;
}

/** The index rule `from` has in the file once moved to `position` (as the service places it). */
export function movedIndex(sites: RulesetSites, from: number, position: Position): number {
  const others = sites.rules.filter((rule) => rule.index !== from);
  if ('index' in position) return Math.max(0, Math.min(others.length, position.index - 1));
  if ('before' in position) {
    if (position.before === '') return 0;
    const k = others.findIndex((rule) => rule.id === position.before);
    return k === -1 ? 0 : k;
  }
  if (position.after === '') return others.length;
  const k = others.findIndex((rule) => rule.id === position.after);
  return k === -1 ? others.length : k + 1;
}

/**
 * The file's text after a rule command the service answered with `answer`: rules given in
 * `ids` (by index) record their new id, and the file records the answer's version when it was
 * in step with the service before the command (`inSync`) or recorded none. Otherwise it keeps
 * its version, so that the next deploy still sees that someone else changed the ruleset.
 */
export function recordRuleChange(local: LocalRuleset, answer: Ruleset, inSync: boolean, ids: ReadonlyMap<number, string> = new Map()): string {
  const version = inSync || local.version === undefined ? answer.version : local.version;
  const rules = local.body.rules.map((_, k) => ({ id: ids.get(k) ?? '' }) as Rule);
  return recordDeployed(local, { ...answer, version, rules });
}
