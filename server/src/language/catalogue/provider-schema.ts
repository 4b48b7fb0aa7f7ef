/**
 * The `cloudflare_ruleset` resource as the Cloudflare Terraform provider declares it, in its last
 * v4 release and in v5 (generated/provider-schema.ts, written by `npm run catalogue:provider` from
 * the provider's own Go schema): the names a `.tf` file writes, which differ from the API's JSON
 * keys in places (v5's `stale_if_error` is the API's `stale-if-error`), and whether each is an
 * attribute or a block (v4's `rules { … }`), and how it nests.
 */

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
