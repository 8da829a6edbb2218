import { http, HttpResponse } from 'msw';
import { server } from '../test-utils/server';
import { setTokens } from '../auth/storage';
import { ApiError, customFetch } from './mutator';

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
});
