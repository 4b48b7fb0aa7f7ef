/**
 * Builds the field and function catalogue (server/src/language/catalogue/generated/) from:
 * the reference engine, live (names and types of fields, function signatures: see
 * engine.ts); the docs' facts, transcribed into catalogue/docs-facts.json (plans,
 * deprecated names, availability, value forms); our prose (catalogue/prose.ts); and our
 * decisions (catalogue/overlay.ts). The same engine and inputs give the same files, byte for byte:
 * the oracle's catalogue test reruns this and compares.
 */
import docsFacts from './docs-facts.json';
import { FUNCTION_PROSE, HTTP_FIELD_PROSE, MAGIC_FIELD_PROSE } from './prose';
import {
  CATEGORY_GROUPS,
  FORM_VALUES,
  FUNCTION_DECISIONS,
  FUNCTION_PHASES,
  MAGIC_FIELD_EXTRAS,
  MAGIC_FUNCTION_NAMES,
  MAGIC_GROUP,
  ONE_OF_KINDS,
  PREFIX_GROUPS,
  RESPONSE_GROUP,
  UNTYPED_FIELDS,
  type ParameterDecision,
} from './overlay';
import {
  ENGINE_PACKAGE,
  ENGINE_SCHEME_NAME,
  engineType,
  probeFunctions,
  probeQuantifiers,
  probeTypes,
  type Engine,
  type EngineScheme,
  type ProbedFunction,
} from './engine';
import type { ValueType } from '../../server/src/language/ast';
import type { ExpressionKind, FieldInfo, FunctionInfo, ParameterInfo, Plan } from '../../server/src/language/catalogue/entries';
import { arrayOf, describeValueType, mapOf } from '../../server/src/language/types';
import { source } from '../typescript-source';

/** The engine the catalogue is generated from; another version must be a reviewed change of this pin. */
export const ENGINE_VERSION = '0.7.0';
/** The wirefilter the pinned binding is built from (its sdist's Cargo.toml). */
export const WIREFILTER_SOURCE = { repository: 'cloudflare/wirefilter', commit: '2efaf3b6b80fde0e9fcf091abe5292fb95d7eae6' } as const;
/** Where the generated modules go, from the repository root. */
export const GENERATED_DIR = 'server/src/language/catalogue/generated';

type DocsFile = keyof typeof docsFacts.files;
interface DocsOnly {
  readonly products: readonly string[];
  readonly expressions?: string;
}
interface DocsField {
  readonly name: string;
  /** Absent where the docs list the field without a type (UNTYPED_FIELDS decides it). */
  readonly docsType?: string;
  readonly categories?: readonly string[];
  readonly plan?: string;
  readonly requires?: string;
  readonly aliases?: readonly string[];
  readonly aliasOf?: readonly string[];
  readonly only?: DocsOnly;
  readonly range?: readonly string[];
  readonly form?: string;
  readonly oneOf?: readonly string[];
  readonly keys?: string;
  readonly source?: string;
}
interface DocsFunction {
  readonly name: string;
  readonly quantifier?: boolean;
  readonly params: readonly { readonly name?: string; readonly docsTypes: readonly string[]; readonly range?: readonly string[]; readonly letters?: string }[];
  readonly docsResult: string;
  readonly only?: DocsOnly;
  readonly plan?: string;
  readonly oncePerExpression?: boolean;
  readonly notNestedWith?: readonly string[];
}

const HTTP_DOCS: readonly DocsField[] = docsFacts.fields;
/** The files beside the field list that give HTTP fields of their own (`source`), in the order they first appear. */
const FIELD_FILES: readonly DocsFile[] = [...new Set(HTTP_DOCS.flatMap((f) => (f.source ? [f.source as DocsFile] : [])))];
const MAGIC_DOCS: readonly DocsField[] = docsFacts.magicFields.fields;
const FUNCTION_DOCS: readonly DocsFunction[] = docsFacts.functions;

function fail(message: string): never {
  throw new Error(`catalogue: ${message}`);
}

