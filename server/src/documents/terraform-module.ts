/**
 * A Terraform module as terraform-eval.ts evaluates it: its `.tf` files' variables (with their
 * defaults, overridden by `terraform.tfvars`, `terraform.tfvars.json` and `*.auto.tfvars(.json)`
 * in lexical order, Terraform's precedence), locals, local sub-modules (`source = "./…"`), and
 * the `cloudflare_ruleset` resources that use them, with `count`, `for_each`, v4 `rules` blocks
 * and `dynamic "rules"` blocks expanded. What comes out is, for every resource, its phase and
 * its rules as values whose strings know where each character is written: terraform.ts then
 * checks each expression in the files where it is written.
 *
 * Files are read through a TerraformModuleReader (the CLI's reads the disk, the language server's
 * its open documents first), so this module reads nothing itself.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { hclParser, type HclNode, type HclTree } from './host/index';
import { parseHost, type HostNode } from './host/index';
import { lineNumber } from './positions';
import { convertValue, typeConstraint } from './terraform-constraints';
import { Budget, Evaluator, iterate, type EvalFile, type ModuleContext, type Scope } from './terraform-eval';
import { ERROR, isUnsure, list, NULL, num, object, UNKNOWN, written, type ObjectValue, type Value } from './terraform-values';

/** Reads a module's files: the CLI's from the disk, the language server's from its open documents first. */
export interface TerraformModuleReader {
  /** The file names (not paths) in a folder, or undefined when it cannot be read. */
  listFiles(folder: string): readonly string[] | undefined;
  /** A file's text, or undefined when it cannot be read. */
  readFile(path: string): string | undefined;
}

/** The module a `.tf` or `.tfvars` document belongs to: its path, and how to read the others. */
export interface TerraformModule {
  readonly path: string;
  readonly reader: TerraformModuleReader;
  /** `.tfvars` files given to Terraform as `-var-file` (`.rulesets.yaml`'s `terraform.var_files`), relative to the module's folder, in order. */
  readonly varFiles?: readonly string[];
  /** Values of the root module's variables given from outside, over every other (Terraform's `-var`; a test file's `variables:`). */
  readonly variables?: ReadonlyMap<string, Value>;
}

/** A `cloudflare_ruleset` resource (one instance of it) with its values evaluated. */
export interface UsingResource {
  /** `cloudflare_ruleset.waf`, `cloudflare_ruleset.waf["a"]`, `module.edge.cloudflare_ruleset.waf`. */
  readonly address: string;
  /** Where it is written: its file (a path) and its first line (from 1). */
  readonly file: string;
  readonly line: number;
  readonly phase?: string;
  /** The rules, in the API's shape (v5) or the provider's v4 block shapes. */
  readonly rules: readonly Value[];
  readonly v4: boolean;
}

export interface ModuleValues {
  readonly folder: string;
  readonly resources: readonly UsingResource[];
  /** The root module's names: what a value left unknown may need (`rulesets test` names it). */
  readonly names?: ModuleNames;
}

/** A module's variables and locals as names, with what each local's expression refers to. */
export interface ModuleNames {
  /** The variables it declares. */
  readonly variables: readonly string[];
  /** Those that have no value: no default, no `.tfvars` value, none given. */
  readonly unknown: readonly string[];
  /** `local.NAME` → the `var.X` and `local.Y` its expression refers to. */
  readonly localUses: ReadonlyMap<string, readonly string[]>;
}

/** The `var.X` and `local.Y` written in a text (a resource's rules, a local's expression). */
export function referencedNames(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(/\b(?:var|local)\.[A-Za-z_][\w-]*/g), (m) => m[0]))];
}

const MODULE_FILE = /\.(tf|tfvars|tfvars\.json)$/i;
const MAX_MODULE_DEPTH = 4;
/** Instances of one module call (`count`, `for_each`) followed at most: each evaluates the module again. */
const MAX_MODULE_INSTANCES = 16;
const MAX_FILES = 200;

/**
 * The evaluated module last asked for, with everything it read (the folders' listings and the
 * files' texts, its sub-modules' too): kept while all of them read the same, so that checking
 * each file of a folder evaluates it once, and an edit anywhere in it evaluates it again.
 */
let last: { folder: string; values: ModuleValues; listings: Map<string, string>; texts: Map<string, string | undefined>; varFiles: string } | undefined;

