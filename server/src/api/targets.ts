/**
 * Targets: where each ruleset file goes, one account or zone, with that place's plan and
 * add-ons. `targetsOf` groups files by the `targets:` of `.rulesets.yaml` (pure: paths in,
 * groups and problems out); `resolveTargets` turns zone names into ids through the API.
 */
import { parseDocument } from '../documents/parsed-document';
import { SCOPE_ID, ZONE_NAME, type ProjectConfig, type TargetConfig } from '../documents/project-config';
import { targetGlob } from '../documents/settings';
import type { Addon, Plan } from '../language/catalogue/plans';
import type { CallOptions, Scope, ZoneSummary } from './client';

/** Where a set of ruleset files goes: one account or zone. */
export interface Target {
  readonly scope: Scope;             // { kind: 'account' | 'zone', id }
  readonly label: string;            // as the user wrote it: the zone's name or the id
  readonly files: readonly string[]; // absolute paths of the files (JSON/YAML rulesets, octorules files, .tf files) that go there
  readonly plan?: Plan;
  readonly addons?: readonly Addon[];
}

/** A target before its zone name is looked up: `scope` is an id, or a zone's name. */
export interface UnresolvedTarget extends Omit<Target, 'scope'> {
  readonly scope: Scope | { readonly kind: 'zone'; readonly name: string };
}

/** A file to place: its absolute path, and whether it is an octorules rules file (its zone is then its name). */
export type TargetFile = string | { readonly path: string; readonly octorules?: boolean };

/** A mistake in the grouping: about a file, an item of `targets:` (its offsets in `.rulesets.yaml`), or both. */
export interface TargetProblem {
  readonly message: string;
  readonly file?: string;
  /** The item of `targets:` at fault, as read (its `start`/`end` place it in `.rulesets.yaml`). */
  readonly target?: TargetConfig;
}

export interface TargetGrouping {
  /** In the order of `targets:`, then the octorules files' zones in the order of the files. */
  readonly targets: readonly UnresolvedTarget[];
  /** Files no target names (and that are not octorules files): they go nowhere. */
  readonly unplaced: readonly string[];
  readonly problems: readonly TargetProblem[];
}

/** The label a target item is known by: its zone or its account, as written. */
export function targetLabel(target: Pick<TargetConfig, 'zone' | 'account'>): string {
  return target.zone ?? target.account ?? '';
}

function scopeOf(item: Pick<TargetConfig, 'zone' | 'account'>): UnresolvedTarget['scope'] {
  if (item.account !== undefined) return { kind: 'account', id: item.account };
  return SCOPE_ID.test(item.zone!) ? { kind: 'zone', id: item.zone! } : { kind: 'zone', name: item.zone! };
}

/** One key per place: targets that name the same place are one target. */
function placeKey(scope: UnresolvedTarget['scope']): string {
  return 'id' in scope ? `${scope.kind}:${scope.id}` : `zone-name:${scope.name.toLowerCase()}`;
}

const OCTORULES_EXTENSION = /\.ya?ml$/i;

/**
 * Whether a file is an octorules rules file (a YAML file with octorules' layout): its zone is
 * then its file name where no target names it. `rulesets plan` and the editor's Plan view both
 * ask this, so that both send the same files to the same zones.
 */
export function isOctorulesText(path: string, text: string): boolean {
  if (!OCTORULES_EXTENSION.test(path)) return false;
  try {
    return parseDocument(text, 'yaml').rulesets.some((r) => r.layout === 'octorules');
  } catch {
    return false;
  }
}

/**
 * The files grouped by target. Each file goes to the one item of `config.targets` whose
 * `files` globs (relative to `folder`, the folder of `.rulesets.yaml`) match it; an octorules
 * file that none matches goes to the zone of its file name (`rules/example.com.yaml`:
 * `example.com`), as octorules has it. Items naming the same place are merged. A target's
 * plan and add-ons are its own, else the configuration's. Problems: a file two items match
 * (it stays with the first), an item that matches no file, an id that is no id, a plan or
 * add-ons that two items for one place say differently. No file is read.
 */
