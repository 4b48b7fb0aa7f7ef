/**
 * The `cloudflare_ruleset` resources of a Terraform file, each as a ruleset whose nodes are the
 * file's own characters. Both shapes the provider has had are read: repeated `rules { … }`
 * blocks with nested blocks for parameters (provider v4), and a `rules = [{ … }, …]` list of
 * objects in the API's own shape (v5). Shapes seen in cloudflare/terraform-provider-cloudflare
 * (commit 3856d26e2, internal/services/ruleset/migration/v500/testdata/v4_*.tf and v5_*.tf).
 *
 * Only literal values are read. A value Terraform computes (`var.phase`, a function call, a
 * `for`, a conditional) is a property without a value whose `filledIn` gives its characters: an
 * unknown of the attribute's type, there, so nothing calls it missing, and no check looks into
 * what it cannot know (ruleset-shape.ts names it where it hides a check).
 */
import { decodeHclTemplate, plainQuotedValue, type HclStringStyle, type Range } from './host/index';
import { hclParser, type HclNode } from './host/index';
import { readHclSubset, type HclSyntaxNode } from './host/index';
import { isTerraformTemplate, stringScalar, type HostArray, type HostNode, type HostObject, type HostProperty, type HostScalar } from './host/index';
import { MAX_NESTING, NESTED_TOO_DEEPLY } from './host/index';
import { providerShapeProblems } from './provider-shape';
import { providerMajor, type ModuleVersionInputs, type ProviderMajor } from './provider-version';
import { resolve } from 'node:path';
import { evaluateModule, type TerraformModule } from './terraform-module';
import { evaluatedPhases, knownFilledIn, moduleRulesets } from './terraform-sites';
import { onWholeCharacters } from './host/index';
import { rulesetOfRoot, type DocumentProblem, type ExpressionSite, type ParsedDocument, type ParsedRuleset } from './parsed-ruleset';
import { CUSTOM_RULES_PHASE, FILTER_TYPE, FIREWALL_RULE_TYPE, firewallRulesMigration, firewallRulesProblems, type FirewallRulesMigration, type LegacyAttribute, type LegacyResource } from './firewall-rules';
import { rulesWithoutRefProblem } from './terraform-refs';

export { loadTerraformParser } from './host/index';

const RESOURCE_TYPE = 'cloudflare_ruleset';
/** The ruleset's own attributes read from a resource: string literals only. */
const RULESET_ATTRIBUTES = ['name', 'kind', 'phase', 'description'];
/** The template part of every string without a `${…}` or `%{…}` (most of a file's): one object for all. */
const NO_HOLES = Object.freeze({ holes: Object.freeze([]) as readonly Range[] });
/** Syntax problems reported at most: a file broken early can give one on every line after it. */
const MAX_SYNTAX_PROBLEMS = 50;

/**
 * The rulesets of a Terraform file: its own `cloudflare_ruleset` resources (and legacy filters),
 * and, given its `module`, the strings of this file the module's resources use (terraform-sites.ts).
 * `versionInputs`: the module's other `.tf` files and its lock file, which may say the provider's
 * version (provider-version.ts); without them only the file's own `required_providers` does.
 */
export function readTerraform(text: string, versionInputs: ModuleVersionInputs = {}, module?: TerraformModule): ParsedDocument {
  const subset = readsWithoutTreeSitter(text, versionInputs, module) ? readHclSubset(text) : undefined;
  if (subset) return readTree(text, subset, undefined);
  return readTerraformWithTreeSitter(text, versionInputs, module);
}

/** readTerraform by tree-sitter's tree, whatever the file holds (exported for the tests that hold hcl-subset.ts to it). */
export function readTerraformWithTreeSitter(text: string, versionInputs: ModuleVersionInputs = {}, module?: TerraformModule): ParsedDocument {
  const parser = hclParser();
  const tree = parser?.parse(text);
  if (!tree) {
    const problem: DocumentProblem = {
      code: 'hcl-parser-unavailable',
      severity: 'error',
      message: 'Terraform files cannot be read yet: the HCL parser has not been loaded (loadTerraformParser)',
      start: 0,
      end: Math.min(1, text.length),
    };
    return { format: 'hcl', layout: 'terraform', text, rulesets: [], problems: [problem] };
  }
  try {
    return readTree(text, tree.rootNode, { root: tree.rootNode, major: providerMajor(versionInputs, { text, root: tree.rootNode }), module });
  } finally {
    tree.delete();
  }
}

