import { expect, test, type Page } from '@playwright/test';
import { openNewChat } from './support';

/**
 * One whole conversation with the offline companion on a phone (390 × 844), against the
 * binary with no model (issue 34): people are remembered, a callback is answered with what
 * was said, an opinion question gets a real answer, and a goodbye gets a goodbye.
 */
test.use({ viewport: { width: 390, height: 844 } });

/**
 * Sends a message and waits for the whole reply (a new last reply, and Send back); returns
 * the reply. The list renders only the rows in view, so replies are not counted.
 */
async function say(page: Page, text: string) {
  const last = page.getByTestId('ai-message').last();
  const before = (await last.textContent()) ?? '';
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await expect(page.getByTestId('user-message').last()).toContainText(text);
  await expect(last).not.toHaveText(before, { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });
  return last;
}

test('a whole conversation offline: a person tracked, a callback resolved, an opinion answered, a goodbye', async ({ page, request }) => {
  test.setTimeout(120_000);
  await openNewChat(page, request, 'companion');

  await expect(await say(page, 'my flatmate Marcus never does the dishes')).toContainText('Marcus');
  // "his" is Marcus: what was said is about him, and is kept for later.
  await say(page, 'his mugs have been in the sink since monday');
  await say(page, 'my driving test is on friday as well');

  // The callback goes back to Marcus and what was said about him, not to the latest topic.
  const callback = await say(page, 'like i said about marcus, i might talk to him at dinner');
  await expect(callback).toContainText('Marcus');
  await expect(callback).toContainText('his mugs have been in the sink');
  await expect(callback).not.toContainText('driving test');

  // An opinion question gets an answer that weighs it, not "what's your own best guess?".
  const answer = await say(page, 'should i talk to him at dinner or just leave it?');
  await expect(answer).toContainText('whether to talk to him at dinner');
  await expect(answer).not.toContainText('best guess');
  await expect(answer).not.toContainText("I'm an offline AI");

  // A goodbye gets a goodbye with one thing to take away, and no further question.
  const bye = await say(page, 'ok thanks, gotta go. night');
  await expect(bye).toContainText(/take with you|keep one thing/);
  await expect(bye).toContainText(/bye|take care|talk soon/i);
  await expect(bye).not.toContainText('?');
});
