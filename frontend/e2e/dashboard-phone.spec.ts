import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, signIn, verifiedAccount } from './support';

/**
 * The dashboard on a phone (390 × 844, issue 36 item 5): compact cards, at least three whole on
 * the first screen below the check-in card (open or folded: issue 31 puts it first), nothing
 * wider than a 360 px screen, the closing feeling on an ended session's card, "Your insights" in
 * the navigation, and today's prompt as a button that starts a chat with it.
 */
test.use({ viewport: { width: 390, height: 844 } });

const STARTER = "Hello! I'd like to start a new conversation.";

/** The page, unscrolled, shows the check-in card and at least n whole session cards. */
async function firstScreenHolds(page: Page, n: number) {
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByTestId('checkin-card')).toBeInViewport({ ratio: 1 });
  const whole = await page.getByTestId('session-card').evaluateAll((els) =>
    els.filter((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }).length,
  );
  expect(whole).toBeGreaterThanOrEqual(n);
}

async function noSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test('three sessions on one screen with the check-in card, the feeling on the card, insights in the menu, and the prompt starts a chat', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = await verifiedAccount(request, 'dash-phone');
  const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const headers = { Authorization: `Bearer ${(await login.json()).accessToken}` };
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await request.post('/api/chat/message', { headers, data: { message: STARTER } });
    expect(res.status()).toBe(200);
    ids.push((await res.json()).sessionId);
  }
  expect((await request.post(`/api/chat/sessions/${ids[0]}/end`, { headers, data: { feeling: 'better' } })).status()).toBe(200);

  await signIn(page, email);
  const checkin = page.getByTestId('checkin-card');
  const cards = page.getByTestId('session-card');
  await expect(cards).toHaveCount(4, { timeout: 15_000 });
  // Issue 31 puts the check-in card first on a phone: not checked in yet today, it shows the
  // five moods, and three whole session cards fit on the same screen below it, unscrolled.
  await expect(checkin.getByRole('group', { name: 'Your mood' }).getByRole('button')).toHaveCount(5);
  await firstScreenHolds(page, 3);
  await expect(page.getByTestId('closing-feeling')).toHaveText('Left feeling better');
  await noSidewaysScroll(page);

  // Once checked in today, the card is folded to one line, and the cards still fit.
  const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
  expect((await request.post('/api/checkins', { headers, data: { mood: 4, localDate: today } })).status()).toBe(201);
  await page.reload();
  await expect(checkin.getByRole('heading', { name: 'Checked in today: good' })).toBeVisible({ timeout: 15_000 });
  await expect(cards).toHaveCount(4, { timeout: 15_000 });
  expect((await checkin.boundingBox())!.height).toBeLessThanOrEqual(60);
  await firstScreenHolds(page, 3);

  // On the smallest phones (360 px), nothing is wider than the screen, folded or open, and
  // every mood's label is whole.
  await page.setViewportSize({ width: 360, height: 780 });
  await noSidewaysScroll(page);
  await checkin.getByRole('button', { name: 'Check in again' }).click();
  const moods = checkin.getByRole('group', { name: 'Your mood' }).getByRole('button');
  await expect(moods).toHaveCount(5);
  await noSidewaysScroll(page);
  expect(await moods.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent))).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });

  // "Your insights" from the navigation.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Your insights', exact: true }).click();
  await expect(page).toHaveURL(/\/insights$/);

  // Today's prompt starts a chat with it, and the answer gets a reply.
  await page.goto('/dashboard');
  const prompt = page.getByTestId('journal-prompt');
  const text = (await prompt.locator('span').first().textContent())!.trim();
  const box = (await prompt.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  await prompt.click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('ai-message').nth(1)).toHaveText(`Today's prompt: ${text}`);
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('I finished my essay and went for a walk.');
  await composer.press('Enter');
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('ai-message')).toHaveCount(3);
  await expect(page.getByTestId('ai-message').nth(2)).not.toContainText('welcome to Percolate');
});
