/**
 * The addresses of the read-only documents that show a ruleset version from the service
 * (scheme `rulesets-version`): which scope, ruleset and version, in which format, and the local
 * file to compare it with. Plain strings in and out, so the round trip is tested without VS Code.
 *
 *   rulesets-version:/account/0123…cdef/<ruleset id>/v7/Allow SSH only.ruleset.yaml?local=file%3A…
 */
import type { HostFormat } from '../../../server/src/core';
import type { Scope } from './scope';

export const VERSION_SCHEME = 'rulesets-version';

export interface VersionRef {
  readonly scope: Scope;
  readonly rulesetId: string;
  readonly version: string;
  /** The ruleset's name: the document's file name says it, so that the tab says what it is. */
  readonly name: string;
  readonly format: HostFormat;
  /** Only the rules with this tag (a managed ruleset's `by_tag`). */
  readonly tag?: string;
  /** The local file (a URI string) this version is compared with, if any. */
  readonly local?: string;
  /** Set for a text the extension already holds (the live side of a deploy's diff). */
  readonly snapshot?: string;
}

/** `Allow SSH only v7.ruleset.yaml`, `Managed v3 tag wordpress.ruleset.json`: a name any system takes. */
function fileName(ref: VersionRef): string {
  const safe = (text: string) => text.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim();
  const base = safe(ref.name) || 'ruleset';
  const tag = ref.tag ? ` tag ${safe(ref.tag)}` : '';
  return `${base} v${ref.version}${tag}.ruleset.${ref.format === 'json' ? 'json' : 'yaml'}`;
}

/** The path and query of a version's document. */
export function versionAddress(ref: VersionRef): { path: string; query: string } {
  const path = `/${ref.scope.kind}/${ref.scope.id}/${ref.rulesetId}/v${ref.version}/${fileName(ref)}`;
  const query = new URLSearchParams();
  query.set('name', ref.name);
  if (ref.tag) query.set('tag', ref.tag);
  if (ref.local) query.set('local', ref.local);
  if (ref.snapshot) query.set('snapshot', ref.snapshot);
  return { path, query: query.toString() };
}

/** The version a document's path and query name; undefined for anything else. */
export function parseVersionAddress(path: string, query: string): VersionRef | undefined {
  const m = /^\/(account|zone)\/([^/]+)\/([^/]+)\/v([^/]+)\/[^/]+\.ruleset\.(json|yaml)$/.exec(path);
  if (!m) return undefined;
  const [, kind, targetId, rulesetId, version, extension] = m;
  const params = new URLSearchParams(query);
  const optional = (key: 'tag' | 'local' | 'snapshot') => {
    const value = params.get(key);
    return value ? { [key]: value } : {};
  };
  return {
    scope: { kind: kind as Scope['kind'], id: targetId },
    rulesetId,
    version,
    name: params.get('name') ?? rulesetId,
    format: extension as HostFormat,
    ...optional('tag'),
    ...optional('local'),
    ...optional('snapshot'),
  };
}
