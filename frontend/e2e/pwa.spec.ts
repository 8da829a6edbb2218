import AxeBuilder from '@axe-core/playwright';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { expect, test, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { signIn, verifiedAccount } from './support';

// Issue 31 §4: the installable app. The other journeys block service workers (see
// playwright.config.ts); these let the app's own run, at phone width in Debian's Chromium.
test.use({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });

/** Waits until the page's service worker is active: the shell is then precached. */
async function workerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

/** Reloads until the page is under the worker's control (a first install claims no page). */
async function underControl(page: Page): Promise<void> {
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** The app's service worker, as Playwright sees it (to run code in it). */
async function appWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers().find((w) => w.url().endsWith('/sw.js')) ?? context.waitForEvent('serviceworker');
}

/** The notifications the worker shows now. */
function shown(page: Page) {
  return page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as unknown,
      icon: new URL(n.icon).pathname,
      badge: new URL(n.badge).pathname,
    })),
  );
}

/**
 * Records, in the worker, when each push event arrives and when its showNotification is called
 * and settles (ms since now); returns a reader of that record ("worker gone" when the worker was
 * stopped and its record lost). A lost push then says which stage it never reached.
 */
async function tracePushes(worker: Worker): Promise<() => Promise<string>> {
  await worker.evaluate(`(() => {
    const t0 = Date.now();
    const log = (self.__pushTrace = ['worker ' + self.serviceWorker.state]);
    self.addEventListener('push', () => log.push('push ' + (Date.now() - t0)));
    const show = self.registration.showNotification.bind(self.registration);
    self.registration.showNotification = (...args) => {
      log.push('show ' + (Date.now() - t0));
      return show(...args).then(
        (v) => (log.push('shown ' + (Date.now() - t0)), v),
        (e) => { log.push('failed ' + e); throw e; },
      );
    };
  })()`);
  return async () => JSON.stringify(await worker.evaluate('self.__pushTrace').catch((e: unknown) => `worker gone (${String(e)})`));
}

/** Waits for exactly `notice` to show; a failure adds the worker's trace of the pushes. */
async function expectShown(page: Page, notice: object, trace: () => Promise<string>, what: string) {
  try {
    await expect.poll(() => shown(page), { timeout: 30_000, message: what }).toEqual([notice]);
  } catch (e) {
    throw new Error(`${(e as Error).message}\nthe worker's trace: ${await trace()}`);
  }
}

test('a signed-out visit to the landing page installs no service worker (its budgets hold)', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Find Clarity with Percolate' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
});

test('the app is installable: Chromium finds no installability error in its manifest', async ({ playwright, request, baseURL }, testInfo) => {
  const email = await verifiedAccount(request, 'pwa-install');
  // Chromium never offers to install from an incognito profile, which is what every new
  // Playwright context is: this journey runs in a browser with a profile of its own.
  const profile = mkdtempSync(join(tmpdir(), 'percolate-e2e-profile-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
    serviceWorkers: 'allow',
    viewport: { width: 390, height: 844 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signIn(page, email);
    await workerReady(page);

    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const { errors } = await cdp.send('Page.getAppManifest');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }

  const res = await request.get('/manifest.webmanifest');
  expect(res.headers()['content-type']).toBe('application/manifest+json');
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: 'Percolate',
    short_name: 'Percolate',
    start_url: '/dashboard',
    display: 'standalone',
    theme_color: '#FBF6EF',
    background_color: '#FBF6EF',
  });
  expect(manifest.description).toBeTruthy();
  // 192 and 512 px, each as an ordinary and a maskable icon, and each really that size.
  const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
  for (const size of [192, 512]) {
    for (const purpose of ['any', 'maskable']) {
      const icon = icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
      expect(icon, `${size} px ${purpose}`).toBeDefined();
      // A PNG's width and height are the big-endian words at bytes 16 and 20.
      const png = await (await request.get(icon!.src)).body();
      const natural = [png.readUInt32BE(16), png.readUInt32BE(20)];
      expect(natural).toEqual([size, size]);
    }
  }
});

