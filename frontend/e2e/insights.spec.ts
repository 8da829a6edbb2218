import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { setRole, signIn, verifiedAccount } from './support';

/** How far the page scrolls sideways (0 when nothing overflows the viewport). */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

test('a Premium user opens their insights from the dashboard on a phone, light and dark, with nothing overflowing', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const email = await verifiedAccount(request, 'insights');
  setRole(email, 'PREMIUM');
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, email);

  // The dashboard's cards: insights for Premium, and the community on its own card.
  const card = page.getByRole('region', { name: 'Your insights' });
  await expect(card).toBeVisible();
  await expect(page.getByRole('region', { name: 'Join the Percolate community' })).toBeVisible();
  expect(await sidewaysOverflow(page)).toBe(0);

  await card.getByRole('link', { name: 'Open your insights' }).click();
  await expect(page).toHaveURL(/\/insights$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your insights' })).toBeVisible();
  // A new Premium account has no report yet, unless the hourly job made last week's already.
  const state = page
    .getByRole('heading', { name: 'Your first report is on its way' })
    .or(page.getByRole('heading', { name: 'Your last eight weeks' }));
  await expect(state).toBeVisible();
  expect(await sidewaysOverflow(page)).toBe(0);

  // The profile keeps account settings only.
  await page.goto('/profile');
  await expect(page.getByLabel('Tier')).toHaveValue('PREMIUM');
  await expect(page.getByText('Your weekly insights')).toHaveCount(0);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/insights');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(state).toBeVisible();
  expect(await sidewaysOverflow(page)).toBe(0);
});

/** Eight weeks of reports as the server shapes them (the Go tests cover how they are made). */
const reports = Array.from({ length: 7 }, (_, i) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  weekStart: new Date(Date.UTC(2026, 10, 16 - 7 * (i + (i > 3 ? 1 : 0)))).toISOString().slice(0, 10),
  sessionCount: 3 + (i % 3),
  emotions: ['anxiety', 'stress', 'calm', 'joy', 'sadness', 'tiredness', 'hope', 'gratitude', 'loneliness']
    .slice(i % 4, (i % 4) + 3 + (i % 2))
    .map((emotion, k) => ({ emotion, count: 3 - (k % 3) })),
  themes: ['exams', 'roommate', 'home', 'library'].slice(0, 2 + (i % 3)),
  suggestion: 'When worry builds this week, try writing down one thing you can control and one you can let wait.',
  createdAt: '2026-11-23T08:00:00Z',
  // The week's check-ins; every third week had none, which the card does not remark on.
  checkins:
    i % 3 === 2
      ? { count: 0, tags: [] }
      : {
          count: 2 + i,
          lowestMood: 1 + (i % 3),
          highestMood: 4,
          tags: [
            { tag: 'sleep', count: 2 },
            { tag: 'alone time', count: 1 },
          ],
        },
}));

test('the insights trend and check-ins at 390 and 1280 px have no WCAG A/AA violations and no sideways overflow, light and dark', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = await verifiedAccount(request, 'insights-a11y');
  setRole(email, 'PREMIUM');
  await page.route('**/api/insights/weekly', (route) => route.fulfill({ json: reports }));
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, email);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto('/insights');
      await expect(page.getByRole('img', { name: /Feelings over the last 8 weeks/ })).toBeVisible();
      await expect(page.getByRole('article')).toHaveCount(7);
      const week = page.getByRole('article').first();
      await expect(week.getByText('2 check-ins, mood from very low to good')).toBeVisible();
      await expect(week.getByLabel('What your check-ins were about')).toContainText('alone time (1)');
      await expect(page.getByRole('article').nth(2)).not.toContainText('check-in');
      expect(await sidewaysOverflow(page)).toBe(0);
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(
        results.violations.map((v) => `${width} ${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`),
      ).toEqual([]);
    }
  }
});
