/**
 * The two shapes of `cloudflare_ruleset`: provider v4's blocks (`rules { … }`,
 * `action_parameters { … }`, `headers { name = "X" … }`) and v5's attributes (`rules = [{ … }]`,
 * `action_parameters = { … }`, `headers = { "X" = { … } }`). Where the module's provider version
 * is known, the other shape is the error Terraform gives (hashicorp/hcl commit 2efc2662,
 * hclsyntax/structure.go Body.Content: "Unsupported block type" / "Unsupported argument", and
 * its did-you-mean from hclsyntax/didyoumean.go; ext/dynblock/expand_body.go for a `dynamic`
 * block); and this module writes a v4 resource in v5's
 * shape, as the provider's own migration does (cloudflare/terraform-provider-cloudflare v5.22.0,
 * internal/services/ruleset/migration/v500/transform.go): blocks become objects, or lists of
 * them where v5 takes a list; `headers` blocks a map by name; sets of field names lists of
 * `{ name = … }`; a cache key's query-string `include`/`exclude` `{ list = … }` (`["*"]`:
 * `{ all = true }`); a skip's `rules` map of comma-joined ids a map of lists; and the attributes
 * v5 removed (`disable_railgun`, `uri`'s `origin`) are left out.
 *
 * Under v4, a v5 resource is rewritten back into blocks the same way in reverse.
 *
 * The rewrite keeps each value's own text (re-indented, heredocs untouched) and the comments
 * between items, and gives up (no edit) where a resource is not plain enough to rewrite without
 * guessing: a `dynamic` block, a block v5 does not know, a syntax error.
 */
import { PROVIDER_V4, PROVIDER_V5 } from '../language/catalogue/generated/provider-schema';
import { providerAttribute, type ProviderAttribute } from '../language/catalogue/provider-schema';
import { eolOf, lineIndent, type DocumentEdit } from './host/index';
import { hclParser, type HclNode } from './host/index';
import type { DocumentFix, DocumentProblem } from './parsed-ruleset';
import type { ProviderMajor } from './provider-version';

const RESOURCE_TYPE = 'cloudflare_ruleset';

/** The title of the quick fix and of the refactoring that rewrites a resource into v5's shape. */
export function v5RewriteTitle(label: string): string {
  return `Rewrite \`${label}\` in provider v5's shape (\`rules = [{ … }]\`)`;
}

/**
 * What Terraform says of a resource written in the other version's shape: each `rules { … }`
 * block where the module's provider is v5, each attribute written where v4 takes a block (and
 * the reverse) where it is v4. A v5 finding carries the fix that rewrites the resource.
 */
export function providerShapeProblems(text: string, resource: HclNode, major: ProviderMajor | undefined, label: string): DocumentProblem[] {
  if (major === undefined) return [];
  const problems: DocumentProblem[] = [];
  if (major === 5) {
    const blocks = blocksOf(resource).filter((b) => nameOf(b) === 'rules' || (nameOf(b) === 'dynamic' && labelOf(b) === 'rules'));
    if (blocks.length === 0) return [];
    const edit = rewriteResourceToV5(text, resource);
    const fixes: DocumentFix[] = edit ? [{ title: v5RewriteTitle(label), edits: [edit] }] : [];
    const v5 = ' Provider v5 (as the module\'s `required_providers` or lock file selects) takes `rules = [{ … }]`, a list of objects.';
    for (const block of blocks) {
      // A `dynamic "rules"` block: hcl's ext/dynblock says it on the label, without a did-you-mean.
      const dynamic = nameOf(block) === 'dynamic';
      const at = dynamic ? block.namedChildren.find((c) => c?.type === 'string_lit')! : block.namedChildren[0]!;
      const message = `${dynamic ? 'Unsupported block type: Blocks of type "rules" are not expected here.' : unsupportedBlock('rules', PROVIDER_V5.attributes)}${v5}`;
      problems.push({ code: 'unsupported-block-type', severity: 'error', start: at.startIndex, end: at.endIndex, message, ...(fixes.length > 0 ? { fixes } : {}) });
    }
    return problems;
  }
  checkV4Body(resource, PROVIDER_V4.attributes, problems, true);
  // The resource's own `rules = [ … ]`: its finding carries the rewrite into v4's blocks.
  const key = attributesOf(resource).find((a) => a.namedChildren[0]?.text === 'rules')?.namedChildren[0];
  const list = key && problems.find((p) => p.code === 'unsupported-argument' && p.start === key.startIndex);
  const edit = list ? rewriteResourceToV4(text, resource) : undefined;
  if (!list || !edit) return problems;
  return problems.map((p) => (p === list ? { ...p, fixes: [{ title: v4RewriteTitle(label), edits: [edit] }] } : p));
}

