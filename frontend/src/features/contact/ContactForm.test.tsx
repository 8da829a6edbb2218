import { delay, http, HttpResponse } from 'msw';
import { render, screen, server, validationError } from '../../test-utils';
import { ContactForm } from './ContactForm';

async function fill(user: ReturnType<typeof render>['user'], message = 'Hello there') {
  await user.type(screen.getByRole('textbox', { name: /name/i }), 'Ada');
  await user.type(screen.getByRole('textbox', { name: /email/i }), 'ada@example.com');
  await user.type(screen.getByRole('textbox', { name: /message/i }), message);
}

describe('ContactForm', () => {
  it('sends the message, shows sending and then the server’s thanks', async () => {
    let body: unknown;
    server.use(
      http.post('/api/public/contact', async ({ request }) => {
        body = await request.json();
        await delay(50);
        return HttpResponse.json({ message: 'Thanks for reaching out!' }, { status: 202 });
      }),
    );
    const { user } = render(<ContactForm />);

    await fill(user);
    expect(screen.getByText('11/5000 characters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(screen.getByRole('button', { name: /Send Message/ })).toHaveAttribute('data-loading', 'true');
    expect(await screen.findByText('Thanks for reaching out!')).toBeInTheDocument();
    expect(body).toEqual({ name: 'Ada', email: 'ada@example.com', message: 'Hello there', website: '' });
  });

  it('shows the server’s field errors under the inputs', async () => {
    server.use(
      http.post('/api/public/contact', () =>
        validationError('Please fix the errors below.', { email: 'Please enter a valid email address.' }),
      ),
    );
    const { user } = render(<ContactForm />);

    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /email/i })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Please fix the errors below.');
    // The typed text stays for correcting.
    expect(screen.getByRole('textbox', { name: /message/i })).toHaveValue('Hello there');
  });

  it('shows the rate-limit message', async () => {
    server.use(
      http.post('/api/public/contact', () =>
        HttpResponse.json(
          { code: 'RATE_LIMITED', error: 'Please wait a while.', message: 'Please wait a while.' },
          { status: 429, headers: { 'Retry-After': '3000' } },
        ),
      ),
    );
    const { user } = render(<ContactForm />);

    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Please wait a while.');
  });

  it('shows a generic error when the network fails', async () => {
    server.use(http.post('/api/public/contact', () => HttpResponse.error()));
    const { user } = render(<ContactForm />);

    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(await screen.findByRole('alert')).toHaveTextContent("We couldn't send your message. Please try again.");
  });

  it('keeps the honeypot out of reach and caps the message at 5000 characters', () => {
    const { container } = render(<ContactForm />);
    const honeypot = container.querySelector('input[name="website"]') as HTMLInputElement;
    expect(honeypot).toHaveAttribute('tabindex', '-1');
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.getByRole('textbox', { name: /message/i })).toHaveAttribute('maxlength', '5000');
    expect(screen.queryByRole('textbox', { name: /website/i })).not.toBeInTheDocument();
  });
});
