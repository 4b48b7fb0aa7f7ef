import type { ScalarType } from '../ast';
import type { PhaseFamily } from './entries';

/** Managed IP lists that every account has (LANGUAGE.md §6). */
export interface ManagedList {
  readonly name: string;
  readonly doc: string;
}

export const MANAGED_LISTS: ReadonlyMap<string, ManagedList> = new Map(
  [
    { name: 'svc.anonymizer', doc: 'Anonymizer proxies: open SOCKS proxies, VPNs and TOR nodes.' },
    { name: 'svc.botnetcc', doc: 'Botnet command-and-control channels.' },
    { name: 'svc.malware', doc: 'Sources of malware.' },
    { name: 'svc.open_proxies', doc: 'Open HTTP and SOCKS proxy endpoints.' },
    { name: 'svc.vpn', doc: 'VPN servers.' },
  ].map((list) => [list.name, list]),
);

export const MANAGED_LIST_NAMESPACE = 'svc';

/**
 * The managed IP lists of the HTTP phases, named `cf.…` there (developers.cloudflare.com
 * waf/tools/lists/managed-lists: the same five lists as the packet phases' `svc.…`).
 */
export const HTTP_MANAGED_LISTS: ReadonlyMap<string, ManagedList> = new Map(
  [...MANAGED_LISTS.values()].map((list) => {
    const name = `cf.${list.name.slice(`${MANAGED_LIST_NAMESPACE}.`.length)}`;
    return [name, { name, doc: list.doc }];
  }),
);

export const HTTP_MANAGED_LIST_NAMESPACE = 'cf';

/** The managed lists of a family's phases, and their namespace. */
export function managedListsOf(family: PhaseFamily | undefined): { readonly namespace: string; readonly lists: ReadonlyMap<string, ManagedList> } {
  return family === 'http' ? { namespace: HTTP_MANAGED_LIST_NAMESPACE, lists: HTTP_MANAGED_LISTS } : { namespace: MANAGED_LIST_NAMESPACE, lists: MANAGED_LISTS };
}

/** `svc.anonymizer`, `my_list`: lowercase parts separated by single dots (LANGUAGE.md §2). */
export function isWellFormedListName(name: string): boolean {
  return /^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(name);
}

/**
 * What the items of an account's list are (LANGUAGE.md §6; the Lists API's `kind`). The
 * service's custom lists (developers.cloudflare.com waf/tools/lists/custom-lists): IP lists
 * for the fields of type IP address, hostname lists for `http.host`, ASN lists for
 * `ip.src.asnum`; redirect lists hold the source URLs of Bulk Redirects, matched with
 * `http.request.full_uri` in `http_request_redirect` rules.
 */
export type ListKind = 'ip' | 'asn' | 'hostname' | 'redirect';

export const LIST_KINDS: readonly ListKind[] = ['ip', 'asn', 'hostname', 'redirect'];

export interface ListKindInfo {
  readonly kind: ListKind;
  /** How messages name it: `an IP list`. */
  readonly label: string;
  /** The type of the values it holds. */
  readonly type: ScalarType;
  /** The fields it is made for; every field of its type when undefined. */
  readonly fields?: readonly string[];
}

export const LIST_KIND_INFO: Readonly<Record<ListKind, ListKindInfo>> = {
  ip: { kind: 'ip', label: 'an IP list', type: 'Ip' },
  asn: { kind: 'asn', label: 'an ASN list', type: 'Integer', fields: ['ip.src.asnum', 'ip.geoip.asnum'] },
  hostname: { kind: 'hostname', label: 'a hostname list', type: 'Bytes', fields: ['http.host'] },
  redirect: { kind: 'redirect', label: 'a redirect list', type: 'Bytes', fields: ['http.request.full_uri', 'raw.http.request.full_uri'] },
};

export function isListKind(value: string): value is ListKind {
  return (LIST_KINDS as readonly string[]).includes(value);
}
