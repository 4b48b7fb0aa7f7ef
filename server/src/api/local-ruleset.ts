/**
 * A local ruleset file as the API takes it: what `deploy` and `create` send, read from the
 * file's JSON or YAML. Every problem that stops the reading is a `WorkflowError`: one line that
 * names the file, the place and the fix.
 */
import * as YAML from 'yaml';
import { isTerraformTemplate, plain, type HostFormat, type HostNode } from '../documents/host/index';
import { rulesetFormatOfPath } from '../documents/classify';
import { MAX_NESTING, nestsDeeperThan } from '../documents/host/index';
import type { IncludeReader } from '../documents/octorules';
import { parseDocument } from '../documents/parsed-document';
import { linePosition } from '../documents/positions';
import { contributionOf, mergeContributions, placesRules, RULE_ORDER_KEYS } from '../documents/entry-point';
import { parseRuleset, type DocumentProblem, type ParsedRuleset, type RulesetLayout } from '../documents/parsed-ruleset';
import { selectRuleset, type RulesetChoice } from '../documents/select-ruleset';
import { quoteAlternatives } from '../language/suggest';
import { SERVICE_SET_RULE_FIELDS, type RuleInput, type RulesetKind } from './types';

/** A user-facing problem: one clear line naming the file, the place and the fix. */
export class WorkflowError extends Error {
  override readonly name: string = 'WorkflowError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A ruleset as the API takes it (create: all of it; update: `rules` and what should change).
 * `name` and `kind` are absent only from a file written for a phase's entry point (no `id`,
 * a `phase`): the service names a new entry point itself and its kind follows from where it is.
 */
export interface RulesetBody {
  readonly name?: string;
  readonly kind?: RulesetKind;
  readonly phase: string;
  readonly description?: string;
  readonly rules: readonly RuleInput[];
}

export interface LocalRuleset {
  readonly path: string;
  readonly text: string;
  readonly format: HostFormat;
  readonly body: RulesetBody;
  /** The ruleset the file is deployed as (set by pull and create). */
  readonly id?: string;
  /** The version the file is based on (set by pull, create and deploy). */
  readonly version?: string;
  /** How the file writes the ruleset: a file of its own (`api`, also when absent), a Terraform resource, an octorules section. */
  readonly layout?: RulesetLayout;
  /** The Terraform resource or octorules section deployed, as `cloudflare_ruleset.waf`, `waf_custom_rules`. */
  readonly label?: string;
  /**
   * An octorules section gives its phase's rules and nothing else (octorules sends only them):
   * the ruleset's name and description stay the live ones.
   */
  readonly rulesOnly?: boolean;
  /** A Terraform resource's or octorules section's ruleset, as read from the file: where its parts are. */
  readonly ruleset?: ParsedRuleset;
}

export interface ReadLocalOptions extends RulesetChoice {
  /** Reads a file an octorules `!include` names. */
  readonly include?: IncludeReader;
  /** Where the file goes: an octorules section is the entry point of its phase there (kind `zone` in a zone, `root` in an account). */
  readonly scope?: 'account' | 'zone';
  /** The file is read to create a ruleset (`POST …/rulesets`), whose body must hold `name`, `kind` and `phase`. */
  readonly create?: boolean;
}

/** Keys of a rule that the service sets and that are never sent back. */
const SERVER_RULE_KEYS = new Set(SERVICE_SET_RULE_FIELDS);
const ORDER_KEYS = new Set<string>(RULE_ORDER_KEYS.map((k) => k.key));

/**
 * A local ruleset file as the body the API takes. The format comes from the extension
 * (`.json`, `.yaml`, `.yml`). Throws a `WorkflowError` when the file cannot be read as a
 * ruleset at all (syntax, a top level that is not a ruleset object, `name`, `kind`, `phase`
 * or `rules` missing or of the wrong type); everything else (expressions, actions, …) is left
 * to the check `planDeploy` runs, which places each problem exactly.
 */
