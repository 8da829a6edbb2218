import { server } from './server';

describe('the shared MSW server', () => {
  // The afterEach of setup.ts throws for a request nobody declared, which fails this test:
  // it.fails passes only if it does.
  it.fails('fails the test that makes a request no handler was declared for', async () => {
    await fetch('/api/nobody-declared-this').catch(() => undefined);
  });

  it('lets a declared request through', async () => {
    const { http, HttpResponse } = await import('msw');
    server.use(http.get('/api/declared', () => HttpResponse.json({ ok: true })));
    const res = await fetch('/api/declared');
    expect(await res.json()).toEqual({ ok: true });
  });
});
