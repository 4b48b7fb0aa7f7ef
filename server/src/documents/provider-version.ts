/**
 * Which major version of the Cloudflare provider a Terraform module uses: 4, whose
 * `cloudflare_ruleset` takes repeated `rules { … }` blocks, or 5, which takes a `rules = [ … ]`
 * list of objects. The version the lock file (`.terraform.lock.hcl`) selected decides; else the
 * version constraints of `required_providers`, read as Terraform reads them; else it is not known,
 * and both shapes are accepted.
 *
 * Terraform reads a provider's constraints with apparentlymart/go-versions (Ruby-style, several
 * joined by commas, all of which must hold; commit 29863fd2, versions/constraints/ruby_style.go and
 * versions/parse.go MeetingConstraintsExact): `~> 4` and `~> 4.2` allow up to the next major,
 * `~> 4.2.1` up to the next minor; a version with fewer parts is zero-filled (`>= 5` is `>= 5.0.0`);
 * no operator is `=`.
 */
import { hclParser, type HclNode } from './host/index';

/** The major versions whose `cloudflare_ruleset` shapes differ: 4 (blocks; earlier ones too) and 5 (a list). */
export type ProviderMajor = 4 | 5;

/** The inputs that decide the version: the texts of the module's `.tf` files and of its lock file. */
export interface ModuleVersionInputs {
  /** The `.tf` files of the module (the checked file among them), whose `terraform { required_providers { … } }` say the constraint. */
  readonly tfFiles?: readonly string[];
  /** The text of `.terraform.lock.hcl`, where there is one. */
  readonly lockFile?: string;
}

type Version = readonly [number, number, number];

/** A version's lowest and highest bound: `[lower, lowerIncluded, upper, upperIncluded]`; undefined ends are open. */
interface Interval {
  readonly lower?: Version;
  readonly lowerIncluded: boolean;
  readonly upper?: Version;
  readonly upperIncluded: boolean;
}

const FIVE: Version = [5, 0, 0];

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** One `op version` of a constraint, as an interval (`!=` allows all but a point: the whole line, for deciding a major). */
function intervalOf(operator: string, version: Version, parts: number): Interval | undefined {
  switch (operator) {
    case '':
    case '=':
      return { lower: version, lowerIncluded: true, upper: version, upperIncluded: true };
    case '!=':
      return { lowerIncluded: false, upperIncluded: false };
    case '>':
      return { lower: version, lowerIncluded: false, upperIncluded: false };
    case '>=':
      return { lower: version, lowerIncluded: true, upperIncluded: false };
    case '<':
      return { upper: version, upperIncluded: false, lowerIncluded: false };
    case '<=':
      return { upper: version, upperIncluded: true, lowerIncluded: false };
    case '~>':
      // Three parts: up to the next minor; one or two: up to the next major.
      return { lower: version, lowerIncluded: true, upper: parts === 3 ? [version[0], version[1] + 1, 0] : [version[0] + 1, 0, 0], upperIncluded: false };
    default:
      return undefined;
  }
}

const CONSTRAINT = /^\s*(~>|>=|<=|!=|=|>|<)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?\s*$/;

/**
 * The versions a constraint (`"~> 4.0"`, `">= 4.40, < 5"`) allows, as one interval, or undefined
 * when it is not one Terraform reads.
 */
export function constraintInterval(constraint: string): Interval | undefined {
  let interval: Interval = { lowerIncluded: false, upperIncluded: false };
  for (const part of constraint.split(',')) {
    const m = CONSTRAINT.exec(part);
    if (!m) return undefined;
    const parts = m[4] !== undefined ? 3 : m[3] !== undefined ? 2 : 1;
    const version: Version = [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)];
    const one = intervalOf(m[1] ?? '', version, parts);
    if (!one) return undefined;
    interval = intersect(interval, one);
  }
  return interval;
}

function intersect(a: Interval, b: Interval): Interval {
  let { lower, lowerIncluded, upper, upperIncluded } = a;
  if (b.lower && (!lower || compare(b.lower, lower) > 0 || (compare(b.lower, lower) === 0 && !b.lowerIncluded))) {
    lower = b.lower;
    lowerIncluded = b.lowerIncluded;
  }
  if (b.upper && (!upper || compare(b.upper, upper) < 0 || (compare(b.upper, upper) === 0 && !b.upperIncluded))) {
    upper = b.upper;
    upperIncluded = b.upperIncluded;
  }
  return { lower, lowerIncluded, upper, upperIncluded };
}

/**
 * The major version every version the constraints allow has: 5 when all are 5.0.0 or later, 4
 * when all are earlier, else undefined (both, none, or a constraint Terraform would refuse).
 */
export function majorOfConstraints(constraints: readonly string[]): ProviderMajor | undefined {
  let interval: Interval = { lowerIncluded: false, upperIncluded: false };
  for (const constraint of constraints) {
    const one = constraintInterval(constraint);
    if (!one) return undefined;
    interval = intersect(interval, one);
  }
  const { lower, upper } = interval;
  // An empty interval allows no version: Terraform would refuse the module, and nothing is said.
  if (lower && upper && (compare(lower, upper) > 0 || (compare(lower, upper) === 0 && !(interval.lowerIncluded && interval.upperIncluded)))) return undefined;
  if (lower && compare(lower, FIVE) >= 0) return 5;
  if (upper && (compare(upper, FIVE) < 0 || (compare(upper, FIVE) === 0 && !interval.upperIncluded))) return 4;
  return undefined;
}

/** The provider's address in a lock file or a `source`: `registry.terraform.io/cloudflare/cloudflare`, `cloudflare/cloudflare`. */
const CLOUDFLARE_SOURCE = /^(?:[^/]+\/)?cloudflare\/cloudflare$/i;