/**
 * Whether a file is one hcl-subset.ts may read: nothing in it or its module needs tree-sitter's
 * tree (the module's values, the provider's version from `required_providers` or a lock file,
 * `dynamic` blocks, `count` and `for_each`, legacy firewall resources, which take the slower,
 * fuller path). Whether its syntax is in the subset, the reader itself says.
 */
function readsWithoutTreeSitter(text: string, versionInputs: ModuleVersionInputs, module: TerraformModule | undefined): boolean {
  if (module && mayUseModuleValues(text, module.path)) return false;
  if (versionInputs.lockFile !== undefined && /cloudflare/i.test(versionInputs.lockFile)) return false;
  if ((versionInputs.tfFiles ?? []).some((file) => /cloudflare/i.test(file) && /\brequired_providers\b/.test(file))) return false;
  return !/\b(?:required_providers|dynamic|for_each|count|cloudflare_filter|cloudflare_firewall_rule)\b/.test(text);
}

/**
 * The document read from a syntax tree: hcl-subset.ts's or tree-sitter's (`treeSitter`, with
 * what only its path has: the provider's version and the module's values).
 */
function readTree(text: string, root: HclSyntaxNode, treeSitter: { root: HclNode; major: ProviderMajor | undefined; module: TerraformModule | undefined } | undefined): ParsedDocument {
  const reader = new Reader(text, treeSitter?.major);
  const blocks = resourceBlocks(root);
  let rulesets: ParsedRuleset[] = [];
  const refProblems: DocumentProblem[] = [];
  const blockOf = new Map<ParsedRuleset, HclSyntaxNode>();
  for (const block of blocks) {
    const type = blockLabels(block)[0];
    const ruleset = type === RESOURCE_TYPE ? reader.ruleset(block) : reader.filter(block);
    if (!ruleset) continue;
    rulesets.push(ruleset);
    if (type === RESOURCE_TYPE) blockOf.set(ruleset, block);
    const withoutRef = type === RESOURCE_TYPE ? rulesWithoutRefProblem(ruleset, headerOf(block)) : undefined;
    if (withoutRef) refProblems.push(withoutRef);
  }
  const legacy = legacyResources(text, blocks);
  const syntax = treeSitter ? syntaxProblems(text, treeSitter.root) : [];
  const problems = [...syntax, ...reader.problems, ...refProblems, ...firewallRulesProblems(text, legacy, rulesets)].map((problem) => onWholeCharacters(text, problem));
  const module = treeSitter?.module;
  if (treeSitter && module && mayUseModuleValues(text, module.path)) {
    const values = moduleValuesOrNone(module, text, treeSitter.root);
    if (values) {
      const file = resolve(module.path);
      // A phase the file writes as a reference the module knows (`phase = local.phase`): the
      // resource's own rules are checked in it too.
      const phases = evaluatedPhases(file, values, rulesets);
      if (phases.size > 0) rulesets = rulesets.map((r) => (phases.has(r) && blockOf.has(r) ? (reader.ruleset(blockOf.get(r)!, phases.get(r)) ?? r) : r));
      const { derived, own } = moduleRulesets(file, text, values, rulesets);
      // What the module knows of a value this file writes as a reference or a call is checked
      // where it is written (`derived` here, or another file's): the resource does not call it
      // filled in by Terraform.
      const known = [...knownFilledIn(file, values, rulesets), ...derived.flatMap((r) => r.sites.map((site) => ({ start: site.node.start, end: site.node.end })))];
      rulesets = [...(known.length > 0 ? own.map((r) => ({ ...r, knownValues: known })) : own), ...derived];
    }
  }
  return { format: 'hcl', layout: 'terraform', text, rulesets, problems };
}

/**
 * Whether a file may hold characters the module's resources use, or use the module's values: a
 * file without a variable, a local, an interpolation, a module, a `dynamic` block, `count`,
 * `for_each` or a function called as an attribute's value or argument pays nothing for the
 * module's evaluation. (A function of the expression language inside a string may match too:
 * that costs a search of the file's tree, never a wrong value.)
 */
