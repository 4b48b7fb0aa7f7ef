/**
 * The expressions of a module's `cloudflare_ruleset` resources (terraform-module.ts evaluates
 * them) as expression sites of the file where their characters are written: a rule filter held
 * in a `locals` block, a variable's default, a `.tfvars` line or a module's argument is checked
 * there, in the phase of the resource that uses it, and named with that resource.
 *
 * A site's text is the whole value the provider receives; its characters from this file map to
 * where they are written, those a `${…}` of this file brings in from another map to that
 * `${…}`, and those written only in another file are that file's to report ("elsewhere").
 */
import type { HostArray, HostNode, HostObject, HostProperty, HostScalar } from './host/index';
import type { DecodedString } from './host/index';
import { isRuleExpression, rulesetOfRoot, type ExpressionSite, type FilterSite, type ParsedRuleset } from './parsed-ruleset';
import { plainValue, shownPath, type ModuleValues, type UsingResource } from './terraform-module';
import type { StringValue, Value } from './terraform-values';

/** A derived ruleset's root: it has no resource in this file, so no offset is in it and nothing checks its shape. */
const NO_ROOT: HostObject = { kind: 'object', start: -1, end: -1, properties: [], block: false };

/**
 * The rulesets of `file` (a path, whose text is `text`) that hold its characters used by the
 * module's resources; and `own`, the file's own resources' rulesets, without the sites of theirs
 * that those check whole (an interpolation whose every part is now known).
 */
