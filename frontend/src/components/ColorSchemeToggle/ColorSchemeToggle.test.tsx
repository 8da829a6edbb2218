import { render, screen } from '../../test-utils';
import { ColorSchemeToggle } from './ColorSchemeToggle';

describe('ColorSchemeToggle', () => {
  it('switches between light and dark and remembers the choice', async () => {
    const { user } = render(<ColorSchemeToggle />);

    // jsdom reports no dark preference, so "auto" resolves to light.
    await user.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(window.localStorage.getItem('percolate-color-scheme')).toBe('dark');

    await user.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(window.localStorage.getItem('percolate-color-scheme')).toBe('light');
  });
});
