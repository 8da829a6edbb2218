import { expect, test } from '@playwright/test';

test('the landing page loads', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Find Clarity with Percolate' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Percolate home' })).toBeVisible();
});

test('an unknown path ends on the 404 page', async ({ page }) => {
  await page.goto('/this-does-not-exist');
  await expect(page).toHaveURL(/\/error\/404$/);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('a signed-out visit to /dashboard ends on /login', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('GET /api/health answers 200 JSON with a status', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  const body: unknown = await response.json();
  expect(body).toEqual(expect.objectContaining({ status: expect.any(String) }));
});

test('the app runs under the strict CSP without errors, and assets are cached', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  const assetCaching: string[] = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname.startsWith('/assets/')) {
      assetCaching.push(res.headers()['cache-control'] ?? '');
    }
  });

  const response = await page.goto('/');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  expect(problems).toEqual([]);
  expect(assetCaching.length).toBeGreaterThan(0);
  for (const value of assetCaching) expect(value).toBe('public, max-age=31536000, immutable');
});

test('an unknown API path answers JSON 404 with a code', async ({ request }) => {
  const response = await request.get('/api/no-such-endpoint');
  expect(response.status()).toBe(404);
  expect(await response.json()).toEqual(expect.objectContaining({ code: 'NOT_FOUND' }));
});
