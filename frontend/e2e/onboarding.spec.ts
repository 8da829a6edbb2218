import { expect, test, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { createRequire } from 'node:module';
import { PASSWORD, newAccount, signIn } from './support';

/**
 * The first sign-in's onboarding on a phone (issue 36 item 2): three optional steps, each
 * skippable, shown once per account: not again after signing in anew.
 */
test.use({ viewport: { width: 390, height: 844 } });

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe's WCAG findings on what the page shows now (axe is loaded by addInitScript: the CSP refuses inline scripts). */
async function axeFindings(page: Page): Promise<string[]> {
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    }),
  );
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function signInAgain(page: Page, email: string) {
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await signIn(page, email);
}

async function noSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test('the onboarding is skipped in one tap and does not come back', async ({ page, request }) => {
  const email = await newAccount(request, 'onboard-skip');
  await page.addInitScript({ path: AXE_SOURCE });
  await signIn(page, email);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'What would you like to focus on?' })).toBeVisible();
  await noSidewaysScroll(page);
  expect(await axeFindings(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Skip all' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Start New Chat' }).first()).toBeVisible();

  await signInAgain(page, email);
  await expect(page.getByRole('button', { name: 'Start New Chat' }).first()).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the onboarding completed: focus areas saved, a step skipped, the country chosen, a reminder set', async ({ page, request }) => {
  const email = await newAccount(request, 'onboard-done');
  await signIn(page, email);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Focus areas').fill('exams and sleep');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByRole('heading', { name: 'Anything to steer clear of?' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Skip', exact: true }).click();
  await expect(dialog.getByRole('heading', { name: 'Where are you?' })).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Country' }).click();
  await page.getByRole('option', { name: 'United Kingdom' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Country' })).toHaveValue('United Kingdom');
  await noSidewaysScroll(page);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByRole('heading', { name: 'A gentle reminder?' })).toBeVisible();
  await dialog.getByLabel('Reminder time').fill('07:30');
  await dialog.getByRole('button', { name: 'Remind me by e-mail' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved. Your next reminder:');
  await noSidewaysScroll(page);
  await dialog.getByRole('button', { name: 'Finish' }).click();
  await expect(dialog).toBeHidden();

  const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  const headers = { Authorization: `Bearer ${(await login.json()).accessToken}` };
  const profile = await (await request.get('/api/profile', { headers })).json();
  expect(profile).toMatchObject({ focusAreas: 'exams and sleep', sensitiveTopics: '', country: 'GB', onboarded: true });
  const reminders = await (await request.get('/api/profile/reminders', { headers })).json();
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(reminders).toMatchObject({ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], time: '07:30', timeZone: zone, email: true, push: false });

  await signInAgain(page, email);
  await expect(page.getByRole('button', { name: 'Start New Chat' }).first()).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('at 360 px, the smallest phones, every step fits the screen: nothing wider, every button whole', async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await signIn(page, await newAccount(request, 'onboard-360'));
  const dialog = page.getByRole('dialog');
  for (const step of ['What would you like to focus on?', 'Anything to steer clear of?', 'Where are you?', 'A gentle reminder?']) {
    await expect(dialog.getByRole('heading', { name: step })).toBeVisible();
    await noSidewaysScroll(page);
    for (const button of await dialog.getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x, `${step}: ${await button.textContent()}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${step}: ${await button.textContent()}`).toBeLessThanOrEqual(360);
      expect(await button.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    await dialog.getByRole('button', { name: step === 'A gentle reminder?' ? 'Finish' : 'Skip', exact: true }).click();
  }
  await expect(dialog).toBeHidden();
});
