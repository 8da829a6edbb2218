import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn, verifiedAccount } from './support';

// A phone in India (time zone Asia/Kolkata): the profile's reminders take the browser's zone,
// and what is saved comes back after a reload.
test.use({ locale: 'en-IN', timezoneId: 'Asia/Kolkata', viewport: { width: 390, height: 844 } });

test("reminder settings are saved with the browser's time zone", async ({ page, request }) => {
  const email = await verifiedAccount(request, 'reminders');
  await signIn(page, email);
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Reminders' });
  const zone = section.getByRole('combobox', { name: 'Time zone' });
  // Chromium's ICU may name India's zone by its older alias, Asia/Calcutta: either is the browser's.
  const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(['Asia/Kolkata', 'Asia/Calcutta']).toContain(browserZone);
  await expect(zone).toHaveValue(browserZone);

  await section.getByText('Mon', { exact: true }).click();
  await section.getByText('Thu', { exact: true }).click();
  await section.getByLabel('Time', { exact: true }).fill('07:45');
  await section.getByRole('switch', { name: 'E-mail' }).click();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/profile/reminders') && r.request().method() === 'PUT');
  await section.getByRole('button', { name: 'Save reminders' }).click();
  const body = (await saved).request().postDataJSON() as Record<string, unknown>;
  expect(body).toEqual({ days: ['mon', 'thu'], time: '07:45', timeZone: browserZone, email: true, push: false });
  await expect(section.getByText(/Saved\. Your next reminder: (Monday|Thursday)/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Push needs the app's service worker; without one the switch says so, calmly, and stays off.
  const push = section.getByRole('switch', { name: 'Push on this device' });
  await push.click();
  await expect(section.getByText(/Push reminders are not available in this browser|Notifications are turned off/)).toBeVisible();
  await expect(push).not.toBeChecked();

  await page.reload();
  await expect(section.getByRole('checkbox', { name: 'Mon' })).toBeChecked();
  await expect(section.getByRole('checkbox', { name: 'Thu' })).toBeChecked();
  await expect(section.getByRole('checkbox', { name: 'Tue' })).not.toBeChecked();
  await expect(section.getByLabel('Time', { exact: true })).toHaveValue('07:45');
  await expect(zone).toHaveValue(browserZone);
  await expect(section.getByRole('switch', { name: 'E-mail' })).toBeChecked();

  const axe = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
});
