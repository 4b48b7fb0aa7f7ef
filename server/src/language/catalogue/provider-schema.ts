/**
 * The `cloudflare_ruleset` resource as the Cloudflare Terraform provider declares it, in its last
 * v4 release and in v5 (generated/provider-schema.ts, written by `npm run catalogue:provider` from
 * the provider's own Go schema): the names a `.tf` file writes, which differ from the API's JSON
 * keys in places (v5's `stale_if_error` is the API's `stale-if-error`), and whether each is an
 * attribute or a block (v4's `rules { … }`), and how it nests.
 */
import type { ParameterType } from './action-schema';

/** An attribute or block of the provider's schema. */
export interface ProviderAttribute {
  readonly name: string;
  /** A leaf's type (`string`, `bool`, `number`, `list`, `set`, `map`), or `object` for a nested attribute or block. */
  readonly type: 'string' | 'bool' | 'number' | 'list' | 'set' | 'map' | 'object';
  /** A block (v4: `rules { … }`), not an attribute (`rules = [ … ]`). */
  readonly block?: true;
  /** How a nested attribute or block holds its objects: one, a list, a set, or a map by name. */
  readonly nesting?: 'single' | 'list' | 'set' | 'map';
  /** A v4 block list the provider holds to one item (`action_parameters { … }`). */
  readonly maxOne?: true;
  /** The API's JSON key, where it differs from the name (v5's model.go `json:` tag). */
  readonly apiName?: string;
  /** Set by the provider only: not for a `.tf` file to write. */
  readonly computedOnly?: true;
  readonly attributes?: readonly ProviderAttribute[];
}

/** The schema of one provider release: where it was read, and the resource's top-level attributes and blocks. */
export interface ProviderSchema {
  readonly major: 4 | 5;
  readonly tag: string;
  readonly commit: string;
  readonly file: string;
  readonly attributes: readonly ProviderAttribute[];
}

/** The attribute of `name` among `attributes`. */
export function providerAttribute(attributes: readonly ProviderAttribute[] | undefined, name: string): ProviderAttribute | undefined {
  return attributes?.find((a) => a.name === name);
}

/** Each name of `schema` whose API key differs, by its API key (`stale-if-error` → `stale_if_error`). */
export function providerNamesOf(schema: ProviderSchema): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  const visit = (attributes: readonly ProviderAttribute[]): void => {
    for (const a of attributes) {
      if (a.apiName !== undefined) names.set(a.apiName, a.name);
      if (a.attributes) visit(a.attributes);
    }
  };
  visit(schema.attributes);
  return names;
}

const RENAMED = new WeakMap<ParameterType, WeakMap<ReadonlyMap<string, string>, ParameterType>>();

/**
 * The API's type of a value with its keys as the provider names them (`names`: provider name by
 * API key): a `.tf` file's objects are checked against it, so that its unknown keys, its
 * did-you-means and its required keys speak the provider's names. The same type is returned for
 * the same arguments.
 */
export function withProviderNames<T extends ParameterType>(type: T, names: ReadonlyMap<string, string>): T {
  if (names.size === 0) return type;
  let byNames = RENAMED.get(type);
  if (!byNames) RENAMED.set(type, (byNames = new WeakMap()));
  let renamed = byNames.get(names);
  if (!renamed) {
    renamed = rename(type, names);
    byNames.set(names, renamed);
  }
  return renamed as T;
}

function rename(type: ParameterType, names: ReadonlyMap<string, string>): ParameterType {
  const name = (key: string) => names.get(key) ?? key;
  switch (type.kind) {
    case 'array':
      return { ...type, items: withProviderNames(type.items, names) };
    case 'union':
      return { ...type, types: type.types.map((t) => withProviderNames(t, names)) };
    case 'object': {
      const groups = (g: readonly (readonly string[])[] | undefined) => g?.map((keys) => keys.map(name));
      return {
        ...type,
        keys: type.keys.map((k) => ({ ...k, key: name(k.key), type: withProviderNames(k.type, names) })),
        ...(type.exclusive ? { exclusive: groups(type.exclusive) } : {}),
        ...(type.oneRequired ? { oneRequired: groups(type.oneRequired) } : {}),
        ...(type.anyRequired ? { anyRequired: groups(type.anyRequired) } : {}),
        ...(type.values ? { values: withProviderNames(type.values, names) } : {}),
      };
    }
    default:
      return type;
  }
}
