/**
 * The `cloudflare_ruleset` resources of a Terraform file, each as a ruleset (to be built:
 * issue 23's HCL reader).
 */
import type { ParsedDocument } from './parsed-document';

export function readTerraform(text: string): ParsedDocument {
  return { format: 'hcl', layout: 'terraform', text, rulesets: [], problems: [] };
}

/**
 * STUB until the HCL reader lands (branch hcl: documents/hcl-parser.ts): loads the Terraform
 * parser (WebAssembly), which readTerraform needs; once per process.
 */
export function loadTerraformParser(): Promise<void> {
  return Promise.resolve();
}