/** Terraform's words for a block where the schema has none of that type. */
function unsupportedBlock(name: string, schema: readonly ProviderAttribute[]): string {
  const suggestion = nameSuggestion(name, schema.filter((a) => a.block).map((a) => a.name));
  const hint = suggestion ? ` Did you mean "${suggestion}"?` : schema.some((a) => !a.block && a.name === name) ? ` Did you mean to define argument "${name}"? If so, use the equals sign to assign it a value.` : '';
  return `Unsupported block type: Blocks of type "${name}" are not expected here.${hint}`;
}

/** Terraform's words for an argument where the schema has none of that name. */
function unsupportedArgument(name: string, schema: readonly ProviderAttribute[], defined: ReadonlySet<string>): string {
  const suggestion = nameSuggestion(name, schema.filter((a) => !a.block && !defined.has(a.name)).map((a) => a.name));
  const hint = suggestion ? ` Did you mean "${suggestion}"?` : schema.some((a) => a.block && a.name === name) ? ` Did you mean to define a block of type "${name}"?` : '';
  return `Unsupported argument: An argument named "${name}" is not expected here.${hint}`;
}

/**
 * Names earlier v4 releases took that v4.52.8's schema no longer has (v4.0.0,
 * internal/sdkv2provider/schema_cloudflare_ruleset.go): not unknown under a `~> 4.0` constraint.
 */
const EARLIER_V4_NAMES: ReadonlySet<string> = new Set(['version', 'last_updated', 'status', 'shareable_entitlement_name']);

/**
 * v4: an argument where the schema has a block of its name, and a block where it has an
 * argument, in the resource and the blocks inside it; and in the blocks inside a rule, a name
 * the schema does not have, as a warning with hclsyntax's did-you-mean (the resource's own body
 * also takes Terraform's meta-arguments, and is left alone).
 */
function checkV4Body(node: HclNode, schema: readonly ProviderAttribute[], problems: DocumentProblem[], top: boolean, label = 'resource'): void {
  const attributes = attributesOf(node);
  const defined = new Set(attributes.map((a) => a.namedChildren[0]?.text ?? ''));
  // A rule's own keys are checked as every ruleset's are (ruleset-shape.ts): the blocks inside it are v4's own.
  const names = !top && label !== '`rules`';
  for (const attribute of attributes) {
    const key = attribute.namedChildren[0]!;
    const known = providerAttribute(schema, key.text);
    if (known?.block) {
      const tail = top && key.text === 'rules' ? ' Provider v4 (as the module\'s `required_providers` or lock file selects) takes `rules { … }` blocks, one for each rule.' : '';
      problems.push({ code: 'unsupported-argument', severity: 'error', start: key.startIndex, end: key.endIndex, message: `${unsupportedArgument(key.text, schema, defined)}${tail}` });
    } else if (!known && names) unknownName(key, schema.filter((a) => !a.block && !a.computedOnly && !defined.has(a.name)), 'argument', label, problems);
  }
  for (const block of blocksOf(node)) {
    const name = nameOf(block);
    if (name === undefined || name === 'dynamic') continue;
    const known = providerAttribute(schema, name);
    const at = block.namedChildren[0]!;
    if (!known) {
      if (names) unknownName(at, schema.filter((a) => a.block), 'block type', label, problems);
    } else if (!known.block) {
      problems.push({ code: 'unsupported-block-type', severity: 'error', start: at.startIndex, end: at.endIndex, message: unsupportedBlock(name, schema) });
    } else checkV4Body(block, known.attributes ?? [], problems, false, `\`${name}\``);
  }
}

