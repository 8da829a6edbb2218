/**
 * The message of each code the server's sign-in callback sends back as
 * /login?oauthError=<code> (account.OIDCFailure in the server, listed in the contract; a Go
 * test, TestOAuthErrorCodesHaveMessages, holds the two lists equal). The page shows only these
 * fixed texts: whatever else the parameter says is never shown (issue 33, item 9), since
 * anyone can send a link that puts words of their choosing on our page.
 */
const MESSAGES = {
  unavailable: 'Sign-in with Google is not available on this server.',
  failed: 'Sign-in with Google failed. Please try again.',
  cancelled: 'Sign-in with Google was cancelled.',
  email_unverified: "Your Google account's email address is not verified, so we can't sign you in with it.",
  no_email: "Your Google account did not share an email address, so we can't sign you in with it.",
} as const;

type OAuthErrorCode = keyof typeof MESSAGES;

/** A code this browser tab did not begin (no nonce for it): nothing to exchange. */
export const MSG_OIDC_OTHER_TAB = 'This sign-in was started in another browser or tab. Please sign in with Google again.';

/** The fixed message of an oauthError code; any unknown value gets the generic one. */
export function oauthErrorMessage(code: string): string {
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code as OAuthErrorCode] : MESSAGES.failed;
}
