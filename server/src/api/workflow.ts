/**
 * The deploy workflow shared by the CLI (`rulesets pull`, `deploy`, `create`) and the VS Code
 * extension: a local ruleset file read as the body the API takes, the file a pull writes, a
 * plan (our own check, what is live, a version conflict, the service's dry run, a diff) and
 * its application, which never overwrites a change someone else deployed in the meantime.
 *
 * No VS Code, no console: every user-facing problem is a `WorkflowError` (one line that names
 * the file, the place and the fix) or the client's `ApiError`.
 */
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { checkRuleset, formatOfPath, parseRuleset, toPositions, type PositionedProblem } from '../documents/ruleset';
import { ApiError, type RulesetsClient } from './client';
import { pointerToRange } from './pointer';
import { SERVICE_SET_RULE_FIELDS, type RuleInput, type Ruleset, type RulesetKind, type UpdateRulesetBody } from './types';

export type Format = 'json' | 'yaml';

/** A user-facing problem: one clear line naming the file, the place and the fix. */
export class WorkflowError extends Error {
  override readonly name: string = 'WorkflowError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The real write failed in a way that leaves open whether it reached the service (a 5xx, a
 * timeout, a dropped connection). `live` is the version found live right after, when it could
 * be read; `landed` says whether that looks like the change went through. The local file is
 * never updated after this error.
 */
export class DeployOutcomeUnknownError extends WorkflowError {
  override readonly name = 'DeployOutcomeUnknownError';
  constructor(
    message: string,
    readonly apiError: ApiError,
    readonly live?: string,
    readonly landed?: boolean,
  ) {
    super(message, { cause: apiError });
  }
}

/** A ruleset as the API takes it (create: all of it; update: `rules` and what should change). */
export interface RulesetBody {
  readonly name: string;
  readonly kind: RulesetKind;
  readonly phase: string;
  readonly description?: string;
  readonly rules: readonly RuleInput[];
}

export interface LocalRuleset {
  readonly path: string;
  readonly text: string;
  readonly format: Format;
  readonly body: RulesetBody;
  /** The ruleset the file is deployed as (set by pull and create). */
  readonly id?: string;
  /** The version the file is based on (set by pull, create and deploy). */
  readonly version?: string;
}

/** Keys of a rule that the service sets and that are never sent back. */
const SERVER_RULE_KEYS = new Set(SERVICE_SET_RULE_FIELDS);
const RULESET_ORDER = ['id', 'name', 'description', 'kind', 'phase', 'version', 'rules'];
const RULE_ORDER = ['id', 'ref', 'action', 'action_parameters', 'expression', 'description', 'enabled', 'logging', 'categories'];

// ---------------------------------------------------------------- reading a local file

/**
 * A local ruleset file as the body the API takes. The format comes from the extension
 * (`.json`, `.yaml`, `.yml`). Throws a `WorkflowError` when the file cannot be read as a
 * ruleset at all (syntax, a top level that is not a ruleset object, `name`, `kind`, `phase`
 * or `rules` missing or of the wrong type); everything else (expressions, actions, …) is left
 * to the check `planDeploy` runs, which places each problem exactly.
 */
export function readLocalRuleset(path: string, text: string): LocalRuleset {
  const format = formatOfPath(path);
  if (!format) throw new WorkflowError(`${path}: not a JSON or YAML file; name it *.json, *.yaml or *.yml`);
  const model = parseRuleset(text, format);
  const where = (offset: number) => `${path}:${lineColumn(text, offset)}`;
  const syntax = model.syntaxProblems[0];
  if (syntax) throw new WorkflowError(`${where(syntax.start)}: ${syntax.message} (\`rulesets check ${path}\` lists every problem)`);
  const root = model.root;
  if (!root || root.kind !== 'object') {
    throw new WorkflowError(`${where(root?.start ?? 0)}: expected a ruleset: an object with \`name\`, \`kind\`, \`phase\` and \`rules\``);
  }
  const value = plainValue(text, format) as Record<string, unknown>;
  for (const key of ['name', 'kind', 'phase'] as const) {
    const found = root.properties.find((p) => p.key === key);
    if (!found) throw new WorkflowError(`${where(root.start)}: the ruleset has no \`${key}\`; add \`${key}: …\` at the top level`);
    if (typeof value[key] !== 'string') throw new WorkflowError(`${where(found.value?.start ?? found.keyStart)}: expected \`${key}\` to be a string`);
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
    name: value.name as string,
    kind: value.kind as RulesetKind,
    phase: value.phase as string,
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
    rules: (rules as Record<string, unknown>[]).map(ruleBody),
  };
  // An id is a string (`id: 0123…` unquoted in YAML is a number, which the check reports).
  const id = typeof value.id === 'string' && value.id !== '' ? value.id : undefined;
  const version = scalarText(value.version);
  return { path, text, format, body, ...(id !== undefined ? { id } : {}), ...(version !== undefined ? { version } : {}) };
}

