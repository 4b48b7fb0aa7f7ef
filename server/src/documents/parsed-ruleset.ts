/**
 * A ruleset document as every check and feature reads it: the host tree of its JSON or YAML,
 * its phase, its rules and the places of their expression strings, parsed once.
 */
import { detached, isTerraformTemplate, parseHost, property, type HostDocument, type HostFormat, type HostNode, type HostObject, type HostProperty, type HostScalar } from './host/index';
import type { DocumentEdit } from './host/index';
import { coarseDecodedString, VerbatimDecodedString, type DecodedString } from './host/index';
import { convertPrimitive } from './terraform-types';
import { expressionStrings, ruleObjectInPhase, type ExpressionString } from './parameter-sites';
import type { ValueType } from '../language/ast';
import { actionSchema, ruleObjectSchema } from '../language/catalogue/actions';
import { RULE_OBJECT_KEYS, type ParameterExpressionKind, type ParameterType, type RuleObjectKey } from '../language/catalogue/action-schema';
import type { Severity } from '../language/problem';

/** An edit in document offsets. */
export interface DocumentFix {
  readonly title: string;
  /** Edits of the document; text inserted into a string is already escaped for it. */
  readonly edits: readonly DocumentEdit[];
}

/** Another place in the document that explains a problem (the rule it repeats). */
export interface RelatedPlace {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** A problem anywhere in a ruleset file, in document offsets. */
export interface DocumentProblem {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
  readonly fixes?: readonly DocumentFix[];
  readonly related?: readonly RelatedPlace[];
}

/** What an expression site holds: a filter (a rule's `expression`, `ratelimit.counting_expression`) or a value expression (a rewrite, a redirect target, a header value). */
export type SiteKind = ParameterExpressionKind;

export interface ExpressionSite {
  readonly kind: SiteKind;
  /** Index of the rule in `rules`. */
  readonly ruleIndex: number;
  /** From the rule to the string: `['expression']`, `['ratelimit', 'counting_expression']`, `['action_parameters', 'uri', 'path', 'expression']`. */
  readonly path: readonly string[];
  /** A value site's types: what its place takes. */
  readonly expect?: readonly ValueType[];
  /**
   * Parts of `text` the file does not fix (a Terraform `${…}` interpolation), as ranges of
   * `text`: each stands for what the file will put there, is never reported as a mistake, and
   * the expression says once that it was not checked there.
   */
  readonly holes?: readonly { readonly start: number; readonly end: number }[];
  /**
   * Terraform: parts of `text` written in another file of the module (a variable's value, a
   * local), as ranges of `text`: what is found there alone is that file's to show, and nothing
   * here edits them.
   */
  readonly elsewhere?: readonly { readonly start: number; readonly end: number }[];
  /** Terraform: parts of `text` a `${…}` of this file brings in from another: shown on the `${…}`, never edited from here. */
  readonly brought?: readonly { readonly start: number; readonly end: number }[];
  /** Terraform: offsets of `text` where its characters come from another string before and after: no edit spans them. */
  readonly seams?: readonly number[];
  readonly node: HostScalar;
  /** The expression as the service receives it (escapes and YAML quoting undone). */
  readonly text: string;
  /**
   * The string is inside a YAML flow collection (`- {action: block, expression: …}`), where
   * a plain scalar cannot hold `{`, `}`, `[`, `]` or `,`.
   */
  readonly inFlow?: boolean;
  /**
   * The text with its offset map into the document, built on first use: most expressions
   * have no problems, and a re-check after one edit should cost about one expression.
   */
  decoded(): DecodedString;
}

export type FilterSite = ExpressionSite & { readonly kind: 'filter' };
export type ValueSite = ExpressionSite & { readonly kind: 'value' };

/** Whether the site is a rule's own `expression` (one of `ParsedRuleset.expressions`). */
export function isRuleExpression(site: ExpressionSite): site is FilterSite {
  return site.path.length === 1 && site.path[0] === 'expression';
}

/**
 * What a value expression in a rule's parameters must return: a string (LANGUAGE.md §11: a
 * redirect's target URL, a rewritten path or query, a header's value; and a Bulk Redirect's key,
 * an exposed-credential user name or password), but the list of tags for `set_cache_tags`
 * (cache-response-rules/settings.mdx, as actions.ts cites it).
 */
function valueTypesOf(target: string): readonly ValueType[] {
  return target === 'set_cache_tags' ? ARRAY_OF_STRINGS : STRING;
}
const STRING: readonly ValueType[] = ['Bytes'];
const ARRAY_OF_STRINGS: readonly ValueType[] = ['Array<Bytes>'];

/**
 * Where a ruleset is written: a file of its own in the API's shape, a Terraform
 * `cloudflare_ruleset` resource (one of several in a `.tf` file), or a section of an octorules
 * rules file (one of several, each a phase).
 */
export type RulesetLayout = 'api' | 'terraform' | 'octorules';

export interface ParsedRuleset {
  readonly format: HostFormat;
  readonly text: string;
  /**
   * The ruleset's object in the API's shape (`name`, `kind`, `phase`, `rules`): for a file of
   * its own, the document's top level; for Terraform and octorules, an object built from the
   * resource or section whose keys and values are the file's own characters.
   */
  readonly root?: HostNode;
  readonly phase?: string;
  readonly layout: RulesetLayout;
  /** How a report names the ruleset among the others of its file: `cloudflare_ruleset.waf`, `waf_custom_rules`. */
  readonly label?: string;
  /** octorules: the action a rule without one gets (the section's default), which then needs no `action`. */
  readonly defaultAction?: string;
  /**
   * Terraform's `rules { … }` blocks (provider v4) write parameters in the provider's own block
   * shapes, not the API's: their expressions are found, but their shape is not held to the API's.
   */
  readonly parametersInProviderShape?: boolean;
  /**
   * Some of the rules are Terraform's to make (a `dynamic "rules"` block, a list item that is
   * an expression): the rules read are not all there are, so they are not compared with each
   * other (a `skip` that looks last may not be).
   */
  readonly rulesComputed?: boolean;
  /**
   * A Terraform `cloudflare_filter` of the ended Firewall Rules, read as a custom rule's
   * ruleset of one rule (its `expression`) so that the expression is checked, hovered and
   * completed as one: no ruleset to deploy or test.
   */
  readonly legacyFilter?: boolean;
  /**
   * Terraform: the ruleset holds this file's characters used by a resource of the module (in
   * another file, perhaps): what its findings say, after their message, of the resource that
   * uses them (`in \`cloudflare_ruleset.waf\`, main.tf:12`).
   */
  readonly usedBy?: string;
  /**
   * Terraform: ranges of this file's values that the module's evaluation knows and checks (a
   * `templatefile(…)`, a `var.x` with a default), which are then not named as filled in by Terraform.
   */
  readonly knownValues?: readonly { readonly start: number; readonly end: number }[];
  /** Terraform: whose ruleset the resource is, `zone_id` or `account_id` and its value as written (plan-limits.ts counts a zone's custom rulesets by it). */
  readonly owner?: RulesetOwner;
  /** Terraform: the resource has `count` or `for_each`, so it stands for a number of rulesets not said here. */
  readonly repeated?: boolean;
  readonly rules: readonly HostNode[];
  /** The rules' own `expression` strings, in rule order. */
  readonly expressions: readonly FilterSite[];
  /** Every expression site: the rules' own and those in their parameters, in document order. */
  readonly sites: readonly ExpressionSite[];
  /** JSON or YAML syntax errors of the host document. */
  readonly syntaxProblems: readonly DocumentProblem[];
}

/** A file as the rulesets in it (parsed-document.ts reads one). */
export interface ParsedDocument {
  readonly format: HostFormat;
  /** How its rulesets are written: `api` for a ruleset file, else the file's one layout. */
  readonly layout: RulesetLayout;
  readonly text: string;
  /** In document order; each ruleset's root spans its resource or section. */
  readonly rulesets: readonly ParsedRuleset[];
  /**
   * Problems of the file rather than of one of its rulesets (syntax of a Terraform or
   * octorules file, a `ref` repeated across sections). A ruleset file's syntax problems stay
   * with its one ruleset, as they always have.
   */
  readonly problems: readonly DocumentProblem[];
  /** The whole file's host tree, where the rulesets' roots are built from parts of it (octorules): disable directives read the file through it. */
  readonly root?: HostNode;
  /**
   * octorules: the files its `!include`s read, each with the rules it adds to a section. Their
   * offsets are in their own text; checkDocument shows their problems on the `!include`.
   */
  readonly included?: readonly IncludedFile[];
}

/**
 * A file an `!include` read, with what was read from it. Its offsets are in its own `text`;
 * `start` and `end` are the characters of the document's `!include` that reaches it (through
 * other included files, perhaps), where its problems are shown.
 */
export interface IncludedFile {
  /** Relative to the document's folder, as the reader was asked for it. */
  readonly path: string;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** The rules it adds to a section, as a ruleset of that section's phase. */
  readonly ruleset?: ParsedRuleset;
  /** Problems of the file itself: its YAML syntax, a `ref` repeated, an include it cannot read. */
  readonly problems: readonly DocumentProblem[];
}

export function parseRuleset(text: string, format: HostFormat): ParsedRuleset {
  return rulesetOfHost(text, parseHost(text, format));
}

/** The ruleset a parsed host document holds. */
export function rulesetOfHost(text: string, host: HostDocument): ParsedRuleset {
  return rulesetOfRoot(text, host.format, host.root, { layout: 'api', syntaxProblems: hostSyntaxProblems(text, host) });
}

/** A JSON or YAML document's syntax errors as problems of the file. */
export function hostSyntaxProblems(text: string, host: HostDocument): DocumentProblem[] {
  return host.syntaxErrors.map((e) => ({
    // A Terraform file is read by terraform.ts, which reports its own syntax (hcl-syntax).
    code: host.format === 'json' ? 'json-syntax' : 'yaml-syntax',
    severity: 'error' as const,
    message: e.message,
    start: e.start,
    end: Math.min(e.end, text.length),
  }));
}

/** The zone or account a Terraform resource's ruleset belongs to: the attribute, and its value's text. */
export interface RulesetOwner {
  readonly key: 'zone_id' | 'account_id';
  readonly written: string;
  readonly start: number;
  readonly end: number;
}

/** What a ruleset read from a Terraform or octorules file has beside its root (ParsedRuleset's members of the same names). */
export interface RulesetExtras {
  readonly layout: RulesetLayout;
  readonly owner?: RulesetOwner;
  readonly repeated?: boolean;
  readonly label?: string;
  readonly defaultAction?: string;
  readonly parametersInProviderShape?: boolean;
  readonly rulesComputed?: boolean;
  readonly legacyFilter?: boolean;
  /** The phase of a ruleset whose root names none, as its resource type implies it (a `cloudflare_filter`'s). */
  readonly phase?: string;
  readonly syntaxProblems?: readonly DocumentProblem[];
  /** An expression site's interpolation holes, by its node (Terraform). */
  readonly holesOf?: (node: HostScalar) => ExpressionSite['holes'];
}

/** The ruleset whose API-shaped object is `root` (a document's top level, or one built from a resource or section). */
export function rulesetOfRoot(text: string, format: HostFormat, root: HostNode | undefined, extras: RulesetExtras): ParsedRuleset {
  const phaseNode = property(root, 'phase')?.value;
  const rulesNode = property(root, 'rules')?.value;
  const rules = rulesNode?.kind === 'array' ? rulesNode.items : [];
  // Its own copy: the phase goes into the expression cache's keys, which outlive the document.
  const phase = phaseNode?.kind === 'string' ? detached(String(phaseNode.value)) : extras.phase;
  const expressions: FilterSite[] = [];
  const sites: ExpressionSite[] = [];
  // The same for every rule: looked up once.
  const objectKeys = RULE_OBJECT_KEYS.filter((key) => ruleObjectInPhase(key, phase));
  const { holesOf, defaultAction } = extras;
  const inYaml = format === 'yaml';
  for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
    const rule = rules[ruleIndex];
    if (rule.kind !== 'object') continue;
    const read = readRule(rule, objectKeys);
    const { action, parameters, objects } = read;
    // Terraform converts `expression = true` (a bool or number) to the string it reads as.
    const expression = format === 'hcl' ? terraformString(text, read.expression) : read.expression;
    if (expression?.kind === 'string') {
      const site = new Site('filter', ruleIndex, EXPRESSION_PATH, expression, holesOf?.(expression), inYaml && !rule.block) as FilterSite;
      expressions.push(site);
      sites.push(site);
    }
    if (objects) for (let i = 0; i < objectKeys.length; i++) pushParameterSites(rule, ruleIndex, objectKeys[i], objects[i], ruleObjectSchema(objectKeys[i]), objectKeys[i], format, holesOf, sites);
    if (!parameters) continue;
    const actionName = actionNamed(action, defaultAction);
    if (actionName !== undefined) pushParameterSites(rule, ruleIndex, actionName, parameters, actionSchema(actionName)?.parameters, 'action_parameters', format, holesOf, sites);
  }
  // A rule's parameters may come before its `expression`; most files have none with expressions.
  if (!inDocumentOrder(sites)) sites.sort((a, b) => a.node.start - b.node.start);
  const { syntaxProblems = [], holesOf: _, phase: __, ...described } = extras;
  return { format, text, root, phase, rules, expressions, sites, syntaxProblems, ...described };
}