/** A reader that records what it answers, for the cache's check. */
function recording(reader: TerraformModuleReader, listings: Map<string, string>, texts: Map<string, string | undefined>): TerraformModuleReader {
  return {
    listFiles: (folder) => {
      const names = reader.listFiles(folder);
      listings.set(folder, names ? [...names].sort().join('\u0000') : '\u0001');
      return names;
    },
    readFile: (path) => {
      const text = reader.readFile(path);
      texts.set(path, text);
      return text;
    },
  };
}

function stillRead(reader: TerraformModuleReader, ownPath: string, ownText: string): boolean {
  if (!last) return false;
  for (const [folder, listing] of last.listings) {
    const names = reader.listFiles(folder);
    if ((names ? [...names].sort().join('\u0000') : '\u0001') !== listing) return false;
  }
  for (const [path, text] of last.texts) if ((path === ownPath ? ownText : reader.readFile(path)) !== text) return false;
  return last.texts.has(ownPath);
}

/**
 * The resources of the module holding `module.path`, whose own text is `text` (an editor's
 * unsaved version). Undefined when the parser is not loaded or the folder cannot be read.
 */
export function evaluateModule(module: TerraformModule, text: string, root?: HclNode): ModuleValues | undefined {
  const folder = dirname(resolve(module.path));
  const ownPath = resolve(module.path);
  const given = module.variables !== undefined && module.variables.size > 0;
  if (!given && last?.folder === folder && last.varFiles === (module.varFiles ?? []).map((name) => resolve(folder, name)).filter((path) => /\.tfvars(\.json)?$/i.test(path)).join('\u0000') && stillRead(module.reader, ownPath, text)) return last.values;
  const listings = new Map<string, string>();
  const texts = new Map<string, string | undefined>([[ownPath, text]]);
  const reader = recording(module.reader, listings, texts);
  const files = readModuleTexts(folder, reader, ownPath, text);
  if (!files) return undefined;
  // The var files named, read whether or not the folder lists them (`envs/prod.tfvars`).
  const varFiles = (module.varFiles ?? []).map((name) => resolve(folder, name)).filter((path) => /\.tfvars(\.json)?$/i.test(path));
  for (const path of varFiles) {
    if (files.some((f) => f.path === path)) continue;
    const varText = path === ownPath ? text : reader.readFile(path);
    if (varText !== undefined) files.push({ path, text: varText });
  }
  const own = root ? { path: ownPath, root } : undefined;
  const values = new ModuleLoader(reader, own, varFiles).load(folder, files, module.variables ?? new Map(), 0, '', new Set());
  // Values over variables given from outside are not what the module's files alone say.
  if (given) return values;
  last = { folder, values, listings, texts, varFiles: varFiles.join('\u0000') };
  return values;
}

function readModuleTexts(folder: string, reader: TerraformModuleReader, ownPath?: string, ownText?: string): EvalFile[] | undefined {
  const names = reader.listFiles(folder);
  if (!names) return undefined;
  const files: EvalFile[] = [];
  for (const name of [...names].filter((n) => MODULE_FILE.test(n)).sort().slice(0, MAX_FILES)) {
    const path = join(folder, name);
    const text = path === ownPath ? ownText : reader.readFile(path);
    if (text !== undefined) files.push({ path, text });
  }
  if (ownPath !== undefined && ownText !== undefined && !files.some((f) => f.path === ownPath)) files.push({ path: ownPath, text: ownText });
  return files;
}

interface ParsedFile extends EvalFile {
  readonly root: HclNode;
}

/**
 * A module file's tree for evaluation (`own`: the document's, already parsed). tree-sitter-hcl
 * reads a number with an exponent but no fraction (`1e3`, `2e+10`, which Terraform reads as
 * numbers) as a number and then a name, and the tree around it goes wrong (the next attribute is
 * lost): such a file is parsed again with each of those numbers written as digits of the same
 * length, and its numbers' true values kept by where they start (EvalFile.numbers).
 */
function parseForEvaluation(parser: NonNullable<ReturnType<typeof hclParser>>, file: EvalFile, own?: HclNode): { file: ParsedFile; tree?: HclTree } | undefined {
  let tree = own ? undefined : parser.parse(file.text) ?? undefined;
  const root = own ?? tree?.rootNode;
  if (!root) return undefined;
  if (!/\d[eE][-+]?\d/.test(file.text)) return { file: { ...file, root }, tree };
  const numbers = new Map<number, number>();
  const parts: string[] = [];
  let at = 0;
  for (const node of root.descendantsOfType('numeric_lit')) {
    if (!node || !/^\d+$/.test(node.text) || node.startIndex < at) continue;
    const exponent = /^[eE][-+]?\d+/.exec(file.text.slice(node.endIndex, node.endIndex + 16));
    if (!exponent) continue;
    const literal = node.text + exponent[0];
    numbers.set(node.startIndex, Number(literal));
    parts.push(file.text.slice(at, node.startIndex), '1'.padEnd(literal.length, '0'));
    at = node.startIndex + literal.length;
  }
  if (numbers.size === 0) return { file: { ...file, root }, tree };
  tree?.delete();
  parts.push(file.text.slice(at));
  tree = parser.parse(parts.join('')) ?? undefined;
  return tree ? { file: { ...file, root: tree.rootNode, numbers }, tree } : undefined;
}

