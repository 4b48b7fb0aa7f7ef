/**
 * A file as the rulesets in it: one for a ruleset file of its own (JSON or YAML in the API's
 * shape), one per `cloudflare_ruleset` resource in a Terraform file, one per section in an
 * octorules rules file. Every check and feature works on the rulesets; this module only says
 * which there are and where.
 */
import { parseHost, type HostFormat, type HostNode } from './host';
import { isOctorulesDocument, readOctorules, type IncludedFile, type IncludeReader } from './octorules';
import { rulesetOfHost, type DocumentProblem, type ParsedRuleset, type RulesetLayout } from './parsed-ruleset';
import { readTerraform } from './terraform';

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
  /**
   * octorules: the files its `!include`s read, each with the rules it adds to a section. Their
   * offsets are in their own text; checkDocument shows their problems on the `!include`.
   */
  readonly included?: readonly IncludedFile[];
  /** octorules: the file's whole tree, where its disable directives are read (once for all its rulesets). */
  readonly root?: HostNode;
}

export interface ParseDocumentOptions {
  /** Reads a file an octorules `!include` names, relative to the document; undefined when it cannot be read. */
  readonly include?: IncludeReader;
}

export function parseDocument(text: string, format: HostFormat, options: ParseDocumentOptions = {}): ParsedDocument {
  if (format === 'hcl') return readTerraform(text);
  const host = parseHost(text, format);
  if (format === 'yaml' && isOctorulesDocument(host.root)) return readOctorules(text, host, options.include);
  return { format, layout: 'api', text, rulesets: [rulesetOfHost(text, host)], problems: [] };
}

/**
 * The ruleset whose resource or section holds the offset: the innermost root that spans it.
 * A ruleset file's one ruleset holds every offset.
 */
export function rulesetAt(document: ParsedDocument, offset: number): ParsedRuleset | undefined {
  if (document.layout === 'api') return document.rulesets[0];
  return document.rulesets.find((r) => r.root !== undefined && offset >= r.root.start && offset <= r.root.end);
}
