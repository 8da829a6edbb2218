import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { render, screen, server } from '../../test-utils';
import { ResetPage } from './ResetPage';

function renderReset(route = '/reset?token=tok-1') {
  return render(
    <Routes>
      <Route path="/reset" element={<ResetPage />} />
      <Route path="/login" element={<p>login page</p>} />
    </Routes>,
    { route },
  );
}

async function fillBoth(user: ReturnType<typeof renderReset>['user']) {
  await user.type(screen.getByLabelText('New Password'), 'a new secret phrase');
  await user.type(screen.getByLabelText('Confirm New Password'), 'a new secret phrase');
}

// Form tests type a lot and some wait for real redirect delays; the machine is shared.
vi.setConfig({ testTimeout: 30_000 });

describe('ResetPage', () => {
  it('without a token says so and disables Reset Password', () => {
    renderReset('/reset');

    expect(screen.getByRole('alert')).toHaveTextContent(
      'Invalid or missing reset token. Please request a new password reset.',
    );
    expect(screen.getByRole('button', { name: 'Reset Password' })).toBeDisabled();
  });

  it('asks for both fields', async () => {
    const { user } = renderReset();
    await user.type(screen.getByLabelText('New Password'), 'only one');

    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in both password fields.');
  });

  it('sends both passwords with the token, shows the server text and goes to /login after 3 seconds', async () => {
    let seen: { token: string | null; body: unknown } | null = null;
    server.use(
      http.put('/api/public/reset-password', async ({ request }) => {
        seen = { token: new URL(request.url).searchParams.get('token'), body: await request.json() };
        return HttpResponse.text('Your password has been reset. You can now sign in.');
      }),
    );
    const { user } = renderReset();
    await fillBoth(user);

    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByText('Your password has been reset. You can now sign in.')).toBeInTheDocument();
    expect(seen).toEqual({
      token: 'tok-1',
      body: { password: 'a new secret phrase', confirmPassword: 'a new secret phrase' },
    });
    expect(screen.queryByText('login page')).not.toBeInTheDocument();
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });

  it.each([
    ['a string body as it is', () => HttpResponse.text('This reset link has expired.', { status: 400 }), 'This reset link has expired.'],
    ['the fallback', () => new HttpResponse(null, { status: 500 }), 'Failed to reset password'],
    ['the no-response text', () => HttpResponse.error(), 'Failed to reset password. Please try again.'],
  ])('shows %s on failure', async (_name, answer, expected) => {
    server.use(http.put('/api/public/reset-password', answer));
    const { user } = renderReset();
    await fillBoth(user);

    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(expected);
    expect(alert.textContent).toBe(expected);
  });

  it('Back to Login goes to /login', async () => {
    const { user } = renderReset();

    await user.click(screen.getByRole('button', { name: 'Back to Login' }));

    expect(screen.getByText('login page')).toBeInTheDocument();
  });
});
