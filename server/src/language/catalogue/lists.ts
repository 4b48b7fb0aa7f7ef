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

/** `svc.anonymizer`, `my_list`: lowercase parts separated by single dots (LANGUAGE.md §2). */
export function isWellFormedListName(name: string): boolean {
  return /^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(name);
}