export function mayUseModuleValues(text: string, path: string): boolean {
  return /\.tfvars(\.json)?$/i.test(path) || /\b(?:variable|locals|module|dynamic|for_each|count)\b|\$\{|\b(?:var|local)\.|[=[,?:]\s*[a-z][a-z0-9_]*\(/.test(text);
}

/**
 * The module's values; none when evaluating them fails, which must not take the file's own
 * checks with it (the evaluator is bounded and should not throw: this is the last guard).
 */
function moduleValuesOrNone(module: TerraformModule, text: string, root: HclNode): ReturnType<typeof evaluateModule> {
  try {
    return evaluateModule(module, text, root);
  } catch {
    return undefined;
  }
}

/** The interpolation holes of a string read from a `.tf` file, as ranges of its value. */
export function holesOfScalar(node: HostScalar): ExpressionSite['holes'] {
  const source = node.source;
  if (!source?.hcl || source.hcl.holes.length === 0) return undefined;
  return decodeHclTemplate(source.text, source.start, source.end, source.hcl.holes)?.holes;
}

/**
 * The `cloudflare_filter` and `cloudflare_firewall_rule` resources of a Terraform file, in the
 * words the conversion to a `cloudflare_ruleset` needs (firewall-rules.ts): their attributes'
 * characters as written. Undefined when the file has none, or the parser is not loaded.
 */
export function legacyFirewallResources(text: string): LegacyResource[] | undefined {
  const tree = hclParser()?.parse(text);
  if (!tree) return undefined;
  try {
    return legacyResources(text, resourceBlocks(tree.rootNode));
  } finally {
    tree.delete();
  }
}

/** The `cloudflare_ruleset` that takes over a Terraform file's firewall rules (firewall-rules.ts), or undefined when it has none to take over. */
export function migrateFirewallRules(text: string): FirewallRulesMigration | undefined {
  const document = readTerraform(text);
  const legacy = legacyFirewallResources(text);
  return legacy && firewallRulesMigration(text, legacy, document.rulesets);
}

function legacyResources(text: string, blocks: readonly HclSyntaxNode[]): LegacyResource[] {
  const found: LegacyResource[] = [];
  for (const block of blocks) {
    const [type, name] = blockLabels(block);
    if ((type !== FILTER_TYPE && type !== FIREWALL_RULE_TYPE) || name === undefined) continue;
    const attributes = new Map<string, LegacyAttribute>();
    for (const attribute of bodyItems(block).attributes) {
      const key = attribute.namedChildren[0];
      const value = attribute.namedChildren[1];
      if (!key || !value || attributes.has(key.text)) continue;
      const literal = value.namedChildCount === 1 ? value.namedChildren[0] : undefined;
      const inner = literal?.type === 'literal_value' ? literal.namedChildren[0] : undefined;
      const written: LegacyAttribute = { start: value.startIndex, end: value.endIndex, text: text.slice(value.startIndex, value.endIndex) };
      if (inner?.type === 'bool_lit') attributes.set(key.text, { ...written, boolean: inner.text === 'true' });
      else if (inner?.type === 'numeric_lit') attributes.set(key.text, { ...written, number: Number(inner.text) });
      else {
        const string = literal?.type === 'template_expr' || inner?.type === 'string_lit' ? plainQuoted(text, literal?.type === 'template_expr' ? literal.namedChildren[0] : inner) : undefined;
        attributes.set(key.text, string === undefined ? written : { ...written, string });
      }
    }
    found.push({ type, name, start: block.startIndex, end: block.endIndex, header: headerOf(block), attributes });
  }
  return found;
}

/** A quoted string without interpolations, as its value; undefined for anything else. */
function plainQuoted(text: string, node: HclSyntaxNode | null | undefined): string | undefined {
  if (!node || node.hasError || (node.type !== 'quoted_template' && node.type !== 'string_lit')) return undefined;
  if (node.namedChildren.some((c) => c?.type === 'template_interpolation' || c?.type === 'template_directive')) return undefined;
  return plainQuotedValue(text, node.startIndex, node.endIndex);
}

/** A resource block's first line as far as its labels: `resource "cloudflare_filter" "x"`, where a note on the whole resource is shown. */
function headerOf(block: HclSyntaxNode): Range {
  const labels = block.namedChildren.filter((c): c is HclSyntaxNode => c?.type === 'string_lit' || (c?.type === 'identifier' && c !== block.namedChildren[0]));
  return { start: block.startIndex, end: labels.at(-1)?.endIndex ?? block.startIndex + 1 };
}

/**
 * The `resource "cloudflare_ruleset" "…"` blocks (and the legacy `cloudflare_filter` and
 * `cloudflare_firewall_rule` ones), also inside the parts of a broken file the
 * parser could not place (an ERROR node), so that one unfinished resource leaves the others read.
 */
function resourceBlocks(root: HclSyntaxNode): HclSyntaxNode[] {
  const found: HclSyntaxNode[] = [];
  const pending: HclSyntaxNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'block') {
        if (isRulesetResource(child)) found.push(child);
      } else if (child.type === 'body' || child.type === 'ERROR') pending.push(child);
    }
  }
  return found.sort((a, b) => a.startIndex - b.startIndex);
}

