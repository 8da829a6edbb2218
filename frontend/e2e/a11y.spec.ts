import { createRequire } from 'node:module';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { AxeResults, RunOnly } from 'axe-core';
import { newAccount, setRole, signIn, verifiedAccount } from './support';

/**
 * WCAG 2.2 AA, proven by axe on every route of the app: signed out, and signed in as a FREE
 * (USER) and a PREMIUM user; each page in light and dark, at a phone's 390 × 844 and a
 * desktop's 1280 × 900; with the dialogs (End Session, Change Password, Delete Account,
 * "Forget everything", Reset Password) scanned open. Every finding of WCAG A/AA is reported,
 * whatever its impact.
 *
 * To stay quick, each role uses one page: it opens a route once, then changes the viewport
 * and the colour scheme in place (the scheme is the data-mantine-color-scheme attribute on
 * <html>, exactly what Mantine's own switch sets; nothing else in the app reads it). axe is
 * loaded into every document once, as an init script, rather than injected for each scan. In
 * the light scheme every rule of TAGS runs; in the dark one, the rules about colour (nothing
 * else on the page differs between the schemes).
 */
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const schemes = ['light', 'dark'] as const;
/** The rules of TAGS whose outcome depends on colours. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];

/** The public routes of spec §2, each with what shows once it has loaded. */
const publicRoutes: { path: string; ready: (page: Page) => Locator }[] = [
  { path: '/', ready: (p) => p.getByRole('heading', { level: 1, name: 'Find Clarity with Percolate' }) },
  { path: '/about', ready: (p) => p.locator('main h1') },
  { path: '/team', ready: (p) => p.locator('main h1') },
  { path: '/privacy', ready: (p) => p.locator('main h1') },
  { path: '/safety', ready: (p) => p.locator('main h1') },
  { path: '/login', ready: (p) => p.getByRole('button', { name: 'Sign In', exact: true }) },
  { path: '/register', ready: (p) => p.getByRole('button', { name: 'Create Account' }) },
  { path: '/reset?token=not-a-real-token', ready: (p) => p.locator('main h1, main h2').first() },
  { path: '/email-verified?t=not-a-real-token', ready: (p) => p.getByRole('heading', { name: 'Verification Failed' }) },
  { path: '/subscription-success', ready: (p) => p.locator('main h1, main h2').first() },
  { path: '/error/401', ready: (p) => p.locator('main h1, main h2').first() },
  { path: '/error/404', ready: (p) => p.locator('main h1, main h2').first() },
];

/** Scans what the page shows now in both schemes at both sizes; adds each finding to found. */
async function scan(page: Page, what: string, found: string[]) {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    for (const scheme of schemes) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.evaluate((s) => document.documentElement.setAttribute('data-mantine-color-scheme', s), scheme);
      // The scheme changes colours only: in the second one, the rules about colour are enough.
      const runOnly = scheme === schemes[0] ? { type: 'tag', values: TAGS } : { type: 'rule', values: COLOUR_RULES };
      const violations = await page.evaluate(async (only) => {
        const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe;
        // Judge what the reader ends up seeing: colours that fade when the scheme changes
        // (Mantine's 150 ms background transitions) have finished.
        await Promise.all(
          document
            .getAnimations()
            .filter((a) => a instanceof CSSTransition)
            .map((a) => a.finished.catch(() => undefined)),
        );
        const results = await axe.run(document, { runOnly: only as RunOnly, resultTypes: ['violations'] });
        return results.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          where: v.nodes
            .slice(0, 3)
            .map((n) => `${n.target.join(' ')} (${n.any[0]?.message ?? n.failureSummary})`)
            .join(' | '),
        }));
      }, runOnly);
      for (const v of violations) found.push(`${what} (${scheme}, ${viewport.width} px) ${v.id} [${v.impact}]: ${v.where}`);
    }
  }
  counted.scans += viewports.length * schemes.length;
}

const counted = { scans: 0 };

/** Opens path and waits for what shows once it has loaded. */
async function open(page: Page, path: string, ready: Locator) {
  await page.goto(path);
  await expect(ready).toBeVisible({ timeout: 15_000 });
}