/** A name v4's schema does not have where it is written: a warning, with the name hclsyntax would suggest and a fix to it. */
function unknownName(key: HclNode, candidates: readonly ProviderAttribute[], what: 'argument' | 'block type', label: string, problems: DocumentProblem[]): void {
  if (EARLIER_V4_NAMES.has(key.text)) return;
  const suggestion = nameSuggestion(key.text, candidates.map((a) => a.name));
  const message = `provider v4 has no ${what} \`${key.text}\` in ${label === 'resource' ? 'the resource' : label}${suggestion ? `; did you mean \`${suggestion}\`?` : ''}`;
  const fixes: DocumentFix[] = suggestion ? [{ title: `Change to \`${suggestion}\``, edits: [{ start: key.startIndex, end: key.endIndex, newText: suggestion }] }] : [];
  problems.push({ code: 'unknown-key', severity: 'warning', start: key.startIndex, end: key.endIndex, message, ...(fixes.length > 0 ? { fixes } : {}) });
}

/** hclsyntax's nameSuggestion: the first name within a Levenshtein distance of 2. */
function nameSuggestion(given: string, names: readonly string[]): string | undefined {
  return names.find((name) => levenshtein(given, name) < 3);
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

// ---------------------------------------------------------------- the rewrite

/**
 * The `cloudflare_ruleset` resource around `offset` in a `.tf` text, if it has `rules { … }`
 * blocks and can be rewritten: its label and the edit that writes it in v5's shape.
 */
export function v5RewriteAt(text: string, offset: number): { label: string; edit: DocumentEdit } | undefined {
  const tree = hclParser()?.parse(text);
  if (!tree) return undefined;
  try {
    const resource = blocksOf(tree.rootNode).find((b) => b.startIndex <= offset && offset <= b.endIndex && nameOf(b) === 'resource' && labelsOf(b)[0] === RESOURCE_TYPE);
    if (!resource || !blocksOf(resource).some((b) => nameOf(b) === 'rules')) return undefined;
    const edit = rewriteResourceToV5(text, resource);
    return edit ? { label: `${RESOURCE_TYPE}.${labelsOf(resource)[1] ?? ''}`, edit } : undefined;
  } finally {
    tree.delete();
  }
}

/** One line of a body being written: an attribute (its value's text may span lines) or a comment. */
type Line = { readonly key: string; readonly value: string } | { readonly comment: string } | { readonly raw: string };

/** Gave up: the resource holds something this rewrite does not know how to write without guessing. */
class CannotRewrite extends Error {}

/**
 * The edit that replaces a resource's `rules { … }` blocks with one `rules = [ … ]` list, or
 * undefined when it cannot be done without guessing.
 */
export function rewriteResourceToV5(text: string, resource: HclNode): DocumentEdit | undefined {
  const items = itemsOf(resource);
  const rules = items.filter((n) => n.type === 'block' && nameOf(n) === 'rules');
  // A resource the parser could not read whole would lose what it could not place.
  if (resource.hasError || rules.length === 0 || items.some((n) => n.type === 'attribute' && n.namedChildren[0]?.text === 'rules') || hasDynamic(resource)) return undefined;
  const first = rules[0];
  const last = rules.at(-1)!;
  const indent = lineIndent(text, first.startIndex);
  const unit = indentUnit(text, first, indent);
  const eol = eolOf(text);
  const rulesSchema = providerAttribute(PROVIDER_V5.attributes, 'rules')?.attributes ?? [];
  const v4Rules = providerAttribute(PROVIDER_V4.attributes, 'rules')!.attributes ?? [];
  const writer = new Writer(text, eol, unit);
  try {
    // What stands between the first and the last rule and is not one goes before the list.
    const between = items.filter((n) => n.startIndex > first.startIndex && n.endIndex < last.endIndex && !rules.includes(n));
    const before = between.map((n) => `${text.slice(n.startIndex, n.endIndex)}${eol}${indent}`).join('');
    const parts: string[] = [];
    rules.forEach((rule, i) => {
      for (const comment of i === 0 ? [] : commentsBetween(text, rules[i - 1].endIndex, rule.startIndex)) parts.push(`${indent}${unit}${comment}`);
      const lines = writer.body(rule, v4Rules, rulesSchema, `${indent}${unit}${unit}`);
      parts.push(`${indent}${unit}{${eol}${writer.render(lines, `${indent}${unit}${unit}`)}${indent}${unit}}${i < rules.length - 1 ? ',' : ''}`);
    });
    return { start: first.startIndex, end: last.endIndex, newText: `${before}rules = [${eol}${parts.join(eol)}${eol}${indent}]` };
  } catch (error) {
    if (error instanceof CannotRewrite) return undefined;
    throw error;
  }
}

class Writer {
  constructor(
    private readonly text: string,
    private readonly eol: string,
    private readonly unit: string,
  ) {}

  /** The lines of a v4 block's body written as a v5 object's, at `indent`. */
  body(block: HclNode, v4: readonly ProviderAttribute[], v5: readonly ProviderAttribute[], indent: string, leaveOut?: string): Line[] {
    const lines: Line[] = [];
    const items = itemsOf(block);
    const bodyStart = block.namedChildren.find((c) => c?.type === 'block_start')?.endIndex ?? block.startIndex;
    let previousEnd = bodyStart;
    const groups = new Map<string, HclNode[]>();
    for (const item of items) if (item.type === 'block') groups.set(nameOf(item) ?? '', [...(groups.get(nameOf(item) ?? '') ?? []), item]);
    for (const item of items) {
      for (const comment of commentsBetween(this.text, previousEnd, item.startIndex)) lines.push({ comment });
      previousEnd = item.endIndex;
      if (item.type === 'attribute') {
        const name = item.namedChildren[0]!.text;
        if (name === leaveOut) continue;
        const target = providerAttribute(v5, name);
        // A name v4 had and v5 removed (`disable_railgun`) is left out, as the provider's migration does.
        if (!target && providerAttribute(v4, name)) continue;
        lines.push({ key: name, value: this.attributeValue(item, providerAttribute(v4, name), target, indent) });
        continue;
      }
      const name = nameOf(item);
      const group = name === undefined ? undefined : groups.get(name);
      if (!group || group[0] !== item) continue;
      const target = providerAttribute(v5, name!);
      const source = providerAttribute(v4, name!);
      if (!target?.attributes || !source?.attributes) throw new CannotRewrite();
      lines.push({ key: name!, value: this.blocks(group, source.attributes, target, indent) });
    }
    const closing = block.namedChildren.find((c) => c?.type === 'block_end')?.startIndex ?? block.endIndex;
    for (const comment of commentsBetween(this.text, previousEnd, closing)) lines.push({ comment });
    return lines;
  }

  /** Blocks of one name as v5's value: an object, a list of objects, or (`headers`) a map of them by their `name`. */
  private blocks(group: readonly HclNode[], v4: readonly ProviderAttribute[], target: ProviderAttribute, indent: string): string {
    const inner = `${indent}${this.unit}`;
    const eol = this.eol;
    if (target.nesting === 'single') {
      if (group.length !== 1) throw new CannotRewrite();
      return `{${eol}${this.render(this.body(group[0], v4, target.attributes!, inner), inner)}${indent}}`;
    }
    if (target.nesting === 'map') {
      const entries = group.map((block) => {
        const nameAttribute = attributesOf(block).find((a) => a.namedChildren[0]?.text === 'name');
        const nameValue = nameAttribute?.namedChildren[1];
        if (!nameValue) throw new CannotRewrite();
        const written = this.text.slice(nameValue.startIndex, nameValue.endIndex);
        const key = isPlainString(nameValue) ? written : `(${written})`;
        const deeper = `${inner}${this.unit}`;
        return `${inner}${key} = {${eol}${this.render(this.body(block, v4, target.attributes!, deeper, 'name'), deeper)}${inner}}`;
      });
      return `{${eol}${entries.join(eol)}${eol}${indent}}`;
    }
    const deeper = `${inner}${this.unit}`;
    const items = group.map((block) => `${inner}{${eol}${this.render(this.body(block, v4, target.attributes!, deeper), deeper)}${inner}}`);
    return `[${eol}${items.join(`,${eol}`)}${eol}${indent}]`;
  }

  /** An attribute's value in v5: its own text, but where v5 changed the value's shape. */
  private attributeValue(attribute: HclNode, source: ProviderAttribute | undefined, target: ProviderAttribute | undefined, indent: string): string {
    const value = attribute.namedChildren[1]!;
    const written = reindent(this.text, value, lineIndent(this.text, attribute.startIndex), indent);
    if (!source || !target) return written;
    const strings = stringItems(this.text, value);
    // v4's set of field names, v5's list of `{ name = … }` (cookie_fields, request_fields, response_fields).
    if ((source.type === 'set' || source.type === 'list') && target.nesting === 'list' && providerAttribute(target.attributes, 'name')) {
      if (!strings) return `[for name in ${written} : { name = name }]`;
      if (strings.length === 0) return '[]';
      const inner = `${indent}${this.unit}`;
      return `[${this.eol}${strings.map((s) => `${inner}{ name = ${s} }`).join(`,${this.eol}`)}${this.eol}${indent}]`;
    }
    // A cache key's query-string `include`/`exclude`: v4's set of names, v5's `{ list = … }`, `["*"]` being `{ all = true }`.
    if (source.type === 'set' && target.nesting === 'single' && providerAttribute(target.attributes, 'list')) {
      if (strings?.length === 1 && strings[0] === '"*"') return '{ all = true }';
      return `{ list = ${written} }`;
    }
    // A skip's `rules`: v4's comma-joined rule ids by ruleset id, v5's lists of them.
    if (source.type === 'map' && target.type === 'map' && attribute.namedChildren[0]!.text === 'rules') return this.ruleIdLists(value, written, indent);
    return written;
  }

  private ruleIdLists(value: HclNode, written: string, indent: string): string {
    const object = value.namedChildren[0]?.type === 'collection_value' ? value.namedChildren[0].namedChildren[0] : undefined;
    if (object?.type !== 'object') return `{ for id, rules in ${written} : id => split(",", rules) }`;
    const inner = `${indent}${this.unit}`;
    const entries = object.namedChildren.filter((e): e is HclNode => e?.type === 'object_elem').map((element) => {
      const key = element.namedChildren[0]!;
      const ids = element.namedChildren[1]!;
      const text = this.text.slice(ids.startIndex, ids.endIndex);
      const list = isPlainString(ids) ? `[${text.slice(1, -1).split(',').map((id) => id.trim()).filter((id) => id !== '').map((id) => `"${id}"`).join(', ')}]` : `split(",", ${text})`;
      return `${inner}${this.text.slice(key.startIndex, key.endIndex)} = ${list}`;
    });
    return entries.length === 0 ? '{}' : `{${this.eol}${entries.join(this.eol)}${this.eol}${indent}}`;
  }

  /** The lines of a v5 object written as a v4 block's body, at `indent`: objects v4 takes as blocks become blocks. */
  objectBody(object: HclNode, v5: readonly ProviderAttribute[], v4: readonly ProviderAttribute[], indent: string, first?: Line): Line[] {
    const lines: Line[] = first ? [first] : [];
    let previousEnd = object.namedChildren.find((c) => c?.type === 'object_start')?.endIndex ?? object.startIndex;
    for (const element of object.namedChildren) {
      if (element?.type !== 'object_elem') continue;
      for (const comment of commentsBetween(this.text, previousEnd, element.startIndex)) lines.push({ comment });
      previousEnd = element.endIndex;
      const name = elementName(element);
      const value = element.namedChildren[1];
      const source = name === undefined ? undefined : providerAttribute(v5, name);
      const target = name === undefined ? undefined : providerAttribute(v4, name);
      // A name v4 does not have (new in v5, or not the provider's at all) cannot be written there.
      if (name === undefined || !value || !target) throw new CannotRewrite();
      if (!target.block) {
        lines.push({ key: name, value: this.v4Value(element, value, source, target, indent) });
        continue;
      }
      const inner = `${indent}${this.unit}`;
      const block = (body: Line[]): Line => ({ raw: `${indent}${name} {${this.eol}${this.render(body, inner)}${indent}}` });
      if (source?.nesting === 'map') {
        const map = collectionOf(value, 'object');
        if (!map) throw new CannotRewrite();
        for (const entry of map.namedChildren) {
          if (entry?.type !== 'object_elem') continue;
          const key = entry.namedChildren[0]!;
          const keyNode = key.namedChildren[0];
          // `X = …` is the string "X"; `(expr) = …` the expression's value.
          const keyText = keyNode?.type === 'variable_expr' ? JSON.stringify(keyNode.text) : this.text.slice(key.startIndex, key.endIndex).replace(/^\((.*)\)$/s, '$1');
          const body = collectionOf(entry.namedChildren[1], 'object');
          if (!body) throw new CannotRewrite();
          lines.push(block(this.objectBody(body, source.attributes ?? [], target.attributes ?? [], inner, { key: 'name', value: keyText })));
        }
      } else if (source?.nesting === 'list' || source?.nesting === 'set') {
        const items = collectionOf(value, 'tuple');
        if (!items) throw new CannotRewrite();
        for (const item of items.namedChildren) {
          if (item?.type !== 'expression') continue;
          const body = collectionOf(item, 'object');
          if (!body) throw new CannotRewrite();
          lines.push(block(this.objectBody(body, source.attributes ?? [], target.attributes ?? [], inner)));
        }
      } else {
        const body = collectionOf(value, 'object');
        if (!body) throw new CannotRewrite();
        lines.push(block(this.objectBody(body, source?.attributes ?? [], target.attributes ?? [], inner)));
      }
    }
    const closing = object.namedChildren.find((c) => c?.type === 'object_end')?.startIndex ?? object.endIndex;
    for (const comment of commentsBetween(this.text, previousEnd, closing)) lines.push({ comment });
    return lines;
  }

  /** A v5 attribute's value as v4 takes it: its own text, but where v4's value has another shape. */
  private v4Value(element: HclNode, value: HclNode, source: ProviderAttribute | undefined, target: ProviderAttribute, indent: string): string {
    const written = reindent(this.text, value, lineIndent(this.text, element.startIndex), indent);
    if (!source) return written;
    // v5's list of `{ name = … }` (log custom fields), v4's set of names.
    if (source.nesting === 'list' && (target.type === 'set' || target.type === 'list') && providerAttribute(source.attributes, 'name')) {
      const items = collectionOf(value, 'tuple');
      if (!items) throw new CannotRewrite();
      const names = items.namedChildren.filter((c): c is HclNode => c?.type === 'expression').map((item) => {
        const object = collectionOf(item, 'object');
        const elements = object?.namedChildren.filter((c): c is HclNode => c?.type === 'object_elem') ?? [];
        if (elements.length !== 1 || elementName(elements[0]) !== 'name') throw new CannotRewrite();
        const v = elements[0].namedChildren[1]!;
        return this.text.slice(v.startIndex, v.endIndex);
      });
      return `[${names.join(', ')}]`;
    }
    // A cache key's query string: `{ list = … }` is v4's set, `{ all = true }` its `["*"]`.
    if (source.nesting === 'single' && target.type === 'set' && providerAttribute(source.attributes, 'list')) {
      const object = collectionOf(value, 'object');
      const elements = object?.namedChildren.filter((c): c is HclNode => c?.type === 'object_elem') ?? [];
      if (elements.length !== 1) throw new CannotRewrite();
      const v = elements[0].namedChildren[1]!;
      const vText = this.text.slice(v.startIndex, v.endIndex);
      if (elementName(elements[0]) === 'all' && vText === 'true') return '["*"]';
      if (elementName(elements[0]) === 'list') return vText;
      throw new CannotRewrite();
    }
    // A skip's `rules`: v5's lists of rule ids, v4's comma-joined.
    if (source.type === 'map' && target.type === 'map' && elementName(element) === 'rules') {
      const map = collectionOf(value, 'object');
      if (!map) throw new CannotRewrite();
      const entries = map.namedChildren.filter((c): c is HclNode => c?.type === 'object_elem').map((entry) => {
        const key = entry.namedChildren[0]!;
        const ids = entry.namedChildren[1]!;
        const strings = stringItems(this.text, ids);
        const joined = strings ? `"${strings.map((s) => s.slice(1, -1)).join(',')}"` : `join(",", ${this.text.slice(ids.startIndex, ids.endIndex)})`;
        return `${indent}${this.unit}${this.text.slice(key.startIndex, key.endIndex)} = ${joined}`;
      });
      return entries.length === 0 ? '{}' : `{${this.eol}${entries.join(this.eol)}${this.eol}${indent}}`;
    }
    return written;
  }

  /** Lines at `indent`, each run of one-line attributes with its `=` aligned, as `terraform fmt` writes them. */
  render(lines: readonly Line[], indent: string): string {
    let out = '';
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if ('comment' in line) {
        out += `${indent}${line.comment}${this.eol}`;
        i++;
        continue;
      }
      if ('raw' in line) {
        out += `${line.raw}${this.eol}`;
        i++;
        continue;
      }
      let j = i;
      while (j < lines.length && 'key' in lines[j] && !(lines[j] as { value: string }).value.includes('\n')) j++;
      if (j === i) {
        out += `${indent}${line.key} = ${line.value}${this.eol}`;
        i++;
        continue;
      }
      const run = lines.slice(i, j) as { key: string; value: string }[];
      const width = Math.max(...run.map((l) => l.key.length));
      for (const l of run) out += `${indent}${l.key.padEnd(width)} = ${l.value}${this.eol}`;
      i = j;
    }
    return out;
  }
}

