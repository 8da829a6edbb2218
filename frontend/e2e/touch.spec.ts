import { createRequire } from 'node:module';
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { signIn, verifiedAccount } from './support';

/**
 * Touch and keyboard on a phone (issue 36, item 7), at 390 × 844: every visible interactive
 * element on every route is at least 44 × 44 px; headings are in order and landmarks have
 * unique names; the composer has the focus when a chat opens, the page's heading after sign-in
 * and after a route change; a tap leaves no tooltip behind; /reset's buttons and the search
 * placeholder are whole at 360 px.
 */
test.use({ viewport: { width: 390, height: 844 } });

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const MIN = 44;

/** The public routes of spec §2, each with what shows once it has loaded. */
const publicRoutes: { path: string; ready: (page: Page) => Locator }[] = [
  { path: '/', ready: (p) => p.getByRole('heading', { level: 1, name: 'Find Clarity with Percolate' }) },
  { path: '/about', ready: (p) => p.getByTestId('pricing-box').first() },
  { path: '/team', ready: (p) => p.getByTestId('team-member').first() },
  { path: '/privacy', ready: (p) => p.locator('main h1') },
  { path: '/safety', ready: (p) => p.locator('main h1') },
  { path: '/login', ready: (p) => p.getByRole('button', { name: 'Sign In', exact: true }) },
  { path: '/register', ready: (p) => p.getByRole('button', { name: 'Create Account' }) },
  { path: '/reset?token=not-a-real-token', ready: (p) => p.getByRole('button', { name: 'Reset Password' }) },
  { path: '/email-verified?t=not-a-real-token', ready: (p) => p.getByRole('heading', { name: 'Verification Failed' }) },
  { path: '/subscription-success', ready: (p) => p.locator('main h1') },
  { path: '/error/401', ready: (p) => p.locator('main h1') },
  { path: '/error/404', ready: (p) => p.locator('main h1') },
];

/**
 * The visible interactive elements smaller than MIN × MIN px, described. A checkbox, radio or
 * switch is measured with its label (a tap on either toggles it). Links inside a line of text
 * are left out: WCAG 2.5.8's inline exception covers a target whose size is set by the line
 * height of the sentence it sits in.
 */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const selector = [
      'a[href]',
      'button',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      'summary',
      '[role="button"]',
      '[role="link"]',
      '[role="checkbox"]',
      '[role="switch"]',
      '[role="tab"]',
      '[tabindex]:not([tabindex="-1"])',
    ].join(',');
    const blockOf = (el: Element): Element => {
      let e = el.parentElement;
      while (e && getComputedStyle(e).display.startsWith('inline')) e = e.parentElement;
      return e ?? document.body;
    };
    const inSentence = (el: Element) =>
      getComputedStyle(el).display === 'inline' && (blockOf(el).textContent ?? '').trim() !== (el.textContent ?? '').trim();
    const name = (el: Element) =>
      (
        el.getAttribute('aria-label') ||
        (el as HTMLInputElement).labels?.[0]?.textContent ||
        el.textContent ||
        el.getAttribute('placeholder') ||
        el.getAttribute('title') ||
        ''
      )
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 40);
    const out: string[] = [];
    for (const el of document.querySelectorAll(selector)) {
      if (!el.checkVisibility({ visibilityProperty: true })) continue;
      if (el.closest('[aria-hidden="true"], [inert]')) continue;
      if (el.tagName === 'A' && inSentence(el)) continue;
      const rects = [el.getBoundingClientRect()];
      const input = el as HTMLInputElement;
      if (['checkbox', 'radio'].includes(input.type) && input.labels) {
        for (const l of input.labels) rects.push(l.getBoundingClientRect());
      }
      const left = Math.min(...rects.map((r) => r.left));
      const right = Math.max(...rects.map((r) => r.right));
      const top = Math.min(...rects.map((r) => r.top));
      const bottom = Math.max(...rects.map((r) => r.bottom));
      const [w, h] = [right - left, bottom - top];
      if (w === 0 && h === 0) continue;
      // Half a pixel of rounding is not a smaller target.
      if (w + 0.5 < min || h + 0.5 < min) {
        out.push(`${el.tagName.toLowerCase()} "${name(el)}" ${w.toFixed(1)} × ${h.toFixed(1)}`);
      }
    }
    return out;
  }, MIN);
}

