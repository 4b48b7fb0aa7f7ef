/**
 * Names completion offers where the catalogue has none: request header names after
 * `http.request.headers["`, and request methods after `http.request.method ==`.
 *
 * Only what a specification defines, each name with the section that defines it, so that a
 * name can be checked and none is guessed. Header names are lowercase, as the service gives
 * them as map keys (the catalogue's `keys: 'lowercase'`). Query arguments, cookies, form
 * fields and response headers get no key names: no source says which ones a site has.
 *
 * Sources (the published specifications; their text is not copied here):
 * - RFC 9110, HTTP Semantics (June 2022): the request header fields it defines (§7.2, §7.6.2,
 *   §10.1 "Request Context Fields", §11.6.2, §11.7.2, §12.5 "Content Negotiation Fields",
 *   §13.1 "Preconditions", §14.2) and the two content fields a request with content carries
 *   (§8.3, §8.6); its methods (§9.3).
 * - RFC 6265, HTTP State Management Mechanism, §5.4: the Cookie header a user agent sends.
 * - RFC 6454, The Web Origin Concept, §7: the Origin header.
 * - RFC 7239, Forwarded HTTP Extension, §4: the Forwarded header.
 * - W3C Fetch Metadata Request Headers (Working Draft), §2.1–2.4: the Sec-Fetch-* headers.
 * - RFC 5789, PATCH Method for HTTP, §2: the PATCH method.
 */

export interface NamedBySpec {
  readonly name: string;
  /** Where it is defined: `RFC 9110 §12.5.1`. */
  readonly source: string;
}

const rfc9110 = (section: string) => `RFC 9110 §${section}`;

/** Request header names, lowercase, in the order of their sources. */
export const REQUEST_HEADER_NAMES: readonly NamedBySpec[] = [
  { name: 'host', source: rfc9110('7.2') },
  { name: 'max-forwards', source: rfc9110('7.6.2') },
  { name: 'content-type', source: rfc9110('8.3') },
  { name: 'content-length', source: rfc9110('8.6') },
  { name: 'expect', source: rfc9110('10.1.1') },
  { name: 'from', source: rfc9110('10.1.2') },
  { name: 'referer', source: rfc9110('10.1.3') },
  { name: 'te', source: rfc9110('10.1.4') },
  { name: 'user-agent', source: rfc9110('10.1.5') },
  { name: 'authorization', source: rfc9110('11.6.2') },
  { name: 'proxy-authorization', source: rfc9110('11.7.2') },
  { name: 'accept', source: rfc9110('12.5.1') },
  { name: 'accept-charset', source: rfc9110('12.5.2') },
  { name: 'accept-encoding', source: rfc9110('12.5.3') },
  { name: 'accept-language', source: rfc9110('12.5.4') },
  { name: 'if-match', source: rfc9110('13.1.1') },
  { name: 'if-none-match', source: rfc9110('13.1.2') },
  { name: 'if-modified-since', source: rfc9110('13.1.3') },
  { name: 'if-unmodified-since', source: rfc9110('13.1.4') },
  { name: 'if-range', source: rfc9110('13.1.5') },
  { name: 'range', source: rfc9110('14.2') },
  { name: 'cookie', source: 'RFC 6265 §5.4' },
  { name: 'origin', source: 'RFC 6454 §7' },
  { name: 'forwarded', source: 'RFC 7239 §4' },
  { name: 'sec-fetch-dest', source: 'W3C Fetch Metadata §2.1' },
  { name: 'sec-fetch-mode', source: 'W3C Fetch Metadata §2.2' },
  { name: 'sec-fetch-site', source: 'W3C Fetch Metadata §2.3' },
  { name: 'sec-fetch-user', source: 'W3C Fetch Metadata §2.4' },
];

/** The request methods, in capitals as the service gives them (`http.request.method`). */
export const HTTP_METHODS: readonly NamedBySpec[] = [
  ...['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE'].map((name, i) => ({ name, source: rfc9110(`9.3.${i + 1}`) })),
  { name: 'PATCH', source: 'RFC 5789 §2' },
];

/** The maps whose keys are request header names. */
export const REQUEST_HEADER_MAPS: ReadonlySet<string> = new Set(['http.request.headers']);
