/**
 * The one hand-written piece of the API client: every orval-generated hook
 * calls customFetch. It attaches the bearer token, reads the body by its
 * content type (several endpoints answer text/plain) and turns any non-2xx
 * answer into an ApiError that screens can inspect.
 */
import { browser } from '../auth/browser';
import { clearSession, getAccessToken, getRefreshToken, setTokens } from '../auth/storage';
import { ApiError, isObject, stringField } from './errors';

export { ApiError, isApiError, type ApiErrorBody } from './errors';

function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** Reads a body as JSON when the server says it is JSON, otherwise as text. */
async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205 || response.status === 304) {
    return undefined;
  }
  const text = await response.text();
  if (text === '') return undefined;
  if (isJsonContentType(response.headers.get('content-type'))) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // A server bug, not a reason to lose the body: hand over the raw text.
      return text;
    }
  }
  return text;
}

function withAuthorization(init: RequestInit): RequestInit {
  const headers = new Headers(init.headers);
  const token = getAccessToken();
  if (token && !headers.has('Authorization')) {
    headers.set('Authorization', `Bearer ${token}`);
  }
  if (!headers.has('Accept')) {
    headers.set('Accept', 'application/json, text/plain;q=0.9, */*;q=0.8');
  }
  return { ...init, headers };
}

/**
 * Calls that never trigger a refresh: the refresh itself, the calls that
 * create a session (a 401 there means wrong credentials or code), and logout
 * (the session is already forgotten locally when it is sent).
 */
const NO_REFRESH_PATHS = ['/api/auth/refresh', '/api/auth/login', '/api/auth/oidc/exchange', '/api/auth/logout'];

function pathOf(url: string): string {
  try {
    return new URL(url, window.location.origin).pathname;
  } catch {
    return url.split('?')[0];
  }
}

let refreshInFlight: Promise<string> | null = null;

/**
 * Posts the stored refresh token and stores the new pair. Concurrent callers
 * share one request: however many calls failed with 401 at once, the server
 * sees a single refresh (a rotated refresh token must not be used twice).
 * Resolves to the new access token.
 */
export function refreshAccessToken(): Promise<string> {
  refreshInFlight ??= performRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function performRefresh(): Promise<string> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) throw new Error('No refresh token available');
  const response = await fetch('/api/auth/refresh', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  const data = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, data, response.statusText);
  const tokens = isObject(data) ? data : {};
  const accessToken = stringField(tokens.accessToken);
  if (!accessToken) throw new Error('Invalid refresh response');
  setTokens(accessToken, stringField(tokens.refreshToken) ?? refreshToken);
  return accessToken;
}

/**
 * Used by the generated client (orval `override.mutator`). URLs are relative
 * to the page origin: the SPA is served by the same binary as the API, and the
 * Vite dev server proxies /api to it.
 *
 * On a 401 for a request not yet retried (spec §8) it refreshes the tokens
 * and repeats the request once with the new access token. If refreshing
 * fails, the stored session is cleared and the browser goes to /login.
 * A request sent without a token is not refreshed: its 401 is the answer.
 */
// Note: no default value on `init`. orval counts the declared parameters to
// decide whether hooks get a `request` option and pass `{ signal, ...request }`.
export async function customFetch<T>(url: string, init?: RequestInit): Promise<T> {
  const request = withAuthorization(init ?? {});
  let response = await fetch(url, request);

  if (
    response.status === 401 &&
    new Headers(request.headers).has('Authorization') &&
    !NO_REFRESH_PATHS.includes(pathOf(url))
  ) {
    let accessToken: string;
    try {
      accessToken = await refreshAccessToken();
    } catch (error) {
      clearSession();
      browser.redirectToLogin();
      throw error;
    }
    const headers = new Headers(request.headers);
    headers.set('Authorization', `Bearer ${accessToken}`);
    response = await fetch(url, { ...request, headers });
  }

  const data = await readBody(response);
  if (!response.ok) {
    throw new ApiError(response.status, data, response.statusText);
  }
  return data as T;
}

export default customFetch;

/** orval reads these to type the `error` of generated hooks. */
export type ErrorType<E> = ApiError & { data: E };
export type BodyType<B> = B;