function isRulesetResource(block: HclSyntaxNode): boolean {
  const labels = blockLabels(block);
  return blockName(block) === 'resource' && (labels[0] === RESOURCE_TYPE || labels[0] === FILTER_TYPE || labels[0] === FIREWALL_RULE_TYPE) && labels.length === 2;
}

function blockName(block: HclSyntaxNode): string | undefined {
  const first = block.namedChildren[0];
  return first?.type === 'identifier' ? first.text : undefined;
}

/** A block's labels (`resource "cloudflare_ruleset" "waf"`: the type and the name), as written between their quotes. */
function blockLabels(block: HclSyntaxNode): string[] {
  return block.namedChildren.filter((c): c is HclSyntaxNode => c?.type === 'string_lit' || (c?.type === 'identifier' && c !== block.namedChildren[0])).map((c) => (c.type === 'string_lit' ? c.text.replace(/^"|"$/g, '') : c.text));
}

function bodyOf(block: HclSyntaxNode): HclSyntaxNode | undefined {
  return block.namedChildren.find((c): c is HclSyntaxNode => c?.type === 'body');
}

/** The body's attributes and blocks, in order. */
function bodyItems(block: HclSyntaxNode): { attributes: HclSyntaxNode[]; blocks: HclSyntaxNode[] } {
  const body = bodyOf(block);
  const attributes: HclSyntaxNode[] = [];
  const blocks: HclSyntaxNode[] = [];
  for (const child of body?.namedChildren ?? []) {
    if (child?.type === 'attribute') attributes.push(child);
    else if (child?.type === 'block') blocks.push(child);
  }
  return { attributes, blocks };
}

type PropertyKey = Omit<HostProperty, 'value' | 'filledIn'>;

/** An attribute's name as a property's key. */
function keyOf(identifier: HclSyntaxNode): PropertyKey {
  return { key: identifier.text, keyStart: identifier.startIndex, keyEnd: identifier.endIndex };
}

/**
 * An attribute or object element: its key and its value; where the value is one Terraform
 * computes (undefined, from an expression that parsed), the characters of that expression.
 */
function withFilledIn(key: PropertyKey, expression: HclSyntaxNode | null | undefined, value: HostNode | undefined): HostProperty {
  // Written out, not spread: V8 gives each object spread in optimised code a hidden class of
  // its own, and a 10,000-rule file has some 40,000 properties (a third of its check's heap).
  if (value || !expression || expression.hasError) return { key: key.key, keyStart: key.keyStart, keyEnd: key.keyEnd, value };
  return { key: key.key, keyStart: key.keyStart, keyEnd: key.keyEnd, value, filledIn: { start: expression.startIndex, end: expression.endIndex } };
}

class Reader {
  readonly problems: DocumentProblem[] = [];
  private tooDeep = false;

  constructor(
    private readonly text: string,
    /** The provider's major version, where the module says it: the other version's shape is then an error. */
    private readonly major?: ProviderMajor,
  ) {}

