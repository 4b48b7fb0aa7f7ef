/**
 * The project configuration, `.rulesets.yaml`: what a team agrees on for all its ruleset
 * files (the phase of files that name none, the account's lists, more ruleset file patterns,
 * codes turned off or made stricter), read the same way by `rulesets check` and the language
 * server. Text in, configuration and problems out: each mistake is reported at its place with
 * the fix, and the rest of the file is still used.
 */
import { isListKind, LIST_KINDS, type ListKind } from '../language/catalogue/lists';
import { KNOWN_PHASES } from '../language/catalogue/phases';
import { ADDONS, isAddon, isPlan, PLANS, type Addon, type Plan } from '../language/catalogue/plans';
import { PROBLEM_CODES } from '../language/problem-codes';
import type { Severity } from '../language/problem';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { PROJECT_CONFIG_FILE_NAME } from './classify';
import { parseHost, type HostNode, type HostObject, type HostProperty, type HostScalar } from './host/index';
import { renameKeyEdit, replaceScalarEdit } from './host/index';
import type { DocumentFix, DocumentProblem } from './parsed-ruleset';

/** What a code can be set to under `rules`: `off` drops its findings. */
export type RuleSeverity = 'off' | 'error' | 'warning' | 'information';

export const RULE_SEVERITIES: readonly RuleSeverity[] = ['off', 'error', 'warning', 'information'];

/** Other spellings taken without complaint: ESLint's `warn`, and the short `info`. */
const SEVERITY_SYNONYMS: Readonly<Record<string, RuleSeverity>> = { warn: 'warning', info: 'information' };

/** The configuration as read: a key is present only when the file sets it (so that it overrides). */
export interface ProjectConfig {
  readonly phase?: string;
  readonly plan?: Plan;
  /** The account's paid add-ons, where the file lists them (an empty list: none). */
  readonly addons?: readonly Addon[];
  readonly lists?: readonly string[];
  /** What the lists hold, by name, where `lists` is a mapping that says (`{office_networks: ip}`). */
  readonly listKinds?: Readonly<Record<string, ListKind>>;
  readonly files?: readonly string[];
  readonly rules?: Readonly<Record<string, RuleSeverity>>;
  /** `terraform: {var_files: [...]}`: the `.tfvars` files, beside the ones Terraform reads itself, that a module's values come from (as `-var-file`), relative to each module's folder. */
  readonly terraformVarFiles?: readonly string[];
  /** `targets:`: where each set of files goes (an account or a zone), each item as written. */
  readonly targets?: readonly TargetConfig[];
  /** `apply:`: the mass-change thresholds of `rulesets apply` and where its audit log goes, as written. */
  readonly apply?: ApplyConfig;
}

/** `apply:` as written: each threshold a count (a percent for `max_removed_percent`); `audit_log` relative to the folder of `.rulesets.yaml`. */
export interface ApplyConfig {
  readonly max_removed?: number;
  readonly max_changed?: number;
  readonly max_removed_total?: number;
  readonly max_changed_total?: number;
  readonly max_removed_percent?: number;
  readonly audit_log?: string;
}

/** The keys of `apply:`. */
export const APPLY_KEYS = ['max_removed', 'max_changed', 'max_removed_total', 'max_changed_total', 'max_removed_percent', 'audit_log'] as const;

/**
 * One item of `targets:`: the files (globs relative to the folder of `.rulesets.yaml`) that go
 * to one account or zone, and that target's plan and add-ons. Exactly one of `zone` and
 * `account` is set: a zone as a 32-hex-digit id or as its name (resolved through the API).
 */
export interface TargetConfig {
  readonly files: readonly string[];
  readonly zone?: string;
  readonly account?: string;
  readonly plan?: Plan;
  readonly addons?: readonly Addon[];
  /** Where the item is in `.rulesets.yaml` (offsets), for messages about it. */
  readonly start: number;
  readonly end: number;
}

/** The keys of an item of `targets:`. */
export const TARGET_KEYS = ['files', 'zone', 'account', 'plan', 'addons'] as const;

export type TargetKey = (typeof TARGET_KEYS)[number];

