import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { getCurrentUser, getGetCurrentUserQueryKey, logout as logoutCall, useGetCurrentUser } from '../api/gen/auth/auth';
import type { User } from '../api/gen/model';
import { AuthContext, type AuthContextValue, type AuthStatus } from './AuthContext';
import * as storage from './storage';

const currentUserQueryKey = getGetCurrentUserQueryKey();

/**
 * GET /api/auth/me. A failed lookup means the stored session is unusable, so
 * every stored auth item is cleared (spec §4). A request that was merely
 * cancelled (e.g. React unmounting in StrictMode) says nothing about the
 * session and clears nothing.
 */
async function loadCurrentUser({ signal }: { signal: AbortSignal }): Promise<User> {
  try {
    return await getCurrentUser({ signal });
  } catch (error) {
    if (!signal.aborted) storage.clearSession();
    throw error;
  }
}

/**
 * Holds the auth state of spec §4: with a stored access token the state is
 * "loading" until GET /api/auth/me answers, then "authenticated"; without a
 * token, or once the lookup failed, "unauthenticated". The user is server
 * state and lives in React Query's cache; this provider only tracks whether
 * a token is present.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [hasToken, setHasToken] = useState(() => storage.getAccessToken() !== null);

  const me = useGetCurrentUser({
    query: { enabled: hasToken, retry: false, staleTime: 5 * 60 * 1000, queryFn: loadCurrentUser },
  });

  const clearSession = useCallback(() => {
    storage.clearSession();
    setHasToken(false);
  }, []);

  // Forget the cached user once the signed-out state is committed, not
  // before: removing it earlier would refetch it while a sign-out transition
  // (state change plus navigation) is still pending.
  const hadToken = useRef(hasToken);
  useEffect(() => {
    if (hadToken.current && !hasToken) queryClient.removeQueries({ queryKey: currentUserQueryKey });
    hadToken.current = hasToken;
  }, [hasToken, queryClient]);

  const signIn = useCallback<AuthContextValue['signIn']>(
    (session) => {
      storage.setSession(session);
      queryClient.setQueryData(currentUserQueryKey, session.user);
      setHasToken(true);
    },
    [queryClient],
  );

  const logout = useCallback<AuthContextValue['logout']>(
    async (afterSignOut) => {
      const accessToken = storage.getAccessToken();
      storage.clearSession();
      if (accessToken) {
        await logoutCall({ headers: { Authorization: `Bearer ${accessToken}` } });
      }
      // Router navigations are transitions: flipping the state in the same
      // transition as the caller's navigation keeps a protected page from
      // bouncing to /login on the way out.
      startTransition(() => {
        afterSignOut?.();
        clearSession();
      });
    },
    [clearSession],
  );

  // A failed lookup wins over older data: by then the stored session is gone.
  let status: AuthStatus = 'loading';
  if (!hasToken || me.isError) status = 'unauthenticated';
  else if (me.data) status = 'authenticated';

  const user = status === 'authenticated' ? (me.data ?? null) : null;

  const value = useMemo<AuthContextValue>(
    () => ({ status, user, signIn, clearSession, logout }),
    [status, user, signIn, clearSession, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