/** A type as the docs write it (`Number`, `IP address`, `Map<Array<String>>`), in ours. */
export function typeFromDocs(text: string): ValueType {
  const inner = /^(Array|Map)<(.*)>$/.exec(text);
  if (inner) return inner[1] === 'Array' ? arrayOf(typeFromDocs(inner[2])) : mapOf(typeFromDocs(inner[2]));
  const scalar: Record<string, ValueType> = { String: 'Bytes', Bytes: 'Bytes', Integer: 'Integer', Number: 'Integer', Boolean: 'Boolean', 'IP address': 'Ip' };
  return scalar[text] ?? fail(`a docs type we cannot read: ${text}`);
}

function plan(label: string | undefined): Plan | undefined {
  if (label === undefined) return undefined;
  return (docsFacts.plans as Record<string, Plan>)[label] ?? fail(`a plan label we have no plan for: ${label}`);
}

/** What else a field or function needs, in our words: `Enterprise add-on: Bot Management`. */
function planNote(label: string | undefined, requires: string | undefined): string | undefined {
  if (requires === undefined) return label === 'Enterprise add-on' ? label : undefined;
  if (label === undefined) return `Needs ${requires}`;
  return label === 'Enterprise add-on' ? `${label}: ${requires}` : `${label}, with ${requires}`;
}

/**
 * A product's phases: as the phases list gives them, as other products ("Transform Rules" stands for
 * its three kinds), or from a file of its own (Cache Response Rules, which the phases list lacks).
 */
type DocsProduct = readonly string[] | { readonly source: DocsFile; readonly products: readonly string[] } | { readonly source: DocsFile; readonly phases: readonly string[] };
/** The products table without its own `source` (the phases list). */
const PRODUCTS = Object.fromEntries(Object.entries(docsFacts.products).filter(([key]) => key !== 'source')) as unknown as Readonly<Record<string, DocsProduct>>;

/** The phases of the products the docs name. */
function productPhases(products: readonly string[]): string[] {
  const phases = products.flatMap((product): readonly string[] => {
    const entry = PRODUCTS[product] ?? fail(`a product the phases list does not map: ${product}`);
    if ('phases' in entry) return entry.phases;
    return 'products' in entry ? productPhases(entry.products) : entry;
  });
  return [...new Set(phases)];
}

/** The files whose phases a product of its own stands for, beside the phases list. */
const PRODUCT_FILES: readonly DocsFile[] = Object.values(PRODUCTS).flatMap((entry) => ('phases' in entry ? [entry.source] : []));

/** A phase list's entries: a name from the list's own file, or names from other files (`{ source, phases }`). */
type DocsPhaseEntry = string | { readonly source: readonly DocsFile[]; readonly phases: readonly string[] };

function phaseNames(entries: readonly DocsPhaseEntry[]): string[] {
  return entries.flatMap((entry) => (typeof entry === 'string' ? [entry] : entry.phases));
}

/** The files a phase list's entries name beside the list's own. */
function phaseFiles(entries: readonly DocsPhaseEntry[]): DocsFile[] {
  return entries.flatMap((entry) => (typeof entry === 'string' ? [] : entry.source));
}

const DOCS_PHASES = {
  network: phaseNames(docsFacts.phases.network),
  request: phaseNames(docsFacts.phases.request),
  response: phaseNames(docsFacts.phases.response as readonly DocsPhaseEntry[]),
};
const PHASE_FILES: readonly DocsFile[] = ['phases', ...phaseFiles(docsFacts.phases.response as readonly DocsPhaseEntry[])];

