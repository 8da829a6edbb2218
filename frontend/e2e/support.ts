import { execFileSync } from 'node:child_process';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The data dir of the server Playwright started (set in playwright.config.ts); with model, the
 * one of the server that has a model configured; a string is the data dir of a server a
 * journey started itself.
 */
function dataDir(model: boolean | string = false): string {
  if (typeof model === 'string') return model;
  const dir = model ? process.env.E2E_MODEL_DATA_DIR : process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: these journeys need the server Playwright starts');
  return dir;
}

/** Decodes a quoted-printable body (the dev outbox writes mail as a relay would receive it). */
function decodeQuotedPrintable(s: string): string {
  return s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Waits for the newest mail to `to` in the dev outbox and returns the first link in it whose
 * path starts with `pathPrefix` (for example '/email-verified').
 */
export async function mailLink(to: string, pathPrefix: string, after = 0, model: boolean | string = false): Promise<string> {
  const outbox = join(dataDir(model), 'outbox');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    let files: string[] = [];
    try {
      // A mail being written is a hidden .tmp-*.eml until it is renamed whole: read only those done.
      files = readdirSync(outbox).filter((f) => f.endsWith('.eml') && !f.startsWith('.'));
    } catch {
      // not created yet
    }
    const candidates = files
      .map((f) => join(outbox, f))
      .filter((f) => statSync(f).mtimeMs >= after)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    for (const file of candidates) {
      const raw = readFileSync(file, 'utf8');
      const headerEnd = raw.search(/\r?\n\r?\n/);
      const headers = raw.slice(0, headerEnd);
      if (!new RegExp(`^To:.*${to.replace(/[.+]/g, '\\$&')}`, 'im').test(headers)) continue;
      const body = decodeQuotedPrintable(raw.slice(headerEnd));
      const match = body.match(new RegExp(`https?://[^\\s"<>]*${pathPrefix}[^\\s"<>]*`));
      if (match) return new URL(match[0]).pathname + new URL(match[0]).search;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} with a ${pathPrefix} link`);
}

/** Runs `percolate users set-role` against the running server's database. */
export function setRole(email: string, role: 'USER' | 'BASIC' | 'PREMIUM' | 'ADMIN'): void {
  execFileSync(fileURLToPath(new URL('../../bin/percolate', import.meta.url)), ['users', 'set-role', email, role], {
    env: { ...process.env, PERCOLATE_DATA_DIR: dataDir(), PERCOLATE_LOG_LEVEL: 'error' },
    stdio: 'pipe',
  });
}

/**
 * Runs SQL (one statement, no parameters) as psql against the running server's built-in
 * database, over its socket in the data dir. Only journeys that need a lot of rows use it.
 */
export function sql(statement: string): string {
  return execFileSync('psql', ['-h', join(dataDir(), 'postgres', 'run'), '-U', 'postgres', '-d', 'percolate', '-v', 'ON_ERROR_STOP=1', '-Atc', statement], {
    encoding: 'utf8',
    stdio: 'pipe',
  });
}

/** What follows "Message N" in each message of seedLongChat's session (no quote in it: it goes into SQL). */
export const LONG_CHAT_TEXT = ': we talked about the garden, the bus home and what to cook on **Sunday**.';

/**
 * Gives the account of `email` a chat session, "A long conversation", of `messages` messages
 * (the user's and the companion's in turn, a second apart, a day ago) and returns its id.
 * `updatedAt` is the session's updated_at, an SQL expression.
 */
export function seedLongChat(email: string, messages: number, updatedAt = 'now()'): string {
  const session = sql(`INSERT INTO chat_sessions (user_id, title, last_message, token_limit, updated_at)
       SELECT id, 'A long conversation', 'Hello', 100000000, ${updatedAt} FROM users WHERE email = '${email}'
       RETURNING id`).trim().split('\n')[0];
  sql(`INSERT INTO messages (session_id, user_id, role, content, token_count, created_at)
       SELECT s.id, s.user_id, CASE WHEN g % 2 = 0 THEN 'assistant' ELSE 'user' END,
              'Message ' || g || '${LONG_CHAT_TEXT}', 20,
              now() - interval '1 day' + g * interval '1 second'
       FROM generate_series(1, ${messages}) g, chat_sessions s WHERE s.id = '${session}'`);
  return session;
}

/** A fresh address for each run. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The password every journey account uses. */
export const PASSWORD = 'brew-a-fresh-pot';

/**
 * A verified account, made through the API and the link mailed to the dev outbox, past the first
 * sign-in's onboarding (journeys about the onboarding use newAccount). model: as for mailLink; the
 * request's base URL is that server's.
 */
export async function verifiedAccount(request: APIRequestContext, tag: string, model: boolean | string = false): Promise<string> {
  const email = await newAccount(request, tag, model);
  const login = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const done = await request.put('/api/profile', { headers: { Authorization: `Bearer ${accessToken}` }, data: { onboarded: true } });
  expect(done.status()).toBe(200);
  return email;
}

/** A verified account that has not signed in yet: its first sign-in shows the onboarding. */
export async function newAccount(request: APIRequestContext, tag: string, model: boolean | string = false): Promise<string> {
  const email = uniqueEmail(tag);
  const started = Date.now();
  const res = await request.post('/api/auth/register', {
    data: { name: 'Journey Tester', email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(res.status()).toBe(201);
  const t = new URL(await mailLink(email, '/email-verified', started, model), 'http://x').searchParams.get('t')!;
  expect((await request.get(`/api/auth/verify?t=${encodeURIComponent(t)}`)).status()).toBe(200);
  return email;
}

/** Fills in and submits the login page, whatever the outcome. */
export async function submitSignIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs in through the login page and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  await submitSignIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Signs a fresh account in (on the server with a model when model is set) and opens a new chat
 * from the dashboard: the starter goes on the wire and the welcome is shown.
 */
export async function openNewChat(page: Page, request: APIRequestContext, tag: string, model = false) {
  const email = await verifiedAccount(request, tag, model);
  await signIn(page, email);
  await page.getByRole('button', { name: 'Start New Chat' }).first().click();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('ai-message').first()).toBeVisible();
}

/**
 * A year of check-ins (two days in three) as GET /api/checkins/summary answers a paid account,
 * so that every chart of /mood is drawn; with tags, the tag patterns too (days=365).
 */
export function moodYear(end: string, tags: boolean) {
  const perDay = Array.from({ length: 365 }, (_, i) => {
    const d = new Date(`${end}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - i);
    return { date: d.toISOString().slice(0, 10), mood: 1 + ((i * 7) % 5), count: 1 };
  })
    .filter((_, i) => i % 3 !== 1)
    .reverse();
  return {
    days: tags ? 365 : 30,
    from: perDay[0].date,
    to: end,
    perDay: tags ? perDay : perDay.slice(-20),
    daysThisMonth: perDay.filter((d) => d.date.slice(0, 7) === end.slice(0, 7)).length,
    weekdays: Array.from({ length: 7 }, (_, weekday) => ({ weekday, mood: 2 + (weekday % 4) * 0.7, count: 30 + weekday })),
    ...(tags
      ? {
          tags: [
            { tag: 'exercise', withMood: 4.1, withCount: 40, withoutMood: 2.9, withoutCount: 200 },
            { tag: 'exams', withMood: 2.2, withCount: 30, withoutMood: 3.3, withoutCount: 210 },
          ],
        }
      : {}),
  };
}