export function targetsOf(config: ProjectConfig, folder: string, files: readonly TargetFile[]): TargetGrouping {
  const problems: TargetProblem[] = [];
  const items = (config.targets ?? []).map((item) => ({
    item,
    matchers: item.files.map((pattern) => targetGlob(pattern, folder)),
    files: [] as string[],
  }));
  const unplaced: string[] = [];
  const octorules = new Map<string, string[]>();
  const given = new Set<string>();
  for (const file of files) {
    const path = typeof file === 'string' ? file : file.path;
    // A file named twice (two arguments that overlap) is still one file.
    if (given.has(path)) continue;
    given.add(path);
    const posix = path.replace(/\\/g, '/');
    let owner: (typeof items)[number] | undefined;
    for (const candidate of items) {
      if (!candidate.matchers.some((matches) => matches(posix))) continue;
      if (!owner) {
        owner = candidate;
        candidate.files.push(path);
      } else {
        problems.push({ file: path, target: candidate.item, message: `${path} is in two targets, \`${targetLabel(owner.item)}\` and \`${targetLabel(candidate.item)}\`: a file goes to one place; narrow one of the \`files\` globs` });
      }
    }
    if (owner) continue;
    if (typeof file !== 'string' && file.octorules) {
      const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).replace(OCTORULES_EXTENSION, '');
      if (!SCOPE_ID.test(name) && !ZONE_NAME.test(name)) {
        problems.push({ file: path, message: `${path}: an octorules file's zone is its file name, and \`${name}\` is no zone name; name it like the zone (\`example.com.yaml\`) or give it a target in \`.rulesets.yaml\`` });
        continue;
      }
      const key = name.toLowerCase();
      octorules.set(key, [...(octorules.get(key) ?? []), path]);
      continue;
    }
    unplaced.push(path);
  }
  const byPlace = new Map<string, { target: { scope: UnresolvedTarget['scope']; label: string; files: string[]; plan?: Plan; addons?: readonly Addon[] }; item?: TargetConfig }>();
  for (const { item, files: matched } of items) {
    const label = targetLabel(item);
    // Checked again here: a configuration may come from elsewhere than readProjectConfig.
    if (item.account !== undefined ? !SCOPE_ID.test(item.account) : item.zone === undefined || !(SCOPE_ID.test(item.zone) || ZONE_NAME.test(item.zone))) {
      problems.push({ target: item, message: `\`${label}\` is not ${item.account !== undefined ? 'an account id (32 hex digits)' : 'a zone name or id (32 hex digits)'}` });
      continue;
    }
    if (matched.length === 0) {
      problems.push({ target: item, message: `the target \`${label}\` matches no file: \`${item.files.join('`, `')}\` (relative to ${folder})` });
      continue;
    }
    const scope = scopeOf(item);
    const plan = item.plan ?? config.plan;
    const addons = item.addons ?? config.addons;
    const known = byPlace.get(placeKey(scope));
    if (!known) {
      byPlace.set(placeKey(scope), { target: { scope, label, files: [...matched], ...(plan ? { plan } : {}), ...(addons ? { addons } : {}) }, item });
      continue;
    }
    if (known.target.plan !== plan || (known.target.addons ?? []).join() !== (addons ?? []).join()) {
      problems.push({ target: item, message: `two targets send files to \`${label}\` with different \`plan\` or \`addons\`: a zone has one plan; say it once` });
    }
    known.target.files.push(...matched);
  }
  for (const [name, paths] of octorules) {
    const scope = scopeOf({ zone: name });
    const known = byPlace.get(placeKey(scope));
    if (known) known.target.files.push(...paths);
    else byPlace.set(placeKey(scope), { target: { scope, label: name, files: paths, ...(config.plan ? { plan: config.plan } : {}), ...(config.addons ? { addons: config.addons } : {}) } });
  }
  return { targets: [...byPlace.values()].map((v) => v.target), unplaced, problems };
}

/** What resolveTargets needs of the API: List Zones by name (RulesetsClient.findZones). */
export interface ZoneFinder {
  findZones(name: string, options?: CallOptions): Promise<ZoneSummary[]>;
}

/** Zone names that did not come to one zone each; `message` names each of them. */
export class TargetResolutionError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.length === 1 ? problems[0] : `${problems.length} zones could not be found:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'TargetResolutionError';
  }
}

/** Lookups in flight at once: well inside the API's rate limit, and 200 zones in a few round trips. */
const LOOKUPS_AT_ONCE = 8;

/**
 * The targets with each zone name turned into its id (List Zones, `GET /zones?name=`), each
 * name asked once. Targets that come to the same zone (its name in one item, its id in
 * another) are merged. Every name that matches no zone, or several (the same name in two
 * accounts), is named in one TargetResolutionError: a plan must not silently skip a zone.
 * An error of the API itself (credentials, network) is thrown as it comes.
 */
export async function resolveTargets(client: ZoneFinder, targets: readonly UnresolvedTarget[], options: CallOptions = {}): Promise<Target[]> {
  const names = [...new Set(targets.flatMap((t) => ('name' in t.scope ? [t.scope.name.toLowerCase()] : [])))];
  const found = new Map<string, ZoneSummary[]>();
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < names.length && !failed) {
      const name = names[next++];
      try {
        found.set(name, (await client.findZones(name, options)).filter((z) => z.name.toLowerCase() === name));
      } catch (error) {
        // The others stop asking: the first error is the answer.
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, names.length) }, worker));
  const problems: string[] = [];
  const byId = new Map<string, { scope: Scope; label: string; files: string[]; plan?: Plan; addons?: readonly Addon[] }>();
  for (const target of targets) {
    let scope: Scope;
    if ('name' in target.scope) {
      const zones = found.get(target.scope.name.toLowerCase()) ?? [];
      if (zones.length !== 1) {
        problems.push(
          zones.length === 0
            ? `zone \`${target.scope.name}\`: no zone of that name is visible with these credentials; check the name, or give the zone's id`
            : `zone \`${target.scope.name}\`: ${zones.length} zones have that name (${zones.map((z) => `${z.id}${z.account ? ` in account ${z.account.id}` : ''}`).join(', ')}); give the id of the one meant`,
        );
        continue;
      }
      scope = { kind: 'zone', id: zones[0].id };
    } else scope = target.scope;
    const key = `${scope.kind}:${scope.id}`;
    const known = byId.get(key);
    if (known) known.files.push(...target.files);
    else byId.set(key, { ...target, scope, files: [...target.files] });
  }
  if (problems.length > 0) throw new TargetResolutionError(problems);
  return [...byId.values()];
}

