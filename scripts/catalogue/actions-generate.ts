/**
 * Builds server/src/language/catalogue/generated/action-parameters.ts from the API's own types:
 * cloudflare/cloudflare-typescript src/resources/rulesets/rules.ts at a pinned commit, read from
 * the git mirror and parsed with the TypeScript compiler API. Only the types are read, never the
 * doc comments: the generated module carries facts (keys, types, required members, allowed values),
 * no prose. What the types cannot say is in catalogue/actions.ts, by hand, with its sources.
 *
 * The rules a ruleset holds are the members of `RuleCreateResponse.Ruleset`'s `rules` array: the
 * top-level `XRule` interfaces, and five (`challenge`, `js_challenge`, `set_cache_control`,
 * `set_cache_tags`, `transform_response_html`) the API's types declare only inside that namespace.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import ts from 'typescript';

import { RULE_OBJECT_KEYS, type ActionSchema, type ObjectParameterType, type ParameterKey, type ParameterType, type RuleObjectKey } from '../../server/src/language/catalogue/action-schema';
import { mergeObjectTypes, sameType } from '../../server/src/language/catalogue/parameter-types';
import { source } from '../typescript-source';

export const ACTIONS_SOURCE = {
  repository: 'cloudflare/cloudflare-typescript',
  commit: 'faaaf89ed8064a9fb54de538ec3e89487f1302b0',
  file: 'src/resources/rulesets/rules.ts',
} as const;

export const ACTIONS_OUTPUT = 'server/src/language/catalogue/generated/action-parameters.ts';

/** Where `npm run catalogue:actions` reads the API's types from: the fetch tool's mirror. */
const ACTIONS_MIRROR = '/work/.mirror/cloudflare+cloudflare-typescript/repo';

/** Reads a file of the pinned commit (a path inside the repository); throws when it cannot. */
export type ReadSource = (path: string) => string;

/**
 * A reader of the pinned commit in the mirror, or why there is none (what to do to get it). The
 * mirror is a bare git directory; `ACTIONS_MIRROR` in the environment points elsewhere.
 */