/**
 * The values of a rule's keys that hold expressions, each its first property of that key's (as
 * `property` reads it), found in one pass over the rule's properties rather than one per key:
 * `objects` holds those of `objectKeys`, in their order, when the rule has any of them.
 */
function readRule(
  rule: HostObject,
  objectKeys: readonly RuleObjectKey[],
): { expression?: HostNode; action?: HostNode; parameters?: HostNode; objects?: (HostNode | undefined)[] } {
  let expression: HostProperty | undefined;
  let action: HostProperty | undefined;
  let parameters: HostProperty | undefined;
  let objects: (HostNode | undefined)[] | undefined;
  let objectsSeen: boolean[] | undefined;
  for (const p of rule.properties) {
    switch (p.key) {
      case 'expression':
        expression ??= p;
        break;
      case 'action':
        action ??= p;
        break;
      case 'action_parameters':
        parameters ??= p;
        break;
      default: {
        const i = objectKeys.indexOf(p.key as RuleObjectKey);
        if (i < 0 || objectsSeen?.[i]) break;
        objects ??= new Array<HostNode | undefined>(objectKeys.length).fill(undefined);
        objectsSeen ??= new Array<boolean>(objectKeys.length).fill(false);
        objects[i] = p.value;
        objectsSeen[i] = true;
      }
    }
  }
  return { expression: expression?.value, action: action?.value, parameters: parameters?.value, objects };
}

