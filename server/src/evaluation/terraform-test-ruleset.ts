/**
 * `rulesets test` against a Terraform resource: the resource's rules as the module's evaluation
 * computes them (terraform-module.ts: variables with their defaults and `.tfvars` values,
 * locals, `for` expressions, `dynamic "rules"` blocks), with the test file's `variables:` over
 * every other value of a root variable (as Terraform's `-var`). A rule the evaluation still
 * cannot know is named with what it needs: the variables without a value it refers to, directly
 * or through locals.
 *
 * The ruleset is built as the file's own is (rulesetOfRoot), from the evaluated rules: a rule
 * that uses no value is the file's own node; another is a tree made of its value, whose strings
 * keep the places of their characters in the resource's file (elsewhere, the rule's place), and
 * whose unknown parts are properties Terraform fills in, at the rule's place.
 */
import { dirname, resolve } from 'node:path';
import { property, type HostArray, type HostNode, type HostObject, type HostProperty, type HostScalar } from '../documents/host/index';
import type { DecodedString } from '../documents/host/index';
import { rulesetOfRoot, type ParsedRuleset } from '../documents/parsed-ruleset';
import { linePosition } from '../documents/positions';
import { mayUseModuleValues } from '../documents/terraform';
import { evaluateModule, referencedNames, shownPath, type ModuleNames, type ModuleValues, type TerraformModuleReader, type UsingResource } from '../documents/terraform-module';
import { bool, list, NULL, num, object, produced, type StringValue, type Value } from '../documents/terraform-values';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { FILLED_IN_BY_TERRAFORM, type PreparedRuleset } from './ruleset-eval';

/** A variable a test file gives (`variables: {blocked_path: /admin}`): its name, where its key is, its value. */
export interface TestVariable {
  readonly name: string;
  readonly keyStart: number;
  readonly value: HostNode;
}

export const VARIABLES_EXPECTED = 'expected `variables` as a map of the Terraform module\'s variables to their values, e.g. `variables: {blocked_path: /admin, zones: [a]}`';

/** The `variables:` of a test file, or what is wrong with it (at its offset in the test file). */
export function readTestVariables(node: HostNode): readonly TestVariable[] | { readonly message: string; readonly offset: number } {
  if (node.kind !== 'object') return { message: VARIABLES_EXPECTED, offset: node.start };
  const found: TestVariable[] = [];
  for (const p of node.properties) {
    if (!/^[A-Za-z_][\w-]*$/.test(p.key)) return { message: `\`${p.key}\` is not a Terraform variable's name (a letter or \`_\`, then letters, digits, \`_\` and \`-\`)`, offset: p.keyStart };
    if (!p.value) return { message: `\`${p.key}\` has no value: give the value Terraform's \`-var\` would`, offset: p.keyStart };
    found.push({ name: p.key, keyStart: p.keyStart, value: p.value });
  }
  return found;
}

/** A value written in the test file, as the evaluator holds values: its strings come from the test file. */
export function valueOfTestNode(node: HostNode, file: string, depth = 0): Value {
  if (depth > 32) return NULL;
  switch (node.kind) {
    case 'object':
      return object(node.properties.map((p) => [p.key, p.value ? valueOfTestNode(p.value, file, depth + 1) : NULL] as const));
    case 'array':
      return list(node.items.map((item) => valueOfTestNode(item, file, depth + 1)));
    case 'string':
      return produced(String(node.value), { file, start: node.start, end: node.end });
    case 'number':
      return num(Number(node.value));
    case 'boolean':
      return bool(node.value === true);
    default:
      return NULL;
  }
}

/** Where the module's files are read from, for the resource of a test file (RulesetRead's). */
export interface TestModuleSource {
  readonly path: string;
  readonly text: string;
  readonly reader: TerraformModuleReader;
  readonly varFiles?: readonly string[];
}

/** A test file's `variables:` that the module does not declare: its message and place in the test file. */
export interface VariablesProblem {
  readonly message: string;
  readonly offset: number;
}