/** The file's value as JSON.parse or the yaml library gives it (aliases resolved). */
function plainValue(text: string, format: Format): unknown {
  if (format === 'json') return JSON.parse(text);
  return YAML.parseDocument(text, { uniqueKeys: false }).toJS({ maxAliasCount: 1000 });
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** A rule of a file as the API takes it: what the service sets itself is left out. */
function ruleBody(rule: Readonly<Record<string, unknown>>): RuleInput {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rule)) {
    if (SERVER_RULE_KEYS.has(key) || value === undefined) continue;
    body[key] = value;
  }
  // A `ref` equal to the id is the service's default, which pull leaves out.
  if (body.ref !== undefined && body.ref === body.id) delete body.ref;
  return body as unknown as RuleInput;
}

/** The body a ruleset as returned comes to when pulled into a file and read back. */
export function rulesetToBody(ruleset: Ruleset): RulesetBody {
  return readLocalRuleset('ruleset.json', serializeRuleset(ruleset, 'json')).body;
}

// ---------------------------------------------------------------- the file a pull writes

/**
 * The file `rulesets pull` writes: keys in a stable order (`id`, `name`, `description`, `kind`,
 * `phase`, `version`, `rules`; in a rule `id`, `ref` unless it is the id, `action`,
 * `action_parameters`, `expression`, `description` unless empty, `enabled`, `logging`, then
 * any other key by name), nested objects by key, without what changes when the ruleset does
 * not (`last_updated`, a rule's `version`), but with the ruleset's `id` and the `version` the
 * file is based on. JSON with two-space indentation, or YAML; both end with a line break.
 */
export function serializeRuleset(ruleset: Ruleset, format: Format): string {
  return serializeValue(canonicalRuleset(ruleset as unknown as Record<string, unknown>), format);
}

function serializeValue(value: unknown, format: Format): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  // lineWidth 0: an expression stays on its line, so a diff shows what changed in it.
  return new YAML.Document(value).toString({ lineWidth: 0, minContentWidth: 0 });
}

function canonicalRuleset(ruleset: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of RULESET_ORDER) {
    if (key === 'rules') out.rules = ((ruleset.rules as unknown[] | undefined) ?? []).map((r) => canonicalRule(r as Record<string, unknown>));
    else if (key === 'description') out.description = typeof ruleset.description === 'string' ? ruleset.description : '';
    else if (ruleset[key] !== undefined && ruleset[key] !== '') out[key] = ruleset[key];
  }
  for (const key of Object.keys(ruleset).sort()) {
    if (!(key in out) && key !== 'last_updated' && ruleset[key] !== undefined) out[key] = sortKeys(ruleset[key]);
  }
  return out;
}

function canonicalRule(rule: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of RULE_ORDER) {
    const value = rule[key];
    if (value === undefined) continue;
    if (key === 'ref' && value === rule.id) continue;
    if (key === 'description' && value === '') continue;
    out[key] = sortKeys(value);
  }
  if (out.enabled === undefined) out.enabled = true;
  // `enabled` keeps its place before `logging` when it was filled in.
  const ordered: Record<string, unknown> = {};
  for (const key of RULE_ORDER) if (out[key] !== undefined) ordered[key] = out[key];
  for (const key of Object.keys(rule).sort()) {
    if (!(key in ordered) && !SERVER_RULE_KEYS.has(key) && !RULE_ORDER.includes(key) && rule[key] !== undefined) ordered[key] = sortKeys(rule[key]);
  }
  return ordered;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/**
 * The local file as a pull of it would look once deployed on top of `deployed`: what the
 * diff compares with the live version, so that only what the deploy changes shows.
 */
