import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { signIn, verifiedAccount } from './support';

/**
 * Pictures of the main screens for a reviewer who does not run anything: `make e2e` writes
 * them to docs/screenshots/ at the repository root (git-ignored), named
 * <screen>-<width>-<scheme>.png. This spec only writes files: it never compares pictures, so
 * a visual change cannot fail it.
 */
const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];
const schemes = ['light', 'dark'] as const;
type Scheme = (typeof schemes)[number];

/** Opens path at each width and writes a picture of the whole page once its heading shows. */
async function shoot(page: Page, name: string, path: string, scheme: Scheme, ready = () => page.locator('h1').first()) {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expect(ready()).toBeVisible();
    await expect(page.getByText('Checking authentication...')).toHaveCount(0);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${OUT}${name}-${viewport.width}-${scheme}.png`, fullPage: true, animations: 'disabled' });
  }
}

test.beforeAll(() => mkdirSync(OUT, { recursive: true }));

for (const scheme of schemes) {
  test(`writes screenshots of the main screens (${scheme})`, async ({ page, request }) => {
    test.setTimeout(60_000);
    await page.addInitScript((s) => window.localStorage.setItem('percolate-color-scheme', s), scheme);
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: scheme });

    await shoot(page, 'landing', '/', scheme);
    await shoot(page, 'login', '/login', scheme);
    await shoot(page, 'safety', '/safety', scheme);

    const email = await verifiedAccount(request, `shots-${scheme}`);
    await signIn(page, email);

    // One exchange, so the chat shows a conversation and the dashboard a session.
    await page.goto('/chat');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Exams start Monday and I keep rereading the same page.');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('ai-message').last()).toContainText('?', { timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });
    const chat = new URL(page.url()).pathname;

    await shoot(page, 'chat', chat, scheme, () => page.getByTestId('user-message').first());
    await shoot(page, 'dashboard', '/dashboard', scheme);
    await shoot(page, 'insights', '/insights', scheme);
    await shoot(page, 'profile', '/profile', scheme);
  });
}
