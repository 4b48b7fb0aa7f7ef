/**
 * A file as the rulesets in it: one for a ruleset file of its own (JSON or YAML in the API's
 * shape), one per `cloudflare_ruleset` resource in a Terraform file, one per section in an
 * octorules rules file. Every check and feature works on the rulesets; this module only says
 * which there are and where.
 */
import { parseHost, type HostFormat } from './host/index';
import { readOctorules, readsAsOctorules, type IncludeReader } from './octorules';
import { rulesetOfHost, type ParsedDocument, type ParsedRuleset } from './parsed-ruleset';

export type { ParsedDocument } from './parsed-ruleset';
import type { ModuleVersionInputs } from './provider-version';
import { readTerraform } from './terraform';
import type { TerraformModule } from './terraform-module';

export interface ParseDocumentOptions {
  /** Reads a file an octorules `!include` names, relative to the document; undefined when it cannot be read. */
  readonly include?: IncludeReader;
  /**
   * A Terraform file's module: its other `.tf` files and its lock file, which may say the
   * provider's version. Without it, the lock file is read through `include` where there is one.
   */
  readonly providerVersionInputs?: ModuleVersionInputs;
  /** A Terraform file's module: its path and how to read the other files of its folder. */
  readonly module?: TerraformModule;
}

const LOCK_FILE = '.terraform.lock.hcl';

export function parseDocument(text: string, format: HostFormat, options: ParseDocumentOptions = {}): ParsedDocument {
  if (format === 'hcl') {
    const lockFile = options.providerVersionInputs ? undefined : options.include?.(LOCK_FILE);
    return readTerraform(text, options.providerVersionInputs ?? (typeof lockFile === 'string' ? { lockFile } : {}), options.module);
  }
  const host = parseHost(text, format);
  if (format === 'yaml' && readsAsOctorules(host.root)) return readOctorules(text, host, options.include);
  return { format, layout: 'api', text, rulesets: [rulesetOfHost(text, host)], problems: [] };
}

/**
 * The ruleset whose resource or section holds the offset: the innermost root that spans it.
 * A ruleset file's one ruleset holds every offset.
 */
export function rulesetAt(document: ParsedDocument, offset: number): ParsedRuleset | undefined {
  if (document.layout === 'api') return document.rulesets[0];
  // Terraform: a local's or a variable's string that the module's resources use is its ruleset's, first.
  for (const ruleset of document.rulesets) if (ruleset.usedBy && ruleset.sites.some((s) => offset >= s.node.start && offset <= s.node.end)) return ruleset;
  return document.rulesets.find((r) => r.root !== undefined && offset >= r.root.start && offset <= r.root.end);
}
