import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation, type InitialEntry } from 'react-router';
import { getGetClientConfigResponseMock } from '../../api/gen/public/public.msw';
import { browser } from '../../auth/browser';
import { getAccessToken, getRefreshToken, getUser, setSession } from '../../auth/storage';
import { aSignIn, aUser, gate, render, screen, server, validationError, waitFor, within } from '../../test-utils';
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

const session = aSignIn();

/** What this tab keeps when it begins a sign-in with Google (as the button does). */
const TAB_NONCE = 'tab-nonce-0123456789abcdefghijklmnopq';
function beganGoogleSignIn(destination?: string) {
  window.sessionStorage.setItem('percolate-oidc-nonce', TAB_NONCE);
  if (destination) window.sessionStorage.setItem('percolate-after-sign-in', destination);
}

/** Someone is signed in in this browser: the victim of a sign-in link sent by someone else. */
const victim = aSignIn({ accessToken: 'victim-access', refreshToken: 'victim-refresh', user: aUser({ email: 'victor@example.com' }) });
function signedInAsVictim() {
  setSession(victim);
  server.use(http.get('/api/auth/me', () => HttpResponse.json(victim.user)));
}

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
        validationError('Invalid input', { email: 'Enter a valid e-mail address', password: 'Password is required' }),
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
    it('has the address filled in after the verification landing', () => {
      renderLogin({ pathname: '/login', state: { verifiedEmail: 'ada@example.com' } });
      expect(screen.getByLabelText('Email Address')).toHaveValue('ada@example.com');
      expect(screen.queryByRole('button', { name: 'Resend the link' })).toBeNull();
    });

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

      // The start path carries this tab's fresh nonce, which the tab keeps for the exchange.
      expect(OIDC_START_PATH).toBe('/oauth2/authorization/google');
      const nonce = window.sessionStorage.getItem('percolate-oidc-nonce');
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(assign).toHaveBeenCalledWith(`${OIDC_START_PATH}?browserNonce=${nonce}`);
      expect(screen.queryByText("Sign-in with Google isn't available right now. Use your e-mail and password.")).not.toBeInTheDocument();
    });

    it('is disabled and says why when the server has no sign-in configured', async () => {
      renderLogin();

      expect(await screen.findByText("Sign-in with Google isn't available right now. Use your e-mail and password.")).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
    });

    it("exchanges the returned one-time code with the tab's nonce, removes it from the address and signs in", async () => {
      const codes: unknown[] = [];
      server.use(
        http.post('/api/auth/oidc/exchange', async ({ request }) => {
          codes.push(await request.json());
          return HttpResponse.json(session);
        }),
      );
      beganGoogleSignIn();

      renderLogin('/login?oauthCode=one-time-123');

      expect(await screen.findByText('Login successful! Redirecting...')).toBeInTheDocument();
      expect(codes).toEqual([{ code: 'one-time-123', browserNonce: TAB_NONCE }]);
      expect(window.sessionStorage.getItem('percolate-oidc-nonce')).toBeNull();
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
      expect(assign).toHaveBeenCalledWith(expect.stringMatching(/^\/oauth2\/authorization\/google\?browserNonce=/));
      first.unmount();

      // The provider sends the browser back to /login with a code; the page state is gone.
      let sent: unknown;
      server.use(
        http.post('/api/auth/oidc/exchange', async ({ request }) => {
          sent = await request.json();
          return HttpResponse.json(session);
        }),
      );
      renderLogin('/login?oauthCode=one-time-456');
      expect(await screen.findByText('at /chat')).toBeInTheDocument();
      expect(window.sessionStorage.getItem('percolate-after-sign-in')).toBeNull();
      expect(sent).toEqual({ code: 'one-time-456', browserNonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
      expect(assign).toHaveBeenCalledWith(`${OIDC_START_PATH}?browserNonce=${(sent as { browserNonce: string }).browserNonce}`);
    });

    it('never follows a remembered destination off the site', async () => {
      beganGoogleSignIn('//evil.example/steal');
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
      beganGoogleSignIn();

      renderLogin('/login?oauthCode=stale');

      expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link has expired.');
      expect(getAccessToken()).toBeNull();
    });

    it.each([
      ['unavailable', 'Sign-in with Google is not available on this server.'],
      ['failed', 'Sign-in with Google failed. Please try again.'],
      ['cancelled', 'Sign-in with Google was cancelled.'],
      ['email_unverified', "Your Google account's email address is not verified, so we can't sign you in with it."],
      ['no_email', "Your Google account did not share an email address, so we can't sign you in with it."],
    ])('shows the fixed message of the error code %s', async (code, message) => {
      renderLogin(`/login?oauthError=${code}`);

      expect(await screen.findByRole('alert')).toHaveTextContent(message);
    });

    it.each([
      ['text of anyone’s choosing', 'Your account is suspended. Call +1 555 0100 to restore it.'],
      ['markup', '<img src=x onerror=alert(1)>'],
      ['a name of the prototype', 'constructor'],
    ])('never shows %s from the address, only the generic message', async (_name, text) => {
      renderLogin(`/login?oauthError=${encodeURIComponent(text)}`);

      expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in with Google failed. Please try again.');
      // Nowhere on the page (the address itself is shown by the test's route printer only).
      expect(document.querySelector('form')?.textContent).not.toContain(text);
    });

    it("never exchanges a code this tab did not begin (a link someone sent), and says why", async () => {
      let exchanged = 0;
      server.use(
        http.post('/api/auth/oidc/exchange', () => {
          exchanged += 1;
          return HttpResponse.json(session);
        }),
      );

      renderLogin('/login?oauthCode=attackers-code');

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'This sign-in was started in another browser or tab. Please sign in with Google again.',
      );
      expect(screen.getByText('at /login')).toBeInTheDocument();
      expect(exchanged).toBe(0);
      expect(getAccessToken()).toBeNull();
    });

    it('asks someone signed in before the code replaces their session', async () => {
      signedInAsVictim();
      const exchanged: unknown[] = [];
      let loggedOut: string | null = null;
      server.use(
        http.post('/api/auth/oidc/exchange', async ({ request }) => {
          exchanged.push(await request.json());
          return HttpResponse.json(session);
        }),
        http.post('/api/auth/logout', ({ request }) => {
          loggedOut = request.headers.get('Authorization');
          return new HttpResponse(null, { status: 204 });
        }),
      );
      beganGoogleSignIn();
      const { user } = renderLogin('/login?oauthCode=one-time-777');

      const prompt = await screen.findByRole('region', { name: "You're already signed in" });
      expect(prompt).toHaveTextContent(
        "You're signed in as victor@example.com. Sign out and continue as the Google account you chose?",
      );
      expect(exchanged).toEqual([]);
      expect(getAccessToken()).toBe('victim-access');

      await user.click(screen.getByRole('button', { name: 'Sign out and continue' }));

      expect(await screen.findByText('Login successful! Redirecting...')).toBeInTheDocument();
      expect(loggedOut).toBe('Bearer victim-access');
      expect(exchanged).toEqual([{ code: 'one-time-777', browserNonce: TAB_NONCE }]);
      expect(getAccessToken()).toBe('access-1');
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

  });

  describe('a sign-in link', () => {
    const invalid = () =>
      HttpResponse.json(
        { code: 'INVALID_LOGIN_LINK', error: 'This sign-in link is invalid, used or expired. Please ask for a new one.', message: 'x' },
        { status: 401 },
      );

    /** The link's account (looked up, never used) and the redeems the page makes. */
    function linkFor(maskedEmail: string) {
      const looked: unknown[] = [];
      const redeemed: unknown[] = [];
      server.use(
        http.post('/api/auth/login-link/account', async ({ request }) => {
          looked.push(await request.json());
          return HttpResponse.json({ maskedEmail });
        }),
        http.post('/api/auth/login-link/redeem', async ({ request }) => {
          redeemed.push(await request.json());
          return HttpResponse.json(session);
        }),
      );
      return { looked, redeemed };
    }

    it('is not redeemed on load: the page names the account and signs in on a click', async () => {
      const { looked, redeemed } = linkFor('a•••@example.com');
      const { user } = renderLogin('/login?loginToken=link-token-1');

      expect(await screen.findByText(/This link signs you in as/)).toHaveTextContent('This link signs you in as a•••@example.com.');
      expect(looked).toEqual([{ token: 'link-token-1' }]);
      expect(redeemed).toEqual([]);
      expect(getAccessToken()).toBeNull();
      expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Sign in as a•••@example.com' }));

      expect(await screen.findByText('Login successful! Redirecting...')).toBeInTheDocument();
      expect(redeemed).toEqual([{ token: 'link-token-1' }]);
      expect(getAccessToken()).toBe('access-1');
      expect(await screen.findByText('at /login')).toBeInTheDocument();
      expect(await screen.findByText('at /dashboard')).toBeInTheDocument();
    });

    it('can be left unused for the ordinary form', async () => {
      const { redeemed } = linkFor('a•••@example.com');
      const { user } = renderLogin('/login?loginToken=link-token-1');

      await user.click(await screen.findByRole('button', { name: 'Use another account' }));

      expect(await screen.findByLabelText('Password')).toBeInTheDocument();
      expect(screen.getByText('at /login')).toBeInTheDocument();
      expect(redeemed).toEqual([]);
    });

    it('asks someone signed in first, and keeps them signed in when they say so', async () => {
      signedInAsVictim();
      const { redeemed } = linkFor('m•••@example.com');
      const { user } = renderLogin('/login?loginToken=attackers-token');

      const prompt = await screen.findByRole('region', { name: "You're already signed in" });
      expect(prompt).toHaveTextContent("You're signed in as victor@example.com. Sign out and continue as m•••@example.com?");
      expect(redeemed).toEqual([]);

      await user.click(screen.getByRole('button', { name: 'Stay signed in' }));

      expect(await screen.findByText('at /dashboard')).toBeInTheDocument();
      expect(redeemed).toEqual([]);
      expect(getAccessToken()).toBe('victim-access');
      expect(getUser()).toEqual(victim.user);
    });

    it('signs whoever is signed in out, then in with the link, when they choose to continue', async () => {
      signedInAsVictim();
      const { redeemed } = linkFor('a•••@example.com');
      let loggedOut: string | null = null;
      server.use(
        http.post('/api/auth/logout', ({ request }) => {
          loggedOut = request.headers.get('Authorization');
          return new HttpResponse(null, { status: 204 });
        }),
      );
      const { user } = renderLogin('/login?loginToken=link-token-2');

      await screen.findByRole('region', { name: "You're already signed in" });
      await user.click(screen.getByRole('button', { name: 'Sign out and continue' }));

      expect(await screen.findByText('Login successful! Redirecting...')).toBeInTheDocument();
      expect(loggedOut).toBe('Bearer victim-access');
      expect(redeemed).toEqual([{ token: 'link-token-2' }]);
      expect(getAccessToken()).toBe('access-1');
      expect(getUser()).toEqual(session.user);
    });

    it('shows a used or expired link in the banner, with the form', async () => {
      server.use(http.post('/api/auth/login-link/account', invalid));

      renderLogin('/login?loginToken=used');

      expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link is invalid, used or expired.');
      expect(screen.getByLabelText('Password')).toBeInTheDocument();
      expect(getAccessToken()).toBeNull();
    });

    it('shows why the link did not sign in when it is refused on the click', async () => {
      server.use(
        http.post('/api/auth/login-link/account', () => HttpResponse.json({ maskedEmail: 'a•••@example.com' })),
        http.post('/api/auth/login-link/redeem', invalid),
      );
      const { user } = renderLogin('/login?loginToken=raced');

      await user.click(await screen.findByRole('button', { name: 'Sign in as a•••@example.com' }));

      expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link is invalid, used or expired.');
      expect(await screen.findByText('at /login')).toBeInTheDocument();
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
