import { useState } from 'react';
import { getGetCurrentUserQueryKey } from '../api/gen/auth/auth';
import { http, HttpResponse } from 'msw';
import { aUser, render, screen, server, waitFor } from '../test-utils';
import { browser } from './browser';
import { currentUserQueryKey, useAuth } from './AuthContext';
import { getAccessToken, getRefreshToken, getUser, setSession, setTokens } from './storage';

function AuthProbe() {
  const { status, user, offline, signIn, clearSession, logout } = useAuth();
  const [logoutResult, setLogoutResult] = useState('none');
  return (
    <div>
      <p>logout: {logoutResult}</p>
      <button
        type="button"
        onClick={() =>
          logout().then(
            () => setLogoutResult('done'),
            () => setLogoutResult('failed'),
          )
        }
      >
        log out
      </button>
      <p>status: {status}</p>
      <p>offline: {String(offline)}</p>
      <p>email: {user?.email ?? 'none'}</p>
      <button
        type="button"
        onClick={() =>
          signIn({ accessToken: 'a-2', refreshToken: 'r-2', user: aUser({ email: 'new@example.com' }) })
        }
      >
        sign in
      </button>
      <button type="button" onClick={clearSession}>
        forget
      </button>
    </div>
  );
}

describe('AuthProvider', () => {
  it('is unauthenticated without a stored token and asks the server nothing', async () => {
    // Any request would fail the test: the MSW server has no handlers.
    render(<AuthProbe />);
    expect(screen.getByText('status: unauthenticated')).toBeInTheDocument();
    expect(screen.getByText('email: none')).toBeInTheDocument();
  });

  it('loads the current user when a token is stored', async () => {
    setTokens('a-1', 'r-1');
    server.use(http.get('/api/auth/me', () => HttpResponse.json(aUser({ role: 'PREMIUM' }))));

    render(<AuthProbe />);

    expect(screen.getByText('status: loading')).toBeInTheDocument();
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('email: ada@example.com')).toBeInTheDocument();
  });

  it('clears every stored auth item when the user load fails', async () => {
    vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    server.use(http.post('/api/auth/refresh', () => HttpResponse.json({ code: 'UNAUTHORIZED' }, { status: 401 })));
    setSession({ accessToken: 'a-1', refreshToken: 'r-1', user: aUser({ email: 'old@example.com' }) });
    server.use(
      http.get('/api/auth/me', () =>
        HttpResponse.json({ code: 'UNAUTHORIZED', error: 'Invalid token', message: 'Invalid token' }, { status: 401 }),
      ),
    );

    render(<AuthProbe />);

    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    await waitFor(() => expect(getAccessToken()).toBeNull());
    expect(getRefreshToken()).toBeNull();
    expect(getUser()).toBeNull();
  });

  it('keeps the stored session through an outage: a 503 lookup is tried again, not a sign-out', async () => {
    const toLogin = vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    setSession({ accessToken: 'a-1', refreshToken: 'r-1', user: aUser() });
    let calls = 0;
    server.use(
      http.get('/api/auth/me', () => {
        calls += 1;
        if (calls === 1) {
          return HttpResponse.json(
            { code: 'UNAVAILABLE', error: 'Back soon', message: 'Back soon' },
            { status: 503, headers: { 'Retry-After': '0' } },
          );
        }
        return HttpResponse.json(aUser({ email: 'back@example.com' }));
      }),
    );

    render(<AuthProbe />);

    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('email: back@example.com')).toBeInTheDocument();
    expect(calls).toBe(2);
    expect(getAccessToken()).toBe('a-1');
    expect(getRefreshToken()).toBe('r-1');
    expect(toLogin).not.toHaveBeenCalled();
  });

  it('opens signed in, offline, as the stored user when the lookup cannot reach the server; then asks again', async () => {
    setSession({ accessToken: 'a-1', refreshToken: 'r-1', user: aUser({ email: 'stored@example.com' }) });
    let calls = 0;
    server.use(
      http.get('/api/auth/me', () => {
        calls += 1;
        return calls === 1 ? HttpResponse.error() : HttpResponse.json(aUser({ email: 'back@example.com' }));
      }),
    );

    render(<AuthProbe />);

    expect(await screen.findByText('offline: true')).toBeInTheDocument();
    expect(screen.getByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('email: stored@example.com')).toBeInTheDocument();
    expect(getAccessToken()).toBe('a-1');
    // The lookup keeps trying; once it reaches the server, the app is online again.
    expect(await screen.findByText('email: back@example.com', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('offline: false')).toBeInTheDocument();
  });

  it('signIn stores the session and authenticates; clearSession forgets it', async () => {
    const { user } = render(<AuthProbe />);

    await user.click(screen.getByRole('button', { name: 'sign in' }));
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();
    expect(screen.getByText('email: new@example.com')).toBeInTheDocument();
    expect(getAccessToken()).toBe('a-2');
    expect(getRefreshToken()).toBe('r-2');

    await user.click(screen.getByRole('button', { name: 'forget' }));
    expect(await screen.findByText('status: unauthenticated')).toBeInTheDocument();
    expect(getAccessToken()).toBeNull();
    expect(getUser()).toBeNull();
  });

  it('logout clears the stored session before calling the server, with the old token', async () => {
    setSession({ accessToken: 'a-1', refreshToken: 'r-1', user: aUser() });
    const seen: { auth: string | null; storedAtCall: string | null }[] = [];
    server.use(
      http.get('/api/auth/me', () => HttpResponse.json(aUser())),
      http.post('/api/auth/logout', ({ request }) => {
        seen.push({ auth: request.headers.get('Authorization'), storedAtCall: getAccessToken() });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = render(<AuthProbe />);
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'log out' }));

    expect(await screen.findByText('logout: done')).toBeInTheDocument();
    expect(screen.getByText('status: unauthenticated')).toBeInTheDocument();
    expect(seen).toEqual([{ auth: 'Bearer a-1', storedAtCall: null }]);
    expect(getRefreshToken()).toBeNull();
    expect(getUser()).toBeNull();
  });

  it('logout clears the stored session even when the server call fails', async () => {
    setSession({ accessToken: 'a-1', refreshToken: 'r-1', user: aUser() });
    server.use(
      http.get('/api/auth/me', () => HttpResponse.json(aUser())),
      http.post('/api/auth/logout', () => HttpResponse.json({ code: 'INTERNAL' }, { status: 500 })),
    );
    const { user } = render(<AuthProbe />);
    expect(await screen.findByText('status: authenticated')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'log out' }));

    expect(await screen.findByText('logout: failed')).toBeInTheDocument();
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(getUser()).toBeNull();

    // Nothing left to send: the second logout finishes locally.
    await user.click(screen.getByRole('button', { name: 'log out' }));
    expect(await screen.findByText('logout: done')).toBeInTheDocument();
    expect(screen.getByText('status: unauthenticated')).toBeInTheDocument();
  });
});

describe('currentUserQueryKey', () => {
  it('is the key the generated client uses for GET /api/auth/me', () => {
    expect(currentUserQueryKey).toEqual(getGetCurrentUserQueryKey());
  });
});
