import { applyInitialColorScheme } from './colorScheme';
import { COLOR_SCHEME_STORAGE_KEY } from './theme';

function stubSystemPreference(dark: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) => ({ matches: dark && query.includes('dark'), media: query }) as MediaQueryList,
  );
}

describe('applyInitialColorScheme', () => {
  afterEach(() => document.documentElement.removeAttribute('data-mantine-color-scheme'));

  it('uses the remembered choice over the system preference', () => {
    stubSystemPreference(true);
    window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'light');

    applyInitialColorScheme();

    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  it('follows the system preference when the choice is auto or unset', () => {
    stubSystemPreference(true);
    window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, 'auto');

    applyInitialColorScheme();

    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });
});
