import { COLOR_SCHEME_STORAGE_KEY } from './theme';

/**
 * Sets data-mantine-color-scheme on <html> before React renders, doing the job
 * of Mantine's ColorSchemeScript without an inline script (the CSP forbids
 * those). MantineProvider keeps the attribute in sync afterwards.
 */
export function applyInitialColorScheme(): void {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(COLOR_SCHEME_STORAGE_KEY);
  } catch {
    stored = null;
  }
  const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const scheme = stored === 'light' || stored === 'dark' ? stored : prefersDark ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
}
