import { act } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import { render, screen, server } from '../../test-utils';
import { EmailVerifiedPage } from './EmailVerifiedPage';

/** Stands for the login page, and shows the address the landing passed to it. */
function LoginProbe() {
  const state = useLocation().state as { verifiedEmail?: string } | null;
  return <p>login page{state?.verifiedEmail ? ` for ${state.verifiedEmail}` : ''}</p>;
}

function renderPage(route: string) {
  return render(
    <Routes>
      <Route path="/email-verified" element={<EmailVerifiedPage />} />
      <Route path="/login" element={<LoginProbe />} />
    </Routes>,
    { route },
  );
}

// Form tests type a lot and some wait for real redirect delays; the machine is shared.
vi.setConfig({ testTimeout: 30_000 });

describe('EmailVerifiedPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a loading state, then success with a 10-second countdown to /login', async () => {
    let asked: string | null = null;
    server.use(
      http.get('/api/auth/verify', ({ request }) => {
        asked = new URL(request.url).searchParams.get('t');
        return HttpResponse.text('Your e-mail address is verified. You can now sign in.');
      }),
    );
    vi.useFakeTimers({ shouldAdvanceTime: true });

    renderPage('/email-verified?t=verify-1');

    expect(screen.getByText('Verifying your email...')).toBeInTheDocument();
    expect(await screen.findByText('Email Verified!')).toBeInTheDocument();
    expect(screen.getByText('Your e-mail address is verified. You can now sign in.')).toBeInTheDocument();
    expect(asked).toBe('verify-1');
    expect(screen.getByText('Redirecting to login in 10 seconds...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue to Login' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');

    await act(async () => {
      vi.advanceTimersByTime(9000);
    });
    expect(screen.getByText('Redirecting to login in 1 second...')).toBeInTheDocument();
    expect(screen.queryByText('login page')).not.toBeInTheDocument();

    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByText('login page')).toBeInTheDocument();
  });

  it('passes the verified address to /login, so its form has it filled in', async () => {
    server.use(http.get('/api/auth/verify', () => HttpResponse.text('Verified.')));
    const { user } = renderPage('/email-verified?t=verify-1&email=ada%2Bx%40example.com');
    await user.click(await screen.findByRole('button', { name: 'Continue to Login' }));
    expect(screen.getByText('login page for ada+x@example.com')).toBeInTheDocument();
  });

  it('Continue to Login goes straight to /login', async () => {
    server.use(http.get('/api/auth/verify', () => HttpResponse.text('Verified.')));
    const { user } = renderPage('/email-verified?t=verify-1');

    await user.click(await screen.findByRole('button', { name: 'Continue to Login' }));

    expect(screen.getByText('login page')).toBeInTheDocument();
  });

  it('without t says the link is invalid and asks the server nothing', async () => {
    const { user } = renderPage('/email-verified');

    expect(screen.getByRole('alert')).toHaveTextContent('Invalid verification link');
    expect(screen.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/team#contact');
    await user.click(screen.getByRole('button', { name: 'Go to Login' }));
    expect(screen.getByText('login page')).toBeInTheDocument();
  });

  it.each([
    ['the response text', () => HttpResponse.text('This verification link has expired.', { status: 400 }), 'This verification link has expired.'],
    ['the fallback', () => new HttpResponse(null, { status: 500 }), 'Email verification failed'],
    ['the network message', () => HttpResponse.error(), 'An error occurred during verification. Please try again.'],
  ])('shows %s when verification fails', async (_name, answer, expected) => {
    server.use(http.get('/api/auth/verify', answer));

    renderPage('/email-verified?t=bad');

    expect(await screen.findByText('Verification Failed')).toBeInTheDocument();
    expect(screen.getByRole('alert').textContent).toBe(expected);
    expect(screen.getByRole('button', { name: 'Go to Login' })).toBeInTheDocument();
  });
});
