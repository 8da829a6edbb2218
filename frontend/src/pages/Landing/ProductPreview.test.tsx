import { render, screen, within } from '../../test-utils';
import { LandingPage } from './LandingPage';
import { SAMPLE_CHAT, SAMPLE_WEEK } from './ProductPreview';

describe('the landing page product preview', () => {
  it('shows a sample conversation in the chat’s bubbles, each said by someone', () => {
    render(<LandingPage />);

    const hero = screen.getByRole('region', { name: 'Find Clarity with Percolate' });
    const excerpt = within(hero).getByRole('figure', { name: 'A sample conversation' });
    const lines = excerpt.querySelectorAll('[data-role]:not([data-role] [data-role])');
    expect(lines).toHaveLength(SAMPLE_CHAT.length);
    expect(SAMPLE_CHAT.length).toBeGreaterThanOrEqual(3);
    SAMPLE_CHAT.forEach((m, i) => {
      expect(lines[i]).toHaveAttribute('data-role', m.role);
      expect(lines[i]).toHaveTextContent(`${m.role === 'user' ? 'You said:' : 'Percolate said:'} ${m.text}`);
    });
    // Rendered as text, not as a picture of a chat.
    expect(excerpt.querySelector('img')).toBeNull();
  });

  it('shows a week’s insight: its themes and a feelings bar with its numbers in words', () => {
    render(<LandingPage />);

    const card = screen.getByRole('region', { name: 'A sample weekly insight' });
    const themes = within(card).getByRole('list', { name: 'Themes that returned' });
    expect(within(themes).getAllByRole('listitem').map((li) => li.textContent)).toEqual([...SAMPLE_WEEK.themes]);
    expect(within(card).getByRole('img', { name: 'Feelings this week: anxiety 3, hope 2, calm 1' })).toBeInTheDocument();
    expect(within(card).getByText(/One idea for the week ahead:/)).toBeInTheDocument();
  });

  it('keeps every string the spec gives the landing page around it', () => {
    render(<LandingPage />);

    expect(screen.getByRole('heading', { level: 1, name: 'Find Clarity with Percolate' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try the AI' })).toHaveAttribute('href', '/chat');
    for (const name of ['Core Features', 'What People Say']) {
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    }
    for (const name of ['Guided Dialogues', 'Reflective Journaling', 'Emotional Insights']) {
      expect(screen.getByRole('heading', { level: 3, name })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Join Percolate' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/team#contact');
    expect(screen.getByTestId('coffee-beans').querySelectorAll('img')).toHaveLength(30);
  });
});