class ModuleLoader {
  constructor(
    private readonly reader: TerraformModuleReader,
    /** The document's own file, already parsed by its reader (terraform.ts): not parsed again. */
    private readonly own?: { readonly path: string; readonly root: HclNode },
    /** The root module's `-var-file`s, by path, in order. */
    private readonly varFiles: readonly string[] = [],
  ) {}

  load(folder: string, files: readonly EvalFile[], inputs: ReadonlyMap<string, Value>, depth: number, prefix: string, visiting: Set<string>): ModuleValues {
    const parser = hclParser();
    if (!parser) return { folder, resources: [] };
    const trees: HclTree[] = [];
    visiting.add(folder);
    try {
      const parsed: ParsedFile[] = [];
      const jsonVars: EvalFile[] = [];
      for (const file of files) {
        if (/\.json$/i.test(file.path)) {
          jsonVars.push(file);
          continue;
        }
        const own = this.own && file.path === this.own.path ? this.own.root : undefined;
        const read = parseForEvaluation(parser, file, own);
        if (!read) continue;
        if (read.tree) trees.push(read.tree);
        parsed.push(read.file);
      }
      const module = new ModuleScope(folder, parsed, jsonVars, inputs, this.reader, depth === 0 ? this.varFiles : []);
      const resources: UsingResource[] = [];
      for (const file of parsed) {
        if (/\.tfvars$/i.test(file.path)) continue;
        for (const block of topBlocks(file.root)) {
          const kind = blockName(block);
          const labels = blockLabels(block);
          if (kind === 'resource' && labels[0] === 'cloudflare_ruleset' && labels.length === 2) resources.push(...module.resource(block, file, `${prefix}cloudflare_ruleset.${labels[1]}`));
          else if (kind === 'module' && labels.length === 1 && depth < MAX_MODULE_DEPTH) resources.push(...this.subModule(module, block, file, depth, `${prefix}module.${labels[0]}.`, visiting));
        }
      }
      return { folder, resources, ...(depth === 0 ? { names: module.names() } : {}) };
    } finally {
      for (const tree of trees) tree.delete();
      visiting.delete(folder);
    }
  }