function localAsDeployed(local: LocalRuleset, deployed: Ruleset | undefined): string {
  const body = local.body;
  const merged: Record<string, unknown> = {
    id: deployed?.id ?? local.id,
    name: body.name,
    // An update without `description` keeps the live one.
    description: body.description ?? deployed?.description ?? '',
    kind: body.kind,
    phase: body.phase,
    version: deployed?.version,
    rules: body.rules,
  };
  return serializeValue(canonicalRuleset(merged), local.format);
}

// ---------------------------------------------------------------- editing the local file

/** The local file's text with its top-level `version` set: a minimal edit that keeps comments and layout. */
export function withVersion(local: LocalRuleset, version: string): string {
  return editFile(local.text, local.format, [{ path: ['version'], value: version }]);
}

/**
 * The local file's text after a deploy or create of it answered `ruleset`: `version` set, and
 * with `recordId`, the ruleset's `id` too; rules the file lists without an `id` get the one
 * the service gave them (the answer lists the rules in the file's order), so that the next
 * deploy updates them instead of replacing them with new ones.
 */
export function recordDeployed(local: LocalRuleset, ruleset: Ruleset, options: { recordId?: boolean } = {}): string {
  const edits: FileEdit[] = [];
  if (options.recordId) edits.push({ path: ['id'], value: ruleset.id });
  edits.push({ path: ['version'], value: ruleset.version });
  if (ruleset.rules.length === local.body.rules.length) {
    local.body.rules.forEach((rule, i) => {
      if (rule.id === undefined && ruleset.rules[i]?.id) edits.push({ path: ['rules', i, 'id'], value: ruleset.rules[i].id });
    });
  }
  return editFile(local.text, local.format, edits);
}

interface FileEdit {
  /** `['version']`, `['id']` or `['rules', i, 'id']`. */
  readonly path: readonly (string | number)[];
  readonly value: string;
}

function editFile(text: string, format: Format, edits: readonly FileEdit[]): string {
  // Rules last to first, so that an edit never moves the place of one still to come.
  const ordered = [...edits].sort((a, b) => Number(b.path[1] ?? -1) - Number(a.path[1] ?? -1));
  for (const edit of ordered) text = format === 'json' ? editJson(text, edit) : editYaml(text, edit);
  return text;
}

function editJson(text: string, edit: FileEdit): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^[ \t]*(?=")/m.exec(text.slice(text.indexOf('\n') + 1))?.[0] ?? '  ';
  const formattingOptions: jsonc.FormattingOptions = indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: Math.max(1, indent.length), eol };
  const key = String(edit.path.at(-1));
  const changes = jsonc.modify(text, [...edit.path], edit.value, {
    formattingOptions,
    // Where pull puts the key: `id` first; `version` after `phase` (else before `rules`).
    getInsertionIndex: (properties) => {
      if (key === 'id') return 0;
      const phase = properties.indexOf('phase');
      if (phase !== -1) return phase + 1;
      const rules = properties.indexOf('rules');
      return rules !== -1 ? rules : properties.length;
    },
  });
  return jsonc.applyEdits(text, changes);
}

function editYaml(text: string, edit: FileEdit): string {
  const doc = YAML.parseDocument(text, { keepSourceTokens: true, uniqueKeys: false });
  const map = edit.path.length === 1 ? doc.contents : doc.getIn(edit.path.slice(0, -1), true);
  const key = String(edit.path.at(-1));
  // As pull writes it: `"3"` stays a string, an id goes plain.
  const scalar = YAML.stringify(edit.value).trim();
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (YAML.isMap(map)) {
    const pair = map.items.find((p) => YAML.isScalar(p.key) && p.key.value === key);
    if (pair) {
      // Replace the value's text only: the key, comments and layout stay as they are.
      if (YAML.isScalar(pair.value) && pair.value.range && typeof pair.value.value !== 'object') {
        const [start, end] = pair.value.range;
        if (end > start) return text.slice(0, start) + scalar + text.slice(end);
      }
    } else {
      const at = insertionOffset(text, map, key);
      if (at && map.flow) return `${text.slice(0, at.offset)}${key}: ${scalar}, ${text.slice(at.offset)}`;
      if (at?.lineStart) return `${text.slice(0, at.offset)}${' '.repeat(at.column)}${key}: ${scalar}${eol}${text.slice(at.offset)}`;
      // `- action: …`: the new key goes first on the item's line, the old one below it.
      if (at) return `${text.slice(0, at.offset)}${key}: ${scalar}${eol}${' '.repeat(at.column)}${text.slice(at.offset)}`;
    }
  }
  // An odd layout: let the library write the document (comments survive).
  doc.setIn([...edit.path], edit.value);
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}