  /** `phase`: the resource's phase where the file writes it as something the module's evaluation knows (`phase = local.phase`). */
  ruleset(block: HclSyntaxNode, phase?: string): ParsedRuleset | undefined {
    const { attributes, blocks } = bodyItems(block);
    // Only tree-sitter's path knows a version (hcl-subset.ts reads no file that states one), and passes its own nodes.
    if (this.major !== undefined) this.problems.push(...providerShapeProblems(this.text, block as HclNode, this.major, `${RESOURCE_TYPE}.${blockLabels(block)[1]}`));
    const properties: HostProperty[] = [];
    for (const attribute of attributes) {
      const key = attribute.namedChildren[0];
      if (!key || !RULESET_ATTRIBUTES.includes(key.text)) continue;
      const value = this.value(attribute.namedChildren[1], 1);
      // A name or phase Terraform computes is left out: nothing is claimed about it.
      if (value?.kind === 'string' && !isTerraformTemplate(value)) properties.push({ key: key.text, keyStart: key.startIndex, keyEnd: key.endIndex, value });
    }
    const listAttribute = attributes.find((a) => a.namedChildren[0]?.text === 'rules');
    const ruleBlocks = blocks.filter((b) => blockName(b) === 'rules');
    const v4 = !listAttribute && ruleBlocks.length > 0;
    let rulesComputed = blocks.some((b) => blockName(b) === 'dynamic' && blockLabels(b)[0] === 'rules');
    if (listAttribute) {
      const key = listAttribute.namedChildren[0]!;
      const value = this.value(listAttribute.namedChildren[1], 1);
      properties.push(withFilledIn(keyOf(key), listAttribute.namedChildren[1], value));
      // Not a list as written, or a list with items left out as Terraform's to compute.
      const written = listAttribute.namedChildren[1]?.namedChildren[0]?.namedChildren[0];
      const items = written?.type === 'tuple' ? written.namedChildren.filter((c) => c?.type === 'expression').length : -1;
      rulesComputed ||= value?.kind !== 'array' || value.items.length !== items;
    } else if (v4) {
      const key = ruleBlocks[0].namedChildren[0]!;
      const items = ruleBlocks.map((b) => this.blockObject(b, 2));
      properties.push({ key: 'rules', keyStart: key.startIndex, keyEnd: key.endIndex, value: { kind: 'array', start: ruleBlocks[0].startIndex, end: ruleBlocks.at(-1)!.endIndex, items } });
    }
    const root: HostObject = { kind: 'object', start: block.startIndex, end: block.endIndex, properties, block: false };
    const label = `${RESOURCE_TYPE}.${blockLabels(block)[1]}`;
    const ownerAttribute = attributes.find((a) => a.namedChildren[0]?.text === 'zone_id' || a.namedChildren[0]?.text === 'account_id');
    const ownerValue = ownerAttribute?.namedChildren[1];
    const owner = ownerValue ? { key: ownerAttribute!.namedChildren[0]!.text as 'zone_id' | 'account_id', written: ownerValue.text.replace(/\s+/g, ' '), start: ownerValue.startIndex, end: ownerValue.endIndex } : undefined;
    const repeated = attributes.some((a) => a.namedChildren[0]?.text === 'count' || a.namedChildren[0]?.text === 'for_each');
    return rulesetOfRoot(this.text, 'hcl', root, {
      layout: 'terraform',
      label,
      ...(owner ? { owner } : {}),
      ...(repeated ? { repeated } : {}),
      holesOf: holesOfScalar,
      ...(phase !== undefined ? { phase } : {}),
      ...(v4 ? { parametersInProviderShape: true } : {}),
      ...(rulesComputed ? { rulesComputed } : {}),
    });
  }