/** What the evaluation gives a test file's Terraform resource. */
export interface EvaluatedResource {
  /** The ruleset with the rules as evaluated. */
  readonly model: ParsedRuleset;
  /** The module's names, and the rules' places, for naming what a rule still unknown needs (neededText). */
  readonly names?: ModuleNames;
  /** Per rule of `model`: the characters of the resource its value comes from (the rule, or its `dynamic` block). */
  readonly sources: readonly { readonly start: number; readonly end: number }[];
  /** The evaluation could not give the rules (the resource's `rules` is unknown): what they need, when known. */
  readonly rulesUnknown?: string;
  /** Where rule `index`'s expression is written when that is another file of the module: `locals.tf:4:12`. */
  writtenElsewhere?(index: number): string | undefined;
}

/**
 * The resource `model` (of the file `source.path`) with its rules as the module evaluates them,
 * the test file's variables given; a variable the module does not declare is a problem; undefined
 * when the module cannot be evaluated, or the instances of a `count` / `for_each` resource have
 * rules that differ: then the file's own reading stands.
 */
export function evaluatedResource(model: ParsedRuleset, source: TestModuleSource, variables: readonly TestVariable[], testFile: string): EvaluatedResource | VariablesProblem | undefined {
  if (model.layout !== 'terraform' || model.legacyFilter || !model.label) return undefined;
  // A file of literal values alone is what its own reading says: no module to evaluate (and none to hold `variables:` to, which then need one).
  if (variables.length === 0 && !mayUseModuleValues(source.text, source.path)) return undefined;
  const given = new Map(variables.map((v) => [v.name, valueOfTestNode(v.value, testFile)] as const));
  let values: ModuleValues | undefined;
  try {
    values = evaluateModule({ path: source.path, reader: source.reader, varFiles: source.varFiles, variables: given }, source.text);
  } catch {
    values = undefined;
  }
  if (!values) return undefined;
  const declared = values.names?.variables ?? [];
  for (const v of variables) {
    if (declared.includes(v.name)) continue;
    const near = closestMatches(v.name, declared);
    const folder = dirname(resolve(source.path));
    const which = declared.length === 0 ? `the module (${folder}) declares no variable` : `it declares ${declared.map((d) => `\`${d}\``).join(', ')}`;
    return { message: `no variable \`${v.name}\` in the module of the ruleset; ${near.length > 0 ? `did you mean ${quoteAlternatives(near)}? ` : ''}${which}`, offset: v.keyStart };
  }
  const file = resolve(source.path);
  const instances = values.resources.filter((r) => r.file === file && (r.address === model.label || r.address.startsWith(`${model.label}[`)));
  // Instances of `count` or `for_each` run one ruleset when their rules are the same (the same rules for every zone).
  if (instances.length === 0 || instances.some((r) => !sameValues(list(r.rules), list(instances[0].rules), 0) || r.phase !== instances[0].phase)) return undefined;
  const evaluated = rebuilt(model, instances[0], file, values.names);
  // Not rebuilt (its rules could not be told apart): the file's own rules are not the evaluation's, one for one.
  if (evaluated.model === model) return evaluated;
  const resource = instances[0];
  return {
    ...evaluated,
    writtenElsewhere: (index) => {
      const rule = resource.rules[index];
      const expression = rule?.kind === 'object' ? rule.entries.get('expression') : undefined;
      const piece = expression?.kind === 'string' ? expression.pieces.find((p) => !p.produced && p.starts.length > 0) : undefined;
      if (!piece || piece.file === file) return undefined;
      const text = source.reader.readFile(piece.file);
      if (text === undefined) return undefined;
      return `${shownPath(values.folder, piece.file)}:${linePosition(text, piece.starts[0])}`;
    },
  };
}