/** Scans every public route, and the small-screen menu open. */
async function scanPublicRoutes(page: Page, who: string, found: string[]) {
  for (const { path, ready } of publicRoutes) {
    await open(page, path, ready(page));
    await scan(page, `${who} ${path}`, found);
  }
  await page.setViewportSize(viewports[0]);
  await open(page, '/', publicRoutes[0].ready(page));
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('button', { name: 'Close navigation' })).toBeVisible();
  await scan(page, `${who} / menu open`, found);
}

/** Scans a dialog once it is open, by its accessible name. */
async function scanDialog(page: Page, name: string, what: string, found: string[]) {
  await expect(page.getByRole('dialog', { name })).toBeVisible();
  await scan(page, `${what} dialog "${name}"`, found);
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript({ path: AXE_SOURCE });
  await page.emulateMedia({ reducedMotion: 'reduce' });
});

test('every public route, signed out, light and dark, 390 and 1280 px', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  counted.scans = 0;
  const found: string[] = [];
  await scanPublicRoutes(page, 'signed out', found);

  // Forgot password opens the reset dialog on the login page.
  await open(page, '/login', page.getByRole('button', { name: 'Sign In', exact: true }));
  await page.getByRole('button', { name: 'Forgot password' }).click();
  await scanDialog(page, 'Reset Password', 'signed out /login', found);

  testInfo.annotations.push({ type: 'axe scans', description: String(counted.scans) });
  expect(found).toEqual([]);
});

for (const [label, role] of [
  ['FREE', 'USER'],
  ['PREMIUM', 'PREMIUM'],
] as const) {
  test(`every route signed in as a ${label} user, with its dialogs open, light and dark, 390 and 1280 px`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(180_000);
    counted.scans = 0;
    const found: string[] = [];
    const who = `${label}`;
    const email = await verifiedAccount(request, `a11y-${label.toLowerCase()}`);
    if (role !== 'USER') setRole(email, role);
    await signIn(page, email);

    // A new chat (/chat without an id): the welcome and the starter chips.
    await open(page, '/chat', page.getByTestId('ai-message').first());
    await scan(page, `${who} /chat (new)`, found);

    // The chat with messages: what the user said and the reply.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill("My statistics midterm is on Tuesday and I'm nervous.");
    await box.press('Enter');
    await expect(page.getByTestId('user-message')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });
    await expect(page.getByTestId('ai-message')).toHaveCount(2);
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    const chatPath = new URL(page.url()).pathname;
    await scan(page, `${who} /chat/:id with messages`, found);

    // The closing moment, open; then the session ends and the dashboard shows it.
    await page.getByRole('button', { name: 'End Session' }).click();
    await scanDialog(page, 'End this session?', `${who} /chat/:id`, found);
    await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End Session' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('session-card').first()).toBeVisible();
    await scan(page, `${who} /dashboard`, found);

    // The ended chat, opened again.
    await open(page, chatPath, page.getByTestId('ai-message').first());
    await scan(page, `${who} /chat/:id ended`, found);

    await open(page, '/insights', page.locator('main h1').first());
    await scan(page, `${who} /insights`, found);

    // The small-screen menu of the signed-in layout.
    await page.setViewportSize(viewports[0]);
    await open(page, '/dashboard', page.getByTestId('session-card').first());
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('button', { name: 'Close navigation' })).toBeVisible();
    await scan(page, `${who} /dashboard menu open`, found);

    // Every public route, signed in (the header shows Dashboard instead of Login).
    await scanPublicRoutes(page, who, found);

    // The profile, once the ended session's memories are written (in the background).
    const memories = page.getByRole('region', { name: 'What Percolate remembers' });
    await expect(async () => {
      await open(page, '/profile', memories);
      await expect(memories.getByRole('button', { name: 'Forget everything' })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await scan(page, `${who} /profile`, found);

    await page.getByRole('button', { name: 'Change Password' }).click();
    await scanDialog(page, 'Change Password', `${who} /profile`, found);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.getByRole('button', { name: 'Delete Account' }).click();
    await expect(page.getByText('Are you absolutely sure?')).toBeVisible();
    await scan(page, `${who} /profile dialog "Delete Account"`, found);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await memories.getByRole('button', { name: 'Forget everything' }).click();
    await scanDialog(page, 'Forget everything?', `${who} /profile`, found);

    testInfo.annotations.push({ type: 'axe scans', description: String(counted.scans) });
    expect(found).toEqual([]);
  });
}

