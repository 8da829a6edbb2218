import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { moodYear, PASSWORD, signIn, verifiedAccount } from './support';

/** Today in the browser's time zone, as the calendar names its days. */
function today(page: Page): Promise<string> {
  return page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
}

function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

test('a check-in made through the API shows on the month calendar at 390 px', async ({ page, request }) => {
  test.setTimeout(60_000);
  const email = await verifiedAccount(request, 'mood');
  const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const headers = { Authorization: `Bearer ${(await login.json()).accessToken}` };
  const made = await request.post('/api/checkins', { headers, data: { mood: 4, tags: ['sleep'] } });
  expect(made.status()).toBe(201);

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, email);
  await page.getByRole('link', { name: 'See your moods' }).click();
  await expect(page).toHaveURL(/\/mood$/);
  const month = page.getByRole('region', { name: 'This month' });
  await expect(month.getByText('Days you checked in this month: 1')).toBeVisible();
  await expect(page.getByTestId('month-calendar').locator(`[data-date="${await today(page)}"]`)).toHaveAttribute('data-mood', '4');
  await month.getByText('Show as a table').click();
  await expect(month.getByRole('table', { name: /^Moods in / }).getByRole('cell', { name: '4 (Good)' })).toBeVisible();
  // A free account: the paid views are one calm line each.
  await expect(page.getByText('Your whole year, day by day, comes with a paid plan.')).toBeVisible();
  expect(await sidewaysOverflow(page)).toBe(0);
});

for (const width of [390, 1280]) {
  test(`the mood page has no WCAG A/AA findings at ${width} px, light and dark`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const email = await verifiedAccount(request, `mood-a11y-${width}`);
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await signIn(page, email);
    const end = await today(page);
    // Every chart drawn: the year and the tags as a paid account gets them.
    await page.route('**/api/checkins/summary?*', (route) =>
      route.fulfill({ json: moodYear(end, new URL(route.request().url()).searchParams.get('days') === '365') }),
    );
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto('/mood');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      await expect(page.getByTestId('year-pixels')).toBeVisible();
      await expect(page.getByText('With better days')).toBeVisible();
      await expect(page.getByRole('article', { name: /^A year ago/ }).getByText(/Nothing from that day|You talked about/)).toBeVisible();
      for (const table of await page.getByText('Show as a table').all()) await table.click();
      expect(await sidewaysOverflow(page)).toBe(0);
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(
        results.violations.map((v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`),
      ).toEqual([]);
    }
  });
}
