/**
 * What VS Code's own JSON support, the YAML extension and HashiCorp's Terraform extension already
 * report, so that a problem is listed once. The rulesets server checks the host document's syntax too, because other editors
 * may have nothing else that does; in VS Code those diagnostics would be duplicates.
 */
import type { HostFormat } from '../../server/src/core';

/** Which other language support is active, read from VS Code by the extension. */
export interface OtherSupport {
  /** VS Code's JSON language features are enabled and `json.validate.enable` is on. */
  readonly jsonValidates: boolean;
  /** The JSON language features give an outline. */
  readonly jsonSymbols: boolean;
  /** The YAML extension (redhat.vscode-yaml) is installed and `yaml.validate` is on. */
  readonly yamlValidates: boolean;
  /** The YAML extension gives an outline. */
  readonly yamlSymbols: boolean;
  /**
   * HashiCorp's Terraform extension (hashicorp.terraform) is installed with its language server
   * on: terraform-ls reports invalid HCL syntax (since v0.8.0; its docs/validation.md).
   */
  readonly terraformValidates?: boolean;
}

/** Our diagnostic codes that say what a host validator already says. */
const HOST_CODES = {
  json: ['json-syntax', 'duplicate-key'],
  yaml: ['yaml-syntax', 'duplicate-key'],
  hcl: ['hcl-syntax'],
} as const;

/**
 * By the language alone: VS Code's own JSON or YAML support is what reports here. (Not the
 * core's formatOfDocument: this module stays free of the core, as the extension-host tests
 * import it.)
 */
function hostOf(languageId: string): HostFormat | undefined {
  if (languageId === 'json' || languageId === 'jsonc') return 'json';
  if (languageId === 'terraform') return 'hcl';
  return languageId === 'yaml' ? 'yaml' : undefined;
}

/** The codes of our diagnostics to leave out for a document of this language. */
export function codesReportedElsewhere(languageId: string, support: OtherSupport): ReadonlySet<string> {
  const host = hostOf(languageId);
  if (host === 'json' && support.jsonValidates) return new Set(HOST_CODES.json);
  if (host === 'yaml' && support.yamlValidates) return new Set(HOST_CODES.yaml);
  if (host === 'hcl' && support.terraformValidates) return new Set(HOST_CODES.hcl);
  return new Set();
}

/**
 * Whether another extension already outlines documents of this language. A Terraform file's
 * outline from HashiCorp's extension lists blocks, not rules: ours is added beside it.
 */
export function symbolsProvidedElsewhere(languageId: string, support: OtherSupport): boolean {
  const host = hostOf(languageId);
  return host === 'json' ? support.jsonSymbols : host === 'yaml' ? support.yamlSymbols : false;
}

/** A diagnostic's code as VS Code gives it: plain, or with a link to its documentation. */
export function codeOf(diagnostic: { code?: string | number | { value: string | number } }): string | undefined {
  const code = diagnostic.code;
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}