test("the first sign-in's onboarding, each step, and the dashboard's check-in card open and folded, light and dark, 390 and 1280 px", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  counted.scans = 0;
  const found: string[] = [];
  await signIn(page, await newAccount(request, 'a11y-onboarding'));
  const dialog = page.getByRole('dialog');
  for (const [step, next] of [
    ['What would you like to focus on?', 'Skip'],
    ['Anything to steer clear of?', 'Skip'],
    ['Where are you?', 'Skip'],
    ['A gentle reminder?', 'Finish'],
  ] as const) {
    await expect(dialog.getByRole('heading', { name: step })).toBeVisible();
    await scan(page, `onboarding "${step}"`, found);
    await dialog.getByRole('button', { name: next, exact: true }).click();
  }
  await expect(dialog).toBeHidden();

  // The dashboard with the check-in card open (not checked in yet), then folded to one line on
  // the visit after today's check-in.
  await expect(page.getByTestId('checkin-card').getByRole('group', { name: 'Your mood' })).toBeVisible();
  await scan(page, '/dashboard not checked in today', found);
  await page.getByTestId('checkin-card').getByRole('button', { name: 'Okay' }).click();
  await expect(page.getByTestId('checkin-card').getByRole('status')).toContainText('Saved: okay.');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Checked in today: okay' })).toBeVisible({ timeout: 15_000 });
  await scan(page, '/dashboard checked in today', found);

  testInfo.annotations.push({ type: 'axe scans', description: String(counted.scans) });
  expect(found).toEqual([]);
});

// axe does not test placeholders: every placeholder on the forms reads at 4.5:1 or more
// against its input's background.
for (const scheme of schemes) {
  test(`placeholders meet AA contrast (${scheme})`, async ({ page, request }) => {
    const email = await verifiedAccount(request, `placeholder-${scheme}`);
    await page.addInitScript((s) => window.localStorage.setItem('percolate-color-scheme', s), scheme);
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: scheme });
    await signIn(page, email);
    const checked: string[] = [];
    for (const path of ['/dashboard', '/chat']) {
      await page.goto(path);
      await expect(page.locator('input[placeholder], textarea[placeholder]').first()).toBeVisible();
      const ratios = await page.evaluate(() => {
        const rgba = (s: string) => {
          const m = s.match(/rgba?\(([^)]+)\)/);
          if (!m) return null;
          const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
          return { r, g, b, a };
        };
        const lum = ({ r, g, b }: { r: number; g: number; b: number }) => {
          const f = (v: number) => {
            const c = v / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          };
          return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
        };
        const backgroundOf = (el: Element | null): { r: number; g: number; b: number } => {
          for (let e = el; e; e = e.parentElement) {
            const c = rgba(getComputedStyle(e).backgroundColor);
            if (c && c.a > 0) return c;
          }
          return { r: 255, g: 255, b: 255 };
        };
        return [...document.querySelectorAll('input[placeholder], textarea[placeholder]')]
          .filter((el) => (el as HTMLInputElement).placeholder && (el as HTMLElement).offsetParent !== null)
          .map((el) => {
            const bg = backgroundOf(el);
            const fg = rgba(getComputedStyle(el, '::placeholder').color) ?? { r: 0, g: 0, b: 0, a: 1 };
            const blended = {
              r: fg.r * fg.a + bg.r * (1 - fg.a),
              g: fg.g * fg.a + bg.g * (1 - fg.a),
              b: fg.b * fg.a + bg.b * (1 - fg.a),
            };
            const [hi, lo] = [lum(blended), lum(bg)].sort((x, y) => y - x);
            return { name: (el as HTMLInputElement).placeholder, ratio: (hi + 0.05) / (lo + 0.05) };
          });
      });
      for (const { name, ratio } of ratios) {
        checked.push(name);
        expect(ratio, `${path}: placeholder "${name}" contrast ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(4.5);
      }
    }
    expect(checked.length, 'no placeholder was found to check').toBeGreaterThan(0);
  });
}

test('the first Tab reaches a skip link that moves focus to the page', async ({ page }) => {
  await page.goto('/about');
  await expect(page.locator('h1').first()).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
});
