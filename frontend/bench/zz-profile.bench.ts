import { test } from '@playwright/test';
import { signIn, sql, verifiedAccount } from '../e2e/support';

test('profile', async ({ page, request }) => {
  test.setTimeout(200_000);
  const email = await verifiedAccount(request, 'prof');
  sql(`INSERT INTO chat_sessions (user_id, title, last_message, status, summary, emotions, created_at, ended_at, updated_at)
       SELECT u.id, 'Evening check-in ' || i, 'Work was long.', 'ENDED', 'We talked.', '{calm,tiredness}', t, t, t
       FROM (SELECT i, now() - i * interval '1 minute' AS t FROM generate_series(1, 10000) AS i) AS s, users u WHERE u.email = '${email}'`);
  const sid = sql(`INSERT INTO chat_sessions (user_id, title, last_message, token_limit) SELECT id, 'Long', 'Hello', 100000000 FROM users WHERE email = '${email}' RETURNING id`).trim().split('\n')[0];
  sql(`INSERT INTO messages (session_id, user_id, role, content, token_count, created_at)
       SELECT '${sid}', s.user_id, CASE WHEN g % 2 = 0 THEN 'assistant' ELSE 'user' END, 'Message ' || g || ': we talked about the garden and **Sunday**.', 20, now() - interval '1 day' + g * interval '1 second'
       FROM generate_series(1, 2000) g, chat_sessions s WHERE s.id = '${sid}'`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, email);
  const cdp = await page.context().newCDPSession(page);
  for (const [name, path, sel] of [['dashboard', '/dashboard', '[data-testid="session-card"]'], ['chat', `/chat/${sid}`, '[data-testid="user-message"]']] as const) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await page.goto('/about');
    await page.waitForTimeout(500);
    await cdp.send('Profiler.start');
    await page.goto(path);
    await page.locator(sel).first().waitFor();
    await page.waitForTimeout(800);
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map<number, number>();
    const dt = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (dt[i] ?? 0)));
    const byFile = new Map<string, number>();
    const byFn = new Map<string, number>();
    for (const n of profile.nodes) {
      const t = (self.get(n.id) ?? 0) / 1000;
      const file = n.callFrame.url.split('/').pop() || n.callFrame.functionName || '(native)';
      byFile.set(file, (byFile.get(file) ?? 0) + t);
      const fn = `${n.callFrame.functionName || '(anon)'} ${file}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
      byFn.set(fn, (byFn.get(fn) ?? 0) + t);
    }
    const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([f, t]) => `${t.toFixed(1)}ms ${f}`).join('\n');
    console.log(`== ${name} by file\n${top(byFile, 12)}\n== ${name} by function\n${top(byFn, 20)}`);
  }
});
