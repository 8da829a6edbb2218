import { delay, http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import { aUser, render, screen, server } from '../../test-utils';
import { browser } from '../browser';
import { setTokens } from '../storage';
import { ProtectedRoute } from './ProtectedRoute';

function LoginProbe() {
  const location = useLocation();
  const from = (location.state as { from?: { pathname: string } } | null)?.from;
  return <p>login page, from {from?.pathname ?? 'nowhere'}</p>;
}

function renderGuarded(route = '/dashboard') {
  return render(
    <Routes>
      <Route path="/login" element={<LoginProbe />} />
      <Route
        path="/dashboard"
        element={
          <ProtectedRoute>
            <p>secret dashboard</p>
          </ProtectedRoute>
        }
      />
    </Routes>,
    { route },
  );
}

describe('ProtectedRoute', () => {
  it('shows the auth spinner while /api/auth/me is pending', async () => {
    setTokens('access-1', 'refresh-1');
    server.use(
      http.get('/api/auth/me', async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );

    renderGuarded();

    expect(await screen.findByText('Checking authentication...')).toBeInTheDocument();
    expect(screen.queryByText('secret dashboard')).not.toBeInTheDocument();
  });

  it('redirects to /login and remembers where the user came from when there is no token', async () => {
    renderGuarded('/dashboard');

    expect(await screen.findByText('login page, from /dashboard')).toBeInTheDocument();
    expect(screen.queryByText('secret dashboard')).not.toBeInTheDocument();
  });

  it('renders the page once /api/auth/me answers', async () => {
    setTokens('access-1', 'refresh-1');
    server.use(
      http.get('/api/auth/me', ({ request }) => {
        if (request.headers.get('Authorization') !== 'Bearer access-1') {
          return HttpResponse.json({ code: 'UNAUTHORIZED' }, { status: 401 });
        }
        return HttpResponse.json(aUser());
      }),
    );

    renderGuarded();

    expect(await screen.findByText('secret dashboard')).toBeInTheDocument();
  });

  it('redirects to /login when the stored token is rejected', async () => {
    vi.spyOn(browser, 'redirectToLogin').mockImplementation(() => {});
    setTokens('expired', 'refresh-1');
    server.use(
      http.post('/api/auth/refresh', () => HttpResponse.json({ code: 'UNAUTHORIZED' }, { status: 401 })),
      http.get('/api/auth/me', () =>
        HttpResponse.json({ code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'Unauthorized' }, { status: 401 }),
      ),
    );

    renderGuarded();

    expect(await screen.findByText('login page, from /dashboard')).toBeInTheDocument();
  });
});
