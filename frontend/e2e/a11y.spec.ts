import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn, verifiedAccount } from './support';

const publicPages = ['/', '/about', '/team', '/privacy', '/safety', '/login', '/register', '/reset', '/error/401', '/error/404'];
const schemes = ['light', 'dark'] as const;

const signedInPages = ['/dashboard', '/profile', '/chat'];

/** Sets the colour scheme for the pages opened next (the app keeps it in local storage). */
async function setScheme(page: Page, scheme: (typeof schemes)[number]) {
  await page.addInitScript((s) => window.localStorage.setItem('percolate-color-scheme', s), scheme);
  await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: scheme });
}

/** Opens path in the given colour scheme and waits for its heading. */
async function openIn(page: Page, path: string, scheme: (typeof schemes)[number]) {
  await setScheme(page, scheme);
  await page.goto(path);
  await expect(page.locator('h1, h2').first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
}

async function axeSummary(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

for (const scheme of schemes) {
  for (const path of publicPages) {
    test(`${path} has no WCAG A/AA violations (${scheme})`, async ({ page }) => {
      await openIn(page, path, scheme);
      expect(await axeSummary(page)).toEqual([]);
    });
  }

  test(`signed-in pages have no WCAG A/AA violations (${scheme})`, async ({ page, request }) => {
    const email = await verifiedAccount(request, `a11y-${scheme}`);
    await setScheme(page, scheme);
    await signIn(page, email);
    for (const path of signedInPages) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expect(page.locator('main').getByRole('heading').first()).toBeVisible();
      expect(await axeSummary(page), path).toEqual([]);
    }
  });

  // axe does not test placeholders: every placeholder on the forms reads at 4.5:1 or more
  // against its input's background.
  test(`placeholders meet AA contrast (${scheme})`, async ({ page, request }) => {
    const email = await verifiedAccount(request, `placeholder-${scheme}`);
    await setScheme(page, scheme);
    await signIn(page, email);
    const checked: string[] = [];
    for (const path of ['/dashboard', '/chat']) {
      await page.goto(path);
      await expect(page.locator('input[placeholder], textarea[placeholder]').first()).toBeVisible();
      const ratios = await page.evaluate(() => {
        const rgba = (s: string) => {
          const m = s.match(/rgba?\(([^)]+)\)/);
          if (!m) return null;
          const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
          return { r, g, b, a };
        };
        const lum = ({ r, g, b }: { r: number; g: number; b: number }) => {
          const f = (v: number) => {
            const c = v / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          };
          return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
        };
        const backgroundOf = (el: Element | null): { r: number; g: number; b: number } => {
          for (let e = el; e; e = e.parentElement) {
            const c = rgba(getComputedStyle(e).backgroundColor);
            if (c && c.a > 0) return c;
          }
          return { r: 255, g: 255, b: 255 };
        };
        return [...document.querySelectorAll('input[placeholder], textarea[placeholder]')]
          .filter((el) => (el as HTMLInputElement).placeholder && (el as HTMLElement).offsetParent !== null)
          .map((el) => {
            const bg = backgroundOf(el);
            const fg = rgba(getComputedStyle(el, '::placeholder').color) ?? { r: 0, g: 0, b: 0, a: 1 };
            const blended = {
              r: fg.r * fg.a + bg.r * (1 - fg.a),
              g: fg.g * fg.a + bg.g * (1 - fg.a),
              b: fg.b * fg.a + bg.b * (1 - fg.a),
            };
            const [hi, lo] = [lum(blended), lum(bg)].sort((x, y) => y - x);
            return { name: (el as HTMLInputElement).placeholder, ratio: (hi + 0.05) / (lo + 0.05) };
          });
      });
      for (const { name, ratio } of ratios) {
        checked.push(name);
        expect(ratio, `${path}: placeholder "${name}" contrast ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(4.5);
      }
    }
    expect(checked.length, 'no placeholder was found to check').toBeGreaterThan(0);
  });
}

test('the first Tab reaches a skip link that moves focus to the page', async ({ page }) => {
  await page.goto('/about');
  await expect(page.locator('h1').first()).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
});
