/**
 * The `cloudflare_ruleset` resources of a Terraform file, each as a ruleset (to be built:
 * issue 23's HCL reader).
 */
import type { ParsedDocument } from './parsed-ruleset';

export function readTerraform(text: string): ParsedDocument {
  return { format: 'hcl', layout: 'terraform', text, rulesets: [], problems: [] };
}