// ---------------------------------------------------------------- back to v4

/** The title of the quick fix that writes a v5 resource in v4's blocks. */
export function v4RewriteTitle(label: string): string {
  return `Rewrite \`${label}\` in provider v4's shape (\`rules { … }\` blocks)`;
}

/**
 * The edit that replaces a resource's `rules = [{ … }, …]` list with `rules { … }` blocks, or
 * undefined when it cannot be done without guessing: a list or object Terraform computes, a name
 * v4 does not have (one new in v5), a syntax error.
 */
export function rewriteResourceToV4(text: string, resource: HclNode): DocumentEdit | undefined {
  const items = itemsOf(resource);
  const list = items.find((n) => n.type === 'attribute' && n.namedChildren[0]?.text === 'rules');
  if (resource.hasError || !list || items.some((n) => n.type === 'block' && (nameOf(n) === 'rules' || (nameOf(n) === 'dynamic' && labelOf(n) === 'rules')))) return undefined;
  const tuple = collectionOf(list.namedChildren[1], 'tuple');
  if (!tuple) return undefined;
  const indent = lineIndent(text, list.startIndex);
  const eol = eolOf(text);
  const objects = tuple.namedChildren.filter((c): c is HclNode => c?.type === 'expression');
  const firstObject = objects.map((o) => collectionOf(o, 'object')).find((o) => o !== undefined);
  const firstElement = firstObject?.namedChildren.find((c) => c?.type === 'object_elem');
  const inner = firstElement ? lineIndent(text, firstElement.startIndex) : '';
  const unit = inner.length > indent.length && inner.startsWith(indent) ? inner.slice(indent.length, indent.length + Math.max(1, Math.floor((inner.length - indent.length) / 2))) : '  ';
  const writer = new Writer(text, eol, unit);
  const v4Rules = providerAttribute(PROVIDER_V4.attributes, 'rules')!.attributes ?? [];
  const v5Rules = providerAttribute(PROVIDER_V5.attributes, 'rules')!.attributes ?? [];
  try {
    const blocks = objects.map((expression, i) => {
      const object = collectionOf(expression, 'object');
      if (!object) throw new CannotRewrite();
      // The comments between two rules of the list stand before the second one's block.
      const comments = i === 0 ? [] : commentsBetween(text, objects[i - 1].endIndex, expression.startIndex);
      return `${comments.map((c) => `${c}${eol}${indent}`).join('')}rules {${eol}${writer.render(writer.objectBody(object, v5Rules, v4Rules, `${indent}${unit}`), `${indent}${unit}`)}${indent}}`;
    });
    return { start: list.startIndex, end: list.endIndex, newText: blocks.join(`${eol}${eol}${indent}`) };
  } catch (error) {
    if (error instanceof CannotRewrite) return undefined;
    throw error;
  }
}