/**
 * Where a new key goes in a mapping, as pull orders keys: `id` first; `version` after `phase`
 * (or before `rules`). In a block mapping, `lineStart` says the offset starts a line (the key
 * gets a line of its own, at `column`); otherwise the new key goes before the text at `offset`.
 */
function insertionOffset(text: string, map: YAML.YAMLMap, key: string): { offset: number; column: number; lineStart: boolean } | undefined {
  const keys = map.items.map((p) => (YAML.isScalar(p.key) ? String(p.key.value) : ''));
  const keyStart = (pair: YAML.Pair | undefined) => (pair && YAML.isScalar(pair.key) && pair.key.range ? pair.key.range[0] : undefined);
  const columnOf = (offset: number) => offset - (text.lastIndexOf('\n', offset - 1) + 1);
  const phase = keys.indexOf('phase');
  if (key !== 'id' && phase !== -1 && !map.flow) {
    // After the line that `phase: …` ends on, so that a comment above the next key stays there.
    const pair = map.items[phase];
    const start = keyStart(pair);
    const valueEnd = YAML.isScalar(pair.value) && pair.value.range ? pair.value.range[1] : undefined;
    const lineEnd = valueEnd !== undefined ? text.indexOf('\n', valueEnd) : -1;
    if (start !== undefined && lineEnd !== -1) return { offset: lineEnd + 1, column: columnOf(start), lineStart: true };
  }
  const before = key === 'id' ? map.items[0] : map.items[phase !== -1 ? phase + 1 : keys.indexOf('rules')];
  const offset = keyStart(before);
  if (offset === undefined) return undefined;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const column = offset - lineStart;
  return /^ *$/.test(text.slice(lineStart, offset)) && !map.flow ? { offset: lineStart, column, lineStart: true } : { offset, column, lineStart: false };
}

// ---------------------------------------------------------------- where a file deploys to

export type DeployTarget = { kind: 'ruleset'; id: string } | { kind: 'entrypoint'; phase: string };

/**
 * Where a file deploys to: the ruleset of its `id`, else (for kind `root` or `zone`) its
 * phase's entry point. A custom ruleset without an id has to be created first.
 */
export function deployTarget(local: LocalRuleset): DeployTarget {
  if (local.id) return { kind: 'ruleset', id: local.id };
  if (local.body.kind === 'root' || local.body.kind === 'zone') return { kind: 'entrypoint', phase: local.body.phase };
  throw new WorkflowError(
    `${local.path}: a \`${local.body.kind}\` ruleset without an \`id\` has nowhere to deploy to; create it first (\`rulesets create ${local.path}\`), or add the \`id\` of the ruleset it is`,
  );
}

export function describeTarget(target: DeployTarget): string {
  return target.kind === 'ruleset' ? `ruleset ${target.id}` : `the ${target.phase} entry point`;
}

function targetRef(target: DeployTarget): string | { phase: string } {
  return target.kind === 'ruleset' ? target.id : { phase: target.phase };
}

// ---------------------------------------------------------------- planning and deploying

export interface ServiceProblem {
  readonly message: string;
  /** Offsets in the local file (UTF-16 code units), end exclusive. */
  readonly start: number;
  readonly end: number;
}

