import { expect, test, type Page } from '@playwright/test';
import { estimateRowHeight, estimateScroller } from '../src/features/chat/components/MessageList/rowEstimate';
import { HOSTILE } from './servers/hostile.mjs';
import {
  expectInertReply,
  expectNoCspViolation,
  LONG_CHAT_TEXT,
  openNewChat,
  seedLongChat,
  setRole,
  signIn,
  verifiedAccount,
  watchCsp,
} from './support';

/**
 * The chat on a phone (390 × 844): it fits, it starts clean, a reply can be
 * stopped, and a hostile reply renders inert under the CSP.
 */
test.use({ viewport: { width: 390, height: 844 } });

const STARTER = "Hello! I'd like to start a new conversation.";
const TROUBLE = "I'm having trouble connecting";

/** Nothing on the page scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  // In-page code is passed as text: the e2e files compile without the DOM library.
  const { scrollWidth, innerWidth } = (await page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
  )) as { scrollWidth: number; innerWidth: number };
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** The control is inside the viewport and its content is not cut off. */
async function expectWhole(page: Page, locator: ReturnType<Page['locator']>) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  const clipped = await locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(clipped).toBe(false);
}

test('the chat fits a phone: a wide composer, a whole header, a clean start, nothing sideways', async ({ page, request }) => {
  test.setTimeout(90_000);
  await openNewChat(page, request, 'phone');

  // A clean start: the starter went to the server but is never shown as the user's words.
  await expect(page.getByTestId('user-message')).toHaveCount(0);
  await expect(page.getByText(STARTER)).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('ai-message').first()).toBeVisible();
  await expect(page.getByTestId('user-message')).toHaveCount(0);

  // The composer spans the width.
  const box = page.getByRole('textbox', { name: 'Message' });
  const boxWidth = (await box.boundingBox())!.width;
  expect(boxWidth).toBeGreaterThanOrEqual(0.7 * 390);
  await expectWhole(page, page.getByRole('button', { name: 'Send' }));

  // The header: the title may shrink, its controls stay whole.
  await expectWhole(page, page.getByRole('button', { name: 'End Session' }));
  await expectWhole(page, page.getByRole('button', { name: 'Offline companion' }));
  const title = page.getByRole('heading', { level: 1 });
  const titleBox = (await title.boundingBox())!;
  expect(titleBox.x + titleBox.width).toBeLessThanOrEqual(390);
  await expect(page.getByLabel('Tokens used')).toBeVisible();

  // Starter chips fill the composer.
  await page.getByRole('group', { name: 'Conversation starters' }).getByRole('button', { name: 'Exams on my mind' }).click();
  await expect(box).toHaveValue('Exams on my mind');

  for (const width of [360, 390, 430]) {
    await page.setViewportSize({ width, height: 844 });
    await expectNoSidewaysScroll(page);
    await expectWhole(page, page.getByRole('button', { name: 'End Session' }));
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard');
  await expect(page.getByTestId('session-card').first()).toBeVisible();
  for (const width of [360, 390, 430]) {
    await page.setViewportSize({ width, height: 844 });
    await expectNoSidewaysScroll(page);
  }
});