function rebuilt(model: ParsedRuleset, resource: UsingResource, file: string, names: ModuleNames | undefined): EvaluatedResource {
  const root = model.root?.kind === 'object' ? model.root : undefined;
  const whole = root ? { start: root.start, end: root.end } : { start: 0, end: model.text.length };
  const rulesProperty = property(root, 'rules');
  const own = model.rules;
  const oneForOne = !model.rulesComputed && !rulesProperty?.filledIn && own.length === resource.rules.length;
  // `rules = local.rules` the evaluation cannot know comes out as no rules; a `dynamic` block's for_each it cannot know, as an unknown rule.
  if ((rulesProperty?.filledIn && resource.rules.length === 0) || resource.rules.some((r) => r.kind === 'unknown' || r.kind === 'error')) {
    return { model, names, sources: [], rulesUnknown: needed(model.text.slice(whole.start, whole.end), names) };
  }
  const slots = oneForOne ? own.map((node) => ({ node, place: { start: node.start, end: node.end } })) : ruleSlots(model, own, whole, resource.rules, file, rulesProperty?.filledIn);
  // The rules cannot be told apart (two `dynamic "rules"` blocks): the file's own reading stands.
  if (!slots) return { model, names, sources: model.rules.map((node) => ({ start: node.start, end: node.end })) };
  const sources: { start: number; end: number }[] = [];
  const items: HostNode[] = resource.rules.map((value, i) => {
    const { node: mine, place } = slots[i];
    sources.push(place);
    // A rule that uses no value is the file's own.
    if (value.kind === 'null' && mine) return mine;
    return new TreeOfValue(file, place).node(value, 0) ?? { kind: 'null', start: place.start, end: place.end, value: null };
  });
  const rules: HostArray = { kind: 'array', start: rulesProperty?.value?.start ?? whole.start, end: rulesProperty?.value?.end ?? whole.end, items };
  const properties: HostProperty[] = (root?.properties ?? []).filter((p) => p.key !== 'rules' && !(p.key === 'phase' && resource.phase !== undefined));
  if (resource.phase !== undefined) properties.push({ key: 'phase', keyStart: whole.start, keyEnd: whole.start, value: { kind: 'string', start: whole.start, end: whole.start, value: resource.phase } });
  properties.push({ key: 'rules', keyStart: rulesProperty?.keyStart ?? whole.start, keyEnd: rulesProperty?.keyEnd ?? whole.start, value: rules });
  const newRoot: HostObject = { kind: 'object', start: whole.start, end: whole.end, properties, block: false };
  const built = rulesetOfRoot(model.text, 'hcl', newRoot, {
    layout: 'terraform',
    label: model.label,
    syntaxProblems: model.syntaxProblems,
    ...(resource.v4 || model.parametersInProviderShape ? { parametersInProviderShape: true } : {}),
  });
  return { model: built, names, sources };
}

/**
 * For each rule the evaluation gives, in order: the file's own `rules` block it is, or the place
 * of the `dynamic "rules"` block or `rules = …` value that makes it. The evaluation gives a
 * resource's blocks in the order written, each `rules` block one rule and a `dynamic` block as
 * many as it makes: with one `dynamic` block that is known; with more, undefined.
 */
