import { isActivePath } from './isActivePath';

describe('isActivePath', () => {
  it.each([
    ['/', '/', true],
    ['/about', '/', false],
    ['/dashboard', '/dashboard', true],
    ['/chat/42', '/chat', true],
    ['/chatter', '/chat', false],
    ['/profile', '/dashboard', false],
  ])('%s under %s is %s', (pathname, to, expected) => {
    expect(isActivePath(pathname, to)).toBe(expected);
  });
});
