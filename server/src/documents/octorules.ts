/**
 * The sections of an octorules rules file (a zone's `rules/<zone>.yaml`, or an account's), each
 * as the ruleset of its phase. What octorules does with a file is taken from its code
 * (octorules 0.37.0, octorules-cloudflare 0.18.1; catalogue/generated/octorules-sections.ts):
 *
 * - Sections nest in the `cloudflare:` block (octorules/config.py normalize_zone_format). A
 *   section at the top level is the spelling octorules used before it nested them (and its own
 *   examples still use): its rules are still checked, and one warning for the file says that
 *   octorules now skips such sections (planner.py check_zone_sections, lint rule CORE011).
 * - Every rule needs a `ref`, unique within its section (octorules_cloudflare/linter/
 *   yaml_validator.py CF003, CF005; planner.py), and an `expression`; a rule without `action`
 *   gets its section's default (octorules_cloudflare/__init__.py _cf_prepare_rule), and only a
 *   section without one needs it. The rules' own checks are ruleset-shape.ts's, by layout.
 * - `!include PATH` (config.py _make_include_loader) puts the YAML of another file, read
 *   relative to the including file and only from its folder or below, where it stands: a
 *   section's value (a file of rules) or one rule of a section (a file of one rule).
 *
 * An included file's rules are checked as the document's are, but their characters are in
 * their own file: each of their problems is reported on the `!include` that reads the file,
 * naming the file, line and column (checkDocument in ruleset.ts).
 */
import { OCTORULES_NAMESPACE, OCTORULES_NAMESPACE_KEYS, OCTORULES_REMOVED_SECTIONS, OCTORULES_SECTIONS, OCTORULES_VERSIONS, type OctorulesSection } from '../language/catalogue/generated/octorules-sections';
import { RULESET_ID } from '../language/catalogue/actions';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { parseHost, property, type HostArray, type HostDocument, type HostNode, type HostObject, type HostProperty, type HostScalar } from './host/index';
import { renameKeyEdit, replaceScalarEdit } from './host/index';
import { hostSyntaxProblems, rulesetOfRoot, type DocumentProblem, type IncludedFile, type ParsedDocument, type ParsedRuleset } from './parsed-ruleset';
import { lineNumber, linePosition } from './positions';

/**
 * The text of a file an `!include` names, by its path relative to the including file; undefined
 * when it cannot be read, or why not (`unreadable`: a file that is not UTF-8 text, say).
 */
export type IncludeReader = (relativePath: string) => string | { readonly unreadable: string } | undefined;

const SECTIONS = new Map(OCTORULES_SECTIONS.map((s) => [s.section, s]));
const SECTION_NAMES = OCTORULES_SECTIONS.map((s) => s.section);
const CUSTOM_RULESETS = 'custom_rulesets';
/** The phases octorules-cloudflare knows by their API name, which a custom ruleset's `phase` is. */
const CLOUDFLARE_PHASES = OCTORULES_SECTIONS.map((s) => s.phase);
const VERSION = `octorules ${OCTORULES_VERSIONS.octorules}`;
/**
 * A key octorules does not read that names a section all the same: a name it no longer reads
 * (lint rule CF010) or the API name of a phase where octorules wants its section's name (CF014).
 * octorules skips the key, and its rules with it.
 */
interface MisnamedSection {
  /** The sections meant, the first read in its place. */
  readonly meant: readonly OctorulesSection[];
  /** Why the key is not the section's name, said before the fix. */
  readonly why: string;
}

function misnamedSection(key: string): MisnamedSection | undefined {
  if (SECTIONS.has(key)) return undefined;
  const renamed = Object.hasOwn(OCTORULES_REMOVED_SECTIONS, key) ? SECTIONS.get(OCTORULES_REMOVED_SECTIONS[key]) : undefined;
  if (renamed) return { meant: [renamed], why: `\`${key}\` is the former name of \`${renamed.section}\`, which ${VERSION} no longer reads` };
  const byPhase = OCTORULES_SECTIONS.filter((s) => s.phase === key);
  if (byPhase.length > 0) return { meant: byPhase, why: `\`${key}\` is the API name of a phase, which ${VERSION} does not read as a section: it names the section ${quoteAlternatives(byPhase.map((s) => s.section))}` };
  return undefined;
}

