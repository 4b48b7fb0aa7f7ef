/**
 * Builds server/src/language/catalogue/generated/provider-schema.ts from the Cloudflare Terraform
 * provider's own Go schema of `cloudflare_ruleset`: the last v4 release
 * (internal/framework/service/rulesets/schema.go) and a v5 release
 * (internal/services/ruleset/schema.go, with model.go's `tfsdk:`/`json:` tags for the names that
 * differ from the API's keys), read from the git mirror at pinned tags. Only names, kinds and
 * nesting are read, never descriptions: the module carries facts, no prose.
 *
 * The Go is read by a small reader of composite literals (`schema.StringAttribute{ … }`), which is
 * all these files declare the schema with; anything else it meets fails the run loudly.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import type { ProviderAttribute, ProviderSchema } from '../../server/src/language/catalogue/provider-schema';

export const PROVIDER_REPOSITORY = 'cloudflare/terraform-provider-cloudflare';

export const PROVIDER_SOURCES = {
  v4: { tag: 'v4.52.8', commit: 'd0f563812c311f48bc2501273d615ed978ca01ea', schema: 'internal/framework/service/rulesets/schema.go', consts: 'internal/consts/provider.go' },
  v5: { tag: 'v5.22.0', commit: 'a2efdc5786ae9726d56928dbfe91933bd92404ca', schema: 'internal/services/ruleset/schema.go', model: 'internal/services/ruleset/model.go' },
} as const;

export const PROVIDER_OUTPUT = 'server/src/language/catalogue/generated/provider-schema.ts';

const PROVIDER_MIRROR = '/work/.mirror/cloudflare+terraform-provider-cloudflare/repo';

/** Reads a file at a commit; throws when it cannot. */
export type ReadAt = (commit: string, path: string) => string;

