import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { mailLink, signIn, verifiedAccount } from './support';

/**
 * Issue 33, item 2: a sign-in link someone else made for their own account (or a Google
 * code from their browser) must not silently replace the session of whoever opens it; in
 * the tester's report the victim's next journal message went to the attacker's account.
 * Here the victim is signed in and opens the attacker's link: the page names the link's
 * account and asks; the victim stays themselves until they choose otherwise, and then is
 * signed in as the account they chose.
 */

/** The address of the account this page is signed in to, as the profile shows it. */
async function expectSignedInAs(page: Page, email: string) {
  await page.goto('/profile');
  await expect(page.getByLabel('Email Address')).toHaveValue(email);
}

/** The page fits a phone: nothing runs off the side of the screen. */
async function expectFitsWidth(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** WCAG A/AA findings of axe on what the page shows now (see a11y.spec.ts for the whole app). */
async function expectNoAxeFindings(page: Page) {
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe;
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  });
  expect(found).toEqual([]);
}

// Most users are on phones.
test.use({ viewport: { width: 390, height: 844 } });
test.beforeEach(async ({ page }) => {
  await page.addInitScript({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
});

test("an attacker's sign-in link does not switch the signed-in victim without asking", async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  const victim = await verifiedAccount(request, 'victim');
  const attacker = await verifiedAccount(request, 'mallory');

  // The attacker asks for a sign-in link to their own account and keeps it.
  const asked = Date.now();
  expect((await request.post('/api/auth/login-link', { data: { email: attacker } })).status()).toBe(200);
  const link = await mailLink(attacker, '/login\\?loginToken=', asked);

  // The victim is signed in, and opens the link someone sent them.
  await signIn(page, victim);
  await page.goto(link);
  const prompt = page.getByRole('region', { name: "You're already signed in" });
  await expect(prompt).toContainText(`You're signed in as ${victim}. Sign out and continue as m•••@example.com?`);
  await expect(prompt).not.toContainText(attacker);
  await expectFitsWidth(page);
  await expectNoAxeFindings(page);
  await page.screenshot({ path: testInfo.outputPath('switch-account-390.png'), fullPage: true });

  // Staying keeps the victim's session; the link was not used.
  await page.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectSignedInAs(page, victim);

  // A Google code from someone else's browser is not even tried.
  await page.goto('/login?oauthCode=attackers-one-time-code');
  await expect(page.getByRole('alert')).toHaveText('This sign-in was started in another browser or tab. Please sign in with Google again.');
  await expectSignedInAs(page, victim);

  // The same link again, and this time the victim chooses to continue: the session is then
  // the account the link named.
  await page.goto(link);
  await expect(prompt).toBeVisible();
  await page.getByRole('button', { name: 'Sign out and continue' }).click();
  await expect(page.getByText('Login successful! Redirecting...')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectSignedInAs(page, attacker);

  // Used once: the link now says so, and signs nobody in.
  await page.goto(link);
  await expect(page.getByRole('alert')).toContainText('This sign-in link is invalid, used or expired.');
});

test('a sign-in link opened with nobody signed in names its account and signs in on a click', async ({ page, request }, testInfo) => {
  test.setTimeout(60_000);
  const owner = await verifiedAccount(request, 'sam');
  const asked = Date.now();
  expect((await request.post('/api/auth/login-link', { data: { email: owner } })).status()).toBe(200);
  const link = await mailLink(owner, '/login\\?loginToken=', asked);

  await page.goto(link);
  await expect(page.getByText('This link signs you in as s•••@example.com.')).toBeVisible();
  await expectFitsWidth(page);
  await expectNoAxeFindings(page);
  await page.screenshot({ path: testInfo.outputPath('sign-in-link-390.png'), fullPage: true });
  // Nothing happened on load: a reload still shows the same choice.
  await page.reload();
  await page.getByRole('button', { name: 'Sign in as s•••@example.com' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectSignedInAs(page, owner);
});