/** Includes within includes: octorules follows them to any depth, but a file set this deep is a mistake. */
const MAX_INCLUDE_DEPTH = 16;
/** Files read for one document at most, so that a fan of includes cannot make a check endless. */
const MAX_INCLUDED_FILES = 256;

/**
 * Whether a YAML document's top level is an octorules rules file: a mapping with a section (or
 * custom rulesets) in its `cloudflare:` block, or a list of rules under a section's name at the
 * top level (the older spelling), or `custom_rulesets` there (a section of octorules' core,
 * which it reads at the top level too: config.py normalize_zone_format). A list under a near
 * miss of a section's name is one too, so that the misspelling is said rather than the file
 * passed over (octorules warns of it, CORE011), and so is a list of rules under a name octorules
 * no longer reads or under a phase's API name (CF010, CF014). A ruleset in the API's shape (`rules` with
 * `phase` or `kind`) never is, whatever else it holds. A file of settings alone has nothing to
 * check.
 */
export function isOctorulesDocument(root: HostNode | undefined): boolean {
  if (root?.kind !== 'object') return false;
  if (property(root, 'rules') && (property(root, 'phase') || property(root, 'kind'))) return false;
  const block = property(root, OCTORULES_NAMESPACE)?.value;
  if (block?.kind === 'object' && block.properties.some((p) => SECTIONS.has(p.key) || p.key === CUSTOM_RULESETS || (p.value?.kind === 'array' && (misnamedSection(p.key) !== undefined || nearMisses(p.key, OCTORULES_NAMESPACE_KEYS).length > 0)))) return true;
  return root.properties.some((p) => p.value?.kind === 'array' && (SECTIONS.has(p.key) || p.key === CUSTOM_RULESETS || (holdsRules(p.value) && (misnamedSection(p.key) !== undefined || nearMisses(p.key, SECTION_NAMES).length > 0))));
}

/**
 * A list whose items are mappings, one with an `expression`: rules. A near miss at the top level
 * must hold them to make a file octorules': other tools' files have `page_rules` or
 * `access_rules` lists (near misses of `cache_rules`) of their own.
 */
function holdsRules(value: HostArray): boolean {
  return value.items.length > 0 && value.items.every((item) => item.kind === 'object') && value.items.some((item) => property(item, 'expression') !== undefined);
}

/**
 * Whether a YAML document is to be read as octorules' when it is read at all (named on the
 * command line, opened in the editor): an octorules file, or one with octorules' `cloudflare:`
 * block or a section's key at the top level (its value an `!include`, say), which a ruleset in
 * the API's shape never has. A folder search asks isOctorulesDocument:
 * a `cloudflare:` key alone may be another tool's.
 */
export function readsAsOctorules(root: HostNode | undefined): boolean {
  if (isOctorulesDocument(root)) return true;
  if (root?.kind !== 'object' || ['rules', 'phase', 'kind', 'name'].some((key) => property(root, key))) return false;
  // A section's key (or custom_rulesets') whatever its value: an `!include` is a string.
  return property(root, OCTORULES_NAMESPACE)?.value?.kind === 'object' || root.properties.some((p) => SECTIONS.has(p.key) || p.key === CUSTOM_RULESETS);
}

/** The candidates a key is a near miss of (itself not one of them). */
function nearMisses(key: string, candidates: readonly string[]): string[] {
  return closestMatches(key, candidates).filter((c) => c !== key);
}

export function readOctorules(text: string, host: HostDocument, include?: IncludeReader): ParsedDocument {
  const document: Source = { text, problems: hostSyntaxProblems(text, host), chain: [] };
  const reading: Reading = { include, rulesets: [], included: [], reads: 0 };
  const root = host.root;
  if (root?.kind === 'object') {
    checkRepeatedKeys(document, root);
    const block = property(root, OCTORULES_NAMESPACE)?.value;
    const nested = block?.kind === 'object' ? block : undefined;
    const flat: HostProperty[] = [];
    for (const p of root.properties) {
      if (p.key === OCTORULES_NAMESPACE) {
        if (nested === p.value && nested) readBlock(reading, document, nested);
        continue;
      }
      const section = SECTIONS.get(p.key);
      if (section) {
        if (!checkFlatSection(document, p, nested)) flat.push(p);
        readSection(reading, document, p, section);
        continue;
      }
      if (p.key === CUSTOM_RULESETS) readCustomRulesets(reading, document, p);
      else if (!readMisnamedSection(reading, document, p, false)) checkTopLevelKey(document, p);
    }
    if (flat.length > 0) document.problems.push(sectionsOutsideBlock(flat));
    if (nested && reading.rulesets.length === 0 && document.problems.length === 0) checkManagesSomething(document, root, nested);
  }
  const rulesets = reading.rulesets.sort((a, b) => a.root!.start - b.root!.start);
  return { format: host.format, layout: 'octorules', text, rulesets, problems: document.problems, included: reading.included, root };
}