  /**
   * A `cloudflare_filter` (or a v5 `cloudflare_firewall_rule` with its `filter` inline) as a
   * ruleset of one custom rule: its `expression` (and `description`),
   * checked with the fields and functions of `http_request_firewall_custom`, the phase
   * Cloudflare upgraded firewall rules into (cloudflare-docs firewall-rules-upgrade.mdx). The
   * provider's v4 and v5 filters both write `expression` at the top of the resource
   * (terraform-provider-cloudflare v4.52.8 and a2efdc5, docs/resources/filter.md).
   */
  filter(block: HclSyntaxNode): ParsedRuleset | undefined {
    const [type, name] = blockLabels(block);
    const rule: HostProperty[] = [];
    const attributes = bodyItems(block).attributes;
    if (type === FILTER_TYPE) {
      for (const attribute of attributes) {
        const key = attribute.namedChildren[0];
        if (!key || (key.text !== 'expression' && key.text !== 'description') || rule.some((p) => p.key === key.text)) continue;
        rule.push({ key: key.text, keyStart: key.startIndex, keyEnd: key.endIndex, value: this.value(attribute.namedChildren[1], 2) });
      }
    } else if (type === FIREWALL_RULE_TYPE) {
      // The v5 provider's firewall rule holds its filter: `filter = { expression = "…" }` (a2efdc5, docs/resources/firewall_rule.md).
      const filter = attributes.find((a) => a.namedChildren[0]?.text === 'filter');
      const value = filter && this.value(filter.namedChildren[1], 1);
      if (value?.kind === 'object') rule.push(...value.properties.filter((p) => p.key === 'expression' || p.key === 'description'));
      if (!rule.some((p) => p.key === 'expression')) return undefined;
    } else {
      return undefined;
    }
    const rules: HostNode[] = rule.length === 0 ? [] : [{ kind: 'object', start: block.startIndex, end: block.endIndex, properties: rule, block: false }];
    const properties: HostProperty[] = rules.length === 0 ? [] : [{ key: 'rules', keyStart: rule[0].keyStart, keyEnd: rule[0].keyEnd, value: { kind: 'array', start: block.startIndex, end: block.endIndex, items: rules } }];
    const root: HostObject = { kind: 'object', start: block.startIndex, end: block.endIndex, properties, block: false };
    return rulesetOfRoot(this.text, 'hcl', root, { layout: 'terraform', label: `${type}.${name}`, holesOf: holesOfScalar, phase: CUSTOM_RULES_PHASE, legacyFilter: true });
  }

  /**
   * A block as an object: its attributes, and its nested blocks by name (one block an object,
   * several a list). The v4 provider's `headers { name = "X-Foo" … }` blocks become the API's
   * map of headers by name.
   */
  private blockObject(block: HclSyntaxNode, depth: number): HostObject {
    const properties: HostProperty[] = [];
    if (!this.deeper(block, depth)) {
      const { attributes, blocks } = bodyItems(block);
      for (const attribute of attributes) {
        const key = attribute.namedChildren[0];
        if (key?.type === 'identifier') properties.push(withFilledIn(keyOf(key), attribute.namedChildren[1], this.value(attribute.namedChildren[1], depth + 1)));
      }
      const byName = new Map<string, HclSyntaxNode[]>();
      for (const nested of blocks) {
        const name = blockName(nested);
        // A `dynamic "headers" { … }` block is what Terraform makes blocks from: not read.
        if (name === undefined || name === 'dynamic') continue;
        byName.set(name, [...(byName.get(name) ?? []), nested]);
      }
      for (const [name, group] of byName) {
        const key = group[0].namedChildren[0]!;
        const value = name === 'headers' ? this.headersByName(group, depth + 1) : group.length === 1 ? this.blockObject(group[0], depth + 1) : this.blockList(group, depth + 1);
        properties.push({ key: name, keyStart: key.startIndex, keyEnd: key.endIndex, value });
      }
      properties.sort((a, b) => a.keyStart - b.keyStart);
    }
    return { kind: 'object', start: block.startIndex, end: block.endIndex, properties, block: false };
  }

  private blockList(group: readonly HclSyntaxNode[], depth: number): HostArray {
    return { kind: 'array', start: group[0].startIndex, end: group.at(-1)!.endIndex, items: group.map((b) => this.blockObject(b, depth + 1)) };
  }

  /** `headers { name = "X-Foo" operation = "set" … }` blocks as `{ "X-Foo": { operation: "set", … } }`, keyed on the name's characters. */
  private headersByName(group: readonly HclSyntaxNode[], depth: number): HostNode {
    const headers = group.map((b) => this.blockObject(b, depth + 1));
    const properties: HostProperty[] = [];
    for (const header of headers) {
      const name = header.properties.find((p) => p.key === 'name')?.value;
      if (name?.kind !== 'string') return this.blockList(group, depth);
      properties.push({ key: String(name.value), keyStart: name.start, keyEnd: name.end, value: { ...header, properties: header.properties.filter((p) => p.key !== 'name') } });
    }
    return { kind: 'object', start: group[0].startIndex, end: group.at(-1)!.endIndex, properties, block: false };
  }

