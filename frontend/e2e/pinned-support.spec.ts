import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { openNewChat } from './support';

/**
 * Issue 32, §3, on a phone (390 × 844): a false-alarm-prone ordinary message gets no
 * interruption; a risky one pins the support lines above the composer, where they stay through
 * the next, ordinary message and a reload, foldable but never removed, the composer usable.
 */
test.use({ viewport: { width: 390, height: 844 } });

test('a risky message pins the support lines for the session; an ordinary one interrupts nothing', async ({ page, request }) => {
  test.setTimeout(120_000);
  await openNewChat(page, request, 'pinned');

  const box = page.getByRole('textbox', { name: 'Message' });
  const send = page.getByRole('button', { name: 'Send' });
  const last = page.getByTestId('ai-message').last();
  const log = page.getByRole('log', { name: 'Conversation' });
  const pinned = page.getByRole('button', { name: 'Support lines' });

  // Ordinary talk that used to sound an alarm: an ordinary reply, nothing pinned.
  await box.fill('this cold is killing me lol');
  await box.press('Enter');
  await expect(page.getByTestId('ai-message')).toHaveCount(2, { timeout: 20_000 });
  await expect(send).toBeEnabled({ timeout: 20_000 });
  await expect(last).not.toContainText('are you thinking about hurting yourself');
  await expect(last).not.toContainText('741741');
  await expect(log.getByRole('navigation', { name: 'Crisis resources in this reply' })).toHaveCount(0);
  await expect(pinned).toHaveCount(0);

  // A possible risk: the check-in, and the lines pinned above the composer.
  await box.fill("I can't do this anymore and I just want to disappear");
  await box.press('Enter');
  await expect(last).toContainText('are you thinking about hurting yourself or ending your life?', { timeout: 20_000 });
  await expect(pinned).toBeVisible();
  await expect(pinned).toHaveAttribute('aria-expanded', 'true');
  const card = page.locator('section', { has: pinned });
  await expect(card.getByRole('link', { name: 'findahelpline.com' })).toBeVisible();
  const cardBox = (await card.boundingBox())!;
  const boxBox = (await box.boundingBox())!;
  expect(cardBox.y + cardBox.height).toBeLessThanOrEqual(boxBox.y);
  expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(390);
  await expect(send).toBeEnabled({ timeout: 20_000 });
  // The card meets WCAG A/AA in both colour schemes.
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await new AxeBuilder({ page }).include('section:has([aria-controls])').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(results.violations.map((v) => `${colorScheme} ${v.id}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The next, ordinary message: an ordinary reply, and the lines stay.
  await box.fill('no, mostly just stressed about exams');
  await box.press('Enter');
  await expect(page.getByTestId('user-message').last()).toHaveText('no, mostly just stressed about exams');
  await expect(page.getByTestId('ai-message')).toHaveCount(4, { timeout: 20_000 });
  await expect(last).not.toContainText('741741');
  await expect(pinned).toBeVisible();

  // Folded, it is one line and the composer keeps its room; it comes back unfolded.
  await pinned.click();
  await expect(pinned).toHaveAttribute('aria-expanded', 'false');
  await expect(card.getByRole('link', { name: 'findahelpline.com' })).toBeHidden();
  expect((await card.boundingBox())!.height).toBeLessThanOrEqual(56);
  await expect(box).toBeVisible();
  await expect(send).toBeEnabled({ timeout: 20_000 });
  await pinned.click();
  await expect(card.getByRole('link', { name: 'findahelpline.com' })).toBeVisible();

  // A reload reads the pinned lines from the session.
  await page.reload();
  await expect(page.getByTestId('ai-message').first()).toBeVisible();
  await expect(pinned).toBeVisible();
  await box.fill('thanks');
  await expect(box).toHaveValue('thanks');
  const { scrollWidth, innerWidth } = (await page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
  )) as { scrollWidth: number; innerWidth: number };
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
});
