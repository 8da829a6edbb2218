import { render, screen, setSupportEmail, within } from '../../test-utils';
import { content } from '../../content/content';
import { TeamPage } from './TeamPage';

describe('TeamPage', () => {
  it('shows three member cards from the content file, marked as samples', () => {
    render(<TeamPage />);

    expect(screen.getByRole('heading', { level: 1, name: 'Meet the Team' })).toBeInTheDocument();
    const cards = screen.getAllByTestId('team-member');
    expect(cards).toHaveLength(3);
    const first = within(cards[0]);
    const m = content.team[0];
    expect(first.getByText('Founder & Senior Developer')).toBeInTheDocument();
    for (const text of [m.school, m.degree, m.classYear]) expect(first.getByText(text)).toBeInTheDocument();
    const photo = first.getByRole('img', { name: `Photo of ${m.name}` });
    expect(photo).toHaveAttribute('width', '96');
    expect(photo).toHaveAttribute('height', '96');
    expect(first.getByRole('link', { name: `${m.name} on LinkedIn` })).toHaveAttribute('href', m.professionalNetworkUrl);
    expect(first.getByRole('link', { name: `${m.name} on GitHub` })).toHaveAttribute('href', m.codeHostingUrl);
    expect(first.getByText('Sample profile')).toBeInTheDocument();
    expect(within(cards[1]).getByText('Research Coordinator & Social Media Developer')).toBeInTheDocument();
    expect(within(cards[2]).getByText('Co-Founder & Senior Developer')).toBeInTheDocument();
  });

  it('keeps Our Story closed until its header is clicked, and closes it again', async () => {
    const { user } = render(<TeamPage />);
    const header = screen.getByRole('button', { name: 'Our Story' });
    const firstParagraph = screen.getByText(content.story[0]);

    expect(header).toHaveAttribute('aria-expanded', 'false');
    expect(firstParagraph).not.toBeVisible();

    await user.click(header);
    expect(header).toHaveAttribute('aria-expanded', 'true');
    expect(firstParagraph).toBeVisible();

    await user.click(header);
    expect(firstParagraph).not.toBeVisible();
  });

  it('has the contact block with the mailbox at #contact and scrolls to it on /team#contact', () => {
    const scroll = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    setSupportEmail('care@uni.example');
    const { container } = render(<TeamPage />, { route: '/team#contact' });

    const block = container.querySelector('#contact') as HTMLElement;
    expect(within(block).getByRole('heading', { name: 'Interested in joining us?' })).toBeInTheDocument();
    expect(block).toHaveTextContent('Contact Us');
    expect(within(block).getByRole('link', { name: 'care@uni.example' })).toHaveAttribute(
      'href',
      'mailto:care@uni.example',
    );
    expect(within(block).getByRole('form', { name: 'Contact form' })).toBeInTheDocument();
    expect(scroll).toHaveBeenCalled();
    expect(scroll.mock.contexts[0]).toBe(block);
  });

  it('does not scroll without the anchor', () => {
    const scroll = vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView');
    render(<TeamPage />, { route: '/team' });
    expect(scroll).not.toHaveBeenCalled();
  });

  it('lists the two open positions with disabled apply buttons', () => {
    render(<TeamPage />);
    const section = screen.getByRole('region', { name: 'Available Positions' });
    const cards = within(section).getAllByTestId('position');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByRole('heading', { name: 'Technical Assistant' })).toBeInTheDocument();
    expect(within(cards[1]).getByRole('heading', { name: 'Social Media Coordinator' })).toBeInTheDocument();
    for (const card of cards) {
      expect(card).toHaveTextContent('Age 18+');
      expect(card).toHaveTextContent('college student');
      expect(within(card).getByRole('button', { name: 'Apply Now (Coming Soon)' })).toBeDisabled();
    }
  });
});