/** `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function docsOnly(only: DocsOnly | undefined, responseField: boolean): FieldInfo['only'] {
  if (only) {
    return {
      phases: productPhases(only.products),
      ...(only.expressions ? { expressions: only.expressions as ExpressionKind } : {}),
      why: `the docs make it available ${only.expressions === 'value' ? 'in the value expressions of' : 'in'} ${listed(only.products)} only`,
    };
  }
  if (responseField) return { phases: DOCS_PHASES.response, why: 'a response field: the docs give it to the response phases only' };
  return undefined;
}

function group(fact: DocsField): string {
  const categories = fact.categories ?? [];
  if (categories.includes('Response')) return RESPONSE_GROUP;
  const byCategory = categories.map((c) => CATEGORY_GROUPS[c]).find((g) => g !== undefined);
  if (byCategory) return byCategory;
  return PREFIX_GROUPS.find(([prefix]) => fact.name.startsWith(prefix))?.[1] ?? 'Request';
}

const range = (bounds: readonly string[] | undefined): readonly [bigint, bigint] | undefined => (bounds ? [BigInt(bounds[0]), BigInt(bounds[1])] : undefined);

/** Leaves out the keys whose value is undefined, so that the output has only what is said. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

interface EngineFields {
  /** The type of every name the engine accepts as a field, listed by its schema or not. */
  readonly types: ReadonlyMap<string, ValueType>;
  /** What get_schema_info lists. */
  readonly listed: readonly { readonly name: string; readonly type: ValueType }[];
}

/** The engine's fields: its schema, and the types of the documented names it does not list. */
async function engineFields(engine: Engine, scheme: EngineScheme, documented: readonly string[]): Promise<EngineFields> {
  const listed = (await engine.schema(scheme)).fields.map((f) => ({ name: f.name, type: engineType(f.type) }));
  const names = [...new Set([...listed.map((f) => f.name), ...documented])];
  const probed = await probeTypes(engine, scheme, names);
  const types = new Map<string, ValueType>();
  names.forEach((name, i) => {
    if (probed[i] !== undefined) types.set(name, probed[i]!);
  });
  // The probe reads types the way the hidden fields must be read: it must agree on the listed ones.
  for (const field of listed) if (types.get(field.name) !== field.type) fail(`the engine lists ${field.name} as ${field.type} but accepts it as ${types.get(field.name)}`);
  return { types, listed };
}

function fieldEntry(
  name: string,
  prose: readonly [string, string] | undefined,
  engine: EngineFields,
  docsType: string | undefined,
  rest: Omit<FieldInfo, 'name' | 'type' | 'doc' | 'example' | 'inEngine'>,
): FieldInfo {
  if (!prose) fail(`no prose for the field ${name}: add it to scripts/catalogue/prose.ts`);
  const engineTypeOf = engine.types.get(name);
  const documented = docsType === undefined ? undefined : typeFromDocs(docsType);
  if (engineTypeOf && documented && engineTypeOf !== documented) fail(`the docs give ${name} the type ${documented}, the engine ${engineTypeOf}`);
  const type = engineTypeOf ?? documented ?? fail(`${name} is neither in the engine nor typed by the docs`);
  return defined({ name, type, doc: prose[0], example: prose[1], ...rest, inEngine: engineTypeOf !== undefined });
}

async function httpFields(engine: Engine): Promise<FieldInfo[]> {
  const aliases = HTTP_DOCS.flatMap((f) => f.aliases ?? []);
  const found = await engineFields(engine, 'http', [...HTTP_DOCS.map((f) => f.name), ...aliases]);
  const byName = new Map<string, FieldInfo>();
  for (const fact of HTTP_DOCS) {
    const common = {
      group: group(fact),
      range: range(fact.range),
      values: fact.form ? (FORM_VALUES[fact.form] ?? fail(`a value form we have no kind for: ${fact.form}`)) : fact.oneOf ? (ONE_OF_KINDS[fact.name] ?? 'one-of') : undefined,
      oneOf: fact.oneOf,
      keys: fact.keys === undefined ? undefined : (fact.keys as 'lowercase'),
      plan: plan(fact.plan),
      planNote: planNote(fact.plan, fact.requires),
      only: docsOnly(fact.only, fact.categories?.includes('Response') ?? false),
    };
    byName.set(fact.name, fieldEntry(fact.name, HTTP_FIELD_PROSE[fact.name], found, fact.docsType ?? UNTYPED_FIELDS[fact.name]?.docsType, common));
    // A deprecated name has its replacement's value, so everything the docs say of one holds for the other.
    for (const alias of fact.aliases ?? []) byName.set(alias, fieldEntry(alias, HTTP_FIELD_PROSE[alias], found, fact.docsType, { ...common, deprecated: { replacements: [fact.name] } }));
  }
  for (const field of found.listed) if (!byName.has(field.name)) byName.set(field.name, fieldEntry(field.name, HTTP_FIELD_PROSE[field.name], found, undefined, { group: 'Request' }));
  return ordered(byName, Object.keys(HTTP_FIELD_PROSE), 'HTTP_FIELD_PROSE');
}

