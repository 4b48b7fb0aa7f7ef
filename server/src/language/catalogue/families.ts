import type { PhaseFamily } from './entries';

/**
 * The phases that read packets (the engine's `magic_firewall` scheme, LANGUAGE.md §5): they share
 * one field table. Every other phase of the HTTP family (ddos_l7 and the `http_*` phases) reads
 * requests (the engine's default scheme).
 */
export const MAGIC_PHASES: readonly string[] = ['magic_transit', 'magic_transit_managed', 'magic_transit_ids_managed', 'magic_transit_ratelimit', 'ddos_l4'];

/**
 * The family of a phase: which field table it has. `http_*` by its prefix, so that an HTTP phase
 * newer than our list still gets the HTTP fields; undefined for a phase of neither kind.
 */
export function phaseFamily(phase: string | undefined): PhaseFamily | undefined {
  if (phase === undefined) return undefined;
  if (MAGIC_PHASES.includes(phase)) return 'magic';
  if (phase === 'ddos_l7' || phase.startsWith('http_')) return 'http';
  return undefined;
}