/** axe's rules for heading order and landmark names, on what the page shows now. */
async function structureFindings(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe;
    const rules = [
      'heading-order',
      'landmark-unique',
      'landmark-no-duplicate-banner',
      'landmark-no-duplicate-contentinfo',
      'landmark-no-duplicate-main',
      'landmark-one-main',
      'page-has-heading-one',
    ];
    const results = await axe.run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] });
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

/** Measures what the page shows now; adds each finding, named by where, to found. */
async function measure(page: Page, where: string, found: string[], structure = true) {
  for (const s of await smallTargets(page)) found.push(`${where}: ${s}`);
  if (structure) for (const s of await structureFindings(page)) found.push(`${where}: ${s}`);
}

async function open(page: Page, path: string, ready: Locator) {
  await page.goto(path);
  await expect(ready).toBeVisible({ timeout: 15_000 });
}

/** The phone menu, open: measured without the structure rules (the page behind it is covered). */
async function measureMenu(page: Page, where: string, found: string[]) {
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('button', { name: 'Close navigation' })).toBeVisible();
  await measure(page, `${where} menu open`, found, false);
  await page.getByRole('button', { name: 'Close navigation' }).click();
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript({ path: AXE_SOURCE });
  await page.emulateMedia({ reducedMotion: 'reduce' });
});

test('every route at 390 px: each interactive element is at least 44 × 44 px, headings in order, landmarks named once', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const found: string[] = [];
  for (const { path, ready } of publicRoutes) {
    await open(page, path, ready(page));
    await measure(page, `signed out ${path}`, found);
  }
  await measureMenu(page, 'signed out /error/404', found);
  await open(page, '/login', page.getByRole('button', { name: 'Sign In', exact: true }));
  await page.getByRole('button', { name: 'Forgot password' }).click();
  await expect(page.getByRole('dialog', { name: 'Reset Password' })).toBeVisible();
  await measure(page, 'signed out /login dialog "Reset Password"', found, false);

  await signIn(page, await verifiedAccount(request, 'touch'));
  await expect(page.getByTestId('session-card').or(page.getByText('Start your first conversation!'))).toBeVisible();
  await measure(page, '/dashboard (no sessions)', found);
  await measureMenu(page, '/dashboard', found);

  await open(page, '/chat', page.getByTestId('ai-message').first());
  await measure(page, '/chat (new)', found);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('My statistics midterm is on Tuesday and I feel nervous.');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('ai-message')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });
  await measure(page, '/chat/:id', found);
  const chatPath = new URL(page.url()).pathname;

  await page.getByRole('button', { name: 'End Session' }).click();
  const dialog = page.getByRole('dialog', { name: 'End this session?' });
  await expect(dialog).toBeVisible();
  await measure(page, '/chat/:id dialog "End this session?"', found, false);
  await dialog.getByRole('button', { name: 'End Session' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('session-card').first()).toBeVisible();
  await measure(page, '/dashboard', found);
  await page.getByTestId('session-card').first().getByRole('button', { name: 'Session Summary' }).click();
  await measure(page, '/dashboard summary open', found);
  // Checked in today: the next visit shows the check-in card folded to one line.
  await page.getByTestId('checkin-card').getByRole('button', { name: 'Good' }).click();
  await expect(page.getByTestId('checkin-card').getByRole('status')).toContainText('Saved: good.');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Checked in today: good' })).toBeVisible({ timeout: 15_000 });
  await measure(page, '/dashboard checked in today', found);

  await open(page, chatPath, page.getByTestId('ai-message').first());
  await measure(page, '/chat/:id ended', found);
  await open(page, '/insights', page.locator('main h1'));
  await measure(page, '/insights', found);
  await open(page, '/profile', page.getByRole('heading', { level: 1, name: 'Your Profile' }));
  await measure(page, '/profile', found);

  expect(found, `targets under ${MIN} × ${MIN} px or structure findings:\n${found.join('\n')}`).toEqual([]);
});

