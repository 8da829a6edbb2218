/**
 * The few things the app does with the browser window itself: full page
 * navigations, reloads and new tabs. Kept in one object so tests can replace
 * them (jsdom cannot navigate).
 */
export const browser = {
  /** A full page load of another address (e.g. the server's sign-in start path). */
  assign(url: string): void {
    window.location.assign(url);
  },
  /** A full page load of /login: every in-memory piece of the old session goes. */
  redirectToLogin(): void {
    if (window.location.pathname !== '/login') window.location.assign('/login');
  },
  reload(): void {
    window.location.reload();
  },
  /** Opens an empty tab synchronously (inside the click) so pop-up blockers allow it. */
  openBlankTab(): Window | null {
    return window.open('', '_blank');
  },
  /** Saves a downloaded file under a name (through a temporary link). */
  saveFile(blob: Blob, name: string): void {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // Let the browser start the download before the address goes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },
};
