import { expect, test, type Page } from '@playwright/test';
import { mailLink, PASSWORD, submitSignIn, uniqueEmail, verifiedAccount } from './support';

async function editField(page: Page, label: string, value: string) {
  const group = page.getByRole('group', { name: label });
  await group.getByRole('button', { name: 'Edit' }).click();
  await group.getByRole(label === 'Age' ? 'spinbutton' : 'textbox').fill(value);
  await group.getByRole('button', { name: 'Save' }).click();
  await expect(group.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(group).toContainText(value);
}

test('register, verify, sign in, edit the profile, change and reset the password, delete the account', async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('journey');
  const first = 'brew-a-fresh-pot';
  const second = 'slow-drip-morning';
  const third = 'pour-over-evening';
  const started = Date.now();

  // Register.
  await page.goto('/register');
  await page.getByLabel('Full Name').fill('Journey Tester');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(first);
  await page.getByLabel('Confirm Password').fill(first);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  // An unverified account cannot sign in yet.
  await submitSignIn(page, email, first);
  await expect(page.getByRole('alert')).toContainText(/inbox/i);

  // Verify from the link in the dev outbox.
  await page.goto(await mailLink(email, '/email-verified', started));
  await expect(page.getByRole('button', { name: 'Continue to Login' })).toBeVisible();
  // The login form the landing leads to has the verified address filled in.
  await page.getByRole('button', { name: 'Continue to Login' }).click();
  await expect(page.getByLabel('Email Address')).toHaveValue(email);

  await submitSignIn(page, email, first);
  await expect(page.getByText('Login successful! Redirecting...')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Each profile field.
  await page.goto('/profile');
  await expect(page.getByLabel('Tier')).toHaveValue('FREE');
  await editField(page, 'Age', '21');
  await editField(page, 'Focus Areas', 'Exams and sleep');
  await editField(page, 'Primary Concerns', 'Feeling behind');
  await editField(page, 'Sensitive Topics', 'Family');
  await page.reload();
  await expect(page.getByRole('group', { name: 'Focus Areas' })).toContainText('Exams and sleep');

  // Change the password.
  await page.getByRole('button', { name: 'Change Password' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Current Password').fill(first);
  await dialog.getByLabel('New Password', { exact: true }).fill(second);
  await dialog.getByLabel('Confirm New Password').fill(second);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('Password changed successfully!')).toBeVisible();
  await page.keyboard.press('Escape');

  // Log out.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Forgot password → reset from the mailed link.
  const beforeReset = Date.now();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password' }).click();
  const modal = page.getByRole('dialog');
  await modal.getByLabel('Email Address').fill(email);
  await modal.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(modal.getByText(/sent a link/i)).toBeVisible();
  await page.goto(await mailLink(email, '/reset', beforeReset));
  await page.getByLabel('New Password', { exact: true }).fill(third);
  await page.getByLabel('Confirm New Password').fill(third);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  // The old password no longer works; the new one does.
  await submitSignIn(page, email, second);
  await expect(page.getByRole('alert')).toContainText('Invalid email or password.');
  await submitSignIn(page, email, third);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Delete the account.
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page.getByText('Are you absolutely sure?')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete Account' }).click();
  await expect(page).toHaveURL(/\/$/);

  // That account can no longer sign in.
  await submitSignIn(page, email, third);
  await expect(page.getByRole('alert')).toContainText('Invalid email or password.');
});

test('a signed-out visit to a protected page goes to /login and back there after signing in', async ({ page, request }) => {
  const email = await verifiedAccount(request, 'return');
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('Email Address')).toHaveValue(email);
});