/** The document, or a file an include read. */
interface Source {
  readonly text: string;
  /** Relative to the document's folder; undefined for the document. */
  readonly path?: string;
  /** Problems in this source's own offsets. */
  readonly problems: DocumentProblem[];
  /** The document's `!include` through which this file was read. */
  readonly at?: { readonly start: number; readonly end: number };
  /** The files included on the way here, this one last: an include of one of them is a loop. */
  readonly chain: readonly string[];
  /** An included file's rules, once read (the document's go to Reading.rulesets). */
  ruleset?: ParsedRuleset;
}

interface Reading {
  readonly include?: IncludeReader;
  readonly rulesets: ParsedRuleset[];
  readonly included: IncludedFile[];
  reads: number;
}

/** The refs of one section so far, each with where it was first used. */
type Refs = Map<string, { readonly source: Source; readonly node: HostScalar }>;

function readBlock(reading: Reading, document: Source, block: HostObject): void {
  checkRepeatedKeys(document, block);
  for (const p of block.properties) {
    const section = SECTIONS.get(p.key);
    if (section) {
      readSection(reading, document, p, section);
      continue;
    }
    if (p.key === CUSTOM_RULESETS) readCustomRulesets(reading, document, p);
    if (OCTORULES_NAMESPACE_KEYS.includes(p.key) || readMisnamedSection(reading, document, p, true)) continue;
    // octorules warns of any key it does not know here; a newer octorules may know more, so
    // only a near miss of a known key is reported.
    const suggestions = closestMatches(p.key, OCTORULES_NAMESPACE_KEYS).filter((k) => !property(block, k));
    if (suggestions.length === 0) continue;
    document.problems.push({
      code: 'unknown-section',
      severity: 'warning',
      message: `${VERSION} does not know \`${p.key}\` in the \`${OCTORULES_NAMESPACE}:\` block and would not manage it; did you mean ${quoteAlternatives(suggestions)}?`,
      start: p.keyStart,
      end: p.keyEnd,
      fixes: suggestions.map((k) => ({ title: `Change to \`${k}\``, edits: [renameKeyEdit(p, k)] })),
    });
  }
}

/**
 * A list of rules under a name octorules does not read but that names a section (misnamedSection):
 * said on the key, with the fix to the section's name, and its rules checked as that section's.
 * At the top level only a list of rules counts (another tool's file may have such a key); true
 * when the key was one.
 */
function readMisnamedSection(reading: Reading, document: Source, p: HostProperty, inBlock: boolean): boolean {
  const misnamed = misnamedSection(p.key);
  if (!misnamed || p.value?.kind !== 'array' || (!inBlock && !holdsRules(p.value))) return false;
  const where = inBlock ? '' : ` and nest it under \`${OCTORULES_NAMESPACE}:\``;
  document.problems.push({
    code: 'unknown-section',
    severity: 'warning',
    message: `${misnamed.why}; it would not manage these rules: rename it to ${quoteAlternatives(misnamed.meant.map((s) => s.section))}${where}`,
    start: p.keyStart,
    end: p.keyEnd,
    fixes: misnamed.meant.map((s) => ({ title: `Change to \`${s.section}\``, edits: [renameKeyEdit(p, s.section)] })),
  });
  readSection(reading, document, p, misnamed.meant[0]);
  return true;
}

/**
 * A `cloudflare:` block none of whose keys octorules knows (and none a near miss, which is said
 * on its own), in a file with no section elsewhere: octorules warns of each key and manages
 * nothing (planner.py check_zone_sections, CORE011), which is said once, on the first key.
 */
