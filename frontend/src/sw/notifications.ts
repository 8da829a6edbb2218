/**
 * What the service worker (./sw.ts) does with a push message and a click on its
 * notification, kept apart from the worker's globals so that Vitest can run it.
 */

/** Where a reminder leads: the dashboard's check-in card. */
export const CHECKIN_URL = '/dashboard#checkin';

/** A push message's payload as the server sends it (issue 31: JSON {title, body, url}). */
export interface PushNotice {
  title: string;
  body: string;
  /** A path inside this app, never another site. */
  url: string;
}

/**
 * Reads a push payload. A message that is not the JSON we send, or lacks a part, still shows
 * a gentle notification, and a url that points anywhere but this app becomes the check-in.
 */
export function readPush(text: string | null | undefined, origin: string): PushNotice {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text ?? '');
    if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
  } catch {
    // not JSON: the defaults below
  }
  const text_ = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  return {
    title: text_(data.title) || 'Percolate',
    body: text_(data.body) || 'How are you right now?',
    url: appPath(data.url, origin),
  };
}

/** url as a path of this app (origin), or the check-in when it is not one. */
export function appPath(url: unknown, origin: string): string {
  if (typeof url !== 'string' || url === '') return CHECKIN_URL;
  try {
    const u = new URL(url, origin);
    if (u.origin !== origin || !u.pathname.startsWith('/')) return CHECKIN_URL;
    return u.pathname + u.search + u.hash;
  } catch {
    return CHECKIN_URL;
  }
}

/** The parts of a WindowClient that the click handler uses. */
export interface AppWindow {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

/** The parts of the worker's Clients that the click handler uses. */
export interface AppWindows {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly AppWindow[]>;
  openWindow(url: string): Promise<unknown>;
}

/**
 * Opens path (a path of this app) after a click on a notification. A window already on that
 * page (the dashboard, whatever its #fragment) is focused and moved to the path; any other
 * page is left as it is, since the user may be typing there, and a new window opens instead.
 */
export async function openFromNotification(clients: AppWindows, origin: string, path: string): Promise<void> {
  const target = new URL(path, origin);
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const samePage = windows.find((w) => {
    const u = new URL(w.url);
    return u.origin === target.origin && u.pathname === target.pathname && u.search === target.search;
  });
  if (samePage) {
    // Focus is allowed only for a real click; whatever it says, the window still moves.
    await samePage.focus().catch(() => undefined);
    if (samePage.url !== target.href) await samePage.navigate(target.href);
    return;
  }
  await clients.openWindow(target.href);
}
