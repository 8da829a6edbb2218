import { createContext, useContext } from 'react';
import type { LoginResponse, User } from '../api/gen/model';

export type AuthStatus = 'unauthenticated' | 'loading' | 'authenticated';

export interface AuthContextValue {
  status: AuthStatus;
  /**
   * The signed-in user, from GET /api/auth/me; null unless authenticated. While offline, the
   * user stored at sign-in (or, without one, a user with empty fields).
   */
  user: User | null;
  /**
   * A token is stored but GET /api/auth/me cannot reach the server (no network): the signed-in
   * pages show, in an offline state, until the lookup answers. A refusal (401) still signs out.
   */
  offline: boolean;
  /** Stores the tokens (and user) after a successful login and marks the session signed in. */
  signIn: (session: LoginResponse) => void;
  /**
   * Forgets the session locally: stored tokens, user and cached user query.
   */
  clearSession: () => void;
  /**
   * Logout of spec §4: clears the stored tokens and user first, then calls
   * POST /api/auth/logout with the token it had. On success the session is
   * forgotten in memory too. If the call fails the stored items stay cleared
   * and the promise rejects, so the caller can say so; the next logout then
   * has no token to send and finishes locally. `afterSignOut` (typically a
   * navigation) runs in the same transition as the state change.
   */
  logout: (afterSignOut?: () => void) => Promise<void>;
}

/**
 * The user query's key, as the generated getGetCurrentUserQueryKey() builds
 * it (a test holds the two equal). Spelled out here so that this module does
 * not import the API client.
 */
export const currentUserQueryKey = ['/api/auth/me'] as const;
export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