  /** A `module "x" { source = "./sub" … }`: its resources, with its variables given by the arguments. */
  private subModule(caller: ModuleScope, block: HclNode, file: ParsedFile, depth: number, prefix: string, visiting: Set<string>): UsingResource[] {
    const attributes = bodyAttributes(block);
    const source = attributes.get('source');
    const scope: Scope = { file, names: new Map() };
    const sourceValue = source ? caller.evaluator.evaluate(source, scope) : UNKNOWN;
    if (sourceValue.kind !== 'string' || !/^\.\.?\//.test(sourceValue.value)) return [];
    const folder = resolve(caller.folder, sourceValue.value);
    if (visiting.has(folder)) return [];
    // `count` and `for_each` make instances (`module.waf[0]`), each given its arguments with
    // `count.index` or `each` bound; a few only, as each evaluates the module again.
    const instances = caller.instances(attributes, file, MAX_MODULE_INSTANCES);
    if (!instances) return [];
    const texts = readModuleTexts(folder, this.reader);
    if (!texts) return [];
    const resources: UsingResource[] = [];
    for (const instance of instances) {
      const inputs = new Map<string, Value>();
      for (const [name, expression] of attributes) {
        if (META_ARGUMENTS.has(name)) continue;
        inputs.set(name, caller.evaluator.evaluate(expression, { file, names: instance.names }));
      }
      // `module.waf.` becomes `module.waf[0].`.
      const named = instance.suffix ? `${prefix.slice(0, -1)}${instance.suffix}.` : prefix;
      // A sub-module's own `.tfvars` files are not read by Terraform.
      resources.push(...this.load(folder, texts.filter((f) => /\.tf$/i.test(f.path)), inputs, depth + 1, named, visiting).resources);
    }
    return resources;
  }
}

/** The nodes by which an expression uses a value other than its own literals. */
const VALUE_USES = ['variable_expr', 'function_call', 'for_expr', 'template_interpolation', 'template_directive'];

/**
 * The places under `node` where a value is used, but for an object's keys (`{ action = … }`: a
 * bare name before `=` or `:` is the key itself, not a variable).
 */
function valueUses(node: HclNode, text: string): HclNode[] {
  return node.descendantsOfType(VALUE_USES).filter((use): use is HclNode => {
    if (!use) return false;
    if (use.type !== 'variable_expr') return true;
    let i = use.endIndex;
    while (text[i] === ' ' || text[i] === '\t') i++;
    const next = text[i + 1];
    return !((text[i] === '=' && next !== '=' && next !== '>') || text[i] === ':');
  });
}

/** A `rules = [ … ]` list written out, its items in the file. */
function writtenTuple(expression: HclNode): HclNode | undefined {
  if (expression.namedChildren.length !== 1) return undefined;
  const collection = expression.namedChildren[0];
  const tuple = collection?.type === 'collection_value' ? collection.namedChildren[0] : undefined;
  return tuple?.type === 'tuple' ? tuple : undefined;
}

const META_ARGUMENTS = new Set(['source', 'version', 'count', 'for_each', 'providers', 'depends_on']);

/** A module's names: its variables and locals, evaluated lazily, each once; a cycle is unknown. */
class ModuleScope implements ModuleContext {
  readonly evaluator: Evaluator;
  private readonly variables = new Map<string, { file: ParsedFile; block: HclNode }>();
  private readonly localDefinitions = new Map<string, { file: ParsedFile; expression: HclNode }>();
  private readonly tfvars = new Map<string, () => Value>();
  private readonly values = new Map<string, Value>();
  private readonly evaluating = new Set<string>();