  /** The literal value of an `expression` node, or undefined for one Terraform computes. */
  private value(expression: HclSyntaxNode | null | undefined, depth: number): HostNode | undefined {
    if (expression?.type !== 'expression' || expression.namedChildCount !== 1) return undefined;
    const node = expression.namedChildren[0]!;
    switch (node.type) {
      case 'literal_value':
        return this.literal(node.namedChildren[0]);
      case 'template_expr':
        return this.template(node.namedChildren[0]);
      case 'collection_value':
        return this.collection(node.namedChildren[0], depth);
      default:
        return undefined;
    }
  }

  private literal(node: HclSyntaxNode | null | undefined): HostNode | undefined {
    if (!node) return undefined;
    const { startIndex: start, endIndex: end } = node;
    switch (node.type) {
      case 'string_lit':
        return this.template(node);
      case 'numeric_lit': {
        const value = Number(node.text);
        return Number.isFinite(value) ? { kind: 'number', start, end, value } : undefined;
      }
      case 'bool_lit':
        return { kind: 'boolean', start, end, value: node.text === 'true' };
      case 'null_lit':
        return { kind: 'null', start, end, value: null };
      default:
        return undefined;
    }
  }

  /** A quoted string or heredoc; its `${…}` and `%{…}` parts are holes. */
  private template(node: HclSyntaxNode | null | undefined): HostScalar | undefined {
    if (!node || node.hasError) return undefined;
    const style: HclStringStyle | undefined = node.type === 'heredoc_template' ? 'hcl-heredoc' : node.type === 'quoted_template' || node.type === 'string_lit' ? 'hcl-quoted' : undefined;
    if (!style) return undefined;
    let holes: Range[] | undefined;
    for (const c of node.namedChildren) if (c?.type === 'template_interpolation' || c?.type === 'template_directive') (holes ??= []).push({ start: c.startIndex, end: c.endIndex });
    const value = holes === undefined ? plainQuotedValue(this.text, node.startIndex, node.endIndex) : undefined;
    const decoded = value === undefined ? decodeHclTemplate(this.text, node.startIndex, node.endIndex, holes ?? []) : undefined;
    if (value === undefined && !decoded) return undefined;
    return stringScalar(value ?? decoded!.decoded.value, style, { text: this.text, start: node.startIndex, end: node.endIndex, shift: 0, hcl: holes ? { holes } : NO_HOLES });
  }

  private collection(node: HclSyntaxNode | null | undefined, depth: number): HostNode | undefined {
    if (!node || this.deeper(node, depth)) return undefined;
    if (node.type === 'tuple') {
      const items: HostNode[] = [];
      for (const child of node.namedChildren) {
        if (child?.type !== 'expression') continue;
        const item = this.value(child, depth + 1);
        // A list with an item Terraform computes is not known, but for the list of rules,
        // whose known rules are read (the ruleset then says some are computed).
        if (item) items.push(item);
        else if (depth > 1) return undefined;
      }
      return { kind: 'array', start: node.startIndex, end: node.endIndex, items };
    }
    if (node.type !== 'object') return undefined;
    const properties: HostProperty[] = [];
    for (const element of node.namedChildren) {
      if (element?.type !== 'object_elem') continue;
      const key = this.objectKey(element.namedChildren[0]);
      // An object with a key Terraform computes may have any key: it is not known.
      if (!key) return undefined;
      properties.push(withFilledIn(key, element.namedChildren[1], this.value(element.namedChildren[1], depth + 1)));
    }
    return { kind: 'object', start: node.startIndex, end: node.endIndex, properties, block: false };
  }

  /** `name = …` or `"X-Foo" = …`: the key and its characters (a quoted key's with its quotes, as in JSON). */
  private objectKey(expression: HclSyntaxNode | null | undefined): PropertyKey | undefined {
    if (expression?.type !== 'expression' || expression.namedChildCount !== 1) return undefined;
    const node = expression.namedChildren[0]!;
    if (node.type === 'variable_expr') return { key: node.text, keyStart: node.startIndex, keyEnd: node.endIndex };
    const string = node.type === 'literal_value' ? this.literal(node.namedChildren[0]) : undefined;
    if (string?.kind !== 'string' || holesOfScalar(string)) return undefined;
    return { key: String(string.value), keyStart: string.start, keyEnd: string.end };
  }

