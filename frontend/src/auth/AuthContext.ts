import { createContext, useContext } from 'react';
import type { LoginResponse, User } from '../api/gen/model';

export type AuthStatus = 'unauthenticated' | 'loading' | 'authenticated';

export interface AuthContextValue {
  status: AuthStatus;
  /** The signed-in user, from GET /api/auth/me; null unless authenticated. */
  user: User | null;
  /** Stores the tokens (and user) after a successful login and marks the session signed in. */
  signIn: (session: LoginResponse) => void;
  /**
   * Forgets the session locally: stored tokens, user and cached user query.
   * The server-side logout call belongs to the logout flow (accounts issue),
   * which calls this first and then the server, as spec §4 describes.
   */
  clearSession: () => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