  constructor(
    readonly folder: string,
    files: readonly ParsedFile[],
    jsonVars: readonly EvalFile[],
    private readonly inputs: ReadonlyMap<string, Value>,
    private readonly reader: TerraformModuleReader,
    varFilePaths: readonly string[] = [],
  ) {
    this.evaluator = new Evaluator(this, new Budget());
    const varFiles: { name: string; path: string; read: () => void }[] = [];
    for (const file of files) {
      const name = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/^.*\\/, '');
      if (/\.tfvars$/i.test(file.path)) {
        varFiles.push({
          name,
          path: file.path,
          read: () => {
            for (const [key, expression] of topAttributes(file.root)) this.tfvars.set(key, () => this.evaluator.evaluate(expression, { file, names: new Map() }));
          },
        });
        continue;
      }
      for (const block of topBlocks(file.root)) {
        const kind = blockName(block);
        if (kind === 'variable') {
          const label = blockLabels(block)[0];
          if (label !== undefined && !this.variables.has(label)) this.variables.set(label, { file, block });
        } else if (kind === 'locals') {
          for (const [key, expression] of bodyAttributes(block)) if (!this.localDefinitions.has(key)) this.localDefinitions.set(key, { file, expression });
        }
      }
    }
    for (const file of jsonVars) {
      const name = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/^.*\\/, '');
      varFiles.push({
        name,
        path: file.path,
        read: () => {
          const host = parseHost(file.text, 'json');
          if (host.syntaxErrors.length > 0 || host.root?.kind !== 'object') return;
          for (const p of host.root.properties) if (p.value) this.tfvars.set(p.key, () => valueOfJson(p.value!, file.path, 0));
        },
      });
    }
    // terraform.tfvars, terraform.tfvars.json, then *.auto.tfvars(.json) in lexical order; others are not read.
    const rank = (name: string) => (name === 'terraform.tfvars' ? 0 : name === 'terraform.tfvars.json' ? 1 : /\.auto\.tfvars(\.json)?$/.test(name) ? 2 : 3);
    for (const file of varFiles.filter((f) => rank(f.name) < 3 && !varFilePaths.includes(f.path)).sort((a, b) => rank(a.name) - rank(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) file.read();
    // Then the `-var-file`s, in the order given (Terraform's precedence: later wins).
    for (const path of varFilePaths) varFiles.find((f) => f.path === path)?.read();
  }

  /** Its variables and locals as names (ModuleNames). */
  names(): ModuleNames {
    const variables = [...this.variables.keys()];
    const unknown = variables.filter((name) => this.variable(name).kind === 'unknown');
    const localUses = new Map<string, string[]>();
    for (const [name, { expression }] of this.localDefinitions) localUses.set(`local.${name}`, referencedNames(expression.text));
    return { variables, unknown, localUses };
  }

  variable(name: string): Value {
    const key = `var.${name}`;
    return this.once(key, () => {
      const definition = this.variables.get(name);
      // A variable not declared is Terraform's error; a sub-module's argument without a declaration too.
      if (!definition) return ERROR;
      const attributes = bodyAttributes(definition.block);
      const given = this.inputs.has(name) ? this.inputs.get(name)! : this.tfvars.get(name)?.();
      const scope: Scope = { file: definition.file, names: new Map() };
      let value = given ?? (attributes.has('default') ? placeholderUnknown(this.evaluator.evaluate(attributes.get('default'), scope)) : UNKNOWN);
      const typeNode = attributes.get('type');
      if (typeNode) {
        const type = typeConstraint(typeNode, (expression) => this.evaluator.evaluate(expression, scope));
        const place = { file: definition.file.path, start: definition.block.startIndex, end: definition.block.endIndex };
        // A type this does not read: its conversion is not known.
        value = type ? convertValue(value, type, place) : isUnsure(value) ? value : UNKNOWN;
        // Reading an attribute an `any` object lacks stays unknown (a caller may give it).
        if (/\bany\b/.test(typeNode.text)) value = opened(value, 0);
      }
      return value;
    });
  }

  local(name: string): Value {
    return this.once(`local.${name}`, () => {
      const definition = this.localDefinitions.get(name);
      if (!definition) return ERROR;
      return this.evaluator.evaluate(definition.expression, { file: definition.file, names: new Map() });
    });
  }

  readFile(path: string): EvalFile | undefined {
    const full = resolve(this.folder, path);
    const text = this.reader.readFile(full);
    return text === undefined ? undefined : { path: full, text };
  }

  parseTemplate(text: string): { node: HclNode; text: string; offset: number; release(): void } | undefined {
    const parser = hclParser();
    const marker = 'RULESETS_TEMPLATE_END';
    if (!parser || text.includes(marker)) return undefined;
    // A template file is a heredoc's content: read as one, its last line break taken off after.
    const prefix = `t = <<${marker}\n`;
    const wrapped = `${prefix}${text}\n${marker}\n`;
    const tree = parser.parse(wrapped);
    const node = tree?.rootNode.descendantsOfType('heredoc_template')[0];
    if (!tree || !node) {
      tree?.delete();
      return undefined;
    }
    return { node, text: wrapped, offset: prefix.length, release: () => tree.delete() };
  }

  private once(key: string, compute: () => Value): Value {
    const known = this.values.get(key);
    if (known) return known;
    // A cycle, or a chain of names too long to follow on the stack: unknown.
    if (this.evaluating.has(key) || this.evaluating.size > 64) return UNKNOWN;
    this.evaluating.add(key);
    try {
      const value = compute();
      this.values.set(key, value);
      return value;
    } finally {
      this.evaluating.delete(key);
    }
  }

  /**
   * The instances a block's `count` or `for_each` makes (`[0]`, `["a"]`), each with the names it
   * binds (`count.index`, `each.key`, `each.value`); one without them; undefined when they are not
   * known, or more than `most`.
   */
  instances(attributes: ReadonlyMap<string, HclNode>, file: ParsedFile, most: number): { suffix: string; names: Map<string, Value> }[] | undefined {
    const instances: { suffix: string; names: Map<string, Value> }[] = [];
    const base: Scope = { file, names: new Map() };
    if (attributes.has('for_each')) {
      const collection = this.evaluator.evaluate(attributes.get('for_each'), base);
      // for_each takes a map or a set of strings, not a list.
      if (collection.kind !== 'object' && !(collection.kind === 'list' && collection.set)) return undefined;
      for (const [key, value] of iterate(collection) ?? []) {
        if (key.kind !== 'string' || instances.length >= most) return undefined;
        instances.push({ suffix: `[${JSON.stringify(key.value)}]`, names: new Map([['each', object([['key', key], ['value', value]])]]) });
      }
    } else if (attributes.has('count')) {
      const count = this.evaluator.evaluate(attributes.get('count'), base);
      if (count.kind !== 'number' || !Number.isInteger(count.value) || count.value < 0 || count.value > most) return undefined;
      for (let i = 0; i < count.value; i++) instances.push({ suffix: `[${i}]`, names: new Map([['count', object([['index', num(i)]])]]) });
    } else instances.push({ suffix: '', names: new Map() });
    return instances;
  }

  /** The instances of a `cloudflare_ruleset` resource, each with its phase and rules. */
  resource(block: HclNode, file: ParsedFile, address: string): UsingResource[] {
    const attributes = bodyAttributes(block);
    const line = lineNumber(file.text, block.startIndex);
    const instances = this.instances(attributes, file, 1000);
    if (!instances) return [];
    const found: UsingResource[] = [];
    for (const instance of instances) {
      const scope: Scope = { file, names: instance.names };
      const phase = this.evaluator.evaluate(attributes.get('phase'), scope);
      const rulesAttribute = attributes.get('rules');
      let rules: readonly Value[] = [];
      let v4 = false;
      if (rulesAttribute) {
        const tuple = writtenTuple(rulesAttribute);
        if (tuple) rules = this.tupleItems(tuple, scope);
        else {
          const value = this.evaluator.evaluate(rulesAttribute, scope);
          if (value.kind === 'list') rules = value.items;
        }
      } else {
        v4 = true;
        rules = this.blocks(block, 'rules', scope, 0);
      }
      found.push({ address: address + instance.suffix, file: file.path, line, ...(phase.kind === 'string' ? { phase: phase.value } : {}), rules, v4 });
    }
    return found;
  }

  /**
   * The items of a `rules = [{ … }, …]` list written out: only those that use a value (a name,
   * a function, a `for`, a `${…}`) are evaluated; the others hold only their own literals, which
   * the file's own reading checks, and stand as null. A file of 10,000 literal rules pays one
   * search of its tree, not an evaluation.
   */
  private tupleItems(tuple: HclNode, scope: Scope): Value[] {
    const items = tuple.namedChildren.filter((c): c is HclNode => c?.type === 'expression');
    const using = valueUses(tuple, scope.file.text);
    const marked = new Uint8Array(items.length);
    for (const use of using) {
      let lo = 0;
      let hi = items.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (items[mid].endIndex <= use.startIndex) lo = mid + 1;
        else if (items[mid].startIndex > use.startIndex) hi = mid - 1;
        else {
          marked[mid] = 1;
          break;
        }
      }
    }
    return items.map((item, i) => (marked[i] ? this.evaluator.evaluate(item, scope) : NULL));
  }