export function readLocalRuleset(path: string, text: string, options: ReadLocalOptions = {}): LocalRuleset {
  const format = rulesetFormatOfPath(path);
  if (!format) throw new WorkflowError(`${path}: not a ruleset file; name it *.json, *.yaml, *.yml or, for Terraform, *.tf`);
  const document = format === 'json' && options.resource === undefined && options.section === undefined ? undefined : parseDocument(text, format, { include: options.include });
  if (document && document.layout !== 'api') return readEmbeddedRuleset(path, text, format, document, options);
  if (document) {
    const chosen = selectRuleset(document, options, choiceFlag);
    if ('problem' in chosen) throw new WorkflowError(`${path}: ${chosen.problem}`);
  }
  // A ruleset file's one ruleset, read once.
  const model = document?.rulesets[0] ?? parseRuleset(text, format);
  const where = (offset: number) => `${path}:${linePosition(text, offset)}`;
  const syntax = model.syntaxProblems[0];
  if (syntax) throw new WorkflowError(`${where(syntax.start)}: ${syntax.message} (\`rulesets check ${path}\` lists every problem)`);
  const root = model.root;
  if (!root || root.kind !== 'object') {
    throw new WorkflowError(`${where(root?.start ?? 0)}: expected a ruleset: an object with \`name\`, \`kind\`, \`phase\` and \`rules\``);
  }
  const value = plainValue(path, text, format) as Record<string, unknown>;
  const hasId = typeof value.id === 'string' && value.id !== '';
  const absent = IDENTITY_KEYS.filter((key) => !root.properties.some((p) => p.key === key));
  // An entry point's PUT needs only `rules` (API.md, op 7), and the phase is in its path.
  const entryPointBody = !hasId && options.create !== true && !absent.includes('phase');
  const missing = entryPointBody ? [] : absent;
  if (missing.length > 0) throw new WorkflowError(`${where(root.start)}: ${identityMissing(missing, hasId, options.create === true)}`);
  for (const key of IDENTITY_KEYS) {
    const found = root.properties.find((p) => p.key === key);
    if (found && typeof value[key] !== 'string') throw new WorkflowError(`${where(found.value?.start ?? found.keyStart)}: expected \`${key}\` to be a string`);
  }
  const rulesProperty = root.properties.find((p) => p.key === 'rules');
  if (!rulesProperty) throw new WorkflowError(`${where(root.start)}: the ruleset has no \`rules\`; add \`rules: []\` (or a list of rules) at the top level`);
  const rules = value.rules;
  if (!Array.isArray(rules)) throw new WorkflowError(`${where(rulesProperty.value?.start ?? rulesProperty.keyStart)}: expected \`rules\` to be a list of rules`);
  const ruleNodes = rulesProperty.value?.kind === 'array' ? rulesProperty.value.items : [];
  rules.forEach((rule, i) => {
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
      throw new WorkflowError(`${where(ruleNodes[i]?.start ?? rulesProperty.keyStart)}: expected rule ${i + 1} to be an object with \`action\` and \`expression\``);
    }
  });
  const body: RulesetBody = {
    ...(typeof value.name === 'string' ? { name: value.name } : {}),
    ...(typeof value.kind === 'string' ? { kind: value.kind as RulesetKind } : {}),
    phase: value.phase as string,
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
    rules: (rules as Record<string, unknown>[]).map(ruleBody),
  };
  // An id is a string (`id: 0123…` unquoted in YAML is a number, which the check reports).
  const id = typeof value.id === 'string' && value.id !== '' ? value.id : undefined;
  const version = scalarText(value.version);
  return { path, text, format, body, ...(id !== undefined ? { id } : {}), ...(version !== undefined ? { version } : {}) };
}

const IDENTITY_KEYS = ['name', 'kind', 'phase'] as const;

/**
 * Why a file without some of `name`, `kind` and `phase` cannot be sent from here. A deploy to
 * a phase's entry point needs only the phase, but a create's POST requires all three (API.md,
 * op 6), a deploy goes to the ruleset of the file's `id` or to its phase's entry point (with
 * neither, there is no telling where), and a file with an `id` keeps the `name` and `kind` a
 * pull wrote.
 */
function identityMissing(missing: readonly string[], hasId: boolean, create: boolean): string {
  const add = `add ${missing.map((key) => `\`${key}: …\``).join(', ')} at the top level`;
  if (create) return `a new ruleset needs \`name\`, \`kind\` and \`phase\` (\`POST …/rulesets\` requires them), and the file has no ${quoteAlternatives(missing)}: ${add}; nothing was sent`;
  if (!hasId && missing.includes('phase')) {
    return `cannot tell where this ruleset goes: it has no \`id\` (the ruleset to update) and no \`phase\` (the entry point to deploy to); add \`phase: …\` or the \`id\` of the ruleset it is at the top level; nothing was sent`;
  }
  return `the ruleset has no ${quoteAlternatives(missing)}, which deploying it from here needs: ${add} (\`rulesets pull\` writes them for a live ruleset); nothing was sent`;
}

