import { useNavigate, useSearchParams } from 'react-router';
import { useLookUpLoginLink, useRedeemLoginLink } from '../../api/gen/auth/auth';
import { useAuth } from '../../auth/AuthContext';
import { describeLoginError } from './loginErrors';
import { useDropParam, type SignInOutcome } from './useSignInOutcome';

/**
 * Arriving with a sign-in link (/login?loginToken=…): nothing is redeemed on load. The page
 * names the link's account (masked) and signs in only on a click, after asking anyone signed
 * in (issue 33, item 2). The token leaves the address bar once it is used (or refused).
 */
export function useLinkSignIn(outcome: SignInOutcome) {
  const [searchParams] = useSearchParams();
  const { status } = useAuth();
  const navigate = useNavigate();
  const dropParam = useDropParam();
  const redeem = useRedeemLoginLink();
  const token = outcome.success ? null : searchParams.get('loginToken');
  const account = useLookUpLoginLink(
    { token: token ?? '' },
    { query: { enabled: !!token, retry: false, staleTime: Infinity } },
  );
  const problem = token && account.error ? describeLoginError(account.error).banner : null;

  return {
    /** The link waits for the user's choice in place of the form. */
    awaitingChoice: !outcome.success && !!token && !problem,
    /** Why the link cannot sign in (expired, used), for the banner. */
    problem,
    /** The link's account as the page may name it, once looked up. */
    maskedEmail: account.data?.maskedEmail ?? null,
    pending: redeem.isPending,
    proceed() {
      if (!token) return;
      void outcome.continueAs(() => redeem.mutateAsync({ data: { token } })).finally(() => dropParam('loginToken'));
    },
    decline() {
      if (status === 'authenticated') navigate('/dashboard', { replace: true });
      else dropParam('loginToken');
    },
  };
}

export type LinkSignIn = ReturnType<typeof useLinkSignIn>;
