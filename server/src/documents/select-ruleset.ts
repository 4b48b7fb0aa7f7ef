/**
 * The one ruleset of a file that a command works on (a deploy, the cases of a test file): a
 * ruleset file's own, or the Terraform resource or octorules section that is named, or the
 * file's only one. `rulesets deploy --resource/--section` and a test file's `resource:` or
 * `section:` name it the same way.
 */
import type { ParsedDocument } from './parsed-document';
import type { ParsedRuleset } from './parsed-ruleset';

/** How a ruleset is named among the others of its file. */
export interface RulesetChoice {
  /** A Terraform resource: `cloudflare_ruleset.waf`, or `waf`. */
  readonly resource?: string;
  /** An octorules section: `waf_custom_rules`. */
  readonly section?: string;
}

const TERRAFORM_TYPE = 'cloudflare_ruleset.';

/**
 * The ruleset chosen, or what is wrong, in words that `naming` completes: how the caller's
 * user names one (`--resource NAME`, `resource: NAME`), given the key (`resource`, `section`).
 */
export function selectRuleset(document: ParsedDocument, choice: RulesetChoice, naming: (key: 'resource' | 'section') => string): ParsedRuleset | { readonly problem: string } {
  const key = document.layout === 'terraform' ? 'resource' : 'section';
  if (document.layout === 'api') {
    const given = choice.resource !== undefined ? naming('resource') : choice.section !== undefined ? naming('section') : undefined;
    if (given) return { problem: `${given} names a ruleset of a Terraform or octorules file; this file is one ruleset` };
    return document.rulesets[0];
  }
  const other = key === 'resource' ? choice.section : choice.resource;
  if (other !== undefined) {
    return { problem: `${naming(key === 'resource' ? 'section' : 'resource')} names ${key === 'resource' ? 'an octorules section' : 'a Terraform resource'}; this is ${key === 'resource' ? 'a Terraform' : 'an octorules'} file: name one of its rulesets with ${naming(key)}` };
  }
  // A `cloudflare_filter` is read as a ruleset to check its expression: no command deploys or tests it.
  const rulesets = document.rulesets.filter((r) => !r.legacyFilter);
  const labels = rulesets.map((r) => r.label ?? '?');
  const what = key === 'resource' ? '`cloudflare_ruleset` resource' : 'rules section';
  const whats = key === 'resource' ? '`cloudflare_ruleset` resources' : 'rules sections';
  const wanted = choice[key];
  if (wanted !== undefined) {
    const found = rulesets.find((r) => r.label === wanted || (key === 'resource' && r.label === TERRAFORM_TYPE + wanted));
    if (found) return found;
    return { problem: `no ${what} ${JSON.stringify(wanted)} in the file${labels.length > 0 ? `; it has ${labels.join(', ')}` : ''}` };
  }
  if (rulesets.length === 1) return rulesets[0];
  if (rulesets.length === 0) return { problem: `no ${what} in the file` };
  return { problem: `the file has ${rulesets.length} ${whats} (${labels.join(', ')}): name one with ${naming(key)}` };
}