/** What each key of an item of `targets:` means (completion and hover). */
export const TARGET_KEY_DESCRIPTIONS: Readonly<Record<TargetKey, { readonly type: string; readonly description: string }>> = {
  files: { type: 'string or array of string', description: 'The files that go to this target: a glob or a list of globs, relative to the folder of `.rulesets.yaml` (`zones/example.com/*.yaml`). A file goes to one target.' },
  zone: { type: 'string', description: "The zone these files go to: its name (`example.com`, looked up through the API when planning) or its id (32 hex digits). Give `zone` or `account`, not both." },
  account: { type: 'string', description: 'The account these files go to: its id (32 hex digits). Give `zone` or `account`, not both.' },
  plan: { type: 'string', description: "This zone's plan (`free`, `pro`, `business` or `enterprise`): its files are checked with it, over the top-level `plan`." },
  addons: { type: 'array of string', description: "This zone's paid add-ons (`bot_management`, `advanced_rate_limiting`): its files are checked with them, over the top-level `addons`." },
};

/** An account or zone id: 32 lowercase hex digits. */
export const SCOPE_ID = /^[0-9a-f]{32}$/;

/** A zone's name: a domain of two labels or more (letters, digits, `-`; `xn--` for the others). */
export const ZONE_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

export interface ProjectConfigReading {
  readonly config: ProjectConfig;
  readonly problems: readonly DocumentProblem[];
}

/**
 * The file's shape, as a JSON schema would give it: each key with the type of its value, what
 * it means and an example (for completion and hover, and the messages of a wrong value).
 */
export const PROJECT_CONFIG_SCHEMA = {
  phase: {
    type: 'string',
    values: 'a phase (KNOWN_PHASES); one this version does not know is used with a warning',
    description: 'The phase of a ruleset file that names none: it decides which fields and functions exist.',
    example: 'phase: magic_transit',
  },
  plan: {
    type: 'string',
    values: '`free`, `pro`, `business` or `enterprise`',
    description: "The account's plan: a field, operator or function that needs a higher plan (`matches` needs Business) is reported. Without it, no plan is assumed and none is reported.",
    example: 'plan: business',
  },
  addons: {
    type: 'array of string',
    values: '`bot_management`, `advanced_rate_limiting`',
    description:
      "The account's paid add-ons, with `plan`: Bot Management's fields (`cf.bot_management.…`) need `bot_management`, and `advanced_rate_limiting` raises the rate limiting rules an Enterprise zone may have. Without it, nothing that an add-on decides is reported.",
    example: 'addons: [bot_management, advanced_rate_limiting]',
  },
  lists: {
    type: 'array of string, or object of name: kind',
    values: 'account list names: lowercase letters, digits and `_`, without `$`; as a mapping, each with its kind: `ip`, `asn`, `hostname` or `redirect` (or nothing)',
    description:
      "The account's list names: `$name` in an expression must then be one of them (or a managed list). Written as a mapping, each name with what the list holds: a list after a field its kind does not fit is then an error rather than a warning.",
    example: 'lists: {office_networks: ip, blocked_asns: asn}',
  },
  files: {
    type: 'array of string',
    values: 'glob patterns, relative to the folder of `.rulesets.yaml`; one without `/` matches the file name in any folder',
    description: 'More ruleset files, beside `*.ruleset.json`, `*.ruleset.yaml` and `*.ruleset.yml`.',
    example: 'files: ["firewall/*.yaml"]',
  },
  rules: {
    type: 'object of code: severity',
    values: 'a code (PROBLEM_CODES) to `off`, `error`, `warning` or `information` (`warn` and `info` are taken too); an error stays an error',
    description: 'Severities by diagnostic code: `off` turns a warning off, `error` makes it fail `rulesets check`. Errors the service would reject cannot be turned off or lowered.',
    example: 'rules:\n  shadowed-rule: error\n  always-true: off',
  },
  terraform: {
    type: 'object of var_files: array of string',
    values: '`var_files`: `.tfvars` file paths, relative to the folder of each Terraform module',
    description:
      "How a Terraform module's values are read: `var_files` are the `.tfvars` files given to Terraform as `-var-file`, read after `terraform.tfvars` and `*.auto.tfvars`, in order; their values are checked where they are written.",
    example: 'terraform:\n  var_files: [prod.tfvars]',
  },
  targets: {
    type: 'array of {files, zone | account, plan?, addons?}',
    values: '`files`: a glob or a list of globs, relative to the folder of `.rulesets.yaml`; `zone`: a zone id (32 hex digits) or name; `account`: an account id; `plan` and `addons` as at the top',
    description:
      "Where the ruleset files go: each item sends its `files` to one zone or account, with that zone's `plan` and `addons` (which then win over the top-level ones for those files). An octorules file that no item names goes to the zone of its file name (`rules/example.com.yaml`: `example.com`).",
    example: 'targets:\n  - files: zones/example.com/*.yaml\n    zone: example.com\n    plan: business\n  - files: account/*.json\n    account: 0123456789abcdef0123456789abcdef',
  },
  apply: {
    type: 'object of max_removed, max_changed, max_removed_total, max_changed_total, max_removed_percent: number; audit_log: string',
    values: '`max_removed` (default 10) and `max_changed` (100): most rules per target; `max_removed_total` (50) and `max_changed_total` (1000): in all; `max_removed_percent` (50): most of one ruleset\'s rules removed, where it loses 3 or more; `audit_log`: a path (default `.rulesets/audit.log`)',
    description: '`rulesets apply` refuses a plan past a threshold unless given `--allow-mass-change`, and appends one line per write to the audit log, relative to the folder of `.rulesets.yaml`.',
    example: 'apply:\n  max_removed: 5\n  audit_log: .rulesets/audit.log',
  },
} as const;

