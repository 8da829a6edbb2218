import { render, screen } from '../../test-utils';
import { SafetyPage } from './SafetyPage';

describe('SafetyPage', () => {
  it('publishes the crisis resources and the protocol', () => {
    const { container } = render(<SafetyPage />);
    const text = container.textContent ?? '';

    expect(text).toContain('call or text 988');
    expect(text).toContain('text HOME to 741741');
    expect(text).toContain('local emergency number');
    expect(screen.getByRole('link', { name: 'findahelpline.com' })).toHaveAttribute('href', 'https://findahelpline.com');
    expect(text).toContain('Percolate is an AI, not a person or a therapist');
    expect(text).toContain('not a substitute for professional care');
    expect(text).toContain('Companion chatbots may not be suitable for some minors');
    expect(screen.getByRole('heading', { name: 'What happens when someone may be at risk' })).toBeInTheDocument();
    expect(text).not.toMatch(/\btherapy\b/i);
  });

  it('describes the layers, what is stored and the limits', () => {
    const { container } = render(<SafetyPage />);
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