/**
 * A value of a Terraform file as the string Terraform converts it to: a number or bool as its
 * text, which maps onto the characters written where it is the same text (`true`).
 */
function terraformString(text: string, node: HostNode | undefined): HostNode | undefined {
  const conversion = node && convertPrimitive(node, 'string');
  if (!conversion || !('value' in conversion)) return node;
  const value = String(conversion.value.value);
  const verbatim = text.slice(node!.start, node!.end) === value;
  const decoded = (): DecodedString => (verbatim ? new VerbatimDecodedString(value, node!.start) : coarseDecodedString(value, node!.start, node!.end));
  return { kind: 'string', start: node!.start, end: node!.end, value, decode: decoded };
}

/** A rule's own expression's path, shared by its every site. */
const EXPRESSION_PATH: readonly string[] = ['expression'];

function inDocumentOrder(sites: readonly ExpressionSite[]): boolean {
  for (let i = 1; i < sites.length; i++) if (sites[i].node.start < sites[i - 1].node.start) return false;
  return true;
}

/**
 * An expression site. One class rather than an object literal with a closure for `decoded`:
 * a file has thousands of sites, each of which was two objects.
 */
class Site implements ExpressionSite {
  readonly text: string;
  // Set only where they are: most sites have none of them.
  declare expect?: readonly ValueType[];
  declare holes?: readonly { readonly start: number; readonly end: number }[];
  declare inFlow?: boolean;
  private decodedText: DecodedString | undefined = undefined;

