import type { QueryClient } from '@tanstack/react-query';
import { startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { lazyNow } from '../app/lazyNow';
import { QueryLayer, QueryScope } from '../app/QueryScope';
import { AuthContext, currentUserQueryKey, type AuthContextValue, type AuthStatus } from './AuthContext';
import type { CurrentUserResult } from './CurrentUser';
import type { User } from '../api/gen/model';
import * as storage from './storage';

const CurrentUser = lazyNow(() => import('./CurrentUser'));

const noLookup: CurrentUserResult = { failed: false };

/** Who is signed in, offline, when no user was stored at sign-in. */
const unknownUser: User = { id: '', email: '', name: '', role: 'USER', isStudent: false };

/**
 * Holds the auth state of spec §4: with a stored access token the state is
 * "loading" until GET /api/auth/me answers, then "authenticated"; without a
 * token, or once the lookup failed, "unauthenticated". The user is server
 * state and lives in React Query's cache, watched by <CurrentUser> while a
 * token is present; this provider tracks the token and what that lookup said.
 *
 * The cache and the API client are loaded with <CurrentUser>, only once there
 * is a token: a signed-out visit to a static page downloads neither.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [hasToken, setHasToken] = useState(() => storage.getAccessToken() !== null);
  const [me, setMe] = useState<CurrentUserResult>(noLookup);
  // <CurrentUser> and the cache are rendered once their code is in, so that they never suspend:
  // after a fallback React holds the next reveal back for 300 ms (see lazyNow), and the screen,
  // which waits for the lookup, would wait that long too. A failed load renders them anyway,
  // and their lazy import reports it as before.
  const [lookupLoaded, setLookupLoaded] = useState(false);
  useEffect(() => {
    if (!hasToken) return;
    const done = () => setLookupLoaded(true);
    Promise.all([QueryLayer.preload(), CurrentUser.preload()]).then(done, done);
  }, [hasToken]);

  // The cache <CurrentUser> works with, once it has been loaded.
  const queryClient = useRef<QueryClient | null>(null);
  const setQueryClient = useCallback((client: QueryClient) => {
    queryClient.current = client;
  }, []);

  const clearSession = useCallback(() => {
    storage.clearSession();
    setHasToken(false);
    setMe(noLookup);
  }, []);

  // Forget the cached user once the signed-out state is committed, not
  // before: removing it earlier would refetch it while a sign-out transition
  // (state change plus navigation) is still pending.
  const hadToken = useRef(hasToken);
  useEffect(() => {
    if (hadToken.current && !hasToken) queryClient.current?.removeQueries({ queryKey: currentUserQueryKey });
    hadToken.current = hasToken;
  }, [hasToken]);

  const signIn = useCallback<AuthContextValue['signIn']>(
    (session) => {
      storage.setSession(session);
      // Before <CurrentUser> has loaded, it starts from me.user instead.
      queryClient.current?.setQueryData(currentUserQueryKey, session.user);
      setMe({ user: session.user, failed: false });
      setHasToken(true);
    },
    [],
  );

  const logout = useCallback<AuthContextValue['logout']>(
    async (afterSignOut) => {
      const accessToken = storage.getAccessToken();
      storage.clearSession();
      if (accessToken) {
        const { logout: logoutCall } = await import('../api/gen/auth/auth');
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

  // A failed lookup wins over older data: by then the stored session is gone. A lookup that
  // cannot reach the server (no network) shows the signed-in pages offline, as the user stored
  // at sign-in, while it keeps trying.
  let status: AuthStatus = 'loading';
  if (!hasToken || me.failed) status = 'unauthenticated';
  else if (me.user || me.offline) status = 'authenticated';
  const offline = status === 'authenticated' && !me.user;

  const storedUser = useMemo(() => (offline ? (storage.getUser() ?? unknownUser) : null), [offline]);
  const user = status === 'authenticated' ? (me.user ?? storedUser) : null;

  const value = useMemo<AuthContextValue>(
    () => ({ status, user, offline, signIn, clearSession, logout }),
    [status, user, offline, signIn, clearSession, logout],
  );

  return (
    <AuthContext.Provider value={value}>
      {hasToken && lookupLoaded && (
        <Suspense fallback={null}>
          <QueryScope>
            <CurrentUser initialUser={me.user} onChange={setMe} onQueryClient={setQueryClient} />
          </QueryScope>
        </Suspense>
      )}
      {children}
    </AuthContext.Provider>
  );
}