/**
 * Collects the page's console errors and uncaught errors, and records every CSP violation in
 * window.cspViolations, for expectNoCspViolation.
 */
export async function watchCsp(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  await page.addInitScript(`
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
  `);
  return problems;
}

/**
 * The hostile reply (servers/hostile.mjs) is inert: its raw HTML is shown as the text it is,
 * never made into elements, and only its https link is a link, opening safely; the
 * javascript: one keeps its words only (a click on them does nothing).
 */
export async function expectInertReply(reply: Locator) {
  await expect(reply).toContainText('<script>window.pwned = "script"</script>');
  await expect(reply).toContainText('<img src="x" onerror=');
  expect(await reply.locator('script, img, iframe, [onerror]').count()).toBe(0);
  const links = reply.locator('a');
  await expect(links).toHaveCount(1);
  await expect(links.first()).toHaveAttribute('href', 'https://example.com/read');
  await expect(links.first()).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(links.first()).toHaveAttribute('target', '_blank');
  await reply.getByText('press me').click();
}

/** Nothing ran (window.pwned unset) and the CSP was never violated (see watchCsp). */
export async function expectNoCspViolation(page: Page, problems: string[]) {
  expect(await page.evaluate('window.pwned')).toBeUndefined();
  expect(await page.evaluate('window.cspViolations')).toEqual([]);
  expect(problems.filter((p) => /Content Security Policy|Refused/i.test(p))).toEqual([]);
}
