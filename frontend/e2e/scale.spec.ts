import { expect, test } from '@playwright/test';
import { signIn, sql, verifiedAccount } from './support';

test.use({ viewport: { width: 390, height: 844 } });

/**
 * A user with 10,000 sessions: the dashboard shows the newest at once from one page of 50, keeps
 * the page small (only the cards near the view are in it), and loads more when asked, by keyboard
 * or by scrolling.
 */
test('a dashboard of 10,000 sessions shows the first cards, stays small and loads more on demand', async ({
  page,
  request,
}) => {
  const email = await verifiedAccount(request, 'scale');
  sql(`INSERT INTO chat_sessions (user_id, title, last_message, status, created_at, ended_at, updated_at)
       SELECT u.id, 'Walk ' || i, 'A note from walk ' || i, 'ENDED', t, t, t
       FROM (SELECT i, now() - i * interval '1 minute' AS t FROM generate_series(1, 10000) AS i) AS s, users u
       WHERE u.email = '${email}'`);

  const firstPage = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/chat/sessions');
  await signIn(page, email);
  const first = await firstPage;
  const body = await first.body();
  expect(body.length).toBeLessThan(100_000);
  expect(first.headers()['link']).toMatch(/^<\/api\/chat\/sessions\?cursor=[^>]+>; rel="next"$/);
  test.info().annotations.push({ type: 'first page', description: `${body.length} bytes, ${(await first.json()).length} sessions` });

  await expect(page.getByRole('link', { name: 'Walk 1', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Walk 2', exact: true })).toBeVisible();
  const nodes = await page.evaluate(() => document.querySelectorAll('*').length);
  test.info().annotations.push({ type: 'DOM elements', description: String(nodes) });
  expect(nodes).toBeLessThan(1500);

  // "Load more" from the keyboard: the next cards appear where the button was.
  const more = page.getByRole('button', { name: 'Load more' });
  const secondPage = page.waitForResponse((r) => new URL(r.url()).searchParams.has('cursor'));
  await more.focus();
  await page.keyboard.press('Enter');
  await secondPage;
  await expect(page.getByRole('link', { name: 'Walk 51', exact: true })).toBeVisible();

  // Scrolling to the end loads the next page by itself, and only that page: the cards it brings
  // push the end of the list far out of view.
  const pagesAsked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/chat/sessions' && url.searchParams.has('cursor')) pagesAsked.push(url.search);
  });
  const thirdPage = page.waitForResponse((r) => new URL(r.url()).searchParams.has('cursor'));
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await thirdPage;
  await expect(page.getByRole('link', { name: 'Walk 101', exact: true })).toBeVisible();
  expect(pagesAsked).toHaveLength(1);
  expect(await page.evaluate(() => document.querySelectorAll('*').length)).toBeLessThan(1500);
});
