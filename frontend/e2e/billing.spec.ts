import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { E2E_WEBHOOK_SECRET } from '../playwright.config';
import { signIn, verifiedAccount } from './support';

/** Signs a payload the way Stripe does: v1 = HMAC-SHA256(secret, "t.payload"). */
function stripeSignature(payload: string, secret: string): string {
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

test('a free user subscribes: checkout opens in a new tab, a signed webhook upgrades them', async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = await verifiedAccount(request, 'billing');
  await signIn(page, email);

  // Checkout: a blank tab first, then Stripe's hosted page (from stripe-mock).
  // No network here: Stripe's hosted page is answered locally.
  await page.context().route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Stripe Checkout</title>' }),
  );
  await page.goto('/about');
  const basic = page.getByTestId('pricing-box').nth(1);
  const popup = page.waitForEvent('popup');
  await basic.getByRole('button', { name: 'Subscribe' }).click();
  const tab = await popup;
  await expect.poll(() => tab.url(), { timeout: 15_000 }).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  await tab.close();

  // Stripe reports the completed checkout.
  const token = await page.evaluate(() =>
    (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('accessToken'),
  );
  const me = (await (await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } })).json()) as { id: string };
  const payload = JSON.stringify({
    id: `evt_${Date.now()}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    api_version: '2025-01-01',
    data: {
      object: {
        id: 'cs_e2e', object: 'checkout.session', client_reference_id: me.id,
        customer: 'cus_e2e', subscription: 'sub_e2e', metadata: { userId: me.id, plan: 'BASIC' },
      },
    },
  });
  const hook = await request.post('/api/subscription/webhook', {
    data: payload,
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripeSignature(payload, E2E_WEBHOOK_SECRET) },
  });
  expect(hook.status()).toBe(200);
  const forged = await request.post('/api/subscription/webhook', {
    data: payload,
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripeSignature(payload, 'whsec_wrong') },
  });
  expect(forged.status()).toBe(400);

  // Subscribed now: both plans offer management, and the profile shows the tier.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Manage Subscription' })).toHaveCount(2);
  await page.goto('/profile');
  await expect(page.getByLabel('Tier')).toHaveValue('BASIC');
});