/**
 * The major version of the Cloudflare provider the module uses, or undefined when the files do
 * not say. `parsed`: a file of the module already parsed (the one being read), not parsed again.
 */
export function providerMajor(inputs: ModuleVersionInputs, parsed?: { readonly text: string; readonly root: HclNode }): ProviderMajor | undefined {
  const parser = hclParser();
  if (!parser) return undefined;
  if (inputs.lockFile !== undefined) {
    const locked = withTree(inputs.lockFile, lockedVersion);
    if (locked) return compare(locked, FIVE) >= 0 ? 5 : 4;
  }
  const constraints = (inputs.tfFiles ?? []).flatMap((text) => withTree(text, requiredConstraints) ?? []);
  if (parsed && REQUIRED_PROVIDERS.test(parsed.text)) constraints.push(...requiredConstraints(parsed.root));
  return constraints.length > 0 ? majorOfConstraints(constraints) : undefined;
}

const REQUIRED_PROVIDERS = /\brequired_providers\b/;

function withTree<T>(text: string, read: (root: HclNode) => T): T | undefined {
  // Only a file that could say something is parsed.
  if (!/cloudflare/i.test(text) || (read === requiredConstraints && !REQUIRED_PROVIDERS.test(text))) return undefined;
  const tree = hclParser()?.parse(text);
  if (!tree) return undefined;
  try {
    return read(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** `provider "registry.terraform.io/cloudflare/cloudflare" { version = "4.52.0" … }` of a lock file. */
function lockedVersion(root: HclNode): Version | undefined {
  for (const block of blocksOf(root)) {
    const labels = labelsOf(block);
    if (nameOf(block) !== 'provider' || labels.length !== 1 || !CLOUDFLARE_SOURCE.test(labels[0])) continue;
    const version = stringOf(attributeValue(block, 'version'));
    const m = version === undefined ? null : /^(\d+)\.(\d+)\.(\d+)/.exec(version);
    if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  }
  return undefined;
}

/** The `version` constraints given to the Cloudflare provider in `terraform { required_providers { … } }` blocks. */
function requiredConstraints(root: HclNode): string[] {
  const found: string[] = [];
  for (const terraform of blocksOf(root)) {
    if (nameOf(terraform) !== 'terraform') continue;
    for (const required of blocksOf(terraform)) {
      if (nameOf(required) !== 'required_providers') continue;
      for (const attribute of attributesOf(required)) {
        const localName = attribute.namedChildren[0]?.text;
        const value = attribute.namedChildren[1];
        // The old shorthand `cloudflare = "~> 4.0"`: a constraint for the provider of that local name.
        const shorthand = stringOf(value);
        if (shorthand !== undefined) {
          if (localName === 'cloudflare') found.push(shorthand);
          continue;
        }
        const object = objectOf(value);
        if (!object) continue;
        const source = stringOf(object.get('source'));
        const isCloudflare = source !== undefined ? CLOUDFLARE_SOURCE.test(source) : localName === 'cloudflare';
        const version = stringOf(object.get('version'));
        if (isCloudflare && version !== undefined) found.push(version);
      }
    }
  }
  return found;
}

function bodyChildren(node: HclNode): HclNode[] {
  const body = node.type === 'config_file' ? node.namedChildren.find((c) => c?.type === 'body') : node.namedChildren.find((c) => c?.type === 'body');
  return (body?.namedChildren ?? []).filter((c): c is HclNode => c !== null);
}

function blocksOf(node: HclNode): HclNode[] {
  return bodyChildren(node).filter((c) => c.type === 'block');
}

function attributesOf(node: HclNode): HclNode[] {
  return bodyChildren(node).filter((c) => c.type === 'attribute');
}

function nameOf(block: HclNode): string | undefined {
  const first = block.namedChildren[0];
  return first?.type === 'identifier' ? first.text : undefined;
}

function labelsOf(block: HclNode): string[] {
  return block.namedChildren.filter((c): c is HclNode => c?.type === 'string_lit').map((c) => c.text.slice(1, -1));
}

function attributeValue(block: HclNode, name: string): HclNode | undefined {
  return attributesOf(block).find((a) => a.namedChildren[0]?.text === name)?.namedChildren[1] ?? undefined;
}

/** A quoted string without interpolation or escapes, as written. */
function stringOf(expression: HclNode | null | undefined): string | undefined {
  const literal = expression?.type === 'expression' && expression.namedChildCount === 1 ? expression.namedChildren[0] : undefined;
  const string = literal?.type === 'literal_value' ? literal.namedChildren[0] : literal?.type === 'template_expr' ? literal.namedChildren[0] : undefined;
  if (!string || (string.type !== 'string_lit' && string.type !== 'quoted_template')) return undefined;
  const text = string.text;
  if (!/^"[^"\\$%]*"$/.test(text)) return undefined;
  return text.slice(1, -1);
}

/** `{ source = "…", version = "…" }`: its elements by key name. */
function objectOf(expression: HclNode | null | undefined): Map<string, HclNode> | undefined {
  const collection = expression?.type === 'expression' ? expression.namedChildren[0] : undefined;
  const object = collection?.type === 'collection_value' ? collection.namedChildren[0] : undefined;
  if (object?.type !== 'object') return undefined;
  const elements = new Map<string, HclNode>();
  for (const element of object.namedChildren) {
    if (element?.type !== 'object_elem') continue;
    const key = element.namedChildren[0]?.text.replace(/^"|"$/g, '');
    const value = element.namedChildren[1];
    if (key !== undefined && value) elements.set(key, value);
  }
  return elements;
}