export interface DeployPlan {
  readonly target: DeployTarget;
  /**
   * Our own check of the file: errors and warnings. Any error stops the plan before a request
   * is made (then `deployed` and `diff` say nothing), and `applyDeploy` refuses.
   */
  readonly localProblems: PositionedProblem[];
  /** What is live now; undefined when the entry point does not exist yet (or nothing was asked). */
  readonly deployed?: Ruleset;
  /** The version the file is based on (its `version`). */
  readonly baseVersion?: string;
  /** The live version moved on since the file's version (`current` is `none` when it is gone). */
  readonly conflict?: { base: string; current: string };
  /** Unified diff, live → local, of both as pull writes them in the file's format; '' when equal. */
  readonly diff: string;
  /** The service's dry run rejected the file. */
  readonly dryRunError?: ApiError;
  /** `dryRunError`'s errors placed in the local file. */
  readonly serviceProblems: ServiceProblem[];
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** Errors and warnings of our own check, with LSP positions. */
export function checkLocal(local: LocalRuleset): PositionedProblem[] {
  const problems = checkRuleset(local.text, local.format).filter((p) => p.severity === 'error' || p.severity === 'warning');
  return toPositions(local.text, problems);
}

export function hasErrors(problems: readonly PositionedProblem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}

/**
 * Everything a deploy of `local` would do, without doing it: our check (when it finds an
 * error, nothing is asked of the service), what is live (a missing entry point is new), a
 * version conflict, the service's dry run, and the diff.
 */
export async function planDeploy(client: RulesetsClient, local: LocalRuleset, options: CallOptions = {}): Promise<DeployPlan> {
  const target = deployTarget(local);
  const localProblems = checkLocal(local);
  const baseVersion = local.version;
  if (hasErrors(localProblems)) return { target, localProblems, baseVersion, diff: '', serviceProblems: [] };
  const deployed = await readDeployed(client, local, target, options.signal);
  if (deployed) refuseIdentityChange(local, deployed, target);
  const conflict = findConflict(baseVersion, deployed);
  let dryRunError: ApiError | undefined;
  try {
    await client.dryRun.updateRuleset(targetRef(target), updateBody(local, deployed), { signal: options.signal });
  } catch (error) {
    dryRunError = rejection(error);
  }
  const diff = unifiedDiff(deployed ? serializeRuleset(deployed, local.format) : '', localAsDeployed(local, deployed), {
    from: deployed ? `${describeTarget(target)} (version ${deployed.version}, live)` : `${describeTarget(target)} (does not exist yet)`,
    to: local.path,
  });
  return {
    target,
    localProblems,
    ...(deployed ? { deployed } : {}),
    ...(baseVersion !== undefined ? { baseVersion } : {}),
    ...(conflict ? { conflict } : {}),
    diff,
    ...(dryRunError ? { dryRunError } : {}),
    serviceProblems: dryRunError ? mapServiceProblems(dryRunError, local) : [],
  };
}

/** One line about a conflict: what the file is based on, what is live, and what to do. */
export function conflictMessage(local: LocalRuleset, plan: Pick<DeployPlan, 'target' | 'conflict'>): string {
  const conflict = plan.conflict;
  if (!conflict) return '';
  const what = describeTarget(plan.target);
  if (conflict.current === 'none') {
    return `${local.path} is based on version ${conflict.base} of ${what}, which no longer exists; deploying would create it anew (--force), or remove \`version\` from the file`;
  }
  return `${local.path} is based on version ${conflict.base} of ${what}, but version ${conflict.current} is live: someone else deployed since; pull it and merge your change (the diff shows what deploying would undo), or deploy with --force to replace it`;
}

/**
 * Deploys a plan: refuses (`WorkflowError`) when the plan has local errors, a dry-run
 * rejection, or a conflict (unless `force`); reads the live version again right before the
 * write and refuses when it moved since the plan (unless `force`); then writes. Returns the
 * new version and the local file's new text (the version recorded). When the write fails in a
 * way that may or may not have reached the service, throws `DeployOutcomeUnknownError`
 * after looking at what is live.
 */
export async function applyDeploy(
  client: RulesetsClient,
  local: LocalRuleset,
  plan: DeployPlan,
  options: { force?: boolean; signal?: AbortSignal } = {},
): Promise<{ ruleset: Ruleset; newText: string }> {
  if (hasErrors(plan.localProblems)) throw new WorkflowError(`${local.path}: not deployed: the check found errors; fix them first (\`rulesets check ${local.path}\`)`);
  if (plan.dryRunError) throw new WorkflowError(`${local.path}: not deployed: the service rejected it: ${plan.dryRunError.message}`);
  if (plan.conflict && !options.force) throw new WorkflowError(`not deployed: ${conflictMessage(local, plan)}`);
  const target = plan.target;
  const before = await readDeployed(client, local, target, options.signal, true);
  if (before?.version !== plan.deployed?.version && !options.force) {
    const was = plan.deployed ? `version ${plan.deployed.version}` : 'nothing';
    const now = before ? `version ${before.version}` : 'nothing';
    throw new WorkflowError(`${local.path}: not deployed: ${describeTarget(target)} changed since the plan (${was} then, ${now} now); plan again to see what deploying would change`);
  }
  if (before) refuseIdentityChange(local, before, target);
  let ruleset: Ruleset;
  try {
    ruleset = await client.updateRuleset(targetRef(target), updateBody(local, before), { signal: options.signal });
  } catch (error) {
    throw await uncertain(error, client, local, target, before?.version, options.signal);
  }
  return { ruleset, newText: recordDeployed(local, ruleset) };
}

/** The live version of the target; undefined for an entry point that does not exist. */
async function readDeployed(client: RulesetsClient, local: LocalRuleset, target: DeployTarget, signal?: AbortSignal, missingIdIsNone = false): Promise<Ruleset | undefined> {
  try {
    return target.kind === 'ruleset' ? await client.getRuleset(target.id, { signal }) : await client.getEntryPoint(target.phase, { signal });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    if (target.kind === 'entrypoint' || missingIdIsNone) return undefined;
    throw new WorkflowError(
      `${local.path}: ruleset ${target.id} (the file's \`id\`) was not found at ${client.host}; it may have been deleted or belong to another account or zone: check --account/--zone, or remove \`id\` and \`version\` and run \`rulesets create ${local.path}\``,
      { cause: error },
    );
  }
}

function findConflict(base: string | undefined, deployed: Ruleset | undefined): { base: string; current: string } | undefined {
  if (base === undefined) return undefined;
  if (!deployed) return { base, current: 'none' };
  return deployed.version !== base ? { base, current: deployed.version } : undefined;
}

/**
 * The body of "update or deploy" for the file: the rules and the description. Name, kind and
 * phase cannot change on the service, so they go only where the PUT creates the ruleset (a
 * phase's entry point that does not exist yet); `refuseIdentityChange` has made sure they match.
 */
function updateBody(local: LocalRuleset, deployed: Ruleset | undefined): UpdateRulesetBody {
  if (!deployed) return local.body;
  const { name: _name, kind: _kind, phase: _phase, ...rest } = local.body;
  return rest;
}

/**
 * Stops a deploy, before any write, when the file's `name`, `kind` or `phase` is not the live
 * ruleset's: the service cannot rename a ruleset or move it to another kind or phase, so the
 * deploy would fail or silently keep the live one.
 */
function refuseIdentityChange(local: LocalRuleset, deployed: Ruleset, target: DeployTarget): void {
  for (const field of ['name', 'kind', 'phase'] as const) {
    const mine = local.body[field];
    const live = deployed[field];
    if (mine === live) continue;
    // A phase has one entry point: there is no new one to create under another name.
    const anew = target.kind === 'ruleset' ? `; for a new ${field}, create a new ruleset (remove \`id\` and \`version\`, then \`rulesets create ${local.path}\`)` : '';
    const fix =
      field === 'name'
        ? `the service cannot rename a ruleset: set \`name: ${JSON.stringify(live)}\` in the file to deploy${anew}`
        : `a ruleset's ${field} cannot change: set \`${field}: ${live}\` back${anew}`;
    throw new WorkflowError(`${local.path}:${lineColumn(local.text, valueOffset(local, field))}: not deployed: \`${field}\` is ${JSON.stringify(mine)} in the file but ${JSON.stringify(live)} on ${describeTarget(target)}; ${fix}`);
  }
}

/** Where the top-level `key`'s value starts in the file (the file's start when it has none). */
function valueOffset(local: LocalRuleset, key: string): number {
  const found = parseRuleset(local.text, local.format).root;
  const property = found?.kind === 'object' ? found.properties.find((p) => p.key === key) : undefined;
  return property?.value?.start ?? property?.keyStart ?? 0;
}

/** A dry run's refusal (a 4xx with the service's reasons); anything else is thrown. */
function rejection(error: unknown): ApiError {
  if (error instanceof ApiError && error.kind === 'api' && error.status !== undefined && error.status >= 400 && error.status < 500 && ![401, 403, 404, 429].includes(error.status)) return error;
  throw error;
}

/** After a failed write: what is live now says whether it landed. */
async function uncertain(error: unknown, client: RulesetsClient, local: LocalRuleset, target: DeployTarget, before: string | undefined, signal?: AbortSignal): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  const mayHaveArrived = error.kind === 'timeout' || error.kind === 'invalid-response' || error.kind === 'network' || (error.status !== undefined && error.status >= 500);
  if (!mayHaveArrived) return error;
  let live: Ruleset | undefined;
  try {
    live = await readDeployed(client, local, target, signal, true);
  } catch {
    return new DeployOutcomeUnknownError(
      `${error.message}; whether the change reached the service is unknown, and reading ${describeTarget(target)} back failed too; ${local.path} was not changed: check with \`rulesets versions\` before deploying again`,
      error,
    );
  }
  const landed = live !== undefined && live.version !== before;
  const liveText = live ? `version ${live.version}` : 'nothing';
  const verdict = landed
    ? `yet ${liveText} is live now (it was ${before === undefined ? 'nothing' : `version ${before}`}): the change most likely went through; ${local.path} was not changed: pull it to record the new version`
    : `${describeTarget(target)} is still at ${liveText}: nothing was deployed; ${local.path} was not changed; try again`;
  return new DeployOutcomeUnknownError(`${error.message}; ${verdict}`, error, live?.version, landed);
}