// Quarantined (issue 31). The "one notification too many" of the earlier full runs never came
// back: not in 24 loops of this journey's push, click, /profile, push, click (48 pushes, five
// contexts, load 25-35), nor in mixed runs with the check-in, mood and reminder journeys. Two
// other failures did, both under load (18-35 on two CPUs):
// - time: sign-up, sign-in and the worker's install (it precaches the shell) took about 28 s of
//   the default 30, and one getNotifications() 4 s inside a 5 s poll; hence the 120 s and 30 s
//   waits below (the same things are waited for), which made the passing runs pass (52-58 s);
// - a lost push: in 1 of its 3 runs in a mixed run (pwa, reminders, check-in and mood journeys,
//   --repeat-each=3), the first push, sent 1 s after the page came under the worker's control,
//   showed nothing in 30 s (getNotifications() stayed empty; CDP accepts the message without
//   saying whether the worker got it); a first loop that closed each notification by script lost
//   a push in 2 of its 3 contexts the same way, while 10 fresh contexts pushing as this journey
//   does (0.1-1 s after control) lost none. Not yet known whether the event reaches the worker.
// Ruled out since (2026-11-29): the worker's push handler calls event.waitUntil synchronously on
// showNotification's own promise (no fetch, no clients lookup, nothing that can throw before it);
// the journey pushes only after navigator.serviceWorker.ready and a reload under the worker's
// control, and the worker is then 'activated' (traced). Not reproduced: 10 of 10 alone
// (--repeat-each 10, load 2-8) and 3 of 3 in a mixed run with the check-in, mood and reminder
// journeys (--repeat-each 3, two workers, load 4-6), each push shown 14-160 ms after delivery.
// Still open: a slow fetch of the notification's icon and badge (showNotification settles only
// once the browser has them), or CDP's delivery itself. tracePushes names the stage a lost push
// missed: a trace without "push" was never delivered, one with "show" but no "shown" waited on
// the browser.
// The notifications are compared whole, so a failure names any extra one.
test.fixme('a delivered push shows a notification, and its click opens the check-in card', async ({ page, context, request, baseURL }) => {
  test.setTimeout(120_000);
  const patient = { timeout: 30_000 };
  const origin = new URL(baseURL!).origin;
  await context.grantPermissions(['notifications'], { origin });
  const email = await verifiedAccount(request, 'pwa-push');
  await signIn(page, email);
  await workerReady(page);
  await underControl(page);

  // The push service's side: CDP hands the worker a push message as the browser would.
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const trace = await tracePushes(await appWorker(context));
  const payload = { title: 'A minute for you', body: 'How is today going?', url: '/dashboard#checkin' };
  const notice = {
    title: payload.title,
    body: payload.body,
    tag: 'percolate-reminder',
    data: { url: '/dashboard#checkin' },
    icon: '/icons/icon-192.png',
    badge: '/icons/badge-96.png',
  };
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: await registrationId,
    data: JSON.stringify(payload),
  });
  await expectShown(page, notice, trace, 'the first push');

  // A click: headless Chromium has no notification to click, so the worker is handed the
  // same notificationclick event a click dispatches, with the notification it shows. Its
  // handler focuses the open dashboard and moves it to the check-in card.
  const click = `(async () => {
    const [notification] = await self.registration.getNotifications();
    self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
  })()`;
  await (await appWorker(context)).evaluate(click);
  await expect(page).toHaveURL(`${origin}/dashboard#checkin`, patient);
  await expect.poll(() => shown(page), patient).toEqual([]);

  // With the app open on another page (where the user may be typing), the click leaves that
  // page alone and opens a new window at the check-in. A click made by a script may not open
  // windows, so here the worker's openWindow is replaced by one that records its address.
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Your Profile' })).toBeVisible(patient);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: await registrationId,
    data: JSON.stringify(payload),
  });
  await expectShown(page, notice, trace, 'the second push');
  const worker = await appWorker(context);
  await worker.evaluate(`self.clients.openWindow = async (url) => { self.__opened = url; return null; }`);
  await worker.evaluate(click);
  await expect.poll(() => worker.evaluate('self.__opened'), patient).toBe(`${origin}/dashboard#checkin`);
  await expect(page).toHaveURL(/\/profile$/);
});

test('a new version takes over when the user says so: "A new version is ready", Reload', async ({ browser, request, baseURL }) => {
  // A new deployment changes the server's sw.js. Here a small proxy in front of the server
  // stands for the deployment: from `deployed` on it serves the worker with one more line, as
  // a new build's list of files would change it (neither Playwright's routing nor CDP's Fetch
  // sees the browser's own fetch of a worker script, so the change has to come from the
  // server's side).
  let deployed = false;
  const upstream = new URL(baseURL!);
  const proxy = createHttpServer((req, res) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        if (deployed && req.url?.startsWith('/sw.js')) {
          const parts: Buffer[] = [];
          answer.on('data', (b: Buffer) => parts.push(b));
          answer.on('end', () => {
            const body = Buffer.concat([gunzipIfNeeded(answer.headers, Buffer.concat(parts)), Buffer.from('\n// the next version\n')]);
            const headers = { ...answer.headers, 'content-length': String(body.length) };
            delete headers['content-encoding'];
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(body);
          });
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  const context = await browser.newContext({ baseURL: base, serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });
  try {
    const page = await context.newPage();
    await signIn(page, await verifiedAccount(request, 'pwa-update'));
    await workerReady(page);
    await underControl(page);
    const prompt = page.getByText('A new version is ready.');
    await expect(page.getByRole('button', { name: 'Start New Chat' }).first()).toBeVisible();
    await expect(prompt).toHaveCount(0);

    // The new version is deployed; the app looks for it (as it does when it comes back to the front).
    deployed = true;
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.ready).update();
    });
    await expect(prompt).toBeVisible();
    // Not a dialog; at 390 px the card sits inside the screen.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const box = (await page.getByRole('button', { name: 'Reload' }).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // axe finds nothing in it, in either colour scheme.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const { violations } = await new AxeBuilder({ page }).include('[aria-live="polite"]').analyze();
      expect(violations, colorScheme).toEqual([]);
    }

    await page.evaluate(() => Object.assign(window, { oldPage: true }));
    await page.getByRole('button', { name: 'Reload' }).click();
    // The page reloads (a new document) under the new worker: nothing waits any more, and no
    // prompt shows.
    // While the reload is under way the old document's context goes away mid-question: ask again.
    await expect.poll(() => page.evaluate(() => 'oldPage' in window).catch(() => true)).toBe(false);
    await expect(page.getByRole('button', { name: 'Start New Chat' }).first()).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const r = await navigator.serviceWorker.ready;
          return { waiting: r.waiting === null, controlled: navigator.serviceWorker.controller !== null };
        }).catch(() => null),
      )
      .toEqual({ waiting: true, controlled: true });
    await expect(prompt).toHaveCount(0);
  } finally {
    await context.close();
    await new Promise((resolve) => proxy.close(resolve));
  }
});