test('the dashboard at a glance: a greeting, the prompt, the summary arriving by itself, and an ended chat to continue from', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = await verifiedAccount(request, 'phone-glance');
  setRole(email, 'BASIC');
  await signIn(page, email);
  await expect(page.getByText(/^Good (morning|afternoon|evening)/)).toBeVisible();
  await expect(page.getByRole('region', { name: "Today's prompt" })).toBeVisible();

  await page.getByRole('button', { name: 'Start New Chat' }).first().click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  const chatUrl = page.url();
  await page.getByRole('textbox', { name: 'Message' }).fill('Exams next week, and I miss home a lot.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('ai-message')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });
  await page.getByRole('button', { name: 'End Session' }).click();
  await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End Session' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // No reload: the dashboard asks again until the summary is written; it is then in the card's
  // Session Summary dropdown (once: not also on the card, issue 36).
  const card = page.getByTestId('session-card').first();
  await expect(card).toBeVisible();
  await expect(card.getByText('summarising…')).toHaveCount(0, { timeout: 60_000 });
  await expectNoSidewaysScroll(page);

  // Opening a dropdown leaves the card its own height... and the page its width.
  await card.getByRole('button', { name: 'Session Summary' }).click();
  const summary = card.getByRole('region', { name: 'Session Summary' });
  await expect(summary).not.toContainText(/No summary yet|Loading/, { timeout: 60_000 });
  await expect(summary).not.toHaveText('');
  await expectNoSidewaysScroll(page);

  // The ended chat, opened later: its summary at the top and a way on.
  await page.goto(chatUrl);
  const top = page.getByRole('region', { name: 'This session has ended' });
  await expect(top.getByTestId('ended-summary')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectWhole(page, top.getByRole('button', { name: 'Continue in a new chat' }));
  await top.getByRole('button', { name: 'Continue in a new chat' }).click();
  await expect(page).not.toHaveURL(chatUrl);
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();

  // On a wide screen, two cards share a row: opening one card's dropdown leaves the other its height.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard');
  await expect(page.getByTestId('session-card')).toHaveCount(2);
  const [first, second] = [page.getByTestId('session-card').nth(0), page.getByTestId('session-card').nth(1)];
  expect(Math.round((await first.boundingBox())!.y)).toBe(Math.round((await second.boundingBox())!.y));
  const before = (await first.boundingBox())!.height;
  await second.getByRole('button', { name: 'Session Summary' }).click();
  await expect(second.getByRole('region', { name: 'Session Summary' })).toBeVisible();
  expect((await first.boundingBox())!.height).toBe(before);
});

/** How far the conversation is from its end (0 when the newest message is in view). */
async function distanceFromEnd(page: Page): Promise<number> {
  return page.getByRole('log', { name: 'Conversation' }).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

test('a long chat opens at its newest message, shows older ones when scrolled up, follows a reply, and its composer grows', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = await verifiedAccount(request, 'phone-long');
  const session = seedLongChat(email, 300);
  await signIn(page, email);

  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(viewport);
    await page.goto(`/chat/${session}`);
    // At the newest message, all the way down.
    await expect(page.getByTestId('ai-message').filter({ hasText: /^Message 300:/ })).toBeInViewport();
    await expect.poll(() => distanceFromEnd(page)).toBeLessThanOrEqual(1);

    // The first render's estimates (rowEstimate.ts) are what the layout gives, so that render has
    // the rows in view and no more, and their measuring changes nothing before the first paint.
    // Measured once the web fonts are in, whose lines the estimates count.
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const laid = (await page.getByRole('log', { name: 'Conversation' }).evaluate(`(() => {
      const el = document.querySelector('[role="log"]');
      return {
        height: el.getBoundingClientRect().height,
        rows: [...el.querySelectorAll('[data-index]')].map((row) => {
          const message = row.querySelector('[data-testid]');
          return { height: row.getBoundingClientRect().height, ai: message.dataset.testid === 'ai-message', n: Number(/^Message (\\d+):/.exec(message.textContent)[1]) };
        }),
      };
    })()`)) as { height: number; rows: { height: number; ai: boolean; n: number }[] };
    const scroller = estimateScroller(viewport);
    expect(Math.abs(laid.height - scroller.height)).toBeLessThanOrEqual(4);
    expect(laid.rows.length).toBeGreaterThan(2);
    // A row's lines are counted from its characters, not its words: a row may be a line off (27 px).
    for (const row of laid.rows) {
      const content = `Message ${row.n}${LONG_CHAT_TEXT}`;
      const estimate = estimateRowHeight({ role: row.ai ? 'assistant' : 'user', content, timestamp: 'stored' }, scroller.width);
      expect(Math.abs(row.height - estimate), `row of message ${row.n} at ${viewport.width} px`).toBeLessThanOrEqual(28);
    }

    // Scrolled to the top, the oldest.
    await page.getByRole('log', { name: 'Conversation' }).evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect(page.getByTestId('user-message').filter({ hasText: /^Message 1:/ })).toBeInViewport();
    await expect(page.getByTestId('ai-message').filter({ hasText: /^Message 300:/ })).toHaveCount(0);
  }

  // A reply streamed at the end is followed: the view ends on it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('ai-message').filter({ hasText: /^Message 300:/ })).toBeInViewport();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('I have an exam on Friday and I keep putting off revising for it.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('user-message').filter({ hasText: /^I have an exam on Friday/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });
  await expect(page.getByTestId('ai-message').last()).toBeInViewport();
  await expect.poll(() => distanceFromEnd(page)).toBeLessThanOrEqual(1);

  // The composer grows with its text, up to six lines; beyond them its text scrolls.
  const height = async () => (await box.boundingBox())!.height;
  await box.fill('One line');
  const one = await height();
  await box.fill('One\ntwo\nthree');
  const three = await height();
  expect(three).toBeGreaterThan(one + 30);
  await box.fill('1\n2\n3\n4\n5\n6');
  const six = await height();
  expect(six).toBeGreaterThan(three + 30);
  await box.fill('1\n2\n3\n4\n5\n6\n7\n8\n9\n10');
  expect(Math.abs((await height()) - six)).toBeLessThanOrEqual(1);
  expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await box.fill('');
  expect(Math.abs((await height()) - one)).toBeLessThanOrEqual(1);
});

