import { expect, test, type Response } from '@playwright/test';

// Issue budget: a signed-out first visit to / downloads at most 120 KB of
// gzipped JavaScript (everything the page loads, not only the entry chunk).
const BUDGET_BYTES = 120_000;

test('a first visit to the landing page stays within its JavaScript budget', async ({ page }, testInfo) => {
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Find Clarity with Percolate' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login' }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');

  let total = 0;
  for (const response of scripts) {
    // The server leaves files of 1 KB or less uncompressed; every other one must come gzipped.
    if (response.headers()['content-encoding'] !== 'gzip') {
      expect((await response.body()).length, response.url()).toBeLessThanOrEqual(1024);
    }
    total += (await response.request().sizes()).responseBodySize;
  }
  testInfo.annotations.push({ type: 'landing JS (gzip bytes)', description: `${total} in ${scripts.length} files` });
  expect(scripts.length).toBeGreaterThan(1);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});
