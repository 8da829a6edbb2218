/** True when `pathname` is `to` or below it (e.g. /chat/42 under /chat). */
export function isActivePath(pathname: string, to: string): boolean {
  if (to === '/') return pathname === '/';
  return pathname === to || pathname.startsWith(`${to}/`);
}
