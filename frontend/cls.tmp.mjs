import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const path of ['/', '/about', '/team', '/privacy']) {
  for (const [w, h] of [[1280, 800], [360, 740]]) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h } });
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
    await page.addInitScript(() => {
      window.__cls = 0; window.__shifts = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) { if (!e.hadRecentInput) { window.__cls += e.value; window.__shifts.push([e.value.toFixed(3), e.sources?.map(s => s.node?.nodeName + '.' + (s.node?.className||'').toString().slice(0,30)).join('|')]); } } }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('http://127.0.0.1:18095' + path, { waitUntil: 'networkidle' });
    await page.waitForTimeout(1500);
    const r = await page.evaluate(() => [window.__cls, window.__shifts]);
    console.log(path, w, 'CLS', r[0].toFixed(3), JSON.stringify(r[1]).slice(0, 300));
    await ctx.close();
  }
}
await browser.close();