/**
 * A ruleset deployed alone whose rules say where they go (`before:`/`after:`, entry-point.ts):
 * its rules in that order, or, when they cannot be put in one (a ref named by no rule of the
 * file, a cycle), the file as it is and the problems, errors on their lines. Any other ruleset
 * is returned as it is.
 */
export function placeOwnRules(local: LocalRuleset): { readonly local: LocalRuleset; readonly problems: readonly DocumentProblem[] } {
  if (local.layout === 'terraform' || !/\b(?:before|after)\b/.test(local.text)) return { local, problems: [] };
  const parsed = local.ruleset ?? parseRuleset(local.text, local.format);
  if (!placesRules(parsed)) return { local, problems: [] };
  const merged = mergeContributions([contributionOf(local.path, parsed)]);
  if (merged.problems.length > 0) return { local, problems: merged.problems.map((p) => ({ code: p.code, severity: 'error', start: p.start, end: p.end, message: p.message })) };
  return { local: { ...local, body: { ...local.body, rules: merged.order.map((p) => local.body.rules[p.rule]) } }, problems: [] };
}

/** How the CLI names a ruleset among its file's others. */
function choiceFlag(key: 'resource' | 'section'): string {
  return key === 'resource' ? '--resource NAME' : '--section NAME';
}

/**
 * A Terraform resource or octorules section as the body the API takes: its values as the
 * reader found them in the file, an octorules rule without `action` with its section's
 * default, and nothing of the layout's own (octorules' per-rule `octorules:` key).
 */
function readEmbeddedRuleset(path: string, text: string, format: HostFormat, document: ReturnType<typeof parseDocument>, options: ReadLocalOptions): LocalRuleset {
  const where = (offset: number) => `${path}:${linePosition(text, offset)}`;
  const broken = document.problems.find((p) => p.severity === 'error');
  if (broken) throw new WorkflowError(`${where(broken.start)}: ${broken.message} (\`rulesets check ${path}\` lists every problem)`);
  const chosen = selectRuleset(document, options, choiceFlag);
  if ('problem' in chosen) throw new WorkflowError(`${path}: ${chosen.problem}`);
  const syntax = chosen.syntaxProblems[0];
  if (syntax) throw new WorkflowError(`${where(syntax.start)}: ${syntax.message} (\`rulesets check ${path}\` lists every problem)`);
  const root = chosen.root;
  const label = chosen.label ?? document.layout;
  if (root?.kind !== 'object') throw new WorkflowError(`${where(root?.start ?? 0)}: ${label} is not a ruleset this tool can read`);
  refuseUnknownParts(path, text, chosen);
  const value = plain(root) as Record<string, unknown>;
  const octorules = document.layout === 'octorules';
  const kind = octorules ? (options.scope === 'account' ? 'root' : 'zone') : value.kind;
  for (const [key, found] of [['phase', value.phase], ...(octorules ? [] : [['name', value.name], ['kind', kind]])] as const) {
    if (typeof found !== 'string') throw new WorkflowError(`${where(root.start)}: ${label} has no \`${key}\` string`);
  }
  const rules = Array.isArray(value.rules) ? (value.rules as unknown[]) : [];
  rules.forEach((rule, i) => {
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new WorkflowError(`${where(chosen.rules[i]?.start ?? root.start)}: expected rule ${i + 1} of ${label} to be an object`);
  });
  const body: RulesetBody = {
    name: octorules ? '' : (value.name as string),
    kind: kind as RulesetKind,
    phase: value.phase as string,
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
    rules: (rules as Record<string, unknown>[]).map((rule) => {
      const { octorules: _own, ...fields } = rule;
      const withAction = fields.action === undefined && chosen.defaultAction !== undefined ? { ...fields, action: chosen.defaultAction } : fields;
      return ruleBody(withAction);
    }),
  };
  return { path, text, format, body, layout: document.layout, label, ruleset: chosen, ...(octorules ? { rulesOnly: true } : {}) };
}

/**
 * Stops a deploy of what the file does not fix: a Terraform interpolation (`${var.x}`) in an
 * expression, which Terraform fills in, and a value this tool could not read (a YAML alias).
 */