/** The service's errors placed in the local file (an error without a pointer: the file's start). */
export function mapServiceProblems(error: ApiError, local: LocalRuleset): ServiceProblem[] {
  const errors = error.errors.length > 0 ? error.errors : [{ message: error.message }];
  return errors.map((e) => {
    const range = 'pointer' in e && e.pointer !== undefined ? pointerToRange(local.text, local.format, e.pointer, { message: e.message }) : undefined;
    return { message: e.message, start: range?.start ?? 0, end: range?.end ?? 0 };
  });
}

// ---------------------------------------------------------------- create

export interface CreatePlan {
  readonly localProblems: PositionedProblem[];
  /** Unified diff from nothing to the file as pull would write it once created. */
  readonly diff: string;
  readonly dryRunError?: ApiError;
  readonly serviceProblems: ServiceProblem[];
}

/**
 * A create of `local` (POST), without doing it: our check, then the service's dry run. A file
 * that has an `id` is deployed already and is refused. Rule ids in the file (copied from another
 * ruleset) are not sent: the service gives the new rules their own.
 */
export async function planCreate(client: RulesetsClient, local: LocalRuleset, options: CallOptions = {}): Promise<CreatePlan> {
  refuseIfDeployed(local);
  const localProblems = checkLocal(local);
  if (hasErrors(localProblems)) return { localProblems, diff: '', serviceProblems: [] };
  let dryRunError: ApiError | undefined;
  try {
    await client.dryRun.createRuleset(createBody(local), { signal: options.signal });
  } catch (error) {
    dryRunError = rejection(error);
  }
  const diff = unifiedDiff('', localAsDeployed({ ...local, body: createBody(local) }, undefined), { from: '(nothing)', to: local.path });
  return { localProblems, diff, ...(dryRunError ? { dryRunError } : {}), serviceProblems: dryRunError ? mapServiceProblems(dryRunError, local) : [] };
}

