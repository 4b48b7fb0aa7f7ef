/**
 * What a file is: its format, and whether it is a ruleset (and why), a test file of
 * `rulesets test`, or something else. The language server, the CLI and the extension all ask
 * here, so that a file is the same thing to each of them.
 */
import { minimatch } from 'minimatch';
import { parseHost, property, type HostFormat, type HostNode } from './host/index';
import { isOctorulesDocument } from './octorules';

/**
 * Why a file is treated as a ruleset: its name, a `rulesets.files` pattern, its content, or (a
 * Terraform file) a `cloudflare_ruleset` resource in it (or a legacy `cloudflare_filter` or `cloudflare_firewall_rule`).
 */
export type RulesetEvidence = 'name' | 'pattern' | 'content' | 'terraform';

export type FileRole = { readonly role: 'ruleset'; readonly why: RulesetEvidence } | { readonly role: 'ruleset-test' } | { readonly role: 'other' };

const RULESET_NAME = /\.ruleset\.(json|ya?ml)$/i;
const RULESET_TEST_NAME = /\.ruleset\.test\.(json|ya?ml)$/i;
const TEST_SUFFIX = /\.test\.(json|ya?ml)$/i;
const RULESET_EXTENSIONS = ['.yaml', '.yml', '.json', '.tf'] as const;
/**
 * A Terraform file holds a ruleset when it declares the provider's ruleset resource; the label
 * may be quoted or bare, as HCL allows both. A text search, not a parse: classifying must stay
 * cheap, and a match in a comment costs only a read that finds no resource.
 */
const TERRAFORM_RULESET_RESOURCE = /^[ \t]*resource[ \t]+"?cloudflare_(ruleset|filter|firewall_rule)\b/m;

/** JSON or YAML by the file's extension. */
export function formatOfPath(path: string): HostFormat | undefined {
  if (/\.json$/i.test(path)) return 'json';
  if (/\.ya?ml$/i.test(path)) return 'yaml';
  return undefined;
}

/**
 * The format of a file that may hold rulesets: JSON or YAML by formatOfPath, or HCL for a
 * Terraform file (`.tf`). Data files (packets, lists, test files, the configuration) are JSON
 * or YAML only: they use formatOfPath.
 */
export function rulesetFormatOfPath(path: string): HostFormat | undefined {
  return formatOfPath(path) ?? (/\.(tf|tfvars)$/i.test(path) ? 'hcl' : undefined);
}

/** What the CLI says of a file it cannot read rulesets from. */
export const RULESET_EXTENSIONS_TEXT = 'expected .json, .yaml, .yml or .tf';

/**
 * By the editor's language of the document, else by its name. `terraform` is the language id
 * of HashiCorp's Terraform extension (and of Neovim's and Helix's Terraform file types).
 */
export function formatOfDocument(languageId: string, path: string): HostFormat | undefined {
  if (languageId === 'json' || languageId === 'jsonc') return 'json';
  if (languageId === 'yaml') return 'yaml';
  // `terraform-vars`: HashiCorp's extension's language of `.tfvars` files.
  if (languageId === 'terraform' || languageId === 'terraform-vars') return 'hcl';
  return rulesetFormatOfPath(path);
}

/** `*.ruleset.json`, `*.ruleset.yaml`, `*.ruleset.yml`: rulesets by their name alone. */
export function isRulesetFileName(path: string): boolean {
  return RULESET_NAME.test(path);
}

/** `NAME.ruleset.test.yaml`, `.yml` or `.json`: a test file of `rulesets test`. */
export function isRulesetTestFileName(path: string): boolean {
  return RULESET_TEST_NAME.test(path);
}

/** Any other JSON/YAML file is a ruleset when its top level has `rules` (objects) and `phase` or `kind`. */
export function looksLikeRuleset(root: HostNode | undefined): boolean {
  const rules = property(root, 'rules')?.value;
  if (rules?.kind !== 'array' || !rules.items.every((r) => r.kind === 'object')) return false;
  return property(root, 'phase') !== undefined || property(root, 'kind') !== undefined;
}