export type ProjectConfigKey = keyof typeof PROJECT_CONFIG_SCHEMA;
export const PROJECT_CONFIG_KEYS = Object.keys(PROJECT_CONFIG_SCHEMA) as ProjectConfigKey[];

/** The names of the editor settings, which people carry over: where the same thing is set here. */
const SETTING_NAMES: Readonly<Record<string, string>> = {
  knownLists: "the account's list names are `lists`",
  defaultPhase: 'the phase of files that name none is `phase`',
  hints: 'codes are turned off under `rules`, e.g. `always-true: off`',
};

/** Account list names: managed lists (`svc.…`) are always known, and account lists have no dots. */
const ACCOUNT_LIST_NAME = /^[a-z0-9_]+$/;

type Report = (severity: Severity, code: string, start: number, end: number, message: string, fixes?: readonly DocumentFix[]) => void;

export function readProjectConfig(text: string): ProjectConfigReading {
  const problems: DocumentProblem[] = [];
  const report: Report = (severity, code, start, end, message, fixes) =>
    problems.push(fixes && fixes.length > 0 ? { code, severity, message, start, end, fixes } : { code, severity, message, start, end });
  const host = parseHost(text, 'yaml');
  for (const e of host.syntaxErrors) report('error', 'yaml-syntax', e.start, Math.min(e.end, text.length), e.message);
  // Half a file is not read: a broken mapping could shift what the rest of it means.
  if (host.syntaxErrors.length > 0) return { config: {}, problems };
  const root = host.root;
  if (!root || root.kind === 'null') return { config: {}, problems };
  if (root.kind !== 'object') {
    report('error', 'invalid-type', root.start, root.end, `expected a mapping of ${quoteAlternatives(PROJECT_CONFIG_KEYS).replace(' or ', ' and ')} in \`${PROJECT_CONFIG_FILE_NAME}\`, found ${describe(root)}`);
    return { config: {}, problems };
  }
  const config: { phase?: string; plan?: Plan; addons?: Addon[]; lists?: string[]; listKinds?: Record<string, ListKind>; files?: string[]; rules?: Record<string, RuleSeverity>; terraformVarFiles?: string[]; targets?: TargetConfig[]; apply?: ApplyConfig } = {};
  const seen = new Set<string>();
  for (const p of root.properties) {
    if (seen.has(p.key)) {
      report('error', 'duplicate-key', p.keyStart, p.keyEnd, `\`${p.key}\` appears twice in \`${PROJECT_CONFIG_FILE_NAME}\`; only the first is used`);
      continue;
    }
    seen.add(p.key);
    // A key without a value is one being typed: it sets nothing yet.
    if (!p.value || p.value.kind === 'null') continue;
    switch (p.key) {
      case 'phase': {
        const phase = readPhase(p.value, report);
        if (phase !== undefined) config.phase = phase;
        break;
      }
      case 'plan': {
        const plan = readPlan(p.value, report);
        if (plan !== undefined) config.plan = plan;
        break;
      }
      case 'addons': {
        const addons = readStrings(p, report, (node) => readAddon(node, report));
        if (addons) config.addons = [...new Set(addons)] as Addon[];
        break;
      }
      case 'lists': {
        if (p.value.kind === 'object') {
          const { names, kinds } = readListKinds(p.value, report);
          config.lists = names;
          if (Object.keys(kinds).length > 0) config.listKinds = kinds;
          break;
        }
        const lists = readStrings(p, report, (node) => readListName(node, report));
        if (lists) config.lists = lists;
        break;
      }
      case 'files': {
        const files = readStrings(p, report, (node) => node.value as string);
        if (files) config.files = files;
        break;
      }
      case 'rules': {
        const rules = readRules(p.value, report);
        if (rules) config.rules = rules;
        break;
      }
      case 'terraform': {
        const varFiles = readTerraformKeys(p.value, report);
        if (varFiles) config.terraformVarFiles = varFiles;
        break;
      }
      case 'targets': {
        const targets = readTargets(p.value, report);
        if (targets) config.targets = targets;
        break;
      }
      case 'apply': {
        const apply = readApplyKeys(p.value, report);
        if (apply) config.apply = apply;
        break;
      }
      default:
        reportUnknownKey(p, root, report);
    }
  }
  return { config, problems };
}

