import { expect, test } from '@playwright/test';
import { setRole, signIn, verifiedAccount } from './support';

test('a new chat streams replies, ends, and the dashboard gates insights by tier', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = await verifiedAccount(request, 'chat');
  await signIn(page, email);

  await expect(page.getByRole('heading', { name: 'No sessions found' })).toBeVisible();
  await page.getByRole('button', { name: 'Start New Chat' }).first().click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('button', { name: 'Offline companion' })).toBeVisible();

  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('I keep worrying about my exams and I feel tired.');
  await box.press('Enter');
  await expect(page.getByTestId('user-message').last()).toContainText('worrying about my exams');
  // The offline companion mirrors what it heard and asks one question.
  await expect(page.getByTestId('ai-message').last()).toContainText('?', { timeout: 20_000 });
  // The reply has finished streaming when Send is available again.
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });

  await box.fill('Mostly at night, when it is quiet.');
  await box.press('Enter');
  // The starter the dashboard sent is never shown: only the user's own two messages are.
  await expect(page.getByTestId('user-message')).toHaveCount(2);
  await expect(page.getByTestId('ai-message').last()).toContainText('?', { timeout: 20_000 });
  // The reply has finished streaming when Send is available again.
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });
  await expect(page.getByLabel('Tokens used')).not.toHaveText(/^0 \//);

  // End Session asks first (the closing moment); Escape keeps the chat, Confirm ends it.
  await page.getByRole('button', { name: 'End Session' }).click();
  let dialog = page.getByRole('dialog', { name: 'End this session?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/chat\//);
  await page.getByRole('button', { name: 'End Session' }).click();
  dialog = page.getByRole('dialog', { name: 'End this session?' });
  await dialog.getByRole('button', { name: 'Better' }).click();
  await dialog.getByRole('button', { name: 'End Session' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // A free user is invited to upgrade instead of seeing the summary.
  const card = page.getByTestId('session-card').first();
  await card.getByRole('button', { name: 'Session Summary' }).click();
  await expect(card.getByText('Upgrade to View').first()).toBeVisible();

  // As BASIC (set by the operator command), the summary and emotions appear once written.
  setRole(email, 'BASIC');
  await expect(async () => {
    await page.reload();
    const c = page.getByTestId('session-card').first();
    await c.getByRole('button', { name: 'Session Summary' }).click();
    await expect(c.getByText('Upgrade to View')).toHaveCount(0);
    await expect(c.getByRole('region', { name: 'Session Summary' })).toContainText(/you shared|[a-z]{4,}/, { timeout: 2_000 });
    await expect(c.getByText('Please end this conversation for summary and emotions')).toHaveCount(0);
  }).toPass({ timeout: 30_000 });

  // Search filters locally; a search with no match says so.
  await page.getByRole('textbox', { name: 'Search sessions' }).fill('no-such-session-xyz');
  await expect(page.getByText('No sessions match no-such-session-xyz')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search sessions' }).fill('');

  // Delete the session.
  await page.getByTestId('session-card').first().getByRole('button', { name: /Delete session/ }).click();
  await expect(page.getByText('Delete Session?')).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'No sessions found' })).toBeVisible();
});
