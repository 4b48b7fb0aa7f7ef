/**
 * A live ruleset written as Terraform: one `cloudflare_ruleset` resource in the shape of the
 * Cloudflare provider v5 (`rules = [{ … }]`), with an `import` block that adopts the live
 * ruleset into Terraform's state, so that a team moves it to Terraform without retyping it and
 * without `terraform apply` trying to create a second one.
 *
 * Facts from terraform-provider-cloudflare at a2efdc5 (internal/services/ruleset/schema.go,
 * docs/resources/ruleset.md): the resource takes `zone_id` or `account_id`, `name`, `kind`,
 * `phase`, `description` and `rules`; a rule takes `ref`, `description`, `expression`,
 * `action`, `action_parameters`, `ratelimit`, `exposed_credential_check`, `logging` and
 * `enabled`, while its `id`, and the ruleset's `id`, `version` and `last_updated`, are read
 * only; a ruleset is imported as `zones/<zone_id>/<ruleset_id>` or `accounts/<account_id>/<id>`.
 * The provider matches a planned rule to a rule in its state by `ref` and keeps that rule's id
 * (resource.go, ModifyPlan), so `ref` is always written: the API gives a rule that never had
 * one its id as `ref`, and with it a deploy updates the rule in place.
 */
import type { Scope } from './client';
import type { Ruleset } from './types';

/** A rule's keys that the provider's v5 schema takes, in the order written. */
const RULE_KEYS = ['ref', 'description', 'expression', 'action', 'action_parameters', 'ratelimit', 'exposed_credential_check', 'logging', 'enabled'] as const;

export interface TerraformFile {
  readonly text: string;
  /** The resource's address, `cloudflare_ruleset.<name>`. */
  readonly address: string;
  /** Fields of rules the provider's schema has no place for, left out (`rule 2: categories`). */
  readonly leftOut: readonly string[];
}

/** The ruleset as a `.tf` file of one `cloudflare_ruleset` resource and the `import` block that adopts it. */
export function terraformOfRuleset(ruleset: Ruleset, scope: Scope): TerraformFile {
  const name = resourceName(ruleset.name, ruleset.phase);
  const address = `cloudflare_ruleset.${name}`;
  const scopeKey = scope.kind === 'zone' ? 'zone_id' : 'account_id';
  const leftOut: string[] = [];
  const rules = ruleset.rules.map((rule, i) => {
    const out: Record<string, unknown> = {};
    const record = rule as unknown as Readonly<Record<string, unknown>>;
    for (const key of RULE_KEYS) if (record[key] !== undefined) out[key] = record[key];
    for (const key of Object.keys(record).sort()) {
      if (!(RULE_KEYS as readonly string[]).includes(key) && !READ_ONLY_RULE_KEYS.has(key) && record[key] !== undefined) leftOut.push(`rule ${i + 1}: ${key}`);
    }
    return out;
  });
  const body: [string, unknown][] = [
    [scopeKey, scope.id],
    ['name', ruleset.name],
    ['description', ruleset.description ?? ''],
    ['kind', ruleset.kind],
    ['phase', ruleset.phase],
    ['rules', rules],
  ];
  const lines = [
    `# Ruleset ${ruleset.id} ("${oneLine(ruleset.name)}"), as \`rulesets pull\` wrote it.`,
    '# The import block adopts the live ruleset into the state (Terraform 1.5 or later, in the',
    '# root module); once `terraform apply` has imported it, the block may go.',
    'import {',
    `  to = ${address}`,
    `  id = ${hclString(`${scope.kind === 'zone' ? 'zones' : 'accounts'}/${scope.id}/${ruleset.id}`)}`,
    '}',
    '',
    `resource "cloudflare_ruleset" "${name}" {`,
    ...attributes(body, 1),
    '}',
  ];
  return { text: `${lines.join('\n')}\n`, address, leftOut };
}

/** What the service sets on a rule, which the provider reads and never sends. */
const READ_ONLY_RULE_KEYS = new Set(['id', 'version', 'last_updated', 'categories']);

/**
 * A resource name from the ruleset's name: lower case, each run of characters an HCL
 * identifier cannot hold an underscore, starting with a letter (a name block of Terraform
 * must: a letter or underscore, then letters, digits, underscores and dashes).
 */
export function resourceName(name: string, phase: string): string {
  const made = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (made === '') return phase.replace(/[^a-z0-9_]+/g, '_') || 'ruleset';
  return /^[a-z]/.test(made) ? made : `ruleset_${made}`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

const INDENT = '  ';

/**
 * `key = value` lines, the `=` of consecutive one-line attributes aligned as `terraform fmt`
 * aligns them (an attribute whose value takes several lines ends the run).
 */
function attributes(entries: readonly (readonly [string, unknown])[], depth: number): string[] {
  const pad = INDENT.repeat(depth);
  const rendered = entries.filter(([, value]) => value !== undefined).map(([key, value]) => ({ key: hclKey(key), value: hclValue(value, depth) }));
  const lines: string[] = [];
  let i = 0;
  while (i < rendered.length) {
    if (rendered[i].value.includes('\n')) {
      lines.push(`${pad}${rendered[i].key} = ${rendered[i].value}`);
      i++;
      continue;
    }
    let j = i;
    while (j < rendered.length && !rendered[j].value.includes('\n')) j++;
    const width = Math.max(...rendered.slice(i, j).map((r) => r.key.length));
    for (; i < j; i++) lines.push(`${pad}${rendered[i].key.padEnd(width)} = ${rendered[i].value}`);
  }
  return lines;
}

/**
 * A value as HCL: strings quoted, lists of scalars on one line, objects and lists of objects
 * one entry a line. Recursive on values from the API, which the client refuses past
 * MAX_NESTING levels.
 */
function hclValue(value: unknown, depth: number): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return hclString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const pad = INDENT.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => item === null || typeof item !== 'object')) return `[${value.map((item) => hclValue(item, depth)).join(', ')}]`;
    const inner = INDENT.repeat(depth + 1);
    return `[\n${value.map((item) => `${inner}${hclValue(item, depth + 1)},`).join('\n')}\n${pad}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${attributes(entries, depth + 1).join('\n')}\n${pad}}`;
}

/**
 * An object key: bare when it is a plain identifier, quoted otherwise (a header's name, whose
 * `-` a reader could take for a minus) and when it is a word HCL reads as something else there
 * (`for` opens a for expression).
 */
function hclKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !HCL_KEYWORDS.has(key) ? key : hclString(key);
}
const HCL_KEYWORDS = new Set(['for', 'in', 'if', 'true', 'false', 'null']);

/**
 * A quoted HCL string of exactly `text`: `\` and `"` escaped, line breaks and other control
 * characters as escapes, and `${` and `%{`, which would start an interpolation or a template
 * directive, written `$${` and `%%{` (HCL's native syntax spec, "Template Literals").
 */
export function hclString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const code = c.charCodeAt(0);
    if (c === '\\') out += '\\\\';
    else if (c === '"') out += '\\"';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if ((c === '$' || c === '%') && text[i + 1] === '{') out += c + c;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}