  /** A block's nested blocks named `name`, each as an object, `dynamic "name"` ones expanded. */
  private blocks(block: HclNode, name: string, scope: Scope, depth: number): Value[] {
    const found: Value[] = [];
    if (depth > 16) return found;
    for (const nested of bodyBlocks(block)) {
      const kind = blockName(nested);
      // A block that uses no value holds only its own literals (see tupleItems).
      if (kind === name) found.push(depth > 0 || valueUses(nested, scope.file.text).length > 0 ? this.blockObject(nested, scope, depth + 1) : NULL);
      else if (kind === 'dynamic' && blockLabels(nested)[0] === name) {
        const expanded = this.dynamic(nested, scope, depth + 1);
        if (!expanded) return [...found, UNKNOWN];
        found.push(...expanded);
      }
    }
    return found;
  }

  /** A `dynamic` block's blocks: its content, once for each item of its for_each, with its iterator. */
  private dynamic(block: HclNode, scope: Scope, depth: number): Value[] | undefined {
    const attributes = bodyAttributes(block);
    const iteratorNode = attributes.get('iterator');
    const iterator = iteratorNode ? iteratorNode.text.trim() : blockLabels(block)[0];
    const content = bodyBlocks(block).find((b) => blockName(b) === 'content');
    const collection = this.evaluator.evaluate(attributes.get('for_each'), scope);
    const pairs = iterate(collection);
    if (!pairs || !content || !iterator || !/^[A-Za-z_][\w-]*$/.test(iterator)) return undefined;
    return pairs.map(([key, value]) => this.blockObject(content, { file: scope.file, names: new Map([...scope.names, [iterator, object([['key', key], ['value', value]])]]) }, depth + 1));
  }

  /** A block as an object: its attributes, its nested blocks by name (one an object, several a list), v4's `headers` blocks by their `name`. */
  private blockObject(block: HclNode, scope: Scope, depth: number): Value {
    const entries = new Map<string, Value>();
    for (const [key, expression] of bodyAttributes(block)) entries.set(key, this.evaluator.evaluate(expression, scope));
    const names = new Set(bodyBlocks(block).map((b) => (blockName(b) === 'dynamic' ? blockLabels(b)[0] : blockName(b))).filter((n): n is string => n !== undefined && n !== 'content'));
    for (const name of names) {
      const items = this.blocks(block, name, scope, depth + 1);
      if (name === 'headers') {
        entries.set(name, headersByName(items));
        continue;
      }
      entries.set(name, items.length === 1 ? items[0] : list(items));
    }
    return object(entries);
  }
}

