import { expect, test } from '@playwright/test';
import { signIn, verifiedAccount } from './support';

/**
 * "Talk about it" on a phone (issue 31, §1): a saved check-in opens a new chat whose first reply
 * is the companion acknowledging it, and nothing appears as the user's words.
 */
test.use({ viewport: { width: 390, height: 844 } });

test('a saved check-in opens a chat that starts from it', async ({ page, request }) => {
  const email = await verifiedAccount(request, 'talk');
  await signIn(page, email);
  const card = page.getByRole('region', { name: 'How are you right now?' });
  await card.getByRole('button', { name: 'Low', exact: true }).click();
  await expect(card.getByRole('status')).toHaveText(/Saved: low\./);
  // A chip's box is hidden under its label, which is what a finger taps.
  await card.getByText('Sleep', { exact: true }).click();
  await expect(card.getByRole('checkbox', { name: 'Sleep' })).toBeChecked();

  await card.getByRole('button', { name: 'Talk about it' }).click();

  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  const first = page.getByTestId('ai-message').first();
  await expect(first).toContainText("You said you're feeling low, and sleep came up.");
  await expect(first).toContainText("I'm an AI, not a person or a therapist");
  await expect(page.getByTestId('user-message')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  const { scrollWidth, innerWidth } = (await page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
  )) as { scrollWidth: number; innerWidth: number };
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});