/** Creates the ruleset of a plan; the new file text records its `id`, `version` and rule ids. */
export async function applyCreate(client: RulesetsClient, local: LocalRuleset, plan: CreatePlan, options: CallOptions = {}): Promise<{ ruleset: Ruleset; newText: string }> {
  refuseIfDeployed(local);
  if (hasErrors(plan.localProblems)) throw new WorkflowError(`${local.path}: not created: the check found errors; fix them first (\`rulesets check ${local.path}\`)`);
  if (plan.dryRunError) throw new WorkflowError(`${local.path}: not created: the service rejected it: ${plan.dryRunError.message}`);
  const body = createBody(local);
  const ruleset = await client.createRuleset(body, { signal: options.signal });
  // The file's own rule ids (if any) were not sent: the service's replace them.
  const text = recordDeployed({ ...local, body }, ruleset, { recordId: true });
  return { ruleset, newText: text };
}

function refuseIfDeployed(local: LocalRuleset): void {
  if (local.id) {
    throw new WorkflowError(`${local.path}: the file has \`id: ${local.id}\`, so it is deployed already: use \`rulesets deploy ${local.path}\`, or remove \`id\` and \`version\` to create a new ruleset from it`);
  }
}

function createBody(local: LocalRuleset): RulesetBody {
  return { ...local.body, rules: local.body.rules.map(({ id: _id, ...rule }) => rule as RuleInput) };
}