async function magicFields(engine: Engine): Promise<FieldInfo[]> {
  const aliases = MAGIC_DOCS.flatMap((f) => f.aliases ?? []);
  const found = await engineFields(engine, 'magic', [...MAGIC_DOCS.map((f) => f.name), ...aliases]);
  const byName = new Map<string, FieldInfo>();
  const extras = (name: string) => ({ group: MAGIC_GROUP, range: range(MAGIC_FIELD_EXTRAS[name]?.range), values: MAGIC_FIELD_EXTRAS[name]?.values });
  for (const fact of MAGIC_DOCS) {
    byName.set(fact.name, fieldEntry(fact.name, MAGIC_FIELD_PROSE[fact.name], found, fact.docsType, extras(fact.name)));
    for (const alias of fact.aliases ?? []) {
      byName.set(alias, fieldEntry(alias, MAGIC_FIELD_PROSE[alias], found, fact.docsType, { ...extras(alias), deprecated: { replacements: fact.aliasOf ?? [fact.name] } }));
    }
  }
  for (const field of found.listed) if (!byName.has(field.name)) byName.set(field.name, fieldEntry(field.name, MAGIC_FIELD_PROSE[field.name], found, undefined, extras(field.name)));
  return ordered(byName, Object.keys(MAGIC_FIELD_PROSE), 'MAGIC_FIELD_PROSE');
}

/** In the order the prose lists them (for reading and completion), each exactly once. */
function ordered<T extends { readonly name: string }>(byName: ReadonlyMap<string, T>, order: readonly string[], where: string): T[] {
  const extra = order.filter((name) => !byName.has(name));
  if (extra.length > 0) fail(`${where} describes what neither the engine nor the docs have: ${extra.join(', ')}`);
  return order.map((name) => byName.get(name)!);
}

function parameterList(probed: ProbedFunction): ParameterDecision[] {
  return probed.parameters.map((p) => ({ kind: p.kind, types: p.types }));
}

function signature(name: string, parameters: readonly ParameterInfo[], result: ValueType | 'first-argument'): string {
  const first = result === 'first-argument';
  const typeText = (types: readonly ValueType[]) => types.map(describeValueType).join(' | ');
  const shown = parameters.map((p) => `${p.repeats ? '...' : ''}${p.name}${p.optional ? '?' : ''}: ${first ? 'T' : typeText(p.types)}`);
  const text = `${name}(${shown.join(', ')}): ${first ? 'T' : describeValueType(result)}`;
  return first ? `${text}, T one of ${typeText(parameters[0].types)}` : text;
}

