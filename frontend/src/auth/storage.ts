/**
 * Where the session lives in the browser: localStorage under the names the
 * product has always used (accessToken, refreshToken, user).
 *
 * The original client "encrypted" these values with a key that was never
 * defined, so the stored data was effectively plain text behind an extra
 * layer of code and fallbacks. We store the values plainly instead: real
 * protection of tokens comes from short-lived access tokens, refresh-token
 * rotation on the server and the strict CSP, not from obfuscation in the page.
 */

import type { User } from '../api/gen/model';

/** The local-storage names the session lives under (the privacy page names them). */
export const STORAGE_KEYS = { accessToken: 'accessToken', refreshToken: 'refreshToken', user: 'user' } as const;
/** Check-ins made offline, until they are sent, are kept under this name and the user's id. */
export const CHECKIN_QUEUE_PREFIX = 'checkinQueue:';
const ACCESS_TOKEN = STORAGE_KEYS.accessToken;
const REFRESH_TOKEN = STORAGE_KEYS.refreshToken;
const USER = STORAGE_KEYS.user;

/** The signed-in user as the login response gave it. */
export type StoredUser = User;

export interface StoredSession {
  accessToken: string;
  refreshToken?: string | null;
  user?: StoredUser | null;
}

// localStorage can throw (private mode, disabled storage, quota). Treat any
// failure as "nothing stored" rather than breaking the app.
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null | undefined): void {
  try {
    if (value === null || value === undefined || value === '') {
      window.localStorage.removeItem(key);
    } else {
      window.localStorage.setItem(key, value);
    }
  } catch {
    // Nothing sensible to do: the session simply will not survive a reload.
  }
}

export function getAccessToken(): string | null {
  return read(ACCESS_TOKEN) || null;
}

export function getRefreshToken(): string | null {
  return read(REFRESH_TOKEN) || null;
}

export function getUser(): StoredUser | null {
  const raw = read(USER);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? (parsed as StoredUser) : null;
  } catch {
    return null;
  }
}

export function setTokens(accessToken: string, refreshToken?: string | null): void {
  write(ACCESS_TOKEN, accessToken);
  if (refreshToken !== undefined) write(REFRESH_TOKEN, refreshToken);
}

export function setUser(user: StoredUser | null): void {
  write(USER, user ? JSON.stringify(user) : null);
}

export function setSession(session: StoredSession): void {
  setTokens(session.accessToken, session.refreshToken);
  if (session.user !== undefined) setUser(session.user);
}

/** Removes every stored auth item: both tokens and the user. */
export function clearSession(): void {
  write(ACCESS_TOKEN, null);
  write(REFRESH_TOKEN, null);
  write(USER, null);
}
