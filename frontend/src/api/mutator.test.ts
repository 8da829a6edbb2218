import { http, HttpResponse } from 'msw';
import { server } from '../test-utils/server';
import { getAccessToken, getRefreshToken, getUser, setSession, setTokens } from '../auth/storage';
import { aUser } from '../test-utils/fixtures';
import { browser } from '../auth/browser';
import { ApiError, customFetch, SignedOutError } from './mutator';

describe('customFetch', () => {
  it('returns the text of a text/plain answer', async () => {
    server.use(
      http.post('/api/public/reset-password-email', () =>
        HttpResponse.text('If that address is registered, a reset link is on its way.'),
      ),
    );

    const result = await customFetch<string>('/api/public/reset-password-email?email=a%40b.c', { method: 'POST' });

    expect(result).toBe('If that address is registered, a reset link is on its way.');
  });

  it('parses JSON answers', async () => {
    server.use(http.get('/api/health', () => HttpResponse.json({ status: 'ok' })));

    await expect(customFetch('/api/health', { method: 'GET' })).resolves.toEqual({ status: 'ok' });
  });

  it('returns a zip answer as a Blob with its bytes intact', async () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x80]);
    server.use(
      http.get('/api/profile/export', () =>
        HttpResponse.arrayBuffer(bytes.buffer, { headers: { 'Content-Type': 'application/zip' } }),
      ),
    );

    const blob = await customFetch<Blob>('/api/profile/export', { method: 'GET' });

    expect(blob.type).toBe('application/zip');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
  });

  it('returns undefined for 204 No Content', async () => {
    server.use(http.post('/api/auth/logout', () => new HttpResponse(null, { status: 204 })));

    await expect(customFetch('/api/auth/logout', { method: 'POST' })).resolves.toBeUndefined();
  });

  it('throws an ApiError carrying the parsed validation error of a 400', async () => {
    const body = {
      code: 'VALIDATION_ERROR',
      error: 'Invalid input',
      message: 'Invalid input',
      details: { email: 'must be a valid e-mail address' },
    };
    server.use(http.post('/api/auth/login', () => HttpResponse.json(body, { status: 400 })));

    const error = await customFetch('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'nope', password: 'x' }),
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.data).toEqual(body);
    expect(apiError.code).toBe('VALIDATION_ERROR');
    expect(apiError.details).toEqual({ email: 'must be a valid e-mail address' });
    expect(apiError.serverError).toBe('Invalid input');
    expect(apiError.message).toBe('Invalid input');
  });

  it('keeps a text error body as a string', async () => {
    server.use(
      http.post('/api/subscription/checkout', () =>
        HttpResponse.text('Head to your profile to manage your subscription.', { status: 400 }),
      ),
    );

    const error = (await customFetch('/api/subscription/checkout', { method: 'POST' }).catch((e: unknown) => e)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error.data).toBe('Head to your profile to manage your subscription.');
    expect(error.text).toBe('Head to your profile to manage your subscription.');
    expect(error.code).toBeUndefined();
  });

  it('attaches the stored access token as a bearer token', async () => {
    setTokens('token-123', 'refresh-123');
    let seen: string | null = null;
    server.use(
      http.get('/api/profile', ({ request }) => {
        seen = request.headers.get('Authorization');
        return HttpResponse.json({ name: 'Ada' });
      }),
    );

    await customFetch('/api/profile', { method: 'GET' });

    expect(seen).toBe('Bearer token-123');
  });

  it('sends no Authorization header without a stored token', async () => {
    let seen: string | null = 'unset';
    server.use(
      http.get('/api/health', ({ request }) => {
        seen = request.headers.get('Authorization');
        return HttpResponse.json({ status: 'ok' });
      }),
    );

    await customFetch('/api/health', { method: 'GET' });

    expect(seen).toBeNull();
  });

  describe('on a 401', () => {
    const unauthorized = () =>
      HttpResponse.json({ code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'Unauthorized' }, { status: 401 });

    /** /api/profile answers 401 unless the request carries the given token. */
    function profileAccepting(token: string) {
      const seen: (string | null)[] = [];
      server.use(
        http.get('/api/profile', ({ request }) => {
          const auth = request.headers.get('Authorization');
          seen.push(auth);
          return auth === `Bearer ${token}` ? HttpResponse.json({ name: 'Ada' }) : unauthorized();
        }),
      );
      return seen;
    }

    it('refreshes with the stored refresh token, stores the new pair and repeats the request once', async () => {
      setTokens('old-access', 'old-refresh');
      const seen = profileAccepting('new-access');
      const refreshBodies: unknown[] = [];
      server.use(
        http.post('/api/auth/refresh', async ({ request }) => {
          refreshBodies.push(await request.json());
          return HttpResponse.json({ accessToken: 'new-access', refreshToken: 'new-refresh' });
        }),
      );

      await expect(customFetch('/api/profile', { method: 'GET' })).resolves.toEqual({ name: 'Ada' });

      expect(refreshBodies).toEqual([{ refreshToken: 'old-refresh' }]);
      expect(seen).toEqual(['Bearer old-access', 'Bearer new-access']);
      expect(getAccessToken()).toBe('new-access');
      expect(getRefreshToken()).toBe('new-refresh');
    });

    it('shares one refresh between three requests that fail at once', async () => {
      setTokens('old-access', 'old-refresh');
      profileAccepting('new-access');
      let refreshes = 0;
      server.use(
        http.post('/api/auth/refresh', async () => {
          refreshes += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return HttpResponse.json({ accessToken: 'new-access', refreshToken: 'new-refresh' });
        }),
      );

      const results = await Promise.all([
        customFetch('/api/profile', { method: 'GET' }),
        customFetch('/api/profile', { method: 'GET' }),
        customFetch('/api/profile', { method: 'GET' }),
      ]);

      expect(results).toEqual([{ name: 'Ada' }, { name: 'Ada' }, { name: 'Ada' }]);
      expect(refreshes).toBe(1);
    });

    it('repeats a request only once: a second 401 is the answer', async () => {
      setTokens('old-access', 'old-refresh');
      let calls = 0;
      let refreshes = 0;
      server.use(
        http.get('/api/profile', () => {
          calls += 1;
          return unauthorized();
        }),
        http.post('/api/auth/refresh', () => {
          refreshes += 1;
          return HttpResponse.json({ accessToken: 'new-access', refreshToken: 'new-refresh' });
        }),
      );

      const error = (await customFetch('/api/profile', { method: 'GET' }).catch((e: unknown) => e)) as ApiError;

      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(401);
      expect(calls).toBe(2);
      expect(refreshes).toBe(1);
    });

    it('clears the session and sends the browser to /login when refreshing fails', async () => {
      const redirect = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
      setSession({ accessToken: 'old-access', refreshToken: 'revoked', user: aUser() });
      profileAccepting('new-access');
      server.use(http.post('/api/auth/refresh', () => unauthorized()));

      const error = await customFetch('/api/profile', { method: 'GET' }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(SignedOutError);
      expect(getAccessToken()).toBeNull();
      expect(getRefreshToken()).toBeNull();
      expect(getUser()).toBeNull();
      expect(redirect).toHaveBeenCalledTimes(1);
    });

    it("fails with 'No refresh token available' when none is stored", async () => {
      const redirect = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
      setTokens('old-access');
      profileAccepting('new-access');
      // No refresh handler: a refresh request would fail the test.

      const error = (await customFetch('/api/profile', { method: 'GET' }).catch((e: unknown) => e)) as Error;

      expect(error.message).toBe('No refresh token available');
      expect(getAccessToken()).toBeNull();
      expect(redirect).toHaveBeenCalledTimes(1);
    });

    it.each([
      '/api/auth/login',
      '/api/auth/refresh',
      '/api/auth/oidc/exchange',
      '/api/auth/login-link',
      '/api/auth/login-link/account',
      '/api/auth/login-link/redeem',
      '/api/auth/logout',
    ])('never refreshes for %s', async (path) => {
      const redirect = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
      setTokens('old-access', 'old-refresh');
      let calls = 0;
      server.use(
        http.post(path, () => {
          calls += 1;
          return unauthorized();
        }),
      );

      const error = (await customFetch(path, { method: 'POST' }).catch((e: unknown) => e)) as ApiError;

      expect(error.status).toBe(401);
      expect(calls).toBe(1);
      expect(getRefreshToken()).toBe('old-refresh');
      expect(redirect).not.toHaveBeenCalled();
    });

    it('does not refresh a request that carried no token', async () => {
      server.use(http.get('/api/profile', () => unauthorized()));

      const error = (await customFetch('/api/profile', { method: 'GET' }).catch((e: unknown) => e)) as ApiError;

      expect(error.status).toBe(401);
    });
  });
});