/** body as sent, gunzipped when the server compressed it. */
function gunzipIfNeeded(headers: IncomingHttpHeaders, body: Buffer): Buffer {
  return headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

/** A free loopback port for the server this spec starts and stops. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

test('with the server stopped, the shell loads, and a check-in made offline is stored once after the server is back', async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  // Its own server (the real binary on its own built-in database), so that this journey can
  // stop it and start it again on the same data without touching the one the other journeys use.
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'percolate-e2e-pwa-'));
  chmodSync(dir, 0o711); // the built-in PostgreSQL runs as the postgres user when we are root
  const dataDir = join(dir, 'data');
  const start = () => {
    const proc = spawn(fileURLToPath(new URL('../../bin/percolate', import.meta.url)), ['serve'], {
      env: { ...process.env, PERCOLATE_ADDR: `127.0.0.1:${port}`, PERCOLATE_DATA_DIR: dataDir, PERCOLATE_LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    return { proc, exited: new Promise((resolve) => proc.once('exit', resolve)) };
  };
  let server = start();
  const base = `http://127.0.0.1:${port}`;
  const request = await playwright.request.newContext({ baseURL: base });
  const context = await browser.newContext({ baseURL: base, serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });
  const healthy = () =>
    expect.poll(async () => (await request.get('/api/health').catch(() => null))?.status(), { timeout: 60_000 }).toBe(200);
  try {
    await healthy();

    // The first signed-in page installs the app.
    const page = await context.newPage();
    await signIn(page, await verifiedAccount(request, 'pwa-offline', dataDir));
    await workerReady(page);
    /** The signed-in user's check-ins, as the API has them. */
    const stored = () =>
      page.evaluate(async () => {
        const res = await fetch('/api/checkins', { headers: { Authorization: `Bearer ${localStorage.getItem('accessToken')}` } });
        return ((await res.json()) as { mood: number }[]).map((c) => c.mood);
      });
    expect(await stored()).toEqual([]);

    server.proc.kill('SIGTERM');
    await server.exited;
    expect(await request.get('/api/health').then(() => 'answered', () => 'no answer')).toBe('no answer');

    // The server is gone: the app still opens at its start page, signed in and saying calmly
    // that it is offline, with the check-in card. A check-in made now is kept on this device.
    await page.goto('/dashboard');
    await expect(page.getByRole('status').filter({ hasText: "You're offline right now." })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'How are you right now?' })).toBeVisible();
    await page.getByRole('button', { name: 'Low', exact: true }).click();
    const keptLine = page.getByText("Saved on this device: low. It will be sent when you're back online.");
    await expect(keptLine).toBeVisible();
    const card = (await page.getByTestId('checkin-card').boundingBox())!;
    expect(card.x + card.width).toBeLessThanOrEqual(390);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations).toEqual([]);
    // Opened again, still offline: the card still says it is kept.
    await page.reload();
    await expect(keptLine).toBeVisible();

    // A deep link opens from the precached shell too.
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Find Clarity with Percolate' })).toBeVisible();
    // ...while the API is never answered from a cache, nor stored in one: the caches hold
    // the shell and nothing the signed-in pages asked the API for.
    expect(await page.evaluate(() => fetch('/api/health').then((r) => r.status, () => 'no answer'))).toBe('no answer');
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/index.html');
    expect(cached.filter((u) => u.startsWith('/api'))).toEqual([]);

    // The server is back, on the same data: the app opens, sends the kept check-in, and it is
    // stored once, however often the app is opened or told the connection is back.
    server = start();
    await healthy();
    await page.goto('/dashboard');
    await expect(page.getByText('Saved: low. Thanks for checking in.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("You're offline right now.")).toHaveCount(0);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.reload();
    // Checked in today: the card opens folded, on the check-in the server now holds.
    await expect(page.getByRole('heading', { name: 'Checked in today: low' })).toBeVisible();
    await expect.poll(stored).toEqual([2]);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('checkinQueue:')))).toEqual([]);
  } finally {
    server.proc.kill('SIGTERM');
    await server.exited;
    await context.close();
    await request.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