/** The tuple or object literal an expression is, if it is one. */
function collectionOf(expression: HclNode | null | undefined, type: 'tuple' | 'object'): HclNode | undefined {
  const collection = expression?.type === 'expression' && expression.namedChildCount === 1 ? expression.namedChildren[0] : undefined;
  const literal = collection?.type === 'collection_value' ? collection.namedChildren[0] : undefined;
  return literal?.type === type ? literal : undefined;
}

/** An object element's key as a name: `action` or `"action"`. */
function elementName(element: HclNode): string | undefined {
  const key = element.namedChildren[0];
  const node = key?.type === 'expression' && key.namedChildCount === 1 ? key.namedChildren[0] : undefined;
  if (node?.type === 'variable_expr') return node.text;
  if (node && isPlainString(key!)) return node.text.slice(1, -1);
  return undefined;
}

/** The items of a tuple of plain strings, as written (`"a"`), or undefined for any other value. */
function stringItems(text: string, value: HclNode): string[] | undefined {
  const tuple = value.namedChildren[0]?.type === 'collection_value' ? value.namedChildren[0].namedChildren[0] : undefined;
  if (tuple?.type !== 'tuple') return undefined;
  const items = tuple.namedChildren.filter((c): c is HclNode => c?.type === 'expression');
  if (!items.every(isPlainString)) return undefined;
  return items.map((i) => text.slice(i.startIndex, i.endIndex));
}