function functionEntry(probed: ProbedFunction, quantifier: boolean): FunctionInfo {
  const name = probed.name;
  const prose = FUNCTION_PROSE[name] ?? fail(`no prose for the function ${name}: add it to scripts/catalogue/prose.ts`);
  const docs = FUNCTION_DOCS.find((f) => f.name === name);
  const decision = FUNCTION_DECISIONS[name];
  const minArgs = decision?.minArgs ?? probed.minArgs;
  const maxArgs = decision?.maxArgs === 'unbounded' ? undefined : (decision?.maxArgs ?? probed.maxArgs);
  const chosen = decision?.parameters ?? parameterList(probed);
  if (prose.parameters.length !== chosen.length) fail(`${name} has ${chosen.length} parameters, its prose names ${prose.parameters.length}`);
  if (maxArgs !== undefined && maxArgs !== chosen.length) fail(`${name} takes at most ${maxArgs} arguments but lists ${chosen.length} parameters`);
  docs?.params.forEach((p, i) => {
    if (p.range && i >= chosen.length) fail(`the docs bound parameter ${i} of ${name}, which we do not have`);
    if (p.letters && (i >= chosen.length || chosen[i].kind !== 'literal')) fail(`the docs give the letters of parameter ${i} of ${name}, which is no literal of ours`);
  });
  const parameters: ParameterInfo[] = chosen.map((p, i) =>
    defined({
      name: prose.parameters[i][0],
      doc: prose.parameters[i][1],
      types: p.types,
      kind: p.kind,
      optional: i >= minArgs ? true : undefined,
      repeats: maxArgs === undefined && i === chosen.length - 1 ? true : undefined,
      range: range(docs?.params[i]?.range),
      letters: docs?.params[i]?.letters,
    }),
  );
  if (docs && !docs.docsResult.includes('|') && probed.result !== 'first-argument' && typeFromDocs(docs.docsResult) !== probed.result) {
    fail(`the docs give ${name} the result ${docs.docsResult}, the engine ${probed.result}`);
  }
  return defined({
    name,
    signature: signature(name, parameters, probed.result),
    doc: prose.doc,
    example: prose.example,
    parameters,
    minArgs,
    maxArgs,
    result: probed.result,
    expressions: docs?.only?.expressions === 'value' ? (['value'] as const) : (['filter', 'value'] as const),
    phases: FUNCTION_PHASES[name] ?? (docs?.only ? productPhases(docs.only.products) : undefined),
    plan: plan(docs?.plan),
    planNote: planNote(docs?.plan, undefined),
    oncePerExpression: docs?.oncePerExpression,
    notNestedWith: docs?.notNestedWith,
    quantifier: quantifier ? true : undefined,
    inEngine: true,
  });
}

/** The quantifiers as a probe would see them if the engine parsed them as calls. */
function quantifierProbe(name: string): ProbedFunction {
  return { name, parameters: [{ kind: 'field', types: ['Array<Boolean>'] }], minArgs: 1, maxArgs: 1, result: 'Boolean', sameTypeAsFirst: false };
}

async function functions(engine: Engine, httpFieldTypes: readonly { name: string; type: ValueType }[], magicFieldTypes: readonly { name: string; type: ValueType }[]): Promise<FunctionInfo[]> {
  const names = (await engine.schema('http')).functions;
  const quantifiers = await probeQuantifiers(engine, 'http', names, httpFieldTypes);
  const probed = await probeFunctions(engine, 'http', names.filter((n) => !quantifiers.includes(n)), httpFieldTypes);
  // The packet scheme registers the same functions; the catalogue describes each once, so check.
  const magic = await probeFunctions(engine, 'magic', MAGIC_FUNCTION_NAMES, magicFieldTypes);
  for (const m of magic) {
    if (JSON.stringify(m) !== JSON.stringify(probed.find((p) => p.name === m.name))) fail(`${m.name} differs between the engine's two schemes`);
  }
  for (const docs of FUNCTION_DOCS) if (!names.includes(docs.name)) fail(`the docs have ${docs.name}, the engine does not: decide how to describe it`);
  const byName = new Map<string, FunctionInfo>([
    ...quantifiers.map((name) => [name, functionEntry(quantifierProbe(name), true)] as const),
    ...probed.map((p) => [p.name, functionEntry(p, false)] as const),
  ]);
  return ordered(byName, Object.keys(FUNCTION_PROSE), 'FUNCTION_PROSE');
}

// ---- Writing TypeScript ----

function docsLine(file: DocsFile): string {
  const { path, commit } = docsFacts.files[file];
  return `${docsFacts.repository} ${path} @ ${commit}`;
}

function header(what: string, scheme: EngineScheme | undefined, docs: readonly DocsFile[], notes: readonly string[] = []): string {
  const lines = [
    `Generated by \`npm run catalogue\` (scripts/catalogue/fields.ts): do not edit; change its inputs (scripts/catalogue/) and rerun.`,
    what,
    ...(scheme ? [`Engine: ${ENGINE_PACKAGE} ${ENGINE_VERSION} (PyPI), scheme ${ENGINE_SCHEME_NAME[scheme] ?? 'default (HTTP)'}; wirefilter ${WIREFILTER_SOURCE.repository} @ ${WIREFILTER_SOURCE.commit}.`] : []),
    ...docs.map((file) => `Docs: ${docsLine(file)}.`),
    ...notes,
  ];
  return `/**\n${lines.map((line) => ` * ${line}`).join('\n')}\n */\n`;
}