/**
 * A variable's default that is empty (`""`, `[]`, `{}`, null) stands for a value the module's
 * caller gives (a module is checked on its own, without the caller that gives it): not known.
 * Seen in public modules (`default = []` for a list of countries the root module passes in).
 */
function placeholderUnknown(value: Value): Value {
  const empty = value.kind === 'null' || (value.kind === 'string' && value.value === '') || (value.kind === 'list' && value.items.length === 0) || (value.kind === 'object' && value.entries.size === 0);
  return empty ? UNKNOWN : value;
}

/** v4's `headers { name = "X-Foo" … }` blocks as the API's map of headers by name. */
function headersByName(items: readonly Value[]): Value {
  const entries: [string, Value][] = [];
  for (const item of items) {
    if (item.kind !== 'object') return list(items);
    const name = item.entries.get('name');
    if (name?.kind !== 'string') return list(items);
    entries.push([name.value, object([...item.entries].filter(([k]) => k !== 'name'))]);
  }
  return object(entries);
}

function opened(value: Value, depth: number): Value {
  if (depth > 64) return value;
  if (value.kind === 'list') return { ...value, items: value.items.map((i) => opened(i, depth + 1)) };
  if (value.kind === 'object') return object([...value.entries].map(([k, v]) => [k, opened(v, depth + 1)] as const), true) as ObjectValue;
  return value;
}

/** A `.tfvars.json` value: its strings keep where they are written. */
function valueOfJson(node: HostNode, file: string, depth: number): Value {
  if (depth > 64) return UNKNOWN;
  switch (node.kind) {
    case 'object':
      return object(node.properties.map((p) => [p.key, p.value ? valueOfJson(p.value, file, depth + 1) : UNKNOWN] as const));
    case 'array':
      return list(node.items.map((item) => valueOfJson(item, file, depth + 1)));
    case 'string': {
      const decoded = node.decode?.();
      return decoded ? written(decoded.value, file, decoded.starts, decoded.ends) : UNKNOWN;
    }
    case 'number':
      return num(Number(node.value));
    case 'boolean':
      return { kind: 'bool', value: node.value === true };
    default:
      return { kind: 'null' };
  }
}

/** The file's name as a finding's message gives it: relative to the module's folder. */
export function shownPath(folder: string, path: string): string {
  return relative(folder, path).replace(/\\/g, '/') || path;
}

function topBlocks(root: HclNode): HclNode[] {
  const body = root.namedChildren.find((c) => c?.type === 'body');
  return (body?.namedChildren ?? []).filter((c): c is HclNode => c?.type === 'block');
}

function topAttributes(root: HclNode): Map<string, HclNode> {
  const body = root.namedChildren.find((c) => c?.type === 'body');
  return attributesOf(body);
}

function bodyAttributes(block: HclNode): Map<string, HclNode> {
  return attributesOf(block.namedChildren.find((c) => c?.type === 'body'));
}

function attributesOf(body: HclNode | null | undefined): Map<string, HclNode> {
  const found = new Map<string, HclNode>();
  for (const child of body?.namedChildren ?? []) {
    if (child?.type !== 'attribute') continue;
    const key = child.namedChildren[0]?.text;
    const expression = child.namedChildren.find((c) => c?.type === 'expression');
    if (key !== undefined && expression && !found.has(key)) found.set(key, expression);
  }
  return found;
}

function bodyBlocks(block: HclNode): HclNode[] {
  const body = block.namedChildren.find((c) => c?.type === 'body');
  return (body?.namedChildren ?? []).filter((c): c is HclNode => c?.type === 'block');
}

function blockName(block: HclNode): string | undefined {
  const first = block.namedChildren[0];
  return first?.type === 'identifier' ? first.text : undefined;
}

function blockLabels(block: HclNode): string[] {
  return block.namedChildren.filter((c): c is HclNode => c?.type === 'string_lit' || (c?.type === 'identifier' && c !== block.namedChildren[0])).map((c) => (c.type === 'string_lit' ? c.text.replace(/^"|"$/g, '') : c.text));
}

/**
 * Every variable and local of the module in `folder`, as plain data (unknown and errors are
 * `undefined`), and those of the local modules it calls (`source = "./…"`, without `count` or
 * `for_each`), given the caller's arguments, keyed as Terraform names them from the root
 * (`module.NAME.var.x`, `module.NAME.local.x`, `module.a.module.b.var.x`): what the oracle test
 * compares with OpenTofu's values.
 */