export interface ClassifyOptions {
  /** `rulesets.files`: more glob patterns of rulesets; one without `/` matches the name in any folder. */
  readonly patterns?: readonly string[];
  /**
   * The file's parsed top level, asked for only when the name and the patterns do not decide;
   * without it, read from `text` (a caller that holds the parsed document passes its root).
   */
  readonly root?: () => HostNode | undefined;
  /**
   * The document's format when the editor knows it from the document's language (an unsaved
   * Terraform document has no `.tf` name); else the name decides.
   */
  readonly format?: HostFormat;
  /** The file's text: a Terraform file is a ruleset file when it declares a `cloudflare_ruleset`. */
  readonly text?: () => string;
  /** False when the user turned Terraform files off (`rulesets.terraform.enable`). */
  readonly terraform?: boolean;
  /**
   * A Terraform file without a `cloudflare_ruleset` of its own: whether characters of it are used
   * by the module's (a local, a variable's value, a `.tfvars` line), which makes it one to check.
   */
  readonly feedsRuleset?: () => boolean;
}

/** The project configuration's name: at the root of a workspace folder (the editor), or in the current folder or a parent of it (the CLI). */
export const PROJECT_CONFIG_FILE_NAME = '.rulesets.yaml';

/** Whether the path (or URI path) names a project configuration file. */
export function isProjectConfigPath(path: string): boolean {
  return path === PROJECT_CONFIG_FILE_NAME || path.endsWith(`/${PROJECT_CONFIG_FILE_NAME}`) || path.endsWith(`\\${PROJECT_CONFIG_FILE_NAME}`);
}

/**
 * What the file at `path` is. A test file is never a ruleset, whatever a pattern or its content
 * says: it has checks of its own; nor is the project configuration, which a pattern such as
 * `*.yaml` matches too. Without `root` or `text`, a file that only its content could make a
 * ruleset is `other`.
 */
export function classifyFile(path: string, options: ClassifyOptions = {}): FileRole {
  const format = options.format ?? rulesetFormatOfPath(path);
  // Patterns and names are for JSON and YAML: a Terraform file is what its resources say.
  if (format === 'hcl') return options.terraform !== false && ((options.text && declaresTerraformRuleset(options.text())) || options.feedsRuleset?.()) ? { role: 'ruleset', why: 'terraform' } : { role: 'other' };
  if (!format && !options.root) return { role: 'other' };
  if (isRulesetTestFileName(path)) return { role: 'ruleset-test' };
  if (isProjectConfigPath(path)) return { role: 'other' };
  if (isRulesetFileName(path)) return { role: 'ruleset', why: 'name' };
  if ((options.patterns ?? []).some((pattern) => minimatch(path, pattern, { matchBase: !pattern.includes('/'), dot: true }))) return { role: 'ruleset', why: 'pattern' };
  const text = options.text;
  const rootOf = options.root ?? (text && format ? () => parseHost(text(), format).root : undefined);
  if (rootOf) {
    const root = rootOf();
    // An octorules rules file holds rulesets, one a section: its content says so, not its name
    // (`rules/example.com.yaml`). octorules reads YAML files only (`*.yaml`, `*.yml`): a JSON
    // file of its layout is another tool's, and parseDocument would read it as a ruleset of ours.
    if (looksLikeRuleset(root) || (format === 'yaml' && isOctorulesDocument(root))) return { role: 'ruleset', why: 'content' };
  }
  return { role: 'other' };
}

/**
 * Whether a Terraform file's text declares a `cloudflare_ruleset` resource, or the legacy
 * `cloudflare_filter` or `cloudflare_firewall_rule` whose expressions are checked as custom
 * rules (and which are told to move to one).
 */
export function declaresTerraformRuleset(text: string): boolean {
  return TERRAFORM_RULESET_RESOURCE.test(text);
}

/**
 * `NAME.test.yaml`, `.yml` or `.json`: cases that `rulesets test` runs against `NAME.yaml`
 * beside them. The editor checks only `NAME.ruleset.test.*` as test files, since other
 * `*.test.yaml` files are too often something else.
 */
export function isTestFileName(path: string): boolean {
  return TEST_SUFFIX.test(path);
}

/** The rulesets a test file stands beside: `NAME.ruleset.test.yaml` → `NAME.ruleset.yaml`, `.yml`, `.json`, `.tf`, in that order. */
export function rulesetPathsBesideTest(testPath: string): string[] {
  const stem = testPath.replace(TEST_SUFFIX, '');
  return RULESET_EXTENSIONS.map((ext) => stem + ext);
}