/** A reader of the mirror, or why there is none. `PROVIDER_MIRROR` in the environment points elsewhere. */
export function providerMirrorReader(mirror = process.env.PROVIDER_MIRROR ?? PROVIDER_MIRROR): ReadAt | string {
  const how = `fetch it with the fetch tool (source \`github:${PROVIDER_REPOSITORY}\`), or set PROVIDER_MIRROR to a git directory of it`;
  if (!existsSync(mirror)) return `no git mirror of ${PROVIDER_REPOSITORY} at ${mirror}: ${how}`;
  for (const { commit } of Object.values(PROVIDER_SOURCES)) {
    try {
      execFileSync('git', ['-C', mirror, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    } catch {
      return `the mirror at ${mirror} lacks commit ${commit}: ${how}`;
    }
  }
  return (commit, path) => execFileSync('git', ['-C', mirror, 'show', `${commit}:${path}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function fail(message: string): never {
  throw new Error(`catalogue:provider: ${message}`);
}

// ---------------------------------------------------------------- reading Go composite literals

type Token = { readonly kind: 'string' | 'word' | 'punct'; readonly text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) i++;
    else if (source.startsWith('//', i)) i = source.indexOf('\n', i) === -1 ? source.length : source.indexOf('\n', i);
    else if (source.startsWith('/*', i)) i = source.indexOf('*/', i) + 2;
    else if (c === '`') {
      const end = source.indexOf('`', i + 1);
      tokens.push({ kind: 'string', text: source.slice(i + 1, end) });
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      while (source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      tokens.push({ kind: 'string', text: JSON.parse(source.slice(i, j + 1)) as string });
      i = j + 1;
    } else if (/[A-Za-z0-9_.]/.test(c)) {
      let j = i;
      while (j < source.length && /[A-Za-z0-9_.]/.test(source[j])) j++;
      tokens.push({ kind: 'word', text: source.slice(i, j) });
      i = j;
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

/** A composite literal: its type as written and its elements (`key: value`, or values alone). */
interface Composite {
  readonly type: string;
  readonly fields: Map<string, GoValue>;
  readonly items: GoValue[];
}
type GoValue = Composite | { readonly other: string };

class GoReader {
  private at = 0;
  constructor(private readonly tokens: readonly Token[], private readonly consts: ReadonlyMap<string, string>) {}

  /** The composite literal whose type is `type` (`= T{`, `return T{`; not a function's `) T {`), found from the start. */
  literal(type: string): Composite {
    for (let i = 1; i < this.tokens.length - 1; i++) {
      if (this.tokens[i].text === type && this.tokens[i + 1].text === '{' && this.tokens[i - 1].text !== ')') {
        this.at = i;
        const value = this.value();
        if ('type' in value) return value;
      }
    }
    return fail(`no \`${type}{\` literal`);
  }

  /** A value up to the `,` or closing bracket that ends it. */
  private value(): GoValue {
    const start = this.at;
    let typeText = '';
    while (this.at < this.tokens.length) {
      const token = this.tokens[this.at];
      if (token.kind === 'punct' && (token.text === ',' || token.text === '}' || token.text === ')')) break;
      if (token.kind === 'punct' && token.text === '{') return this.composite(typeText);
      if (token.kind === 'punct' && token.text === '(') {
        const from = this.at;
        this.skipBalanced('(', ')');
        typeText += this.tokens.slice(from, this.at).map((t) => (t.kind === 'string' ? JSON.stringify(t.text) : t.text)).join('');
        continue;
      }
      if (token.kind === 'punct' && token.text === '[') {
        // A slice or map type: `[]validator.String`, `map[string]schema.Attribute`.
        this.skipBalanced('[', ']');
        typeText += '[]';
        continue;
      }
      typeText += token.kind === 'string' ? JSON.stringify(token.text) : token.text;
      this.at++;
    }
    if (this.at === start) fail(`a value expected at token ${this.at}`);
    return { other: typeText };
  }

  private skipBalanced(open: string, close: string): void {
    let depth = 0;
    do {
      const t = this.tokens[this.at++];
      if (t.kind === 'punct' && t.text === open) depth++;
      else if (t.kind === 'punct' && t.text === close) depth--;
    } while (depth > 0 && this.at < this.tokens.length);
  }

  private composite(type: string): Composite {
    this.at++; // {
    const fields = new Map<string, GoValue>();
    const items: GoValue[] = [];
    for (;;) {
      const token = this.tokens[this.at];
      if (!token) fail('unexpected end of file');
      if (token.kind === 'punct' && token.text === '}') {
        this.at++;
        return { type, fields, items };
      }
      if (token.kind === 'punct' && token.text === ',') {
        this.at++;
        continue;
      }
      const next = this.tokens[this.at + 1];
      if ((token.kind === 'string' || token.kind === 'word') && next?.kind === 'punct' && next.text === ':') {
        const key = token.kind === 'string' ? token.text : (this.consts.get(token.text) ?? token.text);
        this.at += 2;
        fields.set(key, this.value());
      } else items.push(this.value());
    }
  }
}

// ---------------------------------------------------------------- the schema

const LEAVES: Readonly<Record<string, ProviderAttribute['type']>> = {
  'schema.StringAttribute': 'string',
  'schema.BoolAttribute': 'bool',
  'schema.Int64Attribute': 'number',
  'schema.Float64Attribute': 'number',
  'schema.NumberAttribute': 'number',
  'schema.ListAttribute': 'list',
  'schema.SetAttribute': 'set',
  'schema.MapAttribute': 'map',
};

const NESTED: Readonly<Record<string, { nesting: NonNullable<ProviderAttribute['nesting']>; block?: true }>> = {
  'schema.SingleNestedAttribute': { nesting: 'single' },
  'schema.ListNestedAttribute': { nesting: 'list' },
  'schema.SetNestedAttribute': { nesting: 'set' },
  'schema.MapNestedAttribute': { nesting: 'map' },
  'schema.ListNestedBlock': { nesting: 'list', block: true },
  'schema.SetNestedBlock': { nesting: 'set', block: true },
  'schema.SingleNestedBlock': { nesting: 'single', block: true },
};

const isComposite = (v: GoValue | undefined): v is Composite => v !== undefined && 'type' in v;

function flag(literal: Composite, key: string): boolean {
  const v = literal.fields.get(key);
  return v !== undefined && !isComposite(v) && v.other === 'true';
}

/** The attributes and blocks of a body: its `Attributes` and `Blocks` maps, sorted by name. */
function members(body: Composite, apiNames: ReadonlyMap<string, string>): ProviderAttribute[] {
  const found: ProviderAttribute[] = [];
  for (const key of ['Attributes', 'Blocks']) {
    const map = body.fields.get(key);
    if (map === undefined) continue;
    if (!isComposite(map)) fail(`${key} is not a map literal`);
    for (const [name, value] of map.fields) found.push(member(name, value, apiNames));
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function member(name: string, value: GoValue, apiNames: ReadonlyMap<string, string>): ProviderAttribute {
  if (!isComposite(value)) fail(`\`${name}\` is not a composite literal`);
  const apiName = apiNames.get(name);
  const computedOnly = flag(value, 'Computed') && !flag(value, 'Optional') && !flag(value, 'Required');
  const common = { name, ...(apiName !== undefined && apiName !== name ? { apiName } : {}), ...(computedOnly ? { computedOnly: true as const } : {}) };
  const leaf = LEAVES[value.type];
  if (leaf) return { ...common, type: leaf };
  const nested = NESTED[value.type];
  if (!nested) fail(`\`${name}\` has a type this reader does not know: ${value.type}`);
  const object = nested.nesting === 'single' && !nested.block ? value : value.fields.get('NestedObject');
  if (!isComposite(object)) fail(`\`${name}\` has no nested object`);
  const validators = value.fields.get('Validators');
  // v4 holds a block list to one item with `listvalidator.SizeAtMost(1)`.
  const maxOne = nested.block && isComposite(validators) && validators.items.some((v) => !isComposite(v) && v.other === 'listvalidator.SizeAtMost(1)');
  return { ...common, type: 'object', ...(nested.block ? { block: true as const } : {}), nesting: nested.nesting, ...(maxOne ? { maxOne: true as const } : {}), attributes: members(object, apiNames) };
}

/** `IDSchemaKey = "id"`: the constants the v4 schema names its keys by. */
function goConstants(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of source.matchAll(/^\s*([A-Za-z]\w*)\s*=\s*"([^"]*)"/gm)) found.set(`consts.${m[1]}`, m[2]);
  return found;
}

/** model.go's `tfsdk:"stale_if_error" json:"stale-if-error,…"`: each name whose JSON key differs, and that key. */
function jsonNames(model: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of model.matchAll(/tfsdk:"([^"]+)"\s+json:"([^",]+)/g)) {
    if (m[1] === m[2]) continue;
    const before = found.get(m[1]);
    if (before !== undefined && before !== m[2]) fail(`\`${m[1]}\` is the JSON key \`${before}\` in one place and \`${m[2]}\` in another`);
    found.set(m[1], m[2]);
  }
  return found;
}

function readSchema(source: string, consts: ReadonlyMap<string, string>, apiNames: ReadonlyMap<string, string>): ProviderAttribute[] {
  const schema = new GoReader(tokenize(source), consts).literal('schema.Schema');
  return members(schema, apiNames);
}

export function readProviderSchemas(read: ReadAt): ProviderSchema[] {
  const { v4, v5 } = PROVIDER_SOURCES;
  const v4Source = read(v4.commit, v4.schema);
  const v4Attributes = readSchema(v4Source, goConstants(read(v4.commit, v4.consts)), new Map());
  const v5Attributes = readSchema(read(v5.commit, v5.schema), new Map(), jsonNames(read(v5.commit, v5.model)));
  return [
    { major: 4, tag: v4.tag, commit: v4.commit, file: v4.schema, attributes: v4Attributes },
    { major: 5, tag: v5.tag, commit: v5.commit, file: v5.schema, attributes: v5Attributes },
  ];
}

// ---------------------------------------------------------------- writing the module

function literal(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${indent}  ${literal(v, `${indent}  `)},\n`).join('')}${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const flat = entries.map(([k, v]) => `${k}: ${literal(v, indent)}`).join(', ');
    if (!entries.some(([, v]) => Array.isArray(v) && v.length > 0) && flat.length < 100) return `{ ${flat} }`;
    return `{\n${entries.map(([k, v]) => `${indent}  ${k}: ${literal(v, `${indent}  `)},\n`).join('')}${indent}}`;
  }
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value);
}

export function generateProviderSchema(read: ReadAt): string {
  const schemas = readProviderSchemas(read);
  const [v4, v5] = schemas;
  return `// Generated by \`npm run catalogue:provider\` (scripts/catalogue/provider-generate.ts) from
// ${PROVIDER_REPOSITORY}: ${v4.tag} (${v4.commit}) ${v4.file}, and
// ${v5.tag} (${v5.commit}) ${v5.file} with model.go's JSON names. Do not edit.
import type { ProviderSchema } from '../provider-schema';

export const PROVIDER_V4: ProviderSchema = ${literal(v4, '')};

export const PROVIDER_V5: ProviderSchema = ${literal(v5, '')};
`;
}