/** A `.rulesets.yaml` with `targets:`, as the estate needs it. */
export interface TargetsConfig {
  readonly config: ProjectConfig;
  /** Its folder, absolute: the globs of `targets:` are relative to it. */
  readonly folder: string;
  /** As messages name it. */
  readonly path: string;
}

export interface EstateOptions extends CallOptions {
  /** The configuration that governs a file (the nearest `.rulesets.yaml`), when it has `targets:`. */
  readonly configOf: (file: string) => TargetsConfig | undefined;
  readonly read: (path: string) => string;
  /** For zone names: List Zones is asked of no account or zone, so any client will do. */
  readonly zoneFinder: () => ZoneFinder;
  /**
   * Where the files no `targets:` governs go: the environment's account or zone for the CLI (it
   * throws when there is none), the settings' for the editor; undefined: they are not planned.
   */
  readonly defaultScope: () => Scope | undefined;
  /** A path as a message shows it. */
  readonly shown?: (path: string) => string;
}

/** Every file placed: the targets, and the files that go nowhere, each with why. */
export interface Estate {
  readonly targets: readonly Target[];
  /** Files under a configuration with `targets:` that none of them names. */
  readonly unplaced: readonly { readonly file: string; readonly config: string }[];
  /** Files no `targets:` governs, when there is no default place for them. */
  readonly unscoped: readonly string[];
}

/** Mistakes of `targets:` (a file two items name, an item with no file, …), each naming its configuration and file: nothing is planned. */
export class TargetsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'TargetsError';
  }
}

/**
 * Where each ruleset file of a plan goes: the one answer of `rulesets plan`, `rulesets apply`
 * and the editor's Plan view. A file governed by a `.rulesets.yaml` with `targets:` goes where
 * that says (targetsOf; zone names looked up, resolveTargets); the others go to the default
 * place. Mistakes of `targets:` throw TargetsError before any request; zone names that match no
 * zone, TargetResolutionError.
 */
export async function estateTargets(files: readonly string[], options: EstateOptions): Promise<Estate> {
  const shown = options.shown ?? ((path: string) => path);
  const byConfig = new Map<string, { config: TargetsConfig; files: string[] }>();
  const rest: string[] = [];
  for (const file of files) {
    const config = options.configOf(file);
    if (!config || (config.config.targets?.length ?? 0) === 0) {
      rest.push(file);
      continue;
    }
    const group = byConfig.get(config.path) ?? { config, files: [] };
    group.files.push(file);
    byConfig.set(config.path, group);
  }
  const unresolved: UnresolvedTarget[] = [];
  const problems: string[] = [];
  const unplaced: { file: string; config: string }[] = [];
  for (const { config, files: group } of byConfig.values()) {
    const grouping = targetsOf(config.config, config.folder, group.map((path) => ({ path, octorules: isOctorulesFile(path, options.read) })));
    for (const problem of grouping.problems) problems.push(`${shown(config.path)}: ${problem.file ? `${shown(problem.file)}: ` : ''}${problem.message}`);
    unresolved.push(...grouping.targets);
    for (const file of grouping.unplaced) unplaced.push({ file, config: config.path });
  }
  if (problems.length > 0) throw new TargetsError(problems);
  const targets: Target[] = unresolved.length > 0 ? await resolveTargets(options.zoneFinder(), unresolved, options) : [];
  const scope = rest.length > 0 ? options.defaultScope() : undefined;
  if (scope) targets.push({ scope, label: scope.id, files: rest });
  return { targets, unplaced, unscoped: scope ? [] : rest };
}

/** Whether a file is an octorules rules file, read through `read` (a file that cannot be read is not). */
function isOctorulesFile(path: string, read: (path: string) => string): boolean {
  if (!OCTORULES_EXTENSION.test(path)) return false;
  try {
    return isOctorulesText(path, read(path));
  } catch {
    return false;
  }
}