test('a refresh as the reply starts still shows the whole reply, followed again or stored', async ({ page, request }) => {
  test.setTimeout(90_000);
  await openNewChat(page, request, 'phone-refresh');
  const attaches: number[] = [];
  page.on('response', (res) => {
    if (/\/api\/chat\/sessions\/[^/]+\/stream$/.test(new URL(res.url()).pathname)) attaches.push(res.status());
  });

  await page.getByRole('textbox', { name: 'Message' }).fill('I have an exam on Friday and I keep putting off revising for it.');
  await page.getByRole('button', { name: 'Send' }).click();
  // Leave as soon as the reply starts to arrive.
  await expect(page.getByTestId('ai-message')).toHaveCount(2);
  await page.reload();

  // Whether the reply was still being written (followed again) or already stored, it is all there.
  await expect(page.getByTestId('user-message')).toHaveCount(1);
  await expect(page.getByTestId('ai-message')).toHaveCount(2);
  await expect(page.getByTestId('ai-message').last()).toContainText('?', { timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 20_000 });
  await expect(page.getByTestId('reply-notice')).toHaveCount(0);
  await expect(page.getByText(TROUBLE)).toHaveCount(0);
  for (const status of attaches) expect([200, 204]).toContain(status);
});

test('Stop ends a streaming reply and keeps what arrived, marked stopped', async ({ page, request }) => {
  test.setTimeout(90_000);
  // The reply stream this page reads writes a few words and then waits, as a
  // slow model would, until the page stops reading it. Stop itself goes to the
  // real server.
  await page.addInitScript(`
    const realFetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.includes('/api/chat/message/stream')) return realFetch(input, init);
      const body = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('event: delta\\ndata: {"text":"I hear you, and I am still"}\\n\\n'));
          if (init && init.signal) {
            init.signal.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')));
          }
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
    };
  `);
  await openNewChat(page, request, 'phone-stop');

  const stops: number[] = [];
  page.on('response', (res) => {
    if (/\/api\/chat\/sessions\/[^/]+\/stop$/.test(new URL(res.url()).pathname)) stops.push(res.status());
  });

  await page.getByRole('textbox', { name: 'Message' }).fill('Tell me something slow.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('ai-message').last()).toHaveText('I hear you, and I am still');
  await expect(page.getByRole('button', { name: 'Send' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Stop reply' }).click();

  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await expect(page.getByTestId('ai-message').last()).toHaveText('I hear you, and I am still');
  await expect(page.getByTestId('reply-mark')).toHaveText('Stopped');
  await expect(page.getByText(TROUBLE)).toHaveCount(0);
  expect(stops.length).toBe(1);
  expect([200, 204]).toContain(stops[0]);
});

test('a hostile reply renders inert: no script, no image, no javascript: link, no CSP violation', async ({ page, request }) => {
  test.setTimeout(90_000);
  const problems = await watchCsp(page);
  await openNewChat(page, request, 'phone-xss');

  const sse =
    `event: delta\ndata: ${JSON.stringify({ text: HOSTILE })}\n\n` +
    `event: done\ndata: ${JSON.stringify({
      success: true,
      sessionId: new URL(page.url()).pathname.split('/').pop(),
      aiResponse: HOSTILE,
      sessionTokensUsed: 10,
      sessionTokenLimit: 1000,
      sessionEnded: false,
    })}\n\n`;
  await page.route('**/api/chat/message/stream', (route) =>
    route.fulfill({ status: 200, headers: { 'Content-Type': 'text/event-stream' }, body: sse }),
  );

  await page.getByRole('textbox', { name: 'Message' }).fill('Show me a link.');
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = page.getByTestId('ai-message').last();
  await expect(reply).toContainText('something to try');
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();

  await expectInertReply(reply);

  await expectNoCspViolation(page, problems);
});

test('the sign-in forms fit a phone: no button or link is cut off', async ({ page }) => {
  for (const path of ['/login', '/register']) {
    for (const width of [360, 390]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(path);
      await expect(page.locator('main').getByRole('button').first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      // A label cut off by its button (Mantine's labels do not wrap by default) reads wrong: "Create an accoun".
      const clipped = (await page.evaluate(
        `[...document.querySelectorAll('main button, main a, main [class*="Button-label"]')]
          .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent.trim())`,
      )) as string[];
      expect(clipped, `${path} at ${width} px`).toEqual([]);
    }
  }
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'New here? Create an account' })).toBeVisible();
});
