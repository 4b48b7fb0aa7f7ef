/**
 * "Test a packet" without VS Code: where the code lens goes, how the typed packet is read, and
 * what the verdict says. The extension (packet-commands.ts) only shows these; tests call them
 * directly.
 */
import {
  classifyFile,
  DEFAULT_SETTINGS,
  describeRule,
  evaluateRuleset,
  EvaluationError,
  PacketError,
  parseDocument,
  parsePacket,
  prepareRuleset,
  property,
  RuleEvaluationError,
  RulesetError,
  rulesetAt,
  subjectOfPhase,
  type HostFormat,
  type RuleInfo,
  type Settings,
} from '../../server/src/core';

/**
 * Where the "Test a packet" lenses go: in a ruleset file, one at the top-level `rules` key, else
 * at the start of the file; in a Terraform or octorules file, one at the start of each resource
 * or section of a packet phase. None for a test file, a ruleset of an HTTP phase (its phase, or
 * the settings' default), or a file that is not a ruleset, decided as the language server
 * decides it with the same settings (`rulesets.files`).
 */
export function packetLensOffsets(text: string, format: HostFormat, path: string, settings: Settings = DEFAULT_SETTINGS): number[] {
  const document = parseDocument(text, format);
  const classified = classifyFile(path, { patterns: settings.files, format, root: () => document.rulesets[0]?.root, text: () => text, terraform: settings.terraform?.enable });
  if (classified.role !== 'ruleset') return [];
  // A ruleset of an HTTP phase reads requests: its cases are run from the Test Explorer.
  const packets = document.rulesets.filter((ruleset) => subjectOfPhase(ruleset.phase ?? settings.defaultPhase) !== 'request');
  if (document.layout !== 'api') return packets.flatMap((ruleset) => (ruleset.root ? [ruleset.root.start] : []));
  if (packets.length === 0) return [];
  const rules = property(packets[0].root, 'rules');
  return [rules ? rules.keyStart : 0];
}

/** A packet as typed: JSON text of an object of field values. Throws PacketError. */
export function readPacket(input: unknown): ReturnType<typeof parsePacket> {
  if (typeof input !== 'string') return parsePacket(input);
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch (error) {
    throw new PacketError(`the packet is not JSON (${error instanceof Error ? error.message : String(error)}); write it like {"ip.src": "192.0.2.7", "tcp.dstport": 22}`);
  }
  return parsePacket(parsed);
}

export interface PacketVerdict {
  readonly verdict: 'block' | 'pass';
  /** The deciding rule; undefined when no rule matched. */
  readonly rule?: RuleInfo;
  /** `Blocked by rule 2 (…)`, `Passed: skipped by rule 1 (…)`, `Passed: no rule matched`. */
  readonly message: string;
  /** The note after the deciding rule's line, and the offset of that rule in the file. */
  readonly note?: { readonly offset: number; readonly text: string };
}

export interface PacketFailure {
  readonly error: string;
  /** What failed: the packet as typed, or the ruleset (or a rule of it) on this packet. */
  readonly cause: 'packet' | 'ruleset';
  /** Offsets in the file of the rule or place at fault, for a ruleset failure. */
  readonly start?: number;
  readonly end?: number;
}

/**
 * The verdict of the ruleset in `text` on the packet; a failure says why there is none. The
 * expressions are read with the settings the language server checks them with (its default
 * phase, its known lists), so that the lens and the diagnostics never disagree.
 */
export function testPacket(text: string, format: HostFormat, packetInput: unknown, settings: Settings = DEFAULT_SETTINGS, offset = 0): PacketVerdict | PacketFailure {
  let packet;
  try {
    packet = readPacket(packetInput);
  } catch (error) {
    if (error instanceof PacketError) return { cause: 'packet', error: error.message };
    throw error;
  }
  try {
    // The packet's own `$lists` are all the lists there are here.
    const options = { defaultPhase: settings.defaultPhase, knownLists: settings.knownLists.length > 0 ? settings.knownLists : undefined };
    // The resource or section at `offset`, where the lens stands, in a file of several.
    const document = parseDocument(text, format);
    const ruleset = rulesetAt(document, offset) ?? document.rulesets[0];
    if (!ruleset) return { cause: 'ruleset', error: 'the file has no ruleset in it' };
    const result = evaluateRuleset(prepareRuleset(ruleset, options), packet);
    return verdictOf(result.verdict, result.rule);
  } catch (error) {
    if (error instanceof RulesetError) return { cause: 'ruleset', error: error.message, start: error.start, end: error.end };
    if (error instanceof RuleEvaluationError) return { cause: 'ruleset', error: error.message, start: error.rule.start, end: error.rule.end };
    if (error instanceof EvaluationError) return { cause: 'ruleset', error: error.message };
    throw error;
  }
}

export function verdictOf(verdict: 'block' | 'pass', rule: RuleInfo | undefined): PacketVerdict {
  if (!rule) return { verdict, message: 'Passed: no rule matched' };
  if (verdict === 'block') return { verdict, rule, message: `Blocked by rule ${describeRule(rule)}`, note: { offset: rule.start, text: '← blocks this packet' } };
  return { verdict, rule, message: `Passed: skipped by rule ${describeRule(rule)}`, note: { offset: rule.start, text: '← passes: skipped from here' } };
}

export function isFailure(result: PacketVerdict | PacketFailure): result is PacketFailure {
  return 'error' in result;
}

/** The recent packets, newest first, without repeats, at most `max`. */
export function rememberPacket(recent: readonly string[], packet: string, max = 10): string[] {
  const normal = normalPacketText(packet);
  return [normal, ...recent.filter((p) => p !== normal)].slice(0, max);
}

/** `{"tcp.dstport":22}` → `{"tcp.dstport": 22}`: one spelling per packet, for the recent list. */
export function normalPacketText(packet: string): string {
  try {
    const value: unknown = JSON.parse(packet);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return `{${Object.entries(value).map(([key, v]) => `${JSON.stringify(key)}: ${JSON.stringify(v)}`).join(', ')}}`;
    }
  } catch {
    // Kept as typed.
  }
  return packet.trim();
}