function checkManagesSomething(document: Source, root: HostObject, block: HostObject): void {
  if (block.properties.length === 0 || block.properties.some((p) => OCTORULES_NAMESPACE_KEYS.includes(p.key))) return;
  if (root.properties.some((p) => SECTIONS.has(p.key) || p.key === CUSTOM_RULESETS)) return;
  const first = block.properties[0];
  const keys = block.properties.length === 1 ? `\`${first.key}\`` : `any of its ${block.properties.length} keys`;
  document.problems.push({
    code: 'unknown-section',
    severity: 'warning',
    message: `${VERSION} does not know ${keys} in the \`${OCTORULES_NAMESPACE}:\` block and would manage nothing in this file; its sections are ${quoteAlternatives(SECTION_NAMES.slice(0, 3))}, … and \`${CUSTOM_RULESETS}\``,
    start: first.keyStart,
    end: first.keyEnd,
  });
}

/** A section at the top level that is in the block too, which octorules refuses; true when it is. */
function checkFlatSection(document: Source, p: HostProperty, block: HostObject | undefined): boolean {
  const nested = property(block, p.key);
  if (!nested) return false;
  document.problems.push({
    code: 'duplicate-section',
    severity: 'error',
    message: `\`${p.key}\` is both here and in the \`${OCTORULES_NAMESPACE}:\` block; octorules refuses a file that has a section twice`,
    start: p.keyStart,
    end: p.keyEnd,
    related: [{ start: nested.keyStart, end: nested.keyEnd, message: `\`${p.key}\` in the \`${OCTORULES_NAMESPACE}:\` block` }],
  });
  return true;
}

/**
 * The sections at the top level, said once for the file (on the first): a file written for an
 * older octorules has them all there, and one word is enough.
 */
function sectionsOutsideBlock(flat: readonly HostProperty[]): DocumentProblem {
  const names = flat.length > 3 ? `${flat.slice(0, 3).map((p) => `\`${p.key}\``).join(', ')} and ${flat.length - 3} more` : quoteAlternatives(flat.map((p) => p.key)).replace(/ or /, ' and ');
  return {
    code: 'section-outside-block',
    severity: 'warning',
    message: `${VERSION} reads its sections inside the \`${OCTORULES_NAMESPACE}:\` block, and its plan and sync skip ${flat.length === 1 ? 'this one' : `the ${flat.length} at the top level of this file (${names})`} (its lint rule CORE011): nest ${flat.length === 1 ? 'it' : 'them'} under \`${OCTORULES_NAMESPACE}:\``,
    start: flat[0].keyStart,
    end: flat[0].keyEnd,
  };
}

/** A top-level key that is no section: octorules' own (`lists`, other providers' blocks) or a misspelt section. */
function checkTopLevelKey(document: Source, p: HostProperty): void {
  const [namespace, dot, member] = [p.key.slice(0, OCTORULES_NAMESPACE.length), p.key[OCTORULES_NAMESPACE.length], p.key.slice(OCTORULES_NAMESPACE.length + 1)];
  if (namespace === OCTORULES_NAMESPACE && dot === '.' && OCTORULES_NAMESPACE_KEYS.includes(member)) {
    document.problems.push({
      code: 'unknown-section',
      severity: 'error',
      message: `octorules refuses \`${p.key}\` as a key (it is its internal spelling): write \`${member}\` inside the \`${OCTORULES_NAMESPACE}:\` block`,
      start: p.keyStart,
      end: p.keyEnd,
    });
    return;
  }
  // Only a list, as rules are: a mapping at the top level may be another provider's block.
  if (p.value?.kind !== 'array' || OCTORULES_NAMESPACE_KEYS.includes(p.key)) return;
  const suggestions = closestMatches(p.key, SECTION_NAMES);
  if (suggestions.length === 0) return;
  document.problems.push({
    code: 'unknown-section',
    severity: 'warning',
    message: `\`${p.key}\` is not a section of octorules, which would not manage it; did you mean ${quoteAlternatives(suggestions)}?`,
    start: p.keyStart,
    end: p.keyEnd,
    fixes: suggestions.map((k) => ({ title: `Change to \`${k}\``, edits: [renameKeyEdit(p, k)] })),
  });
}

/** octorules refuses a mapping with a key written twice (its lint rule CORE001). */
function checkRepeatedKeys(source: Source, object: HostObject): void {
  const first = new Map<string, HostProperty>();
  for (const p of object.properties) {
    const earlier = first.get(p.key);
    if (!earlier) {
      first.set(p.key, p);
      continue;
    }
    source.problems.push({
      code: 'duplicate-key',
      severity: 'error',
      message: `\`${p.key}\` appears twice here; octorules refuses a file with a key repeated`,
      start: p.keyStart,
      end: p.keyEnd,
      related: [{ start: earlier.keyStart, end: earlier.keyEnd, message: `the first \`${p.key}\`` }],
    });
  }
}

