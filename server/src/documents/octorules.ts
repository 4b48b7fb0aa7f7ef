/**
 * The sections of an octorules rules file, each as the ruleset of its phase (to be built:
 * issue 23's octorules reader).
 */
import type { HostDocument, HostNode } from './host';
import type { ParsedDocument } from './parsed-ruleset';

/** The text of a file an `!include` names, by its path relative to the including file; undefined when it cannot be read. */
export type IncludeReader = (relativePath: string) => string | undefined;

/** Whether a YAML document's top level is an octorules rules file. */
export function isOctorulesDocument(_root: HostNode | undefined): boolean {
  return false;
}

export function readOctorules(text: string, host: HostDocument, _include?: IncludeReader): ParsedDocument {
  return { format: host.format, layout: 'octorules', text, rulesets: [], problems: [] };
}