function fieldModule(name: string, what: string, scheme: EngineScheme, docs: readonly DocsFile[], fields: readonly FieldInfo[], functionNames: readonly string[], notes: readonly string[]): string {
  return [
    header(what, scheme, docs, notes),
    "import type { FieldInfo } from '../entries';\n",
    `export const ${name}_FIELDS: readonly FieldInfo[] = ${source(fields, '')};\n`,
    `/** The functions of these phases (their entries are in functions.ts). */`,
    `export const ${name}_FUNCTION_NAMES: readonly string[] = ${source(functionNames, '')};\n`,
  ].join('\n');
}

/** The generated modules, by path from the repository root. */
export async function generateCatalogue(engine: Engine): Promise<Map<string, string>> {
  if (engine.version !== ENGINE_VERSION) fail(`the catalogue is generated from ${ENGINE_PACKAGE} ${ENGINE_VERSION}, found ${engine.version}: install the pinned version, or change ENGINE_VERSION and review the diff`);
  const http = await httpFields(engine);
  const magic = await magicFields(engine);
  const all = await functions(engine, http.filter((f) => f.inEngine), magic.filter((f) => f.inEngine));
  const files = new Map<string, string>();
  files.set(
    `${GENERATED_DIR}/http.ts`,
    fieldModule('HTTP', 'Fields and functions of the HTTP phases (ddos_l7 and every http_* phase).', 'http', [...new Set<DocsFile>(['fields', ...FIELD_FILES, ...PHASE_FILES, 'transform', ...PRODUCT_FILES])], http, all.map((f) => f.name), []),
  );
  files.set(
    `${GENERATED_DIR}/magic.ts`,
    fieldModule('MAGIC', 'Fields and functions of the packet phases (magic_transit and its sister phases, ddos_l4).', 'magic', ['magic'], magic, MAGIC_FUNCTION_NAMES, [
      `The engine's magic_firewall scheme registers the same ${all.length} functions as its HTTP scheme; only bit_slice is`,
      'documented for these phases (LANGUAGE.md §7, README), so the others are not in this family.',
    ]),
  );
  files.set(
    `${GENERATED_DIR}/functions.ts`,
    [
      header('Every function the catalogue knows; each family lists the names it has (http.ts, magic.ts).', 'http', ['functions', 'phases', 'transform', ...PRODUCT_FILES]),
      "import type { FunctionInfo } from '../entries';\n",
      `export const ALL_FUNCTIONS: readonly FunctionInfo[] = ${source(all, '')};\n`,
    ].join('\n'),
  );
  files.set(
    `${GENERATED_DIR}/sources.ts`,
    [
      header('Where the catalogue comes from, and the facts it has beside fields and functions.', undefined, []),
      "import type { Plan } from '../entries';\n",
      `export const CATALOGUE_SOURCES = ${source(
        {
          engine: { package: ENGINE_PACKAGE, version: ENGINE_VERSION, registry: 'PyPI', schemes: { http: 'default', magic: 'magic_firewall' }, wirefilter: WIREFILTER_SOURCE },
          docs: { repository: docsFacts.repository, files: Object.values(docsFacts.files) },
        },
        '',
      )} as const;\n`,
      `/** The phases the docs list (${PHASE_FILES.map(docsLine).join('; ')}). */`,
      `export const DOCUMENTED_PHASES = ${source(DOCS_PHASES, '')} as const;\n`,
      `/** Operators that need a plan (${docsLine('operators')}). */`,
      `export const OPERATOR_PLANS: Readonly<Record<string, Plan>> = ${source(Object.fromEntries(docsFacts.operators.map((o) => [o.name, plan(o.plan)])), '')};\n`,
    ].join('\n'),
  );
  return files;
}
