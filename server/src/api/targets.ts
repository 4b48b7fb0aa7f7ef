import type { Scope } from './client';
import type { Addon, Plan } from '../language/catalogue/plans';
/** Where a set of ruleset files goes: one account or zone. */
export interface Target {
  readonly scope: Scope;             // { kind: 'account' | 'zone', id }
  readonly label: string;            // as the user wrote it: the zone's name or the id
  readonly files: readonly string[]; // absolute paths of the files (JSON/YAML rulesets, octorules files, .tf files) that go there
  readonly plan?: Plan;
  readonly addons?: readonly Addon[];
}
