import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useExchangeOidcCode } from '../../api/gen/auth/auth';
import { useAuth } from '../../auth/AuthContext';
import { MSG_OIDC_OTHER_TAB, oauthErrorMessage } from './oauthErrors';
import { forgetOidcFlow, peekOidcFlow } from './oidcFlow';
import { originOf, useDropParam, type SignInOutcome } from './useSignInOutcome';

/** A code from Google, with what this tab kept when it began the sign-in (no nonce: it did not). */
interface GoogleSignIn {
  code: string;
  nonce: string | null;
  to: string;
}

/**
 * Back from Google (a full page load, so a fresh page) with a one-time code
 * (/login?oauthCode=…) or a failure (/login?oauthError=…).
 */
export function useOidcReturn(outcome: SignInOutcome) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { status } = useAuth();
  const dropParam = useDropParam();
  const exchange = useExchangeOidcCode();
  const [google] = useState<GoogleSignIn | null>(() => {
    const code = searchParams.get('oauthCode');
    if (!code) return null;
    const flow = peekOidcFlow();
    return { code, nonce: flow.nonce, to: flow.destination ?? originOf(location.state) };
  });
  const [done, setDone] = useState(false);
  const exchanging = useRef(false);

  // The code leaves the address bar, and the tab's nonce serves once. A code this tab did
  // not begin (no nonce) came from somewhere else, such as a link someone sent: it is not
  // even tried (the server would refuse it too).
  useEffect(() => {
    if (!google) return;
    dropParam('oauthCode');
    forgetOidcFlow();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the code the page opened with
  }, [google]);

  function exchangeCode(g: GoogleSignIn) {
    if (exchanging.current || !g.nonce) return;
    exchanging.current = true;
    const browserNonce = g.nonce;
    void outcome
      .continueAs(() => exchange.mutateAsync({ data: { code: g.code, browserNonce } }), g.to)
      .finally(() => setDone(true));
  }
  // Nobody signed in: this tab began the sign-in a moment ago, so the code is exchanged at
  // once. Someone signed in is asked first (awaitingChoice).
  useEffect(() => {
    if (google && !done && status === 'unauthenticated') exchangeCode(google);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once the auth state is known
  }, [google, status]);

  const oauthError = searchParams.get('oauthError');
  const otherTab = google !== null && google.nonce === null;

  return {
    awaitingChoice: !outcome.success && !!google?.nonce && !done && status !== 'unauthenticated',
    /** A code from another tab, or the server's failure code, for the banner. */
    problem: otherTab ? MSG_OIDC_OTHER_TAB : oauthError ? oauthErrorMessage(oauthError) : null,
    pending: exchange.isPending,
    proceed() {
      if (google) exchangeCode(google);
    },
    decline() {
      setDone(true);
      navigate('/dashboard', { replace: true });
    },
  };
}

export type OidcReturn = ReturnType<typeof useOidcReturn>;