function reportUnknownKey(p: HostProperty, root: HostObject, report: Report): void {
  const message = `unknown key \`${p.key}\` in \`${PROJECT_CONFIG_FILE_NAME}\``;
  if (Object.hasOwn(SETTING_NAMES, p.key)) {
    report('error', 'unknown-key', p.keyStart, p.keyEnd, `${message}; ${SETTING_NAMES[p.key]}`);
    return;
  }
  const meant = closestMatches(p.key, PROJECT_CONFIG_KEYS).filter((k) => !root.properties.some((other) => other.key === k));
  const hint = meant.length > 0 ? `; did you mean ${quoteAlternatives(meant)}?` : `; the keys are ${quoteAlternatives(PROJECT_CONFIG_KEYS)}`;
  report('error', 'unknown-key', p.keyStart, p.keyEnd, message + hint, meant.map((k) => ({ title: `Change to \`${k}\``, edits: [renameKeyEdit(p, k)] })));
}

/**
 * A misspelt phase is an error, as `--phase` is; a phase like none this version knows is
 * used, with a warning: the service adds phases, and a stale list must not block anyone.
 */
function readPhase(node: HostNode, report: Report): string | undefined {
  if (node.kind !== 'string') {
    report('error', 'invalid-type', node.start, node.end, `expected \`phase\` to be a phase name, e.g. \`magic_transit\`, found ${describe(node)}`);
    return undefined;
  }
  const phase = node.value as string;
  if (KNOWN_PHASES.includes(phase)) return phase;
  const meant = closestMatches(phase, KNOWN_PHASES);
  if (meant.length > 0) {
    report('error', 'unknown-phase', node.start, node.end, `unknown phase \`${phase}\`; did you mean ${quoteAlternatives(meant)}?`, meant.map((m) => replaceFix(node, m)));
    return undefined;
  }
  report('warning', 'unknown-phase', node.start, node.end, `\`${phase}\` is not a phase this version knows; files without a phase are checked with it anyway`);
  return phase;
}

/** A plan is one of four words; anything else is an error, with the word meant. */
function readPlan(node: HostNode, report: Report): Plan | undefined {
  const written = node.kind === 'string' ? (node.value as string) : undefined;
  if (written !== undefined && isPlan(written)) return written;
  if (written !== undefined && isPlan(written.toLowerCase())) {
    const plan = written.toLowerCase() as Plan;
    report('error', 'invalid-plan', node.start, node.end, `plans are written in lowercase: \`${plan}\``, [replaceFix(node as HostScalar, plan)]);
    return undefined;
  }
  const meant = written !== undefined ? closestMatches(written, PLANS) : [];
  const hint = meant.length > 0 ? `; did you mean ${quoteAlternatives(meant)}?` : '';
  const shown = node.kind === 'string' ? `\`${written}\`` : describe(node);
  report('error', 'invalid-plan', node.start, node.end, `expected \`plan\` to be ${quoteAlternatives(PLANS)}, found ${shown}${hint}`, meant.map((m) => replaceFix(node as HostScalar, m)));
  return undefined;
}

/** An add-on is one of the names ADDONS lists; another is an error, with the name meant. */
function readAddon(node: HostScalar, report: Report): Addon | undefined {
  const written = node.value as string;
  if (isAddon(written)) return written;
  const normal = written.toLowerCase().replace(/[-\s]+/g, '_');
  const meant = isAddon(normal) ? [normal] : closestMatches(normal, ADDONS);
  const hint = meant.length > 0 ? `; did you mean ${quoteAlternatives(meant)}?` : `; the add-ons this version knows are ${quoteAlternatives(ADDONS).replace(' or ', ' and ')}`;
  report('error', 'unknown-addon', node.start, node.end, `unknown add-on \`${written}\` in \`addons\`${hint}`, meant.map((m) => replaceFix(node, m)));
  return undefined;
}

