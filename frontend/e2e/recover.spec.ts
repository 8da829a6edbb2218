import { expect, test, type Route } from '@playwright/test';
import { openNewChat } from './support';

/**
 * A reply cut off by the server going away, on a phone (390 × 844): the words that arrived are
 * marked Interrupted with Retry, sending again while it is away keeps one connection bubble, no
 * browser words ("Failed to fetch", "network error") reach the page, and once the server answers
 * again the chat reconnects by itself and shows the reply the server stored (issue 36, item 4).
 */
test.use({ viewport: { width: 390, height: 844 } });

const TROUBLE = "I'm having trouble connecting. Please check your connection or try again later.";

test('a reply cut off mid-way is marked, offers Retry, and comes back by itself', async ({ page, request }) => {
  test.setTimeout(120_000);
  await openNewChat(page, request, 'recover');
  const ai = page.getByTestId('ai-message');
  await expect(ai).toHaveCount(1);

  let down = false;
  let cut = false;
  // The first reply's stream ends after its first words, as when the server dies mid-reply;
  // from then on, until the test says the server is back, nothing reaches it.
  await page.route('**/api/chat/message/stream', async (route: Route) => {
    if (down) return route.abort('connectionrefused');
    if (cut) return route.continue();
    cut = true;
    const whole = await route.fetch();
    const first = (await whole.text()).split('\n\n')[0] + '\n\n';
    down = true;
    return route.fulfill({ status: 200, headers: { 'Content-Type': 'text/event-stream' }, body: first });
  });
  await page.route(/\/api\/chat\/sessions\/[^/]+(\/stream|\/retry)?$/, (route) =>
    down ? route.abort('connectionrefused') : route.continue(),
  );

  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('My exams start next week and I keep putting off revision.');
  await box.press('Enter');

  // Interrupted, with Retry, the spec's texts, and one connection bubble.
  await expect(page.getByTestId('reply-mark')).toHaveText('Interrupted');
  await expect(ai.filter({ hasText: TROUBLE })).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to send message' })).toBeVisible();
  await expect(page.getByText('Reconnecting', { exact: false })).toBeVisible();

  // Retry and sending again while the server is away: still one connection bubble.
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await box.fill('Are you still there?');
  await box.press('Enter');
  await expect(page.getByTestId('user-message')).toHaveCount(2);
  await expect(ai.filter({ hasText: TROUBLE })).toHaveCount(1);
  await expect(page.locator('body')).not.toContainText(/failed to fetch|network ?error/i);

  // The server is back: the chat reaches it by itself and shows the reply it stored whole.
  down = false;
  await expect(page.getByTestId('reply-mark')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByText('Reconnecting', { exact: false })).toHaveCount(0);
  await expect(ai).toHaveCount(3); // the welcome, the stored reply, the connection bubble of the unsent line
  await expect(ai.nth(1)).not.toHaveText('');
  await expect(ai.filter({ hasText: TROUBLE })).toHaveCount(1);

  // And the conversation goes on.
  await box.fill('Thanks, that helps.');
  await box.press('Enter');
  await expect(ai).toHaveCount(4);
  await expect(page.locator('body')).not.toContainText(/failed to fetch|network ?error/i);
});
