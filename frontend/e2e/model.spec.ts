import { expect, test } from '@playwright/test';
import { expectInertReply, expectNoCspViolation, openNewChat, watchCsp } from './support';

/**
 * Journeys with a configured model: the second server Playwright starts, whose model is the
 * OpenAI-wire server in e2e/servers/openai-wire.mjs (its answers are chosen by a marker in the
 * message).
 */
const modelURL = process.env.E2E_MODEL_URL;
test.skip(!modelURL, 'needs the server with a model that Playwright starts');
test.use({ baseURL: modelURL, viewport: { width: 390, height: 844 } });

/** What the model writes for "[slow]": 40 words, one every 250 ms. */
const SLOW_REPLY = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');

test('a refresh while the model is writing follows the reply again and shows all of it', async ({ page, request }) => {
  test.setTimeout(90_000);
  await openNewChat(page, request, 'model-refresh', true);
  const attaches: number[] = [];
  page.on('response', (res) => {
    if (/\/api\/chat\/sessions\/[^/]+\/stream$/.test(new URL(res.url()).pathname)) attaches.push(res.status());
  });

  await page.getByRole('textbox', { name: 'Message' }).fill('Can we take this slowly today? [slow]');
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = page.getByTestId('ai-message').last();
  await expect(reply).toContainText('word1');
  // The reply has about nine seconds still to go: the page leaves in the middle of it.
  await page.reload();

  // Back on the page, the reply in progress is followed again (the stream answers 200, not
  // 204 for "nothing in progress") and arrives whole.
  await expect(page.getByTestId('ai-message').last()).toHaveText(SLOW_REPLY, { timeout: 30_000 });
  expect(attaches).toContain(200);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();

  // It was stored whole: another visit shows the same text, with nothing in progress.
  await page.reload();
  await expect(page.getByTestId('ai-message').last()).toHaveText(SLOW_REPLY);
  await expect(page.getByTestId('reply-notice')).toHaveCount(0);
});

test("a model's hostile markdown renders inert under the server's CSP", async ({ page, request }) => {
  test.setTimeout(90_000);
  const problems = await watchCsp(page);
  await openNewChat(page, request, 'model-hostile', true);

  await page.getByRole('textbox', { name: 'Message' }).fill('Show me something to read. [hostile]');
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = page.getByTestId('ai-message').last();
  await expect(reply).toContainText('something to try');
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();

  await expectInertReply(reply);

  // The same after a reload, from what the server stored.
  await page.reload();
  await expect(page.getByTestId('ai-message').last()).toContainText('something to try');
  expect(await page.getByTestId('ai-message').last().locator('script, img, iframe, [onerror]').count()).toBe(0);

  await expectNoCspViolation(page, problems);
});
