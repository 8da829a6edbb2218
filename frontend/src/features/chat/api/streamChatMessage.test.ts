import { http, HttpResponse } from 'msw';
import type { SendMessageResponse } from '../../../api/gen/model';
import { ApiError, SignedOutError } from '../../../api/mutator';
import { vi } from 'vitest';
import { browser } from '../../../auth/browser';
import { server } from '../../../test-utils';
import { sseResponse, sseEvent } from '../testing/sse';
import { ConnectionLostError, streamChatMessage } from './streamChatMessage';

const done: SendMessageResponse = {
  success: true,
  sessionId: '2b8f6f0e-4a0b-4b5e-9e76-3c2f4f1b2a10',
  aiResponse: 'Hello there',
  sessionTokensUsed: 12,
  sessionTokenLimit: 1000,
  sessionEnded: false,
};

describe('streamChatMessage', () => {
  it('sends the body with the stored bearer token and hands over each delta, then the final payload', async () => {
    window.localStorage.setItem('accessToken', 'tok-123');
    let seen: { auth: string | null; body: unknown } | undefined;
    server.use(
      http.post('*/api/chat/message/stream', async ({ request }) => {
        seen = { auth: request.headers.get('Authorization'), body: await request.json() };
        return sseResponse([sseEvent('delta', { text: 'Hello' }), sseEvent('delta', { text: ' there' }), sseEvent('done', done)]);
      }),
    );

    const deltas: string[] = [];
    const result = await streamChatMessage({ message: 'hi', sessionId: null }, { onDelta: (t) => deltas.push(t) });

    expect(seen).toEqual({ auth: 'Bearer tok-123', body: { message: 'hi', sessionId: null } });
    expect(deltas).toEqual(['Hello', ' there']);
    expect(result).toEqual(done);
  });

  it('reassembles events split across network chunks', async () => {
    const text = sseEvent('delta', { text: 'one' }) + sseEvent('done', done);
    server.use(http.post('*/api/chat/message/stream', () => sseResponse([text.slice(0, 7), text.slice(7, 30), text.slice(30)])));

    const deltas: string[] = [];
    await expect(streamChatMessage({ message: 'hi' }, { onDelta: (t) => deltas.push(t) })).resolves.toEqual(done);
    expect(deltas).toEqual(['one']);
  });

  it('turns an error event into an ApiError carrying the ErrorResponse', async () => {
    server.use(
      http.post('*/api/chat/message/stream', () =>
        sseResponse([sseEvent('delta', { text: 'par' }), sseEvent('error', { code: 'MODEL_UNAVAILABLE', error: 'The companion is resting', message: 'The companion is resting' })]),
      ),
    );

    const failure = await streamChatMessage({ message: 'hi' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).serverMessage).toBe('The companion is resting');
    expect((failure as ApiError).code).toBe('MODEL_UNAVAILABLE');
  });

  it('turns a non-2xx answer before streaming into an ApiError like the mutator', async () => {
    server.use(
      http.post('*/api/chat/message/stream', () =>
        HttpResponse.json({ code: 'RATE_LIMITED', error: 'Daily limit reached', message: 'Daily limit reached' }, { status: 429 }),
      ),
    );

    const failure = await streamChatMessage({ message: 'hi' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(429);
    expect((failure as ApiError).message).toBe('Daily limit reached');
  });

  it('refreshes the tokens once on a 401 and repeats the request with the new token', async () => {
    window.localStorage.setItem('accessToken', 'old');
    window.localStorage.setItem('refreshToken', 'r1');
    const auths: (string | null)[] = [];
    server.use(
      http.post('*/api/auth/refresh', () => HttpResponse.json({ accessToken: 'new', refreshToken: 'r2' })),
      http.post('*/api/chat/message/stream', ({ request }) => {
        auths.push(request.headers.get('Authorization'));
        return auths.length === 1
          ? HttpResponse.json({ code: 'UNAUTHORIZED', error: 'Expired', message: 'Expired' }, { status: 401 })
          : sseResponse([sseEvent('done', done)]);
      }),
    );

    await expect(streamChatMessage({ message: 'hi' })).resolves.toEqual(done);
    expect(auths).toEqual(['Bearer old', 'Bearer new']);
    expect(window.localStorage.getItem('accessToken')).toBe('new');
  });

  it('clears the session and goes to /login when refreshing fails', async () => {
    window.localStorage.setItem('accessToken', 'old');
    window.localStorage.setItem('refreshToken', 'r1');
    const toLogin = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    server.use(
      http.post('*/api/auth/refresh', () => HttpResponse.json({ code: 'UNAUTHORIZED', error: 'x', message: 'x' }, { status: 401 })),
      http.post('*/api/chat/message/stream', () =>
        HttpResponse.json({ code: 'UNAUTHORIZED', error: 'Expired', message: 'Expired' }, { status: 401 }),
      ),
    );

    await expect(streamChatMessage({ message: 'hi' })).rejects.toBeInstanceOf(SignedOutError);
    expect(toLogin).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem('accessToken')).toBeNull();
  });

  it('keeps the session when the refresh meets an outage (503): the stream fails with "try again"', async () => {
    window.localStorage.setItem('accessToken', 'old');
    window.localStorage.setItem('refreshToken', 'r1');
    const toLogin = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    server.use(
      http.post('*/api/auth/refresh', () =>
        HttpResponse.json({ code: 'UNAVAILABLE', error: 'Back soon', message: 'Back soon' }, { status: 503, headers: { 'Retry-After': '5' } }),
      ),
      http.post('*/api/chat/message/stream', () =>
        HttpResponse.json({ code: 'UNAUTHORIZED', error: 'Expired', message: 'Expired' }, { status: 401 }),
      ),
    );

    const failure = (await streamChatMessage({ message: 'hi' }).catch((e: unknown) => e)) as ApiError;
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.status).toBe(503);
    expect(failure.retryAfter).toBe(5);
    expect(toLogin).not.toHaveBeenCalled();
    expect(window.localStorage.getItem('accessToken')).toBe('old');
    expect(window.localStorage.getItem('refreshToken')).toBe('r1');
  });

  it('fails when the stream ends without a final event', async () => {
    server.use(http.post('*/api/chat/message/stream', () => sseResponse([sseEvent('delta', { text: 'cut' })])));
    const failure = await streamChatMessage({ message: 'hi' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConnectionLostError);
    expect(failure).toMatchObject({ started: true, message: 'Failed to send message' });
  });

  it('says whether the connection dropped before the request reached the server or during the stream', async () => {
    server.use(http.post('*/api/chat/message/stream', () => HttpResponse.error()));
    const failure = await streamChatMessage({ message: 'hi' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConnectionLostError);
    expect(failure).toMatchObject({ started: false, message: 'Failed to send message' });
  });
});