export function moduleNames(folder: string, reader: TerraformModuleReader): { variables: Record<string, unknown>; locals: Record<string, unknown>; modules: Record<string, unknown> } | undefined {
  const parser = hclParser();
  const texts = readModuleTexts(resolve(folder), reader);
  if (!parser || !texts) return undefined;
  const trees: HclTree[] = [];
  const parse = (files: readonly EvalFile[]): ParsedFile[] => {
    const parsed: ParsedFile[] = [];
    for (const file of files) {
      if (/\.json$/i.test(file.path)) continue;
      const read = parseForEvaluation(parser, file);
      if (!read) continue;
      if (read.tree) trees.push(read.tree);
      parsed.push(read.file);
    }
    return parsed;
  };
  const modules: Record<string, unknown> = {};
  const visiting = new Set<string>();
  /** The names of one module, its sub-modules' into `modules`. */
  const names = (moduleFolder: string, files: readonly EvalFile[], inputs: ReadonlyMap<string, Value>, depth: number, prefix: string): { variables: Record<string, unknown>; locals: Record<string, unknown> } => {
    const parsed = parse(files);
    const module = new ModuleScope(moduleFolder, parsed, files.filter((f) => /\.json$/i.test(f.path)), inputs, reader);
    const variables: Record<string, unknown> = {};
    const locals: Record<string, unknown> = {};
    const calls: { name: string; folder: string; inputs: Map<string, Value> }[] = [];
    visiting.add(moduleFolder);
    for (const file of parsed) {
      if (/\.tfvars$/i.test(file.path)) continue;
      for (const block of topBlocks(file.root)) {
        const kind = blockName(block);
        if (kind === 'variable') {
          const name = blockLabels(block)[0];
          if (name !== undefined) variables[name] = plainValue(module.variable(name));
        } else if (kind === 'locals') for (const key of bodyAttributes(block).keys()) locals[key] = plainValue(module.local(key));
        else if (kind === 'module' && depth < MAX_MODULE_DEPTH) {
          const name = blockLabels(block)[0];
          const attributes = bodyAttributes(block);
          if (name === undefined || attributes.has('count') || attributes.has('for_each')) continue;
          const scope: Scope = { file, names: new Map() };
          const source = attributes.get('source') ? module.evaluator.evaluate(attributes.get('source'), scope) : UNKNOWN;
          if (source.kind !== 'string' || !/^\.\.?\//.test(source.value)) continue;
          const inputs = new Map<string, Value>();
          for (const [argument, expression] of attributes) if (!META_ARGUMENTS.has(argument)) inputs.set(argument, module.evaluator.evaluate(expression, scope));
          calls.push({ name, folder: resolve(moduleFolder, source.value), inputs });
        }
      }
    }
    for (const call of calls) {
      if (visiting.has(call.folder)) continue;
      const subTexts = readModuleTexts(call.folder, reader);
      if (!subTexts) continue;
      // A sub-module's own `.tfvars` files are not read by Terraform.
      const callPrefix = `${prefix}module.${call.name}.`;
      const sub = names(call.folder, subTexts.filter((f) => /\.tf$/i.test(f.path)), call.inputs, depth + 1, callPrefix);
      for (const [name, value] of Object.entries(sub.variables)) modules[`${callPrefix}var.${name}`] = value;
      for (const [name, value] of Object.entries(sub.locals)) modules[`${callPrefix}local.${name}`] = value;
    }
    visiting.delete(moduleFolder);
    return { variables, locals };
  };
  try {
    const root = names(resolve(folder), texts, new Map(), 0, '');
    return { variables: root.variables, locals: root.locals, modules };
  } finally {
    for (const tree of trees) tree.delete();
  }
}

/** A value as plain data: `undefined` for what is not known (anywhere inside it). */
export function plainValue(value: Value, depth = 0): unknown {
  if (depth > 64) return undefined;
  switch (value.kind) {
    case 'unknown':
    case 'error':
      return undefined;
    case 'null':
      return null;
    case 'bool':
    case 'number':
    case 'string':
      return value.value;
    case 'list': {
      const items = value.items.map((item) => plainValue(item, depth + 1));
      return items.some((i) => i === undefined) ? undefined : items;
    }
    case 'object': {
      const entries = [...value.entries].map(([k, v]) => [k, plainValue(v, depth + 1)] as const);
      return entries.some(([, v]) => v === undefined) ? undefined : Object.fromEntries(entries);
    }
  }
}