/**
 * `custom_rulesets`: rulesets of the account that octorules updates by id, each in the API's
 * shape (`name`, `phase` by its API name, `rules`), whose rules need `ref`, `expression` and
 * `action` (octorules/planner.py validate_custom_ruleset; octorules_cloudflare's phases say
 * `rule_required_fields=("expression", "action")`). What validate_custom_ruleset refuses is
 * said: no `name` or `phase` (or an empty one), `rules` that are no list, a phase that is a
 * near miss of one of Cloudflare's, an `id` that is no non-empty string, no `id` (a ruleset to
 * create) without `capacity`, a `capacity` that is no positive whole number; and, as octorules'
 * lint rule CF023 warns, an `id` that is not 32 hexadecimal digits, as every ruleset's is. Only those of a phase octorules-cloudflare knows are read:
 * another phase may be another provider's.
 */
function readCustomRulesets(reading: Reading, document: Source, p: HostProperty): void {
  // An `!include` may stand for any value: what it reads is not looked into here.
  if (!p.value || p.value.kind === 'null' || includeOf(document.text, p.value)) return;
  if (p.value.kind !== 'array') {
    document.problems.push({ code: 'invalid-type', severity: 'error', message: `\`${CUSTOM_RULESETS}\` holds a list of rulesets (each with \`name\`, \`phase\` and \`rules\`); found ${kindOf(p.value)}`, start: p.value.start, end: p.value.end });
    return;
  }
  p.value.items.forEach((item, index) => {
    if (includeOf(document.text, item)) return;
    if (item.kind !== 'object') {
      document.problems.push({ code: 'invalid-type', severity: 'error', message: `a custom ruleset is a mapping with \`name\`, \`phase\` and \`rules\`; found ${kindOf(item)}`, start: item.start, end: item.end });
      return;
    }
    const phase = property(item, 'phase')?.value;
    const rules = property(item, 'rules')?.value;
    const include = rules && includeOf(document.text, rules);
    checkCustomRuleset(document, item, phase, include ? undefined : rules);
    const known = phase?.kind === 'string' ? OCTORULES_SECTIONS.find((s) => s.phase === phase.value) : undefined;
    if (!known) return;
    const name = property(item, 'name')?.value;
    const label = `${CUSTOM_RULESETS}: ${name?.kind === 'string' ? String(name.value) : index + 1}`;
    const section: OctorulesSection = { section: label, phase: known.phase, zone: false, account: true };
    if (include) {
      // A file of the rules, read as a section's is.
      const file = open(reading, document, include);
      if (file) readIncludedRules(reading, file, section, new Map());
      return;
    }
    if (rules?.kind !== 'array') return;
    readRules(reading, document, section, { keyStart: item.start, keyEnd: item.start }, rules, new Map());
  });
}

function kindOf(value: HostNode): string {
  return value.kind === 'object' ? 'a mapping' : value.kind === 'array' ? 'a list' : value.kind === 'null' ? 'nothing' : `a ${value.kind}`;
}

