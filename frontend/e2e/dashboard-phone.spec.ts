import { expect, test } from '@playwright/test';
import { PASSWORD, signIn, verifiedAccount } from './support';

/**
 * The dashboard on a phone (390 × 844, issue 36 item 5): compact cards, at least three whole on
 * the first screen, the closing feeling on an ended session's card, "Your insights" in the
 * navigation, and today's prompt as a button that starts a chat with it.
 */
test.use({ viewport: { width: 390, height: 844 } });

const STARTER = "Hello! I'd like to start a new conversation.";

test('three sessions on one screen, the feeling on the card, insights in the menu, and the prompt starts a chat', async ({ page, request }) => {
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
  // Issue 31 puts the check-in card first on a phone; three whole session cards fit on the
  // screen that follows it (scrolled by the card's height).
  const checkin = page.getByTestId('checkin-card');
  await expect(checkin).toBeInViewport();
  const below = (await checkin.boundingBox())!;
  await page.evaluate((y) => window.scrollTo(0, y), Math.ceil(below.y + below.height));
  const cards = page.getByTestId('session-card');
  await expect(cards).toHaveCount(4, { timeout: 15_000 });
  // At least three whole cards on the first screen.
  const whole = await cards.evaluateAll((els) =>
    els.filter((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }).length,
  );
  expect(whole).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('closing-feeling')).toHaveText('Left feeling better');
  const { scrollWidth, innerWidth } = (await page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
  )) as { scrollWidth: number; innerWidth: number };
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

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
