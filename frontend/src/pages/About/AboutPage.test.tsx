import { vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { aUser, render, screen, server, within } from '../../test-utils';
import { entitlementsOf } from '../../test-utils/fixtures';
import { getGetClientConfigResponseMock } from '../../api/gen/public/public.msw';
import { setTokens } from '../../auth/storage';
import { AboutPage } from './AboutPage';
import { UPGRADES_UNAVAILABLE } from './PricingPlans';

/** The server's entitlement table, as GET /api/public/config gives it. */
const plans = { free: entitlementsOf.USER, basic: entitlementsOf.BASIC, premium: entitlementsOf.PREMIUM };

function withPayments(payments: boolean) {
  return getGetClientConfigResponseMock({ oidcSignIn: false, payments, offlineCompanion: false, serverSpeech: false, transcription: false, plans });
}

// Payments are configured unless a test says otherwise (the server's answer is read before any click).
beforeEach(() => {
  server.use(http.get('/api/public/config', () => HttpResponse.json(withPayments(true))));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('AboutPage', () => {
  it('expands the explanation and the four steps with Learn More', async () => {
    const { user } = render(<AboutPage />);
    const learnMore = screen.getByRole('button', { name: 'Learn More' });
    const howTo = screen.getByRole('heading', { name: 'How to Begin', hidden: true });

    expect(learnMore).toHaveAttribute('aria-expanded', 'false');
    expect(howTo).not.toBeVisible();

    await user.click(learnMore);
    expect(learnMore).toHaveAttribute('aria-expanded', 'true');
    expect(howTo).toBeVisible();
    const steps = within(howTo.parentElement as HTMLElement).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent?.split('.')[0])).toEqual([
      'Create a profile',
      'Register',
      'Subscribe or stay free',
      'Chat',
    ]);
  });

  it('has collapsible sections', async () => {
    const { user } = render(<AboutPage />);
    const header = screen.getByRole('button', { name: 'Your privacy' });
    expect(header).toHaveAttribute('aria-expanded', 'false');
    await user.click(header);
    expect(header).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows the three plans at their prices; signed out, Subscribe leads to login', () => {
    render(<AboutPage />);
    const boxes = screen.getAllByTestId('pricing-box');
    expect(boxes).toHaveLength(3);
    expect(within(boxes[0]).getByRole('heading', { name: 'Free Model' })).toBeInTheDocument();
    expect(boxes[0]).toHaveTextContent('Free');
    expect(within(boxes[1]).getByRole('heading', { name: 'Basic Bundle' })).toBeInTheDocument();
    expect(boxes[1]).toHaveTextContent('$6.99/month');
    expect(boxes[1]).toHaveTextContent('Voice interaction');
    expect(within(boxes[2]).getByRole('heading', { name: 'Premium Bundle' })).toBeInTheDocument();
    expect(boxes[2]).toHaveTextContent('$16.99/month');
    expect(boxes[2]).toHaveTextContent('Weekly coaching');
    for (const box of boxes.slice(1)) {
      expect(within(box).getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', '/login');
    }
    expect(within(boxes[0]).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/team');
  });

  it("says what each plan includes from the server's entitlement table, not a copy of its own (issue 36)", async () => {
    render(<AboutPage />);
    const boxes = screen.getAllByTestId('pricing-box');
    expect(await within(boxes[0]).findByText(`A message limit: ${plans.free.messagesPerDay} messages a day`)).toBeInTheDocument();
    expect(boxes[0]).not.toHaveTextContent(/monthly/i);
    expect(within(boxes[1]).getByText(`Higher message limit: ${plans.basic.messagesPerDay} messages a day`)).toBeInTheDocument();
    expect(within(boxes[1]).getByText(`Voice interaction: ${plans.basic.voicePerDay} voice messages a day`)).toBeInTheDocument();
    // Weekly insight reports are Premium's alone; Basic's "sentiment insights" are its sessions' emotions.
    expect(boxes[1]).not.toHaveTextContent(/weekly/i);
    expect(within(boxes[2]).getByText('Weekly coaching: weekly insight reports')).toBeInTheDocument();
    expect(within(boxes[2]).getByText(`Higher voice limit: ${plans.premium.voicePerDay} voice messages a day`)).toBeInTheDocument();
  });

  it('does not send a signed-in user to login from the paid plans', async () => {
    setTokens('a', 'r');
    server.use(http.get('/api/auth/me', () => HttpResponse.json(aUser())));
    render(<AboutPage />);
    expect(await screen.findByRole('link', { name: 'Start Chatting' })).toHaveAttribute('href', '/chat');
    expect(screen.queryByRole('link', { name: 'Subscribe' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Subscribe' })).toHaveLength(2);
  });

  it('opens checkout for a plan in a new tab', async () => {
    setTokens('a', 'r');
    let plan = '';
    server.use(
      http.get('/api/auth/me', () => HttpResponse.json(aUser())),
      http.post('/api/subscription/checkout', async ({ request }) => {
        plan = ((await request.json()) as { plan: string }).plan;
        return HttpResponse.json({ url: 'https://checkout.example/cs' });
      }),
    );
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user } = render(<AboutPage />);
    const boxes = await screen.findAllByTestId('pricing-box');
    await user.click(await within(boxes[2]).findByRole('button', { name: 'Subscribe' }));
    await vi.waitFor(() => expect(tab.location.href).toBe('https://checkout.example/cs'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(plan).toBe('PREMIUM');
    open.mockRestore();
  });

  it("switches both plans to 'Manage Subscription' when the server says the user already subscribes", async () => {
    setTokens('a', 'r');
    server.use(
      http.get('/api/auth/me', () => HttpResponse.json(aUser())),
      http.post('/api/subscription/checkout', () =>
        new HttpResponse('Head to your profile to manage your subscription.', { status: 400, headers: { 'Content-Type': 'text/plain' } }),
      ),
    );
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user } = render(<AboutPage />);
    await user.click((await screen.findAllByRole('button', { name: 'Subscribe' }))[0]);
    expect(await screen.findAllByRole('button', { name: 'Manage Subscription' })).toHaveLength(2);
    expect(tab.close).toHaveBeenCalled();
    open.mockRestore();
  });

  it('shows the checkout error banner', async () => {
    setTokens('a', 'r');
    server.use(
      http.get('/api/auth/me', () => HttpResponse.json(aUser())),
      http.post('/api/subscription/checkout', () => HttpResponse.json({ code: 'X', error: 'x', message: 'x' }, { status: 503 })),
    );
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { user } = render(<AboutPage />);
    await user.click((await screen.findAllByRole('button', { name: 'Subscribe' }))[1]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to start subscription process. Please try again.');
    open.mockRestore();
  });

  it("offers 'Manage Subscription' to a subscriber and opens the portal", async () => {
    setTokens('a', 'r');
    server.use(
      http.get('/api/auth/me', () => HttpResponse.json(aUser({ role: 'BASIC' }))),
      http.post('/api/subscription/portal', () => HttpResponse.json({ url: 'https://portal.example/p' })),
    );
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { user } = render(<AboutPage />);
    const manage = await screen.findAllByRole('button', { name: 'Manage Subscription' });
    expect(manage).toHaveLength(2);
    await user.click(manage[0]);
    await vi.waitFor(() => expect(tab.location.href).toBe('https://portal.example/p'));
    open.mockRestore();
  });
});

describe('AboutPage without payments', () => {
  beforeEach(() => {
    server.use(http.get('/api/public/config', () => HttpResponse.json(withPayments(false))));
  });

  it('says upgrades are unavailable and disables Subscribe for a visitor', async () => {
    render(<AboutPage />);
    const boxes = screen.getAllByTestId('pricing-box');
    for (const box of boxes.slice(1)) {
      expect(await within(box).findByTestId('upgrades-unavailable')).toHaveTextContent(UPGRADES_UNAVAILABLE);
      const button = within(box).getByRole('button', { name: 'Subscribe' });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(UPGRADES_UNAVAILABLE);
      expect(within(box).queryByRole('link', { name: 'Subscribe' })).toBeNull();
    }
    // The free plan is untouched.
    expect(within(boxes[0]).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
    expect(within(boxes[0]).queryByTestId('upgrades-unavailable')).toBeNull();
  });

  it('never asks for checkout or opens a tab for a signed-in user', async () => {
    setTokens('a', 'r');
    server.use(http.get('/api/auth/me', () => HttpResponse.json(aUser())));
    const open = vi.spyOn(window, 'open');
    const { user } = render(<AboutPage />);
    expect(await screen.findByRole('link', { name: 'Start Chatting' })).toBeInTheDocument();
    const buttons = await screen.findAllByRole('button', { name: 'Subscribe' });
    await vi.waitFor(() => expect(buttons[0]).toBeDisabled());
    for (const b of screen.getAllByRole('button', { name: 'Subscribe' })) {
      expect(b).toBeDisabled();
      await user.click(b).catch(() => {}); // pointer-events: none on a disabled button
    }
    // No checkout handler is declared: MSW would fail the test had one been sent.
    expect(open).not.toHaveBeenCalled();
    expect(screen.getAllByTestId('upgrades-unavailable')).toHaveLength(2);
  });

  it("disables 'Manage Subscription' for a subscriber too", async () => {
    setTokens('a', 'r');
    server.use(http.get('/api/auth/me', () => HttpResponse.json(aUser({ role: 'PREMIUM' }))));
    render(<AboutPage />);
    await vi.waitFor(() => expect(screen.getAllByRole('button', { name: 'Manage Subscription' })).toHaveLength(2));
    for (const b of screen.getAllByRole('button', { name: 'Manage Subscription' })) expect(b).toBeDisabled();
  });
});

describe('AboutPage voice lock', () => {
  it('shows the voice-locked indicator to a free user sent here from the chat', () => {
    render(<AboutPage />, { route: { pathname: '/about', state: { voiceLocked: true } } });
    expect(screen.getByTestId('voice-locked')).toHaveTextContent('Voice conversations are part of the Basic and Premium bundles.');
  });

  it('does not show it otherwise', () => {
    render(<AboutPage />);
    expect(screen.queryByTestId('voice-locked')).toBeNull();
  });
});
