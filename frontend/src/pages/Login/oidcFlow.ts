/**
 * What a sign-in with Google keeps in the tab while the page is away at the provider, in
 * sessionStorage (this tab only, and no other site or link can write it):
 * - where to go afterwards;
 * - the browser nonce. The server stores the one-time code it hands back under the nonce, and
 *   exchanges it only with the same nonce, so a code made in someone else's browser (sent as a
 *   link /login?oauthCode=…) cannot sign this tab in to their account (issue 33, item 2).
 */

/** The server's start path of third-party sign-in (spec §7: on the server root). */
export const OIDC_START_PATH = '/oauth2/authorization/google';

const AFTER_OIDC_KEY = 'percolate-after-sign-in';
const NONCE_KEY = 'percolate-oidc-nonce';

function newNonce(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * Starts a sign-in in this tab: remembers the destination and a fresh nonce, and returns the
 * address of the server's start path, which carries the nonce. Null when the tab cannot keep
 * them (storage disabled): the code could not be exchanged anyway.
 */
export function beginOidcFlow(destination: string): string | null {
  const nonce = newNonce();
  try {
    window.sessionStorage.setItem(AFTER_OIDC_KEY, destination);
    window.sessionStorage.setItem(NONCE_KEY, nonce);
  } catch {
    return null;
  }
  return `${OIDC_START_PATH}?browserNonce=${encodeURIComponent(nonce)}`;
}

/** What a sign-in that this tab began left behind. */
export interface OidcFlow {
  /** The tab's nonce, or null when this tab did not begin a sign-in. */
  nonce: string | null;
  /** A path of this site to go to afterwards, or null. */
  destination: string | null;
}

/** Reads what this tab kept (reading twice gives the same answer, as StrictMode renders do). */
export function peekOidcFlow(): OidcFlow {
  try {
    const to = window.sessionStorage.getItem(AFTER_OIDC_KEY);
    const nonce = window.sessionStorage.getItem(NONCE_KEY);
    // Only a path of this site: never another origin.
    const destination = to && to.startsWith('/') && !to.startsWith('//') ? to : null;
    return { nonce: nonce || null, destination };
  } catch {
    return { nonce: null, destination: null };
  }
}

/** Forgets the sign-in this tab began, once its code has come back: a nonce serves once. */
export function forgetOidcFlow(): void {
  try {
    window.sessionStorage.removeItem(AFTER_OIDC_KEY);
    window.sessionStorage.removeItem(NONCE_KEY);
  } catch {
    // Nothing was kept.
  }
}
