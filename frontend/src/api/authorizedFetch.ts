/**
 * The one authorized fetch of the client. The generated hooks (through the
 * mutator) and the chat's event streams both go through it, so every request
 * agrees on what a failure means:
 *
 * - a 401 on a request that carried a token refreshes the tokens once (the
 *   refresh token rotates) and repeats the request with the new access token;
 * - only a refusal of the refresh (a 4xx other than 408 and 429), or having no
 *   refresh token at all, means "signed out": the stored session is cleared
 *   and the browser goes to /login (spec §8);
 * - anything else — a 5xx or 503 (its Retry-After is kept on the error), 408,
 *   429, or a network failure — means "try again": the stored tokens stay.
 */
import { browser } from '../auth/browser';
import { clearSession, getAccessToken, getRefreshToken, setTokens } from '../auth/storage';
import { ApiError, isObject, stringField } from './errors';
import { takeEarly } from './early';

/** The page's early answer to a GET of `url` (./early.ts), when it came back good. */
async function earlyAnswer(url: string): Promise<Response | undefined> {
  const answer = await takeEarly(url, getAccessToken())?.catch(() => undefined);
  return answer?.ok ? answer : undefined;
}

function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** Content types read as a Blob (files), never as text. */
function isFileContentType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/zip' || type === 'application/octet-stream';
}

/** Reads a body as JSON when the server says it is JSON, a file as a Blob, otherwise as text. */
export async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205 || response.status === 304) {
    return undefined;
  }
  if (response.ok && isFileContentType(response.headers.get('content-type'))) {
    return response.blob();
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

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(response: Response): number | undefined {
  const value = response.headers.get('Retry-After');
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** A non-2xx response as an ApiError, with its body and any Retry-After. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  return new ApiError(response.status, await readBody(response), response.statusText, retryAfterSeconds(response));
}

/** A status that says "not now" rather than "no": the server is busy, down or slow. */
export function isTryAgainStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * A failure that says nothing about the session: the server was busy or down,
 * or the request never reached it. The user should try again, still signed in.
 */
export function isTryAgainFailure(error: unknown): boolean {
  if (error instanceof ApiError) return isTryAgainStatus(error.status);
  // fetch rejects with a TypeError when the network fails; an abort is not a failure.
  return error instanceof TypeError;
}

/** The refresh was refused (or impossible): the session is over. */
export class SignedOutError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignedOutError';
  }
}

/**
 * Calls that never trigger a refresh: the refresh itself, the calls that
 * create a session or look up a sign-in link (a 401 there means wrong
 * credentials, code or link, not an expired session), and logout
 * (the session is already forgotten locally when it is sent).
 */
const NO_REFRESH_PATHS = [
  '/api/auth/refresh',
  '/api/auth/login',
  '/api/auth/oidc/exchange',
  '/api/auth/login-link',
  '/api/auth/login-link/account',
  '/api/auth/login-link/redeem',
  '/api/auth/logout',
];

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
 * Resolves to the new access token. Rejects with SignedOutError when the
 * server refused the refresh token (or none is stored), and with the
 * ApiError or network error otherwise ("try again", tokens kept).
 */
export function refreshAccessToken(): Promise<string> {
  refreshInFlight ??= performRefresh().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

async function performRefresh(): Promise<string> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) throw new SignedOutError('No refresh token available');
  const response = await fetch('/api/auth/refresh', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (isTryAgainStatus(response.status)) throw error;
    throw new SignedOutError(error.message, { cause: error });
  }
  const data = await readBody(response);
  const tokens = isObject(data) ? data : {};
  const accessToken = stringField(tokens.accessToken);
  // A 2xx without tokens is a server fault, not a verdict on the session.
  if (!accessToken) throw new ApiError(502, data, 'Invalid refresh response');
  setTokens(accessToken, stringField(tokens.refreshToken) ?? refreshToken);
  return accessToken;
}

function withAuthorization(init: RequestInit, token: string | null): RequestInit {
  const headers = new Headers(init.headers);
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json, text/plain;q=0.9, */*;q=0.8');
  return { ...init, headers };
}

/**
 * fetch with the stored bearer token and the refresh rule above. Resolves to
 * the response, whatever its status (the caller reads it); rejects only when
 * the network fails, the request is aborted, or the refresh fails.
 */
export async function authorizedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const request = withAuthorization(init, getAccessToken());
  const early = (request.method ?? 'GET').toUpperCase() === 'GET' ? await earlyAnswer(url) : undefined;
  const response = early ?? (await fetch(url, request));

  if (
    response.status !== 401 ||
    !new Headers(request.headers).has('Authorization') ||
    NO_REFRESH_PATHS.includes(pathOf(url))
  ) {
    return response;
  }

  let accessToken: string;
  try {
    accessToken = await refreshAccessToken();
  } catch (error) {
    if (error instanceof SignedOutError) {
      clearSession();
      browser.redirectToLogin();
    }
    throw error;
  }
  // The first answer is not needed any more; let its connection go.
  response.body?.cancel().catch(() => {});
  const headers = new Headers(request.headers);
  headers.set('Authorization', `Bearer ${accessToken}`);
  return fetch(url, { ...request, headers });
}