test('the focus: on the heading after sign-in and after a route change, on the composer when a chat opens', async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = await verifiedAccount(request, 'touch-focus');
  await signIn(page, email);
  await expect(page.getByRole('heading', { level: 1, name: 'Your Sessions' })).toBeFocused();

  // A route change from the phone menu: the new page's heading.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your Profile' })).toBeFocused();

  // A new chat from the menu: the composer, ready to type.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('link', { name: 'New chat' }).click();
  await expect(page.getByTestId('ai-message').first()).toBeVisible();
  const box = page.getByRole('textbox', { name: 'Message' });
  await expect(box).toBeFocused();
  await page.keyboard.type('Exams next week.');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('ai-message')).toHaveCount(2);
  const chatPath = new URL(page.url()).pathname;

  // A chat opened from the dashboard's card, and one opened by its address.
  await page.goto('/dashboard');
  await page.getByTestId('session-card').first().getByRole('link').click();
  await expect(page).toHaveURL(chatPath);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
  await page.goto(chatPath);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();

  // To the dashboard from the menu, then back with the browser: the heading, then the composer.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your Sessions' })).toBeFocused();
  await page.goBack();
  await expect(page).toHaveURL(chatPath);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('a tap leaves no tooltip behind', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const email = await verifiedAccount(request, 'touch-tooltip');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await signIn(page, email);
  await page.goto('/chat');
  await expect(page.getByTestId('ai-message').first()).toBeVisible();
  // Send with an empty box sends nothing: the tap is all there is.
  await page.getByRole('button', { name: 'Send' }).tap();
  await page.getByRole('textbox', { name: 'Message' }).tap();
  await expect(page.getByRole('tooltip')).toHaveCount(0);

  // The offline companion's note opens on a tap and closes on the next tap elsewhere.
  const offline = page.getByRole('button', { name: 'Offline companion' });
  await offline.tap();
  const note = page.getByRole('dialog', { name: 'Offline companion' });
  await expect(note).toContainText("Replies come from Percolate's built-in offline companion");
  await page.getByRole('heading', { level: 1 }).tap();
  await expect(note).toBeHidden();

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Start New Chat' }).first().tap();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('ai-message').first()).toBeVisible();
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await context.close();
});

/** Whether the element's text (or its placeholder) fits its box, and the box the screen. */
function whole(locator: Locator) {
  return locator.evaluate((el) => {
    const input = el as HTMLInputElement;
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    const onScreen = rect.left >= 0 && rect.right <= window.innerWidth;
    if (input.placeholder !== undefined && el.tagName === 'INPUT') {
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { onScreen, fits: ctx.measureText(input.placeholder).width <= room, room, need: ctx.measureText(input.placeholder).width };
    }
    const label = el.querySelector('.mantine-Button-label') ?? el;
    return { onScreen, fits: label.scrollWidth <= label.clientWidth + 1, room: label.clientWidth, need: label.scrollWidth };
  });
}

test("at 360 px /reset's buttons and the dashboard's search placeholder are whole", async ({ page, request }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 360, height: 780 });
  await open(page, '/reset?token=not-a-real-token', page.getByRole('button', { name: 'Reset Password' }));
  for (const name of ['Back to Login', 'Reset Password']) {
    expect(await whole(page.getByRole('button', { name })), name).toMatchObject({ onScreen: true, fits: true });
  }
  await signIn(page, await verifiedAccount(request, 'touch-360'));
  const search = page.getByRole('textbox', { name: 'Search sessions' });
  await expect(search).toHaveAttribute('placeholder', 'Search by session name or date');
  const measured = await whole(search);
  expect(measured, JSON.stringify(measured)).toMatchObject({ onScreen: true, fits: true });
});