  /** Whether a collection or block at `depth` is nested too deeply to read; reported once. */
  private deeper(node: HclSyntaxNode, depth: number): boolean {
    if (depth <= MAX_NESTING) return false;
    if (!this.tooDeep) this.problems.push({ code: 'hcl-syntax', severity: 'error', message: NESTED_TOO_DEEPLY, start: node.startIndex, end: node.startIndex + 1 });
    this.tooDeep = true;
    return true;
  }
}

/**
 * The parser's ERROR and MISSING nodes, each where it is, in words. An ERROR around others
 * (a resource the parser gave up on, around the string it could not read) is left for the
 * innermost ones, which say where the trouble is.
 */
function syntaxProblems(text: string, root: HclNode): DocumentProblem[] {
  if (!root.hasError) return [];
  const found: HclNode[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isMissing || node.type === 'ERROR') found.push(node);
      if (found.length >= MAX_SYNTAX_PROBLEMS * 4) break;
      // Into a node only where an error is: most of a file has none.
      if (node.hasError && cursor.gotoFirstChild()) continue;
      let next = cursor.gotoNextSibling();
      while (!next && cursor.gotoParent()) next = cursor.gotoNextSibling();
      if (!next) break;
    }
  } finally {
    cursor.delete();
  }
  const innermost = found.filter((node) => !found.some((other) => other !== node && other.startIndex >= node.startIndex && other.endIndex <= node.endIndex && (other.startIndex > node.startIndex || other.endIndex < node.endIndex)));
  return innermost.slice(0, MAX_SYNTAX_PROBLEMS).map((node) => syntaxProblem(text, node));
}

/** How a node the parser expected is named to a user. */
const EXPECTED: Readonly<Record<string, string>> = {
  quoted_template_end: 'a closing `"`',
  block_end: 'a closing `}`',
  object_end: 'a closing `}`',
  tuple_end: 'a closing `]`',
  template_interpolation_end: 'a closing `}`',
  template_directive_end: 'a closing `}`',
  heredoc_identifier: 'the heredoc\'s closing marker',
  identifier: 'a name',
  expression: 'a value',
};

const HCL_ESCAPES_MESSAGE = 'HCL syntax: not an escape HCL has; a string takes `\\"`, `\\\\`, `\\n`, `\\r`, `\\t`, `\\uNNNN` and `\\UNNNNNNNN`';

function syntaxProblem(text: string, node: HclNode): DocumentProblem {
  const { startIndex: start, endIndex: end } = node;
  if (node.type === 'quoted_template_end' && node.isMissing && node.parent) {
    // A quoted string ends on its line: its closing quote is missing there, not where the
    // parser, which read on, noticed.
    const opening = node.parent.startIndex;
    const lineEnd = text.indexOf('\n', opening);
    const at = lineEnd === -1 ? text.length : text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    return { code: 'hcl-syntax', severity: 'error', message: 'HCL syntax: this string has no closing `"` on its line', start: opening, end: Math.max(at, opening + 1) };
  }
  // The grammar stops just before an escape it does not know, or on it.
  const backslash = node.type !== 'ERROR' ? -1 : text[start] === '\\' ? start : text[end] === '\\' ? end : -1;
  if (backslash !== -1) return { code: 'hcl-syntax', severity: 'error', message: HCL_ESCAPES_MESSAGE, start: backslash, end: Math.min(backslash + 2, text.length) };
  if (node.isMissing) {
    const expected = EXPECTED[node.type] ?? (node.isNamed ? `a ${node.type.replace(/_/g, ' ')}` : `\`${node.type}\``);
    return { code: 'hcl-syntax', severity: 'error', message: `HCL syntax: expected ${expected} here`, start, end: Math.max(end, Math.min(start + 1, text.length)) };
  }
  const found = text.slice(start, end).trim();
  // On the first line of what could not be read: the rest of a long ERROR is often sound.
  const lineEnd = text.indexOf('\n', start + 1);
  const shownEnd = lineEnd > start && lineEnd < end ? lineEnd : end;
  const shown = found.length === 0 ? 'the end of the file' : `\`${found.split(/\r?\n/)[0].slice(0, 40)}${found.length > 40 || /\n/.test(found) ? '…' : ''}\``;
  return { code: 'hcl-syntax', severity: 'error', message: `HCL syntax: unexpected ${shown}`, start, end: Math.max(shownEnd, Math.min(start + 1, text.length)) };
}