// ---------------------------------------------------------------- diff

export interface DiffLabels {
  readonly from: string;
  readonly to: string;
}

/** Middle parts (after the common start and end) larger than this are diffed as replaced whole. */
const MAX_DIFF_CELLS = 16_000_000;
const CONTEXT = 3;

type DiffLine = { readonly op: ' ' | '-' | '+'; readonly text: string };

/**
 * A unified diff of two texts by lines (`---`/`+++` headers, `@@` hunks, three lines of
 * context), '' when they are equal. The edit script is a longest common subsequence.
 */
export function unifiedDiff(from: string, to: string, labels: DiffLabels): string {
  if (from === to) return '';
  const a = splitLines(from);
  const b = splitLines(to);
  const script = diffLines(a, b);
  const out = [`--- ${labels.from}`, `+++ ${labels.to}`];
  // A hunk: a run of changes, with runs less than 2 × CONTEXT unchanged lines apart joined.
  let i = 0;
  while (i < script.length) {
    while (i < script.length && script[i].op === ' ') i++;
    if (i >= script.length) break;
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    for (;;) {
      while (end < script.length && script[end].op !== ' ') end++;
      let next = end;
      while (next < script.length && script[next].op === ' ') next++;
      if (next >= script.length || next - end > 2 * CONTEXT) break;
      end = next;
    }
    const stop = Math.min(script.length, end + CONTEXT);
    // The lines before the hunk on each side.
    let oldBefore = 0;
    let newBefore = 0;
    for (let k = 0; k < start; k++) {
      if (script[k].op !== '+') oldBefore++;
      if (script[k].op !== '-') newBefore++;
    }
    const hunk = script.slice(start, stop);
    const oldCount = hunk.filter((l) => l.op !== '+').length;
    const newCount = hunk.filter((l) => l.op !== '-').length;
    out.push(`@@ -${hunkRange(oldBefore, oldCount)} +${hunkRange(newBefore, newCount)} @@`);
    for (const line of hunk) out.push(`${line.op}${line.text}`);
    i = stop;
  }
  return `${out.join('\n')}\n`;
}

function hunkRange(before: number, count: number): string {
  // An empty side names the line before the hunk, as diff does.
  const first = count === 0 ? before : before + 1;
  return count === 1 ? String(first) : `${first},${count}`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function diffLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const middle: DiffLine[] = [];
  const n = midA.length;
  const m = midB.length;
  if ((n + 1) * (m + 1) > MAX_DIFF_CELLS) {
    for (const text of midA) middle.push({ op: '-', text });
    for (const text of midB) middle.push({ op: '+', text });
  } else {
    // lcs[i][j]: the length of the longest common subsequence of midA[i..] and midB[j..].
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] = midA[i] === midB[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        middle.push({ op: ' ', text: midA[i++] });
        j++;
      } else if (j === m || (i < n && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
        // Where both are as good, the removal first: `-old` then `+new`.
        middle.push({ op: '-', text: midA[i++] });
      } else {
        middle.push({ op: '+', text: midB[j++] });
      }
    }
  }
  return [...a.slice(0, prefix).map((text) => ({ op: ' ' as const, text })), ...middle, ...a.slice(a.length - suffix).map((text) => ({ op: ' ' as const, text }))];
}

// ---------------------------------------------------------------- helpers

/** `line:column`, both 1-based, of an offset (columns in UTF-16 code units). */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split(/\r\n|\r|\n/).length;
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return `${line}:${offset - lineStart + 1}`;
}
