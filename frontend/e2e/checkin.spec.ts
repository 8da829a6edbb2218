import { expect, test } from '@playwright/test';
import { PASSWORD, signIn, verifiedAccount } from './support';

/**
 * The dashboard's check-in on a phone (issue 31): "How are you right now?" is the first card,
 * one tap on a mood stores the check-in, and Undo takes it back.
 */
test.use({ viewport: { width: 390, height: 844 } });

test('a check-in in one tap from the dashboard, then undo', async ({ page, request }) => {
  const email = await verifiedAccount(request, 'checkin');
  const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  const headers = { Authorization: `Bearer ${(await login.json()).accessToken}` };
  const stored = async () => (await (await request.get('/api/checkins', { headers })).json()) as { mood: number }[];

  await signIn(page, email);
  const card = page.getByRole('region', { name: 'How are you right now?' });
  await expect(card).toBeInViewport();
  const opened = Date.now();
  await card.getByRole('button', { name: 'Low', exact: true }).click();
  await expect(card.getByRole('status')).toHaveText(/Saved: low\. Thanks for checking in\./);
  expect(Date.now() - opened).toBeLessThan(10_000);
  expect(await stored()).toEqual([expect.objectContaining({ mood: 2 })]);

  await card.getByRole('button', { name: 'Undo' }).click();
  await expect(card.getByRole('status')).toBeHidden();
  await expect(card.getByRole('button', { name: 'Low', exact: true })).toHaveAttribute('aria-pressed', 'false');
  expect(await stored()).toEqual([]);
  const { scrollWidth, innerWidth } = (await page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
  )) as { scrollWidth: number; innerWidth: number };
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});
