import { http, HttpResponse } from 'msw';
import { browser } from '../auth/browser';
import { getAccessToken, getRefreshToken, getUser, setSession } from '../auth/storage';
import { aUser } from '../test-utils/fixtures';
import { server } from '../test-utils/server';
import { retryDelay } from '../app/queryClient';
import { authorizedFetch, isTryAgainFailure, SignedOutError } from './authorizedFetch';
import { ApiError } from './errors';
import { customFetch } from './mutator';

const unauthorized = () => HttpResponse.json({ code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'Unauthorized' }, { status: 401 });

/** /api/profile answers 401 unless the request carries `Bearer new-access`. */
function profileAcceptingNewToken() {
  const seen: (string | null)[] = [];
  server.use(
    http.get('/api/profile', ({ request }) => {
      const auth = request.headers.get('Authorization');
      seen.push(auth);
      return auth === 'Bearer new-access' ? HttpResponse.json({ name: 'Ada' }) : unauthorized();
    }),
  );
  return seen;
}

function signedIn() {
  setSession({ accessToken: 'old-access', refreshToken: 'old-refresh', user: aUser() });
}

function expectStillSignedIn() {
  expect(getAccessToken()).toBe('old-access');
  expect(getRefreshToken()).toBe('old-refresh');
  expect(getUser()).not.toBeNull();
}

describe('authorizedFetch', () => {
  it('on a 401 refreshes once with the rotating refresh token and repeats the request', async () => {
    signedIn();
    const seen = profileAcceptingNewToken();
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/refresh', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ accessToken: 'new-access', refreshToken: 'new-refresh' });
      }),
    );

    const response = await authorizedFetch('/api/profile');

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: 'Ada' });
    expect(bodies).toEqual([{ refreshToken: 'old-refresh' }]);
    expect(seen).toEqual(['Bearer old-access', 'Bearer new-access']);
    expect(getAccessToken()).toBe('new-access');
    expect(getRefreshToken()).toBe('new-refresh');
  });

  it.each([400, 401, 403, 404])('signs out only when the server refuses the refresh (%i)', async (status) => {
    const toLogin = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    signedIn();
    profileAcceptingNewToken();
    server.use(http.post('/api/auth/refresh', () => HttpResponse.json({ code: 'NOPE', error: 'Refused', message: 'Refused' }, { status })));

    const error = await authorizedFetch('/api/profile').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SignedOutError);
    expect(isTryAgainFailure(error)).toBe(false);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(getUser()).toBeNull();
    expect(toLogin).toHaveBeenCalledTimes(1);
  });

  it.each([500, 502, 503, 408, 429])('treats a refresh answered %i as "try again": tokens kept, no sign-out', async (status) => {
    const toLogin = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    signedIn();
    profileAcceptingNewToken();
    server.use(
      http.post('/api/auth/refresh', () =>
        HttpResponse.json({ code: 'UNAVAILABLE', error: 'Try again soon', message: 'Try again soon' }, { status }),
      ),
    );

    const error = await authorizedFetch('/api/profile').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect(isTryAgainFailure(error)).toBe(true);
    expectStillSignedIn();
    expect(toLogin).not.toHaveBeenCalled();
  });

  it('keeps the Retry-After of a 503 refresh on the error, and queries wait that long', async () => {
    signedIn();
    profileAcceptingNewToken();
    server.use(
      http.post('/api/auth/refresh', () =>
        HttpResponse.json(
          { code: 'UNAVAILABLE', error: 'Back soon', message: 'Back soon' },
          { status: 503, headers: { 'Retry-After': '7' } },
        ),
      ),
    );

    const error = (await authorizedFetch('/api/profile').catch((e: unknown) => e)) as ApiError;

    expect(error.retryAfter).toBe(7);
    expect(retryDelay(1, error)).toBe(7000);
    expectStillSignedIn();
  });

  it('treats a network failure of the refresh as "try again"', async () => {
    const toLogin = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    signedIn();
    profileAcceptingNewToken();
    server.use(http.post('/api/auth/refresh', () => HttpResponse.error()));

    const error = await authorizedFetch('/api/profile').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TypeError);
    expect(isTryAgainFailure(error)).toBe(true);
    expectStillSignedIn();
    expect(toLogin).not.toHaveBeenCalled();
  });

  it('a 503 with Retry-After on the request itself is an error to try again, never a sign-out', async () => {
    const toLogin = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    signedIn();
    let refreshes = 0;
    server.use(
      http.get('/api/auth/me', () =>
        HttpResponse.json(
          { code: 'UNAVAILABLE', error: 'Back soon', message: 'Back soon' },
          { status: 503, headers: { 'Retry-After': '3' } },
        ),
      ),
      http.post('/api/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ accessToken: 'x', refreshToken: 'y' });
      }),
    );

    const error = (await customFetch('/api/auth/me', { method: 'GET' }).catch((e: unknown) => e)) as ApiError;

    expect(error.status).toBe(503);
    expect(error.retryAfter).toBe(3);
    expect(isTryAgainFailure(error)).toBe(true);
    expect(refreshes).toBe(0);
    expectStillSignedIn();
    expect(toLogin).not.toHaveBeenCalled();
  });

  it('a network failure of the request keeps the session', async () => {
    signedIn();
    server.use(http.get('/api/profile', () => HttpResponse.error()));

    const error = await authorizedFetch('/api/profile').catch((e: unknown) => e);

    expect(isTryAgainFailure(error)).toBe(true);
    expectStillSignedIn();
  });

  it('an aborted request is not a failure to try again', async () => {
    signedIn();
    server.use(http.get('/api/profile', () => HttpResponse.json({ name: 'Ada' })));
    const controller = new AbortController();
    controller.abort();

    const error = await authorizedFetch('/api/profile', { signal: controller.signal }).catch((e: unknown) => e);

    expect(isTryAgainFailure(error)).toBe(false);
    expectStillSignedIn();
  });
});

describe('retryDelay', () => {
  it('waits what Retry-After says (capped), else backs off', () => {
    expect(retryDelay(1, new ApiError(503, undefined, '', 2))).toBe(2000);
    expect(retryDelay(1, new ApiError(503, undefined, '', 3600))).toBe(30_000);
    expect(retryDelay(1, new ApiError(500, undefined))).toBe(2000);
  });
});
