import { formatOfDocument, type HostFormat } from '../../server/src/core';

/** The languages whose documents the server is given; it decides itself which are rulesets. */
export const LANGUAGES = ['json', 'jsonc', 'yaml'] as const;

/**
 * Saved files and new unsaved ones of those languages, and Terraform files: by the `terraform`
 * language of HashiCorp's extension when it is installed, by the `.tf` name when it is not (VS
 * Code then knows no Terraform language). The extension contributes no Terraform language of
 * its own, so that it adds to HashiCorp's support rather than taking the files over.
 */
export const DOCUMENT_SELECTOR = [
  ...LANGUAGES.flatMap((language) => [
    { scheme: 'file', language },
    { scheme: 'untitled', language },
  ]),
  { scheme: 'file', language: 'terraform' },
  { scheme: 'untitled', language: 'terraform' },
  { scheme: 'file', pattern: '**/*.tf' },
  // A `.tfvars` file's values feed the module's rulesets (HashiCorp's extension names its language `terraform-vars`).
  { scheme: 'file', language: 'terraform-vars' },
  { scheme: 'file', pattern: '**/*.tfvars' },
];

/** JSON, YAML or HCL (Terraform), as the language server decides it for the same document. */
export function formatOf(document: { readonly languageId: string; readonly uri: { readonly path: string } }): HostFormat | undefined {
  return formatOfDocument(document.languageId, document.uri.path);
}

/** The format of a ruleset file of the API's shape, which the API commands read and write. */
export type RulesetFileFormat = Exclude<HostFormat, 'hcl'>;

/**
 * JSON or YAML: the ruleset files the API commands (deploy, pull, the rule commands) work on.
 * A Terraform file is undefined here: its rulesets are deployed by Terraform.
 */
export function rulesetFileFormatOf(document: { readonly languageId: string; readonly uri: { readonly path: string } }): RulesetFileFormat | undefined {
  const format = formatOf(document);
  return format === 'hcl' ? undefined : format;
}