/** A quoted string without interpolation: its text is a valid object key as it is. */
function isPlainString(expression: HclNode): boolean {
  const literal = expression.namedChildren[0];
  const string = literal?.type === 'literal_value' ? literal.namedChildren[0] : literal?.type === 'template_expr' ? literal.namedChildren[0] : undefined;
  return (string?.type === 'string_lit' || string?.type === 'quoted_template') && !string.namedChildren.some((c) => c?.type === 'template_interpolation' || c?.type === 'template_directive');
}

/** A value's text with its later lines moved from `from` indentation to `to`; a heredoc's lines are left as they are. */
function reindent(text: string, node: HclNode, from: string, to: string): string {
  const written = text.slice(node.startIndex, node.endIndex);
  if (!written.includes('\n') || from === to) return written;
  const heredocs = descendants(node, 'heredoc_template').map((h) => [h.startIndex - node.startIndex, h.endIndex - node.startIndex] as const);
  let out = '';
  let at = 0;
  for (const line of written.split('\n')) {
    const inHeredoc = at > 0 && heredocs.some(([s, e]) => at > s && at <= e);
    let moved = line;
    if (at > 0 && !inHeredoc && line.trim() !== '') moved = line.startsWith(from) ? `${to}${line.slice(from.length)}` : line;
    out += (at > 0 ? '\n' : '') + moved;
    at += line.length + 1;
  }
  return out;
}