function refuseUnknownParts(path: string, text: string, ruleset: ParsedRuleset): void {
  const site = ruleset.sites.find((s) => s.holes && s.holes.length > 0);
  if (site) throw new WorkflowError(`${path}:${linePosition(text, site.node.start)}: this expression has a \`\${…}\` that Terraform fills in, so only Terraform can deploy it; nothing was sent`);
  // A value whose `${…}` is Terraform's would be sent as our stand-in for it.
  const template = firstTemplate(ruleset.root);
  if (template) throw new WorkflowError(`${path}:${linePosition(text, template.start)}: this value has a \`\${…}\` that Terraform fills in, so only Terraform can deploy it; nothing was sent`);
  // Rules a `dynamic "rules"` block or a list expression makes would be left out.
  if (ruleset.rulesComputed) throw new WorkflowError(`${path}:${linePosition(text, ruleset.root?.start ?? 0)}: some rules of ${ruleset.label ?? 'this resource'} are Terraform's to make (a \`dynamic "rules"\` block, a list Terraform computes), so only Terraform can deploy it; nothing was sent`);
  const missing = firstMissingValue(ruleset.root);
  if (missing) throw new WorkflowError(`${path}:${linePosition(text, missing.keyStart)}: the value of \`${missing.key}\` is not written out in the file (a YAML alias, or a Terraform reference); write it out to deploy the file`);
}

/** A string Terraform fills in part of (isTerraformTemplate), depth first. Recursive: a host tree nests MAX_NESTING levels at most. */
function firstTemplate(node: HostNode | undefined): HostNode | undefined {
  if (isTerraformTemplate(node)) return node;
  const children = node?.kind === 'object' ? node.properties.map((p) => p.value) : node?.kind === 'array' ? node.items : [];
  for (const child of children) {
    const found = firstTemplate(child);
    if (found) return found;
  }
  return undefined;
}

/** A property without a value node, depth first. Recursive: a host tree nests MAX_NESTING levels at most. */
function firstMissingValue(node: HostNode | undefined): { key: string; keyStart: number } | undefined {
  if (node?.kind === 'object') {
    for (const p of node.properties) {
      if (!p.value) return p;
      const inner = firstMissingValue(p.value);
      if (inner) return inner;
    }
  } else if (node?.kind === 'array') {
    for (const item of node.items) {
      const inner = firstMissingValue(item);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The file's value as JSON.parse or the yaml library gives it (aliases resolved). */
function plainValue(path: string, text: string, format: HostFormat): unknown {
  if (format === 'json') return JSON.parse(text);
  let value: unknown;
  try {
    value = YAML.parseDocument(text, { uniqueKeys: false }).toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The library resolves aliases only here, and says what is wrong with one by throwing: an
    // alias before its anchor, or aliases that would copy more than MAX_ALIAS_COUNT nodes (a
    // "billion laughs").
    if (!(error instanceof ReferenceError)) throw error;
    if (/excessive alias count/i.test(error.message)) {
      throw new WorkflowError(`${path}: its aliases (\`*name\`) stand for more than ${MAX_ALIAS_COUNT} copies of the nodes they name; write the values out, or use fewer aliases`);
    }
    throw new WorkflowError(`${path}: ${error.message}`);
  }
  // The host tree the file was checked as leaves aliases out: a value an alias names, inside
  // another it names, can nest deeper than the text does, and the diff and the request body
  // write it out again, recursing once per level.
  if (nestsDeeperThan(value)) throw new WorkflowError(`${path}: with its aliases (\`*name\`) resolved, the ruleset nests deeper than ${MAX_NESTING} levels of objects and lists; write the values out, or use fewer aliases`);
  return value;
}

/** How many nodes the aliases of a file may stand for, as the library counts them. */
const MAX_ALIAS_COUNT = 1000;

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** A rule of a file as the API takes it: what the service sets itself is left out. */
function ruleBody(rule: Readonly<Record<string, unknown>>): RuleInput {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rule)) {
    // `before`/`after` are ours (entry-point.ts places the rule by them); the API never sees them.
    if (SERVER_RULE_KEYS.has(key) || ORDER_KEYS.has(key) || value === undefined) continue;
    body[key] = value;
  }
  // A `ref` equal to the id is the service's default, which pull leaves out.
  if (body.ref !== undefined && body.ref === body.id) delete body.ref;
  return body as unknown as RuleInput;
}