/**
 * What the page shows now at 390 px, looked at as a phone would: nothing wider than the screen
 * (no sideways scroll), every target 44 × 44 px or more, and axe's WCAG rules in both schemes.
 * A screenshot of each scheme is attached for a person to look at.
 */
async function phoneCheck(page: Page, where: string, found: string[], testInfo: TestInfo) {
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  if (width.scroll > width.inner) found.push(`${where}: ${width.scroll} px wide on a ${width.inner} px screen`);
  for (const s of await smallTargets(page)) found.push(`${where}: ${s}`);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.evaluate((s) => document.documentElement.setAttribute('data-mantine-color-scheme', s), scheme);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe;
      await Promise.all(
        document
          .getAnimations()
          .filter((a) => a instanceof CSSTransition)
          .map((a) => a.finished.catch(() => undefined)),
      );
      const results = await axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
        resultTypes: ['violations'],
      });
      return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
    });
    for (const v of violations) found.push(`${where} (${scheme}): ${v}`);
    const shot = testInfo.outputPath(`${where.replace(/\W+/g, '-')}-${scheme}.png`);
    await page.screenshot({ path: shot });
    await testInfo.attach(`${where} (${scheme})`, { path: shot, contentType: 'image/png' });
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
}

/**
 * The check-in card's five moods as they show: each button's size, and whether its label is on
 * one line inside it.
 */
function moodButtons(page: Page) {
  return page
    .getByTestId('checkin-card')
    .getByRole('group', { name: 'Your mood' })
    .getByRole('button')
    .evaluateAll((buttons) =>
      buttons.map((button) => {
        const box = button.getBoundingClientRect();
        const text = [...button.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim())!;
        const range = document.createRange();
        range.selectNodeContents(text);
        const label = range.getBoundingClientRect();
        return {
          label: text.textContent,
          big: box.width + 0.5 >= 44 && box.height + 0.5 >= 44,
          lines: range.getClientRects().length,
          inside: label.left >= box.left && label.right <= box.right,
        };
      }),
    );
}

/** Each mood's label on one line inside a button of at least 44 × 44 px. */
async function expectWholeMoods(page: Page, width: number) {
  const moods = await moodButtons(page);
  const whole = ['Very low', 'Low', 'Okay', 'Good', 'Great'].map((label) => ({ label, big: true, lines: 1, inside: true }));
  expect(moods, `the mood buttons at ${width} px`).toEqual(whole);
}

test('at 360 and 390 px the five moods fit on one row, each label whole on one line', async ({ page, request }) => {
  test.setTimeout(60_000);
  await signIn(page, await verifiedAccount(request, 'touch-moods'));
  await expect(page.getByRole('heading', { name: 'How are you right now?' })).toBeVisible();
  for (const width of [390, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await expectWholeMoods(page, width);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll, `page width at ${width} px`).toBeLessThanOrEqual(width);
  }
});

