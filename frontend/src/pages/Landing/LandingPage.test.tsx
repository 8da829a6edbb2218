import { render, screen, within } from '../../test-utils';
import { content } from '../../content/content';
import { LandingPage } from './LandingPage';

describe('LandingPage', () => {
  it('has the hero, the features, three testimonials, the join button and the contact band', () => {
    render(<LandingPage />);

    expect(screen.getByRole('heading', { level: 1, name: 'Find Clarity with Percolate' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try the AI' })).toHaveAttribute('href', '/chat');

    const features = screen.getByRole('region', { name: 'Core Features' });
    for (const name of ['Guided Dialogues', 'Reflective Journaling', 'Emotional Insights']) {
      expect(within(features).getByRole('heading', { level: 3, name })).toBeInTheDocument();
    }

    const says = screen.getByRole('region', { name: 'What People Say' });
    const cards = within(says).getAllByTestId('testimonial');
    expect(cards).toHaveLength(3);
    expect(cards[0]).toHaveTextContent(content.testimonials[0].quote);

    expect(screen.getByRole('link', { name: 'Join Percolate' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/team#contact');
  });

  it('says when the testimonials are samples', () => {
    render(<LandingPage />);
    expect(content.sample).toBe(true);
    expect(screen.getByText(/Sample testimonials/)).toBeInTheDocument();
  });

  it('decorates with 30 hidden coffee beans of the spec sizes and opacities', () => {
    render(<LandingPage />);

    const layer = screen.getByTestId('coffee-beans');
    expect(layer).toHaveAttribute('aria-hidden', 'true');
    const beans = layer.querySelectorAll('img');
    expect(beans).toHaveLength(30);
    for (const img of beans) {
      expect(img).toHaveAttribute('alt', '');
      const size = Number(img.getAttribute('width'));
      expect(size).toBeGreaterThanOrEqual(30);
      expect(size).toBeLessThanOrEqual(45);
      expect(img.getAttribute('height')).toBe(String(size));
      const opacity = Number(img.style.opacity);
      expect(opacity).toBeGreaterThanOrEqual(0.3);
      expect(opacity).toBeLessThanOrEqual(0.7);
    }
    // One asset, used 30 times.
    expect(new Set([...beans].map((b) => b.getAttribute('src'))).size).toBe(1);
  });

  it('animates features in at 20% and testimonials at 10% visibility', () => {
    const { container } = render(<LandingPage />);
    const thresholds = [...container.querySelectorAll('[data-threshold]')].map((n) => n.getAttribute('data-threshold'));
    expect(thresholds.filter((t) => t === '0.2')).toHaveLength(3);
    expect(thresholds.filter((t) => t === '0.1')).toHaveLength(3);
  });
});