/**
 * `targets:`: a list of mappings, each with `files` and exactly one of `zone` and `account`. An
 * item with a mistake is left out whole (a file sent to the wrong place is worse than one sent
 * nowhere), the others are read.
 */
function readTargets(node: HostNode, report: Report): TargetConfig[] | undefined {
  if (node.kind !== 'array') {
    report('error', 'invalid-type', node.start, node.end, `expected \`targets\` to be a list of mappings, each with \`files\` and a \`zone\` or an \`account\`, found ${describe(node)}`);
    return undefined;
  }
  const targets: TargetConfig[] = [];
  for (const item of node.items) {
    const target = readTarget(item, report);
    if (target) targets.push(target);
  }
  return targets;
}

function readTarget(item: HostNode, report: Report): TargetConfig | undefined {
  if (item.kind !== 'object') {
    report('error', 'invalid-type', item.start, item.end, `expected an item of \`targets\` to be a mapping with \`files\` and a \`zone\` or an \`account\`, found ${describe(item)}`);
    return undefined;
  }
  let ok = true;
  // A misspelt key is most likely the missing one: said once, by its did-you-mean.
  let unknownKey = false;
  const target: { files?: string[]; zone?: string; account?: string; plan?: Plan; addons?: Addon[] } = {};
  const seen = new Set<string>();
  for (const p of item.properties) {
    if (seen.has(p.key)) {
      report('error', 'duplicate-key', p.keyStart, p.keyEnd, `\`${p.key}\` appears twice in this item of \`targets\``);
      ok = false;
      continue;
    }
    seen.add(p.key);
    if (!(TARGET_KEYS as readonly string[]).includes(p.key)) {
      const meant = closestMatches(p.key, TARGET_KEYS).filter((k) => !item.properties.some((other) => other.key === k));
      const hint = meant.length > 0 ? `; did you mean ${quoteAlternatives(meant)}?` : `; the keys of a target are ${quoteAlternatives(TARGET_KEYS).replace(' or ', ' and ')}`;
      report('error', 'unknown-key', p.keyStart, p.keyEnd, `unknown key \`${p.key}\` in an item of \`targets\`${hint}`, meant.map((k) => ({ title: `Change to \`${k}\``, edits: [renameKeyEdit(p, k)] })));
      ok = false;
      unknownKey = true;
      continue;
    }
    const value = p.value;
    if (!value || value.kind === 'null') {
      if (p.key === 'files' || p.key === 'zone' || p.key === 'account') {
        report('error', 'invalid-type', p.keyStart, p.keyEnd, `\`${p.key}\` has no value`);
        ok = false;
      }
      continue;
    }
    switch (p.key) {
      case 'files': {
        if (value.kind !== 'string' && value.kind !== 'array') {
          report('error', 'invalid-type', value.start, value.end, `expected \`files\` to be a glob or a list of globs, e.g. \`zones/example.com/*.yaml\`, found ${describe(value)}`);
          ok = false;
          break;
        }
        const files = value.kind === 'string' ? [value.value as string] : readStrings(p, report, (node) => node.value as string);
        if (files && files.length > 0) target.files = files;
        else {
          if (files) report('error', 'invalid-type', value.start, value.end, 'expected `files` to name at least one glob, e.g. `zones/example.com/*.yaml`');
          ok = false;
        }
        break;
      }
      case 'zone':
      case 'account': {
        const id = readScope(p.key, value, report);
        if (id === undefined) ok = false;
        else target[p.key] = id;
        break;
      }
      case 'plan': {
        const plan = readPlan(value, report);
        if (plan === undefined) ok = false;
        else target.plan = plan;
        break;
      }
      case 'addons': {
        const addons = readStrings(p, report, (node) => readAddon(node, report));
        if (addons) target.addons = [...new Set(addons)] as Addon[];
        else ok = false;
        break;
      }
    }
  }
  if (target.zone !== undefined && target.account !== undefined) {
    const second = item.properties.filter((p) => p.key === 'zone' || p.key === 'account')[1];
    report('error', 'invalid-target', second.keyStart, second.keyEnd, 'a target is one zone or one account: give `zone` or `account`, not both (a second item sends other files elsewhere)');
    return undefined;
  }
  if (unknownKey) return undefined;
  if (!seen.has('zone') && !seen.has('account')) {
    report('error', 'invalid-target', item.start, item.end, 'this target says no place: add `zone: <name or id>` or `account: <id>`');
    return undefined;
  }
  if (!seen.has('files')) {
    report('error', 'invalid-target', item.start, item.end, 'this target names no files: add `files: <glob>` (relative to the folder of `.rulesets.yaml`)');
    return undefined;
  }
  if (!ok || !target.files) return undefined;
  return { files: target.files, ...(target.zone !== undefined ? { zone: target.zone } : { account: target.account! }), ...(target.plan ? { plan: target.plan } : {}), ...(target.addons ? { addons: target.addons } : {}), start: item.start, end: item.end };
}