export function moduleRulesets(file: string, text: string, values: ModuleValues, own: readonly ParsedRuleset[]): { derived: ParsedRuleset[]; own: ParsedRuleset[] } {
  const derived: ParsedRuleset[] = [];
  const superseded = new Set<ExpressionSite>();
  const ownSites = own.flatMap((r) => r.sites);
  for (const resource of values.resources) {
    const ruleset = resourceRuleset(file, text, resource, values.folder);
    if (!ruleset) continue;
    const kept: ExpressionSite[] = [];
    const seen = new Set<string>();
    for (const site of ruleset.sites) {
      if (site.node.start < 0) continue;
      const key = `${site.node.start}:${site.node.end}:${site.path.join('.')}:${site.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const within = ownSites.filter((o) => site.node.start >= o.node.start && site.node.end <= o.node.end);
      // Already a site of the file's own, read from its characters alone: checked there.
      if (within.some((o) => !o.holes) && !site.elsewhere && !site.brought) continue;
      // An interpolation of the file's own whose every part is now known: checked whole here.
      const starts = site.decoded().starts;
      for (const o of ownSites) if (o.holes && starts.some((x) => x >= o.node.start && x < o.node.end)) superseded.add(o);
      kept.push(site);
    }
    if (kept.length === 0) continue;
    derived.push({ ...ruleset, root: NO_ROOT, sites: kept, expressions: kept.filter(isRuleExpression) as FilterSite[] });
  }
  if (superseded.size === 0) return { derived, own: [...own] };
  const ownKept = own.map((r) => (r.sites.some((s) => superseded.has(s)) ? { ...r, sites: r.sites.filter((s) => !superseded.has(s)), expressions: r.expressions.filter((s) => !superseded.has(s)) } : r));
  return { derived, own: ownKept };
}

function resourceRuleset(file: string, text: string, resource: UsingResource, folder: string): ParsedRuleset | undefined {
  const builder = new TreeBuilder(file);
  const rules: HostArray = { kind: 'array', start: -1, end: -1, items: resource.rules.map((rule) => builder.node(rule, 0)) };
  if (!builder.mine) return undefined;
  const properties: HostProperty[] = [{ key: 'rules', keyStart: -1, keyEnd: -1, value: rules }];
  if (resource.phase !== undefined) properties.push({ key: 'phase', keyStart: -1, keyEnd: -1, value: { kind: 'string', start: -1, end: -1, value: resource.phase } });
  const root: HostObject = { kind: 'object', start: -1, end: -1, properties, block: false };
  const shown = shownPath(folder, resource.file);
  const ruleset = rulesetOfRoot(text, 'hcl', root, {
    layout: 'terraform',
    label: `${resource.address} (${shown})`,
    rulesComputed: true,
    ...(resource.v4 ? { parametersInProviderShape: true } : {}),
  });
  for (const site of ruleset.sites) {
    const origins = builder.origins.get(site.node);
    if (origins) Object.assign(site, origins);
  }
  return { ...ruleset, usedBy: `in \`${resource.address}\`, ${shown}:${resource.line}` };
}

interface Origins {
  elsewhere?: { start: number; end: number }[];
  brought?: { start: number; end: number }[];
  seams?: number[];
}

/** Values as host nodes for the site finder (rulesetOfRoot); strings with their map into this file. */
class TreeBuilder {
  /** Whether any string has characters written in this file. */
  mine = false;
  readonly origins = new Map<HostScalar, Origins>();

  constructor(private readonly file: string) {}

  /** Nodes left to make: a value that shares its parts (a list of the same local twice, thirty times over) is not walked without end. */
  private budget = 100_000;

  node(value: Value, depth: number): HostNode {
    if (depth > 32 || --this.budget < 0) return { kind: 'null', start: -1, end: -1, value: null };
    switch (value.kind) {
      case 'string':
        return this.string(value);
      case 'number':
        return { kind: 'number', start: -1, end: -1, value: value.value };
      case 'bool':
        return { kind: 'boolean', start: -1, end: -1, value: value.value };
      case 'list':
        return { kind: 'array', start: -1, end: -1, items: value.items.map((item) => this.node(item, depth + 1)) };
      case 'object': {
        const properties: HostProperty[] = [];
        // Unknown values are left out: the key is there, nothing is claimed of it.
        for (const [key, v] of value.entries) properties.push({ key, keyStart: -1, keyEnd: -1, ...(v.kind === 'unknown' || v.kind === 'error' ? {} : { value: this.node(v, depth + 1) }) });
        return { kind: 'object', start: -1, end: -1, properties, block: false };
      }
      default:
        return { kind: 'null', start: -1, end: -1, value: null };
    }
  }

  private string(s: StringValue): HostScalar {
    const n = s.value.length;
    const starts = new Int32Array(n);
    const ends = new Int32Array(n);
    /** Per character: 0 written here, 1 brought here by a `${…}`, 2 elsewhere. */
    const kinds = new Uint8Array(n);
    const seams: number[] = [];
    let at = 0;
    let first = Number.MAX_SAFE_INTEGER;
    let last = -1;
    let own = 0;
    let heredoc = false;
    for (const piece of s.pieces) {
      const length = piece.starts.length;
      const via = piece.file === this.file ? undefined : piece.via?.find((v) => v.file === this.file);
      if (at > 0) seams.push(at);
      for (let i = 0; i < length; i++) {
        const k = at + i;
        if (piece.file === this.file) {
          starts[k] = piece.starts[i];
          ends[k] = piece.ends[i];
          // What a function wrote maps to its call: shown there, never edited.
          if (piece.produced) kinds[k] = 1;
          else {
            if (i > 0 && piece.starts[i] < piece.ends[i - 1]) seams.push(k);
            if (own === 0) heredoc = piece.heredoc === true;
          }
          own++;
        } else if (via) {
          starts[k] = via.start;
          ends[k] = via.end;
          kinds[k] = 1;
        } else {
          kinds[k] = 2;
          continue;
        }
        first = Math.min(first, starts[k]);
        last = Math.max(last, ends[k]);
      }
      at += length;
    }
    if (own === 0) return { kind: 'string', start: -1, end: -1, value: s.value };
    this.mine = true;
    // Characters written elsewhere take no room here: each sits where the one before it ends.
    let previous = -1;
    for (let k = 0; k < n; k++) {
      if (kinds[k] !== 2) {
        previous = ends[k];
        continue;
      }
      let next = k;
      while (next < n && kinds[next] === 2) next++;
      const place = previous >= 0 ? previous : next < n ? starts[next] : first;
      starts[k] = place;
      ends[k] = place;
    }
    const decoded: DecodedString = { value: s.value, starts, ends, contentStart: first, contentEnd: last };
    const node: HostScalar = { kind: 'string', start: first, end: last, value: s.value, style: heredoc ? 'hcl-heredoc' : 'hcl-quoted', decode: () => decoded };
    const origins: Origins = {};
    const elsewhere = runs(kinds, 2);
    const brought = runs(kinds, 1);
    if (elsewhere.length > 0) origins.elsewhere = elsewhere;
    if (brought.length > 0) origins.brought = brought;
    if (seams.length > 0) origins.seams = seams;
    this.origins.set(node, origins);
    return node;
  }
}

function runs(kinds: Uint8Array, kind: number): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (let k = 0; k < kinds.length; k++) {
    if (kinds[k] !== kind) continue;
    const start = k;
    while (k < kinds.length && kinds[k] === kind) k++;
    found.push({ start, end: k });
  }
  return found;
}

