import { expect, test } from '@playwright/test';
import { E2E_SUPPORT_EMAIL } from '../playwright.config';

test('every public link in the navbar and footer leads to its page', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' }).first();
  for (const [name, heading] of [
    ['About', 'About Percolate'],
    ['Team', 'Meet the Team'],
    ['Policies', 'Privacy Policy'],
    ['Home', 'Find Clarity with Percolate'],
  ] as const) {
    await nav.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  await page.getByRole('contentinfo').getByRole('link', { name: /Safety/ }).click();
  await expect(page).toHaveURL(/\/safety$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Safety & Crisis Support' })).toBeVisible();

  await page.goto('/');
  await page.getByRole('link', { name: 'Join Percolate' }).click();
  await expect(page).toHaveURL(/\/register$/);
});

test('the landing page has its 30 beans and its sections', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('coffee-beans').locator('img')).toHaveCount(30);
  await expect(page.getByRole('heading', { name: 'What People Say' })).toBeVisible();
  await page.getByRole('heading', { name: 'What People Say' }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId('testimonial')).toHaveCount(3);
  await expect(page.getByTestId('testimonial').first()).toBeVisible();
});

test('Contact Us on the landing page scrolls to the contact block of /team', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'Contact Us' }).click();
  await expect(page).toHaveURL(/\/team#contact$/);
  await expect(page.getByRole('heading', { name: 'Interested in joining us?' })).toBeInViewport();
});

test('Our Story opens and closes from its header', async ({ page }) => {
  await page.goto('/team');
  const header = page.getByRole('button', { name: 'Our Story' });
  const story = page.getByText('Percolate started on a late night', { exact: false });
  await expect(story).toBeHidden();
  await header.click();
  await expect(story).toBeVisible();
  await header.click();
  await expect(story).toBeHidden();
});

test('the contact form: field errors, success, then the rate limit', async ({ page, request }) => {
  await page.goto('/team#contact');
  // The block and the footer name the mailbox the server delivers to (PERCOLATE_SUPPORT_EMAIL).
  for (const region of [page.locator('#contact'), page.getByRole('contentinfo')]) {
    await expect(region.getByRole('link', { name: E2E_SUPPORT_EMAIL })).toHaveAttribute('href', `mailto:${E2E_SUPPORT_EMAIL}`);
  }
  const form = page.getByRole('form', { name: 'Contact form' });

  await form.getByRole('textbox', { name: 'Name' }).fill('Ada');
  await form.getByRole('textbox', { name: 'Email' }).fill('not-an-address');
  await form.getByRole('textbox', { name: 'Message' }).fill('Hello from the end-to-end test.');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(form.getByText('Please enter a valid email address.')).toBeVisible();

  await form.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Message sent')).toBeVisible();

  // Four more from the same address use up the hour's five messages.
  for (let i = 0; i < 4; i++) {
    const res = await request.post('/api/public/contact', {
      data: { name: 'Ada', email: 'ada@example.com', message: `again ${i}` },
    });
    expect(res.status()).toBe(202);
  }
  await page.getByRole('button', { name: 'Send another message' }).click();
  await form.getByRole('textbox', { name: 'Name' }).fill('Ada');
  await form.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
  await form.getByRole('textbox', { name: 'Message' }).fill('One too many.');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(form.getByRole('alert')).toContainText('Please wait a while before sending another.');
});

test('at phone width the navbar collapses into a burger', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  const burger = page.getByRole('button', { name: 'Open navigation' });
  await expect(burger).toBeVisible();
  // Collapsed, the links are neither shown nor reachable; opened, they cover the page.
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu).toHaveCount(0);
  await burger.click();
  await expect(page.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
  await menu.getByRole('link', { name: 'Team' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Meet the Team' })).toBeVisible();
  // Choosing a page closes the menu again.
  await expect(page.getByRole('button', { name: 'Open navigation' })).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toHaveCount(0);

  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
});