/** A zone (an id or a name) or an account (an id): a mistake here would send rules elsewhere, so each is an error. */
function readScope(key: 'zone' | 'account', node: HostNode, report: Report): string | undefined {
  const example = key === 'zone' ? 'a zone name, e.g. `example.com`, or its id (32 hex digits)' : 'an account id (32 hex digits)';
  if (node.kind === 'number') {
    // An id of decimal digits only (or with one `e`) is a number to YAML, which may not keep every digit.
    report('error', 'invalid-type', node.start, node.end, `YAML reads this \`${key}\` as a number, which may lose digits: quote it, \`${key}: "…"\``);
    return undefined;
  }
  if (node.kind !== 'string') {
    report('error', 'invalid-type', node.start, node.end, `expected \`${key}\` to be ${example}, found ${describe(node)}`);
    return undefined;
  }
  const written = node.value as string;
  if (SCOPE_ID.test(written)) return written;
  if (/^[0-9a-fA-F]{32}$/.test(written)) {
    report('error', 'invalid-id', node.start, node.end, `ids are written in lowercase: \`${written.toLowerCase()}\``, node.kind === 'string' ? [replaceFix(node as HostScalar, written.toLowerCase())] : []);
    return undefined;
  }
  // Only hex digits, or no dot at all: an id with digits missing or too many, not a name.
  if (/^[0-9a-fA-F]+$/.test(written) || key === 'account' || !written.includes('.')) {
    const what = /^[0-9a-fA-F]+$/.test(written) ? `${written.length} hex digit${written.length === 1 ? '' : 's'}` : `\`${written}\``;
    report('error', 'invalid-id', node.start, node.end, `expected \`${key}\` to be ${example}, found ${what}`);
    return undefined;
  }
  if (!ZONE_NAME.test(written)) {
    report('error', 'invalid-id', node.start, node.end, `\`${written}\` is not a zone name: a zone is a domain like \`example.com\` (letters, digits, \`-\` and dots), or its id (32 hex digits)`);
    return undefined;
  }
  return written.toLowerCase();
}

/** `terraform:`'s mapping: its `var_files`. */
function readTerraformKeys(node: HostNode, report: Report): string[] | undefined {
  if (node.kind !== 'object') {
    report('error', 'invalid-type', node.start, node.end, `expected \`terraform\` to be a mapping with \`var_files\`, found ${describe(node)}`);
    return undefined;
  }
  let varFiles: string[] | undefined;
  for (const p of node.properties) {
    if (p.key !== 'var_files') {
      report('error', 'unknown-key', p.keyStart, p.keyEnd, `unknown key \`${p.key}\` in \`terraform\`; the key is \`var_files\``);
      continue;
    }
    if (p.value && p.value.kind !== 'null') varFiles = readStrings(p, report, (item) => item.value as string);
  }
  return varFiles;
}

/** `apply:`: whole numbers from 0 (a percent up to 100) and a path; a mistake is reported and its key left at its default. */
function readApplyKeys(node: HostNode, report: Report): ApplyConfig | undefined {
  if (node.kind !== 'object') {
    report('error', 'invalid-type', node.start, node.end, `expected \`apply\` to be a mapping of ${quoteAlternatives([...APPLY_KEYS]).replace(' or ', ' and ')}, found ${describe(node)}`);
    return undefined;
  }
  const out: Record<string, number | string> = {};
  for (const p of node.properties) {
    const key = APPLY_KEYS.find((k) => k === p.key);
    if (!key) {
      const meant = closestMatches(p.key, APPLY_KEYS);
      report('error', 'unknown-key', p.keyStart, p.keyEnd, `unknown key \`${p.key}\` in \`apply\`; ${meant.length > 0 ? `did you mean ${quoteAlternatives(meant)}?` : `the keys are ${quoteAlternatives([...APPLY_KEYS]).replace(' or ', ' and ')}`}`);
      continue;
    }
    const value = p.value;
    if (!value || value.kind === 'null') continue;
    if (key === 'audit_log') {
      if (value.kind === 'string' && value.value !== '') out[key] = value.value as string;
      else report('error', 'invalid-type', value.start, value.end, `expected \`audit_log\` to be a file path, e.g. \`.rulesets/audit.log\`, found ${describe(value)}`);
      continue;
    }
    const ceiling = key === 'max_removed_percent' ? 100 : Number.MAX_SAFE_INTEGER;
    if (value.kind === 'number' && Number.isInteger(value.value) && (value.value as number) >= 0 && (value.value as number) <= ceiling) out[key] = value.value as number;
    else report('error', 'invalid-type', value.start, value.end, `expected \`${key}\` to be a whole number${key === 'max_removed_percent' ? ' from 0 to 100' : ' from 0'}, found ${describe(value)}`);
  }
  return out as ApplyConfig;
}