/** What octorules' validate_custom_ruleset refuses of one custom ruleset, said on it. */
function checkCustomRuleset(document: Source, item: HostObject, phase: HostNode | undefined, rules: HostNode | undefined): void {
  // The entry's first line: where a missing key of it is said.
  const first = item.properties[0];
  const head = { start: item.start, end: first ? Math.max(first.keyEnd, first.value?.kind === 'object' || first.value?.kind === 'array' ? first.keyEnd : (first.value?.end ?? first.keyEnd)) : item.end };
  for (const key of ['name', 'phase']) {
    const value = property(item, key)?.value;
    if (value?.kind === 'string' && value.value !== '') continue;
    const at = value && value.kind !== 'null' ? value : head;
    const why = value === undefined || value.kind === 'null' ? `has no \`${key}\`` : value.kind === 'string' ? `has an empty \`${key}\`` : `has a \`${key}\` that is not a string`;
    document.problems.push({ code: 'missing-key', severity: 'error', message: `this custom ruleset ${why}; octorules refuses a custom ruleset without a non-empty \`${key}\`${key === 'phase' ? ' (the API name of its phase, such as `http_request_firewall_custom`)' : ''}`, start: at.start, end: at.end });
  }
  if (phase?.kind === 'string' && phase.value !== '' && !CLOUDFLARE_PHASES.includes(String(phase.value))) {
    const meant = nearMisses(String(phase.value), CLOUDFLARE_PHASES);
    if (meant.length > 0) {
      document.problems.push({
        code: 'unknown-phase',
        severity: 'error',
        message: `octorules refuses the phase \`${String(phase.value)}\` of a custom ruleset, which is no phase of Cloudflare's; did you mean ${quoteAlternatives(meant)}?`,
        start: phase.start,
        end: phase.end,
        fixes: meant.map((m) => ({ title: `Change to \`${m}\``, edits: [replaceScalarEdit(phase, m)] })),
      });
    }
  }
  if (rules && rules.kind !== 'array') document.problems.push({ code: 'invalid-type', severity: 'error', message: `a custom ruleset's \`rules\` is a list of rules; found ${kindOf(rules)}, which octorules refuses`, start: rules.start, end: rules.end });
  // An `id` names the ruleset to update; without one octorules creates the ruleset, which it
  // refuses to do without a `capacity` (validate_custom_ruleset), a positive whole number.
  const id = property(item, 'id')?.value;
  const capacity = property(item, 'capacity')?.value;
  const hasId = id !== undefined && id.kind !== 'null';
  if (hasId && !(id.kind === 'string' && id.value !== '')) {
    // Digits alone are a number to YAML (octorules' reader too): quoted, they are the id meant.
    const digits = id.kind === 'number' && /^[0-9]+$/.test(document.text.slice(id.start, id.end));
    const found = id.kind === 'string' ? 'an empty one' : digits ? 'a number, as YAML reads digits alone' : kindOf(id);
    const fixes = digits ? [{ title: 'Quote the id', edits: [{ start: id.start, end: id.end, newText: `"${document.text.slice(id.start, id.end)}"` }] }] : [];
    document.problems.push({ code: 'invalid-type', severity: 'error', message: `a custom ruleset's \`id\` is the id of the ruleset to update, a non-empty string; found ${found}, which octorules refuses${digits ? ': quote it' : ' (leave `id` out to create the ruleset)'}`, start: id.start, end: id.end, ...(fixes.length > 0 ? { fixes } : {}) });
  }
  // A ruleset's id is 32 hexadecimal digits: another names no ruleset, and the update fails.
  if (id?.kind === 'string' && id.value !== '' && !RULESET_ID.pattern.test(String(id.value))) {
    document.problems.push({ code: 'invalid-type', severity: 'error', message: `\`${String(id.value)}\` is not the id of a ruleset, which is 32 hexadecimal digits (as the API returns it when the ruleset is made): octorules would update a ruleset that cannot exist`, start: id.start, end: id.end });
  }
  const hasCapacity = capacity !== undefined && capacity.kind !== 'null';
  if (!hasId && !hasCapacity) {
    document.problems.push({ code: 'missing-key', severity: 'error', message: `this custom ruleset has no \`id\`, so octorules would create it, and it refuses to create one without a \`capacity\`: give the \`id\` of the ruleset to update, or a \`capacity\``, start: head.start, end: head.end });
  }
  if (hasCapacity && !(capacity.kind === 'number' && Number.isInteger(capacity.value) && Number(capacity.value) > 0)) {
    document.problems.push({ code: 'invalid-type', severity: 'error', message: `a custom ruleset's \`capacity\` is a positive whole number; found ${capacity.kind === 'number' ? `\`${String(capacity.value)}\`` : kindOf(capacity)}, which octorules refuses`, start: capacity.start, end: capacity.end });
  }
}

/** A section's value: its rules, a file of them (`!include`), or nothing (an empty section). */
function readSection(reading: Reading, document: Source, p: HostProperty, section: OctorulesSection): void {
  const value = p.value;
  if (!value || value.kind === 'null') return;
  const refs: Refs = new Map();
  const include = includeOf(document.text, value);
  if (include) {
    const file = open(reading, document, include);
    if (file) readIncludedRules(reading, file, section, refs);
    return;
  }
  if (value.kind !== 'array') {
    document.problems.push(notAList(section, value));
    return;
  }
  readRules(reading, document, section, { keyStart: p.keyStart, keyEnd: p.keyEnd }, value, refs);
}

function notAList(section: OctorulesSection, value: HostNode): DocumentProblem {
  const found = value.kind === 'object' ? 'a mapping' : value.kind === 'array' ? 'a list' : `a ${value.kind}`;
  return { code: 'invalid-type', severity: 'error', message: `\`${section.section}\` holds a list of rules; found ${found}`, start: value.start, end: value.end };
}

/** A file included as a section's value: a list of rules. */
function readIncludedRules(reading: Reading, file: Source, section: OctorulesSection, refs: Refs): void {
  const host = parseHost(file.text, 'yaml');
  file.problems.push(...hostSyntaxProblems(file.text, host));
  if (host.root && host.root.kind !== 'null') {
    if (host.root.kind === 'array') readRules(reading, file, section, { keyStart: 0, keyEnd: 0 }, host.root, refs);
    else file.problems.push(notAList(section, host.root));
  }
  keep(reading, file);
}

/** A file included as one rule of a section: a mapping. */
function readIncludedRule(reading: Reading, file: Source, section: OctorulesSection, refs: Refs): void {
  const host = parseHost(file.text, 'yaml');
  file.problems.push(...hostSyntaxProblems(file.text, host));
  const rule = host.root;
  if (rule && rule.kind !== 'null') {
    const rules: HostArray = { kind: 'array', start: rule.start, end: rule.end, items: [rule] };
    addRuleset(reading, file, section, { keyStart: 0, keyEnd: 0 }, rules);
    checkRef(file, section, rule, refs);
  }
  keep(reading, file);
}

/** What an included file adds to the document, once it is read: its ruleset (if any, from addRuleset) and its problems. */
function keep(reading: Reading, file: Source): void {
  reading.included.push({ path: file.path!, text: file.text, start: file.at!.start, end: file.at!.end, ...(file.ruleset ? { ruleset: file.ruleset } : {}), problems: file.problems });
}

/**
 * A section's rules as written in `source`: one ruleset of them, and one for each rule an
 * `!include` among them reads. `key` is where the ruleset's root starts (the section's key).
 */
function readRules(reading: Reading, source: Source, section: OctorulesSection, key: { keyStart: number; keyEnd: number }, rules: HostArray, refs: Refs): void {
  const own: HostNode[] = [];
  for (const item of rules.items) {
    const include = includeOf(source.text, item);
    if (!include) {
      own.push(item);
      checkRef(source, section, item, refs);
      continue;
    }
    const file = open(reading, source, include);
    if (file) readIncludedRule(reading, file, section, refs);
  }
  addRuleset(reading, source, section, key, own.length === rules.items.length ? rules : { ...rules, items: own });
}

/**
 * The ruleset of a section: a root in the API's shape whose `phase` is the section's key (the
 * name that says the phase) and whose `rules` are the section's own list.
 */
function addRuleset(reading: Reading, source: Source, section: OctorulesSection, key: { keyStart: number; keyEnd: number }, rules: HostArray): void {
  const phase: HostScalar = { kind: 'string', start: key.keyStart, end: key.keyEnd, value: section.phase, style: 'plain' };
  const root: HostObject = {
    kind: 'object',
    start: key.keyStart,
    end: Math.max(rules.end, key.keyEnd),
    block: true,
    properties: [
      { key: 'phase', keyStart: key.keyStart, keyEnd: key.keyEnd, value: phase },
      { key: 'rules', keyStart: key.keyStart, keyEnd: key.keyEnd, value: rules },
    ],
  };
  const ruleset = rulesetOfRoot(source.text, 'yaml', root, { layout: 'octorules', label: section.section, ...(section.defaultAction ? { defaultAction: section.defaultAction } : {}) });
  if (source.path === undefined) reading.rulesets.push(ruleset);
  else source.ruleset = ruleset;
}

/**
 * An empty `ref`, which octorules refuses (planner.py validate_rules: "must be a non-empty
 * string"; lint rule CF006), and a `ref` used before in the section (CF005); its absence and
 * type are the rule's shape checks.
 */
function checkRef(source: Source, section: OctorulesSection, rule: HostNode, refs: Refs): void {
  const node = property(rule, 'ref')?.value;
  if (node?.kind !== 'string') return;
  if (node.value === '') {
    source.problems.push({
      code: 'empty-ref',
      severity: 'error',
      message: `this rule's \`ref\` is empty; octorules refuses a rule without a non-empty \`ref\` (it matches each rule to the live one by it): name the rule, unique in \`${section.section}\``,
      start: node.start,
      end: node.end,
    });
    return;
  }
  const ref = String(node.value);
  const first = refs.get(ref);
  if (!first) {
    refs.set(ref, { source, node });
    return;
  }
  const inSameFile = first.source === source;
  const where = inSameFile ? '' : ` (first ${placeIn(first.source, first.node.start)})`;
  source.problems.push({
    code: 'duplicate-ref',
    severity: 'error',
    message: `the ref \`${ref}\` is already a rule's in \`${section.section}\`${where}; octorules wants each rule's \`ref\` unique in its section`,
    start: node.start,
    end: node.end,
    ...(inSameFile ? { related: [{ start: first.node.start, end: first.node.end, message: `the first rule with the ref \`${ref}\`` }] } : {}),
  });
}

/**
 * Where a ref was first used, said on a later one in another file: `at shared/waf.yaml:3:7`,
 * or (the later one being in an included file, shown on its `!include`) `on line 3, above`.
 */
function placeIn(source: Source, offset: number): string {
  return source.path === undefined ? `on line ${lineNumber(source.text, offset)}, above` : `at ${source.path}:${linePosition(source.text, offset)}`;
}

/** A string scalar tagged `!include`: the path it names and the characters of tag and path. */
interface Include {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

const INCLUDE_TAG = '!include';

/**
 * The include a node is. The host tree keeps no tags: the library puts a scalar's range after
 * its tag, so the tag is read from the text just before it.
 */
function includeOf(text: string, node: HostNode): Include | undefined {
  if (node.kind !== 'string') return undefined;
  let at = node.start;
  while (at > 0 && (text[at - 1] === ' ' || text[at - 1] === '\t')) at--;
  if (at === node.start) return undefined;
  const start = at - INCLUDE_TAG.length;
  if (start < 0 || text.slice(start, at) !== INCLUDE_TAG) return undefined;
  if (start > 0 && !/[\s:\-[{,]/.test(text[start - 1])) return undefined;
  return { path: String(node.value), start, end: node.end };
}

/**
 * The file an include names, read; undefined (with a problem on the include, unless the
 * document came with no reader) when it cannot be.
 */
function open(reading: Reading, source: Source, include: Include): Source | undefined {
  if (!reading.include) return undefined;
  const report = (code: string, message: string) => {
    source.problems.push({ code, severity: 'error', message, start: include.start, end: include.end });
    return undefined;
  };
  const relative = withinFolder(include.path);
  if (relative === undefined) return report('include-outside', `octorules reads an \`${INCLUDE_TAG}\` only from this file's folder and below; \`${include.path}\` is not there`);
  const folder = source.path === undefined ? '' : source.path.slice(0, source.path.lastIndexOf('/') + 1);
  const path = folder + relative;
  if (source.chain.includes(path)) return report('include-loop', `\`${include.path}\` includes itself (through ${source.chain.map((p) => `\`${p}\``).join(' → ')}); octorules refuses a circular include`);
  if (source.chain.length >= MAX_INCLUDE_DEPTH || reading.reads >= MAX_INCLUDED_FILES) return report('include-too-deep', `\`${include.path}\` is not read: more than ${source.chain.length >= MAX_INCLUDE_DEPTH ? `${MAX_INCLUDE_DEPTH} includes deep` : `${MAX_INCLUDED_FILES} files included`}`);
  reading.reads++;
  const text = reading.include(path);
  if (typeof text !== 'string') return report('include-unreadable', `cannot read \`${include.path}\` (relative to this file), which this \`${INCLUDE_TAG}\` names${text ? `: ${text.unreadable}` : ''}`);
  return { text: text.replace(/^\uFEFF/, ''), path, problems: [], at: source.at ?? { start: include.start, end: include.end }, chain: [...source.chain, path] };
}

/** A relative path with `.` and `..` resolved and `/` between its parts; undefined when it leaves its folder (or is absolute), as octorules refuses. */
function withinFolder(path: string): string | undefined {
  if (path === '' || /^([/\\]|[A-Za-z]:)/.test(path)) return undefined;
  const parts: string[] = [];
  for (const part of path.split(/[/\\]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length > 0 ? parts.join('/') : undefined;
}