  constructor(
    readonly kind: SiteKind,
    readonly ruleIndex: number,
    readonly path: readonly string[],
    readonly node: HostScalar,
    holes: ExpressionSite['holes'],
    inFlow: boolean,
  ) {
    this.text = String(node.value);
    if (holes && holes.length > 0) this.holes = holes;
    if (inFlow) this.inFlow = true;
  }

  decoded(): DecodedString {
    return (this.decodedText ??= this.node.decode?.() ?? coarseDecodedString(this.text, this.node.start, this.node.end));
  }
}

/**
 * The sites of the expression strings under `node`, a rule's `action_parameters` or rule-level
 * object (`ratelimit`, …), as `schema` marks them; a value expression with the types its place
 * takes (those of `target`, the action or object).
 */
function pushParameterSites(
  rule: HostObject,
  ruleIndex: number,
  target: string,
  node: HostNode | undefined,
  schema: ParameterType | undefined,
  key: string,
  format: HostFormat,
  holesOf: RulesetExtras['holesOf'],
  sites: ExpressionSite[],
): void {
  if (!node || !schema || !holdsExpressions(schema)) return;
  const found: ExpressionString[] = [];
  expressionStrings(node, schema, [key], found, !rule.block);
  for (const string of found) {
    const site = new Site(string.kind, ruleIndex, string.path, string.node, holesOf?.(string.node), format === 'yaml' && string.inFlow);
    if (string.kind === 'value') site.expect = valueTypesOf(target);
    sites.push(site);
  }
}