/** The strings of an array value, each read by `read` (undefined: left out). */
function readStrings(p: HostProperty, report: Report, read: (node: HostScalar) => string | undefined): string[] | undefined {
  const node = p.value!;
  if (node.kind !== 'array') {
    const what = p.key === 'addons' ? 'add-on names, e.g. `[bot_management]`' : p.key === 'lists' ? 'list names, e.g. `[office_networks]` (or a mapping of names to kinds, `{office_networks: ip}`)' : p.key === 'var_files' ? '`.tfvars` paths, e.g. `[prod.tfvars]`' : 'glob patterns, e.g. `["firewall/*.yaml"]`';
    report('error', 'invalid-type', node.start, node.end, `expected \`${p.key}\` to be a list of ${what}, found ${describe(node)}`);
    return undefined;
  }
  const values: string[] = [];
  for (const item of node.items) {
    if (item.kind !== 'string') {
      report('error', 'invalid-type', item.start, item.end, `expected a string in \`${p.key}\`, found ${describe(item)}`);
      continue;
    }
    const value = read(item);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/** A list name, from an item of the array form or (`key`) a key of the mapping form, whose fixes rename the key. */
function readListName(node: HostScalar, report: Report, key?: HostProperty): string | undefined {
  const written = node.value as string;
  const fixTo = (value: string): DocumentFix => (key ? { title: `Change to \`${value}\``, edits: [renameKeyEdit(key, value)] } : replaceFix(node, value));
  const name = written.startsWith('$') ? written.slice(1) : written;
  if (name.includes('.') && ACCOUNT_LIST_NAME.test(name.replace(/\./g, ''))) {
    report('error', 'invalid-list-name', node.start, node.end, `\`${written}\` is not an account list name: account list names have no \`.\`, and the managed lists (\`$svc.…\`) are always known`);
    return undefined;
  }
  if (!ACCOUNT_LIST_NAME.test(name)) {
    const meant = name.toLowerCase().replace(/[-\s]+/g, '_');
    const fixable = ACCOUNT_LIST_NAME.test(meant);
    const hint = fixable ? `; did you mean \`${meant}\`?` : '';
    report('error', 'invalid-list-name', node.start, node.end, `\`${written}\` is not a list name: list names use lowercase letters, digits and \`_\`${hint}`, fixable ? [fixTo(meant)] : []);
    return undefined;
  }
  if (name !== written) report('warning', 'invalid-list-name', node.start, node.end, `list names are written here without \`$\`: \`${name}\``, [fixTo(name)]);
  return name;
}

/**
 * `lists:` as a mapping of list names to what each holds (`{office_networks: ip, bad_asns:
 * asn}`); a name without a value is a list of a kind not said.
 */
function readListKinds(node: HostObject, report: Report): { names: string[]; kinds: Record<string, ListKind> } {
  const names: string[] = [];
  const kinds: Record<string, ListKind> = {};
  for (const p of node.properties) {
    const keyNode: HostScalar = { kind: 'string', value: p.key, start: p.keyStart, end: p.keyEnd } as HostScalar;
    if (names.includes(p.key.replace(/^\$/, ''))) {
      report('error', 'duplicate-key', p.keyStart, p.keyEnd, `\`${p.key}\` appears twice under \`lists\`; only the first is used`);
      continue;
    }
    const name = readListName(keyNode, report, p);
    if (name === undefined) continue;
    names.push(name);
    const value = p.value;
    if (!value || value.kind === 'null') continue;
    const written = value.kind === 'string' ? (value.value as string) : undefined;
    if (written !== undefined && isListKind(written)) {
      kinds[name] = written;
      continue;
    }
    const meant = written !== undefined ? closestMatches(written.toLowerCase(), LIST_KINDS) : [];
    const shown = value.kind === 'string' ? `\`${written}\`` : describe(value);
    report(
      'error',
      'invalid-list-kind',
      value.start,
      value.end,
      `expected the kind of \`$${name}\` to be ${quoteAlternatives(LIST_KINDS)}, found ${shown}${meant.length > 0 ? `; did you mean ${quoteAlternatives(meant)}?` : ''}`,
      meant.map((m) => replaceFix(value as HostScalar, m)),
    );
  }
  return { names, kinds };
}

function readRules(node: HostNode, report: Report): Record<string, RuleSeverity> | undefined {
  if (node.kind !== 'object') {
    report('error', 'invalid-type', node.start, node.end, `expected \`rules\` to be a mapping of codes to severities, e.g. \`always-true: off\`, found ${describe(node)}`);
    return undefined;
  }
  const rules: Record<string, RuleSeverity> = {};
  const seen = new Set<string>();
  for (const p of node.properties) {
    if (seen.has(p.key)) {
      report('error', 'duplicate-key', p.keyStart, p.keyEnd, `\`${p.key}\` appears twice under \`rules\`; only the first is used`);
      continue;
    }
    seen.add(p.key);
    const info = PROBLEM_CODES.get(p.key);
    if (!info) {
      const meant = closestMatches(p.key, PROBLEM_CODES.keys());
      if (meant.length > 0) report('error', 'unknown-code', p.keyStart, p.keyEnd, `unknown code \`${p.key}\`; did you mean ${quoteAlternatives(meant)}?`, meant.map((m) => ({ title: `Change to \`${m}\``, edits: [renameKeyEdit(p, m)] })));
      // Not an error: a configuration written for a newer version must not stop an older one.
      else report('warning', 'unknown-code', p.keyStart, p.keyEnd, `\`${p.key}\` is not a code this version reports, so this line does nothing`);
      continue;
    }
    if (!p.value || p.value.kind === 'null') continue;
    const severity = readSeverity(p, report);
    if (severity === undefined) continue;
    if (info.severity === 'error' && severity !== 'error') {
      // The promise of the tools: a mistake the service would reject is found here, never by the API.
      const how = severity === 'off' ? 'turning it off' : 'lowering it';
      report('error', 'error-not-configurable', p.value.start, p.value.end, `\`${p.key}\` is a mistake the service rejects, so it stays an error: fix the rule instead of ${how}`);
      continue;
    }
    rules[p.key] = severity;
  }
  return rules;
}

function readSeverity(p: HostProperty, report: Report): RuleSeverity | undefined {
  const value = p.value!;
  const written = value.kind === 'string' ? (value.value as string) : undefined;
  if (written !== undefined && (RULE_SEVERITIES as readonly string[]).includes(written)) return written as RuleSeverity;
  if (written !== undefined && Object.hasOwn(SEVERITY_SYNONYMS, written)) return SEVERITY_SYNONYMS[written];
  const shown = value.kind === 'object' || value.kind === 'array' ? describe(value) : `\`${String((value as HostScalar).value)}\``;
  const expected = `expected ${quoteAlternatives(RULE_SEVERITIES)} for \`${p.key}\`, found ${shown}`;
  const meant = value.kind === 'boolean' && value.value === false ? ['off'] : written !== undefined ? closestMatches(written, RULE_SEVERITIES) : [];
  const hint = meant.length > 0 ? `; did you mean ${quoteAlternatives(meant)}?` : '';
  report('error', 'invalid-severity', value.start, value.end, expected + hint, meant.map((m) => ({ title: `Change to \`${m}\``, edits: [{ start: value.start, end: value.end, newText: m }] })));
  return undefined;
}

function replaceFix(node: HostScalar, value: string): DocumentFix {
  return { title: `Change to \`${value}\``, edits: [replaceScalarEdit(node, value)] };
}

function describe(node: HostNode): string {
  if (node.kind === 'object') return 'a mapping';
  if (node.kind === 'array') return 'a list';
  if (node.kind === 'string') return 'a string';
  return `\`${String(node.value)}\``;
}

/**
 * The findings of a ruleset under the configured severities, in place: codes set to `off`
 * are dropped, the others take their new severity. An error is never turned off or lowered,
 * whatever the configuration says: the service would reject the file.
 */
export function applyRuleSeverities(problems: DocumentProblem[], severities: Readonly<Record<string, RuleSeverity>>): void {
  let kept = 0;
  for (const p of problems) {
    const configured = Object.hasOwn(severities, p.code) ? severities[p.code] : undefined;
    if (configured === undefined || p.severity === 'error') problems[kept++] = p;
    else if (configured !== 'off') problems[kept++] = configured === p.severity ? p : { ...p, severity: configured };
  }
  problems.length = kept;
}