function descendants(node: HclNode, type: string): HclNode[] {
  const found: HclNode[] = [];
  const pending = [node];
  while (pending.length > 0) {
    const n = pending.pop()!;
    if (n.type === type) found.push(n);
    for (const c of n.namedChildren) if (c) pending.push(c);
  }
  return found;
}

/** The comments in the text between two items (only blanks and comments are there), each as written. */
function commentsBetween(text: string, start: number, end: number): string[] {
  if (end <= start) return [];
  const gap = text.slice(start, end);
  const found: string[] = [];
  const pattern = /#[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  for (const m of gap.matchAll(pattern)) found.push(m[0].replace(/\r$/, ''));
  return found;
}

/** The file's unit of indentation: what a rule block's first item adds to the block's own, else two spaces. */
function indentUnit(text: string, block: HclNode, indent: string): string {
  const first = itemsOf(block)[0];
  if (!first) return '  ';
  const inner = lineIndent(text, first.startIndex);
  return inner.startsWith(indent) && inner.length > indent.length ? inner.slice(indent.length) : '  ';
}

function hasDynamic(resource: HclNode): boolean {
  return descendants(resource, 'block').some((b) => nameOf(b) === 'dynamic');
}

function bodyOf(node: HclNode): HclNode | undefined {
  return node.namedChildren.find((c): c is HclNode => c?.type === 'body');
}

function itemsOf(node: HclNode): HclNode[] {
  return (bodyOf(node)?.namedChildren ?? []).filter((c): c is HclNode => c?.type === 'attribute' || c?.type === 'block');
}

function blocksOf(node: HclNode): HclNode[] {
  return itemsOf(node).filter((c) => c.type === 'block');
}

function attributesOf(node: HclNode): HclNode[] {
  return itemsOf(node).filter((c) => c.type === 'attribute');
}

function nameOf(block: HclNode): string | undefined {
  const first = block.namedChildren[0];
  return first?.type === 'identifier' ? first.text : undefined;
}

function labelsOf(block: HclNode): string[] {
  return block.namedChildren.filter((c): c is HclNode => c?.type === 'string_lit').map((c) => c.text.slice(1, -1));
}

function labelOf(block: HclNode): string | undefined {
  return labelsOf(block)[0];
}
