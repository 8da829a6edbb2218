import { http, HttpResponse } from 'msw';
import { resourcesFor } from '../../features/safety/fixtures';
import { render, screen, server, within } from '../../test-utils';
import { SafetyPage } from './SafetyPage';

const proposal = vi.hoisted(() => ({ country: 'GB' as string | null }));
vi.mock('../../features/safety/proposeCountry', () => ({ browserCountry: () => proposal.country, proposeCountry: () => proposal.country }));

beforeEach(() => {
  proposal.country = 'GB';
  server.use(
    http.get('*/api/public/safety-resources', ({ request }) =>
      HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
    ),
  );
});

describe('SafetyPage', () => {
  it("shows the lines of the reader's country, signed out, with working links", async () => {
    render(<SafetyPage />);
    const danger = await screen.findByRole('alert');
    expect(await within(danger).findByRole('link', { name: '999' })).toHaveAttribute('href', 'tel:999');
    expect(within(danger).getByRole('link', { name: '116 123' })).toHaveAttribute('href', 'tel:116123');
    expect(danger.textContent).toContain('United Kingdom: call 999');
    expect(danger.textContent).not.toContain('988');
    expect(within(danger).getAllByRole('link', { name: 'Checked 2026-11-29' })[0]).toHaveAttribute('href', 'https://www.samaritans.org/');
  });

  it('shows another country on request, and findahelpline.com where the table has none', async () => {
    proposal.country = 'ZZ';
    const { user } = render(<SafetyPage />);
    const danger = await screen.findByRole('alert');
    expect(await within(danger).findByText('Call your local emergency number.')).toBeInTheDocument();
    await user.click(within(danger).getByRole('combobox', { name: 'Showing lines for' }));
    await user.click(await screen.findByRole('option', { name: 'United States' }));
    expect(await within(danger).findByRole('link', { name: '911' })).toHaveAttribute('href', 'tel:911');
    expect(within(danger).getAllByRole('link', { name: '988' }).map((a) => a.getAttribute('href'))).toEqual(['tel:988', 'sms:988']);
  });

  it('publishes the crisis resources and the protocol', async () => {
    const { container } = render(<SafetyPage />);
    await screen.findByRole('link', { name: '999' });
    const text = container.textContent ?? '';

    expect(text).toContain('local emergency number');
    expect(screen.getByRole('link', { name: 'findahelpline.com' })).toHaveAttribute('href', 'https://findahelpline.com');
    expect(text).toContain('Percolate is an AI, not a person or a therapist');
    expect(text).toContain('not a substitute for professional care');
    expect(text).toContain('Companion chatbots may not be suitable for some minors');
    expect(screen.getByRole('heading', { name: 'What happens when someone may be at risk' })).toBeInTheDocument();
    expect(text).not.toMatch(/\btherapy\b/i);
  });

  it('describes the layers, what is stored and the limits', async () => {
    const { container } = render(<SafetyPage />);
    await screen.findByRole('link', { name: '999' });
    const text = container.textContent ?? '';

    expect(text).toContain('A check on our own server');
    expect(text).toContain('works even when the AI is unavailable');
    expect(text).toContain('are you thinking about hurting yourself or ending your life?');
    expect(screen.getByRole('heading', { name: 'What is stored, and what is not' })).toBeInTheDocument();
    expect(text).toContain('These are counts only: no name, no account and no message content');
    expect(screen.getByRole('heading', { name: 'The limits' })).toBeInTheDocument();
    expect(text).toContain('Percolate is not an emergency service.');
  });
});
