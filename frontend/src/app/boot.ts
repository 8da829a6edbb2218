/**
 * index.html's first script (issue 36, item 9), built on its own by vite.config.ts (bootScript)
 * and loaded with the app's entry: when an access token is stored and the page is the dashboard
 * or a chat, it asks for the screen's code and styles at once, one round trip after the page,
 * rather than after the entry has arrived and run (the entry then sends the screen's first
 * requests, ./earlyStart.ts, whose code is among these files). A file of the app's own origin,
 * as the CSP's script-src 'self' wants; small, since the signed-out landing page loads it too.
 */

/** Each screen's files in assets/, by the path's first segment; '*': those both need. */
declare const __SCREEN_FILES__: Record<string, string[]>;

/** Whether an access token is stored (as ../auth/storage.ts reads it, without its code). */
function signedIn(): boolean {
  try {
    return Boolean(localStorage.getItem('accessToken'));
  } catch {
    return false;
  }
}

const files = __SCREEN_FILES__;
const screen = files[window.location.pathname.split('/')[1] ?? ''];
if (screen && signedIn()) {
  for (const file of [...files['*']!, ...screen]) {
    const link = document.createElement('link');
    link.href = `/assets/${file}`;
    if (file.endsWith('.css')) Object.assign(link, { rel: 'preload', as: 'style' });
    else link.rel = 'modulepreload';
    document.head.append(link);
  }
}