/** Whether a schema marks any string in it as an expression, by schema (the catalogue's, which live as long as the process). */
const schemaHoldsExpressions = new WeakMap<ParameterType, boolean>();

/**
 * Whether some value of the type may be an expression: most actions' parameters (`skip`'s,
 * `log`'s) hold none, and are then not walked for expressions in every rule that has them.
 */
function holdsExpressions(type: ParameterType): boolean {
  let holds = schemaHoldsExpressions.get(type);
  if (holds !== undefined) return holds;
  // Said first, so that a type that contains itself ends the walk (the catalogue's do not):
  // "may hold", which only costs a walk.
  schemaHoldsExpressions.set(type, true);
  switch (type.kind) {
    case 'string':
      holds = type.expression !== undefined;
      break;
    case 'object':
      holds = type.keys.some((k) => holdsExpressions(k.type)) || (type.values !== undefined && holdsExpressions(type.values));
      break;
    case 'array':
      holds = holdsExpressions(type.items);
      break;
    case 'union':
      holds = type.types.some(holdsExpressions);
      break;
    default:
      holds = false;
  }
  schemaHoldsExpressions.set(type, holds);
  return holds;
}

/**
 * The action a rule takes: its own `action` (with its node), or, where it has none, the
 * default of its octorules section, which octorules puts there before the API sees the rule.
 * Undefined when `action` is there but not a string, or when there is neither.
 */
export function actionOfRule(rule: HostNode, defaultAction: string | undefined): { readonly name: string; readonly node?: HostScalar } | undefined {
  const action = property(rule, 'action')?.value;
  const name = actionNamed(action, defaultAction);
  if (name === undefined) return undefined;
  return action?.kind === 'string' ? { name, node: action } : { name };
}

/** The action's name, given a rule's `action` value: see actionOfRule. */
function actionNamed(action: HostNode | undefined, defaultAction: string | undefined): string | undefined {
  // An action Terraform fills in (`"${var.action}"`) is not known.
  if (action?.kind === 'string') return isTerraformTemplate(action) ? undefined : String(action.value);
  return action === undefined ? defaultAction : undefined;
}