/**
 * The ranges of `own` rulesets' values that the file writes as something Terraform fills in (a
 * reference, a call: `filledIn`) and that the module's evaluation knows whole: such a value is
 * checked where its characters are written (perhaps another file), so its resource does not call
 * it filled in by Terraform. Matched by address and rule index, for resources of `file` whose rules
 * the file lists one by one.
 */
export function knownFilledIn(file: string, values: ModuleValues, own: readonly ParsedRuleset[]): { start: number; end: number }[] {
  const known: { start: number; end: number }[] = [];
  for (const ruleset of own) {
    // Every instance of the resource (`count`, `for_each`: `cloudflare_ruleset.zone["a"]`) must know it.
    const instances = values.resources.filter((r) => r.file === file && (r.address === ruleset.label || r.address.startsWith(`${ruleset.label}[`)));
    if (instances.length === 0) continue;
    const counts = new Map<string, number>();
    for (const resource of instances) {
      const seen = new Set<string>();
      ruleset.rules.forEach((rule, i) => {
        const evaluated = evaluatedRule(rule, i, ruleset.rules.length, resource.rules);
        if (evaluated) collectKnown(rule, evaluated, seen, 0);
      });
      for (const key of seen) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [key, count] of counts) {
      if (count < instances.length) continue;
      const [start, end] = key.split(':').map(Number);
      known.push({ start, end });
    }
  }
  return known;
}

/**
 * The evaluated rule a written rule became: the one with its literal `ref` (rules a `dynamic`
 * block makes may stand between), else the one at its index when the rules are as many.
 */
function evaluatedRule(rule: HostNode, index: number, written: number, evaluated: readonly Value[]): Value | undefined {
  const ref = rule.kind === 'object' ? rule.properties.find((p) => p.key === 'ref')?.value : undefined;
  if (ref?.kind === 'string' && !ref.source?.hcl?.holes.length) {
    const matches = evaluated.filter((v) => v.kind === 'object' && refOf(v) === ref.value);
    return matches.length === 1 ? matches[0] : undefined;
  }
  return evaluated.length === written ? evaluated[index] : undefined;
}

function refOf(rule: Value): string | undefined {
  const ref = rule.kind === 'object' ? rule.entries.get('ref') : undefined;
  return ref?.kind === 'string' ? ref.value : undefined;
}

/** The ranges (`start:end`) of `node`'s values Terraform fills in that `value` knows whole. */
function collectKnown(node: HostNode | undefined, value: Value, known: Set<string>, depth: number): void {
  if (node?.kind !== 'object' || value.kind !== 'object' || depth > 16) return;
  for (const property of node.properties) {
    const inner = value.entries.get(property.key);
    if (!inner) continue;
    if (property.filledIn && plainValue(inner) !== undefined) known.add(`${property.filledIn.start}:${property.filledIn.end}`);
    else collectKnown(property.value, inner, known, depth + 1);
  }
}

/**
 * The phases of `own` rulesets that the file does not write as a string (`phase = local.phase`)
 * and the module's evaluation knows: the same for every instance of the resource.
 */
export function evaluatedPhases(file: string, values: ModuleValues, own: readonly ParsedRuleset[]): Map<ParsedRuleset, string> {
  const phases = new Map<ParsedRuleset, string>();
  for (const ruleset of own) {
    if (ruleset.phase !== undefined || ruleset.legacyFilter) continue;
    const instances = values.resources.filter((r) => r.file === file && (r.address === ruleset.label || r.address.startsWith(`${ruleset.label}[`)));
    const found = new Set(instances.map((r) => r.phase));
    const [phase] = found;
    if (found.size === 1 && phase !== undefined) phases.set(ruleset, phase);
  }
  return phases;
}
