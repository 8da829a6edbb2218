import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation, type InitialEntry } from 'react-router';
import { getGetClientConfigResponseMock } from '../../api/gen/public/public.msw';
import { browser } from '../../auth/browser';
import { getAccessToken, getRefreshToken, getUser } from '../../auth/storage';
import { aUser, gate, render, screen, server, waitFor, within } from '../../test-utils';
import { LoginPage, OIDC_START_PATH } from './LoginPage';

function Where() {
  const location = useLocation();
  return <p>at {location.pathname + location.search}</p>;
}

function renderLogin(route: InitialEntry = '/login') {
  return render(
    <Routes>
      <Route
        path="/login"
        element={
          <>
            <LoginPage />
            <Where />
          </>
        }
      />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route },
  );
}

function withConfig(oidcSignIn = false) {
  server.use(http.get('/api/public/config', () => HttpResponse.json(getGetClientConfigResponseMock({ oidcSignIn }))));
}

const session = { accessToken: 'access-1', refreshToken: 'refresh-1', user: aUser({ email: 'ada@example.com' }) };

async function fillAndSubmit(user: ReturnType<typeof renderLogin>['user']) {
  await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

// Form tests type a lot and some wait for real redirect delays; the machine is shared.
vi.setConfig({ testTimeout: 30_000 });

describe('LoginPage', () => {
  beforeEach(() => withConfig(false));

  it('signs in, stores the session, says so and goes to /dashboard after a second', async () => {
    let body: unknown;
    server.use(
      http.post('/api/auth/login', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(session);
      }),
    );
    const { user } = renderLogin();
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'New here? Create an account' })).toHaveAttribute('href', '/register');

    await fillAndSubmit(user);

    expect(await screen.findByText('Login successful! Redirecting...')).toBeInTheDocument();
    expect(body).toEqual({ email: 'ada@example.com', password: 'correct horse' });
    expect(getAccessToken()).toBe('access-1');
    expect(getRefreshToken()).toBe('refresh-1');
    expect(getUser()).toEqual(session.user);
    expect(screen.getByText('at /login')).toBeInTheDocument();
    expect(await screen.findByText('at /dashboard')).toBeInTheDocument();
  });

  it('goes back to the page the user came from', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.json(session)));
    const { user } = renderLogin({
      pathname: '/login',
      state: { from: { pathname: '/chat/abc', search: '?x=1', hash: '' } },
    });

    await fillAndSubmit(user);

    expect(await screen.findByText('at /chat/abc?x=1')).toBeInTheDocument();
  });

  it('shows server field errors under the inputs with the fix-the-errors banner', async () => {
    server.use(
      http.post('/api/auth/login', () =>
        HttpResponse.json(
          {
            code: 'VALIDATION_ERROR',
            error: 'Invalid input',
            message: 'Invalid input',
            details: { email: 'Enter a valid e-mail address', password: 'Password is required' },
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderLogin();

    await fillAndSubmit(user);

    expect(await screen.findByText('Please fix the errors below.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toHaveAccessibleDescription('Enter a valid e-mail address');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(getAccessToken()).toBeNull();
  });

  it.each([
    ['the error field', () => HttpResponse.json({ code: 'UNAUTHORIZED', error: 'Invalid email or password', message: 'other' }, { status: 401 }), 'Invalid email or password'],
    ['a string body', () => HttpResponse.text('Service is resting', { status: 503 }), 'Service is resting'],
    ['the message field', () => HttpResponse.json({ code: 'X', message: 'Only a message' }, { status: 500 }), 'Only a message'],
    ['the fallback', () => new HttpResponse(null, { status: 500 }), 'Login failed. Please try again.'],
    [
      'the not-verified message',
      () =>
        HttpResponse.json(
          {
            code: 'EMAIL_NOT_VERIFIED',
            error: 'Please verify your email address. We have sent you a new link; check your inbox.',
            message: 'Please verify your email address. We have sent you a new link; check your inbox.',
          },
          { status: 403 },
        ),
      'Please verify your email address. We have sent you a new link; check your inbox.',
    ],
  ])('shows %s in the banner', async (_name, answer, expected) => {
    server.use(http.post('/api/auth/login', answer));
    const { user } = renderLogin();

    await fillAndSubmit(user);

    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
    expect(screen.queryByText('Login successful! Redirecting...')).not.toBeInTheDocument();
  });

  it("shows the error's own message when there is no response", async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.error()));
    const { user } = renderLogin();

    await fillAndSubmit(user);

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch');
  });

  describe('verification link', () => {
    it('offers to resend the link to the address a registration just used', async () => {
      const asked: unknown[] = [];
      server.use(
        http.post('/api/auth/resend-verification', async ({ request }) => {
          asked.push(await request.json());
          return HttpResponse.json({ message: 'If that address has an account waiting for verification, we sent a new link.' });
        }),
      );
      const { user } = renderLogin({ pathname: '/login', state: { registeredEmail: 'ada@example.com' } });
      expect(screen.getByText(/Didn't get the e-mail for ada@example.com\?/)).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Resend the link' }));
      expect(await screen.findByText('If that address has an account waiting for verification, we sent a new link.')).toBeInTheDocument();
      expect(asked).toEqual([{ email: 'ada@example.com' }]);
    });

    it('offers it after a sign-in refused for an unverified address, and not before', async () => {
      server.use(
        http.post('/api/auth/login', () =>
          HttpResponse.json(
            { code: 'EMAIL_NOT_VERIFIED', error: 'Please verify your email address before signing in.', message: 'x' },
            { status: 403 },
          ),
        ),
      );
      const { user } = renderLogin();
      expect(screen.queryByRole('button', { name: 'Resend the link' })).not.toBeInTheDocument();
      await fillAndSubmit(user);
      expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your email address before signing in.');
      expect(screen.getByRole('button', { name: 'Resend the link' })).toBeInTheDocument();
    });
  });

  describe('Google sign-in', () => {
    it('sends the browser to the server start path when configured', async () => {
      withConfig(true);
      const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
      const { user } = renderLogin();

      const button = screen.getByRole('button', { name: 'Sign in with Google' });
      await waitFor(() => expect(button).toBeEnabled());
      await user.click(button);

      expect(assign).toHaveBeenCalledWith(OIDC_START_PATH);
      expect(OIDC_START_PATH).toBe('/oauth2/authorization/google');
      expect(screen.queryByText("Sign-in with Google isn't available right now. Use your e-mail and password.")).not.toBeInTheDocument();
    });

    it('is disabled and says why when the server has no sign-in configured', async () => {
      renderLogin();

      expect(await screen.findByText("Sign-in with Google isn't available right now. Use your e-mail and password.")).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
    });

    it('exchanges the returned one-time code, removes it from the address and signs in', async () => {
      const codes: unknown[] = [];
      server.use(
        http.post('/api/auth/oidc/exchange', async ({ request }) => {
          codes.push(await request.json());
          return HttpResponse.json(session);
        }),
      );

      renderLogin('/login?oauthCode=one-time-123');

      expect(await screen.findByText('Login successful! Redirecting...')).toBeInTheDocument();
      expect(codes).toEqual([{ code: 'one-time-123' }]);
      expect(screen.getByText('at /login')).toBeInTheDocument();
      expect(getAccessToken()).toBe('access-1');
      expect(await screen.findByText('at /dashboard')).toBeInTheDocument();
    });

    it('comes back to the page that sent the user to sign in, such as a new chat', async () => {
      withConfig(true);
      const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
      const first = renderLogin({ pathname: '/login', state: { from: { pathname: '/chat', search: '', hash: '' } } });
      const button = screen.getByRole('button', { name: 'Sign in with Google' });
      await waitFor(() => expect(button).toBeEnabled());
      await first.user.click(button);
      expect(assign).toHaveBeenCalledWith(OIDC_START_PATH);
      first.unmount();

      // The provider sends the browser back to /login with a code; the page state is gone.
      server.use(http.post('/api/auth/oidc/exchange', () => HttpResponse.json(session)));
      renderLogin('/login?oauthCode=one-time-456');
      expect(await screen.findByText('at /chat')).toBeInTheDocument();
      expect(window.sessionStorage.getItem('percolate-after-sign-in')).toBeNull();
    });

    it('never follows a remembered destination off the site', async () => {
      window.sessionStorage.setItem('percolate-after-sign-in', '//evil.example/steal');
      server.use(http.post('/api/auth/oidc/exchange', () => HttpResponse.json(session)));
      renderLogin('/login?oauthCode=one-time-789');
      expect(await screen.findByText('at /dashboard')).toBeInTheDocument();
    });

    it('shows an exchange failure in the banner', async () => {
      server.use(
        http.post('/api/auth/oidc/exchange', () =>
          HttpResponse.json({ code: 'UNAUTHORIZED', error: 'This sign-in link has expired.', message: 'x' }, { status: 401 }),
        ),
      );

      renderLogin('/login?oauthCode=stale');

      expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link has expired.');
      expect(getAccessToken()).toBeNull();
    });

    it('shows the error the server sent back', async () => {
      renderLogin('/login?oauthError=Google%20did%20not%20confirm%20your%20e-mail%20address.');

      expect(await screen.findByRole('alert')).toHaveTextContent('Google did not confirm your e-mail address.');
    });
  });

  describe('after a lockout', () => {
    const locked = () =>
      HttpResponse.json(
        {
          code: 'RATE_LIMITED',
          error: 'Too many failed sign-in attempts. Please wait 15 minutes and try again, or reset your password.',
          message: 'x',
        },
        { status: 429, headers: { 'Retry-After': '900' } },
      );

    it('offers a sign-in link by email and asks for one for the typed address', async () => {
      let asked: unknown;
      server.use(
        http.post('/api/auth/login', locked),
        http.post('/api/auth/login-link', async ({ request }) => {
          asked = await request.json();
          return HttpResponse.json({ message: "If an account exists for that email, we've sent a sign-in link." });
        }),
      );
      const { user } = renderLogin();

      await fillAndSubmit(user);

      expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed sign-in attempts.');
      await user.click(await screen.findByRole('button', { name: 'Email me a sign-in link' }));

      expect(await screen.findByRole('status')).toHaveTextContent("If an account exists for that email, we've sent a sign-in link.");
      expect(asked).toEqual({ email: 'ada@example.com' });
    });

    it('shows why the link could not be sent', async () => {
      server.use(
        http.post('/api/auth/login', locked),
        http.post('/api/auth/login-link', () =>
          HttpResponse.json(
            { code: 'RATE_LIMITED', error: 'Too many emails requested. Please wait an hour and try again.', message: 'x' },
            { status: 429 },
          ),
        ),
      );
      const { user } = renderLogin();

      await fillAndSubmit(user);
      await user.click(await screen.findByRole('button', { name: 'Email me a sign-in link' }));

      await waitFor(() =>
        expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(
          'Too many emails requested. Please wait an hour and try again.',
        ),
      );
    });

    it('offers no link after a wrong password', async () => {
      server.use(
        http.post('/api/auth/login', () =>
          HttpResponse.json({ code: 'INVALID_CREDENTIALS', error: 'Invalid email or password.', message: 'x' }, { status: 401 }),
        ),
      );
      const { user } = renderLogin();

      await fillAndSubmit(user);

      expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
      expect(screen.queryByRole('button', { name: 'Email me a sign-in link' })).not.toBeInTheDocument();
    });

    it('signs in with the token of a sign-in link and removes it from the address', async () => {
      const tokens: unknown[] = [];
      server.use(
        http.post('/api/auth/login-link/redeem', async ({ request }) => {
          tokens.push(await request.json());
          return HttpResponse.json(session);
        }),
      );

      renderLogin('/login?loginToken=link-token-1');

      expect(await screen.findByText('Login successful! Redirecting...')).toBeInTheDocument();
      expect(tokens).toEqual([{ token: 'link-token-1' }]);
      expect(screen.getByText('at /login')).toBeInTheDocument();
      expect(getAccessToken()).toBe('access-1');
      expect(await screen.findByText('at /dashboard')).toBeInTheDocument();
    });

    it('shows a used or expired link in the banner', async () => {
      server.use(
        http.post('/api/auth/login-link/redeem', () =>
          HttpResponse.json(
            { code: 'INVALID_LOGIN_LINK', error: 'This sign-in link is invalid, used or expired. Please ask for a new one.', message: 'x' },
            { status: 401 },
          ),
        ),
      );

      renderLogin('/login?loginToken=used');

      expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link is invalid, used or expired.');
      expect(getAccessToken()).toBeNull();
    });
  });

  describe('Reset Password modal', () => {
    async function openModal(user: ReturnType<typeof renderLogin>['user']) {
      await user.click(screen.getByRole('button', { name: 'Forgot password' }));
      return screen.findByRole('dialog', { name: 'Reset Password' });
    }

    it('opens with its field, helper text and buttons, and only Cancel closes it', async () => {
      const { user } = renderLogin();
      const dialog = await openModal(user);

      expect(within(dialog).getByLabelText('Email Address')).toBeInTheDocument();
      expect(within(dialog).getByText("We'll send you a link to reset your password.")).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Send Reset Link' })).toBeInTheDocument();

      await user.keyboard('{Escape}');
      expect(screen.getByRole('dialog', { name: 'Reset Password' })).toBeInTheDocument();

      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reset Password' })).not.toBeInTheDocument());
    });

    it('asks for an address when the field is blank', async () => {
      const { user } = renderLogin();
      const dialog = await openModal(user);

      await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));

      expect(await within(dialog).findByText('Please enter your email address')).toBeInTheDocument();
    });

    it("shows 'Sending...' while busy and then the server's text", async () => {
      const held = gate();
      let asked: string | null = null;
      server.use(
        http.post('/api/public/reset-password-email', async ({ request }) => {
          asked = new URL(request.url).searchParams.get('email');
          await held.wait;
          return HttpResponse.text('If that address is registered, a reset link is on its way.');
        }),
      );
      const { user } = renderLogin();
      const dialog = await openModal(user);

      await user.type(within(dialog).getByLabelText('Email Address'), 'ada+1@example.com');
      await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));

      expect(await within(dialog).findByRole('button', { name: 'Sending...' })).toBeDisabled();
      held.open();
      expect(
        await within(dialog).findByText('If that address is registered, a reset link is on its way.'),
      ).toBeInTheDocument();
      expect(asked).toBe('ada+1@example.com');
    });

    it.each([
      ['the server text', () => HttpResponse.text('Too many requests. Try again in an hour.', { status: 429 }), 'Too many requests. Try again in an hour.'],
      ['the fallback', () => new HttpResponse(null, { status: 500 }), 'Failed to send reset email'],
      ['the network fallback', () => HttpResponse.error(), 'Failed to send reset email. Please try again.'],
    ])('shows %s when sending fails', async (_name, answer, expected) => {
      server.use(http.post('/api/public/reset-password-email', answer));
      const { user } = renderLogin();
      const dialog = await openModal(user);

      await user.type(within(dialog).getByLabelText('Email Address'), 'ada@example.com');
      await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));

      expect(await within(dialog).findByRole('alert')).toHaveTextContent(expected);
    });
  });
});