function ruleSlots(model: ParsedRuleset, own: readonly HostNode[], whole: { start: number; end: number }, values: readonly Value[], file: string, filledIn: { start: number; end: number } | undefined): { node?: HostNode; place: { start: number; end: number } }[] | undefined {
  const count = values.length;
  if (filledIn) return own.length === 0 ? Array.from({ length: count }, () => ({ place: filledIn })) : undefined;
  const dynamics: { start: number; end: number }[] = [];
  for (const m of model.text.slice(whole.start, whole.end).matchAll(/\bdynamic\s+"rules"\s*\{/g)) {
    const start = whole.start + m.index;
    dynamics.push({ start, end: blockEnd(model.text, start, whole.end) });
  }
  if (dynamics.length > 1) return slotsByPlace(values, file, own, dynamics);
  if (count < own.length) return undefined;
  const made = count - own.length;
  if (dynamics.length === 0) return made === 0 ? own.map((node) => ({ node, place: { start: node.start, end: node.end } })) : undefined;
  const dynamic = dynamics[0];
  const slots: { node?: HostNode; place: { start: number; end: number } }[] = [];
  let placed = false;
  for (const node of own) {
    if (!placed && node.start > dynamic.start) {
      for (let k = 0; k < made; k++) slots.push({ place: dynamic });
      placed = true;
    }
    slots.push({ node, place: { start: node.start, end: node.end } });
  }
  if (!placed) for (let k = 0; k < made; k++) slots.push({ place: dynamic });
  return slots;
}

/**
 * Whether two values are the same, wherever their characters are written. Two unknowns are: no
 * rule is run with what it cannot know, so the instances say the same of it.
 */
function sameValues(a: Value, b: Value, depth: number): boolean {
  if (depth > 32 || a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'unknown':
    case 'error':
      return true;
    case 'list': {
      const items = (b as typeof a).items;
      return a.items.length === items.length && a.items.every((item, i) => sameValues(item, items[i], depth + 1));
    }
    case 'object': {
      const entries = (b as typeof a).entries;
      return a.entries.size === entries.size && [...a.entries].every(([key, value]) => entries.has(key) && sameValues(value, entries.get(key)!, depth + 1));
    }
    case 'null':
      return true;
    default:
      return a.value === (b as typeof a).value;
  }
}

/**
 * With several `dynamic "rules"` blocks: each rule's block found by where its characters are
 * written (a `rules` block uses no value and is the next of the file's own, else the block that
 * holds one of its strings' characters), in the order written; undefined when one cannot be found.
 */
function slotsByPlace(values: readonly Value[], file: string, own: readonly HostNode[], dynamics: readonly { start: number; end: number }[]): { node?: HostNode; place: { start: number; end: number } }[] | undefined {
  type Slot = { node?: HostNode; place: { start: number; end: number } };
  const blocks: Slot[] = [...own.map((node): Slot => ({ node, place: { start: node.start, end: node.end } })), ...dynamics.map((place): Slot => ({ place }))].sort((a, b) => a.place.start - b.place.start);
  const slots: { node?: HostNode; place: { start: number; end: number } }[] = [];
  let at = 0;
  for (const value of values) {
    const offsets = value.kind === 'null' ? [] : ownOffsets(value, file, [], 0);
    let found = -1;
    for (let k = at; k < blocks.length && found < 0; k++) {
      const block = blocks[k];
      if (value.kind === 'null' ? block.node !== undefined : offsets.some((o) => o >= block.place.start && o < block.place.end)) found = k;
    }
    if (found < 0) return undefined;
    // A `rules` block is one rule; a dynamic block may make more: the next rule may be its too.
    at = blocks[found].node ? found + 1 : found;
    slots.push(blocks[found]);
  }
  return slots;
}

/** The first offset in `file` of each string of a value written there (not by a function). */
function ownOffsets(value: Value, file: string, found: number[], depth: number): number[] {
  if (depth > 16 || found.length > 64) return found;
  if (value.kind === 'string') {
    for (const piece of value.pieces) if (piece.file === file && !piece.produced && piece.starts.length > 0) found.push(piece.starts[0]);
  } else if (value.kind === 'list') for (const item of value.items) ownOffsets(item, file, found, depth + 1);
  else if (value.kind === 'object') for (const item of value.entries.values()) ownOffsets(item, file, found, depth + 1);
  return found;
}

/** Where a block that starts at `start` ends: its braces balanced (strings are not looked into: a place for messages only). */
function blockEnd(text: string, start: number, limit: number): number {
  let depth = 0;
  for (let i = text.indexOf('{', start); i >= 0 && i < limit; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i + 1;
  }
  return limit;
}

/**
 * A rule's value as host nodes for rulesetOfRoot: a string's characters written in `file` keep
 * their places, the others take the rule's; an unknown part is a property Terraform fills in.
 */
class TreeOfValue {
  private budget = 50_000;

  constructor(
    private readonly file: string,
    private readonly place: { readonly start: number; readonly end: number },
  ) {}

  node(value: Value, depth: number): HostNode | undefined {
    const { start, end } = this.place;
    if (depth > 32 || --this.budget < 0) return undefined;
    switch (value.kind) {
      case 'string':
        return this.string(value);
      case 'number':
        return { kind: 'number', start, end, value: value.value };
      case 'bool':
        return { kind: 'boolean', start, end, value: value.value };
      case 'null':
        return { kind: 'null', start, end, value: null };
      case 'list': {
        const items: HostNode[] = [];
        for (const item of value.items) {
          const node = this.node(item, depth + 1);
          if (!node) return undefined;
          items.push(node);
        }
        return { kind: 'array', start, end, items };
      }
      case 'object': {
        const properties: HostProperty[] = [];
        for (const [key, v] of value.entries) {
          const node = this.node(v, depth + 1);
          properties.push(node ? { key, keyStart: start, keyEnd: start, value: node } : { key, keyStart: start, keyEnd: start, filledIn: this.place });
        }
        return { kind: 'object', start, end, properties, block: false };
      }
      default:
        return undefined;
    }
  }

  private string(s: StringValue): HostScalar {
    const n = s.value.length;
    const starts = new Int32Array(n).fill(this.place.start);
    const ends = new Int32Array(n).fill(this.place.start);
    let at = 0;
    let first = -1;
    let last = -1;
    for (const piece of s.pieces) {
      if (piece.file === this.file && !piece.produced) {
        for (let i = 0; i < piece.starts.length; i++) {
          starts[at + i] = piece.starts[i];
          ends[at + i] = piece.ends[i];
          if (first < 0) first = piece.starts[i];
          last = Math.max(last, piece.ends[i]);
        }
      }
      at += piece.starts.length;
    }
    const start = first >= 0 ? first : this.place.start;
    const end = first >= 0 ? last : this.place.end;
    const decoded: DecodedString = { value: s.value, starts, ends, contentStart: start, contentEnd: end };
    return { kind: 'string', start, end, value: s.value, decode: () => decoded };
  }
}

/**
 * What a rule's values still unknown need, said after what is unknown (`its expression is`):
 * the variables without a value that the characters `written` refer to, directly or through
 * locals; else that Terraform fills it in as it applies.
 */
function needed(written: string, names: ModuleNames | undefined): string {
  const missing = new Set<string>();
  const undeclared = new Set<string>();
  const seen = new Set<string>();
  const queue = referencedNames(written);
  while (queue.length > 0 && seen.size < 1000) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    if (!name.startsWith('var.')) queue.push(...(names?.localUses.get(name) ?? []));
    else if (names?.unknown.includes(name.slice(4))) missing.add(name);
    else if (names && !names.variables.includes(name.slice(4))) undeclared.add(name);
  }
  const quoted = (set: Set<string>) => [...set].sort().map((n) => `\`${n}\``);
  if (missing.size > 0) {
    const shown = quoted(missing);
    const more = undeclared.size > 0 ? `; and ${quoted(undeclared).join(', ')}, which the module does not declare` : '';
    return `not known: it needs ${shown.join(', ')} (${shown.length === 1 ? 'a variable' : 'variables'} without a value): give ${shown.length === 1 ? 'it' : 'them'} under \`variables:\` in the test file${more}`;
  }
  if (undeclared.size > 0) return `not known: it needs ${quoted(undeclared).join(', ')}, which the module does not declare (a \`variable\` block, then a value under \`variables:\` in the test file)`;
  return `${FILLED_IN_BY_TERRAFORM} as it applies (it is known only then)`;
}

/** The message of a resource whose rules the evaluation cannot give. */
export function rulesUnknownMessage(label: string, need: string): string {
  return `${label}: its rules are ${need}, so no case can be decided here`;
}

/**
 * The prepared ruleset with each rule still unknown named with what it needs (RuleInfo.unknown):
 * `its expression is not known: it needs \`var.blocked_path\` …`.
 */
export function withNeeds(prepared: PreparedRuleset, evaluated: EvaluatedResource): PreparedRuleset {
  const text = prepared.model.text;
  const rules = prepared.rules.map((rule, i) => {
    const unknown = rule.info.unknown;
    const source = evaluated.sources[i];
    if (!unknown || !source) return rule;
    const cut = unknown.indexOf(` ${FILLED_IN_BY_TERRAFORM}`);
    if (cut <= 0) return rule;
    const subject = unknown.slice(0, cut);
    return { ...rule, info: { ...rule.info, unknown: `${subject} ${needed(text.slice(source.start, source.end), evaluated.names)}` } };
  });
  return { ...prepared, rules };
}
