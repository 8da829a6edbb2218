import { fireEvent } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router';
import { render, screen, server, validationError } from '../../test-utils';
import { RegisterPage } from './RegisterPage';

function renderRegister() {
  return render(
    <Routes>
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/login" element={<p>login page</p>} />
    </Routes>,
    { route: '/register' },
  );
}

type User = ReturnType<typeof renderRegister>['user'];

async function fillForm(user: User) {
  await user.type(screen.getByLabelText('Full Name'), 'Ada Lovelace');
  await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'analytical engine');
  await user.type(screen.getByLabelText('Confirm Password'), 'analytical engine');
}

// Form tests type a lot and some wait for real redirect delays; the machine is shared.
vi.setConfig({ testTimeout: 30_000 });

describe('RegisterPage', () => {
  it('keeps Create Account disabled until the privacy box is checked; the policy opens in a new tab', async () => {
    const { user } = renderRegister();

    const button = screen.getByRole('button', { name: 'Create Account' });
    expect(button).toBeDisabled();
    const link = screen.getByRole('link', { name: 'Privacy Policy' });
    expect(link).toHaveAttribute('href', '/privacy');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');

    await user.click(screen.getByRole('checkbox'));
    expect(button).toBeEnabled();
  });

  it('refuses to submit without agreement', async () => {
    // No handler: a request would fail the test.
    const { user } = renderRegister();
    await fillForm(user);

    fireEvent.submit(screen.getByRole('form', { name: 'Create Account' }));

    expect(await screen.findByText('You must agree to the Privacy Policy')).toBeInTheDocument();
  });

  it("registers, shows the server's message, clears the form and goes to /login after 3 seconds", async () => {
    let body: unknown;
    server.use(
      http.post('/api/auth/register', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ message: 'Registration successful. Please check your email to verify your account.' });
      }),
    );
    const { user } = renderRegister();
    await fillForm(user);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(
      await screen.findByText('Registration successful. Please check your email to verify your account.'),
    ).toBeInTheDocument();
    expect(body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'analytical engine',
      confirmPassword: 'analytical engine',
    });
    expect(screen.getByText(/We sent a link to/)).toHaveTextContent('We sent a link to ada@example.com — check your inbox.');
    expect(screen.getByLabelText('Full Name')).toHaveValue('');
    expect(screen.getByLabelText('Email Address')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Confirm Password')).toHaveValue('');
    expect(screen.queryByText('login page')).not.toBeInTheDocument();
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });

  it('shows the server field errors under the inputs and its error in the banner', async () => {
    server.use(
      http.post('/api/auth/register', () =>
        validationError('Invalid input', {
          name: 'Name is required',
          email: 'Enter a valid e-mail address',
          password: 'Password must be at least 8 characters',
          confirmPassword: 'Passwords do not match',
        }),
      ),
    );
    const { user } = renderRegister();
    await fillForm(user);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid input');
    expect(screen.getByLabelText('Full Name')).toHaveAccessibleDescription('Name is required');
    expect(screen.getByLabelText('Email Address')).toHaveAccessibleDescription('Enter a valid e-mail address');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password must be at least 8 characters');
    expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription('Passwords do not match');
    expect(screen.getByLabelText('Full Name')).toHaveValue('Ada Lovelace');
  });

  it.each([
    ['the error message', () => HttpResponse.error(), 'Failed to fetch'],
    ['the summary of a bare failure', () => new HttpResponse(null, { status: 500 }), 'Request failed with status 500'],
  ])('falls back to %s', async (_name, answer, expected) => {
    server.use(http.post('/api/auth/register', answer));
    const { user } = renderRegister();
    await fillForm(user);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
  });
});
