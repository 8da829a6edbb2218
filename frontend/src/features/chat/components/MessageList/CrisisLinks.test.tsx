import { http, HttpResponse } from 'msw';
import { resourcesFor } from '../../../safety/fixtures';
import { render, screen, server, within } from '../../../../test-utils';
import { CrisisLinks } from './CrisisLinks';

const proposal = vi.hoisted(() => ({ country: 'GB' as string | null }));
vi.mock('../../../safety/proposeCountry', () => ({ browserCountry: () => proposal.country, proposeCountry: () => proposal.country }));

function answerResources() {
  server.use(
    http.get('*/api/public/safety-resources', ({ request }) =>
      HttpResponse.json(resourcesFor(new URL(request.url).searchParams.get('country'))),
    ),
  );
}

describe('CrisisLinks', () => {
  it("links the UK's numbers for a browser in the UK", async () => {
    proposal.country = 'GB';
    answerResources();
    render(<CrisisLinks />);
    const nav = screen.getByRole('navigation', { name: 'Crisis resources in this reply' });
    expect(await within(nav).findByRole('link', { name: 'Call 999' })).toHaveAttribute('href', 'tel:999');
    expect(within(nav).getByRole('link', { name: 'Call 116 123 (Samaritans)' })).toHaveAttribute('href', 'tel:116123');
    expect(within(nav).queryByRole('link', { name: /988/ })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'findahelpline.com' })).toHaveAttribute('href', 'https://findahelpline.com');
  });

  it('links call and text where texting works', async () => {
    proposal.country = 'US';
    answerResources();
    render(<CrisisLinks />);
    expect(await screen.findByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911');
    expect(screen.getByRole('link', { name: 'Call 988 (988 Suicide & Crisis Lifeline)' })).toHaveAttribute('href', 'tel:988');
    expect(screen.getByRole('link', { name: 'Text 988 (988 Suicide & Crisis Lifeline)' })).toHaveAttribute('href', 'sms:988');
  });

  it('offers only findahelpline.com where the table has no lines', async () => {
    proposal.country = null;
    answerResources();
    render(<CrisisLinks />);
    const nav = screen.getByRole('navigation', { name: 'Crisis resources in this reply' });
    expect(within(nav).getByRole('link', { name: 'findahelpline.com' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: /^Call/ })).toBeNull();
  });
});