export function mirrorReader(mirror = process.env.ACTIONS_MIRROR ?? ACTIONS_MIRROR): ReadSource | string {
  const how = `fetch it with the fetch tool (source \`github:${ACTIONS_SOURCE.repository}\`), or set ACTIONS_MIRROR to a git directory of it`;
  if (!existsSync(mirror)) return `no git mirror of ${ACTIONS_SOURCE.repository} at ${mirror}: ${how}`;
  try {
    execFileSync('git', ['-C', mirror, 'cat-file', '-e', `${ACTIONS_SOURCE.commit}^{commit}`], { stdio: 'ignore' });
  } catch {
    return `the mirror at ${mirror} lacks commit ${ACTIONS_SOURCE.commit}: ${how}`;
  }
  return (path) => execFileSync('git', ['-C', mirror, 'show', `${ACTIONS_SOURCE.commit}:${path}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

type ObjectType = ObjectParameterType;

function fail(message: string): never {
  throw new Error(`catalogue:actions: ${message}`);
}

/** A namespace's declarations by name: interfaces (all declarations of a name), aliases, namespaces. */
interface Scope {
  readonly file: SourceFile;
  readonly parent?: Scope;
  readonly interfaces: Map<string, ts.InterfaceDeclaration[]>;
  readonly aliases: Map<string, ts.TypeAliasDeclaration>;
  readonly namespaces: Map<string, Scope>;
}

interface SourceFile {
  readonly path: string;
  readonly root: Scope;
  /** `import * as Name from './file'`: the file's path in the repository. */
  readonly imports: Map<string, string>;
}

function emptyScope(file: SourceFile, parent?: Scope): Scope {
  return { file, parent, interfaces: new Map(), aliases: new Map(), namespaces: new Map() };
}

function fill(scope: Scope, statements: readonly ts.Statement[]): void {
  for (const statement of statements) {
    if (ts.isInterfaceDeclaration(statement)) {
      const all = scope.interfaces.get(statement.name.text) ?? [];
      all.push(statement);
      scope.interfaces.set(statement.name.text, all);
    } else if (ts.isTypeAliasDeclaration(statement)) {
      scope.aliases.set(statement.name.text, statement);
    } else if (ts.isModuleDeclaration(statement) && statement.body && ts.isModuleBlock(statement.body)) {
      const inner = scope.namespaces.get(statement.name.text) ?? emptyScope(scope.file, scope);
      fill(inner, statement.body.statements);
      scope.namespaces.set(statement.name.text, inner);
    }
  }
}

function joinPath(from: string, relative: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of relative.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return `${parts.join('/')}.ts`;
}

class Types {
  private readonly files = new Map<string, SourceFile>();
  private readonly resolving = new Set<ts.Node>();

  constructor(private readonly read: ReadSource) {}

  file(path: string): SourceFile {
    const known = this.files.get(path);
    if (known) return known;
    const parsed = ts.createSourceFile(path, this.read(path), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const file = { path, imports: new Map<string, string>() } as { path: string; imports: Map<string, string>; root: Scope };
    file.root = emptyScope(file);
    for (const statement of parsed.statements) {
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text.startsWith('.')) {
        const bindings = statement.importClause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) file.imports.set(bindings.name.text, joinPath(path, statement.moduleSpecifier.text));
      }
    }
    fill(file.root, parsed.statements);
    this.files.set(path, file);
    return file;
  }

  /** The scope a declaration sits in (the namespaces around it), found by walking its parents. */
  scopeOf(node: ts.Node, file: SourceFile): Scope {
    const names: string[] = [];
    for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (ts.isModuleDeclaration(n)) names.unshift(n.name.text);
    let scope = file.root;
    for (const name of names) scope = scope.namespaces.get(name) ?? fail(`namespace ${names.join('.')} not found in ${file.path}`);
    return scope;
  }

  /** What a dotted name stands for, looked up from `scope` outwards as TypeScript does. */
  lookup(name: string, scope: Scope): { interfaces: ts.InterfaceDeclaration[]; scope: Scope } | { alias: ts.TypeAliasDeclaration; scope: Scope } {
    const parts = name.split('.');
    const last = parts.pop()!;
    // The scope that declares the last part: the first outward that has it, or the namespace path.
    let holders: Scope[];
    if (parts.length === 0) {
      holders = [];
      for (let s: Scope | undefined = scope; s; s = s.parent) holders.push(s);
    } else {
      let found: Scope | undefined;
      for (let s: Scope | undefined = scope; s && !found; s = s.parent) found = s.namespaces.get(parts[0]);
      if (!found && scope.file.imports.has(parts[0])) found = this.file(scope.file.imports.get(parts[0])!).root;
      if (!found) return fail(`namespace ${parts[0]} not found (from ${scope.file.path})`);
      for (const part of parts.slice(1)) found = found.namespaces.get(part) ?? fail(`namespace ${part} of ${name} not found`);
      holders = [found];
    }
    for (const s of holders) {
      const interfaces = s.interfaces.get(last);
      if (interfaces) return { interfaces, scope: s };
      const alias = s.aliases.get(last);
      if (alias) return { alias, scope: s };
    }
    return fail(`type ${name} not found (from ${scope.file.path})`);
  }

  /** A type node as a ParameterType; `where` names it in errors. */
  convert(node: ts.TypeNode, scope: Scope, where: string): ParameterType {
    if (ts.isParenthesizedTypeNode(node)) return this.convert(node.type, scope, where);
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { kind: 'string' };
      case ts.SyntaxKind.NumberKeyword:
        return { kind: 'number' };
      case ts.SyntaxKind.BooleanKeyword:
        return { kind: 'boolean' };
      case ts.SyntaxKind.UnknownKeyword:
      case ts.SyntaxKind.AnyKeyword:
        return { kind: 'any' };
    }
    if (ts.isLiteralTypeNode(node) || ts.isUnionTypeNode(node)) return this.union(ts.isUnionTypeNode(node) ? node.types : [node], scope, where);
    if (ts.isArrayTypeNode(node)) return { kind: 'array', items: this.convert(node.elementType, scope, `${where}[]`) };
    if (ts.isTypeLiteralNode(node)) return this.members(node.members, scope, where);
    if (ts.isTypeReferenceNode(node)) {
      const name = node.typeName.getText();
      const args = node.typeArguments ?? [];
      if (name === 'Array' && args.length === 1) return { kind: 'array', items: this.convert(args[0], scope, `${where}[]`) };
      if (name === 'Record' && args.length === 2) {
        if (args[0].kind !== ts.SyntaxKind.StringKeyword) fail(`${where}: Record with keys other than string`);
        return { kind: 'object', keys: [], values: this.convert(args[1], scope, `${where}.*`) };
      }
      if (args.length > 0) fail(`${where}: generic type ${node.getText()} is not understood`);
      return this.named(name, scope, where);
    }
    return fail(`${where}: type ${node.getText()} (${ts.SyntaxKind[node.kind]}) is not understood`);
  }

  private named(name: string, scope: Scope, where: string): ParameterType {
    const found = this.lookup(name, scope);
    const declaration = 'alias' in found ? found.alias : found.interfaces[0];
    if (this.resolving.has(declaration)) fail(`${where}: ${name} refers to itself`);
    this.resolving.add(declaration);
    try {
      if ('alias' in found) return this.convert(found.alias.type, this.scopeOf(found.alias, found.scope.file), where);
      return this.interfaces(found.interfaces, where);
    } finally {
      this.resolving.delete(declaration);
    }
  }

  /**
   * An interface. The API's types sometimes declare one name several times in a namespace (the
   * cache-control directives), which TypeScript merges; we merge too, but a key is required only
   * when every declaration requires it, since each declaration was meant for a different use.
   */
  private interfaces(declarations: readonly ts.InterfaceDeclaration[], where: string): ObjectType {
    const objects = declarations.map((d) => {
      if (d.heritageClauses?.length) fail(`${where}: interface ${d.name.text} extends another; not understood`);
      return this.members(d.members, this.scopeOf(d, this.fileOf(d)), where);
    });
    return objects.length === 1 ? objects[0] : mergeObjectTypes(objects, where);
  }

  private fileOf(node: ts.Node): SourceFile {
    const path = node.getSourceFile().fileName;
    return this.files.get(path) ?? fail(`${path} not loaded`);
  }

  private members(members: ts.NodeArray<ts.TypeElement>, scope: Scope, where: string): ObjectType {
    const keys: ParameterKey[] = [];
    let values: ParameterType | undefined;
    for (const member of members) {
      if (ts.isPropertySignature(member)) {
        if (!member.type) fail(`${where}: property without a type`);
        const key = ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : fail(`${where}: property name ${member.name.getText()}`);
        keys.push({ key, type: this.convert(member.type, scope, `${where}.${key}`), required: !member.questionToken });
      } else if (ts.isIndexSignatureDeclaration(member)) {
        const parameter = member.parameters[0];
        if (parameter?.type?.kind !== ts.SyntaxKind.StringKeyword) fail(`${where}: index signature with keys other than string`);
        values = this.convert(member.type, scope, `${where}.*`);
      } else {
        fail(`${where}: member ${member.getText()} is not understood`);
      }
    }
    keys.sort((a, b) => compare(a.key, b.key));
    return values ? { kind: 'object', keys, values } : { kind: 'object', keys };
  }

  private union(members: readonly ts.TypeNode[], scope: Scope, where: string): ParameterType {
    const kept = members.filter((m) => !(ts.isLiteralTypeNode(m) && m.literal.kind === ts.SyntaxKind.NullKeyword) && m.kind !== ts.SyntaxKind.UndefinedKeyword);
    const literals = kept.filter(ts.isLiteralTypeNode);
    if (kept.length > 0 && literals.length === kept.length) {
      const strings = literals.flatMap((l) => (ts.isStringLiteral(l.literal) ? [l.literal.text] : []));
      const numbers = literals.flatMap((l) => (ts.isNumericLiteral(l.literal) ? [Number(l.literal.text)] : []));
      const booleans = literals.flatMap((l) => (l.literal.kind === ts.SyntaxKind.TrueKeyword ? [true] : l.literal.kind === ts.SyntaxKind.FalseKeyword ? [false] : []));
      if (strings.length === literals.length) return { kind: 'string', values: unique(strings) };
      if (numbers.length === literals.length) return { kind: 'number', values: unique(numbers) };
      if (booleans.length === literals.length) return unique(booleans).length === 2 ? { kind: 'boolean' } : { kind: 'boolean', values: unique(booleans) };
      return fail(`${where}: a union of literals of several types`);
    }
    const types = kept.map((m) => this.convert(m, scope, where));
    if (types.some((t) => t.kind === 'any')) return { kind: 'any' };
    const distinct = types.filter((t, i) => types.findIndex((u) => sameType(u, t)) === i);
    return distinct.length === 1 ? distinct[0] : { kind: 'union', types: distinct };
  }

  /** The interface a rule type names, with its members by name. */
  ruleMembers(name: string, scope: Scope): { members: Map<string, ts.PropertySignature>; scope: Scope } {
    const found = this.lookup(name, scope);
    if (!('interfaces' in found) || found.interfaces.length !== 1) return fail(`rule type ${name} is not one interface`);
    const declaration = found.interfaces[0];
    const members = new Map<string, ts.PropertySignature>();
    for (const member of declaration.members) if (ts.isPropertySignature(member) && ts.isIdentifier(member.name)) members.set(member.name.text, member);
    return { members, scope: this.scopeOf(declaration, this.fileOf(declaration)) };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/**
 * `action_parameters` as one object. When the API's types make it a union of objects (serve_error:
 * content or an asset; set_cache_tags: values or an expression), the members are merged, and the
 * keys each member requires on its own become a group of which exactly one must be given.
 */
function parametersObject(type: ParameterType, action: string): ObjectType | undefined {
  if (type.kind === 'any') return undefined;
  if (type.kind === 'object') return type;
  if (type.kind !== 'union' || !type.types.every((t) => t.kind === 'object')) return fail(`${action}: action_parameters is neither an object nor a union of objects`);
  const members = type.types as readonly ObjectType[];
  const merged = mergeObjectTypes(members, `${action}.action_parameters`);
  const own = members.map((m) => m.keys.filter((k) => k.required && !merged.keys.some((n) => n.key === k.key && n.required)).map((k) => k.key));
  const group = unique(own.flat()).sort(compare);
  if (own.some((keys) => keys.length !== 1) || group.length < 2) fail(`${action}: the members of action_parameters' union are not told apart by one required key each`);
  return { ...merged, oneRequired: [group] };
}

export interface GeneratedActions {
  readonly actions: readonly ActionSchema[];
  readonly ruleObjects: Readonly<Record<RuleObjectKey, ObjectType>>;
}

/** Reads the rule types and returns every action's schema and the rule-level objects. */
export function readActionParameters(read: ReadSource): GeneratedActions {
  const types = new Types(read);
  const rules = types.file(ACTIONS_SOURCE.file);
  const ruleset = types.lookup('RuleCreateResponse.Ruleset', rules.root);
  if (!('interfaces' in ruleset)) return fail('RuleCreateResponse.Ruleset is not an interface');
  const rulesMember = ruleset.interfaces[0].members.find((m): m is ts.PropertySignature => ts.isPropertySignature(m) && m.name.getText() === 'rules');
  const rulesType = rulesMember?.type;
  if (!rulesType || !ts.isTypeReferenceNode(rulesType) || rulesType.typeName.getText() !== 'Array' || !rulesType.typeArguments?.[0] || !ts.isUnionTypeNode(rulesType.typeArguments[0])) {
    return fail('RuleCreateResponse.Ruleset.rules is not an Array of a union of rule types');
  }
  const rulesetScope = types.scopeOf(ruleset.interfaces[0], rules);
  const ruleNames = rulesType.typeArguments[0].types.map((t) => (ts.isTypeReferenceNode(t) ? t.typeName.getText() : fail(`rule type ${t.getText()}`)));

  const actions: ActionSchema[] = [];
  const topLevel: { name: string; objects: Partial<Record<RuleObjectKey, ObjectType>> }[] = [];
  for (const name of ruleNames) {
    const { members, scope } = types.ruleMembers(name, rulesetScope);
    const action = members.get('action')?.type;
    if (!action || !ts.isLiteralTypeNode(action) || !ts.isStringLiteral(action.literal)) continue;
    const parametersNode = members.get('action_parameters')?.type;
    const parameters = parametersNode ? parametersObject(types.convert(parametersNode, scope, `${action.literal.text}.action_parameters`), action.literal.text) : undefined;
    actions.push(parameters ? { action: action.literal.text, parameters } : { action: action.literal.text });
    // The rule-level objects are compared across the top-level rule types (RulesAPI.X); the five
    // declared inside the response's namespace are an older copy (no counting_expression).
    if (name.startsWith('RulesAPI.')) {
      const objects: Partial<Record<RuleObjectKey, ObjectType>> = {};
      for (const key of RULE_OBJECT_KEYS) {
        const node = members.get(key)?.type ?? fail(`${name} has no ${key}`);
        const type = types.convert(node, scope, `${name}.${key}`);
        if (type.kind !== 'object') fail(`${name}.${key} is not an object`);
        objects[key] = type;
      }
      topLevel.push({ name, objects });
    }
  }
  if (topLevel.length === 0) fail('no top-level rule type with a literal action');
  const ruleObjects = topLevel[0].objects as Record<RuleObjectKey, ObjectType>;
  for (const { name, objects } of topLevel) {
    for (const key of RULE_OBJECT_KEYS) {
      if (!sameType(objects[key]!, ruleObjects[key])) fail(`${name}.${key} differs from ${topLevel[0].name}.${key}: the rule-level objects are no longer the same in every rule; decide how to describe them`);
    }
  }
  const seen = new Set<string>();
  for (const a of actions) {
    if (seen.has(a.action)) fail(`two rule types have the action ${a.action}`);
    seen.add(a.action);
  }
  actions.sort((a, b) => compare(a.action, b.action));
  return { actions, ruleObjects };
}

/** The generated module's text. */
export function generateActionParameters(read: ReadSource): string {
  const { actions, ruleObjects } = readActionParameters(read);
  const header = [
    'Generated by `npm run catalogue:actions` (scripts/catalogue/actions.ts): do not edit.',
    `Source: ${ACTIONS_SOURCE.repository} ${ACTIONS_SOURCE.file} @ ${ACTIONS_SOURCE.commit} (types only).`,
    "Every action's `action_parameters`, and the rule-level objects, as the API's types give them;",
    'catalogue/actions.ts adds what the types cannot say.',
  ];
  return [
    `/**\n${header.map((line) => ` * ${line}`).join('\n')}\n */\n`,
    "import type { ActionSchema, ObjectParameterType, RuleObjectKey } from '../action-schema';\n",
    `export const ACTION_PARAMETERS: readonly ActionSchema[] = ${source(actions, '', true)};\n`,
    `export const RULE_OBJECTS: Readonly<Record<RuleObjectKey, ObjectParameterType>> = ${source(ruleObjects, '', true)};\n`,
  ].join('\n');
}
