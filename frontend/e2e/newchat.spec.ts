import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, setRole, signIn, verifiedAccount } from './support';

/**
 * Every way into a new chat without an id, on a phone (390 × 844): the page shows the welcome,
 * and the student's first words get a reply to them, not the welcome a second time (issue 36).
 */
test.use({ viewport: { width: 390, height: 844 } });

const WORDS = 'My exams start next week and I keep putting off revision.';

/** On /chat with no id: the welcome, then the first words answered (offline engine or model). */
async function firstWordsAnswered(page: Page) {
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('ai-message').first()).toContainText(/welcome/i);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(WORDS);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('user-message')).toHaveText([WORDS]);
  const reply = page.getByTestId('ai-message').nth(1);
  await expect(reply).toContainText("I'm an AI, not a person or a therapist");
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await expect(reply).not.toContainText('welcome to Percolate');
  await expect(reply).not.toContainText("What's on your mind today?");
  await expect(page.getByTestId('ai-message')).toHaveCount(2);
}

test('the phone menu, pricing, insights and Try the AI each open a chat whose first words are answered', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = await verifiedAccount(request, 'newchat');
  setRole(email, 'PREMIUM');
  await signIn(page, email);

  // The phone menu's New chat.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('link', { name: 'New chat' }).click();
  await firstWordsAnswered(page);

  // Pricing's Start Chatting.
  await page.goto('/about');
  await page.getByRole('link', { name: 'Start Chatting' }).click();
  await firstWordsAnswered(page);

  // Insights' Start a conversation.
  await page.goto('/insights');
  await page.getByRole('link', { name: 'Start a conversation' }).click();
  await firstWordsAnswered(page);

  // Try the AI, signed out, then signing in.
  await page.evaluate('localStorage.clear()');
  await page.goto('/');
  await page.getByRole('link', { name: 'Try the AI' }).last().click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await firstWordsAnswered(page);
});

test.describe('with a model', () => {
  const modelURL = process.env.E2E_MODEL_URL;
  test.skip(!modelURL, 'needs the server with a model that Playwright starts');
  test.use({ baseURL: modelURL });

  test('a chat opened without an id answers the first words', async ({ page, request }) => {
    test.setTimeout(90_000);
    const email = await verifiedAccount(request, 'newchat-model', true);
    await signIn(page, email);
    await page.goto('/chat');
    await firstWordsAnswered(page);
    await expect(page.getByTestId('ai-message').nth(1)).toContainText('What feels heaviest right now?');
  });
});
