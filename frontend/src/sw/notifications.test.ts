import { CHECKIN_URL, openFromNotification, readPush, type AppWindow, type AppWindows } from './notifications';

const origin = 'https://percolate.example';

test('a push payload {title, body, url} becomes the notification; odd or foreign parts fall back', () => {
  expect(readPush(JSON.stringify({ title: 'A minute for you', body: 'How is today going?', url: '/dashboard#checkin' }), origin)).toEqual({
    title: 'A minute for you',
    body: 'How is today going?',
    url: '/dashboard#checkin',
  });
  // Another site's address never becomes the click's target, nor a javascript: one.
  expect(readPush(JSON.stringify({ title: 'x', url: 'https://elsewhere.example/phish' }), origin).url).toBe(CHECKIN_URL);
  expect(readPush(JSON.stringify({ url: 'javascript:alert(1)' }), origin).url).toBe(CHECKIN_URL);
  expect(readPush(JSON.stringify({ url: `${origin}/mood?x=1` }), origin).url).toBe('/mood?x=1');
  // Not JSON, or empty: still a gentle notification leading to the check-in.
  expect(readPush('not json', origin)).toEqual({ title: 'Percolate', body: 'How are you right now?', url: CHECKIN_URL });
  expect(readPush(null, origin).url).toBe(CHECKIN_URL);
  expect(readPush(JSON.stringify({ title: 42, body: ['x'] }), origin).title).toBe('Percolate');
});

/** The app's open windows, recording what the click handler does with them. */
function windows(...urls: string[]) {
  const log: string[] = [];
  const open: AppWindow[] = urls.map((url) => ({
    url,
    focus: async () => log.push(`focus ${url}`),
    navigate: async (to: string) => log.push(`navigate ${url} -> ${to}`),
  }));
  const clients: AppWindows = {
    matchAll: async () => open,
    openWindow: async (url: string) => log.push(`open ${url}`),
  };
  return { clients, log };
}

test('a click opens the check-in card in a new window when no dashboard is open', async () => {
  const { clients, log } = windows();
  await openFromNotification(clients, origin, CHECKIN_URL);
  expect(log).toEqual([`open ${origin}/dashboard#checkin`]);
});

test('a click focuses an open dashboard and brings it to the check-in card', async () => {
  const { clients, log } = windows(`${origin}/chat/1`, `${origin}/dashboard`);
  await openFromNotification(clients, origin, CHECKIN_URL);
  expect(log).toEqual([`focus ${origin}/dashboard`, `navigate ${origin}/dashboard -> ${origin}/dashboard#checkin`]);
});

test('a click never moves a window on another page, where the user may be typing', async () => {
  const { clients, log } = windows(`${origin}/chat/1`);
  await openFromNotification(clients, origin, CHECKIN_URL);
  expect(log).toEqual([`open ${origin}/dashboard#checkin`]);
});

test('a window already at the check-in is only focused', async () => {
  const { clients, log } = windows(`${origin}/dashboard#checkin`);
  await openFromNotification(clients, origin, CHECKIN_URL);
  expect(log).toEqual([`focus ${origin}/dashboard#checkin`]);
});
