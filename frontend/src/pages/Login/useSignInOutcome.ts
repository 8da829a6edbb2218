import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams, type Location } from 'react-router';
import type { LoginResponse } from '../../api/gen/model';
import { useAuth } from '../../auth/AuthContext';
import { describeLoginError, isLockout, type FieldErrors } from './loginErrors';

const REDIRECT_DELAY_MS = 1000;

/** Where a sign-in goes afterwards: the page the user came from, else the dashboard (spec §2 Login). */
export function originOf(state: unknown): string {
  const from = (state as { from?: Partial<Location> } | null)?.from;
  if (!from?.pathname) return '/dashboard';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/**
 * What the three ways in (password, sign-in link, Google's return) share: the success
 * message and its delayed redirect, the banner, field errors and lockout of a failure, and
 * the switch of accounts before a link or code is redeemed.
 */
export interface SignInOutcome {
  success: boolean;
  banner: string | null;
  fieldErrors: FieldErrors;
  lockedOut: boolean;
  /** Signing out whoever was signed in, or redeeming a link or code, is under way. */
  switching: boolean;
  /** Where a sign-in goes afterwards. */
  destination: string;
  succeed: (session: LoginResponse, to?: string) => void;
  fail: (error: unknown) => void;
  /** A new attempt: the last one's banner and field errors go (and its lockout, when asked). */
  clear: (opts?: { lockout: boolean }) => void;
  showBanner: (text: string) => void;
  showFieldErrors: (fields: FieldErrors) => void;
  /**
   * Signs in with a session from redeem (a sign-in link or a code from Google). Whoever is
   * signed in in this browser is signed out first: the user has just said so (SignInChoice).
   */
  continueAs: (redeem: () => Promise<LoginResponse>, to?: string) => Promise<void>;
}

export function useSignInOutcome(): SignInOutcome {
  const { signIn, status, logout } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [success, setSuccess] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [lockedOut, setLockedOut] = useState(false);
  const [switching, setSwitching] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const destination = originOf(location.state);

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  function succeed(session: LoginResponse, to: string = destination) {
    signIn(session);
    setSuccess(true);
    redirectTimer.current = setTimeout(() => navigate(to, { replace: true }), REDIRECT_DELAY_MS);
  }

  function fail(error: unknown) {
    const { banner: text, fields } = describeLoginError(error);
    setBanner(text);
    setFieldErrors(fields);
    setLockedOut(isLockout(error));
  }

  function clear({ lockout }: { lockout: boolean } = { lockout: false }) {
    setBanner(null);
    setFieldErrors({});
    if (lockout) setLockedOut(false);
  }

  async function continueAs(redeem: () => Promise<LoginResponse>, to: string = destination) {
    clear();
    setSwitching(true);
    try {
      if (status !== 'unauthenticated') {
        // Locally the session is gone even when the server cannot be told; go on.
        await logout().catch(() => undefined);
      }
      succeed(await redeem(), to);
    } catch (error) {
      fail(error);
    } finally {
      setSwitching(false);
    }
  }

  return {
    success,
    banner,
    fieldErrors,
    lockedOut,
    switching,
    destination,
    succeed,
    fail,
    clear,
    showBanner: setBanner,
    showFieldErrors: setFieldErrors,
    continueAs,
  };
}

/** Takes a one-time parameter (a code or token) out of the address bar, keeping the page's state. */
export function useDropParam(): (name: string) => void {
  const [, setSearchParams] = useSearchParams();
  const location = useLocation();
  return (name: string) =>
    setSearchParams(
      (params) => {
        params.delete(name);
        return params;
      },
      { replace: true, state: location.state },
    );
}
