/**
 * Cross-site request forgery checks for the web pages' forms. Two layers, because either alone
 * has gaps: the request must come from this site (Sec-Fetch-Site or Origin, which browsers set
 * on cross-site POSTs and scripts cannot forge), and the form must carry the token the server
 * gave it (the session's, or before sign-in the one in the sign-in cookie).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A new unguessable token: 32 random bytes, base64url (43 characters). */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether the form's token is the expected one, compared in constant time. */
export function csrfTokenMatches(expected: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || expected.length === 0) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether a form post comes from this site's own pages, by the headers browsers set: a
 * Sec-Fetch-Site other than same-origin (or none, for a typed URL) is refused; without it, an
 * Origin that is not this site's is refused. A request with neither (an old browser, a script
 * outside a browser) is left to the token, which it cannot have without reading our page.
 */
export function comesFromThisSite(headers: {
  secFetchSite: string | undefined;
  origin: string | undefined;
  ownOrigin: string;
}): boolean {
  const site = headers.secFetchSite?.toLowerCase();
  if (site !== undefined && site !== '') return site === 'same-origin' || site === 'none';
  const origin = headers.origin;
  if (origin === undefined || origin === '') return true;
  return origin === headers.ownOrigin;
}
