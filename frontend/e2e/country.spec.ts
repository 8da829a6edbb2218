import { expect, test } from '@playwright/test';

// A browser in the UK (language en-GB, time zone Europe/London), signed out, on a phone: the
// safety page gives the UK's emergency number and Samaritans, as links a phone can call.
test.use({ locale: 'en-GB', timezoneId: 'Europe/London', viewport: { width: 390, height: 844 } });

test('a browser in the UK sees the UK lines on /safety, with working tel: links', async ({ page }) => {
  await page.goto('/safety');
  const danger = page.getByRole('alert').filter({ hasText: 'If you are in danger right now' });
  await expect(danger).toContainText('United Kingdom: call 999');
  await expect(danger.getByRole('link', { name: '999' })).toHaveAttribute('href', 'tel:999');
  await expect(danger.getByRole('link', { name: '116 123' })).toHaveAttribute('href', 'tel:116123');
  await expect(danger).not.toContainText('988');
  await expect(danger.getByRole('link', { name: 'findahelpline.com' })).toHaveAttribute('href', 'https://findahelpline.com');
  await expect(danger.getByRole('combobox', { name: 'Showing lines for' })).toHaveValue('United Kingdom');
  // Every tel: link dials digits only, and nothing is wider than the phone.
  for (const href of await danger.locator('a[href^="tel:"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
    expect(href).toMatch(/^tel:\+?\d+$/);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