test("a refused check-in's line on the card and the logout dialog for unsent check-ins, at 390 px", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, await verifiedAccount(request, 'touch-unsent'));
  await expect(page.getByRole('heading', { name: 'How are you right now?' })).toBeVisible();
  // A check-in kept on this device while offline for a month: older than the server takes a
  // kept check-in back, so the app's send of it, as the page opens, is refused for good.
  await page.evaluate(() => {
    const userId = (JSON.parse(localStorage.getItem('user')!) as { id: string }).id;
    const d = new Date(Date.now() - 30 * 86_400_000);
    const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const kept = [{ data: { clientId: crypto.randomUUID(), mood: 2, localDate: day } }];
    localStorage.setItem(`checkinQueue:${userId}`, JSON.stringify(kept));
  });
  await page.reload();
  const card = page.getByTestId('checkin-card');
  const refused = card.getByRole('alert').filter({ hasText: "A check-in wasn't saved" });
  await expect(refused).toContainText(/Your check-in from \w+ \d+ \w+ \(low\) couldn't be saved: Must be a date in the last 7 days/);
  await expect(refused.getByRole('button', { name: 'Save it for today' })).toBeVisible();
  await expect(refused.getByRole('button', { name: 'Discard' })).toBeVisible();
  await expectWholeMoods(page, 390);
  const found: string[] = [];
  await refused.scrollIntoViewIfNeeded();
  await phoneCheck(page, 'dashboard refused check-in', found, testInfo);

  // Logout from the phone menu: the kept check-in was refused, so the app asks first, and says
  // so. The dialog takes the menu's place, with the focus on the answer that loses nothing.
  const menuButton = page.getByRole('button', { name: /(Open|Close) navigation/ });
  const menu = page.getByRole('navigation', { name: 'Account' }).filter({ has: page.getByRole('button', { name: 'Logout' }) });
  await menuButton.click();
  await menu.getByRole('button', { name: 'Logout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log out?' });
  await expect(dialog).toContainText(
    "1 check-in on this device couldn't be saved. Your dashboard says why. If you log out now, it will be removed from this device and lost.",
  );
  await expect(menu).toBeHidden();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await expect(dialog.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Log out anyway' })).toBeVisible();
  await phoneCheck(page, 'logout dialog', found, testInfo);
  // Too long for one row at 390 px, the two answers are one above the other, each the dialog's
  // full width (not wrapped at two widths, flush right).
  const stay = (await dialog.getByRole('button', { name: 'Stay signed in' }).boundingBox())!;
  const leave = (await dialog.getByRole('button', { name: 'Log out anyway' }).boundingBox())!;
  expect(leave.y).toBeGreaterThanOrEqual(stay.y + stay.height);
  expect([leave.x, leave.width]).toEqual([stay.x, stay.width]);
  expect(stay.width).toBeGreaterThan(300);

  // Staying keeps the check-in and the session, and leaves the focus on the menu button.
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(menuButton).toBeFocused();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');

  // Offline, a check-in is kept on this device: the dialog now names both kinds.
  await page.context().setOffline(true);
  await card.getByRole('button', { name: 'Very low' }).click();
  await expect(card.getByRole('status')).toContainText("Saved on this device: very low. It will be sent when you're back online.");
  await menuButton.click();
  await menu.getByRole('button', { name: 'Logout' }).click();
  await expect(dialog).toContainText(
    "1 check-in on this device hasn't been sent yet, and 1 couldn't be saved (your dashboard says why). If you log out now, they will be removed from this device and lost.",
  );
  await phoneCheck(page, 'logout dialog unsent and refused', found, testInfo);
  await dialog.getByRole('button', { name: 'Stay signed in' }).click();
  await expect(dialog).toBeHidden();

  // Discard removes the refused line; what is left is on its way.
  await refused.getByRole('button', { name: 'Discard' }).click();
  await expect(refused).toBeHidden();
  await menuButton.click();
  await menu.getByRole('button', { name: 'Logout' }).click();
  await expect(dialog).toContainText(
    "1 check-in on this device hasn't been sent yet. It will be sent when you're back online. If you log out now, it will be removed from this device and lost.",
  );

  // Log out anyway, still offline: the server cannot be told, and the menu shows again with
  // that message, the focus on Logout to try again.
  await dialog.getByRole('button', { name: 'Log out anyway' }).click();
  await expect(dialog).toBeHidden();
  await expect(menu.getByRole('alert')).toHaveText('Failed to logout');
  await expect(menu.getByRole('button', { name: 'Logout' })).toBeFocused();
  await phoneCheck(page, 'logout failed offline', found, testInfo);
  expect(found, `at 390 px:\n${found.join('\n')}`).toEqual([]);
});
